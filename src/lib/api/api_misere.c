/*
 * api_misere.c - misère play in the installed API: the genus of a
 * rule's heaps, misère positions decided by the tame rule, the proven
 * quotient or an exact search, and the quotient presented as text.
 */
#define _GNU_SOURCE
#include "api/api_impl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MISERE_BUDGET ((size_t)256 << 20)
#define MISERE_MAX_ORDER 1024

static sg_status need_rule(const sg_game *g)
{
    return sgi_api_failf(SG_E_INPUT,
                         "%s: misère play needs a rule text, not a function",
                         g->canon);
}

static size_t budget_of(uint64_t b)
{
    return b == 0 ? MISERE_BUDGET : b > SIZE_MAX ? SIZE_MAX : (size_t)b;
}

sg_status sg_game_misere(sg_game *g, uint64_t heaps, uint64_t budget_bytes)
{
    sg_error err;
    sg_status st;

    if (!g->has_rule)
        return need_rule(g);
    if (heaps > ((uint64_t)1 << 32))
        return sgi_api_failf(SG_E_INPUT, "misère heaps %llu: too many",
                             (unsigned long long)heaps);
    sg_misere_clear(&g->mis);
    sg_misere_init(&g->mis);
    st = sg_misere_analyse(&g->mis, &g->rule, (size_t)heaps,
                           budget_of(budget_bytes), g->cancel, &err);
    return st ? sgi_api_fail(&err) : SG_OK;
}

uint64_t sg_game_misere_count(const sg_game *g)
{
    return g->mis.n;
}

uint64_t sg_game_misere_tame_to(const sg_game *g)
{
    return g->mis.tame_to;
}

sg_status sg_game_misere_values(const sg_game *g, uint64_t a, uint64_t b,
                                uint32_t *out)
{
    uint64_t i;

    if (a > b || b > g->mis.n)
        return sgi_api_failf(SG_E_UNKNOWN,
                             "misère values %llu..%llu: the genus is known "
                             "for heaps below %llu",
                             (unsigned long long)a, (unsigned long long)b,
                             (unsigned long long)g->mis.n);
    for (i = a; i < b; i++)
        out[i - a] = g->mis.value[i];
    return SG_OK;
}

sg_status sg_game_genus(const sg_game *g, uint64_t heap, char **text)
{
    char buf[16 + 11 * SG_GENUS_MAX];

    *text = NULL;
    if (heap >= g->mis.n)
        return sgi_api_failf(SG_E_UNKNOWN,
                             "the genus of heap %llu is not known: heaps "
                             "below %llu are",
                             (unsigned long long)heap,
                             (unsigned long long)g->mis.n);
    sg_genus_format(buf, sizeof buf, &g->mis.genus[heap]);
    if (!(*text = strdup(buf)))
        return sgi_api_failf(SG_E_NOMEM, "out of memory");
    return SG_OK;
}

static const char *method_name(sg_misere_method m)
{
    switch (m) {
    case SG_MISERE_TAME:
        return "tame";
    case SG_MISERE_QUOTIENT:
        return "quotient";
    case SG_MISERE_SEARCH:
        return "search";
    }
    return "search";
}

sg_status sg_game_misere_position(sg_answer **out, sg_game *g,
                                  const uint64_t *heaps, size_t n,
                                  uint64_t budget_bytes)
{
    sg_misere_position p;
    sg_answer *a = NULL;
    sg_error err;
    sg_status st;
    size_t *h, i;
    int in_quot = g->quot.order > 0, tame = 1, k;

    *out = NULL;
    if (!g->has_rule)
        return need_rule(g);
    if (n == 0)
        return sgi_api_failf(SG_E_INPUT, "a position of no heaps");
    if (!(h = malloc(n * sizeof *h)))
        return sgi_api_failf(SG_E_NOMEM, "out of memory");
    for (i = 0; i < n; i++) {
        h[i] = (size_t)heaps[i];
        if (heaps[i] > g->quot.heaps)
            in_quot = 0;
        if (heaps[i] >= g->mis.tame_to)
            tame = 0;
    }
    memset(&p, 0, sizeof p);
    /* as the program decides: the tame rule first, then the quotient */
    st = !tame && in_quot
             ? sg_misere_position_quotient(&p, &g->rule, &g->quot, h, n, &err)
             : sg_misere_position_analyse(&p, &g->rule, &g->mis, h, n,
                                          budget_of(budget_bytes), g->cancel,
                                          &err);
    free(h);
    if (st)
        return sgi_api_fail(&err);
    if (!(a = calloc(1, sizeof *a)))
        return sgi_api_failf(SG_E_NOMEM, "out of memory");
    a->n = n;
    a->first_wins = p.first_wins;
    a->method = method_name(p.method);
    a->move_heap = p.move_heap;
    if (p.move_heap >= 0) {
        if (asprintf(&a->take, "%zu", p.take) < 0) {
            a->take = NULL;
            goto nomem;
        }
        if (p.nparts > 0 &&
            !(a->left = calloc((size_t)p.nparts, sizeof *a->left)))
            goto nomem;
        a->nleft = (size_t)(p.nparts > 0 ? p.nparts : 0);
        for (k = 0; k < p.nparts; k++)
            if (asprintf(&a->left[k], "%zu", p.part[k]) < 0) {
                a->left[k] = NULL;
                goto nomem;
            }
    }
    *out = a;
    return SG_OK;
nomem:
    sg_answer_free(a);
    return sgi_api_failf(SG_E_NOMEM, "out of memory");
}

/* Append the word of exponents e to the text being built. */
static void put_word(FILE *f, const sg_mquot *q, const uint32_t *e)
{
    char buf[4096];

    fputs(sg_mquot_word(buf, sizeof buf, q, e), f);
}

/* The quotient as text (see sgexplore_api.h). */
static sg_status quot_text(sg_game *g)
{
    const sg_mquot *q = &g->quot;
    char *text = NULL, name[32];
    size_t len = 0, i, u;
    FILE *f = open_memstream(&text, &len);

    if (!f)
        return sgi_api_failf(SG_E_NOMEM, "out of memory");
    fprintf(f, "heaps %zu order %zu\n", q->heaps, q->order);
    for (i = 0; i < q->ngens; i++)
        fprintf(f, "%s = heap %zu\n", sg_mquot_gen_name(name, sizeof name, i),
                q->gen_heap[i]);
    for (i = 0; i < q->nrel; i++) {
        put_word(f, q, q->rel + i * q->ngens);
        fputs(" = ", f);
        put_word(f, q, q->nf + (size_t)q->rel_rhs[i] * q->ngens);
        fputc('\n', f);
    }
    fputs("P:", f);
    for (u = 0; u < q->order; u++)
        if (q->p[u]) {
            fputc(' ', f);
            put_word(f, q, q->nf + u * q->ngens);
        }
    fputc('\n', f);
    if (fclose(f) != 0 || !text) {
        free(text);
        return sgi_api_failf(SG_E_NOMEM, "out of memory");
    }
    free(g->quot_text);
    g->quot_text = text;
    return SG_OK;
}

sg_status sg_game_quotient(sg_game *g, uint64_t heaps, uint64_t max_order,
                           uint64_t budget_bytes)
{
    sg_error err;
    sg_status st, tst;

    if (!g->has_rule)
        return need_rule(g);
    if (heaps > ((uint64_t)1 << 20))
        return sgi_api_failf(SG_E_INPUT, "quotient of %llu heaps: too many",
                             (unsigned long long)heaps);
    sg_mquot_clear(&g->quot);
    sg_mquot_init(&g->quot);
    free(g->quot_text);
    g->quot_text = NULL;
    st = sg_misere_quotient(&g->quot, &g->rule, (size_t)heaps,
                            max_order ? (size_t)max_order : MISERE_MAX_ORDER,
                            budget_of(budget_bytes), g->cancel, &err);
    if (g->quot.order > 0 && (tst = quot_text(g)))
        return tst;
    return st ? sgi_api_fail(&err) : SG_OK;
}

uint64_t sg_game_quotient_heaps(const sg_game *g)
{
    return g->quot.order ? g->quot.heaps : 0;
}

uint64_t sg_game_quotient_order(const sg_game *g)
{
    return g->quot.order;
}

const char *sg_game_quotient_text(const sg_game *g)
{
    return g->quot_text;
}
