/*
 * test_scan.c - unit tests of the full-scan method (enum_scan.c), the
 * sparse method's fallback where no sparse space fits: values of random
 * codes with and without `!` and splits before the point, from scratch
 * and from a prefix, at every stored width, with AVX2 and without, and
 * with windows of 1 to 254 values (tiny windows make every heap cross
 * many of them), all against the tests' independent reference; values
 * of 256 and more (0.5662); when the sparse method hands over
 * (sgi_scan_worth, at most two threads) and that the hand-over changes no
 * value; cancelling.
 */
#define _DEFAULT_SOURCE
#include "reference.h"
#include "sparse_check.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "sgexplore.h"
#include "enum/methods/enum_impl.h"
#include "enum/sparse/sparse.h"

/* Windows of these widths: 0 is the default (254). */
static const unsigned widths[] = {1, 2, 3, 7, 64, 0};

/* The scan of r from `from` reference values (a sequence pre-widened to
 * `bytes` bytes) to n, against want. */
static void scan_check(const sg_rule *r, const uint32_t *want, size_t from,
                       size_t n, unsigned bytes, unsigned width, int no_simd,
                       const char *what)
{
    sg_seq s;
    sg_error err;
    sg_status st;

    sg_seq_init(&s);
    memset(&err, 0, sizeof err);
    if (bytes > 1)
        assert_int_equal(sg_seq_widen(&s, bytes, &err), SG_OK);
    for (size_t i = 0; i < from; i++)
        assert_int_equal(sg_seq_append(&s, want[i], &err), SG_OK);
    st = sgi_enumerate_scan(&s, r, n, width, no_simd, NULL, &err);
    if (st != SG_OK)
        fail_msg("%s: sgi_enumerate_scan failed: %s (seed %llu)", what, err.msg,
                 TU_SEED);
    {
        char label[128];
        snprintf(label, sizeof label, "%s, scans of width %u%s", what, width,
                 no_simd ? " without AVX2" : "");
        /* check_values' mask: the scans have none (-1) */
        check_values(&s, want, n, label, -1);
    }
    sg_seq_clear(&s);
}

/* One random code of o's kind: every width, both code paths, from
 * scratch and from a random prefix, against the reference. */
static void check_random_code(tu_rng *g, const tu_code_opts *o, size_t n)
{
    static ref_rule ref;
    char *text;
    uint32_t *want;
    sg_rule r;

    tu_random_code(&ref, g, o);
    text = ref_rule_text(&ref);
    assert_non_null(text);
    want = malloc(n * sizeof *want);
    assert_non_null(want);
    ref_values(want, n, &ref);
    parse_or_fail(&r, SG_SYNTAX_RULE, text);
    for (size_t w = 0; w < sizeof widths / sizeof *widths; w++)
        for (int no_simd = 0; no_simd < 2; no_simd++)
            scan_check(&r, want, 0, n, 1, widths[w], no_simd, text);
    scan_check(&r, want, (size_t)tu_range(g, 1, n - 1), n,
               tu_chance(g, 2) ? 2 : 4, widths[tu_range(g, 0, 5)],
               tu_chance(g, 2), text);
    sg_rule_clear(&r);
    free(want);
    free(text);
}

/* Octal codes, some with a split before the point (take nothing). */
static void test_random_octal(void **state)
{
    tu_code_opts o = {7, 1, 6, 1, 0, 0};
    tu_rng g;

    (void)state;
    tu_rng_init(&g, 901);
    for (size_t i = 0; i < tu_scaled_at_least(60, 10); i++)
        check_random_code(&g, &o, 500);
}

/* `!` on split digits: the pair of equal halves is no option. */
static void test_random_unequal(void **state)
{
    tu_code_opts o = {7, 1, 6, 1, 1, 0};
    tu_rng g;

    (void)state;
    tu_rng_init(&g, 902);
    for (size_t i = 0; i < tu_scaled_at_least(60, 10); i++)
        check_random_code(&g, &o, 500);
}

/* Values of 256 and more (0.5662 from heap 2,550): windows past the first
 * and the two-byte sequence, both code paths, widths 254 and 7. */
static void test_wide_values(void **state)
{
    static ref_rule ref;
    const size_t n = 4000;
    uint32_t *want = malloc(n * sizeof *want);
    uint32_t mx = 0;
    sg_rule r;

    (void)state;
    assert_non_null(want);
    assert_int_equal(ref_rule_from_code(&ref, "0.5662"), 0);
    ref_values(want, n, &ref);
    for (size_t i = 0; i < n; i++)
        mx = want[i] > mx ? want[i] : mx;
    assert_true(mx >= 400); /* else the test tests less than it says */
    parse_or_fail(&r, SG_SYNTAX_RULE, "0.5662");
    for (int no_simd = 0; no_simd < 2; no_simd++) {
        scan_check(&r, want, 0, n, 1, 0, no_simd, "0.5662");
        scan_check(&r, want, 3000, n, 2, 7, no_simd, "0.5662");
    }
    sg_rule_clear(&r);
    free(want);
}

/* The sparse method's own values of code to n (no hand-over). */
static sg_seq sparse_alone(const sg_rule *r, size_t n)
{
    sgi_test_switches sw = {0};
    sg_enum_options opt;
    sg_error err;
    sg_seq s;

    sw.no_scan = 1;
    memset(&opt, 0, sizeof opt);
    opt.test = &sw;
    opt.threads = 1;
    sg_seq_init(&s);
    assert_int_equal(
        sgi_enumerate_sparse(&s, r, n, SGI_SPARSE_AUTO, NULL, &opt, &err),
        SG_OK);
    return s;
}

/* 0.1633 (a fifth of its heaps rare under the best mask) is handed over,
 * 0.6512 (about 13 % at 2^15) and Kayles are not, nor 0.554 (no heap
 * rare: its values are 0 and 1) or 0.106 (a parity space); whatever is
 * chosen, the values are the sparse method's own. */
static void test_handover(void **state)
{
    static const struct {
        const char *code;
        int worth;
    } cases[] = {
        {"0.1633", 1}, {"0.6512", 0}, {"0.77", 0}, {"0.554", 0}, {"0.106", 0}};
    const size_t n = SGI_SCAN_PREFIX + 4000;

    (void)state;
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        sg_rule r;
        sg_seq s, t;
        sg_error err;
        sg_enum_options opt;
        sgi_sparse_stats stats;
        int simd;

        parse_or_fail(&r, SG_SYNTAX_RULE, cases[c].code);
        s = sparse_alone(&r, SGI_SCAN_PREFIX);
        simd = __builtin_cpu_supports("avx2");
        /* without AVX2 the scans never pay */
        if (sgi_scan_worth(&s, &r) != (cases[c].worth && simd))
            fail_msg("%s: sgi_scan_worth says %d", cases[c].code,
                     sgi_scan_worth(&s, &r));
        sg_seq_clear(&s);
        s = sparse_alone(&r, n);
        sg_seq_init(&t);
        memset(&opt, 0, sizeof opt);
        opt.threads = 1;
        assert_int_equal(sgi_enumerate_sparse(&t, &r, n, SGI_SPARSE_AUTO,
                                              &stats, &opt, &err),
                         SG_OK);
        assert_int_equal(t.n, n);
        if ((stats.scanned > 0) != (cases[c].worth && simd))
            fail_msg("%s: %zu heaps scanned", cases[c].code, stats.scanned);
        if (stats.scanned && stats.scanned != n - SGI_SCAN_PREFIX)
            fail_msg("%s: %zu heaps scanned of %zu", cases[c].code,
                     stats.scanned, n - SGI_SCAN_PREFIX);
        if (stats.scanned) {
            /* more than two threads: the sparse method's helpers instead */
            sg_seq_clear(&t);
            sg_seq_init(&t);
            opt.threads = 3;
            assert_int_equal(sgi_enumerate_sparse(&t, &r, n, SGI_SPARSE_AUTO,
                                                  &stats, &opt, &err),
                             SG_OK);
            assert_int_equal(stats.scanned, 0);
        }
        for (size_t i = 0; i < n; i++)
            if (sg_seq_get(&s, i) != sg_seq_get(&t, i))
                fail_msg("%s: G(%zu) = %u by sg_enumerate, %u by the sparse "
                         "method",
                         cases[c].code, i, (unsigned)sg_seq_get(&t, i),
                         (unsigned)sg_seq_get(&s, i));
        sg_seq_clear(&s);
        sg_seq_clear(&t);
        sg_rule_clear(&r);
    }
}

/* A set cancel flag stops the scan with a correct prefix and says so. */
static void test_cancel(void **state)
{
    static ref_rule ref;
    volatile sig_atomic_t stop = 1;
    const size_t n = 2000;
    uint32_t *want = malloc(n * sizeof *want);
    sg_enum_options opt;
    sg_error err;
    sg_rule r;
    sg_seq s;

    (void)state;
    assert_non_null(want);
    assert_int_equal(ref_rule_from_code(&ref, "0.1633"), 0);
    ref_values(want, n, &ref);
    parse_or_fail(&r, SG_SYNTAX_RULE, "0.1633");
    memset(&opt, 0, sizeof opt);
    opt.cancel = &stop;
    sg_seq_init(&s);
    for (size_t i = 0; i < 300; i++)
        assert_int_equal(sg_seq_append(&s, want[i], &err), SG_OK);
    assert_int_equal(sgi_enumerate_scan(&s, &r, n, 0, 0, &opt, &err),
                     SG_E_INTERRUPTED);
    assert_true(s.n >= 300 && s.n < n);
    for (size_t i = 0; i < s.n; i++)
        assert_int_equal(sg_seq_get(&s, i), want[i]);
    sg_seq_clear(&s);
    sg_rule_clear(&r);
    free(want);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random_octal),
        cmocka_unit_test(test_random_unequal),
        cmocka_unit_test(test_wide_values),
        cmocka_unit_test(test_handover),
        cmocka_unit_test(test_cancel),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
