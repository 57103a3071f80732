/*
 * enum_set.c - G(0..n-1) of the subtraction game "take k tokens, k in S"
 * and the all-but game "take k >= 1 tokens, k not in S", for any set
 * expression S (setexpr.h).  Four methods, each checked against the others
 * and against a brute force written apart from the library
 * (tests/test_setexpr.c); docs/SETS.md has their measured speed against
 * the straightforward loop (bench/setbench).
 *
 *  - naive: for each heap h, every move k <= h stamps G(h - k), and G(h)
 *    is the least value not stamped.  The reference and the fallback.
 *  - bitset (subtraction, S independent of the heap): for each value v,
 *    the bitset B_v of the heaps with value v and the list L_v of them.
 *    Heaps are decided 64 at a time, value by value: for the block
 *    [b, b+64) the word R_v = OR over the members k >= 64 of the bits
 *    b-k .. b-k+63 of B_v has bit i set exactly when heap b+i has a move
 *    of at least 64 tokens to a heap of value v (those heaps are all below
 *    b, so known).  The same word is the OR over j in L_v of the bits
 *    b-j .. b-j+63 of the member bitset, whichever is shorter, and it
 *    stops as soon as every undecided heap of the block is hit.  A heap
 *    whose bit is clear and that has no move of fewer than 64 tokens to a
 *    heap of value v (looked up one by one, in heap order, so that heaps
 *    of the same block decided at this value count) has value v; the
 *    others go on to v+1.  This is the mex, decided for 64 heaps per word
 *    operation; it pays where the values stay few (subtract-a-prime: 12
 *    values to 10^6), and gives way to the blocked method for the
 *    remaining heaps once more than SET_MAX_VALUES values appear
 *    (subtract-a-square, whose values pass 160 by 10^6) or its passes cost
 *    more than the blocked method's steps would (subtract-a-cube).
 *  - blocked (subtraction, S independent of the heap, many members): the
 *    naive loop's steps, block by block, each member's options read in
 *    order (run_blocked).
 *  - complement (all-but games): the options of heap h are every heap
 *    j < h except h - s for the members s <= h, so value v is an option
 *    unless all count[v] heaps of value v below h are among those h - s.
 *    The mex is therefore the least of the mex of all earlier values and
 *    the values v met among the G(h - s) whose count they exhaust: cost
 *    |S n [1, h]| per heap instead of h - |S n [1, h]|.
 *  - moves (subtraction, heap-dependent S): the members for heap h
 *    (sgi_set_members_at: divisors by trial division, fractions as
 *    ranges), then the stamps of the naive method.
 *  - window (subtraction, S one fraction such as at-most-half, perhaps
 *    bounded): the options form a window of heaps whose ends never move
 *    back, so the values in it are counted as heaps enter and leave, and
 *    the mex is the least value of count 0 (run_window).
 *  - divisors (subtraction, S proper-divisors, perhaps bounded): each
 *    heap's divisors from the least prime factors of a sieve.
 */
#include "rules/setexpr.h"
#include "enum_impl.h"

#include <stdlib.h>
#include <string.h>

__extension__ typedef unsigned __int128 u128;

/* Values the bitset method keeps a bitset for (n/8 bytes each). */
#define SET_MAX_VALUES 64

typedef struct stamps {
    uint64_t *t;
    size_t cap;
} stamps;

/* Room for values up to v + 1 (the mex may be one past the largest). */
static int stamps_fit(stamps *m, size_t v)
{
    size_t old = m->cap;

    if (v + 2 <= old)
        return 0;
    if (sg_grow(&m->t, &m->cap, v + 2, sizeof *m->t))
        return -1;
    memset(m->t + old, 0, (m->cap - old) * sizeof *m->t);
    return 0;
}

static sg_status nomem(sg_error *err)
{
    return sg_error_set(err, SG_E_NOMEM, -1,
                        "the enumeration does not fit in memory");
}

/* The run's state: the values so far and what they are for. */
typedef struct run {
    uint32_t *g;
    size_t n;
    const sgi_set *set;
    int allbut;
    const sg_enum_options *opt;
    uint64_t *mem; /* members <= n - 1 (heap-independent sets) */
    size_t nmem, cmem;
    uint64_t *mbits; /* the members as a bitset (naive all-but) */
    stamps st;
    size_t done; /* heaps decided */
} run;

/* G(h) = the least value whose stamp is not `tag` (the options of h were
 * stamped with it), then room for the next mex: -1 when out of memory. */
static int store_mex(run *r, size_t h, uint64_t tag)
{
    uint32_t v = 0;

    while (r->st.t[v] == tag)
        v++;
    r->g[h] = v;
    r->done = h + 1;
    return stamps_fit(&r->st, v);
}

static int cancelled(run *r, size_t h)
{
    if (sgi_enum_cancelled(r->opt))
        return 1;
    sgi_enum_progress(r->opt, h, r->n, 0);
    return 0;
}

/* The naive loop of a subtraction game over a heap-independent set, from
 * heap h0 on (maxg: the largest value below it): the straightforward
 * loop, with stamps of four bytes (a tag h + 1 <= 2^32 - 1, as n <=
 * UINT32_MAX) and the members up to h counted as h grows, so that a set
 * of a few members costs what the loop a researcher writes costs; while
 * the values stay below 63, the options as the bits of one word, which
 * makes it faster than that loop (docs/SETS.md).  small_only: return at
 * the first heap whose options may reach 63 (r->done says where), for a
 * method that takes over there. */
static sg_status run_naive_sub(run *r, size_t h0, uint32_t maxg, int small_only,
                               sg_error *err)
{
    uint32_t *const g = r->g;
    const uint64_t *const mem = r->mem;
    const size_t nmem = r->nmem, n = r->n;
    size_t cap = (size_t)maxg + 2, h, i, top = 0;
    uint32_t *seen = calloc(cap, sizeof *seen);

    if (!seen)
        return nomem(err);
    for (h = h0; h < n; h++) {
        const uint32_t tag = (uint32_t)(h + 1);
        uint32_t v = 0;

        if (h % SG_ENUM_POLL == 0 && cancelled(r, h)) {
            free(seen);
            return SG_E_INTERRUPTED;
        }
        while (top < nmem && mem[top] <= h)
            top++;
        if (maxg < 63) {
            /* every option's value below 63: the options as one word,
             * no store per move (a stamp store waits on the load of
             * G(h - m) and on the next stamp's; this chain does not) */
            uint64_t opts = 0;
            for (i = 0; i < top; i++)
                opts |= (uint64_t)1 << g[h - mem[i]];
            v = (uint32_t)__builtin_ctzll(~opts);
            if (v > maxg)
                maxg = v;
        } else if (small_only) {
            break;
        } else {
            for (i = 0; i < top; i++)
                seen[g[h - mem[i]]] = tag;
            while (seen[v] == tag)
                v++;
        }
        g[h] = v;
        r->done = h + 1;
        if (v + 2 > cap) { /* room for the next mex */
            size_t old = cap;
            if (sg_grow(&seen, &cap, (size_t)v + 2, sizeof *seen)) {
                free(seen);
                return nomem(err);
            }
            memset(seen + old, 0, (cap - old) * sizeof *seen);
        }
    }
    free(seen);
    return SG_OK;
}

/* The naive loop from heap r->done to r->n (subtraction over a
 * heap-independent set: run_naive_sub).  The arrays are read into
 * locals: a store to the stamps (uint64_t) may alias r's fields, and the
 * compiler would reload them for every move. */
static sg_status run_naive(run *r, sg_error *err)
{
    size_t h;
    int dep = sgi_set_heap_dependent(r->set);
    uint32_t maxg = 0;
    uint32_t *const g = r->g;

    for (h = 0; h < r->done; h++)
        if (g[h] > maxg)
            maxg = g[h];
    if (stamps_fit(&r->st, maxg))
        return nomem(err);
    for (h = r->done; h < r->n; h++) {
        uint64_t tag = (uint64_t)h + 1;
        uint64_t *const t = r->st.t;

        if (h % SG_ENUM_POLL == 0 && cancelled(r, h))
            return SG_E_INTERRUPTED;
        if (dep) {
            uint64_t k;
            for (k = 1; k <= h; k++)
                if (sgi_set_contains(r->set, k, h) != r->allbut)
                    t[g[h - k]] = tag;
        } else if (r->allbut) {
            uint64_t k;
            for (k = 1; k <= h; k++)
                if (!(r->mbits[k >> 6] >> (k & 63) & 1))
                    t[g[h - k]] = tag;
        } else {
            return run_naive_sub(r, h, maxg, 0, err);
        }
        if (store_mex(r, h, tag))
            return nomem(err);
    }
    return SG_OK;
}

/* Heaps decided together by the blocked method: KB, fewer when the
 * values grow, so that the rows stay within ROWS_BYTES (the L1 cache). */
#define KB 64
#define KB_MIN 8
#define ROWS_BYTES 32768
/* The largest value the blocked method's rows hold (KB_MIN rows of this
 * many bytes fill ROWS_BYTES); past it, the naive loop. */
#define BLOCKED_MAX_VALUE 4000

/*
 * The blocked method (subtraction, S independent of the heap, many
 * members, many values: subtract-a-square): the naive loop's steps, in
 * another order.  For the block of heaps [b, b+kb), every member k >= kb
 * reaches only heaps below b, whose values are known, and the kb options
 * it gives, G(b-k .. b+kb-1-k), are consecutive: one pass over them per
 * member marks a byte in each heap's row (row j, column G), so the values
 * are read in order instead of a cache line per member and heap.  Then,
 * heap by heap, the members below kb (whose options may be in the block)
 * and the mex: the first zero byte of the row.  A row has room for the
 * largest value so far plus KB + 1 (each heap of the block may raise it
 * by one), a few hundred bytes for subtract-a-square; kb shrinks as the
 * rows grow, so that they stay in the L1 cache (clearing rows that do not
 * cost more than the steps gain).  The values are read from a copy of
 * two bytes each; a value past BLOCKED_MAX_VALUE hands the rest to the
 * naive loop (r->done tells where).
 */
static sg_status run_blocked(run *r, sg_error *err)
{
    const uint64_t *const mem = r->mem;
    const size_t nmem = r->nmem, n = r->n;
    uint32_t *const g = r->g;
    uint16_t *g16 = malloc(n * sizeof *g16);
    uint8_t *rows = NULL;
    size_t width = 0, kb = KB, nnear = 0, nupto = 0, b, h, j, i;
    uint32_t maxg = 0;
    sg_status st = SG_OK;

    if (!g16)
        return nomem(err);
    for (h = 0; h < r->done; h++) {
        g16[h] = (uint16_t)g[h];
        if (g[h] > maxg)
            maxg = g[h];
    }
    for (b = r->done; b < n; b += kb) {
        size_t cnt;

        if ((b / KB) % 64 == 0 && cancelled(r, b)) {
            st = SG_E_INTERRUPTED;
            break;
        }
        /* a row holds values up to maxg + KB + 1, the largest mex
         * possible in this block */
        if (maxg + KB + 2 > width) {
            size_t want = ((size_t)maxg + KB + 2 + 63) & ~(size_t)63;
            uint8_t *nr;
            kb = ROWS_BYTES / want;
            kb = kb > KB ? KB : kb < KB_MIN ? KB_MIN : kb;
            nr = realloc(rows, kb * want);
            if (!nr) {
                st = nomem(err);
                break;
            }
            rows = nr;
            width = want;
            nnear = 0;
            while (nnear < nmem && mem[nnear] < kb)
                nnear++;
        }
        cnt = n - b < kb ? n - b : kb;
        memset(rows, 0, cnt * width);
        while (nupto < nmem && mem[nupto] <= b + cnt - 1)
            nupto++;
        for (i = nnear; i < nupto; i++) {
            const size_t k = (size_t)mem[i];
            const size_t j0 = k > b ? k - b : 0;
            const uint16_t *src = g16 + (b + j0 - k); /* G(b + j0 - k) */
            uint8_t *row = rows + j0 * width;
            for (j = 0; j < cnt - j0; j++)
                row[j * width + src[j]] = 1;
        }
        for (j = 0; j < cnt; j++) {
            uint8_t *row = rows + j * width;
            const uint8_t *z;
            uint32_t v;
            h = b + j;
            for (i = 0; i < nnear && mem[i] <= h; i++)
                row[g16[h - mem[i]]] = 1;
            z = memchr(row, 0, width); /* found: see width */
            v = z ? (uint32_t)(z - row) : (uint32_t)width;
            g[h] = v;
            g16[h] = (uint16_t)v;
            if (v > maxg)
                maxg = v;
            if (v > BLOCKED_MAX_VALUE) {
                r->done = h + 1;
                goto out;
            }
        }
        r->done = b + cnt;
    }
out:
    free(rows);
    free(g16);
    if (st == SG_OK && r->done < n)
        st = run_naive(r, err);
    return st;
}

/* Heaps decided together by the bitset method: BW = 64 * BWORDS. */
#define BWORDS 8 /* run_bitset spells the eight words out */
#define BW (64 * BWORDS)

/*
 * A bitset over the heaps kept as eight copies, copy r shifted by r bits,
 * so that the BW bits starting at any heap o are one unaligned load of
 * BWORDS words from the copy o mod 8 (no shifting on the hot path).  Heap
 * h is bit h + BW of the unshifted copy: BW zero bits in front let o go
 * down to -BW + 1.
 */
typedef struct shifted {
    uint8_t *c[8];
    size_t bytes;
} shifted;

static int shifted_init(shifted *s, size_t n)
{
    int r;

    s->bytes = (n + 3 * BW) / 8 + 8;
    for (r = 0; r < 8; r++)
        if (!(s->c[r] = calloc(s->bytes, 1)))
            return -1;
    return 0;
}

static void shifted_clear(shifted *s)
{
    int r;

    for (r = 0; r < 8; r++)
        free(s->c[r]);
    memset(s, 0, sizeof *s);
}

static void shifted_set(shifted *s, size_t h)
{
    size_t q = h + BW;
    int r;

    for (r = 0; r < 8 && (size_t)r <= q; r++)
        s->c[r][(q - r) >> 3] |= (uint8_t)(1u << ((q - r) & 7));
}

static inline uint64_t load64(const uint8_t *p)
{
    uint64_t w;

    memcpy(&w, p, sizeof w);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    w = __builtin_bswap64(w);
#endif
    return w;
}

typedef struct vheaps {
    uint32_t *h;
    size_t n, cap;
} vheaps;

/* How many values the bitset method keeps bitsets for, of n bytes each
 * (eight copies of n bits): at most a quarter of the machine's memory
 * (2^28 bytes when unknown), SET_MAX_VALUES at most and 8 at least. */
static size_t bitset_max_values(size_t n)
{
    uint64_t mem = sgi_physical_memory() / 4;
    size_t maxvals;

    if (mem < ((uint64_t)1 << 28))
        mem = (uint64_t)1 << 28;
    maxvals = (size_t)(mem / (n + 1));
    if (maxvals > SET_MAX_VALUES)
        maxvals = SET_MAX_VALUES;
    if (maxvals < 8)
        maxvals = 8;
    return maxvals;
}

/* u[w]: the heaps of a block of cnt (<= BW) heaps still without a value,
 * all of them. */
static inline void block_mask(uint64_t u[BWORDS], size_t cnt)
{
    size_t w;

    for (w = 0; w < BWORDS; w++) {
        size_t lo = 64 * w;
        u[w] = cnt >= lo + 64 ? ~(uint64_t)0
               : cnt <= lo    ? 0
                              : ((uint64_t)1 << (cnt - lo)) - 1;
    }
}

/* The bitset method gives way to the blocked one when, over a window of
 * HANDOFF_BLOCKS blocks, the blocked method's steps (a byte per far
 * member and heap) are fewer than HANDOFF_RATIO times its own passes
 * (eight words each).  Measured (bench/setbench, AMD EPYC): primes to
 * 10^5, 78 steps a pass, the bitset method 8.5 times as fast; cubes to
 * 10^6, 22 steps a pass, the blocked method 1.2 times as fast, to 10^7,
 * 14, 2.6 times. */
#define HANDOFF_BLOCKS 16
#define HANDOFF_RATIO 32

/* At the end of each window of HANDOFF_BLOCKS blocks (the block from heap
 * b just done): whether the window's passes cost more than the blocked
 * method's steps would; the counts start again for the next window. */
static int handoff_due(size_t b, size_t *ors, size_t *steps)
{
    int due;

    if ((b / BW) % HANDOFF_BLOCKS != HANDOFF_BLOCKS - 1)
        return 0;
    due = *steps < HANDOFF_RATIO * *ors;
    *steps = *ors = 0;
    return due;
}

/* The bitset method; gives way to the blocked method (r->done tells
 * where) when more values appear than it keeps bitsets for, or when its
 * passes cost more than the blocked method's steps would. */
static sg_status run_bitset(run *r, sg_error *err)
{
    size_t nnear = 0, fi = 0, nvals = 0, b, i, maxvals, ors = 0, steps = 0;
    shifted sb, bv[SET_MAX_VALUES];
    vheaps lv[SET_MAX_VALUES];
    uint64_t maxm = r->nmem ? r->mem[r->nmem - 1] : 0;
    sg_status st = SG_OK;

    maxvals = bitset_max_values(r->n);
    memset(bv, 0, sizeof bv);
    memset(lv, 0, sizeof lv);
    if (shifted_init(&sb, r->n)) {
        shifted_clear(&sb);
        return nomem(err);
    }
    while (nnear < r->nmem && r->mem[nnear] < BW)
        nnear++;
    for (i = nnear; i < r->nmem; i++)
        shifted_set(&sb, r->mem[i]);
    for (b = 0; b < r->n && !st; b += BW) {
        size_t cnt = r->n - b < BW ? r->n - b : BW, v, w;
        /* no members (r->mem NULL): no far ones either */
        const uint64_t *far = r->mem ? r->mem + nnear : NULL;
        uint64_t u[BWORDS];
        uint32_t gb[BW];
        int left = 1;

        if ((b / BW) % 4 == 0 && cancelled(r, b)) {
            st = SG_E_INTERRUPTED;
            break;
        }
        while (nnear + fi < r->nmem && far[fi] <= b + BW - 1)
            fi++;
        block_mask(u, cnt);
        for (i = 0; i < BW; i++)
            gb[i] = UINT32_MAX;
        for (v = 0; left; v++) {
            uint64_t rv[BWORDS];
            /* the OR is kept in scalars, not in an array the compiler
             * would store and reload in every iteration */
            uint64_t r0 = 0, r1 = 0, r2 = 0, r3 = 0;
            uint64_t r4 = 0, r5 = 0, r6 = 0, r7 = 0;
#define OR_AT(s_, o_)                                                          \
    do {                                                                       \
        size_t q_ = (size_t)((o_) + BW);                                       \
        const uint8_t *p_ = (s_)->c[q_ & 7] + (q_ >> 3);                       \
        r0 |= load64(p_);                                                      \
        r1 |= load64(p_ + 8);                                                  \
        r2 |= load64(p_ + 16);                                                 \
        r3 |= load64(p_ + 24);                                                 \
        r4 |= load64(p_ + 32);                                                 \
        r5 |= load64(p_ + 40);                                                 \
        r6 |= load64(p_ + 48);                                                 \
        r7 |= load64(p_ + 56);                                                 \
    } while (0)
#define COVERS()                                                               \
    ((((r0 & u[0]) ^ u[0]) | ((r1 & u[1]) ^ u[1]) | ((r2 & u[2]) ^ u[2]) |     \
      ((r3 & u[3]) ^ u[3]) | ((r4 & u[4]) ^ u[4]) | ((r5 & u[5]) ^ u[5]) |     \
      ((r6 & u[6]) ^ u[6]) | ((r7 & u[7]) ^ u[7])) == 0)
            if (v < nvals && lv[v].n) {
                if (lv[v].n < fi) {
                    size_t x = lv[v].n, c = 0;
                    while (x-- > 0) {
                        uint64_t j = lv[v].h[x];
                        if (j >= b)
                            continue;
                        if (b - j > maxm + BW)
                            break;
                        OR_AT(&sb, (int64_t)(b - j));
                        ors++;
                        if (++c % 8 == 0 && COVERS())
                            break;
                    }
                } else {
                    const shifted *bs = &bv[v];
                    size_t x;
                    for (x = 0; x < fi; x++) {
                        OR_AT(bs, (int64_t)b - (int64_t)far[x]);
                        ors++;
                        if (x % 8 == 7 && COVERS())
                            break;
                    }
                }
            }
#undef OR_AT
#undef COVERS
            rv[0] = r0;
            rv[1] = r1;
            rv[2] = r2;
            rv[3] = r3;
            rv[4] = r4;
            rv[5] = r5;
            rv[6] = r6;
            rv[7] = r7;
            left = 0;
            for (w = 0; w < BWORDS; w++) {
                uint64_t cand = u[w] & ~rv[w];
                while (cand) {
                    unsigned bit = (unsigned)__builtin_ctzll(cand) + 64 * w;
                    size_t h = b + bit, k;
                    int hit = 0;
                    cand &= cand - 1;
                    for (k = 0; k < nnear && r->mem[k] <= h && !hit; k++) {
                        size_t src = h - r->mem[k];
                        hit = (src >= b ? gb[src - b] : r->g[src]) == v;
                    }
                    if (hit)
                        continue;
                    if (v >= nvals) {
                        if (v >= maxvals) {
                            /* too many values: the naive loop goes on */
                            r->done = b;
                            goto out;
                        }
                        if (shifted_init(&bv[v], r->n)) {
                            st = nomem(err);
                            goto out;
                        }
                        nvals = v + 1;
                    }
                    if (sg_grow(&lv[v].h, &lv[v].cap, lv[v].n + 1,
                                sizeof *lv[v].h)) {
                        st = nomem(err);
                        goto out;
                    }
                    lv[v].h[lv[v].n++] = (uint32_t)h;
                    shifted_set(&bv[v], h);
                    gb[bit] = (uint32_t)v;
                    r->g[h] = (uint32_t)v;
                    u[w] &= ~((uint64_t)1 << (bit - 64 * w));
                }
                left |= u[w] != 0;
            }
        }
        r->done = b + cnt;
        steps += fi * BW;
        if (handoff_due(b, &ors, &steps))
            goto out;
    }
out:
    for (i = 0; i < SET_MAX_VALUES; i++) {
        shifted_clear(&bv[i]);
        free(lv[i].h);
    }
    shifted_clear(&sb);
    if (st == SG_OK && r->done < r->n)
        st = run_blocked(r, err);
    return st;
}

/* The complement method (all-but games). */
static sg_status run_complement(run *r, sg_error *err)
{
    size_t *count = NULL, ccount = 0, h, i, m0 = 0, maxg = 0;
    uint64_t *sub = NULL, *mv = NULL;
    size_t csub = 0, nmv = 0, cmv = 0;
    int dep = sgi_set_heap_dependent(r->set);
    sg_status st = SG_OK;

    for (h = r->done; h < r->n; h++) {
        uint64_t tag = (uint64_t)h + 1;
        const uint64_t *s = r->mem;
        size_t ns = r->nmem, best, old;

        if (h % SG_ENUM_POLL == 0 && cancelled(r, h)) {
            st = SG_E_INTERRUPTED;
            break;
        }
        if (dep) {
            st = sgi_set_members_at(&mv, &nmv, &cmv, r->set, h, err);
            if (st)
                break;
            s = mv;
            ns = nmv;
        }
        if (stamps_fit(&r->st, maxg) ||
            (csub < r->st.cap &&
             sg_grow(&sub, &csub, r->st.cap, sizeof *sub))) {
            st = nomem(err);
            break;
        }
        old = ccount;
        if (ccount < r->st.cap) {
            if (sg_grow(&count, &ccount, r->st.cap, sizeof *count)) {
                st = nomem(err);
                break;
            }
            memset(count + old, 0, (ccount - old) * sizeof *count);
        }
        /* sub[v] counts down the heaps of value v not yet excluded (set
         * to count[v] when v is first met at this heap); at 0 every heap
         * of value v is excluded and v is missing */
        best = m0;
        for (i = 0; i < ns && s[i] <= h; i++) {
            uint32_t v = r->g[h - s[i]];
            if (r->st.t[v] != tag) {
                r->st.t[v] = tag;
                sub[v] = count[v];
            }
            if (--sub[v] == 0 && v < best)
                best = v;
        }
        r->g[h] = (uint32_t)best;
        if (best > maxg)
            maxg = best;
        count[best]++;
        while (m0 < ccount && count[m0])
            m0++;
        r->done = h + 1;
    }
    free(count);
    free(sub);
    free(mv);
    return st;
}

/* The moves method (heap-dependent subtraction sets). */
static sg_status run_moves(run *r, sg_error *err)
{
    uint64_t *mv = NULL;
    size_t nmv = 0, cmv = 0, h, i;
    sg_status st = SG_OK;

    if (stamps_fit(&r->st, 0))
        return nomem(err);
    for (h = r->done; h < r->n; h++) {
        uint64_t tag = (uint64_t)h + 1;

        if (h % SG_ENUM_POLL == 0 && cancelled(r, h)) {
            st = SG_E_INTERRUPTED;
            break;
        }
        st = sgi_set_moves_at(&mv, &nmv, &cmv, r->set, h, 0, err);
        if (st)
            break;
        for (i = 0; i < nmv; i++)
            r->st.t[r->g[h - mv[i]]] = tag;
        if (store_mex(r, h, tag)) {
            st = nomem(err);
            break;
        }
    }
    free(mv);
    return st;
}

/*
 * The set of values whose count in the window is 0, as a bitset with
 * summary levels (bit i of level l+1 set when word i of level l is not
 * 0), so that the least member, the mex, is found in one step per level.
 */
#define ZLEVELS 6

typedef struct zeroset {
    uint64_t *w[ZLEVELS];
    size_t nw[ZLEVELS];
    int levels;
} zeroset;

/* Every value below cap in the set (count 0). */
static int zeroset_init(zeroset *z, size_t cap)
{
    size_t bits = cap;
    int l;

    memset(z, 0, sizeof *z);
    for (l = 0; l < ZLEVELS; l++) {
        size_t i;
        z->nw[l] = (bits + 63) / 64;
        if (!(z->w[l] = malloc(z->nw[l] * sizeof *z->w[l])))
            return -1;
        for (i = 0; i < z->nw[l]; i++)
            z->w[l][i] = ~(uint64_t)0;
        if (bits % 64)
            z->w[l][z->nw[l] - 1] = ((uint64_t)1 << (bits % 64)) - 1;
        z->levels = l + 1;
        if (z->nw[l] == 1)
            break;
        bits = z->nw[l];
    }
    return 0;
}

static void zeroset_clear(zeroset *z)
{
    int l;

    for (l = 0; l < ZLEVELS; l++)
        free(z->w[l]);
}

static void zeroset_put(zeroset *z, size_t v)
{
    int l;

    for (l = 0; l < z->levels; l++, v >>= 6) {
        int was = z->w[l][v >> 6] != 0;
        z->w[l][v >> 6] |= (uint64_t)1 << (v & 63);
        if (was)
            break;
    }
}

static void zeroset_take(zeroset *z, size_t v)
{
    int l;

    for (l = 0; l < z->levels; l++, v >>= 6) {
        z->w[l][v >> 6] &= ~((uint64_t)1 << (v & 63));
        if (z->w[l][v >> 6])
            break;
    }
}

static size_t zeroset_first(const zeroset *z)
{
    size_t i = 0;
    int l;

    for (l = z->levels - 1; l >= 0; l--)
        i = i * 64 + (size_t)__builtin_ctzll(z->w[l][i]);
    return i;
}

/* Whether the window method applies: one fraction item (perhaps bounded)
 * and nothing else, so that the options of heap h are the heaps of one
 * window [jl(h), jr(h)] whose ends never move back. */
static int window_applies(const sgi_set *set, int allbut)
{
    return sgi_set_window_shape(set, allbut);
}

/* The moves of heap h are k in [*kmin, *kmax] (empty when kmin > kmax). */
static void window_moves(const sgi_set_item *it, uint64_t h, uint64_t *kmin,
                         uint64_t *kmax)
{
    uint64_t lo = it->lo, hi = it->hi < h ? it->hi : h;

    if (it->kind == SGI_SET_AT_MOST) {
        uint64_t t = (uint64_t)((u128)h * it->a / it->b);
        if (t < hi)
            hi = t;
    } else {
        uint64_t t = (uint64_t)(((u128)h * it->a + it->b - 1) / it->b);
        if (t > lo)
            lo = t;
    }
    *kmin = lo < 1 ? 1 : lo;
    *kmax = hi;
}

/* The window method: G(h) is the mex of G over the window of heaps
 * h - kmax .. h - kmin, both ends nondecreasing in h (h - min(HI,
 * floor(hP/Q)) and h - max(LO, 1) for at-most, likewise for at-least), so
 * each heap enters and leaves the window once and the mex is the least
 * value of count 0: O(1) per heap and level instead of O(h). */
static sg_status run_window(run *r, sg_error *err)
{
    const sgi_set_item *it = &r->set->inc[0];
    uint32_t *count = calloc(r->n + 2, sizeof *count);
    zeroset z;
    size_t lo = 0, hi = 0, h; /* the window is heaps lo .. hi-1 */
    sg_status st = SG_OK;

    if (!count || zeroset_init(&z, r->n + 2)) {
        free(count);
        if (count)
            zeroset_clear(&z);
        return nomem(err);
    }
    for (h = 0; h < r->n; h++) {
        uint64_t kmin, kmax;
        size_t a, b;

        if (h % SG_ENUM_POLL == 0 && cancelled(r, h)) {
            st = SG_E_INTERRUPTED;
            break;
        }
        window_moves(it, h, &kmin, &kmax);
        if (kmin > kmax) {
            r->g[h] = 0;
            r->done = h + 1;
            continue;
        }
        a = (size_t)(h - kmax);
        b = (size_t)(h - kmin) + 1;
        if (a >= hi) {
            for (; lo < hi; lo++)
                if (--count[r->g[lo]] == 0)
                    zeroset_put(&z, r->g[lo]);
            lo = hi = a;
        }
        for (; lo < a; lo++)
            if (--count[r->g[lo]] == 0)
                zeroset_put(&z, r->g[lo]);
        for (; hi < b; hi++)
            if (count[r->g[hi]]++ == 0)
                zeroset_take(&z, r->g[hi]);
        r->g[h] = (uint32_t)zeroset_first(&z);
        r->done = h + 1;
    }
    zeroset_clear(&z);
    free(count);
    return st;
}

/* Whether the divisors method applies: the set is proper-divisors,
 * perhaps bounded, and nothing else (the aliquot game). */
static int divisors_apply(const sgi_set *set, int allbut)
{
    return sgi_set_divisors_shape(set, allbut);
}

/* The divisors method: the least prime factor of every heap below n (a
 * sieve), from which each heap's divisors are generated in O(d(h)), not
 * found by trial division in O(sqrt h). */
static sg_status run_divisors(run *r, sg_error *err)
{
    const sgi_set_item *it = &r->set->inc[0];
    uint32_t *spf = calloc(r->n + 1, sizeof *spf);
    uint64_t div[2048]; /* d(h) <= 1344 for h < 2^32 */
    size_t h, i, j;
    sg_status st = SG_OK;

    if (!spf || stamps_fit(&r->st, 0)) {
        free(spf);
        return nomem(err);
    }
    for (i = 2; i < r->n; i++)
        if (!spf[i])
            for (j = i; j < r->n; j += i)
                if (!spf[j])
                    spf[j] = (uint32_t)i;
    for (h = 0; h < r->n; h++) {
        uint64_t tag = (uint64_t)h + 1, x = h;
        size_t nd = 1;

        if (h % SG_ENUM_POLL == 0 && cancelled(r, h)) {
            st = SG_E_INTERRUPTED;
            break;
        }
        div[0] = 1;
        while (x > 1) {
            uint64_t p = spf[x], pk = 1;
            size_t base = nd, e;
            for (e = 0; x % p == 0; e++) {
                x /= p;
                pk *= p;
                for (i = 0; i < base; i++)
                    div[nd++] = div[i] * pk;
            }
        }
        for (i = 0; i < nd; i++)
            if (div[i] < h && div[i] >= it->lo && div[i] <= it->hi)
                r->st.t[r->g[h - div[i]]] = tag;
        if (store_mex(r, h, tag)) {
            st = nomem(err);
            break;
        }
    }
    free(spf);
    return st;
}

/* Below this many members in [BW, n), the naive loop (one step per
 * member and heap) beats the bitset method's fixed cost per block and
 * value (measured: powers-of-2 and fibonacci, docs/SETS.md). */
#define SET_BITSET_MIN 128
/* Below this many members in [KB, n), the blocked method's passes are too
 * short to gain on the naive loop (docs/SETS.md). */
#define SET_BLOCKED_MIN 32

/* Members far enough apart that the naive loop's reads of G(h - m) for
 * them fall in one L1 set (their distance a multiple of 1024 values of 4
 * bytes, give or take a line) once the group holds more of them than
 * the cache's 8 ways: every read then misses.  powers-of-2 to 10^7: 24
 * members, 14 in one group, the naive loop 2.5 times as slow as the
 * blocked method, whose reads run along each member's options. */
#define SET_ALIAS_WAYS 8

/* The most members at least KB that share an L1 set in the naive loop. */
static size_t alias_group(const uint64_t *mem, size_t nmem)
{
    size_t count[64] = {0}, i, most = 0;

    for (i = 0; i < nmem; i++)
        if (mem[i] >= KB && ++count[(mem[i] >> 4) & 63] > most)
            most = count[(mem[i] >> 4) & 63];
    return most;
}

/* The method `method` resolves to for G(0..n-1), given the members
 * below n when the set is heap-independent: 0 naive, 1 bitset (then
 * blocked), 2 complement, 3 moves, 4 window, 5 divisors, 6 blocked. */
static int pick(const sgi_set *set, int allbut, const uint64_t *mem,
                size_t nmem, sgi_set_method method)
{
    size_t far = 0, kfar = 0;

    if (method == SGI_SET_NAIVE)
        return 0;
    if (allbut)
        return 2;
    if (window_applies(set, allbut))
        return 4;
    if (divisors_apply(set, allbut))
        return 5;
    if (sgi_set_heap_dependent(set))
        return 3;
    if (method == SGI_SET_FAST)
        return 1;
    if (method == SGI_SET_BLOCKED)
        return 6;
    while (far < nmem && mem[nmem - 1 - far] >= BW)
        far++;
    while (kfar < nmem && mem[nmem - 1 - kfar] >= KB)
        kfar++;
    if (far >= SET_BITSET_MIN)
        return 1;
    return kfar >= SET_BLOCKED_MIN || alias_group(mem, nmem) > SET_ALIAS_WAYS
               ? 6
               : 0;
}

const char *sgi_set_method_name(const sgi_set *set, int allbut, size_t n,
                                sgi_set_method method)
{
    static const char *const names[] = {"naive",  "bitset", "complement",
                                        "moves",  "window", "divisors",
                                        "blocked"};
    uint64_t *mem = NULL;
    size_t nmem = 0, cap = 0;
    int how;

    if (n && !allbut && method != SGI_SET_NAIVE &&
        !sgi_set_heap_dependent(set) &&
        sgi_set_members(&mem, &nmem, &cap, set, n - 1, NULL) != SG_OK)
        nmem = 0;
    how = pick(set, allbut, mem, nmem, method);
    free(mem);
    return names[how];
}

/* G(0..n-1) from g into the empty sequence s. */
static sg_status copy_values(sg_seq *s, const uint32_t *g, size_t n,
                             sg_error *err)
{
    uint32_t maxg = 0;
    size_t i;
    sg_status st;

    for (i = 0; i < n; i++)
        if (g[i] > maxg)
            maxg = g[i];
    st = sg_seq_append(s, maxg, err); /* the width and the first slot */
    if (!st)
        st = sg_seq_reserve(s, n, err);
    if (st)
        return st;
    switch (s->width) {
    case 1:
        for (i = 0; i < n; i++)
            s->data[i] = (uint8_t)g[i];
        break;
    case 2:
        for (i = 0; i < n; i++)
            ((uint16_t *)(void *)s->data)[i] = (uint16_t)g[i];
        break;
    default:
        memcpy(s->data, g, n * sizeof *g);
        break;
    }
    s->n = n;
    s->max = maxg;
    return SG_OK;
}

sg_status sgi_set_enumerate(sg_seq *s, const sgi_set *set, int allbut, size_t n,
                            sgi_set_method method, const sg_enum_options *opt,
                            sg_error *err)
{
    run r;
    sg_status st = SG_OK;
    size_t h;
    int how;

    memset(&r, 0, sizeof r);
    r.n = n;
    r.set = set;
    r.allbut = allbut != 0;
    r.opt = opt;
    sg_seq_clear(s);
    sg_seq_init(s);
    if (n == 0)
        return SG_OK;
    if (n > UINT32_MAX)
        return sg_error_set(err, SG_E_INPUT, -1,
                            "at most %lu heaps for a set expression",
                            (unsigned long)UINT32_MAX);
    st = sg_seq_reserve(s, n, err);
    if (st)
        return st;
    r.g = malloc(n * sizeof *r.g);
    if (!r.g)
        return nomem(err);
    if (!sgi_set_heap_dependent(set))
        st = sgi_set_members(&r.mem, &r.nmem, &r.cmem, set, n - 1, err);
    how = pick(set, allbut, r.mem, r.nmem, method);
    if (!st && !sgi_set_heap_dependent(set)) {
        if (how == 0 && allbut) {
            r.mbits = calloc(n / 64 + 2, sizeof *r.mbits);
            if (!r.mbits)
                st = nomem(err);
            for (h = 0; !st && h < r.nmem; h++)
                r.mbits[r.mem[h] >> 6] |= (uint64_t)1 << (r.mem[h] & 63);
        }
    }
    if (!st) {
        switch (how) {
        case 1:
            st = run_bitset(&r, err);
            break;
        case 2:
            st = run_complement(&r, err);
            break;
        case 3:
            st = run_moves(&r, err);
            break;
        case 4:
            st = run_window(&r, err);
            break;
        case 5:
            st = run_divisors(&r, err);
            break;
        case 6:
            /* the word-wide naive loop while the values are small, where
             * it beats the blocked method (cubes to 10^6: x1.13) */
            st = run_naive_sub(&r, 0, 0, 1, err);
            if (!st && r.done < n)
                st = run_blocked(&r, err);
            break;
        default:
            st = run_naive(&r, err);
            break;
        }
    }
    if ((st == SG_OK || st == SG_E_INTERRUPTED) && r.done) {
        /* the values into s at once, at their width: an append per value
         * cost a sixth of a short naive run */
        sg_status a = copy_values(s, r.g, r.done, err);
        if (a)
            st = a;
    }
    if (st == SG_E_INTERRUPTED)
        st = sgi_enum_interrupted(s, err);
    free(r.g);
    free(r.mem);
    free(r.mbits);
    free(r.st.t);
    return st;
}
