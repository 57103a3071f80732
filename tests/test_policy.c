/*
 * test_policy.c - unit tests of the cost policy (policy.c): the count of
 * values a run bounded by time alone may compute (sg_time_max) is the
 * memory its method needs, shared by the runs at once: bytes / 8 for the
 * methods that keep a value and its bookkeeping per heap, the N whose
 * N^2 / 8 bytes of bit rows fit for the three-heap bitset method (checked
 * as r^2 <= 4 * bytes < (r + 1)^2), and the default count for a rule no
 * theorem can prove (more values could not prove it).
 */
#define _DEFAULT_SOURCE
#include "testutil.h"

#include "sgexplore.h"
#include "internal.h"

static void test_memory_count(void **state)
{
    sg_rule r;
    int by_memory = 0;

    (void)state;
    parse_or_fail(&r, SG_SYNTAX_RULE, "0.354");
    assert_int_equal(sg_time_max(&r, 8000000, 1, &by_memory), 1000000);
    assert_true(by_memory);
    assert_int_equal(sg_time_max(&r, 8000000, 2, NULL), 500000);
    assert_int_equal(sg_time_max(&r, 8000000, 0, NULL), 1000000);
    /* the smallest count is the first round's 128 values */
    assert_int_equal(sg_time_max(&r, 8, 1, NULL), 128);
    /* this machine's memory: past the default count on any host with
     * more than 16 MB */
    assert_true(sg_time_max(&r, 0, 1, &by_memory) > sg_default_max(&r));
    assert_true(by_memory);
    sg_rule_clear(&r);
}

static void test_three_heaps(void **state)
{
    static const uint64_t bytes[] = {1u << 20, 1000000, 123456789,
                                     (uint64_t)3 << 33};
    sg_rule r;
    size_t k;

    (void)state;
    /* hex digit 8: a move may leave three heaps */
    parse_or_fail(&r, SG_SYNTAX_RULE, "0.8");
    for (k = 0; k < sizeof bytes / sizeof bytes[0]; k++) {
        uint64_t n = sg_time_max(&r, bytes[k], 1, NULL);
        assert_true(n * n <= 4 * bytes[k]);
        assert_true((n + 1) * (n + 1) > 4 * bytes[k]);
    }
    assert_int_equal(sg_time_max(&r, 1u << 20, 1, NULL), 2048);
    sg_rule_clear(&r);
}

static void test_no_theorem(void **state)
{
    sg_rule r;
    int by_memory = 1;

    (void)state;
    /* a tail with splits: no theorem applies */
    parse_or_fail(&r, SG_SYNTAX_RULE, "0.[7]");
    assert_int_equal(sg_time_max(&r, 8000000, 1, &by_memory),
                     sg_default_max(&r));
    assert_false(by_memory);
    sg_rule_clear(&r);
}

/* A rule is classified once: its profile is computed when it is parsed,
 * and one analysis (the budget, the enumeration's rounds and method, the
 * proofs, the certificate's check, the family, the time bound, the deep
 * test) reads it without computing it again. */
static void test_profile_once(void **state)
{
    unsigned long before, after;
    sg_rule r;
    sg_seq s;
    sg_result res;
    sg_error err;
    size_t max;
    uint64_t fail_n;

    (void)state;
    before = sgi_rule_profile_computations();
    parse_or_fail(&r, SG_SYNTAX_RULE, "subtract{2,3,5,7,11,13}");
    assert_int_equal(sgi_rule_profile_computations() - before, 1);
    sg_seq_init(&s);
    max = sg_default_max(&r);
    assert_int_equal(sg_analyse(&res, &s, &r, max, NULL, &err), SG_OK);
    assert_int_not_equal(res.status, SG_UNRESOLVED);
    assert_string_equal(sg_enumerate_method(&r), "direct");
    assert_string_equal(sg_rule_family(&r), "subtract");
    assert_true(sg_certificate_check(&r, &res, &s, &fail_n, &err));
    assert_true(sg_time_max(&r, 1 << 20, 1, NULL) > 0);
    assert_false(sg_deep_applicable(&r));
    assert_int_equal(sg_prove(&res, &r, &s), SG_OK);
    after = sgi_rule_profile_computations();
    if (after - before != 1)
        fail_msg("one analysis computed the profile %lu times", after - before);
    sg_seq_clear(&s);
    sg_rule_clear(&r);
}

/* The table of methods: row i is method i, each with its own name, and
 * each kind of rule gets the method and budget docs/BENCHMARKS.md and
 * sgexplore.1 give it (the first row that applies). */
static void test_method_table(void **state)
{
    static const struct {
        const char *rule;
        const char *method;
        size_t max;
        int deep;
    } cases[] = {
        {"0.77", "sparse", 1000000, 1},
        {"4!.0", "sparse", 1000000, 1},
        {"subtract{1,3,4}", "direct", 10000000, 0},
        {"0.8F", "three-heap", 4000, 0},
        {"0.8!F", "naive", 2000, 0},
        {"4.[3]", "naive", 1000, 0},
        {"0.[13]", "naive", 10000, 0},
        {"0.G", "general", 2000, 0},
        {"all-but{primes}", "complement", 100000, 0},
        {"subtract{at-most-1/2}", "window", 1000000, 0},
        {"subtract{proper-divisors}", "divisors", 1000000, 0},
    };
    size_t i, j;

    (void)state;
    for (i = 0; i < SGI_METHOD_COUNT; i++) {
        assert_int_equal(sgi_methods[i].id, i);
        assert_non_null(sgi_methods[i].run);
        for (j = 0; j < i; j++)
            assert_string_not_equal(sgi_methods[i].name, sgi_methods[j].name);
    }
    for (i = 0; i < sizeof cases / sizeof *cases; i++) {
        sg_rule r;

        parse_or_fail(&r, SG_SYNTAX_RULE, cases[i].rule);
        if (strcmp(sg_enumerate_method(&r), cases[i].method) != 0 ||
            sg_default_max(&r) != cases[i].max ||
            sg_deep_applicable(&r) != cases[i].deep)
            fail_msg("%s: method %s, budget %zu, deep %d", cases[i].rule,
                     sg_enumerate_method(&r), sg_default_max(&r),
                     sg_deep_applicable(&r));
        sg_rule_clear(&r);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_memory_count),
        cmocka_unit_test(test_three_heaps),
        cmocka_unit_test(test_no_theorem),
        cmocka_unit_test(test_profile_once),
        cmocka_unit_test(test_method_table),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
