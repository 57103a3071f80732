/*
 * moves.c - the whole-heap uses of the move generator (moves.h): marking
 * the value of every option of a heap (the naive enumerator) and finding
 * an option of a given value (the winning-move search of query.c).
 */
#include "moves.h"
#include "compiler.h"
#include "setexpr.h"

/* The naive enumerator spends nearly all its time in the pair and triple
 * loops here (hence SG_LAYOUT). */
SG_LAYOUT("align-loops=64", "align-jumps=32")
void sg_moves_mark(uint64_t *stamp, uint64_t tag, const sg_rule *r,
                   const sg_seq *g, size_t h)
{
    sg_mark_ctx m;

    m.stamp = stamp;
    m.tag = tag;
    sg_moves_heap(r, g, h, sg_mark_visit, &m);
}

/* What sg_moves_find looks for, and where it puts the answer. */
typedef struct find_ctx {
    sg_value target;
    size_t minpart;
    sg_option *out;
} find_ctx;

static int find_visit(void *ctx, const sg_option *o)
{
    find_ctx *f = (find_ctx *)ctx;
    size_t largest = o->nparts ? o->part[o->nparts - 1] : 0;

    if (o->value != f->target || largest < f->minpart)
        return 0;
    *f->out = *o;
    return 1;
}

int sg_moves_find(sg_option *out, const sg_rule *r, const sg_seq *g, size_t h,
                  sg_value target, size_t minpart)
{
    find_ctx f;

    f.target = target;
    f.minpart = minpart;
    f.out = out;
    return sg_moves_heap(r, g, h, find_visit, &f);
}

int sg_moves_heap_set(const sg_rule *r, const sg_seq *g, size_t h,
                      sg_option_fn fn, void *ctx)
{
    sg_option o;
    size_t k;

    o.value = 0;
    for (k = 1; k <= h; k++) {
        int in = sgi_set_contains(r->set, k, h);
        if (r->set_allbut ? in : !in)
            continue;
        o.take = k;
        o.nparts = k < h;
        o.part[0] = h - k;
        o.value = k < h ? sg_seq_get(g, h - k) : 0;
        if (fn(ctx, &o))
            return 1;
    }
    return 0;
}
