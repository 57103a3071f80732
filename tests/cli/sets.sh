#!/bin/bash
# tests/cli/sets.sh - rules over set expressions from the command line
# (TAP), judged by tests/cli/sets_ref.py, a brute force of its own: G(0..N-1)
# (N = 10^4) of subtract primes, squares, 4+3k, powers-of-2, fibonacci,
# proper-divisors (the aliquot game), at-most-half, squares,primes (a
# union), primes\2 (a difference) and all-but primes, each against the
# tool's --values; canonical forms and families; subtract-a-square never
# reported periodic; 4+3k proven; a winning move checked; the cache; bad
# expressions (one line, exit status 2).  Under SG_TEST_MULT below 1 (the
# sanitizer suite, after the plain one) N = 4000: the same checks, for
# what cost 40 CPU seconds under ASan at N = 10^4; and the runs bounded
# by time get 3 s instead of 0.5 (below).

SG=${SGEXPLORE:-sgexplore}
SRC=${abs_top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
REF=$SRC/tests/cli/sets_ref.py
T=$(mktemp -d "${TMPDIR:-/tmp}/sets.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT

. "$(dirname "$0")/tap.sh"
sg() { "$SG" --no-cache "$@"; }

if ! command -v python3 >/dev/null; then
    echo "1..0 # SKIP python3 is not installed"
    exit 0
fi
export PYTHONDONTWRITEBYTECODE=1
N=10000
if awk -v m="${SG_TEST_MULT:-1}" 'BEGIN { exit !(m < 1) }'; then
    N=4000
fi

# option|set as sgexplore reads it|the reference's case (one a line)
cat >"$T/cases" <<'EOF'
--subtract|primes|subtract:primes
--subtract|squares|subtract:squares
--subtract|4+3k|subtract:progression-4-3
--subtract|powers-of-2|subtract:powers-of-2
--subtract|fibonacci|subtract:fibonacci
--subtract|proper-divisors|subtract:proper-divisors
--subtract|at-most-half|subtract:at-most-half
--subtract|squares,primes|subtract:squares-or-primes
--subtract|primes\2|subtract:primes-but-2
--all-but|primes|all-but:primes
EOF

# The reference in the background, two halves at once, while the tool
# runs: one line of values per case, in the order of the cases.
cut -d'|' -f3 "$T/cases" | head -n 5 >"$T/c1"
cut -d'|' -f3 "$T/cases" | tail -n +6 >"$T/c2"
python3 "$REF" "$N" $(cat "$T/c1") >"$T/ref1" &
r1=$!
python3 "$REF" "$N" $(cat "$T/c2") >"$T/ref2" &
r2=$!

i=0
while IFS='|' read -r opt set _; do
    i=$((i + 1))
    sg "$opt" "$set" --max $N --values 0:$((N - 1)) --json >"$T/out$i.json" \
        2>"$T/err$i"
    echo $? >"$T/rc$i"
done <"$T/cases"
wait $r1 $r2
cat "$T/ref1" "$T/ref2" >"$T/ref"

# The outputs still to judge, all read by one Python run at the end.
sg --subtract squares --max 100000 --json >"$T/squares.json"
sg --subtract squares --max 1000 --heap 10^18 >/dev/null 2>&1
check "subtract squares --heap 10^18 past the computed values: exit 3 (unknown)" \
    test $? = 3
sg --subtract squares --max 1000 --export-certificate "$T/sq.cert" \
    >/dev/null 2>&1
check "subtract squares has no certificate to export (exit 3)" test $? = 3
j=0
for spec in "--subtract Primes" "subtract{primes}" "SUBTRACT{primes\\4}" \
    "--subtract 2,primes" "--subtract primes:1-30" "--all-but 5+1k" \
    "subtract{at-most-2/4}"; do
    j=$((j + 1))
    # shellcheck disable=SC2086
    sg $spec --max 200 --json >"$T/canon$j.json"
done
sg --subtract primes --max $N --position 100,2000,3333 --json >"$T/pos.json"
"$SG" --db "$T/c.db" --subtract primes --max 3000 >/dev/null 2>&1
"$SG" --db "$T/c.db" 'subtract{primes}' --max 3000 --json >"$T/cached.json"

# judge: one "ok DESCRIPTION" or "not ok DESCRIPTION" line per check.
python3 - "$T" "$N" <<'PY' >"$T/verdicts"
import json, os, sys
T, N = sys.argv[1], int(sys.argv[2])
cases = [l.split('|') for l in open(T + '/cases').read().split('\n') if l]
ref = open(T + '/ref').read().split('\n')
def say(good, what):
    print(('ok ' if good else 'not ok ') + what)
def load(name):
    try:
        return json.load(open(os.path.join(T, name)))
    except (OSError, ValueError):
        return {}
outs = []
for i, (opt, st, _) in enumerate(cases, 1):
    rc = open('%s/rc%d' % (T, i)).read().strip()
    d = load('out%d.json' % i)
    outs.append(d)
    got = [str(v) for v in d.get('values', [])]
    want = ref[i - 1].split()
    diff = next((k for k in range(max(len(got), len(want)))
                 if k >= len(got) or k >= len(want) or got[k] != want[k]),
                None)
    say(rc == '0' and diff is None,
        '%s %s: G(0..%d) agrees with sets_ref.py%s' % (
            opt, st, N - 1, '' if diff is None else
            ' (exit %s, first difference at heap %d)' % (rc, diff)))
def rf(d):
    return '%s/%s' % (d.get('rule'), d.get('family'))
say(rf(outs[0]) == 'subtract{primes}/subtract',
    'subtract primes is the rule subtract{primes}, family subtract')
say(rf(outs[9]) == 'all-but{primes}/all-but',
    'all-but primes is the rule all-but{primes}, family all-but')
d = outs[2]
say((d.get('rule'), d.get('status'), d.get('period'), d.get('saltus')) ==
    ('0.0[003]', 'arithmetic-periodic', 4, 1),
    '4+3k is the code 0.0[003], proven arithmetic-periodic, period 4, '
    'saltus 1')
for i in (0, 1, 4, 5, 6, 7, 8, 9):
    say(outs[i].get('status') == 'unresolved' and
        outs[i].get('period') is None,
        '%s %s: unresolved, no period claimed' % tuple(cases[i][:2]))
d = load('squares.json')
say((d.get('status'), d.get('period'), d.get('theorem')) ==
    ('unresolved', None, None),
    'subtract squares to 10^5: unresolved, no period, no theorem')
want = ['subtract{primes}'] * 4 + ['subtract{2,3,5,7,11,13,17,19,23,29}',
                                   'subtract{1-4}', 'subtract{at-most-half}']
for j, w in enumerate(want, 1):
    say(load('canon%d.json' % j).get('rule') == w,
        'canonical form %d is %s' % (j, w))
# The winning move, checked with the reference's values of subtract primes.
g = ref[0].split()
heaps = [100, 2000, 3333]
m = load('pos.json').get('position', {}).get('move')
good = m is not None
if good:
    h, take = heaps[m['heap']], int(m['take'])
    left = [int(x) for x in m['leaves']]
    rest = heaps[:m['heap']] + heaps[m['heap'] + 1:] + left
    x = 0
    for r in rest:
        x ^= int(g[r])
    good = take >= 2 and all(take % q for q in range(2, take)) and \
        left == ([h - take] if h > take else []) and x == 0
say(good, 'subtract primes: the winning move from 100,2000,3333 takes a '
    'prime and leaves nim-sum 0 (by the reference)')
say(load('cached.json').get('source') == 'cache',
    'subtract{primes} is read back from the cache')
PY
while read -r a b rest; do
    if [ "$a" = ok ]; then ok "$b $rest"; else not_ok "$rest"; fi
done <"$T/verdicts"

# A run bounded by time stops with the values of its last whole round
# (the set-up of a round, such as the sieve, leaves nothing otherwise).
# Under SG_TEST_MULT below 1 (the sanitizer build, each round's sieve to
# 10^8 some four times slower) 3 s: in 0.5 s, three tests at a time at a
# load average of 8, primes got only to 32768.
secs=0.5
if awk -v m="${SG_TEST_MULT:-1}" 'BEGIN { exit !(m < 1) }'; then
    secs=3
fi
for set in primes proper-divisors; do
    c=$(sg --subtract $set --seconds $secs --max 100000000 --json |
        python3 -c 'import json, sys; print(json.load(sys.stdin)["computed"])')
    check "--subtract $set --seconds $secs: stopped with values ($c computed)" \
        test "${c:-0}" -ge 65536
done

# The family of progressions a+bk, a, b <= 3: nine rules, all proven
# (by the periodic-tail theorem, or the tail theorem for b = 1).
"$SG" sweep progressions --max-element 3 --jobs 1 --format json --no-cache \
    >"$T/sweep.json"
check "sweep progressions --max-element 3: nine rules, every one proven" \
    test "$(python3 -c 'import json, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
rows = [r for r in rows if "rule" in r]
print(len(rows), sum(r["status"] != "unresolved" for r in rows))' \
    "$T/sweep.json")" = "9 9"

# Bad expressions: one line on stderr, exit status 2.
bad() { # bad DESCRIPTION PATTERN ARGS...
    local d=$1 pat=$2
    shift 2
    sg "$@" --max 100 >"$T/o" 2>"$T/e"
    local rc=$?
    check "$d: exit 2, one line naming it" \
        test "$rc/$(wc -l <"$T/e")/$(grep -c -- "$pat" "$T/e")" = "2/1/1"
}
bad "empty set" "empty" --subtract ''
bad "step 0" "step" --subtract '4+0k'
bad "unknown name" "did you mean 'primes'" --subtract prime
bad "number too large" "2^63\|too large\|large" --subtract 99999999999999999999
bad "difference leaving nothing" "nothing\|empty" --subtract 'primes\primes'
bad "bound without a member" "member" --subtract 'squares:2-3'
bad "share above 1" "share\|fraction\|1" --subtract 'at-most-3/2'
bad "--all-but every number" "no move" --all-but '1+1k'
bad "finite set too large for a list" "more than" --subtract '1-100000000'
bad "rule text without its brace" "}" 'subtract{primes'
# Misère play of set rules: G- of heaps 0..59 against the reference's
# (one-heap moves: every heap is tame, Gurvich and Ho's subtraction games),
# and the outcome of a sum by the tame rule.
for c in "--subtract|primes|misere-subtract:primes" \
    "--subtract|proper-divisors|misere-subtract:proper-divisors" \
    "--subtract|at-most-half|misere-subtract:at-most-half" \
    "--all-but|primes|misere-all-but:primes"; do
    IFS='|' read -r opt set case <<<"$c"
    sg "$opt" "$set" --misere --misere-max 60 >"$T/mo" 2>"$T/me"
    rc=$?
    got=$(sed -n 's/.*: G-([0-9]*) = \([0-9]*\),.*/\1/p' "$T/mo" | tr '\n' ' ')
    want="$(python3 "$REF" 60 "$case") "
    check "misère $opt $set: G-(0..59) as the reference's" \
        test "$rc/$got" = "0/$want"
done
sg --subtract primes --misere --position 5,7,11 >"$T/mo" 2>&1
check "misère --position of a set rule decided by the tame rule" \
    grep -q "misère winner .* (by tame)" "$T/mo"
"$SG" --no-cache primes >"$T/o" 2>"$T/e"
check "a set as the rule argument: exit 2, one line pointing to --subtract primes" \
    test "$?/$(wc -l <"$T/e")/$(grep -c -- "--subtract primes" "$T/e")" = "2/1/1"

echo "1..$n"
[ $fails = 0 ]
