/*
 * test_plot.c - unit tests of the plot module: the data handed to gnuplot
 * is checked row by row against values computed by the reference
 * (tests/reference.c), thinning against a naive maximum and minimum per
 * bucket, the rare-value search against trying every mask by hand, the
 * results data against a list whose counts are known.  With gnuplot
 * present, each image type is drawn and checked to be a valid file of its
 * type (PNG signature and IHDR size, SVG root element, PDF header); without
 * gnuplot those tests are skipped, not passed.
 */
#define _DEFAULT_SOURCE
#include "testutil.h"

#include <dirent.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sgexplore.h"

/* ------------------------------------------------------------------ */
/* Helpers                                                              */
/* ------------------------------------------------------------------ */

/* A scratch file name in $TMPDIR (the test's own directory under make
 * check). */
static char *scratch(const char *name)
{
    const char *dir = getenv("TMPDIR");
    char *p;

    if (!dir || !*dir)
        dir = "/tmp";
    p = malloc(strlen(dir) + strlen(name) + 2);
    assert_non_null(p);
    sprintf(p, "%s/%s", dir, name);
    return p;
}

/* The whole of a file, NUL-terminated; *len gets its size. */
static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    char *buf;
    long n;

    assert_non_null(f);
    assert_int_equal(fseek(f, 0, SEEK_END), 0);
    n = ftell(f);
    assert_true(n >= 0);
    rewind(f);
    buf = malloc((size_t)n + 1);
    assert_non_null(buf);
    assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
    buf[n] = '\0';
    fclose(f);
    if (len)
        *len = (size_t)n;
    return buf;
}

/* A rule analysed by the library, with reference values G(0..nref-1). */
typedef struct game {
    sg_rule r;
    sg_seq s;
    sg_result res;
    uint32_t *ref;
    size_t nref;
} game;

static void game_init(game *g, const char *code, size_t max, size_t nref)
{
    static ref_rule rr;
    sg_error err;

    memset(g, 0, sizeof *g);
    sg_rule_init(&g->r);
    sg_seq_init(&g->s);
    assert_int_equal(sg_rule_parse(&g->r, SG_SYNTAX_RULE, code, &err), SG_OK);
    assert_int_equal(sg_analyse(&g->res, &g->s, &g->r, max, NULL, &err), SG_OK);
    assert_int_equal(ref_rule_from_code(&rr, code), 0);
    g->ref = malloc(nref * sizeof *g->ref);
    assert_non_null(g->ref);
    ref_values(g->ref, nref, &rr);
    g->nref = nref;
}

static void game_clear(game *g)
{
    sg_seq_clear(&g->s);
    sg_rule_clear(&g->r);
    free(g->ref);
}

/* One row of a sequence data file. */
typedef struct row {
    uint64_t n, max, min, rare;
    int have_rare;
} row;

/* Parse a sequence data file: comment lines skipped, four columns. */
static row *read_rows(const char *path, size_t *nrows)
{
    char *text = slurp(path, NULL), *line, *save = NULL;
    size_t cap = 1024, n = 0;
    row *rows = malloc(cap * sizeof *rows);

    assert_non_null(rows);
    for (line = strtok_r(text, "\n", &save); line;
         line = strtok_r(NULL, "\n", &save)) {
        unsigned long long a, b, c, d;
        char rare[32];
        if (line[0] == '#')
            continue;
        assert_int_equal(sscanf(line, "%llu %llu %llu %31s", &a, &b, &c, rare),
                         4);
        if (n == cap) {
            cap *= 2;
            rows = realloc(rows, cap * sizeof *rows);
            assert_non_null(rows);
        }
        rows[n].n = a;
        rows[n].max = b;
        rows[n].min = c;
        rows[n].have_rare = strcmp(rare, "-") != 0;
        rows[n].rare = 0;
        if (rows[n].have_rare) {
            assert_int_equal(sscanf(rare, "%llu", &d), 1);
            rows[n].rare = d;
        }
        n++;
    }
    free(text);
    *nrows = n;
    return rows;
}

static int even_weight_naive(uint64_t x)
{
    int bits = 0;

    for (; x; x >>= 1)
        bits += (int)(x & 1);
    return bits % 2 == 0;
}

/* Whether gnuplot can be run: $SGEXPLORE_GNUPLOT, else gnuplot on PATH. */
static int have_gnuplot(void)
{
    const char *e = getenv("SGEXPLORE_GNUPLOT"), *path = getenv("PATH");
    char buf[4096];

    if (e && *e)
        return access(e, X_OK) == 0;
    while (path && *path) {
        const char *colon = strchr(path, ':');
        size_t len = colon ? (size_t)(colon - path) : strlen(path);
        if (len > 0 && len < sizeof buf - 16) {
            memcpy(buf, path, len);
            strcpy(buf + len, "/gnuplot");
            if (access(buf, X_OK) == 0)
                return 1;
        }
        path = colon ? colon + 1 : NULL;
    }
    return 0;
}

/* No temporary directory of the plot module is left in $TMPDIR. */
static void assert_no_leftovers(void)
{
    const char *dir = getenv("TMPDIR");
    DIR *d;
    struct dirent *de;

    if (!dir || !*dir)
        return; /* /tmp is shared with others: nothing to assert */
    d = opendir(dir);
    assert_non_null(d);
    while ((de = readdir(d)) != NULL)
        if (strncmp(de->d_name, "sgexplore-plot-", 15) == 0)
            fail_msg("temporary directory %s/%s was left behind", dir,
                     de->d_name);
    closedir(d);
}

/* ------------------------------------------------------------------ */
/* Data written for gnuplot                                             */
/* ------------------------------------------------------------------ */

static void test_format_of(void **state)
{
    (void)state;
    assert_int_equal(sg_plot_format_of("a.png"), SG_PLOT_PNG);
    assert_int_equal(sg_plot_format_of("dir/a.PNG"), SG_PLOT_PNG);
    assert_int_equal(sg_plot_format_of("a.b.svg"), SG_PLOT_SVG);
    assert_int_equal(sg_plot_format_of("/x/y.Pdf"), SG_PLOT_PDF);
    assert_int_equal(sg_plot_format_of("a.txt"), SG_PLOT_UNKNOWN);
    assert_int_equal(sg_plot_format_of("png"), SG_PLOT_UNKNOWN);
    assert_int_equal(sg_plot_format_of("x.png/a"), SG_PLOT_UNKNOWN);
    assert_int_equal(sg_plot_format_of("dir/.png"), SG_PLOT_UNKNOWN);
    assert_int_equal(sg_plot_format_of("a.png.bak"), SG_PLOT_UNKNOWN);
}

/* Every value written, one row per position, equals the reference's:
 * inside the computed range and beyond it through the proven period. */
static void test_sequence_rows_exact(void **state)
{
    static const struct {
        const char *code;
        uint64_t from, to;
    } cases[] = {
        {"0.77", 0, 299},    /* Kayles: computed values */
        {"0.77", 900, 1400}, /* far past the computed prefix */
        {"0.07", 40, 700},   /* Dawson's Kayles */
        {"0.137", 0, 1000},  /* proven, period 34 */
        {"4!.0", 3, 600},    /* Grundy's game: unresolved */
    };
    char *path = scratch("rows.dat");
    size_t c;

    (void)state;
    for (c = 0; c < sizeof cases / sizeof *cases; c++) {
        game g;
        sg_plot_data d;
        sg_error err;
        row *rows;
        size_t nrows, i;

        game_init(&g, cases[c].code, 1000, cases[c].to + 1);
        assert_int_equal(sg_plot_write_sequence(path, &d, &g.s, &g.res,
                                                cases[c].from, cases[c].to,
                                                10000, 0, &err),
                         SG_OK);
        rows = read_rows(path, &nrows);
        assert_int_equal(d.step, 1);
        assert_int_equal(nrows, cases[c].to - cases[c].from + 1);
        assert_int_equal(d.rows, nrows);
        for (i = 0; i < nrows; i++) {
            uint64_t n = cases[c].from + i;
            if (rows[i].n != n || rows[i].max != g.ref[n] ||
                rows[i].min != g.ref[n] || rows[i].have_rare)
                fail_msg("%s: row %zu is %llu %llu %llu, expected n = %llu, "
                         "G = %u",
                         cases[c].code, i, (unsigned long long)rows[i].n,
                         (unsigned long long)rows[i].max,
                         (unsigned long long)rows[i].min, (unsigned long long)n,
                         (unsigned)g.ref[n]);
        }
        free(rows);
        game_clear(&g);
    }
    free(path);
}

/* Thinned rows: each holds the largest and smallest value of its bucket,
 * and its largest rare value, exactly as a naive pass finds them. */
static void test_sequence_thinning(void **state)
{
    static const size_t caps[] = {1, 7, 97, 500, 2999};
    static const uint64_t masks[] = {0, 254, 6, 1};
    char *path = scratch("thin.dat");
    game g;
    size_t c;
    tu_rng rng;

    (void)state;
    tu_rng_init(&rng, 61);
    game_init(&g, "4!.0", 3000, 3000);
    for (c = 0; c < sizeof caps / sizeof *caps; c++) {
        uint64_t from = tu_range(&rng, 0, 40), to = 2999;
        uint64_t mask = masks[c % 4], total = to - from + 1, step, k;
        sg_plot_data d;
        sg_error err;
        row *rows;
        size_t nrows;

        assert_int_equal(sg_plot_write_sequence(path, &d, &g.s, &g.res, from,
                                                to, caps[c], mask, &err),
                         SG_OK);
        rows = read_rows(path, &nrows);
        step = total <= caps[c] ? 1 : (total + caps[c] - 1) / caps[c];
        assert_int_equal(d.step, step);
        assert_true(nrows <= caps[c]);
        assert_int_equal(nrows, (total + step - 1) / step);
        for (k = 0; k < nrows; k++) {
            uint64_t a = from + k * step, b = a + step - 1, n;
            uint64_t mx = 0, mn = UINT64_MAX, rare = 0;
            int have = 0;
            if (b > to)
                b = to;
            for (n = a; n <= b; n++) {
                uint64_t v = g.ref[n];
                mx = v > mx ? v : mx;
                mn = v < mn ? v : mn;
                if (mask && even_weight_naive(v & mask) &&
                    (!have || v > rare)) {
                    rare = v;
                    have = 1;
                }
            }
            assert_int_equal(rows[k].n, a);
            assert_int_equal(rows[k].max, mx);
            assert_int_equal(rows[k].min, mn);
            assert_int_equal(rows[k].have_rare, have);
            if (have)
                assert_int_equal(rows[k].rare, rare);
            if (rows[k].max > d.vmax)
                fail_msg("vmax %llu below a row's max",
                         (unsigned long long)d.vmax);
        }
        free(rows);
    }
    game_clear(&g);
    free(path);
}

/* A long range past the computed values of a proven rule: bucket maxima
 * through the period, checked against the period values directly. */
static void test_sequence_long_range(void **state)
{
    char *path = scratch("long.dat");
    game g;
    sg_plot_data d;
    sg_error err;
    row *rows;
    size_t nrows, k;
    uint64_t from = 1000000, to = 100999999, pmax = 0, pmin = UINT64_MAX, i;

    (void)state;
    game_init(&g, "0.77", 1000, 200);
    assert_int_equal(g.res.status, SG_PERIODIC);
    for (i = 71; i < 83; i++) {
        pmax = g.ref[i] > pmax ? g.ref[i] : pmax;
        pmin = g.ref[i] < pmin ? g.ref[i] : pmin;
    }
    assert_int_equal(
        sg_plot_write_sequence(path, &d, &g.s, &g.res, from, to, 0, 0, &err),
        SG_OK);
    rows = read_rows(path, &nrows);
    assert_int_equal(d.step, 25000);
    assert_int_equal(nrows, SG_PLOT_MAX_ROWS);
    for (k = 0; k < nrows; k++) {
        assert_int_equal(rows[k].n, from + k * 25000);
        assert_int_equal(rows[k].max, pmax);
        assert_int_equal(rows[k].min, pmin);
    }
    free(rows);

    /* Single positions far out: G(n) = G(71 + (n - 71) mod 12). */
    for (i = 0; i < 50; i++) {
        uint64_t n = 1000000007ULL * (i + 1) + i;
        uint64_t want = g.ref[71 + (n - 71) % 12];
        assert_int_equal(
            sg_plot_write_sequence(path, &d, &g.s, &g.res, n, n, 0, 0, &err),
            SG_OK);
        rows = read_rows(path, &nrows);
        assert_int_equal(nrows, 1);
        assert_int_equal(rows[0].max, want);
        free(rows);
    }
    game_clear(&g);
    free(path);
}

static void test_sequence_unknown(void **state)
{
    char *path = scratch("unknown.dat");
    game g;
    sg_plot_data d;
    sg_error err;

    (void)state;
    game_init(&g, "4!.0", 500, 10);
    assert_int_equal(g.res.status, SG_UNRESOLVED);
    assert_int_equal(
        sg_plot_write_sequence(path, &d, &g.s, &g.res, 0, g.s.n, 0, 0, &err),
        SG_E_INPUT);
    assert_non_null(strstr(err.msg, "not known"));
    assert_int_equal(
        sg_plot_write_sequence(path, &d, &g.s, &g.res, 9, 3, 0, 0, &err),
        SG_E_INPUT);
    game_clear(&g);
    free(path);
}

/* ------------------------------------------------------------------ */
/* Rare values                                                          */
/* ------------------------------------------------------------------ */

/* The least number of positions whose value has even weight under some
 * mask below 2^bits, tried mask by mask; ties go to the smaller mask. */
static void rare_naive(uint64_t *mask, uint64_t *count, const uint32_t *v,
                       size_t n, unsigned bits)
{
    uint64_t m, best = 0, bestm = 0;
    size_t i;

    for (m = 1; m < ((uint64_t)1 << bits); m++) {
        uint64_t c = 0;
        for (i = 0; i < n; i++)
            c += (uint64_t)even_weight_naive(v[i] & m);
        if (c > 0 && (best == 0 || c < best)) {
            best = c;
            bestm = m;
        }
    }
    *mask = bestm;
    *count = best;
}

/* Planted rare classes: common values have odd weight under a random
 * mask, a few positions hold values of even weight. */
static void test_rare_planted(void **state)
{
    tu_rng rng;
    size_t t, trials = tu_scaled(30);

    (void)state;
    tu_rng_init(&rng, 62);
    for (t = 0; t < trials; t++) {
        unsigned bits = (unsigned)tu_range(&rng, 2, 6);
        uint64_t plant = tu_range(&rng, 1, ((uint64_t)1 << bits) - 1);
        size_t n = (size_t)tu_range(&rng, 100, 3000), i, nrare = 0;
        uint32_t *v = malloc(n * sizeof *v);
        uint64_t want_mask, want_count;
        sg_plot_rare got;
        sg_result res;
        sg_error err;
        sg_seq s;

        assert_non_null(v);
        sg_seq_init(&s);
        for (i = 0; i < n; i++) {
            int rare = i == 0 || tu_chance(&rng, 40);
            uint32_t x;
            do
                x = (uint32_t)tu_range(&rng, 0, ((uint64_t)1 << bits) - 1);
            while (even_weight_naive(x & plant) != rare);
            v[i] = x;
            nrare += (size_t)rare;
            assert_int_equal(sg_seq_append(&s, x, &err), SG_OK);
        }
        memset(&res, 0, sizeof res);
        assert_int_equal(sg_plot_find_rare(&got, &s, &res, 0, n - 1, &err),
                         SG_OK);
        rare_naive(&want_mask, &want_count, v, n, bits);
        assert_int_equal(got.total, n);
        if (want_count <= n / 10) {
            if (got.mask != want_mask || got.count != want_count)
                fail_msg("seed %llu: mask %llu count %llu, naive %llu %llu",
                         TU_SEED, (unsigned long long)got.mask,
                         (unsigned long long)got.count,
                         (unsigned long long)want_mask,
                         (unsigned long long)want_count);
            assert_true(got.count <= nrare);
        } else {
            assert_int_equal(got.mask, 0);
        }
        sg_seq_clear(&s);
        free(v);
    }
}

static void test_rare_examples(void **state)
{
    sg_plot_rare got;
    sg_error err;
    sg_result res;
    sg_seq s;
    size_t i;
    tu_rng rng;

    (void)state;
    /* Values 2..5 are common (odd weight under 6); 20 of 1000 rare. */
    tu_rng_init(&rng, 63);
    sg_seq_init(&s);
    for (i = 0; i < 1000; i++) {
        static const uint32_t rare[] = {0, 1, 6, 7};
        uint32_t x = i % 50 == 7 ? rare[i % 4] : (uint32_t)tu_range(&rng, 2, 5);
        assert_int_equal(sg_seq_append(&s, x, &err), SG_OK);
    }
    memset(&res, 0, sizeof res);
    assert_int_equal(sg_plot_find_rare(&got, &s, &res, 0, 999, &err), SG_OK);
    assert_int_equal(got.mask, 6);
    assert_int_equal(got.count, 20);
    assert_int_equal(got.total, 1000);

    /* Too few positions to call anything rare. */
    assert_int_equal(sg_plot_find_rare(&got, &s, &res, 0, 98, &err), SG_OK);
    assert_int_equal(got.mask, 0);
    sg_seq_clear(&s);

    /* Uniform values: no class is rare. */
    sg_seq_init(&s);
    for (i = 0; i < 5000; i++)
        assert_int_equal(
            sg_seq_append(&s, (sg_value)tu_range(&rng, 0, 255), &err), SG_OK);
    assert_int_equal(sg_plot_find_rare(&got, &s, &res, 0, 4999, &err), SG_OK);
    assert_int_equal(got.mask, 0);
    sg_seq_clear(&s);
}

/* Kayles: beyond its pre-period every value (1, 2, 4, 7, 8) has odd
 * weight under 15; the rare values 0, 3, 5, 6 occur only before n = 71. */
static void test_rare_kayles(void **state)
{
    game g;
    sg_plot_rare got;
    sg_error err;
    uint64_t n, count = 0;

    (void)state;
    game_init(&g, "0.77", 1000, 400);
    assert_int_equal(sg_plot_find_rare(&got, &g.s, &g.res, 0, 399, &err),
                     SG_OK);
    assert_int_equal(got.mask, 15);
    for (n = 0; n < 400; n++)
        if (even_weight_naive(g.ref[n] & 15)) {
            count++;
            assert_true(n < 71);
        }
    assert_int_equal(got.count, count);
    game_clear(&g);
}

/* ------------------------------------------------------------------ */
/* Results of many rules                                                */
/* ------------------------------------------------------------------ */

/* The blocks of a results data file, rows as text. */
static size_t read_blocks(char ***rows, size_t *nrows, const char *path)
{
    char *text = slurp(path, NULL), *p = text;
    size_t b = 0;

    for (b = 0; b < 4; b++) {
        rows[b] = calloc(64, sizeof **rows);
        nrows[b] = 0;
    }
    b = 0;
    while (*p) {
        char *end = strchr(p, '\n');
        if (!end)
            end = p + strlen(p);
        if (end == p) {
            /* Two blank lines end a block. */
            if (end[1] == '\n') {
                b++;
                p = end + 2;
                continue;
            }
        } else if (*p != '#') {
            assert_true(b < 4 && nrows[b] < 64);
            rows[b][nrows[b]++] = strndup(p, (size_t)(end - p));
        }
        p = *end ? end + 1 : end;
    }
    free(text);
    return b + 1;
}

static void free_blocks(char ***rows, size_t *nrows)
{
    size_t b, i;

    for (b = 0; b < 4; b++) {
        for (i = 0; i < nrows[b]; i++)
            free(rows[b][i]);
        free(rows[b]);
    }
}

static void test_results_data(void **state)
{
    static const sg_plot_result items[] = {
        {"subtract{1,2}", SG_PERIODIC, 0, 3},
        {"0.7", SG_PERIODIC, 0, 3},
        {"0.45", SG_PERIODIC, 5, 12},
        {"all-but{}", SG_ARITH_PERIODIC, 0, 1},
        {"0.16", SG_UNRESOLVED, 0, 0},
        {"0.77", SG_PERIODIC, 71, 12},
        {"0.07", SG_PERIODIC, 53, 34},
    };
    char *path = scratch("results.dat");
    char **rows[4];
    size_t nrows[4], nblocks;
    sg_plot_summary sum;
    sg_error err;

    (void)state;
    assert_int_equal(sg_plot_write_results(path, &sum, items, 7, &err), SG_OK);
    assert_int_equal(sum.periodic, 5);
    assert_int_equal(sum.arith, 1);
    assert_int_equal(sum.unresolved, 1);
    assert_int_equal(sum.max_preperiod, 71);
    assert_int_equal(sum.max_period, 34);
    assert_int_equal(sum.max_point, 2);
    assert_int_equal(sum.max_count, 2);
    nblocks = read_blocks(rows, nrows, path);
    assert_int_equal(nblocks, 4);
    /* periodic: distinct (n0, p), n0 = 0 drawn at 0.5, with counts */
    assert_int_equal(nrows[0], 4);
    assert_string_equal(rows[0][0], "0.5 3 2");
    assert_string_equal(rows[0][1], "5 12 1");
    assert_string_equal(rows[0][2], "53 34 1");
    assert_string_equal(rows[0][3], "71 12 1");
    assert_int_equal(nrows[1], 1);
    assert_string_equal(rows[1][0], "0.5 1 1");
    /* rules per period, both kinds */
    assert_int_equal(nrows[2], 4);
    assert_string_equal(rows[2][0], "1 1");
    assert_string_equal(rows[2][1], "3 2");
    assert_string_equal(rows[2][2], "12 2");
    assert_string_equal(rows[2][3], "34 1");
    /* named: longest period, longest pre-period */
    assert_int_equal(nrows[3], 2);
    assert_string_equal(rows[3][0], "53 34 \"0.07\"");
    assert_string_equal(rows[3][1], "71 12 \"0.77\"");
    free_blocks(rows, nrows);

    /* Nothing proven: every block still exists, with one undefined row. */
    assert_int_equal(sg_plot_write_results(path, &sum, items + 4, 1, &err),
                     SG_OK);
    assert_int_equal(sum.unresolved, 1);
    assert_int_equal(sum.periodic + sum.arith, 0);
    nblocks = read_blocks(rows, nrows, path);
    assert_int_equal(nblocks, 4);
    assert_int_equal(nrows[0], 1);
    assert_string_equal(rows[0][0], "NaN NaN 0");
    assert_int_equal(nrows[1], 1);
    assert_int_equal(nrows[2], 1);
    assert_int_equal(nrows[3], 1);
    free_blocks(rows, nrows);
    free(path);
}

/* The built-in templates are the files in plots/. */
static void test_templates_match_files(void **state)
{
    static const char *const names[] = {"sequence", "results"};
    const char *top = getenv("abs_top_srcdir");
    size_t i;

    (void)state;
    if (!top || !*top)
        skip();
    for (i = 0; i < 2; i++) {
        char path[4096];
        char *text;
        snprintf(path, sizeof path, "%s/plots/%s.gp", top, names[i]);
        text = slurp(path, NULL);
        if (strcmp(text, sg_plot_template(names[i])) != 0)
            fail_msg("plots/%s.gp differs from its built-in copy in "
                     "src/plot.c: copy the file into the string",
                     names[i]);
        free(text);
    }
    assert_null(sg_plot_template("nonsense"));
}

/* ------------------------------------------------------------------ */
/* Failures that need no gnuplot                                        */
/* ------------------------------------------------------------------ */

static void test_bad_destinations(void **state)
{
    char *missing = scratch("no-such-dir/x.png"), *txt = scratch("x.txt");
    sg_plot_options opt;
    sg_error err;
    game g;
    struct stat st;

    (void)state;
    game_init(&g, "0.77", 1000, 10);
    memset(&opt, 0, sizeof opt);
    assert_int_equal(
        sg_plot_sequence(missing, &g.r, &g.res, &g.s, 0, 100, &opt, &err),
        SG_E_IO);
    assert_non_null(strstr(err.msg, "no-such-dir"));
    assert_non_null(strstr(err.msg, "does not exist"));
    assert_int_equal(
        sg_plot_sequence(txt, &g.r, &g.res, &g.s, 0, 100, &opt, &err),
        SG_E_INPUT);
    assert_int_not_equal(stat(txt, &st), 0);
    assert_int_equal(sg_plot_results(txt, "x", NULL, 0, &opt, &err),
                     SG_E_INPUT);
    assert_no_leftovers();
    game_clear(&g);
    free(missing);
    free(txt);
}

/* A gnuplot that cannot be run: one message naming the package, and no
 * output file left behind. */
static void test_missing_gnuplot(void **state)
{
    char *out = scratch("never.png");
    sg_plot_options opt;
    sg_error err;
    game g;
    struct stat st;

    (void)state;
    game_init(&g, "0.77", 1000, 10);
    memset(&opt, 0, sizeof opt);
    opt.gnuplot = "/nonexistent/gnuplot";
    assert_int_equal(
        sg_plot_sequence(out, &g.r, &g.res, &g.s, 0, 100, &opt, &err), SG_E_IO);
    assert_non_null(strstr(err.msg, "gnuplot-nox"));
    assert_null(strchr(err.msg, '\n'));
    assert_int_not_equal(stat(out, &st), 0);
    assert_int_equal(sg_plot_results(out, "x", NULL, 0, &opt, &err), SG_E_IO);
    assert_non_null(strstr(err.msg, "gnuplot-nox"));
    assert_int_not_equal(stat(out, &st), 0);
    assert_no_leftovers();
    game_clear(&g);
    free(out);
}

/* ------------------------------------------------------------------ */
/* Images drawn by gnuplot (skipped without it)                         */
/* ------------------------------------------------------------------ */

static uint32_t be32(const unsigned char *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 |
           p[3];
}

static void assert_png(const char *path, uint32_t w, uint32_t h)
{
    static const unsigned char sig[8] = {0x89, 'P',  'N',  'G',
                                         '\r', '\n', 0x1a, '\n'};
    size_t len;
    unsigned char *b = (unsigned char *)slurp(path, &len);

    assert_true(len > 33);
    assert_memory_equal(b, sig, 8);
    assert_int_equal(be32(b + 8), 13);
    assert_memory_equal(b + 12, "IHDR", 4);
    assert_int_equal(be32(b + 16), w);
    assert_int_equal(be32(b + 20), h);
    assert_memory_equal(b + len - 8, "IEND", 4);
    free(b);
}

/* The first element of the document is <svg ...>, closed at the end. */
static char *assert_svg(const char *path)
{
    char *t = slurp(path, NULL), *p = t, *end;

    for (;;) {
        while (*p == ' ' || *p == '\n' || *p == '\r' || *p == '\t')
            p++;
        if (strncmp(p, "<?", 2) == 0)
            p = strstr(p, "?>") + 2;
        else if (strncmp(p, "<!--", 4) == 0)
            p = strstr(p, "-->") + 3;
        else if (strncmp(p, "<!", 2) == 0)
            p = strchr(p, '>') + 1;
        else
            break;
        assert_true(p > t);
    }
    assert_true(strncmp(p, "<svg", 4) == 0 &&
                (p[4] == ' ' || p[4] == '\n' || p[4] == '>'));
    end = t + strlen(t);
    while (end > t && (end[-1] == '\n' || end[-1] == ' '))
        end--;
    assert_true(end - t > 6 && strncmp(end - 6, "</svg>", 6) == 0);
    return t;
}

static void assert_pdf(const char *path)
{
    size_t len;
    char *b = slurp(path, &len);

    assert_true(len > 100);
    assert_memory_equal(b, "%PDF-", 5);
    assert_non_null(strstr(b + len - 64 > b ? b + len - 64 : b, "%%EOF"));
    free(b);
}

static void test_images(void **state)
{
    char *png = scratch("k.png"), *svg = scratch("k.svg"),
         *pdf = scratch("k.pdf"), *rpng = scratch("r.png"),
         *rsvg = scratch("r.svg"), *rpdf = scratch("r.pdf"), *t;
    static const sg_plot_result items[] = {
        {"0.77", SG_PERIODIC, 71, 12},
        {"0.07", SG_PERIODIC, 53, 34},
        {"all-but{}", SG_ARITH_PERIODIC, 0, 1},
        {"0.16", SG_UNRESOLVED, 0, 0},
    };
    sg_plot_options opt;
    sg_error err;
    game g;

    (void)state;
    if (!have_gnuplot())
        skip();
    game_init(&g, "0.77", 1000, 10);
    memset(&opt, 0, sizeof opt);
    assert_int_equal(
        sg_plot_sequence(png, &g.r, &g.res, &g.s, 0, 200, &opt, &err), SG_OK);
    assert_png(png, 960, 540);
    assert_int_equal(
        sg_plot_sequence(svg, &g.r, &g.res, &g.s, 0, 200, &opt, &err), SG_OK);
    t = assert_svg(svg);
    free(t);
    assert_int_equal(
        sg_plot_sequence(pdf, &g.r, &g.res, &g.s, 0, 200, &opt, &err), SG_OK);
    assert_pdf(pdf);

    assert_int_equal(sg_plot_results(rpng, "some_rules", items, 4, &opt, &err),
                     SG_OK);
    assert_png(rpng, 1200, 540);
    assert_int_equal(sg_plot_results(rpdf, "some_rules", items, 4, &opt, &err),
                     SG_OK);
    assert_pdf(rpdf);
    /* Underscores stay as they are (no enhanced-text subscripts). */
    assert_int_equal(
        sg_plot_results(rsvg, "my_cache_file", items, 4, &opt, &err), SG_OK);
    t = assert_svg(rsvg);
    assert_non_null(strstr(t, "my_cache_file"));
    free(t);
    /* An empty list still draws. */
    assert_int_equal(sg_plot_results(rpng, "none", NULL, 0, &opt, &err), SG_OK);
    assert_png(rpng, 1200, 540);
    assert_no_leftovers();
    game_clear(&g);
    free(png);
    free(svg);
    free(pdf);
    free(rpng);
    free(rsvg);
    free(rpdf);
}

/* gnuplot's own error comes back, pointing at the line of the user's
 * template; the previous contents of the destination survive. */
static void test_gnuplot_error(void **state)
{
    char *tpl = scratch("bad_template.gp"), *out = scratch("keep.png");
    sg_plot_options opt;
    sg_error err;
    game g;
    FILE *f;
    char *text;

    (void)state;
    if (!have_gnuplot())
        skip();
    f = fopen(tpl, "w");
    assert_non_null(f);
    fputs("set terminal @terminal\nset output outfile\nplot nosuchvar\n", f);
    fclose(f);
    f = fopen(out, "w");
    assert_non_null(f);
    fputs("old contents", f);
    fclose(f);
    game_init(&g, "0.77", 1000, 10);
    memset(&opt, 0, sizeof opt);
    opt.template_file = tpl;
    assert_int_equal(
        sg_plot_sequence(out, &g.r, &g.res, &g.s, 0, 100, &opt, &err), SG_E_IO);
    assert_non_null(strstr(err.msg, "gnuplot failed"));
    assert_non_null(strstr(err.msg, "bad_template.gp line 3"));
    assert_non_null(strstr(err.msg, "undefined variable"));
    text = slurp(out, NULL);
    assert_string_equal(text, "old contents");
    free(text);
    /* A template that never sets the output. */
    f = fopen(tpl, "w");
    assert_non_null(f);
    fputs("print 'hello'\n", f);
    fclose(f);
    assert_int_equal(
        sg_plot_sequence(out, &g.r, &g.res, &g.s, 0, 100, &opt, &err), SG_E_IO);
    assert_non_null(strstr(err.msg, "no image"));
    assert_no_leftovers();
    game_clear(&g);
    free(tpl);
    free(out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_format_of),
        cmocka_unit_test(test_sequence_rows_exact),
        cmocka_unit_test(test_sequence_thinning),
        cmocka_unit_test(test_sequence_long_range),
        cmocka_unit_test(test_sequence_unknown),
        cmocka_unit_test(test_rare_planted),
        cmocka_unit_test(test_rare_examples),
        cmocka_unit_test(test_rare_kayles),
        cmocka_unit_test(test_results_data),
        cmocka_unit_test(test_templates_match_files),
        cmocka_unit_test(test_bad_destinations),
        cmocka_unit_test(test_missing_gnuplot),
        cmocka_unit_test(test_images),
        cmocka_unit_test(test_gnuplot_error),
    };

    tu_base_seed();
    return cmocka_run_group_tests(tests, NULL, NULL);
}
