/*
 * fuzz_graph.c - fuzz target of the game-graph reader (`sgexplore graph
 * FILE`, src/lib/graph/graph.c): the input is the file.  It is read twice, from
 * memory (sg_graph_parse) and as a stream (sg_graph_read), which must
 * agree; an accepted graph must be well formed (offsets ordered, targets
 * in range, every name found again at its own vertex), and its values
 * must satisfy their definitions, checked here independently: on an
 * acyclic impartial graph each Grundy value is the mex of its followers'
 * and the loopy values equal them; a partizan graph gets outcomes.
 */
#define _GNU_SOURCE
#include "fuzz.h"
#include "sgexplore.h"

#include <stdio.h>

/* mex of the values of v's followers, by brute force. */
static sg_value mex_of(const sg_graph *g, const sg_value *val, sg_vertex v)
{
    sg_value m = 0;
    size_t e;
    int again = 1;

    while (again) {
        again = 0;
        for (e = g->first[v]; e < g->first[v + 1]; e++)
            if (val[g->to[e]] == m) {
                m++;
                again = 1;
            }
    }
    return m;
}

static void check_graph(const sg_graph *g)
{
    sg_vertex *cycle = NULL;
    sg_value *val, *loopy;
    uint8_t *out;
    sg_error err;
    size_t v, e, n = 0;

    SG_FUZZ_CHECK(g->nvertices >= 1);
    SG_FUZZ_CHECK(g->first[0] == 0 && g->first[g->nvertices] == g->nedges);
    for (v = 0; v < g->nvertices; v++) {
        const char *name = sg_graph_name(g, (sg_vertex)v);
        sg_vertex w;
        SG_FUZZ_CHECK(g->first[v] <= g->first[v + 1]);
        SG_FUZZ_CHECK(g->first[v + 1] - g->first[v] <= g->maxdeg);
        SG_FUZZ_CHECK(sg_graph_find(&w, g, name, strlen(name)) && w == v);
    }
    for (e = 0; e < g->nedges; e++)
        SG_FUZZ_CHECK(g->to[e] < g->nvertices);
    if (sg_graph_is_partizan(g)) {
        if ((out = malloc(g->nvertices)) &&
            sg_graph_outcome(out, g, 1, NULL, &err) == SG_OK)
            for (v = 0; v < g->nvertices; v++)
                SG_FUZZ_CHECK(sg_outcome_name(out[v]) != NULL);
        free(out);
        return;
    }
    if (sg_graph_find_cycle(&cycle, &n, g, &err) != SG_OK)
        return;
    val = malloc(g->nvertices * sizeof *val);
    loopy = malloc(g->nvertices * sizeof *loopy);
    if (val && loopy && sg_graph_loopy(loopy, g, NULL, &err) == SG_OK) {
        if (n == 0) {
            SG_FUZZ_CHECK(sg_graph_grundy(val, g, NULL, &err) == SG_OK);
            for (v = 0; v < g->nvertices; v++) {
                SG_FUZZ_CHECK(val[v] == mex_of(g, val, (sg_vertex)v));
                SG_FUZZ_CHECK(loopy[v] == val[v]);
            }
        } else {
            /* A cycle: the plain values refuse it, naming its vertices. */
            SG_FUZZ_CHECK(sg_graph_grundy(val, g, NULL, &err) == SG_E_INPUT);
            for (e = 0; e < n; e++)
                SG_FUZZ_CHECK(cycle[e] < g->nvertices);
        }
    }
    free(cycle);
    free(val);
    free(loopy);
}

SG_FUZZ_TARGET(graph)
{
    sg_graph a, b;
    sg_error ea, eb;
    sg_status sa, sb;
    FILE *f;
    char *copy;

    sg_graph_init(&a);
    sg_graph_init(&b);
    sa = sg_graph_parse(&a, (const char *)data, size, &ea);
    if (size == 0) {
        SG_FUZZ_CHECK(sa == SG_E_INPUT);
        return 0;
    }
    if (!(copy = sg_fuzz_text(data, size)) ||
        !(f = fmemopen(copy, size, "r"))) {
        free(copy);
        sg_graph_clear(&a);
        return 0;
    }
    sb = sg_graph_read(&b, f, &eb);
    fclose(f);
    free(copy);
    if (sa != SG_E_NOMEM && sb != SG_E_NOMEM) {
        SG_FUZZ_CHECK(sa == sb);
        if (sa == SG_OK)
            SG_FUZZ_CHECK(a.nvertices == b.nvertices && a.nedges == b.nedges);
        else
            SG_FUZZ_CHECK(strcmp(ea.msg, eb.msg) == 0 &&
                          strchr(ea.msg, '\n') == NULL);
    }
    if (sa == SG_OK)
        check_graph(&a);
    sg_graph_clear(&a);
    sg_graph_clear(&b);
    return 0;
}
