/*
 * test_api.c - unit tests of the installed API (src/lib/api/,
 * sgexplore_api.h), through its handles alone: rule texts in every form
 * and their errors, analyses within a count, seconds and a cancel flag
 * raised from the progress callback, values against tests/reference.c,
 * heaps of 10^40 against the reduction by the period computed here,
 * winning moves judged by the reference's reading of the rule, games
 * given by a function against a naive mex written here, their failures,
 * the cache, certificates, misère play against a brute force, and memory
 * that stays flat over 10^4 cached analyses.
 */
#define _GNU_SOURCE
#include "testutil.h"

#include <malloc.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/sgexplore_api.h"

/* A call that must succeed, with the library's message when it does
 * not. */
#define OK(call)                                                               \
    do {                                                                       \
        sg_status st_ = (call);                                                \
        if (st_ != SG_OK)                                                      \
            fail_msg("%s: %s (%s)", #call, sg_last_error(),                    \
                     sg_status_name(st_));                                     \
    } while (0)

/* A failure: status st and a one-line message holding `needle`. */
static void expect_fail(sg_status got, sg_status st, const char *needle)
{
    const char *msg = sg_last_error();

    if (got != st || !strstr(msg, needle) || strchr(msg, '\n'))
        fail_msg("expected %s with \"%s\", got %s: \"%s\"", sg_status_name(st),
                 needle, sg_status_name(got), msg);
}

static sg_game *game_of(const char *rule)
{
    sg_game *g = NULL;

    OK(sg_game_new(&g, rule));
    assert_non_null(g);
    return g;
}

/* ------------------------------------------------------------------ */
/* Rules                                                                */
/* ------------------------------------------------------------------ */

static void test_parse_forms(void **state)
{
    static const struct {
        const char *form, *text, *canon, *family;
    } ok[] = {
        {"rule", "0.77", "0.77", "octal"},
        {"rule", "kayles", "0.77", "octal"},
        {"rule", "dawson", "0.07", "octal"},
        {"rule", "grundy", "4!.0", "take-and-break"},
        {"rule", "4!.0", "4!.0", "take-and-break"},
        {"rule", "0.[7]", "0.[7]", "take-and-break"},
        {"rule", "0.8F", "0.8F", "hex"},
        {"rule", "subtract{2,3,5}", "subtract{2,3,5}", "subtract"},
        {"rule", "subtract{primes}", "subtract{primes}", "subtract"},
        {"rule", "nim", "nim", "all-but"},
        {"subtract", "1-3,7", "subtract{1-3,7}", "subtract"},
        {"all-but", "1,3", "all-but{1,3}", "all-but"},
        {"octal", "0.137", "0.137", "octal"},
        {"hex", "0.F7", "0.F7", "hex"},
        {"grundy", NULL, "4!.0", "take-and-break"},
    };
    static const struct {
        const char *form, *text, *canon, *given;
    } given[] = {
        {"subtract", "4+3k", "0.0[003]", "subtract{4+3k}"},
        {"rule", "subtract{4+6k,7+6k}", "0.0[003]", "subtract{4+6k,7+6k}"},
        {"all-but", "4+3k", "0.3[330]", "all-but{4+3k}"},
        {"rule", "subtract{3+1k}", "all-but{1,2}", "subtract{3+1k}"},
        {"rule", "0.0[003]", "0.0[003]", NULL},
        {"rule", "subtract{primes}", "subtract{primes}", NULL},
        {"subtract", "1-3,7", "subtract{1-3,7}", NULL},
    };
    static const struct {
        const char *form, *text, *needle;
    } bad[] = {
        {"rule", "0.7x", "'x'"},       {"rule", "", ""},
        {"rule", "subtract{", ""},     {"octal", "0.9", "9"},
        {"subtract", "0", ""},         {"bogus", "0.77", "unknown rule form"},
        {"rule", "subtract{nope}", ""}};
    size_t i;

    (void)state;
    for (i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        sg_game *g = NULL;
        OK(sg_game_new_form(&g, ok[i].form, ok[i].text));
        assert_string_equal(sg_game_rule(g), ok[i].canon);
        assert_string_equal(sg_game_family(g), ok[i].family);
        assert_string_equal(sg_game_status(g), "unresolved");
        assert_int_equal(sg_game_computed(g), 0);
        sg_game_free(g);
    }
    /* the form given: kept when a set became another notation */
    for (i = 0; i < sizeof given / sizeof given[0]; i++) {
        sg_game *g = NULL;
        OK(sg_game_new_form(&g, given[i].form, given[i].text));
        assert_string_equal(sg_game_rule(g), given[i].canon);
        if (given[i].given)
            assert_string_equal(sg_game_given(g), given[i].given);
        else
            assert_null(sg_game_given(g));
        sg_game_free(g);
    }
    for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        sg_game *g = (sg_game *)&g;
        sg_status st = sg_game_new_form(&g, bad[i].form, bad[i].text);
        expect_fail(st, SG_E_INPUT, bad[i].needle);
        assert_true(sg_last_error()[0] != '\0');
        assert_null(g);
    }
    sg_game_free(NULL);
}

/* Random codes: their canonical text as the reference writes it, and
 * G(0..n-1) against the reference's brute force. */
static void test_values_reference(void **state)
{
    tu_rng rng;
    tu_code_opts o = {7, 1, 4, 1, 0, 0};
    size_t n = 600, i, k, rounds = tu_scaled(25);
    uint32_t *ref = malloc(n * sizeof *ref), *got = malloc(n * sizeof *got);

    (void)state;
    tu_rng_init(&rng, 49);
    for (k = 0; k < rounds; k++) {
        ref_rule r;
        char *text, *canon;
        sg_game *g;
        o.maxdigit = tu_chance(&rng, 2) ? 15 : 7;
        tu_random_code(&r, &rng, &o);
        text = ref_rule_text(&r);
        canon = ref_rule_canonical(&r);
        g = game_of(text);
        assert_string_equal(sg_game_rule(g), canon);
        OK(sg_game_set_budget(g, 300, 0));
        OK(sg_game_analyse(g));
        assert_true(sg_game_computed(g) <= 300 || sg_game_proven(g));
        OK(sg_game_extend(g, n));
        OK(sg_game_values(g, 0, n, got));
        ref_values(ref, n, &r);
        for (i = 0; i < n; i++)
            if (got[i] != ref[i])
                fail_msg("%s: G(%zu) = %u, the reference says %u (seed %llu)",
                         text, i, got[i], ref[i], TU_SEED);
        free(text);
        free(canon);
        sg_game_free(g);
    }
    free(ref);
    free(got);
}

/* A set rule: subtract{primes} against the reference's subtraction
 * game over the primes below n. */
static void test_values_set(void **state)
{
    size_t n = 3000, m = 0, i, j;
    uint64_t *primes = malloc(n * sizeof *primes);
    uint32_t *ref = malloc(n * sizeof *ref), *got = malloc(n * sizeof *got);
    sg_game *g = game_of("subtract{primes}");

    (void)state;
    for (i = 2; i < n; i++) {
        for (j = 2; j * j <= i && i % j; j++)
            ;
        if (j * j > i)
            primes[m++] = i;
    }
    ref_subtract_values(ref, n, primes, m);
    OK(sg_game_set_budget(g, n, 0));
    OK(sg_game_analyse(g));
    OK(sg_game_values(g, 0, n, got));
    assert_memory_equal(got, ref, n * sizeof *ref);
    /* past the values of an unresolved rule: unknown, named */
    expect_fail(sg_game_values(g, n, n + 1, got), SG_E_UNKNOWN, "G(3000)");
    free(primes);
    free(ref);
    free(got);
    sg_game_free(g);
}

/* ------------------------------------------------------------------ */
/* Budgets, the cancel flag, progress                                   */
/* ------------------------------------------------------------------ */

static void test_budget_count(void **state)
{
    sg_game *g = game_of("grundy");
    uint64_t p;

    (void)state;
    OK(sg_game_set_budget(g, 1000, 0));
    OK(sg_game_analyse(g));
    assert_int_equal(sg_game_computed(g), 1000);
    assert_string_equal(sg_game_stopped(g), "max");
    assert_string_equal(sg_game_source(g), "computed");
    assert_false(sg_game_proven(g));
    assert_null(sg_game_certificate(g));
    assert_null(sg_game_theorem(g));
    assert_non_null(sg_game_note(g));
    /* no candidate is claimed to be proven, whatever was observed */
    if (sg_game_observed(g, NULL, &p, NULL, NULL))
        assert_true(p > 0);
    expect_fail(sg_game_set_budget(g, 0, -1), SG_E_INPUT, "seconds");
    sg_game_free(g);
}

static void test_budget_seconds(void **state)
{
    sg_game *g = game_of("grundy");
    uint32_t v[2];

    (void)state;
    OK(sg_game_set_budget(g, (uint64_t)1 << 30, 0.2));
    OK(sg_game_analyse(g)); /* the time's end is no error */
    assert_string_equal(sg_game_stopped(g), "time");
    assert_true(sg_game_computed(g) > 1000);
    assert_true(sg_game_computed(g) < ((uint64_t)1 << 30));
    OK(sg_game_values(g, 0, 2, v));
    assert_int_equal(v[0], 0);
    sg_game_free(g);
}

/* The progress callback raises the flag once `after` heaps are done. */
typedef struct stopper {
    volatile sig_atomic_t flag;
    uint64_t after, calls, last;
} stopper;

static void stop_after(void *ctx, uint64_t done, uint64_t target)
{
    stopper *s = ctx;

    s->calls++;
    s->last = done;
    assert_true(done <= target);
    if (done >= s->after)
        s->flag = 1;
}

/* the values of 4!.0 from the reference's brute force */
static uint32_t *grundy_ref(size_t n)
{
    ref_rule r;
    uint32_t *ref = malloc(n * sizeof *ref);

    assert_int_equal(ref_rule_from_code(&r, "4!.0"), 0);
    ref_values(ref, n, &r);
    return ref;
}

static void test_cancel(void **state)
{
    tu_tmp *t = *state;
    stopper s = {0, 3000, 0, 0};
    sg_game *g = game_of("grundy"), *h;
    sg_cache *c;
    uint64_t n;
    uint32_t *got, *ref;
    int found;

    OK(sg_cache_open(&c, t->path, 0));
    sg_game_set_cache(g, c);
    sg_game_set_cancel(g, &s.flag);
    sg_game_set_progress(g, stop_after, &s);
    OK(sg_game_set_budget(g, 2000000, 0));
    expect_fail(sg_game_analyse(g), SG_E_INTERRUPTED, "interrupted");
    assert_true(s.calls > 0);
    assert_string_equal(sg_game_stopped(g), "interrupted");
    n = sg_game_computed(g);
    assert_true(n >= 3000 && n < 2000000);
    ref = grundy_ref((size_t)n);
    got = malloc(n * sizeof *got);
    OK(sg_game_values(g, 0, n, got));
    assert_memory_equal(got, ref, n * sizeof *ref);
    /* the flag stays raised: a second run stops at once, keeping them */
    expect_fail(sg_game_extend(g, n + 100000), SG_E_INTERRUPTED, "interrupted");
    assert_true(sg_game_computed(g) >= n);
    /* what was computed was stored: another game reads it back */
    h = game_of("grundy");
    OK(sg_cache_lookup(c, h, &found));
    assert_int_equal(found, 1);
    assert_int_equal(sg_game_computed(h), sg_game_computed(g));
    OK(sg_game_values(h, 0, n, got));
    assert_memory_equal(got, ref, n * sizeof *ref);
    /* and goes on from there */
    sg_game_set_cache(h, c);
    OK(sg_game_set_budget(h, n + 5000, 0));
    OK(sg_game_analyse(h));
    assert_string_equal(sg_game_source(h), "extended");
    assert_int_equal(sg_game_computed(h), n + 5000);
    free(got);
    free(ref);
    sg_game_free(g);
    sg_game_free(h);
    sg_cache_close(c);
}

/* ------------------------------------------------------------------ */
/* Heaps of any size and positions                                      */
/* ------------------------------------------------------------------ */

/* G(h) of a heap given as text, through the period (n0, p, s) read off
 * reference values g[] here. */
static void expect_heap(sg_game *gm, const mpz_t h, const uint32_t *g,
                        uint64_t n0, uint64_t p, uint64_t s)
{
    mpz_t q, r, want;
    char *text = mpz_get_str(NULL, 10, h), *got = NULL, *w;

    mpz_inits(q, r, want, NULL);
    mpz_sub_ui(r, h, n0);
    mpz_fdiv_qr_ui(q, r, r, p);
    mpz_mul_ui(want, q, s);
    mpz_add_ui(want, want, g[n0 + mpz_get_ui(r)]);
    OK(sg_game_heap(gm, text, &got));
    w = mpz_get_str(NULL, 10, want);
    if (strcmp(got, w) != 0)
        fail_msg("%s: G(%s) = %s, the reduction gives %s", sg_game_rule(gm),
                 text, got, w);
    free(w);
    free(text);
    sg_free(got);
    mpz_clears(q, r, want, NULL);
}

/* The winning move of an answer is legal (reference) and leaves a
 * position of nim-sum 0. */
static void expect_move(sg_game *gm, const ref_rule *rr, const sg_answer *a,
                        const mpz_t *heaps, size_t n)
{
    long m = sg_answer_move_heap(a);
    size_t i, k = sg_answer_move_nleft(a);
    mpz_t take, left[4], sum, v;
    char *t;

    assert_true(sg_answer_first_wins(a));
    assert_true(m >= 0 && (size_t)m < n);
    assert_true(k <= 3);
    mpz_inits(take, sum, v, NULL);
    mpz_set_str(take, sg_answer_move_take(a), 10);
    for (i = 0; i < k; i++) {
        mpz_init_set_str(left[i], sg_answer_move_left(a, i), 10);
    }
    assert_true(ref_move_legal(rr, heaps[m], take, (int)k, left));
    /* the nim-sum of the position after the move */
    mpz_set_ui(sum, 0);
    for (i = 0; i < n + k; i++) {
        const mpz_t *h = i < n ? &heaps[i] : &left[i - n];
        if (i == (size_t)m)
            continue;
        OK(sg_game_heap_mpz(gm, v, *h));
        mpz_xor(sum, sum, v);
    }
    t = mpz_get_str(NULL, 10, sum);
    assert_string_equal(t, "0");
    free(t);
    for (i = 0; i < k; i++)
        mpz_clear(left[i]);
    mpz_clears(take, sum, v, NULL);
}

static void test_big_heaps(void **state)
{
    static const char *const rules[] = {
        "0.77", "0.8F", "4.37", "0.137", "subtract{2,3,5,7,11,13}", "0.75"};
    size_t nref = 1000, i, j;

    (void)state;
    for (i = 0; i < sizeof rules / sizeof rules[0]; i++) {
        sg_game *g = game_of(rules[i]);
        ref_rule rr;
        uint32_t *ref = malloc(nref * sizeof *ref);
        uint64_t p, n0, s;
        mpz_t h[3];
        sg_answer *a = NULL;
        char *c = NULL;

        OK(sg_game_analyse(g));
        assert_true(sg_game_proven(g));
        assert_int_equal(ref_rule_from_code(&rr, "0.77"), 0);
        if (strncmp(rules[i], "subtract", 8) == 0) {
            static const uint64_t set[] = {2, 3, 5, 7, 11, 13};
            ref_rule_subtract(&rr, set, 6);
        } else {
            assert_int_equal(ref_rule_from_code(&rr, rules[i]), 0);
        }
        ref_values(ref, nref, &rr);
        assert_true(ref_find_arith_period(&p, &n0, &s, ref, nref));
        assert_int_equal(sg_game_period(g), p);
        assert_int_equal(sg_game_preperiod(g), n0);
        assert_int_equal(sg_game_saltus(g), s);
        assert_non_null(sg_game_theorem(g));
        assert_non_null(sg_game_certificate(g));
        for (j = 0; j < 3; j++)
            mpz_init(h[j]);
        for (j = 0; j < 40; j++) {
            mpz_ui_pow_ui(h[0], 10, 40);
            mpz_add_ui(h[0], h[0], j);
            expect_heap(g, h[0], ref, n0, p, s);
        }
        /* positions of three heaps, one of them of 10^40 + j */
        for (j = 0; j < 30; j++) {
            mpz_ui_pow_ui(h[0], 10, 40);
            mpz_add_ui(h[0], h[0], j * 7);
            mpz_set_ui(h[1], 5 + j);
            mpz_set_ui(h[2], 100 + 3 * j);
            OK(sg_game_position_mpz(&a, g, (const mpz_t *)h, 3));
            assert_string_equal(sg_answer_method(a), "nim-sum");
            assert_int_equal(sg_answer_heaps(a), 3);
            c = NULL;
            assert_true(sg_answer_first_wins(a) ==
                        (strcmp(sg_answer_nim_sum(a), "0") != 0));
            if (sg_answer_first_wins(a))
                expect_move(g, &rr, a, (const mpz_t *)h, 3);
            else
                assert_int_equal(sg_answer_move_heap(a), -1);
            sg_answer_free(a);
        }
        for (j = 0; j < 3; j++)
            mpz_clear(h[j]);
        expect_fail(sg_game_heap(g, "12x", &c), SG_E_INPUT, "12x");
        assert_null(c);
        free(ref);
        sg_game_free(g);
    }
}

/* ------------------------------------------------------------------ */
/* Games given by a function                                            */
/* ------------------------------------------------------------------ */

/* An invented game: from heap n, subtract any of sub[0..nsub-1], or
 * remove `cut` and split the rest into two heaps a <= b with a in
 * {1..amax}, or halve: leave floor(n/2) and floor(n/3) as two heaps
 * (when `halve`). */
typedef struct inv_game {
    uint64_t sub[4];
    size_t nsub;
    uint64_t cut, amax;
    int halve;
    /* failures asked for: fail at heap fail_at, list heap n at bad_at,
     * a count past the end at short_at (0: none) */
    uint64_t fail_at, bad_at, short_at;
    uint64_t calls;
} inv_game;

/* The options of heap n as a list of heap lists, into opt (each option
 * as k followed by its heaps); returns the length. */
static size_t inv_options(const inv_game *q, uint64_t n, uint64_t *opt)
{
    size_t len = 0, i;
    uint64_t a;

    for (i = 0; i < q->nsub; i++)
        if (q->sub[i] <= n) {
            opt[len++] = n - q->sub[i] ? 1 : 0;
            if (n - q->sub[i])
                opt[len++] = n - q->sub[i];
        }
    if (q->cut && n > q->cut)
        for (a = 1; a <= q->amax && 2 * a <= n - q->cut; a++) {
            opt[len++] = 2;
            opt[len++] = a;
            opt[len++] = n - q->cut - a;
        }
    if (q->halve && n >= 3) {
        opt[len++] = 2;
        opt[len++] = n / 2;
        opt[len++] = n / 3;
    }
    return len;
}

static int64_t inv_fn(void *ctx, uint64_t n, uint64_t *buf, size_t cap)
{
    inv_game *q = ctx;
    uint64_t opt[256];
    size_t len;

    q->calls++;
    if (q->fail_at && n == q->fail_at)
        return -1;
    len = inv_options(q, n, opt);
    if (q->bad_at && n == q->bad_at) {
        opt[len++] = 1;
        opt[len++] = n;
    }
    if (q->short_at && n == q->short_at) {
        opt[len++] = 5;
        opt[len++] = 1;
    }
    if (len > cap)
        return (int64_t)len;
    memcpy(buf, opt, len * sizeof *opt);
    return (int64_t)len;
}

/* G(0..n-1) the naive way: every option's xor, then the least value
 * missing, by scanning. */
static void inv_naive(uint32_t *g, size_t n, const inv_game *q)
{
    uint64_t opt[256], x[128];
    size_t h, len, i, j, nx;
    uint32_t v;

    for (h = 0; h < n; h++) {
        len = inv_options(q, h, opt);
        for (i = nx = 0; i < len; i += 1 + opt[i]) {
            x[nx] = 0;
            for (j = 0; j < opt[i]; j++)
                x[nx] ^= g[opt[i + 1 + j]];
            nx++;
        }
        for (v = 0;; v++) {
            for (j = 0; j < nx && x[j] != v; j++)
                ;
            if (j == nx)
                break;
        }
        g[h] = v;
    }
}

static void inv_random(inv_game *q, tu_rng *rng)
{
    size_t i;

    memset(q, 0, sizeof *q);
    q->nsub = (size_t)tu_range(rng, 1, 4);
    for (i = 0; i < q->nsub; i++)
        q->sub[i] = tu_range(rng, 1, 12);
    if (tu_chance(rng, 2)) {
        q->cut = tu_range(rng, 1, 5);
        q->amax = tu_range(rng, 1, 20);
    }
    q->halve = tu_chance(rng, 3);
}

static void test_moves_naive(void **state)
{
    tu_rng rng;
    size_t n = 2000, k, i;
    uint32_t *want = malloc(n * sizeof *want), *got = malloc(n * sizeof *got);

    (void)state;
    tu_rng_init(&rng, 4949);
    for (k = 0; k < 10; k++) {
        inv_game q;
        sg_game *g = NULL;
        char ver[32];
        inv_random(&q, &rng);
        snprintf(ver, sizeof ver, "%zu", k);
        OK(sg_game_from_moves(&g, "invented", ver, inv_fn, &q));
        assert_string_equal(sg_game_family(g), "moves");
        assert_null(sg_game_given(g));
        assert_string_equal(sg_game_method(g), "moves");
        OK(sg_game_set_budget(g, n, 0));
        OK(sg_game_analyse(g));
        assert_int_equal(sg_game_computed(g), n);
        assert_false(sg_game_proven(g));
        assert_string_equal(sg_game_status(g), "unresolved");
        assert_null(sg_game_certificate(g));
        OK(sg_game_values(g, 0, n, got));
        inv_naive(want, n, &q);
        for (i = 0; i < n; i++)
            if (got[i] != want[i])
                fail_msg("invented game %zu: G(%zu) = %u, naive %u (seed "
                         "%llu)",
                         k, i, got[i], want[i], TU_SEED);
        /* the observed pattern holds on the values (never proven) */
        {
            uint64_t n0, p, s, held, j;
            if (sg_game_observed(g, &n0, &p, &s, &held)) {
                assert_true(held < n && p > 0);
                for (j = n0; j + p <= held; j++)
                    assert_int_equal(want[j + p], want[j] + s);
            }
        }
        /* positions and winning moves among the callback's options */
        for (i = 0; i < 20; i++) {
            char h1[24], h2[24];
            const char *hs[2] = {h1, h2};
            sg_answer *a;
            snprintf(h1, sizeof h1, "%llu",
                     (unsigned long long)tu_range(&rng, 0, n - 1));
            snprintf(h2, sizeof h2, "%llu",
                     (unsigned long long)tu_range(&rng, 0, n - 1));
            OK(sg_game_position(&a, g, hs, 2));
            if (sg_answer_first_wins(a)) {
                long m = sg_answer_move_heap(a);
                uint64_t x = 0;
                size_t j;
                assert_true(m == 0 || m == 1);
                for (j = 0; j < sg_answer_move_nleft(a); j++)
                    x ^= want[strtoull(sg_answer_move_left(a, j), NULL, 10)];
                x ^= want[strtoull(hs[1 - m], NULL, 10)];
                assert_int_equal(x, 0);
            }
            sg_answer_free(a);
        }
        sg_game_free(g);
    }
    free(want);
    free(got);
}

/* Three options a heap, 10^5 values: correct against the naive mex (the
 * time is measured by make bench, not here). */
static void test_moves_three(void **state)
{
    inv_game q;
    size_t n = 100000;
    uint32_t *want = malloc(n * sizeof *want), *got = malloc(n * sizeof *got);
    sg_game *g;

    (void)state;
    memset(&q, 0, sizeof q);
    q.sub[0] = 1;
    q.sub[1] = 3;
    q.nsub = 2;
    q.halve = 1;
    OK(sg_game_from_moves(&g, "three", "1", inv_fn, &q));
    OK(sg_game_set_budget(g, n, 0));
    OK(sg_game_analyse(g));
    OK(sg_game_values(g, 0, n, got));
    inv_naive(want, n, &q);
    assert_memory_equal(got, want, n * sizeof *want);
    free(want);
    free(got);
    sg_game_free(g);
}

static void test_moves_errors(void **state)
{
    inv_game q;
    sg_game *g;
    sg_answer *a = NULL;
    char *text = NULL;

    (void)state;
    memset(&q, 0, sizeof q);
    q.sub[0] = 1;
    q.nsub = 1;
    q.fail_at = 57;
    OK(sg_game_from_moves(&g, "fails", "1", inv_fn, &q));
    expect_fail(sg_game_analyse(g), SG_E_INPUT, "failed at heap 57");
    assert_int_equal(sg_game_computed(g), 57);
    sg_game_free(g);

    q.fail_at = 0;
    q.bad_at = 33;
    OK(sg_game_from_moves(&g, "bad", "1", inv_fn, &q));
    expect_fail(sg_game_analyse(g), SG_E_INPUT,
                "an option of heap 33 lists heap 33, not smaller than 33");
    assert_int_equal(sg_game_computed(g), 33);
    sg_game_free(g);

    q.bad_at = 0;
    q.short_at = 12;
    OK(sg_game_from_moves(&g, "short", "1", inv_fn, &q));
    expect_fail(sg_game_analyse(g), SG_E_INPUT, "of heap 12 lists 5 heaps");
    assert_int_equal(sg_game_computed(g), 12);
    /* no misère play, no figure for a function */
    expect_fail(sg_game_misere(g, 10, 0), SG_E_INPUT, "needs a rule text");
    expect_fail(sg_game_plot(g, "x.png", 0, 10), SG_E_INPUT, "rule text");
    expect_fail(sg_game_heap(g, "100", &text), SG_E_UNKNOWN, "G(100)");
    expect_fail(sg_game_position(&a, g, NULL, 0), SG_E_INPUT, "no heaps");
    sg_game_free(g);

    expect_fail(sg_game_from_moves(&g, "a{b", "1", inv_fn, &q), SG_E_INPUT,
                "bad name");
    expect_fail(sg_game_from_moves(&g, "ok", "", inv_fn, &q), SG_E_INPUT,
                "bad version");
    expect_fail(sg_game_from_moves(&g, "ok\xff", "1", inv_fn, &q), SG_E_INPUT,
                "bad name");
    expect_fail(sg_game_from_moves(&g, "ok", "1\n", inv_fn, &q), SG_E_INPUT,
                "bad version");
    expect_fail(sg_game_from_moves(&g, "ok", "1", NULL, &q), SG_E_INPUT,
                "no moves function");
    assert_null(g);
}

/* ------------------------------------------------------------------ */
/* The cache                                                            */
/* ------------------------------------------------------------------ */

static void test_cache_reload(void **state)
{
    tu_tmp *t = *state;
    sg_cache *c;
    sg_game *g = game_of("0.77"), *h = game_of("kayles");
    inv_game q;
    uint32_t a[500], b[500];
    int found;

    OK(sg_cache_open(&c, t->path, 0));
    assert_string_equal(sg_cache_path(c), t->path);
    sg_game_set_cache(g, c);
    OK(sg_game_analyse(g));
    assert_string_equal(sg_game_source(g), "computed");
    sg_game_set_cache(h, c);
    OK(sg_game_analyse(h));
    assert_string_equal(sg_game_source(h), "cache");
    assert_int_equal(sg_game_period(h), sg_game_period(g));
    assert_int_equal(sg_game_preperiod(h), sg_game_preperiod(g));
    assert_string_equal(sg_game_theorem(h), sg_game_theorem(g));
    assert_string_equal(sg_game_certificate(h), sg_game_certificate(g));
    OK(sg_game_values(g, 0, 500, a));
    OK(sg_game_values(h, 0, 500, b));
    assert_memory_equal(a, b, sizeof a);
    sg_game_free(g);
    sg_game_free(h);

    /* a function: found again under its name and version only */
    memset(&q, 0, sizeof q);
    q.sub[0] = 2;
    q.sub[1] = 3;
    q.nsub = 2;
    q.halve = 1;
    OK(sg_game_from_moves(&g, "cached", "1", inv_fn, &q));
    sg_game_set_cache(g, c);
    OK(sg_game_set_budget(g, 500, 0));
    OK(sg_game_analyse(g));
    assert_string_equal(sg_game_source(g), "computed");
    q.calls = 0;
    OK(sg_game_from_moves(&h, "cached", "1", inv_fn, &q));
    sg_game_set_cache(h, c);
    OK(sg_game_set_budget(h, 500, 0));
    OK(sg_game_analyse(h));
    assert_string_equal(sg_game_source(h), "cache");
    assert_int_equal(q.calls, 0);
    OK(sg_game_values(h, 0, 500, b));
    OK(sg_game_values(g, 0, 500, a));
    assert_memory_equal(a, b, sizeof a);
    sg_game_free(h);
    OK(sg_game_from_moves(&h, "cached", "2", inv_fn, &q));
    OK(sg_cache_lookup(c, h, &found));
    assert_int_equal(found, 0);
    sg_game_free(h);
    OK(sg_cache_drop(c, "moves{cached,1}", &found));
    assert_int_equal(found, 1);
    OK(sg_cache_store(c, g));
    sg_game_free(g);
    sg_cache_close(c);

    /* read-only: found, never written */
    OK(sg_cache_open(&c, t->path, SG_CACHE_READONLY));
    g = game_of("0.77");
    OK(sg_cache_lookup(c, g, &found));
    assert_int_equal(found, 1);
    assert_true(sg_game_proven(g));
    expect_fail(sg_cache_store(c, g), SG_E_IO, "");
    sg_game_free(g);
    sg_cache_close(c);
    sg_cache_close(NULL);
}

/* 10^4 analyses of a cached rule leave the heap as it was: the bytes in
 * use after them within 64 KiB of those after the first hundred. */
static void test_memory_flat(void **state)
{
    tu_tmp *t = *state;
    sg_cache *c;
    size_t i, n = tu_scaled(10000);
    struct mallinfo2 m0 = mallinfo2(), m1;
    char *v;

    if (m0.uordblks == 0)
        skip(); /* another allocator (a sanitizer's) keeps no count */
    OK(sg_cache_open(&c, t->path, 0));
    for (i = 0; i < n + 100; i++) {
        sg_game *g = game_of("0.137");
        if (i == 100)
            m0 = mallinfo2();
        sg_game_set_cache(g, c);
        OK(sg_game_analyse(g));
        assert_true(i == 0 || strcmp(sg_game_source(g), "cache") == 0);
        OK(sg_game_heap(g, "100000000000000000000", &v));
        sg_free(v);
        sg_game_free(g);
    }
    m1 = mallinfo2();
    sg_cache_close(c);
    if (m1.uordblks > m0.uordblks + 65536)
        fail_msg("%zu analyses: %zu bytes in use, %zu after the first 100", n,
                 (size_t)m1.uordblks, (size_t)m0.uordblks);
}

/* ------------------------------------------------------------------ */
/* Certificates                                                         */
/* ------------------------------------------------------------------ */

static void test_certificates(void **state)
{
    tu_tmp *t = *state;
    sg_game *g = game_of("0.137");
    char *rule = NULL, *forged, *p, *back;
    const char *cert;

    OK(sg_game_analyse(g));
    cert = sg_game_certificate(g);
    assert_non_null(cert);
    OK(sg_certificate_verify(cert, &rule));
    assert_string_equal(rule, "0.137");
    sg_free(rule);
    /* the period claimed twice as long: not the least, refused */
    forged = strdup(cert);
    p = strstr(forged, "period: 34");
    assert_non_null(p);
    memcpy(p, "period: 68", 10);
    expect_fail(sg_certificate_verify(forged, NULL), SG_E_INPUT, "refused");
    free(forged);
    expect_fail(sg_certificate_verify("nonsense", NULL), SG_E_INPUT, "");
    OK(sg_game_export_certificate(g, t->path));
    back = tu_slurp(t->path, NULL);
    assert_string_equal(back, cert);
    free(back);
    sg_game_free(g);
    g = game_of("grundy");
    expect_fail(sg_game_export_certificate(g, t->path), SG_E_UNKNOWN,
                "no proven period");
    sg_game_free(g);
}

/* ------------------------------------------------------------------ */
/* Misère play against a brute force over Kayles' small positions       */
/* ------------------------------------------------------------------ */

/* A position: up to MB_MAXH heaps, ascending; its misère Grundy value found by
 * a plain recursion with a small memo keyed by the sorted heaps. */
/* A position of the sums below has at most 13 heaps (23 tokens in three
 * heaps, each move adding at most one heap and taking a token): 4 bits a
 * heap and the count fit the key's 64 bits. */
#define MB_MAXH 16
#define MB_MEMO ((size_t)1 << 18)

typedef struct mb_memo {
    uint64_t key[MB_MEMO];
    int val[MB_MEMO];
} mb_memo;

static uint64_t mb_key(const unsigned *h, size_t n)
{
    uint64_t k = n;
    size_t i;

    for (i = 0; i < n; i++)
        k = k * 16 + h[i];
    return k;
}

static void mb_sort(unsigned *h, size_t n)
{
    size_t i, j;

    for (i = 1; i < n; i++)
        for (j = i; j > 0 && h[j - 1] > h[j]; j--) {
            unsigned x = h[j];
            h[j] = h[j - 1];
            h[j - 1] = x;
        }
}

/* The misère Grundy value of a sum of Kayles heaps (each <= 15). */
static int mb_value(mb_memo *m, const unsigned *h, size_t n)
{
    uint64_t key = mb_key(h, n), slot = (key * 0x9E3779B97F4A7C15u) >> 46;
    int seen[64] = {0}, any = 0, v;
    size_t i, take;
    unsigned a;

    while (m->key[slot] && m->key[slot] != key + 1)
        slot = (slot + 1) % MB_MEMO;
    if (m->key[slot])
        return m->val[slot];
    for (i = 0; i < n; i++)
        for (take = 1; take <= 2 && take <= h[i]; take++)
            for (a = 0; 2 * a <= h[i] - take; a++) {
                unsigned o[MB_MAXH + 1];
                assert_true(n < MB_MAXH);
                size_t k = 0, j;
                unsigned b = h[i] - (unsigned)take - a;
                for (j = 0; j < n; j++)
                    if (j != i)
                        o[k++] = h[j];
                if (a)
                    o[k++] = a;
                if (b)
                    o[k++] = b;
                mb_sort(o, k);
                v = mb_value(m, o, k);
                if (v < 64)
                    seen[v] = 1;
                any = 1;
            }
    for (v = 0; any && seen[v]; v++)
        ;
    if (!any)
        v = 1; /* no move: the player to move wins misère play */
    m->key[slot] = key + 1;
    m->val[slot] = v;
    return v;
}

static void test_misere(void **state)
{
    sg_game *g = game_of("0.77");
    mb_memo *m = calloc(1, sizeof *m);
    uint32_t v[12];
    unsigned h[3];
    uint64_t hh[3], i, j, k;
    char *genus = NULL;

    (void)state;
    OK(sg_game_misere(g, 12, 0));
    assert_int_equal(sg_game_misere_count(g), 12);
    OK(sg_game_misere_values(g, 0, 12, v));
    for (i = 0; i < 12; i++) {
        h[0] = (unsigned)i;
        assert_int_equal(v[i], mb_value(m, h, i ? 1 : 0));
    }
    OK(sg_game_genus(g, 0, &genus));
    assert_string_equal(genus, "0^120"); /* the empty game: G- = 1 */
    sg_free(genus);
    expect_fail(sg_game_misere_values(g, 0, 13, v), SG_E_UNKNOWN, "below 12");
    /* sums of three heaps: winner and move against the brute force */
    for (i = 1; i < 8; i++)
        for (j = i; j < 8; j += 2)
            for (k = j; k < 10; k += 3) {
                sg_answer *a;
                hh[0] = i;
                hh[1] = j;
                hh[2] = k;
                h[0] = (unsigned)i;
                h[1] = (unsigned)j;
                h[2] = (unsigned)k;
                OK(sg_game_misere_position(&a, g, hh, 3, 0));
                assert_int_equal(sg_answer_first_wins(a),
                                 mb_value(m, h, 3) != 0);
                assert_null(sg_answer_nim_sum(a));
                if (sg_answer_first_wins(a)) {
                    long mv = sg_answer_move_heap(a);
                    unsigned o[5];
                    size_t n = 0, x;
                    uint64_t take = strtoull(sg_answer_move_take(a), NULL, 10);
                    uint64_t sum = take;
                    assert_true(mv >= 0 && mv < 3);
                    for (x = 0; x < 3; x++)
                        if ((long)x != mv)
                            o[n++] = h[x];
                    for (x = 0; x < sg_answer_move_nleft(a); x++) {
                        o[n] = (unsigned)strtoul(sg_answer_move_left(a, x),
                                                 NULL, 10);
                        sum += o[n++];
                    }
                    assert_true(take >= 1 && take <= 2);
                    assert_int_equal(sum, hh[mv]);
                    mb_sort(o, n);
                    assert_int_equal(mb_value(m, o, n), 0);
                }
                sg_answer_free(a);
            }
    /* the proven quotient of heaps 1..7 decides the sums that are not
     * tame (some heap from tame_to on), as the program decides */
    OK(sg_game_quotient(g, 7, 0, 0));
    assert_int_equal(sg_game_quotient_heaps(g), 7);
    assert_true(sg_game_quotient_order(g) > 1);
    assert_non_null(strstr(sg_game_quotient_text(g), "a = heap 1"));
    assert_true(sg_game_misere_tame_to(g) < 7);
    for (i = 1; i <= 7; i++)
        for (j = i; j <= 7; j++) {
            sg_answer *a;
            int tame = j < sg_game_misere_tame_to(g);
            hh[0] = i;
            hh[1] = j;
            h[0] = (unsigned)i;
            h[1] = (unsigned)j;
            OK(sg_game_misere_position(&a, g, hh, 2, 0));
            assert_string_equal(sg_answer_method(a),
                                tame ? "tame" : "quotient");
            assert_int_equal(sg_answer_first_wins(a), mb_value(m, h, 2) != 0);
            sg_answer_free(a);
        }
    free(m);
    sg_game_free(g);
}

/* The families of sweeps: octal codes of one digit, and the subsets of
 * {1..5} of one or two numbers, against lists made here. */
static void test_sweep(void **state)
{
    uint64_t n, i, a, b;
    char *rule, want[64];
    size_t k = 0;

    (void)state;
    OK(sg_sweep_count("octal", 0, 0, 0, 1, 0, &n));
    assert_int_equal(n, 7);
    for (i = 0; i < n; i++) {
        sg_game *g;
        OK(sg_sweep_rule("octal", 0, 0, 0, 1, 0, i, &rule));
        /* the codes 0.1 .. 0.7, each once (as digits seen) */
        assert_int_equal(strlen(rule), 3);
        assert_true(rule[0] == '0' && rule[1] == '.');
        assert_true(rule[2] >= '1' && rule[2] <= '7');
        assert_false(k & (1u << (rule[2] - '0')));
        k |= 1u << (rule[2] - '0');
        OK(sg_game_new(&g, rule));
        sg_game_free(g);
        sg_free(rule);
    }
    k = 0;
    OK(sg_sweep_count("subtract", 1, 2, 5, 0, 0, &n));
    assert_int_equal(n, 5 + 10);
    for (a = 1; a <= 5; a++)
        for (b = a; b <= 5; b++) {
            int seen = 0;
            if (a == b)
                snprintf(want, sizeof want, "subtract{%llu}",
                         (unsigned long long)a);
            else
                snprintf(want, sizeof want, "subtract{%llu,%llu}",
                         (unsigned long long)a, (unsigned long long)b);
            for (i = 0; i < n; i++) {
                OK(sg_sweep_rule("subtract", 1, 2, 5, 0, 0, i, &rule));
                seen += strcmp(rule, want) == 0;
                sg_free(rule);
            }
            assert_int_equal(seen, 1);
            k++;
        }
    assert_int_equal(k, n);
    expect_fail(sg_sweep_count("octal", 1, 0, 0, 2, 0, &n), SG_E_INPUT,
                "no sizes");
    expect_fail(sg_sweep_count("bogus", 0, 0, 0, 0, 0, &n), SG_E_INPUT,
                "unknown family");
    expect_fail(sg_sweep_rule("octal", 0, 0, 0, 1, 0, 7, &rule), SG_E_INPUT,
                "rule 7 of a family of 7");
    assert_null(rule);
}

static void test_misc(void **state)
{
    (void)state;
    assert_string_equal(sg_status_name(SG_E_INTERRUPTED), "interrupted");
    assert_string_equal(sg_status_name(SG_OK), "ok");
    assert_int_equal(sg_library_abi(), SG_API_MAJOR);
    assert_true(strlen(sg_library_version()) > 0);
    sg_free(NULL);
    sg_answer_free(NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse_forms),
        cmocka_unit_test(test_values_reference),
        cmocka_unit_test(test_values_set),
        cmocka_unit_test(test_budget_count),
        cmocka_unit_test(test_budget_seconds),
        tu_tmp_test(test_cancel),
        cmocka_unit_test(test_big_heaps),
        cmocka_unit_test(test_moves_naive),
        cmocka_unit_test(test_moves_three),
        cmocka_unit_test(test_moves_errors),
        tu_tmp_test(test_cache_reload),
        tu_tmp_test(test_memory_flat),
        tu_tmp_test(test_certificates),
        cmocka_unit_test(test_misere),
        cmocka_unit_test(test_sweep),
        cmocka_unit_test(test_misc),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
