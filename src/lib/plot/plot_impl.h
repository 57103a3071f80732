/*
 * plot_impl.h - internal to libsg: what the three files of the figures
 * share (plot_data.c: reading G(n) through a proven period, the rare
 * values and the data files; plot_gnuplot.c: image types, the destination
 * file, the temporary directory, scripts and running gnuplot; plot.c:
 * axes, titles, the built-in templates and the figures themselves).
 */
#ifndef SG_PLOT_IMPL_H
#define SG_PLOT_IMPL_H

#include "sgexplore.h"
#include "internal.h"

#include <stdint.h>
#include <stdio.h>

typedef unsigned long long ull;

/* Characters outside ASCII in labels, as UTF-8 (the templates set
 * `encoding utf8`). */
#define MINUS "\xe2\x88\x92"    /* U+2212 minus sign */
#define TIMES "\xc3\x97"        /* U+00D7 multiplication sign */
#define ELLIPSIS "\xe2\x80\xa6" /* U+2026 horizontal ellipsis */
#define SUPMINUS "\xe2\x81\xbb" /* U+207B superscript minus (G⁻) */

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

/* Check that G(from..to) are known and set c up at from (plot_data.c). */
sg_status sgi_plot_cursor_init(cursor *c, const sg_seq *s, const sg_result *res,
                               uint64_t from, uint64_t to, sg_error *err);

/* Open a file gnuplot reads, and close it, turning any write error (a
 * full disk) into SG_E_IO (plot_data.c). */
sg_status sgi_plot_file_open(FILE **f, const char *path, sg_error *err);
sg_status sgi_plot_file_close(FILE *f, const char *path, sg_error *err);

/* G(n) for the cursor's n, then on to n + 1. */
static inline uint64_t sgi_plot_cursor_next(cursor *c)
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

/* The image's destination, opened before gnuplot runs so that an
 * unwritable path fails early; written only once gnuplot succeeded. */
typedef struct dest {
    const char *path;
    int fd;
    int created; /* we created it: remove it again on failure */
} dest;

/* The temporary directory of one figure: the script, data and image
 * files gnuplot reads and writes. */
typedef struct workdir {
    char *dir;
    char *script, *data, *image;
} workdir;

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

/* The destination: opened before gnuplot runs (an unwritable path fails
 * early), and given up again, removed when we created it. */
sg_status sgi_plot_dest_open(dest *d, const char *path, sg_error *err);
void sgi_plot_dest_abort(dest *d);

/* The temporary directory (under opt->tmpdir, else $TMPDIR or /tmp), and
 * its removal with everything sgexplore put in it. */
sg_status sgi_plot_workdir_make(workdir *w, const sg_plot_options *opt,
                                sg_plot_format fmt, sg_error *err);
void sgi_plot_workdir_remove(workdir *w);

/* A script's variables: begun with those every template reads, then one
 * text or number at a time. */
sg_status sgi_plot_script_begin(script *sc, const workdir *w,
                                sg_plot_format fmt, int wide, const char *title,
                                sg_error *err);
void sgi_plot_put_var_str(FILE *f, const char *name, const char *text);
void sgi_plot_put_var_u64(FILE *f, const char *name, uint64_t v);

/* How wide a title line may be, in thousandths of an em. */
unsigned long sgi_plot_title_width(int wide);

/* Write the script, run gnuplot and copy its image to the destination;
 * the temporary directory is always removed, the destination too when it
 * was created here and something failed. */
sg_status sgi_plot_draw(script *sc, workdir *w, dest *d, const char *builtin,
                        const char *builtin_name, const sg_plot_options *opt,
                        sg_error *err);

#endif /* SG_PLOT_IMPL_H */
