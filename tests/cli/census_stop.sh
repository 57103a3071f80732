#!/bin/bash
# tests/cli/census_stop.sh - how scripts/census.sh stops (TAP): Ctrl-C
# (SIGINT to its process group) in a round run under a deadline reaches
# the sweep at once, not when the deadline comes; an interrupted round,
# the first or a later one, is run again by the next census.sh (its JSON
# is not taken for a finished round's); and a round still running at the
# deadline is stopped with SIGTERM and marked partial.  The sweep here is
# a stand-in (a few lines of Python, $T/sg) that prints a row per code and
# can be told to wait for a signal: what is tested is the script's
# process control, over its 4,607 codes, in seconds; the real sweep's own
# answer to SIGINT and SIGTERM is tests/cli/sweep_kill.sh's.  Since it
# runs no sgexplore, the sanitizer suite (SG_TEST_MULT below 1) skips it:
# the plain suite's run is the same run.

SRC=${top_srcdir:-.}
T=$(mktemp -d "${TMPDIR:-/tmp}/census_stop.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT

. "$(dirname "$0")/tap.sh"

if awk -v m="${SG_TEST_MULT:-1}" 'BEGIN { exit !(m < 1) }'; then
    echo "1..0 # SKIP runs no sgexplore: the plain suite's run is this one (SG_TEST_MULT below 1: the sanitizer build)"
    exit 0
fi
for c in python3 setsid timeout; do
    if ! command -v $c >/dev/null 2>&1; then
        echo "1..0 # SKIP $c is not installed"
        exit 0
    fi
done

# The stand-in: `sg sweep rules FILE --seconds B ...` prints one
# unresolved row per code (its time ran out) and a summary.  When B is
# $SG_STOP_AT it prints one row and waits for SIGINT or SIGTERM, notes the
# signal in $T/signal, and ends as the sweep does when interrupted: a
# summary saying so, exit status 1.
cat >"$T/sg" <<'EOF'
#!/usr/bin/env python3
import json, os, signal, sys, time
a = sys.argv
seconds = float(a[a.index('--seconds') + 1])
codes = [l.strip() for l in open(a[3]) if l.strip()]
def row(c):
    return json.dumps({'rule': c, 'status': 'unresolved', 'preperiod': None,
                       'period': None, 'saltus': None, 'computed': 100,
                       'stopped': 'time', 'budgets': [{'seconds': seconds,
                       'from': 0, 'computed': 100}]})
def summary(interrupted):
    print(json.dumps({'summary': {'rules': len(codes),
                                  'interrupted': interrupted, 'failed': 0}}))
if str(seconds) == os.environ.get('SG_STOP_AT'):
    got = []
    for s in (signal.SIGINT, signal.SIGTERM):
        signal.signal(s, lambda n, f: got.append(n))
    print(row(codes[0]), flush=True)
    end = time.time() + 600
    while not got and time.time() < end:
        time.sleep(0.05)
    with open(os.environ['SG_SIGNAL_FILE'], 'w') as f:
        f.write(signal.Signals(got[0]).name if got else 'none')
    summary(True)
    print('sgexplore: sweep interrupted', file=sys.stderr)
    sys.exit(1)
for c in codes:
    print(row(c))
summary(False)
EOF
chmod +x "$T/sg"
export SGEXPLORE=$T/sg SG_SIGNAL_FILE=$T/signal

# run NAME ARGS...: census.sh ARGS in its own process group, in the
# background; $pid is its pid (and its group's).
run() {
    local name=$1
    shift
    rm -f "$T/signal"
    setsid bash "$SRC/scripts/census.sh" -w "$T/work" -o "$T/out" -P 0 "$@" \
        >"$T/$name.out" 2>"$T/$name.err" &
    pid=$!
}
# finish SECONDS: wait up to SECONDS for census.sh; $rc is its exit status
# (or "hung", and the group is killed).
finish() {
    local i
    for ((i = 0; i < $1 * 10; i++)); do
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.1
    done
    if kill -0 "$pid" 2>/dev/null; then
        kill -KILL -- -"$pid" 2>/dev/null
        wait "$pid" 2>/dev/null
        rc=hung
    else
        wait "$pid"
        rc=$?
    fi
}
# waiting ROUND: wait up to 20 s for the stand-in to print its row of ROUND.
waiting() {
    local i
    for ((i = 0; i < 200; i++)); do
        [ -s "$T/work/round-$1.part" ] && return 0
        sleep 0.1
    done
    return 1
}
# Stop the stand-in that waits as Ctrl-C does: SIGINT to the whole group.
ctrl_c() { kill -INT -- -"$pid" 2>/dev/null; }
lines() { grep -c '^{"rule"' "$1" 2>/dev/null; }
not_in() { ! grep -q -- "$2" "$1"; }
deadline() { echo "@$(($(date +%s) + $1))"; }

# Round 1 interrupted, then run again.
SG_STOP_AT=0.25 run r1 -s 0.25 -r 1
check "round 1: the stand-in waits" waiting 1
ctrl_c
finish 20
check "round 1: Ctrl-C ends census.sh (status 1, got $rc)" test "$rc" = 1
check "round 1: the sweep got SIGINT" test "$(cat "$T/signal" 2>/dev/null)" = SIGINT
check "round 1: one line names the interrupted round" \
    grep -q 'round 1 .*interrupted' "$T/r1.err"
check "round 1: no round-1.jsonl is left to pass for a finished round" \
    test ! -e "$T/work/round-1.jsonl"
# What census.sh did before it kept an interrupted round's JSON apart:
# a rerun must still see that round 1 did not finish.
mv "$T/work/round-1.part" "$T/work/round-1.jsonl"
SG_STOP_AT=none run r1again -s 0.25 -r 1
finish 60
check "round 1 again: census.sh ends (status 0, got $rc)" test "$rc" = 0
check "round 1 again: the round ran again over all 4,607 codes" \
    test "$(lines "$T/work/round-1.jsonl")" = 4607
check "round 1 again: the table has a row per code" \
    test "$(grep -vc '^#' "$T/out/octal.tsv")" = 4608

# Round 2, under a deadline ten minutes away: Ctrl-C reaches the sweep
# now (with `timeout` in a process group of its own it did not, and
# census.sh waited for the deadline).
SG_STOP_AT=2.5 run r2 -s 0.25 -r 2 -t "$(deadline 600)"
check "round 2: the stand-in waits" waiting 2
ctrl_c
finish 20
check "round 2 under a deadline: Ctrl-C ends census.sh at once (status 1, got $rc)" \
    test "$rc" = 1
check "round 2: the sweep got SIGINT" test "$(cat "$T/signal" 2>/dev/null)" = SIGINT
check "round 2: one line names the interrupted round" \
    grep -q 'round 2 .*interrupted' "$T/r2.err"
check "round 2: no round-2.jsonl is left to pass for a finished round" \
    test ! -e "$T/work/round-2.jsonl"
check "round 2: round 1 was not run again" \
    not_in "$T/r2.err" 'round 1:'

# Round 2 again, its deadline 10 s away: SIGTERM at the deadline, the round
# marked partial, the table written from what there is, and no later
# round, round P included, run after it.
SG_STOP_AT=2.5 run dl -s 0.25 -r 2 -P 300 -t "$(deadline 10)"
finish 60
check "deadline: census.sh ends (status 0, got $rc)" test "$rc" = 0
check "deadline: the sweep got SIGTERM" test "$(cat "$T/signal" 2>/dev/null)" = SIGTERM
check "deadline: round 2 is marked partial" test -e "$T/work/round-2.partial"
check "deadline: one line says the round stopped at the deadline" \
    grep -q 'round 2 stopped at the deadline' "$T/dl.err"
check "deadline: the table still has a row per code" \
    test "$(grep -vc '^#' "$T/out/octal.tsv")" = 4608
check "deadline: round P did not run after the deadline" \
    not_in "$T/dl.err" 'round P:'

# Round 2 run to its end, then round 3 with a deadline already passed: it
# is not run, and census.sh says so (it said nothing), nor is round P.
SG_STOP_AT=none run fin -s 0.25 -r 2 -P 0
finish 60
check "round 2 to its end (status 0, got $rc)" test "$rc" = 0
rm -f "$T/work/round-P."*   # so that round P would run, were it let
SG_STOP_AT=none run past -s 0.25 -r 3 -P 300 -t "$(deadline -60)"
finish 60
check "deadline passed: census.sh ends (status 0, got $rc)" test "$rc" = 0
check "deadline passed: one line says round 3 did not run" \
    grep -q 'deadline passed before round 3' "$T/past.err"
check "deadline passed: round 3 did not run" \
    test ! -e "$T/work/round-3.part" -a ! -e "$T/work/round-3.jsonl"
check "deadline passed: round P did not run" not_in "$T/past.err" 'round P:'
check "deadline passed: one line says round P did not run" \
    grep -q 'round P did not run' "$T/past.err"
check "deadline passed: the table has a row per code" \
    test "$(grep -vc '^#' "$T/out/octal.tsv")" = 4608

# Round P under a deadline: stopped by it as the other rounds are (it ran
# on, unlimited), marked partial; a rerun runs it again.
rm -f "$T/work/round-P."*
SG_STOP_AT=300.0 run pdl -s 0.25 -r 3 -P 300 -t "$(deadline 10)"
finish 60
check "round P at the deadline: census.sh ends (status 0, got $rc)" \
    test "$rc" = 0
check "round P at the deadline: the sweep got SIGTERM" \
    test "$(cat "$T/signal" 2>/dev/null)" = SIGTERM
check "round P at the deadline: marked partial" \
    test -e "$T/work/round-P.partial"
check "round P at the deadline: one line says it stopped" \
    grep -q 'round P stopped at the deadline' "$T/pdl.err"
check "round P at the deadline: the table has a row per code" \
    test "$(grep -vc '^#' "$T/out/octal.tsv")" = 4608
SG_STOP_AT=none run pagain -s 0.25 -r 3 -P 300
finish 60
check "round P again: census.sh ends (status 0, got $rc)" test "$rc" = 0
check "round P again: it ran again" grep -q 'round P:' "$T/pagain.err"
check "round P again: no longer marked partial" \
    test ! -e "$T/work/round-P.partial"
check "round P again: rounds 1 to 3 were not run again" \
    not_in "$T/pagain.err" 'round [123]:'
check "round P again: its 300 s budget is in the table" \
    grep -q '300s:' "$T/out/octal.tsv"

# Round 3 marked partial and its deadline passed: round P, finished over
# the same codes before, is not run but still counts in the table.
touch "$T/work/round-3.partial"
SG_STOP_AT=none run kept -s 0.25 -r 3 -P 300 -t "$(deadline -60)"
finish 60
check "round P kept: census.sh ends (status 0, got $rc)" test "$rc" = 0
check "round P kept: no round ran" not_in "$T/kept.err" 'round [123P]:'
check "round P kept: its rows are still in the table" \
    grep -q '300s:' "$T/out/octal.tsv"

echo "1..$n"
[ "$fails" -eq 0 ]
