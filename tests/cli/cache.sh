#!/bin/bash
# tests/cli/cache.sh - the SQLite cache seen from the command line (TAP):
# a proven rule is answered from the cache the second time (its `source`
# says so) with the published answers; an unresolved one is extended, not
# recomputed, to the same values as a fresh run; the default location and
# its overrides; `cache list|show|drop|path` (drop with deep-run
# checkpoints, put in with sqlite3); --no-cache.
# Runs with $SGEXPLORE (the built program) and a scratch $TMPDIR.

SG=${SGEXPLORE:-sgexplore}
T=$(mktemp -d "${TMPDIR:-/tmp}/cache.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT
export SGEXPLORE_DB="$T/db/cache.db"

. "$(dirname "$0")/tap.sh"

# --- a proven rule: computed once, then answered from the cache ----------
out=$("$SG" --subtract 2,3,5,7,11,13 2>"$T/err"); rc=$?
check "first run exits 0" test $rc -eq 0
check "first run says source: computed" has "$out" "source: computed"
check "the cache file and its directory were created" test -f "$SGEXPLORE_DB"
out2=$("$SG" --subtract 2,3,5,7,11,13 2>"$T/err"); rc=$?
check "second run exits 0" test $rc -eq 0
check "second run says source: cache" has "$out2" "source: cache"
check "second run reports period 9, preperiod 0" \
    bash -c 'grep -qx "period: 9" <<<"$1" && grep -qx "preperiod: 0" <<<"$1"' _ "$out2"
check "second run reports the period values 0 0 1 1 2 2 3 3 4" \
    has "$out2" "period values: 0 0 1 1 2 2 3 3 4"
check "apart from the source line both runs print the same" \
    test "$(grep -v '^source:' <<<"$out")" = "$(grep -v '^source:' <<<"$out2")"
check "nothing on stderr" test ! -s "$T/err"

# G(n) for S = {2,3,5,7,11,13} is the (n mod 9)-th of 0 0 1 1 2 2 3 3 4;
# 10^100 = 1 (mod 9), 10^100 + 4 = 5 (mod 9).
big=1$(printf '0%.0s' $(seq 100))
big4=1$(printf '0%.0s' $(seq 99))4
out=$("$SG" --subtract 2,3,5,7,11,13 --heap "$big" --heap "$big4" --quiet); rc=$?
check "--heap 10^100 from the cache exits 0" test $rc -eq 0
check "G(10^100) = 0 and G(10^100+4) = 2" \
    test "$out" = "$(printf 'G(%s) = 0\nG(%s) = 2' "$big" "$big4")"
# Heaps 9 (G 0), 10 (G 0), 13 (G 2): nim-sum 2, first player wins.
out=$("$SG" --subtract 2,3,5,7,11,13 --position 9,10,13); rc=$?
check "--position from the cache: source cache, nim-sum 2, first wins" \
    bash -c 'grep -qx "source: cache" <<<"$1" && grep -qx "nim-sum: 2" <<<"$1" && grep -qx "winner: first" <<<"$1"' _ "$out"
out=$("$SG" --subtract 2,3,5,7,11,13 --json)
check "JSON carries \"source\":\"cache\"" contains "$out" '"source":"cache"'

# Kayles (0.77): p 12, n0 71, answered from the cache with the same values.
"$SG" --octal 0.77 >/dev/null
out=$("$SG" --octal 0.77 --values 60:75 --quiet)
out2=$("$SG" --octal 0.77 --values 60:75 --quiet --no-cache)
check "Kayles values from the cache equal a fresh computation" \
    test -n "$out" -a "$out" = "$out2"
out=$("$SG" --octal 0.77)
check "Kayles from the cache: period 12, preperiod 71" \
    bash -c 'grep -qx "source: cache" <<<"$1" && grep -qx "period: 12" <<<"$1" && grep -qx "preperiod: 71" <<<"$1"' _ "$out"

# --- an unresolved rule is extended, not restarted -----------------------
out=$("$SG" --grundy --max 3000)
check "Grundy's game to 3000: computed, unresolved" \
    bash -c 'grep -qx "source: computed" <<<"$1" && grep -q "^status: unresolved" <<<"$1"' _ "$out"
out=$("$SG" --grundy --max 2000)
check "a smaller --max is answered from the cache (3000 values)" \
    bash -c 'grep -qx "source: cache" <<<"$1" && grep -q "n < 3000" <<<"$1"' _ "$out"
out=$("$SG" --grundy --max 7000)
check "a larger --max extends the cached prefix" \
    bash -c 'grep -qx "source: extended" <<<"$1" && grep -q "n < 7000" <<<"$1"' _ "$out"
a=$("$SG" --grundy --max 7000 --values 0:6999 --quiet | md5sum)
b=$("$SG" --grundy --max 7000 --values 0:6999 --quiet --no-cache | md5sum)
check "extended values equal a fresh run's" test "$a" = "$b"

# --- cache list / show / drop / path -------------------------------------
out=$("$SG" cache list); rc=$?
check "cache list exits 0" test $rc -eq 0
check "cache list names the three rules" \
    bash -c 'grep -q "^subtract{2,3,5,7,11,13} " <<<"$1" && grep -q "^0.77 " <<<"$1" && grep -q "^4!.0 " <<<"$1"' _ "$out"
out=$("$SG" cache list --format json)
check "cache list --format json: 3 rule lines and a summary" \
    bash -c '[ $(grep -c "^{\"rule\":" <<<"$1") = 3 ] && grep -q "^{\"summary\":{\"rules\":3," <<<"$1"' _ "$out"
check "cache list --format json rows leave out largest and sparse (not loaded), never null" \
    python3 -c 'import json, sys
rows = [json.loads(l) for l in sys.argv[1].splitlines() if l.startswith("{\"rule\"")]
assert len(rows) == 3 and all("largest" not in r and "sparse" not in r for r in rows), rows' "$out"
out=$("$SG" cache list --status unresolved --format json)
check "--status unresolved keeps Grundy's game only" \
    bash -c '[ $(grep -c "^{\"rule\":" <<<"$1") = 1 ] && grep -q "\"rule\":\"4!.0\"" <<<"$1"' _ "$out"
out=$("$SG" cache list --family subtract --format json)
check "--family subtract keeps the subtraction game only" \
    bash -c '[ $(grep -c "^{\"rule\":" <<<"$1") = 1 ] && grep -q "subtract{2,3,5,7,11,13}" <<<"$1"' _ "$out"
"$SG" cache list --status bogus >/dev/null 2>&1
check "cache list --status bogus exits 2" test $? -eq 2

# An unresolved row's observed candidate in `cache list` (issue 50: it was
# null there): the one `cache show` and the analysis give, made from the
# stored values; 0.3F's G(n+6) = G(n) + 3 judged on its values here.
"$SG" 0.3F --max 600 --db "$T/obs.db" >/dev/null 2>&1
"$SG" kayles --max 120 --db "$T/obs.db" >/dev/null 2>&1
check "cache list --format json: the observed candidates of cache show" \
    python3 -c 'import json, subprocess, sys
sg, db = sys.argv[1:]
rows = [json.loads(l) for l in subprocess.run([sg, "cache", "list", "--format", "json", "--db", db],
        capture_output=True, text=True, check=True).stdout.splitlines()]
rows = {r["rule"]: r for r in rows if "rule" in r}
assert set(rows) == {"0.3F", "0.77"}, rows
for rule, r in rows.items():
    show = json.loads(subprocess.run([sg, "cache", "show", rule, "--json", "--db", db],
                      capture_output=True, text=True, check=True).stdout)
    assert r["observed"] is not None and r["observed"] == show["observed"], (r, show)
o = rows["0.3F"]["observed"]
assert (o["preperiod"], o["period"], o["saltus"]) == (0, 6, 3), o
g = json.loads(subprocess.run([sg, "0.3F", "--values", "0:599", "--json", "--db", db],
               capture_output=True, text=True, check=True).stdout)["values"]
assert len(g) == 600 and all(g[n + 6] == g[n] + 3 for n in range(594)), g[:20]
o = rows["0.77"]["observed"]
assert (o["preperiod"], o["period"], o["saltus"], o["needs"]) == (71, 12, 0, 167), o' "$SG" "$T/obs.db"

out=$("$SG" cache show 0.77); rc=$?
check "cache show 0.77: exit 0, p 12, n0 71, 83 values stored" \
    bash -c '[ $2 = 0 ] && grep -qx "period: 12" <<<"$1" && grep -qx "preperiod: 71" <<<"$1" && grep -qx "stored: 83 values" <<<"$1"' _ "$out" "$rc"
out=$("$SG" cache show 'subtract{2,3,5,7,11,13}' --format json)
check "cache show --format json has the period values" \
    contains "$out" '"values":\[0,0,1,1,2,2,3,3,4\]'
"$SG" cache show 0.6 >/dev/null 2>"$T/err"
check "cache show of a rule not cached exits 1" test $? -eq 1
check "... saying it is not in the cache" grep -q "not in the cache" "$T/err"
"$SG" cache show '0.9x' >/dev/null 2>&1
check "cache show of a malformed rule exits 2" test $? -eq 2
"$SG" cache frobnicate >/dev/null 2>&1
check "an unknown cache subcommand exits 2" test $? -eq 2

out=$("$SG" cache drop 0.77); rc=$?
check "cache drop 0.77 exits 0" test $rc -eq 0
check "... and says what it dropped (no checkpoint: none mentioned)" \
    has "$out" "dropped 0.77 from $SGEXPLORE_DB"
"$SG" cache show 0.77 >/dev/null 2>&1
check "after the drop 0.77 is gone" test $? -eq 1
out=$("$SG" --octal 0.77)
check "... and the next run computes it again" has "$out" "source: computed"
"$SG" cache drop 0.6 >/dev/null 2>&1
check "dropping a rule not cached exits 1" test $? -eq 1

# --- cache drop and deep-run checkpoints ---------------------------------
# The program writes no checkpoints itself (deep runs do): rows are put
# in with sqlite3, as docs/CACHE.md describes the table.
ckpt_put() {
    sqlite3 "$SGEXPLORE_DB" "CREATE TABLE IF NOT EXISTS checkpoints (rule TEXT
        PRIMARY KEY, heaps INTEGER NOT NULL, state BLOB NOT NULL, hash TEXT
        NOT NULL, stored TEXT NOT NULL, version TEXT NOT NULL);
        INSERT OR REPLACE INTO checkpoints VALUES ('$1', 5, X'666f6f626172',
        'fnv1a64:85944171f73967e8', '2024-01-01T00:00:00Z', 'test')"
}
ckpt_count() {
    sqlite3 "$SGEXPLORE_DB" "SELECT count(*) FROM checkpoints WHERE rule = '$1'"
}
if command -v sqlite3 >/dev/null 2>&1; then
    ckpt_put 0.77
    ckpt_put 0.6
    ckpt_put 4!.0
    out=$("$SG" cache drop 0.77 2>"$T/err"); rc=$?
    check "cache drop of a rule with a checkpoint: exit 0, says both went" \
        bash -c '[ $1 = 0 ] && [ "$2" = "dropped 0.77 and its deep-run checkpoint from $3" ] && [ ! -s "$4" ]' \
        _ "$rc" "$out" "$SGEXPLORE_DB" "$T/err"
    left=$(ckpt_count 0.77)$(ckpt_count 0.6)$(ckpt_count 4!.0)
    "$SG" cache show 0.77 >/dev/null 2>&1; rc=$?
    check "... the rule and its checkpoint are gone, the others' stay" \
        bash -c '[ "$1" = 011 ] && [ $2 = 1 ]' _ "$left" "$rc"
    out=$("$SG" cache drop 0.6 2>"$T/err"); rc=$?
    check "cache drop of a checkpoint without a cached rule: exit 0, says so" \
        bash -c '[ $1 = 0 ] && [ "$2" = "dropped the deep-run checkpoint of 0.6 from $3" ]' \
        _ "$rc" "$out" "$SGEXPLORE_DB"
    check "... it is gone" test "$(ckpt_count 0.6)" = 0
    "$SG" cache drop 0.6 >/dev/null 2>&1
    check "... and a second drop finds nothing (exit 1)" test $? -eq 1
    "$SG" --octal 4!.0 --max 300 >/dev/null
    out=$("$SG" cache drop '4!.0' --json)
    check "cache drop --json says a rule and a checkpoint were dropped" \
        contains "$out" '"dropped":"4!.0",.*"rule":true,"checkpoint":true}$'
    "$SG" --octal 0.77 >/dev/null
    out=$("$SG" cache drop 0.77 --json)
    check "cache drop --json of a rule without checkpoint says so" \
        contains "$out" '"rule":true,"checkpoint":false}$'
else
    for d in "both dropped" "both gone" "checkpoint alone" "it is gone" \
        "second drop" "json both" "json rule only"; do
        n=$((n + 1)); echo "ok $n # SKIP sqlite3 not installed ($d)"
    done
fi

check "cache path prints \$SGEXPLORE_DB" \
    test "$("$SG" cache path)" = "$SGEXPLORE_DB"
check "cache path --db P prints P" \
    test "$("$SG" cache path --db /x/y.db)" = "/x/y.db"
check "without \$SGEXPLORE_DB: \$XDG_CACHE_HOME/sgexplore/cache.db" \
    test "$(env -u SGEXPLORE_DB XDG_CACHE_HOME=/xdg "$SG" cache path)" = \
         "/xdg/sgexplore/cache.db"
check "without either: \$HOME/.cache/sgexplore/cache.db" \
    test "$(env -u SGEXPLORE_DB -u XDG_CACHE_HOME HOME=/h "$SG" cache path)" = \
         "/h/.cache/sgexplore/cache.db"

# --- locations and --no-cache --------------------------------------------
env -u SGEXPLORE_DB XDG_CACHE_HOME="$T/xdg" "$SG" --subtract 1,3,4 >/dev/null
check "the XDG default location is created" \
    test -f "$T/xdg/sgexplore/cache.db"
env -u SGEXPLORE_DB -u XDG_CACHE_HOME HOME="$T/home" "$SG" --subtract 1,3,4 >/dev/null
check "the HOME default location is created" \
    test -f "$T/home/.cache/sgexplore/cache.db"
mkdir -p "$T/other"
out=$("$SG" --subtract 1,3,4 --db "$T/other/o.db")
check "--db PATH is used (and created in its existing folder)" \
    bash -c 'grep -qx "source: computed" <<<"$1" && test -f "$2"' _ "$out" "$T/other/o.db"
"$SG" --subtract 1,3,4 --db "$T/missing/dir/o.db" >"$T/out" 2>"$T/err"; rc=$?
check "--db in a folder that does not exist: exit 2, one line naming it" \
    bash -c '[ $1 = 2 ] && [ $(wc -l <"$2") = 1 ] && grep -q "does not exist" "$2" && [ ! -s "$3" ]' _ "$rc" "$T/err" "$T/out"
check "--db in a folder that does not exist: no folder is created" \
    test ! -e "$T/missing"
out=$(SGEXPLORE_DB="$T/none/n.db" "$SG" --subtract 1,3,4 --no-cache)
check "--no-cache computes and creates no file" \
    bash -c 'grep -qx "source: computed" <<<"$1" && test ! -e "$2"' _ "$out" "$T/none"
"$SG" --subtract 1,3,4 --no-cache --db "$T/x.db" >/dev/null 2>&1
check "--db with --no-cache exits 2" test $? -eq 2

if command -v sqlite3 >/dev/null 2>&1; then
    check "PRAGMA integrity_check says ok" \
        test "$(sqlite3 "$SGEXPLORE_DB" 'PRAGMA integrity_check')" = ok
    check "the file is in WAL mode" \
        test "$(sqlite3 "$SGEXPLORE_DB" 'PRAGMA journal_mode')" = wal
    check "one row per rule" \
        test "$(sqlite3 "$SGEXPLORE_DB" 'SELECT count(*) = count(DISTINCT rule) FROM rules')" = 1
else
    for d in integrity_check "WAL mode" "one row per rule"; do
        n=$((n + 1)); echo "ok $n # SKIP sqlite3 not installed ($d)"
    done
fi

echo "1..$n"
exit $((fails > 0))
