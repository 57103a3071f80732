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
 * N = s->n.  It is a Knuth-Morris-Pratt search for the final window in the
 * sequence read backwards, so the answers are exact, a full pass costs
 * O(N) comparisons whatever the values, and the memory is O(len).
 *
 * Why the prover can use it: if some period p has G(n + p) = G(n) for all
 * n in [a, N - p) and N - p - a >= len, then p is one of these d.  The
 * window theorem needs N - p - a >= t, the Guy-Smith theorems need
 * N - p - a >= a + p + t > p + t; so with len = t (window) or any
 * len <= p + t + 1 (Guy-Smith) no provable period is skipped.
 */
typedef struct sgi_period_scan {
    const sg_seq *s;
    uint64_t len;   /* window length */
    uint64_t next;  /* the next shift to look at */
    uint64_t q;     /* values of the window matched ending there */
    uint64_t *fail; /* KMP failure function of the window, len + 1 */
    int diff;       /* over the differences (sgi_period_scan_init_diff) */
} sgi_period_scan;

/* Start at shift dmin (>= 1); len must be in 1..N for any shift to be
 * found.  Returns SG_E_NOMEM when the O(len) table cannot be allocated. */
sg_status sgi_period_scan_init(sgi_period_scan *ps, const sg_seq *s,
                               uint64_t len, uint64_t dmin, sg_error *err);

/*
 * The same search over the first differences D(n) = G(n+1) - G(n) (mod
 * 2^64), n < N - 1: shift d is listed when the last len differences recur
 * at d, i.e. when G(n + d) - G(n) is one constant for the last len + 1
 * values of n < N - d.  Arithmetic periodicity G(n+p) = G(n) + s from n0 is
 * exactly periodicity of D from n0, so every candidate p with a saltus
 * whose agreement stretch has at least len + 1 values is listed.  No fast
 * path: about twice as slow per value as the plain scan.
 */
sg_status sgi_period_scan_init_diff(sgi_period_scan *ps, const sg_seq *s,
                                    uint64_t len, uint64_t dmin, sg_error *err);

/* The next shift, or 0 when no shift d <= N - len is left. */
uint64_t sgi_period_scan_next(sgi_period_scan *ps);

void sgi_period_scan_clear(sgi_period_scan *ps);

#endif /* SG_PERIOD_SEARCH_H */
