/*
 * store.c - the SQLite cache of analysed rules: its schema, opening a file
 * (checked read-only before anything is written, so a foreign or damaged
 * file is reported and never touched), the upgrade of older schema
 * versions, and what the rows (store_rows.c) and the deep runs'
 * checkpoints (store_checkpoint.c) share: the SQL helpers, the error
 * wording and the write transactions (one IMMEDIATE transaction in WAL
 * mode each, so concurrent sgexplore processes share a cache safely).
 * The schema is documented for users in docs/CACHE.md; keep the two in
 * step.
 */
#define _DEFAULT_SOURCE
#include "store_impl.h"

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

/* ------------------------------------------------------------------ */
/* Schema                                                               */
/* ------------------------------------------------------------------ */

/* The tables of versions 1 and 2 (version 3 adds schema_v3's, version 4
 * schema_v4's column).  Any
 * change here needs a new
 * SG_STORE_SCHEMA_VERSION, an upgrade path in init_schema and an update of
 * docs/CACHE.md.  The one compatible exception is the optional
 * checkpoints table (store_checkpoint.c). */
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

/* Version 3's addition: the misère results (store_misere.c), one row
 * per rule keyed by the same canonical text as rules.rule; every column
 * but the key and the times belongs to one of its two parts (genus_*,
 * quot_*), NULL while that part was never stored. */
static const char schema_v3[] =
    "CREATE TABLE IF NOT EXISTS misere ("
    " rule TEXT PRIMARY KEY,"
    " genus_heaps INTEGER,"
    " genus_asked INTEGER,"
    " genus_budget INTEGER,"
    " genus_tame_to INTEGER,"
    " genus_positions INTEGER,"
    " genus_stopped TEXT,"
    " genus TEXT,"
    " exponents TEXT,"
    " genus_hash TEXT,"
    " quot_heaps INTEGER,"
    " quot_order INTEGER,"
    " quot_orders TEXT,"
    " quot_trans BLOB,"
    " quot_p BLOB,"
    " quot_tests TEXT,"
    " quot_asked INTEGER,"
    " quot_max_order INTEGER,"
    " quot_budget INTEGER,"
    " quot_stopped_at INTEGER,"
    " quot_stopped TEXT,"
    " quot_states INTEGER,"
    " quot_positions INTEGER,"
    " quot_fast_heaps INTEGER,"
    " quot_runs INTEGER,"
    " quot_hash TEXT,"
    " version TEXT NOT NULL,"
    " created TEXT NOT NULL,"
    " updated TEXT NOT NULL,"
    " CHECK ((genus_heaps IS NULL) = (exponents IS NULL)),"
    " CHECK ((quot_heaps IS NULL) = (quot_trans IS NULL)));";

/* Version 4's addition: the form a rule was given in, when it differs
 * from its canonical key (sg_store_given). */
static const char schema_v4[] = "ALTER TABLE rules ADD COLUMN given TEXT;";

/* ------------------------------------------------------------------ */
/* Errors                                                               */
/* ------------------------------------------------------------------ */

const char *sgi_store_quote(char q[SGI_STORE_QUOTE], const char *key)
{
    sg_escape(q, SGI_STORE_QUOTE, key ? key : "(unnamed)", 0);
    return q;
}

/* An SG_E_IO error about the cache file, worded after SQLite's code. */
sg_status sgi_store_db_error(sg_error *err, const sg_store *st, int rc,
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
int sgi_store_exec(sqlite3 *db, const char *sql)
{
    return sqlite3_exec(db, sql, NULL, NULL, NULL);
}

/* One integer from a query such as a PRAGMA; returns the SQLite code. */
int sgi_store_query_int(sqlite3 *db, const char *sql, sqlite3_int64 *out)
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
void sgi_store_rollback(sqlite3 *db)
{
    int tries;

    /* ROLLBACK itself needs memory to be prepared: a failure there would
     * leave the connection inside the transaction, and every later write
     * would fail.  A few more tries get past a passing shortage. */
    for (tries = 0; tries < 4 && !sqlite3_get_autocommit(db); tries++)
        sgi_store_exec(db, "ROLLBACK");
}

int sgi_store_read_begin(sg_store *st)
{
    return st->batch ? SQLITE_OK : sgi_store_exec(st->db, "BEGIN");
}

void sgi_store_read_end(sg_store *st)
{
    if (!st->batch)
        sgi_store_rollback(st->db);
}

int sgi_store_run_rule(sqlite3 *db, const char *sql, const char *rule,
                       int *changed)
{
    sqlite3_stmt *q;
    int rc = sqlite3_prepare_v2(db, sql, -1, &q, NULL);

    if (rc != SQLITE_OK)
        return rc;
    sqlite3_bind_text(q, 1, rule, -1, SQLITE_STATIC);
    rc = sqlite3_step(q);
    sqlite3_finalize(q);
    if (rc != SQLITE_DONE)
        return rc;
    if (changed)
        *changed = sqlite3_changes(db) > 0;
    return SQLITE_OK;
}

/* Whether the optional checkpoints table exists. */
int sgi_store_has_checkpoints(sqlite3 *db, int *yes)
{
    sqlite3_int64 n = 0;
    int rc =
        sgi_store_query_int(db,
                            "SELECT count(*) FROM sqlite_master WHERE type ="
                            " 'table' AND name = 'checkpoints'",
                            &n);

    *yes = n > 0;
    return rc;
}

void sgi_store_now(char out[24])
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
char *sgi_store_dup_text(sqlite3_stmt *q, int col, int *nomem)
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

uint64_t sgi_store_col_u64(sqlite3_stmt *q, int col)
{
    sqlite3_int64 v = sqlite3_column_int64(q, col);
    return v < 0 ? 0 : (uint64_t)v;
}

int sgi_store_bind_u64(sqlite3_stmt *q, int i, int have, uint64_t v)
{
    if (!have)
        return sqlite3_bind_null(q, i);
    return sqlite3_bind_int64(q, i, (sqlite3_int64)v);
}

int sgi_store_bind_text(sqlite3_stmt *q, int i, const char *s)
{
    if (!s)
        return sqlite3_bind_null(q, i);
    return sqlite3_bind_text(q, i, s, -1, SQLITE_TRANSIENT);
}

/* FNV-1a (64-bit) of a chunk's or a checkpoint's bytes, as "fnv1a64:" and
 * 16 hex digits: catches damage inside blobs, which SQLite does not
 * check. */
void sgi_store_hash(char out[SG_FNV_TEXT], const void *p, size_t n)
{
    sgi_fnv_format(out, sgi_fnv1a(SG_FNV_OFFSET, p, n));
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
    rc = sgi_store_query_int(db, "PRAGMA schema_version", &sv);
    if (rc == SQLITE_OK)
        rc = sgi_store_query_int(db, "PRAGMA application_id", &app);
    if (rc == SQLITE_OK)
        rc = sgi_store_query_int(db, "PRAGMA user_version", &uv);
    if (rc != SQLITE_OK)
        return sgi_store_db_error(err, st, rc, "reading its header");
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
    rc = sgi_store_query_int(
        db,
        "SELECT count(*) FROM sqlite_master WHERE type = 'table'"
        " AND name IN ('rules', 'chunks')",
        &tables);
    if (rc != SQLITE_OK)
        return sgi_store_db_error(err, st, rc, "reading its schema");
    if (tables == 2 && uv >= 3) {
        /* version 3 has the misere table */
        rc = sgi_store_query_int(db,
                                 "SELECT count(*) + 2 FROM sqlite_master"
                                 " WHERE type = 'table' AND name = 'misere'",
                                 &tables);
        if (rc != SQLITE_OK)
            return sgi_store_db_error(err, st, rc, "reading its schema");
        tables = tables == 3 ? 2 : 0;
    }
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
        return sgi_store_db_error(err, st, rc, "checking it");
    return SG_OK;
}

/* The wait for another process's lock, in milliseconds: BUSY_TIMEOUT_MS
 * or $SGEXPLORE_LOCK_TIMEOUT. */
static int lock_timeout_ms(void)
{
    const char *env = getenv("SGEXPLORE_LOCK_TIMEOUT");
    int ms = BUSY_TIMEOUT_MS;

    if (env && *env) {
        char *end;
        unsigned long v = strtoul(env, &end, 10);
        if (*end == '\0' && env[0] != '-' && v <= BUSY_TIMEOUT_MAX_S)
            ms = (int)v * 1000;
    }
    return ms;
}

/* Per-connection settings. */
static void configure(sqlite3 *db)
{
    sqlite3_busy_timeout(db, lock_timeout_ms());
    sqlite3_extended_result_codes(db, 1);
    sgi_store_exec(db, "PRAGMA foreign_keys = ON");
}

/* Version 1 to version 2 (V1_RULE above), inside the caller's write
 * transaction: every row's texts and the checkpoint of Nim. */
static int upgrade_v1(sqlite3 *db)
{
    int rc, yes = 0;

    rc = sgi_store_exec(db, "UPDATE rules SET rule = " V1_RULE
                            ", family = " V1_FAMILY " WHERE rule <> " V1_RULE
                            " OR family <> " V1_FAMILY);
    if (rc == SQLITE_OK)
        rc = sgi_store_has_checkpoints(db, &yes);
    if (rc == SQLITE_OK && yes)
        rc = sgi_store_exec(db, "UPDATE checkpoints SET rule = 'nim'"
                                " WHERE rule = 'all-but{}'");
    return rc;
}

/* Version 1, 2 or 3 to version 4, inside the caller's write
 * transaction: version 1's texts first (upgrade_v1), then the misere
 * table, then the given column, then the version. */
static int upgrade(sqlite3 *db, int from)
{
    int rc = from < 2 ? upgrade_v1(db) : SQLITE_OK;

    if (rc == SQLITE_OK)
        rc = sgi_store_exec(db, schema_v3);
    if (rc == SQLITE_OK && from < 4) {
        /* a file a later version wrote and an older one relabelled may
         * have the column already */
        sqlite3_int64 has = 0;
        rc = sgi_store_query_int(db,
                                 "SELECT count(*) FROM pragma_table_info("
                                 "'rules') WHERE name = 'given'",
                                 &has);
        if (rc == SQLITE_OK && !has)
            rc = sgi_store_exec(db, schema_v4);
    }
    if (rc == SQLITE_OK)
        rc = sgi_store_exec(db, "PRAGMA user_version = 4");
    return rc;
}

/* End init_schema's transaction: commit when rc (its first failure) is
 * SQLITE_OK, and the file then has this schema; otherwise roll back and
 * report `doing`, or set *denied when the file turned out not writable. */
static sg_status schema_commit(sg_store *st, int rc, int *denied,
                               const char *doing, sg_error *err)
{
    if (rc == SQLITE_OK)
        rc = sgi_store_exec(st->db, "COMMIT");
    if (rc == SQLITE_OK) {
        st->schema = SG_STORE_SCHEMA_VERSION;
        return SG_OK;
    }
    sgi_store_rollback(st->db);
    if (is_readonly_code(rc)) {
        *denied = 1;
        return SG_OK;
    }
    return sgi_store_db_error(err, st, rc, doing);
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
    int rc, empty, tries;
    sg_status s;
    char sql[160];
    sqlite3_stmt *q;

    *denied = 0;
    if (!create && st->schema >= SG_STORE_SCHEMA_VERSION)
        goto wal; /* checked read-only already: a cache of our schema */
    rc = sgi_store_exec(st->db, "BEGIN IMMEDIATE");
    if (rc != SQLITE_OK) {
        if (is_readonly_code(rc)) {
            *denied = 1;
            return SG_OK;
        }
        return sgi_store_db_error(err, st, rc, "opening it for writing");
    }
    s = check_file(st, st->db, 0, &empty, err);
    if (s) {
        sgi_store_rollback(st->db);
        return s;
    }
    if (empty) {
        rc = sgi_store_exec(st->db, schema_v1);
        if (rc == SQLITE_OK)
            rc = sgi_store_exec(st->db, schema_v3);
        if (rc == SQLITE_OK)
            rc = sgi_store_exec(st->db, schema_v4);
        if (rc == SQLITE_OK) {
            snprintf(sql, sizeof sql,
                     "PRAGMA application_id = %d; PRAGMA user_version = %d",
                     SG_STORE_APPLICATION_ID, SG_STORE_SCHEMA_VERSION);
            rc = sgi_store_exec(st->db, sql);
        }
        s = schema_commit(st, rc, denied, "creating its tables", err);
        if (s || *denied)
            return s;
    } else if (st->schema < SG_STORE_SCHEMA_VERSION) {
        s = schema_commit(st, upgrade(st->db, st->schema), denied,
                          "upgrading it to schema version 4", err);
        if (s || *denied)
            return s;
    } else if (sgi_store_exec(st->db, "COMMIT") != SQLITE_OK) {
        sgi_store_rollback(st->db);
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
    /* The switch needs the file to itself, and SQLite answers SQLITE_BUSY
     * at once, without its busy handler, when another process opening the
     * same new file holds a read lock meanwhile (four processes starting
     * on one new cache met it): retried every 10 ms up to the lock
     * timeout. */
    for (tries = lock_timeout_ms() / 10;; tries--) {
        rc = sqlite3_prepare_v2(st->db, "PRAGMA journal_mode = WAL", -1, &q,
                                NULL);
        if (rc == SQLITE_OK) {
            rc = sqlite3_step(q);
            if (rc == SQLITE_ROW) {
                const char *mode = (const char *)sqlite3_column_text(q, 0);
                rc = mode && strcmp(mode, "wal") == 0 ? SQLITE_OK
                                                      : SQLITE_READONLY;
            }
            sqlite3_finalize(q);
        }
        if ((rc & 0xff) != SQLITE_BUSY || tries <= 0)
            break;
        sqlite3_sleep(10);
    }
    if (rc != SQLITE_OK) {
        if (is_readonly_code(rc)) {
            *denied = 1;
            return SG_OK;
        }
        return sgi_store_db_error(err, st, rc, "switching it to WAL mode");
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
        rc = sgi_store_query_int(*db, "PRAGMA schema_version", &sv);
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

void *sgi_store_sqlite(sg_store *st)
{
    return st->db;
}

/* ------------------------------------------------------------------ */
/* Writing                                                              */
/* ------------------------------------------------------------------ */

sg_status sgi_store_refuse_write(sg_store *st, sg_error *err)
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
        return sgi_store_refuse_write(st, err);
    }
    return sgi_store_db_error(err, st, rc, doing);
}

/* Start a write: one IMMEDIATE transaction, which waits for other
 * writers up to the busy timeout.  Refused on a read-only cache. */
sg_status sgi_store_write_begin(sg_store *st, sg_error *err)
{
    int rc;

    if (st->readonly || !st->db)
        return sgi_store_refuse_write(st, err);
    if (st->batch > 0)
        return SG_OK;
    if (st->batch < 0)
        return sg_error_set(err, SG_E_IO, -1,
                            "an earlier write of this batch to %s failed; "
                            "nothing of the batch was stored",
                            st->path);
    rc = sgi_store_exec(st->db, "BEGIN IMMEDIATE");
    if (rc != SQLITE_OK)
        return write_failed(st, rc, "starting a write", err);
    return SG_OK;
}

/* End a write begun by write_begin: commit when rc (the first failure of
 * its statements) is SQLITE_OK; otherwise, or when the commit fails,
 * report it and roll back, so that nothing of it stays in the file. */
sg_status sgi_store_write_end(sg_store *st, int rc, const char *doing,
                              sg_error *err)
{
    sg_status r;

    if (rc == SQLITE_OK && st->batch > 0)
        return SG_OK;
    if (rc == SQLITE_OK)
        rc = sgi_store_exec(st->db, "COMMIT");
    if (rc == SQLITE_OK)
        return SG_OK;
    /* The message first: the rollback would replace SQLite's. */
    r = write_failed(st, rc, doing, err);
    sgi_store_rollback(st->db);
    if (st->batch > 0)
        st->batch = -1;
    return r;
}

sg_status sg_store_batch_begin(sg_store *st, sg_error *err)
{
    sg_status r;

    if (st->batch)
        return sg_error_set(err, SG_E_INPUT, -1,
                            "a batch of writes to %s is already open",
                            st->path);
    if ((r = sgi_store_write_begin(st, err)))
        return r;
    st->batch = 1;
    return SG_OK;
}

sg_status sg_store_batch_end(sg_store *st, int commit, sg_error *err)
{
    int was = st->batch;

    st->batch = 0;
    if (was < 0)
        return commit ? sg_error_set(err, SG_E_IO, -1,
                                     "a write of the batch to %s failed; "
                                     "nothing of the batch was stored",
                                     st->path)
                      : SG_OK;
    if (was == 0)
        return sg_error_set(err, SG_E_INPUT, -1,
                            "no batch of writes to %s is open", st->path);
    if (!commit) {
        sgi_store_rollback(st->db);
        return SG_OK;
    }
    return sgi_store_write_end(st, SQLITE_OK, "committing the batch", err);
}
