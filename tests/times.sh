#!/bin/bash
# tests/times.sh - how long each test of a `make check` took, read from a
# build tree's test results; nothing is rerun.  A test's CPU seconds (its
# processes' user + system time) and wall seconds come from the `:time:`
# line tests/timed-driver.sh appends to its .trs; for a .trs without one,
# the wall time runs from the .log's creation (the driver opens it as the
# test starts) to the last write of the .log or .trs, and the CPU is "-".
#
#   tests/times.sh BUILD             one row per test: wall, CPU, results
#   tests/times.sh NAME=BUILD ...    a Markdown table, two columns a build
#
# Rows are sorted by the first build's CPU (wall without it), longest
# first; the last rows give each build's sums and its span (first start to
# last end, what `make -j2 check` waited for).  BUILD is the top of a
# build tree (the folder holding tests/); a test missing from a build
# shows "-".  On a machine others use, compare the CPU seconds: wall
# seconds grow with the load, CPU seconds little.
set -euo pipefail

if [ $# -eq 0 ]; then
    echo "usage: tests/times.sh BUILD | NAME=BUILD..." >&2
    exit 2
fi

table=0
if [ $# -gt 1 ] || [[ $1 == *=* ]]; then
    table=1
fi

# rows BUILD: "test wall cpu results start end", one line per finished
# test (a .trs without its .log, as .ci/run keeps them, will do when it
# has its :time: line).
rows() {
    local top=$1 log trs b m1 m2 res tm
    while IFS= read -r trs; do
        log=${trs%.trs}.log
        m2=$(stat -c '%.3Y' "$trs")
        if [ -f "$log" ]; then
            read -r b m1 < <(stat -c '%.3W %.3Y' "$log")
        else
            b=0 m1=$m2
        fi
        res=$(grep -c '^:test-result:' "$trs" || true)
        tm=$(sed -n 's/^:time: *//p' "$trs" | tail -n 1)
        if [ -z "$tm" ] && [ "${b%.*}" = 0 ]; then
            echo "times.sh: $log: no :time: line, and the file system" \
                "keeps no birth times" >&2
            return 1
        fi
        awk -v t="${trs#"$top"/}" -v b="$b" -v m1="$m1" -v m2="$m2" \
            -v r="$res" -v tm="$tm" 'BEGIN {
                e = m1 > m2 ? m1 : m2; t = substr(t, 1, length(t) - 4)
                if (tm != "") {
                    split(tm, x, " "); w = x[1]; c = sprintf("%.1f", x[2] + x[3])
                    if (b + 0 == 0) b = e - w
                } else { w = e - b; c = "-" }
                printf "%s %.1f %s %d %.3f %.3f\n", t, w, c, r, b, e }'
    done < <(find "$top/tests" -name '*.trs' ! -path '*.tmp/*' | LC_ALL=C sort)
}

names=() dirs=()
for a in "$@"; do
    if [[ $a == *=* ]]; then
        names+=("${a%%=*}")
        dirs+=("${a#*=}")
    else
        names+=("$(basename "$(cd "$a" && pwd)")")
        dirs+=("$a")
    fi
done

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for i in "${!dirs[@]}"; do
    if [ ! -d "${dirs[$i]}/tests" ]; then
        echo "times.sh: ${dirs[$i]}: no tests/ folder (not a build tree?)" >&2
        exit 1
    fi
    rows "${dirs[$i]}" >"$tmp/$i"
done

awk -v nb="${#dirs[@]}" -v table="$table" -v names="${names[*]}" '
    {
        n = split(FILENAME, p, "/"); i = p[n] + 0
        if (!($1 in seen)) { seen[$1] = 1; order[++nt] = $1 }
        wall[$1, i] = $2; cpu[$1, i] = $3; res[$1, i] = $4
        wsum[i] += $2
        if ($3 != "-") { csum[i] += $3; hascpu[i] = 1 }
        if (!(i in lo) || $5 < lo[i]) lo[i] = $5
        if (!(i in hi) || $6 > hi[i]) hi[i] = $6
    }
    function key(k) {
        if (!((k, 0) in wall)) return -1
        return cpu[k, 0] != "-" ? cpu[k, 0] : wall[k, 0]
    }
    function cell(k, i,   s) {
        if (!((k, i) in wall)) return " - | - |"
        return " " cpu[k, i] " | " wall[k, i] " |"
    }
    END {
        split(names, nm, " ")
        for (a = 2; a <= nt; a++) {   # insertion sort, a few dozen rows
            k = order[a]; v = key(k)
            for (b = a - 1; b >= 1 && key(order[b]) < v; b--)
                order[b + 1] = order[b]
            order[b + 1] = k
        }
        if (table) {
            line = "| test |"; rule = "|---|"
            for (i = 0; i < nb; i++) {
                line = line " " nm[i + 1] " CPU s | " nm[i + 1] " wall s |"
                rule = rule "---:|---:|"
            }
            print line; print rule
            for (a = 1; a <= nt; a++) {
                k = order[a]; line = "| `" k "` |"
                for (i = 0; i < nb; i++) line = line cell(k, i)
                print line
            }
            line = "| sum |"; span = "| span (first start to last end) |"
            for (i = 0; i < nb; i++) {
                line = line sprintf(" %s | %.0f |",
                    (i in hascpu) ? sprintf("%.0f", csum[i]) : "-", wsum[i])
                span = span sprintf(" | %.0f |", hi[i] - lo[i])
            }
            print line; print span
        } else {
            printf "%8s %8s %8s  %s\n", "CPU s", "wall s", "results", "test"
            for (a = 1; a <= nt; a++) {
                k = order[a]
                printf "%8s %8s %8d  %s\n", cpu[k, 0], wall[k, 0], res[k, 0], k
            }
            printf "%8s %8.0f %8s  sum of %d tests\n",
                (0 in hascpu) ? sprintf("%.0f", csum[0]) : "-", wsum[0], "", nt
            printf "%8s %8.0f %8s  span, first start to last end\n", "",
                hi[0] - lo[0], ""
        }
    }' "$tmp"/*
