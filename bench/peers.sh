#!/bin/bash
# bench/peers.sh - `make bench-peers` (never part of `make check`): runs the
# issue 14 and 26 cases side by side with two peer programs, one process at a
# time, and prints for each case the CPU seconds of each program and the
# ratio peer CPU / sgexplore CPU (above 1: sgexplore is faster).  CPU time
# (user + system, whole process) is compared because the machine is shared
# and wall time depends on the load; wall seconds are printed beside it.
# The runs of a case are interleaved (sgexplore, peer A, peer B, sgexplore,
# ...) so a change of load hits every program alike; the median is shown.
#
# Environment:
#   SGBENCH           bench/sgbench (set by `make bench-peers`)
#   TCZAJKA           Tomek Czajka's octal-games analyser, the C++ program
#                     `analyze` of github.com/tczajka/octal-games, old/;
#                     unset: skipped with a line saying so
#   OGSOLVE           Piotr Beling's `ogsolve` of
#                     github.com/beling/impartial-games; unset: skipped
#   OGSOLVE_METHOD    ogsolve's -m method (default rc2, its fastest here)
#   SG_PEERS_RUNS     interleaved rounds of a short case (default 3)
#   SG_PEERS_TIMEOUT  seconds of wall time before a peer's run is abandoned
#                     (default 60; its ratio is then a lower bound, ">")
#   SG_PEERS_SG_TIMEOUT  the same for sgexplore's runs (default 600)
#   SG_PEERS_ONLY     a bash regular expression: only the cases whose
#                     name matches it (e.g. '10\^[78]')
#   SG_PEERS_REPEAT_LIMIT  seconds: a case whose round takes longer runs no
#                     further rounds (default 10; raise it to get
#                     SG_PEERS_RUNS rounds of a case of a few seconds on a
#                     loaded host)
#
# The peers are built outside this repository from their public sources;
# nothing of theirs is kept here.  As done for the run in docs/BENCHMARKS.md:
#   tczajka: in old/ (its Makefile also wants googletest for its tests):
#     g++ -O2 -march=native -std=c++11 -pthread -Isrc \
#         $(ls src/*.cc | grep -v -e _test.cc -e _exec.cc) \
#         src/analyze_exec.cc -o analyze
#     (the current Rust version of that repository needs clap >= 4.5,
#     which this machine cannot fetch.)
#   ogsolve: needs the clap 4.0 crate; Debian's librust-clap-dev and
#     librust-clap-derive-dev provide it under /usr/share/cargo/registry.
#     Copy ogs/ and ogsolve/ out of the workspace (whose other members
#     need crates Debian lacks) into one folder, write a private
#     CARGO_HOME's config.toml:
#       [source.crates-io]
#       replace-with = "debian"
#       [source.debian]
#       directory = "/usr/share/cargo/registry"
#       [net]
#       offline = true
#     then in ogsolve/: CARGO_HOME=that-folder \
#       RUSTFLAGS="-C target-cpu=native" cargo build --release
#     (built with rustup's cargo and rustc 1.95 for docs/BENCHMARKS.md)
#
# What each case runs (N values means heaps 0..N-1):
#   sgexplore  `sgbench enum RULE N` or, for a proven case,
#              `sgbench analyse RULE MAX` (a proof of the period).
#   ogsolve    `ogsolve -m rc2 -n N-1 RULE` (it only enumerates, so a
#              proven case enumerates to the known pre-period plus three
#              periods; the ratio then favours ogsolve, which proves
#              nothing).  It reads only octal codes: no Grundy's game.
#   tczajka    `analyze RULE`, which has no bound: it computes until it
#              proves a period (checked at each power of two) or until 2^28
#              values.  For an enumeration case its run is stopped when it
#              reports 2^k >= N values, and sgexplore is timed on those 2^k
#              values too (printed in the line).  A proven case is stopped
#              at the timeout if it has not proved the period by then.  A
#              stopped run's CPU time is read from /proc just before it is
#              ended.  Grundy's game is its name `grundy` (its
#              old/src/game.cc), which it reads as 4!.0.
#   A peer that does not reach N (or 2^K) values within SG_PEERS_TIMEOUT
#   is stopped; its ratio ">x" is then a lower bound (its CPU so far over
#   sgexplore's for all N values), and sgexplore is not timed on 2^K.

set -u

SGBENCH=${SGBENCH:-./bench/sgbench}
RUNS=${SG_PEERS_RUNS:-3}
TIMEOUT=${SG_PEERS_TIMEOUT:-60}
SG_TIMEOUT=${SG_PEERS_SG_TIMEOUT:-600}
OGM=${OGSOLVE_METHOD:-rc2}
# A case whose round takes longer than this (seconds) runs no more rounds.
REPEAT_LIMIT=${SG_PEERS_REPEAT_LIMIT:-10}
TMP=$(mktemp -d) || exit 1
trap 'rm -rf "$TMP"' EXIT

if ! test -x "$SGBENCH"; then
    echo "bench-peers: $SGBENCH not found (run 'make bench-peers')" >&2
    exit 1
fi
for v in TCZAJKA OGSOLVE; do
    p=${!v:-}
    if [ -z "$p" ]; then
        echo "bench-peers: $v not set: that peer is skipped"
    elif ! test -x "$p"; then
        echo "bench-peers: $v=$p is not an executable: skipped"
        eval "$v="
    fi
done
TCZAJKA=${TCZAJKA:-}
OGSOLVE=${OGSOLVE:-}

# timed SECONDS CMD...: run CMD under that timeout; sets T_CPU and T_WALL
# (seconds, 3 decimals) and returns CMD's status (124 on a timeout).
timed() {
    local rc limit=$1
    shift
    TIMEFORMAT='%3U %3S %3R'
    { time timeout "$limit" "$@" > "$TMP/out" 2> "$TMP/err"; } 2> "$TMP/time"
    rc=$?
    read -r u s T_WALL < "$TMP/time"
    T_CPU=$(awk -v u="$u" -v s="$s" 'BEGIN { printf "%.3f", u + s }')
    return $rc
}

# child_cpu SUB: the CPU seconds (user + system) used so far by the one
# child of the subshell SUB, the analyser ("?" when it is gone).
child_cpu() {
    local pid st=
    for pid in $(cat "/proc/$1/task/$1/children" 2> /dev/null); do
        st=$(cut -d' ' -f14,15 "/proc/$pid/stat" 2> /dev/null)
    done
    [ -z "$st" ] && { echo "?"; return; }
    echo "$st" | awk -v t="$(getconf CLK_TCK)" '{ printf "%.1f", ($1 + $2) / t }'
}

# tczajka_run RULE K: run tczajka's analyze until it prints "n=2^K" (K
# empty: until it finds the period), then stop it; sets T_CPU and T_WALL
# and T_NOTE (how it ended).
tczajka_run() {
    local rule=$1 k=$2 sub pid line left end=$((SECONDS + TIMEOUT)) u s w st
    local t0 reached
    rm -f "$TMP/fifo" && mkfifo "$TMP/fifo"
    (
        TIMEFORMAT='%3U %3S %3R'
        time "$TCZAJKA" "$rule" > "$TMP/fifo" 2> "$TMP/err"
    ) 2> "$TMP/time" &
    sub=$!
    t0=$(date +%s.%N)
    T_NOTE="timeout ${TIMEOUT} s"
    reached=
    exec 3< "$TMP/fifo"
    while left=$((end - SECONDS)) && ((left > 0)) &&
        IFS= read -r -t "$left" line <&3; do
        if [ -n "$k" ] && [[ $line == "n=2^$k "* ]]; then
            T_NOTE="stopped at 2^$k values"
            break
        fi
        case $line in "Found period"*) T_NOTE=${line#Found }; break ;; esac
        # How far a run that times out got: its last power of two, with
        # the CPU seconds it had used when it reported it.
        if [[ $line == n=2^* ]]; then
            reached="${line%% *}"
            reached="${reached#n=} values after $(child_cpu "$sub") s"
        fi
    done
    [[ $T_NOTE == timeout* ]] && [ -n "$reached" ] &&
        T_NOTE="$T_NOTE (it reported $reached)"
    # The subshell's only child is the analyser: when it is to be stopped,
    # its CPU time is read from /proc first (bash's `time` reports nothing
    # for a killed command), then it is ended by its id.
    st=
    for pid in $(cat "/proc/$sub/task/$sub/children" 2> /dev/null); do
        st=$(cut -d' ' -f14,15 "/proc/$pid/stat" 2> /dev/null)
        kill "$pid" 2> /dev/null
    done
    T_WALL=$(awk -v a="$t0" -v b="$(date +%s.%N)" \
        'BEGIN { printf "%.3f", b - a }')
    exec 3<&-
    wait "$sub" 2> /dev/null
    if [ -n "$st" ]; then
        T_CPU=$(echo "$st" | awk -v t="$(getconf CLK_TCK)" \
            '{ printf "%.3f", ($1 + $2) / t }')
        return
    fi
    read -r u s w < "$TMP/time"
    T_CPU=$(awk -v u="$u" -v s="$s" 'BEGIN { printf "%.3f", u + s }')
}

# The median; of an even count, the mean of the middle two (not the lower:
# a case cut to two rounds by REPEAT_LIMIT would report its faster run).
median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 }
    END { if (NR % 2) print v[(NR + 1) / 2]
          else printf "%.3f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

ratio() { awk -v p="$1" -v s="$2" 'BEGIN {
    if (s <= 0) print "-"; else printf "x%.1f", p / s }'; }

fail() { row "$1" sgexplore - - - "failed or timed out"; }

row() { printf '%-30s %-9s %10s %8s %8s %s\n' "$@"; }

# bench_case NAME RULE N MAX PERIOD PREPERIOD K: one case, proven when MAX
# is given (N then empty); tczajka's run stops at 2^K values (K empty: at
# its proof; "-": neither peer reads the rule).
bench_case() {
    local name=$1 rule=$2 n=$3 max=${4:-} per=${5:-} pre=${6:-}
    local r k=$7 tn sgc=() sgw=() ogc=() ogw=() tzc=() tzw=() sgk=()
    local og_n=$n tz_note= og_note= first s c t
    if [ -n "${SG_PEERS_ONLY:-}" ] && ! [[ $name =~ $SG_PEERS_ONLY ]]; then
        return 0
    fi
    [ -n "$max" ] && og_n=$((pre + 3 * per))
    # tczajka stops at the first power of two >= N on enumeration cases.
    tn=
    if [ -z "$max" ] && [ -n "$k" ] && [ "$k" != - ]; then
        tn=$((1 << k))
    fi
    for ((r = 0; r < RUNS; r++)); do
        first=$(date +%s)
        if [ -n "$max" ]; then
            timed "$SG_TIMEOUT" "$SGBENCH" analyse "$rule" "$max" ||
                { fail "$name"; return 1; }
        else
            timed "$SG_TIMEOUT" "$SGBENCH" enum "$rule" "$n" ||
                { fail "$name"; return 1; }
        fi
        sgc+=("$T_CPU") sgw+=("$T_WALL")
        if [ -n "$OGSOLVE" ] && [ "$k" != "-" ] && [ -z "${OG_SKIP:-}" ]; then
            og_note=
            timed "$TIMEOUT" "$OGSOLVE" -m "$OGM" -n $((og_n - 1)) "$rule" ||
                og_note="timeout ${TIMEOUT} s or failed, "
            ogc+=("$T_CPU") ogw+=("$T_WALL")
        fi
        if [ -n "$TCZAJKA" ] && [ "$k" != "-" ]; then
            tczajka_run "${TZ_RULE:-$rule}" "${tn:+$k}"
            tzc+=("$T_CPU") tzw+=("$T_WALL") tz_note=$T_NOTE
            # sgexplore on the same 2^K values, when tczajka got there
            if [ -n "$tn" ] && [[ $tz_note == stopped* ]]; then
                timed "$SG_TIMEOUT" "$SGBENCH" enum "$rule" "$tn" ||
                    { fail "$name"; return 1; }
                sgk+=("$T_CPU")
            fi
        fi
        (( $(date +%s) - first > REPEAT_LIMIT )) && break
    done
    r=${#sgc[@]}
    s=$(median "${sgc[@]}")
    row "$name" sgexplore "$s" "$(median "${sgw[@]}")" "runs=$r" \
        "$([ -n "$max" ] && echo "proof, max $max" || echo "$n values")"
    if [ "$k" = "-" ]; then
        row "" ogsolve - - - "skipped: reads only octal codes"
        row "" tczajka - - - "skipped: reads only octal codes"
        return 0
    fi
    if [ -n "${OG_SKIP:-}" ]; then
        row "" ogsolve - - - "skipped: reads only octal codes"
    elif [ -n "$OGSOLVE" ]; then
        c=$(median "${ogc[@]}")
        t=$(ratio "$c" "$s")
        [ -n "$og_note" ] && t=">${t#x}"
        row "" ogsolve "$c" "$(median "${ogw[@]}")" "$t" \
            "$og_note-m $OGM, $og_n values${max:+ (enumeration only)}"
    else
        row "" ogsolve - - - "skipped: OGSOLVE not given"
    fi
    if [ -n "$TCZAJKA" ]; then
        c=$(median "${tzc[@]}")
        t=$(ratio "$c" "$s")
        if [ -n "$tn" ] && [[ $tz_note == timeout* ]]; then
            t=">${t#x}" tz_note="$tz_note, before $tn values"
        elif [ -n "$tn" ] && [[ $tz_note != stopped* ]]; then
            t=- tz_note="$tz_note: proved before $tn values, no ratio"
        elif [ -n "$tn" ]; then
            s=$(median "${sgk[@]}")
            t=$(ratio "$c" "$s")
            tz_note="$tz_note; sgexplore on $tn values: $s s"
        elif [[ $tz_note == timeout* ]]; then
            t=">${t#x}" tz_note="$tz_note, not proved"
        fi
        row "" tczajka "$c" "$(median "${tzw[@]}")" "$t" "$tz_note"
    else
        row "" tczajka - - - "skipped: TCZAJKA not given"
    fi
}

echo "bench-peers: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
row case program "cpu s" "wall s" ratio notes
bench_case "0.106" 0.106 200000 "" "" "" 18
bench_case "0.56 proven" 0.56 "" 2000000 144 326640 ""
bench_case "0.376 proven" 0.376 "" 10000000 4 2268248 ""
bench_case "0.354 proven" 0.354 "" 60000000 1180 10061916 ""
bench_case "Kayles 0.77" 0.77 1000000 "" "" "" 20
bench_case "Officers 0.6" 0.6 1000000 "" "" "" 20
TZ_RULE=grundy OG_SKIP=1 bench_case "Grundy's game 4!.0" '4!.0' 1000000 "" "" "" 20
# Issue 26: where the parity sparse space (0.106) and the record runs
# (Officers, Grundy's game) work.
bench_case "0.106 to 10^7" 0.106 10000000 "" "" "" 24
bench_case "Officers 0.6 to 10^7" 0.6 10000000 "" "" "" 24
TZ_RULE=grundy OG_SKIP=1 bench_case "Grundy's game to 10^7" '4!.0' 10000000 "" "" "" 24
bench_case "Officers 0.6 to 10^8" 0.6 100000000 "" "" "" 27
TZ_RULE=grundy OG_SKIP=1 bench_case "Grundy's game to 10^8" '4!.0' 100000000 "" "" "" 27
echo "bench-peers: load $(cut -d' ' -f1-3 /proc/loadavg)"
