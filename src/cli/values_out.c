/*
 * values_out.c - the sequence out of an analysis: `--values A:B --format
 * csv|bfile|list` (a table, an OEIS b-file "n a(n)", or one list), and
 * `--where V` (the heaps of [A, B] with value V: listed, and counted over
 * any range of a proven rule by its period, which is why the range may
 * then pass the 10^8 heaps of --values).
 */
#include "cli.h"

#include <stdlib.h>
#include <string.h>

/* Heaps --where lists at most; past it (a proven rule over a huge range)
 * the answer is the count and the residues. */
#define WHERE_LIST_MAX 1000000

int cli_seq_format_parse(const char *text, cli_seq_format *f)
{
    if (!text)
        *f = CLI_FMT_NONE;
    else if (strcmp(text, "csv") == 0)
        *f = CLI_FMT_CSV;
    else if (strcmp(text, "bfile") == 0)
        *f = CLI_FMT_BFILE;
    else if (strcmp(text, "list") == 0)
        *f = CLI_FMT_LIST;
    else {
        cli_error("--format '%s': expected csv, bfile or list",
                  cli_quote(text));
        return EXIT_USAGE;
    }
    return EXIT_DONE;
}

/* Whether every G(n), a <= n <= b, is known: the known heaps are a prefix
 * (the computed values) or all of them (a proven period). */
static int all_known(const sg_result *res, const sg_seq *s, const mpz_t b)
{
    mpz_t y;
    int ok;

    mpz_init(y);
    ok = sg_value_at(y, res, s, b) == SG_OK;
    mpz_clear(y);
    return ok;
}

static int unknown_error(const char *what, const mpz_t b)
{
    char *t = mpz_get_str(NULL, 10, b);

    cli_error("%s: G(%s) is unknown (no period is proven and it lies "
              "beyond the computed values; rerun with a larger --max)",
              what, t ? t : "?");
    free(t);
    return EXIT_UNKNOWN;
}

/* One line of a format: item i (0-based) with heap n and value y (y NULL
 * for the heaps of --where). */
static void format_line(FILE *f, cli_seq_format fmt, size_t i, const mpz_t n,
                        const mpz_t y)
{
    mpz_srcptr x = y ? y : n;

    switch (fmt) {
    case CLI_FMT_CSV:
        if (y) {
            mpz_out_str(f, 10, n);
            fputc(',', f);
        }
        mpz_out_str(f, 10, x);
        fputc('\n', f);
        break;
    case CLI_FMT_BFILE:
        if (y) {
            mpz_out_str(f, 10, n);
        } else {
            fprintf(f, "%zu", i + 1); /* the i-th heap: a(1), a(2), ... */
        }
        fputc(' ', f);
        mpz_out_str(f, 10, x);
        fputc('\n', f);
        break;
    case CLI_FMT_LIST:
    case CLI_FMT_NONE:
    default:
        if (i)
            fputs(", ", f);
        mpz_out_str(f, 10, x);
        break;
    }
}

int cli_values_formatted(FILE *f, cli_seq_format fmt, const sg_result *res,
                         const sg_seq *s, const mpz_t a, const mpz_t b)
{
    mpz_t n, y;
    size_t i = 0;

    if (!all_known(res, s, b))
        return unknown_error("--format", b);
    mpz_init_set(n, a);
    mpz_init(y);
    if (fmt == CLI_FMT_CSV)
        fputs("n,G(n)\n", f);
    for (; mpz_cmp(n, b) <= 0; mpz_add_ui(n, n, 1), i++) {
        sg_value_at(y, res, s, n);
        format_line(f, fmt, i, n, y);
    }
    if (fmt == CLI_FMT_LIST)
        fputc('\n', f);
    mpz_clear(n);
    mpz_clear(y);
    return EXIT_DONE;
}

/* How many n in [lo, hi] have n = r mod p (lo <= hi, p >= 1), into c. */
static void count_class(mpz_t c, const mpz_t lo, const mpz_t hi, uint64_t r,
                        uint64_t p)
{
    mpz_t t, u;

    /* floor((hi - r) / p) - floor((lo - 1 - r) / p) */
    mpz_init(t);
    mpz_init(u);
    mpz_sub_ui(t, hi, r);
    mpz_fdiv_q_ui(t, t, p);
    mpz_sub_ui(u, lo, 1);
    mpz_sub_ui(u, u, r);
    mpz_fdiv_q_ui(u, u, p);
    mpz_sub(c, t, u);
    mpz_clear(t);
    mpz_clear(u);
}

/* The answer of a proven plain period over any range: the count, and the
 * residues n mod p (n >= n0) of value v.  Returns the number of residues,
 * written into res_out (p entries at most). */
static size_t where_periodic(mpz_t count, uint64_t *res_out,
                             const sg_result *res, const sg_seq *s,
                             const mpz_t a, const mpz_t b, const mpz_t v)
{
    uint64_t n0 = res->preperiod, p = res->period, i, nr = 0;
    mpz_t lo, c, y, h;

    mpz_init(lo);
    mpz_init(c);
    mpz_init(y);
    mpz_init(h);
    mpz_set_ui(count, 0);
    /* the pre-period, heap by heap */
    for (i = 0; i < n0; i++) {
        mpz_set_ui(h, i);
        if (mpz_cmp(h, a) >= 0 && mpz_cmp(h, b) <= 0 &&
            sg_value_at(y, res, s, h) == SG_OK && mpz_cmp(y, v) == 0)
            mpz_add_ui(count, count, 1);
    }
    mpz_set_ui(lo, n0);
    if (mpz_cmp(lo, a) < 0)
        mpz_set(lo, a);
    for (i = 0; i < p; i++) {
        mpz_set_ui(h, n0 + i);
        if (sg_value_at(y, res, s, h) != SG_OK || mpz_cmp(y, v) != 0)
            continue;
        res_out[nr++] = (n0 + i) % p;
        if (mpz_cmp(lo, b) <= 0) {
            count_class(c, lo, b, (n0 + i) % p, p);
            mpz_add(count, count, c);
        }
    }
    mpz_clear(lo);
    mpz_clear(c);
    mpz_clear(y);
    mpz_clear(h);
    return (size_t)nr;
}

static int cmp_u64(const void *x, const void *y)
{
    uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
    return (a > b) - (a < b);
}

int cli_where_write(cli_rec *r, FILE *f, cli_seq_format fmt,
                    const sg_result *res, const sg_seq *s, const mpz_t a,
                    const mpz_t b, const mpz_t v)
{
    mpz_t n, y, span, count;
    uint64_t *resid = NULL;
    size_t nr = 0, i = 0;
    int periodic = res->status == SG_PERIODIC, list;

    if (!all_known(res, s, b))
        return unknown_error("--where", b);
    mpz_init(n);
    mpz_init(y);
    mpz_init(span);
    mpz_init(count);
    mpz_sub(span, b, a);
    if (!periodic && mpz_cmp_ui(span, 100000000) >= 0) {
        /* heap by heap below: only a plain period counts by residues */
        cli_error("--where: more than 10^8 heaps need a proven plain period "
                  "(this rule's is %s)",
                  res->status == SG_ARITH_PERIODIC ? "arithmetic" : "unknown");
        mpz_clear(n);
        mpz_clear(y);
        mpz_clear(span);
        mpz_clear(count);
        return EXIT_USAGE;
    }
    if (periodic) {
        if (!(resid = malloc((size_t)res->period * sizeof *resid))) {
            cli_error("out of memory");
            mpz_clear(n);
            mpz_clear(y);
            mpz_clear(span);
            mpz_clear(count);
            return EXIT_RUNTIME;
        }
        nr = where_periodic(count, resid, res, s, a, b, v);
        qsort(resid, nr, sizeof *resid, cmp_u64);
    } else {
        /* computed values or an arithmetic period: heap by heap (the
         * range is at most 10^8 heaps here) */
        for (mpz_set(n, a); mpz_cmp(n, b) <= 0; mpz_add_ui(n, n, 1))
            if (sg_value_at(y, res, s, n) == SG_OK && mpz_cmp(y, v) == 0)
                mpz_add_ui(count, count, 1);
    }
    list = mpz_cmp_ui(count, WHERE_LIST_MAX) <= 0;
    if (fmt != CLI_FMT_NONE && !list) {
        char *t = mpz_get_str(NULL, 10, count);
        cli_error("--where: %s heaps are too many to list (at most %d); "
                  "without --format the answer is their count and residues",
                  t ? t : "so many", WHERE_LIST_MAX);
        free(t);
        free(resid);
        mpz_clear(n);
        mpz_clear(y);
        mpz_clear(span);
        mpz_clear(count);
        return EXIT_USAGE;
    }
    if (fmt == CLI_FMT_CSV)
        fputs("n\n", f);
    if (fmt == CLI_FMT_NONE) {
        cli_rec_obj(r, "where");
        cli_rec_heap(r, "value", v);
        cli_rec_heap(r, "start", a);
        cli_rec_heap(r, "end", b);
        cli_rec_mpz(r, "count", count);
        cli_rec_textf(r, "where G(n) = ");
        cli_rec_text_mpz(r, v);
        cli_rec_textf(r, " for ");
        cli_rec_text_mpz(r, a);
        cli_rec_textf(r, " <= n <= ");
        cli_rec_text_mpz(r, b);
        cli_rec_textf(r, ": ");
        cli_rec_text_mpz(r, count);
        cli_rec_textf(r, " heaps\n");
        if (periodic) {
            cli_rec_uint(r, "from", res->preperiod);
            cli_rec_uint(r, "period", res->period);
            cli_rec_arr(r, "residues");
            cli_rec_textf(r, "from n = %llu on: n mod %llu in {",
                          (unsigned long long)res->preperiod,
                          (unsigned long long)res->period);
            for (i = 0; i < nr; i++) {
                cli_rec_uint(r, NULL, resid[i]);
                cli_rec_textf(r, "%s%llu", i ? ", " : "",
                              (unsigned long long)resid[i]);
            }
            cli_rec_close(r);
            cli_rec_textf(r, "}\n");
        } else {
            cli_rec_null(r, "from");
            cli_rec_null(r, "period");
            cli_rec_null(r, "residues");
        }
        if (list) {
            cli_rec_arr(r, "heaps");
            cli_rec_textf(r, "heaps:");
        } else {
            cli_rec_null(r, "heaps");
        }
    }
    for (i = 0, mpz_set(n, a); list && mpz_cmp(n, b) <= 0;
         mpz_add_ui(n, n, 1)) {
        if (periodic && mpz_cmp_ui(n, res->preperiod) >= 0) {
            /* jump to the next heap whose residue has value v */
            uint64_t m = mpz_fdiv_ui(n, res->period), best = UINT64_MAX;
            size_t k;
            for (k = 0; k < nr; k++) {
                uint64_t d = (resid[k] + res->period - m) % res->period;
                if (d < best)
                    best = d;
            }
            if (best == UINT64_MAX)
                break;
            mpz_add_ui(n, n, best);
            if (mpz_cmp(n, b) > 0)
                break;
        } else if (sg_value_at(y, res, s, n) != SG_OK || mpz_cmp(y, v) != 0) {
            continue;
        }
        if (fmt == CLI_FMT_NONE) {
            cli_rec_heap(r, NULL, n);
            cli_rec_textf(r, " ");
            cli_rec_text_mpz(r, n);
        } else {
            format_line(f, fmt, i, n, NULL);
        }
        i++;
    }
    if (fmt == CLI_FMT_LIST)
        fputc('\n', f);
    if (fmt == CLI_FMT_NONE) {
        if (list) {
            cli_rec_close(r);
            cli_rec_textf(r, "\n");
        }
        cli_rec_close(r);
    }
    free(resid);
    mpz_clear(n);
    mpz_clear(y);
    mpz_clear(span);
    mpz_clear(count);
    return EXIT_DONE;
}
