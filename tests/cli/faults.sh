#!/bin/bash
# tests/cli/faults.sh - faults around a run (TAP): a cache locked by
# another process for a long time (the run waits $SGEXPLORE_LOCK_TIMEOUT
# seconds, prints its answer, says the cache is locked and exits 1; reads
# still work), the cache deleted mid-run, stdout closed or full for every
# command, and SIGINT/SIGTERM at seeded random moments of long runs, each
# followed by a rerun that must end with exactly the values of an
# uninterrupted run; and the limits of sgexplore(1) (LIMITS), each refused
# at once with one line.
#
# SG_SIGNAL_MOMENTS=N sets the number of seeded moments (default 12, or
# 70 in the slow tier, SG_SLOW_TESTS=1); SG_SIGNAL_SEED the first seed
# (default SG_TEST_SEED, else the clock; moment i uses seed + i), printed
# so that SG_SIGNAL_SEED=S replays the same moments.

SG=${SGEXPLORE:-sgexplore}
T=$(mktemp -d "${TMPDIR:-/tmp}/faults2.XXXXXX") || exit 1
trap 'kill $(jobs -p) 2>/dev/null; rm -rf "$T"' EXIT
unset SGEXPLORE_DB

. "$(dirname "$0")/tap.sh"

answer() { grep -v '^source: '; }

# --- a cache locked by another process -----------------------------------
"$SG" --db "$T/lock.db" 0.07 >/dev/null
"$SG" --no-cache --subtract 2,5 | answer >"$T/lock.golden"
if command -v sqlite3 >/dev/null 2>&1; then
    cp "$T/lock.db" "$T/lock.before"
    # Another program holds a write lock for 30 s.
    (echo "BEGIN EXCLUSIVE;"; sleep 30; echo "COMMIT;") |
        sqlite3 "$T/lock.db" &
    holder=$!
    sleep 0.5
    t0=$(date +%s%N)
    SGEXPLORE_LOCK_TIMEOUT=2 "$SG" --db "$T/lock.db" --subtract 2,5 \
        >"$T/out" 2>"$T/err"
    rc=$?
    ms=$((($(date +%s%N) - t0) / 1000000))
    echo "# locked cache: exit $rc after $ms ms"
    check "locked cache: the run gives up after the 2 s wait, not 30 s" \
        test $ms -ge 1500 -a $ms -lt 15000
    check "locked cache: the answer is still printed" \
        cmp -s <(answer <"$T/out") "$T/lock.golden"
    check "locked cache: exit 1 with one line saying it is locked" \
        bash -c '[ $1 = 1 ] && [ $(wc -l <"$2") = 1 ] && grep -q "locked by another process" "$2"' \
        _ $rc "$T/err"
    out=$(SGEXPLORE_LOCK_TIMEOUT=2 "$SG" --db "$T/lock.db" 0.07 2>"$T/err")
    check "locked cache: a cached rule is read meanwhile (exit 0, source cache)" \
        bash -c '[ $? = 0 ] && grep -qx "source: cache" <<<"$1" && [ ! -s "$2" ]' _ "$out" "$T/err"
    kill $holder 2>/dev/null
    wait $holder 2>/dev/null
    out=$("$SG" --db "$T/lock.db" --subtract 2,5 2>&1)
    check "locked cache: once released, the cache is intact and takes the row" \
        bash -c '[ $? = 0 ] && "$1" cache list --db "$2" | grep -q "^subtract{2,5} "' _ "$SG" "$T/lock.db"
else
    for i in 1 2 3 4 5; do skip "sqlite3 not installed"; done
fi

# --- the cache deleted mid-run -------------------------------------------
"$SG" --no-cache --grundy --max 200000 | answer >"$T/del.golden"
mkdir "$T/del"
"$SG" --db "$T/del/c.db" --grundy --max 200000 >"$T/out" 2>"$T/err" &
pid=$!
sleep 0.3
rm -rf "$T/del"
wait $pid
rc=$?
echo "# cache deleted mid-run: exit $rc, stderr: $(head -c 200 "$T/err")"
check "cache deleted mid-run: no crash (exit 0 or 1)" test $rc -le 1
check "cache deleted mid-run: the answer is right" \
    cmp -s <(answer <"$T/out") "$T/del.golden"
check "cache deleted mid-run: a failure is said in one line" \
    bash -c '[ $1 = 0 ] || [ $(wc -l <"$2") = 1 ]' _ $rc "$T/err"
mkdir "$T/del"
"$SG" --db "$T/del/c.db" --grundy --max 200000 >"$T/out" 2>"$T/err"
check "cache deleted mid-run: a rerun starts a new cache and agrees" \
    bash -c '[ $? = 0 ] && cmp -s <(grep -v "^source: " "$1") "$2"' _ "$T/out" "$T/del.golden"

# --- stdout closed or full -----------------------------------------------
"$SG" --db "$T/out.db" 0.07 --export-certificate "$T/c.cert" >/dev/null
cmds=(
    "--db $T/out.db 0.07"
    "--db $T/out.db 0.07 --json"
    "--db $T/out.db 0.07 --values 0:999 --quiet"
    "--db $T/out.db 0.07 --heap 10^18 --position 3,5,7"
    "verify --certificate $T/c.cert"
    "cache list --db $T/out.db"
    "cache list --db $T/out.db --format json"
    "cache show 0.07 --db $T/out.db"
    "cache path --db $T/out.db"
    "--help"
    "--version"
)
for c in "${cmds[@]}"; do
    # shellcheck disable=SC2086
    "$SG" $c >&- 2>"$T/err"
    rc=$?
    check "stdout closed: sgexplore $c: exit 1 with one line" \
        bash -c '[ $1 = 1 ] && [ $(wc -l <"$2") = 1 ] && grep -q "cannot write" "$2"' _ $rc "$T/err"
    # shellcheck disable=SC2086
    "$SG" $c >/dev/full 2>"$T/err"
    rc=$?
    check "stdout full: sgexplore $c: exit 1 with one line" \
        bash -c '[ $1 = 1 ] && [ $(wc -l <"$2") = 1 ] && grep -q "cannot write" "$2"' _ $rc "$T/err"
done

# --- limits (sgexplore(1), LIMITS) ------------------------------------------
# limit NAME WORDS ARGS...: exit 2 at once with one line saying WORDS.
limit() {
    local name=$1 words=$2
    shift 2
    "$SG" --no-cache "$@" >"$T/out" 2>"$T/err"
    check "limit: $name: exit 2 with one line saying '$words'" \
        bash -c '[ $1 = 2 ] && [ ! -s "$2" ] && [ $(wc -l <"$3") = 1 ] && grep -q -- "$4" "$3"' \
        _ $? "$T/out" "$T/err" "$words"
}
limit "--max beyond memory" "GiB of memory" 0.07 --max 10^15
limit "--max 2^63" "at most 2^63 - 1" 0.07 --max 2^63
limit "a 4097-character number" "longer than 4096 characters" \
    0.07 --heap "$(printf '1%.0s' $(seq 4097))"
limit "an exponent above 100000" "exponents above 100000" 0.07 --heap 10^100001
limit "a --values range of 10^8 + 1" "at most 100000000 values" 0.07 --values 0:100000000
limit "a list of more than 2^24 numbers" "more than 16777216" \
    --subtract 1-16777217
printf '1,%.0s' $(seq 40000) >"$T/long.pos"
echo 1 >>"$T/long.pos"
limit "a --positions line over 65536 characters" "longer than 65536" \
    0.07 --positions "$T/long.pos"

# --- SIGINT and SIGTERM at seeded random moments -----------------------
# A run of Grundy's game taking about a second; each moment sends INT or
# TERM after a delay drawn from the seed, anywhere from before the cache
# is opened to after the values are stored; then a rerun must end with
# exactly the values of an uninterrupted run (all of them compared).
MOMENTS=12
[ "${SG_SLOW_TESTS:-0}" = 1 ] && MOMENTS=70
MOMENTS=${SG_SIGNAL_MOMENTS:-$MOMENTS}
SEED=${SG_SIGNAL_SEED:-${SG_TEST_SEED:-$(date +%s)}}
MAX=150000
"$SG" --no-cache --grundy --max $MAX --values 0:$((MAX - 1)) --quiet |
    md5sum >"$T/sig.golden"
t0=$(date +%s%N)
"$SG" --db "$T/time.db" --grundy --max $MAX >/dev/null
span=$((($(date +%s%N) - t0) / 1000000 + 50))
echo "# signals: $MOMENTS moments from seed $SEED over 0..$span ms" \
    "(SG_SIGNAL_SEED=$SEED SG_SIGNAL_MOMENTS=$MOMENTS replays them)"
interrupted=0 finished=0 early=0 bad=()
for ((i = 0; i < MOMENTS; i++)); do
    RANDOM=$((SEED + i))
    delay=$((RANDOM % span))
    sig=$([ $((RANDOM % 2)) = 0 ] && echo INT || echo TERM)
    db=$T/sig$i.db
    # timeout(1) signals its own child, which nothing else reaps.  A kill
    # by PID after the run had finished could reach whatever process got
    # the PID since (pid_max is 32768 on these machines, and
    # alloc_fail.sh, which make check runs beside this test, forks
    # thousands): the likely cause of an alloc_fail.sh failure in CI that
    # never came back here.
    # (timeout 0 would mean no timeout: 1 ms at the least.)
    [ $delay = 0 ] && delay=1
    # --foreground: without it timeout follows the signal with a SIGCONT,
    # which cancels the SIGSTOP that LeakSanitizer's exit-time tracer
    # sends the program, and the tracer then waits for that stop for ever
    # (a trial CI run hung so, at exit after a SIGINT, until stopped by
    # hand).  The signal then goes to the program only.
    timeout --foreground --preserve-status -s $sig \
        "$(printf '%d.%03d' $((delay / 1000)) $((delay % 1000)))" \
        "$SG" --db "$db" --grundy --max $MAX >/dev/null 2>"$T/err"
    rc=$?
    if [ $rc = 0 ]; then
        finished=$((finished + 1))
    elif [ $rc = 1 ] && [ "$(wc -l <"$T/err")" = 1 ] &&
        grep -q interrupted "$T/err"; then
        interrupted=$((interrupted + 1))
    elif [ $rc = $((128 + $(kill -l $sig))) ] && [ ! -s "$T/err" ]; then
        # the signal came before the program had installed its handlers
        # (a fork or a sanitizer's start-up takes milliseconds): killed by
        # it, silently; what it stored must still be right
        early=$((early + 1))
    else
        bad+=("seed $((SEED + i)): $sig after $delay ms: exit $rc: $(head -c 150 "$T/err")")
        continue
    fi
    sum=$("$SG" --db "$db" --grundy --max $MAX --values 0:$((MAX - 1)) --quiet 2>&1 | md5sum)
    if [ "$sum" != "$(cat "$T/sig.golden")" ]; then
        bad+=("seed $((SEED + i)): $sig after $delay ms: the rerun's values differ")
    fi
    rm -f "$db" "$db-wal" "$db-shm"
done
echo "# signals: $interrupted interrupted, $finished finished first, $early killed before the handlers, ${#bad[@]} wrong"
for b in "${bad[@]:0:10}"; do echo "#   $b"; done
check "signals: every one of $MOMENTS seeded moments stops cleanly and the rerun has the right values" \
    test ${#bad[@]} = 0
check "signals: some moments did interrupt the run" test $interrupted -gt 0

echo "1..$n"
exit $((fails > 0))
