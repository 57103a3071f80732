#!/bin/bash
# tests/cli/diff.sh - `sgexplore diff RULE1 RULE2` (TAP), judged by a brute
# force of its own over G(0..1999): pairs that are the same game written
# twice (subtract{1,2} and 0.33; subtract a power of 2 and subtract{1,2},
# two theorems; 1 and the odd primes and subtract{1}) are "equal" (exit 0)
# and agree by brute force; pairs that differ (early, at heap 30, with a
# saltus, between octal codes) give the brute force's first difference and
# values; unproven rules that agree are "unknown" (exit 3); bad uses.

SG=${SGEXPLORE:-sgexplore}
T=$(mktemp -d "${TMPDIR:-/tmp}/diff.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT

. "$(dirname "$0")/tap.sh"
sgd() { "$SG" diff --no-cache "$@"; }

if ! command -v python3 >/dev/null; then
    echo "1..0 # SKIP python3 is not installed"
    exit 0
fi
export PYTHONDONTWRITEBYTECODE=1

# rule 1|rule 2|brute-force name 1|brute-force name 2
cat >"$T/pairs" <<'EOF'
subtract{1,2}|0.33|s:1,2|o:0.33
subtract{powers-of-2}|subtract{1,2}|pow2|s:1,2
subtract{1,primes\2}|subtract{1}|odd|s:1
subtract{1,3,4}|subtract{1,4}|s:1,3,4|s:1,4
subtract{1,2}|subtract{1,2,30}|s:1,2|s:1,2,30
nim|all-but{5}|a:|a:5
0.07|0.137|o:0.07|o:0.137
EOF

i=0
while IFS='|' read -r r1 r2 _; do
    i=$((i + 1))
    sgd "$r1" "$r2" --json >"$T/d$i.json" 2>"$T/e$i"
    echo $? >"$T/rc$i"
done <"$T/pairs"

python3 - "$T" <<'EOF' >"$T/verdicts"
import json, os, sys
T = sys.argv[1]
N = 2000

def mex(s):
    v = 0
    while v in s:
        v += 1
    return v

def primes(n):
    c = bytearray(n + 1)
    out = []
    for p in range(2, n + 1):
        if not c[p]:
            out.append(p)
            c[p * p::p] = b'\x01' * len(c[p * p::p])
    return out

def subtract(ks):
    g = []
    for h in range(N):
        g.append(mex({g[h - k] for k in ks if k <= h}))
    return g

def octal(code):
    """a code 0.d1d2...: digit k's bits 1, 2, 4 (take k, leave 0, 1, 2)"""
    ds = [0] + [int(c) for c in code.split('.')[1]]
    g = []
    for h in range(N):
        opts = set()
        for k in range(1, min(h, len(ds) - 1) + 1):
            d, r = ds[k], h - k
            if d & 1 and r == 0:
                opts.add(0)
            if d & 2 and r > 0:
                opts.add(g[r])
            if d & 4:
                for a in range(1, r // 2 + 1):
                    opts.add(g[a] ^ g[r - a])
        g.append(mex(opts))
    return g

def values(name):
    if name.startswith('s:'):
        return subtract([int(x) for x in name[2:].split(',')])
    if name.startswith('o:'):
        return octal(name[2:])
    if name.startswith('a:'):
        ex = {int(x) for x in name[2:].split(',') if x}
        return subtract([k for k in range(1, N) if k not in ex])
    if name == 'pow2':
        return subtract([1 << i for i in range(11)])
    if name == 'odd':
        return subtract([1] + [p for p in primes(N) if p != 2])
    raise SystemExit('diff.sh: unknown brute force ' + name)

for i, line in enumerate(open(os.path.join(T, 'pairs')), 1):
    r1, r2, b1, b2 = line.rstrip('\n').split('|')
    g1, g2 = values(b1), values(b2)
    first = next((n for n in range(N) if g1[n] != g2[n]), None)
    rc = open(os.path.join(T, 'rc%d' % i)).read().strip()
    try:
        j = json.load(open(os.path.join(T, 'd%d.json' % i)))
    except ValueError:
        print('not ok diff %s %s: JSON (exit %s)' % (r1, r2, rc))
        continue
    if first is None:
        ok = rc == '0' and j['result'] == 'equal' and j['first'] is None
        what = 'equal, as the brute force agrees over G(0..%d)' % (N - 1)
    else:
        ok = rc == '0' and j['result'] == 'differ' and \
            j['first'] == first and j['values'] == [g1[first], g2[first]]
        what = 'first difference at n = %d, G = %d, %d (brute force)' % (
            first, g1[first], g2[first])
    print('%s diff %s %s: %s' % ('ok' if ok else 'not ok', r1, r2, what))
EOF
while read -r a b rest; do
    if [ "$a" = ok ]; then ok "$b $rest"; else not_ok "$rest"; fi
done <"$T/verdicts"

sgd 'subtract{squares}' 'subtract{4,squares}' --max 2000 >"$T/o" 2>&1
check "two unproven rules that agree as far as computed: exit 3, 'unknown'" \
    test "$?/$(grep -c '^unknown: G1(n) = G2(n) for n < 2000' "$T/o")" = 3/1
sgd 0.07 >"$T/o" 2>"$T/e"
check "diff with one rule: exit 2, one line" \
    test "$?/$(wc -l <"$T/e")" = 2/1
sgd 0.07 0.137 0.77 >"$T/o" 2>"$T/e"
check "diff with three rules: exit 2, one line" \
    test "$?/$(wc -l <"$T/e")" = 2/1
sgd 0.07 0.x >"$T/o" 2>"$T/e"
check "diff with a bad rule: exit 2, one line" \
    test "$?/$(wc -l <"$T/e")" = 2/1
sgd 0.07 --subtract 1,2 >"$T/o" 2>"$T/e"
check "diff takes its rules as arguments, not options: exit 2, one line" \
    test "$?/$(wc -l <"$T/e")" = 2/1
sgd 0.07 0.137 >"$T/o" 2>&1
check "the text names both rules and the first difference" \
    test "$(grep -c '^rule [12]: \|^first difference: n = 1, G1 = 0, G2 = 1$' \
        "$T/o")" = 3

echo "1..$n"
[ $fails = 0 ]
