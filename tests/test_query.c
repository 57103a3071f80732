/*
 * test_query.c - unit tests of the big-heap queries: sg_value_at for heaps
 * of any size, sg_find_move and sg_position_analyse.  Every winning move
 * the library returns is applied and judged independently: the move must
 * be legal under the reference's reading of the rule, and the position it
 * leaves must have nim-sum 0.
 */
#include "testutil.h"

#include <string.h>

#include "sgexplore.h"

/* ------------------------------------------------------------------ */
/* Helpers                                                              */
/* ------------------------------------------------------------------ */

/* One analysed rule: parsed, its reference twin, values and proof. */
typedef struct game {
    const char *text;
    sg_rule r;
    ref_rule ref;
    sg_seq s;
    sg_result res;
    uint32_t *g; /* reference values G(0..ng-1) */
    size_t ng;
    int ref_periodic; /* the reference prefix shows a period: */
    uint64_t ref_p, ref_n0;
    uint64_t ref_s; /* its saltus (arithmetic-periodic games), else 0 */
} game;

static void list_to_set(uint64_t *set, size_t *n, const char *p)
{
    *n = 0;
    while (*p && *p != '}') {
        char *end;
        uint64_t lo = strtoull(p, &end, 10), hi = lo;
        if (*end == '-') {
            hi = strtoull(end + 1, &end, 10);
        }
        for (uint64_t x = lo; x <= hi; x++) {
            set[(*n)++] = x;
        }
        p = *end == ',' ? end + 1 : end;
    }
}

/* Set up a game from rule text (--rule syntax, or "subtract{..}"), analyse
 * it up to max values and compute ng reference values. */
static game *game_new(const char *text, size_t max, size_t ng)
{
    game *gm = calloc(1, sizeof *gm);
    sg_error err;
    sg_status st;

    assert_non_null(gm);
    gm->text = text;
    if (strncmp(text, "subtract{", 9) == 0) {
        uint64_t set[256];
        size_t n;
        list_to_set(set, &n, text + 9);
        ref_rule_subtract(&gm->ref, set, n);
    } else if (strncmp(text, "all-but{", 8) == 0) {
        uint64_t set[256];
        size_t n;
        list_to_set(set, &n, text + 8);
        ref_rule_allbut(&gm->ref, set, n);
    } else if (ref_rule_from_code(&gm->ref, text) != 0) {
        fail_msg("test bug: reference cannot read %s", text);
    }
    sg_rule_init(&gm->r);
    memset(&err, 0, sizeof err);
    if (sg_rule_parse(&gm->r, SG_SYNTAX_RULE, text, &err) != SG_OK) {
        fail_msg("cannot parse %s: %s", text, err.msg);
    }
    sg_seq_init(&gm->s);
    st = sg_analyse(&gm->res, &gm->s, &gm->r, max, NULL, &err);
    if (st != SG_OK) {
        fail_msg("%s: sg_analyse: %s", text, err.msg);
    }
    gm->ng = ng;
    gm->g = malloc(ng * sizeof *gm->g);
    assert_non_null(gm->g);
    ref_values(gm->g, ng, &gm->ref);
    gm->ref_periodic = ref_find_period(&gm->ref_p, &gm->ref_n0, gm->g, ng);
    if (!gm->ref_periodic)
        gm->ref_periodic = ref_find_arith_period(&gm->ref_p, &gm->ref_n0,
                                                 &gm->ref_s, gm->g, ng);
    return gm;
}

static void game_free(game *gm)
{
    sg_rule_clear(&gm->r);
    sg_seq_clear(&gm->s);
    free(gm->g);
    free(gm);
}

/* The reference value of any heap h of a game whose reference prefix
 * shows a period (observed, but on a prefix at least four times the
 * period and twice the pre-period, and the library's claims are checked
 * against it separately). */
static void ref_value_big(mpz_t out, const game *gm, const mpz_t h)
{
    mpz_t t;

    if (mpz_cmp_ui(h, (unsigned long)gm->ng) < 0) {
        mpz_set_ui(out, gm->g[mpz_get_ui(h)]);
        return;
    }
    if (!gm->ref_periodic) {
        fail_msg("%s: test bug: reference prefix shows no period", gm->text);
    }
    mpz_init(t);
    mpz_sub_ui(t, h, (unsigned long)gm->ref_n0);
    mpz_set_ui(out,
               gm->g[gm->ref_n0 + mpz_fdiv_ui(t, (unsigned long)gm->ref_p)]);
    /* with a saltus: plus s times the periods from n0 */
    mpz_fdiv_q_ui(t, t, (unsigned long)gm->ref_p);
    mpz_addmul_ui(out, t, (unsigned long)gm->ref_s);
    mpz_clear(t);
}

/* G(h) as the test knows it: the reference for small heaps and, for big
 * heaps, the reference's period; only when the reference shows none, the
 * library's sg_value_at.  Returns 0 when unknown. */
static int value_of(mpz_t out, const game *gm, const mpz_t h)
{
    if (mpz_cmp_ui(h, (unsigned long)gm->ng) < 0 || gm->ref_periodic) {
        ref_value_big(out, gm, h);
        return 1;
    }
    return sg_value_at(out, &gm->res, &gm->s, h) == SG_OK;
}

static char *str_of(const mpz_t x)
{
    return mpz_get_str(NULL, 10, x);
}

/* A move from heap h must be legal and lead to heaps of nim-sum target. */
static void check_move(const game *gm, const mpz_t h, const sg_move *m,
                       const mpz_t target, const char *what)
{
    mpz_t v, x, lib;

    if (!ref_move_legal(&gm->ref, h, m->take, m->nleft, m->left)) {
        char *hs = str_of(h), *ts = str_of(m->take);
        fail_msg("%s: illegal move from heap %s: take %s leaving %d heaps "
                 "(seed %llu)",
                 what, hs, ts, m->nleft, TU_SEED);
    }
    mpz_init_set_ui(x, 0);
    mpz_init(v);
    mpz_init(lib);
    for (int i = 0; i < m->nleft; i++) {
        if (!value_of(v, gm, m->left[i])) {
            char *ls = str_of(m->left[i]);
            fail_msg("%s: value of the heap %s left by the move is unknown",
                     what, ls);
        }
        /* The library must agree on the value of what it leaves. */
        if (sg_value_at(lib, &gm->res, &gm->s, m->left[i]) == SG_OK &&
            mpz_cmp(lib, v) != 0) {
            char *ls = str_of(m->left[i]);
            fail_msg("%s: sg_value_at(%s) differs from the reference", what,
                     ls);
        }
        mpz_xor(x, x, v);
    }
    mpz_clear(lib);
    if (mpz_cmp(x, target) != 0) {
        char *hs = str_of(h), *xs = str_of(x), *ts = str_of(target);
        fail_msg("%s: move from heap %s leaves value %s, wanted %s (seed "
                 "%llu)",
                 what, hs, xs, ts, TU_SEED);
    }
    mpz_clear(v);
    mpz_clear(x);
}

/* Whether some move from the small heap h reaches value target, by the
 * reference's own listing of moves. */
static int ref_reaches(const game *gm, size_t h, uint32_t target)
{
    const uint32_t *g = gm->g;

    for (size_t k = 0; k <= h; k++) {
        int u;
        unsigned d = ref_digit(&gm->ref, k, &u);
        size_t rest = h - k;

        if ((d & 1) && k > 0 && rest == 0 && target == 0) {
            return 1;
        }
        if ((d & 2) && k > 0 && rest >= 1 && g[rest] == target) {
            return 1;
        }
        for (size_t a = 1; (d & 4) && 2 * a <= rest; a++) {
            if (!(u && 2 * a == rest) && (g[a] ^ g[rest - a]) == target) {
                return 1;
            }
        }
        for (size_t a = 1; (d & 8) && 3 * a <= rest; a++) {
            for (size_t b = a; a + 2 * b <= rest; b++) {
                size_t c = rest - a - b;
                if (!(u && (a == b || b == c)) &&
                    (g[a] ^ g[b] ^ g[c]) == target) {
                    return 1;
                }
            }
        }
    }
    return 0;
}

/* Analyse a position and judge the answer independently. */
static void check_position(const game *gm, mpz_t *heaps, size_t nheaps,
                           const char *what)
{
    sg_position pos;
    sg_status st;
    mpz_t v, nim, after;

    mpz_init(v);
    mpz_init_set_ui(nim, 0);
    mpz_init(after);
    for (size_t i = 0; i < nheaps; i++) {
        if (!value_of(v, gm, heaps[i])) {
            fail_msg("%s: test bug: heap %zu has no known value", what, i);
        }
        mpz_xor(nim, nim, v);
    }
    sg_position_init(&pos);
    st = sg_position_analyse(&pos, &gm->r, &gm->res, &gm->s, heaps, nheaps);
    if (st != SG_OK) {
        fail_msg("%s: sg_position_analyse returned %d (seed %llu)", what,
                 (int)st, TU_SEED);
    }
    assert_int_equal(pos.nheaps, nheaps);
    for (size_t i = 0; i < nheaps; i++) {
        assert_true(value_of(v, gm, heaps[i]));
        if (mpz_cmp(v, pos.values[i]) != 0) {
            char *hs = str_of(heaps[i]);
            fail_msg("%s: value of heap %s differs (seed %llu)", what, hs,
                     TU_SEED);
        }
    }
    if (mpz_cmp(nim, pos.nim_sum) != 0) {
        fail_msg("%s: nim-sum differs (seed %llu)", what, TU_SEED);
    }
    assert_int_equal(!!pos.first_wins, mpz_sgn(nim) != 0);
    if (!pos.first_wins) {
        assert_int_equal(pos.move_heap, -1);
    } else {
        long i = pos.move_heap;
        if (i < 0 || (size_t)i >= nheaps) {
            fail_msg("%s: first player wins, but move_heap is %ld", what, i);
        }
        /* The new value of the heap played must make the nim-sum 0. */
        assert_true(value_of(v, gm, heaps[i]));
        mpz_xor(after, nim, v);
        check_move(gm, heaps[i], &pos.move, after, what);
    }
    sg_position_clear(&pos);
    mpz_clear(v);
    mpz_clear(nim);
    mpz_clear(after);
}

static void set_heaps(mpz_t *h, const unsigned long *v, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        mpz_init_set_ui(h[i], v[i]);
    }
}

static void clear_heaps(mpz_t *h, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        mpz_clear(h[i]);
    }
}

/* ------------------------------------------------------------------ */
/* sg_value_at                                                          */
/* ------------------------------------------------------------------ */

static void test_value_at_small(void **state)
{
    static const char *rules[] = {"subtract{2,3,5,7,11,13}",
                                  "subtract{1,3,4}",
                                  "0.77",
                                  "0.07",
                                  "0.137",
                                  "4.07",
                                  "0.52"};
    mpz_t n, v;

    (void)state;
    mpz_init(n);
    mpz_init(v);
    for (size_t i = 0; i < sizeof rules / sizeof rules[0]; i++) {
        game *gm = game_new(rules[i], 3000, 3000);
        assert_int_equal(gm->res.status, SG_PERIODIC);
        for (size_t k = 0; k < gm->ng; k++) {
            mpz_set_ui(n, k);
            assert_int_equal(sg_value_at(v, &gm->res, &gm->s, n), SG_OK);
            if (mpz_cmp_ui(v, gm->g[k]) != 0) {
                fail_msg("%s: G(%zu) = %lu, reference %u", rules[i], k,
                         mpz_get_ui(v), gm->g[k]);
            }
        }
        game_free(gm);
    }
    mpz_clear(n);
    mpz_clear(v);
}

static void test_value_at_huge(void **state)
{
    static const uint32_t primes[9] = {0, 0, 1, 1, 2, 2, 3, 3, 4};
    static const char *bigs[] = {"1000000000000000000",
                                 "1000000000000000000000000000000",
                                 "999999999999999999999999999999",
                                 "123456789012345678901234567890123",
                                 "18446744073709551616",
                                 "18446744073709551615",
                                 "9223372036854775808"};
    static const char *rules[] = {
        "0.77", "0.07", "0.137", "subtract{1,3,4}", "4.07", "subtract{1,200}"};
    game *gm = game_new("subtract{2,3,5,7,11,13}", 1000, 100);
    mpz_t n, v, w;

    (void)state;
    mpz_init(n);
    mpz_init(v);
    mpz_init(w);
    assert_int_equal(gm->res.status, SG_PERIODIC);
    for (size_t i = 0; i < sizeof bigs / sizeof bigs[0]; i++) {
        for (unsigned long d = 0; d < 20; d++) {
            assert_int_equal(mpz_set_str(n, bigs[i], 10), 0);
            mpz_add_ui(n, n, d);
            assert_int_equal(sg_value_at(v, &gm->res, &gm->s, n), SG_OK);
            if (mpz_cmp_ui(v, primes[mpz_fdiv_ui(n, 9)]) != 0) {
                fail_msg("S={2,...,13}: G(%s + %lu) = %lu, expected %u",
                         bigs[i], d, mpz_get_ui(v), primes[mpz_fdiv_ui(n, 9)]);
            }
        }
    }
    /* 10^18 and 10^30 are 1 mod 9: value 0. */
    mpz_ui_pow_ui(n, 10, 18);
    assert_int_equal(sg_value_at(v, &gm->res, &gm->s, n), SG_OK);
    assert_int_equal(mpz_cmp_ui(v, 0), 0);
    mpz_ui_pow_ui(n, 10, 30);
    mpz_add_ui(n, n, 7); /* 8 mod 9 */
    assert_int_equal(sg_value_at(v, &gm->res, &gm->s, n), SG_OK);
    assert_int_equal(mpz_cmp_ui(v, 4), 0);
    game_free(gm);

    /* Other periodic rules: the library's reduction against the
     * reference's period on a long prefix. */
    for (size_t r = 0; r < sizeof rules / sizeof rules[0]; r++) {
        gm = game_new(rules[r], 3000, 2000);
        assert_int_equal(gm->res.status, SG_PERIODIC);
        for (size_t i = 0; i < sizeof bigs / sizeof bigs[0]; i++) {
            for (unsigned long d = 0; d < 40; d++) {
                assert_int_equal(mpz_set_str(n, bigs[i], 10), 0);
                mpz_add_ui(n, n, d);
                assert_int_equal(sg_value_at(v, &gm->res, &gm->s, n), SG_OK);
                ref_value_big(w, gm, n);
                if (mpz_cmp(v, w) != 0) {
                    fail_msg("%s: G(%s + %lu) = %lu, expected %lu", rules[r],
                             bigs[i], d, mpz_get_ui(v), mpz_get_ui(w));
                }
            }
        }
        game_free(gm);
    }
    mpz_clear(n);
    mpz_clear(v);
    mpz_clear(w);
}

static void test_value_at_unknown(void **state)
{
    game *gm = game_new("4!.0", 300, 300);
    mpz_t n, v;

    (void)state;
    mpz_init(n);
    mpz_init(v);
    assert_int_equal(gm->res.status, SG_UNRESOLVED);
    assert_int_equal(gm->s.n, 300);
    mpz_set_ui(n, 299);
    assert_int_equal(sg_value_at(v, &gm->res, &gm->s, n), SG_OK);
    assert_int_equal(mpz_cmp_ui(v, gm->g[299]), 0);
    mpz_set_ui(n, 300);
    assert_int_equal(sg_value_at(v, &gm->res, &gm->s, n), SG_E_UNKNOWN);
    mpz_set_ui(n, 1000000);
    assert_int_equal(sg_value_at(v, &gm->res, &gm->s, n), SG_E_UNKNOWN);
    mpz_ui_pow_ui(n, 10, 30);
    assert_int_equal(sg_value_at(v, &gm->res, &gm->s, n), SG_E_UNKNOWN);
    game_free(gm);

    /* A periodic rule before it is proven: unknown beyond the range. */
    gm = game_new("0.77", 100, 100);
    assert_int_equal(gm->res.status, SG_UNRESOLVED);
    mpz_set_ui(n, 99);
    assert_int_equal(sg_value_at(v, &gm->res, &gm->s, n), SG_OK);
    assert_int_equal(mpz_cmp_ui(v, gm->g[99]), 0);
    mpz_ui_pow_ui(n, 10, 18);
    assert_int_equal(sg_value_at(v, &gm->res, &gm->s, n), SG_E_UNKNOWN);
    game_free(gm);

    /* Nim: known beyond the range only if arithmetic periodicity was
     * proven, and then G(n) = n. */
    gm = game_new("all-but{}", 200, 200);
    mpz_ui_pow_ui(n, 10, 30);
    if (gm->res.status == SG_ARITH_PERIODIC) {
        assert_int_equal(sg_value_at(v, &gm->res, &gm->s, n), SG_OK);
        assert_int_equal(mpz_cmp(v, n), 0);
    } else {
        assert_int_equal(gm->res.status, SG_UNRESOLVED);
        assert_int_equal(sg_value_at(v, &gm->res, &gm->s, n), SG_E_UNKNOWN);
    }
    game_free(gm);
    mpz_clear(n);
    mpz_clear(v);
}

/* ------------------------------------------------------------------ */
/* Positions from the seed problems                                     */
/* ------------------------------------------------------------------ */

static void expect_winner(const char *rule, const unsigned long *hv, size_t nh,
                          int first_wins)
{
    game *gm = game_new(rule, 300, 300);
    mpz_t heaps[8];
    sg_position pos;
    char what[128];

    set_heaps(heaps, hv, nh);
    snprintf(what, sizeof what, "%s, heaps starting %lu", rule, hv[0]);
    sg_position_init(&pos);
    assert_int_equal(
        sg_position_analyse(&pos, &gm->r, &gm->res, &gm->s, heaps, nh), SG_OK);
    if (!!pos.first_wins != first_wins) {
        fail_msg("%s: %s player wins, expected %s", what,
                 pos.first_wins ? "first" : "second",
                 first_wins ? "first" : "second");
    }
    sg_position_clear(&pos);
    check_position(gm, heaps, nh, what);
    clear_heaps(heaps, nh);
    game_free(gm);
}

static void test_seed_positions(void **state)
{
    static const unsigned long h1[] = {10, 10}, h2[] = {2, 2, 3};
    static const unsigned long g1[] = {4}, g2[] = {1, 2, 3}, g3[] = {7};

    (void)state;
    /* Manasa and prime game: Sandy (second) then Manasa (first). */
    expect_winner("subtract{2,3,5,7,11,13}", h1, 2, 0);
    expect_winner("subtract{2,3,5,7,11,13}", h2, 3, 1);
    /* Partitioning Game (Grundy's game): Bob, Alice, Bob. */
    expect_winner("4!.0", g1, 1, 0);
    expect_winner("4!.0", g2, 3, 1);
    expect_winner("4!.0", g3, 1, 0);
}

static void test_seed_positions_huge(void **state)
{
    game *gm = game_new("subtract{2,3,5,7,11,13}", 1000, 200);
    mpz_t heaps[3];

    (void)state;
    /* 10^18 and 10^18 + 9: equal values, second player. */
    mpz_init(heaps[0]);
    mpz_init(heaps[1]);
    mpz_init(heaps[2]);
    mpz_ui_pow_ui(heaps[0], 10, 18);
    mpz_add_ui(heaps[1], heaps[0], 9);
    check_position(gm, heaps, 2, "10^18, 10^18+9");
    /* 10^30 + 4 (value 2) and 10^18 + 3 (value 1): first player. */
    mpz_ui_pow_ui(heaps[0], 10, 30);
    mpz_add_ui(heaps[0], heaps[0], 4);
    mpz_ui_pow_ui(heaps[1], 10, 18);
    mpz_add_ui(heaps[1], heaps[1], 3);
    mpz_set_ui(heaps[2], 10);
    check_position(gm, heaps, 3, "10^30+4, 10^18+3, 10");
    clear_heaps(heaps, 3);
    game_free(gm);
}

/* ------------------------------------------------------------------ */
/* sg_find_move                                                         */
/* ------------------------------------------------------------------ */

/* For small heaps: every value below G(h) is reachable (mex) and must be
 * found; G(h) itself never is; larger values exactly when the reference
 * finds a move. */
static void test_find_move_small(void **state)
{
    static const char *rules[] = {"subtract{2,3,5,7,11,13}",
                                  "0.77",
                                  "0.07",
                                  "0.137",
                                  "4!.0",
                                  "4.07",
                                  "0.8F",
                                  "0.4!",
                                  "0.[7]",
                                  "all-but{1,3}",
                                  "0.51",
                                  "0.1"};
    sg_move m;
    mpz_t h, t;

    (void)state;
    sg_move_init(&m);
    mpz_init(h);
    mpz_init(t);
    for (size_t i = 0; i < sizeof rules / sizeof rules[0]; i++) {
        game *gm = game_new(rules[i], 120, 120);
        for (size_t hv = 0; hv < 70; hv++) {
            for (uint32_t target = 0; target <= gm->g[hv] + 3; target++) {
                sg_status st;
                char what[96];

                snprintf(what, sizeof what, "%s heap %zu target %u", rules[i],
                         hv, target);
                mpz_set_ui(h, hv);
                mpz_set_ui(t, target);
                st = sg_find_move(&m, &gm->r, &gm->res, &gm->s, h, t);
                if (target == gm->g[hv]) {
                    if (st != SG_E_UNKNOWN) {
                        fail_msg("%s: found a move to its own value", what);
                    }
                } else if (ref_reaches(gm, hv, target)) {
                    if (st != SG_OK) {
                        fail_msg("%s: no move found, the reference has one",
                                 what);
                    }
                    check_move(gm, h, &m, t, what);
                } else if (st != SG_E_UNKNOWN) {
                    fail_msg("%s: status %d, but no such move exists", what,
                             (int)st);
                }
                if (target < gm->g[hv]) {
                    assert_true(ref_reaches(gm, hv, target));
                }
            }
        }
        game_free(gm);
    }
    sg_move_clear(&m);
    mpz_clear(h);
    mpz_clear(t);
}

/* Huge heaps of periodic rules: every target below G(h) has a move. */
static void test_find_move_huge(void **state)
{
    static const char *rules[] = {
        "subtract{2,3,5,7,11,13}", "0.77", "0.07", "0.137", "4.07",
        "subtract{1,200}",         "0.52", "0.54", "0.15"};
    tu_rng g;
    sg_move m;
    mpz_t h, t, v;

    (void)state;
    tu_rng_init(&g, 401);
    sg_move_init(&m);
    mpz_init(h);
    mpz_init(t);
    mpz_init(v);
    for (size_t i = 0; i < sizeof rules / sizeof rules[0]; i++) {
        game *gm = game_new(rules[i], 3000, 1000);
        assert_int_equal(gm->res.status, SG_PERIODIC);
        for (size_t j = 0; j < tu_scaled(40); j++) {
            char what[128];
            unsigned long gv;

            mpz_ui_pow_ui(h, 10, (unsigned long)tu_range(&g, 18, 40));
            mpz_add_ui(h, h, (unsigned long)tu_range(&g, 0, 100000));
            ref_value_big(v, gm, h);
            gv = mpz_get_ui(v);
            for (unsigned long target = 0; target < gv; target++) {
                snprintf(what, sizeof what, "%s, huge heap, target %lu",
                         rules[i], target);
                mpz_set_ui(t, target);
                if (sg_find_move(&m, &gm->r, &gm->res, &gm->s, h, t) != SG_OK) {
                    char *hs = str_of(h);
                    fail_msg("%s: no move from %s (seed %llu)", what, hs,
                             TU_SEED);
                }
                check_move(gm, h, &m, t, what);
            }
            mpz_set_ui(t, gv);
            assert_int_equal(sg_find_move(&m, &gm->r, &gm->res, &gm->s, h, t),
                             SG_E_UNKNOWN);
        }
        game_free(gm);
    }
    sg_move_clear(&m);
    mpz_clear(h);
    mpz_clear(t);
    mpz_clear(v);
}

/* ------------------------------------------------------------------ */
/* Random positions                                                     */

static void random_heap(mpz_t h, tu_rng *g, int huge);

/* Arithmetic-periodic hexadecimal codes (THEORY.md 7.5): G(10^100 + d)
 * from the library against the reference's arithmetic period on 600
 * values (and, for 0.8F, against the formula G(7 + i + 7j) = G(7 + i) +
 * 4j written out); winning moves from huge heaps for targets near 0,
 * near G(h) and at random below it, each applied and judged by the
 * reference; positions of huge heaps. */
static void test_hex_arith_huge(void **state)
{
    static const char *rules[] = {"0.8F", "0.A8", "0.FC", "0.9E",
                                  "0.FF", "0.BC", "0.8B"};
    tu_rng g;
    gmp_randstate_t rs;
    sg_move m;
    mpz_t h, t, v, w, heaps[4];

    (void)state;
    tu_rng_init(&g, 403);
    gmp_randinit_default(rs);
    gmp_randseed_ui(rs, (unsigned long)TU_SEED);
    sg_move_init(&m);
    mpz_inits(h, t, v, w, heaps[0], heaps[1], heaps[2], heaps[3], NULL);
    for (size_t i = 0; i < sizeof rules / sizeof rules[0]; i++) {
        game *gm = game_new(rules[i], 3000, 600);
        assert_int_equal(gm->res.status, SG_ARITH_PERIODIC);
        assert_string_equal(gm->res.theorem_id, SG_THM_HEX_ARITH);
        assert_true(gm->ref_periodic && gm->ref_s > 0);
        for (unsigned long d = 0; d < 30; d++) {
            char what[128];
            unsigned long j;

            mpz_ui_pow_ui(h, 10, 100);
            mpz_add_ui(h, h, d);
            assert_int_equal(sg_value_at(v, &gm->res, &gm->s, h), SG_OK);
            ref_value_big(w, gm, h);
            if (mpz_cmp(v, w) != 0)
                fail_msg("%s: G(10^100 + %lu) differs from the reference",
                         rules[i], d);
            if (i == 0) {
                /* 0.8F by its formula */
                mpz_sub_ui(w, h, 7);
                j = mpz_fdiv_q_ui(w, w, 7);
                mpz_mul_ui(w, w, 4);
                mpz_add_ui(w, w, gm->g[7 + j]);
                assert_int_equal(mpz_cmp(v, w), 0);
            }
            for (j = 0; j < 40; j++) {
                if (j < 10)
                    mpz_set_ui(t, j); /* small targets */
                else if (j < 20)
                    mpz_sub_ui(t, v, j - 9); /* just below G(h) */
                else
                    mpz_urandomm(t, rs, v);
                if (mpz_sgn(t) < 0 || mpz_cmp(t, v) >= 0)
                    continue;
                snprintf(what, sizeof what, "%s, heap 10^100 + %lu, target %lu",
                         rules[i], d, j);
                if (sg_find_move(&m, &gm->r, &gm->res, &gm->s, h, t) != SG_OK)
                    fail_msg("%s: no move (seed %llu)", what, TU_SEED);
                check_move(gm, h, &m, t, what);
            }
            assert_int_equal(sg_find_move(&m, &gm->r, &gm->res, &gm->s, h, v),
                             SG_E_UNKNOWN);
        }
        for (size_t j = 0; j < tu_scaled(20); j++) {
            size_t nh = (size_t)tu_range(&g, 1, 4);
            char what[96];
            for (size_t k = 0; k < nh; k++)
                random_heap(heaps[k], &g, tu_chance(&g, 2));
            snprintf(what, sizeof what, "%s, position %zu", rules[i], j);
            check_position(gm, heaps, nh, what);
        }
        game_free(gm);
    }
    sg_move_clear(&m);
    mpz_clears(h, t, v, w, heaps[0], heaps[1], heaps[2], heaps[3], NULL);
    gmp_randclear(rs);
}

/* ------------------------------------------------------------------ */

static void random_heap(mpz_t h, tu_rng *g, int huge)
{
    if (!huge) {
        mpz_set_ui(h, (unsigned long)tu_range(g, 1, 150));
        return;
    }
    mpz_set_ui(h, (unsigned long)tu_range(g, 1, 9));
    for (unsigned d = (unsigned)tu_range(g, 15, 40); d > 0; d--) {
        mpz_mul_ui(h, h, 10);
        mpz_add_ui(h, h, (unsigned long)tu_range(g, 0, 9));
    }
}

static void test_random_positions(void **state)
{
    static const char *periodic[] = {"subtract{2,3,5,7,11,13}",
                                     "subtract{1,3,4}",
                                     "0.77",
                                     "0.07",
                                     "0.137",
                                     "4.07",
                                     "0.52",
                                     "0.53",
                                     "0.34",
                                     "0.17"};
    static const char *small_only[] = {"4!.0", "0.2048", "0.[7]", "0.4!"};
    tu_rng g;
    mpz_t heaps[6];

    (void)state;
    tu_rng_init(&g, 402);
    for (size_t i = 0; i < 6; i++) {
        mpz_init(heaps[i]);
    }
    for (size_t i = 0; i < sizeof periodic / sizeof periodic[0]; i++) {
        game *gm = game_new(periodic[i], 3000, 1000);
        assert_int_equal(gm->res.status, SG_PERIODIC);
        for (size_t j = 0; j < tu_scaled(60); j++) {
            size_t nh = (size_t)tu_range(&g, 1, 6);
            char what[96];
            for (size_t k = 0; k < nh; k++) {
                random_heap(heaps[k], &g, tu_chance(&g, 2));
            }
            snprintf(what, sizeof what, "%s, random position %zu", periodic[i],
                     j);
            check_position(gm, heaps, nh, what);
        }
        game_free(gm);
    }
    /* Unresolved rules, heaps inside the computed range. */
    for (size_t i = 0; i < sizeof small_only / sizeof small_only[0]; i++) {
        game *gm = game_new(small_only[i], 160, 160);
        for (size_t j = 0; j < tu_scaled(60); j++) {
            size_t nh = (size_t)tu_range(&g, 1, 6);
            char what[96];
            for (size_t k = 0; k < nh; k++) {
                random_heap(heaps[k], &g, 0);
            }
            snprintf(what, sizeof what, "%s, random position %zu",
                     small_only[i], j);
            check_position(gm, heaps, nh, what);
        }
        /* And one heap out of range: unknown. */
        {
            sg_position pos;
            mpz_set_ui(heaps[0], 3);
            mpz_ui_pow_ui(heaps[1], 10, 20);
            sg_position_init(&pos);
            assert_int_equal(
                sg_position_analyse(&pos, &gm->r, &gm->res, &gm->s, heaps, 2),
                SG_E_UNKNOWN);
            sg_position_clear(&pos);
        }
        game_free(gm);
    }
    for (size_t i = 0; i < 6; i++) {
        mpz_clear(heaps[i]);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_value_at_small),
        cmocka_unit_test(test_value_at_huge),
        cmocka_unit_test(test_value_at_unknown),
        cmocka_unit_test(test_hex_arith_huge),
        cmocka_unit_test(test_seed_positions),
        cmocka_unit_test(test_seed_positions_huge),
        cmocka_unit_test(test_find_move_small),
        cmocka_unit_test(test_find_move_huge),
        cmocka_unit_test(test_random_positions),
    };

    (void)tu_base_seed();
    return cmocka_run_group_tests(tests, NULL, NULL);
}
