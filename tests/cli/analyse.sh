#!/bin/bash
# tests/cli/analyse.sh - the analysis command seen from the command line
# (TAP): published periods, the seed problems' sample answers, winning moves
# checked by applying them, JSON keys, huge heaps, exit statuses and one-line
# errors for every kind of bad input.  Runs $SGEXPLORE with --no-cache.

SG=${SGEXPLORE:-sgexplore}
T=$(mktemp -d "${TMPDIR:-/tmp}/analyse.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT

. "$(dirname "$0")/tap.sh"
export PYTHONDONTWRITEBYTECODE=1   # it imports check_certificate.py: no .pyc
sg() { "$SG" --no-cache "$@"; }
# A JSON field, read with python3 (the output must be valid JSON for this).
jget() { python3 -c 'import json,sys; d=json.load(sys.stdin); print(eval(sys.argv[1]))' "$1"; }

# --- the default example and published periods ----------------------------
out=$(sg --subtract 2,3,5,7,11,13)
check "S={2,3,5,7,11,13}: rule line" has "$out" "rule: subtract{2,3,5,7,11,13}"
check "S={2,3,5,7,11,13}: proven" has "$out" "status: periodic (proven)"
check "S={2,3,5,7,11,13}: period 9" has "$out" "period: 9"
check "S={2,3,5,7,11,13}: preperiod 0" has "$out" "preperiod: 0"
check "S={2,3,5,7,11,13}: values 0 0 1 1 2 2 3 3 4" \
    has "$out" "period values: 0 0 1 1 2 2 3 3 4"

while IFS=' ' read -r opt code p n0; do
    j=$(sg "$opt" "$code" --json)
    check "$opt $code: period $p, preperiod $n0 (published)" \
        test "$(jget "d['period'],d['preperiod'],d['status']" <<<"$j")" = "($p, $n0, 'periodic')"
done <<'EOF'
--octal 0.77 12 71
--octal 0.07 34 53
--octal 0.137 34 52
--subtract 1,3,4 7 0
--subtract 1-3 4 0
EOF

# --- equal rules, equal canonical forms -----------------------------------
check "0.770 is printed as 0.77" has "$(sg --octal 0.770)" "rule: 0.77"
check "--octal 0.333 is subtract{1-3}" has "$(sg --octal 0.333)" "rule: subtract{1-3}"
check "--rule 0.[3] is nim" has "$(sg --rule '0.[3]')" "rule: nim"
check "--grundy is 4!.0" has "$(sg --grundy --max 100)" "rule: 4!.0"

# --- the seeds' samples ----------------------------------------------------
winner() { sg "$@" --quiet | sed -n 's/^winner: //p'; }
check "S-game heaps 10,10: second player" test "$(winner --subtract 2,3,5,7,11,13 --position 10,10)" = second
check "S-game heaps 2,2,3: first player" test "$(winner --subtract 2,3,5,7,11,13 --position 2,2,3)" = first
check "Grundy's game heap 4: second player" test "$(winner --grundy --max 1000 --position 4)" = second
check "Grundy's game heaps 1,2,3: first player" test "$(winner --grundy --max 1000 --position 1,2,3)" = first
check "Grundy's game heap 7: second player" test "$(winner --grundy --max 1000 --position 7)" = second

# Apply the printed winning move and ask again: the nim-sum must be 0.  The
# new heaps are checked against a brute-force Grundy computation too.
apply_move() { # POSITION RULE-ARGS... -> new position after the move
    local j pos=$1
    shift
    j=$(sg "$@" --position "$pos" --json) || return 1
    python3 - "$pos" "$j" <<'PY'
import json, sys
heaps = sys.argv[1].split(',')
m = json.loads(sys.argv[2])['position']['move']
i = m['heap']
assert int(m['take']) + sum(int(x) for x in m['leaves']) == int(heaps[i])
print(','.join(heaps[:i] + m['leaves'] + heaps[i + 1:]))
PY
}
for case in "--subtract 2,3,5,7,11,13 2,2,3" "--grundy _ 1,2,3" "--octal 0.77 5,9,30" \
            "--octal 0.07 100,17,1000000000000000000000000000001" \
            "--subtract 2,3,5,7,11,13 1000000000000000000,7" \
            "--all-but 2,5 123456789012345678901234567890,3"; do
    set -- $case
    # Grundy's game (no code: `_`) to heap 1000 only, not its default 10^6.
    if [ "$2" = _ ]; then args=("$1" --max 1000); else args=("$1" "$2"); fi
    new=$(apply_move "$3" "${args[@]}")
    ns=$(sg "${args[@]}" --position "$new" --json | jget "d['position']['nim_sum']")
    check "${args[*]} $3: the printed move leads to nim-sum 0 ($new)" test "$ns" = 0
done

# Independent check of the moved-to position on small heaps by brute force.
brute_ok=$(python3 - "$top_srcdir" <<'PY'
import sys
sys.path.insert(0, (sys.argv[1] or '.') + '/scripts')
from check_certificate import parse_rule, Values
g = Values(parse_rule('4!.0')).upto(8)
print(g[1] ^ g[2] ^ g[3] != 0 and g[4] == 0 and g[7] == 0)
PY
)
check "brute force agrees: Grundy's game 4 and 7 lose, 1+2+3 wins" test "$brute_ok" = True

# --- JSON -------------------------------------------------------------------
j=$(sg --octal 0.07 --json --heap 1000000000000000000000 --position 3,4)
keys=$(jget "sorted(d.keys())" <<<"$j")
for k in rule family status preperiod period saltus computed certified_to theorem values heaps position; do
    check "JSON has key $k" grep -q "'$k'" <<<"$keys"
done
check "JSON heaps are decimal strings" \
    test "$(jget "d['heaps'][0]['heap']" <<<"$j")" = 1000000000000000000000
check "JSON values hold G(0..n0+p-1)" test "$(jget "len(d['values'])" <<<"$j")" = 87
check "JSON position: its heaps as {heap, value}, as --heap answers are" \
    test "$(jget "d['position']['heaps']" <<<"$j")" = "[{'heap': '3', 'value': '1'}, {'heap': '4', 'value': '2'}]"
check "JSON move is null when the second player wins" \
    test "$(sg --subtract 2,3,5,7,11,13 --position 10,10 --json | jget "d['position']['move']")" = None
u=$(sg --grundy --max 200 --json)
check "unresolved JSON: status unresolved, period null" \
    test "$(jget "d['status'],d['period'],d['preperiod'],d['saltus']" <<<"$u")" = "('unresolved', None, None, None)"

# An unresolved rule's JSON carries its computed values (issue 50: it gave
# "values": []), judged by a brute force of Grundy's game (split a heap
# into two unequal heaps), and cut at 10,000 entries.
grundy_ref='import sys
def mex(s):
    m = 0
    while m in s: m += 1
    return m
g = []
for n in range(int(sys.argv[1])):
    g.append(mex({g[a] ^ g[n - a] for a in range(1, n) if 2 * a != n}))'
check "unresolved JSON: values are G(0..199), as the brute force's" \
    python3 -c "$grundy_ref"'
import json
d = json.loads(sys.argv[2])
assert d["values"] == g and d["values_start"] == "0" and d["values_truncated"] is False, d["values"][:20]' 200 "$u"
check "unresolved JSON: 20,000 values cut at 10,000" \
    python3 -c 'import json, sys
d = json.loads(sys.argv[1])
assert len(d["values"]) == 10000 and d["values_truncated"] is True and d["computed"] == 20000' \
    "$(sg --grundy --max 20000 --json)"
# A question within the default budget computes what it needs, not the
# default (10^6 values for Grundy's game); the text says so.
out=$(sg --grundy --values 0:10)
check "--values 0:10 without --max: 1,000 values (the floor), not 10^6" \
    bash -c 'grep -qx "computed: G(0..999)" <<<"$1" && grep -q "^budget: 1000 values, what the questions need" <<<"$1"' _ "$out"
check "... and G(0..10) are the brute force's" \
    python3 -c "$grundy_ref"'
got = [int(l.split(" = ")[1]) for l in sys.argv[2].splitlines() if l.startswith("G(")]
assert got == g, got' 11 "$out"
j=$(sg --grundy --heap 20000 --json)
check "--heap 20000 without --max: G(0..20000) computed" \
    test "$(jget "d['computed'],d['heaps'][0]['value'] is not None" <<<"$j")" = "(20001, True)"
j=$(sg --grundy --heap 7 --max 3000 --json)
check "--max still sets the count" test "$(jget "d['computed']" <<<"$j")" = 3000

# The certified line names the saltus and, when the theorem's check starts
# past the least pre-period, that pre-period (issue 50: "+ s" with no s;
# 0.8F "checked from n = 8" with pre-period 7); judged on the values.
for r in "--subtract 4+3k" "--hex 0.8F"; do
    # shellcheck disable=SC2086
    out=$(sg $r --values 0:199) j=$(sg $r --values 0:199 --json)
    check "$r: the certified line is the certificate's, and the values obey it" \
        python3 -c 'import json, re, sys
text, d = sys.argv[1], json.loads(sys.argv[2])
c, g = d["certificate"], d["values"]
line = [l for l in text.splitlines() if l.startswith("certified: ")][0]
m = re.match(r"certified: G\(n\+(\d+)\) = G\(n\) \+ (\d+) checked from n = (\d+), "
             r"and from the pre-period (\d+) in the values; bound (\d+);", line)
assert m, line
p, s, a, n0, b = map(int, m.groups())
assert (p, s, a, n0, b) == (c["proof_period"], c["proof_saltus"], c["proof_start"],
                            d["preperiod"], c["bound"]) and s > 0 and n0 < a, (line, c)
assert all(g[n + p] == g[n] + s for n in range(n0, 200 - p)), line
assert n0 == 0 or g[n0 - 1 + d["period"]] != g[n0 - 1] + d["saltus"], line' "$out" "$j"
done

# --- huge heaps and unknown answers ----------------------------------------
out=$(sg --subtract 2,3,5,7,11,13 --heap 1000000000000000000 --quiet)
check "G(10^18) for S={2,..,13} is values[10^18 mod 9] = 0" has "$out" "G(1000000000000000000) = 0"
out=$(sg --all-but '' --heap 123456789012345678901234567890 --quiet)
check "Nim: G(N) = N beyond 64 bits" has "$out" "G(123456789012345678901234567890) = 123456789012345678901234567890"
sg --grundy --max 100 --heap 10^18 >/dev/null 2>&1; rc=$?
check "an unproven heap beyond what can be computed exits 3" test $rc -eq 3
out=$(sg --grundy --max 100 --heap 10^18 2>/dev/null)
check "... and says unknown" grep -q "G(10^18) = unknown" <<<"$out"
out=$(sg --octal 0.77 --values 0:5 --quiet)
check "--values 0:5 of Kayles" test "$(echo $out)" = "G(0) = 0 G(1) = 1 G(2) = 2 G(3) = 3 G(4) = 1 G(5) = 4"

# --- bad input: one line on stderr, naming the problem, exit 2 ------------
bad() { # DESCRIPTION PATTERN ARGS...
    local d=$1 pat=$2 rc lines
    shift 2
    "$SG" --no-cache "$@" >"$T/out" 2>"$T/err"; rc=$?
    lines=$(wc -l <"$T/err")
    if [ $rc -eq 2 ] && [ "$lines" -eq 1 ] && grep -q -- "$pat" "$T/err" && [ ! -s "$T/out" ]; then
        ok "$d"
    else
        not_ok "$d (exit $rc, stderr: $(head -c 200 "$T/err"))"
    fi
}
bad "empty subtraction list" "empty list" --subtract ''
bad "empty element" "position 3" --subtract 2,,3
bad "zero removal" "0 is not allowed" --subtract 0,2
bad "negative removal" "negative" --subtract -1
bad "number past 2^63" "larger than 2^63" --subtract 99999999999999999999
bad "reversed range" "reversed" --subtract 5-3
bad "all-but exclusion too large to store" "too large" --all-but 1000000000000
bad "octal digit 8" "not octal" --octal 0.78
bad "hex digit G" "not hexadecimal" --hex 0.8G
bad "lone !" "must follow a digit" --rule '!'
bad "unclosed [" "unclosed" --rule '0.[37'
bad "empty []" "empty" --rule '0.[]'
bad "digit 1 before the point" "before the point" --rule 1.3
bad "garbage after a canonical form" "" --rule 'subtract{1,2'
bad "--max too large for memory" "memory" --subtract 1,2 --max 9000000000000000000
bad "--max not a number" "max" --subtract 1,2 --max 12x
bad "no rule" "no rule" --max 10
bad "two rules" "only one rule" --subtract 1 --octal 0.7
bad "unknown option" "unknown option" --subtract 1 --frobnicate
bad "--heap not a number" "heap" --subtract 1 --heap 12a
bad "--position malformed" "position" --subtract 1 --position 1,,2
bad "--values reversed" "reversed" --subtract 1 --values 9:3
"$SG" frobnicate >"$T/out" 2>"$T/err"; rc=$?
check "unknown command: exit 2 and one line naming it" \
    test $rc -eq 2 -a "$(wc -l <"$T/err")" -eq 1 -a -n "$(grep "unknown command or rule 'frobnicate'" "$T/err")"

"$SG" --help >/dev/null; check "--help exits 0" test $? -eq 0
check "--version prints the version" grep -q "^sgexplore [0-9]" <<<"$("$SG" --version)"
check "--version --json: one object with the program and its version" \
    test "$("$SG" --version --json | jget "d['program'], d['version'] == '$("$SG" --version | cut -d' ' -f2)'")" = "('sgexplore', True)"
out=$(sg --octal 0.07 --position 3,4,1000000000000000000000 --quiet)
check "text --position: each heap's value first (Dawson: G(3) = 1, G(4) = 2)" \
    bash -c 'grep -qx "G(4) = 2" <<<"$1" && grep -qx "G(1000000000000000000000) = $2" <<<"$1" && [ "$(head -n 1 <<<"$1")" = "G(3) = 1" ]' _ "$out" \
    "$(sg --octal 0.07 --heap 1000000000000000000000 --quiet | sed 's/.* = //')"

echo "1..$n"
