/*
 * run.c - the sparse method's hot loops, in one translation unit so that
 * they inline into each other as they were tuned (HACKING.md): the
 * superblocks of sparse_run and its per-heap part, the small path
 * (small_run1 and its variants), the step functions of step.inc
 * (included once per width), the helper's marking (sgi_sparse_mark_super)
 * and the x86 kernels of x86.inc.  The cold parts are in rare.c,
 * terms.c, helper.c, window.c and enum_sparse.c.
 */
#include "sparse_impl.h"

#if defined(__clang__)
#define SPARSE_UNROLL _Pragma("unroll")
#elif defined(__GNUC__) && __GNUC__ >= 8
#define SPARSE_UNROLL _Pragma("GCC unroll 16")
#else
#define SPARSE_UNROLL
#endif
/* name_wW for step.inc */
#define SPARSE_CAT2(name, w) name##_w##w
#define SPARSE_CAT(name, w) SPARSE_CAT2(name, w)

/*
 * With a parity mask, which option values of heap m step 1 marks depends
 * on the parity of m - k (the header's part 2): when it is odd, the lists
 * of sgi_sparse_lists (made for even m - k) swap roles.  Called before each
 * heap; the swap is of pointers, counts and two words.  (small_run_body
 * swaps its own copies of the sets instead, leaving these as they are.)
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
            (uint8_t) ~(1u << ((b >> 4) & 7));
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

/* The bits of the 64 values from w * 64 on that step 3's scatter phase
 * saw (seen[x] == tag). */
static inline uint64_t seen_word(const uint8_t *seen, uint8_t tag, size_t w)
{
    const uint8_t *p = seen + w * 64;
    uint64_t m = 0;
    unsigned i;

    for (i = 0; i < 64; i++)
        m |= (uint64_t)(p[i] == tag) << i;
    return m;
}

#ifdef SPARSE_AVX2
__attribute__((target("avx2"))) static uint64_t
avx2_seen_word(const uint8_t *seen, uint8_t tag, size_t w);
#endif

/* The wanted values (all below c) that step 3's scatter phase saw leave
 * the wanted set; returns how many are still wanted. */
static size_t scatter_sweep(sparse *sp, sg_value c)
{
    size_t w, need = 0, nw = c / 64 + 1 < sp->bw ? c / 64 + 1 : sp->bw;

    for (w = 0; w < nw; w++) {
        uint64_t b = sp->wbits[w];
        if (!b)
            continue;
#ifdef SPARSE_AVX2
        if (sp->simd)
            b &= ~avx2_seen_word(sp->seen, sp->seen_tag, w);
        else
#endif
            b &= ~seen_word(sp->seen, sp->seen_tag, w);
        sp->wbits[w] = b;
        need += popcount64(b);
    }
    return need;
}

/* scatter_sweep with the tables shared by remainder (see
 * REM_SLOTS_MAX): a value seen in the table of any of slots[0..ns-1]. */
static size_t scatter_sweep_shared(sparse *sp, sg_value c, const size_t *slots,
                                   size_t ns)
{
    size_t w, j, need = 0, nw = c / 64 + 1 < sp->bw ? c / 64 + 1 : sp->bw;

    for (w = 0; w < nw; w++) {
        uint64_t b = sp->wbits[w], seen = 0;
        if (!b)
            continue;
        for (j = 0; j < ns; j++) {
            const uint8_t *t = sp->sseen + slots[j] * sp->size;
#ifdef SPARSE_AVX2
            if (sp->simd)
                seen |= avx2_seen_word(t, sp->stag[slots[j]], w);
            else
#endif
                seen |= seen_word(t, sp->stag[slots[j]], w);
        }
        b &= ~seen;
        sp->wbits[w] = b;
        need += popcount64(b);
    }
    return need;
}

/* The slot of remainder n in step 3's shared scatter tables, taken over
 * (a new tag, nothing scattered yet) when it held another remainder. */
static inline size_t seen_slot(sparse *sp, size_t n)
{
    size_t sl = n % sp->nslot;

    if (sp->sn[sl] != n) {
        sp->sn[sl] = n;
        sp->sdone[sl] = 1;
        if (++sp->stag[sl] == 0) {
            memset(sp->sseen + sl * sp->size, 0, sp->size);
            sp->stag[sl] = 1;
        }
    }
    return sl;
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

/* Whether a `!` digit may leave a remainder's half out of its pairs. */
static int any_uneq(const sparse *sp)
{
    size_t j;
    int uneq = 0;

    for (j = 0; j < sp->nsplit; j++)
        uneq |= sp->split_uneq[j];
    return uneq;
}

/* Far slot 0 for marks by remainder of the rares rr (see rem_range). */
static void rem_far(sparse *sp, const size_t rr[4])
{
    size_t j;

    for (j = 0; j < sp->nsplit; j++) {
        sp->far_lo[j] = rr[0];
        sp->far_hi[j] = rr[3] > rr[0] ? rr[3] : rr[0];
        sp->skip_lo[j] = rr[1];
        sp->skip_hi[j] = rr[2];
        sp->dense_lo[j] = sp->dense_hi[j] = 0;
    }
}

/*
 * The rares that a group's marks by remainder (REM_TAIL_MAX) take for
 * the nl remainders n0..n0 + nl - 1: indices [lo, slo) and [shi, hi) of
 * R (in rr[0..3]), the r with nl <= r < n0, less with a `!` digit the r
 * that may be half of one of the remainders; and far slot 0 saying so,
 * the same for every digit (the rest is step1_rest's).
 */
static void rem_range(sparse *sp, size_t n0, size_t nl, size_t rr[4])
{
    const size_t *rp = sp->rpos, nr = sp->nrare;
    size_t lo, hi, slo, shi;

    lo = rare_index(rp, nr, nl);
    hi = rare_index(rp, nr, n0);
    slo = shi = lo;
    if (any_uneq(sp)) {
        slo = rare_index(rp, nr, (n0 + 1) / 2);
        shi = rare_index(rp, nr, (n0 + nl - 1) / 2 + 1);
        slo = slo < lo ? lo : slo > hi ? hi : slo;
        shi = shi < slo ? slo : shi > hi ? hi : shi;
    }
    rr[0] = lo;
    rr[1] = slo;
    rr[2] = shi;
    rr[3] = hi;
    rem_far(sp, rr);
}

/*
 * The largest small part a step 3 may try for a split leaving rem: top,
 * or in a deep run's window the last a whose pair (a, rem - a) is kept
 * (a below keep, rem - a at least keep + off), setting sp->win.cut when that
 * is less.
 */
static inline size_t kept_top(sparse *sp, size_t rem, size_t top)
{
    size_t lim;

    if (!sp->win.off)
        return top;
    lim = sp->win.keep - 1;
    if (rem - (sp->win.keep + sp->win.off) < lim)
        lim = rem - (sp->win.keep + sp->win.off);
    if (top <= lim)
        return top;
    sp->win.cut = 1;
    return lim;
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

/* Step 1's mark of option value x: st[AT(x)] = mark on the stamps, or
 * with use_bits > 0 (a constant in each caller) a bit of the set bits,
 * whose words are use_bits apart (1, or LANES in this thread's
 * interleaved group sets). */
static inline __attribute__((always_inline)) void
sparse_mark(stamp_t *st, stamp_t mark, uint64_t *bits, size_t use_bits,
            size_t x)
{
    if (use_bits)
        bits[x / 64 * use_bits] |= (uint64_t)1 << (x % 64);
    else
        st[AT(x)] = mark;
}

/* (defined by step.inc; the filtered scans of x86.inc end with them) */
static inline int scan_w1(sparse *sp, const uint8_t *g, size_t rem, size_t a,
                          size_t end, size_t *need);
static inline int scan_w2(sparse *sp, const uint16_t *g, size_t rem, size_t a,
                          size_t end, size_t *need);

#include "x86.inc"

/*
 * The small path's common case with one-byte values (Kayles, 0.1777):
 * heaps far enough past the last rare heap that the flat list covers
 * step 1 (see small_wW) and that no one-heap or whole-heap move is cut
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

    /* (with a parity mask its heap loop swaps the sets of common and
     * rare values itself, as sparse_flip does the lists) */
    if (s->width != 1 || sp->size > (sp->no_wide ? SMALL_SIZE : WIDE_SIZE) ||
        m <= sp->kone || m < sp->kmax + 2 + 2 * (nr ? sp->rpos[nr - 1] : 0))
        return 0;
    if ((sp->tok && sp->tnrare == nr && sp->tgen == sp->rgen) ||
        sgi_sparse_flat_build(sp) == 0) {
        /* (a choice costs a few ms: not for a short run, such as the
         * early rounds of sg_analyse, which each start afresh) */
        if (m >= sp->xnext && sp->target - m >= XWORTH)
            sgi_sparse_extra_build(sp, s, m);
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

/* Value x into small_run_body's set (lo, hi): values below 64 in lo,
 * 64..127 in hi (only with wide; otherwise every x is below 64). */
static inline __attribute__((always_inline)) void
set_bit(uint64_t *lo, uint64_t *hi, unsigned x, int wide)
{
    if (wide) {
        uint64_t b = (uint64_t)1 << (x & 63);
        uint64_t h = (uint64_t)0 - (uint64_t)(x >> 6);
        *hi |= b & h;
        *lo |= b & ~h;
    } else {
        *lo |= (uint64_t)1 << x;
    }
}

/* small_run_body's step 1 terms G(m - off) ^ val with off >=
 * BLOCK_HEAPS for its BLOCK_HEAPS heaps from m on (mp: where g holds
 * heap m), into bterms (values below 64) and with wide bterms_hi
 * (64..127). */
static inline __attribute__((always_inline)) void
small_block_terms(const sparse *sp, const uint8_t *g, size_t mp, int wide,
                  uint64_t *bterms, uint64_t *bterms_hi)
{
    const size_t nb = sp->nfar + sp->nextra;
    const size_t *bo = sp->boff + sp->nnear;
    const sg_value *bv = sp->bval + sp->nnear;

    if (!wide && sp->simd == 1)
        avx2_block_shuf0(g, mp, bo, sp->bvx + (bv - sp->bval), nb, bterms);
    else if (!wide)
        block_terms(sp, g, mp, bo, bv, nb, 0, bterms);
    else if (block_terms(sp, g, mp, bo, bv, nb, 0, bterms))
        block_terms(sp, g, mp, bo, bv, nb, 64, bterms_hi);
    else if (sp->nfar_hi)
        /* every value read is below 64: only the terms of values of 64
         * or more (first in the list) give 64..127 (0.354: 0.03 % of its
         * heaps have such values, but some rare heaps do, and every block
         * took the second pass) */
        block_terms(sp, g, mp, bo, bv, sp->nfar_hi, 64, bterms_hi);
    else
        memset(bterms_hi, 0, BLOCK_HEAPS * sizeof *bterms_hi);
}

/* The same three steps as small_w1 for heaps s->n, s->n + 1, ...
 * up to e - 1 (small_fast holding for the first): 0 when all got plain
 * values, now stored; 1 when heap s->n got a rare value or one of size /
 * 2, which is left in *out for the caller to store.  Compiled without and
 * with AVX2 (see small_run1), so that the block scan is inlined and, with
 * par = 0 (rules without parity masks), the histogram count is by value
 * alone, as in Kayles' loop before the parity existed (with par, a
 * parity mask swaps the sets at every other heap without a branch: 0.106
 * to 10^7 2.6x as fast as heap by heap in small_wW); with wide for
 * values below 128, without it (one word per set, as fast as before the
 * second word existed) for values below 64. */
static inline __attribute__((always_inline)) int
small_run_body(sparse *sp, sg_seq *s, size_t e, sg_value *out, int simd,
               int par, int wide)
{
    uint8_t *g = s->data;
    const size_t off = sp->win.off; /* (kept in a register: g aliases sp) */
    const unsigned half = (unsigned)(sp->size / 2);
    const uint64_t all =
        wide || half >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << half) - 1;
    /* the common and rare values below half of the lists of
     * sgi_sparse_lists, as made (for even m - k), whatever sparse_flip
     * left them at; with a parity mask they swap at odd m - k (sw), for
     * which the xors d* of the two sets take one and and one xor */
    const int fl = sp->flipped;
    const uint64_t uc0 = wide ? sp->cmask[0] : sp->cbits;
    const uint64_t ur0 = wide ? sp->rmask[0] : sp->rbits;
    const uint64_t uc1 = wide ? sp->cmask[1] : 0;
    const uint64_t ur1 = wide ? sp->rmask[1] : 0;
    const uint64_t cu0 = fl ? ur0 : uc0, ru0 = fl ? uc0 : ur0;
    const uint64_t cu1 = fl ? ur1 : uc1, ru1 = fl ? uc1 : ur1;
    const uint64_t d0 = cu0 ^ ru0, d1 = cu1 ^ ru1;
    const size_t pm = par ? (size_t)(sp->pmask & 1) : 0, kpar = sp->kpar;
    const size_t *to;
    const sg_value *tv;
    const size_t ns = sp->nsplit;
    size_t m, i, j, blk_m = SIZE_MAX;
    uint64_t bterms[BLOCK_HEAPS] = {0}, bterms_hi[BLOCK_HEAPS] = {0};
    uint64_t mterms[MID_HEAPS] = {0}, mterms_hi[MID_HEAPS] = {0};

    for (m = s->n; m < e; m++) {
        uint64_t o0 = 0, o1 = 0, h0 = 0, h1 = 0, miss, miss_hi, want, want_hi;
        size_t nt = sp->nterm + sp->none;
        const uint64_t sw = (uint64_t)0 - (uint64_t)(pm & (m ^ kpar));
        const uint64_t cb0 = cu0 ^ (d0 & sw), rb0 = ru0 ^ (d0 & sw);
        const uint64_t cb1 = cu1 ^ (d1 & sw), rb1 = ru1 ^ (d1 & sw);
        sg_value v;

        if (simd && m % BLOCK_HEAPS == 0 && m + BLOCK_HEAPS <= e &&
            sp->nfar + sp->nextra) {
            /* the far terms of the whole block (its heaps follow in this
             * loop unless one is rare, which ends the loop) */
            small_block_terms(sp, g, m - off, wide, bterms, bterms_hi);
            blk_m = m;
        }
        /* (blk_m <= m: before the first block, m - SIZE_MAX is m + 1) */
        if (blk_m <= m && m - blk_m < BLOCK_HEAPS) {
            const size_t nc = sp->nclose, nm = sp->nnear - nc;
            if ((m - blk_m) % MID_HEAPS == 0 && nm) {
                /* the block's terms of MID_HEAPS <= off < BLOCK_HEAPS
                 * for its next MID_HEAPS heaps */
                if (avx2_mid_terms(g, m - off, sp->boff + nc, sp->bval + nc, nm,
                                   0, mterms) &&
                    wide)
                    avx2_mid_terms(g, m - off, sp->boff + nc, sp->bval + nc, nm,
                                   64, mterms_hi);
                else if (wide)
                    memset(mterms_hi, 0, sizeof mterms_hi);
            }
            to = sp->boff;
            tv = sp->bval;
            nt = nc;
            o1 = bterms[m - blk_m] | mterms[(m - blk_m) % MID_HEAPS];
            if (wide)
                h1 = bterms_hi[m - blk_m] | mterms_hi[(m - blk_m) % MID_HEAPS];
        } else {
            to = sp->toff;
            tv = sp->tval;
        }

        /* 1: every option but the pairs of two common parts */
        {
            const uint8_t *gm = g + (m - off);
            uint64_t o2 = 0, o3 = 0, h2 = 0, h3 = 0;
            for (i = 0; i + 3 < nt; i += 4) {
                set_bit(&o0, &h0, tv[i] ^ gm[-(ptrdiff_t)to[i]], wide);
                set_bit(&o1, &h1, tv[i + 1] ^ gm[-(ptrdiff_t)to[i + 1]], wide);
                set_bit(&o2, &h2, tv[i + 2] ^ gm[-(ptrdiff_t)to[i + 2]], wide);
                set_bit(&o3, &h3, tv[i + 3] ^ gm[-(ptrdiff_t)to[i + 3]], wide);
            }
            for (; i < nt; i++)
                set_bit(&o0, &h0, tv[i] ^ gm[-(ptrdiff_t)to[i]], wide);
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
            sp->win.cut = 0;
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
                        avx2_small_scan(g, rem, &a, end, &want, &want_hi, wide);
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
                sp->win.deep_fail |= sp->win.cut;
                v = want ? (sg_value)__builtin_ctzll(want)
                         : (sg_value)(64 + __builtin_ctzll(want_hi));
            }
        }
        if (v >= half || (par ? heap_rare(sp, v, m) : is_rare(sp->mask, v)) ||
            sp->win.deep_fail) {
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

#ifdef SPARSE_AVX2
/* With AVX2: p for rules with parity masks (par_ok: hist by parity too),
 * w for values below 128. */
#define SMALL_RUN_AVX2 __attribute__((target("avx2,bmi2"))) static int

SMALL_RUN_AVX2 small_run1_avx2(sparse *sp, sg_seq *s, size_t e, sg_value *out)
{
    return small_run_body(sp, s, e, out, 1, 0, 0);
}

SMALL_RUN_AVX2 small_run1_avx2p(sparse *sp, sg_seq *s, size_t e, sg_value *out)
{
    return small_run_body(sp, s, e, out, 1, 1, 0);
}

SMALL_RUN_AVX2 small_run1_avx2w(sparse *sp, sg_seq *s, size_t e, sg_value *out)
{
    return small_run_body(sp, s, e, out, 1, 0, 1);
}

SMALL_RUN_AVX2 small_run1_avx2pw(sparse *sp, sg_seq *s, size_t e, sg_value *out)
{
    return small_run_body(sp, s, e, out, 1, 1, 1);
}
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
static void stamps_to_bits(const sparse *sp, const hstamp_t *hs, hstamp_t t,
                           uint64_t *out)
{
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
avx2_stamps_to_bits(const sparse *sp, const hstamp_t *hs, hstamp_t t,
                    uint64_t *out)
{
    const size_t bw = sp->bw, half = sp->size / 2;
    const __m256i tv = _mm256_set1_epi32((int)t);
    uint16_t lanes[THREAD_MAX_SIZE / 2];
    size_t x, l;

    for (l = 0; l < HLANES; l++)
        memset(out + l * bw + half / 64, 0, (bw - half / 64) * sizeof *out);
    for (x = 0; x < half; x++) {
        const __m256i *q = (const __m256i *)(const void *)(hs + x * HLANES);
        unsigned lo = (unsigned)_mm256_movemask_ps(
            _mm256_castsi256_ps(_mm256_cmpeq_epi32(_mm256_loadu_si256(q), tv)));
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

/* The run ran out of memory with s->n values kept. */
static int loop_nomem(sparse_loop *lp)
{
    lp->st = sg_error_set(lp->err, SG_E_NOMEM, -1,
                          "out of memory after %zu values", lp->s->n);
    return -1;
}

/*
 * Store G(m) = v and account for it: the histogram, R, and the value
 * tables when v outgrows them (then the helper's marks and this
 * superblock's are lost: *premarked = 0, the rest of the group goes heap
 * by heap, the later groups are marked here).  -1 when the run must stop
 * (lp->st), 1 when the values became wider (the caller goes on with the
 * new width's loop), else 0.
 */
static inline __attribute__((always_inline)) int
store_value(sparse_loop *lp, size_t m, sg_value v, int *premarked)
{
    sparse *sp = &lp->sp;
    sg_seq *s = lp->s;
    int wider;

    if (sp->win.deep_fail || (sp->win.off && m > 0 && heap_rare(sp, v, m))) {
        lp->st = sgi_sparse_deep_stop(s, sp, m, v, lp->err);
        return -1;
    }
    wider = sgi_value_width(v) > s->width;
    if (wider)
        sgi_sparse_helper_wait(sp, &lp->out); /* the values are about to move */
    if ((lp->st = sgi_seq_push(s, v, lp->err)) != SG_OK)
        return -1;
    if (m == 0)
        return wider;
    sp->hist[hist_slot(sp, v, m)]++;
    if (heap_rare(sp, v, m) && sgi_sparse_rare_push(sp, m, v))
        return loop_nomem(lp);
    if ((size_t)v >= sp->size / 2) {
        sgi_sparse_helper_wait(sp, &lp->out);
        lp->job_ok = 0;
        if (sgi_sparse_fit(sp, v))
            return loop_nomem(lp);
        if (sp->win.off)
            sgi_sparse_deep_mask_top(sp, v);
        *premarked = 0;
        no_block(sp);
        lp->grew = 1;
    }
    return wider;
}

#define W 1
#include "step.inc"
#undef W
#define W 2
#include "step.inc"
#undef W
#define W 4
#include "step.inc"
#undef W

/* What differs with the width of the values (s->width): the loop over a
 * superblock's heaps, and the helper's marking of a group. */
typedef struct sparse_width {
    size_t (*heaps)(sparse_loop *lp, size_t h, size_t m, size_t e);
    void (*hblock)(sparse *sp, const void *data, size_t b, size_t done,
                   size_t nsnap, hstamp_t *s0, size_t fs, hstamp_t t0,
                   size_t dense, size_t keep, unsigned part, unsigned parts);
} sparse_width;

static const sparse_width sparse_widths[5] = {
    [1] = {heaps_w1, hblock_w1},
    [2] = {heaps_w2, hblock_w2},
    [4] = {heaps_w4, hblock_w4},
};

/* Helper hp's part of a job: mark its share of every group of the
 * superblock on its stamps, with a fresh tag per group, and hand the
 * marks over as bits. */
void sgi_sparse_mark_super(sparse_helper *hp, const sparse_job *jb)
{
    sparse *sp = hp->sp;
    size_t gi;

    for (gi = 0; gi < HGROUPS; gi++) {
        size_t b = jb->b + gi * HLANES, fs = helper_slot(b);
        uint64_t *out = hp->obits + b % (2 * SUPER) * sp->bw;
        hstamp_t t;
        if (hp->htag >= (hstamp_t)1 << 30) {
            memset(hp->hstamp, 0, HLANES * sp->size * sizeof *hp->hstamp);
            hp->htag = 0;
        }
        t = ++hp->htag;
        sparse_widths[jb->width].hblock(sp, jb->data, b, jb->done, jb->nsnap,
                                        hp->hstamp, fs, t, jb->dense, jb->keep,
                                        hp->id, jb->parts);
#ifdef SPARSE_AVX2
        if (sp->simd && sp->size >= 256)
            avx2_stamps_to_bits(sp, hp->hstamp, t, out);
        else
#endif
            stamps_to_bits(sp, hp->hstamp, t, out);
        sgi_sparse_group_done(hp);
    }
}

int sgi_sparse_cpu_simd(const sgi_test_switches *sw)
{
    int simd = !sw->no_simd && have_avx2();

    if (simd && !sw->no_avx512 && have_avx512())
        simd = 2;
    return simd;
}

/* Whether the superblock [h, e) goes to the helper, and if so post it
 * (see TRIAL); -1 when out of memory. */
static int superblock_post(sparse_loop *lp, size_t h, size_t e)
{
    sparse *sp = &lp->sp;
    int threaded = !sp->no_threads && h % SUPER == 0 &&
                   lp->n - h >= 2 * SUPER && sp->nrare >= THREAD_MIN_RARE &&
                   sp->size <= THREAD_MAX_SIZE && sp->size > SMALL_SIZE &&
                   !small_fast(sp, lp->s, h);
    sparse_job jb;

    if (threaded && lp->pin)
        sp->balance = lp->pin_balance;
    else if (threaded)
        threaded = sgi_sparse_trials_next(&lp->tr, lp->premarked);
    else
        lp->tr.last = 0;
    if (threaded && sp->hsize != sp->size) {
        sgi_sparse_helper_wait(sp, &lp->out);
        if (sgi_sparse_helper_buffers(sp))
            return loop_nomem(lp);
        lp->premarked = 0;
    }
    if (!threaded)
        return 0;
    jb.b = e;
    jb.done = h;
    jb.nsnap = sp->nrare;
    jb.width = lp->s->width;
    jb.data = lp->s->data;
    jb.dense = sp->balance > 0 ? (size_t)sp->balance : 0;
    jb.keep = sp->balance < 0 ? (size_t)-sp->balance : 0;
    if (sgi_sparse_helper_post(sp, &jb)) {
        lp->out = 1;
        lp->job_ok = 1;
        lp->job_b = e;
        lp->job_no = lp->posted++;
    }
    return 0;
}

/* What comes before the heaps of the superblock [h, e): the cancel flag
 * and progress, the deep run's window, the mask, the tags, room in R and
 * the helper's next job.  -1 when the run must stop (lp->st). */
static int superblock_start(sparse_loop *lp, size_t h, size_t e)
{
    sparse *sp = &lp->sp;
    sg_seq *s = lp->s;

    lp->cur_no = lp->job_no;
    lp->waited = 0;
    /* The helper may still be marking this superblock's last groups
     * (job cur_no); it must be idle before anything it reads moves. */
    lp->premarked = lp->job_ok && lp->job_b == h && sp->hsize == sp->size;
    lp->job_ok = 0;
    if (h >= lp->next_poll) {
        if (sgi_enum_cancelled(lp->opt)) {
            lp->st = sgi_enum_interrupted(s, lp->err);
            return -1;
        }
        sgi_enum_progress(lp->opt, h, lp->n, sp->nrare);
        lp->next_poll = (h / SG_ENUM_POLL + 1) * SG_ENUM_POLL;
    }
    if (lp->d && e - s->off > sgi_deep_hold(lp->d)) {
        sgi_sparse_helper_wait(sp, &lp->out);
        lp->job_ok = 0;
        lp->premarked = 0;
        lp->st = sgi_sparse_deep_slide(sp, s, lp->d, h, lp->err);
        if (lp->st != SG_OK)
            return -1;
    }
    if (h >= lp->next_pick) {
        /* The helper's premarks follow the whole mode: the mask and,
         * with a parity mask, its parity bit and offset. */
        uint32_t old = sp->mask, old_p = sp->pmask, old_c = sp->pshift;
        sgi_sparse_helper_wait(sp, &lp->out);
        if (sgi_sparse_repick(sp, s))
            return loop_nomem(lp);
        if (sp->mask != old || sp->pmask != old_p || sp->pshift != old_c)
            lp->premarked = 0;
        lp->next_pick = 2 * h;
    }
    if (h + 2 * SUPER - sp->base >= TAG_LIMIT) {
        /* Renumber the tags before they wrap (the helper's marks do
         * not use them). */
        memset(sp->stamp, 0, LANES * sp->size * sizeof *sp->stamp);
        sp->base = h;
    }
    if (sp->ralloc < sp->nrare + 2 * SUPER + 2) {
        sgi_sparse_helper_wait(sp, &lp->out);
        if (sgi_sparse_rare_reserve(sp, 4 * SUPER))
            return loop_nomem(lp);
    }
    return superblock_post(lp, h, e);
}

/* What comes after the heaps of a superblock: the threads' shares (see
 * BALANCE_STEP), and the mask re-chosen when the values grew.  -1 when
 * out of memory. */
static int superblock_end(sparse_loop *lp)
{
    sparse *sp = &lp->sp;

    if (lp->premarked && !lp->pin) {
        if (lp->waited && sp->balance > -(long)sp->nrare)
            sp->balance -= BALANCE_STEP;
        else if (!lp->waited && sp->balance < BALANCE_MAX * (long)sp->nhelp)
            sp->balance += BALANCE_STEP / 4;
    }
    if (lp->grew) {
        sgi_sparse_helper_wait(sp, &lp->out);
        lp->job_ok = 0;
        if (sgi_sparse_repick(sp, lp->s))
            return loop_nomem(lp);
        lp->grew = 0;
    }
    return 0;
}

/* Superblocks [h, e) of SUPER heaps (the first may be shorter). */
sg_status sgi_sparse_superblocks(sparse_loop *lp)
{
    size_t h, e, m;

    for (h = lp->s->n; h < lp->n; h = e) {
        e = (h / SUPER + 1) * SUPER;
        if (e > lp->n)
            e = lp->n;
        if (superblock_start(lp, h, e))
            return lp->st;
        /* (a heap whose value is wider moves on to the next width) */
        for (m = h; m < e;)
            if ((m = sparse_widths[lp->s->width].heaps(lp, h, m, e)) ==
                SIZE_MAX)
                return lp->st;
        if (superblock_end(lp))
            return lp->st;
    }
    return SG_OK;
}
