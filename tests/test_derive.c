/*
 * test_derive.c - unit tests of sg_derive_agree (enum/derive.c), a rule's
 * values read off a subgame's: for random codes (octal, hexadecimal, with
 * `!`, with a digit before the point) and random moves that leave at most
 * one heap added to them, the agreement it reports must be exactly where
 * the tests' independent reference finds the two rules' values to differ
 * first; and it must refuse every pair of rules the lemma does not cover.
 */
#define _DEFAULT_SOURCE
#include "reference.h"
#include "testutil.h"

#include <stdlib.h>
#include <string.h>

#include "sgexplore.h"

/* The first i < n where a and b differ, or n. */
static size_t first_difference(const uint32_t *a, const uint32_t *b, size_t n)
{
    size_t i = 0;

    while (i < n && a[i] == b[i])
        i++;
    return i;
}

/* sg_derive_agree of child over parent's values want[0..n-1], up to max. */
static size_t agree_of(const char *child, const char *parent,
                       const uint32_t *pv, size_t n, size_t max, sg_status *st,
                       sg_error *err)
{
    sg_rule c, p;
    sg_seq s;
    size_t agree = 12345;

    parse_or_fail(&c, SG_SYNTAX_RULE, child);
    parse_or_fail(&p, SG_SYNTAX_RULE, parent);
    sg_seq_init(&s);
    for (size_t i = 0; i < n; i++)
        assert_int_equal(sg_seq_append(&s, pv[i], err), SG_OK);
    memset(err, 0, sizeof *err);
    *st = sg_derive_agree(&c, &p, &s, max, &agree, err);
    sg_seq_clear(&s);
    sg_rule_clear(&c);
    sg_rule_clear(&p);
    return agree;
}

/* A child of parent: bits 1 and 2 added to random positions, some of
 * them past the parent's last digit (never at position 0). */
static void add_moves(ref_rule *child, const ref_rule *parent, tu_rng *g)
{
    size_t extra = (size_t)tu_range(g, 0, 3);

    *child = *parent;
    for (size_t j = 0; j < extra; j++) {
        size_t k = (size_t)tu_range(g, 1, parent->len + 1);
        if (k >= child->len)
            child->len = k + 1;
        child->digit[k] |= (uint8_t)tu_range(g, 1, 3);
    }
}

static void test_random_pairs(void **state)
{
    static const tu_code_opts opts[] = {
        {7, 1, 4, 1, 0, 0},  /* octal */
        {15, 1, 3, 1, 0, 0}, /* hexadecimal */
        {7, 1, 4, 1, 1, 0},  /* with `!` */
    };
    static ref_rule parent, child;
    size_t whole = 0, part = 0;
    tu_rng g;

    (void)state;
    tu_rng_init(&g, 5501);
    for (size_t i = 0; i < tu_scaled(400); i++) {
        size_t n = (size_t)tu_range(&g, 1, 700), max, want, got;
        uint32_t *pv = malloc(n * sizeof *pv), *cv = malloc(n * sizeof *cv);
        char *pt, *ct;
        sg_status st;
        sg_error err;

        assert_non_null(pv);
        assert_non_null(cv);
        tu_random_code(&parent, &g, &opts[tu_range(&g, 0, 2)]);
        add_moves(&child, &parent, &g);
        pt = ref_rule_text(&parent);
        ct = ref_rule_text(&child);
        assert_non_null(pt);
        assert_non_null(ct);
        ref_values(pv, n, &parent);
        ref_values(cv, n, &child);
        max = tu_chance(&g, 4) ? (size_t)tu_range(&g, 0, n) : SIZE_MAX;
        want = first_difference(pv, cv, n);
        if (want > max)
            want = max;
        got = agree_of(ct, pt, pv, n, max, &st, &err);
        if (st != SG_OK)
            fail_msg("%s from %s refused: %s (seed %llu)", ct, pt, err.msg,
                     TU_SEED);
        if (got != want)
            fail_msg("%s from %s over %zu values (max %zu): agree %zu, the "
                     "reference says %zu (seed %llu)",
                     ct, pt, n, max, got, want, TU_SEED);
        if (want == n)
            whole++;
        else
            part++;
        free(pt);
        free(ct);
        free(pv);
        free(cv);
    }
    /* both outcomes were tried, many times each */
    if (tu_scaled(400) >= 400) {
        assert_true(whole >= 40);
        assert_true(part >= 40);
    }
}

/* Cases chosen by hand, with values of the reference. */
static void test_known(void **state)
{
    static const struct {
        const char *child, *parent;
        size_t n;
    } cases[] = {
        {"0.03", "0.02", 50},      /* take-all at 2 hits G(2) = 0 */
        {"0.6466", "0.4444", 50},  /* G(1) = G(2) = 0 */
        {"0.2663", "0.264", 3000}, /* agree over all */
        {"0.7", "0.6", 100},       /* Dawson-like pair */
        {"subtract{1,2,5}", "subtract{1,2}", 200},
        {"0.0403", "0.04", 2000},
        {"4.07", "4.04", 500},
        {"0.4!7", "0.4!4", 300},
    };
    static ref_rule rp, rc;

    (void)state;
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        size_t n = cases[i].n;
        uint32_t *pv = malloc(n * sizeof *pv), *cv = malloc(n * sizeof *cv);
        sg_rule pr, cr;
        char *pt, *ct;
        sg_status st;
        sg_error err;
        size_t got;

        assert_non_null(pv);
        assert_non_null(cv);
        /* the reference reads codes; the library writes subtraction games
         * as codes too */
        parse_or_fail(&pr, SG_SYNTAX_RULE, cases[i].parent);
        parse_or_fail(&cr, SG_SYNTAX_RULE, cases[i].child);
        pt = sg_rule_canonical(&pr);
        ct = sg_rule_canonical(&cr);
        assert_non_null(pt);
        assert_non_null(ct);
        if (strncmp(pt, "subtract", 8) == 0) {
            static const uint64_t sp[] = {1, 2}, sc[] = {1, 2, 5};
            ref_rule_subtract(&rp, sp, 2);
            ref_rule_subtract(&rc, sc, 3);
        } else {
            assert_int_equal(ref_rule_from_code(&rp, cases[i].parent), 0);
            assert_int_equal(ref_rule_from_code(&rc, cases[i].child), 0);
        }
        ref_values(pv, n, &rp);
        ref_values(cv, n, &rc);
        got = agree_of(cases[i].child, cases[i].parent, pv, n, SIZE_MAX, &st,
                       &err);
        if (st != SG_OK)
            fail_msg("%s from %s refused: %s", cases[i].child, cases[i].parent,
                     err.msg);
        assert_int_equal(got, first_difference(pv, cv, n));
        sg_rule_clear(&pr);
        sg_rule_clear(&cr);
        free(pt);
        free(ct);
        free(pv);
        free(cv);
    }
}

/* Pairs the lemma does not cover are refused, with the reason. */
static void test_refused(void **state)
{
    static const struct {
        const char *child, *parent, *why;
    } cases[] = {
        {"0.04", "0.14", "lacks"},        /* the parent has more */
        {"0.44", "0.4", "more than one"}, /* an extra split */
        {"0.6", "0.2", "more than one"},  /* a split added to a digit */
        {"0.4!4", "0.44", "`!`"},         /* `!` added */
        {"0.44", "0.4!4", "`!`"},         /* `!` dropped */
        {"0.8", "0.0", "more than one"},  /* hexadecimal three heaps */
        {"0.[3]", "0.3", "finitely"},     /* a repeating tail */
        {"0.3", "0.[3]", "finitely"},
        {"subtract{primes}", "subtract{2}", "finitely"},
    };
    uint32_t pv[8] = {0, 1, 2, 0, 1, 2, 0, 1};

    (void)state;
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        sg_status st;
        sg_error err;
        size_t got = agree_of(cases[i].child, cases[i].parent, pv, 8, SIZE_MAX,
                              &st, &err);
        if (st != SG_E_INPUT)
            fail_msg("%s from %s: not refused (agree %zu)", cases[i].child,
                     cases[i].parent, got);
        if (!strstr(err.msg, cases[i].why))
            fail_msg("%s from %s: \"%s\" does not say \"%s\"", cases[i].child,
                     cases[i].parent, err.msg, cases[i].why);
        assert_int_equal(got, 0);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random_pairs),
        cmocka_unit_test(test_known),
        cmocka_unit_test(test_refused),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
