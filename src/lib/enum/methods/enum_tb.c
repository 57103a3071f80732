/*
 * enum_tb.c - G(0..N-1) for codes in CGSuite's whole notation (rule_tb.c):
 * moves that leave any number j of heaps, with the constraints `?` (not
 * all equal), `=` (all equal) and `!` (pairwise different, j <= 3).
 *
 * Listing the partitions of m into j parts costs about m^(j-1) / j!(j-1)!
 * per heap; instead, for every m and j, the set A_j(m) of the xors of the
 * compositions of m into j parts is kept as a bitset over the values:
 *     A_j(m) = U_{x=1}^{m-j+1} ( G(x) xor A_{j-1}(m-x) ),  A_1(m) = {G(m)},
 * (xor of a set by a constant permutes its bits: words by the high bits,
 * bits inside a word by six masked swaps), O(m W) word operations for W
 * words per set.  Compositions list each partition once per ordering, so
 * counting them up to 2 (B_j(m): the values of at least two compositions)
 * tells `?` apart: a value comes from a partition whose parts are not all
 * equal iff two compositions give it, or one does and it is not the
 * all-equal partition's.  `=` needs G(m/j) only; `!` lists its pairs and
 * triples (O(m) and O(m^2)).  Memory: two bitsets per (j, m).
 */
#include "sgexplore.h"
#include "enum_impl.h"
#include "rules/setexpr.h"

#include <stdlib.h>
#include <string.h>

/* The tables of one run: layers 2..J of A (and B when some digit has
 * `?`), W words per set, for heaps 0..n-1. */
typedef struct tb_run {
    const sgi_tb *tb;
    size_t n, words;
    /* the highest layer kept (0: none); whether B is kept */
    unsigned J;
    int counts;
    /* A[j][m * words ..], B the same, j = 2..J */
    uint64_t **A, **B;
    /* the option set of the heap being computed */
    uint64_t *opt;
    const sg_seq *s;
    /* the members of an entry's set for one heap */
    uint64_t *mv;
    size_t nmv, capmv;
    /* whether `!` splits into j = 2, 3 heaps occur, and their tables:
     * U[j][m * words ..], the xors of the splits of m into j pairwise
     * different parts */
    int unequal[4];
    uint64_t *U[4];
} tb_run;

/* The bits of x moved from index v to v xor lo (lo < 64). */
static inline uint64_t xor_bits(uint64_t x, unsigned lo)
{
    static const uint64_t m[6] = {0x5555555555555555ULL, 0x3333333333333333ULL,
                                  0x0F0F0F0F0F0F0F0FULL, 0x00FF00FF00FF00FFULL,
                                  0x0000FFFF0000FFFFULL, 0x00000000FFFFFFFFULL};
    unsigned i;

    for (i = 0; i < 6; i++)
        if (lo >> i & 1) {
            unsigned s = 1u << i;
            x = ((x & m[i]) << s) | ((x >> s) & m[i]);
        }
    return x;
}

static void run_free(tb_run *t)
{
    unsigned j;

    if (t->A)
        for (j = 0; j <= t->J; j++)
            free(t->A[j]);
    if (t->B)
        for (j = 0; j <= t->J; j++)
            free(t->B[j]);
    free(t->A);
    free(t->B);
    free(t->opt);
    free(t->mv);
    free(t->U[2]);
    free(t->U[3]);
    memset(t, 0, sizeof *t);
}

/* One table *tab re-laid with `words` words per set, the sets of heaps
 * below `have` kept.  -1 when out of memory. */
static int relayout(uint64_t **tab, const tb_run *t, size_t words, size_t have)
{
    uint64_t *nw = calloc((t->n + 1) * words, sizeof *nw);
    size_t m;

    if (!nw)
        return -1;
    if (*tab)
        for (m = 0; m < have; m++)
            memcpy(nw + m * words, *tab + m * t->words, t->words * sizeof *nw);
    free(*tab);
    *tab = nw;
    return 0;
}

/* (Re)allocate every table with `words` words per set, keeping the sets
 * of heaps below `have`. */
static int run_layout(tb_run *t, size_t words, size_t have)
{
    unsigned j;
    uint64_t *o;

    if (words > SIZE_MAX / 8 / (t->n + 1))
        return -1;
    for (j = 2; j <= t->J; j++)
        if (relayout(&t->A[j], t, words, have) ||
            (t->counts && relayout(&t->B[j], t, words, have)))
            return -1;
    for (j = 2; j <= 3; j++)
        if (t->unequal[j] && relayout(&t->U[j], t, words, have))
            return -1;
    o = realloc(t->opt, words * sizeof *o);
    if (!o)
        return -1;
    t->opt = o;
    t->words = words;
    return 0;
}

/* dst |= src xor g, over W words (g below 64 W). */
static inline void or_xor(uint64_t *dst, const uint64_t *src, size_t W,
                          sg_value g)
{
    size_t w, hi = g >> 6;
    unsigned lo = g & 63;

    for (w = 0; w < W; w++)
        if (src[w])
            dst[w ^ hi] |= xor_bits(src[w], lo);
}

/* The saturating sum (a, b) += (src_a, src_b) xor g. */
static inline void add_xor(uint64_t *a, uint64_t *b, const uint64_t *sa,
                           const uint64_t *sb, size_t W, sg_value g)
{
    size_t w, hi = g >> 6;
    unsigned lo = g & 63;

    for (w = 0; w < W; w++) {
        uint64_t x = sa[w] ? xor_bits(sa[w], lo) : 0;
        uint64_t y = sb[w] ? xor_bits(sb[w], lo) : 0;
        b[w ^ hi] |= y | (a[w ^ hi] & x);
        a[w ^ hi] |= x;
    }
}

#define BIT(set, v) ((set)[(v) >> 6] |= (uint64_t)1 << ((v)&63))
#define HAS(set, v) (((set)[(v) >> 6] >> ((v)&63)) & 1)

/* A_j(m) and B_j(m) for every layer, from G(1..m-1) and the lower layers
 * at heaps below m. */
static void run_layers(tb_run *t, size_t m)
{
    size_t W = t->words, x, y;
    unsigned j;

    /* the `!` splits: pairs x < m - x, triples x < y < m - x - y */
    if (t->unequal[2])
        for (x = 1; 2 * x < m; x++)
            BIT(t->U[2] + m * W, sg_seq_get(t->s, x) ^ sg_seq_get(t->s, m - x));
    if (t->unequal[3])
        for (x = 1; 3 * x + 3 <= m; x++) {
            sg_value gx = sg_seq_get(t->s, x);
            for (y = x + 1; x + 2 * y < m; y++)
                BIT(t->U[3] + m * W,
                    gx ^ sg_seq_get(t->s, y) ^ sg_seq_get(t->s, m - x - y));
        }

    for (j = 2; j <= t->J && j <= m; j++) {
        uint64_t *a = t->A[j] + m * W;
        uint64_t *b = t->counts ? t->B[j] + m * W : NULL;
        for (x = 1; x + j - 1 <= m; x++) {
            sg_value g = sg_seq_get(t->s, x);
            if (j == 2) {
                sg_value v = g ^ sg_seq_get(t->s, m - x);
                if (b && HAS(a, v))
                    BIT(b, v);
                BIT(a, v);
            } else if (b) {
                add_xor(a, b, t->A[j - 1] + (m - x) * W,
                        t->B[j - 1] + (m - x) * W, W, g);
            } else {
                or_xor(a, t->A[j - 1] + (m - x) * W, W, g);
            }
        }
    }
}

/* The options of digit d for m tokens left into t->opt. */
static void digit_options(tb_run *t, sgi_tb_digit d, size_t m)
{
    size_t W = t->words, w;
    const sg_seq *s = t->s;
    unsigned j;

    if ((d.mask & 1) && m == 0)
        BIT(t->opt, 0);
    if ((d.mask & 2) && m >= 1)
        BIT(t->opt, sg_seq_get(s, m));
    for (j = 2; j <= SGI_TB_MAX_HEAPS && j <= m; j++) {
        sg_value eq;
        if (!(d.mask >> j & 1))
            continue;
        eq = m % j ? 0 : (j % 2 ? sg_seq_get(s, m / j) : 0);
        switch (d.cons) {
        case SGI_TB_EQUAL:
            if (m % j == 0)
                BIT(t->opt, eq);
            break;
        case SGI_TB_UNEQUAL: { /* j <= 3: the parser refuses more */
            const uint64_t *u = t->U[j] + m * W;
            for (w = 0; w < W; w++)
                t->opt[w] |= u[w];
            break;
        }
        case SGI_TB_SOMEUNEQ: {
            const uint64_t *a = t->A[j] + m * W, *b = t->B[j] + m * W;
            for (w = 0; w < W; w++) {
                uint64_t keep = a[w];
                /* the all-equal partition's value counts only when a
                 * second composition gives it too */
                if (m % j == 0 && (eq >> 6) == w)
                    keep &= ~((uint64_t)1 << (eq & 63)) | b[w];
                t->opt[w] |= keep;
            }
            break;
        }
        default: {
            const uint64_t *a = t->A[j] + m * W;
            for (w = 0; w < W; w++)
                t->opt[w] |= a[w];
        }
        }
    }
}

/* The members of entry e's set for heap h into t->mv (any order, maybe
 * repeated).  -1 when out of memory. */
static int entry_members(tb_run *t, const sgi_tb_entry *e, size_t h)
{
    return sgi_set_moves_at(&t->mv, &t->nmv, &t->capmv, e->set, h, 0, NULL) ==
                   SG_OK
               ? 0
               : -1;
}

/* The options of heap h (its layers computed) into t->opt.  -1 when out
 * of memory. */
static int run_options(tb_run *t, size_t h)
{
    const sgi_tb *tb = t->tb;
    size_t k, kmax, e, i;

    memset(t->opt, 0, t->words * sizeof *t->opt);
    kmax = tb->tail_len ? h : (tb->len - 1 < h ? tb->len - 1 : h);
    for (k = 0; k <= kmax; k++) {
        sgi_tb_digit d = sgi_tb_digit_at(tb, k);
        if (d.mask)
            digit_options(t, d, h - k);
    }
    for (e = 0; e < tb->nent; e++) {
        if (entry_members(t, &tb->ent[e], h))
            return -1;
        for (i = 0; i < t->nmv; i++)
            if (t->mv[i] <= h)
                digit_options(t, tb->ent[e].digit, h - (size_t)t->mv[i]);
    }
    return 0;
}

/* Set up the tables of a run over heaps 0..n-1 with `words` words per
 * set: the layers the digits need (those without `=` or `!`), and the
 * counts when some digit has `?`.  -1 when out of memory. */
static int run_init(tb_run *t, const sgi_tb *tb, size_t n, size_t words)
{
    size_t i;
    unsigned j;

    memset(t, 0, sizeof *t);
    t->tb = tb;
    t->n = n;
    for (i = 0; i < tb->len + tb->nent; i++) {
        sgi_tb_digit d = i < tb->len ? tb->d[i] : tb->ent[i - tb->len].digit;
        uint64_t mk = d.mask >> 2;
        if (d.cons == SGI_TB_UNEQUAL) {
            t->unequal[2] |= (d.mask >> 2) & 1;
            t->unequal[3] |= (d.mask >> 3) & 1;
            continue;
        }
        if (d.cons == SGI_TB_EQUAL)
            continue;
        if (d.cons == SGI_TB_SOMEUNEQ && mk)
            t->counts = 1;
        for (j = 2; mk; j++, mk >>= 1)
            if ((mk & 1) && j > t->J)
                t->J = j;
    }
    t->A = calloc(t->J + 1, sizeof *t->A);
    t->B = calloc(t->J + 1, sizeof *t->B);
    if (!t->A || !t->B || run_layout(t, words, 0))
        return -1;
    return 0;
}

sg_status sgi_enumerate_tb(sg_seq *s, const sgi_tb *tb, size_t n,
                           const sg_enum_options *opt, sg_error *err)
{
    tb_run t;
    sg_seq g;
    sg_status st = SG_OK;
    size_t h;

    if (n <= s->n)
        return SG_OK;
    sg_seq_init(&g);
    if (run_init(&t, tb, n, 1) || (t.s = &g, sg_seq_reserve(&g, n, err))) {
        st = sg_error_set(err, SG_E_NOMEM, -1,
                          "out of memory for the tables of %zu heaps", n);
        goto out;
    }
    for (h = 0; h < n; h++) {
        size_t w;
        sg_value v = 0;
        if (h % SG_ENUM_POLL == 0) {
            if (sgi_enum_cancelled(opt)) {
                st = SG_E_INTERRUPTED;
                break;
            }
            sgi_enum_progress(opt, h, n, 0);
        }
        run_layers(&t, h);
        if (run_options(&t, h)) {
            st = sg_error_set(err, SG_E_NOMEM, -1, "out of memory");
            goto out;
        }
        for (w = 0; w < t.words && t.opt[w] == ~(uint64_t)0; w++)
            ;
        if (w < t.words)
            v = (sg_value)(64 * w + (size_t)__builtin_ctzll(~t.opt[w]));
        else
            v = (sg_value)(64 * t.words);
        if ((st = sgi_seq_push(&g, v, err)))
            goto out;
        /* every xor of values stays below the power of two 64 W */
        if (v >= 64 * t.words) {
            size_t words = t.words;
            while (v >= 64 * words)
                words *= 2;
            if (run_layout(&t, words, h + 1)) {
                st = sg_error_set(err, SG_E_NOMEM, -1,
                                  "out of memory for the tables of %zu heaps "
                                  "with values up to %u",
                                  n, (unsigned)v);
                goto out;
            }
        }
    }
out:
    if ((st == SG_OK || st == SG_E_INTERRUPTED) && g.n > s->n) {
        sg_seq u = *s;
        *s = g;
        g = u;
    }
    sg_seq_clear(&g);
    run_free(&t);
    if (st == SG_E_INTERRUPTED)
        return sgi_enum_interrupted(s, err);
    return st;
}

/* A composition of m into j parts with xor t and no constraint, read off
 * the tables (t in A_j(m)): the first part x with t ^ G(x) in
 * A_{j-1}(m - x), then the rest the same way.  Parts go to part[]. */
static void descend_any(const tb_run *t, size_t m, unsigned j, sg_value v,
                        size_t *part)
{
    size_t W = t->words, x;

    while (j > 2) {
        for (x = 1; x + j - 1 <= m; x++) {
            sg_value g = sg_seq_get(t->s, x);
            if (HAS(t->A[j - 1] + (m - x) * W, v ^ g))
                break;
        }
        *part++ = x;
        v ^= sg_seq_get(t->s, x);
        m -= x;
        j--;
    }
    for (x = 1; x < m; x++)
        if ((sg_seq_get(t->s, x) ^ sg_seq_get(t->s, m - x)) == v)
            break;
    part[0] = x;
    part[1] = m - x;
}

/* Whether some composition of m into j >= 2 parts, not all equal, has
 * xor v (the counts are kept). */
static int some_unequal(const tb_run *t, size_t m, unsigned j, sg_value v)
{
    const uint64_t *a = t->A[j] + m * t->words, *b = t->B[j] + m * t->words;
    sg_value eq = m % j ? 0 : (j % 2 ? sg_seq_get(t->s, m / j) : 0);

    if (m < j || (size_t)v >= 64 * t->words || !HAS(a, v))
        return 0;
    return m % j || v != eq || HAS(b, v);
}

/* The same with its parts: a first part other than m/j lets the rest be
 * anything; the first part m/j needs the rest not all equal. */
static void descend_unequal(const tb_run *t, size_t m, unsigned j, sg_value v,
                            size_t *part)
{
    size_t W = t->words, x;

    for (x = 1; x + j - 1 <= m; x++) {
        sg_value g = sg_seq_get(t->s, x);
        int even = m % j == 0 && x == m / j;
        if (j == 2 ? !even && g == (v ^ sg_seq_get(t->s, m - x))
                   : !even && HAS(t->A[j - 1] + (m - x) * W, v ^ g)) {
            part[0] = x;
            if (j == 2)
                part[1] = m - x;
            else
                descend_any(t, m - x, j - 1, v ^ g, part + 1);
            return;
        }
        if (even && j > 2 && some_unequal(t, m - x, j - 1, v ^ g)) {
            part[0] = x;
            descend_unequal(t, m - x, j - 1, v ^ g, part + 1);
            return;
        }
    }
}

/* An option of digit d for m tokens left with value v: its parts. */
static int digit_find(const tb_run *t, sgi_tb_digit d, size_t m, sg_value v,
                      size_t *part, unsigned *nparts)
{
    const sg_seq *s = t->s;
    size_t W = t->words, x, y;
    unsigned j;

    if ((d.mask & 1) && m == 0 && v == 0) {
        *nparts = 0;
        return 1;
    }
    if ((d.mask & 2) && m >= 1 && sg_seq_get(s, m) == v) {
        *nparts = 1;
        part[0] = m;
        return 1;
    }
    for (j = 2; j <= SGI_TB_MAX_HEAPS && j <= m; j++) {
        if (!(d.mask >> j & 1))
            continue;
        *nparts = j;
        switch (d.cons) {
        case SGI_TB_EQUAL:
            if (m % j == 0 && (j % 2 ? sg_seq_get(s, m / j) : 0) == v) {
                for (x = 0; x < j; x++)
                    part[x] = m / j;
                return 1;
            }
            break;
        case SGI_TB_UNEQUAL:
            if (j == 2) {
                for (x = 1; 2 * x < m; x++)
                    if ((sg_seq_get(s, x) ^ sg_seq_get(s, m - x)) == v) {
                        part[0] = x;
                        part[1] = m - x;
                        return 1;
                    }
            } else {
                for (x = 1; 3 * x + 3 <= m; x++)
                    for (y = x + 1; x + 2 * y < m; y++)
                        if ((sg_seq_get(s, x) ^ sg_seq_get(s, y) ^
                             sg_seq_get(s, m - x - y)) == v) {
                            part[0] = x;
                            part[1] = y;
                            part[2] = m - x - y;
                            return 1;
                        }
            }
            break;
        case SGI_TB_SOMEUNEQ:
            if (some_unequal(t, m, j, v)) {
                descend_unequal(t, m, j, v, part);
                return 1;
            }
            break;
        default:
            if ((size_t)v < 64 * W && HAS(t->A[j] + m * W, v)) {
                descend_any(t, m, j, v, part);
                return 1;
            }
        }
    }
    return 0;
}

/* One option of heap h with value v, the tables built up to h: 1 when
 * found, 0 when not, -1 when out of memory. */
static int find_option(tb_run *t, size_t h, sg_value v, uint64_t *take,
                       size_t *part, unsigned *nparts)
{
    const sgi_tb *tb = t->tb;
    size_t k, kmax, e, i;

    kmax = tb->tail_len ? h : (tb->len - 1 < h ? tb->len - 1 : h);
    for (k = 0; k <= kmax; k++) {
        sgi_tb_digit d = sgi_tb_digit_at(tb, k);
        *take = k;
        if (d.mask && digit_find(t, d, h - k, v, part, nparts))
            return 1;
    }
    for (e = 0; e < tb->nent; e++) {
        if (entry_members(t, &tb->ent[e], h))
            return -1;
        for (i = 0; i < t->nmv; i++) {
            if (t->mv[i] > h)
                continue;
            *take = t->mv[i];
            if (digit_find(t, tb->ent[e].digit, h - (size_t)t->mv[i], v, part,
                           nparts))
                return 1;
        }
    }
    return 0;
}

static int cmp_size(const void *a, const void *b)
{
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    return x < y ? -1 : x > y;
}

sg_status sgi_tb_find_move(const sgi_tb *tb, const sg_seq *s, size_t h,
                           sg_value v, uint64_t *take, size_t *part,
                           unsigned *nparts)
{
    tb_run t;
    size_t words = 1, m;
    int found;

    if (h >= s->n)
        return SG_E_UNKNOWN;
    while ((uint64_t)s->max >= 64 * (uint64_t)words)
        words *= 2;
    if (run_init(&t, tb, h + 1, words)) {
        run_free(&t);
        return SG_E_NOMEM;
    }
    t.s = s;
    for (m = 0; m <= h; m++)
        run_layers(&t, m);
    found = find_option(&t, h, v, take, part, nparts);
    run_free(&t);
    if (found < 0)
        return SG_E_NOMEM;
    if (!found)
        return SG_E_UNKNOWN;
    qsort(part, *nparts, sizeof *part, cmp_size);
    return SG_OK;
}
