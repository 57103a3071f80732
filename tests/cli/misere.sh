#!/bin/bash
# tests/cli/misere.sh - misère play from the command line (TAP), judged by
# tests/cli/misere_ref.py, an exhaustive search of its own (its own move
# generator for octal codes, the misère Grundy value computed from the
# definition with the nim-heaps *1 and *2 as components of their own):
# misère Nim against the classical rule for every position of up to 6 heaps
# below 16 (by the tame rule) and of up to 4 heaps below 10 (by the
# search); for 12 octal codes every position of at most 4 heaps and total
# at most 18 (by the tame rule where the heaps are tame, else the search;
# then by the search alone), each winning move applied and checked; the
# genus gamma_0..gamma_9 of heaps 0..19 of the same codes; bad input.
# Under SG_TEST_MULT below 1 (the sanitizer suite, after the plain one
# has judged all 12 codes) 4 of the 12, drawn from SG_TEST_SEED (else the
# clock) and printed; each checked as in the plain suite.

SG=${SGEXPLORE:-sgexplore}
SRC=${abs_top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
REF=$SRC/tests/cli/misere_ref.py
T=$(mktemp -d "${TMPDIR:-/tmp}/misere.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT

. "$(dirname "$0")/tap.sh"
sg() { "$SG" --no-cache "$@"; }

if ! command -v python3 >/dev/null; then
    echo "1..0 # SKIP python3 is not installed"
    exit 0
fi

# positions K N: every multiset of 1..K heaps below N, one a line.
positions() {
    python3 -c "
import itertools, sys
k, n = int(sys.argv[1]), int(sys.argv[2])
for j in range(1, k + 1):
    for c in itertools.combinations_with_replacement(range(n), j):
        print(','.join(map(str, c)))" "$1" "$2"
}

# judged DESC WANT_COUNT OUTPUT: "COUNT 0" from the judge.
judged() {
    if [ "$3" = "$2 0" ]; then ok "$1"; else not_ok "$1 ($3)"; fi
}

positions 6 16 >"$T/nim6"
out=$(sg nim --misere --json --positions "$T/nim6" | python3 "$REF" nim)
judged "misère Nim, <= 6 heaps below 16: the classical rule" 74612 "$out"
check "misère Nim: decided by the tame rule" \
    has "$(sg nim --misere --json --position 15,15,2 | grep -o \
        '"method":"[a-z]*"')" '"method":"tame"'
positions 4 10 >"$T/nim4"
out=$(sg nim --misere --misere-max 1 --json --positions "$T/nim4" |
    python3 "$REF" nim)
judged "misère Nim by the search, <= 4 heaps below 10" 1000 "$out"

CODES="0.77 0.07 0.137 0.4 0.51 0.75 0.6 0.16 0.31 0.35 4.07 0.123"
if awk -v m="${SG_TEST_MULT:-1}" 'BEGIN { exit !(m < 1) }'; then
    seed=${SG_TEST_SEED:-$(date +%s)}
    RANDOM=$seed
    read -r -a all <<<"$CODES"
    CODES=
    for ((i = 0; i < 4; i++)); do
        j=$((RANDOM % ${#all[@]}))
        CODES+="${all[j]} "
        all=("${all[@]:0:j}" "${all[@]:j+1}")
    done
    echo "# codes $CODES(4 of 12 under SG_TEST_MULT below 1; seed $seed:" \
        "SG_TEST_SEED=$seed replays it)"
fi
for c in $CODES; do
    python3 "$REF" positions "$c" 4 18 >"$T/pos"
    total=$(wc -l <"$T/pos")
    out=$(sg "$c" --misere --json --positions "$T/pos" |
        python3 "$REF" check "$c" 40)
    judged "$c: <= 4 heaps, total <= 18, outcomes, moves and each heap's G-" "$total" "$out"
    out=$(sg "$c" --misere --misere-max 1 --json --positions "$T/pos" |
        python3 "$REF" check "$c" 1)
    judged "$c: the same by the search alone (G- of heap 0 only)" "$total" "$out"
    out=$(sg "$c" --misere --misere-max 20 --json | python3 "$REF" genus "$c" 20 10)
    judged "$c: genus of heaps 0..19 (gamma_0..gamma_9)" 20 "$out"
done

# Codes in CGSuite's whole notation whose moves leave at most three heaps
# (docs/THEORY.md 7.6): '?' (not all equal), '=' (all equal), '!' on three
# heaps; outcomes, moves and genus against the same search.
for c in '0.C?' '4=.0' '0.8?' '0.3C!'; do
    python3 "$REF" positions "$c" 3 14 >"$T/pos"
    total=$(wc -l <"$T/pos")
    out=$(sg "$c" --misere --json --positions "$T/pos" |
        python3 "$REF" check "$c")
    judged "$c: <= 3 heaps, total <= 14, outcomes and moves" "$total" "$out"
    out=$(sg "$c" --misere --misere-max 14 --json | python3 "$REF" genus "$c" 14 8)
    judged "$c: genus of heaps 0..13 (gamma_0..gamma_7)" 14 "$out"
done
sg 0.G --misere >"$T/o" 2>"$T/e"
check "0.G --misere (moves leave four heaps): exit 2, one line" \
    test "$?/$(wc -l <"$T/e")" = "2/1"

# Published figures (Winning Ways, ch. 13; docs/MISERE.md): Kayles.
out=$(sg kayles --misere --misere-max 10)
check "Kayles: heap 5 has genus 4^146" has "$out" \
    '  5: G-(5) = 1, genus 4^146'
check "Kayles: heap 9 has genus 4^046" has "$out" \
    '  9: G-(9) = 0, genus 4^046'
check "Kayles: heap 5 is the first not tame" contains "$out" \
    'heap 5 is the first wild one'
out=$(sg kayles --misere --position 4,1)
check "text answer names the method" contains "$out" \
    '^misère winner first (by tame), move heap #1 take 1 leaving nothing$'

# Bad input and budgets.
for opt in "--heap 5" "--values 1:3" "--deep"; do
    # shellcheck disable=SC2086
    sg kayles --misere $opt >/dev/null 2>"$T/err"
    rc=$?
    check "--misere $opt: exit 2, one line" test "$rc" = 2 -a \
        "$(wc -l <"$T/err")" = 1
done
sg graph --misere - </dev/null >/dev/null 2>"$T/err"
check "graph --misere: exit 2 (no misère meaning)" test $? = 2
SGEXPLORE_MISERE_MIB=1 sg kayles --misere --misere-max 5 \
    --position 30,31,32,33,34,35 >/dev/null 2>"$T/err"
rc=$?
check "a search past its budget: exit 3" test "$rc" = 3
check "... saying too large" contains "$(cat "$T/err")" 'too large'
sg kayles --misere --position 99999999999999 >/dev/null 2>"$T/err"
check "a huge heap: exit 3, too large" test $? = 3 -a \
    "$(grep -c 'too large' "$T/err")" = 1
timeout 20 "$SG" --no-cache nim --misere --misere-max 1 --position 1000000 \
    >/dev/null 2>"$T/err"
rc=$?
check "a search deeper than its limit: exit 3, too large, at once" \
    test "$rc" = 3 -a "$(grep -c 'too large' "$T/err")" = 1

check "... and points to --quotient" contains "$(cat "$T/err")" \
    '--quotient decides sums of wild heaps'

# Budgets of their own (issue 50).  --max is the normal-play count and
# --misere-max the heaps: Kayles's normal play is proven at 168 values,
# so --misere-max 12 leaves it proven, with the genus of heaps 0..11.
j=$(sg kayles --misere --misere-max 12 --json)
check "--misere-max 12: normal play proven, genus of heaps 0..11" \
    python3 -c 'import json, sys
d = json.loads(sys.argv[1])
assert d["status"] == "periodic" and d["period"] == 12 and d["misere"]["heaps"] == 12, d' "$j"
j=$(sg kayles --misere --max 100 --json)
check "--misere --max 100: 100 normal-play values, the default 40 heaps" \
    python3 -c 'import json, sys
d = json.loads(sys.argv[1])
assert d["status"] == "unresolved" and d["computed"] == 100 and d["misere"]["heaps"] == 40, d' "$j"
sg kayles --misere-max 12 >/dev/null 2>"$T/err"
check "--misere-max without --misere: exit 2, one line" \
    test $? = 2 -a "$(wc -l <"$T/err")" = 1
sg kayles --misere --misere-max 0 >/dev/null 2>"$T/err"
check "--misere-max 0: exit 2, one line" test $? = 2 -a "$(wc -l <"$T/err")" = 1
# The exact search of a position keeps to --seconds (it ran past 15 s),
# and its error names --quotient, which decides the sum.
start=$(date +%s)
timeout 30 "$SG" --no-cache kayles --misere --position 30,25,20 --seconds 1 \
    >/dev/null 2>"$T/err"
rc=$? took=$(($(date +%s) - start))
check "--position 30,25,20 --seconds 1: exit 3 in well under 30 s ($took s), one line" \
    test "$rc" = 3 -a "$took" -lt 15 -a "$(wc -l <"$T/err")" = 1
check "... saying --seconds ran out, and trying --quotient" \
    grep -q "seconds ran out in the exact search; --quotient decides .*--misere --quotient --position 30,25,20)$" "$T/err"
out=$(sg kayles --misere --quotient --position 30,25,20)
check "... which --quotient decides" \
    contains "$out" '^misère winner [a-z]* (by quotient)'
# With --quotient the genus gets half of --seconds: the quotient starts
# (the genus of 80 heaps of Kayles once took all of it).
sg kayles --misere --quotient --misere-max 80 --seconds 2 --json \
    >"$T/q.json" 2>/dev/null
check "--quotient --misere-max 80 --seconds 2: the genus stopped, the quotient proven past heap 1" \
    python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
m, q = d["misere"], d["quotient"]
assert m["stopped"] == "--seconds ran out" and m["heaps"] < 80, m["heaps"]
assert q["heaps"] >= 2, q' "$T/q.json"

echo "1..$n"
[ "$fails" -eq 0 ]
