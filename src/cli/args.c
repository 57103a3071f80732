/*
 * args.c - the one command-line scanner, driven by a command's table
 * entry, so that `--opt value`, `--opt=value`, unknown options, missing
 * values, --help, --json and the rule specification behave (and are
 * reported) the same in every command; and the number syntax shared by
 * --heap, --values, --range, --max and --position.
 */
#define _DEFAULT_SOURCE
#include "cli.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* Options every command takes, and those of rule and cache commands. */
static const cli_opt common_opts[] = {
    {"--json", NULL, NULL, "print JSON instead of text"},
    {"--help", "-h", NULL, "show this help"},
    {NULL, NULL, NULL, NULL},
};
static const cli_opt rule_opts[] = {
    {"--subtract", NULL, "LIST", "remove any s in LIST (2,3,5 or 1-3,7)"},
    {"--all-but", NULL, "LIST",
     "remove any number but those listed ('' is Nim)"},
    {"--octal", NULL, "CODE", "octal take-and-break code (0.77, 4.07)"},
    {"--hex", NULL, "CODE", "hexadecimal code (may leave three heaps)"},
    {"--rule", NULL, "CODE", "any code ('!', '[..]'), canonical form or name"},
    {"--grundy", NULL, NULL, "Grundy's game (4!.0)"},
    {NULL, NULL, NULL, NULL},
};
static const cli_opt cache_opts[] = {
    {"--db", NULL, "PATH", "the cache file (default: see sgexplore(1))"},
    {"--no-cache", NULL, NULL, "neither read nor write the cache"},
    {NULL, NULL, NULL, NULL},
};

/* One option occurrence. */
typedef struct found {
    const char *name; /* the table's canonical name */
    const char *val;  /* "" for a flag */
} found;

struct cli_args {
    const cli_command *cmd;
    found *opts;
    size_t nopts, opts_cap;
    const char **pos;
    size_t npos;
    int help;
};

/* The option groups c's table takes, in the order above: its own, the
 * rule options, the cache options, the common ones.  Returns how many. */
static size_t option_groups(const cli_opt *groups[4], const cli_command *c)
{
    size_t ng = 0;

    groups[ng++] = c->opts;
    if (c->flags & CLI_CMD_RULE)
        groups[ng++] = rule_opts;
    if (c->flags & CLI_CMD_CACHE)
        groups[ng++] = cache_opts;
    groups[ng++] = common_opts;
    return ng;
}

/* Find an option of c by name (or alias); groups in the order above. */
static const cli_opt *lookup(const cli_command *c, const char *arg, size_t len)
{
    const cli_opt *groups[4];
    size_t g, ng = option_groups(groups, c);

    for (g = 0; g < ng; g++) {
        const cli_opt *o;
        for (o = groups[g]; o && o->name; o++) {
            if ((strlen(o->name) == len && strncmp(o->name, arg, len) == 0) ||
                (o->alias && strlen(o->alias) == len &&
                 strncmp(o->alias, arg, len) == 0)) {
                if (g > 0 && groups[g] == cache_opts &&
                    (c->flags & CLI_CMD_NOCACHE_OPT) &&
                    strcmp(o->name, "--no-cache") == 0)
                    return NULL;
                return o;
            }
        }
    }
    return NULL;
}

const char *cli_args_cmd(const cli_args *a)
{
    return a->cmd->name[0] ? a->cmd->name : "sgexplore";
}

/* The help hint of usage errors: "sgexplore plot --help". */
static const char *help_hint(const cli_command *c)
{
    static char buf[64];

    snprintf(buf, sizeof buf, "sgexplore %s%s--help", c->name,
             c->name[0] ? " " : "");
    return buf;
}

static int add_opt(cli_args *a, const char *name, const char *val)
{
    if (sg_grow(&a->opts, &a->opts_cap, a->nopts + 1, sizeof *a->opts))
        return -1;
    a->opts[a->nopts].name = name;
    a->opts[a->nopts].val = val;
    a->nopts++;
    return 0;
}

cli_args *cli_args_scan(const cli_command *c, int argc, char **argv, int first,
                        int *rc)
{
    cli_args *a = calloc(1, sizeof *a);
    int i, dashdash = 0;

    *rc = EXIT_DONE;
    if (!a || !(a->pos = calloc((size_t)argc + 1, sizeof *a->pos))) {
        free(a);
        cli_error("out of memory");
        *rc = EXIT_RUNTIME;
        return NULL;
    }
    a->cmd = c;
    for (i = first; i < argc; i++) {
        const char *arg = argv[i], *eq, *val = NULL;
        const cli_opt *o;
        size_t len;

        if (dashdash || arg[0] != '-' || strcmp(arg, "-") == 0 ||
            (isdigit((unsigned char)arg[1]) && !lookup(c, arg, strlen(arg)))) {
            a->pos[a->npos++] = arg;
            continue;
        }
        if (strcmp(arg, "--") == 0) {
            dashdash = 1;
            continue;
        }
        eq = strncmp(arg, "--", 2) == 0 ? strchr(arg, '=') : NULL;
        len = eq ? (size_t)(eq - arg) : strlen(arg);
        o = lookup(c, arg, len);
        if (!o) {
            char name[64];
            snprintf(name, sizeof name, "%.*s", (int)(len < 60 ? len : 60),
                     arg);
            cli_error("%s%sunknown option '%s' (try %s)", c->name,
                      c->name[0] ? ": " : "", cli_quote(name), help_hint(c));
            goto usage;
        }
        if (!o->arg) {
            if (eq) {
                cli_error("%s takes no value", o->name);
                goto usage;
            }
            if (strcmp(o->name, "--help") == 0)
                a->help = 1;
            val = "";
        } else if (eq) {
            val = eq + 1;
        } else if (i + 1 < argc) {
            val = argv[++i];
        } else {
            cli_error("%s needs a value (%s)", o->name, o->arg);
            goto usage;
        }
        if (add_opt(a, o->name, val)) {
            cli_error("out of memory");
            *rc = EXIT_RUNTIME;
            cli_args_free(a);
            return NULL;
        }
    }
    if (!a->help && (c->flags & CLI_CMD_CACHE) && cli_get(a, "--db") &&
        cli_get(a, "--no-cache")) {
        cli_error("--db and --no-cache cannot be combined");
        goto usage;
    }
    return a;
usage:
    *rc = EXIT_USAGE;
    cli_args_free(a);
    return NULL;
}

void cli_args_free(cli_args *a)
{
    if (!a)
        return;
    free(a->opts);
    free(a->pos);
    free(a);
}

int cli_args_help(const cli_args *a)
{
    return a->help;
}

/* Whether c's table declares the option `name` (its canonical name; a
 * refused --no-cache is still declared: its group is in the table). */
static int declares(const cli_command *c, const char *name)
{
    const cli_opt *groups[4], *o;
    size_t g, ng = option_groups(groups, c);

    for (g = 0; g < ng; g++)
        for (o = groups[g]; o && o->name; o++)
            if (strcmp(o->name, name) == 0)
                return 1;
    return 0;
}

static const char *undeclared_name;

const char *cli_undeclared(void)
{
    return undeclared_name;
}

/* Asking for an option the command does not declare is a bug in the
 * program, not in the user's input: it must show in the tests (the
 * registry above, and one line on stderr) but never crash a user, so the
 * answer is "not given", as it always was. */
static int asked(const cli_args *a, const char *name)
{
    if (declares(a->cmd, name))
        return 1;
    if (!undeclared_name) {
        undeclared_name = name;
        cli_error("internal error: '%s' asked for the option %s, which it "
                  "does not declare (please report this)",
                  a->cmd->name[0] ? a->cmd->name : "sgexplore", name);
    }
    return 0;
}

int cli_declares(const cli_args *a, const char *name)
{
    return declares(a->cmd, name);
}

const char *cli_get(const cli_args *a, const char *name)
{
    size_t k = a->nopts;

    if (!asked(a, name))
        return NULL;

    while (k--)
        if (strcmp(a->opts[k].name, name) == 0)
            return a->opts[k].val;
    return NULL;
}

size_t cli_count(const cli_args *a, const char *name)
{
    size_t k, n = 0;

    if (!asked(a, name))
        return 0;
    for (k = 0; k < a->nopts; k++)
        n += strcmp(a->opts[k].name, name) == 0;
    return n;
}

const char *cli_get_nth(const cli_args *a, const char *name, size_t nth)
{
    size_t k;

    if (!asked(a, name))
        return NULL;
    for (k = 0; k < a->nopts; k++)
        if (strcmp(a->opts[k].name, name) == 0 && nth-- == 0)
            return a->opts[k].val;
    return NULL;
}

size_t cli_npos(const cli_args *a)
{
    return a->npos;
}

const char *cli_pos(const cli_args *a, size_t k)
{
    return k < a->npos ? a->pos[k] : NULL;
}

int cli_json(const cli_args *a)
{
    size_t k = a->nopts;

    /* The later of --json and --format (where declared) decides. */
    while (k--) {
        if (strcmp(a->opts[k].name, "--json") == 0)
            return 1;
        if (strcmp(a->opts[k].name, "--format") == 0)
            return strcmp(a->opts[k].val, "json") == 0;
    }
    return 0;
}

/* ------------------------------------------------------------------ */
/* Help                                                                 */
/* ------------------------------------------------------------------ */

static void help_group(FILE *f, const char *title, const cli_opt *o)
{
    if (!o || !o->name)
        return;
    fprintf(f, "\n%s:\n", title);
    for (; o->name; o++) {
        char left[64];
        snprintf(left, sizeof left, "%s%s%s%s%s", o->alias ? o->alias : "",
                 o->alias ? ", " : "", o->name, o->arg ? " " : "",
                 o->arg ? o->arg : "");
        if (strlen(left) > 22)
            fprintf(f, "  %s\n  %-22s  %s\n", left, "", o->help);
        else
            fprintf(f, "  %-22s  %s\n", left, o->help);
    }
}

void cli_help(FILE *f, const cli_command *c)
{
    const char *s = c->synopsis, *nl;
    int first = 1;

    /* The synopsis, one "sgexplore ..." line each. */
    do {
        nl = strchr(s, '\n');
        fprintf(f, "%s sgexplore %.*s\n", first ? "Usage:" : "      ",
                (int)(nl ? nl - s : (long)strlen(s)), s);
        first = 0;
        if (nl)
            s = nl + 1; /* NULL + 1 is undefined (UBSan) */
    } while (nl);
    fprintf(f, "%s\n", c->summary);
    help_group(f, "Options", c->opts);
    if (c->flags & CLI_CMD_RULE) {
        help_group(f,
                   "Rule (exactly one; or as an argument: a code, a "
                   "canonical form\nsuch as subtract{1,3,4}, or a name: "
                   "kayles, dawson, officers, grundy, nim)",
                   rule_opts);
    }
    if (c->flags & CLI_CMD_CACHE) {
        fputs("\nCache:\n", f);
        fprintf(f, "  %-22s  %s\n", "--db PATH", cache_opts[0].help);
        if (!(c->flags & CLI_CMD_NOCACHE_OPT))
            fprintf(f, "  %-22s  %s\n", "--no-cache", cache_opts[1].help);
    }
    help_group(f, "Common", common_opts);
    if (c->flags & CLI_CMD_EXIT3)
        fputs("\nExit status: 0 done, 1 runtime failure, 2 bad input, 3 no "
              "proven\nanswer to a question.  See sgexplore(1).\n",
              f);
    else
        fputs("\nExit status: 0 done, 1 runtime failure, 2 bad input.  See "
              "sgexplore(1).\n",
              f);
}

/* ------------------------------------------------------------------ */
/* Rules                                                                */
/* ------------------------------------------------------------------ */

void cli_rule_init(cli_rule *r)
{
    memset(r, 0, sizeof *r);
    sg_rule_init(&r->rule);
}

void cli_rule_clear(cli_rule *r)
{
    sg_rule_clear(&r->rule);
    free(r->canon);
    memset(r, 0, sizeof *r);
}

static int rule_load(cli_rule *out, sg_rule_syntax syntax, const char *from,
                     const char *text)
{
    sg_error err;

    out->given = text;
    out->from = from;
    if (sg_rule_parse(&out->rule, syntax, text, &err))
        return cli_report(from, text, &err);
    if (!(out->canon = sg_rule_canonical(&out->rule))) {
        cli_error("out of memory");
        return EXIT_RUNTIME;
    }
    return EXIT_DONE;
}

int cli_rule_parse_text(cli_rule *out, const char *from, const char *text)
{
    return rule_load(out, SG_SYNTAX_RULE, from, text);
}

/* The options that give a rule, on the command line and in a rules
 * file's line. */
static const struct {
    const char *name;
    sg_rule_syntax syntax;
} forms[] = {
    {"--subtract", SG_SYNTAX_SUBTRACT}, {"--all-but", SG_SYNTAX_ALLBUT},
    {"--octal", SG_SYNTAX_OCTAL},       {"--hex", SG_SYNTAX_HEX},
    {"--rule", SG_SYNTAX_RULE},         {"--grundy", SG_SYNTAX_GRUNDY},
};

/* Whether text is a set expression (`4+3k`, `1,3,4`) that is no rule:
 * a bare set could be a subtraction or an all-but game. */
static int set_not_rule(const char *text)
{
    sg_rule r;
    int is_set;

    sg_rule_init(&r);
    is_set = sg_rule_parse(&r, SG_SYNTAX_RULE, text, NULL) != SG_OK;
    sg_rule_clear(&r);
    if (is_set) {
        sg_rule_init(&r);
        is_set = sg_rule_parse(&r, SG_SYNTAX_SUBTRACT, text, NULL) == SG_OK;
        sg_rule_clear(&r);
    }
    return is_set;
}

int cli_rule_parse_line(cli_rule *out, const char *from, const char *text)
{
    size_t k, len;
    const char *arg;

    for (k = 0; k < sizeof forms / sizeof *forms; k++) {
        len = strlen(forms[k].name);
        if (strncmp(text, forms[k].name, len) != 0 ||
            (text[len] && text[len] != ' ' && text[len] != '\t' &&
             text[len] != '='))
            continue;
        for (arg = text + len; *arg == ' ' || *arg == '\t' || *arg == '=';)
            arg++;
        if ((forms[k].syntax == SG_SYNTAX_GRUNDY) != (*arg == '\0')) {
            cli_error("%s '%s': %s %s", from, cli_quote(text), forms[k].name,
                      *arg ? "takes no argument" : "needs its argument");
            return EXIT_USAGE;
        }
        return rule_load(out, forms[k].syntax, from, arg);
    }
    if (set_not_rule(text)) {
        cli_error("%s '%s': a set is not a rule: write --subtract %s, "
                  "--all-but %s or subtract{%s}",
                  from, cli_quote(text), cli_quote(text), cli_quote(text),
                  cli_quote(text));
        return EXIT_USAGE;
    }
    return rule_load(out, SG_SYNTAX_RULE, from, text);
}

int cli_rule_get(cli_rule *out, const cli_args *a, size_t pos, int optional,
                 int *present)
{
    size_t k, n = 0, which = 0;
    const char *positional = cli_pos(a, pos);

    for (k = 0; k < sizeof forms / sizeof *forms; k++) {
        size_t c = cli_count(a, forms[k].name);
        if (c) {
            n += c;
            which = k;
        }
    }
    if (positional)
        n++;
    if (present)
        *present = n > 0;
    if (n == 0 && optional)
        return EXIT_DONE;
    if (n != 1) {
        /* "plot: ..." but not "sgexplore: sgexplore: ...": cli_error
         * already names the program */
        const char *cmd = a->cmd->name;
        cli_error(n ? "%s%sgive only one rule"
                    : "%s%sno rule given: give a code, canonical form or "
                      "name (0.77, subtract{1,3,4}, kayles) or one of "
                      "--subtract, --all-but, --octal, --hex, --rule, "
                      "--grundy",
                  cmd, cmd[0] ? ": " : "");
        return EXIT_USAGE;
    }
    if (positional)
        return rule_load(out, SG_SYNTAX_RULE, "rule", positional);
    return rule_load(out, forms[which].syntax, forms[which].name,
                     forms[which].syntax == SG_SYNTAX_GRUNDY
                         ? "4!.0"
                         : cli_get(a, forms[which].name));
}

/* ------------------------------------------------------------------ */
/* Numbers                                                              */
/* ------------------------------------------------------------------ */

/* Longest number text accepted (digits and operators), and the largest
 * exponent of B^E: both keep a typo from asking for gigabytes. */
#define MAX_NUMBER_TEXT 4096
#define MAX_EXPONENT 100000

/* Most bits in the heaps of one position: B^E makes a short line a large
 * number, and a --positions file has up to a million lines. */
#define MAX_POSITION_BITS (1UL << 22)

int cli_parse_bignum(mpz_t out, const char *opt, const char *text)
{
    const char *p = text;
    mpz_t term, base;
    int sign = 1, rc = EXIT_DONE;

    if (strlen(text) > MAX_NUMBER_TEXT) {
        cli_error("%s: the number is longer than %d characters", opt,
                  MAX_NUMBER_TEXT);
        return EXIT_USAGE;
    }
    mpz_set_ui(out, 0);
    mpz_init(term);
    mpz_init(base);
    for (;;) {
        const char *q = p;
        while (isdigit((unsigned char)*q))
            q++;
        if (q == p)
            goto bad;
        {
            char *digits = strndup(p, (size_t)(q - p));
            if (!digits) {
                cli_error("out of memory");
                rc = EXIT_RUNTIME;
                goto done;
            }
            mpz_set_str(term, digits, 10);
            free(digits);
        }
        p = q;
        if (*p == '^') {
            unsigned long e = 0;
            q = ++p;
            while (isdigit((unsigned char)*q)) {
                e = e * 10 + (unsigned long)(*q - '0');
                if (e > MAX_EXPONENT) {
                    cli_error("%s '%s': exponents above %d are not "
                              "supported",
                              opt, cli_quote(text), MAX_EXPONENT);
                    rc = EXIT_USAGE;
                    goto done;
                }
                q++;
            }
            if (q == p)
                goto bad;
            mpz_set(base, term);
            mpz_pow_ui(term, base, e);
            p = q;
        }
        if (sign > 0)
            mpz_add(out, out, term);
        else
            mpz_sub(out, out, term);
        if (*p == '\0')
            break;
        if (*p != '+' && *p != '-')
            goto bad;
        sign = *p == '+' ? 1 : -1;
        p++;
    }
    if (mpz_sgn(out) < 0) {
        cli_error("%s '%s': the number is negative", opt, cli_quote(text));
        rc = EXIT_USAGE;
    }
    goto done;
bad:
    cli_error("%s '%s': expected a natural number in decimal, such as 1000, "
              "10^18 or 10^18+5 (at position %ld)",
              opt, cli_quote(text), (long)(p - text) + 1);
    rc = EXIT_USAGE;
done:
    mpz_clear(term);
    mpz_clear(base);
    return rc;
}

int cli_parse_span(mpz_t a, mpz_t b, const char *opt, const char *text)
{
    const char *colon = strchr(text, ':');
    char *left;
    int rc;

    if (!colon) {
        cli_error("%s '%s': expected A:B", opt, cli_quote(text));
        return EXIT_USAGE;
    }
    if (!(left = strndup(text, (size_t)(colon - text)))) {
        cli_error("out of memory");
        return EXIT_RUNTIME;
    }
    rc = cli_parse_bignum(a, opt, left);
    free(left);
    if (rc || (rc = cli_parse_bignum(b, opt, colon + 1)))
        return rc;
    if (mpz_cmp(b, a) < 0) {
        cli_error("%s '%s': the range is reversed", opt, cli_quote(text));
        return EXIT_USAGE;
    }
    return EXIT_DONE;
}

int cli_parse_range(mpz_t a, mpz_t b, const char *opt, const char *text,
                    uint64_t span)
{
    int rc = cli_parse_span(a, b, opt, text);
    mpz_t d;

    if (rc)
        return rc;
    mpz_init(d);
    mpz_sub(d, b, a);
    if (mpz_cmp_ui(d, (unsigned long)span) >= 0) {
        cli_error("%s '%s': at most %llu values at a time", opt,
                  cli_quote(text), (unsigned long long)span);
        rc = EXIT_USAGE;
    }
    mpz_clear(d);
    return rc;
}

int cli_parse_count(uint64_t *out, const char *opt, const char *text)
{
    mpz_t v;
    int rc;

    mpz_init(v);
    rc = cli_parse_bignum(v, opt, text);
    if (!rc && mpz_sizeinbase(v, 2) > 63) {
        cli_error("%s '%s': at most 2^63 - 1", opt, cli_quote(text));
        rc = EXIT_USAGE;
    } else if (!rc && mpz_sgn(v) == 0) {
        cli_error("%s must be at least 1", opt);
        rc = EXIT_USAGE;
    }
    if (!rc)
        *out = (uint64_t)mpz_get_ui(v);
    mpz_clear(v);
    return rc;
}

int cli_parse_seconds(double *out, const char *opt, const char *text)
{
    char *end;

    errno = 0;
    *out = strtod(text, &end);
    if (end == text || *end || errno || !(*out > 0) || *out > 1e9 ||
        !isdigit((unsigned char)text[0])) {
        cli_error("%s '%s': expected a positive number of seconds", opt,
                  cli_quote(text));
        return EXIT_USAGE;
    }
    return EXIT_DONE;
}

/* ------------------------------------------------------------------ */
/* Paths                                                                */
/* ------------------------------------------------------------------ */

int cli_check_folder(const char *opt, const char *path)
{
    const char *slash = strrchr(path, '/');
    struct stat sb;
    char *dir;
    int ok;

    if (!slash)
        return EXIT_DONE; /* the current folder */
    if (!(dir = strndup(path, slash == path ? 1 : (size_t)(slash - path)))) {
        cli_error("out of memory");
        return EXIT_RUNTIME;
    }
    ok = stat(dir, &sb) == 0 && S_ISDIR(sb.st_mode);
    if (!ok)
        cli_error("%s '%s': the folder '%s' does not exist", opt,
                  cli_quote(path), cli_quote(dir));
    free(dir);
    return ok ? EXIT_DONE : EXIT_USAGE;
}

/* ------------------------------------------------------------------ */
/* Rules files: `sweep rules FILE`                                      */
/* ------------------------------------------------------------------ */

void cli_rules_free(char **texts, unsigned long *lines, size_t n)
{
    size_t i;

    for (i = 0; i < n; i++)
        free(texts[i]);
    free(texts);
    free(lines);
}

int cli_rules_read(char ***texts_out, unsigned long **lines_out, size_t *n,
                   FILE *f, const char *path)
{
    char *line = NULL, **texts = NULL;
    size_t cap = 0, ntexts = 0, cap_texts = 0, cap_lines = 0;
    ssize_t len;
    unsigned long lineno = 0, *lines = NULL;
    int rc = EXIT_DONE;

    *texts_out = NULL;
    *lines_out = NULL;
    *n = 0;
    while ((len = getline(&line, &cap, f)) >= 0) {
        char *p = line, *e, *hash;
        lineno++;
        if ((hash = memchr(p, '#', (size_t)len)))
            *hash = '\0';
        while (*p == ' ' || *p == '\t')
            p++;
        e = p + strlen(p);
        while (e > p && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\n' ||
                         e[-1] == '\r'))
            *--e = '\0';
        if (!*p)
            continue;
        if (sg_grow(&texts, &cap_texts, ntexts + 1, sizeof *texts) ||
            sg_grow(&lines, &cap_lines, ntexts + 1, sizeof *lines) ||
            !(texts[ntexts] = strdup(p))) {
            rc = EXIT_RUNTIME;
            cli_error("out of memory");
            break;
        }
        lines[ntexts++] = lineno;
    }
    if (!rc && ferror(f)) {
        cli_error("cannot read the rules file '%s': %s", cli_quote(path),
                  strerror(errno));
        rc = EXIT_RUNTIME;
    }
    free(line);
    if (!rc && ntexts == 0) {
        cli_error("the rules file '%s' holds no rule", cli_quote(path));
        rc = EXIT_USAGE;
    }
    if (rc) {
        cli_rules_free(texts, lines, ntexts);
        return rc;
    }
    *texts_out = texts;
    *lines_out = lines;
    *n = ntexts;
    return EXIT_DONE;
}

/* ------------------------------------------------------------------ */
/* Positions: --position A,B,C and --positions FILE                     */
/* ------------------------------------------------------------------ */

/* Length of the number syntax of cli_parse_bignum at p (digits, B^E,
 * sums and differences), 0 when there is none: the separators of a
 * position are found around it. */
static size_t number_len(const char *p)
{
    const char *q = p;

    for (;;) {
        const char *d = q;
        while (isdigit((unsigned char)*q))
            q++;
        if (q == d)
            return 0;
        if (*q == '^') {
            d = ++q;
            while (isdigit((unsigned char)*q))
                q++;
            if (q == d)
                return 0;
        }
        if ((*q != '+' && *q != '-') || !isdigit((unsigned char)q[1]))
            return (size_t)(q - p);
        q++;
    }
}

static int is_blank(char c)
{
    return c == ' ' || c == '\t';
}

int cli_parse_heaps(mpz_t **out, size_t *n, const char *text, const char *what)
{
    const char *p = text;
    size_t cap = 1, k = 0, bits = 0;
    int rc = EXIT_USAGE;
    mpz_t *h;

    for (; *p; p++)
        cap += *p == ',' || is_blank(*p);
    if (!(h = malloc(cap * sizeof *h))) {
        cli_error("out of memory");
        return EXIT_RUNTIME;
    }
    p = text;
    for (;;) {
        size_t len;
        char *item;
        while (is_blank(*p))
            p++;
        len = number_len(p);
        if (len == 0 || (p[len] && p[len] != ',' && !is_blank(p[len]))) {
            cli_error("%s '%s': expected heap sizes such as 7, 10^18 or "
                      "10^18+5, separated by commas or spaces (at position "
                      "%ld)",
                      what, cli_quote(text), (long)(p + len - text) + 1);
            goto fail;
        }
        if (!(item = strndup(p, len))) {
            cli_error("out of memory");
            rc = EXIT_RUNTIME;
            goto fail;
        }
        mpz_init(h[k++]);
        rc = cli_parse_bignum(h[k - 1], what, item);
        free(item);
        if (rc)
            goto fail;
        rc = EXIT_USAGE;
        bits += mpz_sizeinbase(h[k - 1], 2);
        if (bits > MAX_POSITION_BITS) {
            cli_error("%s '%s': the heaps hold more than %lu bits", what,
                      cli_quote(text), MAX_POSITION_BITS);
            goto fail;
        }
        p += len;
        while (is_blank(*p))
            p++;
        if (!*p)
            break;
        if (*p == ',')
            p++; /* a heap must follow: "1,,2" and "1," are refused */
    }
    *out = h;
    *n = k;
    return EXIT_DONE;
fail:
    while (k)
        mpz_clear(h[--k]);
    free(h);
    return rc;
}

void cli_heaps_free(mpz_t *h, size_t n)
{
    while (n)
        mpz_clear(h[--n]);
    free(h);
}

int cli_positions_read(cli_position_item **out, size_t *nout, FILE *in,
                       const char *path)
{
    cli_position_item *items = NULL;
    size_t count = 0, alloc = 0, cap = 0, lineno = 0;
    char *line = NULL;
    ssize_t len;
    int rc = EXIT_DONE;

    for (;;) {
        char what[64];
        char *s;
        errno = 0;
        if ((len = getline(&line, &cap, in)) < 0) {
            if (errno == ENOMEM) {
                cli_error("out of memory");
                rc = EXIT_RUNTIME;
            }
            break;
        }
        s = line;
        lineno++;
        while (len && (line[len - 1] == '\n' || line[len - 1] == '\r'))
            line[--len] = '\0';
        while (*s == ' ' || *s == '\t')
            s++;
        if (*s == '\0' || *s == '#')
            continue;
        if (len > CLI_MAX_POSITION_LINE) {
            cli_error("--positions %s line %zu: longer than %d characters",
                      cli_quote(path), lineno, CLI_MAX_POSITION_LINE);
            rc = EXIT_USAGE;
            break;
        }
        if (count == CLI_MAX_POSITIONS) {
            cli_error("--positions %s: more than %d positions", cli_quote(path),
                      CLI_MAX_POSITIONS);
            rc = EXIT_USAGE;
            break;
        }
        if (sg_grow(&items, &alloc, count + 1, sizeof *items)) {
            cli_error("out of memory");
            rc = EXIT_RUNTIME;
            break;
        }
        snprintf(what, sizeof what, "--positions line %zu", lineno);
        if ((rc = cli_parse_heaps(&items[count].h, &items[count].n, s, what)))
            break;
        if (!(items[count].text = strdup(s))) {
            cli_heaps_free(items[count].h, items[count].n);
            cli_error("out of memory");
            rc = EXIT_RUNTIME;
            break;
        }
        count++;
    }
    if (!rc && ferror(in)) {
        cli_error("--positions '%s': read error", cli_quote(path));
        rc = EXIT_RUNTIME;
    }
    free(line);
    if (rc) {
        cli_positions_free(items, count);
        items = NULL;
        count = 0;
    }
    *out = items;
    *nout = count;
    return rc;
}

void cli_positions_free(cli_position_item *items, size_t count)
{
    size_t i;

    for (i = 0; i < count; i++) {
        cli_heaps_free(items[i].h, items[i].n);
        free(items[i].text);
    }
    free(items);
}
