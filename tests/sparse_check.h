/*
 * sparse_check.h - what the sparse method's three test programs
 * (test_sparse.c, test_sparse_paths.c, test_sparse_parity.c) and the
 * full scans' (test_scan.c) share:
 * values checked one by one, a sparse run checked against wanted values
 * and against the forced mask's statistics, naive values, random masks,
 * a run's values under the defaults, whether the CPU takes the AVX2
 * paths.  Static inline, so that each program takes what it uses; a
 * program that includes it defines _DEFAULT_SOURCE first.
 */
#ifndef SG_TEST_SPARSE_CHECK_H
#define SG_TEST_SPARSE_CHECK_H

#include "testutil.h"

#include <stdlib.h>
#include <string.h>

#include "sgexplore.h"
#include "enum/sparse/sparse.h"

/* s must hold exactly n values equal to want[0..n-1], with s->max right. */
static inline void check_values(const sg_seq *s, const uint32_t *want, size_t n,
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
static inline int split_parity_uniform(const sg_rule *r)
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
static inline void sparse_check_stats(const sg_enum_options *opt,
                                      const sg_rule *r, size_t n,
                                      long long mask, unsigned width,
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
static inline void sparse_check_opt(const sg_enum_options *opt,
                                    const sg_rule *r, size_t n, long long mask,
                                    unsigned width, const uint32_t *want,
                                    const char *what)
{
    sparse_check_stats(opt, r, n, mask, width, want, what, NULL);
}

/* The same with the default options. */
static inline void sparse_check(const sg_rule *r, size_t n, long long mask,
                                unsigned width, const uint32_t *want,
                                const char *what)
{
    sparse_check_opt(NULL, r, n, mask, width, want, what);
}

/* Naive values of r, to n. */
static inline uint32_t *naive_values(const sg_rule *r, size_t n)
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
static inline long long random_value_mask(tu_rng *g)
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

static inline long long random_mask(tu_rng *g)
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
/* G(0..n-1) of the game `code` (parsed into *r) by the sparse method's
 * defaults, with its stats and largest value. */
static inline uint32_t *auto_values(sg_rule *r, const char *code, size_t n,
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

/* Whether this CPU takes the sparse method's AVX2 paths. */
static inline int cpu_avx2(void)
{
#if defined(__x86_64__) && defined(__GNUC__)
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("bmi2");
#else
    return 0;
#endif
}

#endif
