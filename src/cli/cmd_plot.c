/*
 * cmd_plot.c - `sgexplore plot`: draw one rule's values with gnuplot
 * (`plot RULE -o FILE [--range A:B]`), or the periods and pre-periods of
 * every cached rule (`plot --cache -o FILE [--family F]`); and the helpers
 * behind `--plot FILE` on an analysis (G(n), or with --misere the misère
 * figure).  The drawing is done by libsg (src/lib/plot*.c); this file
 * handles arguments and messages.
 */
#define _DEFAULT_SOURCE
#include "cli.h"

#include <stdlib.h>
#include <string.h>

/* Widest --range drawn (the values are read twice, so this bounds the
 * time; 10^8 values take well under a second). */
#define MAX_RANGE 1000000000ULL

/* The range of n a figure of one rule shows by default: a proven rule's
 * pre-period and a few periods (at least as far as the proof looked), an
 * unresolved rule's computed values. */
static void default_range(uint64_t *a, uint64_t *b, const sg_result *res,
                          const sg_seq *s)
{
    *a = 0;
    if (res->status != SG_UNRESOLVED && res->period > 0) {
        uint64_t end = res->preperiod + 4 * res->period;
        if (res->certified_to > end)
            end = res->certified_to;
        if (end < 63)
            end = 63;
        *b = end;
    } else {
        *b = s->n ? s->n - 1 : 0;
    }
}

/* Report a failed plot: a missing gnuplot, an unwritable file or
 * gnuplot's own error, as one line. */
static int report(const char *opt, const sg_error *err)
{
    return cli_report(opt, NULL, err);
}

int cli_plot_flow(const char *path, const cli_flow *f)
{
    sg_plot_options opt;
    sg_error err;
    uint64_t a, b;

    if (f->seq.n == 0)
        return EXIT_DONE;
    memset(&opt, 0, sizeof opt);
    default_range(&a, &b, &f->res, &f->seq);
    if (sg_plot_sequence(path, &f->r.rule, &f->res, &f->seq, a, b, &opt, &err))
        return report("--plot", &err);
    return EXIT_DONE;
}

int cli_plot_misere(const char *path, const sg_rule *r, const sg_misere *m)
{
    sg_plot_options opt;
    sg_error err;

    if (m->n == 0)
        return EXIT_DONE;
    memset(&opt, 0, sizeof opt);
    if (sg_plot_misere(path, r, m, &opt, &err))
        return report("--plot", &err);
    return EXIT_DONE;
}

/* ------------------------------------------------------------------ */
/* plot --cache                                                         */
/* ------------------------------------------------------------------ */

typedef struct result_list {
    sg_plot_result *items;
    size_t n, cap;
    int nomem;
} result_list;

static int collect(const sg_store_entry *e, void *arg)
{
    result_list *l = arg;
    sg_plot_result *it;

    if (sg_grow(&l->items, &l->cap, l->n + 1, sizeof *l->items)) {
        l->nomem = 1;
        return 1;
    }
    it = &l->items[l->n];
    it->rule = strdup(e->rule ? e->rule : "");
    if (!it->rule) {
        l->nomem = 1;
        return 1;
    }
    it->status = e->res.status;
    it->preperiod = e->res.preperiod;
    it->period = e->res.period;
    l->n++;
    return 0;
}

static int plot_cache(const char *out, const char *family, const cli_args *a,
                      const sg_plot_options *opt)
{
    static const char *const families[] = {"subtract", "all-but", "octal",
                                           "hex", "take-and-break"};
    result_list l = {NULL, 0, 0, 0};
    sg_store *db = NULL;
    sg_error err;
    char *path, title[256];
    size_t i;
    int rc = EXIT_DONE, ok = !family;

    for (i = 0; family && i < sizeof families / sizeof *families; i++)
        ok |= strcmp(family, families[i]) == 0;
    if (!ok) {
        cli_error("--family '%s': expected subtract, all-but, octal, hex or "
                  "take-and-break",
                  family);
        return EXIT_USAGE;
    }
    if ((rc = cli_cache_open(&db, &path, a, 1))) {
        free(path);
        return rc;
    }
    if (db && sg_store_list(db, NULL, family, collect, &l, &err)) {
        rc = report(NULL, &err);
    } else if (l.nomem) {
        cli_error("out of memory");
        rc = EXIT_RUNTIME;
    } else if (l.n == 0) {
        /* an empty figure would look like an answer: say why there is
         * nothing, as `cache show` does for a rule it does not hold */
        cli_error("plot --cache: no cached rules%s%s in %s%s",
                  family ? " of family " : "", family ? family : "",
                  path ? cli_quote(path) : "(none)",
                  db ? "" : " (no cache file yet)");
        rc = EXIT_RUNTIME;
    } else {
        const char *base = path ? strrchr(path, '/') : NULL;
        snprintf(title, sizeof title, "cached rules in %s%s%s",
                 base   ? base + 1
                 : path ? path
                        : "(none)",
                 family ? ", family " : "", family ? family : "");
        if (sg_plot_results(out, title, l.items, l.n, opt, &err))
            rc = report("plot", &err);
    }
    for (i = 0; i < l.n; i++)
        free((void *)(uintptr_t)l.items[i].rule); /* owned: strdup'd */
    free(l.items);
    sg_store_close(db);
    free(path);
    return rc;
}

/* ------------------------------------------------------------------ */
/* plot RULE                                                            */
/* ------------------------------------------------------------------ */

static const cli_opt plot_opts[] = {
    {"--output", "-o", "FILE", "the image: .png, .svg or .pdf"},
    {"--range", NULL, "A:B", "draw G(A..B) (numbers such as 10^18+100)"},
    {"--max", NULL, "N", "compute at most N values"},
    {"--seconds", NULL, "S", "stop computing after S seconds"},
    {"--cache", NULL, NULL, "draw the periods of every cached rule"},
    {"--family", NULL, "F", "with --cache: one family (as for cache list)"},
    {"--template", NULL, "FILE",
     "an edited copy of plots/sequence.gp or results.gp"},
    {NULL, NULL, NULL, NULL},
};

static int plot_run(const cli_command *self, cli_args *a);

const cli_command cli_cmd_plot = {
    "plot",
    "plot RULE -o FILE [--range A:B] [--max N] [--template FILE]\n"
    "plot --cache -o FILE [--family F] [--template FILE]",
    "Draw G(n) of a rule, or the periods of the cached rules.  gnuplot\n"
    "draws them ($SGEXPLORE_GNUPLOT, else gnuplot on the PATH; Debian\n"
    "package gnuplot-nox).  The image type follows the extension of FILE.",
    CLI_CMD_RULE | CLI_CMD_CACHE,
    plot_opts,
    plot_run,
};

static int plot_rule(const cli_args *a, const char *out,
                     const sg_plot_options *popt)
{
    const char *range = cli_get(a, "--range");
    cli_flow fl;
    mpz_t ma, mb;
    uint64_t ra = 0, rb = 0, upto = 0;
    int rc = EXIT_DONE;
    sg_error err;

    cli_flow_init(&fl);
    mpz_init(ma);
    mpz_init(mb);
    if (range) {
        if ((rc = cli_parse_range(ma, mb, "--range", range, MAX_RANGE)))
            goto out;
        if (mpz_sizeinbase(mb, 2) > 63) {
            cli_error("--range '%s': plots reach n < 2^63", cli_quote(range));
            rc = EXIT_USAGE;
            goto out;
        }
        ra = (uint64_t)mpz_get_ui(ma);
        rb = (uint64_t)mpz_get_ui(mb);
        upto = rb + 1;
    }
    if ((rc = cli_flow_run(&fl, a, 0, 0)))
        goto out;
    if (range && !fl.proven &&
        ((rc = cli_flow_extend(&fl, upto, "--range")) ||
         (rc = cli_flow_store(&fl))))
        goto out;
    if (!range)
        default_range(&ra, &rb, &fl.res, &fl.seq);
    if (sg_plot_sequence(out, &fl.r.rule, &fl.res, &fl.seq, ra, rb, popt,
                         &err)) {
        rc = report("plot", &err);
        goto out;
    }
    if (cli_json(a)) {
        cli_view v;
        cli_flow_view(&v, &fl);
        if ((rc = cli_view_prepare(&v)))
            goto out;
        cli_rec rec;
        cli_rec_begin(&rec, stdout, 1);
        cli_view_write(&rec, &v);
        cli_rec_str(&rec, "plot", out);
        cli_rec_arr(&rec, "range"); /* heaps: decimal strings */
        cli_rec_strf(&rec, NULL, "%llu", (unsigned long long)ra);
        cli_rec_strf(&rec, NULL, "%llu", (unsigned long long)rb);
        cli_rec_end(&rec);
    }
out:
    mpz_clear(ma);
    mpz_clear(mb);
    rc = cli_flow_finish(&fl, rc);
    cli_flow_clear(&fl);
    return rc;
}

static int plot_run(const cli_command *self, cli_args *a)
{
    const char *out = cli_get(a, "--output");
    sg_plot_options popt;
    int rc;

    (void)self;
    if (!out) {
        cli_error("plot: no output file: give -o FILE (.png, .svg or .pdf)");
        return EXIT_USAGE;
    }
    if (sg_plot_format_of(out) == SG_PLOT_UNKNOWN) {
        cli_error("-o '%s': the image type follows the extension, which "
                  "must be .png, .svg or .pdf",
                  cli_quote(out));
        return EXIT_USAGE;
    }
    if ((rc = cli_check_folder("-o", out)))
        return rc;
    memset(&popt, 0, sizeof popt);
    popt.template_file = cli_get(a, "--template");
    if (cli_get(a, "--cache")) {
        int present;
        cli_rule r;
        cli_rule_init(&r);
        rc = cli_rule_get(&r, a, 0, 1, &present);
        cli_rule_clear(&r);
        if (rc)
            return rc;
        if (present || cli_get(a, "--range") || cli_get(a, "--max") ||
            cli_get(a, "--no-cache")) {
            cli_error("plot --cache takes no rule, --range, --max or "
                      "--no-cache");
            return EXIT_USAGE;
        }
        rc = plot_cache(out, cli_get(a, "--family"), a, &popt);
        if (!rc && cli_json(a)) {
            cli_rec rec;
            cli_rec_begin(&rec, stdout, 1);
            cli_rec_str(&rec, "plot", out);
            cli_rec_end(&rec);
        }
        return rc;
    }
    if (cli_get(a, "--family")) {
        cli_error("plot: --family goes with --cache");
        return EXIT_USAGE;
    }
    if (cli_npos(a) > 1) {
        cli_error("plot: one rule at a time");
        return EXIT_USAGE;
    }
    return plot_rule(a, out, &popt);
}
