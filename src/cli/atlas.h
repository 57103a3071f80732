/*
 * atlas.h - what the two files of `sgexplore atlas` share: a row of the
 * site and the site being written (cmd_atlas.c), and the census's rows
 * (atlas_census.c), which cmd_atlas.c turns into pages like a cache's.
 */
#ifndef SG_CLI_ATLAS_H
#define SG_CLI_ATLAS_H

#include "cli.h"

/* One row of the cache.  canon is NULL for an invalid row, whose why
 * says what is wrong. */
typedef struct arow {
    char *key;   /* the cache's text: untrusted */
    char *canon; /* the canonical form of the parsed key */
    char *theorem, *theorem_id, *note; /* untrusted */
    const char *family;                /* static: from the parsed rule */
    char *given;   /* the form it was given in, re-derived by the parser
                    from the row's given text when that names this rule;
                    NULL: none */
    char name[80]; /* page base name: whitelist or hash only */
    char why[160];
    sg_result res;
    int figure;    /* NAME.svg was drawn */
    int detrended; /* NAME-detrended.svg was drawn (arithmetic-periodic) */
    /* --census only */
    char length[8];  /* "0.ddd": the code's form, for the index's filter */
    char nofig[160]; /* why no figure, when it is not drawn */
    size_t order;    /* the row's place in octal.tsv */
} arow;

typedef struct atlas {
    arow *rows;
    size_t n, cap;
    int nomem;
    const char *db_path;
    sg_store *db;           /* the cache (its misère rows), NULL: census */
    const char *census;     /* --census DIR, or NULL */
    uint64_t census_values; /* --census-values */
    char tmp[4096];         /* the temporary folder */
    char nonce[40];
    int plots; /* 1: draw, 0: --no-plots, -1: no gnuplot */
    size_t pages, figures, invalid;
    sg_error err; /* an I/O error (SG_E_IO) */
    int failed;
} atlas;

/* Text as HTML: & < > " ' escaped. */
void cli_atlas_html(FILE *f, const char *s);
/* A page's research rows (atlas_research.c): the largest value, and for
 * an unresolved rule its observed candidate and why it is unresolved;
 * -1 when out of memory. */
int cli_atlas_research(FILE *f, const arow *r, const sg_rule *rule,
                       const sg_seq *s);
/* A page's misère section from the cache's misère row of canon (genus,
 * quotient, or how to compute them: `sgexplore RERUN --misere ...`); -1
 * when out of memory. */
int cli_atlas_misere(FILE *f, sg_store *db, const char *canon,
                     const char *rerun);
/* A copy of s (NULL stays NULL); *nomem set when the copy fails. */
char *cli_atlas_dup(const char *s, int *nomem);
/* The row is periodic or arithmetic-periodic, proven. */
int cli_atlas_proven(const arow *r);
/* A page's base name: the canonical text when it is safe, else a hash. */
void cli_atlas_page_name(char *out, size_t outsz, const char *canon);
/* The page of one valid row: DIR/rules/NAME.html (and .svg, .cert). */
int cli_atlas_write_page(atlas *at, arow *r, const sg_rule *rule,
                         const sg_seq *s, const char *loaded);

/* --census: the rows of DIR/octal.tsv and their certificates; -1 on an
 * error (at->err), else 0. */
int cli_atlas_census_collect(atlas *at);
/* A census row's page, its values computed again. */
int cli_atlas_census_page(atlas *at, arow *r);

#endif
