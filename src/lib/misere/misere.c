/*
 * misere.c - misère play of heap games (docs/MISERE.md): the genus of
 * single heaps and the misère outcome of sums, both computed exactly over
 * the sums of heaps the moves reach, memoised on multisets of heap sizes
 * (a position is a sorted array of its non-empty heaps).
 *
 * The genus recursion needs no nim-heap in the position: with
 * G-(X) the misère Grundy value (1 for a position with no move, else the
 * mex of its options'), G-(X + *1) = G-(X) ^ 1 for every X (MISERE.md,
 * Lemma 1), so the options X + (k-1)*2 + *1 and X + (k-1)*2 of X + k*2
 * have the values gamma_{k-1}(X) ^ 1 and gamma_{k-1}(X), and
 *   gamma_0(X) = mex{gamma_0(X')}      (1 when X has no option),
 *   gamma_k(X) = mex({gamma_k(X')} u {gamma_{k-1}(X), gamma_{k-1}(X) ^ 1}),
 * X' ranging over the options of X.  Once every option alternates from
 * index k - 1 on and gamma_k(X) = gamma_{k-2}(X), X alternates from k - 2
 * on (Lemma 2), which is where the computation stops.
 */
#include "sgexplore.h"
#include "rules/moves.h"
#include "base/fnv.h"
#include "misere_impl.h"
#include "internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Heaps the exact computations accept: beyond, no search would end. */
#define MIS_MAX_HEAP ((size_t)1 << 20)

/* The deepest recursion (moves in a row) the computations go to: each
 * level costs a few hundred bytes of stack, and 8 MiB is common. */
#define MIS_MAX_DEPTH 10000

/* One memoised position: its key in the key pool, its answer. */
typedef struct entry {
    size_t key; /* offset of [len, h1, ..., hlen] in keys */
    size_t val; /* genus: offset in vals; outcome: 0 (P) or 1 (N) */
    uint32_t vlen;
} entry;

/* The memo over multisets, with its byte budget. */
typedef struct memo {
    uint32_t *keys;
    size_t nkeys, capkeys;
    entry *ent;
    size_t nent, capent;
    size_t *slot; /* entry index + 1, 0 when empty */
    size_t nslots;
    sg_value *vals;
    size_t nvals, capvals;
    size_t budget;
} memo;

/* What a computation needs besides the memo. */
typedef struct mis_ctx {
    const sg_rule *r;
    const sg_seq *g; /* G(0..) past the largest heap (moves.h needs it) */
    memo m;
    int genus;    /* memo of genera, else of outcomes */
    size_t depth; /* current recursion depth */
    sg_status st; /* first failure */
    sg_error *err;
    sgi_mis_known_fn known; /* outcomes known without search, or NULL */
    void *known_arg;
    volatile sig_atomic_t *cancel; /* polled by the search, or NULL */
    signed char *dead;             /* per heap: 1 no move, 0 a move, -1 not yet;
                          NULL: heaps are not stripped */
    size_t ndead;
} mis_ctx;

static size_t memo_bytes(const memo *m)
{
    return m->capkeys * sizeof *m->keys + m->capent * sizeof *m->ent +
           m->nslots * sizeof *m->slot + m->capvals * sizeof *m->vals;
}

static void memo_clear(memo *m)
{
    free(m->keys);
    free(m->ent);
    free(m->slot);
    free(m->vals);
    memset(m, 0, sizeof *m);
}

static uint64_t key_hash(const uint32_t *x, size_t len)
{
    uint64_t h = sgi_fnv1a(SG_FNV_OFFSET, x, len * sizeof *x);

    return h ^ (h >> 29) ^ len;
}

/* The entry of position x, or NULL. */
static entry *memo_find(memo *m, const uint32_t *x, size_t len)
{
    size_t i, s;

    if (!m->nslots)
        return NULL;
    for (i = (size_t)key_hash(x, len) & (m->nslots - 1); (s = m->slot[i]) != 0;
         i = (i + 1) & (m->nslots - 1)) {
        const uint32_t *k = m->keys + m->ent[s - 1].key;
        if (k[0] == len && !memcmp(k + 1, x, len * sizeof *x))
            return &m->ent[s - 1];
    }
    return NULL;
}

static void slot_put(memo *m, size_t e)
{
    const uint32_t *k = m->keys + m->ent[e].key;
    size_t i = (size_t)key_hash(k + 1, k[0]) & (m->nslots - 1);

    while (m->slot[i])
        i = (i + 1) & (m->nslots - 1);
    m->slot[i] = e + 1;
}

/* Store position x with its answer; SG_E_UNKNOWN past the budget. */
static sg_status memo_add(mis_ctx *c, const uint32_t *x, size_t len, size_t val,
                          uint32_t vlen)
{
    memo *m = &c->m;
    size_t e;

    if (2 * (m->nent + 1) > m->nslots) {
        size_t ns = m->nslots ? 2 * m->nslots : 1024;
        size_t *old = m->slot, i;
        if (!(m->slot = calloc(ns, sizeof *m->slot))) {
            m->slot = old;
            return sg_error_set(c->err, SG_E_NOMEM, -1, "out of memory");
        }
        free(old);
        m->nslots = ns;
        for (i = 0; i < m->nent; i++)
            slot_put(m, i);
    }
    if (sg_grow(&m->keys, &m->capkeys, m->nkeys + len + 1, sizeof *m->keys) ||
        sg_grow(&m->ent, &m->capent, m->nent + 1, sizeof *m->ent))
        return sg_error_set(c->err, SG_E_NOMEM, -1, "out of memory");
    e = m->nent++;
    m->ent[e].key = m->nkeys;
    m->ent[e].val = val;
    m->ent[e].vlen = vlen;
    m->keys[m->nkeys] = (uint32_t)len;
    memcpy(m->keys + m->nkeys + 1, x, len * sizeof *x);
    m->nkeys += len + 1;
    slot_put(m, e);
    if (memo_bytes(m) > m->budget)
        return sg_error_set(c->err, SG_E_UNKNOWN, -1,
                            "too large: the exact computation needs more "
                            "than %zu MiB (%zu positions stored)",
                            m->budget >> 20, m->nent);
    return SG_OK;
}

/* The option o of heap x[i] applied to x: *out (malloc'd), *olen. */
static uint32_t *child_key(const uint32_t *x, size_t len, size_t i,
                           const sgi_option *o, size_t *olen)
{
    size_t n = len - 1 + (size_t)o->nparts, a = 0, b = 0, j = 0;
    uint32_t *y = malloc((n ? n : 1) * sizeof *y);

    if (!y)
        return NULL;
    /* merge x without x[i] and the ascending parts */
    while (a < len || b < (size_t)o->nparts) {
        if (a == i) {
            a++;
            continue;
        }
        if (b < (size_t)o->nparts && (a >= len || (uint32_t)o->part[b] <= x[a]))
            y[j++] = (uint32_t)o->part[b++];
        else
            y[j++] = x[a++];
    }
    *olen = n;
    return y;
}

/* ------------------------------------------------------------------ */
/* Outcomes                                                             */
/* ------------------------------------------------------------------ */

static int outcome(mis_ctx *c, const uint32_t *x, size_t len);

/* The options walk of outcome(): stops at the first P option. */
typedef struct out_walk {
    mis_ctx *c;
    const uint32_t *x;
    size_t len, i;
    int any;   /* x has an option */
    int found; /* a P option, or -1 on failure */
} out_walk;

static int out_visit(void *ctx, const sgi_option *o)
{
    out_walk *w = ctx;
    size_t ylen;
    uint32_t *y = child_key(w->x, w->len, w->i, o, &ylen);
    int r;

    w->any = 1;
    if (!y) {
        w->c->st = sg_error_set(w->c->err, SG_E_NOMEM, -1, "out of memory");
        w->found = -1;
        return 1;
    }
    r = outcome(w->c, y, ylen);
    free(y);
    if (r < 0) {
        w->found = -1;
        return 1;
    }
    if (r == 0) {
        w->found = 1;
        return 1;
    }
    return 0;
}

/* 1 when the player to move wins x in misère play, 0 when not, -1 on
 * failure (c->st).  A position with no move is won by the player to move. */
static int outcome_new(mis_ctx *c, const uint32_t *x, size_t len);

/* Past MIS_MAX_DEPTH: the position is too large for the search. */
static sg_status too_deep(mis_ctx *c)
{
    return c->st = sg_error_set(c->err, SG_E_UNKNOWN, -1,
                                "too large: the exact computation would go "
                                "deeper than %d moves",
                                MIS_MAX_DEPTH);
}

static int any_visit(void *ctx, const sgi_option *o)
{
    (void)o;
    *(int *)ctx = 1;
    return 1;
}

/* Whether heap h has no move (the zero game), cached in c->dead. */
static int heap_dead(mis_ctx *c, uint32_t h)
{
    int any = 0;

    if (h >= c->ndead)
        return 0;
    if (c->dead[h] < 0) {
        sgi_moves_heap(c->r, c->g, h, any_visit, &any);
        c->dead[h] = (signed char)!any;
    }
    return c->dead[h];
}

static int outcome_stripped(mis_ctx *c, const uint32_t *x, size_t len);

static int outcome(mis_ctx *c, const uint32_t *x, size_t len)
{
    entry *e;
    int r;

    if (c->dead) {
        size_t i;
        for (i = 0; i < len && !heap_dead(c, x[i]); i++)
            ;
        if (i < len)
            return outcome_stripped(c, x, len);
    }
    e = memo_find(&c->m, x, len);

    if (e)
        return (int)e->val;
    if (c->known && (r = c->known(c->known_arg, x, len)) >= 0)
        return r;
    if (c->depth >= MIS_MAX_DEPTH) {
        too_deep(c);
        return -1;
    }
    c->depth++;
    r = outcome_new(c, x, len);
    c->depth--;
    return r;
}

/* outcome() of x without its heaps that have no move: a heap with no
 * move is the game 0, and x + 0 is x. */
static int outcome_stripped(mis_ctx *c, const uint32_t *x, size_t len)
{
    uint32_t *y = malloc((len ? len : 1) * sizeof *y);
    size_t i, n = 0;
    int r;

    if (!y) {
        c->st = sg_error_set(c->err, SG_E_NOMEM, -1, "out of memory");
        return -1;
    }
    for (i = 0; i < len; i++)
        if (!heap_dead(c, x[i]))
            y[n++] = x[i];
    r = outcome(c, y, n);
    free(y);
    return r;
}

/* outcome() of a position not in the memo. */
static int outcome_new(mis_ctx *c, const uint32_t *x, size_t len)
{
    if (c->cancel && *c->cancel) {
        c->st = sg_error_set(c->err, SG_E_INTERRUPTED, -1, "interrupted");
        return -1;
    }
    out_walk w;
    size_t i;
    int win;
    w.c = c;
    w.x = x;
    w.len = len;
    w.any = 0;
    w.found = 0;
    for (i = 0; i < len && !w.found; i++) {
        if (i && x[i] == x[i - 1])
            continue;
        w.i = i;
        sgi_moves_heap(c->r, c->g, x[i], out_visit, &w);
    }
    if (w.found < 0)
        return -1;
    /* N with a P option, or with no option at all */
    win = w.found || !w.any;
    if ((c->st = memo_add(c, x, len, (size_t)win, 0)) != SG_OK)
        return -1;
    return win;
}

/* ------------------------------------------------------------------ */
/* Genus                                                                */
/* ------------------------------------------------------------------ */

/* The options of x, as the list of their keys. */
typedef struct opt_list {
    uint32_t **key;
    size_t *len;
    size_t n, cap, caplen;
    int failed;
    const uint32_t *x;
    size_t xlen, i;
} opt_list;

static int list_visit(void *ctx, const sgi_option *o)
{
    opt_list *l = ctx;
    size_t ylen;
    uint32_t *y = child_key(l->x, l->xlen, l->i, o, &ylen);

    if (!y || sg_grow(&l->key, &l->cap, l->n + 1, sizeof *l->key) ||
        sg_grow(&l->len, &l->caplen, l->n + 1, sizeof *l->len)) {
        free(y);
        l->failed = 1;
        return 1;
    }
    l->key[l->n] = y;
    l->len[l->n++] = ylen;
    return 0;
}

/* gamma_k of the entry e (alternating past its stored exponents). */
static sg_value gamma_at(const mis_ctx *c, const entry *e, size_t k)
{
    if (k >= e->vlen)
        k = e->vlen - 2 + (k - e->vlen) % 2;
    return c->m.vals[e->val + k];
}

/* The least value not in seen[0..n) (n small), plus a and b. */
static sg_value mex_with(const sg_value *seen, size_t n, int extra, sg_value a,
                         sg_value b)
{
    sg_value v = 0;
    size_t i;

    for (;;) {
        int hit = extra && (v == a || v == b);
        for (i = 0; i < n && !hit; i++)
            hit = seen[i] == v;
        if (!hit)
            return v;
        v++;
    }
}

static size_t genus_new(mis_ctx *c, const uint32_t *x, size_t len);

/* The entry index of x's genus in the memo, or SIZE_MAX on failure. */
static size_t genus_of(mis_ctx *c, const uint32_t *x, size_t len)
{
    entry *e = memo_find(&c->m, x, len);
    size_t r;

    if (e)
        return (size_t)(e - c->m.ent);
    if (c->depth >= MIS_MAX_DEPTH) {
        too_deep(c);
        return SIZE_MAX;
    }
    c->depth++;
    r = genus_new(c, x, len);
    c->depth--;
    return r;
}

/* genus_of() of a position not in the memo. */
static size_t genus_new(mis_ctx *c, const uint32_t *x, size_t len)
{
    opt_list l;
    size_t *child = NULL, i, k, maxlen = 0, res = SIZE_MAX;
    sg_value gam[SG_GENUS_MAX], *seen = NULL;
    if (c->cancel && *c->cancel) {
        c->st = sg_error_set(c->err, SG_E_INTERRUPTED, -1, "interrupted");
        return SIZE_MAX;
    }
    memset(&l, 0, sizeof l);
    l.x = x;
    l.xlen = len;
    for (i = 0; i < len && !l.failed; i++) {
        if (i && x[i] == x[i - 1])
            continue;
        l.i = i;
        sgi_moves_heap(c->r, c->g, x[i], list_visit, &l);
    }
    if (l.failed) {
        c->st = sg_error_set(c->err, SG_E_NOMEM, -1, "out of memory");
        goto out;
    }
    if (l.n && (!(child = malloc(l.n * sizeof *child)) ||
                !(seen = malloc(l.n * sizeof *seen)))) {
        c->st = sg_error_set(c->err, SG_E_NOMEM, -1, "out of memory");
        goto out;
    }
    for (i = 0; i < l.n; i++) {
        if ((child[i] = genus_of(c, l.key[i], l.len[i])) == SIZE_MAX)
            goto out;
        if (c->m.ent[child[i]].vlen > maxlen)
            maxlen = c->m.ent[child[i]].vlen;
    }
    for (k = 0;; k++) {
        if (k == SG_GENUS_MAX) {
            c->st = sg_error_set(c->err, SG_E_UNKNOWN, -1,
                                 "a genus did not alternate within %d "
                                 "exponents",
                                 SG_GENUS_MAX);
            goto out;
        }
        for (i = 0; i < l.n; i++)
            seen[i] = gamma_at(c, &c->m.ent[child[i]], k);
        if (k == 0)
            gam[0] = l.n ? mex_with(seen, l.n, 0, 0, 0) : 1;
        else
            gam[k] = mex_with(seen, l.n, 1, gam[k - 1], gam[k - 1] ^ 1);
        /* Lemma 2: alternating from k - 2 on */
        if (k >= 3 && k + 1 >= maxlen && gam[k] == gam[k - 2])
            break;
    }
    if (sg_grow(&c->m.vals, &c->m.capvals, c->m.nvals + k + 1,
                sizeof *c->m.vals)) {
        c->st = sg_error_set(c->err, SG_E_NOMEM, -1, "out of memory");
        goto out;
    }
    memcpy(c->m.vals + c->m.nvals, gam, (k + 1) * sizeof *gam);
    if ((c->st = memo_add(c, x, len, c->m.nvals, (uint32_t)(k + 1))) != SG_OK)
        goto out;
    c->m.nvals += k + 1;
    res = c->m.nent - 1;
out:
    for (i = 0; i < l.n; i++)
        free(l.key[i]);
    free(l.key);
    free(l.len);
    free(child);
    free(seen);
    return res;
}

/* ------------------------------------------------------------------ */
/* Genus text and tameness                                              */
/* ------------------------------------------------------------------ */

/* The least j with gamma_{i+2} = gamma_i for every i >= j. */
static unsigned genus_start(const sg_genus *x)
{
    unsigned j = x->len - 2;

    while (j > 0 && x->gamma[j - 1] == x->gamma[j + 1])
        j--;
    return j;
}

char *sg_genus_format(char *buf, size_t size, const sg_genus *x)
{
    unsigned j = genus_start(x), i, big = x->g > 9;
    size_t at;

    for (i = 0; i <= j + 1; i++)
        big |= x->gamma[i] > 9;
    at = (size_t)snprintf(buf, size, "%lu^%s", (unsigned long)x->g,
                          big ? "{" : "");
    for (i = 0; i <= j + 1 && at < size; i++)
        at += (size_t)snprintf(buf + at, size - at, big && i ? ",%lu" : "%lu",
                               (unsigned long)x->gamma[i]);
    if (big && at < size)
        snprintf(buf + at, size - at, "}");
    return buf;
}

int sg_genus_is_tame(const sg_genus *x)
{
    sg_value g = x->g;
    unsigned k;
    int fickle = g <= 1 && x->gamma[0] == (g ^ 1);

    for (k = 0; k < x->len; k++) {
        sg_value want = k % 2 ? g ^ 2 : g;
        if (k == 0 && fickle)
            continue;
        if (x->gamma[k] != want)
            return 0;
    }
    return 1;
}

/* Fickle: a tame genus 0^120 or 1^031 (behaves as a nim-heap 0 or 1). */
static int genus_fickle(const sg_genus *x)
{
    return x->g <= 1 && x->gamma[0] == (x->g ^ 1);
}

/* ------------------------------------------------------------------ */
/* Heaps                                                                */
/* ------------------------------------------------------------------ */

void sg_misere_init(sg_misere *m)
{
    memset(m, 0, sizeof *m);
    sg_seq_init(&m->normal);
}

void sg_misere_clear(sg_misere *m)
{
    sg_seq_clear(&m->normal);
    free(m->value);
    free(m->genus);
    m->value = NULL;
    m->genus = NULL;
    m->n = m->tame_to = m->positions = 0;
}

sg_status sgi_misere_refuse(const sg_rule *r, sg_error *err)
{
    if (r->tb && sgi_tb_max_heaps(r->tb) > 3)
        return sg_error_set(err, SG_E_INPUT, -1,
                            "misère play is not implemented for moves that "
                            "leave four or more heaps (digits from G on): "
                            "the misère searches hold options of at most "
                            "three heaps");
    return SG_OK;
}

sg_status sg_misere_analyse(sg_misere *m, const sg_rule *r, size_t n,
                            size_t budget, volatile sig_atomic_t *cancel,
                            sg_error *err)
{
    mis_ctx c;
    size_t h;
    sg_status st;

    sg_misere_clear(m);
    if ((st = sgi_misere_refuse(r, err)))
        return st;
    if (n > MIS_MAX_HEAP)
        return sg_error_set(err, SG_E_INPUT, -1,
                            "misère genus: at most %zu heaps", MIS_MAX_HEAP);
    if ((st = sg_enumerate(&m->normal, r, n + 1, NULL, err)))
        return st;
    if (!(m->value = calloc(n ? n : 1, sizeof *m->value)) ||
        !(m->genus = calloc(n ? n : 1, sizeof *m->genus)))
        return sg_error_set(err, SG_E_NOMEM, -1, "out of memory");
    memset(&c, 0, sizeof c);
    c.r = r;
    c.g = &m->normal;
    c.genus = 1;
    c.m.budget = budget;
    c.cancel = cancel;
    c.err = err;
    m->tame_to = SIZE_MAX;
    st = SG_OK;
    for (h = 0; h < n; h++) {
        uint32_t x = (uint32_t)h;
        size_t e = genus_of(&c, &x, h ? 1 : 0);
        const entry *en;
        sg_genus *gx = &m->genus[h];
        unsigned k;

        if (e == SIZE_MAX) {
            st = c.st;
            break;
        }
        en = &c.m.ent[e];
        gx->g = sg_seq_get(&m->normal, h);
        gx->len = en->vlen;
        for (k = 0; k < en->vlen; k++)
            gx->gamma[k] = c.m.vals[en->val + k];
        m->value[h] = gx->gamma[0];
        if (m->tame_to == SIZE_MAX && !sg_genus_is_tame(gx))
            m->tame_to = h;
        m->n = h + 1;
    }
    if (m->tame_to == SIZE_MAX || m->tame_to > m->n)
        m->tame_to = m->n;
    m->positions = c.m.nent;
    memo_clear(&c.m);
    return st;
}

/* ------------------------------------------------------------------ */
/* Positions                                                            */
/* ------------------------------------------------------------------ */

const char *sg_misere_method_name(sg_misere_method method)
{
    switch (method) {
    case SG_MISERE_TAME:
        return "tame";
    case SG_MISERE_QUOTIENT:
        return "quotient";
    case SG_MISERE_SEARCH:
        return "search";
    }
    return "?";
}

/* The tame rule (MISERE.md, Theorem 3): heaps all tame; 1 when the player
 * to move wins. */
static int tame_wins(const sg_misere *m, const uint32_t *x, size_t len)
{
    sg_value s = 0;
    int all_fickle = 1;
    size_t i;

    for (i = 0; i < len; i++) {
        s ^= m->genus[x[i]].g;
        all_fickle &= genus_fickle(&m->genus[x[i]]);
    }
    return all_fickle ? s != 1 : s != 0;
}

/* The winning-move walk: the first option that leaves a P position. */
typedef struct move_walk {
    mis_ctx *c;
    const sg_misere *m;
    int tame;
    const uint32_t *x;
    size_t len, i;
    int found; /* 1 found, -1 failure */
    sgi_option move;
} move_walk;

static int move_visit(void *ctx, const sgi_option *o)
{
    move_walk *w = ctx;
    size_t ylen;
    uint32_t *y = child_key(w->x, w->len, w->i, o, &ylen);
    int r;

    if (!y) {
        w->c->st = sg_error_set(w->c->err, SG_E_NOMEM, -1, "out of memory");
        w->found = -1;
        return 1;
    }
    r = w->tame ? tame_wins(w->m, y, ylen) : outcome(w->c, y, ylen);
    free(y);
    if (r < 0) {
        w->found = -1;
        return 1;
    }
    if (r == 0) {
        w->found = 1;
        w->move = *o;
        return 1;
    }
    return 0;
}

sg_status sg_misere_position_analyse(sg_misere_position *out, const sg_rule *r,
                                     const sg_misere *m, const size_t *heaps,
                                     size_t nheaps, size_t budget,
                                     volatile sig_atomic_t *cancel,
                                     sg_error *err)
{
    mis_ctx c;
    sg_seq g;
    uint32_t *x;
    size_t *index, len = 0, i, j, maxh = 0;
    int tame = 1, win;
    move_walk w;
    sg_status st = SG_OK;

    memset(out, 0, sizeof *out);
    out->move_heap = -1;
    if ((st = sgi_misere_refuse(r, err)))
        return st;
    for (i = 0; i < nheaps; i++) {
        if (heaps[i] > MIS_MAX_HEAP)
            return sg_error_set(err, SG_E_UNKNOWN, -1,
                                "too large: heap %zu is past what the "
                                "exact misère search reaches (%zu)",
                                heaps[i], MIS_MAX_HEAP);
        if (heaps[i] > maxh)
            maxh = heaps[i];
        if (heaps[i] >= m->tame_to)
            tame = 0;
    }
    x = malloc((nheaps ? nheaps : 1) * sizeof *x);
    index = malloc((nheaps ? nheaps : 1) * sizeof *index);
    if (!x || !index) {
        free(x);
        free(index);
        return sg_error_set(err, SG_E_NOMEM, -1, "out of memory");
    }
    /* sorted non-empty heaps, with the caller's index of each */
    for (i = 0; i < nheaps; i++) {
        if (!heaps[i])
            continue;
        for (j = len; j > 0 && x[j - 1] > heaps[i]; j--) {
            x[j] = x[j - 1];
            index[j] = index[j - 1];
        }
        x[j] = (uint32_t)heaps[i];
        index[j] = i;
        len++;
    }
    sg_seq_init(&g);
    memset(&c, 0, sizeof c);
    c.r = r;
    c.err = err;
    c.m.budget = budget;
    c.cancel = cancel;
    if (maxh < m->normal.n) {
        c.g = &m->normal;
    } else {
        /* the outcome search never reads a value: zeros will do, where
         * computing G up to a large heap of Nim would cost its square */
        if (!(g.data = calloc(maxh + 1, 1))) {
            st = sg_error_set(err, SG_E_NOMEM, -1, "out of memory");
            goto out;
        }
        g.width = 1;
        g.n = g.alloc = maxh + 1;
        c.g = &g;
    }
    out->method = tame ? SG_MISERE_TAME : SG_MISERE_SEARCH;
    win = tame ? tame_wins(m, x, len) : outcome(&c, x, len);
    if (win < 0) {
        st = c.st;
        goto out;
    }
    out->first_wins = win;
    if (win && len) {
        memset(&w, 0, sizeof w);
        w.c = &c;
        w.m = m;
        w.tame = tame;
        w.x = x;
        w.len = len;
        for (i = 0; i < len && !w.found; i++) {
            if (i && x[i] == x[i - 1])
                continue;
            w.i = i;
            sgi_moves_heap(r, c.g, x[i], move_visit, &w);
        }
        if (w.found < 0) {
            st = c.st;
            goto out;
        }
        if (w.found) {
            out->move_heap = (long)index[w.i];
            out->take = w.move.take;
            out->nparts = w.move.nparts;
            for (j = 0; j < (size_t)w.move.nparts; j++)
                out->part[j] = w.move.part[j];
        }
    }
out:
    memo_clear(&c.m);
    sg_seq_clear(&g);
    free(x);
    free(index);
    return st;
}

/* ------------------------------------------------------------------ */
/* The search for other modules (misere_impl.h)                         */
/* ------------------------------------------------------------------ */

struct sgi_mis_search {
    mis_ctx c;
};

sgi_mis_search *sgi_mis_search_new(const sg_rule *r, const sg_seq *g,
                                   size_t budget, sgi_mis_known_fn known,
                                   void *known_arg,
                                   volatile sig_atomic_t *cancel, sg_error *err)
{
    sgi_mis_search *s = calloc(1, sizeof *s);

    if (!s)
        return NULL;
    s->c.r = r;
    s->c.g = g;
    s->c.m.budget = budget;
    s->c.err = err;
    s->c.known = known;
    s->c.known_arg = known_arg;
    s->c.cancel = cancel;
    s->c.ndead = g->n;
    if (!(s->c.dead = malloc(g->n ? g->n : 1))) {
        free(s);
        return NULL;
    }
    memset(s->c.dead, -1, g->n);
    return s;
}

int sgi_mis_search_outcome(sgi_mis_search *s, const uint32_t *x, size_t len)
{
    return outcome(&s->c, x, len);
}

size_t sgi_mis_search_positions(const sgi_mis_search *s)
{
    return s->c.m.nent;
}

sg_status sgi_mis_search_status(const sgi_mis_search *s)
{
    return s->c.st;
}

void sgi_mis_search_free(sgi_mis_search *s)
{
    if (!s)
        return;
    memo_clear(&s->c.m);
    free(s->c.dead);
    free(s);
}
