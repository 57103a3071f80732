/*
 * api_flow.c - the cached analysis of the installed API: look the rule up
 * in the cache, analyse it or extend it within the budget (a count of
 * values, seconds, the caller's cancel flag), store what was computed
 * (also when interrupted).  Also the enumeration of games given by a
 * function of their options, whose every failure names the heap.
 */
#define _GNU_SOURCE
#include "api/api_impl.h"

#include <stdlib.h>
#include <string.h>

/* Entries a callback may ask for, and heaps an option may list. */
#define MOVES_MAX_LEN ((uint64_t)1 << 26)
#define MOVES_MAX_HEAPS ((uint64_t)1 << 20)
/* Values a game given by a function computes unless told otherwise. */
#define MOVES_DEFAULT_MAX 100000
/* Heaps between two polls of the cancel flag and the progress callback. */
#define MOVES_POLL 4096

/* The library's progress hook: the caller's callback, then its flag and
 * the deadline, either of which stops the run. */
static void on_progress(void *ctx, size_t done, size_t target, size_t rare)
{
    sg_game *g = ctx;

    (void)rare;
    if (g->progress)
        g->progress(g->progress_ctx, done, target);
    if (g->cancel && *g->cancel)
        g->stop = 1;
    else if (g->deadline > 0 && sgi_api_now() >= g->deadline)
        g->stop = 2;
}

sg_enum_options sgi_api_options(sg_game *g)
{
    sg_enum_options o;

    memset(&o, 0, sizeof o);
    /* Without a deadline the methods poll the caller's flag itself, at
     * once; with one, the hook raises g->stop from either. */
    o.cancel = g->cancel && g->deadline <= 0 ? g->cancel : &g->stop;
    if (g->cancel && *g->cancel)
        g->stop = 1;
    o.progress = on_progress;
    o.progress_ctx = g;
    o.threads = g->threads;
    return o;
}

int sgi_api_time_spent(const sg_game *g)
{
    return g->stop == 2 && !(g->cancel && *g->cancel);
}

/* ------------------------------------------------------------------ */
/* Games given by a function                                            */
/* ------------------------------------------------------------------ */

/* The options of heap h into g->buf: *len entries. */
static sg_status moves_list(sg_game *g, uint64_t h, size_t *len, sg_error *err)
{
    int64_t r;
    int tries;

    if (!g->buf) {
        if (!(g->buf = malloc(64 * sizeof *g->buf)))
            return sg_error_set(err, SG_E_NOMEM, -1, "out of memory");
        g->cap = 64;
    }
    for (tries = 0;; tries++) {
        r = g->fn(g->fn_ctx, h, g->buf, g->cap);
        if (r < 0)
            return sg_error_set(err, SG_E_INPUT, -1,
                                "%s: the moves function failed at heap %llu",
                                g->canon, (unsigned long long)h);
        if ((uint64_t)r <= g->cap)
            break;
        if ((uint64_t)r > MOVES_MAX_LEN || tries > 0)
            return sg_error_set(err, SG_E_INPUT, -1,
                                "%s: the moves function of heap %llu asks "
                                "for %lld entries (at most %llu, and once)",
                                g->canon, (unsigned long long)h, (long long)r,
                                (unsigned long long)MOVES_MAX_LEN);
        if (sg_grow(&g->buf, &g->cap, (size_t)r, sizeof *g->buf))
            return sg_error_set(err, SG_E_NOMEM, -1, "out of memory");
    }
    *len = (size_t)r;
    return SG_OK;
}

/* Check the options of heap h in g->buf[0..len-1] and call visit(ctx,
 * x, first, k) with each option's xor of values and its heaps. */
static sg_status moves_walk(sg_game *g, uint64_t h, size_t len,
                            int (*visit)(void *ctx, uint64_t x,
                                         const uint64_t *heaps, size_t k),
                            void *ctx, sg_error *err)
{
    size_t i = 0, j, nopt = 0;

    while (i < len) {
        uint64_t k = g->buf[i++], x = 0;
        nopt++;
        if (k > len - i || k > MOVES_MAX_HEAPS)
            return sg_error_set(err, SG_E_INPUT, -1,
                                "%s: option %zu of heap %llu lists %llu heaps, "
                                "past the %zu entries returned",
                                g->canon, nopt, (unsigned long long)h,
                                (unsigned long long)k, len);
        for (j = 0; j < k; j++) {
            uint64_t hh = g->buf[i + j];
            if (hh >= h)
                return sg_error_set(err, SG_E_INPUT, -1,
                                    "%s: an option of heap %llu lists heap "
                                    "%llu, not smaller than %llu",
                                    g->canon, (unsigned long long)h,
                                    (unsigned long long)hh,
                                    (unsigned long long)h);
            x ^= sg_seq_get(&g->seq, (size_t)hh);
        }
        if (visit(ctx, x, g->buf + i, (size_t)k))
            break;
        i += (size_t)k;
    }
    return SG_OK;
}

/* The mex's marks: value x is among heap h's options when mark[x] ==
 * h + 1 (x < mark_cap). */
static int mark_visit(void *ctx, uint64_t x, const uint64_t *heaps, size_t k)
{
    sg_game *g = ctx;

    (void)heaps;
    (void)k;
    if (x < g->mark_cap)
        g->mark[x] = g->seq.n + 1;
    return 0;
}

sg_status sgi_api_moves_enumerate(sg_game *g, size_t n, sg_error *err)
{
    sg_enum_options o = sgi_api_options(g);
    size_t h, start = g->seq.n, len, v;
    sg_status st;

    if (n > g->seq.n && (st = sg_seq_reserve(&g->seq, n, err)))
        return st;
    for (h = start; h < n; h++) {
        if ((h - start) % MOVES_POLL == 0) {
            if (h > start)
                on_progress(g, h, n, 0);
            if (*o.cancel)
                return sg_error_set(err, SG_E_INTERRUPTED, -1,
                                    "interrupted after %zu values", h);
        }
        if ((st = moves_list(g, h, &len, err)))
            return st;
        /* the mex is at most the count of options, itself at most len */
        if (len + 1 > g->mark_cap) {
            size_t old = g->mark_cap;
            if (sg_grow(&g->mark, &g->mark_cap, len + 1, sizeof *g->mark))
                return sg_error_set(err, SG_E_NOMEM, -1, "out of memory");
            memset(g->mark + old, 0, (g->mark_cap - old) * sizeof *g->mark);
        }
        if ((st = moves_walk(g, h, len, mark_visit, g, err)))
            return st;
        for (v = 0; g->mark[v] == h + 1; v++)
            ;
        if (v > UINT32_MAX - 1)
            return sg_error_set(err, SG_E_INPUT, -1, "value too large");
        if ((st = sg_seq_append(&g->seq, (sg_value)v, err)))
            return st;
    }
    return SG_OK;
}

/* The search of sgi_api_moves_find. */
typedef struct find_ctx {
    uint64_t target;
    uint64_t *left;
    size_t nleft;
    int found, nomem;
} find_ctx;

static int find_visit(void *ctx, uint64_t x, const uint64_t *heaps, size_t k)
{
    find_ctx *f = ctx;

    if (x != f->target)
        return 0;
    if (k && !(f->left = malloc(k * sizeof *f->left))) {
        f->nomem = 1;
        return 1;
    }
    if (k)
        memcpy(f->left, heaps, k * sizeof *heaps);
    f->nleft = k;
    f->found = 1;
    return 1;
}

sg_status sgi_api_moves_find(sg_game *g, uint64_t h, uint64_t target,
                             uint64_t **left, size_t *nleft, int *found,
                             sg_error *err)
{
    find_ctx f;
    size_t len;
    sg_status st;

    memset(&f, 0, sizeof f);
    f.target = target;
    *left = NULL;
    *nleft = 0;
    *found = 0;
    if (h >= g->seq.n)
        return sg_error_set(err, SG_E_UNKNOWN, -1, "heap %llu not computed",
                            (unsigned long long)h);
    if ((st = moves_list(g, h, &len, err)) ||
        (st = moves_walk(g, h, len, find_visit, &f, err))) {
        free(f.left);
        return st;
    }
    if (f.nomem)
        return sg_error_set(err, SG_E_NOMEM, -1, "out of memory");
    *left = f.left;
    *nleft = f.nleft;
    *found = f.found;
    return SG_OK;
}

/* ------------------------------------------------------------------ */
/* The cached analysis                                                  */
/* ------------------------------------------------------------------ */

/* The result of the values g holds now, without computing: proven as
 * far as they go (a rule) or observed (a function). */
static sg_status prove_now(sg_game *g, sg_error *err)
{
    return sg_flow_settle(&g->res, g->has_rule ? &g->rule : NULL, &g->seq, err);
}

sg_status sgi_api_flow_lookup(sg_game *g, sg_store *st, int *found,
                              sg_error *err)
{
    sg_status rc;
    int proven = 0;

    *found = 0;
    if ((rc = sg_flow_lookup(&g->row, &g->res, &g->seq, &proven, st, g->canon,
                             err)))
        return rc;
    if (!(*found = g->row.found))
        return SG_OK;
    g->elapsed = 0;
    /* an unresolved row: its observation, made from the values (the
     * cache keeps none) */
    return proven ? SG_OK : prove_now(g, err);
}

sg_status sgi_api_flow_store(sg_game *g, sg_store *st, sg_error *err)
{
    sg_status rc = sg_flow_store(&g->row, st, g->canon, g->family, &g->res,
                                 &g->seq, sg_game_method(g), g->elapsed, err);

    if (rc == SG_OK) {
        sg_flow_given(&g->row, st, g->canon, sg_game_given(g));
        /* what the row now holds, as if read back */
        g->row.entry.elapsed += g->elapsed;
        g->elapsed = 0;
        g->row.found = 1;
        g->row.loaded = g->seq.n;
        g->row.loaded_status = g->res.status;
    }
    return rc;
}

/* Why a finished run ended. */
static const char *stop_reason(const sg_game *g, sg_status st, int by_memory,
                               int memory_out)
{
    if (st == SG_E_INTERRUPTED)
        return "interrupted";
    if (g->res.status != SG_UNRESOLVED)
        return "proven";
    if (sgi_api_time_spent(g))
        return "time";
    if (memory_out || by_memory)
        return "memory";
    return "max";
}

/* Compute: an analysis (n = 0) or an extension to n values. */
static sg_status flow_compute(sg_game *g, uint64_t n, int *by_memory,
                              int *memory_out, sg_error *err)
{
    sg_enum_options o = sgi_api_options(g);
    sg_status st;
    size_t max;

    if (n == 0) {
        if (g->max)
            max = (size_t)g->max;
        else if (!g->has_rule)
            max = MOVES_DEFAULT_MAX;
        else if (g->seconds > 0)
            max = sg_time_max(&g->rule, 0, 1, by_memory);
        else
            max = sg_default_max(&g->rule);
        if (!g->has_rule) {
            if ((st = sgi_api_moves_enumerate(g, max, err)) == SG_OK)
                st = prove_now(g, err);
        } else {
            st = sg_analyse(&g->res, &g->seq, &g->rule, max, &o, err);
        }
    } else {
        if ((st = sg_seq_check_size((size_t)n, err)))
            return st;
        st = g->has_rule ? sg_enumerate(&g->seq, &g->rule, (size_t)n, &o, err)
                         : sgi_api_moves_enumerate(g, (size_t)n, err);
        g->res.computed = g->seq.n;
        if (st == SG_OK && !g->has_rule)
            st = prove_now(g, err);
    }
    if (st == SG_E_INTERRUPTED && sgi_api_time_spent(g))
        return prove_now(g, err); /* the budget's end is no error */
    if (st == SG_E_NOMEM && *by_memory && g->seq.n > 0 && n == 0) {
        *memory_out = 1;
        return prove_now(g, err);
    }
    if (st && st != SG_E_NOMEM && g->seq.n > 0) {
        /* interrupted, or a callback that failed: the result of the
         * values kept, whose error is the one reported */
        sg_error e2;
        prove_now(g, &e2);
    }
    return st;
}

sg_status sgi_api_flow_run(sg_game *g, uint64_t n)
{
    sg_store *db = g->cache ? g->cache->st : NULL;
    sg_error err, serr;
    sg_status st = SG_OK, sst = SG_OK;
    double t0 = sgi_api_now();
    int found = 0, by_memory = 0, memory_out = 0;

    g->stop = 0;
    g->deadline = g->seconds > 0 ? t0 + g->seconds : 0;
    if (db && n == 0 && (st = sgi_api_flow_lookup(g, db, &found, &err)))
        return sgi_api_fail(&err);
    if (g->res.status == SG_UNRESOLVED && (n == 0 || n > g->seq.n))
        st = flow_compute(g, n, &by_memory, &memory_out, &err);
    g->source = sg_flow_source(&g->row, &g->seq);
    g->stopped = stop_reason(g, st, by_memory, memory_out);
    g->elapsed += sgi_api_now() - t0;
    /* a cache that cannot be written is no error: nothing is stored */
    if (db && g->seq.n > 0 && !sg_store_readonly(db, NULL) &&
        sg_flow_news(&g->row, &g->res, &g->seq))
        sst = sgi_api_flow_store(g, db, &serr);
    if (sgi_api_refresh(g))
        return SG_E_NOMEM;
    if (st)
        return sgi_api_fail(&err);
    if (sst)
        return sgi_api_fail(&serr);
    return SG_OK;
}

sg_status sg_game_analyse(sg_game *g)
{
    return sgi_api_flow_run(g, 0);
}

sg_status sg_game_extend(sg_game *g, uint64_t n)
{
    if (n > SIZE_MAX / 2)
        return sgi_api_failf(SG_E_INPUT, "%llu values: too many",
                             (unsigned long long)n);
    if (n == 0 || n <= g->seq.n || g->res.status != SG_UNRESOLVED)
        return SG_OK;
    return sgi_api_flow_run(g, n);
}

/* ------------------------------------------------------------------ */
/* The cache                                                            */
/* ------------------------------------------------------------------ */

sg_status sg_cache_open(sg_cache **out, const char *path, unsigned flags)
{
    sg_cache *c;
    sg_error err;
    char *dflt = NULL;
    sg_status st;

    *out = NULL;
    if (!path && !(path = dflt = sg_store_default_path()))
        return sgi_api_failf(SG_E_IO, "no cache location: $SGEXPLORE_DB, "
                                      "$XDG_CACHE_HOME and $HOME are unset");
    if (!(c = calloc(1, sizeof *c))) {
        free(dflt);
        return sgi_api_failf(SG_E_NOMEM, "out of memory");
    }
    st = sg_store_open(&c->st, path,
                       flags & SG_CACHE_READONLY ? SG_STORE_READONLY : 0, &err);
    free(dflt);
    if (st) {
        free(c);
        return sgi_api_fail(&err);
    }
    *out = c;
    return SG_OK;
}

void sg_cache_close(sg_cache *c)
{
    if (!c)
        return;
    sg_store_close(c->st);
    free(c);
}

const char *sg_cache_path(const sg_cache *c)
{
    return sg_store_path(c->st);
}

sg_status sg_cache_lookup(sg_cache *c, sg_game *g, int *found)
{
    sg_error err;

    if (sgi_api_flow_lookup(g, c->st, found, &err))
        return sgi_api_fail(&err);
    if (*found) {
        g->source = "cache";
        g->stopped = NULL;
    }
    return sgi_api_refresh(g);
}

sg_status sg_cache_store(sg_cache *c, const sg_game *g)
{
    sg_error err;

    if (g->seq.n == 0)
        return sgi_api_failf(SG_E_INPUT, "%s: no values to store", g->canon);
    /* the shared step alone: g's own record of its row is not changed */
    if (sg_flow_store(&g->row, c->st, g->canon, g->family, &g->res, &g->seq,
                      sg_game_method(g), g->elapsed, &err))
        return sgi_api_fail(&err);
    sg_flow_given(&g->row, c->st, g->canon, sg_game_given(g));
    return SG_OK;
}

sg_status sg_cache_drop(sg_cache *c, const char *rule, int *found)
{
    sg_error err;

    if (sg_store_drop(c->st, rule, found, &err))
        return sgi_api_fail(&err);
    return SG_OK;
}
