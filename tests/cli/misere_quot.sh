#!/bin/bash
# tests/cli/misere_quot.sh - misère quotients from the command line (TAP),
# judged by tests/cli/misere_quot_ref.py (the printed presentation reduced
# by its own rewriting, its normal forms counted and checked reduced, and
# its P-portion compared with misere_ref.py's exhaustive search on every
# sum of at most 4 heaps of total at most 18) and by misere_ref.py check
# (the answers of --positions with --quotient: outcome and winning move,
# decided by the quotient wherever a heap is wild); bad input and the
# --max-order budget.

SG=${SGEXPLORE:-sgexplore}
SRC=${abs_top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
REF=$SRC/tests/cli/misere_ref.py
QREF=$SRC/tests/cli/misere_quot_ref.py
T=$(mktemp -d "${TMPDIR:-/tmp}/misere_quot.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT

. "$(dirname "$0")/tap.sh"
sg() { "$SG" --no-cache "$@"; }

if ! command -v python3 >/dev/null; then
    echo "1..0 # SKIP python3 is not installed"
    exit 0
fi

judged() {
    if [ "$3" = "$2 0" ]; then ok "$1"; else not_ok "$1 ($3)"; fi
}

python3 "$REF" positions 0.77 4 18 >"$T/pos"
total=$(wc -l <"$T/pos")
CODES="0.77 0.07 0.137 0.4 0.51 0.75 0.31 0.123 0.312 0.34 0.71 0.15"
for c in $CODES; do
    sg "$c" --misere --quotient --misere-max 19 --json >"$T/q.json"
    sg "$c" --misere --quotient --misere-max 19 --json --positions "$T/pos" \
        >"$T/ans"
    python3 "$QREF" "$c" 4 18 "$T/ans" <"$T/q.json" >"$T/judged"
    judged "$c: quotient of heaps 1..18 against the search" $((total + 2)) \
        "$(sed -n 1p "$T/judged")"
    judged "$c: --positions with --quotient, outcomes and moves" "$total" \
        "$(sed -n 2p "$T/judged")"
    nq=$(grep -c '"method":"quotient"' "$T/ans")
    nt=$(grep -c '"method":"tame"' "$T/ans")
    check "$c: every answer by the tame rule or the quotient" \
        test $((nq + nt)) = "$total"
done
check "Kayles: wild sums decided by the quotient" test "$(sg kayles \
    --misere --quotient --misere-max 19 --json --position 5,5,1 |
    grep -c '"method":"quotient"')" = 1

# Misère Nim: the quotient of heaps 1..3 (*3 = *1 + *2) has 6 elements.
out=$(sg nim --misere --quotient --misere-max 4)
check "Nim, heaps 1..3: order 6" contains "$out" \
    'heaps 1..3: order 6, 2 generators'
check "Nim: relations a^2 = 1, b^3 = b" contains "$out" \
    'relations: a^2 = 1, b^3 = b$'

# Budgets and bad input.
sg kayles --misere --quotient --misere-max 19 --max-order 10 >"$T/out" 2>"$T/err"
rc=$?
check "--max-order exceeded: exit 3" test "$rc" = 3
check "... one line naming the heap and the budget" test \
    "$(wc -l <"$T/err")" = 1 -a \
    "$(grep -c 'heap 5 not finished.*more than 10 elements' "$T/err")" = 1
check "... the last proven quotient printed (heaps 1..4, order 6)" \
    contains "$(cat "$T/out")" 'sums of heaps 1..4: order 6'
sg kayles --quotient >/dev/null 2>"$T/err"
check "--quotient without --misere: exit 2" test $? = 2 -a \
    "$(wc -l <"$T/err")" = 1
sg kayles --misere --max-order 5 >/dev/null 2>"$T/err"
check "--max-order without --quotient: exit 2" test $? = 2
sg kayles --misere --quotient --max-order 0 >/dev/null 2>"$T/err"
check "--max-order 0: exit 2" test $? = 2

# Ctrl-C stops a long quotient (0.6's exact search runs for a minute):
# exit 1, one line.
"$SG" --no-cache 0.6 --misere --quotient --misere-max 17 >/dev/null 2>"$T/err" &
pid=$!
sleep 2
kill -INT "$pid"
wait "$pid"
rc=$?
check "Ctrl-C: exit 1, 'interrupted'" test "$rc" = 1 -a \
    "$(grep -c 'interrupted' "$T/err")" = 1

echo "1..$n"
[ "$fails" -eq 0 ]
