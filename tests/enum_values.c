/*
 * enum_values.c - raw values for the sweep tests' own judges: reads rules
 * (codes or canonical forms, one a line) on stdin and prints, for each,
 * "RULE G(0) G(1) ... G(N-1)" with N = argv[1], computed by libsg's
 * enumeration alone (sg_enumerate: no proof, no period, no cache), so that
 * a judge in the test (tests/cli/sweep_hex.sh) can look for periods in
 * values the prover never touched.  The methods themselves are checked
 * against the reference model by tests/test_enum.c.  Exit status 0 when
 * every rule was read and computed.
 */
#include "sgexplore.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    char line[4096];
    size_t n;
    int bad = 0;

    if (argc != 2 || (n = strtoul(argv[1], NULL, 10)) == 0) {
        fprintf(stderr, "usage: enum_values N <rules\n");
        return 2;
    }
    while (fgets(line, sizeof line, stdin)) {
        sg_rule r;
        sg_seq s;
        sg_error err;

        line[strcspn(line, "\r\n")] = '\0';
        if (!line[0])
            continue;
        sg_rule_init(&r);
        if (sg_rule_parse(&r, SG_SYNTAX_RULE, line, &err) != SG_OK) {
            printf("bad %s: %s\n", line, err.msg);
            bad = 1;
            sg_rule_clear(&r);
            continue;
        }
        sg_seq_init(&s);
        if (sg_enumerate(&s, &r, n, NULL, &err) != SG_OK) {
            printf("bad %s: %s\n", line, err.msg);
            bad = 1;
        } else {
            printf("%s", line);
            for (size_t i = 0; i < s.n; i++)
                printf(" %llu", (unsigned long long)sg_seq_get(&s, i));
            printf("\n");
        }
        sg_seq_clear(&s);
        sg_rule_clear(&r);
    }
    return bad;
}
