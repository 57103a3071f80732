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
    EXIT_RUNTIME = 1,   /* I/O, database, out of memory, interrupted */
    EXIT_USAGE = 2,     /* usage or bad input */
    EXIT_UNKNOWN = 3    /* a --heap/--position question has no proven answer */
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

/* Entry points of the commands; argv[0] is the command name. */
int cli_analyse_main(int argc, char **argv);

#endif
