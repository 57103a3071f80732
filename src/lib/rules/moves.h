/*
 * moves.h - internal to libsg: the one move generator for the digit bits
 * of a take-and-break rule (with `!`).  Heap h has, for each digit d at
 * position k <= h (k tokens removed, rem = h - k left):
 *   SG_BIT_ALL    rem = 0: nothing left;
 *   SG_BIT_ONE    rem >= 1: one heap rem;
 *   SG_BIT_TWO    two heaps a + b = rem, 1 <= a <= b (a != b with `!`);
 *   SG_BIT_THREE  three heaps a + b + c = rem, 1 <= a <= b <= c (all
 *                 different with `!`).
 * sgi_digits walks the digits a heap can use, sgi_moves_digit the options
 * of one digit.  The generator is inline and hands each option to a
 * visitor that is inlined too, so that the naive enumerator (marking
 * stamps), the three-heap enumerator (the two-heap sets P(m) and the
 * one-heap moves) and the winning-move search (query.c, looking for one
 * value) share it at the speed of a hand-written loop.  moves.c holds the
 * two whole-heap uses: marking every option, finding one.
 */
#ifndef SG_MOVES_H
#define SG_MOVES_H

#include "sgexplore.h"

/* One option: remove `take` tokens, leave heaps part[0..nparts-1]
 * (ascending) whose values xor to `value`. */
typedef struct sgi_option {
    size_t take;
    int nparts; /* 0..3 */
    size_t part[3];
    sg_value value;
} sgi_option;

/* Called for each option; a non-zero return stops the generator. */
typedef int (*sgi_option_fn)(void *ctx, const sgi_option *o);

/* The digits a move from heap h can use, k ascending: the rule's terms
 * with take <= h, then the repeating tail from tail_start up to h. */
typedef struct sgi_digits {
    const sg_rule *r;
    size_t h, i, k, j;
} sgi_digits;

static inline void sgi_digits_start(sgi_digits *it, const sg_rule *r, size_t h)
{
    it->r = r;
    it->h = h;
    it->i = 0;
    it->k = (size_t)r->tail_start;
    it->j = 0;
}

/* The next digit: sets *k, *d (SG_BIT_* mask) and *uneq (`!`); 0 when
 * there are no more. */
static inline int sgi_digits_next(sgi_digits *it, size_t *k, unsigned *d,
                                  int *uneq)
{
    const sg_rule *r = it->r;

    if (it->i < r->nterms && r->terms[it->i].take <= it->h) {
        *k = (size_t)r->terms[it->i].take;
        *d = r->terms[it->i].digit;
        *uneq = r->terms[it->i].unequal;
        it->i++;
        return 1;
    }
    it->i = r->nterms; /* terms are ascending: none further applies */
    if (r->tail_len && it->k <= it->h) {
        *k = it->k++;
        *d = r->tail[it->j];
        *uneq = r->tail_unequal[it->j];
        if (++it->j == r->tail_len)
            it->j = 0;
        return 1;
    }
    return 0;
}

/* Hand every option of heap h under digit d at position k <= h, of the
 * kinds in `kinds` (SG_BIT_* mask), to fn: by kind in the order above,
 * parts ascending lexicographically.  Returns 1 when fn stopped it, else
 * 0.  G(1..h-k) must be in g. */
static inline __attribute__((always_inline)) int
sgi_moves_digit(const sg_seq *g, size_t h, size_t k, unsigned d, int uneq,
                unsigned kinds, sgi_option_fn fn, void *ctx)
{
    size_t rem = h - k;
    sgi_option o;

    d &= kinds;
    o.take = k;
    if ((d & SG_BIT_ALL) && rem == 0) {
        o.nparts = 0;
        o.value = 0;
        if (fn(ctx, &o))
            return 1;
    }
    if ((d & SG_BIT_ONE) && rem >= 1) {
        o.nparts = 1;
        o.part[0] = rem;
        o.value = sg_seq_get(g, rem);
        if (fn(ctx, &o))
            return 1;
    }
    if ((d & SG_BIT_TWO) && rem >= 2) {
        size_t a;
        o.nparts = 2;
        for (a = 1; a <= rem / 2; a++) {
            if (uneq && 2 * a == rem)
                continue;
            o.part[0] = a;
            o.part[1] = rem - a;
            o.value = sg_seq_get(g, a) ^ sg_seq_get(g, rem - a);
            if (fn(ctx, &o))
                return 1;
        }
    }
    if ((d & SG_BIT_THREE) && rem >= 3) {
        size_t a, b;
        o.nparts = 3;
        for (a = 1; 3 * a <= rem; a++)
            for (b = a; a + 2 * b <= rem; b++) {
                size_t c = rem - a - b;
                if (uneq && (a == b || b == c))
                    continue;
                o.part[0] = a;
                o.part[1] = b;
                o.part[2] = c;
                o.value =
                    sg_seq_get(g, a) ^ sg_seq_get(g, b) ^ sg_seq_get(g, c);
                if (fn(ctx, &o))
                    return 1;
            }
    }
    return 0;
}

/* Every kind of option. */
#define SG_BITS_ALL_KINDS (SG_BIT_ALL | SG_BIT_ONE | SG_BIT_TWO | SG_BIT_THREE)

/* The options of heap h under a rule holding a set expression (moves.c):
 * take k of the set (or, for all-but, k >= 1 not in it), leaving one heap
 * or none. */
int sgi_moves_heap_set(const sg_rule *r, const sg_seq *g, size_t h,
                       sgi_option_fn fn, void *ctx);

/* The options of heap h under a code in CGSuite's whole notation or a
 * rule by sets (moves.c), listed one by one for the misère searches: only
 * for rules whose moves leave at most three heaps (sgi_misere_refuse
 * refuses the others). */
int sgi_moves_heap_tb(const sg_rule *r, const sg_seq *g, size_t h,
                      sgi_option_fn fn, void *ctx);

/* Hand every option of heap h under r to fn: digit by digit (k
 * ascending), each as sgi_moves_digit does; a set rule's k ascending too.
 * Returns 1 when fn stopped it, else 0. */
static inline __attribute__((always_inline)) int
sgi_moves_heap(const sg_rule *r, const sg_seq *g, size_t h, sgi_option_fn fn,
               void *ctx)
{
    sgi_digits it;
    size_t k;
    unsigned d;
    int uneq;

    if (r->set)
        return sgi_moves_heap_set(r, g, h, fn, ctx);
    if (r->tb)
        return sgi_moves_heap_tb(r, g, h, fn, ctx);
    sgi_digits_start(&it, r, h);
    while (sgi_digits_next(&it, &k, &d, &uneq))
        if (sgi_moves_digit(g, h, k, d, uneq, SG_BITS_ALL_KINDS, fn, ctx))
            return 1;
    return 0;
}

/* Stamp marking: stamp[value] = tag for each option handed over. */
typedef struct sgi_mark_ctx {
    uint64_t *stamp;
    uint64_t tag;
} sgi_mark_ctx;

static inline int sgi_mark_visit(void *ctx, const sgi_option *o)
{
    sgi_mark_ctx *m = (sgi_mark_ctx *)ctx;

    m->stamp[o->value] = m->tag;
    return 0;
}

/* Set stamp[v] = tag for the value v of every option of heap h under r;
 * stamp must have room for every xor of values in G(1..h-1).  The naive
 * enumerator's step. */
void sgi_moves_mark(uint64_t *stamp, uint64_t tag, const sg_rule *r,
                    const sg_seq *g, size_t h);

/* Find the first option of heap h (h < g->n) under r, in the generator's
 * order, of value `target` whose largest part is at least minpart (an
 * option leaving nothing counts as largest part 0).  Returns 1 and fills
 * *out, else 0.  The winning-move search. */
int sgi_moves_find(sgi_option *out, const sg_rule *r, const sg_seq *g, size_t h,
                   sg_value target, size_t minpart);

#endif /* SG_MOVES_H */
