/*
 * policy.c - the cost policy: how many values an analysis computes when
 * the user does not say.  The budgets follow the cost of the method
 * sg_enumerate picks for the rule (enum.c), so that a default run takes
 * seconds on an ordinary machine whatever the rule, and still reaches the
 * periods the published tables report for that kind of game.  A run
 * bounded by time instead (--seconds) has no such count, only the memory
 * its method needs (sg_time_max).
 */
#include "sgexplore.h"
#include <string.h>
#include "internal.h"
#include "enum/sparse/sparse.h"
#include "rules/setexpr.h"

/* The budget of a rule holding a set expression (enum_set.c's methods,
 * docs/SETS.md "Measured speed"): no theorem proves such a rule, so the
 * count only bounds the time.  Subtraction over a heap-independent set
 * (bitset or naive loop: subtract-a-prime or subtract-a-square to 10^6
 * take a second or two) and the window and divisors methods (at-most-half,
 * proper-divisors: well under a second) get a million values; the moves
 * of other heap-dependent sets cost up to h per heap (at-most-1/3,squares),
 * and the complement count of all-but games |S n [1, h]| per heap
 * (all-but primes to 10^5: under a second), hence less. */
static size_t set_budget(const sg_rule *r)
{
    const char *how;

    if (r->set_allbut)
        return sgi_set_heap_dependent(r->set) ? 10000 : 100000;
    if (!sgi_set_heap_dependent(r->set))
        return 1000000;
    how = sgi_set_method_name(r->set, 0, 1000000, SGI_SET_AUTO);
    if (strcmp(how, "window") == 0 || strcmp(how, "divisors") == 0)
        return 1000000;
    return 10000;
}

size_t sg_default_max(const sg_rule *r)
{
    unsigned bits = sg_rule_bits(r);
    sgi_profile pr;

    sgi_rule_profile(&pr, r);
    if (pr.set)
        return set_budget(r);
    /* CGSuite's whole notation: O(N^2 W) for splits into three or more
     * heaps (W words per value set), O(N^2) for pairs */
    if (pr.tb)
        return sgi_tb_max_heaps(r->tb) >= 3 ? 2000 : 10000;

    /* A tail with splits goes to the naive method, O(N^2) per heap for
     * two-heap digits (every split of every k) and worse for three: a
     * thousand values is already about 10^9 options. */
    if (r->tail_len && (bits & (SG_BIT_TWO | SG_BIT_THREE)))
        return 1000;
    /* Three-heap digits: the bitset method (O(N^2 / 64) per heap) when it
     * applies, the naive O(N^2) one (with `!`) otherwise. */
    if (bits & SG_BIT_THREE)
        return sgi_three_applicable(r) ? 4000 : 2000;
    /* A tail without splits: the naive method, O(N) per heap. */
    if (r->tail_len)
        return 10000;
    /* Two-heap splits: the sparse-space method, about 10^5 to 10^7 values
     * per second depending on how many rare values the game has, so a
     * million values take seconds at worst. */
    if (sgi_sparse_applicable(r))
        return 1000000;
    /* No splits: the direct method, O(N * digits) with one load and one
     * store per digit, cheap enough for ten million values. */
    return 10000000;
}

/* The square root of x, rounded down (no floating point: exact for every
 * 64-bit x). */
static uint64_t isqrt(uint64_t x)
{
    uint64_t r = 0, bit = (uint64_t)1 << 62;

    while (bit > x)
        bit >>= 2;
    while (bit) {
        if (x >= r + bit) {
            x -= r + bit;
            r = (r >> 1) + bit;
        } else {
            r >>= 1;
        }
        bit >>= 2;
    }
    return r;
}

size_t sg_time_max(const sg_rule *r, uint64_t bytes, unsigned shares,
                   int *by_memory)
{
    uint64_t n;
    sgi_profile pr;

    if (by_memory)
        *by_memory = 0;
    /* No theorem can prove such a rule: more values would only cost
     * time, so the count keeps its default. */
    sgi_rule_profile(&pr, r);
    if (pr.proof == SGI_PROOF_NONE)
        return sg_default_max(r);
    if (!bytes)
        bytes = sgi_physical_memory() / 2;
    if (!bytes)
        bytes = (uint64_t)1 << 30;
    if (shares > 1)
        bytes /= shares;
    /* The bitset method keeps N^2 / 8 bytes of bit rows (enum_three.c);
     * every other method about a value and its proof's bookkeeping,
     * well under 8 bytes, per heap. */
    if ((sg_rule_bits(r) & SG_BIT_THREE) && sgi_three_applicable(r))
        n = isqrt(bytes > UINT64_MAX / 4 ? UINT64_MAX : 4 * bytes);
    else
        n = bytes / 8;
    if (n < 128)
        n = 128;
    if (n > SIZE_MAX / 8)
        n = SIZE_MAX / 8;
    if (by_memory)
        *by_memory = 1;
    return (size_t)n;
}
