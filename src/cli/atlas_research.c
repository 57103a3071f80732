/*
 * atlas_research.c - the parts of an atlas page a researcher reads
 * beyond the claim (docs/ATLAS.md, issue 50): the largest value
 * computed; for an unresolved rule its observed candidate and why it is
 * unresolved, told apart honestly (no theorem of the tool applies to the
 * rule's form, which no --max changes; or a theorem applies and the
 * computed range ran out before its bound, or its hypotheses fail for
 * the candidate); and the misère genus and quotient the cache holds for
 * the rule.  Every fact is derived here from the row's values (checked
 * by the store against its certificate) or from the store's misère row
 * (hashed), never from a text of the cache; only the rule's own note
 * would be, and it is not used.
 */
#include "cli.h"
#include "atlas.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Misère heaps listed one per line, and relations of a quotient listed,
 * at most. */
#define MISERE_HEAPS 64
#define QUOT_LINES 48

/* The largest value of G(0..n-1) and its first heap. */
static void largest(const sg_seq *s, sg_value *v, uint64_t *first)
{
    size_t i;

    *v = 0;
    *first = 0;
    for (i = 0; i < s->n; i++)
        if (sg_seq_get(s, i) > *v) {
            *v = sg_seq_get(s, i);
            *first = i;
        }
}

static void largest_row(FILE *f, const arow *r, const sg_seq *s)
{
    sg_value v;
    uint64_t first;

    if (!s->n)
        return;
    largest(s, &v, &first);
    fprintf(f,
            "<tr id=\"largest\"><th>largest value</th><td>G(%llu) = %lu, "
            "the first heap with the largest of G(0..%llu)",
            (unsigned long long)first, (unsigned long)v,
            (unsigned long long)(s->n - 1));
    if (r->res.status == SG_ARITH_PERIODIC)
        fprintf(f,
                "; the values grow without bound (saltus %llu every %llu "
                "heaps)",
                (unsigned long long)r->res.saltus,
                (unsigned long long)r->res.period);
    else if (r->res.status == SG_PERIODIC)
        fputs("; the period repeats it, so it is the largest of all", f);
    fputs("</td></tr>\n", f);
}

/* The observed candidate of the values (sg_prove, as `cache show`
 * makes it: the cache keeps none), and why the rule is unresolved. */
static int unresolved_rows(FILE *f, const sg_rule *rule, const sg_seq *s)
{
    const char *why = NULL, *thm = sg_prove_theorem_for(rule, &why);
    sg_result tmp;
    const sg_observed *o = &tmp.observed;
    uint64_t n = s->n;

    memset(&tmp, 0, sizeof tmp);
    if (n && sg_prove(&tmp, rule, s) != SG_OK)
        return -1;
    if (tmp.status != SG_UNRESOLVED) /* an old row: proven now */
        memset(&tmp.observed, 0, sizeof tmp.observed);
    fputs("<tr id=\"observed\"><th>observed candidate</th><td>", f);
    if (o->have)
        fprintf(f,
                "pre-period %llu, period %llu, saltus %llu, holding over "
                "G(0..%llu): observed, not proven",
                (unsigned long long)o->preperiod, (unsigned long long)o->period,
                (unsigned long long)o->saltus, (unsigned long long)o->held_to);
    else
        fprintf(f,
                "none: no pattern repeats over three periods in the %llu "
                "values computed",
                (unsigned long long)n);
    fputs("</td></tr>\n", f);
    if (!thm) {
        fputs("<tr id=\"why\" data-why=\"no-theorem\"><th>why unresolved"
              "</th><td>no theorem of sgexplore applies to this rule's "
              "form, so no number of values proves it: ",
              f);
        cli_atlas_html(f, why ? why : "no theorem applies");
    } else if (o->have && o->needs != UINT64_MAX && o->needs >= n) {
        fputs("<tr id=\"why\" data-why=\"range\"><th>why unresolved</th>"
              "<td>the range ran out: the ",
              f);
        cli_atlas_html(f, thm);
        fprintf(f,
                " applies to this rule's form and would prove the observed "
                "candidate with G(0..%llu), past the %llu values computed "
                "(<code>--max %llu</code> proves it if the pattern goes on)",
                (unsigned long long)o->needs, (unsigned long long)n,
                (unsigned long long)o->needs + 1);
    } else if (o->have) {
        fputs("<tr id=\"why\" data-why=\"hypotheses\"><th>why unresolved"
              "</th><td>the ",
              f);
        cli_atlas_html(f, thm);
        fputs(" applies to this rule's form, but its hypotheses do not hold "
              "for the observed candidate as far as the values computed "
              "tell, so more values of the same pattern need not prove "
              "it",
              f);
    } else {
        fputs("<tr id=\"why\" data-why=\"range\"><th>why unresolved</th>"
              "<td>the range ran out: the ",
              f);
        cli_atlas_html(f, thm);
        fprintf(f,
                " applies to this rule's form, but no candidate period is "
                "seen yet in the %llu values computed",
                (unsigned long long)n);
    }
    fputs("</td></tr>\n", f);
    return 0;
}

int cli_atlas_research(FILE *f, const arow *r, const sg_rule *rule,
                       const sg_seq *s)
{
    int rc = 0;

    fputs("<h2>Research</h2>\n<table>\n", f);
    largest_row(f, r, s);
    if (!cli_atlas_proven(r))
        rc = unresolved_rows(f, rule, s);
    fputs("</table>\n", f);
    return rc;
}

/* ------------------------------------------------------------------ */
/* Misère play                                                          */
/* ------------------------------------------------------------------ */

static void genus_part(FILE *f, const sg_store_misere *m)
{
    const sg_misere *g = &m->genus;
    char buf[16 + 11 * SG_GENUS_MAX];
    size_t h, k = g->n < MISERE_HEAPS ? g->n : MISERE_HEAPS;

    fprintf(f,
            "<p id=\"misere-genus\">Genus of heaps 0..%zu, exact over %zu "
            "sums of heaps; ",
            g->n ? g->n - 1 : 0, g->positions);
    if (g->tame_to < g->n)
        fprintf(f, "heaps 0..%zu are tame, heap %zu is the first wild one.",
                g->tame_to ? g->tame_to - 1 : 0, g->tame_to);
    else
        fputs("every heap computed is tame.", f);
    if (m->genus_stopped)
        fprintf(f, " (%zu heaps were asked; the run stopped early.)",
                m->genus_asked);
    fputs("</p>\n<pre>", f);
    for (h = 0; h < k; h++) {
        fprintf(f, "%s%4zu: G-(%zu) = %lu, genus ", h ? "\n" : "", h, h,
                (unsigned long)g->value[h]);
        cli_atlas_html(f, sg_genus_format(buf, sizeof buf, &g->genus[h]));
    }
    if (k < g->n)
        fprintf(f, "\n... (%zu heaps more)", g->n - k);
    fputs("</pre>\n", f);
}

static void quot_part(FILE *f, const sg_store_misere *m)
{
    const sg_mquot *q = &m->quot;
    char buf[256];
    size_t u, j, i, np = 0;

    for (u = 0; u < q->order; u++)
        np += q->p[u] != 0;
    fprintf(f,
            "<p id=\"misere-quotient\">Misère quotient of heaps 1..%zu "
            "(proven by Theorem Q): order %zu, P-portion of %zu "
            "element%s, %zu generator%s",
            q->heaps, q->order, np, np == 1 ? "" : "s", q->ngens,
            q->ngens == 1 ? "" : "s");
    for (j = 0; j < q->ngens; j++) {
        fputs(j ? ", " : " (", f);
        cli_atlas_html(f, sg_mquot_gen_name(buf, sizeof buf, j));
        fprintf(f, " = heap %zu", q->gen_heap[j]);
    }
    fputs(q->ngens ? ")." : ".", f);
    if (q->stopped_at)
        fprintf(f, " Heap %zu was not finished.", q->stopped_at);
    fputs("</p>\n<pre>", f);
    for (i = 0; i < q->nrel && i < QUOT_LINES; i++) {
        fputs(i ? "\n" : "relations:\n", f);
        cli_atlas_html(
            f, sg_mquot_word(buf, sizeof buf, q, q->rel + i * q->ngens));
        fputs(" = ", f);
        cli_atlas_html(f,
                       sg_mquot_word(buf, sizeof buf, q,
                                     q->nf + (size_t)q->rel_rhs[i] * q->ngens));
    }
    if (q->nrel > QUOT_LINES)
        fprintf(f, "\n... (%zu relations more)", q->nrel - QUOT_LINES);
    fputs(q->nrel ? "\nP-portion:" : "P-portion:", f);
    for (u = 0, i = 0; u < q->order && i < QUOT_LINES; u++) {
        if (!q->p[u])
            continue;
        fputc(' ', f);
        cli_atlas_html(f,
                       sg_mquot_word(buf, sizeof buf, q, q->nf + u * q->ngens));
        i++;
    }
    if (i < np)
        fprintf(f, " ... (%zu more)", np - i);
    fputs("</pre>\n", f);
}

int cli_atlas_misere(FILE *f, sg_store *db, const char *canon,
                     const char *rerun)
{
    sg_store_misere m;
    sg_error err;
    int found = 0, rc = 0;

    sg_store_misere_init(&m);
    fputs("<h2>Misère play</h2>\n", f);
    if (sg_store_misere_get(db, canon, &m, &found, &err)) {
        if (err.code == SG_E_NOMEM)
            rc = -1;
        else
            fputs("<p id=\"misere-none\">The cache's misère row of this "
                  "rule is damaged (its hash does not match); nothing of "
                  "it is shown.</p>\n",
                  f);
    } else if (!found || (!m.have_genus && !m.have_quot)) {
        /* a canonical text has no quote: one shell word in quotes */
        fputs("<p id=\"misere-none\">No misère results are cached for this "
              "rule: <code>sgexplore &#39;",
              f);
        cli_atlas_html(f, rerun);
        fputs("&#39; --misere --quotient</code> computes and stores "
              "them.</p>\n",
              f);
    } else {
        if (m.have_genus)
            genus_part(f, &m);
        if (m.have_quot)
            quot_part(f, &m);
    }
    sg_store_misere_clear(&m);
    return rc;
}
