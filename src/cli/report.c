/*
 * report.c - the records every command shares, written through the one
 * output layer (record.c): what is known about one rule (the text lines
 * of `sgexplore RULE` or the keys of its JSON object) for every command
 * that shows a result (the analysis, cache show and list, verify, plot,
 * sweeps), the --heap and --values answers and a position's answer, so
 * that the same thing prints the same keys everywhere (docs/JSON.md).  Long value lists are cut: the text shows the first and last
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

    if (v->parsed)
        return sg_sparse_space_find_rule(sp, v->seq, v->parsed, v->seq->n,
                                         NULL);
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
    fprintf(f,
            " (%llu values; all of them: sgexplore '%s' --values "
            "%llu:%llu --quiet",
            (unsigned long long)n, cli_quote(v->rerun ? v->rerun : v->rule),
            (unsigned long long)from, (unsigned long long)(to - 1));
    if (n > VALUES_SPAN)
        fprintf(f, ", at most %llu at a time", VALUES_SPAN);
    fputs(")\n", f);
}

/* The best candidate of an unresolved result: what it is, and which
 * --max would let its theorem prove it. */
static void observed_write(cli_rec *r, const cli_view *v)
{
    const sg_observed *o = &v->res->observed;

    if (!o->have) {
        cli_rec_null(r, "observed");
        cli_rec_textf(r, "observed: no period candidate in the computed "
                         "values\n");
        return;
    }
    cli_rec_obj(r, "observed");
    cli_rec_uint(r, "preperiod", o->preperiod);
    cli_rec_uint(r, "period", o->period);
    cli_rec_uint(r, "saltus", o->saltus);
    cli_rec_uint(r, "held_to", o->held_to);
    cli_rec_uint_or_null(r, "needs", o->needs != UINT64_MAX, o->needs);
    cli_rec_close(r);
    cli_rec_textf(r, "observed: period %llu from n0 = %llu",
                  (unsigned long long)o->period,
                  (unsigned long long)o->preperiod);
    if (o->saltus)
        cli_rec_textf(r, " with saltus %llu", (unsigned long long)o->saltus);
    cli_rec_textf(r, ", holding up to G(%llu) (observed, not proven)\n",
                  (unsigned long long)o->held_to);
    if (o->needs == UINT64_MAX && o->saltus)
        cli_rec_textf(r, "needs: no theorem implemented here proves "
                         "arithmetic periodicity for this rule\n");
    else if (o->needs == UINT64_MAX)
        cli_rec_textf(r, "needs: no theorem implemented here applies to "
                         "this rule\n");
    else
        cli_rec_textf(r,
                      "needs: G(0..%llu) to prove it, should it go on: "
                      "rerun with --max %llu\n",
                      (unsigned long long)o->needs,
                      (unsigned long long)o->needs + 1);
}

void cli_flow_view(cli_view *v, const cli_flow *f)
{
    memset(v, 0, sizeof *v);
    v->rule = f->r.canon;
    v->parsed = &f->r.rule;
    v->family = sg_rule_family(&f->r.rule);
    v->given = f->r.rule.given;
    v->source = f->source;
    v->res = &f->res;
    v->seq = &f->seq;
    v->computed = f->seq.n;
    v->rerun = f->r.canon;
}

/* A proven result: the claim, its theorem and its certificate. */
static void proven_write(cli_rec *r, const cli_view *v)
{
    const sg_result *res = v->res;

    cli_rec_textf(r, "status: %s (proven)\n",
                  sg_period_status_name(res->status));
    cli_rec_uint(r, "preperiod", res->preperiod);
    cli_rec_textf(r, "preperiod: %llu\n", (unsigned long long)res->preperiod);
    cli_rec_uint(r, "period", res->period);
    cli_rec_textf(r, "period: %llu\n", (unsigned long long)res->period);
    cli_rec_uint(r, "saltus", res->saltus);
    if (res->status == SG_ARITH_PERIODIC)
        cli_rec_textf(r, "saltus: %llu\n", (unsigned long long)res->saltus);
    cli_rec_str(r, "theorem", res->theorem);
    cli_rec_textf(r, "theorem: %s\n",
                  res->theorem ? cli_quote(res->theorem) : "(none)");
    cli_rec_uint(r, "certified_to", res->certified_to);
    cli_rec_obj(r, "certificate");
    cli_rec_str(r, "theorem", res->theorem_id);
    cli_rec_uint(r, "proof_start", res->proof_start);
    cli_rec_uint(r, "proof_period", res->proof_period);
    cli_rec_uint(r, "proof_saltus", res->proof_saltus);
    cli_rec_uint(r, "bound", res->certified_to);
    cli_rec_strf(r, "checksum", "fnv1a64:%016llx",
                 (unsigned long long)res->checksum);
    cli_rec_close(r);
    cli_rec_uint(r, "computed", v->computed);
    /* The theorem's own claim (its period may be a multiple of the least,
     * its start past the least pre-period, which the values reach by
     * walking down: docs/THEORY.md, step 4). */
    cli_rec_textf(r, "certified: G(n+%llu) = G(n)",
                  (unsigned long long)res->proof_period);
    if (res->proof_saltus)
        cli_rec_textf(r, " + %llu", (unsigned long long)res->proof_saltus);
    cli_rec_textf(r, " checked from n = %llu",
                  (unsigned long long)res->proof_start);
    if (res->preperiod < res->proof_start)
        cli_rec_textf(r, ", and from the pre-period %llu in the values",
                      (unsigned long long)res->preperiod);
    cli_rec_textf(r,
                  "; bound %llu; %llu values computed; checksum "
                  "fnv1a64:%016llx\n",
                  (unsigned long long)res->certified_to,
                  (unsigned long long)v->computed,
                  (unsigned long long)res->checksum);
    cli_rec_null(r, "note");
    cli_rec_null(r, "observed");
    if (!r->json && v->seq && v->seq->n >= res->preperiod + res->period) {
        values_line(r->f, v, "preperiod values", 0, res->preperiod);
        values_line(r->f, v, "period values", res->preperiod,
                    res->preperiod + res->period);
    }
}

/* An unresolved result: how far it was computed, and what was seen. */
static void unresolved_write(cli_rec *r, const cli_view *v)
{
    const sg_result *res = v->res;
    const char *note = res->note && *res->note ? res->note : NULL;

    cli_rec_textf(r, "status: unresolved (no period proven for n < %llu)\n",
                  (unsigned long long)v->computed);
    cli_rec_null(r, "preperiod");
    cli_rec_null(r, "period");
    cli_rec_null(r, "saltus");
    cli_rec_null(r, "theorem");
    cli_rec_null(r, "certified_to");
    cli_rec_null(r, "certificate");
    cli_rec_uint(r, "computed", v->computed);
    cli_rec_str(r, "note", note);
    if (note)
        cli_rec_textf(r, "note: %s\n", cli_quote(note));
    cli_rec_textf(r, "computed: G(0..%llu)\n",
                  (unsigned long long)(v->computed ? v->computed - 1 : 0));
    observed_write(r, v);
}

/* The keys derived from the values: the largest value, the sparse
 * space.  Absent when the values are not loaded. */
static void derived_write(cli_rec *r, const cli_view *v)
{
    sg_value big;
    size_t first;
    sg_sparse_space sp;
    int k;

    if (!v->seq)
        return;
    if (largest(v->seq, &big, &first)) {
        cli_rec_obj(r, "largest");
        cli_rec_uint(r, "value", big);
        cli_rec_uint(r, "first", first);
        cli_rec_close(r);
        cli_rec_textf(r, "largest value: %u, first at heap %zu\n",
                      (unsigned)big, first);
    } else {
        cli_rec_null(r, "largest");
    }
    k = sparse_of(v, &sp);
    if (k > 0 && sp.found) {
        cli_rec_obj(r, "sparse");
        cli_rec_uint(r, "mask", sp.mask);
        cli_rec_bool(r, "parity", sp.parity);
        cli_rec_int(r, "parity_offset", sp.parity ? sp.parity_shift : 0);
        cli_rec_uint(r, "rare", sp.rare);
        cli_rec_uint(r, "last_rare", sp.last_rare);
        cli_rec_close(r);
    } else {
        cli_rec_null(r, "sparse");
    }
    if (k < 0)
        cli_rec_textf(r, "sparse space: unknown (out of memory)\n");
    else if (k && sp.found)
        cli_rec_textf(
            r,
            "sparse space: mask %u%s, %llu rare heaps, the "
            "last at %llu\n",
            (unsigned)sp.mask,
            !sp.parity        ? ""
            : sp.parity_shift ? " with the heap's parity (h + 1) mod 2"
                              : " with the heap's parity h mod 2",
            (unsigned long long)sp.rare, (unsigned long long)sp.last_rare);
    else if (k)
        cli_rec_textf(r,
                      "sparse space: none (the best mask, %u, leaves "
                      "%llu of %zu heaps rare)\n",
                      (unsigned)sp.mask, (unsigned long long)sp.rare,
                      v->seq->n - 1);
}

/* The cache's metadata of a row (cache show, cache list).  Every text of
 * a row is quoted (cli_quote) here and in the lines above: a cache that
 * travelled may hold anything in them. */
static void entry_write(cli_rec *r, const cli_view *v)
{
    const sg_store_entry *e = v->entry;

    if (e->theorem_id && is_proven(v->res))
        cli_rec_textf(r, "theorem id: %s\n", cli_quote(e->theorem_id));
    cli_rec_uint(r, "stored", e->stored);
    cli_rec_textf(r, "stored: %llu values\n", (unsigned long long)e->stored);
    cli_rec_str(r, "version", e->version);
    cli_rec_textf(r, "version: %s\n", cli_quote(e->version));
    cli_rec_str(r, "algorithm", e->algorithm);
    cli_rec_textf(r, "algorithm: %s\n", cli_quote(e->algorithm));
    cli_rec_real(r, "elapsed", e->elapsed);
    cli_rec_textf(r, "elapsed: %.3f s\n", e->elapsed);
    cli_rec_str(r, "created", e->created);
    cli_rec_textf(r, "created: %s\n", cli_quote(e->created));
    cli_rec_str(r, "updated", e->updated);
    cli_rec_textf(r, "updated: %s\n", cli_quote(e->updated));
}

void cli_view_write(cli_rec *r, const cli_view *v)
{
    cli_rec_str(r, "rule", v->rule);
    cli_rec_textf(r, "rule: %s\n", cli_quote(v->rule));
    /* a line of its own, after `rule:`, which scripts read as the key */
    if (v->given) {
        cli_rec_str(r, "given_as", v->given);
        cli_rec_textf(r, "given as: %s\n", cli_quote(v->given));
    } else {
        cli_rec_null(r, "given_as");
    }
    cli_rec_str(r, "family", v->family);
    cli_rec_textf(r, "family: %s\n", cli_quote(v->family));
    if (v->source) {
        cli_rec_str(r, "source", v->source);
        cli_rec_textf(r, "source: %s\n", v->source);
    }
    cli_rec_str(r, "status", sg_period_status_name(v->res->status));
    if (is_proven(v->res))
        proven_write(r, v);
    else
        unresolved_write(r, v);
    derived_write(r, v);
    if (v->entry)
        entry_write(r, v);
}

void cli_view_values(cli_rec *r, const cli_view *v)
{
    const sg_result *res = v->res;
    uint64_t n = 0, i;

    if (is_proven(res) && v->seq && v->seq->n >= res->preperiod + res->period)
        n = res->preperiod + res->period;
    else if (!is_proven(res) && v->seq && v->open_values)
        n = v->seq->n;
    cli_rec_str(r, "values_start", "0");
    cli_rec_arr(r, "values");
    for (i = 0; i < n && i < CLI_JSON_VALUES; i++)
        cli_rec_uint(r, NULL, sg_seq_get(v->seq, (size_t)i));
    cli_rec_close(r);
    cli_rec_bool(r, "values_truncated", n > CLI_JSON_VALUES);
}

/* G(n) into y; 0 when unknown. */
static int value_at(mpz_t y, const sg_result *res, const sg_seq *s,
                    const mpz_t n)
{
    return sg_value_at(y, res, s, n) == SG_OK;
}

int cli_values_write(cli_rec *r, const sg_result *res, const sg_seq *s,
                     const mpz_t a, const mpz_t b)
{
    mpz_t n, y;
    int unknown = 0;

    mpz_init_set(n, a);
    mpz_init(y);
    cli_rec_heap(r, "values_start", a);
    cli_rec_arr(r, "values");
    for (; mpz_cmp(n, b) <= 0; mpz_add_ui(n, n, 1)) {
        int known = value_at(y, res, s, n);
        cli_rec_textf(r, "G(");
        cli_rec_text_mpz(r, n);
        cli_rec_textf(r, ") = ");
        if (known) {
            cli_rec_mpz(r, NULL, y);
            cli_rec_text_mpz(r, y);
            cli_rec_textf(r, "\n");
        } else {
            cli_rec_null(r, NULL);
            cli_rec_textf(r, "unknown\n");
            unknown = 1;
        }
    }
    cli_rec_close(r);
    cli_rec_bool(r, "values_truncated", 0);
    mpz_clear(n);
    mpz_clear(y);
    return unknown;
}

/* The "heaps" key: {"heap", "value"} of each heap, the value null when
 * unknown.  Returns 1 when one is unknown. */
static int heaps_json(cli_rec *r, const sg_result *res, const sg_seq *s,
                      const mpz_t *heaps, size_t n)
{
    mpz_t y;
    size_t i;
    int unknown = 0;

    mpz_init(y);
    cli_rec_arr(r, "heaps");
    for (i = 0; i < n; i++) {
        cli_rec_obj(r, NULL);
        cli_rec_heap(r, "heap", heaps[i]);
        if (value_at(y, res, s, heaps[i])) {
            cli_rec_heap(r, "value", y);
        } else {
            cli_rec_null(r, "value");
            unknown = 1;
        }
        cli_rec_close(r);
    }
    cli_rec_close(r);
    mpz_clear(y);
    return unknown;
}

int cli_heaps_write(cli_rec *r, const sg_result *res, const sg_seq *s,
                    const mpz_t *heaps, const char *const *given, size_t n,
                    void (*unknown_text)(cli_rec *r, const char *given,
                                         const mpz_t n, const void *arg),
                    const void *arg)
{
    mpz_t y;
    size_t i;
    int unknown = heaps_json(r, res, s, heaps, n);

    if (r->json)
        return unknown;
    mpz_init(y);
    for (i = 0; i < n; i++) {
        if (value_at(y, res, s, heaps[i])) {
            cli_rec_textf(r, "G(%s) = ", given[i]);
            cli_rec_text_mpz(r, y);
            cli_rec_textf(r, "\n");
        } else if (unknown_text) {
            unknown_text(r, given[i], heaps[i], arg);
        } else {
            cli_rec_textf(r, "G(%s) = unknown\n", given[i]);
        }
    }
    mpz_clear(y);
    return unknown;
}

/* The winning move: {"heap", "take", "leaves"}, or null. */
static void move_json(cli_rec *r, const sg_position *p)
{
    int k;

    if (!p || p->move_heap < 0) {
        cli_rec_null(r, "move");
        return;
    }
    cli_rec_obj(r, "move");
    cli_rec_int(r, "heap", p->move_heap);
    cli_rec_heap(r, "take", p->move.take);
    cli_rec_arr(r, "leaves");
    for (k = 0; k < p->move.nleft; k++)
        cli_rec_heap(r, NULL, p->move.left[k]);
    cli_rec_close(r);
    cli_rec_close(r);
}

/* The --positions line of one position. */
static void position_line(cli_rec *r, const sg_position *p, const char *line,
                          uint64_t computed)
{
    int k;

    if (!p) {
        cli_rec_textf(r,
                      "%s: unknown (a heap lies beyond the %llu values "
                      "computed, and no period is proven)\n",
                      line, (unsigned long long)computed);
        return;
    }
    cli_rec_textf(r, "%s: nim-sum ", line);
    cli_rec_text_mpz(r, p->nim_sum);
    cli_rec_textf(r, ", winner %s", p->first_wins ? "first" : "second");
    if (p->move_heap >= 0) {
        cli_rec_textf(r, ", move heap #%ld take ", p->move_heap);
        cli_rec_text_mpz(r, p->move.take);
        cli_rec_textf(r, " leaving");
        if (p->move.nleft == 0)
            cli_rec_textf(r, " nothing");
        for (k = 0; k < p->move.nleft; k++) {
            cli_rec_textf(r, k ? " + " : " ");
            cli_rec_text_mpz(r, p->move.left[k]);
        }
    }
    cli_rec_textf(r, "\n");
}

/* The text lines of a position's answer: the value of each heap, then
 * the nim-sum, the winner and the move. */
static void position_text(cli_rec *r, const sg_result *res, const sg_seq *s,
                          const sg_position *p, const mpz_t *heaps, size_t n)
{
    mpz_t y;
    size_t i;
    int k;

    mpz_init(y);
    for (i = 0; i < n; i++) {
        /* the value first, so that a line is printed whole */
        int known = value_at(y, res, s, heaps[i]);
        cli_rec_textf(r, "G(");
        cli_rec_text_mpz(r, heaps[i]);
        cli_rec_textf(r, ") = ");
        if (known)
            cli_rec_text_mpz(r, y);
        else
            cli_rec_textf(r, "unknown");
        cli_rec_textf(r, "\n");
    }
    mpz_clear(y);
    if (!p) {
        cli_rec_textf(r,
                      "position: unknown (a heap lies beyond the %llu "
                      "values computed, and no period is proven)\n",
                      (unsigned long long)s->n);
        return;
    }
    cli_rec_textf(r, "nim-sum: ");
    cli_rec_text_mpz(r, p->nim_sum);
    cli_rec_textf(r, "\nwinner: %s\n", p->first_wins ? "first" : "second");
    if (p->first_wins && p->move_heap < 0)
        cli_rec_textf(r, "move: unknown\n");
    if (p->move_heap < 0)
        return;
    cli_rec_textf(r, "move: heap #%ld (", p->move_heap);
    cli_rec_text_mpz(r, heaps[p->move_heap]);
    if (mpz_sgn(p->move.take) == 0) {
        cli_rec_textf(r, "): split into ");
    } else {
        cli_rec_textf(r, "): take ");
        cli_rec_text_mpz(r, p->move.take);
        if (p->move.nleft == 0) {
            cli_rec_textf(r, ", leaving nothing\n");
            return;
        }
        cli_rec_textf(r, ", leaving ");
    }
    for (k = 0; k < p->move.nleft; k++) {
        if (k)
            cli_rec_textf(r, " + ");
        cli_rec_text_mpz(r, p->move.left[k]);
    }
    cli_rec_textf(r, "\n");
}

void cli_position_write(cli_rec *r, const sg_result *res, const sg_seq *s,
                        const sg_position *p, const mpz_t *heaps, size_t n,
                        const char *line)
{
    if (!r->json) {
        if (line)
            position_line(r, p, line, s->n);
        else
            position_text(r, res, s, p, heaps, n);
        return;
    }
    cli_rec_obj(r, "position");
    heaps_json(r, res, s, heaps, n);
    if (p) {
        cli_rec_heap(r, "nim_sum", p->nim_sum);
        cli_rec_str(r, "winner", p->first_wins ? "first" : "second");
    } else {
        cli_rec_null(r, "nim_sum");
        cli_rec_null(r, "winner");
    }
    move_json(r, p);
    cli_rec_close(r);
}

void cli_version_write(cli_rec *r, const char *version)
{
    cli_rec_str(r, "program", "sgexplore");
    cli_rec_str(r, "version", version);
    cli_rec_textf(r, "sgexplore %s\n", version);
}

/* ------------------------------------------------------------------ */
/* Misère play (docs/MISERE.md)                                         */
/* ------------------------------------------------------------------ */

void cli_misere_write(cli_rec *r, const sg_misere *m, size_t asked,
                      const char *stopped, const char *source)
{
    char buf[16 + 11 * SG_GENUS_MAX];
    size_t h;

    cli_rec_obj(r, "misere");
    cli_rec_uint(r, "heaps", m->n);
    cli_rec_arr(r, "values");
    for (h = 0; h < m->n; h++)
        cli_rec_uint(r, NULL, m->value[h]);
    cli_rec_close(r);
    cli_rec_arr(r, "genus");
    for (h = 0; h < m->n; h++)
        cli_rec_str(r, NULL, sg_genus_format(buf, sizeof buf, &m->genus[h]));
    cli_rec_close(r);
    cli_rec_uint(r, "tame_to", m->tame_to);
    cli_rec_uint_or_null(r, "first_wild", m->tame_to < m->n, m->tame_to);
    cli_rec_uint(r, "positions", m->positions);
    if (stopped)
        cli_rec_str(r, "stopped", stopped);
    else
        cli_rec_null(r, "stopped");
    cli_rec_str(r, "source", source);
    cli_rec_close(r);
    if (r->json)
        return;
    cli_rec_textf(r, "misère: genus of heaps 0..%zu", m->n ? m->n - 1 : 0);
    if (strcmp(source, "cache") == 0)
        cli_rec_textf(r, " (from the cache)");
    if (m->n < asked)
        cli_rec_textf(r, " (of the %zu asked: %s)", asked, stopped);
    cli_rec_textf(r, ", exact over %zu sums of heaps\n", m->positions);
    for (h = 0; h < m->n; h++)
        cli_rec_textf(r, "  %zu: G-(%zu) = %lu, genus %s\n", h, h,
                      (unsigned long)m->value[h],
                      sg_genus_format(buf, sizeof buf, &m->genus[h]));
    if (m->tame_to < m->n)
        cli_rec_textf(r,
                      "misère: heaps 0..%zu tame; heap %zu is the first "
                      "wild one (genus not tame)\n",
                      m->tame_to ? m->tame_to - 1 : 0, m->tame_to);
    else
        cli_rec_textf(r, "misère: every heap computed (0..%zu) is tame\n",
                      m->n ? m->n - 1 : 0);
}

void cli_misere_position_write(cli_rec *r, const sg_misere_position *p,
                               const sg_misere *m, const mpz_t *heaps, size_t n,
                               const char *line)
{
    size_t i;
    int k;

    if (!r->json) {
        if (line)
            cli_rec_textf(r, "%s: ", line);
        cli_rec_textf(r, "misère winner %s (by %s)",
                      p->first_wins ? "first" : "second",
                      sg_misere_method_name(p->method));
        if (p->move_heap >= 0) {
            cli_rec_textf(r, ", move heap #%ld take %zu leaving", p->move_heap,
                          p->take);
            if (!p->nparts)
                cli_rec_textf(r, " nothing");
            for (k = 0; k < p->nparts; k++)
                cli_rec_textf(r, "%s%zu", k ? " + " : " ", p->part[k]);
        } else if (p->first_wins) {
            cli_rec_textf(r, " (no move is left: the player to move wins)");
        }
        cli_rec_textf(r, "\n");
        return;
    }
    cli_rec_obj(r, "position");
    cli_rec_arr(r, "heaps");
    for (i = 0; i < n; i++) {
        cli_rec_obj(r, NULL);
        cli_rec_heap(r, "heap", heaps[i]);
        /* G-(h) where the genus table has the heap (issue 50: null) */
        if (m && mpz_cmp_ui(heaps[i], (unsigned long)m->n) < 0)
            cli_rec_strf(r, "value", "%llu",
                         (unsigned long long)m->value[mpz_get_ui(heaps[i])]);
        else
            cli_rec_null(r, "value");
        cli_rec_close(r);
    }
    cli_rec_close(r);
    cli_rec_null(r, "nim_sum");
    cli_rec_str(r, "winner", p->first_wins ? "first" : "second");
    if (p->move_heap < 0) {
        cli_rec_null(r, "move");
    } else {
        cli_rec_obj(r, "move");
        cli_rec_int(r, "heap", p->move_heap);
        cli_rec_strf(r, "take", "%zu", p->take);
        cli_rec_arr(r, "leaves");
        for (k = 0; k < p->nparts; k++)
            cli_rec_strf(r, NULL, "%zu", p->part[k]);
        cli_rec_close(r);
        cli_rec_close(r);
    }
    cli_rec_str(r, "method", sg_misere_method_name(p->method));
    cli_rec_close(r);
}

/* The normal form of element u as text. */
static const char *mquot_nf(char *buf, size_t size, const sg_mquot *q,
                            uint32_t u)
{
    return sg_mquot_word(buf, size, q, q->nf + (size_t)u * q->ngens);
}

void cli_mquot_write(cli_rec *r, const sg_mquot *q, const char *stopped,
                     const char *source)
{
    char a[4096], b[4096];
    size_t i, np = 0;
    uint32_t u;

    for (u = 0; u < q->order; u++)
        np += q->p[u];
    cli_rec_obj(r, "quotient");
    cli_rec_uint(r, "heaps", q->heaps);
    cli_rec_uint(r, "order", q->order);
    cli_rec_arr(r, "orders");
    for (i = 1; i <= q->heaps; i++)
        cli_rec_uint(r, NULL, q->orders[i]);
    cli_rec_close(r);
    cli_rec_arr(r, "generators");
    for (i = 0; i < q->ngens; i++) {
        cli_rec_obj(r, NULL);
        cli_rec_str(r, "name", sg_mquot_gen_name(a, sizeof a, i));
        cli_rec_strf(r, "heap", "%zu", q->gen_heap[i]);
        cli_rec_close(r);
    }
    cli_rec_close(r);
    cli_rec_arr(r, "relations");
    for (i = 0; i < q->nrel; i++) {
        cli_rec_obj(r, NULL);
        cli_rec_str(r, "word",
                    sg_mquot_word(a, sizeof a, q, q->rel + i * q->ngens));
        cli_rec_str(r, "equals", mquot_nf(b, sizeof b, q, q->rel_rhs[i]));
        cli_rec_close(r);
    }
    cli_rec_close(r);
    cli_rec_arr(r, "p_portion");
    for (u = 0; u < q->order; u++)
        if (q->p[u])
            cli_rec_str(r, NULL, mquot_nf(a, sizeof a, q, u));
    cli_rec_close(r);
    cli_rec_arr(r, "heap_words");
    for (i = 0; i <= q->heaps; i++)
        cli_rec_str(r, NULL, mquot_nf(a, sizeof a, q, q->heap[i]));
    cli_rec_close(r);
    cli_rec_uint(r, "test_sums", q->suffixes);
    cli_rec_uint(r, "proof_states", q->states);
    cli_rec_uint(r, "positions", q->positions);
    cli_rec_uint_or_null(r, "stopped_at", q->stopped_at != 0, q->stopped_at);
    if (stopped)
        cli_rec_str(r, "stopped", stopped);
    else
        cli_rec_null(r, "stopped");
    cli_rec_str(r, "source", source);
    cli_rec_uint_or_null(r, "resumed_from", q->resumed_from != 0,
                         q->resumed_from);
    cli_rec_close(r);
    if (r->json)
        return;
    if (q->heaps == 0) /* stopped before heap 1: not "heaps 1..0" */
        cli_rec_textf(r, "misère quotient: no heap finished (order 1, the "
                         "empty sum alone)\n");
    else
        cli_rec_textf(r,
                      "misère quotient of the sums of heaps 1..%zu: order "
                      "%zu, %zu generators, P-portion of %zu (proven: %zu "
                      "test sums, %zu states checked)\n",
                      q->heaps, q->order, q->ngens, np, q->suffixes, q->states);
    if (strcmp(source, "cache") == 0)
        cli_rec_textf(r, "  from the cache\n");
    else if (q->resumed_from)
        cli_rec_textf(r,
                      "  extended: resumed from the cached quotient of "
                      "heaps 1..%zu\n",
                      q->resumed_from);
    cli_rec_textf(r, "  generators:");
    for (i = 0; i < q->ngens; i++) {
        cli_rec_textf(r, "%s %s = heap %zu", i ? "," : "",
                      sg_mquot_gen_name(a, sizeof a, i), q->gen_heap[i]);
    }
    cli_rec_textf(r, "%s\n", q->ngens ? "" : " none");
    cli_rec_textf(r, "  relations:");
    for (i = 0; i < q->nrel; i++)
        cli_rec_textf(r, "%s %s = %s", i ? "," : "",
                      sg_mquot_word(a, sizeof a, q, q->rel + i * q->ngens),
                      mquot_nf(b, sizeof b, q, q->rel_rhs[i]));
    cli_rec_textf(r, "%s\n", q->nrel ? "" : " none");
    cli_rec_textf(r, "  P-portion:");
    for (u = 0, i = 0; u < q->order; u++)
        if (q->p[u])
            cli_rec_textf(r, "%s %s", i++ ? "," : "",
                          mquot_nf(a, sizeof a, q, u));
    cli_rec_textf(r, "%s\n", np ? "" : " empty");
    cli_rec_textf(r, "  heaps:");
    for (i = 1; i <= q->heaps; i++)
        cli_rec_textf(r, " %zu:%s", i, mquot_nf(a, sizeof a, q, q->heap[i]));
    cli_rec_textf(r, "\n  order by heaps 1..k:");
    for (i = 1; i <= q->heaps; i++)
        cli_rec_textf(r, " %zu", q->orders[i]);
    cli_rec_textf(r, "\n");
    if (stopped)
        cli_rec_textf(r, "misère quotient: heap %zu not finished: %s\n",
                      q->stopped_at, stopped);
}
