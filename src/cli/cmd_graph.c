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

/* The same as a JSON string. */
static void json_value(FILE *f, const sg_graph *g, const sg_value *values,
                       sg_vertex v, sg_value shift, sg_value *buf)
{
    fputc('"', f);
    print_value(f, g, values, v, shift, buf);
    fputc('"', f);
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

static int graph_run(const cli_command *self, cli_args *a)
{
    int rc = EXIT_DONE;
    graph_opts o;
    sg_graph g;
    sg_value *values = NULL, *buf = NULL;
    uint8_t *outcome = NULL;
    sg_vertex *asked = NULL, *tokens;
    size_t nasked = 0, ntokens = 0, i;
    sg_graph_position pos;
    sg_error err;
    FILE *f = stdout;

    (void)self;
    memset(&o, 0, sizeof o);
    sg_graph_init(&g);
    o.nvertex = cli_count(a, "--vertex");
    o.vertex = calloc(o.nvertex + 1, sizeof *o.vertex);
    if (!o.vertex) {
        cli_error("out of memory");
        return EXIT_RUNTIME;
    }
    for (i = 0; i < o.nvertex; i++)
        o.vertex[i] = cli_get_nth(a, "--vertex", i);
    o.position = cli_get(a, "--position");
    o.loopy = cli_get(a, "--loopy") != NULL;
    o.outcome = cli_get(a, "--outcome") != NULL;
    o.json = cli_json(a);
    o.file = cli_pos(a, 0);
    if (cli_npos(a) > 1) {
        cli_error("graph: only one graph at a time ('%s', '%s')",
                  cli_quote(cli_pos(a, 0)), cli_quote(cli_pos(a, 1)));
        rc = EXIT_USAGE;
        goto out;
    }
    if (!o.file) {
        cli_error("graph: no graph given (a FILE, or - for stdin; try "
                  "sgexplore graph --help)");
        rc = EXIT_USAGE;
        goto out;
    }
    if (o.outcome && o.position) {
        cli_error("graph: --position and --outcome do not combine: the "
                  "outcome classes are of single games, and sums of "
                  "partizan games do not reduce to nim-sums");
        rc = EXIT_USAGE;
        goto out;
    }
    if ((rc = load_graph(&g, o.file)))
        goto out;
    if ((rc = resolve(&asked, &nasked, &g, &o)))
        goto out;
    tokens = asked + o.nvertex;
    ntokens = nasked - o.nvertex;

    if (o.outcome) {
        outcome = malloc(g.nvertices);
        if (!outcome) {
            cli_error("out of memory");
            rc = EXIT_RUNTIME;
            goto out;
        }
        if (sg_graph_outcome(outcome, &g, o.loopy, &cli_cancel, &err)) {
            rc = report(strcmp(o.file, "-") == 0 ? "stdin" : o.file, &err,
                        "--outcome --loopy allows cycles, with draws");
            goto out;
        }
    } else {
        sg_status st;
        values = malloc(g.nvertices * sizeof *values);
        buf = malloc((g.maxdeg + 1) * sizeof *buf);
        if (!values || !buf) {
            cli_error("out of memory");
            rc = EXIT_RUNTIME;
            goto out;
        }
        st = o.loopy ? sg_graph_loopy(values, &g, &cli_cancel, &err)
                     : sg_graph_grundy(values, &g, &cli_cancel, &err);
        if (st) {
            rc = report(strcmp(o.file, "-") == 0 ? "stdin" : o.file, &err,
                        sg_graph_is_partizan(&g)
                            ? "--outcome gives its outcome classes"
                            : "--loopy computes the generalized "
                              "Sprague-Grundy function of a game with "
                              "cycles");
            goto out;
        }
        if (o.position && sg_graph_position_analyse(&pos, &g, values, tokens,
                                                    ntokens, &err)) {
            rc = report("--position", &err, "a sum of tokens");
            goto out;
        }
    }

    /* Which vertices to list: those asked for, else the position's
     * tokens, else all. */
    {
        const sg_vertex *list = o.nvertex ? asked : tokens;
        size_t nlist = o.nvertex ? o.nvertex : ntokens;
        int all = !o.nvertex && !o.position;
        size_t count = all ? g.nvertices : nlist;

        if (o.json) {
            fputs("{\"graph\":", f);
            cli_json_string(f, o.file);
            fprintf(f,
                    ",\"vertices\":%zu,\"moves\":%zu,\"partizan\":%s,"
                    "\"loopy\":%s,\"%s\":[",
                    g.nvertices, g.nedges,
                    sg_graph_is_partizan(&g) ? "true" : "false",
                    o.loopy ? "true" : "false",
                    o.outcome ? "outcomes" : "values");
        } else {
            printf("graph: %s\nvertices: %zu\nmoves: %zu\n",
                   strcmp(o.file, "-") == 0 ? "(stdin)" : o.file, g.nvertices,
                   g.nedges);
        }
        for (i = 0; i < count; i++) {
            sg_vertex v = all ? (sg_vertex)i : list[i];
            const char *nm = sg_graph_name(&g, v);
            if (o.json) {
                fputs(i ? ",{\"vertex\":" : "{\"vertex\":", f);
                cli_json_string(f, nm);
                if (o.outcome) {
                    fputs(",\"outcome\":", f);
                    cli_json_string(f, sg_outcome_name(outcome[v]));
                } else {
                    fputs(",\"value\":", f);
                    json_value(f, &g, values, v, 0, buf);
                    if (values[v] == SG_VALUE_INFINITE) {
                        size_t n = sg_graph_finite_followers(buf, g.maxdeg + 1,
                                                             &g, values, v),
                               j;
                        fputs(",\"followers\":[", f);
                        for (j = 0; j < n; j++)
                            fprintf(f, "%s%lu", j ? "," : "",
                                    (unsigned long)buf[j]);
                        fputc(']', f);
                    }
                }
                fputc('}', f);
            } else if (o.outcome) {
                printf("outcome(%s) = %s\n", nm, sg_outcome_name(outcome[v]));
            } else {
                printf("G(%s) = ", nm);
                print_value(f, &g, values, v, 0, buf);
                putchar('\n');
            }
        }
        if (o.json)
            fputc(']', f);
    }

    if (o.position) {
        /* the sum's value: the nim-sum, or with one infinite token its
         * followers shifted by the nim-sum of the others, or with more an
         * infinity without finite followers */
        if (o.json) {
            fputs(",\"position\":{\"nim_sum\":", f);
            if (pos.ninfinite == 0)
                fprintf(f, "\"%lu\"", (unsigned long)pos.nim_sum);
            else if (pos.ninfinite == 1)
                json_value(f, &g, values, tokens[pos.infinite_token],
                           pos.nim_sum, buf);
            else
                fputs("\"\xe2\x88\x9e{}\"", f);
            fputs(",\"winner\":", f);
            cli_json_string(f, winner_word(pos.winner));
            fputs(",\"move\":", f);
            if (pos.move_token < 0) {
                fputs("null", f);
            } else {
                fprintf(f, "{\"heap\":%ld,\"from\":", pos.move_token);
                cli_json_string(f, sg_graph_name(&g, tokens[pos.move_token]));
                fputs(",\"to\":", f);
                cli_json_string(f, sg_graph_name(&g, pos.move_to));
                fputc('}', f);
            }
            fputc('}', f);
        } else {
            printf("nim-sum: ");
            if (pos.ninfinite == 0)
                printf("%lu", (unsigned long)pos.nim_sum);
            else if (pos.ninfinite == 1)
                print_value(f, &g, values, tokens[pos.infinite_token],
                            pos.nim_sum, buf);
            else
                printf("\xe2\x88\x9e{}");
            printf("\nwinner: %s\n", winner_word(pos.winner));
            if (pos.move_token >= 0)
                printf("move: token #%ld (%s) to %s\n", pos.move_token,
                       sg_graph_name(&g, tokens[pos.move_token]),
                       sg_graph_name(&g, pos.move_to));
        }
    }
    if (o.json)
        fputs("}\n", f);
    if (fflush(f) != 0 || ferror(f)) {
        cli_error("graph: cannot write the output: %s", strerror(errno));
        rc = EXIT_RUNTIME;
    }
out:
    free(o.vertex);
    free(asked);
    free(values);
    free(buf);
    free(outcome);
    sg_graph_clear(&g);
    return rc;
}
