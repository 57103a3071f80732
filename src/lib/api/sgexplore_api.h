/*
 * sgexplore_api.h - the installed interface of libsgexplore: what the
 * command line does for one rule, as a small handle-based C API that
 * ctypes and cffi can call (plain C types, no struct passed by value).
 * The contract in full, with ownership, errors and the versioning
 * policy, is docs/API.md and the man page sgexplore(3).
 *
 * Conventions:
 *  - Every fallible function returns an sg_status (SG_OK is 0).  The
 *    one-line message of the latest failure of the calling thread is
 *    sg_last_error(); it names the problem (and, for a rule given by a
 *    function, the heap n whose options were wrong).
 *  - Handles (sg_game, sg_answer, sg_cache) are opaque; *_free and
 *    sg_cache_close accept NULL.  A `const char *` returned by an accessor
 *    belongs to the handle and stays valid until the handle is changed
 *    (a later analysis, extension or misère call on it) or freed.  A
 *    `char **` output is malloc'd: release it with sg_free.
 *  - Thread safety: the library keeps no process-wide mutable state.
 *    A handle must be used by one thread at a time; different handles
 *    may be used by different threads at once, also on the same cache
 *    file (each thread opening its own sg_cache).  sg_last_error is per
 *    thread.
 *  - Heaps of any size are decimal strings (digits only, no sign) or GMP
 *    integers; values are returned the same way, since an
 *    arithmetic-periodic rule's values grow with the heap.
 */
#ifndef SGEXPLORE_API_H
#define SGEXPLORE_API_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <gmp.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The library's version ("0.1.0") and the major version of its ABI, the
 * N of its SONAME libsgexplore.so.N (docs/API.md, "Versioning"). */
#define SG_API_MAJOR 0
const char *sg_library_version(void);
int sg_library_abi(void);

/* ------------------------------------------------------------------ */
/* Errors                                                               */
/* ------------------------------------------------------------------ */

#ifndef SG_STATUS_DEFINED
#define SG_STATUS_DEFINED
typedef enum sg_status {
    SG_OK = 0,
    SG_E_INPUT,       /* malformed or out-of-range input (a bad rule, a
                         callback that failed or listed a heap >= n) */
    SG_E_NOMEM,       /* the request does not fit in memory */
    SG_E_IO,          /* file or database failure */
    SG_E_INTERRUPTED, /* the cancel flag was raised: what was computed
                         before is kept */
    SG_E_UNKNOWN      /* a question with no proven answer (a heap past
                         the values computed of an unresolved rule) */
} sg_status;
#endif

/* The one-line message of the latest call of this thread that failed
 * ("" when none has); valid until this thread's next failing call. */
const char *sg_last_error(void);

/* The name of a status: "ok", "input", "nomem", "io", "interrupted",
 * "unknown". */
const char *sg_status_name(sg_status st);

/* Free what a `char **` output of this library returned (NULL is fine). */
void sg_free(void *p);

/* ------------------------------------------------------------------ */
/* Games: a rule, its values and its result                             */
/* ------------------------------------------------------------------ */

typedef struct sg_game sg_game;

/* A rule written as the command line's positional RULE takes it: an
 * octal or hexadecimal code ("0.77", "4.37", "0.F7"), CGSuite's `!` and
 * `[..]` ("4!.0", "0.[7]"), a canonical form ("subtract{2,3,5}",
 * "all-but{1,3}", set expressions "subtract{primes}",
 * "subtract{4+3k}"), or a name ("kayles", "dawson", "officers",
 * "grundy", "nim").  A bad text is SG_E_INPUT naming the problem. */
sg_status sg_game_new(sg_game **out, const char *rule);

/* The same with the notation of one of the command line's rule options:
 * `form` is "subtract" ("2,3,5", "1-3,7"), "all-but" ("1,3"), "octal",
 * "hex", "rule" (as sg_game_new) or "grundy" (text ignored: Grundy's
 * game).  An unknown form is SG_E_INPUT. */
sg_status sg_game_new_form(sg_game **out, const char *form, const char *text);

/*
 * Any heap game given by a function.  fn(ctx, n, buf, cap) lists the
 * options of heap n into buf as a flat list of options, each its count
 * k of heaps followed by the k heaps: k, h1..hk, k, h1..hk, ...
 * (k = 0 is a move to the empty position) and returns the number of
 * uint64_t it wrote.  When cap is too small it returns the length it
 * needs (> cap) without writing past cap, and is called again with a
 * buffer at least that large.  A negative return is a failure.  Every
 * heap of an option must be smaller than n (so that heaps are well
 * founded), and an option may list at most 2^20 heaps.
 *
 * The value of heap n is the mex over its options of the xor of the
 * option's heaps' values.  Such a game is never proven periodic (no
 * theorem knows the rule): its result is unresolved, with the period
 * observed in the values computed (sg_game_observed).  Its cache key is
 * "moves{NAME,VERSION}": give a new version whenever the function
 * changes, so that its old values are not read back.  name and version
 * are non-empty texts of at most 200 bytes of valid UTF-8 without
 * control characters, `{`, `}` or `,`.
 *
 * A callback that fails, asks for more than 2^26 entries, or lists a
 * heap >= n makes the analysis fail with SG_E_INPUT and a message naming
 * n; the values before n are kept.  fn is called from the thread that
 * analyses the game, in increasing order of n, once or twice per heap.
 */
typedef int64_t (*sg_moves_fn)(void *ctx, uint64_t n, uint64_t *buf,
                               size_t cap);
sg_status sg_game_from_moves(sg_game **out, const char *name,
                             const char *version, sg_moves_fn fn, void *ctx);

/* Release a game (NULL is harmless). */
void sg_game_free(sg_game *g);

/* The rule's canonical text ("0.77", "subtract{2,3,5}", "nim",
 * "moves{NAME,VERSION}"): the cache's key. */
const char *sg_game_rule(const sg_game *g);

/* The rule's family: "subtract", "all-but", "octal", "hex",
 * "take-and-break", or "moves" for a game given by a function. */
const char *sg_game_family(const sg_game *g);

/* The form the rule was given in when a set expression became another
 * notation ("subtract{4+3k}" for the code "0.0[003]"), in the set's
 * canonical spelling; NULL when the rule is written in its canonical
 * notation, and for a game given by a function.  The cache keeps it
 * beside the rule's row.  (Since 0.2.) */
const char *sg_game_given(const sg_game *g);

/* ------------------------------------------------------------------ */
/* Analysis                                                             */
/* ------------------------------------------------------------------ */

/* The budget of the next analysis: at most max_values values (0: the
 * rule's default, as the command line's without --max; 100,000 for a
 * game given by a function) and at most `seconds` of computing (0: no
 * limit; with max_values 0, the count is then as many as half of the
 * machine's memory holds, as `--seconds` alone).  Hitting either is no
 * error: the values computed are a correct prefix, proven as far as they
 * go. */
sg_status sg_game_set_budget(sg_game *g, uint64_t max_values, double seconds);

/* The cancel flag of later computations (NULL: none).  Polled while
 * computing: once *flag is non-zero the computation stops with
 * SG_E_INTERRUPTED, keeping (and, with a cache, storing) the values
 * computed so far.  The flag may be raised by a signal handler, another
 * thread or the progress callback; the library never clears it.
 * sig_atomic_t is an int on the platforms the library supports. */
void sg_game_set_cancel(sg_game *g, volatile sig_atomic_t *flag);

/* The progress callback of later computations (NULL: none): called
 * from the computing thread every few thousand heaps with the heaps
 * done and the count asked for; it may raise the cancel flag. */
typedef void (*sg_game_progress_fn)(void *ctx, uint64_t done, uint64_t target);
void sg_game_set_progress(sg_game *g, sg_game_progress_fn fn, void *ctx);

/* Threads the sparse method may use (0: the default, the processors
 * this process may run on, at most 8).  The values never depend on it. */
void sg_game_set_threads(sg_game *g, unsigned threads);

/* Analyse: compute values in growing rounds, each followed by a proof
 * search, until a theorem proves the period or the budget is spent.
 * With a cache (sg_game_set_cache) the rule is looked up first: a
 * proven row answers at once, an unresolved one is extended, and what
 * was computed is stored (also when interrupted).  Calling it again
 * after a larger budget goes on from the values it holds.  SG_OK when
 * the analysis finished (proven or not: sg_game_status);
 * SG_E_INTERRUPTED when the cancel flag stopped it (the values computed
 * are kept: sg_game_computed); SG_E_INPUT for a failing callback. */
sg_status sg_game_analyse(sg_game *g);

/* Compute G(0..n-1) at least, past the budget (the command line's
 * --values): nothing to do for a proven rule, whose values come from its
 * period.  Cancel and progress as for sg_game_analyse; with a cache the
 * longer prefix is stored. */
sg_status sg_game_extend(sg_game *g, uint64_t n);

/* Result: status as the JSON's words: "periodic", "arithmetic-periodic"
 * or "unresolved" (also before any analysis). */
const char *sg_game_status(const sg_game *g);
/* 1 when a theorem proved the period, else 0. */
int sg_game_proven(const sg_game *g);
/* The proven pre-period n0, period p and saltus s (0 when unresolved). */
uint64_t sg_game_preperiod(const sg_game *g);
uint64_t sg_game_period(const sg_game *g);
uint64_t sg_game_saltus(const sg_game *g);
/* The theorem's identifier ("guy-smith", ...; docs/THEORY.md) and its
 * description, NULL when unresolved. */
const char *sg_game_theorem(const sg_game *g);
const char *sg_game_theorem_name(const sg_game *g);
/* Values held: G(0..computed-1). */
uint64_t sg_game_computed(const sg_game *g);
/* Where the answer came from: "computed", "cache" or "extended"; and why
 * the last analysis ended: "proven", "time", "max", "memory" or
 * "interrupted" (NULL before any). */
const char *sg_game_source(const sg_game *g);
const char *sg_game_stopped(const sg_game *g);
/* The enumeration method ("sparse", "naive", ..., "moves"). */
const char *sg_game_method(const sg_game *g);

/* Why the result is unresolved, as the JSON's `note` ("no period proven
 * in the computed range", ...); NULL when proven or before any
 * analysis. */
const char *sg_game_note(const sg_game *g);

/* The best period candidate seen in the values of an unresolved rule:
 * observed, never proven.  Returns 1 and fills the non-NULL outputs
 * (pre-period, period, saltus, and the last heap the pattern was seen
 * to hold at) when there is one; 0 otherwise. */
int sg_game_observed(const sg_game *g, uint64_t *preperiod, uint64_t *period,
                     uint64_t *saltus, uint64_t *held_to);

/* The certificate of a proven result (docs/CERTIFICATES.md), NULL when
 * unresolved. */
const char *sg_game_certificate(const sg_game *g);

/* Write it to a file (the command line's --export-certificate);
 * SG_E_UNKNOWN when unresolved, SG_E_IO when the file cannot be
 * written. */
sg_status sg_game_export_certificate(const sg_game *g, const char *path);

/* ------------------------------------------------------------------ */
/* Values and positions                                                 */
/* ------------------------------------------------------------------ */

/* G(a..b-1) into out[0..b-a-1]: from the values computed, past them
 * through the proven period.  SG_E_UNKNOWN when some heap is past the
 * values of an unresolved rule (call sg_game_extend first), SG_E_INPUT
 * when a > b or a value exceeds 32 bits (use sg_game_heap). */
sg_status sg_game_values(const sg_game *g, uint64_t a, uint64_t b,
                         uint32_t *out);

/* G(heap) of a heap of any size, given as decimal digits; *value is
 * malloc'd decimal text.  SG_E_UNKNOWN as sg_game_values. */
sg_status sg_game_heap(const sg_game *g, const char *heap, char **value);

/* The same with GMP integers (value initialised by the caller). */
sg_status sg_game_heap_mpz(const sg_game *g, mpz_t value, const mpz_t heap);

/* The answer to a position: a sum of heaps. */
typedef struct sg_answer sg_answer;

/* Values, nim-sum, winner and one winning move of the sum of heaps
 * heaps[0..n-1] (decimal texts), n >= 1.  SG_E_UNKNOWN when some heap's
 * value is not known. */
sg_status sg_game_position(sg_answer **out, const sg_game *g,
                           const char *const *heaps, size_t n);
sg_status sg_game_position_mpz(sg_answer **out, const sg_game *g,
                               const mpz_t *heaps, size_t n);

/* Who wins: 1 the first player, 0 the second. */
int sg_answer_first_wins(const sg_answer *a);
/* How it was decided: "nim-sum" (normal play), "tame", "quotient" or
 * "search" (misère play). */
const char *sg_answer_method(const sg_answer *a);
/* The position's heaps, and the value of heap i (normal play; NULL in
 * misère answers) and their nim-sum (NULL in misère answers). */
size_t sg_answer_heaps(const sg_answer *a);
const char *sg_answer_value(const sg_answer *a, size_t i);
const char *sg_answer_nim_sum(const sg_answer *a);
/* The winning move, when the first player wins: the index of the heap
 * played (-1 when none), the tokens taken (NULL for a game given by a
 * function), and the heaps left in its place (for a game given by a
 * function: the option's heaps). */
long sg_answer_move_heap(const sg_answer *a);
const char *sg_answer_move_take(const sg_answer *a);
size_t sg_answer_move_nleft(const sg_answer *a);
const char *sg_answer_move_left(const sg_answer *a, size_t i);
void sg_answer_free(sg_answer *a);

/* ------------------------------------------------------------------ */
/* Misère play (docs/MISERE.md)                                         */
/* ------------------------------------------------------------------ */

/* The genus of heaps 0..heaps-1, computed exactly within budget_bytes
 * of memory (0: 256 MiB), as `sgexplore RULE --misere`.  SG_E_UNKNOWN
 * when the budget runs out and SG_E_INTERRUPTED by the cancel flag, the
 * heaps finished being kept either way (sg_game_misere_count).  Codes
 * only: a game given by a function is SG_E_INPUT. */
sg_status sg_game_misere(sg_game *g, uint64_t heaps, uint64_t budget_bytes);

/* Heaps whose genus is known, and the first heap that is not tame
 * (sg_game_misere_count when every one is). */
uint64_t sg_game_misere_count(const sg_game *g);
uint64_t sg_game_misere_tame_to(const sg_game *g);

/* Misère values G-(a..b-1) into out (b <= sg_game_misere_count). */
sg_status sg_game_misere_values(const sg_game *g, uint64_t a, uint64_t b,
                                uint32_t *out);

/* The genus of a heap as Conway writes it ("0^120", "2^20"), malloc'd. */
sg_status sg_game_genus(const sg_game *g, uint64_t heap, char **text);

/* Who wins the misère sum of heaps[0..n-1] and one winning move: by the
 * tame rule when every heap is below sg_game_misere_tame_to, else by
 * the proven quotient when it covers the heaps, else by an exact search
 * within budget_bytes (0: 256 MiB; SG_E_UNKNOWN when it runs out).
 * sg_game_misere must have run first for the tame rule. */
sg_status sg_game_misere_position(sg_answer **out, sg_game *g,
                                  const uint64_t *heaps, size_t n,
                                  uint64_t budget_bytes);

/* The misère quotient of the sums of heaps 1..heaps, each step proven
 * (max_order 0: 1024 elements, as the command line; budget_bytes 0:
 * 256 MiB).  SG_E_UNKNOWN
 * when a limit stops it, the last proven quotient being kept. */
sg_status sg_game_quotient(sg_game *g, uint64_t heaps, uint64_t max_order,
                           uint64_t budget_bytes);

/* The heaps the proven quotient covers and its order (0 before any). */
uint64_t sg_game_quotient_heaps(const sg_game *g);
uint64_t sg_game_quotient_order(const sg_game *g);

/* The quotient as text: a line "heaps H order N", the generators
 * ("a = heap 1"), the relations ("a^2 = 1") and the P-portion, one item
 * a line; NULL before any. */
const char *sg_game_quotient_text(const sg_game *g);

/* ------------------------------------------------------------------ */
/* Certificates                                                         */
/* ------------------------------------------------------------------ */

/* Check a certificate's text as `sgexplore verify` does: the rule and
 * claim read, the values G(0..bound) computed again by the reference
 * method, and every hypothesis of the theorem and the claim checked.
 * SG_OK when it holds (*rule, when non-NULL, receives the rule's
 * canonical text, malloc'd); SG_E_INPUT when it does not or cannot be
 * read, the message saying why. */
sg_status sg_certificate_verify(const char *text, char **rule);

/* ------------------------------------------------------------------ */
/* The cache                                                            */
/* ------------------------------------------------------------------ */

typedef struct sg_cache sg_cache;

enum {
    SG_CACHE_READONLY = 1 /* never create, never write */
};

/* Open the cache file at path (NULL: the default, $SGEXPLORE_DB, else
 * $XDG_CACHE_HOME/sgexplore/cache.db, else ~/.cache/sgexplore/cache.db),
 * created when missing unless SG_CACHE_READONLY.  A foreign, corrupt or
 * newer file is SG_E_IO and never written. */
sg_status sg_cache_open(sg_cache **out, const char *path, unsigned flags);
void sg_cache_close(sg_cache *c);
const char *sg_cache_path(const sg_cache *c);

/* Analyses of g go through c from now on (NULL: no cache): looked up
 * first, stored after.  c must outlive its use by g. */
void sg_game_set_cache(sg_game *g, sg_cache *c);

/* Read g's row from c without computing: *found 1 and g holds its
 * values and result when there is one. */
sg_status sg_cache_lookup(sg_cache *c, sg_game *g, int *found);

/* Store what g knows now into c (a row that knows at least as much is
 * kept). */
sg_status sg_cache_store(sg_cache *c, const sg_game *g);

/* Remove a rule's row (canonical text); *found says whether there was
 * one. */
sg_status sg_cache_drop(sg_cache *c, const char *rule, int *found);

/* ------------------------------------------------------------------ */
/* Families of rules (sweeps)                                           */
/* ------------------------------------------------------------------ */

/* The families of `sgexplore sweep`, in its one order (docs/SWEEPS.md),
 * so that a program walks the same rules as a sweep: `family` is
 * "subtract" or "all-but" (sets of size_lo..size_hi numbers, each at
 * most max_element), "octal" or "hex" (`digits` digits after the point,
 * 1..20, `prefix` the digit before it) or "progressions"
 * (subtract{a+bk} with a, b <= max_element).  A parameter the family
 * does not take must be 0.  sg_sweep_count gives the number of rules,
 * sg_sweep_rule the text of rule number `index` (0-based; malloc'd,
 * accepted by sg_game_new).  Impossible parameters are SG_E_INPUT. */
sg_status sg_sweep_count(const char *family, unsigned size_lo, unsigned size_hi,
                         uint64_t max_element, unsigned digits, unsigned prefix,
                         uint64_t *count);
sg_status sg_sweep_rule(const char *family, unsigned size_lo, unsigned size_hi,
                        uint64_t max_element, unsigned digits, unsigned prefix,
                        uint64_t index, char **rule);

/* ------------------------------------------------------------------ */
/* Figures                                                              */
/* ------------------------------------------------------------------ */

/* Draw G(from..to) of g into an image (.png, .svg or .pdf by the
 * extension) with gnuplot ($SGEXPLORE_GNUPLOT, else gnuplot on the
 * PATH), as `sgexplore plot`.  SG_E_IO when gnuplot is missing or
 * fails. */
sg_status sg_game_plot(const sg_game *g, const char *path, uint64_t from,
                       uint64_t to);

#ifdef __cplusplus
}
#endif

#endif /* SGEXPLORE_API_H */
