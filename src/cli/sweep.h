/*
 * sweep.h - what the two files of `sgexplore sweep` share: cmd_sweep.c
 * (the rules, the workers and the command) and sweep_print.c (its rows,
 * progress line, summary and plot).  Internal to the sweep command.
 */
#ifndef SGEXPLORE_SWEEP_H
#define SGEXPLORE_SWEEP_H

#include <time.h>

#include "cli.h"

/* Rules named in the summary's lists (slowest, unresolved). */
#define SWEEP_SLOWEST 5
#define SWEEP_LIST 20

typedef enum { FMT_TABLE, FMT_CSV, FMT_JSON } sweep_format;

/* Most rounds of --escalate. */
#define SWEEP_ROUNDS_MAX 6

/* One budget a rule got (one round of --escalate, or the only one) and
 * what the run did with it. */
typedef struct sweep_budget {
    uint64_t max;      /* values at most */
    double seconds;    /* 0: no time budget */
    uint64_t from;     /* values taken from the cache */
    uint64_t computed; /* values known at the end */
    char max_is[8];    /* "given", "default" or "memory" */
    char stopped[8];   /* "proven", "time", "max" or "memory" */
    char source[12];   /* "computed", "cache" or "extended" */
} sweep_budget;

/* A rule's misère results (--misere), as the row shows them. */
typedef struct sweep_misere {
    int on;                    /* computed */
    int quotient;              /* with --quotient */
    uint64_t heaps;            /* the genus of heaps 0..heaps-1 */
    uint64_t tame_to;          /* heaps below it are tame */
    uint64_t q_heaps, q_order; /* the last quotient proven, of 1..q_heaps */
    uint64_t q_stopped_at;     /* the heap a limit stopped, or 0 */
} sweep_misere;

/* One round of the sweep: the budget every rule of it got. */
typedef struct sweep_round {
    uint64_t max;         /* --max, scaled; 0: default or none */
    double seconds;       /* --seconds, scaled; 0: none */
    uint64_t div;         /* the final budget divided by this */
    size_t rules, proven; /* rules run, rules proven in it */
} sweep_round;

/* One distinct rule (canonical form) and the texts that named it. */
typedef struct item {
    char *canon;
    char *form; /* the first sg_rule.given among its texts, parsed by the
                   worker instead of canon so that its row keeps it */
    char **given;
    size_t ngiven, capgiven;
    /* the result, once its row has come back */
    int done, failed;
    sg_period_status status;
    uint64_t preperiod, period, saltus, computed;
    double seconds;
    char source[12];
    uint64_t digest, digest_len;            /* FNV-1a of G(0..digest_len-1) */
    sweep_budget budgets[SWEEP_ROUNDS_MAX]; /* one per round it ran */
    unsigned nbudgets;
    sweep_misere mis; /* --misere */
    int again;        /* unresolved within a budget the next round raises */
    char *json;       /* the row of a rule that waits for the next round */
    size_t json_len;
} item;

typedef struct sweep {
    item *items;
    size_t n, cap;
    uint64_t family_total; /* rules in the whole family (before --shard) */
    uint64_t listed;       /* rules of this shard, duplicates included */
    unsigned shard_k, shard_n;
    sweep_format fmt;
    uint64_t max;
    double seconds;
    long jobs;
    unsigned rounds, round; /* --escalate R (1: none); the current one */
    sweep_round round_info[SWEEP_ROUNDS_MAX];
    size_t *todo, ntodo;  /* the rules of the current round */
    unsigned shares;      /* workers of the round, sharing the memory */
    int misere, quotient; /* --misere, --quotient */
    size_t mis_heaps;     /* --misere-max */
    size_t max_order;     /* --max-order */
    size_t *slots;        /* hash table of canonical forms: item index + 1 */
    size_t nslots;        /* a power of two, at least twice n */
} sweep;

/* Seconds on the monotonic clock. */
static inline double now(void)
{
    struct timespec t;

    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* The table or csv header (nothing for json). */
void sweep_print_header(const sweep *s);

/* One finished rule's row; `json` is its record as a worker wrote it. */
void sweep_print_row(const sweep *s, const item *it, const char *json,
                     size_t json_len);

/* The progress line on a terminal (rules done of total): whether it is
 * shown, when the sweep's clock starts, each update and its end. */
void sweep_progress_enable(int on);
void sweep_progress_start(void);
void sweep_progress(size_t done, size_t total, int force);
void sweep_progress_clear(void);

/* The summary after the rows. */
void sweep_print_summary(const sweep *s, double wall, int interrupted);

/* --plot FILE: periods and pre-periods of the finished rules. */
int sweep_draw(const sweep *s, const char *path, const char *family);

#endif
