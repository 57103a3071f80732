/*
 * cli_opts.c - the one command-line scanner every command uses, so that
 * `--opt value`, `--opt=value`, unknown options, missing values and the
 * rule options behave (and are reported) the same everywhere.
 */
#define _DEFAULT_SOURCE
#include "cli.h"

#include <string.h>

void cli_args_init(cli_args *a, int argc, char **argv, int first,
                   const char *cmd)
{
    memset(a, 0, sizeof *a);
    a->argc = argc;
    a->argv = argv;
    a->i = first;
    a->cmd = cmd;
}

int cli_args_next(cli_args *a, const cli_option *opts, const char **val)
{
    const char *arg, *eq;
    const char *inline_val = NULL;
    size_t len;
    int k;

    *val = NULL;
    if (a->i >= a->argc)
        return CLI_ARG_END;
    arg = a->argv[a->i++];
    if (arg[0] != '-' || strcmp(arg, "-") == 0) {
        *val = arg;
        return CLI_ARG_POSITIONAL;
    }
    eq = strncmp(arg, "--", 2) == 0 ? strchr(arg, '=') : NULL;
    len = eq ? (size_t)(eq - arg) : strlen(arg);
    if (eq)
        inline_val = eq + 1;
    for (k = 0; opts[k].name; k++)
        if (strlen(opts[k].name) == len && strncmp(opts[k].name, arg, len) == 0)
            break;
    if (!opts[k].name) {
        cli_error("%s%sunknown option '%.*s' (try sgexplore %s%s--help)",
                  a->cmd ? a->cmd : "", a->cmd ? ": " : "", (int)len, arg,
                  a->cmd ? a->cmd : "", a->cmd ? " " : "");
        return CLI_ARG_ERROR;
    }
    if (!opts[k].takes_value) {
        if (inline_val) {
            cli_error("%s takes no value", opts[k].name);
            return CLI_ARG_ERROR;
        }
        return k;
    }
    if (!inline_val) {
        if (a->i >= a->argc) {
            cli_error("%s needs a value", opts[k].name);
            return CLI_ARG_ERROR;
        }
        inline_val = a->argv[a->i++];
    }
    *val = inline_val;
    return k;
}

int cli_rule_option(cli_rule_choice *c, const char *name, const char *val)
{
    static const struct {
        const char *name;
        sg_rule_syntax syntax;
    } rules[] = {
        {"--subtract", SG_SYNTAX_SUBTRACT}, {"--all-but", SG_SYNTAX_ALLBUT},
        {"--octal", SG_SYNTAX_OCTAL},       {"--hex", SG_SYNTAX_HEX},
        {"--rule", SG_SYNTAX_RULE},         {"--grundy", SG_SYNTAX_GRUNDY},
    };
    size_t k;

    for (k = 0; k < sizeof rules / sizeof *rules; k++)
        if (strcmp(name, rules[k].name) == 0) {
            c->syntax = rules[k].syntax;
            c->text = rules[k].syntax == SG_SYNTAX_GRUNDY ? "4!.0" : val;
            c->opt = rules[k].name;
            c->count++;
            return 1;
        }
    return 0;
}

int cli_rule_choice_check(const cli_rule_choice *c)
{
    if (c->count == 1)
        return EXIT_DONE;
    cli_error(c->count ? "give only one rule option"
                       : "no rule given: use --subtract, --all-but, --octal, "
                         "--hex, --rule or --grundy");
    return EXIT_USAGE;
}

int cli_rule_load(sg_rule *r, char **canon, sg_rule_syntax syntax,
                  const char *opt, const char *text)
{
    sg_error err;

    *canon = NULL;
    if (sg_rule_parse(r, syntax, text, &err))
        return cli_report(opt, text, &err);
    if (!(*canon = sg_rule_canonical(r))) {
        cli_error("out of memory");
        return EXIT_RUNTIME;
    }
    return EXIT_DONE;
}

int cli_parse_max(uint64_t *out, const char *opt, const char *val)
{
    sg_error err;

    if (sg_parse_u63(out, val, strlen(val), 0, &err))
        return cli_report(opt, val, &err);
    if (*out == 0) {
        cli_error("%s must be at least 1", opt);
        return EXIT_USAGE;
    }
    return EXIT_DONE;
}

int cli_parse_range(uint64_t *a, uint64_t *b, const char *opt, const char *text,
                    uint64_t span)
{
    const char *colon = strchr(text, ':');
    sg_error err;

    if (!colon) {
        cli_error("%s '%s': expected A:B", opt, text);
        return EXIT_USAGE;
    }
    if (sg_parse_u63(a, text, (size_t)(colon - text), 0, &err) ||
        sg_parse_u63(b, colon + 1, strlen(colon + 1), colon - text + 1, &err))
        return cli_report(opt, text, &err);
    if (*b < *a) {
        cli_error("%s '%s': the range is reversed", opt, text);
        return EXIT_USAGE;
    }
    if (*b - *a >= span) {
        cli_error("%s '%s': at most %llu values at a time", opt, text,
                  (unsigned long long)span);
        return EXIT_USAGE;
    }
    return EXIT_DONE;
}
