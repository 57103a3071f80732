/*
 * fuzz_positions.c - fuzz target of the --positions file reader and of
 * the --position list (src/cli/args.c: cli_positions_read,
 * cli_parse_heaps).  The input is the whole file; every accepted position
 * must have at least one heap, and the same bytes are also read as one
 * --position value (the same syntax).
 */
#define _GNU_SOURCE
#include "fuzz.h"
#include "cli.h"

#include <stdio.h>

SG_FUZZ_TARGET(positions)
{
    cli_position_item *items = NULL;
    size_t count = 0, i;
    FILE *in;
    char *text;
    int rc;

    if (size == 0 || !(text = sg_fuzz_text(data, size)))
        return 0;
    in = fmemopen(text, size, "r");
    if (!in) {
        free(text);
        return 0;
    }
    rc = cli_positions_read(&items, &count, in, "fuzz");
    fclose(in);
    free(text);
    SG_FUZZ_CHECK(rc == EXIT_DONE || rc == EXIT_USAGE || rc == EXIT_RUNTIME);
    if (rc)
        SG_FUZZ_CHECK(items == NULL && count == 0);
    for (i = 0; i < count; i++) {
        size_t k;
        SG_FUZZ_CHECK(items[i].n >= 1 && items[i].text != NULL);
        for (k = 0; k < items[i].n; k++)
            SG_FUZZ_CHECK(mpz_sgn(items[i].h[k]) >= 0);
    }
    cli_positions_free(items, count);
    /* The same bytes as one --position value. */
    if ((text = sg_fuzz_text(data, size))) {
        mpz_t *h = NULL;
        size_t n = 0;
        if (cli_parse_heaps(&h, &n, text, "--position") == EXIT_DONE) {
            SG_FUZZ_CHECK(n >= 1);
            cli_heaps_free(h, n);
        }
        free(text);
    }
    return 0;
}
