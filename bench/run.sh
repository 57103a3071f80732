#!/bin/bash
# bench/run.sh - the benchmarks behind `make bench` (never part of
# `make check`).  For each case of docs/BENCHMARKS.md it runs bench/sgbench
# (one process per measurement, so peak memory is per case), three times
# when a run is short, and prints the median: values per second, peak
# memory, and the speed-up over the naive reference method on the same
# size where the naive method finishes in reasonable time.  A proof's
# analysis/enumeration ratio comes from interleaved pairs of runs
# (pair_ratio: nine when the analysis takes under a second, three when it
# is repeated at all), otherwise from one run each.  Deep runs
# (docs/DEEP.md) use their default window.
#
# Environment: SGBENCH (the driver, set by `make bench`), SG_BENCH_RUNS
# (repetitions, default 3; --threads cases: interleaved rounds),
# SG_BENCH_LONG=0 to leave out the case that
# takes about a minute (0.1777 proven), SG_BENCH_TIMEOUT (seconds per run,
# default 150).  Cases with a target from the issue say whether it was met.

set -u

SGBENCH=${SGBENCH:-./bench/sgbench}
RUNS=${SG_BENCH_RUNS:-3}
LONG=${SG_BENCH_LONG:-1}
TIMEOUT=${SG_BENCH_TIMEOUT:-150}
# A run longer than this is not repeated (its median is that one run).
REPEAT_LIMIT=20
# threads_case: a round of all thread counts longer than this is not
# repeated.
THREADS_ROUND_LIMIT=${SG_BENCH_ROUND_LIMIT:-150}

if ! test -x "$SGBENCH"; then
    echo "bench: $SGBENCH not found (run 'make bench')" >&2
    exit 1
fi

field() { # field KEY LINE
    local kv
    for kv in $2; do
        case $kv in "$1="*) echo "${kv#*=}"; return ;; esac
    done
}

# measure ARGS...: run sgbench up to RUNS times; sets M_LINE to the output
# of the run with the median wall time, M_RUNS to the number of runs, and
# returns 1 when a run failed or timed out.
measure() {
    local i line wall walls=() lines=()
    M_LINE= M_RUNS=0
    for ((i = 0; i < RUNS; i++)); do
        if ! line=$(timeout "$TIMEOUT" "$SGBENCH" "$@"); then
            return 1
        fi
        wall=$(field wall "$line")
        walls+=("$wall")
        lines+=("$line")
        M_RUNS=$((M_RUNS + 1))
        if awk -v w="$wall" -v l="$REPEAT_LIMIT" 'BEGIN { exit !(w > l) }'; then
            break
        fi
    done
    i=$(for j in "${!walls[@]}"; do echo "${walls[$j]} $j"; done |
        sort -g | awk -v n="$M_RUNS" 'NR == int((n + 1) / 2) { print $2 }')
    M_LINE=${lines[$i]}
    return 0
}

mb() { awk -v k="$1" 'BEGIN { printf "%.1f", k / 1024 }'; }

row() { # row CASE N METHOD
    printf '%-34s %11s %-7s %4s %9s %9s %10s %8s %s\n' "$@"
}

# target LINE: the verdict on the targets set for a case by T_WALL (most
# seconds), T_VPS (fewest values per second) and T_MB (most peak MB).
target() {
    local line=$1 out= ok=met
    [ -n "${T_WALL:-}${T_VPS:-}${T_MB:-}" ] || return 0
    if [ -n "${T_WALL:-}" ]; then
        out="wall <= $T_WALL s"
        awk -v w="$(field wall "$line")" -v t="$T_WALL" 'BEGIN { exit !(w <= t) }' || ok=MISSED
    fi
    if [ -n "${T_VPS:-}" ]; then
        out="${out:+$out, }values/s >= $T_VPS"
        awk -v v="$(field vps "$line")" -v t="$T_VPS" 'BEGIN { exit !(v >= t) }' || ok=MISSED
    fi
    if [ -n "${T_MB:-}" ]; then
        out="${out:+$out, }peak <= $T_MB MB"
        awk -v k="$(field maxrss_kb "$line")" -v t="$T_MB" 'BEGIN { exit !(k / 1024 <= t) }' || ok=MISSED
    fi
    echo "; target $out: $ok"
}

# parity LINE: how the sparse mask used the heap's parity, if it did.
parity() {
    case $(field parity "$1") in
    h) echo " with h mod 2" ;;
    h+1) echo " with (h+1) mod 2" ;;
    esac
}

# enum_case LABEL RULE N [HOW]: enumeration of G(0..N-1) by the method
# sg_enumerate picks (or HOW: sparse1 = sparse without the helper thread).
enum_case() {
    local label=$1 rule=$2 n=$3 how=${4:-auto}
    if measure enum "$rule" "$n" "$how"; then
        row "$label" "$n" "$(field method "$M_LINE")" "$M_RUNS" \
            "$(field wall "$M_LINE")" "$(field cpu "$M_LINE")" \
            "$(field vps "$M_LINE")" "$(mb "$(field maxrss_kb "$M_LINE")")" \
            "max $(field max "$M_LINE"), rare $(field rare "$M_LINE"), mask $(field mask "$M_LINE")$(parity "$M_LINE")$(target "$M_LINE")"
    else
        row "$label" "$n" "-" "-" "-" "-" "-" "-" "skipped: over ${TIMEOUT} s or failed"
    fi
}

# deep_case LABEL RULE N: a deep run (docs/DEEP.md: values kept in a
# window behind the current heap) to N values, with its default window.
deep_case() {
    local label=$1 rule=$2 n=$3
    if measure deep "$rule" "$n"; then
        row "$label" "$n" "deep" "$M_RUNS" \
            "$(field wall "$M_LINE")" "$(field cpu "$M_LINE")" \
            "$(field vps "$M_LINE")" "$(mb "$(field maxrss_kb "$M_LINE")")" \
            "window $(field window "$M_LINE"), max $(field max "$M_LINE"), rare $(field rare "$M_LINE")$(target "$M_LINE")"
    else
        row "$label" "$n" "deep" "-" "-" "-" "-" "-" "skipped: over ${TIMEOUT} s or failed"
    fi
}

# threads_case LABEL MODE RULE N: `sgbench MODE RULE N` (enum or deep)
# with --threads T = 1, 2, 4, ... and the machine's processor count
# (nproc), interleaved (T = 1, 2, ..., then again) for up to RUNS rounds
# (one when a round takes over REPEAT_LIMIT s), the median wall and CPU of
# each T, and its wall-clock speed-up over one thread in the same rounds.
threads_case() {
    local label=$1 mode=$2 rule=$3 n=$4 r t line start ts=() np
    local -A walls cpus rss
    np=$(nproc)
    for ((t = 1; t <= np; t *= 2)); do ts+=("$t"); done
    [ "${ts[-1]}" = "$np" ] || ts+=("$np")
    for ((r = 0; r < RUNS; r++)); do
        start=$SECONDS
        for t in "${ts[@]}"; do
            if ! line=$(SGBENCH_THREADS=$t timeout "$TIMEOUT" "$SGBENCH" \
                "$mode" "$rule" "$n"); then
                row "$label, $t threads" "$n" "$mode" "-" "-" "-" "-" "-" \
                    "skipped: over ${TIMEOUT} s or failed"
                return
            fi
            walls[$t]+="$(field wall "$line") "
            cpus[$t]+="$(field cpu "$line") "
            rss[$t]=$(field maxrss_kb "$line")
        done
        # (at least two rounds when one takes under THREADS_ROUND_LIMIT)
        ((SECONDS - start > THREADS_ROUND_LIMIT)) && { r=$((r + 1)); break; }
    done
    ((r > RUNS)) && r=$RUNS
    local one w c
    one=$(printf '%s\n' ${walls[1]} | sort -g | sed -n "$(((r + 1) / 2))p")
    for t in "${ts[@]}"; do
        w=$(printf '%s\n' ${walls[$t]} | sort -g | sed -n "$(((r + 1) / 2))p")
        c=$(printf '%s\n' ${cpus[$t]} | sort -g | sed -n "$(((r + 1) / 2))p")
        row "$label, $t thread$([ "$t" = 1 ] || echo s)" "$n" "$mode" "$r" \
            "$w" "$c" "$(awk -v n="$n" -v w="$w" 'BEGIN { printf "%.4g", n / w }')" \
            "$(mb "${rss[$t]}")" \
            "$(awk -v a="$one" -v b="$w" -v c="$c" -v n="$n" 'BEGIN {
                printf "wall x%.2f vs one thread, %.3g values per CPU-second", a / b, n / c }')"
    done
}

# ratio_case LABEL RULE N: the same size with both methods.
ratio_case() {
    local label=$1 rule=$2 n=$3 fast slow runs
    if measure enum "$rule" "$n" auto; then
        fast=$M_LINE runs=$M_RUNS
    else
        row "$label" "$n" "-" "-" "-" "-" "-" "-" "skipped"
        return
    fi
    if measure enum "$rule" "$n" naive; then
        slow=$M_LINE
    else
        row "$label" "$n" "naive" "-" "-" "-" "-" "-" "naive over ${TIMEOUT} s"
        return
    fi
    row "$label" "$n" "$(field method "$fast")" "$runs" \
        "$(field wall "$fast")" "$(field cpu "$fast")" "$(field vps "$fast")" \
        "$(mb "$(field maxrss_kb "$fast")")" \
        "$(awk -v a="$(field cpu "$slow")" -v b="$(field cpu "$fast")" \
            'BEGIN { if (b <= 0) b = 1e-6; printf "x%.1f vs naive (naive cpu %.3f s)", a / b, a }')"
}

# ratio LINE_A LINE_E: analysis over enumeration, CPU and wall; with
# T_RATIO set, whether the CPU ratio meets it (CPU time, because the wall
# clock of a loaded machine says little).
ratio() {
    awk -v ca="$(field cpu "$1")" -v ce="$(field cpu "$2")" \
        -v wa="$(field wall "$1")" -v we="$(field wall "$2")" \
        -v t="${T_RATIO:-}" 'BEGIN {
            if (ce <= 0) ce = 1e-6; if (we <= 0) we = 1e-6
            printf "; analysis/enumeration cpu x%.2f, wall x%.2f (enumeration cpu %.3f s)", ca / ce, wa / we, ce
            if (t != "") printf "; target cpu ratio <= %s: %s", t, ca / ce <= t ? "met" : "MISSED"
        }'
}

# pair_ratio RULE MAX N PAIRS: ratio's verdict from PAIRS interleaved
# pairs of runs (analysis to MAX, enumeration of its N values) and the
# median CPU time of each: runs of tens of ms, measured in two batches,
# gave 1.48 where interleaved ones gave 1.19, and 0.1777's 1.22 and 1.31
# in two batched runs of `make bench`, as the host's speed drifts.
pair_ratio() {
    local rule=$1 max=$2 n=$3 pairs=$4 i a e la le as=() es=()
    for ((i = 0; i < pairs; i++)); do
        a=$(timeout "$TIMEOUT" "$SGBENCH" analyse "$rule" "$max") || return
        e=$(timeout "$TIMEOUT" "$SGBENCH" enum "$rule" "$n") || return
        as+=("$(field cpu "$a") $(field wall "$a")")
        es+=("$(field cpu "$e") $(field wall "$e")")
    done
    la=$(printf '%s\n' "${as[@]}" | sort -g | sed -n "$(((pairs + 1) / 2))p")
    le=$(printf '%s\n' "${es[@]}" | sort -g | sed -n "$(((pairs + 1) / 2))p")
    set -- $la $le
    ratio "cpu=$1 wall=$2" "cpu=$3 wall=$4"
    printf ' (%d interleaved pairs)' "$pairs"
}

# analyse_case LABEL RULE MAX P N0: sg_analyse until proven, then the
# enumeration alone of as many values, for the ratio of the two (what the
# rounds and the proofs cost on top of the values).
analyse_case() {
    local label=$1 rule=$2 max=$3 p=$4 n0=$5 got aline aruns
    if measure analyse "$rule" "$max"; then
        aline=$M_LINE aruns=$M_RUNS
        got="p $(field period "$M_LINE") n0 $(field preperiod "$M_LINE")"
        if [ "$(field period "$M_LINE")" = "$p" ] &&
            [ "$(field preperiod "$M_LINE")" = "$n0" ]; then
            got="$got (as published)"
        else
            got="$got (published: p $p n0 $n0; status $(field status "$M_LINE"))"
        fi
        if awk -v w="$(field wall "$aline")" 'BEGIN { exit !(w < 1) }'; then
            # a short case: its ratio from 3 x RUNS interleaved pairs
            got="$got$(pair_ratio "$rule" "$max" "$(field computed "$aline")" $((3 * RUNS)))"
        elif [ "$aruns" -gt 1 ]; then
            # repeated (under REPEAT_LIMIT): RUNS interleaved pairs
            got="$got$(pair_ratio "$rule" "$max" "$(field computed "$aline")" "$RUNS")"
        elif measure enum "$rule" "$(field computed "$aline")"; then
            got="$got$(ratio "$aline" "$M_LINE")"
        fi
        M_LINE=$aline
        row "$label" "$(field computed "$M_LINE")" "analyse" "$aruns" \
            "$(field wall "$M_LINE")" "$(field cpu "$M_LINE")" \
            "$(field vps "$M_LINE")" \
            "$(mb "$(field maxrss_kb "$M_LINE")")" "$got$(target "$M_LINE")"
    else
        row "$label" "$max" "analyse" "-" "-" "-" "-" "-" "skipped: over ${TIMEOUT} s or failed"
    fi
}

echo "sgexplore benchmarks, $(date -u '+%Y-%m-%d %H:%M UTC')"
echo "machine: $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | sed 's/.*: //'), $(free -g 2>/dev/null | awk '/^Mem:/ { print $2 " GiB RAM" }')"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)"
echo "runs per case: median of up to $RUNS (one when a run takes over ${REPEAT_LIMIT} s); times in seconds; peak = ru_maxrss"
echo
row "case" "N" "method" "runs" "wall" "cpu" "values/s" "peak MB" "notes"
row "----" "-" "------" "----" "----" "---" "--------" "-------" "-----"

ratio_case "Grundy's game 4!.0 (vs naive)" '4!.0' 30000
enum_case "Grundy's game 4!.0" '4!.0' 1000000
enum_case "Grundy's game 4!.0, one thread" '4!.0' 1000000 sparse1
T_WALL=10 enum_case "Grundy's game 4!.0" '4!.0' 10000000
ratio_case "Officers 0.6 (vs naive)" '0.6' 30000
T_WALL=1 enum_case "Officers 0.6" '0.6' 1000000
enum_case "Officers 0.6, one thread" '0.6' 1000000 sparse1
ratio_case "Kayles 0.77 (vs naive)" '0.77' 30000
T_VPS=3e7 enum_case "Kayles 0.77" '0.77' 100000000
# Issue 14: Kayles-like games (few rare values) in the deep-run mode.
T_VPS=3e7 deep_case "Kayles 0.77, deep run" '0.77' 100000000
T_VPS=3e7 deep_case "0.167, deep run" '0.167' 100000000
# Issue 26: --threads T (interleaved; more rows where the machine has more
# processors).
threads_case "Grundy's game 4!.0" enum '4!.0' 10000000
threads_case "Officers 0.6" enum '0.6' 10000000
threads_case "Grundy's game 4!.0, deep run" deep '4!.0' 10000000
ratio_case "0.16 (vs naive)" '0.16' 30000
analyse_case "0.16 proven" '0.16' 10000000 149459 105351
# Issue 14, part 2: proofs whose period search used to dominate (0.376 took
# 436 s for a 3.2 s enumeration), each within 1.3x of its enumeration.
T_WALL=0.1 T_RATIO=1.3 analyse_case "0.56 proven" '0.56' 2000000 144 326640
T_WALL=6 T_RATIO=1.3 analyse_case "0.354 proven" '0.354' 60000000 1180 10061916
T_WALL=8 T_RATIO=1.3 analyse_case "0.376 proven" '0.376' 10000000 4 2268248
ratio_case "0.1777 (vs naive)" '0.1777' 30000
enum_case "0.1777" '0.1777' 10000000
if [ "$LONG" = 1 ]; then
    T_WALL=30 T_MB=600 T_RATIO=1.3 analyse_case "0.1777 proven" '0.1777' 600000000 60620715 160949018
else
    row "0.1777 proven" "443139470" "analyse" "-" "-" "-" "-" "-" "skipped (SG_BENCH_LONG=0)"
fi
# 0.106 has a sparse space only over (G(h), h mod 2) (issue 14).
ratio_case "0.106 (vs naive)" '0.106' 30000
T_WALL=0.03 enum_case "0.106" '0.106' 200000
T_WALL=10 enum_case "0.106" '0.106' 100000000
ratio_case "S={997,1999,2996} (vs naive)" 'subtract{997,1999,2996}' 4194304
T_WALL=0.1 analyse_case "S={997,1999,2996} proven" 'subtract{997,1999,2996}' 10000000 3990991 0
# Issue 26: moves that leave three heaps (hexadecimal digits 8 and up), by
# the word-at-a-time method of enum_three.c; 0.2048 to 2*10^4 took 71 s
# (65.7 s of CPU) by the method before it, the target is 5x faster.
ratio_case "0.2048 (vs naive)" '0.2048' 3000
ratio_case "0.8F (vs naive)" '0.8F' 3000
T_WALL=14 enum_case "0.2048" '0.2048' 20000

# graph_case LABEL FILE ARGS...: `sgexplore graph FILE ARGS` (the whole run:
# reading, hashing the names, the computation, one answer printed), timed
# by /usr/bin/time; the run with the median wall time of RUNS runs (cpu =
# user + system).  The values/s column is vertices over wall time.
graph_case() {
    local label=$1 file=$2 i line walls=() lines=() nv ne
    shift 2
    for ((i = 0; i < RUNS; i++)); do
        if ! line=$(timeout "$TIMEOUT" /usr/bin/time -f 'time %e %U %S %M' \
            "$SGEXPLORE" graph "$file" "$@" 2>&1 >"$GT/out"); then
            row "$label" "-" "graph" "-" "-" "-" "-" "-" "failed: $line"
            return
        fi
        line=$(grep '^time ' <<<"$line")
        walls+=("${line#time }")
    done
    line=$(printf '%s\n' "${walls[@]}" | sort -g |
        sed -n "$(((RUNS + 1) / 2))p")
    set -- $line
    nv=$(sed -n 's/^vertices: //p' "$GT/out")
    ne=$(sed -n 's/^moves: //p' "$GT/out")
    row "$label" "$nv" "graph" "$RUNS" "$1" \
        "$(awk -v u="$2" -v s="$3" 'BEGIN { printf "%.2f", u + s }')" \
        "$(awk -v n="$nv" -v w="$1" 'BEGIN { if (w <= 0) w = 0.01; printf "%.3g", n / w }')" \
        "$(mb "$4")" "$ne moves$(T_VPS= T_MB= target "wall=$1 maxrss_kb=$4")"
}

# Game graphs (docs/GRAPHS.md): 10^6 vertices, about 10^7 moves, written by
# bench/graph_random.py (python3, standard library) into a scratch
# directory; acyclic for the Grundy values, with cycles for --loopy.
if [ -n "${SGEXPLORE:-}" ] && command -v python3 >/dev/null &&
    test -x /usr/bin/time; then
    GT=$(mktemp -d "${TMPDIR:-/tmp}/sgbench-graph.XXXXXX")
    trap 'rm -rf "$GT"' EXIT
    gen="$(dirname "$0")/graph_random.py"
    python3 "$gen" 1000000 10000000 >"$GT/dag.txt" &&
        python3 "$gen" 1000000 10000000 --loopy >"$GT/loopy.txt"
    T_WALL=5 graph_case "graph 1e6 vertices, Grundy" "$GT/dag.txt" \
        --vertex v0
    graph_case "graph 1e6 vertices, --outcome" "$GT/dag.txt" --outcome \
        --vertex v0
    graph_case "graph 1e6 vertices, --loopy" "$GT/loopy.txt" --loopy \
        --vertex v0
    graph_case "graph 1e6, --loopy --outcome" "$GT/loopy.txt" \
        --loopy --outcome --vertex v0
else
    row "graph 1e6 vertices" "-" "graph" "-" "-" "-" "-" "-" \
        "skipped: needs \$SGEXPLORE, python3 and /usr/bin/time"
fi

# Set expressions, by bench/setbench: the straightforward loop (its own
# code, members listed before the clock starts) against the method
# enum_set.c picks, the three of each case interleaved, the same values
# checked by setbench itself; processor time, the best of REPEAT runs.
# Targets (issue 52): subtract-a-prime to 10^6 at least 10x, subtract-a-
# square to 10^7 at least 1.5x, and no set rule slower than the plain
# loop at 10^4, 10^5 and 10^6 heaps ("x1.0": within the machine's drift,
# which moves two runs of the same loop by a tenth).  SG_BENCH_LONG=0
# leaves out the squares to 10^7 (some two minutes of processor time).
SETBENCH=${SETBENCH:-}
if [ -n "$SETBENCH" ] && test -x "$SETBENCH"; then
    echo
    echo "set expressions (bench/setbench: plain loop, library's naive, method, speed-up over the plain loop)"
    set_case() { # set_case TARGET REPEAT SET N [all-but]
        local want=$1 rep=$2 line x
        shift 2
        if ! line=$(REPEAT=$rep timeout $((3 * TIMEOUT)) "$SETBENCH" "$@"); then
            echo "  $*: failed"
            return
        fi
        x=$(sed -n 's/.* x *\([0-9.]*\).*/\1/p' <<<"$line")
        if [ "$want" = - ]; then
            echo "  $line"
        elif awk -v x="$x" -v w="$want" 'BEGIN { exit !(x >= w) }'; then
            echo "  $line  (target x$want: met)"
        else
            echo "  $line  (target x$want: not met)"
        fi
    }
    set_case 10 1 primes 1000000
    [ "$LONG" = 1 ] && set_case 1.5 1 squares 10000000
    for n in 10000 100000 1000000; do
        for set in squares cubes triangular fibonacci powers-of-2 1,primes; do
            set_case 1.0 3 "$set" "$n"
        done
        [ "$n" = 1000000 ] || set_case 1.0 3 primes "$n"
    done
    set_case - 1 primes 10000 all-but
    set_case - 1 primes 100000 all-but
    set_case - 1 proper-divisors 100000
    set_case - 1 at-most-half 30000
else
    echo
    echo "set expressions: skipped (needs \$SETBENCH, bench/setbench)"
fi

# Misère quotients (issue 24, docs/MISERE.md): for Kayles and 0.07 the
# largest heap bound n, in steps of 5, whose quotient Q_n one run of
# `--misere --quotient --misere-max n+1` finishes within 60 s (each run starts
# from nothing), with its order; and the exact search's rate, from a run
# the search dominates (0.6 until its 256 MiB memo is full).
echo
echo "misère quotients (one run each, 60 s at most):"
if test -n "${SGEXPLORE:-}" && test -x "$SGEXPLORE" &&
    command -v python3 >/dev/null; then
    for rule in 0.77 0.07; do
        best=0 order="-" secs="-" last=0
        # quotient_run N: one run to heap N within 60 s; sets best, secs,
        # order when it finishes
        quotient_run() {
            local t0 t1 out
            t0=$(date +%s.%N)
            out=$(timeout 60 "$SGEXPLORE" --no-cache "$rule" --misere \
                --quotient --misere-max $(($1 + 1)) --max-order 65536 --json \
                2>/dev/null) || return 1
            t1=$(date +%s.%N)
            best=$1
            secs=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }')
            order=$(printf '%s' "$out" | python3 -c \
                'import json, sys; print(json.load(sys.stdin)["quotient"]["order"])')
        }
        for n in 5 10 15 20 25 30 35 40 45 50 55 60; do
            last=$n
            quotient_run "$n" || break
        done
        if [ "$best" != "$last" ]; then # the bounds between, one by one
            for ((n = best + 1; n < last; n++)); do
                quotient_run "$n" || break
            done
            last=$((best + 1))
        fi
        if [ "$best" = "$last" ]; then
            why="every bound tried finished"
        else
            why="Q_$last did not finish in 60 s or within the budget"
        fi
        echo "  $rule: Q_$best of order $order in $secs s ($why)"
    done
    t0=$(date +%s.%N)
    out=$(timeout 150 "$SGEXPLORE" --no-cache 0.6 --misere --quotient \
        --misere-max 17 --json 2>/dev/null)
    t1=$(date +%s.%N)
    printf '%s' "$out" | python3 -c 'import json, sys
q = json.load(sys.stdin)["quotient"]
w = float(sys.argv[2]) - float(sys.argv[1])
print("  exact search (0.6, heaps to %d): %d positions stored in %.1f s, %.0f per second"
      % (q["stopped_at"] or q["heaps"], q["positions"], w, q["positions"] / w))' \
        "$t0" "$t1" || echo "  exact search: no result"
else
    echo "  skipped: needs \$SGEXPLORE and python3"
fi

# Games given by a function (the installed API, docs/API.md): three
# options a heap through the callback, 10^5 and 10^6 values; a
# callback's subtract{1,2,3} against the reference method's, as a ratio;
# and 10^4 analyses of a cached rule with the resident set before and
# after (it stays flat).
echo
echo "games given by a function (bench/apibench):"
if test -n "${APIBENCH:-}" && test -x "$APIBENCH"; then
    "$APIBENCH" 100000 | sed 's/^/  /'
    "$APIBENCH" 1000000 nocache | sed 's/^/  /'
else
    echo "  skipped: needs \$APIBENCH (make bench)"
fi

# Issue 49: the Python module (python/, docs/PYTHON.md) over the library
# just built: a rule given by a Python function with three options per
# heap to 10^5 values (target: under 2 s), and sg.values("0.6", 0, 10**7)
# against the program's --values for the same range (target: within
# 1.2x), interleaved; bench/python_bench.py prints the ratios.
echo
echo "Python module (bench/python_bench.py):"
PY=${PYTHON3:-python3}
pylib=$(ls "$(dirname "$SGEXPLORE")"/src/lib/libsgexplore.so.* 2>/dev/null | head -1)
if test -n "$pylib" && test -n "${top_srcdir:-}" && "$PY" -c 'import ctypes' 2>/dev/null; then
    for what in moves values; do
        runs=$RUNS
        [ "$what" = values ] && runs=$(( RUNS < 3 ? RUNS : 3 ))
        PYTHONPATH="$top_srcdir/python" SGEXPLORE_LIB="$pylib" \
            timeout $((TIMEOUT * 8)) "$PY" "$top_srcdir/bench/python_bench.py" \
            "$what" "$SGEXPLORE" "$runs" || echo "  $what: failed"
    done
else
    echo "  skipped: needs the built libsgexplore.so and $PY"
fi
echo
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)"
