# tests/cli/tap.sh - the TAP helpers every CLI test script sources:
# numbered "ok"/"not ok"/"# SKIP" lines, check DESCRIPTION COMMAND..., and text
# predicates; and the helpers several scripts share (a sweep's first row,
# gnuplot or not, a sweep's rows as a table), written once here.  Each
# script ends with: echo "1..$n".
n=0
fails=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
skip() { n=$((n + 1)); echo "ok $n # SKIP $1"; }
not_ok() { n=$((n + 1)); fails=$((fails + 1)); echo "not ok $n - $1"; }
# check DESCRIPTION COMMAND...: ok when the command succeeds.
check() {
    local d=$1
    shift
    if "$@"; then ok "$d"; else not_ok "$d"; fi
}
has() { grep -qx -- "$2" <<<"$1"; }      # an exact line in the text
contains() { grep -q -- "$2" <<<"$1"; }  # a substring or regex in the text
# sweep_first_row DB OUT ERR ARGS...: start `$SG sweep ARGS --db DB` in
# the background (its pid in $pid, stdout OUT, stderr ERR), wait up to 10 s
# for its first row, then set $victim to one of its workers still running
# (a zombie has finished its work), or to nothing.
sweep_first_row() {
    local db=$1 out=$2 errf=$3
    shift 3
    "$SG" sweep "$@" --db "$db" >"$out" 2>"$errf" &
    pid=$!
    for _ in $(seq 1 500); do
        grep -q '^{"rule"' "$out" && break
        sleep 0.02
    done
    victim=$(ps -o pid=,stat= --ppid "$pid" | awk '$2 !~ /^Z/ {print $1; exit}')
}
# find_gnuplot: have_gp=1 when the gnuplot the program would run
# ($SGEXPLORE_GNUPLOT, else gnuplot on PATH) is an executable, else 0.
find_gnuplot() {
    local gp=${SGEXPLORE_GNUPLOT:-$(command -v gnuplot)}
    have_gp=0
    if [ -n "$gp" ] && [ -x "$gp" ]; then have_gp=1; fi
}
# gp_check DESCRIPTION COMMAND...: a check that needs gnuplot (after
# find_gnuplot; SKIP without it).
gp_check() {
    if [ $have_gp = 1 ]; then check "$@"; else skip "$1 (no gnuplot)"; fi
}
# sweep_table: a sweep's JSON rows (stdin) as "rule status n0 p s
# computed" lines, tab-separated and sorted; the summary left out.
sweep_table() {
    python3 -c '
import json, sys
rows = []
for line in sys.stdin:
    o = json.loads(line)
    if "summary" in o:
        continue
    f = lambda k: "-" if o[k] is None else str(o[k])
    rows.append("\t".join([o["rule"], o["status"], f("preperiod"),
                           f("period"), f("saltus"), str(o["computed"])]))
print("\n".join(sorted(rows)))'
}
