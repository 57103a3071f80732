/*
 * terms.c - the small path's step 1 as lists of terms G(m - off) ^ val
 * (see enum_sparse.c): the flat list built from R for heaps far enough
 * past the last rare heap that every rare pairs with every split digit,
 * its split into the near, mid and far terms of small_run's blocks, and
 * the chosen pairs of two common parts added to them
 * (sgi_sparse_extra_build).  Built when R changes or the values drift, never
 * per heap.
 */
#include "sparse_impl.h"

/* The small path's list of terms for R as it is now; -1 when out of
 * memory (the caller then goes digit by digit). */
int sgi_sparse_flat_build(sparse *sp)
{
    size_t j, i, n = sp->nsplit * sp->nrare + sp->none;

    sp->tok = 0;
    if (n > sp->talloc || !sp->boff) { /* (the chosen pairs need boff) */
        size_t na = sp->talloc, nv = sp->talloc;
        void *t;
        /* toff and tval share talloc; boff, bval, bvx have XTERMS more */
        if (sg_grow(&sp->toff, &na, n ? n : 1, sizeof *sp->toff) ||
            sg_grow(&sp->tval, &nv, n ? n : 1, sizeof *sp->tval))
            return -1;
        if (!(t = realloc(sp->boff, (na + XTERMS) * sizeof *sp->boff)))
            return -1;
        sp->boff = t;
        if (!(t = realloc(sp->bval, (na + XTERMS) * sizeof *sp->bval)))
            return -1;
        sp->bval = t;
        if (!(t = realloc(sp->bvx, (na + XTERMS) * sizeof *sp->bvx)))
            return -1;
        sp->bvx = t;
        sp->talloc = na;
    }
    sp->nterm = 0;
    for (j = 0; j < sp->nsplit; j++)
        for (i = 0; i < sp->nrare; i++) {
            sp->toff[sp->nterm] = sp->split[j] + sp->rpos[i];
            sp->tval[sp->nterm++] = sp->rval[i];
        }
    /* small_run's one-heap moves: G(m - k) ^ 0 */
    for (i = 0; i < sp->none; i++) {
        sp->toff[sp->nterm + i] = sp->one[i];
        sp->tval[sp->nterm + i] = 0;
    }
    sp->nnear = sp->nfar = 0;
    for (i = 0; i < sp->nterm + sp->none; i++)
        if (sp->toff[i] < MID_HEAPS) {
            sp->boff[sp->nnear] = sp->toff[i];
            sp->bval[sp->nnear++] = sp->tval[i];
        }
    sp->nclose = sp->nnear;
    for (i = 0; i < sp->nterm + sp->none; i++)
        if (sp->toff[i] >= MID_HEAPS && sp->toff[i] < BLOCK_HEAPS) {
            sp->boff[sp->nnear] = sp->toff[i];
            sp->bval[sp->nnear++] = sp->tval[i];
        }
    /* the far ones with values of 64 or more first (see small_run_body) */
    for (i = 0; i < sp->nterm + sp->none; i++)
        if (sp->toff[i] >= BLOCK_HEAPS && sp->tval[i] >= 64) {
            sp->boff[sp->nnear + sp->nfar] = sp->toff[i];
            sp->bval[sp->nnear + sp->nfar++] = sp->tval[i];
        }
    sp->nfar_hi = sp->nfar;
    for (i = 0; i < sp->nterm + sp->none; i++)
        if (sp->toff[i] >= BLOCK_HEAPS && sp->tval[i] < 64) {
            sp->boff[sp->nnear + sp->nfar] = sp->toff[i];
            sp->bval[sp->nnear + sp->nfar++] = sp->tval[i];
        }
    for (i = sp->nnear; i < sp->nnear + sp->nfar; i++)
        sp->bvx[i] = sp->bval[i] * 0x01010101u;
    sp->nextra = sp->xnext = 0;
    sp->tnrare = sp->nrare;
    sp->tgen = sp->rgen;
    sp->tok = 1;
    return 0;
}

/* How many values left wanted at the sample heaps lo..m-1 the pair (a,
 * h - k - a) of split digit j gives (see sgi_sparse_extra_build). */
static size_t extra_gain(const sparse *sp, const sg_seq *s, uint64_t (*left)[2],
                         size_t j, size_t a, size_t lo, size_t m)
{
    const size_t ga = s->data[a], d = sp->split[j] + a + sp->win.off;
    size_t h, gain = 0;

    if (ga >= 64)
        return 0; /* (values below 64 only: see sgi_sparse_flat_build) */
    for (h = lo; h < m; h++) {
        size_t x = ga ^ s->data[h - d];
        gain += (size_t)(left[h - lo][x / 64 % 2] >> (x % 64)) & (x < 128);
    }
    return gain;
}

/*
 * small_run's extra terms for heaps from m on (s holding G(0..m-1)).
 * After step 1, step 3 looks for each wanted rare value among the pairs
 * in the order of their small part.  That can cost hundreds of pairs:
 * the values are far from independent (0.167's come in runs of two, and
 * the first 32 pairs missed its most common wanted values, 0 and 2, at
 * half the heaps, where pairs of random values would miss them at one in
 * ten).  So a few pairs (a, m - k - a) that find what step 1 leaves are
 * chosen from the heaps just computed, greedily the one that finds the
 * most values left wanted there, while that is at least XGAIN_MIN of the
 * heaps.  As terms of the block's step 1 (G(m - k - a) ^ G(a), like a
 * rare heap's) they cost about one instruction per heap each and take no
 * branch; every value they give is a real option, so the choice only
 * matters for the speed.  They replaced step 3's first 32 pairs, which
 * small_run used to look at before anything else (0.1777 a tenth
 * faster without them).  Chosen again at 2m and after each
 * sgi_sparse_flat_build, as the values drift.
 */
void sgi_sparse_extra_build(sparse *sp, const sg_seq *s, size_t m)
{
    const size_t half = sp->size / 2, ns = sp->nsplit;
    /* A deep run's window holds the heaps read here from x - off on, the
     * small parts a < keep at a (DEEP_MARGIN) */
#define GV(x) (s->data[(x)-sp->win.off])
    uint64_t left[XSAMPLE][2];
    size_t gain[XSPLITS * XCAND], fh[XSAMPLE];
    uint8_t fx[XSAMPLE];
    size_t h, i, j, a, nh = 0, need = 0;
    const size_t lo = m - XSAMPLE;

    sp->nextra = 0;
    sp->xnext = 2 * m;
    if (s->width != 1 || sp->size > WIDE_SIZE || !sp->simd || sp->no_extra ||
        ns > XSPLITS || m < XFIRST || m < 4 * (XSAMPLE + XCAND + sp->kmax))
        return;
    /* what each sample heap wants after step 1 (rare heaps, none of
     * small_run's: nothing) */
    for (h = lo; h < m; h++) {
        const size_t v = GV(h);
        uint64_t got[2] = {0, 0}, *w = left[h - lo];
        /* heap h's rare values: with a parity mask the lists swap with
         * the parity of h - k (sparse_flip; the current ones are m's) */
        const uint64_t *rm =
            (int)(sp->pmask & ((h ^ sp->kpar) & 1)) != sp->flipped ? sp->cmask
                                                                   : sp->rmask;
        w[0] = w[1] = 0;
        if (v >= half || heap_rare(sp, (sg_value)v, h))
            continue;
        for (i = 0; i < sp->nterm + sp->none; i++) {
            size_t x = sp->tval[i] ^ GV(h - sp->toff[i]);
            got[x / 64 % 2] |= (uint64_t)(x < 128) << (x % 64);
        }
        w[0] = rm[0] & below_lo((sg_value)v) & ~got[0];
        w[1] = (sp->bw > 1 ? rm[1] : 0) & below_hi((sg_value)v) & ~got[1];
        need +=
            (size_t)(__builtin_popcountll(w[0]) + __builtin_popcountll(w[1]));
        nh++;
    }
    /* greedy coverage, each candidate's count kept exact by taking off
     * the values each choice found (at most need in all) */
    for (j = 0; j < ns; j++)
        for (a = 32; a < 32 + XCAND; a++)
            gain[j * XCAND + a - 32] = extra_gain(sp, s, left, j, a, lo, m);
    while (sp->nextra < XTERMS && need) {
        size_t c, bc = 0, ga, k, nf = 0, f;
        for (c = 1; c < ns * XCAND; c++)
            if (gain[c] > gain[bc])
                bc = c;
        if (gain[bc] < XGAIN_MIN * (double)nh)
            break;
        a = bc % XCAND + 32;
        ga = s->data[a];
        k = sp->split[bc / XCAND];
        for (h = lo; h < m; h++) {
            size_t x = ga ^ GV(h - k - a);
            if (x < 128 && (left[h - lo][x / 64] >> (x % 64) & 1)) {
                left[h - lo][x / 64] &= ~((uint64_t)1 << (x % 64));
                fh[nf] = h;
                fx[nf++] = (uint8_t)x;
            }
        }
        need -= nf;
        sp->boff[sp->nnear + sp->nfar + sp->nextra] = k + a;
        sp->bval[sp->nnear + sp->nfar + sp->nextra] = (sg_value)ga;
        sp->bvx[sp->nnear + sp->nfar + sp->nextra++] =
            (uint32_t)ga * 0x01010101u;
        /* (the candidates of values 64 or more counted nothing: without
         * the test their count wrapped round to the largest, and 0.354
         * took 128 useless pairs in some rounds of sg_analyse) */
        for (f = 0; f < nf; f++)
            for (j = 0; j < ns; j++) {
                const uint8_t *far =
                    s->data + (fh[f] - sp->split[j] - sp->win.off);
                size_t *gj = gain + j * XCAND - 32;
                for (c = 32; c < 32 + XCAND; c++)
                    gj[c] -= s->data[c] < 64 &&
                             (s->data[c] ^ far[-(ptrdiff_t)c]) == fx[f];
            }
    }
#undef GV
}
