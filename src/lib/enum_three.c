/*
 * enum_three.c - the enumerator for finite codes whose moves may leave
 * three heaps (hexadecimal digits with bit 8), without '!'.
 *
 * The straightforward method visits every triple a <= b <= c of heap - k:
 * O(n^2) per heap.  Here the two-heap option sets are kept as bitsets,
 * P(m) = {G(b) ^ G(m-b) : 1 <= b <= m/2}, computed once per m.  Every
 * three-heap option of a remainder r is G(a) ^ x with 1 <= a <= r-2 and x in
 * P(r-a) (a being any one of the three parts), so grouping the a's by their
 * value g gives the option set as the union over g of g ^ (OR of P(r-a) for
 * G(a) = g): O(r) word operations plus one pass per distinct value.  The
 * digits, the one-heap options and the sets P(m) come from the move
 * generator (moves.h) shared with the naive method and query.c.
 */
#define _DEFAULT_SOURCE
#include "sgexplore.h"
#include "enum_impl.h"
#include "moves.h"

#include <stdlib.h>
#include <string.h>

/* Whether this method applies: bit 8 somewhere, no '!', no tail. */
int sgi_three_applicable(const sg_rule *r)
{
    return (sg_rule_bits(r) & SG_BIT_THREE) && !r->tail_len &&
           !sg_rule_has_unequal(r);
}

typedef struct three {
    size_t words;      /* 64-bit words per value bitset: values < 64 words */
    uint64_t *pairs;   /* P(m), m < cap, `words` words each */
    size_t cap;
    uint64_t *unions;  /* one bitset per value g, for one remainder */
    sg_value *used;    /* the values g whose bitset is non-empty */
    unsigned char *in_use;
    uint64_t *stamp;   /* stamp[v] == tag: v is an option of the heap */
} three;

static void three_clear(three *t)
{
    free(t->pairs);
    free(t->unions);
    free(t->used);
    free(t->in_use);
    free(t->stamp);
    memset(t, 0, sizeof *t);
}

/* The move generator's visitor that adds an option's value to a bitset. */
static int bit_visit(void *ctx, const sg_option *o)
{
    uint64_t *p = (uint64_t *)ctx;

    p[o->value >> 6] |= (uint64_t)1 << (o->value & 63);
    return 0;
}

/* P(m) from the values G(1..m-1): the values of the two-heap options of
 * a heap of m tokens that removes none. */
static void pairs_fill(uint64_t *p, const sg_seq *s, size_t m, size_t words)
{
    memset(p, 0, words * sizeof *p);
    sg_moves_digit(s, m, 0, SG_BIT_TWO, 0, SG_BIT_TWO, bit_visit, p);
}

/* Size the bitsets for values up to max and (re)build P(0..n-1). */
static int three_fit(three *t, const sg_seq *s, sg_value max, size_t n)
{
    size_t words = 1, m;

    while (words * 64 <= (size_t)max)
        words *= 2;
    if (words == t->words && n <= t->cap)
        return 0;
    if (words != t->words)
        t->cap = 0; /* rows of the old width: the array is remade whole */
    if (sg_grow(&t->pairs, &t->cap, n < 1024 ? 1024 : n,
                words * sizeof *t->pairs))
        return -1;
    if (words != t->words) {
        uint64_t *nu = calloc(64 * words * words, sizeof *nu);
        sg_value *nd = realloc(t->used, 64 * words * sizeof *nd);
        unsigned char *ni = calloc(64 * words, 1);
        /* One more stamp than values: the mex may be 64 * words. */
        uint64_t *ns = realloc(t->stamp, (64 * words + 1) * sizeof *ns);
        free(t->unions);
        free(t->in_use);
        t->unions = nu;
        t->in_use = ni;
        if (nd)
            t->used = nd;
        if (ns)
            t->stamp = ns;
        if (!nu || !ns || !nd || !ni)
            return -1;
        memset(t->stamp, 0, (64 * words + 1) * sizeof *ns);
        t->words = words;
        for (m = 0; m < s->n; m++)
            pairs_fill(t->pairs + m * words, s, m, words);
    }
    return 0;
}

/* Mark every value in bitset p, xor g. */
static void mark_bits(uint64_t *stamp, uint64_t tag, const uint64_t *p,
                      size_t words, sg_value g)
{
    size_t w;

    for (w = 0; w < words; w++) {
        uint64_t bits = p[w];
        while (bits) {
            sg_value x = (sg_value)(w * 64 + (size_t)__builtin_ctzll(bits));
            stamp[x ^ g] = tag;
            bits &= bits - 1;
        }
    }
}

sg_status sgi_enumerate_three(sg_seq *s, const sg_rule *r, size_t n,
                              const sg_enum_options *opt, sg_error *err)
{
    three t;
    sg_status st;
    size_t h;

    memset(&t, 0, sizeof t);
    if (n <= s->n)
        return SG_OK;
    st = sg_seq_reserve(s, n, err);
    if (st)
        return st;
    if (three_fit(&t, s, s->max, s->n + 1))
        goto nomem;
    for (h = s->n; h < n; h++) {
        uint64_t tag = (uint64_t)h + 1;
        size_t k, W;
        unsigned d;
        int uneq;
        sg_digits it;
        sg_mark_ctx mk;
        sg_value v;

        /* Each heap costs O(h) word operations: look at the flag every
         * time, report progress now and then. */
        if (sg_enum_cancelled(opt)) {
            three_clear(&t);
            return sg_enum_interrupted(s, err);
        }
        if (h % SG_ENUM_POLL == 0)
            sg_enum_progress(opt, h, n, 0);
        /* P(h) is needed by heap h itself (a split that removes nothing)
         * and depends only on G(1..h-1). */
        if (three_fit(&t, s, s->max, h + 1))
            goto nomem;
        W = t.words;
        pairs_fill(t.pairs + h * W, s, h, W);
        mk.stamp = t.stamp;
        mk.tag = tag;
        sg_digits_start(&it, r, h);
        while (sg_digits_next(&it, &k, &d, &uneq)) {
            size_t rem = h - k, a, g, nused;

            /* No '!' here (sgi_three_applicable), and no tail. */
            sg_moves_digit(s, h, k, d, 0, SG_BIT_ALL | SG_BIT_ONE,
                           sg_mark_visit, &mk);
            if ((d & SG_BIT_TWO) && rem >= 2)
                mark_bits(t.stamp, tag, t.pairs + rem * W, W, 0);
            if (!((d & SG_BIT_THREE) && rem >= 3))
                continue;
            /* Bitsets of untouched values stay zero between uses. */
            nused = 0;
            for (a = 1; a + 2 <= rem; a++) {
                sg_value ga = sg_seq_get(s, a);
                uint64_t *u = t.unions + (size_t)ga * W;
                const uint64_t *p = t.pairs + (rem - a) * W;
                size_t w;
                if (!t.in_use[ga]) {
                    t.in_use[ga] = 1;
                    t.used[nused++] = ga;
                }
                for (w = 0; w < W; w++)
                    u[w] |= p[w];
            }
            for (g = 0; g < nused; g++) {
                uint64_t *u = t.unions + (size_t)t.used[g] * W;
                mark_bits(t.stamp, tag, u, W, t.used[g]);
                memset(u, 0, W * sizeof *u);
                t.in_use[t.used[g]] = 0;
            }
        }
        for (v = 0; t.stamp[v] == tag; v++)
            ;
        st = sg_seq_append(s, v, err);
        if (st) {
            three_clear(&t);
            return st;
        }
    }
    three_clear(&t);
    return SG_OK;
nomem:
    three_clear(&t);
    return sg_error_set(err, SG_E_NOMEM, -1, "out of memory");
}
