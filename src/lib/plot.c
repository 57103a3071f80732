/*
 * plot.c - figures drawn by gnuplot, which runs as a separate program found
 * at run time: the data files it reads (long ranges thinned to the largest
 * and smallest value per bucket, so that 10^8 values stay quick), the
 * search for rare values, the scripts made of the templates in plots/ and
 * the variables they read, and running gnuplot so that it can never write
 * to our stdout.  Like all of libsg this file never prints: gnuplot's own
 * error text comes back in sg_error.
 */
#define _DEFAULT_SOURCE
#include "sgexplore.h"

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

/*
 * With h the histogram of the values (low RARE_BITS bits), the number of
 * positions whose value has even weight under mask m is (N + W(m)) / 2,
 * where W(m) = sum_v h(v) (-1)^popcount(v & m) is the Walsh-Hadamard
 * transform of h.  One transform gives every mask at once.
 */
sg_status sg_plot_find_rare(sg_plot_rare *out, const sg_seq *s,
                            const sg_result *res, uint64_t from, uint64_t to,
                            sg_error *err)
{
    cursor c;
    int64_t *w;
    uint64_t total, i, bits = 0, best = 0, bestm = 0;
    size_t size, len, j, k, m;
    unsigned nbits = 1;
    sg_status st;

    memset(out, 0, sizeof *out);
    st = cursor_init(&c, s, res, from, to, err);
    if (st)
        return st;
    total = to - from + 1;
    w = calloc((size_t)1 << RARE_BITS, sizeof *w);
    if (!w)
        return sg_error_set(err, SG_E_NOMEM, -1, "out of memory");
    for (i = 0; i < total; i++) {
        uint64_t v = cursor_next(&c);
        bits |= v;
        w[v & (((uint64_t)1 << RARE_BITS) - 1)]++;
    }
    /* Transform only as many bits as the values use. */
    while (nbits < RARE_BITS && (bits >> nbits) != 0)
        nbits++;
    size = (size_t)1 << nbits;
    for (len = 1; len < size; len <<= 1)
        for (j = 0; j < size; j += 2 * len)
            for (k = j; k < j + len; k++) {
                int64_t a = w[k], b = w[k + len];
                w[k] = a + b;
                w[k + len] = a - b;
            }
    for (m = 1; m < size; m++) {
        uint64_t even = (uint64_t)(((int64_t)total + w[m]) / 2);
        if (even > 0 && (best == 0 || even < best)) {
            best = even;
            bestm = m;
        }
    }
    free(w);
    out->total = total;
    if (total >= RARE_MIN_TOTAL && best > 0 && best <= total / RARE_SHARE) {
        out->mask = bestm;
        out->count = best;
    }
    return SG_OK;
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

sg_status sg_plot_write_sequence(const char *path, sg_plot_data *out,
                                 const sg_seq *s, const sg_result *res,
                                 uint64_t from, uint64_t to, size_t max_rows,
                                 uint64_t rare_mask, sg_error *err)
{
    cursor c;
    FILE *f;
    uint64_t total, step, left;
    sg_status st;

    memset(out, 0, sizeof *out);
    st = cursor_init(&c, s, res, from, to, err);
    if (st)
        return st;
    if (max_rows == 0)
        max_rows = SG_PLOT_MAX_ROWS;
    total = to - from + 1;
    step = total <= max_rows ? 1 : (total - 1) / max_rows + 1;
    st = file_open(&f, path, err);
    if (st)
        return st;
    fprintf(f,
            "# sgexplore: G(n) for n = %llu..%llu, %llu position%s per row\n"
            "# n (first of the row), largest G, smallest G, largest rare G "
            "(- when none; rare: even popcount of G & %llu)\n",
            (ull)from, (ull)to, (ull)step, step == 1 ? "" : "s",
            (ull)rare_mask);
    out->step = step;
    for (left = total; left > 0;) {
        uint64_t start = c.n, k, mx = 0, mn = UINT64_MAX, rare = 0;
        uint64_t len = left < step ? left : step;
        int have_rare = 0;

        for (k = 0; k < len; k++) {
            uint64_t v = cursor_next(&c);
            if (v > mx)
                mx = v;
            if (v < mn)
                mn = v;
            if (rare_mask && even_weight(v & rare_mask) &&
                (!have_rare || v > rare)) {
                rare = v;
                have_rare = 1;
            }
        }
        if (have_rare)
            fprintf(f, "%llu %llu %llu %llu\n", (ull)start, (ull)mx, (ull)mn,
                    (ull)rare);
        else
            fprintf(f, "%llu %llu %llu -\n", (ull)start, (ull)mx, (ull)mn);
        if (mx > out->vmax)
            out->vmax = mx;
        out->rows++;
        left -= len;
    }
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

/* A rule's name as a double-quoted data column (quotes and line breaks,
 * which canonical texts never hold, are dropped). */
static void put_label(FILE *f, const char *s)
{
    fputc('"', f);
    for (; s && *s; s++)
        if (*s != '"' && *s != '\n' && *s != '\r')
            fputc(*s, f);
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
 * one quote; line breaks (which cannot occur inside a string) become
 * spaces. */
static void put_var_str(FILE *f, const char *name, const char *text)
{
    fprintf(f, "%s = '", name);
    for (; *text; text++) {
        if (*text == '\'')
            fputs("''", f);
        else if (*text == '\n' || *text == '\r')
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
    size_t cap = 4096, n = 0;
    char *buf;

    *out = NULL;
    if (!f)
        return sg_error_set(err, SG_E_IO, -1, "cannot read template '%s': %s",
                            path, strerror(errno));
    buf = malloc(cap);
    while (buf) {
        n += fread(buf + n, 1, cap - n - 1, f);
        if (n + 1 < cap)
            break;
        if (cap >= ((size_t)1 << 24)) {
            free(buf);
            fclose(f);
            return sg_error_set(err, SG_E_INPUT, -1,
                                "template '%s' is too large", path);
        }
        {
            char *nb = realloc(buf, cap * 2);
            if (!nb)
                free(buf);
            buf = nb;
            cap *= 2;
        }
    }
    if (!buf) {
        fclose(f);
        return sg_error_set(err, SG_E_NOMEM, -1, "out of memory");
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

    fputs("# ---- template ----\n", sc->vars);
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
    "# Variables:\n"
    "#   terminal    gnuplot terminal with its options (\"pngcairo size 960,540\n"
    "#               noenhanced\"); the type follows the output file's extension\n"
    "#   outfile     the image to write\n"
    "#   datafile    one row per position, or per bucket of `step` positions:\n"
    "#               n (first position of the row), largest G, smallest G,\n"
    "#               largest rare G (\"-\" when the row holds no rare value)\n"
    "#   plottitle   the rule and its result\n"
    "#   xmin, xmax  the first and last position drawn\n"
    "#   ymax        the largest value drawn\n"
    "#   step        positions per row of datafile (1: every value is a row)\n"
    "#   n0, p       pre-period and period (p = 0: no period proven)\n"
    "#   bfirst      the first period boundary drawn (a multiple of p after n0)\n"
    "#   nbound      how many boundaries to mark (0: none, too many to draw)\n"
    "#   raremask    0 when the values have no rare class; else G is rare when\n"
    "#               G & raremask has an even number of one bits\n"
    "#   rarelabel   legend text for the rare values\n"
    "\n"
    "set terminal @terminal\n"
    "set output outfile\n"
    "\n"
    "set title plottitle noenhanced\n"
    "set xlabel 'n (heap size)' noenhanced\n"
    "set ylabel 'G(n)' noenhanced\n"
    "set xrange [xmin - 0.5 : xmax + 0.5]\n"
    "set yrange [-0.5 : ymax + 0.5]\n"
    "set ytics nomirror\n"
    "set xtics nomirror\n"
    "set border 3\n"
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
    "# The pre-period: positions 0 .. n0-1.\n"
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
    "if (step > 1) {\n"
    "    vallabel = sprintf('largest G(n) per %d positions', step)\n"
    "} else {\n"
    "    vallabel = 'G(n)'\n"
    "}\n"
    "prelabel = sprintf('pre-period (n < %d)', n0)\n"
    "boundlabel = sprintf('period boundaries (p = %d)', p)\n"
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
    "#                    pre-period: x, period, rule (quoted)\n"
    "#               x is the pre-period, except that a pre-period of 0 is\n"
    "#               written as 0.5 so that a log scale can show it; an empty\n"
    "#               block holds one row of NaN (block 3: a row outside the\n"
    "#               drawn range, as gnuplot 5.4 crashes on labels at NaN)\n"
    "#   plottitle   what the rules are and how many of each status\n"
    "#   xmax        largest pre-period (at least 1)\n"
    "#   ymax        largest period (at least 1)\n"
    "#   cmax        most rules at one point of the left panel (at least 2)\n"
    "#   hmax        most rules with one period (at least 1)\n"
    "#   nperiodic   number of periodic rules\n"
    "#   narith      number of arithmetic-periodic rules\n"
    "\n"
    "set terminal @terminal\n"
    "set output outfile\n"
    "\n"
    "set multiplot layout 1, 2 title plottitle noenhanced\n"
    "\n"
    "# Left: pre-period against period, one point per distinct pair, coloured\n"
    "# by how many rules share it; the extreme rules are named.\n"
    "set title 'pre-period and period of each rule' noenhanced\n"
    "set logscale xy\n"
    "set xrange [0.4 : xmax * 2]\n"
    "set yrange [0.7 : ymax * 2]\n"
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
    "     datafile index 3 using 1:2:3 with labels center offset 0, char 1 \\\n"
    "         notitle\n"
    "\n"
    "# Right: how often each period occurs.\n"
    "set title 'how often each period occurs' noenhanced\n"
    "unset logscale\n"
    "unset colorbox\n"
    "set logscale x\n"
    "set xrange [0.7 : ymax * 2]\n"
    "set yrange [0 : hmax * 1.1 + 1]\n"
    "set xtics autofreq\n"
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

static sg_status sequence_title(char *out, size_t outsz, const sg_rule *r,
                                const sg_result *res, const sg_seq *s,
                                sg_error *err)
{
    char *canon = sg_rule_canonical(r);
    char thm[200];

    if (!canon)
        return sg_error_set(err, SG_E_NOMEM, -1, "out of memory");
    theorem_short(thm, sizeof thm, res ? res->theorem : NULL);
    if (res && res->status == SG_PERIODIC)
        snprintf(out, outsz,
                 "%s: period %llu after pre-period %llu, proven by the %s",
                 canon, (ull)res->period, (ull)res->preperiod, thm);
    else if (res && res->status == SG_ARITH_PERIODIC)
        snprintf(out, outsz,
                 "%s: arithmetic-periodic, period %llu and saltus %llu "
                 "after pre-period %llu, proven by the %s",
                 canon, (ull)res->period, (ull)res->saltus, (ull)res->preperiod,
                 thm);
    else
        snprintf(out, outsz,
                 "%s: unresolved up to n = %llu (no period "
                 "proven)",
                 canon, (ull)(s->n ? s->n - 1 : 0));
    free(canon);
    return SG_OK;
}

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
    char title[512], label[160];
    uint64_t n0 = 0, p = 0, bfirst = 0, nbound = 0;
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
        st = sg_plot_find_rare(&rare, s, res, from, to, err);
    if (!st)
        st = sg_plot_write_sequence(w.data, &data, s, res, from, to,
                                    opt ? opt->max_rows : 0, rare.mask, err);
    if (!st)
        st = script_begin(&sc, &w, fmt, 0, title, err);
    if (st) {
        dest_abort(&d);
        workdir_remove(&w);
        return st;
    }

    if (res && res->status != SG_UNRESOLVED && res->period > 0) {
        n0 = res->preperiod;
        p = res->period;
        bfirst = n0 >= from ? n0 : n0 + ((from - n0 - 1) / p + 1) * p;
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
    put_var_u64(sc.vars, "xmin", from);
    put_var_u64(sc.vars, "xmax", to);
    put_var_u64(sc.vars, "ymax", data.vmax ? data.vmax : 1);
    put_var_u64(sc.vars, "step", data.step);
    put_var_u64(sc.vars, "n0", n0);
    put_var_u64(sc.vars, "p", p);
    put_var_u64(sc.vars, "bfirst", bfirst);
    put_var_u64(sc.vars, "nbound", nbound);
    put_var_str(sc.vars, "boundlabel", label);
    put_var_u64(sc.vars, "raremask", rare.mask);
    snprintf(label, sizeof label, "rare values: popcount(G & %llu) even (%llu)",
             (ull)rare.mask, (ull)rare.count);
    put_var_str(sc.vars, "rarelabel", label);
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
    char full[512];
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
        snprintf(full, sizeof full,
                 "%s (%llu): %llu periodic, %llu arithmetic-periodic, %llu "
                 "unresolved (not drawn)",
                 title ? title : "results", (ull)n, (ull)sum.periodic,
                 (ull)sum.arith, (ull)sum.unresolved);
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
    put_var_u64(sc.vars, "nperiodic", sum.periodic);
    put_var_u64(sc.vars, "narith", sum.arith);
    return draw(&sc, &w, &d, template_results, "plots/results.gp (built in)",
                opt, err);
}
