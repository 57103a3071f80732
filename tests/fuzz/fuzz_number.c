/*
 * fuzz_number.c - fuzz target of the number syntax behind --heap,
 * --values, --max and --seconds (src/cli/args.c: cli_parse_bignum,
 * cli_parse_range, cli_parse_count, cli_parse_seconds).  Plain decimal
 * text must give the number GMP reads from it; everything else must be
 * accepted or refused with an exit status, never crash or hang.
 */
#include "fuzz.h"
#include "cli.h"

#include <ctype.h>

SG_FUZZ_TARGET(number)
{
    char *text = sg_fuzz_text(data, size);
    mpz_t a, b, ref;
    uint64_t count;
    double sec;
    int rc, digits = 1;
    size_t i;

    if (!text)
        return 0;
    mpz_init(a);
    mpz_init(b);
    mpz_init(ref);
    for (i = 0; text[i]; i++)
        digits &= isdigit((unsigned char)text[i]) != 0;
    rc = cli_parse_bignum(a, "--heap", text);
    SG_FUZZ_CHECK(rc == EXIT_DONE || rc == EXIT_USAGE || rc == EXIT_RUNTIME);
    if (digits && text[0] && strlen(text) <= 4096) {
        SG_FUZZ_CHECK(rc == EXIT_DONE);
        SG_FUZZ_CHECK(mpz_set_str(ref, text, 10) == 0);
        SG_FUZZ_CHECK(mpz_cmp(a, ref) == 0);
    }
    if (rc == EXIT_DONE)
        SG_FUZZ_CHECK(mpz_sgn(a) >= 0);
    rc = cli_parse_range(a, b, "--values", text, 100000000);
    if (rc == EXIT_DONE) {
        SG_FUZZ_CHECK(mpz_cmp(a, b) <= 0);
        mpz_sub(ref, b, a);
        SG_FUZZ_CHECK(mpz_cmp_ui(ref, 100000000) < 0);
    }
    rc = cli_parse_count(&count, "--max", text);
    if (rc == EXIT_DONE)
        SG_FUZZ_CHECK(count > 0 && count < ((uint64_t)1 << 63));
    rc = cli_parse_seconds(&sec, "--seconds", text);
    if (rc == EXIT_DONE)
        SG_FUZZ_CHECK(sec > 0);
    mpz_clear(a);
    mpz_clear(b);
    mpz_clear(ref);
    free(text);
    return 0;
}
