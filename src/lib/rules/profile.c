/*
 * profile.c - what a rule can do (sgi_profile, internal.h), computed once
 * from its shape when the rule is parsed (sg_rule_parse's last step) and
 * kept with it: the digits' bits, the tail, the family, a set or a general
 * code, the theorem that could prove it, the enumeration methods that
 * apply and the one that runs, its budget and memory.  Every other module
 * reads these facts instead of re-deriving them from the digits.
 *
 * Which method applies is a fact of the rule's shape, so it is decided
 * here, in the rules layer, by pure predicates over the profile (one per
 * row of rules/method_rows.h); the methods themselves (enum/) sit above
 * and only look the answer up.  Computing the profile in a higher layer
 * instead would leave the rules that the rules layer builds (sweep
 * families, set rules turned into codes) without one.
 */
#include "sgexplore.h"
#include "internal.h"
#include "rules/setexpr.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

/* Profiles computed by this process (sgi_rule_profile_computations). */
static _Atomic unsigned long computations;

/* ------------------------------------------------------------------ */
/* The family                                                           */
/* ------------------------------------------------------------------ */

static const char *family_of(const sg_rule *r)
{
    if (r->set)
        return r->set_allbut ? "all-but" : "subtract";
    if (r->tb)
        return "take-and-break";
    if (sgi_rule_is_subtract(r))
        return "subtract";
    if (sgi_rule_is_allbut(r))
        return "all-but";
    /* Octal and hexadecimal games are finite codes without `!`; Grundy's
     * game (4!.0) or 0.[7] is neither, whatever its digits. */
    if (r->tail_len || sg_rule_has_unequal(r))
        return "take-and-break";
    return (sg_rule_bits(r) & SG_BIT_THREE) ? "hex" : "octal";
}

const char *sg_rule_family(const sg_rule *r)
{
    return sgi_rule_profile(r)->family;
}

/* ------------------------------------------------------------------ */
/* The theorem                                                          */
/* ------------------------------------------------------------------ */

/* Which theorem can apply (prove/theorems.c states them), and why not when none
 * can: a function of the facts above alone, so that the policy, the
 * prover and the reports read one answer. */
static sgi_proof_kind proof_kind_of(const sgi_profile *p, const char **why)
{
    *why = NULL;
    if (p->set) {
        /* Subtraction over a heap-independent set: the set-residues
         * theorem, when the set's residues can be told (THEORY.md 7.8). */
        if (!p->set_allbut && !p->set_heap_dep)
            return SGI_PROOF_SET_RESIDUES;
        *why = "no periodicity theorem is implemented for all-but games "
               "over sets that no code can write, nor for move sets that "
               "depend on the heap (proper-divisors, at-most-half, ...): "
               "the values are observed, never proven";
        return SGI_PROOF_NONE;
    }
    if (p->tb && p->tb_sets) {
        *why = "no periodicity theorem is implemented for moves{..} "
               "rules over sets that no code can write (4@primes, "
               "...): the values are observed, never proven";
        return SGI_PROOF_NONE;
    }
    if (p->tb) {
        *why = "no periodicity theorem is implemented for codes in "
               "CGSuite's whole notation (digits past F, '?', '='): the "
               "values are observed, never proven";
        return SGI_PROOF_NONE;
    }
    if (p->unequal) {
        if (!p->has_tail && !p->three)
            return SGI_PROOF_TWO_UNEQUAL;
        *why = "no periodicity theorem is implemented for '!' (unequal "
               "heaps) rules whose moves may leave three heaps or that "
               "have a repeating tail";
        return SGI_PROOF_NONE;
    }
    if (p->has_tail) {
        if (p->tail3 && !(p->prefix_bits & (SG_BIT_TWO | SG_BIT_THREE)))
            return SGI_PROOF_TAIL3;
        if (p->tail3 && !(p->prefix_bits & SG_BIT_THREE))
            return SGI_PROOF_TAIL3_SPLIT;
        if (!(p->bits & (SG_BIT_TWO | SG_BIT_THREE)))
            return SGI_PROOF_TAIL_PERIODIC;
        *why = "no periodicity theorem is implemented for this repeating "
               "[..] tail (only codes ending in [3] whose digits before "
               "it leave at most two heaps)";
        return SGI_PROOF_NONE;
    }
    if (p->three)
        return SGI_PROOF_THREE;
    if (p->splits)
        return SGI_PROOF_TWO;
    return SGI_PROOF_WINDOW;
}

/* ------------------------------------------------------------------ */
/* The methods: a predicate and a budget per row of method_rows.h       */
/* ------------------------------------------------------------------ */

int sgi_set_window_shape(const struct sg_set_expr *set, int allbut)
{
    return !allbut && set->ninc == 1 && set->nexc == 0 &&
           (set->inc[0].kind == SGI_SET_AT_MOST ||
            set->inc[0].kind == SGI_SET_AT_LEAST);
}

int sgi_set_divisors_shape(const struct sg_set_expr *set, int allbut)
{
    return !allbut && set->ninc == 1 && set->nexc == 0 &&
           set->inc[0].kind == SGI_SET_PROPER_DIV;
}

/* A code with digits (neither a set nor a general code). */
static int code(const sgi_profile *p)
{
    return !p->set && !p->tb;
}

int sgi_applies_set(const sgi_profile *p)
{
    return p->set;
}

int sgi_applies_general(const sgi_profile *p)
{
    return p->tb;
}

/* Moves leave at most two heaps, some leave two, no repeating tail. */
int sgi_applies_sparse(const sgi_profile *p)
{
    return code(p) && !p->has_tail && p->splits && !p->three;
}

/* Finite without splits: each heap looks at one option per digit. */
int sgi_applies_direct(const sgi_profile *p)
{
    return code(p) && !p->has_tail && !p->splits && !p->three;
}

/* Finite with three-heap moves and no '!'. */
int sgi_applies_three(const sgi_profile *p)
{
    return code(p) && p->three && !p->has_tail && !p->unequal;
}

int sgi_applies_naive(const sgi_profile *p)
{
    return code(p);
}

/*
 * The budgets: how many values an analysis computes when the user does
 * not say.  They follow the cost of the method, so that a default run
 * takes seconds on an ordinary machine whatever the rule, and still
 * reaches the periods the published tables report for that kind of game.
 */

/* A rule holding a set expression (enum_set.c's methods, docs/SETS.md
 * "Measured speed"): no theorem proves such a rule, so the count only
 * bounds the time.  Subtraction over a heap-independent set (bitset or
 * naive loop: subtract-a-prime or subtract-a-square to 10^6 take a second
 * or two) and the window and divisors methods (at-most-half,
 * proper-divisors: well under a second) get a million values; the moves
 * of other heap-dependent sets cost up to h per heap (at-most-1/3,squares),
 * and the complement count of all-but games |S n [1, h]| per heap
 * (all-but primes to 10^5: under a second), hence less. */
size_t sgi_budget_set(const sgi_profile *p)
{
    if (p->set_allbut)
        return p->set_heap_dep ? 10000 : 100000;
    if (!p->set_heap_dep || p->set_window)
        return 1000000;
    return 10000;
}

/* CGSuite's whole notation: O(N^2 W) for splits into three or more heaps
 * (W words per value set), O(N^2) for pairs. */
size_t sgi_budget_general(const sgi_profile *p)
{
    return p->tb_heaps >= 3 ? 2000 : 10000;
}

/* Two-heap splits: the sparse-space method, about 10^5 to 10^7 values per
 * second depending on how many rare values the game has, so a million
 * values take seconds at worst. */
size_t sgi_budget_sparse(const sgi_profile *p)
{
    (void)p;
    return 1000000;
}

/* No splits: the direct method, O(N * digits) with one load and one store
 * per digit, cheap enough for ten million values. */
size_t sgi_budget_direct(const sgi_profile *p)
{
    (void)p;
    return 10000000;
}

/* Three-heap digits: the bitset method, O(N^2 / 64) per heap. */
size_t sgi_budget_three(const sgi_profile *p)
{
    (void)p;
    return 4000;
}

size_t sgi_budget_naive(const sgi_profile *p)
{
    /* A tail with splits: O(N^2) per heap for two-heap digits (every
     * split of every k) and worse for three: a thousand values is
     * already about 10^9 options. */
    if (p->has_tail && (p->bits & (SG_BIT_TWO | SG_BIT_THREE)))
        return 1000;
    /* Three-heap digits with `!`: O(N^2). */
    if (p->three)
        return 2000;
    /* A tail without splits: O(N) per heap. */
    if (p->has_tail)
        return 10000;
    return 10000000;
}

/* The columns of the table that describe the rule's shape. */
static const struct row {
    int (*applies)(const sgi_profile *p);
    size_t (*budget)(const sgi_profile *p);
    unsigned bytes_per_value;
    int deep;
} rows[SGI_METHOD_COUNT] = {
#define SGI_METHOD_ROW(id, name, applies, budget, bytes, deep, run, name_for)  \
    [id] = {applies, budget, bytes, deep},
#include "rules/method_rows.h"
#undef SGI_METHOD_ROW
};

/* ------------------------------------------------------------------ */
/* The profile                                                          */
/* ------------------------------------------------------------------ */

/* The facts of r's shape, read once from its digits, set or code. */
static void shape_of(sgi_profile *pr, const sg_rule *r)
{
    size_t i;

    memset(pr, 0, sizeof *pr);
    pr->max_take = sg_rule_max_take(r);
    pr->bits = sg_rule_bits(r);
    for (i = 0; i < r->nterms; i++)
        pr->prefix_bits |= r->terms[i].digit;
    for (i = 0; i < r->tail_len; i++)
        pr->tail_bits |= r->tail[i];
    pr->has_tail = r->tail_len != 0;
    pr->tail_start = pr->has_tail ? r->tail_start : 0;
    pr->tail3 = r->tail_len == 1 && r->tail[0] == 3 && !r->tail_unequal[0];
    pr->splits = (pr->bits & SG_BIT_TWO) != 0;
    pr->three = (pr->bits & SG_BIT_THREE) != 0;
    pr->unequal = sg_rule_has_unequal(r);
    pr->family = family_of(r);
    pr->tail_len = r->tail_len;
    pr->set = r->set != NULL;
    pr->set_allbut = pr->set && r->set_allbut;
    pr->set_heap_dep = pr->set && sgi_set_heap_dependent(r->set);
    pr->set_window = pr->set && (sgi_set_window_shape(r->set, r->set_allbut) ||
                                 sgi_set_divisors_shape(r->set, r->set_allbut));
    pr->tb = r->tb != NULL;
    if (pr->tb) {
        for (i = 0; i < r->tb->len; i++)
            if (r->tb->d[i].cons != SGI_TB_ANY && (r->tb->d[i].mask >> 2))
                pr->unequal = 1;
        pr->has_tail = r->tb->tail_len != 0;
        pr->tail_len = r->tb->tail_len;
        pr->tail_start = pr->has_tail ? r->tb->len - r->tb->tail_len : 0;
        pr->tb_heaps = sgi_tb_max_heaps(r->tb);
        pr->tb_sets = r->tb->nent != 0;
    }
}

/* The theorem, the methods that apply and the one that runs (the first
 * row that applies: naive applies to every code), and its budget. */
static void compute(sgi_profile *pr, const sg_rule *r)
{
    int m;

    atomic_fetch_add_explicit(&computations, 1, memory_order_relaxed);
    shape_of(pr, r);
    pr->proof = proof_kind_of(pr, &pr->why_unproven);
    pr->method = SGI_METHOD_NAIVE;
    for (m = SGI_METHOD_COUNT - 1; m >= 0; m--)
        if (rows[m].applies(pr)) {
            pr->methods |= 1u << m;
            pr->method = (sgi_method_id)m;
        }
    pr->default_max = rows[pr->method].budget(pr);
    pr->bytes_per_value = rows[pr->method].bytes_per_value;
    pr->deep = rows[pr->method].deep;
}

sg_status sgi_rule_profile_build(sg_rule *r, sg_error *err)
{
    sgi_profile *pr;

    if (r->profile)
        return SG_OK; /* a rule parsed within the parse of r */
    if (!(pr = malloc(sizeof *pr)))
        return sg_error_set(err, SG_E_NOMEM, -1, "out of memory");
    compute(pr, r);
    r->profile = pr;
    return SG_OK;
}

/* The profile of a rule that was never parsed (sg_rule_init only): no
 * digit, as the parse of an empty code would find. */
static const sgi_profile empty = {
    .family = "octal",
    .proof = SGI_PROOF_WINDOW,
    .methods = 1u << SGI_METHOD_DIRECT | 1u << SGI_METHOD_NAIVE,
    .method = SGI_METHOD_DIRECT,
    .default_max = 10000000,
    .bytes_per_value = 8,
};

const sgi_profile *sgi_rule_profile(const sg_rule *r)
{
    return r->profile ? r->profile : &empty;
}

unsigned long sgi_rule_profile_computations(void)
{
    return atomic_load_explicit(&computations, memory_order_relaxed);
}
