/*
 * test_threads.c - unit tests of --threads (sg_enum_options.threads) in
 * the sparse method: for T = 1..8 threads, on any machine (these run on
 * two cores), full runs and deep runs, the latter saved and resumed at
 * random points with another T each time, must give exactly the values
 * and checksum of the one-thread run (itself checked against the naive
 * method on a prefix).  The helpers are put on every superblock (the
 * pin_helper switch) with several shares of the work, so that T - 1 of
 * them really mark each superblock together, and also left to the
 * timed trials as in a real run.  SG_LONG_TESTS=1 runs every share
 * with every T (about four times as long).  Kayles, Officers, Grundy's game, 0.106
 * and 0.1777: the helpers' path, the small path and a parity space.
 */
#define _DEFAULT_SOURCE
#include "testutil.h"

#include <string.h>

#include "sgexplore.h"
#include "enum/sparse/sparse.h"

#define TMAX 8

static const char *const games[] = {"0.77", "0.6", "4!.0", "0.106", "0.1777"};
/* heaps per game: the helpers start past 64 rare heaps (Officers, Grundy)
 * and the small path takes the others */
static const size_t full_n[] = {20000, 12000, 12000, 40000, 40000};
/* the games whose runs take the helpers' path, and their pinned runs'
 * length (more with SG_LONG_TESTS=1) */
static const int helped[] = {0, 1, 1, 0, 0};
#define PINNED_N 8000
/* the shares of the work between this thread and the helpers (see
 * BALANCE_STEP): far rare heaps left to this thread, none, extra pairs */
static const long balances[] = {-40, 0, 700};

/* SG_LONG_TESTS=1: the whole matrix. */
static int long_tests(void)
{
    const char *e = getenv("SG_LONG_TESTS");

    return e && *e && strcmp(e, "0") != 0;
}

/* G(0..n-1) of rule r by the sparse method with `threads` threads and the
 * switches sw (NULL: none). */
static void run_full(sg_seq *s, const sg_rule *r, size_t n, unsigned threads,
                     const sgi_test_switches *sw, const char *what)
{
    sg_enum_options o = {0};
    sg_error err;

    memset(&err, 0, sizeof err);
    o.threads = threads;
    o.test = sw;
    sg_seq_init(s);
    if (sgi_enumerate_sparse(s, r, n, SGI_SPARSE_AUTO, NULL, &o, &err) !=
            SG_OK ||
        s->n != n)
        fail_msg("%s, %u threads: %s", what, threads, err.msg);
}

/* s and ref hold the same n values and checksum. */
static void same_values(const sg_seq *s, const sg_seq *ref, size_t n,
                        const char *what, unsigned threads)
{
    for (size_t i = 0; i < n; i++)
        if (sg_seq_get(s, i) != sg_seq_get(ref, i))
            fail_msg("%s, %u threads: G(%zu) = %u, one thread says %u", what,
                     threads, i, (unsigned)sg_seq_get(s, i),
                     (unsigned)sg_seq_get(ref, i));
    if (sg_checksum(s, n) != sg_checksum(ref, n))
        fail_msg("%s, %u threads: checksum differs", what, threads);
}

/* Full runs: T = 1..8, pinned with each share and left to the trials,
 * against the one-thread run, which agrees with the naive method on its
 * first values. */
static void test_full_runs(void **state)
{
    (void)state;
    for (size_t g = 0; g < sizeof games / sizeof games[0]; g++) {
        const size_t n = tu_scaled(full_n[g]), nn = n < 3000 ? n : 3000;
        sg_rule r;
        sg_seq ref, naive;
        sg_error err;

        parse_or_fail(&r, SG_SYNTAX_RULE, games[g]);
        run_full(&ref, &r, n, 1, NULL, games[g]);
        sg_seq_init(&naive);
        assert_int_equal(sg_enumerate_naive(&naive, &r, nn, NULL, &err), SG_OK);
        same_values(&naive, &ref, nn, games[g], 1);
        for (unsigned t = 1; t <= TMAX; t++) {
            sg_seq s;
            run_full(&s, &r, n, t, NULL, games[g]);
            same_values(&s, &ref, n, games[g], t);
            sg_seq_clear(&s);
            for (size_t b = 0; helped[g] && t > 1 && b < 3; b++) {
                /* the helpers on every superblock (each share with
                 * SG_LONG_TESTS=1, else one per T in turn) */
                sgi_test_switches sw = {0};
                size_t pn = long_tests() ? n : tu_scaled(PINNED_N);
                if (!long_tests() && b != t % 3)
                    continue;
                sw.pin_helper = 1;
                sw.pin_balance = balances[b];
                sw.no_simd = (t + b) % 3 == 0;
                run_full(&s, &r, pn, t, &sw, games[g]);
                same_values(&s, &ref, pn, games[g], t);
                sg_seq_clear(&s);
            }
        }
        sg_seq_clear(&naive);
        sg_seq_clear(&ref);
        sg_rule_clear(&r);
    }
}

/*
 * A deep run of rule r to n heaps (window w) in random steps, each step
 * with a random T and the helpers pinned or not; with `resume`, saved and
 * loaded after each step.  Its stop (if any), checksum, kept values and R
 * must be the one-thread deep run's, *ref.
 */
static void deep_check(const sg_rule *r, size_t n, size_t w, int resume,
                       sg_deep *ref, sg_status ref_st, tu_rng *g,
                       const char *what)
{
    sg_deep d;
    sg_error err;
    sg_status st = SG_OK;
    size_t at = 0;

    memset(&err, 0, sizeof err);
    sg_deep_init(&d, w);
    while (at < n && st == SG_OK) {
        sgi_test_switches sw = {0};
        sg_enum_options o = {0};
        o.threads = (unsigned)tu_range(g, 1, TMAX);
        sw.pin_helper = tu_chance(g, 3);
        sw.pin_balance = balances[tu_range(g, 0, 2)];
        o.test = &sw;
        at += 1 + tu_range(g, 0, n / 3 - 1);
        at = at > n ? n : at;
        st = sg_deep_extend(&d, r, at, &o, &err);
        if (resume && st == SG_OK)
            tu_deep_round_trip(&d, r);
    }
    if (st != ref_st)
        fail_msg("%s deep: status %d, one thread %d (%s)", what, (int)st,
                 (int)ref_st, err.msg);
    assert_int_equal(d.seq.n, ref->seq.n);
    if (sg_deep_checksum(&d) != sg_deep_checksum(ref))
        fail_msg("%s deep: checksum differs from one thread's", what);
    for (size_t i = 0; i < d.seq.n; i++)
        if (sg_seq_kept(&d.seq, i) &&
            sg_seq_at(&d.seq, i) != sg_seq_at(&ref->seq, i))
            fail_msg("%s deep: kept G(%zu) differs", what, i);
    assert_int_equal(d.nrare, ref->nrare);
    assert_memory_equal(d.rpos, ref->rpos, d.nrare * sizeof *d.rpos);
    assert_int_equal(d.mask, ref->mask);
    sg_deep_clear(&d);
}

/* Deep runs whose window moves many times, with and without resumed
 * checkpoints, against the one-thread deep run and the full run. */
static void test_deep_runs(void **state)
{
    /* windows wide enough for the game not to stop (Officers needs
     * 46,122 values), and 3.2 windows of heaps (the window moves past
     * 3); Grundy's game needs 170,584 and stops at heap 49,408 in
     * 16,384, just after the window moved on (SG_LONG_TESTS=1: 98,304,
     * where it does not stop) */
    static const size_t windows[] = {16384, 49152, 16384, 16384, 16384};
    tu_rng g;

    (void)state;
    tu_rng_init(&g, 2601);
    for (size_t k = 0; k < sizeof games / sizeof games[0]; k++) {
        const size_t w = k == 2 && long_tests() ? 98304 : windows[k];
        const size_t n = w * 16 / 5;
        sg_enum_options one = {0};
        sg_rule r;
        sg_deep ref;
        sg_seq full;
        sg_error err;
        sg_status st;

        parse_or_fail(&r, SG_SYNTAX_RULE, games[k]);
        one.threads = 1;
        sg_deep_init(&ref, w);
        st = sg_deep_extend(&ref, &r, n, &one, &err);
        if (st != SG_OK && st != SG_E_UNKNOWN)
            fail_msg("%s deep, one thread: %s", games[k], err.msg);
        if (st == SG_OK && !ref.frozen)
            fail_msg("%s: the window never moved", games[k]);
        run_full(&full, &r, ref.seq.n, 1, NULL, games[k]);
        if (sg_deep_checksum(&ref) != sg_checksum(&full, ref.seq.n))
            fail_msg("%s deep, one thread: checksum differs from the full "
                     "run's",
                     games[k]);
        if (long_tests())
            deep_check(&r, n, w, 0, &ref, st, &g, games[k]);
        deep_check(&r, n, w, 1, &ref, st, &g, games[k]);
        sg_seq_clear(&full);
        sg_deep_clear(&ref);
        sg_rule_clear(&r);
    }
}

/* The default (0: the cores available) and counts past the maximum. */
static void test_counts(void **state)
{
    unsigned d = sg_threads_default();
    sg_rule r;
    sg_seq ref, s;

    (void)state;
    assert_true(d >= 1 && d <= SG_THREADS_DEFAULT_MAX);
    parse_or_fail(&r, SG_SYNTAX_RULE, "4!.0");
    run_full(&ref, &r, 8000, 1, NULL, "4!.0");
    run_full(&s, &r, 8000, 0, NULL, "4!.0");
    same_values(&s, &ref, 8000, "4!.0", 0);
    sg_seq_clear(&s);
    run_full(&s, &r, 8000, 1000, NULL, "4!.0");
    same_values(&s, &ref, 8000, "4!.0", 1000);
    sg_seq_clear(&s);
    sg_seq_clear(&ref);
    sg_rule_clear(&r);
}

int main(void)
{
    const char *only = getenv("SG_TEST_ONLY");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_counts),
        cmocka_unit_test(test_full_runs),
        cmocka_unit_test(test_deep_runs),
    };

    if (only && *only)
        cmocka_set_test_filter(only); /* one test alone, for timing */
    printf("# seed %llu\n", TU_SEED);
    return cmocka_run_group_tests(tests, NULL, NULL);
}
