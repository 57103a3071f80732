/*
 * store_impl.h - internal to libsg: what the three files of the cache
 * share (store.c: schema, opening and upgrades, SQL helpers, write
 * transactions; store_rows.c: the rules' rows and values;
 * store_checkpoint.c: the deep runs' checkpoints).
 */
#ifndef SG_STORE_IMPL_H
#define SG_STORE_IMPL_H

#include "sgexplore.h"
#include "base/fnv.h"

#include <stdint.h>

#include <sqlite3.h>

#ifndef PACKAGE_VERSION
#define PACKAGE_VERSION "unknown"
#endif

struct sg_store {
    sqlite3 *db; /* NULL when there is no file (and none could be made) */
    char *path;
    int readonly;  /* writes are refused */
    int schema;    /* the file's user_version (0 until known) */
    int batch;     /* 1: inside sg_store_batch_begin's transaction, every
                      write joins it; -1: a write of it failed and the
                      whole batch was rolled back; 0: none */
    char why[600]; /* why, naming the file or directory */
};

/* The underlying sqlite3 connection (NULL when there is no file), for
 * the tests that run their own SQL on a cache. */
void *sgi_store_sqlite(sg_store *db);

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

/* Run one sqlite3_bind_* call unless an earlier one failed; rc keeps the
 * first failure. */
#define BIND(call)                                                             \
    do {                                                                       \
        if (rc == SQLITE_OK)                                                   \
            rc = (call);                                                       \
    } while (0)

/* An SG_E_IO error about the cache file, worded after SQLite's code (or
 * SG_E_NOMEM), saying what was being done. */
sg_status sgi_store_db_error(sg_error *err, const sg_store *st, int rc,
                             const char *doing);

/* Room for a key quoted in a message (sgi_store_quote). */
#define SGI_STORE_QUOTE 160

/* A rule key as a message quotes it: escaped (sg_escape) and cut with
 * "..." to fit q, since the key may come from a cache that travelled.
 * Returns q. */
const char *sgi_store_quote(char q[SGI_STORE_QUOTE], const char *key);

/* Run SQL without results; returns the SQLite code. */
int sgi_store_exec(sqlite3 *db, const char *sql);

/* One integer from a query such as a PRAGMA; returns the SQLite code. */
int sgi_store_query_int(sqlite3 *db, const char *sql, sqlite3_int64 *out);

/* End a read or failed write transaction, whatever state it is in. */
void sgi_store_rollback(sqlite3 *db);

/* A read transaction (one snapshot for several statements), and its
 * end; inside a batch the reads join the batch's transaction, which they
 * neither begin nor end.  The SQLite code. */
int sgi_store_read_begin(sg_store *st);
void sgi_store_read_end(sg_store *st);

/* Run sql, a statement whose one parameter ?1 is `rule` (a DELETE), to
 * its end: the SQLite code, SQLITE_OK when done; *changed (may be NULL)
 * says whether it changed a row. */
int sgi_store_run_rule(sqlite3 *db, const char *sql, const char *rule,
                       int *changed);

/* Whether the optional checkpoints table exists (*yes); the SQLite code. */
int sgi_store_has_checkpoints(sqlite3 *db, int *yes);

/* The current time, UTC, as "YYYY-MM-DDTHH:MM:SSZ". */
void sgi_store_now(char out[24]);

/* A malloc'd copy of a text column, or NULL for SQL NULL (*nomem set
 * when memory ran out). */
char *sgi_store_dup_text(sqlite3_stmt *q, int col, int *nomem);

/* An integer column as uint64_t (0 for NULL or a negative number). */
uint64_t sgi_store_col_u64(sqlite3_stmt *q, int col);

/* Bind v, or NULL when !have; a text, or NULL for NULL. */
int sgi_store_bind_u64(sqlite3_stmt *q, int i, int have, uint64_t v);
int sgi_store_bind_text(sqlite3_stmt *q, int i, const char *s);

/* FNV-1a of a chunk's or a checkpoint's bytes, as "fnv1a64:" and 16 hex
 * digits. */
void sgi_store_hash(char out[SG_FNV_TEXT], const void *p, size_t n);

/* Writes: refused on a read-only cache (naming why); begun as one
 * IMMEDIATE transaction; ended by a commit when rc is SQLITE_OK, else
 * reported (doing: what was being written) and rolled back.  Inside a
 * batch (sg_store_batch_begin) a write joins the batch's transaction: its
 * end commits nothing, and its failure rolls the whole batch back. */
sg_status sgi_store_refuse_write(sg_store *st, sg_error *err);
sg_status sgi_store_write_begin(sg_store *st, sg_error *err);
sg_status sgi_store_write_end(sg_store *st, int rc, const char *doing,
                              sg_error *err);

/* sg_store_checkpoint_put with the state split into parts of `part`
 * bytes when it is larger (the public call: 256 MiB; the tests split
 * small states). */
sg_status sgi_store_checkpoint_put_split(sg_store *st, const char *rule,
                                         uint64_t heaps, const void *blob,
                                         size_t len, size_t part,
                                         sg_error *err);

#endif /* SG_STORE_IMPL_H */
