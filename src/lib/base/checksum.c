/*
 * checksum.c - the values' checksum: FNV-1a over the decimal text
 * "G(0),G(1),...", which certificates, the cache's rows and deep runs
 * carry (sg_checksum), and its running form (sgi_checksum_extend), which
 * deep runs extend block by block before the values leave memory.  In the
 * base layer so that the enumeration (deep runs), the proofs and the
 * store all take it from below.
 */
#include "sgexplore.h"
#include "internal.h"
#include "base/fnv.h"

#include <string.h>

/* The decimal digits of every value below this come from a table. */
#define DIGITS_TABLE 1000
#define FNV_PRIME SG_FNV_PRIME

/* h extended by the decimal digits of x (FNV-1a). */
static uint64_t fnv_number(uint64_t h, sg_value x)
{
    char buf[16];
    int len = 0;

    do {
        buf[len++] = (char)('0' + x % 10);
        x /= 10;
    } while (x);
    while (len > 0)
        h = (h ^ (unsigned char)buf[--len]) * FNV_PRIME;
    return h;
}

uint64_t sgi_checksum_extend(uint64_t h, const sg_seq *s, size_t from,
                             size_t to)
{
    /* Certificates cover hundreds of millions of values and the hash is a
     * chain of multiplications: at least keep the digits out of it. */
    unsigned char txt[DIGITS_TABLE][4];
    size_t i;
    unsigned v;
    int table = to - from > 4 * DIGITS_TABLE;

    if (table)
        memset(txt, 0, sizeof txt);
    for (v = 0; table && v < DIGITS_TABLE; v++) {
        txt[v][0] = (unsigned char)(v < 10 ? 1 : v < 100 ? 2 : 3);
        txt[v][txt[v][0]] = (unsigned char)('0' + v % 10);
        if (v >= 10)
            txt[v][txt[v][0] - 1] = (unsigned char)('0' + v / 10 % 10);
        if (v >= 100)
            txt[v][1] = (unsigned char)('0' + v / 100);
    }
    for (i = from; i < to; i++) {
        sg_value x = sg_seq_at(s, i);
        if (i)
            h = (h ^ (unsigned char)',') * FNV_PRIME;
        if (table && x < DIGITS_TABLE) {
            /* both steps of a one- or two-digit value, then a choice
             * without a branch: the branch on the length, mispredicted
             * at every other value of 0.1777, made the checksum half as
             * slow again (t[2] of a one-digit value is 0, unused) */
            const unsigned char *t = txt[x];
            uint64_t a = (h ^ t[1]) * FNV_PRIME, b = (a ^ t[2]) * FNV_PRIME;
            if (t[0] > 2)
                h = (b ^ t[3]) * FNV_PRIME;
            else
                h = t[0] == 2 ? b : a;
        } else {
            h = fnv_number(h, x);
        }
    }
    return h;
}

uint64_t sg_checksum(const sg_seq *s, size_t n)
{
    return sgi_checksum_extend(SG_FNV_OFFSET, s, 0, n);
}
