#!/bin/bash
# scripts/coq_census.sh - let Coq prove every census certificate that the
# Coq development covers (theorems guy-smith and subtraction-window, which
# coq/Periodic.v proves) with a bound of at most MAX (docs/PROOFS.md,
# "Census proofs").  Each certificate goes through
# `sgexplore verify --certificate C --export-proof`, and the scripts are
# compiled BATCH at a time, each in its own module, by one coqc; a batch
# that fails is compiled again one script at a time to name the culprits.
# Prints one line per batch, then the count and the CPU time of coqc.
#
# usage: scripts/coq_census.sh [MAX [BATCH]]     (defaults 20000 and 40)
# env:   SGEXPLORE (./sgexplore), CERTS (data/census/certs), OUT (a new
#        temporary folder; the generated scripts are left there), SKIP (0:
#        leave out that many certificates from the start of the list, to
#        resume a run)
set -u
MAX=${1:-20000}
BATCH=${2:-40}
SKIP=${SKIP:-0}
SG=${SGEXPLORE:-./sgexplore}
CERTS=${CERTS:-data/census/certs}
COQ=$(cd "$(dirname "$0")/../coq" && pwd)
OUT=${OUT:-$(mktemp -d "${TMPDIR:-/tmp}/coq-census.XXXXXX")}
mkdir -p "$OUT/dev" "$OUT/p" || exit 1
cp "$COQ"/*.v "$OUT/dev/" || exit 1
(cd "$OUT/dev" && for m in Spec Facts Periodic Check; do
    coqc -Q . SG "$m.v" || exit 1
done) || exit 1

# The certificates covered, smallest bound first.
for f in "$CERTS"/*.cert; do
    th=$(sed -n 's/^theorem: //p' "$f")
    b=$(sed -n 's/^bound: //p' "$f")
    case $th in guy-smith | subtraction-window) ;; *) continue ;; esac
    [ "$b" -le "$MAX" ] && echo "$b $f"
done | sort -n | cut -d' ' -f2- | tail -n +$((SKIP + 1)) >"$OUT/list"
total=$(wc -l <"$OUT/list")
echo "coq_census: $total certificates with bound <= $MAX (after skipping" \
     "$SKIP); scripts in $OUT/p"

proven=0 failed=0 cpu=0 i=0 k=0
compile() { # FILE: coqc's user + system CPU seconds on stdout
    rm -f "${1%.v}.vo"
    /usr/bin/time -f '%U %S' -o "$1.time" \
        coqc -Q "$OUT/dev" SG -R "$OUT/p" "" "$1" >"$1.log" 2>&1 ||
        rm -f "${1%.v}.vo"
    awk '{ printf "%.2f\n", $1 + $2 }' "$1.time"
}
flush() { # compile the current batch B$k.v of the scripts in $batch
    local f=$OUT/p/B$k.v t
    [ -n "$batch" ] || return
    t=$(compile "$f")
    if [ -e "$OUT/p/B$k.vo" ]; then
        n=$(echo $batch | wc -w)
        proven=$((proven + n))
        cpu=$(echo "$cpu + $t" | bc)
        echo "batch $k: $n proven in $t s (CPU), $proven/$total so far"
    else
        cpu=$(echo "$cpu + $t" | bc)
        echo "batch $k failed ($t s): compiling its scripts one by one"
        for s in $batch; do
            t=$(compile "$OUT/p/$s.v")
            cpu=$(echo "$cpu + $t" | bc)
            if [ -e "$OUT/p/$s.vo" ]; then
                proven=$((proven + 1))
            else
                failed=$((failed + 1))
                echo "NOT PROVEN: $s ($(head -n 2 "$OUT/p/$s.v" | tail -n 1))"
            fi
        done
    fi
    batch=
}
batch=
while read -r f; do
    i=$((i + 1))
    name=c$i
    if ! "$SG" verify --certificate "$f" --export-proof "$OUT/p/$name.v" \
        >"$OUT/p/$name.verify" 2>&1; then
        failed=$((failed + 1))
        echo "NOT EXPORTED: $f: $(tail -n 1 "$OUT/p/$name.verify")"
        continue
    fi
    if [ -z "$batch" ]; then
        k=$((k + 1))
        printf 'From Coq Require Import List Uint63 PArray.\nFrom SG Require Import Spec Check.\n' \
            >"$OUT/p/B$k.v"
    fi
    { echo "Module $name."
      grep -v '^From ' "$OUT/p/$name.v"
      echo "End $name."; } >>"$OUT/p/B$k.v"
    batch="$batch $name"
    [ "$(echo $batch | wc -w)" -ge "$BATCH" ] && flush
done <"$OUT/list"
flush
echo "coq_census: $proven of $total proven by coqc, $failed not," \
     "coqc CPU $cpu s (MAX $MAX)"
[ "$failed" = 0 ]
