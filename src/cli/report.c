/*
 * report.c - the one result printer: what is known about one rule, as the
 * text lines of `sgexplore RULE` or as the keys of its JSON object, for
 * every command that shows a result (the analysis, cache show and list,
 * verify, plot, sweeps), so that the same rule prints the same keys
 * everywhere.  Long value lists are cut: the text shows the first and last
 * few with the command that prints the rest; JSON stops after
 * CLI_JSON_VALUES entries and says so (`values_truncated`).
 */
#define _DEFAULT_SOURCE
#include "cli.h"

#include <stdlib.h>
#include <string.h>

static int is_proven(const sg_result *res)
{
    return res->status != SG_UNRESOLVED;
}

static void json_u64_or_null(FILE *f, int have, uint64_t v)
{
    if (have)
        fprintf(f, "%llu", (unsigned long long)v);
    else
        fputs("null", f);
}

static void json_str_or_null(FILE *f, const char *s)
{
    if (s)
        cli_json_string(f, s);
    else
        fputs("null", f);
}

void cli_json_mpz(FILE *f, const mpz_t x)
{
    fputc('"', f);
    mpz_out_str(f, 10, x);
    fputc('"', f);
}

/* The largest computed value and the first heap that has it. */
static int largest(const sg_seq *s, sg_value *v, size_t *first)
{
    size_t i;

    if (!s || s->n == 0)
        return 0;
    *v = s->max;
    for (i = 0; i < s->n; i++)
        if (sg_seq_get(s, i) == s->max)
            break;
    *first = i;
    return i < s->n;
}

/* The sparse space of the computed values, with the heap's parity when
 * the rule allows it (0 when there are too few or the transform does not
 * fit: the report then says nothing of it). */
static sg_status sparse_compute(const cli_view *v, sg_sparse_space *sp)
{
    sg_rule r;
    sg_status st = SG_OK;
    int parsed;

    sg_rule_init(&r);
    parsed = v->rule &&
             (st = sg_rule_parse(&r, SG_SYNTAX_RULE, v->rule, NULL)) == SG_OK;
    if (st != SG_E_NOMEM)
        st = sg_sparse_space_find_rule(sp, v->seq, parsed ? &r : NULL,
                                       v->seq->n, NULL);
    sg_rule_clear(&r);
    return st;
}

int cli_view_prepare(cli_view *v)
{
    sg_status st;

    v->sparse_state = -1;
    if (!v->seq || v->seq->n < SG_SPARSE_SPACE_MIN)
        return EXIT_DONE;
    st = sparse_compute(v, &v->sparse);
    if (st == SG_E_NOMEM) {
        cli_error("out of memory while rating the sparse space of %s",
                  cli_quote(v->rule));
        return EXIT_RUNTIME;
    }
    v->sparse_state = st == SG_OK ? 1 : -1;
    return EXIT_DONE;
}

/* The sparse space: 1 (in *sp), 0 (none to show), -1 out of memory (for
 * views that were not prepared; the exit status says so). */
static int sparse_of(const cli_view *v, sg_sparse_space *sp)
{
    sg_status st;

    if (v->sparse_state) {
        *sp = v->sparse;
        return v->sparse_state > 0;
    }
    if (!v->seq || v->seq->n < SG_SPARSE_SPACE_MIN)
        return 0;
    st = sparse_compute(v, sp);
    if (st == SG_E_NOMEM) {
        cli_out_of_memory = 1;
        return -1;
    }
    return st == SG_OK;
}

/* G(from..to-1) separated by sep. */
static void values_list(FILE *f, const sg_seq *s, uint64_t from, uint64_t to,
                        const char *sep)
{
    uint64_t i;

    for (i = from; i < to; i++)
        fprintf(f, "%s%u", i > from ? sep : "",
                (unsigned)sg_seq_get(s, (size_t)i));
}

/* The --values limit, for the hint of a cut list. */
#define VALUES_SPAN 100000000ULL

/* One text line "LABEL: v v v ...", cut when long. */
static void values_line(FILE *f, const cli_view *v, const char *label,
                        uint64_t from, uint64_t to)
{
    enum { HEAD = 20, TAIL = 10 };
    uint64_t n = to - from;

    fprintf(f, "%s:", label);
    if (n == 0) {
        fputs(" (none)\n", f);
        return;
    }
    fputc(' ', f);
    if (n <= CLI_TEXT_VALUES) {
        values_list(f, v->seq, from, to, " ");
        fputc('\n', f);
        return;
    }
    values_list(f, v->seq, from, from + HEAD, " ");
    fputs(" ... ", f);
    values_list(f, v->seq, to - TAIL, to, " ");
    fprintf(f, " (%llu values; all of them: sgexplore '%s' --values "
               "%llu:%llu --quiet",
            (unsigned long long)n, v->rerun ? v->rerun : v->rule,
            (unsigned long long)from, (unsigned long long)(to - 1));
    if (n > VALUES_SPAN)
        fprintf(f, ", at most %llu at a time", VALUES_SPAN);
    fputs(")\n", f);
}

/* The best candidate of an unresolved result: what it is, and which
 * --max would let its theorem prove it. */
static void observed_text(FILE *f, const cli_view *v)
{
    const sg_observed *o = &v->res->observed;

    if (!o->have) {
        fputs("observed: no period candidate in the computed values\n", f);
        return;
    }
    fprintf(f, "observed: period %llu from n0 = %llu", (unsigned long long)o->period,
            (unsigned long long)o->preperiod);
    if (o->saltus)
        fprintf(f, " with saltus %llu", (unsigned long long)o->saltus);
    fprintf(f, ", holding up to G(%llu) (observed, not proven)\n",
            (unsigned long long)o->held_to);
    if (o->needs == UINT64_MAX)
        fputs("needs: no theorem implemented here applies to this rule\n", f);
    else
        fprintf(f, "needs: G(0..%llu) to prove it, should it go on: rerun "
                   "with --max %llu\n",
                (unsigned long long)o->needs,
                (unsigned long long)o->needs + 1);
}

void cli_flow_view(cli_view *v, const cli_flow *f)
{
    memset(v, 0, sizeof *v);
    v->rule = f->r.canon;
    v->family = sg_rule_family(&f->r.rule);
    v->source = f->source;
    v->res = &f->res;
    v->seq = &f->seq;
    v->computed = f->seq.n;
    v->rerun = f->r.canon;
}

void cli_view_text(FILE *f, const cli_view *v)
{
    const sg_result *res = v->res;
    sg_value big;
    size_t first;
    sg_sparse_space sp;
    int k;

    fprintf(f, "rule: %s\n", v->rule);
    fprintf(f, "family: %s\n", v->family);
    if (v->source)
        fprintf(f, "source: %s\n", v->source);
    if (is_proven(res)) {
        fprintf(f, "status: %s (proven)\n", sg_period_status_name(res->status));
        fprintf(f, "preperiod: %llu\n", (unsigned long long)res->preperiod);
        fprintf(f, "period: %llu\n", (unsigned long long)res->period);
        if (res->status == SG_ARITH_PERIODIC)
            fprintf(f, "saltus: %llu\n", (unsigned long long)res->saltus);
        fprintf(f, "theorem: %s\n", res->theorem ? res->theorem : "(none)");
        fprintf(f, "certified: G(n+%llu) = G(n)%s checked from n = %llu; "
                   "bound %llu; %llu values computed; checksum "
                   "fnv1a64:%016llx\n",
                (unsigned long long)res->proof_period,
                res->proof_saltus ? " + s" : "",
                (unsigned long long)res->proof_start,
                (unsigned long long)res->certified_to,
                (unsigned long long)v->computed,
                (unsigned long long)res->checksum);
        if (v->seq && v->seq->n >= res->preperiod + res->period) {
            values_line(f, v, "preperiod values", 0, res->preperiod);
            values_line(f, v, "period values", res->preperiod,
                        res->preperiod + res->period);
        }
    } else {
        fprintf(f, "status: unresolved (no period proven for n < %llu)\n",
                (unsigned long long)v->computed);
        if (res->note && *res->note)
            fprintf(f, "note: %s\n", res->note);
        fprintf(f, "computed: G(0..%llu)\n",
                (unsigned long long)(v->computed ? v->computed - 1 : 0));
        observed_text(f, v);
    }
    if (largest(v->seq, &big, &first))
        fprintf(f, "largest value: %u, first at heap %zu\n", (unsigned)big,
                first);
    k = sparse_of(v, &sp);
    if (k < 0) {
        fputs("sparse space: unknown (out of memory)\n", f);
    } else if (k) {
        if (sp.found)
            fprintf(f, "sparse space: mask %u%s, %llu rare heaps, the last "
                       "at %llu\n",
                    (unsigned)sp.mask,
                    !sp.parity         ? ""
                    : sp.parity_shift ? " with the heap's parity (h + 1) mod 2"
                                      : " with the heap's parity h mod 2",
                    (unsigned long long)sp.rare,
                    (unsigned long long)sp.last_rare);
        else
            fprintf(f, "sparse space: none (the best mask, %u, leaves %llu "
                       "of %zu heaps rare)\n",
                    (unsigned)sp.mask, (unsigned long long)sp.rare,
                    v->seq->n - 1);
    }
    if (v->entry) {
        const sg_store_entry *e = v->entry;
        if (e->theorem_id && is_proven(res))
            fprintf(f, "theorem id: %s\n", e->theorem_id);
        fprintf(f, "stored: %llu values\n", (unsigned long long)e->stored);
        fprintf(f, "version: %s\n", e->version);
        fprintf(f, "algorithm: %s\n", e->algorithm);
        fprintf(f, "elapsed: %.3f s\n", e->elapsed);
        fprintf(f, "created: %s\n", e->created);
        fprintf(f, "updated: %s\n", e->updated);
    }
}

void cli_view_json(FILE *f, const cli_view *v, int with_values)
{
    const sg_result *res = v->res;
    int p = is_proven(res);
    sg_value big;
    size_t first;
    sg_sparse_space sp;

    fputs("\"rule\":", f);
    cli_json_string(f, v->rule);
    fputs(",\"family\":", f);
    cli_json_string(f, v->family);
    if (v->source) {
        fputs(",\"source\":", f);
        cli_json_string(f, v->source);
    }
    fputs(",\"status\":", f);
    cli_json_string(f, sg_period_status_name(res->status));
    fputs(",\"preperiod\":", f);
    json_u64_or_null(f, p, res->preperiod);
    fputs(",\"period\":", f);
    json_u64_or_null(f, p, res->period);
    fputs(",\"saltus\":", f);
    json_u64_or_null(f, p, res->saltus);
    fprintf(f, ",\"computed\":%llu", (unsigned long long)v->computed);
    fputs(",\"certified_to\":", f);
    json_u64_or_null(f, p, res->certified_to);
    fputs(",\"theorem\":", f);
    json_str_or_null(f, p ? res->theorem : NULL);
    fputs(",\"certificate\":", f);
    if (p) {
        fputs("{\"theorem\":", f);
        json_str_or_null(f, res->theorem_id);
        fprintf(f,
                ",\"proof_start\":%llu,\"proof_period\":%llu,"
                "\"proof_saltus\":%llu,\"bound\":%llu,"
                "\"checksum\":\"fnv1a64:%016llx\"}",
                (unsigned long long)res->proof_start,
                (unsigned long long)res->proof_period,
                (unsigned long long)res->proof_saltus,
                (unsigned long long)res->certified_to,
                (unsigned long long)res->checksum);
    } else {
        fputs("null", f);
    }
    fputs(",\"note\":", f);
    json_str_or_null(f, !p && res->note ? res->note : NULL);
    fputs(",\"observed\":", f);
    if (!p && res->observed.have) {
        const sg_observed *o = &res->observed;
        fprintf(f, "{\"preperiod\":%llu,\"period\":%llu,\"saltus\":%llu,"
                   "\"held_to\":%llu,\"needs\":",
                (unsigned long long)o->preperiod,
                (unsigned long long)o->period, (unsigned long long)o->saltus,
                (unsigned long long)o->held_to);
        json_u64_or_null(f, o->needs != UINT64_MAX, o->needs);
        fputc('}', f);
    } else {
        fputs("null", f);
    }
    fputs(",\"largest\":", f);
    if (largest(v->seq, &big, &first))
        fprintf(f, "{\"value\":%u,\"first\":%zu}", (unsigned)big, first);
    else
        fputs("null", f);
    fputs(",\"sparse\":", f);
    if (sparse_of(v, &sp) > 0 && sp.found)
        fprintf(f, "{\"mask\":%u,\"parity\":%s,\"parity_offset\":%d,"
                   "\"rare\":%llu,\"last_rare\":%llu}",
                (unsigned)sp.mask, sp.parity ? "true" : "false",
                sp.parity ? sp.parity_shift : 0,
                (unsigned long long)sp.rare, (unsigned long long)sp.last_rare);
    else
        fputs("null", f);
    if (v->entry) {
        const sg_store_entry *e = v->entry;
        fprintf(f, ",\"stored\":%llu", (unsigned long long)e->stored);
        fputs(",\"version\":", f);
        cli_json_string(f, e->version);
        fputs(",\"algorithm\":", f);
        cli_json_string(f, e->algorithm);
        fprintf(f, ",\"elapsed\":%.3f", e->elapsed);
        fputs(",\"created\":", f);
        cli_json_string(f, e->created);
        fputs(",\"updated\":", f);
        cli_json_string(f, e->updated);
    }
    if (!with_values)
        return;
    /* G(0..n0+p-1) of a proven rule, cut after CLI_JSON_VALUES. */
    fputs(",\"values_start\":\"0\",\"values\":[", f);
    if (p && v->seq && v->seq->n >= res->preperiod + res->period) {
        uint64_t n = res->preperiod + res->period;
        values_list(f, v->seq, 0, n < CLI_JSON_VALUES ? n : CLI_JSON_VALUES,
                    ",");
        fprintf(f, "],\"values_truncated\":%s",
                n > CLI_JSON_VALUES ? "true" : "false");
    } else {
        fputs("],\"values_truncated\":false", f);
    }
}

/* G(n) into y; 0 when unknown. */
static int value_at(mpz_t y, const sg_result *res, const sg_seq *s,
                    const mpz_t n)
{
    return sg_value_at(y, res, s, n) == SG_OK;
}

int cli_values_text(FILE *f, const sg_result *res, const sg_seq *s,
                    const mpz_t a, const mpz_t b)
{
    mpz_t n, y;
    int unknown = 0;

    mpz_init_set(n, a);
    mpz_init(y);
    for (; mpz_cmp(n, b) <= 0; mpz_add_ui(n, n, 1)) {
        fputs("G(", f);
        mpz_out_str(f, 10, n);
        fputs(") = ", f);
        if (value_at(y, res, s, n)) {
            mpz_out_str(f, 10, y);
            fputc('\n', f);
        } else {
            fputs("unknown\n", f);
            unknown = 1;
        }
    }
    mpz_clear(n);
    mpz_clear(y);
    return unknown;
}

void cli_values_json(FILE *f, const sg_result *res, const sg_seq *s,
                     const mpz_t a, const mpz_t b)
{
    mpz_t n, y;

    fputs(",\"values_start\":", f);
    cli_json_mpz(f, a);
    fputs(",\"values\":[", f);
    mpz_init_set(n, a);
    mpz_init(y);
    for (; mpz_cmp(n, b) <= 0; mpz_add_ui(n, n, 1)) {
        if (mpz_cmp(n, a) > 0)
            fputc(',', f);
        if (value_at(y, res, s, n))
            mpz_out_str(f, 10, y);
        else
            fputs("null", f);
    }
    fputs("],\"values_truncated\":false", f);
    mpz_clear(n);
    mpz_clear(y);
}

void cli_position_json(FILE *f, const sg_position *p)
{
    int k;

    if (!p) {
        fputs("null", f);
        return;
    }
    fputs("{\"nim_sum\":", f);
    cli_json_mpz(f, p->nim_sum);
    fputs(",\"winner\":", f);
    cli_json_string(f, p->first_wins ? "first" : "second");
    fputs(",\"move\":", f);
    if (p->move_heap < 0) {
        fputs("null}", f);
        return;
    }
    fprintf(f, "{\"heap\":%ld,\"take\":", p->move_heap);
    cli_json_mpz(f, p->move.take);
    fputs(",\"leaves\":[", f);
    for (k = 0; k < p->move.nleft; k++) {
        if (k)
            fputc(',', f);
        cli_json_mpz(f, p->move.left[k]);
    }
    fputs("]}}", f);
}

void cli_position_text(FILE *f, const sg_position *p, const mpz_t *heaps)
{
    int i;

    fputs("nim-sum: ", f);
    mpz_out_str(f, 10, p->nim_sum);
    fprintf(f, "\nwinner: %s\n", p->first_wins ? "first" : "second");
    if (p->first_wins && p->move_heap < 0)
        fputs("move: unknown\n", f);
    if (p->move_heap < 0)
        return;
    fprintf(f, "move: heap #%ld (", p->move_heap);
    mpz_out_str(f, 10, heaps[p->move_heap]);
    if (mpz_sgn(p->move.take) == 0) {
        fputs("): split into ", f);
    } else {
        fputs("): take ", f);
        mpz_out_str(f, 10, p->move.take);
        if (p->move.nleft == 0) {
            fputs(", leaving nothing\n", f);
            return;
        }
        fputs(", leaving ", f);
    }
    for (i = 0; i < p->move.nleft; i++) {
        if (i)
            fputs(" + ", f);
        mpz_out_str(f, 10, p->move.left[i]);
    }
    fputc('\n', f);
}
