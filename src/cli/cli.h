/*
 * cli.h - what the sgexplore program's files share.  The program is a
 * table of commands (main.c), one file each (cmd_*.c), in the manner of
 * tmux's command table: an entry names the command, its synopsis, its
 * options with their help lines, and the function that runs it, so that
 * `--help` is generated from the entry and cannot drift.  Underneath, the
 * commands share four services, each written once:
 *
 *   args.c    scanning argv against an entry's options, the help text,
 *             the rule specification (positional, option or name), numbers
 *   flow.c    the cached analysis: look up, analyse or extend, store
 *   record.c  the one output layer: records as text lines or JSON
 *   report.c  the records every command shares (a rule's result, a
 *             position, heaps, values), written through record.c
 *   out.c     messages on stderr, checked writes to stdout, JSON strings
 *
 * Only the program prints or exits; the library (sgexplore.h) never does.
 */
#ifndef SGEXPLORE_CLI_H
#define SGEXPLORE_CLI_H

#include <signal.h>
#include <stdio.h>

#include "sgexplore.h"

/* Exit statuses, as docs/CONTRACT.md and docs/JSON.md promise them. */
enum {
    EXIT_DONE = 0,
    EXIT_RUNTIME = 1, /* I/O, database, out of memory, interrupted */
    EXIT_USAGE = 2,   /* usage or bad input */
    EXIT_UNKNOWN = 3  /* a --heap/--position question has no proven answer */
};

/* ------------------------------------------------------------------ */
/* Messages and output (out.c)                                          */
/* ------------------------------------------------------------------ */

/* Raised by SIGINT/SIGTERM; polled by long computations. */
extern volatile sig_atomic_t cli_cancel;

/* Install the SIGINT/SIGTERM handlers that raise cli_cancel. */
void cli_signals_install(void);

/* Print "sgexplore: MESSAGE" on stderr (one line). */
void cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Print a library error about `what` (the option or argument it came from)
 * quoting `text` (the input, may be NULL) with the position marker when
 * there is one; returns the exit status that matches err->code. */
int cli_report(const char *what, const char *text, const sg_error *err);

/* Under --json (or --format json) anywhere in argv, an error also gives
 * one JSON object on stdout, {"error": {"code", "message", "position"}}
 * (docs/JSON.md), written by cli_error_json at the end of the run when
 * the command wrote no record: code "runtime", "usage" or "unknown" for
 * exit status 1, 2 or 3, the first error line's message (without
 * "sgexplore: "), the 1-based position in the input or null.  stderr
 * keeps its line and the exit status is rc, returned. */
void cli_error_json_mode(int argc, char **argv);
int cli_error_json(int rc);

/* Exit status for a library status code. */
int cli_status_exit(sg_status st);

/* Untrusted `text` (NULL as "") made safe to print on a terminal, in a
 * message or a line of text output: sg_escape, the one escape (valid
 * UTF-8 kept; control characters, DEL, C1 and invalid bytes as \n, \r,
 * \t, \xNN; a backslash doubled where it would read as an escape), whole
 * whatever its length.  Returns a buffer the function owns, one of four
 * in rotation (so up to four may appear in one message), valid until the
 * fourth later call; cut with "..." at 255 bytes only when memory ran
 * out. */
const char *cli_quote(const char *text);

/* The same escape as a malloc'd string (the caller frees it), or NULL
 * when out of memory: for text kept longer than cli_quote's rotation (the
 * rows of `cache list`). */
char *cli_escape_dup(const char *text);

/* Write s as a JSON string literal (invalid UTF-8 bytes as U+FFFD; quote,
 * backslash, C0, DEL and C1 controls escaped). */
void cli_json_string(FILE *f, const char *s);

/* Set when a report had to leave something out for lack of memory:
 * cli_stdout_finish then says so and exits 1. */
extern int cli_out_of_memory;

/* Flush stdout and report a failed write (a full disk, a closed pipe) as
 * one line; returns rc, or EXIT_RUNTIME when the output was lost. */
int cli_stdout_finish(int rc);

/* ------------------------------------------------------------------ */
/* The command table (args.c, main.c)                                   */
/* ------------------------------------------------------------------ */

/* One option of a command. */
typedef struct cli_opt {
    const char *name;  /* "--max" */
    const char *alias; /* "-o", or NULL */
    const char *arg;   /* placeholder of the value ("N"), NULL for a flag */
    const char *help;  /* one line for --help */
} cli_opt;

/* Command flags. */
enum {
    CLI_CMD_RULE = 1,        /* takes one rule: a positional or a rule option */
    CLI_CMD_CACHE = 2,       /* reads the cache: --db PATH, --no-cache */
    CLI_CMD_NOCACHE_OPT = 4, /* with CLI_CMD_CACHE: --no-cache is refused */
    CLI_CMD_EXIT3 = 8        /* may exit 3 (no proven answer); --help lists only
                         the statuses a command can return */
};

typedef struct cli_args cli_args;

/* One command: its table entry. */
typedef struct cli_command {
    const char *name;     /* "verify"; "" for the analysis */
    const char *synopsis; /* lines after "Usage: sgexplore ", '\n'-separated */
    const char *summary;  /* what it does, a few lines */
    unsigned flags;       /* CLI_CMD_* */
    const cli_opt *opts;  /* its own options, ending with {NULL} */
    int (*run)(const struct cli_command *self, cli_args *a);
} cli_command;

/* Every command of the program (main.c), ending with NULL. */
extern const cli_command *const cli_commands[];

/* The command entries, one per cmd_*.c file. */
extern const cli_command cli_cmd_analyse, cli_cmd_verify, cli_cmd_cache,
    cli_cmd_plot, cli_cmd_graph, cli_cmd_sweep, cli_cmd_merge, cli_cmd_atlas,
    cli_cmd_diff;

/* Print the --help text of a command, generated from its entry. */
void cli_help(FILE *f, const cli_command *c);

/* Scan argv[first..argc-1] against c's options (its own, the rule
 * options when CLI_CMD_RULE, --db/--no-cache with CLI_CMD_CACHE, and
 * --json, --help everywhere).  Options and positional arguments may come
 * in any order; `--opt=value` works; `--` ends the options.  Returns
 * NULL after one line on stderr (*rc set to the exit status), or the
 * scanned arguments (*rc 0), with --help already answered when
 * cli_args_help() says so. */
cli_args *cli_args_scan(const cli_command *c, int argc, char **argv, int first,
                        int *rc);
void cli_args_free(cli_args *a);

/* Whether --help was given (the help is then printed by main). */
int cli_args_help(const cli_args *a);

/* The last value of an option (NULL when absent; "" for a flag given).
 * The name must be one the command's table declares: asking for another
 * is a bug, answered "absent" with one "internal error" line on stderr
 * and kept for cli_undeclared (tests/test_args.c, tests/cli/options.sh). */
const char *cli_get(const cli_args *a, const char *name);

/* How many times an option was given, and all its values in order (the
 * same rule for undeclared names). */
size_t cli_count(const cli_args *a, const char *name);
const char *cli_get_nth(const cli_args *a, const char *name, size_t k);

/* Whether the command declares the option: for code shared by commands
 * that do not all have it. */
int cli_declares(const cli_args *a, const char *name);

/* The first undeclared option name this process asked for, or NULL. */
const char *cli_undeclared(void);

/* The positional arguments. */
size_t cli_npos(const cli_args *a);
const char *cli_pos(const cli_args *a, size_t k);

/* --json was given (or --format json where a command has --format). */
int cli_json(const cli_args *a);

/* The name of the command, for messages ("sgexplore" for the analysis). */
const char *cli_args_cmd(const cli_args *a);

/* ------------------------------------------------------------------ */
/* Rules and numbers (args.c)                                           */
/* ------------------------------------------------------------------ */

/* A parsed rule with its canonical text and where it came from. */
typedef struct cli_rule {
    sg_rule rule;
    char *canon;       /* canonical text (owned) */
    const char *given; /* the text as given */
    const char *from;  /* "--octal", "rule", ... for messages */
} cli_rule;

void cli_rule_init(cli_rule *r);
void cli_rule_clear(cli_rule *r);

/* The one rule specification every command takes: a rule option
 * (--subtract, --all-but, --octal, --hex, --rule, --grundy) or the
 * positional argument number `pos` (any code, canonical form or name).
 * Exactly one must be given unless `optional` (then *present says
 * whether one was).  Returns an exit status after one error line. */
int cli_rule_get(cli_rule *out, const cli_args *a, size_t pos, int optional,
                 int *present);

/* Parse one rule text as --rule does (sweeps, rules files, certificates). */
int cli_rule_parse_text(cli_rule *out, const char *from, const char *text);

/* A natural number of any size: decimal digits, B^E, and sums or
 * differences of those ("10^18+100").  Exit status after one line. */
int cli_parse_bignum(mpz_t out, const char *opt, const char *text);

/* "A:B" of such numbers with A <= B and B - A < span; cli_parse_span
 * with no bound on the span (--where answers any range by the period). */
int cli_parse_range(mpz_t a, mpz_t b, const char *opt, const char *text,
                    uint64_t span);
int cli_parse_span(mpz_t a, mpz_t b, const char *opt, const char *text);

/* The sequence out (values_out.c): --format's three outputs; --values
 * in one of them (exit 3 when a value is unknown, nothing written); the
 * heaps of [a, b] with value v (--where: counted by the period over any
 * range of a proven rule, listed up to 10^6 heaps) as the record's
 * "where" (fmt CLI_FMT_NONE) or in a format on f. */
struct cli_rec;
typedef enum cli_seq_format {
    CLI_FMT_NONE,
    CLI_FMT_CSV,
    CLI_FMT_BFILE,
    CLI_FMT_LIST
} cli_seq_format;
int cli_seq_format_parse(const char *text, cli_seq_format *f);
int cli_values_formatted(FILE *f, cli_seq_format fmt, const sg_result *res,
                         const sg_seq *s, const mpz_t a, const mpz_t b);
int cli_where_write(struct cli_rec *r, FILE *f, cli_seq_format fmt,
                    const sg_result *res, const sg_seq *s, const mpz_t a,
                    const mpz_t b, const mpz_t v);

/* A positive count that fits in 63 bits (--max); B^E allowed. */
int cli_parse_count(uint64_t *out, const char *opt, const char *text);

/* A duration in seconds (--seconds): a positive decimal number. */
int cli_parse_seconds(double *out, const char *opt, const char *text);

/* The one rule of every option that names a file to write (--db, merge
 * OUT, -o, --plot, --export-certificate): its folder must exist, so that
 * a typo creates no tree of folders and fails before any work.  Exit
 * status after one line naming the option and the path. */
int cli_check_folder(const char *opt, const char *path);

/* --export-proof: write a Coq proof script of res's period to path
 * (proof_export.c, docs/PROOFS.md); exit status after one error line
 * when the Coq development does not cover the rule. */
int cli_export_proof(const char *path, const sg_rule *r, const char *canon,
                     const sg_result *res);

/* Heaps of one position (--position, a line of --positions): numbers as
 * cli_parse_bignum reads them ("10^18+5"), separated by commas, spaces or
 * tabs (or a comma and spaces: "1, 2").  Exit status after one line
 * naming `what` (the option, or "--positions line N"); on success *out
 * (n heaps) is freed with cli_heaps_free. */
int cli_parse_heaps(mpz_t **out, size_t *n, const char *text, const char *what);
void cli_heaps_free(mpz_t *h, size_t n);

/* Limits of a --positions file: longest line, most positions. */
#define CLI_MAX_POSITION_LINE 65536
#define CLI_MAX_POSITIONS 1000000

/* One position of a --positions file: its heaps and its line's text. */
typedef struct cli_position_item {
    mpz_t *h;
    size_t n;
    char *text;
} cli_position_item;

/* Read a rules file (`sweep rules FILE`) to its end: one rule text per
 * line, `#` starting a comment, blank lines skipped, the spaces, tabs and
 * line ends around a text removed.  On success *texts and *lines (the
 * line number of each) hold *n >= 1 texts, freed with cli_rules_free; a
 * file without a rule is exit status 2, a read error or out of memory 1,
 * after one line naming the file (nothing is left allocated).  The texts
 * are not parsed here. */
/* One line of a rules file: a rule as the command line gives it, a code,
 * canonical form or name, or one of --subtract SET, --all-but SET,
 * --octal CODE, --hex CODE, --rule R, --grundy (issue 50: `--subtract
 * squares` was refused).  Exit status after one error line. */
int cli_rule_parse_line(cli_rule *out, const char *from, const char *text);

int cli_rules_read(char ***texts, unsigned long **lines, size_t *n, FILE *f,
                   const char *path);
void cli_rules_free(char **texts, unsigned long *lines, size_t n);

/* Read every position of a --positions file, one per line (blank lines
 * and lines starting with # skipped), before anything is answered.  Exit
 * status after one line naming the file and line; on success *items
 * (count of them) is freed with cli_positions_free. */
int cli_positions_read(cli_position_item **items, size_t *count, FILE *in,
                       const char *path);
void cli_positions_free(cli_position_item *items, size_t count);

/* ------------------------------------------------------------------ */
/* The cached analysis (flow.c)                                         */
/* ------------------------------------------------------------------ */

/*
 * One analysis of one rule through the cache: what every command that
 * needs a rule's values does (the analysis, plot, verify, sweep).  A
 * proven cached rule needs no computing; an unresolved cached prefix is
 * extended; whatever was computed, even when interrupted, is stored.
 */
typedef struct cli_flow {
    cli_rule r;
    sg_seq seq;
    sg_result res;
    int proven;
    const char *source;  /* "computed", "cache" or "extended" */
    size_t max;          /* the computing budget used */
    int budget_spent;    /* --seconds ran out */
    double seconds;      /* --seconds (0: none); the misère computation
                            after the flow gets as long again */
    const char *max_is;  /* where max came from: "given", "default" or
                           "memory" (--seconds alone: sg_time_max) */
    const char *stopped; /* why the run ended: "proven", "time", "max" or
                            "memory"; set by cli_flow_run_rule) */
    int memory_out;      /* memory ran out; the prefix is kept, unresolved */
    unsigned shares;     /* runs at once that share memory (sweep --jobs);
                           set before running, 0 as 1 */
    /* cache state: the row read (src/lib/api/flow.c, shared with the
     * installed API) */
    sg_store *db;
    sg_flow_row row;
    double t0;
    int store_rc;  /* exit status of the last store (0: stored) */
    uint64_t want; /* set before running: G(0..want-1) are computed when
                      the rule stays unresolved and they fit in memory
                      (--heap), else nothing is said */
} cli_flow;

void cli_flow_init(cli_flow *f);
void cli_flow_clear(cli_flow *f);

/* The cache path the options and environment select (--db, then
 * $SGEXPLORE_DB, $XDG_CACHE_HOME, $HOME).  malloc'd; NULL when none. */
char *cli_cache_path(const char *db_opt);

/* Open the cache a command's --db/--no-cache select: NULL (status 0)
 * with --no-cache, without any location, or (readonly) when the file
 * does not exist yet.  An explicit --db whose folder is missing is an
 * error; the default folder is created.  *path (malloc'd, the caller's
 * to free) is NULL after an error. */
int cli_cache_open(sg_store **db, char **path, const cli_args *a, int readonly);

/* Run the flow for the rule of a (see cli_rule_get, positional `pos`):
 * --max (else sg's default budget), --seconds, --db/--no-cache.  When
 * `upto` > 0 and the rule stays unresolved, values are computed up to
 * G(upto - 1) even past the budget (--values, --range).  On success the
 * result is stored (a failure to store is reported and kept for
 * cli_flow_finish); returns an exit status after one error line. */
int cli_flow_run(cli_flow *f, const cli_args *a, size_t pos, uint64_t upto);

/* --max and --seconds of a (0 when absent), parsed once for every command
 * that runs a rule through the flow; an exit status after one line. */
int cli_flow_budget(const cli_args *a, uint64_t *max, double *seconds);

/* Run the flow for an already parsed rule, with explicit settings. */
int cli_flow_run_rule(cli_flow *f, const cli_args *a, uint64_t max,
                      double seconds, uint64_t upto);

/* The exit status of a command that printed its answer with status rc:
 * a failed store (already reported) turns success into failure. */
int cli_flow_finish(const cli_flow *f, int rc);

/* Store what is known now (called by cli_flow_run; again after more
 * values were computed).  Exit status. */
int cli_flow_store(cli_flow *f);

/* Extend the values of an unresolved rule to G(0..n-1) (exit status). */
int cli_flow_extend(cli_flow *f, uint64_t n, const char *what);

/* The furthest a run can go: deep runs (--deep) reach G(0..2^48-1). */
#define CLI_DEEP_MAX_N ((uint64_t)1 << 48)

/* How G(0..n-1) of rule r can be computed, for a hint that names only
 * what the tool accepts: CLI_REACH_MAX (--max n fits in memory),
 * CLI_REACH_DEEP (only --deep --max n reaches it), CLI_REACH_NONE. */
enum { CLI_REACH_MAX, CLI_REACH_DEEP, CLI_REACH_NONE };
int cli_reach(const sg_rule *r, const mpz_t n);

/* --plot FILE on an analysis (cmd_plot.c): draw the analysed rule over
 * its default range; exit status after one error line. */
int cli_plot_flow(const char *path, const cli_flow *f);

/* --misere --plot FILE (cmd_plot.c): draw the misère figure of the heaps
 * of m (sg_plot_misere); nothing when no heap was computed, as for
 * cli_plot_flow.  Exit status after one error line. */
int cli_plot_misere(const char *path, const sg_rule *r, const sg_misere *m);

/* The options of one enumeration: the cancel flag and, on a terminal,
 * the progress line. */
sg_enum_options cli_enum_options(void);
/* --threads T (1..SG_THREADS_MAX) for every later cli_enum_options, when
 * the command declares and was given it; an exit status after one error
 * line. */
int cli_threads_option(const cli_args *a);

/* --seconds: raise cli_cancel to 2 after that long (0: never); stop. */
void cli_budget_start(double seconds);
void cli_budget_stop(void);

/* `sgexplore RULE --deep` (deep.c): a deep run through its checkpoint in
 * the cache; the analysis command hands over when --deep is given. */
int cli_deep_run(const cli_args *a);

/* `cache show RULE` of a rule with a deep-run checkpoint (key: its
 * canonical text): the deep report from the checkpoint; -1 when the rule
 * has none, else an exit status. */
int cli_deep_show(sg_store *db, const char *key, int json);

/* `cache export-checkpoint RULE FILE` and `cache import-checkpoint FILE`
 * (deep_file.c): a deep run's checkpoint carried between caches. */
int cli_deep_export(const cli_args *a, int json);
int cli_deep_import(const cli_args *a, int json);

/* `cache derive RULE PARENT` (cache_derive.c). */
int cli_cache_derive(const cli_args *a);

/* The enumeration progress shown on a terminal. */
void cli_progress_enable(int on);

/* The budget of the run the progress line estimates: `max` values (why:
 * "--max", "default", or "memory" for --seconds alone) and `seconds`
 * (--seconds; 0: none). */
void cli_progress_budget(size_t max, const char *why, double seconds);

/* Never show the enumeration progress in this process (the workers of a
 * sweep, whose parent draws one progress line for the whole sweep). */
void cli_progress_forbid(void);

/* ------------------------------------------------------------------ */
/* The output layer (record.c)                                          */
/* ------------------------------------------------------------------ */

/* Nesting of objects and arrays a record may use. */
#define CLI_REC_DEPTH 8

/* One record being written: text lines, or one JSON object on one line
 * (docs/JSON.md).  The keyed calls write JSON members and do nothing in
 * text; cli_rec_textf writes text and does nothing in JSON, so that one
 * record function writes both forms. */
typedef struct cli_rec {
    FILE *f;
    int json;
    int depth;
    char comma[CLI_REC_DEPTH];  /* a member was written at this depth */
    char closer[CLI_REC_DEPTH]; /* '}' or ']' */
} cli_rec;

/* Start a record (JSON: its '{'); end it (JSON: every open object or
 * array closed, then "}\n") and flush it, so that JSON Lines stream. */
void cli_rec_begin(cli_rec *r, FILE *f, int json);

/* Whether a JSON record was begun on stdout in this process (set by
 * cli_rec_begin, read by cli_error_json). */
extern int cli_rec_stdout;
void cli_rec_end(cli_rec *r);

/* Open an object or an array as the member `key` (NULL inside an
 * array), and close the innermost one. */
void cli_rec_obj(cli_rec *r, const char *key);
void cli_rec_arr(cli_rec *r, const char *key);
void cli_rec_close(cli_rec *r);

/* Members.  Strings are escaped (cli_json_string); NULL is null. */
void cli_rec_str(cli_rec *r, const char *key, const char *s);
void cli_rec_strf(cli_rec *r, const char *key, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void cli_rec_null(cli_rec *r, const char *key);
void cli_rec_bool(cli_rec *r, const char *key, int b);
void cli_rec_int(cli_rec *r, const char *key, long v);
/* Seconds and other measures: a JSON number with three decimals. */
void cli_rec_real(cli_rec *r, const char *key, double v);

/* The one rule for numbers: a count or a value is a JSON integer up to
 * 2^53 - 1 and a decimal string beyond; a heap the user names (and its
 * value, nim-sum, move) is always a decimal string (cli_rec_heap). */
void cli_rec_uint(cli_rec *r, const char *key, uint64_t v);
void cli_rec_uint_or_null(cli_rec *r, const char *key, int have, uint64_t v);
void cli_rec_mpz(cli_rec *r, const char *key, const mpz_t x);
void cli_rec_heap(cli_rec *r, const char *key, const mpz_t x);

/* Text only: a printf, and a decimal of any size. */
void cli_rec_textf(cli_rec *r, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void cli_rec_text_mpz(cli_rec *r, const mpz_t x);

/* ------------------------------------------------------------------ */
/* The shared records (report.c)                                        */
/* ------------------------------------------------------------------ */

/* Longest value list printed whole in the text report, and in JSON. */
#define CLI_TEXT_VALUES 200
#define CLI_JSON_VALUES 10000

/* What to print about one rule. */
typedef struct cli_view {
    const char *rule, *family, *source; /* source NULL: not shown */
    const char *given;     /* the form the rule was given in (sg_rule.given,
                          a row's first: sg_store_entry.given), or NULL */
    const sg_rule *parsed; /* the rule itself when the command holds it
                              (NULL: parsed again from `rule`) */
    const sg_result *res;
    const sg_seq *seq;           /* G(0..seq->n-1), or NULL (not loaded) */
    uint64_t computed;           /* values computed */
    const sg_store_entry *entry; /* cache metadata (cache show), or NULL */
    const char *rerun;           /* how to name the rule in a hint command */
    int sparse_state;            /* 0: not yet computed, 1: in `sparse`,
                                 -1: too few values */
    sg_sparse_space sparse;      /* filled by cli_view_prepare */
    int open_values; /* an unresolved rule's "values" are its computed ones
                        (the analysis, cache show), else empty (sweep) */
} cli_view;

/* Compute what the report derives from the values (the sparse space)
 * before anything is printed, so that running out of memory is an error
 * line and exit status 1, never a report with a line missing. */
int cli_view_prepare(cli_view *v);

/* The view of a flow's result: its rule, family, source and values. */
void cli_flow_view(cli_view *v, const cli_flow *f);

/* A rule's result, the one record of it every command writes (the
 * analysis, sweep rows, cache list and show, verify): its text lines or
 * its JSON keys.  The keys that need the values (largest, sparse) are
 * left out when v->seq is NULL (cache list, verify), never null. */
void cli_view_write(cli_rec *r, const cli_view *v);

/* The "values" of a proven rule: G(0..n0+p-1); of an unresolved one with
 * v->open_values, the values computed; cut after CLI_JSON_VALUES
 * (values_start, values, values_truncated; JSON only). */
void cli_view_values(cli_rec *r, const cli_view *v);

/* G(n) for A <= n <= B: text lines "G(n) = v", or the keys values_start,
 * values and values_truncated.  Returns 1 when one is unknown. */
int cli_values_write(cli_rec *r, const sg_result *res, const sg_seq *s,
                     const mpz_t a, const mpz_t b);

/* The --heap answers: text lines "G(N) = v" (given[] as typed), or the
 * key "heaps", a list of {"heap", "value"}.  Returns 1 when one is
 * unknown; unknown_text (may be NULL) writes the text of one. */
int cli_heaps_write(cli_rec *r, const sg_result *res, const sg_seq *s,
                    const mpz_t *heaps, const char *const *given, size_t n,
                    void (*unknown_text)(cli_rec *r, const char *given,
                                         const mpz_t n, const void *arg),
                    const void *arg);

/* A position's answer: the key "position" ({"heaps", "nim_sum",
 * "winner", "move"}; heaps as cli_heaps_write, the others null when a
 * heap's value is unknown), or text lines (one line with `line`, the
 * --positions form).  p is NULL when a heap's value is unknown. */
void cli_position_write(cli_rec *r, const sg_result *res, const sg_seq *s,
                        const sg_position *p, const mpz_t *heaps, size_t n,
                        const char *line);

/* The misère analysis of a rule (misere_cache.c): the genus of heaps
 * 0..N-1 and, asked, the quotient of heaps 1..N-1, through the cache. */
#define CLI_MISERE_HEAPS 40       /* N when --max is not given */
#define CLI_MISERE_MAX_ORDER 1024 /* --max-order when not given */

typedef struct cli_misere {
    sg_misere m;
    sg_mquot quot;
    const char *gsource, *qsource; /* "computed", "cache", "extended" */
    const char *stopped;  /* why fewer heaps than asked (gwhy), or NULL */
    const char *qstopped; /* why the quotient stopped (qwhy), or NULL */
    char gwhy[512], qwhy[512];
    int store_rc; /* exit status of storing them (0: stored or none) */
} cli_misere;

void cli_misere_init(cli_misere *x);
void cli_misere_clear(cli_misere *x);

/* The byte budget of one exact misère computation: 256 MiB, or
 * $SGEXPLORE_MISERE_MIB MiB (docs/MISERE.md). */
size_t cli_misere_budget(void);

/* Fill x for the flow's rule (its cache, fl->db, may be NULL): read
 * from the cache's misère row when it holds the answer, resume a stored
 * quotient of fewer heaps, compute the rest, and offer what was computed
 * to the cache.  EXIT_DONE also when a budget stopped the genus or the
 * quotient (x->stopped, x->qstopped); else an exit status after one
 * error line (interrupted: what was proven is stored first). */
int cli_misere_compute(cli_misere *x, const cli_flow *fl, size_t asked,
                       int want_q, size_t max_order);

/* --misere: the key "misere" ({"heaps", "values", "genus", "tame_to",
 * "first_wild", "positions", "stopped", "source"}) or its text lines;
 * `asked` heaps were asked for, `stopped` says why fewer were computed
 * (else NULL), `source` is "computed" or "cache". */
void cli_misere_write(cli_rec *r, const sg_misere *m, size_t asked,
                      const char *stopped, const char *source);

/* --misere --position: the key "position" as cli_position_write (each
 * heap's value its G-(h) from m's genus table, null past it; nim_sum
 * null, which has no misère meaning) plus "method", or one text line
 * (prefixed by `line` for --positions). */
void cli_misere_position_write(cli_rec *r, const sg_misere_position *p,
                               const sg_misere *m, const mpz_t *heaps, size_t n,
                               const char *line);

/* --misere --quotient: the key "quotient" ({"heaps", "order",
 * "orders", "generators", "relations", "p_portion", "heap_words",
 * "test_sums", "proof_states", "positions", "stopped_at", "stopped",
 * "source", "resumed_from"}) or its text lines; `stopped` says why heap
 * stopped_at was not finished (else NULL); `source` is "computed",
 * "cache" or "extended" (resumed from a cached quotient). */
void cli_mquot_write(cli_rec *r, const sg_mquot *q, const char *stopped,
                     const char *source);

/* The --version record: {"program", "version"} or "sgexplore VERSION". */
void cli_version_write(cli_rec *r, const char *version);

#endif
