/*
 * cmd_cache.c - `sgexplore cache list|show|drop|path`: look into the
 * SQLite cache without writing SQL (docs/CACHE.md documents the schema
 * for those who prefer sqlite3).  `drop`, `import-checkpoint` and `derive`
 * (cache_derive.c) write; the others open the file read-only and never
 * create it.  Entries print through the rule's one record (report.c), so
 * `cache show`, `cache list` and the analysis share their keys; `cache
 * list --format json` streams one line per rule.
 */
#define _DEFAULT_SOURCE
#include "cli.h"

#include <stdlib.h>
#include <string.h>

static const cli_opt cache_opts[] = {
    {"--status", NULL, "S",
     "list: periodic, arithmetic-periodic, unresolved or proven"},
    {"--family", NULL, "F",
     "list: subtract, all-but, octal, hex, take-and-break"},
    {"--format", NULL, "FMT", "list: table or json; show: text or json"},
    {"--from", NULL, "FILE", "derive: the cache holding PARENT's values"},
    {"--max", NULL, "N", "derive: at most N values"},
    {NULL, NULL, NULL, NULL},
};

static int cache_run(const cli_command *self, cli_args *a);

const cli_command cli_cmd_cache = {
    "cache",
    "cache list [--status S] [--family F] [--format table|json]\n"
    "cache show RULE [--json]\n"
    "cache drop RULE\n"
    "cache path\n"
    "cache export-checkpoint RULE FILE\n"
    "cache import-checkpoint FILE\n"
    "cache derive RULE PARENT [--from FILE] [--max N]",
    "Inspect the SQLite cache.  List its rules, show or drop one, print its\n"
    "path; carry a deep run's checkpoint to another cache through a file;\n"
    "store RULE's values as far as a subgame PARENT's cached ones give them.\n"
    "The cache is --db PATH, else $SGEXPLORE_DB, else\n"
    "$XDG_CACHE_HOME/sgexplore/cache.db, else ~/.cache/sgexplore/cache.db.",
    CLI_CMD_RULE | CLI_CMD_CACHE | CLI_CMD_NOCACHE_OPT,
    cache_opts,
    cache_run,
};

static int is_proven(const sg_store_entry *e)
{
    return e->res.status != SG_UNRESOLVED;
}

static void entry_view(cli_view *v, const sg_store_entry *e, const sg_seq *s)
{
    memset(v, 0, sizeof *v);
    v->rule = e->rule;
    v->family = e->family;
    v->given = e->given;
    v->source = "cache";
    v->res = &e->res;
    v->seq = s;
    v->computed = e->res.computed;
    v->entry = e;
}

/* The observation of an unresolved entry, made from its stored values
 * (the cache keeps none), as the analysis makes it. */
static void entry_observe(sg_observed *o, const char *rule, const sg_seq *s)
{
    sg_rule r;
    sg_result tmp;

    memset(o, 0, sizeof *o);
    sg_rule_init(&r);
    if (sg_rule_parse(&r, SG_SYNTAX_RULE, rule, NULL) == SG_OK &&
        sg_prove(&tmp, &r, s) == SG_OK)
        *o = tmp.observed;
    sg_rule_clear(&r);
}

/* ------------------------------------------------------------------ */
/* cache list                                                           */
/* ------------------------------------------------------------------ */

/* One row of the table: its texts already escaped (cli_escape_dup), since
 * a cache that travelled may hold anything in them. */
typedef struct row {
    char *rule, *family, *status, *updated;
    char *given; /* NULL: none */
    int proven;
    uint64_t n0, p, s, computed;
} row;

typedef struct list_state {
    const char *status;
    int json;
    row *rows;
    size_t n, cap;
    int nomem;
    size_t count[3]; /* by sg_period_status */
    sg_store *db;    /* to read an unresolved row's values (JSON) */
    int failed;      /* reading them failed: err says why */
    sg_error err;
} list_state;

/* The observation of unresolved `rule` for its `cache list` row: its
 * values loaded (a second statement on the listing's connection) and
 * observed.  Returns 1 when the values cannot be read (ls->err set). */
static int list_observe(list_state *ls, sg_observed *o, const char *rule)
{
    sg_store_entry e;
    sg_seq s;
    int found = 0, bad;

    sg_store_entry_init(&e);
    sg_seq_init(&s);
    bad = sg_store_get(ls->db, rule, &e, &s, &found, &ls->err) != SG_OK;
    memset(o, 0, sizeof *o);
    if (!bad && found)
        entry_observe(o, rule, &s);
    ls->failed = bad;
    sg_seq_clear(&s);
    sg_store_entry_clear(&e);
    return bad;
}

static int list_visit(const sg_store_entry *e, void *arg)
{
    list_state *ls = arg;
    row *r;

    if (ls->status && strcmp(ls->status, "proven") == 0 && !is_proven(e))
        return 0;
    ls->count[e->res.status <= SG_ARITH_PERIODIC ? e->res.status : 0]++;
    if (ls->json) {
        /* The values are not loaded: the keys derived from them are left
         * out (docs/JSON.md), but for the observed candidate of an
         * unresolved rule, the one answer it has (read as `cache show`
         * reads it). */
        cli_view v;
        cli_rec rec;
        sg_store_entry obs = *e;
        if (!is_proven(e) && list_observe(ls, &obs.res.observed, e->rule))
            return 1;
        entry_view(&v, &obs, NULL);
        cli_rec_begin(&rec, stdout, 1);
        cli_view_write(&rec, &v);
        cli_rec_end(&rec);
        return 0;
    }
    if (sg_grow(&ls->rows, &ls->cap, ls->n + 1, sizeof *ls->rows)) {
        ls->nomem = 1;
        return 1;
    }
    r = &ls->rows[ls->n];
    r->rule = cli_escape_dup(e->rule);
    r->family = cli_escape_dup(e->family);
    r->status = strdup(sg_period_status_name(e->res.status));
    r->updated = cli_escape_dup(e->updated);
    r->given = e->given ? cli_escape_dup(e->given) : NULL;
    if (!r->rule || !r->family || !r->status || !r->updated ||
        (e->given && !r->given)) {
        free(r->rule);
        free(r->family);
        free(r->status);
        free(r->updated);
        free(r->given);
        ls->nomem = 1;
        return 1;
    }
    r->proven = is_proven(e);
    r->n0 = e->res.preperiod;
    r->p = e->res.period;
    r->s = e->res.saltus;
    r->computed = e->res.computed;
    ls->n++;
    return 0;
}

/* Columns of escaped text: how many characters it shows (escaped text is
 * valid UTF-8, one column per character for the texts a cache holds). */
static size_t text_width(const char *s)
{
    size_t w = 0;

    for (; *s; s++)
        w += ((unsigned char)*s & 0xc0) != 0x80;
    return w;
}

/* s padded with spaces to w columns (printf's %-*s counts bytes, so a
 * rule with "è" would shift the columns after it). */
static void print_padded(const char *s, size_t w)
{
    size_t n = text_width(s);

    fputs(s, stdout);
    for (; n < w; n++)
        putchar(' ');
}

/* The table; a last column GIVEN (the form a rule was given in, "-" for
 * none) only when some row has one, so that other tables stay as they
 * were. */
static void print_table(const list_state *ls)
{
    size_t i, wr = 4, wf = 6;
    int given = 0;

    for (i = 0; i < ls->n; i++) {
        if (text_width(ls->rows[i].rule) > wr)
            wr = text_width(ls->rows[i].rule);
        if (text_width(ls->rows[i].family) > wf)
            wf = text_width(ls->rows[i].family);
        given |= ls->rows[i].given != NULL;
    }
    printf("%-*s  %-*s  %-19s  %9s  %9s  %6s  %12s  %s%s\n", (int)wr, "RULE",
           (int)wf, "FAMILY", "STATUS", "PREPERIOD", "PERIOD", "SALTUS",
           "COMPUTED", given ? "UPDATED               " : "UPDATED",
           given ? "GIVEN" : "");
    for (i = 0; i < ls->n; i++) {
        const row *r = &ls->rows[i];
        char n0[24] = "-", p[24] = "-", s[24] = "-";
        if (r->proven) {
            snprintf(n0, sizeof n0, "%llu", (unsigned long long)r->n0);
            snprintf(p, sizeof p, "%llu", (unsigned long long)r->p);
            snprintf(s, sizeof s, "%llu", (unsigned long long)r->s);
        }
        print_padded(r->rule, wr);
        fputs("  ", stdout);
        print_padded(r->family, wf);
        printf("  %-19s  %9s  %9s  %6s  %12llu  %s", r->status, n0, p, s,
               (unsigned long long)r->computed, r->updated);
        if (given)
            printf("  %s", r->given ? r->given : "-");
        putchar('\n');
    }
}

/* What cache list's checkpoint lines need: how many were listed, whether
 * in JSON, and the --family filter (NULL: any). */
typedef struct ckpt_state {
    size_t count;
    int json;
    const char *family;
} ckpt_state;

/* cache list's line for a deep run's checkpoint: a text line, or in
 * JSON one {"checkpoint": ...} object (a key of its own, so that readers
 * of the rules' lines, which all have "rule" at the top, skip it). */
static int checkpoint_line(const char *rule, uint64_t heaps, const char *stored,
                           void *arg)
{
    ckpt_state *cs = arg;

    if (cs->family) {
        sg_rule r;
        sg_error err;
        int same;
        sg_rule_init(&r);
        same = sg_rule_parse(&r, SG_SYNTAX_RULE, rule, &err) == SG_OK &&
               strcmp(sg_rule_family(&r), cs->family) == 0;
        sg_rule_clear(&r);
        if (!same)
            return 0;
    }
    {
        cli_rec rec;
        cli_rec_begin(&rec, stdout, cs->json);
        cli_rec_obj(&rec, "checkpoint");
        cli_rec_str(&rec, "rule", rule);
        cli_rec_uint(&rec, "computed", heaps);
        cli_rec_str(&rec, "stored", stored);
        cli_rec_textf(&rec,
                      "deep-run checkpoint: %s at heap %llu, stored %s "
                      "(`sgexplore cache show %s`)\n",
                      cli_quote(rule), (unsigned long long)heaps,
                      cli_quote(stored), cli_quote(rule));
        cli_rec_end(&rec);
    }
    cs->count++;
    return 0;
}

static int cmd_list(const cli_args *a, int json)
{
    static const char *const statuses[] = {"periodic", "arithmetic-periodic",
                                           "unresolved", "proven", NULL};
    static const char *const families[] = {
        "subtract", "all-but", "octal", "hex", "take-and-break", NULL};
    const char *status = cli_get(a, "--status"),
               *family = cli_get(a, "--family");
    list_state ls;
    ckpt_state ckpt;
    int with_ckpt;
    sg_store *db;
    sg_error err;
    char *path = NULL;
    size_t i, total;
    int rc, k;

    for (k = 0; status && statuses[k] && strcmp(status, statuses[k]); k++)
        ;
    if (status && !statuses[k]) {
        cli_error("--status '%s': expected periodic, arithmetic-periodic, "
                  "unresolved or proven",
                  cli_quote(status));
        return EXIT_USAGE;
    }
    for (k = 0; family && families[k] && strcmp(family, families[k]); k++)
        ;
    if (family && !families[k]) {
        cli_error("--family '%s': expected subtract, all-but, octal, hex or "
                  "take-and-break",
                  cli_quote(family));
        return EXIT_USAGE;
    }
    if ((rc = cli_cache_open(&db, &path, a, 1))) {
        free(path);
        return rc;
    }
    memset(&ls, 0, sizeof ls);
    ckpt.count = 0;
    ckpt.json = json;
    ckpt.family = family;
    ls.status = status;
    ls.json = json;
    ls.db = db;
    if (db && sg_store_list(
                  db, status && strcmp(status, "proven") == 0 ? NULL : status,
                  family, list_visit, &ls, &err) != SG_OK)
        rc = cli_report(NULL, NULL, &err);
    else if (ls.failed)
        rc = cli_report(NULL, NULL, &ls.err);
    else if (ls.nomem)
        rc = (cli_error("out of memory"), EXIT_RUNTIME);
    total = ls.count[0] + ls.count[1] + ls.count[2];
    /* A checkpoint is a deep run's unfinished state: listed unless only
     * periodic rules were asked for; in JSON before the summary, in the
     * text after it. */
    with_ckpt = db && (!status || strcmp(status, "unresolved") == 0);
    if (!rc && json && with_ckpt &&
        sg_store_checkpoint_list(db, checkpoint_line, &ckpt, &err) != SG_OK)
        rc = cli_report(NULL, NULL, &err);
    if (!rc && json) {
        cli_rec rec;
        cli_rec_begin(&rec, stdout, 1);
        cli_rec_obj(&rec, "summary");
        cli_rec_uint(&rec, "rules", total);
        cli_rec_uint(&rec, "periodic", ls.count[SG_PERIODIC]);
        cli_rec_uint(&rec, "arithmetic-periodic", ls.count[SG_ARITH_PERIODIC]);
        cli_rec_uint(&rec, "unresolved", ls.count[SG_UNRESOLVED]);
        cli_rec_uint(&rec, "checkpoints", ckpt.count);
        cli_rec_end(&rec);
    } else if (!rc) {
        if (ls.n)
            print_table(&ls);
        printf("%zu rule%s (%zu periodic, %zu arithmetic-periodic, %zu "
               "unresolved) in %s%s\n",
               total, total == 1 ? "" : "s", ls.count[SG_PERIODIC],
               ls.count[SG_ARITH_PERIODIC], ls.count[SG_UNRESOLVED], path,
               db ? "" : " (no cache file yet)");
    }
    if (!rc && !json && with_ckpt &&
        sg_store_checkpoint_list(db, checkpoint_line, &ckpt, &err) != SG_OK)
        rc = cli_report(NULL, NULL, &err);
    for (i = 0; i < ls.n; i++) {
        free(ls.rows[i].rule);
        free(ls.rows[i].family);
        free(ls.rows[i].status);
        free(ls.rows[i].updated);
        free(ls.rows[i].given);
    }
    free(ls.rows);
    sg_store_close(db);
    free(path);
    return rc;
}

/* ------------------------------------------------------------------ */
/* cache show / drop / path                                             */
/* ------------------------------------------------------------------ */

/* The rule's key: the canonical form of the rule when it parses (any
 * form: positional, option or name), else the positional text as written,
 * so that rows of any vintage can be shown and dropped.  *bad receives
 * the parse failure's exit status (0 when it parsed). */
static char *rule_key(const cli_args *a, int *bad)
{
    cli_rule r;
    char *key = NULL;
    const char *text = cli_pos(a, 1);

    cli_rule_init(&r);
    /* A positional that does not parse may still be an old row's key: try
     * it quietly first. */
    if (text && cli_npos(a) == 2) {
        sg_error err;
        if (sg_rule_parse(&r.rule, SG_SYNTAX_RULE, text, &err) == SG_OK)
            key = sg_rule_canonical(&r.rule);
        else
            key = strdup(text), *bad = EXIT_USAGE;
        cli_rule_clear(&r);
        if (!key)
            cli_error("out of memory");
        return key;
    }
    /* Shift the positional rule (after the subcommand) to slot 1. */
    *bad = cli_rule_get(&r, a, 1, 0, NULL);
    if (!*bad && !(key = strdup(r.canon)))
        cli_error("out of memory");
    cli_rule_clear(&r);
    return key;
}

static int not_found(const cli_args *a, const char *key, int bad,
                     const char *path)
{
    if (bad) {
        cli_rule r;
        int rc;
        cli_rule_init(&r);
        rc = cli_rule_get(&r, a, 1, 0, NULL); /* prints the parse error */
        cli_rule_clear(&r);
        return rc ? rc : EXIT_USAGE;
    }
    cli_error("%s is not in the cache %s", cli_quote(key),
              path ? cli_quote(path) : "(no cache location)");
    return EXIT_RUNTIME;
}

static int cmd_show(const cli_args *a, int json)
{
    sg_store *db;
    sg_store_entry e;
    sg_seq s;
    sg_error err;
    char *path = NULL, *key;
    int rc, found = 0, bad = 0;
    cli_view v;

    if (cli_npos(a) > 2) {
        cli_error("cache show: one rule at a time");
        return EXIT_USAGE;
    }
    if (!(key = rule_key(a, &bad)))
        return bad ? bad : EXIT_RUNTIME;
    if ((rc = cli_cache_open(&db, &path, a, 1))) {
        free(key);
        free(path);
        return rc;
    }
    sg_store_entry_init(&e);
    sg_seq_init(&s);
    if (db && sg_store_get(db, key, &e, NULL, &found, &err)) {
        rc = cli_report(NULL, NULL, &err);
    } else if (!found) {
        /* a rule known only by its deep run's checkpoint */
        rc = db && !bad ? cli_deep_show(db, key, json) : -1;
        if (rc < 0)
            rc = not_found(a, key, bad, path);
    } else if (sg_store_get(db, key, &e, &s, &found, &err)) {
        /* The values too (a proven entry's checksum is checked). */
        rc = cli_report(NULL, NULL, &err);
    } else {
        if (!is_proven(&e))
            entry_observe(&e.res.observed, e.rule, &s);
        entry_view(&v, &e, &s);
        v.rerun = e.rule;
        v.open_values = 1;
        if (!rc) {
            cli_rec rec;
            cli_rec_begin(&rec, stdout, json);
            cli_view_write(&rec, &v);
            cli_view_values(&rec, &v);
            cli_rec_end(&rec);
        }
    }
    sg_seq_clear(&s);
    sg_store_entry_clear(&e);
    sg_store_close(db);
    free(key);
    free(path);
    return rc;
}

/* cache drop: the rule's row and values, and its deep-run checkpoint when
 * it has one; either is enough for a successful drop. */
static int cmd_drop(const cli_args *a, int json)
{
    sg_store *db;
    sg_error err;
    char *path = NULL, *key;
    int rc, found = 0, ckpt = 0, bad = 0;

    if (cli_npos(a) > 2) {
        cli_error("cache drop: one rule at a time");
        return EXIT_USAGE;
    }
    if (!(key = rule_key(a, &bad)))
        return bad ? bad : EXIT_RUNTIME;
    if ((rc = cli_cache_open(&db, &path, a, 1)) == EXIT_DONE && db) {
        /* Reopen for writing: the file exists. */
        sg_store_close(db);
        db = NULL;
        if (sg_store_open(&db, path, 0, &err))
            rc = cli_report(NULL, NULL, &err);
    }
    if (rc) {
    } else if (db && sg_store_drop(db, key, &found, &err)) {
        rc = cli_report(NULL, NULL, &err);
    } else if (db && sg_store_checkpoint_drop(db, key, &ckpt, &err)) {
        rc = cli_report(NULL, NULL, &err);
        if (found)
            cli_error("%s itself was dropped from %s; its deep-run "
                      "checkpoint, if any, was not",
                      cli_quote(key), cli_quote(path));
    } else if (!found && !ckpt) {
        rc = not_found(a, key, bad, path);
    } else {
        cli_rec rec;
        cli_rec_begin(&rec, stdout, json);
        cli_rec_str(&rec, "dropped", key);
        cli_rec_str(&rec, "path", path);
        cli_rec_bool(&rec, "rule", found);
        cli_rec_bool(&rec, "checkpoint", ckpt);
        if (!found)
            cli_rec_textf(&rec,
                          "dropped the deep-run checkpoint of %s from "
                          "%s\n",
                          cli_quote(key), cli_quote(path));
        else
            cli_rec_textf(&rec, "dropped %s%s from %s\n", cli_quote(key),
                          ckpt ? " and its deep-run checkpoint" : "",
                          cli_quote(path));
        cli_rec_end(&rec);
    }
    sg_store_close(db);
    free(key);
    free(path);
    return rc;
}

static int cmd_path(const cli_args *a, int json)
{
    char *path = cli_cache_path(cli_get(a, "--db"));

    if (cli_npos(a) > 1) {
        cli_error("cache path takes no rule");
        free(path);
        return EXIT_USAGE;
    }
    if (!path) {
        cli_error("no cache location: $SGEXPLORE_DB, $XDG_CACHE_HOME and "
                  "$HOME are unset");
        return EXIT_RUNTIME;
    }
    {
        cli_rec rec;
        cli_rec_begin(&rec, stdout, json);
        cli_rec_str(&rec, "path", path);
        cli_rec_textf(&rec, "%s\n", path);
        cli_rec_end(&rec);
    }
    free(path);
    return EXIT_DONE;
}

static int cache_run(const cli_command *self, cli_args *a)
{
    const char *sub = cli_pos(a, 0), *fmt = cli_get(a, "--format");
    int json = cli_json(a), list;

    if (!sub) {
        cli_help(stderr, self);
        return EXIT_USAGE;
    }
    list = strcmp(sub, "list") == 0;
    if (fmt && strcmp(fmt, "json") && strcmp(fmt, list ? "table" : "text")) {
        cli_error("--format '%s': expected %s or json", cli_quote(fmt),
                  list ? "table" : "text");
        return EXIT_USAGE;
    }
    if (!list && (cli_get(a, "--status") || cli_get(a, "--family"))) {
        cli_error("cache %s: --status and --family go with cache list",
                  cli_quote(sub));
        return EXIT_USAGE;
    }
    if (list) {
        if (cli_npos(a) > 1) {
            cli_error("cache list: unexpected argument '%s'",
                      cli_quote(cli_pos(a, 1)));
            return EXIT_USAGE;
        }
        return cmd_list(a, json);
    }
    if (strcmp(sub, "show") == 0)
        return cmd_show(a, json);
    if (strcmp(sub, "drop") == 0)
        return cmd_drop(a, json);
    if (strcmp(sub, "path") == 0)
        return cmd_path(a, json);
    if (strcmp(sub, "export-checkpoint") == 0)
        return cli_deep_export(a, json);
    if (strcmp(sub, "import-checkpoint") == 0)
        return cli_deep_import(a, json);
    if (strcmp(sub, "derive") == 0)
        return cli_cache_derive(a);
    cli_error("cache: unknown subcommand '%s' (list, show, drop, path, "
              "export-checkpoint, import-checkpoint or derive)",
              cli_quote(sub));
    return EXIT_USAGE;
}
