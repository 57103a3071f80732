#!/bin/bash
# tests/cli/sweep_kill.sh - a sweep killed at random moments and run again
# (TAP): SIGTERM to the sweep (which forwards it to its workers), SIGINT
# to its whole process group (Ctrl-C), SIGKILL to the group (a node that
# dies).  After every kill the cache is intact and the next run never
# computes from scratch a rule the cache already holds (finished rules
# come from the cache, interrupted ones are extended); the last run ends
# with exactly the table of an uninterrupted sweep.  The kill moments
# come from a seed: SG_TEST_SEED replays a run.

SG=${SGEXPLORE:-sgexplore}
T=$(mktemp -d "${TMPDIR:-/tmp}/sweep_kill.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT

. "$(dirname "$0")/tap.sh"

for c in python3 setsid; do
    if ! command -v $c >/dev/null 2>&1; then
        echo "1..0 # SKIP $c is not installed"
        exit 0
    fi
done
seed=${SG_TEST_SEED:-$(date +%s)}
echo "# seed $seed (SG_TEST_SEED=$seed replays this run)"
RANDOM=$seed

ARGS=(octal --digits 2 --max 25000 --jobs 2 --format json)
# "rule status n0 p s computed source" per row.
rows() {
    python3 -c '
import json, sys
for line in open(sys.argv[1]):
    o = json.loads(line)
    if "summary" in o:
        continue
    f = lambda k: "-" if o[k] is None else str(o[k])
    print("\t".join([o["rule"], o["status"], f("preperiod"), f("period"),
                     f("saltus"), str(o["computed"]), o["source"]]))' "$1"
}
# The rules the cache holds now, one per line.
cached() {
    "$SG" cache list --db "$1" --format json 2>/dev/null |
        python3 -c 'import json,sys; [print(o["rule"]) for o in map(json.loads, sys.stdin) if "rule" in o]' |
        sort
}

t0=$(date +%s%N)
"$SG" sweep "${ARGS[@]}" --db "$T/whole.db" >"$T/whole.json" 2>/dev/null
# the uninterrupted run's milliseconds: the kills fall within it
whole_ms=$((($(date +%s%N) - t0) / 1000000))
[ $whole_ms -lt 50 ] && whole_ms=50
rows "$T/whole.json" | cut -f1-6 | sort >"$T/whole.tsv"
check "the uninterrupted sweep: 56 rows" test "$(wc -l <"$T/whole.tsv")" = 56

kills=(TERM INT KILL TERM)
twice=0 interrupted=0
for i in 0 1 2 3; do
    sig=${kills[$i]}
    cached "$T/k.db" >"$T/before"
    setsid "$SG" sweep "${ARGS[@]}" --db "$T/k.db" >"$T/run$i.json" 2>"$T/run$i.err" &
    pid=$!
    # 10 % to 80 % into the time the whole sweep took (a fixed 0.2 to
    # 1.7 s let the first run finish one time in three once the sweep
    # took about a second: every later run then reads the cache)
    # The first run computes everything from scratch, the later ones
    # only what the kills before left: so the first kill comes early (10
    # to 30 %), or a host slower for the whole run than for this one (a
    # loaded CI machine) lets all four finish first.
    if [ $i = 0 ]; then
        ms=$((whole_ms * (10 + RANDOM % 21) / 100))
    else
        ms=$((whole_ms * (10 + RANDOM % 71) / 100))
    fi
    sleep "$(printf '%d.%03d' $((ms / 1000)) $((ms % 1000)))"
    case $sig in
    TERM) kill -TERM "$pid" 2>/dev/null ;;     # the sweep alone
    *) kill -"$sig" -- -"$pid" 2>/dev/null ;;  # its whole process group
    esac
    wait "$pid"
    rc=$?
    [ $rc != 0 ] && interrupted=$((interrupted + 1))
    rows "$T/run$i.json" >"$T/run$i.tsv" 2>/dev/null
    # A row computed from scratch must be a rule the cache did not hold.
    bad=$(awk -F'\t' '$7 == "computed" {print $1}' "$T/run$i.tsv" |
        sort | comm -12 - "$T/before" | wc -l)
    twice=$((twice + bad))
    if [ "$sig" != KILL ]; then
        check "kill $((i + 1)) (SIG$sig): exit 1 and 'sweep interrupted' last, or 0 when the run had finished (rc $rc)" \
            bash -c 'test $1 = 0 || { test $1 = 1 && tail -n 1 "$2" | grep -q "^sgexplore: sweep interrupted: [0-9]* of 56 rules finished"; }' _ $rc "$T/run$i.err"
    else
        sleep 0.2
        # (zombies waiting for a reaper do not count: they run nothing)
        check "kill $((i + 1)) (SIGKILL to the group): no process of the sweep still runs" \
            test -z "$(ps -o stat= -g "$pid" | grep -v '^Z')"
    fi
    if command -v sqlite3 >/dev/null 2>&1; then
        check "after kill $((i + 1)): PRAGMA integrity_check says ok" \
            test "$(sqlite3 "$T/k.db" 'PRAGMA integrity_check' 2>&1)" = ok
    fi
done
check "at least one run was really interrupted ($interrupted of 4)" test $interrupted -ge 1
cached "$T/k.db" >"$T/before"
"$SG" sweep "${ARGS[@]}" --db "$T/k.db" >"$T/final.json" 2>"$T/final.err"
check "the last run: exit status 0" test $? = 0
rows "$T/final.json" >"$T/final.tsv"
bad=$(awk -F'\t' '$7 == "computed" {print $1}' "$T/final.tsv" | sort |
    comm -12 - "$T/before" | wc -l)
twice=$((twice + bad))
check "no run computed from scratch a rule the cache held ($twice did)" test $twice = 0
check "no rule was reported computed from scratch by two runs" \
    test -z "$(cat "$T"/run*.tsv "$T/final.tsv" | awk -F'\t' '$7 == "computed" {print $1}' | sort | uniq -d)"
check "the finished rules of the killed runs came back from the cache" \
    test "$(awk -F'\t' '$7 == "cache" || $7 == "extended"' "$T/final.tsv" | wc -l)" = \
    "$(wc -l <"$T/before")"
check "the resumed sweep ends with exactly the uninterrupted table" \
    test -z "$(cut -f1-6 "$T/final.tsv" | sort | diff - "$T/whole.tsv")"

# A worker that dies on its own (not asked to stop) is a failure: exit 1
# and one line saying so.  Killed in the middle of a rule, the line names
# the rule and the other 55 are done; killed between two rules (its row
# in, its next task not read), nothing is lost and all 56 are done.  The
# kill comes once the first row is out; a try where the worker had
# already finished everything (exit 0, 56 rows) is repeated.
outcome=late
for try in 1 2 3 4 5; do
    rm -f "$T"/w.db*
    sweep_first_row "$T/w.db" "$T/w.json" "$T/w.err" "${ARGS[@]}"
    [ -n "$victim" ] && kill -KILL "$victim"
    wait "$pid"
    rc=$?
    rows=$(grep -c '^{"rule"' "$T/w.json")
    if [ $rc = 0 ] && [ "$rows" = 56 ]; then
        continue
    fi
    if [ $rc = 1 ] && [ "$rows" = 55 ] &&
        [ "$(grep -c '^sgexplore: a worker stopped while analysing [^ ]*$' "$T/w.err")" = 1 ]; then
        outcome=middle
    elif [ $rc = 1 ] && [ "$rows" = 56 ] &&
        [ "$(grep -c '^sgexplore: a worker stopped between rules (signal 9)$' "$T/w.err")" = 1 ]; then
        outcome=between
    else
        outcome=wrong
        echo "# try $try: exit $rc, $rows rows, stderr:"
        sed 's/^/#   /' "$T/w.err"
    fi
    break
done
check "a worker killed alone: exit 1 and one line naming its rule, the other rules done ($outcome)" \
    test $outcome = middle -o $outcome = between
check "  no row was lost or cut short" \
    test -z "$(python3 -c 'import json,sys; [json.loads(l) for l in open(sys.argv[1])]' "$T/w.json" 2>&1)"

echo "1..$n"
