/*
 * sgbench.c - the benchmark driver behind `make bench` (bench/run.sh runs
 * it once per measurement, so that peak memory is per case).  Modes:
 *
 *   sgbench enum RULE N [auto|naive|sparse|sparse1|pinB|MASK]
 *       time the enumeration of G(0..N-1) (sparse1: without the helper
 *       threads; pinB: the helpers on every superblock with the work
 *       balance fixed at B, the pin_helper switch, for callgrind's
 *       per-thread counts in docs/RECORDS.md; MASK: a forced sparse-space
 *       mask);
 *   sgbench analyse RULE MAX
 *       time sg_analyse (enumeration in rounds plus proofs) until proven;
 *   sgbench deep RULE N [WINDOW]
 *       time a deep run (sg_deep_extend) of G(0..N-1), default window
 *       2^20 values, with its checksum, to compare with `enum`;
 *   sgbench space RULE N
 *       the sparse space of G(0..N-1) over the values alone and with the
 *       heap's parity (sg_sparse_space_find, _find_rule), for the sweep of
 *       docs/BENCHMARKS.md.
 *
 * MASK is a number (0x1b) or, for the parity masks, the number followed
 * by "p" (the heap's parity h mod 2) or "q" ((h + 1) mod 2): "0xdq".
 * With SGBENCH_AVX2=1 in the environment the sparse method keeps to its
 * AVX2 code on a CPU with AVX-512 (what CPUs without it get); with
 * SGBENCH_THREADS=T it uses T threads (--threads T; default: the cores
 * available), which every line reports as threads=T.
 *
 * Prints one line of key=value pairs: wall and CPU seconds, values per
 * second, peak resident memory (getrusage ru_maxrss), and what was found.
 */
#define _DEFAULT_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "sgexplore.h"
#include "enum/sparse/sparse.h" /* (the method and its switches, internal) */

static double clock_s(clockid_t id)
{
    struct timespec t;

    clock_gettime(id, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static long maxrss_kb(void)
{
    struct rusage ru;

    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_maxrss;
}

static int usage(void)
{
    fprintf(stderr, "usage: sgbench enum RULE N "
                    "[auto|naive|sparse|sparse1|pinB|MASK]\n"
                    "       sgbench analyse RULE MAX\n"
                    "       sgbench deep RULE N [WINDOW]\n"
                    "       sgbench space RULE N\n");
    return 2;
}

static int parse_rule(sg_rule *r, const char *text)
{
    sg_error err;

    sg_rule_init(r);
    if (sg_rule_parse(r, SG_SYNTAX_RULE, text, &err) != SG_OK) {
        fprintf(stderr, "sgbench: rule %s: %s\n", text, err.msg);
        return -1;
    }
    return 0;
}

/* The test switches of every run: SGBENCH_AVX2=1 keeps the sparse method on
 * its AVX2 code on a CPU with AVX-512 (to measure what such CPUs get). */
static sgi_test_switches bench_switches(void)
{
    sgi_test_switches sw = {0};
    const char *e = getenv("SGBENCH_AVX2");

    sw.no_avx512 = e && strcmp(e, "1") == 0;
    return sw;
}

/* SGBENCH_THREADS=T: the runs' --threads (0: the library's default). */
static unsigned bench_threads(void)
{
    const char *e = getenv("SGBENCH_THREADS");

    return e ? (unsigned)strtoul(e, NULL, 10) : 0;
}

/* The threads a run with bench_threads() uses (what it reports). */
static unsigned threads_used(void)
{
    unsigned t = bench_threads() ? bench_threads() : sg_threads_default();

    return t > SG_THREADS_MAX ? SG_THREADS_MAX : t;
}

static int run_enum(const char *rule, size_t n, const char *how)
{
    sg_rule r;
    sg_seq s;
    sg_error err;
    sgi_sparse_stats stats;
    sg_status st;
    const char *method;
    double w0, c0, w1, c1;

    if (parse_rule(&r, rule))
        return 2;
    memset(&stats, 0, sizeof stats);
    sg_seq_init(&s);
    w0 = clock_s(CLOCK_MONOTONIC);
    c0 = clock_s(CLOCK_PROCESS_CPUTIME_ID);
    if (strcmp(how, "naive") == 0) {
        method = "naive";
        st = sg_enumerate_naive(&s, &r, n, NULL, &err);
    } else if (strcmp(how, "auto") == 0 && !sgi_sparse_applicable(&r)) {
        method = sg_enumerate_method(&r);
        st = sg_enumerate(&s, &r, n, NULL, &err);
    } else {
        int64_t mask = SGI_SPARSE_AUTO;
        sgi_test_switches sw = bench_switches();
        sg_enum_options opt = {.test = &sw, .threads = bench_threads()};
        if (strcmp(how, "sparse1") == 0)
            sw.no_threads = 1; /* one thread only */
        else if (strncmp(how, "pin", 3) == 0) {
            sw.pin_helper = 1;
            sw.pin_balance = strtol(how + 3, NULL, 10);
        } else if (strcmp(how, "auto") != 0 && strcmp(how, "sparse") != 0) {
            char *end;
            mask = (int64_t)strtoll(how, &end, 0);
            if (*end == 'p')
                mask |= SGI_SPARSE_PARITY;
            else if (*end == 'q')
                mask |= SGI_SPARSE_PARITY_INV;
        }
        method = "sparse";
        st = sgi_enumerate_sparse(&s, &r, n, mask, &stats, &opt, &err);
    }
    c1 = clock_s(CLOCK_PROCESS_CPUTIME_ID);
    w1 = clock_s(CLOCK_MONOTONIC);
    if (st != SG_OK) {
        fprintf(stderr, "sgbench: %s: %s\n", rule, err.msg);
        return 1;
    }
    printf("mode=enum rule=%s n=%zu method=%s wall=%.4f cpu=%.4f vps=%.4g "
           "maxrss_kb=%ld max=%u width=%u mask=0x%x rare=%zu full_scans=%zu "
           "repicks=%zu parity=%s pairs=%zu searches=%zu checksum=%016llx "
           "threads=%u scanned=%zu\n",
           rule, n, method, w1 - w0, c1 - c0, (double)n / (w1 - w0),
           maxrss_kb(), (unsigned)s.max, s.width, (unsigned)stats.mask,
           stats.rare, stats.full_scans, stats.repicks,
           !stats.parity        ? "none"
           : stats.parity_shift ? "h+1"
                                : "h",
           stats.pairs_chosen, stats.searches,
           (unsigned long long)sg_checksum(&s, s.n),
           strcmp(how, "sparse1") == 0 ? 1 : threads_used(), stats.scanned);
    sg_seq_clear(&s);
    sg_rule_clear(&r);
    return 0;
}

static int run_analyse(const char *rule, size_t max)
{
    sg_rule r;
    sg_seq s;
    sg_error err;
    sg_result res;
    sg_status st;
    sgi_test_switches sw = bench_switches();
    sg_enum_options opt = {.test = &sw, .threads = bench_threads()};
    double w0, c0, w1, c1;

    if (parse_rule(&r, rule))
        return 2;
    sg_seq_init(&s);
    w0 = clock_s(CLOCK_MONOTONIC);
    c0 = clock_s(CLOCK_PROCESS_CPUTIME_ID);
    st = sg_analyse(&res, &s, &r, max, &opt, &err);
    c1 = clock_s(CLOCK_PROCESS_CPUTIME_ID);
    w1 = clock_s(CLOCK_MONOTONIC);
    if (st != SG_OK) {
        fprintf(stderr, "sgbench: %s: %s\n", rule, err.msg);
        return 1;
    }
    printf("mode=analyse rule=%s max=%zu status=%s period=%llu "
           "preperiod=%llu computed=%zu wall=%.4f cpu=%.4f vps=%.4g "
           "maxrss_kb=%ld threads=%u\n",
           rule, max,
           res.status == SG_PERIODIC         ? "periodic"
           : res.status == SG_ARITH_PERIODIC ? "arith-periodic"
                                             : "unresolved",
           (unsigned long long)res.period, (unsigned long long)res.preperiod,
           s.n, w1 - w0, c1 - c0, (double)s.n / (w1 - w0), maxrss_kb(),
           threads_used());
    sg_seq_clear(&s);
    sg_rule_clear(&r);
    return 0;
}

static int run_deep(const char *rule, size_t n, size_t window)
{
    sg_rule r;
    sg_deep d;
    sg_error err;
    sg_status st;
    sgi_test_switches sw = bench_switches();
    sg_enum_options opt = {.test = &sw, .threads = bench_threads()};
    double w0, c0, w1, c1;

    if (parse_rule(&r, rule))
        return 2;
    sg_deep_init(&d, window);
    w0 = clock_s(CLOCK_MONOTONIC);
    c0 = clock_s(CLOCK_PROCESS_CPUTIME_ID);
    st = sg_deep_extend(&d, &r, n, &opt, &err);
    c1 = clock_s(CLOCK_PROCESS_CPUTIME_ID);
    w1 = clock_s(CLOCK_MONOTONIC);
    if (st != SG_OK)
        fprintf(stderr, "sgbench: %s: %s\n", rule, err.msg);
    printf("mode=deep rule=%s n=%zu computed=%zu window=%zu wall=%.4f "
           "cpu=%.4f vps=%.4g maxrss_kb=%ld max=%u rare=%zu "
           "checksum=%016llx threads=%u\n",
           rule, n, d.seq.n, d.window, w1 - w0, c1 - c0,
           (double)d.seq.n / (w1 - w0), maxrss_kb(), (unsigned)d.seq.max,
           d.nrare, (unsigned long long)sg_deep_checksum(&d), threads_used());
    sg_deep_clear(&d);
    sg_rule_clear(&r);
    return st == SG_OK ? 0 : 1;
}

/* One sparse space as key=value pairs, the keys prefixed by `pre`. */
static void space_print(const char *pre, const sg_sparse_space *sp)
{
    printf(" %sfound=%d %smask=0x%x %sparity=%s %srare=%llu %slast=%llu", pre,
           sp->found, pre, (unsigned)sp->mask, pre,
           !sp->parity        ? "none"
           : sp->parity_shift ? "h+1"
                              : "h",
           pre, (unsigned long long)sp->rare, pre,
           (unsigned long long)sp->last_rare);
}

static int run_space(const char *rule, size_t n)
{
    sg_rule r;
    sg_seq s;
    sg_error err;
    sg_sparse_space plain, ext;

    if (parse_rule(&r, rule))
        return 2;
    sg_seq_init(&s);
    if (sg_enumerate(&s, &r, n, NULL, &err) != SG_OK ||
        sg_sparse_space_find(&plain, &s, s.n, &err) != SG_OK ||
        sg_sparse_space_find_rule(&ext, &s, &r, s.n, &err) != SG_OK) {
        fprintf(stderr, "sgbench: %s: %s\n", rule, err.msg);
        sg_seq_clear(&s);
        sg_rule_clear(&r);
        return 1;
    }
    printf("mode=space rule=%s n=%zu", rule, s.n);
    space_print("plain_", &plain);
    space_print("", &ext);
    putchar('\n');
    sg_seq_clear(&s);
    sg_rule_clear(&r);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc >= 4 && strcmp(argv[1], "enum") == 0)
        return run_enum(argv[2], (size_t)strtoull(argv[3], NULL, 10),
                        argc >= 5 ? argv[4] : "auto");
    if (argc == 4 && strcmp(argv[1], "analyse") == 0)
        return run_analyse(argv[2], (size_t)strtoull(argv[3], NULL, 10));
    if ((argc == 4 || argc == 5) && strcmp(argv[1], "deep") == 0)
        return run_deep(argv[2], (size_t)strtoull(argv[3], NULL, 10),
                        argc == 5 ? (size_t)strtoull(argv[4], NULL, 10)
                                  : (size_t)1 << 20);
    if (argc == 4 && strcmp(argv[1], "space") == 0)
        return run_space(argv[2], (size_t)strtoull(argv[3], NULL, 10));
    return usage();
}
