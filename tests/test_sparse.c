/*
 * test_sparse.c - unit tests of the sparse-space enumerator
 * (sgi_enumerate_sparse) and the split-free "direct" method, its answers
 * and its interface: values of hundreds of random splitting rules, under
 * the automatic mask, mask 0 and random forced masks, with and without
 * the AVX2 filter, at every stored width, compared with the naive method
 * and with the tests' independent reference; well-known games with and
 * without the helper thread; a sequence widened on the way; published
 * periods from data/known.tsv through sg_analyse; extension of a prefix,
 * cancelling, the progress hook and the method names; two runs in two
 * threads at once.  The fast paths are tested in test_sparse_paths.c,
 * parity masks and sparse spaces in test_sparse_parity.c; the helpers
 * the three share are in sparse_check.h.
 */
#define _DEFAULT_SOURCE
#include "reference.h"
#include "sparse_check.h"

#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

/* One random code: reference, naive and sparse under several masks and
 * widths must agree. */
static void check_random_code(tu_rng *g, const tu_code_opts *o, size_t n,
                              const sg_enum_options *opt)
{
    static ref_rule ref;
    char *text;
    uint32_t *want, *naive;
    sg_rule r;

    do {
        tu_random_code(&ref, g, o);
    } while (!(ref_bits(&ref) & 4));
    text = ref_rule_text(&ref);
    assert_non_null(text);
    want = malloc(n * sizeof *want);
    assert_non_null(want);
    ref_values(want, n, &ref);
    parse_or_fail(&r, SG_SYNTAX_RULE, text);
    naive = naive_values(&r, n);
    for (size_t i = 0; i < n; i++) {
        if (naive[i] != want[i]) {
            fail_msg("%s: naive G(%zu) = %u, reference %u (seed %llu)", text, i,
                     (unsigned)naive[i], (unsigned)want[i], TU_SEED);
        }
    }
    sparse_check_opt(opt, &r, n, SGI_SPARSE_AUTO, 1, want, text);
    sparse_check_opt(opt, &r, n, 0, 1, want, text);
    sparse_check_opt(opt, &r, n, random_mask(g), 1, want, text);
    sparse_check_opt(opt, &r, n, random_mask(g), tu_chance(g, 2) ? 2 : 4, want,
                     text);
    sparse_check_opt(opt, &r, n, SGI_SPARSE_AUTO, tu_chance(g, 2) ? 2 : 4, want,
                     text);
    sg_rule_clear(&r);
    free(naive);
    free(want);
    free(text);
}

static void random_codes(uint64_t salt, const tu_code_opts *o, size_t count,
                         size_t n, const sg_enum_options *opt)
{
    tu_rng g;

    tu_rng_init(&g, salt);
    for (size_t i = 0; i < count; i++) {
        check_random_code(&g, o, n, opt);
    }
}

/* Octal codes with split digits and digits before the point. */
static void test_random_octal(void **state)
{
    tu_code_opts o = {7, 1, 6, 1, 0, 0};

    (void)state;
    random_codes(501, &o, tu_scaled(150), 400, NULL);
    o.ndig_min = 5;
    o.ndig_max = 14;
    random_codes(502, &o, tu_scaled(40), 700, NULL);
}

/* `!` codes (Grundy-like): the pair of equal halves must be left out. */
static void test_random_unequal(void **state)
{
    tu_code_opts o = {7, 1, 6, 1, 1, 0};

    (void)state;
    random_codes(503, &o, tu_scaled(150), 400, NULL);
}

/* Hex digits without bit 8 (4, 5, 6, 7, C..F minus 8) are two-heap rules
 * too; with bit 8 the sparse entry point must fall back and stay right. */
static void test_random_hex(void **state)
{
    tu_code_opts o = {15, 1, 4, 1, 1, 0};

    (void)state;
    random_codes(504, &o, tu_scaled(40), 120, NULL);
}

/* Without the AVX2 filter (the portable path), the same answers. */
static void test_random_scalar(void **state)
{
    tu_code_opts o = {7, 1, 8, 1, 1, 0};
    sgi_test_switches scalar_sw = {0};
    sg_enum_options scalar = {.test = &scalar_sw};

    (void)state;
    scalar_sw.no_simd = 1;
    random_codes(505, &o, tu_scaled(60), 500, &scalar);
}

/* Longer runs of well-known games, all masks agreeing with naive. */
static void test_fixed_rules(void **state)
{
    static const char *codes[] = {"4!.0",     "0.6",    "0.77", "0.07",
                                  "0.16",     "0.1777", "4.07", "0.54!",
                                  "0.777777", "4.7!",   "0.4",  "0.356"};
    sgi_test_switches scalar_sw = {0}, single_sw = {0}, stamp_sw = {0};
    sg_enum_options scalar = {.test = &scalar_sw};
    sg_enum_options single = {.test = &single_sw};
    sg_enum_options stamps = {.test = &stamp_sw};
    tu_rng g;

    (void)state;
    scalar_sw.no_simd = 1;
    single_sw.no_threads = 1;
    stamp_sw.no_threads = 1;
    stamp_sw.no_gbits = 1;
    tu_rng_init(&g, 506);
    for (size_t i = 0; i < sizeof codes / sizeof codes[0]; i++) {
        const size_t n = 3000;
        sg_rule r;
        uint32_t *want;

        parse_or_fail(&r, SG_SYNTAX_RULE, codes[i]);
        want = naive_values(&r, n);
        sparse_check(&r, n, SGI_SPARSE_AUTO, 1, want, codes[i]);
        sparse_check(&r, n, random_mask(&g), 1, want, codes[i]);
        sparse_check(&r, n, SGI_SPARSE_AUTO, 2, want, codes[i]);
        sparse_check(&r, n, SGI_SPARSE_AUTO, 4, want, codes[i]);
        sparse_check_opt(&scalar, &r, n, SGI_SPARSE_AUTO, 1, want, codes[i]);
        sparse_check_opt(&scalar, &r, n, SGI_SPARSE_AUTO, 2, want, codes[i]);
        /* Without the helper thread (which rules with many rare values,
         * and mask 0, use by default). */
        sparse_check_opt(&single, &r, n, SGI_SPARSE_AUTO, 1, want, codes[i]);
        sparse_check_opt(&single, &r, n, 0, 1, want, codes[i]);
        /* this thread's group marks on the stamps, not bit sets */
        sparse_check_opt(&stamps, &r, n, SGI_SPARSE_AUTO, 1, want, codes[i]);
        sparse_check_opt(&stamps, &r, n, SGI_SPARSE_AUTO, 2, want, codes[i]);
        sparse_check_opt(&stamps, &r, n, 0, 4, want, codes[i]);
        free(want);
        sg_rule_clear(&r);
    }
}

/* A rule whose values pass 255, so that the sequence widens while the
 * sparse method runs (and the two-byte filter sees real values). */
static void test_widening(void **state)
{
    static ref_rule ref;
    const size_t n = 1500;
    uint32_t *want = malloc(n * sizeof *want);
    char code[64];
    sgi_test_switches scalar_sw = {0};
    sg_enum_options scalar = {.test = &scalar_sw};
    sg_rule r;

    (void)state;
    scalar_sw.no_simd = 1;
    assert_non_null(want);
    /* 0.7777...: removing 1..40 tokens and splitting the rest. */
    strcpy(code, "0.");
    for (int i = 0; i < 40; i++) {
        strcat(code, "7");
    }
    assert_int_equal(ref_rule_from_code(&ref, code), 0);
    ref_values(want, n, &ref);
    assert_true(want[n - 1] >= 256);
    parse_or_fail(&r, SG_SYNTAX_RULE, code);
    sparse_check(&r, n, SGI_SPARSE_AUTO, 1, want, code);
    sparse_check(&r, n, 0x55, 1, want, code);
    sparse_check_opt(&scalar, &r, n, SGI_SPARSE_AUTO, 1, want, code);
    sg_rule_clear(&r);
    free(want);
}

/* Extending a prefix in random steps (the rare list is rebuilt from the
 * stored values each time), through sg_enumerate and forced masks. */
static void test_extension(void **state)
{
    static const char *codes[] = {"4!.0", "0.6", "0.77", "0.54!", "4.07"};
    tu_rng g;

    (void)state;
    tu_rng_init(&g, 507);
    for (size_t i = 0; i < sizeof codes / sizeof codes[0]; i++) {
        const size_t n = 2000;
        sg_rule r;
        uint32_t *want;
        sg_seq s;
        sg_error err;
        size_t at = 0;
        long long mask = tu_chance(&g, 2) ? SGI_SPARSE_AUTO : random_mask(&g);

        parse_or_fail(&r, SG_SYNTAX_RULE, codes[i]);
        want = naive_values(&r, n);
        sg_seq_init(&s);
        while (at < n) {
            size_t step = tu_chance(&g, 3) ? 1 : (size_t)tu_range(&g, 0, 400);
            at = at + step > n ? n : at + step;
            if (tu_chance(&g, 2)) {
                assert_int_equal(sg_enumerate(&s, &r, at, NULL, &err), SG_OK);
            } else {
                assert_int_equal(
                    sgi_enumerate_sparse(&s, &r, at, mask, NULL, NULL, &err),
                    SG_OK);
            }
            check_values(&s, want, at, codes[i], mask);
        }
        sg_seq_clear(&s);
        free(want);
        sg_rule_clear(&r);
    }
}

/* Kayles from the literature: the first values and the period. */
static void test_kayles(void **state)
{
    static const uint32_t kayles[] = {0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6,
                                      4, 1, 2, 7, 1, 4, 3, 2, 1, 4, 6, 7};
    static const uint32_t period[] = {4, 1, 2, 8, 1, 4, 7, 2, 1, 8, 2, 7};
    const size_t n = 100000;
    sg_rule r;
    sg_seq s;
    sg_error err;

    (void)state;
    parse_or_fail(&r, SG_SYNTAX_OCTAL, "0.77");
    sg_seq_init(&s);
    assert_int_equal(
        sgi_enumerate_sparse(&s, &r, n, SGI_SPARSE_AUTO, NULL, NULL, &err),
        SG_OK);
    for (size_t i = 0; i < 24; i++) {
        assert_int_equal(sg_seq_get(&s, i), kayles[i]);
    }
    /* Period 12 from n = 71 (G(70) = 6 is the last exception), far out. */
    for (size_t i = 72; i < n; i++) {
        if (sg_seq_get(&s, i) != period[i % 12]) {
            fail_msg("Kayles: G(%zu) = %u, period says %u", i,
                     (unsigned)sg_seq_get(&s, i), (unsigned)period[i % 12]);
        }
    }
    assert_int_equal(sg_seq_get(&s, 70), 6);
    assert_int_equal(sg_seq_get(&s, 70 + 12), 2);
    sg_seq_clear(&s);
    sg_rule_clear(&r);
}

/* Every octal row of data/known.tsv that sg_analyse can reach quickly:
 * the published period and pre-period, and the values against the naive
 * method as far as it is cheap. */
static void test_known_table(void **state)
{
    const char *dir = getenv("abs_top_srcdir");
    char path[4096], line[4096];
    FILE *f;
    int rows = 0;

    (void)state;
    if (dir == NULL) {
        dir = getenv("top_srcdir");
    }
    snprintf(path, sizeof path, "%s/data/known.tsv", dir ? dir : ".");
    f = fopen(path, "r");
    if (f == NULL) {
        skip();
    }
    while (fgets(line, sizeof line, f)) {
        char rule[256], family[32], status[32];
        unsigned long long p, n0, need;
        sg_rule r;
        sg_seq s;
        sg_result res;
        sg_error err;

        if (sscanf(line,
                   "%255[^\t]\t%31[^\t]\t%31[^\t]\t%llu\t%llu\t%*[^\t]\t"
                   "%*[^\t]\t%llu",
                   rule, family, status, &p, &n0, &need) != 6) {
            continue;
        }
        if (strcmp(status, "periodic") != 0 || need > 1000000) {
            continue;
        }
        parse_or_fail(&r, SG_SYNTAX_RULE, rule);
        if (!sgi_sparse_applicable(&r)) {
            sg_rule_clear(&r);
            continue;
        }
        sg_seq_init(&s);
        memset(&err, 0, sizeof err);
        assert_int_equal(sg_analyse(&res, &s, &r, 2 * need + 1024, NULL, &err),
                         SG_OK);
        if (res.status != SG_PERIODIC || res.period != p ||
            res.preperiod != n0) {
            fail_msg("%s: analysed status %d p %llu n0 %llu, published p %llu "
                     "n0 %llu",
                     rule, (int)res.status, (unsigned long long)res.period,
                     (unsigned long long)res.preperiod, p, n0);
        }
        if (s.n > 0) {
            size_t m = s.n < 4000 ? s.n : 4000;
            uint32_t *want = naive_values(&r, m);
            for (size_t i = 0; i < m; i++) {
                if (sg_seq_get(&s, i) != want[i]) {
                    fail_msg("%s: G(%zu) = %u, naive %u", rule, i,
                             (unsigned)sg_seq_get(&s, i), (unsigned)want[i]);
                }
            }
            free(want);
        }
        rows++;
        sg_seq_clear(&s);
        sg_rule_clear(&r);
    }
    fclose(f);
    assert_true(rows >= 10);
}

/* Split-free finite rules go through the direct method: long subtraction
 * sets and codes with bit-1 digits, against the reference. */
static void test_direct(void **state)
{
    tu_rng g;
    uint64_t set[24];
    char text[24 * 24];
    const size_t n = 5000;
    uint32_t *want = malloc(n * sizeof *want);
    static ref_rule ref;
    tu_code_opts o = {3, 1, 12, 0, 0, 0};

    (void)state;
    assert_non_null(want);
    tu_rng_init(&g, 508);
    for (size_t i = 0; i < tu_scaled(40); i++) {
        size_t m = tu_random_set(set, &g, 20, tu_chance(&g, 2) ? 3000 : 60);
        sg_rule r;
        sg_seq s;
        sg_error err;

        tu_set_text(text, &g, set, m);
        ref_subtract_values(want, n, set, m);
        parse_or_fail(&r, SG_SYNTAX_SUBTRACT, text);
        assert_string_equal(sg_enumerate_method(&r), "direct");
        sg_seq_init(&s);
        if (tu_chance(&g, 3)) {
            assert_int_equal(sg_seq_widen(&s, 2, &err), SG_OK);
        }
        assert_int_equal(sg_enumerate(&s, &r, n / 3, NULL, &err), SG_OK);
        assert_int_equal(sg_enumerate(&s, &r, n, NULL, &err), SG_OK);
        check_values(&s, want, n, text, -1);
        sg_seq_clear(&s);
        sg_rule_clear(&r);
    }
    for (size_t i = 0; i < tu_scaled(60); i++) {
        char *code;
        sg_rule r;
        sg_seq s;
        sg_error err;

        tu_random_code(&ref, &g, &o);
        code = ref_rule_text(&ref);
        assert_non_null(code);
        ref_values(want, 600, &ref);
        parse_or_fail(&r, SG_SYNTAX_RULE, code);
        sg_seq_init(&s);
        assert_int_equal(sg_enumerate(&s, &r, 600, NULL, &err), SG_OK);
        check_values(&s, want, 600, code, -1);
        sg_seq_clear(&s);
        sg_rule_clear(&r);
        free(code);
    }
    free(want);
}

static void test_methods_and_stats(void **state)
{
    sg_rule r;
    sg_seq s;
    sg_error err;
    sgi_sparse_stats st;

    (void)state;
    parse_or_fail(&r, SG_SYNTAX_RULE, "4!.0");
    assert_true(sgi_sparse_applicable(&r));
    assert_string_equal(sg_enumerate_method(&r), "sparse");
    /* Mask 0: every value is rare, every heap needs the whole scan. */
    sg_seq_init(&s);
    assert_int_equal(sgi_enumerate_sparse(&s, &r, 500, 0, &st, NULL, &err),
                     SG_OK);
    assert_int_equal(st.mask, 0);
    assert_int_equal(st.rare, 499);
    assert_int_equal(st.repicks, 0);
    sg_seq_clear(&s);
    /* The automatic mask leaves Grundy's game with few rare heaps. */
    sg_seq_init(&s);
    assert_int_equal(
        sgi_enumerate_sparse(&s, &r, 20000, SGI_SPARSE_AUTO, &st, NULL, &err),
        SG_OK);
    assert_true(st.mask != 0);
    assert_true(st.rare < 20000 / 10);
    sg_seq_clear(&s);
    sg_rule_clear(&r);

    parse_or_fail(&r, SG_SYNTAX_RULE, "0.[7]");
    assert_false(sgi_sparse_applicable(&r));
    assert_string_equal(sg_enumerate_method(&r), "naive");
    sg_rule_clear(&r);
    parse_or_fail(&r, SG_SYNTAX_RULE, "0.8F");
    assert_false(sgi_sparse_applicable(&r));
    assert_string_equal(sg_enumerate_method(&r), "three-heap");
    sg_rule_clear(&r);
    parse_or_fail(&r, SG_SYNTAX_RULE, "0.8!F");
    assert_string_equal(sg_enumerate_method(&r), "naive");
    sg_rule_clear(&r);
    parse_or_fail(&r, SG_SYNTAX_SUBTRACT, "997,1999,2996");
    assert_false(sgi_sparse_applicable(&r));
    assert_string_equal(sg_enumerate_method(&r), "direct");
    sg_rule_clear(&r);
}

/* A raised cancel flag stops the run with a correct prefix, which can be
 * extended afterwards. */
static void test_cancel(void **state)
{
    volatile sig_atomic_t flag = 1;
    sg_enum_options opt = {0};
    const size_t n = 5000;
    uint32_t *want;
    sg_rule r;
    sg_seq s;
    sg_error err;

    (void)state;
    opt.cancel = &flag;
    parse_or_fail(&r, SG_SYNTAX_RULE, "4!.0");
    want = naive_values(&r, n);
    sg_seq_init(&s);
    assert_int_equal(
        sgi_enumerate_sparse(&s, &r, 1000, SGI_SPARSE_AUTO, NULL, NULL, &err),
        SG_OK);
    assert_int_equal(
        sgi_enumerate_sparse(&s, &r, n, SGI_SPARSE_AUTO, NULL, &opt, &err),
        SG_E_INTERRUPTED);
    assert_true(s.n >= 1000 && s.n < n);
    check_values(&s, want, s.n, "4!.0 cancelled", -1);
    flag = 0;
    assert_int_equal(
        sgi_enumerate_sparse(&s, &r, n, SGI_SPARSE_AUTO, NULL, &opt, &err),
        SG_OK);
    check_values(&s, want, n, "4!.0 resumed", -1);
    sg_seq_clear(&s);
    sg_rule_clear(&r);
    free(want);
}

static size_t progress_calls, progress_last, progress_target;

static void on_progress(void *ctx, size_t done, size_t target, size_t rare)
{
    (void)rare;
    *(int *)ctx = 1;
    progress_calls++;
    progress_last = done;
    progress_target = target;
}

/* The progress hook is called during a run, with sensible numbers, and
 * not by a run whose options have none. */
static void test_progress(void **state)
{
    int seen = 0;
    sg_enum_options opt = {0};
    sg_rule r;
    sg_seq s;
    sg_error err;

    (void)state;
    parse_or_fail(&r, SG_SYNTAX_RULE, "0.77");
    opt.progress = on_progress;
    opt.progress_ctx = &seen;
    sg_seq_init(&s);
    assert_int_equal(sg_enumerate(&s, &r, 50000, &opt, &err), SG_OK);
    assert_true(seen);
    assert_true(progress_calls >= 10);
    assert_true(progress_last < 50000);
    assert_int_equal(progress_target, 50000);
    progress_calls = 0;
    assert_int_equal(sg_enumerate(&s, &r, 100000, NULL, &err), SG_OK);
    assert_int_equal(progress_calls, 0);
    sg_seq_clear(&s);
    sg_rule_clear(&r);
}

/* ------------------------------------------------------------------ */
/* Two runs in two threads                                              */
/* ------------------------------------------------------------------ */

/* One thread's run: its rule, its options (with its own progress
 * counter), its values. */
typedef struct thread_run {
    const char *code;
    size_t n;
    sg_enum_options opt;
    sgi_test_switches sw; /* what opt.test points at */
    size_t calls, last_target;
    sg_status st;
    sg_seq s;
    sg_error err;
} thread_run;

static void on_thread_progress(void *ctx, size_t done, size_t target,
                               size_t rare)
{
    thread_run *t = ctx;

    (void)done;
    (void)rare;
    t->calls++;
    t->last_target = target;
}

static void *thread_main(void *arg)
{
    thread_run *t = arg;
    sg_rule r;
    sg_result res;

    sg_rule_init(&r);
    if (sg_rule_parse(&r, SG_SYNTAX_RULE, t->code, &t->err) != SG_OK) {
        t->st = SG_E_INPUT;
        return NULL;
    }
    /* Half through sg_enumerate, the rest through sg_analyse, which
     * extends the same sequence (its budget is exactly n). */
    t->st = sg_enumerate(&t->s, &r, t->n / 2, &t->opt, &t->err);
    if (t->st == SG_OK)
        t->st = sg_analyse(&res, &t->s, &r, t->n, &t->opt, &t->err);
    sg_rule_clear(&r);
    return NULL;
}

/* Two rules enumerated at once in two threads of this process, each with
 * its own options (one without AVX2, one with the helper pinned on), both
 * right against the reference and each hook called for its own run only.
 * Grundy's game and Officers have many rare values, so each run also
 * starts its own helper thread. */
static void test_two_threads(void **state)
{
    static const char *codes[2] = {"4!.0", "0.6"};
    static ref_rule ref;
    const size_t n[2] = {tu_scaled(20000), tu_scaled(16000)};
    thread_run t[2];
    pthread_t th[2];
    int k;

    (void)state;
    for (k = 0; k < 2; k++) {
        memset(&t[k], 0, sizeof t[k]);
        t[k].code = codes[k];
        t[k].n = n[k];
        t[k].opt.progress = on_thread_progress;
        t[k].opt.progress_ctx = &t[k];
        t[k].opt.test = &t[k].sw;
        sg_seq_init(&t[k].s);
    }
    t[0].sw.no_simd = 1;
    t[1].sw.pin_helper = 1;
    t[1].sw.pin_balance = -40;
    for (k = 0; k < 2; k++)
        assert_int_equal(pthread_create(&th[k], NULL, thread_main, &t[k]), 0);
    for (k = 0; k < 2; k++)
        assert_int_equal(pthread_join(th[k], NULL), 0);
    for (k = 0; k < 2; k++) {
        uint32_t *want = malloc(n[k] * sizeof *want);

        assert_non_null(want);
        if (t[k].st != SG_OK)
            fail_msg("%s in a thread: %s", codes[k], t[k].err.msg);
        assert_int_equal(ref_rule_from_code(&ref, codes[k]), 0);
        ref_values(want, n[k], &ref);
        check_values(&t[k].s, want, n[k], codes[k], -1);
        assert_true(t[k].calls >= 2);
        assert_int_equal(t[k].last_target, n[k]);
        sg_seq_clear(&t[k].s);
        free(want);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_kayles),
        cmocka_unit_test(test_random_octal),
        cmocka_unit_test(test_random_unequal),
        cmocka_unit_test(test_random_hex),
        cmocka_unit_test(test_random_scalar),
        cmocka_unit_test(test_fixed_rules),
        cmocka_unit_test(test_widening),
        cmocka_unit_test(test_extension),
        cmocka_unit_test(test_known_table),
        cmocka_unit_test(test_direct),
        cmocka_unit_test(test_methods_and_stats),
        cmocka_unit_test(test_cancel),
        cmocka_unit_test(test_progress),
        cmocka_unit_test(test_two_threads),
    };

    tu_base_seed();
    return cmocka_run_group_tests(tests, NULL, NULL);
}
