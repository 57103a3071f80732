/*
 * plot.c - figures drawn by gnuplot, which runs as a separate program found
 * at run time: the data files it reads (long ranges thinned to the largest
 * and smallest value per bucket, so that 10^8 values stay quick; numbers
 * far from 0 written as offsets from a round base, as gnuplot's doubles
 * cannot tell 10^18 from 10^18 + 1), the search for rare values, the
 * scripts made of the templates in plots/ and the variables they read
 * (whole-number ticks, titles that fit), and running gnuplot so that it
 * can never write to our stdout.  Like all of libsg this file never prints: gnuplot's own
 * error text comes back in sg_error.
 */
#define _DEFAULT_SOURCE
#include "sgexplore.h"
#include "sparse_space.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

/* Rare values: masks below 2^RARE_BITS are tried; a class is rare when it
 * holds at most 1 in RARE_SHARE positions of at least RARE_MIN_TOTAL. */
#define RARE_BITS 16
#define RARE_SHARE 10
#define RARE_MIN_TOTAL 100

/* Period boundaries drawn one by one up to this many; beyond, only the
 * start of the period is marked. */
#define MAX_BOUNDARIES 40

/* Characters outside ASCII in labels, as UTF-8 (the templates set
 * `encoding utf8`). */
#define MINUS "\xe2\x88\x92"    /* U+2212 minus sign */
#define TIMES "\xc3\x97"        /* U+00D7 multiplication sign */
#define ELLIPSIS "\xe2\x80\xa6" /* U+2026 horizontal ellipsis */

/* Bytes of gnuplot's stderr kept for the error message. */
#define STDERR_KEEP 8192

typedef unsigned long long ull;

/* ------------------------------------------------------------------ */
/* Reading G(n) for increasing n                                        */
/* ------------------------------------------------------------------ */

/* A reader of G(from), G(from+1), ...: from s while n < s->n, then
 * through the proven (arithmetic) period, stepping a quotient and
 * remainder instead of dividing for every n. */
typedef struct cursor {
    const sg_seq *s;
    int extend;
    uint64_t n0, p, saltus;
    uint64_t n;
    int have_qr;
    uint64_t q, r; /* n = n0 + q p + r once n >= s->n */
} cursor;

/* Check that G(from..to) are known and set c up at from. */
static sg_status cursor_init(cursor *c, const sg_seq *s, const sg_result *res,
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

static inline uint64_t cursor_next(cursor *c)
{
    uint64_t v;

    if (c->n < c->s->n) {
        v = sg_seq_get(c->s, (size_t)c->n);
    } else {
        if (!c->have_qr) {
            c->q = (c->n - c->n0) / c->p;
            c->r = (c->n - c->n0) % c->p;
            c->have_qr = 1;
        }
        v = sg_seq_get(c->s, (size_t)(c->n0 + c->r)) + c->q * c->saltus;
        if (++c->r == c->p) {
            c->r = 0;
            c->q++;
        }
    }
    c->n++;
    return v;
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
static inline int is_rare(const sg_plot_rare *r, uint64_t n, uint64_t v)
{
    int par = r->parity && ((n + (uint64_t)r->parity_shift) & 1);

    if (n == 0)
        return 0;
    return r->mask && even_weight(v & r->mask) != par;
}

/* The report's sparse space when it is one over the heap's parity: 1 and
 * out's mask and parity set, else 0.  The plain masks stay the plot's own
 * (found on the range drawn), as before parity spaces existed. */
static sg_status parity_space(int *found, sg_plot_rare *out, const sg_seq *s,
                              const sg_rule *r, sg_error *err)
{
    sg_sparse_space sp;
    sg_status st;

    *found = 0;
    if (!r || !sg_sparse_parity_ok(r, NULL) || s->n < SG_SPARSE_SPACE_MIN)
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
sg_status sg_plot_find_rare(sg_plot_rare *out, const sg_seq *s,
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
    st = cursor_init(&c, s, res, from, to, err);
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
            out->count += (uint64_t)is_rare(out, i, cursor_next(&c));
        if (!out->count)
            out->mask = out->parity = out->parity_shift = 0;
        return SG_OK;
    }
    w = calloc((size_t)1 << RARE_BITS, sizeof *w);
    if (!w)
        return sg_error_set(err, SG_E_NOMEM, -1, "out of memory");
    /* heap 0 is never rare (is_rare): it takes no part in the choice */
    for (i = 0; i < total; i++) {
        uint64_t v = cursor_next(&c);
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
    bestm = sg_sparse_mask_pick(w, size, 0, 1);
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
/* Axes: offsets, ticks, labels                                         */
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

/* A base as the axis label writes it: "10^18", "3×10^12", or in full. */
static void base_text(char *out, size_t outsz, uint64_t base)
{
    uint64_t m = base;
    unsigned k = 0;

    while (m >= 10 && m % 10 == 0) {
        m /= 10;
        k++;
    }
    if (k >= 3 && m == 1)
        snprintf(out, outsz, "10^%u", k);
    else if (k >= 3 && m < 10)
        snprintf(out, outsz, "%llu" TIMES "10^%u", (ull)m, k);
    else
        snprintf(out, outsz, "%llu", (ull)base);
}

/* Decimal digits of v. */
static unsigned digits(uint64_t v)
{
    unsigned d = 1;

    for (; v >= 10; v /= 10)
        d++;
    return d;
}

/* The interval between ticks on an axis showing lo..hi: the least 1, 2
 * or 5 times a power of ten that puts at most `maxticks` ticks in lo..hi,
 * and never less than 1, so that ticks fall on whole numbers only. */
static uint64_t tick_step(uint64_t lo, uint64_t hi, uint64_t maxticks)
{
    static const uint64_t mult[] = {1, 2, 5};
    uint64_t pow = 1;

    if (maxticks == 0)
        maxticks = 1;
    for (;;) {
        size_t i;
        for (i = 0; i < 3; i++) {
            uint64_t s = mult[i] * pow;
            /* multiples of s in lo..hi */
            uint64_t first = lo / s + (lo % s != 0);
            uint64_t count = hi / s >= first ? hi / s - first + 1 : 0;
            if (count <= maxticks)
                return s;
        }
        if (pow > UINT64_MAX / 50)
            return 5 * pow;
        pow *= 10;
    }
}

/* ------------------------------------------------------------------ */
/* Titles that fit                                                      */
/* ------------------------------------------------------------------ */

/* Advance widths of the printable ASCII characters in thousandths of an
 * em, those of DejaVu Sans (the "Sans" of Debian's cairo terminals; Arial,
 * the SVG terminal's font, is narrower), so that a text's width can be
 * estimated without asking gnuplot. */
static const unsigned short glyph_width[95] = {
    318, 400, 460, 838, 636,  950, 780, 275, 390, 390, 500, 838, 318, 361,
    318, 337, 636, 636, 636,  636, 636, 636, 636, 636, 636, 636, 337, 337,
    838, 838, 838, 531, 1000, 684, 686, 698, 770, 632, 575, 775, 752, 295,
    295, 656, 557, 863, 748,  787, 603, 787, 695, 635, 611, 732, 684, 989,
    685, 611, 685, 390, 337,  390, 838, 500, 500, 613, 635, 550, 635, 615,
    352, 635, 634, 278, 278,  579, 278, 974, 634, 612, 635, 635, 411, 521,
    392, 634, 592, 818, 592,  592, 525, 636, 337, 636, 838};

/* The width of s[0..len) in thousandths of an em; a character outside
 * ASCII counts as a full em. */
static unsigned long text_width(const char *s, size_t len)
{
    unsigned long w = 0;
    size_t i;

    for (i = 0; i < len; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c >= 32 && c < 127)
            w += glyph_width[c - 32];
        else if (c >= 0xc0 || c < 32)
            w += 1000; /* the first byte of a UTF-8 character */
    }
    return w;
}

/* Most lines a title may take. */
#define TITLE_LINES 3

/*
 * Break text into lines of at most `width` thousandths of an em, after a
 * space (which is dropped), a comma, an underscore or a slash (rule names
 * and file names have no spaces), into out (lines separated by '\n');
 * a piece with no break in it longer than a line is cut between any two
 * (UTF-8) characters.  Stops after TITLE_LINES lines; returns the number
 * of lines, TITLE_LINES + 1 when the text needs more.
 */
static unsigned wrap_text(char *out, size_t outsz, const char *text,
                          unsigned long width)
{
    size_t len = strlen(text), start = 0, o = 0;
    unsigned lines = 0;

    out[0] = '\0';
    while (start < len) {
        size_t i, last_break = 0, end;
        unsigned long w = 0;

        if (lines == TITLE_LINES)
            return TITLE_LINES + 1;
        for (i = start; i < len; i++) {
            w += text_width(text + i, 1);
            if (w > width && i > start)
                break;
            if (strchr(" ,_/", text[i]))
                last_break = i + 1;
        }
        if (i == len || text[i] == ' ')
            end = i;
        else if (last_break > start)
            end = last_break;
        else
            for (end = i;
                 end > start + 1 && ((unsigned char)text[end] & 0xc0) == 0x80;)
                end--;
        if (lines > 0 && o + 1 < outsz)
            out[o++] = '\n';
        for (i = start; i < end && o + 1 < outsz; i++)
            if (i + 1 < end || text[i] != ' ')
                out[o++] = text[i];
        out[o] = '\0';
        for (start = end; start < len && text[start] == ' ';)
            start++;
        lines++;
    }
    return lines;
}

/*
 * A title "SUBJECT: REST" (REST may be empty) wrapped into at most
 * TITLE_LINES lines of `width` thousandths of an em; when it does not fit,
 * the middle of the subject (a rule's name, a cache's file name) gives way
 * to an ellipsis, so that its start, its end and REST stay readable.
 */
static void fit_title(char *out, size_t outsz, const char *subject,
                      const char *rest, unsigned long width)
{
    size_t slen = strlen(subject), keep = slen, full = slen + strlen(rest) + 8;
    char *text = malloc(full), *lines = malloc(full + TITLE_LINES + 8);

    if (!text || !lines) {
        snprintf(out, outsz, "%s%s", subject, rest);
        free(text);
        free(lines);
        return;
    }
    for (;;) {
        size_t head = keep < slen ? (keep + 1) / 2 : slen, tail = keep / 2;
        size_t i, o = 0;

        if (keep < slen) {
            /* Cut after a comma ("1,2,...,9") when one is near, else
             * between any two UTF-8 characters. */
            for (i = head; i > head / 2 && subject[i - 1] != ','; i--)
                ;
            if (i > head / 2)
                head = i;
            for (i = slen - tail; i < slen - tail / 2 && subject[i] != ','; i++)
                ;
            if (i < slen - tail / 2)
                tail = slen - i;
            while (head > 0 && ((unsigned char)subject[head] & 0xc0) == 0x80)
                head--;
            while (tail > 0 &&
                   ((unsigned char)subject[slen - tail] & 0xc0) == 0x80)
                tail--;
        }
        for (i = 0; i < head; i++)
            text[o++] = subject[i];
        if (keep < slen) {
            memcpy(text + o, ELLIPSIS, sizeof ELLIPSIS - 1);
            o += sizeof ELLIPSIS - 1;
            for (i = slen - tail; i < slen; i++)
                text[o++] = subject[i];
        }
        text[o] = '\0';
        strcat(text, rest);
        for (i = 0; text[i]; i++)
            if (text[i] == '\n' || text[i] == '\r' || text[i] == '\t')
                text[i] = ' ';
        if (wrap_text(lines, full + TITLE_LINES + 8, text, width) <=
                TITLE_LINES ||
            keep == 0)
            break;
        keep = keep > 40 ? keep - keep / 8 : keep - 1;
    }
    snprintf(out, outsz, "%s", lines);
    free(text);
    free(lines);
}

/* ------------------------------------------------------------------ */
/* Data files                                                           */
/* ------------------------------------------------------------------ */

static sg_status file_open(FILE **f, const char *path, sg_error *err)
{
    *f = fopen(path, "w");
    if (!*f)
        return sg_error_set(err, SG_E_IO, -1, "cannot write '%s': %s", path,
                            strerror(errno));
    return SG_OK;
}

/* Close f, turning any write error (a full disk) into SG_E_IO. */
static sg_status file_close(FILE *f, const char *path, sg_error *err)
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
static void rare_text(char *buf, size_t size, const sg_plot_rare *rare)
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

sg_status sg_plot_write_sequence(const char *path, sg_plot_data *out,
                                 const sg_seq *s, const sg_result *res,
                                 uint64_t from, uint64_t to, size_t max_rows,
                                 const sg_plot_rare *rare, sg_error *err)
{
    static const sg_plot_rare none;
    cursor c;
    FILE *f;
    seq_row *rows;
    uint64_t total, step, left, nrows, i;
    char xb[64], yb[64], what[128];
    sg_status st;

    memset(out, 0, sizeof *out);
    if (!rare)
        rare = &none;
    st = cursor_init(&c, s, res, from, to, err);
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
            uint64_t v = cursor_next(&c);
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

    st = file_open(&f, path, err);
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
    return file_close(f, path, err);
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

sg_status sg_plot_write_results(const char *path, sg_plot_summary *out,
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
    st = file_open(&f, path, err);
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
    return file_close(f, path, err);
}

/* ------------------------------------------------------------------ */
/* Image types and terminals                                            */
/* ------------------------------------------------------------------ */

sg_plot_format sg_plot_format_of(const char *path)
{
    const char *dot = strrchr(path, '.'), *slash = strrchr(path, '/');

    if (!dot || (slash && dot < slash) || dot == path ||
        (slash && dot == slash + 1))
        return SG_PLOT_UNKNOWN;
    if (strcasecmp(dot, ".png") == 0)
        return SG_PLOT_PNG;
    if (strcasecmp(dot, ".svg") == 0)
        return SG_PLOT_SVG;
    if (strcasecmp(dot, ".pdf") == 0)
        return SG_PLOT_PDF;
    return SG_PLOT_UNKNOWN;
}

/* The `terminal` variable of a script: the terminal for the type, a size
 * in its units, and no enhanced text (so that underscores and braces in
 * rule names stay as they are). */
static const char *terminal_text(sg_plot_format fmt, int wide)
{
    switch (fmt) {
    case SG_PLOT_PNG:
        return wide ? "pngcairo size 1200,540 noenhanced"
                    : "pngcairo size 960,540 noenhanced";
    case SG_PLOT_SVG:
        return wide ? "svg size 1200,540 noenhanced background '#ffffff'"
                    : "svg size 960,540 noenhanced background '#ffffff'";
    case SG_PLOT_PDF:
    case SG_PLOT_UNKNOWN:
    default:
        return wide ? "pdfcairo size 10in,4.5in noenhanced"
                    : "pdfcairo size 8in,4.5in noenhanced";
    }
}

/* How wide a title line may be, in thousandths of an em: the image's
 * width less a margin, over the em of PNG's 12 point font (16.5 pixels,
 * measured).  The SVG (Arial 12, an em of 12 units) and PDF (12 points at
 * fontscale 0.5 on 8 inches) terminals have more room, so this suits all
 * three. */
static unsigned long title_width(int wide)
{
    return (unsigned long)((wide ? 1200 : 960) - 60) * 1000 * 2 / 33;
}

static const char *format_suffix(sg_plot_format fmt)
{
    return fmt == SG_PLOT_PNG ? "png" : fmt == SG_PLOT_SVG ? "svg" : "pdf";
}

/* ------------------------------------------------------------------ */
/* The destination file                                                 */
/* ------------------------------------------------------------------ */

/* The image's destination, opened before gnuplot runs so that an
 * unwritable path fails early; written only once gnuplot succeeded. */
typedef struct dest {
    const char *path;
    int fd;
    int created; /* we created it: remove it again on failure */
} dest;

static sg_status dest_open(dest *d, const char *path, sg_error *err)
{
    int e;

    d->path = path;
    d->created = 0;
    d->fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (d->fd >= 0) {
        d->created = 1;
        return SG_OK;
    }
    if (errno == EEXIST) {
        d->fd = open(path, O_WRONLY | O_CLOEXEC);
        if (d->fd >= 0)
            return SG_OK;
    }
    e = errno;
    if (e == ENOENT) {
        /* Say which directory is missing. */
        const char *slash = strrchr(path, '/');
        if (slash && slash != path) {
            char *dir = strndup(path, (size_t)(slash - path));
            struct stat st;
            if (dir && stat(dir, &st) != 0) {
                sg_error_set(err, SG_E_IO, -1,
                             "cannot write '%s': the directory '%s' does not "
                             "exist",
                             path, dir);
                free(dir);
                return SG_E_IO;
            }
            free(dir);
        }
    }
    return sg_error_set(err, SG_E_IO, -1, "cannot write '%s': %s", path,
                        strerror(e));
}

/* Give up: close, and remove the file if we created it. */
static void dest_abort(dest *d)
{
    if (d->fd >= 0) {
        close(d->fd);
        d->fd = -1;
        if (d->created)
            unlink(d->path);
    }
}

static int write_all(int fd, const char *buf, size_t n)
{
    while (n > 0) {
        ssize_t w = write(fd, buf, n);
        if (w < 0) {
            if (errno == EINTR)
                continue;
            return -1;
        }
        buf += w;
        n -= (size_t)w;
    }
    return 0;
}

/* Copy the finished image into the destination. */
static sg_status dest_finish(dest *d, const char *image, sg_error *err)
{
    char buf[65536];
    struct stat st;
    int in, e = 0;
    ssize_t r;

    in = open(image, O_RDONLY | O_CLOEXEC);
    if (in < 0) {
        e = errno;
        dest_abort(d);
        return sg_error_set(err, SG_E_IO, -1,
                            "cannot read gnuplot's image '%s': %s", image,
                            strerror(e));
    }
    if (fstat(d->fd, &st) == 0 && S_ISREG(st.st_mode) &&
        ftruncate(d->fd, 0) != 0)
        e = errno;
    while (!e && (r = read(in, buf, sizeof buf)) != 0) {
        if (r < 0) {
            if (errno != EINTR)
                e = errno;
            continue;
        }
        if (write_all(d->fd, buf, (size_t)r) != 0)
            e = errno;
    }
    close(in);
    if (close(d->fd) != 0 && !e)
        e = errno;
    d->fd = -1;
    if (e) {
        if (d->created)
            unlink(d->path);
        return sg_error_set(err, SG_E_IO, -1, "cannot write '%s': %s", d->path,
                            strerror(e));
    }
    return SG_OK;
}

/* ------------------------------------------------------------------ */
/* The temporary directory: script, data, image                         */
/* ------------------------------------------------------------------ */

typedef struct workdir {
    char *dir;
    char *script, *data, *image;
} workdir;

static char *path_join(const char *dir, const char *name)
{
    size_t n = strlen(dir) + strlen(name) + 2;
    char *p = malloc(n);

    if (p)
        snprintf(p, n, "%s/%s", dir, name);
    return p;
}

static sg_status workdir_make(workdir *w, const sg_plot_options *opt,
                              sg_plot_format fmt, sg_error *err)
{
    const char *base = opt && opt->tmpdir ? opt->tmpdir : getenv("TMPDIR");
    char image[16];
    size_t n;

    memset(w, 0, sizeof *w);
    if (!base || !*base)
        base = "/tmp";
    /* The names go into a gnuplot script, one string per line. */
    if (strpbrk(base, "\n\r"))
        return sg_error_set(err, SG_E_IO, -1,
                            "the temporary directory name contains a line "
                            "break (TMPDIR)");
    n = strlen(base) + sizeof "/sgexplore-plot-XXXXXX";
    w->dir = malloc(n);
    if (!w->dir)
        return sg_error_set(err, SG_E_NOMEM, -1, "out of memory");
    snprintf(w->dir, n, "%s/sgexplore-plot-XXXXXX", base);
    if (!mkdtemp(w->dir)) {
        int e = errno;
        free(w->dir);
        w->dir = NULL;
        return sg_error_set(err, SG_E_IO, -1,
                            "cannot create a temporary directory in '%s': %s",
                            base, strerror(e));
    }
    snprintf(image, sizeof image, "image.%s", format_suffix(fmt));
    w->script = path_join(w->dir, "script.gp");
    w->data = path_join(w->dir, "data.txt");
    w->image = path_join(w->dir, image);
    if (!w->script || !w->data || !w->image)
        return sg_error_set(err, SG_E_NOMEM, -1, "out of memory");
    return SG_OK;
}

/* Remove the directory and everything sgexplore put in it. */
static void workdir_remove(workdir *w)
{
    if (w->dir) {
        if (w->script)
            unlink(w->script);
        if (w->data)
            unlink(w->data);
        if (w->image)
            unlink(w->image);
        rmdir(w->dir);
    }
    free(w->script);
    free(w->data);
    free(w->image);
    free(w->dir);
    memset(w, 0, sizeof *w);
}

/* ------------------------------------------------------------------ */
/* Scripts                                                              */
/* ------------------------------------------------------------------ */

/* `name = 'text'` in gnuplot syntax: inside single quotes '' stands for
 * one quote; a line break, which a single-quoted string cannot hold, is
 * spliced in as "\n" (`'line 1' . "\n" . 'line 2'`); carriage returns
 * become spaces. */
static void put_var_str(FILE *f, const char *name, const char *text)
{
    fprintf(f, "%s = '", name);
    for (; *text; text++) {
        if (*text == '\'')
            fputs("''", f);
        else if (*text == '\n')
            fputs("' . \"\\n\" . '", f);
        else if (*text == '\r')
            fputc(' ', f);
        else
            fputc(*text, f);
    }
    fputs("'\n", f);
}

static void put_var_u64(FILE *f, const char *name, uint64_t v)
{
    fprintf(f, "%s = %llu\n", name, (ull)v);
}

static unsigned count_lines(const char *s)
{
    unsigned n = 0;

    for (; *s; s++)
        n += *s == '\n';
    return n;
}

/* Read a user's template file whole. */
static sg_status read_template(char **out, const char *path, sg_error *err)
{
    FILE *f = fopen(path, "r");
    size_t cap = 0, n = 0;
    char *buf = NULL;

    *out = NULL;
    if (!f)
        return sg_error_set(err, SG_E_IO, -1, "cannot read template '%s': %s",
                            path, strerror(errno));
    for (;;) {
        if (sg_grow(&buf, &cap, n + 4096, 1)) {
            free(buf);
            fclose(f);
            return sg_error_set(err, SG_E_NOMEM, -1, "out of memory");
        }
        n += fread(buf + n, 1, cap - n - 1, f);
        if (n + 1 < cap)
            break;
        if (cap >= ((size_t)1 << 24)) {
            free(buf);
            fclose(f);
            return sg_error_set(err, SG_E_INPUT, -1,
                                "template '%s' is too large", path);
        }
    }
    if (ferror(f)) {
        int e = errno;
        free(buf);
        fclose(f);
        return sg_error_set(err, SG_E_IO, -1, "cannot read template '%s': %s",
                            path, strerror(e));
    }
    fclose(f);
    buf[n] = '\0';
    *out = buf;
    return SG_OK;
}

/* A script being written: the variables (in memory, so that their lines
 * can be counted and gnuplot's line numbers mapped back to the template),
 * then the template. */
typedef struct script {
    FILE *vars;
    char *text;
    size_t len;
    unsigned preamble_lines;   /* lines before the template */
    const char *template_name; /* "plots/sequence.gp (built in)" or a path */
} script;

/* Start a script with the variables every template reads. */
static sg_status script_begin(script *sc, const workdir *w, sg_plot_format fmt,
                              int wide, const char *title, sg_error *err)
{
    memset(sc, 0, sizeof *sc);
    sc->vars = open_memstream(&sc->text, &sc->len);
    if (!sc->vars)
        return sg_error_set(err, SG_E_NOMEM, -1, "out of memory");
    fputs("# Variables filled in by sgexplore; the template follows.\n",
          sc->vars);
    put_var_str(sc->vars, "terminal", terminal_text(fmt, wide));
    put_var_str(sc->vars, "outfile", w->image);
    put_var_str(sc->vars, "datafile", w->data);
    put_var_str(sc->vars, "plottitle", title);
    return SG_OK;
}

/* Write the script file: the variables, then the template (the user's
 * file when opt names one, else the built-in text). */
static sg_status script_write(script *sc, const workdir *w, const char *builtin,
                              const char *builtin_name,
                              const sg_plot_options *opt, sg_error *err)
{
    char *user = NULL;
    FILE *f;
    sg_status st;

    /* The labels are UTF-8; and a template that forgets its terminal
     * still draws the requested type, never into an X window. */
    fputs("set encoding utf8\nset terminal @terminal\n"
          "# ---- template ----\n",
          sc->vars);
    if (fclose(sc->vars) != 0 || !sc->text) {
        sc->vars = NULL;
        return sg_error_set(err, SG_E_NOMEM, -1, "out of memory");
    }
    sc->vars = NULL;
    sc->preamble_lines = count_lines(sc->text);
    sc->template_name = builtin_name;
    if (opt && opt->template_file) {
        st = read_template(&user, opt->template_file, err);
        if (st)
            return st;
        sc->template_name = opt->template_file;
    }
    st = file_open(&f, w->script, err);
    if (!st) {
        fputs(sc->text, f);
        fputs(user ? user : builtin, f);
        st = file_close(f, w->script, err);
    }
    free(user);
    return st;
}

static void script_clear(script *sc)
{
    if (sc->vars)
        fclose(sc->vars);
    free(sc->text);
    memset(sc, 0, sizeof *sc);
}

/* ------------------------------------------------------------------ */
/* Running gnuplot                                                      */
/* ------------------------------------------------------------------ */

static const char *gnuplot_program(const sg_plot_options *opt)
{
    const char *e;

    if (opt && opt->gnuplot && *opt->gnuplot)
        return opt->gnuplot;
    e = getenv("SGEXPLORE_GNUPLOT");
    if (e && *e)
        return e;
    return "gnuplot";
}

/* A pipe whose ends are close-on-exec and above the standard streams
 * (so that dup2 onto 0-2 in the child never clobbers them). */
static int pipe_cloexec(int fd[2])
{
    int i;

    if (pipe(fd) != 0)
        return -1;
    for (i = 0; i < 2; i++) {
        int nfd = fcntl(fd[i], F_DUPFD_CLOEXEC, 3);
        if (nfd < 0) {
            int e = errno;
            close(fd[0]);
            close(fd[1]);
            errno = e;
            return -1;
        }
        close(fd[i]);
        fd[i] = nfd;
    }
    return 0;
}

static int has_text(const char *p, size_t len, const char *word)
{
    size_t wl = strlen(word), i;

    for (i = 0; i + wl <= len; i++)
        if (memcmp(p + i, word, wl) == 0)
            return 1;
    return 0;
}

/*
 * gnuplot's stderr as one line for sg_error: blank lines, the caret lines
 * pointing into the echoed command and (when there is an error) warnings
 * are dropped, the rest is joined with "; ", and `"SCRIPT" line N:` becomes
 * the line of the template the user knows.  Keeps the end when too long.
 */
static void summarise_stderr(char *out, size_t outsz, const char *text,
                             const char *path, const script *sc)
{
    size_t pl = strlen(path), tl = strlen(sc->template_name);
    char *buf = malloc(strlen(text) + (tl + 64) * (count_lines(text) + 1) + 1);
    const char *line = text;
    size_t n = 0;
    int any_error = strstr(text, "\" line ") != NULL;

    out[0] = '\0';
    if (!buf)
        return;
    buf[0] = '\0';
    while (*line) {
        const char *end = strchr(line, '\n'), *p = line, *q;
        size_t len;

        if (!end)
            end = line + strlen(line);
        while (p < end && (*p == ' ' || *p == '\t'))
            p++;
        q = end;
        while (q > p && (q[-1] == ' ' || q[-1] == '\t' || q[-1] == '\r'))
            q--;
        len = (size_t)(q - p);
        line = *end ? end + 1 : end;
        if (len == 0 || (len == 1 && *p == '^') ||
            (any_error && has_text(p, len, "warning:")))
            continue;
        if (n) {
            memcpy(buf + n, "; ", 2);
            n += 2;
        }
        if (len > pl + 8 && p[0] == '"' && memcmp(p + 1, path, pl) == 0 &&
            memcmp(p + 1 + pl, "\" line ", 7) == 0) {
            unsigned long ln = strtoul(p + pl + 8, NULL, 10);
            const char *colon = memchr(p, ':', len);
            if (ln > sc->preamble_lines)
                n += (size_t)sprintf(buf + n, "%s line %lu", sc->template_name,
                                     ln - sc->preamble_lines);
            else
                n += (size_t)sprintf(buf + n,
                                     "line %lu of the variables sgexplore "
                                     "wrote",
                                     ln);
            if (colon) {
                len -= (size_t)(colon - p);
                p = colon;
            } else {
                len = 0;
            }
        }
        memcpy(buf + n, p, len);
        n += len;
        buf[n] = '\0';
    }
    if (n + 1 > outsz)
        snprintf(out, outsz, "...%s", buf + n - (outsz - 4));
    else
        memcpy(out, buf, n + 1);
    free(buf);
}

/* Run `gnuplot SCRIPT` with stdin and stdout on /dev/null (so that no
 * image can ever reach our stdout) and stderr captured; then check that
 * it left a non-empty image. */
static sg_status run_gnuplot(const workdir *w, const script *sc,
                             const sg_plot_options *opt, sg_error *err)
{
    const char *prog = gnuplot_program(opt);
    char *argv[3];
    char *text, msg[400];
    int errpipe[2], outpipe[2], exec_errno = 0, status = 0;
    size_t kept = 0;
    pid_t pid;
    ssize_t r;
    struct stat st;

    argv[0] = (char *)(uintptr_t)prog; /* execv does not write it */
    argv[1] = w->script;
    argv[2] = NULL;
    text = malloc(STDERR_KEEP + 1);
    if (!text)
        return sg_error_set(err, SG_E_NOMEM, -1, "out of memory");
    if (pipe_cloexec(errpipe) != 0) {
        free(text);
        return sg_error_set(err, SG_E_IO, -1, "cannot run gnuplot: %s",
                            strerror(errno));
    }
    if (pipe_cloexec(outpipe) != 0) {
        int e = errno;
        close(errpipe[0]);
        close(errpipe[1]);
        free(text);
        return sg_error_set(err, SG_E_IO, -1, "cannot run gnuplot: %s",
                            strerror(e));
    }
    pid = fork();
    if (pid < 0) {
        int e = errno;
        close(errpipe[0]);
        close(errpipe[1]);
        close(outpipe[0]);
        close(outpipe[1]);
        free(text);
        return sg_error_set(err, SG_E_IO, -1, "cannot run gnuplot: %s",
                            strerror(e));
    }
    if (pid == 0) {
        /* The child: only async-signal-safe calls until exec.  A failed
         * exec sends its errno through errpipe, which closes silently
         * on a successful one. */
        int e, null = open("/dev/null", O_RDWR);
        if (null < 0 || dup2(null, 0) < 0 || dup2(null, 1) < 0 ||
            dup2(outpipe[1], 2) < 0) {
            e = errno;
        } else {
            if (null > 2)
                close(null);
            execvp(prog, argv);
            e = errno;
        }
        if (write(errpipe[1], &e, sizeof e) < 0)
            _exit(126);
        _exit(127);
    }
    close(errpipe[1]);
    close(outpipe[1]);
    do
        r = read(errpipe[0], &exec_errno, sizeof exec_errno);
    while (r < 0 && errno == EINTR);
    close(errpipe[0]);
    if (r != (ssize_t)sizeof exec_errno)
        exec_errno = 0;
    for (;;) {
        char chunk[4096];
        r = read(outpipe[0], chunk, sizeof chunk);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            break;
        if (kept < STDERR_KEEP) {
            size_t take = (size_t)r;
            if (take > STDERR_KEEP - kept)
                take = STDERR_KEEP - kept;
            memcpy(text + kept, chunk, take);
            kept += take;
        }
    }
    close(outpipe[0]);
    text[kept] = '\0';
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    if (exec_errno) {
        free(text);
        return sg_error_set(err, SG_E_IO, -1,
                            "cannot run gnuplot ('%s': %s); install it "
                            "(Debian/Ubuntu package gnuplot-nox) or set "
                            "SGEXPLORE_GNUPLOT to its path",
                            prog, strerror(exec_errno));
    }
    summarise_stderr(msg, sizeof msg, text, w->script, sc);
    free(text);
    if (WIFSIGNALED(status))
        return sg_error_set(err, SG_E_IO, -1,
                            "gnuplot was stopped by signal %d%s%s",
                            WTERMSIG(status), *msg ? ": " : "", msg);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
        return sg_error_set(err, SG_E_IO, -1, "gnuplot failed: %s",
                            *msg ? msg : "(no message)");
    if (stat(w->image, &st) != 0 || st.st_size == 0)
        return sg_error_set(err, SG_E_IO, -1,
                            "gnuplot wrote no image%s%s (does the template "
                            "set output to outfile?)",
                            *msg ? ": " : "", msg);
    return SG_OK;
}

/* Write the script, run gnuplot, and copy its image to the destination;
 * always removes the temporary directory, and the destination too when
 * it was created here and something failed. */
static sg_status draw(script *sc, workdir *w, dest *d, const char *builtin,
                      const char *builtin_name, const sg_plot_options *opt,
                      sg_error *err)
{
    sg_status st = script_write(sc, w, builtin, builtin_name, opt, err);

    if (!st)
        st = run_gnuplot(w, sc, opt, err);
    if (!st)
        st = dest_finish(d, w->image, err);
    else
        dest_abort(d);
    script_clear(sc);
    workdir_remove(w);
    return st;
}

/* ------------------------------------------------------------------ */
/* Built-in templates                                                   */
/* ------------------------------------------------------------------ */

/* Copies of plots/sequence.gp and plots/results.gp, so that the program
 * needs no data files at run time; tests/test_plot.c checks that they
 * match the files.  After editing a file, regenerate its string with
 *   sed 's/\\/\\\\/g; s/"/\\"/g; s/^/    "/; s/$/\\n"/' plots/NAME.gp
 * and add the final semicolon. */

/* clang-format off */
static const char template_sequence[] =
    "# plots/sequence.gp - gnuplot template of sgexplore's figure of one rule:\n"
    "# G(n) against n as points, the pre-period shaded, the period boundaries\n"
    "# marked, and the positions holding rare values drawn as red rings.\n"
    "#\n"
    "# `sgexplore plot RULE -o FILE` (and `sgexplore RULE --plot FILE`) write the\n"
    "# variables below, then this script, into one temporary file and run gnuplot\n"
    "# on it.  To change the figure, copy this file, edit the copy and pass it\n"
    "# with `--template COPY`; sgexplore still fills in the variables.  To run a\n"
    "# copy by hand, define them first:\n"
    "#   gnuplot -e \"terminal='pngcairo'; outfile='g.png'; datafile='g.dat'; ...\" COPY\n"
    "#\n"
    "# gnuplot computes in doubles, exact for integers below 2^53 only, so far\n"
    "# from 0 (n = 10^18) positions are written as offsets from a round base\n"
    "# (xlabel then reads \"n - 10^18 (heap size n)\"), and so are the values of an\n"
    "# arithmetic-periodic rule that are that large; every number below is such\n"
    "# an offset.  Near 0 the base is 0 and the offsets are n and G(n) themselves.\n"
    "#\n"
    "# Variables:\n"
    "#   terminal    gnuplot terminal with its options (\"pngcairo size 960,540\n"
    "#               noenhanced\"); the type follows the output file's extension\n"
    "#   outfile     the image to write\n"
    "#   datafile    one row per position, or per bucket of `step` positions:\n"
    "#               n (first position of the row), largest G, smallest G,\n"
    "#               largest rare G (\"-\" when the row holds no rare value)\n"
    "#   plottitle   the rule and its result, one to three lines (long rule\n"
    "#               names are wrapped after commas, or shortened in the middle)\n"
    "#   xmin, xmax  the first and last position drawn\n"
    "#   xtic        interval between x ticks, a whole number\n"
    "#   xdigits     digits of the longest x tick label\n"
    "#   xlabel      the x axis label: \"n (heap size)\", or names the base\n"
    "#   ymin, ymax  the least and largest value drawn (ymin is 0 unless offset)\n"
    "#   ytic        interval between y ticks, a whole number\n"
    "#   ylabel      the y axis label: \"G(n)\", or names the base\n"
    "#   step        positions per row of datafile (1: every value is a row)\n"
    "#   n0, p       end of the shaded pre-period (n0 <= xmin: none) and period\n"
    "#               (p = 0: no period proven)\n"
    "#   bfirst      the first period boundary drawn (a multiple of p after n0)\n"
    "#   nbound      how many boundaries to mark (0: none, too many to draw)\n"
    "#   raremask    0 when the values have no rare class; else heap n of value G\n"
    "#               is rare when popcount(G & raremask) + rareparity * ((n +\n"
    "#               rareshift) mod 2) is even: the value bits alone, or, when\n"
    "#               the report's sparse space is one over the heap's parity\n"
    "#               (rareparity 1), those and n's parity, offset by rareshift\n"
    "#   rareparity  1 when the heap's parity is part of the rare class, else 0\n"
    "#   rareshift   0 or 1: the offset of n's parity (with rareparity 1)\n"
    "#   vallabel, prelabel, boundlabel, rarelabel\n"
    "#               legend texts for the values, the pre-period, the period\n"
    "#               boundaries and the rare values\n"
    "\n"
    "set encoding utf8\n"
    "set terminal @terminal\n"
    "set output outfile\n"
    "\n"
    "set title plottitle noenhanced\n"
    "set xlabel xlabel noenhanced\n"
    "set ylabel ylabel noenhanced\n"
    "set xrange [xmin - 0.5 : xmax + 0.5]\n"
    "set yrange [ymin - 0.5 : ymax + 0.5]\n"
    "# Whole-number ticks, printed in full (never 1e+18).\n"
    "set xtics nomirror\n"
    "set ytics nomirror\n"
    "set xtics xtic\n"
    "set ytics ytic\n"
    "set format x '%.0f'\n"
    "set format y '%.0f'\n"
    "set border 3\n"
    "# Room on the right for half of the last x tick label.\n"
    "if (xdigits > 4) {\n"
    "    set rmargin xdigits / 2 + 2\n"
    "}\n"
    "set key outside bottom center horizontal noenhanced\n"
    "set datafile missing '-'\n"
    "set grid ytics lc rgb '#e4e4e4' lt 1\n"
    "\n"
    "prefill = '#dce6f2'\n"
    "boundcolour = '#c0392b'\n"
    "dotcolour = '#1f4e99'\n"
    "lowcolour = '#8fb0dd'\n"
    "rarecolour = '#e31a1c'\n"
    "\n"
    "# The pre-period: positions xmin .. n0-1.\n"
    "if (p > 0 && n0 > xmin) {\n"
    "    set object 1 rect from xmin - 0.5, graph 0 \\\n"
    "        to (n0 < xmax ? n0 : xmax + 1) - 0.5, graph 1 \\\n"
    "        behind fillcolor rgb prefill fillstyle solid 1.0 noborder\n"
    "}\n"
    "\n"
    "# Period boundaries: before positions n0, n0 + p, n0 + 2p, ...\n"
    "do for [k = 0 : nbound - 1] {\n"
    "    x = bfirst + k * p - 0.5\n"
    "    set arrow from x, graph 0 to x, graph 1 nohead \\\n"
    "        lc rgb boundcolour dashtype 2 lw 1\n"
    "}\n"
    "\n"
    "# A series that does not apply draws nothing and gets no key entry (an\n"
    "# empty title).\n"
    "plot datafile using 1:2 with points pt 7 ps 0.5 lc rgb dotcolour \\\n"
    "         title vallabel, \\\n"
    "     datafile using 1:(step > 1 ? $3 : NaN) with points pt 7 ps 0.3 \\\n"
    "         lc rgb lowcolour \\\n"
    "         title (step > 1 ? 'smallest G(n) per bucket' : ''), \\\n"
    "     datafile using 1:(raremask > 0 ? $4 : NaN) with points pt 6 ps 1.1 \\\n"
    "         lw 1.5 lc rgb rarecolour title (raremask > 0 ? rarelabel : ''), \\\n"
    "     keyentry with boxes fillstyle solid 1.0 fillcolor rgb prefill \\\n"
    "         title (p > 0 && n0 > xmin ? prelabel : ''), \\\n"
    "     keyentry with lines dashtype 2 lc rgb boundcolour \\\n"
    "         title (nbound > 0 ? boundlabel : '')\n";

static const char template_results[] =
    "# plots/results.gp - gnuplot template of sgexplore's figure of many results\n"
    "# (the rules in the cache, or the rules of a sweep): on the left, the\n"
    "# pre-period and period of every rule with a proven period, on log scales;\n"
    "# on the right, how many rules have each period.\n"
    "#\n"
    "# `sgexplore plot --cache -o FILE` writes the variables below, then this\n"
    "# script, into one temporary file and runs gnuplot on it.  To change the\n"
    "# figure, copy this file, edit the copy and pass it with `--template COPY`;\n"
    "# sgexplore still fills in the variables.  To run a copy by hand, define\n"
    "# them first:\n"
    "#   gnuplot -e \"terminal='pngcairo'; outfile='r.png'; datafile='r.dat'; ...\" COPY\n"
    "#\n"
    "# Variables:\n"
    "#   terminal    gnuplot terminal with its options (\"pngcairo size 1200,540\n"
    "#               noenhanced\"); the type follows the output file's extension\n"
    "#   outfile     the image to write\n"
    "#   datafile    four blocks, separated by two blank lines (gnuplot's\n"
    "#               `index` 0 to 3):\n"
    "#                 0: periodic rules: x, period, rules at this point\n"
    "#                 1: arithmetic-periodic rules: x, period, rules at this point\n"
    "#                 2: period, rules with this period (both kinds)\n"
    "#                 3: the rules with the longest period and the longest\n"
    "#                    pre-period: x, period, rule (quoted; a name longer than\n"
    "#                    20 bytes keeps its start and end around an ellipsis)\n"
    "#               x is the pre-period, except that a pre-period of 0 is\n"
    "#               written as 0.5 so that a log scale can show it; an empty\n"
    "#               block holds one row of NaN (block 3: a row outside the\n"
    "#               drawn range, as gnuplot 5.4 crashes on labels at NaN)\n"
    "#   plottitle   what the rules are and how many of each status, one to\n"
    "#               three lines (a long cache name is shortened in the middle)\n"
    "#   xmax        largest pre-period (at least 1)\n"
    "#   ymax        largest period (at least 1)\n"
    "#   cmax        most rules at one point of the left panel (at least 2)\n"
    "#   hmax        most rules with one period (at least 1)\n"
    "#   htic        interval between ticks of the rules axis, a whole number\n"
    "#   nperiodic   number of periodic rules\n"
    "#   narith      number of arithmetic-periodic rules\n"
    "\n"
    "set encoding utf8\n"
    "set terminal @terminal\n"
    "set output outfile\n"
    "\n"
    "# Ticks of a log axis from 1 to `top`: whole numbers up to 1000, then 10^k\n"
    "# (gnuplot's own would read 1e+06); on a narrow panel with more than\n"
    "# `most` decades, every other one is labelled.\n"
    "logtics(top) = floor(log10(top) + 1e-9)\n"
    "ticlabel(k, top, most) = (logtics(top) > most && k % 2) ? '' : \\\n"
    "    k < 4 ? sprintf('%d', int(10**k)) : sprintf('10^%d', k)\n"
    "\n"
    "set multiplot layout 1, 2 title plottitle noenhanced\n"
    "\n"
    "# Left: pre-period against period, one point per distinct pair, coloured\n"
    "# by how many rules share it; the extreme rules are named, the name running\n"
    "# from its point towards the middle so that it stays inside the panel.\n"
    "leftside(x) = log(x) < (log(0.4) + log(xmax * 2)) / 2\n"
    "set title 'pre-period and period of each rule' noenhanced\n"
    "set logscale xy\n"
    "set xrange [0.4 : xmax * 2]\n"
    "# Room above the highest point for its name.\n"
    "set yrange [0.7 : ymax * 4]\n"
    "set xtics ()\n"
    "set ytics ()\n"
    "do for [k = 0 : logtics(xmax * 2)] {\n"
    "    set xtics add (ticlabel(k, xmax * 2, 5) 10.0**k)\n"
    "}\n"
    "do for [k = 0 : logtics(ymax * 4)] {\n"
    "    set ytics add (ticlabel(k, ymax * 4, 99) 10.0**k)\n"
    "}\n"
    "set xtics add ('0' 0.5)\n"
    "set xlabel 'pre-period n0' noenhanced\n"
    "set ylabel 'period p' noenhanced\n"
    "set logscale cb\n"
    "set cbrange [1 : cmax]\n"
    "set cbtics 2\n"
    "set cblabel 'rules' noenhanced\n"
    "set palette defined (0 '#9ecae1', 1 '#2171b5', 2 '#08306b')\n"
    "set key outside bottom center horizontal noenhanced\n"
    "set grid lc rgb '#e4e4e4' lt 1\n"
    "\n"
    "plot datafile index 0 using 1:2:3 with points pt 7 ps 1.0 lc palette \\\n"
    "         title (nperiodic > 0 ? 'periodic' : ''), \\\n"
    "     datafile index 1 using 1:2:3 with points pt 9 ps 1.4 lc palette \\\n"
    "         title (narith > 0 ? 'arithmetic-periodic' : ''), \\\n"
    "     datafile index 3 using 1:2:(leftside($1) ? stringcolumn(3) : '') \\\n"
    "         with labels left offset char -0.5, char 1 noenhanced notitle, \\\n"
    "     datafile index 3 using 1:2:(leftside($1) ? '' : stringcolumn(3)) \\\n"
    "         with labels right offset char 0.5, char 1 noenhanced notitle\n"
    "\n"
    "# Right: how often each period occurs.\n"
    "set title 'how often each period occurs' noenhanced\n"
    "unset logscale\n"
    "unset colorbox\n"
    "set logscale x\n"
    "set xrange [0.7 : ymax * 2]\n"
    "set yrange [0 : hmax * 1.1 + 1]\n"
    "set xtics ()\n"
    "do for [k = 0 : logtics(ymax * 2)] {\n"
    "    set xtics add (ticlabel(k, ymax * 2, 8) 10.0**k)\n"
    "}\n"
    "set ytics htic\n"
    "set format y '%.0f'\n"
    "set xlabel 'period p' noenhanced\n"
    "set ylabel 'rules' noenhanced\n"
    "set key off\n"
    "\n"
    "plot datafile index 2 using 1:2 with impulses lw 3 lc rgb '#2171b5'\n"
    "\n"
    "unset multiplot\n";
/* clang-format on */

const char *sg_plot_template(const char *name)
{
    if (strcmp(name, "sequence") == 0)
        return template_sequence;
    if (strcmp(name, "results") == 0)
        return template_results;
    return NULL;
}

/* ------------------------------------------------------------------ */
/* The figures                                                          */
/* ------------------------------------------------------------------ */

static sg_status check_format(sg_plot_format *fmt, const char *path,
                              sg_error *err)
{
    *fmt = sg_plot_format_of(path);
    if (*fmt == SG_PLOT_UNKNOWN)
        return sg_error_set(err, SG_E_INPUT, -1,
                            "'%s': the image type follows the file name's "
                            "extension, which must be .png, .svg or .pdf",
                            path);
    return SG_OK;
}

/* The name of a theorem without its parenthesised explanation. */
static void theorem_short(char *out, size_t outsz, const char *theorem)
{
    const char *paren;
    size_t n;

    if (!theorem) {
        snprintf(out, outsz, "a stated theorem");
        return;
    }
    paren = strstr(theorem, " (");
    n = paren ? (size_t)(paren - theorem) : strlen(theorem);
    if (n >= outsz)
        n = outsz - 1;
    memcpy(out, theorem, n);
    out[n] = '\0';
}

/* The title of a rule's figure: its canonical text and its result,
 * wrapped or shortened to fit (see fit_title). */
static sg_status sequence_title(char *out, size_t outsz, const sg_rule *r,
                                const sg_result *res, const sg_seq *s,
                                sg_error *err)
{
    char *canon = sg_rule_canonical(r);
    char thm[200], rest[400];

    if (!canon)
        return sg_error_set(err, SG_E_NOMEM, -1, "out of memory");
    theorem_short(thm, sizeof thm, res ? res->theorem : NULL);
    if (res && res->status == SG_PERIODIC)
        snprintf(rest, sizeof rest,
                 ": period %llu after pre-period %llu, proven by the %s",
                 (ull)res->period, (ull)res->preperiod, thm);
    else if (res && res->status == SG_ARITH_PERIODIC)
        snprintf(rest, sizeof rest,
                 ": arithmetic-periodic, period %llu and saltus %llu "
                 "after pre-period %llu, proven by the %s",
                 (ull)res->period, (ull)res->saltus, (ull)res->preperiod, thm);
    else
        snprintf(rest, sizeof rest,
                 ": unresolved up to n = %llu (no period proven)",
                 (ull)(s->n ? s->n - 1 : 0));
    fit_title(out, outsz, canon, rest, title_width(0));
    free(canon);
    return SG_OK;
}

/* Most ticks on an axis about `room` thousandths of an em long whose
 * labels have up to `d` digits (0.636 em each, and 2 em between labels),
 * at most 11. */
static uint64_t max_ticks(unsigned long room, unsigned d)
{
    uint64_t k = room / (636UL * d + 2000);

    return k < 2 ? 2 : k > 11 ? 11 : k;
}

/* The label of an axis drawn with an offset, "n - 10^18 (heap size n)"
 * with a true minus sign, or `plain` when there is no offset. */
static void offset_label(char *out, size_t outsz, const char *what,
                         uint64_t base, const char *plain, const char *suffix)
{
    char b[64];

    if (!base) {
        snprintf(out, outsz, "%s", plain);
        return;
    }
    base_text(b, sizeof b, base);
    snprintf(out, outsz, "%s " MINUS " %s%s", what, b, suffix);
}

/* Width of the plot area of the figure of one rule, in thousandths of an
 * em (960 pixels less the margins). */
#define PLOT_ROOM 52000UL

sg_status sg_plot_sequence(const char *path, const sg_rule *r,
                           const sg_result *res, const sg_seq *s, uint64_t from,
                           uint64_t to, const sg_plot_options *opt,
                           sg_error *err)
{
    sg_plot_format fmt;
    sg_plot_rare rare;
    sg_plot_data data;
    script sc;
    workdir w;
    dest d;
    cursor c;
    char title[1024], label[200];
    uint64_t n0 = 0, p = 0, bfirst = 0, nbound = 0, xb, ymin, ymax;
    sg_status st;

    st = check_format(&fmt, path, err);
    if (!st)
        st = cursor_init(&c, s, res, from, to, err);
    if (!st)
        st = sequence_title(title, sizeof title, r, res, s, err);
    if (!st)
        st = dest_open(&d, path, err);
    if (st)
        return st;
    st = workdir_make(&w, opt, fmt, err);
    if (!st)
        st = sg_plot_find_rare(&rare, s, r, res, from, to, err);
    if (!st)
        st = sg_plot_write_sequence(w.data, &data, s, res, from, to,
                                    opt ? opt->max_rows : 0, &rare, err);
    if (!st)
        st = script_begin(&sc, &w, fmt, 0, title, err);
    if (st) {
        dest_abort(&d);
        workdir_remove(&w);
        return st;
    }

    /* Every position on the x axis is written as an offset from xb. */
    xb = data.xbase;
    if (res && res->status != SG_UNRESOLVED && res->period > 0) {
        uint64_t k;
        n0 = res->preperiod;
        p = res->period;
        k = n0 >= from ? 0 : (from - n0 - 1) / p + 1;
        if (k > (UINT64_MAX - n0) / p) {
            bfirst = UINT64_MAX; /* past any range */
        } else {
            bfirst = n0 + k * p;
        }
        nbound = bfirst <= to ? (to - bfirst) / p + 1 : 0;
        snprintf(label, sizeof label, "period boundaries (p = %llu)", (ull)p);
        if (nbound > MAX_BOUNDARIES) {
            /* Too dense to draw each: mark where the period starts. */
            nbound = n0 >= from && n0 <= to;
            bfirst = n0;
            snprintf(label, sizeof label,
                     "start of the period (p = %llu, too short to mark "
                     "each)",
                     (ull)p);
        }
    } else {
        snprintf(label, sizeof label, "period boundaries");
    }
    if (!nbound || bfirst < xb)
        bfirst = from;
    put_var_u64(sc.vars, "xmin", from - xb);
    put_var_u64(sc.vars, "xmax", to - xb);
    put_var_u64(
        sc.vars, "xtic",
        tick_step(from - xb, to - xb, max_ticks(PLOT_ROOM, digits(to - xb))));
    put_var_u64(sc.vars, "xdigits", digits(to - xb));
    put_var_u64(sc.vars, "step", data.step);
    /* The shading runs to n0; n0 <= xmin means none. */
    put_var_u64(sc.vars, "n0", p > 0 && n0 > from ? n0 - xb : from - xb);
    put_var_u64(sc.vars, "p", p);
    put_var_u64(sc.vars, "bfirst", bfirst - xb);
    put_var_u64(sc.vars, "nbound", nbound);
    put_var_str(sc.vars, "boundlabel", label);
    put_var_u64(sc.vars, "raremask", rare.mask);
    put_var_u64(sc.vars, "rareparity", (uint64_t)rare.parity);
    put_var_u64(sc.vars, "rareshift", (uint64_t)rare.parity_shift);
    if (!rare.parity)
        snprintf(label, sizeof label,
                 "rare values: popcount(G & %llu) even (%llu)", (ull)rare.mask,
                 (ull)rare.count);
    else
        snprintf(label, sizeof label,
                 "rare values: popcount(G & %llu) + %s mod 2 even (%llu)",
                 (ull)rare.mask, rare.parity_shift ? "(n + 1)" : "n",
                 (ull)rare.count);
    put_var_str(sc.vars, "rarelabel", label);
    snprintf(label, sizeof label, "pre-period (n < %llu)", (ull)n0);
    put_var_str(sc.vars, "prelabel", label);
    if (data.step > 1)
        snprintf(label, sizeof label, "largest G(n) per %llu positions",
                 (ull)data.step);
    else
        snprintf(label, sizeof label, "G(n)");
    put_var_str(sc.vars, "vallabel", label);
    offset_label(label, sizeof label, "n", xb, "n (heap size)",
                 " (heap size n)");
    put_var_str(sc.vars, "xlabel", label);

    /* G(n) from 0, or from its least value when offset. */
    ymin = data.ybase ? data.vmin - data.ybase : 0;
    ymax = data.vmax - data.ybase;
    if (ymax == 0)
        ymax = 1;
    put_var_u64(sc.vars, "ymin", ymin);
    put_var_u64(sc.vars, "ymax", ymax);
    put_var_u64(sc.vars, "ytic", tick_step(ymin, ymax, 11));
    offset_label(label, sizeof label, "G(n)", data.ybase, "G(n)", "");
    put_var_str(sc.vars, "ylabel", label);
    return draw(&sc, &w, &d, template_sequence, "plots/sequence.gp (built in)",
                opt, err);
}

sg_status sg_plot_results(const char *path, const char *title,
                          const sg_plot_result *items, size_t n,
                          const sg_plot_options *opt, sg_error *err)
{
    sg_plot_format fmt;
    sg_plot_summary sum;
    script sc;
    workdir w;
    dest d;
    char full[1024];
    sg_status st;

    st = check_format(&fmt, path, err);
    if (!st)
        st = dest_open(&d, path, err);
    if (st)
        return st;
    st = workdir_make(&w, opt, fmt, err);
    if (!st)
        st = sg_plot_write_results(w.data, &sum, items, n, err);
    if (!st) {
        char rest[200];
        snprintf(rest, sizeof rest,
                 " (%llu): %llu periodic, %llu arithmetic-periodic, %llu "
                 "unresolved (not drawn)",
                 (ull)n, (ull)sum.periodic, (ull)sum.arith,
                 (ull)sum.unresolved);
        fit_title(full, sizeof full, title ? title : "results", rest,
                  title_width(1));
        st = script_begin(&sc, &w, fmt, 1, full, err);
    }
    if (st) {
        dest_abort(&d);
        workdir_remove(&w);
        return st;
    }
    put_var_u64(sc.vars, "xmax",
                sum.max_preperiod > 10 ? sum.max_preperiod : 10);
    put_var_u64(sc.vars, "ymax", sum.max_period > 10 ? sum.max_period : 10);
    put_var_u64(sc.vars, "cmax", sum.max_point > 2 ? sum.max_point : 2);
    put_var_u64(sc.vars, "hmax", sum.max_count > 1 ? sum.max_count : 1);
    /* Whole rules only: no tick at 0.5. */
    put_var_u64(sc.vars, "htic",
                tick_step(0, sum.max_count > 1 ? sum.max_count : 1, 9));
    put_var_u64(sc.vars, "nperiodic", sum.periodic);
    put_var_u64(sc.vars, "narith", sum.arith);
    return draw(&sc, &w, &d, template_results, "plots/results.gp (built in)",
                opt, err);
}
