/*
 * enum.c - the enumerator's dispatcher: G(0..N-1) for any take-and-break
 * rule through the fastest method that applies to it.
 *  - "sparse" (sparse/) for rules whose moves leave at most two
 *    heaps and have some split, with no repeating tail;
 *  - "direct" (enum_direct.c) for finite rules without splits: each heap
 *    looks at one option per digit, O(N * digits);
 *  - "three-heap" (enum_three.c) for finite codes with three-heap moves
 *    and no `!`;
 *  - "naive" (enum_naive.c) for everything else (repeating tails,
 *    three-heap digits with `!`);
 *  - a rule holding a set expression (primes, proper-divisors, ...):
 *    enum_set.c's methods ("bitset", "complement", "window", ...);
 *  - a code in CGSuite's whole notation (`0.G`, `0.C?`): enum_tb.c
 *    ("general").
 * The methods sit below this file and never call back into it.
 */
#include "sgexplore.h"
#include "enum/methods/enum_impl.h"
#include "enum/sparse/sparse.h"
#include "rules/setexpr.h"

/* Whether r holds a set expression (its profile says so): only enum_set.c
 * computes such a rule. */
static int set_rule(const sg_rule *r)
{
    sgi_profile pr;

    sgi_rule_profile(&pr, r);
    return pr.set;
}

/* A rule holding a set: enum_set.c computes G(0..m-1) afresh for each m,
 * so the count grows fourfold per round (at most a third more work than
 * one round), and a run stopped in a round (Ctrl-C, --seconds) keeps the
 * longer of the last whole round and the stopped round's prefix: each
 * round's set-up (the members, a sieve) would otherwise leave a run
 * stopped early with nothing. */
static sg_status set_enumerate(sg_seq *s, const sg_rule *r, size_t n,
                               const sg_enum_options *opt, sg_error *err)
{
    size_t m = s->n;
    sg_status st = SG_OK;

    while (m < n && st == SG_OK) {
        sg_seq t;
        m = m < 16384 ? 65536 : m > SIZE_MAX / 4 ? n : 4 * m;
        if (m > n)
            m = n;
        sg_seq_init(&t);
        st = sgi_set_enumerate(&t, r->set, r->set_allbut, m, SGI_SET_AUTO, opt,
                               err);
        if ((st == SG_OK || st == SG_E_INTERRUPTED) && t.n > s->n) {
            sg_seq u = *s;
            *s = t;
            t = u;
        }
        sg_seq_clear(&t);
    }
    if (st == SG_E_INTERRUPTED)
        return sg_enum_interrupted(s, err);
    return st;
}

sg_status sg_enumerate(sg_seq *s, const sg_rule *r, size_t n,
                       const sg_enum_options *opt, sg_error *err)
{
    if (n <= s->n)
        return SG_OK;
    if (set_rule(r))
        return set_enumerate(s, r, n, opt, err);
    if (r->tb)
        return sgi_enumerate_tb(s, r->tb, n, opt, err);
    if (sgi_sparse_applicable(r))
        return sgi_enumerate_sparse(s, r, n, SGI_SPARSE_AUTO, NULL, opt, err);
    if (sgi_direct_applicable(r))
        return sgi_enumerate_direct(s, r, n, opt, err);
    if (sgi_three_applicable(r))
        return sgi_enumerate_three(s, r, n, opt, err);
    return sg_enumerate_naive(s, r, n, opt, err);
}

const char *sg_enumerate_method(const sg_rule *r)
{
    if (set_rule(r))
        return sgi_set_method_name(r->set, r->set_allbut, sg_default_max(r),
                                   SGI_SET_AUTO);
    if (r->tb)
        return "general";
    if (sgi_sparse_applicable(r))
        return "sparse";
    if (sgi_direct_applicable(r))
        return "direct";
    if (sgi_three_applicable(r))
        return "three-heap";
    return "naive";
}
