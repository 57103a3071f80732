/*
 * test_sparse_parity.c - unit tests of the sparse method's masks with the
 * heap's parity and of sparse spaces found from values: random rules
 * whose split positions share a parity under forced and automatic parity
 * masks, with and without AVX2 and the helper thread; a re-pick that
 * changes only the parity; the games whose space needs the parity, on
 * the small path too; forced masks outside the convention refused;
 * sg_sparse_space_find and sg_sparse_space_find_rule against brute
 * force.  Helpers shared with test_sparse.c and test_sparse_paths.c are
 * in sparse_check.h.
 */
#define _DEFAULT_SOURCE
#include "reference.h"
#include "sparse_check.h"

#include <stdlib.h>
#include <string.h>

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
        cmocka_unit_test(test_random_parity),
        cmocka_unit_test(test_repick_mode),
        cmocka_unit_test(test_parity_games),
        cmocka_unit_test(test_parity_small_run),
        cmocka_unit_test(test_bad_mask),
        cmocka_unit_test(test_sparse_space_parity),
        cmocka_unit_test(test_sparse_space),
    };

    tu_base_seed();
    return cmocka_run_group_tests(tests, NULL, NULL);
}
