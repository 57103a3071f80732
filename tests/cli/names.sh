#!/bin/bash
# tests/cli/names.sh - rule names and families as a new user meets them
# (TAP): well-known names in any case, Nim printed as `nim` from every form
# that writes it, Grundy's game and other codes with `!` or a tail in family
# take-and-break, certificates naming Nim's old form `all-but{}` verified,
# and a cache of schema version 1 (Nim keyed all-but{}, Grundy's game of
# family octal) found under the new names, read-only and upgraded.

SG=${SGEXPLORE:-sgexplore}
T=$(mktemp -d "${TMPDIR:-/tmp}/names.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT

. "$(dirname "$0")/tap.sh"
field() { sed -n "s/^$1: //p" <<<"$2"; }
sg() { "$SG" --no-cache "$@" 2>&1; }

# Names are case-insensitive; the canonical text is the literature's code.
for form in kayles Kayles KAYLES; do
    check "$form is Kayles (0.77)" test "$(field rule "$(sg "$form")")" = 0.77
done
check "Dawson is 0.07" test "$(field rule "$(sg Dawson)")" = 0.07
check "--rule OFFICERS is 0.6" \
    test "$(field rule "$(sg --rule OFFICERS --max 500)")" = 0.6
check "SUBTRACT{1,2} is subtract{1,2}" \
    test "$(field rule "$(sg 'SUBTRACT{1,2}')")" = 'subtract{1,2}'

# Nim: one printed form, `nim`, from every way of writing it.
for form in nim Nim NIM 'all-but{}' '0.[3]' '0.3[3]'; do
    check "$form prints as rule: nim" test "$(field rule "$(sg "$form")")" = nim
done
check "--all-but '' prints as rule: nim" \
    test "$(field rule "$(sg --all-but '')")" = nim
check "--rule 0.[3] prints as rule: nim" \
    test "$(field rule "$(sg --rule '0.[3]')")" = nim
check "Nim's family is all-but" test "$(field family "$(sg nim)")" = all-but

# Families are true: octal and hex games are finite codes without `!`.
check "Grundy's game is of family take-and-break" \
    test "$(field family "$(sg grundy --max 1000)")" = take-and-break
check "0.[7] is of family take-and-break" \
    test "$(field family "$(sg '0.[7]' --max 1000)")" = take-and-break
check "Kayles is octal" test "$(field family "$(sg kayles)")" = octal
check "0.8F is hex" test "$(field family "$(sg 0.8F --max 1000)")" = hex

# A certificate written before Nim was `nim` still verifies.
"$SG" --no-cache nim --export-certificate "$T/nim.cert" >/dev/null 2>&1
check "Nim's certificate names nim" grep -qx 'rule: nim' "$T/nim.cert"
sed 's/^rule: nim$/rule: all-but{}/' "$T/nim.cert" >"$T/old.cert"
out=$("$SG" verify --certificate "$T/old.cert" 2>&1)
check "a certificate naming all-but{} is confirmed" \
    test "$(tail -n 1 <<<"$out")" = confirmed
if command -v python3 >/dev/null 2>&1; then
    PY=${top_srcdir:-.}/scripts/check_certificate.py
    for c in nim old; do
        check "the Python checker confirms the $c certificate" \
            test "$(PYTHONDONTWRITEBYTECODE=1 python3 "$PY" "$T/$c.cert")" \
            = confirmed
    done
fi

# A cache of schema version 1, as that sgexplore wrote it.
if command -v sqlite3 >/dev/null 2>&1; then
    db=$T/c.db
    "$SG" --db "$db" nim >/dev/null 2>&1
    "$SG" --db "$db" grundy --max 3000 >/dev/null 2>&1
    sqlite3 "$db" "UPDATE rules SET rule = 'all-but{}' WHERE rule = 'nim';
                   UPDATE rules SET family = 'octal' WHERE rule = '4!.0';
                   PRAGMA user_version = 1"
    cp "$db" "$T/ro.db"
    chmod a-w "$T/ro.db"
    list=$("$SG" cache list --db "$T/ro.db" --family take-and-break 2>&1)
    check "a read-only version-1 cache lists Grundy's game as take-and-break" \
        contains "$list" '^4!\.0  *take-and-break'
    show=$("$SG" cache show nim --db "$T/ro.db" 2>&1)
    check "... and finds its Nim row as nim" has "$show" "rule: nim"
    check "... and is left at version 1" \
        test "$(sqlite3 "$T/ro.db" 'PRAGMA user_version')" = 1
    out=$("$SG" --db "$db" nim 2>&1)
    check "a writable version-1 cache serves Nim from the cache" \
        test "$(field source "$out")" = cache
    check "... and is upgraded to the current version, 4" \
        test "$(sqlite3 "$db" 'PRAGMA user_version')" = 4
    check "... its keys and families renamed" \
        test "$(sqlite3 "$db" "SELECT group_concat(rule || ' ' || family, ', ')
                               FROM (SELECT * FROM rules ORDER BY rule)")" \
             = "4!.0 take-and-break, nim all-but"
else
    skip "sqlite3 is not installed (the version-1 cache)"
fi

echo "1..$n"
[ "$fails" -eq 0 ]
