/*
 * cli_cache.c - `sgexplore cache list|show|drop|path`: look into the SQLite
 * cache without writing SQL (docs/CACHE.md documents the schema for those
 * who prefer sqlite3).  Only `drop` writes; the others open the file
 * read-only and never create it.
 */
#define _DEFAULT_SOURCE
#include "cli.h"
#include "cli_store.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

typedef struct cache_opts {
    const char *db;
    const char *status;
    const char *family;
    int json;
    const char *rule; /* show/drop */
} cache_opts;

static void cache_usage(FILE *f)
{
    fputs("Usage: sgexplore cache list [--status S] [--family F] "
          "[--format table|json]\n"
          "       sgexplore cache show RULE [--format text|json]\n"
          "       sgexplore cache drop RULE\n"
          "       sgexplore cache path\n"
          "Every form accepts --db PATH (default: $SGEXPLORE_DB, else\n"
          "$XDG_CACHE_HOME/sgexplore/cache.db, else "
          "~/.cache/sgexplore/cache.db).\n"
          "S is periodic, arithmetic-periodic, unresolved or proven; F is\n"
          "subtract, all-but, octal or hex.  RULE is a canonical form such "
          "as\n"
          "subtract{1,3,4} or any code --rule accepts.\n",
          f);
}

/* Options after the subcommand name; `nargs` positional arguments (the
 * rule) are expected. */
static const cli_option cache_options[] = {
    {"--db", 1},
    {"--format", 1},
    {"--json", 0},
    {NULL, 0},
};
static const cli_option list_options[] = {
    {"--db", 1},     {"--format", 1}, {"--json", 0},
    {"--status", 1}, {"--family", 1}, {NULL, 0},
};

static int parse_cache_opts(cache_opts *o, int argc, char **argv, int nargs,
                            int list)
{
    int k, npos = 0;
    cli_args a;
    const char *val;
    char cmd[32];

    memset(o, 0, sizeof *o);
    snprintf(cmd, sizeof cmd, "cache %s", argv[1]);
    cli_args_init(&a, argc, argv, 2, cmd);
    while ((k = cli_args_next(&a, list ? list_options : cache_options, &val)) !=
           CLI_ARG_END) {
        const char *name;
        if (k == CLI_ARG_ERROR)
            return EXIT_USAGE;
        if (k == CLI_ARG_POSITIONAL) {
            if (npos++ < nargs) {
                o->rule = val;
                continue;
            }
            cli_error("cache %s: unexpected argument '%s'", argv[1], val);
            return EXIT_USAGE;
        }
        name = (list ? list_options : cache_options)[k].name;
        if (strcmp(name, "--json") == 0) {
            o->json = 1;
            continue;
        }
        if (strcmp(name, "--db") == 0) {
            o->db = val;
        } else if (strcmp(name, "--status") == 0) {
            if (strcmp(val, "periodic") && strcmp(val, "arithmetic-periodic") &&
                strcmp(val, "unresolved") && strcmp(val, "proven")) {
                cli_error("--status '%s': expected periodic, "
                          "arithmetic-periodic, unresolved or proven",
                          val);
                return EXIT_USAGE;
            }
            o->status = val;
        } else if (strcmp(name, "--family") == 0) {
            if (strcmp(val, "subtract") && strcmp(val, "all-but") &&
                strcmp(val, "octal") && strcmp(val, "hex")) {
                cli_error("--family '%s': expected subtract, all-but, octal "
                          "or hex",
                          val);
                return EXIT_USAGE;
            }
            o->family = val;
        } else {
            if (strcmp(val, "json") == 0) {
                o->json = 1;
            } else if (strcmp(val, list ? "table" : "text") == 0) {
                o->json = 0;
            } else {
                cli_error("--format '%s': expected %s or json", val,
                          list ? "table" : "text");
                return EXIT_USAGE;
            }
        }
    }
    if (npos < nargs) {
        cli_error("cache %s: which rule? (e.g. sgexplore cache %s "
                  "'subtract{1,3,4}')",
                  argv[1], argv[1]);
        return EXIT_USAGE;
    }
    return EXIT_DONE;
}

/* Open the cache read-only (list, show) or for writing (drop).  *db is
 * NULL, with status 0, when there is no cache file yet. */
static int open_cache(sg_store **db, char **path, const char *db_opt, int write)
{
    struct stat sb;
    sg_error err;

    *db = NULL;
    *path = cli_cache_path(db_opt);
    if (!*path) {
        cli_error("no cache location: $SGEXPLORE_DB, $XDG_CACHE_HOME and "
                  "$HOME are unset (use --db PATH)");
        return EXIT_RUNTIME;
    }
    if (stat(*path, &sb) != 0)
        return EXIT_DONE;
    if (sg_store_open(db, *path, write ? 0 : SG_STORE_READONLY, &err))
        return cli_report(NULL, NULL, &err);
    return EXIT_DONE;
}

/* The rule's key: the canonical form of RULE when it parses, else RULE as
 * written (so rows of any vintage can be shown and dropped). */
static char *rule_key(const char *text, sg_error *perr, int *parsed)
{
    sg_rule r;
    char *key;

    sg_rule_init(&r);
    *parsed = sg_rule_parse(&r, SG_SYNTAX_RULE, text, perr) == SG_OK;
    key = *parsed ? sg_rule_canonical(&r) : strdup(text);
    sg_rule_clear(&r);
    return key;
}

/* ------------------------------------------------------------------ */
/* Printing entries                                                     */
/* ------------------------------------------------------------------ */

static int is_proven(const sg_store_entry *e)
{
    return e->res.status != SG_UNRESOLVED;
}

static void json_u64_or_null(int have, uint64_t v)
{
    if (have)
        printf("%llu", (unsigned long long)v);
    else
        fputs("null", stdout);
}

static void json_str_or_null(const char *s)
{
    if (s)
        cli_json_string(stdout, s);
    else
        fputs("null", stdout);
}

/* The keys of one entry, without the closing brace. */
static void print_entry_json(const sg_store_entry *e)
{
    int p = is_proven(e);

    fputs("{\"rule\":", stdout);
    cli_json_string(stdout, e->rule);
    fputs(",\"family\":", stdout);
    cli_json_string(stdout, e->family);
    fputs(",\"status\":", stdout);
    cli_json_string(stdout, sg_period_status_name(e->res.status));
    fputs(",\"preperiod\":", stdout);
    json_u64_or_null(p, e->res.preperiod);
    fputs(",\"period\":", stdout);
    json_u64_or_null(p, e->res.period);
    fputs(",\"saltus\":", stdout);
    json_u64_or_null(p, e->res.saltus);
    printf(",\"computed\":%llu", (unsigned long long)e->res.computed);
    fputs(",\"certified_to\":", stdout);
    json_u64_or_null(p, e->res.certified_to);
    fputs(",\"theorem\":", stdout);
    json_str_or_null(p ? e->theorem : NULL);
    if (p) {
        /* The certificate, with the keys the analysis prints. */
        fputs(",\"certificate\":{\"theorem\":", stdout);
        json_str_or_null(e->theorem_id);
        printf(",\"proof_start\":%llu,\"proof_period\":%llu,"
               "\"proof_saltus\":%llu,\"bound\":%llu,"
               "\"checksum\":\"fnv1a64:%016llx\"}",
               (unsigned long long)e->res.proof_start,
               (unsigned long long)e->res.proof_period,
               (unsigned long long)e->res.proof_saltus,
               (unsigned long long)e->res.certified_to,
               (unsigned long long)e->res.checksum);
    } else {
        fputs(",\"certificate\":null", stdout);
    }
    if (!p) {
        fputs(",\"note\":", stdout);
        cli_json_string(stdout, e->note ? e->note : "");
    }
    printf(",\"stored\":%llu", (unsigned long long)e->stored);
    fputs(",\"version\":", stdout);
    cli_json_string(stdout, e->version);
    fputs(",\"algorithm\":", stdout);
    cli_json_string(stdout, e->algorithm);
    printf(",\"elapsed\":%.3f", e->elapsed);
    fputs(",\"created\":", stdout);
    cli_json_string(stdout, e->created);
    fputs(",\"updated\":", stdout);
    cli_json_string(stdout, e->updated);
}

/* ------------------------------------------------------------------ */
/* cache list                                                           */
/* ------------------------------------------------------------------ */

typedef struct row {
    char *rule, *family, *status, *updated;
    int proven;
    uint64_t n0, p, s, computed;
} row;

typedef struct list_state {
    const cache_opts *o;
    row *rows;
    size_t n, cap;
    int nomem;
    size_t count[3]; /* by sg_period_status */
} list_state;

static int list_visit(const sg_store_entry *e, void *arg)
{
    list_state *ls = arg;
    row *r;

    if (ls->o->status && strcmp(ls->o->status, "proven") == 0 && !is_proven(e))
        return 0;
    ls->count[e->res.status <= SG_ARITH_PERIODIC ? e->res.status : 0]++;
    if (ls->o->json) {
        print_entry_json(e);
        fputs("}\n", stdout);
        return 0;
    }
    if (ls->n == ls->cap) {
        size_t nc = ls->cap ? 2 * ls->cap : 64;
        row *nr = realloc(ls->rows, nc * sizeof *nr);
        if (!nr) {
            ls->nomem = 1;
            return 1;
        }
        ls->rows = nr;
        ls->cap = nc;
    }
    r = &ls->rows[ls->n];
    r->rule = strdup(e->rule);
    r->family = strdup(e->family);
    r->status = strdup(sg_period_status_name(e->res.status));
    r->updated = strdup(e->updated);
    if (!r->rule || !r->family || !r->status || !r->updated) {
        free(r->rule);
        free(r->family);
        free(r->status);
        free(r->updated);
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

static void print_table(const list_state *ls)
{
    size_t i, wr = 4, wf = 6;

    for (i = 0; i < ls->n; i++) {
        if (strlen(ls->rows[i].rule) > wr)
            wr = strlen(ls->rows[i].rule);
        if (strlen(ls->rows[i].family) > wf)
            wf = strlen(ls->rows[i].family);
    }
    printf("%-*s  %-*s  %-19s  %9s  %9s  %6s  %12s  %s\n", (int)wr, "RULE",
           (int)wf, "FAMILY", "STATUS", "PREPERIOD", "PERIOD", "SALTUS",
           "COMPUTED", "UPDATED");
    for (i = 0; i < ls->n; i++) {
        const row *r = &ls->rows[i];
        char n0[24] = "-", p[24] = "-", s[24] = "-";
        if (r->proven) {
            snprintf(n0, sizeof n0, "%llu", (unsigned long long)r->n0);
            snprintf(p, sizeof p, "%llu", (unsigned long long)r->p);
            snprintf(s, sizeof s, "%llu", (unsigned long long)r->s);
        }
        printf("%-*s  %-*s  %-19s  %9s  %9s  %6s  %12llu  %s\n", (int)wr,
               r->rule, (int)wf, r->family, r->status, n0, p, s,
               (unsigned long long)r->computed, r->updated);
    }
}

static int cmd_list(int argc, char **argv)
{
    cache_opts o;
    list_state ls;
    sg_store *db;
    sg_error err;
    char *path = NULL;
    const char *status;
    size_t i, total;
    int rc;

    if ((rc = parse_cache_opts(&o, argc, argv, 0, 1)))
        return rc;
    if ((rc = open_cache(&db, &path, o.db, 0))) {
        free(path);
        return rc;
    }
    memset(&ls, 0, sizeof ls);
    ls.o = &o;
    status = o.status && strcmp(o.status, "proven") == 0 ? NULL : o.status;
    if (db &&
        sg_store_list(db, status, o.family, list_visit, &ls, &err) != SG_OK)
        rc = cli_report(NULL, NULL, &err);
    else if (ls.nomem)
        rc = (cli_error("out of memory"), EXIT_RUNTIME);
    total = ls.count[0] + ls.count[1] + ls.count[2];
    if (!rc && o.json) {
        printf("{\"summary\":{\"rules\":%zu,\"periodic\":%zu,"
               "\"arithmetic-periodic\":%zu,\"unresolved\":%zu}}\n",
               total, ls.count[SG_PERIODIC], ls.count[SG_ARITH_PERIODIC],
               ls.count[SG_UNRESOLVED]);
    } else if (!rc) {
        if (ls.n)
            print_table(&ls);
        printf("%zu rule%s (%zu periodic, %zu arithmetic-periodic, %zu "
               "unresolved) in %s%s\n",
               total, total == 1 ? "" : "s", ls.count[SG_PERIODIC],
               ls.count[SG_ARITH_PERIODIC], ls.count[SG_UNRESOLVED], path,
               db ? "" : " (no cache file yet)");
    }
    for (i = 0; i < ls.n; i++) {
        free(ls.rows[i].rule);
        free(ls.rows[i].family);
        free(ls.rows[i].status);
        free(ls.rows[i].updated);
    }
    free(ls.rows);
    sg_store_close(db);
    free(path);
    return rc;
}

/* ------------------------------------------------------------------ */
/* cache show / drop / path                                             */
/* ------------------------------------------------------------------ */

static void print_values(const sg_seq *s, uint64_t a, uint64_t b,
                         const char *sep)
{
    uint64_t i;
    for (i = a; i < b; i++)
        printf("%s%u", i > a ? sep : "", (unsigned)sg_seq_get(s, (size_t)i));
}

static void print_entry_text(const sg_store_entry *e, const sg_seq *s)
{
    int p = is_proven(e);

    printf("rule: %s\n", e->rule);
    printf("family: %s\n", e->family);
    if (p) {
        printf("status: %s (proven)\n", sg_period_status_name(e->res.status));
        printf("preperiod: %llu\n", (unsigned long long)e->res.preperiod);
        printf("period: %llu\n", (unsigned long long)e->res.period);
        if (e->res.status == SG_ARITH_PERIODIC)
            printf("saltus: %llu\n", (unsigned long long)e->res.saltus);
        printf("theorem: %s\n", e->theorem ? e->theorem : "(none)");
        if (e->theorem_id)
            printf("theorem id: %s\n", e->theorem_id);
        printf("certified: G(n+%llu) = G(n)%s checked from n = %llu; "
               "bound %llu; checksum fnv1a64:%016llx\n",
               (unsigned long long)e->res.proof_period,
               e->res.proof_saltus ? " + s" : "",
               (unsigned long long)e->res.proof_start,
               (unsigned long long)e->res.certified_to,
               (unsigned long long)e->res.checksum);
    } else {
        printf("status: unresolved (no period proven for n < %llu)\n",
               (unsigned long long)e->res.computed);
        if (e->note && *e->note)
            printf("note: %s\n", e->note);
    }
    printf("computed: %llu values\n", (unsigned long long)e->res.computed);
    printf("stored: %llu values\n", (unsigned long long)e->stored);
    if (p && s) {
        printf("preperiod values:");
        if (e->res.preperiod) {
            putchar(' ');
            print_values(s, 0, e->res.preperiod, " ");
        } else {
            printf(" (none)");
        }
        printf("\nperiod values: ");
        print_values(s, e->res.preperiod, e->res.preperiod + e->res.period,
                     " ");
        putchar('\n');
    }
    printf("version: %s\n", e->version);
    printf("algorithm: %s\n", e->algorithm);
    printf("elapsed: %.3f s\n", e->elapsed);
    printf("created: %s\n", e->created);
    printf("updated: %s\n", e->updated);
}

/* Report a rule that is not cached: a parse error when RULE did not
 * parse (exit 2), else "not in the cache" (exit 1). */
static int not_found(const char *text, const char *key, int parsed,
                     const sg_error *perr, const char *path)
{
    if (!parsed)
        return cli_report("rule", text, perr);
    cli_error("%s is not in the cache %s", key, path);
    return EXIT_RUNTIME;
}

static int cmd_show(int argc, char **argv)
{
    cache_opts o;
    sg_store *db;
    sg_store_entry e;
    sg_seq s;
    sg_error err, perr;
    char *path = NULL, *key = NULL;
    int rc, found = 0, parsed;

    if ((rc = parse_cache_opts(&o, argc, argv, 1, 0)))
        return rc;
    if ((rc = open_cache(&db, &path, o.db, 0))) {
        free(path);
        return rc;
    }
    sg_store_entry_init(&e);
    sg_seq_init(&s);
    key = rule_key(o.rule, &perr, &parsed);
    if (!key) {
        cli_error("out of memory");
        rc = EXIT_RUNTIME;
    } else if (db && sg_store_get(db, key, &e, NULL, &found, &err)) {
        rc = cli_report(NULL, NULL, &err);
    } else if (!found) {
        rc = not_found(o.rule, key, parsed, &perr, path);
    } else if (is_proven(&e) && sg_store_get(db, key, &e, &s, &found, &err)) {
        /* Proven: load the values too (which checks the checksum). */
        rc = cli_report(NULL, NULL, &err);
    } else if (o.json) {
        print_entry_json(&e);
        fputs(",\"values\":[", stdout);
        if (is_proven(&e) && s.n)
            print_values(&s, 0, e.res.preperiod + e.res.period, ",");
        fputs("]}\n", stdout);
    } else {
        print_entry_text(&e, is_proven(&e) ? &s : NULL);
    }
    sg_seq_clear(&s);
    sg_store_entry_clear(&e);
    sg_store_close(db);
    free(key);
    free(path);
    return rc;
}

static int cmd_drop(int argc, char **argv)
{
    cache_opts o;
    sg_store *db;
    sg_error err, perr;
    char *path = NULL, *key = NULL;
    int rc, found = 0, parsed;

    if ((rc = parse_cache_opts(&o, argc, argv, 1, 0)))
        return rc;
    if ((rc = open_cache(&db, &path, o.db, 1))) {
        free(path);
        return rc;
    }
    key = rule_key(o.rule, &perr, &parsed);
    if (!key) {
        cli_error("out of memory");
        rc = EXIT_RUNTIME;
    } else if (db && sg_store_drop(db, key, &found, &err)) {
        rc = cli_report(NULL, NULL, &err);
    } else if (!found) {
        rc = not_found(o.rule, key, parsed, &perr, path);
    } else {
        printf("dropped %s from %s\n", key, path);
    }
    sg_store_close(db);
    free(key);
    free(path);
    return rc;
}

static int cmd_path(int argc, char **argv)
{
    cache_opts o;
    char *path;
    int rc;

    if ((rc = parse_cache_opts(&o, argc, argv, 0, 0)))
        return rc;
    path = cli_cache_path(o.db);
    if (!path) {
        cli_error("no cache location: $SGEXPLORE_DB, $XDG_CACHE_HOME and "
                  "$HOME are unset");
        return EXIT_RUNTIME;
    }
    printf("%s\n", path);
    free(path);
    return EXIT_DONE;
}

int cli_cache_main(int argc, char **argv)
{
    const char *sub;
    int i;

    /* Options may come before the subcommand (`cache --db P list`): move
     * the first word that is not an option or --db's value to argv[1]. */
    for (i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--db") == 0 || strcmp(argv[i], "--format") == 0)
            i++;
        else if (argv[i][0] != '-' || strcmp(argv[i], "-") == 0)
            break;
    }
    if (i > 1 && i < argc) {
        char *word = argv[i];
        memmove(argv + 2, argv + 1, (size_t)(i - 1) * sizeof *argv);
        argv[1] = word;
    }
    sub = argc > 1 ? argv[1] : NULL;
    if (!sub || (sub[0] == '-' && strcmp(sub, "--help") && strcmp(sub, "-h"))) {
        cache_usage(stderr);
        return EXIT_USAGE;
    }
    if (strcmp(sub, "--help") == 0 || strcmp(sub, "-h") == 0 ||
        strcmp(sub, "help") == 0) {
        cache_usage(stdout);
        return EXIT_DONE;
    }
    if (strcmp(sub, "list") == 0)
        return cmd_list(argc, argv);
    if (strcmp(sub, "show") == 0)
        return cmd_show(argc, argv);
    if (strcmp(sub, "drop") == 0)
        return cmd_drop(argc, argv);
    if (strcmp(sub, "path") == 0)
        return cmd_path(argc, argv);
    cli_error("cache: unknown subcommand '%s' (list, show, drop or path)", sub);
    return EXIT_USAGE;
}
