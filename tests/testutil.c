/*
 * testutil.c - the helpers several cmocka test programs share, written
 * once (declared in testutil.h, linked into every unit test through
 * tests/libsgref.a): a rule analysed beside its reference values, a deep
 * run saved and loaded again.
 */
#define _DEFAULT_SOURCE
#include "testutil.h"

#include <string.h>

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
