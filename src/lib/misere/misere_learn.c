/*
 * misere_learn.c - learning a misère quotient's hypothesis (the method is
 * at the top of misere_quot.c): the words met, each with its row of true
 * outcomes over the test sums T; the two oracles of those outcomes (the
 * fast one, from the proven quotient of the heaps before, and the exact
 * search of misere.c); the states and transitions the rows tell apart;
 * and the Rivest-Schapire binary search that turns a counterexample into
 * a new test sum.
 */
#include "misere_quot_impl.h"
#include "base/fnv.h"

#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ */
/* Words: multisets of heaps as sorted arrays, with their rows          */
/* ------------------------------------------------------------------ */

static uint64_t word_hash(const uint32_t *x, size_t len)
{
    uint64_t h = sgi_fnv1a(SG_FNV_OFFSET, x, len * sizeof *x);

    return h ^ (h >> 31) ^ len;
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
size_t sgi_mquot_wtab_get(wtab *w, const uint32_t *x, size_t len)
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
int sgi_mquot_wtab_widen(wtab *w, size_t bits)
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

void sgi_mquot_wtab_clear(wtab *w)
{
    free(w->pool);
    free(w->off);
    free(w->len);
    free(w->nbits);
    free(w->slot);
    free(w->rows);
    memset(w, 0, sizeof *w);
}

/* Outcomes of sums of heaps 1..pk from the proven quotient. */
int sgi_mquot_known_outcome(void *arg, const uint32_t *x, size_t len)
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

int sgi_mquot_list_visit(void *ctx, const sgi_option *o)
{
    opt_list *l = ctx;

    if (sg_grow(&l->o, &l->cap, l->n + 1, sizeof *l->o)) {
        l->failed = 1;
        return 1;
    }
    l->o[l->n++] = *o;
    return 0;
}

/* The fast oracle's memo: the slot of key (kw words), found or empty;
 * SIZE_MAX when out of memory. */
static size_t memo_find(qctx *q, const uint32_t *key)
{
    size_t i, s;

    if (2 * (q->mn + 1) > q->mnslots) {
        size_t ns = q->mnslots ? 2 * q->mnslots : 4096, *old = q->mslot, e;
        if (q->mn * (q->kw * sizeof *key + 1 + 2 * sizeof *old) > q->budget)
            return SIZE_MAX;
        if (!(q->mslot = calloc(ns, sizeof *q->mslot))) {
            q->mslot = old;
            return SIZE_MAX;
        }
        free(old);
        q->mnslots = ns;
        for (e = 0; e < q->mn; e++) {
            const uint32_t *k = q->mkey + e * q->kw;
            for (i = (size_t)word_hash(k, q->kw) & (ns - 1); q->mslot[i];
                 i = (i + 1) & (ns - 1))
                ;
            q->mslot[i] = e + 1;
        }
    }
    for (i = (size_t)word_hash(key, q->kw) & (q->mnslots - 1);
         (s = q->mslot[i]) != 0; i = (i + 1) & (q->mnslots - 1))
        if (!memcmp(q->mkey + (s - 1) * q->kw, key, q->kw * sizeof *key))
            break;
    return i;
}

/* Whether some option of the sorted sum x is a P-position by the fast
 * oracle (searched at depth): 1 when one is, 0 when none is (*any: x
 * has an option), -1 on failure; all: ask about every option even past
 * a P one (the memo keeps the first word of each key, so which options
 * are asked shapes later answers).  The one loop over the options of a
 * sum that fast_p and sgi_mquot_fast_agrees share. */
static int fast_p(qctx *q, const uint32_t *x, size_t len, size_t depth);

static int some_option_p(qctx *q, const uint32_t *x, size_t len, size_t depth,
                         int all, int *any)
{
    uint32_t *y = malloc((len + 3) * sizeof *y);
    size_t i, c;
    int found = 0;

    *any = 0;
    if (!y)
        return nomem(q), -1;
    for (i = 0; i < len && (all ? found >= 0 : !found); i++) {
        opt_list l;
        if (i && x[i] == x[i - 1])
            continue;
        memset(&l, 0, sizeof l);
        sgi_moves_heap(q->r, &q->g, x[i], sgi_mquot_list_visit, &l);
        if (l.failed) {
            free(l.o);
            free(y);
            return nomem(q), -1;
        }
        for (c = 0; c < l.n && (all ? found >= 0 : !found); c++) {
            size_t n = 0, a;
            int k, r;
            for (a = 0; a < len; a++)
                if (a != i)
                    y[n++] = x[a];
            for (k = 0; k < l.o[c].nparts; k++)
                y[n++] = (uint32_t)l.o[c].part[k];
            qsort(y, n, sizeof *y, cmp_u32);
            *any = 1;
            if ((r = fast_p(q, y, n, depth)) < 0) {
                found = -1;
                break;
            }
            if (r)
                found = 1; /* a move to a P-position */
        }
        free(l.o);
        if (found < 0)
            break;
    }
    free(y);
    return found;
}

/* The fast oracle: the outcome of w + j (heap k), w a sum of heaps
 * 1..k-1, memoised on (Phi_{k-1}(w'), j, the counts of the free heaps
 * in w), w' the rest of w.  With no free heap that is exact when the
 * quotient of heaps 1..k-1 tells apart everything heap k does (no class
 * splits), the common case but not a theorem; heaps made free are
 * counted exactly, so that with every heap free it is the exact search.
 * The proof does not rely on it: a contradiction sends the stage to the
 * next rung (more heaps free), and at last to the exact search.
 * 1 (P), 0 (N), -1 on failure. */
static int fast_p(qctx *q, const uint32_t *x, size_t len, size_t depth)
{
    size_t j = 0, i, slot;
    uint32_t u = 0, uall = 0, key[SGI_MQUOT_MAX_FREE + 2];
    int any = 0, p = 1, r;

    while (j < len && x[len - 1 - j] == q->k)
        j++;
    memset(key, 0, sizeof key);
    for (i = 0; i + j < len; i++) {
        uall = q->ptrans[(size_t)uall * q->pk + x[i] - 1];
        if (q->nfree && q->free_heap[x[i]]) {
            /* counted up to the index, then modulo the period */
            uint32_t *cnt = &key[2 + q->free_idx[x[i]]];
            if (++*cnt >= q->fold_at[x[i]] + q->fold_period)
                *cnt -= q->fold_period;
        } else
            u = q->btrans ? q->btrans[(size_t)u * q->bk + x[i] - 1]
                          : q->ptrans[(size_t)u * q->pk + x[i] - 1];
    }
    if (!j) {
        return q->plabel[uall];
    }
    key[0] = u;
    key[1] = (uint32_t)j;
    if ((slot = memo_find(q, key)) == SIZE_MAX) {
        q->inconsistent = 1; /* this rung is too large: try the next */
        sg_error_set(q->err, SG_E_UNKNOWN, -1,
                     "too large: the fast oracle's memo is past the budget");
        return -1;
    }
    if (q->mslot[slot]) {
        p = q->mval[q->mslot[slot] - 1];
        return p;
    }
    if (depth > 100000) {
        sg_error_set(q->err, SG_E_UNKNOWN, -1,
                     "too large: the quotient's search went too deep");
        return -1;
    }
    if ((r = some_option_p(q, x, len, depth + 1, 0, &any)) < 0)
        return -1;
    p = !r && any;
    /* the recursion may have grown the table: find the slot again */
    if ((slot = memo_find(q, key)) == SIZE_MAX ||
        sg_grow(&q->mkey, &q->mcapk, (q->mn + 1) * q->kw, sizeof *q->mkey) ||
        sg_grow(&q->mval, &q->mcapv, q->mn + 1, 1)) {
        q->inconsistent = 1;
        sg_error_set(q->err, SG_E_UNKNOWN, -1,
                     "too large: the fast oracle's memo is past the budget");
        return -1;
    }
    if (q->mslot[slot]) /* an option of x had x's key: keep its value */
        return q->mval[q->mslot[slot] - 1];
    memcpy(q->mkey + q->mn * q->kw, key, q->kw * sizeof *key);
    q->mval[q->mn] = (unsigned char)p;
    q->mslot[slot] = ++q->mn;
    return p;
}

/* Forget the fast oracle's memo (a new heap k, or a new rung). */
void sgi_mquot_fast_reset(qctx *q)
{
    free(q->mkey);
    free(q->mval);
    free(q->mslot);
    q->mkey = NULL;
    q->mval = NULL;
    q->mslot = NULL;
    q->mn = q->mcapk = q->mcapv = q->mnslots = 0;
    q->kw = 2 + q->nfree;
}

/* 1 when the sorted sum x is a P-position, 0 when not, -1 on failure:
 * the fast oracle or the exact search. */
int sgi_mquot_is_p(qctx *q, const uint32_t *x, size_t len)
{
    int o;

    if (q->fast)
        return fast_p(q, x, len, 0);
    o = sgi_mis_search_outcome(q->search, x, len);
    return o < 0 ? -1 : !o;
}

/* The sorted union of x and y into *out (grown): its length, or
 * SIZE_MAX when out of memory. */
size_t sgi_mquot_merge(uint32_t **out, size_t *cap, const uint32_t *x,
                       size_t xl, const uint32_t *y, size_t yl)
{
    size_t i = 0, j = 0, n = 0;

    if (sg_grow(out, cap, xl + yl + 1, sizeof **out))
        return SIZE_MAX;
    while (i < xl || j < yl)
        (*out)[n++] = j >= yl || (i < xl && x[i] <= y[j]) ? x[i++] : y[j++];
    return n;
}

/* Forget every row (another oracle). */
void sgi_mquot_rows_reset(qctx *q)
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
        if ((n = sgi_mquot_merge(&q->a, &q->capa, x, xl, y, yl)) == SIZE_MAX) {
            nomem(q);
            return -1;
        }
        /* x may have moved: merge read it before any growth of pool */
        if ((p = sgi_mquot_is_p(q, q->a, n)) < 0)
            return -1;
        if (p)
            q->w.rows[id * q->w.stride + t / 64] |= (uint64_t)1 << (t % 64);
        q->w.nbits[id]++;
    }
    return 0;
}

/* ------------------------------------------------------------------ */
/* The hypothesis                                                       */
/* ------------------------------------------------------------------ */

/* Build the states and transitions from T: 0, 1 when more than
 * max_order states are told apart, -1 on failure. */
int sgi_mquot_hyp_build(qctx *q)
{
    size_t nw = (q->nT + 63) / 64, nslots = 1024, *slot = NULL, s, i;
    int rc = 0;

    while (nslots < 2 * (q->max_order + 1))
        nslots *= 2;
    if (!(slot = calloc(nslots, sizeof *slot)))
        return nomem(q), -1;
    q->nq = 0;
    q->hyp_complete = 0;
    {
        size_t id = sgi_mquot_wtab_get(&q->w, NULL, 0);
        if (id == SIZE_MAX || row_fill(q, id))
            goto fail;
        if (sg_grow(&q->rep, &q->caprep, 1, sizeof *q->rep) ||
            sg_grow(&q->parent, &q->cappar, 1, sizeof *q->parent) ||
            sg_grow(&q->pgen, &q->cappg, 1, sizeof *q->pgen))
            goto oom;
        q->rep[0] = id;
        q->parent[0] = SGI_MQUOT_NONE;
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
            if ((n = sgi_mquot_merge(&q->b, &q->capb, x, xl, &h, 1)) ==
                SIZE_MAX)
                goto oom;
            if ((id = sgi_mquot_wtab_get(&q->w, q->b, n)) == SIZE_MAX)
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
    q->hyp_complete = 1;
    goto out;
oom:
    nomem(q);
fail:
    rc = -1;
out:
    free(slot);
    return rc;
}

/* The heaps of state s's word in the order the walk met them: *len of
 * them into *out (grown); -1 when out of memory. */
int sgi_mquot_state_path(const qctx *q, uint32_t s, uint32_t **out, size_t *cap,
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
int sgi_mquot_refine(qctx *q, const uint32_t *path, size_t L, size_t zid)
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
        if ((n1 = sgi_mquot_merge(&q->a, &q->capa, rw, rl, zw, zl)) ==         \
            SIZE_MAX)                                                          \
            goto oom;                                                          \
        if (sg_grow(&tail, &captail, L - (jj) + 1, sizeof *tail))              \
            goto oom;                                                          \
        for (m = 0; m < L - (jj); m++)                                         \
            tail[m] = path[(jj) + m];                                          \
        qsort(tail, L - (jj), sizeof *tail, cmp_u32);                          \
        if ((n2 = sgi_mquot_merge(&q->b, &q->capb, q->a, n1, tail,             \
                                  L - (jj))) == SIZE_MAX)                      \
            goto oom;                                                          \
        if (((res) = sgi_mquot_is_p(q, q->b, n2)) < 0)                         \
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
        if ((tl = sgi_mquot_merge(&q->b, &q->capb, tail, tl, zw, zl)) ==
            SIZE_MAX)
            goto oom;
    }
    if ((id = sgi_mquot_wtab_get(&q->w, q->b, tl)) == SIZE_MAX)
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
        sgi_mquot_wtab_widen(&q->w, q->nT + 1))
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

/* Make the heaps h[0..n-1] (each below k) the fast oracle's free heaps,
 * and forget its memo: 0, or -1 when out of memory (said). */
int sgi_mquot_set_free(qctx *q, const uint32_t *h, size_t n)
{
    size_t i;

    free(q->free_heap);
    free(q->free_idx);
    q->free_heap = calloc(q->k + 1, 1);
    q->free_idx = calloc(q->k + 1, sizeof *q->free_idx);
    q->nfree = 0;
    if (!q->free_heap || !q->free_idx)
        return nomem(q), -1;
    for (i = 0; i < n && q->nfree < SGI_MQUOT_MAX_FREE; i++)
        if (h[i] >= 1 && h[i] < q->k && !q->free_heap[h[i]]) {
            q->free_heap[h[i]] = 1;
            q->free_idx[h[i]] = (uint32_t)q->nfree++;
        }
    sgi_mquot_fast_reset(q);
    return 0;
}

/* Whether the fast oracle obeys the rule of play at the sorted sum x
 * (x is P iff it has a move and no option is P): 1 when it does, 0 when
 * not, -1 on failure. */
int sgi_mquot_fast_agrees(qctx *q, const uint32_t *x, size_t len)
{
    int any, r, v;

    if ((r = some_option_p(q, x, len, 0, 1, &any)) < 0 ||
        (v = fast_p(q, x, len, 0)) < 0)
        return -1;
    return v == (!r && any);
}
