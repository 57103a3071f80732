/*
 * reference.h - a deliberately simple, independent model of take-and-break
 * games for the unit tests.  Nothing here calls libsg: rules are described
 * densely (one digit per position), values are computed by listing every
 * move straight from the definition, and the period finder only looks at a
 * computed prefix.  The tests judge the library against this code.
 */
#ifndef SG_TEST_REFERENCE_H
#define SG_TEST_REFERENCE_H

#include <stddef.h>
#include <stdint.h>
#include <gmp.h>

/* Largest number of explicit positions and tail digits a reference rule
 * can describe. */
#define REF_MAXPOS 4096
#define REF_MAXTAIL 16

/*
 * A rule, densely: digit[k] / unequal[k] for positions k < len; when
 * tail_len > 0, position k >= tail_start has digit
 * tail[(k - tail_start) % tail_len].  Positions neither explicit nor in
 * the tail have digit 0.  Digit bits: 1 remove the whole heap (heap == k),
 * 2 leave one non-empty heap, 4 leave two, 8 leave three; `unequal` asks
 * that the heaps left by bits 4 and 8 be pairwise different.  Bits 1 and 2
 * at position 0 would be moves that remove nothing and leave the heap as
 * it is; the reference ignores them.
 */
typedef struct ref_rule {
    size_t len;
    uint8_t digit[REF_MAXPOS];
    uint8_t unequal[REF_MAXPOS];
    size_t tail_start;
    size_t tail_len;
    uint8_t tail[REF_MAXTAIL];
    uint8_t tail_unequal[REF_MAXTAIL];
} ref_rule;

/* The empty rule (no moves at all). */
void ref_rule_zero(ref_rule *r);

/* Subtraction game: remove any s in set[0..n-1] (each 1..REF_MAXPOS-1). */
void ref_rule_subtract(ref_rule *r, const uint64_t *set, size_t n);

/* All-but game: remove any positive number except those in excl[]. */
void ref_rule_allbut(ref_rule *r, const uint64_t *excl, size_t n);

/* Read a plain code such as "0.77", "4!.0", "0.8F" or "0.07[3]" (digits
 * 0-9 A-F a-f, `!` after a digit, one optional `[..]` tail at the end).
 * An independent little reader for writing test cases; returns 0 on
 * success, -1 on anything it does not understand. */
int ref_rule_from_code(ref_rule *r, const char *code);

/* Digit at position k; *unequal (when non-NULL) gets its `!` flag. */
unsigned ref_digit(const ref_rule *r, uint64_t k, int *unequal);

/* Same for a position given as a big number. */
unsigned ref_digit_mpz(const ref_rule *r, const mpz_t k, int *unequal);

/* Largest position with a non-zero digit, UINT64_MAX with a non-zero tail,
 * 0 when only position 0 (or nothing) is set. */
uint64_t ref_max_take(const ref_rule *r);

/* Union of all digits' bits, and whether any split digit carries `!`. */
unsigned ref_bits(const ref_rule *r);
int ref_has_unequal(const ref_rule *r);

/* Whether some digit (explicit or in the tail) is non-zero. */
int ref_has_moves(const ref_rule *r);

/* G(0..n-1) by brute force: every move of every heap, option values in a
 * plain array, then the mex. */
void ref_values(uint32_t *g, size_t n, const ref_rule *r);

/* G(0..n-1) of the subtraction game with set[0..m-1], straight from
 * G(h) = mex{ G(h-s) : s in set, s <= h }. */
void ref_subtract_values(uint32_t *g, size_t n, const uint64_t *set, size_t m);

/* The rule as code text for sg_rule_parse(SG_SYNTAX_RULE): "0.137",
 * "4!.0", "0.07[3]".  Needs tail_start >= 1 when there is a tail (every
 * position between the explicit digits and the tail is written out).
 * malloc'd; NULL when out of memory. */
char *ref_rule_text(const ref_rule *r);

/* The canonical text the project's conventions prescribe for this rule:
 * subtract{..} / all-but{..} (ascending, runs of three or more written
 * "a-b": subtract{1-3,7}) / normalised code (least tail, earliest tail
 * start, trailing zeros stripped, upper-case hex).  malloc'd. */
char *ref_rule_canonical(const ref_rule *r);

/* "subtract", "all-but", "octal" or "hex" by the same conventions. */
const char *ref_rule_family(const ref_rule *r);

/*
 * Observed period of a prefix g[0..n-1], for comparison only: the least p
 * (1 <= p <= n/4) for which g[m+p] == g[m] holds for every m from some
 * n0 <= n/2 up to the end of the prefix, and for that p the least such n0.
 * Returns 1 and fills *p, *n0; returns 0 when no p qualifies.  If the true
 * sequence has period p and pre-period n0 with n >= 4p and n >= 2*n0, this
 * returns exactly (p, n0).
 */
int ref_find_period(uint64_t *p, uint64_t *n0, const uint32_t *g, size_t n);

/*
 * The same for arithmetic periodicity g[m+p] == g[m] + s (s >= 0, read off
 * the end of the prefix): least p <= n/4 with a start n0 <= n/2, the least
 * such n0, and s.  With n >= 4p and n >= 2*n0 this returns the true least
 * (p, n0, s) of an arithmetic-periodic sequence.
 */
int ref_find_arith_period(uint64_t *p, uint64_t *n0, uint64_t *s,
                          const uint32_t *g, size_t n);

/*
 * Whether removing `take` tokens from a heap of `heap` and leaving the
 * heaps left[0..nleft-1] (ascending) is a legal move of r.  Checks the
 * arithmetic (take + sum == heap), that every part is non-empty, that the
 * digit at `take` has the bit for nleft heaps and its `!` condition.
 */
int ref_move_legal(const ref_rule *r, const mpz_t heap, const mpz_t take,
                   int nleft, const mpz_t *left);

#endif /* SG_TEST_REFERENCE_H */
