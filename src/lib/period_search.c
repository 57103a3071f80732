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

/* R(i), the values read from the end. */
static sg_value rev(const sg_seq *s, uint64_t i)
{
    return sg_seq_get(s, (size_t)(s->n - 1 - i));
}

sg_status sg_period_scan_init(sg_period_scan *ps, const sg_seq *s,
                              uint64_t len, uint64_t dmin, sg_error *err)
{
    uint64_t i, k;

    ps->s = s;
    ps->len = len;
    ps->next = dmin ? dmin : 1;
    ps->q = 0;
    ps->fail = NULL;
    if (len == 0 || len > s->n)
        return SG_OK;   /* nothing can match */
    ps->fail = malloc((size_t)(len + 1) * sizeof *ps->fail);
    if (!ps->fail)
        return sg_error_set(err, SG_E_NOMEM, -1,
                            "out of memory for a period search window of "
                            "%llu values",
                            (unsigned long long)len);
    /* fail[q]: length of the longest proper border of R(0..q-1). */
    ps->fail[0] = ps->fail[1] = 0;
    for (i = 1, k = 0; i < len; i++) {
        sg_value c = rev(s, i);
        while (k > 0 && rev(s, k) != c)
            k = ps->fail[k];
        if (rev(s, k) == c)
            k++;
        ps->fail[i + 1] = k;
    }
    return SG_OK;
}

uint64_t sg_period_scan_next(sg_period_scan *ps)
{
    const sg_seq *s = ps->s;
    uint64_t len = ps->len, n = s->n, q = ps->q, i;

    if (!ps->fail)
        return 0;
    /* Text positions i (of R) from ps->next + q on: q values of the
     * pattern are matched ending just before i.  R(x) reads bytes directly
     * for one-byte values (the prover scans hundreds of millions of values
     * per round). */
#define KMP_SCAN(R)                                                         \
    for (i = ps->next + q; i < n; i++) {                                    \
        sg_value c = R(i);                                                  \
        while (q > 0 && R(q) != c)                                          \
            q = ps->fail[q];                                                \
        if (R(q) == c)                                                      \
            q++;                                                            \
        if (q == len) {                                                     \
            uint64_t d = i + 1 - len;                                       \
            /* Continue after this occurrence next time. */                 \
            q = ps->fail[q];                                                \
            ps->next = i + 1 - q;                                           \
            ps->q = q;                                                      \
            return d;                                                       \
        }                                                                   \
    }
    if (s->width == 1) {
        const uint8_t *e = s->data + n - 1;
#define BYTE_REV(x) e[-(ptrdiff_t)(x)]
        KMP_SCAN(BYTE_REV)
#undef BYTE_REV
    } else {
#define SEQ_REV(x) rev(s, (x))
        KMP_SCAN(SEQ_REV)
#undef SEQ_REV
    }
#undef KMP_SCAN
    ps->next = n;
    ps->q = 0;
    free(ps->fail);
    ps->fail = NULL;
    return 0;
}

void sg_period_scan_clear(sg_period_scan *ps)
{
    free(ps->fail);
    ps->fail = NULL;
}
