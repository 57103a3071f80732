/*
 * test_rule.c - unit tests of rule parsing and canonical forms: every rule
 * option's syntax, the one canonical text of each rule (checked against the
 * reference's reading of the conventions), the family names, and bad input
 * rejected with SG_E_INPUT, a message and the position of the problem.
 */
#include "testutil.h"

#include <string.h>

#include "sgexplore.h"
#include "internal.h"

/* Parse text and return its canonical form (malloc'd); fails the test
 * when parsing fails. */
static char *canon_of(sg_rule_syntax syntax, const char *text)
{
    sg_rule r;
    sg_error err;
    sg_status st;
    char *c;

    sg_rule_init(&r);
    memset(&err, 0, sizeof err);
    st = sg_rule_parse(&r, syntax, text, &err);
    if (st != SG_OK) {
        fail_msg("parsing \"%s\" (syntax %d) failed: status %d, pos %ld: %s",
                 text, (int)syntax, (int)st, err.pos, err.msg);
    }
    c = sg_rule_canonical(&r);
    assert_non_null(c);
    sg_rule_clear(&r);
    return c;
}

/* text must parse to exactly `want`, and `want` must parse (as --rule) to
 * itself. */
static void expect_canon(sg_rule_syntax syntax, const char *text,
                         const char *want)
{
    char *c = canon_of(syntax, text);
    char *again;

    if (strcmp(c, want) != 0) {
        fail_msg("\"%s\" (syntax %d): canonical \"%s\", expected \"%s\"", text,
                 (int)syntax, c, want);
    }
    again = canon_of(SG_SYNTAX_RULE, c);
    if (strcmp(again, c) != 0) {
        fail_msg("canonical \"%s\" re-parses to \"%s\"", c, again);
    }
    free(again);
    free(c);
}

/* text must be rejected (tu_expect_bad_rule), exactly at `pos` when
 * pos >= 0. */
static void expect_bad(sg_rule_syntax syntax, const char *text, long pos)
{
    tu_expect_bad_rule(syntax, text, pos, NULL);
}

/* Parse for the accessor checks below. */
static void parse_into(sg_rule *r, sg_rule_syntax syntax, const char *text)
{
    sg_error err;
    sg_status st;

    sg_rule_init(r);
    memset(&err, 0, sizeof err);
    st = sg_rule_parse(r, syntax, text, &err);
    if (st != SG_OK) {
        fail_msg("parsing \"%s\" failed: %s", text, err.msg);
    }
}

static void test_subtract_lists(void **state)
{
    sg_rule r;

    (void)state;
    expect_canon(SG_SYNTAX_SUBTRACT, "2,3,5,7,11,13",
                 "subtract{2,3,5,7,11,13}");
    expect_canon(SG_SYNTAX_SUBTRACT, "13,11,7,5,3,2",
                 "subtract{2,3,5,7,11,13}");
    expect_canon(SG_SYNTAX_SUBTRACT, "1-3,7", "subtract{1-3,7}");
    expect_canon(SG_SYNTAX_SUBTRACT, "7,1-3", "subtract{1-3,7}");
    expect_canon(SG_SYNTAX_SUBTRACT, "1,2,3,7", "subtract{1-3,7}");
    expect_canon(SG_SYNTAX_SUBTRACT, "1,2,4,5", "subtract{1,2,4,5}");
    expect_canon(SG_SYNTAX_SUBTRACT, "5-6", "subtract{5,6}");
    expect_canon(SG_SYNTAX_RULE, "subtract{1-3,7}", "subtract{1-3,7}");
    expect_canon(SG_SYNTAX_RULE, "subtract{1,2,3,7}", "subtract{1-3,7}");
    expect_canon(SG_SYNTAX_SUBTRACT, "5-5", "subtract{5}");
    expect_canon(SG_SYNTAX_SUBTRACT, "1,3,4", "subtract{1,3,4}");
    expect_canon(SG_SYNTAX_SUBTRACT, "200", "subtract{200}");
    /* A set is a set: duplicates and overlapping ranges collapse. */
    expect_canon(SG_SYNTAX_SUBTRACT, "3,3,5", "subtract{3,5}");
    expect_canon(SG_SYNTAX_SUBTRACT, "1-3,2-4,4", "subtract{1-4}");
    /* Large elements cost nothing in the sparse form; 2^63-1 fits. */
    expect_canon(SG_SYNTAX_SUBTRACT, "997,1999,2996",
                 "subtract{997,1999,2996}");
    expect_canon(SG_SYNTAX_SUBTRACT, "1,9223372036854775807",
                 "subtract{1,9223372036854775807}");
    /* The canonical form and the equivalent code are the same rule. */
    expect_canon(SG_SYNTAX_RULE, "subtract{2,3,5,7,11,13}",
                 "subtract{2,3,5,7,11,13}");
    expect_canon(SG_SYNTAX_OCTAL, "0.33", "subtract{1,2}");
    expect_canon(SG_SYNTAX_OCTAL, "0.333", "subtract{1-3}");
    expect_canon(SG_SYNTAX_OCTAL, "0.3", "subtract{1}");
    expect_canon(SG_SYNTAX_RULE, "0.303", "subtract{1,3}");
    expect_canon(SG_SYNTAX_RULE, "0.3030", "subtract{1,3}");

    parse_into(&r, SG_SYNTAX_SUBTRACT, "2,3,5,7,11,13");
    assert_string_equal(sg_rule_family(&r), "subtract");
    assert_int_equal(sg_rule_digit(&r, 2, NULL), 3);
    assert_int_equal(sg_rule_digit(&r, 13, NULL), 3);
    assert_int_equal(sg_rule_digit(&r, 4, NULL), 0);
    assert_int_equal(sg_rule_digit(&r, 0, NULL), 0);
    assert_int_equal(sg_rule_digit(&r, 14, NULL), 0);
    assert_int_equal(sg_rule_digit(&r, UINT64_MAX, NULL), 0);
    assert_true(sg_rule_max_take(&r) == 13);
    assert_int_equal(sg_rule_bits(&r), SG_BIT_ALL | SG_BIT_ONE);
    assert_int_equal(sg_rule_has_unequal(&r), 0);
    assert_int_equal(r.tail_len, 0);
    sg_rule_clear(&r);
}

static void test_allbut_lists(void **state)
{
    sg_rule r;
    int u = -1;

    (void)state;
    expect_canon(SG_SYNTAX_ALLBUT, "1,3", "all-but{1,3}");
    expect_canon(SG_SYNTAX_ALLBUT, "3,1", "all-but{1,3}");
    expect_canon(SG_SYNTAX_ALLBUT, "", "nim");
    expect_canon(SG_SYNTAX_ALLBUT, "2-4", "all-but{2-4}");
    expect_canon(SG_SYNTAX_RULE, "all-but{1,3}", "all-but{1,3}");
    expect_canon(SG_SYNTAX_RULE, "all-but{}", "nim");
    /* Nim written as a code. */
    expect_canon(SG_SYNTAX_RULE, "0.[3]", "nim");
    expect_canon(SG_SYNTAX_RULE, "0.3[3]", "nim");
    expect_canon(SG_SYNTAX_RULE, "0.[33]", "nim");
    expect_canon(SG_SYNTAX_RULE, "0.333[333]", "nim");
    expect_canon(SG_SYNTAX_RULE, "0.03[3]", "all-but{1}");
    expect_canon(SG_SYNTAX_RULE, "0.030[3]", "all-but{1,3}");
    expect_canon(SG_SYNTAX_RULE, "0.0303[33]", "all-but{1,3}");

    parse_into(&r, SG_SYNTAX_ALLBUT, "1,3");
    assert_string_equal(sg_rule_family(&r), "all-but");
    assert_int_equal(sg_rule_digit(&r, 1, NULL), 0);
    assert_int_equal(sg_rule_digit(&r, 2, NULL), 3);
    assert_int_equal(sg_rule_digit(&r, 3, NULL), 0);
    assert_int_equal(sg_rule_digit(&r, 4, &u), 3);
    assert_int_equal(u, 0);
    assert_int_equal(sg_rule_digit(&r, 1000000007, NULL), 3);
    assert_int_equal(sg_rule_digit(&r, UINT64_MAX - 1, NULL), 3);
    assert_true(sg_rule_max_take(&r) == UINT64_MAX);
    assert_int_equal(sg_rule_bits(&r), 3);
    sg_rule_clear(&r);

    parse_into(&r, SG_SYNTAX_ALLBUT, "");
    assert_string_equal(sg_rule_family(&r), "all-but");
    assert_int_equal(sg_rule_digit(&r, 1, NULL), 3);
    assert_int_equal(sg_rule_digit(&r, 0, NULL), 0);
    sg_rule_clear(&r);
}

/* Many exclusions and few moves listed before the tail: the canonical
 * list is longer than the rule's own list of terms.  Last in the program,
 * as a failure here may corrupt the heap. */
static void test_allbut_many_exclusions(void **state)
{
    (void)state;
    expect_canon(SG_SYNTAX_ALLBUT, "2-4", "all-but{2-4}");
    expect_canon(SG_SYNTAX_ALLBUT, "1-3000", "all-but{1-3000}");
    expect_canon(SG_SYNTAX_ALLBUT, "1-3000,3002", "all-but{1-3000,3002}");
    expect_canon(SG_SYNTAX_RULE, "all-but{5-4000}", "all-but{5-4000}");
}

static void test_octal_hex_codes(void **state)
{
    sg_rule r;
    int u = -1;

    (void)state;
    expect_canon(SG_SYNTAX_OCTAL, "0.77", "0.77");
    expect_canon(SG_SYNTAX_OCTAL, "0.770", "0.77");
    expect_canon(SG_SYNTAX_OCTAL, "0.77000", "0.77");
    expect_canon(SG_SYNTAX_OCTAL, "0.07", "0.07");
    expect_canon(SG_SYNTAX_OCTAL, "0.137", "0.137");
    expect_canon(SG_SYNTAX_OCTAL, "4.07", "4.07");
    expect_canon(SG_SYNTAX_OCTAL, "0.6", "0.6");
    expect_canon(SG_SYNTAX_RULE, "0.77", "0.77");
    expect_canon(SG_SYNTAX_RULE, "0.770", "0.77");
    expect_canon(SG_SYNTAX_RULE, "4.07", "4.07");
    expect_canon(SG_SYNTAX_HEX, "0.8F", "0.8F");
    expect_canon(SG_SYNTAX_RULE, "0.8F", "0.8F");
    expect_canon(SG_SYNTAX_HEX, "0.8F0", "0.8F");
    expect_canon(SG_SYNTAX_HEX, "0.77", "0.77");
    expect_canon(SG_SYNTAX_HEX, "C.0", "C.0");
    expect_canon(SG_SYNTAX_HEX, "0.33", "subtract{1,2}");

    parse_into(&r, SG_SYNTAX_OCTAL, "0.77");
    assert_string_equal(sg_rule_family(&r), "octal");
    assert_int_equal(sg_rule_digit(&r, 0, NULL), 0);
    assert_int_equal(sg_rule_digit(&r, 1, &u), 7);
    assert_int_equal(u, 0);
    assert_int_equal(sg_rule_digit(&r, 2, NULL), 7);
    assert_int_equal(sg_rule_digit(&r, 3, NULL), 0);
    assert_true(sg_rule_max_take(&r) == 2);
    assert_int_equal(sg_rule_bits(&r), 7);
    assert_int_equal(sg_rule_has_unequal(&r), 0);
    sg_rule_clear(&r);

    parse_into(&r, SG_SYNTAX_OCTAL, "4.07");
    assert_string_equal(sg_rule_family(&r), "octal");
    assert_int_equal(sg_rule_digit(&r, 0, NULL), 4);
    assert_int_equal(sg_rule_digit(&r, 1, NULL), 0);
    assert_int_equal(sg_rule_digit(&r, 2, NULL), 7);
    assert_true(sg_rule_max_take(&r) == 2);
    sg_rule_clear(&r);

    parse_into(&r, SG_SYNTAX_HEX, "0.8F");
    assert_string_equal(sg_rule_family(&r), "hex");
    assert_int_equal(sg_rule_digit(&r, 1, NULL), 8);
    assert_int_equal(sg_rule_digit(&r, 2, NULL), 15);
    assert_int_equal(sg_rule_bits(&r), 15);
    assert_true(sg_rule_max_take(&r) == 2);
    sg_rule_clear(&r);

    parse_into(&r, SG_SYNTAX_HEX, "0.77");
    assert_string_equal(sg_rule_family(&r), "octal");
    sg_rule_clear(&r);
}

static void test_rule_codes(void **state)
{
    sg_rule r;
    int u = -1;

    (void)state;
    expect_canon(SG_SYNTAX_RULE, "4!.0", "4!.0");
    expect_canon(SG_SYNTAX_RULE, "4!.00", "4!.0");
    expect_canon(SG_SYNTAX_RULE, "grundy", "4!.0");
    expect_canon(SG_SYNTAX_GRUNDY, "", "4!.0");
    expect_canon(SG_SYNTAX_GRUNDY, "whatever", "4!.0");
    expect_canon(SG_SYNTAX_RULE, "4.0", "4.0");
    expect_canon(SG_SYNTAX_RULE, "0.4!", "0.4!");
    expect_canon(SG_SYNTAX_RULE, "0.7!7", "0.7!7");
    expect_canon(SG_SYNTAX_RULE, "0.[7]", "0.[7]");
    expect_canon(SG_SYNTAX_RULE, "0.7[7]", "0.[7]");
    expect_canon(SG_SYNTAX_RULE, "0.[77]", "0.[7]");
    expect_canon(SG_SYNTAX_RULE, "0.77[77]", "0.[7]");
    expect_canon(SG_SYNTAX_RULE, "0.[03]", "0.[03]");
    expect_canon(SG_SYNTAX_RULE, "0.3[03]", "0.[30]");
    expect_canon(SG_SYNTAX_RULE, "0.[0303]", "0.[03]");
    expect_canon(SG_SYNTAX_RULE, "0.1[7]", "0.1[7]");
    expect_canon(SG_SYNTAX_RULE, "0.70[7]", "0.70[7]");
    expect_canon(SG_SYNTAX_RULE, "4.[7]", "4.[7]");

    /* Grundy's game has digits 0-7 but is no octal game: `!` */
    parse_into(&r, SG_SYNTAX_RULE, "4!.0");
    assert_string_equal(sg_rule_family(&r), "take-and-break");
    assert_int_equal(sg_rule_digit(&r, 0, &u), 4);
    assert_int_equal(u, 1);
    assert_int_equal(sg_rule_digit(&r, 1, NULL), 0);
    assert_true(sg_rule_max_take(&r) == 0);
    assert_int_equal(sg_rule_bits(&r), SG_BIT_TWO);
    assert_int_equal(sg_rule_has_unequal(&r), 1);
    sg_rule_clear(&r);

    parse_into(&r, SG_SYNTAX_GRUNDY, "");
    assert_int_equal(sg_rule_digit(&r, 0, &u), 4);
    assert_int_equal(u, 1);
    assert_int_equal(sg_rule_has_unequal(&r), 1);
    sg_rule_clear(&r);

    /* nor is a code with a repeating tail (unless all-but) */
    parse_into(&r, SG_SYNTAX_RULE, "0.1[7]");
    assert_string_equal(sg_rule_family(&r), "take-and-break");
    assert_int_equal(sg_rule_digit(&r, 1, NULL), 1);
    assert_int_equal(sg_rule_digit(&r, 2, NULL), 7);
    assert_int_equal(sg_rule_digit(&r, 12345678901ULL, NULL), 7);
    assert_true(sg_rule_max_take(&r) == UINT64_MAX);
    assert_int_equal(sg_rule_bits(&r), 7);
    sg_rule_clear(&r);

    parse_into(&r, SG_SYNTAX_RULE, "0.7!");
    assert_string_equal(sg_rule_family(&r), "take-and-break");
    sg_rule_clear(&r);
    parse_into(&r, SG_SYNTAX_RULE, "0.8!F");
    assert_string_equal(sg_rule_family(&r), "take-and-break");
    sg_rule_clear(&r);
    parse_into(&r, SG_SYNTAX_RULE, "nim");
    assert_string_equal(sg_rule_family(&r), "all-but");
    sg_rule_clear(&r);
}

static void test_parse_u63(void **state)
{
    uint64_t v = 0;
    sg_error err;

    (void)state;
    memset(&err, 0, sizeof err);
    assert_int_equal(sgi_parse_u63(&v, "123", 3, 0, &err), SG_OK);
    assert_true(v == 123);
    assert_int_equal(sgi_parse_u63(&v, "1234", 2, 0, &err), SG_OK);
    assert_true(v == 12);
    assert_int_equal(sgi_parse_u63(&v, "0", 1, 0, &err), SG_OK);
    assert_true(v == 0);
    assert_int_equal(sgi_parse_u63(&v, "9223372036854775807", 19, 0, &err),
                     SG_OK);
    assert_true(v == 9223372036854775807ULL);
    assert_int_equal(sgi_parse_u63(&v, "9223372036854775808", 19, 0, &err),
                     SG_E_INPUT);
    assert_true(err.msg[0] != '\0');
    assert_int_equal(sgi_parse_u63(&v, "99999999999999999999", 20, 5, &err),
                     SG_E_INPUT);
    assert_true(err.pos >= 5 && err.pos <= 25);
    assert_int_equal(sgi_parse_u63(&v, "", 0, 3, &err), SG_E_INPUT);
    assert_int_equal(sgi_parse_u63(&v, "x", 1, 7, &err), SG_E_INPUT);
    assert_int_equal(err.pos, 7);
    assert_int_equal(sgi_parse_u63(&v, "-1", 2, 0, &err), SG_E_INPUT);
    /* A NULL error pointer is allowed. */
    assert_int_equal(sgi_parse_u63(&v, "1a", 2, 0, NULL), SG_E_INPUT);
}

static void test_bad_input(void **state)
{
    (void)state;
    /* Positions that can only be one place. */
    expect_bad(SG_SYNTAX_SUBTRACT, "", 0);
    expect_bad(SG_SYNTAX_SUBTRACT, "2,x", 2);
    expect_bad(SG_SYNTAX_SUBTRACT, "2,,3", 2);
    expect_bad(SG_SYNTAX_SUBTRACT, "0", 0);
    expect_bad(SG_SYNTAX_SUBTRACT, "2,0", 2);
    expect_bad(SG_SYNTAX_SUBTRACT, "-1", 0);
    expect_bad(SG_SYNTAX_SUBTRACT, "99999999999999999999", 0);
    expect_bad(SG_SYNTAX_SUBTRACT, "5,99999999999999999999", 2);
    expect_bad(SG_SYNTAX_SUBTRACT, "9223372036854775808", 0);
    expect_bad(SG_SYNTAX_SUBTRACT, "2, 3", 2);
    expect_bad(SG_SYNTAX_SUBTRACT, " 2", 0);
    expect_bad(SG_SYNTAX_SUBTRACT, "2 ", 1);
    expect_bad(SG_SYNTAX_SUBTRACT, "2,3x", 3);
    expect_bad(SG_SYNTAX_OCTAL, "0.8", 2);
    expect_bad(SG_SYNTAX_OCTAL, "0.79", 3);
    expect_bad(SG_SYNTAX_HEX, "0.G", 2);
    expect_bad(SG_SYNTAX_RULE, "0.7x", 3);
    expect_bad(SG_SYNTAX_RULE, "!", 0);
    expect_bad(SG_SYNTAX_RULE, "hello", 0);
    expect_bad(SG_SYNTAX_RULE, "", 0);
    expect_bad(SG_SYNTAX_ALLBUT, "1,,3", 2);
    expect_bad(SG_SYNTAX_ALLBUT, "1,x", 2);
    expect_bad(SG_SYNTAX_ALLBUT, "1, 3", 2);
    /* Problems whose exact position is a matter of taste. */
    expect_bad(SG_SYNTAX_SUBTRACT, "3-1", -1);
    expect_bad(SG_SYNTAX_SUBTRACT, "2,3,", -1);
    expect_bad(SG_SYNTAX_SUBTRACT, ",2", -1);
    expect_bad(SG_SYNTAX_SUBTRACT, "1-", -1);
    expect_bad(SG_SYNTAX_SUBTRACT, "-", -1);
    expect_bad(SG_SYNTAX_SUBTRACT, "2\t3", -1);
    expect_bad(SG_SYNTAX_SUBTRACT, "0-3", -1);
    expect_bad(SG_SYNTAX_SUBTRACT, "1-99999999999999999999", -1);
    expect_bad(SG_SYNTAX_ALLBUT, "-1", -1);
    expect_bad(SG_SYNTAX_ALLBUT, "1,", -1);
    expect_bad(SG_SYNTAX_OCTAL, "", -1);
    expect_bad(SG_SYNTAX_OCTAL, "0..7", -1);
    expect_bad(SG_SYNTAX_OCTAL, "0.7 ", -1);
    expect_bad(SG_SYNTAX_OCTAL, " 0.7", -1);
    expect_bad(SG_SYNTAX_RULE, "0.[3", -1);
    expect_bad(SG_SYNTAX_RULE, "0.7[", -1);
    expect_bad(SG_SYNTAX_RULE, "0.[]", -1);
    expect_bad(SG_SYNTAX_RULE, "0.3]", -1);
    expect_bad(SG_SYNTAX_RULE, "0.[3]7", -1);
    expect_bad(SG_SYNTAX_RULE, "0.[3][3]", -1);
    expect_bad(SG_SYNTAX_RULE, "0.!", -1);
    expect_bad(SG_SYNTAX_RULE, "!.7", -1);
    expect_bad(SG_SYNTAX_RULE, "4!!.0", -1);
    expect_bad(SG_SYNTAX_RULE, "0.7.7", -1);
    expect_bad(SG_SYNTAX_RULE, "0.W", -1);
    expect_bad(SG_SYNTAX_RULE, "grundy!", -1);
    expect_bad(SG_SYNTAX_RULE, "subtract{2,,3}", -1);
    expect_bad(SG_SYNTAX_RULE, "subtract{}", -1);
    expect_bad(SG_SYNTAX_RULE, "subtract{2,3", -1);
    expect_bad(SG_SYNTAX_RULE, "all-but{1,3", -1);
    expect_bad(SG_SYNTAX_RULE, "\x01\xff", -1);

    /* Without an error record the status alone tells. */
    {
        sg_rule r;
        sg_rule_init(&r);
        assert_int_equal(sg_rule_parse(&r, SG_SYNTAX_SUBTRACT, "2,x", NULL),
                         SG_E_INPUT);
        assert_int_equal(sg_rule_parse(&r, SG_SYNTAX_RULE, "0.[3", NULL),
                         SG_E_INPUT);
        sg_rule_clear(&r);
    }
}

/* A random rule re-expressed as the same rule in other words: the tail
 * unrolled a few positions and repeated, trailing zeros appended. */
static void reexpress(ref_rule *dst, const ref_rule *src, tu_rng *g)
{
    *dst = *src;
    if (src->tail_len > 0) {
        size_t unroll = (size_t)tu_range(g, 0, 3);
        size_t reps = (size_t)tu_range(g, 1, 3);
        size_t q = src->tail_len;

        for (size_t i = 0; i < unroll; i++) {
            size_t k = src->tail_start + i;
            int u;
            dst->digit[k] = (uint8_t)ref_digit(src, k, &u);
            dst->unequal[k] = (uint8_t)u;
        }
        dst->len = src->tail_start + unroll;
        dst->tail_start = src->tail_start + unroll;
        if (q * reps > REF_MAXTAIL) {
            reps = 1;
        }
        dst->tail_len = q * reps;
        for (size_t i = 0; i < q * reps; i++) {
            size_t k = dst->tail_start + i;
            int u;
            dst->tail[i] = (uint8_t)ref_digit(src, k, &u);
            dst->tail_unequal[i] = (uint8_t)u;
        }
    } else {
        size_t zeros = (size_t)tu_range(g, 0, 3);
        for (size_t i = 0; i < zeros; i++) {
            dst->digit[dst->len + i] = 0;
            dst->unequal[dst->len + i] = 0;
        }
        dst->len += zeros;
    }
}

/* Compare the parsed rule's accessors with the reference rule. */
static void check_accessors(const sg_rule *r, const ref_rule *ref,
                            const char *text)
{
    size_t upto = ref->len + ref->tail_start + 3 * ref->tail_len + 4;
    uint64_t far = 1000003;

    for (uint64_t k = 0; k < upto; k++) {
        int u1 = -1, u2 = -1;
        unsigned d1 = sg_rule_digit(r, k, &u1);
        unsigned d2 = ref_digit(ref, k, &u2);
        /* `!` matters only on digits that split. */
        if (d1 != d2 || ((d2 & 12) && (!u1 != !u2))) {
            fail_msg("%s: position %llu digit %u%s, expected %u%s (seed %llu)",
                     text, (unsigned long long)k, d1, u1 ? "!" : "", d2,
                     u2 ? "!" : "", TU_SEED);
        }
    }
    if (sg_rule_digit(r, far, NULL) != ref_digit(ref, far, NULL)) {
        fail_msg("%s: digit at %llu differs (seed %llu)", text,
                 (unsigned long long)far, TU_SEED);
    }
    if (sg_rule_max_take(r) != ref_max_take(ref)) {
        fail_msg("%s: max_take %llu, expected %llu (seed %llu)", text,
                 (unsigned long long)sg_rule_max_take(r),
                 (unsigned long long)ref_max_take(ref), TU_SEED);
    }
    if (sg_rule_bits(r) != ref_bits(ref)) {
        fail_msg("%s: bits %u, expected %u (seed %llu)", text, sg_rule_bits(r),
                 ref_bits(ref), TU_SEED);
    }
    if (!sg_rule_has_unequal(r) != !ref_has_unequal(ref)) {
        fail_msg("%s: has_unequal %d (seed %llu)", text, sg_rule_has_unequal(r),
                 TU_SEED);
    }
    if (strcmp(sg_rule_family(r), ref_rule_family(ref)) != 0) {
        fail_msg("%s: family %s, expected %s (seed %llu)", text,
                 sg_rule_family(r), ref_rule_family(ref), TU_SEED);
    }
}

static void random_codes(tu_rng *g, const tu_code_opts *o, size_t count)
{
    static ref_rule ref, alt;

    for (size_t i = 0; i < count; i++) {
        char *text, *alt_text, *want, *got, *got_alt, *again;
        sg_rule r;
        sg_error err;

        tu_random_code(&ref, g, o);
        text = ref_rule_text(&ref);
        want = ref_rule_canonical(&ref);
        assert_non_null(text);
        assert_non_null(want);

        sg_rule_init(&r);
        memset(&err, 0, sizeof err);
        if (sg_rule_parse(&r, SG_SYNTAX_RULE, text, &err) != SG_OK) {
            fail_msg("\"%s\" rejected: %s (pos %ld, seed %llu)", text, err.msg,
                     err.pos, TU_SEED);
        }
        got = sg_rule_canonical(&r);
        assert_non_null(got);
        if (strcmp(got, want) != 0) {
            fail_msg("\"%s\": canonical \"%s\", expected \"%s\" (seed %llu)",
                     text, got, want, TU_SEED);
        }
        check_accessors(&r, &ref, text);
        sg_rule_clear(&r);

        /* The canonical text is a rule text of the same rule. */
        again = canon_of(SG_SYNTAX_RULE, got);
        if (strcmp(again, got) != 0) {
            fail_msg("canonical \"%s\" re-parses to \"%s\" (seed %llu)", got,
                     again, TU_SEED);
        }
        free(again);

        /* Codes in the octal or hex alphabet without `!` or tail also
         * parse with --octal / --hex. */
        if (ref.tail_len == 0 && !ref_has_unequal(&ref)) {
            got_alt = canon_of(SG_SYNTAX_HEX, text);
            assert_string_equal(got_alt, want);
            free(got_alt);
            if (!(ref_bits(&ref) & 8)) {
                got_alt = canon_of(SG_SYNTAX_OCTAL, text);
                assert_string_equal(got_alt, want);
                free(got_alt);
            }
        }

        /* The same rule written differently has the same canonical text. */
        reexpress(&alt, &ref, g);
        alt_text = ref_rule_text(&alt);
        got_alt = canon_of(SG_SYNTAX_RULE, alt_text);
        if (strcmp(got_alt, want) != 0) {
            fail_msg("\"%s\" and \"%s\" are one rule, canonical \"%s\" vs "
                     "\"%s\" (seed %llu)",
                     text, alt_text, want, got_alt, TU_SEED);
        }
        free(got_alt);
        free(alt_text);
        free(got);
        free(want);
        free(text);
    }
}

static void test_random_codes(void **state)
{
    tu_rng g;
    tu_code_opts o;

    (void)state;
    tu_rng_init(&g, 101);
    memset(&o, 0, sizeof o);
    o.ndig_min = 1;
    o.ndig_max = 6;

    o.maxdigit = 7;
    random_codes(&g, &o, tu_scaled(300));
    o.pos0 = 1;
    random_codes(&g, &o, tu_scaled(300));
    o.maxdigit = 15;
    random_codes(&g, &o, tu_scaled(300));
    o.unequal = 1;
    random_codes(&g, &o, tu_scaled(300));
    o.tail = 1;
    o.ndig_min = 0;
    random_codes(&g, &o, tu_scaled(300));
    o.maxdigit = 7;
    o.unequal = 0;
    o.pos0 = 0;
    random_codes(&g, &o, tu_scaled(300));
    /* Subtraction-like alphabets, to hit subtract{} and all-but{}. */
    o.maxdigit = 3;
    random_codes(&g, &o, tu_scaled(300));
    o.tail = 0;
    o.ndig_min = 1;
    random_codes(&g, &o, tu_scaled(300));
}

static void test_random_sets(void **state)
{
    tu_rng g;
    uint64_t set[40];
    char text[40 * 24];
    static ref_rule ref;

    (void)state;
    tu_rng_init(&g, 102);
    for (size_t i = 0; i < tu_scaled(300); i++) {
        size_t n = tu_random_set(set, &g, 8, 60);
        char *want, *got;

        tu_set_text(text, &g, set, n);
        ref_rule_subtract(&ref, set, n);
        want = ref_rule_canonical(&ref);
        got = canon_of(SG_SYNTAX_SUBTRACT, text);
        if (strcmp(got, want) != 0) {
            fail_msg("--subtract %s: \"%s\", expected \"%s\" (seed %llu)", text,
                     got, want, TU_SEED);
        }
        free(got);
        free(want);

        n = tu_random_set(set, &g, 6, 30);
        if (tu_chance(&g, 5)) {
            n = 0;
        }
        tu_set_text(text, &g, set, n);
        ref_rule_allbut(&ref, set, n);
        want = ref_rule_canonical(&ref);
        got = canon_of(SG_SYNTAX_ALLBUT, text);
        if (strcmp(got, want) != 0) {
            fail_msg("--all-but '%s': \"%s\", expected \"%s\" (seed %llu)",
                     text, got, want, TU_SEED);
        }
        free(got);
        free(want);
    }
}

static void test_zero_rule_clear(void **state)
{
    sg_rule r;

    (void)state;
    memset(&r, 0, sizeof r);
    sg_rule_clear(&r); /* zero-initialised: harmless */
    sg_rule_init(&r);
    sg_rule_clear(&r);
    sg_rule_clear(&r);
}

/* The limit on rule texts: a list of 1,1,...,1 just under SG_RULE_MAX_TEXT
 * characters is read (one term: duplicates drop), one character past the
 * limit is refused with SG_E_INPUT before parsing. */
/* Set expressions (rule_set.c): finite and cofinite sets become list
 * rules, eventually periodic ones codes with a tail, the rest rules that
 * hold the set; each canonical text parses back to itself. */
static void test_set_rules(void **state)
{
    (void)state;
    expect_canon(SG_SYNTAX_SUBTRACT, "primes:1-10", "subtract{2,3,5,7}");
    expect_canon(SG_SYNTAX_SUBTRACT, "1-3,5+1k", "all-but{4}");
    expect_canon(SG_SYNTAX_SUBTRACT, "1+1k", "nim");
    expect_canon(SG_SYNTAX_ALLBUT, "5+1k", "subtract{1-4}");
    expect_canon(SG_SYNTAX_ALLBUT, "squares:1-9", "all-but{1,4,9}");
    /* 4, 7, 10, ...: digits 0,0,0,3,0,0,3,... */
    expect_canon(SG_SYNTAX_SUBTRACT, "4+3k", "0.0[003]");
    expect_canon(SG_SYNTAX_SUBTRACT, "1+2k", "0.[30]");
    expect_canon(SG_SYNTAX_ALLBUT, "2+2k", "0.[30]");
    expect_canon(SG_SYNTAX_SUBTRACT, "1+4k,3+4k", "0.[30]");
    expect_canon(SG_SYNTAX_SUBTRACT, "1+2k\\3", "0.300[03]");
    expect_canon(SG_SYNTAX_SUBTRACT, "primes", "subtract{primes}");
    expect_canon(SG_SYNTAX_SUBTRACT, "Primes,1", "subtract{1,primes}");
    expect_canon(SG_SYNTAX_ALLBUT, "primes", "all-but{primes}");
    expect_canon(SG_SYNTAX_SUBTRACT, "proper-divisors",
                 "subtract{proper-divisors}");
    expect_canon(SG_SYNTAX_RULE, "SUBTRACT{at-most-2/4}",
                 "subtract{at-most-half}");
    expect_canon(SG_SYNTAX_RULE, "all-but{squares}", "all-but{squares}");
    expect_canon(SG_SYNTAX_RULE, "subtract{4+3k}", "0.0[003]");
}

static void test_text_limit(void **state)
{
    size_t n = SG_RULE_MAX_TEXT + 2, i;
    char *text = malloc(n + 1);
    sg_rule r;
    sg_error err;

    (void)state;
    assert_non_null(text);
    for (i = 0; i < n; i++)
        text[i] = i % 2 ? ',' : '1';
    /* 2k+1 characters end with a digit: the largest such under the limit. */
    text[SG_RULE_MAX_TEXT - 1] = '\0';
    sg_rule_init(&r);
    assert_int_equal(sg_rule_parse(&r, SG_SYNTAX_SUBTRACT, text, &err), SG_OK);
    assert_int_equal(r.nterms, 1);
    assert_int_equal(r.terms[0].take, 1);
    text[SG_RULE_MAX_TEXT - 1] = ',';
    text[SG_RULE_MAX_TEXT + 1] = '\0'; /* limit + 1 characters */
    assert_int_equal(sg_rule_parse(&r, SG_SYNTAX_SUBTRACT, text, &err),
                     SG_E_INPUT);
    assert_non_null(strstr(err.msg, "at most 1048576"));
    assert_int_equal(sg_rule_parse(&r, SG_SYNTAX_RULE, text, &err), SG_E_INPUT);
    sg_rule_clear(&r);
    free(text);
}

/* Well-known names, and messages that quote whole characters: the name
 * table is checked against the codes the literature gives for each game
 * (Kayles 0.77, Dawson's Kayles 0.07, Officers 0.6, Grundy 4!.0, Nim). */
static void test_names_and_messages(void **state)
{
    static const struct {
        const char *name, *canon;
    } names[] = {{"kayles", "0.77"},
                 {"dawson", "0.07"},
                 {"officers", "0.6"},
                 {"grundy", "4!.0"},
                 {"nim", "nim"}};
    static const struct {
        const char *name, *canon;
    } cased[] = {{"Kayles", "0.77"},
                 {"KAYLES", "0.77"},
                 {"Dawson", "0.07"},
                 {"OFFICERS", "0.6"},
                 {"Grundy", "4!.0"},
                 {"Nim", "nim"},
                 {"NIM", "nim"},
                 {"SUBTRACT{1,2}", "subtract{1,2}"},
                 {"Subtract{3}", "subtract{3}"},
                 {"All-But{1}", "all-but{1}"},
                 {"ALL-BUT{}", "nim"}};
    sg_rule r;
    sg_error err;
    size_t i;

    (void)state;
    for (i = 0; i < sizeof names / sizeof *names; i++) {
        char *c = canon_of(SG_SYNTAX_RULE, names[i].name);
        assert_string_equal(c, names[i].canon);
        free(c);
    }
    /* Names are case-insensitive (docs/CONTRACT.md: `Kayles`), and so are the
     * words of the canonical forms. */
    for (i = 0; i < sizeof cased / sizeof *cased; i++) {
        char *c = canon_of(SG_SYNTAX_RULE, cased[i].name);
        assert_string_equal(c, cased[i].canon);
        free(c);
    }
    sg_rule_init(&r);
    assert_int_equal(sg_rule_parse(&r, SG_SYNTAX_RULE, "kaylez", &err),
                     SG_E_INPUT);
    assert_non_null(strstr(err.msg, "unknown rule name"));
    /* A two-byte character is quoted whole, never cut in half. */
    assert_int_equal(sg_rule_parse(&r, SG_SYNTAX_OCTAL, "0.7\xc3\xa9", &err),
                     SG_E_INPUT);
    assert_non_null(strstr(err.msg, "'\xc3\xa9'"));
    /* An invalid byte is escaped. */
    assert_int_equal(sg_rule_parse(&r, SG_SYNTAX_OCTAL, "0.7\xff", &err),
                     SG_E_INPUT);
    assert_non_null(strstr(err.msg, "\\xFF"));
    assert_int_equal(
        sg_rule_parse(&r, SG_SYNTAX_SUBTRACT, "1,\xe2\x82\xac", &err),
        SG_E_INPUT);
    assert_non_null(strstr(err.msg, "'\xe2\x82\xac'"));
    sg_rule_clear(&r);
}

/* The rule profile (sgi_rule_profile): the facts the prover reads, for
 * one rule of each kind, as the definitions of docs/THEORY.md section 1
 * say (bits of the digits, where the tail starts, whether it is [3]). */
static void test_profile(void **state)
{
    static const struct {
        const char *text;
        unsigned bits, prefix_bits, tail_bits;
        uint64_t max_take, tail_start;
        int tail3, splits, three, unequal;
        const char *family;
    } cases[] = {
        {"0.77", 7, 7, 0, 2, 0, 0, 1, 0, 0, "octal"},
        {"0.8F", 15, 15, 0, 2, 0, 0, 1, 1, 0, "hex"},
        {"4!.0", 4, 4, 0, 0, 0, 0, 1, 0, 1, "take-and-break"},
        {"4.[3]", 7, 4, 3, UINT64_MAX, 1, 1, 1, 0, 0, "take-and-break"},
        {"0.51[3]", 7, 5, 3, UINT64_MAX, 3, 1, 1, 0, 0, "take-and-break"},
        {"0.[7]", 7, 0, 7, UINT64_MAX, 1, 0, 1, 0, 0, "take-and-break"},
        {"0.[3]", 3, 0, 3, UINT64_MAX, 1, 1, 0, 0, 0, "all-but"},
        {"0.03", 3, 3, 0, 2, 0, 0, 0, 0, 0, "subtract"},
    };

    (void)state;
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        sg_rule r;
        sgi_profile pr;
        sg_error err;

        sg_rule_init(&r);
        assert_int_equal(sg_rule_parse(&r, SG_SYNTAX_RULE, cases[i].text, &err),
                         SG_OK);
        pr = *sgi_rule_profile(&r);
        if (pr.bits != cases[i].bits ||
            pr.prefix_bits != cases[i].prefix_bits ||
            pr.tail_bits != cases[i].tail_bits ||
            pr.max_take != cases[i].max_take ||
            pr.tail_start != cases[i].tail_start ||
            pr.has_tail != (cases[i].tail_bits != 0) ||
            pr.tail3 != cases[i].tail3 || pr.splits != cases[i].splits ||
            pr.three != cases[i].three || pr.unequal != cases[i].unequal ||
            strcmp(pr.family, cases[i].family) != 0)
            fail_msg("profile of %s: bits %u/%u/%u max %llu tail %llu "
                     "tail3 %d splits %d three %d unequal %d family %s",
                     cases[i].text, pr.bits, pr.prefix_bits, pr.tail_bits,
                     (unsigned long long)pr.max_take,
                     (unsigned long long)pr.tail_start, pr.tail3, pr.splits,
                     pr.three, pr.unequal, pr.family);
        sg_rule_clear(&r);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_subtract_lists),
        cmocka_unit_test(test_allbut_lists),
        cmocka_unit_test(test_octal_hex_codes),
        cmocka_unit_test(test_rule_codes),
        cmocka_unit_test(test_parse_u63),
        cmocka_unit_test(test_bad_input),
        cmocka_unit_test(test_random_codes),
        cmocka_unit_test(test_random_sets),
        cmocka_unit_test(test_zero_rule_clear),
        cmocka_unit_test(test_allbut_many_exclusions),
        cmocka_unit_test(test_names_and_messages),
        cmocka_unit_test(test_text_limit),
        cmocka_unit_test(test_set_rules),
        cmocka_unit_test(test_profile),
    };

    (void)tu_base_seed();
    return cmocka_run_group_tests(tests, NULL, NULL);
}
