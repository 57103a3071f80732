#!/bin/bash
# tests/cli/verify.sh - `sgexplore verify --certificate` and the independent
# scripts/check_certificate.py on the regression certificates of
# tests/certs (TAP): every good-*.cert is confirmed and every bad-*.cert
# refuted by both checkers, each with the reason that exposed the defect
# (issue 12); malformed certificates are usage errors; the Python checker
# checks many files in one run, and refuses certificates of made-up
# values that fail one hypothesis alone of a theorem.

SG=${SGEXPLORE:-sgexplore}
SRC=${top_srcdir:-.}
CERTS=$SRC/tests/certs
PY=$SRC/scripts/check_certificate.py
T=$(mktemp -d "${TMPDIR:-/tmp}/verify.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT

. "$(dirname "$0")/tap.sh"
have_py=0
command -v python3 >/dev/null && have_py=1
export PYTHONDONTWRITEBYTECODE=1   # the traps import the checker: no .pyc

for f in "$CERTS"/*.cert; do
    name=$(basename "$f" .cert)
    "$SG" verify --certificate "$f" >"$T/out" 2>&1
    rc=$?
    last=$(tail -n 1 "$T/out")
    case $name in
    good-*)
        check "$name: verify confirms it (exit 0)" \
            test "$rc/$last" = "0/confirmed"
        [ $have_py = 1 ] &&
            check "$name: the Python checker confirms it" \
                test "$(python3 "$PY" "$f")" = confirmed
        ;;
    bad-*)
        check "$name: verify refutes it (exit 1)" \
            test "$rc" = 1 -a "${last#refuted}" != "$last"
        cp "$T/out" "$T/$name.c"
        if [ $have_py = 1 ]; then
            python3 "$PY" "$f" >"$T/$name.py"
            rc=$?
            check "$name: the Python checker refutes it (exit 1)" \
                test "$rc" = 1 -a "$(cut -c1-7 "$T/$name.py")" = refuted
        fi
        ;;
    esac
done

# The reasons: the ones that were wrong or missing before.
why() { # why NAME PATTERN: both checkers give a reason matching PATTERN
    check "$1: verify says '$2'" grep -q -- "$2" "$T/$1.c"
    [ $have_py = 1 ] &&
        check "$1: the Python checker says '$2'" grep -q -- "$2" "$T/$1.py"
}
why bad-dawson-period-68 "the claimed period 68 is a period, but not the least one (the least is 34)"
why bad-nim-periodic "status.*periodic.*contradicts the saltus 1"
why bad-kayles-tail-arith "only guy-smith does"
why bad-unequal-guy-smith "only guy-smith-unequal does"
why bad-subtract1-saltus "only plain periodicity"
why bad-kayles-82-4 "period 4 with saltus 0 is not a period"
why bad-kayles-start-2p63 "bound"
why bad-odd-and-100-period-2 "n = 98"
why bad-odd-and-100-bound-4 "bound is smaller than the theorem needs (4 < 104)"
why bad-4-3k-period-4 "not a multiple of the tail's period 3"
why bad-4-3k-saltus-2 "n = 1"
why bad-212-class "class condition of the periodic-tail theorem fails"
why bad-set-late-member "within the bound"
why bad-set-late-power "within the bound"
why bad-set-agreement "n = 38"
why bad-set-start-1 "the set-residues theorem starts at 0"
why bad-set-window "only set-residues does"
why bad-set-allbut "no implemented theorem applies"
why bad-set-heap "no implemented theorem applies"

# A genuine certificate written by the program for a rule line of more
# than 512 characters is read back by both.
"$SG" --no-cache --subtract "$(seq -s, 1 2 599)" \
    --export-certificate "$T/long.cert" >/dev/null 2>&1
check "a 300-number subtraction set makes a rule line > 1000 characters" \
    test "$(sed -n 's/^rule: //p' "$T/long.cert" | wc -c)" -gt 1000
check "verify reads and confirms it" \
    test "$("$SG" verify --certificate "$T/long.cert" | tail -n 1)" = confirmed
[ $have_py = 1 ] &&
    check "the Python checker confirms it" \
        test "$(python3 "$PY" "$T/long.cert")" = confirmed

# Malformed certificates are bad input (exit 2), with the line named.
good=$CERTS/good-kayles.cert
{ cat "$good"; echo "period: 12"; } >"$T/dup.cert"
"$SG" verify --certificate "$T/dup.cert" >"$T/out" 2>&1
rc=$?
check "a duplicate key is bad input (exit 2)" test $rc = 2
check "... naming the second line" grep -q "a second 'period' line" "$T/out"
sed 's/^checksum: fnv1a64:\(.*\)/checksum: fnv1a64:\U\1/' "$good" >"$T/upper.cert"
"$SG" verify --certificate "$T/upper.cert" >"$T/out" 2>&1
check "an upper-case checksum is bad input (exit 2)" test $? = 2
sed 's/^bound: .*/bound: 99999999999999999999/' "$good" >"$T/huge.cert"
"$SG" verify --certificate "$T/huge.cert" >"$T/out" 2>&1
check "a number beyond 2^63-1 is bad input (exit 2)" test $? = 2
grep -v '^theorem:' "$good" >"$T/lack.cert"
"$SG" verify --certificate "$T/lack.cert" >"$T/out" 2>&1
rc=$?
check "a missing key is bad input (exit 2) naming it" \
    test $rc = 2 -a "$(grep -c "lacks the 'theorem' line" "$T/out")" = 1

# Two refusals no other test reaches (CERTIFICATES.md, "Every check tried
# by dropping it"): a zero period, and a rule no theorem applies to.
sed 's/^period: .*/period: 0/' "$good" >"$T/zero.cert"
sed 's/^rule: .*/rule: 0.[37]/' "$good" >"$T/notheorem.cert"
for f in zero:"the period must be positive" \
    notheorem:"no implemented theorem applies to this rule"; do
    "$SG" verify --certificate "$T/${f%%:*}.cert" >"$T/out" 2>&1
    rc=$?
    check "${f%%:*}.cert: verify refutes it (exit 1): ${f#*:}" \
        test "$rc/$(tail -n 1 "$T/out")" = "1/refuted: ${f#*:}"
    if [ $have_py = 1 ]; then
        python3 "$PY" "$T/${f%%:*}.cert" >"$T/out"
        rc=$?
        check "${f%%:*}.cert: the Python checker refutes it (exit 1)" \
            test "$rc/$(cat "$T/out")" = "1/refuted: ${f#*:}"
    fi
done

if [ $have_py = 1 ]; then
    for f in dup upper huge lack; do
        python3 "$PY" "$T/$f.cert" >"$T/out"
        rc=$?
        check "the Python checker calls $f.cert malformed (exit 1)" \
            test $rc = 1 -a "$(cut -c1-10 "$T/out")" = malformed:
    done
    # Many files in one run: one verdict line each, exit 1 if any fails.
    python3 "$PY" "$CERTS"/*.cert >"$T/out"
    rc=$?
    check "the Python checker takes many files: one line each" \
        test "$(wc -l <"$T/out")" = "$(ls "$CERTS"/*.cert | wc -l)"
    check "... exit 1 when one is refuted" test $rc = 1
    check "... each line names its file" \
        grep -q "good-kayles.cert: confirmed$" "$T/out"
    python3 "$PY" "$CERTS"/good-*.cert >/dev/null
    check "... exit 0 when all are confirmed" test $? = 0

    # The hypotheses no real rule of the tests makes decisive
    # (test_prove.c, hyp_traps): the Python checker's whole check on the
    # same certificates of made-up values, where that hypothesis alone
    # fails; the first is a control that every hypothesis passes.
    python3 - "$PY" >"$T/traps" 2>&1 <<'PY'
import os, sys
sys.path.insert(0, os.path.dirname(sys.argv[1]))
import check_certificate as cc


class Made:
    """Made-up values in place of the rule's own."""
    def __init__(self, g):
        self.g = g

    def upto(self, n):
        return self.g[:n]


lasker = [0] + [n + 1 if n % 2 else n - 1 for n in range(1, 8)]
# rule, theorem, values, start a, period p, saltus s, bound; the claim
# is pre-period a, period p, saltus s, but for the control (first),
# proven with p = 4, s = 4 and of least period 2, saltus 2
cases = [
    ('4.[3]', 'tail-split-arith', lasker, 1, 4, 4, 7),
    ('4.1[3]', 'tail-split-arith', [0, 0, 1, 2, 3, 4, 5], 3, 1, 1, 6),
    ('4.1[3]', 'tail-split-arith', [0, 0, 0, 1, 2, 3, 4], 2, 1, 1, 6),
    ('4.[3]', 'tail-split-arith', [0, 0, 1, 2, 1], 2, 1, 1, 4),
    ('4.[3]', 'tail-split-arith', lasker, 1, 2, 2, 3),
    ('0.CF', 'hex-arith', [0, 1, 2, 3, 4, 6, 6, 7], 1, 2, 2, 7),
    ('0.8F', 'hex-arith', [0, 0, 1, 2, 3, 4, 5, 6], 2, 1, 1, 7),
    ('0.4C', 'hex-arith', [0, 0, 1, 1, 2, 2, 3, 3, 4], 2, 2, 1, 8),
    ('0.77', 'guy-smith', [0, 2, 0, 3, 0, 3, 1, 3, 0, 3], 2, 2, 0, 9),
    ('0.13[3]', 'tail-arith', [0, 2, 4], 0, 1, 2, 2),
]
for i, (rule, thm, g, a, p, s, bound) in enumerate(cases):
    c = {'rule': rule, 'theorem': thm,
         'status': 'arithmetic-periodic' if s else 'periodic',
         'preperiod': a, 'period': 2 if i == 0 else p,
         'saltus': 2 if i == 0 else s, 'proof_start': a,
         'proof_period': p, 'proof_saltus': s, 'bound': bound,
         'checksum': 'fnv1a64:%016x' % cc.fnv1a64(g, bound + 1)}
    print(cc.check(c, lambda text, parsed: Made(g), 10 ** 6))
PY
    i=0
    while IFS='|' read -r what want; do
        i=$((i + 1))
        check "the Python checker: $what" \
            test "$(sed -n "${i}p" "$T/traps")" = "$want"
    done <<'EOF'
4.[3] with p = 4, s = 4 (control)|confirmed
splitting-tail (i), c >= a, fails alone|refuted: the splitting-tail theorem's check fails: some heap below the start has a value of at least the saltus
splitting-tail (ii), the prefix condition, fails alone|refuted: the splitting-tail theorem's check fails: the prefix condition fails
splitting-tail (iii), agreement up to B, fails alone|refuted: the splitting-tail theorem's check fails: G(n+P) != G(n)+S at n = 3
splitting-tail (iv), the options, fails alone|refuted: the splitting-tail theorem's check fails: a value below G(3) is reached only by splits into two large parts
hexadecimal (ii), agreement up to B, fails alone|refuted: the hexadecimal theorem's check fails: G(n+P) != G(n)+S at n = 3
hexadecimal (iii), the good options, fails alone|refuted: the hexadecimal theorem's check fails: a value below G(7) comes only from splits the theorem does not follow
hexadecimal (iv), two large parts, fails alone|refuted: the hexadecimal theorem's check fails: the residue-or-size condition fails for two parts 2, 2 at k = 1
Guy-Smith, agreement over its range, fails alone|refuted at n = 4: G(n+P) != G(n)+S in the theorem's range
tail theorem, the prefix condition, fails alone|refuted: the prefix condition of the tail theorem fails
EOF
fi

echo "1..$n"
