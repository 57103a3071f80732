/*
 * query.c - questions about heaps of any size (GMP integers): G(N), and
 * winning moves in multi-heap positions.  Beyond the computed range a
 * heap is reduced modulo the proven period; a move on a huge heap is found
 * on an equivalent small heap and translated back (docs/THEORY.md, "Big
 * heaps").
 */
#include "sgexplore.h"
#include "rules/moves.h"
#include "internal.h"

#include <stdlib.h>
#include <string.h>

sg_status sg_value_at(mpz_t out, const sg_result *res, const sg_seq *s,
                      const mpz_t n)
{
    mpz_t r;

    if (mpz_sgn(n) < 0)
        return SG_E_INPUT;
    if (mpz_cmp_ui(n, (unsigned long)s->n) < 0) {
        mpz_set_ui(out, sg_seq_get(s, mpz_get_ui(n)));
        return SG_OK;
    }
    if (res->status == SG_UNRESOLVED || res->period == 0)
        return SG_E_UNKNOWN;
    /* n >= computed > n0 here: reduce to n0 + ((n - n0) mod p). */
    mpz_init(r);
    mpz_sub_ui(r, n, (unsigned long)res->preperiod);
    if (res->status == SG_ARITH_PERIODIC) {
        mpz_t q;
        mpz_init(q);
        mpz_fdiv_qr_ui(q, r, r, (unsigned long)res->period);
        mpz_mul_ui(q, q, (unsigned long)res->saltus);
        mpz_add_ui(out, q, sg_seq_get(s, res->preperiod + mpz_get_ui(r)));
        mpz_clear(q);
    } else {
        unsigned long idx = mpz_fdiv_ui(r, (unsigned long)res->period);
        mpz_set_ui(out, sg_seq_get(s, res->preperiod + idx));
    }
    mpz_clear(r);
    return SG_OK;
}

void sg_move_init(sg_move *m)
{
    int i;
    mpz_init(m->take);
    for (i = 0; i < SG_MOVE_MAX_LEFT; i++)
        mpz_init(m->left[i]);
    m->nleft = 0;
}

void sg_move_clear(sg_move *m)
{
    int i;
    mpz_clear(m->take);
    for (i = 0; i < SG_MOVE_MAX_LEFT; i++)
        mpz_clear(m->left[i]);
}

/* Smallest heap size above which every option's largest part is at least
 * m (= max(n0,1)), so that adding a multiple of p to that part keeps the
 * option's value. */
static uint64_t translation_threshold(const sg_rule *r, uint64_t m)
{
    unsigned bits = sg_rule_bits(r);
    uint64_t t = sg_rule_max_take(r);

    if (bits & SG_BIT_THREE)
        return 3 * m + t;
    if (bits & SG_BIT_TWO)
        return 2 * m + t;
    return m + t;
}

/* Whether removing k tokens from heap h to leave one heap m = h - k (or
 * nothing when m = 0) is a move of r. */
static int one_heap_move_ok(const sg_rule *r, const mpz_t k, const mpz_t m)
{
    unsigned d;

    if (mpz_sgn(k) <= 0)
        return 0;
    if (r->tail_len && mpz_cmp_ui(k, (unsigned long)r->tail_start) >= 0) {
        mpz_t j;
        unsigned long idx;
        mpz_init(j);
        mpz_sub_ui(j, k, (unsigned long)r->tail_start);
        idx = mpz_fdiv_ui(j, (unsigned long)r->tail_len);
        mpz_clear(j);
        d = r->tail[idx];
    } else if (mpz_fits_ulong_p(k)) {
        d = sg_rule_digit(r, mpz_get_ui(k), NULL);
    } else {
        return 0;
    }
    return mpz_sgn(m) == 0 ? (d & SG_BIT_ALL) != 0 : (d & SG_BIT_ONE) != 0;
}

/* A move from a huge heap h of a split-free rule with a proven (arithmetic)
 * period: any heap m < h with G(m) = target that h can move to.  The
 * candidates are the computed heaps with that value and, beyond them, the
 * heaps n0 + r + j p whose value G(n0 + r) + j s equals the target. */
static int find_one_heap_move(sg_move *mv, const sg_rule *r,
                              const sg_result *res, const sg_seq *s,
                              const mpz_t h, const mpz_t target)
{
    mpz_t m, k, x;
    size_t i;
    uint64_t rr;
    int found = 0;

    mpz_inits(m, k, x, NULL);
    /* Largest candidates first among the computed ones: a huge heap moving
     * to a small one removes many tokens, which the tail always allows. */
    for (i = s->n; i-- > 0 && !found;) {
        if (mpz_cmp_ui(target, sg_seq_get(s, i)) != 0)
            continue;
        mpz_set_ui(m, (unsigned long)i);
        mpz_sub(k, h, m);
        if (one_heap_move_ok(r, k, m))
            found = 1;
    }
    for (rr = 0; !found && res->saltus && rr < res->period; rr++) {
        sg_value base = sg_seq_get(s, (size_t)(res->preperiod + rr));
        /* target = base + j * saltus for some j >= 0? */
        if (mpz_cmp_ui(target, base) < 0)
            continue;
        mpz_sub_ui(x, target, base);
        if (!mpz_divisible_ui_p(x, (unsigned long)res->saltus))
            continue;
        mpz_divexact_ui(x, x, (unsigned long)res->saltus);
        mpz_mul_ui(m, x, (unsigned long)res->period);
        mpz_add_ui(m, m, (unsigned long)(res->preperiod + rr));
        if (mpz_cmp(m, h) >= 0)
            continue;
        mpz_sub(k, h, m);
        if (one_heap_move_ok(r, k, m))
            found = 1;
    }
    if (found) {
        mpz_set(mv->take, k);
        mv->nleft = mpz_sgn(m) ? 1 : 0;
        if (mv->nleft)
            mpz_set(mv->left[0], m);
    }
    mpz_clears(m, k, x, NULL);
    return found;
}

static sg_status find_periodic_move(sg_move *m, const sg_rule *r,
                                    const sg_result *res, const sg_seq *s,
                                    const mpz_t h, const mpz_t target);

/* A move from a huge heap h of a tail rule with splits (the splitting-tail
 * theorem, THEORY.md section 7.4): a split at a position k <= f with a
 * small part x, G(x) below the saltus, whose value G(x) ^ G(h - k - x),
 * computed by sg_value_at, is the target.  By the theorem, every value
 * below G(h) that no one-heap move reaches is reached this way; whatever
 * is found is a legal move of exactly that value in any case. */
static int find_small_split_move(sg_move *mv, const sg_rule *r,
                                 const sg_result *res, const sg_seq *s,
                                 const mpz_t h, const mpz_t target)
{
    mpz_t y, v, gx;
    uint64_t k, x;
    int found = 0;

    if (!r->tail_len || res->saltus == 0)
        return 0;
    mpz_inits(y, v, gx, NULL);
    for (x = 1; !found && x < s->n && sg_seq_get(s, x) < res->saltus; x++)
        for (k = 0; !found && k < r->tail_start; k++) {
            if (!(sg_rule_digit(r, k, NULL) & SG_BIT_TWO))
                continue;
            mpz_sub_ui(y, h, (unsigned long)(k + x));
            if (mpz_sgn(y) <= 0 || sg_value_at(v, res, s, y) != SG_OK)
                continue;
            mpz_set_ui(gx, sg_seq_get(s, x));
            mpz_xor(v, v, gx);
            if (mpz_cmp(v, target) == 0) {
                mpz_set_ui(mv->take, (unsigned long)k);
                mv->nleft = 2;
                mpz_set_ui(mv->left[0], (unsigned long)x);
                mpz_set(mv->left[1], y);
                found = 1;
            }
        }
    mpz_clears(y, v, gx, NULL);
    return found;
}

/* Fill mv with "remove k and leave the parts q[0..n-1]", ascending. */
static void set_move(sg_move *mv, uint64_t k, mpz_t *q, int n)
{
    int i, j;

    for (i = 1; i < n; i++)
        for (j = i; j > 0 && mpz_cmp(q[j - 1], q[j]) > 0; j--)
            mpz_swap(q[j - 1], q[j]);
    mpz_set_ui(mv->take, (unsigned long)k);
    mv->nleft = n;
    for (i = 0; i < n; i++)
        mpz_set(mv->left[i], q[i]);
}

/* Whether removing k from heap h and leaving two equal parts x, x and z
 * (z = 0: the two parts alone) is a move: the digit's bit, h - k - z even
 * and at least 2.  Sets the move. */
static int pair_move(sg_move *mv, const sg_rule *r, const mpz_t h, uint64_t k,
                     const mpz_t z)
{
    unsigned d = sg_rule_digit(r, k, NULL);
    mpz_t q[3];
    int ok = 0;

    if (!(d & (mpz_sgn(z) ? SG_BIT_THREE : SG_BIT_TWO)))
        return 0;
    mpz_inits(q[0], q[1], q[2], NULL);
    mpz_sub_ui(q[0], h, (unsigned long)k);
    mpz_sub(q[0], q[0], z);
    if (mpz_cmp_ui(q[0], 2) >= 0 && mpz_even_p(q[0])) {
        mpz_fdiv_q_2exp(q[0], q[0], 1);
        mpz_set(q[1], q[0]);
        mpz_set(q[2], z);
        set_move(mv, k, q, mpz_sgn(z) ? 3 : 2);
        ok = 1;
    }
    mpz_clears(q[0], q[1], q[2], NULL);
    return ok;
}

/* A move from a huge heap h of a finite code proven arithmetic-periodic
 * by the hexadecimal theorem (THEORY.md 7.5): by Q(h) of its proof every
 * value below G(h) is that of a one-heap move, of a split with one or
 * two parts u < c (c the least heap of value at least the proof's
 * saltus), or of a split leaving two equal parts and a part z with G(z)
 * the target.  The candidates z are the computed heaps of that value and
 * the heaps n0 + i + j p of value G(n0 + i) + j s.  Values come from
 * sg_value_at; whatever is found is a legal move of exactly the target's
 * value in any case. */
static int find_hex_move(sg_move *mv, const sg_rule *r, const sg_result *res,
                         const sg_seq *s, const mpz_t h, const mpz_t target)
{
    uint64_t t = sg_rule_max_take(r), k, u, w, c, i;
    mpz_t y, v, q[3], z;
    int found = 0;

    if (res->proof_saltus == 0)
        return 0;
    for (c = 1; c < s->n && sg_seq_get(s, c) < res->proof_saltus; c++)
        ;
    mpz_inits(y, v, q[0], q[1], q[2], z, NULL);
    for (k = 0; !found && k <= t; k++) {
        unsigned d = sg_rule_digit(r, k, NULL);
        if (k >= 1 && (d & SG_BIT_ONE)) {
            mpz_sub_ui(y, h, (unsigned long)k);
            if (sg_value_at(v, res, s, y) == SG_OK && mpz_cmp(v, target) == 0) {
                mpz_set(q[0], y);
                set_move(mv, k, q, 1);
                found = 1;
            }
        }
        for (u = 1; !found && (d & SG_BIT_TWO) && u < c; u++) {
            mpz_sub_ui(y, h, (unsigned long)(k + u));
            if (mpz_sgn(y) <= 0 || sg_value_at(v, res, s, y) != SG_OK)
                continue;
            mpz_set_ui(q[0], (unsigned long)sg_seq_get(s, u));
            mpz_xor(v, v, q[0]);
            if (mpz_cmp(v, target) == 0) {
                mpz_set_ui(q[0], (unsigned long)u);
                mpz_set(q[1], y);
                set_move(mv, k, q, 2);
                found = 1;
            }
        }
        for (u = 1; !found && (d & SG_BIT_THREE) && u < c; u++)
            for (w = 1; !found && w < c; w++) {
                mpz_sub_ui(y, h, (unsigned long)(k + u + w));
                if (mpz_sgn(y) <= 0 || sg_value_at(v, res, s, y) != SG_OK)
                    continue;
                mpz_set_ui(
                    q[0], (unsigned long)(sg_seq_get(s, u) ^ sg_seq_get(s, w)));
                mpz_xor(v, v, q[0]);
                if (mpz_cmp(v, target) == 0) {
                    mpz_set_ui(q[0], (unsigned long)u);
                    mpz_set_ui(q[1], (unsigned long)w);
                    mpz_set(q[2], y);
                    set_move(mv, k, q, 3);
                    found = 1;
                }
            }
    }
    /* Two equal parts and z: the computed heaps of the target's value,
     * then those beyond, one per class. */
    for (i = 0; !found && i < s->n; i++) {
        if (mpz_cmp_ui(target, sg_seq_get(s, i)) != 0)
            continue;
        mpz_set_ui(z, (unsigned long)i);
        for (k = 0; !found && k <= t; k++)
            found = pair_move(mv, r, h, k, z);
    }
    for (i = 0; !found && i < res->period; i++) {
        sg_value base = sg_seq_get(s, (size_t)(res->preperiod + i));
        if (mpz_cmp_ui(target, base) < 0)
            continue;
        mpz_sub_ui(z, target, base);
        if (!mpz_divisible_ui_p(z, (unsigned long)res->saltus))
            continue;
        mpz_divexact_ui(z, z, (unsigned long)res->saltus);
        mpz_mul_ui(z, z, (unsigned long)res->period);
        mpz_add_ui(z, z, (unsigned long)(res->preperiod + i));
        for (k = 0; !found && k <= t; k++)
            found = pair_move(mv, r, h, k, z);
    }
    mpz_clears(y, v, q[0], q[1], q[2], z, NULL);
    return found;
}

sg_status sg_find_move(sg_move *m, const sg_rule *r, const sg_result *res,
                       const sg_seq *s, const mpz_t h, const mpz_t target)
{
    if (r->tb) {
        /* no theorem proves a general code: computed heaps only */
        uint64_t take;
        size_t part[SG_MOVE_MAX_LEFT];
        unsigned np, i;
        if (mpz_cmp_ui(h, (unsigned long)s->n) >= 0 || mpz_sgn(target) < 0 ||
            mpz_cmp_ui(target, UINT32_MAX) > 0 ||
            sgi_tb_find_move(r->tb, s, mpz_get_ui(h),
                             (sg_value)mpz_get_ui(target), &take, part, &np))
            return SG_E_UNKNOWN;
        mpz_set_ui(m->take, (unsigned long)take);
        for (i = 0; i < np; i++)
            mpz_set_ui(m->left[i], (unsigned long)part[i]);
        m->nleft = (int)np;
        return SG_OK;
    }
    if (r->set) {
        /* no theorem proves a set rule: computed heaps only */
        uint64_t take;
        if (mpz_cmp_ui(h, (unsigned long)s->n) >= 0 || mpz_sgn(target) < 0 ||
            mpz_cmp_ui(target, UINT32_MAX) > 0 ||
            !sgi_rule_set_find_move(&take, r, s, mpz_get_ui(h),
                                    (sg_value)mpz_get_ui(target)))
            return SG_E_UNKNOWN;
        mpz_set_ui(m->take, (unsigned long)take);
        mpz_sub_ui(m->left[0], h, (unsigned long)take);
        m->nleft = mpz_sgn(m->left[0]) ? 1 : 0;
        return SG_OK;
    }
    if (mpz_cmp_ui(h, (unsigned long)s->n) >= 0 && r->tail_len &&
        res->status != SG_UNRESOLVED &&
        !(sg_rule_bits(r) & (SG_BIT_TWO | SG_BIT_THREE)))
        return find_one_heap_move(m, r, res, s, h, target) ? SG_OK
                                                           : SG_E_UNKNOWN;
    if (mpz_cmp_ui(h, (unsigned long)s->n) >= 0 && r->tail_len &&
        res->status == SG_ARITH_PERIODIC && !(sg_rule_bits(r) & SG_BIT_THREE))
        return find_one_heap_move(m, r, res, s, h, target) ||
                       find_small_split_move(m, r, res, s, h, target)
                   ? SG_OK
                   : SG_E_UNKNOWN;
    if (mpz_cmp_ui(h, (unsigned long)s->n) >= 0 && !r->tail_len &&
        res->status == SG_ARITH_PERIODIC)
        return find_hex_move(m, r, res, s, h, target) ? SG_OK : SG_E_UNKNOWN;
    return find_periodic_move(m, r, res, s, h, target);
}

/* Moves of finite codes: on the heap itself when computed, otherwise on an
 * equivalent heap modulo the period, translated back. */
static sg_status find_periodic_move(sg_move *m, const sg_rule *r,
                                    const sg_result *res, const sg_seq *s,
                                    const mpz_t h, const mpz_t target)
{
    sgi_option o;
    size_t hs;
    int i;
    sg_value tv;
    mpz_t shift;

    if (mpz_sgn(target) < 0 || mpz_cmp_ui(target, UINT32_MAX) > 0)
        return SG_E_UNKNOWN;
    tv = (sg_value)mpz_get_ui(target);
    mpz_init_set_ui(shift, 0);
    if (mpz_cmp_ui(h, (unsigned long)s->n) < 0) {
        hs = mpz_get_ui(h);
        if (!sgi_moves_find(&o, r, s, hs, tv, 0))
            goto unknown;
    } else {
        uint64_t n0, p, lo;
        mpz_t x;

        if (res->status != SG_PERIODIC)
            goto unknown;
        n0 = res->preperiod ? res->preperiod : 1;
        p = res->period;
        lo = translation_threshold(r, n0);
        if (lo < res->preperiod)
            lo = res->preperiod;
        /* h' = lo + ((h - lo) mod p) lies in [lo, lo + p). */
        mpz_init(x);
        mpz_sub_ui(x, h, (unsigned long)lo);
        hs = (size_t)(lo + mpz_fdiv_ui(x, (unsigned long)p));
        mpz_clear(x);
        if (hs >= s->n)
            goto unknown;
        if (!sgi_moves_find(&o, r, s, hs, tv, n0))
            goto unknown;
        mpz_sub_ui(shift, h, (unsigned long)hs);
    }
    mpz_set_ui(m->take, (unsigned long)o.take);
    m->nleft = o.nparts;
    for (i = 0; i < o.nparts; i++)
        mpz_set_ui(m->left[i], (unsigned long)o.part[i]);
    if (o.nparts > 0)
        mpz_add(m->left[o.nparts - 1], m->left[o.nparts - 1], shift);
    mpz_clear(shift);
    return SG_OK;
unknown:
    mpz_clear(shift);
    return SG_E_UNKNOWN;
}

void sg_position_init(sg_position *p)
{
    memset(p, 0, sizeof *p);
    mpz_init(p->nim_sum);
    sg_move_init(&p->move);
    p->move_heap = -1;
}

void sg_position_clear(sg_position *p)
{
    size_t i;

    for (i = 0; i < p->nheaps; i++)
        mpz_clear(p->values[i]);
    free(p->values);
    mpz_clear(p->nim_sum);
    sg_move_clear(&p->move);
    memset(p, 0, sizeof *p);
}

sg_status sg_position_analyse(sg_position *out, const sg_rule *r,
                              const sg_result *res, const sg_seq *s,
                              const mpz_t *heaps, size_t nheaps)
{
    size_t i;
    mpz_t target;
    sg_status st = SG_OK;

    out->values = malloc((nheaps ? nheaps : 1) * sizeof *out->values);
    if (!out->values)
        return SG_E_NOMEM;
    for (i = 0; i < nheaps; i++)
        mpz_init(out->values[i]);
    out->nheaps = nheaps;
    mpz_set_ui(out->nim_sum, 0);
    for (i = 0; i < nheaps; i++) {
        st = sg_value_at(out->values[i], res, s, heaps[i]);
        if (st)
            return st;
        mpz_xor(out->nim_sum, out->nim_sum, out->values[i]);
    }
    out->first_wins = mpz_sgn(out->nim_sum) != 0;
    out->move_heap = -1;
    if (!out->first_wins)
        return SG_OK;
    mpz_init(target);
    st = SG_E_UNKNOWN;
    for (i = 0; i < nheaps; i++) {
        mpz_xor(target, out->values[i], out->nim_sum);
        if (mpz_cmp(target, out->values[i]) >= 0)
            continue;
        if (sg_find_move(&out->move, r, res, s, heaps[i], target) == SG_OK) {
            out->move_heap = (long)i;
            st = SG_OK;
            break;
        }
    }
    mpz_clear(target);
    return st;
}
