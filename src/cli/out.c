/*
 * out.c - how the program talks: one-line messages on stderr that never
 * hold half a character, checked writes to stdout (a full disk or a
 * closed pipe is an error, not silence), JSON strings, and the signal
 * flag that long computations poll.
 */
#define _DEFAULT_SOURCE
#include "cli.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

volatile sig_atomic_t cli_cancel = 0;
int cli_out_of_memory = 0;
int cli_rec_stdout = 0;

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

/* The first error of the run, for its JSON object (cli_error_json). */
static struct {
    int json;      /* --json or --format json was asked */
    int have;      /* an error (not a warning) was said */
    long position; /* its 1-based position in the input, or 0 */
    long pending;  /* the position cli_report passes to the next error */
    char msg[1024];
} first_error;

void cli_error(const char *fmt, ...)
{
    va_list ap;

    fputs("sgexplore: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    if (!first_error.have && strncmp(fmt, "warning:", 8) != 0) {
        va_start(ap, fmt);
        vsnprintf(first_error.msg, sizeof first_error.msg, fmt, ap);
        va_end(ap);
        first_error.have = 1;
        first_error.position = first_error.pending;
    }
    first_error.pending = 0;
}

void cli_error_json_mode(int argc, char **argv)
{
    int k;

    for (k = 1; k < argc; k++)
        if (strcmp(argv[k], "--json") == 0 ||
            strcmp(argv[k], "--format=json") == 0 ||
            (strcmp(argv[k], "--format") == 0 && k + 1 < argc &&
             strcmp(argv[k + 1], "json") == 0))
            first_error.json = 1;
}

int cli_error_json(int rc)
{
    static const char *const codes[] = {"done", "runtime", "usage", "unknown"};

    if (!first_error.json || !first_error.have || rc <= 0 || rc > 3 ||
        cli_rec_stdout)
        return rc;
    printf("{\"error\":{\"code\":\"%s\",\"message\":", codes[rc]);
    cli_json_string(stdout, first_error.msg);
    if (first_error.position > 0)
        printf(",\"position\":%ld}}\n", first_error.position);
    else
        printf(",\"position\":null}}\n");
    return rc;
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

/* Length of the valid UTF-8 character at u (1..4), or 0. */
static size_t utf8_len(const unsigned char *u)
{
    return sg_utf8_len((const char *)u, 4);
}

char *cli_escape_dup(const char *text)
{
    size_t n = sg_escape(NULL, 0, text ? text : "", 0);
    char *q = malloc(n + 1);

    if (q)
        sg_escape(q, n + 1, text ? text : "", 0);
    return q;
}

const char *cli_quote(const char *text)
{
    /* A few in rotation, so that one message may quote several texts;
     * each slot keeps its text until the rotation comes back to it. */
    enum { SLOTS = 4, FALLBACK = 256 };
    static char *slot[SLOTS];
    static char fallback[SLOTS][FALLBACK];
    static int next;
    int k = next++ % SLOTS;

    free(slot[k]);
    if ((slot[k] = cli_escape_dup(text)))
        return slot[k];
    /* Out of memory: the text cut visibly ("...") rather than no
     * message. */
    sg_escape(fallback[k], sizeof fallback[k], text ? text : "", 0);
    return fallback[k];
}

int cli_report(const char *what, const char *text, const sg_error *err)
{
    if (err->code == SG_E_INPUT && err->pos >= 0 && text) {
        first_error.pending = err->pos + 1;
        cli_error("%s '%s': %s (at position %ld)", what ? what : "input",
                  cli_quote(text), err->msg, err->pos + 1);
    } else if (what)
        cli_error("%s: %s", what, err->msg);
    else
        cli_error("%s", err->msg);
    return cli_status_exit(err->code);
}

void cli_json_string(FILE *f, const char *s)
{
    const unsigned char *u = (const unsigned char *)s;

    fputc('"', f);
    while (*u) {
        size_t len = utf8_len(u);
        if (len == 0) {
            fputs("\\ufffd", f);
            u++;
        } else if (len == 2 && u[0] == 0xc2 && u[1] < 0xa0) {
            /* U+0080..U+009F, the C1 controls, escaped like C0: a JSON
             * line shown on a terminal must not drive it either. */
            fprintf(f, "\\u%04x", u[1]);
            u += 2;
        } else if (len > 1) {
            fwrite(u, 1, len, f);
            u += len;
        } else {
            if (*u == '"' || *u == '\\')
                fprintf(f, "\\%c", *u);
            else if (*u == '\n')
                fputs("\\n", f);
            else if (*u < 0x20 || *u == 0x7F)
                fprintf(f, "\\u%04x", *u);
            else
                fputc(*u, f);
            u++;
        }
    }
    fputc('"', f);
}

int cli_stdout_finish(int rc)
{
    int failed = fflush(stdout) != 0 || ferror(stdout);
    int e = errno;

    if (!failed && cli_out_of_memory) {
        cli_error("out of memory: the report above is incomplete");
        return EXIT_RUNTIME;
    }
    if (!failed)
        return rc;
    cli_error("cannot write the output: %s", e ? strerror(e) : "write error");
    return EXIT_RUNTIME;
}
