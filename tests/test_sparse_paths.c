/*
 * test_sparse_paths.c - unit tests of the sparse method's fast paths,
 * each against the portable code, the naive method or the tests'
 * reference, with the statistics saying that the path really ran: the
 * small path's blocks (AVX2, AVX-512) and its wide form (values of
 * 64..127), its chosen pairs (from heap 0 and from a stored prefix), its
 * first heaps; this thread's group marks by remainder, the byte tables
 * and the first pairs' sets; step 3's scatter phase; the helper thread
 * with every way of sharing the work.  Helpers shared with test_sparse.c
 * and test_sparse_parity.c are in sparse_check.h.
 */
#define _DEFAULT_SOURCE
#include "reference.h"
#include "sparse_check.h"

#include <stdlib.h>
#include <string.h>

/* The small path's blocks (avx2_block_shuf: step 1 for 32 heaps at
 * once; avx512_block_body where the CPU has AVX-512 and VBMI) against the
 * portable heap-by-heap loop, far past the last rare heap where the
 * blocks run, on games with few rare heaps; 0.56 and 0.354 in the wide
 * form (values of 64..127). */
static void test_small_blocks(void **state)
{
    static const char *codes[] = {"0.167", "0.1777", "0.77", "0.16",
                                  "0.56",  "0.106",  "0.354"};
    static const char *how[] = {"the widest vectors", "AVX2"};
    sgi_test_switches sw[3] = {{0}};
    sg_enum_options opt[3] = {
        {.test = &sw[0]}, {.test = &sw[1]}, {.test = &sw[2]}};

    (void)state;
    sw[1].no_avx512 = 1;
    sw[2].no_simd = 1;
    for (size_t i = 0; i < sizeof codes / sizeof codes[0]; i++) {
        const size_t n = 300000;
        sg_rule r;
        sg_seq a[3];
        sg_error err;

        parse_or_fail(&r, SG_SYNTAX_RULE, codes[i]);
        for (size_t k = 0; k < 3; k++) {
            sg_seq_init(&a[k]);
            if (sgi_enumerate_sparse(&a[k], &r, n, SGI_SPARSE_AUTO, NULL,
                                     &opt[k], &err) != SG_OK)
                fail_msg("%s: %s", codes[i], err.msg);
        }
        for (size_t k = 0; k < 2; k++)
            for (size_t h = 0; h < n; h++)
                if (sg_seq_get(&a[k], h) != sg_seq_get(&a[2], h))
                    fail_msg("%s: G(%zu) = %u with %s, %u without", codes[i], h,
                             (unsigned)sg_seq_get(&a[k], h), how[k],
                             (unsigned)sg_seq_get(&a[2], h));
        for (size_t k = 0; k < 3; k++)
            sg_seq_clear(&a[k]);
        sg_rule_clear(&r);
    }
}

/*
 * Values of 64..127 on the small path (small_run's wide form) against the
 * stamps (no_wide), the portable code and the AVX2 code, on games whose values pass 63
 * long after their last rare heap; and against the naive method, under
 * the automatic mask and masks one bit off it, whose rare heaps keep
 * coming while the small path runs, so that heaps of the stamps follow
 * small_run's in the middle of a group of LANES.
 */
static void test_wide_small(void **state)
{
    static const struct {
        const char *code;
        size_t n, naive_n;
    } games[] = {{"0.56", 100000, 30000},  {"0.354", 100000, 20000},
                 {"0.644", 100000, 20000}, {"0.4144", 100000, 25000},
                 {"0.174", 100000, 0},     {"0.4512", 200000, 0},
                 {"0.015", 200000, 0}};
    sgi_test_switches sw[4] = {{0}};
    sg_enum_options opts[4] = {
        {.test = &sw[0]}, {.test = &sw[1]}, {.test = &sw[2]}, {.test = &sw[3]}};

    (void)state;
    sw[1].no_wide = 1;
    sw[2].no_simd = 1;
    sw[3].no_avx512 = 1; /* (AVX2 on a CPU that has AVX-512) */
    for (size_t i = 0; i < sizeof games / sizeof games[0]; i++) {
        const size_t n = tu_scaled(games[i].n);
        sg_rule r;
        sgi_sparse_stats stats;
        sg_value max;
        uint32_t *want = auto_values(&r, games[i].code, n, &stats, &max);

        if (n == games[i].n && max < 64)
            fail_msg("%s: largest value %u, below the wide path", games[i].code,
                     (unsigned)max);
        for (size_t k = 1; k < 4; k++)
            sparse_check_opt(&opts[k], &r, n, SGI_SPARSE_AUTO, 1, want,
                             games[i].code);
        if (games[i].naive_n) {
            /* Scaled too: the naive method is quadratic, and tens of
             * thousands of heaps take half a minute under the sanitizers. */
            const size_t nn = tu_scaled(games[i].naive_n);
            uint32_t *naive = naive_values(&r, nn);
            sparse_check(&r, nn, SGI_SPARSE_AUTO, 1, naive, games[i].code);
            for (unsigned b = 0; b < 4; b++) {
                long long m = (long long)(stats.mask ^ (1u << b));
                sparse_check_opt(&opts[2 * (b % 2)], &r, nn, m, 1, naive,
                                 games[i].code);
            }
            free(naive);
        }
        free(want);
        sg_rule_clear(&r);
    }
}

/*
 * The small path's chosen pairs (extra_build): the games that choose
 * some must give the values of a run without them, of the portable code
 * and of the AVX2 code (checked against the naive method above), over
 * heaps where the choice was made again (from heap 32,768 on, at each
 * doubling) and,
 * for 0.354, in the wide form; 0.1777's first 36,000 also against the
 * naive method itself.
 */
static void test_chosen_pairs(void **state)
{
    static const struct {
        const char *code;
        size_t n, naive_n;
    } games[] = {{"0.167", 200000, 0},
                 {"0.1777", 200000, 36000},
                 {"0.16", 150000, 0},
                 {"0.354", 150000, 0},
                 {"0.77", 100000, 0},
                 /* no rare heap, no one-heap move: no terms but chosen
                  * ones (their table was once never allocated) */
                 {"0.554", 200000, 0}};
    sgi_test_switches sw[3] = {{0}};
    sg_enum_options opts[3] = {
        {.test = &sw[0]}, {.test = &sw[1]}, {.test = &sw[2]}};

    (void)state;
    sw[0].no_extra = 1;
    sw[1].no_simd = 1;
    sw[2].no_avx512 = 1;
    for (size_t i = 0; i < sizeof games / sizeof games[0]; i++) {
        const size_t n = tu_scaled(games[i].n);
        sg_rule r;
        sgi_sparse_stats stats;
        sg_value max;
        uint32_t *want = auto_values(&r, games[i].code, n, &stats, &max);

        /* (the three games whose step 1 leaves the most, and 0.554:
         * pairs chosen) */
        if (cpu_avx2() && n == games[i].n && (i < 3 || i == 5) &&
            stats.pairs_chosen == 0)
            fail_msg("%s: no pairs chosen", games[i].code);
        for (size_t k = 0; k < 3; k++)
            sparse_check_opt(&opts[k], &r, n, SGI_SPARSE_AUTO, 1, want,
                             games[i].code);
        if (games[i].naive_n) {
            /* Scaled too: the naive method is quadratic, and tens of
             * thousands of heaps take half a minute under the sanitizers. */
            const size_t nn = tu_scaled(games[i].naive_n);
            uint32_t *naive = naive_values(&r, nn);
            for (size_t h = 0; h < nn; h++)
                if (naive[h] != want[h])
                    fail_msg("%s: G(%zu) = %u, naive %u", games[i].code, h,
                             (unsigned)want[h], (unsigned)naive[h]);
            free(naive);
        }
        free(want);
        sg_rule_clear(&r);
    }
}

/*
 * The chosen pairs of a run that starts from a stored prefix, as each
 * round of sg_analyse does: 0.354's first choice there, at heap 65,536,
 * once took 128 pairs that found nothing (candidates of values 64 or more
 * counted nothing, and taking off what a choice found wrapped their count
 * round to the largest), so step 3 ran at every heap of the round.  The
 * pairs must leave step 3 to a small share of the heaps (7 % here),
 * as a run without them does not (all of them), and the values stay
 * those of one run from heap 0.
 */
static void test_chosen_pairs_resumed(void **state)
{
    const size_t n0 = 65536, n = 2 * 65536 + 4096;
    sgi_test_switches none_sw = {0};
    sg_enum_options none = {.test = &none_sw};
    sg_rule r;
    sgi_sparse_stats stats, plain;
    sg_value max;
    uint32_t *want;
    sg_seq s;
    sg_error err;

    (void)state;
    if (!cpu_avx2())
        skip();
    want = auto_values(&r, "0.354", n, &stats, &max);
    none_sw.no_extra = 1;
    for (int k = 0; k < 2; k++) {
        sgi_sparse_stats *st = k ? &plain : &stats;
        sg_seq_init(&s);
        assert_int_equal(
            sgi_enumerate_sparse(&s, &r, n0, SGI_SPARSE_AUTO, NULL, NULL, &err),
            SG_OK);
        memset(st, 0, sizeof *st);
        assert_int_equal(sgi_enumerate_sparse(&s, &r, n, SGI_SPARSE_AUTO, st,
                                              k ? &none : NULL, &err),
                         SG_OK);
        check_values(&s, want, n, "0.354 resumed", -1);
        sg_seq_clear(&s);
    }
    if (stats.pairs_chosen == 0 || stats.searches > (n - n0) / 4)
        fail_msg("0.354 from heap %zu: %zu pairs chosen, step 3 at %zu of "
                 "%zu heaps",
                 n0, stats.pairs_chosen, stats.searches, n - n0);
    if (plain.searches < (n - n0) / 2)
        fail_msg("0.354 from heap %zu without chosen pairs: step 3 at only "
                 "%zu of %zu heaps (the test no longer tells)",
                 n0, plain.searches, n - n0);
    free(want);
    sg_rule_clear(&r);
}

/* small_run from its first heaps (a forced mask under which the rules
 * below have no rare heap for a while): before the first block of 32
 * heaps, every term is taken heap by heap (once the terms of offsets
 * 8..31 were left out there, found by test_random_unequal). */
static void test_small_start(void **state)
{
    static const char *codes[] = {"0.145235", "0.54134", "4.7435!35!13",
                                  "4.16!1066!", "0.55011130715735"};

    (void)state;
    for (size_t i = 0; i < sizeof codes / sizeof codes[0]; i++) {
        const size_t n = 400;
        sg_rule r;
        uint32_t *naive;

        parse_or_fail(&r, SG_SYNTAX_RULE, codes[i]);
        naive = naive_values(&r, n);
        sparse_check(&r, n, 0xFFFFFFFFll, 1, naive, codes[i]);
        sparse_check(&r, n, 4294967687ll, 1, naive, codes[i]);
        free(naive);
        sg_rule_clear(&r);
    }
}

/*
 * This thread's group marks by remainder (REM_TAIL_MAX), and step 3's
 * scatter tables shared by remainder (REM_SLOTS_MAX; codes without `!`):
 * codes with split digits a few apart (0.764: 1-3; 4!.764: 0-3 with a
 * `!` at 0; 0.6064!: 1, 3, 4 with a `!` at 4; 0.564!: `!` at 3; 0.7064:
 * 1, 3, 4; 0.244: 2, 3; 0.44!4: 1-3 with a `!` at 2), with values past
 * 1,024 (size 2,048 and more) or below 256 (0.444, size 512), against
 * the brute force of tests/reference.c, in one-, two- and four-byte
 * values, with and without AVX2, by remainder and (no_grem) by heap; the
 * runs by remainder must really have marked most groups that way, and
 * with one-byte values and AVX2 from the byte tables of TAB_HEAPS (R
 * growing and the mask re-chosen between super-groups on the way); and
 * with the helper thread, whose superblocks come between this thread's.
 */
static void test_rem_marks(void **state)
{
    static const char *codes[] = {"0.764", "4!.764", "0.6064!", "0.564!",
                                  "0.444", "0.7064", "0.244",   "0.44!4"};
    sgi_test_switches plain_sw = {0}, scalar_sw = {0}, heap_sw = {0};
    sgi_test_switches helper_sw = {0};
    const sgi_test_switches *sws[] = {&plain_sw, &scalar_sw, &heap_sw,
                                      &helper_sw};
    /* A quarter of it (the sanitizer suite) still groups marks by
     * remainder in some 400 heaps of each code, where 109 are asked. */
    const size_t n = tu_scaled_at_least(14000, 3500);

    (void)state;
    plain_sw.no_threads = scalar_sw.no_threads = heap_sw.no_threads = 1;
    scalar_sw.no_simd = 1;
    heap_sw.no_grem = 1;
    for (size_t i = 0; i < sizeof codes / sizeof codes[0]; i++) {
        sg_rule r;
        ref_rule rr;
        uint32_t *want = malloc(n * sizeof *want);

        assert_non_null(want);
        assert_int_equal(ref_rule_from_code(&rr, codes[i]), 0);
        ref_values(want, n, &rr);
        parse_or_fail(&r, SG_SYNTAX_RULE, codes[i]);
        for (unsigned width = 1; width <= 4; width *= 2) {
            for (size_t o = 0; o < sizeof sws / sizeof sws[0]; o++) {
                sg_enum_options opt = {.test = sws[o]};
                sgi_sparse_stats stats;

                sparse_check_stats(&opt, &r, n, SGI_SPARSE_AUTO, width, want,
                                   codes[i], &stats);
                if (sws[o] == &helper_sw)
                    continue; /* (the helper thread takes superblocks) */
                if (sws[o]->no_grem ? stats.rem_groups != 0
                                    : stats.rem_groups < n / 8 / 4)
                    fail_msg("%s (width %u, options %zu): %zu groups by "
                             "remainder in %zu heaps",
                             codes[i], width, o, stats.rem_groups, n);
                /* byte tables: one-byte values with AVX2 only, and
                 * every group of 0.444 (values below 256) after the
                 * first super-groups */
                if (width == 1 && o == 0 && cpu_avx2()
                        ? stats.tab_groups == 0 ||
                              (strcmp(codes[i], "0.444") == 0 &&
                               stats.tab_groups + 64 < stats.rem_groups)
                        : stats.tab_groups != 0)
                    fail_msg("%s (width %u, options %zu): %zu of %zu groups "
                             "from byte tables",
                             codes[i], width, o, stats.tab_groups,
                             stats.rem_groups);
                /* and step 3 from the first pairs' sets (PRE_PAIRS) */
                if (width == 1 && o == 0 && cpu_avx2()
                        ? stats.pre_sweeps == 0 ||
                              (strcmp(codes[i], "0.444") == 0 &&
                               stats.pre_sweeps < n / 2)
                        : stats.pre_sweeps != 0)
                    fail_msg("%s (width %u, options %zu): %zu heaps from the "
                             "first pairs' sets",
                             codes[i], width, o, stats.pre_sweeps);
            }
        }
        free(want);
        sg_rule_clear(&r);
    }
}

/* Step 3's scatter phase (SCATTER_NEED): 0.764, whose heaps want hundreds
 * of rare values from early on, in two- and four-byte values, with and
 * without AVX2 and the helper thread, and with this thread's group marks
 * on bit sets (GBITS_MAX_SIZE) or stamps, against naive; the runs
 * without the helper thread must really have scattered. */
static void test_scatter_phase(void **state)
{
    static const char *codes[] = {"0.764"};
    sgi_test_switches scalar_sw = {0}, single_sw = {0}, stamp_sw = {0};
    sg_enum_options scalar = {.test = &scalar_sw};
    sg_enum_options single = {.test = &single_sw};
    sg_enum_options stamps = {.test = &stamp_sw};
    const sg_enum_options *opts[] = {NULL, &scalar, &single, &stamps};
    /* The scatter phases begin near heap 2,300: at 3,000 heaps 85 are
     * run where 75 are asked, at 6,000 (SG_TEST_MULT 0.5 or less, the
     * sanitizer suite) 904 where 150 are. */
    const size_t n = tu_scaled_at_least(12000, 6000);

    (void)state;
    scalar_sw.no_simd = 1;
    single_sw.no_threads = 1;
    stamp_sw.no_threads = 1;
    stamp_sw.no_gbits = 1;
    for (size_t i = 0; i < sizeof codes / sizeof codes[0]; i++) {
        sg_rule r;
        uint32_t *want;

        parse_or_fail(&r, SG_SYNTAX_RULE, codes[i]);
        want = naive_values(&r, n);
        for (unsigned width = 2; width <= 4; width += 2) {
            for (size_t o = 0; o < sizeof opts / sizeof opts[0]; o++) {
                sgi_sparse_stats stats;

                sparse_check_stats(opts[o], &r, n, SGI_SPARSE_AUTO, width, want,
                                   codes[i], &stats);
                /* counted on the runs without the helper thread: with
                 * it, how many heaps reach step 3 on this thread depends
                 * on the load (one run of make -j2 check counted fewer) */
                if (o >= 2 && stats.scatters < n / 40)
                    fail_msg("%s (width %u, options %zu): %zu scatter "
                             "phases in %zu heaps",
                             codes[i], width, o, stats.scatters, n);
            }
        }
        free(want);
        sg_rule_clear(&r);
    }
}

/* The helper thread on every superblock, with each way of sharing the
 * work between the threads: all far rares left to the main thread, some,
 * none, and many extra pairs marked by the helper; one- and two-byte
 * values, with and without AVX2.  Long enough for hundreds of
 * superblocks past the point where the helper starts. */
static void test_helper_shares(void **state)
{
    /* many rare values and values past 127; 0.74 and 0.64 also widen
     * to two bytes on the way */
    static const char *codes[] = {"4!.0", "0.6",  "4.7!", "0.74",
                                  "0.64", "0.6!", "0.36"};
    static const long balances[] = {-1000000, -40, 0, 700};
    const size_t n = tu_scaled(12000);

    (void)state;
    for (size_t i = 0; i < sizeof codes / sizeof codes[0]; i++) {
        sg_rule r;
        uint32_t *want;

        parse_or_fail(&r, SG_SYNTAX_RULE, codes[i]);
        want = naive_values(&r, n);
        for (size_t b = 0; b < sizeof balances / sizeof balances[0]; b++) {
            sgi_test_switches pinned_sw = {0};
            sg_enum_options pinned = {.test = &pinned_sw};
            pinned_sw.pin_helper = 1;
            pinned_sw.pin_balance = balances[b];
            sparse_check_opt(&pinned, &r, n, SGI_SPARSE_AUTO, 1, want,
                             codes[i]);
            sparse_check_opt(&pinned, &r, n, SGI_SPARSE_AUTO, 2, want,
                             codes[i]);
            pinned_sw.no_simd = 1;
            sparse_check_opt(&pinned, &r, n, SGI_SPARSE_AUTO, 1, want,
                             codes[i]);
            /* a parity mask: the lists swap every heap while the helper
             * marks (dropped again for 4.7!, whose splits are at 0, 1) */
            pinned_sw.no_simd = b % 2;
            sparse_check_opt(
                &pinned, &r, n,
                (b < 2 ? 0x1ee : 0xfe) |
                    (b % 2 ? SGI_SPARSE_PARITY : SGI_SPARSE_PARITY_INV),
                1, want, codes[i]);
        }
        free(want);
        sg_rule_clear(&r);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_scatter_phase),
        cmocka_unit_test(test_rem_marks),
        cmocka_unit_test(test_small_blocks),
        cmocka_unit_test(test_wide_small),
        cmocka_unit_test(test_chosen_pairs),
        cmocka_unit_test(test_chosen_pairs_resumed),
        cmocka_unit_test(test_small_start),
        cmocka_unit_test(test_helper_shares),
    };

    tu_base_seed();
    return cmocka_run_group_tests(tests, NULL, NULL);
}
