/*
 * testutil.h - helpers shared by the cmocka test programs: a seeded
 * pseudo-random generator whose seed is printed so that a failure can be
 * replayed (SG_TEST_SEED=...), a volume multiplier (SG_TEST_MULT=...)
 * for running more or fewer random cases, random rules; and, defined in
 * testutil.c, scratch directories (with cmocka fixtures), files read
 * back, bad rule texts refused, analysed rules beside their reference
 * values, deep runs saved and loaded, the certificate checksum.  A helper two test programs need lives
 * here, not in a copy in each.
 */
#ifndef SG_TEST_TESTUTIL_H
#define SG_TEST_TESTUTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <cmocka.h>
#include <string.h>

#include "sgexplore.h"

#include "reference.h"

/* xorshift64* state. */
typedef struct tu_rng {
    uint64_t s;
} tu_rng;

/* The run's base seed: SG_TEST_SEED when set, else the clock.  Read once
 * and printed once per program. */
static inline uint64_t tu_base_seed(void)
{
    static int have;
    static uint64_t seed;

    if (!have) {
        const char *e = getenv("SG_TEST_SEED");
        if (e != NULL && *e != '\0') {
            seed = strtoull(e, NULL, 0);
        } else {
            seed = (uint64_t)time(NULL) ^ ((uint64_t)clock() << 32);
        }
        have = 1;
        fprintf(stderr, "# random seed %llu (rerun with SG_TEST_SEED=%llu)\n",
                (unsigned long long)seed, (unsigned long long)seed);
    }
    return seed;
}

/* A generator for one test: base seed mixed with a per-test salt, so a
 * test replays alone with the same SG_TEST_SEED. */
static inline void tu_rng_init(tu_rng *g, uint64_t salt)
{
    uint64_t z = tu_base_seed() + 0x9E3779B97F4A7C15ULL * (salt + 1);

    /* splitmix64 finaliser, so that nearby seeds give unrelated streams */
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    z ^= z >> 31;
    g->s = z != 0 ? z : 1;
}

static inline uint64_t tu_next(tu_rng *g)
{
    g->s ^= g->s >> 12;
    g->s ^= g->s << 25;
    g->s ^= g->s >> 27;
    return g->s * 0x2545F4914F6CDD1DULL;
}

/* Uniform in [lo, hi] (hi - lo small). */
static inline uint64_t tu_range(tu_rng *g, uint64_t lo, uint64_t hi)
{
    return lo + (tu_next(g) >> 11) % (hi - lo + 1);
}

/* 1 with probability 1/n. */
static inline int tu_chance(tu_rng *g, unsigned n)
{
    return tu_range(g, 1, n) == 1;
}

/* SG_TEST_MULT (default 1, at least 0.01): scales the number of random
 * cases and, where cheap, their size. */
static inline double tu_mult(void)
{
    const char *e = getenv("SG_TEST_MULT");
    double m = 1.0;

    if (e != NULL && *e != '\0') {
        m = strtod(e, NULL);
        if (!(m >= 0.01)) {
            m = 0.01;
        }
    }
    return m;
}

/* n scaled by SG_TEST_MULT, never below 1. */
static inline size_t tu_scaled(size_t n)
{
    double v = (double)n * tu_mult();
    return v < 1.0 ? 1 : (size_t)v;
}

/* n scaled by SG_TEST_MULT, never below least: a size under which the
 * case no longer reaches the code it is there for. */
static inline size_t tu_scaled_at_least(size_t n, size_t least)
{
    size_t v = tu_scaled(n);
    return v < least ? least : v;
}

/* The seed, for failure messages. */
#define TU_SEED ((unsigned long long)tu_base_seed())

/* What a random take-and-break code may contain. */
typedef struct tu_code_opts {
    unsigned maxdigit; /* 7 (octal) or 15 (hex) */
    unsigned ndig_min; /* digits after the point, at least 1 */
    unsigned ndig_max;
    int pos0;    /* may have a digit before the point (4, 8, 12) */
    int unequal; /* may carry `!` on digits that split */
    int tail;    /* ends with a repeating tail `[..]` */
} tu_code_opts;

/* A random code as a reference rule: positions 1..ndig explicit, the last
 * of them non-zero when there is no tail, `!` only on digits with a split
 * bit, a 1-3 digit non-zero tail right after the explicit digits. */
static inline void tu_random_code(ref_rule *r, tu_rng *g, const tu_code_opts *o)
{
    unsigned nd = (unsigned)tu_range(g, o->ndig_min, o->ndig_max);
    static const uint8_t pos0_digits[] = {4, 8, 12};

    ref_rule_zero(r);
    r->len = nd + 1;
    if (o->pos0 && tu_chance(g, 3)) {
        r->digit[0] = o->maxdigit >= 15 ? pos0_digits[tu_range(g, 0, 2)] : 4;
    }
    for (unsigned k = 1; k <= nd; k++) {
        r->digit[k] = (uint8_t)tu_range(g, 0, o->maxdigit);
    }
    if (o->tail) {
        int nonzero = 0;
        r->tail_start = nd + 1;
        r->tail_len = (size_t)tu_range(g, 1, 3);
        for (size_t i = 0; i < r->tail_len; i++) {
            r->tail[i] = (uint8_t)tu_range(g, 0, o->maxdigit);
            nonzero |= r->tail[i] != 0;
        }
        if (!nonzero) {
            r->tail[0] = (uint8_t)tu_range(g, 1, o->maxdigit);
        }
    } else if (r->digit[nd] == 0) {
        r->digit[nd] = (uint8_t)tu_range(g, 1, o->maxdigit);
    }
    if (o->unequal) {
        for (size_t k = 0; k <= nd; k++) {
            if ((r->digit[k] & 12) && tu_chance(g, 2)) {
                r->unequal[k] = 1;
            }
        }
        for (size_t i = 0; i < r->tail_len; i++) {
            if ((r->tail[i] & 12) && tu_chance(g, 2)) {
                r->tail_unequal[i] = 1;
            }
        }
    }
}

/* A random finite set of 1..maxsize distinct elements of 1..maxel,
 * ascending; returns its size. */
static inline size_t tu_random_set(uint64_t *set, tu_rng *g, size_t maxsize,
                                   uint64_t maxel)
{
    size_t want = (size_t)tu_range(g, 1, maxsize), n = 0;

    if (want > maxel) {
        want = (size_t)maxel;
    }
    while (n < want) {
        uint64_t x = tu_range(g, 1, maxel);
        size_t i = 0;
        while (i < n && set[i] < x) {
            i++;
        }
        if (i < n && set[i] == x) {
            continue;
        }
        for (size_t j = n; j > i; j--) {
            set[j] = set[j - 1];
        }
        set[i] = x;
        n++;
    }
    return n;
}

/* The set as list text, runs of consecutive numbers sometimes written as
 * ranges ("1-3,7"); buf must hold 24 bytes per element. */
static inline void tu_set_text(char *buf, tu_rng *g, const uint64_t *set,
                               size_t n)
{
    size_t at = 0;

    buf[0] = '\0';
    for (size_t i = 0; i < n;) {
        size_t j = i;
        while (j + 1 < n && set[j + 1] == set[j] + 1) {
            j++;
        }
        if (j > i && tu_chance(g, 2)) {
            at += (size_t)sprintf(buf + at, "%s%llu-%llu", at ? "," : "",
                                  (unsigned long long)set[i],
                                  (unsigned long long)set[j]);
            i = j + 1;
        } else {
            at += (size_t)sprintf(buf + at, "%s%llu", at ? "," : "",
                                  (unsigned long long)set[i]);
            i++;
        }
    }
}

/* Parse text written in syntax into r (initialised here), or fail the
 * test with the parser's message and the seed. */
static inline void parse_or_fail(sg_rule *r, sg_rule_syntax syntax,
                                 const char *text)
{
    sg_error err;

    sg_rule_init(r);
    memset(&err, 0, sizeof err);
    if (sg_rule_parse(r, syntax, text, &err) != SG_OK)
        fail_msg("cannot parse \"%s\": %s (seed %llu)", text, err.msg, TU_SEED);
}

/* ------------------------------------------------------------------ */
/* testutil.c                                                           */
/* ------------------------------------------------------------------ */

/* dir/name, allocated. */
char *tu_path_in(const char *dir, const char *name);

/* A scratch file name in $TMPDIR (the test's own directory under make
 * check; /tmp when unset), allocated. */
char *tu_scratch(const char *name);

/* A fresh directory under $TMPDIR, allocated; removed by tu_rm_tree. */
char *tu_tmp_dir(void);

/* rm -rf dir (asserted to succeed), then free(dir). */
void tu_rm_tree(char *dir);

/* What tu_tmp_setup gives a test as *state: a fresh directory under
 * $TMPDIR and `c.db` in it (not created), the test's cache.  List the
 * test as tu_tmp_test(test) in the group: the directory is removed after
 * it, also when it fails or skips. */
typedef struct tu_tmp {
    char *dir;
    char *path;
} tu_tmp;

int tu_tmp_setup(void **state);
int tu_tmp_teardown(void **state);
#define tu_tmp_test(f)                                                         \
    cmocka_unit_test_setup_teardown(f, tu_tmp_setup, tu_tmp_teardown)

/* The whole of a file, NUL-terminated (text or bytes), allocated; *len
 * gets its size when len is not NULL. */
void *tu_slurp(const char *path, size_t *len);

/* text must be refused by sg_rule_parse in syntax: status and code
 * SG_E_INPUT, a one-line message, a position inside the text (exactly
 * `pos` when pos >= 0), an empty rule that may be cleared twice.  *out,
 * when out is not NULL, gets the error for further checks. */
void tu_expect_bad_rule(sg_rule_syntax syntax, const char *text, long pos,
                        sg_error *out);

/* A rule analysed by the library (to max values; max 0: parsed only),
 * with its canonical text and the reference values G(0..nref-1)
 * (tests/reference.c). */
typedef struct tu_game {
    sg_rule r;
    sg_seq s;
    sg_result res;
    char *canon;
    uint32_t *ref;
    size_t nref;
} tu_game;

void tu_game_init(tu_game *g, const char *code, size_t max, size_t nref);
void tu_game_clear(tu_game *g);

/* Save deep run d and load it back into a fresh run, which replaces d (a
 * checkpoint resumed). */
void tu_deep_round_trip(sg_deep *d, const sg_rule *r);

/* FNV-1a (64 bits) of "G(0),G(1),...,G(n-1)", written out as text first:
 * the certificate checksum of docs/CERTIFICATES.md, recomputed the plain
 * way. */
uint64_t tu_fnv_text(const uint32_t *g, size_t n);

#endif /* SG_TEST_TESTUTIL_H */
