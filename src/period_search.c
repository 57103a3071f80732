/*
 * period_search.c - candidate periods in one backward pass: a rolling hash
 * of a window of values slides from the end of the sequence towards its
 * start, and every place where it matches the hash of the final window is
 * checked value by value (see period_search.h for the contract and why
 * the prover may rely on it).
 *
 * The hash of the window starting at w is H(w) = sum_i G(w + i) B^i mod P,
 * P = 2^61 - 1 (a prime, so structured sequences such as Thue-Morse words
 * do not collide systematically as they do modulo 2^64).  Sliding one
 * place left: H(w - 1) = G(w - 1) + B (H(w) - G(w + len - 1) B^(len-1)).
 */
#include "period_search.h"

#define P61 ((UINT64_C(1) << 61) - 1)
#define BASE UINT64_C(0x1F3D5B79A2C4E687)   /* any residue > 2^32 */

static uint64_t mod_mul(uint64_t a, uint64_t b)
{
    unsigned __int128 x = (unsigned __int128)a * b;
    uint64_t lo = (uint64_t)(x & P61), hi = (uint64_t)(x >> 61);
    uint64_t r = lo + hi;

    return r >= P61 ? r - P61 : r;
}

static uint64_t mod_add(uint64_t a, uint64_t b)
{
    uint64_t r = a + b;

    return r >= P61 ? r - P61 : r;
}

static uint64_t mod_sub(uint64_t a, uint64_t b)
{
    return a >= b ? a - b : a + P61 - b;
}

/* H of the window starting at w. */
static uint64_t window_hash(const sg_seq *s, uint64_t w, uint64_t len)
{
    uint64_t h = 0, i;

    for (i = len; i-- > 0;)
        h = mod_add(mod_mul(h, BASE % P61), sg_seq_get(s, (size_t)(w + i)));
    return h;
}

void sg_period_scan_init(sg_period_scan *ps, const sg_seq *s, uint64_t len,
                         uint64_t dmin)
{
    uint64_t n = s->n, i;

    ps->s = s;
    ps->len = len;
    ps->d = dmin ? dmin : 1;
    ps->started = 0;
    ps->top = 1;
    for (i = 1; i < len; i++)
        ps->top = mod_mul(ps->top, BASE % P61);
    ps->target = len <= n ? window_hash(s, n - len, len) : 0;
    ps->hash = len + ps->d <= n ? window_hash(s, n - len - ps->d, len) : 0;
}

/* Whether the window at shift d really equals the final one. */
static int window_equal(const sg_period_scan *ps, uint64_t d)
{
    uint64_t e = ps->s->n - ps->len, i;

    for (i = 0; i < ps->len; i++)
        if (sg_seq_get(ps->s, (size_t)(e - d + i)) !=
            sg_seq_get(ps->s, (size_t)(e + i)))
            return 0;
    return 1;
}

uint64_t sg_period_scan_next(sg_period_scan *ps)
{
    const sg_seq *s = ps->s;
    uint64_t n = s->n, len = ps->len, b = BASE % P61;

    if (len == 0 || len > n)
        return 0;
    if (ps->started) {
        /* Move past the shift returned last time. */
        uint64_t w = n - len - ps->d;
        if (w == 0)
            return 0;
        ps->hash = mod_add(
            sg_seq_get(s, (size_t)(w - 1)),
            mod_mul(b, mod_sub(ps->hash,
                               mod_mul(sg_seq_get(s, (size_t)(w + len - 1)),
                                       ps->top))));
        ps->d++;
    }
    ps->started = 1;
    if (len + ps->d > n)
        return 0;
    for (;;) {
        uint64_t w = n - len - ps->d;
        if (ps->hash == ps->target && window_equal(ps, ps->d))
            return ps->d;
        if (w == 0)
            return 0;
        ps->hash = mod_add(
            sg_seq_get(s, (size_t)(w - 1)),
            mod_mul(b, mod_sub(ps->hash,
                               mod_mul(sg_seq_get(s, (size_t)(w + len - 1)),
                                       ps->top))));
        ps->d++;
    }
}
