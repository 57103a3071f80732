#!/bin/bash
# tests/cli/merge.sh - `sgexplore merge OUT.db IN.db...` (TAP): a proven
# row beats an unresolved one, a longer prefix a shorter one, whatever
# the order of the inputs; an incoming proof that does not hold and two
# proofs that disagree stop the merge (exit 1, naming the rule) and leave
# OUT as it was; an input that is not an sgexplore cache is exit 2 with
# nothing written, a missing one exit 1.  The wrong proofs are made by
# renaming a genuine row of 0.17 to 0.07 with sqlite3.  Atomicity: a merge
# that fills the disk midway (a small tmpfs; skipped where none can be
# mounted) and merges killed with SIGKILL at random moments (seed
# $SG_SEED; 6 moments, 100 with SG_LONG_TESTS=1, each into an existing
# and a new OUT) leave OUT as it was
# (the same bytes, the same rows, or no OUT) or completely merged.

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

# Atomicity.  Inputs of about 3.6 MB (0.454 to 3*10^6 values, 0.56 and
# 0.16 proven from 10^6 values, and the small caches above: more than
# SQLite's 2 MB page cache), OUT with two small rows the merge improves.
"$SG" 0.454 --max 3000000 --db big.db >/dev/null
"$SG" 0.56 --max 1000000 --db big.db >/dev/null
"$SG" 0.16 --max 1000000 --db big.db >/dev/null
rm -f base.db*
"$SG" 0.56 --max 1000 --db base.db >/dev/null
"$SG" 0.34 --db base.db >/dev/null
# content DB: the rows and their values, without the times of writing.
content() {
    sqlite3 "$1" "SELECT r.rule, r.family, r.status, r.preperiod, r.period,
        r.saltus, r.computed, r.certified_to, r.theorem, r.checksum,
        r.stored, c.first, c.count, c.width, hex(c.data) FROM rules r
        LEFT JOIN chunks c ON c.rule_id = r.id ORDER BY r.rule, c.first" |
        md5sum
}
full() { sqlite3 "$1" .dump | md5sum; } # every byte of content, times included
export -f full content
INPUTS="big.db short.db proven.db long.db"
cp base.db ref.db
t0=$(date +%s%N)
# shellcheck disable=SC2086
"$SG" merge ref.db $INPUTS >/dev/null
t1=$(date +%s%N)
ms=$(((t1 - t0) / 1000000))
rm -f new.db*
# shellcheck disable=SC2086
"$SG" merge new.db $INPUTS >/dev/null
want_before=$(full base.db) want_after=$(content ref.db) want_new=$(content new.db)
check "the reference merge changed OUT ($ms ms)" \
    test "$(content base.db)" != "$want_after"

# A full disk midway: the merge needs about as much space as OUT grew
# (the transaction's pages go to the write-ahead log).  With a quarter of
# it free the disk fills while a row is written (SQLite spills the pages
# it holds in memory to the log), with three quarters at the commit.
need=$(($(stat -c %s ref.db) - $(stat -c %s base.db)))
if [ "$(id -u)" = 0 ] && command -v unshare >/dev/null 2>&1 &&
    unshare -m true 2>/dev/null; then
    mkdir full
    # shellcheck disable=SC2016
    unshare -m bash -c '
        sg=$1 dir=$2 need=$3
        shift 3
        mount -t tmpfs -o size=$((need + 4 * 1048576)) tmpfs "$dir" || exit 77
        for c in 1:old 3:old 1:new; do
            q=${c%:*} t=${c#*:}
            rm -f "$dir"/*
            [ $t = old ] && cp base.db "$dir/out.db"
            free=$(($(df -B1 --output=avail "$dir" | tail -1) - need * q / 4))
            head -c "$free" /dev/zero >"$dir/filler" 2>/dev/null
            "$sg" merge "$dir/out.db" "$@" >"full-$c.out" 2>"full-$c.err"
            echo $? >"full-$c.rc"
            ls -A "$dir" | grep -v filler >"full-$c.ls"
            if [ $t = old ]; then
                cmp -s "$dir/out.db" base.db && echo same >"full-$c.cmp"
                cp "$dir/out.db" "full-$c.db"
            fi
        done
    ' _ "$SG" "$PWD/full" "$need" $INPUTS
    if [ $? = 77 ]; then
        for i in 1 2 3; do skip "full disk: cannot mount a tmpfs here"; done
    else
        for c in "1:old:storing a rule" "3:old:committing"; do
            q=${c%%:*} w=${c##*:} c=${c%:*}
            check "a full disk ($((q * 25))% of the need free) merging into OUT, while $w: exit 1, one line, OUT's bytes and rows unchanged" \
                bash -c '[ "$(cat "full-$1.rc")" = 1 ] && [ "$(wc -l <"full-$1.err")" = 1 ] && grep -q "disk is full (while $3" "full-$1.err" && [ -e "full-$1.cmp" ] && [ "$(full "full-$1.db")" = "$2" ] && [ "$(cat "full-$1.ls")" = out.db ]' \
                _ "$c" "$want_before" "$w"
        done
        check "  and into a new OUT (25%): exit 1, one line naming OUT, no OUT and no temporary folder left" \
            bash -c '[ "$(cat full-1:new.rc)" = 1 ] && [ "$(wc -l <full-1:new.err)" = 1 ] && grep -q "out.db. not created.*disk is full (while storing a rule" full-1:new.err && [ ! -s full-1:new.ls ]'
        sed 's/^/# /' full-*.err
    fi
else
    for i in 1 2 3; do skip "full disk: needs root and unshare for a small tmpfs"; done
fi

# SIGKILL at random moments of the reference merge's time (plus a half,
# so that some merges finish), into the existing OUT and into a new one.
seed=${SG_SEED:-$$}
RANDOM=$seed
moments=6
[ "${SG_LONG_TESTS:-0}" = 1 ] && moments=100

killed=0 finished=0 wrong=0
for i in $(seq 1 "$moments"); do
    for target in old new; do
        rm -rf k.db* n.db*
        if [ $target = old ]; then
            db=k.db
            cp base.db k.db
        else
            db=n.db
        fi
        delay=$((RANDOM % (ms + ms / 2 + 1)))
        # timeout(1) kills its own child, never a process that took the
        # PID of a merge that had finished (HACKING.md says why), and
        # with --foreground it reaps the merge before it returns: without
        # it, timeout's SIGKILL to its process group kills timeout too, the
        # merge may still be exiting with OUT's lock held, and the checks
        # below found OUT "locked" (2 to 8 merges in 200 did).  0 would
        # mean no timeout.
        [ "$delay" = 0 ] && delay=1
        # shellcheck disable=SC2086
        { timeout --foreground --preserve-status -s KILL \
            "$(printf '0.%03d' "$delay")" \
            "$SG" merge $db $INPUTS >/dev/null 2>&1; } 2>/dev/null
        rc=$?
        if [ $rc = 0 ]; then
            finished=$((finished + 1))
            if [ $target = old ]; then good=$want_after; else good=$want_new; fi
            [ "$(content $db)" = "$good" ] || {
                wrong=$((wrong + 1))
                echo "# $target, $delay ms: finished but not merged right"
            }
        else
            killed=$((killed + 1))
            # Killed before the commit: OUT as it was; after: merged.
            if [ $target = old ]; then
                { cmp -s k.db base.db && [ "$(full k.db)" = "$want_before" ]; } ||
                    [ "$(content k.db)" = "$want_after" ]
            else
                [ ! -e n.db ] || [ "$(content n.db)" = "$want_new" ]
            fi || {
                wrong=$((wrong + 1))
                echo "# $target, $delay ms (seed $seed): killed, OUT changed"
            }
        fi
        rm -rf n.db.merge-*
    done
done
check "SIGKILL at $((2 * moments)) moments (seed $seed): $killed killed, $finished finished, $wrong with OUT neither as it was nor merged" \
    test $wrong = 0

echo "1..$n"
