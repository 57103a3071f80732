/*
 * enum_naive.c - the straightforward enumeration method, kept as the
 * reference the faster methods are tested and benchmarked against, and
 * used for what none of them covers (repeating tails, three-heap digits
 * with `!`).  For each heap it marks the value of every option (the move
 * generator of moves.h) in a stamp array (stamp h+1 means "present for
 * heap h", so nothing is ever cleared) and takes the least unmarked value.
 */
#include "sgexplore.h"
#include "enum_impl.h"
#include "rules/moves.h"
#include "rules/setexpr.h"

#include <stdlib.h>
#include <string.h>

/* Stamp array indexed by value: wide enough for any xor of values seen. */
typedef struct marks {
    uint64_t *stamp;
    size_t size; /* a power of two greater than every option value */
} marks;

static int marks_fit(marks *m, sg_value max)
{
    size_t old = m->size;

    /* A power of two P > max holds every xor of option values; the mex
     * can be one past the largest, so twice that, 2P >= 2 (max + 1), which
     * is what sg_grow's doubling (from 16) yields. */
    if (sg_grow(&m->stamp, &m->size, 2 * ((size_t)max + 1), sizeof *m->stamp))
        return -1;
    memset(m->stamp + old, 0, (m->size - old) * sizeof *m->stamp);
    return 0;
}

sg_status sg_enumerate_naive(sg_seq *s, const sg_rule *r, size_t n,
                             const sg_enum_options *opt, sg_error *err)
{
    marks m = {NULL, 0};
    sg_status st;
    size_t h;

    if (n <= s->n)
        return SG_OK;
    if (r->tb) /* the only method for CGSuite's whole notation */
        return sgi_enumerate_tb(s, r->tb, n, opt, err);
    if (r->set) /* the reference loop over the set's moves */
        return sgi_set_enumerate(s, r->set, r->set_allbut, n, SGI_SET_NAIVE,
                                 opt, err);
    st = sg_seq_reserve(s, n, err);
    if (st)
        return st;
    if (marks_fit(&m, s->max))
        goto nomem;
    for (h = s->n; h < n; h++) {
        uint64_t tag = (uint64_t)h + 1;
        sg_value v;

        if (h % SG_ENUM_POLL == 0) {
            if (sgi_enum_cancelled(opt)) {
                free(m.stamp);
                return sgi_enum_interrupted(s, err);
            }
            sgi_enum_progress(opt, h, n, 0);
        }
        sgi_moves_mark(m.stamp, tag, r, s, h);
        for (v = 0; m.stamp[v] == tag; v++)
            ;
        st = sg_seq_append(s, v, err);
        if (st) {
            free(m.stamp);
            return st;
        }
        if (marks_fit(&m, s->max))
            goto nomem;
    }
    free(m.stamp);
    return SG_OK;
nomem:
    free(m.stamp);
    return sg_error_set(err, SG_E_NOMEM, -1, "out of memory");
}
