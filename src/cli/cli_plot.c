/*
 * cli_plot.c - `sgexplore plot`: draw one rule's values with gnuplot
 * (`plot RULE -o FILE [--range A:B]`), or the periods and pre-periods of
 * every cached rule (`plot --cache -o FILE [--family F]`); and the helper
 * behind `--plot FILE` on an analysis.  The drawing is done by libsg
 * (src/plot.c); this file handles arguments and messages.
 */
#define _DEFAULT_SOURCE
#include "cli.h"
#include "cli_store.h"

#include <stdlib.h>
#include <string.h>

/* Widest --range drawn (the values are read twice, so this bounds the
 * time; 10^8 values take well under a second). */
#define MAX_RANGE 1000000000ULL

static void usage(FILE *f)
{
    fputs("Usage: sgexplore plot RULE -o FILE [--range A:B] [--max N]\n"
          "                      [--db PATH | --no-cache] [--template FILE]\n"
          "       sgexplore plot --cache -o FILE [--family F] [--db PATH]\n"
          "                      [--template FILE]\n"
          "Draw G(n) of a rule, or the periods of the cached rules, with\n"
          "gnuplot.  The image type follows the extension of FILE: .png,\n"
          ".svg or .pdf.  RULE is any code or canonical form (0.77,\n"
          "subtract{1,3,4}, 4!.0, grundy), or one of the rule options\n"
          "--subtract, --all-but, --octal, --hex, --rule, --grundy.\n"
          "--template uses an edited copy of plots/sequence.gp or\n"
          "plots/results.gp.  gnuplot is $SGEXPLORE_GNUPLOT, else gnuplot\n"
          "on the PATH (Debian/Ubuntu package gnuplot-nox).\n",
          f);
}

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

int cli_plot_check_path(const char *opt, const char *path)
{
    if (sg_plot_format_of(path) == SG_PLOT_UNKNOWN) {
        cli_error("%s '%s': the image type follows the extension, which "
                  "must be .png, .svg or .pdf",
                  opt, path);
        return EXIT_USAGE;
    }
    return EXIT_DONE;
}

int cli_plot_analysis(const char *path, const sg_rule *r, const sg_result *res,
                      const sg_seq *s)
{
    sg_plot_options opt;
    sg_error err;
    uint64_t a, b;

    if (s->n == 0)
        return EXIT_DONE;
    memset(&opt, 0, sizeof opt);
    default_range(&a, &b, res, s);
    if (sg_plot_sequence(path, r, res, s, a, b, &opt, &err))
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

    if (l->n == l->cap) {
        size_t cap = l->cap ? 2 * l->cap : 256;
        sg_plot_result *ni = realloc(l->items, cap * sizeof *ni);
        if (!ni) {
            l->nomem = 1;
            return 1;
        }
        l->items = ni;
        l->cap = cap;
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

static int plot_cache(const char *out, const char *family, const char *db_opt,
                      const sg_plot_options *opt)
{
    static const char *const families[] = {"subtract", "all-but", "octal",
                                           "hex"};
    result_list l = {NULL, 0, 0, 0};
    sg_store *db = NULL;
    sg_error err;
    char *path, title[256];
    size_t i;
    int rc = EXIT_DONE, ok = !family;

    for (i = 0; family && i < sizeof families / sizeof *families; i++)
        ok |= strcmp(family, families[i]) == 0;
    if (!ok) {
        cli_error("--family '%s': expected subtract, all-but, octal or hex",
                  family);
        return EXIT_USAGE;
    }
    path = cli_cache_path(db_opt);
    if (!path) {
        cli_error("no cache location: give --db PATH or set SGEXPLORE_DB "
                  "or HOME");
        return EXIT_RUNTIME;
    }
    if (sg_store_open(&db, path, SG_STORE_READONLY, &err)) {
        free(path);
        return report(NULL, &err);
    }
    if (sg_store_list(db, NULL, family, collect, &l, &err)) {
        rc = report(NULL, &err);
    } else if (l.nomem) {
        cli_error("out of memory");
        rc = EXIT_RUNTIME;
    } else {
        const char *base = strrchr(path, '/');
        snprintf(title, sizeof title, "cached rules in %s%s%s",
                 base ? base + 1 : path, family ? ", family " : "",
                 family ? family : "");
        if (sg_plot_results(out, title, l.items, l.n, opt, &err))
            rc = report("plot", &err);
    }
    for (i = 0; i < l.n; i++)
        free((char *)l.items[i].rule);
    free(l.items);
    sg_store_close(db);
    free(path);
    return rc;
}

/* ------------------------------------------------------------------ */
/* plot RULE                                                            */
/* ------------------------------------------------------------------ */

typedef struct options {
    const char *out, *range, *family, *db, *template_file;
    cli_rule_choice rule;
    int cache, no_cache, have_max;
    uint64_t max;
} options;

static const cli_option plot_options[] = {
    CLI_RULE_OPTIONS,
    {"-o", 1},
    {"--output", 1},
    {"--range", 1},
    {"--max", 1},
    {"--cache", 0},
    {"--family", 1},
    {"--db", 1},
    {"--no-cache", 0},
    {"--template", 1},
    {NULL, 0},
};

static int parse_options(options *o, int argc, char **argv)
{
    cli_args a;
    const char *val, *name;
    int k, rc;

    memset(o, 0, sizeof *o);
    cli_args_init(&a, argc, argv, 1, "plot");
    while ((k = cli_args_next(&a, plot_options, &val)) != CLI_ARG_END) {
        if (k == CLI_ARG_ERROR)
            return EXIT_USAGE;
        if (k == CLI_ARG_POSITIONAL) {
            /* The rule, written as any text --rule accepts. */
            cli_rule_option(&o->rule, "--rule", val);
            o->rule.opt = "rule";
            continue;
        }
        name = plot_options[k].name;
        if (cli_rule_option(&o->rule, name, val))
            continue;
        if (strcmp(name, "-o") == 0 || strcmp(name, "--output") == 0) {
            o->out = val;
        } else if (strcmp(name, "--range") == 0) {
            o->range = val;
        } else if (strcmp(name, "--max") == 0) {
            if ((rc = cli_parse_max(&o->max, name, val)))
                return rc;
            o->have_max = 1;
        } else if (strcmp(name, "--cache") == 0) {
            o->cache = 1;
        } else if (strcmp(name, "--family") == 0) {
            o->family = val;
        } else if (strcmp(name, "--db") == 0) {
            o->db = val;
        } else if (strcmp(name, "--no-cache") == 0) {
            o->no_cache = 1;
        } else if (strcmp(name, "--template") == 0) {
            o->template_file = val;
        }
    }
    if (!o->out) {
        cli_error("plot: no output file: give -o FILE (.png, .svg or .pdf)");
        return EXIT_USAGE;
    }
    if (o->cache) {
        if (o->rule.count || o->range || o->have_max || o->no_cache) {
            cli_error("plot --cache takes no rule, --range, --max or "
                      "--no-cache");
            return EXIT_USAGE;
        }
        return EXIT_DONE;
    }
    if (o->family) {
        cli_error("plot: --family goes with --cache");
        return EXIT_USAGE;
    }
    if ((rc = cli_rule_choice_check(&o->rule)))
        return rc;
    if (o->db && o->no_cache) {
        cli_error("--db and --no-cache cannot be combined");
        return EXIT_USAGE;
    }
    return EXIT_DONE;
}

static int plot_rule(const options *o, const sg_plot_options *popt)
{
    sg_rule rule;
    sg_seq seq;
    sg_result res;
    sg_error err;
    sg_enum_options eo = {.cancel = &cli_cancel};
    cli_cache cache;
    char *canon = NULL;
    uint64_t a = 0, b = 0;
    size_t max;
    sg_status st;
    int rc = EXIT_DONE, proven;

    sg_rule_init(&rule);
    sg_seq_init(&seq);
    cli_cache_init(&cache);
    memset(&res, 0, sizeof res);
    if ((rc = cli_rule_load(&rule, &canon, o->rule.syntax, o->rule.opt,
                            o->rule.text)))
        goto out;
    if (o->range &&
        (rc = cli_parse_range(&a, &b, "--range", o->range, MAX_RANGE)))
        goto out;
    max = o->have_max ? (size_t)o->max : sg_default_max(&rule);
    if (o->have_max && sg_seq_check_size(max, &err)) {
        cli_error("--max %llu: %s", (unsigned long long)o->max, err.msg);
        rc = EXIT_USAGE;
        goto out;
    }

    if ((rc = cli_cache_begin(&cache, o->db, o->no_cache, canon, &res, &seq)))
        goto out;
    st = cache.proven ? SG_OK
                      : sg_analyse(&res, &seq, &rule, max, &eo, &err);
    if (st) {
        rc = cli_cache_end(&cache, &rule, canon, &res, &seq, st, NULL, &err);
        goto out;
    }
    proven = res.status != SG_UNRESOLVED;
    if (o->range && b >= seq.n && !proven) {
        /* Values asked for explicitly are computed even past --max. */
        if (sg_seq_check_size((size_t)b + 1, &err)) {
            cli_error("--range %s: %s", o->range, err.msg);
            rc = EXIT_USAGE;
            goto out;
        }
        st = sg_enumerate(&seq, &rule, (size_t)b + 1, &eo, &err);
        res.computed = seq.n;
        if (st) {
            rc = cli_cache_end(&cache, &rule, canon, &res, &seq, st, "--range",
                               &err);
            goto out;
        }
    }
    if (!o->range)
        default_range(&a, &b, &res, &seq);
    if (sg_plot_sequence(o->out, &rule, &res, &seq, a, b, popt, &err))
        rc = report("plot", &err);
    {
        int src =
            cli_cache_end(&cache, &rule, canon, &res, &seq, SG_OK, NULL, NULL);
        if (src && rc == EXIT_DONE)
            rc = src;
    }

out:
    free(canon);
    sg_seq_clear(&seq);
    sg_rule_clear(&rule);
    cli_cache_clear(&cache);
    return rc;
}

int cli_plot_main(int argc, char **argv)
{
    options o;
    sg_plot_options popt;
    int i, rc;

    for (i = 1; i < argc; i++)
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            usage(stdout);
            return EXIT_DONE;
        }
    rc = parse_options(&o, argc, argv);
    if (rc)
        return rc;
    if ((rc = cli_plot_check_path("-o", o.out)))
        return rc;
    memset(&popt, 0, sizeof popt);
    popt.template_file = o.template_file;
    if (o.cache)
        return plot_cache(o.out, o.family, o.db, &popt);
    return plot_rule(&o, &popt);
}
