/*
 * period_search.c - candidate periods in one backward pass (contract and
 * why the prover may rely on it in period_search.h).
 *
 * Read the values backwards, R(i) = G(N - 1 - i).  The window of the last
 * len values is the pattern R(0..len-1), and shift d matches exactly when
 * the pattern occurs in R at position d.  Knuth-Morris-Pratt finds every
 * occurrence from a given start in increasing order with at most 2 N
 * comparisons; its failure function (the longest proper border of each
 * pattern prefix) is the only extra memory.
 */
#include "period_search.h"

#include <stddef.h>
#include <stdlib.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/* R(i), the values read from the end. */
static sg_value rev(const sg_seq *s, uint64_t i)
{
    return sg_seq_get(s, (size_t)(s->n - 1 - i));
}

/* The differences read from the end: D(N - 2 - i), i < N - 1. */
static uint64_t rev_diff(const sg_seq *s, uint64_t i)
{
    return (uint64_t)rev(s, i) - (uint64_t)rev(s, i + 1);
}

/* The text the scan reads: values or differences. */
static uint64_t text_at(const sgi_period_scan *ps, uint64_t i)
{
    return ps->diff ? rev_diff(ps->s, i) : (uint64_t)rev(ps->s, i);
}

/* Its length. */
static uint64_t text_len(const sgi_period_scan *ps)
{
    if (!ps->diff)
        return ps->s->n;
    return ps->s->n ? ps->s->n - 1 : 0;
}

/*
 * For one-byte values, with none of the window matched: the first text
 * position j >= i where it could begin, R(j) = c0 and R(j + 1) = c1 (e:
 * R(0)'s byte; R(j) is e[-j]), or n when there is none.  KMP restarted at
 * j with nothing matched finds every occurrence from j on, and none
 * starts in [i, j), so the search may jump there: most positions fail
 * one of the two tests, sixteen at a time (0.1777's proof scans 1.8e9
 * positions over its rounds).
 */
static uint64_t skip_to(const uint8_t *e, uint64_t n, uint64_t i, uint8_t c0,
                        uint8_t c1)
{
#if defined(__SSE2__)
    const __m128i v0 = _mm_set1_epi8((char)c0), v1 = _mm_set1_epi8((char)c1);

    /* bytes e - i - 16 .. e - i: positions i + 16 .. i, descending */
    for (; i + 17 <= n; i += 16) {
        __m128i a =
            _mm_loadu_si128((const __m128i *)(const void *)(e - i - 15));
        __m128i b =
            _mm_loadu_si128((const __m128i *)(const void *)(e - i - 16));
        unsigned mask = (unsigned)_mm_movemask_epi8(
            _mm_and_si128(_mm_cmpeq_epi8(a, v0), _mm_cmpeq_epi8(b, v1)));
        if (mask) /* byte k is position i + 15 - k: the highest first */
            return i + 15 - (unsigned)(31 - __builtin_clz(mask));
    }
#endif
    for (; i + 1 < n; i++)
        if (e[-(ptrdiff_t)i] == c0 && e[-(ptrdiff_t)(i + 1)] == c1)
            return i;
    return n;
}

static sg_status scan_init(sgi_period_scan *ps, const sg_seq *s, uint64_t len,
                           uint64_t dmin, int diff, sg_error *err)
{
    uint64_t i, k;

    ps->s = s;
    ps->len = len;
    ps->next = dmin ? dmin : 1;
    ps->q = 0;
    ps->fail = NULL;
    ps->diff = diff;
    if (len == 0 || len > text_len(ps))
        return SG_OK; /* nothing can match */
    ps->fail = malloc((size_t)(len + 1) * sizeof *ps->fail);
    if (!ps->fail)
        return sg_error_set(err, SG_E_NOMEM, -1,
                            "out of memory for a period search window of "
                            "%llu values",
                            (unsigned long long)len);
    /* fail[q]: length of the longest proper border of R(0..q-1). */
    ps->fail[0] = ps->fail[1] = 0;
    for (i = 1, k = 0; i < len; i++) {
        uint64_t c = text_at(ps, i);
        while (k > 0 && text_at(ps, k) != c)
            k = ps->fail[k];
        if (text_at(ps, k) == c)
            k++;
        ps->fail[i + 1] = k;
    }
    return SG_OK;
}

sg_status sgi_period_scan_init(sgi_period_scan *ps, const sg_seq *s,
                               uint64_t len, uint64_t dmin, sg_error *err)
{
    return scan_init(ps, s, len, dmin, 0, err);
}

sg_status sgi_period_scan_init_diff(sgi_period_scan *ps, const sg_seq *s,
                                    uint64_t len, uint64_t dmin, sg_error *err)
{
    return scan_init(ps, s, len, dmin, 1, err);
}

uint64_t sgi_period_scan_next(sgi_period_scan *ps)
{
    const sg_seq *s = ps->s;
    uint64_t len = ps->len, n = text_len(ps), q = ps->q, i;

    if (!ps->fail)
        return 0;
        /* Text positions i (of R) from ps->next + q on: q values of the
     * pattern are matched ending just before i.  R(x) reads bytes directly
     * for one-byte values (the prover scans hundreds of millions of values
     * per round). */
#define KMP_SCAN(R, SKIP)                                                      \
    for (i = ps->next + q; i < n; i++) {                                       \
        uint64_t c;                                                            \
        if (q == 0 && (SKIP)) {                                                \
            i = skip_to(e, n, i, (uint8_t)R(0), (uint8_t)R(1));                \
            if (i >= n)                                                        \
                break;                                                         \
        }                                                                      \
        c = R(i);                                                              \
        while (q > 0 && R(q) != c)                                             \
            q = ps->fail[q];                                                   \
        if (R(q) == c)                                                         \
            q++;                                                               \
        if (q == len) {                                                        \
            uint64_t d = i + 1 - len;                                          \
            /* Continue after this occurrence next time. */                    \
            q = ps->fail[q];                                                   \
            ps->next = i + 1 - q;                                              \
            ps->q = q;                                                         \
            return d;                                                          \
        }                                                                      \
    }
    if (ps->diff) {
#define DIFF_REV(x) rev_diff(s, (x))
        const uint8_t *e = NULL;
        KMP_SCAN(DIFF_REV, 0)
#undef DIFF_REV
    } else if (s->width == 1) {
        const uint8_t *e = s->data + n - 1;
#define BYTE_REV(x) e[-(ptrdiff_t)(x)]
        KMP_SCAN(BYTE_REV, len >= 2)
#undef BYTE_REV
    } else {
#define SEQ_REV(x) rev(s, (x))
        const uint8_t *e = NULL;
        KMP_SCAN(SEQ_REV, 0)
#undef SEQ_REV
    }
#undef KMP_SCAN
    ps->next = n;
    ps->q = 0;
    free(ps->fail);
    ps->fail = NULL;
    return 0;
}

void sgi_period_scan_clear(sgi_period_scan *ps)
{
    free(ps->fail);
    ps->fail = NULL;
}
