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
#define DEEP_MAX_N CLI_DEEP_MAX_N
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
    size_t start_n; /* values when this process began computing */
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
    st =
        sg_store_checkpoint_put(f->db, f->r.canon, f->d.seq.n, blob, len, &err);
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
    st = sg_store_checkpoint_get(f->db, f->r.canon, &heaps, &blob, &len, &err);
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
                  window, cli_quote(f->r.canon), (unsigned long long)f->d.seq.n,
                  f->d.window, cli_quote(f->r.canon));
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

/* The parts of G that the run holds: the key "kept" ([[a, b], ...]) and
 * the text line. */
static void kept_write(cli_rec *r, const sg_deep *d)
{
    const sg_seq *s = &d->seq;

    cli_rec_arr(r, "kept");
    if (s->n) {
        cli_rec_arr(r, NULL);
        cli_rec_uint(r, NULL, 0);
        cli_rec_uint(r, NULL, s->off ? s->keep - 1 : s->n - 1);
        cli_rec_close(r);
    }
    if (s->off) {
        cli_rec_arr(r, NULL);
        cli_rec_uint(r, NULL, s->keep + s->off);
        cli_rec_uint(r, NULL, s->n - 1);
        cli_rec_close(r);
    }
    cli_rec_close(r);
}

static const char *parity_text(const sg_deep *d)
{
    return !d->parity  ? ""
           : d->pshift ? " with the heap's parity (h + 1) mod 2"
                       : " with the heap's parity h mod 2";
}

/* The "deep" object: the window, what is kept, the checksums. */
static void deep_object(cli_rec *r, const deep_flow *f, uint64_t sum)
{
    const sg_deep *d = &f->d;
    size_t i;

    cli_rec_obj(r, "deep");
    cli_rec_uint(r, "window", d->window);
    kept_write(r, d);
    cli_rec_strf(r, "checksum", "fnv1a64:%016llx", (unsigned long long)sum);
    cli_rec_uint(r, "block", SG_DEEP_BLOCK);
    cli_rec_arr(r, "blocks");
    for (i = 0; i < d->nblocks; i++)
        cli_rec_strf(r, NULL, "fnv1a64:%016llx",
                     (unsigned long long)d->blocks[i]);
    cli_rec_close(r);
    cli_rec_uint_or_null(r, "resumed_at", f->resumed_at != 0, f->resumed_at);
    cli_rec_uint(r, "full_scans", d->full_scans);
    cli_rec_close(r);
}

/* The text lines after the largest value: the sparse space, the
 * checksums and the rate. */
static void deep_lines(cli_rec *r, const deep_flow *f, uint64_t sum)
{
    const sg_deep *d = &f->d;
    const sg_seq *s = &d->seq;

    cli_rec_textf(r,
                  "sparse space: mask %u%s, %zu rare heaps, the last at "
                  "%zu\n",
                  (unsigned)d->mask, parity_text(d), d->nrare,
                  d->nrare ? d->rpos[d->nrare - 1] : 0);
    cli_rec_textf(r, "checksum: fnv1a64:%016llx of G(0..%zu)\n",
                  (unsigned long long)sum, s->n ? s->n - 1 : 0);
    if (d->nblocks)
        cli_rec_textf(r,
                      "block checksums: %zu (of G(0..k*%zu-1)), the last "
                      "fnv1a64:%016llx\n",
                      d->nblocks, SG_DEEP_BLOCK,
                      (unsigned long long)d->blocks[d->nblocks - 1]);
    if (s->n > f->start_n && f->spent > 0)
        cli_rec_textf(r, "rate: %.3g values/s (%zu values in %.1f s)\n",
                      (double)(s->n - f->start_n) / f->spent, s->n - f->start_n,
                      f->spent);
}

/* The deep run's report: the keys of a rule's record that a deep run
 * knows, and "deep"; or its text lines. */
static void deep_write(cli_rec *r, deep_flow *f)
{
    const sg_deep *d = &f->d;
    const sg_seq *s = &d->seq;
    uint64_t sum = sg_deep_checksum(&f->d);
    const char *note = f->stopped        ? f->stopped
                       : f->budget_spent ? "--seconds ran out"
                                         : NULL;

    cli_rec_str(r, "rule", f->r.canon);
    cli_rec_textf(r, "rule: %s\n", f->r.canon);
    cli_rec_str(r, "family", sg_rule_family(&f->r.rule));
    cli_rec_textf(r, "family: %s\n", sg_rule_family(&f->r.rule));
    cli_rec_str(r, "source", f->source);
    cli_rec_textf(r, "source: %s", f->source);
    if (f->resumed_at)
        cli_rec_textf(r, " (at heap %llu)", (unsigned long long)f->resumed_at);
    cli_rec_textf(r, "\n");
    cli_rec_str(r, "status", "unresolved");
    cli_rec_textf(r, "status: unresolved (deep run: values only, no period "
                     "search)\n");
    cli_rec_str(r, "note", note);
    if (f->stopped)
        cli_rec_textf(r, "note: %s\n", f->stopped);
    else if (f->budget_spent)
        cli_rec_textf(r, "note: --seconds ran out%s\n",
                      f->saved ? "; a rerun resumes from the checkpoint"
                               : " (no cache: nothing to resume from)");
    cli_rec_uint(r, "computed", s->n);
    cli_rec_textf(r, "computed: G(0..%zu)\n", s->n ? s->n - 1 : 0);
    if (s->n) {
        cli_rec_obj(r, "largest");
        cli_rec_uint(r, "value", s->max);
        cli_rec_uint(r, "first", d->max_heap);
        cli_rec_close(r);
    } else {
        cli_rec_null(r, "largest");
    }
    cli_rec_obj(r, "sparse");
    cli_rec_uint(r, "mask", d->mask);
    cli_rec_bool(r, "parity", d->parity);
    cli_rec_int(r, "parity_offset", d->parity ? d->pshift : 0);
    cli_rec_uint(r, "rare", d->nrare);
    cli_rec_uint(r, "last_rare", d->nrare ? d->rpos[d->nrare - 1] : 0);
    cli_rec_close(r);
    deep_object(r, f, sum);
    if (r->json)
        return;
    /* the text keeps its order: kept, largest, then the rest */
    if (!s->off)
        cli_rec_textf(r,
                      "kept: every value (the window of %zu has not "
                      "moved yet)\n",
                      d->window);
    else
        cli_rec_textf(r, "kept: G(0..%zu), G(%zu..%zu) and the rare heaps\n",
                      s->keep - 1, s->keep + s->off, s->n - 1);
    if (s->n)
        cli_rec_textf(r, "largest value: %u, first at heap %zu\n",
                      (unsigned)s->max, d->max_heap);
    deep_lines(r, f, sum);
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
static void unknown_text(cli_rec *r, const deep_flow *f, const char *given)
{
    const sg_seq *s = &f->d.seq;

    if (s->off)
        cli_rec_textf(r,
                      "G(%s) = unknown (the deep run keeps G(0..%zu) and "
                      "G(%zu..%zu) only)\n",
                      given, s->keep - 1, s->keep + s->off, s->n - 1);
    else
        cli_rec_textf(r, "G(%s) = unknown (computed: G(0..%zu))\n", given,
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
        cli_rec rec;
        f.source = "checkpoint";
        f.resumed_at = f.d.seq.n;
        f.start_n = f.d.seq.n;
        cli_rec_begin(&rec, stdout, json);
        deep_write(&rec, &f);
        cli_rec_end(&rec);
    }
    sg_deep_clear(&f.d);
    cli_rule_clear(&f.r);
    return rc;
}

static const char *const refused[] = {"--position", "--positions", "--plot",
                                      "--export-certificate", NULL};

/* The options of a deep run, checked before anything is computed. */
static int deep_options(deep_flow *f, uint64_t *w, const cli_args *a)
{
    size_t i;
    int rc;

    for (i = 0; refused[i]; i++)
        if (cli_get(a, refused[i])) {
            cli_error("%s does not go with --deep (a deep run keeps only "
                      "the ends of the sequence; see docs/DEEP.md)",
                      refused[i]);
            return EXIT_USAGE;
        }
    if ((rc = cli_rule_get(&f->r, a, 0, 0, NULL)))
        return rc;
    if (!sg_deep_applicable(&f->r.rule)) {
        cli_error("--deep: %s is not a rule the sparse method covers (moves "
                  "leaving at most two heaps, no repeating tail)",
                  cli_quote(f->r.canon));
        return EXIT_USAGE;
    }
    if (!cli_get(a, "--max")) {
        cli_error("--deep needs --max N (how far to go, up to 2^48)");
        return EXIT_USAGE;
    }
    if ((rc = cli_parse_count(&f->max, "--max", cli_get(a, "--max"))))
        return rc;
    if (f->max > DEEP_MAX_N) {
        cli_error("--max %llu: deep runs go up to 2^48 values",
                  (unsigned long long)f->max);
        return EXIT_USAGE;
    }
    if (cli_get(a, "--window") &&
        (rc = cli_parse_count(w, "--window", cli_get(a, "--window"))))
        return rc;
    if (*w < SG_DEEP_MIN_WINDOW || *w > DEEP_WINDOW_MAX) {
        cli_error("--window %llu: between %zu and %zu values",
                  (unsigned long long)*w, SG_DEEP_MIN_WINDOW, DEEP_WINDOW_MAX);
        return EXIT_USAGE;
    }
    if (cli_get(a, "--seconds") &&
        (rc = cli_parse_seconds(&f->seconds, "--seconds",
                                cli_get(a, "--seconds"))))
        return rc;
    /* 0: after every step (tests; a step is 16 windows of heaps) */
    if (cli_get(a, "--checkpoint") &&
        strcmp(cli_get(a, "--checkpoint"), "0") == 0)
        f->every = 0;
    else if (cli_get(a, "--checkpoint") &&
             (rc = cli_parse_seconds(&f->every, "--checkpoint",
                                     cli_get(a, "--checkpoint"))))
        return rc;
    return EXIT_DONE;
}

/* G(x) as the member of a list (JSON) or a text line; 1 when unknown. */
static int deep_answer(cli_rec *r, const deep_flow *f, const mpz_t x,
                       const char *given, int as_heap)
{
    sg_value v;
    int known = deep_value(f, x, &v);

    if (as_heap) {
        cli_rec_obj(r, NULL);
        cli_rec_heap(r, "heap", x);
        if (known)
            cli_rec_strf(r, "value", "%u", (unsigned)v);
        else
            cli_rec_null(r, "value");
        cli_rec_close(r);
    } else if (known) {
        cli_rec_uint(r, NULL, v);
    } else {
        cli_rec_null(r, NULL);
    }
    if (known)
        cli_rec_textf(r, "G(%s) = %u\n", given, (unsigned)v);
    else
        unknown_text(r, f, given);
    return !known;
}

/* The run's record: the report (unless --quiet with a question), then
 * --values and --heap on the kept heaps.  1 when one is unknown. */
static int deep_answers(deep_flow *f, const cli_args *a, const mpz_t va,
                        const mpz_t vb, int json)
{
    size_t nheaps = cli_count(a, "--heap"), i;
    int quiet = cli_get(a, "--quiet") != NULL, unknown = 0;
    const char *values = cli_get(a, "--values");
    cli_rec rec;
    mpz_t x;

    mpz_init(x);
    cli_rec_begin(&rec, stdout, json);
    if (json || !quiet)
        deep_write(&rec, f);
    else if (!nheaps && !values) /* the status line of --quiet */
        cli_rec_textf(&rec,
                      "%s: unresolved (deep run: G(0..%zu) computed, no "
                      "period search)\n",
                      f->r.canon, f->d.seq.n ? f->d.seq.n - 1 : 0);
    if (values) {
        cli_rec_heap(&rec, "values_start", va);
        cli_rec_arr(&rec, "values");
        for (mpz_set(x, va); mpz_cmp(x, vb) <= 0; mpz_add_ui(x, x, 1)) {
            char *t = mpz_get_str(NULL, 10, x);
            unknown |= deep_answer(&rec, f, x, t ? t : "?", 0);
            free(t);
        }
        cli_rec_close(&rec);
        cli_rec_bool(&rec, "values_truncated", 0);
    }
    if (nheaps) {
        cli_rec_arr(&rec, "heaps");
        for (i = 0; i < nheaps; i++) {
            const char *given = cli_get_nth(a, "--heap", i);
            cli_parse_bignum(x, "--heap", given); /* checked before */
            unknown |= deep_answer(&rec, f, x, given, 1);
        }
        cli_rec_close(&rec);
    }
    cli_rec_end(&rec);
    mpz_clear(x);
    return unknown;
}

int cli_deep_run(const cli_args *a)
{
    deep_flow f;
    uint64_t w = DEEP_WINDOW;
    size_t nheaps = cli_count(a, "--heap"), i;
    mpz_t x, va, vb;
    int rc, unknown;
    const char *values = cli_get(a, "--values");

    memset(&f, 0, sizeof f);
    cli_rule_init(&f.r);
    mpz_init(x);
    mpz_init(va);
    mpz_init(vb);
    f.every = DEEP_CHECKPOINT_S;
    if ((rc = deep_options(&f, &w, a)))
        goto out;
    if (values && (rc = cli_parse_range(va, vb, "--values", values, 100000000)))
        goto out;
    for (i = 0; i < nheaps; i++)
        if ((rc = cli_parse_bignum(x, "--heap", cli_get_nth(a, "--heap", i))))
            goto out;
    if ((rc = deep_begin(&f, a, (size_t)w, cli_get(a, "--window") != NULL)))
        goto out;
    if ((rc = deep_compute(&f)) != EXIT_DONE && !f.stopped)
        goto out;
    unknown = deep_answers(&f, a, va, vb, cli_json(a));
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
