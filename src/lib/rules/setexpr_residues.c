/*
 * setexpr_residues.c - the residues of a heap-independent set modulo p,
 * with the least member of each class: what the set-residues theorem
 * (docs/THEORY.md 7.8, prove/theorems.c) needs to turn G(n) = G(n mod p)
 * for n < M + p into G(n) = G(n mod p) for every n.
 *
 * Every answer is exact or "unknown", never a guess.  A class's least
 * member is found by walking the members in increasing order; a class is
 * known to be empty only when the walk has seen every member (a bounded
 * item walked to its bound), or when the residues of the members must
 * repeat from the point the walk reached (a progression, squares, cubes,
 * triangular numbers, powers, Fibonacci numbers: the residue of the next
 * member is a function of a state that has come round again), or, for
 * primes, when the class shares a factor with p and its one possible
 * prime is out of reach.  Nothing here relies on Dirichlet's theorem: a
 * class of primes coprime to p whose least prime lies beyond the cap is
 * unknown, and the theorem is then not applied.
 */
#include "setexpr_impl.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* What one prime of a walk costs against the budget. */
#define PRIME_STEP 8

/* The scratch of one analysis: per class the least member found (0:
 * none) and whether members may lie beyond the cap. */
typedef struct walk {
    uint64_t p, cap;
    uint64_t *least;
    unsigned char *beyond;
    unsigned char *seen; /* powers: residues met; primes: scratch */
    uint64_t budget;     /* steps left before "unknown" */
    uint64_t skips;      /* excluded members the walks may still skip */
} walk;

static void note(walk *w, uint64_t y)
{
    uint64_t r = y % w->p;

    if (!w->least[r] || y < w->least[r])
        w->least[r] = y;
}

/* Every class this item did not reach may still hold members past the
 * cap (the walk stopped early). */
static void mark_rest_beyond(walk *w, const uint64_t *mine)
{
    uint64_t r;

    for (r = 0; r < w->p; r++)
        if (!mine[r])
            w->beyond[r] = 1;
}

/* How many consecutive members of a kind make the residues repeat (the
 * residue of the j-th member from any start is periodic in j with this
 * period); 0 when the kind's residues need a state walk (powers,
 * Fibonacci, primes).  UINT64_MAX when it does not fit. */
static uint64_t cycle_length(const sgi_set_item *it, uint64_t p)
{
    switch (it->kind) {
    case SGI_SET_RANGE:
    case SGI_SET_SQUARES: /* k^2 mod p depends on k mod p */
    case SGI_SET_CUBES:
        return p;
    case SGI_SET_PROG:
        return p / gcd64(it->b % p ? it->b % p : p, p);
    case SGI_SET_TRIANGULAR: /* k(k+1)/2 mod p depends on k mod 2p */
        return p > UINT64_MAX / 2 ? UINT64_MAX : 2 * p;
    case SGI_SET_PRIMES:
    case SGI_SET_FIBONACCI:
    case SGI_SET_POWERS:
    case SGI_SET_PROPER_DIV:
    case SGI_SET_AT_MOST:
    case SGI_SET_AT_LEAST:
    default:
        return 0;
    }
}

/* The walk of an item of primes from its first member y >= x.  A class
 * c sharing a factor d > 1 with p holds at most one prime, d itself (a
 * prime in the class is divisible by d), and only when d is prime and d
 * mod p == c: those classes are decided directly.  The coprime classes
 * are filled as the primes are met in increasing order, until all are
 * filled or the walk passes the cap or the item's bound. */
static int walk_primes(walk *w, const sgi_set_item *it, uint64_t y, uint64_t x,
                       uint64_t *mine)
{
    uint64_t need = 0, r;

    for (r = 0; r < w->p; r++) {
        uint64_t d = gcd64(r, w->p); /* gcd(0, p) = p */
        if (d == 1) {
            need++;
            continue;
        }
        if (d % w->p != r || d < x || item_first(it, d) != d)
            continue; /* d is not a member of the item from x on */
        if (d > w->cap)
            w->beyond[r] = 1;
        else
            mine[r] = d;
    }
    while (need && y && y <= w->cap) {
        uint64_t c = y % w->p;
        /* a prime costs a primality test of each odd number up to the
         * next: about 8 steps' worth near 10^7 */
        if (w->budget < PRIME_STEP)
            return 0;
        w->budget -= PRIME_STEP;
        if (!mine[c] && gcd64(c, w->p) == 1) {
            mine[c] = y;
            need--;
        }
        y = item_first(it, y + 1);
    }
    /* Coprime classes left unfilled are empty only when every prime of
     * the item was seen (a bounded item walked to its bound). */
    if (need && !(y == 0 && it->hi < MAXV))
        for (r = 0; r < w->p; r++)
            if (!mine[r] && gcd64(r, w->p) == 1)
                w->beyond[r] = 1;
    return 1;
}

/* Past this, a member's size no longer matters: the walk only needs its
 * residue (it is past every cap and bound). */
#define HUGE ((u128)1 << 100)

/* The k with k^e = y (e = 2, 3) or k(k+1)/2 = y (e = 0), y a member. */
static uint64_t index_of(uint64_t y, int e)
{
    uint64_t k = 0;
    u128 v;

    for (;;) {
        v = e ? (e == 2 ? (u128)k * k : (u128)k * k * k)
              : (u128)k * (k + 1) / 2;
        if (v >= y)
            return k;
        /* a first guess from floating point, then steps of one */
        if (k == 0) {
            long double g = e == 2   ? sqrtl((long double)y)
                            : e == 3 ? cbrtl((long double)y)
                                     : sqrtl(2.0L * (long double)y);
            k = g > 4 ? (uint64_t)g - 3 : 1;
        } else {
            k++;
        }
    }
}

/* The j-th member from the first (index k0, value y0) of a kind whose
 * members are a closed form of their index (HUGE when past it). */
static u128 member_at(const sgi_set_item *it, uint64_t y0, uint64_t k0,
                      uint64_t j)
{
    u128 k = (u128)k0 + j;

    switch (it->kind) {
    case SGI_SET_RANGE:
        return (u128)y0 + j;
    case SGI_SET_PROG:
        return (u128)y0 + (u128)j * it->b;
    case SGI_SET_SQUARES:
        return k * k;
    case SGI_SET_CUBES:
        return k * k * k;
    case SGI_SET_TRIANGULAR:
        return k * (k + 1) / 2;
    case SGI_SET_PRIMES:
    case SGI_SET_FIBONACCI:
    case SGI_SET_POWERS:
    case SGI_SET_PROPER_DIV:
    case SGI_SET_AT_MOST:
    case SGI_SET_AT_LEAST:
    default:
        return HUGE;
    }
}

/* Record member y of residue c: its class's least member of this item
 * when within the cap, else the class may only start past the cap. */
static void record(walk *w, uint64_t *mine, u128 y, uint64_t c)
{
    if (mine[c])
        return;
    if (y <= w->cap)
        mine[c] = (uint64_t)y;
    else
        w->beyond[c] = 1;
}

/* The walk of one item from x on, into `mine` (least member per class of
 * this item alone, w->beyond for classes met only past the cap).  The
 * members are walked in increasing order, by value while it matters and
 * by residue after: by index for the kinds with a closed form (the
 * residues repeat after cycle_length members), by the residue recurrence
 * for powers (c -> c B mod p: once a residue comes back, all later ones
 * were seen) and Fibonacci numbers ((c, c') -> (c', c + c') is invertible
 * mod p, so the pairs are purely periodic: back at the first pair, all
 * were seen).  Returns 1 when done, 0 when the budget ran out. */
static int walk_item(walk *w, const sgi_set_item *it, uint64_t x,
                     uint64_t *mine)
{
    uint64_t p = w->p, L = cycle_length(it, p), y0 = item_first(it, x);
    uint64_t top = it->kind == SGI_SET_RANGE ? it->b : it->hi, j, k0 = 0;
    uint64_t c = 0, c0 = 0, c1 = 0, cprev = 0, cnext = 0, bm = 0;
    int bounded = it->kind == SGI_SET_RANGE || top < MAXV;
    u128 y, ynext = 0;

    if (it->kind == SGI_SET_PRIMES)
        return walk_primes(w, it, y0, x, mine);
    if (!y0) {
        /* nothing from x up to min(top, 2^63 - 1) */
        if (!bounded)
            mark_rest_beyond(w, mine);
        return 1;
    }
    if (it->kind == SGI_SET_SQUARES || it->kind == SGI_SET_CUBES ||
        it->kind == SGI_SET_TRIANGULAR)
        k0 = index_of(y0, it->kind == SGI_SET_SQUARES ? 2
                          : it->kind == SGI_SET_CUBES ? 3
                                                      : 0);
    if (it->kind == SGI_SET_POWERS) {
        memset(w->seen, 0, (size_t)p);
        bm = it->a % p;
    }
    if (it->kind == SGI_SET_FIBONACCI) {
        /* the member after y0 in the sequence 1, 2, 3, 5, ... */
        u128 f0 = 1, f1 = 2;
        while (f0 < y0) {
            u128 t = f0 + f1;
            f0 = f1;
            f1 = t;
        }
        ynext = f1;
        cnext = (uint64_t)(f1 % p);
    }
    y = y0;
    c = y0 % p;
    for (j = 0;; j++) {
        if (!w->budget--)
            return 0;
        if (L) {
            if (j == L)
                return 1;
            y = member_at(it, y0, k0, j);
            c = (uint64_t)(y % p);
        }
        if (bounded && y > top)
            return 1; /* every member of the item was met */
        if (it->kind == SGI_SET_POWERS) {
            if (w->seen[c])
                return 1;
            w->seen[c] = 1;
        }
        if (it->kind == SGI_SET_FIBONACCI) {
            if (j == 0)
                c0 = c;
            else if (j == 1)
                c1 = c;
            else if (cprev == c0 && c == c1)
                return 1;
            cprev = c;
        }
        record(w, mine, y, c);
        if (it->kind == SGI_SET_POWERS) {
            y = y > HUGE / it->a ? HUGE : y * it->a;
            c = (uint64_t)((u128)c * bm % p);
        } else if (it->kind == SGI_SET_FIBONACCI) {
            /* the values saturate, the residues follow the recurrence */
            u128 t = y + ynext > HUGE ? HUGE : y + ynext;
            uint64_t rn = (uint64_t)(((u128)c + cnext) % p);
            y = ynext;
            ynext = t;
            c = cnext;
            cnext = rn;
        }
    }
}

/* The least member >= x of the union of the included items in each
 * class, into w->least (w->beyond marks classes that may hold members
 * past the cap).  0 when the budget ran out. */
static int walk_union(walk *w, const sgi_set *s, uint64_t x, uint64_t *mine)
{
    size_t i;
    uint64_t r;

    /* each walk of the union costs the p classes as well: a difference
     * whose excluded items swallow a whole class (primes\1+2k) re-walks
     * the union once per member skipped, and must stop within the budget */
    if (w->budget < w->p)
        return 0;
    w->budget -= w->p;
    memset(w->least, 0, (size_t)w->p * sizeof *w->least);
    memset(w->beyond, 0, (size_t)w->p);
    for (i = 0; i < s->ninc; i++) {
        memset(mine, 0, (size_t)w->p * sizeof *mine);
        if (!walk_item(w, &s->inc[i], x, mine))
            return 0;
        for (r = 0; r < w->p; r++)
            if (mine[r])
                note(w, mine[r]);
    }
    return 1;
}

static int excluded(const sgi_set *s, uint64_t k)
{
    size_t i;

    for (i = 0; i < s->nexc; i++)
        if (item_has(&s->exc[i], k))
            return 1;
    return 0;
}

/* The least member >= x of the set in class c (0: none); *unknown when
 * it may lie beyond the cap.  0 when the budget ran out. */
static int class_least(walk *w, const sgi_set *s, uint64_t c, uint64_t x,
                       uint64_t *mine, uint64_t *out, int *unknown)
{
    for (;;) {
        if (!walk_union(w, s, x, mine))
            return 0;
        *out = w->least[c];
        *unknown = !*out && w->beyond[c];
        if (!*out || !excluded(s, *out))
            return 1;
        if (*out >= w->cap || !w->skips--)
            return (*out = 0, *unknown = 1, 1);
        x = *out + 1;
    }
}

int sgi_set_residues(const sgi_set *s, uint64_t p, uint64_t cap,
                     uint64_t *maxleast, uint64_t *classes)
{
    walk w;
    uint64_t *least = NULL, *mine = NULL, *first = NULL, r, m = 0, n = 0;
    unsigned char *beyond = NULL, *fbeyond = NULL;
    int ok = 0;

    if (p == 0 || p > SGI_SET_RESIDUE_PERIOD_MAX || sgi_set_heap_dependent(s))
        return 0;
    if (cap > MAXV)
        cap = MAXV;
    least = malloc((size_t)p * sizeof *least);
    mine = malloc((size_t)p * sizeof *mine);
    first = malloc((size_t)p * sizeof *first);
    beyond = malloc((size_t)p);
    fbeyond = malloc((size_t)p);
    w.seen = malloc((size_t)p);
    if (!least || !mine || !first || !beyond || !fbeyond || !w.seen) {
        ok = -1;
        goto out;
    }
    w.p = p;
    w.cap = cap;
    w.least = least;
    w.beyond = beyond;
    w.budget = SGI_SET_RESIDUE_WORK_MAX;
    w.skips = SGI_SET_RESIDUE_SKIPS_MAX;
    if (!walk_union(&w, s, 1, mine))
        goto out;
    memcpy(first, least, (size_t)p * sizeof *first);
    memcpy(fbeyond, beyond, (size_t)p);
    for (r = 0; r < p; r++) {
        uint64_t v = first[r];
        int unknown = fbeyond[r] && !v;
        if (v && excluded(s, v) &&
            !class_least(&w, s, r, v + 1, mine, &v, &unknown))
            goto out;
        if (unknown)
            goto out; /* a class whose least member is past the cap */
        if (v) {
            n++;
            if (v > m)
                m = v;
        }
    }
    if (n == 0)
        goto out;
    *maxleast = m;
    if (classes)
        *classes = n;
    ok = 1;
out:
    free(least);
    free(mine);
    free(first);
    free(beyond);
    free(fbeyond);
    free(w.seen);
    return ok;
}
