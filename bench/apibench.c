/*
 * apibench.c - the installed API's games given by a function, timed in
 * one process (bench/run.sh, docs/API.md): a rule of three options per
 * heap (take 1 or 2, or leave the two heaps n/2 and n/3) through its
 * callback for N values, and the ratio of a callback's subtract{1,2,3}
 * to the library's own reference method (sg_enumerate_naive) on the
 * same rule and count: what the callback and its checks cost over the
 * library's plainest loop.  Then 10^4 analyses of a cached rule (0.137,
 * heap 10^20 answered each time) in one process, with the resident set
 * after the first 100 and after all of them.  Prints one line per case,
 * key=value.
 *
 *   bench/apibench [N [x]]  (N default 100000; with a second argument
 *                            the cached loop is left out; its cache is
 *                            in $TMPDIR)
 */
#define _POSIX_C_SOURCE 200809L
#include "api/sgexplore_api.h"
#include "sgexplore.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static double clock_of(clockid_t id)
{
    struct timespec t;

    clock_gettime(id, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* take 1 or 2, or leave n/2 and n/3 */
static int64_t three(void *ctx, uint64_t n, uint64_t *buf, size_t cap)
{
    size_t len = 0;

    (void)ctx;
    if (cap < 9)
        return 9;
    if (n >= 1) {
        buf[len++] = n > 1;
        if (n > 1)
            buf[len++] = n - 1;
    }
    if (n >= 2) {
        buf[len++] = n > 2;
        if (n > 2)
            buf[len++] = n - 2;
    }
    if (n >= 3) {
        buf[len++] = 2;
        buf[len++] = n / 2;
        buf[len++] = n / 3;
    }
    return (int64_t)len;
}

/* subtract{1,2,3} */
static int64_t sub123(void *ctx, uint64_t n, uint64_t *buf, size_t cap)
{
    size_t len = 0;
    uint64_t s;

    (void)ctx;
    if (cap < 6)
        return 6;
    for (s = 1; s <= 3 && s <= n; s++) {
        buf[len++] = n > s;
        if (n > s)
            buf[len++] = n - s;
    }
    return (int64_t)len;
}

/* One callback game to n values; *wall, *cpu in seconds. */
static int run_moves(sg_moves_fn fn, const char *name, uint64_t n, double *wall,
                     double *cpu)
{
    sg_game *g;
    double w0, c0;

    if (sg_game_from_moves(&g, name, "1", fn, NULL) ||
        sg_game_set_budget(g, n, 0)) {
        fprintf(stderr, "apibench: %s\n", sg_last_error());
        return 1;
    }
    w0 = clock_of(CLOCK_MONOTONIC);
    c0 = clock_of(CLOCK_PROCESS_CPUTIME_ID);
    if (sg_game_analyse(g) || sg_game_computed(g) != n) {
        fprintf(stderr, "apibench: %s\n", sg_last_error());
        sg_game_free(g);
        return 1;
    }
    *wall = clock_of(CLOCK_MONOTONIC) - w0;
    *cpu = clock_of(CLOCK_PROCESS_CPUTIME_ID) - c0;
    sg_game_free(g);
    return 0;
}

/* The resident set of this process, in KiB (VmRSS), or 0. */
static long rss_kib(void)
{
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    long kib = 0;

    if (!f)
        return 0;
    while (fgets(line, sizeof line, f))
        if (sscanf(line, "VmRSS: %ld kB", &kib) == 1)
            break;
    fclose(f);
    return kib;
}

/* 10^4 analyses of one cached rule: the resident set stays flat. */
static int cached_loop(void)
{
    const char *tmp = getenv("TMPDIR");
    char path[4096];
    sg_cache *c;
    long after100 = 0;
    double c0 = clock_of(CLOCK_PROCESS_CPUTIME_ID);
    int i, n = 10000;

    snprintf(path, sizeof path, "%s/apibench-%ld.db",
             tmp && *tmp ? tmp : "/tmp", (long)getpid());
    if (sg_cache_open(&c, path, 0))
        return 1;
    for (i = 0; i < n; i++) {
        sg_game *g;
        char *v = NULL;
        if (i == 100)
            after100 = rss_kib();
        if (sg_game_new(&g, "0.137"))
            return 1;
        sg_game_set_cache(g, c);
        if (sg_game_analyse(g) ||
            sg_game_heap(g, "100000000000000000000", &v)) {
            fprintf(stderr, "apibench: %s\n", sg_last_error());
            return 1;
        }
        sg_free(v);
        sg_game_free(g);
    }
    printf("case=cached-loop n=%d cpu=%.3f rss_kib_after_100=%ld "
           "rss_kib_after_n=%ld\n",
           n, clock_of(CLOCK_PROCESS_CPUTIME_ID) - c0, after100, rss_kib());
    sg_cache_close(c);
    unlink(path);
    snprintf(path + strlen(path), sizeof path - strlen(path), "-wal");
    unlink(path);
    path[strlen(path) - 4] = '\0';
    snprintf(path + strlen(path), sizeof path - strlen(path), "-shm");
    unlink(path);
    return 0;
}

int main(int argc, char **argv)
{
    uint64_t n = argc > 1 ? strtoull(argv[1], NULL, 10) : 100000;
    double w, c, wn, cn, c0;
    sg_rule r;
    sg_seq s;
    sg_error err;

    if (n == 0 || run_moves(three, "bench-three", n, &w, &c))
        return 1;
    printf("case=three-options n=%llu wall=%.4f cpu=%.4f ns_per_value=%.0f\n",
           (unsigned long long)n, w, c, c * 1e9 / (double)n);
    if (run_moves(sub123, "bench-sub123", n, &w, &c))
        return 1;
    sg_rule_init(&r);
    sg_seq_init(&s);
    if (sg_rule_parse(&r, SG_SYNTAX_RULE, "subtract{1,2,3}", &err))
        return 1;
    wn = clock_of(CLOCK_MONOTONIC);
    c0 = clock_of(CLOCK_PROCESS_CPUTIME_ID);
    if (sg_enumerate_naive(&s, &r, (size_t)n, NULL, &err))
        return 1;
    cn = clock_of(CLOCK_PROCESS_CPUTIME_ID) - c0;
    wn = clock_of(CLOCK_MONOTONIC) - wn;
    printf("case=subtract123 n=%llu cpu=%.4f naive_cpu=%.4f ratio=%.2f\n",
           (unsigned long long)n, c, cn, cn > 0 ? c / cn : 0.0);
    (void)wn;
    sg_seq_clear(&s);
    sg_rule_clear(&r);
    return argc > 2 ? 0 : cached_loop();
}
