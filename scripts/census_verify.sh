#!/bin/bash
# scripts/census_verify.sh - re-check the census's certificates
# (data/census/certs/) with both checkers: `sgexplore verify --certificate`
# (the reference enumerator) and scripts/check_certificate.py (Python, no
# code shared with sgexplore), and check that every proven row of
# octal.tsv names a certificate whose claim and checksum are the row's.
# See docs/CENSUS.md, "Checks".
#
# Usage: census_verify.sh [-n SAMPLE] [-s SEED] [-b MAXBOUND] [-B PYBOUND]
#                          [-r RECORD] [DIR]
#   DIR          the census (default: data/census)
#   -n SAMPLE    only SAMPLE certificates, drawn with SEED (default: all)
#   -s SEED      the sample's seed (default: the time; printed)
#   -b MAXBOUND  leave out certificates whose bound exceeds MAXBOUND (the
#                reference checkers cost O(bound^2) on codes with splits);
#                they are counted as not checked, never as confirmed
#   -B PYBOUND   the same for the Python checker alone (default: MAXBOUND;
#                it is about 100 times slower than `sgexplore verify`)
#   -r RECORD    append each checker's verdict on each certificate to
#                RECORD (DIR/checks.tsv in the census), one row a check,
#                under a lock, with the CPU seconds and machine; skip a
#                certificate a checker already confirmed with the same
#                checksum and bound (in RECORD, or in a round's done
#                file, DIR/rounds/*-done.tsv), so that an interrupted run
#                resumes; certificates are taken smallest bound first
# The program is $SGEXPLORE when set, else ./sgexplore.
# Prints one line per checker with its counts; exit status 0 when every
# certificate checked was confirmed by both, 1 otherwise.
set -euo pipefail

usage() {
    sed -n '/^# Usage/,/^# Prints/p' "$0" | sed 's/^# \{0,1\}//' >&2
    exit 2
}

sample= seed=$(date +%s) maxbound= pybound= record=
while getopts n:s:b:B:r:h opt; do
    case $opt in
    n) sample=$OPTARG ;;
    s) seed=$OPTARG ;;
    b) maxbound=$OPTARG ;;
    B) pybound=$OPTARG ;;
    r) record=$OPTARG ;;
    *) usage ;;
    esac
done
shift $((OPTIND - 1))
dir=${1:-data/census}
sg=${SGEXPLORE:-./sgexplore}
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
machine="$(uname -m) $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)"

# The record: its header once; then one row a verdict, appended whole
# under its lock (two runs may share it, as the rounds' workers do).
if [[ -n $record ]]; then
    if [[ ! -s $record ]]; then
        printf '%s\n%s\n' \
            '# the verdicts of scripts/census_verify.sh -r on the certificates of data/census/certs (docs/CENSUS.md, "Checks"), one row a check, never edited by hand' \
            "$(printf 'certificate\tbound\tchecksum\tchecker\tverdict\tcpu_seconds\tmachine')" \
            > "$record" || exit 2
    fi
    exec 8>>"$record" || exit 2
fi
# record CHECKER PATH BOUND CHECKSUM VERDICT CPU: one row of the record.
record() {
    [[ -n $record ]] || return 0
    local v=${5//$'\t'/ }
    flock 8
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$2" "$3" "$4" "$1" "${v:0:200}" \
        "$6" "$machine" >> "$record"
    flock -u 8
}
# check CHECKER PATH BOUND CHECKSUM COMMAND...: one checker on one
# certificate, timed, its verdict in $v (the last line; `confirmed` only
# with a zero exit status too) and in the record; status 0 if confirmed.
check() {
    local checker=$1 path=$2 bound=$3 sum=$4 rc=0
    shift 4
    { time "$@" > "$tmp/out" 2>&1; } 2> "$tmp/time" || rc=$?
    v=$(tail -n 1 "$tmp/out")
    [[ $rc -eq 0 || $v != confirmed ]] || v="failed: exit status $rc"
    record "$checker" "$path" "$bound" "$sum" "$v" \
        "$(awk '{ printf "%.2f", $1 + $2 }' "$tmp/time")"
    [[ $rc -eq 0 && $v == confirmed ]]
}
# recorded CHECKER PATH BOUND CHECKSUM: whether the record, or a round's
# done file (its `verify` and `pycheck` columns), has it confirmed.
recorded() {
    [[ -n $record ]] || return 1
    awk -F'\t' -v c="$1" -v p="$2" -v b="$3" -v s="$4" \
        '$1 == p && $2 == b && $3 == s && $4 == c && $5 == "confirmed" { f = 1 }
         END { exit !f }' "$record" && return 0
    local done
    for done in "$dir"/rounds/*-done.tsv; do
        [[ -f $done ]] || continue
        awk -F'\t' -v c="$1" -v p="$2" -v b="$3" -v s="$4" '
            /^#/ { next }
            !h { for (i = 1; i <= NF; i++) col[$i] = i; h = 1; next }
            "certs/" $col["code"] ".cert" == p && $col["certified_to"] == b &&
            $col["checksum"] == s &&
            $col[c == "verify" ? "verify" : "pycheck"] == "confirmed" { f = 1 }
            END { exit !f }' "$done" && return 0
    done
    return 1
}

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
    certs.add((r['certificate'], int(kv['bound']), kv.get('checksum', '')))
for path, bound, checksum in sorted(certs):
    print('%s\t%d\t%s' % (path, bound, checksum))
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
sort -t "$(printf '\t')" -k2,2n -k1,1 "$tmp/l3" > "$tmp/l4" && mv "$tmp/l4" "$tmp/l3"
n=$(wc -l < "$tmp/l3")
skipped=$(($(wc -l < "$tmp/l2") < total ? total - $(wc -l < "$tmp/l2") : 0))

ok=0 bad=0 known=0
TIMEFORMAT='%U %S'
while IFS=$'\t' read -r path bound checksum; do
    if recorded verify "$path" "$bound" "$checksum"; then
        known=$((known + 1))
        continue
    fi
    if check verify "$path" "$bound" "$checksum" \
        "$sg" verify --certificate "$dir/$path"; then
        ok=$((ok + 1))
    else
        bad=$((bad + 1))
        echo "sgexplore verify: $path: $v"
    fi
done < "$tmp/l3"
if [[ $known -gt 0 ]]; then
    echo "sgexplore verify: $known confirmed before (in $record or a done file)"
fi
echo "sgexplore verify: $((ok + known)) confirmed, $bad not, of $n certificates" \
    "($total in the census, $skipped with a bound over ${maxbound:-any} left out)"

pyb=${pybound:-$maxbound}
awk -F'\t' -v m="${pyb:-}" 'm == "" || $2 <= m' "$tmp/l3" > "$tmp/pl"
pn=$(wc -l < "$tmp/pl")
pok=0 pbad=0 pknown=0
: > "$tmp/pl2"
while IFS=$'\t' read -r path bound checksum; do
    if recorded check_certificate.py "$path" "$bound" "$checksum"; then
        pknown=$((pknown + 1))
    else
        printf '%s\t%s\t%s\n' "$path" "$bound" "$checksum" >> "$tmp/pl2"
    fi
done < "$tmp/pl"
# One Python process for all (it starts in a tenth of a second); with a
# record, one a certificate, so that each verdict is stored as it comes.
if [[ -s $tmp/pl2 && -z $record ]]; then
    sed "s|^|$dir/|" "$tmp/pl2" | cut -f1 > "$tmp/files"
    SG_CHECK_MAX_BOUND=${pyb:-1000000000} \
        python3 "$here/check_certificate.py" - < "$tmp/files" > "$tmp/py" || true
elif [[ -s $tmp/pl2 ]]; then
    : > "$tmp/py"
    while IFS=$'\t' read -r path bound checksum; do
        check check_certificate.py "$path" "$bound" "$checksum" \
            env SG_CHECK_MAX_BOUND="${pyb:-1000000000}" \
            python3 "$here/check_certificate.py" "$dir/$path" || true
        echo "$dir/$path: $v" >> "$tmp/py"
    done < "$tmp/pl2"
fi
if [[ -s $tmp/pl2 ]]; then
    pok=$(($(grep -c ': confirmed$' "$tmp/py" || true) + pknown))
    pbad=$((pn - pok))
    grep -v ': confirmed$' "$tmp/py" | sed 's/^/check_certificate.py: /' || true
else
    pok=$pknown
fi
if [[ $pknown -gt 0 ]]; then
    echo "check_certificate.py: $pknown confirmed before (in $record or a done file)"
fi
echo "check_certificate.py: $pok confirmed, $pbad not, of $pn certificates" \
    "($((n - pn)) of the $n with a bound over ${pyb:-any} left out)"
[[ $bad -eq 0 && $pbad -eq 0 ]]
