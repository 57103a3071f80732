/*
 * sgexplore.h - the one public header of libsg, the library behind the
 * sgexplore program: rules of impartial heap games, enumeration of their
 * Sprague-Grundy values, proofs of periodicity and big-heap queries.  It
 * holds the contract: what the sg_ prefix promises to the command-line
 * front end.  What the library's modules promise only each other (and the
 * tests) is in internal.h, prefix sgi_.
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

/* Also in api/sgexplore_api.h, the installed header, with the same
 * values (api.c checks that they agree): whichever is included first
 * defines it. */
#ifndef SG_STATUS_DEFINED
#define SG_STATUS_DEFINED
typedef enum sg_status {
    SG_OK = 0,
    SG_E_INPUT,       /* malformed or out-of-range user input */
    SG_E_NOMEM,       /* the request does not fit in memory */
    SG_E_IO,          /* file or database failure */
    SG_E_INTERRUPTED, /* a cancel flag was raised (Ctrl-C) */
    SG_E_UNKNOWN      /* a question with no proven answer */
} sg_status;
#endif

typedef struct sg_error {
    sg_status code;
    long pos; /* 0-based position in the parsed text, or -1 */
    char msg[512];
} sg_error;

/* Fill *err (if non-NULL) with code, position and a printf-style message;
 * returns code so that callers can write `return sg_error_set(...)`.  The
 * message is made safe to print whatever its arguments hold (a key read
 * from someone else's cache): control characters and invalid UTF-8 become
 * escapes (sg_escape with SG_ESCAPE_KEEP_BACKSLASH, so that text the
 * caller escaped already is not escaped twice), and a message too long for
 * msg ends in "...". */
sg_status sg_error_set(sg_error *err, sg_status code, long pos, const char *fmt,
                       ...) __attribute__((format(printf, 4, 5)));

/* ------------------------------------------------------------------ */
/* Rules                                                                */
/* ------------------------------------------------------------------ */

/* Digit bits of a take-and-break code: what a move removing k tokens may
 * leave behind. */
enum {
    SG_BIT_ALL = 1,  /* may remove the whole heap (leave no heap) */
    SG_BIT_ONE = 2,  /* may leave one non-empty heap */
    SG_BIT_TWO = 4,  /* may leave two non-empty heaps */
    SG_BIT_THREE = 8 /* may leave three non-empty heaps */
};

/* The parts of a rule that the digits below cannot hold, opaque outside
 * the library: a set expression (docs/SETS.md) and a code in CGSuite's
 * whole notation (docs/THEORY.md 7.6).  A rule owns them (sg_rule_clear
 * frees them); a caller reads them only through the rule's functions. */
struct sg_set_expr;
struct sg_general_code;

/* One non-zero digit of a code: at position `take` (tokens removed). */
typedef struct sg_term {
    uint64_t take;
    uint8_t digit;   /* SG_BIT_* mask, 1..15 */
    uint8_t unequal; /* `!`: heaps left by the split bits must differ */
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
    uint8_t *tail;         /* digits of the repeating tail */
    uint8_t *tail_unequal; /* `!` flags of the repeating tail */
    /* A move set the codes cannot write (docs/SETS.md: primes, squares,
     * proper-divisors, ...): the subtraction game "take k in set"
     * (set_allbut 0) or "take k >= 1 not in set" (set_allbut 1); NULL
     * for every code.  Such a rule has no terms and no tail: only the
     * set methods compute it, every other method refuses it. */
    struct sg_set_expr *set;
    int set_allbut;
    /* A code in CGSuite's whole notation that the digits above cannot
     * hold (`0.G`, `0.C?`, `4=.0`); NULL otherwise.  Like a set, it has
     * no terms and no tail, and only its own method computes it. */
    struct sg_general_code *tb;
    /* What the rule can do (family, methods, theorem, budget), computed
     * once by sg_rule_parse and read by every module; opaque here
     * (internal.h, sgi_rule_profile). */
    struct sg_rule_profile *profile;
    /* The form the rule was given in when a set expression became another
     * rule (`subtract{4+3k}` for the code 0.0[003], `subtract{3+k}` for
     * all-but{1,2}), in the set's canonical spelling; NULL when the rule
     * was written in its canonical form's own notation.  The cache keeps
     * it beside the canonical key (sg_store_given). */
    char *given;
} sg_rule;

/* How the rule was written on the command line. */
typedef enum sg_rule_syntax {
    SG_SYNTAX_SUBTRACT, /* "2,3,5" or "1-3,7" */
    SG_SYNTAX_ALLBUT,   /* "1,3" or "" (Nim) */
    SG_SYNTAX_OCTAL,    /* take-and-break code with digits 0-7 */
    SG_SYNTAX_HEX,      /* take-and-break code with digits 0-F */
    SG_SYNTAX_RULE,     /* any code, a canonical form, or a name: kayles,
                           dawson, officers, grundy, nim */
    SG_SYNTAX_GRUNDY    /* text ignored: Grundy's game, 4!.0 */
} sg_rule_syntax;

void sg_rule_init(sg_rule *r);
void sg_rule_clear(sg_rule *r);

/* The longest rule text sg_rule_parse reads (1 MiB); a longer one is
 * SG_E_INPUT before anything is parsed. */
#define SG_RULE_MAX_TEXT ((size_t)1 << 20)

/* Parse `text` written in `syntax` into r (which must be initialised).
 * On error r is left empty and err names the problem and its position. */
sg_status sg_rule_parse(sg_rule *r, sg_rule_syntax syntax, const char *text,
                        sg_error *err);

/* The one canonical text of a rule: `subtract{2,3,5}` for finite
 * subtraction games, `all-but{1,3}` for all-but games, `nim` for Nim
 * (written `all-but{}` before version 2 of the cache's schema), otherwise
 * the normalised CGSuite code (`0.77`, `4!.0`, `0.[7]`).
 * sg_rule_parse(SG_SYNTAX_RULE) accepts every canonical text.
 * Returns NULL when out of memory. */
char *sg_rule_canonical(const sg_rule *r);

/* The rule's family (sgexplore.1 lists them): "subtract", "all-but"
 * (Nim is all-but), "octal" and "hex" for finite codes without `!` (hex
 * when some digit exceeds 7), and "take-and-break" for every other code
 * (`!` as in Grundy's game 4!.0, or a repeating tail as in 0.[7]). */
const char *sg_rule_family(const sg_rule *r);

/* The family of a given form (sg_rule.given): "subtract" or "all-but"
 * after its notation, NULL for NULL or any other text. */
const char *sg_rule_given_family(const char *given);

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
    uint8_t *data;  /* n values of `width` bytes, native byte order */
    unsigned width; /* 1, 2 or 4 (0 before the first allocation) */
    size_t n;       /* values computed: G(0..n-1) */
    size_t alloc;   /* capacity, in values */
    sg_value max;   /* largest value seen so far */
    /* 0 and 0 but in a deep run's window (sg_deep), which holds G(i) at
     * data[i] for i < keep and at data[i - off] for i >= keep + off, the
     * values between having left memory */
    size_t keep, off;
} sg_seq;

/* G(i) for i < s->n, of a sequence that holds all its values (off 0). */
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

/* Whether G(i) is held by s (always for i < s->n unless s is a deep
 * run's window), and G(i) when it is. */
static inline int sg_seq_kept(const sg_seq *s, size_t i)
{
    return i < s->n && (i < s->keep || i >= s->keep + s->off);
}
static inline sg_value sg_seq_at(const sg_seq *s, size_t i)
{
    return sg_seq_get(s, i < s->keep ? i : i - s->off);
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

/* Progress of a long enumeration: heaps done, heaps asked for, and the
 * rare values so far (0 for methods without them). */
typedef void (*sg_progress_fn)(void *ctx, size_t done, size_t target,
                               size_t rare);

/* The most threads a run uses (--threads; docs/CONTRACT.md), and the
 * most it uses by default: past about 8 the main thread's own share of
 * each heap, not the helpers, bounds the rate, and by the model of
 * docs/RECORDS.md more threads cost more than they give. */
#define SG_THREADS_MAX 64
#define SG_THREADS_DEFAULT_MAX 8

/* The default thread count: the processors this process may run on
 * (its affinity mask, which taskset, cgroups and Slurm set; else those
 * online), at least 1 and at most SG_THREADS_DEFAULT_MAX. */
unsigned sg_threads_default(void);

/* Switches of the library's own tests (opaque: defined in
 * src/lib/enum/sparse/sparse.h, not part of the contract). */
struct sg_test_switches;

/* How an enumeration runs; zero-initialise for the defaults.  NULL is
 * accepted wherever a const sg_enum_options * is taken.  Everything a run
 * depends on besides the rule comes through here (the library keeps no
 * process-wide state), so that several runs may proceed in threads of one
 * process, each with its own options. */
typedef struct sg_enum_options {
    volatile sig_atomic_t *cancel; /* polled; non-zero stops with
                                      SG_E_INTERRUPTED, s keeps a correct
                                      prefix */
    sg_progress_fn progress;       /* called every few thousand heaps */
    void *progress_ctx;
    /* threads the sparse method may use, its own included (1: no helper
     * threads); 0: sg_threads_default(); above SG_THREADS_MAX: that
     * many.  The values never depend on it, only the speed does. */
    unsigned threads;
    /* tests only, NULL otherwise: the library's own tests force the
     * paths of the sparse method through it */
    const struct sg_test_switches *test;
} sg_enum_options;

/* The enumerator's single entry point: extend s (holding G(0..s->n-1) of
 * rule r, possibly none) to G(0..n-1), with the fastest method that
 * applies to r.  Once opt->cancel becomes non-zero the function stops with
 * SG_E_INTERRUPTED and s holds a correct (shorter) prefix.  The progress
 * hook, when given, should be cheap and rate-limit itself; it is called
 * from the thread that called sg_enumerate. */
sg_status sg_enumerate(sg_seq *s, const sg_rule *r, size_t n,
                       const sg_enum_options *opt, sg_error *err);

/* Name of the method sg_enumerate uses for r ("naive", ...), for reports
 * and the cache. */
const char *sg_enumerate_method(const sg_rule *r);

/* The straightforward method (every option of every heap, O(N^2) for
 * split rules), kept as the reference the faster methods are tested and
 * benchmarked against.  Same contract as sg_enumerate. */
sg_status sg_enumerate_naive(sg_seq *s, const sg_rule *r, size_t n,
                             const sg_enum_options *opt, sg_error *err);

/* How far a parent rule's values are rule r's too (docs/THEORY.md,
 * "Values from a subgame"): every move of `parent` must be a move of r,
 * and r's other moves must leave at most one heap (digit bits 1 and 2);
 * both plain codes (no set, no repeating tail).  Then G_r(i) = G_parent(i)
 * for i < n exactly when none of those moves from a heap i < n reaches a
 * heap of value G_parent(i).  Sets *agree to the largest such n up to
 * min(pv->n, max), from the parent's values pv (G(0..pv->n-1)): the first
 * heap where the two differ, or the end of pv or max.  SG_E_INPUT, naming
 * the take, when the rules are not so related. */
sg_status sg_derive_agree(const sg_rule *r, const sg_rule *parent,
                          const sg_seq *pv, size_t max, size_t *agree,
                          sg_error *err);

/*
 * Deep runs (docs/DEEP.md): the sparse method past what memory holds.  A
 * run keeps every value until its window fills; from then on it keeps
 * G(0..window-1), the last `window` values and the rare heaps, with the
 * sparse space frozen, so memory is bounded by the window and not by N.
 * A heap whose value the kept values cannot decide (step 3 would need a
 * pair beyond them, or the value is a new rare one) stops the run there,
 * with SG_E_UNKNOWN and every value before it correct: nothing is
 * guessed.  The state is plain data, so that a checkpoint (sg_deep_save)
 * resumes in another process exactly where it was taken.
 */
#define SG_DEEP_BLOCK ((size_t)1 << 24) /* heaps per block checksum */
#define SG_DEEP_MIN_WINDOW ((size_t)1 << 14)

typedef struct sg_deep {
    sg_seq seq;    /* the values kept (sg_seq_kept) */
    size_t window; /* values kept at each end, once the window fills */
    int frozen;    /* values have left memory: the mask is fixed */
    /* the sparse space: mask, parity bit and offset (as in sg_sparse_space), R
     * (every heap >= 1 with a rare value, ascending) and the count of
     * heaps per extended value (nhist entries) */
    uint32_t mask;
    int parity, pshift;
    size_t nrare;
    size_t *rpos;
    sg_value *rval;
    size_t nhist;
    uint64_t *hist;
    size_t full_scans; /* heaps whose value needed every pair */
    /* sg_checksum of G(0..hashed-1) as a running FNV-1a state, and of
     * G(0..(i + 1) * SG_DEEP_BLOCK - 1) for i < nblocks; max_heap is the
     * first heap of value hmax among those hashed */
    uint64_t sum;
    size_t hashed, max_heap, nblocks, blocks_cap;
    uint64_t *blocks;
    sg_value hmax;                 /* the largest value hashed */
    struct sg_deep_hasher *hasher; /* hashes leaving values beside the run
                                      (deep_run.c); NULL when idle */
} sg_deep;

/* An empty run keeping `window` values (at least SG_DEEP_MIN_WINDOW). */
void sg_deep_init(sg_deep *d, size_t window);
void sg_deep_clear(sg_deep *d);

/* Whether deep runs apply to r: the sparse method's rules (some move
 * leaves two heaps, none leaves three, no repeating tail). */
int sg_deep_applicable(const sg_rule *r);

/* Extend the run to G(0..n-1) of rule r (sg_deep_applicable), under
 * the same contract as sg_enumerate otherwise (cancel, progress). */
sg_status sg_deep_extend(sg_deep *d, const sg_rule *r, size_t n,
                         const sg_enum_options *opt, sg_error *err);

/* The run's checksum (sg_checksum's definition) of all its values. */
uint64_t sg_deep_checksum(sg_deep *d);

/* The run as bytes for a checkpoint (*blob malloc'd), and back: load
 * checks every field (a damaged or foreign blob is SG_E_IO, never a
 * crash) and that it belongs to rule r. */
sg_status sg_deep_save(sg_deep *d, const sg_rule *r, void **blob, size_t *len,
                       sg_error *err);
sg_status sg_deep_load(sg_deep *d, const sg_rule *r, const void *blob,
                       size_t len, sg_error *err);

/* The sparse space of G(0..n-1), as the sparse method would pick it:
 * found = 0 when no mask makes the rare values rare enough. */
typedef struct sg_sparse_space {
    int found;
    uint32_t mask;      /* heap h of value v is rare when popcount(v &
                           mask) + parity * ((h + parity_shift) mod 2)
                           is even */
    int parity;         /* 1 when the heap's parity is part of the
                           extended value (sg_sparse_space_find_rule) */
    int parity_shift;   /* 0 or 1, see mask */
    uint64_t rare;      /* heaps h >= 1 (or as the method counts) with a
                           rare value */
    uint64_t last_rare; /* the last such heap */
} sg_sparse_space;

/* Rate the masks on G(0..n-1) (n <= s->n) as the sparse method does
 * (the non-zero mask that makes the fewest heaps h >= 1 rare), for reports
 * of fresh and cached results alike.  found is set when, among at least
 * SG_SPARSE_SPACE_MIN heaps, that mask leaves at most one in
 * SG_SPARSE_SPACE_SHARE of them rare; otherwise out holds found = 0 and
 * the counts under the best mask all the same.  SG_E_INPUT when n > s->n,
 * SG_E_NOMEM when the transform does not fit.  Masks over the values
 * alone (parity = 0). */
sg_status sg_sparse_space_find(sg_sparse_space *out, const sg_seq *s, size_t n,
                               sg_error *err);

/* The same for the values of rule r (NULL: as sg_sparse_space_find),
 * also rating the masks over the extended values G(h) << 1 | h mod 2 when
 * r's split positions all have one parity, and taking such a mask
 * (parity = 1) when it leaves strictly fewer heaps rare than the best
 * plain one. */
sg_status sg_sparse_space_find_rule(sg_sparse_space *out, const sg_seq *s,
                                    const sg_rule *r, size_t n, sg_error *err);
#define SG_SPARSE_SPACE_MIN 100
#define SG_SPARSE_SPACE_SHARE 10

/* How many values sg_analyse computes for r unless told otherwise: a
 * budget that takes seconds, not hours, with the method r gets (the
 * reasons for each budget are at the definition, src/lib/enum/policy.c). */
size_t sg_default_max(const sg_rule *r);

/* How many values a run bounded by time alone (--seconds without --max)
 * may compute for r: as many as `bytes` of memory hold with its method
 * (0: half of this machine's memory), shared by `shares` runs at once, so
 * that no count cuts the run short before its time is spent.  A rule no
 * theorem can prove keeps sg_default_max (more values cannot prove it);
 * *by_memory (may be NULL) says which of the two limits it is. */
size_t sg_time_max(const sg_rule *r, uint64_t bytes, unsigned shares,
                   int *by_memory);

/* ------------------------------------------------------------------ */
/* Periodicity proofs                                                   */
/* ------------------------------------------------------------------ */

typedef enum sg_period_status {
    SG_UNRESOLVED = 0,
    SG_PERIODIC,
    SG_ARITH_PERIODIC
} sg_period_status;

/* "periodic", "arithmetic-periodic" or "unresolved": the words of the
 * JSON output, certificates and the cache. */
const char *sg_period_status_name(sg_period_status st);

/* The reverse: 1 and *out set when `word` is one of those words, else 0
 * (cert.c; the certificate parser and the cache read statuses with it). */
int sg_period_status_parse(sg_period_status *out, const char *word);

/* Identifiers of the theorems, as written in certificates. */
#define SG_THM_WINDOW "subtraction-window"
#define SG_THM_GUY_SMITH "guy-smith"
#define SG_THM_UNEQUAL "guy-smith-unequal"
#define SG_THM_THREE_HEAP "guy-smith-3"
#define SG_THM_TAIL_ARITH "tail-arith"
#define SG_THM_TAIL_SPLIT "tail-split-arith"
#define SG_THM_TAIL_PERIODIC "tail-periodic"
#define SG_THM_HEX_ARITH "hex-arith"
#define SG_THM_SET_RESIDUES "set-residues"

/* The best period candidate seen in the computed values of an unresolved
 * rule: observed, not proven. */
typedef struct sg_observed {
    int have;           /* 0: no candidate */
    uint64_t preperiod; /* least n0 for p; the pair with the least n0 + p */
    uint64_t period;
    uint64_t saltus;
    uint64_t held_to; /* G(n+p) = G(n)+s holds for n0 <= n, n+p <= held_to */
    uint64_t needs;   /* the last n the applicable theorem would need
                            (its certified_to) to prove this candidate;
                            UINT64_MAX when no theorem applies to the rule */
} sg_observed;

/*
 * The outcome of a proof attempt.  The claim (preperiod, period, saltus) is
 * the least period and, for it, the least pre-period.  The proof fields say
 * how a theorem certified it: agreement G(n + proof_period) = G(n) +
 * proof_saltus was checked from proof_start on, using values up to
 * certified_to; checksum covers G(0..certified_to).  Together they form
 * the certificate that `sgexplore verify` re-checks.
 */
typedef struct sg_result {
    sg_period_status status;
    uint64_t preperiod;     /* n0 (least, for the least period) */
    uint64_t period;        /* p (least) */
    uint64_t saltus;        /* s (0 unless arithmetic-periodic) */
    uint64_t certified_to;  /* the last n whose value the theorem needed */
    uint64_t computed;      /* values computed: G(0..computed-1) */
    const char *theorem;    /* static text naming the theorem, or NULL */
    const char *theorem_id; /* SG_THM_* identifier, or NULL */
    const char *note;       /* static text: why unresolved, or NULL */
    uint64_t proof_start;   /* where the theorem's hypothesis starts */
    uint64_t proof_period;  /* the period the theorem was applied to */
    uint64_t proof_saltus;  /* and its saltus */
    uint64_t checksum;      /* sg_checksum of G(0..certified_to), when proven */
    sg_observed observed;   /* unresolved: the best candidate seen (see
                               prove.c); all zero when proven */
} sg_result;

/* FNV-1a (64-bit) of the ASCII text "G(0),G(1),...,G(n-1)": decimal values
 * separated by single commas, no spaces.  Chosen so that a short script in
 * any language can recompute a certificate's checksum. */
uint64_t sg_checksum(const sg_seq *s, size_t n);

/* Try to prove periodicity of rule r from the values in s; res->status
 * says whether a proof was found.  A period is reported only when a stated
 * theorem (docs/THEORY.md) certifies it.  Returns SG_OK, or SG_E_NOMEM
 * when the search ran out of memory: res is then unresolved with the note
 * "out of memory while proving", which is not an answer (a period might
 * have been proven with more memory). */
sg_status sg_prove(sg_result *res, const sg_rule *r, const sg_seq *s);

/* The theorem that could prove rule r's period, as the proof search
 * decides it from the rule's form alone (its profile): its name, or NULL
 * when no theorem of the tool applies to the form, with *why (may be
 * NULL) saying why.  Such a rule stays unresolved at any --max; one with
 * a theorem is unresolved only while the computed range is too short
 * (or its values break the theorem's hypotheses).  Texts are static. */
const char *sg_prove_theorem_for(const sg_rule *r, const char **why);

/* Re-check a claimed result (a certificate: claim, theorem, proof fields,
 * bound, checksum) against values s holding at least G(0..certified_to),
 * however they were computed.  Returns 1 when every hypothesis of the
 * theorem and every part of the claim holds (docs/CERTIFICATES.md, "The
 * check"); every sum and product on the claim's fields is checked for
 * overflow, so any 63-bit numbers are safe.  Otherwise returns 0, sets
 * *fail_n to the first n where the claim fails (UINT64_MAX when the
 * failure is not tied to one n: wrong theorem, bound too small, checksum
 * mismatch, a period that is not the least) and, when err is non-NULL,
 * err->msg to a one-line reason (code SG_E_INPUT), e.g. "the claimed
 * period 68 is a period, but not the least one (the least is 34)". */
int sg_certificate_check(const sg_rule *r, const sg_result *claim,
                         const sg_seq *s, uint64_t *fail_n, sg_error *err);

/* A certificate as text ("key: value" lines, docs/CERTIFICATES.md) for a
 * proven result of the rule with canonical text `rule`; NULL when res is
 * unresolved or out of memory. */
char *sg_certificate_format(const char *rule, const sg_result *res);

/* Parse certificate text into the rule's text (*rule, malloc'd) and the
 * claimed result (status, claim, proof fields, bound, checksum). */
sg_status sg_certificate_parse(char **rule, sg_result *res, const char *text,
                               sg_error *err);

/* Compute in growing rounds until proven or `max` values are computed.
 * s may hold a prefix already (it is extended, not recomputed).  opt is
 * handed to every round's sg_enumerate: a cancelled run returns
 * SG_E_INTERRUPTED with res describing the correct prefix in s. */
sg_status sg_analyse(sg_result *res, sg_seq *s, const sg_rule *r, size_t max,
                     const sg_enum_options *opt, sg_error *err);

/* ------------------------------------------------------------------ */
/* Queries on heaps of any size                                         */
/* ------------------------------------------------------------------ */

/* G(n) for any n: from the computed values, or reduced modulo the proven
 * period.  SG_E_UNKNOWN when n is beyond the computed range and nothing is
 * proven. */
sg_status sg_value_at(mpz_t out, const sg_result *res, const sg_seq *s,
                      const mpz_t n);

/* The most heaps a move leaves (CGSuite's `&N;` digits: up to 63). */
#define SG_MOVE_MAX_LEFT 63

/* One move: remove `take` tokens from a heap and leave `nleft` heaps. */
typedef struct sg_move {
    mpz_t take;
    int nleft;                    /* 0..SG_MOVE_MAX_LEFT */
    mpz_t left[SG_MOVE_MAX_LEFT]; /* ascending */
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
    mpz_t *values; /* G of each heap */
    mpz_t nim_sum;
    int first_wins; /* nim_sum != 0 */
    long move_heap; /* index of the heap played, -1 when none */
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

/* Length (1..4) of the valid UTF-8 character at text, of the at most n
 * bytes there, or 0 when it is not one (overlong forms, surrogates and
 * code points past U+10FFFF are invalid): so that names are checked and
 * messages quote whole characters. */
size_t sg_utf8_len(const char *text, size_t n);

/* sg_escape's flags: leave every backslash as it is (sg_error_set's own
 * pass over a whole message, whose quoted parts may be escaped already). */
#define SG_ESCAPE_KEEP_BACKSLASH 1u

/* The one escape of untrusted text (a rule key or a date read from a
 * cache that travelled, a line of a file) for a terminal or a one-line
 * message, so that no byte of it can move the cursor, recolour the
 * terminal or start a forged line.  Valid UTF-8 is kept ("misère"); \n,
 * \r and \t become those two characters; every other control character
 * (C0, DEL, and the C1 controls U+0080..U+009F, which some terminals obey
 * as ESC) and every byte outside valid UTF-8 becomes \xNN, one per byte;
 * a backslash that would read as the start of an escape (followed by \,
 * n, r, t, x or by a byte that is escaped) is doubled, so that the text
 * reads back unambiguously while set differences (`primes\2`) stay as
 * written.  Writes at most cap bytes, the NUL included, into out (nothing
 * when cap is 0); when the whole does not fit it is cut between escapes
 * or characters and ends in "...".  Returns the length of the whole
 * escaped text, as snprintf does, so that a caller can size a buffer. */
size_t sg_escape(char *out, size_t cap, const char *text, unsigned flags);

/* The one growth rule for arrays: make *p (holding *cap elements of
 * `size` bytes) hold at least `need`, doubling (from 16) so that n
 * appends cost O(n); *p and *cap are left as they were when the size
 * overflows or memory runs out.  Returns 0, or -1 on failure (the caller
 * says what could not grow). */
int sg_grow(void *p, size_t *cap, size_t need, size_t size);

/* ------------------------------------------------------------------ */
/* Rule families (sweeps)                                               */
/* ------------------------------------------------------------------ */

/* The built-in families of `sgexplore sweep` (family.c). */
typedef enum sg_family_kind {
    SG_FAMILY_SUBTRACT,   /* subtraction sets: size_lo..size_hi elements */
    SG_FAMILY_ALLBUT,     /* all-but sets: as many excluded numbers */
    SG_FAMILY_OCTAL,      /* codes P.d1..dD, digits 0-7, dD != 0 */
    SG_FAMILY_HEX,        /* codes P.d1..dD, digits 0-F, dD != 0 */
    SG_FAMILY_PROGRESSION /* subtract{a+bk}, 1 <= a, b <= max_element
                             (docs/SETS.md; proven by the periodic-tail
                             theorem) */
} sg_family_kind;

/* A family: which rules, described by the sweep's options. */
typedef struct sg_family {
    sg_family_kind kind;
    unsigned size_lo, size_hi; /* set sizes (subtract, all-but) */
    uint64_t max_element;      /* largest element of a set */
    unsigned digits;           /* D: digits after the point (codes) */
    unsigned prefix;           /* the digit before the point (codes) */
} sg_family;

/* The number of rules of family f; SG_E_INPUT when its parameters are
 * impossible (a set size above the largest element, no digits, ...) or
 * the count exceeds 2^63. */
sg_status sg_family_count(uint64_t *count, const sg_family *f, sg_error *err);

/* The text of rule number `index` (0-based) of f in the family's fixed
 * order (family.c, docs/SWEEPS.md), accepted by sg_rule_parse with
 * SG_SYNTAX_RULE: "subtract{1,3}", "all-but{}", "0.07", "4.37",
 * "subtract{4+3k}" (progressions: step b = 1 + index / M, start
 * a = 1 + index % M).  Every
 * rule of the shape appears exactly once. */
sg_status sg_family_rule(char **text, const sg_family *f, uint64_t index,
                         sg_error *err);

/* ------------------------------------------------------------------ */
/* Cache (SQLite)                                                       */
/* ------------------------------------------------------------------ */

/*
 * A cache file is an SQLite database (schema in docs/CACHE.md) holding one
 * row per rule, keyed by its canonical text, and the values needed to answer
 * questions about it: G(0..n0+p-1) for a proven rule, the whole computed
 * prefix for an unresolved one (so that it can be extended).  Values are
 * kept in chunks of at most SG_STORE_CHUNK_VALUES values, each with the
 * fewest bytes per value (1, 2 or 4, little-endian) that hold its values.
 * Every write is one transaction; the file is in WAL mode with a busy
 * timeout, so several processes may share it.  A file that is not an
 * sgexplore cache, or one of a newer schema, is refused and never written.
 */
#define SG_STORE_APPLICATION_ID 0x53474558 /* PRAGMA application_id: "SGEX" */
#define SG_STORE_SCHEMA_VERSION 4          /* PRAGMA user_version */
#define SG_STORE_CHUNK_VALUES 1048576      /* values per chunk row, at most */

/* An open cache (opaque). */
typedef struct sg_store sg_store;

/* Flags of sg_store_open. */
enum {
    SG_STORE_READONLY = 1 /* never create, never write (cache list/show) */
};

/* One cached rule, as read back.  The strings are owned by the entry;
 * res.theorem, res.theorem_id and res.note point into them. */
typedef struct sg_store_entry {
    char *rule; /* canonical text: the key */
    char *family;
    sg_result res;   /* claim, certificate and values computed */
    uint64_t stored; /* G(0..stored-1) are kept in the file */
    char *theorem;   /* owned copies behind res.theorem ... */
    char *theorem_id;
    char *note;
    char *version;    /* program version that wrote the row */
    char *algorithm;  /* sg_enumerate_method() of that program */
    double elapsed;   /* seconds of computation, summed over runs */
    char created[24]; /* "YYYY-MM-DDTHH:MM:SSZ", UTC */
    char updated[24];
    char *given; /* the first form other than `rule` the rule was analysed
                    under (sg_rule.given), or NULL (schema 4) */
} sg_store_entry;

void sg_store_entry_init(sg_store_entry *e);
void sg_store_entry_clear(sg_store_entry *e);

/* Where the cache lives by default: $SGEXPLORE_DB, else
 * $XDG_CACHE_HOME/sgexplore/cache.db, else $HOME/.cache/sgexplore/cache.db
 * (empty variables count as unset).  malloc'd; NULL when none of these
 * variables is set or out of memory. */
char *sg_store_default_path(void);

/* Open the cache at path, creating it (and its directory) when missing
 * unless SG_STORE_READONLY.  The file is checked read-only before anything
 * is written: a corrupt or foreign file, or a newer or unknown schema
 * version, is an SG_E_IO error naming the file, and the file is left
 * untouched.  A cache that exists but cannot be written, or cannot be
 * created, still opens (SG_OK): reads work where there is a file, writes
 * are refused, and sg_store_readonly says why. */
sg_status sg_store_open(sg_store **out, const char *path, unsigned flags,
                        sg_error *err);

/* Close the cache (NULL is harmless). */
void sg_store_close(sg_store *db);

/* The path the cache was opened with. */
const char *sg_store_path(const sg_store *db);

/* Non-zero when nothing can be written to the cache; *why (when non-NULL)
 * receives a one-line reason that names the file or directory. */
int sg_store_readonly(const sg_store *db, const char **why);

/* Look `rule` (canonical text) up.  *found says whether it is cached; when
 * it is, e is filled and, when s is non-NULL, s is replaced by the values:
 * the stored prefix of an unresolved rule, or for a proven rule
 * G(0..computed-1) rebuilt from G(0..n0+p-1) through the period, after
 * checking the certificate's checksum.  A damaged row is an SG_E_IO
 * error. */
sg_status sg_store_get(sg_store *db, const char *rule, sg_store_entry *e,
                       sg_seq *s, int *found, sg_error *err);

/* Store what is known about rule `rule` (canonical text) in one
 * transaction: res, the values it needs from s (see above; s->n counts as
 * the values computed), the program version, `algorithm` and `elapsed`
 * seconds.  An existing row is kept when it knows at least as much (proven,
 * or unresolved over at least as many values); otherwise it is replaced
 * and keeps its creation time.  On any failure, disk full included, the
 * file keeps its previous contents. */
sg_status sg_store_put(sg_store *db, const char *rule, const char *family,
                       const sg_result *res, const sg_seq *s,
                       const char *algorithm, double elapsed, sg_error *err);

/* Record `given` (sg_rule.given) as the form `rule` (canonical text)
 * was given in, when its row exists and has none yet: the first form
 * stays, so that a row names the notation it was first asked in.  NULL
 * given, or no row, does nothing. */
sg_status sg_store_given(sg_store *db, const char *rule, const char *given,
                         sg_error *err);

/* A batch: every write between sg_store_batch_begin and
 * sg_store_batch_end (sg_store_put, sg_store_drop, the checkpoints) joins
 * one transaction, so that all of them reach the file or none does (a
 * full disk, a kill or a failed write at any point leaves the file's rows
 * as they were).  The batch holds the cache's write lock from begin to
 * end; other writers wait for it up to the busy timeout.  A write of the
 * batch that fails rolls the whole batch back: later writes are refused
 * until sg_store_batch_end, which then reports the failure when asked to
 * commit.  sg_store_batch_end commits when `commit` is non-zero, else
 * rolls back. */
sg_status sg_store_batch_begin(sg_store *db, sg_error *err);
sg_status sg_store_batch_end(sg_store *db, int commit, sg_error *err);

/* Called by sg_store_list for each entry (values not loaded); a non-zero
 * return stops the listing. */
typedef int (*sg_store_visit)(const sg_store_entry *e, void *arg);

/* Visit the cached rules, ordered by family then rule, keeping those whose
 * status text ("periodic", "arithmetic-periodic", "unresolved") equals
 * `status` and whose family, or the family of whose given form
 * (sg_rule_given_family), equals `family` (NULL: any). */
sg_status sg_store_list(sg_store *db, const char *status, const char *family,
                        sg_store_visit fn, void *arg, sg_error *err);

/* Remove `rule` and its values; *found says whether it was there. */
sg_status sg_store_drop(sg_store *db, const char *rule, int *found,
                        sg_error *err);

/* A deep run's checkpoint for `rule`: `heaps` values computed, the
 * state as an opaque blob.  Replaces the rule's previous checkpoint in
 * one transaction, so a run killed while saving leaves the old one. */
sg_status sg_store_checkpoint_put(sg_store *st, const char *rule,
                                  uint64_t heaps, const void *blob, size_t len,
                                  sg_error *err);

/* The rule's checkpoint: *blob (malloc'd, caller frees) and *len, *heaps.
 * SG_E_UNKNOWN when the rule has none; SG_E_IO (message naming the file)
 * when the stored blob's hash does not match (corrupt) - the row is then
 * left as it is. */
sg_status sg_store_checkpoint_get(sg_store *st, const char *rule,
                                  uint64_t *heaps, void **blob, size_t *len,
                                  sg_error *err);

/* Every checkpoint, in the order of the rule texts: visit(rule, heaps,
 * stored (UTC, ISO 8601), arg) for each; a non-zero return stops the
 * walk.  A file without the table has none. */
sg_status sg_store_checkpoint_list(sg_store *st,
                                   int (*visit)(const char *rule,
                                                uint64_t heaps,
                                                const char *stored, void *arg),
                                   void *arg, sg_error *err);

/* Remove the rule's checkpoint; *found says whether there was one. */
sg_status sg_store_checkpoint_drop(sg_store *st, const char *rule, int *found,
                                   sg_error *err);

/* The rule's checkpoint written to the file `path` (a new file renamed
 * into place), with a header naming the rule, *heaps and the state's
 * hash, so that a run can be carried to another machine
 * (docs/DEEP.md, "Checkpoint files").  SG_E_UNKNOWN when the rule has
 * none. */
sg_status sg_store_checkpoint_export(sg_store *st, const char *rule,
                                     const char *path, uint64_t *heaps,
                                     sg_error *err);

/* Store the checkpoint of the file `path` (sg_store_checkpoint_export's)
 * after checking its hash and that its state loads as a deep run of its
 * rule at its heap count: *rule (malloc'd) and *heaps are the file's,
 * *had the heaps of the cache's own checkpoint of that rule (0: none).
 * A cache whose checkpoint is as far or further keeps it (*stored = 0).
 * A damaged file is SG_E_IO and stores nothing. */
sg_status sg_store_checkpoint_import(sg_store *st, const char *path,
                                     char **rule, uint64_t *heaps,
                                     uint64_t *had, int *stored, sg_error *err);

/* ------------------------------------------------------------------ */
/* The cached analysis (src/lib/api/flow.c)                             */
/* ------------------------------------------------------------------ */

/*
 * The steps of one analysis through the cache that the program's flow
 * (src/cli/flow.c) and the installed API's games (src/lib/api/) share,
 * so that both look a rule up, say where its result came from, decide
 * whether there is news to store and store it the same way: look up,
 * analyse or extend (the caller's: budgets and messages differ), settle
 * a run its budget stopped, store.
 */
typedef struct sg_flow_row {
    sg_store_entry entry; /* the row read; a proven result read from it
                             points into its texts */
    int found;            /* the rule was cached */
    size_t loaded;        /* values read from the row */
    sg_period_status loaded_status;
} sg_flow_row;

void sg_flow_row_init(sg_flow_row *row);
void sg_flow_row_clear(sg_flow_row *row);

/* Look `key` (canonical text) up in db.  When the rule is cached, row
 * records the row, s is replaced by its values when the row is proven or
 * holds more values than s, and a proven row's result goes into *res
 * (res->computed = s->n) with *proven set to 1.  When it is not, row,
 * res and s are left as they were, but row->found is 0.  A damaged row
 * is an SG_E_IO error. */
sg_status sg_flow_lookup(sg_flow_row *row, sg_result *res, sg_seq *s,
                         int *proven, sg_store *db, const char *key,
                         sg_error *err);

/* Where a result holding the values s came from: "computed" (not
 * cached), "cache" (no value more than the row's) or "extended". */
const char *sg_flow_source(const sg_flow_row *row, const sg_seq *s);

/* Whether res and s know more than the row read: worth storing. */
int sg_flow_news(const sg_flow_row *row, const sg_result *res, const sg_seq *s);

/* Store res and s as `key`'s row (sg_store_put), the seconds of this
 * run added to those of the row read.  A cache that cannot be written
 * is SG_E_IO with sg_store_readonly's reason.  row is not changed. */
sg_status sg_flow_store(const sg_flow_row *row, sg_store *db, const char *key,
                        const char *family, const sg_result *res,
                        const sg_seq *s, const char *algorithm, double elapsed,
                        sg_error *err);

/* Record the rule's given form (sg_rule.given) in its row when the row
 * has none yet (sg_store_given); nothing when given is NULL, the row
 * read already had one, or the cache cannot be written (a form is no
 * result: losing it is no reason to fail). */
void sg_flow_given(const sg_flow_row *row, sg_store *db, const char *key,
                   const char *given);

/* A run that its budget stopped (seconds, or memory for a run bounded by
 * time alone) ends as a result, not an error: the values computed are a
 * correct prefix, proven as far as they go (r NULL: values no rule
 * describes, observed only).  SG_E_NOMEM when the proof runs out of
 * memory. */
sg_status sg_flow_settle(sg_result *res, const sg_rule *r, const sg_seq *s,
                         sg_error *err);

/* ------------------------------------------------------------------ */
/* Plots                                                                */
/* ------------------------------------------------------------------ */

/*
 * Figures are drawn by gnuplot, run as a separate program found at run
 * time ($SGEXPLORE_GNUPLOT, else `gnuplot` on the PATH).  A script is one
 * of the templates of plots/ (built in; a user's edited copy may replace
 * it) preceded by the variables it reads.  gnuplot draws into a temporary
 * directory ($TMPDIR, else /tmp), which is removed afterwards; the image
 * is copied to its destination only when gnuplot succeeded.  gnuplot's
 * stdout goes to /dev/null and its error text comes back in sg_error.
 */

/* Image types, chosen by the output file's extension. */
typedef enum sg_plot_format {
    SG_PLOT_UNKNOWN = 0,
    SG_PLOT_PNG, /* .png: gnuplot's pngcairo terminal */
    SG_PLOT_SVG, /* .svg: svg terminal */
    SG_PLOT_PDF  /* .pdf: pdfcairo terminal */
} sg_plot_format;

/* The type of an output file from its extension (any letter case), or
 * SG_PLOT_UNKNOWN. */
sg_plot_format sg_plot_format_of(const char *path);

/* Default cap on the rows of data handed to gnuplot: longer ranges are
 * thinned to buckets. */
#define SG_PLOT_MAX_ROWS 4000

/* How to draw; zero-initialise for the defaults. */
typedef struct sg_plot_options {
    const char *gnuplot;       /* NULL: $SGEXPLORE_GNUPLOT, else "gnuplot" */
    const char *template_file; /* an edited copy of the template, or NULL */
    const char *tmpdir;        /* NULL: $TMPDIR, else /tmp */
    size_t max_rows;           /* 0: SG_PLOT_MAX_ROWS */
} sg_plot_options;

/* Draw G(from..to) of rule r into the image `path` (plots/sequence.gp):
 * the values as points, the pre-period shaded, the period boundaries, the
 * rare values, the result in the title.  A path without a known extension
 * is SG_E_INPUT; an unwritable path (checked before gnuplot runs), a
 * missing gnuplot and gnuplot's own failures are SG_E_IO. */
sg_status sg_plot_sequence(const char *path, const sg_rule *r,
                           const sg_result *res, const sg_seq *s, uint64_t from,
                           uint64_t to, const sg_plot_options *opt,
                           sg_error *err);

/* The figure of an arithmetic-periodic rule detrended: G(n) - s
 * floor(n/p) for n = from..to, which is periodic after the pre-period
 * (so the period's pattern shows where G(n) only climbs), drawn as
 * sg_plot_sequence draws G(n), without rare values, shifted up (and the
 * axis named so) when it is negative in the pre-period.  res must be
 * proven arithmetic-periodic with G(0..n0+p-1) in s, else SG_E_INPUT;
 * other errors as for sg_plot_sequence. */
sg_status sg_plot_detrended(const char *path, const sg_rule *r,
                            const sg_result *res, const sg_seq *s,
                            uint64_t from, uint64_t to,
                            const sg_plot_options *opt, sg_error *err);

/* One rule's result, for the figure of many rules (cache, sweep). */
typedef struct sg_plot_result {
    const char *rule; /* canonical text */
    sg_period_status status;
    uint64_t preperiod; /* ignored when unresolved */
    uint64_t period;
} sg_plot_result;

/* Draw the figure of any list of results into `path` (plots/results.gp):
 * pre-period against period on log scales, and how often each period
 * occurs.  `title` says what the rules are ("cached rules"); the counts
 * per status are added.  Errors as for sg_plot_sequence. */
sg_status sg_plot_results(const char *path, const char *title,
                          const sg_plot_result *items, size_t n,
                          const sg_plot_options *opt, sg_error *err);

/* ------------------------------------------------------------------ */
/* Game graphs                                                          */
/* ------------------------------------------------------------------ */

/*
 * An explicit finite game: vertices are positions, edges are moves
 * (src/lib/graph/graph.c; the text format is in docs/GRAPHS.md).  One line per
 * vertex: its name, then the names of the vertices it moves to; `#` starts
 * a comment; blank lines are skipped.  A target written `L:name` is a move
 * for Left only, `R:name` for Right only, a bare name a move for both
 * (partizan games).  A name is any valid UTF-8 text without white space,
 * control characters, `,`, `:` or `#`; every target must be declared by a
 * line of its own, before or after.  Vertices are numbered in the order
 * of their lines; the moves of vertex v are to[first[v] .. first[v+1]-1]
 * in the order written (a CSR layout: memory linear in the graph, names
 * in one arena with a hash table over them).
 */

#include <stdio.h>

typedef uint32_t sg_vertex;

/* Longest line accepted, in bytes (without its newline). */
#define SG_GRAPH_MAX_LINE 1048576
/* Most vertices a graph may have (two bits of an edge mark its side
 * while parsing). */
#define SG_GRAPH_MAX_VERTICES ((size_t)1 << 30)

/* Who may play an edge: a mask, both players when unmarked. */
enum { SG_SIDE_LEFT = 1, SG_SIDE_RIGHT = 2, SG_SIDE_BOTH = 3 };

/* The generalized Sprague-Grundy value infinity (loopy games). */
#define SG_VALUE_INFINITE ((sg_value)UINT32_MAX)

typedef struct sg_graph {
    size_t nvertices;
    size_t nedges;
    size_t *first;   /* nvertices + 1 offsets into to[] */
    sg_vertex *to;   /* nedges targets */
    uint8_t *side;   /* nedges SG_SIDE_* marks; NULL when none is marked */
    char *names;     /* the names, NUL-terminated (graph.c: arena layout) */
    size_t *name_at; /* nvertices offsets into names */
    uint64_t *table; /* hash table over the names (open addressing) */
    size_t table_mask;
    size_t maxdeg; /* largest number of moves from one vertex */
} sg_graph;

void sg_graph_init(sg_graph *g);
void sg_graph_clear(sg_graph *g);

/* Parse the text format from a buffer of len bytes (NUL bytes are
 * errors).  g must be initialised; on error it is left empty and err's
 * message starts with "line N: " (pos is -1).  Errors: an unknown vertex
 * name (reported at its first use), a duplicate vertex, an empty graph, a
 * line over SG_GRAPH_MAX_LINE bytes, a name that is not valid UTF-8 or
 * holds a forbidden character, more than SG_GRAPH_MAX_VERTICES vertices
 * (all SG_E_INPUT); SG_E_NOMEM when it does not fit in memory. */
sg_status sg_graph_parse(sg_graph *g, const char *text, size_t len,
                         sg_error *err);

/* The same, reading f to its end (SG_E_IO on a read error).  Memory stays
 * linear in the graph: the input is read in pieces, never held whole. */
sg_status sg_graph_read(sg_graph *g, FILE *f, sg_error *err);

/* The name of vertex v. */
static inline const char *sg_graph_name(const sg_graph *g, sg_vertex v)
{
    return g->names + g->name_at[v];
}

/* Look a vertex up by name (len bytes, no NUL needed): 1 and *v when
 * found, else 0. */
int sg_graph_find(sg_vertex *v, const sg_graph *g, const char *name,
                  size_t len);

/* Whether some edge is marked for one player only. */
int sg_graph_is_partizan(const sg_graph *g);

/* One cycle of g, if any: *cycle (malloc'd, caller frees) receives its *n
 * vertices in move order (the last moves to the first); *n = 0 and *cycle
 * = NULL when g is acyclic.  Iterative: any depth is safe. */
sg_status sg_graph_find_cycle(sg_vertex **cycle, size_t *n, const sg_graph *g,
                              sg_error *err);

/* The Sprague-Grundy value of every vertex of an acyclic impartial graph
 * into values[0..nvertices-1], in O(V + E) time without recursion.  A
 * cycle is SG_E_INPUT naming its vertices; a partizan graph is
 * SG_E_INPUT.  `cancel` as for sg_enumerate. */
sg_status sg_graph_grundy(sg_value *values, const sg_graph *g,
                          volatile sig_atomic_t *cancel, sg_error *err);

/* The generalized Sprague-Grundy function of Smith (docs/THEORY.md) of an
 * impartial graph, cycles allowed: a finite value, or SG_VALUE_INFINITE
 * (whose finite follower values sg_graph_finite_followers lists).
 * Computed by the Fraenkel-Yesha labelling, one retrograde pass per
 * finite value.  Same conventions as sg_graph_grundy. */
sg_status sg_graph_loopy(sg_value *values, const sg_graph *g,
                         volatile sig_atomic_t *cancel, sg_error *err);

/* The distinct finite values among the followers of v, ascending, into
 * out[0..cap-1]; returns how many there are (at most g->maxdeg), which may
 * exceed cap.  With cap at least v's number of moves (g->maxdeg always
 * is) nothing is allocated; otherwise SIZE_MAX when out of memory. */
size_t sg_graph_finite_followers(sg_value *out, size_t cap, const sg_graph *g,
                                 const sg_value *values, sg_vertex v);

/* Outcome of one vertex as a game on its own (partizan or impartial):
 * who wins when Left moves first (bits 0-1) and when Right moves first
 * (bits 2-3), each SG_WIN_LEFT, SG_WIN_RIGHT or SG_WIN_NONE (a draw:
 * play goes on forever; only in loopy graphs). */
enum { SG_WIN_NONE = 0, SG_WIN_LEFT = 1, SG_WIN_RIGHT = 2 };
#define SG_OUTCOME(left_first, right_first)                                    \
    ((uint8_t)((left_first) | ((right_first) << 2)))

/* The outcome of every vertex by retrograde analysis, into
 * outcome[0..nvertices-1].  Without `loopy` a cycle is SG_E_INPUT naming
 * it; with it, positions where neither player can force a win are draws.
 * This is the outcome of that single game: sums of partizan games do not
 * reduce to nim-sums. */
sg_status sg_graph_outcome(uint8_t *outcome, const sg_graph *g, int loopy,
                           volatile sig_atomic_t *cancel, sg_error *err);

/* The name of an outcome: "N" (whoever moves first wins), "P" (whoever
 * moves second), "L", "R" (that player wins either way), "D" (a draw
 * either way), else two letters: the winner when Left moves first, then
 * when Right does, D for a draw ("LD": Left wins moving first, a draw
 * when Right starts). */
const char *sg_outcome_name(uint8_t outcome);

/* Who wins a sum of tokens. */
enum { SG_WINNER_FIRST = 1, SG_WINNER_SECOND = 2, SG_WINNER_DRAW = 3 };

/* A sum of tokens on vertices of an impartial graph, analysed with the
 * values of sg_graph_grundy or sg_graph_loopy. */
typedef struct sg_graph_position {
    sg_value nim_sum;    /* of the tokens with finite values */
    size_t ninfinite;    /* tokens with an infinite value */
    long infinite_token; /* index of the first of them, or -1 */
    int winner;          /* SG_WINNER_* */
    long move_token;     /* index of the token a winning move moves, or -1 */
    sg_vertex move_to;   /* where it moves it */
} sg_graph_position;

/* The sum's value is the nim-sum when every token is finite; with one
 * infinite token of followers K it is infinite with followers K xor
 * nim_sum (the first player wins when 0 is among them); with more it is
 * infinite with no finite follower, a draw (Smith).  A winning move is
 * found whenever the first player wins. */
sg_status sg_graph_position_analyse(sg_graph_position *out, const sg_graph *g,
                                    const sg_value *values,
                                    const sg_vertex *tokens, size_t ntokens,
                                    sg_error *err);

/* ------------------------------------------------------------------ */
/* Misère play (docs/MISERE.md)                                         */
/* ------------------------------------------------------------------ */

/* The most exponents a genus keeps: gamma[k] for k >= len is
 * gamma[len - 2 + (k - len) % 2] (the last two alternate forever). */
#define SG_GENUS_MAX 64

/* Conway's genus g^{gamma0 gamma1 ...} of a game G: g its normal value,
 * gamma_k the misère Grundy value of G + k copies of the nim-heap *2. */
typedef struct sg_genus {
    sg_value g;
    unsigned len; /* 2..SG_GENUS_MAX */
    sg_value gamma[SG_GENUS_MAX];
} sg_genus;

/* The genus at its shortest: g^{...} cut once the exponents alternate
 * (0^120, 1^031, 2^20), exponents past 9 written {10,8}.  buf should hold
 * 16 + 11 * SG_GENUS_MAX bytes; returns buf. */
char *sg_genus_format(char *buf, size_t size, const sg_genus *x);

/* Whether a genus is one of Conway's tame genera 0^120, 1^031 (fickle)
 * or g^{g, g^2} (firm; 0^02, 1^13, 2^20, ...). */
int sg_genus_is_tame(const sg_genus *x);

/* Misère values of the single heaps 0..n-1 of a rule. */
typedef struct sg_misere {
    size_t n;         /* heaps 0..n-1 */
    sg_seq normal;    /* G(0..n-1) */
    sg_value *value;  /* G-(h) = gamma0 */
    sg_genus *genus;  /* per heap */
    size_t tame_to;   /* heaps 0..tame_to-1 are tame; n when all are */
    size_t positions; /* sums the exact computation visited */
} sg_misere;

void sg_misere_init(sg_misere *m);
void sg_misere_clear(sg_misere *m);

/* Genus of every heap below n, computed exactly over the sums of heaps
 * their moves reach (memoised on multisets, at most `budget` bytes):
 * the misère answers of `sgexplore RULE --misere`.  SG_E_UNKNOWN when the
 * budget runs out, SG_E_INTERRUPTED once *cancel is non-zero (cancel may
 * be NULL; polled at every new position): m then holds the heaps
 * finished, m->n fewer than n. */
sg_status sg_misere_analyse(sg_misere *m, const sg_rule *r, size_t n,
                            size_t budget, volatile sig_atomic_t *cancel,
                            sg_error *err);

/* Draw the misère figure of the heaps of m (sg_misere_analyse or the
 * cache) into `path` (plots/misere.gp): G(n) and G-(n) of heaps
 * 0..m->n-1 as two series of points, the heaps from m->tame_to on shaded
 * and those whose own genus is not tame ringed, the rule (r: its
 * canonical text) and "misère play" in the title.  No heaps (m->n = 0)
 * is SG_E_INPUT; other errors as for sg_plot_sequence.  opt->max_rows is
 * not used: every heap is drawn.  (With the other figures, section
 * Plots.) */
sg_status sg_plot_misere(const char *path, const sg_rule *r, const sg_misere *m,
                         const sg_plot_options *opt, sg_error *err);

/* How a misère position was decided. */
typedef enum sg_misere_method {
    SG_MISERE_TAME,     /* every heap tame: the tame (misère Nim) rule */
    SG_MISERE_QUOTIENT, /* the misère quotient of the heaps (sg_mquot) */
    SG_MISERE_SEARCH    /* an exact search over the sum's positions */
} sg_misere_method;

/* A misère position's answer. */
typedef struct sg_misere_position {
    int first_wins;
    sg_misere_method method;
    long move_heap; /* index of the heap played, -1 when none */
    size_t take;    /* tokens removed */
    int nparts;     /* heaps left in its place */
    size_t part[3];
} sg_misere_position;

/* Who wins the misère sum of heaps[0..nheaps-1] and one winning move:
 * by the tame rule when every heap is below m->tame_to, else by an exact
 * search of at most `budget` bytes (SG_E_UNKNOWN when it runs out;
 * SG_E_INTERRUPTED once *cancel, which may be NULL, is non-zero). */
sg_status sg_misere_position_analyse(sg_misere_position *out, const sg_rule *r,
                                     const sg_misere *m, const size_t *heaps,
                                     size_t nheaps, size_t budget,
                                     volatile sig_atomic_t *cancel,
                                     sg_error *err);

/* Name of a method: "tame" or "search" (JSON position.method). */
const char *sg_misere_method_name(sg_misere_method method);

/* The misère quotient (Plambeck; Plambeck and Siegel) of every sum of
 * heaps 1..heaps of a rule: the commutative monoid of those sums modulo
 * misère indistinguishability among them (docs/MISERE.md, "Misère
 * quotients").  Element 0 is the identity (the empty sum). */
typedef struct sg_mquot {
    size_t heaps;      /* heaps 1..heaps (0: the trivial quotient) */
    size_t order;      /* elements 0..order-1 */
    size_t *orders;    /* orders[k]: the order of the quotient of 1..k */
    uint32_t *trans;   /* trans[u * heaps + h - 1]: u times heap h */
    unsigned char *p;  /* p[u]: u is in the P-portion */
    uint32_t *heap;    /* heap[h]: the element of heap h, h = 0..heaps */
    uint32_t *mul;     /* mul[u * order + v]: the product u v */
    size_t ngens;      /* generators, named a, b, c, ... */
    size_t *gen_heap;  /* gen_heap[j]: the heap generator j stands for */
    uint32_t *nf;      /* nf[u * ngens + j]: exponent of generator j in
                          the normal form (least word) of u */
    size_t nrel;       /* relations word = normal form, with */
    uint32_t *rel;     /* rel[i * ngens + j]: the word's exponents */
    uint32_t *rel_rhs; /* rel_rhs[i]: the element it equals */
    size_t stopped_at; /* the heap whose quotient was not finished, or 0 */
    size_t suffixes;   /* test sums the construction used */
    size_t states;     /* states the proofs visited, over all heaps */
    size_t positions;  /* sums the exact search stored */
    size_t fast_heaps; /* heaps whose quotient the fast oracle learned */
    /* the test sums (suffixes of them): sum t is the sorted heaps
     * tests[test_at[t]..test_at[t+1]-1]; sum 0 is the empty one.  What
     * a later computation resumes from, with trans, p and orders. */
    uint32_t *tests;
    size_t *test_at;
    size_t resumed_from; /* the stored quotient's heaps it resumed from */
} sg_mquot;

void sg_mquot_init(sg_mquot *q);
void sg_mquot_clear(sg_mquot *q);

/* The quotients of heaps 1..k for k = 1..n, each learned from outcomes
 * (docs/MISERE.md, "How the candidates are found") and proven by the
 * finite check of docs/MISERE.md, until
 * k = n or a quotient would have more than max_order elements or the
 * search or the check more than `budget` bytes: then SG_E_UNKNOWN, err
 * says which, and q holds the last proven quotient (q->stopped_at the
 * heap that was not finished).  A non-zero *cancel (cancel may be NULL)
 * stops it with SG_E_INTERRUPTED, q holding the last proven quotient as
 * well. */
sg_status sg_misere_quotient(sg_mquot *q, const sg_rule *r, size_t n,
                             size_t max_order, size_t budget,
                             volatile sig_atomic_t *cancel, sg_error *err);

/* As sg_misere_quotient, resumed from `from`, a proven quotient of heaps
 * 1..from->heaps (from->heaps <= n) of the same rule that an earlier run
 * of it returned (its heaps, order, trans, p, orders, test sums and
 * counts, e.g. read back from the cache): heaps past from->heaps are
 * learned and proven as they would have been, starting from its
 * quotient and its test sums; the counts (states, positions,
 * fast_heaps) go on from its.  from NULL: sg_misere_quotient; from is
 * not q. */
sg_status sg_misere_quotient_from(sg_mquot *q, const sg_rule *r, size_t n,
                                  size_t max_order, size_t budget,
                                  const sg_mquot *from,
                                  volatile sig_atomic_t *cancel, sg_error *err);

/* The element of the sum of heaps[0..n-1] (every heap <= q->heaps). */
uint32_t sg_mquot_element(const sg_mquot *q, const size_t *heaps, size_t n);

/* A word of the quotient as text: generators a, b, ..., z, then A..Z,
 * then g53, g54, ... (then separated by '.'), exponents as ^k, "1" for
 * the empty word: "a", "b^2c", "1".  Returns buf (cut to size). */
char *sg_mquot_word(char *buf, size_t size, const sg_mquot *q,
                    const uint32_t *exps);

/* Who wins the misère sum of heaps[0..n-1] (each <= q->heaps) and one
 * winning move, read off the proven quotient q of rule r (method
 * SG_MISERE_QUOTIENT): the sum is a P-position iff its element is in
 * the P-portion, and a winning move leads into it. */
sg_status sg_misere_position_quotient(sg_misere_position *out, const sg_rule *r,
                                      const sg_mquot *q, const size_t *heaps,
                                      size_t n, sg_error *err);

/* The name of generator j (0-based) as sg_mquot_word writes it. */
char *sg_mquot_gen_name(char *buf, size_t size, size_t j);

/* The misère results of one rule in the cache (table `misere`, schema
 * version 3; docs/CACHE.md), next to its normal-play row: the genus
 * analysis and the last proven quotient, each present or not. */
typedef struct sg_store_misere {
    int have_genus;
    sg_misere genus;     /* heaps 0..genus.n-1; genus.normal left empty */
    size_t genus_asked;  /* heaps the run asked for */
    size_t genus_budget; /* its byte budget */
    char *genus_stopped; /* why fewer than asked were computed, or NULL */
    int have_quot;
    sg_mquot quot;     /* completed, with its test sums */
    size_t quot_asked; /* the n of sg_misere_quotient */
    size_t quot_max_order, quot_budget;
    char *quot_stopped; /* why heap quot.stopped_at was not finished */
    size_t quot_runs;   /* runs that built it (past 1: resumed) */
} sg_store_misere;

void sg_store_misere_init(sg_store_misere *m);
void sg_store_misere_clear(sg_store_misere *m);

/* Read the misère row of rule (*found 0 when there is none, also in a
 * file of schema 1 or 2 opened read-only); a damaged row (hash, texts,
 * a quotient that is none) is an SG_E_IO error naming the file. */
sg_status sg_store_misere_get(sg_store *st, const char *rule,
                              sg_store_misere *out, int *found, sg_error *err);

/* Offer the parts of m that are present, in one transaction: each
 * replaces the stored one only when it knows at least as much (more
 * heaps; or as many, asked with budgets at least as large), so that no
 * run loses what an earlier one stored.  *kept (may be NULL) is set to
 * 1 when nothing offered was taken. */
sg_status sg_store_misere_put(sg_store *st, const char *rule,
                              const sg_store_misere *m, int *kept,
                              sg_error *err);

/* Remove the misère row of rule (*found: there was one). */
sg_status sg_store_misere_drop(sg_store *st, const char *rule, int *found,
                               sg_error *err);

#ifdef __cplusplus
}
#endif

#endif /* SGEXPLORE_H */
