/*
 * cli_store.c - the analysis command's side of the cache (see
 * cli_store.h): a proven cached rule is answered without computing, an
 * unresolved one is extended from where it stopped, and whatever was
 * computed, even when interrupted, is stored for the next run.
 */
#define _DEFAULT_SOURCE
#include "cli_store.h"

#include <stdlib.h>
#include <string.h>

void cli_cache_init(cli_cache *c)
{
    memset(c, 0, sizeof *c);
    sg_store_entry_init(&c->entry);
}

void cli_cache_clear(cli_cache *c)
{
    sg_store_close(c->db);
    sg_store_entry_clear(&c->entry);
    memset(c, 0, sizeof *c);
}

char *cli_cache_path(const char *db_opt)
{
    if (db_opt)
        return strdup(db_opt);
    return sg_store_default_path();
}

static double seconds_since(const struct timespec *t0)
{
    struct timespec t1;

    clock_gettime(CLOCK_MONOTONIC, &t1);
    return (double)(t1.tv_sec - t0->tv_sec) +
           (double)(t1.tv_nsec - t0->tv_nsec) / 1e9;
}

int cli_cache_begin(cli_cache *c, const char *db_opt, int no_cache,
                    const char *canon, sg_result *res, sg_seq *seq)
{
    sg_error err;
    char *path;

    clock_gettime(CLOCK_MONOTONIC, &c->t0);
    if (no_cache)
        return EXIT_DONE;
    path = cli_cache_path(db_opt);
    if (!path) {
        cli_error("warning: no cache location ($SGEXPLORE_DB, "
                  "$XDG_CACHE_HOME and $HOME are unset); nothing will be "
                  "stored");
        return EXIT_DONE;
    }
    if (sg_store_open(&c->db, path, 0, &err)) {
        free(path);
        return cli_report(NULL, NULL, &err);
    }
    free(path);
    if (sg_store_get(c->db, canon, &c->entry, seq, &c->found, &err))
        return cli_report(NULL, NULL, &err);
    if (c->found) {
        c->loaded = seq->n;
        c->loaded_status = c->entry.res.status;
        if (c->entry.res.status != SG_UNRESOLVED) {
            c->proven = 1;
            *res = c->entry.res;
            res->computed = seq->n;
        }
    }
    clock_gettime(CLOCK_MONOTONIC, &c->t0);
    return EXIT_DONE;
}

const char *cli_cache_source(const cli_cache *c, const sg_seq *seq)
{
    if (!c->found)
        return "computed";
    return seq->n > c->loaded ? "extended" : "cache";
}

/* Store; returns 0, or an exit status after printing why not.  A cache
 * that cannot be written gives one warning (and 0) instead. */
static int store(cli_cache *c, const sg_rule *r, const char *canon,
                 const sg_result *res, const sg_seq *seq, int quiet_ro)
{
    sg_error err;
    const char *why;
    double elapsed = seconds_since(&c->t0);

    if (c->found)
        elapsed += c->entry.elapsed;
    if (!sg_store_readonly(c->db, NULL) &&
        sg_store_put(c->db, canon, sg_rule_family(r), res, seq,
                     sg_enumerate_method(r), elapsed, &err) == SG_OK)
        return EXIT_DONE;
    if (sg_store_readonly(c->db, &why)) {
        if (!quiet_ro)
            cli_error("warning: %s; nothing was stored", why);
        return EXIT_DONE;
    }
    cli_error("%s", err.msg);
    return cli_status_exit(err.code);
}

int cli_cache_end(cli_cache *c, const sg_rule *r, const char *canon,
                  const sg_result *res, const sg_seq *seq, sg_status st,
                  const char *what, const sg_error *err)
{
    const char *why;

    if (st == SG_OK) {
        if (!c->db)
            return EXIT_DONE;
        if (c->found && seq->n <= c->loaded && res->status == c->loaded_status)
            return EXIT_DONE; /* nothing new to store */
        return store(c, r, canon, res, seq, 0);
    }
    if (st == SG_E_INTERRUPTED) {
        unsigned long long n = seq->n;
        if (!c->db) {
            cli_error("interrupted after %llu values (nothing stored: no "
                      "cache)",
                      n);
        } else if (seq->n == 0) {
            cli_error("interrupted before any value was computed");
        } else if (c->found && seq->n <= c->loaded) {
            cli_error("interrupted; the cache %s still holds the %llu "
                      "values of an earlier run",
                      sg_store_path(c->db), n);
        } else if (sg_store_readonly(c->db, &why)) {
            cli_error("interrupted after %llu values; nothing was stored "
                      "(%s)",
                      n, why);
        } else if (store(c, r, canon, res, seq, 1) == EXIT_DONE &&
                   !sg_store_readonly(c->db, NULL)) {
            cli_error("interrupted after %llu values; G(0..%llu) are stored "
                      "in %s and a rerun continues from there",
                      n, n ? n - 1 : 0, sg_store_path(c->db));
        } else {
            cli_error("interrupted after %llu values, which could not be "
                      "stored",
                      n);
        }
        return EXIT_RUNTIME;
    }
    /* Out of memory mid-way: keep what was computed, quietly. */
    if (st == SG_E_NOMEM && c->db && seq->n > c->loaded &&
        !sg_store_readonly(c->db, NULL))
        store(c, r, canon, res, seq, 1);
    return cli_report(what, NULL, err);
}
