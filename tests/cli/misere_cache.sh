#!/bin/bash
# tests/cli/misere_cache.sh - misère results in the cache (TAP): the
# genus analysis is answered from the cache the second time (misere.source
# says so) with what a fresh run prints; a longer --max replaces the row
# and a shorter one is cut from it; a quotient stopped by --max-order
# (exit 3) is stored, answered from the cache by the same rerun and
# resumed by a larger --max-order to the quotient a fresh run without the
# cache computes; --no-cache leaves the file as it was; --seconds and
# SIGINT stop the genus (the heaps finished right and stored); cache drop;
# the upgrade of a version-2 file and the refusal of a newer one.

SG=${SGEXPLORE:-sgexplore}
T=$(mktemp -d "${TMPDIR:-/tmp}/misere_cache.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT
export SGEXPLORE_DB="$T/cache.db"
DB=$SGEXPLORE_DB

. "$(dirname "$0")/tap.sh"

if ! command -v sqlite3 >/dev/null || ! command -v python3 >/dev/null; then
    echo "1..0 # SKIP sqlite3 or python3 is not installed"
    exit 0
fi

# jget FILE KEY [DROP...]: the JSON object KEY of FILE without the keys DROP.
jget() {
    python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))[sys.argv[2]]
for k in sys.argv[3:]:
    d.pop(k, None)
print(json.dumps(d, sort_keys=True))' "$@"
}
jkey() { python3 -c 'import json, sys
print(json.load(open(sys.argv[1]))[sys.argv[2]][sys.argv[3]])' "$@"; }

# --- the genus ----------------------------------------------------------
"$SG" 0.77 --misere --misere-max 30 >"$T/a" 2>"$T/err"
check "first --misere --misere-max 30 exits 0, quietly" test $? = 0 -a ! -s "$T/err"
"$SG" 0.77 --misere --misere-max 30 >"$T/b" 2>"$T/err"
check "second run exits 0" test $? = 0 -a ! -s "$T/err"
check "the second says the genus came from the cache" grep -q \
    '^misère: genus of heaps 0..29 (from the cache), exact over' "$T/b"
check "apart from the source lines both print the same" test \
    "$(grep -v '^source:' "$T/a")" = \
    "$(grep -v '^source:' "$T/b" | sed 's/ (from the cache)//')"
"$SG" 0.77 --misere --misere-max 30 --json >"$T/c.json"
"$SG" --no-cache 0.77 --misere --misere-max 30 --json >"$T/f.json"
check "JSON: misere.source is cache" test "$(jkey "$T/c.json" misere source)" = cache
check "JSON: a fresh run's is computed" test "$(jkey "$T/f.json" misere source)" = computed
check "JSON: the misere objects agree" test \
    "$(jget "$T/c.json" misere source)" = "$(jget "$T/f.json" misere source)"
check "one row, heaps 30, tame_to 5 (Kayles' heap 5 is 4^146)" test \
    "$(sqlite3 "$DB" 'SELECT rule, genus_heaps, genus_tame_to FROM misere')" = "0.77|30|5"

"$SG" 0.77 --misere --misere-max 35 --json >"$T/l.json"
check "--max 35: computed again (no genus resumption), 35 heaps" test \
    "$(jkey "$T/l.json" misere source) $(jkey "$T/l.json" misere heaps)" = "computed 35"
check "... and the row grows to 35" test \
    "$(sqlite3 "$DB" 'SELECT genus_heaps FROM misere')" = 35
"$SG" 0.77 --misere --misere-max 30 --json >"$T/s.json"
check "--max 30 after: cut from the cached 35" test \
    "$(jkey "$T/s.json" misere source)" = cache
check "... the same heaps, values and genera as a fresh run" test \
    "$(jget "$T/s.json" misere source positions)" = \
    "$(jget "$T/f.json" misere source positions)"
check "... and the row keeps its 35 heaps" test \
    "$(sqlite3 "$DB" 'SELECT genus_heaps FROM misere')" = 35

sum() { md5sum "$DB" | cut -d' ' -f1; }
before=$(sum)
"$SG" --no-cache 0.75 --misere --quotient --misere-max 20 >/dev/null
check "--no-cache leaves the file as it was" test "$(sum)" = "$before"

# --- the quotient: stopped, cached, resumed -----------------------------
"$SG" 0.77 --misere --quotient --misere-max 30 --max-order 20 >"$T/q1" 2>"$T/e1"
check "--max-order 20 stops: exit 3" test $? = 3
check "... Q_11 of order 18 stored, stopped at heap 12" test \
    "$(sqlite3 "$DB" 'SELECT quot_heaps, quot_order, quot_stopped_at, quot_max_order, quot_runs FROM misere')" = "11|18|12|20|1"
"$SG" 0.77 --misere --quotient --misere-max 30 --max-order 20 >"$T/q2" 2>"$T/e2"
check "the same rerun: exit 3 again, the same message" test $? = 3 -a \
    "$(cat "$T/e1")" = "$(cat "$T/e2")"
check "... answered from the cache" grep -qx '  from the cache' "$T/q2"
check "... the same quotient printed" test \
    "$(grep -v '^source:\|from the cache' "$T/q1" | sed 's/ (from the cache)//')" = \
    "$(grep -v '^source:\|from the cache' "$T/q2" | sed 's/ (from the cache)//')"
"$SG" 0.77 --misere --quotient --misere-max 30 --max-order 100 --json >"$T/q3.json" 2>"$T/err"
check "--max-order 100: exit 0" test $? = 0 -a ! -s "$T/err"
check "... extended, resumed from the stored Q_11" test \
    "$(jkey "$T/q3.json" quotient source) $(jkey "$T/q3.json" quotient resumed_from)" = "extended 11"
"$SG" --no-cache 0.77 --misere --quotient --misere-max 30 --max-order 100 --json >"$T/q4.json"
check "... the quotient a fresh run without the cache computes" test \
    "$(jget "$T/q3.json" quotient source resumed_from positions)" = \
    "$(jget "$T/q4.json" quotient source resumed_from positions)"
check "... order 40 (Q_29 of Kayles)" test "$(jkey "$T/q4.json" quotient order)" = 40
check "... the row now holds Q_29, built by 2 runs" test \
    "$(sqlite3 "$DB" 'SELECT quot_heaps, quot_order, quot_stopped_at IS NULL, quot_runs FROM misere')" = "29|40|1|2"
"$SG" 0.77 --misere --quotient --misere-max 30 --json >"$T/q5.json"
check "a third run: from the cache, the same quotient" test \
    "$(jkey "$T/q5.json" quotient source)" = cache -a \
    "$(jget "$T/q5.json" quotient source resumed_from positions)" = \
    "$(jget "$T/q4.json" quotient source resumed_from positions)"
"$SG" 0.77 --misere --quotient --misere-max 30 --json --position 5,5,1 >"$T/p.json"
check "--position from the cached quotient: method quotient" test \
    "$(jkey "$T/p.json" position method)" = quotient

# --- sweep --misere --------------------------------------------------------
# Every rule's tame_to and quotient against its own analysis (no cache).
"$SG" sweep octal --digits 2 --misere --quotient --misere-max 10 --jobs 2 \
    --max 3000 --format csv --db "$T/sweep.db" >"$T/sw.csv" 2>"$T/err"
check "sweep octal --digits 2 --misere --quotient: exit 0" test $? = 0
python3 -c 'import csv, sys
for r in csv.DictReader(open(sys.argv[1])):
    print(r["rule"], r["misere_heaps"], r["tame_to"], r["quotient_heaps"],
          r["quotient_order"], r["quotient_stopped_at"] or "-")' \
    "$T/sw.csv" >"$T/sw.txt"
# every row, or every third under SG_TEST_MULT below 1 (the sanitizer
# build of .ci/run, where each run costs several times more)
step=$(awk -v m="${SG_TEST_MULT:-1}" 'BEGIN { print (m < 1 ? 3 : 1) }')
bad=0 rows=0
while read -r rule mh tt qh qo qs; do
    rows=$((rows + 1))
    [ $((rows % step)) = 0 ] || continue
    "$SG" --no-cache "$rule" --misere --quotient --misere-max 10 --max 3000 --json \
        >"$T/one.json" 2>/dev/null
    want=$(python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
m, q = d["misere"], d["quotient"]
print(m["heaps"], m["tame_to"], q["heaps"], q["order"], q["stopped_at"] or "-")' "$T/one.json")
    [ "$want" = "$mh $tt $qh $qo $qs" ] || {
        bad=$((bad + 1))
        echo "# $rule: $mh $tt $qh $qo $qs, alone: $want"
    }
done <"$T/sw.txt"
check "... 56 rows, each equal to the rule's own --misere --quotient" \
    test "$rows" = 56 -a "$bad" = 0
"$SG" sweep octal --digits 2 --misere --misere-max 10 --jobs 2 --max 3000 \
    --json --db "$T/sweep.db" >"$T/sw2.json" 2>"$T/err"
check "a second sweep (JSON): every row's genus from the cache" test \
    "$(python3 -c 'import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])][:-1]
print(len(rows), sum(r["misere"]["source"] == "cache" for r in rows))' \
        "$T/sw2.json")" = "56 56"
"$SG" sweep octal --digits 2 --misere --misere-max 10 --jobs 2 --max 3000 \
    --db "$T/sweep.db" >"$T/sw3" 2>"$T/err"
check "... the table has the tame_to column, 0.77's is 5" test \
    "$(head -1 "$T/sw3" | grep -c ' tame_to ')" = 1 -a \
    "$(awk '$1 == "0.77" {print $10}' "$T/sw3")" = 5
"$SG" sweep octal --digits 1 --quotient >/dev/null 2>"$T/err"
check "sweep --quotient without --misere: exit 2" test $? = 2

# --- time and signals ---------------------------------------------------
# Kayles's genus to heap 99 outgrows the 256 MiB budget only after some
# 20 s: --seconds and Ctrl-C must stop it well before (they were ignored
# until the computation ended).  Its own cache, the normal play stored
# first, so that the misère computation is what the budget and the
# signal meet.
TDB=$T/time.db
"$SG" 0.77 --max 100 --db "$TDB" >/dev/null
"$SG" 0.77 --misere --misere-max 100 --seconds 1 --db "$TDB" >"$T/t1" 2>"$T/err"
rc=$?
line=$(grep '^misère: genus of heaps' "$T/t1")
check "--misere --seconds 1: exit 0, quietly, fewer heaps than asked because --seconds ran out" \
    test $rc = 0 -a ! -s "$T/err" -a \
    "$(grep -c '^misère: genus of heaps 0\.\.[0-9]* (of the 100 asked: --seconds ran out)' <<<"$line")" = 1
k=$(sed -n 's/^misère: genus of heaps 0\.\.\([0-9]*\) .*/\1/p' <<<"$line")
"$SG" 0.77 --misere --misere-max $((k + 1)) --no-cache >"$T/t2"
check "  its heaps 0..$k are those of a run to heap $k without the cache" \
    test "$(grep '^ *[0-9]*: G-' "$T/t1")" = "$(grep '^ *[0-9]*: G-' "$T/t2")"
"$SG" 0.77 --misere --misere-max $((k + 1)) --db "$TDB" >"$T/t3"
check "  and were stored: a run to heap $k reads them from the cache" \
    grep -q "^misère: genus of heaps 0..$k (from the cache)" "$T/t3"
"$SG" 0.77 --misere --quotient --misere-max 100 --seconds 1 --no-cache \
    >"$T/t4" 2>"$T/err"
check "--quotient --seconds 1, the genus given half of it: exit 3, one line, the quotient not finished for --seconds" \
    test $? = 3 -a "$(wc -l <"$T/err")" = 1 -a \
    "$(grep -c 'misère quotient: heap [0-9]* not finished: --seconds ran out' "$T/err")" = 1
# SIGINT after 2 s (timeout reaps the program before it returns; a
# signal that came before the handlers were installed kills it silently:
# then there is nothing to check).
rm -f "$TDB"*
"$SG" 0.77 --max 100 --db "$TDB" >/dev/null
timeout --foreground --preserve-status -s INT 2 \
    "$SG" 0.77 --misere --misere-max 100 --db "$TDB" >"$T/t5" 2>"$T/err"
rc=$?
if [ $rc = 130 ] && [ ! -s "$T/err" ]; then
    skip "SIGINT during the genus: the signal came before the handlers"
    skip "  (nothing stored to check)"
else
    check "SIGINT during the genus: exit 1, one line saying so, nothing on stdout (rc $rc)" \
        test $rc = 1 -a "$(wc -l <"$T/err")" = 1 -a ! -s "$T/t5" -a \
        "$(grep -c '^sgexplore: misère genus: interrupted' "$T/err")" = 1
    k=$(sqlite3 "$TDB" "SELECT count(*) FROM misere" 2>/dev/null)
    "$SG" 0.77 --misere --misere-max 5 --db "$TDB" >"$T/t6" 2>&1
    check "  the cache intact, the heaps finished kept (misère rows: $k)" \
        test "$(sqlite3 "$TDB" 'PRAGMA integrity_check')" = ok -a \
        "$(grep -c '^source: cache' "$T/t6")" = 1
fi

# --- drop, upgrade, newer files -----------------------------------------
"$SG" cache drop 0.77 >/dev/null
check "cache drop removes the misère row" test \
    "$(sqlite3 "$DB" 'SELECT count(*) FROM misere')" = 0
"$SG" 0.75 --misere --misere-max 12 >/dev/null
sqlite3 "$DB" "DROP TABLE misere; PRAGMA user_version = 2"
"$SG" cache list >/dev/null
check "a version-2 file read by cache list stays version 2" test \
    "$(sqlite3 "$DB" 'PRAGMA user_version')" = 2
"$SG" 0.75 --misere --misere-max 12 >"$T/u" 2>"$T/err"
check "a writable version-2 file is upgraded to 4" test $? = 0 -a \
    "$(sqlite3 "$DB" 'PRAGMA user_version')" = 4
check "... its rules kept (source: cache) and the misère row added" test \
    "$(grep -c '^source: cache' "$T/u")" = 1 -a \
    "$(sqlite3 "$DB" 'SELECT rule FROM misere')" = 0.75
sqlite3 "$DB" "PRAGMA user_version = 5"
before=$(sum)
"$SG" 0.75 --misere --misere-max 12 >/dev/null 2>"$T/err"
check "a version-5 file is refused: exit 1, one line" test $? = 1 -a \
    "$(wc -l <"$T/err")" = 1
check "... and left as it was" test "$(sum)" = "$before"

echo "1..$n"
[ "$fails" = 0 ]
