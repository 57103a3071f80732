/*
 * testutil.c - the helpers several cmocka test programs share, written
 * once (declared in testutil.h, linked into every unit test through
 * tests/libsgref.a): scratch files and directories under $TMPDIR with the
 * cmocka fixtures that make and remove one per test, a whole file read
 * back, a bad rule text refused, a rule analysed beside its reference
 * values, a deep run saved and loaded again, and the certificate checksum
 * recomputed from the values.
 */
#define _DEFAULT_SOURCE
#include "testutil.h"

#include <string.h>

/* $TMPDIR (the test's own directory under make check), else /tmp. */
static const char *tmp_base(void)
{
    const char *base = getenv("TMPDIR");

    return base && *base ? base : "/tmp";
}

char *tu_scratch(const char *name)
{
    return tu_path_in(tmp_base(), name);
}

char *tu_path_in(const char *dir, const char *name)
{
    char *p = malloc(strlen(dir) + strlen(name) + 2);

    assert_non_null(p);
    sprintf(p, "%s/%s", dir, name);
    return p;
}

char *tu_tmp_dir(void)
{
    char *d = malloc(4096);

    assert_non_null(d);
    snprintf(d, 4096, "%s/sgtestXXXXXX", tmp_base());
    assert_non_null(mkdtemp(d));
    return d;
}

void tu_rm_tree(char *dir)
{
    char cmd[4200];

    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);
    free(dir);
}

int tu_tmp_setup(void **state)
{
    tu_tmp *t = malloc(sizeof *t);

    assert_non_null(t);
    t->dir = tu_tmp_dir();
    t->path = tu_path_in(t->dir, "c.db");
    *state = t;
    return 0;
}

int tu_tmp_teardown(void **state)
{
    tu_tmp *t = *state;

    free(t->path);
    tu_rm_tree(t->dir);
    free(t);
    return 0;
}

void *tu_slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    char *buf;
    long n;

    assert_non_null(f);
    assert_int_equal(fseek(f, 0, SEEK_END), 0);
    n = ftell(f);
    assert_true(n >= 0);
    rewind(f);
    buf = malloc((size_t)n + 1);
    assert_non_null(buf);
    assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
    buf[n] = '\0';
    fclose(f);
    if (len)
        *len = (size_t)n;
    return buf;
}

void tu_expect_bad_rule(sg_rule_syntax syntax, const char *text, long pos,
                        sg_error *out)
{
    sg_rule r;
    sg_error err;
    sg_status st;
    long len = (long)strlen(text);

    sg_rule_init(&r);
    memset(&err, 0, sizeof err);
    err.pos = -7;
    st = sg_rule_parse(&r, syntax, text, &err);
    if (st != SG_E_INPUT) {
        char *c = st == SG_OK ? sg_rule_canonical(&r) : NULL;
        fail_msg("\"%s\" (syntax %d): status %d (canonical %s), expected "
                 "SG_E_INPUT",
                 text, (int)syntax, (int)st, c ? c : "-");
    }
    assert_int_equal(err.code, SG_E_INPUT);
    if (err.msg[0] == '\0' || strchr(err.msg, '\n') != NULL)
        fail_msg("\"%s\": the message \"%s\" is not one line", text, err.msg);
    if (err.pos < 0 || err.pos > len)
        fail_msg("\"%s\": error position %ld outside 0..%ld (%s)", text,
                 err.pos, len, err.msg);
    if (pos >= 0 && err.pos != pos)
        fail_msg("\"%s\": error position %ld, expected %ld (%s)", text, err.pos,
                 pos, err.msg);
    assert_int_equal(r.nterms, 0);
    assert_int_equal(r.tail_len, 0);
    sg_rule_clear(&r);
    sg_rule_clear(&r); /* clearing twice is harmless */
    if (out)
        *out = err;
}

void tu_game_init(tu_game *g, const char *code, size_t max, size_t nref)
{
    static ref_rule rr;
    sg_error err;

    memset(g, 0, sizeof *g);
    sg_rule_init(&g->r);
    sg_seq_init(&g->s);
    if (sg_rule_parse(&g->r, SG_SYNTAX_RULE, code, &err) != SG_OK)
        fail_msg("%s: %s", code, err.msg);
    g->canon = sg_rule_canonical(&g->r);
    assert_non_null(g->canon);
    if (max && sg_analyse(&g->res, &g->s, &g->r, max, NULL, &err) != SG_OK)
        fail_msg("%s: sg_analyse: %s", code, err.msg);
    assert_int_equal(ref_rule_from_code(&rr, code), 0);
    g->nref = nref;
    g->ref = malloc(nref * sizeof *g->ref);
    assert_non_null(g->ref);
    ref_values(g->ref, nref, &rr);
}

void tu_game_clear(tu_game *g)
{
    sg_rule_clear(&g->r);
    sg_seq_clear(&g->s);
    free(g->canon);
    free(g->ref);
}

void tu_deep_round_trip(sg_deep *d, const sg_rule *r)
{
    void *blob;
    size_t len;
    sg_error err;
    sg_deep e;

    memset(&err, 0, sizeof err);
    if (sg_deep_save(d, r, &blob, &len, &err) != SG_OK)
        fail_msg("save: %s", err.msg);
    if (sg_deep_load(&e, r, blob, len, &err) != SG_OK)
        fail_msg("load of a fresh checkpoint: %s", err.msg);
    free(blob);
    sg_deep_clear(d);
    *d = e;
}

uint64_t tu_fnv_text(const uint32_t *g, size_t n)
{
    size_t cap = 12 * n + 1, at = 0;
    char *text = malloc(cap);
    uint64_t h = 14695981039346656037ULL;

    assert_non_null(text);
    text[0] = '\0';
    for (size_t i = 0; i < n; i++) {
        at += (size_t)snprintf(text + at, cap - at, "%s%u", i ? "," : "", g[i]);
    }
    for (size_t i = 0; i < at; i++) {
        h ^= (unsigned char)text[i];
        h *= 1099511628211ULL;
    }
    free(text);
    return h;
}
