/*
 * misere_quot_impl.h - internal to libsg, shared by the files of the misère
 * quotients: misere_quot.c (the method and the quotients heap by heap),
 * misere_learn.c (words, oracles, hypothesis, counterexamples) and
 * misere_check.c (Theorem Q's check).  The computation's state, the table
 * of words, and the functions one of them lends the others.
 */
#ifndef SG_MISERE_QUOT_IMPL_H
#define SG_MISERE_QUOT_IMPL_H

#include "sgexplore.h"
#include "internal.h"
#include "misere_impl.h"
#include "rules/moves.h"

#include <signal.h>
#include <stdint.h>

/* At most this many heaps are free in the fast oracle's keys. */
#define SGI_MQUOT_MAX_FREE 62

/* At most this many rungs of the fast oracle per heap. */
#define SGI_MQUOT_MAX_RUNGS 64

/* No state: the parent of the empty word's state. */
#define SGI_MQUOT_NONE UINT32_MAX

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

/* A quotient's computation: the rule, the oracles, the words and test
 * sums (learning), the hypothesis (learned, then checked), the proven
 * quotient of the heaps before. */
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
    size_t states;                 /* proof states visited */
    volatile sig_atomic_t *cancel; /* polled, or NULL */
    int check_only;   /* a failed check says so, without refining */
    int fast;         /* outcomes from the fast oracle */
    int inconsistent; /* the oracle contradicted itself */
    /* the fast oracle (misere_learn.c): the outcome of w + j times heap
     * k memoised on the key (Phi_{k-1}(w without the free heaps), j, the
     * count of each free heap in w); free[h] != 0 for the free heaps */
    unsigned char *free_heap;
    uint32_t *free_idx; /* free heap h is key word 2 + free_idx[h] */
    size_t nfree;
    uint32_t fold_period; /* a free heap's count, folded: */
    uint32_t *fold_at;    /* exact below fold_at[h] + period, then mod */
    /* the states keying the rest of w: the last rung's hypothesis (bk
     * heaps), or NULL for the proven quotient of heaps 1..k-1 */
    uint32_t *btrans;
    int hyp_complete; /* trans holds a whole hypothesis */
    size_t bk;
    uint32_t *mkey;      /* the keys, kw words each */
    unsigned char *mval; /* their outcomes */
    size_t *mslot;       /* key index + 1, 0 when empty */
    size_t mn, mcapk, mcapv, mnslots, kw;
    int rung;            /* 0: no free heap; then more heaps free each rung */
    unsigned flags;      /* SGI_MQUOT_MONOID_* (tests) */
    size_t monoid_heaps; /* heaps proven by the monoid rung */
    uint32_t *fail;      /* the sum where the fast oracle contradicted itself */
    size_t nfail, capfail;
} qctx;

/* The options of one heap, collected. */
typedef struct opt_list {
    sgi_option *o;
    size_t n, cap;
    int failed;
} opt_list;

/* ------------------------------------------------------------------ */
/* misere_learn.c                                                       */
/* ------------------------------------------------------------------ */

/* The id of word x, adding it when new; SIZE_MAX when out of memory. */
size_t sgi_mquot_wtab_get(wtab *w, const uint32_t *x, size_t len);

/* Room for rows of `bits` bits: the rows copied to a longer stride. */
int sgi_mquot_wtab_widen(wtab *w, size_t bits);

void sgi_mquot_wtab_clear(wtab *w);

/* Outcomes of sums of heaps 1..pk from the proven quotient (the exact
 * search's hook; arg is the qctx). */
int sgi_mquot_known_outcome(void *arg, const uint32_t *x, size_t len);

/* sgi_moves_heap's visitor collecting the options into an opt_list. */
int sgi_mquot_list_visit(void *ctx, const sgi_option *o);

/* Forget the fast oracle's memo (a new heap k, or a new rung). */
void sgi_mquot_fast_reset(qctx *q);

/* Whether the fast oracle obeys the rule of play at the sorted sum x:
 * 1 when it does, 0 when not, -1 on failure. */
int sgi_mquot_fast_agrees(qctx *q, const uint32_t *x, size_t len);

/* Make the heaps h[0..n-1] (each below k) the fast oracle's free heaps,
 * and forget its memo: 0, or -1 when out of memory (said). */
int sgi_mquot_set_free(qctx *q, const uint32_t *h, size_t n);

/* 1 when the sorted sum x is a P-position, 0 when not, -1 on failure:
 * the fast oracle or the exact search. */
int sgi_mquot_is_p(qctx *q, const uint32_t *x, size_t len);

/* The sorted union of x and y into *out (grown): its length, or
 * SIZE_MAX when out of memory. */
size_t sgi_mquot_merge(uint32_t **out, size_t *cap, const uint32_t *x,
                       size_t xl, const uint32_t *y, size_t yl);

/* Forget every row (another oracle). */
void sgi_mquot_rows_reset(qctx *q);

/* Build the states and transitions from T: 0, 1 when more than
 * max_order states are told apart, -1 on failure. */
int sgi_mquot_hyp_build(qctx *q);

/* The heaps of state s's word in the order the walk met them: *len of
 * them into *out (grown); -1 when out of memory. */
int sgi_mquot_state_path(const qctx *q, uint32_t s, uint32_t **out, size_t *cap,
                         size_t *len);

/* The test sum that tells apart two words the hypothesis took for one
 * state, from the counterexample path + z: 0, or -1 on failure. */
int sgi_mquot_refine(qctx *q, const uint32_t *path, size_t L, size_t zid);

/* ------------------------------------------------------------------ */
/* misere_check.c: Theorem Q's check, each part 0 when it passes, 1     */
/* when a counterexample was found (and refined unless check_only),     */
/* -1 on failure                                                        */
/* ------------------------------------------------------------------ */

/* (1): the heaps commute on every state. */
int sgi_mquot_check_commute(qctx *q);

/* The product table mul from the walk's tree; 2 past the budget. */
int sgi_mquot_build_mul(qctx *q);

/* (2): the walk over (u, f, C); 2 past the budget. */
int sgi_mquot_check_outcomes(qctx *q);

/* (3): 1 when no two states are indistinguishable, 0 when some are, -1
 * on failure. */
int sgi_mquot_check_reduced(const qctx *q);

/* Moore's refinement of states 0..n-1 under the heaps 1..k (trans) and
 * P (label): cls[u] the class of u, numbered by first state; the number
 * of classes, 0 when out of memory. */
size_t sgi_mquot_moore(size_t n, size_t k, const uint32_t *trans,
                       const unsigned char *label, uint32_t *cls);

/* ------------------------------------------------------------------ */
/* misere_monoid.c                                                      */
/* ------------------------------------------------------------------ */

/* Heap k's candidates built as monoids from the proven Q_{k-1} (after
 * MisereSolver), each checked by Theorem Q: 1 when one passed (the
 * hypothesis in q: nq, trans, label, parent, pgen, mul), 2 when one
 * passed with more than max_order elements, 0 when none did within the
 * limits, -1 on failure. */
int sgi_mquot_monoid(qctx *q);

/* ------------------------------------------------------------------ */
/* Small helpers                                                        */
/* ------------------------------------------------------------------ */

static inline const uint32_t *wtab_word(const wtab *w, size_t id, size_t *len)
{
    *len = w->len[id];
    return w->pool + w->off[id];
}

static inline sg_status nomem(qctx *q)
{
    return sg_error_set(q->err, SG_E_NOMEM, -1, "out of memory");
}

static inline int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

    return x < y ? -1 : x > y;
}

static inline int row_bit(const qctx *q, size_t id, size_t t)
{
    return (int)(q->w.rows[id * q->w.stride + t / 64] >> (t % 64) & 1);
}

/* The state reached from u by the heaps x[0..len-1]. */
static inline uint32_t hyp_read(const qctx *q, uint32_t u, const uint32_t *x,
                                size_t len)
{
    size_t i;

    for (i = 0; i < len; i++)
        if (x[i])
            u = q->trans[(size_t)u * q->k + x[i] - 1];
    return u;
}

#endif /* SG_MISERE_QUOT_IMPL_H */
