#!/bin/bash
# bench/parity_sweep.sh - the sweep behind docs/BENCHMARKS.md's list of
# games whose sparse space needs the heap's parity: for every 2- and
# 3-digit octal code 0.d1d2[d3] and 4.d1d2[d3] whose moves leave at most
# two heaps, `sgbench space` rates the masks on N values (default 2*10^4)
# over the values alone and with the parity, and the codes found only
# with the parity are printed (then every line with SG_SWEEP_ALL=1).
# Not part of `make check` or `make bench`: it takes minutes.
#
# Usage: bench/parity_sweep.sh [SGBENCH [N]]

set -u
SGBENCH=${1:-./bench/sgbench}
N=${2:-20000}

for lead in 0 4; do
    for a in 0 1 2 3 4 5 6 7; do
        for b in 0 1 2 3 4 5 6 7; do
            for c in '' 1 2 3 4 5 6 7; do
                # the last digit must not be 0; 0.0 and 4.0 are trivial
                test -z "$c" && test "$b" = 0 && continue
                line=$("$SGBENCH" space "$lead.$a$b$c" "$N" 2>/dev/null) ||
                    continue
                if test "${SG_SWEEP_ALL:-0}" = 1; then
                    echo "$line"
                else
                    case $line in
                    *plain_found=0*" found=1 "*) echo "$line" ;;
                    esac
                fi
            done
        done
    done
done
