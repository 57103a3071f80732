/*
 * profile.c - what a rule can do, computed from its shape alone
 * (sgi_profile, internal.h): the digits' bits, the tail, the family, a
 * set or a general code, and which theorem could prove it.  Every other
 * module reads these facts instead of re-deriving them from the digits.
 */
#include "sgexplore.h"
#include "internal.h"
#include "rules/setexpr.h"

#include <string.h>

/* Which theorem can apply (prove.c states them), and why not when none
 * can: a function of the facts above alone, so that the policy, the
 * prover and the reports read one answer. */
static sgi_proof_kind proof_kind_of(const sgi_profile *p, const char **why)
{
    *why = NULL;
    if (p->set) {
        *why = "no periodicity theorem is implemented for move sets "
               "that no code can write (primes, squares, "
               "proper-divisors, ...): the values are observed, never "
               "proven";
        return SGI_PROOF_NONE;
    }
    if (p->tb) {
        *why = "no periodicity theorem is implemented for codes in "
               "CGSuite's whole notation (digits past F, '?', '='): the "
               "values are observed, never proven";
        return SGI_PROOF_NONE;
    }
    if (p->unequal) {
        if (!p->has_tail && !p->three)
            return SGI_PROOF_TWO_UNEQUAL;
        *why = "no periodicity theorem is implemented for '!' (unequal "
               "heaps) rules whose moves may leave three heaps or that "
               "have a repeating tail";
        return SGI_PROOF_NONE;
    }
    if (p->has_tail) {
        if (p->tail3 && !(p->prefix_bits & (SG_BIT_TWO | SG_BIT_THREE)))
            return SGI_PROOF_TAIL3;
        if (p->tail3 && !(p->prefix_bits & SG_BIT_THREE))
            return SGI_PROOF_TAIL3_SPLIT;
        if (!(p->bits & (SG_BIT_TWO | SG_BIT_THREE)))
            return SGI_PROOF_TAIL_PERIODIC;
        *why = "no periodicity theorem is implemented for this repeating "
               "[..] tail (only codes ending in [3] whose digits before "
               "it leave at most two heaps)";
        return SGI_PROOF_NONE;
    }
    if (p->three)
        return SGI_PROOF_THREE;
    if (p->splits)
        return SGI_PROOF_TWO;
    return SGI_PROOF_WINDOW;
}

void sgi_rule_profile(sgi_profile *pr, const sg_rule *r)
{
    size_t i;

    memset(pr, 0, sizeof *pr);
    pr->max_take = sg_rule_max_take(r);
    pr->bits = sg_rule_bits(r);
    for (i = 0; i < r->nterms; i++)
        pr->prefix_bits |= r->terms[i].digit;
    for (i = 0; i < r->tail_len; i++)
        pr->tail_bits |= r->tail[i];
    pr->has_tail = r->tail_len != 0;
    pr->tail_start = pr->has_tail ? r->tail_start : 0;
    pr->tail3 = r->tail_len == 1 && r->tail[0] == 3 && !r->tail_unequal[0];
    pr->splits = (pr->bits & SG_BIT_TWO) != 0;
    pr->three = (pr->bits & SG_BIT_THREE) != 0;
    pr->unequal = sg_rule_has_unequal(r);
    pr->family = sg_rule_family(r);
    pr->tail_len = r->tail_len;
    pr->set = r->set != NULL;
    pr->set_allbut = pr->set && r->set_allbut;
    pr->set_heap_dep = pr->set && sgi_set_heap_dependent(r->set);
    pr->tb = r->tb != NULL;
    if (pr->tb) {
        for (i = 0; i < r->tb->len; i++)
            if (r->tb->d[i].cons != SGI_TB_ANY && (r->tb->d[i].mask >> 2))
                pr->unequal = 1;
        pr->has_tail = r->tb->tail_len != 0;
        pr->tail_len = r->tb->tail_len;
        pr->tail_start = pr->has_tail ? r->tb->len - r->tb->tail_len : 0;
    }
    pr->proof = proof_kind_of(pr, &pr->why_unproven);
}
