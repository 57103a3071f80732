/*
 * sweep_naive.c - an independent judge for the sweep tests: reads lines
 * "RULE N0 P S" (a code such as 0.07 or a set such as subtract{1,3}, and
 * the pre-period, period and saltus a sweep reported as proven), computes
 * G(0..N-1) of RULE by brute force with the reference model
 * (tests/reference.c, which shares no code with libsg) for N large enough
 * that the reference's observed period is exact (N >= 4p and N >= 2*n0,
 * see ref_find_period), and prints "ok RULE" when the least observed
 * (p, n0, s) equals the claim, else "bad RULE: ..." with the reference's
 * answer.  Exit status 0 when every line is ok.
 */
#define _DEFAULT_SOURCE
#include "reference.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* subtract{a,b,...}, all-but{...} or a code. */
static int read_rule(ref_rule *r, const char *text)
{
    uint64_t set[REF_MAXPOS];
    size_t n = 0;
    const char *p;
    int sub = strncmp(text, "subtract{", 9) == 0;

    if (!sub && strncmp(text, "all-but{", 8) != 0)
        return ref_rule_from_code(r, text);
    for (p = strchr(text, '{') + 1; *p && *p != '}';) {
        char *e;
        set[n++] = strtoull(p, &e, 10);
        if (e == p || n >= REF_MAXPOS)
            return -1;
        p = *e == ',' ? e + 1 : e;
    }
    if (sub)
        ref_rule_subtract(r, set, n);
    else
        ref_rule_allbut(r, set, n);
    return 0;
}

int main(void)
{
    char line[4096], text[4000];
    unsigned long long n0, p, s;
    int bad = 0;
    static ref_rule r;

    while (fgets(line, sizeof line, stdin)) {
        size_t N;
        uint32_t *g;
        uint64_t rp, rn0, rs = 0;
        int found;

        if (sscanf(line, "%3999s %llu %llu %llu", text, &n0, &p, &s) != 4)
            continue;
        if (read_rule(&r, text)) {
            printf("bad %s: the reference cannot read it\n", text);
            bad = 1;
            continue;
        }
        N = 4 * p + 2 * n0 + 64;
        if (!(g = malloc(N * sizeof *g)))
            return 2;
        ref_values(g, N, &r);
        found = s ? ref_find_arith_period(&rp, &rn0, &rs, g, N)
                  : ref_find_period(&rp, &rn0, g, N);
        if (found && rp == p && rn0 == n0 && rs == s)
            printf("ok %s\n", text);
        else {
            bad = 1;
            if (found)
                printf("bad %s: the reference sees n0 %llu p %llu s %llu\n",
                       text, (unsigned long long)rn0, (unsigned long long)rp,
                       (unsigned long long)rs);
            else
                printf("bad %s: the reference sees no period in %zu values\n",
                       text, N);
        }
        free(g);
    }
    return bad;
}
