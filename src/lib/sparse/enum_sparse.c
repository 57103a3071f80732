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
 * common parts that way (extra_build), the helper thread the first pairs.
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
 * the best plain mask (sg_sparse_mask_pick_ext), so games without a
 * parity space keep their plain mask and their speed.  With q = 1 the
 * small path's multi-heap loop (small_run1) is not used: it keeps one
 * classification for all its heaps.
 */
#define _DEFAULT_SOURCE
#include "sgexplore.h"
#include "enum_impl.h"
#include "sparse_space.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/*
 * Heaps are computed in aligned groups of LANES: before a group starting
 * at b, the pairs (r, m - k - r) of all its heaps m with a rare r from
 * b + LANES - done (done = heaps computed by then, so r >= LANES when done
 * = b) up to b - k - 1 are marked at once, since their partners are all
 * known; each such rare costs two loads for LANES marks.  The rest (small
 * r, recent r, and for `!` digits the r that may be half of some m - k)
 * is marked heap by heap.
 */
#define LANES 8

/*
 * With many rare values (Grundy's game, Officers) a second thread, the
 * helper, marks the next superblock of SUPER heaps while this one computes
 * the current one: for a group of heaps b..b + HLANES - 1 it can use every
 * rare r >= b + HLANES - done, done being the heaps computed when the job
 * was posted.  It marks in groups of HLANES heaps on stamps of its own and
 * hands over each heap's marks as a bit set of values (size bits), in one
 * half of a double buffer: 32 times less than the stamps, so that both
 * threads keep their data in their own caches.  This thread takes each
 * group as soon as it is marked.
 */
#define SUPER 64
#define HGROUPS (SUPER / HLANES)        /* the helper's groups per job */
#define THREAD_MIN_RARE 64      /* fewer rare values: not worth a thread */
#define THREAD_MAX_SIZE 4096    /* larger: the helper's stamps leave L2 */
/* far_lo etc. slots: 0 for this thread's group, 1 + (m / SUPER % 2) *
 * HGROUPS + m % SUPER / HLANES for the helper's (see helper_slot) */
#define FAR_SLOTS (1 + 2 * HGROUPS)
/* The helper's spin before it sleeps, and this thread's wait for it. */
#define SPIN_LIMIT 20000

/*
 * Whether the helper pays depends on whether a second core is really free,
 * so it is timed: out of every TRIAL_CYCLE superblocks, TRIAL run with the
 * helper and TRIAL without, and the faster way is kept for the rest.
 */
#define TRIAL 16
#define TRIAL_CYCLE 1024

#if (defined(__unix__) || defined(__APPLE__)) && !defined(__STDC_NO_ATOMICS__)
#define SPARSE_THREADS 1
#include <pthread.h>
#include <stdatomic.h>
#include <unistd.h>
#endif
#include <time.h>

/* Step 3 looks at up to this many pairs of one split digit before moving
 * to the next digit (starting with 32 and doubling). */
#define SPARSE_BLOCK 4096

/*
 * While every value is below 64 (size <= SMALL_SIZE, so that every value
 * and every xor of two values is below size / 2 <= 64), a heap's options
 * are kept as a 64-bit set in a register instead of stamps: step 1 is one
 * or per option, step 2 one count of trailing zeros, and step 3 looks for
 * a set of wanted values (usually one or two) with a compare per value
 * and 32 pairs.  Same three steps, only the bookkeeping differs.
 */
#define SMALL_SIZE 128

/* While every value is below 128 (0.56, 0.354), small_run keeps each set
 * in two words: twice the bookkeeping and still three times faster than
 * the stamps, which those heaps small_run does not take go to. */
#define WIDE_SIZE 256

/* With AVX2, small_run takes step 1's terms G(m - off) ^ val with off >=
 * BLOCK_HEAPS for BLOCK_HEAPS heaps at once (avx2_block_shuf); must stay
 * a divisor of SUPER, so that a block never crosses a superblock. */
#define BLOCK_HEAPS 32
/* ... and its terms with MID_HEAPS <= off < BLOCK_HEAPS for MID_HEAPS
 * heaps at once (avx2_mid_terms), a divisor of BLOCK_HEAPS */
#define MID_HEAPS 8

/* small_run's extra terms (extra_build): at most XTERMS, with small
 * parts 32 <= a < 32 + XCAND (in a deep run's window: DEEP_MARGIN), each
 * chosen from the last XSAMPLE heaps only if it finds a value wanted
 * after step 1 at XGAIN_MIN of them: at one of them, as a pair costs
 * less than the 32 heaps' step 3 it saves (0.167 deep x0.89 and 0.1777
 * x0.94 against 0.008 and at most 64, others level; more samples or
 * candidates measured no better). */
#define XTERMS 128
#define XSAMPLE 512
#define XCAND 512
#define XGAIN_MIN 0.001
#define XFIRST 32768 /* (the first choice: the values settle a while) */
#define XWORTH 65536 /* (and only with this many heaps still to go) */
#define XSPLITS 4 /* (more split digits: no extra terms) */

/* Values stay below this (the tables are indexed by value). */
#define SPARSE_VALUE_LIMIT ((size_t)1 << 30)

/* Stamps are 32 bits (narrower ones measured slower, wider ones crowd the
 * cache).  A tag belongs to a group of LANES heaps (each heap has its own
 * lane of stamps), counted from sp->base, which moves on (clearing them
 * all) every TAG_LIMIT heaps. */
typedef uint32_t stamp_t;
#define TAG(sp, m) ((stamp_t)((m) / LANES - (sp)->base / LANES + 1))
#ifndef TAG_LIMIT
#define TAG_LIMIT ((size_t)1 << 30)   /* -DTAG_LIMIT=40 tests the renumbering */
#endif
#define AT(x) ((size_t)(x) * LANES)

/* The helper's stamps: HLANES per value (see GEN_BLOCK); 16-bit ones
 * measured a third slower to store. */
#define HLANES 16
typedef uint32_t hstamp_t;

/* A job for the helper thread: mark the superblock starting at b. */
typedef struct sparse_job {
    size_t b, done, nsnap, dense, keep;
    unsigned width;
    const void *data;
} sparse_job;

/*
 * The two threads' shares of the work follow a balance: when this thread
 * waited for the helper's marks, it goes down, else up by a quarter as
 * much (so that this thread, whose waits cost time, waits seldom; an
 * eighth and a half measured slower).  A
 * positive balance is the number of extra pairs (a, m - k - a) per heap
 * that the helper marks, with a from b + HLANES - done on: real options,
 * which step 3 then need not look for, and pairs it need not read again
 * (it skips [dense_lo, dense_hi): every value they give is marked, so
 * none of them is wanted).  A negative one is the number of
 * far rare heaps the helper leaves to this thread (which marks every rare
 * the helper did not).
 */
#define BALANCE_STEP 32
#define BALANCE_MAX 2048

typedef struct sparse {
    /* the moves, by kind; positions ascending */
    size_t nsplit, none, nall;
    size_t *split;         /* k with bit 4: leave a, b >= 1, a + b = n - k */
    uint8_t *split_uneq;   /* `!` on that digit: a != b */
    size_t *rem, *top;     /* per split digit, scratch: n - k, largest a */
    /* per far slot (see FAR_SLOTS) and split digit, index slot * nsplit
     * + j: the rares [far_lo, far_hi) were marked for the whole group at
     * once, except [skip_lo, skip_hi) (`!` digits: pairs that may be
     * equal halves); and the pairs (a, n - k - a), dense_lo <= a <
     * dense_hi, too (the helper's `dense` pairs: step 3 of its heaps
     * skips them; this thread's blocks have none) */
    size_t *far_lo, *far_hi, *skip_lo, *skip_hi, *dense_lo, *dense_hi;
    size_t *one;           /* k >= 1 with bit 2: leave n - k >= 1 */
    size_t *all;           /* k >= 1 with bit 1: n == k leaves nothing */

    int forced;            /* the mask was given by the caller */
    uint32_t mask;

    /* R: heaps >= 1 with rare values, ascending, and their values */
    size_t nrare, ralloc;
    size_t *rpos;
    sg_value *rval;

    /* tables indexed by value, `size` entries: size = 2P, P a power of
     * two above every value so far (so every xor of two values and every
     * mex is below size) */
    size_t size;
    /* LANES stamps per value, interleaved: value x of heap m is at
     * stamp[AT(x) + m % LANES], where TAG(m) means "an option of m" */
    stamp_t *stamp;
    size_t base;           /* heap whose tag is 2; moved on before wrapping */
    uint64_t *hist;        /* heaps >= 1 per value, at HIST(sp, v, h):
                              2 * size entries */
    /* common and rare option values below size, ascending: with a
     * parity mask, of the current heap (see sparse_flip) */
    sg_value *common;
    sg_value *rarev;
    size_t ncommon, nrarev;
    /* with size <= SMALL_SIZE: the common and the rare values below
     * size / 2 as bit sets (see NAME_small) */
    uint64_t cbits, rbits;
    /* the small path's step 1 as one list of terms G(m - off) ^ val, for
     * heaps m >= kmax + 2 + 2 * (last rare heap), where every rare pairs
     * with every split digit and no pair can be two equal halves; built
     * for R as it was when it had tnrare members in its rgen-th rebuild */
    size_t *toff;
    sg_value *tval;
    size_t nterm, talloc, tnrare, kmax;
    /* the same terms and the one-heap moves for small_run's blocks of
     * BLOCK_HEAPS heaps (see avx2_block_shuf): the nnear with off <
     * BLOCK_HEAPS first, then the nfar others */
    size_t *boff;
    sg_value *bval;
    uint32_t *bvx;         /* bval's far ones with the byte four times
                              (avx2_block_shuf: a broadcast is a load) */
    size_t nnear, nfar;
    /* the near ones split again: nclose with off < MID_HEAPS first (heap
     * by heap), then nnear - nclose taken MID_HEAPS heaps at once */
    size_t nclose;
    size_t nfar_hi;        /* the first nfar_hi far ones: values >= 64 */
    /* then nextra pairs (a, m - k - a) of common parts chosen for the
     * rare values step 3 finds slowest (see extra_build), to be chosen
     * again from heap xnext on */
    size_t nextra, xnext;
    size_t target;         /* the heap this run stops at */
    size_t kone;           /* the largest k of a one-heap or whole-heap move */
    unsigned rgen, tgen;
    int tok;

    /* step 3's wanted values as a set of low bytes (see want_add) */
    uint8_t want_tab[32];
    uint32_t want_low[256];
    int simd;              /* the CPU has AVX2 (1), and AVX-512 with VBMI
                              for small_run's blocks (2) */
    int filter;            /* want_tab holds step 3's wanted values */

    size_t full_scans, repicks, searches;

    /* bit sets of value, size bits each (bw words): the common and the
     * rare values, and step 3's wanted values */
    size_t bw;
    uint64_t *cmask, *rmask, *wbits;

    /* the helper's stamps, tag and output: the marks of heap m of a job
     * as a bit set at obits + (m % (2 * SUPER)) * bw; hsize = the size
     * they were allocated for */
    hstamp_t *hstamp;
    uint64_t *obits;
    hstamp_t htag;
    size_t hsize;
    long balance;          /* see BALANCE_STEP */

#ifdef SPARSE_THREADS
    /* the helper thread and its queue of at most two jobs: job_seq counts
     * jobs posted (job i in jobs[i % 2]), done_seq jobs finished,
     * groups_done groups of HLANES heaps finished (HGROUPS per job), so
     * that this thread can start on a superblock while the
     * helper still marks its last groups; each side spins a while, then
     * sleeps on cv saying so in h_sleep / m_sleep */
    pthread_t thread;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    int started;
    _Atomic int quit, h_sleep, m_sleep;
    _Atomic unsigned long job_seq, done_seq, groups_done;
    sparse_job jobs[2];
#endif
    /* no helper thread in this run (last, so that the fields the two
     * threads share keep their places in the cache lines) */
    int no_threads;
    /* the parity bit of the extended mask and the offset c of the heap's
     * parity (h + c) & 1 (see the header), whether the rule allows one
     * (its split positions k all have parity kpar), and whether the value
     * lists are swapped for the current heap (after no_threads for the
     * same reason) */
    uint32_t pmask, pshift;
    unsigned kpar;
    int par_ok, flipped;
    /* a deep run's window (sg_seq's keep and off; 0 and 0 otherwise):
     * large indices are read at x - off, small ones (below keep) at x,
     * and step 3 stops at the kept pairs; cut says it did for the current
     * heap, deep_fail that a heap's value could not be decided */
    size_t keep, off;
    int cut, deep_fail;
    /* tests: values of 64..127 take the stamps, not small_run; no
     * extra terms (extra_build) */
    int no_wide, no_extra;
} sparse;

static int is_rare(uint32_t mask, sg_value v)
{
    return !__builtin_parity(v & mask);
}

/* hist's slot for heap h of value v: by (v, h & 1) when the rule allows
 * parity masks (par_ok), else by v alone. */
#define HIST(sp, v, h)                                                      \
    ((sp)->par_ok ? (size_t)(v) << 1 | ((h) & 1) : (size_t)(v))

/* Whether heap h of value v is rare: its extended value v << 1 | ((h +
 * pshift) & 1) has an even number of bits under the extended mask. */
static int heap_rare(const sparse *sp, sg_value v, size_t h)
{
    return !(__builtin_parity(v & sp->mask) ^
             (sp->pmask & ((uint32_t)h ^ sp->pshift) & 1));
}

int sg_sparse_applicable(const sg_rule *r)
{
    unsigned bits = sg_rule_bits(r);

    return r->tail_len == 0 && (bits & SG_BIT_TWO) && !(bits & SG_BIT_THREE);
}

static void sparse_free(sparse *sp)
{
    free(sp->split);
    free(sp->split_uneq);
    free(sp->rem);
    free(sp->top);
    free(sp->far_lo);
    free(sp->far_hi);
    free(sp->skip_lo);
    free(sp->skip_hi);
    free(sp->dense_lo);
    free(sp->dense_hi);
    free(sp->one);
    free(sp->all);
    free(sp->rpos);
    free(sp->rval);
    free(sp->stamp);
    free(sp->hist);
    free(sp->common);
    free(sp->rarev);
    free(sp->toff);
    free(sp->tval);
    free(sp->boff);
    free(sp->bval);
    free(sp->bvx);
    free(sp->cmask);
    free(sp->rmask);
    free(sp->wbits);
    free(sp->hstamp);
    free(sp->obits);
    memset(sp, 0, sizeof *sp);
}

/* Sort the rule's terms into the three kinds of move. */
static int sparse_moves(sparse *sp, const sg_rule *r)
{
    size_t i, m = r->nterms + 1;

    sp->split = malloc(m * sizeof *sp->split);
    sp->split_uneq = malloc(m);
    sp->rem = malloc(m * sizeof *sp->rem);
    sp->top = malloc(m * sizeof *sp->top);
    sp->far_lo = calloc(FAR_SLOTS * m, sizeof *sp->far_lo);
    sp->far_hi = calloc(FAR_SLOTS * m, sizeof *sp->far_hi);
    sp->skip_lo = calloc(FAR_SLOTS * m, sizeof *sp->skip_lo);
    sp->skip_hi = calloc(FAR_SLOTS * m, sizeof *sp->skip_hi);
    sp->dense_lo = calloc(FAR_SLOTS * m, sizeof *sp->dense_lo);
    sp->dense_hi = calloc(FAR_SLOTS * m, sizeof *sp->dense_hi);
    sp->one = malloc(m * sizeof *sp->one);
    sp->all = malloc(m * sizeof *sp->all);
    if (!sp->split || !sp->split_uneq || !sp->rem || !sp->top ||
        !sp->far_lo || !sp->far_hi || !sp->skip_lo || !sp->skip_hi ||
        !sp->dense_lo || !sp->dense_hi || !sp->one || !sp->all)
        return -1;
    for (i = 0; i < r->nterms; i++) {
        size_t k = (size_t)r->terms[i].take;
        unsigned d = r->terms[i].digit;
        if (d & SG_BIT_TWO) {
            if (k > sp->kmax)
                sp->kmax = k;
            sp->split_uneq[sp->nsplit] = r->terms[i].unequal != 0;
            sp->split[sp->nsplit++] = k;
        }
        if (k == 0)
            continue;   /* the parser allows only splits there */
        if (d & SG_BIT_ONE)
            sp->one[sp->none++] = k;
        if (d & SG_BIT_ALL)
            sp->all[sp->nall++] = k;
        if ((d & (SG_BIT_ONE | SG_BIT_ALL)) && k > sp->kone)
            sp->kone = k;
    }
    return 0;
}

/* The common and rare value lists for the current mask and size. */
static void sparse_lists(sparse *sp)
{
    size_t v;

    sp->ncommon = sp->nrarev = 0;
    sp->cbits = sp->rbits = 0;
    sp->flipped = 0;
    memset(sp->cmask, 0, sp->bw * sizeof *sp->cmask);
    memset(sp->rmask, 0, sp->bw * sizeof *sp->rmask);
    for (v = 0; v < sp->size; v++) {
        if (is_rare(sp->mask, (sg_value)v)) {
            sp->rarev[sp->nrarev++] = (sg_value)v;
            sp->rmask[v / 64] |= (uint64_t)1 << (v % 64);
        } else {
            sp->common[sp->ncommon++] = (sg_value)v;
            sp->cmask[v / 64] |= (uint64_t)1 << (v % 64);
        }
        if (sp->size <= SMALL_SIZE && v < sp->size / 2) {
            if (is_rare(sp->mask, (sg_value)v))
                sp->rbits |= (uint64_t)1 << v;
            else
                sp->cbits |= (uint64_t)1 << v;
        }
    }
}

/*
 * With a parity mask, which option values of heap m step 1 marks depends
 * on the parity of m - k (the header's part 2): when it is odd, the lists
 * of sparse_lists (made for even m - k) swap roles.  Called before each
 * heap; the swap is of pointers, counts and two words.
 */
static inline void sparse_flip(sparse *sp, size_t m)
{
    int want = (int)(sp->pmask & ((uint32_t)(m ^ sp->kpar) & 1));
    sg_value *v;
    uint64_t *b, x;
    size_t c;

    if (want == sp->flipped)
        return;
    v = sp->common, sp->common = sp->rarev, sp->rarev = v;
    c = sp->ncommon, sp->ncommon = sp->nrarev, sp->nrarev = c;
    b = sp->cmask, sp->cmask = sp->rmask, sp->rmask = b;
    x = sp->cbits, sp->cbits = sp->rbits, sp->rbits = x;
    sp->flipped = want;
}

/* Grow the value tables so that size > 2 * max.  -1 when out of memory
 * or the values are too large for tables indexed by value. */
static int sparse_fit(sparse *sp, sg_value max)
{
    size_t p = 2, want, old = sp->size;
    void *t;

    while (p <= (size_t)max)
        p *= 2;
    want = 2 * p;
    if (want <= old)
        return 0;
    if (want > SPARSE_VALUE_LIMIT)
        return -1;
    /* The stamps change layout; marks made so far are lost, so the caller
     * must not rely on them (see no_block). */
    free(sp->stamp);
    if (!(sp->stamp = calloc(LANES * want, sizeof *sp->stamp)))
        return -1;
    free(sp->cmask);
    free(sp->rmask);
    free(sp->wbits);
    sp->bw = (want + 63) / 64;
    sp->cmask = malloc(sp->bw * sizeof *sp->cmask);
    sp->rmask = malloc(sp->bw * sizeof *sp->rmask);
    sp->wbits = calloc(sp->bw, sizeof *sp->wbits);
    if (!sp->cmask || !sp->rmask || !sp->wbits)
        return -1;
    if (!(t = realloc(sp->hist, 2 * want * sizeof *sp->hist)))
        return -1;
    sp->hist = t;
    memset(sp->hist + 2 * old, 0, 2 * (want - old) * sizeof *sp->hist);
    if (!(t = realloc(sp->common, want * sizeof *sp->common)))
        return -1;
    sp->common = t;
    if (!(t = realloc(sp->rarev, want * sizeof *sp->rarev)))
        return -1;
    sp->rarev = t;
    sp->size = want;
    sparse_lists(sp);
    return 0;
}

static int rare_push(sparse *sp, size_t pos, sg_value v)
{
    if (sp->nrare == sp->ralloc) {
        size_t na = sp->ralloc ? 2 * sp->ralloc : 256;
        size_t *np = realloc(sp->rpos, na * sizeof *np);
        sg_value *nv;
        if (!np)
            return -1;
        sp->rpos = np;
        nv = realloc(sp->rval, na * sizeof *nv);
        if (!nv)
            return -1;
        sp->rval = nv;
        sp->ralloc = na;
    }
    sp->rpos[sp->nrare] = pos;
    sp->rval[sp->nrare++] = v;
    return 0;
}

/* The small path's list of terms for R as it is now; -1 when out of
 * memory (the caller then goes digit by digit). */
static int flat_build(sparse *sp)
{
    size_t j, i, n = sp->nsplit * sp->nrare + sp->none;

    sp->tok = 0;
    if (n > sp->talloc || !sp->boff) { /* (the chosen pairs need boff) */
        size_t na = sp->talloc ? sp->talloc : 64;
        void *t;
        while (na < n)
            na *= 2;
        if (!(t = realloc(sp->toff, na * sizeof *sp->toff)))
            return -1;
        sp->toff = t;
        if (!(t = realloc(sp->tval, na * sizeof *sp->tval)))
            return -1;
        sp->tval = t;
        if (!(t = realloc(sp->boff, (na + XTERMS) * sizeof *sp->boff)))
            return -1;
        sp->boff = t;
        if (!(t = realloc(sp->bval, (na + XTERMS) * sizeof *sp->bval)))
            return -1;
        sp->bval = t;
        if (!(t = realloc(sp->bvx, (na + XTERMS) * sizeof *sp->bvx)))
            return -1;
        sp->bvx = t;
        sp->talloc = na;
    }
    sp->nterm = 0;
    for (j = 0; j < sp->nsplit; j++)
        for (i = 0; i < sp->nrare; i++) {
            sp->toff[sp->nterm] = sp->split[j] + sp->rpos[i];
            sp->tval[sp->nterm++] = sp->rval[i];
        }
    /* small_run's one-heap moves: G(m - k) ^ 0 */
    for (i = 0; i < sp->none; i++) {
        sp->toff[sp->nterm + i] = sp->one[i];
        sp->tval[sp->nterm + i] = 0;
    }
    sp->nnear = sp->nfar = 0;
    for (i = 0; i < sp->nterm + sp->none; i++)
        if (sp->toff[i] < MID_HEAPS) {
            sp->boff[sp->nnear] = sp->toff[i];
            sp->bval[sp->nnear++] = sp->tval[i];
        }
    sp->nclose = sp->nnear;
    for (i = 0; i < sp->nterm + sp->none; i++)
        if (sp->toff[i] >= MID_HEAPS && sp->toff[i] < BLOCK_HEAPS) {
            sp->boff[sp->nnear] = sp->toff[i];
            sp->bval[sp->nnear++] = sp->tval[i];
        }
    /* the far ones with values of 64 or more first (see small_run_body) */
    for (i = 0; i < sp->nterm + sp->none; i++)
        if (sp->toff[i] >= BLOCK_HEAPS && sp->tval[i] >= 64) {
            sp->boff[sp->nnear + sp->nfar] = sp->toff[i];
            sp->bval[sp->nnear + sp->nfar++] = sp->tval[i];
        }
    sp->nfar_hi = sp->nfar;
    for (i = 0; i < sp->nterm + sp->none; i++)
        if (sp->toff[i] >= BLOCK_HEAPS && sp->tval[i] < 64) {
            sp->boff[sp->nnear + sp->nfar] = sp->toff[i];
            sp->bval[sp->nnear + sp->nfar++] = sp->tval[i];
        }
    for (i = sp->nnear; i < sp->nnear + sp->nfar; i++)
        sp->bvx[i] = sp->bval[i] * 0x01010101u;
    sp->nextra = sp->xnext = 0;
    sp->tnrare = sp->nrare;
    sp->tgen = sp->rgen;
    sp->tok = 1;
    return 0;
}

/* Values below v, split like SET_BIT's sets. */
static inline uint64_t below_lo(sg_value v)
{
    return v >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << v) - 1;
}

static inline uint64_t below_hi(sg_value v)
{
    return v >= 128 ? ~(uint64_t)0
                    : v <= 64 ? 0 : ((uint64_t)1 << (v - 64)) - 1;
}

/* How many values left wanted at the sample heaps lo..m-1 the pair (a,
 * h - k - a) of split digit j gives (see extra_build). */
static size_t extra_gain(const sparse *sp, const sg_seq *s,
                         uint64_t (*left)[2], size_t j, size_t a, size_t lo,
                         size_t m)
{
    const size_t ga = s->data[a], d = sp->split[j] + a + sp->off;
    size_t h, gain = 0;

    if (ga >= 64)
        return 0; /* (values below 64 only: see flat_build) */
    for (h = lo; h < m; h++) {
        size_t x = ga ^ s->data[h - d];
        gain += (size_t)(left[h - lo][x / 64 % 2] >> (x % 64)) & (x < 128);
    }
    return gain;
}

/*
 * small_run's extra terms for heaps from m on (s holding G(0..m-1)).
 * After step 1, step 3 looks for each wanted rare value among the pairs
 * in the order of their small part.  That can cost hundreds of pairs:
 * the values are far from independent (0.167's come in runs of two, and
 * the first 32 pairs missed its most common wanted values, 0 and 2, at
 * half the heaps, where pairs of random values would miss them at one in
 * ten).  So a few pairs (a, m - k - a) that find what step 1 leaves are
 * chosen from the heaps just computed, greedily the one that finds the
 * most values left wanted there, while that is at least XGAIN_MIN of the
 * heaps.  As terms of the block's step 1 (G(m - k - a) ^ G(a), like a
 * rare heap's) they cost about one instruction per heap each and take no
 * branch; every value they give is a real option, so the choice only
 * matters for the speed.  They replaced step 3's first 32 pairs, which
 * small_run used to look at before anything else (0.1777 a tenth
 * faster without them).  Chosen again at 2m and after each flat_build,
 * as the values drift.
 */
static void extra_build(sparse *sp, const sg_seq *s, size_t m)
{
    const size_t half = sp->size / 2, ns = sp->nsplit;
    /* A deep run's window holds the heaps read here from x - off on, the
     * small parts a < keep at a (DEEP_MARGIN) */
#define GV(x) (s->data[(x) - sp->off])
    uint64_t left[XSAMPLE][2];
    size_t gain[XSPLITS * XCAND], fh[XSAMPLE];
    uint8_t fx[XSAMPLE];
    size_t h, i, j, a, nh = 0, need = 0;
    const size_t lo = m - XSAMPLE;

    sp->nextra = 0;
    sp->xnext = 2 * m;
    if (s->width != 1 || sp->size > WIDE_SIZE || !sp->simd ||
        sp->no_extra || ns > XSPLITS || m < XFIRST ||
        m < 4 * (XSAMPLE + XCAND + sp->kmax))
        return;
    /* what each sample heap wants after step 1 (rare heaps, none of
     * small_run's: nothing) */
    for (h = lo; h < m; h++) {
        const size_t v = GV(h);
        uint64_t got[2] = {0, 0}, *w = left[h - lo];
        w[0] = w[1] = 0;
        if (v >= half || is_rare(sp->mask, (sg_value)v))
            continue;
        for (i = 0; i < sp->nterm + sp->none; i++) {
            size_t x = sp->tval[i] ^ GV(h - sp->toff[i]);
            got[x / 64 % 2] |= (uint64_t)(x < 128) << (x % 64);
        }
        w[0] = sp->rmask[0] & below_lo((sg_value)v) & ~got[0];
        w[1] = (sp->bw > 1 ? sp->rmask[1] : 0) & below_hi((sg_value)v) &
               ~got[1];
        need += (size_t)(__builtin_popcountll(w[0]) +
                         __builtin_popcountll(w[1]));
        nh++;
    }
    /* greedy coverage, each candidate's count kept exact by taking off
     * the values each choice found (at most need in all) */
    for (j = 0; j < ns; j++)
        for (a = 32; a < 32 + XCAND; a++)
            gain[j * XCAND + a - 32] = extra_gain(sp, s, left, j, a, lo, m);
    while (sp->nextra < XTERMS && need) {
        size_t c, bc = 0, ga, k, nf = 0, f;
        for (c = 1; c < ns * XCAND; c++)
            if (gain[c] > gain[bc])
                bc = c;
        if (gain[bc] < XGAIN_MIN * (double)nh)
            break;
        a = bc % XCAND + 32;
        ga = s->data[a];
        k = sp->split[bc / XCAND];
        for (h = lo; h < m; h++) {
            size_t x = ga ^ GV(h - k - a);
            if (x < 128 && (left[h - lo][x / 64] >> (x % 64) & 1)) {
                left[h - lo][x / 64] &= ~((uint64_t)1 << (x % 64));
                fh[nf] = h;
                fx[nf++] = (uint8_t)x;
            }
        }
        need -= nf;
        sp->boff[sp->nnear + sp->nfar + sp->nextra] = k + a;
        sp->bval[sp->nnear + sp->nfar + sp->nextra] = (sg_value)ga;
        sp->bvx[sp->nnear + sp->nfar + sp->nextra++] =
            (uint32_t)ga * 0x01010101u;
        /* (the candidates of values 64 or more counted nothing: without
         * the test their count wrapped round to the largest, and 0.354
         * took 128 useless pairs in some rounds of sg_analyse) */
        for (f = 0; f < nf; f++)
            for (j = 0; j < ns; j++) {
                const uint8_t *far = s->data + (fh[f] - sp->split[j] - sp->off);
                size_t *gj = gain + j * XCAND - 32;
                for (c = 32; c < 32 + XCAND; c++)
                    gj[c] -= s->data[c] < 64 &&
                             (s->data[c] ^ far[-(ptrdiff_t)c]) == fx[f];
            }
    }
#undef GV
}

static size_t avx2_next_rare(const sparse *sp, const uint8_t *g, size_t h,
                             size_t n);

/* R from scratch, for the current mask. */
static int sparse_rebuild(sparse *sp, const sg_seq *s)
{
    size_t h;

    sp->nrare = 0;
    sp->rgen++;
    if (s->width == 1 && sp->simd) {
        /* every round of sg_analyse reads the whole prefix (0.1777: 4 % of
         * its time heap by heap), and rare heaps are few */
        for (h = avx2_next_rare(sp, s->data, 1, s->n); h < s->n;
             h = avx2_next_rare(sp, s->data, h + 1, s->n))
            if (rare_push(sp, h, s->data[h]))
                return -1;
        return 0;
    }
    if (s->width == 1) {
        /* a resumed run reads the whole prefix: a table per byte */
        uint8_t rare[512];
        unsigned v;
        for (v = 0; v < 512; v++)
            rare[v] = (uint8_t)heap_rare(sp, v >> 1, v);
        for (h = 1; h < s->n; h++)
            if (rare[s->data[h] << 1 | (h & 1)] &&
                rare_push(sp, h, s->data[h]))
                return -1;
        return 0;
    }
    for (h = 1; h < s->n; h++) {
        sg_value v = sg_seq_get(s, h);
        if (heap_rare(sp, v, h) && rare_push(sp, h, v))
            return -1;
    }
    return 0;
}

/* hist[HIST(v, h)] += the heaps 1 <= h < s->n of value v (v <
 * sp->size).  Four partial counts, so that runs of one value do not wait
 * on each other's increments.  -1 when out of memory. */
static int sparse_count(sparse *sp, const sg_seq *s)
{
    size_t h, v, z = 2 * sp->size;
    uint64_t *c = calloc(4 * z, sizeof *c);

    if (!c)
        return -1;
    for (h = 1; h + 4 <= s->n; h += 4) {
        c[HIST(sp, sg_seq_get(s, h), h)]++;
        c[z + HIST(sp, sg_seq_get(s, h + 1), h + 1)]++;
        c[2 * z + HIST(sp, sg_seq_get(s, h + 2), h + 2)]++;
        c[3 * z + HIST(sp, sg_seq_get(s, h + 3), h + 3)]++;
    }
    for (; h < s->n; h++)
        c[HIST(sp, sg_seq_get(s, h), h)]++;
    for (v = 0; v < z; v++)
        sp->hist[v] += c[v] + c[z + v] + c[2 * z + v] + c[3 * z + v];
    free(c);
    return 0;
}

/* The extended mask (mask << 1 | pmask, mask below P = size/2) that makes
 * the fewest heaps rare, its offset in *shift (the current one when it
 * ties; plain mask 1 when every value is 0); a parity mask only when the
 * rule allows it and it is strictly better (sg_sparse_mask_pick_ext).  -1
 * when out of memory. */
static int64_t sparse_best_mask(const sparse *sp, int *shift)
{
    size_t p = sp->size / 2, i;
    int64_t *w = malloc(2 * p * sizeof *w);
    uint32_t best;

    if (!w)
        return -1;
    if (sp->par_ok) {
        for (i = 0; i < 2 * p; i++)
            w[i] = (int64_t)sp->hist[i];
        best = sg_sparse_mask_pick_ext(w, p, sp->mask << 1 | sp->pmask,
                                       (int)sp->pshift, 0, 1, shift);
    } else {
        /* the values alone, exactly as before the parity existed */
        for (i = 0; i < p; i++)
            w[i] = (int64_t)sp->hist[i];
        best = sg_sparse_mask_pick(w, p, sp->mask, 0) << 1;
        *shift = 0;
    }
    free(w);
    return best ? (int64_t)best : 2;
}

/* Re-choose the mask from the values so far; rebuild R if it changed. */
static int sparse_repick(sparse *sp, const sg_seq *s)
{
    int64_t m;
    int c;

    if (sp->forced)
        return 0;
    m = sparse_best_mask(sp, &c);
    if (m < 0)
        return -1;
    if ((uint32_t)m == (sp->mask << 1 | sp->pmask) &&
        (uint32_t)c == sp->pshift)
        return 0;
    sp->mask = (uint32_t)m >> 1;
    sp->pmask = (uint32_t)m & 1;
    sp->pshift = (uint32_t)c;
    sp->repicks++;
    sparse_lists(sp);
    return sparse_rebuild(sp, s);
}

/* ------------------------------------------------------------------ */
/* Step 3's pair scan, with an AVX2 filter where the CPU has it         */
/* ------------------------------------------------------------------ */

/*
 * The wanted values of step 3 are also kept as a set of low bytes: bit
 * (b >> 4) & 7 of want_tab[(b >> 7) * 16 + (b & 15)] is set when some
 * wanted value has low byte b (want_low[b] counts them).  With values of
 * one byte this is the exact set; with two it is a filter whose hits are
 * confirmed on the stamps.  The AVX2 code tests 32 pairs at once against
 * it with byte shuffles, and only blocks with a hit are looked at one pair
 * at a time.
 */
static inline void want_add(sparse *sp, sg_value v)
{
    unsigned b = v & 0xFF;

    if (sp->want_low[b]++ == 0)
        sp->want_tab[(b >> 7) * 16 + (b & 15)] |=
            (uint8_t)(1u << ((b >> 4) & 7));
}

static inline void want_remove(sparse *sp, sg_value v)
{
    unsigned b = v & 0xFF;

    if (--sp->want_low[b] == 0)
        sp->want_tab[(b >> 7) * 16 + (b & 15)] &=
            (uint8_t)~(1u << ((b >> 4) & 7));
}

/* Start the filter with the values still wanted (all below c). */
static void filter_build(sparse *sp, sg_value c)
{
    size_t w;

    for (w = 0; w <= (size_t)c / 64 && w < sp->bw; w++) {
        uint64_t b;
        for (b = sp->wbits[w]; b; b &= b - 1)
            want_add(sp, (sg_value)(w * 64 + (size_t)__builtin_ctzll(b)));
    }
    sp->filter = 1;
}

/* Empty the filter again, when step 3 ends with values still wanted
 * (all below c); when it ends with none, it is empty already. */
static void filter_clear(sparse *sp, sg_value c)
{
    size_t w;

    /* Found values left it already: only those still in wbits remain. */
    for (w = 0; w <= (size_t)c / 64 && w < sp->bw; w++) {
        uint64_t b;
        for (b = sp->wbits[w]; b; b &= b - 1)
            sp->want_low[(w * 64 + (size_t)__builtin_ctzll(b)) & 0xFF] = 0;
    }
    memset(sp->want_tab, 0, sizeof sp->want_tab);
    sp->filter = 0;
}

#if defined(__GNUC__) && defined(__x86_64__)
#define SPARSE_AVX2 1
#include <immintrin.h>

#define AVX2 __attribute__((target("avx2")))

/* Lanes of x (bytes) whose value is in the want_tab set, as a bit mask. */
AVX2 static inline unsigned avx2_member(__m256i x, __m256i ta, __m256i tb)
{
    const __m256i nib = _mm256_set1_epi8(0x0F);
    const __m256i bit = _mm256_setr_epi8(
        1, 2, 4, 8, 16, 32, 64, (char)128, 1, 2, 4, 8, 16, 32, 64, (char)128,
        1, 2, 4, 8, 16, 32, 64, (char)128, 1, 2, 4, 8, 16, 32, 64, (char)128);
    __m256i lo = _mm256_and_si256(x, nib);
    __m256i hi = _mm256_and_si256(_mm256_srli_epi16(x, 4), nib);
    __m256i row = _mm256_blendv_epi8(_mm256_shuffle_epi8(ta, lo),
                                     _mm256_shuffle_epi8(tb, lo), x);
    __m256i hit = _mm256_and_si256(row, _mm256_shuffle_epi8(bit, hi));
    __m256i none = _mm256_cmpeq_epi8(hit, _mm256_setzero_si256());

    return ~(unsigned)_mm256_movemask_epi8(none);
}

/* Step 3 of the small path (one-byte values): the pairs (a, rem - a),
 * a from *pa in steps of 32 while below end, remove from the wanted set
 * (values below 64 in *w0, with `wide` also 64..127 in *w1) every value
 * some pair's xor takes; stops early when nothing is wanted.  *pa is
 * where it stopped. */
AVX2 static inline void avx2_small_scan(const uint8_t *g, size_t rem,
                                        size_t *pa, size_t end,
                                        uint64_t *w0, uint64_t *w1, int wide)
{
    const __m256i rev = _mm256_setr_epi8(15, 14, 13, 12, 11, 10, 9, 8, 7, 6,
                                         5, 4, 3, 2, 1, 0, 15, 14, 13, 12, 11,
                                         10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0);
    uint64_t lo = *w0, hi = wide ? *w1 : 0;
    size_t a;

    for (a = *pa; a + 32 <= end; a += 32) {
        __m256i x = _mm256_loadu_si256((const __m256i *)(const void *)(g + a));
        __m256i y = _mm256_loadu_si256(
            (const __m256i *)(const void *)(g + rem - a - 31));
        uint64_t w;
        y = _mm256_shuffle_epi8(y, rev);
        y = _mm256_permute2x128_si256(y, y, 0x01);
        x = _mm256_xor_si256(x, y);
#define FIND_WANTED(set, base, ONE)                                         \
    for (w = set; w; w &= w - 1) {                                          \
        unsigned v = (unsigned)__builtin_ctzll(w);                          \
        __m256i e =                                                         \
            _mm256_cmpeq_epi8(x, _mm256_set1_epi8((char)(v + (base))));     \
        ONE;                                                                \
    }
        if (__builtin_popcountll(lo) + __builtin_popcountll(hi) <= 2) {
            /* one or two values (Kayles): usually found at once */
            FIND_WANTED(lo, 0, if (_mm256_movemask_epi8(e))
                                   lo &= ~((uint64_t)1 << v))
            if (wide)
                FIND_WANTED(hi, 64, if (_mm256_movemask_epi8(e))
                                        hi &= ~((uint64_t)1 << v))
        } else {
            /* more: whether each is found is a coin toss, so no branch */
            FIND_WANTED(lo, 0,
                        lo &= ~((uint64_t)(_mm256_movemask_epi8(e) != 0)
                                << v))
            if (wide)
                FIND_WANTED(hi, 64,
                            hi &= ~((uint64_t)(_mm256_movemask_epi8(e) != 0)
                                    << v))
        }
#undef FIND_WANTED
        if (!(lo | hi))
            break;
    }
    *pa = a;
    *w0 = lo;
    if (wide)
        *w1 = hi;
}

/* The same for values below 64 only: what is still wanted. */
AVX2 static inline uint64_t avx2_small1(const uint8_t *g, size_t rem,
                                        size_t *pa, size_t end, uint64_t want)
{
    avx2_small_scan(g, rem, pa, end, &want, NULL, 0);
    return want;
}

/*
 * Step 1 of the small path for the BLOCK_HEAPS heaps m..m + 31 at once
 * (mp: where g holds heap m), over the n terms G(m - to[i]) ^ tv[i] with
 * to[i] >= BLOCK_HEAPS, whose values are all known before the block
 * starts: the 32 option values of a term are one load of 32 bytes, xored
 * once with its value (tx: the value's byte four times, so that the
 * broadcast is a load), each then turned into a bit of a 64-bit lane
 * (values and xors are below 64 on the small path).  out[l] receives
 * heap m + l's bits.  Shuffle s takes bytes 2s and 2s + 1 of each
 * 128-bit half into the four lanes (heaps 2s, 2s + 1, 16 + 2s, 17 + 2s,
 * put in order at the end): a shuffle, a shift and an or per term and
 * four heaps, where the heap-by-heap loop takes six instructions per
 * term and heap (and a zero-extending load and an xor per four heaps,
 * 0.167 deep x0.85).  With flip = 64 (values below 128) it gives the
 * bits of values 64..127 instead: x ^ 64 is x - 64 for those and 64 or
 * more, which shifts the bit out, for the others.  Returns whether any
 * value read was 64 or more: if not, only the terms whose own value is
 * 64 or more can give options of 64..127, and the second pass (flip 64)
 * can be left to them.
 */
#define SHUF_BITS(a, k)                                                     \
    a = _mm256_or_si256(a, _mm256_sllv_epi64(one, _mm256_shuffle_epi8(y, k)))

AVX2 static inline __attribute__((always_inline)) int
block_shuf_body(const uint8_t *g, size_t mp, const size_t *to,
                const uint32_t *tx, size_t n, sg_value flip, uint64_t *out,
                int full)
{
    const __m256i one = _mm256_set1_epi64x(1);
    const __m256i fl = _mm256_set1_epi8((char)flip);
    /* k0: byte 0 into lane 0, byte 1 into lane 1 (of each half) */
    const __m256i k0 = _mm256_setr_epi8(
        0, -1, -1, -1, -1, -1, -1, -1, 1, -1, -1, -1, -1, -1, -1, -1, 0, -1,
        -1, -1, -1, -1, -1, -1, 1, -1, -1, -1, -1, -1, -1, -1);
    const __m256i two = _mm256_setr_epi8(
        2, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0,
        0, 2, 0, 0, 0, 0, 0, 0, 0);
    const __m256i k1 = _mm256_add_epi8(k0, two);
    const __m256i k2 = _mm256_add_epi8(k1, two);
    const __m256i k3 = _mm256_add_epi8(k2, two);
    const __m256i k4 = _mm256_add_epi8(k3, two);
    const __m256i k5 = _mm256_add_epi8(k4, two);
    const __m256i k6 = _mm256_add_epi8(k5, two);
    const __m256i k7 = _mm256_add_epi8(k6, two);
    __m256i a0 = _mm256_setzero_si256(), a1 = a0, a2 = a0, a3 = a0;
    __m256i a4 = a0, a5 = a0, a6 = a0, a7 = a0, any = a0;
    size_t i;

    for (i = 0; i < n; i++) {
        __m256i y = _mm256_loadu_si256(
            (const __m256i *)(const void *)(g + (mp - to[i])));
        if (full) {
            any = _mm256_or_si256(any, y);
            y = _mm256_xor_si256(
                y, _mm256_xor_si256(_mm256_set1_epi32((int)tx[i]), fl));
        } else {
            y = _mm256_xor_si256(y, _mm256_set1_epi32((int)tx[i]));
        }
        SHUF_BITS(a0, k0);
        SHUF_BITS(a1, k1);
        SHUF_BITS(a2, k2);
        SHUF_BITS(a3, k3);
        SHUF_BITS(a4, k4);
        SHUF_BITS(a5, k5);
        SHUF_BITS(a6, k6);
        SHUF_BITS(a7, k7);
    }
#define PUT(q, a, b)                                                        \
    _mm256_storeu_si256((__m256i *)(void *)(out + 4 * (q)),                 \
                        _mm256_permute2x128_si256(a, b, 0x20));             \
    _mm256_storeu_si256((__m256i *)(void *)(out + 16 + 4 * (q)),            \
                        _mm256_permute2x128_si256(a, b, 0x31))
    PUT(0, a0, a1);
    PUT(1, a2, a3);
    PUT(2, a4, a5);
    PUT(3, a6, a7);
#undef PUT
    return _mm256_movemask_epi8(_mm256_cmpeq_epi8(
               _mm256_and_si256(any, _mm256_set1_epi8((char)0xC0)),
               _mm256_setzero_si256())) != -1;
}
#undef SHUF_BITS

AVX2 static int avx2_block_shuf(const uint8_t *g, size_t mp, const size_t *to,
                                const uint32_t *tx, size_t n, sg_value flip,
                                uint64_t *out)
{
    return block_shuf_body(g, mp, to, tx, n, flip, out, 1);
}

/* The same with flip 0 and no answer (values below 64: small_run's
 * narrow form), two instructions less per term. */
AVX2 static void avx2_block_shuf0(const uint8_t *g, size_t mp,
                                  const size_t *to, const uint32_t *tx,
                                  size_t n, uint64_t *out)
{
    block_shuf_body(g, mp, to, tx, n, 0, out, 0);
}

/* a |= the bits of 4 heaps of a term (k: which 4 bytes of w) */
#define TERM_BITS(a, k)                                                     \
    a = _mm256_or_si256(                                                    \
        a, _mm256_sllv_epi64(                                               \
               one, _mm256_xor_si256(                                       \
                        _mm256_cvtepu8_epi64(_mm_cvtsi32_si128(w[k])), v)))

/* The same as avx2_block_shuf for the MID_HEAPS heaps m..m + 7 and
 * terms with MID_HEAPS <= to[i] < BLOCK_HEAPS (those of heap m + 7 are
 * all known at m); returns whether any value read, or any tv, was 64 or
 * more (see avx2_block_shuf). */
AVX2 static int avx2_mid_terms(const uint8_t *g, size_t mp, const size_t *to,
                               const sg_value *tv, size_t n, sg_value flip,
                               uint64_t *out)
{
    const __m256i one = _mm256_set1_epi64x(1);
    __m256i a0 = _mm256_setzero_si256(), a1 = a0;
    uint64_t any = 0;
    sg_value vany = 0;
    size_t i;

    for (i = 0; i < n; i++) {
        const uint8_t *p = g + (mp - to[i]);
        const __m256i v = _mm256_set1_epi64x((long long)(tv[i] ^ flip));
        int32_t w[2];
        uint64_t x;
        memcpy(w, p, sizeof w);
        memcpy(&x, p, sizeof x);
        any |= x;
        vany |= tv[i];
        TERM_BITS(a0, 0);
        TERM_BITS(a1, 1);
    }
    _mm256_storeu_si256((__m256i *)(void *)(out + 0), a0);
    _mm256_storeu_si256((__m256i *)(void *)(out + 4), a1);
    return vany >= 64 || (any & 0xC0C0C0C0C0C0C0C0ull) != 0;
}
#undef TERM_BITS

/*
 * avx2_block_shuf with AVX-512 (and VBMI's byte permute), where the CPU
 * has it: eight heaps per register, each taking one permute (each byte
 * to its own 64-bit lane, zeroing the rest), one shift and half of a
 * three-way or (two terms per round), where AVX2 takes six instructions
 * per eight heaps.  The block's terms of a rule such as 0.167 (155 of
 * them) are 40 % of its time there.
 */
#define AVX512                                                              \
    __attribute__((target("avx512f,avx512bw,avx512vl,avx512vbmi")))

/* The bits of term z's values (one per byte, below 32 bytes) for the
 * eight heaps whose bytes i picks, one per 64-bit lane. */
#define TERM512(z, i)                                                       \
    _mm512_sllv_epi64(one, _mm512_maskz_permutexvar_epi8(lane, i, z))
/* a |= the bits of terms z and w (one three-way or) */
#define OR2(a, i, z, w)                                                     \
    a = _mm512_ternarylogic_epi64(a, TERM512(z, i), TERM512(w, i), 0xFE)

AVX512 static int avx512_block_body(const uint8_t *g, size_t mp,
                                    const size_t *to, const uint32_t *tx,
                                    size_t n, sg_value flip, uint64_t *out)
{
    const __m512i one = _mm512_set1_epi64(1);
    /* byte 8j of lane j from byte 8q + j of the term's 32 */
    const __m512i i0 = _mm512_set_epi64(7, 6, 5, 4, 3, 2, 1, 0);
    const __m512i i1 = _mm512_add_epi64(i0, _mm512_set1_epi64(8));
    const __m512i i2 = _mm512_add_epi64(i0, _mm512_set1_epi64(16));
    const __m512i i3 = _mm512_add_epi64(i0, _mm512_set1_epi64(24));
    const __m256i fl = _mm256_set1_epi8((char)flip);
    const __mmask64 lane = 0x0101010101010101ull;
    __m512i a0 = _mm512_setzero_si512(), a1 = a0, a2 = a0, a3 = a0;
    __m256i any = _mm256_setzero_si256();
    size_t i;

    /* two terms at a time, so that one or takes both */
    for (i = 0; i + 1 < n; i += 2) {
        __m256i y = _mm256_loadu_si256(
            (const __m256i *)(const void *)(g + (mp - to[i])));
        __m256i x = _mm256_loadu_si256(
            (const __m256i *)(const void *)(g + (mp - to[i + 1])));
        __m512i z, w;
        any = _mm256_ternarylogic_epi32(any, y, x, 0xFE);
        y = _mm256_ternarylogic_epi32(y, _mm256_set1_epi32((int)tx[i]), fl,
                                      0x96);
        x = _mm256_ternarylogic_epi32(x, _mm256_set1_epi32((int)tx[i + 1]),
                                      fl, 0x96);
        z = _mm512_zextsi256_si512(y);
        w = _mm512_zextsi256_si512(x);
        OR2(a0, i0, z, w);
        OR2(a1, i1, z, w);
        OR2(a2, i2, z, w);
        OR2(a3, i3, z, w);
    }
    if (i < n) {
        __m256i y = _mm256_loadu_si256(
            (const __m256i *)(const void *)(g + (mp - to[i])));
        __m512i z;
        any = _mm256_or_si256(any, y);
        y = _mm256_ternarylogic_epi32(y, _mm256_set1_epi32((int)tx[i]), fl,
                                      0x96);
        z = _mm512_zextsi256_si512(y);
        a0 = _mm512_or_si512(a0, TERM512(z, i0));
        a1 = _mm512_or_si512(a1, TERM512(z, i1));
        a2 = _mm512_or_si512(a2, TERM512(z, i2));
        a3 = _mm512_or_si512(a3, TERM512(z, i3));
    }
    _mm512_storeu_si512((void *)(out + 0), a0);
    _mm512_storeu_si512((void *)(out + 8), a1);
    _mm512_storeu_si512((void *)(out + 16), a2);
    _mm512_storeu_si512((void *)(out + 24), a3);
    /* (whether any value read was 64 or more: avx2_block_shuf) */
    return _mm256_movemask_epi8(_mm256_cmpeq_epi8(
               _mm256_and_si256(any, _mm256_set1_epi8((char)0xC0)),
               _mm256_setzero_si256())) != -1;
}
#undef OR2
#undef TERM512

/* Whether small_run may take avx512_block_body (asked once per run). */
static int have_avx512(void)
{
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx512f") &&
           __builtin_cpu_supports("avx512bw") &&
           __builtin_cpu_supports("avx512vl") &&
           __builtin_cpu_supports("avx512vbmi");
}
#undef AVX512

/* The first heap h' >= h below n whose one-byte value is rare (n if
 * none): heap_rare 32 heaps at a time, the parity of v & mask from two
 * nibble tables, and with a parity mask that of the heap's position. */
AVX2 static size_t avx2_next_rare(const sparse *sp, const uint8_t *g,
                                  size_t h, size_t n)
{
    uint8_t lo[16], hi[16];
    const uint32_t m = sp->mask;
    unsigned i;
    __m256i tl, th, pos;

    for (; h < n && h % 32; h++)
        if (heap_rare(sp, g[h], h))
            return h;
    if (h >= n)
        return n;
    for (i = 0; i < 16; i++) {
        lo[i] = (uint8_t)__builtin_parity(i & m & 15);
        hi[i] = (uint8_t)__builtin_parity(i & (m >> 4) & 15);
    }
    tl = _mm256_broadcastsi128_si256(
        _mm_loadu_si128((const __m128i *)(const void *)lo));
    th = _mm256_broadcastsi128_si256(
        _mm_loadu_si128((const __m128i *)(const void *)hi));
    /* heap h + j (h even) adds (h + j ^ pshift) & 1 when pmask is set */
    pos = sp->pmask ? _mm256_set1_epi16((short)(sp->pshift & 1 ? 0x0001
                                                               : 0x0100))
                    : _mm256_setzero_si256();
    for (; h + 32 <= n; h += 32) {
        const __m256i nib = _mm256_set1_epi8(0x0F);
        __m256i x = _mm256_loadu_si256((const __m256i *)(const void *)(g + h));
        __m256i t = _mm256_xor_si256(
            _mm256_shuffle_epi8(tl, _mm256_and_si256(x, nib)),
            _mm256_shuffle_epi8(
                th, _mm256_and_si256(_mm256_srli_epi16(x, 4), nib)));
        unsigned k = (unsigned)_mm256_movemask_epi8(_mm256_cmpeq_epi8(
            _mm256_xor_si256(t, pos), _mm256_setzero_si256()));
        if (k)
            return h + (size_t)__builtin_ctz(k);
    }
    for (; h < n; h++)
        if (heap_rare(sp, g[h], h))
            return h;
    return n;
}

/* Asked once per run (cheap: the CPU model is read at start-up), so that
 * no state is kept between runs. */
static int have_avx2(void)
{
    __builtin_cpu_init();
    /* BMI2 comes with AVX2 on every x86 CPU so far; small_run1 uses both */
    return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("bmi2");
}
#else
static int have_avx2(void)
{
    return 0;
}

static int have_avx512(void)
{
    return 0;
}

/* Stand-ins: never called (sp->simd is 0). */
static int avx2_block_shuf(const uint8_t *g, size_t mp, const size_t *to,
                           const uint32_t *tx, size_t n, sg_value flip,
                           uint64_t *out)
{
    (void)g;
    (void)mp;
    (void)to;
    (void)tx;
    (void)n;
    (void)flip;
    (void)out;
    return 1;
}

static int avx512_block_body(const uint8_t *g, size_t mp, const size_t *to,
                             const uint32_t *tx, size_t n, sg_value flip,
                             uint64_t *out)
{
    return avx2_block_shuf(g, mp, to, tx, n, flip, out);
}

static void avx2_block_shuf0(const uint8_t *g, size_t mp, const size_t *to,
                             const uint32_t *tx, size_t n, uint64_t *out)
{
    avx2_block_shuf(g, mp, to, tx, n, 0, out);
}

static size_t avx2_next_rare(const sparse *sp, const uint8_t *g, size_t h,
                             size_t n)
{
    (void)sp;
    (void)g;
    (void)h;
    return n;
}

static int avx2_mid_terms(const uint8_t *g, size_t mp, const size_t *to,
                          const sg_value *tv, size_t n, sg_value flip,
                          uint64_t *out)
{
    (void)g;
    (void)mp;
    (void)to;
    (void)tv;
    (void)n;
    (void)flip;
    (void)out;
    return 1;
}

static void avx2_small_scan(const uint8_t *g, size_t rem, size_t *pa,
                            size_t end, uint64_t *w0, uint64_t *w1, int wide)
{
    (void)g;
    (void)rem;
    (void)pa;
    (void)end;
    (void)w0;
    (void)w1;
    (void)wide;
}

static uint64_t avx2_small1(const uint8_t *g, size_t rem, size_t *pa,
                            size_t end, uint64_t want)
{
    (void)g;
    (void)rem;
    (void)end;
    (void)pa;
    return want;
}
#endif

/* The far_lo etc. slot of the helper's group of heap m. */
static size_t helper_slot(size_t m)
{
    return 1 + (m / SUPER % 2) * HGROUPS + m % SUPER / HLANES;
}

/* Forget this thread's group marks (far slot 0): every rare is then
 * marked heap by heap. */
static void no_block(sparse *sp)
{
    size_t j;

    for (j = 0; j < sp->nsplit; j++)
        sp->far_lo[j] = sp->far_hi[j] = sp->skip_lo[j] = sp->skip_hi[j] = 0;
}

/* The first index i < nr with rp[i] >= pos (rp ascending). */
static size_t rare_index(const size_t *rp, size_t nr, size_t pos)
{
    size_t lo = 0, hi = nr;

    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (rp[mid] < pos)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/*
 * The largest small part a step 3 may try for a split leaving rem: top,
 * or in a deep run's window the last a whose pair (a, rem - a) is kept
 * (a below keep, rem - a at least keep + off), setting sp->cut when that
 * is less.
 */
static inline size_t kept_top(sparse *sp, size_t rem, size_t top)
{
    size_t lim;

    if (!sp->off)
        return top;
    lim = sp->keep - 1;
    if (rem - (sp->keep + sp->off) < lim)
        lim = rem - (sp->keep + sp->off);
    if (top <= lim)
        return top;
    sp->cut = 1;
    return lim;
}

/*
 * Step 1 for heap m apart from the marks of its block (see NAME_block):
 * the one-heap and whole-heap options, and the pairs with a rare part
 * that the block left out (far slot arrays flo, fhi, slo, shi); sets
 * sp->rem, sp->top, ntop and maxtop for step 3.  MARK(x) marks value x.
 */
#define STAMP_MARK(x) (st[AT(x)] = mark)
#define BIT_MARK(x) (bits[(x) / 64] |= (uint64_t)1 << ((x) % 64))
#define STEP1_REST(MARK)                                                    \
    do {                                                                    \
        sp->cut = 0;                                                        \
        for (i = 0; i < sp->none && sp->one[i] < m; i++)                    \
            MARK(g[m - sp->off - sp->one[i]]);                              \
        for (i = 0; i < sp->nall && sp->all[i] <= m; i++)                   \
            if (sp->all[i] == m)                                            \
                MARK(0);                                                    \
        for (j = 0; j < sp->nsplit && sp->split[j] + 2 <= m; j++) {         \
            size_t rem = m - sp->split[j], lo = flo[j];                     \
            size_t remp = rem - sp->off;                                    \
            int uneq = sp->split_uneq[j] && rem % 2 == 0;                   \
            while (nr > 0 && rp[nr - 1] >= rem)                             \
                nr--;                                                       \
            for (i = 0; i < nr && i < lo; i++)                              \
                if (!uneq || 2 * rp[i] != rem)                              \
                    MARK(rv[i] ^ g[remp - rp[i]]);                          \
            for (i = slo[j]; i < shi[j]; i++)                               \
                if (!uneq || 2 * rp[i] != rem)                              \
                    MARK(rv[i] ^ g[remp - rp[i]]);                          \
            i = fhi[j] > lo ? fhi[j] : lo;                                  \
            if (uneq) {                                                     \
                for (; i < nr; i++)                                         \
                    if (2 * rp[i] != rem)                                   \
                        MARK(rv[i] ^ g[remp - rp[i]]);                      \
            } else {                                                        \
                for (; i < nr; i++)                                         \
                    MARK(rv[i] ^ g[remp - rp[i]]);                          \
            }                                                               \
            sp->rem[j] = remp;                                              \
            sp->top[j] = kept_top(sp, rem, rem / 2 - (sp->split_uneq[j] &&  \
                                                      rem % 2 == 0));       \
            if (sp->top[j] > maxtop)                                        \
                maxtop = sp->top[j];                                        \
            ntop = j + 1;                                                   \
        }                                                                   \
    } while (0)

/*
 * The marks of a whole group of L heaps b..b + L - 1 (b % L == 0) on
 * stamps s0 (L per value, interleaved: value x of heap b + l at
 * s0[x * L + l]) with tag t0: every pair with a rare part r that is
 * known for all L heaps (r >= b + L - done, done being the heaps computed
 * when the marking starts; nsnap rares known then), except near the
 * halves for `!` digits, and the last `keep` of them, recorded in far
 * slot fs; and `dense` more pairs (see BALANCE_STEP).  Each rare costs
 * two loads for L marks.  The main
 * thread uses L = LANES, the helper HLANES = 2 LANES (each rare's values
 * fetched half as often, for a stamp table twice the size).  Kept out of
 * line: it is large, and profiles then name it.
 */
#if defined(__clang__)
#define UNROLL _Pragma("unroll")
#elif defined(__GNUC__) && __GNUC__ >= 8
#define UNROLL _Pragma("GCC unroll 16")
#else
#define UNROLL
#endif
#define GEN_BLOCK(FN, T, ST, L)                                             \
    __attribute__((noinline)) static void FN(                               \
        sparse *sp, const T *g, size_t b, size_t done, size_t nsnap,        \
        ST *s0, size_t fs, ST t0, size_t dense, size_t keep)                \
    {                                                                       \
        const size_t *rp = sp->rpos, rmin = b + (L) - done;                 \
        const sg_value *rv = sp->rval;                                      \
        const size_t bp = b - sp->off; /* where g holds heap b */           \
        size_t j, i, l;                                                     \
        for (j = 0; j < sp->nsplit; j++) {                                  \
            size_t k = sp->split[j], lo, hi, slo, shi;                      \
            size_t x = fs * sp->nsplit + j;                                 \
            sp->far_lo[x] = sp->far_hi[x] = 0;                              \
            sp->skip_lo[x] = sp->skip_hi[x] = 0;                            \
            sp->dense_lo[x] = sp->dense_hi[x] = 0;                          \
            if (b < k + rmin + 1)                                           \
                continue;                                                   \
            lo = rare_index(rp, nsnap, rmin);                               \
            hi = rare_index(rp, nsnap, b - k);                              \
            hi = hi > lo + keep ? hi - keep : lo;                           \
            if (hi <= lo)                                                   \
                continue;                                                   \
            slo = shi = lo;                                                 \
            if (sp->split_uneq[j]) {                                        \
                slo = rare_index(rp, nsnap, (b - k + 1) / 2);               \
                shi = rare_index(rp, nsnap, (b - k + (L) - 1) / 2 + 1);     \
                slo = slo < lo ? lo : slo > hi ? hi : slo;                  \
                shi = shi < slo ? slo : shi > hi ? hi : shi;                \
            }                                                               \
            sp->far_lo[x] = lo;                                             \
            sp->far_hi[x] = hi;                                             \
            sp->skip_lo[x] = slo;                                           \
            sp->skip_hi[x] = shi;                                           \
            for (i = lo; i < hi; i++) {                                     \
                const T *p;                                                 \
                size_t v;                                                   \
                if (i == slo)                                               \
                    i = shi;                                                \
                if (i >= hi)                                                \
                    break;                                                  \
                p = g + (bp - k - rp[i]);                                   \
                v = rv[i];                                                  \
                UNROLL for (l = 0; l < (L); l++)                            \
                    s0[(v ^ p[l]) * (L) + l] = t0;                          \
            }                                                               \
        }                                                                   \
        /* the extra pairs (a, m - k - a), rmin <= a < rmin + dense: real   \
         * options, marked in passing so that step 3 has less to look for;  \
         * a < (b - k) / 2 keeps a below the other part, unequal to it */   \
        for (j = 0; dense && j < sp->nsplit; j++) {                         \
            size_t k = sp->split[j], a = rmin, aend = rmin + dense;         \
            if (b < k + 2 * rmin + 2)                                       \
                continue;                                                   \
            if (aend > (b - k) / 2)                                         \
                aend = (b - k) / 2;                                         \
            if (a < aend) {                                                 \
                sp->dense_lo[fs * sp->nsplit + j] = a;                      \
                sp->dense_hi[fs * sp->nsplit + j] = aend;                   \
            }                                                               \
            for (; a < aend; a++) {                                         \
                const T *p = g + (bp - k - a);                              \
                size_t v = g[a];                                            \
                UNROLL for (l = 0; l < (L); l++)                            \
                    s0[(v ^ p[l]) * (L) + l] = t0;                          \
            }                                                               \
        }                                                                   \
    }

GEN_BLOCK(sparse1_block, uint8_t, stamp_t, LANES)
GEN_BLOCK(sparse2_block, uint16_t, stamp_t, LANES)
GEN_BLOCK(sparse4_block, uint32_t, stamp_t, LANES)
GEN_BLOCK(sparse1_hblock, uint8_t, hstamp_t, HLANES)
GEN_BLOCK(sparse2_hblock, uint16_t, hstamp_t, HLANES)
GEN_BLOCK(sparse4_hblock, uint32_t, hstamp_t, HLANES)

/* The one bits of x, without a library call on CPUs that may lack the
 * instruction (the compiler targets any x86-64). */
static inline size_t popcount64(uint64_t x)
{
    x = x - ((x >> 1) & 0x5555555555555555ULL);
    x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
    return (size_t)((x * 0x0101010101010101ULL) >> 56);
}

/* Whether x is in step 3's wanted set; if so it leaves it. */
static inline int wanted_take(sparse *sp, sg_value x)
{
    uint64_t *w = sp->wbits + x / 64, bit = (uint64_t)1 << (x % 64);

    if (!(*w & bit))
        return 0;
    *w &= ~bit;
    return 1;
}

/*
 * Width-specialised code, T being the sequence's element type:
 *  - NAME_scan: step 3 over pairs (a, rem - a), lo <= a < end: every pair
 *    whose xor is wanted (in sp->wbits) leaves the set; returns 1 once
 *    nothing is wanted;
 *  - NAME_step3: step 3 for a heap whose `need` wanted values (all below
 *    c) are in sp->wbits, with sp->rem and sp->top set for its first ntop
 *    split digits: G(m), leaving sp->wbits empty;
 *  - NAME_block: the marks of a whole block (see LANES), b % LANES == 0,
 *    on stamps s0 with tag t0, the rares used recorded in far slot fs;
 *  - NAME_heap: G(m) from G(0..m-1), the block's marks and the rest; the
 *    caller adds m to R when the value is rare;
 *  - NAME_heapb: the same with the helper's marks as a bit set.
 * FIND is the AVX2 block filter for T, used when USE is non-zero and the
 * CPU has AVX2.
 */
#define SPARSE_SCAN(NAME, T)                                                \
    static inline int NAME##_scan(sparse *sp, const T *g, size_t rem,       \
                                  size_t a, size_t end, size_t *need)       \
    {                                                                       \
        for (; a < end; a++) {                                              \
            sg_value x = (sg_value)(g[a] ^ g[rem - a]);                     \
            if (wanted_take(sp, x)) {                                       \
                if (sp->filter)                                             \
                    want_remove(sp, x);                                     \
                if (--*need == 0)                                           \
                    return 1;                                               \
            }                                                               \
        }                                                                   \
        return 0;                                                           \
    }                                                                       \

#define SPARSE_STEP3(NAME, T, SCAN, USE, ATTR)                              \
    ATTR static sg_value NAME##_step3(sparse *sp, const T *g, sg_value c,   \
                                 size_t need, size_t ntop, size_t maxtop,   \
                                 const size_t *dlo, const size_t *dhi)      \
    {                                                                       \
        size_t a0, blk, j, w;                                               \
        sg_value v;                                                         \
        /* every pair, in blocks of small parts first across all split      \
         * digits, so that no digit's pairs wait for another's */           \
        for (a0 = 1, blk = 32; a0 <= maxtop; a0 += blk) {                   \
            if ((USE) && sp->simd && !sp->filter)                           \
                filter_build(sp, c);                                        \
            if (a0 > 1 && blk < SPARSE_BLOCK)                               \
                blk *= 2;                                                   \
            for (j = 0; j < ntop; j++) {                                    \
                size_t end = a0 + blk, lo = a0;                             \
                if (end > sp->top[j] + 1)                                   \
                    end = sp->top[j] + 1;                                   \
                /* the pairs dlo <= a < dhi are marked already: their       \
                 * values are not wanted */                                 \
                if (dlo && lo < dhi[j] && end > dlo[j]) {                   \
                    if (lo < dlo[j] &&                                      \
                        SCAN(sp, g, sp->rem[j], lo, dlo[j], &need))         \
                        goto found;                                         \
                    lo = dhi[j];                                            \
                }                                                           \
                if (lo < end && SCAN(sp, g, sp->rem[j], lo, end, &need))    \
                    goto found;                                             \
            }                                                               \
        }                                                                   \
        /* the pairs ran out: the least rare value still wanted (unless     \
         * a deep run's window cut them short: then nothing is known) */    \
        sp->full_scans++;                                                   \
        sp->deep_fail |= sp->cut;                                           \
        for (w = 0; !sp->wbits[w]; w++)                                     \
            ;                                                               \
        v = (sg_value)(w * 64 + (size_t)__builtin_ctzll(sp->wbits[w]));     \
        if (sp->filter)                                                     \
            filter_clear(sp, c);                                            \
        memset(sp->wbits, 0, (c / 64 + 1 < sp->bw ? c / 64 + 1 : sp->bw) *  \
                                 sizeof *sp->wbits);                        \
        return v;                                                           \
    found:                                                                  \
        sp->filter = 0; /* every wanted value left it: it is empty */       \
        return c;                                                           \
    }                                                                       \

#define SPARSE_METHODS(NAME, T, STEP3)                                      \
    static sg_value NAME##_small(sparse *sp, const T *g, size_t m)          \
    {                                                                       \
        const size_t *rp = sp->rpos;                                        \
        const sg_value *rv = sp->rval;                                      \
        const unsigned half = (unsigned)(sp->size / 2);                     \
        const uint64_t all = half >= 64 ? ~(uint64_t)0                      \
                                        : ((uint64_t)1 << half) - 1;        \
        uint64_t opt = 0, miss, want;                                       \
        size_t i, j, nr = sp->nrare, ntop = 0, maxtop = 0, a0, blk;         \
        sg_value c;                                                         \
                                                                            \
        /* 1: one-heap options and pairs with a rare part */                \
        sp->cut = 0;                                                        \
        for (i = 0; i < sp->none && sp->one[i] < m; i++)                    \
            opt |= (uint64_t)1 << g[m - sp->off - sp->one[i]];              \
        for (i = 0; i < sp->nall && sp->all[i] <= m; i++)                   \
            if (sp->all[i] == m)                                            \
                opt |= 1;                                                   \
        if (sp->nsplit &&                                                   \
            m >= sp->kmax + 2 + 2 * (nr ? rp[nr - 1] : 0) &&                \
            ((sp->tok && sp->tnrare == nr && sp->tgen == sp->rgen) ||       \
             !flat_build(sp))) {                                            \
            /* every rare pairs with every digit: one list */               \
            const size_t *to = sp->toff;                                    \
            const sg_value *tv = sp->tval;                                  \
            const size_t nt = sp->nterm;                                    \
            uint64_t o2 = 0;                                                \
            const size_t mp = m - sp->off;                                  \
            for (i = 0; i + 1 < nt; i += 2) {                               \
                opt |= (uint64_t)1 << (tv[i] ^ g[mp - to[i]]);              \
                o2 |= (uint64_t)1 << (tv[i + 1] ^ g[mp - to[i + 1]]);       \
            }                                                               \
            if (i < nt)                                                     \
                opt |= (uint64_t)1 << (tv[i] ^ g[mp - to[i]]);              \
            opt |= o2;                                                      \
            nr = 0;     /* the loop below only sets rem and top */          \
        }                                                                   \
        for (j = 0; j < sp->nsplit && sp->split[j] + 2 <= m; j++) {         \
            size_t rem = m - sp->split[j], remp = rem - sp->off;            \
            int uneq = sp->split_uneq[j] && rem % 2 == 0;                   \
            while (nr > 0 && rp[nr - 1] >= rem)                             \
                nr--;                                                       \
            if (uneq) {                                                     \
                for (i = 0; i < nr; i++)                                    \
                    if (2 * rp[i] != rem)                                   \
                        opt |= (uint64_t)1 << (rv[i] ^ g[remp - rp[i]]);    \
            } else {                                                        \
                for (i = 0; i < nr; i++)                                    \
                    opt |= (uint64_t)1 << (rv[i] ^ g[remp - rp[i]]);        \
            }                                                               \
            sp->rem[j] = remp;                                              \
            sp->top[j] = kept_top(sp, rem, rem / 2 - (size_t)uneq);         \
            if (sp->top[j] > maxtop)                                        \
                maxtop = sp->top[j];                                        \
            ntop = j + 1;                                                   \
        }                                                                   \
        /* 2: every option is below half; c = the least common missing */   \
        miss = all & ~opt;                                                  \
        if (!miss)                                                          \
            return (sg_value)half;                                          \
        c = (miss & sp->cbits) ? (sg_value)__builtin_ctzll(miss & sp->cbits)\
                               : (sg_value)half;                            \
        /* 3: the rare values below c still to be found */                  \
        want = miss & sp->rbits &                                           \
               (c >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << c) - 1);           \
        if (!want)                                                          \
            return c;                                                       \
        for (a0 = 1, blk = 32; a0 <= maxtop; a0 += blk) {                   \
            if (a0 > 1 && blk < SPARSE_BLOCK)                               \
                blk *= 2;                                                   \
            for (j = 0; j < ntop; j++) {                                    \
                size_t a = a0, end = a0 + blk, rem = sp->rem[j];            \
                if (end > sp->top[j] + 1)                                   \
                    end = sp->top[j] + 1;                                   \
                if (sizeof(T) == 1 && sp->simd && a < end)                  \
                    want = avx2_small1((const uint8_t *)(const void *)g,    \
                                       rem, &a, end, want);                 \
                for (; want && a < end; a++) {                              \
                    unsigned x = (unsigned)(g[a] ^ g[rem - a]);             \
                    want &= ~((uint64_t)1 << x);                            \
                }                                                           \
                if (!want)                                                  \
                    return c;                                               \
            }                                                               \
        }                                                                   \
        sp->full_scans++;                                                   \
        sp->deep_fail |= sp->cut;                                           \
        return (sg_value)__builtin_ctzll(want);                             \
    }                                                                       \
                                                                            \
    static sg_value NAME##_heap(sparse *sp, const T *g, size_t m)           \
    {                                                                       \
        stamp_t *st = sp->stamp + m % LANES;                                \
        const size_t *flo = sp->far_lo, *fhi = sp->far_hi;                  \
        const size_t *slo = sp->skip_lo, *shi = sp->skip_hi;                \
        const stamp_t mark = TAG(sp, m);                                    \
        const size_t *rp = sp->rpos;                                        \
        const sg_value *rv = sp->rval;                                      \
        size_t i, j, need, nr = sp->nrare, ntop = 0, maxtop = 0;            \
        sg_value c;                                                         \
                                                                            \
        /* 1: one-heap options and pairs with a rare part (those of the     \
         * block marked already) */                                         \
        STEP1_REST(STAMP_MARK);                                             \
        /* 2: the least common value missing */                             \
        for (i = 0; i < sp->ncommon && st[AT(sp->common[i])] == mark; i++)  \
            ;                                                               \
        c = i < sp->ncommon ? sp->common[i] : (sg_value)sp->size;           \
        /* 3: the rare values below c still to be found */                  \
        need = 0;                                                           \
        for (i = 0; i < sp->nrarev && sp->rarev[i] < c; i++)                \
            if (st[AT(sp->rarev[i])] != mark) {                             \
                sp->wbits[sp->rarev[i] / 64] |= (uint64_t)1                 \
                                                << (sp->rarev[i] % 64);     \
                need++;                                                     \
            }                                                               \
        return need ? STEP3(sp, g, c, need, ntop, maxtop, NULL, NULL) : c;  \
    }                                                                       \
                                                                            \
    static sg_value NAME##_heapb(sparse *sp, const T *g, size_t m)          \
    {                                                                       \
        const size_t fs = helper_slot(m);                                   \
        uint64_t *bits = sp->obits + m % (2 * SUPER) * sp->bw;              \
        const size_t *flo = sp->far_lo + fs * sp->nsplit;                   \
        const size_t *fhi = sp->far_hi + fs * sp->nsplit;                   \
        const size_t *slo = sp->skip_lo + fs * sp->nsplit;                  \
        const size_t *shi = sp->skip_hi + fs * sp->nsplit;                  \
        const size_t *rp = sp->rpos;                                        \
        const sg_value *rv = sp->rval;                                      \
        size_t i, j, w, need = 0, nr = sp->nrare, ntop = 0, maxtop = 0;     \
        sg_value c = (sg_value)sp->size;                                    \
                                                                            \
        STEP1_REST(BIT_MARK);                                               \
        for (w = 0; w < sp->bw; w++) {                                      \
            uint64_t f = ~bits[w] & sp->cmask[w];                           \
            if (f) {                                                        \
                c = (sg_value)(w * 64 + (size_t)__builtin_ctzll(f));        \
                break;                                                      \
            }                                                               \
        }                                                                   \
        for (w = 0; w <= c / 64 && w < sp->bw; w++) {                       \
            uint64_t f = ~bits[w] & sp->rmask[w];                           \
            if (w == c / 64)                                                \
                f &= ((uint64_t)1 << (c % 64)) - 1;                         \
            sp->wbits[w] = f;                                               \
            need += popcount64(f);                                          \
        }                                                                   \
        return need ? STEP3(sp, g, c, need, ntop, maxtop,                   \
                            sp->dense_lo + fs * sp->nsplit,                 \
                            sp->dense_hi + fs * sp->nsplit)                 \
                    : c;                                                    \
    }

SPARSE_SCAN(sparse1, uint8_t)
SPARSE_SCAN(sparse2, uint16_t)
SPARSE_SCAN(sparse4, uint32_t)

#ifdef SPARSE_AVX2
/* kmask[k]: 0xFF at bytes k and k + 16, for clearing one entry of the
 * filter while it is held in registers. */
static const uint8_t kmask[16][32] = {
#define K(k) {[k] = 0xFF, [(k) + 16] = 0xFF}
    K(0), K(1), K(2), K(3), K(4), K(5), K(6), K(7),
    K(8), K(9), K(10), K(11), K(12), K(13), K(14), K(15)
#undef K
};

/* Found x: take it from the wanted set, and from the filter (the copy in
 * registers ta, tb too: reloading it right after a byte store would wait
 * for the store).  1 when nothing is wanted any more. */
AVX2 static inline int avx2_found(sparse *sp, sg_value x, size_t *need,
                                  __m256i *ta, __m256i *tb)
{
    unsigned b = x & 0xFF;

    if (!wanted_take(sp, x))
        return 0;
    if (--sp->want_low[b] == 0) {
        uint8_t bit = (uint8_t)(1u << ((b >> 4) & 7));
        __m256i sel = _mm256_and_si256(
            _mm256_loadu_si256((const __m256i *)(const void *)kmask[b & 15]),
            _mm256_set1_epi8((char)bit));
        /* which half holds b is a coin toss: no branch */
        __m256i hi = _mm256_set1_epi8((char)-(int)(b >> 7));
        sp->want_tab[(b >> 7) * 16 + (b & 15)] &= (uint8_t)~bit;
        *ta = _mm256_andnot_si256(_mm256_andnot_si256(hi, sel), *ta);
        *tb = _mm256_andnot_si256(_mm256_and_si256(hi, sel), *tb);
    }
    return --*need == 0;
}

/* Half h of the filter table (values with low byte below 128, or not)
 * in both lanes of a register, as avx2_member wants it. */
AVX2 static inline __m256i avx2_filter_half(const sparse *sp, int h)
{
    return _mm256_broadcastsi128_si256(
        _mm_loadu_si128((const __m128i *)(const void *)(sp->want_tab +
                                                         16 * h)));
}

/* Step 3's scan over pairs (a, rem - a), a < end, for one-byte values:
 * 32 pairs at a time through the filter, hits confirmed one by one. */
AVX2 static inline int avx2_scan1(sparse *sp, const uint8_t *g, size_t rem,
                                  size_t a, size_t end, size_t *need)
{
    if (sp->filter) {
        const size_t full = a + (end - a) / 32 * 32;
        __m256i ta = avx2_filter_half(sp, 0), tb = avx2_filter_half(sp, 1);
        const __m256i rev = _mm256_setr_epi8(
            15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0, 15, 14, 13,
            12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0);
        /* two blocks of 32 per round: half the branches where hits are
         * rare (the long tail of a scan) */
        for (; a < full; a += a + 32 < full ? 64 : 32) {
            __m256i x0 =
                _mm256_loadu_si256((const __m256i *)(const void *)(g + a));
            __m256i y0 = _mm256_loadu_si256(
                (const __m256i *)(const void *)(g + rem - a - 31));
            __m256i x1 = _mm256_setzero_si256(), y1;
            uint64_t hits;
            y0 = _mm256_shuffle_epi8(y0, rev);
            y0 = _mm256_permute2x128_si256(y0, y0, 0x01);
            x0 = _mm256_xor_si256(x0, y0);
            hits = avx2_member(x0, ta, tb);
            if (a + 32 < full) {
                x1 = _mm256_loadu_si256(
                    (const __m256i *)(const void *)(g + a + 32));
                y1 = _mm256_loadu_si256(
                    (const __m256i *)(const void *)(g + rem - a - 63));
                y1 = _mm256_shuffle_epi8(y1, rev);
                y1 = _mm256_permute2x128_si256(y1, y1, 0x01);
                x1 = _mm256_xor_si256(x1, y1);
                hits |= (uint64_t)avx2_member(x1, ta, tb) << 32;
            }
            while (hits) {
                size_t b = a + (size_t)__builtin_ctzll(hits);
                sg_value x = (sg_value)(g[b] ^ g[rem - b]);
                __m256i e = _mm256_set1_epi8((char)x);
                if (avx2_found(sp, x, need, &ta, &tb))
                    return 1;
                /* the block's other pairs with this xor: nothing more
                 * to find in them (early on, a third of the hits) */
                hits &= ~((uint64_t)(unsigned)_mm256_movemask_epi8(
                              _mm256_cmpeq_epi8(x0, e)) |
                          (uint64_t)(unsigned)_mm256_movemask_epi8(
                              _mm256_cmpeq_epi8(x1, e))
                              << 32);
            }
        }
    }
    return sparse1_scan(sp, g, rem, a, end, need);
}

/* For two-byte values: the lanes i < 32 of the pairs (a + i, rem - a - i)
 * whose xor has its low byte in the filter (ta, tb). */
AVX2 static inline unsigned avx2_hits2(const uint16_t *g, size_t rem,
                                       size_t a, __m256i ta, __m256i tb)
{
    const __m256i rev = _mm256_setr_epi8(14, 15, 12, 13, 10, 11, 8, 9, 6, 7,
                                         4, 5, 2, 3, 0, 1, 14, 15, 12, 13,
                                         10, 11, 8, 9, 6, 7, 4, 5, 2, 3, 0, 1);
    const __m256i low = _mm256_set1_epi16(0xFF);
    __m256i x0 = _mm256_loadu_si256((const __m256i *)(const void *)(g + a));
    __m256i x1 =
        _mm256_loadu_si256((const __m256i *)(const void *)(g + a + 16));
    __m256i y0 = _mm256_loadu_si256(
        (const __m256i *)(const void *)(g + rem - a - 15));
    __m256i y1 = _mm256_loadu_si256(
        (const __m256i *)(const void *)(g + rem - a - 31));

    y0 = _mm256_shuffle_epi8(y0, rev);
    y0 = _mm256_permute2x128_si256(y0, y0, 0x01);
    y1 = _mm256_shuffle_epi8(y1, rev);
    y1 = _mm256_permute2x128_si256(y1, y1, 0x01);
    x0 = _mm256_and_si256(_mm256_xor_si256(x0, y0), low);
    x1 = _mm256_and_si256(_mm256_xor_si256(x1, y1), low);
    return avx2_member(
        _mm256_permute4x64_epi64(_mm256_packus_epi16(x0, x1), 0xD8), ta, tb);
}

/* The same as avx2_scan1 for two-byte values, filtering on the low byte
 * of the xor (hits are confirmed on the wanted set). */
AVX2 static inline int avx2_scan2(sparse *sp, const uint16_t *g, size_t rem,
                                  size_t a, size_t end, size_t *need)
{
    if (sp->filter) {
        const size_t full = a + (end - a) / 32 * 32;
        __m256i ta = avx2_filter_half(sp, 0), tb = avx2_filter_half(sp, 1);
        for (; a < full; a += a + 32 < full ? 64 : 32) {
            uint64_t hits = avx2_hits2(g, rem, a, ta, tb);
            if (a + 32 < full)
                hits |= (uint64_t)avx2_hits2(g, rem, a + 32, ta, tb) << 32;
            for (; hits; hits &= hits - 1) {
                size_t b = a + (size_t)__builtin_ctzll(hits);
                if (avx2_found(sp, (sg_value)(g[b] ^ g[rem - b]), need, &ta,
                               &tb))
                    return 1;
            }
        }
    }
    return sparse2_scan(sp, g, rem, a, end, need);
}
#endif

SPARSE_STEP3(sparse1, uint8_t, sparse1_scan, 0, )
SPARSE_STEP3(sparse2, uint16_t, sparse2_scan, 0, )
SPARSE_STEP3(sparse4, uint32_t, sparse4_scan, 0, )
#ifdef SPARSE_AVX2
/* With AVX2 step 3 is compiled for it as a whole, so that the filter
 * loop is inlined into the scan. */
SPARSE_STEP3(sparse1v, uint8_t, avx2_scan1, 1, AVX2)
SPARSE_STEP3(sparse2v, uint16_t, avx2_scan2, 1, AVX2)
#define STEP3_1(sp, ...)                                                    \
    ((sp)->simd ? sparse1v_step3(sp, __VA_ARGS__)                           \
                : sparse1_step3(sp, __VA_ARGS__))
#define STEP3_2(sp, ...)                                                    \
    ((sp)->simd ? sparse2v_step3(sp, __VA_ARGS__)                           \
                : sparse2_step3(sp, __VA_ARGS__))
#else
#define STEP3_1 sparse1_step3
#define STEP3_2 sparse2_step3
#endif
SPARSE_METHODS(sparse1, uint8_t, STEP3_1)
SPARSE_METHODS(sparse2, uint16_t, STEP3_2)
SPARSE_METHODS(sparse4, uint32_t, sparse4_step3)

/*
 * The small path's common case with one-byte values (Kayles, 0.1777):
 * heaps far enough past the last rare heap that the flat list covers
 * step 1 (see NAME_small) and that no one-heap or whole-heap move is cut
 * short.  Most such heaps get a common value below size / 2, which
 * changes nothing but the sequence and the histogram, so they are taken
 * one after another here without the general bookkeeping.  The same
 * holds while every value is below 128 (size <= WIDE_SIZE: 0.56, 0.354),
 * with each set of values in two words; other heaps of that size take the
 * stamps (sparse_run).
 */
static int small_fast(sparse *sp, const sg_seq *s, size_t m)
{
    size_t nr = sp->nrare;

    /* (its heap loop keeps the lists of sparse_lists: no parity mask) */
    if (s->width != 1 ||
        sp->size > (sp->no_wide ? SMALL_SIZE : WIDE_SIZE) ||
        m <= sp->kone || sp->pmask ||
        m < sp->kmax + 2 + 2 * (nr ? sp->rpos[nr - 1] : 0))
        return 0;
    if ((sp->tok && sp->tnrare == nr && sp->tgen == sp->rgen) ||
        flat_build(sp) == 0) {
        /* (a choice costs a few ms: not for a short run, such as the
         * early rounds of sg_analyse, which each start afresh) */
        if (m >= sp->xnext && sp->target - m >= XWORTH)
            extra_build(sp, s, m);
        return 1;
    }
    return 0;
}

/* Step 1's far terms of a block (avx2_block_shuf) with the widest
 * vectors the CPU has, and whether any value read was 64 or more. */
static inline __attribute__((always_inline)) int
block_terms(const sparse *sp, const uint8_t *g, size_t mp, const size_t *to,
            const sg_value *tv, size_t n, sg_value flip, uint64_t *out)
{
    const uint32_t *tx = sp->bvx + (tv - sp->bval);

    if (sp->simd > 1)
        return avx512_block_body(g, mp, to, tx, n, flip, out);
    return avx2_block_shuf(g, mp, to, tx, n, flip, out);
}

/* Value x into the set (lo, hi): values below 64 in lo, 64..127 in hi
 * (only with wide; otherwise every x is below 64). */
#define SET_BIT(lo, hi, x)                                                  \
    do {                                                                    \
        unsigned x_ = (unsigned)(x);                                        \
        if (wide) {                                                         \
            uint64_t b_ = (uint64_t)1 << (x_ & 63);                         \
            uint64_t h_ = (uint64_t)0 - (uint64_t)(x_ >> 6);                \
            hi |= b_ & h_;                                                  \
            lo |= b_ & ~h_;                                                 \
        } else {                                                            \
            lo |= (uint64_t)1 << x_;                                        \
        }                                                                   \
    } while (0)

/* The same three steps as sparse1_small for heaps s->n, s->n + 1, ...
 * up to e - 1 (small_fast holding for the first): 0 when all got plain
 * values, now stored; 1 when heap s->n got a rare value or one of size /
 * 2, which is left in *out for the caller to store.  Compiled without and
 * with AVX2 (see small_run1), so that the block scan is inlined and, with
 * par = 0 (rules without parity masks), the histogram count is by value
 * alone, as in Kayles' loop before the parity existed; with wide for
 * values below 128, without it (one word per set, as fast as before the
 * second word existed) for values below 64. */
static inline __attribute__((always_inline)) int
small_run_body(sparse *sp, sg_seq *s, size_t e, sg_value *out, int simd,
               int par, int wide)
{
    uint8_t *g = s->data;
    const size_t off = sp->off; /* (kept in a register: g aliases sp) */
    const unsigned half = (unsigned)(sp->size / 2);
    const uint64_t all = wide || half >= 64 ? ~(uint64_t)0
                                            : ((uint64_t)1 << half) - 1;
    /* the common and rare values below half (sparse_lists) */
    const uint64_t cb0 = wide ? sp->cmask[0] : sp->cbits;
    const uint64_t rb0 = wide ? sp->rmask[0] : sp->rbits;
    const uint64_t cb1 = wide ? sp->cmask[1] : 0;
    const uint64_t rb1 = wide ? sp->rmask[1] : 0;
    const size_t *to;
    const sg_value *tv;
    const size_t ns = sp->nsplit;
    size_t m, i, j, blk_m = SIZE_MAX;
    uint64_t bterms[BLOCK_HEAPS] = {0}, bterms_hi[BLOCK_HEAPS] = {0};
    uint64_t mterms[MID_HEAPS] = {0}, mterms_hi[MID_HEAPS] = {0};

    for (m = s->n; m < e; m++) {
        uint64_t o0 = 0, o1 = 0, h0 = 0, h1 = 0, miss, miss_hi, want,
                 want_hi;
        size_t nt = sp->nterm + sp->none;
        sg_value v;

        if (simd && m % BLOCK_HEAPS == 0 && m + BLOCK_HEAPS <= e &&
            sp->nfar + sp->nextra) {
            /* the far terms of the whole block (its heaps follow in this
             * loop unless one is rare, which ends the loop) */
            const size_t nb = sp->nfar + sp->nextra;
            const size_t *bo = sp->boff + sp->nnear;
            const sg_value *bv = sp->bval + sp->nnear;
            if (!wide && sp->simd == 1)
                avx2_block_shuf0(g, m - off, bo,
                                 sp->bvx + (bv - sp->bval), nb, bterms);
            else if (!wide)
                block_terms(sp, g, m - off, bo, bv, nb, 0, bterms);
            else if (block_terms(sp, g, m - off, bo, bv, nb, 0, bterms))
                block_terms(sp, g, m - off, bo, bv, nb, 64, bterms_hi);
            else if (sp->nfar_hi)
                /* every value read is below 64: only the terms of values
                 * of 64 or more (first in the list) give 64..127 (0.354:
                 * 0.03 % of its heaps have such values, but some rare
                 * heaps do, and every block took the second pass) */
                block_terms(sp, g, m - off, bo, bv, sp->nfar_hi, 64,
                            bterms_hi);
            else
                memset(bterms_hi, 0, sizeof bterms_hi);
            blk_m = m;
        }
        /* (blk_m <= m: before the first block, m - SIZE_MAX is m + 1) */
        if (blk_m <= m && m - blk_m < BLOCK_HEAPS) {
            const size_t nc = sp->nclose, nm = sp->nnear - nc;
            if ((m - blk_m) % MID_HEAPS == 0 && nm) {
                /* the block's terms of MID_HEAPS <= off < BLOCK_HEAPS
                 * for its next MID_HEAPS heaps */
                if (avx2_mid_terms(g, m - off, sp->boff + nc, sp->bval + nc,
                                   nm, 0, mterms) &&
                    wide)
                    avx2_mid_terms(g, m - off, sp->boff + nc,
                                   sp->bval + nc, nm, 64, mterms_hi);
                else if (wide)
                    memset(mterms_hi, 0, sizeof mterms_hi);
            }
            to = sp->boff;
            tv = sp->bval;
            nt = nc;
            o1 = bterms[m - blk_m] | mterms[(m - blk_m) % MID_HEAPS];
            if (wide)
                h1 = bterms_hi[m - blk_m] |
                     mterms_hi[(m - blk_m) % MID_HEAPS];
        } else {
            to = sp->toff;
            tv = sp->tval;
        }

        /* 1: every option but the pairs of two common parts */
        {
            const uint8_t *gm = g + (m - off);
            uint64_t o2 = 0, o3 = 0, h2 = 0, h3 = 0;
            for (i = 0; i + 3 < nt; i += 4) {
                SET_BIT(o0, h0, tv[i] ^ gm[-(ptrdiff_t)to[i]]);
                SET_BIT(o1, h1, tv[i + 1] ^ gm[-(ptrdiff_t)to[i + 1]]);
                SET_BIT(o2, h2, tv[i + 2] ^ gm[-(ptrdiff_t)to[i + 2]]);
                SET_BIT(o3, h3, tv[i + 3] ^ gm[-(ptrdiff_t)to[i + 3]]);
            }
            for (; i < nt; i++)
                SET_BIT(o0, h0, tv[i] ^ gm[-(ptrdiff_t)to[i]]);
            o0 |= o2 | o3;
            h0 |= h2 | h3;
        }
        miss = all & ~(o0 | o1);
        miss_hi = wide ? ~(h0 | h1) : 0;
        if (!(miss | miss_hi)) {
            *out = (sg_value)half;
            return 1;
        }
        /* 2 */
        if (miss & cb0)
            v = (sg_value)__builtin_ctzll(miss & cb0);
        else if (wide && (miss_hi & cb1))
            v = (sg_value)(64 + __builtin_ctzll(miss_hi & cb1));
        else
            v = (sg_value)half;
        /* 3 */
        want = miss & rb0 & below_lo(v);
        want_hi = wide ? miss_hi & rb1 & below_hi(v) : 0;
        if (want | want_hi) {
            size_t a0, blk, maxtop = 0;
            sp->searches++;
            sp->cut = 0;
            for (j = 0; j < ns; j++) {
                size_t rem = m - sp->split[j];
                sp->rem[j] = rem - off;
                sp->top[j] = kept_top(
                    sp, rem, rem / 2 - (sp->split_uneq[j] && rem % 2 == 0));
                if (sp->top[j] > maxtop)
                    maxtop = sp->top[j];
            }
            for (a0 = 1, blk = 32; (want | want_hi) && a0 <= maxtop;
                 a0 += blk) {
                if (a0 > 1 && blk < SPARSE_BLOCK)
                    blk *= 2;
                for (j = 0; (want | want_hi) && j < ns; j++) {
                    size_t a = a0, end = a0 + blk, rem = sp->rem[j];
                    if (end > sp->top[j] + 1)
                        end = sp->top[j] + 1;
                    if (simd && a < end)
                        avx2_small_scan(g, rem, &a, end, &want, &want_hi,
                                        wide);
                    for (; (want | want_hi) && a < end; a++) {
                        unsigned x = (unsigned)(g[a] ^ g[rem - a]);
                        if (wide && x >= 64)
                            want_hi &= ~((uint64_t)1 << (x - 64));
                        else
                            want &= ~((uint64_t)1 << x);
                    }
                }
            }
            if (want | want_hi) {
                sp->full_scans++;
                sp->deep_fail |= sp->cut;
                v = want ? (sg_value)__builtin_ctzll(want)
                         : (sg_value)(64 + __builtin_ctzll(want_hi));
            }
        }
        /* (no parity mask here: small_fast; so the plain test) */
        if (v >= half || is_rare(sp->mask, v) || sp->deep_fail) {
            *out = v;
            return 1;
        }
        g[m - off] = (uint8_t)v;
        s->n = m + 1;
        if (v > s->max)
            s->max = v;
        sp->hist[par ? (size_t)v << 1 | (m & 1) : (size_t)v]++;
    }
    return 0;
}
#undef SET_BIT

#ifdef SPARSE_AVX2
/* With AVX2: p for rules with parity masks (par_ok: hist by parity too),
 * w for values below 128. */
#define SMALL_RUN_AVX2(NAME, PAR, WIDE)                                     \
    __attribute__((target("avx2,bmi2"))) static int NAME(                   \
        sparse *sp, sg_seq *s, size_t e, sg_value *out)                     \
    {                                                                       \
        return small_run_body(sp, s, e, out, 1, PAR, WIDE);                 \
    }
SMALL_RUN_AVX2(small_run1_avx2, 0, 0)
SMALL_RUN_AVX2(small_run1_avx2p, 1, 0)
SMALL_RUN_AVX2(small_run1_avx2w, 0, 1)
SMALL_RUN_AVX2(small_run1_avx2pw, 1, 1)
#undef SMALL_RUN_AVX2
#endif

/* The portable loop, wide or not. */
static int small_run1_plain(sparse *sp, sg_seq *s, size_t e, sg_value *out)
{
    return small_run_body(sp, s, e, out, 0, sp->par_ok, 0);
}

static int small_run1_plainw(sparse *sp, sg_seq *s, size_t e, sg_value *out)
{
    return small_run_body(sp, s, e, out, 0, sp->par_ok, 1);
}

static int small_run1(sparse *sp, sg_seq *s, size_t e, sg_value *out)
{
    int wide = sp->size > SMALL_SIZE;

#ifdef SPARSE_AVX2
    if (sp->simd && wide)
        return sp->par_ok ? small_run1_avx2pw(sp, s, e, out)
                          : small_run1_avx2w(sp, s, e, out);
    if (sp->simd)
        return sp->par_ok ? small_run1_avx2p(sp, s, e, out)
                          : small_run1_avx2(sp, s, e, out);
#endif
    return wide ? small_run1_plainw(sp, s, e, out)
                : small_run1_plain(sp, s, e, out);
}

/* ------------------------------------------------------------------ */
/* The helper thread                                                    */
/* ------------------------------------------------------------------ */

/* The marks with tag t on the helper's stamps, for the HLANES heaps of a
 * group, as bit sets out[l * bw ...].  Every option value is below size /
 * 2 (every value is, and so is every xor of two), so only those stamps
 * can hold marks. */
static void stamps_to_bits(const sparse *sp, hstamp_t t, uint64_t *out)
{
    const hstamp_t *hs = sp->hstamp;
    const size_t bw = sp->bw, half = sp->size / 2;
    size_t x, l;

    memset(out, 0, HLANES * bw * sizeof *out);
    for (x = 0; x < half; x++) {
        const hstamp_t *q = hs + x * HLANES;
        for (l = 0; l < HLANES; l++)
            out[l * bw + x / 64] |= (uint64_t)(q[l] == t) << (x % 64);
    }
}

#ifdef SPARSE_AVX2
/* The same with AVX2 and BMI2: first the 16 lanes that have each value
 * as a 16-bit word (two compares of 8 stamps), then per lane and 16
 * values a shift moving that lane's bit to the top of each word, a byte
 * sign mask and a bit extraction.  (size is a power of two >= 256, so
 * size / 2 is a multiple of 64.) */
__attribute__((target("avx2,bmi2"))) static void
avx2_stamps_to_bits(const sparse *sp, hstamp_t t, uint64_t *out)
{
    const hstamp_t *hs = sp->hstamp;
    const size_t bw = sp->bw, half = sp->size / 2;
    const __m256i tv = _mm256_set1_epi32((int)t);
    uint16_t lanes[THREAD_MAX_SIZE / 2];
    size_t x, l;

    for (l = 0; l < HLANES; l++)
        memset(out + l * bw + half / 64, 0, (bw - half / 64) * sizeof *out);
    for (x = 0; x < half; x++) {
        const __m256i *q = (const __m256i *)(const void *)(hs + x * HLANES);
        unsigned lo = (unsigned)_mm256_movemask_ps(_mm256_castsi256_ps(
            _mm256_cmpeq_epi32(_mm256_loadu_si256(q), tv)));
        unsigned hi = (unsigned)_mm256_movemask_ps(_mm256_castsi256_ps(
            _mm256_cmpeq_epi32(_mm256_loadu_si256(q + 1), tv)));
        lanes[x] = (uint16_t)(lo | hi << 8);
    }
    for (x = 0; x < half; x += 16) {
        __m256i v =
            _mm256_loadu_si256((const __m256i *)(const void *)(lanes + x));
        for (l = 0; l < HLANES; l++) {
            __m256i sh = _mm256_sll_epi16(v, _mm_cvtsi32_si128(15 - (int)l));
            uint32_t m = (uint32_t)_mm256_movemask_epi8(sh);
            uint16_t *o = (uint16_t *)(void *)(out + l * bw);
            o[x / 16] = (uint16_t)_pext_u32(m, 0xAAAAAAAAu);
        }
    }
}
#endif

static void group_done(sparse *sp);

/* The helper's part of a job: mark every group of the superblock on its
 * stamps, with a fresh tag per group, and hand the marks over as bits. */
static void mark_super(sparse *sp, const sparse_job *jb)
{
    size_t gi;

    for (gi = 0; gi < HGROUPS; gi++) {
        size_t b = jb->b + gi * HLANES, fs = helper_slot(b);
        uint64_t *out = sp->obits + b % (2 * SUPER) * sp->bw;
        hstamp_t t;
        if (sp->htag >= (hstamp_t)1 << 30) {
            memset(sp->hstamp, 0, HLANES * sp->size * sizeof *sp->hstamp);
            sp->htag = 0;
        }
        t = ++sp->htag;
        switch (jb->width) {
        case 1:
            sparse1_hblock(sp, jb->data, b, jb->done, jb->nsnap, sp->hstamp,
                           fs, t, jb->dense, jb->keep);
            break;
        case 2:
            sparse2_hblock(sp, jb->data, b, jb->done, jb->nsnap, sp->hstamp,
                           fs, t, jb->dense, jb->keep);
            break;
        default:
            sparse4_hblock(sp, jb->data, b, jb->done, jb->nsnap, sp->hstamp,
                           fs, t, jb->dense, jb->keep);
            break;
        }
#ifdef SPARSE_AVX2
        if (sp->simd && sp->size >= 256)
            avx2_stamps_to_bits(sp, t, out);
        else
#endif
            stamps_to_bits(sp, t, out);
        group_done(sp);
    }
}

/* Room for the helper's stamps and output at the current size; the
 * helper must be idle.  -1 when out of memory. */
static int helper_buffers(sparse *sp)
{
    if (sp->hsize == sp->size)
        return 0;
    free(sp->hstamp);
    free(sp->obits);
    sp->hstamp = calloc(HLANES * sp->size, sizeof *sp->hstamp);
    sp->obits = malloc(2 * SUPER * sp->bw * sizeof *sp->obits);
    sp->htag = 0;
    sp->hsize = sp->hstamp && sp->obits ? sp->size : 0;
    return sp->hsize ? 0 : -1;
}

static inline void cpu_relax(void)
{
#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
    __builtin_ia32_pause();
#endif
}

#ifdef SPARSE_THREADS
/* Wake this thread if it sleeps waiting for the helper. */
static void wake_main(sparse *sp)
{
    if (atomic_load(&sp->m_sleep)) {
        pthread_mutex_lock(&sp->mu);
        pthread_cond_broadcast(&sp->cv);
        pthread_mutex_unlock(&sp->mu);
    }
}

static void group_done(sparse *sp)
{
    atomic_fetch_add(&sp->groups_done, 1);
    wake_main(sp);
}

static void *helper_main(void *arg)
{
    sparse *sp = arg;

    for (;;) {
        unsigned long j = atomic_load(&sp->done_seq);
        unsigned spins = 0;
        sparse_job jb;
        /* A job comes every few tens of microseconds while the helper
         * pays: spin for it, sleep only when none comes for a while. */
        while (atomic_load(&sp->job_seq) == j && !atomic_load(&sp->quit) &&
               spins++ < SPIN_LIMIT)
            cpu_relax();
        if (atomic_load(&sp->job_seq) == j && !atomic_load(&sp->quit)) {
            pthread_mutex_lock(&sp->mu);
            atomic_store(&sp->h_sleep, 1);
            while (atomic_load(&sp->job_seq) == j && !atomic_load(&sp->quit))
                pthread_cond_wait(&sp->cv, &sp->mu);
            atomic_store(&sp->h_sleep, 0);
            pthread_mutex_unlock(&sp->mu);
        }
        if (atomic_load(&sp->quit))
            break;
        jb = sp->jobs[j % 2];
        mark_super(sp, &jb);
        atomic_store(&sp->done_seq, j + 1);
        wake_main(sp);
    }
    return NULL;
}

/* Queue a job for the helper (at most one other may be pending),
 * starting it the first time.  0 when it could not be started, or there
 * is one processor only (the caller then marks everything itself). */
static int helper_post(sparse *sp, const sparse_job *jb)
{
    unsigned long j;

    if (!sp->started) {
        if (sysconf(_SC_NPROCESSORS_ONLN) < 2) {
            sp->no_threads = 1;
            return 0;
        }
        if (pthread_mutex_init(&sp->mu, NULL))
            return 0;
        if (pthread_cond_init(&sp->cv, NULL)) {
            pthread_mutex_destroy(&sp->mu);
            return 0;
        }
        atomic_init(&sp->quit, 0);
        atomic_init(&sp->h_sleep, 0);
        atomic_init(&sp->m_sleep, 0);
        atomic_init(&sp->job_seq, 0);
        atomic_init(&sp->done_seq, 0);
        atomic_init(&sp->groups_done, 0);
        if (pthread_create(&sp->thread, NULL, helper_main, sp)) {
            pthread_cond_destroy(&sp->cv);
            pthread_mutex_destroy(&sp->mu);
            sp->no_threads = 1;
            return 0;
        }
        sp->started = 1;
    }
    j = atomic_load(&sp->job_seq);
    sp->jobs[j % 2] = *jb;
    atomic_store(&sp->job_seq, j + 1);
    if (atomic_load(&sp->h_sleep)) {
        pthread_mutex_lock(&sp->mu);
        pthread_cond_broadcast(&sp->cv);
        pthread_mutex_unlock(&sp->mu);
    }
    return 1;
}

/* Wait until `counter` reaches `target`: spin a while, then sleep.
 * Returns whether it had to wait at all. */
static int helper_until(sparse *sp, _Atomic unsigned long *counter,
                        unsigned long target)
{
    unsigned spins = 0;

    if (atomic_load(counter) >= target)
        return 0;
    while (atomic_load(counter) < target && spins++ < SPIN_LIMIT)
        cpu_relax();
    if (atomic_load(counter) < target) {
        pthread_mutex_lock(&sp->mu);
        atomic_store(&sp->m_sleep, 1);
        while (atomic_load(counter) < target)
            pthread_cond_wait(&sp->cv, &sp->mu);
        atomic_store(&sp->m_sleep, 0);
        pthread_mutex_unlock(&sp->mu);
    }
    return 1;
}

/* Wait until the helper has marked the first `groups` groups of job
 * number `job` (counting from 0); 1 when it had to wait. */
static int helper_group_wait(sparse *sp, unsigned long job, size_t groups)
{
    return helper_until(sp, &sp->groups_done,
                        job * HGROUPS + groups);
}

/* Wait until every job handed out is done (*out: whether any may be
 * pending), before changing what the helper reads. */
static void helper_wait(sparse *sp, int *out)
{
    if (!*out)
        return;
    helper_until(sp, &sp->done_seq, atomic_load(&sp->job_seq));
    *out = 0;
}

static void helper_stop(sparse *sp, int *out)
{
    helper_wait(sp, out);
    if (!sp->started)
        return;
    pthread_mutex_lock(&sp->mu);
    atomic_store(&sp->quit, 1);
    pthread_cond_broadcast(&sp->cv);
    pthread_mutex_unlock(&sp->mu);
    pthread_join(sp->thread, NULL);
    pthread_cond_destroy(&sp->cv);
    pthread_mutex_destroy(&sp->mu);
    sp->started = 0;
}
#else
static void group_done(sparse *sp)
{
    (void)sp;
}

static int helper_post(sparse *sp, const sparse_job *jb)
{
    (void)sp;
    (void)jb;
    return 0;
}

static int helper_group_wait(sparse *sp, unsigned long job, size_t groups)
{
    (void)sp;
    (void)job;
    (void)groups;
    return 0;
}

static void helper_wait(sparse *sp, int *out)
{
    (void)sp;
    *out = 0;
}

static void helper_stop(sparse *sp, int *out)
{
    (void)sp;
    *out = 0;
}
#endif

/* Make room for `more` rare values without moving the arrays later (the
 * helper reads them). */
static int rare_reserve(sparse *sp, size_t more)
{
    size_t na = sp->ralloc ? sp->ralloc : 256;
    size_t *np;
    sg_value *nv;

    while (na < sp->nrare + more)
        na *= 2;
    if (na == sp->ralloc)
        return 0;
    if (!(np = realloc(sp->rpos, na * sizeof *np)))
        return -1;
    sp->rpos = np;
    if (!(nv = realloc(sp->rval, na * sizeof *nv)))
        return -1;
    sp->rval = nv;
    sp->ralloc = na;
    return 0;
}

static double wall_clock(void)
{
    struct timespec t;

    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* The helper-or-not trials (see TRIAL). */
typedef struct trials {
    double last;        /* when the current superblock started, or 0 */
    int mode;           /* whether it had the helper's marks, or -1 */
    double time[2];     /* superblock times, without and with the helper */
    unsigned count[2];
    size_t done;        /* superblocks seen */
    int best;           /* the way chosen after the last trial */
} trials;

/* Account the superblock just finished (which ran with the helper's
 * marks when `mode`) and say whether the next one should get a helper
 * job posted. */
static int trials_next(trials *tr, int mode)
{
    double t = wall_clock();
    size_t phase;

    phase = tr->done++ % TRIAL_CYCLE;
    if (phase == 0) {
        tr->time[0] = tr->time[1] = 0;
        tr->count[0] = tr->count[1] = 0;
    } else if (phase <= 2 * TRIAL + 1 && tr->last > 0 && tr->mode >= 0) {
        tr->time[tr->mode] += t - tr->last;
        tr->count[tr->mode]++;
    }
    tr->last = t;
    tr->mode = mode;
    if (phase == 2 * TRIAL + 1 && tr->count[0] && tr->count[1])
        tr->best = tr->time[1] / tr->count[1] < tr->time[0] / tr->count[0];
    /* Posting now decides the mode of the superblock after the next. */
    return phase < TRIAL ? 1 : phase <= 2 * TRIAL ? 0 : tr->best;
}

/*
 * Deep runs (sg_deep, docs/DEEP.md).  Once its values leave memory a run
 * reads, for heap m: one-heap options m - k (k <= kone), pairs (r, m - k
 * - r) with r in R (so m - k - r >= m - kmax - last rare heap), the
 * helper's and the blocks' extra pairs (small parts below 2 SUPER +
 * BALANCE_MAX + HLANES), the small path's chosen
 * pairs (small parts below 32 + XCAND, chosen from the last XSAMPLE
 * heaps: extra_build reads back to m - XSAMPLE - kmax - 32 - XCAND and
 * step 1's terms of those heaps), and step 3's
 * pairs (a, m - k - a), which kept_top stops at the kept ones.  So a
 * window of W values behind m and G(0..W-1) hold all of it as long as W
 * is at least DEEP_MARGIN above kmax + kone + the last rare heap; a new
 * rare heap later, or a step 3 cut short before it found every value it
 * wanted, stops the run (deep_stop) instead of being guessed.
 */
#define DEEP_MARGIN (4 * SUPER + BALANCE_MAX + 4 * HLANES + 64)

static sg_status deep_stop(const sg_seq *s, const sparse *sp, size_t m,
                           sg_value v, sg_error *err)
{
    if (sp->deep_fail)
        return sg_error_set(
            err, SG_E_UNKNOWN, -1,
            "deep run stopped at heap %zu: its value needs pairs beyond the "
            "%zu values kept at each end (it may be a new rare value); "
            "G(0..%zu) are exact, a larger --window run from the start may "
            "pass it",
            m, s->keep, m - 1);
    return sg_error_set(
        err, SG_E_UNKNOWN, -1,
        "deep run stopped at heap %zu: its value %lu is a new rare value, "
        "which later heaps pair with values no longer kept; G(0..%zu) are "
        "exact, a larger --window run from the start may pass it",
        m, (unsigned long)v, m - 1);
}

/*
 * A frozen run cannot change its mask (R would have to be rebuilt from
 * values it no longer holds), except by bits above every value so far: no
 * heap's class depends on those yet.  Every option is below 2^b while the
 * values are (b = the bit length of the largest), so the first value of
 * b bits is exactly 2^b; with bit b in the mask it is common, found by
 * steps 2 and 3 as usual, where without it would be a new rare value and
 * stop the run (Grundy's game at heap 7,250,049, value 256).  So the
 * mask keeps bit b, from the freeze on and each time b grows.  The helper
 * must be idle.
 */
static void deep_mask_top(sparse *sp, sg_value max)
{
    unsigned b = 0;

    while (b < 30 && ((sg_value)1 << b) <= max)
        b++;
    if (b < 30 && !(sp->mask & ((uint32_t)1 << b))) {
        sp->mask |= (uint32_t)1 << b;
        sparse_lists(sp);
    }
}

/* Move the window on before the superblock at h (the helper idle): the
 * values [hashed, h - W) are hashed and leave memory; the first time the
 * prefix G(0..W-1) is set aside and the mask is fixed for good. */
static sg_status deep_slide(sparse *sp, sg_seq *s, sg_deep *d, size_t h,
                            sg_error *err)
{
    const size_t w = d->window, wd = s->width;
    size_t last = sp->nrare ? sp->rpos[sp->nrare - 1] : 0;
    size_t need = sp->kmax + sp->kone + last + DEEP_MARGIN;

    if (need > w)
        return sg_error_set(
            err, SG_E_UNKNOWN, -1,
            "deep run stopped at heap %zu: a window of %zu values is too "
            "small for this rule (last rare heap %zu); use --window %zu or "
            "more",
            h, w, last, 2 * need);
    if (!s->off) {
        s->keep = w;
        d->frozen = 1;
        sp->forced = 1;
        deep_mask_top(sp, s->max);
    }
    sg_deep_hash_async(d, h - w);
    memmove(s->data + s->keep * wd, s->data + (h - w - s->off) * wd, w * wd);
    s->off = h - w - s->keep;
    sp->off = s->off;
    sp->keep = s->keep;
    return SG_OK;
}

/* The sparse state of a deep run that left memory: its frozen mask, R and
 * counts, which cannot be recomputed from the values.  -1: out of memory. */
static int deep_enter(sparse *sp, const sg_deep *d)
{
    size_t i, nh = 2 * sp->size < d->nhist ? 2 * sp->size : d->nhist;

    sp->forced = 1;
    sp->mask = d->mask;
    sp->pmask = (uint32_t)d->parity;
    sp->pshift = (uint32_t)d->pshift;
    sp->keep = d->seq.keep;
    sp->off = d->seq.off;
    sparse_lists(sp);
    deep_mask_top(sp, d->seq.max); /* (a checkpoint of an older build) */
    memcpy(sp->hist, d->hist, nh * sizeof *sp->hist);
    sp->nrare = 0;
    sp->rgen++;
    for (i = 0; i < d->nrare; i++)
        if (rare_push(sp, d->rpos[i], d->rval[i]))
            return -1;
    return 0;
}

/* Hand the sparse state back to the deep run.  -1: out of memory. */
static int deep_leave(const sparse *sp, sg_deep *d)
{
    void *p;

    d->mask = sp->mask;
    d->parity = (int)sp->pmask;
    d->pshift = (int)sp->pshift;
    if (sp->nrare > d->nrare || !d->rpos) {
        if (!(p = realloc(d->rpos, (sp->nrare + 1) * sizeof *d->rpos)))
            return -1;
        d->rpos = p;
        if (!(p = realloc(d->rval, (sp->nrare + 1) * sizeof *d->rval)))
            return -1;
        d->rval = p;
    }
    memcpy(d->rpos, sp->rpos, sp->nrare * sizeof *d->rpos);
    memcpy(d->rval, sp->rval, sp->nrare * sizeof *d->rval);
    d->nrare = sp->nrare;
    if (2 * sp->size != d->nhist) {
        if (!(p = realloc(d->hist, 2 * sp->size * sizeof *d->hist)))
            return -1;
        d->hist = p;
        d->nhist = 2 * sp->size;
    }
    memcpy(d->hist, sp->hist, d->nhist * sizeof *d->hist);
    d->full_scans += sp->full_scans;
    return 0;
}

/* sg_enumerate_sparse, or with d a deep run (s = &d->seq). */
static sg_status sparse_run(sg_seq *s, const sg_rule *r, size_t n,
                            int64_t mask, sg_sparse_stats *stats,
                            const sg_enum_options *opt, sg_deep *d,
                            sg_error *err)
{
    sparse sp;
    sg_status st = SG_OK;
    size_t h, next_pick, next_poll = 0, job_b = 0;
    unsigned long job_no = 0, posted = 0;
    int grew = 0, out = 0, job_ok = 0;
    /* the test switches of opt (sgexplore.h), read once */
    int pin = opt && opt->pin_helper;
    long pin_balance = pin ? opt->pin_balance : 0;
    trials tr;

    if (!sg_sparse_applicable(r)) {
        if (stats)
            memset(stats, 0, sizeof *stats);
        return sg_enumerate_naive(s, r, n, opt, err);
    }
    if (mask != SG_SPARSE_AUTO &&
        (mask < 0 || (mask & ~(SG_SPARSE_PARITY_INV | (int64_t)UINT32_MAX)) ||
         (mask & SG_SPARSE_PARITY_INV) == (SG_SPARSE_PARITY_INV ^
                                           SG_SPARSE_PARITY)))
        return sg_error_set(err, SG_E_INPUT, -1,
                            "sparse mask %lld: not a mask of 32 bits, "
                            "with or without the parity",
                            (long long)mask);
    memset(&sp, 0, sizeof sp);
    memset(&tr, 0, sizeof tr);
    tr.mode = -1;
    tr.best = 1;
    sp.simd = !(opt && opt->no_simd) && have_avx2();
    if (sp.simd && !(opt && opt->no_avx512) && have_avx512())
        sp.simd = 2;
    sp.no_threads = opt && opt->no_threads;
    sp.no_wide = opt && opt->no_wide;
    sp.no_extra = opt && opt->no_extra;
    sp.target = n;
    sp.balance = 256;
    if (d) {
        /* the prefix and twice the window: a slide every W heaps */
        if ((st = sg_seq_reserve(s, sg_deep_hold(d), err)) != SG_OK)
            return st;
    } else if (n > s->n && (st = sg_seq_reserve(s, n, err)) != SG_OK) {
        return st;
    }
    sp.par_ok = sg_sparse_parity_ok(r, &sp.kpar);
    if (sparse_moves(&sp, r) || sparse_fit(&sp, s->max))
        goto nomem;
    if (d && d->frozen) {
        if (deep_enter(&sp, d))
            goto nomem;
    } else if (sparse_count(&sp, s)) {
        goto nomem;
    }
    if (d && d->frozen) {
        ; /* the mask, R and the counts came with the run */
    } else if (mask == SG_SPARSE_AUTO) {
        int c;
        int64_t best = sparse_best_mask(&sp, &c);
        if (best < 0)
            goto nomem;
        sp.mask = (uint32_t)best >> 1;
        sp.pmask = (uint32_t)best & 1;
        sp.pshift = (uint32_t)c;
        sparse_lists(&sp);
    } else {
        sp.forced = 1;
        sp.mask = (uint32_t)mask;
        /* no use without one parity of n - k per heap (see the header) */
        sp.pmask = (mask & SG_SPARSE_PARITY) && sp.par_ok;
        sp.pshift = sp.pmask && (mask & SG_SPARSE_PARITY_INV) ==
                                    SG_SPARSE_PARITY_INV;
        sparse_lists(&sp);
    }
    if (!(d && d->frozen) && sparse_rebuild(&sp, s))
        goto nomem;
    next_pick = s->n < 32 ? 32 : 2 * s->n;
    sp.base = s->n;

    /* Superblocks [h, e) of SUPER heaps (the first may be shorter). */
    for (h = s->n; h < n;) {
        size_t e = (h / SUPER + 1) * SUPER, m;
        unsigned long cur_no = job_no;
        int premarked, threaded, waited = 0;

        if (e > n)
            e = n;
        /* The helper may still be marking this superblock's last groups
         * (job cur_no); it must be idle before anything it reads moves. */
        premarked = job_ok && job_b == h && sp.hsize == sp.size;
        job_ok = 0;
        if (h >= next_poll) {
            if (sg_enum_cancelled(opt)) {
                st = sg_enum_interrupted(s, err);
                goto out;
            }
            sg_enum_progress(opt, h, n, sp.nrare);
            next_poll = (h / SG_ENUM_POLL + 1) * SG_ENUM_POLL;
        }
        if (d && e - s->off > sg_deep_hold(d)) {
            helper_wait(&sp, &out);
            job_ok = 0;
            premarked = 0;
            if ((st = deep_slide(&sp, s, d, h, err)) != SG_OK)
                goto out;
        }
        if (h >= next_pick) {
            /* The helper's premarks follow the whole mode: the mask and,
             * with a parity mask, its parity bit and offset. */
            uint32_t old = sp.mask, old_p = sp.pmask, old_c = sp.pshift;
            helper_wait(&sp, &out);
            if (sparse_repick(&sp, s))
                goto nomem;
            if (sp.mask != old || sp.pmask != old_p || sp.pshift != old_c)
                premarked = 0;
            next_pick = 2 * h;
        }
        if (h + 2 * SUPER - sp.base >= TAG_LIMIT) {
            /* Renumber the tags before they wrap (the helper's marks do
             * not use them). */
            memset(sp.stamp, 0, LANES * sp.size * sizeof *sp.stamp);
            sp.base = h;
        }
        if (sp.ralloc < sp.nrare + 2 * SUPER + 2) {
            helper_wait(&sp, &out);
            if (rare_reserve(&sp, 4 * SUPER))
                goto nomem;
        }
        threaded = !sp.no_threads && h % SUPER == 0 && n - h >= 2 * SUPER &&
                   sp.nrare >= THREAD_MIN_RARE && sp.size <= THREAD_MAX_SIZE &&
                   sp.size > SMALL_SIZE && !small_fast(&sp, s, h);
        if (threaded && pin)
            sp.balance = pin_balance;
        else if (threaded)
            threaded = trials_next(&tr, premarked);
        else
            tr.last = 0;
        if (threaded && sp.hsize != sp.size) {
            helper_wait(&sp, &out);
            if (helper_buffers(&sp))
                goto nomem;
            premarked = 0;
        }
        if (threaded) {
            sparse_job jb;
            jb.b = e;
            jb.done = h;
            jb.nsnap = sp.nrare;
            jb.width = s->width;
            jb.data = s->data;
            jb.dense = sp.balance > 0 ? (size_t)sp.balance : 0;
            jb.keep = sp.balance < 0 ? (size_t)-sp.balance : 0;
            if (helper_post(&sp, &jb)) {
                out = 1;
                job_ok = 1;
                job_b = e;
                job_no = posted++;
            }
        }

        for (m = h; m < e; m++) {
            sg_value v;

            if (sp.pmask)
                sparse_flip(&sp, m);
            if (!premarked && small_fast(&sp, s, m)) {
                if (!small_run1(&sp, s, e, &v))
                    break;      /* all of [m, e) done */
                m = s->n;       /* v = G(m), stored below */
                /* small_run made no block marks for this group: the
                 * stamps, should later heaps of it take them (size >
                 * SMALL_SIZE), mark every rare heap by heap */
                no_block(&sp);
            } else if (sp.size <= SMALL_SIZE) {
                /* No stamps: growing out of this path resets the group's
                 * block marks (see below). */
                switch (s->width) {
                case 1:
                    v = sparse1_small(&sp, s->data, m);
                    break;
                case 2:
                    v = sparse2_small(
                        &sp, (const uint16_t *)(const void *)s->data, m);
                    break;
                default:
                    v = sparse4_small(
                        &sp, (const uint32_t *)(const void *)s->data, m);
                    break;
                }
            } else {
                if (premarked && (m == h || m % HLANES == 0))
                    waited |= helper_group_wait(&sp, cur_no,
                                                (m - h) / HLANES + 1);
                if (m == h || m % LANES == 0) {
                    if (premarked)
                        ; /* the helper marked this group */
                    else if (m % LANES == 0 && m >= 16)
                        switch (s->width) {
                        case 1:
                            sparse1_block(&sp, s->data, m, m, sp.nrare,
                                          sp.stamp, 0, TAG(&sp, m), 0, 0);
                            break;
                        case 2:
                            sparse2_block(
                                &sp, (const uint16_t *)(const void *)s->data,
                                m, m, sp.nrare, sp.stamp, 0, TAG(&sp, m),
                                0, 0);
                            break;
                        default:
                            sparse4_block(
                                &sp, (const uint32_t *)(const void *)s->data,
                                m, m, sp.nrare, sp.stamp, 0, TAG(&sp, m),
                                0, 0);
                            break;
                        }
                    else
                        no_block(&sp);
                }
                switch (s->width * 2 + (premarked != 0)) {
                case 2:
                    v = sparse1_heap(&sp, s->data, m);
                    break;
                case 3:
                    v = sparse1_heapb(&sp, s->data, m);
                    break;
                case 4:
                    v = sparse2_heap(
                        &sp, (const uint16_t *)(const void *)s->data, m);
                    break;
                case 5:
                    v = sparse2_heapb(
                        &sp, (const uint16_t *)(const void *)s->data, m);
                    break;
                case 9:
                    v = sparse4_heapb(
                        &sp, (const uint32_t *)(const void *)s->data, m);
                    break;
                default:
                    v = sparse4_heap(
                        &sp, (const uint32_t *)(const void *)s->data, m);
                    break;
                }
            }
            if (sp.deep_fail || (sp.off && m > 0 && heap_rare(&sp, v, m))) {
                st = deep_stop(s, &sp, m, v, err);
                goto out;
            }
            if (sg_value_width(v) > s->width)
                helper_wait(&sp, &out); /* the values are about to move */
            if ((st = sg_seq_push(s, v, err)) != SG_OK)
                goto out;
            if (m == 0)
                continue;
            sp.hist[HIST(&sp, v, m)]++;
            if (heap_rare(&sp, v, m) && rare_push(&sp, m, v))
                goto nomem;
            if ((size_t)v >= sp.size / 2) {
                /* New stamps: the helper's marks and this superblock's
                 * are lost; the rest of the group goes heap by heap, the
                 * later groups are marked here. */
                helper_wait(&sp, &out);
                job_ok = 0;
                if (sparse_fit(&sp, v))
                    goto nomem;
                if (sp.off)
                    deep_mask_top(&sp, v);
                premarked = 0;
                no_block(&sp);
                grew = 1;
            }
        }
        if (premarked && !pin) {
            /* the threads' shares (see BALANCE_STEP) */
            if (waited && sp.balance > -(long)sp.nrare)
                sp.balance -= BALANCE_STEP;
            else if (!waited && sp.balance < BALANCE_MAX)
                sp.balance += BALANCE_STEP / 4;
        }
        if (grew) {
            helper_wait(&sp, &out);
            job_ok = 0;
            if (sparse_repick(&sp, s))
                goto nomem;
            grew = 0;
        }
        h = e;
    }
out:
    helper_stop(&sp, &out);
    if (d && deep_leave(&sp, d) && st == SG_OK)
        st = sg_error_set(err, SG_E_NOMEM, -1,
                          "out of memory after %zu values", s->n);
    if (stats) {
        stats->mask = sp.mask;
        stats->parity = (int)sp.pmask;
        stats->parity_shift = (int)sp.pshift;
        stats->rare = sp.nrare;
        stats->full_scans = sp.full_scans;
        stats->repicks = sp.repicks;
        stats->pairs_chosen = sp.nextra;
        stats->searches = sp.searches;
    }
    sparse_free(&sp);
    return st;
nomem:
    st = sg_error_set(err, SG_E_NOMEM, -1,
                      "out of memory after %zu values", s->n);
    goto out;
}

sg_status sg_enumerate_sparse(sg_seq *s, const sg_rule *r, size_t n,
                              int64_t mask, sg_sparse_stats *stats,
                              const sg_enum_options *opt, sg_error *err)
{
    return sparse_run(s, r, n, mask, stats, opt, NULL, err);
}

sg_status sg_deep_run_sparse(sg_deep *d, const sg_rule *r, size_t n,
                             const sg_enum_options *opt, sg_error *err)
{
    return sparse_run(&d->seq, r, n, SG_SPARSE_AUTO, NULL, opt, d, err);
}
