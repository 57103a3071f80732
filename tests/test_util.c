/*
 * test_util.c - unit tests of the small helpers every module shares
 * (error.c): the one growth rule for arrays, sg_grow, checked against
 * what it promises (room for `need`, amortised doubling, nothing changed
 * on overflow).
 */
#define _DEFAULT_SOURCE
#include "testutil.h"

#include <stdint.h>
#include <string.h>

#include "sgexplore.h"

/* Appending n elements one at a time keeps every earlier element and
 * reallocates only O(log n) times. */
static void test_grow_appends(void **state)
{
    uint32_t *v = NULL;
    size_t cap = 0, i, moves = 0, last = 0;

    (void)state;
    for (i = 0; i < 100000; i++) {
        assert_int_equal(sg_grow(&v, &cap, i + 1, sizeof *v), 0);
        assert_true(cap >= i + 1);
        if (cap != last)
            moves++;
        last = cap;
        v[i] = (uint32_t)(i * 2654435761u);
    }
    for (i = 0; i < 100000; i++)
        assert_int_equal(v[i], (uint32_t)(i * 2654435761u));
    assert_true(moves <= 14); /* 16 << 13 > 100000 */
    free(v);
}

/* A need the array already meets changes nothing. */
static void test_grow_enough(void **state)
{
    char *v = malloc(40);
    char *before = v;
    size_t cap = 40;

    (void)state;
    assert_non_null(v);
    assert_int_equal(sg_grow(&v, &cap, 40, 1), 0);
    assert_ptr_equal(v, before);
    assert_int_equal(cap, 40);
    free(v);
}

/* Sizes whose byte count overflows fail and leave the array alone. */
static void test_grow_overflow(void **state)
{
    uint64_t *v = malloc(16 * sizeof *v);
    uint64_t *before = v;
    size_t cap = 16;

    (void)state;
    assert_non_null(v);
    v[3] = 77;
    assert_int_equal(sg_grow(&v, &cap, SIZE_MAX / 4, sizeof *v), -1);
    assert_int_equal(sg_grow(&v, &cap, SIZE_MAX, 1), -1);
    assert_int_equal(sg_grow(&v, &cap, 17, 0), -1);
    assert_ptr_equal(v, before);
    assert_int_equal(cap, 16);
    assert_int_equal(v[3], 77);
    free(v);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_grow_appends),
        cmocka_unit_test(test_grow_enough),
        cmocka_unit_test(test_grow_overflow),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
