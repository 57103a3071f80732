/*
 * misere_check.c - the proof of a misère quotient's hypothesis, Theorem Q's
 * finite check (the method is at the top of misere_quot.c): (1) the heaps
 * commute on the states, (2) the breadth-first walk over the states (u, f,
 * C) confirms every outcome, (3) no two states are indistinguishable.  A
 * failed check hands a counterexample to misere_learn.c; the same checks
 * confirm a quotient read from elsewhere (sgi_mquot_verify).
 */
#include "misere_quot_impl.h"
#include "base/fnv.h"

#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ */
/* The proof                                                            */
/* ------------------------------------------------------------------ */

/* (1): the heaps commute on every state.  0 when they do, 1 when a
 * counterexample was found and refined, -1 on failure. */
int sgi_mquot_check_commute(qctx *q)
{
    size_t s, i, j, t, L;
    uint32_t *path = NULL;
    size_t cap = 0;
    int rc;

    for (s = 0; s < q->nq; s++)
        for (i = 1; i <= q->k; i++)
            for (j = i + 1; j <= q->k; j++) {
                uint32_t x = q->trans[s * q->k + i - 1];
                uint32_t y = q->trans[s * q->k + j - 1];
                uint32_t a = q->trans[(size_t)x * q->k + j - 1];
                uint32_t b = q->trans[(size_t)y * q->k + i - 1];
                size_t ra, rb;
                int truth;
                if (a == b)
                    continue;
                if (q->check_only)
                    return 1;
                ra = q->rep[a];
                rb = q->rep[b];
                for (t = 0; t < q->nT && row_bit(q, ra, t) == row_bit(q, rb, t);
                     t++)
                    ;
                if (sgi_mquot_state_path(q, (uint32_t)s, &path, &cap, &L))
                    return nomem(q), -1;
                path[L] = (uint32_t)i;
                path[L + 1] = (uint32_t)j;
                {
                    size_t xl, tl, n;
                    const uint32_t *xw = wtab_word(&q->w, q->rep[s], &xl);
                    const uint32_t *tw = wtab_word(&q->w, q->T[t], &tl);
                    uint32_t ij[2] = {(uint32_t)i, (uint32_t)j};
                    if ((n = sgi_mquot_merge(&q->a, &q->capa, xw, xl, ij, 2)) ==
                            SIZE_MAX ||
                        (n = sgi_mquot_merge(&q->b, &q->capb, q->a, n, tw,
                                             tl)) == SIZE_MAX) {
                        free(path);
                        return nomem(q), -1;
                    }
                    if ((truth = sgi_mquot_is_p(q, q->b, n)) < 0) {
                        free(path);
                        return -1;
                    }
                }
                if (truth == row_bit(q, ra, t)) { /* then b is wrong */
                    path[L] = (uint32_t)j;
                    path[L + 1] = (uint32_t)i;
                }
                rc = sgi_mquot_refine(q, path, L + 2, q->T[t]);
                free(path);
                return rc ? -1 : 1;
            }
    free(path);
    return 0;
}

/* Moore's refinement of the states 0..n-1 (heaps 1..k acting by trans,
 * label the P-portion): cls[u] the class of u, classes numbered in the
 * order of their first state.  The number of classes, or 0 when out of
 * memory. */
size_t sgi_mquot_moore(size_t n, size_t k, const uint32_t *trans,
                       const unsigned char *label, uint32_t *cls)
{
    size_t u, i, ncls = 2, prev = 0, nslots = 1024;
    uint32_t *ncl = malloc((n ? n : 1) * sizeof *ncl);
    uint32_t *sig = malloc((k + 1) * sizeof *sig);
    size_t *slot = NULL;

    while (nslots < 2 * n)
        nslots *= 2;
    if (!ncl || !sig || !(slot = malloc(nslots * sizeof *slot))) {
        ncls = 0;
        goto out;
    }
    for (u = 0; u < n; u++)
        cls[u] = label[u];
    while (ncls != prev) {
        size_t at, sl;
        prev = ncls;
        ncls = 0;
        memset(slot, 0, nslots * sizeof *slot);
        for (u = 0; u < n; u++) {
            uint64_t h;
            sig[0] = cls[u];
            for (i = 1; i <= k; i++)
                sig[i] = cls[trans[u * k + i - 1]];
            h = sgi_fnv1a(SG_FNV_OFFSET, sig, (k + 1) * sizeof *sig);
            for (at = h & (nslots - 1); (sl = slot[at]) != 0;
                 at = (at + 1) & (nslots - 1)) {
                size_t v = sl - 1;
                if (cls[v] != sig[0])
                    continue;
                for (i = 1; i <= k; i++)
                    if (cls[trans[v * k + i - 1]] != sig[i])
                        break;
                if (i > k)
                    break;
            }
            if (sl) {
                ncl[u] = ncl[sl - 1];
            } else {
                slot[at] = u + 1;
                ncl[u] = (uint32_t)ncls++;
            }
        }
        memcpy(cls, ncl, n * sizeof *cls);
    }
out:
    free(ncl);
    free(sig);
    free(slot);
    return ncls;
}

/* (3): no two states are indistinguishable in (Q, P) (Moore's
 * refinement: u and v part when some word leads one into P and not the
 * other).  1 when the hypothesis is reduced, 0 when not, -1 on failure. */
int sgi_mquot_check_reduced(const qctx *q)
{
    uint32_t *cls = malloc((q->nq ? q->nq : 1) * sizeof *cls);
    size_t ncls;

    if (!cls)
        return -1;
    ncls = sgi_mquot_moore(q->nq, q->k, q->trans, q->label, cls);
    free(cls);
    return ncls ? ncls == q->nq : -1;
}

/* The product table from the walk's tree: mul[u][v] = u rep(v).  0, 2
 * past the budget (said), -1 when out of memory. */
int sgi_mquot_build_mul(qctx *q)
{
    size_t u, v, n = q->nq;

    if (n * n * sizeof *q->mul > q->budget) {
        sg_error_set(q->err, SG_E_UNKNOWN, -1,
                     "too large: the product table of %zu elements needs "
                     "more than %zu MiB",
                     n, q->budget >> 20);
        return 2;
    }
    if (sg_grow(&q->mul, &q->capmul, n * n, sizeof *q->mul))
        return nomem(q), -1;
    for (u = 0; u < n; u++) {
        uint32_t *row = q->mul + u * n;
        row[0] = (uint32_t)u;
        for (v = 1; v < n; v++)
            row[v] =
                q->trans[(size_t)row[q->parent[v]] * q->k + q->pgen[v] - 1];
    }
    return 0;
}

/* The options of one heap as elements. */
typedef struct opt_walk {
    const qctx *q;
    unsigned char *seen; /* per element */
    uint32_t *list;
    size_t n;
    int any;
} opt_walk;

static int opt_visit(void *ctx, const sgi_option *o)
{
    opt_walk *w = ctx;
    uint32_t parts[3], u;
    int k;

    w->any = 1;
    for (k = 0; k < o->nparts; k++)
        parts[k] = (uint32_t)o->part[k];
    u = hyp_read(w->q, 0, parts, (size_t)o->nparts);
    if (!w->seen[u]) {
        w->seen[u] = 1;
        w->list[w->n++] = u;
    }
    return 0;
}

/* The options of heap x[i] in the sorted sum x: the first whose true
 * outcome differs from the hypothesis's is refined (1); 0 when none
 * does, -1 on failure. */
static int option_check(qctx *q, const uint32_t *x, size_t len, size_t i)
{
    opt_list l;
    uint32_t *y = malloc((len + 3) * sizeof *y);
    size_t j, a, n;
    int rc = 0;

    memset(&l, 0, sizeof l);
    if (!y)
        return nomem(q), -1;
    sgi_moves_heap(q->r, &q->g, x[i], sgi_mquot_list_visit, &l);
    if (l.failed) {
        rc = -1;
        nomem(q);
    }
    for (j = 0; j < l.n && !rc; j++) {
        int k, truth;
        for (n = 0, a = 0; a < len; a++)
            if (a != i)
                y[n++] = x[a];
        for (k = 0; k < l.o[j].nparts; k++)
            y[n++] = (uint32_t)l.o[j].part[k];
        qsort(y, n, sizeof *y, cmp_u32);
        if ((truth = sgi_mquot_is_p(q, y, n)) < 0) {
            rc = -1;
            break;
        }
        if (truth != q->label[hyp_read(q, 0, y, n)])
            rc = sgi_mquot_refine(q, y, n, q->T[0]) ? -1 : 1;
    }
    free(l.o);
    free(y);
    return rc;
}

/* One state of the proof's walk. */
typedef struct pstate {
    uint32_t u, parent, heap;
    unsigned char flag;
} pstate;

/* The states of the proof's walk, each (u, f, C) once: C as nw words per
 * state, found again through an open-addressed table of ids + 1. */
typedef struct pwalk {
    pstate *ps;
    uint64_t *C;
    size_t nps, capps, capC, nw;
    size_t *slot, nslots;
} pwalk;

#define STATE_C(w, id) ((w)->C + (size_t)(id) * (w)->nw)

/* G_i (bit w: some option o of heap i has w o in P) and whether heap i
 * has a move, for i = 1..k; into kind[] the heaps that act differently
 * (same transitions, G_i and move: kept once).  seen and list are
 * scratch of n entries.  Returns the number of kinds. */
static size_t heap_kinds(const qctx *q, uint64_t *G, unsigned char *nonterm,
                         uint32_t *kind, unsigned char *seen, uint32_t *list)
{
    size_t n = q->nq, nw = (n + 63) / 64, i, kinds = 0;

    for (i = 1; i <= q->k; i++) {
        opt_walk ow;
        size_t w, j;
        memset(&ow, 0, sizeof ow);
        ow.q = q;
        ow.seen = seen;
        ow.list = list;
        sgi_moves_heap(q->r, &q->g, i, opt_visit, &ow);
        nonterm[i] = (unsigned char)ow.any;
        for (j = 0; j < ow.n; j++)
            seen[list[j]] = 0;
        for (w = 0; w < n; w++)
            for (j = 0; j < ow.n; j++)
                if (q->label[q->mul[w * n + list[j]]]) {
                    G[i * nw + w / 64] |= (uint64_t)1 << (w % 64);
                    break;
                }
        for (j = 0; j < kinds; j++) {
            size_t o = kind[j], u;
            if (nonterm[o] != nonterm[i] ||
                memcmp(G + o * nw, G + i * nw, nw * sizeof *G))
                continue;
            for (u = 0; u < n && q->trans[u * q->k + o - 1] ==
                                     q->trans[u * q->k + i - 1];
                 u++)
                ;
            if (u == n)
                break;
        }
        if (j == kinds)
            kind[kinds++] = (uint32_t)i;
    }
    return kinds;
}

/* Add the state (u, f, cc) reached from state par by heap h, unless the
 * walk has it: 0, 2 past the budget (said), -1 when out of memory. */
static int pwalk_add(const qctx *q, pwalk *w, uint32_t u, int f,
                     const uint64_t *cc, uint32_t par, uint32_t h)
{
    size_t nw = w->nw, at, sl;
    uint64_t hsh =
        sgi_fnv1a(SG_FNV_OFFSET ^ u ^ ((uint64_t)f << 40), cc, nw * sizeof *cc);

    if (2 * (w->nps + 1) > w->nslots || !w->slot) {
        size_t ns = w->slot ? 2 * w->nslots : w->nslots, *old = w->slot, e;
        if (!(w->slot = calloc(ns, sizeof *w->slot))) {
            w->slot = old;
            return -1;
        }
        free(old);
        w->nslots = ns;
        for (e = 0; e < w->nps; e++) {
            uint64_t h2 = sgi_fnv1a(SG_FNV_OFFSET ^ w->ps[e].u ^
                                        ((uint64_t)w->ps[e].flag << 40),
                                    STATE_C(w, e), nw * sizeof *w->C);
            for (at = h2 & (w->nslots - 1); w->slot[at];
                 at = (at + 1) & (w->nslots - 1))
                ;
            w->slot[at] = e + 1;
        }
    }
    for (at = hsh & (w->nslots - 1); (sl = w->slot[at]) != 0;
         at = (at + 1) & (w->nslots - 1))
        if (w->ps[sl - 1].u == u && w->ps[sl - 1].flag == f &&
            !memcmp(STATE_C(w, sl - 1), cc, nw * sizeof *w->C))
            break;
    if (sl)
        return 0;
    if ((w->nps + 1) * (nw * sizeof *w->C + sizeof *w->ps) +
            w->nslots * sizeof *w->slot >
        q->budget) {
        sg_error_set(q->err, SG_E_UNKNOWN, -1,
                     "too large: the quotient's proof needs more "
                     "than %zu MiB (%zu states)",
                     q->budget >> 20, w->nps);
        return 2;
    }
    if (sg_grow(&w->ps, &w->capps, w->nps + 1, sizeof *w->ps) ||
        sg_grow(&w->C, &w->capC, (w->nps + 1) * nw, sizeof *w->C))
        return -1;
    w->ps[w->nps].u = u;
    w->ps[w->nps].flag = (unsigned char)f;
    w->ps[w->nps].parent = par;
    w->ps[w->nps].heap = h;
    memcpy(STATE_C(w, w->nps), cc, nw * sizeof *w->C);
    w->slot[at] = ++w->nps;
    return 0;
}

/* State s of the walk fails (2): its sum x, or one of x's options, is a
 * counterexample (the true outcomes obey (2)), refined.  1 when found,
 * -1 on failure (an inconsistency when none is: said). */
static int outcome_counterexample(qctx *q, const pwalk *w, size_t s)
{
    size_t L = 0, xl, o, i, cappath = 0;
    uint32_t t, *path = NULL;
    int truth, rc = -1;

    for (t = (uint32_t)s; t != 0; t = w->ps[t].parent)
        L++;
    if (sg_grow(&path, &cappath, L + 3, sizeof *path))
        goto oom;
    for (t = (uint32_t)s, i = L; t != 0; t = w->ps[t].parent)
        path[--i] = w->ps[t].heap;
    if (sg_grow(&q->a, &q->capa, L + 1, sizeof *q->a))
        goto oom;
    memcpy(q->a, path, L * sizeof *path);
    qsort(q->a, L, sizeof *q->a, cmp_u32);
    if ((truth = sgi_mquot_is_p(q, q->a, L)) < 0)
        goto out;
    if (truth != q->label[w->ps[s].u]) {
        rc = sgi_mquot_refine(q, path, L, q->T[0]) ? -1 : 1;
        goto out;
    }
    xl = L;
    memcpy(path, q->a, xl * sizeof *path); /* x, sorted */
    for (o = 0; o < xl; o++) {
        int r2;
        if (o && path[o] == path[o - 1])
            continue;
        if ((r2 = option_check(q, path, xl, o)) != 0) {
            rc = r2;
            goto out;
        }
    }
    q->inconsistent = 1;
    /* the fast oracle took x for another sum of the same key: the next
     * rung counts x's heaps exactly */
    if (!sg_grow(&q->fail, &q->capfail, xl + 1, sizeof *q->fail)) {
        memcpy(q->fail, path, xl * sizeof *path);
        q->nfail = xl;
    }
    sg_error_set(q->err, SG_E_UNKNOWN, -1,
                 "misère quotient: internal inconsistency (a failed "
                 "check with no counterexample)");
    goto out;
oom:
    nomem(q);
out:
    free(path);
    return rc;
}

/* The sum of walk state s, sorted, into q->fail (the failing sum a
 * check_only caller may use): 1, or -1 when out of memory. */
static int failing_sum(qctx *q, const pwalk *w, size_t s)
{
    size_t L = 0;
    uint32_t t;

    for (t = (uint32_t)s; t != 0; t = w->ps[t].parent)
        L++;
    if (sg_grow(&q->fail, &q->capfail, L + 1, sizeof *q->fail))
        return nomem(q), -1;
    q->nfail = L;
    for (t = (uint32_t)s; t != 0; t = w->ps[t].parent)
        q->fail[--L] = w->ps[t].heap;
    qsort(q->fail, q->nfail, sizeof *q->fail, cmp_u32);
    return 1;
}

/* (2): the walk over (u, f, C).  0 when every state passes, 1 when a
 * counterexample was found and refined, 2 past the budget (said), -1 on
 * failure. */
int sgi_mquot_check_outcomes(qctx *q)
{
    size_t n = q->nq, nw = (n + 63) / 64, i, s, kinds;
    uint64_t *G = NULL, *tmp = NULL;
    unsigned char *nonterm = NULL, *seen = NULL;
    uint32_t *list = NULL, *kind = NULL;
    pwalk w;
    int rc = -1, a;

    memset(&w, 0, sizeof w);
    w.nw = nw;
    w.nslots = 4096;
    if (!(G = calloc((q->k + 1) * nw, sizeof *G)) ||
        !(nonterm = calloc(q->k + 1, 1)) || !(seen = calloc(n, 1)) ||
        !(list = malloc(n * sizeof *list)) ||
        !(kind = malloc((q->k + 1) * sizeof *kind)) ||
        !(tmp = malloc(nw * sizeof *tmp)))
        goto oom;
    kinds = heap_kinds(q, G, nonterm, kind, seen, list);
    /* the walk */
    for (i = 0; i < nw; i++)
        tmp[i] = ~(uint64_t)0;
    if (n % 64)
        tmp[nw - 1] = ((uint64_t)1 << (n % 64)) - 1;
    if ((a = pwalk_add(q, &w, 0, 0, tmp, SGI_MQUOT_NONE, 0)) != 0)
        goto added;
    for (s = 0; s < w.nps; s++) {
        uint32_t u = w.ps[s].u;
        if (q->cancel && *q->cancel && s % 1024 == 0) {
            sg_error_set(q->err, SG_E_INTERRUPTED, -1, "interrupted");
            goto out;
        }
        int flag = w.ps[s].flag, ok;
        size_t j;
        ok = q->label[u] == (flag && (STATE_C(&w, s)[0] & 1));
        if (!ok)
            break;
        for (j = 0; j < kinds; j++) {
            size_t h = kind[j], v;
            const uint32_t *mu = q->mul + (size_t)u * n;
            const uint64_t *Gh = G + h * nw;
            memset(tmp, 0, nw * sizeof *tmp);
            for (v = 0; v < n; v++) {
                uint32_t t = q->trans[v * q->k + h - 1];
                if ((STATE_C(&w, s)[t / 64] >> (t % 64) & 1) &&
                    !(Gh[mu[v] / 64] >> (mu[v] % 64) & 1))
                    tmp[v / 64] |= (uint64_t)1 << (v % 64);
            }
            if ((a = pwalk_add(q, &w, q->trans[(size_t)u * q->k + h - 1],
                               flag | nonterm[h], tmp, (uint32_t)s,
                               (uint32_t)h)) != 0)
                goto added;
        }
    }
    q->states += w.nps;
    if (s == w.nps)
        rc = 0;
    else if (q->check_only)
        rc = failing_sum(q, &w, s);
    else
        rc = outcome_counterexample(q, &w, s);
    goto out;
added:
    if (a == 2) {
        rc = 2;
        goto out;
    }
oom:
    nomem(q);
    rc = -1;
out:
    free(G);
    free(w.C);
    free(tmp);
    free(nonterm);
    free(seen);
    free(list);
    free(kind);
    free(w.ps);
    free(w.slot);
    return rc;
}

#undef STATE_C

int sgi_mquot_verify(const sg_rule *r, size_t k, size_t nq,
                     const uint32_t *trans, const unsigned char *label,
                     size_t budget, sg_error *err)
{
    qctx q;
    uint32_t *inv = NULL, *ord = NULL;
    size_t n = 0, i, h;
    int rc = -1;

    memset(&q, 0, sizeof q);
    q.r = r;
    q.k = k;
    q.budget = budget;
    q.err = err;
    q.check_only = 1;
    sg_seq_init(&q.g);
    if (sg_enumerate(&q.g, r, k + 2, NULL, err))
        goto out;
    /* the states renumbered in breadth-first order from 0 (the walk's
     * tree, as the construction numbers them); (4): all reached */
    if (!nq || !(inv = malloc(nq * sizeof *inv)) ||
        !(ord = malloc(nq * sizeof *ord)) ||
        !(q.trans = malloc((nq * k > 0 ? nq * k : 1) * sizeof *q.trans)) ||
        !(q.label = malloc(nq)) ||
        !(q.parent = malloc(nq * sizeof *q.parent)) ||
        !(q.pgen = malloc(nq * sizeof *q.pgen))) {
        nomem(&q);
        goto out;
    }
    for (i = 0; i < nq; i++)
        inv[i] = SGI_MQUOT_NONE;
    inv[0] = 0;
    ord[n++] = 0;
    q.parent[0] = SGI_MQUOT_NONE;
    q.pgen[0] = 0;
    for (i = 0; i < n; i++)
        for (h = 1; h <= k; h++) {
            uint32_t t = trans[(size_t)ord[i] * k + h - 1];
            if (t >= nq) {
                rc = 1;
                goto out;
            }
            if (inv[t] == SGI_MQUOT_NONE) {
                inv[t] = (uint32_t)n;
                q.parent[n] = (uint32_t)i;
                q.pgen[n] = (uint32_t)h;
                ord[n++] = t;
            }
        }
    if (n != nq) {
        rc = 1;
        goto out;
    }
    for (i = 0; i < nq; i++) {
        q.label[i] = label[ord[i]];
        for (h = 1; h <= k; h++)
            q.trans[i * k + h - 1] = inv[trans[(size_t)ord[i] * k + h - 1]];
    }
    q.nq = nq;
    if ((rc = sgi_mquot_check_commute(&q)) != 0)
        goto out;
    if (sgi_mquot_build_mul(&q)) {
        rc = -1;
        goto out;
    }
    if ((rc = sgi_mquot_check_outcomes(&q)) != 0) {
        if (rc == 2)
            rc = -1;
        goto out;
    }
    rc = sgi_mquot_check_reduced(&q);
    rc = rc < 0 ? -1 : !rc;
out:
    free(inv);
    free(ord);
    free(q.trans);
    free(q.label);
    free(q.parent);
    free(q.pgen);
    free(q.mul);
    free(q.fail);
    sg_seq_clear(&q.g);
    return rc;
}
