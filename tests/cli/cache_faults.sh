#!/bin/bash
# tests/cli/cache_faults.sh - the cache when things go wrong (TAP): a
# corrupt, foreign or newer file at the cache path is reported (exit 1,
# one line naming the file) and left byte-for-byte untouched; a read-only
# cache still gives the answer, with one warning; a full disk keeps the
# previous contents and says so.  Parts that need a non-root user or a
# small file system are skipped when those cannot be had.

SG=${SGEXPLORE:-sgexplore}
T=$(mktemp -d "${TMPDIR:-/tmp}/faults.XXXXXX") || exit 1
chmod 755 "$T"
trap 'chmod -R u+w "$T" 2>/dev/null; rm -rf "$T"' EXIT
unset SGEXPLORE_DB

. "$(dirname "$0")/tap.sh"

# refused NAME FILE WORDS: the analysis and `cache list` refuse FILE with
# exit 1 and one stderr line naming it and saying WORDS; FILE unchanged.
refused() {
    local name=$1 f=$2 words=$3 out rc
    cp -p "$f" "$T/before"
    out=$("$SG" --db "$f" --subtract 1,3,4 2>"$T/err"); rc=$?
    check "$name: the analysis exits 1" test $rc -eq 1
    check "$name: nothing on stdout" test -z "$out"
    check "$name: one error line naming the file" \
        bash -c '[ $(wc -l <"$1") = 1 ] && grep -qF -- "$2" "$1" && grep -q -- "$3" "$1"' \
        _ "$T/err" "$f" "$words"
    "$SG" cache list --db "$f" >/dev/null 2>&1
    check "$name: cache list exits 1 too" test $? -eq 1
    "$SG" cache drop 0.77 --db "$f" >/dev/null 2>&1
    check "$name: cache drop exits 1 too" test $? -eq 1
    check "$name: the file is byte-for-byte unchanged" cmp -s "$f" "$T/before"
}

# --- foreign and corrupt files -------------------------------------------
printf 'my notes, not a database\n' >"$T/text.db"
refused "text file" "$T/text.db" "not an sgexplore cache"

head -c 8192 /dev/urandom >"$T/random.db"
refused "random bytes" "$T/random.db" "not an sgexplore cache"

"$SG" --db "$T/good.db" --grundy --max 20000 >/dev/null
size=$(stat -c %s "$T/good.db")
head -c $((size / 2)) "$T/good.db" >"$T/trunc.db"
refused "a cache cut in half" "$T/trunc.db" "corrupt"

if command -v sqlite3 >/dev/null 2>&1; then
    sqlite3 "$T/foreign.db" "CREATE TABLE rules (x); INSERT INTO rules VALUES (1);"
    refused "another program's SQLite file" "$T/foreign.db" "another program"
    cp "$T/good.db" "$T/newer.db"
    sqlite3 "$T/newer.db" "PRAGMA user_version = 99"
    refused "a newer schema" "$T/newer.db" "newer sgexplore"
else
    for i in 1 2 3 4 5 6 7 8 9 10 11 12; do skip "sqlite3 not installed"; done
fi

# --- read-only cache -----------------------------------------------------
# As root, permissions do not stop writes: run as user nobody instead.
# Nobody may be unable to enter the build tree (a checkout under a 0700
# home or mktemp -d folder), so the files nobody must reach, the cache and
# a copy of the program, live in a fresh world-traversable directory made
# here; when nobody still cannot reach them, the checks are skipped with
# the reason.
RO=$(mktemp -d /tmp/sgexplore-ro.XXXXXX) || exit 1
chmod 755 "$RO"
trap 'chmod -R u+w "$T" "$RO" 2>/dev/null; rm -rf "$T" "$RO"' EXIT
mkdir "$RO/ro"
"$SG" --db "$RO/ro/c.db" --subtract 1,3,4 >/dev/null
chmod 444 "$RO/ro/c.db"
chmod 555 "$RO/ro"
run_ro=()
SG_RO=$SG
ro_skip=
if [ "$(id -u)" = 0 ]; then
    as_nobody=(setpriv --reuid=65534 --regid=65534 --clear-groups)
    if ! command -v setpriv >/dev/null 2>&1; then
        ro_skip="running as root without setpriv"
    else
        if ! "${as_nobody[@]}" "$SG" --version >/dev/null 2>&1; then
            cp "$SG" "$RO/sgexplore" && chmod 755 "$RO/sgexplore"
            SG_RO=$RO/sgexplore
        fi
        if ! "${as_nobody[@]}" "$SG_RO" --version >/dev/null 2>&1; then
            ro_skip="user nobody cannot run the program (copied to $RO)"
        elif ! "${as_nobody[@]}" test -r "$RO/ro/c.db"; then
            ro_skip="user nobody cannot reach $RO/ro/c.db"
        else
            run_ro=("${as_nobody[@]}")
        fi
    fi
fi
if [ -n "$ro_skip" ]; then
    for i in 1 2 3 4 5 6; do skip "$ro_skip"; done
else
    cp -p "$RO/ro/c.db" "$T/before"
    out=$("${run_ro[@]}" "$SG_RO" --db "$RO/ro/c.db" --octal 0.07 2>"$T/err"); rc=$?
    check "read-only cache: the analysis exits 0" test $rc -eq 0
    check "read-only cache: it prints its answer (Dawson's Kayles: p 34, n0 53)" \
        bash -c 'grep -qx "period: 34" <<<"$1" && grep -qx "preperiod: 53" <<<"$1"' _ "$out"
    check "read-only cache: exactly one warning, that nothing was stored" \
        bash -c '[ $(wc -l <"$1") = 1 ] && grep -q "nothing was stored" "$1"' _ "$T/err"
    out=$("${run_ro[@]}" "$SG_RO" --db "$RO/ro/c.db" --subtract 1,3,4 2>"$T/err"); rc=$?
    check "read-only cache: a cached rule is still read from it" \
        bash -c '[ $2 = 0 ] && grep -qx "source: cache" <<<"$1" && [ ! -s "$3" ]' _ "$out" "$rc" "$T/err"
    check "read-only cache: the file is unchanged" cmp -s "$RO/ro/c.db" "$T/before"
    out=$(SGEXPLORE_DB="$RO/ro/sub/c.db" "${run_ro[@]}" "$SG_RO" --subtract 1,3,4 2>"$T/err"); rc=$?
    check "default cache directory cannot be created: answer plus one warning" \
        bash -c '[ $2 = 0 ] && grep -qx "period: 7" <<<"$1" && [ $(wc -l <"$3") = 1 ]' _ "$out" "$rc" "$T/err"
fi
chmod 755 "$RO/ro"

# --- disk full -----------------------------------------------------------
# A 256 KiB tmpfs in a private mount namespace: small rules fit, 300000
# values of Grundy's game do not.
if [ "$(id -u)" = 0 ] && command -v unshare >/dev/null 2>&1 &&
    unshare -m true 2>/dev/null; then
    mkdir "$T/full"
    unshare -m bash -c '
        mount -t tmpfs -o size=256k tmpfs "$2" || exit 77
        "$1" --db "$2/c.db" --subtract 1,3,4 >/dev/null || exit 70
        "$1" --db "$2/c.db" --octal 0.07 >/dev/null || exit 71
        cp "$2/c.db" "$3/full-before.db"
        "$1" --db "$2/c.db" --grundy --max 300000 >"$3/full-out" 2>"$3/full-err"
        echo $? >"$3/full-rc"
        "$1" cache list --db "$2/c.db" --format json >"$3/full-list" 2>&1
        cp "$2/c.db" "$3/full-after.db"
    ' _ "$SG" "$T/full" "$T"
    st=$?
    if [ $st = 77 ]; then
        for i in 1 2 3 4; do skip "cannot mount a tmpfs here"; done
    else
        check "disk full: the run still prints its answer" \
            grep -q "^status: unresolved" "$T/full-out"
        check "disk full: exit status 1" test "$(cat "$T/full-rc" 2>/dev/null)" = 1
        check "disk full: the error says the disk is full" \
            grep -q "disk is full" "$T/full-err"
        check "disk full: the earlier rows are all still there" \
            bash -c 'grep -q "\"rule\":\"subtract{1,3,4}\"" "$1" && grep -q "\"rule\":\"0.07\"" "$1" && grep -q "\"rules\":2," "$1"' _ "$T/full-list"
    fi
else
    for i in 1 2 3 4; do skip "needs root and unshare for a small tmpfs"; done
fi

echo "1..$n"
exit $((fails > 0))
