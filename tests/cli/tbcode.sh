#!/bin/bash
# tests/cli/tbcode.sh - CGSuite's full take-and-break notation from the
# command line (TAP): a code the notation refuses (two constraints in a
# row, additive digits, an unterminated &N;, `!` on a four-heap split, a
# number past 2^63 - 1) ends with exit status 2, exactly one line on
# stderr and nothing on stdout; codes written in the new notation print
# their canonical text (tests/test_tbcode.c judges the rest).

SG=${SGEXPLORE:-sgexplore}
T=$(mktemp -d "${TMPDIR:-/tmp}/tbcode.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT

. "$(dirname "$0")/tap.sh"
field() { sed -n "s/^$1: //p" <<<"$2"; }

# bad TEXT: the rule alone on the command line, refused.
bad() {
    "$SG" "$1" >"$T/o" 2>"$T/e"
    local rc=$?
    check "'$1': exit 2, one line on stderr, nothing on stdout" \
        test "$rc/$(wc -l <"$T/e")/$(wc -c <"$T/o")" = "2/1/0"
}
bad '0.4!?'
bad '44.0'
bad '0.&12'
bad '0.G!'
bad '0.&9223372036854775808;'

# The canonical text of a code in the new notation.
for pair in '0.4?|0.4!' '0.&7;7|0.77' '0.g|0.G' '0.C?0|0.C?' '4=.0|4=.0' \
    '0.&64;|0.&64;' '0.G[G]|0.[G]'; do
    text=${pair%|*} want=${pair#*|}
    out=$("$SG" --no-cache "$text" --max 50 2>&1)
    check "'$text' prints as $want" test "$(field rule "$out")" = "$want"
done

echo "1..$n"
[ $fails = 0 ]
