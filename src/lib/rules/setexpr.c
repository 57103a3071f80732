/*
 * setexpr.c - set expressions: the move sets of subtraction and all-but
 * games that finite lists cannot write.  Parses the grammar below into the
 * normalised sgi_set of setexpr.h, prints its one canonical text, and
 * answers the questions the enumeration, the cache and the prover ask
 * (membership, members up to a bound, finite, cofinite, periodic).
 *
 * Grammar (names case-insensitive, no spaces; every example is canonical):
 *
 *   set     := union [ '\' union ]        difference: members of the first
 *                                         union not in the second, e.g.
 *                                         `primes\2`, `1-100\squares`
 *   union   := item { ',' item }          union, e.g. `1,primes`
 *   item    := base [ ':' LO '-' HI ]     bound: the base cut to [LO, HI],
 *                                         e.g. `primes:1-997`
 *   base    := N                          a number, `7`
 *            | N '-' M                    a range, `1-3` (two consecutive
 *                                         numbers print as `4,5`)
 *            | A '+' B 'k'                A, A+B, A+2B, ... (A, B >= 1),
 *                                         `4+3k`
 *            | primes | squares | cubes | triangular (1, 3, 6, ...)
 *            | fibonacci (1, 2, 3, 5, 8, ...) | powers-of-B (1, B, B^2,
 *              ...; B >= 2), `powers-of-2`
 *            | proper-divisors            heap n: d | n, 1 <= d < n
 *            | at-most-P/Q                heap n: 1 <= k <= floor(nP/Q),
 *                                         0 < P/Q < 1, e.g. `at-most-1/3`;
 *                                         `at-most-half` is P/Q = 1/2
 *            | at-least-P/Q               heap n: ceil(nP/Q) <= k <= n,
 *                                         0 < P/Q <= 1, `at-least-2/3`,
 *                                         `at-least-half`, `at-least-1/1`
 *                                         (the whole heap)
 *
 * The difference sign is a backslash (set minus), which no range or
 * progression uses; in a shell it needs quotes: --subtract 'primes\2'.
 * The bound uses ':' rather than '<', which a shell would take for a
 * redirection.  Members are 1 .. 2^63-1; every number written must be
 * below 2^63.  Heap-dependent items and moves k > n: a move takes k <= n
 * tokens from heap n, which the callers ensure; `at-most-1/1` is then the
 * same as `1+1k` and is printed so.
 *
 * Canonical form (what normalise() reaches, then print_set()):
 *  - items sorted: numbers and ranges ascending, then progressions (by
 *    step, start, bound), primes, squares, cubes, triangular, fibonacci,
 *    powers-of-B (by B), proper-divisors, at-most, at-least (by fraction);
 *  - numbers and ranges merged (runs of three or more as `a-b`); a range
 *    touching `A+1k` is merged into it (`1-4,5+1k` is `1+1k`); an item
 *    whose members are all at least A is absorbed by `A+1k`;
 *  - numbers of ranges of at most 16 members that another item of the same
 *    union contains are absorbed (`2,primes` is `primes`, `1-6,primes` is
 *    `1,4,6,primes`); longer ranges are kept whole, so that the canonical
 *    form costs little to reach whatever the input;
 *  - bounds tightened to members: HI to the largest member <= HI, LO to 1
 *    when no member lies below it, else to the least member >= LO
 *    (`primes:1-1000` is `primes:1-997`, `primes:100-200` is
 *    `primes:101-199`); a progression's LO moves into its start
 *    (`4+3k:10-20` is `10+3k:1-19`); one member left prints as a number; a
 *    bounded `A+1k` is a range, a range up to 2^63-1 is `A+1k`; no member
 *    at all is an error;
 *  - an item contained in another of the same union (same base and a
 *    narrower bound, a progression inside a progression, powers-of-4 in
 *    powers-of-2, a smaller fraction in a larger one) is dropped, two
 *    bounds of one base with no member between them are merged;
 *  - in a difference, the first union's ranges lose what the second
 *    union's ranges (and short ranges: any heap-independent item) remove,
 *    the second union keeps only what can meet the first, an item of the
 *    first contained in an item of the second is dropped; an empty first
 *    union is an error, an empty second union drops the `\`.
 * The rules are applied until none changes anything, so the canonical
 * text parses back to the same set structure: canonical(parse(c)) == c
 * (a set whose canonical text would pass the 1 MiB the parser reads is
 * refused).
 * Equal sets written differently may still print differently (equality of
 * such sets is not decided here), never the other way round.
 */
#define _DEFAULT_SOURCE
#include "setexpr.h"
#include "internal.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

__extension__ typedef unsigned __int128 u128;

#define MAXV SGI_SET_MAX
#define SHORT_RANGE 16 /* ranges absorbed number by number */

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

static uint64_t gcd64(uint64_t a, uint64_t b)
{
    while (b) {
        uint64_t t = a % b;
        a = b;
        b = t;
    }
    return a;
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

static int is_heap_kind(sgi_set_kind k)
{
    return k == SGI_SET_PROPER_DIV || k == SGI_SET_AT_MOST ||
           k == SGI_SET_AT_LEAST;
}

/* ------------------------------------------------------------------ */
/* Base sets: membership, next and previous member                      */
/* ------------------------------------------------------------------ */

/* The least member >= x of the unbounded base (kind, a, b), 0 if none
 * below 2^63.  Heap-independent kinds only. */
static uint64_t base_first(sgi_set_kind kind, uint64_t a, uint64_t b,
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
static uint64_t base_last(sgi_set_kind kind, uint64_t a, uint64_t b, uint64_t x)
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

static int base_has(sgi_set_kind kind, uint64_t a, uint64_t b, uint64_t k)
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
        return base_first(kind, a, b, k) == k;
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

static uint64_t item_first(const sgi_set_item *it, uint64_t x)
{
    uint64_t f;

    if (x < it->lo)
        x = it->lo;
    if (x > it->hi)
        return 0;
    f = base_first(it->kind, it->a, it->b, x);
    return f && f <= it->hi ? f : 0;
}

static uint64_t item_last(const sgi_set_item *it, uint64_t x)
{
    uint64_t l;

    if (x > it->hi)
        x = it->hi;
    if (x < it->lo)
        return 0;
    l = base_last(it->kind, it->a, it->b, x);
    return l && l >= it->lo ? l : 0;
}

/* Membership of k in a heap-independent item. */
static int item_has(const sgi_set_item *it, uint64_t k)
{
    return k >= it->lo && k <= it->hi && base_has(it->kind, it->a, it->b, k);
}

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
        return base_has(it->kind, it->a, it->b, k);
    }
}

/* Whether k is a member for some heap. */
static int item_maybe(const sgi_set_item *it, uint64_t k)
{
    if (is_heap_kind(it->kind))
        return k >= it->lo && k <= it->hi && k >= 1;
    return item_has(it, k);
}

/* The least and greatest k that can be members (for some heap). */
static uint64_t item_min(const sgi_set_item *it)
{
    if (is_heap_kind(it->kind))
        return it->lo;
    return item_first(it, 1);
}

static uint64_t item_max(const sgi_set_item *it)
{
    if (it->kind == SGI_SET_RANGE)
        return it->b;
    return it->hi;
}

static int item_unbounded_all(const sgi_set_item *it)
{
    return it->kind == SGI_SET_PROG && it->b == 1 && it->hi == MAXV;
}

/* ------------------------------------------------------------------ */
/* Normalising one item                                                 */
/* ------------------------------------------------------------------ */

/* Tighten the bound to members (see the top comment); returns 0, or -1
 * when the item has no member. */
static int item_normalise(sgi_set_item *it)
{
    uint64_t f, l;

    switch (it->kind) {
    case SGI_SET_RANGE:
        if (it->lo > it->a)
            it->a = it->lo;
        if (it->hi < it->b)
            it->b = it->hi;
        it->lo = 1;
        it->hi = MAXV;
        if (it->a > it->b)
            return -1;
        if (it->b == MAXV && it->a < MAXV) {
            /* every member from a on: the progression a+1k */
            it->kind = SGI_SET_PROG;
            it->b = 1;
        }
        return 0;
    case SGI_SET_PROG:
        f = item_first(it, 1);
        if (!f)
            return -1;
        it->a = f;
        it->lo = 1;
        l = item_last(it, it->hi);
        if (!l)
            return -1;
        if (it->hi < MAXV || base_first(SGI_SET_PROG, f, it->b, f + 1) == 0)
            it->hi = l;
        if (it->hi < MAXV && it->b == 1) {
            it->kind = SGI_SET_RANGE;
            it->b = it->hi;
            it->hi = MAXV;
        }
        if (it->hi == it->a) {
            it->kind = SGI_SET_RANGE;
            it->b = it->a;
            it->hi = MAXV;
        }
        return 0;
    case SGI_SET_PRIMES:
    case SGI_SET_SQUARES:
    case SGI_SET_CUBES:
    case SGI_SET_TRIANGULAR:
    case SGI_SET_FIBONACCI:
    case SGI_SET_POWERS:
        f = item_first(it, 1);
        if (!f)
            return -1;
        it->lo = base_first(it->kind, it->a, it->b, 1) == f ? 1 : f;
        if (it->hi < MAXV) {
            l = item_last(it, it->hi);
            if (!l)
                return -1;
            it->hi = l;
        }
        if (it->hi == f || base_first(it->kind, it->a, it->b, f + 1) == 0 ||
            base_first(it->kind, it->a, it->b, f + 1) > it->hi) {
            it->kind = SGI_SET_RANGE;
            it->a = it->b = f;
            it->lo = 1;
            it->hi = MAXV;
        }
        return 0;
    case SGI_SET_AT_MOST:
    case SGI_SET_AT_LEAST: {
        uint64_t g = gcd64(it->a, it->b);
        it->a /= g;
        it->b /= g;
        if (it->kind == SGI_SET_AT_MOST && it->a >= it->b) {
            /* every k <= n: the progression 1+1k, within the bound */
            it->kind = SGI_SET_PROG;
            it->a = 1;
            it->b = 1;
            return item_normalise(it);
        }
        return it->lo <= it->hi ? 0 : -1;
    }
    case SGI_SET_PROPER_DIV:
    default:
        return it->lo <= it->hi ? 0 : -1;
    }
}

/* ------------------------------------------------------------------ */
/* Order and containment                                                */
/* ------------------------------------------------------------------ */

static int cmp_u(uint64_t x, uint64_t y)
{
    return (x > y) - (x < y);
}

static int item_cmp(const sgi_set_item *x, const sgi_set_item *y)
{
    int c = cmp_u((uint64_t)x->kind, (uint64_t)y->kind);

    if (c)
        return c;
    switch (x->kind) {
    case SGI_SET_RANGE:
        c = cmp_u(x->a, y->a);
        return c ? c : cmp_u(x->b, y->b);
    case SGI_SET_PROG:
        c = cmp_u(x->b, y->b);
        if (!c)
            c = cmp_u(x->a, y->a);
        break;
    case SGI_SET_AT_MOST:
    case SGI_SET_AT_LEAST: {
        u128 l = (u128)x->a * y->b, r = (u128)y->a * x->b;
        c = (l > r) - (l < r);
        break;
    }
    case SGI_SET_PRIMES:
    case SGI_SET_SQUARES:
    case SGI_SET_CUBES:
    case SGI_SET_TRIANGULAR:
    case SGI_SET_FIBONACCI:
    case SGI_SET_POWERS:
    case SGI_SET_PROPER_DIV:
    default:
        c = cmp_u(x->a, y->a);
        break;
    }
    if (!c)
        c = cmp_u(x->lo, y->lo);
    if (!c)
        c = cmp_u(x->hi, y->hi);
    return c;
}

static int item_qcmp(const void *p, const void *q)
{
    return item_cmp(p, q);
}

static int is_power_of(uint64_t x, uint64_t base)
{
    while (x % base == 0)
        x /= base;
    return x == 1;
}

/* Whether every member of x (for every heap) is one of y, decided from
 * their forms alone; x and y normalised, neither a range. */
static int item_subset(const sgi_set_item *x, const sgi_set_item *y)
{
    if (item_unbounded_all(y))
        return item_min(x) >= y->a;
    if (x->kind == SGI_SET_RANGE || y->kind == SGI_SET_RANGE)
        return 0;
    if (x->kind == SGI_SET_PROG && y->kind == SGI_SET_PROG)
        return x->b % y->b == 0 && x->a >= y->a && (x->a - y->a) % y->b == 0 &&
               x->hi <= y->hi;
    if (is_heap_kind(x->kind)) {
        if (x->kind != y->kind || x->lo < y->lo || x->hi > y->hi)
            return 0;
        if (x->kind == SGI_SET_PROPER_DIV)
            return 1;
        if (x->kind == SGI_SET_AT_MOST)
            return (u128)x->a * y->b <= (u128)y->a * x->b;
        return (u128)x->a * y->b >= (u128)y->a * x->b;
    }
    if (x->kind != y->kind)
        return 0;
    if (x->kind == SGI_SET_POWERS ? !is_power_of(x->a, y->a) : 0)
        return 0;
    return item_min(x) >= item_min(y) && x->hi <= y->hi;
}

/* Two bounded pieces of one base with no member between them: merged
 * into x (returns 1). */
static int item_merge(sgi_set_item *x, const sgi_set_item *y)
{
    const sgi_set_item *l, *r;
    uint64_t lo, hi, a;

    if (x->kind != y->kind || x->kind == SGI_SET_RANGE)
        return 0;
    if (x->kind == SGI_SET_PROG) {
        if (x->b != y->b || x->a % x->b != y->a % x->b)
            return 0;
        l = x->a <= y->a ? x : y;
        r = x->a <= y->a ? y : x;
        if (r->a > l->hi && r->a - l->hi > l->b)
            return 0;
        a = l->a;
        hi = l->hi > r->hi ? l->hi : r->hi;
        x->a = a;
        x->hi = hi;
        return 1;
    }
    if (x->a != y->a || x->b != y->b)
        return 0;
    if (is_heap_kind(x->kind)) {
        l = x->lo <= y->lo ? x : y;
        r = x->lo <= y->lo ? y : x;
        if (l->hi < MAXV && r->lo > l->hi + 1)
            return 0;
    } else {
        l = item_min(x) <= item_min(y) ? x : y;
        r = item_min(x) <= item_min(y) ? y : x;
        if (l->hi < item_min(r) &&
            base_first(l->kind, l->a, l->b, l->hi + 1) != item_min(r))
            return 0;
    }
    lo = l->lo;
    hi = l->hi > r->hi ? l->hi : r->hi;
    x->lo = lo;
    x->hi = hi;
    return 1;
}

/* ------------------------------------------------------------------ */
/* Item lists                                                           */
/* ------------------------------------------------------------------ */

typedef struct ilist {
    sgi_set_item *v;
    size_t n, cap;
} ilist;

static int il_push(ilist *l, const sgi_set_item *it)
{
    if (sg_grow(&l->v, &l->cap, l->n + 1, sizeof *l->v))
        return -1;
    l->v[l->n++] = *it;
    return 0;
}

static void il_remove(ilist *l, size_t i)
{
    memmove(l->v + i, l->v + i + 1, (l->n - i - 1) * sizeof *l->v);
    l->n--;
}

static int il_push_range(ilist *l, uint64_t a, uint64_t b)
{
    sgi_set_item it;

    it.kind = SGI_SET_RANGE;
    it.a = a;
    it.b = b;
    it.lo = 1;
    it.hi = MAXV;
    return il_push(l, &it);
}

/* The ranges come first in a sorted list (the kinds' order): their
 * number, so that the other items are found without looking at them. */
static size_t il_ranges(const ilist *l)
{
    size_t lo = 0, hi = l->n;

    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (l->v[mid].kind == SGI_SET_RANGE)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* Whether some heap-independent item of the sorted list l other than a
 * range holds k (at most SGI_SET_MAX_ITEMS of them). */
static int il_other_has(const ilist *l, uint64_t k)
{
    size_t i;

    for (i = il_ranges(l); i < l->n; i++)
        if (!is_heap_kind(l->v[i].kind) && item_has(&l->v[i], k))
            return 1;
    return 0;
}

/* Whether some item of the sorted list l may hold k (for some heap): a
 * binary search among its disjoint ranges, then the other items. */
static int il_maybe(const ilist *l, uint64_t k)
{
    size_t nr = il_ranges(l), lo = 0, hi = nr, i;

    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (l->v[mid].b < k)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo < nr && l->v[lo].a <= k)
        return 1;
    for (i = nr; i < l->n; i++)
        if (item_maybe(&l->v[i], k))
            return 1;
    return 0;
}

/* Push the numbers of [a, b] (a short range) that mode keeps, as ranges:
 * mode 0 keeps those no non-range item of `other` holds, mode 1 those
 * some item of `other` may hold.  Sets *changed when one is dropped. */
static int push_filtered(ilist *out, uint64_t a, uint64_t b, const ilist *other,
                         int mode, int *changed)
{
    uint64_t k, pa = 0, pb = 0;
    int in = 0;

    for (k = a;; k++) {
        int keep = mode == 0 ? !il_other_has(other, k) : il_maybe(other, k);
        if (!keep) {
            *changed = 1;
        } else if (in && pb + 1 == k) {
            pb = k;
        } else {
            if (in && il_push_range(out, pa, pb))
                return -1;
            pa = pb = k;
            in = 1;
        }
        if (k == b)
            break;
    }
    return in ? il_push_range(out, pa, pb) : 0;
}

/* One pass of the union rules; returns 1 when something changed, 0 when
 * nothing did, -1 when out of memory. */
static int union_pass(ilist *l)
{
    size_t i, j;
    int changed = 0;
    uint64_t all = 0;
    ilist nl = {NULL, 0, 0};

    if (l->n == 0)
        return 0;
    qsort(l->v, l->n, sizeof *l->v, item_qcmp);
    /* merge ranges, drop duplicates */
    for (i = j = 0; i < l->n; i++) {
        sgi_set_item *x = j ? &l->v[j - 1] : NULL, *y = &l->v[i];
        if (x && x->kind == SGI_SET_RANGE && y->kind == SGI_SET_RANGE &&
            (x->b == MAXV || y->a <= x->b + 1)) {
            if (y->b > x->b)
                x->b = y->b;
            changed = 1;
        } else if (x && item_cmp(x, y) == 0) {
            changed = 1;
        } else {
            l->v[j++] = *y;
        }
    }
    l->n = j;
    if (changed)
        return 1;
    /* the least A of the A+1k swallows what touches it or lies above */
    for (i = 0; i < l->n; i++)
        if (item_unbounded_all(&l->v[i]) && (!all || l->v[i].a < all))
            all = l->v[i].a;
    if (all) {
        uint64_t a = all;
        int kept = 0;
        /* sorted: the ranges come first, those touching A+1k last */
        for (i = l->n; i-- > 0;) {
            sgi_set_item *x = &l->v[i];
            if (x->kind == SGI_SET_RANGE && x->b + 1 >= a) {
                if (x->a < a)
                    a = x->a;
                x->a = 0; /* removed below */
            }
        }
        for (i = j = 0; i < l->n; i++) {
            sgi_set_item *x = &l->v[i];
            if (!kept && item_unbounded_all(x) && x->a == all) {
                kept = 1;
                x->a = a;
            } else if (x->kind == SGI_SET_RANGE ? x->a == 0
                                                : item_min(x) >= a) {
                changed = 1;
                continue;
            }
            l->v[j++] = *x;
        }
        l->n = j;
        if (changed || a != all)
            return 1;
    }
    /* containment and merging of non-range items */
    for (i = 0; i < l->n; i++) {
        if (l->v[i].kind == SGI_SET_RANGE)
            continue;
        for (j = 0; j < l->n; j++) {
            if (j == i || l->v[j].kind == SGI_SET_RANGE)
                continue;
            if (item_subset(&l->v[j], &l->v[i])) {
                il_remove(l, j);
                return 1;
            }
            if (item_merge(&l->v[i], &l->v[j])) {
                il_remove(l, j);
                (void)item_normalise(&l->v[j < i ? i - 1 : i]);
                return 1;
            }
        }
    }
    /* short ranges lose the numbers other items hold */
    for (i = 0; i < l->n; i++) {
        const sgi_set_item *x = &l->v[i];
        int c = x->kind == SGI_SET_RANGE && x->b - x->a < SHORT_RANGE
                    ? push_filtered(&nl, x->a, x->b, l, 0, &changed)
                    : il_push(&nl, x);
        if (c) {
            free(nl.v);
            return -1;
        }
    }
    free(l->v);
    *l = nl;
    return changed;
}

/* One pass of the difference rules (s minus t). */
static int diff_pass(ilist *s, ilist *t)
{
    size_t i, j, tj = 0;
    uint64_t smin = MAXV, smax = 0, tall = 0;
    int changed = 0, c = 0;
    ilist ns = {NULL, 0, 0}, nt = {NULL, 0, 0};

    for (j = 0; j < t->n; j++)
        if (item_unbounded_all(&t->v[j]) && (!tall || t->v[j].a < tall))
            tall = t->v[j].a;
    /* s's ranges minus t's ranges (both sorted, disjoint) and t's A+1k;
     * short ones lose what t's other items hold */
    for (i = 0; i < s->n && !c; i++) {
        const sgi_set_item *x = &s->v[i];
        uint64_t a = x->a, b = x->b;
        if (x->kind != SGI_SET_RANGE) {
            c = il_push(&ns, x);
            continue;
        }
        if (tall && b >= tall) {
            changed = 1;
            if (a >= tall)
                continue;
            b = tall - 1;
        }
        while (tj < t->n && t->v[tj].kind == SGI_SET_RANGE && t->v[tj].b < a)
            tj++;
        for (j = tj;
             !c && j < t->n && t->v[j].kind == SGI_SET_RANGE && t->v[j].a <= b;
             j++) {
            const sgi_set_item *y = &t->v[j];
            changed = 1;
            if (y->a > a)
                c = il_push_range(&ns, a, y->a - 1);
            if (y->b >= b) {
                a = 1;
                b = 0; /* nothing left */
                break;
            }
            a = y->b + 1;
        }
        if (c || a > b)
            continue;
        if (b - a < SHORT_RANGE)
            c = push_filtered(&ns, a, b, t, 0, &changed);
        else
            c = il_push_range(&ns, a, b);
    }
    if (c)
        goto nomem;
    free(s->v);
    *s = ns;
    ns.v = NULL;
    for (i = 0; i < s->n; i++) {
        uint64_t lo = item_min(&s->v[i]), hi = item_max(&s->v[i]);
        if (lo < smin)
            smin = lo;
        if (hi > smax)
            smax = hi;
    }
    /* t keeps what can meet s */
    for (i = 0; i < t->n && !c; i++) {
        const sgi_set_item *y = &t->v[i];
        uint64_t a, b;
        if (y->kind != SGI_SET_RANGE) {
            if (item_min(y) > smax || item_max(y) < smin)
                changed = 1;
            else
                c = il_push(&nt, y);
            continue;
        }
        a = y->a < smin ? smin : y->a;
        b = y->b > smax ? smax : y->b;
        if (a != y->a || b != y->b)
            changed = 1;
        if (a > b)
            continue;
        if (b - a < SHORT_RANGE)
            c = push_filtered(&nt, a, b, s, 1, &changed);
        else
            c = il_push_range(&nt, a, b);
    }
    if (c)
        goto nomem;
    free(t->v);
    *t = nt;
    nt.v = NULL;
    if (changed)
        return 1;
    /* s's items inside one of t's */
    for (i = 0; i < s->n; i++) {
        if (s->v[i].kind == SGI_SET_RANGE)
            continue;
        for (j = 0; j < t->n; j++)
            if (t->v[j].kind != SGI_SET_RANGE &&
                item_subset(&s->v[i], &t->v[j])) {
                il_remove(s, i);
                return 1;
            }
    }
    return 0;
nomem:
    free(ns.v);
    free(nt.v);
    return -1;
}

/* ------------------------------------------------------------------ */
/* Parsing                                                              */
/* ------------------------------------------------------------------ */

typedef struct parser {
    const char *text;
    const char *p;
    sg_error *err;
} parser;

static long pos_of(const parser *ps, const char *p)
{
    return (long)(p - ps->text);
}

static void char_text(char buf[16], const char *p)
{
    const unsigned char *u = (const unsigned char *)p;
    size_t len = u[0] >= 0x20 && u[0] != 0x7F ? sg_utf8_len(p, 4) : 0;

    if (len) {
        memcpy(buf, p, len);
        buf[len] = '\0';
    } else {
        snprintf(buf, 16, "\\x%02X", u[0]);
    }
}

static sg_status unexpected(parser *ps, const char *p, const char *where)
{
    char cb[16];

    if (*p == '\0')
        return sg_error_set(ps->err, SG_E_INPUT, pos_of(ps, p),
                            "unexpected end of set after '%.*s'",
                            (int)(p - ps->text > 40 ? 40 : p - ps->text),
                            p - ps->text > 40 ? p - 40 : ps->text);
    char_text(cb, p);
    return sg_error_set(ps->err, SG_E_INPUT, pos_of(ps, p),
                        "unexpected character '%s' %s", cb, where);
}

/* A positive number at ps->p (what names it goes in the message). */
static sg_status parse_num(parser *ps, uint64_t *out, const char *what)
{
    const char *q = ps->p;
    sg_status st;

    while (isdigit((unsigned char)*q))
        q++;
    if (q == ps->p) {
        if (*q == '-')
            return sg_error_set(ps->err, SG_E_INPUT, pos_of(ps, q),
                                "negative numbers are not allowed");
        if (*q == ',' || *q == '\0' || *q == '\\')
            return sg_error_set(ps->err, SG_E_INPUT, pos_of(ps, q),
                                "expected %s", what);
        return unexpected(ps, q, "in a set");
    }
    st = sg_parse_u63(out, ps->p, (size_t)(q - ps->p), pos_of(ps, ps->p),
                      ps->err);
    if (st)
        return st;
    if (*out == 0)
        return sg_error_set(ps->err, SG_E_INPUT, pos_of(ps, ps->p),
                            "0 is not allowed in %s: a move removes at "
                            "least one token",
                            what);
    ps->p = q;
    return SG_OK;
}

static const char *const set_names[] = {
    "primes",        "squares",     "cubes",           "triangular",
    "fibonacci",     "powers-of-B", "proper-divisors", "at-most-half",
    "at-least-half", "at-most-P/Q", "at-least-P/Q",
};

static size_t edit_distance(const char *a, size_t la, const char *b)
{
    size_t lb = strlen(b), i, j, d[64];

    if (la > 60)
        la = 60;
    if (lb > 60)
        lb = 60;
    for (j = 0; j <= lb; j++)
        d[j] = j;
    for (i = 1; i <= la; i++) {
        size_t prev = d[0];
        d[0] = i;
        for (j = 1; j <= lb; j++) {
            size_t cur = d[j];
            size_t sub = prev + (tolower((unsigned char)a[i - 1]) != b[j - 1]);
            size_t m = d[j] + 1 < d[j - 1] + 1 ? d[j] + 1 : d[j - 1] + 1;
            d[j] = sub < m ? sub : m;
            prev = cur;
        }
    }
    return d[lb];
}

/* Case-insensitive: does the name [s, s+len) start with word? */
static int starts(const char *s, size_t len, const char *word)
{
    size_t n = strlen(word);
    return len >= n && strncasecmp(s, word, n) == 0;
}

static int is_word(const char *s, size_t len, const char *word)
{
    return len == strlen(word) && strncasecmp(s, word, len) == 0;
}

static sg_status unknown_name(parser *ps, const char *s, size_t len)
{
    size_t i, best = 0, bd = (size_t)-1;
    const char *diff = "";

    for (i = 0; i < sizeof set_names / sizeof set_names[0]; i++) {
        size_t d = edit_distance(s, len, set_names[i]);
        if (d < bd) {
            bd = d;
            best = i;
        }
    }
    for (i = 0; i < 5; i++) {
        size_t n = strlen(set_names[i]);
        if (len > n && starts(s, len, set_names[i]) && s[n] == '-')
            diff = " (a difference is written with a backslash, "
                   "as in 'primes\\2')";
    }
    return sg_error_set(ps->err, SG_E_INPUT, pos_of(ps, s),
                        "unknown set '%.*s': did you mean '%s'?%s",
                        (int)(len > 40 ? 40 : len), s, set_names[best], diff);
}

/* P/Q of at-most-P/Q and at-least-P/Q at s (len bytes). */
static sg_status parse_fraction(parser *ps, const char *s, size_t len,
                                sgi_set_item *it, int atleast)
{
    const char *slash = memchr(s, '/', len);
    uint64_t p, q;
    sg_status st;

    if (is_word(s, len, "half")) {
        it->a = 1;
        it->b = 2;
        return SG_OK;
    }
    if (!slash || slash == s || slash == s + len - 1)
        return sg_error_set(ps->err, SG_E_INPUT, pos_of(ps, s),
                            "expected a fraction P/Q or 'half' after "
                            "'at-%s-'",
                            atleast ? "least" : "most");
    st = sg_parse_u63(&p, s, (size_t)(slash - s), pos_of(ps, s), ps->err);
    if (!st)
        st = sg_parse_u63(&q, slash + 1, (size_t)(s + len - slash - 1),
                          pos_of(ps, slash + 1), ps->err);
    if (st)
        return st;
    if (p == 0 || q == 0 || p > q)
        return sg_error_set(ps->err, SG_E_INPUT, pos_of(ps, s),
                            "the share %llu/%llu of the heap must be more "
                            "than 0 and at most 1",
                            (unsigned long long)p, (unsigned long long)q);
    it->a = p;
    it->b = q;
    return SG_OK;
}

/* A name item at ps->p. */
static sg_status parse_name(parser *ps, sgi_set_item *it)
{
    const char *s = ps->p, *q = s;
    size_t len;

    while (isalnum((unsigned char)*q) || *q == '-' || *q == '/')
        q++;
    len = (size_t)(q - s);
    ps->p = q;
    it->a = it->b = 0;
    if (is_word(s, len, "primes"))
        it->kind = SGI_SET_PRIMES;
    else if (is_word(s, len, "squares"))
        it->kind = SGI_SET_SQUARES;
    else if (is_word(s, len, "cubes"))
        it->kind = SGI_SET_CUBES;
    else if (is_word(s, len, "triangular"))
        it->kind = SGI_SET_TRIANGULAR;
    else if (is_word(s, len, "fibonacci"))
        it->kind = SGI_SET_FIBONACCI;
    else if (is_word(s, len, "proper-divisors"))
        it->kind = SGI_SET_PROPER_DIV;
    else if (starts(s, len, "powers-of-")) {
        sg_status st;
        size_t n = strlen("powers-of-");
        if (len == n)
            return sg_error_set(ps->err, SG_E_INPUT, pos_of(ps, s + n),
                                "expected the base B of powers-of-B");
        st = sg_parse_u63(&it->a, s + n, len - n, pos_of(ps, s + n), ps->err);
        if (st)
            return st;
        if (it->a < 2)
            return sg_error_set(ps->err, SG_E_INPUT, pos_of(ps, s + n),
                                "the base of powers-of-B must be at least "
                                "2");
        it->kind = SGI_SET_POWERS;
    } else if (starts(s, len, "at-most-")) {
        it->kind = SGI_SET_AT_MOST;
        return parse_fraction(ps, s + 8, len - 8, it, 0);
    } else if (starts(s, len, "at-least-")) {
        it->kind = SGI_SET_AT_LEAST;
        return parse_fraction(ps, s + 9, len - 9, it, 1);
    } else {
        return unknown_name(ps, s, len);
    }
    return SG_OK;
}

/* One item (base and bound) at ps->p. */
static sg_status parse_item(parser *ps, sgi_set_item *it)
{
    const char *start = ps->p;
    sg_status st;

    it->lo = 1;
    it->hi = MAXV;
    if (isalpha((unsigned char)*ps->p)) {
        st = parse_name(ps, it);
    } else {
        uint64_t a, b;
        st = parse_num(ps, &a, "a number");
        if (st)
            return st;
        it->kind = SGI_SET_RANGE;
        it->a = it->b = a;
        if (*ps->p == '-') {
            const char *at = ps->p + 1;
            ps->p++;
            if (!isdigit((unsigned char)*ps->p))
                return sg_error_set(ps->err, SG_E_INPUT, pos_of(ps, at),
                                    "range needs an upper end");
            st = parse_num(ps, &b, "the end of a range");
            if (st)
                return st;
            if (b < a)
                return sg_error_set(ps->err, SG_E_INPUT, pos_of(ps, start),
                                    "range %llu-%llu is reversed",
                                    (unsigned long long)a,
                                    (unsigned long long)b);
            it->b = b;
        } else if (*ps->p == '+') {
            const char *at = ps->p + 1;
            ps->p++;
            if (!isdigit((unsigned char)*ps->p))
                return sg_error_set(ps->err, SG_E_INPUT, pos_of(ps, at),
                                    "expected the step B of a progression "
                                    "A+Bk");
            if (*ps->p == '0' && !isdigit((unsigned char)ps->p[1]))
                return sg_error_set(ps->err, SG_E_INPUT, pos_of(ps, at),
                                    "progression %llu+0k has step 0: the "
                                    "step must be at least 1",
                                    (unsigned long long)a);
            st = parse_num(ps, &b, "the step of a progression");
            if (st)
                return st;
            if (*ps->p != 'k' && *ps->p != 'K')
                return sg_error_set(ps->err, SG_E_INPUT, pos_of(ps, ps->p),
                                    "a progression is written A+Bk, as in "
                                    "'4+3k'");
            ps->p++;
            it->kind = SGI_SET_PROG;
            it->b = b;
        }
    }
    if (st)
        return st;
    if (*ps->p == ':') {
        uint64_t lo, hi;
        const char *at = ps->p;
        ps->p++;
        st = parse_num(ps, &lo, "the lower end of a bound");
        if (st)
            return st;
        if (*ps->p != '-')
            return sg_error_set(ps->err, SG_E_INPUT, pos_of(ps, ps->p),
                                "a bound is written :LO-HI, as in "
                                "'primes:1-1000'");
        ps->p++;
        st = parse_num(ps, &hi, "the upper end of a bound");
        if (st)
            return st;
        if (hi < lo)
            return sg_error_set(ps->err, SG_E_INPUT, pos_of(ps, at + 1),
                                "bound %llu-%llu is reversed",
                                (unsigned long long)lo, (unsigned long long)hi);
        if (*ps->p == ':')
            return sg_error_set(ps->err, SG_E_INPUT, pos_of(ps, ps->p),
                                "an item takes one bound only");
        it->lo = lo;
        it->hi = hi;
    }
    if (item_normalise(it))
        return sg_error_set(
            ps->err, SG_E_INPUT, pos_of(ps, start), "'%.*s' has no members",
            (int)(ps->p - start > 60 ? 60 : ps->p - start), start);
    return SG_OK;
}

/* A union at ps->p, up to '\' or the end. */
static sg_status parse_union(parser *ps, ilist *l)
{
    size_t big = 0;

    for (;;) {
        sgi_set_item it;
        const char *start = ps->p;
        sg_status st;

        if (*ps->p == ',' || *ps->p == '\0' || *ps->p == '\\')
            return sg_error_set(ps->err, SG_E_INPUT, pos_of(ps, ps->p),
                                ps->p == ps->text ? "empty set"
                                                  : "empty item in set");
        st = parse_item(ps, &it);
        if (st)
            return st;
        if (it.kind != SGI_SET_RANGE && ++big > SGI_SET_MAX_ITEMS)
            return sg_error_set(ps->err, SG_E_INPUT, pos_of(ps, start),
                                "more than %d items other than numbers "
                                "and ranges",
                                SGI_SET_MAX_ITEMS);
        if (il_push(l, &it))
            return sg_error_set(ps->err, SG_E_NOMEM, -1, "out of memory");
        if (*ps->p == ',') {
            ps->p++;
            continue;
        }
        if (*ps->p == '\0' || *ps->p == '\\')
            return SG_OK;
        return unexpected(ps, ps->p, "in a set");
    }
}

static sg_status normalise(ilist *s, ilist *t, sg_error *err)
{
    int c;

    do {
        do {
            c = union_pass(s);
        } while (c == 1);
        if (c == 0)
            do {
                c = union_pass(t);
            } while (c == 1);
        if (c == 0)
            c = diff_pass(s, t);
        if (c < 0)
            return sg_error_set(err, SG_E_NOMEM, -1, "out of memory");
    } while (c);
    return SG_OK;
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

sg_status sgi_set_parse(sgi_set *s, const char *text, sg_error *err)
{
    parser ps = {text, text, err};
    ilist inc = {NULL, 0, 0}, exc = {NULL, 0, 0};
    const char *bs = NULL;
    sg_status st;

    if (strlen(text) > SGI_SET_MAX_TEXT)
        return sg_error_set(err, SG_E_INPUT, -1, "set is longer than %zu bytes",
                            SGI_SET_MAX_TEXT);
    st = parse_union(&ps, &inc);
    if (!st && *ps.p == '\\') {
        bs = ps.p;
        ps.p++;
        if (*ps.p == '\0')
            st = sg_error_set(err, SG_E_INPUT, pos_of(&ps, ps.p),
                              "nothing after '\\': write what to remove, as "
                              "in 'primes\\2'");
        else
            st = parse_union(&ps, &exc);
        if (!st && *ps.p == '\\')
            st = sg_error_set(err, SG_E_INPUT, pos_of(&ps, ps.p),
                              "one '\\' per set: write every removed item "
                              "after it, as in 'primes\\2,3'");
    }
    if (!st)
        st = normalise(&inc, &exc, err);
    if (!st && inc.n == 0)
        st = sg_error_set(err, SG_E_INPUT, bs ? pos_of(&ps, bs) : 0,
                          "the set is empty: '\\' removes every member");
    if (st) {
        free(inc.v);
        free(exc.v);
        return st;
    }
    {
        /* Absorbing numbers can split ranges: the canonical text must
         * still be short enough to be parsed again. */
        sgi_set t = {inc.v, exc.v, inc.n, exc.n, inc.cap, exc.cap};
        char *c = sgi_set_canonical(&t);
        size_t len = c ? strlen(c) : 0;
        int made = c != NULL;
        free(c);
        if (!made || len > SGI_SET_MAX_TEXT) {
            sgi_set_clear(&t);
            return made ? sg_error_set(err, SG_E_INPUT, -1,
                                       "the canonical form of this set is "
                                       "longer than %zu bytes",
                                       SGI_SET_MAX_TEXT)
                        : sg_error_set(err, SG_E_NOMEM, -1, "out of memory");
        }
        sgi_set_clear(s);
        *s = t;
    }
    return SG_OK;
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
