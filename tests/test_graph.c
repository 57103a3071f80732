/*
 * test_graph.c - unit tests of the game graphs (graph.c).  Every answer is
 * judged by a reference written here that knows nothing of the library's
 * methods: Grundy values by memoised recursion over the mex definition,
 * generalized Sprague-Grundy values by what they mean for play (u + *k is
 * a second-player win exactly when the value of u is k, and a first-player
 * win for k in the follower set of an infinite value, a draw otherwise),
 * decided by a plain fixpoint iteration over the sum's states; outcome
 * classes and sums of tokens by direct minimax.  Plus every kind of bad
 * input, with the line number it must name.
 */
#include "testutil.h"

#include <string.h>

#include "sgexplore.h"

/* ------------------------------------------------------------------ */
/* Random graphs, as adjacency lists and as text                        */
/* ------------------------------------------------------------------ */

#define MAXV 48
#define MAXD 6

typedef struct rgraph {
    int n;
    int deg[MAXV];
    int to[MAXV][MAXD];
    unsigned side[MAXV][MAXD]; /* SG_SIDE_* */
    int order[MAXV];           /* the order of the vertex lines */
} rgraph;

/* A random graph: acyclic (edges to higher numbers only) or not,
 * impartial or with random side marks; lines in random order. */
static void random_graph(rgraph *r, tu_rng *g, int acyclic, int partizan)
{
    int v, i;

    memset(r, 0, sizeof *r);
    r->n = (int)tu_range(g, 1, MAXV);
    for (v = 0; v < r->n; v++) {
        int d = (int)tu_range(g, 0, MAXD);
        for (i = 0; i < d; i++) {
            int w;
            if (acyclic) {
                if (v + 1 >= r->n)
                    break;
                w = (int)tu_range(g, (uint64_t)v + 1, (uint64_t)r->n - 1);
            } else {
                w = (int)tu_range(g, 0, (uint64_t)r->n - 1);
            }
            r->to[v][r->deg[v]] = w;
            r->side[v][r->deg[v]] =
                partizan ? (unsigned)tu_range(g, 1, 3) : SG_SIDE_BOTH;
            r->deg[v]++;
        }
        r->order[v] = v;
    }
    for (v = r->n - 1; v > 0; v--) {
        int k = (int)tu_range(g, 0, (uint64_t)v), t = r->order[v];
        r->order[v] = r->order[k];
        r->order[k] = t;
    }
}

/* Vertex names: some ASCII, some with multi-byte UTF-8. */
static void vname(char *buf, int v)
{
    if (v % 3 == 1)
        sprintf(buf, "\xc3\xa9t\xe2\x88\x9e%d", v); /* "ét∞" + v */
    else
        sprintf(buf, "v%d", v);
}

/* The text format, with comments and blank lines mixed in. */
static char *graph_text(const rgraph *r)
{
    size_t cap = 64 + (size_t)r->n * (MAXD + 2) * 24, o = 0;
    char *t = malloc(cap);
    int k, i;
    char nm[32];

    assert_non_null(t);
    o += (size_t)sprintf(t + o, "# a random graph\n\n");
    for (k = 0; k < r->n; k++) {
        int v = r->order[k];
        vname(nm, v);
        o += (size_t)sprintf(t + o, "%s", nm);
        for (i = 0; i < r->deg[v]; i++) {
            const char *pre = r->side[v][i] == SG_SIDE_LEFT    ? "L:"
                              : r->side[v][i] == SG_SIDE_RIGHT ? "R:"
                                                               : "";
            vname(nm, r->to[v][i]);
            o += (size_t)sprintf(t + o, "%s%s%s", i ? " " : "\t", pre, nm);
        }
        o += (size_t)sprintf(t + o, k % 4 == 1 ? "  # comment\n" : "\n");
        if (k % 5 == 2)
            o += (size_t)sprintf(t + o, "\n");
    }
    return t;
}

/* Parse r's text; map[v] = the library's number for reference vertex v,
 * checking names and moves on the way. */
static void load(sg_graph *gr, sg_vertex *map, const rgraph *r)
{
    char *t = graph_text(r);
    sg_error err;
    int v, i;
    char nm[32];

    sg_graph_init(gr);
    if (sg_graph_parse(gr, t, strlen(t), &err) != SG_OK)
        fail_msg("parse failed: %s (seed %llu)", err.msg, TU_SEED);
    assert_int_equal(gr->nvertices, r->n);
    for (v = 0; v < r->n; v++) {
        vname(nm, v);
        assert_true(sg_graph_find(&map[v], gr, nm, strlen(nm)));
        assert_string_equal(sg_graph_name(gr, map[v]), nm);
    }
    for (v = 0; v < r->n; v++) {
        sg_vertex u = map[v];
        assert_int_equal(gr->first[u + 1] - gr->first[u], r->deg[v]);
        for (i = 0; i < r->deg[v]; i++) {
            assert_int_equal(gr->to[gr->first[u] + (size_t)i],
                             map[r->to[v][i]]);
            if (gr->side)
                assert_int_equal(gr->side[gr->first[u] + (size_t)i],
                                 r->side[v][i]);
        }
    }
    free(t);
}

/* ------------------------------------------------------------------ */
/* References                                                           */
/* ------------------------------------------------------------------ */

/* Grundy value by recursion with memo (-1 unknown): mex of followers. */
static int ref_grundy(const rgraph *r, int v, int *memo)
{
    int seen[MAXD + 2] = {0}, i, x = 0;

    if (memo[v] >= 0)
        return memo[v];
    for (i = 0; i < r->deg[v]; i++) {
        int y = ref_grundy(r, r->to[v][i], memo);
        if (y <= MAXD)
            seen[y] = 1;
    }
    while (seen[x])
        x++;
    return memo[v] = x;
}

/* Minimax, memoised: does the player to move at v win?  p = 0 Left,
 * 1 Right; memo -1 unknown. */
static int ref_mover_wins(const rgraph *r, int v, int p, int (*memo)[2])
{
    unsigned need = p == 0 ? SG_SIDE_LEFT : SG_SIDE_RIGHT;
    int i, win = 0;

    if (memo[v][p] >= 0)
        return memo[v][p];
    for (i = 0; i < r->deg[v] && !win; i++)
        if ((r->side[v][i] & need) &&
            !ref_mover_wins(r, r->to[v][i], 1 - p, memo))
            win = 1;
    return memo[v][p] = win;
}

/* Outcomes of a general game by fixpoint iteration: moves[s] lists the
 * states reachable from state s; res[s] becomes 1 (mover wins), 2 (mover
 * loses) or stays 0 (draw).  Quadratic, and plainly the definition. */
static void ref_fixpoint(int *res, int ns, int (*moves)(int s, int *out))
{
    int changed = 1, s, out[256];

    for (s = 0; s < ns; s++)
        res[s] = 0;
    while (changed) {
        changed = 0;
        for (s = 0; s < ns; s++) {
            int k, nm, all_win = 1, some_loss = 0;
            if (res[s])
                continue;
            nm = moves(s, out);
            for (k = 0; k < nm; k++) {
                if (res[out[k]] == 2)
                    some_loss = 1;
                if (res[out[k]] != 1)
                    all_win = 0;
            }
            if (some_loss || all_win) {
                res[s] = some_loss ? 1 : 2;
                changed = 1;
            }
        }
    }
}

/* The game graph the fixpoint callbacks look at. */
static const rgraph *cur;
static int cur_k; /* nim heap sizes 0..cur_k-1 in G + *h */

/* States of G + *h: s = v * cur_k + h. */
static int moves_nim(int s, int *out)
{
    int v = s / cur_k, h = s % cur_k, n = 0, i;

    for (i = 0; i < cur->deg[v]; i++)
        out[n++] = cur->to[v][i] * cur_k + h;
    for (i = 0; i < h; i++)
        out[n++] = v * cur_k + i;
    return n;
}

/* States of G + G: s = a * n + b. */
static int moves_pair(int s, int *out)
{
    int a = s / cur->n, b = s % cur->n, n = 0, i;

    for (i = 0; i < cur->deg[a]; i++)
        out[n++] = cur->to[a][i] * cur->n + b;
    for (i = 0; i < cur->deg[b]; i++)
        out[n++] = a * cur->n + cur->to[b][i];
    return n;
}

/* Partizan states: s = 2v + p (p = 0: Left to move). */
static int moves_partizan(int s, int *out)
{
    int v = s / 2, p = s % 2, n = 0, i;
    unsigned need = p == 0 ? SG_SIDE_LEFT : SG_SIDE_RIGHT;

    for (i = 0; i < cur->deg[v]; i++)
        if (cur->side[v][i] & need)
            out[n++] = 2 * cur->to[v][i] + (1 - p);
    return n;
}

/* ------------------------------------------------------------------ */
/* Grundy values of acyclic graphs                                      */
/* ------------------------------------------------------------------ */

static void test_grundy_random(void **state)
{
    tu_rng g;
    size_t t, reps = tu_scaled(400);
    (void)state;

    tu_rng_init(&g, 1);
    for (t = 0; t < reps; t++) {
        rgraph r;
        sg_graph gr;
        sg_vertex map[MAXV], *cyc;
        sg_value val[MAXV];
        int memo[MAXV], v;
        size_t nc;
        sg_error err;

        random_graph(&r, &g, 1, 0);
        load(&gr, map, &r);
        assert_int_equal(sg_graph_find_cycle(&cyc, &nc, &gr, &err), SG_OK);
        assert_int_equal(nc, 0);
        assert_int_equal(sg_graph_grundy(val, &gr, NULL, &err), SG_OK);
        for (v = 0; v < r.n; v++)
            memo[v] = -1;
        for (v = 0; v < r.n; v++)
            if (val[map[v]] != (sg_value)ref_grundy(&r, v, memo))
                fail_msg("vertex %d: G = %u, reference %d (seed %llu)", v,
                         val[map[v]], memo[v], TU_SEED);
        /* on an acyclic graph the generalized function is the same */
        assert_int_equal(sg_graph_loopy(val, &gr, NULL, &err), SG_OK);
        for (v = 0; v < r.n; v++)
            assert_int_equal(val[map[v]], memo[v]);
        sg_graph_clear(&gr);
    }
}

/* Sums of up to three tokens: the winner and the winning move against
 * minimax over the tuple of token positions. */
static int sum_wins(const rgraph *r, int *tok, int nt)
{
    int i, k;

    for (i = 0; i < nt; i++) {
        int save = tok[i];
        for (k = 0; k < r->deg[save]; k++) {
            int lose;
            tok[i] = r->to[save][k];
            lose = !sum_wins(r, tok, nt);
            tok[i] = save;
            if (lose)
                return 1;
        }
    }
    return 0;
}

static void test_position_random(void **state)
{
    tu_rng g;
    size_t t, reps = tu_scaled(300);
    (void)state;

    tu_rng_init(&g, 2);
    for (t = 0; t < reps; t++) {
        rgraph r;
        sg_graph gr;
        sg_vertex map[MAXV], tokens[3];
        sg_value val[MAXV];
        int tok[3], nt, i, first;
        sg_graph_position pos;
        sg_error err;

        random_graph(&r, &g, 1, 0);
        if (r.n > 14)
            r.n = 14;               /* keep minimax over triples small ... */
        for (i = 0; i < r.n; i++) { /* ... dropping edges out of range */
            int k, d = 0;
            for (k = 0; k < r.deg[i]; k++)
                if (r.to[i][k] < r.n)
                    r.to[i][d++] = r.to[i][k];
            r.deg[i] = d;
        }
        {
            int k, o = 0;
            for (k = 0; k < MAXV && o < r.n; k++)
                if (r.order[k] < r.n)
                    r.order[o++] = r.order[k];
        }
        load(&gr, map, &r);
        assert_int_equal(sg_graph_grundy(val, &gr, NULL, &err), SG_OK);
        nt = (int)tu_range(&g, 1, 3);
        for (i = 0; i < nt; i++) {
            tok[i] = (int)tu_range(&g, 0, (uint64_t)r.n - 1);
            tokens[i] = map[tok[i]];
        }
        assert_int_equal(
            sg_graph_position_analyse(&pos, &gr, val, tokens, (size_t)nt, &err),
            SG_OK);
        first = sum_wins(&r, tok, nt);
        assert_int_equal(pos.winner,
                         first ? SG_WINNER_FIRST : SG_WINNER_SECOND);
        if (first) {
            int legal = 0, k, v;
            assert_true(pos.move_token >= 0 && pos.move_token < nt);
            v = tok[pos.move_token];
            for (k = 0; k < r.deg[v]; k++)
                if (map[r.to[v][k]] == pos.move_to) {
                    legal = 1;
                    tok[pos.move_token] = r.to[v][k];
                }
            assert_true(legal);
            assert_false(sum_wins(&r, tok, nt)); /* leaves a lost sum */
        } else {
            assert_int_equal(pos.move_token, -1);
        }
        sg_graph_clear(&gr);
    }
}

/* A path of a million vertices: recursion would overflow the stack. */
static void test_deep_path(void **state)
{
    size_t n = 1000000, i, o = 0;
    char *t = malloc(n * 24);
    sg_graph gr;
    sg_value *val = malloc(n * sizeof *val);
    sg_error err;
    (void)state;

    assert_non_null(t);
    assert_non_null(val);
    for (i = 0; i < n; i++) {
        if (i + 1 < n)
            o += (size_t)sprintf(t + o, "p%zu p%zu\n", i, i + 1);
        else
            o += (size_t)sprintf(t + o, "p%zu\n", i);
    }
    sg_graph_init(&gr);
    assert_int_equal(sg_graph_parse(&gr, t, o, &err), SG_OK);
    assert_int_equal(sg_graph_grundy(val, &gr, NULL, &err), SG_OK);
    for (i = 0; i < n; i++)
        assert_int_equal(val[i], (n - 1 - i) % 2);
    assert_int_equal(sg_graph_loopy(val, &gr, NULL, &err), SG_OK);
    for (i = 0; i < n; i++)
        assert_int_equal(val[i], (n - 1 - i) % 2);
    /* close the path into a cycle of a million: one infinite class */
    o -= strlen("p999999\n");
    o += (size_t)sprintf(t + o, "p999999 p0\n");
    assert_int_equal(sg_graph_parse(&gr, t, o, &err), SG_OK);
    assert_int_equal(sg_graph_grundy(val, &gr, NULL, &err), SG_E_INPUT);
    assert_non_null(strstr(err.msg, "cycle of 1000000 vertices: p0 -> p1"));
    assert_int_equal(sg_graph_loopy(val, &gr, NULL, &err), SG_OK);
    for (i = 0; i < n; i++)
        assert_int_equal(val[i], SG_VALUE_INFINITE);
    sg_graph_clear(&gr);
    free(t);
    free(val);
}

/* ------------------------------------------------------------------ */
/* Loopy graphs                                                         */
/* ------------------------------------------------------------------ */

static void test_loopy_random(void **state)
{
    tu_rng g;
    size_t t, reps = tu_scaled(300), ninf = 0, nfin = 0, nkset = 0;
    (void)state;

    tu_rng_init(&g, 3);
    for (t = 0; t < reps; t++) {
        rgraph r;
        sg_graph gr;
        sg_vertex map[MAXV], *cyc;
        sg_value val[MAXV], fol[MAXD + 1];
        int *res, v, k;
        size_t nc, nf, i;
        sg_error err;

        random_graph(&r, &g, 0, 0);
        load(&gr, map, &r);
        assert_int_equal(sg_graph_loopy(val, &gr, NULL, &err), SG_OK);
        /* G + *k for k = 0..MAXD+1 (values never exceed the degree) */
        cur = &r;
        cur_k = MAXD + 2;
        res = malloc((size_t)r.n * (size_t)cur_k * sizeof *res);
        assert_non_null(res);
        ref_fixpoint(res, r.n * cur_k, moves_nim);
        for (v = 0; v < r.n; v++) {
            sg_value x = val[map[v]];
            ninf += x == SG_VALUE_INFINITE;
            nfin += x != SG_VALUE_INFINITE && x > 0;
            nf =
                x == SG_VALUE_INFINITE
                    ? sg_graph_finite_followers(fol, MAXD + 1, &gr, val, map[v])
                    : 0;
            nkset += nf > 0;
            for (k = 0; k < cur_k; k++) {
                int want; /* 1 first wins, 2 second wins, 0 draw */
                if (x != SG_VALUE_INFINITE) {
                    want = (sg_value)k == x ? 2 : 1;
                } else {
                    want = 0;
                    for (i = 0; i < nf; i++)
                        if (fol[i] == (sg_value)k)
                            want = 1;
                }
                if (res[v * cur_k + k] != want)
                    fail_msg("vertex %d + *%d: value %s%u predicts %d, play "
                             "gives %d (seed %llu)",
                             v, k, x == SG_VALUE_INFINITE ? "inf " : "",
                             x == SG_VALUE_INFINITE ? (unsigned)nf : x, want,
                             res[v * cur_k + k], TU_SEED);
            }
        }
        free(res);
        /* a cycle, when there is one, is real and makes grundy refuse */
        assert_int_equal(sg_graph_find_cycle(&cyc, &nc, &gr, &err), SG_OK);
        for (i = 0; i < nc; i++) {
            sg_vertex a = cyc[i], b = cyc[(i + 1) % nc];
            size_t e;
            int found = 0;
            for (e = gr.first[a]; e < gr.first[a + 1]; e++)
                found |= gr.to[e] == b;
            assert_true(found);
        }
        assert_int_equal(sg_graph_grundy(val, &gr, NULL, &err),
                         nc ? SG_E_INPUT : SG_OK);
        if (nc)
            assert_non_null(strstr(err.msg, sg_graph_name(&gr, cyc[0])));
        free(cyc);
        sg_graph_clear(&gr);
    }
    /* the random graphs reach every kind of value */
    assert_true(ninf > 0 && nfin > 0 && nkset > 0);
}

/* Two tokens on a loopy graph: Smith's rule for sums (two infinite
 * values make a draw, one is a win exactly when the other's value is
 * among its followers) against play on the product graph. */
static void test_loopy_sums(void **state)
{
    tu_rng g;
    size_t t, reps = tu_scaled(150);
    (void)state;

    tu_rng_init(&g, 4);
    for (t = 0; t < reps; t++) {
        rgraph r;
        sg_graph gr;
        sg_vertex map[MAXV];
        sg_value val[MAXV];
        int *res, a, b;
        sg_error err;

        random_graph(&r, &g, 0, 0);
        load(&gr, map, &r);
        assert_int_equal(sg_graph_loopy(val, &gr, NULL, &err), SG_OK);
        cur = &r;
        res = malloc((size_t)r.n * (size_t)r.n * sizeof *res);
        assert_non_null(res);
        ref_fixpoint(res, r.n * r.n, moves_pair);
        for (a = 0; a < r.n; a++)
            for (b = 0; b < r.n; b++) {
                sg_vertex tk[2] = {map[a], map[b]};
                sg_graph_position pos;
                int want = res[a * r.n + b], k;
                assert_int_equal(
                    sg_graph_position_analyse(&pos, &gr, val, tk, 2, &err),
                    SG_OK);
                if (pos.winner != (want == 1   ? SG_WINNER_FIRST
                                   : want == 2 ? SG_WINNER_SECOND
                                               : SG_WINNER_DRAW))
                    fail_msg("%d + %d: winner %d, play gives %d (seed %llu)", a,
                             b, pos.winner, want, TU_SEED);
                if (want == 1) { /* the move must reach a lost sum */
                    int from = pos.move_token == 0 ? a : b, to = -1;
                    for (k = 0; k < r.deg[from]; k++)
                        if (map[r.to[from][k]] == pos.move_to)
                            to = r.to[from][k];
                    assert_true(to >= 0);
                    assert_int_equal(pos.move_token == 0 ? res[to * r.n + b]
                                                         : res[a * r.n + to],
                                     2);
                }
            }
        free(res);
        sg_graph_clear(&gr);
    }
}

/* ------------------------------------------------------------------ */
/* Outcome classes                                                      */
/* ------------------------------------------------------------------ */

static void test_outcome_random(void **state)
{
    tu_rng g;
    size_t t, reps = tu_scaled(400);
    (void)state;

    tu_rng_init(&g, 5);
    for (t = 0; t < reps; t++) {
        rgraph r;
        sg_graph gr;
        sg_vertex map[MAXV];
        uint8_t oc[MAXV];
        int memo[MAXV][2], v;
        sg_error err;

        random_graph(&r, &g, 1, (int)(t % 4 != 0));
        load(&gr, map, &r);
        assert_int_equal(sg_graph_outcome(oc, &gr, 0, NULL, &err), SG_OK);
        for (v = 0; v < r.n; v++)
            memo[v][0] = memo[v][1] = -1;
        for (v = 0; v < r.n; v++) {
            int lw = ref_mover_wins(&r, v, 0, memo);
            int rw = ref_mover_wins(&r, v, 1, memo);
            const char *want = lw && rw     ? "N"
                               : !lw && !rw ? "P"
                               : lw         ? "L"
                                            : "R";
            if (strcmp(sg_outcome_name(oc[map[v]]), want) != 0)
                fail_msg("vertex %d: %s, minimax %s (seed %llu)", v,
                         sg_outcome_name(oc[map[v]]), want, TU_SEED);
        }
        if (gr.side) { /* partizan: no Grundy values, no nim-sums */
            sg_value val[MAXV];
            sg_graph_position pos;
            sg_vertex tk = 0;
            assert_int_equal(sg_graph_grundy(val, &gr, NULL, &err), SG_E_INPUT);
            assert_non_null(strstr(err.msg, "partizan"));
            assert_int_equal(sg_graph_loopy(val, &gr, NULL, &err), SG_E_INPUT);
            assert_int_equal(
                sg_graph_position_analyse(&pos, &gr, val, &tk, 1, &err),
                SG_E_INPUT);
        }
        sg_graph_clear(&gr);
    }
}

static void test_outcome_loopy(void **state)
{
    tu_rng g;
    size_t t, reps = tu_scaled(300);
    (void)state;

    tu_rng_init(&g, 6);
    for (t = 0; t < reps; t++) {
        rgraph r;
        sg_graph gr;
        sg_vertex map[MAXV], *cyc;
        uint8_t oc[MAXV];
        int res[2 * MAXV], v;
        size_t nc;
        sg_error err;

        random_graph(&r, &g, 0, 1);
        load(&gr, map, &r);
        assert_int_equal(sg_graph_find_cycle(&cyc, &nc, &gr, &err), SG_OK);
        free(cyc);
        assert_int_equal(sg_graph_outcome(oc, &gr, 0, NULL, &err),
                         nc ? SG_E_INPUT : SG_OK);
        assert_int_equal(sg_graph_outcome(oc, &gr, 1, NULL, &err), SG_OK);
        cur = &r;
        ref_fixpoint(res, 2 * r.n, moves_partizan);
        for (v = 0; v < r.n; v++) {
            /* Left to move: mover wins = Left wins; Right to move: mover
             * loses = Left wins */
            unsigned lf = res[2 * v] == 1   ? SG_WIN_LEFT
                          : res[2 * v] == 2 ? SG_WIN_RIGHT
                                            : SG_WIN_NONE;
            unsigned rf = res[2 * v + 1] == 1   ? SG_WIN_RIGHT
                          : res[2 * v + 1] == 2 ? SG_WIN_LEFT
                                                : SG_WIN_NONE;
            assert_int_equal(oc[map[v]], SG_OUTCOME(lf, rf));
        }
        sg_graph_clear(&gr);
    }
}

static void test_outcome_names(void **state)
{
    (void)state;
    assert_string_equal(sg_outcome_name(SG_OUTCOME(SG_WIN_LEFT, SG_WIN_RIGHT)),
                        "N");
    assert_string_equal(sg_outcome_name(SG_OUTCOME(SG_WIN_RIGHT, SG_WIN_LEFT)),
                        "P");
    assert_string_equal(sg_outcome_name(SG_OUTCOME(SG_WIN_LEFT, SG_WIN_LEFT)),
                        "L");
    assert_string_equal(sg_outcome_name(SG_OUTCOME(SG_WIN_RIGHT, SG_WIN_RIGHT)),
                        "R");
    assert_string_equal(sg_outcome_name(SG_OUTCOME(SG_WIN_NONE, SG_WIN_NONE)),
                        "D");
    assert_string_equal(sg_outcome_name(SG_OUTCOME(SG_WIN_LEFT, SG_WIN_NONE)),
                        "LD");
}

/* ------------------------------------------------------------------ */
/* Parsing: file reading, small examples, bad input                     */
/* ------------------------------------------------------------------ */

/* A known small game: a -> b, c; b -> c; c dead end; d a self-loop. */
static void test_parse_small(void **state)
{
    const char *t = "# header\r\na b c\r\n\n  b\tc   # tail\nc\nd d a\n";
    sg_graph gr;
    sg_vertex v;
    sg_value val[4], fol[4];
    sg_error err;
    FILE *f;
    (void)state;

    sg_graph_init(&gr);
    assert_int_equal(sg_graph_parse(&gr, t, strlen(t), &err), SG_OK);
    assert_int_equal(gr.nvertices, 4);
    assert_int_equal(gr.nedges, 5);
    assert_int_equal(gr.maxdeg, 2);
    assert_null(gr.side);
    assert_true(sg_graph_find(&v, &gr, "d", 1));
    assert_int_equal(v, 3);
    assert_false(sg_graph_find(&v, &gr, "e", 1));
    assert_false(sg_graph_find(&v, &gr, "a b", 3));
    assert_int_equal(sg_graph_grundy(val, &gr, NULL, &err), SG_E_INPUT);
    assert_non_null(strstr(err.msg, "cycle of 1 vertex: d -> d"));
    assert_int_equal(sg_graph_loopy(val, &gr, NULL, &err), SG_OK);
    /* c = 0, b = 1, a = mex{1, 0} = 2; d moves to itself and to a (2):
     * infinite with followers {2} */
    assert_int_equal(val[0], 2);
    assert_int_equal(val[1], 1);
    assert_int_equal(val[2], 0);
    assert_int_equal(val[3], SG_VALUE_INFINITE);
    assert_int_equal(sg_graph_finite_followers(fol, 4, &gr, val, 3), 1);
    assert_int_equal(fol[0], 2);
    /* a buffer smaller than the vertex's moves: only the count */
    assert_int_equal(sg_graph_finite_followers(fol, 0, &gr, val, 3), 1);

    /* the same text through a FILE, and with no final newline */
    f = tmpfile();
    assert_non_null(f);
    fputs("a b c\nb c\nc\nd d a", f);
    rewind(f);
    assert_int_equal(sg_graph_read(&gr, f, &err), SG_OK);
    fclose(f);
    assert_int_equal(gr.nvertices, 4);
    assert_int_equal(gr.nedges, 5);
    assert_int_equal(gr.to[4], 0);
    sg_graph_clear(&gr);
}

/* A text must fail with SG_E_INPUT and a message containing `want`, both
 * from a buffer and from a file. */
static void expect_bad(const char *t, size_t len, const char *want)
{
    sg_graph gr;
    sg_error err;
    FILE *f;

    sg_graph_init(&gr);
    assert_int_equal(sg_graph_parse(&gr, t, len, &err), SG_E_INPUT);
    if (!strstr(err.msg, want))
        fail_msg("message '%s' lacks '%s'", err.msg, want);
    assert_int_equal(gr.nvertices, 0);
    assert_null(gr.first);
    f = tmpfile();
    assert_non_null(f);
    assert_int_equal(fwrite(t, 1, len, f), len);
    rewind(f);
    assert_int_equal(sg_graph_read(&gr, f, &err), SG_E_INPUT);
    fclose(f);
    if (!strstr(err.msg, want))
        fail_msg("message '%s' (from a file) lacks '%s'", err.msg, want);
    sg_graph_clear(&gr);
}

#define BAD(text, want) expect_bad(text, sizeof text - 1, want)

static void test_bad_input(void **state)
{
    size_t n = SG_GRAPH_MAX_LINE + 1, i;
    char *big;
    (void)state;

    BAD("a b\nb c\n# c is never declared\n",
        "line 2: unknown vertex 'c' (every vertex needs a line of its own)");
    BAD("a\n\nb a\na b\n", "line 4: vertex 'a' is already declared on line 1");
    BAD("", "line 1: the graph is empty");
    BAD("# nothing\n\n   \n# here\n", "line 4: the graph is empty");
    BAD("a\nb\n\xff\n", "line 3: the name '\\xff' is not valid UTF-8");
    BAD("a \xc0\xaf\n", "line 1: the name '\\xc0\\xaf' is not valid UTF-8");
    BAD("ok\nx \xed\xa0\x80\n", "line 2: the name '\\xed\\xa0\\x80' is not");
    BAD("a\xe2\x88\n", "is not valid UTF-8 (byte 0xe2 at its byte 2)");
    BAD("a\n\x80 a\n", "line 2: the name '\\x80'");
    BAD("a,b\n", "line 1: the name 'a,b' holds ','");
    BAD("a x:y\n", "line 1: the name 'x:y' holds ':'");
    BAD("L:a\n", "line 1: the name 'L:a' holds ':'");
    BAD("a L:\n", "line 1: 'L:' is not followed by a vertex name");
    BAD("a\x01z\n", "line 1: the name 'a\\x01z' holds a control character");
    BAD("a\nb\0c\n", "line 2: holds a NUL byte");

    /* a line one byte over the limit, and one exactly at it */
    big = malloc(n + 16);
    assert_non_null(big);
    memcpy(big, "a\nb", 3);
    for (i = 3; i < n + 2; i++)
        big[i] = i % 2 ? ' ' : 'b';
    big[n + 2] = '\n';
    expect_bad(big, n + 3, "line 2: longer than 1048576 bytes");
    {
        sg_graph gr;
        sg_error err;
        FILE *f = tmpfile();
        sg_graph_init(&gr);
        big[n + 1] = '\n'; /* line 2 now has exactly the limit */
        assert_int_equal(sg_graph_parse(&gr, big, n + 2, &err), SG_OK);
        assert_int_equal(gr.nvertices, 2);
        assert_non_null(f);
        assert_int_equal(fwrite(big, 1, n + 2, f), n + 2);
        rewind(f);
        assert_int_equal(sg_graph_read(&gr, f, &err), SG_OK);
        assert_int_equal(gr.nedges, n / 2 - 1);
        fclose(f);
        sg_graph_clear(&gr);
    }
    free(big);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse_small),
        cmocka_unit_test(test_bad_input),
        cmocka_unit_test(test_grundy_random),
        cmocka_unit_test(test_position_random),
        cmocka_unit_test(test_deep_path),
        cmocka_unit_test(test_loopy_random),
        cmocka_unit_test(test_loopy_sums),
        cmocka_unit_test(test_outcome_random),
        cmocka_unit_test(test_outcome_loopy),
        cmocka_unit_test(test_outcome_names),
    };

    tu_base_seed();
    return cmocka_run_group_tests(tests, NULL, NULL);
}
