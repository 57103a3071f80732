#!/bin/bash
# scripts/census.sh - the census of data/census/ (docs/CENSUS.md): every
# octal code 0.d1..dk and 4.d1..d(k-1) with k <= 4 (4,607 codes) swept by
# the tool in rounds of escalating time budgets, then the table
# OUT/octal.tsv and the certificate of every proven row, OUT/certs/,
# exported from the sweeps' cache by the tool.  Nothing is edited by hand.
#
# Usage: census.sh [-s SECONDS] [-r ROUNDS] [-j JOBS] [-w WORK] [-o OUT]
#                  [-t HH:MM] [-P SECONDS]
#   -s SECONDS  round 1's time budget per code (default 0.25)
#   -r ROUNDS   rounds (default 2): round k gives SECONDS * 10^(k-1) to the
#               codes that round k-1 left unresolved because its time ran
#               out (stopped: time), extending their stored prefixes
#   -j JOBS     sweep workers (default 1)
#   -w WORK     the cache (WORK/census.db), code lists and each round's
#               JSON (default: census-work)
#   -o OUT      where octal.tsv and certs/ go (default: data/census)
#   -P SECONDS  the last round, "published" (default 300): the codes that a
#               published table (data/known.tsv, octal2.tsv, octal3.tsv,
#               tczajka.tsv) calls periodic and the rounds left
#               unresolved, SECONDS each (0: no such round)
#   -t TIME     a deadline for the rounds after the first, round P
#               included, HH:MM (UTC, today) or any time `date -d` reads
#               (@SECONDS): a round still running then is stopped
#               (SIGTERM: every finished code is stored and kept, the
#               running one keeps its prefix) and marked partial
#               (WORK/round-K.partial); its unfinished codes keep the
#               previous round's row, and no later round runs (nor does
#               one whose turn comes after the deadline: census.sh says
#               so).  Run census.sh again without -t (or with a later
#               one) to run that round again over its codes
# The program is $SGEXPLORE when set, else ./sgexplore.  A finished round
# (WORK/round-K.jsonl, with a summary line that does not say it was
# interrupted) is not run again, so an interrupted census (Ctrl-C: the
# round's JSON stays in round-K.part) run again continues (the sweep
# itself resumes from the cache), and a later run with more rounds adds
# rounds.
# Each round runs under `nice -n 10`.
# Exit status: 0 done, 1 a round or an export failed, 2 bad usage.
set -euo pipefail

usage() {
    sed -n '/^# Usage/,/^# Exit/p' "$0" | sed 's/^# \{0,1\}//' >&2
    exit 2
}

seconds=0.25 rounds=2 jobs=1 work=census-work out=data/census deadline= published=300
while getopts s:r:j:w:o:t:P:h opt; do
    case $opt in
    s) seconds=$OPTARG ;;
    r) rounds=$OPTARG ;;
    j) jobs=$OPTARG ;;
    w) work=$OPTARG ;;
    o) out=$OPTARG ;;
    P) published=$OPTARG ;;
    t) deadline=$(date -u -d "$OPTARG" +%s) ||
        { echo "census.sh: -t wants a time such as HH:MM" >&2; exit 2; } ;;
    *) usage ;;
    esac
done
shift $((OPTIND - 1))
[[ $# -eq 0 ]] || usage
[[ $rounds =~ ^[1-6]$ ]] || { echo "census.sh: -r wants 1..6" >&2; exit 2; }
[[ $seconds =~ ^[0-9]+(\.[0-9]+)?$ ]] ||
    { echo "census.sh: -s wants seconds" >&2; exit 2; }
sg=${SGEXPLORE:-./sgexplore}
here=$(cd "$(dirname "$0")" && pwd)
py() { python3 "$here/census_table.py" "$@"; }
# finished JSON: the round's sweep ran to its end (round-K.jsonl from
# before census.sh kept an interrupted round's JSON apart may say so).
finished() {
    grep -q '^{"summary"' "$1" 2>/dev/null &&
        ! grep -Eq '^{"summary".*"interrupted": ?true' "$1"
}
db=$work/census.db
mkdir -p "$work" "$out"

# sweep_round K BUDGET [IN]: round K's sweep over WORK/round-K.in (IN
# moved there first when given), --seconds BUDGET each, under the
# deadline (if any) for every round but the first.
# Status 0: it ran to its end (round-K.jsonl); 3: the deadline stopped it
# (round-K.jsonl holds the codes it finished, round-K.partial marks it);
# 4: the deadline had passed, so it did not run and nothing changed.  A
# failure or Ctrl-C ends census.sh, the round's JSON kept in round-K.part
# for a rerun to redo.
sweep_round() {
    local k=$1 budget=$2 in=${3:-} n start rc=0 left limit=()
    if [[ $k != 1 && -n $deadline ]]; then
        left=$((deadline - $(date +%s)))
        if ((left <= 0)); then
            echo "census: the deadline passed before round $k: it and" \
                "any later round did not run" >&2
            return 4
        fi
        # --foreground: in a process group of its own the sweep would
        # miss Ctrl-C, and census.sh wait for the deadline; the sweep
        # passes SIGTERM on to its workers itself.
        limit=(timeout --foreground --signal=TERM --kill-after=60 "$left")
    fi
    [[ -z $in ]] || mv "$in" "$work/round-$k.in"
    rm -f "$work/round-$k.partial"
    n=$(wc -l < "$work/round-$k.in")
    echo "census: round $k: $n codes, --seconds $budget each" >&2
    start=$(date +%s)
    "${limit[@]}" nice -n 10 "$sg" sweep rules "$work/round-$k.in" \
        --seconds "$budget" --jobs "$jobs" --format json --db "$db" \
        --yes > "$work/round-$k.part" 2> "$work/round-$k.log" || rc=$?
    if ((rc != 0 && !(rc == 124 && ${#limit[@]} > 0))); then
        echo "census: round $k failed or was interrupted (see" \
            "$work/round-$k.log); run census.sh again to continue it" >&2
        exit 1
    fi
    mv "$work/round-$k.part" "$work/round-$k.jsonl"
    if ((rc == 124)); then
        touch "$work/round-$k.partial"
        echo "census: round $k stopped at the deadline after" \
            "$(($(date +%s) - start)) s:" \
            "$(grep -c '^{"rule"' "$work/round-$k.jsonl") of $n codes" >&2
        return 3
    fi
    echo "census: round $k done in $(($(date +%s) - start)) s" >&2
}

# A round stopped by the deadline, or not run because it had passed, is
# the last: no later round runs, round P included (a round P that ran
# before, over the same codes, still counts).
py codes > "$work/codes.txt"
done_rounds=()
stopped=0
for ((k = 1; k <= rounds; k++)); do
    if ((k == 1)); then
        cp "$work/codes.txt" "$work/round-1.in"
    else
        py next "$work/round-1.jsonl" "$work/round-$((k - 1)).jsonl" \
            > "$work/round-$k.in"
    fi
    [[ -s $work/round-$k.in ]] || break
    budget=$(python3 -c "print('%g' % ($seconds * 10 ** ($k - 1)))")
    if [[ -f $work/round-$k.partial && -n $deadline ]] &&
        (($(date +%s) >= deadline)); then
        done_rounds+=("$work/round-$k.jsonl:partial")
        stopped=1
        break
    fi
    if [[ -f $work/round-$k.partial ]] || ! finished "$work/round-$k.jsonl"; then
        rc=0
        sweep_round "$k" "$budget" || rc=$?
        if ((rc == 3)); then
            done_rounds+=("$work/round-$k.jsonl:partial")
        fi
        if ((rc != 0)); then
            stopped=1
            break
        fi
    fi
    done_rounds+=("$work/round-$k.jsonl")
done

# The published solutions still unresolved: one run each with -P seconds.
data=$here/../data
if [[ $published != 0 ]]; then
    py solved "$data" "${done_rounds[@]}" > "$work/round-P.new"
    if [[ -s $work/round-P.new ]]; then
        rc=0
        if ! cmp -s "$work/round-P.new" "$work/round-P.in" ||
            [[ -f $work/round-P.partial ]] ||
            ! finished "$work/round-P.jsonl"; then
            if ((stopped)); then
                echo "census: round P did not run: the deadline stopped" \
                    "an earlier round" >&2
                rc=4
            else
                sweep_round P "$published" "$work/round-P.new" || rc=$?
            fi
        fi
        if ((rc == 0)); then
            done_rounds+=("$work/round-P.jsonl")
        elif [[ -f $work/round-P.partial ]]; then
            done_rounds+=("$work/round-P.jsonl:partial")
        fi
    fi
fi

py table "$out" "$work/codes.txt" "${done_rounds[@]}"

# The certificates: one file per proven canonical rule, exported by the
# tool from the cache, checked against the table's checksum.
rm -rf "$out/certs.new"
mkdir "$out/certs.new"
awk -F'\t' '!/^#/ && $9 != "" && $9 != "certificate" { print $2 "\t" $9 "\t" $10 }' \
    "$out/octal.tsv" | sort -u |
while IFS=$'\t' read -r rule path sum; do
    f=$out/certs.new/${path#certs/}
    "$sg" "$rule" --db "$db" --export-certificate "$f" > /dev/null ||
        { echo "census: no certificate for $rule" >&2; exit 1; }
    grep -qx "checksum: $sum" "$f" ||
        { echo "census: $f: checksum is not the table's $sum" >&2; exit 1; }
done
rm -rf "$out/certs"
mv "$out/certs.new" "$out/certs"
echo "census: $out/octal.tsv: $(grep -vc '^#' "$out/octal.tsv") lines" \
    "(header included), $(ls "$out/certs" | wc -l) certificates" >&2
