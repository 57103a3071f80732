/*
 * cli.h - what the sgexplore program's source files share: exit codes, the
 * one error printer, and the per-command entry points.  Only the CLI prints
 * or exits; the library (sgexplore.h) never does.
 */
#ifndef SGEXPLORE_CLI_H
#define SGEXPLORE_CLI_H

#include <signal.h>
#include <stdio.h>

#include "sgexplore.h"

/* Exit statuses, as DESIGN.md promises them to scripts. */
enum {
    EXIT_DONE = 0,
    EXIT_RUNTIME = 1, /* I/O, database, out of memory, interrupted */
    EXIT_USAGE = 2,   /* usage or bad input */
    EXIT_UNKNOWN = 3  /* a --heap/--position question has no proven answer */
};

/* Raised by SIGINT/SIGTERM; polled by long computations. */
extern volatile sig_atomic_t cli_cancel;

/* Install the SIGINT/SIGTERM handlers that raise cli_cancel. */
void cli_signals_install(void);

/* Print "sgexplore: MESSAGE" on stderr (one line). */
void cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Print a library error about `what` (the option or argument it came from)
 * with the position marker when there is one; returns the exit status that
 * matches err->code. */
int cli_report(const char *what, const char *text, const sg_error *err);

/* Exit status for a library status code. */
int cli_status_exit(sg_status st);

/* Write s as a JSON string literal. */
void cli_json_string(FILE *f, const char *s);

/* ------------------------------------------------------------------ */
/* Option scanning (cli_opts.c)                                         */
/* ------------------------------------------------------------------ */

/* One option a command accepts; tables end with {NULL, 0}. */
typedef struct cli_option {
    const char *name; /* "--max", or a short alias such as "-o" */
    int takes_value;
} cli_option;

/* The rule options every command that takes a rule accepts. */
#define CLI_RULE_OPTIONS                                                       \
    {"--subtract", 1}, {"--all-but", 1}, {"--octal", 1}, {"--hex", 1},         \
        {"--rule", 1},                                                         \
    {                                                                          \
        "--grundy", 0                                                          \
    }

enum { CLI_ARG_END = -1, CLI_ARG_ERROR = -2, CLI_ARG_POSITIONAL = -3 };

typedef struct cli_args {
    int argc, i;
    char **argv;
    const char *cmd; /* command name for messages, NULL for analysis */
} cli_args;

void cli_args_init(cli_args *a, int argc, char **argv, int first,
                   const char *cmd);

/* The next argument: the index in opts of an option (*val is its value
 * when it takes one), CLI_ARG_POSITIONAL (*val is the argument),
 * CLI_ARG_END, or CLI_ARG_ERROR after one line on stderr (exit 2). */
int cli_args_next(cli_args *a, const cli_option *opts, const char **val);

/* Which rule a command was given. */
typedef struct cli_rule_choice {
    sg_rule_syntax syntax;
    const char *text; /* the rule text ("4!.0" for --grundy) */
    const char *opt;  /* the option it came from, for messages */
    int count;
} cli_rule_choice;

/* Record name/val when name is a rule option; returns 1 if it was. */
int cli_rule_option(cli_rule_choice *c, const char *name, const char *val);

/* Exactly one rule must be given: EXIT_DONE, or EXIT_USAGE after a line. */
int cli_rule_choice_check(const cli_rule_choice *c);

/* Parse text (given with option opt, for the message) into r, which must
 * be initialised, and set *canon to its canonical text (caller frees):
 * EXIT_DONE, or the exit status after one line on stderr. */
int cli_rule_load(sg_rule *r, char **canon, sg_rule_syntax syntax,
                  const char *opt, const char *text);

/* A positive 63-bit count such as --max. */
int cli_parse_max(uint64_t *out, const char *opt, const char *val);

/* "A:B" with A <= B and B - A < span. */
int cli_parse_range(uint64_t *a, uint64_t *b, const char *opt, const char *text,
                    uint64_t span);

/* Entry points of the commands; argv[0] is the command name. */
int cli_analyse_main(int argc, char **argv);
int cli_verify_main(int argc, char **argv);
int cli_cache_main(int argc, char **argv);
int cli_plot_main(int argc, char **argv);

/* --plot FILE on an analysis (cli_plot.c): check the file's extension
 * before computing (exit status 2 when it is not .png, .svg or .pdf;
 * `opt` names the option in the message), then draw the analysed rule
 * over its default range; both return an exit status after one error
 * line. */
int cli_plot_check_path(const char *opt, const char *path);
int cli_plot_analysis(const char *path, const sg_rule *r, const sg_result *res,
                      const sg_seq *s);

#endif
