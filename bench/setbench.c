/*
 * setbench.c - times the enumeration of set-expression games
 * (src/lib/enum/methods/enum_set.c): the straightforward loop against the method
 * SGI_SET_AUTO picks, on the cases of issue 22, and checks that both give
 * the same values.  Processor time (clock()), the best of REPEAT runs of
 * each, so that other programs on the machine count as little as they
 * can.  docs/SETS.md records its output.
 *
 *   bench/setbench                       the default cases
 *   bench/setbench SET N [all-but] ...   chosen cases (REPEAT=1 by default)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "rules/setexpr.h"

static double run(sg_seq *q, const sgi_set *s, int allbut, size_t n,
                  sgi_set_method m)
{
    sg_error err;
    clock_t t0 = clock();

    if (sgi_set_enumerate(q, s, allbut, n, m, NULL, &err) != SG_OK) {
        fprintf(stderr, "setbench: %s\n", err.msg);
        exit(1);
    }
    return (double)(clock() - t0) / CLOCKS_PER_SEC;
}

static void bench(const char *text, size_t n, int allbut, int repeat)
{
    sgi_set s;
    sg_seq a, b;
    sg_error err;
    double tn = 1e30, tf = 1e30;
    size_t i;
    int r;

    sgi_set_init(&s);
    if (sgi_set_parse(&s, text, &err) != SG_OK) {
        fprintf(stderr, "setbench: %s: %s\n", text, err.msg);
        exit(2);
    }
    sg_seq_init(&a);
    sg_seq_init(&b);
    for (r = 0; r < repeat; r++) {
        double t = run(&a, &s, allbut, n, SGI_SET_AUTO);
        if (t < tf)
            tf = t;
        t = run(&b, &s, allbut, n, SGI_SET_NAIVE);
        if (t < tn)
            tn = t;
    }
    for (i = 0; i < n; i++)
        if (sg_seq_get(&a, i) != sg_seq_get(&b, i)) {
            fprintf(stderr, "setbench: %s: the methods differ at %zu\n", text,
                    i);
            exit(1);
        }
    printf("%-8s %-16s %9zu  naive %8.3f s  %-10s %8.3f s  x%6.1f  "
           "max G %u\n",
           allbut ? "all-but" : "subtract", text, n, tn,
           sgi_set_method_name(&s, allbut, n, SGI_SET_AUTO), tf, tn / tf,
           a.max);
    fflush(stdout);
    sg_seq_clear(&a);
    sg_seq_clear(&b);
    sgi_set_clear(&s);
}

int main(int argc, char **argv)
{
    const char *e = getenv("REPEAT");
    int repeat = e ? atoi(e) : 0, i;

    if (argc > 1) {
        for (i = 1; i + 1 < argc;) {
            int allbut = i + 2 < argc && strcmp(argv[i + 2], "all-but") == 0;
            bench(argv[i], strtoul(argv[i + 1], NULL, 10), allbut,
                  repeat > 0 ? repeat : 1);
            i += 2 + allbut;
        }
        return 0;
    }
    if (repeat < 1)
        repeat = 3;
    bench("primes", 1000000, 0, repeat);
    bench("squares", 10000000, 0, repeat);
    bench("powers-of-2", 10000000, 0, repeat);
    bench("fibonacci", 10000000, 0, repeat);
    bench("1,primes", 1000000, 0, repeat);
    bench("primes", 100000, 1, repeat);
    bench("proper-divisors", 100000, 0, repeat);
    return 0;
}
