/*
 * record.c - the one output layer: every command writes its answer as a
 * record through these calls, so that a key is spelt, typed and escaped
 * in one place (docs/JSON.md is the contract).  A record is either text
 * lines (cli_rec_textf) or one JSON object (the keyed calls); a record
 * function writes both forms side by side, each call doing nothing in the
 * other form, so that the text and the JSON of a record are written
 * together and hold the same things.
 *
 * The writer is our own, not jansson: it streams (a JSON Lines record
 * leaves as soon as it ends, with no tree in memory: sweep rows, cache
 * list and --positions appear as each is ready), numbers follow our one
 * rule (integers up to 2^53 - 1, decimal strings beyond; heaps always
 * strings) without a library's ideas of integer width, and the text form
 * comes from the same calls.  It is two hundred lines; a library would add
 * a dependency and a tree for the same output.
 *
 * Writes are checked once, at the end of the command (cli_stdout_finish):
 * a record only flushes, so a full disk is reported once.
 */
#define _DEFAULT_SOURCE
#include "cli.h"

#include <stdarg.h>
#include <string.h>

/* The largest integer written as a JSON number: every parser, JavaScript
 * included, holds it exactly. */
#define JSON_SAFE_MAX ((UINT64_C(1) << 53) - 1)

void cli_rec_begin(cli_rec *r, FILE *f, int json)
{
    memset(r, 0, sizeof *r);
    if (json && f == stdout)
        cli_rec_stdout = 1;
    r->f = f;
    r->json = json;
    if (json)
        fputc('{', f);
}

void cli_rec_end(cli_rec *r)
{
    if (r->json) {
        while (r->depth > 0)
            cli_rec_close(r);
        fputs("}\n", r->f);
    }
    fflush(r->f);
}

/* The separator and key of the next member ("," and "key":). */
static void member(cli_rec *r, const char *key)
{
    if (r->comma[r->depth])
        fputc(',', r->f);
    r->comma[r->depth] = 1;
    if (key) {
        cli_json_string(r->f, key);
        fputc(':', r->f);
    }
}

static void open_with(cli_rec *r, const char *key, char c)
{
    if (!r->json)
        return;
    member(r, key);
    fputc(c, r->f);
    if (r->depth + 1 < CLI_REC_DEPTH) {
        r->depth++;
        r->comma[r->depth] = 0;
        r->closer[r->depth] = c == '{' ? '}' : ']';
    }
}

void cli_rec_obj(cli_rec *r, const char *key)
{
    open_with(r, key, '{');
}

void cli_rec_arr(cli_rec *r, const char *key)
{
    open_with(r, key, '[');
}

void cli_rec_close(cli_rec *r)
{
    if (!r->json || r->depth == 0)
        return;
    fputc(r->closer[r->depth], r->f);
    r->depth--;
}

void cli_rec_str(cli_rec *r, const char *key, const char *s)
{
    if (!r->json)
        return;
    member(r, key);
    if (s)
        cli_json_string(r->f, s);
    else
        fputs("null", r->f);
}

void cli_rec_strf(cli_rec *r, const char *key, const char *fmt, ...)
{
    char buf[256];
    va_list ap;

    if (!r->json)
        return;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    cli_rec_str(r, key, buf);
}

void cli_rec_null(cli_rec *r, const char *key)
{
    cli_rec_str(r, key, NULL);
}

void cli_rec_bool(cli_rec *r, const char *key, int b)
{
    if (!r->json)
        return;
    member(r, key);
    fputs(b ? "true" : "false", r->f);
}

void cli_rec_uint(cli_rec *r, const char *key, uint64_t v)
{
    if (!r->json)
        return;
    member(r, key);
    if (v <= JSON_SAFE_MAX)
        fprintf(r->f, "%llu", (unsigned long long)v);
    else
        fprintf(r->f, "\"%llu\"", (unsigned long long)v);
}

void cli_rec_uint_or_null(cli_rec *r, const char *key, int have, uint64_t v)
{
    if (have)
        cli_rec_uint(r, key, v);
    else
        cli_rec_null(r, key);
}

void cli_rec_int(cli_rec *r, const char *key, long v)
{
    if (!r->json)
        return;
    member(r, key);
    fprintf(r->f, "%ld", v);
}

void cli_rec_real(cli_rec *r, const char *key, double v)
{
    if (!r->json)
        return;
    member(r, key);
    fprintf(r->f, "%.3f", v);
}

void cli_rec_mpz(cli_rec *r, const char *key, const mpz_t x)
{
    if (!r->json)
        return;
    if (mpz_sgn(x) >= 0 && mpz_sizeinbase(x, 2) <= 53) {
        cli_rec_uint(r, key, (uint64_t)mpz_get_ui(x));
        return;
    }
    cli_rec_heap(r, key, x);
}

void cli_rec_heap(cli_rec *r, const char *key, const mpz_t x)
{
    if (!r->json)
        return;
    member(r, key);
    fputc('"', r->f);
    mpz_out_str(r->f, 10, x);
    fputc('"', r->f);
}

void cli_rec_textf(cli_rec *r, const char *fmt, ...)
{
    va_list ap;

    if (r->json)
        return;
    va_start(ap, fmt);
    vfprintf(r->f, fmt, ap);
    va_end(ap);
}

void cli_rec_text_mpz(cli_rec *r, const mpz_t x)
{
    if (!r->json)
        mpz_out_str(r->f, 10, x);
}
