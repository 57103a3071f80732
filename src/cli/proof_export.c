/*
 * proof_export.c - `--export-proof FILE.v`: a Coq proof script of a
 * proven period (docs/PROOFS.md).  The script states the period in terms
 * of the specification's G (coq/Spec.v), holds the values G(0..B) that
 * the reference method (sg_enumerate_naive) computes, and proves the
 * statement with the proven checker of coq/Check.v, run by the kernel's
 * virtual machine: coqc accepting the file is the proof.  Only rules
 * whose theorem the Coq development proves get a script: finite codes
 * with bits 1, 2 and 4 (digit 0 or 4 before the point, no `!`) and
 * finite subtraction sets, with a plain period (saltus 0).
 */
#define _DEFAULT_SOURCE
#include "cli.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* PArray's max_length (2^22 - 1) bounds the values a script can hold. */
#define PROOF_MAX_VALUES ((uint64_t)1 << 22)
/* A code's digits are written out one by one: keep the list readable. */
#define PROOF_MAX_TAKE 100000

/* Why the Coq development does not cover rule r with result res, or NULL
 * when it does.  *subtract says whether to write it as a subtraction set
 * (every digit 3, none before the point). */
static const char *not_covered(const sg_rule *r, const sg_result *res,
                               int *subtract)
{
    size_t i;
    unsigned d;

    if (res->status == SG_UNRESOLVED)
        return "no period is proven";
    if (res->status != SG_PERIODIC || res->saltus != 0)
        return "the Coq development proves plain periods only, not "
               "arithmetic periodicity";
    if (r->set || r->tb || r->tail_len > 0)
        return "the Coq development covers finite codes and finite "
               "subtraction sets only";
    if (sg_rule_has_unequal(r))
        return "the Coq development does not prove the theorem for `!` "
               "codes";
    if (sg_rule_bits(r) & SG_BIT_THREE)
        return "the Coq development does not prove the three-heap "
               "(hexadecimal) theorem";
    d = sg_rule_digit(r, 0, NULL);
    if (d != 0 && d != 4)
        return "a digit before the point other than 0 or 4";
    if (sg_rule_max_take(r) > PROOF_MAX_TAKE)
        return "a move removes too many tokens for a readable Coq rule";
    *subtract = r->nterms > 0;
    for (i = 0; i < r->nterms; i++)
        if (r->terms[i].take == 0 || r->terms[i].digit != 3)
            *subtract = 0;
    return NULL;
}

/* The last heap whose value the Coq checker needs: its theorem_end plus
 * the period, minus 1 (coq/Periodic.v, coq/Check.v).  0 on overflow. */
static uint64_t coq_bound(const sg_rule *r, uint64_t n0, uint64_t p)
{
    uint64_t t = sg_rule_max_take(r), n1 = n0 ? n0 : 1, e;
    int split = (sg_rule_bits(r) & SG_BIT_TWO) != 0;

    if (r->nterms == 0)
        t = 0;
    if (n1 > PROOF_MAX_VALUES || p > PROOF_MAX_VALUES)
        return 0;
    e = split ? 2 * n1 + p + t : n1 + t;
    return e + p - 1;
}

/* The rule as a term of coq/Spec.v: `Code [0;7;7]`, `Subtract [2;3;5]`. */
static void write_rule(FILE *f, const sg_rule *r, int subtract)
{
    uint64_t k, t = sg_rule_max_take(r);
    size_t i;

    if (subtract) {
        fputs("(Subtract [", f);
        for (i = 0; i < r->nterms; i++)
            fprintf(f, "%s%llu", i ? ";" : "",
                    (unsigned long long)r->terms[i].take);
        fputs("])", f);
        return;
    }
    if (r->nterms == 0)
        t = 0;
    fputs("(Code [", f);
    for (k = 0; k <= t; k++)
        fprintf(f, "%s%u", k ? ";" : "", sg_rule_digit(r, k, NULL));
    fputs("])", f);
}

static int write_script(FILE *f, const sg_rule *r, const char *canon,
                        int subtract, uint64_t n0, uint64_t p,
                        const sg_seq *vals, uint64_t bound)
{
    uint64_t i;
    int col = 0;

    fprintf(f,
            "(* Written by sgexplore --export-proof (docs/PROOFS.md).\n"
            "   Rule %s: G(n + %llu) = G(n) for every n >= %llu.\n"
            "   coqc accepting this file proves it from the definition of "
            "G in\n"
            "   coq/Spec.v:  coqc -Q <sgexplore>/coq SG THIS_FILE.v *)\n"
            "From Coq Require Import List Uint63 PArray.\n"
            "From SG Require Import Spec Check.\n\n"
            "(* G(0..%llu), the values the checker needs; it checks that "
            "each is the\n"
            "   mex of the values of its heap's moves, so they need not be "
            "trusted. *)\n"
            "Definition values : array int := [|\n",
            canon, (unsigned long long)p, (unsigned long long)n0,
            (unsigned long long)bound);
    for (i = 0; i <= bound; i++) {
        char num[16];
        int len = snprintf(num, sizeof num, "%lu%s",
                           (unsigned long)sg_seq_get(vals, (size_t)i),
                           i < bound ? ";" : "");
        if (col + len > 78) {
            fputc('\n', f);
            col = 0;
        }
        fputs(num, f);
        col += len;
    }
    fputs(" | 0 |]%uint63.\n\nImport ListNotations.\n\n", f);
    fputs("Theorem periodic :\n  forall n, n >= ", f);
    fprintf(f, "%llu -> G ", (unsigned long long)n0);
    write_rule(f, r, subtract);
    fprintf(f, " (n + %llu) = G ", (unsigned long long)p);
    write_rule(f, r, subtract);
    fputs(" n.\nProof.\n  intros n Hn.\n  apply (check_sound ", f);
    write_rule(f, r, subtract);
    fprintf(f, " %llu %llu values); [|exact Hn].\n", (unsigned long long)n0,
            (unsigned long long)p);
    fputs("  vm_cast_no_check (eq_refl Proved).\nQed.\n", f);
    return ferror(f) ? -1 : 0;
}

/* coqc names a file's module after it: FILE.v must be an identifier. */
static int module_name_ok(const char *path)
{
    const char *b = strrchr(path, '/'), *p;
    size_t len;

    b = b ? b + 1 : path;
    len = strlen(b);
    if (len < 3 || strcmp(b + len - 2, ".v") != 0 ||
        !(b[0] == '_' || (b[0] >= 'a' && b[0] <= 'z') ||
          (b[0] >= 'A' && b[0] <= 'Z')))
        return 0;
    for (p = b; p < b + len - 2; p++)
        if (!(*p == '_' || (*p >= 'a' && *p <= 'z') ||
              (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9')))
            return 0;
    return 1;
}

int cli_export_proof(const char *path, const sg_rule *r, const char *canon,
                     const sg_result *res)
{
    const char *why;
    int subtract = 0, ok;
    uint64_t bound;
    sg_seq vals;
    sg_error err;
    sg_enum_options eo;
    char *tmp;
    FILE *f;

    if (!module_name_ok(path)) {
        cli_error("--export-proof '%s': coqc wants FILE.v with FILE a Coq "
                  "identifier (letters, digits, _; not a digit first), e.g. "
                  "kayles.v",
                  cli_quote(path));
        return EXIT_USAGE;
    }
    if ((why = not_covered(r, res, &subtract))) {
        cli_error("--export-proof: no proof script for '%s': %s",
                  cli_quote(canon), why);
        return res->status == SG_UNRESOLVED ? EXIT_UNKNOWN : EXIT_USAGE;
    }
    bound = coq_bound(r, res->preperiod, res->period);
    if (bound == 0 || bound >= PROOF_MAX_VALUES - 1) {
        cli_error("--export-proof: no proof script for '%s': the checker "
                  "would need more than 2^22 values (a Coq array's limit)",
                  cli_quote(canon));
        return EXIT_USAGE;
    }
    /* The values, from the reference method (not the cache's): the
     * checker verifies them anyway, this only avoids a useless script. */
    sg_seq_init(&vals);
    memset(&eo, 0, sizeof eo);
    eo.cancel = &cli_cancel;
    if (sg_enumerate_naive(&vals, r, (size_t)bound + 1, &eo, &err)) {
        sg_seq_clear(&vals);
        return cli_report(NULL, NULL, &err);
    }
    if (!(tmp = malloc(strlen(path) + 32))) {
        sg_seq_clear(&vals);
        cli_error("out of memory");
        return EXIT_RUNTIME;
    }
    sprintf(tmp, "%s.tmp%ld", path, (long)getpid());
    f = fopen(tmp, "w");
    ok = f && write_script(f, r, canon, subtract, res->preperiod, res->period,
                           &vals, bound) == 0;
    if (f && fclose(f) != 0)
        ok = 0;
    if (ok && rename(tmp, path) != 0)
        ok = 0;
    if (!ok) {
        cli_error("--export-proof: cannot write '%s': %s", cli_quote(path),
                  errno == ENOMEM ? "out of memory" : strerror(errno));
        remove(tmp);
    }
    free(tmp);
    sg_seq_clear(&vals);
    return ok ? EXIT_DONE : EXIT_RUNTIME;
}
