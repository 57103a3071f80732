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
    {"--format", NULL, "FMT",
     "with --values: the values alone, as csv, bfile (OEIS) or list"},
    {"--where", NULL, "V",
     "with --values: the heaps of value V (any range of a proven rule)"},
    {"--misere", NULL, NULL,
     "misere play: genus of heaps, winner of --position(s)"},
    {"--misere-max", NULL, "N", "with --misere: heaps 0..N-1 (default 40)"},
    {"--quotient", NULL, NULL,
     "with --misere: the misere quotient of the heaps below --misere-max"},
    {"--max-order", NULL, "N",
     "with --quotient: stop past N elements (default 1024)"},
    {"--quiet", NULL, NULL,
     "only the answers asked for (none: one status line)"},
    {"--plot", NULL, "FILE",
     "also draw G(n), with --misere G(n) and G-(n) (.png, .svg or .pdf)"},
    {"--export-certificate", NULL, "FILE", "write the proof's certificate"},
    {"--export-proof", NULL, "FILE.v",
     "write a Coq proof script of the period"},
    {"--threads", NULL, "T",
     "threads of the sparse method, 1 to 64 (default: the cores, at most "
     "8)"},
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

/* One position: its answer, as the key "position" of rec or as text
 * (one line with `line_text`, the --positions form).  Returns 0, or
 * EXIT_UNKNOWN (a heap has no known value), or a runtime failure. */
static int answer_position(cli_rec *rec, const cli_flow *fl, const mpz_t *h,
                           size_t n, const char *line_text, const char *text)
{
    sg_position pos;
    mpz_t tmp;
    size_t i;
    int unknown = 0;

    mpz_init(tmp);
    for (i = 0; i < n; i++)
        if (sg_value_at(tmp, &fl->res, &fl->seq, h[i]) != SG_OK)
            unknown = 1;
    mpz_clear(tmp);
    sg_position_init(&pos);
    if (!unknown) {
        sg_status st =
            sg_position_analyse(&pos, &fl->r.rule, &fl->res, &fl->seq, h, n);
        if (st == SG_E_UNKNOWN) {
            unknown = 1;
        } else if (st != SG_OK) {
            cli_error("position '%s': out of memory", cli_quote(text));
            sg_position_clear(&pos);
            return EXIT_RUNTIME;
        }
    }
    cli_position_write(rec, &fl->res, &fl->seq, unknown ? NULL : &pos, h, n,
                       line_text);
    sg_position_clear(&pos);
    return unknown ? EXIT_UNKNOWN : EXIT_DONE;
}

/* --positions FILE|-: parse every line first (an error names its line and
 * nothing is answered), then answer each: one text line or one JSON
 * object ({"position": ...}) per position, each written when ready. */
static int answer_positions_file(const cli_flow *fl, const char *path, int json)
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
        cli_rec rec;
        int r;
        cli_rec_begin(&rec, stdout, json);
        r = answer_position(&rec, fl, (const mpz_t *)items[i].h, items[i].n,
                            items[i].text, items[i].text);
        cli_rec_end(&rec);
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
static void heap_unknown_text(cli_rec *rec, const char *given, const mpz_t n,
                              const void *arg)
{
    const cli_flow *fl = arg;
    mpz_t end;

    cli_rec_textf(rec,
                  "G(%s) = unknown (no period is proven and only "
                  "G(0..%llu) were computed",
                  given, (unsigned long long)(fl->seq.n ? fl->seq.n - 1 : 0));
    mpz_init(end);
    mpz_add_ui(end, n, 1);
    if (fl->budget_spent && fl->db && fl->store_rc == 0 &&
        !sg_store_readonly(fl->db, NULL)) {
        cli_rec_textf(rec, "; --seconds ran out first, and a rerun continues "
                           "from the stored values");
    } else if (fl->budget_spent) {
        /* --no-cache, or the store failed: nothing to continue from */
        cli_rec_textf(rec, "; --seconds ran out first, and nothing was "
                           "stored: a rerun with a cache and more --seconds "
                           "goes further");
    } else if (cli_reach(&fl->r.rule, end) == CLI_REACH_DEEP) {
        cli_rec_textf(rec,
                      "; they would not fit in memory, but a deep run "
                      "keeps only their ends: try: sgexplore '%s' "
                      "--deep --max ",
                      fl->r.canon);
        cli_rec_text_mpz(rec, end);
        cli_rec_textf(rec, " --heap ");
        cli_rec_text_mpz(rec, n);
        cli_rec_textf(rec, " (docs/DEEP.md)");
    } else if (sg_deep_applicable(&fl->r.rule)) {
        cli_rec_textf(rec, "; reaching it needs more values than memory "
                           "holds and than a deep run computes (2^48)");
    } else {
        cli_rec_textf(rec, "; reaching it needs more values than this "
                           "machine's memory holds");
    }
    cli_rec_textf(rec, ")\n");
    mpz_clear(end);
}

/* --quiet without a question: one line a script or a shell loop can keep
 * (the whole report is what the run without --quiet is for). */
static void quiet_status(cli_rec *rec, const cli_flow *fl)
{
    const sg_result *res = &fl->res;

    cli_rec_textf(rec, "%s: ", fl->r.canon);
    if (res->status == SG_UNRESOLVED) {
        cli_rec_textf(rec, "unresolved (no period proven for n < %llu)\n",
                      (unsigned long long)fl->seq.n);
        return;
    }
    cli_rec_textf(rec, "%s (proven), pre-period %llu, period %llu",
                  sg_period_status_name(res->status),
                  (unsigned long long)res->preperiod,
                  (unsigned long long)res->period);
    if (res->status == SG_ARITH_PERIODIC)
        cli_rec_textf(rec, ", saltus %llu", (unsigned long long)res->saltus);
    cli_rec_textf(rec, "\n");
}

/* The questions of one analysis, parsed before anything is computed. */
typedef struct questions {
    size_t nheaps, npos;
    mpz_t *heaps, *pos_heaps, va, vb;
    const char **given; /* the --heap texts */
    const char *position, *positions, *values, *plot, *cert, *proof;
    int json, quiet, where;
    cli_seq_format fmt;
    mpz_t wv; /* --where's value */
    uint64_t upto;
} questions;

static void questions_clear(questions *q)
{
    size_t i;

    if (q->heaps) {
        for (i = 0; i < q->nheaps; i++)
            mpz_clear(q->heaps[i]);
        free(q->heaps);
    }
    free(q->given);
    if (q->pos_heaps)
        cli_heaps_free(q->pos_heaps, q->npos);
    mpz_clear(q->va);
    mpz_clear(q->vb);
    mpz_clear(q->wv);
}

/* Read and check every question (exit status after one error line). */
static int questions_parse(questions *q, const cli_args *a)
{
    size_t i;
    int rc;

    q->nheaps = cli_count(a, "--heap");
    q->position = cli_get(a, "--position");
    q->positions = cli_get(a, "--positions");
    q->values = cli_get(a, "--values");
    q->plot = cli_get(a, "--plot");
    q->cert = cli_get(a, "--export-certificate");
    q->proof = cli_get(a, "--export-proof");
    q->json = cli_json(a);
    q->quiet = cli_get(a, "--quiet") != NULL;
    if (q->plot && sg_plot_format_of(q->plot) == SG_PLOT_UNKNOWN) {
        cli_error("--plot '%s': the image type follows the extension, which "
                  "must be .png, .svg or .pdf",
                  cli_quote(q->plot));
        return EXIT_USAGE;
    }
    if ((q->plot && (rc = cli_check_folder("--plot", q->plot))) ||
        (q->cert && (rc = cli_check_folder("--export-certificate", q->cert))) ||
        (q->proof && (rc = cli_check_folder("--export-proof", q->proof))))
        return rc;
    if (q->nheaps && (!(q->heaps = calloc(q->nheaps, sizeof *q->heaps)) ||
                      !(q->given = calloc(q->nheaps, sizeof *q->given)))) {
        q->nheaps = 0;
        cli_error("out of memory");
        return EXIT_RUNTIME;
    }
    for (i = 0; i < q->nheaps; i++)
        mpz_init(q->heaps[i]);
    for (i = 0; i < q->nheaps; i++) {
        q->given[i] = cli_get_nth(a, "--heap", i);
        if ((rc = cli_parse_bignum(q->heaps[i], "--heap", q->given[i])))
            return rc;
    }
    if (q->position && (rc = cli_parse_heaps(&q->pos_heaps, &q->npos,
                                             q->position, "--position")))
        return rc;
    if ((rc = cli_seq_format_parse(cli_get(a, "--format"), &q->fmt)))
        return rc;
    q->where = cli_get(a, "--where") != NULL;
    if ((q->fmt || q->where) && !q->values) {
        cli_error("%s goes with --values A:B", q->fmt ? "--format" : "--where");
        return EXIT_USAGE;
    }
    if (q->fmt && (q->json || q->nheaps || q->position || q->positions)) {
        cli_error("--format writes the values alone: not with %s",
                  q->json     ? "--json"
                  : q->nheaps ? "--heap"
                              : "--position");
        return EXIT_USAGE;
    }
    if (q->where &&
        (rc = cli_parse_bignum(q->wv, "--where", cli_get(a, "--where"))))
        return rc;
    if (q->values) {
        /* --where counts over any range (by the period): no bound there */
        if ((rc = q->where ? cli_parse_span(q->va, q->vb, "--values", q->values)
                           : cli_parse_range(q->va, q->vb, "--values",
                                             q->values, 100000000)))
            return rc;
        if (mpz_sizeinbase(q->vb, 2) < 27)
            q->upto = (uint64_t)mpz_get_ui(q->vb) + 1;
        else if (mpz_sizeinbase(q->vb, 2) < 63 && !q->where)
            q->upto = (uint64_t)mpz_get_ui(q->vb) + 1;
    }
    return EXIT_DONE;
}

/* The exact misère search of a position, within --seconds (each
 * position gets them whole, as the genus and the quotient get theirs):
 * a search the time stops is SG_E_UNKNOWN, said in err. */
static sg_status misere_search(sg_misere_position *pos, const sg_rule *r,
                               const sg_misere *m, const size_t *heaps,
                               size_t n, double seconds, sg_error *err)
{
    sg_status st;

    cli_budget_start(seconds);
    st = sg_misere_position_analyse(pos, r, m, heaps, n, cli_misere_budget(),
                                    &cli_cancel, err);
    cli_budget_stop();
    if (st == SG_E_INTERRUPTED && cli_cancel == 2) {
        cli_cancel = 0;
        st = sg_error_set(err, SG_E_UNKNOWN, -1,
                          "--seconds ran out in the exact search");
    }
    return st;
}

/* One misère position: its answer as the key "position" of rec, or one
 * text line: by the tame rule when every heap is tame, else by the
 * quotient q (NULL: none) when every heap is within it, else by the
 * search.  Exit status (3 when the search is too large or out of time:
 * said, with the way that decides such sums, the quotient). */
static int misere_position(cli_rec *rec, const cli_rule *rule,
                           const sg_misere *m, const sg_mquot *q,
                           double seconds, const mpz_t *h, size_t n,
                           const char *line, const char *text)
{
    sg_misere_position pos;
    sg_error err;
    size_t *heaps = malloc((n ? n : 1) * sizeof *heaps), i;
    sg_status st = SG_OK;

    if (!heaps) {
        cli_error("out of memory");
        return EXIT_RUNTIME;
    }
    for (i = 0; i < n && st == SG_OK; i++) {
        if (mpz_sizeinbase(h[i], 2) > 40)
            st = sg_error_set(&err, SG_E_UNKNOWN, -1,
                              "too large: a heap past 2^40 is beyond the "
                              "exact misère search");
        else
            heaps[i] = (size_t)mpz_get_ui(h[i]);
    }
    if (st == SG_OK) {
        int tame = 1, inq = q != NULL;
        for (i = 0; i < n; i++) {
            tame &= heaps[i] < m->tame_to;
            inq &= q && heaps[i] <= q->heaps;
        }
        if (!tame && inq)
            st = sg_misere_position_quotient(&pos, &rule->rule, q, heaps, n,
                                             &err);
        else
            st = misere_search(&pos, &rule->rule, m, heaps, n, seconds, &err);
    }
    free(heaps);
    if (st == SG_E_UNKNOWN && !q) {
        cli_error("misère position '%s': %s; --quotient decides sums of "
                  "wild heaps from the misère quotient (try: sgexplore '%s' "
                  "--misere --quotient --position %s)",
                  cli_quote(text), err.msg, rule->canon, cli_quote(text));
        return EXIT_UNKNOWN;
    }
    if (st == SG_E_UNKNOWN) {
        cli_error("misère position '%s': %s; --misere-max past its largest "
                  "heap takes it into the quotient",
                  cli_quote(text), err.msg);
        return EXIT_UNKNOWN;
    }
    if (st != SG_OK) {
        cli_error("misère position '%s': %s", cli_quote(text), err.msg);
        return st == SG_E_UNKNOWN ? EXIT_UNKNOWN
               : st == SG_E_INPUT ? EXIT_USAGE
                                  : EXIT_RUNTIME;
    }
    cli_misere_position_write(rec, &pos, m, h, n, line);
    return EXIT_DONE;
}

/* --misere: the options with no misère meaning, then the normal report,
 * the genus of heaps 0..N-1 (N: --misere-max, else CLI_MISERE_HEAPS) and the
 * positions asked; --plot then draws G(n) beside G-(n) of those heaps. */
static int misere_run(cli_flow *fl, const questions *q, cli_args *a,
                      cli_view *view)
{
    static const char *const none[] = {"--heap", "--values",
                                       "--export-certificate", "--deep",
                                       "--export-proof"};
    cli_misere x;
    size_t i, asked = CLI_MISERE_HEAPS, max_order = CLI_MISERE_MAX_ORDER;
    uint64_t max;
    int rc = EXIT_DONE, k, want_q = cli_get(a, "--quotient") != NULL;
    cli_rec rec;

    for (i = 0; i < sizeof none / sizeof *none; i++)
        if (cli_get(a, none[i])) {
            cli_error("%s has no misère meaning here: --misere answers the "
                      "analysis, --position, --positions and --plot",
                      none[i]);
            return EXIT_USAGE;
        }
    /* --max is the normal-play budget; the heaps are --misere-max's */
    if (cli_get(a, "--misere-max")) {
        if ((rc = cli_parse_count(&max, "--misere-max",
                                  cli_get(a, "--misere-max"))))
            return rc;
        if (max < 1 || max > ((uint64_t)1 << 20)) {
            cli_error("--misere-max: '%s' is not in 1..1048576",
                      cli_quote(cli_get(a, "--misere-max")));
            return EXIT_USAGE;
        }
        asked = (size_t)max;
    }
    if (cli_get(a, "--max-order")) {
        if (!want_q) {
            cli_error("--max-order goes with --quotient");
            return EXIT_USAGE;
        }
        if ((rc = cli_parse_count(&max, "--max-order",
                                  cli_get(a, "--max-order"))))
            return rc;
        if (max < 1 || max > ((uint64_t)1 << 16)) {
            cli_error("--max-order: '%s' is not in 1..65536",
                      cli_quote(cli_get(a, "--max-order")));
            return EXIT_USAGE;
        }
        max_order = (size_t)max;
    }
    if ((rc = cli_flow_run(fl, a, 0, 0)))
        return rc;
    cli_flow_view(view, fl);
    view->open_values = 1;
    if ((rc = cli_view_prepare(view)))
        return rc;
    cli_misere_init(&x);
    if ((rc = cli_misere_compute(&x, fl, asked, want_q, max_order))) {
        cli_misere_clear(&x);
        return rc;
    }
    if (q->positions) {
        FILE *in =
            strcmp(q->positions, "-") == 0 ? stdin : fopen(q->positions, "r");
        cli_position_item *items = NULL;
        size_t count = 0;
        if (!in) {
            cli_error("--positions '%s': %s", cli_quote(q->positions),
                      strerror(errno));
            cli_misere_clear(&x);
            return EXIT_RUNTIME;
        }
        rc = cli_positions_read(&items, &count, in, q->positions);
        if (in != stdin)
            fclose(in);
        for (i = 0; i < count && !rc; i++) {
            cli_rec_begin(&rec, stdout, q->json);
            rc = misere_position(&rec, &fl->r, &x.m, want_q ? &x.quot : NULL,
                                 fl->seconds, (const mpz_t *)items[i].h,
                                 items[i].n, items[i].text, items[i].text);
            cli_rec_end(&rec);
        }
        cli_positions_free(items, count);
        k = x.store_rc;
        if (q->plot) { /* drawn after the answers, as without --misere */
            int pk = cli_plot_misere(q->plot, &fl->r.rule, &x.m);
            if (pk)
                rc = pk;
        }
        cli_misere_clear(&x);
        return rc ? rc : k;
    }
    cli_rec_begin(&rec, stdout, q->json);
    if (q->json || !q->quiet) {
        cli_view_write(&rec, view);
        cli_view_values(&rec, view);
        cli_misere_write(&rec, &x.m, asked, x.stopped, x.gsource);
        if (want_q)
            cli_mquot_write(&rec, &x.quot, x.qstopped, x.qsource);
    } else if (!q->position) { /* --quiet: one status line */
        cli_rec_textf(&rec, "%s: misère genus of heaps 0..%zu, ", fl->r.canon,
                      x.m.n ? x.m.n - 1 : 0);
        if (x.m.tame_to < x.m.n)
            cli_rec_textf(&rec, "first wild heap %zu", x.m.tame_to);
        else
            cli_rec_textf(&rec, "all tame");
        if (want_q)
            cli_rec_textf(&rec, ", quotient of heaps 1..%zu of order %zu%s",
                          x.quot.heaps, x.quot.order,
                          x.qstopped ? " (stopped)" : "");
        cli_rec_textf(&rec, "\n");
    }
    k = EXIT_DONE;
    if (q->position)
        k = misere_position(&rec, &fl->r, &x.m, want_q ? &x.quot : NULL,
                            fl->seconds, (const mpz_t *)q->pos_heaps, q->npos,
                            NULL, q->position);
    cli_rec_end(&rec);
    if (x.qstopped && !q->position) {
        cli_error("misère quotient: heap %zu not finished: %s",
                  x.quot.stopped_at, x.qstopped);
        k = EXIT_UNKNOWN;
    }
    if (k == EXIT_DONE && x.store_rc)
        k = x.store_rc;
    if (q->plot) { /* drawn after the report, as without --misere */
        rc = cli_plot_misere(q->plot, &fl->r.rule, &x.m);
        if (rc)
            k = rc;
    }
    cli_misere_clear(&x);
    return k;
}

/* --heap and --position extend an unresolved rule as --values does. */
static void want_heaps(cli_flow *fl, const questions *q)
{
    size_t i;

    for (i = 0; i < q->nheaps + q->npos; i++) {
        const mpz_t *h =
            i < q->nheaps ? &q->heaps[i] : &q->pos_heaps[i - q->nheaps];
        if (mpz_sizeinbase(*h, 2) < 63 && mpz_get_ui(*h) >= fl->want)
            fl->want = (uint64_t)mpz_get_ui(*h) + 1;
    }
}

/* The analysis's record: the report (unless --quiet with a question),
 * then the answers to --values, --heap and --position.  Exit status. */
static int report(const questions *q, const cli_flow *fl, cli_view *view)
{
    cli_rec rec;
    int unknown = 0, k = EXIT_DONE;

    if (q->fmt) /* the values or heaps alone */
        return q->where ? cli_where_write(NULL, stdout, q->fmt, &fl->res,
                                          &fl->seq, q->va, q->vb, q->wv)
                        : cli_values_formatted(stdout, q->fmt, &fl->res,
                                               &fl->seq, q->va, q->vb);
    cli_rec_begin(&rec, stdout, q->json);
    if (q->json || !q->quiet)
        cli_view_write(&rec, view);
    else if (!q->nheaps && !q->position && !q->values)
        quiet_status(&rec, fl);
    if (!q->quiet && fl->res.status == SG_UNRESOLVED && fl->max_is &&
        strcmp(fl->max_is, "question") == 0)
        cli_rec_textf(&rec,
                      "budget: %llu values, what the questions need; "
                      "without them (or with --max) more may prove it\n",
                      (unsigned long long)fl->max);
    if (q->where) {
        cli_view_values(&rec, view); /* the record's usual values */
        if ((k = cli_where_write(&rec, NULL, CLI_FMT_NONE, &fl->res, &fl->seq,
                                 q->va, q->vb, q->wv)) == EXIT_UNKNOWN)
            unknown = 1;
        else if (k) {
            cli_rec_end(&rec);
            return k;
        }
    } else if (q->values) /* unknown values are printed as such */
        unknown |= cli_values_write(&rec, &fl->res, &fl->seq, q->va, q->vb);
    else
        cli_view_values(&rec, view);
    if (q->nheaps)
        unknown |=
            cli_heaps_write(&rec, &fl->res, &fl->seq, (const mpz_t *)q->heaps,
                            q->given, q->nheaps, heap_unknown_text, fl);
    /* The position's answer ends the report. */
    if (q->position)
        k = answer_position(&rec, fl, (const mpz_t *)q->pos_heaps, q->npos,
                            NULL, q->position);
    cli_rec_end(&rec);
    if (k == EXIT_UNKNOWN)
        unknown = 1;
    else if (k)
        return k; /* out of memory: said */
    return unknown ? EXIT_UNKNOWN : EXIT_DONE;
}

static int analyse_run(const cli_command *self, cli_args *a)
{
    cli_flow fl;
    questions q;
    int rc = EXIT_DONE, k;
    cli_view view;

    (void)self;
    cli_flow_init(&fl);
    memset(&q, 0, sizeof q);
    mpz_init(q.va);
    mpz_init(q.vb);
    mpz_init(q.wv);
    if (cli_npos(a) > 1) {
        cli_error("one rule at a time: '%s' is one argument too many (try "
                  "sgexplore --help)",
                  cli_quote(cli_pos(a, 1)));
        rc = EXIT_USAGE;
        goto out;
    }
    if ((rc = cli_threads_option(a)))
        goto out;
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
    /* Every question is checked before anything is computed. */
    if ((rc = questions_parse(&q, a)))
        goto out;
    if (cli_get(a, "--misere")) {
        rc = misere_run(&fl, &q, a, &view);
        goto out;
    }
    if (cli_get(a, "--quotient") || cli_get(a, "--max-order") ||
        cli_get(a, "--misere-max")) {
        cli_error("%s goes with --misere",
                  cli_get(a, "--quotient")    ? "--quotient"
                  : cli_get(a, "--max-order") ? "--max-order"
                                              : "--misere-max");
        rc = EXIT_USAGE;
        goto out;
    }
    want_heaps(&fl, &q);
    if ((rc = cli_flow_run(&fl, a, 0, q.upto)))
        goto out;

    cli_flow_view(&view, &fl);
    view.open_values = 1;
    if ((rc = cli_view_prepare(&view)))
        goto out;
    if (q.positions)
        rc = answer_positions_file(&fl, q.positions, q.json);
    else
        rc = report(&q, &fl, &view);
    if (q.plot) { /* drawn after the report */
        k = cli_plot_flow(q.plot, &fl);
        if (k)
            rc = k;
    }
    if (q.cert) {
        k = export_certificate(q.cert, &fl);
        if (k)
            rc = k;
    }
    if (q.proof) {
        k = cli_export_proof(q.proof, &fl.r.rule, fl.r.canon, &fl.res);
        if (k)
            rc = k;
    }
out:
    questions_clear(&q);
    rc = cli_flow_finish(&fl, rc);
    cli_flow_clear(&fl);
    return rc;
}
