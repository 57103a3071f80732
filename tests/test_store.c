/*
 * test_store.c - unit tests of the SQLite cache (src/store.c) on temporary
 * databases under $TMPDIR (the build tree during `make check`), never the
 * user's cache: round trips of every field and of values of every width
 * across chunk boundaries, the on-disk format (little-endian chunks, the
 * documented pragmas), extension of a stored prefix compared with the
 * reference implementation, the rule for which row wins, refusal of
 * foreign, corrupt and newer files (left byte-for-byte untouched),
 * read-only caches, a full disk and concurrent writers; deep-run
 * checkpoints (round trips, replacement, files without their table,
 * damage, refused writes).
 */
#define _DEFAULT_SOURCE
#include "testutil.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <sqlite3.h>

#include "sgexplore.h"
#include "store/store_impl.h" /* sgi_store_checkpoint_put_split */

/* ------------------------------------------------------------------ */
/* Helpers                                                              */
/* ------------------------------------------------------------------ */

static void write_file(const char *path, const void *data, size_t len)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(data, 1, len, f), len);
    assert_int_equal(fclose(f), 0);
}

static sg_store *open_ok(const char *path)
{
    sg_store *db = NULL;
    sg_error err;

    memset(&err, 0, sizeof err);
    if (sg_store_open(&db, path, 0, &err) != SG_OK)
        fail_msg("sg_store_open(%s): %s", path, err.msg);
    assert_false(sg_store_readonly(db, NULL));
    return db;
}

/* Run SQL on a separate connection (as a user with sqlite3 would). */
static void sql(const char *path, const char *text)
{
    sqlite3 *db;
    char *msg = NULL;

    assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
    if (sqlite3_exec(db, text, NULL, NULL, &msg) != SQLITE_OK)
        fail_msg("%s: %s", text, msg);
    sqlite3_close(db);
}

static long long sql_int(const char *path, const char *text)
{
    sqlite3 *db;
    sqlite3_stmt *q;
    long long v = -1;

    assert_int_equal(sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL),
                     SQLITE_OK);
    assert_int_equal(sqlite3_prepare_v2(db, text, -1, &q, NULL), SQLITE_OK);
    if (sqlite3_step(q) == SQLITE_ROW)
        v = sqlite3_column_int64(q, 0);
    sqlite3_finalize(q);
    sqlite3_close(db);
    return v;
}

/* An unresolved result for values computed by hand. */
static sg_result unresolved(const sg_seq *s)
{
    sg_result r;
    memset(&r, 0, sizeof r);
    r.status = SG_UNRESOLVED;
    r.computed = s->n;
    r.note = "test note";
    return r;
}

static void assert_iso_time(const char *t)
{
    /* "YYYY-MM-DDTHH:MM:SSZ" */
    assert_int_equal(strlen(t), 20);
    assert_true(t[4] == '-' && t[7] == '-' && t[10] == 'T' && t[13] == ':' &&
                t[16] == ':' && t[19] == 'Z');
}

/* ------------------------------------------------------------------ */
/* Round trips                                                          */
/* ------------------------------------------------------------------ */

/* An unresolved prefix of 2.5 chunks: the first chunk needs 1 byte per
 * value, the second 2, the third 4; every value and field comes back. */
static void test_roundtrip_unresolved_widths(void **state)
{
    const tu_tmp *tmp = *state;
    const char *path = tmp->path;
    size_t n = 2 * SG_STORE_CHUNK_VALUES + SG_STORE_CHUNK_VALUES / 2, i;
    sg_seq s, back;
    sg_result res;
    sg_store *db;
    sg_store_entry e;
    sg_error err;
    tu_rng g;
    int found;

    tu_rng_init(&g, 1);
    sg_seq_init(&s);
    sg_seq_init(&back);
    for (i = 0; i < n; i++) {
        sg_value v = (sg_value)tu_range(&g, 0, 255);
        if (i >= SG_STORE_CHUNK_VALUES)
            v = (sg_value)tu_range(&g, 0, 65535);
        if (i >= 2 * SG_STORE_CHUNK_VALUES)
            v = (sg_value)tu_next(&g);
        if (i == SG_STORE_CHUNK_VALUES + 5)
            v = 65535;
        if (i == 2 * SG_STORE_CHUNK_VALUES + 7)
            v = UINT32_MAX;
        assert_int_equal(sg_seq_append(&s, v, NULL), SG_OK);
    }
    res = unresolved(&s);
    db = open_ok(path);
    assert_int_equal(
        sg_store_put(db, "0.1234", "octal", &res, &s, "naive", 12.5, &err),
        SG_OK);
    sg_store_close(db);

    db = open_ok(path);
    sg_store_entry_init(&e);
    assert_int_equal(sg_store_get(db, "0.1234", &e, &back, &found, &err),
                     SG_OK);
    assert_true(found);
    assert_string_equal(e.rule, "0.1234");
    assert_string_equal(e.family, "octal");
    assert_int_equal(e.res.status, SG_UNRESOLVED);
    assert_int_equal(e.res.computed, n);
    assert_int_equal(e.stored, n);
    assert_string_equal(e.note, "test note");
    assert_ptr_equal(e.res.note, e.note);
    assert_null(e.theorem);
    assert_string_equal(e.version, PACKAGE_VERSION);
    assert_string_equal(e.algorithm, "naive");
    assert_true(e.elapsed == 12.5);
    assert_iso_time(e.created);
    assert_iso_time(e.updated);
    assert_int_equal(back.n, n);
    for (i = 0; i < n; i++)
        if (sg_seq_get(&back, i) != sg_seq_get(&s, i))
            fail_msg("value %zu: %u stored, %u read back", i,
                     (unsigned)sg_seq_get(&s, i),
                     (unsigned)sg_seq_get(&back, i));
    assert_int_equal(back.max, UINT32_MAX);

    /* Absent rules are absent. */
    assert_int_equal(sg_store_get(db, "0.4321", &e, NULL, &found, &err), SG_OK);
    assert_false(found);
    sg_store_close(db);

    /* The documented format: three chunks, widths 1, 2, 4, aligned. */
    assert_int_equal(sql_int(path, "SELECT count(*) FROM chunks"), 3);
    assert_int_equal(sql_int(path, "SELECT width FROM chunks WHERE first=0"),
                     1);
    assert_int_equal(sql_int(path, "SELECT width FROM chunks WHERE first="
                                   "1048576"),
                     2);
    assert_int_equal(sql_int(path, "SELECT width FROM chunks WHERE first="
                                   "2097152"),
                     4);
    assert_int_equal(sql_int(path, "PRAGMA application_id"),
                     SG_STORE_APPLICATION_ID);
    assert_int_equal(sql_int(path, "PRAGMA user_version"),
                     SG_STORE_SCHEMA_VERSION);
    sg_store_entry_clear(&e);
    sg_seq_clear(&s);
    sg_seq_clear(&back);
}

/* The blobs are little-endian whatever the machine: decode one chunk by
 * hand with SQL byte arithmetic. */
static void test_chunk_byte_order(void **state)
{
    const tu_tmp *tmp = *state;
    const char *path = tmp->path;
    sg_seq s;
    sg_result res;
    sg_store *db;
    sg_error err;
    sqlite3 *h;
    sqlite3_stmt *q;
    const unsigned char *b;

    sg_seq_init(&s);
    assert_int_equal(sg_seq_append(&s, 0x01020304u, NULL), SG_OK);
    assert_int_equal(sg_seq_append(&s, 7, NULL), SG_OK);
    res = unresolved(&s);
    db = open_ok(path);
    assert_int_equal(
        sg_store_put(db, "0.5", "octal", &res, &s, "naive", 0, &err), SG_OK);
    sg_store_close(db);
    assert_int_equal(sqlite3_open(path, &h), SQLITE_OK);
    assert_int_equal(sqlite3_prepare_v2(h,
                                        "SELECT width, count, data, hash "
                                        "FROM chunks",
                                        -1, &q, NULL),
                     SQLITE_OK);
    assert_int_equal(sqlite3_step(q), SQLITE_ROW);
    assert_int_equal(sqlite3_column_int(q, 0), 4);
    assert_int_equal(sqlite3_column_int(q, 1), 2);
    assert_int_equal(sqlite3_column_bytes(q, 2), 8);
    b = sqlite3_column_blob(q, 2);
    assert_int_equal(b[0], 0x04);
    assert_int_equal(b[1], 0x03);
    assert_int_equal(b[2], 0x02);
    assert_int_equal(b[3], 0x01);
    assert_int_equal(b[4], 7);
    assert_int_equal(b[5] | b[6] | b[7], 0);
    {
        /* FNV-1a 64 of the 8 bytes, computed here independently. */
        uint64_t x = 0xcbf29ce484222325ULL;
        char want[32];
        for (int i = 0; i < 8; i++) {
            x ^= b[i];
            x *= 0x100000001b3ULL;
        }
        snprintf(want, sizeof want, "fnv1a64:%016llx", (unsigned long long)x);
        assert_string_equal((const char *)sqlite3_column_text(q, 3), want);
    }
    sqlite3_finalize(q);
    sqlite3_close(h);
    sg_seq_clear(&s);
}

/* A proven rule keeps only G(0..n0+p-1); reading it back rebuilds every
 * computed value through the period, equal to the reference values, with
 * the whole certificate intact. */
static void test_roundtrip_proven(void **state)
{
    static const char *codes[] = {"0.77", "0.07", "0.137", "4.07"};
    const tu_tmp *tmp = *state;
    const char *path = tmp->path;
    sg_store *db = open_ok(path);
    sg_error err;
    size_t k, i;

    for (k = 0; k < sizeof codes / sizeof *codes; k++) {
        tu_game gm;
        sg_store_entry e;
        sg_seq back;
        int found;

        tu_game_init(&gm, codes[k], 100000, 0);
        if (gm.res.status == SG_UNRESOLVED) {
            tu_game_clear(&gm);
            continue;
        }
        free(gm.ref);
        gm.nref = gm.s.n;
        gm.ref = malloc(gm.nref * sizeof *gm.ref);
        {
            ref_rule ref;
            assert_int_equal(ref_rule_from_code(&ref, codes[k]), 0);
            ref_values(gm.ref, gm.nref, &ref);
        }
        assert_int_equal(sg_store_put(db, gm.canon, sg_rule_family(&gm.r),
                                      &gm.res, &gm.s, "sparse", 0.25, &err),
                         SG_OK);
        assert_int_equal(sql_int(path, "SELECT max(stored = preperiod + "
                                       "period) FROM rules"),
                         1);
        sg_store_entry_init(&e);
        sg_seq_init(&back);
        assert_int_equal(sg_store_get(db, gm.canon, &e, &back, &found, &err),
                         SG_OK);
        assert_true(found);
        assert_int_equal(e.stored, gm.res.preperiod + gm.res.period);
        assert_int_equal(e.res.status, gm.res.status);
        assert_int_equal(e.res.preperiod, gm.res.preperiod);
        assert_int_equal(e.res.period, gm.res.period);
        assert_int_equal(e.res.saltus, gm.res.saltus);
        assert_int_equal(e.res.certified_to, gm.res.certified_to);
        assert_int_equal(e.res.computed, gm.s.n);
        assert_int_equal(e.res.checksum, gm.res.checksum);
        assert_int_equal(e.res.proof_start, gm.res.proof_start);
        assert_int_equal(e.res.proof_period, gm.res.proof_period);
        assert_int_equal(e.res.proof_saltus, gm.res.proof_saltus);
        assert_string_equal(e.res.theorem, gm.res.theorem);
        if (gm.res.theorem_id)
            assert_string_equal(e.res.theorem_id, gm.res.theorem_id);
        assert_null(e.res.note);
        assert_string_equal(e.family, sg_rule_family(&gm.r));
        assert_string_equal(e.algorithm, "sparse");
        assert_int_equal(back.n, gm.s.n);
        for (i = 0; i < back.n; i++)
            if (sg_seq_get(&back, i) != gm.ref[i])
                fail_msg("%s: G(%zu) = %u read back, reference %u", codes[k], i,
                         (unsigned)sg_seq_get(&back, i), (unsigned)gm.ref[i]);
        assert_int_equal(sg_checksum(&back, (size_t)e.res.certified_to + 1),
                         gm.res.checksum);
        sg_store_entry_clear(&e);
        sg_seq_clear(&back);
        tu_game_clear(&gm);
    }
    sg_store_close(db);
}

/* An arithmetic-periodic rule (all-but games) comes back with its saltus,
 * and the values rebuilt past n0+p grow by it. */
static void test_roundtrip_arith(void **state)
{
    const tu_tmp *tmp = *state;
    const char *path = tmp->path;
    sg_store *db = open_ok(path);
    sg_rule r;
    sg_seq s, back;
    sg_result res;
    sg_store_entry e;
    sg_error err;
    char *canon;
    int found;
    size_t i;

    sg_rule_init(&r);
    sg_seq_init(&s);
    sg_seq_init(&back);
    sg_store_entry_init(&e);
    assert_int_equal(sg_rule_parse(&r, SG_SYNTAX_ALLBUT, "1,3", &err), SG_OK);
    canon = sg_rule_canonical(&r);
    assert_int_equal(sg_analyse(&res, &s, &r, 5000, NULL, &err), SG_OK);
    if (res.status != SG_ARITH_PERIODIC) {
        sg_store_close(db);
        free(canon);
        sg_rule_clear(&r);
        sg_seq_clear(&s);
        skip();
    }
    assert_int_equal(sg_store_put(db, canon, "all-but", &res, &s, "x", 1, &err),
                     SG_OK);
    assert_int_equal(sg_store_get(db, canon, &e, &back, &found, &err), SG_OK);
    assert_true(found);
    assert_int_equal(e.res.status, SG_ARITH_PERIODIC);
    assert_int_equal(e.res.saltus, res.saltus);
    assert_int_equal(back.n, s.n);
    {
        /* Independent: the all-but{1,3} game straight from its definition
         * (any removal except 1 and 3). */
        uint64_t excl[] = {1, 3};
        static ref_rule ref;
        uint32_t *g = malloc(s.n * sizeof *g);
        assert_non_null(g);
        ref_rule_allbut(&ref, excl, 2);
        ref_values(g, s.n, &ref);
        for (i = 0; i < s.n; i++)
            assert_int_equal(sg_seq_get(&back, i), g[i]);
        free(g);
    }
    sg_store_entry_clear(&e);
    sg_store_close(db);
    free(canon);
    sg_rule_clear(&r);
    sg_seq_clear(&s);
    sg_seq_clear(&back);
}

/* ------------------------------------------------------------------ */
/* Extension                                                            */
/* ------------------------------------------------------------------ */

/* Store a prefix of an unresolved rule, read it back, extend it with the
 * library, store again: the values equal the reference (a fresh, simple
 * computation), and only the changed chunk tail was rewritten. */
static void test_extend_prefix(void **state)
{
    static const char *codes[] = {"4!.0", "0.6", "0.14", "0.106"};
    const tu_tmp *tmp = *state;
    const char *path = tmp->path;
    sg_store *db = open_ok(path);
    sg_error err;
    size_t k, i;

    for (k = 0; k < sizeof codes / sizeof *codes; k++) {
        tu_game gm;
        sg_store_entry e;
        sg_seq back;
        sg_result res;
        int found;
        size_t first = 300 + 97 * k, full = 2500;

        tu_game_init(&gm, codes[k], 0, full);
        sg_store_entry_init(&e);
        sg_seq_init(&back);
        assert_int_equal(sg_enumerate(&gm.s, &gm.r, first, NULL, &err), SG_OK);
        res = unresolved(&gm.s);
        assert_int_equal(
            sg_store_put(db, gm.canon, "octal", &res, &gm.s, "test", 1.0, &err),
            SG_OK);
        assert_int_equal(sg_store_get(db, gm.canon, &e, &back, &found, &err),
                         SG_OK);
        assert_true(found);
        assert_int_equal(back.n, first);
        /* Extend what was read back, as the CLI does. */
        assert_int_equal(sg_analyse(&res, &back, &gm.r, full, NULL, &err),
                         SG_OK);
        assert_int_equal(back.n, full);
        for (i = 0; i < full; i++)
            if (sg_seq_get(&back, i) != gm.ref[i])
                fail_msg("%s: G(%zu) = %u after extension, reference %u",
                         codes[k], i, (unsigned)sg_seq_get(&back, i),
                         (unsigned)gm.ref[i]);
        assert_int_equal(
            sg_store_put(db, gm.canon, "octal", &res, &back, "test", 2.0, &err),
            SG_OK);
        sg_seq_clear(&back);
        assert_int_equal(sg_store_get(db, gm.canon, &e, &back, &found, &err),
                         SG_OK);
        assert_int_equal(back.n, full);
        assert_int_equal(e.res.computed, full);
        for (i = 0; i < full; i++)
            assert_int_equal(sg_seq_get(&back, i), gm.ref[i]);
        sg_store_entry_clear(&e);
        sg_seq_clear(&back);
        tu_game_clear(&gm);
    }
    /* One row per rule, and chunk rows match the stored counts. */
    assert_int_equal(sql_int(path, "SELECT count(*) FROM rules"), 4);
    assert_int_equal(sql_int(path, "SELECT count(*) FROM rules r WHERE stored"
                                   " != (SELECT sum(count) FROM chunks c"
                                   " WHERE c.rule_id = r.id)"),
                     0);
    sg_store_close(db);
}

/* Extending a prefix longer than one chunk keeps the whole first chunk
 * and rewrites only from the partial one. */
static void test_extend_keeps_full_chunks(void **state)
{
    const tu_tmp *tmp = *state;
    const char *path = tmp->path;
    sg_store *db = open_ok(path);
    sg_seq s, back;
    sg_result res;
    sg_store_entry e;
    sg_error err;
    size_t i, n1 = SG_STORE_CHUNK_VALUES + 10,
              n2 = 2 * SG_STORE_CHUNK_VALUES + 3;
    int found;

    sg_seq_init(&s);
    sg_seq_init(&back);
    sg_store_entry_init(&e);
    for (i = 0; i < n2; i++)
        assert_int_equal(sg_seq_append(&s, (sg_value)(i * 7 % 251), NULL),
                         SG_OK);
    s.n = n1;
    res = unresolved(&s);
    assert_int_equal(sg_store_put(db, "0.4", "octal", &res, &s, "t", 0, &err),
                     SG_OK);
    /* Log every chunk written from now on. */
    sql(path, "CREATE TABLE written (first INTEGER);"
              "CREATE TRIGGER log_chunks AFTER INSERT ON chunks BEGIN"
              " INSERT INTO written VALUES (new.first); END");
    s.n = n2;
    res = unresolved(&s);
    assert_int_equal(sg_store_put(db, "0.4", "octal", &res, &s, "t", 0, &err),
                     SG_OK);
    assert_int_equal(sql_int(path, "SELECT count(*) FROM chunks"), 3);
    assert_int_equal(sql_int(path, "SELECT max(count) FROM chunks"),
                     SG_STORE_CHUNK_VALUES);
    /* Only the partial chunk and the new one were written. */
    assert_int_equal(sql_int(path, "SELECT count(*) FROM written"), 2);
    assert_int_equal(sql_int(path, "SELECT min(first) FROM written"),
                     SG_STORE_CHUNK_VALUES);
    assert_int_equal(sg_store_get(db, "0.4", &e, &back, &found, &err), SG_OK);
    assert_int_equal(back.n, n2);
    for (i = 0; i < n2; i++)
        assert_int_equal(sg_seq_get(&back, i), i * 7 % 251);
    sg_store_entry_clear(&e);
    sg_store_close(db);
    sg_seq_clear(&s);
    sg_seq_clear(&back);
}

/* ------------------------------------------------------------------ */
/* Which row wins                                                       */
/* ------------------------------------------------------------------ */

static void test_better_row_wins(void **state)
{
    const tu_tmp *tmp = *state;
    const char *path = tmp->path;
    sg_store *db = open_ok(path);
    sg_store_entry e;
    sg_seq s, back;
    sg_result res;
    sg_error err;
    tu_game gm;
    int found;
    char created[24];

    sg_store_entry_init(&e);
    sg_seq_init(&s);
    sg_seq_init(&back);
    tu_game_init(&gm, "0.77", 100000, 0);
    assert_int_equal(gm.res.status, SG_PERIODIC);
    assert_int_equal(sg_enumerate(&s, &gm.r, 150, NULL, &err), SG_OK);
    res = unresolved(&s);

    /* Unresolved 150 first. */
    assert_int_equal(sg_store_put(db, "0.77", "octal", &res, &s, "t", 1, &err),
                     SG_OK);
    /* An old creation time, to see that replacing the row keeps it. */
    sql(path, "UPDATE rules SET created = '2001-02-03T04:05:06Z'");
    snprintf(created, sizeof created, "2001-02-03T04:05:06Z");
    /* A shorter prefix does not replace it. */
    s.n = 100;
    res = unresolved(&s);
    assert_int_equal(sg_store_put(db, "0.77", "octal", &res, &s, "t", 1, &err),
                     SG_OK);
    assert_int_equal(sg_store_get(db, "0.77", &e, &back, &found, &err), SG_OK);
    assert_int_equal(e.res.computed, 150);
    assert_int_equal(back.n, 150);
    /* A proof replaces it, keeping the creation time. */
    assert_int_equal(
        sg_store_put(db, "0.77", "octal", &gm.res, &gm.s, "t", 2, &err), SG_OK);
    assert_int_equal(sg_store_get(db, "0.77", &e, &back, &found, &err), SG_OK);
    assert_int_equal(e.res.status, SG_PERIODIC);
    assert_int_equal(e.res.period, 12);
    assert_int_equal(e.res.preperiod, 71);
    assert_string_equal(e.created, created);
    assert_int_equal(sql_int(path, "SELECT sum(count) FROM chunks"), 83);
    /* A later unresolved result never replaces a proof. */
    s.n = 150;
    res = unresolved(&s);
    assert_int_equal(sg_store_put(db, "0.77", "octal", &res, &s, "t", 1, &err),
                     SG_OK);
    assert_int_equal(sg_store_get(db, "0.77", &e, NULL, &found, &err), SG_OK);
    assert_int_equal(e.res.status, SG_PERIODIC);
    assert_int_equal(sql_int(path, "SELECT count(*) FROM rules"), 1);
    sg_store_entry_clear(&e);
    tu_game_clear(&gm);
    sg_seq_clear(&s);
    sg_seq_clear(&back);
    sg_store_close(db);
}

/* ------------------------------------------------------------------ */
/* Batches: all writes or none                                          */
/* ------------------------------------------------------------------ */

/* A batch's writes are invisible to other connections until it commits,
 * reads on its own connection see them (and do not end it), a rollback
 * stores nothing, and a write that fails midway (a trigger refusing one
 * row) rolls the whole batch back and refuses the writes after it. */
static void test_batch(void **state)
{
    const tu_tmp *tmp = *state;
    const char *path = tmp->path;
    sg_store *db = open_ok(path);
    sg_store_entry e;
    sg_seq back;
    sg_result res;
    sg_error err;
    tu_game gm;
    int found;
    size_t i;

    sg_store_entry_init(&e);
    sg_seq_init(&back);
    tu_game_init(&gm, "0.77", 0, 150);
    assert_int_equal(sg_enumerate(&gm.s, &gm.r, 150, NULL, &err), SG_OK);
    res = unresolved(&gm.s);

    /* Rolled back: nothing stored. */
    assert_int_equal(sg_store_batch_begin(db, &err), SG_OK);
    assert_int_equal(sg_store_batch_begin(db, &err), SG_E_INPUT);
    assert_int_equal(
        sg_store_put(db, "0.77", "octal", &res, &gm.s, "t", 1, &err), SG_OK);
    assert_int_equal(sg_store_get(db, "0.77", &e, &back, &found, &err), SG_OK);
    assert_true(found);
    assert_int_equal(back.n, 150);
    assert_int_equal(
        sg_store_put(db, "subtract{9}", "subtract", &res, &gm.s, "t", 1, &err),
        SG_OK);
    assert_int_equal(sql_int(path, "SELECT count(*) FROM rules"), 0);
    assert_int_equal(sg_store_batch_end(db, 0, &err), SG_OK);
    assert_int_equal(sql_int(path, "SELECT count(*) FROM rules"), 0);
    assert_int_equal(sg_store_batch_end(db, 1, &err), SG_E_INPUT);

    /* Committed: both rows, with the reference values. */
    assert_int_equal(sg_store_batch_begin(db, &err), SG_OK);
    assert_int_equal(
        sg_store_put(db, "0.77", "octal", &res, &gm.s, "t", 1, &err), SG_OK);
    assert_int_equal(
        sg_store_put(db, "subtract{9}", "subtract", &res, &gm.s, "t", 1, &err),
        SG_OK);
    assert_int_equal(sg_store_batch_end(db, 1, &err), SG_OK);
    assert_int_equal(sql_int(path, "SELECT count(*) FROM rules"), 2);
    assert_int_equal(sg_store_get(db, "0.77", &e, &back, &found, &err), SG_OK);
    assert_int_equal(back.n, 150);
    for (i = 0; i < 150; i++)
        assert_int_equal(sg_seq_get(&back, i), gm.ref[i]);

    /* A failed write midway: the whole batch goes. */
    sql(path, "CREATE TRIGGER no_fail BEFORE INSERT ON rules"
              " WHEN NEW.rule = 'subtract{1}'"
              " BEGIN SELECT RAISE(ABORT, 'refused'); END");
    assert_int_equal(sg_store_batch_begin(db, &err), SG_OK);
    assert_int_equal(
        sg_store_put(db, "subtract{2}", "subtract", &res, &gm.s, "t", 1, &err),
        SG_OK);
    assert_int_not_equal(
        sg_store_put(db, "subtract{1}", "subtract", &res, &gm.s, "t", 1, &err),
        SG_OK);
    assert_int_equal(
        sg_store_put(db, "subtract{3}", "subtract", &res, &gm.s, "t", 1, &err),
        SG_E_IO);
    assert_non_null(strstr(err.msg, "nothing of the batch was stored"));
    assert_int_equal(sg_store_batch_end(db, 1, &err), SG_E_IO);
    assert_int_equal(sql_int(path, "SELECT count(*) FROM rules"), 2);
    /* Writes outside a batch work again. */
    assert_int_equal(
        sg_store_put(db, "subtract{3}", "subtract", &res, &gm.s, "t", 1, &err),
        SG_OK);
    assert_int_equal(sql_int(path, "SELECT count(*) FROM rules"), 3);
    sg_store_entry_clear(&e);
    sg_seq_clear(&back);
    tu_game_clear(&gm);
    sg_store_close(db);
}

/* ------------------------------------------------------------------ */
/* list and drop                                                        */
/* ------------------------------------------------------------------ */

typedef struct seen {
    char names[8][32];
    int n;
} seen;

static int visit(const sg_store_entry *e, void *arg)
{
    seen *sn = arg;
    snprintf(sn->names[sn->n++], 32, "%s", e->rule);
    return 0;
}

static void test_list_drop(void **state)
{
    const tu_tmp *tmp = *state;
    const char *path = tmp->path;
    sg_store *db = open_ok(path);
    sg_error err;
    seen sn;
    tu_game a, b;
    sg_result ru;
    int found;

    tu_game_init(&a, "0.77", 100000, 0);
    tu_game_init(&b, "4!.0", 500, 0);
    assert_int_equal(
        sg_store_put(db, a.canon, "octal", &a.res, &a.s, "t", 0, &err), SG_OK);
    ru = unresolved(&b.s);
    assert_int_equal(
        sg_store_put(db, b.canon, "octal", &ru, &b.s, "t", 0, &err), SG_OK);
    assert_int_equal(
        sg_store_put(db, "subtract{9}", "subtract", &ru, &b.s, "t", 0, &err),
        SG_OK);
    memset(&sn, 0, sizeof sn);
    assert_int_equal(sg_store_list(db, NULL, NULL, visit, &sn, &err), SG_OK);
    assert_int_equal(sn.n, 3);
    assert_string_equal(sn.names[0], "0.77"); /* octal before subtract */
    assert_string_equal(sn.names[1], "4!.0");
    assert_string_equal(sn.names[2], "subtract{9}");
    memset(&sn, 0, sizeof sn);
    assert_int_equal(sg_store_list(db, "unresolved", "octal", visit, &sn, &err),
                     SG_OK);
    assert_int_equal(sn.n, 1);
    assert_string_equal(sn.names[0], "4!.0");
    memset(&sn, 0, sizeof sn);
    assert_int_equal(sg_store_list(db, "periodic", NULL, visit, &sn, &err),
                     SG_OK);
    assert_int_equal(sn.n, 1);

    assert_int_equal(sg_store_drop(db, "4!.0", &found, &err), SG_OK);
    assert_true(found);
    assert_int_equal(sg_store_drop(db, "4!.0", &found, &err), SG_OK);
    assert_false(found);
    sg_store_close(db);
    assert_int_equal(sql_int(path, "SELECT count(*) FROM rules"), 2);
    assert_int_equal(sql_int(path, "SELECT count(*) FROM chunks WHERE "
                                   "rule_id NOT IN (SELECT id FROM rules)"),
                     0);
    tu_game_clear(&a);
    tu_game_clear(&b);
}

/* ------------------------------------------------------------------ */
/* Refusals: foreign, corrupt, newer; all left untouched                */
/* ------------------------------------------------------------------ */

/* Opening must fail with SG_E_IO naming the file, which stays as it was
 * (no -wal or -shm left behind either, beyond what was there). */
static void expect_refused(const char *path, const char *words)
{
    size_t n1, n2;
    unsigned char *before = tu_slurp(path, &n1), *after;
    sg_store *db = NULL;
    sg_error err;

    memset(&err, 0, sizeof err);
    assert_int_equal(sg_store_open(&db, path, 0, &err), SG_E_IO);
    assert_null(db);
    if (!strstr(err.msg, path) || !strstr(err.msg, words))
        fail_msg("message '%s' should name %s and say '%s'", err.msg, path,
                 words);
    assert_int_equal(sg_store_open(&db, path, SG_STORE_READONLY, &err),
                     SG_E_IO);
    after = tu_slurp(path, &n2);
    assert_int_equal(n1, n2);
    assert_memory_equal(before, after, n1);
    free(before);
    free(after);
}

static void test_refuse_foreign_and_corrupt(void **state)
{
    const tu_tmp *tmp = *state;
    const char *dir = tmp->dir;
    char *text = tu_path_in(dir, "text.db"),
         *rnd = tu_path_in(dir, "random.db");
    char *other = tu_path_in(dir, "other.db"),
         *trunc = tu_path_in(dir, "trunc.db");
    char *good = tu_path_in(dir, "good.db"), *dirpath = tu_path_in(dir, "adir");
    unsigned char buf[8192];
    tu_rng g;
    size_t i, n;
    sg_store *db;
    sg_error err;
    tu_game gm;
    unsigned char *data;

    write_file(text, "this is a text file, not a cache\n", 33);
    expect_refused(text, "not an sgexplore cache");

    tu_rng_init(&g, 2);
    for (i = 0; i < sizeof buf; i++)
        buf[i] = (unsigned char)tu_next(&g);
    write_file(rnd, buf, sizeof buf);
    expect_refused(rnd, "not an sgexplore cache");

    sql(other, "CREATE TABLE rules (rule TEXT); INSERT INTO rules "
               "VALUES ('x')");
    expect_refused(other, "another program");

    /* A real cache cut short, and one whose header page is overwritten. */
    tu_game_init(&gm, "4!.0", 20000, 0);
    db = open_ok(good);
    {
        sg_result r = unresolved(&gm.s);
        assert_int_equal(
            sg_store_put(db, gm.canon, "octal", &r, &gm.s, "t", 0, &err),
            SG_OK);
    }
    sg_store_close(db);
    data = tu_slurp(good, &n);
    assert_true(n > 3 * 4096);
    write_file(trunc, data, n / 2);
    expect_refused(trunc, "corrupt");
    memset(data + 4096 + 8, 0xA5, 200); /* inside page 2's header */
    write_file(trunc, data, n);
    expect_refused(trunc, "corrupt");
    free(data);

    assert_int_equal(mkdir(dirpath, 0777), 0);
    db = NULL;
    assert_int_equal(sg_store_open(&db, dirpath, 0, &err), SG_E_IO);
    assert_non_null(strstr(err.msg, "directory"));

    tu_game_clear(&gm);
    free(text);
    free(rnd);
    free(other);
    free(trunc);
    free(good);
    free(dirpath);
}

/* A cache of a newer (or unknown) schema version is refused untouched. */
static void test_refuse_schema_version(void **state)
{
    const tu_tmp *tmp = *state;
    const char *path = tmp->path;
    sg_store *db = open_ok(path);
    sg_error err;
    char text[64];

    sg_store_close(db);
    snprintf(text, sizeof text, "PRAGMA user_version = %d",
             SG_STORE_SCHEMA_VERSION + 1);
    sql(path, text);
    expect_refused(path, "newer sgexplore");
    sql(path, "PRAGMA user_version = 0");
    expect_refused(path, "unknown schema version");
    /* And back to the right version it opens again. */
    snprintf(text, sizeof text, "PRAGMA user_version = %d",
             SG_STORE_SCHEMA_VERSION);
    sql(path, text);
    assert_int_equal(sg_store_open(&db, path, 0, &err), SG_OK);
    sg_store_close(db);
}

/* A cache of schema version 1 keeps working: its Nim row (keyed
 * `all-but{}` then) is found as `nim`, and Grundy's game and 0.[7]
 * (family `octal` then) read as take-and-break, both on a read-only open
 * (the file left byte-for-byte as it was) and after the upgrade of a
 * writable open, which renames the row, its checkpoint and the families
 * in one transaction, adds version 3's misere table and sets
 * user_version 3. */
static int visit_rule(const sg_store_entry *e, void *arg)
{
    char *out = arg;

    if (strlen(out) + strlen(e->rule) + 2 < 256) {
        strcat(out, e->rule);
        strcat(out, " ");
    }
    return 0;
}

static int visit_ckpt(const char *rule, uint64_t heaps, const char *stored,
                      void *arg)
{
    char *out = arg;

    (void)heaps;
    (void)stored;
    if (strlen(out) + strlen(rule) + 2 < 256) {
        strcat(out, rule);
        strcat(out, " ");
    }
    return 0;
}

static void v1_expect(sg_store *db)
{
    static const char *const rules[] = {"nim", "4!.0", "0.[7]", "0.77"};
    static const char *const fams[] = {"all-but", "take-and-break",
                                       "take-and-break", "octal"};
    char names[256] = "", ckpts[256] = "";
    uint64_t heaps = 0;
    void *blob = NULL;
    size_t len = 0;
    sg_store_entry e;
    sg_error err;
    sg_seq back;
    size_t k, i;
    int found;

    sg_store_entry_init(&e);
    for (k = 0; k < 4; k++) {
        sg_seq_init(&back);
        found = 0;
        if (sg_store_get(db, rules[k], &e, &back, &found, &err))
            fail_msg("%s: %s", rules[k], err.msg);
        assert_true(found);
        assert_string_equal(e.rule, rules[k]);
        assert_string_equal(e.family, fams[k]);
        assert_int_equal(back.n, 60);
        for (i = 0; k == 0 && i < back.n; i++)
            assert_int_equal(sg_seq_get(&back, i), i); /* Nim: G(n) = n */
        sg_store_entry_clear(&e);
        sg_seq_clear(&back);
    }
    found = 1;
    assert_int_equal(sg_store_get(db, "all-but{}", &e, NULL, &found, &err),
                     SG_OK);
    assert_false(found);
    assert_int_equal(
        sg_store_checkpoint_get(db, "nim", &heaps, &blob, &len, &err), SG_OK);
    assert_int_equal(heaps, 60);
    assert_int_equal(len, 5);
    assert_memory_equal(blob, "state", 5);
    free(blob);
    assert_int_equal(sg_store_checkpoint_list(db, visit_ckpt, ckpts, &err),
                     SG_OK);
    assert_string_equal(ckpts, "nim ");
    assert_int_equal(
        sg_store_list(db, NULL, "take-and-break", visit_rule, names, &err),
        SG_OK);
    assert_string_equal(names, "0.[7] 4!.0 ");
}

static void test_schema_v1(void **state)
{
    static const char *const codes[] = {"0.[3]", "4!.0", "0.[7]", "0.77"};
    const tu_tmp *tmp = *state;
    const char *dir = tmp->dir, *path = tmp->path;
    char *ro = tu_path_in(dir, "ro.db");
    sg_store *db = open_ok(path);
    unsigned char *before, *after;
    size_t k, i, n1, n2;
    sg_error err;

    for (k = 0; k < 4; k++) {
        tu_game gm;
        sg_result res;
        tu_game_init(&gm, codes[k], 0, 60);
        for (i = 0; i < 60; i++)
            assert_int_equal(sg_seq_append(&gm.s, gm.ref[i], &err), SG_OK);
        res = unresolved(&gm.s);
        assert_int_equal(sg_store_put(db, gm.canon, sg_rule_family(&gm.r), &res,
                                      &gm.s, "t", 0, &err),
                         SG_OK);
        tu_game_clear(&gm);
    }
    assert_int_equal(sg_store_checkpoint_put(db, "nim", 60, "state", 5, &err),
                     SG_OK);
    sg_store_close(db);
    /* What version 1 wrote for the same rules. */
    sql(path, "UPDATE rules SET rule = 'all-but{}' WHERE rule = 'nim';"
              "UPDATE checkpoints SET rule = 'all-but{}' WHERE rule = 'nim';"
              "UPDATE rules SET family = 'octal' WHERE rule IN ('4!.0',"
              " '0.[7]'); DROP TABLE misere; PRAGMA user_version = 1");
    assert_int_equal(sql_int(path, "SELECT count(*) FROM rules WHERE family"
                                   " = 'octal' OR rule = 'all-but{}'"),
                     4);
    before = tu_slurp(path, &n1);
    write_file(ro, before, n1);

    /* read-only: read through the new names, nothing written */
    assert_int_equal(sg_store_open(&db, ro, SG_STORE_READONLY, &err), SG_OK);
    v1_expect(db);
    sg_store_close(db);
    after = tu_slurp(ro, &n2);
    assert_int_equal(n1, n2);
    assert_memory_equal(before, after, n1);
    free(after);

    /* writable: upgraded on open */
    db = open_ok(path);
    assert_int_equal(sql_int(path, "PRAGMA user_version"), 4);
    assert_int_equal(sql_int(path, "SELECT count(*) FROM sqlite_master"
                                   " WHERE name = 'misere'"),
                     1);
    assert_int_equal(sql_int(path, "SELECT count(*) FROM rules WHERE rule ="
                                   " 'nim' AND family = 'all-but'"),
                     1);
    assert_int_equal(sql_int(path, "SELECT count(*) FROM rules WHERE family"
                                   " = 'take-and-break'"),
                     2);
    v1_expect(db);
    assert_int_equal(sql_int(path, "SELECT count(*) FROM checkpoints WHERE"
                                   " rule = 'nim'"),
                     1);
    sg_store_close(db);
    free(before);
    free(ro);
}

/* The given forms (schema 4): the first form stays, a form without a row
 * makes none, the family filter also reads the given form; a file of
 * version 3 (the rules table without the column, as version 3 made it)
 * reads with no forms read-only, left byte-for-byte as it was, and is
 * upgraded on a writable open with its rows kept. */
static int visit_given(const sg_store_entry *e, void *arg)
{
    char *out = arg;

    if (strlen(out) + strlen(e->rule) + 2 < 256) {
        strcat(out, e->rule);
        strcat(out, " ");
    }
    return 0;
}

static void expect_given(sg_store *db, const char *rule, const char *given)
{
    sg_store_entry e;
    sg_error err;
    int found = 0;

    sg_store_entry_init(&e);
    if (sg_store_get(db, rule, &e, NULL, &found, &err))
        fail_msg("%s: %s", rule, err.msg);
    assert_true(found);
    if (given)
        assert_string_equal(e.given, given);
    else
        assert_null(e.given);
    sg_store_entry_clear(&e);
}

static void test_given_forms(void **state)
{
    const tu_tmp *tmp = *state;
    const char *path = tmp->path;
    char *ro = tu_path_in(tmp->dir, "ro.db");
    sg_store *db = open_ok(path);
    char names[256] = "";
    unsigned char *before, *after;
    size_t n1, n2, i;
    sg_result res;
    sg_error err;
    sg_seq s;

    sg_seq_init(&s);
    for (i = 0; i < 50; i++)
        assert_int_equal(sg_seq_append(&s, (sg_value)(i % 5), NULL), SG_OK);
    res = unresolved(&s);
    assert_int_equal(
        sg_store_put(db, "0.0[003]", "take-and-break", &res, &s, "t", 0, &err),
        SG_OK);
    assert_int_equal(
        sg_store_put(db, "subtract{1,2}", "subtract", &res, &s, "t", 0, &err),
        SG_OK);
    assert_int_equal(
        sg_store_put(db, "0.[3]", "take-and-break", &res, &s, "t", 0, &err),
        SG_OK);
    expect_given(db, "0.0[003]", NULL);
    assert_int_equal(sg_store_given(db, "0.0[003]", "subtract{4+3k}", &err),
                     SG_OK);
    assert_int_equal(sg_store_given(db, "0.0[003]", "subtract{4+3k,7}", &err),
                     SG_OK);
    expect_given(db, "0.0[003]", "subtract{4+3k}"); /* the first stays */
    assert_int_equal(sg_store_given(db, "0.77", "subtract{9}", &err), SG_OK);
    assert_int_equal(sql_int(path, "SELECT count(*) FROM rules"), 3);
    /* a row rewritten by a better result keeps its form */
    res = unresolved(&s);
    res.status = SG_PERIODIC;
    res.period = 5;
    res.theorem = "t";
    res.theorem_id = "t";
    res.certified_to = 10;
    res.checksum = sg_checksum(&s, 11);
    assert_int_equal(
        sg_store_put(db, "0.0[003]", "take-and-break", &res, &s, "t", 0, &err),
        SG_OK);
    expect_given(db, "0.0[003]", "subtract{4+3k}");
    assert_int_equal(
        sg_store_list(db, NULL, "subtract", visit_given, names, &err), SG_OK);
    assert_string_equal(names, "subtract{1,2} 0.0[003] ");
    names[0] = '\0';
    assert_int_equal(
        sg_store_list(db, NULL, "take-and-break", visit_given, names, &err),
        SG_OK);
    assert_string_equal(names, "0.0[003] 0.[3] ");
    sg_store_close(db);

    /* version 3: the table as it was, without the column */
    sql(path, "ALTER TABLE rules DROP COLUMN given; PRAGMA user_version = 3");
    before = tu_slurp(path, &n1);
    write_file(ro, before, n1);
    assert_int_equal(sg_store_open(&db, ro, SG_STORE_READONLY, &err), SG_OK);
    expect_given(db, "0.0[003]", NULL);
    names[0] = '\0';
    assert_int_equal(
        sg_store_list(db, NULL, "subtract", visit_given, names, &err), SG_OK);
    assert_string_equal(names, "subtract{1,2} ");
    sg_store_close(db);
    after = tu_slurp(ro, &n2);
    assert_int_equal(n1, n2);
    assert_memory_equal(before, after, n1);
    free(after);
    free(before);

    db = open_ok(path);
    assert_int_equal(sql_int(path, "PRAGMA user_version"), 4);
    assert_int_equal(sql_int(path, "SELECT count(*) FROM pragma_table_info("
                                   "'rules') WHERE name = 'given'"),
                     1);
    assert_int_equal(sql_int(path, "SELECT count(*) FROM rules"), 3);
    expect_given(db, "0.0[003]", NULL);
    assert_int_equal(sg_store_given(db, "0.0[003]", "subtract{4+3k}", &err),
                     SG_OK);
    expect_given(db, "0.0[003]", "subtract{4+3k}");
    sg_store_close(db);
    /* relabelled version 3 with the column present: upgraded again */
    sql(path, "PRAGMA user_version = 3");
    db = open_ok(path);
    assert_int_equal(sql_int(path, "PRAGMA user_version"), 4);
    expect_given(db, "0.0[003]", "subtract{4+3k}");
    sg_store_close(db);
    sg_seq_clear(&s);
    free(ro);
}

/* A damaged value blob is noticed by its hash. */
static void test_damaged_chunk(void **state)
{
    const tu_tmp *tmp = *state;
    const char *path = tmp->path;
    sg_store *db = open_ok(path);
    sg_store_entry e;
    sg_seq s, back;
    sg_result res;
    sg_error err;
    int found = 1, i;

    sg_seq_init(&s);
    sg_seq_init(&back);
    sg_store_entry_init(&e);
    for (i = 0; i < 1000; i++)
        assert_int_equal(sg_seq_append(&s, (sg_value)(i % 13), NULL), SG_OK);
    res = unresolved(&s);
    assert_int_equal(sg_store_put(db, "0.6", "octal", &res, &s, "t", 0, &err),
                     SG_OK);
    sql(path, "UPDATE chunks SET data = zeroblob(1000)");
    assert_int_equal(sg_store_get(db, "0.6", &e, &back, &found, &err), SG_E_IO);
    assert_false(found);
    assert_non_null(strstr(err.msg, "damaged"));
    assert_int_equal(back.n, 0);
    sg_store_close(db);
    sg_seq_clear(&s);
}

/* ------------------------------------------------------------------ */
/* Read-only caches                                                     */
/* ------------------------------------------------------------------ */

/* The child's exit code when it cannot reach the cache at all (some
 * directory above it is closed to it): the test is skipped. */
#define READONLY_UNREACHABLE 77

/* A fresh directory under /tmp that every user may enter, for the files
 * the unprivileged child must reach: the build tree may lie under a
 * directory closed to other users (a 0700 home or mktemp -d folder). */
static char *shared_tmp_dir(void)
{
    char *d = malloc(64);

    assert_non_null(d);
    snprintf(d, 64, "/tmp/sgstore-roXXXXXX");
    assert_non_null(mkdtemp(d));
    assert_int_equal(chmod(d, 0755), 0);
    return d;
}

/* The checks of test_readonly, run in a child process that may not write
 * the cache; returns 0 or the number of the failed check. */
static int readonly_child(const char *path, const char *sub, const sg_seq *s)
{
    sg_store *db;
    sg_store_entry e;
    sg_seq back;
    sg_result res = unresolved(s);
    sg_error err;
    const char *why = NULL;
    int found = 0, code = 0;
    char *nested = tu_path_in(sub, "new/c.db");

    if (geteuid() == 0 && (setgid(65534) != 0 || setuid(65534) != 0))
        code = 10;
    else if (access(path, R_OK) != 0)
        code = READONLY_UNREACHABLE;
    else if (sg_store_open(&db, path, 0, &err) != SG_OK)
        code = 11;
    if (code) {
        free(nested);
        return code;
    }
    sg_store_entry_init(&e);
    sg_seq_init(&back);
    if (!sg_store_readonly(db, &why) || !why || !strstr(why, "not writable"))
        code = 12;
    else if (sg_store_get(db, "0.6", &e, &back, &found, &err) != SG_OK ||
             !found || back.n != 100 || sg_seq_get(&back, 99) != 99)
        code = 13;
    else if (sg_store_put(db, "0.7", "octal", &res, s, "t", 0, &err) !=
                 SG_E_IO ||
             !strstr(err.msg, "nothing was stored"))
        code = 14;
    else if (sg_store_checkpoint_put(db, "0.6", 1, "x", 1, &err) != SG_E_IO ||
             !strstr(err.msg, "nothing was stored"))
        code = 17;
    sg_store_close(db);
    /* A cache that cannot even be created opens, empty, read-only. */
    if (!code) {
        if (sg_store_open(&db, nested, 0, &err) != SG_OK)
            code = 15;
        else if (!sg_store_readonly(db, &why) ||
                 sg_store_get(db, "0.6", &e, NULL, &found, &err) != SG_OK ||
                 found)
            code = 16;
        if (code != 15)
            sg_store_close(db);
    }
    sg_store_entry_clear(&e);
    sg_seq_clear(&back);
    free(nested);
    return code;
}

/* In a child process that may not write the cache (as user nobody when
 * the tests run as root, which ignores permissions), the cache reads but
 * refuses to store rules and checkpoints, saying why; the file does not
 * change. */
static void test_readonly(void **state)
{
    char *dir = shared_tmp_dir(), *sub = tu_path_in(dir, "ro"), *path;
    sg_store *db;
    sg_error err;
    sg_seq s;
    sg_result res;
    size_t n1, n2;
    unsigned char *before, *after;
    pid_t pid;
    int status, i;

    (void)state;
    assert_int_equal(mkdir(sub, 0755), 0);
    path = tu_path_in(sub, "c.db");
    sg_seq_init(&s);
    for (i = 0; i < 100; i++)
        assert_int_equal(sg_seq_append(&s, (sg_value)i, NULL), SG_OK);
    res = unresolved(&s);
    db = open_ok(path);
    assert_int_equal(sg_store_put(db, "0.6", "octal", &res, &s, "t", 0, &err),
                     SG_OK);
    sg_store_close(db);
    before = tu_slurp(path, &n1);
    assert_int_equal(chmod(path, 0444), 0);
    assert_int_equal(chmod(sub, 0555), 0);
    assert_int_equal(chmod(dir, 0755), 0);

    fflush(NULL);
    pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        /* Child: a plain exit code, checked by the parent; everything is
         * freed first so that valgrind (make check-valgrind) stays quiet. */
        int code = readonly_child(path, sub, &s);
        free(before);
        free(path);
        free(sub);
        free(dir);
        sg_seq_clear(&s);
        _exit(code);
    }
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFEXITED(status));
    if (WEXITSTATUS(status) == READONLY_UNREACHABLE) {
        assert_int_equal(chmod(sub, 0755), 0);
        free(before);
        sg_seq_clear(&s);
        free(path);
        free(sub);
        tu_rm_tree(dir);
        print_message("# user nobody cannot reach a directory under /tmp\n");
        skip(); /* user nobody cannot reach a directory under /tmp */
    }
    if (WEXITSTATUS(status) != 0)
        fail_msg("read-only child failed with check %d", WEXITSTATUS(status));
    after = tu_slurp(path, &n2);
    assert_int_equal(n1, n2);
    assert_memory_equal(before, after, n1);
    assert_int_equal(chmod(sub, 0755), 0);
    free(before);
    free(after);
    sg_seq_clear(&s);
    free(path);
    free(sub);
    tu_rm_tree(dir);
}

/* ------------------------------------------------------------------ */
/* Disk full                                                            */
/* ------------------------------------------------------------------ */

/* SQLite's page limit stands in for a full disk (SQLITE_FULL): the write
 * fails with a message saying so and the previous rows stay intact. */
static void test_disk_full(void **state)
{
    const tu_tmp *tmp = *state;
    const char *path = tmp->path;
    sg_store *db = open_ok(path);
    sg_store_entry e;
    sg_seq s, back;
    sg_result res;
    sg_error err;
    sqlite3 *h;
    int found, i;

    sg_seq_init(&s);
    sg_seq_init(&back);
    sg_store_entry_init(&e);
    for (i = 0; i < 500; i++)
        assert_int_equal(sg_seq_append(&s, (sg_value)(i % 7), NULL), SG_OK);
    res = unresolved(&s);
    assert_int_equal(sg_store_put(db, "0.6", "octal", &res, &s, "t", 0, &err),
                     SG_OK);
    for (i = 500; i < 400000; i++)
        assert_int_equal(sg_seq_append(&s, (sg_value)(i % 300), NULL), SG_OK);
    res = unresolved(&s);
    h = sgi_store_sqlite(db);
    assert_non_null(h);
    assert_int_equal(
        sqlite3_exec(h, "PRAGMA max_page_count = 12", NULL, NULL, NULL),
        SQLITE_OK);
    assert_int_equal(sg_store_put(db, "0.6", "octal", &res, &s, "t", 0, &err),
                     SG_E_IO);
    if (!strstr(err.msg, "disk is full") || !strstr(err.msg, path))
        fail_msg("unexpected message: %s", err.msg);
    sg_store_close(db);

    db = open_ok(path);
    assert_int_equal(sg_store_get(db, "0.6", &e, &back, &found, &err), SG_OK);
    assert_true(found);
    assert_int_equal(back.n, 500);
    assert_int_equal(sg_seq_get(&back, 499), 499 % 7);
    sg_store_close(db);
    assert_int_equal(sql_int(path, "SELECT count(*) FROM rules"), 1);
    {
        sqlite3_stmt *q;
        assert_int_equal(sqlite3_open(path, &h), SQLITE_OK);
        assert_int_equal(
            sqlite3_prepare_v2(h, "PRAGMA integrity_check", -1, &q, NULL),
            SQLITE_OK);
        assert_int_equal(sqlite3_step(q), SQLITE_ROW);
        assert_string_equal((const char *)sqlite3_column_text(q, 0), "ok");
        sqlite3_finalize(q);
        sqlite3_close(h);
    }
    sg_store_entry_clear(&e);
    sg_seq_clear(&s);
    sg_seq_clear(&back);
}

/* ------------------------------------------------------------------ */
/* Deep-run checkpoints                                                 */
/* ------------------------------------------------------------------ */

/* One text column from a query on a separate connection, malloc'd (NULL
 * when there is no row). */
static char *sql_text(const char *path, const char *text)
{
    sqlite3 *db;
    sqlite3_stmt *q;
    char *v = NULL;

    assert_int_equal(sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL),
                     SQLITE_OK);
    assert_int_equal(sqlite3_prepare_v2(db, text, -1, &q, NULL), SQLITE_OK);
    if (sqlite3_step(q) == SQLITE_ROW && sqlite3_column_text(q, 0))
        v = strdup((const char *)sqlite3_column_text(q, 0));
    sqlite3_finalize(q);
    sqlite3_close(db);
    return v;
}

/* Whether the file has the checkpoints table. */
static long long has_ckpt_table(const char *path)
{
    return sql_int(path, "SELECT count(*) FROM sqlite_master WHERE type ="
                         " 'table' AND name = 'checkpoints'");
}

/* A blob of n pseudo-random bytes. */
static unsigned char *random_blob(size_t n, uint64_t salt)
{
    unsigned char *b = malloc(n ? n : 1);
    tu_rng g;
    size_t i;

    assert_non_null(b);
    tu_rng_init(&g, salt);
    for (i = 0; i < n; i++)
        b[i] = (unsigned char)tu_next(&g);
    return b;
}

/* Get the checkpoint of rule and compare it with what was put. */
static void expect_ckpt(sg_store *db, const char *rule, uint64_t heaps,
                        const void *blob, size_t len)
{
    uint64_t h = 7;
    void *back = NULL;
    size_t n = 7;
    sg_error err;

    if (sg_store_checkpoint_get(db, rule, &h, &back, &n, &err) != SG_OK)
        fail_msg("checkpoint of %s: %s", rule, err.msg);
    assert_non_null(back);
    assert_int_equal(h, heaps);
    assert_int_equal(n, len);
    if (len)
        assert_memory_equal(back, blob, len);
    free(back);
}

/* Checkpoints come back byte for byte, the empty one and one of a few MB
 * included, also after the cache is reopened (read-only too); the hash
 * column is FNV-1a as documented (the published test vector of "foobar"),
 * the table appears with the first put and the schema version stays 1. */
static void test_checkpoint_roundtrip(void **state)
{
    const tu_tmp *tmp = *state;
    const char *path = tmp->path;
    char *t;
    size_t big = 3 * 1024 * 1024 + 17;
    unsigned char *blob = random_blob(big, 41);
    sg_store *db = open_ok(path);
    sg_error err;

    assert_int_equal(has_ckpt_table(path), 0);
    assert_int_equal(sg_store_checkpoint_put(db, "0.6", 0, NULL, 0, &err),
                     SG_OK);
    assert_int_equal(has_ckpt_table(path), 1);
    assert_int_equal(
        sg_store_checkpoint_put(db, "0.77", 123456789012ULL, blob, big, &err),
        SG_OK);
    assert_int_equal(sg_store_checkpoint_put(db, "4!.0", 6, "foobar", 6, &err),
                     SG_OK);
    expect_ckpt(db, "0.6", 0, NULL, 0);
    expect_ckpt(db, "0.77", 123456789012ULL, blob, big);
    expect_ckpt(db, "4!.0", 6, "foobar", 6);
    sg_store_close(db);

    t = sql_text(path, "SELECT hash FROM checkpoints WHERE rule = '4!.0'");
    assert_string_equal(t, "fnv1a64:85944171f73967e8");
    free(t);
    t = sql_text(path, "SELECT hash FROM checkpoints WHERE rule = '0.6'");
    assert_string_equal(t, "fnv1a64:cbf29ce484222325"); /* no bytes */
    free(t);
    t = sql_text(path, "SELECT stored FROM checkpoints WHERE rule = '0.6'");
    assert_iso_time(t);
    free(t);
    t = sql_text(path, "SELECT version FROM checkpoints WHERE rule = '0.6'");
    assert_string_equal(t, PACKAGE_VERSION);
    free(t);
    assert_int_equal(sql_int(path, "SELECT typeof(state) = 'blob' AND"
                                   " length(state) = 0 FROM checkpoints"
                                   " WHERE rule = '0.6'"),
                     1);
    assert_int_equal(sql_int(path, "PRAGMA user_version"),
                     SG_STORE_SCHEMA_VERSION);

    /* Reopened: the file with the extra table is still a cache of ours. */
    db = open_ok(path);
    expect_ckpt(db, "0.77", 123456789012ULL, blob, big);
    sg_store_close(db);
    assert_int_equal(sg_store_open(&db, path, SG_STORE_READONLY, &err), SG_OK);
    expect_ckpt(db, "4!.0", 6, "foobar", 6);
    sg_store_close(db);

    free(blob);
}

/* A second put replaces the first (one row); drop removes it, says so
 * once, and leaves the rule's own row alone, as sg_store_drop leaves the
 * checkpoint. */
static void test_checkpoint_replace_drop(void **state)
{
    const tu_tmp *tmp = *state;
    const char *path = tmp->path;
    sg_store *db = open_ok(path);
    sg_store_entry e;
    sg_result res;
    sg_seq s;
    sg_error err;
    uint64_t h = 5;
    void *back = &h;
    size_t n = 5;
    int found = -1, i;

    sg_seq_init(&s);
    sg_store_entry_init(&e);
    for (i = 0; i < 100; i++)
        assert_int_equal(sg_seq_append(&s, (sg_value)(i % 3), NULL), SG_OK);
    res = unresolved(&s);
    assert_int_equal(sg_store_put(db, "0.6", "octal", &res, &s, "t", 0, &err),
                     SG_OK);
    assert_int_equal(sg_store_checkpoint_put(db, "0.6", 10, "abc", 3, &err),
                     SG_OK);
    assert_int_equal(sg_store_checkpoint_put(db, "0.6", 20, "defgh", 5, &err),
                     SG_OK);
    expect_ckpt(db, "0.6", 20, "defgh", 5);
    assert_int_equal(sql_int(path, "SELECT count(*) FROM checkpoints"), 1);
    assert_int_equal(sql_int(path, "SELECT heaps FROM checkpoints"), 20);

    /* Dropping the rule keeps its checkpoint (the CLI drops both). */
    assert_int_equal(sg_store_drop(db, "0.6", &found, &err), SG_OK);
    assert_true(found);
    expect_ckpt(db, "0.6", 20, "defgh", 5);
    assert_int_equal(sg_store_put(db, "0.6", "octal", &res, &s, "t", 0, &err),
                     SG_OK);

    assert_int_equal(sg_store_checkpoint_drop(db, "0.6", &found, &err), SG_OK);
    assert_int_equal(found, 1);
    assert_int_equal(sg_store_checkpoint_get(db, "0.6", &h, &back, &n, &err),
                     SG_E_UNKNOWN);
    assert_null(back);
    assert_int_equal(n, 0);
    assert_non_null(strstr(err.msg, path));
    found = -1;
    assert_int_equal(sg_store_checkpoint_drop(db, "0.6", &found, &err), SG_OK);
    assert_int_equal(found, 0);
    assert_int_equal(sg_store_get(db, "0.6", &e, NULL, &found, &err), SG_OK);
    assert_true(found);
    sg_store_close(db);
    assert_int_equal(sql_int(path, "SELECT count(*) FROM checkpoints"), 0);
    assert_int_equal(sql_int(path, "SELECT count(*) FROM rules"), 1);
    sg_store_entry_clear(&e);
    sg_seq_clear(&s);
}

/* A cache without the checkpoints table, as every file written before it
 * existed: get finds nothing, drop finds nothing and creates nothing, in
 * a writable and a read-only cache, and with no file at all. */
static void test_checkpoint_old_file(void **state)
{
    const tu_tmp *tmp = *state;
    const char *dir = tmp->dir, *path = tmp->path;
    char *none = tu_path_in(dir, "none.db");
    sg_store *db = open_ok(path);
    sg_result res;
    sg_seq s;
    sg_error err;
    uint64_t h = 5;
    void *back = NULL;
    size_t n = 5;
    int found = -1, i, k;

    sg_seq_init(&s);
    for (i = 0; i < 50; i++)
        assert_int_equal(sg_seq_append(&s, (sg_value)i, NULL), SG_OK);
    res = unresolved(&s);
    assert_int_equal(sg_store_put(db, "0.6", "octal", &res, &s, "t", 0, &err),
                     SG_OK);
    sg_store_close(db);
    assert_int_equal(has_ckpt_table(path), 0);
    for (k = 0; k < 3; k++) {
        static const unsigned flags[] = {0, SG_STORE_READONLY,
                                         SG_STORE_READONLY};
        assert_int_equal(
            sg_store_open(&db, k == 2 ? none : path, flags[k], &err), SG_OK);
        assert_int_equal(
            sg_store_checkpoint_get(db, "0.6", &h, &back, &n, &err),
            SG_E_UNKNOWN);
        assert_null(back);
        assert_int_equal(h, 0);
        assert_int_equal(n, 0);
        if (k != 1) { /* a read-only file refuses the drop itself */
            found = -1;
            assert_int_equal(sg_store_checkpoint_drop(db, "0.6", &found, &err),
                             SG_OK);
            assert_int_equal(found, 0);
        }
        sg_store_close(db);
    }
    assert_int_equal(has_ckpt_table(path), 0);
    assert_int_equal(access(none, F_OK), -1);
    sg_seq_clear(&s);
    free(none);
}

/* A checkpoint whose state changed behind the cache's back (one byte, or
 * its length) fails its hash: SG_E_IO naming the file, no blob, and the
 * row stays as it is. */
static void test_checkpoint_damaged(void **state)
{
    static const char *damage[] = {
        "UPDATE checkpoints SET state = X'00' || substr(state, 2)",
        "UPDATE checkpoints SET state = substr(state, 1, 999)",
        "UPDATE checkpoints SET state = CAST(state AS TEXT)",
    };
    const tu_tmp *tmp = *state;
    const char *path = tmp->path;
    unsigned char *blob = random_blob(1000, 42);
    sg_store *db;
    sg_error err;
    uint64_t h;
    void *back;
    size_t n, k;
    char *before, *after;

    blob[0] = 0xff;
    for (k = 0; k < sizeof damage / sizeof *damage; k++) {
        db = open_ok(path);
        assert_int_equal(
            sg_store_checkpoint_put(db, "0.6", 777, blob, 1000, &err), SG_OK);
        sql(path, damage[k]);
        before = sql_text(path, "SELECT hex(state) || hash || heaps"
                                " FROM checkpoints");
        back = &h;
        assert_int_equal(
            sg_store_checkpoint_get(db, "0.6", &h, &back, &n, &err), SG_E_IO);
        assert_null(back);
        assert_non_null(strstr(err.msg, path));
        assert_non_null(strstr(err.msg, "damaged"));
        sg_store_close(db);
        after = sql_text(path, "SELECT hex(state) || hash || heaps"
                               " FROM checkpoints");
        assert_non_null(before);
        assert_non_null(after);
        assert_string_equal(before, after);
        assert_int_equal(sql_int(path, "SELECT count(*) FROM checkpoints"), 1);
        free(before);
        free(after);
    }
    free(blob);
}

/* A state larger than a part is split (sgi_store_checkpoint_put_split,
 * here with parts of 100 bytes; the public call's are 256 MiB): it comes
 * back whole, also read-only and after a smaller state replaced it or a
 * larger one, the hash text naming its parts; a dropped checkpoint leaves
 * no part; and every damage to a part, its number, the parts table or
 * the count in the hash is "damaged", never a shorter or reordered state
 * handed back.  A row written by a version that does not split (a plain
 * hash over stale parts) is read as that row alone. */
static void test_checkpoint_split(void **state)
{
    static const char *damage[] = {
        "UPDATE checkpoint_parts SET state = X'00' || substr(state, 2)"
        " WHERE part = 2",
        "DELETE FROM checkpoint_parts WHERE part = 3",
        "UPDATE checkpoint_parts SET part = 9 WHERE part = 1",
        "UPDATE checkpoint_parts SET state = CAST(state AS TEXT)"
        " WHERE part = 1",
        "UPDATE checkpoint_parts SET state = substr(state, 1, 49)"
        " WHERE part = 3",
        "UPDATE checkpoint_parts SET rule = '0.7'",
        "UPDATE checkpoint_parts SET state = state || X'00' WHERE part = 1",
        "UPDATE checkpoints SET hash = substr(hash, 1, 24) || '/3'",
        "UPDATE checkpoints SET hash = substr(hash, 1, 24) || '/5'",
        "UPDATE checkpoints SET hash = substr(hash, 1, 24) || '/04'",
        "UPDATE checkpoints SET hash = substr(hash, 1, 24) || '/'",
        "UPDATE checkpoints SET hash = substr(hash, 1, 24)",
        "DROP TABLE checkpoint_parts",
    };
    const tu_tmp *tmp = *state;
    const char *path = tmp->path;
    char *t;
    unsigned char *blob = random_blob(350, 44);
    sg_store *db = open_ok(path);
    sg_error err;
    uint64_t h;
    void *back;
    size_t n, k;
    int found = -1;

    /* 350 bytes: parts of 100, 100, 100 and 50. */
    assert_int_equal(
        sgi_store_checkpoint_put_split(db, "0.6", 9, blob, 350, 100, &err),
        SG_OK);
    expect_ckpt(db, "0.6", 9, blob, 350);
    t = sql_text(path, "SELECT hash FROM checkpoints");
    assert_non_null(t);
    assert_string_equal(t + 24, "/4");
    free(t);
    assert_int_equal(sql_int(path, "SELECT count(*) FROM checkpoint_parts"), 3);
    assert_int_equal(sql_int(path, "SELECT length(state) FROM checkpoints"),
                     100);
    /* Exactly one part: no split, no "/1". */
    assert_int_equal(
        sgi_store_checkpoint_put_split(db, "0.7", 3, blob, 100, 100, &err),
        SG_OK);
    expect_ckpt(db, "0.7", 3, blob, 100);
    assert_null(strchr(t = sql_text(path, "SELECT hash FROM checkpoints"
                                          " WHERE rule = '0.7'"),
                       '/'));
    free(t);
    sg_store_close(db);
    assert_int_equal(sg_store_open(&db, path, SG_STORE_READONLY, &err), SG_OK);
    expect_ckpt(db, "0.6", 9, blob, 350);
    sg_store_close(db);

    /* Replaced by a smaller state (its parts go), then a larger one. */
    db = open_ok(path);
    assert_int_equal(
        sgi_store_checkpoint_put_split(db, "0.6", 10, blob, 150, 100, &err),
        SG_OK);
    expect_ckpt(db, "0.6", 10, blob, 150);
    assert_int_equal(sql_int(path, "SELECT count(*) FROM checkpoint_parts"), 1);
    assert_int_equal(sg_store_checkpoint_put(db, "0.6", 11, blob, 50, &err),
                     SG_OK);
    expect_ckpt(db, "0.6", 11, blob, 50);
    assert_int_equal(sql_int(path, "SELECT count(*) FROM checkpoint_parts"), 0);

    /* A plain row over stale parts (what a version that does not split
     * writes): the row alone. */
    assert_int_equal(
        sgi_store_checkpoint_put_split(db, "0.6", 12, blob, 350, 100, &err),
        SG_OK);
    assert_int_equal(sg_store_checkpoint_put(db, "0.8", 1, "xy", 2, &err),
                     SG_OK);
    sql(path, "UPDATE checkpoints SET (state, hash) = (SELECT state, hash"
              " FROM checkpoints WHERE rule = '0.8') WHERE rule = '0.6'");
    assert_int_equal(sql_int(path, "SELECT count(*) FROM checkpoint_parts"), 3);
    expect_ckpt(db, "0.6", 12, "xy", 2);
    sg_store_close(db);

    /* Dropped: the parts go with it. */
    db = open_ok(path);
    assert_int_equal(
        sgi_store_checkpoint_put_split(db, "0.6", 12, blob, 350, 100, &err),
        SG_OK);
    assert_int_equal(sg_store_checkpoint_drop(db, "0.6", &found, &err), SG_OK);
    assert_int_equal(found, 1);
    assert_int_equal(sql_int(path, "SELECT count(*) FROM checkpoint_parts"), 0);
    expect_ckpt(db, "0.7", 3, blob, 100);

    for (k = 0; k < sizeof damage / sizeof *damage; k++) {
        assert_int_equal(
            sgi_store_checkpoint_put_split(db, "0.6", 13, blob, 350, 100, &err),
            SG_OK);
        sql(path, damage[k]);
        back = &h;
        n = 7;
        if (sg_store_checkpoint_get(db, "0.6", &h, &back, &n, &err) != SG_E_IO)
            fail_msg("damage %zu (%s) was not found", k, damage[k]);
        assert_null(back);
        assert_non_null(strstr(err.msg, "damaged"));
        /* Whatever the damage left, a new put makes it whole again. */
        sql(path, "DROP TABLE IF EXISTS checkpoint_parts");
    }
    sg_store_close(db);
    free(blob);
}

/* Writes that cannot be made leave the previous checkpoint: a cache
 * opened read-only (file unchanged byte for byte), another process
 * holding the write lock, a full disk (SQLite's page limit, as in
 * test_disk_full). */
static void test_checkpoint_refused(void **state)
{
    char *dir = tu_tmp_dir(), *path = tu_path_in(dir, "c.db");
    size_t big = 2 * 1024 * 1024;
    unsigned char *blob = random_blob(big, 43), *before, *after;
    sg_store *db = open_ok(path);
    sg_error err;
    sqlite3 *h;
    size_t n1, n2;
    int found = -1;

    (void)state;
    assert_int_equal(sg_store_checkpoint_put(db, "0.6", 1, "old", 3, &err),
                     SG_OK);
    sg_store_close(db);

    before = tu_slurp(path, &n1);
    assert_int_equal(sg_store_open(&db, path, SG_STORE_READONLY, &err), SG_OK);
    assert_int_equal(sg_store_checkpoint_put(db, "0.6", 2, "new", 3, &err),
                     SG_E_IO);
    assert_non_null(strstr(err.msg, path));
    assert_non_null(strstr(err.msg, "nothing was stored"));
    assert_int_equal(sg_store_checkpoint_drop(db, "0.6", &found, &err),
                     SG_E_IO);
    assert_int_equal(found, 0);
    expect_ckpt(db, "0.6", 1, "old", 3);
    sg_store_close(db);
    after = tu_slurp(path, &n2);
    assert_int_equal(n1, n2);
    assert_memory_equal(before, after, n1);
    free(before);
    free(after);

    /* Locked: give up at once instead of the ten minutes' wait. */
    assert_int_equal(setenv("SGEXPLORE_LOCK_TIMEOUT", "0", 1), 0);
    db = open_ok(path);
    assert_int_equal(unsetenv("SGEXPLORE_LOCK_TIMEOUT"), 0);
    assert_int_equal(sqlite3_open(path, &h), SQLITE_OK);
    assert_int_equal(sqlite3_exec(h, "BEGIN IMMEDIATE", NULL, NULL, NULL),
                     SQLITE_OK);
    assert_int_equal(sg_store_checkpoint_put(db, "0.6", 2, "new", 3, &err),
                     SG_E_IO);
    if (!strstr(err.msg, "locked") || !strstr(err.msg, path))
        fail_msg("unexpected message: %s", err.msg);
    assert_int_equal(sg_store_checkpoint_drop(db, "0.6", &found, &err),
                     SG_E_IO);
    assert_int_equal(found, 0);
    assert_int_equal(sqlite3_exec(h, "ROLLBACK", NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(h);
    expect_ckpt(db, "0.6", 1, "old", 3);

    /* Full: the big blob does not fit in the pages left. */
    h = sgi_store_sqlite(db);
    assert_non_null(h);
    assert_int_equal(
        sqlite3_exec(h, "PRAGMA max_page_count = 12", NULL, NULL, NULL),
        SQLITE_OK);
    assert_int_equal(sg_store_checkpoint_put(db, "0.6", 3, blob, big, &err),
                     SG_E_IO);
    if (!strstr(err.msg, "disk is full") || !strstr(err.msg, path))
        fail_msg("unexpected message: %s", err.msg);
    assert_int_equal(sg_store_checkpoint_put(db, "0.7", 3, blob, big, &err),
                     SG_E_IO);
    sg_store_close(db);
    db = open_ok(path);
    expect_ckpt(db, "0.6", 1, "old", 3);
    sg_store_close(db);
    assert_int_equal(sql_int(path, "SELECT count(*) FROM checkpoints"), 1);
    assert_int_equal(sql_int(path, "SELECT count(*) FROM rules"), 0);

    /* The first put of a file fails with the disk full: its table goes
     * with it (room for the table, not for the blob). */
    free(path);
    path = tu_path_in(dir, "d.db");
    db = open_ok(path);
    h = sgi_store_sqlite(db);
    {
        char pragma[80];
        long long pages = sql_int(path, "PRAGMA page_count");
        assert_true(pages > 0);
        snprintf(pragma, sizeof pragma, "PRAGMA max_page_count = %lld",
                 pages + 3);
        assert_int_equal(sqlite3_exec(h, pragma, NULL, NULL, NULL), SQLITE_OK);
    }
    assert_int_equal(sg_store_checkpoint_put(db, "0.6", 3, blob, big, &err),
                     SG_E_IO);
    if (!strstr(err.msg, "disk is full"))
        fail_msg("unexpected message: %s", err.msg);
    assert_int_equal(has_ckpt_table(path), 0);
    /* A small one still fits. */
    assert_int_equal(sg_store_checkpoint_put(db, "0.6", 4, "x", 1, &err),
                     SG_OK);
    expect_ckpt(db, "0.6", 4, "x", 1);
    sg_store_close(db);
    free(blob);
    free(path);
    tu_rm_tree(dir);
}

/* ------------------------------------------------------------------ */
/* Concurrency and creation                                             */
/* ------------------------------------------------------------------ */

/* Four processes create the same missing cache (and its directories) at
 * once and each stores its own rules and a shared one many times: none
 * fails, and there is exactly one row per rule. */
static void test_concurrent_writers(void **state)
{
    char *dir = tu_tmp_dir(), *path = tu_path_in(dir, "a/b/c.db");
    pid_t pids[4];
    int k, status, rounds = (int)tu_scaled(25);

    (void)state;
    fflush(NULL);
    for (k = 0; k < 4; k++) {
        pids[k] = fork();
        assert_true(pids[k] >= 0);
        if (pids[k] == 0) {
            sg_seq s;
            sg_result res;
            sg_error err;
            sg_store *db;
            int i, j;
            char name[32];

            sg_seq_init(&s);
            for (i = 0; i < rounds; i++) {
                if (sg_store_open(&db, path, 0, &err) != SG_OK) {
                    fprintf(stderr, "# child %d: %s\n", k, err.msg);
                    _exit(1);
                }
                for (j = 0; j < 5; j++)
                    sg_seq_append(&s, (sg_value)((s.n * 3) % 17), NULL);
                res = unresolved(&s);
                snprintf(name, sizeof name, "0.%d", k + 1);
                if (sg_store_put(db, name, "octal", &res, &s, "t", 0, &err) ||
                    sg_store_put(db, "0.6", "octal", &res, &s, "t", 0, &err)) {
                    fprintf(stderr, "# child %d: %s\n", k, err.msg);
                    _exit(2);
                }
                sg_store_close(db);
            }
            sg_seq_clear(&s);
            free(path);
            free(dir);
            _exit(0);
        }
    }
    for (k = 0; k < 4; k++) {
        assert_int_equal(waitpid(pids[k], &status, 0), pids[k]);
        assert_true(WIFEXITED(status));
        assert_int_equal(WEXITSTATUS(status), 0);
    }
    assert_int_equal(sql_int(path, "SELECT count(*) FROM rules"), 5);
    assert_int_equal(sql_int(path, "SELECT count(DISTINCT rule) FROM rules"),
                     5);
    assert_int_equal(sql_int(path, "SELECT min(computed) FROM rules"),
                     5 * rounds);
    assert_int_equal(sql_int(path, "SELECT count(*) FROM rules r WHERE stored"
                                   " != (SELECT sum(count) FROM chunks c"
                                   " WHERE c.rule_id = r.id)"),
                     0);
    free(path);
    tu_rm_tree(dir);
}

/* The default location follows $SGEXPLORE_DB, $XDG_CACHE_HOME, $HOME. */
static void test_default_path(void **state)
{
    char *p;

    (void)state;
    setenv("SGEXPLORE_DB", "/x/y.db", 1);
    setenv("XDG_CACHE_HOME", "/xdg", 1);
    setenv("HOME", "/home/u", 1);
    p = sg_store_default_path();
    assert_string_equal(p, "/x/y.db");
    free(p);
    setenv("SGEXPLORE_DB", "", 1);
    p = sg_store_default_path();
    assert_string_equal(p, "/xdg/sgexplore/cache.db");
    free(p);
    unsetenv("XDG_CACHE_HOME");
    p = sg_store_default_path();
    assert_string_equal(p, "/home/u/.cache/sgexplore/cache.db");
    free(p);
    unsetenv("HOME");
    assert_null(sg_store_default_path());
}

/* The status words of the cache and of certificates read back as the
 * statuses they name; nothing else is taken for one. */
static void test_status_words(void **state)
{
    static const struct {
        const char *word;
        sg_period_status st;
    } words[] = {{"periodic", SG_PERIODIC},
                 {"arithmetic-periodic", SG_ARITH_PERIODIC},
                 {"unresolved", SG_UNRESOLVED}};
    static const char *bad[] = {"",          "proven", "Periodic",
                                "periodic ", "arith",  "arithmetic-periodic\n"};
    sg_period_status st;
    size_t i;

    (void)state;
    for (i = 0; i < sizeof words / sizeof *words; i++) {
        st = (sg_period_status)99;
        assert_int_equal(sg_period_status_parse(&st, words[i].word), 1);
        assert_int_equal(st, words[i].st);
        assert_string_equal(sg_period_status_name(words[i].st), words[i].word);
    }
    for (i = 0; i < sizeof bad / sizeof *bad; i++)
        assert_int_equal(sg_period_status_parse(&st, bad[i]), 0);
    assert_int_equal(sg_period_status_parse(&st, NULL), 0);
}

/* The misère table (schema 3): the genus and a quotient stored and read
 * back equal to what was computed; a quotient stopped by --max-order,
 * stored, read back and resumed gives the quotient a fresh computation
 * gives; a smaller result never replaces a larger one; a damaged row is
 * refused and left alone; a version-2 file reads as one without misère
 * rows and is upgraded on a writable open; cache drop removes the row. */
static void quot_equal(const sg_mquot *a, const sg_mquot *b)
{
    size_t i;

    assert_int_equal(a->heaps, b->heaps);
    assert_int_equal(a->order, b->order);
    assert_memory_equal(a->trans, b->trans,
                        a->order * a->heaps * sizeof *a->trans);
    assert_memory_equal(a->p, b->p, a->order);
    for (i = 0; i <= a->heaps; i++)
        assert_int_equal(a->orders[i], b->orders[i]);
    assert_int_equal(a->ngens, b->ngens);
    assert_int_equal(a->nrel, b->nrel);
    assert_memory_equal(a->rel, b->rel, a->nrel * a->ngens * sizeof *a->rel);
    assert_memory_equal(a->heap, b->heap, (a->heaps + 1) * sizeof *a->heap);
}

static void test_misere_rows(void **state)
{
    const tu_tmp *tmp = *state;
    const char *path = tmp->path;
    sg_store *db = open_ok(path);
    sg_store_misere in, back;
    sg_misere m, small;
    sg_mquot fresh, stopped;
    sg_error err;
    tu_game gm;
    size_t h, t;
    int found = 0, kept = 0;
    unsigned k;

    tu_game_init(&gm, "0.77", 0, 1);
    sg_misere_init(&m);
    sg_misere_init(&small);
    sg_mquot_init(&fresh);
    sg_mquot_init(&stopped);
    assert_int_equal(sg_misere_analyse(&m, &gm.r, 24, 64 << 20, NULL, &err),
                     SG_OK);
    assert_int_equal(sg_misere_analyse(&small, &gm.r, 10, 64 << 20, NULL, &err),
                     SG_OK);
    assert_int_equal(
        sg_misere_quotient(&fresh, &gm.r, 20, 1000, 64 << 20, NULL, &err),
        SG_OK);
    assert_int_equal(
        sg_misere_quotient(&stopped, &gm.r, 20, 20, 64 << 20, NULL, &err),
        SG_E_UNKNOWN);
    assert_int_equal(stopped.heaps, 11); /* Q_12 of Kayles has 24 */

    sg_store_misere_init(&back);
    found = 1;
    assert_int_equal(sg_store_misere_get(db, "0.77", &back, &found, &err),
                     SG_OK);
    assert_false(found);

    /* the genus and the stopped quotient, in one row */
    memset(&in, 0, sizeof in);
    in.have_genus = 1;
    in.genus = m;
    in.genus_asked = 24;
    in.genus_budget = 64 << 20;
    in.have_quot = 1;
    in.quot = stopped;
    in.quot_asked = 20;
    in.quot_max_order = 20;
    in.quot_budget = 64 << 20;
    in.quot_stopped = (char *)(uintptr_t) "past --max-order";
    in.quot_runs = 1;
    assert_int_equal(sg_store_misere_put(db, "0.77", &in, &kept, &err), SG_OK);
    assert_false(kept);
    assert_int_equal(sg_store_misere_get(db, "0.77", &back, &found, &err),
                     SG_OK);
    assert_true(found);
    assert_true(back.have_genus);
    assert_int_equal(back.genus.n, 24);
    assert_int_equal(back.genus.tame_to, m.tame_to);
    assert_int_equal(back.genus.tame_to, 5); /* Kayles: heap 5 is 4^146 */
    assert_int_equal(back.genus.positions, m.positions);
    for (h = 0; h < 24; h++) {
        assert_int_equal(back.genus.value[h], m.value[h]);
        assert_int_equal(back.genus.genus[h].g, m.genus[h].g);
        assert_int_equal(back.genus.genus[h].len, m.genus[h].len);
        for (k = 0; k < m.genus[h].len; k++)
            assert_int_equal(back.genus.genus[h].gamma[k], m.genus[h].gamma[k]);
    }
    assert_true(back.have_quot);
    quot_equal(&back.quot, &stopped);
    assert_int_equal(back.quot.stopped_at, 12);
    assert_string_equal(back.quot_stopped, "past --max-order");
    assert_int_equal(back.quot.suffixes, stopped.suffixes);
    for (t = 0; t <= stopped.suffixes; t++)
        assert_int_equal(back.quot.test_at[t], stopped.test_at[t]);
    assert_memory_equal(back.quot.tests, stopped.tests,
                        stopped.test_at[stopped.suffixes] *
                            sizeof *stopped.tests);

    /* resumed from what was read back: the fresh computation's quotient */
    {
        sg_mquot res;
        sg_mquot_init(&res);
        assert_int_equal(sg_misere_quotient_from(&res, &gm.r, 20, 1000,
                                                 64 << 20, &back.quot, NULL,
                                                 &err),
                         SG_OK);
        assert_int_equal(res.resumed_from, 11);
        quot_equal(&res, &fresh);
        sg_mquot_clear(&res);
    }

    /* fewer heaps never replace more; a larger quotient does */
    memset(&in, 0, sizeof in);
    in.have_genus = 1;
    in.genus = small;
    in.genus_asked = 10;
    in.genus_budget = 64 << 20;
    assert_int_equal(sg_store_misere_put(db, "0.77", &in, &kept, &err), SG_OK);
    assert_true(kept);
    memset(&in, 0, sizeof in);
    in.have_quot = 1;
    in.quot = fresh;
    in.quot_asked = 20;
    in.quot_max_order = 1000;
    in.quot_budget = 64 << 20;
    in.quot_runs = 2;
    assert_int_equal(sg_store_misere_put(db, "0.77", &in, &kept, &err), SG_OK);
    assert_false(kept);
    assert_int_equal(sg_store_misere_get(db, "0.77", &back, &found, &err),
                     SG_OK);
    assert_int_equal(back.genus.n, 24);
    quot_equal(&back.quot, &fresh);
    assert_int_equal(back.quot.stopped_at, 0);
    assert_null(back.quot_stopped);
    assert_int_equal(back.quot_runs, 2);

    /* damage: refused, naming the file, the row left as it is */
    sg_store_close(db);
    sql(path, "UPDATE misere SET exponents = replace(exponents, '4:1,4,6',"
              " '4:1,4,7')");
    db = open_ok(path);
    assert_int_equal(sg_store_misere_get(db, "0.77", &back, &found, &err),
                     SG_E_IO);
    assert_non_null(strstr(err.msg, path));
    assert_false(found);
    assert_int_equal(sql_int(path, "SELECT count(*) FROM misere"), 1);
    sg_store_close(db);
    sql(path, "UPDATE misere SET exponents = replace(exponents, '4:1,4,7',"
              " '4:1,4,6'); UPDATE misere SET quot_p = zeroblob(length("
              "quot_p))");
    db = open_ok(path);
    assert_int_equal(sg_store_misere_get(db, "0.77", &back, &found, &err),
                     SG_E_IO);

    /* cache drop takes the misère row with the rule */
    assert_int_equal(sg_store_drop(db, "0.77", &found, &err), SG_OK);
    assert_true(found);
    assert_int_equal(sql_int(path, "SELECT count(*) FROM misere"), 0);
    sg_store_close(db);

    /* a version-2 file: no misère rows read-only, upgraded writable */
    sql(path, "DROP TABLE misere; PRAGMA user_version = 2");
    assert_int_equal(sg_store_open(&db, path, SG_STORE_READONLY, &err), SG_OK);
    found = 1;
    assert_int_equal(sg_store_misere_get(db, "0.77", &back, &found, &err),
                     SG_OK);
    assert_false(found);
    sg_store_close(db);
    assert_int_equal(sql_int(path, "PRAGMA user_version"), 2);
    db = open_ok(path);
    assert_int_equal(sql_int(path, "PRAGMA user_version"), 4);
    memset(&in, 0, sizeof in);
    in.have_genus = 1;
    in.genus = small;
    assert_int_equal(sg_store_misere_put(db, "0.77", &in, NULL, &err), SG_OK);
    assert_int_equal(sg_store_misere_get(db, "0.77", &back, &found, &err),
                     SG_OK);
    assert_true(found);
    assert_int_equal(back.genus.n, 10);
    assert_false(back.have_quot);
    sg_store_close(db);
    /* a version-3 file without its misere table is damaged */
    sql(path, "DROP TABLE misere");
    assert_int_equal(sg_store_open(&db, path, 0, &err), SG_E_IO);

    sg_store_misere_clear(&back);
    sg_misere_clear(&m);
    sg_misere_clear(&small);
    sg_mquot_clear(&fresh);
    sg_mquot_clear(&stopped);
    tu_game_clear(&gm);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        tu_tmp_test(test_roundtrip_unresolved_widths),
        tu_tmp_test(test_chunk_byte_order),
        tu_tmp_test(test_roundtrip_proven),
        tu_tmp_test(test_roundtrip_arith),
        tu_tmp_test(test_extend_prefix),
        tu_tmp_test(test_extend_keeps_full_chunks),
        tu_tmp_test(test_better_row_wins),
        tu_tmp_test(test_batch),
        tu_tmp_test(test_list_drop),
        tu_tmp_test(test_refuse_foreign_and_corrupt),
        tu_tmp_test(test_refuse_schema_version),
        tu_tmp_test(test_schema_v1),
        tu_tmp_test(test_given_forms),
        tu_tmp_test(test_damaged_chunk),
        cmocka_unit_test(test_readonly),
        tu_tmp_test(test_disk_full),
        tu_tmp_test(test_checkpoint_roundtrip),
        tu_tmp_test(test_checkpoint_replace_drop),
        tu_tmp_test(test_checkpoint_old_file),
        tu_tmp_test(test_checkpoint_damaged),
        tu_tmp_test(test_checkpoint_split),
        cmocka_unit_test(test_checkpoint_refused),
        cmocka_unit_test(test_concurrent_writers),
        cmocka_unit_test(test_default_path),
        cmocka_unit_test(test_status_words),
        tu_tmp_test(test_misere_rows),
    };

    tu_base_seed();
    return cmocka_run_group_tests(tests, NULL, NULL);
}
