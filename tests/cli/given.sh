#!/bin/bash
# tests/cli/given.sh - the form a rule was given in, kept beside its
# canonical key (issue 50: `--subtract 4+3k` became 0.0[003], family
# take-and-break, and was never listed as the subtraction game typed): the
# report's `given as:` line and JSON key, cache list and show (plain and
# JSON), `cache list --family subtract`, the first form kept, a file of
# schema version 3 read-only and upgraded, sweeps and merges that keep the
# form, and a forged form in a merged cache left out.

SG=${SGEXPLORE:-sgexplore}
T=$(mktemp -d "${TMPDIR:-/tmp}/given.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT

. "$(dirname "$0")/tap.sh"
field() { sed -n "s/^$1: //p" <<<"$2"; }
jkey() { python3 -c 'import json,sys; v=json.loads(sys.stdin.readline())[sys.argv[1]]; print("null" if v is None else v)' "$1"; }

DB=$T/c.db
export SGEXPLORE_DB=$DB

# The analysis: the canonical key, and the form given on a line of its own.
out=$("$SG" --subtract 4+3k --max 200 2>&1)
check "--subtract 4+3k is keyed 0.0[003]" test "$(field rule "$out")" = '0.0[003]'
check "... and says it was given as subtract{4+3k}" \
    test "$(field 'given as' "$out")" = 'subtract{4+3k}'
check "... of family take-and-break" \
    test "$(field family "$out")" = take-and-break
check "--json has \"given_as\"" test "$("$SG" --subtract 4+3k --max 200 --json |
    jkey given_as)" = 'subtract{4+3k}'
check "a rule in its canonical notation has \"given_as\": null" \
    test "$("$SG" --no-cache '0.0[003]' --max 200 --json | jkey given_as)" = null
check "... and no given line" \
    test -z "$(field 'given as' "$("$SG" --no-cache 0.77 --max 200)")"
check "subtract{primes} (kept as a set) has no given form" \
    test "$("$SG" --no-cache 'subtract{primes}' --max 200 --json |
        jkey given_as)" = null
check "the set's canonical spelling: --all-but 4+3k is given as all-but{4+3k}" \
    test "$(field 'given as' "$("$SG" --no-cache --all-but 4+3k --max 200)")" \
    = 'all-but{4+3k}'

# The cache: list and show, plain and JSON, and the family filter.
list=$("$SG" cache list 2>&1)
check "cache list shows a GIVEN column when a row has a form" \
    contains "$list" '^RULE .* UPDATED  *GIVEN$'
check "... with the form on the rule's line" \
    contains "$list" '^0\.0\[003\]  *take-and-break .*  subtract{4+3k}$'
sub=$("$SG" cache list --family subtract 2>&1)
check "cache list --family subtract lists 0.0[003] by its given form" \
    contains "$sub" '^0\.0\[003\] '
check "cache list --family take-and-break lists it too" \
    contains "$("$SG" cache list --family take-and-break)" '^0\.0\[003\] '
check "cache list --family octal does not" \
    test "$("$SG" cache list --family octal --format json | grep -c '"rule"')" = 0
check "cache list --format json has \"given_as\"" \
    test "$("$SG" cache list --family subtract --format json | jkey given_as)" \
    = 'subtract{4+3k}'
show=$("$SG" cache show --subtract 4+3k 2>&1)
check "cache show --subtract 4+3k finds it, given as subtract{4+3k}" \
    test "$(field rule "$show")" = '0.0[003]' -a \
    "$(field 'given as' "$show")" = 'subtract{4+3k}'
check "cache show --json has \"given_as\"" \
    test "$("$SG" cache show '0.0[003]' --json | jkey given_as)" = 'subtract{4+3k}'
"$SG" 0.77 --max 200 >/dev/null
check "a row without a form lists - in the GIVEN column" \
    contains "$("$SG" cache list)" '^0\.77 .*  -$'
check "a table without any form has no GIVEN column" \
    contains "$("$SG" cache list --family octal)" '^RULE .* UPDATED$'

# The first form stays; a row made in the canonical notation gets the
# first form it is later asked in, also when nothing new is computed.
"$SG" 'subtract{4+6k,7+6k}' --max 200 >/dev/null
check "a second form of the rule does not replace the first" \
    test "$("$SG" cache show '0.0[003]' --json | jkey given_as)" = 'subtract{4+3k}'
"$SG" '0.0[00003]' --max 200 >/dev/null
check "a row made in the canonical notation has no form" \
    test "$("$SG" cache show '0.0[00003]' --json | jkey given_as)" = null
out=$("$SG" --subtract 6+5k --max 200 2>&1)
check "... asked as --subtract 6+5k, it is served from the cache" \
    test "$(field source "$out")" = cache
check "... and keeps that form" \
    test "$("$SG" cache show '0.0[00003]' --json | jkey given_as)" = 'subtract{6+5k}'

# A file of schema version 3: the rules table as version 3 made it.
if command -v sqlite3 >/dev/null 2>&1; then
    old=$T/old.db
    sqlite3 "$DB" "PRAGMA wal_checkpoint(TRUNCATE)" >/dev/null
    cp "$DB" "$old"
    sqlite3 "$old" "ALTER TABLE rules DROP COLUMN given;
                    PRAGMA user_version = 3" >/dev/null
    cp "$old" "$T/ro.db"
    chmod a-w "$T/ro.db"
    before=$(cksum <"$T/ro.db")
    ro=$("$SG" cache list --db "$T/ro.db" --format json 2>&1)
    check "a read-only version-3 cache lists its rules" \
        test "$(grep -c '"rule"' <<<"$ro")" = 3
    check "... each with \"given_as\": null" \
        test "$(grep -c '"given_as":null' <<<"$ro")" = 3
    check "... and is left as it was" \
        test "$(cksum <"$T/ro.db")" = "$before" -a \
        "$(sqlite3 "$T/ro.db" 'PRAGMA user_version')" = 3
    out=$("$SG" --db "$old" --subtract 4+3k --max 200 2>&1)
    check "a writable version-3 cache serves the rule from the cache" \
        test "$(field source "$out")" = cache
    check "... is upgraded to version 4 with the column" \
        test "$(sqlite3 "$old" 'PRAGMA user_version')" = 4 -a \
        "$(sqlite3 "$old" "SELECT count(*) FROM pragma_table_info('rules')
                           WHERE name = 'given'")" = 1
    check "... keeps its rows and records the form" \
        test "$(sqlite3 "$old" 'SELECT count(*) FROM rules')" = 3 -a \
        "$(sqlite3 "$old" "SELECT given FROM rules
                           WHERE rule = '0.0[003]'")" = 'subtract{4+3k}'
else
    for _ in 1 2 3 4 5 6; do skip "sqlite3 is not installed (version 3)"; done
fi

# Sweeps: the worker analyses the form, so the row and the cache keep it.
printf -- '--subtract 2+4k\n0.77\n' >"$T/rules"
"$SG" sweep rules "$T/rules" --db "$T/s.db" --max 300 --format json \
    >"$T/sweep.json" 2>/dev/null
check "a sweep row of --subtract 2+4k has \"given_as\"" \
    test "$(grep '"rule":"0.\[0300\]"' "$T/sweep.json" | jkey given_as)" \
    = 'subtract{2+4k}'
check "... and the sweep's cache keeps it" \
    test "$("$SG" cache show '0.[0300]' --db "$T/s.db" --json | jkey given_as)" \
    = 'subtract{2+4k}'

# Merges: the form of an input's row reaches OUT even where OUT's row wins.
"$SG" --db "$T/m1.db" '0.0[003]' --max 500 >/dev/null
"$SG" --db "$T/m2.db" --subtract 4+3k --max 200 >/dev/null
"$SG" merge "$T/m1.db" "$T/m2.db" >/dev/null 2>&1
check "merge: OUT's own row gets the input's form" \
    test "$("$SG" cache show '0.0[003]' --db "$T/m1.db" --json | jkey given_as)" \
    = 'subtract{4+3k}'
"$SG" merge "$T/new.db" "$T/m2.db" >/dev/null 2>&1
check "merge into a new OUT keeps the form" \
    test "$("$SG" cache show '0.0[003]' --db "$T/new.db" --json | jkey given_as)" \
    = 'subtract{4+3k}'
if command -v sqlite3 >/dev/null 2>&1; then
    "$SG" --db "$T/m3.db" 0.77 --max 200 >/dev/null
    sqlite3 "$T/m3.db" "UPDATE rules SET given = 'subtract{4+3k}'
                        WHERE rule = '0.77'"
    "$SG" merge "$T/m4.db" "$T/m3.db" >/dev/null 2>"$T/err"
    check "merge leaves out a forged form, with a warning" \
        test "$("$SG" cache show 0.77 --db "$T/m4.db" --json | jkey given_as)" \
        = null -a "$(grep -c 'not a form of that rule' "$T/err")" = 1
else
    skip "sqlite3 is not installed (a forged form)"
fi

echo "1..$n"
[ "$fails" -eq 0 ]
