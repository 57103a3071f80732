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
 * G(a) = g): O(r) word operations plus one pass per distinct value.
 */
#define _DEFAULT_SOURCE
#include "sgexplore.h"

#include <stdlib.h>
#include <string.h>

/* Whether this method applies: bit 8 somewhere, no '!', no tail. */
int sg_three_applicable(const sg_rule *r)
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

/* P(m) from the values G(1..m-1). */
static void pairs_fill(uint64_t *p, const sg_seq *s, size_t m, size_t words)
{
    size_t b;

    memset(p, 0, words * sizeof *p);
    for (b = 1; 2 * b <= m; b++) {
        sg_value x = sg_seq_get(s, b) ^ sg_seq_get(s, m - b);
        p[x >> 6] |= (uint64_t)1 << (x & 63);
    }
}

/* Size the bitsets for values up to max and (re)build P(0..n-1). */
static int three_fit(three *t, const sg_seq *s, sg_value max, size_t n)
{
    size_t words = 1, m;

    while (words * 64 <= (size_t)max)
        words *= 2;
    if (words == t->words && n <= t->cap)
        return 0;
    if (n > t->cap || words != t->words) {
        size_t cap = t->cap ? t->cap : 1024;
        uint64_t *np;
        while (cap < n)
            cap *= 2;
        np = realloc(t->pairs, cap * words * sizeof *np);
        if (!np)
            return -1;
        t->pairs = np;
        t->cap = cap;
    }
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

sg_status sg_enumerate_three(sg_seq *s, const sg_rule *r, size_t n,
                             volatile sig_atomic_t *cancel, sg_error *err)
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
        size_t i, W;
        sg_value v;

        if (cancel && *cancel) {
            three_clear(&t);
            return sg_error_set(err, SG_E_INTERRUPTED, -1,
                                "interrupted after %zu values", s->n);
        }
        /* P(h) is needed by heap h itself (a split that removes nothing)
         * and depends only on G(1..h-1). */
        if (three_fit(&t, s, s->max, h + 1))
            goto nomem;
        W = t.words;
        pairs_fill(t.pairs + h * W, s, h, W);
        for (i = 0; i < r->nterms && r->terms[i].take <= h; i++) {
            size_t rem = h - (size_t)r->terms[i].take, a, g, nused;
            unsigned d = r->terms[i].digit;

            if ((d & SG_BIT_ALL) && rem == 0)
                t.stamp[0] = tag;
            if ((d & SG_BIT_ONE) && rem >= 1)
                t.stamp[sg_seq_get(s, rem)] = tag;
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
