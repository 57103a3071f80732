/*
 * prove_impl.h - what the prover's three files share (prove/): the
 * theorems' statements, bounds and hypotheses (theorems.c), read by the
 * proof search (prove.c) and by the certificate checker (cert_check.c),
 * so that the search and the check apply the same hypotheses.
 */
#ifndef SG_PROVE_IMPL_H
#define SG_PROVE_IMPL_H

#include "sgexplore.h"
#include "internal.h"

typedef sgi_proof_kind proof_kind;

/* A theorem of the table (theorems.c): its kind, SG_THM_* id and the
 * description results carry. */
struct theorem {
    proof_kind kind;
    const char *id;
    const char *name;
};

/* a + b and a * b, or UINT64_MAX when the result does not fit: no data
 * can reach UINT64_MAX, so an overflowing bound is simply never met. */
static inline uint64_t add_sat(uint64_t a, uint64_t b)
{
    uint64_t r;
    return __builtin_add_overflow(a, b, &r) ? UINT64_MAX : r;
}

static inline uint64_t mul_sat(uint64_t a, uint64_t b)
{
    uint64_t r;
    return __builtin_mul_overflow(a, b, &r) ? UINT64_MAX : r;
}

/* Which theorem can apply, and why not when none can: read off the rule's
 * profile (rules/profile.c). */
static inline proof_kind rule_kind(const sg_rule *r, const char **why)
{
    const sgi_profile *pr = sgi_rule_profile(r);

    if (why)
        *why = pr->why_unproven;
    return pr->proof;
}

/* Limits of hex_arith_check's work (steps), of the values it tables
 * (two tables of 8-byte heap sizes per value), and of the periods the
 * search tries: beyond them the theorem is not attempted (unresolved), and
 * a certificate is refused. */
#define HEX_WORK_MAX ((uint64_t)1 << 28)
#define HEX_VALUE_MAX ((uint64_t)1 << 20)
#define HEX_PERIOD_MAX 1024

/* G(i) widened, so that G(i) + s never overflows for any 63-bit s. */
#define G(i) ((uint64_t)sg_seq_get(s, (size_t)(i)))

/* The theorem of a kind (NULL for SGI_PROOF_NONE). */
const struct theorem *sgi_theorem_of(proof_kind k);

/* One past the last n at which the theorem needs G(n+p) = G(n) + s (t
 * the code length, sgi_kind_length), and the last n whose value it needs
 * (the certified_to of a proof); UINT64_MAX on overflow. */
uint64_t sgi_agreement_end(proof_kind kind, uint64_t a, uint64_t p, uint64_t t);
uint64_t sgi_theorem_needs(proof_kind kind, uint64_t a, uint64_t p, uint64_t t);
uint64_t sgi_kind_length(proof_kind kind, const sg_rule *r);

/* The hypotheses the theorems add to the agreement, each 1 when it holds,
 * 0 when not (*why says which), -1 when out of memory: the tail
 * theorem's prefix condition, the splitting tail's check, the
 * periodic tail's class condition and the hexadecimal theorem's
 * check (docs/THEORY.md, sections 7.2 to 7.5). */
int sgi_prefix_condition(const sg_seq *s, uint64_t a, uint64_t p, uint64_t sal);
int sgi_split_tail_check(const sg_seq *s, const sg_rule *r, uint64_t a,
                         uint64_t p, uint64_t sal, uint64_t *need,
                         const char **why);
int sgi_class_condition(const sg_seq *s, const sg_rule *r, uint64_t a,
                        uint64_t p, uint64_t sal, const char **why);
int sgi_hex_arith_check(const sg_seq *s, const sg_rule *r, uint64_t a,
                        uint64_t p, uint64_t sal, uint64_t *need,
                        const char **why, int *late);

/* The set-residues theorem's bound M + p - 1 for period p (M at most
 * cap): 1 with *need, 0 when unknown (*why), -1 when out of memory. */
int sgi_set_residue_needs(const sg_rule *r, uint64_t p, uint64_t cap,
                          uint64_t *need, const char **why);

/* The least arithmetic period of a sequence with period (p, sal) from a,
 * and its saltus *sd. */
uint64_t sgi_least_period(const sg_seq *s, uint64_t a, uint64_t p, uint64_t sal,
                          uint64_t *sd);

#endif /* SG_PROVE_IMPL_H */
