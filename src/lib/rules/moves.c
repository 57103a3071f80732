/*
 * moves.c - the whole-heap uses of the move generator (moves.h): marking
 * the value of every option of a heap (the naive enumerator) and finding
 * an option of a given value (the winning-move search of query.c).
 */
#include "moves.h"
#include "base/compiler.h"
#include "setexpr.h"
#include "internal.h"

/* The naive enumerator spends nearly all its time in the pair and triple
 * loops here (hence SG_LAYOUT). */
SG_LAYOUT("align-loops=64", "align-jumps=32")
void sgi_moves_mark(uint64_t *stamp, uint64_t tag, const sg_rule *r,
                    const sg_seq *g, size_t h)
{
    sgi_mark_ctx m;

    m.stamp = stamp;
    m.tag = tag;
    sgi_moves_heap(r, g, h, sgi_mark_visit, &m);
}

/* What sgi_moves_find looks for, and where it puts the answer. */
typedef struct find_ctx {
    sg_value target;
    size_t minpart;
    sgi_option *out;
} find_ctx;

static int find_visit(void *ctx, const sgi_option *o)
{
    find_ctx *f = (find_ctx *)ctx;
    size_t largest = o->nparts ? o->part[o->nparts - 1] : 0;

    if (o->value != f->target || largest < f->minpart)
        return 0;
    *f->out = *o;
    return 1;
}

int sgi_moves_find(sgi_option *out, const sg_rule *r, const sg_seq *g, size_t h,
                   sg_value target, size_t minpart)
{
    find_ctx f;

    f.target = target;
    f.minpart = minpart;
    f.out = out;
    return sgi_moves_heap(r, g, h, find_visit, &f);
}

int sgi_moves_heap_set(const sg_rule *r, const sg_seq *g, size_t h,
                       sgi_option_fn fn, void *ctx)
{
    sgi_option o;
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

/* The options of digit d (at most three heaps) when k tokens are taken
 * from heap h, parts ascending: `?` (not all equal) and `=` (all equal)
 * here, no constraint and `!` by the ordinary digit's generator. */
static int tb_digit_options(const sg_seq *g, size_t h, size_t k, sgi_tb_digit d,
                            sgi_option_fn fn, void *ctx)
{
    size_t m = h - k, a, b;
    sgi_option o;

    /* no constraint or `!`: the moves of an ordinary digit */
    if (d.cons == SGI_TB_ANY || d.cons == SGI_TB_UNEQUAL)
        return sgi_moves_digit(g, h, k, (unsigned)(d.mask & 15),
                               d.cons == SGI_TB_UNEQUAL, SG_BITS_ALL_KINDS, fn,
                               ctx);
    o.take = k;
    if ((d.mask & 1) && m == 0) {
        o.nparts = 0;
        o.value = 0;
        if (fn(ctx, &o))
            return 1;
    }
    if ((d.mask & 2) && m >= 1) {
        o.nparts = 1;
        o.part[0] = m;
        o.value = sg_seq_get(g, m);
        if (fn(ctx, &o))
            return 1;
    }
    if (d.mask & 4)
        for (a = 1; 2 * a <= m; a++) {
            int eq = 2 * a == m;
            if ((d.cons == SGI_TB_EQUAL) != eq)
                continue;
            o.nparts = 2;
            o.part[0] = a;
            o.part[1] = m - a;
            o.value = sg_seq_get(g, a) ^ sg_seq_get(g, m - a);
            if (fn(ctx, &o))
                return 1;
        }
    if (d.mask & 8)
        for (a = 1; 3 * a <= m; a++)
            for (b = a; a + 2 * b <= m; b++) {
                size_t c = m - a - b;
                if ((d.cons == SGI_TB_EQUAL) != (a == c))
                    continue;
                o.nparts = 3;
                o.part[0] = a;
                o.part[1] = b;
                o.part[2] = c;
                o.value =
                    sg_seq_get(g, a) ^ sg_seq_get(g, b) ^ sg_seq_get(g, c);
                if (fn(ctx, &o))
                    return 1;
            }
    return 0;
}

int sgi_moves_heap_tb(const sg_rule *r, const sg_seq *g, size_t h,
                      sgi_option_fn fn, void *ctx)
{
    const sgi_tb *tb = r->tb;
    size_t k, e, kmax;

    kmax = tb->tail_len ? h : (tb->len - 1 < h ? tb->len - 1 : h);
    for (k = 0; k <= kmax; k++) {
        sgi_tb_digit d = sgi_tb_digit_at(tb, k);
        if (d.mask && tb_digit_options(g, h, k, d, fn, ctx))
            return 1;
    }
    for (e = 0; e < tb->nent; e++)
        for (k = 1; k <= h; k++)
            if (sgi_set_contains(tb->ent[e].set, k, h) &&
                tb_digit_options(g, h, k, tb->ent[e].digit, fn, ctx))
                return 1;
    return 0;
}
