/*
 * cmd_analyse.c - `sgexplore RULE [options]`: analyse one rule through the
 * cache, print the proven (or honestly unresolved) period, and answer
 * --heap, --position, --positions and --values questions, as text or as
 * the JSON object docs/JSON.md specifies.
 */
#define _DEFAULT_SOURCE
#include "cli.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const cli_opt analyse_opts[] = {
    {"--max", NULL, "N", "compute at most N values (default: by rule)"},
    {"--seconds", NULL, "S", "stop computing after S seconds"},
    {"--heap", NULL, "N", "G(N) for any N, e.g. 10^18 (repeatable)"},
    {"--position", NULL, "A,B,...", "nim-sum, winner and a winning move"},
    {"--positions", NULL, "FILE|-",
     "one position per line; one answer line each"},
    {"--values", NULL, "A:B", "G(n) for A <= n <= B"},
    {"--quiet", NULL, NULL,
     "only the answers asked for (none: one status line)"},
    {"--plot", NULL, "FILE", "also draw G(n) (.png, .svg or .pdf)"},
    {"--export-certificate", NULL, "FILE", "write the proof's certificate"},
    {"--deep", NULL, NULL, "go past memory: keep a window, checkpoint"},
    {"--window", NULL, "N", "with --deep: values kept at each end (2^20)"},
    {"--checkpoint", NULL, "S",
     "with --deep: seconds between checkpoints (300)"},
    {NULL, NULL, NULL, NULL},
};

static int analyse_run(const cli_command *self, cli_args *a);

const cli_command cli_cmd_analyse = {
    "",
    "RULE [OPTIONS]\nCOMMAND [ARGS]",
    "Compute the Sprague-Grundy values of a heap game, prove their period\n"
    "with a named theorem, and answer questions about heaps of any size.",
    CLI_CMD_RULE | CLI_CMD_CACHE | CLI_CMD_EXIT3,
    analyse_opts,
    analyse_run,
};

/* One position: its answer as text or one JSON value.  Returns 0, or
 * EXIT_UNKNOWN (a heap has no known value), or a runtime failure. */
static int answer_position(FILE *f, const cli_flow *fl, const mpz_t *h,
                           size_t n, int json, int line_mode,
                           const char *text)
{
    sg_position pos;
    mpz_t tmp;
    size_t i;
    int unknown = 0, rc = EXIT_DONE;

    mpz_init(tmp);
    for (i = 0; i < n; i++)
        if (sg_value_at(tmp, &fl->res, &fl->seq, h[i]) != SG_OK)
            unknown = 1;
    mpz_clear(tmp);
    sg_position_init(&pos);
    if (!unknown) {
        sg_status st = sg_position_analyse(&pos, &fl->r.rule, &fl->res,
                                           &fl->seq, h, n);
        if (st == SG_E_UNKNOWN) {
            unknown = 1;
        } else if (st != SG_OK) {
            cli_error("position '%s': out of memory", cli_quote(text));
            sg_position_clear(&pos);
            return EXIT_RUNTIME;
        }
    }
    if (json && line_mode) {
        fputs("{\"heaps\":[", f);
        for (i = 0; i < n; i++) {
            if (i)
                fputc(',', f);
            cli_json_mpz(f, h[i]);
        }
        fputs("],\"position\":", f);
        cli_position_json(f, unknown ? NULL : &pos);
        fputs("}\n", f);
    } else if (json) {
        cli_position_json(f, unknown ? NULL : &pos);
    } else if (unknown) {
        fprintf(f, "%s%sunknown (a heap lies beyond the %llu values "
                   "computed, and no period is proven)\n",
                line_mode ? text : "position", line_mode ? ": " : ": ",
                (unsigned long long)fl->seq.n);
    } else if (line_mode) {
        fprintf(f, "%s: nim-sum ", text);
        mpz_out_str(f, 10, pos.nim_sum);
        fprintf(f, ", winner %s", pos.first_wins ? "first" : "second");
        if (pos.move_heap >= 0) {
            int k;
            fprintf(f, ", move heap #%ld take ", pos.move_heap);
            mpz_out_str(f, 10, pos.move.take);
            fputs(" leaving", f);
            if (pos.move.nleft == 0)
                fputs(" nothing", f);
            for (k = 0; k < pos.move.nleft; k++) {
                fputs(k ? " + " : " ", f);
                mpz_out_str(f, 10, pos.move.left[k]);
            }
        }
        fputc('\n', f);
    } else {
        cli_position_text(f, &pos, h);
    }
    if (unknown)
        rc = EXIT_UNKNOWN;
    sg_position_clear(&pos);
    return rc;
}

/* --positions FILE|-: parse every line first (an error names its line and
 * nothing is answered), then answer each. */
static int answer_positions_file(const cli_flow *fl, const char *path,
                                 int json)
{
    FILE *in = strcmp(path, "-") == 0 ? stdin : fopen(path, "r");
    cli_position_item *items = NULL;
    size_t count = 0, i;
    int rc, unknown = 0;

    if (!in) {
        cli_error("--positions '%s': %s", cli_quote(path),
                  errno == ENOMEM ? "out of memory" : strerror(errno));
        return EXIT_RUNTIME;
    }
    rc = cli_positions_read(&items, &count, in, path);
    if (in != stdin)
        fclose(in);
    for (i = 0; i < count && !rc; i++) {
        int r = answer_position(stdout, fl, (const mpz_t *)items[i].h,
                                items[i].n, json, 1, items[i].text);
        if (r == EXIT_UNKNOWN)
            unknown = 1;
        else if (r)
            rc = r;
    }
    cli_positions_free(items, count);
    return rc ? rc : unknown ? EXIT_UNKNOWN : EXIT_DONE;
}

/* Write the certificate of a proven result to path, replacing the file
 * only once the new one is complete. */
static int export_certificate(const char *path, const cli_flow *fl)
{
    char *text;
    char *tmp;
    FILE *f;
    int ok;

    if (fl->res.status == SG_UNRESOLVED) {
        cli_error("--export-certificate: no period is proven, so there is "
                  "no certificate to write");
        return EXIT_UNKNOWN;
    }
    if (!(text = sg_certificate_format(fl->r.canon, &fl->res))) {
        cli_error("--export-certificate: out of memory");
        return EXIT_RUNTIME;
    }
    if (!(tmp = malloc(strlen(path) + 32))) {
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
        cli_error("--export-certificate: cannot write '%s': %s",
                  cli_quote(path),
                  errno == ENOMEM ? "out of memory" : strerror(errno));
        remove(tmp);
    }
    free(tmp);
    free(text);
    return ok ? EXIT_DONE : EXIT_RUNTIME;
}

/* A --heap answer beyond what is known: how far it was computed and a
 * command that goes further, only one the tool accepts (values that fit
 * in memory were computed already, unless --seconds ran out). */
static void heap_unknown_text(const cli_flow *fl, const char *given,
                              const mpz_t n)
{
    mpz_t end;

    printf("G(%s) = unknown (no period is proven and only G(0..%llu) were "
           "computed",
           given, (unsigned long long)(fl->seq.n ? fl->seq.n - 1 : 0));
    mpz_init(end);
    mpz_add_ui(end, n, 1);
    if (fl->budget_spent) {
        fputs("; --seconds ran out first, and a rerun continues from the "
              "stored values",
              stdout);
    } else if (cli_reach(&fl->r.rule, end) == CLI_REACH_DEEP) {
        fputs("; they would not fit in memory, but a deep run keeps only "
              "their ends: try: sgexplore '",
              stdout);
        fputs(fl->r.canon, stdout);
        fputs("' --deep --max ", stdout);
        mpz_out_str(stdout, 10, end);
        fputs(" --heap ", stdout);
        mpz_out_str(stdout, 10, n);
        fputs(" (docs/DEEP.md)", stdout);
    } else if (sg_sparse_applicable(&fl->r.rule)) {
        fputs("; reaching it needs more values than memory holds and than "
              "a deep run computes (2^48)",
              stdout);
    } else {
        fputs("; reaching it needs more values than this machine's memory "
              "holds",
              stdout);
    }
    fputs(")\n", stdout);
    mpz_clear(end);
}

/* --quiet without a question: one line a script or a shell loop can keep
 * (the whole report is what the run without --quiet is for). */
static void quiet_status(const cli_flow *fl)
{
    const sg_result *res = &fl->res;

    printf("%s: ", fl->r.canon);
    if (res->status == SG_UNRESOLVED) {
        printf("unresolved (no period proven for n < %llu)\n",
               (unsigned long long)fl->seq.n);
        return;
    }
    printf("%s (proven), pre-period %llu, period %llu",
           sg_period_status_name(res->status),
           (unsigned long long)res->preperiod,
           (unsigned long long)res->period);
    if (res->status == SG_ARITH_PERIODIC)
        printf(", saltus %llu", (unsigned long long)res->saltus);
    putchar('\n');
}

static int analyse_run(const cli_command *self, cli_args *a)
{
    cli_flow fl;
    size_t nheaps = cli_count(a, "--heap"), npos = 0, i;
    mpz_t *heaps = NULL, *pos_heaps = NULL, va, vb;
    const char *position = cli_get(a, "--position");
    const char *positions = cli_get(a, "--positions");
    const char *values = cli_get(a, "--values");
    const char *plot = cli_get(a, "--plot");
    const char *cert = cli_get(a, "--export-certificate");
    int json = cli_json(a), quiet = cli_get(a, "--quiet") != NULL;
    int rc = EXIT_DONE, unknown = 0, k;
    uint64_t upto = 0;
    cli_view view;

    (void)self;
    cli_flow_init(&fl);
    mpz_init(va);
    mpz_init(vb);
    if (cli_npos(a) > 1) {
        cli_error("one rule at a time: '%s' is one argument too many (try "
                  "sgexplore --help)",
                  cli_quote(cli_pos(a, 1)));
        rc = EXIT_USAGE;
        goto out;
    }
    if (cli_get(a, "--deep")) {
        rc = cli_deep_run(a);
        goto out;
    }
    if (cli_get(a, "--window") || cli_get(a, "--checkpoint")) {
        cli_error("%s goes with --deep only",
                  cli_get(a, "--window") ? "--window" : "--checkpoint");
        rc = EXIT_USAGE;
        goto out;
    }
    if (plot && sg_plot_format_of(plot) == SG_PLOT_UNKNOWN) {
        cli_error("--plot '%s': the image type follows the extension, which "
                  "must be .png, .svg or .pdf",
                  cli_quote(plot));
        rc = EXIT_USAGE;
        goto out;
    }
    if ((plot && (rc = cli_check_folder("--plot", plot))) ||
        (cert && (rc = cli_check_folder("--export-certificate", cert))))
        goto out;
    /* Every question is checked before anything is computed. */
    if (nheaps && !(heaps = calloc(nheaps, sizeof *heaps))) {
        cli_error("out of memory");
        rc = EXIT_RUNTIME;
        goto out;
    }
    for (i = 0; i < nheaps; i++) {
        mpz_init(heaps[i]);
        if ((rc = cli_parse_bignum(heaps[i], "--heap",
                                   cli_get_nth(a, "--heap", i)))) {
            while (++i < nheaps)
                mpz_init(heaps[i]);
            goto out;
        }
    }
    if (position &&
        (rc = cli_parse_heaps(&pos_heaps, &npos, position, "--position")))
        goto out;
    if (values) {
        if ((rc = cli_parse_range(va, vb, "--values", values, 100000000)))
            goto out;
        if (mpz_sizeinbase(vb, 2) < 63)
            upto = (uint64_t)mpz_get_ui(vb) + 1;
    }
    /* --heap and --position extend an unresolved rule as --values does */
    for (i = 0; i < nheaps + npos; i++) {
        const mpz_t *h = i < nheaps ? &heaps[i] : &pos_heaps[i - nheaps];
        if (mpz_sizeinbase(*h, 2) < 63 && mpz_get_ui(*h) >= fl.want)
            fl.want = (uint64_t)mpz_get_ui(*h) + 1;
    }
    if ((rc = cli_flow_run(&fl, a, 0, upto)))
        goto out;

    cli_flow_view(&view, &fl);
    if ((rc = cli_view_prepare(&view)))
        goto out;

    if (positions) {
        rc = answer_positions_file(&fl, positions, json);
        goto after;
    }
    if (json) {
        fputc('{', stdout);
        cli_view_json(stdout, &view, !values);
        if (values)
            cli_values_json(stdout, &fl.res, &fl.seq, va, vb);
        if (nheaps) {
            mpz_t y;
            mpz_init(y);
            fputs(",\"heaps\":[", stdout);
            for (i = 0; i < nheaps; i++) {
                fprintf(stdout, "%s{\"heap\":", i ? "," : "");
                cli_json_mpz(stdout, heaps[i]);
                fputs(",\"value\":", stdout);
                if (sg_value_at(y, &fl.res, &fl.seq, heaps[i]) == SG_OK) {
                    cli_json_mpz(stdout, y);
                } else {
                    fputs("null", stdout);
                    unknown = 1;
                }
                fputc('}', stdout);
            }
            fputc(']', stdout);
            mpz_clear(y);
        }
        if (position)
            fputs(",\"position\":", stdout);
    } else {
        if (!quiet)
            cli_view_text(stdout, &view);
        else if (!nheaps && !position && !values)
            quiet_status(&fl);
        if (values) /* unknown values are printed as such */
            cli_values_text(stdout, &fl.res, &fl.seq, va, vb);
        for (i = 0; i < nheaps; i++) {
            mpz_t y;
            mpz_init(y);
            if (sg_value_at(y, &fl.res, &fl.seq, heaps[i]) == SG_OK) {
                printf("G(%s) = ", cli_get_nth(a, "--heap", i));
                mpz_out_str(stdout, 10, y);
                putchar('\n');
            } else {
                heap_unknown_text(&fl, cli_get_nth(a, "--heap", i), heaps[i]);
                unknown = 1;
            }
            mpz_clear(y);
        }
    }
    /* The position's answer ends either report. */
    if (position) {
        k = answer_position(stdout, &fl, (const mpz_t *)pos_heaps, npos, json,
                            0, position);
        if (k == EXIT_UNKNOWN)
            unknown = 1;
        else if (k) {
            rc = k; /* out of memory: said, and no answer printed */
            goto after;
        }
    }
    if (json)
        fputs("}\n", stdout);
    if (unknown)
        rc = EXIT_UNKNOWN;
after:
    if (plot) { /* drawn after the report */
        k = cli_plot_flow(plot, &fl);
        if (k)
            rc = k;
    }
    if (cert) {
        k = export_certificate(cert, &fl);
        if (k)
            rc = k;
    }
out:
    if (heaps) {
        for (i = 0; i < nheaps; i++)
            mpz_clear(heaps[i]);
        free(heaps);
    }
    if (pos_heaps)
        cli_heaps_free(pos_heaps, npos);
    mpz_clear(va);
    mpz_clear(vb);
    rc = cli_flow_finish(&fl, rc);
    cli_flow_clear(&fl);
    return rc;
}
