#!/bin/bash
# scripts/census_round.sh - run a round of the census's escalation
# (docs/CENSUS.md, "Rounds"): every code of a committed round file
# (data/census/rounds/NAME.tsv, written by `census_round.py plan`) that
# its done file (NAME-done.tsv beside it) does not list yet, in the
# round's order, each computed from scratch in a fresh work folder toward
# its goal within its CPU cap; each finished code is recorded at once
# (its row in the done file and in OUT/octal.tsv, its certificate in
# OUT/certs/), so that a rerun skips it.  A code with a parent (below)
# starts from the values derived from it.  Needs no cache but its own
# and its parents'.
#
# Usage: census_round.sh [-w WORK] [-o OUT] [-t TIME] [-b VBOUND] [-B PYBOUND]
#                        [-n COUNT] [-s K/N] [-P PCAP] [-D] [-V] ROUND
#   ROUND       the round file (data/census/rounds/NAME.tsv)
#   -w WORK     the work folders, one per code while it runs, WORK/CODE,
#               removed when it is recorded (default: census-work/round)
#   -o OUT      the census (default: data/census)
#   -t TIME     stop by then, HH:MM (UTC, today) or anything `date -d`
#               reads: no code starts within a minute of it and a code
#               still running then is stopped and not recorded (a rerun
#               runs it again from scratch)
#   -b VBOUND   `sgexplore verify --certificate` on every new certificate
#               with a bound up to VBOUND (default 50000; its cost grows
#               as the bound squared); a larger one is recorded as
#               skipped:BOUND, never as confirmed
#   -B PYBOUND  the same for scripts/check_certificate.py (default 3000)
#   -n COUNT    stop after COUNT codes
#   -s K/N      only the codes whose order is K modulo N (0 <= K < N;
#               with parents, that of the first code of their family):
#               N workers with the same WORK and OUT (one per core, or a
#               cluster's array job on a shared folder) share the round,
#               each code run once; the records take the same lock
#   -V          compute nothing: check the certificates the round recorded
#               as skipped:BOUND with a bound up to VBOUND (`verify`) or
#               PYBOUND (check_certificate.py), one after the other, and
#               record each verdict in the done file: confirmed, or
#               refuted (or failed, when the checker could not run) and
#               then exit 1; may run beside the round, on another core
#   -P PCAP     the CPU cap of each parent, in seconds over all its runs
#               for every code (default 3600)
#   -D          derive nothing: every code from scratch
# Each code: `sgexplore CODE --max GOAL --seconds LEFT --threads 1 --json
# --db WORK/CODE/c.db`, run again (extending its own prefix) while it is
# unresolved, below GOAL, and the CPU seconds of its runs (user + system)
# are below the cap: LEFT is the cap less that CPU, so that a loaded core
# costs wall time, not values.  A proven code's certificate is exported
# from its work folder, its checksum checked, then confirmed by both
# checkers where its bound allows; one they refute stops the round
# before anything of it is recorded.
# A code's parent P (`census_round.py parent`: a code of its agree class
# in OUT/classes.tsv with fewer moves, each extra one leaving at most one
# heap) is first run under the lock WORK/parents/P.lock in its own cache
# WORK/parents/P.db to the code's goal (`sgexplore P --db ... --max GOAL
# --seconds LEFT --threads 1 --json`, looped as the code's runs are,
# within what its cap PCAP leaves of its CPU so far), its row recorded in
# ROUND's NAME-parents.tsv; then `sgexplore cache derive CODE P --from
# WORK/parents/P.db --db WORK/CODE/c.db --max GOAL --json` stores the
# code's values up to the first heap where they differ from P's (exact:
# the derivation checks every extra move), its CPU counted as the code's,
# and the code's runs extend them.  A code whose parent another worker
# holds the lock of waits at the end of the list (once) while the worker
# runs the others.  Touch WORK/stop to end the round
# after the running code, WORK/stop-family after the running code's
# family (its parent's other codes, which need no run of the parent
# but on this machine: a session's last minutes).  The program is
# $SGEXPLORE when set, else ./sgexplore.  Pin the whole script to a core with taskset.
# Exit status: 0 the round is done, 3 stopped early (-t, -n, WORK/stop,
# WORK/stop-family),
# 1 a failure (a run, an export, a refuted certificate), 2 bad usage.
set -euo pipefail

usage() {
    sed -n '/^# Usage/,/^# Exit/p' "$0" | sed 's/^# \{0,1\}//' >&2
    exit 2
}

work=census-work/round out=data/census deadline= vbound=50000 pybound=3000 count=
late=0 part=0/1 pcap=3600 derive=1
while getopts w:o:t:b:B:n:s:P:DVh opt; do
    case $opt in
    w) work=$OPTARG ;;
    o) out=$OPTARG ;;
    t) deadline=$(date -u -d "$OPTARG" +%s) ||
        { echo "census_round.sh: -t wants a time such as HH:MM" >&2; exit 2; } ;;
    b) vbound=$OPTARG ;;
    B) pybound=$OPTARG ;;
    n) count=$OPTARG ;;
    s) part=$OPTARG
        [[ $part =~ ^([0-9]+)/([0-9]+)$ ]] && ((BASH_REMATCH[1] < BASH_REMATCH[2])) ||
            { echo "census_round.sh: -s wants K/N with 0 <= K < N, not '$part'" >&2; exit 2; } ;;
    P) pcap=$OPTARG
        [[ $pcap =~ ^[0-9]+$ ]] ||
            { echo "census_round.sh: -P wants seconds, not '$pcap'" >&2; exit 2; } ;;
    D) derive=0 ;;
    V) late=1 ;;
    *) usage ;;
    esac
done
shift $((OPTIND - 1))
[[ $# -eq 1 && -f $1 ]] || usage
round=$1
done_file=${round%.tsv}-done.tsv
parents_file=${round%.tsv}-parents.tsv
sg=${SGEXPLORE:-./sgexplore}
here=$(cd "$(dirname "$0")" && pwd)
py() { python3 "$here/census_round.py" "$@"; }
machine="$(uname -m) $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)"
mkdir -p "$work" "$out/certs"
TIMEFORMAT='%3U %3S %3R'

# add A B: A + B with the fractions.
add() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f\n", a + b }'; }
# json_get FILE EXPR: a value of a report (EXPR on o, its JSON object).
json_get() { python3 -c "import json, sys; o = json.load(open(sys.argv[1])); print($2)" "$1"; }

# -V: the late checks, each verdict recorded under the lock.
if ((late)); then
    [[ -f $done_file ]] || { echo "census_round: no $done_file" >&2; exit 1; }
    awk -F'\t' '!/^#/ && $9 == "proven" { for (i = 16; i <= 17; i++)
        if ($i ~ /^skipped:/) print $1 "\t" (i == 16 ? "verify" : "pycheck") "\t" substr($i, 9) }' \
        "$done_file" > "$work/late"
    ran=0
    while IFS=$'\t' read -r -u 3 code checker bound; do
        [[ -z $count ]] || ((ran < count)) || exit 3
        if [[ $checker == verify ]] && ((bound > vbound)); then continue; fi
        if [[ $checker == pycheck ]] && ((bound > pybound)); then continue; fi
        cert=$(awk -F'\t' -v c="$code" '$1 == c { print $9 }' "$out/octal.tsv")
        [[ -n $cert && -f $out/$cert ]] ||
            { echo "census_round: $code: no certificate in $out/octal.tsv" >&2; exit 1; }
        start=$(date +%s)
        if [[ $checker == verify ]]; then
            { time "$sg" verify --no-cache --certificate "$out/$cert" > "$work/late.out" 2>&1 < /dev/null; } \
                2> "$work/late.time" || true
            # verify's last line: "confirmed" or "refuted: WHY"
            last=$(tail -n 1 "$work/late.out")
        else
            { time SG_CHECK_MAX_BOUND=$pybound PYTHONDONTWRITEBYTECODE=1 \
                python3 "$here/check_certificate.py" "$out/$cert" > "$work/late.out" 2>&1 < /dev/null; } \
                2> "$work/late.time" || true
            last=$(tail -n 1 "$work/late.out")
        fi
        case $last in
        confirmed) verdict=confirmed ;;
        refuted*) verdict=refuted ;;
        *) verdict=failed ;;   # neither: the checker could not run
        esac
        flock "$work/lock" python3 "$here/census_round.py" checked "$done_file" "$code" "$checker" "$verdict"
        read -r u sy r < "$work/late.time"
        echo "census_round: $code: $checker $verdict (bound $bound, $(awk -v u="$u" -v s="$sy" 'BEGIN { printf "%.0f", u + s }') CPU s, $(($(date +%s) - start)) s of wall time)" >&2
        if [[ $verdict != confirmed ]]; then
            echo "census_round: $code: $(tail -n 1 "$work/late.out")" >&2
            exit 1
        fi
        ran=$((ran + 1))
    done 3< "$work/late"
    exit 0
fi

# set_limit WHAT: limit, the `timeout` that stops a run at the deadline;
# exits 3 (WHAT not recorded) when the deadline has come.
set_limit() {
    limit=()
    [[ -n $deadline ]] || return 0
    local t=$((deadline - $(date +%s)))
    if ((t <= 0)); then
        echo "census_round: the deadline stopped $1: not recorded" >&2
        exit 3
    fi
    limit=(timeout --signal=TERM --kill-after=30 "$t")
}

# timed DIR OUT WHAT CMD...: CMD under the deadline's timeout, stdout to
# DIR/OUT and stderr to DIR/err, without the lock of a parent ($lk, when
# the caller holds one: a run outliving this script must not keep it);
# sets rc and t_cpu, t_wall (its user + system and wall seconds).
timed() {
    local dir=$1 out=$2 u s r
    set_limit "$3"
    shift 3
    rc=0
    if [[ -n ${lk:-} ]]; then
        { time "${limit[@]}" "$@" < /dev/null > "$dir/$out" 2> "$dir/err" {lk}>&-; } \
            2> "$dir/time" || rc=$?
    else
        { time "${limit[@]}" "$@" < /dev/null > "$dir/$out" 2> "$dir/err"; } \
            2> "$dir/time" || rc=$?
    fi
    read -r u s r < "$dir/time"
    t_cpu=$(add "$u" "$s")
    t_wall=$r
}

# past_deadline WHAT: after timed, when the deadline stopped the run (or
# has come since), $on_deadline (if set) and exit 3: WHAT not recorded.
past_deadline() {
    if ((rc == 124 || rc == 137)) ||
        { [[ -n $deadline ]] && (($(date +%s) >= deadline)); }; then
        [[ -z ${on_deadline:-} ]] || $on_deadline
        echo "census_round: the deadline stopped $1: not recorded" >&2
        exit 3
    fi
}

# run_to_goal RULE DB DIR CAP WHAT: `sgexplore RULE --db DB --max GOAL
# --seconds LEFT --threads 1 --json`, run again (extending the cache's
# prefix) while it is unresolved, below GOAL, and run_cpu (what came
# before counts) is a second or more below CAP, LEFT being what is left;
# with force_one, a first run even past the cap (a derivation that spent
# it still gets its row reported).  Adds to run_cpu, run_wall, run_runs;
# DIR/out.json is the last report.  A failed run exits 1.
run_to_goal() {
    local rule=$1 db=$2 dir=$3 cap=$4 what=$5 prev=-1 left status computed
    while :; do
        left=$(awk -v c="$cap" -v u="$run_cpu" 'BEGIN { if (c - u >= 1) printf "%.3f\n", c - u }')
        [[ -n $left ]] || { ((run_runs == 0 && force_one)) && left=1; } || break
        timed "$dir" out.json "$what" "$sg" "$rule" --db "$db" --max "$goal" \
            --seconds "$left" --threads 1 --json
        run_cpu=$(add "$run_cpu" "$t_cpu")
        run_wall=$(add "$run_wall" "$t_wall")
        run_runs=$((run_runs + 1))
        past_deadline "$what"
        if ((rc != 0 && rc != 3)) || ! [[ -s $dir/out.json ]]; then
            echo "census_round: $what: the run failed ($rc): $(tail -n 1 "$dir/err")" >&2
            exit 1
        fi
        read -r status computed < <(json_get "$dir/out.json" '"%s %d" % (o["status"], o["computed"])')
        [[ $status == unresolved ]] || break
        ((computed < goal && computed > prev)) || break
        prev=$computed
    done
}

# parent_record P PDIR: P's row of the parents file, under the lock: what
# its cache holds and the CPU, wall seconds and runs of this code's turn.
parent_record() {
    : > "$2/list"
    if [[ -s $work/parents/$1.db ]]; then
        "$sg" cache list --db "$work/parents/$1.db" --json > "$2/list" 2>> "$2/err" ||
            { echo "census_round: $1: cache list failed: $(tail -n 1 "$2/err")" >&2; exit 1; }
    fi
    flock "$work/lock" python3 "$here/census_round.py" parent-record "$parents_file" \
        "$1" "$goal" "$2/list" "$pcpu" "$pwall" "$pruns" "$machine"
}

# from_parent P: P run to GOAL in its own cache (what is left of its CPU
# cap), then the code's first values derived from it into $d/c.db, all
# under P's lock so that two workers never run P at once; adds the
# derivation's CPU and wall seconds to the code's and sets derived.
from_parent() {
    local p=$1 pd=$work/parents/$1.run lk pcomputed pstatus pused
    mkdir -p "$pd"  # and WORK/parents
    exec {lk}> "$work/parents/$p.lock"
    flock "$lk"
    read -r _ pcomputed pstatus pused < <(py parent-state "$parents_file" "$p")
    pcpu=0 pwall=0 pruns=0
    if ! [[ -s $work/parents/$p.db ]] ||
        { [[ $pstatus == unresolved || $pstatus == - ]] && ((pcomputed < goal)); }; then
        run_cpu=0 run_wall=0 run_runs=0 force_one=0 on_deadline=parent_turn
        run_to_goal "$p" "$work/parents/$p.db" "$pd" \
            "$(awk -v c="$pcap" -v u="$pused" 'BEGIN { printf "%.3f\n", c - u }')" \
            "$code (its parent $p)"
        on_deadline=
        parent_turn
        read -r _ pcomputed pstatus pused < <(py parent-state "$parents_file" "$p")
    fi
    derived=-
    if ((pcomputed > 0)); then
        timed "$d" derive.json "$code" "$sg" cache derive "$code" "$p" \
            --from "$work/parents/$p.db" --db "$d/c.db" --max "$goal" --json
        cpu=$(add "$cpu" "$t_cpu")
        wall=$(add "$wall" "$t_wall")
        past_deadline "$code"
        if ((rc != 0)) || ! [[ -s $d/derive.json ]]; then
            echo "census_round: $code: its derivation from $p failed ($rc): $(tail -n 1 "$d/err")" >&2
            exit 1
        fi
        derived=$(json_get "$d/derive.json" 'o["computed"]')
    fi
    flock -u "$lk"
    exec {lk}>&-
}

# parent_free P: whether no other worker holds P's lock now (a probe:
# it may be taken a moment later, and from_parent then waits for it).
parent_free() {
    local fd r=0
    [[ -e $work/parents/$1.lock ]] || return 0
    exec {fd}< "$work/parents/$1.lock"
    flock -n "$fd" || r=1
    exec {fd}<&-
    return $r
}

# parent_turn: P's row recorded with this turn's runs (from_parent's p
# and pd; at the deadline too, so that its CPU is not lost).
parent_turn() {
    pcpu=$run_cpu pwall=$run_wall pruns=$run_runs
    parent_record "$p" "$pd"
}

todo=$work/todo.${part%/*}-${part#*/}
sfx=
[[ $part == 0/1 ]] || sfx=" (part $part)"
if ((derive)); then
    py todo "$round" "$done_file" "$part" "$out" > "$todo"
else
    py todo "$round" "$done_file" "$part" > "$todo"
fi
left_codes=$(wc -l < "$todo")
echo "census_round: $round: $left_codes codes left of $(($(grep -vc '^#' "$round") - 1))$sfx" >&2
ran=0 family=
while IFS=$'\t' read -r -u 3 code goal cap parent again; do
    if [[ -e $work/stop ]]; then
        echo "census_round: $work/stop: stopped before $code" >&2
        exit 3
    fi
    # A code's family is its parent's codes; a code without one is a
    # family of its own.
    fam=${parent:--}
    [[ $fam != - ]] || fam=$code
    if [[ -e $work/stop-family && $fam != "$family" ]]; then
        echo "census_round: $work/stop-family: stopped before $code" >&2
        exit 3
    fi
    family=$fam
    if [[ -n $count ]] && ((ran >= count)); then
        exit 3
    fi
    if [[ -n $deadline ]] && ((deadline - $(date +%s) < 60)); then
        echo "census_round: the deadline: stopped before $code" >&2
        exit 3
    fi
    [[ -n $parent ]] || parent=-
    # A parent another worker is running (for some minutes, maybe): this
    # code goes to the end of the list, once, so that the core runs the
    # other codes meanwhile instead of waiting for the lock.  The list
    # being read is appended to; it is written anew at every start.
    if [[ $parent != - && -z $again ]] && ! parent_free "$parent"; then
        echo "census_round: $code: its parent $parent is running in another worker: later" >&2
        printf '%s\t%s\t%s\t%s\tagain\n' "$code" "$goal" "$cap" "$parent" >> "$todo"
        continue
    fi
    d=$work/$code
    rm -rf "$d"
    mkdir -p "$d"
    cpu=0 wall=0 runs=0 derived=-
    if [[ $parent != - ]]; then
        from_parent "$parent"
    fi
    run_cpu=$cpu run_wall=$wall run_runs=0 force_one=0
    [[ $derived == - ]] || force_one=1
    run_to_goal "$code" "$d/c.db" "$d" "$cap" "$code"
    cpu=$run_cpu wall=$run_wall runs=$run_runs
    # status computed rule checksum bound certificate-file-name
    read -r status computed rule sum bound name < <(json_get "$d/out.json" \
        '" ".join(map(str, (o["status"], o["computed"], o["rule"]) + ((o["certificate"]["checksum"], o["certificate"]["bound"], __import__("re").sub(r"[^A-Za-z0-9.-]", "_", o["rule"]) + ".cert") if o["certificate"] else ())))')
    verify=- pycheck=-
    if [[ $status != unresolved ]]; then
        "$sg" "$rule" --db "$d/c.db" --max "$computed" \
            --export-certificate "$d/$name" > /dev/null 2>> "$d/err" ||
            { echo "census_round: $code: no certificate" >&2; exit 1; }
        grep -qx "checksum: $sum" "$d/$name" ||
            { echo "census_round: $code: the certificate's checksum is not the report's $sum" >&2; exit 1; }
        if ((bound <= vbound)); then
            if "$sg" verify --certificate "$d/$name" > "$d/verify" 2>&1; then
                verify=confirmed
            else
                echo "census_round: $code: sgexplore verify refutes its certificate ($d/$name): $(tail -n 1 "$d/verify")" >&2
                exit 1
            fi
        else
            verify=skipped:$bound
        fi
        if ((bound <= pybound)); then
            if SG_CHECK_MAX_BOUND=$pybound PYTHONDONTWRITEBYTECODE=1 \
                python3 "$here/check_certificate.py" "$d/$name" > "$d/pycheck" 2>&1 &&
                grep -qx 'confirmed' "$d/pycheck"; then
                pycheck=confirmed
            else
                echo "census_round: $code: check_certificate.py refutes its certificate ($d/$name): $(tail -n 1 "$d/pycheck")" >&2
                exit 1
            fi
        else
            pycheck=skipped:$bound
        fi
        cp "$d/$name" "$out/certs/$name.tmp.$$"
        mv "$out/certs/$name.tmp.$$" "$out/certs/$name"
    fi
    # The record under the lock that a commit of the data takes too
    # (flock WORK/lock git commit ...), so that no commit holds half of it.
    flock "$work/lock" python3 "$here/census_round.py" record "$out" "$round" \
        "$done_file" "$code" "$d/out.json" "$cpu" "$wall" "$runs" "$verify" \
        "$pycheck" "$machine" "$parent" "$derived"
    from=
    [[ $derived == - ]] || from=", the first $derived derived from $parent"
    echo "census_round: $code: $status, $computed values$from, $cpu CPU s in $runs run(s); verify $verify, python $pycheck" >&2
    rm -rf "$d"
    ran=$((ran + 1))
done 3< "$todo"
echo "census_round: $round is done$sfx" >&2
