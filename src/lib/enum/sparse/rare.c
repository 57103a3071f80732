/*
 * rare.c - the sparse method's bookkeeping of R and of its mask (see
 * enum_sparse.c): the moves sorted by kind, the value tables and their
 * growth, R (the rare heaps) built and extended, the histogram of values
 * and the choice of the mask from it.  Cold code: called per rare heap,
 * per new value bit or per doubling of the run, never per heap.
 */
#include "sparse_impl.h"
#include "enum/methods/sparse_space.h"

int sgi_sparse_applicable(const sg_rule *r)
{
    return sgi_method_applies(r, SGI_METHOD_SPARSE);
}

void sgi_sparse_free(sparse *sp)
{
    free(sp->split);
    free(sp->split_uneq);
    free(sp->rem);
    free(sp->top);
    free(sp->far_lo);
    free(sp->far_hi);
    free(sp->skip_lo);
    free(sp->skip_hi);
    free(sp->dense_lo);
    free(sp->dense_hi);
    free(sp->one);
    free(sp->all);
    free(sp->rpos);
    free(sp->rval);
    free(sp->stamp);
    free(sp->seen);
    free(sp->sseen);
    free(sp->gbits);
    free(sp->rtab);
    free(sp->rsb);
    free(sp->pre);
    free(sp->pre_tab);
    free(sp->hist);
    free(sp->common);
    free(sp->rarev);
    free(sp->toff);
    free(sp->tval);
    free(sp->boff);
    free(sp->bval);
    free(sp->bvx);
    free(sp->cmask);
    free(sp->rmask);
    free(sp->wbits);
    sgi_sparse_helper_free(sp);
    memset(sp, 0, sizeof *sp);
}

/* The tail lanes of the marks by remainder (see REM_TAIL_MAX), 0 when
 * they would not save marks. */
static size_t rem_tail(const sparse *sp)
{
    size_t i, kmin = SIZE_MAX, tail = 1;

    for (i = 0; i < sp->nsplit; i++)
        if (sp->split[i] < kmin)
            kmin = sp->split[i];
    if (sp->nsplit < 2 || sp->kmax == kmin || sp->kmax - kmin > REM_TAIL_MAX)
        return 0;
    while (tail < sp->kmax - kmin)
        tail *= 2;
    return LANES + tail < LANES * sp->nsplit ? tail : 0;
}

/* The scatter tables shared by remainder (see REM_SLOTS_MAX), 0 when
 * not shared. */
static size_t rem_slots(const sparse *sp)
{
    size_t i, kmin = SIZE_MAX;

    for (i = 0; i < sp->nsplit; i++) {
        if (sp->split_uneq[i])
            return 0;
        if (sp->split[i] < kmin)
            kmin = sp->split[i];
    }
    if (sp->nsplit < 2 || sp->kmax - kmin + 1 > REM_SLOTS_MAX)
        return 0;
    return sp->kmax - kmin + 1;
}

int sgi_sparse_moves(sparse *sp, const sg_rule *r)
{
    size_t i, m = r->nterms + 1;

    sp->split = malloc(m * sizeof *sp->split);
    sp->split_uneq = malloc(m);
    sp->rem = malloc(m * sizeof *sp->rem);
    sp->top = malloc(m * sizeof *sp->top);
    sp->far_lo = calloc(FAR_SLOTS * m, sizeof *sp->far_lo);
    sp->far_hi = calloc(FAR_SLOTS * m, sizeof *sp->far_hi);
    sp->skip_lo = calloc(FAR_SLOTS * m, sizeof *sp->skip_lo);
    sp->skip_hi = calloc(FAR_SLOTS * m, sizeof *sp->skip_hi);
    sp->dense_lo = calloc(FAR_SLOTS * m, sizeof *sp->dense_lo);
    sp->dense_hi = calloc(FAR_SLOTS * m, sizeof *sp->dense_hi);
    sp->one = malloc(m * sizeof *sp->one);
    sp->all = malloc(m * sizeof *sp->all);
    if (!sp->split || !sp->split_uneq || !sp->rem || !sp->top || !sp->far_lo ||
        !sp->far_hi || !sp->skip_lo || !sp->skip_hi || !sp->dense_lo ||
        !sp->dense_hi || !sp->one || !sp->all)
        return -1;
    for (i = 0; i < r->nterms; i++) {
        size_t k = (size_t)r->terms[i].take;
        unsigned d = r->terms[i].digit;
        if (d & SG_BIT_TWO) {
            if (k > sp->kmax)
                sp->kmax = k;
            sp->split_uneq[sp->nsplit] = r->terms[i].unequal != 0;
            sp->split[sp->nsplit++] = k;
        }
        if (k == 0)
            continue; /* the parser allows only splits there */
        if (d & SG_BIT_ONE)
            sp->one[sp->none++] = k;
        if (d & SG_BIT_ALL)
            sp->all[sp->nall++] = k;
        if ((d & (SG_BIT_ONE | SG_BIT_ALL)) && k > sp->kone)
            sp->kone = k;
    }
    sp->gtail = rem_tail(sp);
    sp->nslot = rem_slots(sp);
    return 0;
}

void sgi_sparse_lists(sparse *sp)
{
    size_t v;

    sp->ncommon = sp->nrarev = 0;
    sp->cbits = sp->rbits = 0;
    sp->flipped = 0;
    memset(sp->cmask, 0, sp->bw * sizeof *sp->cmask);
    memset(sp->rmask, 0, sp->bw * sizeof *sp->rmask);
    for (v = 0; v < sp->size; v++) {
        if (is_rare(sp->mask, (sg_value)v)) {
            sp->rarev[sp->nrarev++] = (sg_value)v;
            sp->rmask[v / 64] |= (uint64_t)1 << (v % 64);
        } else {
            sp->common[sp->ncommon++] = (sg_value)v;
            sp->cmask[v / 64] |= (uint64_t)1 << (v % 64);
        }
        if (sp->size <= SMALL_SIZE && v < sp->size / 2) {
            if (is_rare(sp->mask, (sg_value)v))
                sp->rbits |= (uint64_t)1 << v;
            else
                sp->cbits |= (uint64_t)1 << v;
        }
    }
}

int sgi_sparse_fit(sparse *sp, sg_value max)
{
    size_t p = 2, want, old = sp->size, i;
    void *t;

    while (p <= (size_t)max)
        p *= 2;
    want = 2 * p;
    if (want <= old)
        return 0;
    if (want > SPARSE_VALUE_LIMIT)
        return -1;
    /* The stamps change layout; marks made so far are lost, so the caller
     * must not rely on them (see no_block). */
    free(sp->stamp);
    if (!(sp->stamp = calloc(LANES * want, sizeof *sp->stamp)))
        return -1;
    free(sp->cmask);
    free(sp->rmask);
    free(sp->wbits);
    sp->bw = (want + 63) / 64;
    sp->cmask = malloc(sp->bw * sizeof *sp->cmask);
    sp->rmask = malloc(sp->bw * sizeof *sp->rmask);
    sp->wbits = calloc(sp->bw, sizeof *sp->wbits);
    free(sp->seen);
    sp->seen = calloc(want, sizeof *sp->seen);
    sp->seen_tag = 0;
    free(sp->gbits);
    sp->gbits = NULL;
    sp->gok = 0;
    sp->rcur = sp->rnext = 0; /* (marks of another size) */
    free(sp->sseen);
    sp->sseen = NULL;
    for (i = 0; i < REM_SLOTS_MAX; i++) {
        sp->sn[i] = SIZE_MAX;
        sp->stag[i] = 0;
    }
    if (!sp->cmask || !sp->rmask || !sp->wbits || !sp->seen)
        return -1;
    if (sp->nslot && want <= REM_SEEN_MAX_SIZE && !sp->no_grem &&
        !(sp->sseen = calloc(sp->nslot * want, 1)))
        return -1;
    if ((want >= GBITS_MIN_SIZE || (sp->gtail && !sp->no_grem)) &&
        want <= GBITS_MAX_SIZE && !sp->no_gbits &&
        !(sp->gbits =
              malloc((LANES + REM_TAIL_MAX + 1) * sp->bw * sizeof *sp->gbits)))
        return -1;
    if (sp->gbits && sp->gtail && !sp->pre) {
        if (!(sp->pre = calloc(4 * PRE_RING, sizeof *sp->pre)) ||
            !(sp->pre_tab = calloc(TAB_LANES, 1)))
            return -1;
        for (i = 0; i < PRE_RING; i++)
            sp->pre_n[i] = SIZE_MAX;
    }
    if (sp->gbits && sp->gtail && !sp->rtab &&
        (!(sp->rtab = calloc(TAB_HEAPS + REM_TAIL_MAX, TAB_LANES)) ||
         !(sp->rsb = calloc(4 * (TAB_HEAPS + REM_TAIL_MAX), sizeof *sp->rsb))))
        return -1;
    if (!(t = realloc(sp->hist, 2 * want * sizeof *sp->hist)))
        return -1;
    sp->hist = t;
    memset(sp->hist + 2 * old, 0, 2 * (want - old) * sizeof *sp->hist);
    if (!(t = realloc(sp->common, want * sizeof *sp->common)))
        return -1;
    sp->common = t;
    if (!(t = realloc(sp->rarev, want * sizeof *sp->rarev)))
        return -1;
    sp->rarev = t;
    sp->size = want;
    sgi_sparse_lists(sp);
    return 0;
}

/* R's two arrays hold `need`; they share one capacity, ralloc. */
static int rare_grow(sparse *sp, size_t need)
{
    size_t cp = sp->ralloc, cv = sp->ralloc;

    if (sg_grow(&sp->rpos, &cp, need, sizeof *sp->rpos) ||
        sg_grow(&sp->rval, &cv, need, sizeof *sp->rval))
        return -1;
    sp->ralloc = cp;
    return 0;
}

int sgi_sparse_rare_push(sparse *sp, size_t pos, sg_value v)
{
    if (sp->nrare == sp->ralloc && rare_grow(sp, sp->nrare + 1))
        return -1;
    sp->rpos[sp->nrare] = pos;
    sp->rval[sp->nrare++] = v;
    return 0;
}

int sgi_sparse_rare_reserve(sparse *sp, size_t more)
{
    return rare_grow(sp, sp->nrare + more);
}

int sgi_sparse_rebuild(sparse *sp, const sg_seq *s)
{
    size_t h;

    sp->nrare = 0;
    sp->rgen++;
    if (s->width == 1 && sp->simd) {
        /* every round of sg_analyse reads the whole prefix (0.1777: 4 % of
         * its time heap by heap), and rare heaps are few */
        for (h = sgi_sparse_next_rare(sp, s->data, 1, s->n); h < s->n;
             h = sgi_sparse_next_rare(sp, s->data, h + 1, s->n))
            if (sgi_sparse_rare_push(sp, h, s->data[h]))
                return -1;
        return 0;
    }
    if (s->width == 1) {
        /* a resumed run reads the whole prefix: a table per byte */
        uint8_t rare[512];
        unsigned v;
        for (v = 0; v < 512; v++)
            rare[v] = (uint8_t)heap_rare(sp, v >> 1, v);
        for (h = 1; h < s->n; h++)
            if (rare[s->data[h] << 1 | (h & 1)] &&
                sgi_sparse_rare_push(sp, h, s->data[h]))
                return -1;
        return 0;
    }
    for (h = 1; h < s->n; h++) {
        sg_value v = sg_seq_get(s, h);
        if (heap_rare(sp, v, h) && sgi_sparse_rare_push(sp, h, v))
            return -1;
    }
    return 0;
}

/* hist[hist_slot(v, h)] += the heaps 1 <= h < s->n of value v (v <
 * sp->size).  Four partial counts, so that runs of one value do not wait
 * on each other's increments.  -1 when out of memory. */
int sgi_sparse_count(sparse *sp, const sg_seq *s)
{
    size_t h, v, z = 2 * sp->size;
    uint64_t *c = calloc(4 * z, sizeof *c);

    if (!c)
        return -1;
    for (h = 1; h + 4 <= s->n; h += 4) {
        c[hist_slot(sp, sg_seq_get(s, h), h)]++;
        c[z + hist_slot(sp, sg_seq_get(s, h + 1), h + 1)]++;
        c[2 * z + hist_slot(sp, sg_seq_get(s, h + 2), h + 2)]++;
        c[3 * z + hist_slot(sp, sg_seq_get(s, h + 3), h + 3)]++;
    }
    for (; h < s->n; h++)
        c[hist_slot(sp, sg_seq_get(s, h), h)]++;
    for (v = 0; v < z; v++)
        sp->hist[v] += c[v] + c[z + v] + c[2 * z + v] + c[3 * z + v];
    free(c);
    return 0;
}

/* The extended mask (mask << 1 | pmask, mask below P = size/2) that makes
 * the fewest heaps rare, its offset in *shift (the current one when it
 * ties; plain mask 1 when every value is 0); a parity mask only when the
 * rule allows it and it is strictly better (sgi_sparse_mask_pick_ext).  -1
 * when out of memory. */
int64_t sgi_sparse_best_mask(const sparse *sp, int *shift)
{
    size_t p = sp->size / 2, i;
    int64_t *w = malloc(2 * p * sizeof *w);
    uint32_t best;

    if (!w)
        return -1;
    if (sp->par_ok) {
        for (i = 0; i < 2 * p; i++)
            w[i] = (int64_t)sp->hist[i];
        best = sgi_sparse_mask_pick_ext(w, p, sp->mask << 1 | sp->pmask,
                                        (int)sp->pshift, 0, 1, shift);
    } else {
        /* the values alone, exactly as before the parity existed */
        for (i = 0; i < p; i++)
            w[i] = (int64_t)sp->hist[i];
        best = sgi_sparse_mask_pick(w, p, sp->mask, 0) << 1;
        *shift = 0;
    }
    free(w);
    return best ? (int64_t)best : 2;
}

int sgi_sparse_repick(sparse *sp, const sg_seq *s)
{
    int64_t m;
    int c;

    if (sp->forced)
        return 0;
    m = sgi_sparse_best_mask(sp, &c);
    if (m < 0)
        return -1;
    if ((uint32_t)m == (sp->mask << 1 | sp->pmask) && (uint32_t)c == sp->pshift)
        return 0;
    sp->mask = (uint32_t)m >> 1;
    sp->pmask = (uint32_t)m & 1;
    sp->pshift = (uint32_t)c;
    sp->repicks++;
    sgi_sparse_lists(sp);
    return sgi_sparse_rebuild(sp, s);
}
