/*
 * sweep_print.c - what `sgexplore sweep` prints: the table, csv or JSON
 * rows as rules finish, the progress line on a terminal, and the summary
 * (counts, records, unresolved rules, groups of the same game, rules
 * provably equal from their values), all written by the parent alone.
 */
#define _DEFAULT_SOURCE
#include "sweep.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ------------------------------------------------------------------ */
/* Printing                                                             */
/* ------------------------------------------------------------------ */

void sweep_print_header(const sweep *s)
{
    if (s->fmt == FMT_TABLE) {
        printf("%-22s %-19s %7s %7s %6s %9s %8s  %-8s %-7s ", "rule", "status",
               "n0", "p", "saltus", "computed", "seconds", "source", "stopped");
        if (s->misere)
            printf("%7s %-18s ", "tame_to", s->quotient ? "quotient" : "");
        printf("budgets\n");
    } else if (s->fmt == FMT_CSV) {
        printf("rule,status,preperiod,period,saltus,computed,seconds,source,"
               "given,stopped,budgets%s\n",
               s->misere ? ",misere_heaps,tame_to,quotient_heaps,"
                           "quotient_order,quotient_stopped_at"
                         : "");
    }
}

/* The misère columns of a row: csv (the five fields, each after a
 * comma; the quotient's empty without --quotient) or table (tame_to, and
 * the quotient as "Q_29=40", "Q_11=18 stopped"). */
static void misere_cells(const sweep *s, const item *it, int csv)
{
    const sweep_misere *m = &it->mis;
    char q[48] = "";

    if (csv) {
        printf(",%llu,%llu,", (unsigned long long)m->heaps,
               (unsigned long long)m->tame_to);
        if (m->quotient)
            printf("%llu,%llu,", (unsigned long long)m->q_heaps,
                   (unsigned long long)m->q_order);
        else
            printf(",,");
        if (m->quotient && m->q_stopped_at)
            printf("%llu", (unsigned long long)m->q_stopped_at);
        return;
    }
    if (m->quotient)
        snprintf(q, sizeof q, "Q_%llu=%llu%s", (unsigned long long)m->q_heaps,
                 (unsigned long long)m->q_order,
                 m->q_stopped_at ? " stopped" : "");
    (void)s;
    printf("%7llu %-18s ", (unsigned long long)m->tame_to, q);
}

/* One budget in the text: "5s" (time; a given --max is in the summary)
 * or "1000000" (values). */
static void budget_text(FILE *f, const sweep_budget *b)
{
    if (b->seconds > 0)
        fprintf(f, "%gs", b->seconds);
    else
        fprintf(f, "%llu", (unsigned long long)b->max);
}

/* Every budget the rule got, the first round's first: "0.05s+0.5s+5s". */
static void budgets_text(FILE *f, const item *it)
{
    unsigned k;

    for (k = 0; k < it->nbudgets; k++) {
        if (k)
            fputc('+', f);
        budget_text(f, &it->budgets[k]);
    }
}

/* Why the rule's last run stopped. */
static const char *stopped_of(const item *it)
{
    return it->nbudgets ? it->budgets[it->nbudgets - 1].stopped : "max";
}

/* The texts of a group that differ from the canonical form, for the
 * table and csv: "0.33" for subtract{1,2}; NULL when none. */
static void print_given(FILE *f, const item *it, const char *sep)
{
    size_t j;
    int first = 1;

    for (j = 0; j < it->ngiven; j++) {
        if (strcmp(it->given[j], it->canon) == 0)
            continue;
        fprintf(f, "%s%s", first ? "" : sep, it->given[j]);
        first = 0;
    }
}

static int has_given(const item *it)
{
    size_t j;

    for (j = 0; j < it->ngiven; j++)
        if (strcmp(it->given[j], it->canon) != 0)
            return 1;
    return 0;
}

void sweep_print_row(const sweep *s, const item *it, const char *json,
                     size_t json_len)
{
    int p = it->status != SG_UNRESOLVED;
    char n0[24] = "-", per[24] = "-", sal[24] = "-";

    if (s->fmt == FMT_JSON) {
        fwrite(json, 1, json_len, stdout);
        fputc('\n', stdout);
        return;
    }
    if (p) {
        snprintf(n0, sizeof n0, "%llu", (unsigned long long)it->preperiod);
        snprintf(per, sizeof per, "%llu", (unsigned long long)it->period);
        snprintf(sal, sizeof sal, "%llu", (unsigned long long)it->saltus);
    }
    if (s->fmt == FMT_CSV) {
        /* Canonical forms hold commas (subtract{1,2}): always quoted. */
        printf("\"%s\",%s,%s,%s,%s,%llu,%.3f,%s,\"", it->canon,
               sg_period_status_name(it->status), p ? n0 : "", p ? per : "",
               p ? sal : "", (unsigned long long)it->computed, it->seconds,
               it->source);
        print_given(stdout, it, " ");
        printf("\",%s,", stopped_of(it));
        budgets_text(stdout, it);
        if (s->misere)
            misere_cells(s, it, 1);
        fputc('\n', stdout);
        return;
    }
    printf("%-22s %-19s %7s %7s %6s %9llu %8.2f  %-8s %-7s ", it->canon,
           sg_period_status_name(it->status), n0, per, sal,
           (unsigned long long)it->computed, it->seconds, it->source,
           stopped_of(it));
    if (s->misere)
        misere_cells(s, it, 0);
    budgets_text(stdout, it);
    if (has_given(it)) {
        fputs("  (= ", stdout);
        print_given(stdout, it, ", ");
        fputc(')', stdout);
    }
    fputc('\n', stdout);
}

/* The progress line on a terminal: rules done / total, rate, time left. */
static struct {
    int on, shown;
    double start, last;
} prog;

void sweep_progress_enable(int on)
{
    prog.on = on;
}

void sweep_progress_start(void)
{
    prog.start = now();
}

void sweep_progress(size_t done, size_t total, int force)
{
    double t = now(), rate;

    if (!prog.on || (!force && t - prog.last < 0.5))
        return;
    prog.last = t;
    rate = t > prog.start ? (double)done / (t - prog.start) : 0;
    fprintf(stderr, "\r\033[Ksweep: %zu/%zu rules, %.3g/s", done, total, rate);
    if (rate > 0 && done < total)
        fprintf(stderr, ", about %.0f s left", (double)(total - done) / rate);
    prog.shown = 1;
}

void sweep_progress_clear(void)
{
    if (prog.shown)
        fputs("\r\033[K", stderr);
    prog.shown = 0;
}

/* Indices of the finished items sorted by seconds, slowest first. */
static const sweep *sort_s;
static int by_seconds(const void *x, const void *y)
{
    const item *a = &sort_s->items[*(const size_t *)x];
    const item *b = &sort_s->items[*(const size_t *)y];
    return (a->seconds < b->seconds) - (a->seconds > b->seconds);
}

/* Finished rules by (digest length, digest), for the agreements. */
static int by_digest(const void *x, const void *y)
{
    const item *a = &sort_s->items[*(const size_t *)x];
    const item *b = &sort_s->items[*(const size_t *)y];

    if (a->digest_len != b->digest_len)
        return (a->digest_len > b->digest_len) -
               (a->digest_len < b->digest_len);
    if (a->digest != b->digest)
        return (a->digest > b->digest) - (a->digest < b->digest);
    return strcmp(a->canon, b->canon);
}

/* Fewest values over which an agreement is worth noting. */
#define SWEEP_AGREE_MIN 64

/* Whether the rules v[i..j-1], whose digests agree, are provably the same
 * sequence: all proven with the same pre-period, period and saltus, and
 * the digest covers G(0..n0+p-1), from which the rest follows. */
static int provably_equal(const sweep *s, const size_t *v, size_t i, size_t j)
{
    const item *a = &s->items[v[i]];
    size_t k;

    if (a->status == SG_UNRESOLVED || a->preperiod + a->period > a->digest_len)
        return 0;
    for (k = i + 1; k < j; k++) {
        const item *b = &s->items[v[k]];
        if (b->status != a->status || b->preperiod != a->preperiod ||
            b->period != a->period || b->saltus != a->saltus)
            return 0;
    }
    return 1;
}

/* One group of rules whose first values agree: "agreements" member, or
 * its text line. */
static void agreement_write(cli_rec *r, const sweep *s, const size_t *v,
                            size_t i, size_t j)
{
    const item *a = &s->items[v[i]];
    int equal = provably_equal(s, v, i, j);
    size_t k;

    cli_rec_obj(r, NULL);
    cli_rec_uint(r, "over", a->digest_len);
    cli_rec_bool(r, "equal", equal);
    cli_rec_arr(r, "rules");
    for (k = i; k < j; k++)
        cli_rec_str(r, NULL, s->items[v[k]].canon);
    cli_rec_close(r);
    cli_rec_close(r);
    if (equal)
        cli_rec_textf(r,
                      "equal for every n (the same proven pre-period, "
                      "period and G(0..%llu)):",
                      (unsigned long long)(a->preperiod + a->period - 1));
    else
        cli_rec_textf(r, "agree over G(0..%llu), not claimed equal:",
                      (unsigned long long)(a->digest_len - 1));
    for (k = i; k < j && k < i + SWEEP_LIST; k++)
        cli_rec_textf(r, "%s %s", k > i ? "," : "", s->items[v[k]].canon);
    if (j - i > SWEEP_LIST)
        cli_rec_textf(r, " and %zu more", j - i - SWEEP_LIST);
    cli_rec_textf(r, "\n");
}

/* The rules whose first values agree (equal digests over at least
 * SWEEP_AGREE_MIN values): provably equal when their proven periods say
 * so, else an observation, not a claim of equality.  The key
 * "agreements" (every group), or one text line per group (the first
 * SWEEP_LIST). */
static void agreements_write(cli_rec *r, const sweep *s)
{
    size_t *v = malloc((s->n ? s->n : 1) * sizeof *v), n = 0, i, j;
    size_t shown = 0, groups = 0;

    cli_rec_arr(r, "agreements");
    if (!v) {
        cli_out_of_memory = 1;
        cli_rec_close(r);
        return;
    }
    for (i = 0; i < s->n; i++)
        if (s->items[i].done && s->items[i].digest_len >= SWEEP_AGREE_MIN)
            v[n++] = i;
    sort_s = s;
    qsort(v, n, sizeof *v, by_digest);
    for (i = 0; i < n; i = j) {
        const item *a = &s->items[v[i]];
        for (j = i + 1; j < n && s->items[v[j]].digest == a->digest &&
                        s->items[v[j]].digest_len == a->digest_len;
             j++)
            ;
        if (j - i < 2)
            continue;
        groups++;
        if (r->json || shown < SWEEP_LIST) {
            agreement_write(r, s, v, i, j);
            shown++;
        }
    }
    cli_rec_close(r);
    if (groups > shown)
        cli_rec_textf(r, "(and %zu more groups that agree)\n", groups - shown);
    free(v);
}

/* What the summary counts over the finished rules. */
typedef struct tally {
    size_t done, failed, unresolved, groups;
    size_t counts[3];  /* by sg_period_status */
    size_t src[3];     /* computed, from the cache, extended */
    size_t stopped[4]; /* proven, time, max, memory */
    const item *lp, *ln0;
} tally;

static void tally_count(tally *t, const sweep *s)
{
    size_t i;

    memset(t, 0, sizeof *t);
    for (i = 0; i < s->n; i++) {
        const item *it = &s->items[i];
        if (has_given(it))
            t->groups++;
        if (it->failed)
            t->failed++;
        if (!it->done)
            continue;
        t->done++;
        t->counts[it->status <= SG_ARITH_PERIODIC ? it->status : 0]++;
        /* where the sweep found the rule: its first round's source (a
         * later round extends what the first stored) */
        {
            const char *src = it->nbudgets ? it->budgets[0].source : it->source;
            const char *why = stopped_of(it);
            t->src[strcmp(src, "cache") == 0      ? 1
                   : strcmp(src, "extended") == 0 ? 2
                                                  : 0]++;
            t->stopped[strcmp(why, "proven") == 0 ? 0
                       : strcmp(why, "time") == 0 ? 1
                       : strcmp(why, "max") == 0  ? 2
                                                  : 3]++;
        }
        if (it->status == SG_UNRESOLVED) {
            t->unresolved++;
            continue;
        }
        if (!t->lp || it->period > t->lp->period)
            t->lp = it;
        if (!t->ln0 || it->preperiod > t->ln0->preperiod)
            t->ln0 = it;
    }
}

/* The counts: the summary's first line. */
static void counts_write(cli_rec *r, const sweep *s, const tally *t,
                         double wall, int interrupted)
{
    cli_rec_uint(r, "rules", s->n);
    cli_rec_uint(r, "listed", s->listed);
    cli_rec_uint(r, "family_rules", s->family_total);
    cli_rec_strf(r, "shard", "%u/%u", s->shard_k, s->shard_n);
    cli_rec_uint(r, "done", t->done);
    cli_rec_uint(r, "periodic", t->counts[SG_PERIODIC]);
    cli_rec_uint(r, "arithmetic-periodic", t->counts[SG_ARITH_PERIODIC]);
    cli_rec_uint(r, "unresolved", t->counts[SG_UNRESOLVED]);
    cli_rec_uint(r, "failed", t->failed);
    cli_rec_bool(r, "interrupted", interrupted);
    cli_rec_uint(r, "rules_computed", t->src[0]);
    cli_rec_uint(r, "rules_from_cache", t->src[1]);
    cli_rec_uint(r, "rules_extended", t->src[2]);
    cli_rec_real(r, "seconds", wall);
    cli_rec_textf(r,
                  "summary: %zu of %zu rules%s: %zu periodic, %zu "
                  "arithmetic-periodic, %zu unresolved",
                  t->done, s->n, interrupted ? " (interrupted)" : "",
                  t->counts[SG_PERIODIC], t->counts[SG_ARITH_PERIODIC],
                  t->counts[SG_UNRESOLVED]);
    if (t->failed)
        cli_rec_textf(r, ", %zu failed", t->failed);
    cli_rec_textf(r,
                  "; %zu computed, %zu from the cache, %zu extended; "
                  "%.1f s",
                  t->src[0], t->src[1], t->src[2], wall);
    if (s->shard_n > 1)
        cli_rec_textf(r, "; shard %u/%u of %llu rules", s->shard_k, s->shard_n,
                      (unsigned long long)s->family_total);
    cli_rec_textf(r, "\n");
    /* An unresolved rule from the cache is extended on every run, with
     * the whole budget again: say so, as a rerun costs that much. */
    if (t->src[2])
        cli_rec_textf(r,
                      "extended: %zu unresolved rule%s from the cache "
                      "%s computed further, with the whole budget again "
                      "(every rerun extends the unresolved rules)\n",
                      t->src[2], t->src[2] == 1 ? "" : "s",
                      t->src[2] == 1 ? "was" : "were");
}

/* One round's budget in the text: "0.5 s", "0.5 s, at most 100 values",
 * "1000 values", or the default count (divided). */
static void round_text(cli_rec *r, const sweep_round *ri)
{
    if (ri->seconds > 0) {
        cli_rec_textf(r, "%g s", ri->seconds);
        if (ri->max)
            cli_rec_textf(r, ", at most %llu values",
                          (unsigned long long)ri->max);
    } else if (ri->max) {
        cli_rec_textf(r, "%llu values", (unsigned long long)ri->max);
    } else if (ri->div > 1) {
        cli_rec_textf(r, "the default count / %llu",
                      (unsigned long long)ri->div);
    } else {
        cli_rec_textf(r, "the default count");
    }
}

/* The budgets: what each round gave every rule and why the rules
 * stopped (keys "rounds" and "stopped"). */
static void budgets_summary_write(cli_rec *r, const sweep *s, const tally *t)
{
    unsigned k, nr = 0;

    for (k = 0; k < s->rounds; k++)
        if (s->round_info[k].rules)
            nr = k + 1;
    cli_rec_arr(r, "rounds");
    for (k = 0; k < nr; k++) {
        const sweep_round *ri = &s->round_info[k];
        cli_rec_obj(r, NULL);
        cli_rec_uint(r, "round", k + 1);
        if (ri->seconds > 0)
            cli_rec_real(r, "seconds", ri->seconds);
        else
            cli_rec_null(r, "seconds");
        if (ri->max)
            cli_rec_uint(r, "max", ri->max);
        else
            cli_rec_null(r, "max");
        cli_rec_uint(r, "divided_by", ri->div);
        cli_rec_uint(r, "rules", ri->rules);
        cli_rec_uint(r, "proven", ri->proven);
        cli_rec_close(r);
    }
    cli_rec_close(r);
    if (s->rounds > 1) {
        cli_rec_textf(r, "escalation (each round extends the values the one "
                         "before stored):");
        for (k = 0; k < nr; k++) {
            const sweep_round *ri = &s->round_info[k];
            cli_rec_textf(r, "%s round %u (", k ? ";" : "", k + 1);
            round_text(r, ri);
            cli_rec_textf(r, "): %zu rules, %zu proven", ri->rules, ri->proven);
        }
        cli_rec_textf(r, "\n");
    } else if (nr) {
        cli_rec_textf(r, "budget per rule: ");
        round_text(r, &s->round_info[0]);
        if (s->seconds > 0 && !s->max)
            cli_rec_textf(r, ", no default count (until proven, the time is "
                             "spent or memory runs out)");
        cli_rec_textf(r, "\n");
    }
    cli_rec_obj(r, "stopped");
    cli_rec_uint(r, "proven", t->stopped[0]);
    cli_rec_uint(r, "time", t->stopped[1]);
    cli_rec_uint(r, "max", t->stopped[2]);
    cli_rec_uint(r, "memory", t->stopped[3]);
    cli_rec_close(r);
    if (t->done)
        cli_rec_textf(r,
                      "stopped: %zu proven, %zu by time, %zu by the count "
                      "of values, %zu by memory%s\n",
                      t->stopped[0], t->stopped[1], t->stopped[2],
                      t->stopped[3],
                      t->stopped[3] ? " (memory ran out; what was computed "
                                      "is stored)"
                                    : "");
}

/* The records: longest period, largest pre-period, slowest rules. */
static void records_write(cli_rec *r, const sweep *s, const tally *t)
{
    size_t *order = malloc((s->n ? s->n : 1) * sizeof *order), i, k = 0;
    size_t nslow = 0;

    if (t->lp) {
        cli_rec_obj(r, "longest_period");
        cli_rec_str(r, "rule", t->lp->canon);
        cli_rec_uint(r, "period", t->lp->period);
        cli_rec_close(r);
        cli_rec_textf(r, "longest period: %llu (%s)\n",
                      (unsigned long long)t->lp->period, t->lp->canon);
    } else {
        cli_rec_null(r, "longest_period");
    }
    if (t->ln0) {
        cli_rec_obj(r, "largest_preperiod");
        cli_rec_str(r, "rule", t->ln0->canon);
        cli_rec_uint(r, "preperiod", t->ln0->preperiod);
        cli_rec_close(r);
        cli_rec_textf(r, "largest pre-period: %llu (%s)\n",
                      (unsigned long long)t->ln0->preperiod, t->ln0->canon);
    } else {
        cli_rec_null(r, "largest_preperiod");
    }
    if (order) {
        for (i = 0; i < s->n; i++)
            if (s->items[i].done)
                order[k++] = i;
        sort_s = s;
        qsort(order, k, sizeof *order, by_seconds);
        nslow = k < SWEEP_SLOWEST ? k : SWEEP_SLOWEST;
    } else {
        cli_out_of_memory = 1;
    }
    cli_rec_arr(r, "slowest");
    for (i = 0; i < nslow; i++) {
        const item *it = &s->items[order[i]];
        cli_rec_obj(r, NULL);
        cli_rec_str(r, "rule", it->canon);
        cli_rec_real(r, "seconds", it->seconds);
        cli_rec_close(r);
        cli_rec_textf(r, "%s %s (%.2f s)", i ? "," : "slowest:", it->canon,
                      it->seconds);
    }
    cli_rec_close(r);
    if (nslow)
        cli_rec_textf(r, "\n");
    free(order);
}

/* The unresolved rules and how far each was computed. */
static void unresolved_write(cli_rec *r, const sweep *s, const tally *t)
{
    size_t i, shown = 0;

    cli_rec_arr(r, "unresolved_rules");
    for (i = 0; i < s->n; i++) {
        const item *it = &s->items[i];
        if (!it->done || it->status != SG_UNRESOLVED)
            continue;
        cli_rec_obj(r, NULL);
        cli_rec_str(r, "rule", it->canon);
        cli_rec_uint(r, "computed", it->computed);
        cli_rec_close(r);
        if (shown < SWEEP_LIST)
            cli_rec_textf(
                r, "%s %s (G(0..%llu))", shown ? "," : "unresolved:", it->canon,
                (unsigned long long)(it->computed ? it->computed - 1 : 0));
        shown++;
    }
    cli_rec_close(r);
    if (t->unresolved > SWEEP_LIST)
        cli_rec_textf(r, " and %zu more", t->unresolved - SWEEP_LIST);
    if (t->unresolved)
        cli_rec_textf(r, "\n");
}

/* The groups of texts that named the same game (equal canonical forms):
 * in JSON every text given, in the text those that differ from the
 * canonical form. */
static void groups_write(cli_rec *r, const sweep *s, const tally *t)
{
    size_t i, j, shown = 0;

    cli_rec_arr(r, "groups");
    for (i = 0; i < s->n; i++) {
        const item *it = &s->items[i];
        if (!has_given(it))
            continue;
        cli_rec_obj(r, NULL);
        cli_rec_str(r, "rule", it->canon);
        cli_rec_arr(r, "given");
        for (j = 0; j < it->ngiven; j++)
            cli_rec_str(r, NULL, it->given[j]);
        cli_rec_close(r);
        cli_rec_close(r);
        if (shown++ >= SWEEP_LIST)
            continue;
        cli_rec_textf(
            r, "%s %s =",
            shown > 1 ? ";" : "same game (equal canonical forms):", it->canon);
        if (!r->json) {
            fputc(' ', r->f);
            print_given(r->f, it, ", ");
        }
    }
    cli_rec_close(r);
    if (t->groups > SWEEP_LIST)
        cli_rec_textf(r, "; and %zu more", t->groups - SWEEP_LIST);
    if (t->groups)
        cli_rec_textf(r, "\n");
}

/* The summary: one {"summary": ...} line, or text lines (on stderr with
 * --format csv, so that stdout stays one table). */
void sweep_print_summary(const sweep *s, double wall, int interrupted)
{
    cli_rec rec;
    tally t;

    tally_count(&t, s);
    cli_rec_begin(&rec, s->fmt == FMT_CSV ? stderr : stdout,
                  s->fmt == FMT_JSON);
    cli_rec_obj(&rec, "summary");
    counts_write(&rec, s, &t, wall, interrupted);
    budgets_summary_write(&rec, s, &t);
    records_write(&rec, s, &t);
    unresolved_write(&rec, s, &t);
    groups_write(&rec, s, &t);
    agreements_write(&rec, s);
    cli_rec_end(&rec);
}

/* --plot FILE: periods and pre-periods of the finished rules. */
int sweep_draw(const sweep *s, const char *path, const char *family)
{
    sg_plot_result *r = calloc(s->n ? s->n : 1, sizeof *r);
    size_t i, k = 0;
    sg_error err;
    char title[128];
    int rc = EXIT_DONE;

    if (!r) {
        cli_error("out of memory");
        return EXIT_RUNTIME;
    }
    for (i = 0; i < s->n; i++) {
        if (!s->items[i].done)
            continue;
        r[k].rule = s->items[i].canon;
        r[k].status = s->items[i].status;
        r[k].preperiod = s->items[i].preperiod;
        r[k].period = s->items[i].period;
        k++;
    }
    snprintf(title, sizeof title, "sweep %s", family);
    if (sg_plot_results(path, title, r, k, NULL, &err))
        rc = cli_report("--plot", NULL, &err);
    free(r);
    return rc;
}
