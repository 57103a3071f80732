/*
 * sparse_space.c - sparse spaces (enum_sparse.c explains them): the one
 * Walsh-Hadamard search for the mask that makes the fewest heaps rare,
 * and sg_sparse_space_find, which applies it to a computed sequence so
 * that reports can show the sparse space of fresh and cached results
 * alike.
 */
#include "sgexplore.h"
#include "sparse_space.h"

#include <stdlib.h>
#include <string.h>

uint32_t sg_sparse_mask_pick(int64_t *w, size_t p, uint32_t prefer,
                             int skip_empty)
{
    size_t len, i, j, best = 0;

    for (len = 1; len < p; len *= 2)
        for (i = 0; i < p; i += 2 * len)
            for (j = i; j < i + len; j++) {
                int64_t a = w[j], b = w[j + len];
                w[j] = a + b;
                w[j + len] = a - b;
            }
    if (prefer && prefer < p && !(skip_empty && w[prefer] == -w[0]))
        best = prefer;
    for (i = 1; i < p; i++) {
        if (skip_empty && w[i] == -w[0])
            continue;
        if (!best || w[i] < w[best])
            best = i;
    }
    return (uint32_t)best;
}

/* Masks are looked for below 2^SPACE_BITS: the transform costs 2^SPACE_BITS
 * words, and only the value bits under the mask matter, so values are
 * folded to that many bits without changing any count. */
#define SPACE_BITS 22

static int is_rare(uint32_t mask, sg_value v)
{
    return !__builtin_parity(v & mask);
}

sg_status sg_sparse_space_find(sg_sparse_space *out, const sg_seq *s, size_t n,
                               sg_error *err)
{
    size_t p = 1, h;
    sg_value bits = 0, fold = ((sg_value)1 << SPACE_BITS) - 1;
    int64_t *w;
    uint32_t mask;

    memset(out, 0, sizeof *out);
    if (n > s->n)
        return sg_error_set(err, SG_E_INPUT, -1,
                            "sparse space of G(0..%zu): only %zu values "
                            "are computed",
                            n ? n - 1 : 0, s->n);
    for (h = 1; h < n; h++)
        bits |= sg_seq_get(s, h) & fold;
    while (p <= (size_t)bits)
        p *= 2;
    w = calloc(p, sizeof *w);
    if (!w)
        return sg_error_set(err, SG_E_NOMEM, -1, "out of memory");
    for (h = 1; h < n; h++)
        w[sg_seq_get(s, h) & fold]++;
    /* The same choice as the sparse enumerator's first pick. */
    mask = sg_sparse_mask_pick(w, p, 0, 0);
    free(w);
    out->mask = mask;
    for (h = 1; h < n; h++)
        if (is_rare(mask, sg_seq_get(s, h))) {
            out->rare++;
            out->last_rare = h;
        }
    out->found = mask != 0 && n > SG_SPARSE_SPACE_MIN &&
                 out->rare <= (n - 1) / SG_SPARSE_SPACE_SHARE;
    return SG_OK;
}
