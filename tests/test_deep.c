/*
 * test_deep.c - unit tests of deep runs (sg_deep, src/lib/enum/deep_run.c): a run
 * whose values leave memory must end with exactly the values, checksum,
 * rare heaps and largest value of the ordinary enumeration, also when it
 * is saved and loaded at random points on the way (a resumed checkpoint);
 * a run that cannot decide a heap must stop there with every earlier value
 * right; a damaged checkpoint must be refused, never crash.
 */
#define _DEFAULT_SOURCE
#include "testutil.h"

#include <string.h>

#include "sgexplore.h"

/* Whether heap h of value v is rare under the run's sparse space (the
 * header of sparse/enum_sparse.c, restated). */
static int rare_under(const sg_deep *d, sg_value v, size_t h)
{
    return !(__builtin_parity(v & d->mask) ^
             (d->parity & (int)((h ^ (size_t)d->pshift) & 1)));
}

/*
 * Run rule `code` deep to n values with the given window, in random
 * steps, saving and loading at each step when `resume`; compare with the
 * ordinary enumeration.  Returns 1 when the deep run reached n, 0 when it
 * stopped (checked to be honest: every value before the stop right).
 */
static int deep_vs_full(const char *code, size_t n, size_t window, int resume,
                        tu_rng *g)
{
    sg_rule r;
    sg_seq full;
    sg_deep d;
    sg_error err;
    sg_status st = SG_OK;
    size_t at = 0, i, first_max = 0, nr = 0;
    sg_value mx = 0;

    parse_or_fail(&r, SG_SYNTAX_RULE, code);
    sg_seq_init(&full);
    memset(&err, 0, sizeof err);
    if (sg_enumerate(&full, &r, n, NULL, &err) != SG_OK)
        fail_msg("%s: %s", code, err.msg);
    sg_deep_init(&d, window);
    while (at < n && st == SG_OK) {
        at += 1 + tu_range(g, 0, (n / 3) - 1);
        if (at > n)
            at = n;
        st = sg_deep_extend(&d, &r, at, NULL, &err);
        if (resume && st == SG_OK)
            tu_deep_round_trip(&d, &r);
    }
    if (st != SG_OK && st != SG_E_UNKNOWN)
        fail_msg("%s: deep run failed: %s", code, err.msg);
    if (st == SG_E_UNKNOWN)
        print_message("# %s: %s\n", code, err.msg);
    if (st == SG_E_UNKNOWN) {
        char want[64];
        snprintf(want, sizeof want, "stopped at heap %zu:", d.seq.n);
        if (!strstr(err.msg, want))
            fail_msg("%s: stop message '%s' names another heap than %zu", code,
                     err.msg, d.seq.n);
    }
    n = d.seq.n; /* from here on: the values it vouches for */
    if (sg_deep_checksum(&d) != sg_checksum(&full, n))
        fail_msg("%s: checksum of G(0..%zu) differs from the full run's", code,
                 n - 1);
    for (i = 0; i < n; i++) {
        sg_value v = sg_seq_get(&full, i);
        if (sg_seq_kept(&d.seq, i) && sg_seq_at(&d.seq, i) != v)
            fail_msg("%s: kept G(%zu) = %u, full run says %u", code, i,
                     (unsigned)sg_seq_at(&d.seq, i), (unsigned)v);
        if (v > mx || i == 0) {
            mx = v;
            first_max = i;
        }
        if (i > 0 && rare_under(&d, v, i)) {
            if (nr >= d.nrare || d.rpos[nr] != i || d.rval[nr] != v)
                fail_msg("%s: rare heap %zu (value %u) missing from R", code, i,
                         (unsigned)v);
            nr++;
        }
    }
    assert_int_equal(nr, d.nrare);
    if (n) {
        assert_int_equal(d.seq.max, mx);
        assert_int_equal(d.max_heap, first_max);
    }
    /* the window must really have moved for the test to mean anything */
    if (n > 4 * window && !d.frozen)
        fail_msg("%s: %zu values with a window of %zu never left memory", code,
                 n, window);
    if (d.frozen)
        assert_true(d.seq.off > 0 && d.seq.keep == d.window);
    sg_deep_clear(&d);
    sg_seq_clear(&full);
    sg_rule_clear(&r);
    return st == SG_OK;
}

/* Published games with few rare heaps, each well past its window. */
static void test_known_games(void **state)
{
    tu_rng g;
    (void)state;

    tu_rng_init(&g, 1);
    assert_true(deep_vs_full("0.77", 200000, SG_DEEP_MIN_WINDOW, 0, &g));
    assert_true(deep_vs_full("0.77", 200000, SG_DEEP_MIN_WINDOW, 1, &g));
    assert_true(deep_vs_full("0.167", 200000, SG_DEEP_MIN_WINDOW, 1, &g));
    assert_true(deep_vs_full("0.1777", 200000, SG_DEEP_MIN_WINDOW, 1, &g));
    assert_true(deep_vs_full("0.16", 200000, (size_t)1 << 15, 1, &g));
    /* a parity-extended sparse space (THEORY.md section 12) */
    assert_true(deep_vs_full("0.106", 200000, SG_DEEP_MIN_WINDOW, 1, &g));
    /* values of 64..127 after the freeze: the small path's two-word sets
     * (0.4512 reaches 124) */
    assert_true(deep_vs_full("0.354", 200000, SG_DEEP_MIN_WINDOW, 1, &g));
    assert_true(deep_vs_full("0.4512", 250000, SG_DEEP_MIN_WINDOW, 1, &g));
    /* many rare heaps, the last at 20627, and two-byte values */
    assert_true(deep_vs_full("0.6", 400000, (size_t)1 << 16, 1, &g));
    /* after the freeze its largest value reaches 32, which the frozen
     * mask must make common (deep_mask_top): without that the run stops
     * at heap 137,016 */
    assert_true(deep_vs_full("0.54!", 300000, SG_DEEP_MIN_WINDOW, 1, &g));
    /* one-byte values (largest 196) whose marks go by remainder on byte
     * tables (TAB_HEAPS), the last rare heap at 84,341: runs stopped and
     * resumed inside super-groups, the window moving under them */
    assert_true(deep_vs_full("0.444", 600000, (size_t)1 << 17, 1, &g));
    /* `!`: Grundy's game keeps its rare heaps coming; a stop is fine, as
     * long as it is honest (checked inside) */
    (void)deep_vs_full("4!.0", 150000, SG_DEEP_MIN_WINDOW, 1, &g);
}

/* sg_deep_applicable, the public test the CLI's --deep makes: the rules
 * of the sparse method (a split, no three-heap move, no tail) and no
 * others; sg_deep_extend refuses the others as bad input. */
static void test_applicable(void **state)
{
    static const struct {
        const char *rule;
        int deep;
    } cases[] = {{"0.77", 1},  {"4!.0", 1},  {"0.6", 1},
                 {"0.54!", 1}, {"0.07", 1},  {"0.3", 0},
                 {"4.8", 0},   {"0.[3]", 0}, {"subtract{1,2}", 0}};
    size_t i;
    (void)state;

    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        sg_rule r;
        sg_deep d;
        sg_error err;
        parse_or_fail(&r, SG_SYNTAX_RULE, cases[i].rule);
        assert_int_equal(sg_deep_applicable(&r), cases[i].deep);
        sg_deep_init(&d, SG_DEEP_MIN_WINDOW);
        assert_int_equal(sg_deep_extend(&d, &r, 100, NULL, &err),
                         cases[i].deep ? SG_OK : SG_E_INPUT);
        sg_deep_clear(&d);
        sg_rule_clear(&r);
    }
}

/* Officers with a window smaller than its rare heaps reach: the run must
 * stop (not go on with pairs it cannot see) and say how large a window
 * would do. */
static void test_window_too_small(void **state)
{
    sg_rule r;
    sg_deep d;
    sg_error err;
    (void)state;

    parse_or_fail(&r, SG_SYNTAX_RULE, "0.6");
    sg_deep_init(&d, SG_DEEP_MIN_WINDOW);
    memset(&err, 0, sizeof err);
    assert_int_equal(sg_deep_extend(&d, &r, 200000, NULL, &err), SG_E_UNKNOWN);
    assert_non_null(strstr(err.msg, "too small"));
    assert_non_null(strstr(err.msg, "--window"));
    assert_false(d.frozen);
    sg_deep_clear(&d);
    sg_rule_clear(&r);
}

/* Random two-heap octal codes, some with `!`: every run either reaches
 * the end with the full run's values or stops honestly. */
static void test_random_rules(void **state)
{
    tu_rng g;
    int i, reached = 0, cases = (int)tu_scaled(16);
    (void)state;

    tu_rng_init(&g, 2);
    for (i = 0; i < cases; i++) {
        char code[16];
        int len = 1 + (int)tu_range(&g, 0, (4) - 1), j, p = 0;
        p += snprintf(code + p, sizeof code - (size_t)p, "0.");
        for (j = 0; j < len; j++)
            code[p++] = (char)('0' + tu_range(&g, 0, (8) - 1));
        code[p++] = (char)('4' + tu_range(&g, 0, (4) - 1)); /* a split digit */
        if (tu_range(&g, 0, (4) - 1) == 0)
            code[p++] = '!';
        code[p] = '\0';
        reached += deep_vs_full(code, 56000, SG_DEEP_MIN_WINDOW,
                                (int)tu_range(&g, 0, (2) - 1), &g);
    }
    /* most such games settle into few rare heaps early */
    print_message("# %d of %d random deep runs reached the end\n", reached,
                  cases);
    if (reached < cases / 6)
        fail_msg("only %d of %d random deep runs reached the end", reached,
                 cases);
}

/* Every truncation and many single-byte changes of a checkpoint: load
 * refuses it (SG_E_IO) or, when the change is in a value it cannot tell
 * from a real one, the run goes on without crashing. */
static void test_damaged_blob(void **state)
{
    sg_rule r, other;
    sg_deep d, e;
    sg_error err;
    void *blob;
    size_t len, i;
    unsigned char *b;
    (void)state;

    parse_or_fail(&r, SG_SYNTAX_RULE, "0.167");
    parse_or_fail(&other, SG_SYNTAX_RULE, "0.77");
    sg_deep_init(&d, SG_DEEP_MIN_WINDOW);
    memset(&err, 0, sizeof err);
    assert_int_equal(sg_deep_extend(&d, &r, 100000, NULL, &err), SG_OK);
    assert_true(d.frozen);
    assert_int_equal(sg_deep_save(&d, &r, &blob, &len, &err), SG_OK);
    assert_int_equal(sg_deep_load(&e, &other, blob, len, &err), SG_E_IO);
    assert_non_null(strstr(err.msg, "another rule"));
    for (i = 0; i < len; i += i < 4096 ? 1 : 997)
        assert_int_equal(sg_deep_load(&e, &r, blob, i, &err), SG_E_IO);
    b = malloc(len);
    assert_non_null(b);
    for (i = 0; i < len; i += i < 600 ? 1 : 4099) {
        sg_status st;
        memcpy(b, blob, len);
        b[i] ^= (unsigned char)(1u << (i % 8));
        st = sg_deep_load(&e, &r, b, len, &err);
        assert_true(st == SG_OK || st == SG_E_IO);
        if (st == SG_OK) {
            st = sg_deep_extend(&e, &r, e.seq.n + 3000, NULL, &err);
            assert_true(st == SG_OK || st == SG_E_UNKNOWN);
            sg_deep_clear(&e);
        }
    }
    free(b);
    free(blob);
    sg_deep_clear(&d);
    sg_rule_clear(&r);
    sg_rule_clear(&other);
}

int main(void)
{
    const char *only = getenv("SG_TEST_ONLY");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_known_games),
        cmocka_unit_test(test_applicable),
        cmocka_unit_test(test_window_too_small),
        cmocka_unit_test(test_random_rules),
        cmocka_unit_test(test_damaged_blob),
    };

    if (only && *only)
        cmocka_set_test_filter(only); /* one test alone, for timing */
    return cmocka_run_group_tests(tests, NULL, NULL);
}
