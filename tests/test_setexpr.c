/*
 * test_setexpr.c - unit tests of the set expressions
 * (src/lib/rules/setexpr_parse.c, setexpr.c)
 * and their enumeration (src/lib/enum/methods/enum_set.c), judged by a reference
 * written here apart from the library: trial division for primes, squares
 * and cubes marked by multiplication, triangular and Fibonacci numbers and
 * powers by their recurrences, divisors by a loop, and Grundy values by
 * listing every move straight from the definition.  Random expressions
 * are generated together with their reference meaning; the seed is
 * printed (SG_TEST_SEED replays a run, SG_TEST_MULT scales it).
 */
#define _DEFAULT_SOURCE
#include "testutil.h"

#include <stdint.h>
#include <string.h>

#include "rules/setexpr.h"

#define LIM 100000 /* members compared over 1..LIM */
#define GN 10001   /* Grundy values compared over 0..GN-1 */

/* ------------------------------------------------------------------ */
/* The reference                                                        */
/* ------------------------------------------------------------------ */

static int ref_prime(uint64_t k)
{
    uint64_t d;

    if (k < 2)
        return 0;
    for (d = 2; d * d <= k; d++)
        if (k % d == 0)
            return 0;
    return 1;
}

/* Named sets as tables over 0..LIM. */
enum {
    R_PRIMES,
    R_SQUARES,
    R_CUBES,
    R_TRI,
    R_FIB,
    R_POW2,
    R_POW3,
    R_POW10,
    R_NAMED
};
static unsigned char *ref_named[R_NAMED];

static void ref_tables(void)
{
    uint64_t i, a, b;
    int t;

    if (ref_named[0])
        return;
    for (t = 0; t < R_NAMED; t++) {
        ref_named[t] = calloc(LIM + 1, 1);
        assert_non_null(ref_named[t]);
    }
    for (i = 1; i <= LIM; i++)
        ref_named[R_PRIMES][i] = (unsigned char)ref_prime(i);
    for (i = 1; i * i <= LIM; i++)
        ref_named[R_SQUARES][i * i] = 1;
    for (i = 1; i * i * i <= LIM; i++)
        ref_named[R_CUBES][i * i * i] = 1;
    for (i = 1; i * (i + 1) / 2 <= LIM; i++)
        ref_named[R_TRI][i * (i + 1) / 2] = 1;
    for (a = 1, b = 1; b <= LIM;) {
        uint64_t c = a + b;
        ref_named[R_FIB][b] = 1;
        a = b;
        b = c;
    }
    for (i = 1; i <= LIM; i *= 2)
        ref_named[R_POW2][i] = 1;
    for (i = 1; i <= LIM; i *= 3)
        ref_named[R_POW3][i] = 1;
    for (i = 1; i <= LIM; i *= 10)
        ref_named[R_POW10][i] = 1;
}

/* A reference item: the same forms, their meaning written out again. */
typedef struct ritem {
    int kind; /* 0 range, 1 progression, 2 named (t), 3 proper divisors,
                 4 at most p/q, 5 at least p/q */
    uint64_t a, b, t, lo, hi;
} ritem;

typedef struct rset {
    ritem inc[8], exc[8];
    int ninc, nexc;
} rset;

static int ritem_has(const ritem *it, uint64_t k, uint64_t n)
{
    if (k < it->lo || k > it->hi)
        return 0;
    switch (it->kind) {
    case 0:
        return k >= it->a && k <= it->b;
    case 1:
        return k >= it->a && (k - it->a) % it->b == 0;
    case 2:
        return k <= LIM && ref_named[it->t][k];
    case 3:
        return k < n && n % k == 0;
    case 4:
        return k >= 1 && k * it->b <= n * it->a;
    default:
        return k <= n && k * it->b >= n * it->a;
    }
}

static int rset_has(const rset *s, uint64_t k, uint64_t n)
{
    int i, in = 0;

    for (i = 0; i < s->ninc && !in; i++)
        in = ritem_has(&s->inc[i], k, n);
    for (i = 0; i < s->nexc && in; i++)
        in = !ritem_has(&s->exc[i], k, n);
    return in;
}

/* G(0..n-1) of the game whose moves from heap h are the k in 1..h that
 * `has` accepts, every move listed. */
static void ref_grundy(uint32_t *g, size_t n,
                       int (*has)(const void *, uint64_t, uint64_t),
                       const void *ctx)
{
    unsigned char *seen = malloc(n + 2);
    size_t h, k;

    assert_non_null(seen);
    for (h = 0; h < n; h++) {
        uint32_t v = 0;
        memset(seen, 0, h + 2);
        for (k = 1; k <= h; k++)
            if (has(ctx, k, h))
                seen[g[h - k]] = 1;
        while (seen[v])
            v++;
        g[h] = v;
    }
    free(seen);
}

typedef struct rgame {
    const rset *s;
    int allbut;
} rgame;

static int rgame_has(const void *ctx, uint64_t k, uint64_t n)
{
    const rgame *g = ctx;
    return rset_has(g->s, k, n) != g->allbut;
}

/* ------------------------------------------------------------------ */
/* Helpers                                                              */
/* ------------------------------------------------------------------ */

static void parse_ok(sgi_set *s, const char *text)
{
    sg_error err;

    sgi_set_init(s);
    memset(&err, 0, sizeof err);
    if (sgi_set_parse(s, text, &err) != SG_OK)
        fail_msg("cannot parse \"%s\": %s (seed %llu)", text, err.msg, TU_SEED);
}

/* The library's values of set `text` by method m. */
static void lib_grundy(uint32_t *g, size_t n, const char *text, int allbut,
                       sgi_set_method m)
{
    sgi_set s;
    sg_seq q;
    sg_error err;
    size_t i;

    parse_ok(&s, text);
    sg_seq_init(&q);
    if (sgi_set_enumerate(&q, &s, allbut, n, m, NULL, &err) != SG_OK)
        fail_msg("enumerating \"%s\": %s", text, err.msg);
    assert_int_equal(q.n, n);
    for (i = 0; i < n; i++)
        g[i] = sg_seq_get(&q, i);
    sg_seq_clear(&q);
    sgi_set_clear(&s);
}

static void compare_grundy(const char *text, const rset *ref, int allbut,
                           size_t n)
{
    uint32_t *want = malloc(n * sizeof *want), *got = malloc(n * sizeof *got);
    rgame game = {ref, allbut};
    sgi_set_method m;
    size_t i;

    assert_non_null(want);
    assert_non_null(got);
    ref_grundy(want, n, rgame_has, &game);
    for (m = SGI_SET_NAIVE; m <= SGI_SET_BLOCKED; m++) {
        lib_grundy(got, n, text, allbut, m);
        for (i = 0; i < n; i++)
            if (got[i] != want[i])
                fail_msg("%s%s, method %d: G(%zu) = %u, the reference says "
                         "%u (seed %llu)",
                         allbut ? "all-but " : "", text, (int)m, i, got[i],
                         want[i], TU_SEED);
    }
    free(want);
    free(got);
}

static ritem r_named(int t)
{
    ritem it = {2, 0, 0, (uint64_t)t, 1, UINT64_MAX};
    return it;
}

static ritem r_kind(int kind, uint64_t a, uint64_t b)
{
    ritem it = {kind, a, b, 0, 1, UINT64_MAX};
    return it;
}

/* ------------------------------------------------------------------ */
/* Membership                                                           */
/* ------------------------------------------------------------------ */

/* Each named set and a few progressions: contains() and the member list
 * over 1..LIM against the reference. */
static void test_members(void **state)
{
    static const struct {
        const char *text;
        int kind, t;
        uint64_t a, b;
    } cases[] = {
        {"primes", 2, R_PRIMES, 0, 0},
        {"squares", 2, R_SQUARES, 0, 0},
        {"cubes", 2, R_CUBES, 0, 0},
        {"triangular", 2, R_TRI, 0, 0},
        {"fibonacci", 2, R_FIB, 0, 0},
        {"powers-of-2", 2, R_POW2, 0, 0},
        {"powers-of-3", 2, R_POW3, 0, 0},
        {"POWERS-OF-10", 2, R_POW10, 0, 0},
        {"4+3k", 1, 0, 4, 3},
        {"1+1k", 1, 0, 1, 1},
        {"17+1000k", 1, 0, 17, 1000},
        {"Primes", 2, R_PRIMES, 0, 0},
    };
    size_t c;

    (void)state;
    ref_tables();
    for (c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        sgi_set s;
        rset r;
        uint64_t *m = NULL, k;
        size_t n = 0, cap = 0, i = 0;
        sg_error err;

        memset(&r, 0, sizeof r);
        r.ninc = 1;
        r.inc[0] = cases[c].kind == 2 ? r_named(cases[c].t)
                                      : r_kind(1, cases[c].a, cases[c].b);
        parse_ok(&s, cases[c].text);
        assert_false(sgi_set_heap_dependent(&s));
        assert_int_equal(sgi_set_members(&m, &n, &cap, &s, LIM, &err), SG_OK);
        for (k = 1; k <= LIM; k++) {
            int want = rset_has(&r, k, 0);
            if (sgi_set_contains(&s, k, 0) != want)
                fail_msg("%s: contains(%llu) is wrong", cases[c].text,
                         (unsigned long long)k);
            if (want) {
                if (i >= n || m[i] != k)
                    fail_msg("%s: member %zu should be %llu", cases[c].text, i,
                             (unsigned long long)k);
                i++;
            }
        }
        assert_int_equal(i, n);
        free(m);
        sgi_set_clear(&s);
    }
}

/* Members near 2^63: the largest prime, square and Fibonacci number below
 * it, and nothing past it. */
static void test_members_large(void **state)
{
    sgi_set s;

    (void)state;
    parse_ok(&s, "primes");
    /* 2^63 - 25 is the largest prime below 2^63 */
    assert_true(sgi_set_contains(&s, 9223372036854775783ULL, 0));
    assert_false(sgi_set_contains(&s, 9223372036854775781ULL, 0));
    assert_false(sgi_set_contains(&s, 9223372036854775807ULL, 0));
    sgi_set_clear(&s);
    parse_ok(&s, "squares");
    assert_true(sgi_set_contains(&s, 3037000499ULL * 3037000499ULL, 0));
    assert_false(sgi_set_contains(&s, 3037000499ULL * 3037000499ULL - 1, 0));
    sgi_set_clear(&s);
    parse_ok(&s, "fibonacci");
    assert_true(sgi_set_contains(&s, 7540113804746346429ULL, 0)); /* F(92) */
    assert_false(sgi_set_contains(&s, 7540113804746346428ULL, 0));
    sgi_set_clear(&s);
    /* 3,162,277 squares up to 10^13, each 2k+1 past the last: listed one
     * by one (a segment of bits per square took three minutes) */
    {
        uint64_t *m = NULL;
        size_t n = 0, cap = 0;
        sg_error err;
        parse_ok(&s, "squares:1-10000000000000");
        assert_int_equal(sgi_set_members(&m, &n, &cap, &s, UINT64_MAX, &err),
                         SG_OK);
        assert_int_equal(n, 3162277);
        assert_true(m[0] == 1 && m[n - 1] == 3162277ULL * 3162277ULL);
        for (size_t i = 1; i < n; i++)
            if (m[i] != (uint64_t)(i + 1) * (i + 1))
                fail_msg("square %zu is %llu", i, (unsigned long long)m[i]);
        free(m);
        sgi_set_clear(&s);
    }
    /* a range of 10^18 is one item, its members never listed */
    parse_ok(&s, "1-1000000000000000000");
    assert_int_equal(s.ninc, 1);
    assert_true(sgi_set_contains(&s, 999999999999999999ULL, 0));
    sgi_set_clear(&s);
}

/* proper-divisors and the fractions, for every heap n <= 400. */
static void test_heap_dependent(void **state)
{
    static const struct {
        const char *text;
        int kind;
        uint64_t a, b;
    } cases[] = {
        {"proper-divisors", 3, 0, 0}, {"at-most-half", 4, 1, 2},
        {"at-most-1/3", 4, 1, 3},     {"at-most-2/3", 4, 2, 3},
        {"at-least-half", 5, 1, 2},   {"at-least-2/3", 5, 2, 3},
        {"at-least-1/1", 5, 1, 1},    {"at-most-3/6", 4, 1, 2},
    };
    size_t c;

    (void)state;
    for (c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        sgi_set s;
        rset r;
        uint64_t n, k, *m = NULL;
        size_t nm = 0, cap = 0;
        sg_error err;

        memset(&r, 0, sizeof r);
        r.ninc = 1;
        r.inc[0] = r_kind(cases[c].kind, cases[c].a, cases[c].b);
        parse_ok(&s, cases[c].text);
        assert_true(sgi_set_heap_dependent(&s));
        for (n = 0; n <= 400; n++) {
            size_t i = 0;
            assert_int_equal(sgi_set_members_at(&m, &nm, &cap, &s, n, &err),
                             SG_OK);
            for (k = 1; k <= n; k++) {
                int want = rset_has(&r, k, n);
                if (sgi_set_contains(&s, k, n) != want)
                    fail_msg("%s: contains(%llu, heap %llu) is wrong",
                             cases[c].text, (unsigned long long)k,
                             (unsigned long long)n);
                if (want) {
                    if (i >= nm || m[i] != k)
                        fail_msg("%s: heap %llu: move %zu should be %llu",
                                 cases[c].text, (unsigned long long)n, i,
                                 (unsigned long long)k);
                    i++;
                }
            }
            assert_int_equal(i, nm);
        }
        free(m);
        sgi_set_clear(&s);
    }
}

/* ------------------------------------------------------------------ */
/* Canonical forms                                                      */
/* ------------------------------------------------------------------ */

static void test_canonical_table(void **state)
{
    static const char *const cases[][2] = {
        {"7", "7"},
        {"1-3", "1-3"},
        {"3,2,1", "1-3"},
        {"1,2", "1,2"},
        {"5,1-3,4", "1-5"},
        {"4+3k", "4+3k"},
        {"4+3K", "4+3k"},
        /* powers as --heap writes them (issue 50) */
        {"10^3", "1000"},
        {"1-10^2", "1-100"},
        {"primes:1-10^3", "primes:1-997"},
        {"2^62", "4611686018427387904"},
        {"10^3+1k\\3^7", "1000+1k\\2187"},
        {"PRIMES", "primes"},
        {"2,primes", "primes"},
        {"2,3,primes", "primes"},
        {"1,primes", "1,primes"},
        {"squares,1", "squares"},
        {"1-6,primes", "1,4,6,primes"},
        {"1-40,primes", "1-40,primes"}, /* longer than 16: kept whole */
        {"1-4,5+1k", "1+1k"},
        {"10+1k,3-9", "3+1k"},
        {"primes,10+1k", "10+1k,primes"}, /* progressions first */
        {"primes,2+1k", "2+1k"},
        {"4+3k:1-20", "4+3k:1-19"},
        {"4+3k:10-20", "10+3k:1-19"},
        {"5+1k:1-9", "5-9"},
        {"2+2k,4+4k", "2+2k"},
        {"2+2k,1+2k", "1+2k,2+2k"},
        {"primes:1-1000", "primes:1-997"},
        {"primes:100-200", "primes:101-199"},
        {"primes:1-2", "2"},
        {"primes:1-10,primes:11-20", "primes:1-19"},
        {"primes,primes:5-100", "primes"},
        {"squares:1-9223372036854775807", "squares"},
        {"cubes:2-100", "cubes:8-64"},
        {"triangular:10-20", "triangular:10-15"},
        {"powers-of-4,powers-of-2", "powers-of-2"},
        {"fibonacci,powers-of-2", "fibonacci,powers-of-2"},
        {"primes\\2", "primes\\2"},
        {"primes\\4", "primes"},
        {"primes\\1-10", "primes\\2,3,5,7"},
        {"1-10\\2-3", "1,4-10"},
        {"1-20\\4+1k", "1-3"},
        {"squares\\1-3,5-8,100", "squares\\1,100"},
        {"primes,1-10\\1-5", "6,8-10,primes\\2,3,5"},
        {"at-most-half", "at-most-half"},
        {"at-most-2/4", "at-most-half"},
        {"At-Least-1/2", "at-least-half"},
        {"at-least-3/3", "at-least-1/1"},
        {"at-most-1/1", "1+1k"},
        {"at-most-half,1+1k", "1+1k"},
        {"at-most-1/3,at-most-half", "at-most-half"},
        {"at-least-half,at-least-1/3", "at-least-1/3"},
        {"at-most-half:1-10,at-most-half:11-20", "at-most-half:1-20"},
        {"proper-divisors\\1", "proper-divisors\\1"},
        {"at-most-1/3:2-5", "at-most-1/3:2-5"},
        {"9223372036854775806+5k", "9223372036854775806"},
        {"5-9223372036854775807", "5+1k"},
        {"9223372036854775807", "9223372036854775807"},
    };
    size_t c;

    (void)state;
    ref_tables();
    for (c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        sgi_set s;
        char *t;
        parse_ok(&s, cases[c][0]);
        t = sgi_set_canonical(&s);
        assert_non_null(t);
        if (strcmp(t, cases[c][1]) != 0)
            fail_msg("canonical(\"%s\") = \"%s\", expected \"%s\"", cases[c][0],
                     t, cases[c][1]);
        free(t);
        sgi_set_clear(&s);
    }
}

/* A random item written as text, with its reference meaning. */
static void random_item(char *buf, ritem *it, tu_rng *g, int heap_ok)
{
    static const char *const names[] = {
        "primes",    "squares",     "cubes",       "triangular",
        "fibonacci", "powers-of-2", "powers-of-3", "powers-of-10"};
    int kind = (int)tu_range(g, 0, heap_ok ? 5 : 2);
    uint64_t a = tu_range(g, 1, 60), b = tu_range(g, 1, 12);

    /* some steps past sgi_set_members's gap of 64, whose members it takes
     * one by one */
    if (tu_chance(g, 4))
        b = tu_range(g, 13, 400);

    it->lo = 1;
    it->hi = UINT64_MAX;
    it->t = 0;
    switch (kind) {
    case 0:
        it->kind = 0;
        it->a = a;
        it->b = a + (tu_chance(g, 2) ? 0 : tu_range(g, 0, 30));
        if (it->a == it->b)
            sprintf(buf, "%llu", (unsigned long long)a);
        else
            sprintf(buf, "%llu-%llu", (unsigned long long)it->a,
                    (unsigned long long)it->b);
        return; /* no bound on ranges here: it could empty them */
    case 1:
        it->kind = 1;
        it->a = a;
        it->b = b;
        sprintf(buf, "%llu+%llu%c", (unsigned long long)a,
                (unsigned long long)b, tu_chance(g, 4) ? 'K' : 'k');
        break;
    case 2:
        it->kind = 2;
        it->t = tu_range(g, 0, 7);
        strcpy(buf, names[it->t]);
        break;
    case 3:
        it->kind = 3;
        strcpy(buf, "proper-divisors");
        break;
    default:
        it->kind = tu_chance(g, 2) ? 4 : 5;
        it->b = tu_range(g, 1, 6);
        it->a = tu_range(g, 1, it->b);
        if (it->kind == 4 && it->a == it->b && tu_chance(g, 2))
            it->a = 1;
        sprintf(buf, "at-%s-%llu/%llu", it->kind == 4 ? "most" : "least",
                (unsigned long long)it->a, (unsigned long long)it->b);
        break;
    }
    if (tu_chance(g, 3)) {
        /* a bound wide enough to keep a member: [1, hi] with hi past the
         * first members of every base above */
        it->hi = tu_range(g, 200, 3000);
        sprintf(buf + strlen(buf), ":1-%llu", (unsigned long long)it->hi);
    }
}

/* A random expression with its reference meaning (a difference may leave
 * nothing: the parser then refuses it). */
static void random_set(char *buf, rset *r, tu_rng *g, int heap_ok)
{
    int i;

    memset(r, 0, sizeof *r);
    buf[0] = '\0';
    r->ninc = (int)tu_range(g, 1, 5);
    for (i = 0; i < r->ninc; i++) {
        if (i)
            strcat(buf, ",");
        random_item(buf + strlen(buf), &r->inc[i], g, heap_ok);
    }
    if (tu_chance(g, 2)) {
        r->nexc = (int)tu_range(g, 1, 3);
        strcat(buf, "\\");
        for (i = 0; i < r->nexc; i++) {
            if (i)
                strcat(buf, ",");
            random_item(buf + strlen(buf), &r->exc[i], g, heap_ok);
        }
    }
}

/* Random expressions: the canonical text parses back to itself and
 * means what the reference says, for every k <= 3000 (heaps <= 120 for
 * heap-dependent ones). */
static void test_canonical_random(void **state)
{
    tu_rng g;
    size_t it, iters = tu_scaled(3000), parsed = 0;

    (void)state;
    ref_tables();
    tu_rng_init(&g, 101);
    for (it = 0; it < iters; it++) {
        char text[1024], *c1, *c2;
        rset r;
        sgi_set s, back;
        sg_error err;
        uint64_t k, n;
        int empty = 1, dep;

        random_set(text, &r, &g, tu_chance(&g, 3));
        sgi_set_init(&s);
        if (sgi_set_parse(&s, text, &err) != SG_OK) {
            /* only a difference that leaves nothing may be refused */
            if (r.nexc == 0 || strstr(err.msg, "empty") == NULL)
                fail_msg("\"%s\" refused: %s (seed %llu)", text, err.msg,
                         TU_SEED);
            /* a move takes k <= n tokens */
            for (n = 1; n <= 1500 && empty; n++)
                for (k = 1; k <= n && empty; k++)
                    empty = !rset_has(&r, k, n);
            if (!empty)
                fail_msg("\"%s\" refused as empty, but it has members "
                         "(seed %llu)",
                         text, TU_SEED);
            continue;
        }
        parsed++;
        c1 = sgi_set_canonical(&s);
        assert_non_null(c1);
        parse_ok(&back, c1);
        c2 = sgi_set_canonical(&back);
        if (strcmp(c1, c2) != 0)
            fail_msg("\"%s\" -> \"%s\" -> \"%s\" (seed %llu)", text, c1, c2,
                     TU_SEED);
        dep = sgi_set_heap_dependent(&s);
        for (n = dep ? 0 : 3000; n <= (dep ? 120u : 3000u); n++)
            for (k = 1; k <= (dep ? n : 3000); k++) {
                int want = rset_has(&r, k, n);
                if (sgi_set_contains(&s, k, n) != want ||
                    sgi_set_contains(&back, k, n) != want)
                    fail_msg("\"%s\" (canonical \"%s\"): k = %llu, heap "
                             "%llu: the reference says %d (seed %llu)",
                             text, c1, (unsigned long long)k,
                             (unsigned long long)n, want, TU_SEED);
            }
        if (!dep) {
            /* the members listed, through both of sgi_set_members's paths
             * (a member taken alone, a segment of bits) */
            uint64_t *m = NULL;
            size_t nm = 0, cap = 0, i = 0;
            assert_int_equal(sgi_set_members(&m, &nm, &cap, &s, 3000, &err),
                             SG_OK);
            for (k = 1; k <= 3000; k++)
                if (rset_has(&r, k, 3000)) {
                    if (i >= nm || m[i] != k)
                        fail_msg("\"%s\": member %zu should be %llu (seed "
                                 "%llu)",
                                 text, i, (unsigned long long)k, TU_SEED);
                    i++;
                }
            if (i != nm)
                fail_msg("\"%s\": %zu members listed, %zu expected (seed "
                         "%llu)",
                         text, nm, i, TU_SEED);
            free(m);
        }
        free(c1);
        free(c2);
        sgi_set_clear(&s);
        sgi_set_clear(&back);
    }
    assert_true(parsed > iters / 2);
}

/* ------------------------------------------------------------------ */
/* Bad input                                                            */
/* ------------------------------------------------------------------ */

static void test_bad_inputs(void **state)
{
    static const struct {
        const char *text;
        long pos;
        const char *msg;
    } cases[] = {
        {"", 0, "empty set"},
        {",", 0, "empty set"},
        {"1,,2", 2, "empty item in set"},
        {"1,", 2, "empty item in set"},
        {"4+0k", 2,
         "progression 4+0k has step 0: the step must be at least "
         "1"},
        {"0+3k", 0,
         "0 is not allowed in a number: a move removes at least "
         "one token"},
        {"0", 0, "0 is not allowed"},
        {"4+3", 3, "a progression is written A+Bk, as in '4+3k'"},
        {"4+k", 2, "expected the step B of a progression A+Bk"},
        {"prime", 0, "unknown set 'prime': did you mean 'primes'?"},
        {"sqares", 0, "unknown set 'sqares': did you mean 'squares'?"},
        {"fibonaci", 0, "did you mean 'fibonacci'?"},
        {"primes-3", 0, "a difference is written with a backslash"},
        {"proper-divisor", 0, "did you mean 'proper-divisors'?"},
        {"9223372036854775808", 0,
         "number '9223372036854775808' is larger "
         "than 2^63-1"},
        {"1-99999999999999999999", 2, "larger than 2^63-1"},
        {"powers-of-1", 10, "the base of powers-of-B must be at least 2"},
        {"powers-of-", 10, "expected the base B of powers-of-B"},
        {"squares:2-3", 0, "'squares:2-3' has no members"},
        {"primes:1-1", 0, "'primes:1-1' has no members"},
        {"fibonacci:4-4", 0, "has no members"},
        {"5:1-3", 0, "'5:1-3' has no members"},
        {"primes:10-5", 7, "bound 10-5 is reversed"},
        {"primes:5", 8, "a bound is written :LO-HI"},
        {"primes:1-5:2-3", 10, "an item takes one bound only"},
        {"5-3", 0, "range 5-3 is reversed"},
        {"3-", 2, "range needs an upper end"},
        {"-3", 0, "negative numbers are not allowed"},
        {"2\\2", 1, "the set is empty"},
        {"primes\\primes", 6, "the set is empty"},
        {"at-most-half\\1+1k", 12, "the set is empty"},
        {"primes\\", 7, "nothing after '\\'"},
        {"\\2", 0, "empty set"},
        {"primes\\2\\3", 8, "one '\\' per set"},
        {"at-most-3/2", 8,
         "the share 3/2 of the heap must be more than 0 "
         "and at most 1"},
        {"at-most-0/2", 8, "must be more than 0"},
        {"at-least-1/0", 9, "must be more than 0"},
        {"at-most-x", 8, "expected a fraction P/Q or 'half'"},
        /* parentheses group a union only (issue 50) */
        {"(primes\\2),9", 7, "a difference cannot be part of a union"},
        {"9,(primes\\2)", 2, "',' binds tighter than '\\'"},
        {"(9,primes)\\2,(3)", 13, "a difference cannot be part of"},
        {"(9,primes", 0, "'(' without its ')'"},
        {"2^63", 0, "number '2^63' is larger than 2^63-1"},
        {"1-10^19", 2, "larger than 2^63-1"},
        {"10^", 3, "expected an exponent after '^'"},
        {"9)", 1, "')' without its '('"},
        {"((9))", 1, "parentheses inside parentheses"},
        {"(9,primes)x", 10, "expected '\\' or the end after ')'"},
        {"()", 1, "empty item in set"},
        {"1 ,2", 1, "unexpected character ' ' in a set"},
        {"primes;", 6, "unexpected character ';' in a set"},
    };
    size_t c;

    (void)state;
    for (c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        sgi_set s;
        sg_error err;
        sgi_set_init(&s);
        memset(&err, 0, sizeof err);
        if (sgi_set_parse(&s, cases[c].text, &err) != SG_E_INPUT)
            fail_msg("\"%s\" was accepted", cases[c].text);
        if (strstr(err.msg, cases[c].msg) == NULL || err.pos != cases[c].pos)
            fail_msg("\"%s\": message \"%s\" at %ld, expected \"%s\" at %ld",
                     cases[c].text, err.msg, err.pos, cases[c].msg,
                     cases[c].pos);
        assert_null(strchr(err.msg, '\n'));
        sgi_set_clear(&s);
    }
    /* under 1 MiB of text whose canonical form (ranges split by the
     * progressions' members) is longer than what the parser reads */
    {
        size_t cap = (size_t)1 << 20, at = 0, i;
        char *text = malloc(cap);
        sgi_set s;
        sg_error err;
        assert_non_null(text);
        for (i = 1; i <= 16; i++)
            at += (size_t)sprintf(text + at, "%zu+%zuk,", i + 100, i + 7);
        for (i = 1; at + 40 < cap && i < 59000; i++)
            at += (size_t)sprintf(text + at, "%s%zu-%zu", i > 1 ? "," : "",
                                  17 * i, 17 * i + 10);
        sgi_set_init(&s);
        assert_int_equal(sgi_set_parse(&s, text, &err), SG_E_INPUT);
        assert_string_equal(err.msg, "the canonical form of this set is "
                                     "longer than 1048576 bytes");
        sgi_set_clear(&s);
        free(text);
    }
    /* the seventeenth item that is not a number or range */
    {
        char text[400];
        size_t at = 0, i;
        long pos17 = 0;
        sgi_set s;
        sg_error err;
        for (i = 1; i <= 17; i++) {
            if (i == 17)
                pos17 = (long)at;
            at += (size_t)sprintf(text + at, "%s2+%zuk", i > 1 ? "," : "", i);
            if (i == 17)
                pos17++; /* after the comma */
        }
        sgi_set_init(&s);
        assert_int_equal(sgi_set_parse(&s, text, &err), SG_E_INPUT);
        assert_string_equal(err.msg,
                            "more than 16 items other than numbers and "
                            "ranges");
        assert_int_equal(err.pos, pos17);
    }
}

/* ------------------------------------------------------------------ */
/* Finite, cofinite, periodic                                           */
/* ------------------------------------------------------------------ */

/* Parentheses only group (issue 50: `9,primes\2` was read as a union
 * with primes\2): ',' binds tighter than '\', so a set and its
 * parenthesised spellings have one canonical text and the members of
 * the definition, judged here by trial division. */
static void test_parentheses(void **state)
{
    static const struct {
        const char *text, *same;
        uint64_t plus, minus1, minus2; /* (primes or plus) \ {minus1, 2} */
    } cases[] = {
        {"(9,primes)\\2", "9,primes\\2", 9, 2, 2},
        {"primes\\(2,9)", "primes\\2,9", 0, 2, 9},
        {"(primes,9)\\(9,2)", "primes,9\\2,9", 0, 9, 2},
        {"(primes)", "primes", 0, 0, 0},
    };

    (void)state;
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        sgi_set a, b;
        char *ca, *cb;
        parse_ok(&a, cases[c].text);
        parse_ok(&b, cases[c].same);
        ca = sgi_set_canonical(&a);
        cb = sgi_set_canonical(&b);
        assert_non_null(ca);
        assert_non_null(cb);
        if (strcmp(ca, cb) != 0 || strchr(ca, '('))
            fail_msg("\"%s\" is \"%s\", \"%s\" is \"%s\"", cases[c].text, ca,
                     cases[c].same, cb);
        for (uint64_t k = 1; k <= 300; k++) {
            int prime = k >= 2, want;
            for (uint64_t d = 2; d * d <= k; d++)
                if (k % d == 0)
                    prime = 0;
            want = (prime || k == cases[c].plus) && k != cases[c].minus1 &&
                   k != cases[c].minus2;
            if (sgi_set_contains(&a, k, 1000) != want)
                fail_msg("%s: %llu %s", cases[c].text, (unsigned long long)k,
                         want ? "missing" : "wrongly in");
        }
        free(ca);
        free(cb);
        sgi_set_clear(&a);
        sgi_set_clear(&b);
    }
}

static void test_shape(void **state)
{
    sgi_set s;
    uint64_t a, b;

    (void)state;
    parse_ok(&s, "2,5,9");
    assert_true(sgi_set_finite(&s, &a));
    assert_int_equal(a, 9);
    assert_false(sgi_set_cofinite(&s, &a));
    assert_true(sgi_set_periodic(&s, &a, &b));
    assert_int_equal(a, 1);
    sgi_set_clear(&s);
    parse_ok(&s, "primes:1-1000");
    assert_true(sgi_set_finite(&s, &a));
    assert_int_equal(a, 997);
    sgi_set_clear(&s);
    parse_ok(&s, "primes");
    assert_false(sgi_set_finite(&s, &a));
    assert_false(sgi_set_periodic(&s, &a, &b));
    sgi_set_clear(&s);
    parse_ok(&s, "1,7+1k\\9");
    assert_false(sgi_set_finite(&s, &a));
    assert_true(sgi_set_cofinite(&s, &a));
    assert_int_equal(a, 10);
    sgi_set_clear(&s);
    parse_ok(&s, "at-most-half");
    assert_false(sgi_set_periodic(&s, &a, &b));
    assert_false(sgi_set_cofinite(&s, &a));
    sgi_set_clear(&s);
    /* periodic claims checked by membership over a long stretch */
    {
        static const char *const per[] = {"4+3k,2+2k", "1-5,10+6k\\16,40",
                                          "3+4k:1-50,7+10k", "1+1k\\1-3"};
        size_t c;
        for (c = 0; c < sizeof per / sizeof per[0]; c++) {
            uint64_t p, o, k;
            parse_ok(&s, per[c]);
            assert_true(sgi_set_periodic(&s, &p, &o));
            for (k = o; k < o + 2000; k++)
                if (sgi_set_contains(&s, k, 0) !=
                    sgi_set_contains(&s, k + p, 0))
                    fail_msg("%s: period %llu from %llu fails at %llu", per[c],
                             (unsigned long long)p, (unsigned long long)o,
                             (unsigned long long)k);
            sgi_set_clear(&s);
        }
    }
}

/* ------------------------------------------------------------------ */
/* Enumeration                                                          */
/* ------------------------------------------------------------------ */

/* The games of issue 22 against the brute force, both methods. */
static void test_enum_named(void **state)
{
    rset r;
    size_t n = tu_scaled(GN) < GN ? tu_scaled(GN) : GN;

    (void)state;
    ref_tables();
    memset(&r, 0, sizeof r);
    r.ninc = 1;
    r.inc[0] = r_named(R_PRIMES);
    compare_grundy("primes", &r, 0, n);
    compare_grundy("primes", &r, 1, n);
    r.inc[0] = r_named(R_SQUARES);
    compare_grundy("squares", &r, 0, n);
    r.inc[0] = r_named(R_POW2);
    compare_grundy("powers-of-2", &r, 0, n);
    r.inc[0] = r_named(R_FIB);
    compare_grundy("fibonacci", &r, 0, n);
    r.inc[0] = r_named(R_CUBES);
    compare_grundy("cubes", &r, 0, n);
    r.inc[0] = r_named(R_TRI);
    compare_grundy("triangular", &r, 0, n);
    r.inc[0] = r_kind(3, 0, 0);
    compare_grundy("proper-divisors", &r, 0, n);
    compare_grundy("proper-divisors", &r, 1, n / 4);
    r.inc[0].lo = 2;
    r.inc[0].hi = 90;
    compare_grundy("proper-divisors:2-90", &r, 0, n);
    r.inc[0] = r_kind(4, 1, 2);
    compare_grundy("at-most-half", &r, 0, n);
    r.inc[0] = r_kind(4, 2, 5);
    r.inc[0].lo = 3;
    r.inc[0].hi = 700;
    compare_grundy("at-most-2/5:3-700", &r, 0, n);
    r.inc[0] = r_kind(5, 2, 3);
    compare_grundy("at-least-2/3", &r, 0, n);
    r.inc[0].lo = 4;
    r.inc[0].hi = 60;
    compare_grundy("at-least-2/3:4-60", &r, 0, n);
    r.inc[0] = r_kind(5, 1, 1);
    compare_grundy("at-least-1/1", &r, 0, n);
    r.ninc = 2;
    r.inc[0] = r_kind(0, 1, 1);
    r.inc[1] = r_named(R_PRIMES);
    compare_grundy("1,primes", &r, 0, n);
}

/* Random unions, progressions and differences (subtraction and all-but). */
static void test_enum_random(void **state)
{
    tu_rng g;
    size_t it, iters = tu_scaled(60);

    (void)state;
    ref_tables();
    tu_rng_init(&g, 202);
    for (it = 0; it < iters; it++) {
        char text[1024];
        rset r;
        sgi_set s;
        sg_error err;
        random_set(text, &r, &g, tu_chance(&g, 4));
        sgi_set_init(&s);
        if (sgi_set_parse(&s, text, &err) != SG_OK)
            continue;
        sgi_set_clear(&s);
        compare_grundy(text, &r, (int)tu_range(&g, 0, 1),
                       (size_t)tu_range(&g, 1, 1500));
    }
}

/* Published values.  Subtract-a-square: its P-positions (G = 0) are
 * OEIS A030193, 0, 2, 5, 7, 10, 12, 15, 17, 20, 22, 34, 39, ... (Golomb,
 * J. Combinatorial Theory 1 (1966) 443-458).  Subtract a power of 2:
 * G(n) = n mod 3 (the powers of 2 are 1 and 2 mod 3, never 0).  Take at
 * most half: G(2m) = m, G(2m+1) = G(m) (L. Levine, "Fractal sequences
 * and restricted Nim", Ars Combinatoria 80 (2006)). */
static void test_enum_published(void **state)
{
    static const uint32_t a030193[] = {
        0,   2,   5,   7,   10,  12,  15,  17,  20,  22,  34,  39,  44,
        52,  57,  62,  65,  67,  72,  85,  95,  109, 119, 124, 127, 130,
        132, 137, 142, 147, 150, 170, 177, 180, 182, 187, 192, 197, 204,
        210, 215, 238, 243, 249, 255, 257, 260, 262, 267};
    uint32_t *g = malloc(GN * sizeof *g);
    sgi_set_method m;
    size_t i, j;

    (void)state;
    assert_non_null(g);
    for (m = SGI_SET_NAIVE; m <= SGI_SET_BLOCKED; m++) {
        lib_grundy(g, 268, "squares", 0, m);
        for (i = j = 0; i < 268; i++)
            if (g[i] == 0) {
                assert_true(j < sizeof a030193 / sizeof a030193[0]);
                assert_int_equal(i, a030193[j]);
                j++;
            }
        assert_int_equal(j, sizeof a030193 / sizeof a030193[0]);
        lib_grundy(g, GN, "powers-of-2", 0, m);
        for (i = 0; i < GN; i++)
            assert_int_equal(g[i], i % 3);
        lib_grundy(g, GN, "at-most-half", 0, m);
        for (i = 0; i < GN; i++)
            assert_int_equal(g[i], i % 2 ? g[i / 2] : i / 2);
    }
    free(g);
}

/* ------------------------------------------------------------------ */
/* Residues (setexpr_residues.c)                                        */
/* ------------------------------------------------------------------ */

/* Random heap-independent sets and moduli p <= 40: whenever
 * sgi_set_residues claims M (every least member of a class at most the
 * cap 1500), the reference's members up to LIM = 100000 must give the
 * same classes and the same M: a class it called empty whose least member
 * lies in (1500, LIM] would show.  Named sets that reach LIM are cut
 * there by the reference, so only sets whose classes the reference can
 * tell are compared; a share of the claims must be made (the test is not
 * vacuous), and the named targets of THEORY.md 7.8 must be claimed. */
static void residue_case(const char *text, const rset *r, uint64_t p, int must,
                         size_t *claims)
{
    sgi_set s;
    uint64_t least[64], k, m = 0, n = 0, mm = 0, nn = 0, c;
    int ok;

    parse_ok(&s, text);
    ok = sgi_set_residues(&s, p, 1500, &mm, &nn);
    sgi_set_clear(&s);
    if (ok < 0)
        fail_msg("out of memory for %s mod %llu", text, (unsigned long long)p);
    if (must && ok != 1)
        fail_msg("%s mod %llu: residues not found (seed %llu)", text,
                 (unsigned long long)p, TU_SEED);
    if (ok != 1)
        return;
    ++*claims;
    memset(least, 0, sizeof least);
    for (k = 1; k <= LIM; k++)
        if (rset_has(r, k, k) && !least[k % p])
            least[k % p] = k;
    for (c = 0; c < p; c++)
        if (least[c]) {
            n++;
            if (least[c] > m)
                m = least[c];
        }
    if (m != mm || n != nn)
        fail_msg("%s mod %llu: M = %llu over %llu classes, the reference "
                 "says M = %llu over %llu (seed %llu)",
                 text, (unsigned long long)p, (unsigned long long)mm,
                 (unsigned long long)nn, (unsigned long long)m,
                 (unsigned long long)n, TU_SEED);
}

/* An item of the reference: kind 0 range a..b, 1 progression a+bk,
 * 2 the named table t; no bound. */
static ritem rit(int kind, uint64_t a, uint64_t b, uint64_t t)
{
    ritem it;

    memset(&it, 0, sizeof it);
    it.kind = kind;
    it.a = a;
    it.b = b;
    it.t = t;
    it.lo = 1;
    it.hi = UINT64_MAX;
    return it;
}

static void test_residues(void **state)
{
    /* the targets of THEORY.md 7.8 and each kind of walk, with their
     * meaning written out for the reference: included, excluded items */
    const struct {
        const char *text;
        uint64_t p;
        ritem inc[2], exc[1];
        int ninc, nexc;
    } named[] = {
        {"powers-of-2", 3, {rit(2, 0, 0, R_POW2)}, {{0}}, 1, 0},
        {"powers-of-2", 12, {rit(2, 0, 0, R_POW2)}, {{0}}, 1, 0},
        {"1,primes\\2",
         2,
         {rit(0, 1, 1, 0), rit(2, 0, 0, R_PRIMES)},
         {rit(0, 2, 2, 0)},
         2,
         1},
        {"1,primes", 4, {rit(0, 1, 1, 0), rit(2, 0, 0, R_PRIMES)}, {{0}}, 2, 0},
        {"primes", 30, {rit(2, 0, 0, R_PRIMES)}, {{0}}, 1, 0},
        {"squares", 7, {rit(2, 0, 0, R_SQUARES)}, {{0}}, 1, 0},
        {"cubes", 9, {rit(2, 0, 0, R_CUBES)}, {{0}}, 1, 0},
        {"triangular", 10, {rit(2, 0, 0, R_TRI)}, {{0}}, 1, 0},
        {"fibonacci", 8, {rit(2, 0, 0, R_FIB)}, {{0}}, 1, 0},
        {"2,powers-of-3",
         5,
         {rit(0, 2, 2, 0), rit(2, 0, 0, R_POW3)},
         {{0}},
         2,
         0},
        {"primes\\2,3", 6, {rit(2, 0, 0, R_PRIMES)}, {rit(0, 2, 3, 0)}, 1, 1},
        {"4+3k,squares",
         12,
         {rit(1, 4, 3, 0), rit(2, 0, 0, R_SQUARES)},
         {{0}},
         2,
         0},
    };
    tu_rng g;
    size_t it, iters = tu_scaled(400), claims = 0, tried = 0, i;

    (void)state;
    ref_tables();
    for (i = 0; i < sizeof named / sizeof *named; i++) {
        rset r;
        int j;
        memset(&r, 0, sizeof r);
        r.ninc = named[i].ninc;
        r.nexc = named[i].nexc;
        for (j = 0; j < r.ninc; j++)
            r.inc[j] = named[i].inc[j];
        for (j = 0; j < r.nexc; j++)
            r.exc[j] = named[i].exc[j];
        residue_case(named[i].text, &r, named[i].p, 1, &claims);
    }
    tu_rng_init(&g, 303);
    for (it = 0; it < iters; it++) {
        char text[1024];
        rset r;
        sgi_set s;
        sg_error err;
        random_set(text, &r, &g, 0);
        sgi_set_init(&s);
        if (sgi_set_parse(&s, text, &err) != SG_OK)
            continue;
        sgi_set_clear(&s);
        tried++;
        residue_case(text, &r, tu_range(&g, 1, 40), 0, &claims);
    }
    if (claims * 4 < tried)
        fail_msg("only %zu of %zu random sets had their residues found", claims,
                 tried);
}

/* G(0..n-1) of subtract {k^e : k >= 1} by a loop written here. */
static uint32_t powers_loop(uint32_t *want, size_t n, unsigned e)
{
    uint32_t *seen = calloc(n + 1, sizeof *seen), maxg = 0;
    size_t h, k;

    assert_non_null(seen);
    for (h = 0; h < n; h++) {
        uint32_t v = 0;
        for (k = 1; (e == 2 ? k * k : k * k * k) <= h; k++)
            seen[want[h - (e == 2 ? k * k : k * k * k)]] = (uint32_t)h + 1;
        while (seen[v] == h + 1)
            v++;
        want[h] = v;
        if (v > maxg)
            maxg = v;
    }
    free(seen);
    return maxg;
}

/* The hand-offs between methods: the bitset method gives way to the
 * blocked one past 64 values (subtract-a-square passes 64 values near
 * heap 10^5) or when its passes cost more (subtract-a-cube: from heap
 * 106,496 of 200,000), and the
 * blocked one to the naive loop past its largest value (subtract{1-5000}:
 * G(n) = n mod 5001).  Each method against a loop written here over k^2
 * and k^3, and against the formula. */
static void test_enum_handoffs(void **state)
{
    static const struct {
        const char *text;
        unsigned e;
        size_t n;
    } cases[] = {{"squares", 2, 150000}, {"cubes", 3, 200000}};
    const size_t m2 = 12000;
    uint32_t *g = malloc(200000 * sizeof *g);
    uint32_t *want = malloc(200000 * sizeof *want);
    sgi_set_method m;
    size_t c, h;

    (void)state;
    assert_non_null(g);
    assert_non_null(want);
    for (c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        uint32_t maxg = powers_loop(want, cases[c].n, cases[c].e);
        if (cases[c].e == 2)
            assert_true(maxg > 64); /* the bitset method's hand-off */
        for (m = SGI_SET_AUTO; m <= SGI_SET_BLOCKED; m++) {
            lib_grundy(g, cases[c].n, cases[c].text, 0, m);
            for (h = 0; h < cases[c].n; h++)
                if (g[h] != want[h])
                    fail_msg("%s, method %d: G(%zu) = %u, the loop says %u",
                             cases[c].text, (int)m, h, g[h], want[h]);
        }
    }
    for (m = SGI_SET_AUTO; m <= SGI_SET_BLOCKED; m++) {
        lib_grundy(g, m2, "1-5000", 0, m);
        for (h = 0; h < m2; h++)
            if (g[h] != h % 5001)
                fail_msg("1-5000, method %d: G(%zu) = %u, not %zu", (int)m, h,
                         g[h], h % 5001);
    }
    free(g);
    free(want);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_members),
        cmocka_unit_test(test_enum_handoffs),
        cmocka_unit_test(test_members_large),
        cmocka_unit_test(test_heap_dependent),
        cmocka_unit_test(test_canonical_table),
        cmocka_unit_test(test_canonical_random),
        cmocka_unit_test(test_bad_inputs),
        cmocka_unit_test(test_parentheses),
        cmocka_unit_test(test_shape),
        cmocka_unit_test(test_enum_named),
        cmocka_unit_test(test_enum_random),
        cmocka_unit_test(test_enum_published),
        cmocka_unit_test(test_residues),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
