/*
 * atlas_census.c - `sgexplore atlas --census DIR`: the rows of a census
 * folder (DIR/octal.tsv and DIR/certs/, docs/CENSUS.md) for the atlas,
 * so that anyone with a checkout can browse it without a cache.  Every
 * cell is untrusted as a cache's is: a code is re-parsed, a proven row's
 * claim must be its certificate's, and a page's values are computed
 * again and checked against the certificate's checksum (cmd_atlas.c's
 * top comment has the whole rule).
 */
#define _GNU_SOURCE
#include "atlas.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The largest octal.tsv read. */
#define CENSUS_MAX_FILE ((size_t)64 << 20)

/* ------------------------------------------------------------------ */
/* --census: the rows of a census folder                                */
/* ------------------------------------------------------------------ */

/* A whole file of at most max bytes into a malloc'd string (NUL bytes
 * end it early, which the line parser then sees as a short file). */
static char *read_text(atlas *at, const char *path, size_t max, int *too_big)
{
    FILE *f = fopen(path, "r");
    char *buf = NULL;
    size_t len = 0, cap = 0, got;

    *too_big = 0;
    if (!f)
        return NULL;
    for (;;) {
        if (sg_grow(&buf, &cap, len + 65536 + 1, 1)) {
            at->nomem = 1;
            break;
        }
        got = fread(buf + len, 1, 65536, f);
        len += got;
        if (len > max) {
            *too_big = 1;
            break;
        }
        if (got < 65536)
            break;
    }
    if (ferror(f) || *too_big || at->nomem) {
        free(buf);
        fclose(f);
        return NULL;
    }
    fclose(f);
    if (!buf && !(buf = malloc(1))) {
        at->nomem = 1;
        return NULL;
    }
    buf[len] = '\0';
    return buf;
}

/* The code's form for the index ("0.ddd"), or 0 when the text is not a
 * code of the census: 0. or 4. and one to four (0.) or three (4.) octal
 * digits; "4.0" is one. */
static int census_length(char *out, const char *code)
{
    size_t n = 0;
    const char *d;

    if ((code[0] != '0' && code[0] != '4') || code[1] != '.')
        return 0;
    for (d = code + 2; *d; d++, n++)
        if (*d < '0' || *d > '7')
            return 0;
    if (n < 1 || n > (code[0] == '0' ? 4u : 3u))
        return 0;
    snprintf(out, 8, "%c.%.*s", code[0], (int)n, "dddd");
    return 1;
}

/* A decimal count (digits only, at most 2^63 - 1), or -1. */
static int census_u64(uint64_t *out, const char *t)
{
    uint64_t v = 0;

    if (!*t)
        return -1;
    for (; *t; t++) {
        if (*t < '0' || *t > '9' || v > (UINT64_MAX / 2 - 9) / 10)
            return -1;
        v = v * 10 + (uint64_t)(*t - '0');
    }
    *out = v;
    return 0;
}

/* A certificate path as a row names it: certs/ and a plain file name
 * ending in .cert, nothing that leaves the census's folder. */
static int census_cert_path(const char *p)
{
    const char *c;

    if (strncmp(p, "certs/", 6) != 0 || strlen(p) > 200 || strlen(p) < 12 ||
        strcmp(p + strlen(p) - 5, ".cert") != 0 || p[6] == '.')
        return 0;
    for (c = p + 6; *c; c++)
        if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') ||
              (*c >= '0' && *c <= '9') || *c == '.' || *c == '_' || *c == '-'))
            return 0;
    return 1;
}

enum {
    C_CODE,
    C_RULE,
    C_STATUS,
    C_PRE,
    C_PER,
    C_SAL,
    C_COMPUTED,
    C_CERT,
    C_NCOLS
};

/* One data row of octal.tsv (its cells, in the header's columns): an
 * arow, valid or with the reason it is not. */
static void census_row(atlas *at, arow *r, char **cell)
{
    sg_rule rule;
    sg_error err;
    sg_result claim;
    char *text = NULL, *cert_rule = NULL, path[4400];
    uint64_t pre = 0, per = 0, sal = 0;
    int too_big, nomem = 0;

    memset(r, 0, sizeof *r);
    memset(&claim, 0, sizeof claim);
    r->key = cli_atlas_dup(cell[C_CODE], &nomem);
    if (nomem) {
        at->nomem = 1;
        return;
    }
    r->res.status = SG_UNRESOLVED;
    if (!census_length(r->length, cell[C_CODE])) {
        snprintf(r->why, sizeof r->why, "its code is not a census code");
        return;
    }
    if (census_u64(&r->res.computed, cell[C_COMPUTED]) ||
        r->res.computed == 0) {
        snprintf(r->why, sizeof r->why, "its computed count is not a count");
        return;
    }
    sg_rule_init(&rule);
    if (sg_rule_parse(&rule, SG_SYNTAX_RULE, r->key, &err) != SG_OK) {
        if (err.code == SG_E_NOMEM)
            at->nomem = 1;
        snprintf(r->why, sizeof r->why, "its code does not parse");
        goto out;
    }
    if (!(r->canon = sg_rule_canonical(&rule))) {
        at->nomem = 1;
        goto out;
    }
    if (strcmp(r->canon, cell[C_RULE]) != 0) {
        snprintf(r->why, sizeof r->why,
                 "its rule is not the canonical form of its code");
        goto invalid;
    }
    r->family = sg_rule_family(&rule);
    cli_atlas_page_name(r->name, sizeof r->name, r->canon);
    if (strcmp(cell[C_STATUS], "unresolved") == 0) {
        if (cell[C_CERT][0]) {
            snprintf(r->why, sizeof r->why,
                     "it is unresolved and names a certificate");
            goto invalid;
        }
        r->note = cli_atlas_dup("unresolved over the census's values", &nomem);
        r->res.note = r->note;
        if (nomem)
            at->nomem = 1;
        goto out;
    }
    if (strcmp(cell[C_STATUS], "periodic") != 0 &&
        strcmp(cell[C_STATUS], "arithmetic-periodic") != 0) {
        snprintf(r->why, sizeof r->why, "its status is not a status");
        goto invalid;
    }
    if (census_u64(&pre, cell[C_PRE]) || census_u64(&per, cell[C_PER]) ||
        census_u64(&sal, cell[C_SAL]) || per == 0) {
        snprintf(r->why, sizeof r->why, "its n0, p or saltus is not a count");
        goto invalid;
    }
    if (!census_cert_path(cell[C_CERT])) {
        snprintf(r->why, sizeof r->why, "it names no certificate file");
        goto invalid;
    }
    snprintf(path, sizeof path, "%s/%s", at->census, cell[C_CERT]);
    if (!(text = read_text(at, path, (size_t)1 << 20, &too_big))) {
        if (!at->nomem)
            snprintf(r->why, sizeof r->why, "its certificate cannot be read");
        goto invalid;
    }
    if (sg_certificate_parse(&cert_rule, &claim, text, &err) != SG_OK) {
        if (err.code == SG_E_NOMEM)
            at->nomem = 1;
        snprintf(r->why, sizeof r->why, "its certificate does not parse");
        goto invalid;
    }
    if (strcmp(cert_rule, r->canon) != 0 ||
        strcmp(sg_period_status_name(claim.status), cell[C_STATUS]) != 0 ||
        claim.preperiod != pre || claim.period != per || claim.saltus != sal) {
        snprintf(r->why, sizeof r->why,
                 "its certificate does not state the row's claim");
        goto invalid;
    }
    claim.computed = r->res.computed;
    r->res = claim;
    r->theorem = cli_atlas_dup(claim.theorem, &nomem);
    r->theorem_id = cli_atlas_dup(claim.theorem_id, &nomem);
    r->res.theorem = r->theorem;
    r->res.theorem_id = r->theorem_id;
    r->res.note = NULL;
    if (nomem)
        at->nomem = 1;
    goto out;
invalid:
    free(r->canon);
    r->canon = NULL;
out:
    free(text);
    free(cert_rule);
    sg_rule_clear(&rule);
}

/* Every row of CENSUS/octal.tsv: '#' lines are comments, the first other
 * line names the columns (code, rule, status, preperiod, period, saltus,
 * computed and certificate must be among them).  A ragged row is an
 * invalid row, not an error of the whole atlas. */
int cli_atlas_census_collect(atlas *at)
{
    static const char *const want[C_NCOLS] = {
        "code",   "rule",   "status",   "preperiod",
        "period", "saltus", "computed", "certificate"};
    char path[4200], *text, *line, *next, *cells[64], *pick[C_NCOLS];
    size_t col[C_NCOLS], ncells, i, k;
    int too_big, header = 0;

    snprintf(path, sizeof path, "%s/octal.tsv", at->census);
    if (!(text = read_text(at, path, CENSUS_MAX_FILE, &too_big))) {
        if (at->nomem)
            return -1;
        if (too_big)
            cli_error("--census: '%s' is larger than %zu bytes",
                      cli_quote(path), CENSUS_MAX_FILE);
        else
            cli_error("--census: cannot read '%s': %s", cli_quote(path),
                      strerror(errno));
        return EXIT_RUNTIME;
    }
    for (line = text; line && *line; line = next) {
        next = strchr(line, '\n');
        if (next)
            *next++ = '\0';
        if (line[0] == '#' || line[0] == '\0')
            continue;
        for (ncells = 0, cells[0] = line; ncells < 64;) {
            char *tab = strchr(cells[ncells], '\t');
            ncells++;
            if (!tab || ncells == 64)
                break;
            *tab = '\0';
            cells[ncells] = tab + 1;
        }
        if (!header) {
            for (k = 0; k < C_NCOLS; k++) {
                for (i = 0; i < ncells && strcmp(cells[i], want[k]); i++)
                    ;
                if (i == ncells) {
                    cli_error("--census: '%s' has no column '%s'",
                              cli_quote(path), want[k]);
                    free(text);
                    return EXIT_USAGE;
                }
                col[k] = i;
            }
            header = 1;
            continue;
        }
        if (sg_grow(&at->rows, &at->cap, at->n + 1, sizeof *at->rows)) {
            at->nomem = 1;
            break;
        }
        for (k = 0; k < C_NCOLS; k++)
            pick[k] = col[k] < ncells ? cells[col[k]] : "";
        census_row(at, &at->rows[at->n], pick);
        at->rows[at->n].order = at->n;
        at->n++;
        if (at->nomem)
            break;
        for (k = 0; k < C_NCOLS; k++)
            if (col[k] >= ncells) {
                arow *r = &at->rows[at->n - 1];
                snprintf(r->why, sizeof r->why, "its row is short");
                free(r->canon);
                r->canon = NULL;
                break;
            }
    }
    free(text);
    if (at->nomem)
        return -1;
    if (!header) {
        cli_error("--census: '%s' has no header line", cli_quote(path));
        return EXIT_USAGE;
    }
    return 0;
}

/* A census row's page: its values computed again, up to --census-values,
 * and checked against the certificate's checksum when they reach its
 * bound (a row whose values differ becomes invalid, not an error). */
int cli_atlas_census_page(atlas *at, arow *r)
{
    sg_enum_options opt;
    sg_rule rule;
    sg_seq s;
    sg_error err;
    uint64_t n = r->res.computed < at->census_values ? r->res.computed
                                                     : at->census_values;
    int rc = 0;

    sg_rule_init(&rule);
    sg_seq_init(&s);
    memset(&opt, 0, sizeof opt);
    opt.cancel = &cli_cancel;
    if (sg_rule_parse(&rule, SG_SYNTAX_RULE, r->canon, &err) != SG_OK ||
        sg_enumerate(&s, &rule, (size_t)n, &opt, &err) != SG_OK) {
        if (cli_cancel || err.code == SG_E_INTERRUPTED) {
            rc = -1;
            goto out;
        }
        if (err.code == SG_E_NOMEM) {
            at->nomem = 1;
            rc = -1;
            goto out;
        }
        snprintf(r->why, sizeof r->why, "its values cannot be computed");
        goto invalid;
    }
    if (cli_atlas_proven(r) && s.n > r->res.certified_to &&
        sg_checksum(&s, (size_t)r->res.certified_to + 1) != r->res.checksum) {
        snprintf(r->why, sizeof r->why,
                 "its values do not match its certificate's checksum");
        goto invalid;
    }
    if (cli_atlas_proven(r) && r->res.preperiod + r->res.period > s.n)
        snprintf(r->nofig, sizeof r->nofig,
                 "its period ends at n = %llu, past the %llu values computed "
                 "for this page (sgexplore plot draws it)",
                 (unsigned long long)(r->res.preperiod + r->res.period - 1),
                 (unsigned long long)s.n);
    rc = cli_atlas_write_page(at, r, &rule, &s,
                              "the census computed no values for it");
    goto out;
invalid:
    free(r->canon);
    r->canon = NULL;
    at->invalid++;
out:
    sg_seq_clear(&s);
    sg_rule_clear(&rule);
    return rc;
}
