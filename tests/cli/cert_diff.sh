#!/bin/bash
# tests/cli/cert_diff.sh - differential test of the two certificate
# checkers (TAP).  Genuine certificates of rules from every theorem's
# family are exported by the program, then tampered with: period +k, x2,
# x3; pre-period +-k; saltus +-k; proof saltus +1; bound -k (checksum
# recomputed, so only the bound is wrong); proof start +1; the status word;
# the theorem swapped for each other one; every hex digit of the checksum;
# huge numbers in every numeric field; and random combinations of these.
# Each such certificate makes a false claim (the claim is the least period
# and pre-period, so it is unique; exactly one theorem applies to a rule;
# the genuine bound is the least the theorem allows), and both
# `sgexplore verify --certificate F` and scripts/check_certificate.py must
# reject every one.  Genuine certificates, also rewritten without changing
# what they say (lines reordered, comments, unknown keys, CRLF), must be
# accepted by both.
#
# SG_CERT_DIFF_RANDOM (default 800 x SG_TEST_MULT) is the number of random
# combinations per run; with SG_TEST_MULT below 1 (the sanitizer build of
# .ci/run, where each verify process costs 70 ms, 40 of them LeakSanitizer's
# at exit) the single tampers are sampled too: every kind of tamper of
# every rule once, and each other tamper with probability SG_TEST_MULT.
# SG_CERT_DIFF_K (default 3) is the largest k; raise both for a longer
# run (e.g. SG_CERT_DIFF_RANDOM=20000 SG_CERT_DIFF_K=10).
# SG_CERT_DIFF_SEED fixes the seed (printed; default SG_TEST_SEED, else
# the clock).  SG_CERT_DIFF_RULES names a
# file of rules (one a line) to use instead of the built-in list; rules
# that are not proven within 5000 values are skipped.

SG=${SGEXPLORE:-sgexplore}
SRC=${top_srcdir:-.}
PY=$SRC/scripts/check_certificate.py
T=$(mktemp -d "${TMPDIR:-/tmp}/cert_diff.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT

. "$(dirname "$0")/tap.sh"
if ! command -v python3 >/dev/null; then
    echo "1..0 # SKIP python3 is not installed"
    exit 0
fi
# 800 random combinations, scaled by SG_TEST_MULT (the sanitizer build of
# .ci/run runs 0.4 of them: one verify process each, 10 ms apiece there).
RANDOM_N=${SG_CERT_DIFF_RANDOM:-$(awk -v m="${SG_TEST_MULT:-1}" \
    'BEGIN { n = int(800 * m); print (n < 10 ? 10 : n) }')}
K=${SG_CERT_DIFF_K:-3}
SEED=${SG_CERT_DIFF_SEED:-${SG_TEST_SEED:-$(date +%s)}}
export PYTHONDONTWRITEBYTECODE=1   # never write into the source tree
echo "# seed $SEED (rerun with SG_CERT_DIFF_SEED=$SEED)"

# One rule per line: every theorem, saltus and pre-period 0 and not; or
# the rules of the file $SG_CERT_DIFF_RULES.
cat >"$T/rules" <<'EOF'
0.77
0.07
0.137
4.07
0.F
0.7!
4!.07
subtract{1}
subtract{1,3,4}
subtract{2,3,5,7,11,13}
subtract{1,2,40}
all-but{}
all-but{2}
all-but{1,12}
all-but{3,20}
all-but{1,2,3,20}
4.[3]
0.4[3]
4.1[3]
0.6[3]
0.0004[3]
0.[30]
0.[03]
0.0[003]
0.33[0300]
0.[12]
0.3[030]
0.3030303[30]
0.8F
0.A8
0.FF
0.9E
subtract{powers-of-2}
subtract{1,primes\2}
subtract{1,primes}
subtract{powers-of-4}
subtract{3,powers-of-2}
subtract{powers-of-2\2}
EOF
[ -n "$SG_CERT_DIFF_RULES" ] && cp "$SG_CERT_DIFF_RULES" "$T/rules"
mkdir "$T/genuine" "$T/cases"
i=0
while read -r rule; do
    i=$((i + 1))
    "$SG" --no-cache --rule "$rule" --max 5000 \
        --export-certificate "$T/genuine/$i.cert" >/dev/null 2>&1 ||
        { [ -z "$SG_CERT_DIFF_RULES" ] && not_ok "no genuine certificate for $rule"; }
done <"$T/rules"

# Write the cases and a manifest "file<TAB>expected<TAB>kind".
python3 - "$T/genuine" "$T/cases" "$SEED" "$RANDOM_N" "$K" "$PY" \
    "${SG_TEST_MULT:-1}" <<'EOF' >"$T/manifest" || exit 1
import os, random, sys
gdir, cdir, seed, nrandom, K, checker, mult = sys.argv[1:8]
nrandom, K, mult = int(nrandom), int(K), float(mult)
rng = random.Random(int(seed))
sample = random.Random(int(seed) + 1)   # the combinations stay the seed's
# The G values, to recompute a checksum after changing the bound.
sys.path.insert(0, os.path.dirname(checker))
import check_certificate as cc

KEYS = cc.KEYS
THEOREMS = cc.THEOREMS
HUGE = ['9223372036854775807', '4611686018427387904',
        '18446744073709551615', '1' + '0' * 30]

def read(path):
    c = {}
    for line in open(path).read().splitlines():
        if ': ' in line and not line.startswith('#'):
            k, v = line.split(': ', 1)
            c[k] = v
    return c

def text(c, order=KEYS, crlf=False, extra=()):
    lines = ['%s: %s' % (k, c[k]) for k in order] + list(extra)
    nl = '\r\n' if crlf else '\n'
    return nl.join(lines) + nl

values = {}
def values_upto(c, bound):
    if c['rule'] not in values:
        r = cc.parse_rule(c['rule'])
        values[c['rule']] = cc.SetValues(r) if isinstance(r, cc.SetRule) \
            else cc.Values(r)
    return values[c['rule']].upto(bound + 1)

def checksum(c, bound):
    g = values_upto(c, bound)
    return 'fnv1a64:%016x' % cc.fnv1a64(g, bound + 1)

def ops(c):
    """(kind, function changing a copy of c) for every single tamper;
    each makes a false claim."""
    out = []
    n = lambda k: int(c[k])
    def setf(key, val):
        return lambda d: d.__setitem__(key, str(val))
    for k in range(1, K + 1):
        out.append(('period+k', setf('period', n('period') + k)))
        out.append(('preperiod+k', setf('preperiod', n('preperiod') + k)))
        if n('preperiod') >= k:
            out.append(('preperiod-k', setf('preperiod', n('preperiod') - k)))
        out.append(('saltus+k', setf('saltus', n('saltus') + k)))
        if n('saltus') >= k:
            out.append(('saltus-k', setf('saltus', n('saltus') - k)))
        if n('bound') >= k:
            b = n('bound') - k
            def bound_down(d, b=b):
                d['bound'] = str(b)
                d['checksum'] = checksum(c, b)
            out.append(('bound-k', bound_down))
    out.append(('period*2', setf('period', 2 * n('period'))))
    out.append(('period*3', setf('period', 3 * n('period'))))
    out.append(('proof_saltus+1', setf('proof_saltus', n('proof_saltus') + 1)))
    # (The hexadecimal theorem's bound max(a + t + 2c - 1, 3M + t - P),
    # M = max(a, c), does not grow with the start a while a < c: there
    # a later start proves the same claim with the same bound, a genuine
    # certificate, so that tamper is left out.)
    later_start = c['theorem'] != 'tail-arith' or n('proof_start') >= 1
    if c['theorem'] == 'hex-arith':
        g = values_upto(c, n('bound'))
        later_start = n('proof_start') >= next(
            x for x in range(1, len(g)) if g[x] >= n('proof_saltus'))
    if later_start:
        out.append(('proof_start+1',
                    setf('proof_start', n('proof_start') + 1)))
    out.append(('status', setf('status', 'periodic'
                               if c['status'] != 'periodic'
                               else 'arithmetic-periodic')))
    for t in THEOREMS:
        if t != c['theorem']:
            out.append(('theorem', setf('theorem', t)))
    for i in range(16):
        h = c['checksum']
        j = 8 + i
        digit = '0123456789abcdef'[(int(h[j], 16) + 1) % 16]
        out.append(('checksum', setf('checksum', h[:j] + digit + h[j + 1:])))
    for key in cc.NUMBER_KEYS:
        for v in HUGE:
            out.append(('huge', setf(key, v)))
    return out

count = 0
def emit(body, expected, kind):
    global count
    count += 1
    path = os.path.join(cdir, '%05d.cert' % count)
    with open(path, 'w', newline='') as f:
        f.write(body)
    print('%s\t%d\t%s' % (path, expected, kind))

genuine = [read(os.path.join(gdir, f)) for f in sorted(os.listdir(gdir))]
singles = kept = 0
for c in genuine:
    emit(text(c), 0, 'genuine')
    order = list(KEYS)
    rng.shuffle(order)
    emit(text(c, order), 0, 'genuine-reordered')
    emit('# a comment\n\n' + text(c, extra=['note: an unknown key']), 0,
         'genuine-comments')
    emit(text(c, crlf=True), 0, 'genuine-crlf')
    seen = set()
    for kind, f in ops(c):
        singles += 1
        if mult < 1 and kind in seen and sample.random() >= mult:
            continue
        seen.add(kind)
        kept += 1
        d = dict(c)
        f(d)
        emit(text(d), 1, kind)
print('# %d of %d single tampers (SG_TEST_MULT %g)' % (kept, singles, mult),
      file=sys.stderr)
# Random combinations of two to four different tampers.
for _ in range(nrandom):
    c = rng.choice(genuine)
    all_ops = ops(c)
    d = dict(c)
    for _, f in rng.sample(all_ops, rng.randint(2, 4)):
        f(d)
    if d != c:
        emit(text(d), 1, 'random')
EOF

total=$(wc -l <"$T/manifest")
echo "# $total certificates"

# sgexplore verify, one process per certificate; 0 = confirmed.
while IFS=$'\t' read -r f want kind; do
    "$SG" verify --certificate "$f" >"$f.out" 2>&1
    rc=$?
    if [ $rc = 0 ] && [ "$(tail -n 1 "$f.out")" = confirmed ]; then
        echo "$f 0"
    elif [ $rc = 1 ] || [ $rc = 2 ]; then
        echo "$f 1"
    else
        echo "$f crash($rc)"
    fi
done <"$T/manifest" >"$T/c.verdicts"

# The Python checker, all certificates in one process.
cut -f1 "$T/manifest" | python3 "$PY" - >"$T/py.out"
sed -e 's/: confirmed$/ 0/' -e 's/: \(refuted\|malformed\|not checked\).*/ 1/' \
    "$T/py.out" >"$T/py.verdicts"

# Compare per kind of tamper.
report() { # report CHECKER VERDICTS
    awk -F'\t' -v checker="$1" -v verdicts="$2" '
        BEGIN { while ((getline line < verdicts) > 0) {
                    split(line, a, " "); got[a[1]] = a[2] } }
        { kinds[$3]++
          if (got[$1] != $2) { bad[$3]++
              if (nbad++ < 10) print "# " checker " wrong on " $1 " (" $3 "): got " got[$1] }
        }
        END { for (k in kinds) print (bad[k] ? "not ok" : "ok") " - " checker ": " kinds[k] " " k (substr(k, 1, 7) == "genuine" ? " accepted" : " rejected") (bad[k] ? " (" bad[k] " wrong)" : "") }' "$T/manifest"
}
while read -r line; do
    case $line in
    "ok "*) ok "${line#ok - }" ;;
    "not ok "*) not_ok "${line#not ok - }" ;;
    *) echo "$line" ;;
    esac
done < <(report "verify" "$T/c.verdicts" | sort; report "check_certificate.py" "$T/py.verdicts" | sort)
check "every certificate got a verdict from both" \
    test "$(wc -l <"$T/c.verdicts")/$(wc -l <"$T/py.verdicts")" = "$total/$total"
# (Under SG_TEST_MULT below 1 the single tampers are sampled: 500 will do.)
least=$(awk -v m="${SG_TEST_MULT:-1}" 'BEGIN { print (m < 1 ? 500 : 1000) }')
check "at least $least certificates were checked" test "$total" -ge "$least"

echo "1..$n"
