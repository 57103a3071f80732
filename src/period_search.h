/*
 * period_search.h - candidate periods for the prover in one backward pass
 * over the values (period_search.c).  Internal to libsg.
 */
#ifndef SG_PERIOD_SEARCH_H
#define SG_PERIOD_SEARCH_H

#include "sgexplore.h"

/*
 * Iterator over the shifts d at which the last `len` values recur:
 * every d >= dmin, in increasing order, with
 *
 *     G(N - len - d + i) == G(N - len + i)  for 0 <= i < len,
 *
 * N = s->n.  A rolling hash (modulo the prime 2^61 - 1) of the window
 * slides towards 0 one value per step and each hash match is confirmed
 * value by value, so the answers are exact and a full pass costs O(N)
 * plus O(len) per match.
 *
 * Why the prover can use it: if some period p has G(n + p) = G(n) for all
 * n in [a, N - p) and N - p - a >= len, then p is one of these d.  The
 * window theorem needs N - p - a >= t, the Guy-Smith theorems need
 * N - p - a >= a + p + t > p + t; so with len = t (window) or any
 * len <= p + t + 1 (Guy-Smith) no provable period is skipped.
 */
typedef struct sg_period_scan {
    const sg_seq *s;
    uint64_t len;      /* window length */
    uint64_t d;        /* the shift whose window `hash` describes */
    uint64_t target;   /* hash of the last len values */
    uint64_t hash;     /* hash of G(N - len - d .. N - 1 - d) */
    uint64_t top;      /* B^(len - 1) mod 2^61 - 1 */
    int started;
} sg_period_scan;

/* Start at shift dmin (>= 1); len must be in 1..N.  O(len). */
void sg_period_scan_init(sg_period_scan *ps, const sg_seq *s, uint64_t len,
                         uint64_t dmin);

/* The next shift, or 0 when no shift d <= N - len is left. */
uint64_t sg_period_scan_next(sg_period_scan *ps);

#endif /* SG_PERIOD_SEARCH_H */
