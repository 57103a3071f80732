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
 * The rule's profile names the method (the first row of the table of
 * methods, method.c and rules/method_rows.h, that applies), so that
 * choosing one is a lookup.  The methods sit below this file and never
 * call back into it.
 */
#include "sgexplore.h"
#include "internal.h"

sg_status sg_enumerate(sg_seq *s, const sg_rule *r, size_t n,
                       const sg_enum_options *opt, sg_error *err)
{
    if (n <= s->n)
        return SG_OK;
    return sgi_method_of(r)->run(s, r, n, opt, err);
}

const char *sg_enumerate_method(const sg_rule *r)
{
    const sgi_method *m = sgi_method_of(r);

    return m->name_for ? m->name_for(r) : m->name;
}
