/*
 * enum_impl.h - internal to libsg: what the enumerator's methods (enum.c,
 * enum_sparse.c) share, and the fast append that the cache (store.c) also
 * uses to rebuild sequences.
 */
#ifndef SG_ENUM_IMPL_H
#define SG_ENUM_IMPL_H

#include "sgexplore.h"

/* Append v to s; the common case (room reserved, width big enough) is a
 * single store, everything else goes through sg_seq_append. */
static inline sg_status sg_seq_push(sg_seq *s, sg_value v, sg_error *err)
{
    if (s->n < s->alloc && s->data) {
        switch (s->width) {
        case 1:
            if (v > 0xFF)
                break;
            s->data[s->n++] = (uint8_t)v;
            if (v > s->max)
                s->max = v;
            return SG_OK;
        case 2:
            if (v > 0xFFFF)
                break;
            ((uint16_t *)(void *)s->data)[s->n++] = (uint16_t)v;
            if (v > s->max)
                s->max = v;
            return SG_OK;
        case 4:
            ((uint32_t *)(void *)s->data)[s->n++] = v;
            if (v > s->max)
                s->max = v;
            return SG_OK;
        default:
            break;
        }
    }
    return sg_seq_append(s, v, err);
}

/* Heaps between two looks at the cancel flag and the progress hook. */
#define SG_ENUM_POLL 256

/* Let the sparse method use the CPU's vector instructions (the default)
 * or not; the tests use this to check the portable code on any machine. */
void sg_sparse_allow_simd(int allow);

/* Let the sparse method use a second thread (the default) or not. */
void sg_sparse_allow_threads(int allow);

/* For tests: with pinned non-zero the sparse method gives every eligible
 * superblock to its helper thread (no timing trials) with the work
 * balance fixed at `balance` (see BALANCE_STEP in enum_sparse.c: extra
 * pairs when positive, far rares left to the main thread when negative);
 * pinned 0 restores the default. */
void sg_sparse_pin_helper(int pinned, long balance);

/* Report progress to the installed hook, if any. */
void sg_enum_progress(size_t done, size_t target, size_t rare);

#endif /* SG_ENUM_IMPL_H */
