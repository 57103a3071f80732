/*
 * test_misere.c - unit tests of misère play (src/lib/misere/misere.c): the genus
 * text and the tame genera, the genus of Nim's heaps against the published
 * figures (ONAG ch. 12: 0^120, 1^031, then n^{n, n^2}), misère Nim
 * positions by both methods against Bouton's rule (the player to move wins
 * iff the number of 1-heaps is even when no heap exceeds 1, else iff the
 * nim-sum is not 0), every winning move applied and judged by the same
 * rule, and the budget turned into SG_E_UNKNOWN; misère quotients
 * (src/lib/misere/misere_quot.c and the files it names): Theorem Q's
 * check (misere_check.c) accepts each computed quotient and rejects every
 * candidate with one P label flipped or one transition redirected, and
 * quotient outcomes agree with the exact search on random sums.
 */
#include "testutil.h"

#include <string.h>

#include "sgexplore.h"
#include "internal.h"

static sg_genus genus(sg_value g, unsigned len, const sg_value *gam)
{
    sg_genus x;

    memset(&x, 0, sizeof x);
    x.g = g;
    x.len = len;
    memcpy(x.gamma, gam, len * sizeof *gam);
    return x;
}

static void test_genus_text(void **state)
{
    static const sg_value zero[] = {1, 2, 0, 2, 0, 2};
    static const sg_value one[] = {0, 3, 1, 3};
    static const sg_value two[] = {2, 0, 2, 0};
    static const sg_value k5[] = {1, 4, 6, 4};
    static const sg_value big[] = {8, 10, 8, 10};
    static const sg_value late[] = {0, 2, 0, 2, 0, 4, 2, 0, 2, 0};
    char buf[16 + 11 * SG_GENUS_MAX];
    sg_genus x;

    (void)state;
    x = genus(0, 6, zero);
    assert_string_equal(sg_genus_format(buf, sizeof buf, &x), "0^120");
    assert_true(sg_genus_is_tame(&x));
    x = genus(1, 4, one);
    assert_string_equal(sg_genus_format(buf, sizeof buf, &x), "1^031");
    assert_true(sg_genus_is_tame(&x));
    x = genus(2, 4, two);
    assert_string_equal(sg_genus_format(buf, sizeof buf, &x), "2^20");
    assert_true(sg_genus_is_tame(&x));
    x = genus(4, 4, k5);
    assert_string_equal(sg_genus_format(buf, sizeof buf, &x), "4^146");
    assert_false(sg_genus_is_tame(&x));
    x = genus(8, 4, big);
    assert_string_equal(sg_genus_format(buf, sizeof buf, &x), "8^{8,10}");
    assert_true(sg_genus_is_tame(&x));
    x = genus(2, 10, late);
    assert_string_equal(sg_genus_format(buf, sizeof buf, &x), "2^02020420");
    assert_false(sg_genus_is_tame(&x));
    /* 0^02 is firm (the genus of *2 + *2), 0^20 is not tame */
    x = genus(0, 4, (const sg_value[]){0, 2, 0, 2});
    assert_true(sg_genus_is_tame(&x));
    x = genus(0, 4, (const sg_value[]){2, 0, 2, 0});
    assert_false(sg_genus_is_tame(&x));
}

static void test_nim_genus(void **state)
{
    sg_rule r;
    sg_misere m;
    sg_error err;
    size_t n;

    (void)state;
    sg_rule_init(&r);
    assert_int_equal(sg_rule_parse(&r, SG_SYNTAX_RULE, "nim", &err), SG_OK);
    sg_misere_init(&m);
    assert_int_equal(
        sg_misere_analyse(&m, &r, 24, (size_t)64 << 20, NULL, &err), SG_OK);
    assert_int_equal(m.n, 24);
    assert_int_equal(m.tame_to, 24);
    for (n = 0; n < 24; n++) {
        char buf[16 + 11 * SG_GENUS_MAX], want[64];
        const sg_genus *x = &m.genus[n];
        assert_int_equal(x->g, n);
        if (n == 0)
            strcpy(want, "0^120");
        else if (n == 1)
            strcpy(want, "1^031");
        else if (n < 8)
            sprintf(want, "%zu^%zu%zu", n, n, n ^ 2);
        else
            sprintf(want, "%zu^{%zu,%zu}", n, n, n ^ 2);
        assert_string_equal(sg_genus_format(buf, sizeof buf, x), want);
        assert_int_equal(m.value[n], n <= 1 ? n ^ 1 : n);
    }
    sg_misere_clear(&m);
    sg_rule_clear(&r);
}

/* Bouton's misère rule: 1 when the player to move wins. */
static int bouton(const size_t *h, size_t n)
{
    size_t i, ones = 0, x = 0;
    int small = 1;

    for (i = 0; i < n; i++) {
        x ^= h[i];
        ones += h[i] == 1;
        small &= h[i] <= 1;
    }
    return small ? ones % 2 == 0 : x != 0;
}

static void test_nim_positions(void **state)
{
    sg_rule r;
    sg_misere full, none;
    sg_error err;
    size_t h[3], a, b, c, k;

    (void)state;
    sg_rule_init(&r);
    assert_int_equal(sg_rule_parse(&r, SG_SYNTAX_RULE, "nim", &err), SG_OK);
    sg_misere_init(&full);
    sg_misere_init(&none);
    assert_int_equal(
        sg_misere_analyse(&full, &r, 12, (size_t)64 << 20, NULL, &err), SG_OK);
    assert_int_equal(
        sg_misere_analyse(&none, &r, 0, (size_t)64 << 20, NULL, &err), SG_OK);
    for (a = 0; a < 12; a++)
        for (b = 0; b < 12; b++)
            for (c = 0; c < 12; c++)
                for (k = 0; k < 2; k++) {
                    sg_misere_position p;
                    const sg_misere *m = k ? &none : &full;
                    h[0] = a;
                    h[1] = b;
                    h[2] = c;
                    assert_int_equal(
                        sg_misere_position_analyse(
                            &p, &r, m, h, 3, (size_t)64 << 20, NULL, &err),
                        SG_OK);
                    assert_int_equal(p.method,
                                     k ? SG_MISERE_SEARCH : SG_MISERE_TAME);
                    assert_int_equal(p.first_wins, bouton(h, 3));
                    if (p.first_wins && (a || b || c)) {
                        size_t left[3];
                        assert_true(p.move_heap >= 0 && p.move_heap < 3);
                        memcpy(left, h, sizeof left);
                        assert_true(p.take >= 1 && p.take <= left[p.move_heap]);
                        left[p.move_heap] -= p.take;
                        assert_int_equal(p.nparts, left[p.move_heap] ? 1 : 0);
                        if (p.nparts)
                            assert_int_equal(p.part[0], left[p.move_heap]);
                        assert_false(bouton(left, 3));
                    }
                }
    sg_misere_clear(&full);
    sg_misere_clear(&none);
    sg_rule_clear(&r);
}

static void test_budget(void **state)
{
    sg_rule r;
    sg_misere m;
    sg_error err;
    sg_misere_position p;
    static const size_t heaps[] = {40, 41, 42, 43};

    (void)state;
    sg_rule_init(&r);
    assert_int_equal(sg_rule_parse(&r, SG_SYNTAX_RULE, "kayles", &err), SG_OK);
    sg_misere_init(&m);
    assert_int_equal(
        sg_misere_analyse(&m, &r, 200, (size_t)1 << 20, NULL, &err),
        SG_E_UNKNOWN);
    assert_true(m.n < 200);
    assert_non_null(strstr(err.msg, "too large"));
    assert_int_equal(sg_misere_position_analyse(&p, &r, &m, heaps, 4,
                                                (size_t)1 << 20, NULL, &err),
                     SG_E_UNKNOWN);
    assert_non_null(strstr(err.msg, "too large"));
    sg_misere_clear(&m);
    sg_rule_clear(&r);
}

/* A raised cancel flag stops the genus and the search with
 * SG_E_INTERRUPTED (Ctrl-C and --seconds reach them through it): the
 * genus keeps the heaps finished before, here those of a first run. */
static void test_cancel(void **state)
{
    sg_rule r;
    sg_misere m, full;
    sg_error err;
    sg_misere_position p;
    volatile sig_atomic_t flag = 1;
    static const size_t heaps[] = {5, 7, 9};

    (void)state;
    sg_rule_init(&r);
    assert_int_equal(sg_rule_parse(&r, SG_SYNTAX_RULE, "kayles", &err), SG_OK);
    sg_misere_init(&m);
    sg_misere_init(&full);
    assert_int_equal(
        sg_misere_analyse(&m, &r, 30, (size_t)64 << 20, &flag, &err),
        SG_E_INTERRUPTED);
    assert_int_equal(m.n, 0);
    assert_non_null(strstr(err.msg, "interrupted"));
    assert_int_equal(
        sg_misere_analyse(&full, &r, 12, (size_t)64 << 20, NULL, &err), SG_OK);
    /* heaps 5, 7 and 9 are wild: the exact search decides the sum */
    assert_true(full.tame_to <= 5);
    assert_int_equal(sg_misere_position_analyse(&p, &r, &full, heaps, 3,
                                                (size_t)64 << 20, &flag, &err),
                     SG_E_INTERRUPTED);
    flag = 0;
    assert_int_equal(sg_misere_position_analyse(&p, &r, &full, heaps, 3,
                                                (size_t)64 << 20, &flag, &err),
                     SG_OK);
    assert_int_equal(p.method, SG_MISERE_SEARCH);
    sg_misere_clear(&m);
    sg_misere_clear(&full);
    sg_rule_clear(&r);
}

/* Try to fool Theorem Q's check: the quotient of Kayles (heaps 1..8, order
 * 12) and of 0.07 (heaps 1..11, a heap that splits classes of the one
 * before) pass; each with one label flipped, or one transition sent to
 * another state, fails. */
static void test_quotient_check(void **state)
{
    static const char *const codes[] = {"0.77", "0.07", "0.75"};
    static const size_t heaps[] = {8, 11, 10};
    size_t c;

    (void)state;
    for (c = 0; c < 3; c++) {
        sg_rule r;
        sg_error err;
        sg_mquot q;
        size_t u, h, t, n, k;
        uint32_t *tr;
        unsigned char *lab;

        sg_rule_init(&r);
        assert_int_equal(sg_rule_parse(&r, SG_SYNTAX_RULE, codes[c], &err),
                         SG_OK);
        sg_mquot_init(&q);
        assert_int_equal(sg_misere_quotient(&q, &r, heaps[c], 1024,
                                            (size_t)64 << 20, NULL, &err),
                         SG_OK);
        n = q.order;
        k = q.heaps;
        assert_int_equal(
            sgi_mquot_verify(&r, k, n, q.trans, q.p, (size_t)64 << 20, &err),
            0);
        tr = test_malloc(n * k * sizeof *tr);
        lab = test_malloc(n);
        memcpy(tr, q.trans, n * k * sizeof *tr);
        memcpy(lab, q.p, n);
        for (u = 0; u < n; u++) {
            lab[u] ^= 1;
            assert_int_equal(
                sgi_mquot_verify(&r, k, n, tr, lab, (size_t)64 << 20, &err), 1);
            lab[u] ^= 1;
        }
        for (u = 0; u < n; u++)
            for (h = 0; h < k; h++)
                for (t = 0; t < n; t++) {
                    uint32_t keep = tr[u * k + h];
                    if (t == keep)
                        continue;
                    tr[u * k + h] = (uint32_t)t;
                    assert_int_equal(sgi_mquot_verify(&r, k, n, tr, lab,
                                                      (size_t)64 << 20, &err),
                                     1);
                    tr[u * k + h] = keep;
                }
        test_free(tr);
        test_free(lab);
        sg_mquot_clear(&q);
        sg_rule_clear(&r);
    }
}

/* A quotient the recalibrated rungs found (0.07's heaps 1..25: heap 25
 * splits classes of Q_24, docs/MISERE.md "How the candidates are found")
 * passes the check, and the check refuses it with any one P-label
 * flipped or with any of 400 transitions (spread over states and heaps)
 * sent elsewhere. */
static void test_quotient_check_rungs(void **state)
{
    sg_rule r;
    sg_error err;
    sg_mquot q;
    size_t u, i, n, k;
    uint32_t *tr;
    unsigned char *lab;
    tu_rng g;

    (void)state;
    sg_rule_init(&r);
    assert_int_equal(sg_rule_parse(&r, SG_SYNTAX_RULE, "0.07", &err), SG_OK);
    sg_mquot_init(&q);
    assert_int_equal(
        sg_misere_quotient(&q, &r, 25, 1024, (size_t)64 << 20, NULL, &err),
        SG_OK);
    n = q.order;
    k = q.heaps;
    assert_int_equal(k, 25);
    assert_true(n > q.orders[24]); /* heap 25 made it larger */
    assert_int_equal(
        sgi_mquot_verify(&r, k, n, q.trans, q.p, (size_t)64 << 20, &err), 0);
    tr = test_malloc(n * k * sizeof *tr);
    lab = test_malloc(n);
    memcpy(tr, q.trans, n * k * sizeof *tr);
    memcpy(lab, q.p, n);
    for (u = 0; u < n; u++) {
        lab[u] ^= 1;
        assert_int_equal(
            sgi_mquot_verify(&r, k, n, tr, lab, (size_t)64 << 20, &err), 1);
        lab[u] ^= 1;
    }
    tu_rng_init(&g, 52);
    for (i = 0; i < 400; i++) {
        size_t uu = (size_t)tu_range(&g, 0, n - 1),
               h = (size_t)tu_range(&g, 0, k - 1);
        uint32_t keep = tr[uu * k + h],
                 t = (uint32_t)((keep + tu_range(&g, 1, n - 1)) % n);
        tr[uu * k + h] = t;
        assert_int_equal(
            sgi_mquot_verify(&r, k, n, tr, lab, (size_t)64 << 20, &err), 1);
        tr[uu * k + h] = keep;
    }
    test_free(tr);
    test_free(lab);
    sg_mquot_clear(&q);
    sg_rule_clear(&r);
}

/* Two quotients of the same heaps are the same machine (the numbering
 * is breadth first from the identity, whoever found it). */
static void assert_same_quotient(const sg_mquot *a, const sg_mquot *b)
{
    assert_int_equal(a->heaps, b->heaps);
    assert_int_equal(a->order, b->order);
    assert_memory_equal(a->orders, b->orders,
                        (a->heaps + 1) * sizeof *a->orders);
    assert_memory_equal(a->trans, b->trans,
                        a->order * a->heaps * sizeof *a->trans);
    assert_memory_equal(a->p, b->p, a->order);
}

/* The candidates built as monoids (misere_monoid.c), tried first at every
 * heap, give the quotients the learning gives, each passing the check
 * again; with one P bit of every candidate flipped (a candidate built to
 * fool the check) none is accepted, and the learning still finds the
 * same quotients. */
static void test_quotient_monoid(void **state)
{
    static const char *codes[] = {"0.77",  "0.07", "0.137", "0.75", "0.123",
                                  "0.312", "0.34", "0.71",  "0.15", "0.16"};
    static const size_t heaps[] = {16, 18, 17, 16, 16, 16, 16, 16, 18, 13};
    size_t c;

    (void)state;
    for (c = 0; c < sizeof codes / sizeof *codes; c++) {
        sg_rule r;
        sg_error err;
        sg_mquot a, b, d;
        size_t mh = 0, md = 99;

        sg_rule_init(&r);
        assert_int_equal(sg_rule_parse(&r, SG_SYNTAX_RULE, codes[c], &err),
                         SG_OK);
        sg_mquot_init(&a);
        sg_mquot_init(&b);
        sg_mquot_init(&d);
        assert_int_equal(sg_misere_quotient(&a, &r, heaps[c], 1024,
                                            (size_t)64 << 20, NULL, &err),
                         SG_OK);
        assert_int_equal(sgi_misere_quotient_test(
                             &b, &r, heaps[c], 1024, (size_t)64 << 20, NULL,
                             NULL, SGI_MQUOT_MONOID_FIRST, &mh, &err),
                         SG_OK);
        assert_true(mh > 0);
        assert_same_quotient(&a, &b);
        assert_int_equal(sgi_mquot_verify(&r, b.heaps, b.order, b.trans, b.p,
                                          (size_t)64 << 20, &err),
                         0);
        assert_int_equal(
            sgi_misere_quotient_test(
                &d, &r, heaps[c], 1024, (size_t)64 << 20, NULL, NULL,
                SGI_MQUOT_MONOID_FIRST | SGI_MQUOT_MONOID_CORRUPT, &md, &err),
            SG_OK);
        assert_int_equal(md, 0);
        assert_same_quotient(&a, &d);
        sg_mquot_clear(&a);
        sg_mquot_clear(&b);
        sg_mquot_clear(&d);
        sg_rule_clear(&r);
    }
}

/* 0.07's heap 27, where every rung of the fast oracle fails (the
 * quotient of heaps 1..27 has 176 elements, as MisereSolver's): the
 * monoid rung proves it, and the check confirms it on its own. */
static void test_quotient_monoid_dawson(void **state)
{
    sg_rule r;
    sg_error err;
    sg_mquot q;
    size_t mh = 0;

    (void)state;
    sg_rule_init(&r);
    assert_int_equal(sg_rule_parse(&r, SG_SYNTAX_RULE, "0.07", &err), SG_OK);
    sg_mquot_init(&q);
    assert_int_equal(sgi_misere_quotient_test(&q, &r, 27, 1024,
                                              (size_t)64 << 20, NULL, NULL, 0,
                                              &mh, &err),
                     SG_OK);
    assert_int_equal(q.heaps, 27);
    assert_true(mh > 0);
    assert_int_equal(q.order, 176);
    assert_int_equal(q.orders[25], 144);
    assert_int_equal(sgi_mquot_verify(&r, q.heaps, q.order, q.trans, q.p,
                                      (size_t)64 << 20, &err),
                     0);
    sg_mquot_clear(&q);
    sg_rule_clear(&r);
}

/* The quotient's outcomes and winning moves against the exact search
 * (sg_misere_position_analyse with no tame heap) on random sums of Kayles
 * heaps 1..12. */
static void test_quotient_positions(void **state)
{
    sg_rule r;
    sg_error err;
    sg_mquot q;
    sg_misere m;
    size_t i, j, trial;
    tu_rng g;

    (void)state;
    tu_rng_init(&g, 24);
    sg_rule_init(&r);
    assert_int_equal(sg_rule_parse(&r, SG_SYNTAX_RULE, "kayles", &err), SG_OK);
    sg_mquot_init(&q);
    assert_int_equal(
        sg_misere_quotient(&q, &r, 12, 1024, (size_t)64 << 20, NULL, &err),
        SG_OK);
    sg_misere_init(&m); /* tame_to 0: the search decides everything */
    for (trial = 0; trial < tu_scaled(200); trial++) {
        size_t h[5], n = (size_t)tu_range(&g, 1, 5);
        sg_misere_position a, b;
        for (i = 0; i < n; i++)
            h[i] = (size_t)tu_range(&g, 0, 12);
        assert_int_equal(sg_misere_position_analyse(
                             &a, &r, &m, h, n, (size_t)64 << 20, NULL, &err),
                         SG_OK);
        assert_int_equal(sg_misere_position_quotient(&b, &r, &q, h, n, &err),
                         SG_OK);
        assert_int_equal(a.first_wins, b.first_wins);
        assert_int_equal(b.method, SG_MISERE_QUOTIENT);
        if (b.move_heap >= 0) { /* the quotient's move leaves a P-position */
            size_t x[8], nx = 0;
            sg_misere_position c;
            for (j = 0; j < n; j++)
                if ((long)j != b.move_heap)
                    x[nx++] = h[j];
            for (j = 0; j < (size_t)b.nparts; j++)
                x[nx++] = b.part[j];
            assert_int_equal(sg_misere_position_analyse(&c, &r, &m, x, nx,
                                                        (size_t)64 << 20, NULL,
                                                        &err),
                             SG_OK);
            assert_int_equal(c.first_wins, 0);
        }
    }
    sg_misere_clear(&m);
    sg_mquot_clear(&q);
    sg_rule_clear(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_genus_text),
        cmocka_unit_test(test_nim_genus),
        cmocka_unit_test(test_nim_positions),
        cmocka_unit_test(test_budget),
        cmocka_unit_test(test_cancel),
        cmocka_unit_test(test_quotient_check),
        cmocka_unit_test(test_quotient_check_rungs),
        cmocka_unit_test(test_quotient_monoid),
        cmocka_unit_test(test_quotient_monoid_dawson),
        cmocka_unit_test(test_quotient_positions),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
