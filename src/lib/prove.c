/*
 * prove.c - periodicity proofs and their certificates.  A period is
 * reported only when a theorem stated and proved in docs/THEORY.md
 * certifies it from the computed values; everything else is "unresolved".
 * With t the largest number of tokens a move removes and a = max(n0, 1):
 *
 *  - subtraction-window (finite codes without split moves): agreement
 *    G(n+p) = G(n) for a <= n < a + t suffices;
 *  - Guy-Smith (finite codes, moves leave at most two heaps):
 *    a <= n < 2a + p + t;
 *  - unequal-split Guy-Smith (finite codes with '!', at most two heaps):
 *    a <= n < 2a + 2p + t (the extra p repairs splits that would become
 *    equal);
 *  - three-heap Guy-Smith (finite codes, up to three heaps):
 *    a <= n < 3a + 2p + t;
 *  - tail-arith (codes ending in the tail [3] after finitely many split-free
 *    digits, which includes every all-but game): G(n+p) = G(n) + s for
 *    n0 <= n < max(n0,1) + f, f = tail_start - 1, together with the prefix
 *    condition {G(m): m < n0+p} = [0,s) u ({G(m): m < n0} + s).
 *
 * The search finds a proof; sg_certificate_check, which `verify` also uses,
 * re-checks every hypothesis from the values alone.
 */
#include "sgexplore.h"
#include "period_search.h"

#include <stdlib.h>
#include <string.h>

typedef enum {
    KIND_NONE,
    KIND_WINDOW,
    KIND_TWO,
    KIND_TWO_UNEQUAL,
    KIND_THREE,
    KIND_TAIL3
} proof_kind;

static const struct theorem {
    proof_kind kind;
    const char *id;
    const char *name;
} theorems[] = {
    {KIND_WINDOW, SG_THM_WINDOW,
     "subtraction-window theorem (finite code without splits: each value "
     "depends only on the previous t values)"},
    {KIND_TWO, SG_THM_GUY_SMITH,
     "Guy-Smith octal periodicity theorem (finite code, moves leave at most "
     "two heaps)"},
    {KIND_TWO_UNEQUAL, SG_THM_UNEQUAL,
     "unequal-split Guy-Smith theorem (finite code with '!', moves leave at "
     "most two heaps)"},
    {KIND_THREE, SG_THM_THREE_HEAP,
     "three-heap Guy-Smith theorem (finite code, moves leave up to three "
     "heaps)"},
    {KIND_TAIL3, SG_THM_TAIL_ARITH,
     "tail arithmetic-periodicity theorem (split-free code ending in [3], "
     "such as an all-but game)"},
};

static const struct theorem *theorem_of(proof_kind k)
{
    size_t i;
    for (i = 0; i < sizeof theorems / sizeof *theorems; i++)
        if (theorems[i].kind == k)
            return &theorems[i];
    return NULL;
}

const char *sg_period_status_name(sg_period_status st)
{
    switch (st) {
    case SG_PERIODIC:
        return "periodic";
    case SG_ARITH_PERIODIC:
        return "arithmetic-periodic";
    case SG_UNRESOLVED:
    default:
        return "unresolved";
    }
}

const char *sg_theorem_lookup(const char *id, const char **name)
{
    size_t i;
    for (i = 0; i < sizeof theorems / sizeof *theorems; i++)
        if (strcmp(theorems[i].id, id) == 0) {
            if (name)
                *name = theorems[i].name;
            return theorems[i].id;
        }
    return NULL;
}

/* The decimal digits of every value below this come from a table. */
#define DIGITS_TABLE 1000
#define FNV_PRIME 1099511628211ULL

/* h extended by the decimal digits of x (FNV-1a). */
static uint64_t fnv_number(uint64_t h, sg_value x)
{
    char buf[16];
    int len = 0;

    do {
        buf[len++] = (char)('0' + x % 10);
        x /= 10;
    } while (x);
    while (len > 0)
        h = (h ^ (unsigned char)buf[--len]) * FNV_PRIME;
    return h;
}

uint64_t sg_checksum(const sg_seq *s, size_t n)
{
    uint64_t h = 14695981039346656037ULL;
    /* Certificates cover hundreds of millions of values and the hash is a
     * chain of multiplications: at least keep the digits out of it. */
    unsigned char txt[DIGITS_TABLE][4];
    size_t i;
    unsigned v;
    int table = n > 4 * DIGITS_TABLE;

    for (v = 0; table && v < DIGITS_TABLE; v++) {
        txt[v][0] = (unsigned char)(v < 10 ? 1 : v < 100 ? 2 : 3);
        txt[v][txt[v][0]] = (unsigned char)('0' + v % 10);
        if (v >= 10)
            txt[v][txt[v][0] - 1] = (unsigned char)('0' + v / 10 % 10);
        if (v >= 100)
            txt[v][1] = (unsigned char)('0' + v / 100);
    }
    for (i = 0; i < n; i++) {
        sg_value x = sg_seq_get(s, i);
        if (i)
            h = (h ^ (unsigned char)',') * FNV_PRIME;
        if (table && x < DIGITS_TABLE) {
            const unsigned char *t = txt[x];
            h = (h ^ t[1]) * FNV_PRIME;
            if (t[0] > 1)
                h = (h ^ t[2]) * FNV_PRIME;
            if (t[0] > 2)
                h = (h ^ t[3]) * FNV_PRIME;
        } else {
            h = fnv_number(h, x);
        }
    }
    return h;
}

/* Which theorem can apply, and why not when none can. */
static proof_kind rule_kind(const sg_rule *r, const char **why)
{
    unsigned bits = sg_rule_bits(r);

    if (why)
        *why = NULL;
    if (sg_rule_has_unequal(r)) {
        if (!r->tail_len && !(bits & SG_BIT_THREE))
            return KIND_TWO_UNEQUAL;
        if (why)
            *why = "no periodicity theorem is implemented for '!' (unequal "
                   "heaps) rules whose moves may leave three heaps or that "
                   "have a repeating tail";
        return KIND_NONE;
    }
    if (r->tail_len) {
        size_t i;
        int ok = r->tail_len == 1 && r->tail[0] == 3;
        for (i = 0; ok && i < r->nterms; i++)
            if (r->terms[i].digit & (SG_BIT_TWO | SG_BIT_THREE))
                ok = 0;
        if (ok)
            return KIND_TAIL3;
        if (why)
            *why = "no periodicity theorem is implemented for this repeating "
                   "[..] tail (only split-free codes ending in [3])";
        return KIND_NONE;
    }
    if (bits & SG_BIT_THREE)
        return KIND_THREE;
    if (bits & SG_BIT_TWO)
        return KIND_TWO;
    return KIND_WINDOW;
}

int sg_prove_applicable(const sg_rule *r, const char **why)
{
    return rule_kind(r, why) != KIND_NONE;
}

const char *sg_prove_theorem_id(const sg_rule *r)
{
    const struct theorem *th = theorem_of(rule_kind(r, NULL));
    return th ? th->id : NULL;
}

/* One past the last n at which the theorem needs G(n+p) = G(n) + s;
 * t is the code length (f = tail_start - 1 for tails). */
static uint64_t agreement_end(proof_kind kind, uint64_t a, uint64_t p,
                              uint64_t t)
{
    uint64_t m = a ? a : 1;

    switch (kind) {
    case KIND_WINDOW:
    case KIND_TAIL3:
        return m + t;
    case KIND_TWO:
        return 2 * m + p + t;
    case KIND_TWO_UNEQUAL:
        return 2 * m + 2 * p + t;
    case KIND_THREE:
    case KIND_NONE:
    default:
        return 3 * m + 2 * p + t;
    }
}

static uint64_t kind_length(proof_kind kind, const sg_rule *r)
{
    return kind == KIND_TAIL3 ? r->tail_start - 1 : sg_rule_max_take(r);
}

#define G(i) ((int64_t)sg_seq_get(s, (size_t)(i)))

/* The prefix condition of the tail theorem at start a:
 * {G(m): m < a+p} = [0,sal) u ({G(m): m < a} + sal).  Returns 1 when it
 * holds, 0 when not, -1 when out of memory. */
static int prefix_condition(const sg_seq *s, uint64_t a, uint64_t p,
                            uint64_t sal)
{
    size_t size = (size_t)s->max + sal + 2, i;
    unsigned char *x = calloc(size, 1), *y = calloc(size, 1);
    int ok = 1;

    if (!x || !y) {
        free(x);
        free(y);
        return -1;
    }
    for (i = 0; i < a + p; i++)
        x[sg_seq_get(s, i)] = 1;
    for (i = 0; i < sal && i < size; i++)
        y[i] = 1;
    for (i = 0; i < a; i++)
        y[sg_seq_get(s, i) + sal] = 1;
    for (i = 0; i < size; i++)
        if (x[i] != y[i]) {
            ok = 0;
            break;
        }
    free(x);
    free(y);
    return ok;
}

/* G(n) for n >= a, reading beyond the computed range through the
 * arithmetic periodicity (p, sal) known to hold from a on. */
static int64_t value_ap(const sg_seq *s, uint64_t a, uint64_t p, uint64_t sal,
                        uint64_t n)
{
    uint64_t q;
    if (n < s->n)
        return G(n);
    q = (n - a) / p;
    return G(a + (n - a) % p) + (int64_t)(q * sal);
}

/* Given (p, sal) proven from a: the least period q dividing p (with its
 * saltus), then the least pre-period for it. */
static void minimise(sg_result *res, const sg_seq *s, uint64_t a, uint64_t p,
                     uint64_t sal)
{
    uint64_t q, m, sq = sal;

    for (q = 1; q < p; q++) {
        uint64_t j;
        if (p % q || (sal * q) % p)
            continue;
        sq = sal * q / p;
        for (j = a; j < a + p; j++)
            if (value_ap(s, a, p, sal, j + q) != G(j) + (int64_t)sq)
                break;
        if (j == a + p)
            break;
    }
    if (q == p)
        sq = sal;
    m = a;
    while (m > 0 && G(m - 1 + q) == G(m - 1) + (int64_t)sq)
        m--;
    res->period = q;
    res->saltus = sq;
    res->preperiod = m;
}

/* Try candidate period p: its saltus is read off the end of the data, and
 * n0(p) is one past the last disagreement, found scanning backwards (a
 * wrong p usually fails at once).  Fills res and returns 1 when the
 * theorem certifies p, 0 when not, -1 when out of memory. */
static int try_period(sg_result *res, proof_kind kind, const sg_seq *s,
                      uint64_t p, uint64_t t)
{
    uint64_t N = s->n, i = N - p, a, sal = 0, tries;

    if (kind == KIND_TAIL3) {
        if (G(N - 1) < G(N - 1 - p))
            return 0;
        sal = (uint64_t)(G(N - 1) - G(N - 1 - p));
    }
    while (i > 0 && G(i - 1 + p) == G(i - 1) + (int64_t)sal)
        i--;
    a = i;
    if (kind != KIND_TAIL3) {
        if (a == 0)
            a = 1;
        if (agreement_end(kind, a, p, t) + p > N)
            return 0;
    } else {
        /* The prefix condition may need a later start than n0(p). */
        int ok = 0;
        for (tries = 0; tries < 64 + 2 * p; tries++, a++) {
            if (agreement_end(kind, a, p, t) + p > N)
                return 0;
            if ((ok = prefix_condition(s, a, p, sal)) != 0)
                break;
        }
        if (ok < 0)
            return -1;
        if (!ok) {
            if (agreement_end(kind, a, p, t) + p > N)
                return 0;
            if ((ok = prefix_condition(s, a, p, sal)) <= 0)
                return ok;
        }
    }
    res->proof_start = a;
    res->proof_period = p;
    res->proof_saltus = sal;
    res->certified_to = agreement_end(kind, a, p, t) + p - 1;
    minimise(res, s, a, p, sal);
    return 1;
}

/* Candidate periods below this are tried one by one; from it on, the
 * splitting theorems list them with a period scan (see search). */
#define SCAN_FROM 1024

/* Search a proof among the candidate periods p = 1, 2, ...  A provable p
 * has its last values recurring at shift p: the window theorem needs an
 * agreement stretch N - p - a >= t, the splitting theorems one of at least
 * a + p + t > p + t.  So only the shifts at which the last t values (window
 * theorem), or the last SCAN_FROM + t + 1 values (splitting theorems, for
 * p >= SCAN_FROM), recur need a try, and one O(N) pass (period_search.c)
 * lists them: this keeps periods of millions cheap.  Smaller p, and the
 * tail theorem (whose agreement is up to a saltus), try every p: a wrong
 * one fails within a few comparisons. */
static int search(sg_result *res, proof_kind kind, const sg_rule *r,
                  const sg_seq *s)
{
    uint64_t N = s->n, t = kind_length(kind, r), p, from = 1, len = t;
    int found = 0;

    if (N < 2)
        return 0;
    if (kind != KIND_WINDOW && kind != KIND_TAIL3) {
        from = SCAN_FROM;
        len = SCAN_FROM + t + 1;
        for (p = 1; p < from && p < N && agreement_end(kind, 1, p, t) + p <= N;
             p++)
            if ((found = try_period(res, kind, s, p, t)) != 0)
                return found;
        if (p < from)
            return 0;
    }
    if (kind != KIND_TAIL3 && len >= 1 && len < N) {
        sg_period_scan ps;
        if (sg_period_scan_init(&ps, s, len, from, NULL) == SG_OK) {
            while ((p = sg_period_scan_next(&ps)) != 0 &&
                   agreement_end(kind, 1, p, t) + p <= N)
                if ((found = try_period(res, kind, s, p, t)) != 0)
                    break;
            sg_period_scan_clear(&ps);
            return found;
        }
        /* Out of memory for the scan: fall back to trying every p. */
    }
    for (p = from; p < N && agreement_end(kind, 1, p, t) + p <= N; p++)
        if ((found = try_period(res, kind, s, p, t)) != 0)
            return found;
    return 0;
}

sg_status sg_prove(sg_result *res, const sg_rule *r, const sg_seq *s)
{
    proof_kind kind;
    const struct theorem *th;
    int found;

    memset(res, 0, sizeof *res);
    res->status = SG_UNRESOLVED;
    res->computed = s->n;
    kind = rule_kind(r, &res->note);
    if (kind == KIND_NONE)
        return SG_OK;
    found = search(res, kind, r, s);
    if (found <= 0) {
        memset(res, 0, sizeof *res);
        res->status = SG_UNRESOLVED;
        res->computed = s->n;
        res->note = found < 0 ? "out of memory while proving"
                              : "no period proven in the computed range";
        return found < 0 ? SG_E_NOMEM : SG_OK;
    }
    th = theorem_of(kind);
    res->status = res->saltus ? SG_ARITH_PERIODIC : SG_PERIODIC;
    res->theorem = th->name;
    res->theorem_id = th->id;
    res->checksum = sg_checksum(s, (size_t)res->certified_to + 1);
    return SG_OK;
}

/* Whether (q, sq) is an arithmetic period from a, given that (p, sal) is. */
static int is_period_from(const sg_seq *s, uint64_t a, uint64_t p, uint64_t sal,
                          uint64_t q, uint64_t sq)
{
    uint64_t j;
    for (j = a; j < a + p; j++)
        if (value_ap(s, a, p, sal, j + q) != G(j) + (int64_t)sq)
            return 0;
    return 1;
}

int sg_certificate_check(const sg_rule *r, const sg_result *c, const sg_seq *s,
                         uint64_t *fail_n, const char **why)
{
    proof_kind kind = rule_kind(r, NULL);
    const struct theorem *th = theorem_of(kind);
    uint64_t a = c->proof_start, p = c->proof_period, sal = c->proof_saltus;
    uint64_t t, end, n, q = c->period, sq = c->saltus;

    *fail_n = UINT64_MAX;
    if (!th || !c->theorem_id || strcmp(th->id, c->theorem_id) != 0) {
        *why = "the stated theorem does not apply to this rule";
        return 0;
    }
    if (p == 0 || q == 0) {
        *why = "the period must be positive";
        return 0;
    }
    t = kind_length(kind, r);
    end = agreement_end(kind, a, p, t);
    if (end + p - 1 > c->certified_to) {
        *why = "the bound is smaller than the theorem needs";
        return 0;
    }
    if (c->certified_to >= s->n) {
        *why = "fewer values available than the certificate covers";
        return 0;
    }
    if (sg_checksum(s, (size_t)c->certified_to + 1) != c->checksum) {
        *why = "checksum of G(0..bound) does not match";
        return 0;
    }
    if (kind != KIND_TAIL3 && (sal != 0 || sq != 0)) {
        *why = "this theorem proves only plain periodicity (saltus 0)";
        return 0;
    }
    if (kind != KIND_TAIL3 && a == 0) {
        *why = "the theorem's start must be at least 1";
        return 0;
    }
    for (n = a; n < end; n++)
        if (G(n + p) != G(n) + (int64_t)sal) {
            *fail_n = n;
            *why = "G(n+p) differs from G(n)+s inside the theorem's range";
            return 0;
        }
    if (kind == KIND_TAIL3 && !prefix_condition(s, a, p, sal)) {
        *why = "the prefix condition of the tail theorem fails";
        return 0;
    }
    /* The claim: (q, sq) divides the proven (p, sal) and holds from n0. */
    if (p % q || sal * q != sq * p || !is_period_from(s, a, p, sal, q, sq)) {
        *why = "the claimed period is not a period of the proven sequence";
        return 0;
    }
    if (c->preperiod > a) {
        *why = "the claimed pre-period lies beyond the theorem's start";
        return 0;
    }
    for (n = c->preperiod; n < a; n++)
        if (G(n + q) != G(n) + (int64_t)sq) {
            *fail_n = n;
            *why = "G(n+p) differs from G(n)+s below the theorem's start";
            return 0;
        }
    if (c->preperiod > 0 &&
        G(c->preperiod - 1 + q) == G(c->preperiod - 1) + (int64_t)sq) {
        *fail_n = c->preperiod - 1;
        *why = "the claimed pre-period is not the least";
        return 0;
    }
    for (n = 1; n < q; n++)
        if (q % n == 0 && (sq * n) % q == 0 &&
            is_period_from(s, a, p, sal, n, sq * n / q)) {
            *why = "the claimed period is not the least";
            return 0;
        }
    return 1;
}

#undef G

/* The size of sg_analyse's next round after an unproven one: 2N, or less
 * for the splitting theorems when some candidate p already agrees
 * (G(n+p) = G(n)) on a stretch of at least p/2 values ending at N - 1 and
 * the theorem would certify it at N' <= 2N - N/8 values, should the
 * agreement go on: then the least such N'.  Only scheduling: a wrong guess
 * costs one more round, never a wrong answer, as the proof is searched
 * afresh at every round.  (Short stretches, e.g. runs of equal values,
 * would only shave a little off 2N, so they are ignored.) */
static size_t next_round(const sg_rule *r, const sg_seq *s)
{
    proof_kind kind = rule_kind(r, NULL);
    uint64_t N = s->n, best = 2 * N, t, p;
    sg_period_scan ps;
    int have_scan;

    if (kind == KIND_NONE || kind == KIND_TAIL3 || kind == KIND_WINDOW ||
        N < 16)
        return (size_t)best;
    t = kind_length(kind, r);
    /* From SCAN_FROM on, a stretch of p/2 >= SCAN_FROM/2 agreeing values
     * means the last SCAN_FROM/2 values recur at shift p: a period scan
     * lists those p, in increasing order like the loop before it. */
    have_scan = N > SCAN_FROM &&
                sg_period_scan_init(&ps, s, SCAN_FROM / 2, SCAN_FROM, NULL) ==
                    SG_OK;
    for (p = 1; p < N;) {
        uint64_t i = N - p, a, need;
        while (i > 0 && sg_seq_get(s, (size_t)(i - 1 + p)) ==
                            sg_seq_get(s, (size_t)(i - 1)))
            i--;
        if (2 * (N - p - i) >= p) {
            a = i ? i : 1;
            need = agreement_end(kind, a, p, t) + p;
            if (need > N && need < best)
                best = need;
        }
        if (agreement_end(kind, 1, p + 1, t) + p + 1 >= best)
            break;      /* no later p can need fewer values */
        if (p + 1 < SCAN_FROM || !have_scan)
            p++;
        else if ((p = sg_period_scan_next(&ps)) == 0)
            break;
    }
    if (have_scan)
        sg_period_scan_clear(&ps);
    if (best > 2 * N - N / 8)
        return (size_t)(2 * N);
    /* Grow by at least an eighth, so that candidates that keep breaking
     * just past the computed range cannot cause many tiny rounds. */
    return (size_t)(best < N + N / 8 ? N + N / 8 : best);
}

sg_status sg_analyse(sg_result *res, sg_seq *s, const sg_rule *r, size_t max,
                     volatile sig_atomic_t *cancel, sg_error *err)
{
    size_t n = s->n < 128 ? 128 : s->n;
    sg_status st;

    if (!sg_prove_applicable(r, NULL))
        n = max;
    for (;;) {
        if (n > max)
            n = max;
        st = sg_enumerate(s, r, n, cancel, err);
        if (sg_prove(res, r, s) == SG_E_NOMEM && !st)
            return sg_error_set(err, SG_E_NOMEM, -1,
                                "out of memory while proving the period of "
                                "%zu values",
                                s->n);
        if (st)
            return st;
        if (res->status != SG_UNRESOLVED || s->n >= max)
            return SG_OK;
        n = next_round(r, s);
    }
}
