/*
 * cert_check.c - the check of a certificate's claim (sg_certificate_check,
 * which `verify` and the store use): every hypothesis of the claimed
 * theorem re-checked from the values alone, with the same functions as
 * the proof search (theorems.c), and every sum and product on certificate
 * fields checked for overflow.  A claim passes only if the search could
 * have proven it.
 */
#include "prove/prove_impl.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* Set the reason a certificate is refuted; returns 0 for `return refute()`. */
static int refute(sg_error *err, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static int refute(sg_error *err, const char *fmt, ...)
{
    va_list ap;
    if (!err)
        return 0;
    err->code = SG_E_INPUT;
    err->pos = -1;
    va_start(ap, fmt);
    vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    va_end(ap);
    return 0;
}

#define U(x) ((unsigned long long)(x))

/* The splitting-tail and hexadecimal theorems: both read their
 * hypotheses off G(0..B) with a saltus (sgi_split_tail_check,
 * sgi_hex_arith_check). */
static int check_finite(const sg_rule *r, const sg_result *c, const sg_seq *s,
                        proof_kind kind, sg_error *err)
{
    uint64_t a = c->proof_start, p = c->proof_period, sal = c->proof_saltus;
    uint64_t B = c->certified_to, need;
    int hex = kind == SGI_PROOF_HEX_ARITH;
    const char *why, *name = hex ? "hexadecimal" : "splitting-tail";
    int ok;

    if (B >= s->n)
        return refute(err, "fewer values available than the "
                           "certificate covers");
    if (sg_checksum(s, (size_t)B + 1) != c->checksum)
        return refute(err, "checksum of G(0..bound) does not match");
    if (hex && sal == 0)
        return refute(err, "this theorem proves only arithmetic "
                           "periodicity (saltus at least 1)");
    if (sal > s->max)
        return refute(err, "the proof's saltus %llu exceeds every value",
                      U(sal));
    if (p > B || a > B - p)
        return refute(err, "the start and period reach beyond the "
                           "bound");
    ok = hex ? sgi_hex_arith_check(s, r, a, p, sal, &need, &why, NULL)
             : sgi_split_tail_check(s, r, a, p, sal, &need, &why);
    if (ok < 0) {
        sg_error_set(err, SG_E_NOMEM, -1,
                     "out of memory while checking the %s theorem", name);
        return 0;
    }
    if (need != UINT64_MAX && need > B)
        return refute(err,
                      "the bound is smaller than the theorem needs "
                      "(%llu < %llu)",
                      U(B), U(need));
    if (!ok)
        return refute(err, "the %s theorem's check fails: %s", name, why);
    return 1;
}

/* The other theorems: the agreement over the theorem's range, and the
 * periodic tail's class condition or the tail theorem's prefix
 * condition. */
static int check_agreement(const sg_rule *r, const sg_result *c,
                           const sg_seq *s, proof_kind kind, uint64_t *fail_n,
                           sg_error *err)
{
    uint64_t a = c->proof_start, p = c->proof_period, sal = c->proof_saltus;
    uint64_t B = c->certified_to, t, end, need, n;
    int pc;

    if (kind == SGI_PROOF_SET_RESIDUES) {
        /* THEORY.md 7.8: agreement for 0 <= n < M, M found within B */
        const char *why;
        int ok = sgi_set_residue_needs(r, p, B, &need, &why);
        if (ok < 0) {
            sg_error_set(err, SG_E_NOMEM, -1,
                         "out of memory while reading the set's residues");
            return 0;
        }
        if (ok == 0)
            return refute(err, "%s", why);
        end = need - (p - 1);
    } else {
        t = sgi_kind_length(kind, r);
        end = sgi_agreement_end(kind, a, p, t);
        need = sgi_theorem_needs(kind, a, p, t);
    }
    if (need == UINT64_MAX)
        return refute(err,
                      "the theorem's bound for start %llu and period "
                      "%llu exceeds 2^64",
                      U(a), U(p));
    if (need > B)
        return refute(err,
                      "the bound is smaller than the theorem needs (%llu < "
                      "%llu)",
                      U(B), U(need));
    if (B >= s->n)
        return refute(err, "fewer values available than the certificate "
                           "covers");
    if (sg_checksum(s, (size_t)B + 1) != c->checksum)
        return refute(err, "checksum of G(0..bound) does not match");
    /* From here on every index is at most need <= B < s->n. */
    if (sal > s->max)
        return refute(err, "the proof's saltus %llu exceeds every value",
                      U(sal));
    for (n = a; n < end; n++)
        if (G(n + p) != G(n) + sal) {
            *fail_n = n;
            return refute(err,
                          "G(n+%llu) differs from G(n)+%llu inside the "
                          "theorem's range",
                          U(p), U(sal));
        }
    if (kind == SGI_PROOF_TAIL_PERIODIC) {
        const char *why = NULL;
        int ok;
        if (p % r->tail_len)
            return refute(err,
                          "the proof's period %llu is not a multiple of the "
                          "tail's period %llu",
                          U(p), U(r->tail_len));
        if (sal && p > B - a + 1)
            return refute(err, "the start and period reach beyond the "
                               "bound");
        if (sal && (ok = sgi_class_condition(s, r, a, p, sal, &why)) != 1) {
            if (ok < 0) {
                sg_error_set(err, SG_E_NOMEM, -1,
                             "out of memory while checking the class "
                             "condition");
                return 0;
            }
            return refute(err, "%s", why);
        }
    }
    if (kind == SGI_PROOF_TAIL3 &&
        (pc = sgi_prefix_condition(s, a, p, sal)) != 1) {
        if (pc < 0) {
            sg_error_set(err, SG_E_NOMEM, -1,
                         "out of memory while checking the prefix condition");
            return 0;
        }
        return refute(err, "the prefix condition of the tail theorem fails");
    }
    return 1;
}

/* The claim: every arithmetic period of the proven sequence is a
 * multiple of the least one d, with saltus in proportion; the claimed
 * period is d and the pre-period the least. */
static int check_claim(const sg_result *c, const sg_seq *s, uint64_t *fail_n,
                       sg_error *err)
{
    uint64_t a = c->proof_start, p = c->proof_period, sal = c->proof_saltus;
    uint64_t q = c->period, sq = c->saltus, n0 = c->preperiod, n, d, sd;

    d = sgi_least_period(s, a, p, sal, &sd);
    if (q % d || sq != mul_sat(sd, q / d))
        return refute(err,
                      "the claimed period %llu with saltus %llu is not a "
                      "period of the proven sequence (its least period is "
                      "%llu, saltus %llu)",
                      U(q), U(sq), U(d), U(sd));
    if (q != d)
        return refute(err,
                      "the claimed period %llu is a period, but not the "
                      "least one (the least is %llu)",
                      U(q), U(d));
    if (n0 > a)
        return refute(err,
                      "the claimed pre-period %llu lies beyond the "
                      "theorem's start %llu",
                      U(n0), U(a));
    for (n = n0; n < a; n++)
        if (G(n + q) != G(n) + sq) {
            *fail_n = n;
            return refute(err,
                          "G(n+%llu) differs from G(n)+%llu below the "
                          "theorem's start",
                          U(q), U(sq));
        }
    if (n0 > 0 && G(n0 - 1 + q) == G(n0 - 1) + sq) {
        *fail_n = n0 - 1;
        return refute(err, "the claimed pre-period %llu is not the least",
                      U(n0));
    }
    return 1;
}

int sg_certificate_check(const sg_rule *r, const sg_result *c, const sg_seq *s,
                         uint64_t *fail_n, sg_error *err)
{
    proof_kind kind = rule_kind(r, NULL);
    const struct theorem *th = sgi_theorem_of(kind);
    uint64_t a = c->proof_start, p = c->proof_period, sal = c->proof_saltus;
    uint64_t q = c->period, sq = c->saltus;

    *fail_n = UINT64_MAX;
    /* Finite codes with three-heap moves have two theorems: plain
     * (guy-smith-3) and arithmetic (hex-arith) periodicity. */
    if (kind == SGI_PROOF_THREE && c->theorem_id &&
        strcmp(c->theorem_id, SG_THM_HEX_ARITH) == 0) {
        kind = SGI_PROOF_HEX_ARITH;
        th = sgi_theorem_of(kind);
    }
    if (!th)
        return refute(err, "no implemented theorem applies to this rule");
    if (!c->theorem_id || strcmp(th->id, c->theorem_id) != 0)
        return refute(err,
                      "the stated theorem does not apply to this rule "
                      "(only %s does)",
                      kind == SGI_PROOF_THREE ? SG_THM_THREE_HEAP
                          " or " SG_THM_HEX_ARITH
                                              : th->id);
    if (p == 0 || q == 0)
        return refute(err, "the period must be positive");
    if (c->status != (sq ? SG_ARITH_PERIODIC : SG_PERIODIC))
        return refute(err, "the status '%s' contradicts the saltus %llu",
                      sg_period_status_name(c->status), U(sq));
    if (kind != SGI_PROOF_TAIL3 && kind != SGI_PROOF_TAIL3_SPLIT &&
        kind != SGI_PROOF_TAIL_PERIODIC && kind != SGI_PROOF_HEX_ARITH &&
        (sal != 0 || sq != 0))
        return refute(err,
                      "this theorem proves only plain periodicity (saltus 0)");
    if (kind == SGI_PROOF_SET_RESIDUES && a != 0)
        return refute(err, "the set-residues theorem starts at 0");
    if (kind != SGI_PROOF_TAIL3 && kind != SGI_PROOF_SET_RESIDUES && a == 0)
        return refute(err, "the theorem's start must be at least 1");
    if (kind == SGI_PROOF_TAIL3_SPLIT || kind == SGI_PROOF_HEX_ARITH) {
        if (!check_finite(r, c, s, kind, err))
            return 0;
    } else if (!check_agreement(r, c, s, kind, fail_n, err)) {
        return 0;
    }
    return check_claim(c, s, fail_n, err);
}

#undef U
#undef G
