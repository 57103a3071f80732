/*
 * enum_sparse.c - the sparse-space enumerator, for take-and-break rules
 * whose moves leave at most two heaps (splitting games such as Kayles,
 * Officers or Grundy's game), without a repeating tail.
 *
 * Fix a mask m and call a value v "rare" when v AND m has an even number
 * of one bits, "common" otherwise.  Parity of (a XOR b) AND m is the sum of
 * the parities of a AND m and b AND m, so
 *
 *     common ^ common = rare,  rare ^ rare = rare,  rare ^ common = common.
 *
 * Hence a split option (a, b) whose value G(a) ^ G(b) is common has exactly
 * one part with a rare value.  Keeping the list R of heaps h >= 1 with rare
 * values, the value of heap n is found in three steps:
 *
 *  1. mark every one-heap option and every split option with a part in R:
 *     this marks every common option value (and some rare ones);
 *  2. c = the least common value not marked = the least common value that
 *     is not an option;
 *  3. the mex of all options is min(c, least rare value not an option).
 *     Each rare value below c not marked yet is looked for among all the
 *     pairs; as soon as all are found, G(n) = c.  If the pairs run out
 *     first, every option has been seen and G(n) is the least rare value
 *     below c still missing - a rare value, so n joins R.
 *
 * Step 1 may mark more options than it must: each mark is a real option,
 * so c and the result stay exact, and every value marked is one step 3
 * need not look for.  The small path marks a few chosen pairs of two
 * common parts that way (sgi_sparse_extra_build), the helper thread the
 * first pairs.
 *
 * Nothing here depends on which mask is used (mask 0 makes every value
 * rare and the method naive); the mask only decides how short R is and how
 * soon step 3 ends.  It is chosen to make R shortest: with H(v) the number
 * of heaps of value v so far, |R| - |common heaps| = sum_v H(v) (-1)^{|v&m|}
 * is the Walsh-Hadamard transform of H at m, so one transform rates every
 * mask.  The choice is renewed when the heaps computed double and when a
 * new highest value bit appears; a change rebuilds R in one pass.
 *
 * Part 2: the heap's parity (docs/THEORY.md, section 12).  Extend the
 * value of heap h to e(h) = G(h) << 1 | ((h + c) & 1), c = 0 or 1, and
 * let the mask have a parity bit q: h is rare when
 *
 *     lambda(h) = popcount(G(h) & m) + q * ((h + c) & 1)
 *
 * is even.  For a split (a, b) of n - k, (a + c) + (b + c) = a + b =
 * n - k (mod 2), so with mu(x) = popcount(x & m) mod 2
 *
 *     lambda(a) + lambda(b) = mu(G(a) ^ G(b)) + q * ((n - k) & 1):
 *
 * the offset c cancels, and the option value x = G(a) ^ G(b) comes from a
 * pair with exactly one rare part iff mu(x) + q * ((n - k) & 1) is odd.
 * So for heap n and split position k the "common" option values (those
 * step 1 is sure to mark) are {x : mu(x) = 1 + q (n - k) mod 2}.  That set
 * depends on k: with q = 1 and split positions of both parities, no value
 * is common for every k at once, step 2 guarantees nothing and the method
 * is naive.  Such rules therefore never use q = 1 (a forced parity mask is
 * dropped).  When every split position k has the parity kpar, the common
 * option values of heap n are one set C(n) for all its splits: the plain
 * common values when q (n - kpar) is even, the plain rare ones when it is
 * odd.  Steps 1-3 run unchanged with C(n) for "common" and its complement
 * for "rare" (sparse_flip swaps the two lists per heap); one-heap and
 * whole-heap options are all marked in step 1 in any case.  Two things
 * differ: whether n joins R is decided by lambda(n), from G(n) and n's own
 * parity, not by the list G(n) was found in (when kpar + c is odd a value
 * found by step 3 can belong to a common heap); and the classes of the
 * stored values of R never change, since they only depend on (G(h), h).
 * Again nothing depends on the mask (m, q, c), only the speed does.
 *
 * c matters for the choice only: with q = 1, c = 1 makes every heap's
 * class the opposite of c = 0's.  0.106 is the example: under m = 13 with
 * c = 1 only 15 heaps are rare (the last 1103), with c = 0 all but those.
 * With such a rule hist counts heaps by (G(h), h & 1) (by G(h) alone
 * otherwise, so that Kayles' small_run pays nothing), so that one
 * transform of 2 * P
 * entries rates every (m, q) for c = 0 as w[m << 1 | q] and, for q = 1,
 * c = 1 as -w; a parity mask is taken only when it is strictly better than
 * the best plain mask (sgi_sparse_mask_pick_ext), so games without a
 * parity space keep their plain mask and their speed.  With q = 1 the
 * small path's multi-heap loop (small_run1) swaps its sets of common and
 * rare values at every other heap, as sparse_flip swaps the lists.
 *
 * Part 3: where no space is sparse.  When a fifth or more of the heaps
 * stay rare under the best mask (0.1633, 0.2252 and some 900 other
 * four-digit codes), step 1's marks cost more than testing every pair
 * against the values still wanted, and a run that chooses its own mask
 * hands over to enum_scan.c (sgi_scan_worth judges on 2^15 values or
 * more, and again each time the heaps double).  The values cannot
 * differ: both methods compute the mex of every option.

 * The method's parts are in this folder (sparse_impl.h lists them); this
 * file holds its entry points and what a run does before its first
 * superblock and after its last.
 */
#include "sparse_impl.h"
#include "enum/methods/sparse_space.h"

/* What a run does before its first superblock: the test switches, room
 * for the values, the moves and tables, and the first mask and R (or
 * those of a deep run that left memory).  0, or -1 with lp->st set, or
 * -2 when out of memory. */
static int run_setup(sparse_loop *lp, const sg_rule *r, int64_t mask)
{
    sparse *sp = &lp->sp;
    sg_seq *s = lp->s;
    sg_deep *d = lp->d;
    sgi_test_switches sw = sgi_switches(lp->opt);

    lp->tr.mode = -1;
    lp->tr.best = 1;
    lp->pin = sw.pin_helper;
    lp->pin_balance = lp->pin ? sw.pin_balance : 0;
    sp->simd = sgi_sparse_cpu_simd(&sw);
    /* --threads: this one and nhelp helpers */
    {
        unsigned t = lp->opt && lp->opt->threads ? lp->opt->threads
                                                 : sg_threads_default();
        t = t > SG_THREADS_MAX ? SG_THREADS_MAX : t;
        sp->nhelp = sw.no_threads ? 0 : t - 1;
    }
    sp->no_threads = sp->nhelp == 0;
    sp->no_wide = sw.no_wide;
    sp->no_extra = sw.no_extra;
    sp->no_gbits = sw.no_gbits;
    sp->no_grem = sw.no_grem;
    sp->target = lp->n;
    sp->balance = 256;
    /* a deep run holds the prefix and twice the window: a slide every W
     * heaps */
    if (d)
        lp->st = sg_seq_reserve(s, sgi_deep_hold(d), lp->err);
    else if (lp->n > s->n)
        lp->st = sg_seq_reserve(s, lp->n, lp->err);
    if (lp->st != SG_OK)
        return -1;
    sp->par_ok = sgi_sparse_parity_ok(r, &sp->kpar);
    if (sgi_sparse_moves(sp, r) || sgi_sparse_fit(sp, s->max) ||
        sgi_sparse_helper_alloc(sp))
        return -2;
    if (d && d->frozen) {
        /* the mask, R and the counts came with the run */
        if (sgi_sparse_deep_enter(sp, d))
            return -2;
    } else {
        if (sgi_sparse_count(sp, s))
            return -2;
        if (mask == SGI_SPARSE_AUTO) {
            int c;
            int64_t best = sgi_sparse_best_mask(sp, &c);
            if (best < 0)
                return -2;
            sp->mask = (uint32_t)best >> 1;
            sp->pmask = (uint32_t)best & 1;
            sp->pshift = (uint32_t)c;
        } else {
            sp->forced = 1;
            sp->mask = (uint32_t)mask;
            /* no use without one parity of n - k per heap (see the top) */
            sp->pmask = (mask & SGI_SPARSE_PARITY) && sp->par_ok;
            sp->pshift = sp->pmask && (mask & SGI_SPARSE_PARITY_INV) ==
                                          SGI_SPARSE_PARITY_INV;
        }
        sgi_sparse_lists(sp);
        if (sgi_sparse_rebuild(sp, s))
            return -2;
    }
    lp->next_pick = s->n < 32 ? 32 : 2 * s->n;
    sp->base = s->n;
    return 0;
}

/* What a run does after its last superblock (or when it stops): the
 * helper ends, a deep run takes its state back, the stats. */
static sg_status run_finish(sparse_loop *lp, sg_status st,
                            sgi_sparse_stats *stats)
{
    sparse *sp = &lp->sp;

    sgi_sparse_helper_stop(sp, &lp->out);
    if (lp->d && sgi_sparse_deep_leave(sp, lp->d) && st == SG_OK)
        st = sg_error_set(lp->err, SG_E_NOMEM, -1,
                          "out of memory after %zu values", lp->s->n);
    if (stats) {
        stats->mask = sp->mask;
        stats->parity = (int)sp->pmask;
        stats->parity_shift = (int)sp->pshift;
        stats->rare = sp->nrare;
        stats->full_scans = sp->full_scans;
        stats->repicks = sp->repicks;
        stats->pairs_chosen = sp->nextra;
        stats->searches = sp->searches;
        stats->scatters = sp->scatters;
        stats->rem_groups = sp->rgroups;
        stats->tab_groups = sp->tgroups;
        stats->pre_sweeps = sp->psweeps;
    }
    sgi_sparse_free(sp);
    return st;
}

/* sgi_enumerate_sparse, or with d a deep run (s = &d->seq), without the
 * hand-over to enum_scan.c. */
static sg_status sparse_core(sg_seq *s, const sg_rule *r, size_t n,
                             int64_t mask, sgi_sparse_stats *stats,
                             const sg_enum_options *opt, sg_deep *d,
                             sg_error *err)
{
    sparse_loop lp;
    sg_status st;
    int rc;

    if (!sgi_sparse_applicable(r)) {
        if (stats)
            memset(stats, 0, sizeof *stats);
        return sg_enumerate_naive(s, r, n, opt, err);
    }
    if (mask != SGI_SPARSE_AUTO &&
        (mask < 0 || (mask & ~(SGI_SPARSE_PARITY_INV | (int64_t)UINT32_MAX)) ||
         (mask & SGI_SPARSE_PARITY_INV) ==
             (SGI_SPARSE_PARITY_INV ^ SGI_SPARSE_PARITY)))
        return sg_error_set(err, SG_E_INPUT, -1,
                            "sparse mask %lld: not a mask of 32 bits, "
                            "with or without the parity",
                            (long long)mask);
    memset(&lp, 0, sizeof lp);
    lp.s = s;
    lp.d = d;
    lp.opt = opt;
    lp.err = err;
    lp.n = n;
    lp.st = SG_OK;
    rc = run_setup(&lp, r, mask);
    if (rc == -1) {
        sgi_sparse_free(&lp.sp);
        return lp.st;
    }
    if (rc == 0)
        st = sgi_sparse_superblocks(&lp);
    else
        st = sg_error_set(err, SG_E_NOMEM, -1, "out of memory after %zu values",
                          s->n);
    return run_finish(&lp, st, stats);
}

/* sparse_core, or where no sparse space fits (sgi_scan_worth) the scans
 * of enum_scan.c, judged again each time the heaps double: only a run
 * that chooses its mask and keeps every value hands over; its statistics
 * are those of its last sparse part, with the heaps scanned. */
static sg_status sparse_run(sg_seq *s, const sg_rule *r, size_t n, int64_t mask,
                            sgi_sparse_stats *stats, const sg_enum_options *opt,
                            sg_deep *d, sg_error *err)
{
    sgi_test_switches sw = sgi_switches(opt);
    unsigned threads =
        opt && opt->threads ? opt->threads : sg_threads_default();
    sg_status st = SG_OK;
    size_t scanned = 0;

    /* The scans run on one thread: 0.1633 to 2^19 took 13.4 s of wall time
     * on one against the sparse method's 22.1 s on two, but more helpers
     * than one were never measured against it. */
    if (mask != SGI_SPARSE_AUTO || d || sw.no_scan || n <= SGI_SCAN_PREFIX ||
        (threads > 2 && !sw.no_threads) || !sgi_sparse_applicable(r)) {
        st = sparse_core(s, r, n, mask, stats, opt, d, err);
        if (stats)
            stats->scanned = 0;
        return st;
    }
    if (stats)
        memset(stats, 0, sizeof *stats);
    if (s->n < SGI_SCAN_PREFIX &&
        (st = sparse_core(s, r, SGI_SCAN_PREFIX, mask, stats, opt, NULL, err)))
        return st;
    while (s->n < n && sgi_scan_worth(s, r)) {
        size_t upto = s->n < n / 2 ? 2 * s->n : n, before = s->n;
        st = sgi_enumerate_scan(s, r, upto, 0, sw.no_simd, opt, err);
        scanned += s->n - before;
        if (st || s->n < upto)
            break; /* stopped, or a value too large for the scans */
    }
    if (st == SG_OK && s->n < n)
        st = sparse_core(s, r, n, mask, stats, opt, d, err);
    if (stats)
        stats->scanned = scanned;
    return st;
}

sg_status sgi_enumerate_sparse(sg_seq *s, const sg_rule *r, size_t n,
                               int64_t mask, sgi_sparse_stats *stats,
                               const sg_enum_options *opt, sg_error *err)
{
    return sparse_run(s, r, n, mask, stats, opt, NULL, err);
}

sg_status sgi_deep_run_sparse(sg_deep *d, const sg_rule *r, size_t n,
                              const sg_enum_options *opt, sg_error *err)
{
    return sparse_run(&d->seq, r, n, SGI_SPARSE_AUTO, NULL, opt, d, err);
}
