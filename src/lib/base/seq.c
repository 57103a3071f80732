/*
 * seq.c - the sg_seq container: G(0..n-1) with the fewest bytes per value
 * that hold every value so far, and the memory checks that turn a request
 * too big for this machine into an error instead of a crash.  Every
 * enumeration method and the cache fill sequences through these functions
 * (or the inline sgi_seq_push of seq_impl.h).
 */
#include "sgexplore.h"
#include "internal.h"
#include "seq_impl.h"

#include <stdlib.h>
#include <string.h>

void sg_seq_init(sg_seq *s)
{
    memset(s, 0, sizeof *s);
}

void sg_seq_clear(sg_seq *s)
{
    free(s->data);
    memset(s, 0, sizeof *s);
}

static sg_status check_bytes(size_t n, unsigned width, sg_error *err)
{
    uint64_t mem = sgi_physical_memory();
    uint64_t need;

    if (n > SIZE_MAX / 8)
        return sg_error_set(err, SG_E_NOMEM, -1,
                            "%zu values cannot be held in memory", n);
    need = (uint64_t)n * width;
    if (mem && need > mem / 4 * 3)
        return sg_error_set(err, SG_E_NOMEM, -1,
                            "%zu values need %.1f GiB of memory; this machine "
                            "has %.1f GiB",
                            n, need / 1073741824.0, mem / 1073741824.0);
    return SG_OK;
}

sg_status sg_seq_check_size(size_t n, sg_error *err)
{
    return check_bytes(n, 1, err);
}

static sg_status seq_realloc(sg_seq *s, size_t na, unsigned width,
                             sg_error *err)
{
    sg_status st = check_bytes(na, width, err);
    uint8_t *nd;

    if (st)
        return st;
    nd = realloc(s->data, na * width);
    if (!nd)
        return sg_error_set(err, SG_E_NOMEM, -1,
                            "out of memory holding %zu values", na);
    s->data = nd;
    s->alloc = na;
    return SG_OK;
}

sg_status sg_seq_widen(sg_seq *s, unsigned width, sg_error *err)
{
    unsigned old = s->width ? s->width : 1;
    size_t i;
    sg_status st;

    if (width <= old) {
        s->width = old;
        return SG_OK;
    }
    st = seq_realloc(s, s->alloc ? s->alloc : 64, width, err);
    if (st)
        return st;
    /* Convert in place from the top down so nothing is overwritten early. */
    for (i = s->n - s->off; i-- > 0;) {
        sg_value v = old == 1   ? s->data[i]
                     : old == 2 ? ((uint16_t *)(void *)s->data)[i]
                                : ((uint32_t *)(void *)s->data)[i];
        if (width == 2)
            ((uint16_t *)(void *)s->data)[i] = (uint16_t)v;
        else
            ((uint32_t *)(void *)s->data)[i] = v;
    }
    s->width = width;
    return SG_OK;
}

sg_status sg_seq_reserve(sg_seq *s, size_t n, sg_error *err)
{
    size_t na;
    sg_status st;

    if (!s->width)
        s->width = 1;
    if (n <= s->alloc && s->data)
        return SG_OK;
    st = check_bytes(n, s->width, err);
    if (st)
        return st;
    /* double, unless that passes the memory check: then exactly n */
    na = s->data ? s->alloc : 0;
    if (sg_grow(&s->data, &na, n, s->width) == 0 &&
        check_bytes(na, s->width, NULL) == SG_OK) {
        s->alloc = na;
        return SG_OK;
    }
    return seq_realloc(s, n, s->width, err);
}

sg_status sg_seq_append(sg_seq *s, sg_value v, sg_error *err)
{
    sg_status st;
    size_t i = s->n - s->off; /* where it goes (see sg_seq) */

    if (i == s->alloc || !s->data) {
        st = sg_seq_reserve(s, i + 1, err);
        if (st)
            return st;
    }
    if (sgi_value_width(v) > s->width) {
        st = sg_seq_widen(s, sgi_value_width(v), err);
        if (st)
            return st;
    }
    switch (s->width) {
    case 1:
        s->data[i] = (uint8_t)v;
        break;
    case 2:
        ((uint16_t *)(void *)s->data)[i] = (uint16_t)v;
        break;
    default:
        ((uint32_t *)(void *)s->data)[i] = v;
        break;
    }
    s->n++;
    if (v > s->max)
        s->max = v;
    return SG_OK;
}
