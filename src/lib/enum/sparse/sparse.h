/*
 * sparse.h - internal to libsg: the sparse-space method's interface to
 * the rest of the library (the dispatcher enum.c, deep.c, policy.c) and
 * to the tests and benchmarks, which reach the method and its switches
 * directly.  Not part of the public contract (sgexplore.h): every name
 * here has the prefix sgi_.  The method and its proof are at the top of
 * enum_sparse.c; sparse_impl.h holds what its parts share.
 */
#ifndef SG_SPARSE_H
#define SG_SPARSE_H

#include "sgexplore.h"

#include <stddef.h>
#include <stdint.h>

/*
 * The switches that let tests reach every path of the sparse method on
 * any machine, through sg_enum_options' `test` (NULL: all off): no_simd,
 * the portable code instead of AVX2; no_threads, no helper thread;
 * pin_helper, every eligible superblock to the helper (no timing trials)
 * with the work balance fixed at pin_balance (see BALANCE_STEP in
 * sparse_impl.h: extra pairs for the helper when positive, far rare
 * heaps left to this thread when negative); no_wide, values of 64..127
 * on the stamps instead of the small path's two-word sets, so that the
 * two paths can be compared; no_extra, no chosen pairs in the small
 * path's step 1 (sgi_sparse_extra_build); no_avx512, the AVX2 code on a CPU
 * with AVX-512; no_gbits, this thread's group marks on the stamps at
 * every size (GBITS_MAX_SIZE in sparse_impl.h); no_grem, those bit sets
 * one per heap of the group, not one per remainder (REM_TAIL_MAX); no_scan,
 * the sparse method even where enum_scan.c would be faster.  The tag is the one sg_enum_options' opaque `test` names
 * in sgexplore.h.
 */
typedef struct sg_test_switches {
    int no_simd;      /* portable code only */
    int no_threads;   /* no helper thread */
    int pin_helper;   /* helper on every superblock ... */
    long pin_balance; /* ... with this fixed balance */
    int no_wide;      /* no small path for values 64..127 */
    int no_extra;     /* no chosen pairs in the small path's step 1 */
    int no_avx512;    /* AVX2 where the CPU has AVX-512 too */
    int no_gbits;     /* group marks on the stamps only */
    int no_grem;      /* group bit sets by heap, not by remainder */
    int no_scan;      /* never hand over to enum_scan.c */
} sgi_test_switches;

/* The switches of opt: all off without options or switches. */
static inline sgi_test_switches sgi_switches(const sg_enum_options *opt)
{
    sgi_test_switches none = {0};

    return opt && opt->test ? *opt->test : none;
}

/* Whether the sparse-space method applies to r: some move leaves two
 * heaps, none leaves three, and there is no repeating tail. */
int sgi_sparse_applicable(const sg_rule *r);

/* Pass as `mask` to let sgi_enumerate_sparse choose (and re-choose) it. */
#define SGI_SPARSE_AUTO (-1)
/* Or into a forced `mask` to take the heap's parity into the extended
 * value: G(h) << 1 | h mod 2 with SGI_SPARSE_PARITY, G(h) << 1 | (h + 1)
 * mod 2 with SGI_SPARSE_PARITY_INV (enum_sparse.c explains it). */
#define SGI_SPARSE_PARITY ((int64_t)1 << 32)
#define SGI_SPARSE_PARITY_INV (SGI_SPARSE_PARITY | (int64_t)1 << 33)

/* What a sparse-space run did, for benchmarks and tests. */
typedef struct sgi_sparse_stats {
    uint32_t mask;       /* the mask in use at the end */
    size_t rare;         /* heaps h >= 1 with a rare value, at the end */
    size_t full_scans;   /* heaps whose value needed every pair */
    size_t repicks;      /* times the mask changed */
    int parity;          /* the heap's parity was part of that mask */
    int parity_shift;    /* with it: (h + parity_shift) mod 2 was used */
    size_t pairs_chosen; /* the small path's extra pairs at the end */
    size_t searches;     /* heaps of the small path's loop whose step 3 ran */
    size_t scatters;     /* heaps whose step 3 began with a scatter phase */
    size_t rem_groups;   /* groups whose marks went by remainder */
    size_t tab_groups;   /* ... of them from byte tables (TAB_HEAPS) */
    size_t pre_sweeps;   /* heaps whose step 3 began with PRE_PAIRS' sets */
    size_t scanned;      /* heaps computed by enum_scan.c instead (the rest
                            describes the sparse method's own heaps) */
} sgi_sparse_stats;

/* The sparse-space enumerator: same contract as sg_enumerate.  Heap h is
 * "rare" when G(h) AND mask, plus h mod 2 with a parity mask, has an even
 * number of bits; the results do not depend on the mask, only the speed
 * does.  `mask` is SGI_SPARSE_AUTO or a mask in 0..UINT32_MAX to force,
 * optionally ORed with SGI_SPARSE_PARITY or SGI_SPARSE_PARITY_INV (tests
 * use this to check every mask gives the same values); anything else is
 * SG_E_INPUT.  A parity mask on a rule whose split positions are not all
 * of one parity is of no use (see sg_sparse_space_find_rule) and is used
 * without the parity.  Falls back to sg_enumerate_naive when
 * !sgi_sparse_applicable(r) (stats then all zero).  `stats` may be
 * NULL. */
sg_status sgi_enumerate_sparse(sg_seq *s, const sg_rule *r, size_t n,
                               int64_t mask, sgi_sparse_stats *stats,
                               const sg_enum_options *opt, sg_error *err);

#endif /* SG_SPARSE_H */
