/*
 * cmd_graph.c - `sgexplore graph FILE|-`: an explicit finite game given as
 * a graph (docs/GRAPHS.md).  Prints the Sprague-Grundy value of every
 * vertex (or of --vertex NAME), the generalized values of a loopy game
 * (--loopy), the outcome classes of a partizan one (--outcome), and for
 * --position the nim-sum, the winner and a winning move of a sum of
 * tokens, with the keys the heap analysis uses.  The work is in graph.c.
 */
#define _DEFAULT_SOURCE
#include "cli.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const cli_opt graph_opts_table[] = {
    {"--vertex", NULL, "NAME", "only this vertex's value (repeatable)"},
    {"--position", NULL, "A,B,...",
     "tokens on A, B, ...: nim-sum, winner, a winning move"},
    {"--loopy", NULL, NULL,
     "allow cycles: generalized values, e.g. \xe2\x88\x9e{0,2}"},
    {"--outcome", NULL, NULL,
     "outcome class N, P, L or R of each vertex (partizan)"},
    {NULL, NULL, NULL, NULL},
};

static int graph_run(const cli_command *self, cli_args *a);

const cli_command cli_cmd_graph = {
    "graph",
    "graph FILE|- [--vertex NAME]... [--position NAME,NAME,...] [--loopy]\n"
    "graph FILE|- --outcome [--loopy]",
    "Values of a finite game given as a graph.  One line per vertex: its\n"
    "name and then the names it moves to; 'L:name' / 'R:name' for a move\n"
    "of Left / Right only; '#' comments (docs/GRAPHS.md).  With --loopy\n"
    "the winner of a position may be \"draw\"; --outcome classes are of\n"
    "single games (sums of partizan games do not reduce to nim-sums).\n"
    "Exit status 2 also for a cycle without --loopy.",
    0,
    graph_opts_table,
    graph_run,
};

/* What the command was asked. */
typedef struct graph_opts {
    const char *file;
    const char **vertex;
    size_t nvertex;
    const char *position;
    int loopy, outcome, json;
} graph_opts;

/* A value as text: the decimal number, or an infinity with its finite
 * followers "∞{0,2}" (K xor `shift` for a sum). */
static void print_value(FILE *f, const sg_graph *g, const sg_value *values,
                        sg_vertex v, sg_value shift, sg_value *buf)
{
    sg_value x = values[v];
    size_t n, i;

    if (x != SG_VALUE_INFINITE) {
        fprintf(f, "%lu", (unsigned long)x);
        return;
    }
    n = sg_graph_finite_followers(buf, g->maxdeg + 1, g, values, v);
    for (i = 0; i < n; i++)
        buf[i] ^= shift;
    /* xor with a constant reorders the set: sort again (it is small) */
    for (i = 1; i < n; i++) {
        sg_value t = buf[i];
        size_t j = i;
        while (j > 0 && buf[j - 1] > t) {
            buf[j] = buf[j - 1];
            j--;
        }
        buf[j] = t;
    }
    fputs("\xe2\x88\x9e{", f);
    for (i = 0; i < n; i++)
        fprintf(f, "%s%lu", i ? "," : "", (unsigned long)buf[i]);
    fputc('}', f);
}

/* A vertex's value in the record: "value" (an integer, or null when
 * infinite, with the finite "followers") and its text ("G(a) = ...").  */
static void value_write(cli_rec *r, const sg_graph *g, const sg_value *values,
                        sg_vertex v, sg_value *buf)
{
    size_t n, j;

    if (values[v] != SG_VALUE_INFINITE) {
        cli_rec_uint(r, "value", values[v]);
    } else {
        cli_rec_null(r, "value");
        n = sg_graph_finite_followers(buf, g->maxdeg + 1, g, values, v);
        cli_rec_arr(r, "followers");
        for (j = 0; j < n; j++)
            cli_rec_uint(r, NULL, buf[j]);
        cli_rec_close(r);
    }
    if (!r->json)
        print_value(r->f, g, values, v, 0, buf);
}

/* Look the names of --vertex and --position up. */
static int resolve(sg_vertex **out, size_t *n, const sg_graph *g,
                   const graph_opts *o)
{
    size_t i, cap;
    const char *p;

    *n = 0;
    cap = o->nvertex + 1;
    if (o->position)
        for (p = o->position; *p; p++)
            cap += *p == ',';
    cap += o->position != NULL;
    *out = malloc(cap * sizeof **out);
    if (!*out) {
        cli_error("out of memory");
        return EXIT_RUNTIME;
    }
    for (i = 0; i < o->nvertex; i++) {
        if (!sg_graph_find(&(*out)[*n], g, o->vertex[i],
                           strlen(o->vertex[i]))) {
            cli_error("graph: --vertex '%s': no such vertex", o->vertex[i]);
            return EXIT_USAGE;
        }
        (*n)++;
    }
    if (o->position) {
        p = o->position;
        for (;;) {
            const char *c = strchr(p, ',');
            size_t len = c ? (size_t)(c - p) : strlen(p);
            if (len == 0 || !sg_graph_find(&(*out)[*n], g, p, len)) {
                cli_error("graph: --position '%s': %s%.*s%s", o->position,
                          len ? "no such vertex '" : "an empty name", (int)len,
                          p, len ? "'" : "");
                return EXIT_USAGE;
            }
            (*n)++;
            if (!c)
                break;
            p = c + 1;
        }
    }
    return EXIT_DONE;
}

/* Read FILE or stdin into g. */
static int load_graph(sg_graph *g, const char *file)
{
    FILE *f = strcmp(file, "-") == 0 ? stdin : fopen(file, "r");
    sg_error err;
    sg_status st;

    if (!f) {
        cli_error("graph: cannot open '%s': %s", file, strerror(errno));
        return EXIT_RUNTIME;
    }
    st = sg_graph_read(g, f, &err);
    if (f != stdin)
        fclose(f);
    if (st)
        return cli_report(strcmp(file, "-") == 0 ? "graph: stdin" : file, NULL,
                          &err);
    return EXIT_DONE;
}

/* One error line about `what`; `hint` (an option that helps) is added
 * to input errors. */
static int report(const char *what, const sg_error *err, const char *hint)
{
    if (err->code == SG_E_INPUT)
        cli_error("%s: %s (%s)", what, err->msg, hint);
    else
        cli_error("%s: %s", what, err->msg);
    return cli_status_exit(err->code);
}

static const char *winner_word(int w)
{
    return w == SG_WINNER_FIRST    ? "first"
           : w == SG_WINNER_SECOND ? "second"
                                   : "draw";
}

/* What was computed about the graph. */
typedef struct graph_answer {
    sg_graph g;
    sg_value *values, *buf;
    uint8_t *outcome;
    sg_vertex *asked, *tokens;
    size_t nasked, ntokens;
    sg_graph_position pos;
} graph_answer;

/* Read the options; exit status after one error line. */
static int graph_options(graph_opts *o, const cli_args *a)
{
    size_t i;

    memset(o, 0, sizeof *o);
    o->nvertex = cli_count(a, "--vertex");
    o->vertex = calloc(o->nvertex + 1, sizeof *o->vertex);
    if (!o->vertex) {
        cli_error("out of memory");
        return EXIT_RUNTIME;
    }
    for (i = 0; i < o->nvertex; i++)
        o->vertex[i] = cli_get_nth(a, "--vertex", i);
    o->position = cli_get(a, "--position");
    o->loopy = cli_get(a, "--loopy") != NULL;
    o->outcome = cli_get(a, "--outcome") != NULL;
    o->json = cli_json(a);
    o->file = cli_pos(a, 0);
    if (cli_npos(a) > 1) {
        cli_error("graph: only one graph at a time ('%s', '%s')",
                  cli_quote(cli_pos(a, 0)), cli_quote(cli_pos(a, 1)));
        return EXIT_USAGE;
    }
    if (!o->file) {
        cli_error("graph: no graph given (a FILE, or - for stdin; try "
                  "sgexplore graph --help)");
        return EXIT_USAGE;
    }
    if (o->outcome && o->position) {
        cli_error("graph: --position and --outcome do not combine: the "
                  "outcome classes are of single games, and sums of "
                  "partizan games do not reduce to nim-sums");
        return EXIT_USAGE;
    }
    return EXIT_DONE;
}

/* Load the graph and compute what was asked.  Exit status. */
static int graph_compute(graph_answer *x, const graph_opts *o)
{
    const char *name = strcmp(o->file, "-") == 0 ? "stdin" : o->file;
    sg_error err;
    sg_status st;
    int rc;

    if ((rc = load_graph(&x->g, o->file)))
        return rc;
    if ((rc = resolve(&x->asked, &x->nasked, &x->g, o)))
        return rc;
    x->tokens = x->asked + o->nvertex;
    x->ntokens = x->nasked - o->nvertex;
    if (o->outcome) {
        if (!(x->outcome = malloc(x->g.nvertices ? x->g.nvertices : 1))) {
            cli_error("out of memory");
            return EXIT_RUNTIME;
        }
        if (sg_graph_outcome(x->outcome, &x->g, o->loopy, &cli_cancel, &err))
            return report(name, &err,
                          "--outcome --loopy allows cycles, with draws");
        return EXIT_DONE;
    }
    x->values =
        malloc((x->g.nvertices ? x->g.nvertices : 1) * sizeof *x->values);
    x->buf = malloc((x->g.maxdeg + 1) * sizeof *x->buf);
    if (!x->values || !x->buf) {
        cli_error("out of memory");
        return EXIT_RUNTIME;
    }
    st = o->loopy ? sg_graph_loopy(x->values, &x->g, &cli_cancel, &err)
                  : sg_graph_grundy(x->values, &x->g, &cli_cancel, &err);
    if (st)
        return report(name, &err,
                      sg_graph_is_partizan(&x->g)
                          ? "--outcome gives its outcome classes"
                          : "--loopy computes the generalized "
                            "Sprague-Grundy function of a game with cycles");
    if (o->position && sg_graph_position_analyse(&x->pos, &x->g, x->values,
                                                 x->tokens, x->ntokens, &err))
        return report("--position", &err, "a sum of tokens");
    return EXIT_DONE;
}

/* The list of vertices: those asked for, else the position's tokens,
 * else all; "vertex_values" ({"vertex", "value"}) or "outcomes"
 * ({"vertex", "outcome"}). */
static void vertices_write(cli_rec *r, const graph_answer *x,
                           const graph_opts *o)
{
    const sg_vertex *list = o->nvertex ? x->asked : x->tokens;
    size_t nlist = o->nvertex ? o->nvertex : x->ntokens, i;
    int all = !o->nvertex && !o->position;
    size_t count = all ? x->g.nvertices : nlist;

    cli_rec_arr(r, o->outcome ? "outcomes" : "vertex_values");
    for (i = 0; i < count; i++) {
        sg_vertex v = all ? (sg_vertex)i : list[i];
        const char *nm = sg_graph_name(&x->g, v);
        cli_rec_obj(r, NULL);
        cli_rec_str(r, "vertex", nm);
        if (o->outcome) {
            cli_rec_str(r, "outcome", sg_outcome_name(x->outcome[v]));
            cli_rec_textf(r, "outcome(%s) = %s\n", nm,
                          sg_outcome_name(x->outcome[v]));
        } else {
            cli_rec_textf(r, "G(%s) = ", nm);
            value_write(r, &x->g, x->values, v, x->buf);
            cli_rec_textf(r, "\n");
        }
        cli_rec_close(r);
    }
    cli_rec_close(r);
}

/* The sum's answer: the nim-sum (with one infinite token its followers
 * shifted by the nim-sum of the others, with more an infinity without
 * finite followers), the winner and a winning move. */
static void position_write(cli_rec *r, const graph_answer *x)
{
    const sg_graph_position *p = &x->pos;
    char *text = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&text, &len);

    if (mem) {
        if (p->ninfinite == 0)
            fprintf(mem, "%lu", (unsigned long)p->nim_sum);
        else if (p->ninfinite == 1)
            print_value(mem, &x->g, x->values, x->tokens[p->infinite_token],
                        p->nim_sum, x->buf);
        else
            fputs("\xe2\x88\x9e{}", mem);
        fclose(mem);
    } else {
        cli_out_of_memory = 1;
    }
    cli_rec_obj(r, "position");
    cli_rec_str(r, "nim_sum", text ? text : "?");
    cli_rec_str(r, "winner", winner_word(p->winner));
    if (p->move_token < 0) {
        cli_rec_null(r, "move");
    } else {
        cli_rec_obj(r, "move");
        cli_rec_int(r, "heap", p->move_token);
        cli_rec_str(r, "from", sg_graph_name(&x->g, x->tokens[p->move_token]));
        cli_rec_str(r, "to", sg_graph_name(&x->g, p->move_to));
        cli_rec_close(r);
    }
    cli_rec_close(r);
    cli_rec_textf(r, "nim-sum: %s\nwinner: %s\n", text ? text : "?",
                  winner_word(p->winner));
    if (p->move_token >= 0)
        cli_rec_textf(r, "move: token #%ld (%s) to %s\n", p->move_token,
                      sg_graph_name(&x->g, x->tokens[p->move_token]),
                      sg_graph_name(&x->g, p->move_to));
    free(text);
}

static int graph_run(const cli_command *self, cli_args *a)
{
    graph_opts o;
    graph_answer x;
    cli_rec rec;
    int rc;

    (void)self;
    memset(&x, 0, sizeof x);
    sg_graph_init(&x.g);
    if ((rc = graph_options(&o, a)) || (rc = graph_compute(&x, &o)))
        goto out;
    cli_rec_begin(&rec, stdout, o.json);
    cli_rec_str(&rec, "graph", o.file);
    cli_rec_uint(&rec, "vertices", x.g.nvertices);
    cli_rec_uint(&rec, "moves", x.g.nedges);
    cli_rec_bool(&rec, "partizan", sg_graph_is_partizan(&x.g));
    cli_rec_bool(&rec, "loopy", o.loopy);
    cli_rec_textf(&rec, "graph: %s\nvertices: %zu\nmoves: %zu\n",
                  strcmp(o.file, "-") == 0 ? "(stdin)" : o.file, x.g.nvertices,
                  x.g.nedges);
    vertices_write(&rec, &x, &o);
    if (o.position)
        position_write(&rec, &x);
    /* a failed write is reported once, by cli_stdout_finish */
    cli_rec_end(&rec);
out:
    free(o.vertex);
    free(x.asked);
    free(x.values);
    free(x.buf);
    free(x.outcome);
    sg_graph_clear(&x.g);
    return rc;
}
