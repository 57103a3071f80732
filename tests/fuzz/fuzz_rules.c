/*
 * fuzz_rules.c - fuzz target of the rules-file reader of `sweep rules
 * FILE` (src/cli/args.c: cli_rules_read) and of the parsing of each rule
 * it yields (cli_rule_parse_text, as the sweep checks them all before
 * anything runs).  The input is the file.  Every text handed back must be
 * non-empty, without a comment, line end or surrounding space, on a line
 * after the previous text's; a refusal leaves nothing allocated; an
 * accepted rule's canonical text parses back to itself.  Only the first
 * PARSED texts of a file are parsed: the rule parser is the rule target's
 * (fuzz_rule.c), and parsing every one of the dozens of rules a 2 KiB file
 * holds (ranges that expand to thousands of numbers) kept this target
 * under 1,000 inputs a second, where it is meant to fuzz the reader.
 */
#define _GNU_SOURCE
#include "fuzz.h"
#include "cli.h"

#include <stdio.h>

#define PARSED 4

SG_FUZZ_TARGET(rules)
{
    char **texts = NULL;
    unsigned long *lines = NULL;
    size_t n = 0, i;
    FILE *in;
    char *copy;
    int rc;

    if (size == 0 || !(copy = sg_fuzz_text(data, size)))
        return 0;
    if (!(in = fmemopen(copy, size, "r"))) {
        free(copy);
        return 0;
    }
    rc = cli_rules_read(&texts, &lines, &n, in, "fuzz");
    fclose(in);
    free(copy);
    SG_FUZZ_CHECK(rc == EXIT_DONE || rc == EXIT_USAGE || rc == EXIT_RUNTIME);
    if (rc) {
        SG_FUZZ_CHECK(texts == NULL && lines == NULL && n == 0);
        return 0;
    }
    SG_FUZZ_CHECK(n >= 1);
    for (i = 0; i < n; i++) {
        const char *t = texts[i];
        size_t len = strlen(t);
        cli_rule r, back;
        SG_FUZZ_CHECK(len > 0 && !strpbrk(t, "#\n"));
        SG_FUZZ_CHECK(!strchr(" \t", t[0]) && !strchr(" \t\r", t[len - 1]));
        SG_FUZZ_CHECK(lines[i] >= 1 && (i == 0 || lines[i] > lines[i - 1]));
        if (i >= PARSED)
            continue;
        cli_rule_init(&r);
        if (cli_rule_parse_text(&r, "rules file", t) == EXIT_DONE) {
            cli_rule_init(&back);
            SG_FUZZ_CHECK(cli_rule_parse_text(&back, "back", r.canon) ==
                              EXIT_DONE &&
                          strcmp(back.canon, r.canon) == 0);
            cli_rule_clear(&back);
        }
        cli_rule_clear(&r);
    }
    cli_rules_free(texts, lines, n);
    return 0;
}
