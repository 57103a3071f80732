/*
 * sparse_space.c - sparse spaces (sparse/enum_sparse.c explains them): the one
 * Walsh-Hadamard search for the mask that makes the fewest heaps rare,
 * over the values or over the values extended by the heap's parity, and
 * sg_sparse_space_find, which applies it to a computed sequence so that
 * reports can show the sparse space of fresh and cached results alike.
 */
#include "sgexplore.h"
#include "sparse_space.h"

#include <stdlib.h>
#include <string.h>

/* w[m] = sum_v w[v] (-1)^popcount(v & m), in place (p a power of two). */
static void wht(int64_t *w, size_t p)
{
    size_t len, i, j;

    for (len = 1; len < p; len *= 2)
        for (i = 0; i < p; i += 2 * len)
            for (j = i; j < i + len; j++) {
                int64_t a = w[j], b = w[j + len];
                w[j] = a + b;
                w[j + len] = a - b;
            }
}

/* The pick of sgi_sparse_mask_pick among the transformed w[i * stride +
 * off], i in from..p-1 (w0 = the total, for skip_empty). */
static size_t pick(const int64_t *w, size_t p, size_t stride, size_t off,
                   size_t from, size_t prefer, int skip_empty, int64_t w0)
{
    size_t i, best = p;

#define W(i) w[(i)*stride + off]
    if (prefer >= from && prefer < p && !(skip_empty && W(prefer) == -w0))
        best = prefer;
    for (i = from; i < p; i++) {
        if (skip_empty && W(i) == -w0)
            continue;
        if (best == p || W(i) < W(best))
            best = i;
    }
#undef W
    return best;
}

uint32_t sgi_sparse_mask_pick(int64_t *w, size_t p, uint32_t prefer,
                              int skip_empty)
{
    size_t best;

    if (p < 2)
        return 0;
    wht(w, p);
    best = pick(w, p, 1, 0, 1, prefer ? prefer : p, skip_empty, w[0]);
    return best < p ? (uint32_t)best : 0;
}

uint32_t sgi_sparse_mask_pick_ext(int64_t *w, size_t p, uint32_t prefer,
                                  int prefer_shift, int skip_empty,
                                  int parity_ok, int *shift)
{
    size_t plain, par = p, i;
    int on_par = prefer & 1, c = 0;
    int64_t w0, score = 0;

    /* w[2m] is then the plain transform at m: the parity bit of v' is
     * outside m << 1, so it only adds the two parities' counts. */
    wht(w, 2 * p);
    w0 = w[0];
    *shift = 0;
    plain = pick(w, p, 2, 0, 1, on_par ? p : prefer >> 1, skip_empty, w0);
    if (parity_ok) {
        /* Heap h's low bit (h + c) & 1: c = 1 complements the class of
         * every heap, so (rare - common) is -w[M] for it. */
        if (on_par && (prefer >> 1) < p) {
            i = prefer >> 1;
            c = prefer_shift != 0;
            score = c ? -w[2 * i + 1] : w[2 * i + 1];
            if (!(skip_empty && score == -w0))
                par = i;
        }
        for (i = 0; i < p; i++) {
            int64_t x = w[2 * i + 1];
            int ci = x > 0;
            int64_t si = ci ? -x : x;
            if (skip_empty && si == -w0)
                continue;
            if (par == p || si < score) {
                par = i;
                c = ci;
                score = si;
            }
        }
    }
    if (par < p && (plain == p ||
                    (on_par ? score <= w[2 * plain] : score < w[2 * plain]))) {
        *shift = c;
        return (uint32_t)(par << 1 | 1);
    }
    return plain < p ? (uint32_t)(plain << 1) : 0;
}

int sgi_sparse_parity_ok(const sg_rule *r, unsigned *kpar)
{
    size_t i;
    int par = -1;

    if (r->tail_len)
        return 0;
    for (i = 0; i < r->nterms; i++) {
        int k = (int)(r->terms[i].take & 1);
        if (!(r->terms[i].digit & SG_BIT_TWO))
            continue;
        if (par >= 0 && k != par)
            return 0;
        par = k;
    }
    if (par < 0)
        return 0;
    if (kpar)
        *kpar = (unsigned)par;
    return 1;
}

/* Masks are looked for below 2^SPACE_BITS: the transform costs 2^SPACE_BITS
 * words (twice that with the parity), and only the value bits under the
 * mask matter, so values are folded to that many bits without changing
 * any count. */
#define SPACE_BITS 22

/* Whether heap h of value v is rare under mask m, with the parity
 * (h + c) & 1 when q. */
static int is_rare_ext(uint32_t m, int q, int c, sg_value v, size_t h)
{
    return !(__builtin_parity(v & m) ^ (q & (int)((h + (size_t)c) & 1)));
}

sg_status sg_sparse_space_find_rule(sg_sparse_space *out, const sg_seq *s,
                                    const sg_rule *r, size_t n, sg_error *err)
{
    size_t p = 1, h;
    sg_value bits = 0, fold = ((sg_value)1 << SPACE_BITS) - 1;
    int64_t *w;
    uint32_t ext;
    int ok = r && sgi_sparse_parity_ok(r, NULL), c;

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
    w = calloc(2 * p, sizeof *w);
    if (!w)
        return sg_error_set(err, SG_E_NOMEM, -1, "out of memory");
    for (h = 1; h < n; h++)
        w[(size_t)(sg_seq_get(s, h) & fold) << 1 | (h & 1)]++;
    /* The same choice as the sparse enumerator's first pick. */
    ext = sgi_sparse_mask_pick_ext(w, p, 0, 0, 0, ok, &c);
    free(w);
    out->mask = ext >> 1;
    out->parity = (int)(ext & 1);
    out->parity_shift = c;
    for (h = 1; h < n; h++)
        if (is_rare_ext(out->mask, out->parity, c, sg_seq_get(s, h), h)) {
            out->rare++;
            out->last_rare = h;
        }
    out->found = ext != 0 && n > SG_SPARSE_SPACE_MIN &&
                 out->rare <= (n - 1) / SG_SPARSE_SPACE_SHARE;
    return SG_OK;
}

sg_status sg_sparse_space_find(sg_sparse_space *out, const sg_seq *s, size_t n,
                               sg_error *err)
{
    return sg_sparse_space_find_rule(out, s, NULL, n, err);
}
