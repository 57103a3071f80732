/*
 * store_misere.c - the misère results of a rule in the SQLite cache
 * (table `misere`, schema version 3; docs/CACHE.md): the genus analysis
 * of sg_misere_analyse and the last proven quotient of
 * sg_misere_quotient, with what a later run needs to resume from it.
 * One row per rule, keyed by the canonical text as `rules.rule`; each of
 * its two parts is replaced only by one that knows at least as much,
 * and a row is written in one transaction, whole or not at all.  The
 * parts are kept as text and little-endian blobs that sqlite3 users can
 * read, each with an FNV-1a hash checked when it is read back.
 */
#define _DEFAULT_SOURCE
#include "store_impl.h"
#include "internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Whether the misere table exists: a version-3 file has it; a file of
 * version 1 or 2 read without upgrading (read-only) does not. */
static int has_table(sqlite3 *db, int *yes)
{
    sqlite3_int64 n = 0;
    int rc = sgi_store_query_int(db,
                                 "SELECT count(*) FROM sqlite_master WHERE"
                                 " type = 'table' AND name = 'misere'",
                                 &n);

    *yes = n > 0;
    return rc;
}

void sg_store_misere_init(sg_store_misere *m)
{
    memset(m, 0, sizeof *m);
    sg_misere_init(&m->genus);
    sg_mquot_init(&m->quot);
}

void sg_store_misere_clear(sg_store_misere *m)
{
    sg_misere_clear(&m->genus);
    sg_mquot_clear(&m->quot);
    free(m->genus_stopped);
    free(m->quot_stopped);
    sg_store_misere_init(m);
}

/* ------------------------------------------------------------------ */
/* Texts                                                                */
/* ------------------------------------------------------------------ */

/* A growing text. */
typedef struct text {
    char *s;
    size_t n, cap;
    int failed;
} text;

/* Append sep and the decimal v. */
static void put(text *t, const char *sep, unsigned long long v)
{
    char b[32];
    int len = snprintf(b, sizeof b, "%s%llu", sep, v);

    if (t->failed || len < 0)
        return;
    if (sg_grow(&t->s, &t->cap, t->n + (size_t)len + 1, 1)) {
        t->failed = 1;
        return;
    }
    memcpy(t->s + t->n, b, (size_t)len + 1);
    t->n += (size_t)len;
}

/* An empty text that is a string. */
static void start(text *t)
{
    memset(t, 0, sizeof *t);
    if (sg_grow(&t->s, &t->cap, 1, 1))
        t->failed = 1;
    else
        t->s[0] = '\0';
}

/* The genus texts of m: `genus` as printed, `exponents` exact
 * ("g:c0,c1,..." per heap, space separated). */
static void genus_texts(const sg_misere *m, text *shown, text *exps)
{
    char buf[16 + 11 * SG_GENUS_MAX];
    size_t h;
    unsigned k;

    start(shown);
    start(exps);
    for (h = 0; h < m->n; h++) {
        const sg_genus *x = &m->genus[h];
        size_t len = strlen(sg_genus_format(buf, sizeof buf, x));
        if (!shown->failed &&
            sg_grow(&shown->s, &shown->cap, shown->n + len + 2, 1))
            shown->failed = 1;
        if (!shown->failed) {
            if (h)
                shown->s[shown->n++] = ' ';
            memcpy(shown->s + shown->n, buf, len + 1);
            shown->n += len;
        }
        put(exps, h ? " " : "", x->g);
        for (k = 0; k < x->len; k++)
            put(exps, k ? "," : ":", x->gamma[k]);
    }
}

/* A decimal at *p (advanced), at most max; -1 when there is none. */
static int number(const char **p, unsigned long long max, unsigned long long *v)
{
    const char *s = *p;
    unsigned long long x = 0;

    if (*s < '0' || *s > '9')
        return -1;
    while (*s >= '0' && *s <= '9') {
        if (x > (max - (unsigned long long)(*s - '0')) / 10)
            return -1;
        x = 10 * x + (unsigned long long)(*s - '0');
        s++;
    }
    *p = s;
    *v = x;
    return 0;
}

/* The genus of n heaps from the exponents text into m (allocated): 0, 1
 * when it is not such a text, -1 when out of memory. */
static int parse_genus(sg_misere *m, size_t n, const char *s)
{
    size_t h;
    unsigned long long v;

    if (!(m->value = calloc(n ? n : 1, sizeof *m->value)) ||
        !(m->genus = calloc(n ? n : 1, sizeof *m->genus)))
        return -1;
    for (h = 0; h < n; h++) {
        sg_genus *x = &m->genus[h];
        if ((h && *s++ != ' ') || number(&s, UINT32_MAX, &v) || *s++ != ':')
            return 1;
        x->g = (sg_value)v;
        for (x->len = 0;; s++) {
            if (x->len == SG_GENUS_MAX || number(&s, UINT32_MAX, &v))
                return 1;
            x->gamma[x->len++] = (sg_value)v;
            if (*s != ',')
                break;
        }
        if (x->len < 2)
            return 1;
        m->value[h] = x->gamma[0];
    }
    m->n = n;
    return *s ? 1 : 0;
}

/* The test sums of q as text: sums separated by ';', heaps by ','
 * (the first, empty sum is the empty text before the first ';'). */
static void tests_text(const sg_mquot *q, text *t)
{
    size_t i, j;

    start(t);
    for (i = 0; i < q->suffixes; i++) {
        if (i && !t->failed) {
            if (sg_grow(&t->s, &t->cap, t->n + 2, 1)) {
                t->failed = 1;
            } else {
                t->s[t->n++] = ';';
                t->s[t->n] = '\0';
            }
        }
        for (j = q->test_at[i]; j < q->test_at[i + 1]; j++)
            put(t, j > q->test_at[i] ? "," : "", q->tests[j]);
    }
}

/* The test sums of a text, each heap at most maxh: 0, 1 when it is not
 * such a text, -1 when out of memory. */
static int parse_tests(sg_mquot *q, const char *s, size_t maxh)
{
    size_t n = 1, cap = 0, capat = 0, at = 0, last;
    unsigned long long v;
    const char *p;

    for (p = s; *p; p++)
        n += *p == ';';
    if (sg_grow(&q->test_at, &capat, n + 1, sizeof *q->test_at))
        return -1;
    q->suffixes = n;
    for (n = 0;; n++) {
        q->test_at[n] = at;
        for (last = 0; *s && *s != ';'; last = (size_t)v) {
            if ((at > q->test_at[n] && *s++ != ',') || number(&s, maxh, &v) ||
                v < 1 || v < last)
                return 1;
            if (sg_grow(&q->tests, &cap, at + 1, sizeof *q->tests))
                return -1;
            q->tests[at++] = (uint32_t)v;
        }
        if (!*s++)
            break;
    }
    q->test_at[q->suffixes] = at;
    if (!q->tests && !(q->tests = malloc(sizeof *q->tests)))
        return -1;
    return q->test_at[1] != 0; /* the first is the empty sum */
}

/* The orders of Q_1..Q_k as text, space separated. */
static void orders_text(const sg_mquot *q, text *t)
{
    size_t k;

    start(t);
    for (k = 1; k <= q->heaps; k++)
        put(t, k > 1 ? " " : "", q->orders[k]);
}

/* FNV-1a of the quotient's stored columns: the trans blob, the P blob,
 * then the texts of the orders and of the test sums. */
static void quot_hash(char out[SG_FNV_TEXT], const void *trans, size_t tn,
                      const void *p, size_t pn, const char *orders,
                      const char *tests)
{
    uint64_t h = sgi_fnv1a(SG_FNV_OFFSET, trans, tn);

    h = sgi_fnv1a(h, p, pn);
    h = sgi_fnv1a(h, orders, strlen(orders));
    h = sgi_fnv1a(h, tests, strlen(tests));
    sgi_fnv_format(out, h);
}

/* ------------------------------------------------------------------ */
/* Reading                                                              */
/* ------------------------------------------------------------------ */

static sg_status damaged(sg_error *err, const sg_store *st, const char *rule,
                         const char *what)
{
    return sg_error_set(err, SG_E_IO, -1,
                        "cache %s is damaged: the misère row of %s (%s); "
                        "it was left as it is",
                        st->path, rule, what);
}

enum {
    C_GHEAPS,
    C_GASKED,
    C_GBUDGET,
    C_GTAME,
    C_GPOS,
    C_GSTOPPED,
    C_GENUS,
    C_EXPS,
    C_GHASH,
    C_QHEAPS,
    C_QORDER,
    C_QORDERS,
    C_QTRANS,
    C_QP,
    C_QTESTS,
    C_QASKED,
    C_QMAXORD,
    C_QBUDGET,
    C_QSTOPAT,
    C_QSTOPPED,
    C_QSTATES,
    C_QPOS,
    C_QFAST,
    C_QRUNS,
    C_QHASH
};

static const char select_sql[] =
    "SELECT genus_heaps, genus_asked, genus_budget, genus_tame_to,"
    " genus_positions, genus_stopped, genus, exponents, genus_hash,"
    " quot_heaps, quot_order, quot_orders, quot_trans, quot_p, quot_tests,"
    " quot_asked, quot_max_order, quot_budget, quot_stopped_at,"
    " quot_stopped, quot_states, quot_positions, quot_fast_heaps,"
    " quot_runs, quot_hash FROM misere WHERE rule = ?1";

/* The genus part of row q into m: NULL, or what is wrong with it. */
static const char *read_genus(sqlite3_stmt *q, sg_store_misere *m, int *nomem)
{
    char hash[SG_FNV_TEXT], buf[16 + 11 * SG_GENUS_MAX];
    const char *exps = (const char *)sqlite3_column_text(q, C_EXPS);
    const char *shown = (const char *)sqlite3_column_text(q, C_GENUS);
    const char *want = (const char *)sqlite3_column_text(q, C_GHASH);
    size_t n = (size_t)sgi_store_col_u64(q, C_GHEAPS), h, tame;
    int rc;

    if (!exps || !shown || !want)
        return "a genus column is NULL";
    sgi_store_hash(hash, exps, strlen(exps));
    if (strcmp(hash, want) != 0)
        return "the hash of its exponents does not match";
    if (n > ((size_t)1 << 24))
        return "too many heaps";
    if ((rc = parse_genus(&m->genus, n, exps)) < 0) {
        *nomem = 1;
        return "out of memory";
    }
    if (rc)
        return "its exponents are not a list of genera";
    /* the printed texts and tame_to follow from the exponents */
    for (h = 0, tame = n; h < n; h++) {
        size_t len =
            strlen(sg_genus_format(buf, sizeof buf, &m->genus.genus[h]));
        if (strncmp(shown, buf, len) != 0 ||
            (shown[len] != (h + 1 < n ? ' ' : '\0')))
            return "its genus text does not match its exponents";
        shown += len + (h + 1 < n);
        if (tame == n && !sg_genus_is_tame(&m->genus.genus[h]))
            tame = h;
    }
    m->genus.tame_to = (size_t)sgi_store_col_u64(q, C_GTAME);
    if (m->genus.tame_to != tame)
        return "its tame_to does not match its genera";
    m->genus.positions = (size_t)sgi_store_col_u64(q, C_GPOS);
    m->genus_asked = (size_t)sgi_store_col_u64(q, C_GASKED);
    m->genus_budget = (size_t)sgi_store_col_u64(q, C_GBUDGET);
    m->genus_stopped = sgi_store_dup_text(q, C_GSTOPPED, nomem);
    m->have_genus = 1;
    return NULL;
}

/* The quotient part of row q into m: NULL, or what is wrong with it. */
static const char *read_quot(sqlite3_stmt *q, sg_store_misere *m, int *nomem,
                             sg_error *err)
{
    char hash[SG_FNV_TEXT];
    sg_mquot *x = &m->quot;
    const void *trans = sqlite3_column_blob(q, C_QTRANS);
    size_t tn = (size_t)sqlite3_column_bytes(q, C_QTRANS);
    const void *p = sqlite3_column_blob(q, C_QP);
    size_t pn = (size_t)sqlite3_column_bytes(q, C_QP);
    const char *orders = (const char *)sqlite3_column_text(q, C_QORDERS);
    const char *tests = (const char *)sqlite3_column_text(q, C_QTESTS);
    const char *want = (const char *)sqlite3_column_text(q, C_QHASH);
    const unsigned char *b;
    size_t k = (size_t)sgi_store_col_u64(q, C_QHEAPS);
    size_t n = (size_t)sgi_store_col_u64(q, C_QORDER), i;
    unsigned long long v;
    int rc;

    if (!orders || !tests || !want || !p)
        return "a quotient column is NULL";
    if (k > ((size_t)1 << 20) || n < 1 || n > ((size_t)1 << 16) ||
        tn != 4 * n * k || pn != n)
        return "its sizes do not agree";
    quot_hash(hash, trans, tn, p, pn, orders, tests);
    if (strcmp(hash, want) != 0)
        return "the hash of its quotient does not match";
    x->heaps = k;
    x->order = n;
    if (!(x->trans = malloc((n * k > 0 ? n * k : 1) * sizeof *x->trans)) ||
        !(x->p = malloc(n)) ||
        !(x->orders = calloc(k + 1, sizeof *x->orders))) {
        *nomem = 1;
        return "out of memory";
    }
    for (b = trans, i = 0; i < n * k; i++, b += 4)
        x->trans[i] = (uint32_t)b[0] | (uint32_t)b[1] << 8 |
                      (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
    memcpy(x->p, p, n);
    for (i = 0; i < n; i++)
        if (x->p[i] > 1)
            return "its P-portion is not of 0s and 1s";
    x->orders[0] = 1;
    for (i = 1; i <= k; i++) {
        if ((i > 1 && *orders++ != ' ') || number(&orders, 1 << 16, &v))
            return "its orders are not a list of counts";
        x->orders[i] = (size_t)v;
    }
    if (*orders)
        return "its orders are not a list of counts";
    if ((rc = parse_tests(x, tests, k + 1)) < 0) {
        *nomem = 1;
        return "out of memory";
    }
    if (rc)
        return "its test sums are not a list of sums";
    if (sgi_mquot_complete(x, err) != SG_OK) {
        if (err && err->code == SG_E_NOMEM) {
            *nomem = 1;
            return "out of memory";
        }
        return "it is not a commutative monoid of the heaps";
    }
    x->stopped_at = (size_t)sgi_store_col_u64(q, C_QSTOPAT);
    x->states = (size_t)sgi_store_col_u64(q, C_QSTATES);
    x->positions = (size_t)sgi_store_col_u64(q, C_QPOS);
    x->fast_heaps = (size_t)sgi_store_col_u64(q, C_QFAST);
    m->quot_asked = (size_t)sgi_store_col_u64(q, C_QASKED);
    m->quot_max_order = (size_t)sgi_store_col_u64(q, C_QMAXORD);
    m->quot_budget = (size_t)sgi_store_col_u64(q, C_QBUDGET);
    m->quot_runs = (size_t)sgi_store_col_u64(q, C_QRUNS);
    m->quot_stopped = sgi_store_dup_text(q, C_QSTOPPED, nomem);
    m->have_quot = 1;
    return NULL;
}

sg_status sg_store_misere_get(sg_store *st, const char *rule,
                              sg_store_misere *out, int *found, sg_error *err)
{
    sqlite3_stmt *q = NULL;
    const char *bad = NULL;
    int rc, yes = 0, nomem = 0;
    sg_status r = SG_OK;

    sg_store_misere_clear(out);
    *found = 0;
    if (!st->db)
        return SG_OK;
    if ((rc = sgi_store_read_begin(st)) != SQLITE_OK)
        return sgi_store_db_error(err, st, rc, "reading a misère row");
    rc = has_table(st->db, &yes);
    if (rc == SQLITE_OK && yes)
        rc = sqlite3_prepare_v2(st->db, select_sql, -1, &q, NULL);
    if (rc == SQLITE_OK && yes) {
        sqlite3_bind_text(q, 1, rule, -1, SQLITE_STATIC);
        rc = sqlite3_step(q);
        if (rc == SQLITE_ROW) {
            *found = 1;
            if (sqlite3_column_type(q, C_GHEAPS) != SQLITE_NULL)
                bad = read_genus(q, out, &nomem);
            if (!bad && sqlite3_column_type(q, C_QHEAPS) != SQLITE_NULL)
                bad = read_quot(q, out, &nomem, err);
            rc = SQLITE_OK;
        } else if (rc == SQLITE_DONE) {
            rc = SQLITE_OK;
        }
    }
    sqlite3_finalize(q);
    sgi_store_read_end(st);
    if (rc != SQLITE_OK)
        r = sgi_store_db_error(err, st, rc, "reading a misère row");
    else if (nomem)
        r = sg_error_set(err, SG_E_NOMEM, -1, "out of memory");
    else if (bad)
        r = damaged(err, st, rule, bad);
    if (r) {
        sg_store_misere_clear(out);
        *found = 0;
    }
    return r;
}

/* ------------------------------------------------------------------ */
/* Writing                                                              */
/* ------------------------------------------------------------------ */

/* Columns 1 (the rule) and 2 (the time) bound; the genus part of m. */
static int bind_genus(sqlite3_stmt *q, const sg_store_misere *m, text *shown,
                      text *exps)
{
    char hash[SG_FNV_TEXT];
    int rc = SQLITE_OK;

    sgi_store_hash(hash, exps->s, exps->n);
    BIND(sqlite3_bind_int64(q, 3, (sqlite3_int64)m->genus.n));
    BIND(sqlite3_bind_int64(q, 4, (sqlite3_int64)m->genus_asked));
    BIND(sqlite3_bind_int64(q, 5, (sqlite3_int64)m->genus_budget));
    BIND(sqlite3_bind_int64(q, 6, (sqlite3_int64)m->genus.tame_to));
    BIND(sqlite3_bind_int64(q, 7, (sqlite3_int64)m->genus.positions));
    BIND(sgi_store_bind_text(q, 8, m->genus_stopped));
    BIND(sgi_store_bind_text(q, 9, shown->s));
    BIND(sgi_store_bind_text(q, 10, exps->s));
    BIND(sgi_store_bind_text(q, 11, hash));
    return rc;
}

static int bind_quot(sqlite3_stmt *q, const sg_store_misere *m,
                     unsigned char *trans, text *orders, text *tests)
{
    char hash[SG_FNV_TEXT];
    const sg_mquot *x = &m->quot;
    size_t n = x->order * x->heaps, i;
    int rc = SQLITE_OK;

    for (i = 0; i < n; i++) {
        trans[4 * i] = (unsigned char)(x->trans[i] & 0xff);
        trans[4 * i + 1] = (unsigned char)(x->trans[i] >> 8 & 0xff);
        trans[4 * i + 2] = (unsigned char)(x->trans[i] >> 16 & 0xff);
        trans[4 * i + 3] = (unsigned char)(x->trans[i] >> 24);
    }
    quot_hash(hash, trans, 4 * n, x->p, x->order, orders->s, tests->s);
    BIND(sqlite3_bind_int64(q, 3, (sqlite3_int64)x->heaps));
    BIND(sqlite3_bind_int64(q, 4, (sqlite3_int64)x->order));
    BIND(sgi_store_bind_text(q, 5, orders->s));
    BIND(sqlite3_bind_blob(q, 6, trans, (int)(4 * n), SQLITE_STATIC));
    BIND(sqlite3_bind_blob(q, 7, x->p, (int)x->order, SQLITE_STATIC));
    BIND(sgi_store_bind_text(q, 8, tests->s));
    BIND(sqlite3_bind_int64(q, 9, (sqlite3_int64)m->quot_asked));
    BIND(sqlite3_bind_int64(q, 10, (sqlite3_int64)m->quot_max_order));
    BIND(sqlite3_bind_int64(q, 11, (sqlite3_int64)m->quot_budget));
    BIND(sgi_store_bind_u64(q, 12, x->stopped_at != 0, x->stopped_at));
    BIND(sgi_store_bind_text(q, 13, m->quot_stopped));
    BIND(sqlite3_bind_int64(q, 14, (sqlite3_int64)x->states));
    BIND(sqlite3_bind_int64(q, 15, (sqlite3_int64)x->positions));
    BIND(sqlite3_bind_int64(q, 16, (sqlite3_int64)x->fast_heaps));
    BIND(sqlite3_bind_int64(q, 17, (sqlite3_int64)m->quot_runs));
    BIND(sgi_store_bind_text(q, 18, hash));
    return rc;
}

/* Run an UPDATE of the rule's row with bind() filling columns 3.. */
static int update(sqlite3 *db, const char *sql, const char *rule,
                  const char *now, int (*bind)(sqlite3_stmt *, void *),
                  void *arg)
{
    sqlite3_stmt *q;
    int rc = sqlite3_prepare_v2(db, sql, -1, &q, NULL);

    if (rc != SQLITE_OK)
        return rc;
    BIND(sqlite3_bind_text(q, 1, rule, -1, SQLITE_STATIC));
    BIND(sqlite3_bind_text(q, 2, now, -1, SQLITE_STATIC));
    BIND(bind(q, arg));
    if (rc == SQLITE_OK)
        rc = sqlite3_step(q);
    sqlite3_finalize(q);
    return rc == SQLITE_DONE ? SQLITE_OK : rc;
}

typedef struct put_args {
    const sg_store_misere *m;
    text shown, exps, orders, tests;
    unsigned char *trans;
} put_args;

static int bind_genus_cb(sqlite3_stmt *q, void *arg)
{
    put_args *a = arg;
    return bind_genus(q, a->m, &a->shown, &a->exps);
}

static int bind_quot_cb(sqlite3_stmt *q, void *arg)
{
    put_args *a = arg;
    return bind_quot(q, a->m, a->trans, &a->orders, &a->tests);
}

static const char genus_sql[] =
    "UPDATE misere SET updated = ?2, version = '" PACKAGE_VERSION "',"
    " genus_heaps = ?3, genus_asked = ?4, genus_budget = ?5,"
    " genus_tame_to = ?6, genus_positions = ?7, genus_stopped = ?8,"
    " genus = ?9, exponents = ?10, genus_hash = ?11 WHERE rule = ?1";

static const char quot_sql[] =
    "UPDATE misere SET updated = ?2, version = '" PACKAGE_VERSION "',"
    " quot_heaps = ?3, quot_order = ?4, quot_orders = ?5, quot_trans = ?6,"
    " quot_p = ?7, quot_tests = ?8, quot_asked = ?9, quot_max_order = ?10,"
    " quot_budget = ?11, quot_stopped_at = ?12, quot_stopped = ?13,"
    " quot_states = ?14, quot_positions = ?15, quot_fast_heaps = ?16,"
    " quot_runs = ?17, quot_hash = ?18 WHERE rule = ?1";

/* What the stored row knows, to decide which offered part to take. */
static int stored_limits(sqlite3 *db, const char *rule, sqlite3_int64 v[6],
                         int have[2])
{
    sqlite3_stmt *q;
    int rc = sqlite3_prepare_v2(db,
                                "SELECT genus_heaps, genus_asked,"
                                " genus_budget, quot_heaps, quot_max_order,"
                                " quot_budget FROM misere WHERE rule = ?1",
                                -1, &q, NULL),
        i;

    have[0] = have[1] = 0;
    if (rc != SQLITE_OK)
        return rc;
    sqlite3_bind_text(q, 1, rule, -1, SQLITE_STATIC);
    rc = sqlite3_step(q);
    if (rc == SQLITE_ROW) {
        for (i = 0; i < 6; i++)
            v[i] = sqlite3_column_int64(q, i);
        have[0] = sqlite3_column_type(q, 0) != SQLITE_NULL;
        have[1] = sqlite3_column_type(q, 3) != SQLITE_NULL;
        rc = SQLITE_OK;
    } else if (rc == SQLITE_DONE) {
        rc = SQLITE_OK;
    }
    sqlite3_finalize(q);
    return rc;
}

sg_status sg_store_misere_put(sg_store *st, const char *rule,
                              const sg_store_misere *m, int *kept,
                              sg_error *err)
{
    put_args a;
    sqlite3_int64 v[6] = {0};
    int have[2], rc, take_g = 0, take_q = 0;
    char now[24];
    sg_status r;

    if (kept)
        *kept = 1;
    memset(&a, 0, sizeof a);
    a.m = m;
    if (m->have_genus)
        genus_texts(&m->genus, &a.shown, &a.exps);
    if (m->have_quot) {
        orders_text(&m->quot, &a.orders);
        tests_text(&m->quot, &a.tests);
        a.trans = malloc(4 * m->quot.order * m->quot.heaps + 1);
    }
    if (a.shown.failed || a.exps.failed || a.orders.failed || a.tests.failed ||
        (m->have_quot && !a.trans)) {
        r = sg_error_set(err, SG_E_NOMEM, -1, "out of memory");
        goto out;
    }
    sgi_store_now(now);
    if ((r = sgi_store_write_begin(st, err)))
        goto out;
    rc = stored_limits(st->db, rule, v, have);
    /* a part knows at least as much as the stored one: more heaps, or
     * as many asked with limits at least as large */
    take_g = m->have_genus && (!have[0] || (sqlite3_int64)m->genus.n > v[0] ||
                               ((sqlite3_int64)m->genus.n == v[0] &&
                                (sqlite3_int64)m->genus_asked >= v[1] &&
                                (sqlite3_int64)m->genus_budget >= v[2]));
    take_q = m->have_quot && (!have[1] || (sqlite3_int64)m->quot.heaps > v[3] ||
                              ((sqlite3_int64)m->quot.heaps == v[3] &&
                               (sqlite3_int64)m->quot_max_order >= v[4] &&
                               (sqlite3_int64)m->quot_budget >= v[5]));
    if (rc == SQLITE_OK && (take_g || take_q)) {
        sqlite3_stmt *q;
        rc = sqlite3_prepare_v2(st->db,
                                "INSERT OR IGNORE INTO misere (rule,"
                                " created, updated, version) VALUES (?1, ?2,"
                                " ?2, '" PACKAGE_VERSION "')",
                                -1, &q, NULL);
        if (rc == SQLITE_OK) {
            sqlite3_bind_text(q, 1, rule, -1, SQLITE_STATIC);
            sqlite3_bind_text(q, 2, now, -1, SQLITE_STATIC);
            rc = sqlite3_step(q);
            rc = rc == SQLITE_DONE ? SQLITE_OK : rc;
            sqlite3_finalize(q);
        }
    }
    if (rc == SQLITE_OK && take_g)
        rc = update(st->db, genus_sql, rule, now, bind_genus_cb, &a);
    if (rc == SQLITE_OK && take_q)
        rc = update(st->db, quot_sql, rule, now, bind_quot_cb, &a);
    r = sgi_store_write_end(st, rc, "storing misère results", err);
    if (!r && kept)
        *kept = !(take_g || take_q);
out:
    free(a.shown.s);
    free(a.exps.s);
    free(a.orders.s);
    free(a.tests.s);
    free(a.trans);
    return r;
}

sg_status sg_store_misere_drop(sg_store *st, const char *rule, int *found,
                               sg_error *err)
{
    int rc, yes = 0;
    sg_status r;

    *found = 0;
    if (!st->db)
        return SG_OK;
    if ((rc = has_table(st->db, &yes)) != SQLITE_OK)
        return sgi_store_db_error(err, st, rc, "reading its schema");
    if (!yes)
        return SG_OK;
    if ((r = sgi_store_write_begin(st, err)))
        return r;
    rc = sgi_store_run_rule(st->db, "DELETE FROM misere WHERE rule = ?1", rule,
                            found);
    if ((r = sgi_store_write_end(st, rc, "dropping a misère row", err)))
        *found = 0;
    return r;
}
