/*
 * cli_store.h - how the analysis command uses the cache: find the cache
 * file, look the rule up before computing, store what was computed after
 * (or when interrupted), and say where the answer came from.  Kept apart
 * from cli_analyse.c so that the analysis itself changes by a few lines.
 */
#ifndef SGEXPLORE_CLI_STORE_H
#define SGEXPLORE_CLI_STORE_H

#include <time.h>

#include "cli.h"

typedef struct cli_cache {
    sg_store *db;         /* NULL with --no-cache or without a location */
    sg_store_entry entry; /* what the cache held for the rule */
    int found;            /* the rule was cached */
    int proven;           /* ... with a proven result: nothing to compute */
    size_t loaded;        /* values taken from the cache */
    sg_period_status loaded_status;
    struct timespec t0; /* when computing started */
} cli_cache;

void cli_cache_init(cli_cache *c);
void cli_cache_clear(cli_cache *c);

/* The cache path the options and environment select (--db, then
 * $SGEXPLORE_DB, $XDG_CACHE_HOME, $HOME).  malloc'd; NULL when none. */
char *cli_cache_path(const char *db_opt);

/* Open the cache (unless no_cache) and look `canon` up.  A cached prefix is
 * put in seq; a proven entry also fills res, and c->proven says that
 * nothing needs computing.  Returns an exit status: non-zero (after one
 * error line) for a corrupt or foreign cache file. */
int cli_cache_begin(cli_cache *c, const char *db_opt, int no_cache,
                    const char *canon, sg_result *res, sg_seq *seq);

/* Where the values came from: "cache", "extended" or "computed". */
const char *cli_cache_source(const cli_cache *c, const sg_seq *seq);

/* After the analysis ended with status st (err filled when st != SG_OK):
 * store what is known.  When interrupted, the computed prefix is stored
 * and one line says so; other failures are reported as `what: message`.
 * A read-only cache gives one warning.  Returns the exit status to use
 * (0 when all went well). */
int cli_cache_end(cli_cache *c, const sg_rule *r, const char *canon,
                  const sg_result *res, const sg_seq *seq, sg_status st,
                  const char *what, const sg_error *err);

#endif
