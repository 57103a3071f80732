/*
 * test_sparse.c - unit tests of the sparse-space enumerator
 * (sgi_enumerate_sparse) and the split-free "direct" method: values of
 * hundreds of random splitting rules, under the automatic mask, mask 0 and
 * random forced masks, with and without the AVX2 filter, at every stored
 * width, compared with the naive method and with the tests' independent
 * reference, with and without the helper thread; published periods from
 * data/known.tsv through sg_analyse; extension of a prefix, cancelling,
 * the progress hook and the method names; two runs in two threads at
 * once; the sparse space of a sequence against brute force.
 */
#define _DEFAULT_SOURCE
#include "reference.h"
#include "testutil.h"

#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "sgexplore.h"
#include "enum/sparse/sparse.h"

/* s must hold exactly n values equal to want[0..n-1], with s->max right. */
static void check_values(const sg_seq *s, const uint32_t *want, size_t n,
                         const char *what, long long mask)
{
    sg_value mx = 0;

    if (s->n != n) {
        fail_msg("%s (mask %lld): %zu values, expected %zu (seed %llu)", what,
                 mask, s->n, n, TU_SEED);
    }
    for (size_t i = 0; i < n; i++) {
        if (sg_seq_get(s, i) != want[i]) {
            fail_msg("%s (mask %lld): G(%zu) = %u, expected %u (seed %llu)",
                     what, mask, i, (unsigned)sg_seq_get(s, i),
                     (unsigned)want[i], TU_SEED);
        }
        if (want[i] > mx) {
            mx = want[i];
        }
    }
    if (n > 0 && s->max != mx) {
        fail_msg("%s (mask %lld): s->max = %u, largest value %u (seed %llu)",
                 what, mask, (unsigned)s->max, (unsigned)mx, TU_SEED);
    }
}

/* Whether every split digit (bit 4) of r sits at a position of one parity,
 * read from the terms here rather than asked of the library: then a
 * parity mask is used as given, otherwise it must be dropped. */
static int split_parity_uniform(const sg_rule *r)
{
    int par = -1;

    for (size_t i = 0; i < r->nterms; i++) {
        int k = (int)(r->terms[i].take % 2);
        if (!(r->terms[i].digit & 4))
            continue;
        if (par >= 0 && k != par)
            return 0;
        par = k;
    }
    return par >= 0 && r->tail_len == 0;
}

/* Sparse enumeration of r to n values (from a sequence pre-widened to
 * `width` bytes) with the given mask and options (NULL: the defaults),
 * checked against want; its statistics in *out when out is not NULL. */
static void sparse_check_stats(const sg_enum_options *opt, const sg_rule *r,
                               size_t n, long long mask, unsigned width,
                               const uint32_t *want, const char *what,
                               sgi_sparse_stats *out)
{
    sg_seq s;
    sg_error err;
    sgi_sparse_stats stats;
    sg_status st;

    sg_seq_init(&s);
    memset(&err, 0, sizeof err);
    if (width > 1) {
        assert_int_equal(sg_seq_widen(&s, width, &err), SG_OK);
    }
    st = sgi_enumerate_sparse(&s, r, n, (int64_t)mask, &stats, opt, &err);
    if (st != SG_OK) {
        fail_msg("%s (mask %lld): sgi_enumerate_sparse failed: %s (seed %llu)",
                 what, mask, err.msg, TU_SEED);
    }
    check_values(&s, want, n, what, mask);
    if (mask >= 0 && sgi_sparse_applicable(r) && stats.mask != (uint32_t)mask) {
        fail_msg("%s: forced mask %lld, stats say %u", what, mask,
                 (unsigned)stats.mask);
    }
    if (mask >= 0 && sgi_sparse_applicable(r)) {
        int par = (mask & SGI_SPARSE_PARITY) && split_parity_uniform(r);
        int inv =
            par && (mask & SGI_SPARSE_PARITY_INV) == SGI_SPARSE_PARITY_INV;
        if (stats.parity != par || stats.parity_shift != inv)
            fail_msg("%s: forced mask %llx, stats say parity %d shift %d", what,
                     mask, stats.parity, stats.parity_shift);
    }
    sg_seq_clear(&s);
    if (out)
        *out = stats;
}

/* The same without the statistics. */
static void sparse_check_opt(const sg_enum_options *opt, const sg_rule *r,
                             size_t n, long long mask, unsigned width,
                             const uint32_t *want, const char *what)
{
    sparse_check_stats(opt, r, n, mask, width, want, what, NULL);
}

/* The same with the default options. */
static void sparse_check(const sg_rule *r, size_t n, long long mask,
                         unsigned width, const uint32_t *want, const char *what)
{
    sparse_check_opt(NULL, r, n, mask, width, want, what);
}

/* Naive values of r, to n. */
static uint32_t *naive_values(const sg_rule *r, size_t n)
{
    uint32_t *v = malloc(n * sizeof *v + 1);
    sg_seq s;
    sg_error err;

    assert_non_null(v);
    sg_seq_init(&s);
    assert_int_equal(sg_enumerate_naive(&s, r, n, NULL, &err), SG_OK);
    assert_int_equal(s.n, n);
    for (size_t i = 0; i < n; i++) {
        v[i] = sg_seq_get(&s, i);
    }
    sg_seq_clear(&s);
    return v;
}

/* A mask for testing: 0, all ones, a single bit, or random bits; a third
 * of them with the heap's parity, h mod 2 or (h + 1) mod 2. */
static long long random_value_mask(tu_rng *g)
{
    switch (tu_range(g, 0, 5)) {
    case 0:
        return 0;
    case 1:
        return (long long)(tu_next(g) & 0xFFFFFFFFu);
    case 2:
        return 1LL << tu_range(g, 0, 9);
    case 3:
        return 0xFFFFFFFFLL;
    default:
        return (long long)tu_range(g, 1, 1023);
    }
}

static long long random_mask(tu_rng *g)
{
    long long m = random_value_mask(g);

    switch (tu_range(g, 0, 5)) {
    case 0:
        return m | SGI_SPARSE_PARITY;
    case 1:
        return m | SGI_SPARSE_PARITY_INV;
    default:
        return m;
    }
}

/* One random code: reference, naive and sparse under several masks and
 * widths must agree. */
static void check_random_code(tu_rng *g, const tu_code_opts *o, size_t n,
                              const sg_enum_options *opt)
{
    static ref_rule ref;
    char *text;
    uint32_t *want, *naive;
    sg_rule r;

    do {
        tu_random_code(&ref, g, o);
    } while (!(ref_bits(&ref) & 4));
    text = ref_rule_text(&ref);
    assert_non_null(text);
    want = malloc(n * sizeof *want);
    assert_non_null(want);
    ref_values(want, n, &ref);
    parse_or_fail(&r, SG_SYNTAX_RULE, text);
    naive = naive_values(&r, n);
    for (size_t i = 0; i < n; i++) {
        if (naive[i] != want[i]) {
            fail_msg("%s: naive G(%zu) = %u, reference %u (seed %llu)", text, i,
                     (unsigned)naive[i], (unsigned)want[i], TU_SEED);
        }
    }
    sparse_check_opt(opt, &r, n, SGI_SPARSE_AUTO, 1, want, text);
    sparse_check_opt(opt, &r, n, 0, 1, want, text);
    sparse_check_opt(opt, &r, n, random_mask(g), 1, want, text);
    sparse_check_opt(opt, &r, n, random_mask(g), tu_chance(g, 2) ? 2 : 4, want,
                     text);
    sparse_check_opt(opt, &r, n, SGI_SPARSE_AUTO, tu_chance(g, 2) ? 2 : 4, want,
                     text);
    sg_rule_clear(&r);
    free(naive);
    free(want);
    free(text);
}

static void random_codes(uint64_t salt, const tu_code_opts *o, size_t count,
                         size_t n, const sg_enum_options *opt)
{
    tu_rng g;

    tu_rng_init(&g, salt);
    for (size_t i = 0; i < count; i++) {
        check_random_code(&g, o, n, opt);
    }
}

/* Octal codes with split digits and digits before the point. */
static void test_random_octal(void **state)
{
    tu_code_opts o = {7, 1, 6, 1, 0, 0};

    (void)state;
    random_codes(501, &o, tu_scaled(150), 400, NULL);
    o.ndig_min = 5;
    o.ndig_max = 14;
    random_codes(502, &o, tu_scaled(40), 700, NULL);
}

/* `!` codes (Grundy-like): the pair of equal halves must be left out. */
static void test_random_unequal(void **state)
{
    tu_code_opts o = {7, 1, 6, 1, 1, 0};

    (void)state;
    random_codes(503, &o, tu_scaled(150), 400, NULL);
}

/* Hex digits without bit 8 (4, 5, 6, 7, C..F minus 8) are two-heap rules
 * too; with bit 8 the sparse entry point must fall back and stay right. */
static void test_random_hex(void **state)
{
    tu_code_opts o = {15, 1, 4, 1, 1, 0};

    (void)state;
    random_codes(504, &o, tu_scaled(40), 120, NULL);
}

/* Without the AVX2 filter (the portable path), the same answers. */
static void test_random_scalar(void **state)
{
    tu_code_opts o = {7, 1, 8, 1, 1, 0};
    sgi_test_switches scalar_sw = {0};
    sg_enum_options scalar = {.test = &scalar_sw};

    (void)state;
    scalar_sw.no_simd = 1;
    random_codes(505, &o, tu_scaled(60), 500, &scalar);
}

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

/* G(0..n-1) of the game `code` (parsed into *r) by the sparse method's
 * defaults, with its stats and largest value. */
static uint32_t *auto_values(sg_rule *r, const char *code, size_t n,
                             sgi_sparse_stats *stats, sg_value *max)
{
    sg_seq a;
    sg_error err;
    uint32_t *want;

    parse_or_fail(r, SG_SYNTAX_RULE, code);
    sg_seq_init(&a);
    if (sgi_enumerate_sparse(&a, r, n, SGI_SPARSE_AUTO, stats, NULL, &err) !=
        SG_OK)
        fail_msg("%s: %s", code, err.msg);
    want = malloc(n * sizeof *want);
    assert_non_null(want);
    for (size_t h = 0; h < n; h++)
        want[h] = sg_seq_get(&a, h);
    *max = a.max;
    sg_seq_clear(&a);
    return want;
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

/* Whether this CPU takes the sparse method's AVX2 paths. */
static int cpu_avx2(void)
{
#if defined(__x86_64__) && defined(__GNUC__)
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("bmi2");
#else
    return 0;
#endif
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

/* Longer runs of well-known games, all masks agreeing with naive. */
static void test_fixed_rules(void **state)
{
    static const char *codes[] = {"4!.0",     "0.6",    "0.77", "0.07",
                                  "0.16",     "0.1777", "4.07", "0.54!",
                                  "0.777777", "4.7!",   "0.4",  "0.356"};
    sgi_test_switches scalar_sw = {0}, single_sw = {0}, stamp_sw = {0};
    sg_enum_options scalar = {.test = &scalar_sw};
    sg_enum_options single = {.test = &single_sw};
    sg_enum_options stamps = {.test = &stamp_sw};
    tu_rng g;

    (void)state;
    scalar_sw.no_simd = 1;
    single_sw.no_threads = 1;
    stamp_sw.no_threads = 1;
    stamp_sw.no_gbits = 1;
    tu_rng_init(&g, 506);
    for (size_t i = 0; i < sizeof codes / sizeof codes[0]; i++) {
        const size_t n = 3000;
        sg_rule r;
        uint32_t *want;

        parse_or_fail(&r, SG_SYNTAX_RULE, codes[i]);
        want = naive_values(&r, n);
        sparse_check(&r, n, SGI_SPARSE_AUTO, 1, want, codes[i]);
        sparse_check(&r, n, random_mask(&g), 1, want, codes[i]);
        sparse_check(&r, n, SGI_SPARSE_AUTO, 2, want, codes[i]);
        sparse_check(&r, n, SGI_SPARSE_AUTO, 4, want, codes[i]);
        sparse_check_opt(&scalar, &r, n, SGI_SPARSE_AUTO, 1, want, codes[i]);
        sparse_check_opt(&scalar, &r, n, SGI_SPARSE_AUTO, 2, want, codes[i]);
        /* Without the helper thread (which rules with many rare values,
         * and mask 0, use by default). */
        sparse_check_opt(&single, &r, n, SGI_SPARSE_AUTO, 1, want, codes[i]);
        sparse_check_opt(&single, &r, n, 0, 1, want, codes[i]);
        /* this thread's group marks on the stamps, not bit sets */
        sparse_check_opt(&stamps, &r, n, SGI_SPARSE_AUTO, 1, want, codes[i]);
        sparse_check_opt(&stamps, &r, n, SGI_SPARSE_AUTO, 2, want, codes[i]);
        sparse_check_opt(&stamps, &r, n, 0, 4, want, codes[i]);
        free(want);
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

/* A rule whose values pass 255, so that the sequence widens while the
 * sparse method runs (and the two-byte filter sees real values). */
static void test_widening(void **state)
{
    static ref_rule ref;
    const size_t n = 1500;
    uint32_t *want = malloc(n * sizeof *want);
    char code[64];
    sgi_test_switches scalar_sw = {0};
    sg_enum_options scalar = {.test = &scalar_sw};
    sg_rule r;

    (void)state;
    scalar_sw.no_simd = 1;
    assert_non_null(want);
    /* 0.7777...: removing 1..40 tokens and splitting the rest. */
    strcpy(code, "0.");
    for (int i = 0; i < 40; i++) {
        strcat(code, "7");
    }
    assert_int_equal(ref_rule_from_code(&ref, code), 0);
    ref_values(want, n, &ref);
    assert_true(want[n - 1] >= 256);
    parse_or_fail(&r, SG_SYNTAX_RULE, code);
    sparse_check(&r, n, SGI_SPARSE_AUTO, 1, want, code);
    sparse_check(&r, n, 0x55, 1, want, code);
    sparse_check_opt(&scalar, &r, n, SGI_SPARSE_AUTO, 1, want, code);
    sg_rule_clear(&r);
    free(want);
}

/* Extending a prefix in random steps (the rare list is rebuilt from the
 * stored values each time), through sg_enumerate and forced masks. */
static void test_extension(void **state)
{
    static const char *codes[] = {"4!.0", "0.6", "0.77", "0.54!", "4.07"};
    tu_rng g;

    (void)state;
    tu_rng_init(&g, 507);
    for (size_t i = 0; i < sizeof codes / sizeof codes[0]; i++) {
        const size_t n = 2000;
        sg_rule r;
        uint32_t *want;
        sg_seq s;
        sg_error err;
        size_t at = 0;
        long long mask = tu_chance(&g, 2) ? SGI_SPARSE_AUTO : random_mask(&g);

        parse_or_fail(&r, SG_SYNTAX_RULE, codes[i]);
        want = naive_values(&r, n);
        sg_seq_init(&s);
        while (at < n) {
            size_t step = tu_chance(&g, 3) ? 1 : (size_t)tu_range(&g, 0, 400);
            at = at + step > n ? n : at + step;
            if (tu_chance(&g, 2)) {
                assert_int_equal(sg_enumerate(&s, &r, at, NULL, &err), SG_OK);
            } else {
                assert_int_equal(
                    sgi_enumerate_sparse(&s, &r, at, mask, NULL, NULL, &err),
                    SG_OK);
            }
            check_values(&s, want, at, codes[i], mask);
        }
        sg_seq_clear(&s);
        free(want);
        sg_rule_clear(&r);
    }
}

/* Kayles from the literature: the first values and the period. */
static void test_kayles(void **state)
{
    static const uint32_t kayles[] = {0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6,
                                      4, 1, 2, 7, 1, 4, 3, 2, 1, 4, 6, 7};
    static const uint32_t period[] = {4, 1, 2, 8, 1, 4, 7, 2, 1, 8, 2, 7};
    const size_t n = 100000;
    sg_rule r;
    sg_seq s;
    sg_error err;

    (void)state;
    parse_or_fail(&r, SG_SYNTAX_OCTAL, "0.77");
    sg_seq_init(&s);
    assert_int_equal(
        sgi_enumerate_sparse(&s, &r, n, SGI_SPARSE_AUTO, NULL, NULL, &err),
        SG_OK);
    for (size_t i = 0; i < 24; i++) {
        assert_int_equal(sg_seq_get(&s, i), kayles[i]);
    }
    /* Period 12 from n = 71 (G(70) = 6 is the last exception), far out. */
    for (size_t i = 72; i < n; i++) {
        if (sg_seq_get(&s, i) != period[i % 12]) {
            fail_msg("Kayles: G(%zu) = %u, period says %u", i,
                     (unsigned)sg_seq_get(&s, i), (unsigned)period[i % 12]);
        }
    }
    assert_int_equal(sg_seq_get(&s, 70), 6);
    assert_int_equal(sg_seq_get(&s, 70 + 12), 2);
    sg_seq_clear(&s);
    sg_rule_clear(&r);
}

/* Every octal row of data/known.tsv that sg_analyse can reach quickly:
 * the published period and pre-period, and the values against the naive
 * method as far as it is cheap. */
static void test_known_table(void **state)
{
    const char *dir = getenv("abs_top_srcdir");
    char path[4096], line[4096];
    FILE *f;
    int rows = 0;

    (void)state;
    if (dir == NULL) {
        dir = getenv("top_srcdir");
    }
    snprintf(path, sizeof path, "%s/data/known.tsv", dir ? dir : ".");
    f = fopen(path, "r");
    if (f == NULL) {
        skip();
    }
    while (fgets(line, sizeof line, f)) {
        char rule[256], family[32], status[32];
        unsigned long long p, n0, need;
        sg_rule r;
        sg_seq s;
        sg_result res;
        sg_error err;

        if (sscanf(line,
                   "%255[^\t]\t%31[^\t]\t%31[^\t]\t%llu\t%llu\t%*[^\t]\t"
                   "%*[^\t]\t%llu",
                   rule, family, status, &p, &n0, &need) != 6) {
            continue;
        }
        if (strcmp(status, "periodic") != 0 || need > 1000000) {
            continue;
        }
        parse_or_fail(&r, SG_SYNTAX_RULE, rule);
        if (!sgi_sparse_applicable(&r)) {
            sg_rule_clear(&r);
            continue;
        }
        sg_seq_init(&s);
        memset(&err, 0, sizeof err);
        assert_int_equal(sg_analyse(&res, &s, &r, 2 * need + 1024, NULL, &err),
                         SG_OK);
        if (res.status != SG_PERIODIC || res.period != p ||
            res.preperiod != n0) {
            fail_msg("%s: analysed status %d p %llu n0 %llu, published p %llu "
                     "n0 %llu",
                     rule, (int)res.status, (unsigned long long)res.period,
                     (unsigned long long)res.preperiod, p, n0);
        }
        if (s.n > 0) {
            size_t m = s.n < 4000 ? s.n : 4000;
            uint32_t *want = naive_values(&r, m);
            for (size_t i = 0; i < m; i++) {
                if (sg_seq_get(&s, i) != want[i]) {
                    fail_msg("%s: G(%zu) = %u, naive %u", rule, i,
                             (unsigned)sg_seq_get(&s, i), (unsigned)want[i]);
                }
            }
            free(want);
        }
        rows++;
        sg_seq_clear(&s);
        sg_rule_clear(&r);
    }
    fclose(f);
    assert_true(rows >= 10);
}

/* Split-free finite rules go through the direct method: long subtraction
 * sets and codes with bit-1 digits, against the reference. */
static void test_direct(void **state)
{
    tu_rng g;
    uint64_t set[24];
    char text[24 * 24];
    const size_t n = 5000;
    uint32_t *want = malloc(n * sizeof *want);
    static ref_rule ref;
    tu_code_opts o = {3, 1, 12, 0, 0, 0};

    (void)state;
    assert_non_null(want);
    tu_rng_init(&g, 508);
    for (size_t i = 0; i < tu_scaled(40); i++) {
        size_t m = tu_random_set(set, &g, 20, tu_chance(&g, 2) ? 3000 : 60);
        sg_rule r;
        sg_seq s;
        sg_error err;

        tu_set_text(text, &g, set, m);
        ref_subtract_values(want, n, set, m);
        parse_or_fail(&r, SG_SYNTAX_SUBTRACT, text);
        assert_string_equal(sg_enumerate_method(&r), "direct");
        sg_seq_init(&s);
        if (tu_chance(&g, 3)) {
            assert_int_equal(sg_seq_widen(&s, 2, &err), SG_OK);
        }
        assert_int_equal(sg_enumerate(&s, &r, n / 3, NULL, &err), SG_OK);
        assert_int_equal(sg_enumerate(&s, &r, n, NULL, &err), SG_OK);
        check_values(&s, want, n, text, -1);
        sg_seq_clear(&s);
        sg_rule_clear(&r);
    }
    for (size_t i = 0; i < tu_scaled(60); i++) {
        char *code;
        sg_rule r;
        sg_seq s;
        sg_error err;

        tu_random_code(&ref, &g, &o);
        code = ref_rule_text(&ref);
        assert_non_null(code);
        ref_values(want, 600, &ref);
        parse_or_fail(&r, SG_SYNTAX_RULE, code);
        sg_seq_init(&s);
        assert_int_equal(sg_enumerate(&s, &r, 600, NULL, &err), SG_OK);
        check_values(&s, want, 600, code, -1);
        sg_seq_clear(&s);
        sg_rule_clear(&r);
        free(code);
    }
    free(want);
}

static void test_methods_and_stats(void **state)
{
    sg_rule r;
    sg_seq s;
    sg_error err;
    sgi_sparse_stats st;

    (void)state;
    parse_or_fail(&r, SG_SYNTAX_RULE, "4!.0");
    assert_true(sgi_sparse_applicable(&r));
    assert_string_equal(sg_enumerate_method(&r), "sparse");
    /* Mask 0: every value is rare, every heap needs the whole scan. */
    sg_seq_init(&s);
    assert_int_equal(sgi_enumerate_sparse(&s, &r, 500, 0, &st, NULL, &err),
                     SG_OK);
    assert_int_equal(st.mask, 0);
    assert_int_equal(st.rare, 499);
    assert_int_equal(st.repicks, 0);
    sg_seq_clear(&s);
    /* The automatic mask leaves Grundy's game with few rare heaps. */
    sg_seq_init(&s);
    assert_int_equal(
        sgi_enumerate_sparse(&s, &r, 20000, SGI_SPARSE_AUTO, &st, NULL, &err),
        SG_OK);
    assert_true(st.mask != 0);
    assert_true(st.rare < 20000 / 10);
    sg_seq_clear(&s);
    sg_rule_clear(&r);

    parse_or_fail(&r, SG_SYNTAX_RULE, "0.[7]");
    assert_false(sgi_sparse_applicable(&r));
    assert_string_equal(sg_enumerate_method(&r), "naive");
    sg_rule_clear(&r);
    parse_or_fail(&r, SG_SYNTAX_RULE, "0.8F");
    assert_false(sgi_sparse_applicable(&r));
    assert_string_equal(sg_enumerate_method(&r), "three-heap");
    sg_rule_clear(&r);
    parse_or_fail(&r, SG_SYNTAX_RULE, "0.8!F");
    assert_string_equal(sg_enumerate_method(&r), "naive");
    sg_rule_clear(&r);
    parse_or_fail(&r, SG_SYNTAX_SUBTRACT, "997,1999,2996");
    assert_false(sgi_sparse_applicable(&r));
    assert_string_equal(sg_enumerate_method(&r), "direct");
    sg_rule_clear(&r);
}

/* A raised cancel flag stops the run with a correct prefix, which can be
 * extended afterwards. */
static void test_cancel(void **state)
{
    volatile sig_atomic_t flag = 1;
    sg_enum_options opt = {0};
    const size_t n = 5000;
    uint32_t *want;
    sg_rule r;
    sg_seq s;
    sg_error err;

    (void)state;
    opt.cancel = &flag;
    parse_or_fail(&r, SG_SYNTAX_RULE, "4!.0");
    want = naive_values(&r, n);
    sg_seq_init(&s);
    assert_int_equal(
        sgi_enumerate_sparse(&s, &r, 1000, SGI_SPARSE_AUTO, NULL, NULL, &err),
        SG_OK);
    assert_int_equal(
        sgi_enumerate_sparse(&s, &r, n, SGI_SPARSE_AUTO, NULL, &opt, &err),
        SG_E_INTERRUPTED);
    assert_true(s.n >= 1000 && s.n < n);
    check_values(&s, want, s.n, "4!.0 cancelled", -1);
    flag = 0;
    assert_int_equal(
        sgi_enumerate_sparse(&s, &r, n, SGI_SPARSE_AUTO, NULL, &opt, &err),
        SG_OK);
    check_values(&s, want, n, "4!.0 resumed", -1);
    sg_seq_clear(&s);
    sg_rule_clear(&r);
    free(want);
}

static size_t progress_calls, progress_last, progress_target;

static void on_progress(void *ctx, size_t done, size_t target, size_t rare)
{
    (void)rare;
    *(int *)ctx = 1;
    progress_calls++;
    progress_last = done;
    progress_target = target;
}

/* The progress hook is called during a run, with sensible numbers, and
 * not by a run whose options have none. */
static void test_progress(void **state)
{
    int seen = 0;
    sg_enum_options opt = {0};
    sg_rule r;
    sg_seq s;
    sg_error err;

    (void)state;
    parse_or_fail(&r, SG_SYNTAX_RULE, "0.77");
    opt.progress = on_progress;
    opt.progress_ctx = &seen;
    sg_seq_init(&s);
    assert_int_equal(sg_enumerate(&s, &r, 50000, &opt, &err), SG_OK);
    assert_true(seen);
    assert_true(progress_calls >= 10);
    assert_true(progress_last < 50000);
    assert_int_equal(progress_target, 50000);
    progress_calls = 0;
    assert_int_equal(sg_enumerate(&s, &r, 100000, NULL, &err), SG_OK);
    assert_int_equal(progress_calls, 0);
    sg_seq_clear(&s);
    sg_rule_clear(&r);
}

/* ------------------------------------------------------------------ */
/* Two runs in two threads                                              */
/* ------------------------------------------------------------------ */

/* One thread's run: its rule, its options (with its own progress
 * counter), its values. */
typedef struct thread_run {
    const char *code;
    size_t n;
    sg_enum_options opt;
    sgi_test_switches sw; /* what opt.test points at */
    size_t calls, last_target;
    sg_status st;
    sg_seq s;
    sg_error err;
} thread_run;

static void on_thread_progress(void *ctx, size_t done, size_t target,
                               size_t rare)
{
    thread_run *t = ctx;

    (void)done;
    (void)rare;
    t->calls++;
    t->last_target = target;
}

static void *thread_main(void *arg)
{
    thread_run *t = arg;
    sg_rule r;
    sg_result res;

    sg_rule_init(&r);
    if (sg_rule_parse(&r, SG_SYNTAX_RULE, t->code, &t->err) != SG_OK) {
        t->st = SG_E_INPUT;
        return NULL;
    }
    /* Half through sg_enumerate, the rest through sg_analyse, which
     * extends the same sequence (its budget is exactly n). */
    t->st = sg_enumerate(&t->s, &r, t->n / 2, &t->opt, &t->err);
    if (t->st == SG_OK)
        t->st = sg_analyse(&res, &t->s, &r, t->n, &t->opt, &t->err);
    sg_rule_clear(&r);
    return NULL;
}

/* Two rules enumerated at once in two threads of this process, each with
 * its own options (one without AVX2, one with the helper pinned on), both
 * right against the reference and each hook called for its own run only.
 * Grundy's game and Officers have many rare values, so each run also
 * starts its own helper thread. */
static void test_two_threads(void **state)
{
    static const char *codes[2] = {"4!.0", "0.6"};
    static ref_rule ref;
    const size_t n[2] = {tu_scaled(20000), tu_scaled(16000)};
    thread_run t[2];
    pthread_t th[2];
    int k;

    (void)state;
    for (k = 0; k < 2; k++) {
        memset(&t[k], 0, sizeof t[k]);
        t[k].code = codes[k];
        t[k].n = n[k];
        t[k].opt.progress = on_thread_progress;
        t[k].opt.progress_ctx = &t[k];
        t[k].opt.test = &t[k].sw;
        sg_seq_init(&t[k].s);
    }
    t[0].sw.no_simd = 1;
    t[1].sw.pin_helper = 1;
    t[1].sw.pin_balance = -40;
    for (k = 0; k < 2; k++)
        assert_int_equal(pthread_create(&th[k], NULL, thread_main, &t[k]), 0);
    for (k = 0; k < 2; k++)
        assert_int_equal(pthread_join(th[k], NULL), 0);
    for (k = 0; k < 2; k++) {
        uint32_t *want = malloc(n[k] * sizeof *want);

        assert_non_null(want);
        if (t[k].st != SG_OK)
            fail_msg("%s in a thread: %s", codes[k], t[k].err.msg);
        assert_int_equal(ref_rule_from_code(&ref, codes[k]), 0);
        ref_values(want, n[k], &ref);
        check_values(&t[k].s, want, n[k], codes[k], -1);
        assert_true(t[k].calls >= 2);
        assert_int_equal(t[k].last_target, n[k]);
        sg_seq_clear(&t[k].s);
        free(want);
    }
}

/* ------------------------------------------------------------------ */
/* Sparse spaces with the heap's parity                                 */
/* ------------------------------------------------------------------ */

/* Whether the split digits of a reference rule sit at positions of one
 * parity (so that parity masks are used, not dropped). */
static int ref_split_uniform(const ref_rule *ref)
{
    int par = -1;

    for (size_t k = 0; k < ref->len; k++) {
        if (!(ref->digit[k] & 4))
            continue;
        if (par >= 0 && (int)(k % 2) != par)
            return 0;
        par = (int)(k % 2);
    }
    return par >= 0;
}

/* Random rules whose split positions share a parity, so that parity
 * masks are really used: the automatic choice and forced parity masks of
 * both offsets, at every width, with the default options, without AVX2,
 * without the helper thread and with it pinned on, against the reference
 * values.  Forced parity masks that leave many heaps rare put the helper
 * to work on heaps of both parities. */
static void test_random_parity(void **state)
{
    static ref_rule ref;
    tu_code_opts o = {7, 1, 7, 1, 1, 0};
    const size_t count = tu_scaled(120), n = 700;
    size_t used = 0;
    tu_rng g;

    (void)state;
    tu_rng_init(&g, 511);
    for (size_t c = 0; c < count; c++) {
        sgi_test_switches sw[4] = {{0}};
        sg_enum_options opts[4] = {{.test = &sw[0]},
                                   {.test = &sw[1]},
                                   {.test = &sw[2]},
                                   {.test = &sw[3]}};
        uint32_t *want = malloc(n * sizeof *want);
        char *text;
        sg_rule r;
        sg_seq s;
        sgi_sparse_stats st;
        sg_error err;

        assert_non_null(want);
        do {
            tu_random_code(&ref, &g, &o);
        } while (!(ref_bits(&ref) & 4) || !ref_split_uniform(&ref));
        text = ref_rule_text(&ref);
        assert_non_null(text);
        ref_values(want, n, &ref);
        parse_or_fail(&r, SG_SYNTAX_RULE, text);
        assert_true(split_parity_uniform(&r));
        sw[1].no_simd = 1;
        sw[2].no_threads = 1;
        sw[3].pin_helper = 1;
        sw[3].pin_balance = tu_chance(&g, 2) ? -40 : 300;
        for (int k = 0; k < 4; k++) {
            long long m = random_value_mask(&g);
            sparse_check_opt(&opts[k], &r, n, SGI_SPARSE_AUTO, 1, want, text);
            sparse_check_opt(&opts[k], &r, n, m | SGI_SPARSE_PARITY, 1, want,
                             text);
            sparse_check_opt(&opts[k], &r, n, m | SGI_SPARSE_PARITY_INV,
                             tu_chance(&g, 2) ? 2 : 4, want, text);
            sparse_check_opt(&opts[k], &r, n, m, 1, want, text);
        }
        sg_seq_init(&s);
        assert_int_equal(
            sgi_enumerate_sparse(&s, &r, n, SGI_SPARSE_AUTO, &st, NULL, &err),
            SG_OK);
        used += st.parity != 0;
        sg_seq_clear(&s);
        sg_rule_clear(&r);
        free(text);
        free(want);
    }
    /* the automatic choice takes the parity for some of them */
    if (count >= 60)
        assert_true(used > 0);
}

/* A re-pick that keeps the mask but changes the parity bit or offset
 * must drop the helper's premarks too: 0.16!35!04! to 700 values went
 * through such a re-pick and came out wrong at G(265) (49, not 57) before
 * the whole mode was compared.  Checked against the reference with every
 * way of sharing the work. */
static void test_repick_mode(void **state)
{
    static ref_rule ref;
    const char *text = "0.16!35!04!";
    const size_t n = 700;
    uint32_t *want = malloc(n * sizeof *want);
    sgi_test_switches sw[5] = {{0}};
    sg_enum_options opts[5] = {{.test = &sw[0]},
                               {.test = &sw[1]},
                               {.test = &sw[2]},
                               {.test = &sw[3]},
                               {.test = &sw[4]}};
    sg_rule r;
    int k;

    (void)state;
    assert_non_null(want);
    assert_int_equal(ref_rule_from_code(&ref, text), 0);
    ref_values(want, n, &ref);
    parse_or_fail(&r, SG_SYNTAX_RULE, text);
    sw[1].no_simd = 1;
    sw[2].no_threads = 1;
    sw[3].pin_helper = 1;
    sw[3].pin_balance = -40;
    sw[4].pin_helper = 1;
    sw[4].pin_balance = 300;
    for (k = 0; k < 5; k++)
        sparse_check_opt(&opts[k], &r, n, SGI_SPARSE_AUTO, 1, want, text);
    sg_rule_clear(&r);
    free(want);
}

/* Games whose sparse space needs the parity (docs/BENCHMARKS.md's sweep):
 * the automatic mask is a parity mask, the values agree with the
 * reference, and 0.106 has the space the peers report (mask 13 over
 * (G(h), (h + 1) mod 2): 15 rare heaps, the last 1103).  Rules with split
 * positions of both parities drop a forced parity mask and stay right. */
static void test_parity_games(void **state)
{
    static const char *codes[] = {"0.106", "0.104", "0.205", "0.524"};
    static const char *mixed[] = {"0.77", "4.4", "0.1777"};
    static ref_rule ref;
    const size_t n = tu_scaled(8000);
    sgi_test_switches scalar_sw = {0}, single_sw = {0}, pinned_sw = {0};
    sg_enum_options scalar = {.test = &scalar_sw};
    sg_enum_options single = {.test = &single_sw};
    sg_enum_options pinned = {.test = &pinned_sw};

    (void)state;
    scalar_sw.no_simd = 1;
    single_sw.no_threads = 1;
    pinned_sw.pin_helper = 1;
    pinned_sw.pin_balance = -40;
    for (size_t i = 0; i < sizeof codes / sizeof codes[0]; i++) {
        uint32_t *want = malloc(n * sizeof *want);
        sgi_sparse_stats st;
        sg_error err;
        sg_rule r;
        sg_seq s;

        assert_non_null(want);
        assert_int_equal(ref_rule_from_code(&ref, codes[i]), 0);
        ref_values(want, n, &ref);
        parse_or_fail(&r, SG_SYNTAX_RULE, codes[i]);
        sg_seq_init(&s);
        assert_int_equal(
            sgi_enumerate_sparse(&s, &r, n, SGI_SPARSE_AUTO, &st, NULL, &err),
            SG_OK);
        check_values(&s, want, n, codes[i], -1);
        if (!st.parity)
            fail_msg("%s: no parity mask chosen (mask %u, %zu rare)", codes[i],
                     (unsigned)st.mask, st.rare);
        if (i == 0 && n >= 2000 &&
            (st.mask != 13 || st.parity_shift != 1 || st.rare != 15))
            fail_msg("0.106: mask %u shift %d, %zu rare", (unsigned)st.mask,
                     st.parity_shift, st.rare);
        sg_seq_clear(&s);
        sparse_check_opt(&scalar, &r, n, SGI_SPARSE_AUTO, 2, want, codes[i]);
        sparse_check_opt(&single, &r, n, SGI_SPARSE_AUTO, 1, want, codes[i]);
        sparse_check_opt(&pinned, &r, n, SGI_SPARSE_AUTO, 1, want, codes[i]);
        /* the parity mask of the other offset, and the plain one */
        sparse_check_opt(
            &pinned, &r, n,
            (long long)st.mask |
                (st.parity_shift ? SGI_SPARSE_PARITY : SGI_SPARSE_PARITY_INV),
            1, want, codes[i]);
        sparse_check_opt(NULL, &r, n, (long long)st.mask, 1, want, codes[i]);
        sg_rule_clear(&r);
        free(want);
    }
    for (size_t i = 0; i < sizeof mixed / sizeof mixed[0]; i++) {
        const size_t m = 1500;
        uint32_t *want = malloc(m * sizeof *want);
        sg_rule r;

        assert_non_null(want);
        assert_int_equal(ref_rule_from_code(&ref, mixed[i]), 0);
        ref_values(want, m, &ref);
        parse_or_fail(&r, SG_SYNTAX_RULE, mixed[i]);
        assert_false(split_parity_uniform(&r));
        /* sparse_check_opt checks that the parity was dropped */
        sparse_check_opt(NULL, &r, m, 0x1b | SGI_SPARSE_PARITY, 1, want,
                         mixed[i]);
        sparse_check_opt(&single, &r, m, 6 | SGI_SPARSE_PARITY_INV, 2, want,
                         mixed[i]);
        sg_rule_clear(&r);
        free(want);
    }
}

/*
 * 0.106's parity mask on the small path's loop (small_run, with the sets
 * of common and rare values swapped at every other heap) and its chosen
 * pairs (picked from heaps of both parities): step 3 runs there
 * (searches), the values agree with the naive method and, to the end,
 * with the plain mask 13 (9,898 rare heaps: the stamps and the small
 * path without the parity), the portable code and no chosen pairs.
 */
static void test_parity_small_run(void **state)
{
    const size_t n = tu_scaled(140000), nn = tu_scaled(30000);
    sgi_test_switches sw[2] = {{0}};
    sg_enum_options opts[2] = {{.test = &sw[0]}, {.test = &sw[1]}};
    sgi_sparse_stats st;
    sg_value max;
    sg_rule r;
    uint32_t *want, *naive;

    (void)state;
    sw[0].no_extra = 1;
    sw[1].no_simd = 1;
    want = auto_values(&r, "0.106", n, &st, &max);
    if (!st.parity || st.mask != 13 || st.rare != 15)
        fail_msg("0.106: mask %u parity %d, %zu rare", (unsigned)st.mask,
                 st.parity, st.rare);
    if (st.searches == 0)
        fail_msg("0.106: the small path's loop never ran");
    if (cpu_avx2() && n == 140000 && st.pairs_chosen == 0)
        fail_msg("0.106: no pairs chosen");
    naive = naive_values(&r, nn);
    for (size_t h = 0; h < nn; h++)
        if (naive[h] != want[h])
            fail_msg("0.106: G(%zu) = %u, naive %u", h, (unsigned)want[h],
                     (unsigned)naive[h]);
    free(naive);
    sparse_check_opt(NULL, &r, n, 13, 1, want, "0.106 plain mask");
    for (size_t k = 0; k < 2; k++)
        sparse_check_opt(&opts[k], &r, n, SGI_SPARSE_AUTO, 1, want, "0.106");
    free(want);
    sg_rule_clear(&r);
}

/* Forced masks outside the convention are input errors, not crashes. */
static void test_bad_mask(void **state)
{
    static const int64_t bad[] = {-2, (int64_t)1 << 33, (int64_t)1 << 34,
                                  INT64_MIN, (int64_t)1 << 40 | 5};
    sg_rule r;
    sg_seq s;
    sg_error err;

    (void)state;
    parse_or_fail(&r, SG_SYNTAX_RULE, "0.106");
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        sg_seq_init(&s);
        assert_int_equal(
            sgi_enumerate_sparse(&s, &r, 100, bad[i], NULL, NULL, &err),
            SG_E_INPUT);
        assert_non_null(strstr(err.msg, "sparse mask"));
        sg_seq_clear(&s);
    }
    sg_rule_clear(&r);
}

/* ------------------------------------------------------------------ */
/* Sparse spaces from values                                            */
/* ------------------------------------------------------------------ */

/* Brute force: every mask below the first power of two above the values
 * of heaps 1..n-1, counting rare heaps one by one; the first mask with
 * the fewest. */
static void space_naive(sg_sparse_space *out, const uint32_t *v, size_t n)
{
    uint32_t top = 0, p = 1, m;
    size_t h;

    memset(out, 0, sizeof *out);
    for (h = 1; h < n; h++)
        if (v[h] > top)
            top = v[h];
    while (p <= top)
        p *= 2;
    for (m = 1; m < p; m++) {
        uint64_t c = 0, last = 0;
        for (h = 1; h < n; h++) {
            unsigned ones = 0;
            for (uint32_t x = v[h] & m; x; x >>= 1)
                ones += x & 1;
            if (ones % 2 == 0) {
                c++;
                last = h;
            }
        }
        if (out->mask == 0 || c < out->rare) {
            out->mask = m;
            out->rare = c;
            out->last_rare = last;
        }
    }
    if (out->mask == 0) {
        /* no mask to choose: everything counts as rare */
        out->rare = n > 1 ? n - 1 : 0;
        out->last_rare = n > 1 ? n - 1 : 0;
    }
    out->found = out->mask != 0 && n > 100 && out->rare <= (n - 1) / 10;
}

static void space_check(const uint32_t *v, size_t n, const char *what)
{
    sg_sparse_space got, want;
    sg_error err;
    sg_seq s;

    sg_seq_init(&s);
    for (size_t i = 0; i < n; i++)
        assert_int_equal(sg_seq_append(&s, v[i], &err), SG_OK);
    assert_int_equal(sg_sparse_space_find(&got, &s, n, &err), SG_OK);
    space_naive(&want, v, n);
    if (got.found != want.found || got.mask != want.mask ||
        got.rare != want.rare || got.last_rare != want.last_rare ||
        got.parity != 0)
        fail_msg("%s (n %zu): found %d mask %u rare %llu last %llu; brute "
                 "force %d %u %llu %llu (seed %llu)",
                 what, n, got.found, (unsigned)got.mask,
                 (unsigned long long)got.rare,
                 (unsigned long long)got.last_rare, want.found,
                 (unsigned)want.mask, (unsigned long long)want.rare,
                 (unsigned long long)want.last_rare, TU_SEED);
    sg_seq_clear(&s);
}

/* sg_sparse_space_find against brute force: planted rare classes of
 * random masks, uniform values, tiny sequences, and real games. */
static void test_sparse_space(void **state)
{
    static const char *codes[] = {"0.77", "4!.0", "0.6", "0.137", "0.07"};
    static ref_rule ref;
    size_t trials = tu_scaled(60);
    sg_sparse_space sp;
    sg_error err;
    sg_seq s;
    tu_rng g;

    (void)state;
    tu_rng_init(&g, 508);
    for (size_t t = 0; t < trials; t++) {
        unsigned bits = (unsigned)tu_range(&g, 1, 7);
        uint32_t plant = (uint32_t)tu_range(&g, 1, (1u << bits) - 1);
        size_t n = (size_t)tu_range(&g, 0, t % 4 ? 2500 : 120);
        unsigned share = (unsigned)tu_range(&g, 2, 40);
        uint32_t *v = malloc((n + 1) * sizeof *v);

        assert_non_null(v);
        for (size_t i = 0; i < n; i++) {
            int rare = tu_chance(&g, share);
            uint32_t x;
            if (t % 5 == 0) {
                v[i] = (uint32_t)tu_range(&g, 0, (1u << bits) - 1);
                continue;
            }
            do
                x = (uint32_t)tu_range(&g, 0, (1u << bits) - 1);
            while (!__builtin_parity(x & plant) == !rare);
            v[i] = x;
        }
        space_check(v, n, "random values");
        free(v);
    }
    for (size_t i = 0; i < sizeof codes / sizeof codes[0]; i++) {
        const size_t n = 3000;
        uint32_t *v = malloc(n * sizeof *v);

        assert_non_null(v);
        assert_int_equal(ref_rule_from_code(&ref, codes[i]), 0);
        ref_values(v, n, &ref);
        space_check(v, n, codes[i]);
        free(v);
    }
    /* The sparse enumerator resumed on G(0..n-1) picks the same mask, with
     * the heap's parity or not (one heap more, before any re-pick), and
     * counts the same rare heaps. */
    size_t same = 0;
    for (size_t i = 0; i < sizeof codes / sizeof codes[0]; i++) {
        const size_t n = 2000;
        sgi_sparse_stats stats;
        sg_rule r;
        uint32_t *v = malloc((n + 1) * sizeof *v);

        assert_non_null(v);
        assert_int_equal(ref_rule_from_code(&ref, codes[i]), 0);
        ref_values(v, n + 1, &ref);
        parse_or_fail(&r, SG_SYNTAX_RULE, codes[i]);
        sg_seq_init(&s);
        for (size_t j = 0; j < n; j++)
            assert_int_equal(sg_seq_append(&s, v[j], &err), SG_OK);
        assert_int_equal(sg_sparse_space_find_rule(&sp, &s, &r, n, &err),
                         SG_OK);
        assert_int_equal(sgi_enumerate_sparse(&s, &r, n + 1, SGI_SPARSE_AUTO,
                                              &stats, NULL, &err),
                         SG_OK);
        if (stats.repicks == 0) {
            int last =
                !(__builtin_parity(v[n] & sp.mask) ^
                  (sp.parity & (int)((n + (size_t)sp.parity_shift) & 1)));
            assert_int_equal(stats.mask, sp.mask);
            assert_int_equal(stats.parity, sp.parity);
            assert_int_equal(stats.parity_shift, sp.parity_shift);
            assert_int_equal(stats.rare, sp.rare + (size_t)last);
            same++;
        }
        sg_seq_clear(&s);
        sg_rule_clear(&r);
        free(v);
    }
    assert_true(same >= 3);
    /* Kayles: beyond the pre-period every value has odd weight under 15,
     * so the rare heaps all lie before n = 71. */
    assert_int_equal(ref_rule_from_code(&ref, "0.77"), 0);
    {
        uint32_t v[1000];
        ref_values(v, 1000, &ref);
        sg_seq_init(&s);
        for (size_t i = 0; i < 1000; i++)
            assert_int_equal(sg_seq_append(&s, v[i], &err), SG_OK);
    }
    assert_int_equal(sg_sparse_space_find(&sp, &s, 1000, &err), SG_OK);
    assert_true(sp.found);
    assert_int_equal(sp.mask, 15);
    assert_true(sp.last_rare < 71);
    /* More values than computed: an input error. */
    assert_int_equal(sg_sparse_space_find(&sp, &s, 1001, &err), SG_E_INPUT);
    sg_seq_clear(&s);
}

/* Brute force with the heap's parity: the best plain mask as
 * space_naive finds it, then every mask M = m << 1 | 1 and offset c
 * (heap h rare when popcount(v[h] & m) + (h + c) mod 2 is even), the
 * first with the fewest, taken only when it beats the plain one or there
 * is no plain mask (all values 0). */
static void space_naive_ext(sg_sparse_space *out, const uint32_t *v, size_t n)
{
    uint32_t top = 0, p = 1;
    sg_sparse_space par;
    size_t h;

    space_naive(out, v, n);
    memset(&par, 0, sizeof par);
    par.rare = UINT64_MAX;
    for (h = 1; h < n; h++)
        if (v[h] > top)
            top = v[h];
    while (p <= top)
        p *= 2;
    for (uint32_t m = 0; m < p; m++)
        for (int c = 0; c < 2; c++) {
            uint64_t cnt = 0, last = 0;
            for (h = 1; h < n; h++) {
                unsigned ones = (unsigned)((h + (size_t)c) % 2);
                for (uint32_t x = v[h] & m; x; x >>= 1)
                    ones += x & 1;
                if (ones % 2 == 0) {
                    cnt++;
                    last = h;
                }
            }
            if (cnt < par.rare) {
                par.mask = m;
                par.parity_shift = c;
                par.rare = cnt;
                par.last_rare = last;
            }
        }
    /* (mask 0 from space_naive: no plain mask exists at all) */
    if (par.rare < out->rare || out->mask == 0) {
        par.parity = 1;
        par.found = n > 100 && par.rare <= (n - 1) / 10;
        *out = par;
    }
}

/* sg_sparse_space_find_rule against that brute force: planted classes
 * of random parity masks, and real games (0.77 has split positions of
 * both parities, so no parity mask for it). */
static void test_sparse_space_parity(void **state)
{
    static const char *codes[] = {"0.106", "0.524", "0.6", "0.77", "0.205"};
    static ref_rule ref;
    sg_sparse_space got, want;
    sg_error err;
    sg_rule r, any;
    sg_seq s;
    tu_rng g;

    (void)state;
    tu_rng_init(&g, 512);
    parse_or_fail(&any, SG_SYNTAX_RULE, "0.106"); /* splits at 3 only */
    for (size_t t = 0; t < tu_scaled(40); t++) {
        unsigned bits = (unsigned)tu_range(&g, 1, 6);
        /* non-zero, so that both classes exist at either parity */
        uint32_t plant = (uint32_t)tu_range(&g, 1, (1u << bits) - 1);
        unsigned c = (unsigned)tu_range(&g, 0, 1);
        size_t n = (size_t)tu_range(&g, 0, t % 4 ? 1500 : 3);
        unsigned share = (unsigned)tu_range(&g, 2, 40);
        uint32_t *v = malloc((n + 1) * sizeof *v);

        assert_non_null(v);
        for (size_t i = 0; i < n; i++) {
            int rare = tu_chance(&g, share);
            uint32_t x;
            do
                x = (uint32_t)tu_range(&g, 0, (1u << bits) - 1);
            while ((int)!(__builtin_parity(x & plant) ^ (int)((i + c) & 1)) !=
                   rare);
            v[i] = x;
        }
        sg_seq_init(&s);
        for (size_t i = 0; i < n; i++)
            assert_int_equal(sg_seq_append(&s, v[i], &err), SG_OK);
        assert_int_equal(sg_sparse_space_find_rule(&got, &s, &any, n, &err),
                         SG_OK);
        space_naive_ext(&want, v, n);
        if (got.found != want.found || got.mask != want.mask ||
            got.parity != want.parity ||
            got.parity_shift != want.parity_shift || got.rare != want.rare ||
            got.last_rare != want.last_rare)
            fail_msg("planted %u/%u (n %zu): found %d mask %u parity %d/%d "
                     "rare %llu last %llu; brute force %d %u %d/%d %llu %llu "
                     "(seed %llu)",
                     (unsigned)plant, c, n, got.found, (unsigned)got.mask,
                     got.parity, got.parity_shift, (unsigned long long)got.rare,
                     (unsigned long long)got.last_rare, want.found,
                     (unsigned)want.mask, want.parity, want.parity_shift,
                     (unsigned long long)want.rare,
                     (unsigned long long)want.last_rare, TU_SEED);
        sg_seq_clear(&s);
        free(v);
    }
    sg_rule_clear(&any);
    for (size_t i = 0; i < sizeof codes / sizeof codes[0]; i++) {
        const size_t n = 3000;
        uint32_t *v = malloc(n * sizeof *v);

        assert_non_null(v);
        assert_int_equal(ref_rule_from_code(&ref, codes[i]), 0);
        ref_values(v, n, &ref);
        parse_or_fail(&r, SG_SYNTAX_RULE, codes[i]);
        sg_seq_init(&s);
        for (size_t j = 0; j < n; j++)
            assert_int_equal(sg_seq_append(&s, v[j], &err), SG_OK);
        assert_int_equal(sg_sparse_space_find_rule(&got, &s, &r, n, &err),
                         SG_OK);
        if (split_parity_uniform(&r))
            space_naive_ext(&want, v, n);
        else
            space_naive(&want, v, n);
        if (got.found != want.found || got.mask != want.mask ||
            got.parity != want.parity ||
            got.parity_shift != want.parity_shift || got.rare != want.rare ||
            got.last_rare != want.last_rare)
            fail_msg("%s: mask %u parity %d/%d rare %llu; brute force %u "
                     "%d/%d %llu",
                     codes[i], (unsigned)got.mask, got.parity, got.parity_shift,
                     (unsigned long long)got.rare, (unsigned)want.mask,
                     want.parity, want.parity_shift,
                     (unsigned long long)want.rare);
        if (i == 0 && (!got.found || !got.parity || got.rare != 15 ||
                       got.last_rare != 1103))
            fail_msg("0.106: not the peers' space (15 rare, last 1103)");
        /* without the rule: the values alone */
        assert_int_equal(sg_sparse_space_find(&got, &s, n, &err), SG_OK);
        assert_int_equal(got.parity, 0);
        sg_seq_clear(&s);
        sg_rule_clear(&r);
        free(v);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_kayles),
        cmocka_unit_test(test_random_octal),
        cmocka_unit_test(test_random_unequal),
        cmocka_unit_test(test_random_hex),
        cmocka_unit_test(test_random_scalar),
        cmocka_unit_test(test_fixed_rules),
        cmocka_unit_test(test_scatter_phase),
        cmocka_unit_test(test_rem_marks),
        cmocka_unit_test(test_small_blocks),
        cmocka_unit_test(test_wide_small),
        cmocka_unit_test(test_chosen_pairs),
        cmocka_unit_test(test_chosen_pairs_resumed),
        cmocka_unit_test(test_small_start),
        cmocka_unit_test(test_helper_shares),
        cmocka_unit_test(test_widening),
        cmocka_unit_test(test_random_parity),
        cmocka_unit_test(test_repick_mode),
        cmocka_unit_test(test_parity_games),
        cmocka_unit_test(test_parity_small_run),
        cmocka_unit_test(test_bad_mask),
        cmocka_unit_test(test_sparse_space_parity),
        cmocka_unit_test(test_extension),
        cmocka_unit_test(test_known_table),
        cmocka_unit_test(test_direct),
        cmocka_unit_test(test_methods_and_stats),
        cmocka_unit_test(test_cancel),
        cmocka_unit_test(test_progress),
        cmocka_unit_test(test_two_threads),
        cmocka_unit_test(test_sparse_space),
    };

    tu_base_seed();
    return cmocka_run_group_tests(tests, NULL, NULL);
}
