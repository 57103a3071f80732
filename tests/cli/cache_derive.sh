#!/bin/bash
# tests/cli/cache_derive.sh - `sgexplore cache derive RULE PARENT` (TAP):
# a rule's values read off a subgame's cached ones must be exactly those
# of a run of the rule from scratch, whether the two agree over every
# value (0.2663 from 0.264), differ early (0.03 from 0.02 at heap 2) or
# come from a proven parent continued through its period (0.771 from
# Kayles, its own period then proven and its certificate confirmed by
# verify); a run afterwards extends the derived row.  Rules the lemma
# does not cover, a parent that is not cached and bad options are
# refused with one line, storing nothing.

SG=${SGEXPLORE:-sgexplore}
T=$(mktemp -d "${TMPDIR:-/tmp}/derive.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT

. "$(dirname "$0")/tap.sh"

if ! command -v python3 >/dev/null 2>&1; then
    echo "1..0 # SKIP python3 is not installed"
    exit 0
fi

# field FILE KEY: one key of a JSON report.
field() { python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])' "$1" "$2"; }
# values DB RULE N: how many of G(0..N-1) the program prints, and their MD5.
values() {
    local v
    v=$("$SG" "$2" --db "$1" --max "$3" --values "0:$(($3 - 1))" --format csv 2>/dev/null | tail -n +2)
    echo "$(printf '%s\n' "$v" | grep -c ,) $(printf '%s\n' "$v" | md5sum)"
}

"$SG" 0.264 --max 20000 --db "$T/p.db" --quiet >/dev/null
"$SG" cache derive 0.2663 0.264 --from "$T/p.db" --db "$T/c.db" --json >"$T/d.json"
check "0.2663 from 0.264: exit 0" test $? = 0
check "... they agree over all 20000 values" test "$(field "$T/d.json" agree)" = 20000
check "... first_difference null" test "$(field "$T/d.json" first_difference)" = None
check "... stored" test "$(field "$T/d.json" stored)" = True
check "... the row says where its values came from" \
    sh -c '"$1" cache show 0.2663 --db "$2" | grep -qx "algorithm: derived from 0.264"' _ "$SG" "$T/c.db"
check "... all 20000 values printed" test "$(values "$T/c.db" 0.2663 20000 | cut -d' ' -f1)" = 20000
check "... values equal a run from scratch" \
    test "$(values "$T/c.db" 0.2663 20000)" = "$(values "$T/f.db" 0.2663 20000)"
"$SG" 0.2663 --max 40000 --db "$T/c.db" --json >"$T/e.json"
check "... a run to 40000 extends the derived row" test "$(field "$T/e.json" source)" = extended
check "... and its values equal a run from scratch" \
    test "$(values "$T/c.db" 0.2663 40000)" = "$(values "$T/f.db" 0.2663 40000)"
"$SG" cache derive 0.2663 0.264 --from "$T/p.db" --db "$T/c.db" --json >"$T/d2.json"
check "... deriving again stores nothing: the cache knows more" \
    test "$(field "$T/d2.json" stored)" = False

"$SG" 0.02 --max 3000 --db "$T/p.db" --quiet >/dev/null
"$SG" cache derive 0.03 0.02 --from "$T/p.db" --db "$T/c.db" --json >"$T/d.json"
check "0.03 from 0.02: they differ first at heap 2" \
    test "$(field "$T/d.json" first_difference) $(field "$T/d.json" agree)" = "2 2"
"$SG" 0.03 --max 3000 --db "$T/c.db" --quiet >/dev/null
check "... the run from the two derived values is a run from scratch" \
    test "$(values "$T/c.db" 0.03 3000)" = "$(values "$T/f.db" 0.03 3000)"

"$SG" 0.77 --max 3000 --db "$T/p.db" --quiet >/dev/null
"$SG" cache derive 0.771 0.77 --from "$T/p.db" --db "$T/k.db" --max 5000 --json >"$T/d.json"
check "0.771 from Kayles (proven) to 5000 values: exit 0" test $? = 0
check "... 5000 values through Kayles's period" test "$(field "$T/d.json" agree)" = 5000
check "... 0.771's own period proven on them" test "$(field "$T/d.json" status)" = periodic
check "... values equal a run from scratch" \
    test "$(values "$T/k.db" 0.771 5000)" = "$(values "$T/f.db" 0.771 5000)"
"$SG" 0.771 --db "$T/k.db" --export-certificate "$T/k.cert" --quiet >/dev/null
check "... its certificate is confirmed by verify" \
    sh -c '"$1" verify --no-cache --certificate "$2" | tail -n 1 | grep -qx confirmed' _ "$SG" "$T/k.cert"

# refusals: one line, exit status, nothing stored
refuse() {
    local want=$1 what=$2
    shift 2
    "$SG" cache derive "$@" --db "$T/r.db" >"$T/r.out" 2>"$T/r.err"
    local rc=$?
    check "$what: exit $want" test $rc = "$want"
    check "... one line on stderr" test "$(wc -l <"$T/r.err")" = 1
    check "... nothing stored" test "$("$SG" cache list --db "$T/r.db" 2>/dev/null | grep -c '^0\.')" = 0
}
refuse 2 "an extra split (0.0441 from 0.04)" 0.0441 0.04 --from "$T/p.db"
refuse 2 "a parent with moves the rule lacks (0.02 from 0.03)" 0.02 0.03 --from "$T/k.db"
refuse 2 "a repeating tail (0.[3] from 0.02)" '0.[3]' 0.02 --from "$T/p.db"
refuse 1 "a parent not cached (0.0403 from 0.04)" 0.0403 0.04 --from "$T/p.db"
refuse 2 "no PARENT" 0.77
refuse 2 "--max not a number" 0.03 0.02 --from "$T/p.db" --max many
refuse 2 "a bad rule" 0.9z 0.02 --from "$T/p.db"
printf 'not a database\n' >"$T/bad.db"
refuse 1 "--from a file that is no cache" 0.03 0.02 --from "$T/bad.db"

echo "1..$n"
[ $fails = 0 ]
