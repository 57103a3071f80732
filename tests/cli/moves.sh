#!/bin/bash
# tests/cli/moves.sh - rules by sets, moves{D@SET;...} (TAP): G(0..N-1)
# against tests/cli/moves_ref.py, a brute force over every partition
# written apart from the library (take a prime and split the rest in two,
# subtract a square or split in two unequal heaps, split after taking a
# proper divisor, four-heap splits after a prime, `?` and `=` digits);
# rules a code or a set rule writes come out as that rule (0.77, Lasker's
# Nim proven arithmetic-periodic, subtract{primes}); canonical texts merge
# and sort entries; a winning move is legal and reaches a P-position by the
# reference's values; no proof for the others; misère G- against the
# reference's search (refused for four-heap digits); the cache;
# bad input (one line, exit status 2).

SG=${SGEXPLORE:-sgexplore}
SRC=${abs_top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
REF=$SRC/tests/cli/moves_ref.py
T=$(mktemp -d "${TMPDIR:-/tmp}/moves.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT

. "$(dirname "$0")/tap.sh"
sg() { "$SG" --no-cache "$@"; }
field() { sed -n "s/^$1: //p" <<<"$2"; }

if ! command -v python3 >/dev/null; then
    echo "1..0 # SKIP python3 is not installed"
    exit 0
fi
export PYTHONDONTWRITEBYTECODE=1

# spec|values compared (the partition brute force sets the length)
for c in '4@primes|300' '3@squares;4!@0|300' '4@proper-divisors;3@1|300' \
    'C@primes|120' '8?@squares;2@1|120' '4=@primes;3@1-2|300' \
    'G@primes;3@1|70' '4!@at-most-half;3@1|300' '4@1;8!@1|120'; do
    spec=${c%|*} len=${c#*|}
    got=$(sg "moves{$spec}" --max "$len" --values 0:$((len - 1)) 2>&1 |
        sed -n 's/^G([0-9]*) = //p' | tr '\n' ' ')
    want="$(python3 "$REF" "$len" "$spec") "
    check "moves{$spec}: G(0..$((len - 1))) as the brute force's" \
        test "$got" = "$want"
done

# Rules a code or a set rule writes are that rule.
for pair in 'moves{7@1-2}|0.77' 'moves{3@1+1k;4@0}|4.[3]' \
    'moves{3@primes}|subtract{primes}' 'moves{3@4+3k}|0.0[003]' \
    'moves{4@1,2;2@3}|0.442' 'moves{4!@1;4@1}|0.4' \
    'moves{4@squares;4@primes}|moves{4@primes,squares}' \
    'moves{3@squares;4!@0}|moves{4!@0;3@squares}'; do
    text=${pair%|*} want=${pair#*|}
    out=$(sg "$text" --max 100 2>&1)
    check "$text prints as $want" test "$(field rule "$out")" = "$want"
done
out=$(sg 'moves{3@1+1k;4@0}' 2>&1)
check "moves{3@1+1k;4@0} is Lasker's Nim, proven arithmetic-periodic" \
    test "$(field status "$out")" = "arithmetic-periodic (proven)"
out=$(sg 'moves{4@primes}' --max 500 2>&1)
check "moves{4@primes}: no theorem, unresolved" \
    contains "$(field status "$out")" "^unresolved"
check "... its canonical text parses back to itself" \
    test "$(field rule "$(sg 'moves{4@primes}' --max 50 2>&1)")" = \
    "moves{4@primes}"

# A winning move of moves{4@primes;3@1}: legal (a prime taken, the rest
# split in two; or one token taken) and to a position of nim-sum 0 by the
# reference's values.
python3 "$REF" 80 '4@primes;3@1' >"$T/g"
sg 'moves{4@primes;3@1}' --max 80 --position 61,17,9 --json >"$T/p" 2>&1
check "a winning move is legal and leaves nim-sum 0" python3 - "$T/g" "$T/p" <<'PY'
import json, sys
g = list(map(int, open(sys.argv[1]).read().split()))
p = json.load(open(sys.argv[2]))["position"]
heaps = [int(h["heap"]) for h in p["heaps"]]
mv = p["move"]
h, k = heaps[mv["heap"]], int(mv["take"])
left = [int(x) for x in mv["leaves"]]
prime = k > 1 and all(k % d for d in range(2, k))
legal = (k == 1 and len(left) <= 1 and sum(left) == h - 1) or \
    (prime and len(left) == 2 and sum(left) == h - k and min(left) >= 1)
rest = heaps[:mv["heap"]] + heaps[mv["heap"] + 1:] + left
x = 0
for v in rest:
    x ^= g[v]
sys.exit(0 if legal and x == 0 else 1)
PY

# Misère play: G- of single heaps against the reference's own misère
# search over sums; refused for digits that leave four heaps.  The cache
# keeps the rule under its canonical text.
for spec in '4@primes;3@1' 'C?@primes;2@1' '4!@at-most-half;3@1'; do
    got=$(sg "moves{$spec}" --misere --misere-max 14 2>&1 |
        sed -n 's/.*: G-([0-9]*) = \([0-9]*\),.*/\1/p' | tr '\n' ' ')
    want="$(python3 "$REF" misere 14 "$spec") "
    check "misère moves{$spec}: G-(0..13) as the reference's" \
        test "$got" = "$want"
done
sg 'moves{G@primes}' --misere >"$T/o" 2>"$T/e"
check "misère of moves{G@primes} (four heaps): exit 2, one line" \
    test "$?/$(wc -l <"$T/e")" = "2/1"
"$SG" --db "$T/c.db" 'moves{4@primes}' --max 300 >/dev/null 2>&1
out=$("$SG" --db "$T/c.db" 'moves{4@ primes}' --max 300 2>&1)
out=$("$SG" --db "$T/c.db" 'moves{4@primes}' --max 300 2>&1)
check "a second run reads the cache" test "$(field source "$out")" = "cache"

# bad DESCRIPTION PATTERN RULE: exit 2, one line naming the problem.
bad() {
    local d=$1 pat=$2
    shift 2
    sg "$@" >"$T/o" 2>"$T/e"
    local rc=$?
    check "$d: exit 2, one line naming it" \
        test "$rc/$(wc -l <"$T/e")/$(grep -c -- "$pat" "$T/e")" = "2/1/1"
}
# A rule with no move is the game 0.0 however it is written (issue 50:
# moves{} was refused, the code 0. accepted): G(n) = 0 for every n.
for r in 'moves{}' 'moves{0@primes}' '--octal 0.' '0.00'; do
    # shellcheck disable=SC2086
    j=$(sg $r --values 0:30 --json)
    check "$r: the game with no move, 0.0, every G(n) 0, proven" \
        python3 -c 'import json, sys
d = json.loads(sys.argv[1])
assert d["rule"] == "0.0" and d["status"] == "periodic" and d["values"] == [0] * 31, d' "$j"
done
# moves{} over sets explains itself in its own words, not CGSuite's digits
out=$(sg 'moves{4@primes}' --max 300)
check "moves{4@primes}: the note names moves{..} over sets" \
    bash -c 'grep -q "^note: no periodicity theorem is implemented for moves{..} rules over sets" <<<"$1" &&
             ! grep -q "CGSuite" <<<"$1"' _ "$out"
bad "an entry without @" "DIGIT@SET" 'moves{4primes}'
bad "an empty set" "empty" 'moves{4@}'
bad "an unknown set" "did you mean 'primes'" 'moves{4@prime}'
bad "a step of 0" "step" 'moves{4@4+0k}'
bad "@0 that does not split" "must split" 'moves{3@0}'
bad "'!' on four heaps" "not implemented" 'moves{G!@primes}'
bad "no closing brace" "}" 'moves{4@primes'

echo "1..$n"
[ $fails = 0 ]
