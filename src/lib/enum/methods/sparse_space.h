/*
 * sparse_space.h - internal to libsg: the one Walsh-Hadamard mask search
 * behind sparse spaces, used by the sparse enumerator (src/lib/sparse/),
 * by sg_sparse_space_find for reports and by the plots' rare values
 * (plot.c).
 */
#ifndef SG_SPARSE_SPACE_H
#define SG_SPARSE_SPACE_H

#include "sgexplore.h"

/*
 * w[0..p-1] (p a power of two) holds a histogram: w[v] heaps of value v.
 * Transform it in place, w[m] = sum_v hist[v] (-1)^popcount(v & m), which
 * is (heaps rare under m) - (heaps common under m), and return the mask
 * m in 1..p-1 with the least w[m]: the first such, except that `prefer`
 * (when in range) is kept on a tie.  With skip_empty, masks under which
 * no heap is rare (w[m] = -w[0]) are passed over.  Returns 0 when no mask
 * qualifies (p < 2, or every mask was skipped).
 */
uint32_t sgi_sparse_mask_pick(int64_t *w, size_t p, uint32_t prefer,
                              int skip_empty);

/*
 * The same over the extended values v' = v << 1 | ((h + c) & 1) of heaps
 * h (sparse/enum_sparse.c's header explains them): w[0..2p-1] holds w[v << 1 |
 * (h & 1)] heaps h of value v (p a power of two), and the result is an
 * extended mask M = m << 1 | q, q = 1 when the heap's parity takes part,
 * with the offset c in *shift (c = 1 makes every heap's class the
 * opposite of c = 0's, so both are rated by one transform).  The plain
 * masks (q = 0) are rated exactly as sgi_sparse_mask_pick rates them on
 * the folded histogram; a parity mask is taken only when parity_ok and
 * it leaves strictly fewer heaps rare than the best plain one (or, if
 * `prefer` with prefer_shift is a parity mask, unless a plain one is
 * strictly better), so that games without a parity space keep their
 * mask.  0 when no mask qualifies.
 */
uint32_t sgi_sparse_mask_pick_ext(int64_t *w, size_t p, uint32_t prefer,
                                  int prefer_shift, int skip_empty,
                                  int parity_ok, int *shift);

/*
 * Whether the heap's parity may take part in r's sparse space: 1 when
 * every position k of a split digit (bit 2) has the same parity, so that
 * the parity of a + b = n - k is one per heap n; 0 otherwise (then a
 * parity mask is of no use and sgi_enumerate_sparse drops it).
 * *kpar gets that parity (may be NULL).
 */
int sgi_sparse_parity_ok(const sg_rule *r, unsigned *kpar);

#endif /* SG_SPARSE_SPACE_H */
