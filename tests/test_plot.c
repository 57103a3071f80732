/*
 * test_plot.c - unit tests of the plot module: the data handed to gnuplot
 * is checked row by row against values computed by the reference
 * (tests/reference.c), thinning against a naive maximum and minimum per
 * bucket, the rare-value search against trying every mask by hand and,
 * for sparse spaces over the heap's parity (0.106, 0.051), against the
 * extended-mask definition of docs/THEORY.md section 12, the
 * results data against a list whose counts are known, the misère data
 * against a hand-made list of genera (Conway's tame ones and a wild one).  With gnuplot
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
#include "internal.h" /* the parts tested on their own (sgi_) */

/* ------------------------------------------------------------------ */
/* Helpers                                                              */
/* ------------------------------------------------------------------ */

/* One row of a sequence data file. */
typedef struct row {
    uint64_t n, max, min, rare;
    int have_rare;
} row;

/* Parse a sequence data file: comment lines skipped, four columns. */
static row *read_rows(const char *path, size_t *nrows)
{
    char *text = tu_slurp(path, NULL), *line, *save = NULL;
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
    char *path = tu_scratch("rows.dat");
    size_t c;

    (void)state;
    for (c = 0; c < sizeof cases / sizeof *cases; c++) {
        tu_game g;
        sgi_plot_data d;
        sg_error err;
        row *rows;
        size_t nrows, i;

        tu_game_init(&g, cases[c].code, 1000, cases[c].to + 1);
        assert_int_equal(sgi_plot_write_sequence(path, &d, &g.s, &g.res,
                                                 cases[c].from, cases[c].to,
                                                 10000, NULL, &err),
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
        tu_game_clear(&g);
    }
    free(path);
}

/* Thinned rows: each holds the largest and smallest value of its bucket,
 * and its largest rare value, exactly as a naive pass finds them. */
static void test_sequence_thinning(void **state)
{
    static const size_t caps[] = {1, 7, 97, 500, 2999};
    /* mask, parity, parity_shift: plain and with the heap's parity */
    static const uint64_t masks[][3] = {
        {0, 0, 0}, {254, 0, 0}, {6, 1, 1}, {1, 1, 0}, {254, 1, 1}};
    char *path = tu_scratch("thin.dat");
    tu_game g;
    size_t c;
    tu_rng rng;

    (void)state;
    tu_rng_init(&rng, 61);
    tu_game_init(&g, "4!.0", 3000, 3000);
    for (c = 0; c < sizeof caps / sizeof *caps; c++) {
        uint64_t from = tu_range(&rng, 0, 40), to = 2999;
        uint64_t mask = masks[c][0], total = to - from + 1, step, k;
        int par = (int)masks[c][1], shift = (int)masks[c][2];
        sgi_plot_rare rr;
        sgi_plot_data d;
        sg_error err;
        row *rows;
        size_t nrows;

        memset(&rr, 0, sizeof rr);
        rr.mask = mask;
        rr.parity = par;
        rr.parity_shift = shift;
        assert_int_equal(sgi_plot_write_sequence(path, &d, &g.s, &g.res, from,
                                                 to, caps[c], &rr, &err),
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
                int odd = par && (n + (uint64_t)shift) % 2 == 1;
                if (mask && even_weight_naive(v & mask) != odd &&
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
    tu_game_clear(&g);
    free(path);
}

/* A long range past the computed values of a proven rule: bucket maxima
 * through the period, checked against the period values directly. */
static void test_sequence_long_range(void **state)
{
    char *path = tu_scratch("long.dat");
    tu_game g;
    sgi_plot_data d;
    sg_error err;
    row *rows;
    size_t nrows, k;
    uint64_t from = 1000000, to = 100999999, pmax = 0, pmin = UINT64_MAX, i;

    (void)state;
    tu_game_init(&g, "0.77", 1000, 200);
    assert_int_equal(g.res.status, SG_PERIODIC);
    for (i = 71; i < 83; i++) {
        pmax = g.ref[i] > pmax ? g.ref[i] : pmax;
        pmin = g.ref[i] < pmin ? g.ref[i] : pmin;
    }
    assert_int_equal(sgi_plot_write_sequence(path, &d, &g.s, &g.res, from, to,
                                             0, NULL, &err),
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
        assert_int_equal(sgi_plot_write_sequence(path, &d, &g.s, &g.res, n, n,
                                                 0, NULL, &err),
                         SG_OK);
        rows = read_rows(path, &nrows);
        assert_int_equal(nrows, 1);
        assert_int_equal(rows[0].max, want);
        free(rows);
    }
    tu_game_clear(&g);
    free(path);
}

/* Whether every number of a data row is below 2^53, so that gnuplot's
 * doubles hold it exactly. */
static int exact_in_double(const row *r)
{
    const uint64_t lim = (uint64_t)1 << 53;

    return r->n < lim && r->max < lim && r->min < lim &&
           (!r->have_rare || r->rare < lim);
}

/* Far from 0 the positions are written as offsets from a round base:
 * consecutive, distinct, exact in a double, small; base + offset is n and
 * the values are those of the published period of Kayles (G(n) =
 * G(71 + (n - 71) mod 12), the reference giving G(71..82)). */
static void test_sequence_far(void **state)
{
    static const struct {
        uint64_t from, to, base; /* base 0: any round one */
    } cases[] = {
        {1000000000000000000ULL, 1000000000000000100ULL,
         1000000000000000000ULL},
        {1000000000000ULL, 1000000000100ULL, 1000000000000ULL},
        {1000000000000000037ULL, 1000000000000000136ULL,
         1000000000000000000ULL},
        {123456789012345678ULL, 123456789012345928ULL, 0},
        {UINT64_MAX - 300, UINT64_MAX, 0},
        {0, 200, 0}, /* near 0: n itself */
    };
    char *path = tu_scratch("far.dat");
    tu_game g;
    size_t c;

    (void)state;
    tu_game_init(&g, "0.77", 1000, 200);
    assert_int_equal(g.res.status, SG_PERIODIC);
    for (c = 0; c < sizeof cases / sizeof *cases; c++) {
        uint64_t from = cases[c].from, to = cases[c].to, width = to - from;
        sgi_plot_data d;
        sg_error err;
        row *rows;
        size_t nrows, i;

        assert_int_equal(sgi_plot_write_sequence(path, &d, &g.s, &g.res, from,
                                                 to, 0, NULL, &err),
                         SG_OK);
        rows = read_rows(path, &nrows);
        assert_int_equal(nrows, width + 1);
        if (from == 0)
            assert_int_equal(d.xbase, 0);
        else if (cases[c].base)
            assert_int_equal(d.xbase, cases[c].base);
        assert_true(d.xbase <= from);
        /* The offsets are at most one digit wider than the range. */
        assert_true(to - d.xbase < 10 * (width + 1) || to - d.xbase < 1000);
        /* A round base: a multiple of 1000 at least, here. */
        assert_int_equal(d.xbase % 1000, 0);
        assert_int_equal(d.ybase, 0);
        for (i = 0; i < nrows; i++) {
            uint64_t n = from + i, want = g.ref[71 + (n - 71) % 12];
            if (n < 200)
                want = g.ref[n];
            if (rows[i].n != n - d.xbase || rows[i].max != want ||
                rows[i].min != want || !exact_in_double(&rows[i]))
                fail_msg("range %llu:%llu, row %zu: %llu %llu, expected "
                         "offset %llu (base %llu) and G = %llu",
                         (unsigned long long)from, (unsigned long long)to, i,
                         (unsigned long long)rows[i].n,
                         (unsigned long long)rows[i].max,
                         (unsigned long long)(n - d.xbase),
                         (unsigned long long)d.xbase, (unsigned long long)want);
            /* Distinct as gnuplot reads them. */
            if (i > 0 && (double)rows[i].n == (double)rows[i - 1].n)
                fail_msg("rows %zu and %zu collapse", i - 1, i);
        }
        free(rows);
    }
    tu_game_clear(&g);
    free(path);
}

/* Nim (all-but{}, G(n) = n): far out the values are offsets too. */
static void test_sequence_far_values(void **state)
{
    char *path = tu_scratch("nim.dat");
    const uint64_t from = 1000000000000000000ULL, to = from + 100;
    sg_rule r;
    sg_seq s;
    sg_result res;
    sgi_plot_data d;
    sg_error err;
    row *rows;
    size_t nrows, i;

    (void)state;
    sg_rule_init(&r);
    sg_seq_init(&s);
    assert_int_equal(sg_rule_parse(&r, SG_SYNTAX_RULE, "all-but{}", &err),
                     SG_OK);
    assert_int_equal(sg_analyse(&res, &s, &r, 100, NULL, &err), SG_OK);
    assert_int_equal(res.status, SG_ARITH_PERIODIC);
    assert_int_equal(
        sgi_plot_write_sequence(path, &d, &s, &res, from, to, 0, NULL, &err),
        SG_OK);
    assert_int_equal(d.xbase, from);
    assert_int_equal(d.ybase, from);
    assert_int_equal(d.vmin, from);
    assert_int_equal(d.vmax, to);
    rows = read_rows(path, &nrows);
    assert_int_equal(nrows, 101);
    for (i = 0; i < nrows; i++) {
        assert_int_equal(rows[i].n, i);
        assert_int_equal(rows[i].max, i); /* G(n) - 10^18 = n - 10^18 */
        assert_int_equal(rows[i].min, i);
    }
    free(rows);
    sg_seq_clear(&s);
    sg_rule_clear(&r);
    free(path);
}

static void test_sequence_unknown(void **state)
{
    char *path = tu_scratch("unknown.dat");
    tu_game g;
    sgi_plot_data d;
    sg_error err;

    (void)state;
    tu_game_init(&g, "4!.0", 500, 10);
    assert_int_equal(g.res.status, SG_UNRESOLVED);
    assert_int_equal(sgi_plot_write_sequence(path, &d, &g.s, &g.res, 0, g.s.n,
                                             0, NULL, &err),
                     SG_E_INPUT);
    assert_non_null(strstr(err.msg, "not known"));
    assert_int_equal(
        sgi_plot_write_sequence(path, &d, &g.s, &g.res, 9, 3, 0, NULL, &err),
        SG_E_INPUT);
    tu_game_clear(&g);
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
        sgi_plot_rare got;
        sg_result res;
        sg_error err;
        sg_seq s;

        assert_non_null(v);
        sg_seq_init(&s);
        for (i = 0; i < n; i++) {
            int rare = i == 1 || tu_chance(&rng, 40);
            uint32_t x;
            do
                x = (uint32_t)tu_range(&rng, 0, ((uint64_t)1 << bits) - 1);
            while (even_weight_naive(x & plant) != rare);
            v[i] = x;
            nrare += (size_t)(rare && i > 0);
            assert_int_equal(sg_seq_append(&s, x, &err), SG_OK);
        }
        memset(&res, 0, sizeof res);
        assert_int_equal(
            sgi_plot_find_rare(&got, &s, NULL, &res, 0, n - 1, &err), SG_OK);
        /* heap 0 is never rare: the naive search looks at G(1..n-1) */
        rare_naive(&want_mask, &want_count, v + 1, n - 1, bits);
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
    sgi_plot_rare got;
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
    assert_int_equal(sgi_plot_find_rare(&got, &s, NULL, &res, 0, 999, &err),
                     SG_OK);
    assert_int_equal(got.mask, 6);
    assert_int_equal(got.count, 20);
    assert_int_equal(got.total, 1000);

    /* Too few positions to call anything rare. */
    assert_int_equal(sgi_plot_find_rare(&got, &s, NULL, &res, 0, 98, &err),
                     SG_OK);
    assert_int_equal(got.mask, 0);
    sg_seq_clear(&s);

    /* Uniform values: no class is rare. */
    sg_seq_init(&s);
    for (i = 0; i < 5000; i++)
        assert_int_equal(
            sg_seq_append(&s, (sg_value)tu_range(&rng, 0, 255), &err), SG_OK);
    assert_int_equal(sgi_plot_find_rare(&got, &s, NULL, &res, 0, 4999, &err),
                     SG_OK);
    assert_int_equal(got.mask, 0);
    sg_seq_clear(&s);
}

/* Kayles: beyond its pre-period every value (1, 2, 4, 7, 8) has odd
 * weight under 15; the rare values 0, 3, 5, 6 occur only before n = 71. */
static void test_rare_kayles(void **state)
{
    tu_game g;
    sgi_plot_rare got;
    sg_error err;
    uint64_t n, count = 0;

    (void)state;
    tu_game_init(&g, "0.77", 1000, 400);
    assert_int_equal(sgi_plot_find_rare(&got, &g.s, &g.r, &g.res, 0, 399, &err),
                     SG_OK);
    assert_int_equal(got.mask, 15);
    assert_int_equal(got.parity, 0);
    for (n = 1; n < 400; n++)
        if (even_weight_naive(g.ref[n] & 15)) {
            count++;
            assert_true(n < 71);
        }
    assert_int_equal(got.count, count);
    /* the legend counts what the report counts (its G(0..s.n-1) hold
     * every rare heap), heaps from 1 on, not heap 0 */
    {
        sg_sparse_space sp;
        assert_true(g.s.n > 71);
        assert_int_equal(
            sg_sparse_space_find_rule(&sp, &g.s, &g.r, g.s.n, &err), SG_OK);
        assert_true(sp.found);
        assert_int_equal(sp.mask, 15);
        assert_int_equal(got.count, sp.rare);
    }
    tu_game_clear(&g);
}

/* Whether heap n of value v is rare under (mask, parity q, offset c) as
 * docs/THEORY.md section 12 defines it: popcount(v & mask) + q ((n + c)
 * mod 2) even, heaps n >= 1 only (the sparse space leaves heap 0 out). */
static int rare_ext_naive(uint64_t v, uint64_t n, uint64_t mask, int q, int c)
{
    uint64_t bits = 0, x;

    for (x = v & mask; x; x >>= 1)
        bits += x & 1;
    if (q)
        bits += (n + (uint64_t)c) % 2;
    return n >= 1 && bits % 2 == 0;
}

/* Games whose sparse space needs the heap's parity: the plot's rare
 * values are the space's, the heaps docs/THEORY.md (0.106: mask 13,
 * (h + 1) mod 2) and docs/BENCHMARKS.md's sweep table list, counted here
 * from the reference values. */
static void test_rare_parity(void **state)
{
    static const struct {
        const char *code;
        uint64_t mask;
        int shift;
        uint64_t rare, last; /* among heaps 1..2999 */
    } cases[] = {
        {"0.106", 13, 1, 15, 1103}, /* unresolved at 3000 */
        {"0.051", 7, 0, 6, 37},     /* proven: read past s->n too */
    };
    size_t c;

    (void)state;
    for (c = 0; c < sizeof cases / sizeof *cases; c++) {
        tu_game g;
        sgi_plot_rare got;
        sg_error err;
        uint64_t n, count = 0, last = 0, in_tail = 0;

        tu_game_init(&g, cases[c].code, 3000, 3000);
        for (n = 0; n < 3000; n++)
            if (rare_ext_naive(g.ref[n], n, cases[c].mask, 1, cases[c].shift)) {
                count++;
                last = n;
                in_tail += n >= 30;
            }
        assert_int_equal(count, cases[c].rare);
        assert_int_equal(last, cases[c].last);
        assert_int_equal(
            sgi_plot_find_rare(&got, &g.s, &g.r, &g.res, 0, 2999, &err), SG_OK);
        if (got.mask != cases[c].mask || !got.parity ||
            got.parity_shift != cases[c].shift || got.count != count)
            fail_msg("%s: mask %llu parity %d shift %d count %llu, expected "
                     "%llu, 1, %d, %llu",
                     cases[c].code, (unsigned long long)got.mask, got.parity,
                     got.parity_shift, (unsigned long long)got.count,
                     (unsigned long long)cases[c].mask, cases[c].shift,
                     (unsigned long long)count);
        assert_int_equal(got.total, 3000);
        /* A part of the range: the same space, its heaps in view only,
         * even where the part alone is too short for a search. */
        assert_int_equal(
            sgi_plot_find_rare(&got, &g.s, &g.r, &g.res, 30, 2999, &err),
            SG_OK);
        assert_int_equal(got.mask, cases[c].mask);
        assert_int_equal(got.parity, 1);
        assert_int_equal(got.count, in_tail);
        assert_int_equal(sgi_plot_find_rare(&got, &g.s, &g.r, &g.res,
                                            cases[c].last + 1,
                                            cases[c].last + 50, &err),
                         SG_OK);
        assert_int_equal(got.mask, 0);
        assert_int_equal(got.count, 0);
        tu_game_clear(&g);
    }
}

/* ------------------------------------------------------------------ */
/* Results of many rules                                                */
/* ------------------------------------------------------------------ */

/* The blocks of a results data file, rows as text. */
static size_t read_blocks(char ***rows, size_t *nrows, const char *path)
{
    char *text = tu_slurp(path, NULL), *p = text;
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
    char *path = tu_scratch("results.dat");
    char **rows[4];
    size_t nrows[4], nblocks;
    sgi_plot_summary sum;
    sg_error err;

    (void)state;
    assert_int_equal(sgi_plot_write_results(path, &sum, items, 7, &err), SG_OK);
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
    assert_int_equal(sgi_plot_write_results(path, &sum, items + 4, 1, &err),
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
    static const char *const names[] = {"sequence", "results", "misere"};
    const char *top = getenv("abs_top_srcdir");
    size_t i;

    (void)state;
    if (!top || !*top)
        skip();
    for (i = 0; i < sizeof names / sizeof *names; i++) {
        char path[4096];
        char *text;
        snprintf(path, sizeof path, "%s/plots/%s.gp", top, names[i]);
        text = tu_slurp(path, NULL);
        if (strcmp(text, sgi_plot_template(names[i])) != 0)
            fail_msg("plots/%s.gp differs from its built-in copy in "
                     "src/plot.c: copy the file into the string",
                     names[i]);
        free(text);
    }
    assert_null(sgi_plot_template("nonsense"));
}

/* ------------------------------------------------------------------ */
/* Failures that need no gnuplot                                        */
/* ------------------------------------------------------------------ */

static void test_bad_destinations(void **state)
{
    char *missing = tu_scratch("no-such-dir/x.png"), *txt = tu_scratch("x.txt");
    sg_plot_options opt;
    sg_error err;
    tu_game g;
    struct stat st;

    (void)state;
    tu_game_init(&g, "0.77", 1000, 10);
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
    tu_game_clear(&g);
    free(missing);
    free(txt);
}

/* A gnuplot that cannot be run: one message naming the package, and no
 * output file left behind. */
static void test_missing_gnuplot(void **state)
{
    char *out = tu_scratch("never.png");
    sg_plot_options opt;
    sg_error err;
    tu_game g;
    struct stat st;

    (void)state;
    tu_game_init(&g, "0.77", 1000, 10);
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
    tu_game_clear(&g);
    free(out);
}

/* ------------------------------------------------------------------ */
/* Scripts handed to gnuplot (a stand-in keeps them)                    */
/* ------------------------------------------------------------------ */

/* A stand-in for gnuplot: a shell script that keeps the script and data
 * it is given as `keep`.gp and `keep`.dat and writes a dummy image, so
 * that a test can read exactly what gnuplot would have read. */
static char *fake_gnuplot(const char *keep)
{
    char *path = tu_scratch("fake_gnuplot.sh");
    FILE *f = fopen(path, "w");

    assert_non_null(f);
    fprintf(f,
            "#!/bin/sh\n"
            "cp \"$1\" '%s.gp' || exit 1\n"
            "d=$(sed -n \"s/^datafile = '\\(.*\\)'$/\\1/p\" \"$1\")\n"
            "cp \"$d\" '%s.dat' || exit 1\n"
            "o=$(sed -n \"s/^outfile = '\\(.*\\)'$/\\1/p\" \"$1\")\n"
            "printf 'not an image' >\"$o\"\n",
            keep, keep);
    assert_int_equal(fclose(f), 0);
    assert_int_equal(chmod(path, 0755), 0);
    return path;
}

/* What fake_setup gives a test as *state: the stand-in gnuplot and the
 * names of the script and data it keeps ($TMPDIR/kept.gp, kept.dat). */
typedef struct fake {
    char *keep, *gp, *kept_gp, *kept_dat;
} fake;

static int fake_setup(void **state)
{
    fake *f = malloc(sizeof *f);

    assert_non_null(f);
    f->keep = tu_scratch("kept");
    f->gp = fake_gnuplot(f->keep);
    f->kept_gp = malloc(strlen(f->keep) + 5);
    f->kept_dat = malloc(strlen(f->keep) + 5);
    assert_non_null(f->kept_gp);
    assert_non_null(f->kept_dat);
    sprintf(f->kept_gp, "%s.gp", f->keep);
    sprintf(f->kept_dat, "%s.dat", f->keep);
    *state = f;
    return 0;
}

static int fake_teardown(void **state)
{
    fake *f = *state;

    free(f->keep);
    free(f->gp);
    free(f->kept_gp);
    free(f->kept_dat);
    free(f);
    return 0;
}

/* A test listed with the stand-in gnuplot as its *state. */
#define fake_test(t)                                                           \
    cmocka_unit_test_setup_teardown(t, fake_setup, fake_teardown)

/* The line `name = ...` of a script's variables, without `name = `. */
static char *script_var(const char *script, const char *name)
{
    size_t nl = strlen(name);
    const char *p = script;

    for (;;) {
        const char *end = strchr(p, '\n');
        if (!end)
            end = p + strlen(p);
        if ((size_t)(end - p) > nl + 3 && memcmp(p, name, nl) == 0 &&
            memcmp(p + nl, " = ", 3) == 0)
            return strndup(p + nl + 3, (size_t)(end - p) - nl - 3);
        if (!*end)
            break;
        p = end + 1;
    }
    fail_msg("the script sets no variable %s", name);
    return NULL;
}

static uint64_t script_u64(const char *script, const char *name)
{
    char *v = script_var(script, name), *end;
    unsigned long long x = strtoull(v, &end, 10);

    if (*end)
        fail_msg("%s = %s is not a whole number", name, v);
    free(v);
    return x;
}

/* A string variable's text: gnuplot's 'a''b' . "\n" . 'c' read back. */
static char *script_str(const char *script, const char *name)
{
    char *v = script_var(script, name), *out = malloc(strlen(v) + 1);
    const char *p = v;
    size_t o = 0;

    assert_non_null(out);
    assert_true(*p == '\'');
    for (p++; *p;) {
        if (p[0] == '\'' && p[1] == '\'') {
            out[o++] = '\'';
            p += 2;
        } else if (strncmp(p, "' . \"\\n\" . '", 12) == 0) {
            out[o++] = '\n';
            p += 12;
        } else if (p[0] == '\'' && p[1] == '\0') {
            p++;
        } else {
            out[o++] = *p++;
        }
    }
    out[o] = '\0';
    free(v);
    return out;
}

/* Remove spaces and line breaks from s. */
static void squeeze(char *s)
{
    char *o = s;

    for (; *s; s++)
        if (*s != ' ' && *s != '\n')
            *o++ = *s;
    *o = '\0';
}

static unsigned count_char(const char *s, char c)
{
    unsigned n = 0;

    for (; *s; s++)
        n += *s == c;
    return n;
}

/* A tick interval gnuplot can label plainly: 1, 2 or 5 times a power of
 * ten, putting 4 to 11 ticks on lo..hi. */
static void assert_nice_ticks(uint64_t step, uint64_t lo, uint64_t hi)
{
    uint64_t m = step, ticks = 0, x;

    assert_true(step >= 1);
    while (m % 10 == 0)
        m /= 10;
    assert_true(m == 1 || m == 2 || m == 5);
    for (x = lo; x <= hi; x++)
        ticks += x % step == 0;
    if (ticks < 4 || ticks > 11)
        fail_msg("%llu ticks on %llu..%llu", (unsigned long long)ticks,
                 (unsigned long long)lo, (unsigned long long)hi);
}

/* Far from 0 the script names the offset on the axis, draws offsets
 * 0..100 with whole-number ticks, and puts Kayles' period boundaries
 * where n = 71 (mod 12); near 0 it keeps the plain axis. */
static void test_script_far(void **state)
{
    const fake *f = *state;
    const char *gp = f->gp, *kept_gp = f->kept_gp, *kept_dat = f->kept_dat;
    char *out = tu_scratch("far.svg"), *script, *v;
    const uint64_t from = 1000000000000000000ULL, to = from + 100;
    sg_plot_options opt;
    sg_error err;
    row *rows;
    size_t nrows;
    uint64_t xtic, bfirst, p, k;
    tu_game g;

    tu_game_init(&g, "0.77", 1000, 200);
    memset(&opt, 0, sizeof opt);
    opt.gnuplot = gp;
    assert_int_equal(
        sg_plot_sequence(out, &g.r, &g.res, &g.s, from, to, &opt, &err), SG_OK);
    script = tu_slurp(kept_gp, NULL);
    v = script_str(script, "xlabel");
    assert_string_equal(v, "n \xe2\x88\x92 10^18 (heap size n)");
    free(v);
    v = script_str(script, "ylabel");
    assert_string_equal(v, "G(n)");
    free(v);
    assert_int_equal(script_u64(script, "xmin"), 0);
    assert_int_equal(script_u64(script, "xmax"), 100);
    xtic = script_u64(script, "xtic");
    assert_nice_ticks(xtic, 0, 100);
    assert_true(script_u64(script, "ytic") >= 1);
    /* No pre-period in view: the shading ends at xmin. */
    assert_int_equal(script_u64(script, "n0"), 0);
    p = script_u64(script, "p");
    assert_int_equal(p, 12);
    bfirst = script_u64(script, "bfirst");
    assert_true(bfirst < 12);
    assert_int_equal((from + bfirst - 71) % 12, 0);
    assert_int_equal(script_u64(script, "nbound"), (100 - bfirst) / 12 + 1);
    /* The terminal is set before the template and the labels are UTF-8. */
    assert_non_null(strstr(script, "\nset encoding utf8\nset terminal "
                                   "@terminal\n# ---- template ----\n"));
    free(script);
    rows = read_rows(kept_dat, &nrows);
    assert_int_equal(nrows, 101);
    for (k = 0; k < nrows; k++) {
        uint64_t n = from + k;
        assert_int_equal(rows[k].n, k);
        assert_int_equal(rows[k].max, g.ref[71 + (n - 71) % 12]);
    }
    free(rows);

    /* 10^12: the same, with its own base. */
    assert_int_equal(sg_plot_sequence(out, &g.r, &g.res, &g.s, 1000000000000ULL,
                                      1000000000100ULL, &opt, &err),
                     SG_OK);
    script = tu_slurp(kept_gp, NULL);
    v = script_str(script, "xlabel");
    assert_string_equal(v, "n \xe2\x88\x92 10^12 (heap size n)");
    free(v);
    assert_int_equal(script_u64(script, "xmax"), 100);
    free(script);

    /* Near 0: the plain axis, positions as they are. */
    assert_int_equal(
        sg_plot_sequence(out, &g.r, &g.res, &g.s, 0, 150, &opt, &err), SG_OK);
    script = tu_slurp(kept_gp, NULL);
    v = script_str(script, "xlabel");
    assert_string_equal(v, "n (heap size)");
    free(v);
    assert_int_equal(script_u64(script, "xmin"), 0);
    assert_int_equal(script_u64(script, "xmax"), 150);
    assert_nice_ticks(script_u64(script, "xtic"), 0, 150);
    assert_nice_ticks(script_u64(script, "ytic"), 0, 8);
    assert_int_equal(script_u64(script, "n0"), 71);
    v = script_str(script, "prelabel");
    assert_string_equal(v, "pre-period (n < 71)");
    free(v);
    free(script);
    rows = read_rows(kept_dat, &nrows);
    assert_int_equal(nrows, 151);
    for (k = 0; k < nrows; k++) {
        assert_int_equal(rows[k].n, k);
        assert_int_equal(rows[k].max, g.ref[k]);
    }
    free(rows);
    assert_no_leftovers();
    tu_game_clear(&g);
    free(out);
}

/* A line's width in thousandths of an em, coarsely: digits, braces and
 * lower-case letters 0.64 em, punctuation and spaces 0.32 em, anything
 * else (capitals, the ellipsis) a full em. */
static unsigned long coarse_width(const char *s, size_t n)
{
    unsigned long w = 0;
    size_t i;

    for (i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if ((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || c == '{' ||
            c == '}')
            w += 640;
        else if (c == ',' || c == '.' || c == ':' || c == ' ' || c == '-')
            w += 320;
        else if ((c & 0xc0) != 0x80)
            w += 1000;
    }
    return w;
}

/* The rings gnuplot is handed: for 0.106 (sparse space over the heap's
 * parity: mask 13, (h + 1) mod 2, 15 rare heaps up to 1103, docs/THEORY.md
 * section 12) exactly the heaps of that space, for Kayles (plain mask 15)
 * exactly the values of even weight under 15; the data file's header and
 * the script's variables and legend say which. */
static void test_script_rare(void **state)
{
    static const struct {
        const char *code;
        uint64_t mask;
        int parity, shift;
        uint64_t rare; /* rows ringed */
        const char *header, *legend;
    } cases[] = {
        {"0.106", 13, 1, 1, 15,
         "rare: popcount of G & 13 plus (n + 1) mod 2 even)",
         "rare values: popcount(G & 13) + (n + 1) mod 2 even (15)"},
        {"0.77", 15, 0, 0, 9, "rare: even popcount of G & 15)",
         "rare values: popcount(G & 15) even (9)"},
    };
    const fake *f = *state;
    const char *gp = f->gp, *kept_gp = f->kept_gp, *kept_dat = f->kept_dat;
    char *out = tu_scratch("rare.png");
    sg_plot_options opt;
    size_t c;

    memset(&opt, 0, sizeof opt);
    opt.gnuplot = gp;
    for (c = 0; c < sizeof cases / sizeof *cases; c++) {
        char *data, *script, *v;
        size_t nrows, k, ringed = 0;
        sg_error err;
        row *rows;
        tu_game g;

        tu_game_init(&g, cases[c].code, 3000, 3000);
        assert_int_equal(
            sg_plot_sequence(out, &g.r, &g.res, &g.s, 0, 2999, &opt, &err),
            SG_OK);
        rows = read_rows(kept_dat, &nrows);
        assert_int_equal(nrows, 3000);
        for (k = 0; k < nrows; k++) {
            uint64_t n = rows[k].n, want;
            assert_int_equal(n, k);
            want = cases[c].parity
                       ? (uint64_t)rare_ext_naive(g.ref[n], n, cases[c].mask, 1,
                                                  cases[c].shift)
                       : (uint64_t)(n > 0 && even_weight_naive(g.ref[n] &
                                                               cases[c].mask));
            if ((uint64_t)rows[k].have_rare != want)
                fail_msg("%s: heap %llu (G = %u) %s, expected %s",
                         cases[c].code, (unsigned long long)n,
                         (unsigned)g.ref[n],
                         rows[k].have_rare ? "ringed" : "not ringed",
                         want ? "ringed" : "not ringed");
            if (want)
                assert_int_equal(rows[k].rare, g.ref[n]);
            ringed += rows[k].have_rare;
        }
        assert_int_equal(ringed, cases[c].rare);
        free(rows);
        data = tu_slurp(kept_dat, NULL);
        if (!strstr(data, cases[c].header))
            fail_msg("%s: the data file's header lacks \"%s\"", cases[c].code,
                     cases[c].header);
        free(data);
        script = tu_slurp(kept_gp, NULL);
        assert_int_equal(script_u64(script, "raremask"), cases[c].mask);
        assert_int_equal(script_u64(script, "rareparity"), cases[c].parity);
        assert_int_equal(script_u64(script, "rareshift"), cases[c].shift);
        v = script_str(script, "rarelabel");
        assert_string_equal(v, cases[c].legend);
        free(v);
        free(script);
        tu_game_clear(&g);
    }
    assert_no_leftovers();
    free(out);
}

/* Long names: a title takes at most three lines, none wider than a
 * 960-pixel image (58 em of its 16.5-pixel font); a name that fits in three lines is only wrapped (the text is
 * whole), a longer one keeps its start, its end and the result around an
 * ellipsis. */
static void test_script_titles(void **state)
{
    const fake *f = *state;
    const char *gp = f->gp, *kept_gp = f->kept_gp;
    char *out = tu_scratch("title.png"), *script, *title;
    static const struct {
        uint64_t first, stepby, count;
        int whole;
    } sets[] = {
        {101, 3, 40, 1},  /* 40 three-digit numbers */
        {1000, 7, 72, 0}, /* 72 four-digit numbers */
        {1, 2, 5, 1},     /* short: subtract{1,3,5,7,9} */
    };
    sg_plot_options opt;
    size_t c;

    memset(&opt, 0, sizeof opt);
    opt.gnuplot = gp;
    for (c = 0; c < sizeof sets / sizeof *sets; c++) {
        char code[2048], expect[2400];
        size_t o, i, len, start;
        sg_rule r;
        sg_seq s;
        sg_result res;
        sg_error err;

        o = (size_t)sprintf(code, "subtract{");
        for (i = 0; i < sets[c].count; i++)
            o += (size_t)sprintf(
                code + o, "%s%llu", i ? "," : "",
                (unsigned long long)(sets[c].first + i * sets[c].stepby));
        sprintf(code + o, "}");
        sg_rule_init(&r);
        sg_seq_init(&s);
        assert_int_equal(sg_rule_parse(&r, SG_SYNTAX_RULE, code, &err), SG_OK);
        assert_int_equal(sg_analyse(&res, &s, &r, 100000, NULL, &err), SG_OK);
        assert_int_equal(res.status, SG_PERIODIC);
        assert_int_equal(
            sg_plot_sequence(out, &r, &res, &s, 0, 100, &opt, &err), SG_OK);
        script = tu_slurp(kept_gp, NULL);
        title = script_str(script, "plottitle");
        assert_true(count_char(title, '\n') <= 2);
        for (start = 0, len = strlen(title), i = 0; i <= len; i++)
            if (title[i] == '\n' || title[i] == '\0') {
                if (coarse_width(title + start, i - start) > 58000)
                    fail_msg("title line too wide: %.*s", (int)(i - start),
                             title + start);
                start = i + 1;
            }
        /* Lines break after a comma or in place of a space: compare
         * without spaces and line breaks. */
        snprintf(expect, sizeof expect, "%s:period%llu after pre-period %llu",
                 sets[c].whole ? code : ",1497}",
                 (unsigned long long)res.period,
                 (unsigned long long)res.preperiod);
        squeeze(expect);
        squeeze(title);
        if (sets[c].whole) {
            assert_true(strncmp(title, expect, strlen(expect)) == 0);
        } else {
            assert_true(strncmp(title, "subtract{1000,1007,", 19) == 0);
            assert_non_null(strstr(title, "\xe2\x80\xa6"));
            assert_non_null(strstr(title, expect));
        }
        assert_non_null(strstr(title, "provenbythe"));
        free(title);
        free(script);
        sg_seq_clear(&s);
        sg_rule_clear(&r);
    }
    free(out);
}

/* The results figure: a long title in at most three lines keeping its
 * counts, a long rule name shortened on its point, whole-number ticks on
 * the axis counting rules. */
static void test_script_results(void **state)
{
    const fake *f = *state;
    const char *gp = f->gp, *kept_gp = f->kept_gp, *kept_dat = f->kept_dat;
    char *out = tu_scratch("results.svg"), *script, *t;
    static const char long_rule[] =
        "subtract{1000,1007,1014,1021,1028,1035,1042,1049,1056,1063}";
    static const char long_title[] =
        "cached rules in a_very_long_cache_file_name_for_the_experiments_of_"
        "the_research_group_on_octal_games_and_subtraction_games_2026_"
        "december_version_7_with_a_few_more_words_to_make_it_longer.db";
    sg_plot_result items[] = {
        {"0.77", SG_PERIODIC, 71, 12},
        {"0.07", SG_PERIODIC, 53, 34},
        {"0.7", SG_PERIODIC, 0, 3},
        {long_rule, SG_PERIODIC, 0, 6000},
    };
    sg_plot_options opt;
    sg_error err;
    uint64_t htic, hmax;
    char *p, *q;

    memset(&opt, 0, sizeof opt);
    opt.gnuplot = gp;
    assert_int_equal(sg_plot_results(out, long_title, items, 4, &opt, &err),
                     SG_OK);
    script = tu_slurp(kept_gp, NULL);
    t = script_str(script, "plottitle");
    assert_true(count_char(t, '\n') <= 2);
    squeeze(t);
    assert_true(strncmp(t, "cachedrulesina_very_long_", 25) == 0);
    assert_non_null(strstr(t, "(4):4periodic,0arithmetic-periodic,0"));
    free(t);
    hmax = script_u64(script, "hmax");
    htic = script_u64(script, "htic");
    assert_int_equal(hmax, 1);
    assert_true(htic >= 1);
    free(script);
    /* Block 3 names the longest period: the long rule, shortened. */
    t = tu_slurp(kept_dat, NULL);
    p = strstr(t, "# named:");
    assert_non_null(p);
    p = strchr(p, '"');
    assert_non_null(p);
    q = strchr(p + 1, '"');
    assert_non_null(q);
    *q = '\0';
    assert_true(strlen(p + 1) < strlen(long_rule));
    assert_true(strncmp(p + 1, "subtract{1", 10) == 0);
    assert_non_null(strstr(p + 1, "\xe2\x80\xa6"));
    assert_true(strlen(p + 1) >= 3 &&
                strcmp(p + 1 + strlen(p + 1) - 3, "63}") == 0);
    free(t);
    assert_no_leftovers();
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
    unsigned char *b = (unsigned char *)tu_slurp(path, &len);

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
    char *t = tu_slurp(path, NULL), *p = t, *end;

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
    char *b = tu_slurp(path, &len);

    assert_true(len > 100);
    assert_memory_equal(b, "%PDF-", 5);
    assert_non_null(strstr(b + len - 64 > b ? b + len - 64 : b, "%%EOF"));
    free(b);
}

static void test_images(void **state)
{
    char *png = tu_scratch("k.png"), *svg = tu_scratch("k.svg"),
         *pdf = tu_scratch("k.pdf"), *rpng = tu_scratch("r.png"),
         *rsvg = tu_scratch("r.svg"), *rpdf = tu_scratch("r.pdf"), *t;
    static const sg_plot_result items[] = {
        {"0.77", SG_PERIODIC, 71, 12},
        {"0.07", SG_PERIODIC, 53, 34},
        {"all-but{}", SG_ARITH_PERIODIC, 0, 1},
        {"0.16", SG_UNRESOLVED, 0, 0},
    };
    sg_plot_options opt;
    sg_error err;
    tu_game g;

    (void)state;
    if (!have_gnuplot())
        skip();
    tu_game_init(&g, "0.77", 1000, 10);
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
    tu_game_clear(&g);
    free(png);
    free(svg);
    free(pdf);
    free(rpng);
    free(rsvg);
    free(rpdf);
}

/* ------------------------------------------------------------------ */
/* The misère figure                                                    */
/* ------------------------------------------------------------------ */

/* Heaps 0..3 by hand: 0^120 and 1^031 (fickle, tame), 4^146 (not tame:
 * gamma_0 = 1 is neither g = 4 nor, g > 1, fickle), 2^20 (firm, tame,
 * after the first wild heap).  Genus exponents as Conway writes them,
 * the last two alternating. */
static void misere_planted(sg_misere *m, sg_genus *gen, sg_value *val)
{
    static const struct {
        sg_value g, gamma[3];
    } h[4] = {{0, {1, 2, 0}}, {1, {0, 3, 1}}, {4, {1, 4, 6}}, {2, {2, 0, 2}}};
    size_t i, k;

    sg_misere_init(m);
    for (i = 0; i < 4; i++) {
        memset(&gen[i], 0, sizeof gen[i]);
        gen[i].g = h[i].g;
        gen[i].len = 3;
        for (k = 0; k < 3; k++)
            gen[i].gamma[k] = h[i].gamma[k];
        val[i] = h[i].gamma[0];
    }
    m->n = 4;
    m->genus = gen;
    m->value = val;
    m->tame_to = 2;
}

/* The data and variables of the misère figure: a row per heap with G,
 * G-, whether the genus is wild and the genus; the first wild heap, the
 * number of wild heaps, "misère play" in the title. */
static void test_misere_script(void **state)
{
    const fake *f = *state;
    const char *gp = f->gp, *kept_gp = f->kept_gp, *kept_dat = f->kept_dat;
    char *out = tu_scratch("mis.png"), *script, *data, *v;
    sg_genus gen[4];
    sg_value val[4];
    sg_misere m;
    sg_plot_options opt;
    sg_error err;
    sg_rule r;

    memset(&opt, 0, sizeof opt);
    opt.gnuplot = gp;
    misere_planted(&m, gen, val);
    sg_rule_init(&r);
    assert_int_equal(sg_rule_parse(&r, SG_SYNTAX_RULE, "0.77", &err), SG_OK);
    assert_int_equal(sg_plot_misere(out, &r, &m, &opt, &err), SG_OK);
    data = tu_slurp(kept_dat, NULL);
    assert_non_null(strstr(data, "\n0 0 1 0 \"0^120\"\n"
                                 "1 1 0 0 \"1^031\"\n"
                                 "2 4 1 1 \"4^146\"\n"
                                 "3 2 2 0 \"2^20\"\n"));
    script = tu_slurp(kept_gp, NULL);
    v = script_var(script, "tameto");
    assert_string_equal(v, "2");
    free(v);
    v = script_var(script, "nwild");
    assert_string_equal(v, "1");
    free(v);
    v = script_var(script, "xmax");
    assert_string_equal(v, "3");
    free(v);
    v = script_var(script, "ymax");
    assert_string_equal(v, "4");
    free(v);
    v = script_str(script, "plottitle");
    assert_non_null(strstr(v, "0.77: mis\xc3\xa8re play"));
    assert_non_null(strstr(v, "heap 2"));
    free(v);
    /* The built-in template follows the variables. */
    assert_non_null(strstr(script, "# plots/misere.gp"));
    free(script);
    free(data);

    /* All tame: tameto past the last heap, no wild heap. */
    gen[2].gamma[0] = 4;
    gen[2].gamma[1] = 6;
    gen[2].gamma[2] = 4;
    val[2] = 4;
    m.tame_to = 4;
    assert_int_equal(sg_plot_misere(out, &r, &m, &opt, &err), SG_OK);
    script = tu_slurp(kept_gp, NULL);
    v = script_var(script, "tameto");
    assert_string_equal(v, "4");
    free(v);
    v = script_var(script, "nwild");
    assert_string_equal(v, "0");
    free(v);
    v = script_str(script, "plottitle");
    assert_non_null(strstr(v, "all tame"));
    free(v);
    free(script);
    assert_no_leftovers();
    unlink(out);
    sg_rule_clear(&r);
    free(out);
}

/* The detrended figure of arithmetic-periodic rules: every row of its
 * data is G(n) - s floor(n/p) of the reference values (shifted up by the
 * same amount when that is negative, the axis then naming the shift), far
 * past the computed values too; no rare values; and a periodic or
 * unresolved result is refused. */
static void test_detrended_script(void **state)
{
    static const char *const codes[] = {"0.8F", "0.0[003]", "0.F7", "0.3F"};
    const fake *f = *state;
    char *out = tu_scratch("det.png"), *script, *v;
    sg_plot_options opt;
    sg_error err;
    size_t c, i, nrows, done = 0;

    memset(&opt, 0, sizeof opt);
    opt.gnuplot = f->gp;
    for (c = 0; c < sizeof codes / sizeof *codes; c++) {
        tu_game g;
        row *rows;
        int64_t lo = 0, d;
        uint64_t p, sal, to = 799;

        tu_game_init(&g, codes[c], 3000, to + 1);
        if (g.res.status != SG_ARITH_PERIODIC) {
            /* refused, nothing drawn */
            assert_int_equal(
                sg_plot_detrended(out, &g.r, &g.res, &g.s, 0, to, &opt, &err),
                SG_E_INPUT);
            tu_game_clear(&g);
            continue;
        }
        p = g.res.period;
        sal = g.res.saltus;
        for (i = 0; i <= to; i++) {
            d = (int64_t)g.ref[i] - (int64_t)(sal * (i / p));
            if (d < lo)
                lo = d;
        }
        assert_int_equal(
            sg_plot_detrended(out, &g.r, &g.res, &g.s, 0, to, &opt, &err),
            SG_OK);
        rows = read_rows(f->kept_dat, &nrows);
        assert_int_equal(nrows, to + 1);
        for (i = 0; i < nrows; i++) {
            d = (int64_t)g.ref[i] - (int64_t)(sal * (i / p)) - lo;
            if (rows[i].n != i || (int64_t)rows[i].max != d ||
                (int64_t)rows[i].min != d || rows[i].have_rare)
                fail_msg("%s: row %zu is %llu %llu, expected %lld", codes[c], i,
                         (unsigned long long)rows[i].max,
                         (unsigned long long)rows[i].min, (long long)d);
        }
        free(rows);
        script = tu_slurp(f->kept_gp, NULL);
        v = script_str(script, "ylabel");
        assert_non_null(strstr(v, "floor(n/"));
        assert_true((strstr(v, " + ") != NULL) == (lo < 0));
        free(v);
        v = script_str(script, "plottitle");
        assert_non_null(strstr(v, "detrended"));
        free(v);
        assert_int_equal(script_u64(script, "raremask"), 0);
        free(script);
        tu_game_clear(&g);
        done++;
    }
    assert_true(done >= 2);
    unlink(out);
    free(out);
}

/* Its failures: an unknown extension and no heaps (SG_E_INPUT), a
 * missing directory and a missing gnuplot (SG_E_IO); no file left. */
static void test_misere_errors(void **state)
{
    char *txt = tu_scratch("m.txt"), *missing = tu_scratch("no-such-dir/m.png"),
         *png = tu_scratch("m-never.png");
    sg_genus gen[4];
    sg_value val[4];
    sg_misere m, none;
    sg_plot_options opt;
    sg_error err;
    sg_rule r;
    struct stat st;

    (void)state;
    misere_planted(&m, gen, val);
    sg_misere_init(&none);
    sg_rule_init(&r);
    assert_int_equal(sg_rule_parse(&r, SG_SYNTAX_RULE, "0.77", &err), SG_OK);
    memset(&opt, 0, sizeof opt);
    assert_int_equal(sg_plot_misere(txt, &r, &m, &opt, &err), SG_E_INPUT);
    assert_non_null(strstr(err.msg, ".png, .svg or .pdf"));
    assert_int_not_equal(stat(txt, &st), 0);
    assert_int_equal(sg_plot_misere(png, &r, &none, &opt, &err), SG_E_INPUT);
    assert_int_not_equal(stat(png, &st), 0);
    assert_int_equal(sg_plot_misere(missing, &r, &m, &opt, &err), SG_E_IO);
    assert_non_null(strstr(err.msg, "does not exist"));
    opt.gnuplot = "/nonexistent/gnuplot";
    assert_int_equal(sg_plot_misere(png, &r, &m, &opt, &err), SG_E_IO);
    assert_non_null(strstr(err.msg, "gnuplot-nox"));
    assert_null(strchr(err.msg, '\n'));
    assert_int_not_equal(stat(png, &st), 0);
    assert_no_leftovers();
    sg_rule_clear(&r);
    free(txt);
    free(missing);
    free(png);
}

/* gnuplot's own error comes back, pointing at the line of the user's
 * template; the previous contents of the destination survive. */
static void test_gnuplot_error(void **state)
{
    char *tpl = tu_scratch("bad_template.gp"), *out = tu_scratch("keep.png");
    sg_plot_options opt;
    sg_error err;
    tu_game g;
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
    tu_game_init(&g, "0.77", 1000, 10);
    memset(&opt, 0, sizeof opt);
    opt.template_file = tpl;
    assert_int_equal(
        sg_plot_sequence(out, &g.r, &g.res, &g.s, 0, 100, &opt, &err), SG_E_IO);
    assert_non_null(strstr(err.msg, "gnuplot failed"));
    assert_non_null(strstr(err.msg, "bad_template.gp line 3"));
    assert_non_null(strstr(err.msg, "undefined variable"));
    text = tu_slurp(out, NULL);
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
    tu_game_clear(&g);
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
        cmocka_unit_test(test_sequence_far),
        cmocka_unit_test(test_sequence_far_values),
        cmocka_unit_test(test_sequence_unknown),
        cmocka_unit_test(test_rare_planted),
        cmocka_unit_test(test_rare_examples),
        cmocka_unit_test(test_rare_kayles),
        cmocka_unit_test(test_rare_parity),
        cmocka_unit_test(test_results_data),
        cmocka_unit_test(test_templates_match_files),
        cmocka_unit_test(test_bad_destinations),
        cmocka_unit_test(test_missing_gnuplot),
        fake_test(test_script_far),
        fake_test(test_script_rare),
        fake_test(test_script_titles),
        fake_test(test_script_results),
        cmocka_unit_test(test_images),
        cmocka_unit_test(test_gnuplot_error),
        fake_test(test_misere_script),
        fake_test(test_detrended_script),
        cmocka_unit_test(test_misere_errors),
    };

    tu_base_seed();
    return cmocka_run_group_tests(tests, NULL, NULL);
}
