/*
 * derive.c - a rule's values read off a subgame's (docs/THEORY.md,
 * "Values from a subgame"): when every move of the parent is a move of
 * the rule and the rule's other moves leave at most one heap, the two
 * agree up to the first heap where one of those moves reaches a heap of
 * that heap's parent value, and checking that costs one look per extra
 * move and heap.  The census's four-digit codes mostly differ from a
 * shorter one by such moves only (0.6466 from 0.4444), so one parent's
 * run serves dozens of codes.
 */
#include "sgexplore.h"
#include "internal.h"

#include <stdlib.h>

/* The rule's moves that the parent lacks at take k, checked against the
 * lemma's hypotheses: 0 when they hold, with *extra the bits. */
static sg_status extra_bits(const sg_rule *r, const sg_rule *p, uint64_t k,
                            unsigned *extra, sg_error *err)
{
    int ur = 0, up = 0;
    unsigned dr = sg_rule_digit(r, k, &ur), dp = sg_rule_digit(p, k, &up);
    const unsigned split = SG_BIT_TWO | SG_BIT_THREE;

    if (dp & ~dr)
        return sg_error_set(err, SG_E_INPUT, -1,
                            "the parent has moves the rule lacks (digit %x "
                            "against %x at take %llu)",
                            dp, dr, (unsigned long long)k);
    *extra = dr & ~dp;
    if (*extra & split)
        return sg_error_set(err, SG_E_INPUT, -1,
                            "the rule's moves at take %llu that the parent "
                            "lacks leave more than one heap (digit %x "
                            "against %x)",
                            (unsigned long long)k, dr, dp);
    if ((dp & split) && !ur != !up)
        return sg_error_set(err, SG_E_INPUT, -1, "the `!` of take %llu differs",
                            (unsigned long long)k);
    if (*extra && k == 0)
        return sg_error_set(err, SG_E_INPUT, -1,
                            "a move that removes nothing cannot leave "
                            "one heap");
    return SG_OK;
}

static int plain_code(const sg_rule *r)
{
    return !r->set && !r->tb && r->tail_len == 0;
}

sg_status sg_derive_agree(const sg_rule *r, const sg_rule *parent,
                          const sg_seq *pv, size_t max, size_t *agree,
                          sg_error *err)
{
    size_t nx = 0, i, a = 0, b = 0, lim;
    uint64_t *xk;
    unsigned *xb;
    sg_status st = SG_OK;

    *agree = 0;
    if (!plain_code(r) || !plain_code(parent))
        return sg_error_set(err, SG_E_INPUT, -1,
                            "only codes of finitely many digits derive "
                            "(no set, no repeating tail)");
    if (pv->off)
        return sg_error_set(err, SG_E_INPUT, -1,
                            "the parent's values are a deep run's window");
    xk = malloc((r->nterms + parent->nterms + 1) * sizeof *xk);
    xb = malloc((r->nterms + parent->nterms + 1) * sizeof *xb);
    if (!xk || !xb) {
        free(xk);
        free(xb);
        return sg_error_set(err, SG_E_NOMEM, -1, "out of memory");
    }
    /* every take of either rule, in order, merged */
    while (!st && (a < r->nterms || b < parent->nterms)) {
        uint64_t k;
        unsigned x = 0;
        if (b >= parent->nterms ||
            (a < r->nterms && r->terms[a].take < parent->terms[b].take))
            k = r->terms[a++].take;
        else if (a >= r->nterms || parent->terms[b].take < r->terms[a].take)
            k = parent->terms[b++].take;
        else
            k = r->terms[a++].take, b++;
        if (!(st = extra_bits(r, parent, k, &x, err)) && x) {
            xk[nx] = k;
            xb[nx++] = x;
        }
    }
    lim = pv->n < max ? pv->n : max;
    for (i = 0; !st && i < lim; i++) {
        sg_value v = sg_seq_get(pv, i);
        size_t j;
        for (j = 0; j < nx; j++) {
            if ((xb[j] & SG_BIT_ALL) && i == xk[j] && v == 0)
                break;
            if ((xb[j] & SG_BIT_ONE) && i > xk[j] &&
                sg_seq_get(pv, i - (size_t)xk[j]) == v)
                break;
        }
        if (j < nx)
            break;
    }
    free(xk);
    free(xb);
    if (!st)
        *agree = i;
    return st;
}
