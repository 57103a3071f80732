/*
 * sparse_impl.h - internal to src/lib/sparse: the state the parts of the
 * sparse enumerator share (the method itself is explained at the top of
 * enum_sparse.c), its constants, the small inline helpers more than one
 * part uses, and each part's functions:
 *
 *   enum_sparse.c  the entry points, and sparse_run's setup and end;
 *   rare.c         the moves, R (the rare heaps), the mask and the value
 *                  tables;
 *   terms.c        the small path's lists of step 1 terms
 *                  (sgi_sparse_flat_build) and its chosen pairs
 *                  (sgi_sparse_extra_build);
 *   helper.c       the helper thread, its hand-offs and its trials;
 *   window.c       deep runs: the window and the frozen mask;
 *   run.c          the hot loops, in one translation unit so that they
 *                  inline: the superblocks and heaps of sparse_run, the
 *                  small path, the step functions of step.inc (once per
 *                  width) and the x86 kernels of x86.inc.
 */
#ifndef SG_SPARSE_IMPL_H
#define SG_SPARSE_IMPL_H

#define _DEFAULT_SOURCE
#include "sgexplore.h"
#include "enum/methods/enum_impl.h"
#include "sparse.h"

#include <stddef.h>
#include <stdint.h>
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
#define HGROUPS (SUPER / HLANES) /* the helper's groups per job */
#define THREAD_MIN_RARE 64       /* fewer rare values: not worth a thread */
#define THREAD_MAX_SIZE 4096     /* larger: the helper's stamps leave L2 */
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
#endif

#if defined(__GNUC__) && defined(__x86_64__)
#define SPARSE_AVX2 1 /* the kernels of x86.inc are compiled */
#endif

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

/* small_run's extra terms (sgi_sparse_extra_build): at most XTERMS, with small
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
#define XSPLITS 4    /* (more split digits: no extra terms) */

/*
 * Step 3 starts with a scatter phase while at least SCATTER_NEED values
 * are wanted: the xor of every pair is stored as seen[x] = tag, without
 * a test, and the wanted set is swept against seen after each block of
 * pairs; with fewer wanted values the filtered scans take over.  With
 * hundreds wanted (0.764: 540 a heap by 2^17, of up to 4,665) nearly
 * every low byte is in the filter, most of its hits are false, and each
 * costs a branch that the CPU cannot predict.
 */
#ifndef SCATTER_NEED
#define SCATTER_NEED 64
#endif

/*
 * Up to this size this thread marks its groups of LANES heaps on bit sets
 * (a bit per value and heap, cleared for each group: size / 8 bytes a
 * heap, 16 KB a group at 16,384, within the L1 cache) instead of the
 * stamps (32 bytes a value, 512 KB at 16,384: the L2 cache).  0.764 has
 * some 12,000 rare heaps, so about 36,000 marks a heap.
 */
#ifndef GBITS_MAX_SIZE
#define GBITS_MAX_SIZE 32768
#endif
/*
 * The pairs (r, m - k - r) of heap m and split digit k depend on the
 * remainder m - k alone, so a group of LANES heaps with split digits
 * kmin..kmax has only LANES + kmax - kmin remainders, not LANES * nsplit
 * (heap, digit) pairs: 0.764's digits 1, 2 and 3 make 10 remainders of
 * 24.  With bit sets this thread marks each rare once per remainder
 * (LANES lanes, then a tail of gtail = the power of two >= kmax - kmin,
 * at most REM_TAIL_MAX) and a heap's marks are the union of its
 * digits' remainders, bw words each.
 */
#define REM_TAIL_MAX 8

/*
 * With one-byte values (and AVX2) those marks are made for super-groups
 * of TAB_HEAPS heaps at once (each rare's partners, far apart in the
 * window, read once for all of them), and as byte stores, lane l's value
 * x at rtab[l * TAB_LANES + x] = tag, instead of a read-modify-write of a
 * bit-set word each; the tables become the lanes' bit sets afterwards,
 * 64 values per two compares, and each group of LANES heaps takes its
 * lanes from them.  The tail lanes of a super-group are the first lanes
 * of the next one: their bit sets are kept, so that a rare costs
 * TAB_HEAPS marks a super-group, not TAB_HEAPS + gtail.  (A multiple of
 * LANES and a divisor of SUPER.)
 */
#define TAB_HEAPS 32 /* (64: no faster, more marks heap by heap) */
_Static_assert(TAB_HEAPS % 32 == 0 && SUPER % TAB_HEAPS == 0 &&
                   TAB_HEAPS % LANES == 0,
               "tab_mark loads 32 partners at a time");
#define TAB_LANES 256

/*
 * Step 3 of one-byte values, with AVX2 and split digits close together
 * (those of TAB_HEAPS): the xors of the first PRE_PAIRS pairs (a, n - a)
 * of remainder n, which the heaps n + k of all its digits k read, made
 * once as a set of 256 bits (byte stores into a table, like tab_mark) and
 * kept in a ring of PRE_RING remainders; a heap takes the union of its
 * remainders' sets from its wanted values at once, where the filtered
 * scans took a branch for each value found (0.444: 17 a heap), and scans
 * from PRE_PAIRS + 1 on.  Even when one value is wanted: the sets are
 * there for the other heaps (0.444: about 9 % faster than from two on).
 */
#ifndef PRE_PAIRS
#define PRE_PAIRS 224
#endif
#define PRE_RING 16
/* (the end of a block of step 3's: 32, 96, 224, 480, ...) */
_Static_assert(((PRE_PAIRS + 32) & (PRE_PAIRS + 31)) == 0 &&
                   (PRE_PAIRS + 32) / 2 <= SPARSE_BLOCK,
               "PRE_PAIRS ends a block of step 3");

/*
 * Step 3's scatter phase, too, scatters the pairs of remainders, each of
 * which heaps m, m + 1, ... m + kmax - kmin share: without a `!` digit
 * (which makes a remainder's pairs depend on the digit) each remainder
 * keeps a table of its own (kmax - kmin + 1 <= REM_SLOTS_MAX of them,
 * while size <= REM_SEEN_MAX_SIZE) with the pairs scattered so far, and
 * a heap scatters only what its remainders lack.
 */
#define REM_SLOTS_MAX 9
/* ... and with shared tables the scatter phase runs while this many
 * values are wanted: the pairs scattered once serve the next heaps too
 * (0.764 and 0.244 to 2^17, medians of four interleaved runs, 32 against
 * 64: 7 % and 5 % less CPU time, 16 and 8 no better than 32; callgrind,
 * 0.764 to 2^16: 1 % more instructions, a quarter fewer mispredicted
 * branches, 18.7·10^6 against 24.6·10^6). */
#ifndef SCATTER_NEED_SHARED
#define SCATTER_NEED_SHARED 32
#endif
#define REM_SEEN_MAX_SIZE ((size_t)1 << 20)

/* ... and from this size on: below it the stamps fit in L1 as well (32
 * KB at 1,024) and a store costs less than the bits' read-modify-write
 * (Grundy's game to 3·10^6, size 512: 4.55-4.63 s with the stamps,
 * 4.75-5.13 with the bits); at every size when the marks go by
 * remainder (REM_TAIL_MAX), which makes fewer of them (0.444, size 512:
 * 3.8 s to 3.1 s, docs/BENCHMARKS.md). */
#define GBITS_MIN_SIZE 2048

/* Values stay below this (the tables are indexed by value). */
#define SPARSE_VALUE_LIMIT ((size_t)1 << 30)

/* Stamps are 32 bits (narrower ones measured slower, wider ones crowd the
 * cache).  A tag belongs to a group of LANES heaps (each heap has its own
 * lane of stamps), counted from sp->base, which moves on (clearing them
 * all) every TAG_LIMIT heaps. */
typedef uint32_t stamp_t;
#define TAG(sp, m) ((stamp_t)((m) / LANES - (sp)->base / LANES + 1))
#ifndef TAG_LIMIT
#define TAG_LIMIT ((size_t)1 << 30) /* -DTAG_LIMIT=40 tests the renumbering */
#endif
#define AT(x) ((size_t)(x)*LANES)

/* The helper's stamps: HLANES per value (see block_body_wW); 16-bit ones
 * measured a third slower to store. */
#define HLANES 16
typedef uint32_t hstamp_t;

/* A job for the helpers: mark the superblock starting at b, each
 * helper its share (see sparse_helper). */
typedef struct sparse_job {
    size_t b, done, nsnap, dense, keep;
    unsigned width;
    unsigned parts; /* the helpers sharing it */
    const void *data;
} sparse_job;

struct sparse;

/*
 * One helper thread (--threads T runs T - 1 of them beside this one).
 * Every job goes to all of them: helper `id` of `parts` marks the id-th
 * of `parts` equal slices of each split digit's far rare heaps and of its
 * extra pairs (block_wW in step.inc), on stamps of its own, and hands
 * each heap's marks over as a bit set in its own double buffer; this
 * thread ORs the sets of a heap together.  Helper 0 alone records what
 * was marked (the far slots), which does not depend on the slicing.
 * Aligned so that no two helpers' counters share a cache line.
 */
typedef struct sparse_helper {
    _Alignas(64) struct sparse *sp;
    unsigned id;
    /* its stamps and tag, and its output: the marks of heap m of a job
     * as a bit set at obits + (m % (2 * SUPER)) * bw */
    hstamp_t *hstamp;
    uint64_t *obits;
    hstamp_t htag;
#ifdef SPARSE_THREADS
    pthread_t thread;
    /* done_seq counts the jobs it finished, groups_done its groups of
     * HLANES heaps (HGROUPS per job), so that this thread can start on
     * a superblock while the helpers still mark its last groups */
    _Alignas(64) _Atomic unsigned long done_seq;
    _Alignas(64) _Atomic unsigned long groups_done;
#endif
} sparse_helper;

#ifdef SPARSE_THREADS
/* The helpers' queue of at most two jobs (helper.c). */
typedef struct sparse_sync {
    pthread_mutex_t mu; /* with cv: where a side that waits sleeps */
    pthread_cond_t cv;
    int started; /* mu and cv exist, and `started` helpers run */
    /* each side spins a while, then sleeps on cv saying so in h_sleep
     * (the helpers asleep) or m_sleep (this thread); quit ends them */
    _Atomic int quit, h_sleep, m_sleep;
    /* job_seq counts jobs posted (job i in jobs[i % 2]) */
    _Atomic unsigned long job_seq;
    sparse_job jobs[2];
} sparse_sync;
#endif

/* A deep run's window (sg_seq's keep and off; 0 and 0 otherwise): large
 * indices are read at x - off, small ones (below keep) at x, and step 3
 * stops at the kept pairs. */
typedef struct sparse_window {
    size_t keep, off;
    int cut;       /* step 3 stopped there for the current heap */
    int deep_fail; /* a heap's value could not be decided */
} sparse_window;

/* The helper-or-not trials (see TRIAL; helper.c). */
typedef struct sparse_trials {
    double last;    /* when the current superblock started, or 0 */
    int mode;       /* whether it had the helper's marks, or -1 */
    double time[2]; /* superblock times, without and with the helper */
    unsigned count[2];
    size_t done; /* superblocks seen */
    int best;    /* the way chosen after the last trial */
} sparse_trials;

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
    size_t *split;       /* k with bit 4: leave a, b >= 1, a + b = n - k */
    uint8_t *split_uneq; /* `!` on that digit: a != b */
    size_t *rem, *top;   /* per split digit, scratch: n - k, largest a */
    /* per far slot (see FAR_SLOTS) and split digit, index slot * nsplit
     * + j: the rares [far_lo, far_hi) were marked for the whole group at
     * once, except [skip_lo, skip_hi) (`!` digits: pairs that may be
     * equal halves); and the pairs (a, n - k - a), dense_lo <= a <
     * dense_hi, too (the helper's `dense` pairs: step 3 of its heaps
     * skips them; this thread's blocks have none) */
    size_t *far_lo, *far_hi, *skip_lo, *skip_hi, *dense_lo, *dense_hi;
    size_t *one; /* k >= 1 with bit 2: leave n - k >= 1 */
    size_t *all; /* k >= 1 with bit 1: n == k leaves nothing */

    int forced;    /* the mask was given by the caller */
    uint32_t mask; /* v is rare when v & mask has even parity */

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
    size_t base;    /* heap whose tag is 2; moved on before wrapping */
    uint64_t *hist; /* heaps >= 1 per value, at hist_slot(sp, v, h):
                              2 * size entries */
    /* common and rare option values below size, ascending: with a
     * parity mask, of the current heap (see sparse_flip) */
    sg_value *common;
    sg_value *rarev;
    size_t ncommon, nrarev;
    /* with size <= SMALL_SIZE: the common and the rare values below
     * size / 2 as bit sets (see small_wW) */
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
    uint32_t *bvx; /* bval's far ones with the byte four times
                              (avx2_block_shuf: a broadcast is a load) */
    size_t nnear, nfar;
    /* the near ones split again: nclose with off < MID_HEAPS first (heap
     * by heap), then nnear - nclose taken MID_HEAPS heaps at once */
    size_t nclose;
    size_t nfar_hi; /* the first nfar_hi far ones: values >= 64 */
    /* then nextra pairs (a, m - k - a) of common parts chosen for the
     * rare values step 3 finds slowest (see sgi_sparse_extra_build), to be
     * chosen again from heap xnext on */
    size_t nextra, xnext;
    size_t target;       /* the heap this run stops at */
    size_t kone;         /* the largest k of a one-heap or whole-heap move */
    unsigned rgen, tgen; /* R's rebuilds; the terms were built at tgen */
    int tok;             /* toff/tval (and boff, bval) are valid */

    /* this thread's group marks as bit sets (see GBITS_MAX_SIZE): bw
     * words per heap of the group, NULL above that size; gok: the
     * current group's marks are there, not on the stamps (1), or there
     * by remainder (2, see REM_TAIL_MAX: LANES lanes, then gtail lanes
     * of their own at gbits + LANES * bw, then a heap's union) */
    uint64_t *gbits;
    int gok;
    size_t gtail;
    /* ... marked, for one-byte values with AVX2, by super-group (see
     * TAB_HEAPS) on byte tables: TAB_HEAPS + REM_TAIL_MAX lanes of
     * TAB_LANES bytes, value x of lane l marked when rtab[l * TAB_LANES +
     * x] == rtag; then as bit sets, 4 words a lane, in rsb.  rsb holds
     * super-group rcur's (0: none), marked with the rares rr (see
     * rem_range) of R's rtgen-th build; its tail lanes are the next
     * super-group's first ones, rnext */
    uint8_t *rtab;
    uint64_t *rsb;
    /* step 3's sets of first pairs (see PRE_PAIRS): remainder pre_n[i]'s
     * at pre + 4 * i, i = its n % PRE_RING; made on the byte table
     * pre_tab with pre_tag.  NULL: not used */
    uint64_t *pre;
    uint8_t *pre_tab;
    size_t pre_n[PRE_RING];
    uint8_t pre_tag;
    uint8_t rtag;
    size_t rcur, rnext, rr[4];
    unsigned rtgen;

    /* step 3's scatter phase (see SCATTER_NEED): a byte per value, the
     * xors of the pairs scattered for the current heap at seen_tag */
    uint8_t *seen;
    uint8_t seen_tag;
    /* ... shared by remainder (see REM_SLOTS_MAX): nslot tables of size
     * bytes, slot n % nslot holding the xors of the pairs (a, n - a), 1
     * <= a < sdone[slot], of remainder sn[slot] at stag[slot]; NULL when
     * not shared */
    uint8_t *sseen;
    size_t nslot;
    size_t sn[REM_SLOTS_MAX], sdone[REM_SLOTS_MAX];
    uint8_t stag[REM_SLOTS_MAX];

    /* step 3's wanted values as a set of low bytes (see want_add) */
    uint8_t want_tab[32];
    uint32_t want_low[256];
    int simd;   /* the CPU has AVX2 (1), and AVX-512 with VBMI
                              for small_run's blocks (2) */
    int filter; /* want_tab holds step 3's wanted values */

    /* for sgi_sparse_stats: heaps whose step 3 needed every pair, mask
     * changes, small_run heaps whose step 3 ran, heaps whose step 3 began
     * with a scatter phase, groups marked by remainder, and of them
     * from byte tables; heaps whose step 3 began with PRE_PAIRS' sets */
    size_t full_scans, repicks, searches, scatters, rgroups, tgroups;
    size_t psweeps;

    /* bit sets of value, size bits each (bw words): the common and the
     * rare values, and step 3's wanted values */
    size_t bw;
    uint64_t *cmask, *rmask, *wbits;

    /* the helpers (nhelp of them, nhelp + 1 threads in all; see
     * sparse_helper); hsize = the size their buffers were allocated
     * for */
    sparse_helper *help;
    unsigned nhelp;
    size_t hsize;
    long balance; /* see BALANCE_STEP */

#ifdef SPARSE_THREADS
    sparse_sync sync; /* the helper threads (helper.c) */
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
    sparse_window win; /* a deep run's window (window.c) */
    /* tests: values of 64..127 take the stamps, not small_run; no
     * extra terms (sgi_sparse_extra_build); no group bit sets (gbits);
     * group bit sets by heap, not by remainder (REM_TAIL_MAX) */
    int no_wide, no_extra, no_gbits, no_grem;
} sparse;

/* What sparse_run keeps from one superblock to the next (run.c). */
typedef struct sparse_loop {
    sparse sp;
    sg_seq *s;  /* the values; a deep run's window */
    sg_deep *d; /* the deep run, or NULL */
    const sg_enum_options *opt;
    sg_error *err;
    size_t n;             /* the run stops at heap n */
    sg_status st;         /* why it stopped early */
    size_t next_pick;     /* the heap at which the mask is re-chosen */
    size_t next_poll;     /* ... the cancel flag is looked at */
    size_t job_b;         /* the superblock of the last job posted */
    unsigned long job_no; /* that job's number */
    unsigned long posted; /* jobs posted */
    unsigned long cur_no; /* the job of the current superblock */
    int grew;             /* the value tables grew in this superblock */
    int out;              /* a helper job may be pending */
    int job_ok;           /* job_b's job is still good */
    int premarked;        /* the helper marked the current superblock */
    int waited;           /* ... and this thread waited for it */
    int pin;              /* tests: pin_helper (sgi_test_switches) */
    long pin_balance;     /* ... and its balance */
    sparse_trials tr;     /* helper or not (sgi_sparse_trials_next) */
} sparse_loop;

static inline int is_rare(uint32_t mask, sg_value v)
{
    return !__builtin_parity(v & mask);
}

/* hist's slot for heap h of value v: by (v, h & 1) when the rule allows
 * parity masks (par_ok), else by v alone. */
static inline size_t hist_slot(const sparse *sp, sg_value v, size_t h)
{
    return sp->par_ok ? (size_t)v << 1 | (h & 1) : (size_t)v;
}

/* Whether heap h of value v is rare: its extended value v << 1 | ((h +
 * pshift) & 1) has an even number of bits under the extended mask. */
static inline int heap_rare(const sparse *sp, sg_value v, size_t h)
{
    return !(__builtin_parity(v & sp->mask) ^
             (sp->pmask & ((uint32_t)h ^ sp->pshift) & 1));
}

/* The far_lo etc. slot of the helper's group of heap m. */
static inline size_t helper_slot(size_t m)
{
    return 1 + (m / SUPER % 2) * HGROUPS + m % SUPER / HLANES;
}

/* Forget this thread's group marks (far slot 0): every rare is then
 * marked heap by heap. */
static inline void no_block(sparse *sp)
{
    size_t j;

    for (j = 0; j < sp->nsplit; j++)
        sp->far_lo[j] = sp->far_hi[j] = sp->skip_lo[j] = sp->skip_hi[j] = 0;
    sp->gok = 0;
}

/* Values below v, split like set_lo and set_hi's sets (run.c). */
static inline uint64_t below_lo(sg_value v)
{
    return v >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << v) - 1;
}

static inline uint64_t below_hi(sg_value v)
{
    return v >= 128  ? ~(uint64_t)0
           : v <= 64 ? 0
                     : ((uint64_t)1 << (v - 64)) - 1;
}

/* The one bits of x, without a library call on CPUs that may lack the
 * instruction (the compiler targets any x86-64). */
static inline size_t popcount64(uint64_t x)
{
    x = x - ((x >> 1) & 0x5555555555555555ULL);
    x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
    return (size_t)((x * 0x0101010101010101ULL) >> 56);
}

/* ------------------------------------------------------------------ */
/* rare.c: the moves, R, the mask and the value tables                  */
/* ------------------------------------------------------------------ */

void sgi_sparse_free(sparse *sp);
/* Sort the rule's terms into the three kinds of move; -1: out of memory. */
int sgi_sparse_moves(sparse *sp, const sg_rule *r);
/* The common and rare value lists for the current mask and size. */
void sgi_sparse_lists(sparse *sp);
/* Grow the value tables so that size > 2 * max.  -1 when out of memory
 * or the values are too large for tables indexed by value. */
int sgi_sparse_fit(sparse *sp, sg_value max);
/* Add heap pos of value v to R; -1: out of memory. */
int sgi_sparse_rare_push(sparse *sp, size_t pos, sg_value v);
/* Make room for `more` rare values without moving the arrays later (the
 * helper reads them). */
int sgi_sparse_rare_reserve(sparse *sp, size_t more);
/* R from scratch, for the current mask. */
int sgi_sparse_rebuild(sparse *sp, const sg_seq *s);
/* hist[hist_slot(v, h)] += the heaps 1 <= h < s->n of value v. */
int sgi_sparse_count(sparse *sp, const sg_seq *s);
/* The extended mask that makes the fewest heaps rare, its offset in
 * *shift; -1 when out of memory. */
int64_t sgi_sparse_best_mask(const sparse *sp, int *shift);
/* Re-choose the mask from the values so far; rebuild R if it changed. */
int sgi_sparse_repick(sparse *sp, const sg_seq *s);

/* ------------------------------------------------------------------ */
/* terms.c: the small path's step 1 terms                               */
/* ------------------------------------------------------------------ */

/* The small path's list of terms for R as it is now; -1 when out of
 * memory (the caller then goes digit by digit). */
int sgi_sparse_flat_build(sparse *sp);
/* small_run's extra terms for heaps from m on (s holding G(0..m-1)). */
void sgi_sparse_extra_build(sparse *sp, const sg_seq *s, size_t m);

/* ------------------------------------------------------------------ */
/* helper.c: the helper thread                                          */
/* ------------------------------------------------------------------ */

/* The array of sp->nhelp helpers, and their memory; -1: out of
 * memory. */
int sgi_sparse_helper_alloc(sparse *sp);
void sgi_sparse_helper_free(sparse *sp);
/* Room for the helpers' stamps and output at the current size; they
 * must be idle.  -1 when out of memory. */
int sgi_sparse_helper_buffers(sparse *sp);
/* Queue a job for the helpers, starting them the first time; 0 when
 * none could be started (the caller then marks everything itself). */
int sgi_sparse_helper_post(sparse *sp, const sparse_job *jb);
#ifdef SPARSE_THREADS
/* Wait until `counter` reaches `target`: spin a while, then sleep.
 * Returns whether it had to wait at all. */
int sgi_sparse_helper_until(sparse *sp, _Atomic unsigned long *counter,
                            unsigned long target);
#endif

/* Wait until every helper has marked the first `groups` groups of job
 * number `job` (counting from 0); 1 when it had to wait.  Inline: asked
 * every HLANES heaps, and nearly always already true. */
static inline int sgi_sparse_helper_group_wait(sparse *sp, unsigned long job,
                                               size_t groups)
{
#ifdef SPARSE_THREADS
    unsigned long target = job * HGROUPS + groups;
    int waited = 0;
    unsigned i;

    for (i = 0; i < sp->nhelp; i++)
        if (atomic_load(&sp->help[i].groups_done) < target)
            waited |=
                sgi_sparse_helper_until(sp, &sp->help[i].groups_done, target);
    return waited;
#else
    (void)sp;
    (void)job;
    (void)groups;
    return 0;
#endif
}
/* Wait until every job handed out is done (*out: whether any may be
 * pending), before changing what the helper reads. */
void sgi_sparse_helper_wait(sparse *sp, int *out);
/* The same, then end the helper thread. */
void sgi_sparse_helper_stop(sparse *sp, int *out);
/* Helper hp's group of HLANES heaps is marked (sgi_sparse_mark_super). */
void sgi_sparse_group_done(sparse_helper *hp);
/* Account the superblock just finished and say whether the next one
 * should get a helper job posted (see TRIAL). */
int sgi_sparse_trials_next(sparse_trials *tr, int mode);

/* run.c, for helper hp: its part of a job. */
void sgi_sparse_mark_super(sparse_helper *hp, const sparse_job *jb);

/* ------------------------------------------------------------------ */
/* window.c: deep runs                                                  */
/* ------------------------------------------------------------------ */

/* The error that stops a deep run at heap m (value v). */
sg_status sgi_sparse_deep_stop(const sg_seq *s, const sparse *sp, size_t m,
                               sg_value v, sg_error *err);
/* Keep the mask's bit above every value so far (the helper idle). */
void sgi_sparse_deep_mask_top(sparse *sp, sg_value max);
/* Move the window on before the superblock at h (the helper idle). */
sg_status sgi_sparse_deep_slide(sparse *sp, sg_seq *s, sg_deep *d, size_t h,
                                sg_error *err);
/* The sparse state of a deep run that left memory; -1: out of memory. */
int sgi_sparse_deep_enter(sparse *sp, const sg_deep *d);
/* Hand the sparse state back to the deep run; -1: out of memory. */
int sgi_sparse_deep_leave(const sparse *sp, sg_deep *d);

/* ------------------------------------------------------------------ */
/* run.c: the hot loops                                                 */
/* ------------------------------------------------------------------ */

/* What the CPU allows (sparse->simd), the switches of sw applied. */
int sgi_sparse_cpu_simd(const sgi_test_switches *sw);
/* The first heap h' >= h below n whose one-byte value is rare (n if
 * none), 32 heaps at a time (AVX2 only: sp->simd). */
size_t sgi_sparse_next_rare(const sparse *sp, const uint8_t *g, size_t h,
                            size_t n);
/* The superblocks of the run from s->n to lp->n. */
sg_status sgi_sparse_superblocks(sparse_loop *lp);

#endif /* SG_SPARSE_IMPL_H */
