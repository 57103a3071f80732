#!/bin/bash
# tests/cli/misere_quot_slow.sh - the deep misère quotients of issue 52, in
# the slow tier only (SG_SLOW_TESTS=1; skipped otherwise): Dawson's Kayles
# (0.07) heap by heap as far as the fast oracle's rungs reach, each Q_k
# proven by Theorem Q's check inside the program, and the last one judged
# again by tests/cli/misere_quot_ref.py (its own rewriting of the printed
# presentation, and misere_ref.py's exhaustive search on every sum of at
# most 3 heaps of total at most 36, which reaches heaps 25..29, the heaps
# the rungs were needed for).  The issue's target, Q_30 of order 360
# (Siegel, miseregames.wordpress.com, 28 August 2007), is not reached:
# that check is a TODO line until it is (docs/MISERE.md, "Figures").

SG=${SGEXPLORE:-sgexplore}
SRC=${abs_top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
QREF=$SRC/tests/cli/misere_quot_ref.py
T=$(mktemp -d "${TMPDIR:-/tmp}/misere_quot_slow.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT

. "$(dirname "$0")/tap.sh"
sg() { "$SG" --no-cache "$@"; }

if [ "${SG_SLOW_TESTS:-0}" != 1 ]; then
    echo "1..0 # SKIP the slow tier (SG_SLOW_TESTS=1)"
    exit 0
fi
if ! command -v python3 >/dev/null; then
    echo "1..0 # SKIP python3 is not installed"
    exit 0
fi

field() { python3 -c "import json,sys; print(json.load(sys.stdin)['quotient']['$1'])"; }

# Q_29: heaps 1..29 (--misere-max 30).
sg dawson --misere --quotient --misere-max 30 --json >"$T/q.json" 2>"$T/err"
check "0.07 --misere-max 30: exit 0 (every Q_k proven)" test $? = 0
check "... the quotient of heaps 1..29" test "$(field heaps <"$T/q.json")" = 29
order=$(field order <"$T/q.json")
echo "# Q_29(0.07) has order $order"
python3 "$QREF" 0.07 3 36 <"$T/q.json" >"$T/judged"
# the judge counts two checks of its own and every sum of heaps 1..29
total=$(python3 "$SRC/tests/cli/misere_ref.py" positions 0.07 3 36 |
    awk -F, '{ m = 0; for (i = 1; i <= NF; i++) if ($i + 0 > m) m = $i + 0
               if (m <= 29) c++ } END { print c }')
check "... its presentation judged by misere_quot_ref.py (3 heaps, total <= 36)" \
    test "$(sed -n 1p "$T/judged")" = "$((total + 2)) 0"

# The issue's command, `--max 31` being --misere-max 31 here (--max is the
# normal-play count): Q_30 of order 360 within ten minutes.
timeout 600 "$SG" --no-cache dawson --misere --quotient --misere-max 31 --json \
    >"$T/q30.json" 2>"$T/err30"
rc=$?
if [ $rc = 0 ] && [ "$(field order <"$T/q30.json")" = 360 ]; then
    ok "0.07 --misere-max 31: Q_30 of order 360 (Siegel 2007)"
else
    n=$((n + 1))
    echo "not ok $n - 0.07 --misere-max 31: Q_30 of order 360 # TODO exit $rc: $(tail -1 "$T/err30")"
fi
echo "1..$n"
[ "$fails" = 0 ]
