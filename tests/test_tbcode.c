/*
 * test_tbcode.c - unit tests of CGSuite's full take-and-break code notation
 * (digits 0-9 A-V and &N; of any value, bit j of a digit a move leaving
 * exactly j heaps, the constraints `!`, `?` and `=` on the splits): the
 * canonical texts, the values of such games, and the texts refused.
 *
 * Judged by a reference written here from the definition alone, sharing
 * nothing with libsg: a reader of the notation, the canonical printer of
 * the codes that are not ordinary ones, a brute force listing every
 * partition of the heap, and a faster model over tables of the nim-sums
 * that compositions of m into j parts can reach.  The two models are
 * checked against each other (and against tests/reference.c on ordinary
 * codes) before the faster one judges the library up to G(2000).  The
 * seed is printed (SG_TEST_SEED replays a run, SG_TEST_MULT scales it).
 */
#define _DEFAULT_SOURCE
#include "testutil.h"

#include <ctype.h>
#include <stdint.h>
#include <string.h>

/* ------------------------------------------------------------------ */
/* Codes, as the reference sees them                                    */
/* ------------------------------------------------------------------ */

#define TB_MAXPOS 16 /* explicit positions 0..15 */
#define TB_MAXTAIL 4

/* One digit: bit j of v allows a move leaving exactly j heaps; con is the
 * constraint on its splits (j >= 2): 0, '!', '?' or '='. */
typedef struct tb_dig {
    uint64_t v;
    char con;
} tb_dig;

/* A code: positions 0..len-1 explicit; when tail_len > 0 the tail digits
 * repeat forever from position len on. */
typedef struct tb_code {
    size_t len;
    tb_dig d[TB_MAXPOS];
    size_t tail_len;
    tb_dig tail[TB_MAXTAIL];
} tb_code;

/* The digit at position k. */
static tb_dig tb_at(const tb_code *c, size_t k)
{
    tb_dig zero = {0, 0};

    if (k < c->len)
        return c->d[k];
    if (c->tail_len > 0)
        return c->tail[(k - c->len) % c->tail_len];
    return zero;
}

/* Read one digit and its constraint at *p; -1 on anything else. */
static int tb_read_digit(tb_dig *d, const char **p)
{
    const char *s = *p;
    int ch = (unsigned char)*s;

    if (ch >= '0' && ch <= '9') {
        d->v = (uint64_t)(ch - '0');
        s++;
    } else if (toupper(ch) >= 'A' && toupper(ch) <= 'V') {
        d->v = (uint64_t)(toupper(ch) - 'A' + 10);
        s++;
    } else if (ch == '&') {
        uint64_t v = 0;
        s++;
        if (!isdigit((unsigned char)*s))
            return -1;
        while (isdigit((unsigned char)*s)) {
            if (v > (UINT64_C(1) << 62) / 5)
                return -1;
            v = v * 10 + (uint64_t)(*s - '0');
            s++;
        }
        if (*s != ';' || v >> 63)
            return -1;
        s++;
        d->v = v;
    } else {
        return -1;
    }
    d->con = 0;
    if (*s == '!' || *s == '?' || *s == '=')
        d->con = *s++;
    *p = s;
    return 0;
}

/* Read a valid code ("0.G", "4=.0", "0.1[G?]"); the test cases only, so
 * -1 on anything it does not understand rather than a message. */
static int tb_read(tb_code *c, const char *text)
{
    const char *p = text;

    memset(c, 0, sizeof *c);
    if (tb_read_digit(&c->d[0], &p) != 0 || *p++ != '.')
        return -1;
    c->len = 1;
    while (*p != '\0' && *p != '[') {
        if (c->len == TB_MAXPOS || tb_read_digit(&c->d[c->len], &p) != 0)
            return -1;
        c->len++;
    }
    if (*p == '[') {
        p++;
        while (*p != ']') {
            if (c->tail_len == TB_MAXTAIL ||
                tb_read_digit(&c->tail[c->tail_len], &p) != 0)
                return -1;
            c->tail_len++;
        }
        if (c->tail_len == 0 || p[1] != '\0')
            return -1;
    }
    return 0;
}

/* Largest j >= 2 among the digits' bits whose splits the composition
 * tables serve (no constraint or `?`), 1 when none. */
static unsigned tb_table_height(const tb_code *c)
{
    unsigned J = 1;

    for (size_t k = 0; k < c->len + c->tail_len; k++) {
        tb_dig d = k < c->len ? c->d[k] : c->tail[k - c->len];
        if (d.con == '!' || d.con == '=')
            continue;
        for (unsigned j = 2; j < 64; j++)
            if ((d.v >> j & 1) && j > J)
                J = j;
    }
    return J;
}

/* Largest j among all the digits' bits. */
static unsigned tb_max_j(const tb_code *c)
{
    unsigned J = 0;

    for (size_t k = 0; k < c->len + c->tail_len; k++) {
        tb_dig d = k < c->len ? c->d[k] : c->tail[k - c->len];
        for (unsigned j = 0; j < 64; j++)
            if ((d.v >> j & 1) && j > J)
                J = j;
    }
    return J;
}

/* ------------------------------------------------------------------ */
/* The brute force: every partition, parts nondecreasing                */
/* ------------------------------------------------------------------ */

/* Mark in seen[] the nim-sum of every partition of `left` into r more
 * parts, each at least lo, following parts[0..np-1] (nim-sum x so far),
 * that the constraint con allows once complete. */
static void brute_parts(unsigned char *seen, const uint32_t *g, uint64_t left,
                        unsigned r, uint64_t lo, uint64_t *parts, unsigned np,
                        char con, uint32_t x)
{
    if (r == 0) {
        int equal_all = 1, distinct = 1;
        if (left != 0)
            return;
        for (unsigned i = 1; i < np; i++) {
            if (parts[i] != parts[0])
                equal_all = 0;
            if (parts[i] == parts[i - 1])
                distinct = 0;
        }
        if ((con == '!' && !distinct) || (con == '?' && equal_all) ||
            (con == '=' && !equal_all))
            return;
        seen[x] = 1;
        return;
    }
    if (r == 1) {
        /* the last part is what is left */
        if (left >= lo) {
            parts[np] = left;
            brute_parts(seen, g, 0, 0, left, parts, np + 1, con, x ^ g[left]);
        }
        return;
    }
    for (uint64_t p = lo; p * r <= left; p++) {
        parts[np] = p;
        brute_parts(seen, g, left - p, r - 1, p, parts, np + 1, con, x ^ g[p]);
    }
}

/* G(0..n-1) of c by listing every move of every heap. */
static void brute_values(uint32_t *g, size_t n, const tb_code *c)
{
    uint32_t top = 0;
    uint64_t parts[64];

    for (size_t h = 0; h < n; h++) {
        uint32_t bound = 1, mex = 0;
        unsigned char *seen;

        while (bound <= top)
            bound *= 2; /* every option's nim-sum is below it */
        seen = calloc((size_t)bound + 1, 1);
        assert_non_null(seen);
        for (size_t k = 0; k <= h; k++) {
            tb_dig d = tb_at(c, k);
            uint64_t m = h - k;
            for (unsigned j = 0; j < 64; j++) {
                if (!(d.v >> j & 1))
                    continue;
                if (j == 0 && m == 0)
                    seen[0] = 1;
                else if (j == 1 && m >= 1 && k >= 1)
                    seen[g[m]] = 1;
                else if (j >= 2 && m >= j)
                    brute_parts(seen, g, m, j, 1, parts, 0, d.con, 0);
            }
        }
        while (seen[mex])
            mex++;
        free(seen);
        g[h] = mex;
        if (mex > top)
            top = mex;
    }
}

/* How many values the brute force computes for c: a partition of m into
 * j parts costs about m^(j-1) / (j! (j-1)!) steps. */
static size_t brute_len(const tb_code *c)
{
    unsigned J = tb_max_j(c);

    if (J <= 4)
        return c->tail_len ? 100 : 121;
    if (J == 5)
        return c->tail_len ? 45 : 81;
    return c->tail_len ? 30 : 50;
}

/* ------------------------------------------------------------------ */
/* The faster model: nim-sums of compositions as bitsets                */
/* ------------------------------------------------------------------ */

/* Within a 64-bit word, the bit at i moved to i ^ s (s < 64). */
static uint64_t xor_within(uint64_t x, unsigned s)
{
    static const uint64_t low[6] = {
        UINT64_C(0x5555555555555555), UINT64_C(0x3333333333333333),
        UINT64_C(0x0F0F0F0F0F0F0F0F), UINT64_C(0x00FF00FF00FF00FF),
        UINT64_C(0x0000FFFF0000FFFF), UINT64_C(0x00000000FFFFFFFF)};

    for (unsigned b = 0; b < 6; b++) {
        if (s >> b & 1) {
            unsigned sh = 1u << b;
            x = ((x & low[b]) << sh) | ((x >> sh) & low[b]);
        }
    }
    return x;
}

static int bit_get(const uint64_t *b, uint64_t v)
{
    return (int)(b[v >> 6] >> (v & 63) & 1);
}

static void bit_set(uint64_t *b, uint64_t v)
{
    b[v >> 6] |= UINT64_C(1) << (v & 63);
}

/* Whether some digit carries `?` on a split. */
static int tb_has_not_all_equal(const tb_code *c)
{
    for (size_t k = 0; k < c->len + c->tail_len; k++) {
        tb_dig d = k < c->len ? c->d[k] : c->tail[k - c->len];
        if (d.con == '?' && (d.v >> 2) != 0)
            return 1;
    }
    return 0;
}

/*
 * The faster model's tables, for values below V (a power of two, at
 * least 64; W words per set of values).  one(j, m) and two(j, m) hold the
 * nim-sums that at least one / at least two compositions (ordered parts)
 * of m into j parts reach.  Compositions reach the same nim-sums as
 * partitions, and a partition whose parts are not all equal has at least
 * two orderings while the all-equal one has one: so `?` reaches v0, the
 * nim-sum of the all-equal partition, exactly when two compositions reach
 * it.  `=` and `!` (j <= 3) are read off G directly.
 */
typedef struct fast_model {
    size_t n, W;
    uint32_t V;
    unsigned J;            /* rows j = 0..J of the tables */
    int counts;            /* two() kept: some digit carries `?` */
    uint64_t *one, *two;   /* (J + 1) * n cells of W words */
    uint64_t *acc1, *acc2; /* V cells: compositions grouped by G(a) */
    uint64_t *opt;         /* the options of the heap */
    uint32_t *touched;     /* the groups in use */
    unsigned char *is_touched;
} fast_model;

#define CELL(f, t, j, m) ((f)->t + ((size_t)(j) * (f)->n + (m)) * (f)->W)

/* (Re)allocate f for values below V, keeping the sets computed so far
 * (all their values are below the old bound). */
static void fast_grow(fast_model *f, uint32_t V)
{
    size_t W = V / 64, cells = (size_t)(f->J + 1) * f->n;
    uint64_t *one = calloc(cells * W, sizeof *one);
    uint64_t *two = f->counts ? calloc(cells * W, sizeof *two) : NULL;

    assert_true(one != NULL && (two != NULL || !f->counts));
    for (size_t i = 0; f->one != NULL && i < cells; i++) {
        memcpy(one + i * W, f->one + i * f->W, f->W * sizeof *one);
        if (f->counts)
            memcpy(two + i * W, f->two + i * f->W, f->W * sizeof *two);
    }
    free(f->one);
    free(f->two);
    free(f->acc1);
    free(f->acc2);
    free(f->opt);
    free(f->touched);
    free(f->is_touched);
    f->one = one;
    f->two = two;
    f->W = W;
    f->V = V;
    f->acc1 = calloc((size_t)V * W, sizeof *f->acc1);
    f->acc2 = f->counts ? calloc((size_t)V * W, sizeof *f->acc2) : NULL;
    f->opt = calloc(W, sizeof *f->opt);
    f->touched = calloc(V, sizeof *f->touched);
    f->is_touched = calloc(V, 1);
    assert_true(f->acc1 && (f->acc2 || !f->counts) && f->opt && f->touched &&
                f->is_touched);
}

/* one(j, m) and two(j, m) for 2 <= j <= J, from row j - 1: a first part
 * a, then j - 1 parts of m - a; the sets of the a with the same G(a) are
 * added first, then moved by G(a) once. */
static void fast_row(fast_model *f, const uint32_t *g, unsigned j, size_t m)
{
    size_t W = f->W, nt = 0;

    for (size_t a = 1; a + (j - 1) <= m; a++) {
        uint32_t v = g[a];
        uint64_t *x1 = f->acc1 + (size_t)v * W;
        const uint64_t *s1 = CELL(f, one, j - 1, m - a);
        if (!f->is_touched[v]) {
            f->is_touched[v] = 1;
            f->touched[nt++] = v;
        }
        if (f->counts) {
            uint64_t *x2 = f->acc2 + (size_t)v * W;
            const uint64_t *s2 = CELL(f, two, j - 1, m - a);
            for (size_t w = 0; w < W; w++)
                x2[w] |= s2[w] | (x1[w] & s1[w]);
        }
        for (size_t w = 0; w < W; w++)
            x1[w] |= s1[w];
    }
    for (size_t i = 0; i < nt; i++) {
        uint32_t v = f->touched[i];
        uint64_t *x1 = f->acc1 + (size_t)v * W, *d1 = CELL(f, one, j, m);
        if (f->counts) {
            uint64_t *x2 = f->acc2 + (size_t)v * W, *d2 = CELL(f, two, j, m);
            for (size_t w = 0; w < W; w++) {
                size_t t = w ^ (v >> 6);
                uint64_t b = xor_within(x1[w], v & 63);
                d2[t] |= xor_within(x2[w], v & 63) | (d1[t] & b);
            }
            memset(x2, 0, W * sizeof *x2);
        }
        for (size_t w = 0; w < W; w++)
            d1[w ^ (v >> 6)] |= xor_within(x1[w], v & 63);
        memset(x1, 0, W * sizeof *x1);
        f->is_touched[v] = 0;
    }
}

/* Add to f->opt the nim-sums of the moves of digit d on m tokens left
 * (k tokens removed). */
static void fast_moves(fast_model *f, const uint32_t *g, tb_dig d, size_t k,
                       size_t m)
{
    for (uint64_t bits = d.v; bits != 0; bits &= bits - 1) {
        unsigned j = (unsigned)__builtin_ctzll(bits);
        if (j == 0) {
            if (m == 0)
                bit_set(f->opt, 0);
        } else if (j == 1) {
            if (m >= 1 && k >= 1)
                bit_set(f->opt, g[m]);
        } else if (m < j) {
            continue;
        } else if (d.con == '=') {
            if (m % j == 0)
                bit_set(f->opt, j % 2 ? g[m / j] : 0);
        } else if (d.con == '!') {
            if (j == 2) {
                for (size_t a = 1; 2 * a < m; a++)
                    bit_set(f->opt, g[a] ^ g[m - a]);
            } else if (j == 3) {
                for (size_t a = 1; 3 * a < m; a++)
                    for (size_t b = a + 1; a + 2 * b < m; b++)
                        bit_set(f->opt, g[a] ^ g[b] ^ g[m - a - b]);
            } else {
                fail_msg("the model has no `!` over %u parts", j);
            }
        } else {
            const uint64_t *s1 = CELL(f, one, j, m);
            uint32_t v0 = 0;
            int drop = 0;
            if (d.con == '?' && m % j == 0) {
                v0 = j % 2 ? g[m / j] : 0;
                drop = !bit_get(CELL(f, two, j, m), v0);
            }
            for (size_t w = 0; w < f->W; w++) {
                uint64_t keep = s1[w];
                if (drop && w == v0 >> 6)
                    keep &= ~(UINT64_C(1) << (v0 & 63));
                f->opt[w] |= keep;
            }
        }
    }
}

/* G(0..n-1) of c by the faster model, the bound on the values doubled
 * whenever a value reaches it. */
static void fast_values(uint32_t *g, size_t n, const tb_code *c)
{
    fast_model f;

    memset(&f, 0, sizeof f);
    f.n = n;
    f.J = tb_table_height(c);
    f.counts = tb_has_not_all_equal(c);
    fast_grow(&f, 64);
    for (size_t m = 0; m < n; m++) {
        size_t kmax = c->tail_len || m < c->len ? m : c->len - 1;
        uint32_t mex;

        for (unsigned j = 2; j <= f.J && m >= j; j++)
            fast_row(&f, g, j, m);
        memset(f.opt, 0, f.W * sizeof *f.opt);
        for (size_t k = 0; k <= kmax; k++)
            fast_moves(&f, g, tb_at(c, k), k, m - k);
        mex = 0;
        while (mex < f.V && bit_get(f.opt, mex))
            mex++;
        g[m] = mex;
        if (mex + 1 >= f.V) {
            assert_true(f.V < (UINT32_C(1) << 20));
            fast_grow(&f, 2 * f.V);
        }
        if (m >= 1)
            bit_set(CELL(&f, one, 1, m), mex);
    }
#undef CELL
    free(f.one);
    free(f.two);
    free(f.acc1);
    free(f.acc2);
    free(f.opt);
    free(f.touched);
    free(f.is_touched);
}

/* ------------------------------------------------------------------ */
/* The canonical text the reference expects                             */
/* ------------------------------------------------------------------ */

/* Normalise the digits of a code without a tail: a constraint dropped
 * where the digit has no split bit, `?` becoming `!` where the only split
 * is into two, trailing zero digits dropped. */
static void tb_normalise(tb_code *c)
{
    for (size_t k = 0; k < c->len; k++) {
        tb_dig *d = &c->d[k];
        if ((d->v >> 2) == 0)
            d->con = 0;
        else if (d->con == '?' && (d->v >> 2) == 1)
            d->con = '!';
    }
    while (c->len > 1 && c->d[c->len - 1].v == 0)
        c->len--;
}

/* An ordinary code: digits 0-F and no constraint but `!`. */
static int tb_ordinary(const tb_code *c)
{
    for (size_t k = 0; k < c->len; k++)
        if (c->d[k].v > 15 || (c->d[k].con != 0 && c->d[k].con != '!'))
            return 0;
    return 1;
}

/* One digit and its constraint as text, appended at buf + *at. */
static void tb_put_digit(char *buf, size_t *at, tb_dig d)
{
    if (d.v < 10)
        buf[(*at)++] = (char)('0' + d.v);
    else if (d.v < 32)
        buf[(*at)++] = (char)('A' + d.v - 10);
    else
        *at += (size_t)sprintf(buf + *at, "&%llu;", (unsigned long long)d.v);
    if (d.con)
        buf[(*at)++] = d.con;
    buf[*at] = '\0';
}

/* The code's text, digit by digit (normalised or not), in buf (>= 512
 * bytes): "0.7G=", "4=.0"; ordinary codes come out in the hexadecimal
 * notation sgexplore read before this one. */
static void tb_text(char *buf, const tb_code *c)
{
    size_t at = 0;

    buf[0] = '\0';
    tb_put_digit(buf, &at, c->d[0]);
    buf[at++] = '.';
    buf[at] = '\0';
    if (c->len == 1 && c->tail_len == 0)
        buf[at++] = '0';
    buf[at] = '\0';
    for (size_t k = 1; k < c->len; k++)
        tb_put_digit(buf, &at, c->d[k]);
    if (c->tail_len) {
        buf[at++] = '[';
        for (size_t i = 0; i < c->tail_len; i++)
            tb_put_digit(buf, &at, c->tail[i]);
        buf[at++] = ']';
        buf[at] = '\0';
    }
}

/* ------------------------------------------------------------------ */
/* The library, through its public interface only                       */
/* ------------------------------------------------------------------ */

/* The canonical text of text as the library prints it (malloc'd), or a
 * failed test naming the parser's message. */
static char *lib_canonical(const char *text)
{
    sg_rule r;
    char *c;

    parse_or_fail(&r, SG_SYNTAX_RULE, text);
    c = sg_rule_canonical(&r);
    assert_non_null(c);
    sg_rule_clear(&r);
    return c;
}

/* canonical(parse(text)) must be want (when non-NULL) and print itself
 * again once parsed. */
static void check_canonical(const char *text, const char *want)
{
    char *c = lib_canonical(text), *again;

    if (want != NULL && strcmp(c, want) != 0)
        fail_msg("\"%s\" prints as \"%s\", expected \"%s\" (seed %llu)", text,
                 c, want, TU_SEED);
    again = lib_canonical(c);
    if (strcmp(c, again) != 0)
        fail_msg("\"%s\": canonical \"%s\" re-parses to \"%s\" (seed %llu)",
                 text, c, again, TU_SEED);
    free(again);
    free(c);
}

/* G(0..n-1) of text by sg_enumerate. */
static void lib_values(uint32_t *g, size_t n, const char *text)
{
    sg_rule r;
    sg_seq s;
    sg_error err;
    sg_status st;

    parse_or_fail(&r, SG_SYNTAX_RULE, text);
    sg_seq_init(&s);
    memset(&err, 0, sizeof err);
    st = sg_enumerate(&s, &r, n, NULL, &err);
    if (st != SG_OK || s.n != n)
        fail_msg("%s: sg_enumerate to %zu: status %d, %zu values (%s)", text, n,
                 (int)st, s.n, err.msg);
    for (size_t i = 0; i < n; i++)
        g[i] = sg_seq_get(&s, i);
    sg_seq_clear(&s);
    sg_rule_clear(&r);
}

/* got[0..n-1] must be want[0..n-1]. */
static void same_values(const uint32_t *got, const uint32_t *want, size_t n,
                        const char *text, const char *who)
{
    for (size_t i = 0; i < n; i++)
        if (got[i] != want[i])
            fail_msg("%s: G(%zu) = %u by %s, %u by the reference (seed %llu)",
                     text, i, (unsigned)got[i], who, (unsigned)want[i],
                     TU_SEED);
}

/* ------------------------------------------------------------------ */
/* Random codes                                                         */
/* ------------------------------------------------------------------ */

/* A random digit value: a character digit 0..31 most often, else any
 * value up to 2^63 - 1; below cap when cap is not 0. */
static uint64_t random_value(tu_rng *g, uint64_t cap)
{
    uint64_t v;

    if (!tu_chance(g, 4))
        v = tu_range(g, 0, 31);
    else if (tu_chance(g, 2))
        v = tu_range(g, 0, 200);
    else
        v = tu_next(g) >> (1 + tu_range(g, 0, 62));
    return cap ? v % cap : v;
}

/* A constraint the parser accepts on v: `!` only without bits j >= 4. */
static char random_con(tu_rng *g, uint64_t v)
{
    static const char any[] = {'!', '?', '='};

    if (tu_chance(g, 2))
        return 0;
    if (v >> 4)
        return any[tu_range(g, 1, 2)];
    return any[tu_range(g, 0, 2)];
}

/* A random code of 1-4 digits after the point, maybe a split before it
 * (no bit 0 or 1 there), maybe (with tails) a tail of one or two digits;
 * digit values below cap when cap is not 0. */
static void random_code(tb_code *c, tu_rng *g, uint64_t cap, int tails)
{
    memset(c, 0, sizeof *c);
    c->len = 1 + (size_t)tu_range(g, 1, 4);
    if (tu_chance(g, 3)) {
        uint64_t v;
        do {
            v = random_value(g, cap) & ~(uint64_t)3;
        } while (v == 0);
        c->d[0].v = v;
        c->d[0].con = random_con(g, v);
    }
    for (size_t k = 1; k < c->len; k++) {
        c->d[k].v = random_value(g, cap);
        c->d[k].con = random_con(g, c->d[k].v);
    }
    if (tails && tu_chance(g, 4)) {
        c->tail_len = (size_t)tu_range(g, 1, 2);
        for (size_t i = 0; i < c->tail_len; i++) {
            c->tail[i].v = random_value(g, cap);
            c->tail[i].con = random_con(g, c->tail[i].v);
        }
        if (c->tail[0].v == 0) {
            c->tail[0].v = 16;
            c->tail[0].con = 0;
        }
    }
}

/* The code's text with letters in random case and digits 0..31 sometimes
 * written &N;, in buf (>= 512 bytes). */
static void random_text(char *buf, tu_rng *g, const tb_code *c)
{
    size_t at = 0;
    size_t total = c->len + c->tail_len;

    for (size_t k = 0; k < total; k++) {
        tb_dig d = k < c->len ? c->d[k] : c->tail[k - c->len];
        if (k == c->len)
            buf[at++] = '[';
        if (d.v < 32 && tu_chance(g, 5)) {
            at += (size_t)sprintf(buf + at, "&%llu;", (unsigned long long)d.v);
        } else if (d.v < 10) {
            buf[at++] = (char)('0' + d.v);
        } else if (d.v < 32) {
            char ch = (char)('A' + d.v - 10);
            buf[at++] = tu_chance(g, 2) ? (char)tolower(ch) : ch;
        } else {
            at += (size_t)sprintf(buf + at, "&%llu;", (unsigned long long)d.v);
        }
        if (d.con)
            buf[at++] = d.con;
        if (k == 0)
            buf[at++] = '.';
    }
    if (c->tail_len)
        buf[at++] = ']';
    buf[at] = '\0';
}

/* The canonical text the reference expects for a code without a tail
 * (malloc'd): the digits printed, or, for an ordinary code, what the
 * library prints for its hexadecimal text (as before this notation). */
static char *expected_canonical(const tb_code *code)
{
    tb_code c = *code;
    char buf[512];

    tb_normalise(&c);
    tb_text(buf, &c);
    if (tb_ordinary(&c))
        return lib_canonical(buf);
    return strdup(buf);
}

/* ------------------------------------------------------------------ */
/* 1. Canonical texts                                                   */
/* ------------------------------------------------------------------ */

/* Texts and the canonical text the notation prescribes. */
static const char *const canon_table[][2] = {
    /* digits past F, in any spelling; trailing zeros dropped */
    {"0.G", "0.G"},
    {"0.g", "0.G"},
    {"0.&16;", "0.G"},
    {"0.G0", "0.G"},
    {"0.G00", "0.G"},
    {"0.0G", "0.0G"},
    {"0.H", "0.H"},
    {"0.V", "0.V"},
    {"0.v", "0.V"},
    {"0.&31;", "0.V"},
    {"0.&32;", "0.&32;"},
    {"0.&48;", "0.&48;"},
    {"0.&64;", "0.&64;"},
    {"0.&9223372036854775807;", "0.&9223372036854775807;"},
    {"0.1G", "0.1G"},
    {"0.3G=", "0.3G="},
    {"0.7G=", "0.7G="},
    {"G.0", "G.0"},
    {"G?.1", "G?.1"},
    /* `?` and `=` on digits that split */
    {"0.C?", "0.C?"},
    {"0.8?", "0.8?"},
    {"0.4=", "0.4="},
    {"0.7=", "0.7="},
    {"0.C=", "0.C="},
    {"0.G?", "0.G?"},
    {"0.G=", "0.G="},
    {"0.G?0", "0.G?"},
    {"0.&48;?", "0.&48;?"},
    {"0.&9223372036854775807;=", "0.&9223372036854775807;="},
    {"0.8?4?", "0.8?4!"},
    {"4=.0", "4=.0"},
    {"8=.0", "8=.0"},
    {"C?.0", "C?.0"},
    /* codes that are ordinary ones print as before */
    {"0.&7;7", "0.77"},
    {"0.4?", "0.4!"},
    {"0.&4;?", "0.4!"},
    {"0.7?", "0.7!"},
    {"4?.0", "4!.0"},
    {"0.C!", "0.C!"},
    {"0.&12;!", "0.C!"},
    {"0.&15;", "0.F"},
    {"0.f7", "0.F7"},
    {"0.[4?]", "0.[4!]"},
    /* tails */
    {"0.[G]", "0.[G]"},
    {"0.G[G]", "0.[G]"},
    {"0.[GG]", "0.[G]"},
    {"0.[g]", "0.[G]"},
    {"0.1[G]", "0.1[G]"},
    {"0.[G=]", "0.[G=]"},
    {"0.[&64;]", "0.[&64;]"},
};

/* Texts whose constraints all drop, and the ordinary code each becomes:
 * the same canonical text as that code (`subtract{1}` for 0.3). */
static const char *const canon_same[][2] = {
    {"0.3?", "0.3"},      {"0.1=", "0.1"},   {"0.3=3", "0.33"},
    {"0.&3;&3;", "0.33"}, {"0.0?1", "0.01"}, {"0.[&3;]", "0.[3]"},
    {"0.3!", "0.3"},      {"0.1?7", "0.17"}, {"0.&0;", "0.0"},
};

static void test_canonical_table(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof canon_table / sizeof canon_table[0]; i++)
        check_canonical(canon_table[i][0], canon_table[i][1]);
    for (size_t i = 0; i < sizeof canon_same / sizeof canon_same[0]; i++) {
        char *want = lib_canonical(canon_same[i][1]);
        check_canonical(canon_same[i][0], want);
        free(want);
    }
}

/* Random codes: the canonical text the reference expects (codes without
 * a tail) and one that prints itself again (every code). */
static void test_canonical_random(void **state)
{
    tu_rng g;
    size_t count = tu_scaled(3000);

    (void)state;
    tu_rng_init(&g, 1);
    for (size_t i = 0; i < count; i++) {
        tb_code c;
        char text[512];
        random_code(&c, &g, 0, 1);
        random_text(text, &g, &c);
        if (c.tail_len == 0) {
            char *want = expected_canonical(&c);
            check_canonical(text, want);
            free(want);
        } else {
            check_canonical(text, NULL);
        }
    }
}

/* ------------------------------------------------------------------ */
/* 2. Values                                                            */
/* ------------------------------------------------------------------ */

/* The codes whose values are compared, the exotic ones first. */
static const char *const value_codes[] = {
    "0.G",  "0.H",   "0.0G", "0.1G",   "0.4=",   "0.C=",    "0.8?",
    "0.C?", "0.7?",  "4=.0", "0.&48;", "0.3G=",  "0.[G]",   "0.G?",
    "0.G=", "0.7G=", "8?.0", "0.8=",   "0.[C?]", "0.1[4=]",
};

/* The codes the test reads must be read by the reference's reader. */
static void read_or_fail(tb_code *c, const char *text)
{
    if (tb_read(c, text) != 0)
        fail_msg("the reference cannot read \"%s\"", text);
}

/* The faster model agrees with the brute force on G(0..brute_len-1). */
static void check_models(const tb_code *c, const char *text)
{
    size_t n = brute_len(c);
    uint32_t *a = calloc(n, sizeof *a), *b = calloc(n, sizeof *b);

    assert_true(a && b);
    brute_values(a, n, c);
    fast_values(b, n, c);
    same_values(b, a, n, text, "the faster model");
    free(a);
    free(b);
}

/* Values worked out by hand: the models themselves are judged first. */
static void test_models_by_hand(void **state)
{
    /* 4=.0: an even heap splits into equal halves (nim-sum 0), an odd one
     * has no move; 0.4=: the same after removing one token */
    static const uint32_t halves[] = {0, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1};
    static const uint32_t halves1[] = {0, 0, 0, 1, 0, 1, 0, 1, 0, 1, 0};
    /* 0.H: take the single token, or take one and leave four heaps:
     * G(1) = 1, G(2..4) = 0, G(5) = mex{G(1)^G(1)^G(1)^G(1) = 0} = 1 */
    static const uint32_t h17[] = {0, 1, 0, 0, 0, 1};
    const struct {
        const char *code;
        const uint32_t *want;
        size_t n;
    } cases[] = {{"4=.0", halves, 11}, {"0.4=", halves1, 11}, {"0.H", h17, 6}};

    (void)state;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        tb_code c;
        uint32_t a[16], b[16];
        read_or_fail(&c, cases[i].code);
        brute_values(a, cases[i].n, &c);
        fast_values(b, cases[i].n, &c);
        same_values(a, cases[i].want, cases[i].n, cases[i].code,
                    "the brute force");
        same_values(b, cases[i].want, cases[i].n, cases[i].code,
                    "the faster model");
    }
}

/* The two models agree on the codes of the test, on random codes with
 * digits up to &63; and with tests/reference.c on random ordinary codes
 * (hexadecimal digits, `!`, tails). */
static void test_models_agree(void **state)
{
    tu_rng g;
    size_t count = tu_scaled(30), nref = tu_scaled(40);

    (void)state;
    tu_rng_init(&g, 2);
    for (size_t i = 0; i < sizeof value_codes / sizeof value_codes[0]; i++) {
        tb_code c;
        read_or_fail(&c, value_codes[i]);
        check_models(&c, value_codes[i]);
    }
    for (size_t i = 0; i < count; i++) {
        tb_code c;
        char text[512];
        random_code(&c, &g, 64, 0);
        tb_text(text, &c);
        check_models(&c, text);
    }
    for (size_t i = 0; i < nref; i++) {
        static ref_rule rr;
        tu_code_opts o = {15, 1, 4, 1, 1, 0};
        tb_code c;
        char *text;
        size_t n = 250;
        uint32_t *a = calloc(n, sizeof *a), *b = calloc(n, sizeof *b);
        assert_true(a && b);
        o.tail = tu_chance(&g, 3);
        tu_random_code(&rr, &g, &o);
        text = ref_rule_text(&rr);
        assert_non_null(text);
        read_or_fail(&c, text);
        ref_values(a, n, &rr);
        fast_values(b, n, &c);
        same_values(b, a, n, text, "the faster model (tests/reference.c)");
        free(text);
        free(a);
        free(b);
    }
}

/* How many values the library is judged over: 2000, scaled by
 * SG_TEST_MULT (the sanitizer build runs fewer). */
static size_t values_len(void)
{
    size_t n = tu_scaled(2000);

    if (n < 200)
        n = 200;
    if (n > 8000)
        n = 8000;
    return n;
}

/* sg_enumerate against the faster model over G(0..values_len()-1). */
static void test_values_table(void **state)
{
    size_t n = values_len();
    uint32_t *a = calloc(n, sizeof *a), *b = calloc(n, sizeof *b);

    (void)state;
    assert_true(a && b);
    for (size_t i = 0; i < sizeof value_codes / sizeof value_codes[0]; i++) {
        tb_code c;
        read_or_fail(&c, value_codes[i]);
        fast_values(a, n, &c);
        lib_values(b, n, value_codes[i]);
        same_values(b, a, n, value_codes[i], "sg_enumerate");
    }
    free(a);
    free(b);
}

/* Texts that are ordinary codes in the new notation, and those codes:
 * the same values by sg_enumerate for both, by tests/reference.c for the
 * ordinary one and by the faster model for the new text. */
static void test_values_ordinary(void **state)
{
    static const char *const pairs[][2] = {
        {"0.4?", "0.4!"},   {"4?.0", "4!.0"},     {"0.7?", "0.7!"},
        {"0.&7;7", "0.77"}, {"0.3=", "0.3"},      {"0.C?4?", "0.C?4!"},
        {"0.6?", "0.6!"},   {"0.[4?]", "0.[4!]"},
    };
    size_t n = values_len();
    uint32_t *a = calloc(n, sizeof *a), *b = calloc(n, sizeof *b);
    uint32_t *want = calloc(n, sizeof *want);

    (void)state;
    assert_true(a && b && want);
    for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++) {
        static ref_rule rr;
        tb_code c;
        const char *ordinary = pairs[i][1];
        /* a tail of `!` costs n^3 / 6 steps in both references */
        size_t len = strchr(ordinary, '[') != NULL && n > 400 ? 400 : n;
        if (strchr(ordinary, '?') != NULL) {
            /* 0.C?4!: the `?` on C stays, the ordinary half is 4! */
            read_or_fail(&c, pairs[i][0]);
            fast_values(want, len, &c);
        } else {
            if (ref_rule_from_code(&rr, ordinary) != 0)
                fail_msg("tests/reference.c cannot read \"%s\"", ordinary);
            ref_values(want, len, &rr);
            read_or_fail(&c, pairs[i][0]);
            fast_values(a, len, &c);
            same_values(a, want, len, pairs[i][0], "the faster model");
        }
        lib_values(a, len, pairs[i][0]);
        lib_values(b, len, ordinary);
        same_values(a, want, len, pairs[i][0], "sg_enumerate");
        same_values(b, want, len, ordinary, "sg_enumerate");
    }
    free(a);
    free(b);
    free(want);
}

/* Random codes (digits below &256, tails) by sg_enumerate against the
 * faster model over G(0..399). */
static void test_values_random(void **state)
{
    tu_rng g;
    size_t count = tu_scaled(30), n = 400;
    uint32_t *a = calloc(n, sizeof *a), *b = calloc(n, sizeof *b);

    (void)state;
    assert_true(a && b);
    tu_rng_init(&g, 3);
    for (size_t i = 0; i < count; i++) {
        tb_code c;
        char text[512];
        random_code(&c, &g, 256, 1);
        random_text(text, &g, &c);
        fast_values(a, n, &c);
        lib_values(b, n, text);
        same_values(b, a, n, text, "sg_enumerate");
    }
    free(a);
    free(b);
}

/* ------------------------------------------------------------------ */
/* 3. Texts refused                                                     */
/* ------------------------------------------------------------------ */

/* A text the parser must refuse, and words of which the message must
 * hold one (case-insensitive), '|' between them. */
static const char *const bad_table[][2] = {
    /* additive digits: moves that add tokens can repeat forever */
    {"44.0", "before the point|add"},
    {"12.0", "before the point|add"},
    {"G4.0", "before the point|add"},
    {"&4;&4;.0", "before the point|add"},
    /* before the point a move removes nothing, so it must split */
    {"1.0", "split|nothing|before the point"},
    {"2.0", "split|nothing|before the point"},
    {"3.0", "split|nothing|before the point"},
    {"7!.0", "split|nothing|before the point"},
    {"H.0", "split|nothing|before the point"},
    {"&6;.0", "split|nothing|before the point"},
    /* & without a number, or unterminated */
    {"0.&;", "&|number"},
    {"0.&x;", "&|number"},
    {"0.&12", "&|;|number"},
    {"0.1&12", "&|;|number"},
    {"0.&-1;", "&|number"},
    /* two constraints in a row, a constraint without its digit */
    {"0.4!?", "!?|constraint|follow|digit"},
    {"0.4?=", "?=|constraint|follow|digit"},
    {"0.C==", "==|constraint|follow|digit|="},
    {"0.?", "?|constraint|follow|digit"},
    {"0.=1", "=|constraint|follow|digit"},
    {"0.[?4]", "?|constraint|follow|digit"},
    /* any number of heaps: not implemented */
    {"0.4*", "*|any number|implemented"},
    {"0.*", "*|any number|implemented"},
    {"0.{4+}", "{|+|any number|implemented"},
    {"0.{1+}", "{|+|any number|implemented"},
    /* `!` on a digit that may leave four heaps or more */
    {"0.G!", "!|implemented|four|4"},
    {"0.O!", "!|implemented|four|4"},
    {"0.&48;!", "!|implemented|four|4"},
    {"0.1[G!]", "!|implemented|four|4"},
    {"G!.0", "!|implemented|four|4"},
    /* numbers past 2^63 - 1 */
    {"0.&9223372036854775808;", "large|2^63|range|exceed|big|overflow|maximum"},
    {"0.&18446744073709551616;",
     "large|2^63|range|exceed|big|overflow|maximum"},
    {"0.&99999999999999999999999;",
     "large|2^63|range|exceed|big|overflow|maximum"},
};

/* Whether msg holds one of the '|'-separated words (case-insensitive). */
static int mentions(const char *msg, const char *words)
{
    char w[64], low[sizeof((sg_error *)0)->msg];
    size_t i;

    for (i = 0; msg[i] != '\0' && i + 1 < sizeof low; i++)
        low[i] = (char)tolower((unsigned char)msg[i]);
    low[i] = '\0';

    while (*words != '\0') {
        size_t len = strcspn(words, "|");
        assert_true(len < sizeof w);
        for (i = 0; i < len; i++)
            w[i] = (char)tolower((unsigned char)words[i]);
        w[len] = '\0';
        if (strstr(low, w) != NULL)
            return 1;
        words += len;
        if (*words == '|')
            words++;
    }
    return 0;
}

static void test_bad_inputs(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof bad_table / sizeof bad_table[0]; i++) {
        const char *text = bad_table[i][0];
        sg_error err;

        tu_expect_bad_rule(SG_SYNTAX_RULE, text, -1, &err);
        if (!mentions(err.msg, bad_table[i][1]))
            fail_msg("\"%s\": the message \"%s\" names none of %s", text,
                     err.msg, bad_table[i][1]);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_canonical_table),
        cmocka_unit_test(test_canonical_random),
        cmocka_unit_test(test_models_by_hand),
        cmocka_unit_test(test_models_agree),
        cmocka_unit_test(test_values_table),
        cmocka_unit_test(test_values_ordinary),
        cmocka_unit_test(test_values_random),
        cmocka_unit_test(test_bad_inputs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
