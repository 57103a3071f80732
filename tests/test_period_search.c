/*
 * test_period_search.c - unit tests of the candidate-period scan
 * (period_search.c): on random, periodic, constant and Thue-Morse
 * sequences of every stored width, the shifts it returns must be exactly
 * those a direct comparison of every shift finds, in increasing order,
 * also when the scan is resumed after each answer; and on game values it
 * must find the published periods.
 */
#define _DEFAULT_SOURCE
#include "testutil.h"

#include <string.h>

#include "base/period_search.h"
#include "sgexplore.h"

/* Every d in [dmin, n - len] whose window equals the final one, by brute
 * force; returns how many (stored in out). */
static size_t brute_shifts(uint64_t *out, const sg_seq *s, uint64_t len,
                           uint64_t dmin)
{
    uint64_t n = s->n, d;
    size_t k = 0;

    for (d = dmin; d + len <= n; d++) {
        uint64_t i;
        for (i = 0; i < len; i++) {
            if (sg_seq_get(s, (size_t)(n - len - d + i)) !=
                sg_seq_get(s, (size_t)(n - len + i))) {
                break;
            }
        }
        if (i == len) {
            out[k++] = d;
        }
    }
    return k;
}

static void compare_scan(const sg_seq *s, uint64_t len, uint64_t dmin,
                         const char *what)
{
    uint64_t *want = malloc((s->n + 1) * sizeof *want);
    size_t k, i = 0;
    sgi_period_scan ps;
    uint64_t d;

    assert_non_null(want);
    k = brute_shifts(want, s, len, dmin);
    assert_int_equal(sgi_period_scan_init(&ps, s, len, dmin, NULL), SG_OK);
    while ((d = sgi_period_scan_next(&ps)) != 0) {
        if (i >= k || d != want[i]) {
            fail_msg("%s (n %zu, len %llu, dmin %llu): shift %llu returned, "
                     "expected %llu (seed %llu)",
                     what, s->n, (unsigned long long)len,
                     (unsigned long long)dmin, (unsigned long long)d,
                     i < k ? (unsigned long long)want[i] : 0ULL, TU_SEED);
        }
        i++;
    }
    if (i != k) {
        fail_msg("%s (n %zu, len %llu): %zu shifts returned, %zu expected "
                 "(seed %llu)",
                 what, s->n, (unsigned long long)len, i, k, TU_SEED);
    }
    /* Exhausted stays exhausted. */
    assert_int_equal(sgi_period_scan_next(&ps), 0);
    sgi_period_scan_clear(&ps);
    free(want);
}

/* A test sequence of n values of the given kind, scaled by `scale` (so
 * that the stored width is 1, 2 or 4 bytes). */
static void make_seq(sg_seq *s, tu_rng *g, int kind, size_t n, sg_value scale)
{
    size_t p = (size_t)tu_range(g, 1, 40), n0 = (size_t)tu_range(g, 0, 60);
    sg_value alphabet = (sg_value)tu_range(g, 1, 4);
    sg_value *per = malloc(p * sizeof *per);
    sg_error err;

    assert_non_null(per);
    for (size_t i = 0; i < p; i++) {
        per[i] = (sg_value)tu_range(g, 0, alphabet);
    }
    sg_seq_init(s);
    for (size_t i = 0; i < n; i++) {
        sg_value v;
        switch (kind) {
        case 0: /* random over a small alphabet */
            v = (sg_value)tu_range(g, 0, alphabet);
            break;
        case 1: /* eventually periodic */
            v = i < n0 ? (sg_value)tu_range(g, 0, alphabet) : per[i % p];
            break;
        case 2: /* constant */
            v = 3;
            break;
        default: /* Thue-Morse */
            v = (sg_value)(__builtin_popcountll(i) & 1);
            break;
        }
        assert_int_equal(sg_seq_append(s, v * scale, &err), SG_OK);
    }
    free(per);
}

static void test_random_sequences(void **state)
{
    static const sg_value scales[] = {1, 300, 70001};
    tu_rng g;

    (void)state;
    tu_rng_init(&g, 601);
    for (size_t t = 0; t < tu_scaled(400); t++) {
        int kind = (int)tu_range(&g, 0, 3);
        size_t n = (size_t)tu_range(&g, 1, 700);
        sg_seq s;
        uint64_t len = tu_range(&g, 1, n < 80 ? n : 80);
        uint64_t dmin = tu_range(&g, 1, 5);
        static const char *names[] = {"random", "periodic", "constant",
                                      "Thue-Morse"};

        make_seq(&s, &g, kind, n, scales[tu_range(&g, 0, 2)]);
        compare_scan(&s, len, dmin, names[kind]);
        sg_seq_clear(&s);
    }
}

/* The scan of differences against its definition: shift d is listed
 * exactly when G(n + d) - G(n) takes one value over the last len + 1 n
 * below N - d, checked here with the values themselves, on sequences
 * that are arithmetic-periodic (a random block growing by a random
 * saltus), periodic, random, and on values of every stored width. */
static void test_diff_scan(void **state)
{
    tu_rng g;

    (void)state;
    tu_rng_init(&g, 604);
    for (size_t t = 0; t < tu_scaled(300); t++) {
        size_t n = (size_t)tu_range(&g, 2, 600), p, n0, i, k = 0, got = 0;
        uint64_t len = tu_range(&g, 1, n - 1 < 60 ? n - 1 : 60);
        uint64_t dmin = tu_range(&g, 1, 4), d, *want;
        sg_value sal = (sg_value)tu_range(&g, 0, 3) * (t % 3 ? 1 : 40000);
        sg_seq s;
        sgi_period_scan ps;
        sg_error err;
        int kind = (int)tu_range(&g, 0, 2);

        p = (size_t)tu_range(&g, 1, 30);
        n0 = (size_t)tu_range(&g, 0, 40);
        sg_seq_init(&s);
        for (i = 0; i < n; i++) {
            sg_value v;
            if (kind == 0 || i < n0 + p)
                v = (sg_value)tu_range(&g, 0, 3);
            else
                v = sg_seq_get(&s, i - p) + (kind == 1 ? sal : 0);
            assert_int_equal(sg_seq_append(&s, v, &err), SG_OK);
        }
        want = malloc((n + 1) * sizeof *want);
        assert_non_null(want);
        for (d = dmin; d + len + 1 <= n; d++) {
            uint64_t j, b = n - 1 - len - d;
            int64_t c = (int64_t)sg_seq_get(&s, (size_t)(b + d)) -
                        (int64_t)sg_seq_get(&s, (size_t)b);
            for (j = b; j < n - d; j++)
                if ((int64_t)sg_seq_get(&s, (size_t)(j + d)) -
                        (int64_t)sg_seq_get(&s, (size_t)j) !=
                    c)
                    break;
            if (j == n - d)
                want[k++] = d;
        }
        assert_int_equal(sgi_period_scan_init_diff(&ps, &s, len, dmin, NULL),
                         SG_OK);
        while ((d = sgi_period_scan_next(&ps)) != 0) {
            if (got >= k || want[got] != d)
                fail_msg("diff scan n %zu len %llu: shift %llu, expected "
                         "%llu (seed %llu)",
                         n, (unsigned long long)len, (unsigned long long)d,
                         got < k ? (unsigned long long)want[got] : 0ULL,
                         TU_SEED);
            got++;
        }
        if (got != k)
            fail_msg("diff scan n %zu len %llu: %zu shifts, expected %zu "
                     "(seed %llu)",
                     n, (unsigned long long)len, got, k, TU_SEED);
        sgi_period_scan_clear(&ps);
        free(want);
        sg_seq_clear(&s);
    }
}

/* One-byte values from a large alphabet, with copies of the final window
 * planted at random places (some overlapping the end or each other): the
 * scan jumps over long stretches where the window cannot begin, sixteen
 * positions at a time, and must land on exactly the planted shifts. */
static void test_planted_windows(void **state)
{
    tu_rng g;

    (void)state;
    tu_rng_init(&g, 604);
    for (size_t t = 0; t < tu_scaled(300); t++) {
        size_t n = (size_t)tu_range(&g, 2, 3000), len, copies;
        sg_value *v = malloc(n * sizeof *v);
        sg_seq s;
        sg_error err;

        assert_non_null(v);
        len = (size_t)tu_range(&g, 1, n < 40 ? n : 40);
        for (size_t i = 0; i < n; i++)
            v[i] = (sg_value)tu_range(&g, 0, 255);
        copies = (size_t)tu_range(&g, 0, 6);
        for (size_t c = 0; c < copies && len < n; c++) {
            size_t at = (size_t)tu_range(&g, 0, n - len - 1);
            /* (a partial copy too: the first byte or two only) */
            size_t part =
                tu_range(&g, 0, 3) == 0 ? (size_t)tu_range(&g, 1, 2) : len;
            for (size_t i = 0; i < part && i < len; i++)
                v[at + i] = v[n - len + i];
        }
        sg_seq_init(&s);
        for (size_t i = 0; i < n; i++)
            assert_int_equal(sg_seq_append(&s, v[i], &err), SG_OK);
        compare_scan(&s, len, (uint64_t)tu_range(&g, 1, 3), "planted");
        sg_seq_clear(&s);
        free(v);
    }
}

/* Long Thue-Morse prefixes: highly self-similar, many overlapping
 * matches, the classic hard case for string searches. */
static void test_thue_morse(void **state)
{
    tu_rng g;
    sg_seq s;

    (void)state;
    tu_rng_init(&g, 602);
    make_seq(&s, &g, 3, 20000, 1);
    compare_scan(&s, 2048, 1, "Thue-Morse, window 2048");
    compare_scan(&s, 4096, 7, "Thue-Morse, window 4096");
    sg_seq_clear(&s);
}

/* Edge cases: windows as long as the sequence, empty sequences. */
static void test_edges(void **state)
{
    sg_seq s;
    sg_error err;
    sgi_period_scan ps;

    (void)state;
    sg_seq_init(&s);
    assert_int_equal(sgi_period_scan_init(&ps, &s, 1, 1, NULL), SG_OK);
    assert_int_equal(sgi_period_scan_next(&ps), 0);
    sgi_period_scan_clear(&ps);
    for (int i = 0; i < 10; i++) {
        assert_int_equal(sg_seq_append(&s, 5, &err), SG_OK);
    }
    assert_int_equal(sgi_period_scan_init(&ps, &s, 10, 1, NULL), SG_OK);
    assert_int_equal(sgi_period_scan_next(&ps), 0);
    sgi_period_scan_clear(&ps);
    assert_int_equal(sgi_period_scan_init(&ps, &s, 9, 1, NULL), SG_OK);
    assert_int_equal(sgi_period_scan_next(&ps), 1);
    assert_int_equal(sgi_period_scan_next(&ps), 0);
    sgi_period_scan_clear(&ps);
    assert_int_equal(sgi_period_scan_init(&ps, &s, 1, 1, NULL), SG_OK);
    for (uint64_t d = 1; d <= 9; d++) {
        assert_int_equal(sgi_period_scan_next(&ps), d);
    }
    assert_int_equal(sgi_period_scan_next(&ps), 0);
    sgi_period_scan_clear(&ps);
    assert_int_equal(sgi_period_scan_init(&ps, &s, 11, 1, NULL), SG_OK);
    assert_int_equal(sgi_period_scan_next(&ps), 0);
    sgi_period_scan_clear(&ps);
    /* Clearing twice, or an exhausted scan, is harmless. */
    sgi_period_scan_clear(&ps);
    sg_seq_clear(&s);
}

/* On game values the first shift is the published period: the
 * subtraction game {997, 1999, 2996} (period 3,990,991 from 0, window
 * theorem with t = 2996) and 0.16 (period 149,459 from 105,351). */
static void test_game_periods(void **state)
{
    sg_rule r;
    sg_seq s;
    sg_error err;
    sgi_period_scan ps;
    uint64_t d, i;

    (void)state;
    sg_rule_init(&r);
    assert_int_equal(
        sg_rule_parse(&r, SG_SYNTAX_SUBTRACT, "997,1999,2996", &err), SG_OK);
    sg_seq_init(&s);
    assert_int_equal(sg_enumerate(&s, &r, 3990991 + 2996 + 1, NULL, &err),
                     SG_OK);
    assert_int_equal(sgi_period_scan_init(&ps, &s, 2996, 1, NULL), SG_OK);
    d = sgi_period_scan_next(&ps);
    sgi_period_scan_clear(&ps);
    assert_int_equal(d, 3990991);
    for (i = s.n - d; i > 0; i--) {
        if (sg_seq_get(&s, (size_t)(i - 1)) !=
            sg_seq_get(&s, (size_t)(i - 1 + d))) {
            break;
        }
    }
    assert_int_equal(i, 0);
    sg_seq_clear(&s);
    sg_rule_clear(&r);

    sg_rule_init(&r);
    assert_int_equal(sg_rule_parse(&r, SG_SYNTAX_OCTAL, "0.16", &err), SG_OK);
    sg_seq_init(&s);
    assert_int_equal(
        sg_enumerate(&s, &r, 2 * 105351 + 2 * 149459 + 3, NULL, &err), SG_OK);
    assert_int_equal(sgi_period_scan_init(&ps, &s, 1024, 1, NULL), SG_OK);
    d = sgi_period_scan_next(&ps);
    sgi_period_scan_clear(&ps);
    assert_int_equal(d, 149459);
    for (i = s.n - d; i > 0; i--) {
        if (sg_seq_get(&s, (size_t)(i - 1)) !=
            sg_seq_get(&s, (size_t)(i - 1 + d))) {
            break;
        }
    }
    assert_int_equal(i, 105351);
    sg_seq_clear(&s);
    sg_rule_clear(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_edges),
        cmocka_unit_test(test_random_sequences),
        cmocka_unit_test(test_diff_scan),
        cmocka_unit_test(test_planted_windows),
        cmocka_unit_test(test_thue_morse),
        cmocka_unit_test(test_game_periods),
    };

    tu_base_seed();
    return cmocka_run_group_tests(tests, NULL, NULL);
}
