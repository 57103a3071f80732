#!/bin/bash
# bench/scaling_sweep.sh - issue 14's "every 2- and 3-digit octal game
# whose sparse space the peers find runs in near-linear time here too",
# measured: for every code of bench/parity_sweep.sh whose sparse space
# `sgbench space` finds on 2*10^4 values (plainly or with the heap's
# parity), the CPU time of `sgbench enum` to N and to 4N values (default
# N = 2*10^5); a linear method grows by 4, a quadratic one by 16.  Prints
# one line per code (code, rare heaps at 4N, the two CPU times, the
# growth) and a summary; codes that grow by more than LIMIT (default 8)
# are flagged "SLOW".  Not part of `make check` or `make bench`: it takes
# minutes.
#
# Usage: bench/scaling_sweep.sh [SGBENCH [N [LIMIT]]]

set -u
SGBENCH=${1:-./bench/sgbench}
N=${2:-200000}
LIMIT=${3:-8}

field() { # field KEY LINE
    local kv
    for kv in $2; do
        case $kv in "$1="*) echo "${kv#*=}"; return ;; esac
    done
}

codes=0 slow=0 worst= worst_g=0
for lead in 0 4; do
    for a in 0 1 2 3 4 5 6 7; do
        for b in 0 1 2 3 4 5 6 7; do
            for c in '' 1 2 3 4 5 6 7; do
                test -z "$c" && test "$b" = 0 && continue
                code=$lead.$a$b$c
                line=$("$SGBENCH" space "$code" 20000 2>/dev/null) || continue
                test "$(field found "$line")" = 1 || continue
                one=$("$SGBENCH" enum "$code" "$N" 2>/dev/null) || continue
                four=$("$SGBENCH" enum "$code" $((4 * N)) 2>/dev/null) ||
                    continue
                # (a floor of 1 ms: process start and page faults)
                g=$(awk -v a="$(field cpu "$one")" -v b="$(field cpu "$four")" \
                    'BEGIN { if (a < 0.001) a = 0.001; if (b < 0.001) b = 0.001
                             printf "%.2f", b / a }')
                flag=
                if awk -v g="$g" -v l="$LIMIT" 'BEGIN { exit !(g > l) }'; then
                    flag=" SLOW"
                    slow=$((slow + 1))
                fi
                if awk -v g="$g" -v w="$worst_g" 'BEGIN { exit !(g > w) }'; then
                    worst=$code worst_g=$g
                fi
                codes=$((codes + 1))
                printf '%-8s rare %6s  cpu %8s %8s  x%s%s\n' "$code" \
                    "$(field rare "$four")" "$(field cpu "$one")" \
                    "$(field cpu "$four")" "$g" "$flag"
            done
        done
    done
done
echo "scaling: $codes codes with a sparse space, N=$N to $((4 * N)):" \
    "$slow grew by more than x$LIMIT; the most: $worst x$worst_g"
