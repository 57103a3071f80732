#!/bin/bash
# tests/cli/census_round.sh - the census's rounds (scripts/census_round.sh,
# census_round.py, census_stats.py; docs/CENSUS.md, "Rounds") on a copy of
# the census (TAP): the plan holds every unresolved four-digit code below
# its goal once, cheapest first; a round of three codes with small goals
# and caps, run by the real program, records each code (a proven one with
# its certificate, confirmed by both checkers) in its done file and in
# octal.tsv and changes nothing else; a rerun skips what is done; a round
# stopped (-n, WORK/stop, SIGKILL) holds whole rows only and the next run
# does the rest; a certificate that `verify` refutes stops the round with
# nothing of that code recorded; -V checks later the certificates
# recorded as skipped and records each verdict; -s K/N lets two workers
# share a round, each code run once; parents (the choice judged by a
# search of its own over round 3; a round whose codes start from their
# parents' values, one derivation stopping early, each row and its values
# a run from scratch's; -D, -P, an old done file migrated, two workers
# sharing parents, SIGKILL during a parent's run); census_shift.py finds
# a known shift; census_stats.py counts the copy's rows and the round's
# (with its parents' CPU), and docs/CENSUS.md shows what it prints for
# the shipped census.

SG=${SGEXPLORE:-sgexplore}
SRC=${top_srcdir:-.}
C=$SRC/data/census
T=$(mktemp -d "${TMPDIR:-/tmp}/census_round.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT

. "$(dirname "$0")/tap.sh"

if [ ! -f "$C/octal.tsv" ] || ! command -v python3 >/dev/null ||
    ! command -v flock >/dev/null; then
    echo "1..0 # SKIP no data/census/octal.tsv, python3 or flock"
    exit 0
fi
export PYTHONDONTWRITEBYTECODE=1
R=$SRC/scripts/census_round.sh
RP=$SRC/scripts/census_round.py

# The plan, judged by a count of its own.
python3 "$RP" plan "$C/octal.tsv" >"$T/plan.tsv"
python3 - "$C/octal.tsv" "$T/plan.tsv" >"$T/judge" <<'EOF'
import sys
def rows(p):
    ls = [l.rstrip('\n').split('\t') for l in open(p) if not l.startswith('#')]
    return [dict(zip(ls[0], l)) for l in ls[1:]]
want = {}
for r in rows(sys.argv[1]):
    if r['status'] == 'unresolved' and len(r['code']) == 6 and r['code'][0] == '0':
        goal = 2 ** 24 if r['sparse_mask'] else 2 ** 20
        if int(r['computed']) < goal:
            want[r['code']] = goal
plan = rows(sys.argv[2])
got = {r['code']: int(r['goal']) for r in plan}
est = [(float(r['seconds_before']), min(float(r['estimate']), 600)) for r in plan]
print('same', got == want, 'once', len(got) == len(plan),
      'ordered', est == sorted(est),
      'numbered', [int(r['order']) for r in plan] == list(range(1, len(plan) + 1)),
      'caps', {r['cap_cpu'] for r in plan} == {'600'})
EOF
check "plan: every unresolved four-digit code below its goal (2^24 sparse, 2^20 not) once, least time so far first, then cheapest first ($(($(wc -l <"$T/plan.tsv") - 2)) codes)" \
    grep -qx "same True once True ordered True numbered True caps True" "$T/judge"

# A copy of the census in which 0.3357 (proven, bound 2055) is unresolved,
# and a round of three codes: 0.6353 to 100,000 values (its goal), 0.3357
# (proven), 0.0007 with a CPU cap of 1 s far below its goal.
mkdir -p "$T/c/rounds" "$T/c/certs"
awk -F'\t' -v OFS='\t' '$1 == "0.3357" { $3 = "unresolved"; $4 = $5 = $6 = $8 = $9 = $10 = $11 = ""; $7 = 1000 } { print }' \
    "$C/octal.tsv" >"$T/c/octal.tsv"
cp "$T/c/octal.tsv" "$T/octal.before"
printf '# test\norder\tcode\tgoal\tcap_cpu\tsparse\tcomputed_before\tseconds_before\testimate\n1\t0.6353\t100000\t60\tsparse\t1\t1\t1\n2\t0.3357\t100000\t60\tsparse\t1\t1\t1\n3\t0.0007\t1048576\t1\tnone\t1\t1\t1\n' \
    >"$T/c/rounds/t.tsv"
cp "$T/c/rounds/t.tsv" "$T/round"
done_file=$T/c/rounds/t-done.tsv

SGEXPLORE=$SG bash "$R" -n 1 -w "$T/w" -o "$T/c" "$T/c/rounds/t.tsv" 2>"$T/err"
rc=$?
check "-n 1: stopped early (status 3) after one code, one whole row" \
    test $rc -eq 3 -a "$(grep -vc '^#' "$done_file")" = 2
SGEXPLORE=$SG bash "$R" -w "$T/w" -o "$T/c" "$T/c/rounds/t.tsv" 2>"$T/err"
rc=$?
check "the rest of the round: done (status 0), 2 codes left of 3" \
    test $rc -eq 0 -a "$(grep -c '2 codes left of 3' "$T/err")" = 1
python3 - "$done_file" "$T/c/octal.tsv" "$T/octal.before" >"$T/judge" <<'EOF'
import sys
def rows(p):
    ls = [l.rstrip('\n').split('\t') for l in open(p) if not l.startswith('#')]
    return [dict(zip(ls[0], l)) for l in ls[1:]]
d = {r['code']: r for r in rows(sys.argv[1])}
new = {r['code']: r for r in rows(sys.argv[2])}
old = {r['code']: r for r in rows(sys.argv[3])}
a, b, c = d['0.6353'], d['0.3357'], d['0.0007']
print('codes', sorted(d) == ['0.0007', '0.3357', '0.6353'])
print('goal', a['stopped'], a['computed'], a['status'])
print('proven', b['stopped'], b['preperiod'], b['period'], b['theorem'],
      b['certified_to'], b['verify'], b['pycheck'])
print('cap', c['stopped'], c['status'], float(c['cpu_seconds']) < 3,
      int(c['computed']) < 1048576)
n = new['0.3357']
print('row', n['status'], n['preperiod'], n['period'], n['certificate'],
      n['checksum'] == b['checksum'], n['budgets'].endswith('+60cpu:0-%s' % b['computed']))
# 0.6353's row had 4,498,176 values: a round of 100,000 only adds its budget.
print('kept', new['0.6353']['computed'] == old['0.6353']['computed'],
      new['0.6353']['budgets'] == old['0.6353']['budgets'] + '+60cpu:0-100000')
print('others', [k for k in old if k not in d and old[k] != new[k]])
EOF
check "0.6353: at its goal (max, 100,000 values, unresolved)" \
    grep -qx "goal max 100000 unresolved" "$T/judge"
check "0.3357: proven again, n0 794 p 232 (guy-smith, bound 2055), confirmed by verify and check_certificate.py" \
    grep -qx "proven proven 794 232 guy-smith 2055 confirmed confirmed" "$T/judge"
check "0.0007: stopped by its 1 s CPU cap below its goal" \
    grep -qx "cap time unresolved True True" "$T/judge"
check "octal.tsv: 0.3357's row is the proof, with its certificate, checksum and budget" \
    grep -qx "row periodic 794 232 certs/0.3357.cert True True" "$T/judge"
check "octal.tsv: a row with more values than the round keeps them, the budget added" \
    grep -qx "kept True True" "$T/judge"
check "octal.tsv: no other row changed" grep -qx "others \[\]" "$T/judge"
check "the certificate in certs/ is the row's (checksum)" \
    grep -qx "checksum: $(awk -F'\t' '$1 == "0.3357" { print $10 }' "$T/c/octal.tsv")" "$T/c/certs/0.3357.cert"
check "the work folders are removed" test -z "$(ls "$T/w" | grep -v '^\(todo\..*\|lock\)$')"

cp "$done_file" "$T/done.1"
cp "$T/c/octal.tsv" "$T/octal.1"
SGEXPLORE=$SG bash "$R" -w "$T/w" -o "$T/c" "$T/c/rounds/t.tsv" 2>"$T/err"
rc=$?
check "a rerun of a finished round runs nothing and changes nothing" \
    test $rc -eq 0 -a "$(grep -c '0 codes left of 3' "$T/err")" = 1 -a \
    -z "$(diff "$done_file" "$T/done.1"; diff "$T/c/octal.tsv" "$T/octal.1")"

# Stand-ins: one that touches WORK/stop during its run (the round ends
# after that code), one that hangs until killed, one whose verify refutes.
cat >"$T/sg-stop" <<EOF
#!/bin/bash
[ "\$1" = 0.0007 ] && touch "$T/w2/stop"
exec "$SG" "\$@"
EOF
cat >"$T/sg-hang" <<EOF
#!/bin/bash
[ "\$1" = 0.3357 ] && exec sleep 600
exec "$SG" "\$@"
EOF
cat >"$T/sg-refute" <<EOF
#!/bin/bash
[ "\$1" = verify ] && { echo "refuted: a stand-in"; exit 1; }
exec "$SG" "\$@"
EOF
chmod +x "$T/sg-stop" "$T/sg-hang" "$T/sg-refute"
reset_copy() {
    rm -rf "$T/c/certs" "$T/w2" && mkdir -p "$T/c/certs" "$T/w2"
    cp "$T/octal.before" "$T/c/octal.tsv"
    rm -f "$done_file"
    printf '# test\norder\tcode\tgoal\tcap_cpu\tsparse\tcomputed_before\tseconds_before\testimate\n1\t0.0007\t4096\t60\tnone\t1\t1\t1\n2\t0.3357\t100000\t60\tsparse\t1\t1\t1\n3\t0.6353\t100000\t60\tsparse\t1\t1\t1\n' \
        >"$T/c/rounds/t.tsv"
}

reset_copy
SGEXPLORE=$T/sg-stop bash "$R" -w "$T/w2" -o "$T/c" "$T/c/rounds/t.tsv" 2>"$T/err"
rc=$?
check "WORK/stop during a code: that code is recorded, then the round stops (status 3)" \
    test $rc -eq 3 -a "$(grep -vc '^#' "$done_file")" = 2 -a \
    "$(grep -c 'stop: stopped before 0.3357' "$T/err")" = 1
rm -f "$T/w2/stop"

reset_copy
SGEXPLORE=$T/sg-hang setsid bash "$R" -w "$T/w2" -o "$T/c" "$T/c/rounds/t.tsv" 2>"$T/err" &
pid=$!
for _ in $(seq 1 300); do
    [ -d "$T/w2/0.3357" ] && break
    sleep 0.1
done
sleep 0.5
kill -KILL -- -"$pid" 2>/dev/null
wait "$pid" 2>/dev/null
check "SIGKILL during a code: the done file holds the codes before it, whole" \
    test "$(grep -v '^#' "$done_file" | cut -f1 | tr '\n' ' ')" = "code 0.0007 "
check "SIGKILL during a code: its row is still unresolved in octal.tsv, no certificate" \
    test "$(awk -F'\t' '$1 == "0.3357" { print $3 }' "$T/c/octal.tsv")" = unresolved -a ! -e "$T/c/certs/0.3357.cert"
SGEXPLORE=$SG bash "$R" -w "$T/w2" -o "$T/c" "$T/c/rounds/t.tsv" 2>"$T/err"
rc=$?
check "the next run computes the killed code from scratch and the rest (2 codes left of 3)" \
    test $rc -eq 0 -a "$(grep -c '2 codes left of 3' "$T/err")" = 1 -a \
    "$(grep -v '^#' "$done_file" | cut -f1 | tr '\n' ' ')" = "code 0.0007 0.3357 0.6353 "

reset_copy
SGEXPLORE=$T/sg-refute bash "$R" -w "$T/w2" -o "$T/c" "$T/c/rounds/t.tsv" 2>"$T/err"
rc=$?
check "a certificate verify refutes: the round fails (status 1), that code not recorded, no certificate" \
    test $rc -eq 1 -a "$(grep -v '^#' "$done_file" | cut -f1 | tr '\n' ' ')" = "code 0.0007 " -a \
    ! -e "$T/c/certs/0.3357.cert" -a \
    "$(awk -F'\t' '$1 == "0.3357" { print $3 }' "$T/c/octal.tsv")" = unresolved
check "... and says why" grep -q 'sgexplore verify refutes its certificate' "$T/err"

# -V: certificates recorded as skipped (bounds over -b and -B) checked
# later, each verdict recorded; a refuted one recorded as such, exit 1.
reset_copy
SGEXPLORE=$SG bash "$R" -b 100 -B 100 -w "$T/w2" -o "$T/c" "$T/c/rounds/t.tsv" 2>/dev/null
awk -F'\t' '$1 == "0.3357" { print $16, $17 }' "$done_file" >"$T/before"
cp "$done_file" "$T/done.2"
SGEXPLORE=$T/sg-refute bash "$R" -V -w "$T/w2" -o "$T/c" "$T/c/rounds/t.tsv" 2>"$T/err"
rc=$?
check "-V, verify refuting: exit 1, recorded as refuted, nothing else changed" \
    test $rc -eq 1 -a "$(cat "$T/before")" = "skipped:2055 skipped:2055" -a \
    "$(awk -F'\t' '$1 == "0.3357" { print $16, $17 }' "$done_file")" = "refuted skipped:2055" -a \
    "$(diff "$done_file" "$T/done.2" | grep -c '^[<>]')" = 2
cp "$T/done.2" "$done_file"
SGEXPLORE=$SG bash "$R" -V -b 3000 -B 3000 -w "$T/w2" -o "$T/c" "$T/c/rounds/t.tsv" 2>"$T/err"
rc=$?
check "-V: 0.3357's certificate (bound 2055) confirmed later by both checkers, recorded" \
    test $rc -eq 0 -a "$(awk -F'\t' '$1 == "0.3357" { print $16, $17 }' "$done_file")" = "confirmed confirmed"
SGEXPLORE=$SG bash "$R" -V -b 3000 -B 3000 -w "$T/w2" -o "$T/c" "$T/c/rounds/t.tsv" 2>"$T/err"
check "-V again: nothing left to check" test -z "$(grep 'census_round: 0.3357' "$T/err")"

# -s K/N: two workers at once share the round, each code run once.
reset_copy
SGEXPLORE=$SG bash "$R" -s 0/2 -w "$T/w2" -o "$T/c" "$T/c/rounds/t.tsv" 2>"$T/err.0" &
pid=$!
SGEXPLORE=$SG bash "$R" -s 1/2 -w "$T/w2" -o "$T/c" "$T/c/rounds/t.tsv" 2>"$T/err.1"
rc1=$?
wait "$pid"
rc0=$?
check "-s 0/2 and -s 1/2 at once: both done, every code recorded once (0.3357 by part 0, the others by part 1)" \
    test $rc0 -eq 0 -a $rc1 -eq 0 -a \
    "$(grep -v '^#' "$done_file" | cut -f1 | sort | tr '\n' ' ')" = "0.0007 0.3357 0.6353 code " -a \
    "$(grep -c 'census_round: 0.3357: periodic' "$T/err.0")" = 1 -a \
    "$(grep -c '2 codes left of 3 (part 1/2)' "$T/err.1")" = 1
check "-s: the proof recorded by one part has its certificate and row" \
    test -f "$T/c/certs/0.3357.cert" -a \
    "$(awk -F'\t' '$1 == "0.3357" { print $3 }' "$T/c/octal.tsv")" = periodic
SGEXPLORE=$SG bash "$R" -s 2/2 -w "$T/w2" -o "$T/c" "$T/c/rounds/t.tsv" 2>"$T/err"
rc=$?
check "-s 2/2: refused (status 2), saying why" \
    test $rc -eq 2 -a "$(grep -c 'wants K/N with 0 <= K < N' "$T/err")" = 1

# Parents (docs/CENSUS.md, "Parents").  First the choice, judged by a
# search of its own over the shipped round 3 (every census code whose
# digits are the code's with some bits 1 and 2 cleared, in its agree
# class; the fewest bits, then the shortest, then the smallest; a code
# chosen by itself a parent only when another code left chose it, or
# when the round's parents file has its row: it ran as a parent).
cat >"$T/parent_judge.py" <<'EOF'
import re, sys
census, round_path, done_path = sys.argv[1:4]
def rows(p):
    ls = [l.rstrip('\n').split('\t') for l in open(p) if not l.startswith('#')]
    return [dict(zip(ls[0], l)) for l in ls[1:]]
rule = {r['code']: r['rule'] for r in rows(census + '/octal.tsv')}
cls = {}
for i, c in enumerate(rows(census + '/classes.tsv')):
    if c['kind'] == 'agree':
        for m in c['members'].split():
            cls[m] = i
def k(code):
    return cls.get(rule.get(code))
members = {}
for a in rule:
    members.setdefault(k(a), []).append(a)
def choice(code):
    if k(code) is None:
        return None
    head, d = code.split('.')
    best = None
    for a in members[k(code)]:
        if not re.fullmatch(r'[0-7]\.[0-7]+', a):
            continue
        ah, ad = a.split('.')
        w = max(len(ad), len(d))
        x, y = ad.ljust(w, '0'), d.ljust(w, '0')
        if ah == head and all(int(p) & ~int(q) == 0 and
                              (int(q) & ~int(p)) & 4 == 0 for p, q in zip(x, y)):
            key = (sum(bin(int(c)).count('1') for c in ad), len(a), a)
            best = key if best is None else min(best, key)
    return best[2]
done = {r['code'] for r in rows(done_path)} if done_path != '-' else set()
left = [r['code'] for r in sorted(rows(round_path), key=lambda r: int(r['order']))
        if r['code'] not in done]
ch = {c: choice(c) for c in left}
wanted = {a for c, a in ch.items() if a not in (None, c)}
ran = round_path[:-4] + '-parents.tsv'
try:
    wanted |= {r['code'] for r in rows(ran)}
except FileNotFoundError:
    pass
for c in left:
    a = ch[c]
    print(c, a if a is not None and (a != c or c in wanted) else '-')
EOF
python3 "$T/parent_judge.py" "$C" "$C/rounds/round-3.tsv" - >"$T/pj.want"
python3 "$RP" todo "$C/rounds/round-3.tsv" "$T/no-done.tsv" 0/1 "$C" |
    awk -F'\t' '{ print $1, $4 }' >"$T/pj.got"
check "parents of round 3's codes (all left): as a search of their own finds them ($(awk '$2 != "-" && $2 != $1' "$T/pj.got" | wc -l) codes with another's values, $(awk '$2 != "-" { print $2 }' "$T/pj.got" | sort -u | wc -l) parents)" \
    test -s "$T/pj.got" -a -z "$(diff <(sort "$T/pj.want") <(sort "$T/pj.got"))" -a \
    "$(awk '$2 != "-" && $2 != $1' "$T/pj.got" | wc -l)" -gt 100

# By family: in each of -s 0/2 and 1/2, a parent's codes one after the
# other, each parent in one part only, the families in the order of
# their first code; the two parts the codes of 0/1; and a code's part
# the same once the round's first 300 codes are done (a family's part
# never moves while its codes finish).
for k in 0 1; do
    python3 "$RP" todo "$C/rounds/round-3.tsv" "$T/no-done.tsv" $k/2 "$C" >"$T/fam.$k"
done
{ echo code; grep -v '^#' "$C/rounds/round-3.tsv" | sed 1d | sort -n | head -n 300 | cut -f2; } >"$T/some-done.tsv"
for k in 0 1; do
    python3 "$RP" todo "$C/rounds/round-3.tsv" "$T/some-done.tsv" $k/2 "$C" >"$T/famd.$k"
done
python3 - "$C/rounds/round-3.tsv" "$T/pj.got" "$T"/fam.0 "$T"/fam.1 "$T"/famd.0 "$T"/famd.1 >"$T/fam.judge" <<'EOF'
import sys
plan = [l.rstrip('\n').split('\t') for l in open(sys.argv[1]) if not l.startswith('#')][1:]
order = {r[1]: int(r[0]) for r in plan}
every = sorted(l.split()[0] for l in open(sys.argv[2]))
parts = [[l.rstrip('\n').split('\t') for l in open(f)] for f in sys.argv[3:]]
fam = lambda r: r[3] if r[3] != '-' else r[0]
ok = sorted(r[0] for r in parts[0] + parts[1]) == every
seen = {}
for k in (0, 1):
    runs = [fam(r) for i, r in enumerate(parts[k]) if i == 0 or fam(parts[k][i - 1]) != fam(r)]
    ok = ok and len(runs) == len(set(runs))
    for f in runs:
        ok = ok and seen.setdefault(f, k) == k
    # the families' order: that of each family's first code in the plan
    firsts = [min(order[r[0]] for r in parts[k] if fam(r) == f) for f in runs]
    ok = ok and firsts == sorted(firsts)
was = {r[0]: k for k in (0, 1) for r in parts[k]}
later = {r[0]: k for k in (0, 1) for r in parts[k + 2]}
ok = ok and len(later) < len(was) and all(was[c] == k for c, k in later.items())
print('ok' if ok else 'wrong', len(parts[0]), len(parts[1]), len(seen))
EOF
check "todo by family: -s 0/2 and 1/2 each hold whole families in order, a code's part fixed ($(cat "$T/fam.judge"))" \
    grep -q '^ok ' "$T/fam.judge"

# A copy with classes of its own: two codes with the parent 0.444 (not
# in the round), 0.6466 with the parent 0.6444 (in the round: its own
# parent), 0.4517 in a class with 0.4515 although their values differ
# from heap 22 on (0.4517's extra move, take 4 leaving one heap, hits
# there: the derivation stops and the code computes the rest), 0.0007
# in no class; all to 8,192 values.
mkdir -p "$T/d/rounds" "$T/d/certs"
cp "$C/octal.tsv" "$T/d/octal.tsv"
cp "$T/d/octal.tsv" "$T/octal.d"
printf 'kind\tkey\tsize\tmembers\nagree\tG(0..4095)\t3\t0.444 0.4452 0.4643\nagree\tG(0..4095)\t3\t0.6444 0.6464 0.6466\nagree\tG(0..4095)\t2\t0.4515 0.4517\n' \
    >"$T/d/classes.tsv"
pround() {
    rm -rf "$T/d/certs" "$T/w3" "$T/keep" && mkdir -p "$T/d/certs" "$T/w3" "$T/keep"
    cp "$T/octal.d" "$T/d/octal.tsv"
    rm -f "$T/d/rounds/p-done.tsv" "$T/d/rounds/p-parents.tsv"
    printf '# test\norder\tcode\tgoal\tcap_cpu\tsparse\tcomputed_before\tseconds_before\testimate\n' >"$T/d/rounds/p.tsv"
    local i=1 c
    for c in 0.4452 0.4643 0.6444 0.6466 0.4517 0.0007; do
        printf '%d\t%s\t8192\t60\tnone\t1\t1\t1\n' $i $c >>"$T/d/rounds/p.tsv"
        i=$((i + 1))
    done
}
# The stand-in keeps each code's cache after its runs, for the judge.
cat >"$T/sg-keep" <<EOF
#!/bin/bash
"$SG" "\$@"
rc=\$?
if [ "\$2" = --db ] && [ "\${3##*/}" = c.db ]; then cp "\$3" "$T/keep/\$1.db"; fi
exit \$rc
EOF
chmod +x "$T/sg-keep"
# judge_round MODE: a line per code of round p: its parent and derived
# count as expected (MODE derive: the judge's parent, derived from
# `sgexplore diff`'s first difference, else the goal; nocap: the judge's
# parent, nothing derived; -: neither), then whether its row (status,
# computed, the certificate's checksum) and the values its cache kept
# are those of a run from scratch (`sgexplore CODE --max 8192`, no cache).
cat >"$T/round_judge.py" <<'EOF'
import json, re, subprocess, sys
sg, mode, done, parents, keep = sys.argv[1:6]
def rows(p):
    ls = [l.rstrip('\n').split('\t') for l in open(p) if not l.startswith('#')]
    return [dict(zip(ls[0], l)) for l in ls[1:]]
def run(*args):
    return subprocess.run((sg,) + args, capture_output=True, text=True).stdout
want = dict(l.split() for l in open(parents))
for r in rows(done):
    code, goal = r['code'], int(r['goal'])
    p = want[code] if mode != '-' else '-'
    d = '-'
    if mode == 'derive' and p != '-':
        m = re.search(r'first difference: n = ([0-9]+)',
                      run('diff', code, p, '--max', str(goal), '--no-cache'))
        d = m.group(1) if m else str(goal)
    fresh = json.loads(run(code, '--max', str(goal), '--no-cache', '--json'))
    kept = json.loads(run('cache', 'show', code, '--db', keep + '/' + code + '.db', '--json'))
    row = (r['status'], r['computed'], r['checksum'])
    frow = (fresh['status'], str(fresh['computed']),
            (fresh['certificate'] or {}).get('checksum') or '')
    vals = (kept['values'] == fresh['values'] and not fresh['values_truncated']
            and (fresh['status'] != 'unresolved' or len(fresh['values']) == goal))
    print(code, 'parent', 'ok' if r['parent'] == p else r['parent'] + ', not ' + p,
          'derived', 'ok' if r['derived'] == d else r['derived'] + ', not ' + d,
          'row', 'ok' if row == frow else '%s, not %s' % (row, frow),
          'values', 'ok' if vals else 'differ')
EOF
judge_round() {
    python3 "$T/parent_judge.py" "$T/d" "$T/d/rounds/p.tsv" - >"$T/pj.d"
    python3 "$T/round_judge.py" "$SG" "$1" "$T/d/rounds/p-done.tsv" "$T/pj.d" "$T/keep"
}
all_ok() { test "$(grep -c 'parent ok derived ok row ok values ok$' "$1")" = 6; }
round_ok() { test "$1" -eq 0 && all_ok "$2"; }

pround
python3 "$T/parent_judge.py" "$T/d" "$T/d/rounds/p.tsv" - >"$T/pj.d"
for c in $(cut -d' ' -f1 "$T/pj.d"); do
    echo "$c $(python3 "$RP" parent "$T/d" "$c" "$T/d/rounds/p.tsv" "$T/no-done.tsv")"
done | sed 's/ $/ -/' >"$T/pj.got"
# 0.6444 alone: no other code chose it, so it has no parent.
head -n 2 "$T/d/rounds/p.tsv" >"$T/one.tsv"
printf '1\t0.6444\t8192\t60\tnone\t1\t1\t1\n' >>"$T/one.tsv"
check "census_round.py parent: each code's as judged; 0.6444 its own parent in the round, none alone (judged too)" \
    test -z "$(diff "$T/pj.d" "$T/pj.got")" -a "$(grep -c '^0.6444 0.6444$' "$T/pj.got")" = 1 -a \
    "$(python3 "$T/parent_judge.py" "$T/d" "$T/one.tsv" -)" = "0.6444 -" -a \
    -z "$(python3 "$RP" parent "$T/d" 0.6444)"
# ... but its own once it ran as a parent (its children finished first:
# its values are in the parents' cache, not to be computed again).
printf 'code\tgoal\tcomputed\tstatus\tchecksum\tcpu_seconds\twall_seconds\truns\tmachine\n0.6444\t8192\t8192\tunresolved\t\t0.1\t0.1\t1\tx\n' \
    >"$T/one-parents.tsv"
check "census_round.py parent and todo: 0.6444 alone its own parent once the parents file has its row (judged too)" \
    test "$(python3 "$RP" parent "$T/d" 0.6444 "$T/one.tsv" "$T/no-done.tsv")" = 0.6444 -a \
    "$(python3 "$RP" todo "$T/one.tsv" "$T/no-done.tsv" 0/1 "$T/d" | cut -f1,4)" = "$(printf '0.6444\t0.6444')" -a \
    "$(python3 "$T/parent_judge.py" "$T/d" "$T/one.tsv" -)" = "0.6444 0.6444"
rm -f "$T/one-parents.tsv"
SGEXPLORE=$T/sg-keep bash "$R" -w "$T/w3" -o "$T/d" "$T/d/rounds/p.tsv" 2>"$T/err"
rc=$?
judge_round derive >"$T/judge"
check "a round with parents: done (status 0), six codes recorded" \
    test $rc -eq 0 -a "$(grep -vc '^#' "$T/d/rounds/p-done.tsv")" = 7
check "each code's parent and derived count as judged, its row and values those of a run from scratch" \
    all_ok "$T/judge"
check "... among them 0.4517, whose derivation from 0.4515 stops at heap 22" \
    grep -q '^0.4517 parent ok derived ok row ok values ok$' "$T/judge"
python3 - "$T/d/rounds/p-parents.tsv" >"$T/judge.p" <<'EOF'
import sys
ls = [l.rstrip('\n').split('\t') for l in open(sys.argv[1]) if not l.startswith('#')]
rs = {l[0]: dict(zip(ls[0], l)) for l in ls[1:]}
print(sorted(rs), {(r['goal'], r['computed'], r['status'], r['runs']) for r in rs.values()},
      all(float(r['cpu_seconds']) > 0 for r in rs.values()))
EOF
check "the parents file: 0.444, 0.4515 and 0.6444 each run once to 8,192 values" \
    grep -qxF "['0.444', '0.4515', '0.6444'] {('8192', '8192', 'unresolved', '1')} True" "$T/judge.p"
check "the code's work folders are removed, the parents' caches kept" \
    test -z "$(ls "$T/w3" | grep -v '^\(todo\..*\|lock\|parents\)$')" -a \
    -s "$T/w3/parents/0.444.db" -a -s "$T/w3/parents/0.6444.db"
python3 "$SRC/scripts/census_stats.py" "$T/d" >"$T/stats.d"
want=$(python3 - "$T/d/rounds" <<'EOF'
import sys
def cpu(p):
    ls = [l.rstrip('\n').split('\t') for l in open(p) if not l.startswith('#')]
    return sum(float(dict(zip(ls[0], l))['cpu_seconds']) for l in ls[1:])
print('{:,}'.format(round(cpu(sys.argv[1] + '/p-done.tsv') + cpu(sys.argv[1] + '/p-parents.tsv'))))
EOF
)
check "census_stats.py: 5 codes derived, 3 parents run; the round's CPU seconds are its codes' and its parents' ($want)" \
    grep -q "^| p | 6 | 6 | 0 | 6 | 0 | 5 | 3 | $want | " "$T/stats.d"

# -D: every code from scratch, no parent run.
pround
SGEXPLORE=$T/sg-keep bash "$R" -D -w "$T/w3" -o "$T/d" "$T/d/rounds/p.tsv" 2>"$T/err"
rc=$?
judge_round - >"$T/judge"
check "-D: no parent, nothing derived, every row and values as from scratch" \
    test $rc -eq 0 -a ! -e "$T/d/rounds/p-parents.tsv" -a ! -e "$T/w3/parents" -a \
    "$(grep -c 'parent ok derived ok row ok values ok$' "$T/judge")" = 6

# A done file of before the columns parent and derived: migrated once,
# its rows kept with '-' for both.
awk -F'\t' -v OFS='\t' '{ NF = 24; print }' "$T/d/rounds/p-done.tsv" | head -n 4 >"$T/old-done"
pround
cp "$T/old-done" "$T/d/rounds/p-done.tsv"
SGEXPLORE=$T/sg-keep bash "$R" -w "$T/w3" -o "$T/d" "$T/d/rounds/p.tsv" 2>"$T/err"
rc=$?
python3 - "$T/old-done" "$T/d/rounds/p-done.tsv" >"$T/judge" <<'EOF'
import sys
old = [l.rstrip('\n') for l in open(sys.argv[1])]
new = [l.rstrip('\n') for l in open(sys.argv[2])]
print('head', new[1].endswith('\tmachine\tparent\tderived'),
      'kept', [l + '\t-\t-' for l in old[2:]] == new[2:4],
      'rest', [l.split('\t')[0] for l in new[4:]],
      [len(l.split('\t')) for l in new[1:]] == [26] * 7)
EOF
check "an old done file: its header and rows get parent and derived ('-'), the other codes are added" \
    test $rc -eq 0 -a "$(cat "$T/judge")" = "head True kept True rest ['0.6444', '0.6466', '0.4517', '0.0007'] True"

# -s 0/2 and -s 1/2 at once: 0.4452 (part 1) and 0.4643 (part 0) share
# 0.444, 0.6444 (part 1) is the parent of 0.6466 (part 0): each parent
# run once, under its lock.
pround
SGEXPLORE=$T/sg-keep bash "$R" -s 0/2 -w "$T/w3" -o "$T/d" "$T/d/rounds/p.tsv" 2>"$T/err.0" &
pid=$!
SGEXPLORE=$T/sg-keep bash "$R" -s 1/2 -w "$T/w3" -o "$T/d" "$T/d/rounds/p.tsv" 2>"$T/err.1"
rc1=$?
wait "$pid"
rc0=$?
judge_round derive >"$T/judge"
python3 - "$T/d/rounds/p-parents.tsv" >"$T/judge.p" <<'EOF'
import sys
ls = [l.rstrip('\n').split('\t') for l in open(sys.argv[1]) if not l.startswith('#')]
print(sorted((l[0], l[7]) for l in ls[1:]))
EOF
check "-s 0/2 and -s 1/2 sharing parents: both done, every row as judged" \
    round_ok $((rc0 + rc1)) "$T/judge"
check "-s: each parent run once" \
    grep -qxF "[('0.444', '1'), ('0.4515', '1'), ('0.6444', '1')]" "$T/judge.p"

# SIGKILL during a parent's run: nothing of its code recorded; the next
# run does it and the rest.
cat >"$T/sg-hangp" <<EOF
#!/bin/bash
[ "\$1" = 0.444 ] && exec sleep 600
exec "$T/sg-keep" "\$@"
EOF
chmod +x "$T/sg-hangp"
pround
SGEXPLORE=$T/sg-hangp setsid bash "$R" -w "$T/w3" -o "$T/d" "$T/d/rounds/p.tsv" 2>"$T/err" &
pid=$!
for _ in $(seq 1 300); do
    [ -s "$T/w3/parents/0.444.lock" ] || [ -d "$T/w3/parents/0.444.run" ] && break
    sleep 0.1
done
sleep 0.5
kill -KILL -- -"$pid" 2>/dev/null
wait "$pid" 2>/dev/null
check "SIGKILL during a parent's run: its code not recorded" \
    test ! -e "$T/d/rounds/p-done.tsv" -a ! -e "$T/d/rounds/p-parents.tsv"
SGEXPLORE=$T/sg-keep bash "$R" -w "$T/w3" -o "$T/d" "$T/d/rounds/p.tsv" 2>"$T/err"
rc=$?
judge_round derive >"$T/judge"
check "... the next run records every code as judged" round_ok $rc "$T/judge"

# A parent's lock held by another worker (here a stand-in holding it for
# 3 s): its two codes (0.4452, 0.4643, first in the round) wait at the
# end of the list while the other four run, then run as usual.
pround
mkdir -p "$T/w3/parents"
flock "$T/w3/parents/0.444.lock" sleep 3 &
hold=$!
for _ in $(seq 1 50); do
    flock -n "$T/w3/parents/0.444.lock" true 2>/dev/null || break
    sleep 0.1
done
SGEXPLORE=$T/sg-keep bash "$R" -w "$T/w3" -o "$T/d" "$T/d/rounds/p.tsv" 2>"$T/err"
rc=$?
wait "$hold"
judge_round derive >"$T/judge"
order=$(awk -F'\t' '!/^#/ && $1 != "code" { printf "%s ", $1 }' "$T/d/rounds/p-done.tsv")
check "a parent busy in another worker: its codes later ($order), each as judged" \
    test "$order" = "0.6444 0.6466 0.4517 0.0007 0.4452 0.4643 " -a \
    "$(grep -c 'its parent 0.444 is running in another worker: later$' "$T/err")" = 2 -a \
    -n "$(round_ok $rc "$T/judge" && echo ok)"

# WORK/stop-family during 0.4452 (the family of 0.444 first, 0.4643 its
# other code): that family finishes, then the round stops before 0.6444;
# the next run does the rest.
pround
cat >"$T/sg-stopfam" <<EOF
#!/bin/bash
[ "\$1" = 0.4452 ] && touch "$T/w3/stop-family"
exec "$T/sg-keep" "\$@"
EOF
chmod +x "$T/sg-stopfam"
SGEXPLORE=$T/sg-stopfam bash "$R" -w "$T/w3" -o "$T/d" "$T/d/rounds/p.tsv" 2>"$T/err"
rc=$?
order=$(awk -F'\t' '!/^#/ && $1 != "code" { printf "%s ", $1 }' "$T/d/rounds/p-done.tsv")
check "WORK/stop-family: the running code's family finishes ($order), then the round stops (status 3)" \
    test $rc -eq 3 -a "$order" = "0.4452 0.4643 " -a \
    "$(grep -c 'stop-family: stopped before 0.6444$' "$T/err")" = 1
rm -f "$T/w3/stop-family"
SGEXPLORE=$T/sg-keep bash "$R" -w "$T/w3" -o "$T/d" "$T/d/rounds/p.tsv" 2>"$T/err"
rc=$?
judge_round derive >"$T/judge"
check "after WORK/stop-family: the next run does the rest, every row as judged" \
    round_ok $rc "$T/judge"

# A parents file that claims more than the parent's cache holds (0.444
# at 8,192 values, its cache at 1,000): the run of 0.444 is skipped, the
# derivation takes the 1,000 values the cache holds, and the codes
# compute the rest.
pround
mkdir -p "$T/w3/parents"
"$SG" 0.444 --max 1000 --db "$T/w3/parents/0.444.db" >/dev/null
printf '# test\ncode\tgoal\tcomputed\tstatus\tchecksum\tcpu_seconds\twall_seconds\truns\tmachine\n0.444\t8192\t8192\tunresolved\t\t1.00\t1.00\t1\tx\n' \
    >"$T/d/rounds/p-parents.tsv"
SGEXPLORE=$T/sg-keep bash "$R" -w "$T/w3" -o "$T/d" "$T/d/rounds/p.tsv" 2>"$T/err"
rc=$?
judge_round derive >"$T/judge"
check "a parents row claiming more than its cache: 1,000 values derived, every row as from scratch" \
    test $rc -eq 0 -a "$(grep -c 'parent ok derived 1000, not 8192 row ok values ok$' "$T/judge")" = 2 -a \
    "$(grep -c 'parent ok derived ok row ok values ok$' "$T/judge")" = 4

# -P 0: no CPU for the parents, so nothing derived (the parents still
# named); the rows as from scratch.
pround
SGEXPLORE=$T/sg-keep bash "$R" -P 0 -w "$T/w3" -o "$T/d" "$T/d/rounds/p.tsv" 2>"$T/err"
rc=$?
judge_round nocap >"$T/judge"
check "-P 0: the parents not run, nothing derived, every row as from scratch" \
    round_ok $rc "$T/judge"
SGEXPLORE=$SG bash "$R" -P x -w "$T/w3" -o "$T/d" "$T/d/rounds/p.tsv" 2>"$T/err"
rc=$?
check "-P x: refused (status 2), saying why" \
    test $rc -eq 2 -a "$(grep -c -- '-P wants seconds' "$T/err")" = 1

# census_stats.py on the copy: the row counts and the round's.
SGEXPLORE=$SG bash "$R" -w "$T/w2" -o "$T/c" "$T/c/rounds/t.tsv" 2>/dev/null
python3 "$SRC/scripts/census_stats.py" "$T/c" >"$T/stats"
want=$(python3 - "$T/c/octal.tsv" <<'EOF'
import sys
ls = [l.rstrip('\n').split('\t') for l in open(sys.argv[1]) if not l.startswith('#')]
rs = [dict(zip(ls[0], l)) for l in ls[1:]]
st = [r['status'] for r in rs]
f = '{:,}'.format
print('| all | %s | %s | %s | %s | %s | %s |' % (
    f(len(rs)), f(st.count('periodic')), f(st.count('arithmetic-periodic')),
    f(st.count('unresolved')), f(sum(1 for r in rs if r['sparse_mask'])),
    f(sum(1 for r in rs if r['sparse_mask'] and r['status'] == 'unresolved'))))
EOF
)
check "census_stats.py: the census's counts ($want)" grep -qxF -- "$want" "$T/stats"
check "census_stats.py: the round's counts (3 codes, 3 finished, 1 proven, 2 at their goal, none derived, no parent)" \
    grep -q '^| t | 3 | 3 | 1 | 2 | 0 | 0 | 0 | ' "$T/stats"
check "census_stats.py: the proven code with the command that reproduces it" \
    grep -q '^| t | 0.3357 | 794 | 232 | 0 | guy-smith | 2,055 | .*`sgexplore 0.3357 --max 100000` |$' "$T/stats"
# census_shift.py: 0.7367 is 4.064 one heap earlier (docs/CENSUS.md, from
# T. Czajka's lookup tables), and 0.7444's values are 0.7445's, no
# three-digit code's.
out=$(SGEXPLORE=$SG python3 "$SRC/scripts/census_shift.py" 0.7367 4.064 0.744 4.0)
check "census_shift.py: 0.7367 agrees with 4.064 shifted by one heap, with no other candidate" \
    test "$out" = "4.064 1
# 3 candidates, G(0..4095), shifts -3..3"
out=$(SGEXPLORE=$SG python3 "$SRC/scripts/census_shift.py" -n 512 0.7444 0.744 0.7445 0.74)
check "census_shift.py: 0.7444 agrees with 0.7445 unshifted, not with 0.744 or 0.74" \
    test "$out" = "0.7445 0
# 3 candidates, G(0..511), shifts -3..3"

if [ -f "$SRC/docs/CENSUS.md" ]; then
    check "docs/CENSUS.md's statistics are census_stats.py's of data/census" \
        python3 "$SRC/scripts/census_stats.py" --check "$SRC/docs/CENSUS.md" "$C"
fi

echo "1..$n"
[ "$fails" -eq 0 ]
