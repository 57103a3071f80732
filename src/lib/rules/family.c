/*
 * family.c - the rule families of `sgexplore sweep`: every subtraction set
 * or all-but set of a given size with elements up to a bound, every octal
 * or hexadecimal code with a given number of digits.  A family is a list
 * in one fixed, documented order (docs/SWEEPS.md), reached by index, so
 * that "shard K of N" is the same slice on every machine and a shard can
 * start anywhere without listing the rules before it:
 *
 *   subtract, all-but  sizes ascending; for each size, the sets (elements
 *                      ascending) in lexicographic order: {1,2} {1,3} ...
 *                      {1,M} {2,3} ... {M-1,M}
 *   octal, hex         the digit strings d1..dD (dD != 0) in lexicographic
 *                      order of digits: 0.01 0.02 ... 0.07 0.11 ... 0.77
 *
 * Index i of a combination family is unranked with binomial coefficients
 * (the count of sets that start with a given least element), so no list
 * is ever held in memory.
 */
#define _DEFAULT_SOURCE
#include "sgexplore.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Largest element a subtraction or all-but family may use: larger bounds
 * make families no machine can sweep. */
#define FAMILY_MAX_ELEMENT 1000000u
/* Most digits of a code family (8^21 > 2^63). */
#define FAMILY_MAX_DIGITS 20u

/* C(n, k), or UINT64_MAX when it does not fit in 63 bits. */
static uint64_t binom(uint64_t n, uint64_t k)
{
    uint64_t r = 1, i;

    if (k > n)
        return 0;
    if (k > n - k)
        k = n - k;
    for (i = 1; i <= k; i++) {
        /* r * (n - k + i) / i is exact at every step; guard the product. */
        uint64_t m = n - k + i;
        if (r > (UINT64_MAX >> 1) / m)
            return UINT64_MAX;
        r = r * m / i;
    }
    return r;
}

static unsigned base_of(const sg_family *f)
{
    return f->kind == SG_FAMILY_HEX ? 16 : 8;
}

/* Check the family's parameters (an impossible pair is SG_E_INPUT). */
static sg_status check(const sg_family *f, sg_error *err)
{
    switch (f->kind) {
    case SG_FAMILY_SUBTRACT:
    case SG_FAMILY_ALLBUT: {
        unsigned lo_min = f->kind == SG_FAMILY_SUBTRACT ? 1 : 0;
        if (f->max_element < 1 || f->max_element > FAMILY_MAX_ELEMENT)
            return sg_error_set(
                err, SG_E_INPUT, -1, "--max-element must be 1..%u, not %llu",
                FAMILY_MAX_ELEMENT, (unsigned long long)f->max_element);
        if (f->size_lo < lo_min || f->size_lo > f->size_hi)
            return sg_error_set(err, SG_E_INPUT, -1,
                                "--size must be at least %u (a range A-B "
                                "needs A <= B)",
                                lo_min);
        if (f->size_hi > f->max_element)
            return sg_error_set(err, SG_E_INPUT, -1,
                                "no set of %u distinct numbers has all its "
                                "elements <= %llu (--size larger than "
                                "--max-element)",
                                f->size_hi, (unsigned long long)f->max_element);
        return SG_OK;
    }
    case SG_FAMILY_PROGRESSION:
        if (f->max_element < 1 || f->max_element > FAMILY_MAX_ELEMENT)
            return sg_error_set(
                err, SG_E_INPUT, -1, "--max-element must be 1..%u, not %llu",
                FAMILY_MAX_ELEMENT, (unsigned long long)f->max_element);
        return SG_OK;
    case SG_FAMILY_OCTAL:
    case SG_FAMILY_HEX: {
        unsigned b = base_of(f);
        if (f->digits < 1 || f->digits > FAMILY_MAX_DIGITS)
            return sg_error_set(err, SG_E_INPUT, -1,
                                "--digits must be 1..%u, not %u",
                                FAMILY_MAX_DIGITS, f->digits);
        /* Before the point only "split the heap" bits make sense: bits 1
         * and 2 at position 0 would remove nothing (Flammenkamp: d0 never
         * holds 1 or 2). */
        if (f->prefix >= b || (f->prefix & 3))
            return sg_error_set(err, SG_E_INPUT, -1,
                                "the digit before the point must be %s, "
                                "not %X",
                                b == 8 ? "0 or 4" : "0, 4, 8 or C", f->prefix);
        return SG_OK;
    }
    }
    return sg_error_set(err, SG_E_INPUT, -1, "unknown family");
}

sg_status sg_family_count(uint64_t *count, const sg_family *f, sg_error *err)
{
    sg_status st;
    uint64_t total = 0;

    *count = 0;
    if ((st = check(f, err)))
        return st;
    if (f->kind == SG_FAMILY_SUBTRACT || f->kind == SG_FAMILY_ALLBUT) {
        unsigned k;
        for (k = f->size_lo; k <= f->size_hi; k++) {
            uint64_t c = binom(f->max_element, k);
            if (c == UINT64_MAX || total > (UINT64_MAX >> 1) - c)
                return sg_error_set(err, SG_E_INPUT, -1,
                                    "the family has more than 2^63 rules");
            total += c;
        }
    } else if (f->kind == SG_FAMILY_PROGRESSION) {
        total = f->max_element * f->max_element;
    } else {
        unsigned b = base_of(f), d;
        total = b - 1;
        for (d = 1; d < f->digits; d++) {
            if (total > (UINT64_MAX >> 1) / b)
                return sg_error_set(err, SG_E_INPUT, -1,
                                    "the family has more than 2^63 rules");
            total *= b;
        }
    }
    *count = total;
    return SG_OK;
}

/* Append to a growing text buffer; -1 when out of memory. */
typedef struct tbuf {
    char *s;
    size_t len, cap;
} tbuf;

static int tb_puts(tbuf *t, const char *tmp)
{
    size_t n = strlen(tmp);

    if (sg_grow(&t->s, &t->cap, t->len + n + 1, 1))
        return -1;
    memcpy(t->s + t->len, tmp, n + 1);
    t->len += n;
    return 0;
}

static int tb_u64(tbuf *t, unsigned long long v, int hex)
{
    char tmp[32];

    snprintf(tmp, sizeof tmp, hex ? "%llX" : "%llu", v);
    return tb_puts(t, tmp);
}

/* The set of rank `index` among the k-subsets of {1..m} in lexicographic
 * order, written as "subtract{a,b,...}" or "all-but{...}". */
static int unrank_set(tbuf *t, const char *name, uint64_t m, unsigned k,
                      uint64_t index)
{
    uint64_t c = 1, j;
    const char *sep = "";

    if (tb_puts(t, name))
        return -1;
    for (j = 0; j < k; j++) {
        /* Sets with next element c: C(m - c, k - j - 1). */
        for (;; c++) {
            uint64_t with = binom(m - c, k - j - 1);
            if (index < with)
                break;
            index -= with;
        }
        if (tb_puts(t, sep) || tb_u64(t, c, 0))
            return -1;
        sep = ",";
        c++;
    }
    return tb_puts(t, "}");
}

sg_status sg_family_rule(char **text, const sg_family *f, uint64_t index,
                         sg_error *err)
{
    uint64_t count;
    sg_status st;
    tbuf t = {NULL, 0, 0};
    int bad = 0;

    *text = NULL;
    if ((st = sg_family_count(&count, f, err)))
        return st;
    if (index >= count)
        return sg_error_set(
            err, SG_E_INPUT, -1, "rule %llu of a family of %llu",
            (unsigned long long)index, (unsigned long long)count);
    if (f->kind == SG_FAMILY_SUBTRACT || f->kind == SG_FAMILY_ALLBUT) {
        unsigned k = f->size_lo;
        for (;; k++) {
            uint64_t c = binom(f->max_element, k);
            if (index < c)
                break;
            index -= c;
        }
        bad = unrank_set(
            &t, f->kind == SG_FAMILY_SUBTRACT ? "subtract{" : "all-but{",
            f->max_element, k, index);
    } else if (f->kind == SG_FAMILY_PROGRESSION) {
        /* a + bk: steps ascending, then starts */
        bad = tb_puts(&t, "subtract{") ||
              tb_u64(&t, 1 + index % f->max_element, 0) || tb_puts(&t, "+") ||
              tb_u64(&t, 1 + index / f->max_element, 0) || tb_puts(&t, "k}");
    } else {
        static const char hexd[] = "0123456789ABCDEF";
        unsigned b = base_of(f), d;
        char digits[FAMILY_MAX_DIGITS + 1];

        /* The last digit runs over 1..b-1, the others over 0..b-1, the
         * first digit most significant. */
        digits[f->digits - 1] = hexd[1 + index % (b - 1)];
        index /= b - 1;
        for (d = f->digits - 1; d-- > 0;) {
            digits[d] = hexd[index % b];
            index /= b;
        }
        digits[f->digits] = '\0';
        bad = tb_u64(&t, f->prefix, 1) || tb_puts(&t, ".");
        bad = bad || tb_puts(&t, digits);
    }
    if (bad) {
        free(t.s);
        return sg_error_set(err, SG_E_NOMEM, -1, "out of memory");
    }
    *text = t.s;
    return SG_OK;
}
