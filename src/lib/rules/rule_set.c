/*
 * rule_set.c - rules over set expressions (docs/SETS.md): `--subtract
 * primes`, `--all-but 4+3k`, `subtract{proper-divisors}`.  A set becomes
 * the simplest rule that plays the same game, so that every method, cache
 * key and theorem that applies to that rule applies to the set:
 *  - finite: the list rule subtract{..} (all-but{..} for --all-but);
 *  - cofinite (every k >= c a member): the all-but rule of the missing
 *    numbers (subtract{..} of the allowed ones for --all-but);
 *  - eventually periodic and heap-independent (progressions, their unions
 *    and differences with numbers): the split-free code with a tail whose
 *    digit k is 3 exactly when k may be taken (4+3k is 0.000[300]), whose
 *    canonical text, the code, is the cache key;
 *  - anything else (primes, squares, proper-divisors, at-most-half, ...):
 *    a rule holding the set (r->set), computed by enum_set.c only.
 */
#include "sgexplore.h"
#include "internal.h"
#include "setexpr.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A list of a subtraction or all-but rule names at most this many
 * positions: rule.c's limit, which its list parser checks when the
 * canonical text is read back (the fuzz build's smaller bound too). */
#define LIST_MAX SG_RULE_MAX_TERMS

/* Periodic sets become codes when the code's text fits the rule parser
 * (SG_RULE_MAX_TEXT) and its digits before the tail its bound on them
 * (SG_RULE_MAX_TERMS, smaller in the fuzz build): positions 1 .. offset +
 * period - 1. */
#define CODE_MAX                                                               \
    ((uint64_t)SG_RULE_MAX_TERMS < (uint64_t)SG_RULE_MAX_TEXT - 16             \
         ? (uint64_t)SG_RULE_MAX_TERMS                                         \
         : (uint64_t)SG_RULE_MAX_TEXT - 16)

/* An upper bound on the members of item it (heap-independent, bounded). */
static uint64_t item_count_bound(const sgi_set_item *it)
{
    uint64_t hi = it->hi, lo = it->lo, r;

    switch (it->kind) {
    case SGI_SET_RANGE:
        return it->b - it->a + 1;
    case SGI_SET_PROG:
        return hi < it->a ? 0 : (hi - it->a) / it->b + 1;
    case SGI_SET_PRIMES:
        /* pi(x) < 1.26 x / ln x for x > 1 (Rosser and Schoenfeld) */
        if (hi < 100)
            return hi;
        return (uint64_t)(1.3 * (double)hi / log((double)hi)) + 1;
    case SGI_SET_SQUARES:
    case SGI_SET_CUBES:
    case SGI_SET_TRIANGULAR:
        r = (uint64_t)sqrt(2.0 * (double)hi) + 2;
        return r < hi - lo + 1 ? r : hi - lo + 1;
    case SGI_SET_FIBONACCI:
    case SGI_SET_POWERS:
        return 128;
    case SGI_SET_PROPER_DIV:
    case SGI_SET_AT_MOST:
    case SGI_SET_AT_LEAST:
    default:
        return UINT64_MAX;
    }
}

/* The members of a finite set in [1, top], refused when there could be
 * more than LIST_MAX of them (a list rule is stored one entry each). */
static sg_status finite_members(uint64_t **v, size_t *n, const sgi_set *set,
                                uint64_t top, long base, sg_error *err)
{
    uint64_t total = 0;
    size_t i, cap = 0;

    *v = NULL;
    *n = 0;
    for (i = 0; i < set->ninc; i++) {
        uint64_t c = item_count_bound(&set->inc[i]);
        total = c > LIST_MAX || total + c > LIST_MAX ? LIST_MAX + 1 : total + c;
    }
    if (total > LIST_MAX)
        return sg_error_set(err, SG_E_INPUT, base,
                            "the finite set may have more than %llu members "
                            "(a finite set is stored member by member)",
                            (unsigned long long)LIST_MAX);
    return sgi_set_members(v, n, &cap, set, top, err);
}

/* The numbers 1..c-1 that are members (want 1) or not (want 0). */
static sg_status below(uint64_t **v, size_t *n, const sgi_set *set, uint64_t c,
                       int want, sg_error *err)
{
    uint64_t k;
    size_t cap = 0;

    *v = NULL;
    *n = 0;
    for (k = 1; k < c; k++) {
        if ((sgi_set_contains(set, k, k) != 0) != want)
            continue;
        if (sg_grow(v, &cap, *n + 1, sizeof **v))
            return sg_error_set(err, SG_E_NOMEM, -1, "out of memory");
        (*v)[(*n)++] = k;
    }
    return SG_OK;
}

/* The code whose digit k is 3 exactly when k may be taken, for k in
 * [1, off + period), the last `period` digits as the tail. */
static sg_status periodic_code(sg_rule *r, const sgi_set *set, uint64_t off,
                               uint64_t period, int allbut, sg_error *err)
{
    size_t len = (size_t)(off + period) + 8, at = 0;
    uint64_t k;
    char *code = malloc(len);
    sg_status st;

    if (!code)
        return sg_error_set(err, SG_E_NOMEM, -1, "out of memory");
    code[at++] = '0';
    code[at++] = '.';
    for (k = 1; k < off + period; k++) {
        if (k == off)
            code[at++] = '[';
        code[at++] = (sgi_set_contains(set, k, k) != 0) != allbut ? '3' : '0';
    }
    code[at++] = ']';
    code[at] = '\0';
    st = sg_rule_parse(r, SG_SYNTAX_OCTAL, code, err);
    free(code);
    return st;
}

/* Keep the set's own form in r->given: the rule it became (a list, an
 * all-but list, a code) is keyed and listed under another notation, and
 * the user would not recognise `0.0[003]` as the `--subtract 4+3k` they
 * typed.  sg_rule_parse drops it when it equals the canonical text. */
static sg_status given_form(sg_rule *r, const sgi_set *set, int allbut,
                            sg_error *err)
{
    char *inner = sgi_set_canonical(set);
    const char *head = allbut ? "all-but{" : "subtract{";
    size_t len;

    if (inner) {
        len = strlen(head) + strlen(inner) + 2;
        if ((r->given = malloc(len)))
            snprintf(r->given, len, "%s%s}", head, inner);
        free(inner);
    }
    if (!r->given)
        return sg_error_set(err, SG_E_NOMEM, -1, "out of memory");
    return SG_OK;
}

sg_status sgi_rule_parse_set(sg_rule *r, const char *text, long base,
                             int allbut, sg_error *err)
{
    sgi_set set;
    uint64_t top, c, period, off, *v = NULL;
    size_t n = 0;
    sg_status st;

    sgi_set_init(&set);
    st = sgi_set_parse(&set, text, err);
    if (st) {
        if (err && err->pos >= 0)
            err->pos += base;
        return st;
    }
    if (sgi_set_heap_dependent(&set)) {
        goto keep;
    } else if (sgi_set_finite(&set, &top)) {
        st = finite_members(&v, &n, &set, top, base, err);
        if (!st)
            st = sgi_rule_from_list(r, v, n, allbut, base, err);
    } else if (sgi_set_cofinite(&set, &c)) {
        if (c - 1 > LIST_MAX) {
            st = sg_error_set(err, SG_E_INPUT, base,
                              "the set is cofinite only from %llu on (at "
                              "most %llu)",
                              (unsigned long long)c,
                              (unsigned long long)LIST_MAX);
        } else {
            /* subtract S = all but the non-members below c; all-but S =
             * subtract the non-members below c */
            st = below(&v, &n, &set, c, 0, err);
            if (!st && allbut && n == 0)
                st = sg_error_set(err, SG_E_INPUT, base,
                                  "--all-but of every number leaves no "
                                  "move");
            if (!st)
                st = sgi_rule_from_list(r, v, n, !allbut, base, err);
        }
    } else if (sgi_set_periodic(&set, &period, &off) && off <= CODE_MAX &&
               period <= CODE_MAX - off) {
        st = periodic_code(r, &set, off, period, allbut, err);
    } else {
        goto keep;
    }
    if (!st)
        st = given_form(r, &set, allbut, err);
    free(v);
    sgi_set_clear(&set);
    return st;
keep:
    r->set = malloc(sizeof *r->set);
    if (!r->set) {
        sgi_set_clear(&set);
        return sg_error_set(err, SG_E_NOMEM, -1, "out of memory");
    }
    *r->set = set;
    r->set_allbut = allbut != 0;
    return SG_OK;
}

/* Append text to the growing buffer *b (length *n, capacity *cap). */
static int put(char **b, size_t *n, size_t *cap, const char *text)
{
    size_t len = strlen(text);

    if (sg_grow(b, cap, *n + len + 1, 1))
        return -1;
    memcpy(*b + *n, text, len + 1);
    *n += len;
    return 0;
}

sg_status sgi_rule_set_text(char **text, const sg_rule *r)
{
    char *b = NULL, *inner;
    size_t n = 0, cap = 0;

    *text = NULL;
    if (!r->set)
        return SG_OK;
    inner = sgi_set_canonical(r->set);
    if (!inner)
        return SG_E_NOMEM;
    if (put(&b, &n, &cap, r->set_allbut ? "all-but{" : "subtract{") ||
        put(&b, &n, &cap, inner) || put(&b, &n, &cap, "}")) {
        free(inner);
        free(b);
        return SG_E_NOMEM;
    }
    free(inner);
    *text = b;
    return SG_OK;
}

int sgi_rule_set_find_move(uint64_t *take, const sg_rule *r, const sg_seq *s,
                           uint64_t h, sg_value target)
{
    uint64_t *mv = NULL, k;
    size_t n = 0, cap = 0, i;
    int found = 0;

    if (!r->set || h >= s->n)
        return 0;
    if (r->set_allbut) {
        for (k = 1; k <= h && !found; k++)
            if (!sgi_set_contains(r->set, k, h) &&
                sg_seq_get(s, (size_t)(h - k)) == target) {
                *take = k;
                found = 1;
            }
        return found;
    }
    if (sgi_set_moves_at(&mv, &n, &cap, r->set, h, 1, NULL) != SG_OK) {
        free(mv);
        return 0;
    }
    for (i = 0; i < n && !found; i++)
        if (mv[i] <= h && sg_seq_get(s, (size_t)(h - mv[i])) == target) {
            *take = mv[i];
            found = 1;
        }
    free(mv);
    return found;
}
