/*
 * cli_verify.c - `sgexplore verify RULE` and `sgexplore verify --certificate
 * FILE`: re-check a proven result without trusting the code that found it.
 * The values are recomputed with the straightforward reference method
 * (sg_enumerate_naive), and every hypothesis of the stated theorem and
 * every part of the claim is re-checked (sg_certificate_check).
 */
#define _DEFAULT_SOURCE
#include "cli.h"
#include "cli_store.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* Read a whole (small) file into a malloc'd string. */
static char *read_file(const char *path, sg_error *err)
{
    FILE *f = fopen(path, "r");
    char *buf = NULL;
    size_t len = 0, cap = 0, got;

    if (!f) {
        sg_error_set(err, SG_E_IO, -1, "cannot open '%s': %s", path,
                     strerror(errno));
        return NULL;
    }
    for (;;) {
        if (len + 4096 + 1 > cap) {
            char *nb;
            cap = cap ? 2 * cap : 8192;
            if (cap > (1u << 20)) {
                sg_error_set(err, SG_E_INPUT, -1,
                             "'%s' is too large to be a certificate", path);
                free(buf);
                fclose(f);
                return NULL;
            }
            nb = realloc(buf, cap);
            if (!nb) {
                free(buf);
                fclose(f);
                sg_error_set(err, SG_E_NOMEM, -1, "out of memory");
                return NULL;
            }
            buf = nb;
        }
        got = fread(buf + len, 1, 4096, f);
        len += got;
        if (got < 4096)
            break;
    }
    if (ferror(f)) {
        sg_error_set(err, SG_E_IO, -1, "cannot read '%s'", path);
        free(buf);
        fclose(f);
        return NULL;
    }
    fclose(f);
    buf[len] = '\0';
    return buf;
}

static const cli_option verify_options[] = {
    {"--certificate", 1}, {"--max", 1}, {"--db", 1},
    {"--no-cache", 0},    {NULL, 0},
};

int cli_verify_main(int argc, char **argv)
{
    cli_args a;
    const char *val;
    int k;
    const char *cert_path = NULL, *rule_text = NULL, *db = NULL;
    int no_cache = 0;
    cli_cache cache;
    char *cert_rule = NULL, *text = NULL, *canon = NULL;
    sg_rule rule;
    sg_seq seq, ref;
    sg_result claim;
    sg_error err;
    uint64_t fail_n, max = 0;
    int rc = EXIT_DONE;

    sg_rule_init(&rule);
    sg_seq_init(&seq);
    sg_seq_init(&ref);
    cli_cache_init(&cache);
    cli_args_init(&a, argc, argv, 1, "verify");
    while ((k = cli_args_next(&a, verify_options, &val)) != CLI_ARG_END) {
        if (k == CLI_ARG_ERROR)
            return EXIT_USAGE;
        if (k == CLI_ARG_POSITIONAL) {
            if (rule_text) {
                cli_error("verify: only one rule at a time");
                return EXIT_USAGE;
            }
            rule_text = val;
        } else if (strcmp(verify_options[k].name, "--certificate") == 0) {
            cert_path = val;
        } else if (strcmp(verify_options[k].name, "--max") == 0) {
            if ((rc = cli_parse_max(&max, "--max", val)))
                return rc;
        } else if (strcmp(verify_options[k].name, "--db") == 0) {
            db = val;
        } else {
            no_cache = 1;
        }
    }
    if (!cert_path && !rule_text) {
        cli_error("usage: sgexplore verify RULE | --certificate FILE");
        return EXIT_USAGE;
    }

    if (cert_path) {
        text = read_file(cert_path, &err);
        if (!text) {
            rc = cli_report(cert_path, NULL, &err);
            goto out;
        }
        if (sg_certificate_parse(&cert_rule, &claim, text, &err)) {
            rc = cli_report(cert_path, NULL, &err);
            goto out;
        }
        if (sg_rule_parse(&rule, SG_SYNTAX_RULE, cert_rule, &err)) {
            rc = cli_report("certificate rule", cert_rule, &err);
            goto out;
        }
        if (rule_text) {
            sg_rule other;
            char *oc;
            sg_rule_init(&other);
            if (sg_rule_parse(&other, SG_SYNTAX_RULE, rule_text, &err)) {
                rc = cli_report("rule", rule_text, &err);
                goto out;
            }
            oc = sg_rule_canonical(&other);
            canon = sg_rule_canonical(&rule);
            sg_rule_clear(&other);
            if (!oc || !canon || strcmp(oc, canon) != 0) {
                cli_error("the certificate is for rule '%s', not '%s'",
                          cert_rule, rule_text);
                free(oc);
                rc = EXIT_USAGE;
                goto out;
            }
            free(oc);
        }
    } else {
        /* No certificate given: take the cached claim, or analyse the rule
         * (and cache the result); either way it is checked independently
         * below. */
        if ((rc = cli_rule_load(&rule, &canon, SG_SYNTAX_RULE, "rule",
                                rule_text)))
            goto out;
        rc = cli_cache_begin(&cache, db, no_cache, canon, &claim, &seq);
        if (rc)
            goto out;
        if (!cache.proven) {
            sg_status st = sg_analyse(
                &claim, &seq, &rule, max ? (size_t)max : cli_default_max(&rule),
                &cli_cancel, &err);
            rc = cli_cache_end(&cache, &rule, canon, &claim, &seq, st, NULL,
                               &err);
            if (st || rc) {
                if (!rc)
                    rc = cli_report(NULL, NULL, &err);
                goto out;
            }
        }
        if (claim.status == SG_UNRESOLVED) {
            printf("nothing to verify: no period is proven for n < %llu\n",
                   (unsigned long long)seq.n);
            rc = EXIT_UNKNOWN;
            goto out;
        }
        printf("source: %s\n", cli_cache_source(&cache, &seq));
    }
    if (!canon)
        canon = sg_rule_canonical(&rule);

    /* The independent recomputation. */
    if (sg_seq_check_size((size_t)claim.certified_to + 1, &err) ||
        sg_enumerate_naive(&ref, &rule, (size_t)claim.certified_to + 1,
                           &cli_cancel, &err)) {
        rc = cli_report(NULL, NULL, &err);
        goto out;
    }
    printf("rule: %s\n", canon ? canon : "?");
    printf("claim: %s, preperiod %llu, period %llu, saltus %llu\n",
           claim.status == SG_ARITH_PERIODIC ? "arithmetic-periodic"
                                             : "periodic",
           (unsigned long long)claim.preperiod,
           (unsigned long long)claim.period, (unsigned long long)claim.saltus);
    printf("theorem: %s\n", claim.theorem_id ? claim.theorem_id : "?");
    printf("recomputed: G(0..%llu) with the reference method\n",
           (unsigned long long)claim.certified_to);
    if (sg_certificate_check(&rule, &claim, &ref, &fail_n, &err)) {
        printf("confirmed\n");
        rc = EXIT_DONE;
    } else {
        if (fail_n != UINT64_MAX)
            printf("refuted at n = %llu: %s\n", (unsigned long long)fail_n,
                   err.msg);
        else
            printf("refuted: %s\n", err.msg);
        rc = EXIT_RUNTIME;
    }
out:
    cli_cache_clear(&cache);
    free(text);
    free(cert_rule);
    free(canon);
    sg_seq_clear(&seq);
    sg_seq_clear(&ref);
    sg_rule_clear(&rule);
    return rc;
}
