/*
 * store_checkpoint.c - the deep runs' checkpoints in the SQLite cache:
 * one opaque state per rule, with its hash, in the optional table
 * `checkpoints` (store.c explains why it is optional), replaced in one
 * transaction so that a run killed while saving keeps the old one.  A
 * state larger than one SQLite value may be is split: its first part in
 * `checkpoints`, the others in the optional table `checkpoint_parts`.
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

/* The second and later parts of a split state (part 1, 2, ...), made by
 * the first put that splits one.  A split row's hash in `checkpoints` is
 * the whole state's, followed by "/N", its number of parts: a version
 * that does not split reads such a row as damaged (its hash does not
 * match the first part) and never takes a part for a whole state, and a
 * row it writes over a split one (hash without "/N") leaves stale parts
 * that nothing reads until the next split put of that rule removes
 * them. */
static const char parts_table[] =
    "CREATE TABLE IF NOT EXISTS checkpoint_parts ("
    " rule TEXT NOT NULL,"
    " part INTEGER NOT NULL,"
    " state BLOB NOT NULL,"
    " PRIMARY KEY (rule, part))";

/* The bytes of one part: SQLite keeps at most SQLITE_MAX_LENGTH bytes
 * (10^9 by default) in one value, and a deep run's window of 2^27
 * values is a state of 1.6 GB (docs/DEEP.md). */
#define PART_BYTES ((size_t)256 << 20)

/* The most parts a state may have (64 GiB): a damaged count must not
 * make a reader ask for more. */
#define MAX_PARTS 256

/* A checkpoint's hash text: SG_FNV_TEXT and "/N". */
#define HASH_TEXT (SG_FNV_TEXT + 12)

/* Whether the parts table exists; a SQLite status. */
static int has_parts(sqlite3 *db, int *yes)
{
    sqlite3_int64 n = 0;
    int rc = sgi_store_query_int(db,
                                 "SELECT count(*) FROM sqlite_master WHERE"
                                 " type = 'table' AND name ="
                                 " 'checkpoint_parts'",
                                 &n);

    *yes = rc == SQLITE_OK && n > 0;
    return rc;
}

/* Remove the parts of rule, when the table is there. */
static int drop_parts(sqlite3 *db, const char *rule)
{
    int have = 0, rc = has_parts(db, &have);

    if (rc == SQLITE_OK && have)
        rc = sgi_store_run_rule(
            db, "DELETE FROM checkpoint_parts WHERE rule = ?1", rule, NULL);
    return rc;
}

/* Insert part k (1, 2, ...) of rule's state. */
static int put_part(sqlite3 *db, const char *rule, size_t k, const void *p,
                    size_t n)
{
    sqlite3_stmt *q = NULL;
    int rc = sqlite3_prepare_v2(db,
                                "INSERT INTO checkpoint_parts (rule, part,"
                                " state) VALUES (?1, ?2, ?3)",
                                -1, &q, NULL);

    if (rc == SQLITE_OK) {
        BIND(sqlite3_bind_text(q, 1, rule, -1, SQLITE_STATIC));
        BIND(sqlite3_bind_int64(q, 2, (sqlite3_int64)k));
        BIND(sqlite3_bind_blob64(q, 3, p, n, SQLITE_STATIC));
        if (rc == SQLITE_OK) {
            rc = sqlite3_step(q);
            rc = rc == SQLITE_DONE ? SQLITE_OK : rc;
        }
    }
    sqlite3_finalize(q);
    return rc;
}

/* ------------------------------------------------------------------ */
/* Deep-run checkpoints                                                 */
/* ------------------------------------------------------------------ */

/* sg_store_checkpoint_put with parts of `part` bytes (store_impl.h: the
 * tests split small states). */
sg_status sgi_store_checkpoint_put_split(sg_store *st, const char *rule,
                                         uint64_t heaps, const void *blob,
                                         size_t len, size_t part, sg_error *err)
{
    sqlite3_stmt *q = NULL;
    char now[24], hash[HASH_TEXT];
    const unsigned char *b = blob;
    size_t nparts = len > part ? (len - 1) / part + 1 : 1, k;
    int rc;
    sg_status r;

    /* SQLite's integers are signed: a larger count would read back
     * negative. */
    if (heaps > INT64_MAX)
        return sg_error_set(err, SG_E_INPUT, -1,
                            "cannot store the checkpoint of %s: %llu heaps "
                            "do not fit in the cache",
                            rule, (unsigned long long)heaps);
    if (nparts > MAX_PARTS)
        return sg_error_set(err, SG_E_INPUT, -1,
                            "cannot store the checkpoint of %s: %zu bytes "
                            "are more than the cache keeps (%d parts of "
                            "%zu bytes)",
                            rule, len, MAX_PARTS, part);
    sgi_store_now(now);
    sgi_store_hash(hash, blob, len);
    if (nparts > 1)
        snprintf(hash + strlen(hash), sizeof hash - strlen(hash), "/%zu",
                 nparts);
    if ((r = sgi_store_write_begin(st, err)))
        return r;
    rc = sgi_store_exec(st->db, checkpoints_table);
    if (rc == SQLITE_OK && nparts > 1)
        rc = sgi_store_exec(st->db, parts_table);
    if (rc == SQLITE_OK)
        rc = drop_parts(st->db, rule);
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
        BIND(len ? sqlite3_bind_blob64(q, 3, blob, len < part ? len : part,
                                       SQLITE_STATIC)
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
    for (k = 1; k < nparts && rc == SQLITE_OK; k++)
        rc = put_part(st->db, rule, k, b + k * part,
                      k + 1 < nparts ? part : len - k * part);
    return sgi_store_write_end(st, rc, "storing a checkpoint", err);
}

sg_status sg_store_checkpoint_put(sg_store *st, const char *rule,
                                  uint64_t heaps, const void *blob, size_t len,
                                  sg_error *err)
{
    return sgi_store_checkpoint_put_split(st, rule, heaps, blob, len,
                                          PART_BYTES, err);
}

/* The number of parts a hash text names: 1 without "/N", 0 when the
 * suffix is malformed. */
static size_t hash_parts(const char *hash)
{
    const char *slash = strchr(hash, '/');
    size_t n = 0;

    if (!slash)
        return 1;
    if (slash[1] < '1' || slash[1] > '9')
        return 0;
    for (slash++; *slash >= '0' && *slash <= '9' && n <= MAX_PARTS; slash++)
        n = 10 * n + (size_t)(*slash - '0');
    return *slash == '\0' && n >= 2 && n <= MAX_PARTS ? n : 0;
}

/* sql, which selects rule's parts 1 .. nparts-1 (?1 the rule, ?2 the
 * last part), prepared and bound in *q. */
static int parts_query(sqlite3 *db, sqlite3_stmt **q, const char *sql,
                       const char *rule, size_t nparts)
{
    int rc = sqlite3_prepare_v2(db, sql, -1, q, NULL);

    BIND(sqlite3_bind_text(*q, 1, rule, -1, SQLITE_STATIC));
    BIND(sqlite3_bind_int64(*q, 2, (sqlite3_int64)(nparts - 1)));
    return rc;
}

/* Append parts 1 .. nparts-1 of rule's state to buf, which holds *have
 * bytes of its room for `total`.  SQLITE_CORRUPT when a part is missing,
 * out of order, not a blob or longer than the room. */
static int read_parts(sqlite3 *db, const char *rule, size_t nparts,
                      unsigned char *buf, size_t *have, size_t total)
{
    sqlite3_stmt *q = NULL;
    size_t k = 1;
    int rc = parts_query(db, &q,
                         "SELECT part, state FROM checkpoint_parts WHERE"
                         " rule = ?1 AND part BETWEEN 1 AND ?2 ORDER BY part",
                         rule, nparts);

    while (rc == SQLITE_OK && (rc = sqlite3_step(q)) == SQLITE_ROW) {
        int is_blob = sqlite3_column_type(q, 1) == SQLITE_BLOB;
        const void *p = sqlite3_column_blob(q, 1);
        size_t n = (size_t)sqlite3_column_bytes(q, 1);
        rc = SQLITE_OK;
        if (!p && n > 0)
            rc = SQLITE_NOMEM;
        else if (sqlite3_column_int64(q, 0) != (sqlite3_int64)k || !is_blob ||
                 n > total - *have)
            rc = SQLITE_CORRUPT;
        else if (n) {
            memcpy(buf + *have, p, n);
            *have += n;
        }
        k++;
    }
    if (rc == SQLITE_DONE)
        rc = k == nparts && *have == total ? SQLITE_OK : SQLITE_CORRUPT;
    sqlite3_finalize(q);
    return rc;
}

/* The bytes of rule's parts 1 .. nparts-1 in *bytes; SQLITE_CORRUPT when
 * the table or a part is missing. */
static int parts_bytes(sqlite3 *db, const char *rule, size_t nparts,
                       size_t *bytes)
{
    sqlite3_stmt *q = NULL;
    int have = 0, rc = has_parts(db, &have);

    if (rc == SQLITE_OK && !have)
        return SQLITE_CORRUPT;
    if (rc == SQLITE_OK)
        rc = parts_query(db, &q,
                         "SELECT count(*), sum(length(state)) FROM"
                         " checkpoint_parts WHERE rule = ?1 AND part"
                         " BETWEEN 1 AND ?2",
                         rule, nparts);
    if (rc == SQLITE_OK && (rc = sqlite3_step(q)) == SQLITE_ROW) {
        sqlite3_int64 count = sqlite3_column_int64(q, 0),
                      sum = sqlite3_column_int64(q, 1);
        rc = count == (sqlite3_int64)(nparts - 1) && sum >= 0 &&
                     (uint64_t)sum <= (uint64_t)MAX_PARTS * PART_BYTES * 4
                 ? SQLITE_OK
                 : SQLITE_CORRUPT;
        *bytes = (size_t)sum;
    } else if (rc == SQLITE_DONE) {
        rc = SQLITE_CORRUPT;
    }
    sqlite3_finalize(q);
    return rc;
}

/* Copy the checkpoint row selected by sg_store_checkpoint_get (rule,
 * heaps, state, hash), and the parts its hash names, into malloc'd
 * memory after checking the whole state's hash. */
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
    char want[HASH_TEXT] = "", got[HASH_TEXT] = "", quoted[SGI_STORE_QUOTE];
    size_t nparts = 0, more = 0, have = n;
    unsigned char *buf = NULL;
    int rc = SQLITE_OK;

    /* NULL for a value that is there: SQLite ran out of memory. */
    if ((!p && n > 0) || (!hash && has_hash) || (!key && has_key))
        return sg_error_set(err, SG_E_NOMEM, -1,
                            "out of memory while reading the checkpoint of "
                            "%s from cache %s",
                            rule, st->path);
    /* The key is checked too: a damaged index can point the lookup at
     * another rule's row, whose hash is right. */
    if (key && strcmp(key, rule) == 0 && is_int && h >= 0 && is_blob && hash &&
        strlen(hash) < sizeof got) {
        strcpy(got, hash);
        nparts = hash_parts(got);
    }
    if (nparts > 1)
        rc = parts_bytes(st->db, rule, nparts, &more);
    if (rc == SQLITE_OK && nparts) {
        /* One byte at least, so that an empty state is a pointer too. */
        if (!(buf = malloc(n + more ? n + more : 1)))
            return sg_error_set(err, SG_E_NOMEM, -1,
                                "out of memory for the checkpoint of %s "
                                "(%zu bytes) from cache %s",
                                rule, n + more, st->path);
        if (n)
            memcpy(buf, p, n);
        if (nparts > 1)
            rc = read_parts(st->db, rule, nparts, buf, &have, n + more);
    }
    if (rc == SQLITE_NOMEM) {
        free(buf);
        return sg_error_set(err, SG_E_NOMEM, -1,
                            "out of memory while reading the checkpoint of "
                            "%s from cache %s",
                            rule, st->path);
    }
    if (rc != SQLITE_OK && rc != SQLITE_CORRUPT) {
        free(buf);
        return sgi_store_db_error(err, st, rc, "reading a checkpoint");
    }
    if (buf && rc == SQLITE_OK) {
        sgi_store_hash(want, buf, have);
        if (nparts > 1)
            snprintf(want + strlen(want), sizeof want - strlen(want), "/%zu",
                     nparts);
    }
    if (!buf || rc != SQLITE_OK || strcmp(want, got) != 0) {
        free(buf);
        return sg_error_set(err, SG_E_IO, -1,
                            "cache %s: the deep-run checkpoint of %s is "
                            "damaged; drop it with `sgexplore cache drop "
                            "'%s'`",
                            st->path, sgi_store_quote(quoted, rule), quoted);
    }
    *blob = buf;
    *len = have;
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
    if (rc == SQLITE_OK)
        rc = drop_parts(st->db, rule);
    if ((r = sgi_store_write_end(st, rc, "dropping a checkpoint", err)))
        *found = 0;
    return r;
}
