#!/bin/bash
# tests/cli/sweep_worker.sh - a sweep's worker that dies between two rules
# (TAP).  The worker has sent its row and is about to read its next task;
# the sweep's next write to it then finds no reader.  Before the fix the
# sweep itself died of SIGPIPE (exit 141, the rest of its rows never
# printed).  Now it says so in one line, hands the rule to the other
# worker and ends with exit 1 and every row.  strace makes the moment
# exact: it holds back the sweep's writes and kills the worker at its next
# read of its task pipe, so the test does not depend on luck.

SG=${SGEXPLORE:-sgexplore}
T=$(mktemp -d "${TMPDIR:-/tmp}/sweep_worker.XXXXXX") || exit 1
trap 'kill $held 2>/dev/null; rm -rf "$T"' EXIT

. "$(dirname "$0")/tap.sh"

for c in strace python3; do
    if ! command -v $c >/dev/null 2>&1; then
        echo "1..0 # SKIP $c is not installed"
        exit 0
    fi
done
# ptrace may be forbidden (a container, yama): then there is nothing to test
if ! strace -o /dev/null true 2>/dev/null; then
    echo "1..0 # SKIP strace cannot trace here"
    exit 0
fi

ARGS=(octal --digits 2 --max 25000 --jobs 2 --format json)
"$SG" sweep "${ARGS[@]}" --no-cache 2>/dev/null | grep -o '^{"rule":"[^"]*"' |
    sort >"$T/all"

outcome=none
for try in 1 2 3; do
    rm -f "$T"/w.db*
    sweep_first_row "$T/w.db" "$T/w.json" "$T/w.err" "${ARGS[@]}"
    if [ -z "$victim" ]; then
        wait "$pid"
        continue
    fi
    # every write of the sweep waits 0.3 s, so the worker reads first
    strace -o /dev/null -p "$pid" -e trace=write \
        -e inject=write:delay_enter=300000 2>/dev/null &
    held=$!
    sleep 0.1
    # its task pipe: the one pipe it holds open for reading (the kill must
    # come at that read, not at one of /proc that a sanitizer makes)
    task=
    for f in /proc/"$victim"/fd/*; do
        l=$(readlink "$f") || continue
        case $l in
        pipe:*)
            [ "$(awk '/^flags/ {print substr($2, length($2)) % 2}' \
                /proc/"$victim"/fdinfo/"${f##*/}")" = 0 ] && task=$l ;;
        esac
    done
    if [ -z "$task" ]; then
        kill $held 2>/dev/null
        wait "$pid"
        continue
    fi
    strace -o /dev/null -P "$task" -p "$victim" -e trace=read \
        -e inject=read:signal=SIGKILL:when=1 2>/dev/null &
    killer=$!
    # once the worker is dead, the sweep runs on untraced (LeakSanitizer
    # refuses to run in a traced process)
    wait $killer
    kill $held 2>/dev/null
    wait $held 2>/dev/null
    wait "$pid"
    rc=$?
    if grep -q 'between rules' "$T/w.err"; then
        outcome=between
        break
    fi
    # the worker was killed in the middle of a rule after all (the sweep
    # wrote its task before the hold took hold): that is sweep_kill.sh's
    # case, try again
    outcome="exit $rc, $(head -n 1 "$T/w.err")"
done
check "the moment came: a worker killed between two rules ($outcome)" \
    test "$outcome" = between
check "  exit status 1 (not 141: the sweep did not die of SIGPIPE) (exit $rc)" \
    test "$rc" = 1
check "  one line says a worker stopped between rules" \
    test "$(cat "$T/w.err")" = "sgexplore: a worker stopped between rules (signal 9)"
check "  every rule's row is there, none twice" \
    test -z "$(grep -o '^{"rule":"[^"]*"' "$T/w.json" | sort | diff - "$T/all")"
check "  every row is whole JSON" \
    test -z "$(python3 -c 'import json,sys; [json.loads(l) for l in open(sys.argv[1])]' "$T/w.json" 2>&1)"
if command -v sqlite3 >/dev/null 2>&1; then
    check "  PRAGMA integrity_check says ok" \
        test "$(sqlite3 "$T/w.db" 'PRAGMA integrity_check' 2>&1)" = ok
fi

echo "1..$n"
