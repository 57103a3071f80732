/*
 * cli_analyse.c - `sgexplore RULE [options]`: analyse one rule, print the
 * proven (or honestly unresolved) period, and answer --heap, --position and
 * --values questions, as text or as the JSON object DESIGN.md specifies.
 */
#define _DEFAULT_SOURCE
#include "cli.h"
#include "cli_store.h" /* cache (issue 4) */

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* Progress of a long computation on stderr, only when it is a terminal:
 * heaps done, values per second, rare values (sparse method) and a rough
 * time left, redrawn at most twice a second after the first second. */
static struct {
    double start, last;
    size_t first;
    int shown;
} progress;

static double progress_clock(void)
{
    struct timespec t;

    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static void progress_show(void *ctx, size_t done, size_t target, size_t rare)
{
    double t = progress_clock(), rate;

    (void)ctx;
    if (progress.start == 0) {
        progress.start = progress.last = t;
        progress.first = done;
        return;
    }
    if (t - progress.start < 1.0 || t - progress.last < 0.5)
        return;
    progress.last = t;
    rate = (double)(done - progress.first) / (t - progress.start);
    fprintf(stderr, "\rcomputing: %zu of %zu values, %.3g/s", done, target,
            rate);
    if (rare)
        fprintf(stderr, ", %zu rare", rare);
    if (rate > 0)
        fprintf(stderr, ", about %.0f s left", (double)(target - done) / rate);
    fputs("   ", stderr);
    progress.shown = 1;
}

/* Start (on a terminal) or stop showing progress, through the options of
 * the enumeration. */
static void progress_enable(sg_enum_options *eo, int on)
{
    if (on && isatty(STDERR_FILENO)) {
        memset(&progress, 0, sizeof progress);
        eo->progress = progress_show;
        return;
    }
    eo->progress = NULL;
    if (progress.shown)
        fputs("\r\033[K", stderr);
    progress.shown = 0;
}

typedef struct options {
    cli_rule_choice rule;
    uint64_t max;
    int have_max;
    const char **heaps;
    size_t nheaps;
    const char *position;
    const char *values;
    int json, quiet, no_cache;
    const char *db, *plot;
    const char *export_cert;
} options;

/* A decimal natural number of any length. */
static int valid_bignum(const char *s, long *bad)
{
    const char *p = s;
    if (!*s) {
        *bad = 0;
        return 0;
    }
    for (; *p; p++)
        if (!isdigit((unsigned char)*p)) {
            *bad = p - s;
            return 0;
        }
    return 1;
}

static const cli_option analyse_options[] = {
    CLI_RULE_OPTIONS,
    {"--max", 1},
    {"--heap", 1},
    {"--position", 1},
    {"--values", 1},
    {"--json", 0},
    {"--quiet", 0},
    {"--no-cache", 0},
    {"--db", 1},
    {"--plot", 1},
    {"--export-certificate", 1},
    {NULL, 0},
};

static int parse_options(options *o, int argc, char **argv)
{
    cli_args a;
    const char *val, *name;
    int k, rc;

    memset(o, 0, sizeof *o);
    o->heaps = calloc((size_t)argc, sizeof *o->heaps);
    if (!o->heaps) {
        cli_error("out of memory");
        return EXIT_RUNTIME;
    }
    cli_args_init(&a, argc, argv, 1, NULL);
    while ((k = cli_args_next(&a, analyse_options, &val)) != CLI_ARG_END) {
        if (k == CLI_ARG_ERROR)
            return EXIT_USAGE;
        if (k == CLI_ARG_POSITIONAL) {
            cli_error("unexpected argument '%s' (try --help)", val);
            return EXIT_USAGE;
        }
        name = analyse_options[k].name;
        if (cli_rule_option(&o->rule, name, val))
            continue;
        if (strcmp(name, "--max") == 0) {
            if ((rc = cli_parse_max(&o->max, name, val)))
                return rc;
            o->have_max = 1;
        } else if (strcmp(name, "--heap") == 0) {
            long bad;
            if (!valid_bignum(val, &bad)) {
                cli_error("--heap '%s': expected a natural number in decimal "
                          "(at position %ld)",
                          val, bad + 1);
                return EXIT_USAGE;
            }
            o->heaps[o->nheaps++] = val;
        } else if (strcmp(name, "--position") == 0) {
            o->position = val;
        } else if (strcmp(name, "--values") == 0) {
            o->values = val;
        } else if (strcmp(name, "--json") == 0) {
            o->json = 1;
        } else if (strcmp(name, "--quiet") == 0) {
            o->quiet = 1;
        } else if (strcmp(name, "--no-cache") == 0) {
            o->no_cache = 1;
        } else if (strcmp(name, "--db") == 0) {
            o->db = val;
        } else if (strcmp(name, "--plot") == 0) {
            o->plot = val;
        } else if (strcmp(name, "--export-certificate") == 0) {
            o->export_cert = val;
        }
    }
    if ((rc = cli_rule_choice_check(&o->rule)))
        return rc;
    if (o->db && o->no_cache) {
        cli_error("--db and --no-cache cannot be combined");
        return EXIT_USAGE;
    }
    return EXIT_DONE;
}

/* Parse "A,B,C" of decimal naturals of any size into mpz heaps. */
static int parse_position(mpz_t **out, size_t *n, const char *text)
{
    const char *p = text;
    size_t cap = 1, k = 0;
    mpz_t *h;

    for (; *p; p++)
        if (*p == ',')
            cap++;
    h = malloc(cap * sizeof *h);
    if (!h) {
        cli_error("out of memory");
        return EXIT_RUNTIME;
    }
    p = text;
    for (;;) {
        const char *q = p;
        while (isdigit((unsigned char)*q))
            q++;
        if (q == p || (*q && *q != ',')) {
            cli_error("--position '%s': expected a comma-separated list of "
                      "heap sizes (at position %ld)",
                      text, (long)(q - text) + 1);
            while (k)
                mpz_clear(h[--k]);
            free(h);
            return EXIT_USAGE;
        }
        {
            char *tmp = strndup(p, (size_t)(q - p));
            mpz_init_set_str(h[k], tmp, 10);
            free(tmp);
            k++;
        }
        if (!*q)
            break;
        p = q + 1;
    }
    *out = h;
    *n = k;
    return EXIT_DONE;
}

static void print_move_text(const sg_position *pos, const mpz_t *heaps)
{
    int i;

    if (pos->move_heap < 0)
        return;
    printf("move: heap #%ld (", pos->move_heap);
    mpz_out_str(stdout, 10, heaps[pos->move_heap]);
    if (mpz_sgn(pos->move.take) == 0) {
        printf("): split into ");
    } else {
        printf("): take ");
        mpz_out_str(stdout, 10, pos->move.take);
        if (pos->move.nleft == 0) {
            printf(", leaving nothing\n");
            return;
        }
        printf(", leaving ");
    }
    for (i = 0; i < pos->move.nleft; i++) {
        if (i)
            printf(" + ");
        mpz_out_str(stdout, 10, pos->move.left[i]);
    }
    printf("\n");
}

static void json_mpz(FILE *f, const mpz_t x)
{
    fputc('"', f);
    mpz_out_str(f, 10, x);
    fputc('"', f);
}

static void json_u64_or_null(FILE *f, int have, uint64_t v)
{
    if (have)
        fprintf(f, "%llu", (unsigned long long)v);
    else
        fputs("null", f);
}

static void print_values_list(FILE *f, const sg_seq *s, uint64_t from,
                              uint64_t to, const char *sep)
{
    uint64_t i;
    for (i = from; i < to; i++)
        fprintf(f, "%s%u", i > from ? sep : "", (unsigned)sg_seq_get(s, i));
}

/* Write the certificate of a proven result to path, replacing the file
 * only once the new one is complete. */
static int export_certificate(const char *path, const char *canon,
                              const sg_result *res)
{
    char *text = sg_certificate_format(canon, res);
    char *tmp;
    FILE *f;
    int ok;

    if (!text) {
        cli_error("--export-certificate: no period is proven, so there is "
                  "no certificate to write");
        return EXIT_UNKNOWN;
    }
    tmp = malloc(strlen(path) + 16);
    if (!tmp) {
        free(text);
        cli_error("out of memory");
        return EXIT_RUNTIME;
    }
    sprintf(tmp, "%s.tmp%ld", path, (long)getpid());
    f = fopen(tmp, "w");
    ok = f && fputs(text, f) >= 0;
    if (f && fclose(f) != 0)
        ok = 0;
    if (ok && rename(tmp, path) != 0)
        ok = 0;
    if (!ok) {
        cli_error("--export-certificate: cannot write '%s': %s", path,
                  strerror(errno));
        remove(tmp);
    }
    free(tmp);
    free(text);
    return ok ? EXIT_DONE : EXIT_RUNTIME;
}

int cli_analyse_main(int argc, char **argv)
{
    options o;
    sg_rule rule;
    sg_seq seq;
    sg_result res;
    sg_error err;
    sg_enum_options eo = {.cancel = &cli_cancel};
    char *canon = NULL;
    int rc = EXIT_DONE, proven;
    size_t max, i;
    sg_status st;
    mpz_t *pos_heaps = NULL, *heap_vals = NULL, *heap_ns = NULL;
    size_t npos = 0;
    sg_position pos;
    int have_pos = 0;
    cli_cache cache; /* cache (issue 4) */
    int heap_unknown = 0, pos_unknown = 0;
    uint64_t va = 0, vb = 0;

    sg_rule_init(&rule);
    sg_seq_init(&seq);
    cli_cache_init(&cache);
    rc = parse_options(&o, argc, argv);
    if (!rc && o.plot) /* plots (issue 6) */
        rc = cli_plot_check_path("--plot", o.plot);
    if (rc)
        goto out;
    if ((rc = cli_rule_load(&rule, &canon, o.rule.syntax, o.rule.opt,
                            o.rule.text)))
        goto out;
    if (o.position && (rc = parse_position(&pos_heaps, &npos, o.position)))
        goto out;
    if (o.values &&
        (rc = cli_parse_range(&va, &vb, "--values", o.values, 100000000)))
        goto out;
    max = o.have_max ? (size_t)o.max : sg_default_max(&rule);
    if (o.have_max && (st = sg_seq_check_size(max, &err))) {
        cli_error("--max %llu: %s", (unsigned long long)o.max, err.msg);
        rc = EXIT_USAGE;
        goto out;
    }
    if (o.values && vb >= max) {
        /* Values asked for explicitly are computed even past --max. */
        if (sg_seq_check_size((size_t)vb + 1, &err)) {
            cli_error("--values %s: %s", o.values, err.msg);
            rc = EXIT_USAGE;
            goto out;
        }
    }

    /* Cache (issue 4): a proven cached rule needs no computing; a cached
     * unresolved prefix is extended; an interrupted run stores its prefix. */
    if ((rc = cli_cache_begin(&cache, o.db, o.no_cache, canon, &res, &seq)))
        goto out;
    progress_enable(&eo, 1);
    st = cache.proven ? SG_OK : sg_analyse(&res, &seq, &rule, max, &eo, &err);
    progress_enable(&eo, 0);
    if (st) {
        rc = cli_cache_end(&cache, &rule, canon, &res, &seq, st, NULL, &err);
        goto out;
    }
    proven = res.status != SG_UNRESOLVED;
    if (o.values && vb >= seq.n && !proven) {
        progress_enable(&eo, 1);
        st = sg_enumerate(&seq, &rule, (size_t)vb + 1, &eo, &err);
        progress_enable(&eo, 0);
        if (st) {
            rc = cli_cache_end(&cache, &rule, canon, &res, &seq, st, "--values",
                               &err);
            goto out;
        }
        res.computed = seq.n;
    }

    /* Answer the questions. */
    if (o.nheaps) {
        heap_ns = malloc(o.nheaps * sizeof *heap_ns);
        heap_vals = malloc(o.nheaps * sizeof *heap_vals);
        if (!heap_ns || !heap_vals) {
            free(heap_ns);
            free(heap_vals);
            heap_ns = heap_vals = NULL;
            cli_error("out of memory");
            rc = EXIT_RUNTIME;
            goto out;
        }
        for (i = 0; i < o.nheaps; i++) {
            mpz_init_set_str(heap_ns[i], o.heaps[i], 10);
            mpz_init(heap_vals[i]);
            if (sg_value_at(heap_vals[i], &res, &seq, heap_ns[i]) != SG_OK) {
                heap_unknown = 1;
                mpz_set_si(heap_vals[i], -1);
            }
        }
    }
    if (o.position) {
        mpz_t tmp;
        mpz_init(tmp);
        for (i = 0; i < npos; i++)
            if (sg_value_at(tmp, &res, &seq, pos_heaps[i]) != SG_OK)
                pos_unknown = 1;
        mpz_clear(tmp);
        sg_position_init(&pos);
        have_pos = 1;
        if (!pos_unknown)
            sg_position_analyse(&pos, &rule, &res, &seq,
                                (const mpz_t *)pos_heaps, npos);
    }

    if (o.json) {
        FILE *f = stdout;
        fputs("{\"rule\":", f);
        cli_json_string(f, canon);
        fputs(",\"family\":", f);
        cli_json_string(f, sg_rule_family(&rule));
        fputs(",\"source\":", f); /* cache (issue 4) */
        cli_json_string(f, cli_cache_source(&cache, &seq));
        fputs(",\"status\":", f);
        cli_json_string(f, sg_period_status_name(res.status));
        fputs(",\"preperiod\":", f);
        json_u64_or_null(f, proven, res.preperiod);
        fputs(",\"period\":", f);
        json_u64_or_null(f, proven, res.period);
        fputs(",\"saltus\":", f);
        json_u64_or_null(f, proven, res.saltus);
        fprintf(f, ",\"computed\":%llu", (unsigned long long)seq.n);
        fputs(",\"certified_to\":", f);
        json_u64_or_null(f, proven, res.certified_to);
        fputs(",\"theorem\":", f);
        if (res.theorem)
            cli_json_string(f, res.theorem);
        else
            fputs("null", f);
        if (proven) {
            fprintf(f,
                    ",\"certificate\":{\"theorem\":\"%s\",\"proof_start\":%llu,"
                    "\"proof_period\":%llu,\"proof_saltus\":%llu,"
                    "\"bound\":%llu,\"checksum\":\"fnv1a64:%016llx\"}",
                    res.theorem_id, (unsigned long long)res.proof_start,
                    (unsigned long long)res.proof_period,
                    (unsigned long long)res.proof_saltus,
                    (unsigned long long)res.certified_to,
                    (unsigned long long)res.checksum);
        }
        if (!proven) {
            fputs(",\"note\":", f);
            cli_json_string(f, res.note ? res.note : "");
        }
        fputs(",\"values\":[", f);
        if (o.values) {
            uint64_t n;
            for (n = va; n <= vb; n++) {
                mpz_t x, y;
                mpz_init_set_ui(x, (unsigned long)n);
                mpz_init(y);
                if (n > va)
                    fputc(',', f);
                if (sg_value_at(y, &res, &seq, x) == SG_OK)
                    mpz_out_str(f, 10, y);
                else
                    fputs("null", f);
                mpz_clear(x);
                mpz_clear(y);
            }
        } else if (proven) {
            print_values_list(f, &seq, 0, res.preperiod + res.period, ",");
        }
        fputc(']', f);
        if (o.nheaps) {
            fputs(",\"heaps\":[", f);
            for (i = 0; i < o.nheaps; i++) {
                fprintf(f, "%s{\"heap\":", i ? "," : "");
                json_mpz(f, heap_ns[i]);
                fputs(",\"value\":", f);
                if (mpz_sgn(heap_vals[i]) < 0)
                    fputs("null", f);
                else
                    json_mpz(f, heap_vals[i]);
                fputc('}', f);
            }
            fputc(']', f);
        }
        if (have_pos) {
            fputs(",\"position\":", f);
            if (pos_unknown) {
                fputs("null", f);
            } else {
                fputs("{\"nim_sum\":", f);
                json_mpz(f, pos.nim_sum);
                fputs(",\"winner\":", f);
                cli_json_string(f, pos.first_wins ? "first" : "second");
                fputs(",\"move\":", f);
                if (pos.move_heap < 0) {
                    fputs("null", f);
                } else {
                    int k;
                    fprintf(f, "{\"heap\":%ld,\"take\":", pos.move_heap);
                    json_mpz(f, pos.move.take);
                    fputs(",\"leaves\":[", f);
                    for (k = 0; k < pos.move.nleft; k++) {
                        if (k)
                            fputc(',', f);
                        json_mpz(f, pos.move.left[k]);
                    }
                    fputs("]}", f);
                }
                fputc('}', f);
            }
        }
        fputs("}\n", f);
    } else {
        int quiet_answers = o.quiet && (o.nheaps || o.position || o.values);
        if (!quiet_answers) {
            printf("rule: %s\n", canon);
            printf("family: %s\n", sg_rule_family(&rule));
            printf("source: %s\n", cli_cache_source(&cache, &seq));
            if (proven) {
                printf("status: %s (proven)\n",
                       sg_period_status_name(res.status));
                printf("preperiod: %llu\n", (unsigned long long)res.preperiod);
                printf("period: %llu\n", (unsigned long long)res.period);
                if (res.status == SG_ARITH_PERIODIC)
                    printf("saltus: %llu\n", (unsigned long long)res.saltus);
                printf("theorem: %s\n", res.theorem);
                printf("certified: G(n+%llu) = G(n)%s checked from n = %llu; "
                       "bound %llu; %llu values computed; checksum "
                       "fnv1a64:%016llx\n",
                       (unsigned long long)res.proof_period,
                       res.proof_saltus ? " + s" : "",
                       (unsigned long long)res.proof_start,
                       (unsigned long long)res.certified_to,
                       (unsigned long long)seq.n,
                       (unsigned long long)res.checksum);
                printf("preperiod values:");
                if (res.preperiod) {
                    putchar(' ');
                    print_values_list(stdout, &seq, 0, res.preperiod, " ");
                } else {
                    printf(" (none)");
                }
                printf("\nperiod values: ");
                print_values_list(stdout, &seq, res.preperiod,
                                  res.preperiod + res.period, " ");
                putchar('\n');
            } else {
                printf("status: unresolved (no period proven for n < %llu)\n",
                       (unsigned long long)seq.n);
                if (res.note)
                    printf("note: %s\n", res.note);
                printf("computed: G(0..%llu)\n",
                       (unsigned long long)(seq.n ? seq.n - 1 : 0));
            }
        }
        if (o.values) {
            uint64_t n;
            for (n = va; n <= vb; n++) {
                mpz_t x, y;
                mpz_init_set_ui(x, (unsigned long)n);
                mpz_init(y);
                if (sg_value_at(y, &res, &seq, x) == SG_OK) {
                    printf("G(%llu) = ", (unsigned long long)n);
                    mpz_out_str(stdout, 10, y);
                    putchar('\n');
                } else {
                    printf("G(%llu) = unknown\n", (unsigned long long)n);
                }
                mpz_clear(x);
                mpz_clear(y);
            }
        }
        for (i = 0; i < o.nheaps; i++) {
            printf("G(%s) = ", o.heaps[i]);
            if (mpz_sgn(heap_vals[i]) < 0)
                printf("unknown (beyond the %llu values computed, and no "
                       "period is proven)\n",
                       (unsigned long long)seq.n);
            else {
                mpz_out_str(stdout, 10, heap_vals[i]);
                putchar('\n');
            }
        }
        if (have_pos) {
            if (pos_unknown) {
                printf("position: unknown (a heap lies beyond the %llu "
                       "values computed, and no period is proven)\n",
                       (unsigned long long)seq.n);
            } else {
                printf("nim-sum: ");
                mpz_out_str(stdout, 10, pos.nim_sum);
                printf("\nwinner: %s\n", pos.first_wins ? "first" : "second");
                if (pos.first_wins && pos.move_heap < 0)
                    printf("move: unknown\n");
                print_move_text(&pos, (const mpz_t *)pos_heaps);
            }
        }
    }
    if (heap_unknown || pos_unknown)
        rc = EXIT_UNKNOWN;
    if (o.plot) { /* plots (issue 6): draw after the report */
        int prc = cli_plot_analysis(o.plot, &rule, &res, &seq);
        if (prc)
            rc = prc;
    }
    if (o.export_cert) {
        int erc = export_certificate(o.export_cert, canon, &res);
        if (erc)
            rc = erc;
    }
    { /* Cache (issue 4): store what was computed. */
        int src =
            cli_cache_end(&cache, &rule, canon, &res, &seq, SG_OK, NULL, NULL);
        if (src && rc == EXIT_DONE)
            rc = src;
    }

out:
    if (heap_ns) {
        for (i = 0; i < o.nheaps; i++) {
            mpz_clear(heap_ns[i]);
            mpz_clear(heap_vals[i]);
        }
    }
    free(heap_ns);
    free(heap_vals);
    if (have_pos)
        sg_position_clear(&pos);
    if (pos_heaps) {
        for (i = 0; i < npos; i++)
            mpz_clear(pos_heaps[i]);
        free(pos_heaps);
    }
    free(o.heaps);
    free(canon);
    sg_seq_clear(&seq);
    sg_rule_clear(&rule);
    cli_cache_clear(&cache);
    return rc;
}
