/*
 * flow.c - the one cached analysis every command uses (see cli.h): find
 * the cache, look the rule up, analyse or extend it within the budget
 * (--max, --seconds), store what was computed (also when interrupted),
 * and say where the answer came from.  The steps the installed library
 * shares (look up, source, news, store, a stopped run settled) are
 * libsg's sg_flow_* (src/lib/api/flow.c); the options, the messages and
 * the --seconds alarm are the program's.  Also the progress line that
 * long computations show on a terminal.
 */
#define _DEFAULT_SOURCE
#include "cli.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
    struct timespec t;

    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* ------------------------------------------------------------------ */
/* Progress on a terminal                                               */
/* ------------------------------------------------------------------ */

/* Heaps done, values per second, rare values (sparse method) and the time
 * left to the end of the whole run, redrawn at most twice a second after
 * the first second.  A run grows in rounds, each with its own target: the
 * line shows the run's budget instead (--max or the default, and
 * --seconds), and the time left is the budget's at the recent rate, so it
 * does not fall to 0 at the end of every round. */
static struct {
    double start, last, seconds;
    double t_mark; /* the rate is measured from the mark ... */
    size_t n_mark; /* ... moved on every few seconds */
    size_t done_last;
    size_t budget;
    const char *why; /* "--max", "default" or "memory" */
    int shown;
} progress;

static void progress_show(void *ctx, size_t done, size_t target, size_t rare)
{
    double t = now(), rate, left;
    size_t budget = progress.budget > target ? progress.budget : target;

    (void)ctx;
    if (progress.t_mark == 0 || done < progress.done_last) {
        /* the first call, or a method that starts over */
        progress.t_mark = progress.last = t;
        progress.n_mark = progress.done_last = done;
        if (progress.start == 0)
            progress.start = t;
        return;
    }
    progress.done_last = done;
    if (t - progress.start < 1.0 || t - progress.last < 0.5)
        return;
    progress.last = t;
    rate = t > progress.t_mark
               ? (double)(done - progress.n_mark) / (t - progress.t_mark)
               : 0;
    if (t - progress.t_mark > 4.0) { /* follow a rate that changes */
        progress.t_mark = t - 2.0;
        progress.n_mark = done - (size_t)(rate * 2.0);
    }
    if (progress.why)
        fprintf(stderr, "\rcomputing: %zu values, budget %zu (%s)", done,
                budget, progress.why);
    else
        fprintf(stderr, "\rcomputing: %zu of %zu values", done, target);
    if (progress.seconds > 0)
        fprintf(stderr, " or %.3g s", progress.seconds);
    fprintf(stderr, ", %.3g/s", rate);
    if (rare)
        fprintf(stderr, ", %zu rare", rare);
    if (rate > 0) {
        left = (double)(budget - done) / rate;
        if (progress.seconds > 0 &&
            progress.seconds - (t - progress.start) < left)
            left = progress.seconds - (t - progress.start);
        fprintf(stderr, ", at most about %.0f s left", left > 0 ? left : 0);
    }
    fputs("\033[K", stderr);
    progress.shown = 1;
}

static int progress_on, progress_forbidden;

void cli_progress_forbid(void)
{
    progress_forbidden = 1;
}

void cli_progress_enable(int on)
{
    progress_on = on && !progress_forbidden && isatty(STDERR_FILENO);
    if (progress_on) {
        size_t budget = progress.budget;
        const char *why = progress.why;
        double seconds = progress.seconds;
        memset(&progress, 0, sizeof progress);
        progress.budget = budget;
        progress.why = why;
        progress.seconds = seconds;
        return;
    }
    if (progress.shown)
        fputs("\r\033[K", stderr);
    memset(&progress, 0, sizeof progress); /* the budget was this run's */
}

void cli_progress_budget(size_t max, const char *why, double seconds)
{
    progress.budget = max;
    progress.why = why;
    progress.seconds = seconds;
}

/* --threads T of this process's enumerations; 0: the library's default
 * (sg_threads_default). */
static unsigned enum_threads;

int cli_threads_option(const cli_args *a)
{
    const char *t =
        cli_declares(a, "--threads") ? cli_get(a, "--threads") : NULL;
    uint64_t n;
    int rc;

    if (!t)
        return EXIT_DONE;
    if ((rc = cli_parse_count(&n, "--threads", t)))
        return rc;
    if (n > SG_THREADS_MAX) {
        cli_error("--threads %s: at most %d threads", cli_quote(t),
                  SG_THREADS_MAX);
        return EXIT_USAGE;
    }
    enum_threads = (unsigned)n;
    return EXIT_DONE;
}

/* The options of one enumeration: the cancel flag, the threads and, on a
 * terminal, the progress line. */
sg_enum_options cli_enum_options(void)
{
    sg_enum_options o;

    memset(&o, 0, sizeof o);
    o.cancel = &cli_cancel;
    o.threads = enum_threads;
    if (progress_on)
        o.progress = progress_show;
    return o;
}

/* ------------------------------------------------------------------ */
/* The --seconds budget                                                 */
/* ------------------------------------------------------------------ */

/* The budget raises cli_cancel to 2 (a signal raises it to 1), so that a
 * spent budget is told apart from Ctrl-C. */
static void on_alarm(int sig)
{
    (void)sig;
    if (!cli_cancel)
        cli_cancel = 2;
}

void cli_budget_start(double seconds)
{
    struct itimerval it;
    struct sigaction sa;

    if (seconds <= 0)
        return;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_alarm;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGALRM, &sa, NULL);
    memset(&it, 0, sizeof it);
    it.it_value.tv_sec = (time_t)seconds;
    it.it_value.tv_usec =
        (suseconds_t)((seconds - (double)(time_t)seconds) * 1e6);
    if (it.it_value.tv_sec == 0 && it.it_value.tv_usec == 0)
        it.it_value.tv_usec = 1;
    setitimer(ITIMER_REAL, &it, NULL);
}

void cli_budget_stop(void)
{
    struct itimerval it;

    memset(&it, 0, sizeof it);
    setitimer(ITIMER_REAL, &it, NULL);
}

/* ------------------------------------------------------------------ */
/* The cache                                                            */
/* ------------------------------------------------------------------ */

void cli_flow_init(cli_flow *f)
{
    memset(f, 0, sizeof *f);
    cli_rule_init(&f->r);
    sg_seq_init(&f->seq);
    sg_flow_row_init(&f->row);
    f->source = "computed";
    f->max_is = "default";
    f->stopped = "max";
}

void cli_flow_clear(cli_flow *f)
{
    sg_store_close(f->db);
    sg_flow_row_clear(&f->row);
    sg_seq_clear(&f->seq);
    cli_rule_clear(&f->r);
    memset(f, 0, sizeof *f);
}

char *cli_cache_path(const char *db_opt)
{
    if (db_opt)
        return strdup(db_opt);
    return sg_store_default_path();
}

/* Whether one of the variables sg_store_default_path reads is set (and
 * not empty): when it is, a NULL path means out of memory. */
static int cache_variables_set(void)
{
    static const char *const vars[] = {"SGEXPLORE_DB", "XDG_CACHE_HOME",
                                       "HOME"};
    size_t i;

    for (i = 0; i < sizeof vars / sizeof vars[0]; i++) {
        const char *v = getenv(vars[i]);
        if (v && *v)
            return 1;
    }
    return 0;
}

int cli_cache_open(sg_store **db, char **path, const cli_args *a, int readonly)
{
    const char *opt = cli_get(a, "--db");
    struct stat sb;
    sg_error err;
    int rc;

    *db = NULL;
    *path = NULL;
    if (cli_get(a, "--no-cache"))
        return EXIT_DONE;
    if (!(*path = cli_cache_path(opt))) {
        if (opt || cache_variables_set()) {
            cli_error("out of memory");
            return EXIT_RUNTIME;
        }
        if (readonly) {
            cli_error("no cache location: $SGEXPLORE_DB, $XDG_CACHE_HOME "
                      "and $HOME are unset (use --db PATH)");
            return EXIT_RUNTIME;
        }
        cli_error("warning: no cache location ($SGEXPLORE_DB, "
                  "$XDG_CACHE_HOME and $HOME are unset); nothing will be "
                  "stored");
        return EXIT_DONE;
    }
    /* An explicit file's folder must exist; the default one is created. */
    if (opt && (rc = cli_check_folder("--db", opt)))
        goto fail;
    if (readonly && stat(*path, &sb) != 0)
        return EXIT_DONE;
    if (sg_store_open(db, *path, readonly ? SG_STORE_READONLY : 0, &err)) {
        rc = cli_report(NULL, NULL, &err);
        goto fail;
    }
    return EXIT_DONE;
fail: /* the caller owns *path only when the cache opened */
    free(*path);
    *path = NULL;
    return rc;
}

/* Look the rule up; a proven entry also fills the result. */
static int flow_begin(cli_flow *f, const cli_args *a)
{
    sg_error err;
    char *path = NULL;
    int rc;

    f->t0 = now();
    rc = cli_cache_open(&f->db, &path, a, 0);
    free(path);
    if (rc || !f->db)
        return rc;
    if (sg_flow_lookup(&f->row, &f->res, &f->seq, &f->proven, f->db, f->r.canon,
                       &err))
        return cli_report(NULL, NULL, &err);
    f->t0 = now();
    return EXIT_DONE;
}

static void flow_source(cli_flow *f)
{
    f->source = sg_flow_source(&f->row, &f->seq);
}

/* Store; quiet_ro: no warning for a read-only cache. */
static int store(cli_flow *f, int quiet_ro)
{
    sg_error err;
    const char *why;
    if (sg_flow_store(&f->row, f->db, f->r.canon, sg_rule_family(&f->r.rule),
                      &f->res, &f->seq, sg_enumerate_method(&f->r.rule),
                      now() - f->t0, &err) == SG_OK) {
        sg_flow_given(&f->row, f->db, f->r.canon, f->r.rule.given);
        return EXIT_DONE;
    }
    if (sg_store_readonly(f->db, &why)) {
        if (!quiet_ro)
            cli_error("warning: %s; nothing was stored", why);
        return EXIT_DONE;
    }
    cli_error("%s", err.msg);
    return cli_status_exit(err.code);
}

int cli_flow_store(cli_flow *f)
{
    if (!f->db)
        return EXIT_DONE;
    if (!sg_flow_news(&f->row, &f->res, &f->seq)) {
        /* nothing new to store, but perhaps a form the row lacks */
        sg_flow_given(&f->row, f->db, f->r.canon, f->r.rule.given);
        return EXIT_DONE;
    }
    return store(f, 0);
}

/* After a failed step (st, err): store what was computed and say so. */
static int flow_failed(cli_flow *f, sg_status st, const char *what,
                       const sg_error *err)
{
    const char *why;
    unsigned long long n = f->seq.n;

    if (st == SG_E_INTERRUPTED) {
        if (!f->db) {
            cli_error("interrupted after %llu values (nothing stored: no "
                      "cache)",
                      n);
        } else if (n == 0) {
            cli_error("interrupted before any value was computed");
        } else if (f->row.found && f->seq.n <= f->row.loaded) {
            cli_error("interrupted; the cache %s still holds the %llu "
                      "values of an earlier run",
                      sg_store_path(f->db), n);
        } else if (sg_store_readonly(f->db, &why)) {
            cli_error("interrupted after %llu values; nothing was stored "
                      "(%s)",
                      n, why);
        } else if (store(f, 1) == EXIT_DONE &&
                   !sg_store_readonly(f->db, NULL)) {
            cli_error("interrupted after %llu values; G(0..%llu) are stored "
                      "in %s and a rerun continues from there",
                      n, n ? n - 1 : 0, sg_store_path(f->db));
        } else {
            cli_error("interrupted after %llu values, which could not be "
                      "stored",
                      n);
        }
        return EXIT_RUNTIME;
    }
    /* Out of memory mid-way: keep what was computed, quietly. */
    if (st == SG_E_NOMEM && f->db && f->seq.n > f->row.loaded &&
        !sg_store_readonly(f->db, NULL))
        store(f, 1);
    return cli_report(what, NULL, err);
}

/* A step stopped by the --seconds budget is not a failure: the values
 * computed so far are a correct prefix, proven on as far as they go.
 * Unless the proof then runs out of memory: *st becomes SG_E_NOMEM. */
static int budget_spent(cli_flow *f, sg_status *st, sg_error *err)
{
    if (*st != SG_E_INTERRUPTED || cli_cancel != 2)
        return 0;
    cli_cancel = 0;
    f->budget_spent = 1;
    if (sg_flow_settle(&f->res, &f->r.rule, &f->seq, err)) {
        *st = SG_E_NOMEM;
        return 0;
    }
    return 1;
}

int cli_flow_extend(cli_flow *f, uint64_t n, const char *what)
{
    sg_enum_options o;
    sg_error err;
    sg_status st;

    if (f->proven || n <= f->seq.n)
        return EXIT_DONE;
    if (sg_seq_check_size((size_t)n, &err)) {
        cli_error("%s: %s", what, err.msg);
        return EXIT_USAGE;
    }
    o = cli_enum_options();
    st = sg_enumerate(&f->seq, &f->r.rule, (size_t)n, &o, &err);
    f->res.computed = f->seq.n;
    if (st && !budget_spent(f, &st, &err))
        return flow_failed(f, st, what, &err);
    flow_source(f);
    return EXIT_DONE;
}

/* SGEXPLORE_TEST_MEMORY=BYTES, a test switch (HACKING.md): the memory a
 * run bounded by --seconds alone may fill, so that a test reaches that
 * limit in a second; 0 (unset): a share of this machine's memory. */
static uint64_t test_memory(void)
{
    const char *v = getenv("SGEXPLORE_TEST_MEMORY");
    char *end;
    unsigned long long b;

    if (!v || !*v)
        return 0;
    errno = 0;
    b = strtoull(v, &end, 10);
    return *end || errno ? 0 : (uint64_t)b;
}

/* Why a finished run ended (cli_flow.stopped). */
static const char *stop_reason(const cli_flow *f)
{
    if (f->res.status != SG_UNRESOLVED)
        return "proven";
    if (f->budget_spent)
        return "time";
    if (f->memory_out || strcmp(f->max_is, "memory") == 0)
        return "memory";
    return "max";
}

/* Memory ran out in a run bounded by time alone: that is where such a run
 * ends, as a count ends a run with --max.  The values computed are a
 * correct prefix: proven as far as they go, kept, no error.  0 when the
 * proof itself runs out of memory (then the run fails). */
static int memory_spent(cli_flow *f, sg_status st)
{
    sg_error settle_err; /* the run's own error is the one reported */

    if (st != SG_E_NOMEM || strcmp(f->max_is, "memory") != 0 || f->seq.n == 0)
        return 0;
    if (sg_flow_settle(&f->res, &f->r.rule, &f->seq, &settle_err))
        return 0;
    f->memory_out = 1;
    return 1;
}

/* Values a run without --max or --seconds computes for its questions
 * when fewer than the default budget: what they need, and at least
 * this many, which prove the small periods on the way (Kayles: 168). */
#define QUESTION_FLOOR 1000

/* A question (--heap, --position: f->want; --values: upto) within the
 * default budget sets the count: what it needs, not the default (issue
 * 50: --values 0:10 of Grundy's game computed 10^6 values).  Returns 1
 * when it did. */
static int asked_max(cli_flow *f, uint64_t upto)
{
    uint64_t asked = upto > f->want ? upto : f->want;

    if (!asked || asked >= f->max)
        return 0;
    if (asked < QUESTION_FLOOR)
        asked = f->max < QUESTION_FLOOR ? f->max : QUESTION_FLOOR;
    f->max = (size_t)asked;
    return 1;
}

int cli_flow_run_rule(cli_flow *f, const cli_args *a, uint64_t max,
                      double seconds, uint64_t upto)
{
    sg_enum_options o;
    sg_error err;
    sg_status st = SG_OK;
    int rc, by_memory = 0;

    /* A time budget means time: without --max, no count cuts the run
     * short, only the memory the rule's method fills (docs/SWEEPS.md). */
    f->seconds = seconds;
    if (max)
        f->max = (size_t)max;
    else if (seconds > 0)
        f->max = sg_time_max(&f->r.rule, test_memory(), f->shares, &by_memory);
    else
        f->max = sg_default_max(&f->r.rule);
    f->max_is = max ? "given" : by_memory ? "memory" : "default";
    if (!max && seconds <= 0 && asked_max(f, upto))
        f->max_is = "question";
    if (max && sg_seq_check_size(f->max, &err)) {
        cli_error("--max %llu: %s", (unsigned long long)max, err.msg);
        return EXIT_USAGE;
    }
    if ((rc = flow_begin(f, a)))
        return rc;
    cli_progress_budget(f->max, max ? "--max" : f->max_is, seconds);
    cli_progress_enable(1);
    cli_budget_start(seconds);
    if (!f->proven) {
        o = cli_enum_options();
        st = sg_analyse(&f->res, &f->seq, &f->r.rule, f->max, &o, &err);
        if (st && (budget_spent(f, &st, &err) || memory_spent(f, st)))
            st = SG_OK;
    }
    f->proven = f->res.status != SG_UNRESOLVED;
    flow_source(f);
    f->stopped = stop_reason(f);
    if (st) {
        cli_budget_stop();
        cli_progress_enable(0);
        return flow_failed(f, st, NULL, &err);
    }
    /* Values past memory are no error: a proven rule answers them by its
     * period, an open one as unknown (exit 3), as --heap does. */
    if (upto && !f->budget_spent &&
        sg_seq_check_size((size_t)upto, &err) == SG_OK)
        rc = cli_flow_extend(f, upto, "--values");
    if (!rc && !f->proven && f->want > f->seq.n && !f->budget_spent &&
        sg_seq_check_size((size_t)f->want, &err) == SG_OK)
        rc = cli_flow_extend(f, f->want, "--heap");
    cli_budget_stop();
    cli_progress_enable(0);
    if (rc)
        return rc;
    f->stopped = stop_reason(f);
    /* A failed store is reported now, but the answer is still printed:
     * cli_flow_finish turns it into the exit status. */
    f->store_rc = cli_flow_store(f);
    return EXIT_DONE;
}

int cli_reach(const sg_rule *r, const mpz_t n)
{
    sg_error err;

    if (mpz_sizeinbase(n, 2) > 62)
        return CLI_REACH_NONE;
    if (sg_seq_check_size((size_t)mpz_get_ui(n), &err) == SG_OK)
        return CLI_REACH_MAX;
    if (mpz_cmp_ui(n, (unsigned long)CLI_DEEP_MAX_N) <= 0 &&
        sg_deep_applicable(r))
        return CLI_REACH_DEEP;
    return CLI_REACH_NONE;
}

int cli_flow_finish(const cli_flow *f, int rc)
{
    return rc == EXIT_DONE && f->store_rc ? f->store_rc : rc;
}

int cli_flow_budget(const cli_args *a, uint64_t *max, double *seconds)
{
    int rc;

    *max = 0;
    *seconds = 0;
    if (cli_get(a, "--max") &&
        (rc = cli_parse_count(max, "--max", cli_get(a, "--max"))))
        return rc;
    if (cli_get(a, "--seconds") &&
        (rc = cli_parse_seconds(seconds, "--seconds", cli_get(a, "--seconds"))))
        return rc;
    return EXIT_DONE;
}

int cli_flow_run(cli_flow *f, const cli_args *a, size_t pos, uint64_t upto)
{
    uint64_t max;
    double seconds;
    int rc;

    if ((rc = cli_rule_get(&f->r, a, pos, 0, NULL)) ||
        (rc = cli_flow_budget(a, &max, &seconds)))
        return rc;
    return cli_flow_run_rule(f, a, max, seconds, upto);
}
