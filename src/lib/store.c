/*
 * store.c - the SQLite cache of analysed rules: one row per rule (keyed by
 * its canonical text) with its claim, certificate and bookkeeping, and its
 * values in compact little-endian chunks; besides, the deep runs' opaque
 * checkpoints, one per rule, in an optional table.  The file is always
 * inspected read-only before anything is written, so a foreign or damaged
 * file is reported and never touched; every write is one IMMEDIATE
 * transaction in WAL mode, so concurrent sgexplore processes share a cache
 * safely.  The schema is documented for users in docs/CACHE.md; keep the
 * two in step.
 */
#define _DEFAULT_SOURCE
#include "sgexplore.h"
#include "fnv.h"
#include "seq_impl.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

#include <sqlite3.h>

#ifndef PACKAGE_VERSION
#define PACKAGE_VERSION "unknown"
#endif

/* How long a process waits for another one's write before giving up.  A
 * write of 10^9 values takes seconds; this leaves a wide margin.
 * $SGEXPLORE_LOCK_TIMEOUT (whole seconds, 0 to 86400) replaces it, for
 * users who would rather not wait and for the tests of a cache locked by
 * another program. */
#define BUSY_TIMEOUT_MS 600000
#define BUSY_TIMEOUT_MAX_S 86400

/* Files up to this size get SQLite's structural check (PRAGMA quick_check,
 * about 0.1 s per 100 MB) before they are used; larger ones rely on the
 * checks SQLite makes on every page it reads, and on the hashes of the
 * value chunks. */
#define QUICK_CHECK_MAX_BYTES (256 * 1024 * 1024)

struct sg_store {
    sqlite3 *db; /* NULL when there is no file (and none could be made) */
    char *path;
    int readonly;  /* writes are refused */
    int schema;    /* the file's user_version (0 until known) */
    char why[600]; /* why, naming the file or directory */
};

/* ------------------------------------------------------------------ */
/* Schema                                                               */
/* ------------------------------------------------------------------ */

/* The tables of versions 1 and 2.  Any change here needs a new
 * SG_STORE_SCHEMA_VERSION, an upgrade path in init_schema and an update of
 * docs/CACHE.md.  The one compatible exception is the optional
 * checkpoints table below. */
static const char schema_v1[] =
    "CREATE TABLE rules ("
    " id INTEGER PRIMARY KEY AUTOINCREMENT,"
    " rule TEXT NOT NULL UNIQUE,"
    " family TEXT NOT NULL,"
    " status TEXT NOT NULL CHECK (status IN"
    "  ('periodic', 'arithmetic-periodic', 'unresolved')),"
    " preperiod INTEGER,"
    " period INTEGER,"
    " saltus INTEGER,"
    " computed INTEGER NOT NULL,"
    " certified_to INTEGER,"
    " theorem TEXT,"
    " theorem_id TEXT,"
    " proof_start INTEGER,"
    " proof_period INTEGER,"
    " proof_saltus INTEGER,"
    " checksum TEXT,"
    " note TEXT,"
    " stored INTEGER NOT NULL,"
    " version TEXT NOT NULL,"
    " algorithm TEXT NOT NULL,"
    " elapsed REAL NOT NULL,"
    " created TEXT NOT NULL,"
    " updated TEXT NOT NULL);"
    "CREATE TABLE chunks ("
    " rule_id INTEGER NOT NULL REFERENCES rules(id) ON DELETE CASCADE,"
    " first INTEGER NOT NULL,"
    " count INTEGER NOT NULL CHECK (count > 0),"
    " width INTEGER NOT NULL CHECK (width IN (1, 2, 4)),"
    " data BLOB NOT NULL,"
    " hash TEXT NOT NULL,"
    " PRIMARY KEY (rule_id, first)) WITHOUT ROWID;";

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

/*
 * Version 2 has version 1's tables; what changed is two texts.  Nim's key
 * is `nim`, not `all-but{}`, and codes with `!` or a repeating tail are of
 * family `take-and-break`, not `octal` or `hex` (sg_rule_canonical and
 * sg_rule_family).  V1_RULE and V1_FAMILY turn a version-1 row's texts
 * into version 2's: the upgrade of a writable file stores them, and a
 * version-1 file that cannot be written is read through them.
 */
#define V1_RULE "(CASE rule WHEN 'all-but{}' THEN 'nim' ELSE rule END)"
#define V1_FAMILY                                                              \
    "(CASE WHEN family IN ('octal', 'hex') AND (instr(rule, '!') > 0 OR"       \
    " instr(rule, '[') > 0) THEN 'take-and-break' ELSE family END)"

/* The columns every entry query reads, in the order read_entry expects,
 * after "id, <rule>, <family>, ". */
#define ENTRY_TAIL                                                             \
    " status, preperiod, period, saltus, computed,"                            \
    " certified_to, theorem, theorem_id, proof_start, proof_period,"           \
    " proof_saltus, checksum, note, stored, version, algorithm, elapsed,"      \
    " created, updated"
#define ENTRY_COLUMNS "id, rule, family," ENTRY_TAIL
#define ENTRY_COLUMNS_V1 "id, " V1_RULE ", " V1_FAMILY "," ENTRY_TAIL

/* ------------------------------------------------------------------ */
/* Errors                                                               */
/* ------------------------------------------------------------------ */

/* An SG_E_IO error about the cache file, worded after SQLite's code. */
static sg_status db_error(sg_error *err, const sg_store *st, int rc,
                          const char *doing)
{
    const char *msg = st->db ? sqlite3_errmsg(st->db) : sqlite3_errstr(rc);

    switch (rc & 0xff) {
    case SQLITE_FULL:
        return sg_error_set(err, SG_E_IO, -1,
                            "cache %s: the disk is full (while %s); the "
                            "cache keeps its previous contents",
                            st->path, doing);
    case SQLITE_CORRUPT:
        return sg_error_set(err, SG_E_IO, -1,
                            "cache %s is corrupt (%s while %s); move it "
                            "away or delete it",
                            st->path, msg, doing);
    case SQLITE_NOTADB:
        return sg_error_set(err, SG_E_IO, -1,
                            "%s is not an sgexplore cache (not an SQLite "
                            "database); it was left untouched",
                            st->path);
    case SQLITE_NOMEM:
        return sg_error_set(err, SG_E_NOMEM, -1,
                            "out of memory while %s (cache %s)", doing,
                            st->path);
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
        return sg_error_set(err, SG_E_IO, -1,
                            "cache %s is locked by another process (gave "
                            "up waiting while %s; $SGEXPLORE_LOCK_TIMEOUT "
                            "sets the wait); it keeps its previous contents",
                            st->path, doing);
    default:
        return sg_error_set(err, SG_E_IO, -1, "cache %s: %s while %s", st->path,
                            msg, doing);
    }
}

static int is_readonly_code(int rc)
{
    rc &= 0xff;
    return rc == SQLITE_READONLY || rc == SQLITE_CANTOPEN ||
           rc == SQLITE_PERM || rc == SQLITE_AUTH;
}

/* ------------------------------------------------------------------ */
/* Small SQL helpers                                                    */
/* ------------------------------------------------------------------ */

/* Run SQL without results; returns the SQLite code. */
static int exec(sqlite3 *db, const char *sql)
{
    return sqlite3_exec(db, sql, NULL, NULL, NULL);
}

/* One integer from a query such as a PRAGMA; returns the SQLite code. */
static int query_int(sqlite3 *db, const char *sql, sqlite3_int64 *out)
{
    sqlite3_stmt *q;
    int rc = sqlite3_prepare_v2(db, sql, -1, &q, NULL);

    if (rc != SQLITE_OK)
        return rc;
    rc = sqlite3_step(q);
    if (rc == SQLITE_ROW) {
        *out = sqlite3_column_int64(q, 0);
        rc = SQLITE_OK;
    } else if (rc == SQLITE_DONE) {
        *out = 0;
        rc = SQLITE_OK;
    }
    sqlite3_finalize(q);
    return rc;
}

/* Roll back when a transaction is still open (SQLite rolls back some
 * failures by itself). */
static void rollback(sqlite3 *db)
{
    int tries;

    /* ROLLBACK itself needs memory to be prepared: a failure there would
     * leave the connection inside the transaction, and every later write
     * would fail.  A few more tries get past a passing shortage. */
    for (tries = 0; tries < 4 && !sqlite3_get_autocommit(db); tries++)
        exec(db, "ROLLBACK");
}

/* Whether the optional checkpoints table exists. */
static int has_checkpoints(sqlite3 *db, int *yes)
{
    sqlite3_int64 n = 0;
    int rc = query_int(db,
                       "SELECT count(*) FROM sqlite_master WHERE type ="
                       " 'table' AND name = 'checkpoints'",
                       &n);

    *yes = n > 0;
    return rc;
}

static void now_iso(char out[24])
{
    time_t t = time(NULL);
    struct tm tmv;

    if (!gmtime_r(&t, &tmv) ||
        strftime(out, 24, "%Y-%m-%dT%H:%M:%SZ", &tmv) == 0)
        snprintf(out, 24, "1970-01-01T00:00:00Z");
}

/* A malloc'd copy of a text column, or NULL for SQL NULL; *nomem is set
 * when the copy (or SQLite's conversion) ran out of memory, which must not
 * be mistaken for a damaged row. */
static char *dup_text(sqlite3_stmt *q, int col, int *nomem)
{
    const unsigned char *t = sqlite3_column_text(q, col);
    char *c;

    if (!t) {
        if (sqlite3_column_type(q, col) != SQLITE_NULL)
            *nomem = 1;
        return NULL;
    }
    if (!(c = strdup((const char *)t)))
        *nomem = 1;
    return c;
}

static uint64_t col_u64(sqlite3_stmt *q, int col)
{
    sqlite3_int64 v = sqlite3_column_int64(q, col);
    return v < 0 ? 0 : (uint64_t)v;
}

static int bind_u64_or_null(sqlite3_stmt *q, int i, int have, uint64_t v)
{
    if (!have)
        return sqlite3_bind_null(q, i);
    return sqlite3_bind_int64(q, i, (sqlite3_int64)v);
}

/* Run one sqlite3_bind_* call unless an earlier one failed; rc keeps the
 * first failure. */
#define BIND(call)                                                         \
    do {                                                                   \
        if (rc == SQLITE_OK)                                               \
            rc = (call);                                                   \
    } while (0)

static int bind_text_or_null(sqlite3_stmt *q, int i, const char *s)
{
    if (!s)
        return sqlite3_bind_null(q, i);
    return sqlite3_bind_text(q, i, s, -1, SQLITE_TRANSIENT);
}

/* FNV-1a (64-bit) of a chunk's or a checkpoint's bytes, as "fnv1a64:" and
 * 16 hex digits: catches damage inside blobs, which SQLite does not
 * check. */
static void blob_hash(char out[SG_FNV_TEXT], const void *p, size_t n)
{
    sg_fnv_format(out, sg_fnv1a(SG_FNV_OFFSET, p, n));
}

/* ------------------------------------------------------------------ */
/* Entries                                                              */
/* ------------------------------------------------------------------ */

void sg_store_entry_init(sg_store_entry *e)
{
    memset(e, 0, sizeof *e);
}

void sg_store_entry_clear(sg_store_entry *e)
{
    free(e->rule);
    free(e->family);
    free(e->theorem);
    free(e->theorem_id);
    free(e->note);
    free(e->version);
    free(e->algorithm);
    memset(e, 0, sizeof *e);
}

/* read_entry's answer when memory ran out (the row may be fine). */
#define READ_NOMEM (-2)

/* Fill e from a row selected with ENTRY_COLUMNS; returns the row id, or -1
 * when the row makes no sense (reported as a corrupt cache). */
static sqlite3_int64 read_entry(sg_store_entry *e, sqlite3_stmt *q)
{
    int nomem = 0;
    const char *status = (const char *)sqlite3_column_text(q, 3);
    const char *sum = (const char *)sqlite3_column_text(q, 14);
    const char *t;

    sg_store_entry_clear(e);
    e->rule = dup_text(q, 1, &nomem);
    e->family = dup_text(q, 2, &nomem);
    if (!status && sqlite3_column_type(q, 3) != SQLITE_NULL)
        return READ_NOMEM;
    if (!status)
        return -1;
    if (!sg_period_status_parse(&e->res.status, status))
        return -1;
    e->res.preperiod = col_u64(q, 4);
    e->res.period = col_u64(q, 5);
    e->res.saltus = col_u64(q, 6);
    e->res.computed = col_u64(q, 7);
    e->res.certified_to = col_u64(q, 8);
    e->theorem = dup_text(q, 9, &nomem);
    e->theorem_id = dup_text(q, 10, &nomem);
    e->res.proof_start = col_u64(q, 11);
    e->res.proof_period = col_u64(q, 12);
    e->res.proof_saltus = col_u64(q, 13);
    if (!sg_fnv_parse(&e->res.checksum, sum))
        e->res.checksum = 0;
    e->note = dup_text(q, 15, &nomem);
    e->stored = col_u64(q, 16);
    e->version = dup_text(q, 17, &nomem);
    e->algorithm = dup_text(q, 18, &nomem);
    e->elapsed = sqlite3_column_double(q, 19);
    t = (const char *)sqlite3_column_text(q, 20);
    snprintf(e->created, sizeof e->created, "%s", t ? t : "");
    t = (const char *)sqlite3_column_text(q, 21);
    snprintf(e->updated, sizeof e->updated, "%s", t ? t : "");
    e->res.theorem = e->theorem;
    e->res.theorem_id = e->theorem_id;
    e->res.note = e->note;
    if (nomem || (!sum && sqlite3_column_type(q, 14) != SQLITE_NULL))
        return READ_NOMEM;
    if (!e->rule || !e->family || !e->version || !e->algorithm)
        return -1;
    if (e->res.status != SG_UNRESOLVED &&
        (e->res.period == 0 || e->stored != e->res.preperiod + e->res.period ||
         !e->theorem || !e->theorem_id))
        return -1;
    if (e->stored > e->res.computed)
        return -1;
    return sqlite3_column_int64(q, 0);
}

/* ------------------------------------------------------------------ */
/* Opening                                                              */
/* ------------------------------------------------------------------ */

char *sg_store_default_path(void)
{
    const char *env = getenv("SGEXPLORE_DB");
    const char *base;
    const char *tail;
    size_t len;
    char *out;

    if (env && *env)
        return strdup(env);
    base = getenv("XDG_CACHE_HOME");
    tail = "/sgexplore/cache.db";
    if (!base || !*base) {
        base = getenv("HOME");
        tail = "/.cache/sgexplore/cache.db";
        if (!base || !*base)
            return NULL;
    }
    len = strlen(base) + strlen(tail) + 1;
    out = malloc(len);
    if (out)
        snprintf(out, len, "%s%s", base, tail);
    return out;
}

/* The directory part of path ("." when there is none).  malloc'd. */
static char *dir_of(const char *path)
{
    const char *slash = strrchr(path, '/');

    if (!slash)
        return strdup(".");
    if (slash == path)
        return strdup("/");
    return strndup(path, (size_t)(slash - path));
}

/* mkdir -p; returns 0 or an errno value, with the failing directory in
 * *where (malloc'd, or NULL). */
static int make_dirs(const char *dir, char **where)
{
    char *p = strdup(dir), *s;
    int e = 0;

    *where = NULL;
    if (!p)
        return ENOMEM;
    for (s = p + 1;; s++) {
        if (*s == '/' || *s == '\0') {
            char c = *s;
            *s = '\0';
            if (mkdir(p, 0777) != 0 && errno != EEXIST) {
                e = errno;
                *where = strdup(p);
                break;
            }
            *s = c;
            if (c == '\0')
                break;
        }
    }
    free(p);
    if (!e) {
        struct stat sb;
        if (stat(dir, &sb) != 0 || !S_ISDIR(sb.st_mode)) {
            e = ENOTDIR;
            *where = strdup(dir);
        }
    }
    return e;
}

/* Mark the cache read-only, with the reason (printf-style). */
static void set_readonly(sg_store *st, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void set_readonly(sg_store *st, const char *fmt, ...)
{
    va_list ap;

    st->readonly = 1;
    va_start(ap, fmt);
    vsnprintf(st->why, sizeof st->why, fmt, ap);
    va_end(ap);
}

/*
 * Inspect an existing file on a read-only connection: it must be an empty
 * database (*empty = 1) or an sgexplore cache of the schema this program
 * knows.  Nothing is written.
 */
static sg_status check_file(sg_store *st, sqlite3 *db, int deep, int *empty,
                            sg_error *err)
{
    sqlite3_int64 sv, app, uv, tables;
    sqlite3_stmt *q;
    int rc;

    *empty = 0;
    rc = query_int(db, "PRAGMA schema_version", &sv);
    if (rc == SQLITE_OK)
        rc = query_int(db, "PRAGMA application_id", &app);
    if (rc == SQLITE_OK)
        rc = query_int(db, "PRAGMA user_version", &uv);
    if (rc != SQLITE_OK)
        return db_error(err, st, rc, "reading its header");
    if (sv == 0 && app == 0 && uv == 0) {
        *empty = 1;
        return SG_OK;
    }
    if (app != SG_STORE_APPLICATION_ID)
        return sg_error_set(err, SG_E_IO, -1,
                            "%s is not an sgexplore cache (an SQLite "
                            "database of another program); it was left "
                            "untouched",
                            st->path);
    st->schema = (int)uv;
    if (uv > SG_STORE_SCHEMA_VERSION)
        return sg_error_set(err, SG_E_IO, -1,
                            "cache %s has schema version %lld, written by "
                            "a newer sgexplore (this one reads version %d); "
                            "it was left untouched",
                            st->path, (long long)uv, SG_STORE_SCHEMA_VERSION);
    if (uv < 1)
        return sg_error_set(err, SG_E_IO, -1,
                            "cache %s has an unknown schema version %lld "
                            "(this sgexplore reads version %d); it was "
                            "left untouched",
                            st->path, (long long)uv, SG_STORE_SCHEMA_VERSION);
    rc = query_int(db,
                   "SELECT count(*) FROM sqlite_master WHERE type = 'table'"
                   " AND name IN ('rules', 'chunks')",
                   &tables);
    if (rc != SQLITE_OK)
        return db_error(err, st, rc, "reading its schema");
    if (tables != 2)
        return sg_error_set(err, SG_E_IO, -1,
                            "cache %s is corrupt (its tables are missing); "
                            "it was left untouched",
                            st->path);
    if (!deep)
        return SG_OK;
    /* SQLite's structural check: reads every page once. */
    rc = sqlite3_prepare_v2(db, "PRAGMA quick_check(1)", -1, &q, NULL);
    if (rc == SQLITE_OK) {
        rc = sqlite3_step(q);
        if (rc == SQLITE_ROW) {
            const char *res = (const char *)sqlite3_column_text(q, 0);
            if (!res || strcmp(res, "ok") != 0) {
                sg_status r = sg_error_set(
                    err, SG_E_IO, -1,
                    "cache %s is corrupt (%s); it was left untouched: move "
                    "it away or delete it",
                    st->path, res ? res : "quick_check failed");
                sqlite3_finalize(q);
                return r;
            }
            rc = SQLITE_OK;
        }
        sqlite3_finalize(q);
    }
    if (rc != SQLITE_OK)
        return db_error(err, st, rc, "checking it");
    return SG_OK;
}

/* Per-connection settings. */
static void configure(sqlite3 *db)
{
    const char *env = getenv("SGEXPLORE_LOCK_TIMEOUT");
    int ms = BUSY_TIMEOUT_MS;

    if (env && *env) {
        char *end;
        unsigned long v = strtoul(env, &end, 10);
        if (*end == '\0' && env[0] != '-' && v <= BUSY_TIMEOUT_MAX_S)
            ms = (int)v * 1000;
    }
    sqlite3_busy_timeout(db, ms);
    sqlite3_extended_result_codes(db, 1);
    exec(db, "PRAGMA foreign_keys = ON");
}

/* Version 1 to version 2 (V1_RULE above), inside the caller's write
 * transaction: every row's texts, the checkpoint of Nim, the version. */
static int upgrade_v1(sqlite3 *db)
{
    int rc, yes = 0;

    rc = exec(db, "UPDATE rules SET rule = " V1_RULE ", family = " V1_FAMILY
                  " WHERE rule <> " V1_RULE " OR family <> " V1_FAMILY);
    if (rc == SQLITE_OK)
        rc = has_checkpoints(db, &yes);
    if (rc == SQLITE_OK && yes)
        rc = exec(db, "UPDATE checkpoints SET rule = 'nim'"
                      " WHERE rule = 'all-but{}'");
    if (rc == SQLITE_OK)
        rc = exec(db, "PRAGMA user_version = 2");
    return rc;
}

/* On the read-write connection, when the file is new or was empty
 * (`create`) or has an older schema: re-check it inside a write
 * transaction (another process may have created or upgraded it
 * meanwhile), then create the schema when it is still empty, or upgrade
 * it, all or nothing.  Then make sure the file is in WAL mode.  *denied is
 * set when SQLite finds the file not writable after all (an old file is
 * then read as it is). */
static sg_status init_schema(sg_store *st, int create, int *denied,
                             sg_error *err)
{
    int rc, empty;
    sg_status s;
    char sql[160];
    sqlite3_stmt *q;

    *denied = 0;
    if (!create && st->schema >= SG_STORE_SCHEMA_VERSION)
        goto wal; /* checked read-only already: a cache of our schema */
    rc = exec(st->db, "BEGIN IMMEDIATE");
    if (rc != SQLITE_OK) {
        if (is_readonly_code(rc)) {
            *denied = 1;
            return SG_OK;
        }
        return db_error(err, st, rc, "opening it for writing");
    }
    s = check_file(st, st->db, 0, &empty, err);
    if (s) {
        rollback(st->db);
        return s;
    }
    if (empty) {
        rc = exec(st->db, schema_v1);
        if (rc == SQLITE_OK) {
            snprintf(sql, sizeof sql,
                     "PRAGMA application_id = %d; PRAGMA user_version = %d",
                     SG_STORE_APPLICATION_ID, SG_STORE_SCHEMA_VERSION);
            rc = exec(st->db, sql);
        }
        if (rc == SQLITE_OK)
            rc = exec(st->db, "COMMIT");
        if (rc != SQLITE_OK) {
            rollback(st->db);
            if (is_readonly_code(rc)) {
                *denied = 1;
                return SG_OK;
            }
            return db_error(err, st, rc, "creating its tables");
        }
        st->schema = SG_STORE_SCHEMA_VERSION;
    } else if (st->schema < SG_STORE_SCHEMA_VERSION) {
        rc = upgrade_v1(st->db);
        if (rc == SQLITE_OK)
            rc = exec(st->db, "COMMIT");
        if (rc != SQLITE_OK) {
            rollback(st->db);
            if (is_readonly_code(rc)) {
                *denied = 1;
                return SG_OK;
            }
            return db_error(err, st, rc, "upgrading it to schema version 2");
        }
        st->schema = SG_STORE_SCHEMA_VERSION;
    } else if (exec(st->db, "COMMIT") != SQLITE_OK) {
        rollback(st->db);
    }
wal:
    /* WAL is a property of the file: set once, kept for good. */
    rc = sqlite3_prepare_v2(st->db, "PRAGMA journal_mode", -1, &q, NULL);
    if (rc == SQLITE_OK) {
        const char *mode;
        rc = sqlite3_step(q);
        mode =
            rc == SQLITE_ROW ? (const char *)sqlite3_column_text(q, 0) : NULL;
        rc = mode && strcmp(mode, "wal") == 0 ? SQLITE_DONE : SQLITE_OK;
        sqlite3_finalize(q);
        if (rc == SQLITE_DONE)
            return SG_OK;
    }
    rc = sqlite3_prepare_v2(st->db, "PRAGMA journal_mode = WAL", -1, &q, NULL);
    if (rc == SQLITE_OK) {
        rc = sqlite3_step(q);
        if (rc == SQLITE_ROW) {
            const char *mode = (const char *)sqlite3_column_text(q, 0);
            rc = mode && strcmp(mode, "wal") == 0 ? SQLITE_OK : SQLITE_READONLY;
        }
        sqlite3_finalize(q);
    }
    if (rc != SQLITE_OK) {
        if (is_readonly_code(rc)) {
            *denied = 1;
            return SG_OK;
        }
        return db_error(err, st, rc, "switching it to WAL mode");
    }
    return SG_OK;
}

/* "file:" URI of path with ?immutable=1, for sqlite3_open_v2 with
 * SQLITE_OPEN_URI.  malloc'd. */
static char *immutable_uri(const char *path)
{
    static const char hex[] = "0123456789ABCDEF";
    size_t n = strlen(path);
    char *u = malloc(3 * n + 32), *o;
    const unsigned char *p;

    if (!u)
        return NULL;
    o = u + sprintf(u, "file:");
    for (p = (const unsigned char *)path; *p; p++) {
        if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
            (*p >= '0' && *p <= '9') || strchr("/-_.~", *p)) {
            *o++ = (char)*p;
        } else {
            *o++ = '%';
            *o++ = hex[*p >> 4];
            *o++ = hex[*p & 15];
        }
    }
    strcpy(o, "?immutable=1");
    return u;
}

/* Open path read-only (for the first inspection, and for read-only use).
 * A WAL file in a directory we cannot write cannot get its shared-memory
 * file; it is then read as immutable (nobody may write it anyway: the
 * directory is not writable). */
static int open_ro(sqlite3 **db, const char *path)
{
    sqlite3_int64 sv;
    char *uri;
    int rc = sqlite3_open_v2(path, db, SQLITE_OPEN_READONLY, NULL);

    if (rc == SQLITE_OK) {
        configure(*db);
        rc = query_int(*db, "PRAGMA schema_version", &sv);
        if ((rc & 0xff) != SQLITE_READONLY && (rc & 0xff) != SQLITE_CANTOPEN)
            return SQLITE_OK; /* other problems are check_file's to report */
    }
    sqlite3_close(*db);
    *db = NULL;
    uri = immutable_uri(path);
    if (!uri)
        return SQLITE_NOMEM;
    rc = sqlite3_open_v2(uri, db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, NULL);
    free(uri);
    if (rc != SQLITE_OK) {
        sqlite3_close(*db);
        *db = NULL;
    } else {
        configure(*db);
    }
    return rc;
}

sg_status sg_store_open(sg_store **out, const char *path, unsigned flags,
                        sg_error *err)
{
    sg_store *st;
    struct stat sb;
    sqlite3 *ro = NULL;
    char *dir = NULL, *where = NULL;
    int rc, exists, empty = 0, e, denied;
    sg_status s = SG_OK;

    *out = NULL;
    st = calloc(1, sizeof *st);
    if (!st || !(st->path = strdup(path))) {
        free(st);
        return sg_error_set(err, SG_E_NOMEM, -1, "out of memory");
    }
    exists = stat(path, &sb) == 0;
    if (exists && S_ISDIR(sb.st_mode)) {
        s = sg_error_set(err, SG_E_IO, -1,
                         "%s is a directory, not an sgexplore cache", path);
        goto fail;
    }
    if (exists) {
        rc = open_ro(&ro, path);
        if ((rc & 0xff) == SQLITE_NOMEM) {
            s = sg_error_set(err, SG_E_NOMEM, -1,
                             "out of memory while opening cache %s", path);
            goto fail;
        }
        if (rc != SQLITE_OK) {
            s = sg_error_set(err, SG_E_IO, -1, "cannot read cache %s: %s", path,
                             sqlite3_errstr(rc));
            goto fail;
        }
        st->db = ro;
        s = check_file(st, ro, sb.st_size <= QUICK_CHECK_MAX_BYTES, &empty,
                       err);
        st->db = NULL;
        if (s)
            goto fail;
    } else if (errno != ENOENT) {
        s = sg_error_set(err, SG_E_IO, -1, "cannot reach cache %s: %s", path,
                         strerror(errno));
        goto fail;
    }

    if (flags & SG_STORE_READONLY) {
        /* No file, or an empty one: nothing is cached. */
        if (ro && empty) {
            sqlite3_close(ro);
            ro = NULL;
        }
        st->db = ro;
        set_readonly(st, "cache %s%s was opened read-only", path, "");
        *out = st;
        return SG_OK;
    }

    /* Writable?  A file we may not write, or a directory in which the WAL
     * files cannot be made, leaves the cache read-only. */
    dir = dir_of(path);
    if (!dir) {
        s = sg_error_set(err, SG_E_NOMEM, -1, "out of memory");
        goto fail;
    }
    if (!exists) {
        e = make_dirs(dir, &where);
        if (e == ENOMEM) {
            free(where);
            s = sg_error_set(err, SG_E_NOMEM, -1, "out of memory");
            goto fail;
        }
        if (e) {
            set_readonly(st, "cannot create the cache directory %s: %s",
                         where ? where : dir, strerror(e));
            free(where);
            goto readonly;
        }
    }
    if (access(dir, W_OK | X_OK) != 0) {
        set_readonly(st, "the cache directory %s is not writable (%s)", dir,
                     strerror(errno));
        goto readonly;
    }
    if (exists && access(path, W_OK) != 0) {
        set_readonly(st, "the cache %s is not writable (%s)", path,
                     strerror(errno));
        goto readonly;
    }
    rc = sqlite3_open_v2(
        path, &st->db,
        SQLITE_OPEN_READWRITE | (exists ? 0 : SQLITE_OPEN_CREATE), NULL);
    if ((rc & 0xff) == SQLITE_NOMEM) {
        sqlite3_close(st->db);
        st->db = NULL;
        s = sg_error_set(err, SG_E_NOMEM, -1,
                         "out of memory while opening cache %s", path);
        goto fail;
    }
    if (rc != SQLITE_OK) {
        sqlite3_close(st->db);
        st->db = NULL;
        set_readonly(st, "cannot open the cache %s for writing: %s", path,
                     sqlite3_errstr(rc));
        goto readonly;
    }
    configure(st->db);
    if (sqlite3_db_readonly(st->db, "main") == 1) {
        sqlite3_close(st->db);
        st->db = NULL;
        set_readonly(st, "the cache %s is not writable%s", path, "");
        goto readonly;
    }
    s = init_schema(st, !exists || empty, &denied, err);
    if (!s && denied) {
        sqlite3_close(st->db);
        st->db = NULL;
        set_readonly(st, "the cache %s is not writable%s", path, "");
        goto readonly;
    }
    if (s)
        goto fail;
    if (ro)
        sqlite3_close(ro);
    free(dir);
    *out = st;
    return SG_OK;

readonly:
    st->readonly = 1;
    if (ro && empty) {
        sqlite3_close(ro);
        ro = NULL;
    }
    st->db = ro;
    free(dir);
    *out = st;
    return SG_OK;

fail:
    if (st->db && st->db != ro)
        sqlite3_close(st->db);
    if (ro)
        sqlite3_close(ro);
    free(dir);
    free(st->path);
    free(st);
    return s;
}

void sg_store_close(sg_store *st)
{
    if (!st)
        return;
    if (st->db)
        sqlite3_close(st->db);
    free(st->path);
    free(st);
}

const char *sg_store_path(const sg_store *st)
{
    return st->path;
}

int sg_store_readonly(const sg_store *st, const char **why)
{
    if (why)
        *why = st->readonly ? st->why : NULL;
    return st->readonly;
}

void *sg_store_sqlite(sg_store *st)
{
    return st->db;
}

/* ------------------------------------------------------------------ */
/* Values: chunks of little-endian values                               */
/* ------------------------------------------------------------------ */

/* Encode G(a..b-1) into buf with the fewest bytes per value; returns the
 * width used. */
static unsigned encode_chunk(uint8_t *buf, const sg_seq *s, size_t a, size_t b)
{
    sg_value max = 0;
    unsigned w;
    size_t i;

    if (s->width > 1)
        for (i = a; i < b; i++)
            if (sg_seq_get(s, i) > max)
                max = sg_seq_get(s, i);
    w = sg_value_width(max);
    for (i = a; i < b; i++) {
        sg_value v = sg_seq_get(s, i);
        uint8_t *p = buf + (i - a) * w;
        p[0] = (uint8_t)v;
        if (w >= 2)
            p[1] = (uint8_t)(v >> 8);
        if (w == 4) {
            p[2] = (uint8_t)(v >> 16);
            p[3] = (uint8_t)(v >> 24);
        }
    }
    return w;
}

/* Append count values of `width` little-endian bytes to s, which has room
 * and is at least that wide. */
static void decode_chunk(sg_seq *s, const uint8_t *p, size_t count,
                         unsigned width)
{
    size_t i;
    const uint16_t one = 1;

    if (width == s->width && *(const uint8_t *)&one == 1) {
        /* Same width on a little-endian machine: the bytes are the
         * values; only the maximum needs a look at each. */
        memcpy(s->data + s->n * width, p, count * width);
        for (i = 0; i < count; i++) {
            sg_value v = sg_seq_get(s, s->n + i);
            if (v > s->max)
                s->max = v;
        }
        s->n += count;
        return;
    }
    for (i = 0; i < count; i++, p += width) {
        sg_value v = p[0];
        if (width >= 2)
            v |= (sg_value)p[1] << 8;
        if (width == 4)
            v |= (sg_value)p[2] << 16 | (sg_value)p[3] << 24;
        /* Room and width were made by the caller: a single store. */
        (void)sg_seq_push(s, v, NULL);
    }
}

/* Read the chunks of row `id` into s (emptied first): G(0..stored-1). */
static sg_status load_values(sg_store *st, sqlite3_int64 id, uint64_t stored,
                             uint64_t room, sg_seq *s, const char *rule,
                             sg_error *err)
{
    sqlite3_stmt *q = NULL;
    sqlite3_int64 maxw = 1;
    int rc;
    sg_status r;

    sg_seq_clear(s);
    rc = sqlite3_prepare_v2(st->db,
                            "SELECT max(width) FROM chunks WHERE rule_id = ?",
                            -1, &q, NULL);
    if (rc == SQLITE_OK) {
        sqlite3_bind_int64(q, 1, id);
        rc = sqlite3_step(q);
        if (rc == SQLITE_ROW) {
            if (sqlite3_column_type(q, 0) != SQLITE_NULL)
                maxw = sqlite3_column_int64(q, 0);
            rc = SQLITE_OK;
        }
        sqlite3_finalize(q);
        q = NULL;
    }
    if (rc != SQLITE_OK)
        return db_error(err, st, rc, "reading values");
    if (maxw != 1 && maxw != 2 && maxw != 4)
        goto damaged;
    if (room > SIZE_MAX)
        return sg_error_set(err, SG_E_NOMEM, -1,
                            "%llu cached values cannot be held in memory",
                            (unsigned long long)room);
    if ((r = sg_seq_widen(s, (unsigned)maxw, err)) ||
        (r = sg_seq_reserve(s, room ? (size_t)room : 1, err)))
        return r;
    rc = sqlite3_prepare_v2(st->db,
                            "SELECT first, count, width, data, hash FROM chunks"
                            " WHERE rule_id = ? ORDER BY first",
                            -1, &q, NULL);
    if (rc != SQLITE_OK)
        return db_error(err, st, rc, "reading values");
    sqlite3_bind_int64(q, 1, id);
    while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
        sqlite3_int64 first = sqlite3_column_int64(q, 0);
        sqlite3_int64 count = sqlite3_column_int64(q, 1);
        sqlite3_int64 width = sqlite3_column_int64(q, 2);
        const void *blob = sqlite3_column_blob(q, 3);
        sqlite3_int64 bytes = sqlite3_column_bytes(q, 3);
        const char *hash = (const char *)sqlite3_column_text(q, 4);
        char want[SG_FNV_TEXT];

        if ((!blob && bytes > 0) ||
            (!hash && sqlite3_column_type(q, 4) != SQLITE_NULL)) {
            sqlite3_finalize(q);
            sg_seq_clear(s);
            return sg_error_set(err, SG_E_NOMEM, -1,
                                "out of memory while reading the values of "
                                "%s from cache %s",
                                rule, st->path);
        }
        if (first != (sqlite3_int64)s->n || count <= 0 ||
            (uint64_t)first + (uint64_t)count > stored ||
            (width != 1 && width != 2 && width != 4) || width > maxw ||
            bytes != count * width || !blob || !hash)
            break;
        blob_hash(want, blob, (size_t)bytes);
        if (strcmp(want, hash) != 0)
            break;
        decode_chunk(s, blob, (size_t)count, (unsigned)width);
    }
    sqlite3_finalize(q);
    if (rc != SQLITE_ROW && rc != SQLITE_DONE)
        return db_error(err, st, rc, "reading values");
    if (rc == SQLITE_ROW || s->n != stored)
        goto damaged;
    return SG_OK;
damaged:
    sg_seq_clear(s);
    return sg_error_set(err, SG_E_IO, -1,
                        "cache %s: the stored values of %s are damaged; "
                        "drop them with `sgexplore cache drop '%s'`",
                        st->path, rule, rule);
}

/* A proven entry keeps G(0..n0+p-1); rebuild G(0..computed-1) through the
 * proven period (no computation) and check the certificate's checksum. */
static sg_status rebuild_proven(sg_store *st, const sg_store_entry *e,
                                sg_seq *s, sg_error *err)
{
    uint64_t p = e->res.period, n;
    uint64_t sal = e->res.status == SG_ARITH_PERIODIC ? e->res.saltus : 0;
    sg_status r;

    for (n = s->n; n < e->res.computed; n++) {
        uint64_t v = (uint64_t)sg_seq_get(s, (size_t)(n - p)) + sal;
        if (v > UINT32_MAX)
            break;
        if ((r = sg_seq_append(s, (sg_value)v, err)))
            return r;
    }
    if (e->res.certified_to >= s->n ||
        sg_checksum(s, (size_t)e->res.certified_to + 1) != e->res.checksum)
        return sg_error_set(err, SG_E_IO, -1,
                            "cache %s: the certificate of %s does not match "
                            "its stored values (checksum); drop it with "
                            "`sgexplore cache drop '%s'`",
                            st->path, e->rule, e->rule);
    return SG_OK;
}

/* ------------------------------------------------------------------ */
/* Reading                                                              */
/* ------------------------------------------------------------------ */

sg_status sg_store_get(sg_store *st, const char *rule, sg_store_entry *e,
                       sg_seq *s, int *found, sg_error *err)
{
    sqlite3_stmt *q = NULL;
    sqlite3_int64 id = 0;
    int rc;
    sg_status r = SG_OK;

    *found = 0;
    if (!st->db)
        return SG_OK;
    /* One read transaction: the row and its chunks from one snapshot. */
    rc = exec(st->db, "BEGIN");
    if (rc == SQLITE_OK)
        rc = sqlite3_prepare_v2(
            st->db,
            st->schema < 2 ? "SELECT " ENTRY_COLUMNS_V1 " FROM rules"
                             " WHERE " V1_RULE " = ?"
                           : "SELECT " ENTRY_COLUMNS " FROM rules WHERE rule = ?",
            -1, &q, NULL);
    if (rc != SQLITE_OK) {
        r = db_error(err, st, rc, "looking a rule up");
        goto done;
    }
    sqlite3_bind_text(q, 1, rule, -1, SQLITE_STATIC);
    rc = sqlite3_step(q);
    if (rc == SQLITE_ROW) {
        id = read_entry(e, q);
        if (id == READ_NOMEM)
            r = sg_error_set(err, SG_E_NOMEM, -1,
                             "out of memory while reading %s from cache %s",
                             rule, st->path);
        else if (id < 0 || strcmp(e->rule, rule) != 0)
            /* A row of another rule: a damaged index can point the
             * lookup at it, and its values must not be served. */
            r = sg_error_set(err, SG_E_IO, -1,
                             "cache %s: the row of %s is damaged; drop it "
                             "with `sgexplore cache drop '%s'`",
                             st->path, rule, rule);
        else
            *found = 1;
    } else if (rc != SQLITE_DONE) {
        r = db_error(err, st, rc, "looking a rule up");
    }
    sqlite3_finalize(q);
    if (r || !*found || !s)
        goto done;
    r = load_values(st, id, e->stored,
                    e->res.status == SG_UNRESOLVED ? e->stored
                                                   : e->res.computed,
                    s, rule, err);
    if (!r && e->res.status != SG_UNRESOLVED)
        r = rebuild_proven(st, e, s, err);
done:
    rollback(st->db);
    if (r) {
        *found = 0;
        sg_store_entry_clear(e);
        if (s)
            sg_seq_clear(s);
    }
    return r;
}

sg_status sg_store_list(sg_store *st, const char *status, const char *family,
                        sg_store_visit fn, void *arg, sg_error *err)
{
    sqlite3_stmt *q = NULL;
    sg_store_entry e;
    int rc;
    sg_status r = SG_OK;

    if (!st->db)
        return SG_OK;
    sg_store_entry_init(&e);
    rc = sqlite3_prepare_v2(
        st->db,
        st->schema < 2 ? "SELECT " ENTRY_COLUMNS_V1 " FROM rules"
                         " WHERE (?1 IS NULL OR status = ?1)"
                         " AND (?2 IS NULL OR " V1_FAMILY " = ?2)"
                         " ORDER BY " V1_FAMILY ", " V1_RULE
                       : "SELECT " ENTRY_COLUMNS " FROM rules"
                         " WHERE (?1 IS NULL OR status = ?1)"
                         " AND (?2 IS NULL OR family = ?2)"
                         " ORDER BY family, rule",
        -1, &q, NULL);
    if (rc != SQLITE_OK)
        return db_error(err, st, rc, "listing rules");
    bind_text_or_null(q, 1, status);
    bind_text_or_null(q, 2, family);
    while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
        sqlite3_int64 id = read_entry(&e, q);
        if (id == READ_NOMEM) {
            r = sg_error_set(err, SG_E_NOMEM, -1,
                             "out of memory while listing cache %s",
                             st->path);
            break;
        }
        if (id < 0) {
            r = sg_error_set(err, SG_E_IO, -1,
                             "cache %s: the row of %s is damaged", st->path,
                             e.rule ? e.rule : "(unnamed)");
            break;
        }
        if (fn(&e, arg))
            break;
    }
    if (!r && rc != SQLITE_ROW && rc != SQLITE_DONE)
        r = db_error(err, st, rc, "listing rules");
    sqlite3_finalize(q);
    sg_store_entry_clear(&e);
    return r;
}

/* ------------------------------------------------------------------ */
/* Writing                                                              */
/* ------------------------------------------------------------------ */

static sg_status refuse_write(sg_store *st, sg_error *err)
{
    return sg_error_set(err, SG_E_IO, -1, "%s; nothing was stored", st->why);
}

/* After a write failed: a permission problem found only now makes the
 * cache read-only, anything else is reported. */
static sg_status write_failed(sg_store *st, int rc, const char *doing,
                              sg_error *err)
{
    if (is_readonly_code(rc)) {
        set_readonly(st, "the cache %s is not writable (%s)", st->path,
                     sqlite3_errstr(rc));
        return refuse_write(st, err);
    }
    return db_error(err, st, rc, doing);
}

/* Start a write: one IMMEDIATE transaction, which waits for other
 * writers up to the busy timeout.  Refused on a read-only cache. */
static sg_status write_begin(sg_store *st, sg_error *err)
{
    int rc;

    if (st->readonly || !st->db)
        return refuse_write(st, err);
    rc = exec(st->db, "BEGIN IMMEDIATE");
    if (rc != SQLITE_OK)
        return write_failed(st, rc, "starting a write", err);
    return SG_OK;
}

/* End a write begun by write_begin: commit when rc (the first failure of
 * its statements) is SQLITE_OK; otherwise, or when the commit fails,
 * report it and roll back, so that nothing of it stays in the file. */
static sg_status write_end(sg_store *st, int rc, const char *doing,
                           sg_error *err)
{
    sg_status r;

    if (rc == SQLITE_OK)
        rc = exec(st->db, "COMMIT");
    if (rc == SQLITE_OK)
        return SG_OK;
    /* The message first: the rollback would replace SQLite's. */
    r = write_failed(st, rc, doing, err);
    rollback(st->db);
    return r;
}

/* Write chunks of G(from..to-1) for row id. */
static int write_chunks(sqlite3 *db, sqlite3_int64 id, const sg_seq *s,
                        size_t from, size_t to)
{
    sqlite3_stmt *q;
    uint8_t *buf;
    size_t a;
    int rc;

    if (from >= to)
        return SQLITE_OK;
    buf = malloc((size_t)SG_STORE_CHUNK_VALUES * 4);
    if (!buf)
        return SQLITE_NOMEM;
    rc = sqlite3_prepare_v2(db,
                            "INSERT INTO chunks (rule_id, first, count,"
                            " width, data, hash) VALUES (?, ?, ?, ?, ?, ?)",
                            -1, &q, NULL);
    if (rc != SQLITE_OK) {
        free(buf);
        return rc;
    }
    for (a = from; a < to && rc == SQLITE_OK;) {
        /* Chunks start at multiples of SG_STORE_CHUNK_VALUES, so that an
         * extension rewrites only the last, partial one. */
        size_t b = (a / SG_STORE_CHUNK_VALUES + 1) * SG_STORE_CHUNK_VALUES;
        unsigned w;
        char hash[SG_FNV_TEXT];

        if (b > to)
            b = to;
        w = encode_chunk(buf, s, a, b);
        blob_hash(hash, buf, (b - a) * w);
        BIND(sqlite3_bind_int64(q, 1, id));
        BIND(sqlite3_bind_int64(q, 2, (sqlite3_int64)a));
        BIND(sqlite3_bind_int64(q, 3, (sqlite3_int64)(b - a)));
        BIND(sqlite3_bind_int(q, 4, (int)w));
        BIND(sqlite3_bind_blob(q, 5, buf, (int)((b - a) * w), SQLITE_STATIC));
        BIND(sqlite3_bind_text(q, 6, hash, -1, SQLITE_STATIC));
        if (rc != SQLITE_OK)
            break;
        rc = sqlite3_step(q);
        rc = rc == SQLITE_DONE ? SQLITE_OK : rc;
        sqlite3_reset(q);
        a = b;
    }
    sqlite3_finalize(q);
    free(buf);
    return rc;
}

/* The chunks of row id below `keep` that can stay as they are: whole
 * aligned chunks covering G(0..k-1) exactly.  Returns k (a multiple of
 * the chunk size), or 0 when anything looks unusual. */
static uint64_t reusable_prefix(sqlite3 *db, sqlite3_int64 id, uint64_t keep)
{
    sqlite3_stmt *q;
    uint64_t k = keep / SG_STORE_CHUNK_VALUES * SG_STORE_CHUNK_VALUES;
    sqlite3_int64 n = -1, total = -1, bad = -1;

    if (k == 0)
        return 0;
    if (sqlite3_prepare_v2(db,
                           "SELECT count(*), coalesce(sum(count), 0),"
                           " coalesce(sum(first % ?3 != 0 OR count != ?3),"
                           " 0) FROM chunks WHERE rule_id = ?1 AND first < ?2",
                           -1, &q, NULL) != SQLITE_OK)
        return 0;
    sqlite3_bind_int64(q, 1, id);
    sqlite3_bind_int64(q, 2, (sqlite3_int64)k);
    sqlite3_bind_int64(q, 3, SG_STORE_CHUNK_VALUES);
    if (sqlite3_step(q) == SQLITE_ROW) {
        n = sqlite3_column_int64(q, 0);
        total = sqlite3_column_int64(q, 1);
        bad = sqlite3_column_int64(q, 2);
    }
    sqlite3_finalize(q);
    if (bad != 0 || total != (sqlite3_int64)k ||
        n != (sqlite3_int64)(k / SG_STORE_CHUNK_VALUES))
        return 0;
    return k;
}

/* Whether the row (status, computed) knows at least as much as the new
 * result. */
static int existing_wins(int old_proven, uint64_t old_computed, int new_proven,
                         uint64_t new_computed)
{
    if (old_proven)
        return 1;
    if (new_proven)
        return 0;
    return old_computed >= new_computed;
}

sg_status sg_store_put(sg_store *st, const char *rule, const char *family,
                       const sg_result *res, const sg_seq *s,
                       const char *algorithm, double elapsed, sg_error *err)
{
    sqlite3_stmt *q = NULL;
    sqlite3_int64 id = -1;
    int proven = res->status != SG_UNRESOLVED;
    uint64_t stored, old_stored = 0, keep = 0;
    char now[24], created[24], sum[SG_FNV_TEXT];
    int rc, have_row = 0;
    sg_status r;

    if (st->readonly || !st->db)
        return refuse_write(st, err);
    stored = proven ? res->preperiod + res->period : s->n;
    if (proven && (res->period == 0 || stored > s->n))
        return sg_error_set(err, SG_E_INPUT, -1,
                            "cannot store %s: the values G(0..n0+p-1) are "
                            "not all known",
                            rule);
    now_iso(now);
    snprintf(created, sizeof created, "%s", now);
    sg_fnv_format(sum, res->checksum);

    if ((r = write_begin(st, err)))
        return r;

    /* What is there already? */
    rc = sqlite3_prepare_v2(st->db,
                            "SELECT id, status, computed, stored, created"
                            " FROM rules WHERE rule = ?",
                            -1, &q, NULL);
    if (rc != SQLITE_OK)
        goto sqlfail;
    sqlite3_bind_text(q, 1, rule, -1, SQLITE_STATIC);
    rc = sqlite3_step(q);
    if (rc == SQLITE_ROW) {
        const char *ost = (const char *)sqlite3_column_text(q, 1);
        const char *oc = (const char *)sqlite3_column_text(q, 4);
        int old_proven = ost && strcmp(ost, "unresolved") != 0;

        have_row = 1;
        id = sqlite3_column_int64(q, 0);
        old_stored = col_u64(q, 3);
        if (oc)
            snprintf(created, sizeof created, "%s", oc);
        if (existing_wins(old_proven, col_u64(q, 2), proven, s->n)) {
            sqlite3_finalize(q);
            exec(st->db, "COMMIT");
            return SG_OK;
        }
        rc = SQLITE_OK;
    } else if (rc == SQLITE_DONE) {
        rc = SQLITE_OK;
    }
    sqlite3_finalize(q);
    q = NULL;
    if (rc != SQLITE_OK)
        goto sqlfail;

    /* The row itself. */
    rc = sqlite3_prepare_v2(
        st->db,
        have_row
            ? "UPDATE rules SET family = ?2, status = ?3, preperiod = ?4,"
              " period = ?5, saltus = ?6, computed = ?7, certified_to = ?8,"
              " theorem = ?9, theorem_id = ?10, proof_start = ?11,"
              " proof_period = ?12, proof_saltus = ?13, checksum = ?14,"
              " note = ?15, stored = ?16, version = ?17, algorithm = ?18,"
              " elapsed = ?19, created = ?20, updated = ?21 WHERE rule = ?1"
            : "INSERT INTO rules (rule, family, status, preperiod, period,"
              " saltus, computed, certified_to, theorem, theorem_id,"
              " proof_start, proof_period, proof_saltus, checksum, note,"
              " stored, version, algorithm, elapsed, created, updated)"
              " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12,"
              " ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20, ?21)",
        -1, &q, NULL);
    if (rc != SQLITE_OK)
        goto sqlfail;
    /* A bind that runs out of memory (SQLITE_TRANSIENT copies) would
     * otherwise leave its column NULL in the stored row. */
    BIND(sqlite3_bind_text(q, 1, rule, -1, SQLITE_STATIC));
    BIND(sqlite3_bind_text(q, 2, family, -1, SQLITE_STATIC));
    BIND(sqlite3_bind_text(q, 3, sg_period_status_name(res->status), -1,
                           SQLITE_STATIC));
    BIND(bind_u64_or_null(q, 4, proven, res->preperiod));
    BIND(bind_u64_or_null(q, 5, proven, res->period));
    BIND(bind_u64_or_null(q, 6, proven, res->saltus));
    BIND(sqlite3_bind_int64(q, 7, (sqlite3_int64)s->n));
    BIND(bind_u64_or_null(q, 8, proven, res->certified_to));
    BIND(bind_text_or_null(q, 9, proven ? res->theorem : NULL));
    BIND(bind_text_or_null(q, 10, proven ? res->theorem_id : NULL));
    BIND(bind_u64_or_null(q, 11, proven, res->proof_start));
    BIND(bind_u64_or_null(q, 12, proven, res->proof_period));
    BIND(bind_u64_or_null(q, 13, proven, res->proof_saltus));
    BIND(bind_text_or_null(q, 14, proven ? sum : NULL));
    BIND(bind_text_or_null(q, 15, proven ? NULL : res->note));
    BIND(sqlite3_bind_int64(q, 16, (sqlite3_int64)stored));
    BIND(sqlite3_bind_text(q, 17, PACKAGE_VERSION, -1, SQLITE_STATIC));
    BIND(sqlite3_bind_text(q, 18, algorithm ? algorithm : "unknown", -1,
                           SQLITE_STATIC));
    BIND(sqlite3_bind_double(q, 19, elapsed));
    BIND(sqlite3_bind_text(q, 20, created, -1, SQLITE_STATIC));
    BIND(sqlite3_bind_text(q, 21, now, -1, SQLITE_STATIC));
    if (rc != SQLITE_OK)
        goto sqlfail;
    rc = sqlite3_step(q);
    sqlite3_finalize(q);
    q = NULL;
    if (rc != SQLITE_DONE)
        goto sqlfail;
    if (!have_row)
        id = sqlite3_last_insert_rowid(st->db);

    /* The values: keep the whole chunks both versions share, rewrite the
     * rest (values of a rule never change, only their number). */
    if (have_row)
        keep = reusable_prefix(st->db, id,
                               old_stored < stored ? old_stored : stored);
    rc = sqlite3_prepare_v2(st->db,
                            "DELETE FROM chunks WHERE rule_id = ?"
                            " AND first >= ?",
                            -1, &q, NULL);
    if (rc != SQLITE_OK)
        goto sqlfail;
    sqlite3_bind_int64(q, 1, id);
    sqlite3_bind_int64(q, 2, (sqlite3_int64)keep);
    rc = sqlite3_step(q);
    sqlite3_finalize(q);
    q = NULL;
    if (rc != SQLITE_DONE)
        goto sqlfail;
    rc = write_chunks(st->db, id, s, (size_t)keep, (size_t)stored);
sqlfail:
    /* q is still open only after a failed bind: finalizing a statement
     * that never ran leaves SQLite's message as it is. */
    if (q)
        sqlite3_finalize(q);
    return write_end(st, rc, "storing a rule", err);
}

sg_status sg_store_drop(sg_store *st, const char *rule, int *found,
                        sg_error *err)
{
    sqlite3_stmt *q = NULL;
    int rc;
    sg_status r;

    *found = 0;
    if (!st->db)
        return SG_OK;
    if ((r = write_begin(st, err)))
        return r;
    rc = sqlite3_prepare_v2(st->db,
                            "DELETE FROM chunks WHERE rule_id IN"
                            " (SELECT id FROM rules WHERE rule = ?1)",
                            -1, &q, NULL);
    if (rc == SQLITE_OK) {
        sqlite3_bind_text(q, 1, rule, -1, SQLITE_STATIC);
        rc = sqlite3_step(q);
        sqlite3_finalize(q);
        rc = rc == SQLITE_DONE ? SQLITE_OK : rc;
    }
    if (rc == SQLITE_OK)
        rc = sqlite3_prepare_v2(st->db, "DELETE FROM rules WHERE rule = ?1", -1,
                                &q, NULL);
    if (rc == SQLITE_OK) {
        sqlite3_bind_text(q, 1, rule, -1, SQLITE_STATIC);
        rc = sqlite3_step(q);
        sqlite3_finalize(q);
        if (rc == SQLITE_DONE) {
            *found = sqlite3_changes(st->db) > 0;
            rc = SQLITE_OK;
        }
    }
    if ((r = write_end(st, rc, "dropping a rule", err)))
        *found = 0;
    return r;
}

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
    now_iso(now);
    blob_hash(hash, blob, len);
    if ((r = write_begin(st, err)))
        return r;
    rc = exec(st->db, checkpoints_table);
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
    return write_end(st, rc, "storing a checkpoint", err);
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
    char want[SG_FNV_TEXT] = "";

    /* NULL for a value that is there: SQLite ran out of memory. */
    if ((!p && n > 0) || (!hash && has_hash) || (!key && has_key))
        return sg_error_set(err, SG_E_NOMEM, -1,
                            "out of memory while reading the checkpoint of "
                            "%s from cache %s",
                            rule, st->path);
    if (is_blob)
        blob_hash(want, p, n);
    /* The key is checked too: a damaged index can point the lookup at
     * another rule's row, whose hash is right. */
    if (!key || strcmp(key, rule) != 0 || !is_int || h < 0 || !is_blob ||
        !hash || strcmp(want, hash) != 0)
        return sg_error_set(err, SG_E_IO, -1,
                            "cache %s: the deep-run checkpoint of %s is "
                            "damaged; drop it with `sgexplore cache drop "
                            "'%s'`",
                            st->path, rule, rule);
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
    rc = exec(st->db, "BEGIN");
    if (rc == SQLITE_OK)
        rc = has_checkpoints(st->db, &have);
    if (rc == SQLITE_OK && have)
        rc = sqlite3_prepare_v2(st->db,
                                "SELECT rule, heaps, state, hash FROM"
                                " checkpoints WHERE rule = ?1",
                                -1, &q, NULL);
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
        r = db_error(err, st, rc, "looking a checkpoint up");
    sqlite3_finalize(q);
    rollback(st->db);
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
    rc = exec(st->db, "BEGIN");
    if (rc == SQLITE_OK)
        rc = has_checkpoints(st->db, &have);
    if (rc == SQLITE_OK && have)
        rc = sqlite3_prepare_v2(st->db,
                                "SELECT rule, heaps, stored FROM checkpoints"
                                " ORDER BY rule",
                                -1, &q, NULL);
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
    rollback(st->db);
    return rc == SQLITE_OK ? SG_OK
                           : db_error(err, st, rc, "listing the checkpoints");
}

sg_status sg_store_checkpoint_drop(sg_store *st, const char *rule, int *found,
                                   sg_error *err)
{
    sqlite3_stmt *q;
    int rc, have = 0;
    sg_status r;

    *found = 0;
    if (!st->db)
        return SG_OK;
    if ((r = write_begin(st, err)))
        return r;
    rc = has_checkpoints(st->db, &have);
    if (rc == SQLITE_OK && have)
        rc = sqlite3_prepare_v2(
            st->db, "DELETE FROM checkpoints WHERE rule = ?1", -1, &q, NULL);
    if (rc == SQLITE_OK && have) {
        sqlite3_bind_text(q, 1, rule, -1, SQLITE_STATIC);
        rc = sqlite3_step(q);
        sqlite3_finalize(q);
        if (rc == SQLITE_DONE) {
            *found = sqlite3_changes(st->db) > 0;
            rc = SQLITE_OK;
        }
    }
    if ((r = write_end(st, rc, "dropping a checkpoint", err)))
        *found = 0;
    return r;
}
