#!/bin/bash
# tests/cli/misere_quot_slow.sh - the deep misère quotients of issue 52, in
# the slow tier only (SG_SLOW_TESTS=1; skipped otherwise): Dawson's Kayles
# (0.07) heap by heap, each Q_k proven by Theorem Q's check inside the
# program.  The issue's command must print Q_30 of order 360 (Siegel,
# miseregames.wordpress.com, 28 August 2007) within ten minutes, and its
# presentation is judged again by tests/cli/misere_quot_ref.py (its own
# rewriting of the printed presentation, and misere_ref.py's exhaustive
# search on every sum of at most 3 heaps of total at most 36, which
# reaches heaps 25..30, the heaps the fast oracle's rung 0 fails on).
# Then heaps 31..33 against the orders Siegel's MisereSolver prints
# (520, 552, 638; docs/MISERE.md, "Against published figures").

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

# The issue's command, `--max 31` being --misere-max 31 here (--max is the
# normal-play count): Q_30 of order 360 within ten minutes.
timeout 600 "$SG" --no-cache dawson --misere --quotient --misere-max 31 --json \
    >"$T/q.json" 2>"$T/err"
check "0.07 --misere-max 31: exit 0 within ten minutes (every Q_k proven)" \
    test $? = 0
check "... the quotient of heaps 1..30" test "$(field heaps <"$T/q.json")" = 30
check "... Q_30 of order 360 (Siegel 2007)" \
    test "$(field order <"$T/q.json")" = 360
check "... Q_25..Q_29 of orders 144 144 176 176 176" test \
    "$(python3 -c "import json,sys; print(*json.load(sys.stdin)['quotient']['orders'][24:29])" <"$T/q.json")" = \
    "144 144 176 176 176"
python3 "$QREF" 0.07 3 36 <"$T/q.json" >"$T/judged"
# the judge counts two checks of its own and every sum of heaps 1..30
total=$(python3 "$SRC/tests/cli/misere_ref.py" positions 0.07 3 36 |
    awk -F, '{ m = 0; for (i = 1; i <= NF; i++) if ($i + 0 > m) m = $i + 0
               if (m <= 30) c++ } END { print c }')
check "... its presentation judged by misere_quot_ref.py (3 heaps, total <= 36)" \
    test "$(sed -n 1p "$T/judged")" = "$((total + 2)) 0"

# Heaps 31..33: MisereSolver's 520, 552 and 638 (run here, docs/MISERE.md).
timeout 1200 "$SG" --no-cache dawson --misere --quotient --misere-max 34 --json \
    >"$T/q33.json" 2>"$T/err33"
check "0.07 --misere-max 34: exit 0" test $? = 0
check "... Q_30..Q_33 of orders 360 520 552 638" test \
    "$(python3 -c "import json,sys; print(*json.load(sys.stdin)['quotient']['orders'][29:33])" <"$T/q33.json")" = \
    "360 520 552 638"
echo "1..$n"
[ "$fails" = 0 ]
