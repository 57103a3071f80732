#!/bin/bash
# tests/cli/escape.sh - a crafted cache reaches the terminal escaped (TAP):
# a cache made by sgexplore, whose rows are then rewritten with sqlite3 to
# hold ESC sequences, line breaks, carriage returns, tabs, BEL, a C1
# control and invalid UTF-8 in the key, family, date and note, as a cache
# from someone else may (docs/RELIABILITY.md, "Untrusted caches").  Every
# command that prints them (cache list as table and JSON, cache show,
# cache drop, the checkpoint lines, the "damaged" messages) must let no
# raw control byte through, print the lines it always prints, no more,
# and show the escaped form (\x1B, \n, \r, \xFF; valid UTF-8 such as
# "misère" kept); a set difference keeps its backslash.  The judge of
# "no control byte" and of the JSON is Python's own UTF-8 and JSON
# reader.  Runs with $SGEXPLORE (the built program) and a scratch $TMPDIR.

SG=${SGEXPLORE:-sgexplore}
T=$(mktemp -d "${TMPDIR:-/tmp}/escape.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT
export SGEXPLORE_DB="$T/cache.db"

. "$(dirname "$0")/tap.sh"

if ! command -v sqlite3 >/dev/null 2>&1 || ! command -v python3 >/dev/null 2>&1; then
    for d in list-exit list-clean list-lines list-escaped list-columns \
        json-clean json-rows show-clean show-lines show-note show-json \
        damaged-list damaged-show damaged-values checkpoint drop \
        backslash; do
        skip "sqlite3 or python3 not installed ($d)"
    done
    echo "1..$n"
    exit 0
fi

# clean FILE...: every file is valid UTF-8 without a control character
# (C0 but the line feed, DEL, C1) and ends with a line feed when not empty.
clean() {
    python3 - "$@" <<'EOF'
import sys
for path in sys.argv[1:]:
    data = open(path, "rb").read()
    text = data.decode("utf-8")  # raises on invalid UTF-8
    for c in text:
        o = ord(c)
        if (o < 0x20 and c != "\n") or 0x7F <= o < 0xA0:
            sys.exit("%s: control character U+%04X" % (path, o))
    if data and not data.endswith(b"\n"):
        sys.exit("%s: no final line feed" % path)
EOF
}
# lines FILE: its number of lines.
lines() { wc -l <"$1" | tr -d ' '; }
export -f clean lines

# The raw key: ESC [2J (clear the screen), a line feed that would start a
# forged line, a carriage return, an invalid byte, "misère" (valid UTF-8,
# kept), U+009B (CSI as a C1 control) and a literal backslash-x.
key=$(printf 'evil\033[2J\nforged line\r\377 mis\303\250re \302\233 a\\x41')
# What the escape shows of it: the one form every text output uses.
shown='evil\x1B[2J\nforged line\r\xFF misère \xC2\x9B a\\x41'
hex=$(printf '%s' "$key" | od -An -tx1 | tr -d ' \n')

"$SG" 0.07 >/dev/null && "$SG" --subtract 1,2,3 >/dev/null &&
    "$SG" --grundy --max 300 >/dev/null || { echo "Bail out! cannot fill the cache"; exit 1; }
cp "$SGEXPLORE_DB" "$T/pristine.db"
sqlite3 "$SGEXPLORE_DB" "
UPDATE rules SET rule = CAST(X'$hex' AS TEXT),
  family = 'oct' || char(9) || 'al',
  updated = '2026' || char(27) || ']0;title' || char(7)
  WHERE rule = '0.07';
UPDATE rules SET note = 'seen' || char(10) || 'forged: note' || char(27) || '[31m'
  WHERE rule = '4!.0';"

# --- cache list ----------------------------------------------------------
"$SG" cache list >"$T/out" 2>"$T/err"; rc=$?
check "cache list: exit 0, no control byte on stdout or stderr" \
    bash -c '[ $1 = 0 ] && [ ! -s "$2" ]' _ "$rc" "$T/err"
check "... (stdout valid UTF-8, control bytes escaped)" clean "$T/out" "$T/err"
check "... 5 lines: the header, 3 rules, the summary; no forged line" \
    bash -c '[ "$(lines "$1")" = 5 ] && ! grep -q "^forged" "$1"' _ "$T/out"
check "... the key, family and date escaped: $shown" \
    bash -c 'grep -F -- "$2" "$1" | grep -F "oct\\tal" | grep -qF "2026\\x1B]0;title\\x07"' \
    _ "$T/out" "$shown"
# The STATUS column starts at the same character in every line, the one
# with "misère" (a character of two bytes) too.
check "... the columns stay aligned (counted in characters)" \
    python3 -c '
import sys
rows = open(sys.argv[1], encoding="utf-8").read().split("\n")[:4]
cols = {r.index("STATUS") if r.startswith("RULE") else
        r.index("periodic") if " periodic" in r else r.index("unresolved")
        for r in rows}
sys.exit(len(cols) != 1)' "$T/out"

"$SG" cache list --format json >"$T/out" 2>"$T/err"; rc=$?
check "cache list --format json: exit 0, nothing on stderr, clean" \
    bash -c '[ $1 = 0 ] && [ ! -s "$2" ] && clean "$3"' _ "$rc" "$T/err" "$T/out"
# Python reads the raw key with U+FFFD for the invalid byte, as
# docs/JSON.md says strings carry it.
check "... 4 JSON lines; the key, family and note read back from them" \
    python3 -c '
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1], encoding="utf-8")]
key = sys.argv[2].encode("utf-8", "surrogateescape").decode("utf-8", "replace")
evil = [r for r in rows if r.get("rule") == key]
grundy = [r for r in rows if r.get("rule") == "4!.0"]
sys.exit(not (len(rows) == 4 and "summary" in rows[3] and len(evil) == 1 and
              evil[0]["family"] == "oct\tal" and
              evil[0]["updated"] == "2026\x1b]0;title\x07" and
              grundy[0]["note"] == "seen\nforged: note\x1b[31m"))' \
    "$T/out" "$key"

# --- cache show ----------------------------------------------------------
SGEXPLORE_DB="$T/pristine.db" "$SG" cache show 0.07 >"$T/want" 2>&1
"$SG" cache show "$key" >"$T/out" 2>"$T/err"; rc=$?
check "cache show KEY: exit 0, nothing on stderr, clean" \
    bash -c '[ $1 = 0 ] && [ ! -s "$2" ] && clean "$3"' _ "$rc" "$T/err" "$T/out"
check "... as many lines as the untouched row's; rule, family, updated escaped" \
    bash -c '[ "$(lines "$1")" = "$(lines "$2")" ] && grep -qxF -- "rule: $3" "$1" && grep -qxF "family: oct\\tal" "$1" && grep -qxF "updated: 2026\\x1B]0;title\\x07" "$1"' \
    _ "$T/out" "$T/want" "$shown"
"$SG" cache show '4!.0' >"$T/out" 2>&1
check "... an unresolved row's note escaped on its one line" \
    bash -c 'clean "$1" && grep -qxF "note: seen\\nforged: note\\x1B[31m" "$1" && ! grep -q "^forged" "$1"' \
    _ "$T/out"
"$SG" cache show "$key" --json >"$T/out" 2>"$T/err"
check "cache show KEY --json: one clean line of JSON" \
    bash -c '[ "$(lines "$1")" = 1 ] && clean "$1" "$2" && python3 -c "import json,sys; json.load(open(sys.argv[1]))" "$1"' \
    _ "$T/out" "$T/err"

# --- damaged rows: the messages that quote the key -----------------------
cp "$SGEXPLORE_DB" "$T/damaged.db"
sqlite3 "$T/damaged.db" "UPDATE rules SET stored = computed + 1 WHERE family LIKE 'oct%'"
"$SG" cache list --db "$T/damaged.db" >"$T/out" 2>"$T/err"; rc=$?
check "cache list of a damaged row: exit 1, one clean line naming it escaped" \
    bash -c '[ $1 = 1 ] && [ "$(lines "$2")" = 1 ] && clean "$2" "$3" && grep -qF -- "the row of $4 is damaged" "$2"' \
    _ "$rc" "$T/err" "$T/out" "$shown"
"$SG" cache show "$key" --db "$T/damaged.db" >"$T/out" 2>"$T/err"; rc=$?
check "cache show of it: exit 1, one clean line, the drop hint escaped" \
    bash -c '[ $1 = 1 ] && [ "$(lines "$2")" = 1 ] && [ ! -s "$3" ] && clean "$2" && grep -qF -- "is damaged; drop it with \`sgexplore cache drop '\''$4'\''\`" "$2"' \
    _ "$rc" "$T/err" "$T/out" "$shown"
cp "$SGEXPLORE_DB" "$T/values.db"
sqlite3 "$T/values.db" "UPDATE chunks SET hash = 'x' WHERE rule_id =
  (SELECT id FROM rules WHERE family LIKE 'oct%')"
"$SG" cache show "$key" --db "$T/values.db" >"$T/out" 2>"$T/err"; rc=$?
check "damaged values: exit 1, one clean line naming the key escaped" \
    bash -c '[ $1 = 1 ] && [ "$(lines "$2")" = 1 ] && [ ! -s "$3" ] && clean "$2" && grep -qF -- "the stored values of $4 are damaged" "$2"' \
    _ "$rc" "$T/err" "$T/out" "$shown"

# --- a deep-run checkpoint's line; cache drop ----------------------------
sqlite3 "$SGEXPLORE_DB" "CREATE TABLE IF NOT EXISTS checkpoints (rule TEXT
    PRIMARY KEY, heaps INTEGER NOT NULL, state BLOB NOT NULL, hash TEXT
    NOT NULL, stored TEXT NOT NULL, version TEXT NOT NULL);
    INSERT INTO checkpoints VALUES (CAST(X'$hex' AS TEXT), 5, X'666f6f626172',
    'fnv1a64:85944171f73967e8', 'when' || char(13) || 'now', 'test')"
"$SG" cache list >"$T/out" 2>"$T/err"; rc=$?
check "cache list with a crafted checkpoint: 6 clean lines, it escaped" \
    bash -c '[ $1 = 0 ] && [ "$(lines "$2")" = 6 ] && clean "$2" "$3" && grep -qxF -- "deep-run checkpoint: $4 at heap 5, stored when\\rnow (\`sgexplore cache show $4\`)" "$2"' \
    _ "$rc" "$T/out" "$T/err" "$shown"
"$SG" cache drop "$key" >"$T/out" 2>"$T/err"; rc=$?
check "cache drop KEY: exit 0, one clean line naming it escaped" \
    bash -c '[ $1 = 0 ] && [ "$(lines "$2")" = 1 ] && [ ! -s "$3" ] && clean "$2" && grep -qxF -- "dropped $4 and its deep-run checkpoint from $5" "$2"' \
    _ "$rc" "$T/out" "$T/err" "$shown" "$SGEXPLORE_DB"

# --- what needs no escape stays as written -------------------------------
"$SG" --subtract 'primes\2' --max 100 >/dev/null 2>&1
"$SG" cache list >"$T/out" 2>&1
check "a set difference keeps its one backslash: subtract{primes\\2}" \
    bash -c 'clean "$1" && grep -q "^subtract{primes\\\\2}  " "$1"' _ "$T/out"

echo "1..$n"
exit $((fails > 0))
