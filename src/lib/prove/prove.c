/*
 * prove.c - the proof search: a period is reported only when a theorem
 * of theorems.c certifies it from the computed values (sg_prove, and
 * sgi_prove_round for each round of sg_analyse); everything else is
 * "unresolved".
 *
 * The search finds a proof; sg_certificate_check, which `verify` also uses,
 * re-checks every hypothesis from the values alone, with every sum and
 * product on certificate fields checked for overflow.
 *
 * An unresolved result carries the best candidate observed in the values
 * (res->observed, labelled "observed, not proven"): of the periods p
 * whose block G(n0..n0+p-1) occurs and then repeats at least twice more up
 * to the last computed value (N - n0 >= 3p), n0 = n0(p) being the least
 * start it holds from (one past the last disagreement), and that hold
 * over the last min(N/4, OBSERVE_SPAN) values, the one with the least
 * n0 + p (then the least p), which settles as N grows (issue 50).  A
 * saltus is allowed in every family (issue 23), read off the end of the
 * data as in the proof search; a candidate with a saltus must hold over
 * the last N/4 values.  `needs` is the certified_to that the
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
#include "prove/prove_impl.h"
#include "base/period_search.h"
#include "rules/setexpr.h"

#include <stdlib.h>
#include <string.h>

/* How many starts after n0(p) the tail theorem tries for the prefix
 * condition (the proof search and the observation must agree). */
static uint64_t tail_tries(uint64_t p)
{
    return add_sat(64, mul_sat(2, p));
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

/* Given (p, sal) proven from a: the least period q dividing p (with its
 * saltus), then the least pre-period for it. */
static void minimise(sg_result *res, const sg_seq *s, uint64_t a, uint64_t p,
                     uint64_t sal)
{
    uint64_t sq, q = sgi_least_period(s, a, p, sal, &sq), m = a;

    while (m > 0 && G(m - 1 + q) == G(m - 1) + sq)
        m--;
    res->period = q;
    res->saltus = sq;
    res->preperiod = m;
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
            if (sgi_theorem_needs(kind, a, p, t) >= N)
                return 0;
            ok = sgi_split_tail_check(s, r, a, p, sal, &need, &why);
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
        if (sgi_theorem_needs(kind, a, p, t) >= N)
            return 0;
        if (kind == SGI_PROOF_TAIL_PERIODIC && sal) {
            const char *why;
            int ok = sgi_class_condition(s, r, a, p, sal, &why);
            if (ok <= 0)
                return ok;
        }
    } else {
        /* The prefix condition may need a later start than n0(p). */
        int ok = 0;
        for (tries = 0; tries < tail_tries(p); tries++, a++) {
            if (sgi_theorem_needs(kind, a, p, t) >= N)
                return 0;
            if ((ok = sgi_prefix_condition(s, a, p, sal)) != 0)
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
    res->certified_to = sgi_theorem_needs(kind, a, p, t);
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
    uint64_t N = s->n, t = sgi_kind_length(kind, r), p, from = 1, len = t;
    int found = 0;

    if (N < 2)
        return 0;
    if (kind != SGI_PROOF_WINDOW && kind != SGI_PROOF_TAIL3 &&
        kind != SGI_PROOF_TAIL3_SPLIT && kind != SGI_PROOF_TAIL_PERIODIC) {
        from = SCAN_FROM;
        len = SCAN_FROM + t + 1;
        for (p = 1; p < from && p < N && sgi_theorem_needs(kind, 1, p, t) < N;
             p++)
            if ((found = try_period(res, kind, r, s, p, t, memo)) != 0)
                return found;
        if (p < from)
            return 0;
    }
    if (kind != SGI_PROOF_TAIL3 && kind != SGI_PROOF_TAIL3_SPLIT &&
        kind != SGI_PROOF_TAIL_PERIODIC && len >= 1 && len < N) {
        sgi_period_scan ps;
        if (sgi_period_scan_init(&ps, s, len, from, NULL) == SG_OK) {
            while ((p = sgi_period_scan_next(&ps)) != 0 &&
                   sgi_theorem_needs(kind, 1, p, t) < N)
                if ((found = try_period(res, kind, r, s, p, t, memo)) != 0)
                    break;
            sgi_period_scan_clear(&ps);
            return found;
        }
        /* Out of memory for the scan: fall back to trying every p. */
    }
    for (p = from; p < N && sgi_theorem_needs(kind, 1, p, t) < N; p++)
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
        ok = sgi_hex_arith_check(s, r, st, p, sal, need, &why, &late);
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

/* Search a proof by the set-residues theorem (THEORY.md 7.8): the least
 * p at which G(n + p) = G(n) holds from 0 to the end of the data, then
 * the set's residues mod p.  Only that p is tried: a multiple kp has M(kp)
 * >= M(p) (each class mod p is a union of classes mod kp), so no
 * multiple needs fewer values. */
static int search_residues(sg_result *res, const sg_rule *r, const sg_seq *s,
                           run_memo *memo)
{
    uint64_t N = s->n, p, need;
    const char *why;
    int ok;

    for (p = 1; p < N; p++) {
        if (start_of(s, p, 0, memo) != 0)
            continue;
        ok = sgi_set_residue_needs(r, p, N - p, &need, &why);
        if (ok <= 0 || need >= N)
            return ok < 0 ? -1 : 0;
        res->proof_start = 0;
        res->proof_period = p;
        res->proof_saltus = 0;
        res->certified_to = need;
        minimise(res, s, 0, p, 0);
        return 1;
    }
    return 0;
}

/* A plain candidate must hold over at least the last min(N/4, this)
 * values (see observed_at). */
#define OBSERVE_SPAN 64

/* Whether candidate p is seen to repeat: its block from n0(p) occurs and
 * repeats at least twice more, N - n0 >= 3p, over at least the last
 * min(N/4, OBSERVE_SPAN) values, and with a saltus over at least the last
 * N/4.  Fills *n0, *sal. */
static int observed_at(const sg_seq *s, int with_saltus, uint64_t p,
                       uint64_t *n0, uint64_t *sal, run_memo *memo)
{
    uint64_t N = s->n, i, span;

    if (saltus_of(sal, s, with_saltus, p))
        return 0;
    /* A wrong p stops at its first disagreement from the end: fewer than
     * 2p + 1 comparisons when it does not qualify; multiples of a long
     * stretch come from the memo. */
    i = start_of(s, p, *sal, memo);
    *n0 = i;
    /* The span keeps a short tail from counting: three equal values at
     * the end are no period 1 (0.G at --max 300, from 297).  With a
     * saltus, the last quarter: short arithmetic runs (x, x+1, x+1, x+2,
     * ...) occur inside the blocks of longer arithmetic periods (0.8F:
     * p = 2 over the last 8 of 400 values, inside its period 7).  A plain
     * period may start late (0.127: p 4 from 46578 of 60000). */
    span = *sal || N / 4 < OBSERVE_SPAN ? N / 4 : OBSERVE_SPAN;
    return N - i >= 3 * p && N - i >= span;
}

/* The best candidate so far, ranked by n0 + p (the values that describe
 * the whole computed sequence), then by p. */
typedef struct observe_best {
    int have;
    uint64_t n0, p, sal;
} observe_best;

/* Whether p can still beat *b: its n0 + p is at least p. */
static int observe_open(const observe_best *b, uint64_t p)
{
    return !b->have || p < b->n0 + b->p;
}

/* Try candidate p against *b (diff: with a saltus read off the end). */
static void observe_try(observe_best *b, const sg_seq *s, int diff, uint64_t p,
                        run_memo *memo)
{
    uint64_t n0, sal;

    if (!observed_at(s, diff, p, &n0, &sal, memo))
        return;
    if (b->have &&
        (n0 + p > b->n0 + b->p || (n0 + p == b->n0 + b->p && p >= b->p)))
        return;
    b->have = 1;
    b->n0 = n0;
    b->p = p;
    b->sal = sal;
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
    if (kind == SGI_PROOF_SET_RESIDUES) {
        /* pre-period 0 only; the residues within the same cap as the
         * work limit allows */
        uint64_t need;
        const char *why;
        if (n0 != 0 || sal != 0)
            return UINT64_MAX;
        ok = sgi_set_residue_needs(r, p, SGI_SET_MAX, &need, &why);
        if (ok < 0)
            *nomem = 1;
        return ok == 1 ? need : UINT64_MAX;
    }
    if (kind == SGI_PROOF_TAIL3_SPLIT) {
        /* As try_period, the values beyond N read through the candidate. */
        uint64_t need = UINT64_MAX;
        const char *why;
        if (a == 0)
            a = 1;
        for (tries = 0; tries < tail_tries(p) && a + p <= s->n; tries++, a++) {
            ok = sgi_split_tail_check(s, r, a, p, sal, &need, &why);
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
            ok = sgi_class_condition(s, r, a, pq, sq, &why);
            if (ok < 0)
                *nomem = 1;
            if (ok != 1)
                return UINT64_MAX;
        }
        return pq == UINT64_MAX ? UINT64_MAX
                                : sgi_theorem_needs(kind, a, pq, r->tail_start);
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
    t = sgi_kind_length(kind, r);
    if (kind != SGI_PROOF_TAIL3)
        return sgi_theorem_needs(kind, a ? a : 1, p, t);
    for (tries = 0; tries < tail_tries(p) && a + p <= s->n; tries++, a++)
        if ((ok = sgi_prefix_condition(s, a, p, sal)) != 0) {
            if (ok < 0)
                *nomem = 1;
            return ok < 0 ? UINT64_MAX : sgi_theorem_needs(kind, a, p, t);
        }
    return UINT64_MAX;
}

/* Every p >= SCAN_FROM that can still beat *b, among the shifts where
 * the last SCAN_FROM values (plain) or differences (diff) recur.  Falls
 * back to trying every p when the scan's table cannot be allocated. */
static void observe_scan(observe_best *b, const sg_seq *s, int diff,
                         run_memo *memo)
{
    uint64_t N = s->n, p;
    sgi_period_scan ps;
    sg_status st =
        diff ? sgi_period_scan_init_diff(&ps, s, SCAN_FROM, SCAN_FROM, NULL)
             : sgi_period_scan_init(&ps, s, SCAN_FROM, SCAN_FROM, NULL);

    if (st == SG_OK) {
        while ((p = sgi_period_scan_next(&ps)) != 0 && p <= N / 3 &&
               observe_open(b, p))
            observe_try(b, s, diff, p, memo);
        sgi_period_scan_clear(&ps);
        return;
    }
    for (p = SCAN_FROM; p <= N / 3 && observe_open(b, p); p++)
        observe_try(b, s, diff, p, memo);
}

/* Fill res->observed for an unresolved result (see the comment at the top):
 * among the p seen to repeat, the one with the least n0 + p (then the
 * least p), with the saltus read off the end of the data in every family
 * (issue 23: a hexadecimal code such as 0.8F is arithmetic-periodic;
 * finite octal codes never are [HoN], and their saltus read off the end
 * is then 0 for every candidate that repeats).  A candidate that goes on
 * keeps its n0 + p as N grows, and one that fails gets an n0 past its
 * failure, so the choice settles instead of following the last values
 * (issue 50: 0.G's period 4, saltus 1 from 1 lost to "period 1 from 297"
 * at --max 300).  p below SCAN_FROM are tried one by one; from it on, the
 * plain period scan lists the shifts where the last SCAN_FROM values
 * recur and the scan of differences those where they recur up to a
 * saltus, which every candidate with N - n0 >= 3p > SCAN_FROM is; both
 * stop at the first p that cannot beat the best so far. */
static void observe(sg_result *res, proof_kind kind, const sg_rule *r,
                    const sg_seq *s, run_memo *memo, int *nomem)
{
    sg_observed *o = &res->observed;
    observe_best b;
    uint64_t N = s->n, p;

    memset(o, 0, sizeof *o);
    memset(&b, 0, sizeof b);
    if (N < 3)
        return;
    for (p = 1; p <= N / 3 && p < SCAN_FROM && observe_open(&b, p); p++)
        observe_try(&b, s, 1, p, memo);
    if (p == SCAN_FROM && p <= N / 3 && observe_open(&b, p)) {
        /* plain first (fast, and it narrows the slower scan) */
        observe_scan(&b, s, 0, memo);
        observe_scan(&b, s, 1, memo);
    }
    if (!b.have)
        return;
    o->have = 1;
    o->preperiod = b.n0;
    o->period = b.p;
    o->saltus = b.sal;
    o->held_to = N - 1;
    o->needs = observed_needs(kind, r, s, b.n0, b.p, b.sal, nomem);
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
    found = kind == SGI_PROOF_SET_RESIDUES ? search_residues(res, r, s, memo)
                                           : search(res, kind, r, s, memo);
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
    th = sgi_theorem_of(kind);
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

sg_status sgi_prove_observe(sg_result *res, const sg_seq *s)
{
    int nomem = 0;

    memset(res, 0, sizeof *res);
    res->status = SG_UNRESOLVED;
    res->computed = s->n;
    res->note = "no theorem applies to a game given by a function";
    observe(res, SGI_PROOF_NONE, NULL, s, NULL, &nomem);
    if (nomem) {
        memset(&res->observed, 0, sizeof res->observed);
        return SG_E_NOMEM;
    }
    return SG_OK;
}

const char *sg_prove_theorem_for(const sg_rule *r, const char **why)
{
    const char *w = NULL;
    proof_kind kind = rule_kind(r, &w);
    const struct theorem *th =
        kind == SGI_PROOF_NONE ? NULL : sgi_theorem_of(kind);

    if (why)
        *why = th ? NULL : w;
    return th ? th->name : NULL;
}

sg_status sg_prove(sg_result *res, const sg_rule *r, const sg_seq *s)
{
    run_memo memo;

    sgi_prove_memo_init(&memo, r);
    return prove_memo(res, r, s, &memo, 1);
}

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
    sgi_period_scan ps;
    int have_scan;

    if (kind == SGI_PROOF_NONE || kind == SGI_PROOF_TAIL3 ||
        kind == SGI_PROOF_TAIL3_SPLIT || kind == SGI_PROOF_TAIL_PERIODIC ||
        kind == SGI_PROOF_WINDOW || kind == SGI_PROOF_SET_RESIDUES || N < 16)
        return (size_t)best;
    t = sgi_kind_length(kind, r);
    /* From SCAN_FROM on, a stretch of p/2 >= SCAN_FROM/2 agreeing values
     * means the last SCAN_FROM/2 values recur at shift p: a period scan
     * lists those p, in increasing order like the loop before it. */
    have_scan = N > SCAN_FROM && sgi_period_scan_init(&ps, s, SCAN_FROM / 2,
                                                      SCAN_FROM, NULL) == SG_OK;
    for (p = 1; p < N;) {
        uint64_t i = start_of(s, p, 0, memo), a, need;
        if (2 * (N - p - i) >= p) {
            a = i ? i : 1;
            need = sgi_agreement_end(kind, a, p, t) + p;
            if (need > N && need < best)
                best = need;
        }
        if (sgi_agreement_end(kind, 1, p + 1, t) + p + 1 >= best)
            break; /* no later p can need fewer values */
        if (p + 1 < SCAN_FROM || !have_scan)
            p++;
        else if ((p = sgi_period_scan_next(&ps)) == 0)
            break;
    }
    if (have_scan)
        sgi_period_scan_clear(&ps);
    if (best > 2 * N - N / 8)
        return (size_t)(2 * N);
    /* Grow by at least an eighth, so that candidates that keep breaking
     * just past the computed range cannot cause many tiny rounds. */
    return (size_t)(best < N + N / 8 ? N + N / 8 : best);
}
