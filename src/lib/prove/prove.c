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
 *    condition {G(m): m < n0+p} = [0,s) u ({G(m): m < n0} + s);
 *  - hex-arith (finite codes with three-heap moves and no '!', after the
 *    three-heap theorem found no plain period): G(n+p) = G(n) + s, s a
 *    power of 2, for a <= n < B = max(a + t + 2c - 1, 3 max(a, c) + t - p),
 *    c the least x >= 1 with G(x) >= s, with the prefix condition of the
 *    equal-pair options for both parities of n, every value below G(n)
 *    for B <= n < B + p reached by an option the theorem follows, and the
 *    residue-or-size condition for every other split (THEORY.md 7.5).
 *
 * The search finds a proof; sg_certificate_check, which `verify` also uses,
 * re-checks every hypothesis from the values alone, with every sum and
 * product on certificate fields checked for overflow.
 *
 * An unresolved result carries the best candidate observed in the values
 * (res->observed, labelled "observed, not proven"): the least period p
 * whose block G(n0..n0+p-1) occurs and then repeats at least twice more up
 * to the last computed value (N - n0 >= 3p), n0 = n0(p) being the least
 * start it holds from (one past the last disagreement).  A saltus is
 * allowed in every family (issue 23), read off the end of the data as in
 * the proof search; a candidate with a saltus must also hold over the
 * last N/4 values.  `needs` is the certified_to that the
 * applicable theorem would report for this candidate (the same bound
 * function as the proof; for the tail theorem at the first start from n0
 * whose prefix condition holds), so `--max needs+1` proves it if the
 * candidate goes on.  The observation reuses the period scan: p below
 * SCAN_FROM are tried one by one (a failed p costs fewer than 2p + 1
 * comparisons), larger p only where the last SCAN_FROM values recur.
 *
 * Cost: every search (proof, observation, sg_analyse's next round) finds
 * n0(p) through start_of and its memo of the longest agreement stretch, so
 * that the multiples of a period and the later rounds of sg_analyse scan
 * no value twice; the period scan is one pass per round, and the rounds
 * grow geometrically.  The observation is made only for the result
 * sg_analyse returns, not for the rounds it drops.  An analysis thus
 * costs little more than its enumeration (issue 14; docs/BENCHMARKS.md).
 */
#include "sgexplore.h"
#include "internal.h"
#include "base/fnv.h"
#include "base/period_search.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef sgi_proof_kind proof_kind;

static const struct theorem {
    proof_kind kind;
    const char *id;
    const char *name;
} theorems[] = {
    {SGI_PROOF_WINDOW, SG_THM_WINDOW,
     "subtraction-window theorem (finite code without splits: each value "
     "depends only on the previous t values)"},
    {SGI_PROOF_TWO, SG_THM_GUY_SMITH,
     "Guy-Smith octal periodicity theorem (finite code, moves leave at most "
     "two heaps)"},
    {SGI_PROOF_TWO_UNEQUAL, SG_THM_UNEQUAL,
     "unequal-split Guy-Smith theorem (finite code with '!', moves leave at "
     "most two heaps)"},
    {SGI_PROOF_THREE, SG_THM_THREE_HEAP,
     "three-heap Guy-Smith theorem (finite code, moves leave up to three "
     "heaps)"},
    {SGI_PROOF_TAIL3, SG_THM_TAIL_ARITH,
     "tail arithmetic-periodicity theorem (split-free code ending in [3], "
     "such as an all-but game)"},
    {SGI_PROOF_TAIL3_SPLIT, SG_THM_TAIL_SPLIT,
     "splitting-tail arithmetic-periodicity theorem (code ending in [3] with "
     "two-heap splits before it, saltus a power of 2, such as Lasker's "
     "Nim)"},
    {SGI_PROOF_TAIL_PERIODIC, SG_THM_TAIL_PERIODIC,
     "periodic-tail theorem (split-free code with a repeating tail, such as "
     "a subtraction game over a progression: the tail's period divides the "
     "proof's)"},
    {SGI_PROOF_HEX_ARITH, SG_THM_HEX_ARITH,
     "hexadecimal arithmetic-periodicity theorem (finite code with "
     "three-heap moves, saltus a power of 2, such as 0.8F)"},
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

const char *sgi_theorem_lookup(const char *id, const char **name)
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

/* Which theorem can apply, and why not when none can: read off the rule's
 * profile (rules/profile.c). */
static proof_kind rule_kind(const sg_rule *r, const char **why)
{
    const sgi_profile *pr = sgi_rule_profile(r);

    if (why)
        *why = pr->why_unproven;
    return pr->proof;
}

int sgi_prove_applicable(const sg_rule *r, const char **why)
{
    return rule_kind(r, why) != SGI_PROOF_NONE;
}

const char *sgi_prove_theorem_id(const sg_rule *r)
{
    const struct theorem *th = theorem_of(rule_kind(r, NULL));
    return th ? th->id : NULL;
}

/* a + b and a * b, or UINT64_MAX when the result does not fit: no data
 * can reach UINT64_MAX, so an overflowing bound is simply never met. */
static uint64_t add_sat(uint64_t a, uint64_t b)
{
    uint64_t r;
    return __builtin_add_overflow(a, b, &r) ? UINT64_MAX : r;
}

static uint64_t mul_sat(uint64_t a, uint64_t b)
{
    uint64_t r;
    return __builtin_mul_overflow(a, b, &r) ? UINT64_MAX : r;
}

/* One past the last n at which the theorem needs G(n+p) = G(n) + s;
 * t is the code length (f = tail_start - 1 for tails).  UINT64_MAX when
 * the bound overflows (certificates may hold any 63-bit numbers). */
static uint64_t agreement_end(proof_kind kind, uint64_t a, uint64_t p,
                              uint64_t t)
{
    uint64_t m = a ? a : 1;

    switch (kind) {
    case SGI_PROOF_WINDOW:
    case SGI_PROOF_TAIL3:
        return add_sat(m, t);
    case SGI_PROOF_TAIL_PERIODIC:
        /* t = s0, the tail's start: a <= n < a + p + s0 - 1 */
        return add_sat(add_sat(m, p), t - 1);
    case SGI_PROOF_TAIL3_SPLIT:
        /* a lower bound: the true end a + f + c (split_tail_check) has
         * c >= a */
        return add_sat(mul_sat(2, m), t);
    case SGI_PROOF_TWO:
        return add_sat(add_sat(mul_sat(2, m), p), t);
    case SGI_PROOF_TWO_UNEQUAL:
        return add_sat(add_sat(mul_sat(2, m), mul_sat(2, p)), t);
    case SGI_PROOF_THREE:
    case SGI_PROOF_HEX_ARITH: /* its own bound: hex_arith_check */
    case SGI_PROOF_NONE:
    default:
        return add_sat(add_sat(mul_sat(3, m), mul_sat(2, p)), t);
    }
}

/* The last n whose value the theorem needs to certify period p from a
 * (the certified_to of a proof): agreement_end + p - 1, or UINT64_MAX on
 * overflow.  The prover accepts exactly when this is below N. */
static uint64_t theorem_needs(proof_kind kind, uint64_t a, uint64_t p,
                              uint64_t t)
{
    uint64_t e = agreement_end(kind, a, p, t);
    if (e == UINT64_MAX || p == 0)
        return UINT64_MAX;
    e = add_sat(e, p - 1);
    return e;
}

static uint64_t kind_length(proof_kind kind, const sg_rule *r)
{
    if (kind == SGI_PROOF_TAIL_PERIODIC)
        return r->tail_start;
    return kind == SGI_PROOF_TAIL3 || kind == SGI_PROOF_TAIL3_SPLIT
               ? r->tail_start - 1
               : sg_rule_max_take(r);
}

/* G(i) widened, so that G(i) + s never overflows for any 63-bit s. */
#define G(i) ((uint64_t)sg_seq_get(s, (size_t)(i)))

/* The prefix condition of the tail theorem at start a:
 * {G(m): m < a+p} = [0,sal) u ({G(m): m < a} + sal).  The caller makes
 * sure that a + p <= s->n and sal <= s->max.  Returns 1 when it holds, 0
 * when not, -1 when out of memory (never a silent "no"). */
static int prefix_condition(const sg_seq *s, uint64_t a, uint64_t p,
                            uint64_t sal)
{
    size_t size = (size_t)s->max + (size_t)sal + 2, i;
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

/* How many starts after n0(p) the tail theorem tries for the prefix
 * condition (the proof search and the observation must agree). */
static uint64_t tail_tries(uint64_t p)
{
    return add_sat(64, mul_sat(2, p));
}

/* G(n) for a <= n < a + 2p, reading beyond the computed range through
 * the arithmetic periodicity (p, sal) known to hold from a on. */
static uint64_t value_ap(const sg_seq *s, uint64_t a, uint64_t p, uint64_t sal,
                         uint64_t n)
{
    if (n < s->n)
        return G(n);
    return G(a + (n - a) % p) + (n - a) / p * sal;
}

/* Whether (q, sq) is an arithmetic period from a, given that (p, sal) is:
 * n -> G(n+q) - G(n) has period p from a, so one block of p suffices
 * (THEORY.md, section 7.3).  q <= p. */
static int is_period_from(const sg_seq *s, uint64_t a, uint64_t p, uint64_t sal,
                          uint64_t q, uint64_t sq)
{
    uint64_t j;
    for (j = a; j < a + p; j++)
        if (value_ap(s, a, p, sal, j + q) != G(j) + sq)
            return 0;
    return 1;
}

/* The least arithmetic period d of a sequence with period (p, sal) from a,
 * and its saltus *sd: the least divisor of p that is a period (Lemma 1(a)
 * and section 7.3: the least period divides every period, saltus in
 * proportion). */
static uint64_t least_period(const sg_seq *s, uint64_t a, uint64_t p,
                             uint64_t sal, uint64_t *sd)
{
    uint64_t d;

    for (d = 1; d < p; d++) {
        /* (d, sal * d / p), computed as sal / (p / d) to avoid overflow. */
        if (p % d || sal % (p / d))
            continue;
        if (is_period_from(s, a, p, sal, d, sal / (p / d))) {
            *sd = sal / (p / d);
            return d;
        }
    }
    *sd = sal;
    return p;
}

/* Given (p, sal) proven from a: the least period q dividing p (with its
 * saltus), then the least pre-period for it. */
static void minimise(sg_result *res, const sg_seq *s, uint64_t a, uint64_t p,
                     uint64_t sal)
{
    uint64_t sq, q = least_period(s, a, p, sal, &sq), m = a;

    while (m > 0 && G(m - 1 + q) == G(m - 1) + sq)
        m--;
    res->period = q;
    res->saltus = sq;
    res->preperiod = m;
}

/* Signed 128-bit integers for the size condition (p G and sal n reach
 * past 64 bits). */
__extension__ typedef __int128 i128;

/* Limits of split_tail_check's work (bytes and steps): beyond them the
 * theorem is not attempted (unresolved), and a certificate is refused. */
#define SPLIT_WORK_MAX ((uint64_t)1 << 28)
#define SPLIT_VALUE_MAX ((uint64_t)1 << 26) /* two tables of this many bytes */

/*
 * The hypotheses of the splitting-tail theorem (docs/THEORY.md, section
 * 7.4) for start a, period p, saltus sal: sal a power of 2; c, the least
 * x >= 1 with G(x) >= sal, at least a; B = a + f + c; the prefix
 * condition at a; G(n+p) = G(n) + sal for a <= n < B; for B <= n < B + p,
 * every value below G(n) is the value of a one-heap option or of a split
 * with a part below c; and the residue condition: no two-part split whose
 * parts are both at least c can have the residue mod sal of the next
 * value of its class.  Values G(n) for n >= N are read through (a, p,
 * sal) (value_ap): only observed_needs relies on that; the prover and
 * the checker call it with need < N.  Sets *need to B + p - 1
 * (UINT64_MAX on overflow) and *why on failure.  Returns 1 when every
 * hypothesis holds, 0 when not, -1 when out of memory.
 */
static int split_tail_check(const sg_seq *s, const sg_rule *r, uint64_t a,
                            uint64_t p, uint64_t sal, uint64_t *need,
                            const char **why)
{
    uint64_t N = s->n, f = r->tail_start - 1, c, B, n, k, x, vmax = 0;
    uint64_t work = 0, nk4 = 0, i1, i2;
    unsigned char *inA = NULL, *mark = NULL;
    uint64_t *rho = NULL;
    i128 *ee = NULL;
    int ok = 0, pc;

#define V(i) value_ap(s, a, p, sal, (i))
    *need = UINT64_MAX;
    *why = NULL;
    if (a == 0 || p == 0 || sal == 0 || (sal & (sal - 1)) != 0) {
        *why = "the saltus must be a power of 2 and the start at least 1";
        return 0;
    }
    if (a + p > N || a + p < a) {
        *why = "fewer values than one period from the start";
        return 0;
    }
    if (f > SPLIT_WORK_MAX) {
        *why = "the finite check of the splitting-tail theorem is beyond "
               "this implementation's limits";
        return 0;
    }
    for (c = 1; c <= a + p && V(c) < sal; c++)
        ;
    if (c < a) {
        *why = "some heap from 1 to the start has a value of at least the "
               "saltus (c < a)";
        return 0;
    }
    B = add_sat(add_sat(a, f), c);
    *need = add_sat(B, p - 1);
    if (*need == UINT64_MAX) {
        *why = "the theorem's bound exceeds 2^64";
        return 0;
    }
    if (*need > N && *need - N > SPLIT_WORK_MAX) {
        *why = "the finite check of the splitting-tail theorem is beyond "
               "this implementation's limits";
        return 0;
    }
    for (k = 0; k <= f; k++)
        if (sg_rule_digit(r, k, NULL) & SG_BIT_TWO)
            nk4++;
    for (n = 0; n <= *need; n++)
        if (V(n) > vmax)
            vmax = V(n);
    /* the work of the option check and of the residue table */
    for (n = B; n <= *need; n++)
        work = add_sat(work, add_sat(V(n), add_sat(f, mul_sat(nk4, c))));
    if (work > SPLIT_WORK_MAX || vmax >= SPLIT_VALUE_MAX ||
        p > SPLIT_WORK_MAX ||
        mul_sat(mul_sat(p, p), nk4) > 2 * SPLIT_WORK_MAX) {
        *why = "the finite check of the splitting-tail theorem is beyond "
               "this implementation's limits";
        return 0;
    }
    if ((pc = prefix_condition(s, a, p, sal)) != 1) {
        *why = "the prefix condition fails";
        return pc;
    }
    for (n = a; n < B; n++)
        if (V(n + p) != V(n) + sal) {
            *why = "G(n+p) differs from G(n)+s inside the theorem's range";
            return 0;
        }
    inA = calloc((size_t)vmax + 1, 1);
    mark = calloc((size_t)vmax + 1, 1);
    rho = malloc((size_t)p * sizeof *rho);
    ee = malloc((size_t)p * sizeof *ee);
    if (!inA || !mark || !rho || !ee) {
        ok = -1;
        goto out;
    }
    /* Option check: A(n) = {G(j) : j <= n - f - 1} grows with n. */
    for (x = 0; x + f + 1 <= B; x++)
        inA[V(x)] = 1;
    for (n = B; n <= *need; n++) {
        uint64_t g = V(n), v;
        if (n > B)
            inA[V(n - f - 1)] = 1;
        memset(mark, 0, (size_t)g);
        for (k = 1; k <= f; k++)
            if ((sg_rule_digit(r, k, NULL) & SG_BIT_ONE) && (v = V(n - k)) < g)
                mark[v] = 1;
        for (k = 0; k <= f; k++) {
            if (!(sg_rule_digit(r, k, NULL) & SG_BIT_TWO))
                continue;
            for (x = 1; x < c && x + k < n; x++)
                if ((v = V(x) ^ V(n - k - x)) < g)
                    mark[v] = 1;
        }
        for (v = 0; v < g; v++)
            if (!inA[v] && !mark[v]) {
                *why = "a value below G(n) is reached only by splits into "
                       "two large parts, for n in [B, B + p)";
                goto out;
            }
    }
    /* Residue-or-size condition, for every class pair of two large parts
     * (i1, i2) and split position k: the value G(x) ^ G(y) misses the
     * residue mod sal of the class t of n = x + y + k, or even
     * G(x) + G(y) < G(n), which with E(i) = p G(a+i) - sal (a+i) reads
     * E(i1) + E(i2) - sal k < E(t) (p G(x) = E(ix) + sal x). */
    for (i1 = 0; i1 < p; i1++) {
        rho[i1] = V(a + i1) & (sal - 1);
        ee[i1] = (i128)p * (i128)V(a + i1) - (i128)sal * (i128)(a + i1);
    }
    for (k = 0; k <= f; k++) {
        if (!(sg_rule_digit(r, k, NULL) & SG_BIT_TWO))
            continue;
        for (i1 = 0; i1 < p; i1++)
            for (i2 = i1; i2 < p; i2++) {
                uint64_t cl = (a % p + i1 + i2 + k % p) % p;
                if ((rho[i1] ^ rho[i2]) == rho[cl] &&
                    ee[i1] + ee[i2] - (i128)sal * (i128)k >= ee[cl]) {
                    *why = "the residue-or-size condition fails: two large "
                           "parts may reach the next value of their class";
                    goto out;
                }
            }
    }
    ok = 1;
out:
#undef V
    free(inA);
    free(mark);
    free(rho);
    free(ee);
    return ok;
}

/* Limit of class_condition's work (steps): beyond it the arithmetic case
 * of the periodic-tail theorem is not attempted, and a certificate is
 * refused. */
#define CLASS_WORK_MAX ((uint64_t)1 << 27)

/* Whether heap j is an option of heap h under a split-free rule: h - j
 * tokens taken, with bit ALL when nothing is left, ONE otherwise. */
static int one_heap_option(const sg_rule *r, uint64_t h, uint64_t j)
{
    unsigned d;

    if (j >= h)
        return 0;
    d = sg_rule_digit(r, h - j, NULL);
    return j == 0 ? (d & SG_BIT_ALL) != 0 : (d & SG_BIT_ONE) != 0;
}

/*
 * The class condition of the periodic-tail theorem with a saltus
 * (docs/THEORY.md, section 7.7), for a split-free rule whose digits repeat
 * with period q = tail_len from s0 = tail_start: for every m in [M0, M0 +
 * q), M0 = a + s0 - 1,
 *   {G(j) : j < a + p, j an option of m + p}
 *     = [0, sal) u {G(i) + sal : i < a, i an option of m}.
 * The caller makes sure that a + p <= s->n and sal <= s->max.  Returns 1
 * when it holds, 0 when not (or beyond CLASS_WORK_MAX: *why says which),
 * -1 when out of memory.
 */
static int class_condition(const sg_seq *s, const sg_rule *r, uint64_t a,
                           uint64_t p, uint64_t sal, const char **why)
{
    uint64_t q = r->tail_len, M0 = add_sat(a, r->tail_start - 1), m, j;
    uint64_t size = (uint64_t)s->max + sal + 2;
    unsigned char *x, *y;
    int ok = 1;

    if (mul_sat(q, add_sat(add_sat(a, p), size)) > CLASS_WORK_MAX ||
        M0 == UINT64_MAX || add_sat(M0, add_sat(q, p)) == UINT64_MAX) {
        *why = "the class condition of the periodic-tail theorem is beyond "
               "this implementation's limits";
        return 0;
    }
    x = calloc((size_t)size, 1);
    y = calloc((size_t)size, 1);
    if (!x || !y) {
        free(x);
        free(y);
        return -1;
    }
    for (m = M0; ok && m < M0 + q; m++) {
        memset(x, 0, (size_t)size);
        memset(y, 0, (size_t)size);
        for (j = 0; j < a + p; j++)
            if (one_heap_option(r, m + p, j))
                x[G(j)] = 1;
        for (j = 0; j < sal; j++)
            y[j] = 1;
        for (j = 0; j < a; j++)
            if (one_heap_option(r, m, j))
                y[G(j) + sal] = 1;
        if (memcmp(x, y, (size_t)size) != 0) {
            *why = "the class condition of the periodic-tail theorem fails";
            ok = 0;
        }
    }
    free(x);
    free(y);
    return ok;
}

/* The least common multiple of p and the tail's period q, the period the
 * periodic-tail theorem proves for a candidate p (UINT64_MAX on
 * overflow). */
static uint64_t tail_multiple(uint64_t p, uint64_t q)
{
    uint64_t a = p, b = q;

    while (b) {
        uint64_t t = a % b;
        a = b;
        b = t;
    }
    return a ? mul_sat(p / a, q) : UINT64_MAX;
}

/* Limits of hex_arith_check's work (steps), of the values it tables
 * (two tables of 8-byte heap sizes per value), and of the periods the
 * search tries: beyond them the theorem is not attempted (unresolved), and
 * a certificate is refused. */
#define HEX_WORK_MAX ((uint64_t)1 << 28)
#define HEX_VALUE_MAX ((uint64_t)1 << 20)
#define HEX_PERIOD_MAX 1024

/* The positions of a finite code by bit (docs/THEORY.md, section 7.5):
 * K2 (bit 2, k >= 1), K4 (bit 4), K8 (bit 8), their sizes, the least
 * position of each parity with bit 8, and whether bit 4 occurs at a
 * position of each parity. */
typedef struct hex_positions {
    uint64_t *k2, *k4, *k8;
    uint64_t n2, n4, n8;
    uint64_t min8[2]; /* UINT64_MAX: no bit-8 position of that parity */
    int has4[2];
} hex_positions;

static int hex_positions_init(hex_positions *hp, const sg_rule *r, uint64_t t)
{
    uint64_t k;

    memset(hp, 0, sizeof *hp);
    hp->min8[0] = hp->min8[1] = UINT64_MAX;
    hp->k2 = malloc((size_t)(t + 1) * sizeof *hp->k2);
    hp->k4 = malloc((size_t)(t + 1) * sizeof *hp->k4);
    hp->k8 = malloc((size_t)(t + 1) * sizeof *hp->k8);
    if (!hp->k2 || !hp->k4 || !hp->k8)
        return -1;
    for (k = 0; k <= t; k++) {
        unsigned d = sg_rule_digit(r, k, NULL);
        if (k >= 1 && (d & SG_BIT_ONE))
            hp->k2[hp->n2++] = k;
        if (d & SG_BIT_TWO) {
            hp->k4[hp->n4++] = k;
            hp->has4[k % 2] = 1;
        }
        if (d & SG_BIT_THREE) {
            hp->k8[hp->n8++] = k;
            if (hp->min8[k % 2] == UINT64_MAX)
                hp->min8[k % 2] = k;
        }
    }
    return 0;
}

static void hex_positions_clear(hex_positions *hp)
{
    free(hp->k2);
    free(hp->k4);
    free(hp->k8);
}

/* Whether z is in the eventual "pairs cancel" set of a heap of parity pi
 * (THEORY.md 7.5: the options (x, x, z) with z >= 1, bit 8, z = n - k
 * mod 2; and (x, x), z = 0, bit 4, n - k even). */
static int hex_pair_allowed(const hex_positions *hp, uint64_t z, uint64_t pi)
{
    if (z == 0)
        return hp->has4[pi % 2];
    return hp->min8[(z + pi) % 2] != UINT64_MAX;
}

/* The prefix condition of the hexadecimal theorem for heaps of parity pi:
 * {G(z) : z < a+p, allowed(z, pi)} = [0,sal) u ({G(z) : z < a,
 * allowed(z, pi + p)} + sal).  Values read through V. */
static int hex_prefix(const sg_seq *s, const hex_positions *hp, uint64_t a,
                      uint64_t p, uint64_t sal, uint64_t pi)
{
    uint64_t top = 0, z;
    size_t size, i;
    unsigned char *x, *y;
    int ok = 1;

    for (z = 0; z < a + p; z++)
        if (value_ap(s, a, p, sal, z) > top)
            top = value_ap(s, a, p, sal, z);
    size = (size_t)(top + sal + 2);
    x = calloc(size, 1);
    y = calloc(size, 1);
    if (!x || !y) {
        free(x);
        free(y);
        return -1;
    }
    for (z = 0; z < a + p; z++)
        if (hex_pair_allowed(hp, z, pi))
            x[value_ap(s, a, p, sal, z)] = 1;
    for (i = 0; i < sal; i++)
        y[i] = 1;
    for (z = 0; z < a; z++)
        if (hex_pair_allowed(hp, z, pi + p % 2))
            y[value_ap(s, a, p, sal, z) + sal] = 1;
    for (i = 0; i < size; i++)
        if (x[i] != y[i]) {
            ok = 0;
            break;
        }
    free(x);
    free(y);
    return ok;
}

/*
 * The hypotheses of the hexadecimal arithmetic-periodicity theorem
 * (docs/THEORY.md, section 7.5, Theorem 7) for start a, period p, saltus
 * sal, on a finite code without '!' (t its length): sal a power of 2; c,
 * the least x >= 1 with G(x) >= sal; M = max(a, c);
 * B = max(a + t + 2c - 1, 3M + t - p); (i) the prefix condition for both
 * parities of n; (ii) G(n+p) = G(n) + sal for a <= n < B; (iii) for
 * B <= n < B + p, every value below G(n) is the value of a "good" option
 * (one heap; two heaps one of them below c; three heaps two of them below
 * c; two equal heaps with or without a third); (iv) the residue-or-size
 * condition for every other split, its parts below M taken one by one and
 * the others by class mod p.  Values G(n) for n >= N are read through (a,
 * p, sal): only observed_needs relies on that.  Sets *need to B + p - 1
 * (UINT64_MAX on overflow) and *why on failure.  Returns 1 when every
 * hypothesis holds, 0 when not, -1 when out of memory.
 */
static int hex_arith_check(const sg_seq *s, const sg_rule *r, uint64_t a,
                           uint64_t p, uint64_t sal, uint64_t *need,
                           const char **why, int *late)
{
    uint64_t N = s->n, t = sg_rule_max_take(r), c, M, B, n, k, x, z, pi;
    uint64_t work = 0, vmax = 0, nx, ny, ix, iy, iz;
    hex_positions hp;
    uint64_t *minz[2] = {NULL, NULL};
    unsigned char *mark = NULL;
    uint64_t *rr = NULL, *pos = NULL;
    i128 *ee = NULL;
    int ok = 0, pc;

#define V(i) value_ap(s, a, p, sal, (i))
    *need = UINT64_MAX;
    *why = NULL;
    if (late)
        *late = 0;
    memset(&hp, 0, sizeof hp);
    if (a == 0 || p == 0 || sal == 0 || (sal & (sal - 1)) != 0) {
        *why = "the saltus must be a power of 2 and the start at least 1";
        return 0;
    }
    if (a + p > N || a + p < a) {
        *why = "fewer values than one period from the start";
        return 0;
    }
    if (t > HEX_WORK_MAX || p > HEX_WORK_MAX) {
        *why = "the finite check of the hexadecimal theorem is beyond this "
               "implementation's limits";
        return 0;
    }
    for (c = 1; c <= a + p && V(c) < sal; c++)
        ;
    if (c > a + p) {
        *why = "no heap up to one period past the start has a value of at "
               "least the saltus";
        return 0;
    }
    M = a > c ? a : c;
    B = add_sat(add_sat(a, t), 2 * c - 1);
    x = add_sat(mul_sat(3, M), t);
    if (x > p && x - p > B)
        B = x - p;
    *need = add_sat(B, p - 1);
    if (*need == UINT64_MAX) {
        *why = "the theorem's bound exceeds 2^64";
        return 0;
    }
    if (*need > N && *need - N > HEX_WORK_MAX) {
        *why = "the finite check of the hexadecimal theorem is beyond this "
               "implementation's limits";
        return 0;
    }
    if (hex_positions_init(&hp, r, t)) {
        ok = -1;
        goto out;
    }
    /* (i) the prefix condition, for heaps of either parity (its tables
     * hold the values below a + p, plus the saltus) */
    for (z = 0; z < a + p; z++)
        if (V(z) > vmax)
            vmax = V(z);
    if (vmax >= HEX_VALUE_MAX || sal >= HEX_VALUE_MAX) {
        *why = "the finite check of the hexadecimal theorem is beyond this "
               "implementation's limits";
        if (late)
            *late = 1;
        goto out;
    }
    for (pi = 0; pi < 2; pi++)
        if ((pc = hex_prefix(s, &hp, a, p, sal, pi)) != 1) {
            *why = "the prefix condition fails";
            ok = pc;
            goto out;
        }
    /* (ii) agreement */
    for (n = a; n < B; n++)
        if (V(n + p) != V(n) + sal) {
            *why = "G(n+p) differs from G(n)+s inside the theorem's range";
            goto out;
        }
    for (n = 0; n <= *need; n++)
        if (V(n) > vmax)
            vmax = V(n);
    for (n = B; n <= *need; n++)
        work = add_sat(work,
                       add_sat(V(n), add_sat(hp.n2 + mul_sat(hp.n4, c),
                                             mul_sat(hp.n8, mul_sat(c, c)))));
    nx = add_sat(M, p);     /* part types: explicit heaps below M, classes */
    ny = add_sat(M - c, p); /* the middle part is at least c */
    work = add_sat(work, mul_sat(mul_sat(hp.n4, ny), p));
    work = add_sat(work, mul_sat(mul_sat(mul_sat(hp.n8, nx), ny), p));
    if (work > HEX_WORK_MAX || vmax >= HEX_VALUE_MAX) {
        *why = "the finite check of the hexadecimal theorem is beyond this "
               "implementation's limits";
        if (late)
            *late = 1;
        goto out;
    }
    /* (iii) every value below G(n) from a good option, B <= n < B + p.
     * minz[q][v]: the least z >= 1 of parity q with G(z) = v (or
     * UINT64_MAX), for the options (x, x, z). */
    minz[0] = malloc((size_t)(vmax + 1) * sizeof *minz[0]);
    minz[1] = malloc((size_t)(vmax + 1) * sizeof *minz[1]);
    mark = malloc((size_t)vmax + 1);
    if (!minz[0] || !minz[1] || !mark) {
        ok = -1;
        goto out;
    }
    for (x = 0; x <= vmax; x++)
        minz[0][x] = minz[1][x] = UINT64_MAX;
    for (z = *need; z >= 1; z--)
        minz[z % 2][V(z)] = z;
    for (n = B; n <= *need; n++) {
        uint64_t g = V(n), v, u, w, q;
        memset(mark, 0, (size_t)g);
        for (k = 0; k < hp.n2; k++)
            if ((v = V(n - hp.k2[k])) < g)
                mark[v] = 1;
        for (k = 0; k < hp.n4; k++) {
            uint64_t m = n - hp.k4[k];
            for (u = 1; u < c && u < m; u++)
                if ((v = V(u) ^ V(m - u)) < g)
                    mark[v] = 1;
            if (m % 2 == 0 && g > 0)
                mark[0] = 1; /* (x, x) */
        }
        for (k = 0; k < hp.n8; k++) {
            uint64_t m = n - hp.k8[k];
            for (u = 1; u < c; u++)
                for (w = 1; w < c && u + w < m; w++)
                    if ((v = V(u) ^ V(w) ^ V(m - u - w)) < g)
                        mark[v] = 1;
        }
        for (v = 0; v < g; v++) {
            if (mark[v])
                continue;
            /* (x, x, z): z of parity q up to n - k - 2 for the least k of
             * bit 8 with n - k = q mod 2 */
            for (q = 0; q < 2; q++) {
                uint64_t k0 = hp.min8[(n + q) % 2];
                if (k0 != UINT64_MAX && minz[q][v] != UINT64_MAX &&
                    minz[q][v] + k0 + 2 <= n)
                    break;
            }
            if (q == 2) {
                *why = "a value below G(n) is reached only by splits whose "
                       "value the theorem does not follow, for n in "
                       "[B, B + p)";
                if (late)
                    *late = 1;
                goto out;
            }
        }
    }
    /* (iv) the residue-or-size condition.  Part types 0 .. M-2 are the
     * heaps 1 .. M-1, type M-1+i the class a+i mod p; each with its
     * residue G mod sal, E = p G - sal h (for a class, of its first heap
     * a+i: the same for every heap of the class) and position mod p. */
    rr = malloc((size_t)nx * sizeof *rr);
    pos = malloc((size_t)nx * sizeof *pos);
    ee = malloc((size_t)nx * sizeof *ee);
    if (!rr || !pos || !ee) {
        ok = -1;
        goto out;
    }
    for (ix = 0; ix + 1 < nx; ix++) {
        uint64_t h = ix + 1 < M ? ix + 1 : a + (ix + 1 - M);
        rr[ix] = V(h) & (sal - 1);
        pos[ix] = h % p;
        ee[ix] = (i128)p * (i128)V(h) - (i128)sal * (i128)h;
    }
    nx--; /* types 0 .. nx-1: M-1 heaps and p classes */
#define CLS(i) (M - 1 + (i))
    for (k = 0; k < hp.n4; k++) {
        uint64_t kk = hp.k4[k];
        /* x < y, x >= c: x a heap in [c, M) or a class; y a class */
        for (ix = c - 1; ix < nx; ix++)
            for (iy = 0; iy < p; iy++) {
                uint64_t tc = (pos[ix] + pos[CLS(iy)] + kk % p + p - a % p) % p;
                if ((rr[ix] ^ rr[CLS(iy)]) == rr[CLS(tc)] &&
                    ee[ix] + ee[CLS(iy)] - (i128)sal * (i128)kk >=
                        ee[CLS(tc)]) {
                    *why = "the residue-or-size condition fails: a split "
                           "into two large parts may reach the next value "
                           "of its class";
                    if (late)
                        *late = 1;
                    goto out;
                }
            }
    }
    for (k = 0; k < hp.n8; k++) {
        uint64_t kk = hp.k8[k];
        /* x < y < z, y >= c: x any type, y a heap in [c, M) or a class,
         * z a class */
        for (ix = 0; ix < nx; ix++)
            for (iy = c - 1; iy < nx; iy++)
                for (iz = 0; iz < p; iz++) {
                    uint64_t tc = (pos[ix] + pos[iy] + pos[CLS(iz)] + kk % p +
                                   p - a % p) %
                                  p;
                    if ((rr[ix] ^ rr[iy] ^ rr[CLS(iz)]) == rr[CLS(tc)] &&
                        ee[ix] + ee[iy] + ee[CLS(iz)] - (i128)sal * (i128)kk >=
                            ee[CLS(tc)]) {
                        *why = "the residue-or-size condition fails: a "
                               "split into three unequal parts may reach "
                               "the next value of its class";
                        if (late)
                            *late = 1;
                        goto out;
                    }
                }
    }
#undef CLS
    ok = 1;
out:
#undef V
    hex_positions_clear(&hp);
    free(minz[0]);
    free(minz[1]);
    free(mark);
    free(rr);
    free(pos);
    free(ee);
    return ok;
}

/*
 * n0(p) for saltus sal: one past the last n < N - p with G(n+p) !=
 * G(n) + sal, or 0.  Scanning backwards, a wrong p usually fails at once;
 * a right one scans its whole agreement stretch, and so would each of its
 * multiples, which the searches all try, and so would every round of
 * sg_analyse: for a period of 4 that was N / 8 candidates of ~N
 * comparisons each per round (issue 14).  The memo removes both:
 *
 *  - Multiples.  After a scan of p0 ending at i0 (at N values), every
 *    multiple p = k p0 <= N - i0 with sal = k s0 has n0(p) = i0 exactly,
 *    without a scan.  Why: for n in [i0, N - p) the chain n, n + p0, ...,
 *    n + p stays in [i0, N), so G(n+p) = G(n) + k s0; and if i0 > 0,
 *    G(i0-1+p) = G(i0-1+p0) + (k-1) s0 by the same chain from i0-1+p0 (its
 *    last link ends at i0-1+p <= N-1), which differs from G(i0-1) + k s0
 *    because G(i0-1+p0) != G(i0-1) + s0.
 *  - Rounds.  Values are only ever appended, so when N grows from n to N'
 *    the agreement on [i0, n - p0) still holds: only n in [n - p0, N' - p0)
 *    need a look (with the saltus read off the new end, when it is still
 *    s0; otherwise the memo is dropped).  If they all agree n0(p0) is
 *    still i0, else it is one past the last new disagreement.
 *
 * So a search costs one scan of the new values for the longest stretch
 * plus a few comparisons per wrong candidate: about one pass over the
 * values in all, however the rounds fall.  Kept by sg_analyse across its
 * rounds; sg_prove alone starts empty.
 */
typedef sgi_prove_memo run_memo;

void sgi_prove_memo_init(sgi_prove_memo *m, const sg_rule *r)
{
    memset(m, 0, sizeof *m);
    m->with_saltus = r->tail_len != 0;
}

/* The least i' in [lo, i] with G(n+p) = G(n) + sal for every n in
 * [i', i); i + p <= N.  Plain agreement compares bytes, 64 values at a
 * time (the scans read hundreds of millions of values). */
static uint64_t scan_back(const sg_seq *s, uint64_t p, uint64_t sal, uint64_t i,
                          uint64_t lo)
{
    if (sal == 0) {
        const uint8_t *d = s->data;
        size_t w = s->width;
        while (i - lo >= 64 && memcmp(d + (size_t)(i - 64 + p) * w,
                                      d + (size_t)(i - 64) * w, 64 * w) == 0)
            i -= 64;
    }
    while (i > lo && G(i - 1 + p) == G(i - 1) + sal)
        i--;
    return i;
}

/* Bring the memo to the current N (see above); drops it when it cannot. */
static void memo_refresh(run_memo *m, const sg_seq *s)
{
    uint64_t N = s->n, p0 = m->p0, sal = 0, i;

    if (!p0 || m->n == N)
        return;
    if (N < m->n || p0 >= N) {
        m->p0 = 0;
        return;
    }
    if (m->with_saltus) {
        if (G(N - 1) < G(N - 1 - p0)) {
            m->p0 = 0;
            return;
        }
        sal = G(N - 1) - G(N - 1 - p0);
    }
    if (sal != m->s0) {
        /* Still exact for s0, but of no use to this end's candidates. */
        m->p0 = 0;
        return;
    }
    /* i0 <= n - p0, and [i0, n - p0) agrees already. */
    i = scan_back(s, p0, sal, N - p0, m->n - p0);
    if (i > m->n - p0)
        m->i0 = i;
    m->n = N;
}

static uint64_t start_of(const sg_seq *s, uint64_t p, uint64_t sal,
                         run_memo *memo)
{
    uint64_t N = s->n, i;

    if (memo) {
        memo_refresh(memo, s);
        if (memo->p0 && p % memo->p0 == 0 && p <= N - memo->i0 &&
            sal == mul_sat(p / memo->p0, memo->s0))
            return memo->i0;
    }
    i = scan_back(s, p, sal, N - p, 0);
    /* Keep the longest stretch N - p - n0(p) seen: the true period's,
     * whose multiples come next. */
    if (memo && (!memo->p0 || N - p - i > N - memo->p0 - memo->i0)) {
        memo->p0 = p;
        memo->i0 = i;
        memo->s0 = sal;
        memo->n = N;
    }
    return i;
}

/* The saltus of candidate p read off the end of the data (tail rules), or
 * 0; -1 when the end decreases (no arithmetic period p). */
static int saltus_of(uint64_t *sal, const sg_seq *s, int with_saltus,
                     uint64_t p)
{
    uint64_t N = s->n;
    *sal = 0;
    if (!with_saltus)
        return 0;
    if (G(N - 1) < G(N - 1 - p))
        return -1;
    *sal = G(N - 1) - G(N - 1 - p);
    return 0;
}

/* Try candidate period p: its saltus is read off the end of the data, and
 * n0(p) is one past the last disagreement.  Fills res and returns 1 when
 * the theorem certifies p, 0 when not, -1 when out of memory. */
static int try_period(sg_result *res, proof_kind kind, const sg_rule *r,
                      const sg_seq *s, uint64_t p, uint64_t t, run_memo *memo)
{
    uint64_t N = s->n, a, sal, tries;

    if (kind == SGI_PROOF_TAIL_PERIODIC && p % r->tail_len)
        return 0; /* the theorem needs the tail's period to divide p */
    if (saltus_of(&sal, s,
                  kind == SGI_PROOF_TAIL3 || kind == SGI_PROOF_TAIL3_SPLIT ||
                      kind == SGI_PROOF_TAIL_PERIODIC,
                  p))
        return 0;
    a = start_of(s, p, sal, memo);
    if (kind == SGI_PROOF_TAIL3_SPLIT) {
        /* A later start may meet the prefix condition (c >= a fails for
         * good once it fails). */
        uint64_t need = UINT64_MAX;
        const char *why;
        int ok = 0;
        if (a == 0)
            a = 1;
        for (tries = 0; tries < tail_tries(p); tries++, a++) {
            /* c >= a makes need >= 2a + f + p - 1: most candidates stop
             * here, before the check reads any value */
            if (theorem_needs(kind, a, p, t) >= N)
                return 0;
            ok = split_tail_check(s, r, a, p, sal, &need, &why);
            if (ok != 0 || need >= N || a + p > N)
                break;
        }
        if (ok < 0)
            return -1;
        if (ok == 0 || need >= N)
            return 0;
        res->proof_start = a;
        res->proof_period = p;
        res->proof_saltus = sal;
        res->certified_to = need;
        minimise(res, s, a, p, sal);
        return 1;
    }
    if (kind != SGI_PROOF_TAIL3) {
        if (a == 0)
            a = 1;
        if (theorem_needs(kind, a, p, t) >= N)
            return 0;
        if (kind == SGI_PROOF_TAIL_PERIODIC && sal) {
            const char *why;
            int ok = class_condition(s, r, a, p, sal, &why);
            if (ok <= 0)
                return ok;
        }
    } else {
        /* The prefix condition may need a later start than n0(p). */
        int ok = 0;
        for (tries = 0; tries < tail_tries(p); tries++, a++) {
            if (theorem_needs(kind, a, p, t) >= N)
                return 0;
            if ((ok = prefix_condition(s, a, p, sal)) != 0)
                break;
        }
        if (ok < 0)
            return -1;
        if (tries == tail_tries(p))
            return 0;
    }
    res->proof_start = a;
    res->proof_period = p;
    res->proof_saltus = sal;
    res->certified_to = theorem_needs(kind, a, p, t);
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
 * one fails within a few comparisons, and a multiple of the period found
 * first costs none (the memo of start_of). */
static int search(sg_result *res, proof_kind kind, const sg_rule *r,
                  const sg_seq *s, run_memo *memo)
{
    uint64_t N = s->n, t = kind_length(kind, r), p, from = 1, len = t;
    int found = 0;

    if (N < 2)
        return 0;
    if (kind != SGI_PROOF_WINDOW && kind != SGI_PROOF_TAIL3 &&
        kind != SGI_PROOF_TAIL3_SPLIT && kind != SGI_PROOF_TAIL_PERIODIC) {
        from = SCAN_FROM;
        len = SCAN_FROM + t + 1;
        for (p = 1; p < from && p < N && theorem_needs(kind, 1, p, t) < N; p++)
            if ((found = try_period(res, kind, r, s, p, t, memo)) != 0)
                return found;
        if (p < from)
            return 0;
    }
    if (kind != SGI_PROOF_TAIL3 && kind != SGI_PROOF_TAIL3_SPLIT &&
        kind != SGI_PROOF_TAIL_PERIODIC && len >= 1 && len < N) {
        sg_period_scan ps;
        if (sg_period_scan_init(&ps, s, len, from, NULL) == SG_OK) {
            while ((p = sg_period_scan_next(&ps)) != 0 &&
                   theorem_needs(kind, 1, p, t) < N)
                if ((found = try_period(res, kind, r, s, p, t, memo)) != 0)
                    break;
            sg_period_scan_clear(&ps);
            return found;
        }
        /* Out of memory for the scan: fall back to trying every p. */
    }
    for (p = from; p < N && theorem_needs(kind, 1, p, t) < N; p++)
        if ((found = try_period(res, kind, r, s, p, t, memo)) != 0)
            return found;
    return 0;
}

/* The hexadecimal theorem's starts from `a` on for (p, sal), as the tail
 * theorems' (fewer: each try may run the whole finite check).  Returns 1
 * with *a and *need set when the check holds at a start with need < N
 * (`bounded`) or at any start (not bounded: observed_needs, which reads
 * values beyond N through the candidate), 0 when not, -1 when out of
 * memory. */
static int hex_arith_starts(const sg_seq *s, const sg_rule *r, uint64_t *a,
                            uint64_t p, uint64_t sal, uint64_t *need,
                            int bounded)
{
    uint64_t tries, st = *a ? *a : 1, tmax = add_sat(16, p);
    const char *why;
    int ok = 0, late;

    for (tries = 0; tries < tmax && st + p <= s->n; tries++, st++) {
        ok = hex_arith_check(s, r, st, p, sal, need, &why, &late);
        if (ok < 0)
            return -1;
        if (ok && (!bounded || *need < s->n)) {
            *a = st;
            return 1;
        }
        /* need grows with the start: no later start fits either */
        if (bounded && *need >= s->n)
            return 0;
        /* a later start may meet the prefix condition, but the window
         * checks, which cost the most, are tried at one start only */
        if (late)
            return 0;
        if (!bounded && *need == UINT64_MAX)
            return 0;
    }
    return 0;
}

/* Search a proof by the hexadecimal theorem (finite codes with bit 8,
 * after Theorem 3 found no plain period): every p below HEX_PERIOD_MAX
 * with a saltus, read off the end, that is a power of 2.  A multiple of
 * the least period with twice, four times ... its saltus is a candidate
 * of its own (its residues mod the larger saltus separate more splits);
 * minimise brings the result back to the least period.  A memo of its own
 * (saltus read off the end) keeps the multiples cheap. */
static int search_hex_arith(sg_result *res, const sg_rule *r, const sg_seq *s)
{
    uint64_t N = s->n, p, sal, a, need;
    run_memo memo;
    int ok;

    memset(&memo, 0, sizeof memo);
    memo.with_saltus = 1;
    for (p = 1; p < HEX_PERIOD_MAX && add_sat(p, 1) < N; p++) {
        if (saltus_of(&sal, s, 1, p) || sal == 0 || (sal & (sal - 1)))
            continue;
        a = start_of(s, p, sal, &memo);
        if ((ok = hex_arith_starts(s, r, &a, p, sal, &need, 1)) < 0)
            return -1;
        if (!ok)
            continue;
        res->proof_start = a;
        res->proof_period = p;
        res->proof_saltus = sal;
        res->certified_to = need;
        minimise(res, s, a, p, sal);
        return 1;
    }
    return 0;
}

/* Whether candidate p is seen to repeat: its block from n0(p) occurs and
 * repeats at least twice more, N - n0 >= 3p, and, with a saltus, holds
 * over at least the last N/4 values.  Fills *n0, *sal. */
static int observed_at(const sg_seq *s, int with_saltus, uint64_t p,
                       uint64_t *n0, uint64_t *sal, run_memo *memo)
{
    uint64_t N = s->n, i;

    if (saltus_of(sal, s, with_saltus, p))
        return 0;
    /* A wrong p stops at its first disagreement from the end: fewer than
     * 2p + 1 comparisons when it does not qualify; multiples of a long
     * stretch come from the memo. */
    i = start_of(s, p, *sal, memo);
    *n0 = i;
    /* With a saltus, also over the last quarter of the values: short
     * arithmetic runs (x, x+1, x+1, x+2, ...) occur inside the blocks of
     * longer arithmetic periods (0.8F: p = 2 over the last 8 of 400
     * values, inside its period 7). */
    return N - i >= 3 * p && (*sal == 0 || N - i >= N / 4);
}

/* What the theorem of `kind` would need (its certified_to) to prove the
 * candidate (p, sal) observed from n0; UINT64_MAX when no theorem applies
 * or, for the tail theorem, no start from n0 on whose prefix condition can
 * be read from the computed values holds.  Mirrors try_period. */
static uint64_t observed_needs(proof_kind kind, const sg_rule *r,
                               const sg_seq *s, uint64_t n0, uint64_t p,
                               uint64_t sal, int *nomem)
{
    uint64_t t, a = n0, tries;
    int ok;

    if (kind == SGI_PROOF_NONE)
        return UINT64_MAX;
    if (kind == SGI_PROOF_TAIL3_SPLIT) {
        /* As try_period, the values beyond N read through the candidate. */
        uint64_t need = UINT64_MAX;
        const char *why;
        if (a == 0)
            a = 1;
        for (tries = 0; tries < tail_tries(p) && a + p <= s->n; tries++, a++) {
            ok = split_tail_check(s, r, a, p, sal, &need, &why);
            if (ok < 0)
                *nomem = 1;
            if (ok != 0)
                return ok < 0 ? UINT64_MAX : need;
            if (need >= s->n)
                return UINT64_MAX;
        }
        return UINT64_MAX;
    }
    if (kind == SGI_PROOF_TAIL_PERIODIC) {
        /* proven as the multiple lcm(p, q); with a saltus only when the
         * class condition holds (read from the computed values) */
        const char *why;
        uint64_t pq = tail_multiple(p, r->tail_len);
        if (a == 0)
            a = 1;
        if (sal && pq != UINT64_MAX) {
            uint64_t sq = mul_sat(sal, pq / p);
            if (add_sat(a, pq) > s->n || sq > s->max)
                return UINT64_MAX;
            ok = class_condition(s, r, a, pq, sq, &why);
            if (ok < 0)
                *nomem = 1;
            if (ok != 1)
                return UINT64_MAX;
        }
        return pq == UINT64_MAX ? UINT64_MAX
                                : theorem_needs(kind, a, pq, r->tail_start);
    }
    if (sal != 0 && kind == SGI_PROOF_THREE) {
        /* the hexadecimal theorem, values beyond N read through the
         * candidate, as for the splitting tails */
        uint64_t need = UINT64_MAX;
        ok = hex_arith_starts(s, r, &a, p, sal, &need, 0);
        if (ok < 0)
            *nomem = 1;
        return ok == 1 ? need : UINT64_MAX;
    }
    if (sal != 0 && kind != SGI_PROOF_TAIL3)
        return UINT64_MAX; /* its theorem proves plain periods only */
    t = kind_length(kind, r);
    if (kind != SGI_PROOF_TAIL3)
        return theorem_needs(kind, a ? a : 1, p, t);
    for (tries = 0; tries < tail_tries(p) && a + p <= s->n; tries++, a++)
        if ((ok = prefix_condition(s, a, p, sal)) != 0) {
            if (ok < 0)
                *nomem = 1;
            return ok < 0 ? UINT64_MAX : theorem_needs(kind, a, p, t);
        }
    return UINT64_MAX;
}

/* The least p >= from, below `below`, at which the last SCAN_FROM values
 * (plain) or differences (diff) recur and the candidate is seen to
 * repeat; 0 when none.  Falls back to trying every p when the scan's
 * table cannot be allocated. */
static uint64_t observe_scan(const sg_seq *s, int diff, uint64_t below,
                             uint64_t *n0, uint64_t *sal, run_memo *memo)
{
    uint64_t N = s->n, p;
    sg_period_scan ps;
    sg_status st =
        diff ? sg_period_scan_init_diff(&ps, s, SCAN_FROM, SCAN_FROM, NULL)
             : sg_period_scan_init(&ps, s, SCAN_FROM, SCAN_FROM, NULL);

    if (st == SG_OK) {
        while ((p = sg_period_scan_next(&ps)) != 0 && p <= N / 3 && p < below)
            if (observed_at(s, diff, p, n0, sal, memo)) {
                sg_period_scan_clear(&ps);
                return p;
            }
        sg_period_scan_clear(&ps);
        return 0;
    }
    for (p = SCAN_FROM; p <= N / 3 && p < below; p++)
        if (observed_at(s, diff, p, n0, sal, memo))
            return p;
    return 0;
}

/* Fill res->observed for an unresolved result (see the comment at the top):
 * the least p seen to repeat, with the saltus read off the end of the data
 * in every family (issue 23: a hexadecimal code such as 0.8F is
 * arithmetic-periodic; finite octal codes never are [HoN], and their
 * saltus read off the end is then 0 for every candidate that repeats).
 * p below SCAN_FROM are tried one by one; from it on, the plain period
 * scan lists the shifts where the last SCAN_FROM values recur and the
 * scan of differences those where they recur up to a saltus, which
 * every candidate with N - n0 >= 3p > SCAN_FROM is; the scan of
 * differences (slower) only looks below the plain candidate. */
static void observe(sg_result *res, proof_kind kind, const sg_rule *r,
                    const sg_seq *s, run_memo *memo, int *nomem)
{
    sg_observed *o = &res->observed;
    uint64_t N = s->n, p, n0 = 0, sal = 0, pn0 = 0, psal = 0, pp;
    int found = 0;

    memset(o, 0, sizeof *o);
    if (N < 3)
        return;
    for (p = 1; p <= N / 3 && p < SCAN_FROM; p++)
        if ((found = observed_at(s, 1, p, &n0, &sal, memo)))
            break;
    if (!found && p < N / 3 + 1) {
        /* plain first (fast), then with a saltus below it */
        pp = observe_scan(s, 0, UINT64_MAX, &pn0, &psal, memo);
        p = observe_scan(s, 1, pp ? pp : UINT64_MAX, &n0, &sal, memo);
        if (!p && pp) {
            p = pp;
            n0 = pn0;
            sal = psal;
        }
        found = p != 0;
    }
    if (!found)
        return;
    o->have = 1;
    o->preperiod = n0;
    o->period = p;
    o->saltus = sal;
    o->held_to = N - 1;
    o->needs = observed_needs(kind, r, s, n0, p, sal, nomem);
}

/* sg_prove with the memo of agreement stretches that sg_analyse keeps
 * across its rounds; res->observed only with `observing` (sg_analyse's
 * rounds before the last are dropped unresolved: their observation, a
 * third of the period scans, would go unread). */
static sg_status prove_memo(sg_result *res, const sg_rule *r, const sg_seq *s,
                            run_memo *memo, int observing)
{
    proof_kind kind;
    const struct theorem *th;
    int found, nomem = 0;

    memset(res, 0, sizeof *res);
    res->status = SG_UNRESOLVED;
    res->computed = s->n;
    kind = rule_kind(r, &res->note);
    if (kind == SGI_PROOF_NONE) {
        if (observing)
            observe(res, kind, r, s, memo, &nomem);
        return nomem ? SG_E_NOMEM : SG_OK;
    }
    found = search(res, kind, r, s, memo);
    if (found == 0 && kind == SGI_PROOF_THREE &&
        (found = search_hex_arith(res, r, s)) > 0)
        kind = SGI_PROOF_HEX_ARITH;
    if (found <= 0) {
        /* Out of memory is an error, never "no period proven". */
        memset(res, 0, sizeof *res);
        res->status = SG_UNRESOLVED;
        res->computed = s->n;
        if (found == 0 && observing)
            observe(res, kind, r, s, memo, &nomem);
        if (found < 0 || nomem) {
            memset(&res->observed, 0, sizeof res->observed);
            res->note = "out of memory while proving";
            return SG_E_NOMEM;
        }
        res->note = "no period proven in the computed range";
        return SG_OK;
    }
    th = theorem_of(kind);
    res->status = res->saltus ? SG_ARITH_PERIODIC : SG_PERIODIC;
    res->theorem = th->name;
    res->theorem_id = th->id;
    res->checksum = sg_checksum(s, (size_t)res->certified_to + 1);
    return SG_OK;
}

sg_status sgi_prove_round(sg_result *res, const sg_rule *r, const sg_seq *s,
                          sgi_prove_memo *memo, int observing)
{
    return prove_memo(res, r, s, memo, observing);
}

sg_status sg_prove(sg_result *res, const sg_rule *r, const sg_seq *s)
{
    run_memo memo;

    sgi_prove_memo_init(&memo, r);
    return prove_memo(res, r, s, &memo, 1);
}

/* Set the reason a certificate is refuted; returns 0 for `return refute()`. */
static int refute(sg_error *err, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static int refute(sg_error *err, const char *fmt, ...)
{
    va_list ap;
    if (!err)
        return 0;
    err->code = SG_E_INPUT;
    err->pos = -1;
    va_start(ap, fmt);
    vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    va_end(ap);
    return 0;
}

#define U(x) ((unsigned long long)(x))

int sg_certificate_check(const sg_rule *r, const sg_result *c, const sg_seq *s,
                         uint64_t *fail_n, sg_error *err)
{
    proof_kind kind = rule_kind(r, NULL);
    const struct theorem *th = theorem_of(kind);
    uint64_t a = c->proof_start, p = c->proof_period, sal = c->proof_saltus;
    uint64_t q = c->period, sq = c->saltus, n0 = c->preperiod;
    uint64_t B = c->certified_to, t, end, need, n, d, sd;
    int pc;

    *fail_n = UINT64_MAX;
    /* Finite codes with three-heap moves have two theorems: plain
     * (guy-smith-3) and arithmetic (hex-arith) periodicity. */
    if (kind == SGI_PROOF_THREE && c->theorem_id &&
        strcmp(c->theorem_id, SG_THM_HEX_ARITH) == 0) {
        kind = SGI_PROOF_HEX_ARITH;
        th = theorem_of(kind);
    }
    if (!th)
        return refute(err, "no implemented theorem applies to this rule");
    if (!c->theorem_id || strcmp(th->id, c->theorem_id) != 0)
        return refute(err,
                      "the stated theorem does not apply to this rule "
                      "(only %s does)",
                      kind == SGI_PROOF_THREE ? SG_THM_THREE_HEAP
                          " or " SG_THM_HEX_ARITH
                                              : th->id);
    if (p == 0 || q == 0)
        return refute(err, "the period must be positive");
    if (c->status != (sq ? SG_ARITH_PERIODIC : SG_PERIODIC))
        return refute(err, "the status '%s' contradicts the saltus %llu",
                      sg_period_status_name(c->status), U(sq));
    if (kind != SGI_PROOF_TAIL3 && kind != SGI_PROOF_TAIL3_SPLIT &&
        kind != SGI_PROOF_TAIL_PERIODIC && kind != SGI_PROOF_HEX_ARITH &&
        (sal != 0 || sq != 0))
        return refute(err,
                      "this theorem proves only plain periodicity (saltus 0)");
    if (kind != SGI_PROOF_TAIL3 && a == 0)
        return refute(err, "the theorem's start must be at least 1");
    if (kind == SGI_PROOF_TAIL3_SPLIT || kind == SGI_PROOF_HEX_ARITH) {
        /* both read their hypotheses off G(0..B) with a saltus */
        int hex = kind == SGI_PROOF_HEX_ARITH;
        const char *why, *name = hex ? "hexadecimal" : "splitting-tail";
        int ok;
        if (B >= s->n)
            return refute(err, "fewer values available than the "
                               "certificate covers");
        if (sg_checksum(s, (size_t)B + 1) != c->checksum)
            return refute(err, "checksum of G(0..bound) does not match");
        if (hex && sal == 0)
            return refute(err, "this theorem proves only arithmetic "
                               "periodicity (saltus at least 1)");
        if (sal > s->max)
            return refute(err, "the proof's saltus %llu exceeds every value",
                          U(sal));
        if (p > B || a > B - p)
            return refute(err, "the start and period reach beyond the "
                               "bound");
        ok = hex ? hex_arith_check(s, r, a, p, sal, &need, &why, NULL)
                 : split_tail_check(s, r, a, p, sal, &need, &why);
        if (ok < 0) {
            sg_error_set(err, SG_E_NOMEM, -1,
                         "out of memory while checking the %s theorem", name);
            return 0;
        }
        if (need != UINT64_MAX && need > B)
            return refute(err,
                          "the bound is smaller than the theorem needs "
                          "(%llu < %llu)",
                          U(B), U(need));
        if (!ok)
            return refute(err, "the %s theorem's check fails: %s", name, why);
        goto claimed;
    }
    t = kind_length(kind, r);
    end = agreement_end(kind, a, p, t);
    need = theorem_needs(kind, a, p, t);
    if (need == UINT64_MAX)
        return refute(err,
                      "the theorem's bound for start %llu and period "
                      "%llu exceeds 2^64",
                      U(a), U(p));
    if (need > B)
        return refute(err,
                      "the bound is smaller than the theorem needs (%llu < "
                      "%llu)",
                      U(B), U(need));
    if (B >= s->n)
        return refute(err, "fewer values available than the certificate "
                           "covers");
    if (sg_checksum(s, (size_t)B + 1) != c->checksum)
        return refute(err, "checksum of G(0..bound) does not match");
    /* From here on every index is at most need <= B < s->n. */
    if (sal > s->max)
        return refute(err, "the proof's saltus %llu exceeds every value",
                      U(sal));
    for (n = a; n < end; n++)
        if (G(n + p) != G(n) + sal) {
            *fail_n = n;
            return refute(err,
                          "G(n+%llu) differs from G(n)+%llu inside the "
                          "theorem's range",
                          U(p), U(sal));
        }
    if (kind == SGI_PROOF_TAIL_PERIODIC) {
        const char *why = NULL;
        int ok;
        if (p % r->tail_len)
            return refute(err,
                          "the proof's period %llu is not a multiple of the "
                          "tail's period %llu",
                          U(p), U(r->tail_len));
        if (sal && p > B - a + 1)
            return refute(err, "the start and period reach beyond the "
                               "bound");
        if (sal && (ok = class_condition(s, r, a, p, sal, &why)) != 1) {
            if (ok < 0) {
                sg_error_set(err, SG_E_NOMEM, -1,
                             "out of memory while checking the class "
                             "condition");
                return 0;
            }
            return refute(err, "%s", why);
        }
    }
    if (kind == SGI_PROOF_TAIL3 && (pc = prefix_condition(s, a, p, sal)) != 1) {
        if (pc < 0) {
            sg_error_set(err, SG_E_NOMEM, -1,
                         "out of memory while checking the prefix condition");
            return 0;
        }
        return refute(err, "the prefix condition of the tail theorem fails");
    }
claimed:
    /* The claim: every arithmetic period of the proven sequence is a
     * multiple of the least one d, with saltus in proportion. */
    d = least_period(s, a, p, sal, &sd);
    if (q % d || sq != mul_sat(sd, q / d))
        return refute(err,
                      "the claimed period %llu with saltus %llu is not a "
                      "period of the proven sequence (its least period is "
                      "%llu, saltus %llu)",
                      U(q), U(sq), U(d), U(sd));
    if (q != d)
        return refute(err,
                      "the claimed period %llu is a period, but not the "
                      "least one (the least is %llu)",
                      U(q), U(d));
    if (n0 > a)
        return refute(err,
                      "the claimed pre-period %llu lies beyond the "
                      "theorem's start %llu",
                      U(n0), U(a));
    for (n = n0; n < a; n++)
        if (G(n + q) != G(n) + sq) {
            *fail_n = n;
            return refute(err,
                          "G(n+%llu) differs from G(n)+%llu below the "
                          "theorem's start",
                          U(q), U(sq));
        }
    if (n0 > 0 && G(n0 - 1 + q) == G(n0 - 1) + sq) {
        *fail_n = n0 - 1;
        return refute(err, "the claimed pre-period %llu is not the least",
                      U(n0));
    }
    return 1;
}

#undef U
#undef G

/* The size of sg_analyse's next round after an unproven one: 2N, or less
 * for the splitting theorems when some candidate p already agrees
 * (G(n+p) = G(n)) on a stretch of at least p/2 values ending at N - 1 and
 * the theorem would certify it at N' <= 2N - N/8 values, should the
 * agreement go on: then the least such N'.  Only scheduling: a wrong guess
 * costs one more round, never a wrong answer, as the proof is searched
 * afresh at every round.  (Short stretches, e.g. runs of equal values,
 * would only shave a little off 2N, so they are ignored.) */
size_t sgi_prove_next_count(const sg_rule *r, const sg_seq *s,
                            sgi_prove_memo *memo)
{
    proof_kind kind = rule_kind(r, NULL);
    uint64_t N = s->n, best = 2 * N, t, p;
    sg_period_scan ps;
    int have_scan;

    if (kind == SGI_PROOF_NONE || kind == SGI_PROOF_TAIL3 ||
        kind == SGI_PROOF_TAIL3_SPLIT || kind == SGI_PROOF_TAIL_PERIODIC ||
        kind == SGI_PROOF_WINDOW || N < 16)
        return (size_t)best;
    t = kind_length(kind, r);
    /* From SCAN_FROM on, a stretch of p/2 >= SCAN_FROM/2 agreeing values
     * means the last SCAN_FROM/2 values recur at shift p: a period scan
     * lists those p, in increasing order like the loop before it. */
    have_scan = N > SCAN_FROM && sg_period_scan_init(&ps, s, SCAN_FROM / 2,
                                                     SCAN_FROM, NULL) == SG_OK;
    for (p = 1; p < N;) {
        uint64_t i = start_of(s, p, 0, memo), a, need;
        if (2 * (N - p - i) >= p) {
            a = i ? i : 1;
            need = agreement_end(kind, a, p, t) + p;
            if (need > N && need < best)
                best = need;
        }
        if (agreement_end(kind, 1, p + 1, t) + p + 1 >= best)
            break; /* no later p can need fewer values */
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
