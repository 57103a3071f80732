/*
 * cmd_atlas.c - `sgexplore atlas --db DB --out DIR`: a static, offline
 * HTML site of a cache's rules: DIR/index.html, one sortable, filterable
 * table of every row, and for each rule DIR/rules/NAME.html (its figure,
 * first values, certificate and the commands that reproduce it), with
 * NAME.svg drawn by gnuplot and NAME.cert for `verify --certificate`.
 *
 * A cache may come from anyone (shards, a colleague's file), so every
 * string read from it is untrusted (docs/ATLAS.md): a row's rule is
 * re-parsed by the one rule parser and only its canonical form is used
 * (a row whose key does not parse, or is not that canonical form, is
 * listed as invalid and gets no page); the family is derived from the
 * parsed rule; file names are a whitelist of the canonical text or a
 * hash of it; every other text (theorem, note, the key of an invalid
 * row) is quoted by cli_quote and HTML-escaped; no cache text goes into
 * the script, and a Content-Security-Policy with a fresh nonce lets
 * only the page's own style and script run.  The site is written into a
 * temporary folder beside DIR and renamed into place at the end, so that
 * an error, a full disk or Ctrl-C leaves DIR as it was.
 *
 * With --census DIR the rows come from a census instead (DIR/octal.tsv
 * and DIR/certs/, docs/CENSUS.md), so that anyone with a checkout can
 * browse it without a cache: a row is its code, re-parsed (only a code
 * of the census's form, whose canonical form is the row's `rule`, gets a
 * page); a proven row's claim is its certificate's, which must state the
 * row's status, n0, p and saltus; the values of each page are computed
 * again, up to --census-values, and checked against the certificate's
 * checksum when they reach its bound.  The index can then also be
 * filtered by the code's length and by n0 and p.
 */
#define _GNU_SOURCE
#include "cli.h"
#include "atlas.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#ifndef PACKAGE_VERSION
#define PACKAGE_VERSION "0.1.0"
#endif

/* The file that marks a folder as an atlas, so that only an atlas (or an
 * empty folder) is ever replaced. */
#define MARKER ".sgexplore-atlas"

/* Most values loaded for one page (a row may claim any count). */
#define MAX_LOAD ((uint64_t)1 << 25)

/* Values listed under "First values"; pre-period and period listed whole
 * up to this many. */
#define FIRST_VALUES 200

/* Rows of data a figure draws at most (plot's default is 4,000): an SVG
 * takes about 250 bytes a row, and a census has thousands of pages. */
#define FIGURE_ROWS 1000

/* --census: values computed for a page by default. */
#define CENSUS_VALUES 4096
#define PERIOD_VALUES 2000

static const cli_opt atlas_opts[] = {
    {"--out", "-o", "DIR",
     "the site's folder (created; its parent must exist)"},
    {"--no-plots", NULL, NULL, "draw no figures (faster for large caches)"},
    {"--census", NULL, "DIR",
     "a census folder (octal.tsv, certs/) instead of the cache"},
    {"--census-values", NULL, "N",
     "with --census: values computed for each page at most (default 4096)"},
    {NULL, NULL, NULL, NULL},
};

static int atlas_run(const cli_command *self, cli_args *a);

const cli_command cli_cmd_atlas = {
    "atlas",
    "atlas --out DIR [--db PATH | --census DIR [--census-values N]] "
    "[--no-plots]",
    "Write a static, offline HTML site of the cache's rules.  DIR/index.html\n"
    "is a sortable, filterable table; each rule has a page with its figure\n"
    "(drawn by gnuplot), first values, certificate and the command that\n"
    "reproduces it.  An existing DIR is replaced only when it is empty or\n"
    "an earlier atlas.  With --census, the rows of a census folder\n"
    "(data/census: octal.tsv and the certificates), the values computed\n"
    "again for the pages.",
    CLI_CMD_CACHE | CLI_CMD_NOCACHE_OPT,
    atlas_opts,
    atlas_run,
};

/* ------------------------------------------------------------------ */
/* Rows                                                                 */
/* ------------------------------------------------------------------ */

static void row_clear(arow *r)
{
    free(r->key);
    free(r->canon);
    free(r->theorem);
    free(r->theorem_id);
    free(r->note);
    free(r->given);
}

/* FNV-1a (64-bit): the file name of a rule whose text is not plain. */
static uint64_t fnv1a(const char *s)
{
    uint64_t h = 0xcbf29ce484222325ULL;

    for (; *s; s++) {
        h ^= (unsigned char)*s;
        h *= 0x100000001b3ULL;
    }
    return h;
}

/* The page name of a canonical text: the text itself when it is short and
 * made of [a-z0-9.] only and does not start with a dot, else a whitelist
 * of it (other characters as '-') and its hash.  Plain names hold no '-',
 * hashed ones always do, so names of distinct rules never meet. */
void cli_atlas_page_name(char *out, size_t outsz, const char *canon)
{
    size_t len = strlen(canon), i, o = 0;
    int plain = len > 0 && len <= 40 && canon[0] != '.';

    for (i = 0; plain && i < len; i++)
        plain = (canon[i] >= 'a' && canon[i] <= 'z') ||
                (canon[i] >= '0' && canon[i] <= '9') || canon[i] == '.';
    if (plain) {
        snprintf(out, outsz, "%s", canon);
        return;
    }
    for (i = 0; i < len && o < 40; i++) {
        char c = canon[i];
        int keep = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
                   (c == '.' && o > 0);
        if (keep)
            out[o++] = c;
        else if (o > 0 && out[o - 1] != '-')
            out[o++] = '-';
    }
    if (o == 0)
        out[o++] = 'r';
    if (out[o - 1] != '-')
        out[o++] = '-';
    snprintf(out + o, outsz - o, "%016llx", (unsigned long long)fnv1a(canon));
}

char *cli_atlas_dup(const char *s, int *nomem)
{
    char *d;

    if (!s)
        return NULL;
    if (!(d = strdup(s)))
        *nomem = 1;
    return d;
}

/* sg_store_list's visitor: keep the row and judge its key. */
/* The row's given form (sg_store_entry.given), untrusted: kept only as
 * the parser writes it again, and only when it is a form of the row's
 * rule.  -1 when out of memory. */
static int given_form(arow *r, const char *given)
{
    sg_rule g;
    sg_error err;
    char *canon = NULL;
    int rc = 0;

    if (!given)
        return 0;
    sg_rule_init(&g);
    if (sg_rule_parse(&g, SG_SYNTAX_RULE, given, &err) != SG_OK) {
        rc = err.code == SG_E_NOMEM ? -1 : 0;
    } else if (!(canon = sg_rule_canonical(&g))) {
        rc = -1;
    } else if (g.given && strcmp(canon, r->canon) == 0 &&
               !(r->given = strdup(g.given))) {
        rc = -1;
    }
    free(canon);
    sg_rule_clear(&g);
    return rc;
}

static int collect(const sg_store_entry *e, void *arg)
{
    atlas *at = arg;
    arow *r;
    sg_rule rule;
    sg_error err;
    int nomem = 0;

    if (sg_grow(&at->rows, &at->cap, at->n + 1, sizeof *at->rows)) {
        at->nomem = 1;
        return 1;
    }
    r = &at->rows[at->n];
    memset(r, 0, sizeof *r);
    r->key = cli_atlas_dup(e->rule ? e->rule : "", &nomem);
    r->theorem = cli_atlas_dup(e->res.theorem, &nomem);
    r->theorem_id = cli_atlas_dup(e->res.theorem_id, &nomem);
    r->note = cli_atlas_dup(e->res.note, &nomem);
    r->res = e->res;
    r->res.theorem = r->theorem;
    r->res.theorem_id = r->theorem_id;
    r->res.note = r->note;
    at->n++;
    if (nomem) {
        at->nomem = 1;
        return 1;
    }
    /* The one rule parser, quietly: a row that does not parse is listed
     * as invalid, never an error of the whole atlas. */
    sg_rule_init(&rule);
    if (sg_rule_parse(&rule, SG_SYNTAX_RULE, r->key, &err) != SG_OK) {
        if (err.code == SG_E_NOMEM)
            at->nomem = 1;
        snprintf(r->why, sizeof r->why, "its rule does not parse");
    } else if (!(r->canon = sg_rule_canonical(&rule))) {
        at->nomem = 1;
    } else if (strcmp(r->canon, r->key) != 0) {
        snprintf(r->why, sizeof r->why,
                 "its key is not the canonical form of its rule");
        free(r->canon);
        r->canon = NULL;
    } else {
        r->family = sg_rule_family(&rule);
        cli_atlas_page_name(r->name, sizeof r->name, r->canon);
        if (given_form(r, e->given))
            at->nomem = 1;
    }
    sg_rule_clear(&rule);
    return at->nomem;
}

/* A census's rows in the order of its table. */
static int by_order(const void *x, const void *y)
{
    const arow *a = x, *b = y;

    return (a->order > b->order) - (a->order < b->order);
}

static int by_name(const void *x, const void *y)
{
    const arow *a = x, *b = y;

    /* the invalid rows last, in the order of their keys */
    if (!a->canon && !b->canon)
        return strcmp(a->key, b->key);
    if (!a->canon || !b->canon)
        return (a->canon == NULL) - (b->canon == NULL);
    return strcmp(a->name, b->name);
}

/* ------------------------------------------------------------------ */
/* Writing files                                                        */
/* ------------------------------------------------------------------ */

/* A file being written inside the temporary folder. */
typedef struct ofile {
    FILE *f;
    char path[4200];
} ofile;

static int io_fail(atlas *at, const char *what, const char *path, int e)
{
    if (!at->failed)
        sg_error_set(&at->err, SG_E_IO, -1, "cannot %s '%s': %s", what,
                     cli_quote(path), strerror(e));
    at->failed = 1;
    return -1;
}

static int out_open(ofile *o, atlas *at, const char *rel)
{
    snprintf(o->path, sizeof o->path, "%s/%s", at->tmp, rel);
    if (!(o->f = fopen(o->path, "wx")))
        return io_fail(at, "create", o->path, errno);
    return 0;
}

/* Close a file, reporting a failed write (a full disk) as one error. */
static int out_close(ofile *o, atlas *at)
{
    int bad = ferror(o->f), e = errno;

    if (fclose(o->f) != 0 && !bad) {
        bad = 1;
        e = errno;
    }
    o->f = NULL;
    if (bad)
        return io_fail(at, "write", o->path, e ? e : EIO);
    return 0;
}

/* Text as HTML: & < > " ' escaped, so that it is safe in element content
 * and in quoted attributes alike. */
static void html(FILE *f, const char *s)
{
    for (; *s; s++)
        switch (*s) {
        case '&':
            fputs("&amp;", f);
            break;
        case '<':
            fputs("&lt;", f);
            break;
        case '>':
            fputs("&gt;", f);
            break;
        case '"':
            fputs("&quot;", f);
            break;
        case '\'':
            fputs("&#39;", f);
            break;
        default:
            fputc(*s, f);
        }
}

void cli_atlas_html(FILE *f, const char *s)
{
    html(f, s);
}

/* Untrusted one-line text (a key, a theorem, a note): control characters
 * and invalid UTF-8 as \n, \xNN, ... (cli_quote), then HTML-escaped. */
static void html_untrusted(FILE *f, const char *s)
{
    html(f, cli_quote(s ? s : ""));
}

static void htmlf(FILE *f, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void htmlf(FILE *f, const char *fmt, ...)
{
    char buf[512];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    html(f, buf);
}

/* A canonical rule text as one shell word: single quotes, each quote as
 * '\'' (canonical forms have none today; the rule costs nothing). */
static void shell_word(FILE *f, const char *s)
{
    fputs("&#39;", f);
    for (; *s; s++) {
        if (*s == '\'')
            fputs("&#39;\\&#39;&#39;", f);
        else
            html(f, (char[]){*s, '\0'});
    }
    fputs("&#39;", f);
}

static const char *status_name(const arow *r)
{
    return r->canon ? sg_period_status_name(r->res.status) : "invalid";
}

int cli_atlas_proven(const arow *r)
{
    return r->canon && r->res.status != SG_UNRESOLVED;
}

/* The style every page shares (its <style> carries the nonce). */
static const char css[] =
    "body{font-family:sans-serif;margin:1.5em;color:#222;max-width:78em}\n"
    "table{border-collapse:collapse}\n"
    "th,td{padding:.2em .6em;border-bottom:1px solid #ddd;text-align:left}\n"
    "th{cursor:pointer;background:#f3f3f3;user-select:none}\n"
    "td.n{text-align:right;font-variant-numeric:tabular-nums}\n"
    "th[aria-sort=ascending]::after{content:' \\25B4'}\n"
    "th[aria-sort=descending]::after{content:' \\25BE'}\n"
    "tr.periodic td.s,tr.arithmetic-periodic td.s{color:#070}\n"
    "tr.unresolved td.s{color:#a60}\n"
    "tr.invalid td{color:#a00}\n"
    "pre{background:#f6f6f6;padding:.6em;overflow-x:auto}\n"
    "code{background:#f6f6f6}\n"
    "img{max-width:100%;height:auto;border:1px solid #ddd}\n"
    "#controls{margin:.8em 0}#controls *{margin-right:.8em}\n";

static void page_head(FILE *f, const atlas *at, const char *title,
                      int with_script)
{
    fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n"
          "<meta charset=\"utf-8\">\n",
          f);
    /* Only the page's own style and script run; images from the site. */
    fprintf(f,
            "<meta http-equiv=\"Content-Security-Policy\" content=\""
            "default-src 'none'; img-src 'self'; style-src 'nonce-%s'; "
            "script-src %s%s%s; base-uri 'none'; form-action 'none'\">\n",
            at->nonce, with_script ? "'nonce-" : "'none'",
            with_script ? at->nonce : "", with_script ? "'" : "");
    fputs("<meta name=\"viewport\" content=\"width=device-width\">\n"
          "<title>",
          f);
    html(f, title);
    fprintf(f,
            "</title>\n<style nonce=\"%s\">\n%s</style>\n</head>\n"
            "<body>\n",
            at->nonce, css);
}

/* ------------------------------------------------------------------ */
/* A rule's page                                                        */
/* ------------------------------------------------------------------ */

/* The range a rule's figure shows: as `plot RULE` draws it. */
static void figure_range(uint64_t *a, uint64_t *b, const sg_result *res,
                         const sg_seq *s)
{
    *a = 0;
    if (res->status != SG_UNRESOLVED && res->period > 0) {
        uint64_t end = res->period > (UINT64_MAX - res->preperiod) / 4
                           ? UINT64_MAX
                           : res->preperiod + 4 * res->period;
        if (res->certified_to > end)
            end = res->certified_to;
        if (end < 63)
            end = 63;
        if (end > s->n - 1 + 10 * (uint64_t)SG_PLOT_MAX_ROWS && s->n)
            end = s->n - 1; /* a crafted period: keep the figure small */
        *b = end;
    } else {
        *b = s->n ? s->n - 1 : 0;
    }
}

static void values_block(FILE *f, const sg_seq *s, uint64_t from, uint64_t to)
{
    uint64_t i;

    fputs("<pre>\n", f);
    for (i = from; i < to; i++) {
        if ((i - from) % 20 == 0)
            fprintf(f, "%s%8llu:", i > from ? "\n" : "", (unsigned long long)i);
        fprintf(f, " %lu", (unsigned long)sg_seq_get(s, (size_t)i));
    }
    fputs("</pre>\n", f);
}

/* Draw the figure into the temporary folder.  A gnuplot failure is an
 * error of the whole atlas (never half a site). */
static int draw(atlas *at, arow *r, const sg_rule *rule, const sg_seq *s)
{
    sg_plot_options opt;
    sg_result res = r->res;
    char path[4300], thm[200];
    uint64_t a, b;
    size_t i, o = 0;

    if (at->plots <= 0 || s->n == 0 || r->nofig[0])
        return 0;
    /* The title names the theorem: only letters, digits, spaces and
     * plain punctuation of the cache's text reach gnuplot's script. */
    for (i = 0; r->theorem && r->theorem[i] && o + 1 < sizeof thm; i++) {
        char c = r->theorem[i];
        if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
            (c >= '0' && c <= '9') || strchr(" ,.:()-", c))
            thm[o++] = c;
    }
    thm[o] = '\0';
    res.theorem = thm;
    memset(&opt, 0, sizeof opt);
    opt.max_rows = FIGURE_ROWS;
    figure_range(&a, &b, &res, s);
    snprintf(path, sizeof path, "%s/rules/%s.svg", at->tmp, r->name);
    if (sg_plot_sequence(path, rule, &res, s, a, b, &opt, &at->err)) {
        at->failed = 1;
        return -1;
    }
    r->figure = 1;
    at->figures++;
    if (res.status != SG_ARITH_PERIODIC || res.preperiod + res.period > s->n)
        return 0;
    /* G(n) - s floor(n/p): the pattern the saltus hides (issue 50) */
    snprintf(path, sizeof path, "%s/rules/%s-detrended.svg", at->tmp, r->name);
    if (sg_plot_detrended(path, rule, &res, s, a, b, &opt, &at->err)) {
        at->failed = 1;
        return -1;
    }
    r->detrended = 1;
    at->figures++;
    return 0;
}

static void row_facts(FILE *f, const arow *r)
{
    fputs("<table>\n<tr><th>family</th><td>", f);
    html(f, r->family);
    if (r->given) {
        fputs("</td></tr>\n<tr id=\"given\"><th>given as</th><td>", f);
        html(f, r->given);
        if (sg_rule_given_family(r->given))
            fprintf(f, " (family %s)", sg_rule_given_family(r->given));
    }
    fputs("</td></tr>\n<tr><th>status</th><td>", f);
    html(f, status_name(r));
    fputs("</td></tr>\n", f);
    if (cli_atlas_proven(r)) {
        fprintf(f,
                "<tr><th>pre-period n0</th><td>%llu</td></tr>\n"
                "<tr><th>period p</th><td>%llu</td></tr>\n"
                "<tr><th>saltus</th><td>%llu</td></tr>\n"
                "<tr><th>certified to</th><td>n = %llu</td></tr>\n",
                (unsigned long long)r->res.preperiod,
                (unsigned long long)r->res.period,
                (unsigned long long)r->res.saltus,
                (unsigned long long)r->res.certified_to);
        fputs("<tr><th>theorem</th><td>", f);
        html_untrusted(f, r->theorem);
        fputs("</td></tr>\n", f);
    } else if (r->note) {
        fputs("<tr><th>note</th><td>", f);
        html_untrusted(f, r->note);
        fputs("</td></tr>\n", f);
    }
    fprintf(f,
            "<tr><th>values computed</th><td>G(0..%llu)</td></tr>\n"
            "</table>\n",
            (unsigned long long)(r->res.computed ? r->res.computed - 1 : 0));
}

/* The page of one valid row: DIR/rules/NAME.html (and .svg, .cert). */
int cli_atlas_write_page(atlas *at, arow *r, const sg_rule *rule,
                         const sg_seq *s, const char *loaded)
{
    char rel[200], *cert = NULL;
    ofile o;
    int bad;

    if (cli_atlas_proven(r)) {
        if (!(cert = sg_certificate_format(r->canon, &r->res))) {
            at->nomem = 1;
            return -1;
        }
        snprintf(rel, sizeof rel, "rules/%s.cert", r->name);
        if (out_open(&o, at, rel))
            goto fail;
        fputs(cert, o.f);
        if (out_close(&o, at))
            goto fail;
    }
    if (draw(at, r, rule, s))
        goto fail;
    snprintf(rel, sizeof rel, "rules/%s.html", r->name);
    if (out_open(&o, at, rel))
        goto fail;
    page_head(o.f, at, r->canon, 0);
    fputs("<p><a href=\"../index.html\">all rules</a></p>\n<h1>", o.f);
    html(o.f, r->canon);
    fputs("</h1>\n", o.f);
    row_facts(o.f, r);
    bad = cli_atlas_research(o.f, r, rule, s);
    if (!bad && at->db)
        bad = cli_atlas_misere(o.f, at->db, r->canon, r->canon);

    fputs("<h2>Figure</h2>\n", o.f);
    if (r->figure)
        fprintf(o.f,
                "<p><img src=\"%s.svg\" width=\"960\" height=\"540\" "
                "alt=\"G(n) of this rule\"></p>\n",
                r->name);
    else if (at->plots < 0)
        fputs("<p>No figure: gnuplot was not found when this atlas was "
              "written (Debian package gnuplot-nox, or set "
              "SGEXPLORE_GNUPLOT).</p>\n",
              o.f);
    else if (at->plots == 0)
        fputs("<p>No figure: the atlas was written with --no-plots.</p>\n",
              o.f);
    else
        fprintf(o.f, "<p>No figure: %s.</p>\n",
                r->nofig[0] ? r->nofig : loaded);
    if (r->detrended)
        fprintf(o.f,
                "<h2>Detrended figure</h2>\n<p id=\"detrended\">G(n) "
                "&minus; %llu&lfloor;n/%llu&rfloor;, which repeats with "
                "period %llu after the pre-period: the pattern that the "
                "saltus hides in the figure above.</p>\n<p><img "
                "src=\"%s-detrended.svg\" width=\"960\" height=\"540\" "
                "alt=\"G(n) detrended\"></p>\n",
                (unsigned long long)r->res.saltus,
                (unsigned long long)r->res.period,
                (unsigned long long)r->res.period, r->name);

    fputs("<h2>First values</h2>\n", o.f);
    if (s->n) {
        uint64_t k = s->n < FIRST_VALUES ? s->n : FIRST_VALUES;
        htmlf(o.f, "G(0..%llu):", (unsigned long long)(k - 1));
        values_block(o.f, s, 0, k);
        if (cli_atlas_proven(r) &&
            r->res.preperiod + r->res.period <= PERIOD_VALUES &&
            r->res.preperiod + r->res.period <= s->n) {
            if (r->res.preperiod) {
                fprintf(o.f, "<p>Pre-period G(0..%llu):</p>\n",
                        (unsigned long long)r->res.preperiod - 1);
                values_block(o.f, s, 0, r->res.preperiod);
            }
            fprintf(o.f, "<p>Period G(%llu..%llu):</p>\n",
                    (unsigned long long)r->res.preperiod,
                    (unsigned long long)(r->res.preperiod + r->res.period - 1));
            values_block(o.f, s, r->res.preperiod,
                         r->res.preperiod + r->res.period);
        }
    } else {
        fprintf(o.f, "<p>None listed: %s.</p>\n", loaded);
    }

    if (cert && at->census) {
        fprintf(o.f,
                "<h2>Certificate</h2>\n<p>Also in <a href=\"%s.cert\">"
                "%s.cert</a>; the census's certificate, stating the row's "
                "claim, ",
                r->name, r->name);
        if (s->n > r->res.certified_to)
            fputs("its checksum that of the values computed again here, ", o.f);
        else
            htmlf(o.f,
                  "its checksum not checked here (its bound %llu is past "
                  "the %llu values computed for this page), ",
                  (unsigned long long)r->res.certified_to,
                  (unsigned long long)s->n);
        fprintf(o.f,
                "but not re-proven here: <code>sgexplore verify "
                "--certificate %s.cert</code> does that.</p>\n<pre>",
                r->name);
        html(o.f, cert);
        fputs("</pre>\n", o.f);
    } else if (cert) {
        fprintf(o.f,
                "<h2>Certificate</h2>\n<p>Also in <a href=\"%s.cert\">"
                "%s.cert</a>; the cache's claim, checked against its "
                "stored values (checksum) but not re-proven here: "
                "<code>sgexplore verify --certificate %s.cert</code> "
                "does that.</p>\n<pre>",
                r->name, r->name, r->name);
        html(o.f, cert);
        fputs("</pre>\n", o.f);
    }

    fputs("<h2>Reproduce</h2>\n<pre>sgexplore ", o.f);
    shell_word(o.f, r->canon);
    fprintf(o.f, " --max %llu --no-cache\n",
            (unsigned long long)(r->res.computed ? r->res.computed : 1));
    if (cli_atlas_proven(r) && at->census) {
        fprintf(o.f, "sgexplore verify --certificate %s.cert\n", r->name);
    } else if (cli_atlas_proven(r)) {
        fputs("sgexplore verify ", o.f);
        shell_word(o.f, r->canon);
        fputc('\n', o.f);
    }
    fputs("sgexplore plot ", o.f);
    shell_word(o.f, r->canon);
    fprintf(o.f, " -o %s.svg\n</pre>\n</body>\n</html>\n", r->name);
    free(cert);
    if (out_close(&o, at))
        return -1;
    if (bad) {
        at->nomem = 1;
        return -1;
    }
    at->pages++;
    return 0;
fail:
    free(cert);
    return -1;
}

/* Load a valid row's values and write its page; a row whose stored
 * values do not match (checksum) becomes invalid, not an error. */
static int rule_page(atlas *at, sg_store *db, arow *r)
{
    sg_store_entry e;
    sg_seq s;
    sg_rule rule;
    sg_error err;
    int found = 0, rc = 0;
    const char *loaded = "the cache holds no values for it";

    sg_store_entry_init(&e);
    sg_seq_init(&s);
    sg_rule_init(&rule);
    if (sg_rule_parse(&rule, SG_SYNTAX_RULE, r->canon, &err) != SG_OK) {
        if (err.code == SG_E_NOMEM) {
            at->nomem = 1;
            rc = -1;
            goto out;
        }
        snprintf(r->why, sizeof r->why, "its rule does not parse");
        goto invalid;
    }
    if (r->res.computed > MAX_LOAD) {
        loaded = "the row claims more values than an atlas page loads";
    } else if (sg_store_get(db, r->key, &e, &s, &found, &err)) {
        if (err.code == SG_E_NOMEM) {
            at->nomem = 1;
            rc = -1;
            goto out;
        }
        snprintf(r->why, sizeof r->why,
                 "its values cannot be read or do not match its "
                 "certificate");
        goto invalid;
    } else if (!found) {
        snprintf(r->why, sizeof r->why, "its row went away while reading");
        goto invalid;
    } else {
        /* The row as read with its values (a concurrent run may have
         * improved it since the listing). */
        int nomem = 0;
        free(r->theorem);
        free(r->theorem_id);
        free(r->note);
        r->theorem = cli_atlas_dup(e.res.theorem, &nomem);
        r->theorem_id = cli_atlas_dup(e.res.theorem_id, &nomem);
        r->note = cli_atlas_dup(e.res.note, &nomem);
        r->res = e.res;
        r->res.theorem = r->theorem;
        r->res.theorem_id = r->theorem_id;
        r->res.note = r->note;
        if (nomem) {
            at->nomem = 1;
            rc = -1;
            goto out;
        }
    }
    rc = cli_atlas_write_page(at, r, &rule, &s, loaded);
    goto out;
invalid:
    free(r->canon);
    r->canon = NULL;
    at->invalid++;
out:
    sg_rule_clear(&rule);
    sg_seq_clear(&s);
    sg_store_entry_clear(&e);
    return rc;
}

/* ------------------------------------------------------------------ */
/* The index                                                            */
/* ------------------------------------------------------------------ */

/* The table's script: sorting by a column (click a heading), filtering
 * by text, status and family (and, in a census's atlas, by the code's
 * length and at most a given n0 and p), and the same state in the URL's
 * hash (#sort=-p&status=proven&family=octal&q=0.1&length=0.ddd&n0max=10),
 * which it honours on load.
 * It reads the table only; no cache text is part of it. */
static const char script[] =
    "(function () {\n"
    "'use strict';\n"
    "var table = document.getElementById('rules');\n"
    "var body = table.tBodies[0];\n"
    "var heads = table.tHead.rows[0].cells;\n"
    "var rows = Array.prototype.slice.call(body.rows);\n"
    "var cols = {}, k;\n"
    "for (k = 0; k < heads.length; k++) cols[heads[k].dataset.k] = k;\n"
    "rows.forEach(function (r, i) { r.dataset.i = i; });\n"
    "var q = document.getElementById('q');\n"
    "var st = document.getElementById('status');\n"
    "var fam = document.getElementById('family');\n"
    "var len = document.getElementById('length');\n"
    "var n0max = document.getElementById('n0max');\n"
    "var pmax = document.getElementById('pmax');\n"
    "var state = {sort: '', dir: 1};\n"
    "function cell(r, c) {\n"
    "  var td = r.cells[c], v = td.getAttribute('data-v');\n"
    "  if (v === null) return td.textContent;\n"
    "  return v === '' ? Infinity : Number(v);\n"
    "}\n"
    "function cmp(a, b) {\n"
    "  var c = cols[state.sort], x, y, d = 0;\n"
    "  if (c !== undefined) {\n"
    "    x = cell(a, c); y = cell(b, c);\n"
    "    if (x === Infinity && y !== Infinity) return 1;\n"
    "    if (y === Infinity && x !== Infinity) return -1;\n"
    "    d = x < y ? -1 : x > y ? 1 : 0;\n"
    "  }\n"
    "  return d * state.dir || a.dataset.i - b.dataset.i;\n"
    "}\n"
    "function keep(r) {\n"
    "  var t = q.value.toLowerCase(), s = st.value, f = fam.value;\n"
    "  if (t && r.cells[0].textContent.toLowerCase().indexOf(t) < 0)\n"
    "    return false;\n"
    "  if (s === 'proven') {\n"
    "    if (r.dataset.s !== 'periodic' &&\n"
    "        r.dataset.s !== 'arithmetic-periodic') return false;\n"
    "  } else if (s && r.dataset.s !== s) return false;\n"
    "  if (len && len.value && r.dataset.l !== len.value) return false;\n"
    "  if (!atmost(r, 'n0', n0max) || !atmost(r, 'p', pmax)) return false;\n"
    "  return !f || r.dataset.f === f;\n"
    "}\n"
    "function atmost(r, k, input) {\n"
    "  if (!input || input.value === '' || cols[k] === undefined)\n"
    "    return true;\n"
    "  var v = cell(r, cols[k]), m = Number(input.value);\n"
    "  return isNaN(m) || v <= m;\n"
    "}\n"
    "function hash() {\n"
    "  var h = [];\n"
    "  if (state.sort) h.push('sort=' + (state.dir < 0 ? '-' : '') +\n"
    "                        state.sort);\n"
    "  if (st.value) h.push('status=' + encodeURIComponent(st.value));\n"
    "  if (fam.value) h.push('family=' + encodeURIComponent(fam.value));\n"
    "  if (len && len.value) h.push('length=' + "
    "encodeURIComponent(len.value));\n"
    "  if (n0max && n0max.value) h.push('n0max=' + "
    "encodeURIComponent(n0max.value));\n"
    "  if (pmax && pmax.value) h.push('pmax=' + "
    "encodeURIComponent(pmax.value));\n"
    "  if (q.value) h.push('q=' + encodeURIComponent(q.value));\n"
    "  try {\n"
    "    history.replaceState(null, '', h.length ? '#' + h.join('&') :\n"
    "                         location.pathname);\n"
    "  } catch (e) { /* file: URLs in some browsers */ }\n"
    "}\n"
    "function apply(save) {\n"
    "  var shown = 0;\n"
    "  rows.sort(cmp);\n"
    "  rows.forEach(function (r) {\n"
    "    r.hidden = !keep(r);\n"
    "    if (!r.hidden) shown++;\n"
    "    body.appendChild(r);\n"
    "  });\n"
    "  for (k = 0; k < heads.length; k++) {\n"
    "    if (heads[k].dataset.k === state.sort)\n"
    "      heads[k].setAttribute('aria-sort', state.dir < 0 ?\n"
    "                            'descending' : 'ascending');\n"
    "    else heads[k].removeAttribute('aria-sort');\n"
    "  }\n"
    "  document.getElementById('shown').textContent =\n"
    "    shown + ' of ' + rows.length + ' rows shown';\n"
    "  if (save) hash();\n"
    "}\n"
    "function choose(sel, v) {\n"
    "  for (var i = 0; i < sel.options.length; i++)\n"
    "    if (sel.options[i].value === v) { sel.selectedIndex = i; return; }\n"
    "}\n"
    "function load() {\n"
    "  location.hash.slice(1).split('&').forEach(function (p) {\n"
    "    var i = p.indexOf('='), n, v;\n"
    "    if (i < 0) return;\n"
    "    n = p.slice(0, i);\n"
    "    try { v = decodeURIComponent(p.slice(i + 1)); }\n"
    "    catch (e) { return; }\n"
    "    if (n === 'sort') {\n"
    "      state.dir = v.charAt(0) === '-' ? -1 : 1;\n"
    "      v = v.replace(/^[-+]/, '');\n"
    "      if (cols[v] !== undefined) state.sort = v;\n"
    "    } else if (n === 'status') choose(st, v);\n"
    "    else if (n === 'family') choose(fam, v);\n"
    "    else if (n === 'length' && len) choose(len, v);\n"
    "    else if (n === 'n0max' && n0max) n0max.value = v;\n"
    "    else if (n === 'pmax' && pmax) pmax.value = v;\n"
    "    else if (n === 'q') q.value = v;\n"
    "  });\n"
    "  apply(false);\n"
    "}\n"
    "for (k = 0; k < heads.length; k++)\n"
    "  heads[k].addEventListener('click', function (ev) {\n"
    "    var n = ev.currentTarget.dataset.k;\n"
    "    state.dir = state.sort === n ? -state.dir : 1;\n"
    "    state.sort = n;\n"
    "    apply(true);\n"
    "  });\n"
    "q.addEventListener('input', function () { apply(true); });\n"
    "st.addEventListener('change', function () { apply(true); });\n"
    "fam.addEventListener('change', function () { apply(true); });\n"
    "[len, n0max, pmax].forEach(function (e) {\n"
    "  if (e) e.addEventListener(e === len ? 'change' : 'input',\n"
    "                            function () { apply(true); });\n"
    "});\n"
    "window.addEventListener('hashchange', load);\n"
    "load();\n"
    "document.body.setAttribute('data-ready', '1');\n"
    "})();\n";

/* A number cell: its value for sorting, or empty (sorted last either
 * way). */
static void num_cell(FILE *f, int have, uint64_t v)
{
    if (have)
        fprintf(f, "<td class=\"n\" data-v=\"%llu\">%llu</td>",
                (unsigned long long)v, (unsigned long long)v);
    else
        fputs("<td class=\"n\" data-v=\"\">-</td>", f);
}

static void index_row(FILE *f, const atlas *at, const arow *r)
{
    int pv = cli_atlas_proven(r);

    fprintf(f, "<tr class=\"%s\" data-s=\"%s\" data-f=\"%s\"", status_name(r),
            status_name(r), r->canon ? r->family : "");
    if (at->census)
        fprintf(f, " data-l=\"%s\"", r->length);
    fputs("><td>", f);
    if (r->canon) {
        fprintf(f, "<a href=\"rules/%s.html\">", r->name);
        html(f, at->census ? r->key : r->canon);
        fputs("</a>", f);
    } else {
        html_untrusted(f, r->key);
    }
    fputs("</td><td>", f);
    if (r->canon)
        html(f, r->family);
    fputs("</td><td class=\"s\">", f);
    html(f, status_name(r));
    fputs("</td>", f);
    num_cell(f, pv, r->res.preperiod);
    num_cell(f, pv, r->res.period);
    num_cell(f, pv, r->res.saltus);
    num_cell(f, r->canon != NULL, r->res.computed);
    num_cell(f, pv, r->res.certified_to);
    fputs("<td>", f);
    if (!r->canon) {
        fputs("invalid row: ", f);
        html(f, r->why);
    } else {
        fprintf(f, "<a href=\"rules/%s.html\">page</a>", r->name);
        if (r->figure)
            fprintf(f, " <a href=\"rules/%s.svg\">figure</a>", r->name);
        if (pv)
            fprintf(f, " <a href=\"rules/%s.cert\">certificate</a>", r->name);
    }
    fputs("</td></tr>\n", f);
}

static int write_index(atlas *at)
{
    static const char *const families[] = {"subtract", "all-but", "octal",
                                           "hex", "take-and-break"};
    static const char *const heads[][3] = {
        {"rule", "rule", ""},         {"family", "family", ""},
        {"status", "status", ""},     {"n0", "pre-period n0", ""},
        {"p", "period p", ""},        {"saltus", "saltus", ""},
        {"computed", "computed", ""}, {"certified", "certified to", ""},
        {"links", "links", ""},
    };
    size_t i, count[4] = {0, 0, 0, 0};
    const char *base;
    ofile o;

    for (i = 0; i < at->n; i++)
        count[at->rows[i].canon ? at->rows[i].res.status : 3]++;
    if (out_open(&o, at, "index.html"))
        return -1;
    page_head(o.f, at,
              at->census ? "sgexplore atlas of a census" : "sgexplore atlas",
              1);
    base = strrchr(at->db_path, '/');
    fputs(at->census ? "<h1>sgexplore atlas of a census</h1>\n<p>"
                     : "<h1>sgexplore atlas</h1>\n<p>",
          o.f);
    htmlf(o.f,
          at->census ? "%zu rows of the census " : "%zu rows of the cache ",
          at->n);
    fputs("<code>", o.f);
    html_untrusted(o.f, base ? base + 1 : at->db_path);
    fputs("</code>", o.f);
    htmlf(o.f,
          ": %zu periodic, %zu arithmetic-periodic, %zu unresolved, "
          "%zu invalid.  Written by sgexplore %s.",
          count[SG_PERIODIC], count[SG_ARITH_PERIODIC], count[SG_UNRESOLVED],
          count[3], PACKAGE_VERSION);
    if (at->census) {
        fputs("  A proof shown here is the census's certificate: re-check "
              "it with <code>sgexplore verify --certificate</code>.",
              o.f);
        htmlf(o.f, "  Each page's values were computed again, at most %llu.",
              (unsigned long long)at->census_values);
        fputs("</p>\n", o.f);
    } else
        fputs("  A proof shown here is the cache's claim: re-check it with "
              "<code>sgexplore verify</code>.</p>\n",
              o.f);
    fputs("<div id=\"controls\">\n<label>filter <input id=\"q\" "
          "type=\"search\" placeholder=\"rule contains\"></label>\n"
          "<label>status <select id=\"status\"><option value=\"\">any"
          "</option><option>proven</option><option>periodic</option>"
          "<option>arithmetic-periodic</option><option>unresolved</option>"
          "<option>invalid</option></select></label>\n<label>family "
          "<select id=\"family\"><option value=\"\">any</option>",
          o.f);
    for (i = 0; i < sizeof families / sizeof *families; i++)
        fprintf(o.f, "<option>%s</option>", families[i]);
    fputs("</select></label>\n", o.f);
    if (at->census) {
        static const char *const lengths[] = {"0.d", "0.dd", "0.ddd", "0.dddd",
                                              "4.d", "4.dd", "4.ddd"};
        fputs("<label>length <select id=\"length\"><option value=\"\">any"
              "</option>",
              o.f);
        for (i = 0; i < sizeof lengths / sizeof *lengths; i++)
            fprintf(o.f, "<option>%s</option>", lengths[i]);
        fputs("</select></label>\n<label>n0 at most <input id=\"n0max\" "
              "type=\"number\" min=\"0\" size=\"8\"></label>\n"
              "<label>p at most <input id=\"pmax\" type=\"number\" "
              "min=\"1\" size=\"8\"></label>\n",
              o.f);
    }
    fputs("<span id=\"shown\"></span>\n</div>\n"
          "<table id=\"rules\">\n<thead><tr>",
          o.f);
    for (i = 0; i < sizeof heads / sizeof *heads; i++)
        fprintf(o.f, "<th data-k=\"%s\">%s</th>", heads[i][0],
                i == 0 && at->census ? "code" : heads[i][1]);
    fputs("</tr></thead>\n<tbody>\n", o.f);
    for (i = 0; i < at->n; i++)
        index_row(o.f, at, &at->rows[i]);
    fprintf(o.f,
            "</tbody>\n</table>\n<script nonce=\"%s\">\n%s</script>\n"
            "</body>\n</html>\n",
            at->nonce, script);
    if (out_close(&o, at))
        return -1;
    if (out_open(&o, at, MARKER))
        return -1;
    fputs("This folder is a site written by `sgexplore atlas`; a new atlas "
          "may replace it.\n",
          o.f);
    return out_close(&o, at);
}

/* ------------------------------------------------------------------ */
/* The folder                                                           */
/* ------------------------------------------------------------------ */

/* Remove what an atlas writes in dir (index.html, the marker, rules/ with
 * its .html, .svg and .cert files; every file of rules/ when `all`, for
 * the folder this run made) and then dir itself; anything else is left,
 * and then so is dir.  Returns 0 when dir is gone. */
static int remove_site(const char *dir, int all)
{
    char path[4400];
    DIR *d;
    struct dirent *de;

    snprintf(path, sizeof path, "%s/rules", dir);
    if ((d = opendir(path))) {
        while ((de = readdir(d))) {
            const char *dot = strrchr(de->d_name, '.');
            char file[4800];
            if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
                continue;
            if (!all && (!dot || de->d_name[0] == '.' ||
                         (strcmp(dot, ".html") && strcmp(dot, ".svg") &&
                          strcmp(dot, ".cert"))))
                continue;
            snprintf(file, sizeof file, "%s/%s", path, de->d_name);
            unlink(file);
        }
        closedir(d);
        rmdir(path);
    }
    snprintf(path, sizeof path, "%s/index.html", dir);
    unlink(path);
    snprintf(path, sizeof path, "%s/" MARKER, dir);
    unlink(path);
    return rmdir(dir);
}

/* What DIR is now: 0 absent, 1 an empty folder, 2 an earlier atlas; an
 * error line (exit status) for anything else. */
static int out_state(int *state, const char *dir)
{
    struct stat sb;
    char marker[4200];
    DIR *d;
    struct dirent *de;
    int empty = 1;

    if (lstat(dir, &sb) != 0) {
        if (errno == ENOENT) {
            *state = 0;
            return EXIT_DONE;
        }
        cli_error("--out '%s': %s", cli_quote(dir), strerror(errno));
        return EXIT_RUNTIME;
    }
    if (S_ISLNK(sb.st_mode)) {
        /* the swap at the end would replace the link, not its target */
        cli_error("--out '%s' is a symbolic link; give the folder itself",
                  cli_quote(dir));
        return EXIT_USAGE;
    }
    if (!S_ISDIR(sb.st_mode)) {
        cli_error("--out '%s' exists and is not a folder", cli_quote(dir));
        return EXIT_USAGE;
    }
    snprintf(marker, sizeof marker, "%s/" MARKER, dir);
    if (access(marker, F_OK) == 0) {
        *state = 2;
        return EXIT_DONE;
    }
    if (!(d = opendir(dir))) {
        cli_error("--out '%s': %s", cli_quote(dir), strerror(errno));
        return EXIT_RUNTIME;
    }
    while (empty && (de = readdir(d)))
        empty = !strcmp(de->d_name, ".") || !strcmp(de->d_name, "..");
    closedir(d);
    if (!empty) {
        cli_error("--out '%s': the folder holds files and is no atlas "
                  "(no " MARKER "); give a new or empty folder",
                  cli_quote(dir));
        return EXIT_USAGE;
    }
    *state = 1;
    return EXIT_DONE;
}

/* Put the finished site at dir: a rename when dir is absent; else the
 * two swapped (in one step where the system can) and the old one
 * removed. */
static int install(atlas *at, const char *dir, int state)
{
    char old[4200];

    if (state == 0) {
        if (rename(at->tmp, dir) != 0)
            return io_fail(at, "rename the site to", dir, errno);
        return 0;
    }
    if (state == 1) {
        if (rmdir(dir) != 0 && errno != ENOENT)
            return io_fail(at, "replace", dir, errno);
        if (rename(at->tmp, dir) != 0)
            return io_fail(at, "rename the site to", dir, errno);
        return 0;
    }
#ifdef RENAME_EXCHANGE
    if (renameat2(AT_FDCWD, at->tmp, AT_FDCWD, dir, RENAME_EXCHANGE) == 0) {
        if (remove_site(at->tmp, 0) != 0)
            cli_error("warning: the previous site's other files were left "
                      "in '%s'",
                      cli_quote(at->tmp));
        at->tmp[0] = '\0';
        return 0;
    }
#endif
    snprintf(old, sizeof old, "%s.old", at->tmp);
    if (rename(dir, old) != 0)
        return io_fail(at, "replace", dir, errno);
    if (rename(at->tmp, dir) != 0) {
        int e = errno;
        rename(old, dir);
        return io_fail(at, "rename the site to", dir, e);
    }
    if (remove_site(old, 0) != 0)
        cli_error("warning: the previous site's other files were left in "
                  "'%s'",
                  cli_quote(old));
    at->tmp[0] = '\0';
    return 0;
}

/* A fresh nonce for the pages' Content-Security-Policy. */
static void make_nonce(char *out, size_t outsz)
{
    unsigned char b[16];
    int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
    size_t i;

    if (fd < 0 || read(fd, b, sizeof b) != (ssize_t)sizeof b) {
        uint64_t h = fnv1a(out) ^ (uint64_t)getpid() ^ (uint64_t)time(NULL);
        for (i = 0; i < sizeof b; i++)
            b[i] = (unsigned char)(h >> (8 * (i % 8))) ^ (unsigned char)i;
    }
    if (fd >= 0)
        close(fd);
    for (i = 0; i < sizeof b && 2 * i + 2 < outsz; i++)
        snprintf(out + 2 * i, 3, "%02x", b[i]);
}

/* Whether gnuplot can be run: $SGEXPLORE_GNUPLOT, else gnuplot on the
 * PATH, as the plot library looks for it. */
static int have_gnuplot(void)
{
    const char *prog = getenv("SGEXPLORE_GNUPLOT"), *path, *p;
    char buf[4200];

    if (!prog || !*prog)
        prog = "gnuplot";
    if (strchr(prog, '/'))
        return access(prog, X_OK) == 0;
    path = getenv("PATH");
    for (p = path ? path : "/usr/bin:/bin"; *p;) {
        const char *c = strchr(p, ':');
        size_t len = c ? (size_t)(c - p) : strlen(p);
        snprintf(buf, sizeof buf, "%.*s%s%s", (int)len, p, len ? "/" : "",
                 prog);
        if (access(buf, X_OK) == 0)
            return 1;
        p += len + (c != NULL);
    }
    return 0;
}

/* The rows in the index's order, each page name once: names are unique
 * by construction unless two rows share a key (a file without the UNIQUE
 * constraint), and then the later ones are invalid. */
static void rows_settle(atlas *at)
{
    size_t i;

    if (at->n) /* qsort wants a non-NULL base even for no rows */
        qsort(at->rows, at->n, sizeof *at->rows, by_name);
    for (i = 1; i < at->n; i++)
        if (at->rows[i].canon && at->rows[i - 1].canon &&
            strcmp(at->rows[i].name, at->rows[i - 1].name) == 0) {
            snprintf(at->rows[i].why, sizeof at->rows[i].why,
                     "a second row for the same rule");
            free(at->rows[i].canon);
            at->rows[i].canon = NULL;
        }
    if (at->census && at->n)
        qsort(at->rows, at->n, sizeof *at->rows, by_order);
    for (i = 0; i < at->n; i++)
        at->invalid += at->rows[i].canon == NULL;
}

/* The temporary folder beside DIR, on the same file system so that the
 * final rename is one step; -1 (said) when it cannot be made. */
static int make_tmp(atlas *at, const char *dir)
{
    const char *slash = strrchr(dir, '/');

    if (slash)
        snprintf(at->tmp, sizeof at->tmp, "%.*s/.%s.atlas-XXXXXX",
                 (int)(slash - dir + (slash == dir)), dir, slash + 1);
    else
        snprintf(at->tmp, sizeof at->tmp, ".%s.atlas-XXXXXX", dir);
    if (slash == dir) /* "/x": "/" + ".x..." */
        snprintf(at->tmp, sizeof at->tmp, "/.%s.atlas-XXXXXX", dir + 1);
    if (!mkdtemp(at->tmp)) {
        cli_error("--out '%s': cannot create a folder beside it: %s",
                  cli_quote(dir), strerror(errno));
        at->tmp[0] = '\0';
        return -1;
    }
    return 0;
}

/* The one record of a finished atlas. */
static void atlas_report(const atlas *at, cli_args *a, const char *dir)
{
    cli_rec rec;

    cli_rec_begin(&rec, stdout, cli_json(a));
    cli_rec_str(&rec, "atlas", dir);
    cli_rec_uint(&rec, "rules", at->n);
    cli_rec_uint(&rec, "pages", at->pages);
    cli_rec_uint(&rec, "invalid", at->invalid);
    cli_rec_uint(&rec, "figures", at->figures);
    cli_rec_textf(&rec,
                  "atlas: %s/index.html: %zu row%s, %zu page%s, "
                  "%zu invalid row%s, %zu figure%s%s\n",
                  dir, at->n, at->n == 1 ? "" : "s", at->pages,
                  at->pages == 1 ? "" : "s", at->invalid,
                  at->invalid == 1 ? "" : "s", at->figures,
                  at->figures == 1 ? "" : "s",
                  at->plots < 0 ? " (gnuplot not found)" : "");
    cli_rec_end(&rec);
}

static int atlas_run(const cli_command *self, cli_args *a)
{
    const char *given = cli_get(a, "--out");
    char *dir = NULL, *path = NULL;
    sg_store *db = NULL;
    sg_error err;
    atlas at;
    size_t i, len;
    int rc, state = 0;

    (void)self;
    memset(&at, 0, sizeof at);
    if (!given || !*given) {
        cli_error("atlas: no output folder: give --out DIR");
        return EXIT_USAGE;
    }
    if (cli_npos(a)) {
        cli_error("atlas takes no rule ('%s'): it draws every cached rule",
                  cli_quote(cli_pos(a, 0)));
        return EXIT_USAGE;
    }
    if (!(dir = strdup(given)))
        return (cli_error("out of memory"), EXIT_RUNTIME);
    for (len = strlen(dir); len > 1 && dir[len - 1] == '/'; len--)
        dir[len - 1] = '\0';
    if (strlen(dir) > 3000) {
        cli_error("--out: the path is too long");
        free(dir);
        return EXIT_USAGE;
    }
    at.census = cli_get(a, "--census");
    at.census_values = CENSUS_VALUES;
    if (at.census && cli_get(a, "--db")) {
        cli_error("atlas: --census and --db exclude each other");
        rc = EXIT_USAGE;
        goto out;
    }
    if (cli_get(a, "--census-values") &&
        (!at.census
             ? (cli_error("atlas: --census-values needs --census"),
                rc = EXIT_USAGE)
             : (rc = cli_parse_count(&at.census_values, "--census-values",
                                     cli_get(a, "--census-values")))))
        goto out;
    if (at.census && !*at.census) {
        cli_error("atlas: --census wants the census's folder");
        rc = EXIT_USAGE;
        goto out;
    }
    if ((rc = cli_check_folder("--out", dir)) || (rc = out_state(&state, dir)))
        goto out;
    at.plots = cli_get(a, "--no-plots") ? 0 : have_gnuplot() ? 1 : -1;
    if (at.census) {
        at.db_path = at.census;
        if ((rc = cli_atlas_census_collect(&at)) != 0) {
            if (rc < 0)
                goto nomem;
            goto out;
        }
    } else {
        if ((rc = cli_cache_open(&db, &path, a, 1)))
            goto out;
        if (!db) {
            cli_error("atlas: no cache at %s",
                      path ? cli_quote(path) : "(none)");
            rc = EXIT_RUNTIME;
            goto out;
        }
        at.db_path = path;
        at.db = db;
        if (sg_store_list(db, NULL, NULL, collect, &at, &err)) {
            rc = cli_report(NULL, NULL, &err);
            goto out;
        }
    }
    if (at.nomem)
        goto nomem;
    rows_settle(&at);

    if (make_tmp(&at, dir)) {
        rc = EXIT_RUNTIME;
        goto out;
    }
    make_nonce(at.nonce, sizeof at.nonce);
    {
        char rules[4200];
        snprintf(rules, sizeof rules, "%s/rules", at.tmp);
        if (mkdir(rules, 0777) != 0) {
            io_fail(&at, "create", rules, errno);
            goto failed;
        }
    }
    for (i = 0; i < at.n; i++) {
        if (cli_cancel)
            goto cancelled;
        if (at.rows[i].canon &&
            (at.census ? cli_atlas_census_page(&at, &at.rows[i])
                       : rule_page(&at, db, &at.rows[i])))
            goto failed;
    }
    if (cli_cancel)
        goto cancelled;
    if (write_index(&at))
        goto failed;
    if (cli_cancel)
        goto cancelled;
    if (install(&at, dir, state))
        goto failed;
    atlas_report(&at, a, dir);
    rc = EXIT_DONE;
    goto out;
cancelled:
    cli_error("atlas: interrupted; '%s' is unchanged", cli_quote(dir));
    rc = EXIT_RUNTIME;
    goto out;
nomem:
    cli_error("out of memory");
    rc = EXIT_RUNTIME;
    goto out;
failed:
    if (cli_cancel)
        goto cancelled;
    if (at.nomem && !at.failed)
        goto nomem;
    rc = cli_report("atlas", NULL, &at.err);
    if (rc == EXIT_DONE)
        rc = EXIT_RUNTIME;
out:
    if (at.tmp[0])
        remove_site(at.tmp, 1);
    for (i = 0; i < at.n; i++)
        row_clear(&at.rows[i]);
    free(at.rows);
    sg_store_close(db);
    free(path);
    free(dir);
    return rc;
}
