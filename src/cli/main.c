/*
 * main.c - the sgexplore program: the command table and the dispatcher.
 * `sgexplore COMMAND ...` runs a command; anything else (a rule such as
 * 0.77 or kayles, or rule options) is the analysis of one rule.  Each
 * command's --help is generated from its table entry (args.c).
 */
#define _DEFAULT_SOURCE
#include "cli.h"

#include <stdlib.h>
#include <string.h>

#ifndef PACKAGE_VERSION
#define PACKAGE_VERSION "0.1.0"
#endif

/* Every command, the analysis first. */
const cli_command *const cli_commands[] = {
    &cli_cmd_analyse, &cli_cmd_verify,
    &cli_cmd_cache,   &cli_cmd_plot,
    &cli_cmd_graph,   &cli_cmd_sweep,
    &cli_cmd_merge,   &cli_cmd_atlas,
    &cli_cmd_diff,    NULL,
};

/* The program's own --help: the analysis's options and the commands. */
static void usage(FILE *f)
{
    size_t k;

    cli_help(f, &cli_cmd_analyse);
    fputs("\nCommands (sgexplore COMMAND --help for their options):\n", f);
    for (k = 1; cli_commands[k]; k++) {
        /* The first sentence of the summary, rewrapped to 80 columns. */
        const char *s = cli_commands[k]->summary, *p;
        size_t col = 14;
        fprintf(f, "  %-10s  ", cli_commands[k]->name);
        for (p = s;
             *p && !(*p == '.' && (p[1] == ' ' || p[1] == '\n' || !p[1]));) {
            const char *w = p;
            size_t len;
            while (*w == ' ' || *w == '\n')
                w++;
            p = w;
            while (*p && *p != ' ' && *p != '\n' &&
                   !(*p == '.' && (p[1] == ' ' || p[1] == '\n' || !p[1])))
                p++;
            len = (size_t)(p - w);
            if (col + 1 + len > 79) {
                fputs("\n              ", f);
                col = 14;
            } else if (col > 14) {
                fputc(' ', f);
                col++;
            }
            fprintf(f, "%.*s", (int)len, w);
            col += len;
        }
        fputc('\n', f);
    }
}

/* A bare word that is no rule: a mistyped command, most likely. */
static int looks_like_command(const char *w)
{
    sg_rule r;
    sg_error err;
    const char *p;
    int is_rule;

    for (p = w; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
              *p == '-' || *p == '_'))
            return 0;
    if (p == w || w[0] == '-')
        return 0;
    sg_rule_init(&r);
    is_rule = sg_rule_parse(&r, SG_SYNTAX_RULE, w, &err) == SG_OK;
    sg_rule_clear(&r);
    return !is_rule;
}

/* "verify, cache, plot" for messages. */
static const char *command_names(void)
{
    static char buf[256];
    size_t k, o = 0;

    for (k = 1; cli_commands[k] && o < sizeof buf - 32; k++)
        o += (size_t)snprintf(buf + o, sizeof buf - o, "%s%s",
                              k > 1 ? ", " : "", cli_commands[k]->name);
    return buf;
}

/* GMP cannot report an allocation failure to its caller: by default it
 * prints its own message and aborts.  The program says "out of memory"
 * and exits 1 instead, like every other allocation failure; the cache is
 * safe, since an unfinished SQLite transaction is rolled back. */
static void gmp_oom(void)
{
    cli_error("out of memory (GMP)");
    exit(EXIT_RUNTIME);
}

static void *gmp_alloc(size_t n)
{
    void *p = malloc(n);

    if (!p)
        gmp_oom();
    return p;
}

static void *gmp_realloc(void *p, size_t old, size_t n)
{
    void *q = realloc(p, n);

    (void)old;
    if (!q)
        gmp_oom();
    return q;
}

static void gmp_free(void *p, size_t n)
{
    (void)n;
    free(p);
}

static int run(const cli_command *c, int argc, char **argv, int first)
{
    cli_args *a;
    int rc;

    a = cli_args_scan(c, argc, argv, first, &rc);
    if (!a)
        return rc;
    if (cli_args_help(a)) {
        if (c == &cli_cmd_analyse)
            usage(stdout);
        else
            cli_help(stdout, c);
        cli_args_free(a);
        return EXIT_DONE;
    }
    cli_signals_install();
    rc = c->run(c, a);
    cli_args_free(a);
    return rc;
}

/* `--version [--json]`: the version as a line or a JSON object. */
static int version(int argc, char **argv)
{
    int json = argc == 3 && strcmp(argv[2], "--json") == 0;
    cli_rec rec;

    if (argc > 2 && !json) {
        cli_error("--version takes only --json ('%s')", cli_quote(argv[2]));
        return EXIT_USAGE;
    }
    cli_rec_begin(&rec, stdout, json);
    cli_version_write(&rec, PACKAGE_VERSION);
    cli_rec_end(&rec);
    return cli_stdout_finish(EXIT_DONE);
}

/* Whether word is a set expression such as `primes` (a rule argument
 * that needs --subtract), for the hint of the message. */
static int is_set(const char *word)
{
    sg_rule r;
    int ok;

    if (strlen(word) > 64)
        return 0;
    sg_rule_init(&r);
    ok = sg_rule_parse(&r, SG_SYNTAX_SUBTRACT, word, NULL) == SG_OK;
    sg_rule_clear(&r);
    return ok;
}

int main(int argc, char **argv)
{
    size_t k;

    mp_set_memory_functions(gmp_alloc, gmp_realloc, gmp_free);
    cli_error_json_mode(argc, argv);
    if (argc < 2) {
        usage(stderr);
        return EXIT_USAGE;
    }
    if (strcmp(argv[1], "--version") == 0)
        return cli_error_json(version(argc, argv));
    for (k = 1; cli_commands[k]; k++)
        if (strcmp(argv[1], cli_commands[k]->name) == 0)
            return cli_stdout_finish(
                cli_error_json(run(cli_commands[k], argc, argv, 2)));
    if (looks_like_command(argv[1]) && is_set(argv[1])) {
        cli_error("unknown command or rule '%s': a set, whose rules are "
                  "--subtract %s, --all-but %s or 'subtract{%s}'",
                  cli_quote(argv[1]), argv[1], argv[1], argv[1]);
        return cli_stdout_finish(cli_error_json(EXIT_USAGE));
    }
    if (looks_like_command(argv[1])) {
        cli_error("unknown command or rule '%s' (commands: %s; rule names: "
                  "kayles, dawson, officers, grundy, nim; try sgexplore "
                  "--help)",
                  cli_quote(argv[1]), command_names());
        return cli_stdout_finish(cli_error_json(EXIT_USAGE));
    }
    return cli_stdout_finish(
        cli_error_json(run(&cli_cmd_analyse, argc, argv, 1)));
}
