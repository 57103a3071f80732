#!/bin/bash
# tests/cli/seq_out.sh - the sequence out (TAP): --values A:B --format
# csv|bfile|list and --where V, judged by a brute force of its own (the
# mex over every move, in Python): subtract{1,3,4} and Dawson's Kayles
# (0.07) in each format; the P-positions (--where 0) of subtract{1,3,4}
# over 0:10^6 and of 0.07 over 0:3000, in text, JSON and each format; the
# count over 0:10^30 of a proven rule against the count the brute force's
# period gives; an unknown value (exit 3, nothing written); bad uses (one
# line, exit 2).

SG=${SGEXPLORE:-sgexplore}
T=$(mktemp -d "${TMPDIR:-/tmp}/seq_out.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT

. "$(dirname "$0")/tap.sh"
sg() { "$SG" --no-cache "$@"; }

if ! command -v python3 >/dev/null; then
    echo "1..0 # SKIP python3 is not installed"
    exit 0
fi
export PYTHONDONTWRITEBYTECODE=1

# The brute force: G(0..n-1) of subtract{1,3,4} and of 0.07.
cat >"$T/ref.py" <<'EOF'
import sys

def mex(s):
    v = 0
    while v in s:
        v += 1
    return v

def subtract(ks, n):
    g = []
    for h in range(n):
        g.append(mex({g[h - k] for k in ks if k <= h}))
    return g

def dawson(n):
    """0.07: remove 2 leaving 0, 1 or 2 heaps; remove 3 never (digit 0
    at position 1 is 0, position 2 is 7)"""
    g = []
    for h in range(n):
        opts = set()
        r = h - 2
        if r == 0:
            opts.add(0)
        if r >= 1:
            opts.add(g[r])
            for a in range(1, r // 2 + 1):
                opts.add(g[a] ^ g[r - a])
        g.append(mex(opts))
    return g

which, n = sys.argv[1], int(sys.argv[2])
g = subtract((1, 3, 4), n) if which == 'sub134' else dawson(n)
print(' '.join(map(str, g)))
EOF
python3 "$T/ref.py" sub134 1000001 >"$T/sub134" &
p1=$!
python3 "$T/ref.py" dawson 3001 >"$T/dawson" &
p2=$!

sg --subtract 1,3,4 --values 0:500 --format csv >"$T/s.csv"
sg --subtract 1,3,4 --values 0:500 --format bfile >"$T/s.b"
sg --subtract 1,3,4 --values 0:500 --format list >"$T/s.list"
sg 0.07 --values 100:3000 --format bfile >"$T/d.b"
sg --subtract 1,3,4 --values 0:10^6 --where 0 --format list >"$T/w.list"
sg --subtract 1,3,4 --values 0:10^6 --where 0 --format bfile >"$T/w.b"
sg --subtract 1,3,4 --values 0:10^6 --where 0 --format csv >"$T/w.csv"
sg --subtract 1,3,4 --values 0:10^6 --where 0 --json >"$T/w.json"
sg --subtract 1,3,4 --values 0:10^30 --where 2 --json >"$T/big.json"
sg 0.07 --values 0:3000 --where 0 --json >"$T/dw.json"
sg 0.07 --values 0:3000 --where 0 --quiet >"$T/dw.txt"
wait $p1 $p2

python3 - "$T" <<'EOF' >"$T/verdicts"
import json, os, sys
T = sys.argv[1]
sub = list(map(int, open(os.path.join(T, 'sub134')).read().split()))
daw = list(map(int, open(os.path.join(T, 'dawson')).read().split()))
def say(ok, what):
    print(('ok ' if ok else 'not ok ') + what)
def read(name):
    return open(os.path.join(T, name)).read()

say(read('s.csv') == 'n,G(n)\n' + ''.join('%d,%d\n' % (n, sub[n])
                                          for n in range(501)),
    'subtract{1,3,4} --values 0:500 --format csv: header, then n,G(n)')
say(read('s.b') == ''.join('%d %d\n' % (n, sub[n]) for n in range(501)),
    'subtract{1,3,4} --format bfile: "n a(n)" per line')
say(read('s.list') == ', '.join(map(str, sub[:501])) + '\n',
    'subtract{1,3,4} --format list: one line, comma and space')
say(read('d.b') == ''.join('%d %d\n' % (n, daw[n]) for n in range(100, 3001)),
    '0.07 --values 100:3000 --format bfile as the brute force')
zeros = [n for n, v in enumerate(sub) if v == 0]
say(read('w.list') == ', '.join(map(str, zeros)) + '\n',
    'subtract{1,3,4} --where 0 --values 0:10^6 --format list: the '
    'P-positions, %d of them' % len(zeros))
say(read('w.b') == ''.join('%d %d\n' % (i + 1, n) for i, n in enumerate(zeros)),
    '--where 0 --format bfile: "i a(i)", the i-th P-position')
say(read('w.csv') == 'n\n' + ''.join('%d\n' % n for n in zeros),
    '--where 0 --format csv: header n, one heap a line')
j = json.load(open(os.path.join(T, 'w.json')))['where']
say(j['count'] == len(zeros) and list(map(int, j['heaps'])) == zeros and
    j['value'] == '0', '--where 0 --json: count and heaps')
# subtract{1,3,4}: period 7 from 0 (brute force's least period)
q = next(q for q in range(1, 100)
         if all(sub[i + q] == sub[i] for i in range(len(sub) - q)))
N = 10 ** 30
want = sum((N - r) // q + 1 for r in range(q) if sub[r] == 2)
j = json.load(open(os.path.join(T, 'big.json')))['where']
say(j['count'] == str(want) and j['heaps'] is None and
    j['residues'] == [r for r in range(q) if sub[r] == 2] and
    j['period'] == q,
    '--where 2 --values 0:10^30: count %d... by the brute force\'s period %d'
    % (want // 10 ** 25, q))
dz = [n for n, v in enumerate(daw) if v == 0]
j = json.load(open(os.path.join(T, 'dw.json')))['where']
say(list(map(int, j['heaps'])) == dz and j['count'] == len(dz),
    '0.07 --where 0 --values 0:3000: the %d P-positions of the brute force'
    % len(dz))
t = read('dw.txt').splitlines()
say(len(t) == 3 and t[0] == 'where G(n) = 0 for 0 <= n <= 3000: %d heaps'
    % len(dz) and t[2] == 'heaps: ' + ' '.join(map(str, dz)),
    '0.07 --where 0 --quiet: the count line, the residues, the heaps')
EOF
while read -r a b rest; do
    if [ "$a" = ok ]; then ok "$b $rest"; else not_ok "$rest"; fi
done <"$T/verdicts"

# Unknown values and bad uses.
sg --subtract squares --max 1000 --values 10^19:10^19+5 --format list \
    >"$T/o" 2>"$T/e"
check "an unknown value with --format: exit 3, nothing on stdout, one line" \
    test "$?/$(wc -c <"$T/o")/$(wc -l <"$T/e")" = "3/0/1"
for bad in "--format csv" "--where 0" "--values 0:9 --format xml" \
    "--values 0:9 --format csv --json" "--values 0:9 --where x" \
    "--values 0:10^9 --format list"; do
    # shellcheck disable=SC2086
    sg --subtract 1,3,4 $bad >"$T/o" 2>"$T/e"
    check "--subtract 1,3,4 $bad: exit 2, one line" \
        test "$?/$(wc -l <"$T/e")" = "2/1"
done
sg --subtract 1,3,4 --values 0:10^9 --where 0 --format list >"$T/o" 2>"$T/e"
check "--where with more heaps than --format lists: exit 2, one line" \
    test "$?/$(wc -l <"$T/e")/$(wc -c <"$T/o")" = "2/1/0"

echo "1..$n"
[ $fails = 0 ]
