/*
 * enum_impl.h - internal to libsg: what the enumeration methods share
 * with each other and with the dispatcher (enum.c).  The methods sit
 * below the dispatcher: each may use the sequence container (seq_impl.h),
 * the move generator (moves.h) and the naive method (enum_naive.c), never
 * the dispatcher itself.
 */
#ifndef SG_ENUM_IMPL_H
#define SG_ENUM_IMPL_H

#include "sgexplore.h"
#include "internal.h"
#include "base/seq_impl.h"

/* Heaps between two looks at the cancel flag and the progress hook. */
#define SG_ENUM_POLL 256

/* Non-zero when the caller of this run asked it to stop. */
static inline int sgi_enum_cancelled(const sg_enum_options *opt)
{
    return opt && opt->cancel && *opt->cancel;
}

/* Report progress to the run's hook, if it has one. */
static inline void sgi_enum_progress(const sg_enum_options *opt, size_t done,
                                     size_t target, size_t rare)
{
    if (opt && opt->progress)
        opt->progress(opt->progress_ctx, done, target, rare);
}

/* The error of a cancelled run, with s->n values kept. */
static inline sg_status sgi_enum_interrupted(const sg_seq *s, sg_error *err)
{
    return sg_error_set(err, SG_E_INTERRUPTED, -1,
                        "interrupted after %zu values", s->n);
}

/* Deep runs (deep.c, enum_sparse.c): the sparse method on d's window, and
 * the running checksum of the values before they leave it (G(hashed..
 * upto-1), all still kept). */
sg_status sgi_deep_run_sparse(sg_deep *d, const sg_rule *r, size_t n,
                              const sg_enum_options *opt, sg_error *err);
void sgi_deep_hash(sg_deep *d, size_t upto);
/* The same on a second thread, from a copy of the values, so that the run
 * goes on meanwhile; sgi_deep_hash and everything that reads the checksums
 * wait for it first. */
void sgi_deep_hash_async(sg_deep *d, size_t upto);

/* The values a deep run holds at most: its prefix, and twice its window
 * (so the window moves on every `window` heaps), plus a margin for the
 * superblock being computed. */
static inline size_t sgi_deep_hold(const sg_deep *d)
{
    return 3 * d->window + 256;
}

/* enum_scan.c: extend s to G(0..n-1) of r (moves leaving at most two
 * heaps, no tail, s->off 0) by testing every split of every heap against
 * the values still wanted, `width` (1..254, 0: 254) values at a time,
 * with AVX2 unless no_simd; stops early, s->n < n, when a value reaches
 * 2^14, for the caller to go on by another method. */
sg_status sgi_enumerate_scan(sg_seq *s, const sg_rule *r, size_t n,
                             unsigned width, int no_simd,
                             const sg_enum_options *opt, sg_error *err);
/* Whether that scan is the faster way to extend s than the sparse method:
 * AVX2, a prefix of 2^15 values or more below 2^13, and no mask that
 * leaves fewer than a fifth of its heaps rare. */
int sgi_scan_worth(const sg_seq *s, const sg_rule *r);
/* The prefix sgi_scan_worth wants (a shorter one says little of the
 * masks): the sparse method computes that much first. */
#define SGI_SCAN_PREFIX 32768

#endif /* SG_ENUM_IMPL_H */
