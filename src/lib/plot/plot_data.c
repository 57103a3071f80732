/*
 * plot_data.c - what gnuplot draws, as files: G(n) read for increasing n
 * from the computed values and then through the proven period, the rare
 * values of a range (the same sparse space the reports show), and the data
 * files of the two figures: long ranges thinned to the largest and
 * smallest value per bucket, so that 10^8 values stay quick, and numbers
 * far from 0 written as offsets from a round base, as gnuplot's doubles
 * cannot tell 10^18 from 10^18 + 1.
 */
#define _DEFAULT_SOURCE
#include "plot_impl.h"
#include "enum/methods/sparse_space.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Rare values: masks below 2^RARE_BITS are tried; a class is rare when it
 * holds at most 1 in RARE_SHARE positions of at least RARE_MIN_TOTAL. */
#define RARE_BITS 16
#define RARE_SHARE 10
#define RARE_MIN_TOTAL 100

/* ------------------------------------------------------------------ */
/* Reading G(n) for increasing n                                        */
/* ------------------------------------------------------------------ */

/* Check that G(from..to) are known and set c up at from. */
sg_status sgi_plot_cursor_init(cursor *c, const sg_seq *s, const sg_result *res,
                               uint64_t from, uint64_t to, sg_error *err)
{
    memset(c, 0, sizeof *c);
    c->s = s;
    c->n = from;
    if (to < from)
        return sg_error_set(err, SG_E_INPUT, -1,
                            "the range %llu:%llu is reversed", (ull)from,
                            (ull)to);
    if (to - from == UINT64_MAX)
        return sg_error_set(err, SG_E_INPUT, -1, "the range is too long");
    if (res && res->status != SG_UNRESOLVED && res->period > 0 &&
        res->preperiod + res->period <= s->n) {
        c->extend = 1;
        c->n0 = res->preperiod;
        c->p = res->period;
        c->saltus = res->status == SG_ARITH_PERIODIC ? res->saltus : 0;
    }
    if (to >= s->n && !c->extend) {
        if (s->n == 0)
            return sg_error_set(err, SG_E_INPUT, -1, "no values were computed");
        return sg_error_set(err, SG_E_INPUT, -1,
                            "G(%llu) is not known: G(0..%llu) were computed "
                            "and no period is proven",
                            (ull)to, (ull)(s->n - 1));
    }
    return SG_OK;
}

/* Whether x has an even number of one bits. */
static inline int even_weight(uint64_t x)
{
    x ^= x >> 32;
    x ^= x >> 16;
    x ^= x >> 8;
    x ^= x >> 4;
    x ^= x >> 2;
    x ^= x >> 1;
    return !(x & 1);
}

/* ------------------------------------------------------------------ */
/* Rare values                                                          */
/* ------------------------------------------------------------------ */

/* Whether heap n of value v is rare under r (sgexplore.h).  Heap 0
 * never is: the sparse spaces of the reports count heaps h >= 1 only
 * (G(0) = 0 is every game's), so a figure ringing it would count one
 * rare heap more than the report (Kayles: 10 against 9). */
static inline int is_rare(const sgi_plot_rare *r, uint64_t n, uint64_t v)
{
    int par = r->parity && ((n + (uint64_t)r->parity_shift) & 1);

    if (n == 0)
        return 0;
    return r->mask && even_weight(v & r->mask) != par;
}

/* The report's sparse space when it is one over the heap's parity: 1 and
 * out's mask and parity set, else 0.  The plain masks stay the plot's own
 * (found on the range drawn), as before parity spaces existed. */
static sg_status parity_space(int *found, sgi_plot_rare *out, const sg_seq *s,
                              const sg_rule *r, sg_error *err)
{
    sg_sparse_space sp;
    sg_status st;

    *found = 0;
    if (!r || !sgi_sparse_parity_ok(r, NULL) || s->n < SG_SPARSE_SPACE_MIN)
        return SG_OK;
    st = sg_sparse_space_find_rule(&sp, s, r, s->n, err);
    if (st)
        return st;
    if (sp.found && sp.parity) {
        out->mask = sp.mask;
        out->parity = 1;
        out->parity_shift = sp.parity_shift;
        *found = 1;
    }
    return SG_OK;
}

/*
 * With h the histogram of the values (low RARE_BITS bits), the number of
 * positions whose value has even weight under mask m is (N + W(m)) / 2,
 * where W(m) = sum_v h(v) (-1)^popcount(v & m) is the Walsh-Hadamard
 * transform of h.  One transform gives every mask at once.
 */
sg_status sgi_plot_find_rare(sgi_plot_rare *out, const sg_seq *s,
                             const sg_rule *r, const sg_result *res,
                             uint64_t from, uint64_t to, sg_error *err)
{
    cursor c;
    int64_t *w;
    uint64_t total, heaps, i, bits = 0, best = 0, bestm = 0;
    size_t size;
    unsigned nbits = 1;
    int par = 0;
    sg_status st;

    memset(out, 0, sizeof *out);
    st = sgi_plot_cursor_init(&c, s, res, from, to, err);
    if (!st)
        st = parity_space(&par, out, s, r, err);
    if (st)
        return st;
    total = to - from + 1;
    out->total = total;
    if (par) {
        /* Count the range's heaps of that space; none in view, nothing
         * to mark (and no legend entry). */
        for (i = from; i - from < total; i++)
            out->count += (uint64_t)is_rare(out, i, sgi_plot_cursor_next(&c));
        if (!out->count)
            out->mask = out->parity = out->parity_shift = 0;
        return SG_OK;
    }
    w = calloc((size_t)1 << RARE_BITS, sizeof *w);
    if (!w)
        return sg_error_set(err, SG_E_NOMEM, -1, "out of memory");
    /* heap 0 is never rare (is_rare): it takes no part in the choice */
    for (i = 0; i < total; i++) {
        uint64_t v = sgi_plot_cursor_next(&c);
        if (from + i == 0)
            continue;
        bits |= v;
        w[v & (((uint64_t)1 << RARE_BITS) - 1)]++;
    }
    heaps = from == 0 ? total - 1 : total;
    /* Transform only as many bits as the values use; the one mask search
     * of sparse_space.c, leaving out masks under which nothing is rare. */
    while (nbits < RARE_BITS && (bits >> nbits) != 0)
        nbits++;
    size = (size_t)1 << nbits;
    bestm = sgi_sparse_mask_pick(w, size, 0, 1);
    if (bestm)
        best = (uint64_t)(((int64_t)heaps + w[bestm]) / 2);
    free(w);
    if (total >= RARE_MIN_TOTAL && best > 0 && best <= total / RARE_SHARE) {
        out->mask = bestm;
        out->count = best;
    }
    return SG_OK;
}

/* ------------------------------------------------------------------ */
/* Axes: offsets                                                        */
/* ------------------------------------------------------------------ */

/*
 * gnuplot computes in doubles, which hold integers exactly only below
 * 2^53: near n = 10^18 neighbouring positions collapse onto one point and
 * the ticks read 1e+18.  An axis whose numbers would need more than
 * BASE_DIGITS digits is therefore drawn as an offset from a round base
 * (n - 10^18), so that its ticks are small exact integers.
 */
#define BASE_DIGITS 7
#define BASE_FROM 10000000ULL /* 10^BASE_DIGITS */

/* The base of an axis showing lo..hi: 0 when hi has at most BASE_DIGITS
 * digits, else lo rounded down to the largest power of ten that keeps the
 * offsets below max(10 (hi - lo + 1), 1000), so that they need at most
 * one digit more than the width of the range. */
static uint64_t axis_base(uint64_t lo, uint64_t hi)
{
    uint64_t width = hi - lo, slack, u = 10000000000000000000ULL;

    if (hi < BASE_FROM)
        return 0;
    /* lo - base < slack makes hi - base < max(10 (width + 1), 1000). */
    slack = width > (UINT64_MAX - 10) / 9 ? UINT64_MAX : 9 * width + 10;
    if (width < 1000 && 1000 - width > slack)
        slack = 1000 - width;
    for (; u > 1; u /= 10)
        if (lo % u < slack)
            return lo - lo % u;
    return lo;
}

/* ------------------------------------------------------------------ */
/* Data files                                                           */
/* ------------------------------------------------------------------ */

sg_status sgi_plot_file_open(FILE **f, const char *path, sg_error *err)
{
    *f = fopen(path, "w");
    if (!*f)
        return sg_error_set(err, SG_E_IO, -1, "cannot write '%s': %s", path,
                            strerror(errno));
    return SG_OK;
}

/* Close f, turning any write error (a full disk) into SG_E_IO. */
sg_status sgi_plot_file_close(FILE *f, const char *path, sg_error *err)
{
    int bad = ferror(f);
    int e = errno;

    if (fclose(f) != 0 && !bad) {
        bad = 1;
        e = errno;
    }
    if (bad)
        return sg_error_set(err, SG_E_IO, -1, "cannot write '%s': %s", path,
                            strerror(e ? e : EIO));
    return SG_OK;
}

/* What makes a value rare, for the data file's header: "even popcount
 * of G & 15", or with the heap's parity "popcount of G & 13 plus (n + 1)
 * mod 2 even". */
static void rare_text(char *buf, size_t size, const sgi_plot_rare *rare)
{
    if (!rare->parity)
        snprintf(buf, size, "even popcount of G & %llu", (ull)rare->mask);
    else
        snprintf(buf, size, "popcount of G & %llu plus %s mod 2 even",
                 (ull)rare->mask, rare->parity_shift ? "(n + 1)" : "n");
}

/* One row of the sequence data: a bucket's first position and its
 * largest, smallest and largest rare value. */
typedef struct seq_row {
    uint64_t n, max, min, rare;
    int have_rare;
} seq_row;

sg_status sgi_plot_write_sequence(const char *path, sgi_plot_data *out,
                                  const sg_seq *s, const sg_result *res,
                                  uint64_t from, uint64_t to, size_t max_rows,
                                  const sgi_plot_rare *rare, sg_error *err)
{
    static const sgi_plot_rare none;
    cursor c;
    FILE *f;
    seq_row *rows;
    uint64_t total, step, left, nrows, i;
    char xb[64], yb[64], what[128];
    sg_status st;

    memset(out, 0, sizeof *out);
    if (!rare)
        rare = &none;
    st = sgi_plot_cursor_init(&c, s, res, from, to, err);
    if (st)
        return st;
    if (max_rows == 0)
        max_rows = SG_PLOT_MAX_ROWS;
    total = to - from + 1;
    step = total <= max_rows ? 1 : (total - 1) / max_rows + 1;
    nrows = (total - 1) / step + 1;
    /* The rows are kept until the smallest and largest value are known,
     * which the offset of the value axis needs. */
    if (nrows > SIZE_MAX / sizeof *rows ||
        !(rows = malloc((size_t)nrows * sizeof *rows)))
        return sg_error_set(err, SG_E_NOMEM, -1,
                            "out of memory for %llu rows of plot data",
                            (ull)nrows);
    out->step = step;
    out->vmin = UINT64_MAX;
    for (left = total, i = 0; left > 0; i++) {
        seq_row *r = &rows[i];
        uint64_t k, len = left < step ? left : step;

        r->n = c.n;
        r->max = 0;
        r->min = UINT64_MAX;
        r->rare = 0;
        r->have_rare = 0;
        for (k = 0; k < len; k++) {
            uint64_t v = sgi_plot_cursor_next(&c);
            if (v > r->max)
                r->max = v;
            if (v < r->min)
                r->min = v;
            if (is_rare(rare, r->n + k, v) && (!r->have_rare || v > r->rare)) {
                r->rare = v;
                r->have_rare = 1;
            }
        }
        if (r->max > out->vmax)
            out->vmax = r->max;
        if (r->min < out->vmin)
            out->vmin = r->min;
        left -= len;
    }
    out->rows = nrows;
    out->xbase = axis_base(from, to);
    out->ybase = axis_base(out->vmin, out->vmax);

    st = sgi_plot_file_open(&f, path, err);
    if (st) {
        free(rows);
        return st;
    }
    snprintf(xb, sizeof xb, "n - %llu", (ull)out->xbase);
    snprintf(yb, sizeof yb, "G - %llu", (ull)out->ybase);
    rare_text(what, sizeof what, rare);
    fprintf(f,
            "# sgexplore: G(n) for n = %llu..%llu, %llu position%s per row\n"
            "# %s (first n of the row), largest %s, smallest %s, largest "
            "rare %s (- when none; rare: %s)\n",
            (ull)from, (ull)to, (ull)step, step == 1 ? "" : "s",
            out->xbase ? xb : "n", out->ybase ? yb : "G", out->ybase ? yb : "G",
            out->ybase ? yb : "G", what);
    for (i = 0; i < nrows; i++) {
        const seq_row *r = &rows[i];
        fprintf(f, "%llu %llu %llu ", (ull)(r->n - out->xbase),
                (ull)(r->max - out->ybase), (ull)(r->min - out->ybase));
        if (r->have_rare)
            fprintf(f, "%llu\n", (ull)(r->rare - out->ybase));
        else
            fputs("-\n", f);
    }
    free(rows);
    return sgi_plot_file_close(f, path, err);
}

/* One proven result, for sorting. */
typedef struct point {
    uint64_t n0, p;
    int arith;
    const char *rule;
} point;

static int cmp_point(const void *a, const void *b)
{
    const point *x = a, *y = b;

    if (x->arith != y->arith)
        return x->arith < y->arith ? -1 : 1;
    if (x->n0 != y->n0)
        return x->n0 < y->n0 ? -1 : 1;
    if (x->p != y->p)
        return x->p < y->p ? -1 : 1;
    return 0;
}

static int cmp_period(const void *a, const void *b)
{
    const point *x = a, *y = b;

    return x->p < y->p ? -1 : x->p > y->p;
}

/* A pre-period on the log-scale axis: 0 is drawn at 0.5. */
static void put_x(FILE *f, uint64_t n0)
{
    if (n0)
        fprintf(f, "%llu", (ull)n0);
    else
        fputs("0.5", f);
}

/* Longest rule name written whole as a point's label; a longer one keeps
 * its first and last LABEL_KEEP / 2 bytes around an ellipsis, so that it
 * cannot run off the panel. */
#define LABEL_KEEP 20

/* A rule's name as a double-quoted data column (quotes and line breaks,
 * which canonical texts never hold, are dropped), shortened in the middle
 * when long. */
static void put_label(FILE *f, const char *s)
{
    size_t len = s ? strlen(s) : 0, head = len, tail = 0, i;

    if (len > LABEL_KEEP) {
        head = LABEL_KEEP / 2;
        tail = LABEL_KEEP / 2;
        while (head > 0 && ((unsigned char)s[head] & 0xc0) == 0x80)
            head--;
        while (tail > 0 && ((unsigned char)s[len - tail] & 0xc0) == 0x80)
            tail--;
    }
    fputc('"', f);
    for (i = 0; i < len; i++) {
        if (i == head && tail) {
            fputs(ELLIPSIS, f);
            i = len - tail;
        }
        if (s[i] != '"' && s[i] != '\n' && s[i] != '\r')
            fputc(s[i], f);
    }
    fputs("\"\n", f);
}

sg_status sgi_plot_write_results(const char *path, sgi_plot_summary *out,
                                 const sg_plot_result *items, size_t n,
                                 sg_error *err)
{
    point *pts;
    size_t np = 0, i, j;
    FILE *f;
    sg_status st;
    int block;

    memset(out, 0, sizeof *out);
    pts = malloc((n ? n : 1) * sizeof *pts);
    if (!pts)
        return sg_error_set(err, SG_E_NOMEM, -1, "out of memory");
    for (i = 0; i < n; i++) {
        const sg_plot_result *it = &items[i];
        if (it->status == SG_UNRESOLVED || it->period == 0) {
            out->unresolved++;
            continue;
        }
        if (it->status == SG_ARITH_PERIODIC)
            out->arith++;
        else
            out->periodic++;
        pts[np].n0 = it->preperiod;
        pts[np].p = it->period;
        pts[np].arith = it->status == SG_ARITH_PERIODIC;
        pts[np].rule = it->rule;
        if (it->period > out->max_period)
            out->max_period = it->period;
        if (it->preperiod > out->max_preperiod)
            out->max_preperiod = it->preperiod;
        np++;
    }
    st = sgi_plot_file_open(&f, path, err);
    if (st) {
        free(pts);
        return st;
    }

    /* Blocks 0 and 1: distinct (n0, p) points with their counts.  An
     * empty block holds one undefined row, so that gnuplot's `index`
     * numbering never depends on which blocks are empty. */
    fputs("# sgexplore: results of many rules; see plots/results.gp\n", f);
    qsort(pts, np, sizeof *pts, cmp_point);
    i = 0;
    for (block = 0; block < 2; block++) {
        int rows = 0;
        fprintf(f, "# %s rules: pre-period (0 drawn as 0.5), period, rules\n",
                block ? "arithmetic-periodic" : "periodic");
        while (i < np && pts[i].arith == block) {
            for (j = i; j < np && cmp_point(&pts[i], &pts[j]) == 0; j++)
                ;
            put_x(f, pts[i].n0);
            fprintf(f, " %llu %llu\n", (ull)pts[i].p, (ull)(j - i));
            if (j - i > out->max_point)
                out->max_point = j - i;
            rows++;
            i = j;
        }
        if (!rows)
            fputs("NaN NaN 0\n", f);
        fputs("\n\n", f);
    }

    /* Block 2: rules per period.  Block 3: the rules with the longest
     * period and the longest pre-period, by name. */
    fputs("# period, rules with this period\n", f);
    {
        point best_p = {0, 0, 0, NULL}, best_n0 = {0, 0, 0, NULL};
        for (i = 0; i < np; i++) {
            if (i == 0 || pts[i].p > best_p.p)
                best_p = pts[i];
            if (i == 0 || pts[i].n0 > best_n0.n0)
                best_n0 = pts[i];
        }
        qsort(pts, np, sizeof *pts, cmp_period);
        for (i = 0; i < np; i = j) {
            for (j = i; j < np && pts[j].p == pts[i].p; j++)
                ;
            fprintf(f, "%llu %llu\n", (ull)pts[i].p, (ull)(j - i));
            if (j - i > out->max_count)
                out->max_count = j - i;
        }
        if (!np)
            fputs("NaN 0\n", f);
        fputs("\n\n# named: pre-period, period, rule\n", f);
        if (np) {
            put_x(f, best_p.n0);
            fprintf(f, " %llu ", (ull)best_p.p);
            put_label(f, best_p.rule);
            if (best_n0.n0 != best_p.n0 || best_n0.p != best_p.p) {
                put_x(f, best_n0.n0);
                fprintf(f, " %llu ", (ull)best_n0.p);
                put_label(f, best_n0.rule);
            }
        } else {
            /* Not NaN: gnuplot 5.4 crashes on labels with no defined
             * point.  This one lies outside the drawn range. */
            fputs("0.01 0.01 \"\"\n", f);
        }
    }
    free(pts);
    return sgi_plot_file_close(f, path, err);
}

sg_status sgi_plot_write_misere(const char *path, sgi_plot_misere *out,
                                const sg_misere *m, sg_error *err)
{
    char genus[16 + 11 * SG_GENUS_MAX];
    FILE *f;
    size_t h;
    sg_status st;

    memset(out, 0, sizeof *out);
    st = sgi_plot_file_open(&f, path, err);
    if (st)
        return st;
    fprintf(f, "# sgexplore: normal and misère values of heaps 0..%zu, ",
            m->n - 1);
    if (m->tame_to < m->n)
        fprintf(f, "tame below heap %zu\n", m->tame_to);
    else
        fputs("all tame\n", f);
    fputs("# n, G(n), G-(n), 1 when the genus is not tame, the genus\n", f);
    for (h = 0; h < m->n; h++) {
        const sg_genus *x = &m->genus[h];
        int wild = !sg_genus_is_tame(x);

        if (x->g > out->vmax)
            out->vmax = x->g;
        if (m->value[h] > out->vmax)
            out->vmax = m->value[h];
        out->nwild += (uint64_t)wild;
        /* The genus text is digits, '^', braces and commas only. */
        sg_genus_format(genus, sizeof genus, x);
        fprintf(f, "%zu %llu %llu %d \"%s\"\n", h, (ull)x->g, (ull)m->value[h],
                wild, genus);
    }
    return sgi_plot_file_close(f, path, err);
}
