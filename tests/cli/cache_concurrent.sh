#!/bin/bash
# tests/cli/cache_concurrent.sh - several sgexplore processes on one cache
# (TAP): started together on a cache that does not exist yet, on the same
# rule and on different rules, they all finish without "database is
# locked", and leave one consistent row per rule whose answers equal a
# run without the cache.

SG=${SGEXPLORE:-sgexplore}
T=$(mktemp -d "${TMPDIR:-/tmp}/concurrent.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT
export SGEXPLORE_DB="$T/new/dir/cache.db"

. "$(dirname "$0")/tap.sh"

rules=(0.07 0.77 0.137 0.16 0.26 0.35 0.52 0.72)

# worker K: every rule in a different order, then the same unresolved rule
# to a growing --max, so that rows are created, extended and re-read
# while the other workers do the same.
worker() {
    local k=$1 i r m
    for ((i = 0; i < ${#rules[@]}; i++)); do
        r=${rules[$(((i + 3 * k) % ${#rules[@]}))]}
        "$SG" --octal "$r" >/dev/null || echo "worker $k: --octal $r exited $?"
    done
    for m in 1000 2000 3000 4000; do
        "$SG" --grundy --max $((m + 100 * k)) >/dev/null ||
            echo "worker $k: --grundy exited $?"
    done
}

for round in 1 2; do
    rm -rf "$T/new"
    for k in 1 2 3 4; do
        worker $k >"$T/fail$k" 2>"$T/err$k" &
    done
    wait
    cat "$T"/fail[1-4] >"$T/fail"
    cat "$T"/err[1-4] >"$T/err"
    sed 's/^/# /' "$T/fail" "$T/err"
    check "round $round: all four processes exit 0" test ! -s "$T/fail"
    check "round $round: no \"database is locked\" (nor any other message)" \
        test ! -s "$T/err"
    rows=$("$SG" cache list --format json | grep -c '^{"rule":')
    check "round $round: one row per rule (9 rows: $rows)" test "$rows" = 9
    kept=$("$SG" cache list --format json | sed -n 's/^{"rule":"4!\.0".*"computed":\([0-9]*\),.*/\1/p')
    check "round $round: the longest Grundy prefix won (4400 values: $kept)" \
        test "$kept" = 4400
done

# Every cached answer equals a computation without the cache.
same=1
for r in "${rules[@]}"; do
    a=$("$SG" --octal "$r" --values 0:400 --quiet)
    b=$("$SG" --octal "$r" --values 0:400 --quiet --no-cache)
    [ -n "$a" ] && [ "$a" = "$b" ] || { same=0; echo "# $r differs"; }
done
check "cached values equal uncached ones for every rule" test $same = 1
a=$("$SG" --grundy --max 4400 --values 0:4399 --quiet | md5sum)
b=$("$SG" --grundy --max 4400 --values 0:4399 --quiet --no-cache | md5sum)
check "the contested Grundy prefix equals an uncached run" test "$a" = "$b"

if command -v sqlite3 >/dev/null 2>&1; then
    check "PRAGMA integrity_check says ok" \
        test "$(sqlite3 "$SGEXPLORE_DB" 'PRAGMA integrity_check')" = ok
else
    n=$((n + 1)); echo "ok $n # SKIP sqlite3 not installed"
fi

echo "1..$n"
exit $((fails > 0))
