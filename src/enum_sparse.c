/*
 * enum_sparse.c - the sparse-space enumerator, for take-and-break rules
 * whose moves leave at most two heaps (splitting games such as Kayles,
 * Officers or Grundy's game), without a repeating tail.
 *
 * Fix a mask m and call a value v "rare" when v AND m has an even number
 * of one bits, "common" otherwise.  Parity of (a XOR b) AND m is the sum of
 * the parities of a AND m and b AND m, so
 *
 *     common ^ common = rare,  rare ^ rare = rare,  rare ^ common = common.
 *
 * Hence a split option (a, b) whose value G(a) ^ G(b) is common has exactly
 * one part with a rare value.  Keeping the list R of heaps h >= 1 with rare
 * values, the value of heap n is found in three steps:
 *
 *  1. mark every one-heap option and every split option with a part in R:
 *     this marks every common option value (and some rare ones);
 *  2. c = the least common value not marked = the least common value that
 *     is not an option;
 *  3. the mex of all options is min(c, least rare value not an option).
 *     Each rare value below c not marked yet is looked for among all the
 *     pairs; as soon as all are found, G(n) = c.  If the pairs run out
 *     first, every option has been seen and G(n) is the least rare value
 *     below c still missing - a rare value, so n joins R.
 *
 * Nothing here depends on which mask is used (mask 0 makes every value
 * rare and the method naive); the mask only decides how short R is and how
 * soon step 3 ends.  It is chosen to make R shortest: with H(v) the number
 * of heaps of value v so far, |R| - |common heaps| = sum_v H(v) (-1)^{|v&m|}
 * is the Walsh-Hadamard transform of H at m, so one transform rates every
 * mask.  The choice is renewed when the heaps computed double and when a
 * new highest value bit appears; a change rebuilds R in one pass.
 */
#define _DEFAULT_SOURCE
#include "sgexplore.h"
#include "enum_impl.h"

#include <stdlib.h>
#include <string.h>

/* Step 3 looks at up to this many pairs of one split digit before moving
 * to the next digit (starting with 32 and doubling). */
#define SPARSE_BLOCK 4096

/* Values stay below this (the tables are indexed by value). */
#define SPARSE_VALUE_LIMIT ((size_t)1 << 30)

typedef struct sparse {
    /* the moves, by kind; positions ascending */
    size_t nsplit, none, nall;
    size_t *split;         /* k with bit 4: leave a, b >= 1, a + b = n - k */
    uint8_t *split_uneq;   /* `!` on that digit: a != b */
    size_t *rem, *top;     /* per split digit, scratch: n - k, largest a */
    size_t *one;           /* k >= 1 with bit 2: leave n - k >= 1 */
    size_t *all;           /* k >= 1 with bit 1: n == k leaves nothing */

    int forced;            /* the mask was given by the caller */
    uint32_t mask;

    /* R: heaps >= 1 with rare values, ascending, and their values */
    size_t nrare, ralloc;
    size_t *rpos;
    sg_value *rval;

    /* tables indexed by value, `size` entries: size = 2P, P a power of
     * two above every value so far (so every xor of two values and every
     * mex is below size) */
    size_t size;
    uint64_t *stamp;       /* mark: tag+1 option seen, tag+2 wanted */
    uint64_t *hist;        /* heaps >= 1 per value */
    sg_value *common;      /* common values below size, ascending */
    sg_value *rarev;       /* rare values below size, ascending */
    size_t ncommon, nrarev;
    uint64_t tag;

    /* step 3's wanted values as a set of low bytes (see want_add) */
    uint8_t want_tab[32];
    uint32_t want_low[256];
    int simd;              /* the CPU has AVX2 */
    int filter;            /* want_tab holds step 3's wanted values */

    size_t full_scans, repicks;
} sparse;

static int is_rare(uint32_t mask, sg_value v)
{
    return !__builtin_parity(v & mask);
}

int sg_sparse_applicable(const sg_rule *r)
{
    unsigned bits = sg_rule_bits(r);

    return r->tail_len == 0 && (bits & SG_BIT_TWO) && !(bits & SG_BIT_THREE);
}

static void sparse_free(sparse *sp)
{
    free(sp->split);
    free(sp->split_uneq);
    free(sp->rem);
    free(sp->top);
    free(sp->one);
    free(sp->all);
    free(sp->rpos);
    free(sp->rval);
    free(sp->stamp);
    free(sp->hist);
    free(sp->common);
    free(sp->rarev);
    memset(sp, 0, sizeof *sp);
}

/* Sort the rule's terms into the three kinds of move. */
static int sparse_moves(sparse *sp, const sg_rule *r)
{
    size_t i, m = r->nterms + 1;

    sp->split = malloc(m * sizeof *sp->split);
    sp->split_uneq = malloc(m);
    sp->rem = malloc(m * sizeof *sp->rem);
    sp->top = malloc(m * sizeof *sp->top);
    sp->one = malloc(m * sizeof *sp->one);
    sp->all = malloc(m * sizeof *sp->all);
    if (!sp->split || !sp->split_uneq || !sp->rem || !sp->top || !sp->one ||
        !sp->all)
        return -1;
    for (i = 0; i < r->nterms; i++) {
        size_t k = (size_t)r->terms[i].take;
        unsigned d = r->terms[i].digit;
        if (d & SG_BIT_TWO) {
            sp->split_uneq[sp->nsplit] = r->terms[i].unequal != 0;
            sp->split[sp->nsplit++] = k;
        }
        if (k == 0)
            continue;   /* the parser allows only splits there */
        if (d & SG_BIT_ONE)
            sp->one[sp->none++] = k;
        if (d & SG_BIT_ALL)
            sp->all[sp->nall++] = k;
    }
    return 0;
}

/* The common and rare value lists for the current mask and size. */
static void sparse_lists(sparse *sp)
{
    size_t v;

    sp->ncommon = sp->nrarev = 0;
    for (v = 0; v < sp->size; v++) {
        if (is_rare(sp->mask, (sg_value)v))
            sp->rarev[sp->nrarev++] = (sg_value)v;
        else
            sp->common[sp->ncommon++] = (sg_value)v;
    }
}

/* Grow the value tables so that size > 2 * max.  -1 when out of memory
 * or the values are too large for tables indexed by value. */
static int sparse_fit(sparse *sp, sg_value max)
{
    size_t p = 2, want, old = sp->size;
    void *t;

    while (p <= (size_t)max)
        p *= 2;
    want = 2 * p;
    if (want <= old)
        return 0;
    if (want > SPARSE_VALUE_LIMIT)
        return -1;
    if (!(t = realloc(sp->stamp, want * sizeof *sp->stamp)))
        return -1;
    sp->stamp = t;
    memset(sp->stamp + old, 0, (want - old) * sizeof *sp->stamp);
    if (!(t = realloc(sp->hist, want * sizeof *sp->hist)))
        return -1;
    sp->hist = t;
    memset(sp->hist + old, 0, (want - old) * sizeof *sp->hist);
    if (!(t = realloc(sp->common, want * sizeof *sp->common)))
        return -1;
    sp->common = t;
    if (!(t = realloc(sp->rarev, want * sizeof *sp->rarev)))
        return -1;
    sp->rarev = t;
    sp->size = want;
    sparse_lists(sp);
    return 0;
}

static int rare_push(sparse *sp, size_t pos, sg_value v)
{
    if (sp->nrare == sp->ralloc) {
        size_t na = sp->ralloc ? 2 * sp->ralloc : 256;
        size_t *np = realloc(sp->rpos, na * sizeof *np);
        sg_value *nv;
        if (!np)
            return -1;
        sp->rpos = np;
        nv = realloc(sp->rval, na * sizeof *nv);
        if (!nv)
            return -1;
        sp->rval = nv;
        sp->ralloc = na;
    }
    sp->rpos[sp->nrare] = pos;
    sp->rval[sp->nrare++] = v;
    return 0;
}

/* R from scratch, for the current mask. */
static int sparse_rebuild(sparse *sp, const sg_seq *s)
{
    size_t h;

    sp->nrare = 0;
    for (h = 1; h < s->n; h++) {
        sg_value v = sg_seq_get(s, h);
        if (is_rare(sp->mask, v) && rare_push(sp, h, v))
            return -1;
    }
    return 0;
}

/* The mask below P = size/2 that makes the fewest heaps rare (the current
 * one when it ties).  -1 when out of memory. */
static int64_t sparse_best_mask(const sparse *sp)
{
    size_t p = sp->size / 2, len, i, j, best;
    int64_t *w = malloc(p * sizeof *w);

    if (!w)
        return -1;
    for (i = 0; i < p; i++)
        w[i] = (int64_t)sp->hist[i];
    /* In place: w[m] = sum_v hist[v] (-1)^{popcount(v & m)}. */
    for (len = 1; len < p; len *= 2)
        for (i = 0; i < p; i += 2 * len)
            for (j = i; j < i + len; j++) {
                int64_t a = w[j], b = w[j + len];
                w[j] = a + b;
                w[j + len] = a - b;
            }
    best = sp->mask < p && sp->mask ? sp->mask : 1;
    for (i = 1; i < p; i++)
        if (w[i] < w[best])
            best = i;
    free(w);
    return (int64_t)best;
}

/* Re-choose the mask from the values so far; rebuild R if it changed. */
static int sparse_repick(sparse *sp, const sg_seq *s)
{
    int64_t m;

    if (sp->forced)
        return 0;
    m = sparse_best_mask(sp);
    if (m < 0)
        return -1;
    if ((uint32_t)m == sp->mask)
        return 0;
    sp->mask = (uint32_t)m;
    sp->repicks++;
    sparse_lists(sp);
    return sparse_rebuild(sp, s);
}

/* ------------------------------------------------------------------ */
/* Step 3's pair scan, with an AVX2 filter where the CPU has it         */
/* ------------------------------------------------------------------ */

/*
 * The wanted values of step 3 are also kept as a set of low bytes: bit
 * (b >> 4) & 7 of want_tab[(b >> 7) * 16 + (b & 15)] is set when some
 * wanted value has low byte b (want_low[b] counts them).  With values of
 * one byte this is the exact set; with two it is a filter whose hits are
 * confirmed on the stamps.  The AVX2 code tests 32 pairs at once against
 * it with byte shuffles, and only blocks with a hit are looked at one pair
 * at a time.
 */
static inline void want_add(sparse *sp, sg_value v)
{
    unsigned b = v & 0xFF;

    if (sp->want_low[b]++ == 0)
        sp->want_tab[(b >> 7) * 16 + (b & 15)] |= (uint8_t)(1u << ((b >> 4) & 7));
}

static inline void want_remove(sparse *sp, sg_value v)
{
    unsigned b = v & 0xFF;

    if (--sp->want_low[b] == 0)
        sp->want_tab[(b >> 7) * 16 + (b & 15)] &=
            (uint8_t)~(1u << ((b >> 4) & 7));
}

/* Start the filter with the values below c still wanted. */
static void filter_build(sparse *sp, sg_value c, uint64_t want)
{
    size_t i;

    for (i = 0; i < sp->nrarev && sp->rarev[i] < c; i++)
        if (sp->stamp[sp->rarev[i]] == want)
            want_add(sp, sp->rarev[i]);
    sp->filter = 1;
}

/* Empty the filter again (every value it may hold is a rare value < c). */
static void filter_clear(sparse *sp, sg_value c)
{
    size_t i;

    for (i = 0; i < sp->nrarev && sp->rarev[i] < c; i++)
        sp->want_low[sp->rarev[i] & 0xFF] = 0;
    memset(sp->want_tab, 0, sizeof sp->want_tab);
    sp->filter = 0;
}

#if defined(__GNUC__) && defined(__x86_64__)
#define SPARSE_AVX2 1
#include <immintrin.h>

#define AVX2 __attribute__((target("avx2")))

/* Lanes of x (bytes) whose value is in the want_tab set, as a bit mask. */
AVX2 static inline unsigned avx2_member(__m256i x, __m256i ta, __m256i tb)
{
    const __m256i nib = _mm256_set1_epi8(0x0F);
    const __m256i bit = _mm256_setr_epi8(
        1, 2, 4, 8, 16, 32, 64, (char)128, 1, 2, 4, 8, 16, 32, 64, (char)128,
        1, 2, 4, 8, 16, 32, 64, (char)128, 1, 2, 4, 8, 16, 32, 64, (char)128);
    __m256i lo = _mm256_and_si256(x, nib);
    __m256i hi = _mm256_and_si256(_mm256_srli_epi16(x, 4), nib);
    __m256i row = _mm256_blendv_epi8(_mm256_shuffle_epi8(ta, lo),
                                     _mm256_shuffle_epi8(tb, lo), x);
    __m256i hit = _mm256_and_si256(row, _mm256_shuffle_epi8(bit, hi));
    __m256i none = _mm256_cmpeq_epi8(hit, _mm256_setzero_si256());

    return ~(unsigned)_mm256_movemask_epi8(none);
}

/* The first a in [a, end) (end - a a multiple of 32), in steps of 32,
 * whose block of pairs (a + i, rem - a - i), i < 32, has a byte xor in
 * the want_tab set, with *hits the mask of those i; end when none. */
AVX2 static size_t avx2_find1(const sparse *sp, const uint8_t *g, size_t rem,
                              size_t a, size_t end, unsigned *hits)
{
    const __m256i ta = _mm256_broadcastsi128_si256(
        _mm_loadu_si128((const __m128i *)(const void *)sp->want_tab));
    const __m256i tb = _mm256_broadcastsi128_si256(
        _mm_loadu_si128((const __m128i *)(const void *)(sp->want_tab + 16)));
    const __m256i rev = _mm256_setr_epi8(15, 14, 13, 12, 11, 10, 9, 8, 7, 6,
                                         5, 4, 3, 2, 1, 0, 15, 14, 13, 12, 11,
                                         10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0);

    for (; a < end; a += 32) {
        __m256i x = _mm256_loadu_si256((const __m256i *)(const void *)(g + a));
        __m256i y = _mm256_loadu_si256(
            (const __m256i *)(const void *)(g + rem - a - 31));
        y = _mm256_shuffle_epi8(y, rev);
        y = _mm256_permute2x128_si256(y, y, 0x01);
        if ((*hits = avx2_member(_mm256_xor_si256(x, y), ta, tb)) != 0)
            return a;
    }
    return end;
}

/* The same for two-byte values, filtering on the low byte of the xor. */
AVX2 static size_t avx2_find2(const sparse *sp, const uint16_t *g,
                              size_t rem, size_t a, size_t end,
                              unsigned *hits)
{
    const __m256i ta = _mm256_broadcastsi128_si256(
        _mm_loadu_si128((const __m128i *)(const void *)sp->want_tab));
    const __m256i tb = _mm256_broadcastsi128_si256(
        _mm_loadu_si128((const __m128i *)(const void *)(sp->want_tab + 16)));
    const __m256i rev = _mm256_setr_epi8(14, 15, 12, 13, 10, 11, 8, 9, 6, 7,
                                         4, 5, 2, 3, 0, 1, 14, 15, 12, 13, 10,
                                         11, 8, 9, 6, 7, 4, 5, 2, 3, 0, 1);
    const __m256i low = _mm256_set1_epi16(0xFF);

    for (; a < end; a += 32) {
        __m256i x0 = _mm256_loadu_si256((const __m256i *)(const void *)(g + a));
        __m256i x1 =
            _mm256_loadu_si256((const __m256i *)(const void *)(g + a + 16));
        __m256i y0 = _mm256_loadu_si256(
            (const __m256i *)(const void *)(g + rem - a - 15));
        __m256i y1 = _mm256_loadu_si256(
            (const __m256i *)(const void *)(g + rem - a - 31));
        __m256i b;
        y0 = _mm256_shuffle_epi8(y0, rev);
        y0 = _mm256_permute2x128_si256(y0, y0, 0x01);
        y1 = _mm256_shuffle_epi8(y1, rev);
        y1 = _mm256_permute2x128_si256(y1, y1, 0x01);
        x0 = _mm256_and_si256(_mm256_xor_si256(x0, y0), low);
        x1 = _mm256_and_si256(_mm256_xor_si256(x1, y1), low);
        b = _mm256_permute4x64_epi64(_mm256_packus_epi16(x0, x1), 0xD8);
        if ((*hits = avx2_member(b, ta, tb)) != 0)
            return a;
    }
    return end;
}

static int simd_allowed = 1;

void sg_sparse_allow_simd(int allow)
{
    simd_allowed = allow;
}

static int have_avx2(void)
{
    static int known = -1;

    if (known < 0) {
        __builtin_cpu_init();
        known = __builtin_cpu_supports("avx2") != 0;
    }
    return known && simd_allowed;
}
#else
void sg_sparse_allow_simd(int allow)
{
    (void)allow;
}

static int have_avx2(void)
{
    return 0;
}
#endif

/* The first index i < nr with rp[i] >= pos (rp ascending). */
static size_t rare_index(const size_t *rp, size_t nr, size_t pos)
{
    size_t lo = 0, hi = nr;

    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (rp[mid] < pos)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/*
 * Width-specialised code, T being the sequence's element type:
 *  - NAME_scan: step 3 over pairs (a, rem - a), lo <= a < end: every pair
 *    whose xor is wanted becomes marked; returns 1 once nothing is wanted;
 *  - NAME_heap: G(n) from G(0..n-1); the caller adds n to R when the value
 *    is rare.
 * FIND is the AVX2 block filter for T, used when USE is non-zero and the
 * CPU has AVX2.
 */
#define SPARSE_METHODS(NAME, T, FIND, USE)                                       \
    static int NAME##_scan(sparse *sp, const T *g, size_t rem, size_t a,    \
                           size_t end, size_t *need)                        \
    {                                                                       \
        uint64_t *st = sp->stamp;                                           \
        const uint64_t mark = sp->tag - 1, want = sp->tag;                  \
        if ((USE) && sp->filter) {                                          \
            size_t full = a + (end - a) / 32 * 32;                          \
            unsigned hits;                                                  \
            while ((a = FIND(sp, g, rem, a, full, &hits)) < full) {         \
                for (; hits; hits &= hits - 1) {                            \
                    size_t b = a + (size_t)__builtin_ctz(hits);             \
                    sg_value x = (sg_value)(g[b] ^ g[rem - b]);             \
                    if (st[x] == want) {                                    \
                        st[x] = mark;                                       \
                        want_remove(sp, x);                                 \
                        if (--*need == 0)                                   \
                            return 1;                                       \
                    }                                                       \
                }                                                           \
                a += 32;                                                    \
            }                                                               \
        }                                                                   \
        for (; a < end; a++) {                                              \
            sg_value x = (sg_value)(g[a] ^ g[rem - a]);                     \
            if (st[x] == want) {                                            \
                st[x] = mark;                                               \
                if (sp->filter)                                             \
                    want_remove(sp, x);                                     \
                if (--*need == 0)                                           \
                    return 1;                                               \
            }                                                               \
        }                                                                   \
        return 0;                                                           \
    }                                                                       \
                                                                            \
    static sg_value NAME##_heap(sparse *sp, const T *g, size_t n)           \
    {                                                                       \
        uint64_t *st = sp->stamp;                                           \
        const uint64_t mark = sp->tag + 1, want = sp->tag + 2;              \
        const size_t *rp = sp->rpos;                                        \
        const sg_value *rv = sp->rval;                                      \
        size_t i, j, need, nr = sp->nrare, ntop = 0, maxtop = 0, a0, blk;   \
        sg_value c, v;                                                      \
                                                                            \
        sp->tag += 2;                                                       \
        /* 1: one-heap options and pairs with a rare part */                \
        for (i = 0; i < sp->none && sp->one[i] < n; i++)                    \
            st[g[n - sp->one[i]]] = mark;                                   \
        for (i = 0; i < sp->nall && sp->all[i] <= n; i++)                   \
            if (sp->all[i] == n)                                            \
                st[0] = mark;                                               \
        for (j = 0; j < sp->nsplit && sp->split[j] + 2 <= n; j++) {         \
            size_t rem = n - sp->split[j];                                  \
            while (nr > 0 && rp[nr - 1] >= rem)                             \
                nr--;                                                       \
            if (sp->split_uneq[j] && rem % 2 == 0) {                        \
                /* leave out the pair (rem/2, rem/2), if rare */            \
                size_t mid = rare_index(rp, nr, rem / 2);                   \
                for (i = 0; i < mid; i++)                                   \
                    st[rv[i] ^ g[rem - rp[i]]] = mark;                      \
                if (mid < nr && rp[mid] == rem / 2)                         \
                    mid++;                                                  \
                for (i = mid; i < nr; i++)                                  \
                    st[rv[i] ^ g[rem - rp[i]]] = mark;                      \
            } else {                                                        \
                for (i = 0; i < nr; i++)                                    \
                    st[rv[i] ^ g[rem - rp[i]]] = mark;                      \
            }                                                               \
            sp->rem[j] = rem;                                               \
            sp->top[j] = rem / 2 - (sp->split_uneq[j] && rem % 2 == 0);     \
            if (sp->top[j] > maxtop)                                        \
                maxtop = sp->top[j];                                        \
            ntop = j + 1;                                                   \
        }                                                                   \
        /* 2: the least common value missing */                             \
        for (i = 0; i < sp->ncommon && st[sp->common[i]] == mark; i++)      \
            ;                                                               \
        c = i < sp->ncommon ? sp->common[i] : (sg_value)sp->size;           \
        /* 3: the rare values below c still to be found */                  \
        need = 0;                                                           \
        for (i = 0; i < sp->nrarev && sp->rarev[i] < c; i++)                \
            if (st[sp->rarev[i]] != mark) {                                 \
                st[sp->rarev[i]] = want;                                    \
                need++;                                                     \
            }                                                               \
        if (!need)                                                          \
            return c;                                                       \
        /* every pair, in blocks of small parts first across all split   \
         * digits, so that no digit's pairs wait for another's; the      \
         * filter pays off only when the first block did not suffice */    \
        for (a0 = 1, blk = 32; a0 <= maxtop; a0 += blk) {                   \
            if ((USE) && sp->simd && !sp->filter)                           \
                filter_build(sp, c, want);                                  \
            if (a0 > 1 && blk < SPARSE_BLOCK)                               \
                blk *= 2;                                                   \
            for (j = 0; j < ntop; j++) {                                    \
                size_t end = a0 + blk;                                      \
                if (end > sp->top[j] + 1)                                   \
                    end = sp->top[j] + 1;                                   \
                if (a0 < end &&                                             \
                    NAME##_scan(sp, g, sp->rem[j], a0, end, &need)) {       \
                    v = c;                                                  \
                    goto done;                                              \
                }                                                           \
            }                                                               \
        }                                                                   \
        sp->full_scans++;                                                   \
        for (i = 0; st[sp->rarev[i]] != want; i++)                          \
            ;                                                               \
        v = sp->rarev[i];                                                   \
    done:                                                                   \
        if (sp->filter)                                                     \
            filter_clear(sp, c);                                            \
        return v;                                                           \
    }

/* Stand-in for a missing filter: never called (USE is 0). */
#define NO_FIND(sp, g, rem, a, end, hits) (end)

#ifdef SPARSE_AVX2
SPARSE_METHODS(sparse1, uint8_t, avx2_find1, 1)
SPARSE_METHODS(sparse2, uint16_t, avx2_find2, 1)
#else
SPARSE_METHODS(sparse1, uint8_t, NO_FIND, 0)
SPARSE_METHODS(sparse2, uint16_t, NO_FIND, 0)
#endif
SPARSE_METHODS(sparse4, uint32_t, NO_FIND, 0)

sg_status sg_enumerate_sparse(sg_seq *s, const sg_rule *r, size_t n,
                              int64_t mask, sg_sparse_stats *stats,
                              volatile sig_atomic_t *cancel, sg_error *err)
{
    sparse sp;
    sg_status st = SG_OK;
    size_t h, next_pick;

    if (!sg_sparse_applicable(r)) {
        if (stats)
            memset(stats, 0, sizeof *stats);
        return sg_enumerate_naive(s, r, n, cancel, err);
    }
    memset(&sp, 0, sizeof sp);
    sp.simd = have_avx2();
    if (n > s->n && (st = sg_seq_reserve(s, n, err)) != SG_OK)
        return st;
    if (sparse_moves(&sp, r) || sparse_fit(&sp, s->max))
        goto nomem;
    for (h = 1; h < s->n; h++)
        sp.hist[sg_seq_get(s, h)]++;
    if (mask == SG_SPARSE_AUTO) {
        sp.mask = 1;
        sparse_lists(&sp);
        if (sparse_repick(&sp, s))
            goto nomem;
        sp.repicks = 0;
    } else {
        sp.forced = 1;
        sp.mask = (uint32_t)mask;
        sparse_lists(&sp);
    }
    if (sparse_rebuild(&sp, s))
        goto nomem;
    next_pick = s->n < 32 ? 32 : 2 * s->n;

    for (h = s->n; h < n; h++) {
        sg_value v;

        if (h % SG_ENUM_POLL == 0) {
            if (cancel && *cancel) {
                st = sg_error_set(err, SG_E_INTERRUPTED, -1,
                                  "interrupted after %zu values", s->n);
                goto out;
            }
            sg_enum_progress(h, n, sp.nrare);
        }
        if (h >= next_pick) {
            if (sparse_repick(&sp, s))
                goto nomem;
            next_pick = 2 * h;
        }
        switch (s->width) {
        case 1:
            v = sparse1_heap(&sp, s->data, h);
            break;
        case 2:
            v = sparse2_heap(&sp, (const uint16_t *)(const void *)s->data,
                             h);
            break;
        default:
            v = sparse4_heap(&sp, (const uint32_t *)(const void *)s->data,
                             h);
            break;
        }
        if ((st = sg_seq_push(s, v, err)) != SG_OK)
            goto out;
        if (h == 0)
            continue;
        sp.hist[v]++;
        if (is_rare(sp.mask, v) && rare_push(&sp, h, v))
            goto nomem;
        if ((size_t)v >= sp.size / 2) {
            if (sparse_fit(&sp, v) || sparse_repick(&sp, s))
                goto nomem;
        }
    }
out:
    if (stats) {
        stats->mask = sp.mask;
        stats->rare = sp.nrare;
        stats->full_scans = sp.full_scans;
        stats->repicks = sp.repicks;
    }
    sparse_free(&sp);
    return st;
nomem:
    st = sg_error_set(err, SG_E_NOMEM, -1,
                      "out of memory after %zu values", s->n);
    goto out;
}
