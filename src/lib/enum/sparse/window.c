/*
 * window.c - the sparse method's support of deep runs (sg_deep,
 * docs/DEEP.md): how far back a heap reads (DEEP_MARGIN), the window
 * moving on, the mask frozen once values leave memory, the state handed
 * to and from the run's checkpoint, and the errors that stop a run rather
 * than guess a value.
 */
#include "sparse_impl.h"

/*
 * Deep runs (sg_deep, docs/DEEP.md).  Once its values leave memory a run
 * reads, for heap m: one-heap options m - k (k <= kone), pairs (r, m - k
 * - r) with r in R (so m - k - r >= m - kmax - last rare heap), the
 * helper's and the blocks' extra pairs (small parts below 2 SUPER +
 * BALANCE_MAX + HLANES), the small path's chosen
 * pairs (small parts below 32 + XCAND, chosen from the last XSAMPLE
 * heaps: sgi_sparse_extra_build reads back to m - XSAMPLE - kmax - 32 -
 * XCAND and step 1's terms of those heaps), and step 3's
 * pairs (a, m - k - a), which kept_top stops at the kept ones.  So a
 * window of W values behind m and G(0..W-1) hold all of it as long as W
 * is at least DEEP_MARGIN above kmax + kone + the last rare heap; a new
 * rare heap later, or a step 3 cut short before it found every value it
 * wanted, stops the run (sgi_sparse_deep_stop) instead of being guessed.
 */
#define DEEP_MARGIN (4 * SUPER + BALANCE_MAX + 4 * HLANES + 64)

sg_status sgi_sparse_deep_stop(const sg_seq *s, const sparse *sp, size_t m,
                               sg_value v, sg_error *err)
{
    if (sp->win.deep_fail)
        return sg_error_set(
            err, SG_E_UNKNOWN, -1,
            "deep run stopped at heap %zu: its value needs pairs beyond the "
            "%zu values kept at each end (it may be a new rare value); "
            "G(0..%zu) are exact, a larger --window run from the start may "
            "pass it",
            m, s->keep, m - 1);
    return sg_error_set(
        err, SG_E_UNKNOWN, -1,
        "deep run stopped at heap %zu: its value %lu is a new rare value, "
        "which later heaps pair with values no longer kept; G(0..%zu) are "
        "exact, a larger --window run from the start may pass it",
        m, (unsigned long)v, m - 1);
}

/*
 * A frozen run cannot change its mask (R would have to be rebuilt from
 * values it no longer holds), except by bits above every value so far: no
 * heap's class depends on those yet.  Every option is below 2^b while the
 * values are (b = the bit length of the largest), so the first value of
 * b bits is exactly 2^b; with bit b in the mask it is common, found by
 * steps 2 and 3 as usual, where without it would be a new rare value and
 * stop the run (Grundy's game at heap 7,250,049, value 256).  So the
 * mask keeps bit b, from the freeze on and each time b grows.  The helper
 * must be idle.
 */
void sgi_sparse_deep_mask_top(sparse *sp, sg_value max)
{
    unsigned b = 0;

    while (b < 30 && ((sg_value)1 << b) <= max)
        b++;
    if (b < 30 && !(sp->mask & ((uint32_t)1 << b))) {
        sp->mask |= (uint32_t)1 << b;
        sgi_sparse_lists(sp);
    }
}

/* Move the window on before the superblock at h (the helper idle): the
 * values [hashed, h - W) are hashed and leave memory; the first time the
 * prefix G(0..W-1) is set aside and the mask is fixed for good. */
sg_status sgi_sparse_deep_slide(sparse *sp, sg_seq *s, sg_deep *d, size_t h,
                                sg_error *err)
{
    const size_t w = d->window, wd = s->width;
    size_t last = sp->nrare ? sp->rpos[sp->nrare - 1] : 0;
    size_t need = sp->kmax + sp->kone + last + DEEP_MARGIN;

    if (need > w)
        return sg_error_set(
            err, SG_E_UNKNOWN, -1,
            "deep run stopped at heap %zu: a window of %zu values is too "
            "small for this rule (last rare heap %zu); use --window %zu or "
            "more",
            h, w, last, 2 * need);
    if (!s->off) {
        s->keep = w;
        d->frozen = 1;
        sp->forced = 1;
        sgi_sparse_deep_mask_top(sp, s->max);
    }
    sgi_deep_hash_async(d, h - w);
    memmove(s->data + s->keep * wd, s->data + (h - w - s->off) * wd, w * wd);
    s->off = h - w - s->keep;
    sp->win.off = s->off;
    sp->win.keep = s->keep;
    return SG_OK;
}

/* The sparse state of a deep run that left memory: its frozen mask, R and
 * counts, which cannot be recomputed from the values.  -1: out of memory. */
int sgi_sparse_deep_enter(sparse *sp, const sg_deep *d)
{
    size_t i, nh = 2 * sp->size < d->nhist ? 2 * sp->size : d->nhist;

    sp->forced = 1;
    sp->mask = d->mask;
    sp->pmask = (uint32_t)d->parity;
    sp->pshift = (uint32_t)d->pshift;
    sp->win.keep = d->seq.keep;
    sp->win.off = d->seq.off;
    sgi_sparse_lists(sp);
    sgi_sparse_deep_mask_top(sp,
                             d->seq.max); /* (a checkpoint of an older build) */
    memcpy(sp->hist, d->hist, nh * sizeof *sp->hist);
    sp->nrare = 0;
    sp->rgen++;
    for (i = 0; i < d->nrare; i++)
        if (sgi_sparse_rare_push(sp, d->rpos[i], d->rval[i]))
            return -1;
    return 0;
}

/* Hand the sparse state back to the deep run.  -1: out of memory. */
int sgi_sparse_deep_leave(const sparse *sp, sg_deep *d)
{
    void *p;

    d->mask = sp->mask;
    d->parity = (int)sp->pmask;
    d->pshift = (int)sp->pshift;
    if (sp->nrare > d->nrare || !d->rpos) {
        if (!(p = realloc(d->rpos, (sp->nrare + 1) * sizeof *d->rpos)))
            return -1;
        d->rpos = p;
        if (!(p = realloc(d->rval, (sp->nrare + 1) * sizeof *d->rval)))
            return -1;
        d->rval = p;
    }
    memcpy(d->rpos, sp->rpos, sp->nrare * sizeof *d->rpos);
    memcpy(d->rval, sp->rval, sp->nrare * sizeof *d->rval);
    d->nrare = sp->nrare;
    if (2 * sp->size != d->nhist) {
        if (!(p = realloc(d->hist, 2 * sp->size * sizeof *d->hist)))
            return -1;
        d->hist = p;
        d->nhist = 2 * sp->size;
    }
    memcpy(d->hist, sp->hist, d->nhist * sizeof *d->hist);
    d->full_scans += sp->full_scans;
    return 0;
}
