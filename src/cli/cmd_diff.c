/*
 * cmd_diff.c - `sgexplore diff RULE1 RULE2`: the first heap where two
 * rules' values differ, or a proof that they never do.
 *
 * When both periods are proven, say G_i(n + p_i) = G_i(n) + s_i from
 * n0_i, take m = max(n0_1, n0_2) and L = lcm(p_1, p_2): from m on,
 * G_i(n + L) = G_i(n) + d_i with d_i = L s_i / p_i.  With d_1 = d_2,
 * agreement over G(0 .. m + L - 1) gives agreement everywhere (induction:
 * G_1(n) = G_1(n - L) + d = G_2(n - L) + d = G_2(n)); with d_1 != d_2 the
 * difference D(n) = G_1(n) - G_2(n) grows by d_1 - d_2 != 0 every L heaps
 * from m, so D(n) and D(n + L) are never both 0 and the first difference
 * lies below m + 2L.  Otherwise only the values both know are compared:
 * a difference there is an answer, agreement is not (exit 3).
 */
#include "cli.h"

#include <stdlib.h>
#include <string.h>

/* Heaps compared at most (each is two sg_value_at). */
#define DIFF_MAX 100000000ULL

static const cli_opt diff_opts[] = {
    {"--max", NULL, "N", "compute at most N values of each rule when new"},
    {"--seconds", NULL, "S", "stop computing each rule after S seconds"},
    {NULL, NULL, NULL, NULL},
};

static int diff_run(const cli_command *self, cli_args *a);

const cli_command cli_cmd_diff = {
    "diff",
    "diff RULE1 RULE2 [--max N] [--db PATH | --no-cache]",
    "The first heap where two rules' Sprague-Grundy values differ, or a\n"
    "proof that they never do when both periods are proven (compared over\n"
    "max(n0) + lcm(p1, p2) heaps, twice that when the saltus per heap\n"
    "differs).  Exit 3 when neither is known: the values agree as far as\n"
    "they are computed but a period is unproven.",
    CLI_CMD_CACHE | CLI_CMD_EXIT3,
    diff_opts,
    diff_run,
};

static int proven(const sg_result *r)
{
    return r->status == SG_PERIODIC || r->status == SG_ARITH_PERIODIC;
}

/* How far to compare: 1 with *end (exclusive) and *proof when both are
 * proven (and the bound fits), 0 otherwise (the common computed range). */
static int compare_end(const cli_flow *f1, const cli_flow *f2, uint64_t *end,
                       int *proof)
{
    const sg_result *r1 = &f1->res, *r2 = &f2->res;
    uint64_t p1, p2, g, L, m;
    unsigned __int128 d1, d2, e;

    *proof = 0;
    if (!proven(r1) || !proven(r2)) {
        uint64_t n1 = proven(r1) ? UINT64_MAX : f1->seq.n;
        uint64_t n2 = proven(r2) ? UINT64_MAX : f2->seq.n;
        *end = n1 < n2 ? n1 : n2;
        return 0;
    }
    p1 = r1->period;
    p2 = r2->period;
    for (g = p1, L = p2; L;) {
        uint64_t t = g % L;
        g = L;
        L = t;
    }
    e = (unsigned __int128)(p1 / g) * p2; /* lcm */
    m = r1->preperiod > r2->preperiod ? r1->preperiod : r2->preperiod;
    /* d_1 = d_2 exactly when s_1 p_2 = s_2 p_1 */
    d1 = (unsigned __int128)r1->saltus * p2;
    d2 = (unsigned __int128)r2->saltus * p1;
    e = m + (d1 == d2 ? e : 2 * e);
    if (e > DIFF_MAX)
        return -1;
    *end = (uint64_t)e;
    *proof = 1;
    return 1;
}

static void rule_line(cli_rec *rec, int i, const cli_flow *f)
{
    const sg_result *r = &f->res;

    cli_rec_obj(rec, NULL);
    cli_rec_str(rec, "rule", f->r.canon);
    cli_rec_str(rec, "status", sg_period_status_name(r->status));
    cli_rec_textf(rec, "rule %d: %s, %s", i, cli_quote(f->r.canon),
                  sg_period_status_name(r->status));
    if (proven(r)) {
        cli_rec_uint(rec, "preperiod", r->preperiod);
        cli_rec_uint(rec, "period", r->period);
        cli_rec_uint(rec, "saltus", r->saltus);
        cli_rec_textf(rec, " (pre-period %llu, period %llu",
                      (unsigned long long)r->preperiod,
                      (unsigned long long)r->period);
        if (r->saltus)
            cli_rec_textf(rec, ", saltus %llu", (unsigned long long)r->saltus);
        cli_rec_textf(rec, ")\n");
    } else {
        cli_rec_null(rec, "preperiod");
        cli_rec_null(rec, "period");
        cli_rec_null(rec, "saltus");
        cli_rec_textf(rec, " (G(0..%llu) computed)\n",
                      (unsigned long long)(f->seq.n ? f->seq.n - 1 : 0));
    }
    cli_rec_close(rec);
}

/* Compare G_1 and G_2 over [0, end): the first n where they differ, or
 * end. */
static uint64_t first_difference(const cli_flow *f1, const cli_flow *f2,
                                 uint64_t end, mpz_t y1, mpz_t y2)
{
    mpz_t n;
    uint64_t i;

    mpz_init(n);
    for (i = 0; i < end; i++) {
        mpz_set_ui(n, i);
        if (sg_value_at(y1, &f1->res, &f1->seq, n) != SG_OK ||
            sg_value_at(y2, &f2->res, &f2->seq, n) != SG_OK ||
            mpz_cmp(y1, y2) != 0)
            break;
    }
    mpz_clear(n);
    return i;
}

/* Rule k (a positional argument: diff takes no rule options) run
 * through the flow with --max and --seconds. */
static int run_rule(cli_flow *f, const cli_args *a, size_t k)
{
    uint64_t max;
    double seconds;
    int rc;

    if ((rc = cli_rule_parse_text(&f->r, "rule", cli_pos(a, k))) ||
        (rc = cli_flow_budget(a, &max, &seconds)))
        return rc;
    return cli_flow_run_rule(f, a, max, seconds, 0);
}

static int diff_run(const cli_command *self, cli_args *a)
{
    cli_flow f1, f2;
    cli_rec rec;
    uint64_t end = 0, at;
    int rc, proof = 0;
    mpz_t y1, y2;

    (void)self;
    if (cli_npos(a) != 2) {
        cli_error("diff: give two rules (codes, canonical forms or names), "
                  "not %zu",
                  cli_npos(a));
        return EXIT_USAGE;
    }
    cli_flow_init(&f1);
    cli_flow_init(&f2);
    mpz_init(y1);
    mpz_init(y2);
    if ((rc = run_rule(&f1, a, 0)) || (rc = run_rule(&f2, a, 1)))
        goto out;
    if (compare_end(&f1, &f2, &end, &proof) < 0) {
        cli_error("diff: the comparison needs more than 10^8 heaps "
                  "(max(n0) + lcm of the periods)");
        rc = EXIT_USAGE;
        goto out;
    }
    at = first_difference(&f1, &f2, end, y1, y2);
    cli_rec_begin(&rec, stdout, cli_json(a));
    cli_rec_arr(&rec, "rules");
    rule_line(&rec, 1, &f1);
    rule_line(&rec, 2, &f2);
    cli_rec_close(&rec);
    cli_rec_uint(&rec, "compared_to", end);
    if (at < end) {
        cli_rec_str(&rec, "result", "differ");
        cli_rec_uint(&rec, "first", at);
        cli_rec_arr(&rec, "values");
        cli_rec_mpz(&rec, NULL, y1);
        cli_rec_mpz(&rec, NULL, y2);
        cli_rec_close(&rec);
        cli_rec_textf(
            &rec, "first difference: n = %llu, G1 = ", (unsigned long long)at);
        cli_rec_text_mpz(&rec, y1);
        cli_rec_textf(&rec, ", G2 = ");
        cli_rec_text_mpz(&rec, y2);
        cli_rec_textf(&rec, "\n");
    } else {
        cli_rec_str(&rec, "result", proof ? "equal" : "unknown");
        cli_rec_null(&rec, "first");
        cli_rec_null(&rec, "values");
        if (proof)
            cli_rec_textf(&rec,
                          "equal: G1(n) = G2(n) for every n (both periods "
                          "proven; G(0..%llu) compared)\n",
                          (unsigned long long)(end - 1));
        else {
            cli_rec_textf(&rec,
                          "unknown: G1(n) = G2(n) for n < %llu, and a period "
                          "is not proven\n",
                          (unsigned long long)end);
            rc = EXIT_UNKNOWN;
        }
    }
    cli_rec_end(&rec);
out:
    mpz_clear(y1);
    mpz_clear(y2);
    rc = cli_flow_finish(&f2, cli_flow_finish(&f1, rc));
    cli_flow_clear(&f1);
    cli_flow_clear(&f2);
    return rc;
}
