#!/bin/bash
# tests/cli/merge.sh - `sgexplore merge OUT.db IN.db...` (TAP): a proven
# row beats an unresolved one, a longer prefix a shorter one, whatever
# the order of the inputs; an incoming proof that does not hold and two
# proofs that disagree stop the merge (exit 1, naming the rule) and leave
# OUT as it was; an input that is not an sgexplore cache is exit 2 with
# nothing written, a missing one exit 1.  The wrong proofs are made by
# renaming a genuine row of 0.17 to 0.07 with sqlite3.

SG=${SGEXPLORE:-sgexplore}
T=$(mktemp -d "${TMPDIR:-/tmp}/merge.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT

. "$(dirname "$0")/tap.sh"
cd "$T" || exit 1

if ! command -v sqlite3 >/dev/null 2>&1 || ! command -v python3 >/dev/null 2>&1; then
    echo "1..0 # SKIP sqlite3 and python3 are needed to build and read test caches"
    exit 0
fi
# field DB RULE KEY: one key of the rule's `cache show --json`.
field() {
    "$SG" cache show "$2" --db "$1" --json 2>/dev/null |
        python3 -c 'import json,sys; print(json.load(sys.stdin)[sys.argv[1]])' "$3"
}

"$SG" 0.07 --max 50 --db short.db >/dev/null        # unresolved, 50 values
"$SG" 0.07 --db proven.db >/dev/null                # proven, n0 53, p 34
"$SG" 0.04 --max 1000 --db short.db >/dev/null
"$SG" 0.04 --max 3000 --db long.db >/dev/null
for order in "short.db proven.db long.db" "long.db proven.db short.db"; do
    rm -f out.db*
    # shellcheck disable=SC2086
    "$SG" merge out.db $order >merge.out 2>merge.err
    rc=$?
    check "merge out.db $order: exit 0" test $rc = 0
    check "  proven beats unresolved (0.07: $(field out.db 0.07 status))" \
        test "$(field out.db 0.07 status)/$(field out.db 0.07 preperiod)/$(field out.db 0.07 period)" = periodic/53/34
    check "  longer beats shorter (0.04: $(field out.db 0.04 computed) values)" \
        test "$(field out.db 0.04 computed)" = 3000
done
check "the proof was re-checked and the counts are reported" \
    grep -q '^merged 3 caches into out.db: 4 rows read, 2 rules added, 0 improved, 1 proofs re-checked$' merge.out
"$SG" merge out.db short.db >merge.out 2>&1
check "OUT keeps what it knows better (nothing improved)" \
    bash -c 'grep -q "0 rules added, 0 improved" "$1" && test "$(sqlite3 out.db "select status, computed from rules where rule = '"'0.04'"'")" = "unresolved|3000"' _ merge.out
"$SG" merge out.db long.db proven.db --json >merge.json
check "--json: one object with the counts" \
    python3 -c 'import json,sys; o = json.load(open("merge.json")); sys.exit(o["inputs"] != 2 or o["rows"] != 4)'
check "--json says improved, the word of the text (not replaced)" \
    python3 -c 'import json,sys; o = json.load(open("merge.json")); sys.exit("improved" not in o or "replaced" in o)'

# Wrong proofs.
"$SG" 0.17 --db wrong.db >/dev/null
sqlite3 wrong.db "UPDATE rules SET rule = '0.07' WHERE rule = '0.17'"
rm -f new.db*
"$SG" merge new.db wrong.db >w.out 2>w.err
rc=$?
check "a proof that does not hold: exit 1, one line naming 0.07, nothing written" \
    bash -c 'test $1 = 1 -a "$(wc -l <w.err)" = 1 -a ! -e new.db && grep -q "proof of 0.07 in .wrong.db. does not hold" w.err' _ $rc
cp out.db out.before
"$SG" merge out.db proven.db wrong.db >w.out 2>w.err
rc=$?
check "two proofs that disagree: exit 1, one line naming 0.07" \
    bash -c 'test $1 = 1 -a "$(wc -l <w.err)" = 1 && grep -q "two proofs of 0.07 disagree" w.err' _ $rc
check "  OUT is unchanged" cmp -s out.db out.before
"$SG" merge out.db short.db wrong.db >w.out 2>w.err
check "OUT's own proof against a wrong incoming one: exit 1, OUT unchanged" \
    bash -c 'test $1 = 1 && grep -q "two proofs of 0.07 disagree" w.err && cmp -s out.db out.before' _ $?

# Bad input: one line, exit 2 (1 for I/O), nothing written.
bad() { # bad STATUS DESCRIPTION ARGS...
    local want=$1 d=$2
    shift 2
    rm -f none.db*
    "$SG" merge "$@" >b.out 2>b.err
    local rc=$?
    if [ $rc = "$want" ] && [ "$(wc -l <b.err)" = 1 ] && [ ! -s b.out ] &&
        [ ! -e none.db ]; then
        ok "$d: exit $want, one line, nothing written"
    else
        not_ok "$d: exit $rc (want $want)"
        sed 's/^/# /' b.err
    fi
}
echo 'not a database' >text.db
sqlite3 other.db 'CREATE TABLE t (x); INSERT INTO t VALUES (1)'
: >empty.db
bad 2 "a text file as input" none.db proven.db text.db
bad 2 "another application's SQLite file as input" none.db other.db
bad 2 "an empty file as input" none.db empty.db
bad 1 "a missing input" none.db proven.db missing.db
bad 2 "no input" none.db
bad 2 "OUT is also an input" proven.db proven.db
cp out.db out.before
"$SG" merge text.db proven.db >/dev/null 2>b.err
check "OUT that is not a cache: exit 2, left as it was" \
    bash -c 'test $1 = 2 && test "$(cat text.db)" = "not a database"' _ $?

echo "1..$n"
