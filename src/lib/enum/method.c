/*
 * method.c - the table of enumeration methods (sgi_methods[], one row per
 * method of rules/method_rows.h, indexed by sgi_method_id): the dispatcher
 * (enum.c), the policy (policy.c), deep runs and the reports read it, and
 * a rule's profile says which row is its method.  The run functions of
 * the methods whose entry points take more than the rule are adapted
 * here.
 */
#include "sgexplore.h"
#include "enum/methods/enum_impl.h"
#include "enum/sparse/sparse.h"
#include "rules/setexpr.h"

/* A rule holding a set: enum_set.c computes G(0..m-1) afresh for each m,
 * so the count grows fourfold per round (at most a third more work than
 * one round), and a run stopped in a round (Ctrl-C, --seconds) keeps the
 * longer of the last whole round and the stopped round's prefix: each
 * round's set-up (the members, a sieve) would otherwise leave a run
 * stopped early with nothing. */
static sg_status sgi_run_set(sg_seq *s, const sg_rule *r, size_t n,
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
        return sgi_enum_interrupted(s, err);
    return st;
}

/* The name of the set method that computes the rule's default count
 * (enum_set.c picks among its own by the set and the count). */
static const char *sgi_name_set(const sg_rule *r)
{
    return sgi_set_method_name(r->set, r->set_allbut,
                               sgi_rule_profile(r)->default_max, SGI_SET_AUTO);
}

static sg_status sgi_run_general(sg_seq *s, const sg_rule *r, size_t n,
                                 const sg_enum_options *opt, sg_error *err)
{
    return sgi_enumerate_tb(s, r->tb, n, opt, err);
}

static sg_status sgi_run_sparse(sg_seq *s, const sg_rule *r, size_t n,
                                const sg_enum_options *opt, sg_error *err)
{
    return sgi_enumerate_sparse(s, r, n, SGI_SPARSE_AUTO, NULL, opt, err);
}

const sgi_method sgi_methods[SGI_METHOD_COUNT] = {
#define SGI_METHOD_ROW(id, name, applies, budget, bytes, deep, run, name_for)  \
    [id] = {id, name, applies, budget, bytes, deep, run, name_for},
#include "rules/method_rows.h"
#undef SGI_METHOD_ROW
};
