/*
 * setexpr_impl.h - internal to libsg, shared by the two halves of the set
 * expressions: setexpr_parse.c (parsing and normalising) and setexpr.c
 * (membership, members, canonical text).  The members of the base sets
 * (setexpr.c) and the small questions about one item both ask.
 */
#ifndef SG_SETEXPR_IMPL_H
#define SG_SETEXPR_IMPL_H

#include "setexpr.h"

__extension__ typedef unsigned __int128 u128;

#define MAXV SGI_SET_MAX

/* The least member >= x of the unbounded base (kind, a, b), 0 if none
 * below 2^63; the greatest member <= x (x >= 1), 0 if none; whether k is
 * a member.  Heap-independent kinds only. */
uint64_t sgi_set_base_first(sgi_set_kind kind, uint64_t a, uint64_t b,
                            uint64_t x);
uint64_t sgi_set_base_last(sgi_set_kind kind, uint64_t a, uint64_t b,
                           uint64_t x);
int sgi_set_base_has(sgi_set_kind kind, uint64_t a, uint64_t b, uint64_t k);

static inline uint64_t gcd64(uint64_t a, uint64_t b)
{
    while (b) {
        uint64_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

static inline int is_heap_kind(sgi_set_kind k)
{
    return k == SGI_SET_PROPER_DIV || k == SGI_SET_AT_MOST ||
           k == SGI_SET_AT_LEAST;
}

static inline int cmp_u(uint64_t x, uint64_t y)
{
    return (x > y) - (x < y);
}

static inline uint64_t item_first(const sgi_set_item *it, uint64_t x)
{
    uint64_t f;

    if (x < it->lo)
        x = it->lo;
    if (x > it->hi)
        return 0;
    f = sgi_set_base_first(it->kind, it->a, it->b, x);
    return f && f <= it->hi ? f : 0;
}

static inline uint64_t item_last(const sgi_set_item *it, uint64_t x)
{
    uint64_t l;

    if (x > it->hi)
        x = it->hi;
    if (x < it->lo)
        return 0;
    l = sgi_set_base_last(it->kind, it->a, it->b, x);
    return l && l >= it->lo ? l : 0;
}

/* Membership of k in a heap-independent item. */
static inline int item_has(const sgi_set_item *it, uint64_t k)
{
    return k >= it->lo && k <= it->hi &&
           sgi_set_base_has(it->kind, it->a, it->b, k);
}

/* The least and greatest k that can be members (for some heap). */
static inline uint64_t item_min(const sgi_set_item *it)
{
    if (is_heap_kind(it->kind))
        return it->lo;
    return item_first(it, 1);
}

static inline uint64_t item_max(const sgi_set_item *it)
{
    if (it->kind == SGI_SET_RANGE)
        return it->b;
    return it->hi;
}

static inline int item_unbounded_all(const sgi_set_item *it)
{
    return it->kind == SGI_SET_PROG && it->b == 1 && it->hi == MAXV;
}

#endif /* SG_SETEXPR_IMPL_H */
