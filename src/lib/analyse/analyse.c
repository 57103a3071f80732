/*
 * analyse.c - the analysis (sg_analyse): values computed in growing
 * rounds by the enumeration (enum/) and searched for a proven period after
 * each round by the prover (prove/), until one is proven or the count is
 * reached.  Above both, so that neither calls the other: the prover keeps
 * its memo of agreement stretches across the rounds and says how many
 * values the next round should reach (sgi_prove_next_count), the
 * enumeration only computes.
 */
#include "sgexplore.h"
#include "internal.h"

sg_status sg_analyse(sg_result *res, sg_seq *s, const sg_rule *r, size_t max,
                     const sg_enum_options *opt, sg_error *err)
{
    size_t n = s->n < 128 ? 128 : s->n;
    sg_status st;
    sgi_prove_memo memo;

    sgi_prove_memo_init(&memo, r);
    if (!sgi_prove_applicable(r, NULL))
        n = max;
    for (;;) {
        if (n > max)
            n = max;
        st = sg_enumerate(s, r, n, opt, err);
        /* (the result is returned, so observed, after an error or at max) */
        if (sgi_prove_round(res, r, s, &memo, st || s->n >= max) ==
                SG_E_NOMEM &&
            !st)
            return sg_error_set(err, SG_E_NOMEM, -1,
                                "out of memory while proving the period of "
                                "%zu values",
                                s->n);
        if (st)
            return st;
        if (res->status != SG_UNRESOLVED || s->n >= max)
            return SG_OK;
        n = sgi_prove_next_count(r, s, &memo);
    }
}
