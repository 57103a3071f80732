/*
 * test_record.c - unit tests of the CLI's output layer (src/cli/record.c):
 * the number rule at its edge (2^53 - 1 an integer, 2^53 a string; heaps
 * always strings), commas and nesting of members, escaped strings, and
 * that keyed calls are silent in text and text calls silent in JSON.  The
 * CLI tests (tests/cli/json.sh) cannot reach the edge: no count or value
 * below 2^63 is near 2^53 there.
 */
#define _DEFAULT_SOURCE
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* What a record wrote, as a malloc'd string. */
typedef struct sink {
    FILE *f;
    char *text;
    size_t len;
} sink;

static void sink_open(sink *s)
{
    s->text = NULL;
    s->len = 0;
    s->f = open_memstream(&s->text, &s->len);
    assert_non_null(s->f);
}

static char *sink_close(sink *s)
{
    fclose(s->f);
    return s->text;
}

static void test_number_rule(void **state)
{
    sink s;
    cli_rec r;
    mpz_t x;
    char *out;

    (void)state;
    mpz_init(x);
    sink_open(&s);
    cli_rec_begin(&r, s.f, 1);
    cli_rec_uint(&r, "below", (UINT64_C(1) << 53) - 1);
    cli_rec_uint(&r, "at", UINT64_C(1) << 53);
    cli_rec_uint(&r, "max", UINT64_MAX);
    mpz_ui_pow_ui(x, 2, 53);
    cli_rec_mpz(&r, "mpz_at", x);
    mpz_sub_ui(x, x, 1);
    cli_rec_mpz(&r, "mpz_below", x);
    cli_rec_heap(&r, "heap", x);
    mpz_ui_pow_ui(x, 10, 40);
    cli_rec_mpz(&r, "big", x);
    cli_rec_uint_or_null(&r, "none", 0, 5);
    cli_rec_end(&r);
    out = sink_close(&s);
    assert_string_equal(
        out, "{\"below\":9007199254740991,\"at\":\"9007199254740992\","
             "\"max\":\"18446744073709551615\","
             "\"mpz_at\":\"9007199254740992\","
             "\"mpz_below\":9007199254740991,"
             "\"heap\":\"9007199254740991\","
             "\"big\":\"10000000000000000000000000000000000000000\","
             "\"none\":null}\n");
    free(out);
    mpz_clear(x);
}

/* Members of nested objects and arrays are separated by commas, arrays
 * hold unkeyed members, and the end closes whatever is open. */
static void test_nesting(void **state)
{
    sink s;
    cli_rec r;
    char *out;

    (void)state;
    sink_open(&s);
    cli_rec_begin(&r, s.f, 1);
    cli_rec_str(&r, "a", "x\"y\\\n");
    cli_rec_arr(&r, "l");
    cli_rec_uint(&r, NULL, 1);
    cli_rec_obj(&r, NULL);
    cli_rec_bool(&r, "t", 1);
    cli_rec_null(&r, "n");
    cli_rec_close(&r);
    cli_rec_arr(&r, NULL);
    cli_rec_close(&r);
    cli_rec_close(&r);
    cli_rec_obj(&r, "o");
    cli_rec_int(&r, "i", -3);
    cli_rec_real(&r, "s", 1.5);
    cli_rec_strf(&r, "f", "%d/%d", 1, 2);
    cli_rec_end(&r); /* closes o */
    out = sink_close(&s);
    assert_string_equal(out, "{\"a\":\"x\\\"y\\\\\\n\",\"l\":[1,{\"t\":true,"
                             "\"n\":null},[]],\"o\":{\"i\":-3,\"s\":1.500,"
                             "\"f\":\"1/2\"}}\n");
    free(out);
}

/* A record function's two forms: the keyed calls write nothing in text,
 * the text calls nothing in JSON. */
static void test_two_forms(void **state)
{
    sink s;
    cli_rec r;
    mpz_t x;
    char *out;
    int json;

    (void)state;
    mpz_init_set_ui(x, 42);
    for (json = 0; json <= 1; json++) {
        sink_open(&s);
        cli_rec_begin(&r, s.f, json);
        cli_rec_obj(&r, "o");
        cli_rec_heap(&r, "h", x);
        cli_rec_close(&r);
        cli_rec_textf(&r, "h: ");
        cli_rec_text_mpz(&r, x);
        cli_rec_textf(&r, "\n");
        cli_rec_end(&r);
        out = sink_close(&s);
        assert_string_equal(out, json ? "{\"o\":{\"h\":\"42\"}}\n" : "h: 42\n");
        free(out);
    }
    mpz_clear(x);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_number_rule),
        cmocka_unit_test(test_nesting),
        cmocka_unit_test(test_two_forms),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
