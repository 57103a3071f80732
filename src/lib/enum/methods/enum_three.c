/*
 * enum_three.c - the enumerator for finite codes whose moves may leave
 * three heaps (hexadecimal digits with bit 8), without '!'.
 *
 * The straightforward method visits every triple a <= b <= c of heap - k:
 * O(n^2) per heap.  Here the two-heap option sets are kept as bitsets,
 * P(m) = {G(b) ^ G(m-b) : 1 <= b <= m/2}, computed once per m, and the
 * three-heap options of a remainder r are
 *     T(r) = union over 1 <= a <= r-2 of G(a) ^ P(r-a)
 * (a being any one of the three parts: every triple has one, and every
 * a, b, c >= 1 with a + b + c = r is a triple).  The translate of a
 * bitset by xor with g = 64 * hi + lo is word-wise: word w of it is word
 * w ^ hi of the set with its bits permuted by xor with lo
 * (sgi_xor_translate, six delta swaps).
 *
 * Only the mex is wanted, so the heap's option set is built one 64-value
 * word at a time, from the lowest, and the first word that is not full
 * gives the mex (all values are below 64 * words, a power of two, and so
 * are their xors).  Word w is the or of the heap's one- and two-heap
 * options there and, for each three-heap remainder r, of word w ^ hi(a)
 * of P(r - a) translated by lo(a), for every a; a word stops at the first
 * a that fills it, which is only ever a shortcut.  The order of the a's
 * is the one that fills words early in the games measured: by the word
 * j = w ^ hi(a) of P read, lowest first, as the two-heap sets of
 * ruler-like games (values growing with the heap: 0.2048, 0.8F) hold
 * mostly small xors of two values of like size.  The heaps of each hi
 * are kept in a list, so a word costs a walk of the lists, and only the
 * word of the mex walks them all: about r plus a few hundred steps per
 * word below the mex, against the r * words ors and values^2 stamps of
 * the set built whole (0.2048 to 2*10^4: 65.7 s of CPU before, 1.1 s).
 *
 * What a run holds is P(0..n-1), `words` words each, checked against
 * the machine's memory (SG_E_INPUT, as a request too large) before it
 * starts and whenever the values widen.  The digits, the one-heap options
 * and P(m) come from the move generator (moves.h) shared with the naive
 * method, the reference of the tests.
 */
#define _DEFAULT_SOURCE
#include "sgexplore.h"
#include "enum_impl.h"
#include "rules/moves.h"

#include <stdlib.h>
#include <string.h>

/* Whether this method applies: bit 8 somewhere, no '!', no tail (the
 * profile's answer, rules/profile.c). */
int sgi_three_applicable(const sg_rule *r)
{
    return sgi_method_applies(r, SGI_METHOD_THREE);
}

typedef struct three {
    size_t words;    /* 64-bit words per value bitset, a power of two */
    uint64_t full;   /* a word holding every value an option can have:
                        all ones, or the values below max's span when
                        that is under 64 */
    uint64_t *pairs; /* P(m), m < cap, word-major (three_fit) */
    size_t cap;      /* the run's target n: rows of `cap` words */
    uint64_t *base;  /* the heap's one- and two-heap options */
    size_t *rems;    /* the heap's three-heap remainders */
    size_t nrems, crems;
    sg_value *lo;  /* G(a) & 63, for a < cap */
    size_t *next;  /* the next a' > a with G(a') >> 6 == G(a) >> 6, or 0 */
    size_t *first; /* per hi < words: the first and last such a, or 0 */
    size_t *last;
} three;

static void three_clear(three *t)
{
    free(t->pairs);
    free(t->base);
    free(t->rems);
    free(t->lo);
    free(t->next);
    free(t->first);
    free(t->last);
    memset(t, 0, sizeof *t);
}

/* A bitset whose word w is at p[w * stride]. */
typedef struct bits_ctx {
    uint64_t *p;
    size_t stride;
} bits_ctx;

/* The move generator's visitor that adds an option's value to a bitset. */
static int bit_visit(void *ctx, const sgi_option *o)
{
    bits_ctx *b = (bits_ctx *)ctx;

    b->p[(o->value >> 6) * b->stride] |= (uint64_t)1 << (o->value & 63);
    return 0;
}

/* P(m) from the values G(1..m-1): the values of the two-heap options of
 * a heap of m tokens that removes none. */
static void pairs_fill(three *t, const sg_seq *s, size_t m)
{
    bits_ctx b = {t->pairs + m, t->cap};
    size_t w;

    for (w = 0; w < t->words; w++)
        t->pairs[w * t->cap + m] = 0;
    sgi_moves_digit(s, m, 0, SG_BIT_TWO, 0, SG_BIT_TWO, bit_visit, &b);
}

/* The run's memory: the sets P(0..n-1), `words` words each, must fit in
 * three quarters of the machine's memory, as sg_seq_check_size asks of
 * the values themselves; otherwise an error naming what was asked. */
static sg_status three_check(size_t n, size_t words, sg_value max,
                             sg_error *err)
{
    uint64_t mem = sgi_physical_memory();
    uint64_t need;

    if (n > SIZE_MAX / 8 / words)
        return sg_error_set(err, SG_E_INPUT, -1,
                            "three-heap moves to %zu heaps: the two-heap sets "
                            "cannot be held in memory",
                            n);
    need = (uint64_t)n * words * 8;
    if (mem && need > mem / 4 * 3)
        return sg_error_set(err, SG_E_INPUT, -1,
                            "three-heap moves to %zu heaps with values past "
                            "%u need %.1f GiB for the two-heap sets; this "
                            "machine has %.1f GiB",
                            n, (unsigned)max, need / 1073741824.0,
                            mem / 1073741824.0);
    return SG_OK;
}

/* Size the bitsets for values up to max, with room for P(0..n-1):
 * allocated whole (calloc: the pages of rows not reached yet cost
 * nothing) and widened, keeping P(0..filled-1), when the values pass the
 * width (a wider set is the old one with zero words above). */
static sg_status three_fit(three *t, sg_value max, size_t filled, size_t n,
                           sg_error *err)
{
    size_t words = t->words ? t->words : 1, w, span = 1;
    sg_status st;
    uint64_t *np, *nb;

    while (words * 64 <= (size_t)max)
        words *= 2;
    /* Every option is below span, the least power of two above max. */
    while (span <= (size_t)max)
        span *= 2;
    t->full = span >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << span) - 1;
    if (words == t->words)
        return SG_OK;
    st = three_check(n, words, max, err);
    if (st)
        return st;
    if (!t->lo) {
        t->lo = malloc(n * sizeof *t->lo);
        t->next = malloc(n * sizeof *t->next);
        if (!t->lo || !t->next)
            goto nomem;
    }
    {
        size_t *nf = realloc(t->first, words * sizeof *nf);
        if (nf)
            t->first = nf;
        nf = realloc(t->last, words * sizeof *nf);
        if (nf)
            t->last = nf;
        if (!t->first || !t->last || nf != t->last)
            goto nomem;
        for (w = t->words; w < words; w++)
            t->first[w] = t->last[w] = 0;
    }
    /* Word-major: word w of P(m) at w * n + m, so that the a's of one
     * word, whose hi(G(a)) changes slowly, read along a row. */
    np = calloc(n * words, sizeof *np);
    nb = calloc(words, sizeof *nb);
    if (!np || !nb) {
        free(np);
        free(nb);
        goto nomem;
    }
    for (w = 0; w < t->words; w++)
        memcpy(np + w * n, t->pairs + w * n, filled * sizeof *np);
    free(t->pairs);
    free(t->base);
    t->pairs = np;
    t->base = nb;
    t->words = words;
    t->cap = n;
    return SG_OK;
nomem:
    return sg_error_set(err, SG_E_NOMEM, -1,
                        "out of memory for the two-heap sets of %zu heaps", n);
}

/* Heap a >= 1 of value g joins the list of its g >> 6. */
static void three_add(three *t, size_t a, sg_value g)
{
    size_t hi = g >> 6;

    t->lo[a] = g & 63;
    t->next[a] = 0;
    if (t->last[hi])
        t->next[t->last[hi]] = a;
    else
        t->first[hi] = a;
    t->last[hi] = a;
}

/* Word w of the three-heap options of the remainders rems[0..nr-1]
 * (descending), or'ed into x: the a's one by one until the word is full
 * (the word that holds the mex never is: it sees every a).  Word w of
 * G(a) ^ P(m) is word j = w ^ hi of P(m), hi = G(a) >> 6; the a's are
 * taken by j ascending, as the low words of P(m) are the densest in the
 * games measured (0.2048: small xors of two values of like size), so a
 * word tends to fill early.  The remainders are taken together, a by a
 * (one translation of the or of their words), so that a word full only
 * in their union does not walk every a of the first. */
static uint64_t three_word(const three *t, const size_t *rems, size_t nr,
                           size_t w, uint64_t x)
{
    const uint64_t *p = t->pairs;
    const sg_value *lo = t->lo;
    const size_t *next = t->next;
    size_t C = t->cap, W = t->words, a, j, i, top = rems[0];

    for (j = 0; j < W; j++) {
        const uint64_t *row = p + j * C;
        for (a = t->first[w ^ j]; a && a + 2 <= top; a = next[a]) {
            uint64_t y = row[top - a];
            for (i = 1; i < nr && a + 2 <= rems[i]; i++)
                y |= row[rems[i] - a];
            /* Most words of the sparse sets P(m) are empty. */
            if (!y)
                continue;
            x |= sgi_xor_translate(y, lo[a]);
            if (x == t->full)
                return x;
        }
    }
    return x;
}

sg_status sgi_enumerate_three(sg_seq *s, const sg_rule *r, size_t n,
                              const sg_enum_options *opt, sg_error *err)
{
    three t;
    sg_status st;
    size_t h, m;

    memset(&t, 0, sizeof t);
    if (n <= s->n)
        return SG_OK;
    /* The sets first: their memory check is the stricter one. */
    st = three_fit(&t, s->max, 0, n, err);
    if (st)
        goto out;
    st = sg_seq_reserve(s, n, err);
    if (st)
        goto out;
    for (m = 0; m < s->n; m++) {
        sg_value g = sg_seq_get(s, m);
        pairs_fill(&t, s, m);
        if (m)
            three_add(&t, m, g);
    }
    for (h = s->n; h < n; h++) {
        size_t k, W, w;
        unsigned d;
        int uneq;
        sgi_digits it;
        sg_value v, g;
        bits_ctx one;

        /* Each heap costs O(h) word operations: look at the flag every
         * time, report progress now and then. */
        if (sgi_enum_cancelled(opt)) {
            three_clear(&t);
            return sgi_enum_interrupted(s, err);
        }
        if (h % SG_ENUM_POLL == 0)
            sgi_enum_progress(opt, h, n, 0);
        /* P(h) is needed by heap h itself (a split that removes nothing)
         * and depends only on G(1..h-1). */
        st = three_fit(&t, s->max, h, n, err);
        if (st)
            goto out;
        W = t.words;
        pairs_fill(&t, s, h);
        memset(t.base, 0, W * sizeof *t.base);
        one.p = t.base;
        one.stride = 1;
        t.nrems = 0;
        sgi_digits_start(&it, r, h);
        while (sgi_digits_next(&it, &k, &d, &uneq)) {
            size_t rem = h - k;

            /* No '!' here (sgi_three_applicable), and no tail. */
            sgi_moves_digit(s, h, k, d, 0, SG_BIT_ALL | SG_BIT_ONE, bit_visit,
                            &one);
            if ((d & SG_BIT_TWO) && rem >= 2) {
                const uint64_t *p = t.pairs + rem;
                for (w = 0; w < W; w++)
                    t.base[w] |= p[w * t.cap];
            }
            if ((d & SG_BIT_THREE) && rem >= 3) {
                if (sg_grow(&t.rems, &t.crems, t.nrems + 1, sizeof *t.rems)) {
                    st = sg_error_set(err, SG_E_NOMEM, -1, "out of memory");
                    goto out;
                }
                t.rems[t.nrems++] = rem;
            }
        }
        /* The mex: the first word of the option set that is not full (or
         * the span of the values, when every value below it is there). */
        v = t.full == ~(uint64_t)0 ? (sg_value)(64 * W)
                                   : (sg_value)__builtin_popcountll(t.full);
        for (w = 0; w < W; w++) {
            uint64_t x = t.base[w];
            if (t.nrems && x != t.full)
                x = three_word(&t, t.rems, t.nrems, w, x);
            if (x != t.full) {
                v = (sg_value)(64 * w + (size_t)__builtin_ctzll(~x));
                break;
            }
        }
        st = sg_seq_append(s, v, err);
        if (st)
            goto out;
        g = sg_seq_get(s, h);
        st = three_fit(&t, s->max, h + 1, n, err);
        if (st)
            goto out;
        if (h)
            three_add(&t, h, g);
    }
    st = SG_OK;
out:
    three_clear(&t);
    return st;
}
