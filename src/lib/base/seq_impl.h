/*
 * seq_impl.h - internal to libsg: the sequence container's fast append
 * and value width, shared by the enumeration methods and the cache
 * (store.c), which rebuilds sequences from stored chunks.
 */
#ifndef SG_SEQ_IMPL_H
#define SG_SEQ_IMPL_H

#include "sgexplore.h"

/* Bytes a value takes at least (1, 2 or 4): the width of an sg_seq that
 * holds v, and of a stored chunk whose largest value is v. */
static inline unsigned sgi_value_width(sg_value v)
{
    return v < 256 ? 1 : v < 65536 ? 2 : 4;
}

/* Append v to s; the common case (room reserved, width big enough) is a
 * single store, everything else goes through sg_seq_append. */
static inline sg_status sgi_seq_push(sg_seq *s, sg_value v, sg_error *err)
{
    size_t i = s->n - s->off; /* where it goes (see sg_seq) */

    if (i < s->alloc && s->data) {
        switch (s->width) {
        case 1:
            if (v > 0xFF)
                break;
            s->data[i] = (uint8_t)v;
            s->n++;
            if (v > s->max)
                s->max = v;
            return SG_OK;
        case 2:
            if (v > 0xFFFF)
                break;
            ((uint16_t *)(void *)s->data)[i] = (uint16_t)v;
            s->n++;
            if (v > s->max)
                s->max = v;
            return SG_OK;
        case 4:
            ((uint32_t *)(void *)s->data)[i] = v;
            s->n++;
            if (v > s->max)
                s->max = v;
            return SG_OK;
        default:
            break;
        }
    }
    return sg_seq_append(s, v, err);
}

#endif /* SG_SEQ_IMPL_H */
