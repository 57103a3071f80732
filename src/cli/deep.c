/*
 * deep.c - `sgexplore RULE --deep --max N`: a deep run (sg_deep,
 * docs/DEEP.md) through the cache.  The run resumes from the rule's
 * checkpoint when there is one, saves a new one every --checkpoint
 * seconds, when stopped (Ctrl-C, --seconds) and at the end, and answers
 * --heap and --values for the heaps whose values it kept.  A checkpoint is
 * replaced in one transaction, so a run killed at any moment resumes from
 * the last one saved.
 */
#define _DEFAULT_SOURCE
#include "cli.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

/* The largest --max of a deep run. */
#define DEEP_MAX_N ((uint64_t)1 << 48)
/* The default window, and the largest accepted. */
#define DEEP_WINDOW ((size_t)1 << 20)
#define DEEP_WINDOW_MAX ((size_t)1 << 30)
/* Seconds between checkpoints by default. */
#define DEEP_CHECKPOINT_S 300.0

static double now(void)
{
    struct timespec t;

    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

typedef struct deep_flow {
    cli_rule r;
    sg_deep d;
    sg_store *db;
    const char *source;
    uint64_t resumed_at; /* the checkpoint's heaps, when resumed */
    uint64_t max;
    double seconds, every, t0, spent;
    size_t start_n;      /* values when this process began computing */
    int budget_spent, saved;
    const char *stopped; /* why the run stopped short, or NULL */
} deep_flow;

/* Save the run's checkpoint (nothing without a cache).  Exit status. */
static int deep_save(deep_flow *f)
{
    sg_error err;
    void *blob;
    size_t len;
    const char *why;
    sg_status st;

    if (!f->db || f->d.seq.n == 0)
        return EXIT_DONE;
    if (sg_store_readonly(f->db, &why)) {
        if (!f->saved)
            cli_error("warning: %s; no checkpoint is stored", why);
        f->saved = 1;
        return EXIT_DONE;
    }
    if ((st = sg_deep_save(&f->d, &f->r.rule, &blob, &len, &err)) != SG_OK)
        return cli_report(NULL, NULL, &err);
    st = sg_store_checkpoint_put(f->db, f->r.canon, f->d.seq.n, blob, len,
                                 &err);
    free(blob);
    if (st != SG_OK) {
        cli_error("%s (the previous checkpoint, if any, is kept)", err.msg);
        return cli_status_exit(st);
    }
    f->saved = 1;
    return EXIT_DONE;
}

/* Open the cache and resume from the rule's checkpoint, if any. */
static int deep_begin(deep_flow *f, const cli_args *a, size_t window,
                      int window_given)
{
    sg_error err;
    char *path = NULL;
    uint64_t heaps;
    void *blob;
    size_t len;
    sg_status st;
    int rc;

    sg_deep_init(&f->d, window);
    f->source = "computed";
    rc = cli_cache_open(&f->db, &path, a, 0);
    free(path);
    if (rc || !f->db)
        return rc;
    st = sg_store_checkpoint_get(f->db, f->r.canon, &heaps, &blob, &len,
                                 &err);
    if (st == SG_E_UNKNOWN)
        return EXIT_DONE;
    if (st != SG_OK)
        return cli_report(NULL, NULL, &err);
    sg_deep_clear(&f->d);
    st = sg_deep_load(&f->d, &f->r.rule, blob, len, &err);
    free(blob);
    if (st != SG_OK) {
        cli_error("%s; `sgexplore cache drop %s` removes it", err.msg,
                  cli_quote(f->r.canon));
        sg_deep_init(&f->d, window);
        return cli_status_exit(st);
    }
    if (window_given && window != f->d.window) {
        cli_error("--window %zu: the checkpoint of %s (heap %llu) keeps "
                  "%zu values; drop it (`sgexplore cache drop %s`) to "
                  "start over with another window",
                  window, cli_quote(f->r.canon),
                  (unsigned long long)f->d.seq.n, f->d.window,
                  cli_quote(f->r.canon));
        return EXIT_USAGE;
    }
    f->resumed_at = f->d.seq.n;
    f->source = "checkpoint";
    return EXIT_DONE;
}

/* Compute up to --max in steps, saving every --checkpoint seconds. */
static int deep_compute(deep_flow *f)
{
    sg_enum_options o = cli_enum_options();
    size_t step = 16 * f->d.window;
    double last = now();
    sg_error err;
    sg_status st = SG_OK;
    int rc;

    f->start_n = f->d.seq.n;
    f->t0 = now();
    cli_progress_enable(1);
    cli_budget_start(f->seconds);
    while (f->d.seq.n < f->max) {
        uint64_t next = f->d.seq.n + step;
        if (next > f->max)
            next = f->max;
        st = sg_deep_extend(&f->d, &f->r.rule, (size_t)next, &o, &err);
        if (st != SG_OK)
            break;
        if (now() - last >= f->every && f->d.seq.n < f->max) {
            if ((rc = deep_save(f)) != EXIT_DONE) {
                cli_budget_stop();
                cli_progress_enable(0);
                return rc;
            }
            last = now();
        }
    }
    cli_budget_stop();
    cli_progress_enable(0);
    f->spent = now() - f->t0;
    if (f->d.seq.n > f->start_n && f->resumed_at)
        f->source = "resumed from a checkpoint";
    if (st == SG_E_INTERRUPTED && cli_cancel == 2) {
        cli_cancel = 0;
        f->budget_spent = 1;
        st = SG_OK;
    }
    rc = f->d.seq.n > f->start_n || !f->resumed_at ? deep_save(f) : EXIT_DONE;
    if (st == SG_E_INTERRUPTED) {
        if (f->db && f->saved && rc == EXIT_DONE)
            cli_error("interrupted after %zu values; the checkpoint is "
                      "stored in %s and a rerun resumes from it",
                      f->d.seq.n, sg_store_path(f->db));
        else
            cli_error("interrupted after %zu values (no checkpoint stored)",
                      f->d.seq.n);
        return EXIT_RUNTIME;
    }
    if (st == SG_E_UNKNOWN) {
        /* an honest stop: report what holds, then say why */
        static char why[sizeof err.msg];
        memcpy(why, err.msg, sizeof why);
        f->stopped = why;
        return rc;
    }
    if (st != SG_OK)
        return cli_report(NULL, NULL, &err);
    return rc;
}

static void json_sum(FILE *out, uint64_t h)
{
    fprintf(out, "\"fnv1a64:%016llx\"", (unsigned long long)h);
}

/* The parts of G that the run holds, as "G(a..b)" text. */
static void kept_text(FILE *out, const sg_deep *d)
{
    const sg_seq *s = &d->seq;

    if (!s->off) {
        fprintf(out, "kept: every value (the window of %zu has not moved "
                     "yet)\n",
                d->window);
        return;
    }
    fprintf(out, "kept: G(0..%zu), G(%zu..%zu) and the rare heaps\n",
            s->keep - 1, s->keep + s->off, s->n - 1);
}

static const char *parity_text(const sg_deep *d)
{
    return !d->parity    ? ""
           : d->pshift ? " with the heap's parity (h + 1) mod 2"
                       : " with the heap's parity h mod 2";
}

static void deep_text(FILE *out, deep_flow *f)
{
    sg_deep *d = &f->d;
    const sg_seq *s = &d->seq;
    uint64_t sum = sg_deep_checksum(d);

    fprintf(out, "rule: %s\n", f->r.canon);
    fprintf(out, "family: %s\n", sg_rule_family(&f->r.rule));
    fprintf(out, "source: %s", f->source);
    if (f->resumed_at)
        fprintf(out, " (at heap %llu)", (unsigned long long)f->resumed_at);
    fputc('\n', out);
    fprintf(out, "status: unresolved (deep run: values only, no period "
                 "search)\n");
    if (f->stopped)
        fprintf(out, "note: %s\n", f->stopped);
    else if (f->budget_spent)
        fprintf(out, "note: --seconds ran out%s\n",
                f->saved ? "; a rerun resumes from the checkpoint"
                         : " (no cache: nothing to resume from)");
    fprintf(out, "computed: G(0..%zu)\n", s->n ? s->n - 1 : 0);
    kept_text(out, d);
    if (s->n)
        fprintf(out, "largest value: %u, first at heap %zu\n",
                (unsigned)s->max, d->max_heap);
    fprintf(out, "sparse space: mask %u%s, %zu rare heaps, the last at %zu\n",
            (unsigned)d->mask, parity_text(d), d->nrare,
            d->nrare ? d->rpos[d->nrare - 1] : 0);
    fprintf(out, "checksum: fnv1a64:%016llx of G(0..%zu)\n",
            (unsigned long long)sum, s->n ? s->n - 1 : 0);
    if (d->nblocks)
        fprintf(out, "block checksums: %zu (of G(0..k*%zu-1)), the last "
                     "fnv1a64:%016llx\n",
                d->nblocks, SG_DEEP_BLOCK,
                (unsigned long long)d->blocks[d->nblocks - 1]);
    if (s->n > f->start_n && f->spent > 0)
        fprintf(out, "rate: %.3g values/s (%zu values in %.1f s)\n",
                (double)(s->n - f->start_n) / f->spent, s->n - f->start_n,
                f->spent);
}

static void deep_json(FILE *out, deep_flow *f)
{
    sg_deep *d = &f->d;
    const sg_seq *s = &d->seq;
    uint64_t sum = sg_deep_checksum(d);
    size_t i;

    fputs("\"rule\":", out);
    cli_json_string(out, f->r.canon);
    fputs(",\"family\":", out);
    cli_json_string(out, sg_rule_family(&f->r.rule));
    fputs(",\"source\":", out);
    cli_json_string(out, f->source);
    fputs(",\"status\":\"unresolved\"", out);
    fputs(",\"note\":", out);
    if (f->stopped)
        cli_json_string(out, f->stopped);
    else
        fputs(f->budget_spent ? "\"--seconds ran out\"" : "null", out);
    fprintf(out, ",\"computed\":%zu", s->n);
    fputs(",\"largest\":", out);
    if (s->n)
        fprintf(out, "{\"value\":%u,\"first\":%zu}", (unsigned)s->max,
                d->max_heap);
    else
        fputs("null", out);
    fprintf(out, ",\"sparse\":{\"mask\":%u,\"parity\":%s,\"parity_offset\":%d,"
                 "\"rare\":%zu,\"last_rare\":%zu}",
            (unsigned)d->mask, d->parity ? "true" : "false",
            d->parity ? d->pshift : 0, d->nrare,
            d->nrare ? d->rpos[d->nrare - 1] : 0);
    fprintf(out, ",\"deep\":{\"window\":%zu,\"kept\":", d->window);
    if (s->off)
        fprintf(out, "[[0,%zu],[%zu,%zu]]", s->keep - 1, s->keep + s->off,
                s->n - 1);
    else if (s->n)
        fprintf(out, "[[0,%zu]]", s->n - 1);
    else
        fputs("[]", out);
    fputs(",\"checksum\":", out);
    json_sum(out, sum);
    fprintf(out, ",\"block\":%zu,\"blocks\":[", SG_DEEP_BLOCK);
    for (i = 0; i < d->nblocks; i++) {
        if (i)
            fputc(',', out);
        json_sum(out, d->blocks[i]);
    }
    fprintf(out, "],\"resumed_at\":");
    if (f->resumed_at)
        fprintf(out, "%llu", (unsigned long long)f->resumed_at);
    else
        fputs("null", out);
    fprintf(out, ",\"full_scans\":%zu}", d->full_scans);
}

/* G(x) of a kept heap into *v; 0 when the run does not hold it. */
static int deep_value(const deep_flow *f, const mpz_t x, sg_value *v)
{
    size_t i;

    if (mpz_sizeinbase(x, 2) > 62 || mpz_sgn(x) < 0)
        return 0;
    i = (size_t)mpz_get_ui(x);
    if (!sg_seq_kept(&f->d.seq, i))
        return 0;
    *v = sg_seq_at(&f->d.seq, i);
    return 1;
}

/* Why G(x) is not known, as one line. */
static void unknown_text(FILE *out, const deep_flow *f, const char *given)
{
    const sg_seq *s = &f->d.seq;

    if (s->off)
        fprintf(out, "G(%s) = unknown (the deep run keeps G(0..%zu) and "
                     "G(%zu..%zu) only)\n",
                given, s->keep - 1, s->keep + s->off, s->n - 1);
    else
        fprintf(out, "G(%s) = unknown (computed: G(0..%zu))\n", given,
                s->n ? s->n - 1 : 0);
}

int cli_deep_show(sg_store *db, const char *key, int json)
{
    deep_flow f;
    sg_error err;
    uint64_t heaps;
    void *blob;
    size_t len;
    sg_status st;
    int rc = EXIT_DONE;

    memset(&f, 0, sizeof f);
    cli_rule_init(&f.r);
    if ((rc = cli_rule_parse_text(&f.r, "cache show", key)))
        return rc;
    st = sg_store_checkpoint_get(db, f.r.canon, &heaps, &blob, &len, &err);
    if (st == SG_OK) {
        st = sg_deep_load(&f.d, &f.r.rule, blob, len, &err);
        free(blob);
    }
    if (st != SG_OK) {
        rc = st == SG_E_UNKNOWN ? -1 : cli_report(NULL, NULL, &err);
    } else {
        f.source = "checkpoint";
        f.resumed_at = f.d.seq.n;
        f.start_n = f.d.seq.n;
        if (json) {
            fputc('{', stdout);
            deep_json(stdout, &f);
            fputs("}\n", stdout);
        } else {
            deep_text(stdout, &f);
        }
    }
    sg_deep_clear(&f.d);
    cli_rule_clear(&f.r);
    return rc;
}

static const char *const refused[] = {"--position", "--positions", "--plot",
                                      "--export-certificate", NULL};

int cli_deep_run(const cli_args *a)
{
    deep_flow f;
    uint64_t w = DEEP_WINDOW;
    size_t nheaps = cli_count(a, "--heap"), i;
    mpz_t x, va, vb;
    int rc, json = cli_json(a), unknown = 0;
    int quiet = cli_get(a, "--quiet") != NULL;
    const char *values = cli_get(a, "--values");

    memset(&f, 0, sizeof f);
    cli_rule_init(&f.r);
    mpz_init(x);
    mpz_init(va);
    mpz_init(vb);
    f.every = DEEP_CHECKPOINT_S;
    for (i = 0; refused[i]; i++)
        if (cli_get(a, refused[i])) {
            cli_error("%s does not go with --deep (a deep run keeps only "
                      "the ends of the sequence; see docs/DEEP.md)",
                      refused[i]);
            rc = EXIT_USAGE;
            goto out;
        }
    if ((rc = cli_rule_get(&f.r, a, 0, 0, NULL)))
        goto out;
    if (!sg_deep_applicable(&f.r.rule)) {
        cli_error("--deep: %s is not a rule the sparse method covers (moves "
                  "leaving at most two heaps, no repeating tail)",
                  cli_quote(f.r.canon));
        rc = EXIT_USAGE;
        goto out;
    }
    if (!cli_get(a, "--max")) {
        cli_error("--deep needs --max N (how far to go, up to 2^48)");
        rc = EXIT_USAGE;
        goto out;
    }
    if ((rc = cli_parse_count(&f.max, "--max", cli_get(a, "--max"))))
        goto out;
    if (f.max > DEEP_MAX_N) {
        cli_error("--max %llu: deep runs go up to 2^48 values",
                  (unsigned long long)f.max);
        rc = EXIT_USAGE;
        goto out;
    }
    if (cli_get(a, "--window") &&
        (rc = cli_parse_count(&w, "--window", cli_get(a, "--window"))))
        goto out;
    if (w < SG_DEEP_MIN_WINDOW || w > DEEP_WINDOW_MAX) {
        cli_error("--window %llu: between %zu and %zu values",
                  (unsigned long long)w, SG_DEEP_MIN_WINDOW, DEEP_WINDOW_MAX);
        rc = EXIT_USAGE;
        goto out;
    }
    if (cli_get(a, "--seconds") &&
        (rc = cli_parse_seconds(&f.seconds, "--seconds",
                                cli_get(a, "--seconds"))))
        goto out;
    /* 0: after every step (tests; a step is 16 windows of heaps) */
    if (cli_get(a, "--checkpoint") &&
        strcmp(cli_get(a, "--checkpoint"), "0") == 0)
        f.every = 0;
    else if (cli_get(a, "--checkpoint") &&
             (rc = cli_parse_seconds(&f.every, "--checkpoint",
                                     cli_get(a, "--checkpoint"))))
        goto out;
    if (values &&
        (rc = cli_parse_range(va, vb, "--values", values, 100000000)))
        goto out;
    for (i = 0; i < nheaps; i++)
        if ((rc = cli_parse_bignum(x, "--heap", cli_get_nth(a, "--heap", i))))
            goto out;
    if ((rc = deep_begin(&f, a, (size_t)w, cli_get(a, "--window") != NULL)))
        goto out;
    if ((rc = deep_compute(&f)) != EXIT_DONE && !f.stopped)
        goto out;

    if (json) {
        fputc('{', stdout);
        deep_json(stdout, &f);
        if (values) {
            fputs(",\"values\":[", stdout);
            for (mpz_set(x, va); mpz_cmp(x, vb) <= 0; mpz_add_ui(x, x, 1)) {
                sg_value v;
                if (mpz_cmp(x, va))
                    fputc(',', stdout);
                if (deep_value(&f, x, &v))
                    fprintf(stdout, "%u", (unsigned)v);
                else {
                    fputs("null", stdout);
                    unknown = 1;
                }
            }
            fputc(']', stdout);
        }
        if (nheaps) {
            fputs(",\"heaps\":[", stdout);
            for (i = 0; i < nheaps; i++) {
                sg_value v;
                cli_parse_bignum(x, "--heap", cli_get_nth(a, "--heap", i));
                fprintf(stdout, "%s{\"heap\":", i ? "," : "");
                cli_json_mpz(stdout, x);
                if (deep_value(&f, x, &v))
                    fprintf(stdout, ",\"value\":%u}", (unsigned)v);
                else {
                    fputs(",\"value\":null}", stdout);
                    unknown = 1;
                }
            }
            fputc(']', stdout);
        }
        fputs("}\n", stdout);
    } else {
        if (!(quiet && (nheaps || values)))
            deep_text(stdout, &f);
        if (values)
            for (mpz_set(x, va); mpz_cmp(x, vb) <= 0; mpz_add_ui(x, x, 1)) {
                sg_value v;
                char *t = mpz_get_str(NULL, 10, x);
                if (deep_value(&f, x, &v))
                    printf("G(%s) = %u\n", t, (unsigned)v);
                else {
                    unknown_text(stdout, &f, t);
                    unknown = 1;
                }
                free(t);
            }
        for (i = 0; i < nheaps; i++) {
            sg_value v;
            const char *given = cli_get_nth(a, "--heap", i);
            cli_parse_bignum(x, "--heap", given);
            if (deep_value(&f, x, &v))
                printf("G(%s) = %u\n", given, (unsigned)v);
            else {
                unknown_text(stdout, &f, given);
                unknown = 1;
            }
        }
    }
    if (f.stopped) {
        cli_error("%s", f.stopped);
        rc = EXIT_RUNTIME;
    } else if (unknown && rc == EXIT_DONE) {
        rc = EXIT_UNKNOWN;
    }
out:
    mpz_clear(x);
    mpz_clear(va);
    mpz_clear(vb);
    sg_store_close(f.db);
    sg_deep_clear(&f.d);
    cli_rule_clear(&f.r);
    return rc;
}
