/*
 * misere_monoid.c - candidates for Q_k built as monoids rather than
 * learned from outcomes, the idea of Aaron Siegel's MisereSolver (read,
 * no code copied; docs/MISERE.md, "Candidates built as monoids").  The
 * learning's oracles key long sums by a quotient that heap k may split,
 * and at some heaps (0.07's 30) every rung contradicts itself; this
 * rung never asks an oracle:
 *
 * - a candidate is a commutative monoid on which the heaps 1..k act: a
 *   base (the states of the last candidate reached by the heaps kept)
 *   times one cyclic counter per free heap (index i, period p: counts
 *   i + p - 1 wrap to i);
 * - its P-portion is marked from the least word of each element, words
 *   taken in the order where every option of a word comes before it
 *   (the count of the largest heap first, then the next ...), by the
 *   rule of play over the elements of the word's options;
 * - it is reduced (Moore: states no word tells apart by P merge);
 * - Theorem Q's check (misere_check.c) decides; at the sum x where the
 *   walk fails, the heaps of x are freed, one, then two, ..., and the
 *   first candidate whose P-portion flips x's answer is the next.
 *
 * Nothing here is trusted: a candidate is returned only after the full
 * check of (1) to (4).
 */
#include "misere_quot_impl.h"
#include "base/fnv.h"

#include <stdlib.h>
#include <string.h>

/* At most this many elements in a product before reduction (and fewer
 * when the misère byte budget says so: its heaps' table and the
 * marking's sets take about 8 (k + 2) bytes each). */
#define MON_MAX_ELEMS ((size_t)1 << 20)

/* Candidates up to this many times --max-order are checked (on the
 * way, MisereSolver's exceed the quotient: 1,132 for 0.07's Q_33 of
 * 638). */
#define MON_ORDER_FACTOR 4

/* At most this many candidates tried per heap. */
#define MON_MAX_TRIES 4096

/* A candidate: states 0..n-1 (0 the empty sum), heaps 1..k acting. */
typedef struct mcand {
    size_t n, k;
    uint32_t *trans; /* trans[u * k + h - 1] */
    unsigned char *label;
} mcand;

/* The options of every heap 1..k, each at most 3 parts (0: none). */
typedef struct mopts {
    uint32_t *part; /* 3 per option */
    size_t *at;     /* options of heap h: at[h] .. at[h + 1] - 1 */
    size_t n, cap;
    size_t max_elems; /* the size limit of a product */
} mopts;

static void mcand_clear(mcand *c)
{
    free(c->trans);
    free(c->label);
    memset(c, 0, sizeof *c);
}

static uint32_t act(const mcand *c, uint32_t u, const uint32_t *parts)
{
    int i;

    for (i = 0; i < 3; i++)
        if (parts[i])
            u = c->trans[(size_t)u * c->k + parts[i] - 1];
    return u;
}

static int opts_visit(void *ctx, const sgi_option *o)
{
    mopts *m = ctx;
    int i;

    if (sg_grow(&m->part, &m->cap, 3 * (m->n + 1), sizeof *m->part))
        return 1;
    for (i = 0; i < 3; i++)
        m->part[3 * m->n + i] = i < o->nparts ? (uint32_t)o->part[i] : 0;
    m->n++;
    return 0;
}

static int opts_build(const qctx *q, mopts *m)
{
    size_t h;

    memset(m, 0, sizeof *m);
    if (!(m->at = malloc((q->k + 2) * sizeof *m->at)))
        return -1;
    for (h = 1; h <= q->k; h++) {
        size_t before = m->n;
        m->at[h] = m->n;
        sgi_moves_heap(q->r, &q->g, h, opts_visit, m);
        if (m->n == before && sg_grow(&m->part, &m->cap, 3, sizeof *m->part))
            return -1;
    }
    m->at[q->k + 1] = m->n;
    m->at[0] = 0;
    return m->part ? 0 : -1;
}

/* The counter of a free heap after one more of it. */
static uint32_t bump(uint32_t c, uint32_t idx, uint32_t per)
{
    return c + 1 >= idx + per ? c + 1 - per : c + 1;
}

/* The product of the states of t reached by the heaps not free, times
 * a counter (idx[i], per[i]) for each free heap fh[i], restricted to
 * the states reached from the identity: into out.  0, 1 past the size
 * limit, -1 when out of memory. */
static int product(const mcand *t, const uint32_t *fh, const uint32_t *idx,
                   const uint32_t *per, size_t m, size_t max_elems, mcand *out)
{
    size_t k = t->k, kw = m + 1, cap = 0, nslots = 1024, n = 0, s, h, i;
    uint32_t *tup = NULL, *slot = NULL, *fi = NULL, *cur = NULL;
    int rc = -1;

    memset(out, 0, sizeof *out);
    out->k = k;
    if (!(fi = malloc((k + 1) * sizeof *fi)) ||
        !(cur = malloc(kw * sizeof *cur)) ||
        !(slot = calloc(nslots, sizeof *slot)))
        goto out;
    for (h = 0; h <= k; h++)
        fi[h] = UINT32_MAX;
    for (i = 0; i < m; i++)
        fi[fh[i]] = (uint32_t)i;
    if (sg_grow(&tup, &cap, kw, sizeof *tup))
        goto out;
    memset(tup, 0, kw * sizeof *tup);
    n = 1;
    slot[sgi_fnv1a(SG_FNV_OFFSET, tup, kw * sizeof *tup) & (nslots - 1)] = 1;
    for (s = 0; s < n; s++) {
        size_t capt = out->n * k;
        if (sg_grow(&out->trans, &capt, (s + 1) * k, sizeof *out->trans))
            goto out;
        out->n = s + 1;
        for (h = 1; h <= k; h++) {
            size_t at, sl;
            memcpy(cur, tup + s * kw, kw * sizeof *cur);
            if (fi[h] == UINT32_MAX)
                cur[0] = t->trans[(size_t)cur[0] * k + h - 1];
            else
                cur[1 + fi[h]] = bump(cur[1 + fi[h]], idx[fi[h]], per[fi[h]]);
            for (at = sgi_fnv1a(SG_FNV_OFFSET, cur, kw * sizeof *cur) &
                      (nslots - 1);
                 (sl = slot[at]) != 0; at = (at + 1) & (nslots - 1))
                if (!memcmp(tup + (sl - 1) * kw, cur, kw * sizeof *cur))
                    break;
            if (!sl) {
                if (n >= max_elems) {
                    rc = 1;
                    goto out;
                }
                if (sg_grow(&tup, &cap, (n + 1) * kw, sizeof *tup))
                    goto out;
                memcpy(tup + n * kw, cur, kw * sizeof *cur);
                slot[at] = (uint32_t)++n;
                sl = n;
                if (2 * n > nslots) {
                    size_t e, ns = 2 * nslots;
                    uint32_t *nsl = calloc(ns, sizeof *nsl);
                    if (!nsl)
                        goto out;
                    free(slot);
                    slot = nsl;
                    nslots = ns;
                    for (e = 0; e < n; e++) {
                        for (at = sgi_fnv1a(SG_FNV_OFFSET, tup + e * kw,
                                            kw * sizeof *tup) &
                                  (nslots - 1);
                             slot[at]; at = (at + 1) & (nslots - 1))
                            ;
                        slot[at] = (uint32_t)(e + 1);
                    }
                }
            }
            out->trans[s * k + h - 1] = (uint32_t)(sl - 1);
        }
    }
    rc = (out->label = calloc(n, 1)) ? 0 : -1;
out:
    free(tup);
    free(slot);
    free(fi);
    free(cur);
    if (rc)
        mcand_clear(out);
    return rc;
}

/* The marking's walk: the words with heaps d..k fixed, their element u
 * and the elements tr of their options (a bit set of nw words). */
typedef struct mark_ctx {
    mcand *c;
    const mopts *o;
    unsigned char *marked;
    uint64_t *tr; /* one set per depth */
    size_t nw;
} mark_ctx;

static void mark_leaf(mark_ctx *x, uint32_t u, const uint64_t *tr, int any)
{
    size_t i;
    int p = any;

    for (i = 0; i < x->nw && p; i++) {
        uint64_t b = tr[i];
        while (b && p) {
            size_t e = 64 * i + (size_t)__builtin_ctzll(b);
            b &= b - 1;
            if (x->marked[e] && x->c->label[e])
                p = 0;
        }
    }
    x->c->label[u] = (unsigned char)p;
    x->marked[u] = 1;
}

/* Mark the words whose heaps above d are fixed (element u, option set
 * tr, any: some heap of them has a move): heap d's count 0, 1, ...
 * until its element repeats one already marked. */
static void mark_walk(mark_ctx *x, size_t d, uint32_t u, const uint64_t *tr,
                      int any)
{
    const mcand *c = x->c;
    uint64_t *nt = x->tr + d * x->nw;
    size_t i, o;

    if (d == 0) {
        mark_leaf(x, u, tr, any);
        return;
    }
    memcpy(nt, tr, x->nw * sizeof *nt);
    for (;;) {
        uint64_t *next;
        mark_walk(x, d - 1, u, nt, any);
        if (x->o->at[d] == x->o->at[d + 1])
            break; /* heap d has no move: it is the identity */
        /* the options of w + d: those of w plus d, and w plus d's */
        next = x->tr + (d - 1) * x->nw; /* free again after the walk */
        memset(next, 0, x->nw * sizeof *next);
        for (i = 0; i < x->nw; i++) {
            uint64_t b = nt[i];
            while (b) {
                size_t e = 64 * i + (size_t)__builtin_ctzll(b);
                uint32_t f = c->trans[e * c->k + d - 1];
                b &= b - 1;
                next[f / 64] |= (uint64_t)1 << (f % 64);
            }
        }
        for (o = x->o->at[d]; o < x->o->at[d + 1]; o++) {
            uint32_t f = act(c, u, x->o->part + 3 * o);
            next[f / 64] |= (uint64_t)1 << (f % 64);
        }
        memcpy(nt, next, x->nw * sizeof *nt);
        u = c->trans[(size_t)u * c->k + d - 1];
        any = 1;
        if (x->marked[u])
            break;
    }
}

/* The P-portion of c from the least word of each element. */
static int mark(mcand *c, const mopts *o)
{
    mark_ctx x;
    uint64_t *top;

    x.c = c;
    x.o = o;
    x.nw = (c->n + 63) / 64;
    x.marked = calloc(c->n, 1);
    x.tr = calloc((c->k + 2) * x.nw, sizeof *x.tr);
    if (!x.marked || !x.tr) {
        free(x.marked);
        free(x.tr);
        return -1;
    }
    top = x.tr + (c->k + 1) * x.nw;
    mark_walk(&x, c->k, 0, top, 0);
    free(x.marked);
    free(x.tr);
    return 0;
}

/* c reduced (Moore's refinement by P and the heaps) and numbered
 * breadth first from the identity, into out with parent and pgen (the
 * walk's tree, as misere_check.c needs).  0, -1 when out of memory. */
static int reduce(const mcand *c, mcand *out, uint32_t **parent,
                  uint32_t **pgen)
{
    size_t n = c->n, k = c->k, u, h, ncls, m;
    uint32_t *cls = malloc(n * sizeof *cls), *ncl = malloc(n * sizeof *ncl);
    uint32_t *ord = NULL, *inv = NULL;
    int rc = -1;

    memset(out, 0, sizeof *out);
    if (!cls || !ncl ||
        !(ncls = sgi_mquot_moore(n, k, c->trans, c->label, cls)))
        goto out;
    /* the classes breadth first from the identity's */
    if (!(ord = malloc(ncls * sizeof *ord)) ||
        !(inv = malloc(ncls * sizeof *inv)) ||
        !(*parent = realloc(*parent, ncls * sizeof **parent)) ||
        !(*pgen = realloc(*pgen, ncls * sizeof **pgen)))
        goto out;
    for (u = 0; u < ncls; u++)
        inv[u] = SGI_MQUOT_NONE;
    for (u = 0; u < n; u++) /* a representative of each class */
        if (inv[cls[u]] == SGI_MQUOT_NONE)
            inv[cls[u]] = (uint32_t)u;
    memcpy(ncl, inv, ncls * sizeof *inv); /* class -> representative */
    for (u = 0; u < ncls; u++)
        inv[u] = SGI_MQUOT_NONE;
    m = 0;
    inv[cls[0]] = 0;
    ord[m++] = cls[0];
    (*parent)[0] = SGI_MQUOT_NONE;
    (*pgen)[0] = 0;
    for (u = 0; u < m; u++)
        for (h = 1; h <= k; h++) {
            uint32_t t = cls[c->trans[(size_t)ncl[ord[u]] * k + h - 1]];
            if (inv[t] == SGI_MQUOT_NONE) {
                inv[t] = (uint32_t)m;
                (*parent)[m] = (uint32_t)u;
                (*pgen)[m] = (uint32_t)h;
                ord[m++] = t;
            }
        }
    out->k = k;
    out->n = m;
    if (!(out->trans = malloc(m * k * sizeof *out->trans)) ||
        !(out->label = malloc(m)))
        goto out;
    for (u = 0; u < m; u++) {
        uint32_t r = ncl[ord[u]];
        out->label[u] = c->label[r];
        for (h = 1; h <= k; h++)
            out->trans[u * k + h - 1] =
                inv[cls[c->trans[(size_t)r * k + h - 1]]];
    }
    rc = 0;
out:
    free(cls);
    free(ncl);
    free(ord);
    free(inv);
    if (rc)
        mcand_clear(out);
    return rc;
}

/* A product of t (free heaps fh with their counters), marked and
 * reduced, into out: 0, 1 past the size limit, -1 out of memory. */
static int candidate(const mcand *t, const mopts *o, const uint32_t *fh,
                     const uint32_t *idx, const uint32_t *per, size_t m,
                     mcand *out, uint32_t **parent, uint32_t **pgen)
{
    mcand big;
    int rc = product(t, fh, idx, per, m, o->max_elems, &big);

    if (rc)
        return rc;
    rc = mark(&big, o) || reduce(&big, out, parent, pgen) ? -1 : 0;
    mcand_clear(&big);
    return rc;
}

/* Put candidate c into q as its hypothesis and run Theorem Q's check:
 * 0 when it passes, 1 when not (the failing sum in q->fail when the walk
 * found one, else q->nfail = 0), 2 past the budget, -1 on failure. */
static int install_check(qctx *q, const mcand *c, const uint32_t *parent,
                         const uint32_t *pgen)
{
    size_t n = c->n, u;
    int rc;

    if (!n || c->k != q->k)
        return 1;
    if (sg_grow(&q->trans, &q->captr, n * q->k, sizeof *q->trans) ||
        sg_grow(&q->label, &q->caplab, n, 1) ||
        sg_grow(&q->parent, &q->cappar, n, sizeof *q->parent) ||
        sg_grow(&q->pgen, &q->cappg, n, sizeof *q->pgen))
        return nomem(q), -1;
    memcpy(q->trans, c->trans, n * q->k * sizeof *q->trans);
    memcpy(q->label, c->label, n);
    memcpy(q->parent, parent, n * sizeof *parent);
    memcpy(q->pgen, pgen, n * sizeof *pgen);
    q->nq = n;
    q->hyp_complete = 1;
    if ((q->flags & SGI_MQUOT_MONOID_CORRUPT) && n > 1) /* tests: fool it */
        q->label[n / 2] ^= 1;
    q->nfail = 0;
    /* the product table is read off the tree parent/pgen: it must be
     * the candidate's own breadth-first tree, every state reached (4) */
    for (u = 1; u < n; u++)
        if (parent[u] >= u || pgen[u] < 1 || pgen[u] > q->k ||
            c->trans[(size_t)parent[u] * q->k + pgen[u] - 1] != u)
            return 1;
    q->check_only = 1;
    rc = sgi_mquot_check_commute(q);
    if (rc == 0)
        rc = sgi_mquot_build_mul(q);
    if (rc == 0)
        rc = sgi_mquot_check_outcomes(q);
    if (rc == 0) {
        rc = sgi_mquot_check_reduced(q);
        rc = rc < 0 ? -1 : !rc;
    }
    q->check_only = 0;
    return rc;
}

/* The index of heap h's element in c: the least i with h^i = h^j for
 * some j > i. */
static uint32_t elem_index(const mcand *c, size_t h, uint32_t *seen_at)
{
    uint32_t u = 0, i = 0, r;

    for (;;) {
        if (seen_at[u] != UINT32_MAX)
            break;
        seen_at[u] = i++;
        u = c->trans[(size_t)u * c->k + h - 1];
    }
    r = seen_at[u];
    /* clear the marks along the orbit */
    for (u = 0;; u = c->trans[(size_t)u * c->k + h - 1]) {
        if (seen_at[u] == UINT32_MAX)
            break;
        seen_at[u] = UINT32_MAX;
    }
    return r;
}

/* Recalibrate cur at the failing sum x (sorted, len): free one heap of
 * x, then two, ..., with counters as deep as x needs, and keep the
 * first candidate whose P-portion at x is the other answer.  1 when one
 * was found (cur replaced), 0 when none, -1 on failure. */
static int recalibrate(qctx *q, mcand *cur, const mopts *o, const uint32_t *x,
                       size_t len, uint32_t **parent, uint32_t **pgen,
                       size_t *tries)
{
    uint32_t d[16], cnt[16], fh[16], idx[16], per[16], *seen = NULL, u = 0;
    size_t nd = 0, i, size;
    unsigned mask;
    int want, rc = 0;

    for (i = 0; i < len; i++) {
        u = cur->trans[(size_t)u * cur->k + x[i] - 1];
        if (o->at[x[i]] == o->at[x[i] + 1])
            continue; /* no move: the identity */
        if (nd && d[nd - 1] == x[i])
            cnt[nd - 1]++;
        else if (nd < 16) {
            d[nd] = x[i];
            cnt[nd++] = 1;
        }
    }
    want = !cur->label[u];
    if (!nd || !(seen = malloc(cur->n * sizeof *seen)))
        return nd ? -1 : 0;
    for (i = 0; i < cur->n; i++)
        seen[i] = UINT32_MAX;
    for (size = 1; size <= nd && !rc; size++)
        for (mask = 1; mask < 1u << nd && !rc; mask++) {
            size_t m = 0, b;
            mcand next;
            uint32_t v = 0;
            int r;
            if ((size_t)__builtin_popcount(mask) != size)
                continue;
            if (++*tries > MON_MAX_TRIES || (q->cancel && *q->cancel)) {
                free(seen);
                return 0;
            }
            for (b = 0; b < nd; b++)
                if (mask >> b & 1) {
                    uint32_t ix = elem_index(cur, d[b], seen);
                    if (ix < cnt[b] - 1)
                        ix = cnt[b] - 1;
                    fh[m] = d[b];
                    idx[m] = ix;
                    per[m++] = ix >= 8 ? 2 * ((ix - 4) / 2) : 2;
                }
            r = candidate(cur, o, fh, idx, per, m, &next, parent, pgen);
            if (r < 0) {
                rc = -1;
                break;
            }
            if (r)
                continue;
            for (i = 0; i < len; i++)
                v = next.trans[(size_t)v * next.k + x[i] - 1];
            if (next.label[v] == want) {
                mcand_clear(cur);
                *cur = next;
                rc = 1;
            } else
                mcand_clear(&next);
        }
    free(seen);
    return rc;
}

int sgi_mquot_monoid(qctx *q)
{
    mcand cur, start;
    mopts o;
    uint32_t *parent = NULL, *pgen = NULL, *x = NULL, fh, idx = 2, per = 2;
    size_t k = q->k, u, h, tries = 0, nx, states0 = q->states;
    int rc = -1;

    memset(&cur, 0, sizeof cur);
    memset(&start, 0, sizeof start);
    memset(&o, 0, sizeof o);
    if (k < 2)
        return 0;
    if (opts_build(q, &o))
        goto oom;
    o.max_elems = q->budget / (8 * (k + 2));
    if (o.max_elems > MON_MAX_ELEMS)
        o.max_elems = MON_MAX_ELEMS;
    /* Q_{k-1} with heap k the identity, then heap k free (index 2,
     * period 2) */
    start.k = k;
    start.n = q->pnq;
    if (!(start.trans = malloc(q->pnq * k * sizeof *start.trans)) ||
        !(start.label = calloc(q->pnq, 1)))
        goto oom;
    for (u = 0; u < q->pnq; u++) {
        for (h = 1; h < k; h++)
            start.trans[u * k + h - 1] = q->ptrans[u * q->pk + h - 1];
        start.trans[u * k + k - 1] = (uint32_t)u;
    }
    fh = (uint32_t)k;
    if ((rc = candidate(&start, &o, &fh, &idx, &per, 1, &cur, &parent,
                        &pgen)) != 0) {
        rc = rc < 0 ? -1 : 0;
        if (rc < 0)
            nomem(q);
        goto out;
    }
    for (;;) {
        int r = cur.n > MON_ORDER_FACTOR * q->max_order
                    ? 2
                    : install_check(q, &cur, parent, pgen);
        if (r <= 0 || r == 2) {
            /* a candidate that passed is the quotient, whatever its
             * order: past --max-order that is a proof it is larger */
            rc = r == 0 ? (cur.n > q->max_order ? 2 : 1) : r == 2 ? 0 : -1;
            break;
        }
        if (!q->nfail) {
            rc = 0;
            break;
        }
        nx = q->nfail;
        free(x);
        if (!(x = malloc(nx * sizeof *x)))
            goto oom;
        memcpy(x, q->fail, nx * sizeof *x);
        r = recalibrate(q, &cur, &o, x, nx, &parent, &pgen, &tries);
        if (r <= 0) {
            rc = r < 0 ? (nomem(q), -1) : 0;
            break;
        }
    }
    if (rc != 1) /* proof_states counts the walks of proven heaps only */
        q->states = states0;
    goto out; /* rc 1: the hypothesis stays in q, proven */
oom:
    nomem(q);
    rc = -1;
out:
    free(x);
    free(parent);
    free(pgen);
    free(o.part);
    free(o.at);
    mcand_clear(&cur);
    mcand_clear(&start);
    return rc;
}
