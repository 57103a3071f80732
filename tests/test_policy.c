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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_memory_count),
        cmocka_unit_test(test_three_heaps),
        cmocka_unit_test(test_no_theorem),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
