#!/bin/bash
# tests/cli/cache_interrupt.sh - Ctrl-C and SIGTERM during a long run (TAP):
# the program stops promptly with exit status 1 and one line saying what
# was kept, the computed prefix is in the cache, and a rerun resumes from
# it ("source: extended") to exactly the values of an uninterrupted run.

SG=${SGEXPLORE:-sgexplore}
T=$(mktemp -d "${TMPDIR:-/tmp}/interrupt.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT
export SGEXPLORE_DB="$T/cache.db"

. "$(dirname "$0")/tap.sh"

# Start a run of Grundy's game and send SIG after 1 s.  Makes --max larger
# until the run is still going when the signal comes (faster enumerators
# need more work to be interrupted), up to 64 million values.
interrupt() {
    local sig=$1 max=200000 pid t0
    while :; do
        "$SG" --grundy --max $max >"$T/out" 2>"$T/err" &
        pid=$!
        sleep 1
        if kill -0 $pid 2>/dev/null; then
            t0=$(date +%s%N)
            kill -s "$sig" $pid
            wait $pid
            rc=$?
            stop_ms=$((($(date +%s%N) - t0) / 1000000))
            MAX=$max
            # Finished just before the signal arrived: try a longer run.
            [ $rc -ne 0 ] && return 0
        fi
        wait $pid
        [ $max -ge 64000000 ] && return 1
        "$SG" cache drop '4!.0' >/dev/null 2>&1
        max=$((max * 4))
    done
}

for sig in INT TERM; do
    rm -f "$SGEXPLORE_DB"*
    if ! interrupt $sig; then
        for i in 1 2 3 4 5 6 7; do
            n=$((n + 1)); echo "ok $n # SKIP runs finish before a signal can arrive"
        done
        continue
    fi
    check "SIG$sig: exit status 1" test $rc -eq 1
    check "SIG$sig: stopped within a second of the signal ($stop_ms ms)" \
        test $stop_ms -lt 1000
    check "SIG$sig: one line saying the values are stored and a rerun continues" \
        bash -c '[ $(wc -l <"$1") = 1 ] && grep -q "interrupted after [0-9]* values" "$1" && grep -q "rerun continues" "$1"' _ "$T/err"
    kept=$("$SG" cache list --format json | sed -n 's/^{"rule":"4!\.0".*"computed":\([0-9]*\),.*/\1/p')
    check "SIG$sig: the cache holds a prefix (${kept:-none} of $MAX values)" \
        test -n "$kept" -a "${kept:-0}" -gt 0 -a "${kept:-0}" -lt $MAX
    if command -v sqlite3 >/dev/null 2>&1; then
        check "SIG$sig: PRAGMA integrity_check says ok" \
            test "$(sqlite3 "$SGEXPLORE_DB" 'PRAGMA integrity_check')" = ok
    else
        n=$((n + 1)); echo "ok $n # SKIP sqlite3 not installed"
    fi
    # Resume, then compare every value with an uninterrupted run.
    out=$("$SG" --grundy --max $MAX)
    check "SIG$sig: the rerun resumes from the stored prefix" \
        bash -c 'grep -qx "source: extended" <<<"$1" && grep -q "n < $2)" <<<"$1"' _ "$out" "$MAX"
    a=$("$SG" --grundy --max $MAX --values 0:$((MAX - 1)) --quiet | md5sum)
    b=$("$SG" --grundy --max $MAX --values 0:$((MAX - 1)) --quiet --no-cache | md5sum)
    check "SIG$sig: resumed values equal an uninterrupted run's" test "$a" = "$b"
done

echo "1..$n"
exit $((fails > 0))
