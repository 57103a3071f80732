/*
 * store_checkpoint.c - the deep runs' checkpoints in the SQLite cache:
 * one opaque state per rule, with its hash, in the optional table
 * `checkpoints` (store.c explains why it is optional), replaced in one
 * transaction so that a run killed while saving keeps the old one.
 */
#define _DEFAULT_SOURCE
#include "store_impl.h"

#include <stdlib.h>
#include <string.h>

/* The deep runs' checkpoints, one row per rule.  An optional table of
 * version 1, made by the first sg_store_checkpoint_put inside its own
 * transaction, not with the schema: nothing refers to it and check_file
 * asks only for 'rules' and 'chunks', so older sgexplore versions open a
 * file that has it (and ignore it), and this one reads a file without it
 * as one without checkpoints.  Changing its columns would need a new
 * version like any other change. */
static const char checkpoints_table[] =
    "CREATE TABLE IF NOT EXISTS checkpoints ("
    " rule TEXT PRIMARY KEY,"
    " heaps INTEGER NOT NULL,"
    " state BLOB NOT NULL,"
    " hash TEXT NOT NULL,"
    " stored TEXT NOT NULL,"
    " version TEXT NOT NULL)";

/* ------------------------------------------------------------------ */
/* Deep-run checkpoints                                                 */
/* ------------------------------------------------------------------ */

/* Whether the file has the (optional) checkpoints table; returns the
 * SQLite code. */
sg_status sg_store_checkpoint_put(sg_store *st, const char *rule,
                                  uint64_t heaps, const void *blob, size_t len,
                                  sg_error *err)
{
    sqlite3_stmt *q = NULL;
    char now[24], hash[SG_FNV_TEXT];
    int rc;
    sg_status r;

    /* SQLite's integers are signed: a larger count would read back
     * negative. */
    if (heaps > INT64_MAX)
        return sg_error_set(err, SG_E_INPUT, -1,
                            "cannot store the checkpoint of %s: %llu heaps "
                            "do not fit in the cache",
                            rule, (unsigned long long)heaps);
    sgi_store_now(now);
    sgi_store_hash(hash, blob, len);
    if ((r = sgi_store_write_begin(st, err)))
        return r;
    rc = sgi_store_exec(st->db, checkpoints_table);
    if (rc == SQLITE_OK)
        rc = sqlite3_prepare_v2(st->db,
                                "INSERT OR REPLACE INTO checkpoints (rule,"
                                " heaps, state, hash, stored, version)"
                                " VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                                -1, &q, NULL);
    if (rc == SQLITE_OK) {
        BIND(sqlite3_bind_text(q, 1, rule, -1, SQLITE_STATIC));
        BIND(sqlite3_bind_int64(q, 2, (sqlite3_int64)heaps));
        /* A NULL pointer would bind SQL NULL: an empty state is the
         * empty blob. */
        BIND(len ? sqlite3_bind_blob64(q, 3, blob, len, SQLITE_STATIC)
                 : sqlite3_bind_zeroblob(q, 3, 0));
        BIND(sqlite3_bind_text(q, 4, hash, -1, SQLITE_STATIC));
        BIND(sqlite3_bind_text(q, 5, now, -1, SQLITE_STATIC));
        BIND(sqlite3_bind_text(q, 6, PACKAGE_VERSION, -1, SQLITE_STATIC));
        if (rc == SQLITE_OK) {
            rc = sqlite3_step(q);
            rc = rc == SQLITE_DONE ? SQLITE_OK : rc;
        }
        sqlite3_finalize(q);
    }
    return sgi_store_write_end(st, rc, "storing a checkpoint", err);
}

/* Copy the checkpoint row selected by sg_store_checkpoint_get (rule,
 * heaps, state, hash) into malloc'd memory after checking its hash. */
static sg_status read_checkpoint(sg_store *st, sqlite3_stmt *q,
                                 const char *rule, uint64_t *heaps, void **blob,
                                 size_t *len, sg_error *err)
{
    /* The types first: reading a column may convert it. */
    int has_key = sqlite3_column_type(q, 0) != SQLITE_NULL;
    int is_int = sqlite3_column_type(q, 1) == SQLITE_INTEGER;
    int is_blob = sqlite3_column_type(q, 2) == SQLITE_BLOB;
    int has_hash = sqlite3_column_type(q, 3) != SQLITE_NULL;
    const char *key = (const char *)sqlite3_column_text(q, 0);
    sqlite3_int64 h = sqlite3_column_int64(q, 1);
    const void *p = sqlite3_column_blob(q, 2);
    size_t n = (size_t)sqlite3_column_bytes(q, 2);
    const char *hash = (const char *)sqlite3_column_text(q, 3);
    char want[SG_FNV_TEXT] = "", quoted[SGI_STORE_QUOTE];

    /* NULL for a value that is there: SQLite ran out of memory. */
    if ((!p && n > 0) || (!hash && has_hash) || (!key && has_key))
        return sg_error_set(err, SG_E_NOMEM, -1,
                            "out of memory while reading the checkpoint of "
                            "%s from cache %s",
                            rule, st->path);
    if (is_blob)
        sgi_store_hash(want, p, n);
    /* The key is checked too: a damaged index can point the lookup at
     * another rule's row, whose hash is right. */
    if (!key || strcmp(key, rule) != 0 || !is_int || h < 0 || !is_blob ||
        !hash || strcmp(want, hash) != 0)
        return sg_error_set(err, SG_E_IO, -1,
                            "cache %s: the deep-run checkpoint of %s is "
                            "damaged; drop it with `sgexplore cache drop "
                            "'%s'`",
                            st->path, sgi_store_quote(quoted, rule), quoted);
    /* One byte at least, so that an empty state is a pointer too. */
    if (!(*blob = malloc(n ? n : 1)))
        return sg_error_set(err, SG_E_NOMEM, -1,
                            "out of memory for the checkpoint of %s (%zu "
                            "bytes) from cache %s",
                            rule, n, st->path);
    if (n)
        memcpy(*blob, p, n);
    *len = n;
    *heaps = (uint64_t)h;
    return SG_OK;
}

/* Begin the read transaction of a checkpoint lookup or listing: whether
 * the table exists (*have) and, when it does, `sql` prepared in *q.  A
 * SQLite status; the caller rolls back and finalizes either way. */
static int checkpoint_read(sg_store *st, int *have, sqlite3_stmt **q,
                           const char *sql)
{
    int rc = sgi_store_read_begin(st);

    if (rc == SQLITE_OK)
        rc = sgi_store_has_checkpoints(st->db, have);
    if (rc == SQLITE_OK && *have)
        rc = sqlite3_prepare_v2(st->db, sql, -1, q, NULL);
    return rc;
}

sg_status sg_store_checkpoint_get(sg_store *st, const char *rule,
                                  uint64_t *heaps, void **blob, size_t *len,
                                  sg_error *err)
{
    sqlite3_stmt *q = NULL;
    int rc, have = 0;
    sg_status r = SG_OK;

    *heaps = 0;
    *blob = NULL;
    *len = 0;
    if (!st->db)
        goto none;
    /* One read transaction: the table and the row from one snapshot. */
    rc = checkpoint_read(st, &have, &q,
                         st->schema < 2 ? "SELECT " V1_RULE
                                          ", heaps, state, hash FROM"
                                          " checkpoints WHERE " V1_RULE " = ?1"
                                        : "SELECT rule, heaps, state, hash FROM"
                                          " checkpoints WHERE rule = ?1");
    if (rc == SQLITE_OK && have) {
        sqlite3_bind_text(q, 1, rule, -1, SQLITE_STATIC);
        rc = sqlite3_step(q);
        if (rc == SQLITE_ROW) {
            /* Fills the outputs only when it succeeds. */
            r = read_checkpoint(st, q, rule, heaps, blob, len, err);
            rc = SQLITE_OK;
        } else if (rc == SQLITE_DONE) {
            have = 0;
            rc = SQLITE_OK;
        }
    }
    if (rc != SQLITE_OK)
        r = sgi_store_db_error(err, st, rc, "looking a checkpoint up");
    sqlite3_finalize(q);
    sgi_store_read_end(st);
    if (r || have)
        return r;
none:
    return sg_error_set(err, SG_E_UNKNOWN, -1,
                        "cache %s holds no deep-run checkpoint of %s", st->path,
                        rule);
}

sg_status sg_store_checkpoint_list(sg_store *st,
                                   int (*visit)(const char *rule,
                                                uint64_t heaps,
                                                const char *stored, void *arg),
                                   void *arg, sg_error *err)
{
    sqlite3_stmt *q = NULL;
    int rc, have = 0;

    if (!st->db)
        return SG_OK;
    rc = checkpoint_read(st, &have, &q,
                         st->schema < 2
                             ? "SELECT " V1_RULE " AS r, heaps, stored FROM"
                               " checkpoints ORDER BY r"
                             : "SELECT rule, heaps, stored FROM checkpoints"
                               " ORDER BY rule");
    while (rc == SQLITE_OK && have) {
        const char *rule, *stored;
        rc = sqlite3_step(q);
        if (rc != SQLITE_ROW)
            break;
        rule = (const char *)sqlite3_column_text(q, 0);
        stored = (const char *)sqlite3_column_text(q, 2);
        rc = SQLITE_OK;
        if (rule && visit(rule, (uint64_t)sqlite3_column_int64(q, 1),
                          stored ? stored : "", arg))
            break;
    }
    if (rc == SQLITE_DONE)
        rc = SQLITE_OK;
    sqlite3_finalize(q);
    sgi_store_read_end(st);
    return rc == SQLITE_OK
               ? SG_OK
               : sgi_store_db_error(err, st, rc, "listing the checkpoints");
}

sg_status sg_store_checkpoint_drop(sg_store *st, const char *rule, int *found,
                                   sg_error *err)
{
    int rc, have = 0;
    sg_status r;

    *found = 0;
    if (!st->db)
        return SG_OK;
    if ((r = sgi_store_write_begin(st, err)))
        return r;
    rc = sgi_store_has_checkpoints(st->db, &have);
    if (rc == SQLITE_OK && have)
        rc = sgi_store_run_rule(
            st->db, "DELETE FROM checkpoints WHERE rule = ?1", rule, found);
    if ((r = sgi_store_write_end(st, rc, "dropping a checkpoint", err)))
        *found = 0;
    return r;
}
