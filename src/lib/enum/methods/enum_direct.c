/*
 * enum_direct.c - the enumeration method for finite rules without splits
 * (subtraction games, all-but games, codes with digits 0-3): each heap
 * looks at one option per digit, O(N * digits).
 */
#include "sgexplore.h"
#include "enum_impl.h"
#include "base/compiler.h"

#include <stdlib.h>
#include <string.h>

/*
 * Without split moves a heap h has at most one option per digit: G(h - k)
 * for a digit with bit 2 at k < h, and 0 for a digit with bit 1 at k = h.
 * So every value is at most the number of digits, the stamp array is that
 * small, and a heap costs one load and one store per digit.
 */
typedef struct direct {
    size_t none, nall;
    size_t *one;     /* positions k >= 1 whose digit has bit 2, ascending */
    size_t *all;     /* positions k >= 1 whose digit has bit 1, ascending */
    uint64_t *stamp; /* none + 2 entries */
} direct;

int sgi_direct_applicable(const sg_rule *r)
{
    return sgi_method_applies(r, SGI_METHOD_DIRECT);
}

/* The value of heap h, reading G through g of element type T.  Terms are
 * ascending, so the loops stop at the first one too large for h. */
#define DIRECT_HEAP(NAME, T)                                                   \
    static sg_value NAME(const direct *d, const T *g, size_t h)                \
    {                                                                          \
        uint64_t *st = d->stamp, tag = (uint64_t)h + 1;                        \
        size_t i;                                                              \
        sg_value v;                                                            \
        for (i = 0; i < d->none && d->one[i] < h; i++)                         \
            st[g[h - d->one[i]]] = tag;                                        \
        for (i = 0; i < d->nall && d->all[i] <= h; i++)                        \
            if (d->all[i] == h)                                                \
                st[0] = tag;                                                   \
        for (v = 0; st[v] == tag; v++)                                         \
            ;                                                                  \
        return v;                                                              \
    }

DIRECT_HEAP(direct_heap1, uint8_t)
DIRECT_HEAP(direct_heap2, uint16_t)
DIRECT_HEAP(direct_heap4, uint32_t)

/* Heaps h..end-1, all above every digit's position (so every option
 * exists and there is no bit-1 move), stored straight into s while the
 * values fit in T; returns the first heap not computed. */
#define DIRECT_RUN(NAME, T, MAXV)                                              \
    static size_t NAME(const direct *d, sg_seq *s, size_t h, size_t end)       \
    {                                                                          \
        T *g = (T *)(void *)s->data;                                           \
        uint64_t *st = d->stamp;                                               \
        const size_t *one = d->one, none = d->none;                            \
        sg_value mx = s->max;                                                  \
        for (; h < end; h++) {                                                 \
            uint64_t tag = (uint64_t)h + 1;                                    \
            size_t i;                                                          \
            sg_value v;                                                        \
            for (i = 0; i < none; i++)                                         \
                st[g[h - one[i]]] = tag;                                       \
            for (v = 0; st[v] == tag; v++)                                     \
                ;                                                              \
            if (v > (MAXV))                                                    \
                break;                                                         \
            g[h] = (T)v;                                                       \
            if (v > mx)                                                        \
                mx = v;                                                        \
        }                                                                      \
        s->n = h;                                                              \
        s->max = mx;                                                           \
        return h;                                                              \
    }

DIRECT_RUN(direct_run1, uint8_t, 0xFF)
DIRECT_RUN(direct_run2, uint16_t, 0xFFFF)
DIRECT_RUN(direct_run4, uint32_t, UINT32_MAX)

/* All the time is in the loops of DIRECT_RUN (hence SG_ALIGN_FN). */
SG_ALIGN_FN
sg_status sgi_enumerate_direct(sg_seq *s, const sg_rule *r, size_t n,
                               const sg_enum_options *opt, sg_error *err)
{
    direct d;
    sg_status st = SG_OK;
    size_t i, h, top = 0;

    memset(&d, 0, sizeof d);
    st = sg_seq_reserve(s, n, err);
    if (st)
        return st;
    d.one = malloc((r->nterms + 1) * sizeof *d.one);
    d.all = malloc((r->nterms + 1) * sizeof *d.all);
    d.stamp = calloc(r->nterms + 2, sizeof *d.stamp);
    if (!d.one || !d.all || !d.stamp) {
        st = sg_error_set(err, SG_E_NOMEM, -1, "out of memory");
        goto out;
    }
    for (i = 0; i < r->nterms; i++) {
        size_t k = (size_t)r->terms[i].take;
        if (k == 0)
            continue; /* the parser allows only splits there */
        if (r->terms[i].digit & SG_BIT_ONE)
            d.one[d.none++] = k;
        if (r->terms[i].digit & SG_BIT_ALL)
            d.all[d.nall++] = k;
        top = k;
    }
    for (h = s->n; h < n;) {
        sg_value v;

        if (h % SG_ENUM_POLL == 0) {
            if (sgi_enum_cancelled(opt)) {
                st = sgi_enum_interrupted(s, err);
                goto out;
            }
            sgi_enum_progress(opt, h, n, 0);
        }
        if (h > top && s->width) {
            /* The fast loop, up to the next poll. */
            size_t end = (h / SG_ENUM_POLL + 1) * SG_ENUM_POLL, at;
            if (end > n)
                end = n;
            at = s->width == 1   ? direct_run1(&d, s, h, end)
                 : s->width == 2 ? direct_run2(&d, s, h, end)
                                 : direct_run4(&d, s, h, end);
            if (at > h) {
                h = at;
                continue;
            }
        }
        switch (s->width) {
        case 1:
            v = direct_heap1(&d, s->data, h);
            break;
        case 2:
            v = direct_heap2(&d, (const uint16_t *)(const void *)s->data, h);
            break;
        default:
            v = direct_heap4(&d, (const uint32_t *)(const void *)s->data, h);
            break;
        }
        st = sgi_seq_push(s, v, err);
        if (st)
            goto out;
        h++;
    }
out:
    free(d.one);
    free(d.all);
    free(d.stamp);
    return st;
}
