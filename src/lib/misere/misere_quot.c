/*
 * misere_quot.c - misère quotients of heap games (docs/MISERE.md,
 * "Misère quotients"): Q_k, the sums of heaps 1..k modulo misère
 * indistinguishability among themselves, for k = 1, 2, ..., n.
 *
 * Each Q_k is first learned and then proven.
 *
 * Learning (after Angluin's L* with Rivest and Schapire's analysis of
 * counterexamples): the states are sums of heaps (words), two of them
 * told apart when some test sum t of the list T gives them different
 * outcomes.  The outcomes come from a ladder of oracles (misere_learn.c):
 * the fast one keyed by the proven Q_{k-1}, its recalibrated rungs after
 * MisereSolver (next_rung below), and last the exact search of misere.c
 * (sums of heaps 1..k-1 answered by the proven Q_{k-1} at once).  From
 * the empty word, every state times every heap 1..k is matched with the
 * state of the same outcomes over T, or becomes a new state: a
 * hypothesis (Q, P, Phi).  With the exact search the states are told
 * apart by true outcomes, so there are never more than the true order:
 * past max_order the true quotient is larger (a fast rung past it only
 * moves to the next rung).
 *
 * Proof: the hypothesis is the quotient when (1) the heaps act
 * commutatively on the states, and (2) for every sum x,
 *   Phi(x) in P  <=>  x has a move and no move of x leads into P,
 * because then Phi(x) in P exactly when x is a P-position (induction
 * on x), the states are told apart by true outcomes, hence by P, and
 * Phi is onto.  (2) ranges over infinitely many sums but depends on x
 * only through (Phi(x), whether x has a move, C(x)) with
 *   C(x) = { s : for every heap i of x, no option y of heap i has
 *            Phi(x - i) Phi(y) s in P },
 * and adding a heap i maps (u, f, C) to
 *   (u q_i, f or i has a move, { s : s q_i in C and u s not in G_i }),
 * G_i = { w : w o in P for some option o of heap i }: the states
 * reachable from (1, no, Q) are finitely many and visited by a
 * breadth-first walk, which checks (2) at each: u in P <=> f and 1 in C.
 *
 * A failure of (1) or (2) gives a sum whose true outcome differs from
 * the hypothesis's; the Rivest-Schapire binary search along its word
 * finds a new test sum, which adds at least one state.
 *
 * This file runs the method heap by heap (sg_misere_quotient_from); the
 * learning is in misere_learn.c, the proof in misere_check.c, and the
 * presentation of a proven quotient (and positions it decides) in
 * misere_present.c.
 */
#include "misere_quot_impl.h"

#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ */
/* The quotients heap by heap                                           */
/* ------------------------------------------------------------------ */

void sg_mquot_init(sg_mquot *q)
{
    memset(q, 0, sizeof *q);
}

void sg_mquot_clear(sg_mquot *q)
{
    free(q->orders);
    free(q->trans);
    free(q->p);
    free(q->heap);
    free(q->mul);
    free(q->gen_heap);
    free(q->nf);
    free(q->rel);
    free(q->rel_rhs);
    free(q->tests);
    free(q->test_at);
    memset(q, 0, sizeof *q);
}

/* Keep the proven hypothesis of heaps 1..k as the fast path's quotient. */
static int keep_proven(qctx *q)
{
    size_t n = q->nq * q->k;
    uint32_t *t = malloc((n ? n : 1) * sizeof *t);
    unsigned char *l = malloc(q->nq);

    if (!t || !l) {
        free(t);
        free(l);
        return nomem(q), -1;
    }
    memcpy(t, q->trans, n * sizeof *t);
    memcpy(l, q->label, q->nq);
    free(q->ptrans);
    free(q->plabel);
    q->ptrans = t;
    q->plabel = l;
    q->pk = q->k;
    q->pnq = q->nq;
    return 0;
}

static void qctx_clear(qctx *q)
{
    sgi_mquot_fast_reset(q);
    free(q->free_heap);
    free(q->free_idx);
    free(q->fail);
    free(q->btrans);
    free(q->fold_at);
    sgi_mis_search_free(q->search);
    sg_seq_clear(&q->g);
    sgi_mquot_wtab_clear(&q->w);
    free(q->T);
    free(q->rep);
    free(q->parent);
    free(q->pgen);
    free(q->trans);
    free(q->label);
    free(q->mul);
    free(q->ptrans);
    free(q->plabel);
    free(q->a);
    free(q->b);
}

/* The result m from the proven quotient of heaps 1..q->pk, with the
 * test sums a later run resumes from. */
static sg_status result(sg_mquot *m, qctx *q, sg_error *err)
{
    size_t n = q->pnq, k = q->pk, t, at = 0;

    m->heaps = k;
    m->order = n;
    if (!(m->trans = malloc((n * k > 0 ? n * k : 1) * sizeof *m->trans)) ||
        !(m->p = malloc(n)) ||
        !(m->test_at = malloc((q->nT + 1) * sizeof *m->test_at)) ||
        !(m->tests = malloc((q->w.npool ? q->w.npool : 1) * sizeof *m->tests)))
        return sg_error_set(err, SG_E_NOMEM, -1, "out of memory");
    memcpy(m->trans, q->ptrans, n * k * sizeof *m->trans);
    memcpy(m->p, q->plabel, n);
    for (t = 0; t < q->nT; t++) {
        size_t len;
        const uint32_t *x = wtab_word(&q->w, q->T[t], &len);
        m->test_at[t] = at;
        if (len)
            memcpy(m->tests + at, x, len * sizeof *x);
        at += len;
    }
    m->test_at[q->nT] = at;
    return sgi_mquot_complete(m, err);
}

/* Start q from the proven quotient `from` (heaps, order, trans, p,
 * orders, test sums): 0, or -1 when out of memory (said). */
static int resume(qctx *q, sg_mquot *m, const sg_mquot *from)
{
    size_t n = from->order, k = from->heaps, t;

    free(q->ptrans);
    free(q->plabel);
    q->ptrans = malloc((n * k > 0 ? n * k : 1) * sizeof *q->ptrans);
    q->plabel = malloc(n);
    if (!q->ptrans || !q->plabel)
        return nomem(q), -1;
    memcpy(q->ptrans, from->trans, n * k * sizeof *q->ptrans);
    memcpy(q->plabel, from->p, n);
    q->pk = k;
    q->pnq = n;
    memcpy(m->orders, from->orders, (k + 1) * sizeof *m->orders);
    /* test sum 0 is the empty word, already in T */
    for (t = 1; t < from->suffixes; t++) {
        size_t id = sgi_mquot_wtab_get(&q->w, from->tests + from->test_at[t],
                                       from->test_at[t + 1] - from->test_at[t]);
        if (id == SIZE_MAX ||
            sg_grow(&q->T, &q->capT, q->nT + 1, sizeof *q->T) ||
            sgi_mquot_wtab_widen(&q->w, q->nT + 1))
            return nomem(q), -1;
        if (id != q->T[0])
            q->T[q->nT++] = id;
    }
    q->states = from->states;
    m->fast_heaps = from->fast_heaps;
    m->resumed_from = k;
    return 0;
}

/* The fast oracle's next rung for heap k, after it contradicted itself
 * at the sum q->fail (MisereSolver's recalibration, in our terms): the
 * states of the rest of w are now the last hypothesis's, and some heaps
 * of the failing sum are counted on their own (each up to its count
 * there, then modulo 2), the fewest that make the oracle obey the rule
 * of play at that sum.  1: a rung set, 0: none left (the exact search
 * next), -1 when out of memory. */
static int next_rung(qctx *q)
{
    uint32_t d[16], h[16], *x;
    size_t nd = 0, nx = q->nfail, i, size;
    int rc = 1;

    if (++q->rung > SGI_MQUOT_MAX_RUNGS || !nx)
        return 0;
    if (q->hyp_complete) {
        size_t nt = q->nq * q->k;
        uint32_t *b = malloc((nt ? nt : 1) * sizeof *b);
        if (!b)
            return nomem(q), -1;
        memcpy(b, q->trans, nt * sizeof *b);
        free(q->btrans);
        q->btrans = b;
        q->bk = q->k;
    }
    if (!(x = malloc(nx * sizeof *x)))
        return nomem(q), -1;
    memcpy(x, q->fail, nx * sizeof *x);
    q->nfail = 0;
    for (i = 0; i < nx; i++) {
        size_t c = 1;
        while (i + 1 < nx && x[i + 1] == x[i])
            i++, c++;
        if (x[i] >= q->k)
            continue;
        if (c > q->fold_at[x[i]] + 1)
            q->fold_at[x[i]] = (uint32_t)c - 1;
        if (nd < sizeof d / sizeof *d)
            d[nd++] = x[i];
    }
    /* one heap, then two, then all of them */
    for (size = 1; size <= nd; size++) {
        unsigned mask;
        if (size > 2 && size < nd)
            continue;
        for (mask = 1; mask < 1u << nd; mask++) {
            size_t n = 0, b;
            int r;
            for (b = 0; b < nd; b++)
                if (mask >> b & 1)
                    h[n++] = d[b];
            if (n != size)
                continue;
            if (sgi_mquot_set_free(q, h, n)) {
                rc = -1;
                goto out;
            }
            r = sgi_mquot_fast_agrees(q, x, nx);
            if (r < 0 && !q->inconsistent) {
                rc = -1;
                goto out;
            }
            q->inconsistent = 0;
            if (q->err)
                q->err->code = SG_OK;
            if (r == 1)
                goto out;
        }
    }
    if (sgi_mquot_set_free(q, d, nd))
        rc = -1;
out:
    free(x);
    return rc;
}

/* Start heap k on the fast oracle's rung 0: no heap free, the rest of
 * w keyed by the proven quotient of heaps 1..k-1, the rows of the last
 * heap (from its oracle) forgotten.  0, or -1 when out of memory. */
static int heap_start(qctx *q, size_t k)
{
    size_t h;

    q->k = k;
    q->fast = 1;
    q->rung = 0;
    free(q->btrans);
    q->btrans = NULL;
    q->fold_period = 2;
    free(q->fold_at);
    if (!(q->fold_at = malloc((k + 1) * sizeof *q->fold_at)))
        return nomem(q), -1;
    for (h = 0; h <= k; h++)
        q->fold_at[h] = 2;
    if (sgi_mquot_set_free(q, NULL, 0))
        return -1;
    sgi_mquot_rows_reset(q);
    return 0;
}

/* The status of a heap not finished (rc of the learning, st so far). */
static sg_status stop_status(qctx *q, int rc, sg_status st)
{
    if (rc < 0) {
        st = sgi_mis_search_status(q->search);
        if (st == SG_OK)
            st = q->err && q->err->code != SG_OK ? q->err->code : SG_E_NOMEM;
    } else if (rc == 2) {
        st = SG_E_UNKNOWN;
    }
    return st;
}

/* Heap q->k's candidates built as monoids (misere_monoid.c), once per
 * heap: 1 when the heap is finished (*rc 0: proven; *rc 1 and *st set:
 * proven larger than --max-order), 0 when the learning goes on, -1 on
 * failure. */
static int monoid_rung(qctx *q, int *tried, int *rc, sg_status *st)
{
    int mr;

    *tried = 1;
    mr = sgi_mquot_monoid(q);
    q->nfail = 0; /* a failure of the monoid's, not of the oracle's */
    if (mr == 1) {
        q->monoid_heaps++;
        q->fast = 0; /* not learned from the fast oracle */
        *rc = 0;
        return 1;
    }
    if (mr == 2) {
        *st = sg_error_set(q->err, SG_E_UNKNOWN, -1,
                           "the quotient of heaps 1..%zu has more than %zu "
                           "elements (--max-order; it has %zu)",
                           q->k, q->max_order, q->nq);
        *rc = 1;
        return 1;
    }
    if (mr == 0 && q->err)
        q->err->code = SG_OK;
    return mr;
}

/* Learn and prove heap q->k (started by heap_start): the ladder of
 * oracles with the monoid rung after rung 0, each hypothesis checked by
 * Theorem Q.  0 when proven (the hypothesis in q), else the code
 * stop_status reads, *st set where the reason is known. */
static int heap_learn(qctx *q, size_t nT0, sg_status *st)
{
    int rc, monoid_tried = 0;

    for (;;) {
        q->inconsistent = 0;
        if ((q->flags & SGI_MQUOT_MONOID_FIRST) && !monoid_tried) {
            int mr = monoid_rung(q, &monoid_tried, &rc, st);
            if (mr != 0) {
                if (mr < 0)
                    rc = -1;
                break;
            }
            continue;
        }
        if (q->cancel && *q->cancel) {
            sg_error_set(q->err, SG_E_INTERRUPTED, -1, "interrupted");
            rc = -1;
            return rc;
        }
        rc = sgi_mquot_hyp_build(q);
        if (rc == 1 && q->fast) {
            rc = 3; /* only true outcomes may say "larger" */
        } else if (rc == 1) {
            *st = sg_error_set(q->err, SG_E_UNKNOWN, -1,
                               "the quotient of heaps 1..%zu has more "
                               "than %zu elements (--max-order)",
                               q->k, q->max_order);
            return rc;
        }
        if (rc == 0 && (rc = sgi_mquot_check_commute(q)) == 1)
            continue;
        if (rc == 0)
            rc = sgi_mquot_build_mul(q);
        if (rc == 0 && (rc = sgi_mquot_check_outcomes(q)) == 1)
            continue;
        if (rc == 2)
            return rc;
        if (rc == 0 && (rc = sgi_mquot_check_reduced(q)) >= 0)
            rc = rc ? 0 : 3;
        if (rc == 0)
            return rc;
        if ((rc == 3 || (rc < 0 && q->inconsistent)) && q->fast) {
            /* the fast oracle was wrong: start the heap again with
             * more heaps free, at last with the exact search (the
             * test sums are kept) */
            int nr = next_rung(q);
            if (nr >= 0 && !monoid_tried) {
                /* candidates built as monoids, then the next rung */
                int mr = monoid_rung(q, &monoid_tried, &rc, st);
                if (mr > 0)
                    break;
                if (mr < 0)
                    nr = -1;
            }
            if (nr < 0) {
                *st =
                    q->err && q->err->code != SG_OK ? q->err->code : SG_E_NOMEM;
                break;
            }
            q->fast = nr;
            q->nT = nT0; /* drop the tests a wrong oracle found */
            sgi_mquot_rows_reset(q);
            if (q->err)
                q->err->code = SG_OK;
            continue;
        }
        if (rc == 3) {
            rc = -1;
            sg_error_set(q->err, SG_E_UNKNOWN, -1,
                         "misère quotient: internal inconsistency (a "
                         "proven hypothesis that is not reduced)");
        }
        break;
    }
    return rc;
}

sg_status sg_misere_quotient(sg_mquot *m, const sg_rule *r, size_t n,
                             size_t max_order, size_t budget,
                             volatile sig_atomic_t *cancel, sg_error *err)
{
    return sg_misere_quotient_from(m, r, n, max_order, budget, NULL, cancel,
                                   err);
}

sg_status sg_misere_quotient_from(sg_mquot *m, const sg_rule *r, size_t n,
                                  size_t max_order, size_t budget,
                                  const sg_mquot *from,
                                  volatile sig_atomic_t *cancel, sg_error *err)
{
    return sgi_misere_quotient_test(m, r, n, max_order, budget, from, cancel, 0,
                                    NULL, err);
}

sg_status sgi_misere_quotient_test(sg_mquot *m, const sg_rule *r, size_t n,
                                   size_t max_order, size_t budget,
                                   const sg_mquot *from,
                                   volatile sig_atomic_t *cancel,
                                   unsigned flags, size_t *monoid_heaps,
                                   sg_error *err)
{
    qctx q;
    sg_status st = SG_OK;
    size_t k, capo = 0, nT0;

    sg_mquot_clear(m);
    if ((st = sgi_misere_refuse(r, err)))
        return st;
    if (max_order < 1)
        max_order = 1;
    if (n > ((size_t)1 << 20))
        return sg_error_set(err, SG_E_INPUT, -1,
                            "misère quotient: at most %zu heaps",
                            (size_t)1 << 20);
    memset(&q, 0, sizeof q);
    q.r = r;
    q.err = err;
    q.budget = budget;
    q.max_order = max_order;
    q.cancel = cancel;
    q.flags = flags;
    sg_seq_init(&q.g);
    if ((st = sg_enumerate(&q.g, r, n + 2, NULL, err)))
        goto out;
    if (!(q.search = sgi_mis_search_new(
              r, &q.g, budget, sgi_mquot_known_outcome, &q, cancel, err))) {
        st = nomem(&q);
        goto out;
    }
    /* Q_0: the empty sum alone, an N-position */
    if (!(q.ptrans = malloc(sizeof *q.ptrans)) || !(q.plabel = calloc(1, 1)) ||
        sg_grow(&m->orders, &capo, n + 1, sizeof *m->orders) ||
        sg_grow(&q.T, &q.capT, 1, sizeof *q.T) ||
        sgi_mquot_wtab_widen(&q.w, 1)) {
        st = nomem(&q);
        goto out;
    }
    q.pnq = 1;
    m->orders[0] = 1;
    if ((q.T[0] = sgi_mquot_wtab_get(&q.w, NULL, 0)) == SIZE_MAX) {
        st = nomem(&q);
        goto out;
    }
    q.nT = 1;
    k = 1;
    if (from && from->heaps > 0 && from->heaps <= n && from->suffixes > 0 &&
        from->test_at[1] == 0) {
        if (resume(&q, m, from)) {
            st = SG_E_NOMEM;
            goto out;
        }
        k = q.pk + 1;
    }
    for (; k <= n; k++) {
        int rc;
        nT0 = q.nT;
        if (heap_start(&q, k)) {
            st = SG_E_NOMEM;
            m->stopped_at = k;
            break;
        }
        rc = heap_learn(&q, nT0, &st);
        if (rc != 0) {
            st = stop_status(&q, rc, st);
            m->stopped_at = k;
            break;
        }
        if (keep_proven(&q)) {
            st = SG_E_NOMEM;
            break;
        }
        m->orders[k] = q.nq;
        m->fast_heaps += q.fast;
    }
    if (monoid_heaps)
        *monoid_heaps = q.monoid_heaps;
    m->suffixes = q.nT;
    m->states = q.states;
    m->positions = sgi_mis_search_positions(q.search) +
                   (m->resumed_from ? from->positions : 0);
    if (st == SG_OK || st == SG_E_UNKNOWN || st == SG_E_INTERRUPTED) {
        sg_error keep;
        sg_status s2;
        if (err)
            keep = *err;
        s2 = result(m, &q, err);
        if (s2 != SG_OK)
            st = s2;
        else if (err)
            *err = keep;
    }
out:
    qctx_clear(&q);
    return st;
}
