/*
 * sparse_space.h - internal to libsg: the one Walsh-Hadamard mask search
 * behind sparse spaces, used by the sparse enumerator (enum_sparse.c), by
 * sg_sparse_space_find for reports and by the plots' rare values
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
uint32_t sg_sparse_mask_pick(int64_t *w, size_t p, uint32_t prefer,
                             int skip_empty);

#endif /* SG_SPARSE_SPACE_H */
