/*
 * setbench.c - times the enumeration of set-expression games
 * (src/lib/enum/methods/enum_set.c) against the straightforward loop a
 * researcher would write (plain_loop below: one C function, no library
 * code, the members listed once before the clock starts), and the
 * library's own naive method beside them; checks that all three give the
 * same values.  Processor time (clock()), the best of REPEAT runs of
 * each, the three interleaved in every repetition, so that other
 * programs on the machine and its drift count alike for each.
 * docs/SETS.md records its output.
 *
 *   bench/setbench                       the default cases
 *   bench/setbench SET N [all-but] ...   chosen cases (REPEAT=1 by default)
 *
 * One line per case: the plain loop's time (for a heap-dependent set,
 * which has no member list, the library's naive method's), the library's
 * naive method's,
 * the method AUTO picks and its time, and the speed-up of that method
 * over the plain loop ("x1.5": 1.5 times as fast).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "rules/setexpr.h"

static double run(sg_seq *q, const sgi_set *s, int allbut, size_t n,
                  sgi_set_method m)
{
    sg_error err;
    clock_t t0 = clock();

    if (sgi_set_enumerate(q, s, allbut, n, m, NULL, &err) != SG_OK) {
        fprintf(stderr, "setbench: %s\n", err.msg);
        exit(1);
    }
    return (double)(clock() - t0) / CLOCKS_PER_SEC;
}

/* The straightforward loop: G(h) = mex of G(h - k) over the members
 * k <= h (subtraction) or over the k <= h that are not members (all-but),
 * with int values and a stamp per value, as one would write it; mem[] is
 * sorted and isin[] marks the members (all-but).  Its arrays are
 * allocated on the clock, as the library's are; *out gets the values. */
static double plain_loop(int **out, size_t n, const uint64_t *mem, size_t nmem,
                         const unsigned char *isin, int allbut)
{
    clock_t t0 = clock();
    int *g = malloc((n + 1) * sizeof *g), *seen = calloc(n + 2, sizeof *seen);
    size_t h, i, k;

    if (!seen || !g) {
        fprintf(stderr, "setbench: out of memory\n");
        exit(1);
    }
    for (h = 0; h < n; h++) {
        int v = 0;
        if (allbut) {
            for (k = 1; k <= h; k++)
                if (!isin[k])
                    seen[g[h - k]] = (int)h + 1;
        } else {
            for (i = 0; i < nmem && mem[i] <= h; i++)
                seen[g[h - mem[i]]] = (int)h + 1;
        }
        while (seen[v] == (int)h + 1)
            v++;
        g[h] = v;
    }
    free(seen);
    t0 = clock() - t0;
    free(*out);
    *out = g;
    return (double)t0 / CLOCKS_PER_SEC;
}

/* SETBENCH_METHOD=fast|blocked|naive times that method in place of the
 * one AUTO picks (to measure where each wins). */
static sgi_set_method forced(void)
{
    const char *m = getenv("SETBENCH_METHOD");

    if (m && strcmp(m, "fast") == 0)
        return SGI_SET_FAST;
    if (m && strcmp(m, "blocked") == 0)
        return SGI_SET_BLOCKED;
    if (m && strcmp(m, "naive") == 0)
        return SGI_SET_NAIVE;
    return SGI_SET_AUTO;
}

static void bench(const char *text, size_t n, int allbut, int repeat)
{
    sgi_set s;
    sg_seq a, b;
    sg_error err;
    double tn = 1e30, tf = 1e30, tp = 1e30;
    uint64_t *mem = NULL;
    size_t nmem = 0, cap = 0, i, k, inner;
    unsigned char *isin = calloc(n + 1, 1);
    int *g = NULL;
    int r, dep;

    sgi_set_init(&s);
    if (sgi_set_parse(&s, text, &err) != SG_OK) {
        fprintf(stderr, "setbench: %s: %s\n", text, err.msg);
        exit(2);
    }
    /* a heap-dependent set has no member list: the library's naive
     * loop stands for the plain one */
    dep = sgi_set_heap_dependent(&s);
    if (!isin ||
        (n && !dep &&
         sgi_set_members(&mem, &nmem, &cap, &s, n - 1, &err) != SG_OK)) {
        fprintf(stderr, "setbench: %s: out of memory\n", text);
        exit(1);
    }
    for (i = 0; i < nmem; i++)
        isin[mem[i]] = 1;
    sg_seq_init(&a);
    sg_seq_init(&b);
    /* a short case runs `inner` times per timing, so that each timing
     * spans some 10^6 heaps and the clock's granularity does not count */
    inner = n >= 1000000 || n == 0 ? 1 : 1000000 / n;
    for (r = 0; r < repeat; r++) {
        double t = 0;
        for (k = 0; k < inner && !dep; k++)
            t += plain_loop(&g, n, mem, nmem, isin, allbut) / (double)inner;
        if (!dep && t < tp)
            tp = t;
        for (t = 0, k = 0; k < inner; k++)
            t += run(&a, &s, allbut, n, forced()) / (double)inner;
        if (t < tf)
            tf = t;
        for (t = 0, k = 0; k < inner; k++)
            t += run(&b, &s, allbut, n, SGI_SET_NAIVE) / (double)inner;
        if (t < tn)
            tn = t;
    }
    if (dep)
        tp = tn;
    for (i = 0; i < n; i++)
        if (sg_seq_get(&a, i) != sg_seq_get(&b, i) ||
            (!dep && sg_seq_get(&a, i) != (sg_value)g[i])) {
            fprintf(stderr, "setbench: %s: the methods differ at %zu\n", text,
                    i);
            exit(1);
        }
    printf("%-8s %-16s %9zu  plain %9.4f s  naive %9.4f s  %-10s %9.4f s  "
           "x%6.2f  max G %u\n",
           allbut ? "all-but" : "subtract", text, n, tp, tn,
           sgi_set_method_name(&s, allbut, n, forced()), tf, tp / tf, a.max);
    fflush(stdout);
    sg_seq_clear(&a);
    sg_seq_clear(&b);
    sgi_set_clear(&s);
    free(mem);
    free(isin);
    free(g);
}

int main(int argc, char **argv)
{
    const char *e = getenv("REPEAT");
    int repeat = e ? atoi(e) : 0, i;

    if (argc > 1) {
        for (i = 1; i + 1 < argc;) {
            int allbut = i + 2 < argc && strcmp(argv[i + 2], "all-but") == 0;
            bench(argv[i], strtoul(argv[i + 1], NULL, 10), allbut,
                  repeat > 0 ? repeat : 1);
            i += 2 + allbut;
        }
        return 0;
    }
    if (repeat < 1)
        repeat = 3;
    bench("primes", 1000000, 0, repeat);
    bench("squares", 10000000, 0, repeat);
    bench("powers-of-2", 10000000, 0, repeat);
    bench("fibonacci", 10000000, 0, repeat);
    bench("1,primes", 1000000, 0, repeat);
    bench("primes", 100000, 1, repeat);
    bench("proper-divisors", 100000, 0, repeat);
    return 0;
}
