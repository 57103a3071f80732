/*
 * theorems.c - the theorems of periodicity: their table, bounds and
 * hypotheses, which the proof search (prove.c) and the certificate
 * checker (cert_check.c) both apply.  A period is reported only when a
 * theorem stated and proved in docs/THEORY.md certifies it from the
 * computed values; everything else is "unresolved".
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
 *    residue-or-size condition for every other split (THEORY.md 7.5);
 *  - set-residues (subtraction over a heap-independent set expression,
 *    THEORY.md 7.8): G(n + p) = G(n) for 0 <= n < M, M the largest over
 *    the classes mod p that hold a member of the least member of the
 *    class (rules/setexpr_residues.c), pre-period 0.
 */
#include "prove/prove_impl.h"
#include "rules/setexpr.h"

#include <stdlib.h>
#include <string.h>

static const struct theorem theorems[] = {
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
    {SGI_PROOF_SET_RESIDUES, SG_THM_SET_RESIDUES,
     "set-residues theorem (subtraction over a set whose residues modulo the "
     "period are known, such as powers-of-2 or the odd primes)"},
};

const struct theorem *sgi_theorem_of(proof_kind k)
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

int sgi_prove_applicable(const sg_rule *r, const char **why)
{
    return rule_kind(r, why) != SGI_PROOF_NONE;
}

const char *sgi_prove_theorem_id(const sg_rule *r)
{
    const struct theorem *th = sgi_theorem_of(rule_kind(r, NULL));
    return th ? th->id : NULL;
}

/* One past the last n at which the theorem needs G(n+p) = G(n) + s;
 * t is the code length (f = tail_start - 1 for tails).  UINT64_MAX when
 * the bound overflows (certificates may hold any 63-bit numbers). */
uint64_t sgi_agreement_end(proof_kind kind, uint64_t a, uint64_t p, uint64_t t)
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
    case SGI_PROOF_HEX_ARITH:    /* its own bound: hex_arith_check */
    case SGI_PROOF_SET_RESIDUES: /* its own bound: sgi_set_residue_needs */
    case SGI_PROOF_NONE:
    default:
        return add_sat(add_sat(mul_sat(3, m), mul_sat(2, p)), t);
    }
}

/* The last n whose value the theorem needs to certify period p from a
 * (the certified_to of a proof): agreement_end + p - 1, or UINT64_MAX on
 * overflow.  The prover accepts exactly when this is below N. */
uint64_t sgi_theorem_needs(proof_kind kind, uint64_t a, uint64_t p, uint64_t t)
{
    uint64_t e = sgi_agreement_end(kind, a, p, t);
    if (e == UINT64_MAX || p == 0)
        return UINT64_MAX;
    e = add_sat(e, p - 1);
    return e;
}

uint64_t sgi_kind_length(proof_kind kind, const sg_rule *r)
{
    if (kind == SGI_PROOF_TAIL_PERIODIC)
        return r->tail_start;
    return kind == SGI_PROOF_TAIL3 || kind == SGI_PROOF_TAIL3_SPLIT
               ? r->tail_start - 1
               : sg_rule_max_take(r);
}

/* The prefix condition of the tail theorem at start a:
 * {G(m): m < a+p} = [0,sal) u ({G(m): m < a} + sal).  The caller makes
 * sure that a + p <= s->n and sal <= s->max.  Returns 1 when it holds, 0
 * when not, -1 when out of memory (never a silent "no"). */
int sgi_prefix_condition(const sg_seq *s, uint64_t a, uint64_t p, uint64_t sal)
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
uint64_t sgi_least_period(const sg_seq *s, uint64_t a, uint64_t p, uint64_t sal,
                          uint64_t *sd)
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
int sgi_split_tail_check(const sg_seq *s, const sg_rule *r, uint64_t a,
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
    if ((pc = sgi_prefix_condition(s, a, p, sal)) != 1) {
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
int sgi_class_condition(const sg_seq *s, const sg_rule *r, uint64_t a,
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
 * p, sal): only observed_needs relies on that.  One function per
 * hypothesis below, each returning 1 when it holds, 0 when not (with
 * hx->why, and hx->late when it fails past the agreement), -1 when out of
 * memory; hex_arith_check runs them in order.
 */
typedef struct hex_check {
    const sg_seq *s;
    uint64_t a, p, sal, t;
    uint64_t c, M, B, need; /* the theorem's constants; need = B + p - 1 */
    uint64_t vmax;          /* the largest value the tables hold */
    hex_positions hp;
    const char *why;
    int late;
} hex_check;

#define HV(hx, i) value_ap((hx)->s, (hx)->a, (hx)->p, (hx)->sal, (i))

static const char hex_limits[] = "the finite check of the hexadecimal "
                                 "theorem is beyond this implementation's "
                                 "limits";

/* The saltus, the start, c, M, B and need, and the sizes this
 * implementation checks. */
static int hex_constants(hex_check *hx)
{
    uint64_t N = hx->s->n, a = hx->a, p = hx->p, sal = hx->sal, t = hx->t;
    uint64_t c, x;

    if (a == 0 || p == 0 || sal == 0 || (sal & (sal - 1)) != 0) {
        hx->why = "the saltus must be a power of 2 and the start at least 1";
        return 0;
    }
    if (a + p > N || a + p < a) {
        hx->why = "fewer values than one period from the start";
        return 0;
    }
    if (t > HEX_WORK_MAX || p > HEX_WORK_MAX) {
        hx->why = hex_limits;
        return 0;
    }
    for (c = 1; c <= a + p && HV(hx, c) < sal; c++)
        ;
    if (c > a + p) {
        hx->why = "no heap up to one period past the start has a value of "
                  "at least the saltus";
        return 0;
    }
    hx->c = c;
    hx->M = a > c ? a : c;
    hx->B = add_sat(add_sat(a, t), 2 * c - 1);
    x = add_sat(mul_sat(3, hx->M), t);
    if (x > p && x - p > hx->B)
        hx->B = x - p;
    hx->need = add_sat(hx->B, p - 1);
    if (hx->need == UINT64_MAX) {
        hx->why = "the theorem's bound exceeds 2^64";
        return 0;
    }
    if (hx->need > N && hx->need - N > HEX_WORK_MAX) {
        hx->why = hex_limits;
        return 0;
    }
    return 1;
}

/* (i) the prefix condition, for heaps of either parity (its tables hold
 * the values below a + p, plus the saltus). */
static int hex_hyp_prefix(hex_check *hx)
{
    uint64_t z, pi;
    int pc;

    for (z = 0; z < hx->a + hx->p; z++)
        if (HV(hx, z) > hx->vmax)
            hx->vmax = HV(hx, z);
    if (hx->vmax >= HEX_VALUE_MAX || hx->sal >= HEX_VALUE_MAX) {
        hx->why = hex_limits;
        hx->late = 1;
        return 0;
    }
    for (pi = 0; pi < 2; pi++)
        if ((pc = hex_prefix(hx->s, &hx->hp, hx->a, hx->p, hx->sal, pi)) != 1) {
            hx->why = "the prefix condition fails";
            return pc;
        }
    return 1;
}

/* (ii) agreement G(n+p) = G(n) + sal for a <= n < B. */
static int hex_hyp_agreement(hex_check *hx)
{
    uint64_t n;

    for (n = hx->a; n < hx->B; n++)
        if (HV(hx, n + hx->p) != HV(hx, n) + hx->sal) {
            hx->why = "G(n+p) differs from G(n)+s inside the theorem's range";
            return 0;
        }
    return 1;
}

/* The work of (iii) and (iv) and the largest value up to need, within
 * this implementation's limits. */
static int hex_work_fits(hex_check *hx)
{
    const hex_positions *hp = &hx->hp;
    uint64_t n, work = 0, c = hx->c, p = hx->p, nx, ny;

    for (n = 0; n <= hx->need; n++)
        if (HV(hx, n) > hx->vmax)
            hx->vmax = HV(hx, n);
    for (n = hx->B; n <= hx->need; n++)
        work = add_sat(
            work, add_sat(HV(hx, n), add_sat(hp->n2 + mul_sat(hp->n4, c),
                                             mul_sat(hp->n8, mul_sat(c, c)))));
    nx = add_sat(hx->M, p);     /* part types: heaps below M, classes */
    ny = add_sat(hx->M - c, p); /* the middle part is at least c */
    work = add_sat(work, mul_sat(mul_sat(hp->n4, ny), p));
    work = add_sat(work, mul_sat(mul_sat(mul_sat(hp->n8, nx), ny), p));
    if (work > HEX_WORK_MAX || hx->vmax >= HEX_VALUE_MAX) {
        hx->why = hex_limits;
        hx->late = 1;
        return 0;
    }
    return 1;
}

/* The values below G(n) that n's good options with a one-heap, two-heap
 * or small three-heap move reach, marked in mark[0..G(n)-1]. */
static void hex_mark_options(const hex_check *hx, unsigned char *mark,
                             uint64_t n, uint64_t g)
{
    const hex_positions *hp = &hx->hp;
    uint64_t k, u, w, v, c = hx->c;

    memset(mark, 0, (size_t)g);
    for (k = 0; k < hp->n2; k++)
        if ((v = HV(hx, n - hp->k2[k])) < g)
            mark[v] = 1;
    for (k = 0; k < hp->n4; k++) {
        uint64_t m = n - hp->k4[k];
        for (u = 1; u < c && u < m; u++)
            if ((v = HV(hx, u) ^ HV(hx, m - u)) < g)
                mark[v] = 1;
        if (m % 2 == 0 && g > 0)
            mark[0] = 1; /* (x, x) */
    }
    for (k = 0; k < hp->n8; k++) {
        uint64_t m = n - hp->k8[k];
        for (u = 1; u < c; u++)
            for (w = 1; w < c && u + w < m; w++)
                if ((v = HV(hx, u) ^ HV(hx, w) ^ HV(hx, m - u - w)) < g)
                    mark[v] = 1;
    }
}

/* (iii) every value below G(n) from a good option, B <= n < B + p.
 * minz[q][v]: the least z >= 1 of parity q with G(z) = v (or
 * UINT64_MAX), for the options (x, x, z). */
static int hex_hyp_options(hex_check *hx)
{
    uint64_t *minz[2], x, z, n, vmax = hx->vmax;
    unsigned char *mark;
    int ok = 1;

    minz[0] = malloc((size_t)(vmax + 1) * sizeof *minz[0]);
    minz[1] = malloc((size_t)(vmax + 1) * sizeof *minz[1]);
    mark = malloc((size_t)vmax + 1);
    if (!minz[0] || !minz[1] || !mark) {
        ok = -1;
        goto out;
    }
    for (x = 0; x <= vmax; x++)
        minz[0][x] = minz[1][x] = UINT64_MAX;
    for (z = hx->need; z >= 1; z--)
        minz[z % 2][HV(hx, z)] = z;
    for (n = hx->B; n <= hx->need && ok == 1; n++) {
        uint64_t g = HV(hx, n), v, q;
        hex_mark_options(hx, mark, n, g);
        for (v = 0; v < g; v++) {
            if (mark[v])
                continue;
            /* (x, x, z): z of parity q up to n - k - 2 for the least k of
             * bit 8 with n - k = q mod 2 */
            for (q = 0; q < 2; q++) {
                uint64_t k0 = hx->hp.min8[(n + q) % 2];
                if (k0 != UINT64_MAX && minz[q][v] != UINT64_MAX &&
                    minz[q][v] + k0 + 2 <= n)
                    break;
            }
            if (q == 2) {
                hx->why = "a value below G(n) is reached only by splits "
                          "whose value the theorem does not follow, for n "
                          "in [B, B + p)";
                hx->late = 1;
                ok = 0;
                break;
            }
        }
    }
out:
    free(minz[0]);
    free(minz[1]);
    free(mark);
    return ok;
}

/* The part types of (iv): types 0 .. M-2 are the heaps 1 .. M-1, type
 * M-1+i the class a+i mod p; each with its residue G mod sal, E = p G -
 * sal h (for a class, of its first heap a+i: the same for every heap of
 * the class) and position mod p. */
typedef struct hex_parts {
    uint64_t n; /* M - 1 + p types */
    uint64_t *rr, *pos;
    i128 *ee;
} hex_parts;

#define CLS(hx, i) ((hx)->M - 1 + (i))

/* Whether the split at kk into the types of xs (nparts of them, the last
 * a class) may reach the next value of its class: the residues' xor is
 * the class's residue and the sizes do not keep below it. */
static int hex_split_reaches(const hex_check *hx, const hex_parts *pt,
                             const uint64_t *xs, int nparts, uint64_t kk)
{
    uint64_t p = hx->p, sum = kk % p + p - hx->a % p, res = 0, tc;
    i128 e = -(i128)hx->sal * (i128)kk;
    int i;

    for (i = 0; i < nparts; i++) {
        sum += pt->pos[xs[i]];
        res ^= pt->rr[xs[i]];
        e += pt->ee[xs[i]];
    }
    tc = sum % p;
    return res == pt->rr[CLS(hx, tc)] && e >= pt->ee[CLS(hx, tc)];
}

/* (iv) the residue-or-size condition for the splits into two large
 * parts (x < y, x >= c: x a heap in [c, M) or a class; y a class) and
 * into three unequal parts (x < y < z, y >= c: x any type, y a heap in
 * [c, M) or a class, z a class). */
static int hex_hyp_residue(hex_check *hx)
{
    const hex_positions *hp = &hx->hp;
    uint64_t nx = add_sat(hx->M, hx->p), ix, k, xs[3];
    hex_parts pt;
    int ok = 1;

    pt.rr = malloc((size_t)nx * sizeof *pt.rr);
    pt.pos = malloc((size_t)nx * sizeof *pt.pos);
    pt.ee = malloc((size_t)nx * sizeof *pt.ee);
    if (!pt.rr || !pt.pos || !pt.ee) {
        ok = -1;
        goto out;
    }
    for (ix = 0; ix + 1 < nx; ix++) {
        uint64_t h = ix + 1 < hx->M ? ix + 1 : hx->a + (ix + 1 - hx->M);
        pt.rr[ix] = HV(hx, h) & (hx->sal - 1);
        pt.pos[ix] = h % hx->p;
        pt.ee[ix] = (i128)hx->p * (i128)HV(hx, h) - (i128)hx->sal * (i128)h;
    }
    pt.n = nx - 1;
    for (k = 0; k < hp->n4 && ok; k++)
        for (xs[0] = hx->c - 1; xs[0] < pt.n && ok; xs[0]++)
            for (ix = 0; ix < hx->p && ok; ix++) {
                xs[1] = CLS(hx, ix);
                if (hex_split_reaches(hx, &pt, xs, 2, hp->k4[k])) {
                    hx->why = "the residue-or-size condition fails: a split "
                              "into two large parts may reach the next "
                              "value of its class";
                    ok = 0;
                }
            }
    for (k = 0; k < hp->n8 && ok; k++)
        for (xs[0] = 0; xs[0] < pt.n && ok; xs[0]++)
            for (xs[1] = hx->c - 1; xs[1] < pt.n && ok; xs[1]++)
                for (ix = 0; ix < hx->p && ok; ix++) {
                    xs[2] = CLS(hx, ix);
                    if (hex_split_reaches(hx, &pt, xs, 3, hp->k8[k])) {
                        hx->why = "the residue-or-size condition fails: a "
                                  "split into three unequal parts may "
                                  "reach the next value of its class";
                        ok = 0;
                    }
                }
    if (!ok)
        hx->late = 1;
out:
    free(pt.rr);
    free(pt.pos);
    free(pt.ee);
    return ok;
}

#undef CLS

/* Every hypothesis of Theorem 7 in turn (see above).  Sets *need to
 * B + p - 1 (UINT64_MAX on overflow or before it is known) and *why on
 * failure, *late (may be NULL) when the failure lies past the agreement.
 * Returns 1 when every hypothesis holds, 0 when not, -1 when out of
 * memory. */
int sgi_hex_arith_check(const sg_seq *s, const sg_rule *r, uint64_t a,
                        uint64_t p, uint64_t sal, uint64_t *need,
                        const char **why, int *late)
{
    hex_check hx;
    int ok;

    memset(&hx, 0, sizeof hx);
    hx.s = s;
    hx.a = a;
    hx.p = p;
    hx.sal = sal;
    hx.t = sg_rule_max_take(r);
    hx.need = UINT64_MAX;
    ok = hex_constants(&hx);
    if (ok == 1)
        ok = hex_positions_init(&hx.hp, r, hx.t) ? -1 : 1;
    if (ok == 1)
        ok = hex_hyp_prefix(&hx);
    if (ok == 1)
        ok = hex_hyp_agreement(&hx);
    if (ok == 1)
        ok = hex_work_fits(&hx);
    if (ok == 1)
        ok = hex_hyp_options(&hx);
    if (ok == 1)
        ok = hex_hyp_residue(&hx);
    hex_positions_clear(&hx.hp);
    *need = hx.need;
    *why = hx.why;
    if (late)
        *late = hx.late;
    return ok;
}

#undef HV

/* The last n whose value the set-residues theorem needs for period p
 * (THEORY.md 7.8): M + p - 1, M the largest least member of a class mod
 * p, found no larger than cap.  1 with *need set, 0 when the set's
 * residues mod p are not known within cap (*why says so), -1 when out of
 * memory. */
int sgi_set_residue_needs(const sg_rule *r, uint64_t p, uint64_t cap,
                          uint64_t *need, const char **why)
{
    uint64_t m = 0;
    int ok;

    *need = UINT64_MAX;
    if (!r->set || r->set_allbut || p == 0) {
        *why = "the set-residues theorem applies to subtraction sets only";
        return 0;
    }
    if (p > SGI_SET_RESIDUE_PERIOD_MAX) {
        *why = "the period exceeds 65536, the largest whose residue classes "
               "are walked";
        return 0;
    }
    ok = sgi_set_residues(r->set, p, cap, &m, NULL);
    if (ok <= 0) {
        *why = "the least member of some class of the set modulo the "
               "period is not known within the bound";
        return ok;
    }
    *need = add_sat(m, p - 1);
    return 1;
}
