/*
 * setexpr.c - set expressions answered: what a set parsed by
 * setexpr_parse.c (grammar and canonical form at its top) holds.  The
 * members of each base set (primes, squares, progressions, ...) and item,
 * the one canonical text, and the questions the enumeration, the cache and
 * the prover ask: membership, members up to a bound, the moves of a heap,
 * finite, cofinite, periodic.
 */
#define _DEFAULT_SOURCE
#include "setexpr_impl.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ */
/* Arithmetic                                                           */
/* ------------------------------------------------------------------ */

static uint64_t mulmod(uint64_t a, uint64_t b, uint64_t m)
{
    return (uint64_t)((u128)a * b % m);
}

static uint64_t powmod(uint64_t a, uint64_t e, uint64_t m)
{
    uint64_t r = 1;

    a %= m;
    while (e) {
        if (e & 1)
            r = mulmod(r, a, m);
        a = mulmod(a, a, m);
        e >>= 1;
    }
    return r;
}

/* Deterministic Miller-Rabin: the first twelve primes as bases decide
 * every n < 3.3 * 10^24. */
static int is_prime(uint64_t n)
{
    static const uint64_t small[] = {2,  3,  5,  7,  11, 13,
                                     17, 19, 23, 29, 31, 37};
    uint64_t d = n - 1;
    unsigned s = 0, i;

    if (n < 2)
        return 0;
    for (i = 0; i < 12; i++) {
        if (n == small[i])
            return 1;
        if (n % small[i] == 0)
            return 0;
    }
    if (n < 37 * 37)
        return 1;
    while (!(d & 1)) {
        d >>= 1;
        s++;
    }
    for (i = 0; i < 12; i++) {
        uint64_t x = powmod(small[i], d, n);
        unsigned r;
        if (x == 1 || x == n - 1)
            continue;
        for (r = 1; r < s; r++) {
            x = mulmod(x, x, n);
            if (x == n - 1)
                break;
        }
        if (r == s)
            return 0;
    }
    return 1;
}

static uint64_t isqrt64(uint64_t x)
{
    uint64_t r = (uint64_t)sqrtl((long double)x);

    while (r > 0 && (u128)r * r > x)
        r--;
    while ((u128)(r + 1) * (r + 1) <= x)
        r++;
    return r;
}

static uint64_t icbrt64(uint64_t x)
{
    uint64_t r = (uint64_t)cbrtl((long double)x);

    while (r > 0 && (u128)r * r * r > x)
        r--;
    while ((u128)(r + 1) * (r + 1) * (r + 1) <= x)
        r++;
    return r;
}

/* floor(n p / q) and ceil(n p / q), without overflow (p <= q). */
static uint64_t frac_floor(uint64_t n, uint64_t p, uint64_t q)
{
    return (uint64_t)((u128)n * p / q);
}

static uint64_t frac_ceil(uint64_t n, uint64_t p, uint64_t q)
{
    return (uint64_t)(((u128)n * p + q - 1) / q);
}

/* ------------------------------------------------------------------ */
/* Base sets: membership, next and previous member                      */
/* ------------------------------------------------------------------ */

/* The least member >= x of the unbounded base (kind, a, b), 0 if none
 * below 2^63.  Heap-independent kinds only. */
uint64_t sgi_set_base_first(sgi_set_kind kind, uint64_t a, uint64_t b,
                            uint64_t x)
{
    uint64_t r, f0, f1;

    if (x == 0)
        x = 1;
    if (x > MAXV)
        return 0;
    switch (kind) {
    case SGI_SET_RANGE:
        if (x <= a)
            return a;
        return x <= b ? x : 0;
    case SGI_SET_PROG: {
        uint64_t j;
        if (x <= a)
            return a;
        j = (x - a + b - 1) / b;
        if ((u128)j * b + a > MAXV)
            return 0;
        return a + j * b;
    }
    case SGI_SET_PRIMES:
        if (x <= 2)
            return 2;
        for (r = x | 1; r <= MAXV; r += 2)
            if (is_prime(r))
                return r;
        return 0;
    case SGI_SET_SQUARES:
        r = isqrt64(x - 1) + 1;
        return (u128)r * r <= MAXV ? r * r : 0;
    case SGI_SET_CUBES:
        r = icbrt64(x - 1) + 1;
        return (u128)r * r * r <= MAXV ? r * r * r : 0;
    case SGI_SET_TRIANGULAR:
        /* least m with m(m+1)/2 >= x */
        r = isqrt64(2 * (x - 1));
        while (r > 0 && (u128)r * (r + 1) / 2 >= x)
            r--;
        while ((u128)r * (r + 1) / 2 < x)
            r++;
        return (u128)r * (r + 1) / 2 <= MAXV ? r * (r + 1) / 2 : 0;
    case SGI_SET_FIBONACCI:
        for (f0 = 1, f1 = 2; f0 < x;) {
            uint64_t t = f0 + f1;
            if (f0 > MAXV - f1 || t > MAXV) {
                f0 = f1;
                f1 = 0;
                if (f0 < x)
                    return 0;
                break;
            }
            f0 = f1;
            f1 = t;
        }
        return f0;
    case SGI_SET_POWERS:
        for (r = 1; r < x;) {
            if (r > MAXV / a)
                return 0;
            r *= a;
        }
        return r;
    case SGI_SET_PROPER_DIV:
    case SGI_SET_AT_MOST:
    case SGI_SET_AT_LEAST:
    default:
        return x;
    }
}

/* The greatest member <= x (x >= 1), 0 if none. */
uint64_t sgi_set_base_last(sgi_set_kind kind, uint64_t a, uint64_t b,
                           uint64_t x)
{
    uint64_t r, f0, f1;

    if (x == 0)
        return 0;
    if (x > MAXV)
        x = MAXV;
    switch (kind) {
    case SGI_SET_RANGE:
        if (x < a)
            return 0;
        return x < b ? x : b;
    case SGI_SET_PROG:
        if (x < a)
            return 0;
        return a + (x - a) / b * b;
    case SGI_SET_PRIMES:
        if (x < 2)
            return 0;
        if (x == 2)
            return 2;
        for (r = (x & 1) ? x : x - 1; r >= 3; r -= 2)
            if (is_prime(r))
                return r;
        return 2;
    case SGI_SET_SQUARES:
        r = isqrt64(x);
        return r * r;
    case SGI_SET_CUBES:
        r = icbrt64(x);
        return r * r * r;
    case SGI_SET_TRIANGULAR:
        r = isqrt64(2 * x);
        while ((u128)r * (r + 1) / 2 > x)
            r--;
        return r * (r + 1) / 2;
    case SGI_SET_FIBONACCI:
        for (f0 = 1, f1 = 2; f1 <= x && f0 <= MAXV - f1;) {
            uint64_t t = f0 + f1;
            f0 = f1;
            f1 = t;
        }
        return f1 <= x ? f1 : f0;
    case SGI_SET_POWERS:
        for (r = 1; r <= x / a;)
            r *= a;
        return r;
    case SGI_SET_PROPER_DIV:
    case SGI_SET_AT_MOST:
    case SGI_SET_AT_LEAST:
    default:
        return x;
    }
}

int sgi_set_base_has(sgi_set_kind kind, uint64_t a, uint64_t b, uint64_t k)
{
    uint64_t r;

    if (k == 0 || k > MAXV)
        return 0;
    switch (kind) {
    case SGI_SET_RANGE:
        return k >= a && k <= b;
    case SGI_SET_PROG:
        return k >= a && (k - a) % b == 0;
    case SGI_SET_PRIMES:
        return is_prime(k);
    case SGI_SET_SQUARES:
        r = isqrt64(k);
        return r * r == k;
    case SGI_SET_CUBES:
        r = icbrt64(k);
        return r * r * r == k;
    case SGI_SET_TRIANGULAR:
    case SGI_SET_FIBONACCI:
    case SGI_SET_POWERS:
        return sgi_set_base_first(kind, a, b, k) == k;
    case SGI_SET_PROPER_DIV:
    case SGI_SET_AT_MOST:
    case SGI_SET_AT_LEAST:
    default:
        return 1;
    }
}

/* ------------------------------------------------------------------ */
/* Items: a base within its bound                                       */
/* ------------------------------------------------------------------ */

/* Membership of k for heap n, any item. */
static int item_contains(const sgi_set_item *it, uint64_t k, uint64_t n)
{
    if (k < it->lo || k > it->hi || k == 0)
        return 0;
    switch (it->kind) {
    case SGI_SET_PROPER_DIV:
        return k < n && n % k == 0;
    case SGI_SET_AT_MOST:
        return k <= frac_floor(n, it->a, it->b);
    case SGI_SET_AT_LEAST:
        return k <= n && k >= frac_ceil(n, it->a, it->b);
    case SGI_SET_RANGE:
    case SGI_SET_PROG:
    case SGI_SET_PRIMES:
    case SGI_SET_SQUARES:
    case SGI_SET_CUBES:
    case SGI_SET_TRIANGULAR:
    case SGI_SET_FIBONACCI:
    case SGI_SET_POWERS:
    default:
        return sgi_set_base_has(it->kind, it->a, it->b, k);
    }
}

void sgi_set_init(sgi_set *s)
{
    memset(s, 0, sizeof *s);
}

void sgi_set_clear(sgi_set *s)
{
    free(s->inc);
    free(s->exc);
    sgi_set_init(s);
}

/* ------------------------------------------------------------------ */
/* Canonical text                                                       */
/* ------------------------------------------------------------------ */

typedef struct sbuf {
    char *s;
    size_t n, cap;
    int failed;
} sbuf;

static void sb_puts(sbuf *b, const char *t)
{
    size_t len = strlen(t);

    if (b->failed)
        return;
    if (sg_grow(&b->s, &b->cap, b->n + len + 1, 1)) {
        b->failed = 1;
        return;
    }
    memcpy(b->s + b->n, t, len + 1);
    b->n += len;
}

static void sb_putu(sbuf *b, uint64_t v)
{
    char t[24];

    snprintf(t, sizeof t, "%llu", (unsigned long long)v);
    sb_puts(b, t);
}

static void put_item(sbuf *b, const sgi_set_item *it)
{
    switch (it->kind) {
    case SGI_SET_RANGE:
        sb_putu(b, it->a);
        if (it->b != it->a) {
            sb_puts(b, it->b == it->a + 1 ? "," : "-");
            sb_putu(b, it->b);
        }
        return;
    case SGI_SET_PROG:
        sb_putu(b, it->a);
        sb_puts(b, "+");
        sb_putu(b, it->b);
        sb_puts(b, "k");
        break;
    case SGI_SET_PRIMES:
        sb_puts(b, "primes");
        break;
    case SGI_SET_SQUARES:
        sb_puts(b, "squares");
        break;
    case SGI_SET_CUBES:
        sb_puts(b, "cubes");
        break;
    case SGI_SET_TRIANGULAR:
        sb_puts(b, "triangular");
        break;
    case SGI_SET_FIBONACCI:
        sb_puts(b, "fibonacci");
        break;
    case SGI_SET_POWERS:
        sb_puts(b, "powers-of-");
        sb_putu(b, it->a);
        break;
    case SGI_SET_PROPER_DIV:
        sb_puts(b, "proper-divisors");
        break;
    case SGI_SET_AT_MOST:
    case SGI_SET_AT_LEAST:
        sb_puts(b, it->kind == SGI_SET_AT_MOST ? "at-most-" : "at-least-");
        if (it->a == 1 && it->b == 2) {
            sb_puts(b, "half");
        } else {
            sb_putu(b, it->a);
            sb_puts(b, "/");
            sb_putu(b, it->b);
        }
        break;
    default:
        break;
    }
    if (it->lo != 1 || it->hi != MAXV) {
        sb_puts(b, ":");
        sb_putu(b, it->lo);
        sb_puts(b, "-");
        sb_putu(b, it->hi);
    }
}

char *sgi_set_canonical(const sgi_set *s)
{
    sbuf b = {NULL, 0, 0, 0};
    size_t i;

    sb_puts(&b, "");
    for (i = 0; i < s->ninc; i++) {
        if (i)
            sb_puts(&b, ",");
        put_item(&b, &s->inc[i]);
    }
    if (s->nexc) {
        sb_puts(&b, "\\");
        for (i = 0; i < s->nexc; i++) {
            if (i)
                sb_puts(&b, ",");
            put_item(&b, &s->exc[i]);
        }
    }
    if (b.failed) {
        free(b.s);
        return NULL;
    }
    return b.s;
}

/* ------------------------------------------------------------------ */
/* Questions                                                            */
/* ------------------------------------------------------------------ */

int sgi_set_heap_dependent(const sgi_set *s)
{
    size_t i;

    for (i = 0; i < s->ninc; i++)
        if (is_heap_kind(s->inc[i].kind))
            return 1;
    for (i = 0; i < s->nexc; i++)
        if (is_heap_kind(s->exc[i].kind))
            return 1;
    return 0;
}

int sgi_set_contains(const sgi_set *s, uint64_t k, uint64_t n)
{
    size_t i;
    int in = 0;

    for (i = 0; i < s->ninc && !in; i++)
        in = item_contains(&s->inc[i], k, n);
    for (i = 0; i < s->nexc && in; i++)
        in = !item_contains(&s->exc[i], k, n);
    return in;
}

/* Mark (val 1) or clear (val 0) the members of heap-independent item it
 * in [x, y] in the bitmap bits (bit k - x). */
static void mark_item(uint64_t *bits, const sgi_set_item *it, uint64_t x,
                      uint64_t y, int val, const uint32_t *bp, size_t nbp,
                      uint8_t *scratch)
{
    uint64_t k, lo = x > it->lo ? x : it->lo, hi = y < it->hi ? y : it->hi;

#define SET_BIT(k)                                                             \
    do {                                                                       \
        uint64_t o_ = (k)-x;                                                   \
        if (val)                                                               \
            bits[o_ >> 6] |= (uint64_t)1 << (o_ & 63);                         \
        else                                                                   \
            bits[o_ >> 6] &= ~((uint64_t)1 << (o_ & 63));                      \
    } while (0)

    if (it->kind == SGI_SET_RANGE) {
        if (lo < it->a)
            lo = it->a;
        if (hi > it->b)
            hi = it->b;
    }
    if (lo > hi)
        return;
    if (it->kind == SGI_SET_RANGE || (it->kind == SGI_SET_PROG && it->b == 1)) {
        if (it->kind == SGI_SET_PROG && lo < it->a)
            lo = it->a;
        for (k = lo; k <= hi; k++)
            SET_BIT(k);
        return;
    }
    if (it->kind == SGI_SET_PRIMES && bp) {
        /* segmented sieve over [lo, hi] */
        size_t i, len = (size_t)(hi - lo + 1);
        memset(scratch, 1, len);
        for (i = 0; i < nbp; i++) {
            uint64_t p = bp[i], m;
            if (p * p > hi)
                break;
            m = (lo + p - 1) / p * p;
            if (m < p * p)
                m = p * p;
            for (; m <= hi; m += p)
                scratch[m - lo] = 0;
        }
        for (k = lo; k <= hi; k++)
            if (k >= 2 && scratch[k - lo])
                SET_BIT(k);
        return;
    }
    for (k = item_first(it, lo); k && k <= hi; k = item_first(it, k + 1))
        SET_BIT(k);
#undef SET_BIT
}

#define SEG ((uint64_t)1 << 16)
#define SPARSE_GAP 64

/* The least member >= x of the set's first union, 0 if none. */
static uint64_t first_member(const sgi_set *s, uint64_t x)
{
    uint64_t next = 0;
    size_t i;

    for (i = 0; i < s->ninc; i++) {
        uint64_t f = item_first(&s->inc[i], x);
        if (f && (!next || f < next))
            next = f;
    }
    return next;
}

static sg_status push_member(uint64_t **out, size_t *n, size_t *cap, uint64_t k,
                             sg_error *err)
{
    if (sg_grow(out, cap, *n + 1, sizeof **out))
        return sg_error_set(err, SG_E_NOMEM, -1,
                            "the members do not fit in memory");
    (*out)[(*n)++] = k;
    return SG_OK;
}

sg_status sgi_set_members(uint64_t **out, size_t *n, size_t *cap,
                          const sgi_set *s, uint64_t m, sg_error *err)
{
    uint64_t bits[SEG / 64], x = 1, y, plim = 0;
    uint8_t *scratch = NULL;
    uint32_t *bp = NULL;
    size_t nbp = 0, i;
    sg_status st = SG_OK;
    int lone = 0;

    *n = 0;
    if (sgi_set_heap_dependent(s))
        return sg_error_set(err, SG_E_INPUT, -1,
                            "the members of a heap-dependent set depend on "
                            "the heap");
    if (m > MAXV)
        m = MAXV;
    for (i = 0; i < s->ninc + s->nexc; i++) {
        const sgi_set_item *it =
            i < s->ninc ? &s->inc[i] : &s->exc[i - s->ninc];
        if (it->kind == SGI_SET_PRIMES) {
            uint64_t top = it->hi < m ? it->hi : m, r = isqrt64(top);
            if (r > plim)
                plim = r;
        }
    }
    if (plim && plim <= ((uint64_t)1 << 26)) {
        uint8_t *comp = calloc((size_t)plim + 1, 1);
        size_t cb = 0;
        uint64_t p, q;
        scratch = malloc(SEG);
        if (!comp || !scratch) {
            free(comp);
            free(scratch);
            return sg_error_set(err, SG_E_NOMEM, -1, "out of memory");
        }
        for (p = 2; p <= plim; p++) {
            if (comp[p])
                continue;
            if (sg_grow(&bp, &cb, nbp + 1, sizeof *bp)) {
                st = sg_error_set(err, SG_E_NOMEM, -1, "out of memory");
                break;
            }
            bp[nbp++] = (uint32_t)p;
            for (q = p * p; q <= plim; q += p)
                comp[q] = 1;
        }
        free(comp);
        /* the last prime below sqrt(hi) must square past hi */
        if (!st && sg_grow(&bp, &cb, nbp + 1, sizeof *bp))
            st = sg_error_set(err, SG_E_NOMEM, -1, "out of memory");
        if (!st)
            bp[nbp] = UINT32_MAX;
    }
    while (!st && x <= m) {
        /* after a lone member, x is already the next member */
        uint64_t next = lone ? x : first_member(s, x), after, w, b;
        lone = 0;
        if (!next || next > m)
            break;
        x = next;
        /* A member with no other within SPARSE_GAP is taken alone: a
         * segment per member would cost SEG steps for each square past
         * 2^32 (squares:1-10^13 took three minutes). */
        after = x < m ? first_member(s, x + 1) : 0;
        if (!after || after > m || after - x > SPARSE_GAP) {
            int keep = 1;
            for (i = 0; i < s->nexc && keep; i++)
                keep = !item_has(&s->exc[i], x);
            if (keep && (st = push_member(out, n, cap, x, err)))
                break;
            if (!after || after > m)
                break;
            x = after;
            lone = 1;
            continue;
        }
        y = m - x < SEG - 1 ? m : x + SEG - 1;
        memset(bits, 0, sizeof bits);
        for (i = 0; i < s->ninc; i++)
            mark_item(bits, &s->inc[i], x, y, 1, bp, nbp, scratch);
        for (i = 0; i < s->nexc; i++)
            mark_item(bits, &s->exc[i], x, y, 0, bp, nbp, scratch);
        for (w = 0; !st && w <= (y - x) >> 6; w++)
            for (b = bits[w]; b && !st; b &= b - 1)
                st = push_member(out, n, cap,
                                 x + (w << 6) + (uint64_t)__builtin_ctzll(b),
                                 err);
        if (st || y == m)
            break;
        x = y + 1;
    }
    free(bp);
    free(scratch);
    return st;
}

static int cmp_u64(const void *a, const void *b)
{
    return cmp_u(*(const uint64_t *)a, *(const uint64_t *)b);
}

sg_status sgi_set_moves_at(uint64_t **out, size_t *n, size_t *cap,
                           const sgi_set *s, uint64_t heap, int sorted,
                           sg_error *err)
{
    size_t i, j;
    uint64_t k;

    *n = 0;
    if (!sgi_set_heap_dependent(s))
        return sgi_set_members(out, n, cap, s, heap, err);
    for (i = 0; i < s->ninc; i++) {
        const sgi_set_item *it = &s->inc[i];
        uint64_t lo = it->lo, hi = it->hi < heap ? it->hi : heap;
        if (!is_heap_kind(it->kind)) {
            for (k = item_first(it, 1); k && k <= heap;
                 k = item_first(it, k + 1))
                if (sg_grow(out, cap, *n + 1, sizeof **out))
                    goto nomem;
                else
                    (*out)[(*n)++] = k;
            continue;
        }
        if (it->kind == SGI_SET_PROPER_DIV) {
            for (k = 1; k <= heap / k; k++) {
                uint64_t d[2] = {k, heap / k};
                size_t c;
                if (heap % k)
                    continue;
                for (c = 0; c < (d[0] == d[1] ? 1u : 2u); c++)
                    if (d[c] < heap && d[c] >= lo && d[c] <= hi) {
                        if (sg_grow(out, cap, *n + 1, sizeof **out))
                            goto nomem;
                        (*out)[(*n)++] = d[c];
                    }
            }
            continue;
        }
        if (it->kind == SGI_SET_AT_MOST) {
            uint64_t t = frac_floor(heap, it->a, it->b);
            if (t < hi)
                hi = t;
        } else {
            uint64_t t = frac_ceil(heap, it->a, it->b);
            if (t > lo)
                lo = t;
        }
        if (lo < 1)
            lo = 1;
        for (k = lo; k <= hi; k++) {
            if (sg_grow(out, cap, *n + 1, sizeof **out))
                goto nomem;
            (*out)[(*n)++] = k;
        }
    }
    if (sorted && *n > 1)
        qsort(*out, *n, sizeof **out, cmp_u64);
    for (i = j = 0; i < *n; i++) {
        uint64_t v = (*out)[i];
        size_t e;
        int keep = !sorted || j == 0 || (*out)[j - 1] != v;
        for (e = 0; keep && e < s->nexc; e++)
            keep = !item_contains(&s->exc[e], v, heap);
        if (keep)
            (*out)[j++] = v;
    }
    *n = j;
    return SG_OK;
nomem:
    return sg_error_set(err, SG_E_NOMEM, -1, "the moves do not fit in memory");
}

sg_status sgi_set_members_at(uint64_t **out, size_t *n, size_t *cap,
                             const sgi_set *s, uint64_t heap, sg_error *err)
{
    return sgi_set_moves_at(out, n, cap, s, heap, 1, err);
}

int sgi_set_finite(const sgi_set *s, uint64_t *max)
{
    uint64_t m = 0;
    size_t i;

    for (i = 0; i < s->ninc; i++) {
        uint64_t t = item_max(&s->inc[i]);
        if (t == MAXV && s->inc[i].kind != SGI_SET_RANGE)
            return 0;
        if (t > m)
            m = t;
    }
    if (max)
        *max = m;
    return 1;
}

int sgi_set_cofinite(const sgi_set *s, uint64_t *from)
{
    uint64_t a = 0, tmax = 0;
    size_t i;

    for (i = 0; i < s->ninc; i++)
        if (item_unbounded_all(&s->inc[i]))
            a = s->inc[i].a;
    if (!a)
        return 0;
    for (i = 0; i < s->nexc; i++) {
        uint64_t t = item_max(&s->exc[i]);
        if (t == MAXV)
            return 0;
        if (t > tmax)
            tmax = t;
    }
    if (from)
        *from = tmax >= a ? tmax + 1 : a;
    return 1;
}

int sgi_set_periodic(const sgi_set *s, uint64_t *period, uint64_t *offset)
{
    uint64_t p = 1, off = 1;
    size_t i;

    if (sgi_set_heap_dependent(s))
        return 0;
    for (i = 0; i < s->ninc + s->nexc; i++) {
        const sgi_set_item *it =
            i < s->ninc ? &s->inc[i] : &s->exc[i - s->ninc];
        uint64_t top = item_max(it);
        if (it->kind == SGI_SET_PROG && it->hi == MAXV) {
            uint64_t g = gcd64(p, it->b);
            if ((u128)(p / g) * it->b > MAXV)
                return 0;
            p = p / g * it->b;
            if (it->a > off)
                off = it->a;
        } else if (top == MAXV && it->kind != SGI_SET_RANGE) {
            return 0;
        } else if (top >= off) {
            off = top + 1;
        }
    }
    if (period)
        *period = p;
    if (offset)
        *offset = off;
    return 1;
}
