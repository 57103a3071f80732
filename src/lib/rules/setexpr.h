/*
 * setexpr.h - set expressions (docs/SETS.md, grammar at the top of
 * setexpr_parse.c): the move sets of subtraction and all-but games beyond finite
 * lists (progressions, named infinite sets, sets that depend on the heap,
 * unions, differences, bounds), parsed into one normalised form with one
 * canonical text, and the enumeration of G for such sets (enum_set.c).
 *
 * Internal to libsg (prefix sgi_set_): rule.c, the CLI and the prover
 * will reach it through sgexplore.h once it is wired in.  Members are the
 * integers 1 .. SGI_SET_MAX (2^63 - 1); larger members of an infinite set
 * are outside every question asked here.
 */
#ifndef SG_SETEXPR_H
#define SG_SETEXPR_H

#include <stddef.h>
#include <stdint.h>

#include "sgexplore.h"

#define SGI_SET_MAX ((uint64_t)INT64_MAX)

/* Longest text parsed (the same limit as rules). */
#define SGI_SET_MAX_TEXT ((size_t)1 << 20)

/* Items other than numbers and ranges, on each side of a difference: the
 * normalisation compares them pairwise, so their number is kept small. */
#define SGI_SET_MAX_ITEMS 16

/* The kinds of item, in their canonical order. */
typedef enum sgi_set_kind {
    SGI_SET_RANGE,      /* a..b (a number when a == b) */
    SGI_SET_PROG,       /* a, a+b, a+2b, ... */
    SGI_SET_PRIMES,     /* 2, 3, 5, 7, ... */
    SGI_SET_SQUARES,    /* 1, 4, 9, ... */
    SGI_SET_CUBES,      /* 1, 8, 27, ... */
    SGI_SET_TRIANGULAR, /* 1, 3, 6, 10, ... */
    SGI_SET_FIBONACCI,  /* 1, 2, 3, 5, 8, ... */
    SGI_SET_POWERS,     /* 1, a, a^2, ... (a >= 2) */
    SGI_SET_PROPER_DIV, /* heap n: d | n, 1 <= d < n */
    SGI_SET_AT_MOST,    /* heap n: 1 <= k <= floor(n a / b) */
    SGI_SET_AT_LEAST    /* heap n: ceil(n a / b) <= k <= n */
} sgi_set_kind;

/* One item: a base set (kind, a, b) cut to the bound [lo, hi] ([1,
 * SGI_SET_MAX] is no bound; ranges carry none, progressions keep their
 * lower bound in a). */
typedef struct sgi_set_item {
    sgi_set_kind kind;
    uint64_t a, b;
    uint64_t lo, hi;
} sgi_set_item;

/* A set: the union of `inc` minus the union of `exc` (nexc == 0: no
 * difference), both normalised and sorted (setexpr_parse.c).  Plain data:
 * init/clear pair, no sharing.  The tag is the one sg_rule's opaque
 * `set` names in sgexplore.h. */
typedef struct sg_set_expr {
    sgi_set_item *inc, *exc;
    size_t ninc, nexc;
    size_t cinc, cexc; /* capacities, for sg_grow */
} sgi_set;

/* An empty set, safe to clear or parse into; clear frees and empties it
 * again (the init/clear pair of every libsg object). */
void sgi_set_init(sgi_set *s);
void sgi_set_clear(sgi_set *s);

/* Parse a set expression into s (initialised; its old contents are
 * replaced only on success).  SG_E_INPUT with the position and one line
 * for every malformed, empty or out-of-range set; SG_E_NOMEM when out of
 * memory. */
sg_status sgi_set_parse(sgi_set *s, const char *text, sg_error *err);

/* The canonical text (malloc'ed, NULL when out of memory): the one form
 * the cache keys and the user sees; it parses back to itself. */
char *sgi_set_canonical(const sgi_set *s);

/* Whether membership depends on the heap (proper-divisors, fractions). */
int sgi_set_heap_dependent(const sgi_set *s);

/* Whether k tokens may be taken from a heap of n (n >= k is not checked
 * for heap-independent sets, whose n is ignored). */
int sgi_set_contains(const sgi_set *s, uint64_t k, uint64_t n);

/* The members in [1, m] of a heap-independent set, ascending, into the
 * growable array *out (capacity *cap, grown with sg_grow; *n members).
 * SG_E_INPUT for a heap-dependent set, SG_E_NOMEM when they do not fit. */
sg_status sgi_set_members(uint64_t **out, size_t *n, size_t *cap,
                          const sgi_set *s, uint64_t m, sg_error *err);

/* The members k <= n of any set for heap n, ascending (as above). */
sg_status sgi_set_members_at(uint64_t **out, size_t *n, size_t *cap,
                             const sgi_set *s, uint64_t heap, sg_error *err);

/* The same, unsorted and possibly with repeats when sorted == 0 (what
 * the enumeration needs, at less cost). */
sg_status sgi_set_moves_at(uint64_t **out, size_t *n, size_t *cap,
                           const sgi_set *s, uint64_t heap, int sorted,
                           sg_error *err);

/* Whether the set is finite, i.e. bounded over every heap; *max (when
 * finite) is a bound no member exceeds: the largest member unless an
 * infinite excluded item removes it (then a larger bound). */
int sgi_set_finite(const sgi_set *s, uint64_t *max);

/* Whether every k >= *from (for every heap n >= k) is a member. */
int sgi_set_cofinite(const sgi_set *s, uint64_t *from);

/* Whether membership is eventually periodic and heap-independent: then
 * member(k) == member(k + *period) for every k >= *offset.  Not claimed
 * (0) for the named infinite sets, which are not, for heap-dependent
 * sets, and when the period would pass 2^63. */
int sgi_set_periodic(const sgi_set *s, uint64_t *period, uint64_t *offset);

/* The residues of a heap-independent set modulo p (setexpr_residues.c),
 * for the set-residues theorem (docs/THEORY.md 7.8): with R the classes
 * mod p that hold a member, *maxleast = M, the largest over R of the
 * least member of the class, and *classes = |R| (may be NULL).  Returns
 * 1 when M is known exactly and at most cap; 0 when it is not (a class
 * whose least member may lie past the cap or past 2^63, a walk longer
 * than SGI_SET_RESIDUE_WORK_MAX steps, more than
 * SGI_SET_RESIDUE_SKIPS_MAX excluded members skipped, p above
 * SGI_SET_RESIDUE_PERIOD_MAX, a heap-dependent set); -1 when out of
 * memory. */
#define SGI_SET_RESIDUE_PERIOD_MAX ((uint64_t)1 << 16)
#define SGI_SET_RESIDUE_WORK_MAX ((uint64_t)1 << 22)
#define SGI_SET_RESIDUE_SKIPS_MAX ((uint64_t)1 << 12)
int sgi_set_residues(const sgi_set *s, uint64_t p, uint64_t cap,
                     uint64_t *maxleast, uint64_t *classes);

/* ------------------------------------------------------------------ */
/* Enumeration (enum_set.c)                                             */
/* ------------------------------------------------------------------ */

typedef enum sgi_set_method {
    SGI_SET_AUTO,   /* the fastest for the set (FAST, but the naive loop
                      for subtraction sets with few members) */
    SGI_SET_NAIVE,  /* the straightforward loop: mex over the moves */
    SGI_SET_FAST,   /* bitsets of heaps per value (subtraction), the
                      complement count (all-but), the moves of each heap
                      (heap-dependent subtraction sets) */
    SGI_SET_BLOCKED /* the blocked passes over the values (subtraction,
                       heap-independent sets; else as FAST) */
} sgi_set_method;

/* G(0..n-1) of "remove k tokens, k in S" (allbut = 0) or "remove k >= 1
 * tokens, k not in S" (allbut = 1) into s, replacing its contents.  opt
 * (may be NULL) gives the cancel flag and the progress hook; a cancelled
 * run returns SG_E_INTERRUPTED with a correct prefix in s. */
sg_status sgi_set_enumerate(sg_seq *s, const sgi_set *set, int allbut, size_t n,
                            sgi_set_method method, const sg_enum_options *opt,
                            sg_error *err);

/* The method `method` stands for in G(0..n-1) ("naive", "bitset",
 * "blocked", "complement", "moves", "window" or "divisors", see
 * enum_set.c), for reports and benchmarks. */
const char *sgi_set_method_name(const sgi_set *set, int allbut, size_t n,
                                sgi_set_method method);

#endif /* SG_SETEXPR_H */
