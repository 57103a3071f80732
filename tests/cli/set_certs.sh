#!/bin/bash
# tests/cli/set_certs.sh - the two checkers of the set-residues theorem
# against each other and against a brute force (TAP).  Random subtraction
# sets (odd numbers, progressions, primes, powers, squares, Fibonacci
# numbers, ranges, with late members and differences) get certificates
# written here, not by the program: the least period P of G(0..B) from 0
# (or a random P when there is none) and a random bound B, with the true
# checksum, so that many claims are false only through a class whose
# least member lies past the bound.  `sgexplore verify` and
# scripts/check_certificate.py must give the same verdict on every one,
# and every confirmed claim must hold for G(0..3999) by brute force.
# SG_SET_CERTS (default 120 x SG_TEST_MULT) certificates; the seed is
# printed (SG_SET_CERTS_SEED, else SG_TEST_SEED, else the clock).

SG=${SGEXPLORE:-sgexplore}
SRC=${top_srcdir:-.}
PY=$SRC/scripts/check_certificate.py
T=$(mktemp -d "${TMPDIR:-/tmp}/set_certs.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT

. "$(dirname "$0")/tap.sh"
if ! command -v python3 >/dev/null; then
    echo "1..0 # SKIP python3 is not installed"
    exit 0
fi
export PYTHONDONTWRITEBYTECODE=1
COUNT=${SG_SET_CERTS:-$(awk -v m="${SG_TEST_MULT:-1}" \
    'BEGIN { n = int(120 * m); print (n < 20 ? 20 : n) }')}
SEED=${SG_SET_CERTS_SEED:-${SG_TEST_SEED:-$(date +%s)}}
echo "# seed $SEED (rerun with SG_SET_CERTS_SEED=$SEED)"

# Write the certificates and, beside each, the brute force's G(0..3999).
SG="$SG" python3 - "$T" "$SEED" "$COUNT" "$PY" <<'EOF' || exit 1
import json, os, random, subprocess, sys
T, seed, count, checker = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), \
    sys.argv[4]
sys.path.insert(0, os.path.dirname(checker))
import check_certificate as cc
rng = random.Random(seed)

def item():
    k = rng.randrange(8)
    if k == 0:
        return str(rng.choice([1, 1, 2, 3, rng.randint(4, 120)]))
    if k == 1:
        a = rng.randint(1, 9)
        return '%d-%d' % (a, a + rng.randint(2, 6))
    if k == 2:
        return '%d+%dk' % (rng.randint(1, 9), rng.choice([2, 2, 4, 6]))
    if k == 3:
        return 'primes'
    if k == 4:
        t = 'powers-of-%d' % rng.choice([2, 3, 4, 5, 7])
    else:
        t = rng.choice(['squares', 'fibonacci', 'cubes', 'triangular'])
    if rng.random() < 0.25:
        t += ':%d-9223372036854775807' % rng.randint(2, 200)
    return t

n = tries = 0
while n < count:
    inc = [item() for _ in range(rng.randint(1, 3))]
    if rng.random() < 0.5:
        inc.append('1')
    if rng.random() < 0.5:
        # a base that is often periodic from 0, and a late member or two
        inc = [rng.choice(['1,primes', 'powers-of-2', 'powers-of-3',
                           'powers-of-4', 'powers-of-5', '1,powers-of-3'])]
        inc += [item() for _ in range(rng.randint(0, 1))]
    text = ','.join(inc)
    if text.startswith('1,primes') and rng.random() < 0.7:
        text += '\\2'
    elif rng.random() < 0.4:
        text += '\\' + ','.join(rng.choice(['2', '3', '2,3', '1-4', '9'])
                                for _ in range(1))
    # the canonical form, as the program writes it (the tool parses it)
    tries += 1
    if tries > 50 * count:
        sys.exit('set_certs.sh: too few set rules among the random sets')
    out = subprocess.run([os.environ.get('SG', 'sgexplore'), '--no-cache',
                          '--subtract', text, '--max', '1', '--json'],
                         capture_output=True, text=True).stdout
    try:
        rule = json.loads(out).get('rule')
    except ValueError:
        continue
    if rule is None:
        continue    # refused: the JSON is {"error": ...}
    if not rule.startswith('subtract{'):
        continue    # a code: the set was eventually periodic
    r = cc.parse_rule(rule)
    if not isinstance(r, cc.SetRule):
        continue
    g = cc.SetValues(r).upto(4000)
    P = next((q for q in range(1, 60)
              if all(g[i + q] == g[i] for i in range(400 - q))), None)
    P = P or rng.randint(1, 12)
    if rng.random() < 0.2:
        P *= 2
    B = rng.randint(P, 300)
    p = next((d for d in range(1, P + 1) if P % d == 0 and
              all(g[i + d] == g[i] for i in range(min(P, B - d + 1)))), P)
    n += 1
    with open(os.path.join(T, 'c%d.cert' % n), 'w') as f:
        f.write('format: sgexplore-certificate 1\nrule: %s\n'
                'status: periodic\npreperiod: 0\nperiod: %d\nsaltus: 0\n'
                'theorem: set-residues\nproof_start: 0\nproof_period: %d\n'
                'proof_saltus: 0\nbound: %d\nchecksum: fnv1a64:%016x\n'
                % (rule, p, P, B, cc.fnv1a64(g, B + 1)))
    with open(os.path.join(T, 'c%d.g' % n), 'w') as f:
        f.write(' '.join(map(str, g)))
EOF

for f in "$T"/c*.cert; do
    "$SG" verify --certificate "$f" 2>&1 | tail -n 1 >"${f%.cert}.c"
done
ls "$T"/c*.cert | python3 "$PY" - >"$T/py" 2>&1

python3 - "$T" <<'EOF' >"$T/verdicts"
import os, sys
T = sys.argv[1]
def kind(v):
    """confirmed, refuted, or the whole text (anything else)"""
    for k in ('confirmed', 'refuted'):
        if v.startswith(k):
            return k
    return v

py = {}
for line in open(os.path.join(T, 'py')):
    path, _, v = line.rstrip('\n').partition(': ')
    py[os.path.basename(path)] = kind(v)
agree = confirmed = refuted = 0
bad = []
for name in sorted(py):
    c = kind(open(os.path.join(T, name[:-5] + '.c')).read().strip())
    if c == py[name]:
        agree += 1
    else:
        bad.append('%s: verify %s, Python %s' % (name, c, py[name]))
    if c == 'confirmed' or py[name] == 'confirmed':
        confirmed += 1
        cert = dict(l.split(': ', 1) for l in
                    open(os.path.join(T, name)).read().splitlines())
        p = int(cert['period'])
        g = list(map(int, open(os.path.join(T, name[:-5] + '.g')).read()
                     .split()))
        if any(g[i] != g[i % p] for i in range(len(g))):
            bad.append('%s: confirmed period %d fails by brute force'
                       % (name, p))
    else:
        refuted += 1
for b in bad[:10]:
    print('# ' + b)
print('%s the two checkers agree on %d of %d certificates' % (
    'ok' if not bad else 'not ok', agree, len(py)))
print('%s every confirmed claim holds for G(0..3999) by brute force' % (
    'ok' if not [b for b in bad if 'brute' in b] else 'not ok'))
print('%s both confirmed and refuted claims were made (%d, %d)' % (
    'ok' if confirmed >= 5 and refuted >= 5 else 'not ok', confirmed,
    refuted))
EOF
grep '^#' "$T/verdicts"
while read -r a b rest; do
    [ "$a" = "#" ] && continue
    if [ "$a" = ok ]; then ok "$b $rest"; else not_ok "$rest"; fi
done <"$T/verdicts"

echo "1..$n"
[ $fails = 0 ]
