/*
 * test_enum.c - unit tests of the enumerator sg_enumerate: values of many
 * random rules of every family against the brute-force reference,
 * extension of a computed prefix, values of 256 and more, and stopping on
 * a cancel flag with a correct prefix left behind.
 */
#define _DEFAULT_SOURCE
#include "testutil.h"

#include <signal.h>
#include <string.h>
#include <sys/time.h>

#include "internal.h"
#include "sgexplore.h"

/* s must hold at least n values equal to want[0..n-1], and s->max must be
 * the largest of all values held. */
static void check_prefix(const sg_seq *s, const uint32_t *want, size_t n,
                         const char *what)
{
    sg_value mx = 0;

    if (s->n < n) {
        fail_msg("%s: %zu values computed, expected at least %zu (seed %llu)",
                 what, s->n, n, TU_SEED);
    }
    for (size_t i = 0; i < n; i++) {
        if (sg_seq_get(s, i) != want[i]) {
            fail_msg("%s: G(%zu) = %u, reference says %u (seed %llu)", what, i,
                     (unsigned)sg_seq_get(s, i), (unsigned)want[i], TU_SEED);
        }
    }
    for (size_t i = 0; i < s->n; i++) {
        if (sg_seq_get(s, i) > mx) {
            mx = sg_seq_get(s, i);
        }
    }
    if (s->n > 0 && s->max != mx) {
        fail_msg("%s: s->max = %u, largest value is %u (seed %llu)", what,
                 (unsigned)s->max, (unsigned)mx, TU_SEED);
    }
}

/* Enumerate rule r to n values and compare with want. */
static void enumerate_and_check(const sg_rule *r, size_t n,
                                const uint32_t *want, const char *what)
{
    sg_seq s;
    sg_error err;
    sg_status st;

    sg_seq_init(&s);
    memset(&err, 0, sizeof err);
    st = sg_enumerate(&s, r, n, NULL, &err);
    if (st != SG_OK) {
        fail_msg("%s: sg_enumerate to %zu failed: %d %s (seed %llu)", what, n,
                 (int)st, err.msg, TU_SEED);
    }
    if (s.n != n) {
        fail_msg("%s: asked for %zu values, got %zu", what, n, s.n);
    }
    check_prefix(&s, want, n, what);
    sg_seq_clear(&s);
}

/* One random code against the reference: parse its text, enumerate n. */
static void check_code(const ref_rule *ref, size_t n)
{
    char *text = ref_rule_text(ref);
    uint32_t *want = malloc(n * sizeof *want);
    sg_rule r;

    assert_non_null(text);
    assert_non_null(want);
    ref_values(want, n, ref);
    parse_or_fail(&r, SG_SYNTAX_RULE, text);
    enumerate_and_check(&r, n, want, text);
    sg_rule_clear(&r);
    free(want);
    free(text);
}

static void random_codes(tu_rng *g, const tu_code_opts *o, size_t count,
                         size_t n)
{
    static ref_rule ref;

    for (size_t i = 0; i < count; i++) {
        tu_random_code(&ref, g, o);
        check_code(&ref, n);
    }
}

static void test_random_octal(void **state)
{
    tu_rng g;
    tu_code_opts o = {7, 1, 6, 1, 0, 0};

    (void)state;
    tu_rng_init(&g, 201);
    random_codes(&g, &o, tu_scaled(120), 300);
    o.ndig_max = 2;
    random_codes(&g, &o, tu_scaled(60), 400);
}

static void test_random_hex(void **state)
{
    tu_rng g;
    tu_code_opts o = {15, 1, 6, 1, 0, 0};

    (void)state;
    tu_rng_init(&g, 202);
    random_codes(&g, &o, tu_scaled(60), 110);
    o.ndig_max = 2;
    random_codes(&g, &o, tu_scaled(20), 160);
}

static void test_random_unequal(void **state)
{
    tu_rng g;
    tu_code_opts o = {7, 1, 6, 1, 1, 0};

    (void)state;
    tu_rng_init(&g, 203);
    random_codes(&g, &o, tu_scaled(80), 250);
    o.maxdigit = 15;
    random_codes(&g, &o, tu_scaled(40), 100);
}

static void test_random_tails(void **state)
{
    tu_rng g;
    tu_code_opts o = {7, 0, 4, 1, 1, 1};

    (void)state;
    tu_rng_init(&g, 204);
    random_codes(&g, &o, tu_scaled(60), 130);
    o.maxdigit = 3;
    o.unequal = 0;
    o.pos0 = 0;
    random_codes(&g, &o, tu_scaled(30), 250);
    o.maxdigit = 15;
    o.pos0 = 1;
    o.unequal = 1;
    random_codes(&g, &o, tu_scaled(25), 70);
}

static void test_random_subtract(void **state)
{
    tu_rng g;
    uint64_t set[16];
    char text[16 * 24];
    const size_t n = 600;
    uint32_t *want = malloc(n * sizeof *want);
    uint32_t *want2 = malloc(n * sizeof *want2);
    static ref_rule ref;

    (void)state;
    assert_non_null(want);
    assert_non_null(want2);
    tu_rng_init(&g, 205);
    for (size_t i = 0; i < tu_scaled(120); i++) {
        size_t m = tu_random_set(set, &g, 6, tu_chance(&g, 4) ? 150 : 25);
        sg_rule r;
        char what[16 * 24 + 32];

        tu_set_text(text, &g, set, m);
        snprintf(what, sizeof what, "--subtract %s", text);
        ref_subtract_values(want, n, set, m);
        /* The two references must agree with each other, too. */
        ref_rule_subtract(&ref, set, m);
        ref_values(want2, 300, &ref);
        assert_memory_equal(want, want2, 300 * sizeof *want);

        parse_or_fail(&r, SG_SYNTAX_SUBTRACT, text);
        enumerate_and_check(&r, n, want, what);
        sg_rule_clear(&r);
    }
    free(want);
    free(want2);
}

static void test_random_allbut(void **state)
{
    tu_rng g;
    uint64_t set[16];
    char text[16 * 24];
    const size_t n = 400;
    uint32_t *want = malloc(n * sizeof *want);
    static ref_rule ref;

    (void)state;
    assert_non_null(want);
    tu_rng_init(&g, 206);
    for (size_t i = 0; i < tu_scaled(40); i++) {
        size_t m = tu_chance(&g, 6) ? 0 : tu_random_set(set, &g, 5, 20);
        sg_rule r;
        char what[16 * 24 + 32];

        tu_set_text(text, &g, set, m);
        snprintf(what, sizeof what, "--all-but '%s'", text);
        ref_rule_allbut(&ref, set, m);
        ref_values(want, n, &ref);
        parse_or_fail(&r, SG_SYNTAX_ALLBUT, text);
        enumerate_and_check(&r, n, want, what);
        sg_rule_clear(&r);
    }
    free(want);
}

/* Published sequences as a sanity check of reference and library alike. */
static void test_known_prefixes(void **state)
{
    static const uint32_t kayles[] = {0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6};
    static const uint32_t dawson[] = {0, 0, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3};
    static const uint32_t grundy[] = {0, 0, 0, 1, 0, 2, 1, 0, 2, 1, 0, 2};
    static const uint32_t primes[] = {0, 0, 1, 1, 2, 2, 3, 3, 4, 0, 0, 1};
    static ref_rule ref;
    uint32_t got[12];
    sg_rule r;

    (void)state;
    assert_int_equal(ref_rule_from_code(&ref, "0.77"), 0);
    ref_values(got, 12, &ref);
    assert_memory_equal(got, kayles, sizeof got);
    parse_or_fail(&r, SG_SYNTAX_OCTAL, "0.77");
    enumerate_and_check(&r, 12, kayles, "0.77");
    sg_rule_clear(&r);

    assert_int_equal(ref_rule_from_code(&ref, "0.07"), 0);
    ref_values(got, 12, &ref);
    assert_memory_equal(got, dawson, sizeof got);
    parse_or_fail(&r, SG_SYNTAX_OCTAL, "0.07");
    enumerate_and_check(&r, 12, dawson, "0.07");
    sg_rule_clear(&r);

    assert_int_equal(ref_rule_from_code(&ref, "4!.0"), 0);
    ref_values(got, 12, &ref);
    assert_memory_equal(got, grundy, sizeof got);
    parse_or_fail(&r, SG_SYNTAX_GRUNDY, "");
    enumerate_and_check(&r, 12, grundy, "grundy");
    sg_rule_clear(&r);

    parse_or_fail(&r, SG_SYNTAX_SUBTRACT, "2,3,5,7,11,13");
    enumerate_and_check(&r, 12, primes, "subtract 2,3,5,7,11,13");
    sg_rule_clear(&r);
}

/* Grundy's game and a few fixed codes further out. */
static void test_fixed_rules(void **state)
{
    static const char *codes[] = {"4!.0", "0.77", "0.07",  "0.137",
                                  "4.07", "0.8F", "0.[7]", "8.0",
                                  "C!.0", "0.4!", "0.6",   "0.1[7]"};
    (void)state;
    for (size_t i = 0; i < sizeof codes / sizeof codes[0]; i++) {
        static ref_rule ref;
        size_t n = (strchr(codes[i], '[') || strchr(codes[i], '8') ||
                    strchr(codes[i], 'F') || strchr(codes[i], 'C'))
                       ? 150
                       : 500;
        assert_int_equal(ref_rule_from_code(&ref, codes[i]), 0);
        check_code(&ref, n);
    }
}

static void test_extension(void **state)
{
    static const char *codes[] = {"0.77", "4!.0", "0.[7]", "0.8F", "0.07"};
    tu_rng g;

    (void)state;
    tu_rng_init(&g, 207);
    for (size_t i = 0; i < sizeof codes / sizeof codes[0]; i++) {
        static ref_rule ref;
        const size_t n = 300;
        uint32_t want[300];
        sg_rule r;
        sg_seq s;
        sg_error err;
        size_t at = 0;

        assert_int_equal(ref_rule_from_code(&ref, codes[i]), 0);
        ref_values(want, n, &ref);
        parse_or_fail(&r, SG_SYNTAX_RULE, codes[i]);

        /* 50 then 300 */
        sg_seq_init(&s);
        assert_int_equal(sg_enumerate(&s, &r, 50, NULL, &err), SG_OK);
        assert_int_equal(s.n, 50);
        check_prefix(&s, want, 50, codes[i]);
        assert_int_equal(sg_enumerate(&s, &r, n, NULL, &err), SG_OK);
        assert_int_equal(s.n, n);
        check_prefix(&s, want, n, codes[i]);
        /* Asking for fewer than held keeps what is there. */
        assert_int_equal(sg_enumerate(&s, &r, 10, NULL, &err), SG_OK);
        check_prefix(&s, want, 10, codes[i]);
        sg_seq_clear(&s);
        sg_seq_clear(&s);

        /* Random steps, sometimes of one value, sometimes repeated. */
        sg_seq_init(&s);
        while (at < n) {
            size_t step = tu_chance(&g, 3) ? 1 : (size_t)tu_range(&g, 0, 60);
            at = at + step > n ? n : at + step;
            assert_int_equal(sg_enumerate(&s, &r, at, NULL, &err), SG_OK);
            assert_int_equal(s.n, at);
            check_prefix(&s, want, at, codes[i]);
        }
        sg_seq_clear(&s);

        /* Starting from a reserved, empty sequence. */
        sg_seq_init(&s);
        assert_int_equal(sg_seq_reserve(&s, 1000, &err), SG_OK);
        assert_int_equal(s.n, 0);
        assert_true(s.alloc >= 1000);
        assert_int_equal(sg_enumerate(&s, &r, n, NULL, &err), SG_OK);
        check_prefix(&s, want, n, codes[i]);
        sg_seq_clear(&s);
        sg_rule_clear(&r);
    }
}

static void test_large_values(void **state)
{
    const size_t n = 1000;
    uint32_t *want = malloc(n * sizeof *want);
    static ref_rule ref;
    sg_rule r;
    sg_seq s;
    sg_error err;
    uint64_t excl[] = {1, 3};
    uint64_t excl2[] = {2, 5, 6, 11};

    (void)state;
    assert_non_null(want);

    /* Nim: G(n) = n, far past 255. */
    parse_or_fail(&r, SG_SYNTAX_ALLBUT, "");
    sg_seq_init(&s);
    assert_int_equal(sg_enumerate(&s, &r, n, NULL, &err), SG_OK);
    assert_int_equal(s.n, n);
    for (size_t i = 0; i < n; i++) {
        if (sg_seq_get(&s, i) != i) {
            fail_msg("Nim: G(%zu) = %u", i, (unsigned)sg_seq_get(&s, i));
        }
    }
    assert_int_equal(s.max, n - 1);
    sg_seq_clear(&s);
    sg_rule_clear(&r);

    parse_or_fail(&r, SG_SYNTAX_RULE, "0.[3]");
    for (size_t i = 0; i < n; i++) {
        want[i] = (uint32_t)i;
    }
    enumerate_and_check(&r, n, want, "0.[3]");
    /* In steps across the one-byte limit: the stored prefix widens. */
    sg_seq_init(&s);
    assert_int_equal(sg_enumerate(&s, &r, 200, NULL, &err), SG_OK);
    check_prefix(&s, want, 200, "Nim to 200");
    assert_int_equal(sg_enumerate(&s, &r, 256, NULL, &err), SG_OK);
    check_prefix(&s, want, 256, "Nim to 256");
    assert_int_equal(sg_enumerate(&s, &r, 257, NULL, &err), SG_OK);
    check_prefix(&s, want, 257, "Nim to 257");
    assert_int_equal(sg_enumerate(&s, &r, n, NULL, &err), SG_OK);
    check_prefix(&s, want, n, "Nim to 1000");
    sg_seq_clear(&s);
    sg_rule_clear(&r);

    ref_rule_allbut(&ref, excl, 2);
    ref_values(want, n, &ref);
    assert_true(want[n - 1] >= 256);
    parse_or_fail(&r, SG_SYNTAX_ALLBUT, "1,3");
    enumerate_and_check(&r, n, want, "--all-but 1,3");
    sg_rule_clear(&r);

    ref_rule_allbut(&ref, excl2, 4);
    ref_values(want, n, &ref);
    parse_or_fail(&r, SG_SYNTAX_ALLBUT, "2,5,6,11");
    enumerate_and_check(&r, n, want, "--all-but 2,5,6,11");
    sg_rule_clear(&r);

    /* A split game whose values pass 255. */
    assert_int_equal(ref_rule_from_code(&ref, "0.[7]"), 0);
    ref_values(want, 400, &ref);
    assert_true(want[399] >= 256);
    parse_or_fail(&r, SG_SYNTAX_RULE, "0.[7]");
    enumerate_and_check(&r, 400, want, "0.[7]");
    sg_rule_clear(&r);
    free(want);
}

/* Longer runs of the splitting games, where a cleverer enumerator's
 * bookkeeping (renewed masks, lists of rare values) is exercised; computed
 * in one call and in uneven steps. */
static void test_long_splitting(void **state)
{
    static const char *codes[] = {"0.77", "0.07",  "0.137", "0.16",
                                  "0.4",  "0.6",   "4!.0",  "0.14",
                                  "4.07", "0.7!7", "0.36",  "0.56"};
    const size_t n = tu_scaled(3000) < 600 ? 600 : tu_scaled(3000);
    uint32_t *want = malloc(n * sizeof *want);
    static ref_rule ref;

    (void)state;
    assert_non_null(want);
    for (size_t i = 0; i < sizeof codes / sizeof codes[0]; i++) {
        sg_rule r;
        sg_seq s;
        sg_error err;
        static const size_t steps[] = {1, 2, 100, 129, 511, 1024, 1025};

        assert_int_equal(ref_rule_from_code(&ref, codes[i]), 0);
        ref_values(want, n, &ref);
        parse_or_fail(&r, SG_SYNTAX_RULE, codes[i]);
        enumerate_and_check(&r, n, want, codes[i]);
        sg_seq_init(&s);
        for (size_t j = 0; j < sizeof steps / sizeof steps[0]; j++) {
            if (steps[j] < n) {
                assert_int_equal(sg_enumerate(&s, &r, steps[j], NULL, &err),
                                 SG_OK);
                check_prefix(&s, want, steps[j], codes[i]);
            }
        }
        assert_int_equal(sg_enumerate(&s, &r, n, NULL, &err), SG_OK);
        check_prefix(&s, want, n, codes[i]);
        sg_seq_clear(&s);
        sg_rule_clear(&r);
    }
    free(want);
}

/* A few random two-heap codes further out. */
static void test_random_long(void **state)
{
    tu_rng g;
    tu_code_opts o = {7, 1, 4, 1, 1, 0};

    (void)state;
    tu_rng_init(&g, 208);
    for (size_t i = 0; i < tu_scaled(12); i++) {
        static ref_rule ref;
        tu_random_code(&ref, &g, &o);
        check_code(&ref, 1500);
    }
}

/* Values of 256 and more from the finite-rule methods, which store values
 * in as few bytes as they can: subtract{1-300} (G(n) = n mod 301) and a
 * long splitting code. */
static void test_wide_finite(void **state)
{
    static ref_rule ref;
    const size_t n = 2000, m = 600;
    uint32_t *want = malloc(n * sizeof *want);
    char code[300];
    sg_rule r;
    uint32_t top = 0;

    (void)state;
    assert_non_null(want);
    for (size_t i = 0; i < n; i++) {
        want[i] = (uint32_t)(i % 301);
    }
    parse_or_fail(&r, SG_SYNTAX_SUBTRACT, "1-300");
    enumerate_and_check(&r, n, want, "--subtract 1-300");
    sg_rule_clear(&r);

    /* 0.77...7 (280 sevens): remove 1..280, optionally splitting. */
    code[0] = '0';
    code[1] = '.';
    memset(code + 2, '7', 280);
    code[282] = '\0';
    assert_int_equal(ref_rule_from_code(&ref, code), 0);
    ref_values(want, m, &ref);
    for (size_t i = 0; i < m; i++) {
        top = want[i] > top ? want[i] : top;
    }
    assert_true(top >= 256);
    parse_or_fail(&r, SG_SYNTAX_OCTAL, code);
    enumerate_and_check(&r, m, want, "0.7^280");
    sg_rule_clear(&r);
    free(want);
}

/* Sparse subtraction sets with large elements. */
static void test_large_subtract(void **state)
{
    tu_rng g;
    uint64_t set[8];
    char text[8 * 24];
    const size_t n = 12000;
    uint32_t *want = malloc(n * sizeof *want);

    (void)state;
    assert_non_null(want);
    tu_rng_init(&g, 209);
    for (size_t i = 0; i < tu_scaled(20); i++) {
        size_t m = tu_random_set(set, &g, 5, 4000);
        sg_rule r;
        char what[8 * 24 + 16];

        tu_set_text(text, &g, set, m);
        snprintf(what, sizeof what, "--subtract %s", text);
        ref_subtract_values(want, n, set, m);
        parse_or_fail(&r, SG_SYNTAX_SUBTRACT, text);
        enumerate_and_check(&r, n, want, what);
        sg_rule_clear(&r);
    }
    {
        static const uint64_t s3[] = {997, 1999, 2996};
        sg_rule r;
        ref_subtract_values(want, n, s3, 3);
        parse_or_fail(&r, SG_SYNTAX_SUBTRACT, "997,1999,2996");
        enumerate_and_check(&r, n, want, "--subtract 997,1999,2996");
        sg_rule_clear(&r);
    }
    free(want);
}

static void test_small_and_sizes(void **state)
{
    sg_rule r;
    sg_seq s;
    sg_error err;

    (void)state;
    parse_or_fail(&r, SG_SYNTAX_OCTAL, "0.77");
    sg_seq_init(&s);
    assert_int_equal(sg_enumerate(&s, &r, 0, NULL, &err), SG_OK);
    assert_int_equal(s.n, 0);
    assert_int_equal(sg_enumerate(&s, &r, 1, NULL, &err), SG_OK);
    assert_int_equal(s.n, 1);
    assert_int_equal(sg_seq_get(&s, 0), 0);
    sg_seq_clear(&s);
    sg_rule_clear(&r);

    memset(&s, 0, sizeof s);
    sg_seq_clear(&s); /* zero-initialised: harmless */

    memset(&err, 0, sizeof err);
    assert_int_equal(sg_seq_check_size(1000, &err), SG_OK);
    memset(&err, 0, sizeof err);
    assert_int_not_equal(sg_seq_check_size(SIZE_MAX, &err), SG_OK);
    assert_true(err.msg[0] != '\0');
    memset(&err, 0, sizeof err);
    assert_int_not_equal(sg_seq_check_size(SIZE_MAX / 4 + 1, &err), SG_OK);
    sg_seq_init(&s);
    assert_int_not_equal(sg_seq_reserve(&s, SIZE_MAX / 2, &err), SG_OK);
    sg_seq_clear(&s);
}

/* The packed sequence container: values of every width read back, the
 * width grows past 255 and 65535, reserving and widening keep values. */
static void test_seq_container(void **state)
{
    static const sg_value probe[] = {0,     1, 255,   7,           256,
                                     65535, 3, 65536, 4000000000u, 2};
    sg_seq s;
    sg_error err;
    sg_value mx = 0;
    size_t n = 0;

    (void)state;
    sg_seq_init(&s);
    for (size_t i = 0; i < 300; i++, n++) {
        assert_int_equal(sg_seq_append(&s, (sg_value)(i % 200), &err), SG_OK);
    }
    mx = 199;
    assert_int_equal(s.max, mx);
    for (size_t i = 0; i < sizeof probe / sizeof probe[0]; i++, n++) {
        assert_int_equal(sg_seq_append(&s, probe[i], &err), SG_OK);
        if (probe[i] > mx) {
            mx = probe[i];
        }
        assert_int_equal(s.max, mx);
        assert_int_equal(s.n, n + 1);
        /* Everything appended so far reads back. */
        for (size_t j = 0; j < 300; j++) {
            assert_int_equal(sg_seq_get(&s, j), j % 200);
        }
        for (size_t j = 0; j <= i; j++) {
            assert_int_equal(sg_seq_get(&s, 300 + j), probe[j]);
        }
    }
    assert_true(s.width >= 4);
    assert_int_equal(sg_seq_reserve(&s, 100000, &err), SG_OK);
    assert_true(s.alloc >= 100000);
    for (size_t j = 0; j < sizeof probe / sizeof probe[0]; j++) {
        assert_int_equal(sg_seq_get(&s, 300 + j), probe[j]);
    }
    sg_seq_clear(&s);

    /* Explicit widening keeps the values. */
    sg_seq_init(&s);
    for (size_t i = 0; i < 1000; i++) {
        assert_int_equal(sg_seq_append(&s, (sg_value)(i % 251), &err), SG_OK);
    }
    assert_int_equal(sg_seq_widen(&s, 2, &err), SG_OK);
    assert_true(s.width >= 2);
    assert_int_equal(sg_seq_widen(&s, 4, &err), SG_OK);
    assert_true(s.width >= 4);
    assert_int_equal(sg_seq_widen(&s, 1, &err), SG_OK); /* never narrows */
    assert_true(s.width >= 4);
    for (size_t i = 0; i < 1000; i++) {
        assert_int_equal(sg_seq_get(&s, i), i % 251);
    }
    sg_seq_clear(&s);
}

/* The enumerator names its method for every family. */
static void test_method_names(void **state)
{
    static const char *rules[] = {
        "0.77", "subtract{2,3,5}", "all-but{}", "4!.0", "0.8F", "0.[7]"};
    (void)state;
    for (size_t i = 0; i < sizeof rules / sizeof rules[0]; i++) {
        sg_rule r;
        const char *m;
        parse_or_fail(&r, SG_SYNTAX_RULE, rules[i]);
        m = sg_enumerate_method(&r);
        assert_non_null(m);
        assert_true(m[0] != '\0');
        sg_rule_clear(&r);
    }
}

/* ------------------------------------------------------------------ */
/* Three-heap moves (enum_three.c) against the reference and naive     */
/* ------------------------------------------------------------------ */

/* Random hexadecimal codes with at least one digit of bit 8: without `!`
 * they go to the three-heap method, with it to the naive one; both are
 * judged by the reference. */
static void test_three_random(void **state)
{
    static ref_rule ref;
    tu_rng g;
    tu_code_opts o = {15, 1, 5, 1, 0, 0};

    (void)state;
    tu_rng_init(&g, 231);
    for (int pass = 0; pass < 2; pass++) {
        o.unequal = pass;
        for (size_t i = 0; i < tu_scaled(60); i++) {
            char *text;
            sg_rule r;
            unsigned k;

            tu_random_code(&ref, &g, &o);
            if (!(ref_bits(&ref) & 8)) {
                k = (unsigned)tu_range(&g, 0, ref.len - 1);
                ref.digit[k] |= 8;
            }
            text = ref_rule_text(&ref);
            assert_non_null(text);
            parse_or_fail(&r, SG_SYNTAX_RULE, text);
            if (strcmp(sg_enumerate_method(&r),
                       ref_has_unequal(&ref) ? "naive" : "three-heap")) {
                fail_msg("%s: method %s", text, sg_enumerate_method(&r));
            }
            sg_rule_clear(&r);
            free(text);
            check_code(&ref, i % 4 == 0 ? 300 : 120);
        }
    }
}

/* The word-wise xor translation the three-heap method uses, against its
 * definition bit by bit. */
static void test_three_translate(void **state)
{
    tu_rng g;

    (void)state;
    tu_rng_init(&g, 232);
    for (int i = 0; i < 200; i++) {
        uint64_t x = tu_next(&g);
        if (i < 64) {
            x = (uint64_t)1 << i;
        }
        for (unsigned lo = 0; lo < 64; lo++) {
            uint64_t want = 0;
            for (unsigned j = 0; j < 64; j++) {
                if (x >> j & 1) {
                    want |= (uint64_t)1 << (j ^ lo);
                }
            }
            if (sgi_xor_translate(x, lo) != want) {
                fail_msg("xor translate of %016llx by %u: %016llx, want "
                         "%016llx",
                         (unsigned long long)x, lo,
                         (unsigned long long)sgi_xor_translate(x, lo),
                         (unsigned long long)want);
            }
        }
    }
}

/* The three-heap method against the naive one on the same rule, to n
 * values: equal values and largest value.  Returns the largest. */
static sg_value three_vs_naive(const char *code, size_t n)
{
    sg_rule r;
    sg_seq a, b;
    sg_error err;
    sg_value top;

    parse_or_fail(&r, SG_SYNTAX_RULE, code);
    assert_true(sgi_three_applicable(&r));
    sg_seq_init(&a);
    sg_seq_init(&b);
    memset(&err, 0, sizeof err);
    if (sgi_enumerate_three(&a, &r, n, NULL, &err) != SG_OK) {
        fail_msg("%s: three-heap method failed: %s", code, err.msg);
    }
    assert_int_equal(sg_enumerate_naive(&b, &r, n, NULL, &err), SG_OK);
    assert_int_equal(a.n, n);
    assert_int_equal(b.n, n);
    for (size_t i = 0; i < n; i++) {
        if (sg_seq_get(&a, i) != sg_seq_get(&b, i)) {
            fail_msg("%s: G(%zu) = %u, naive method says %u", code, i,
                     (unsigned)sg_seq_get(&a, i), (unsigned)sg_seq_get(&b, i));
        }
    }
    assert_int_equal(a.max, b.max);
    top = a.max;
    sg_seq_clear(&a);
    sg_seq_clear(&b);
    sg_rule_clear(&r);
    return top;
}

/* Ruler-like codes whose values grow with the heap (0.2048 past 256 and
 * 512, so the sets widen several times), digit 8 alone at positions 0-5,
 * and mixed digits. */
static void test_three_codes(void **state)
{
    static const char *ruler[] = {"0.2048", "0.8F", "0.48", "0.C8",
                                  "0.9",    "0.28", "8.0",  "0.A8"};
    static const char *alone[] = {"8.0",   "0.8",    "0.08",
                                  "0.008", "0.0008", "0.00008"};
    static const char *mixed[] = {"0.F",     "4.8",     "0.8F8",
                                  "0.37C",   "C.7E",    "0.1B3F",
                                  "0.8000F", "0.E0E0E", "0.6D29"};

    (void)state;
    assert_true(three_vs_naive("0.2048", 1500) >= 256);
    for (size_t i = 1; i < sizeof ruler / sizeof ruler[0]; i++) {
        assert_true(three_vs_naive(ruler[i], 700) >= 64);
    }
    for (size_t i = 0; i < sizeof alone / sizeof alone[0]; i++) {
        three_vs_naive(alone[i], 600);
    }
    for (size_t i = 0; i < sizeof mixed / sizeof mixed[0]; i++) {
        three_vs_naive(mixed[i], 500);
    }
}

/* A prefix extended in uneven steps (the sets are rebuilt from the values
 * held), the same as one run; a cancel flag set at once leaves a correct
 * prefix; a run whose sets cannot fit is refused as bad input. */
static void test_three_steps_and_limits(void **state)
{
    static const size_t steps[] = {1, 2, 3, 70, 71, 300, 900};
    volatile sig_atomic_t flag = 1;
    sg_enum_options opt = {0};
    sg_rule r;
    sg_seq a, b;
    sg_error err;
    uint64_t mem = sgi_physical_memory();

    (void)state;
    parse_or_fail(&r, SG_SYNTAX_RULE, "0.2048");
    sg_seq_init(&a);
    sg_seq_init(&b);
    assert_int_equal(sg_enumerate_naive(&b, &r, 900, NULL, &err), SG_OK);
    for (size_t i = 0; i < sizeof steps / sizeof steps[0]; i++) {
        assert_int_equal(sg_enumerate(&a, &r, steps[i], NULL, &err), SG_OK);
        assert_int_equal(a.n, steps[i]);
        for (size_t j = 0; j < a.n; j++) {
            if (sg_seq_get(&a, j) != sg_seq_get(&b, j)) {
                fail_msg("0.2048 in steps to %zu: G(%zu) = %u, naive %u",
                         steps[i], j, (unsigned)sg_seq_get(&a, j),
                         (unsigned)sg_seq_get(&b, j));
            }
        }
    }
    assert_int_equal(a.max, b.max);

    opt.cancel = &flag;
    assert_int_equal(sg_enumerate(&a, &r, 5000, &opt, &err), SG_E_INTERRUPTED);
    assert_int_equal(a.n, 900);
    sg_seq_clear(&a);
    sg_seq_init(&a);
    assert_int_equal(sg_enumerate(&a, &r, 5000, &opt, &err), SG_E_INTERRUPTED);
    assert_int_equal(a.n, 0);

    memset(&err, 0, sizeof err);
    assert_int_equal(sg_enumerate(&a, &r, SIZE_MAX / 4, NULL, &err),
                     SG_E_INPUT);
    assert_non_null(strstr(err.msg, "three-heap"));
    if (mem) {
        /* One word per set already takes 8 bytes a heap. */
        memset(&err, 0, sizeof err);
        assert_int_equal(
            sg_enumerate(&a, &r, (size_t)(mem / 8) + 1, NULL, &err),
            SG_E_INPUT);
        assert_non_null(strstr(err.msg, "GiB"));
    }
    assert_int_equal(a.n, 0);
    sg_seq_clear(&a);
    sg_seq_clear(&b);
    sg_rule_clear(&r);
}

/* Kayles values for checking what is left after an interruption: the
 * reference for the first 2000, then the published period (p 12 from
 * n0 71) for the rest. */
static void check_interrupted(const sg_seq *s, size_t asked, const char *what)
{
    static uint32_t want[2000];
    static ref_rule ref;

    if (s->n > asked) {
        fail_msg("%s: %zu values held, only %zu asked for", what, s->n, asked);
    }
    assert_int_equal(ref_rule_from_code(&ref, "0.77"), 0);
    ref_values(want, 2000, &ref);
    for (size_t i = 0; i < s->n; i++) {
        uint32_t w = i < 2000 ? want[i] : want[71 + (i - 71) % 12];
        if (sg_seq_get(s, i) != w) {
            fail_msg("%s: G(%zu) = %u, expected %u", what, i,
                     (unsigned)sg_seq_get(s, i), (unsigned)w);
        }
    }
}

static void test_cancel_preset(void **state)
{
    sg_rule r;
    sg_seq s;
    sg_error err;
    volatile sig_atomic_t flag = 1;
    sg_enum_options opt = {0};
    sg_status st;

    (void)state;
    opt.cancel = &flag;
    parse_or_fail(&r, SG_SYNTAX_OCTAL, "0.77");
    sg_seq_init(&s);
    memset(&err, 0, sizeof err);
    st = sg_enumerate(&s, &r, 60000, &opt, &err);
    assert_int_equal(st, SG_E_INTERRUPTED);
    assert_true(s.n < 60000);
    check_interrupted(&s, 60000, "0.77 cancelled at once");

    /* After an interruption the prefix can be extended normally. */
    flag = 0;
    assert_int_equal(sg_enumerate(&s, &r, 500, &opt, &err), SG_OK);
    check_interrupted(&s, 500, "0.77 resumed");
    assert_int_equal(s.n, 500);

    /* A prefix already computed stays when cancelled again. */
    flag = 1;
    st = sg_enumerate(&s, &r, 60000, &opt, &err);
    assert_int_equal(st, SG_E_INTERRUPTED);
    assert_true(s.n >= 500);
    check_interrupted(&s, 60000, "0.77 cancelled again");
    sg_seq_clear(&s);
    sg_rule_clear(&r);
}

static volatile sig_atomic_t timer_flag;

static void on_alarm(int sig)
{
    (void)sig;
    timer_flag = 1;
}

static void test_cancel_timer(void **state)
{
    sg_rule r;
    sg_seq s;
    sg_error err;
    sg_status st;
    struct sigaction sa;
    struct itimerval it;
    const size_t asked = 400000;
    sg_enum_options opt = {0};

    (void)state;
    opt.cancel = &timer_flag;
    parse_or_fail(&r, SG_SYNTAX_OCTAL, "0.77");
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_alarm;
    sigemptyset(&sa.sa_mask);
    assert_int_equal(sigaction(SIGALRM, &sa, NULL), 0);
    memset(&it, 0, sizeof it);
    it.it_value.tv_usec = 50000; /* 50 ms */
    timer_flag = 0;
    assert_int_equal(setitimer(ITIMER_REAL, &it, NULL), 0);

    sg_seq_init(&s);
    memset(&err, 0, sizeof err);
    st = sg_enumerate(&s, &r, asked, &opt, &err);
    memset(&it, 0, sizeof it);
    setitimer(ITIMER_REAL, &it, NULL);
    /* A fast enumerator may finish first; a naive one must stop. */
    if (st == SG_OK) {
        assert_int_equal(s.n, asked);
    } else {
        assert_int_equal(st, SG_E_INTERRUPTED);
        assert_int_equal(timer_flag, 1);
    }
    check_interrupted(&s, asked, "0.77 cancelled by a timer");
    /* And the interrupted prefix extends correctly. */
    if (s.n < asked) {
        size_t more = s.n + 5000 < asked ? s.n + 5000 : asked;
        assert_int_equal(sg_enumerate(&s, &r, more, NULL, &err), SG_OK);
        assert_int_equal(s.n, more);
        check_interrupted(&s, asked, "0.77 resumed after the timer");
    }
    sg_seq_clear(&s);
    sg_rule_clear(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_known_prefixes),
        cmocka_unit_test(test_random_octal),
        cmocka_unit_test(test_random_hex),
        cmocka_unit_test(test_random_unequal),
        cmocka_unit_test(test_random_tails),
        cmocka_unit_test(test_random_subtract),
        cmocka_unit_test(test_random_allbut),
        cmocka_unit_test(test_fixed_rules),
        cmocka_unit_test(test_extension),
        cmocka_unit_test(test_large_values),
        cmocka_unit_test(test_long_splitting),
        cmocka_unit_test(test_random_long),
        cmocka_unit_test(test_wide_finite),
        cmocka_unit_test(test_large_subtract),
        cmocka_unit_test(test_small_and_sizes),
        cmocka_unit_test(test_seq_container),
        cmocka_unit_test(test_method_names),
        cmocka_unit_test(test_three_random),
        cmocka_unit_test(test_three_translate),
        cmocka_unit_test(test_three_codes),
        cmocka_unit_test(test_three_steps_and_limits),
        cmocka_unit_test(test_cancel_preset),
        cmocka_unit_test(test_cancel_timer),
    };

    (void)tu_base_seed();
    return cmocka_run_group_tests(tests, NULL, NULL);
}
