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
 * true outcomes (the exact search of misere.c; sums of heaps 1..k-1 are
 * answered by the proven Q_{k-1} at once).  From the empty word, every
 * state times every heap 1..k is matched with the state of the same
 * outcomes over T, or becomes a new state: a hypothesis (Q, P, Phi).
 * The states are told apart by true outcomes, so there are never more
 * than the true order: past max_order the true quotient is larger.
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
 */
#include "sgexplore.h"
#include "internal.h"
#include "rules/moves.h"
#include "base/fnv.h"
#include "misere_impl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NONE UINT32_MAX

/* ------------------------------------------------------------------ */
/* Words: multisets of heaps as sorted arrays, with their rows          */
/* ------------------------------------------------------------------ */

/* Every word met, each with the outcomes of word + T[t] computed so far
 * (bit t set: a P-position). */
typedef struct wtab {
    uint32_t *pool;
    size_t npool, cappool;
    size_t *off;
    uint32_t *len, *nbits;
    size_t n, capoff, caplen, capnb;
    size_t *slot; /* id + 1, 0 when empty */
    size_t nslots;
    uint64_t *rows;
    size_t stride, caprows; /* uint64 words per row */
} wtab;

static uint64_t word_hash(const uint32_t *x, size_t len)
{
    uint64_t h = sg_fnv1a(SG_FNV_OFFSET, x, len * sizeof *x);

    return h ^ (h >> 31) ^ len;
}

static const uint32_t *wtab_word(const wtab *w, size_t id, size_t *len)
{
    *len = w->len[id];
    return w->pool + w->off[id];
}

static void wtab_slot_put(wtab *w, size_t id)
{
    size_t len;
    const uint32_t *x = wtab_word(w, id, &len);
    size_t i = (size_t)word_hash(x, len) & (w->nslots - 1);

    while (w->slot[i])
        i = (i + 1) & (w->nslots - 1);
    w->slot[i] = id + 1;
}

/* The id of word x, adding it when new; SIZE_MAX when out of memory. */
static size_t wtab_get(wtab *w, const uint32_t *x, size_t len)
{
    size_t i, s, id;

    if (w->nslots) {
        for (i = (size_t)word_hash(x, len) & (w->nslots - 1);
             (s = w->slot[i]) != 0; i = (i + 1) & (w->nslots - 1)) {
            size_t l;
            const uint32_t *y = wtab_word(w, s - 1, &l);
            if (l == len && (!len || !memcmp(x, y, len * sizeof *x)))
                return s - 1;
        }
    }
    if (2 * (w->n + 1) > w->nslots) {
        size_t ns = w->nslots ? 2 * w->nslots : 4096, *old = w->slot;
        if (!(w->slot = calloc(ns, sizeof *w->slot))) {
            w->slot = old;
            return SIZE_MAX;
        }
        free(old);
        w->nslots = ns;
        for (i = 0; i < w->n; i++)
            wtab_slot_put(w, i);
    }
    if (sg_grow(&w->pool, &w->cappool, w->npool + len + 1, sizeof *w->pool) ||
        sg_grow(&w->off, &w->capoff, w->n + 1, sizeof *w->off) ||
        sg_grow(&w->len, &w->caplen, w->n + 1, sizeof *w->len) ||
        sg_grow(&w->nbits, &w->capnb, w->n + 1, sizeof *w->nbits) ||
        sg_grow(&w->rows, &w->caprows, (w->n + 1) * w->stride, sizeof *w->rows))
        return SIZE_MAX;
    id = w->n++;
    w->off[id] = w->npool;
    w->len[id] = (uint32_t)len;
    w->nbits[id] = 0;
    if (len) /* x may be NULL for the empty word */
        memcpy(w->pool + w->npool, x, len * sizeof *x);
    w->npool += len;
    memset(w->rows + id * w->stride, 0, w->stride * sizeof *w->rows);
    wtab_slot_put(w, id);
    return id;
}

/* Room for rows of `bits` bits: the rows copied to a longer stride. */
static int wtab_widen(wtab *w, size_t bits)
{
    size_t ns = w->stride ? w->stride : 1, i;
    uint64_t *r;

    if (bits <= 64 * w->stride)
        return 0;
    while (64 * ns < bits)
        ns *= 2;
    if (!(r = calloc((w->n ? w->n : 1) * ns, sizeof *r)))
        return -1;
    for (i = 0; i < w->n; i++)
        memcpy(r + i * ns, w->rows + i * w->stride, w->stride * sizeof *r);
    free(w->rows);
    w->rows = r;
    w->caprows = (w->n ? w->n : 1) * ns;
    w->stride = ns;
    return 0;
}

static void wtab_clear(wtab *w)
{
    free(w->pool);
    free(w->off);
    free(w->len);
    free(w->nbits);
    free(w->slot);
    free(w->rows);
    memset(w, 0, sizeof *w);
}

/* ------------------------------------------------------------------ */
/* The computation's state                                              */
/* ------------------------------------------------------------------ */

typedef struct qctx {
    const sg_rule *r;
    sg_seq g; /* G(0..n+1), as moves.h needs */
    sgi_mis_search *search;
    sg_error *err;
    size_t budget, max_order;
    size_t k; /* heaps 1..k */
    wtab w;
    size_t *T; /* the test sums, word ids; T[0] is the empty word */
    size_t nT, capT;
    /* the hypothesis */
    size_t nq;
    size_t *rep; /* word id of each state */
    uint32_t *parent, *pgen, *trans;
    unsigned char *label; /* 1: P */
    size_t caprep, cappar, cappg, captr, caplab;
    uint32_t *mul;
    size_t capmul;
    /* the proven quotient of heaps 1..pk, for sums without heap k */
    size_t pk, pnq;
    uint32_t *ptrans;
    unsigned char *plabel;
    /* scratch words */
    uint32_t *a, *b;
    size_t capa, capb;
    size_t states; /* proof states visited */
    /* the fast oracle (below): kv[j-1][u] for w + j times heap k */
    volatile sig_atomic_t *cancel; /* polled, or NULL */
    int check_only;   /* a failed check says so, without refining */
    int fast;         /* outcomes from the fast oracle */
    int inconsistent; /* the oracle contradicted itself */
    unsigned char **kv;
    size_t nkv;
} qctx;

/* Outcomes of sums of heaps 1..pk from the proven quotient. */
static int known_outcome(void *arg, const uint32_t *x, size_t len)
{
    const qctx *q = arg;
    uint32_t u = 0;
    size_t i;

    if (len && x[len - 1] > q->pk)
        return -1;
    for (i = 0; i < len; i++)
        u = q->ptrans[(size_t)u * q->pk + x[i] - 1];
    return q->plabel[u] ? 0 : 1;
}

static sg_status nomem(qctx *q)
{
    return sg_error_set(q->err, SG_E_NOMEM, -1, "out of memory");
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

    return x < y ? -1 : x > y;
}

/* The options of one heap, collected. */
typedef struct opt_list {
    sg_option *o;
    size_t n, cap;
    int failed;
} opt_list;

static int list_visit(void *ctx, const sg_option *o)
{
    opt_list *l = ctx;

    if (sg_grow(&l->o, &l->cap, l->n + 1, sizeof *l->o)) {
        l->failed = 1;
        return 1;
    }
    l->o[l->n++] = *o;
    return 0;
}

/* The fast oracle: the outcome of w + j (heap k), w a sum of heaps
 * 1..k-1, memoised on (Phi_{k-1}(w), j).  It is exact when the
 * quotient of heaps 1..k-1 tells apart everything heap k does (no class
 * splits), which is the common case but not a theorem; the proof does
 * not rely on it, and a contradiction sends the stage to the exact
 * search.  1 (P), 0 (N), -1 on failure. */
static int fast_p(qctx *q, const uint32_t *x, size_t len, size_t depth)
{
    size_t j = 0, i, c;
    uint32_t u = 0, *y = NULL;
    unsigned char *cell;
    int any = 0, p = 1;

    while (j < len && x[len - 1 - j] == q->k)
        j++;
    for (i = 0; i + j < len; i++)
        u = q->ptrans[(size_t)u * q->pk + x[i] - 1];
    if (!j)
        return q->plabel[u];
    while (q->nkv < j) {
        unsigned char **nk = realloc(q->kv, (q->nkv + 1) * sizeof *nk);
        if (!nk)
            return nomem(q), -1;
        q->kv = nk;
        if (!(q->kv[q->nkv] = malloc(q->pnq)))
            return nomem(q), -1;
        memset(q->kv[q->nkv++], 2, q->pnq);
    }
    cell = &q->kv[j - 1][u];
    if (*cell != 2)
        return *cell;
    if (depth > 100000) {
        sg_error_set(q->err, SG_E_UNKNOWN, -1,
                     "too large: the quotient's search went too deep");
        return -1;
    }
    if (!(y = malloc((len + 3) * sizeof *y)))
        return nomem(q), -1;
    for (i = 0; i < len && p; i++) {
        opt_list l;
        if (i && x[i] == x[i - 1])
            continue;
        memset(&l, 0, sizeof l);
        sg_moves_heap(q->r, &q->g, x[i], list_visit, &l);
        if (l.failed) {
            free(l.o);
            free(y);
            return nomem(q), -1;
        }
        for (c = 0; c < l.n && p; c++) {
            size_t n = 0, a;
            int k, r;
            for (a = 0; a < len; a++)
                if (a != i)
                    y[n++] = x[a];
            for (k = 0; k < l.o[c].nparts; k++)
                y[n++] = (uint32_t)l.o[c].part[k];
            qsort(y, n, sizeof *y, cmp_u32);
            any = 1;
            if ((r = fast_p(q, y, n, depth + 1)) < 0) {
                free(l.o);
                free(y);
                return -1;
            }
            if (r)
                p = 0; /* a move to a P-position */
        }
        free(l.o);
    }
    free(y);
    p = p && any;
    q->kv[j - 1][u] = (unsigned char)p;
    return p;
}

/* Forget the fast oracle's memo (a new heap k). */
static void fast_reset(qctx *q)
{
    size_t i;

    for (i = 0; i < q->nkv; i++)
        free(q->kv[i]);
    free(q->kv);
    q->kv = NULL;
    q->nkv = 0;
}

/* 1 when the sorted sum x is a P-position, 0 when not, -1 on failure:
 * the fast oracle or the exact search. */
static int is_p(qctx *q, const uint32_t *x, size_t len)
{
    int o;

    if (q->fast)
        return fast_p(q, x, len, 0);
    o = sgi_mis_search_outcome(q->search, x, len);
    return o < 0 ? -1 : !o;
}

/* The sorted union of x and y into *out (grown): its length, or
 * SIZE_MAX when out of memory. */
static size_t merge(uint32_t **out, size_t *cap, const uint32_t *x, size_t xl,
                    const uint32_t *y, size_t yl)
{
    size_t i = 0, j = 0, n = 0;

    if (sg_grow(out, cap, xl + yl + 1, sizeof **out))
        return SIZE_MAX;
    while (i < xl || j < yl)
        (*out)[n++] = j >= yl || (i < xl && x[i] <= y[j]) ? x[i++] : y[j++];
    return n;
}

/* Forget every row (another oracle). */
static void rows_reset(qctx *q)
{
    size_t id;

    for (id = 0; id < q->w.n; id++) {
        q->w.nbits[id] = 0;
        memset(q->w.rows + id * q->w.stride, 0,
               q->w.stride * sizeof *q->w.rows);
    }
}

/* The row of word id filled up to |T|; 0, or -1 on failure. */
static int row_fill(qctx *q, size_t id)
{
    while (q->w.nbits[id] < q->nT) {
        size_t t = q->w.nbits[id], xl, yl, n;
        const uint32_t *x = wtab_word(&q->w, id, &xl);
        const uint32_t *y = wtab_word(&q->w, q->T[t], &yl);
        int p;
        if ((n = merge(&q->a, &q->capa, x, xl, y, yl)) == SIZE_MAX) {
            nomem(q);
            return -1;
        }
        /* x may have moved: merge read it before any growth of pool */
        if ((p = is_p(q, q->a, n)) < 0)
            return -1;
        if (p)
            q->w.rows[id * q->w.stride + t / 64] |= (uint64_t)1 << (t % 64);
        q->w.nbits[id]++;
    }
    return 0;
}

static int row_bit(const qctx *q, size_t id, size_t t)
{
    return (int)(q->w.rows[id * q->w.stride + t / 64] >> (t % 64) & 1);
}

/* ------------------------------------------------------------------ */
/* The hypothesis                                                       */
/* ------------------------------------------------------------------ */

/* Build the states and transitions from T: 0, 1 when more than
 * max_order states are told apart, -1 on failure. */
static int hyp_build(qctx *q)
{
    size_t nw = (q->nT + 63) / 64, nslots = 1024, *slot = NULL, s, i;
    int rc = 0;

    while (nslots < 2 * (q->max_order + 1))
        nslots *= 2;
    if (!(slot = calloc(nslots, sizeof *slot)))
        return nomem(q), -1;
    q->nq = 0;
    {
        size_t id = wtab_get(&q->w, NULL, 0);
        if (id == SIZE_MAX || row_fill(q, id))
            goto fail;
        if (sg_grow(&q->rep, &q->caprep, 1, sizeof *q->rep) ||
            sg_grow(&q->parent, &q->cappar, 1, sizeof *q->parent) ||
            sg_grow(&q->pgen, &q->cappg, 1, sizeof *q->pgen))
            goto oom;
        q->rep[0] = id;
        q->parent[0] = NONE;
        q->pgen[0] = 0;
        q->nq = 1;
        slot[word_hash((const uint32_t *)(q->w.rows + id * q->w.stride),
                       nw * 2) &
             (nslots - 1)] = 1;
    }
    for (s = 0; s < q->nq; s++) {
        if (sg_grow(&q->trans, &q->captr, (s + 1) * q->k, sizeof *q->trans))
            goto oom;
        for (i = 1; i <= q->k; i++) {
            size_t xl, n, id, j, st;
            const uint32_t *x = wtab_word(&q->w, q->rep[s], &xl);
            uint32_t h = (uint32_t)i;
            const uint64_t *row;
            if ((n = merge(&q->b, &q->capb, x, xl, &h, 1)) == SIZE_MAX)
                goto oom;
            if ((id = wtab_get(&q->w, q->b, n)) == SIZE_MAX)
                goto oom;
            if (row_fill(q, id))
                goto fail;
            row = q->w.rows + id * q->w.stride;
            for (j = word_hash((const uint32_t *)row, nw * 2) & (nslots - 1);
                 (st = slot[j]) != 0; j = (j + 1) & (nslots - 1))
                if (!memcmp(q->w.rows + q->rep[st - 1] * q->w.stride, row,
                            nw * sizeof *row))
                    break;
            if (!st) {
                if (q->nq == q->max_order) {
                    rc = 1;
                    goto out;
                }
                if (sg_grow(&q->rep, &q->caprep, q->nq + 1, sizeof *q->rep) ||
                    sg_grow(&q->parent, &q->cappar, q->nq + 1,
                            sizeof *q->parent) ||
                    sg_grow(&q->pgen, &q->cappg, q->nq + 1, sizeof *q->pgen))
                    goto oom;
                q->rep[q->nq] = id;
                q->parent[q->nq] = (uint32_t)s;
                q->pgen[q->nq] = h;
                slot[j] = ++q->nq;
                st = q->nq;
            }
            q->trans[s * q->k + i - 1] = (uint32_t)(st - 1);
        }
    }
    if (sg_grow(&q->label, &q->caplab, q->nq, 1))
        goto oom;
    for (s = 0; s < q->nq; s++)
        q->label[s] = (unsigned char)row_bit(q, q->rep[s], 0);
    goto out;
oom:
    nomem(q);
fail:
    rc = -1;
out:
    free(slot);
    return rc;
}

/* The state reached from u by the heaps x[0..len-1]. */
static uint32_t hyp_read(const qctx *q, uint32_t u, const uint32_t *x,
                         size_t len)
{
    size_t i;

    for (i = 0; i < len; i++)
        if (x[i])
            u = q->trans[(size_t)u * q->k + x[i] - 1];
    return u;
}

/* The heaps of state s's word in the order the walk met them: *len of
 * them into *out (grown); -1 when out of memory. */
static int state_path(const qctx *q, uint32_t s, uint32_t **out, size_t *cap,
                      size_t *len)
{
    size_t n = 0, i;
    uint32_t t;

    for (t = s; t != 0; t = q->parent[t])
        n++;
    if (sg_grow(out, cap, n + 3, sizeof **out))
        return -1;
    *len = n;
    for (t = s, i = n; t != 0; t = q->parent[t])
        (*out)[--i] = q->pgen[t];
    return 0;
}

/* ------------------------------------------------------------------ */
/* Counterexamples: a new test sum (Rivest and Schapire)                */
/* ------------------------------------------------------------------ */

/* path[0..L-1] (heaps) and the word z: the true outcome of path + z
 * differs from that of rep(state of path) + z.  Adds the test sum that
 * tells two words apart which the hypothesis took for one state.
 * 0, or -1 on failure. */
static int refine(qctx *q, const uint32_t *path, size_t L, size_t zid)
{
    uint32_t *st = malloc((L + 1) * sizeof *st), *tail = NULL;
    size_t lo = 0, hi = L, j, captail = 0, tl, id;
    int flo, fhi, rc = -1;

    if (!st)
        return nomem(q), -1;
    st[0] = 0;
    for (j = 0; j < L; j++)
        st[j + 1] = q->trans[(size_t)st[j] * q->k + path[j] - 1];
        /* f(j): outcome of rep(st[j]) + path[j..L-1] + z */
#define F(jj, res)                                                             \
    do {                                                                       \
        size_t rl, zl, n1, n2, m;                                              \
        const uint32_t *rw = wtab_word(&q->w, q->rep[st[jj]], &rl);            \
        const uint32_t *zw = wtab_word(&q->w, zid, &zl);                       \
        if ((n1 = merge(&q->a, &q->capa, rw, rl, zw, zl)) == SIZE_MAX)         \
            goto oom;                                                          \
        if (sg_grow(&tail, &captail, L - (jj) + 1, sizeof *tail))              \
            goto oom;                                                          \
        for (m = 0; m < L - (jj); m++)                                         \
            tail[m] = path[(jj) + m];                                          \
        qsort(tail, L - (jj), sizeof *tail, cmp_u32);                          \
        if ((n2 = merge(&q->b, &q->capb, q->a, n1, tail, L - (jj))) ==         \
            SIZE_MAX)                                                          \
            goto oom;                                                          \
        if (((res) = is_p(q, q->b, n2)) < 0)                                   \
            goto out;                                                          \
    } while (0)
    F(lo, flo);
    F(hi, fhi);
    if (flo == fhi) {
        q->inconsistent = 1;
        sg_error_set(q->err, SG_E_UNKNOWN, -1,
                     "misère quotient: internal inconsistency (a "
                     "counterexample that is none)");
        goto out;
    }
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        int fm;
        F(mid, fm);
        if (fm != flo)
            hi = mid;
        else
            lo = mid;
    }
#undef F
    /* rep(st[lo]) + path[lo] and rep(st[lo+1]) differ on
     * path[lo+1..L-1] + z */
    {
        size_t zl;
        const uint32_t *zw = wtab_word(&q->w, zid, &zl);
        if (sg_grow(&tail, &captail, L + 1, sizeof *tail))
            goto oom;
        for (tl = 0, j = lo + 1; j < L; j++)
            tail[tl++] = path[j];
        qsort(tail, tl, sizeof *tail, cmp_u32);
        if ((tl = merge(&q->b, &q->capb, tail, tl, zw, zl)) == SIZE_MAX)
            goto oom;
    }
    if ((id = wtab_get(&q->w, q->b, tl)) == SIZE_MAX)
        goto oom;
    for (j = 0; j < q->nT; j++)
        if (q->T[j] == id) {
            q->inconsistent = 1;
            sg_error_set(q->err, SG_E_UNKNOWN, -1,
                         "misère quotient: internal inconsistency (a "
                         "test sum found twice)");
            goto out;
        }
    if (sg_grow(&q->T, &q->capT, q->nT + 1, sizeof *q->T) ||
        wtab_widen(&q->w, q->nT + 1))
        goto oom;
    q->T[q->nT++] = id;
    rc = 0;
    goto out;
oom:
    nomem(q);
out:
    free(st);
    free(tail);
    return rc;
}

/* ------------------------------------------------------------------ */
/* The proof                                                            */
/* ------------------------------------------------------------------ */

/* (1): the heaps commute on every state.  0 when they do, 1 when a
 * counterexample was found and refined, -1 on failure. */
static int check_commute(qctx *q)
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
                if (state_path(q, (uint32_t)s, &path, &cap, &L))
                    return nomem(q), -1;
                path[L] = (uint32_t)i;
                path[L + 1] = (uint32_t)j;
                {
                    size_t xl, tl, n;
                    const uint32_t *xw = wtab_word(&q->w, q->rep[s], &xl);
                    const uint32_t *tw = wtab_word(&q->w, q->T[t], &tl);
                    uint32_t ij[2] = {(uint32_t)i, (uint32_t)j};
                    if ((n = merge(&q->a, &q->capa, xw, xl, ij, 2)) ==
                            SIZE_MAX ||
                        (n = merge(&q->b, &q->capb, q->a, n, tw, tl)) ==
                            SIZE_MAX) {
                        free(path);
                        return nomem(q), -1;
                    }
                    if ((truth = is_p(q, q->b, n)) < 0) {
                        free(path);
                        return -1;
                    }
                }
                if (truth == row_bit(q, ra, t)) { /* then b is wrong */
                    path[L] = (uint32_t)j;
                    path[L + 1] = (uint32_t)i;
                }
                rc = refine(q, path, L + 2, q->T[t]);
                free(path);
                return rc ? -1 : 1;
            }
    free(path);
    return 0;
}

/* (3): no two states are indistinguishable in (Q, P) (Moore's
 * refinement: u and v part when some word leads one into P and not the
 * other).  1 when the hypothesis is reduced, 0 when not, -1 on failure. */
static int check_reduced(const qctx *q)
{
    size_t n = q->nq, k = q->k, u, i, ncls = 2, nslots = 1024, prev = 0;
    uint32_t *cls = malloc(n * sizeof *cls), *ncl = malloc(n * sizeof *ncl);
    uint32_t *sig = malloc((k + 1) * sizeof *sig);
    size_t *slot = NULL;
    int rc = -1;

    while (nslots < 2 * n)
        nslots *= 2;
    if (!cls || !ncl || !sig || !(slot = malloc(nslots * sizeof *slot)))
        goto out;
    for (u = 0; u < n; u++)
        cls[u] = q->label[u];
    while (ncls != prev) {
        size_t at, sl;
        prev = ncls;
        ncls = 0;
        memset(slot, 0, nslots * sizeof *slot);
        for (u = 0; u < n; u++) {
            uint64_t h;
            sig[0] = cls[u];
            for (i = 1; i <= k; i++)
                sig[i] = cls[q->trans[u * k + i - 1]];
            h = sg_fnv1a(SG_FNV_OFFSET, sig, (k + 1) * sizeof *sig);
            for (at = h & (nslots - 1); (sl = slot[at]) != 0;
                 at = (at + 1) & (nslots - 1)) {
                size_t v = sl - 1;
                if (cls[v] != sig[0])
                    continue;
                for (i = 1; i <= k; i++)
                    if (cls[q->trans[v * k + i - 1]] != sig[i])
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
    rc = ncls == n;
out:
    free(cls);
    free(ncl);
    free(sig);
    free(slot);
    return rc;
}

/* The product table from the walk's tree: mul[u][v] = u rep(v).  0, 2
 * past the budget (said), -1 when out of memory. */
static int build_mul(qctx *q)
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

static int opt_visit(void *ctx, const sg_option *o)
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

static int refine(qctx *q, const uint32_t *path, size_t L, size_t zid);

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
    sg_moves_heap(q->r, &q->g, x[i], list_visit, &l);
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
        if ((truth = is_p(q, y, n)) < 0) {
            rc = -1;
            break;
        }
        if (truth != q->label[hyp_read(q, 0, y, n)])
            rc = refine(q, y, n, q->T[0]) ? -1 : 1;
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

/* (2): the walk over (u, f, C).  0 when every state passes, 1 when a
 * counterexample was found and refined, 2 past the budget (said), -1 on
 * failure. */
static int check_outcomes(qctx *q)
{
    size_t n = q->nq, nw = (n + 63) / 64, i, s, kinds = 0;
    uint64_t *G = NULL, *C = NULL, *tmp = NULL;
    unsigned char *nonterm = NULL, *seen = NULL;
    uint32_t *list = NULL, *kind = NULL, *path = NULL;
    pstate *ps = NULL;
    size_t nps = 0, capps = 0, capC = 0, *slot = NULL, nslots = 0, cappath = 0;
    int rc = -1;

    if (!(G = calloc((q->k + 1) * nw, sizeof *G)) ||
        !(nonterm = calloc(q->k + 1, 1)) || !(seen = calloc(n, 1)) ||
        !(list = malloc(n * sizeof *list)) ||
        !(kind = malloc((q->k + 1) * sizeof *kind)) ||
        !(tmp = malloc(nw * sizeof *tmp)))
        goto oom;
    /* G_i and whether heap i has a move; heaps that act alike kept once */
    for (i = 1; i <= q->k; i++) {
        opt_walk ow;
        size_t w, j;
        memset(&ow, 0, sizeof ow);
        ow.q = q;
        ow.seen = seen;
        ow.list = list;
        sg_moves_heap(q->r, &q->g, i, opt_visit, &ow);
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
    /* the walk */
    nslots = 4096;
#define STATE_C(id) (C + (size_t)(id)*nw)
#define ADD_STATE(uu, ff, cc, par, hh)                                         \
    do {                                                                       \
        uint64_t hsh = sg_fnv1a(SG_FNV_OFFSET ^ (uu) ^ ((uint64_t)(ff) << 40), \
                                (cc), nw * sizeof *(cc));                      \
        size_t at, sl;                                                         \
        if (2 * (nps + 1) > nslots || !slot) {                                 \
            size_t ns = slot ? 2 * nslots : nslots, *old = slot, e;            \
            if (!(slot = calloc(ns, sizeof *slot))) {                          \
                slot = old;                                                    \
                goto oom;                                                      \
            }                                                                  \
            free(old);                                                         \
            nslots = ns;                                                       \
            for (e = 0; e < nps; e++) {                                        \
                uint64_t h2 = sg_fnv1a(SG_FNV_OFFSET ^ ps[e].u ^               \
                                           ((uint64_t)ps[e].flag << 40),       \
                                       STATE_C(e), nw * sizeof *C);            \
                for (at = h2 & (nslots - 1); slot[at];                         \
                     at = (at + 1) & (nslots - 1))                             \
                    ;                                                          \
                slot[at] = e + 1;                                              \
            }                                                                  \
        }                                                                      \
        for (at = hsh & (nslots - 1); (sl = slot[at]) != 0;                    \
             at = (at + 1) & (nslots - 1))                                     \
            if (ps[sl - 1].u == (uu) && ps[sl - 1].flag == (ff) &&             \
                !memcmp(STATE_C(sl - 1), (cc), nw * sizeof *C))                \
                break;                                                         \
        if (!sl) {                                                             \
            if ((nps + 1) * (nw * sizeof *C + sizeof *ps) +                    \
                    nslots * sizeof *slot >                                    \
                q->budget) {                                                   \
                sg_error_set(q->err, SG_E_UNKNOWN, -1,                         \
                             "too large: the quotient's proof needs more "     \
                             "than %zu MiB (%zu states)",                      \
                             q->budget >> 20, nps);                            \
                rc = 2;                                                        \
                goto out;                                                      \
            }                                                                  \
            if (sg_grow(&ps, &capps, nps + 1, sizeof *ps) ||                   \
                sg_grow(&C, &capC, (nps + 1) * nw, sizeof *C))                 \
                goto oom;                                                      \
            ps[nps].u = (uu);                                                  \
            ps[nps].flag = (unsigned char)(ff);                                \
            ps[nps].parent = (par);                                            \
            ps[nps].heap = (hh);                                               \
            memcpy(STATE_C(nps), (cc), nw * sizeof *C);                        \
            slot[at] = ++nps;                                                  \
        }                                                                      \
    } while (0)
    for (i = 0; i < nw; i++)
        tmp[i] = ~(uint64_t)0;
    if (n % 64)
        tmp[nw - 1] = ((uint64_t)1 << (n % 64)) - 1;
    ADD_STATE(0, 0, tmp, NONE, 0);
    for (s = 0; s < nps; s++) {
        uint32_t u = ps[s].u;
        if (q->cancel && *q->cancel && s % 1024 == 0) {
            sg_error_set(q->err, SG_E_INTERRUPTED, -1, "interrupted");
            goto out;
        }
        int flag = ps[s].flag, ok;
        size_t j;
        ok = q->label[u] == (flag && (STATE_C(s)[0] & 1));
        if (!ok)
            break;
        for (j = 0; j < kinds; j++) {
            size_t h = kind[j], v;
            const uint32_t *mu = q->mul + (size_t)u * n;
            const uint64_t *Gh = G + h * nw;
            memset(tmp, 0, nw * sizeof *tmp);
            for (v = 0; v < n; v++) {
                uint32_t t = q->trans[v * q->k + h - 1];
                if ((STATE_C(s)[t / 64] >> (t % 64) & 1) &&
                    !(Gh[mu[v] / 64] >> (mu[v] % 64) & 1))
                    tmp[v / 64] |= (uint64_t)1 << (v % 64);
            }
            ADD_STATE(q->trans[(size_t)u * q->k + h - 1], flag | nonterm[h],
                      tmp, (uint32_t)s, (uint32_t)h);
        }
    }
#undef ADD_STATE
#undef STATE_C
    q->states += nps;
    if (s == nps) {
        rc = 0;
        goto out;
    }
    /* state s fails: its sum x, then x or one of its options is a
     * counterexample (the true outcomes obey (2)) */
    if (q->check_only) {
        rc = 1;
        goto out;
    }
    {
        size_t L = 0, xl, o;
        uint32_t t;
        int truth;
        for (t = (uint32_t)s; t != 0; t = ps[t].parent)
            L++;
        if (sg_grow(&path, &cappath, L + 3, sizeof *path))
            goto oom;
        for (t = (uint32_t)s, i = L; t != 0; t = ps[t].parent)
            path[--i] = ps[t].heap;
        if (sg_grow(&q->a, &q->capa, L + 1, sizeof *q->a))
            goto oom;
        memcpy(q->a, path, L * sizeof *path);
        qsort(q->a, L, sizeof *q->a, cmp_u32);
        if ((truth = is_p(q, q->a, L)) < 0)
            goto out;
        if (truth != q->label[ps[s].u]) {
            rc = refine(q, path, L, q->T[0]) ? -1 : 1;
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
        sg_error_set(q->err, SG_E_UNKNOWN, -1,
                     "misère quotient: internal inconsistency (a failed "
                     "check with no counterexample)");
        goto out;
    }
oom:
    nomem(q);
    rc = -1;
out:
    free(G);
    free(C);
    free(tmp);
    free(nonterm);
    free(seen);
    free(list);
    free(kind);
    free(path);
    free(ps);
    free(slot);
    return rc;
}

/* ------------------------------------------------------------------ */
/* The presentation                                                     */
/* ------------------------------------------------------------------ */

/* Word a before word b (exponents over ngens): shorter first, then the
 * one with more of the first generator where they differ. */
static int word_less(const uint32_t *a, const uint32_t *b, size_t ngens)
{
    size_t j, la = 0, lb = 0;

    for (j = 0; j < ngens; j++) {
        la += a[j];
        lb += b[j];
    }
    if (la != lb)
        return la < lb;
    for (j = 0; j < ngens; j++)
        if (a[j] != b[j])
            return a[j] > b[j];
    return 0;
}

/* The element of a word over the generators. */
static uint32_t word_element(const sg_mquot *m, const uint32_t *e)
{
    uint32_t u = 0, c;
    size_t j;

    for (j = 0; j < m->ngens; j++)
        for (c = 0; c < e[j]; c++)
            u = m->trans[(size_t)u * m->heaps + m->gen_heap[j] - 1];
    return u;
}

/* Generators, normal forms and relations of the proven quotient m. */
static sg_status present(sg_mquot *m, sg_error *err)
{
    size_t n = m->order, h, u, j, cap = 0, capr = 0, caprr = 0, level;
    unsigned char *in = calloc(n, 1);
    uint32_t *queue = malloc(n * sizeof *queue), *lev = NULL, *w = NULL;
    size_t nq;
    sg_status st = SG_OK;

    m->ngens = 0;
    if (!in || !queue)
        goto oom;
    /* generators: each heap whose element the earlier ones miss */
    in[0] = 1;
    for (h = 1; h <= m->heaps; h++) {
        size_t qi;
        if (in[m->heap[h]])
            continue;
        if (sg_grow(&m->gen_heap, &cap, m->ngens + 1, sizeof *m->gen_heap))
            goto oom;
        m->gen_heap[m->ngens++] = h;
        for (nq = 0, u = 0; u < n; u++)
            if (in[u])
                queue[nq++] = (uint32_t)u;
        for (qi = 0; qi < nq; qi++)
            for (j = 0; j < m->ngens; j++) {
                uint32_t v =
                    m->trans[(size_t)queue[qi] * m->heaps + m->gen_heap[j] - 1];
                if (!in[v]) {
                    in[v] = 1;
                    queue[nq++] = v;
                }
            }
    }
    /* least words, level by level */
    if (!(m->nf = calloc(n * (m->ngens ? m->ngens : 1), sizeof *m->nf)) ||
        !(lev = malloc(n * sizeof *lev)) ||
        !(w = malloc((m->ngens + 1) * sizeof *w)))
        goto oom;
    for (u = 0; u < n; u++)
        lev[u] = NONE;
    lev[0] = 0;
    queue[0] = 0;
    nq = 1;
    {
        size_t from = 0;
        for (level = 1; from < nq; level++) {
            size_t to = nq, qi;
            for (qi = from; qi < to; qi++) {
                uint32_t x = queue[qi];
                for (j = 0; j < m->ngens; j++) {
                    uint32_t v =
                        m->trans[(size_t)x * m->heaps + m->gen_heap[j] - 1];
                    memcpy(w, m->nf + (size_t)x * m->ngens,
                           m->ngens * sizeof *w);
                    w[j]++;
                    if (lev[v] == NONE) {
                        lev[v] = (uint32_t)level;
                        queue[nq++] = v;
                        memcpy(m->nf + (size_t)v * m->ngens, w,
                               m->ngens * sizeof *w);
                    } else if (lev[v] == level &&
                               word_less(w, m->nf + (size_t)v * m->ngens,
                                         m->ngens)) {
                        memcpy(m->nf + (size_t)v * m->ngens, w,
                               m->ngens * sizeof *w);
                    }
                }
            }
            from = to;
        }
    }
    /* relations: the least words that are not normal forms, each
     * nf(u) + generator j with j past every generator of nf(u) */
    m->nrel = 0;
    for (u = 0; u < n; u++) {
        const uint32_t *e = m->nf + u * m->ngens;
        size_t last = 0, i;
        for (j = 0; j < m->ngens; j++)
            if (e[j])
                last = j;
        for (j = last; j < m->ngens; j++) {
            uint32_t v = m->trans[u * m->heaps + m->gen_heap[j] - 1];
            int minimal = 1;
            memcpy(w, e, m->ngens * sizeof *w);
            w[j]++;
            if (!memcmp(w, m->nf + (size_t)v * m->ngens, m->ngens * sizeof *w))
                continue; /* a normal form */
            for (i = 0; i < m->ngens && minimal; i++) {
                uint32_t d;
                if (!w[i] || i == j)
                    continue;
                w[i]--;
                d = word_element(m, w);
                minimal = !memcmp(w, m->nf + (size_t)d * m->ngens,
                                  m->ngens * sizeof *w);
                w[i]++;
            }
            if (!minimal)
                continue;
            if (sg_grow(&m->rel, &capr, (m->nrel + 1) * m->ngens,
                        sizeof *m->rel) ||
                sg_grow(&m->rel_rhs, &caprr, m->nrel + 1, sizeof *m->rel_rhs))
                goto oom;
            memcpy(m->rel + m->nrel * m->ngens, w, m->ngens * sizeof *w);
            m->rel_rhs[m->nrel++] = v;
        }
    }
    goto out;
oom:
    st = sg_error_set(err, SG_E_NOMEM, -1, "out of memory");
out:
    free(in);
    free(queue);
    free(lev);
    free(w);
    return st;
}

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
    fast_reset(q);
    sgi_mis_search_free(q->search);
    sg_seq_clear(&q->g);
    wtab_clear(&q->w);
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

/* The products, elements of the heaps and the presentation of m, of
 * which heaps, order, trans, p and orders are set; checked first, so
 * that a damaged copy read from the cache is refused, not believed. */
sg_status sg_mquot_complete(sg_mquot *m, sg_error *err)
{
    size_t n = m->order, k = m->heaps, u, v, h, i;
    uint32_t *par = NULL, *gen = NULL, *order = NULL;
    unsigned char *seen = NULL;
    size_t nq = 1, qi;
    sg_status st = SG_OK;

    if (n < 1 || n > UINT32_MAX || (k && n > SIZE_MAX / k / 4) || !m->trans ||
        !m->p || !m->orders || m->orders[k] != n)
        return sg_error_set(err, SG_E_INPUT, -1,
                            "misère quotient: not a quotient of heaps 1..%zu",
                            k);
    for (u = 0; u < n * k; u++)
        if (m->trans[u] >= n)
            return sg_error_set(err, SG_E_INPUT, -1,
                                "misère quotient: an element out of range");
    for (u = 0; u < n; u++)
        for (h = 0; h < k; h++)
            for (i = h + 1; i < k; i++)
                if (m->trans[(size_t)m->trans[u * k + h] * k + i] !=
                    m->trans[(size_t)m->trans[u * k + i] * k + h])
                    return sg_error_set(err, SG_E_INPUT, -1,
                                        "misère quotient: heaps %zu and %zu "
                                        "do not commute",
                                        h + 1, i + 1);
    free(m->heap);
    free(m->mul);
    m->mul = NULL;
    if (!(m->heap = malloc((k + 1) * sizeof *m->heap)) ||
        !(m->mul = malloc(n * n * sizeof *m->mul)) || !(seen = calloc(n, 1)) ||
        !(par = malloc(n * sizeof *par)) || !(gen = malloc(n * sizeof *gen)) ||
        !(order = malloc(n * sizeof *order))) {
        st = sg_error_set(err, SG_E_NOMEM, -1, "out of memory");
        goto out;
    }
    m->heap[0] = 0;
    for (h = 1; h <= k; h++)
        m->heap[h] = m->trans[h - 1];
    /* products through any word: the walk from the identity (under
     * commutativity the map of a word depends only on its element) */
    order[0] = 0;
    seen[0] = 1;
    for (qi = 0; qi < nq; qi++)
        for (h = 1; h <= k; h++) {
            uint32_t t = m->trans[(size_t)order[qi] * k + h - 1];
            if (!seen[t]) {
                seen[t] = 1;
                par[t] = order[qi];
                gen[t] = (uint32_t)h;
                order[nq++] = t;
            }
        }
    if (nq != n) {
        st = sg_error_set(err, SG_E_INPUT, -1,
                          "misère quotient: an element no sum reaches");
        goto out;
    }
    for (u = 0; u < n; u++) {
        uint32_t *row = m->mul + u * n;
        row[0] = (uint32_t)u;
        for (qi = 1; qi < nq; qi++) {
            v = order[qi];
            row[v] = m->trans[(size_t)row[par[v]] * k + gen[v] - 1];
        }
    }
    st = present(m, err);
out:
    free(seen);
    free(par);
    free(gen);
    free(order);
    return st;
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
    return sg_mquot_complete(m, err);
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
        size_t id = wtab_get(&q->w, from->tests + from->test_at[t],
                             from->test_at[t + 1] - from->test_at[t]);
        if (id == SIZE_MAX ||
            sg_grow(&q->T, &q->capT, q->nT + 1, sizeof *q->T) ||
            wtab_widen(&q->w, q->nT + 1))
            return nomem(q), -1;
        if (id != q->T[0])
            q->T[q->nT++] = id;
    }
    q->states = from->states;
    m->fast_heaps = from->fast_heaps;
    m->resumed_from = k;
    return 0;
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
    qctx q;
    sg_status st = SG_OK;
    size_t k, capo = 0;

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
    sg_seq_init(&q.g);
    if ((st = sg_enumerate(&q.g, r, n + 2, NULL, err)))
        goto out;
    if (!(q.search = sgi_mis_search_new(r, &q.g, budget, known_outcome, &q,
                                        cancel, err))) {
        st = nomem(&q);
        goto out;
    }
    /* Q_0: the empty sum alone, an N-position */
    if (!(q.ptrans = malloc(sizeof *q.ptrans)) || !(q.plabel = calloc(1, 1)) ||
        sg_grow(&m->orders, &capo, n + 1, sizeof *m->orders) ||
        sg_grow(&q.T, &q.capT, 1, sizeof *q.T) || wtab_widen(&q.w, 1)) {
        st = nomem(&q);
        goto out;
    }
    q.pnq = 1;
    m->orders[0] = 1;
    if ((q.T[0] = wtab_get(&q.w, NULL, 0)) == SIZE_MAX) {
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
        q.k = k;
        q.fast = 1;
        fast_reset(&q);
        rows_reset(&q); /* rows of the last heap came from its oracle */
        for (;;) {
            q.inconsistent = 0;
            if (cancel && *cancel) {
                sg_error_set(err, SG_E_INTERRUPTED, -1, "interrupted");
                rc = -1;
                break;
            }
            rc = hyp_build(&q);
            if (rc == 1 && q.fast) {
                rc = 3; /* only true outcomes may say "larger" */
            } else if (rc == 1) {
                st = sg_error_set(err, SG_E_UNKNOWN, -1,
                                  "the quotient of heaps 1..%zu has more "
                                  "than %zu elements (--max-order)",
                                  k, max_order);
                break;
            }
            if (rc == 0 && (rc = check_commute(&q)) == 1)
                continue;
            if (rc == 0)
                rc = build_mul(&q);
            if (rc == 0 && (rc = check_outcomes(&q)) == 1)
                continue;
            if (rc == 2)
                break;
            if (rc == 0 && (rc = check_reduced(&q)) >= 0)
                rc = rc ? 0 : 3;
            if (rc == 0)
                break;
            if ((rc == 3 || (rc < 0 && q.inconsistent)) && q.fast) {
                /* the fast oracle was wrong: start the heap again with
                 * the exact search (the test sums are kept) */
                q.fast = 0;
                rows_reset(&q);
                if (err)
                    err->code = SG_OK;
                continue;
            }
            if (rc == 3) {
                rc = -1;
                sg_error_set(err, SG_E_UNKNOWN, -1,
                             "misère quotient: internal inconsistency (a "
                             "proven hypothesis that is not reduced)");
            }
            break;
        }
        if (rc != 0) {
            if (rc < 0) {
                st = sgi_mis_search_status(q.search);
                if (st == SG_OK)
                    st = err && err->code != SG_OK ? err->code : SG_E_NOMEM;
            } else if (rc == 2) {
                st = SG_E_UNKNOWN;
            }
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

uint32_t sg_mquot_element(const sg_mquot *q, const size_t *heaps, size_t n)
{
    uint32_t u = 0;
    size_t i;

    for (i = 0; i < n; i++)
        if (heaps[i])
            u = q->trans[(size_t)u * q->heaps + heaps[i] - 1];
    return u;
}

char *sg_mquot_gen_name(char *buf, size_t size, size_t j)
{
    if (j < 26)
        snprintf(buf, size, "%c", (char)('a' + j));
    else if (j < 52)
        snprintf(buf, size, "%c", (char)('A' + j - 26));
    else
        snprintf(buf, size, "g%zu", j + 1);
    return buf;
}

char *sg_mquot_word(char *buf, size_t size, const sg_mquot *q,
                    const uint32_t *exps)
{
    size_t j, at = 0;
    int any = 0, dots = q->ngens > 52;

    if (size)
        buf[0] = '\0';
    for (j = 0; j < q->ngens && at < size; j++) {
        char name[24];
        if (!exps[j])
            continue;
        sg_mquot_gen_name(name, sizeof name, j);
        at += (size_t)snprintf(buf + at, size - at, "%s%s",
                               any && dots ? "." : "", name);
        if (exps[j] > 1 && at < size)
            at += (size_t)snprintf(buf + at, size - at, "^%lu",
                                   (unsigned long)exps[j]);
        any = 1;
    }
    if (!any && size)
        snprintf(buf, size, "1");
    return buf;
}

/* The winning-move walk of sg_misere_position_quotient. */
typedef struct qmove_walk {
    const sg_mquot *q;
    uint32_t rest; /* the element of the sum without the heap played */
    int found;
    sg_option move;
} qmove_walk;

static int qmove_visit(void *ctx, const sg_option *o)
{
    qmove_walk *w = ctx;
    uint32_t u = w->rest;
    int k;

    for (k = 0; k < o->nparts; k++)
        u = w->q->trans[(size_t)u * w->q->heaps + o->part[k] - 1];
    if (w->q->p[u]) {
        w->found = 1;
        w->move = *o;
        return 1;
    }
    return 0;
}

sg_status sg_misere_position_quotient(sg_misere_position *out, const sg_rule *r,
                                      const sg_mquot *q, const size_t *heaps,
                                      size_t n, sg_error *err)
{
    size_t i, j;
    uint32_t u;
    sg_seq g;
    sg_status st;

    memset(out, 0, sizeof *out);
    out->move_heap = -1;
    out->method = SG_MISERE_QUOTIENT;
    for (i = 0; i < n; i++)
        if (heaps[i] > q->heaps)
            return sg_error_set(err, SG_E_INPUT, -1,
                                "heap %zu is past the quotient's heaps "
                                "(1..%zu)",
                                heaps[i], q->heaps);
    u = sg_mquot_element(q, heaps, n);
    out->first_wins = !q->p[u];
    if (!out->first_wins)
        return SG_OK;
    sg_seq_init(&g);
    if ((st = sg_enumerate(&g, r, q->heaps + 2, NULL, err)))
        return st;
    for (i = 0; i < n; i++) {
        qmove_walk w;
        if (!heaps[i])
            continue;
        memset(&w, 0, sizeof w);
        w.q = q;
        w.rest = 0;
        for (j = 0; j < n; j++)
            if (j != i && heaps[j])
                w.rest = q->trans[(size_t)w.rest * q->heaps + heaps[j] - 1];
        sg_moves_heap(r, &g, heaps[i], qmove_visit, &w);
        if (w.found) {
            out->move_heap = (long)i;
            out->take = w.move.take;
            out->nparts = w.move.nparts;
            for (j = 0; j < (size_t)w.move.nparts; j++)
                out->part[j] = w.move.part[j];
            break;
        }
    }
    sg_seq_clear(&g);
    return SG_OK;
}

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
        inv[i] = NONE;
    inv[0] = 0;
    ord[n++] = 0;
    q.parent[0] = NONE;
    q.pgen[0] = 0;
    for (i = 0; i < n; i++)
        for (h = 1; h <= k; h++) {
            uint32_t t = trans[(size_t)ord[i] * k + h - 1];
            if (t >= nq) {
                rc = 1;
                goto out;
            }
            if (inv[t] == NONE) {
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
    if ((rc = check_commute(&q)) != 0)
        goto out;
    if (build_mul(&q)) {
        rc = -1;
        goto out;
    }
    if ((rc = check_outcomes(&q)) != 0) {
        if (rc == 2)
            rc = -1;
        goto out;
    }
    rc = check_reduced(&q);
    rc = rc < 0 ? -1 : !rc;
out:
    free(inv);
    free(ord);
    free(q.trans);
    free(q.label);
    free(q.parent);
    free(q.pgen);
    free(q.mul);
    sg_seq_clear(&q.g);
    return rc;
}
