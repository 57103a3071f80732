#!/bin/bash
# tests/cli/census.sh - the shipped census (data/census/, docs/CENSUS.md)
# against the tool (TAP): the table has one row per code of the census,
# in the columns of docs/CONTRACT.md; a seeded random sample of rows
# (seed printed; SG_CENSUS_SEED repeats it, default SG_TEST_SEED) is derived again from scratch
# (proven rows: the same n0, p, saltus, theorem and checksum; unresolved
# rows: still unresolved over the values the row computed), and two of
# the rounds' proofs (rounds/*-done.tsv) with their round's goal; a sample of
# the certificates is confirmed by both checkers (scripts/census_verify.sh),
# which refuse a tampered copy; scripts/octal_brute.c recomputes a sample
# of proven rows from the definition.  SG_CENSUS_FULL=1: every certificate with
# a bound up to SG_CENSUS_MAXBOUND (10^5) through `verify`, up to
# SG_CENSUS_PYBOUND (1000) through the Python checker (the reference
# methods cost O(bound^2); 0.1777's bound is 443 million), and every proven
# row with a bound up to 10^5 derived again.

SG=${SGEXPLORE:-sgexplore}
SRC=${top_srcdir:-.}
C=${SG_CENSUS_DIR:-$SRC/data/census}   # SG_CENSUS_DIR: another census (its tests)
T=$(mktemp -d "${TMPDIR:-/tmp}/census.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT

. "$(dirname "$0")/tap.sh"

if [ ! -f "$C/octal.tsv" ] || ! command -v python3 >/dev/null; then
    skip "no data/census/octal.tsv or no python3"
    echo "1..$n"
    exit 0
fi
seed=${SG_CENSUS_SEED:-${SG_TEST_SEED:-$(date +%s)}}
echo "# seed $seed (SG_CENSUS_SEED=$seed repeats this run)"
full=${SG_CENSUS_FULL:-0}   # not SG_SLOW_TESTS (a tier of minutes): this takes hours

# The table: its header, its codes (every 0.d1..dk, k <= 4, last digit not
# 0, and 4.0 and every 4.d1..dk, k <= 3; written out here, not taken from
# the census's own script), one row each.
python3 - "$C/octal.tsv" >"$T/shape" 2>&1 <<'EOF'
import sys
want = set()
for k in range(1, 5):
    for i in range(8 ** k):
        d = format(i, 'o').zfill(k)
        if d[-1] != '0':
            want.add('0.' + d)
            if k <= 3:
                want.add('4.' + d)
want.add('4.0')
lines = [l.rstrip('\n').split('\t') for l in open(sys.argv[1])
         if not l.startswith('#')]
head = lines[0]
need = ['code', 'rule', 'status', 'preperiod', 'period', 'saltus',
        'computed', 'theorem', 'certificate']
missing = [c for c in need if c not in head]
codes = [dict(zip(head, l))['code'] for l in lines[1:]]
bad = [l for l in lines[1:] if len(l) != len(head)]
print('missing %s rows %d distinct %d wanted %d extra %d absent %d ragged %d'
      % (missing, len(codes), len(set(codes)), len(want),
         len(set(codes) - want), len(want - set(codes)), len(bad)))
EOF
check "octal.tsv: the contract's columns, one row for each of the 4607 codes" \
    grep -qx "missing \[\] rows 4607 distinct 4607 wanted 4607 extra 0 absent 0 ragged 0" "$T/shape"

# A seeded sample of rows, derived again without the cache.
python3 - "$C/octal.tsv" "$seed" "$full" >"$T/sample" <<'EOF'
import random, sys
lines = [l.rstrip('\n').split('\t') for l in open(sys.argv[1])
         if not l.startswith('#')]
rows = [dict(zip(lines[0], l)) for l in lines[1:]]
rng = random.Random(int(sys.argv[2]))
proven = [r for r in rows if r['status'] != 'unresolved'
          and int(r['certified_to']) <= (100000 if sys.argv[3] == '1' else 3000)]
open_ = [r for r in rows if r['status'] == 'unresolved'
         and int(r['computed']) <= 30000]
if sys.argv[3] != '1':
    proven = rng.sample(proven, min(8, len(proven)))
    open_ = rng.sample(open_, min(3, len(open_)))
for r in proven + open_:
    # '-' for an empty field: bash's read merges consecutive tabs
    print('\t'.join(r[k] or '-' for k in (
        'code', 'status', 'preperiod', 'period', 'saltus', 'theorem',
        'checksum', 'certified_to', 'computed')))
EOF
while IFS=$'\t' read -r code status pre per sal thm sum cert computed; do
    if [ "$status" = unresolved ]; then
        "$SG" "$code" --no-cache --max "$computed" --json >"$T/j" 2>/dev/null
        got=$(python3 -c 'import json,sys; o=json.load(open(sys.argv[1])); print(o["status"], o["computed"])' "$T/j")
        check "$code: unresolved over the $computed values the row computed ($got)" \
            test "$got" = "unresolved $computed"
    else
        "$SG" "$code" --no-cache --max $((2 * cert + 512)) --json >"$T/j" 2>/dev/null
        got=$(python3 -c 'import json,sys; o=json.load(open(sys.argv[1])); c=o["certificate"] or {}
print(o["status"], o["preperiod"], o["period"], o["saltus"], c.get("theorem"), c.get("checksum"))' "$T/j")
        check "$code: derived again: $status n0 $pre p $per s $sal, $thm, $sum" \
            test "$got" = "$status $pre $per $sal $thm $sum"
    fi
done <"$T/sample"

# The rounds' proofs (data/census/rounds/*-done.tsv): a seeded sample of
# two of those whose run took at most 5 CPU seconds, derived again from
# scratch with the round's goal: the same n0, p, saltus, theorem and
# checksum as the row of octal.tsv.
python3 - "$C" "$seed" >"$T/rsample" <<'EOF'
import glob, random, sys
d = sys.argv[1]
def rows(p):
    ls = [l.rstrip('\n').split('\t') for l in open(p) if not l.startswith('#')]
    return [dict(zip(ls[0], l)) for l in ls[1:]]
octal = {r['code']: r for r in rows(d + '/octal.tsv')}
done = [r for p in sorted(glob.glob(d + '/rounds/*-done.tsv')) for r in rows(p)
        if r['stopped'] == 'proven' and float(r['cpu_seconds']) <= 5]
for r in random.Random(int(sys.argv[2]) + 2).sample(done, min(2, len(done))):
    o = octal[r['code']]
    print(r['code'], r['goal'], o['status'], o['preperiod'], o['period'],
          o['saltus'], o['theorem'], o['checksum'])
EOF
while read -r code goal status pre per sal thm sum; do
    "$SG" "$code" --no-cache --max "$goal" --json >"$T/j" 2>/dev/null
    got=$(python3 -c 'import json,sys; o=json.load(open(sys.argv[1])); c=o["certificate"] or {}
print(o["status"], o["preperiod"], o["period"], o["saltus"], c.get("theorem"), c.get("checksum"))' "$T/j")
    check "$code (a round's proof): derived again: $status n0 $pre p $per s $sal, $thm, $sum" \
        test "$got" = "$status $pre $per $sal $thm $sum"
done <"$T/rsample"

# Certificates: a sample (or all) through both checkers.
if [ "$full" = 1 ]; then
    vargs=(-b "${SG_CENSUS_MAXBOUND:-100000}" -B "${SG_CENSUS_PYBOUND:-1000}")
else
    vargs=(-n 6 -s "$seed" -b 3000 -B 300)
fi
SGEXPLORE=$SG bash "$SRC/scripts/census_verify.sh" "${vargs[@]}" "$C" >"$T/v" 2>&1
rc=$?
check "census_verify.sh: every row's certificate states its claim; the sample is confirmed by both checkers" \
    test $rc -eq 0
sed 's/^/# /' "$T/v"

# The independent brute force (scripts/octal_brute.c, no code shared with
# sgexplore) on a sample of proven rows: the same checksum, periodic from
# n0, and not from n0 - 1 (n0 is the least pre-period).
if ${CC:-cc} -O2 -o "$T/brute" "$SRC/scripts/octal_brute.c" 2>/dev/null; then
    python3 - "$C/octal.tsv" "$seed" >"$T/bs" <<'EOF2'
import random, re, sys
lines = [l.rstrip('\n').split('\t') for l in open(sys.argv[1])
         if not l.startswith('#')]
rows = [dict(zip(lines[0], l)) for l in lines[1:]]
rows = [r for r in rows if r['status'] == 'periodic' and r['rule'] == r['code']
        and 0 < int(r['preperiod']) and int(r['certified_to']) <= 3000]
for r in random.Random(int(sys.argv[2]) + 1).sample(rows, min(4, len(rows))):
    print(r['code'], r['certified_to'], r['preperiod'], r['period'], r['checksum'])
EOF2
    while read -r code bound pre per sum; do
        out=$("$T/brute" "$code" "$bound" "$pre" "$per")
        check "$code: the brute force gives the row's checksum and period $per from $pre" \
            test "$out" = "checksum $sum
periodic from $pre with period $per up to $bound"
        check "$code: the brute force finds G(n+$per) != G(n) at n = $((pre - 1))" \
            grep -qx "not periodic: G(n+$per) != G(n) at n = $((pre - 1))" \
            <<<"$("$T/brute" "$code" "$bound" $((pre - 1)) "$per")"
    done <"$T/bs"
else
    skip "no C compiler for scripts/octal_brute.c"
fi

# The verifier is not fooled: a row and its certificate that agree on a
# wrong checksum (both checkers must refute it), and a row that claims
# another period than its certificate.
mkdir -p "$T/bad/certs" "$T/bad2/certs"
line=$(awk -F'\t' '$3 == "periodic" && $11 + 0 > 20 && $11 + 0 <= 300 { print; exit }' "$C/octal.tsv")
path=$(cut -f9 <<<"$line")
sum=$(cut -f10 <<<"$line")
wrong=fnv1a64:$(printf '%016x' $((0x${sum#fnv1a64:} ^ 1)))
{ grep -v '^#' "$C/octal.tsv" | head -1; sed "s/$sum/$wrong/" <<<"$line"; } >"$T/bad/octal.tsv"
sed "s/^checksum: $sum\$/checksum: $wrong/" "$C/$path" >"$T/bad/$path"
SGEXPLORE=$SG bash "$SRC/scripts/census_verify.sh" "$T/bad" >"$T/v" 2>&1
rc=$?
check "a wrong checksum in row and certificate: both checkers refuse it ($(cut -f1 <<<"$line"))" \
    test $rc -ne 0 -a "$(grep -c '^sgexplore verify: certs/.*refuted\|^check_certificate.py: .*refuted' "$T/v")" = 2
{ grep -v '^#' "$C/octal.tsv" | head -1; awk -F'\t' -v OFS='\t' '{ $5 = $5 + 1; print }' <<<"$line"; } >"$T/bad2/octal.tsv"
cp "$C/$path" "$T/bad2/$path"
SGEXPLORE=$SG bash "$SRC/scripts/census_verify.sh" "$T/bad2" >"$T/v" 2>&1
rc=$?
check "census_verify.sh refuses a row whose period is not its certificate's" \
    test $rc -ne 0 -a "$(grep -c 'the certificate says period' "$T/v")" = 1

# The record (census_verify.sh -r, data/census/checks.tsv): each checker's
# verdict on each certificate, one row a check; a rerun checks nothing it
# confirmed; a refuted certificate is recorded as refuted, and
# census_stats.py counts only confirmations of the certificate a row
# names now (its checksum and bound).
mkdir -p "$T/rec/certs"
awk -F'\t' '$3 == "periodic" && $11 + 0 > 20 && $11 + 0 <= 200' "$C/octal.tsv" | head -3 >"$T/rows"
{ grep -v '^#' "$C/octal.tsv" | head -1; cat "$T/rows"; } >"$T/rec/octal.tsv"
cut -f9 "$T/rows" | while read -r p; do cp "$C/$p" "$T/rec/$p"; done
SGEXPLORE=$SG bash "$SRC/scripts/census_verify.sh" -r "$T/rec/checks.tsv" "$T/rec" >"$T/v" 2>&1
rc=$?
got=$(awk -F'\t' '!/^#/ && NR > 2 { print $4, $5 }' "$T/rec/checks.tsv" | sort | uniq -c | tr -s ' ')
check "census_verify.sh -r: 3 certificates, each confirmed by both checkers, recorded ($(tr '\n' ';' <<<"$got"))" \
    test $rc -eq 0 -a "$got" = " 3 check_certificate.py confirmed
 3 verify confirmed"
SGEXPLORE=$SG bash "$SRC/scripts/census_verify.sh" -r "$T/rec/checks.tsv" "$T/rec" >"$T/v" 2>&1
rc=$?
check "census_verify.sh -r again: nothing checked twice (still 6 rows), 3 confirmed before" \
    test $rc -eq 0 -a "$(grep -vc '^#' "$T/rec/checks.tsv")" = 7 \
    -a "$(grep -c '3 confirmed before' "$T/v")" = 2
python3 "$SRC/scripts/census_stats.py" "$T/rec" >"$T/stats"
check "census_stats.py counts the record: all 3 proven rows confirmed by both" \
    grep -q '^| all | 3 | 3 | 3 | 0 |  |$' "$T/stats"
# A checker that prints "confirmed" but fails is recorded as failed.
printf '#!/bin/sh\necho confirmed\nexit 1\n' >"$T/liar" && chmod +x "$T/liar"
SGEXPLORE=$T/liar bash "$SRC/scripts/census_verify.sh" -B 0 -r "$T/liar.tsv" "$T/rec" >"$T/v" 2>&1
rc=$?
check "census_verify.sh -r: 'confirmed' with a non-zero exit status is recorded as failed (3 rows)" \
    test $rc -ne 0 -a "$(grep -c $'\tverify\tfailed: exit status 1\t' "$T/liar.tsv")" = 3
# A round's done file that confirmed a certificate spares its check; one
# that did not, or for another checksum, does not.
mkdir -p "$T/rec2/certs" "$T/rec2/rounds"
head -1 "$T/rows" >"$T/row1"
{ grep -v '^#' "$C/octal.tsv" | head -1; cat "$T/row1"; } >"$T/rec2/octal.tsv"
cp "$T/rec/$(cut -f9 "$T/row1")" "$T/rec2/certs/"
IFS=$'\t' read -r code _ _ _ _ _ _ _ _ sum bound _ <"$T/row1"
for v in confirmed skipped:1 other; do
    rm -f "$T/rec2/checks.tsv"
    s=$sum; [ $v = other ] && s=$wrong
    printf 'code\tchecksum\tcertified_to\tverify\tpycheck\n%s\t%s\t%s\t%s\t%s\n' \
        "$code" "$s" "$bound" "${v/other/confirmed}" "${v/other/confirmed}" >"$T/rec2/rounds/r-done.tsv"
    SGEXPLORE=$SG bash "$SRC/scripts/census_verify.sh" -r "$T/rec2/checks.tsv" "$T/rec2" >"$T/v" 2>&1
    rc=$?
    rows=$(grep -vc '^#' "$T/rec2/checks.tsv")
    if [ $v = confirmed ]; then
        check "census_verify.sh -r: a done file's confirmations spare both checks of $code" \
            test $rc -eq 0 -a "$rows" = 1 -a "$(grep -c '1 confirmed before' "$T/v")" = 2
    else
        check "census_verify.sh -r: a done file's ${v/other/confirmation of another checksum} for $code spares nothing" \
            test $rc -eq 0 -a "$rows" = 3
    fi
done
cp "$T/rec/checks.tsv" "$T/bad/checks.tsv"
SGEXPLORE=$SG bash "$SRC/scripts/census_verify.sh" -r "$T/bad/checks.tsv" "$T/bad" >"$T/v" 2>&1
rc=$?
check "census_verify.sh -r: the tampered certificate is refused and recorded refuted by both checkers" \
    test $rc -ne 0 -a "$(awk -F'\t' -v w="$wrong" '$3 == w && $5 ~ /refuted/' "$T/bad/checks.tsv" | wc -l)" = 2
python3 "$SRC/scripts/census_stats.py" "$T/bad" >"$T/stats"
check "census_stats.py: the tampered row is not counted as confirmed" \
    grep -q '^| all | 1 | 0 | 0 | 1 | ' "$T/stats"

# docs/CENSUS.md's table of the deep runs is the one
# scripts/census_deep_table.py prints from deep.tsv, not a hand-made copy.
if [ -f "$C/deep.tsv" ] && [ -f "$SRC/docs/CENSUS.md" ]; then
    python3 "$SRC/scripts/census_deep_table.py" "$C/deep.tsv" >"$T/deep.md"
    awk '/^\| code \| values/ { on = 1 } on && /^$/ { exit } on' \
        "$SRC/docs/CENSUS.md" >"$T/deep.doc"
    check "docs/CENSUS.md's deep-run table is census_deep_table.py's of deep.tsv ($(($(wc -l <"$T/deep.md") - 2)) rows)" \
        cmp -s "$T/deep.md" "$T/deep.doc"
fi

# census_deep.sh: a table written with -s 0 beside a queue of runs in the
# same work folder leaves the queue its own list of codes (session 18: the
# table's rewrite of WORK/deep.run in place sent a running queue on to
# every other open code).  A stand-in program, so that no real run is
# needed: it notes each code and takes a second.
if [ -f "$C/deep.tsv" ]; then
    mkdir -p "$T/dq/out"
    cp "$C/octal.tsv" "$C/deep.tsv" "$T/dq/out/"
    cat >"$T/dq/fake" <<'EOF2'
#!/bin/bash
echo "$1" >>"${0%/*}/ran"
sleep 1
echo '{"rule":"'"$1"'","computed":1,"note":"--seconds ran out"}'
EOF2
    chmod +x "$T/dq/fake"
    SGEXPLORE=$T/dq/fake bash "$SRC/scripts/census_deep.sh" -c 0.206,0.143 -s 5 \
        -w "$T/dq/w" -o "$T/dq/out" 2>/dev/null &
    sleep 0.5
    SGEXPLORE=$T/dq/fake bash "$SRC/scripts/census_deep.sh" -s 0 \
        -w "$T/dq/w" -o "$T/dq/out" 2>/dev/null
    wait
    check "census_deep.sh -s 0 beside a queue in the same folder: the queue runs its own codes only ($(tr '\n' ' ' <"$T/dq/ran" 2>/dev/null))" \
        test "$(tr '\n' ' ' <"$T/dq/ran" 2>/dev/null)" = "0.206 0.143 "
fi

echo "1..$n"
[ "$fails" -eq 0 ]
