/*
 * main.c - the sgexplore program: dispatches to a command and holds the
 * few helpers every command shares (signals, error printing, JSON
 * strings).  The work itself happens in libsg.
 */
#define _DEFAULT_SOURCE
#include "cli.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#ifndef PACKAGE_VERSION
#define PACKAGE_VERSION "0.1.0"
#endif

volatile sig_atomic_t cli_cancel = 0;

static void on_signal(int sig)
{
    (void)sig;
    cli_cancel = 1;
}

void cli_signals_install(void)
{
    struct sigaction sa;

    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
}

void cli_error(const char *fmt, ...)
{
    va_list ap;

    fputs("sgexplore: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}

int cli_status_exit(sg_status st)
{
    switch (st) {
    case SG_OK:
        return EXIT_DONE;
    case SG_E_INPUT:
        return EXIT_USAGE;
    case SG_E_UNKNOWN:
        return EXIT_UNKNOWN;
    case SG_E_NOMEM:
    case SG_E_IO:
    case SG_E_INTERRUPTED:
    default:
        return EXIT_RUNTIME;
    }
}

int cli_report(const char *what, const char *text, const sg_error *err)
{
    if (err->code == SG_E_INPUT && err->pos >= 0 && text)
        cli_error("%s '%s': %s (at position %ld)", what, text, err->msg,
                  err->pos + 1);
    else if (what)
        cli_error("%s: %s", what, err->msg);
    else
        cli_error("%s", err->msg);
    return cli_status_exit(err->code);
}

void cli_json_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(f, "\\%c", c);
        else if (c == '\n')
            fputs("\\n", f);
        else if (c < 0x20)
            fprintf(f, "\\u%04x", c);
        else
            fputc(c, f);
    }
    fputc('"', f);
}

static void usage(FILE *f)
{
    fputs(
        "Usage: sgexplore RULE [OPTIONS]\n"
        "       sgexplore COMMAND ...\n"
        "Compute Sprague-Grundy values of a heap game, prove their period,\n"
        "and answer questions about heaps of any size.\n"
        "\n"
        "Rules (exactly one):\n"
        "  --subtract LIST     remove any s in S, e.g. 2,3,5,7,11,13 or 1-3,7\n"
        "  --all-but LIST      remove any positive number but those listed\n"
        "                      ('' is Nim)\n"
        "  --octal CODE        octal take-and-break code, e.g. 0.77, 0.137, "
        "4.07\n"
        "  --hex CODE          hexadecimal code (moves may leave three heaps)\n"
        "  --rule CODE         any code: digits, '!' (unequal heaps), '[..]'\n"
        "                      (repeating tail), or a canonical form such as\n"
        "                      subtract{1,3,4}\n"
        "  --grundy            Grundy's game (4!.0)\n"
        "\n"
        "Options:\n"
        "  --max N             compute at most N values\n"
        "  --heap N            G(N) for any N (repeatable)\n"
        "  --position A,B,...  nim-sum, winner and a winning move\n"
        "  --values A:B        G(n) for A <= n <= B\n"
        "  --json              one JSON object on stdout\n"
        "  --quiet             print only the answers asked for\n"
        "  --db PATH, --no-cache, --plot FILE  (cache and plots)\n"
        "  --export-certificate FILE  write the proof's certificate\n"
        "  --help, --version\n"
        "\n"
        "Commands (COMMAND --help for their options):\n"
        "  verify RULE | --certificate FILE   re-check a proof independently\n"
        "  cache list|show|drop|path           inspect the SQLite cache\n"
        "  plot RULE -o FILE                   draw G(n) with gnuplot\n"
        "\n"
        "Exit status: 0 done, 1 runtime failure, 2 bad input, 3 no proven\n"
        "answer to a --heap/--position question.\n"
        "See sgexplore(1) and docs/THEORY.md.\n",
        f);
}

/* The subcommands, one entry each (the analysis is the default). */
static const struct command {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *usage;
} commands[] = {
    {"verify", cli_verify_main,
     "sgexplore verify RULE [--max N] [--db PATH | --no-cache]\n"
     "       sgexplore verify --certificate FILE [RULE]"},
    {"cache", cli_cache_main,
     "sgexplore cache list [--status S] [--family F] [--format table|json]\n"
     "       sgexplore cache show RULE | drop RULE | path   [--db PATH]"},
    {"plot", cli_plot_main,
     "sgexplore plot RULE -o FILE [--range A:B] [--max N]\n"
     "       sgexplore plot --cache -o FILE [--family F] [--db PATH]"},
    {"graph", cli_graph_main, cli_graph_usage},
};

static int wants_help(int argc, char **argv)
{
    int i;
    for (i = 1; i < argc; i++)
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0)
            return 1;
    return 0;
}

int main(int argc, char **argv)
{
    size_t c;

    if (argc < 2) {
        usage(stderr);
        return EXIT_USAGE;
    }
    for (c = 0; c < sizeof commands / sizeof *commands; c++) {
        if (strcmp(argv[1], commands[c].name) != 0)
            continue;
        if (wants_help(argc - 1, argv + 1)) {
            printf("Usage: %s\n", commands[c].usage);
            return EXIT_DONE;
        }
        cli_signals_install();
        return commands[c].run(argc - 1, argv + 1);
    }
    if (wants_help(argc, argv)) {
        usage(stdout);
        return EXIT_DONE;
    }
    if (strcmp(argv[1], "--version") == 0) {
        printf("sgexplore %s\n", PACKAGE_VERSION);
        return EXIT_DONE;
    }
    if (argv[1][0] != '-') {
        cli_error("unknown command '%s' (try --help)", argv[1]);
        return EXIT_USAGE;
    }
    cli_signals_install();
    return cli_analyse_main(argc, argv);
}
