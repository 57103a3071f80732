/*
 * prove.c - periodicity proofs.  A period is reported only when a theorem
 * stated and proved in docs/THEORY.md certifies it from the computed
 * values; everything else is "unresolved".  The theorems implemented:
 *
 *  - the subtraction-window theorem (finite codes without split moves):
 *    agreement G(n+p) = G(n) for n0' <= n < n0' + t suffices;
 *  - the Guy-Smith octal periodicity theorem (finite codes whose moves
 *    leave at most two heaps): n0' <= n < 2 n0' + p + t;
 *  - its three-heap generalisation: n0' <= n < 3 n0' + 2p + t;
 *
 * with t the largest number of tokens a move removes and n0' = max(n0, 1).
 */
#include "sgexplore.h"

#include <string.h>

static const char THM_WINDOW[] =
    "subtraction-window theorem (finite code without splits: each value "
    "depends only on the previous t values)";
static const char THM_GUY_SMITH[] =
    "Guy-Smith octal periodicity theorem (finite code, moves leave at most "
    "two heaps)";
static const char THM_THREE_HEAP[] =
    "three-heap Guy-Smith theorem (finite code, moves leave up to three "
    "heaps)";

typedef enum { KIND_WINDOW, KIND_TWO, KIND_THREE } proof_kind;

uint64_t sg_checksum(const sg_seq *s, size_t n)
{
    uint64_t h = 14695981039346656037ULL;
    size_t i;

    for (i = 0; i < n; i++) {
        char buf[16];
        int len = 0, j;
        sg_value x = sg_seq_get(s, i);
        if (i) {
            h ^= (unsigned char)',';
            h *= 1099511628211ULL;
        }
        do {
            buf[len++] = (char)('0' + x % 10);
            x /= 10;
        } while (x);
        for (j = len - 1; j >= 0; j--) {
            h ^= (unsigned char)buf[j];
            h *= 1099511628211ULL;
        }
    }
    return h;
}

int sg_prove_applicable(const sg_rule *r, const char **why)
{
    const char *w = NULL;

    if (r->tail_len)
        w = "rules with a repeating [..] tail need an arithmetic-periodicity "
            "theorem, which is not implemented yet";
    else if (sg_rule_has_unequal(r))
        w = "the Guy-Smith theorem does not cover '!' (unequal heaps) rules: "
            "shrinking a part by p can make two parts equal";
    if (why)
        *why = w;
    return w == NULL;
}

static proof_kind rule_kind(const sg_rule *r)
{
    unsigned bits = sg_rule_bits(r);

    if (bits & SG_BIT_THREE)
        return KIND_THREE;
    if (bits & SG_BIT_TWO)
        return KIND_TWO;
    return KIND_WINDOW;
}

/* One past the last n at which the theorem needs G(n+p) = G(n). */
static uint64_t agreement_end(proof_kind kind, uint64_t n0, uint64_t p,
                              uint64_t t)
{
    uint64_t a = n0 ? n0 : 1;

    switch (kind) {
    case KIND_WINDOW:
        return a + t;
    case KIND_TWO:
        return 2 * a + p + t;
    case KIND_THREE:
    default:
        return 3 * a + 2 * p + t;
    }
}

#define G(i) sg_seq_get(g, (size_t)(i))

void sg_prove(sg_result *res, const sg_rule *r, const sg_seq *s)
{
    const sg_seq *g = s;
    uint64_t N = s->n, t, p;
    proof_kind kind;

    memset(res, 0, sizeof *res);
    res->status = SG_UNRESOLVED;
    res->computed = N;
    if (!sg_prove_applicable(r, &res->note))
        return;
    t = sg_rule_max_take(r);
    kind = rule_kind(r);

    /* Candidate periods in increasing order; for each, n0(p) is one past
     * the last disagreement, found by scanning backwards (a wrong p
     * usually fails within a few steps). */
    for (p = 1; agreement_end(kind, 1, p, t) + p <= N; p++) {
        uint64_t i = N - p, n0, a, end, q, m;

        while (i > 0 && G(i - 1) == G(i - 1 + p))
            i--;
        n0 = i;
        a = n0 ? n0 : 1;
        end = agreement_end(kind, n0, p, t);
        if (end + p > N)
            continue;

        /* Proven: G(n+p) = G(n) for all n >= a.  The least period divides
         * p; test divisors on one full period, reading values beyond the
         * computed range through the proven periodicity. */
        for (q = 1; q < p; q++) {
            uint64_t j;
            if (p % q)
                continue;
            for (j = a; j < a + p; j++) {
                uint64_t k = j + q;
                if (k >= a + p)
                    k -= p;
                if (G(j) != G(k))
                    break;
            }
            if (j == a + p)
                break;
        }
        /* The least pre-period for q, by direct comparison below a. */
        m = a;
        while (m > 0 && G(m - 1) == G(m - 1 + q))
            m--;
        res->status = SG_PERIODIC;
        res->period = q;
        res->preperiod = m;
        res->saltus = 0;
        res->certified_to = end + p - 1;
        res->checksum = sg_checksum(s, (size_t)res->certified_to + 1);
        res->theorem = kind == KIND_WINDOW  ? THM_WINDOW
                       : kind == KIND_TWO ? THM_GUY_SMITH
                                          : THM_THREE_HEAP;
        return;
    }
    res->note = "no period proven in the computed range";
}

#undef G

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
        if (st) {
            sg_prove(res, r, s);
            return st;
        }
        sg_prove(res, r, s);
        if (res->status != SG_UNRESOLVED || s->n >= max)
            return SG_OK;
        n = s->n * 2;
    }
}
