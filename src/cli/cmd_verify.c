/*
 * cmd_verify.c - `sgexplore verify RULE` and `sgexplore verify --certificate
 * FILE`: re-check a proven result without trusting the code that found it.
 * The values are recomputed with the straightforward reference method
 * (sg_enumerate_naive), and every hypothesis of the stated theorem and
 * every part of the claim is re-checked (sg_certificate_check).
 */
#define _DEFAULT_SOURCE
#include "cli.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* Read a whole (small) file into a malloc'd string. */
static char *read_file(const char *path, sg_error *err)
{
    FILE *f = fopen(path, "r");
    char *buf = NULL;
    size_t len = 0, cap = 0, got;

    if (!f && errno == ENOMEM) {
        sg_error_set(err, SG_E_NOMEM, -1, "out of memory");
        return NULL;
    }
    if (!f) {
        sg_error_set(err, SG_E_IO, -1, "cannot open '%s': %s", path,
                     strerror(errno));
        return NULL;
    }
    for (;;) {
        if (len + 4096 + 1 > (1u << 20)) {
            sg_error_set(err, SG_E_INPUT, -1,
                         "'%s' is too large to be a certificate", path);
            free(buf);
            fclose(f);
            return NULL;
        }
        if (sg_grow(&buf, &cap, len + 4096 + 1, 1)) {
            free(buf);
            fclose(f);
            sg_error_set(err, SG_E_NOMEM, -1, "out of memory");
            return NULL;
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

static const cli_opt verify_opts[] = {
    {"--certificate", NULL, "FILE",
     "check this certificate instead of the cached proof"},
    {"--max", NULL, "N", "compute at most N values when the rule is new"},
    {"--seconds", NULL, "S", "stop computing after S seconds"},
    {"--export-proof", NULL, "FILE.v",
     "also write a Coq proof script of the claimed period"},
    {NULL, NULL, NULL, NULL},
};

static int verify_run(const cli_command *self, cli_args *a);

const cli_command cli_cmd_verify = {
    "verify",
    "verify RULE [--max N] [--db PATH | --no-cache]\n"
    "verify --certificate FILE [RULE]",
    "Re-check a proof without trusting the code that found it.  The values\n"
    "are recomputed with the straightforward reference method, and every\n"
    "hypothesis of the stated theorem and every part of the claim is\n"
    "checked.",
    CLI_CMD_RULE | CLI_CMD_CACHE | CLI_CMD_EXIT3,
    verify_opts,
    verify_run,
};

/* The claim of a certificate file: its rule parsed into fl->r, its
 * claim into fl->res.  RULE, when also given, must be the same rule. */
static int load_certificate(cli_flow *fl, const cli_args *a, const char *path)
{
    sg_error err;
    char *text, *cert_rule = NULL;
    cli_rule other;
    int rc, present;

    if (!(text = read_file(path, &err)))
        return cli_report(cli_quote(path), NULL, &err);
    if (sg_certificate_parse(&cert_rule, &fl->res, text, &err)) {
        free(text);
        return cli_report(cli_quote(path), NULL, &err);
    }
    free(text);
    rc = cli_rule_parse_text(&fl->r, "certificate rule", cert_rule);
    cli_rule_init(&other);
    if (!rc && !(rc = cli_rule_get(&other, a, 0, 1, &present)) && present &&
        strcmp(other.canon, fl->r.canon) != 0) {
        cli_error("the certificate is for rule '%s', not '%s'",
                  cli_quote(fl->r.canon), cli_quote(other.given));
        rc = EXIT_USAGE;
    }
    /* fl->r.given points into cert_rule: keep the canonical text only. */
    fl->r.given = fl->r.canon;
    cli_rule_clear(&other);
    free(cert_rule);
    fl->source = "certificate";
    return rc;
}

/* The answer of a verification: the claim's record (without the keys
 * derived from values) and the verdict, as text lines or JSON. */
static void verify_write(cli_rec *r, const cli_flow *fl, int from_cert, int ok,
                         uint64_t fail_n, const char *why)
{
    cli_view view;

    cli_flow_view(&view, fl);
    view.seq = NULL; /* the claim's values are the recomputed ones */
    view.computed = fl->res.certified_to + 1;
    if (r->json)
        cli_view_write(r, &view);
    cli_rec_uint(r, "recomputed_to", fl->res.certified_to);
    cli_rec_bool(r, "verified", ok);
    cli_rec_uint_or_null(r, "refuted_at", !ok && fail_n != UINT64_MAX, fail_n);
    cli_rec_str(r, "reason", ok ? NULL : why);
    if (!from_cert)
        cli_rec_textf(r, "source: %s\n", fl->source);
    cli_rec_textf(r, "rule: %s\n", fl->r.canon);
    cli_rec_textf(r, "claim: %s, preperiod %llu, period %llu, saltus %llu\n",
                  fl->res.status == SG_ARITH_PERIODIC ? "arithmetic-periodic"
                                                      : "periodic",
                  (unsigned long long)fl->res.preperiod,
                  (unsigned long long)fl->res.period,
                  (unsigned long long)fl->res.saltus);
    cli_rec_textf(r, "theorem: %s\n",
                  fl->res.theorem_id ? fl->res.theorem_id : "?");
    cli_rec_textf(r, "recomputed: G(0..%llu) with the reference method\n",
                  (unsigned long long)fl->res.certified_to);
    if (ok)
        cli_rec_textf(r, "confirmed\n");
    else if (fail_n != UINT64_MAX)
        cli_rec_textf(r, "refuted at n = %llu: %s\n",
                      (unsigned long long)fail_n, why);
    else
        cli_rec_textf(r, "refuted: %s\n", why);
}

static int verify_run(const cli_command *self, cli_args *a)
{
    const char *cert_path = cli_get(a, "--certificate");
    const char *proof_path = cli_get(a, "--export-proof");
    int json = cli_json(a), rc = EXIT_DONE, ok;
    cli_flow fl;
    sg_seq ref;
    sg_error err;
    sg_enum_options eo;
    uint64_t fail_n;
    const char *why;
    cli_view view;
    cli_rec rec;

    (void)self;
    cli_flow_init(&fl);
    sg_seq_init(&ref);
    if (cli_npos(a) > 1) {
        cli_error("verify: one rule at a time");
        rc = EXIT_USAGE;
        goto out;
    }
    if (proof_path && (rc = cli_check_folder("--export-proof", proof_path)))
        goto out;
    if (cert_path) {
        if ((rc = load_certificate(&fl, a, cert_path)))
            goto out;
    } else {
        /* No certificate: take the cached claim, or analyse the rule (and
         * cache it); either way it is checked independently below. */
        if ((rc = cli_flow_run(&fl, a, 0, 0)))
            goto out;
        if (fl.res.status == SG_UNRESOLVED) {
            cli_flow_view(&view, &fl);
            view.seq = NULL; /* no values: the record's summary */
            cli_rec_begin(&rec, stdout, json);
            if (json)
                cli_view_write(&rec, &view);
            cli_rec_null(&rec, "recomputed_to");
            cli_rec_null(&rec, "verified");
            cli_rec_null(&rec, "refuted_at");
            cli_rec_str(&rec, "reason", "no period is proven");
            cli_rec_textf(&rec,
                          "nothing to verify: no period is proven for "
                          "n < %llu\n",
                          (unsigned long long)fl.seq.n);
            cli_rec_end(&rec);
            rc = EXIT_UNKNOWN;
            goto out;
        }
    }

    /* The independent recomputation. */
    memset(&eo, 0, sizeof eo);
    eo.cancel = &cli_cancel;
    if (fl.res.certified_to >= SIZE_MAX - 1 ||
        sg_seq_check_size((size_t)fl.res.certified_to + 1, &err) ||
        sg_enumerate_naive(&ref, &fl.r.rule, (size_t)fl.res.certified_to + 1,
                           &eo, &err)) {
        if (fl.res.certified_to >= SIZE_MAX - 1)
            sg_error_set(&err, SG_E_INPUT, -1, "the bound %llu is too large",
                         (unsigned long long)fl.res.certified_to);
        rc = cli_report(NULL, NULL, &err);
        goto out;
    }
    ok = sg_certificate_check(&fl.r.rule, &fl.res, &ref, &fail_n, &err);
    why = err.msg;
    rc = ok ? EXIT_DONE : EXIT_RUNTIME;
    cli_rec_begin(&rec, stdout, json);
    verify_write(&rec, &fl, cert_path != NULL, ok, fail_n, why);
    cli_rec_end(&rec);
    /* The claim (whatever the verdict above) as a Coq proof script:
     * coqc then judges it without trusting either checker. */
    if (proof_path) {
        int k = cli_export_proof(proof_path, &fl.r.rule, fl.r.canon, &fl.res);
        if (k)
            rc = k;
    }
out:
    rc = cli_flow_finish(&fl, rc);
    cli_flow_clear(&fl);
    sg_seq_clear(&ref);
    return rc;
}
