/*
 * setexpr_parse.c - set expressions read: the grammar below parsed into
 * the normalised sgi_set of setexpr.h (sgi_set_parse), every rule of the
 * canonical form applied until none changes anything.  What a parsed set
 * answers (membership, members, its canonical text) is in setexpr.c.
 *
 * Grammar (names case-insensitive, no spaces; every example is canonical):
 *
 *   set     := group [ '\' group ]        difference: members of the first
 *                                         union not in the second, e.g.
 *                                         `primes\2`, `1-100\squares`
 *   group   := union | '(' union ')'      parentheses only group: ','
 *                                         binds tighter than '\', so
 *                                         `9,primes\2` is `(9,primes)\2`
 *                                         and `primes\2,9` is
 *                                         `primes\(2,9)`; a difference
 *                                         inside a union is refused
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
 * A number N may be written as a power B^E (`1-10^12`), as --heap takes
 * it; the canonical form prints it in decimal.
 *
 * The difference sign is a backslash (set minus), which no range or
 * progression uses; in a shell it needs quotes: --subtract 'primes\2'.
 * The bound uses ':' rather than '<', which a shell would take for a
 * redirection.  Members are 1 .. 2^63-1; every number written must be
 * below 2^63.  Heap-dependent items and moves k > n: a move takes k <= n
 * tokens from heap n, which the callers ensure; `at-most-1/1` is then the
 * same as `1+1k` and is printed so.
 *
 * Canonical form (what normalise() reaches; setexpr.c prints it):
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
#include "setexpr_impl.h"
#include "internal.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SHORT_RANGE 16 /* ranges absorbed number by number */

/* ------------------------------------------------------------------ */
/* Normalising one item                                                 */
/* ------------------------------------------------------------------ */

/* Whether k is a member for some heap. */
static int item_maybe(const sgi_set_item *it, uint64_t k)
{
    if (is_heap_kind(it->kind))
        return k >= it->lo && k <= it->hi && k >= 1;
    return item_has(it, k);
}

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
        if (it->hi < MAXV ||
            sgi_set_base_first(SGI_SET_PROG, f, it->b, f + 1) == 0)
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
        it->lo = sgi_set_base_first(it->kind, it->a, it->b, 1) == f ? 1 : f;
        if (it->hi < MAXV) {
            l = item_last(it, it->hi);
            if (!l)
                return -1;
            it->hi = l;
        }
        if (it->hi == f ||
            sgi_set_base_first(it->kind, it->a, it->b, f + 1) == 0 ||
            sgi_set_base_first(it->kind, it->a, it->b, f + 1) > it->hi) {
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
            sgi_set_base_first(l->kind, l->a, l->b, l->hi + 1) != item_min(r))
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

/* The power B^E of a number B read up to *q, which points at its '^', as
 * --heap writes numbers (issue 50: `1-10^12` was refused); *q moves past
 * E.  Below 2^63 like every number of a set. */
static sg_status parse_power(parser *ps, uint64_t *b, const char **q)
{
    const char *e0 = ++*q;
    uint64_t e, v = 1; /* B^0 = 1 */
    sg_status st;

    while (isdigit((unsigned char)**q))
        ++*q;
    if (*q == e0)
        return sg_error_set(ps->err, SG_E_INPUT, pos_of(ps, e0),
                            "expected an exponent after '^', as in 10^12");
    if ((st =
             sgi_parse_u63(&e, e0, (size_t)(*q - e0), pos_of(ps, e0), ps->err)))
        return st;
    for (; e > 0; e--) {
        if (*b > 1 && v > (UINT64_MAX >> 1) / *b)
            return sg_error_set(ps->err, SG_E_INPUT, pos_of(ps, ps->p),
                                "number '%.*s' is larger than 2^63-1",
                                (int)(*q - ps->p), ps->p);
        v *= *b;
        if (*b <= 1)
            break; /* 0^e and 1^e */
    }
    *b = v;
    return SG_OK;
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
    st = sgi_parse_u63(out, ps->p, (size_t)(q - ps->p), pos_of(ps, ps->p),
                       ps->err);
    if (st)
        return st;
    if (*q == '^' && (st = parse_power(ps, out, &q)))
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
    st = sgi_parse_u63(&p, s, (size_t)(slash - s), pos_of(ps, s), ps->err);
    if (!st)
        st = sgi_parse_u63(&q, slash + 1, (size_t)(s + len - slash - 1),
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
        st = sgi_parse_u63(&it->a, s + n, len - n, pos_of(ps, s + n), ps->err);
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

/* What a difference inside a union or parentheses gets (issue 50:
 * `9,primes\2` read as a union of 9 and primes\2). */
#define NESTED_DIFFERENCE                                                      \
    "a difference cannot be part of a union: ',' binds tighter than "          \
    "'\\', so 9,primes\\2 is (9,primes)\\2; write one '\\' for the "           \
    "whole set, as in (9,primes)\\2 or primes\\(2,9)"

/* The end of a union in parentheses opened at `open`: its ')', then '\'
 * or the end of the set. */
static sg_status union_close(parser *ps, const char *open)
{
    if (*ps->p == ')') {
        ps->p++;
        if (*ps->p == '\0' || *ps->p == '\\')
            return SG_OK;
        return sg_error_set(ps->err, SG_E_INPUT, pos_of(ps, ps->p),
                            *ps->p == ',' ? NESTED_DIFFERENCE
                                          : "expected '\\' or the end after "
                                            "')'");
    }
    if (*ps->p == '\\')
        return sg_error_set(ps->err, SG_E_INPUT, pos_of(ps, ps->p),
                            NESTED_DIFFERENCE);
    if (*ps->p == '\0')
        return sg_error_set(ps->err, SG_E_INPUT, pos_of(ps, open),
                            "'(' without its ')'");
    return unexpected(ps, ps->p, "in a set");
}

/* A union at ps->p, up to '\' or the end; or one in parentheses,
 * `(9,primes)` or `(2,9)`, whose ')' is then followed by '\' or the end
 * (parentheses only group: ',' binds tighter than '\' anyway). */
static sg_status parse_union(parser *ps, ilist *l)
{
    size_t big = 0;
    const char *open = *ps->p == '(' ? ps->p++ : NULL;

    for (;;) {
        sgi_set_item it;
        const char *start = ps->p;
        sg_status st;

        if (*ps->p == '(')
            return sg_error_set(ps->err, SG_E_INPUT, pos_of(ps, ps->p),
                                open ? "parentheses inside parentheses"
                                     : NESTED_DIFFERENCE);
        if (*ps->p == ',' || *ps->p == '\0' || *ps->p == '\\' || *ps->p == ')')
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
        if (open)
            return union_close(ps, open);
        if (*ps->p == '\0' || *ps->p == '\\')
            return SG_OK;
        if (*ps->p == ')')
            return sg_error_set(ps->err, SG_E_INPUT, pos_of(ps, ps->p),
                                "')' without its '('");
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
