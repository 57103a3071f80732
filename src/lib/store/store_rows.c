/*
 * store_rows.c - the rules' rows of the SQLite cache: one row per rule
 * (keyed by its canonical text) with its claim, certificate and
 * bookkeeping, and its values in compact little-endian chunks; looking a
 * rule up (the values rebuilt through a proven period and checked against
 * the certificate's checksum), listing, storing with the rule for which
 * row wins, and dropping.  store.c opens the file.
 */
#define _DEFAULT_SOURCE
#include "store_impl.h"
#include "base/seq_impl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The columns every entry query reads, in the order read_entry expects,
 * after "id, <rule>, <family>, ". */
#define ENTRY_TAIL                                                             \
    " status, preperiod, period, saltus, computed,"                            \
    " certified_to, theorem, theorem_id, proof_start, proof_period,"           \
    " proof_saltus, checksum, note, stored, version, algorithm, elapsed,"      \
    " created, updated"
#define ENTRY_COLUMNS "id, rule, family," ENTRY_TAIL ", given"
/* Files of schema 2 or 3 (read-only, else upgraded when opened) have no
 * given column; version 1's also need their texts turned (V1_RULE). */
#define ENTRY_COLUMNS_V3 "id, rule, family," ENTRY_TAIL ", NULL"
#define ENTRY_COLUMNS_V1 "id, " V1_RULE ", " V1_FAMILY "," ENTRY_TAIL ", NULL"

/* The family filter of a listing (?2): the row's family, or the family
 * of its given form (sg_rule_given_family: "subtract{..}" is of family
 * subtract), so that `--subtract 4+3k`, keyed 0.0[003], is listed under
 * subtract. */
#define GIVEN_FAMILY "substr(given, 1, length(?2) + 1) = ?2 || '{'"

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
    free(e->given);
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
    e->rule = sgi_store_dup_text(q, 1, &nomem);
    e->family = sgi_store_dup_text(q, 2, &nomem);
    if (!status && sqlite3_column_type(q, 3) != SQLITE_NULL)
        return READ_NOMEM;
    if (!status)
        return -1;
    if (!sg_period_status_parse(&e->res.status, status))
        return -1;
    e->res.preperiod = sgi_store_col_u64(q, 4);
    e->res.period = sgi_store_col_u64(q, 5);
    e->res.saltus = sgi_store_col_u64(q, 6);
    e->res.computed = sgi_store_col_u64(q, 7);
    e->res.certified_to = sgi_store_col_u64(q, 8);
    e->theorem = sgi_store_dup_text(q, 9, &nomem);
    e->theorem_id = sgi_store_dup_text(q, 10, &nomem);
    e->res.proof_start = sgi_store_col_u64(q, 11);
    e->res.proof_period = sgi_store_col_u64(q, 12);
    e->res.proof_saltus = sgi_store_col_u64(q, 13);
    if (!sgi_fnv_parse(&e->res.checksum, sum))
        e->res.checksum = 0;
    e->note = sgi_store_dup_text(q, 15, &nomem);
    e->stored = sgi_store_col_u64(q, 16);
    e->version = sgi_store_dup_text(q, 17, &nomem);
    e->algorithm = sgi_store_dup_text(q, 18, &nomem);
    e->elapsed = sqlite3_column_double(q, 19);
    t = (const char *)sqlite3_column_text(q, 20);
    snprintf(e->created, sizeof e->created, "%s", t ? t : "");
    t = (const char *)sqlite3_column_text(q, 21);
    snprintf(e->updated, sizeof e->updated, "%s", t ? t : "");
    e->given = sgi_store_dup_text(q, 22, &nomem);
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
    w = sgi_value_width(max);
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
        (void)sgi_seq_push(s, v, NULL);
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
    char key[SGI_STORE_QUOTE];

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
        return sgi_store_db_error(err, st, rc, "reading values");
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
        return sgi_store_db_error(err, st, rc, "reading values");
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
        sgi_store_hash(want, blob, (size_t)bytes);
        if (strcmp(want, hash) != 0)
            break;
        decode_chunk(s, blob, (size_t)count, (unsigned)width);
    }
    sqlite3_finalize(q);
    if (rc != SQLITE_ROW && rc != SQLITE_DONE)
        return sgi_store_db_error(err, st, rc, "reading values");
    if (rc == SQLITE_ROW || s->n != stored)
        goto damaged;
    return SG_OK;
damaged:
    sg_seq_clear(s);
    sgi_store_quote(key, rule);
    return sg_error_set(err, SG_E_IO, -1,
                        "cache %s: the stored values of %s are damaged; "
                        "drop them with `sgexplore cache drop '%s'`",
                        st->path, key, key);
}

/* A proven entry keeps G(0..n0+p-1); rebuild G(0..computed-1) through the
 * proven period (no computation) and check the certificate's checksum. */
static sg_status rebuild_proven(sg_store *st, const sg_store_entry *e,
                                sg_seq *s, sg_error *err)
{
    uint64_t p = e->res.period, n;
    uint64_t sal = e->res.status == SG_ARITH_PERIODIC ? e->res.saltus : 0;
    sg_status r;
    char key[SGI_STORE_QUOTE];

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
                            st->path, sgi_store_quote(key, e->rule), key);
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
    char key[SGI_STORE_QUOTE];

    *found = 0;
    if (!st->db)
        return SG_OK;
    /* One read transaction: the row and its chunks from one snapshot. */
    rc = sgi_store_read_begin(st);
    if (rc == SQLITE_OK)
        rc = sqlite3_prepare_v2(
            st->db,
            st->schema < 2 ? "SELECT " ENTRY_COLUMNS_V1 " FROM rules"
                             " WHERE " V1_RULE " = ?"
            : st->schema < 4
                ? "SELECT " ENTRY_COLUMNS_V3 " FROM rules WHERE rule = ?"
                : "SELECT " ENTRY_COLUMNS " FROM rules WHERE rule = ?",
            -1, &q, NULL);
    if (rc != SQLITE_OK) {
        r = sgi_store_db_error(err, st, rc, "looking a rule up");
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
                             st->path, sgi_store_quote(key, rule), key);
        else
            *found = 1;
    } else if (rc != SQLITE_DONE) {
        r = sgi_store_db_error(err, st, rc, "looking a rule up");
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
    sgi_store_read_end(st);
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
    char key[SGI_STORE_QUOTE];

    if (!st->db)
        return SG_OK;
    sg_store_entry_init(&e);
    rc = sqlite3_prepare_v2(
        st->db,
        st->schema < 2   ? "SELECT " ENTRY_COLUMNS_V1 " FROM rules"
                           " WHERE (?1 IS NULL OR status = ?1)"
                           " AND (?2 IS NULL OR " V1_FAMILY " = ?2)"
                           " ORDER BY " V1_FAMILY ", " V1_RULE
        : st->schema < 4 ? "SELECT " ENTRY_COLUMNS_V3 " FROM rules"
                           " WHERE (?1 IS NULL OR status = ?1)"
                           " AND (?2 IS NULL OR family = ?2)"
                           " ORDER BY family, rule"
                         : "SELECT " ENTRY_COLUMNS " FROM rules"
                           " WHERE (?1 IS NULL OR status = ?1)"
                           " AND (?2 IS NULL OR family = ?2 OR " GIVEN_FAMILY
                           ")"
                           " ORDER BY family, rule",
        -1, &q, NULL);
    if (rc != SQLITE_OK)
        return sgi_store_db_error(err, st, rc, "listing rules");
    sgi_store_bind_text(q, 1, status);
    sgi_store_bind_text(q, 2, family);
    while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
        sqlite3_int64 id = read_entry(&e, q);
        if (id == READ_NOMEM) {
            r = sg_error_set(err, SG_E_NOMEM, -1,
                             "out of memory while listing cache %s", st->path);
            break;
        }
        if (id < 0) {
            r = sg_error_set(err, SG_E_IO, -1,
                             "cache %s: the row of %s is damaged", st->path,
                             sgi_store_quote(key, e.rule));
            break;
        }
        if (fn(&e, arg))
            break;
    }
    if (!r && rc != SQLITE_ROW && rc != SQLITE_DONE)
        r = sgi_store_db_error(err, st, rc, "listing rules");
    sqlite3_finalize(q);
    sg_store_entry_clear(&e);
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
        sgi_store_hash(hash, buf, (b - a) * w);
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
        return sgi_store_refuse_write(st, err);
    stored = proven ? res->preperiod + res->period : s->n;
    if (proven && (res->period == 0 || stored > s->n))
        return sg_error_set(err, SG_E_INPUT, -1,
                            "cannot store %s: the values G(0..n0+p-1) are "
                            "not all known",
                            rule);
    sgi_store_now(now);
    snprintf(created, sizeof created, "%s", now);
    sgi_fnv_format(sum, res->checksum);

    if ((r = sgi_store_write_begin(st, err)))
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
        old_stored = sgi_store_col_u64(q, 3);
        if (oc)
            snprintf(created, sizeof created, "%s", oc);
        if (existing_wins(old_proven, sgi_store_col_u64(q, 2), proven, s->n)) {
            sqlite3_finalize(q);
            return sgi_store_write_end(st, SQLITE_OK, "storing a rule", err);
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
    BIND(sgi_store_bind_u64(q, 4, proven, res->preperiod));
    BIND(sgi_store_bind_u64(q, 5, proven, res->period));
    BIND(sgi_store_bind_u64(q, 6, proven, res->saltus));
    BIND(sqlite3_bind_int64(q, 7, (sqlite3_int64)s->n));
    BIND(sgi_store_bind_u64(q, 8, proven, res->certified_to));
    BIND(sgi_store_bind_text(q, 9, proven ? res->theorem : NULL));
    BIND(sgi_store_bind_text(q, 10, proven ? res->theorem_id : NULL));
    BIND(sgi_store_bind_u64(q, 11, proven, res->proof_start));
    BIND(sgi_store_bind_u64(q, 12, proven, res->proof_period));
    BIND(sgi_store_bind_u64(q, 13, proven, res->proof_saltus));
    BIND(sgi_store_bind_text(q, 14, proven ? sum : NULL));
    BIND(sgi_store_bind_text(q, 15, proven ? NULL : res->note));
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
    return sgi_store_write_end(st, rc, "storing a rule", err);
}

sg_status sg_store_given(sg_store *st, const char *rule, const char *given,
                         sg_error *err)
{
    sqlite3_stmt *q = NULL;
    int rc;
    sg_status r;

    if (!given)
        return SG_OK;
    if ((r = sgi_store_write_begin(st, err)))
        return r;
    rc = sqlite3_prepare_v2(st->db,
                            "UPDATE rules SET given = ?2"
                            " WHERE rule = ?1 AND given IS NULL",
                            -1, &q, NULL);
    if (rc == SQLITE_OK) {
        BIND(sqlite3_bind_text(q, 1, rule, -1, SQLITE_STATIC));
        BIND(sqlite3_bind_text(q, 2, given, -1, SQLITE_STATIC));
        if (rc == SQLITE_OK)
            rc = sqlite3_step(q);
        rc = rc == SQLITE_DONE ? SQLITE_OK : rc;
        sqlite3_finalize(q);
    }
    return sgi_store_write_end(st, rc, "storing a rule's given form", err);
}

sg_status sg_store_drop(sg_store *st, const char *rule, int *found,
                        sg_error *err)
{
    int rc;
    sg_status r;

    *found = 0;
    if (!st->db)
        return SG_OK;
    if ((r = sgi_store_write_begin(st, err)))
        return r;
    rc = sgi_store_run_rule(st->db,
                            "DELETE FROM chunks WHERE rule_id IN"
                            " (SELECT id FROM rules WHERE rule = ?1)",
                            rule, NULL);
    if (rc == SQLITE_OK)
        rc = sgi_store_run_rule(st->db, "DELETE FROM rules WHERE rule = ?1",
                                rule, found);
    /* the misère row goes with it (schema 3; write_begin upgraded the
     * file, so the table is there) */
    if (rc == SQLITE_OK && st->schema >= 3) {
        int mis = 0;
        rc = sgi_store_run_rule(st->db, "DELETE FROM misere WHERE rule = ?1",
                                rule, &mis);
        *found |= mis;
    }
    if ((r = sgi_store_write_end(st, rc, "dropping a rule", err)))
        *found = 0;
    return r;
}
