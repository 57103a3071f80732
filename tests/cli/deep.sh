#!/bin/bash
# tests/cli/deep.sh - deep runs through the CLI (TAP): a run killed with
# SIGKILL once a checkpoint exists, and one stopped by Ctrl-C, resume and
# end with exactly the checksum, kept values, largest value and rare heaps
# of an uninterrupted run, whose checksum is recomputed here from the
# ordinary enumeration's values by an independent FNV-1a; the values the
# run no longer holds are answered "unknown" (exit 3); bad input gets one
# line and exit 2.  (The deep run's own tests against the full enumeration
# are in tests/test_deep.c.)

SG=${SGEXPLORE:-sgexplore}
T=$(mktemp -d "${TMPDIR:-/tmp}/deep.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT

. "$(dirname "$0")/tap.sh"

for c in python3 sqlite3; do
    if ! command -v $c >/dev/null 2>&1; then
        echo "1..0 # SKIP $c is not installed"
        exit 0
    fi
done

# 0.167: few rare heaps (the last at 1303), about 5 * 10^6 values/s; a
# window of 2^14 moves every 16384 heaps and a step is 2^18 heaps.
RULE=0.167
N=6000000
DEEP=(--deep --max $N --window 16384 --checkpoint 0)

# The ordinary enumeration's checksum of G(0..N-1), as certificates define
# it (FNV-1a 64 of "G(0),G(1),..."), computed in Python from its values.
"$SG" $RULE --max $N --no-cache --values 0:$((N - 1)) --quiet >"$T/values"
want=$(python3 -c '
import sys
h = 14695981039346656037
first = True
for line in open(sys.argv[1]):
    v = line.split("= ")[1].strip()
    s = (v if first else "," + v).encode()
    first = False
    for b in s:
        h = ((h ^ b) * 1099511628211) & 0xFFFFFFFFFFFFFFFF
print("fnv1a64:%016x" % h)' "$T/values")
value_at() { sed -n "$(($1 + 1))p" "$T/values" | sed 's/.*= //'; }

# "checksum largest first rare last_rare kept" of a JSON report.
summary() {
    python3 -c '
import json, sys
o = json.load(open(sys.argv[1]))
d, s, l = o["deep"], o["sparse"], o["largest"]
print(d["checksum"], l["value"], l["first"], s["rare"], s["last_rare"],
      json.dumps(d["kept"], separators=(",", ":")), o["computed"])' "$1"
}

"$SG" $RULE "${DEEP[@]}" --db "$T/whole.db" --json >"$T/whole.json" 2>"$T/whole.err"
check "an uninterrupted deep run succeeds" test $? = 0
whole=$(summary "$T/whole.json")
check "its JSON report has a summary" test -n "$whole"
check "its checksum is the full enumeration's ($want)" \
    test "$(cut -d' ' -f1 <<<"$whole")" = "$want"
check "it computed all $N values" test "$(cut -d' ' -f7 <<<"$whole")" = $N
check "its window moved: two kept ranges" contains "$whole" '\[\[0,16383\],\['

# Killed (SIGKILL) as soon as the cache holds a checkpoint, then resumed.
"$SG" $RULE "${DEEP[@]}" --db "$T/k.db" >/dev/null 2>&1 &
pid=$!
for _ in $(seq 600); do
    h=$(sqlite3 "$T/k.db" "SELECT heaps FROM checkpoints" 2>/dev/null)
    [ -n "$h" ] && break
    sleep 0.02
done
kill -KILL $pid 2>/dev/null
wait $pid 2>/dev/null
h=$(sqlite3 "$T/k.db" "SELECT heaps FROM checkpoints" 2>/dev/null)
check "a checkpoint was stored before the kill (heap ${h:-none})" \
    test -n "$h" -a "${h:-0}" -gt 0 -a "${h:-0}" -lt $N
"$SG" $RULE "${DEEP[@]}" --db "$T/k.db" --json >"$T/k.json" 2>"$T/k.err"
check "the rerun after SIGKILL succeeds" test $? = 0
check "it says it resumed from the checkpoint" \
    contains "$(cat "$T/k.json")" '"source":"resumed from a checkpoint"'
check "resumed after SIGKILL: the uninterrupted run's checksum, largest \
value, rare heaps and kept ranges" test -n "$whole" -a "$(summary "$T/k.json")" = "$whole"

# Ctrl-C (SIGINT): the run stores a checkpoint and says so.  The signal
# comes once a checkpoint exists (as above), the run held by SIGSTOP so
# that it cannot end first (a fixed 0.4 s was longer than a whole run
# once the enumeration got faster).
"$SG" $RULE "${DEEP[@]}" --db "$T/i.db" >/dev/null 2>"$T/i.err" &
pid=$!
for _ in $(seq 600); do
    h=$(sqlite3 "$T/i.db" "SELECT heaps FROM checkpoints" 2>/dev/null)
    [ -n "$h" ] && break
    sleep 0.02
done
kill -STOP $pid
kill -INT $pid
kill -CONT $pid
wait $pid
rc=$?
check "Ctrl-C: exit status 1" test $rc = 1
check "Ctrl-C: one line saying the checkpoint is stored" \
    test "$(wc -l <"$T/i.err")" = 1 -a \
    "$(grep -c 'checkpoint is stored' "$T/i.err")" = 1
"$SG" $RULE "${DEEP[@]}" --db "$T/i.db" --json >"$T/i.json" 2>/dev/null
check "resumed after Ctrl-C: the uninterrupted run's summary" \
    test -n "$whole" -a "$(summary "$T/i.json")" = "$whole"

# A second run of a finished deep run computes nothing.
out=$("$SG" $RULE "${DEEP[@]}" --db "$T/whole.db")
check "a finished run comes from its checkpoint" has "$out" \
    "source: checkpoint (at heap $N)"

# The cache shows a rule known only by its checkpoint.
out=$("$SG" cache list --db "$T/whole.db")
check "cache list names the checkpoint" \
    contains "$out" "^deep-run checkpoint: $RULE at heap $N, stored "
out=$("$SG" cache list --db "$T/whole.db" --format json)
check "cache list --format json: the checkpoint's own line, then the summary" \
    python3 -c '
import json, sys
lines = [json.loads(l) for l in sys.argv[1].splitlines()]
c = lines[0]["checkpoint"]
assert len(lines) == 2 and c["rule"] == sys.argv[2] and c["computed"] == int(sys.argv[3])
assert c["stored"] and lines[1]["summary"]["checkpoints"] == 1
assert lines[1]["summary"]["rules"] == 0' "$out" $RULE $N
check "  not under --status proven or another family" \
    test "$("$SG" cache list --db "$T/whole.db" --format json --status proven | grep -c checkpoint\")$("$SG" cache list --db "$T/whole.db" --format json --family subtract | grep -c checkpoint\")" = 00
out=$("$SG" cache show $RULE --db "$T/whole.db")
check "cache show: the deep report from the checkpoint" \
    has "$out" "checksum: $want of G(0..$((N - 1)))"

# Kept heaps are answered, the others are unknown (exit 3).
out=$("$SG" $RULE "${DEEP[@]}" --db "$T/whole.db" --quiet --heap 100 \
    --heap $((N - 1)) --heap 3000000)
rc=$?
check "--heap: G(100) from the kept prefix" has "$out" "G(100) = $(value_at 100)"
check "--heap: G(N-1) from the window" has "$out" \
    "G($((N - 1))) = $(value_at $((N - 1)))"
check "--heap: a heap no longer kept is unknown" \
    contains "$out" '^G(3000000) = unknown (the deep run keeps G(0..16383) and G('
check "--heap with an unknown answer: exit status 3" test $rc = 3

# --seconds: stops, stores the checkpoint, reports (exit 0).
out=$("$SG" $RULE --deep --max 100000000 --window 16384 --seconds 0.3 \
    --db "$T/s.db" 2>&1)
check "--seconds: exit 0 and a note" contains "$out" '^note: --seconds ran out'
check "--seconds: the checkpoint is in the cache" \
    test -n "$(sqlite3 "$T/s.db" "SELECT heaps FROM checkpoints")"

# cache drop removes the checkpoint too.
out=$("$SG" cache drop $RULE --db "$T/s.db" 2>&1)
check "cache drop names the checkpoint" contains "$out" 'checkpoint'
check "no checkpoint row after cache drop" \
    test -z "$(sqlite3 "$T/s.db" "SELECT heaps FROM checkpoints")"

# Bad input: one line, exit 2.
bad() {
    local what=$1 pat=$2
    shift 2
    err=$("$SG" "$@" --no-cache 2>&1 >/dev/null)
    rc=$?
    check "$what: exit 2, one line" test $rc = 2 -a "$(wc -l <<<"$err")" = 1
    check "$what: the message says '$pat'" contains "$err" "$pat"
}
bad "--deep without --max" "needs --max" $RULE --deep
bad "--deep past 2^48" "up to 2^48" $RULE --deep --max '2^48+1'
bad "--deep on a rule with a tail" "not a rule the sparse method covers" \
    --rule '0.[3]' --deep --max 100
bad "--deep on a subtraction game" "not a rule the sparse method covers" \
    --subtract 1,2 --deep --max 100
bad "--window too small" "between 16384" $RULE --deep --max 10 --window 100
bad "--window without --deep" "goes with --deep" $RULE --window 16384
bad "--plot with --deep" "does not go with --deep" $RULE --deep --max 10 \
    --plot "$T/x.png"
out=$("$SG" $RULE --deep --max $N --window 32768 --db "$T/whole.db" 2>&1)
rc=$?
check "another --window than the checkpoint's: exit 2" test $rc = 2
check "... naming the checkpoint's window" contains "$out" 'keeps 16384 values'

# A window too small for the rule's rare heaps stops the run honestly.
out=$("$SG" officers --deep --max 200000 --window 16384 --no-cache 2>&1)
rc=$?
check "officers with a window of 16384: exit 1" test $rc = 1
check "... the report says where it stopped and why" \
    contains "$out" '^note: deep run stopped at heap [0-9]*: a window of 16384 values is too small'

# A full disk (a 512 KiB tmpfs in a private mount namespace): a small
# checkpoint fits, a big one does not; the run says so in one line, exits
# 1, and the earlier checkpoint is still there and still resumes.
if [ "$(id -u)" = 0 ] && command -v unshare >/dev/null 2>&1 &&
    unshare -m true 2>/dev/null; then
    mkdir "$T/full"
    unshare -m bash -c '
        mount -t tmpfs -o size=512k tmpfs "$2" || exit 77
        "$1" 0.77 --deep --max 20000 --window 16384 --db "$2/c.db" >/dev/null || exit 70
        "$1" 0.167 --deep --max 3000000 --window 65536 --checkpoint 0 \
            --db "$2/c.db" >"$3/full-out" 2>"$3/full-err"
        echo $? >"$3/full-rc"
        "$1" 0.77 --deep --max 20000 --window 16384 --db "$2/c.db" >"$3/full-again" 2>&1
        echo $? >>"$3/full-rc"
    ' _ "$SG" "$T/full" "$T"
    st=$?
    if [ $st = 77 ]; then
        for i in 1 2 3; do skip "cannot mount a tmpfs here"; done
    else
        check "disk full: exit status 1, then 0 for the earlier rule" \
            test "$(tr '\n' ' ' <"$T/full-rc")" = "1 0 "
        check "disk full: one line saying the disk is full" \
            test "$(wc -l <"$T/full-err")" = 1 -a \
            "$(grep -c 'disk is full' "$T/full-err")" = 1
        check "disk full: the earlier checkpoint still answers" \
            grep -q '^source: checkpoint (at heap 20000)' "$T/full-again"
    fi
else
    for i in 1 2 3; do skip "needs root and unshare for a small tmpfs"; done
fi

echo "1..$n"
[ $fails = 0 ]
