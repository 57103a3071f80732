#!/bin/bash
# tests/cli/threads.sh - --threads T through the CLI (TAP): Officers and
# Grundy's game give the same values for T = 1, 2, 5 and 8 (the first
# 1,200 also against a naive Python enumeration); deep runs with any T,
# and one resumed from its checkpoint with another T, end with the
# checksum this script computes itself from the full run's values (an
# independent FNV-1a); bad counts get one line naming --threads and exit
# 2.  (tests/test_threads.c compares T = 1..8 on five games, the helpers
# forced onto every superblock.)

SG=${SGEXPLORE:-sgexplore}
T=$(mktemp -d "${TMPDIR:-/tmp}/threads.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT

. "$(dirname "$0")/tap.sh"

if ! command -v python3 >/dev/null 2>&1; then
    echo "1..0 # SKIP python3 is not installed"
    exit 0
fi

# G(0..n-1) of Officers (0.6: take one, leave one or two heaps) and
# Grundy's game (split into two unequal heaps), naively, one per line as
# --values prints them.
naive() {
    python3 -c '
import sys
game, n = sys.argv[1], int(sys.argv[2])
g = []
for h in range(n):
    opts = set()
    if game == "0.6":
        r = h - 1
        for a in range(1, r // 2 + 1):
            opts.add(g[a] ^ g[r - a])
        if r >= 1:
            opts.add(g[r])
    else:
        for a in range(1, (h + 1) // 2):
            opts.add(g[a] ^ g[h - a])
    m = 0
    while m in opts:
        m += 1
    g.append(m)
    print("G(%d) = %d" % (h, m))' "$1" "$2"
}

# FNV-1a 64 of "G(0),G(1),..." (sg_checksum) from --values lines.
fnv() {
    python3 -c '
import sys
h = 14695981039346656037
first = True
for line in open(sys.argv[1]):
    v = line.split("= ")[1].strip()
    for b in (v if first else "," + v).encode():
        h = ((h ^ b) * 1099511628211) & 0xFFFFFFFFFFFFFFFF
    first = False
print("fnv1a64:%016x" % h)' "$1"
}

# The deep report's checksum, computed count and kept ranges.
deep_sum() {
    python3 -c '
import json, sys
o = json.load(open(sys.argv[1]))
print(o["deep"]["checksum"], o["computed"], len(o["deep"]["kept"]))' "$1"
}

# (DN for the deep runs: Officers needs a window of 46,122 values, which
# moves past 3 windows)
N=100000
DN=160000
for g in 0.6 4!.0; do
    naive $g 1200 >"$T/naive.$g"
    "$SG" $g --threads 8 --max 1200 --no-cache --values 0:1199 --quiet \
        >"$T/v8.$g"
    check "$g, 8 threads: G(0..1199) as the naive enumeration's" \
        cmp -s "$T/naive.$g" "$T/v8.$g"
    M=$N
    [ $g = 0.6 ] && M=$DN
    "$SG" $g --threads 1 --max $M --no-cache --values 0:$((M - 1)) \
        --quiet >"$T/all.$g"
    head -n $N "$T/all.$g" >"$T/one.$g"
    check "$g, one thread: $N values" test "$(wc -l <"$T/one.$g")" = $N
    for t in 2 5 8; do
        "$SG" $g --threads $t --max $N --no-cache --values 0:$((N - 1)) \
            --quiet >"$T/t$t.$g"
        check "$g, $t threads: the one-thread run's $N values" \
            cmp -s "$T/one.$g" "$T/t$t.$g"
    done
done

# Deep runs of Officers (a window of 49152 holds what it needs: it does
# not stop) past three windows, so that the window moves.
want="$(fnv "$T/all.0.6") $DN 2"
DEEP=(--deep --window 49152 --checkpoint 0)
for t in 1 8; do
    "$SG" 0.6 "${DEEP[@]}" --max $DN --threads $t --no-cache --json \
        >"$T/deep$t.json" 2>"$T/deep$t.err"
    check "deep run, $t threads: the window moved, the full run's checksum" \
        test "$(deep_sum "$T/deep$t.json")" = "$want"
done
"$SG" 0.6 "${DEEP[@]}" --max 60000 --threads 3 --db "$T/r.db" \
    >/dev/null 2>"$T/r1.err"
check "a deep run to 60000 with 3 threads stores its checkpoint" test $? = 0
"$SG" 0.6 "${DEEP[@]}" --max $DN --threads 7 --db "$T/r.db" --json \
    >"$T/r2.json" 2>"$T/r2.err"
check "resumed with 7 threads: it says so" \
    contains "$(cat "$T/r2.json")" '"source":"resumed from a checkpoint"'
check "resumed with 7 threads: the full run's checksum" \
    test "$(deep_sum "$T/r2.json")" = "$want"

# Bad counts: one line naming --threads, exit 2, nothing stored.
for bad in 0 65 -1 x 2.5 ''; do
    out=$("$SG" 0.6 --threads "$bad" --db "$T/bad.db" 2>&1)
    rc=$?
    check "--threads '$bad': exit 2, one line naming --threads" \
        test $rc = 2 -a "$(wc -l <<<"$out")" = 1 -a \
        "$(grep -c -- '--threads' <<<"$out")" = 1
done
check "nothing stored by the bad counts" test ! -e "$T/bad.db"
check "--help names --threads" contains "$("$SG" --help)" '--threads T'

echo "1..$n"
[ $fails = 0 ]
