/*
 * flow.c - the steps of the cached analysis that the program's flow
 * (src/cli/flow.c) and the installed API (api_flow.c) share: the rule
 * looked up, where a result came from, whether it is news, its row
 * stored, and a run stopped by its budget settled into a result
 * (sgexplore.h, "The cached analysis").
 */
#include "sgexplore.h"
#include "internal.h"

#include <string.h>

void sg_flow_row_init(sg_flow_row *row)
{
    memset(row, 0, sizeof *row);
    sg_store_entry_init(&row->entry);
}

void sg_flow_row_clear(sg_flow_row *row)
{
    sg_store_entry_clear(&row->entry);
    memset(row, 0, sizeof *row);
}

sg_status sg_flow_lookup(sg_flow_row *row, sg_result *res, sg_seq *s,
                         int *proven, sg_store *db, const char *key,
                         sg_error *err)
{
    sg_store_entry e;
    sg_seq tmp;
    sg_status st;
    int found = 0;

    sg_store_entry_init(&e);
    sg_seq_init(&tmp);
    if ((st = sg_store_get(db, key, &e, &tmp, &found, err)) || !found) {
        sg_store_entry_clear(&e);
        sg_seq_clear(&tmp);
        row->found = 0;
        return st;
    }
    sg_store_entry_clear(&row->entry);
    row->entry = e;
    row->found = 1;
    row->loaded_status = e.res.status;
    if (e.res.status != SG_UNRESOLVED || tmp.n > s->n) {
        sg_seq_clear(s);
        *s = tmp;
    } else {
        sg_seq_clear(&tmp);
    }
    row->loaded = s->n;
    if (e.res.status != SG_UNRESOLVED) {
        *proven = 1;
        *res = row->entry.res;
        res->computed = s->n;
    }
    return SG_OK;
}

const char *sg_flow_source(const sg_flow_row *row, const sg_seq *s)
{
    if (!row->found)
        return "computed";
    return s->n > row->loaded ? "extended" : "cache";
}

int sg_flow_news(const sg_flow_row *row, const sg_result *res, const sg_seq *s)
{
    return !row->found || s->n > row->loaded ||
           res->status != row->loaded_status;
}

sg_status sg_flow_store(const sg_flow_row *row, sg_store *db, const char *key,
                        const char *family, const sg_result *res,
                        const sg_seq *s, const char *algorithm, double elapsed,
                        sg_error *err)
{
    const char *why;

    if (sg_store_readonly(db, &why))
        return sg_error_set(err, SG_E_IO, -1, "%s", why);
    if (row->found)
        elapsed += row->entry.elapsed;
    return sg_store_put(db, key, family, res, s, algorithm, elapsed, err);
}

void sg_flow_given(const sg_flow_row *row, sg_store *db, const char *key,
                   const char *given)
{
    sg_error err;

    if (!db || !given || (row->found && row->entry.given) ||
        sg_store_readonly(db, NULL))
        return;
    (void)sg_store_given(db, key, given, &err);
}

sg_status sg_flow_settle(sg_result *res, const sg_rule *r, const sg_seq *s,
                         sg_error *err)
{
    sg_status st = r ? sg_prove(res, r, s) : sgi_prove_observe(res, s);

    res->computed = s->n;
    if (st)
        return sg_error_set(err, SG_E_NOMEM, -1,
                            "out of memory while proving the period");
    return SG_OK;
}
