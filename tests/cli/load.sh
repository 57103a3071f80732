#!/bin/bash
# tests/cli/load.sh - many programs on one cache at once (TAP): for a
# bounded time (3 s; 60 s with SG_LONG_TESTS=1; SG_LOAD_SECONDS overrides)
# eight loops run on one cache file - two sweeps (one with --jobs 2), four
# series of analyses of random rules to growing --max, `cache list` and
# `plot --cache` - while a ninth kills one of the sweeps or analyses with
# SIGKILL every 0.2-0.5 s (seed $SG_SEED).  Afterwards every row is
# readable (`cache show` rebuilds its values and checks their checksum),
# every proven row's claim is confirmed by the brute-force judge
# tests/sweep_naive (which shares no code with libsg), no row is lost
# (every completed analysis and every row of a completed sweep is there,
# knowing at least what that run computed, and every row a `cache list`
# saw is still there), none is duplicated (one row per rule: each key is
# the canonical text `cache show` finds), and every `cache list` and
# `plot --cache` that was not killed succeeded.  Prints the figures that
# docs/RELIABILITY.md records.

SG=${SGEXPLORE:-sgexplore}
NAIVE=${abs_top_builddir:-.}/tests/sweep_naive
T=$(mktemp -d "${TMPDIR:-/tmp}/load.XXXXXX") || exit 1
trap 'kill $(jobs -p) 2>/dev/null; rm -rf "$T"' EXIT

. "$(dirname "$0")/tap.sh"

if ! command -v python3 >/dev/null 2>&1 || ! command -v sqlite3 >/dev/null 2>&1; then
    echo "1..0 # SKIP python3 and sqlite3 are needed to read the results"
    exit 0
fi
case $NAIVE in /*) ;; *) NAIVE=$PWD/$NAIVE ;; esac
secs=${SG_LOAD_SECONDS:-3}
[ "${SG_LONG_TESTS:-0}" = 1 ] && secs=${SG_LOAD_SECONDS:-60}
seed=${SG_SEED:-$$}
DB=$T/load.db
export SGEXPLORE_LOCK_TIMEOUT=60
deadline=$(($(date +%s%N) + secs * 1000000000))
plot_ok=0
command -v "${SGEXPLORE_GNUPLOT:-gnuplot}" >/dev/null 2>&1 && plot_ok=1

# run K LOG ARGS...: one program of loop K, its pid in $T/pid.K for the
# killer, "rc ARGS" appended to LOG.
run() {
    local k=$1 log=$2 p rc
    shift 2
    "$SG" "$@" --db "$DB" >"$T/out.$k" 2>"$T/err.$k" &
    p=$!
    echo $p >"$T/pid.$k"
    { wait $p; } 2>/dev/null # no "Killed" from bash
    rc=$?
    rm -f "$T/pid.$k"
    echo "$rc $*" >>"$log"
    return $rc
}
alive() { [ "$(date +%s%N)" -lt "$deadline" ]; }

# Sweeps: the same family to a growing --max, so rows are extended; the
# rows of a completed sweep are kept for the check.
sweeper() {
    local k=$1 m=200
    shift
    while alive; do
        if run "$k" "$T/log.$k" sweep "$@" --max $m --format json; then
            python3 -c '
import json, sys
for line in open(sys.argv[1]):
    o = json.loads(line)
    if "rule" in o:
        print(o["rule"], sys.argv[2], o["status"])' "$T/out.$k" $m >>"$T/done.$k"
        fi
        [ $m -lt 25600 ] && m=$((m * 2)) # then rows only read
    done
}
# Analyses of random octal codes and subtraction sets.
analyst() {
    local k=$1 r m
    RANDOM=$((seed + k))
    while alive; do
        case $((RANDOM % 3)) in
            0) r=0.$((RANDOM % 8))$((RANDOM % 8)) ;;
            1) r=0.$((RANDOM % 8))$((RANDOM % 8))$((RANDOM % 8)) ;;
            *) r="subtract{$((RANDOM % 5 + 1)),$((RANDOM % 9 + 6))}" ;;
        esac
        m=$(((RANDOM % 4 + 1) * 2500))
        if run "$k" "$T/log.$k" --rule "$r" --max $m --json; then
            python3 -c '
import json, sys
o = json.load(open(sys.argv[1]))
print(o["rule"], sys.argv[2], o["status"])' "$T/out.$k" $m >>"$T/done.$k"
        fi
    done
}
lister() {
    local k=$1
    while alive; do
        run "$k" "$T/log.$k" cache list --format json &&
            sed -n 's/^{"rule":"\([^"]*\)".*/\1/p' "$T/out.$k" >>"$T/seen"
    done
}
plotter() {
    local k=$1
    while alive; do
        if [ -s "$DB" ]; then
            run "$k" "$T/log.$k" plot --cache -o "$T/p$k.svg"
        else
            sleep 0.05
        fi
    done
}
killer() {
    local p kills=0
    RANDOM=$seed
    while alive; do
        sleep "0.$((RANDOM % 3 + 2))"
        p=$(cat "$T"/pid.[1-6] 2>/dev/null | shuf -n 1 --random-source=<(yes $RANDOM))
        if [ -n "$p" ] && grep -q sgexplore "/proc/$p/cmdline" 2>/dev/null &&
            kill -KILL "$p" 2>/dev/null; then
            kills=$((kills + 1))
        fi
    done
    echo $kills >"$T/kills"
}

sweeper 1 octal --digits 2 &
sweeper 2 subtract --size 1-2 --max-element 9 --jobs 2 &
for k in 3 4 5 6; do analyst $k & done
lister 7 &
plotter 8 &
killer &
wait

# The figures.
runs=$(cat "$T"/log.* | wc -l)
killed=$(cat "$T"/log.* | grep -c '^137 ')
kills=$(cat "$T/kills")
echo "# $secs s, seed $seed: $runs programs, $kills SIGKILLs sent, $killed runs died of one"
fails=$(cat "$T"/log.* | grep -v '^0 \|^137 ')
check "every run not killed succeeded (no 'database is locked', no damaged row)" \
    test -z "$fails"
[ -n "$fails" ] && sed 's/^/# /' <<<"$fails" | head -5 && cat "$T"/err.* | sed 's/^/# /' | head -5
check "some of each kind ran: $(grep -c . "$T/log.1") + $(grep -c . "$T/log.2") sweeps, $(cat "$T"/log.[3-6] | wc -l) analyses, $(grep -c . "$T/log.7") lists, $(cat "$T/log.8" 2>/dev/null | wc -l) plots" \
    bash -c '[ -s "$1/log.1" ] && [ -s "$1/log.3" ] && [ -s "$1/log.7" ]' _ "$T"
if [ $plot_ok = 0 ]; then
    skip "plot --cache: gnuplot is not installed"
else
    check "every plot --cache not killed drew a figure" \
        bash -c '! grep -qv "^0 \|^137 " "$1/log.8" 2>/dev/null && grep -q "^0 " "$1/log.8"' _ "$T"
fi

"$SG" cache list --db "$DB" --format json >"$T/final.json" 2>"$T/final.err"
check "cache list reads the cache afterwards (exit 0, nothing on stderr)" \
    bash -c '[ "$2" = 0 ] && [ ! -s "$1/final.err" ]' _ "$T" $?
# rows: RULE STATUS COMPUTED; claims: the proven rows small enough for
# the judge (n0 + p <= 5000), sets written as lists (it reads no ranges).
python3 - "$T" <<'EOF' >"$T/rows"
import json, re, sys
t = sys.argv[1]
claims = open(t + "/claims", "w")
def lists(rule):
    return re.sub(r"(\d+)-(\d+)", lambda m: ",".join(
        str(i) for i in range(int(m[1]), int(m[2]) + 1)), rule)
for line in open(t + "/final.json"):
    o = json.loads(line)
    if "rule" not in o:
        continue
    print(o["rule"], o["status"], o["computed"])
    if o["status"] == "periodic" and o["preperiod"] + o["period"] <= 5000:
        print(lists(o["rule"]), o["preperiod"], o["period"], o["saltus"],
              file=claims)
EOF
nrows=$(wc -l <"$T/rows")
dups=$(cut -d' ' -f1 "$T/rows" | sort | uniq -d | wc -l)
sqldups=$(sqlite3 "$DB" "SELECT count(*) FROM (SELECT rule FROM rules GROUP BY rule HAVING count(*) > 1)")
check "$nrows rows, none listed twice" test "$dups/$sqldups" = 0/0

# Every row readable, under its canonical key.
bad=0
while read -r rule _; do
    if ! "$SG" cache show "$rule" --db "$DB" --json 2>"$T/show.err" |
        grep -qF "{\"rule\":\"$rule\","; then
        bad=$((bad + 1))
        echo "# $rule: $(head -1 "$T/show.err")"
    fi
done <"$T/rows"
check "every row readable with its values and checksum, under its canonical key ($bad not)" test $bad = 0

# Proven rows against the brute-force judge.
if [ -s "$T/claims" ]; then
    "$NAIVE" <"$T/claims" >"$T/judge" 2>&1
    check "the judge confirms the $(wc -l <"$T/claims") proven rows with n0 + p <= 5000" \
        bash -c '[ "$2" = 0 ] && ! grep -v "^ok " "$1/judge"' _ "$T" $?
else
    skip "no proven row to judge"
fi

# None lost: every completed run's rule knows at least what that run did.
lost=$(cat "$T"/done.* 2>/dev/null | python3 -c '
import sys
rows = {}
for line in open(sys.argv[1]):
    f = line.split()
    rows[f[0]] = (f[1], int(f[2]))
n = 0
for line in sys.stdin:
    rule, m, status = line.split()
    have = rows.get(rule)
    if have is None or (have[0] == "unresolved" and
                        (status != "unresolved" or have[1] < int(m))):
        print("#", rule, "max", m, status, "->", have)
        n += 1
print(n)' "$T/rows")
completed=$(cat "$T"/done.* 2>/dev/null | wc -l)
check "none lost: the rows of $completed completed runs all there ($(tail -1 <<<"$lost") short)" \
    test "$(tail -1 <<<"$lost")" = 0
sed '$d' <<<"$lost" | head -5
gone=$(sort -u "$T/seen" 2>/dev/null | comm -23 - <(cut -d' ' -f1 "$T/rows" | sort -u) | wc -l)
check "every row a cache list saw is still there ($gone not)" test "$gone" = 0

echo "1..$n"
