/*
 * sgexplore.h - the one public header of libsg, the library behind the
 * sgexplore program: rules of impartial heap games, enumeration of their
 * Sprague-Grundy values, proofs of periodicity and big-heap queries.
 *
 * Conventions (stated once here, as FLINT and jq do):
 *  - Every fallible function returns an sg_status and, when the caller passes
 *    a non-NULL sg_error, fills it with a one-line message (and, for parse
 *    errors, the 0-based position in the input text).  The library never
 *    prints and never exits.
 *  - Objects are set up with *_init and released with *_clear; clearing an
 *    object that was zero-initialised or already cleared is harmless.
 *  - Outputs come first in argument lists, inputs are const.
 *  - Strings returned as `char *` are malloc'd and owned by the caller.
 */
#ifndef SGEXPLORE_H
#define SGEXPLORE_H

#include <stddef.h>
#include <stdint.h>
#include <signal.h>
#include <gmp.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------ */
/* Errors                                                               */
/* ------------------------------------------------------------------ */

typedef enum sg_status {
    SG_OK = 0,
    SG_E_INPUT,        /* malformed or out-of-range user input */
    SG_E_NOMEM,        /* the request does not fit in memory */
    SG_E_IO,           /* file or database failure */
    SG_E_INTERRUPTED,  /* a cancel flag was raised (Ctrl-C) */
    SG_E_UNKNOWN       /* a question with no proven answer */
} sg_status;

typedef struct sg_error {
    sg_status code;
    long pos;          /* 0-based position in the parsed text, or -1 */
    char msg[512];
} sg_error;

/* Fill *err (if non-NULL) with code, position and a printf-style message;
 * returns code so that callers can write `return sg_error_set(...)`. */
sg_status sg_error_set(sg_error *err, sg_status code, long pos,
                       const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* ------------------------------------------------------------------ */
/* Rules                                                                */
/* ------------------------------------------------------------------ */

/* Digit bits of a take-and-break code: what a move removing k tokens may
 * leave behind. */
enum {
    SG_BIT_ALL = 1,    /* may remove the whole heap (leave no heap) */
    SG_BIT_ONE = 2,    /* may leave one non-empty heap */
    SG_BIT_TWO = 4,    /* may leave two non-empty heaps */
    SG_BIT_THREE = 8   /* may leave three non-empty heaps */
};

/* One non-zero digit of a code: at position `take` (tokens removed). */
typedef struct sg_term {
    uint64_t take;
    uint8_t digit;     /* SG_BIT_* mask, 1..15 */
    uint8_t unequal;   /* `!`: heaps left by the split bits must differ */
} sg_term;

/*
 * A take-and-break rule.  Positions below tail_start are described by the
 * sparse list `terms` (ascending `take`, zero digits omitted), so that a
 * subtraction set such as {997, 1999, 2996} costs three entries.  When
 * tail_len > 0 the digits tail[0..tail_len-1] repeat forever from position
 * tail_start on (CGSuite's `[..]`).  Rules are immutable after parsing.
 */
typedef struct sg_rule {
    size_t nterms;
    sg_term *terms;
    uint64_t tail_start;
    size_t tail_len;
    uint8_t *tail;           /* digits of the repeating tail */
    uint8_t *tail_unequal;   /* `!` flags of the repeating tail */
} sg_rule;

/* How the rule was written on the command line. */
typedef enum sg_rule_syntax {
    SG_SYNTAX_SUBTRACT,  /* "2,3,5" or "1-3,7" */
    SG_SYNTAX_ALLBUT,    /* "1,3" or "" (Nim) */
    SG_SYNTAX_OCTAL,     /* take-and-break code with digits 0-7 */
    SG_SYNTAX_HEX,       /* take-and-break code with digits 0-F */
    SG_SYNTAX_RULE,      /* any code, or a canonical form, or "grundy" */
    SG_SYNTAX_GRUNDY     /* text ignored: Grundy's game, 4!.0 */
} sg_rule_syntax;

void sg_rule_init(sg_rule *r);
void sg_rule_clear(sg_rule *r);

/* Parse `text` written in `syntax` into r (which must be initialised).
 * On error r is left empty and err names the problem and its position. */
sg_status sg_rule_parse(sg_rule *r, sg_rule_syntax syntax, const char *text,
                        sg_error *err);

/* The one canonical text of a rule: `subtract{2,3,5}` for finite
 * subtraction games, `all-but{1,3}` for all-but games (Nim is `all-but{}`),
 * otherwise the normalised CGSuite code (`0.77`, `4!.0`, `0.[7]`).
 * sg_rule_parse(SG_SYNTAX_RULE) accepts every canonical text.
 * Returns NULL when out of memory. */
char *sg_rule_canonical(const sg_rule *r);

/* "subtract", "all-but", "octal" or "hex". */
const char *sg_rule_family(const sg_rule *r);

/* Digit at position k (0 when none); *unequal receives its `!` flag when
 * unequal is non-NULL. */
unsigned sg_rule_digit(const sg_rule *r, uint64_t k, int *unequal);

/* Largest number of tokens a move can remove, or UINT64_MAX with a tail. */
uint64_t sg_rule_max_take(const sg_rule *r);

/* Union of all digits' bits (SG_BIT_* mask). */
unsigned sg_rule_bits(const sg_rule *r);

/* Non-zero when some digit carries `!`. */
int sg_rule_has_unequal(const sg_rule *r);

/* ------------------------------------------------------------------ */
/* Sequences G(0..n-1)                                                  */
/* ------------------------------------------------------------------ */

typedef uint32_t sg_value;

/* G(0..n-1), stored with the fewest bytes per value that hold every value
 * so far (1, 2 or 4): widening happens automatically on append, so long
 * sequences of small values cost one byte each. */
typedef struct sg_seq {
    uint8_t *data;     /* n values of `width` bytes, native byte order */
    unsigned width;    /* 1, 2 or 4 (0 before the first allocation) */
    size_t n;          /* values computed: G(0..n-1) */
    size_t alloc;      /* capacity, in values */
    sg_value max;      /* largest value seen so far */
} sg_seq;

/* G(i) for i < s->n. */
static inline sg_value sg_seq_get(const sg_seq *s, size_t i)
{
    switch (s->width) {
    case 1:
        return s->data[i];
    case 2:
        return ((const uint16_t *)(const void *)s->data)[i];
    default:
        return ((const uint32_t *)(const void *)s->data)[i];
    }
}

/* Append G(s->n) = v, growing and widening as needed. */
sg_status sg_seq_append(sg_seq *s, sg_value v, sg_error *err);

/* Re-store s with at least `width` bytes per value. */
sg_status sg_seq_widen(sg_seq *s, unsigned width, sg_error *err);

void sg_seq_init(sg_seq *s);
void sg_seq_clear(sg_seq *s);

/* Make room for n values (does not compute them); the memory check uses
 * the current width. */
sg_status sg_seq_reserve(sg_seq *s, size_t n, sg_error *err);

/* Bytes needed to hold n values, and whether that fits this machine. */
sg_status sg_seq_check_size(size_t n, sg_error *err);

/* The enumerator's single entry point: extend s (holding G(0..s->n-1) of
 * rule r, possibly none) to G(0..n-1).  `cancel`, when non-NULL, is polled;
 * once it becomes non-zero the function stops with SG_E_INTERRUPTED and s
 * holds a correct (shorter) prefix. */
sg_status sg_enumerate(sg_seq *s, const sg_rule *r, size_t n,
                       volatile sig_atomic_t *cancel, sg_error *err);

/* Name of the method sg_enumerate uses for r ("naive", ...), for reports
 * and the cache. */
const char *sg_enumerate_method(const sg_rule *r);

/* ------------------------------------------------------------------ */
/* Periodicity proofs                                                   */
/* ------------------------------------------------------------------ */

typedef enum sg_period_status {
    SG_UNRESOLVED = 0,
    SG_PERIODIC,
    SG_ARITH_PERIODIC
} sg_period_status;

typedef struct sg_result {
    sg_period_status status;
    uint64_t preperiod;     /* n0 (least, for the least period) */
    uint64_t period;        /* p (least) */
    uint64_t saltus;        /* s (0 unless arithmetic-periodic) */
    uint64_t certified_to;  /* the last n whose value the theorem needed */
    uint64_t computed;      /* values computed: G(0..computed-1) */
    const char *theorem;    /* static text naming the theorem, or NULL */
    const char *note;       /* static text: why unresolved, or NULL */
    uint64_t checksum;      /* sg_checksum of G(0..certified_to), when proven */
} sg_result;

/* FNV-1a (64-bit) of the ASCII text "G(0),G(1),...,G(n-1)": decimal values
 * separated by single commas, no spaces.  Chosen so that a short script in
 * any language can recompute a certificate's checksum. */
uint64_t sg_checksum(const sg_seq *s, size_t n);

/* Try to prove periodicity of rule r from the values in s.  Always
 * succeeds; res->status says whether a proof was found.  A period is
 * reported only when a stated theorem (docs/THEORY.md) certifies it. */
void sg_prove(sg_result *res, const sg_rule *r, const sg_seq *s);

/* Whether any implemented theorem can ever apply to r; when not, *why is
 * set to a static explanation. */
int sg_prove_applicable(const sg_rule *r, const char **why);

/* Compute in growing rounds until proven or `max` values are computed.
 * s may hold a prefix already (it is extended, not recomputed). */
sg_status sg_analyse(sg_result *res, sg_seq *s, const sg_rule *r, size_t max,
                     volatile sig_atomic_t *cancel, sg_error *err);

/* ------------------------------------------------------------------ */
/* Queries on heaps of any size                                         */
/* ------------------------------------------------------------------ */

/* G(n) for any n: from the computed values, or reduced modulo the proven
 * period.  SG_E_UNKNOWN when n is beyond the computed range and nothing is
 * proven. */
sg_status sg_value_at(mpz_t out, const sg_result *res, const sg_seq *s,
                      const mpz_t n);

/* One move: remove `take` tokens from a heap and leave `nleft` heaps. */
typedef struct sg_move {
    mpz_t take;
    int nleft;         /* 0..3 */
    mpz_t left[3];     /* ascending */
} sg_move;

void sg_move_init(sg_move *m);
void sg_move_clear(sg_move *m);

/* Find a move from heap h to a position of nim-value `target`.  Returns
 * SG_OK and fills m, SG_E_UNKNOWN when no such move exists (or it cannot be
 * decided from what is proven). */
sg_status sg_find_move(sg_move *m, const sg_rule *r, const sg_result *res,
                       const sg_seq *s, const mpz_t h, const mpz_t target);

/* Result of analysing a multi-heap position. */
typedef struct sg_position {
    size_t nheaps;
    mpz_t *values;     /* G of each heap */
    mpz_t nim_sum;
    int first_wins;    /* nim_sum != 0 */
    long move_heap;    /* index of the heap played, -1 when none */
    sg_move move;
} sg_position;

void sg_position_init(sg_position *p);
void sg_position_clear(sg_position *p);

/* Values, nim-sum, winner and (when the first player wins) one winning
 * move.  SG_E_UNKNOWN when some heap's value is not known. */
sg_status sg_position_analyse(sg_position *out, const sg_rule *r,
                              const sg_result *res, const sg_seq *s,
                              const mpz_t *heaps, size_t nheaps);

/* ------------------------------------------------------------------ */
/* Small helpers shared by the CLI and the tests                        */
/* ------------------------------------------------------------------ */

/* Parse a non-negative decimal integer that must fit in 63 bits. */
sg_status sg_parse_u63(uint64_t *out, const char *text, size_t len,
                       long pos, sg_error *err);

/* Bytes of physical memory on this machine (0 when unknown). */
uint64_t sg_physical_memory(void);

#ifdef __cplusplus
}
#endif

#endif /* SGEXPLORE_H */
