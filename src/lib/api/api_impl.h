/*
 * api_impl.h - what the files of the installed API (api_game.c, api_flow.c,
 * api_misere.c) share: the handles' layouts, the per-thread error message
 * and the cached analysis.  Never installed: outside the library the
 * handles are opaque (sgexplore_api.h).
 */
#ifndef SG_API_IMPL_H
#define SG_API_IMPL_H

#include "sgexplore.h"
#include "api/sgexplore_api.h"
#include "internal.h"

/* An open cache. */
struct sg_cache {
    sg_store *st;
};

/* A rule, its values and its result (sgexplore_api.h). */
struct sg_game {
    char *canon;        /* canonical text, the cache's key */
    const char *family; /* sg_rule_family, or "moves" */
    int has_rule;       /* 0: a game given by a function */
    sg_rule rule;
    /* a game given by a function: the callback, its buffer, the marks of
     * the mex */
    sg_moves_fn fn;
    void *fn_ctx;
    uint64_t *buf;
    size_t cap;
    uint64_t *mark;
    size_t mark_cap;
    /* values and result */
    sg_seq seq;
    sg_result res;
    sg_flow_row row; /* the cached row read (a proven result's texts
                        point into it), as the program's flow keeps it */
    char *cert;      /* certificate text of a proven result */
    /* settings */
    uint64_t max;
    double seconds;
    unsigned threads;
    volatile sig_atomic_t *cancel;
    sg_game_progress_fn progress;
    void *progress_ctx;
    sg_cache *cache;
    /* the run under way: its own stop flag (a spent --seconds is 2) */
    volatile sig_atomic_t stop;
    double deadline;
    /* the last run */
    const char *source;  /* "computed", "cache", "extended" */
    const char *stopped; /* "proven", "time", "max", "memory",
                            "interrupted", or NULL */
    double elapsed;      /* seconds of computing not yet stored */
    /* misère play */
    sg_misere mis;
    sg_mquot quot;
    char *quot_text;
};

/* The answer to a position. */
struct sg_answer {
    int first_wins;
    const char *method;
    size_t n;
    char **values; /* n texts, or NULL (misère) */
    char *nim_sum;
    long move_heap;
    char *take;
    size_t nleft;
    char **left;
};

/* Record err's message (or a formatted one) as this thread's last error
 * and return its status. */
sg_status sgi_api_fail(const sg_error *err);
sg_status sgi_api_failf(sg_status st, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Seconds of a monotonic clock. */
double sgi_api_now(void);

/* The certificate text of g's result, refreshed (NULL when unresolved). */
sg_status sgi_api_refresh(sg_game *g);

/* The options of one enumeration of g (cancel, progress, threads). */
sg_enum_options sgi_api_options(sg_game *g);

/* Whether a stopped run was stopped by the --seconds budget rather than
 * by the caller's flag. */
int sgi_api_time_spent(const sg_game *g);

/* G(0..n-1) of a game given by a function, extending g->seq. */
sg_status sgi_api_moves_enumerate(sg_game *g, size_t n, sg_error *err);

/* The winning move of a game given by a function: an option of heap h
 * (h < g->seq.n) of value `target`; *found 0 when none.  The option's
 * heaps (malloc'd) in *left, *nleft of them. */
sg_status sgi_api_moves_find(sg_game *g, uint64_t h, uint64_t target,
                             uint64_t **left, size_t *nleft, int *found,
                             sg_error *err);

/* The cached analysis: look up, analyse (or extend to n values when
 * n > 0), store. */
sg_status sgi_api_flow_run(sg_game *g, uint64_t n);
sg_status sgi_api_flow_lookup(sg_game *g, sg_store *st, int *found,
                              sg_error *err);
sg_status sgi_api_flow_store(sg_game *g, sg_store *st, sg_error *err);

#endif /* SG_API_IMPL_H */
