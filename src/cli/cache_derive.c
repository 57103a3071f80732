/*
 * cache_derive.c - `sgexplore cache derive RULE PARENT [--from FILE]
 * [--max N]`: RULE's values read off PARENT's cached ones as far as
 * docs/THEORY.md's "Values from a subgame" lets them (sg_derive_agree),
 * stored as RULE's row with RULE's own proof search run on them, so that
 * a run of RULE afterwards extends from there.  The census's rounds
 * compute one parent for dozens of four-digit codes this way.
 */
#define _DEFAULT_SOURCE
#include "cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Wall seconds: the row's elapsed time, as the analysis records it. */
static double wall_now(void)
{
    struct timespec t;

    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* A proven parent's values continued through its period to max (its
 * theorem makes them true for every heap), so that a child of Kayles
 * derives as far as it asks. */
static sg_status continue_periodic(sg_seq *pv, const sg_result *res,
                                   uint64_t max, sg_error *err)
{
    uint64_t p = res->period, from = res->preperiod + res->period;
    sg_status st = SG_OK;

    if (res->status == SG_UNRESOLVED || max == UINT64_MAX || max <= pv->n ||
        p == 0 || pv->n < from)
        return SG_OK;
    if ((st = sg_seq_check_size((size_t)max, err)) ||
        (st = sg_seq_reserve(pv, (size_t)max, err)))
        return st;
    while (!st && pv->n < max) {
        uint64_t v = (uint64_t)sg_seq_get(pv, pv->n - p) + res->saltus;
        if (v > UINT32_MAX)
            return sg_error_set(err, SG_E_INPUT, -1,
                                "the parent's values pass 2^32 before "
                                "heap %llu",
                                (unsigned long long)max);
        st = sg_seq_append(pv, (sg_value)v, err);
    }
    return st;
}

/* The parent's values from its cache, up to max when it is proven; an
 * exit status after one line. */
static int parent_values(sg_seq *pv, const cli_args *a, sg_store *db,
                         const char *path, const char *key, uint64_t max)
{
    const char *from = cli_get(a, "--from");
    sg_store *pdb = db;
    sg_store_entry e;
    sg_error err;
    int found = 0, rc = EXIT_DONE;

    if (from && sg_store_open(&pdb, from, SG_STORE_READONLY, &err))
        return cli_report(NULL, NULL, &err);
    sg_store_entry_init(&e);
    if (sg_store_get(pdb, key, &e, pv, &found, &err) ||
        (found && continue_periodic(pv, &e.res, max, &err)))
        rc = cli_report(NULL, NULL, &err);
    else if (!found || pv->n == 0) {
        cli_error("cache derive: no values of '%s' in %s", cli_quote(key),
                  cli_quote(from ? from : path));
        rc = EXIT_RUNTIME;
    }
    sg_store_entry_clear(&e);
    if (pdb != db)
        sg_store_close(pdb);
    return rc;
}

/* G(0..n-1) of pv as a sequence of its own. */
static sg_status seq_prefix(sg_seq *out, const sg_seq *pv, size_t n,
                            sg_error *err)
{
    sg_status st = sg_seq_reserve(out, n, err);
    size_t i;

    for (i = 0; !st && i < n; i++)
        st = sg_seq_append(out, sg_seq_get(pv, i), err);
    return st;
}

static void derive_print(const cli_args *a, const char *rule,
                         const char *parent, size_t pn, size_t agree,
                         int differs, const sg_result *res, int stored)
{
    cli_rec rec;

    cli_rec_begin(&rec, stdout, cli_json(a));
    cli_rec_str(&rec, "rule", rule);
    cli_rec_str(&rec, "parent", parent);
    cli_rec_uint(&rec, "parent_values", pn);
    cli_rec_uint(&rec, "agree", agree);
    cli_rec_uint_or_null(&rec, "first_difference", differs, agree);
    cli_rec_str(&rec, "status", sg_period_status_name(res->status));
    cli_rec_uint(&rec, "computed", res->computed);
    cli_rec_bool(&rec, "stored", stored);
    cli_rec_textf(&rec, "%s: G(0..%zu) from %s's %zu values", rule,
                  agree ? agree - 1 : 0, parent, pn);
    if (differs)
        cli_rec_textf(&rec, "; they differ first at heap %zu", agree);
    cli_rec_textf(&rec, "; %s, %s\n", sg_period_status_name(res->status),
                  stored ? "stored" : "the cache knew as much");
    cli_rec_end(&rec);
}

int cli_cache_derive(const cli_args *a)
{
    const char *rt = cli_pos(a, 1), *pt = cli_pos(a, 2),
               *mt = cli_get(a, "--max");
    cli_rule r, p;
    sg_store *db = NULL;
    sg_seq pv, cs;
    sg_result res;
    sg_error err;
    sg_flow_row row;
    char *path = NULL;
    uint64_t max = UINT64_MAX;
    size_t agree = 0;
    double t0 = wall_now();
    int rc, proven = 0, stored = 0;

    if (!rt || !pt || cli_npos(a) > 3) {
        cli_error("cache derive: expected RULE PARENT");
        return EXIT_USAGE;
    }
    cli_rule_init(&r);
    cli_rule_init(&p);
    sg_seq_init(&pv);
    sg_seq_init(&cs);
    sg_flow_row_init(&row);
    memset(&res, 0, sizeof res);
    if ((rc = cli_rule_parse_text(&r, "cache derive", rt)) ||
        (rc = cli_rule_parse_text(&p, "cache derive", pt)) ||
        (mt && (rc = cli_parse_count(&max, "--max", mt))))
        goto out;
    /* the rules' relation first (on no values), before any file is read */
    if (sg_derive_agree(&r.rule, &p.rule, &pv, 0, &agree, &err)) {
        cli_error("cache derive: %s from %s: %s", cli_quote(r.canon),
                  cli_quote(p.canon), err.msg);
        rc = err.code == SG_E_INPUT ? EXIT_USAGE : EXIT_RUNTIME;
        goto out;
    }
    if ((rc = cli_cache_open(&db, &path, a, 0)) == EXIT_DONE && !db) {
        cli_error("cache derive: no cache to store into");
        rc = EXIT_RUNTIME;
    }
    if (rc || (rc = parent_values(&pv, a, db, path, p.canon, max)))
        goto out;
    if (sg_derive_agree(&r.rule, &p.rule, &pv,
                        max < SIZE_MAX ? (size_t)max : SIZE_MAX, &agree,
                        &err)) {
        cli_error("cache derive: %s from %s: %s", cli_quote(r.canon),
                  cli_quote(p.canon), err.msg);
        rc = err.code == SG_E_INPUT ? EXIT_USAGE : EXIT_RUNTIME;
        goto out;
    }
    if (seq_prefix(&cs, &pv, agree, &err) ||
        sg_flow_lookup(&row, &res, &cs, &proven, db, r.canon, &err)) {
        rc = cli_report(NULL, NULL, &err);
        goto out;
    }
    if (!proven && sg_prove(&res, &r.rule, &cs)) {
        cli_error("cache derive: out of memory while proving");
        rc = EXIT_RUNTIME;
        goto out;
    }
    res.computed = cs.n;
    if (sg_flow_news(&row, &res, &cs)) {
        size_t len = strlen(p.canon) + sizeof "derived from ";
        char *alg = malloc(len);
        if (alg)
            snprintf(alg, len, "derived from %s", p.canon);
        if (!alg || sg_flow_store(&row, db, r.canon, sg_rule_family(&r.rule),
                                  &res, &cs, alg, wall_now() - t0, &err)) {
            free(alg);
            rc = alg ? cli_report(NULL, NULL, &err) : EXIT_RUNTIME;
            goto out;
        }
        free(alg);
        stored = 1;
    }
    derive_print(a, r.canon, p.canon, pv.n, agree, agree < pv.n && agree < max,
                 &res, stored);
out:
    sg_flow_row_clear(&row);
    sg_seq_clear(&cs);
    sg_seq_clear(&pv);
    sg_store_close(db);
    free(path);
    cli_rule_clear(&r);
    cli_rule_clear(&p);
    return rc;
}
