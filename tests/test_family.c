/*
 * test_family.c - unit tests of the sweep families (family.c): the counts
 * against the combinatorial formulas (sums of binomials, 7 * 8^(D-1),
 * 15 * 16^(D-1)), the lists against an independent enumeration (every
 * bitmask of {1..M} with K bits, sorted; every digit string counted up
 * in base 8 or 16), the documented order, uniqueness of the canonical
 * forms, and the refusal of impossible parameters.
 */
#define _DEFAULT_SOURCE
#include "testutil.h"

#include <string.h>

#include "sgexplore.h"

/* n choose k by Pascal's triangle (independent of family.c's product). */
static uint64_t pascal(unsigned n, unsigned k)
{
    static uint64_t t[64][64];
    unsigned i, j;

    if (k > n)
        return 0;
    for (i = 0; i <= n; i++)
        for (j = 0; j <= i; j++)
            t[i][j] = (j == 0 || j == i) ? 1 : t[i - 1][j - 1] + t[i - 1][j];
    return t[n][k];
}

/* Every rule of f, in order (the caller frees). */
static char **list_all(const sg_family *f, uint64_t *n)
{
    char **v;
    uint64_t i;
    sg_error err;

    assert_int_equal(sg_family_count(n, f, &err), SG_OK);
    v = calloc(*n ? *n : 1, sizeof *v);
    assert_non_null(v);
    for (i = 0; i < *n; i++)
        assert_int_equal(sg_family_rule(&v[i], f, i, &err), SG_OK);
    return v;
}

static void free_all(char **v, uint64_t n)
{
    uint64_t i;

    for (i = 0; i < n; i++)
        free(v[i]);
    free(v);
}

/* The text of a set of {1..m} given as a bitmask (bit e-1: element e). */
static void set_text(char *out, const char *name, unsigned mask, unsigned m)
{
    unsigned e;
    const char *sep = "";

    out += sprintf(out, "%s{", name);
    for (e = 1; e <= m; e++)
        if (mask & (1u << (e - 1))) {
            out += sprintf(out, "%s%u", sep, e);
            sep = ",";
        }
    strcpy(out, "}");
}

/* Lexicographic order of sets, as sorted element lists. */
static int set_less(unsigned a, unsigned b)
{
    while (a && b) {
        unsigned la = a & -a, lb = b & -b;
        if (la != lb)
            return la < lb;
        a &= a - 1;
        b &= b - 1;
    }
    return a == 0 && b != 0;
}

/* The sets family of kind k, size lo..hi, max m, against every bitmask. */
static void check_sets(sg_family_kind kind, unsigned lo, unsigned hi,
                       unsigned m)
{
    sg_family f = {kind, lo, hi, m, 0, 0};
    const char *name = kind == SG_FAMILY_SUBTRACT ? "subtract" : "all-but";
    uint64_t n, i = 0, formula = 0;
    unsigned k, *masks, nm, mask, a, b;
    char **v = list_all(&f, &n), text[256];

    for (k = lo; k <= hi; k++)
        formula += pascal(m, k);
    assert_int_equal(n, formula);
    masks = malloc(sizeof *masks << m);
    assert_non_null(masks);
    for (k = lo; k <= hi; k++) {
        /* Every k-bit mask, sorted by insertion into lexicographic order. */
        nm = 0;
        for (mask = 0; mask < (1u << m); mask++) {
            if ((unsigned)__builtin_popcount(mask) != k)
                continue;
            for (a = nm; a > 0 && set_less(mask, masks[a - 1]); a--)
                masks[a] = masks[a - 1];
            masks[a] = mask;
            nm++;
        }
        for (b = 0; b < nm; b++, i++) {
            set_text(text, name, masks[b], m);
            assert_string_equal(v[i], text);
        }
    }
    assert_int_equal(i, n);
    free(masks);
    free_all(v, n);
}

static void test_sets(void **state)
{
    (void)state;
    check_sets(SG_FAMILY_SUBTRACT, 1, 1, 1);
    check_sets(SG_FAMILY_SUBTRACT, 2, 2, 5);
    check_sets(SG_FAMILY_SUBTRACT, 1, 3, 8);
    check_sets(SG_FAMILY_SUBTRACT, 3, 3, 12);
    check_sets(SG_FAMILY_SUBTRACT, 5, 5, 5);
    check_sets(SG_FAMILY_ALLBUT, 0, 2, 6);
    check_sets(SG_FAMILY_ALLBUT, 4, 4, 10);
}

/* Big counts come from the formula without listing. */
static void test_set_counts(void **state)
{
    sg_family f = {SG_FAMILY_SUBTRACT, 3, 3, 30, 0, 0};
    uint64_t n;
    char *t;
    sg_error err;

    (void)state;
    assert_int_equal(sg_family_count(&n, &f, &err), SG_OK);
    assert_int_equal(n, pascal(30, 3));
    assert_int_equal(sg_family_rule(&t, &f, n - 1, &err), SG_OK);
    assert_string_equal(t, "subtract{28,29,30}");
    free(t);
    assert_int_equal(sg_family_rule(&t, &f, 0, &err), SG_OK);
    assert_string_equal(t, "subtract{1,2,3}");
    free(t);
    f.size_lo = 1;
    f.size_hi = 4;
    f.max_element = 60;
    assert_int_equal(sg_family_count(&n, &f, &err), SG_OK);
    assert_int_equal(n, pascal(60, 1) + pascal(60, 2) + pascal(60, 3) +
                            pascal(60, 4));
    assert_int_equal(sg_family_rule(&t, &f, n, &err), SG_E_INPUT);
    assert_null(t);
}

/* Code families against counting up in base b. */
static void check_codes(sg_family_kind kind, unsigned digits, unsigned pre)
{
    static const char hexd[] = "0123456789ABCDEF";
    sg_family f = {kind, 0, 0, 0, digits, pre};
    unsigned b = kind == SG_FAMILY_HEX ? 16 : 8, d, dig[8];
    uint64_t n, i = 0, formula = b - 1, x, total = 1;
    char **v = list_all(&f, &n), text[32];

    for (d = 1; d < digits; d++)
        formula *= b;
    assert_int_equal(n, formula);
    for (d = 0; d < digits; d++)
        total *= b;
    for (x = 0; x < total; x++) {
        uint64_t y = x;
        for (d = digits; d-- > 0;) {
            dig[d] = (unsigned)(y % b);
            y /= b;
        }
        if (dig[digits - 1] == 0)
            continue;
        sprintf(text, "%c.", hexd[pre]);
        for (d = 0; d < digits; d++)
            text[2 + d] = hexd[dig[d]];
        text[2 + digits] = '\0';
        assert_true(i < n);
        assert_string_equal(v[i], text);
        i++;
    }
    assert_int_equal(i, n);
    free_all(v, n);
}

static void test_codes(void **state)
{
    (void)state;
    check_codes(SG_FAMILY_OCTAL, 1, 0);
    check_codes(SG_FAMILY_OCTAL, 2, 0);
    check_codes(SG_FAMILY_OCTAL, 3, 0);
    check_codes(SG_FAMILY_OCTAL, 2, 4);
    check_codes(SG_FAMILY_HEX, 1, 0);
    check_codes(SG_FAMILY_HEX, 2, 0);
    check_codes(SG_FAMILY_HEX, 2, 12);
}

/* Every rule parses, and no two rules of a family share a canonical form
 * (the family lists every rule once). */
static void check_unique(const sg_family *f)
{
    uint64_t n, i, j;
    char **v = list_all(f, &n), **canon = calloc(n, sizeof *canon);
    sg_error err;

    assert_non_null(canon);
    for (i = 0; i < n; i++) {
        sg_rule r;
        sg_rule_init(&r);
        assert_int_equal(sg_rule_parse(&r, SG_SYNTAX_RULE, v[i], &err), SG_OK);
        canon[i] = sg_rule_canonical(&r);
        assert_non_null(canon[i]);
        sg_rule_clear(&r);
    }
    for (i = 0; i < n; i++)
        for (j = i + 1; j < n; j++)
            assert_string_not_equal(canon[i], canon[j]);
    free_all(canon, n);
    free_all(v, n);
}

static void test_unique(void **state)
{
    sg_family a = {SG_FAMILY_OCTAL, 0, 0, 0, 3, 0};
    sg_family b = {SG_FAMILY_OCTAL, 0, 0, 0, 2, 4};
    sg_family c = {SG_FAMILY_HEX, 0, 0, 0, 2, 0};
    sg_family d = {SG_FAMILY_SUBTRACT, 1, 3, 9, 0, 0};
    sg_family e = {SG_FAMILY_ALLBUT, 0, 3, 7, 0, 0};

    (void)state;
    check_unique(&a);
    check_unique(&b);
    check_unique(&c);
    check_unique(&d);
    check_unique(&e);
}

/* Progressions: M^2 rules subtract{a+bk}, every (a, b) once, steps
 * ascending then starts, each parsed by the rule parser. */
static void test_progressions(void **state)
{
    sg_family f = {SG_FAMILY_PROGRESSION, 0, 0, 5, 0, 0};
    sg_family bad = {SG_FAMILY_PROGRESSION, 0, 0, 0, 0, 0};
    uint64_t count, i;
    sg_error err;

    (void)state;
    assert_int_equal(sg_family_count(&count, &f, &err), SG_OK);
    assert_int_equal(count, 25);
    for (i = 0; i < count; i++) {
        char *text, want[64];
        sg_rule r;
        snprintf(want, sizeof want, "subtract{%llu+%lluk}",
                 (unsigned long long)(1 + i % 5),
                 (unsigned long long)(1 + i / 5));
        assert_int_equal(sg_family_rule(&text, &f, i, &err), SG_OK);
        assert_string_equal(text, want);
        sg_rule_init(&r);
        assert_int_equal(sg_rule_parse(&r, SG_SYNTAX_RULE, text, &err), SG_OK);
        sg_rule_clear(&r);
        free(text);
    }
    assert_int_equal(sg_family_count(&count, &bad, &err), SG_E_INPUT);
}

/* Impossible parameters are input errors, never a crash. */
static void test_bad(void **state)
{
    static const sg_family bad[] = {
        {SG_FAMILY_SUBTRACT, 3, 3, 2, 0, 0},     /* size above max-element */
        {SG_FAMILY_SUBTRACT, 0, 2, 5, 0, 0},     /* empty subtraction set */
        {SG_FAMILY_SUBTRACT, 3, 2, 5, 0, 0},     /* range backwards */
        {SG_FAMILY_ALLBUT, 1, 1, 0, 0, 0},       /* no elements */
        {SG_FAMILY_SUBTRACT, 30, 30, 100, 0, 0}, /* C(100,30) > 2^63 */
        {SG_FAMILY_OCTAL, 0, 0, 0, 0, 0},        /* no digits */
        {SG_FAMILY_OCTAL, 0, 0, 0, 21, 0},       /* too many */
        {SG_FAMILY_OCTAL, 0, 0, 0, 2, 1},        /* 1 before the point */
        {SG_FAMILY_OCTAL, 0, 0, 0, 2, 8},        /* not an octal digit */
        {SG_FAMILY_HEX, 0, 0, 0, 2, 6}, /* 6 = 4 + 2 before the point */
    };
    size_t k;
    uint64_t n;
    char *t;
    sg_error err;

    (void)state;
    for (k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        err.msg[0] = '\0';
        assert_int_equal(sg_family_count(&n, &bad[k], &err), SG_E_INPUT);
        assert_true(strlen(err.msg) > 0);
        assert_int_equal(sg_family_rule(&t, &bad[k], 0, &err), SG_E_INPUT);
        assert_null(t);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sets),  cmocka_unit_test(test_set_counts),
        cmocka_unit_test(test_codes), cmocka_unit_test(test_unique),
        cmocka_unit_test(test_bad),   cmocka_unit_test(test_progressions),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
