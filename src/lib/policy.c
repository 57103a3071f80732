/*
 * policy.c - the cost policy: how many values an analysis computes when
 * the user does not say.  The budgets follow the cost of the method
 * sg_enumerate picks for the rule (enum.c), so that a default run takes
 * seconds on an ordinary machine whatever the rule, and still reaches the
 * periods the published tables report for that kind of game.
 */
#include "sgexplore.h"
#include "internal.h"
#include "sparse/sparse.h"

size_t sg_default_max(const sg_rule *r)
{
    unsigned bits = sg_rule_bits(r);

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
