#!/bin/bash
# tests/coq/check_coq.sh - `make check-coq` (docs/PROOFS.md), TAP: compile
# the Coq development of coq/ and check that it has no axiom but the
# standard library's specifications of the primitive integers and arrays;
# then let coqc prove the periods of the proof scripts sgexplore exports
# (Kayles, Dawson's Kayles, 0.137, 4.344, subtract{2,3,5,7,11,13} and a
# seeded random sample of census certificates), refuse forged scripts,
# each for its own reason, and judge the bad certificates of tests/certs.
# Skips with a message, and exit 0, when coqc is not installed.
#
# SG_COQ_SEED (default 51) picks the census sample, SG_COQ_SAMPLE (20)
# its size, SG_COQ_MAX_BOUND (2000) the largest bound it takes.

SG=${SGEXPLORE:-sgexplore}
SRC=${top_srcdir:-.}
SEED=${SG_COQ_SEED:-51}
SAMPLE=${SG_COQ_SAMPLE:-20}
MAXB=${SG_COQ_MAX_BOUND:-2000}

if ! command -v coqc >/dev/null 2>&1; then
    echo "check-coq: coqc not found, skipped (Debian: apt-get install coq" \
         "libcoq-stdlib)"
    exit 0
fi

T=$(mktemp -d "${TMPDIR:-/tmp}/check-coq.XXXXXX") || exit 1
trap 'rm -rf "${T0:-$T}"' EXIT
. "$SRC/tests/cli/tap.sh"

# The development, compiled in a copy (nothing is written under coq/).
mkdir "$T/coq" && cp "$SRC"/coq/*.v "$T/coq/" || exit 1
built=1
for m in Spec Facts Periodic Check; do
    if ! (cd "$T/coq" && coqc -Q . SG "$m.v") >"$T/$m.log" 2>&1; then
        built=0
        cat "$T/$m.log" | sed 's/^/# /'
    fi
done
check "the development compiles (coq/Spec.v Facts.v Periodic.v Check.v)" \
    test $built = 1
if [ $built = 0 ]; then
    echo "1..$n"
    exit 1
fi
COQC() { coqc -Q "$T0/coq" SG -R . "" "$@"; }
T0=$T
T=$T/p
mkdir "$T" || exit 1

# No Admitted, no admit, no Axiom or Parameter anywhere in the sources.
check "no Admitted, admit, Axiom, Parameter, Hypothesis in coq/*.v" \
    bash -c "! grep -nwE 'Admitted|admit|Axiom|Axioms|Parameter|Parameters|Hypothesis|Hypotheses|Variable|Variables|Conjecture' '$SRC'/coq/*.v"

# assumptions_ok FILE: the "Print Assumptions" output in FILE names only
# the primitive integers and arrays and their specifications in Coq's
# standard library (PrimInt63, Uint63, PArray).
assumptions_ok() {
    grep -q '^Axioms:$' "$1" || grep -q 'Closed under the global context' "$1" ||
        return 1
    ! sed -n '/^Axioms:$/,$p' "$1" | sed 1d | grep -v '^ ' | grep -v '^$' |
        grep -vE '^(PrimInt63|Uint63|PArray)\.[A-Za-z_0-9]+( |$)'
}
printf 'Axioms:\nPArray.set\n  : type\nSG.Spec.cheat : False\n' >"$T/fake.out"
check "the assumption check refuses an axiom of our own (self-test)" \
    bash -c "$(declare -f assumptions_ok); ! assumptions_ok '$T/fake.out' >/dev/null"
printf 'From SG Require Check.\nPrint Assumptions SG.Check.check_sound.\n' \
    >"$T/Assume.v"
coqc -Q "$T0/coq" SG "$T/Assume.v" >"$T/assume.out" 2>&1
check "Print Assumptions check_sound: only the primitives' specifications" \
    assumptions_ok "$T/assume.out"

# prove NAME RULE: export RULE's proof script and let coqc prove it.
prove() {
    local name=$1 rule=$2
    if ! "$SG" "$rule" --no-cache --quiet --export-proof "$T/$name.v" \
        >/dev/null 2>"$T/$name.err"; then
        not_ok "$rule: --export-proof writes a script"
        sed 's/^/# /' "$T/$name.err"
        return
    fi
    (cd "$T" && COQC "$name.v") >"$T/$name.log" 2>&1
    rc=$?
    check "$rule: coqc proves $(grep -o 'G(n + [0-9]*) = G(n) for every n >= [0-9]*' "$T/$name.v")" \
        test $rc = 0
    printf 'Require %s.\nPrint Assumptions %s.periodic.\n' "$name" "$name" \
        >"$T/A_$name.v"
    (cd "$T" && COQC "A_$name.v") >"$T/A_$name.out" 2>&1
    check "$rule: the proof's assumptions are the primitives' only" \
        assumptions_ok "$T/A_$name.out"
}
prove kayles 0.77
prove dawson 0.07
prove o137 0.137
prove o4344 4.344
prove sub2to13 'subtract{2,3,5,7,11,13}'

# A seeded random sample of census certificates the development covers.
CENSUS=$SRC/data/census/certs
if [ -d "$CENSUS" ]; then
    for f in "$CENSUS"/*.cert; do
        b=$(sed -n 's/^bound: //p' "$f")
        th=$(sed -n 's/^theorem: //p' "$f")
        case $th in guy-smith | subtraction-window) ;; *) continue ;; esac
        [ "$b" -le "$MAXB" ] || continue
        printf '%s %s\n' "$(printf '%s %s' "$SEED" "$(basename "$f")" |
            cksum | cut -d' ' -f1)" "$f"
    done | sort -n | head -n "$SAMPLE" | cut -d' ' -f2- >"$T/sample"
    i=0
    while read -r f; do
        i=$((i + 1))
        rule=$(sed -n 's/^rule: //p' "$f")
        "$SG" verify --certificate "$f" --export-proof "$T/census$i.v" \
            >"$T/census$i.out" 2>&1
        (cd "$T" && COQC "census$i.v") >"$T/census$i.log" 2>&1
        rc=$?
        check "census $(basename "$f"): coqc proves $rule's period" test $rc = 0
    done <"$T/sample"
    check "the census sample has $SAMPLE certificates" \
        test "$(wc -l <"$T/sample")" -eq "$SAMPLE"
else
    skip "data/census/certs is absent: no census sample"
fi

# Forged scripts, made from Kayles' (n0 = 71, p = 12, G(0..167)): coqc
# must refuse each, and the checker's verdict names its own reason.
# verdict FILE: the checker's verdict on FILE's values and claim.
verdict() {
    sed -n '1,/^Import ListNotations/p' "$1" >"$T/V_$2.v"
    sed -n 's/^ *apply (check_sound \(.*\) values); .*/Eval vm_compute in check \1 values./p' \
        "$1" >>"$T/V_$2.v"
    (cd "$T" && COQC "V_$2.v" 2>&1) | tr -s ' \n' ' '
}
# forged NAME REASON: $T/NAME.v is a forged script; coqc must refuse it and
# the checker's verdict must be REASON.
forged() {
    local name=$1 reason=$2 v
    (cd "$T" && COQC "$name.v") >"$T/$name.log" 2>&1
    rc=$?
    check "forged $name: coqc refuses it" test $rc != 0
    v=$(verdict "$T/$name.v" "$name")
    check "forged $name: the verdict is $reason" contains "$v" "= $reason :"
}
K=$T/kayles.v
if [ -f "$K" ]; then
    # a period one too small: 11, statement and check alike
    sed 's/(n + 12)/(n + 11)/g; s/ 71 12 values/ 71 11 values/' "$K" \
        >"$T/f_period.v"
    forged f_period "NotPeriodicAt 71"
    # a pre-period one too small: 70
    sed 's/n >= 71/n >= 70/; s/ 71 12 values/ 70 12 values/' "$K" \
        >"$T/f_preperiod.v"
    forged f_preperiod "NotPeriodicAt 70"
    # a bound one too short: G(0..166)
    perl -0pe 's/;\s*\d+ \| 0 \|\]/ | 0 |]/' "$K" >"$T/f_bound.v"
    forged f_bound "TooFewValues 168"
    # the value at one heap changed: G(100) + 1
    perl -0pe 's{\[\|(.*?)\|}{my @v = split /;/, $1;
        $v[100] =~ s/(\d+)/$1 + 1/e; "[|" . join(";", @v) . "|"}se' \
        "$K" >"$T/f_value.v"
    forged f_value "WrongValueAt 100"
    # another rule's values: Dawson's Kayles' under Kayles' statement
    if [ -f "$T/dawson.v" ]; then
        { sed -n '1,/^Definition values/p' "$K" | sed '$d'
          sed -n '/^Definition values/,/| 0 |\]/p' "$T/dawson.v"
          sed -n '/| 0 |\]/,$p' "$K" | sed 1d; } >"$T/f_rule.v"
        forged f_rule "WrongValueAt 1"
    fi
    # a statement that is not the one checked: p = 11 stated, 12 checked
    sed 's/(n + 12)/(n + 11)/g' "$K" >"$T/f_statement.v"
    (cd "$T" && COQC f_statement.v) >"$T/f_statement.log" 2>&1
    rc=$?
    check "forged f_statement (period 11 stated, 12 checked): coqc refuses it" \
        test $rc != 0
else
    not_ok "no Kayles script: no forged scripts"
fi

# Rules without a Coq theorem, and file names coqc cannot load: one
# error line, no file.
for x in "0.8F 2" "4.[3] 2" "0.7! 2" "0.6!2 3" "subtract{primes} 3"; do
    set -- $x
    rm -f "$T/nc.v"
    "$SG" "$1" --no-cache --quiet --max 300 --export-proof "$T/nc.v" \
        >/dev/null 2>"$T/nc.err"
    rc=$?
    check "$1: --export-proof gives exit $2, one 'no proof script' line, no file" \
        test "$rc" = "$2" -a ! -e "$T/nc.v" -a \
        "$(grep -c 'no proof script' "$T/nc.err")" = 1
done
"$SG" 0.07 --no-cache --quiet --export-proof "$T/0.07.v" >/dev/null 2>"$T/nc.err"
rc=$?
check "--export-proof 0.07.v (not a Coq identifier): exit 2, no file" \
    test "$rc" = 2 -a ! -e "$T/0.07.v"

# The bad certificates of tests/certs, through verify --export-proof:
# rules the development does not cover get no script (exit 2); the false
# claims it covers are refused by coqc; two are true statements (the
# certificate's fault is a period that is not the least, or its proof
# fields, neither of which the Coq statement claims): coqc proves those.
for f in "$SRC"/tests/certs/bad-*.cert; do
    name=$(basename "$f" .cert)
    mod=$(printf '%s' "$name" | tr -c 'A-Za-z0-9_' _)
    rm -f "$T/$mod.v"
    "$SG" verify --certificate "$f" --export-proof "$T/$mod.v" \
        >"$T/$mod.out" 2>"$T/$mod.err"
    rc=$?
    case $name in
    bad-kayles-82-4 | bad-kayles-tail-arith)
        (cd "$T" && COQC "$mod.v") >"$T/$mod.log" 2>&1
        rc=$?
        check "$name: coqc refuses the claim" test $rc != 0 -a -e "$T/$mod.v"
        ;;
    bad-dawson-period-68 | bad-kayles-start-2p63)
        (cd "$T" && COQC "$mod.v") >"$T/$mod.log" 2>&1
        rc=$?
        check "$name: coqc proves the (true, weaker) periodicity statement" \
            test $rc = 0
        ;;
    *)
        check "$name: not covered, no script, one error line (exit 2)" \
            test "$rc" = 2 -a ! -e "$T/$mod.v" -a \
            "$(grep -c 'no proof script' "$T/$mod.err")" = 1
        ;;
    esac
done

echo "1..$n"
[ "$fails" = 0 ]
