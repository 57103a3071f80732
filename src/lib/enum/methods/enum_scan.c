/*
 * enum_scan.c - G(s->n..n-1) of a rule whose moves leave at most two
 * heaps by looking at every split of every heap: the sparse method's
 * fallback (enum_sparse.c) where no sparse space fits.  There step 1
 * stores a mark for every rare heap and split digit, a few instructions
 * each, and with a fifth or more of the heaps rare (0.1633, 0.1106: no
 * mask does better) that costs more than testing every pair's xor against
 * the values still wanted, 32 pairs in a handful of vector instructions.
 *
 * For heap m the one-heap options are marked first.  Then the values are
 * taken in windows of `width` (at most 254) consecutive values, from 0 on;
 * all values below a window are options by then.  Every pair (a, m-k-a)
 * of every split digit k is xored, and a xor inside the window that is
 * not yet an option is marked.  When every value of the window is marked
 * the next window is scanned from the first pair again; otherwise the
 * pairs ran out, every option has been seen, and G(m) is the least value
 * of the window not marked.  Nothing depends on the order of the pairs or
 * on the window width, only the speed does (the tests use tiny windows).
 *
 * With AVX2 the pairs come from two copies of the values, one reversed,
 * so that G(a..a+31) and G(m-k-a-31..m-k-a) are plain loads; each xor x
 * becomes the byte x - base + 1, clamped to 0 below the window and to 255
 * above it (neither is ever wanted), and a 256-bit filter in two
 * registers (byte_filter.h's pshufb lookup, shared with x86.inc) says
 * which bytes are wanted; two blocks of 32 pairs share one branch, since about one
 * block in ten holds a hit.  Values stay below SCAN_VMAX so that a xor
 * plus one fits a signed 16-bit lane; a value that reaches it ends the
 * run early.  Pairs are read in order from a = 1: backwards, or blocks
 * taken a stride apart, read fewer pairs in a count over 0.2252's values
 * but were no faster (docs/BENCHMARKS.md, "Tried and not kept").
 */
#include "sgexplore.h"
#include "enum_impl.h"
#include "sparse_space.h"

#include <stdlib.h>
#include <string.h>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define SCAN_AVX2 1
#include "byte_filter.h"
#endif

/* Values the scan takes (every xor of two of them stays below it). */
#define SCAN_VMAX ((sg_value)1 << 14)
/* Values the filter covers at once: bytes 1..254 of the clamped xor. */
#define SCAN_WIDTH 254
/* The sparse method hands over when at least the SCAN_RARE_DEN-th part of
 * the heaps are rare under the best mask (judged on SGI_SCAN_PREFIX
 * values or more):
 * 0.1633 (a fifth rare at 2^15) is 2.4 times as fast by scans at 2^19,
 * 0.6512 (7 % rare) three times as slow, 0.7316 (1 %) twelve times. */
#define SCAN_RARE_DEN 5

/* One run: the values as 16-bit copies, forward and reversed, and the
 * moves of the rule. */
typedef struct scan_run {
    uint16_t *fwd, *rev; /* fwd[i] = G(i), rev[cap - 1 - i] = G(i) */
    size_t cap;
    size_t *split; /* split digits' positions k */
    uint8_t *uneq; /* ... whose two heaps must differ (`!`) */
    size_t nsplit;
    const sg_rule *r;
    uint64_t have[SCAN_VMAX * 2 / 64]; /* the options found, by value */
    size_t want;                       /* values of the window not found yet */
} scan_run;

/* The pairs (a, rem - a) of one split digit: 1 <= a < end. */
static inline size_t pair_end(size_t rem, int uneq)
{
    return uneq ? (rem + 1) / 2 : rem / 2 + 1;
}

static inline int have_get(const scan_run *sr, unsigned v)
{
    return (int)(sr->have[v / 64] >> (v % 64) & 1);
}

/* Marks v when it is in the window [base, base + width) and new; 1 once
 * the window is full. */
static inline int take(scan_run *sr, unsigned v, unsigned base, unsigned width)
{
    if (v - base >= width || have_get(sr, v))
        return 0;
    sr->have[v / 64] |= (uint64_t)1 << (v % 64);
    return --sr->want == 0;
}

/* The portable scan of one split digit's pairs from a. */
static int scan_plain(scan_run *sr, size_t rem, size_t a, size_t end,
                      unsigned base, unsigned width)
{
    const uint16_t *g = sr->fwd;

    for (; a < end; a++)
        if (take(sr, (unsigned)(g[a] ^ g[rem - a]), base, width))
            return 1;
    return 0;
}

#ifdef SCAN_AVX2
#define AVX2 __attribute__((target("avx2")))

static int scan_have_avx2(void)
{
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2");
}

/* Byte b leaves the set, in the registers (a store and a reload of the
 * table would stall on the store). */
AVX2 static inline void drop(unsigned b, __m256i *ta, __m256i *tb)
{
    const __m256i pos =
        _mm256_setr_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,
                         0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    __m256i sel = _mm256_and_si256(
        _mm256_cmpeq_epi8(_mm256_set1_epi8((char)(b & 15)), pos),
        _mm256_set1_epi8((char)(1u << ((b >> 4) & 7))));

    if (b >> 7)
        *tb = _mm256_andnot_si256(sel, *tb);
    else
        *ta = _mm256_andnot_si256(sel, *ta);
}

/* The lanes of pairs a..a+31 whose xor is in the filter (ta, tb): byte i
 * of the pack is pair a + (i >> 4) * 8 + (i & 8) * 2 + (i & 7) (128-bit
 * lane i / 16, within it z0's eight pairs then z1's). */
AVX2 static inline unsigned block_hits(const uint16_t *g, const uint16_t *rv,
                                       size_t a, __m256i vb, __m256i ta,
                                       __m256i tb)
{
    const __m256i one = _mm256_set1_epi16(1);
    __m256i z0 = _mm256_xor_si256(
        _mm256_loadu_si256((const __m256i *)(const void *)(g + a)),
        _mm256_loadu_si256((const __m256i *)(const void *)(rv + a)));
    __m256i z1 = _mm256_xor_si256(
        _mm256_loadu_si256((const __m256i *)(const void *)(g + a + 16)),
        _mm256_loadu_si256((const __m256i *)(const void *)(rv + a + 16)));

    /* x - base + 1, 0 below the window (saturating), 255 above it */
    z0 = _mm256_subs_epu16(_mm256_adds_epu16(z0, one), vb);
    z1 = _mm256_subs_epu16(_mm256_adds_epu16(z1, one), vb);
    return sgi_avx2_member(_mm256_packus_epi16(z0, z1), ta, tb);
}

/* The hits h of block_hits(a) confirmed and taken, each dropped from the
 * filter (a hit of a value taken since the filter was read is no more
 * than a false hit); 1 once the window is full. */
AVX2 static inline int block_take(scan_run *sr, const uint16_t *g,
                                  const uint16_t *rv, size_t a, unsigned h,
                                  unsigned base, unsigned width, __m256i *ta,
                                  __m256i *tb)
{
    while (h) {
        unsigned i = (unsigned)__builtin_ctz(h);
        size_t b = a + (i >> 4) * 8 + (i & 8) * 2 + (i & 7);
        unsigned v = (unsigned)(g[b] ^ rv[b]); /* the lines just loaded */
        h &= h - 1;
        if (v - base < width && !have_get(sr, v)) {
            drop(v - base + 1, ta, tb);
            if (take(sr, v, base, width))
                return 1;
        }
    }
    return 0;
}

/* scan_plain with AVX2, the filter in (*ta, *tb): 64 pairs a branch,
 * since most blocks hold no hit, then 32, then the rest one by one. */
AVX2 static int scan_avx2(scan_run *sr, size_t rem, size_t end, unsigned base,
                          unsigned width, __m256i *ta, __m256i *tb)
{
    const uint16_t *g = sr->fwd, *rv = sr->rev + (sr->cap - 1 - rem);
    const __m256i vb = _mm256_set1_epi16((short)base);
    size_t a = 1;

    for (; a + 64 <= end; a += 64) {
        unsigned h0 = block_hits(g, rv, a, vb, *ta, *tb),
                 h1 = block_hits(g, rv, a + 32, vb, *ta, *tb);
        if (!(h0 | h1))
            continue;
        if (block_take(sr, g, rv, a, h0, base, width, ta, tb) ||
            block_take(sr, g, rv, a + 32, h1, base, width, ta, tb))
            return 1;
    }
    if (a + 32 <= end &&
        block_take(sr, g, rv, a, block_hits(g, rv, a, vb, *ta, *tb), base,
                   width, ta, tb))
        return 1;
    if (a + 32 <= end)
        a += 32;
    return scan_plain(sr, rem, a, end, base, width);
}
#else
static int scan_have_avx2(void)
{
    return 0;
}
#endif

#ifdef SCAN_AVX2
/* window_full's scans with AVX2, from the window's filter table. */
AVX2 static int window_avx2(scan_run *sr, size_t m, unsigned base,
                            unsigned width, const uint8_t *tab)
{
    __m256i ta = _mm256_broadcastsi128_si256(
                _mm_loadu_si128((const __m128i *)(const void *)tab)),
            tb = _mm256_broadcastsi128_si256(
                _mm_loadu_si128((const __m128i *)(const void *)(tab + 16)));
    size_t j;

    for (j = 0; j < sr->nsplit; j++) {
        size_t k = sr->split[j];
        if (m >= k + 2 && scan_avx2(sr, m - k, pair_end(m - k, sr->uneq[j]),
                                    base, width, &ta, &tb))
            return 1;
    }
    return 0;
}
#endif

/* Bits i of x to the low bit of byte i. */
static inline uint64_t spread8(unsigned x)
{
    return ((uint64_t)(x & 0x7F) * 0x0002040810204081u & 0x0101010101010101u) |
           (uint64_t)(x >> 7 & 1) << 56;
}

/* The filter of the window [base, base + width), as window_avx2 reads it
 * (byte b = v - base + 1 is bit (b >> 4) & 7 of entry (b >> 7) * 16 +
 * (b & 15)), built from the have bits a word at a time: this ran for
 * every value of every window before, with a branch each, 6 % of 0.2252's
 * time.  Returns how many values of the window are wanted. */
static size_t window_filter(const scan_run *sr, unsigned base, unsigned width,
                            uint64_t tab[4])
{
    uint64_t w[4], prev = 0;
    size_t want = 0;
    unsigned i, j;

    /* w: bit b of the window's wanted set, for b = 1..width */
    for (i = 0; i < 4; i++) {
        unsigned p = base + 64 * i, q = p % 64;
        uint64_t h = sr->have[p / 64] >> q;
        if (q)
            h |= sr->have[p / 64 + 1] << (64 - q);
        h = ~h;
        w[i] = h << 1 | prev >> 63;
        prev = h;
    }
    w[0] &= ~(uint64_t)1;
    for (i = 0; i < 4; i++) {
        unsigned lo = 64 * i, keep = width + 1 > lo ? width + 1 - lo : 0;
        if (keep < 64)
            w[i] &= ((uint64_t)1 << keep) - 1;
        want += (size_t)__builtin_popcountll(w[i]);
    }
    /* b = t * 128 + j * 16 + e: bit j of entry e of table t */
    for (i = 0; i < 4; i++)
        tab[i] = 0;
    for (j = 0; j < 16; j++) {
        unsigned t = j >> 3, bits = (unsigned)(w[j / 4] >> (j % 4 * 16));
        tab[2 * t] |= spread8(bits & 0xFF) << (j & 7);
        tab[2 * t + 1] |= spread8(bits >> 8 & 0xFF) << (j & 7);
    }
    return want;
}

/* Whether every value of [base, base + width) is an option of heap m: the
 * window's scan over every split (with the filter when simd). */
static int window_full(scan_run *sr, size_t m, unsigned base, unsigned width,
                       int simd)
{
    uint64_t tab[4];
    size_t j;

    sr->want = window_filter(sr, base, width, tab);
    if (!sr->want)
        return 1;
#ifdef SCAN_AVX2
    if (simd)
        return window_avx2(sr, m, base, width, (const uint8_t *)tab);
#endif
    (void)simd;
    for (j = 0; j < sr->nsplit; j++) {
        size_t k = sr->split[j];
        if (m >= k + 2 &&
            scan_plain(sr, m - k, 1, pair_end(m - k, sr->uneq[j]), base, width))
            return 1;
    }
    return 0;
}

/* G(m) from G(0..m-1) in sr->fwd. */
static sg_value scan_heap(scan_run *sr, size_t m, sg_value max, unsigned width,
                          int simd)
{
    const sg_rule *r = sr->r;
    unsigned top = 1, base, v;
    size_t i;

    while (top <= max)
        top <<= 1; /* every option is below top */
    memset(sr->have, 0, (top / 64 + 1) * sizeof *sr->have);
    for (i = 0; i < r->nterms; i++) {
        size_t k = (size_t)r->terms[i].take;
        unsigned d = r->terms[i].digit;
        if (k == 0 || k > m)
            continue;
        if ((d & SG_BIT_ALL) && m == k)
            sr->have[0] |= 1;
        if ((d & SG_BIT_ONE) && m > k) {
            v = sr->fwd[m - k];
            sr->have[v / 64] |= (uint64_t)1 << (v % 64);
        }
    }
    for (base = 0; base < top; base += width) {
        unsigned w = top - base < width ? top - base : width;
        if (window_full(sr, m, base, w, simd))
            continue;
        for (v = base; have_get(sr, v); v++)
            ;
        return v;
    }
    return top; /* every value below top is an option */
}

static void scan_free(scan_run *sr)
{
    free(sr->fwd);
    free(sr->rev);
    free(sr->split);
    free(sr->uneq);
    free(sr);
}

sg_status sgi_enumerate_scan(sg_seq *s, const sg_rule *r, size_t n,
                             unsigned width, int no_simd,
                             const sg_enum_options *opt, sg_error *err)
{
    scan_run *sr;
    sg_status st;
    size_t i, m;
    int simd = !no_simd && scan_have_avx2();

    if (n <= s->n || s->max >= SCAN_VMAX)
        return SG_OK;
    if (width == 0 || width > SCAN_WIDTH)
        width = SCAN_WIDTH;
    if ((st = sg_seq_reserve(s, n, err)))
        return st;
    sr = calloc(1, sizeof *sr);
    if (!sr)
        goto nomem;
    sr->r = r;
    sr->cap = n + 32; /* the loads of 16 lanes past a pair's end */
    sr->fwd = calloc(sr->cap, sizeof *sr->fwd);
    sr->rev = calloc(sr->cap, sizeof *sr->rev);
    sr->split = malloc((r->nterms + 1) * sizeof *sr->split);
    sr->uneq = malloc(r->nterms + 1);
    if (!sr->fwd || !sr->rev || !sr->split || !sr->uneq)
        goto nomem;
    for (i = 0; i < r->nterms; i++)
        if (r->terms[i].digit & SG_BIT_TWO) {
            sr->uneq[sr->nsplit] = r->terms[i].unequal != 0;
            sr->split[sr->nsplit++] = (size_t)r->terms[i].take;
        }
    for (i = 0; i < s->n; i++) {
        sr->fwd[i] = (uint16_t)sg_seq_get(s, i);
        sr->rev[sr->cap - 1 - i] = sr->fwd[i];
    }
    for (m = s->n; m < n; m++) {
        sg_value v;
        if (m % SG_ENUM_POLL == 0) {
            if (sgi_enum_cancelled(opt)) {
                scan_free(sr);
                return sgi_enum_interrupted(s, err);
            }
            sgi_enum_progress(opt, m, n, 0);
        }
        v = m ? scan_heap(sr, m, s->max, width, simd) : 0;
        if (v >= SCAN_VMAX)
            break; /* the caller goes on by another method */
        if ((st = sgi_seq_push(s, v, err))) {
            scan_free(sr);
            return st;
        }
        sr->fwd[m] = (uint16_t)v;
        sr->rev[sr->cap - 1 - m] = (uint16_t)v;
    }
    scan_free(sr);
    return SG_OK;
nomem:
    if (sr)
        scan_free(sr);
    return sg_error_set(err, SG_E_NOMEM, -1, "out of memory after %zu values",
                        s->n);
}

int sgi_scan_worth(const sg_seq *s, const sg_rule *r)
{
    size_t p = 1, i, heaps;
    int64_t *w, rating;
    uint32_t mask;
    int shift = 0, par;

    if (s->off || s->n < SGI_SCAN_PREFIX || s->max >= SCAN_VMAX / 2 ||
        !scan_have_avx2())
        return 0;
    while (p <= s->max)
        p <<= 1;
    w = calloc(2 * p, sizeof *w);
    if (!w)
        return 0;
    /* heaps h >= 1 by (value, parity), as the sparse method rates them */
    for (i = 1; i < s->n; i++)
        w[sg_seq_get(s, i) << 1 | (i & 1)]++;
    heaps = s->n - 1;
    par = sgi_sparse_parity_ok(r, NULL);
    /* as the sparse method picks (rare.c): a mask under which no heap is
     * rare (0.554's values 0, 1, ...) is the best of all, not passed over */
    mask = sgi_sparse_mask_pick_ext(w, p, 0, 0, 0, par, &shift);
    rating = mask ? (shift ? -w[mask] : w[mask]) : (int64_t)heaps;
    free(w);
    /* rare - common = rating, rare + common = heaps */
    return (uint64_t)((int64_t)heaps + rating) / 2 * SCAN_RARE_DEN >= heaps;
}
