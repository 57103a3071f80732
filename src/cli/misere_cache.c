/*
 * misere_cache.c - the misère results of the analysis and of the sweep
 * (`--misere`, `--quotient`), through the cache (docs/CACHE.md, table
 * misere): the genus of heaps 0..N-1 and the quotient of heaps 1..N-1
 * are read from the rule's misère row when it holds them, a quotient is
 * resumed from a stored one of fewer heaps, and what was computed is
 * offered back to the cache.
 */
#define _DEFAULT_SOURCE
#include "cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

size_t cli_misere_budget(void)
{
    const char *e = getenv("SGEXPLORE_MISERE_MIB");
    char *end;
    unsigned long v;

    if (e && *e) {
        v = strtoul(e, &end, 10);
        if (!*end && v > 0 && v < ((size_t)1 << 20))
            return (size_t)v << 20;
    }
    return (size_t)256 << 20;
}

void cli_misere_init(cli_misere *x)
{
    memset(x, 0, sizeof *x);
    sg_misere_init(&x->m);
    sg_mquot_init(&x->quot);
    x->gsource = x->qsource = "computed";
}

void cli_misere_clear(cli_misere *x)
{
    sg_misere_clear(&x->m);
    sg_mquot_clear(&x->quot);
    cli_misere_init(x);
}

/* Keep a reason in buf (it may point into a row about to be freed). */
static const char *keep(char *buf, size_t size, const char *why)
{
    snprintf(buf, size, "%s", why);
    return buf;
}

/* Offer the misère results computed to the flow's cache (nothing
 * without one).  On a read-only cache one warning, unless the flow has
 * given it for the normal-play result already.  Exit status (a failure
 * said). */
static int misere_store(const cli_flow *fl, const sg_store_misere *offer)
{
    sg_error err;
    const char *why;

    if (!fl->db)
        return EXIT_DONE;
    if (sg_store_readonly(fl->db, &why)) {
        if (!sg_flow_news(&fl->row, &fl->res, &fl->seq))
            cli_error("warning: %s; nothing was stored", why);
        return EXIT_DONE;
    }
    if (sg_store_misere_put(fl->db, fl->r.canon, offer, NULL, &err)) {
        cli_error("%s", err.msg);
        return cli_status_exit(err.code);
    }
    return EXIT_DONE;
}

/* Whether st, from a computation polling cli_cancel, means that the
 * --seconds budget ran out, not a signal.  cli_cancel stays raised until
 * the end of cli_misere_compute, so that the quotient after a genus that
 * used up the time stops at once. */
static int time_ran_out(sg_status st)
{
    return st == SG_E_INTERRUPTED && cli_cancel == 2;
}

/* Seconds on a monotonic clock. */
static double mono(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* The genus's half of --seconds is over (or the genus came from the
 * cache): its timer stopped and its alarm, if it rang, lowered, so that
 * the quotient does not stop at once. */
static void genus_time_over(void)
{
    cli_budget_stop();
    if (cli_cancel == 2)
        cli_cancel = 0;
}

/* What is left of `seconds` since t0, at least a millisecond (a budget
 * of 0 would be none). */
static double time_left(double seconds, double t0)
{
    double left = seconds - (mono() - t0);

    return left > 0.001 ? left : 0.001;
}

int cli_misere_compute(cli_misere *x, const cli_flow *fl, size_t asked,
                       int want_q, size_t max_order)
{
    sg_store_misere row, offer;
    sg_error err, qerr;
    sg_status st = SG_OK;
    int found = 0, rc, out_of_time = 0;
    size_t budget = cli_misere_budget();
    double t0 = mono();

    sg_store_misere_init(&row);
    if (fl->db &&
        sg_store_misere_get(fl->db, fl->r.canon, &row, &found, &err)) {
        sg_store_misere_clear(&row);
        return cli_report(NULL, NULL, &err);
    }
    memset(&offer, 0, sizeof offer);
    if (found && row.have_genus &&
        (row.genus.n >= asked ||
         (row.genus_stopped && row.genus_asked >= asked &&
          budget <= row.genus_budget))) {
        /* the cache holds these heaps, or stopped short of them within
         * a budget at least as large as ours */
        x->m = row.genus;
        sg_misere_init(&row.genus);
        if (x->m.n > asked)
            x->m.n = asked;
        if (x->m.tame_to > x->m.n)
            x->m.tame_to = x->m.n;
        if (x->m.n < asked)
            x->stopped = keep(x->gwhy, sizeof x->gwhy, row.genus_stopped);
        x->gsource = "cache";
    } else {
        /* --seconds S: the misère computation gets S seconds of its own
         * (docs/MISERE.md), the genus and the quotient together; with a
         * quotient the genus gets half, so that the quotient starts
         * (issue 50: the genus of 80 heaps of Kayles took them all) */
        cli_budget_start(want_q ? fl->seconds / 2 : fl->seconds);
        st = sg_misere_analyse(&x->m, &fl->r.rule, asked, budget, &cli_cancel,
                               &err);
        if (time_ran_out(st)) {
            x->stopped = keep(x->gwhy, sizeof x->gwhy, "--seconds ran out");
            out_of_time = 1;
        } else if (st == SG_E_UNKNOWN) {
            x->stopped = keep(x->gwhy, sizeof x->gwhy, err.msg);
        } else if (st != SG_OK && st != SG_E_INTERRUPTED) {
            cli_budget_stop();
            cli_error("misère genus: %s", err.msg);
            sg_store_misere_clear(&row);
            return st == SG_E_INPUT ? EXIT_USAGE : EXIT_RUNTIME;
        }
        /* Heaps finished before a time or a signal stopped the genus are
         * exact and stored, with no reason to stop (a later run goes on
         * past them), unless the cache holds more. */
        if (st != SG_E_INTERRUPTED && !out_of_time) {
            offer.have_genus = 1;
        } else {
            offer.have_genus =
                !(found && row.have_genus && row.genus.n >= x->m.n);
        }
        offer.genus = x->m; /* shared, not owned */
        offer.genus_asked = asked;
        offer.genus_budget = budget;
        offer.genus_stopped = x->stopped && !out_of_time ? x->gwhy : NULL;
        if (st == SG_E_INTERRUPTED && !out_of_time) {
            cli_budget_stop();
            if (offer.have_genus)
                x->store_rc = misere_store(fl, &offer);
            sg_store_misere_clear(&row);
            cli_error("misère genus: interrupted%s",
                      offer.have_genus && x->m.n && !x->store_rc && fl->db &&
                              !sg_store_readonly(fl->db, NULL)
                          ? "; the heaps finished are stored"
                          : "");
            return EXIT_RUNTIME;
        }
    }
    st = SG_OK;
    if (want_q) {
        /* the sums of the heaps the genus table shows, 1..N-1 */
        size_t wanted = asked ? asked - 1 : 0;
        const sg_mquot *from = NULL;
        genus_time_over();
        if (found && row.have_quot && row.quot.heaps == wanted) {
            x->quot = row.quot;
            sg_mquot_init(&row.quot);
            x->quot.stopped_at = 0; /* finished as far as asked */
            x->qsource = "cache";
        } else if (found && row.have_quot && row.quot.heaps < wanted &&
                   row.quot_stopped && row.quot.stopped_at <= wanted &&
                   max_order <= row.quot_max_order &&
                   budget <= row.quot_budget) {
            /* it stopped there within limits at least as large */
            x->quot = row.quot;
            sg_mquot_init(&row.quot);
            x->qstopped = keep(x->qwhy, sizeof x->qwhy, row.quot_stopped);
            x->qsource = "cache";
        } else {
            if (found && row.have_quot && row.quot.heaps < wanted)
                from = &row.quot;
            if (fl->seconds > 0)
                cli_budget_start(time_left(fl->seconds, t0));
            st = sg_misere_quotient_from(&x->quot, &fl->r.rule, wanted,
                                         max_order, budget, from, &cli_cancel,
                                         &qerr);
            x->qsource = from ? "extended" : "computed";
            if (time_ran_out(st)) {
                /* stored with no reason to stop: a rerun resumes it */
                x->qstopped =
                    keep(x->qwhy, sizeof x->qwhy, "--seconds ran out");
                st = SG_E_UNKNOWN;
                out_of_time = 2;
            } else if (st == SG_E_UNKNOWN) {
                x->qstopped = keep(x->qwhy, sizeof x->qwhy, qerr.msg);
            }
            if ((st == SG_OK || st == SG_E_UNKNOWN || st == SG_E_INTERRUPTED) &&
                !(found && row.have_quot && row.quot.heaps > x->quot.heaps)) {
                offer.have_quot = 1;
                offer.quot = x->quot; /* shared, not owned */
                offer.quot_asked = wanted;
                offer.quot_max_order = max_order;
                offer.quot_budget = budget;
                offer.quot_stopped =
                    x->qstopped && out_of_time != 2 ? x->qwhy : NULL;
                offer.quot_runs = from ? row.quot_runs + 1 : 1;
            }
        }
    }
    cli_budget_stop();
    if (cli_cancel == 2) /* the alarm rang between two polls */
        cli_cancel = 0;
    if (offer.have_genus || offer.have_quot)
        x->store_rc = misere_store(fl, &offer);
    sg_store_misere_clear(&row);
    if (st == SG_OK || st == SG_E_UNKNOWN)
        return EXIT_DONE;
    cli_error("misère quotient: %s%s", qerr.msg,
              st == SG_E_INTERRUPTED && offer.have_quot && !x->store_rc &&
                      fl->db && !sg_store_readonly(fl->db, NULL)
                  ? "; the quotients proven are stored and a rerun "
                    "continues from there"
                  : "");
    rc = st == SG_E_INPUT ? EXIT_USAGE : EXIT_RUNTIME;
    return rc;
}
