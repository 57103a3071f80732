#!/bin/bash
# scripts/census_verify.sh - re-check the census's certificates
# (data/census/certs/) with both checkers: `sgexplore verify --certificate`
# (the reference enumerator) and scripts/check_certificate.py (Python, no
# code shared with sgexplore), and check that every proven row of
# octal.tsv names a certificate whose claim and checksum are the row's.
# See docs/CENSUS.md, "Checks".
#
# Usage: census_verify.sh [-n SAMPLE] [-s SEED] [-b MAXBOUND] [-B PYBOUND] [DIR]
#   DIR          the census (default: data/census)
#   -n SAMPLE    only SAMPLE certificates, drawn with SEED (default: all)
#   -s SEED      the sample's seed (default: the time; printed)
#   -b MAXBOUND  leave out certificates whose bound exceeds MAXBOUND (the
#                reference checkers cost O(bound^2) on codes with splits);
#                they are counted as not checked, never as confirmed
#   -B PYBOUND   the same for the Python checker alone (default: MAXBOUND;
#                it is about 100 times slower than `sgexplore verify`)
# The program is $SGEXPLORE when set, else ./sgexplore.
# Prints one line per checker with its counts; exit status 0 when every
# certificate checked was confirmed by both, 1 otherwise.
set -euo pipefail

usage() {
    sed -n '/^# Usage/,/^# Prints/p' "$0" | sed 's/^# \{0,1\}//' >&2
    exit 2
}

sample= seed=$(date +%s) maxbound= pybound=
while getopts n:s:b:B:h opt; do
    case $opt in
    n) sample=$OPTARG ;;
    s) seed=$OPTARG ;;
    b) maxbound=$OPTARG ;;
    B) pybound=$OPTARG ;;
    *) usage ;;
    esac
done
shift $((OPTIND - 1))
dir=${1:-data/census}
sg=${SGEXPLORE:-./sgexplore}
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Every proven row: its certificate exists and states the row's claim.
python3 - "$dir" > "$tmp/list" <<'EOF'
import sys
d = sys.argv[1]
bad = 0
certs = set()
with open(d + '/octal.tsv', encoding='utf-8') as f:
    lines = [l.rstrip('\n').split('\t') for l in f if not l.startswith('#')]
head = lines[0]
for cells in lines[1:]:
    r = dict(zip(head, cells))
    if r['status'] == 'unresolved':
        if r['certificate']:
            print('%s: unresolved with a certificate' % r['code'],
                  file=sys.stderr)
            bad += 1
        continue
    try:
        with open(d + '/' + r['certificate'], encoding='utf-8') as c:
            kv = dict(l.rstrip('\n').split(': ', 1) for l in c if ': ' in l)
    except OSError as e:
        print('%s: %s' % (r['code'], e), file=sys.stderr)
        bad += 1
        continue
    want = {'rule': r['rule'], 'status': r['status'],
            'preperiod': r['preperiod'], 'period': r['period'],
            'saltus': r['saltus'], 'theorem': r['theorem'],
            'checksum': r['checksum']}
    for k, v in want.items():
        if kv.get(k) != v:
            print('%s: the certificate says %s %s, the row %s'
                  % (r['code'], k, kv.get(k), v), file=sys.stderr)
            bad += 1
    certs.add((r['certificate'], int(kv['bound'])))
for path, bound in sorted(certs):
    print('%s\t%d' % (path, bound))
sys.exit(1 if bad else 0)
EOF
total=$(wc -l < "$tmp/list")
if [[ -n $maxbound ]]; then
    awk -F'\t' -v m="$maxbound" '$2 <= m' "$tmp/list" > "$tmp/l2"
else
    cp "$tmp/list" "$tmp/l2"
fi
if [[ -n $sample ]]; then
    echo "census_verify: sample of $sample, seed $seed"
    python3 -c 'import random, sys
lines = open(sys.argv[1]).read().splitlines()
random.Random(int(sys.argv[3])).shuffle(lines)
print("\n".join(sorted(lines[:int(sys.argv[2])])))' \
        "$tmp/l2" "$sample" "$seed" | sed '/^$/d' > "$tmp/l3"
else
    cp "$tmp/l2" "$tmp/l3"
fi
n=$(wc -l < "$tmp/l3")
skipped=$(($(wc -l < "$tmp/l2") < total ? total - $(wc -l < "$tmp/l2") : 0))

ok=0 bad=0
while IFS=$'\t' read -r path bound; do
    if "$sg" verify --certificate "$dir/$path" > "$tmp/out" 2>&1; then
        ok=$((ok + 1))
    else
        bad=$((bad + 1))
        echo "sgexplore verify: $path: $(tail -n 1 "$tmp/out")"
    fi
done < "$tmp/l3"
echo "sgexplore verify: $ok confirmed, $bad not, of $n certificates" \
    "($total in the census, $skipped with a bound over ${maxbound:-any} left out)"

pyb=${pybound:-$maxbound}
if [[ -n $pyb ]]; then
    awk -F'\t' -v m="$pyb" '$2 <= m' "$tmp/l3" | cut -f1 | sed "s|^|$dir/|" > "$tmp/files"
else
    cut -f1 "$tmp/l3" | sed "s|^|$dir/|" > "$tmp/files"
fi
pn=$(wc -l < "$tmp/files")
pok=0 pbad=0
if [[ -s $tmp/files ]]; then
    SG_CHECK_MAX_BOUND=${pyb:-1000000000} \
        python3 "$here/check_certificate.py" - < "$tmp/files" > "$tmp/py" || true
    pok=$(grep -c ': confirmed$' "$tmp/py" || true)
    pbad=$((pn - pok))
    grep -v ': confirmed$' "$tmp/py" | sed 's/^/check_certificate.py: /' || true
fi
echo "check_certificate.py: $pok confirmed, $pbad not, of $pn certificates" \
    "($((n - pn)) of the $n with a bound over ${pyb:-any} left out)"
[[ $bad -eq 0 && $pbad -eq 0 ]]
