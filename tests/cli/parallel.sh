#!/bin/bash
# tests/cli/parallel.sh - the GNU parallel launcher for real (TAP): a
# sweep split into 3 shards on this machine through
# scripts/sweep-parallel.sh, merged, gives exactly the unsharded table;
# a rerun of the launcher continues from the shards' caches.  SKIP when
# GNU parallel is not installed.

SG=${SGEXPLORE:-sgexplore}
SRC=${abs_top_srcdir:-${top_srcdir:-.}}
T=$(mktemp -d "${TMPDIR:-/tmp}/parallel.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT
export SGEXPLORE=$SG

. "$(dirname "$0")/tap.sh"

for c in parallel python3; do
    if ! command -v $c >/dev/null 2>&1; then
        echo "1..0 # SKIP $c is not installed (Debian packages parallel python3)"
        exit 0
    fi
done

ARGS=(subtract --size 1-3 --max-element 9 --max 2000)
"$SG" sweep "${ARGS[@]}" --db "$T/whole.db" --format json 2>/dev/null |
    sweep_table >"$T/whole.tsv"

cd "$T" || exit 1
"$SRC/scripts/sweep-parallel.sh" -n 3 -j 3 -o "$T/merged.db" -- "${ARGS[@]}" \
    >"$T/launch.out" 2>"$T/launch.err"
rc=$?
check "sweep-parallel.sh -n 3: exit status 0" test $rc = 0
[ $rc = 0 ] || sed 's/^/# /' "$T/launch.err"
check "the merge combined 3 caches" grep -q '^merged 3 caches into' "$T/launch.out"
check "the shards' rows add up to C(9,1)+C(9,2)+C(9,3) = 129 rules" \
    test "$(cat "$T"/merged.db.shards/shard-[123].csv | grep -vc '^rule,')" = 129
"$SG" sweep "${ARGS[@]}" --db "$T/merged.db" --format json 2>/dev/null >"$T/again.json"
sweep_table <"$T/again.json" >"$T/merged.tsv"
check "the merged cache gives exactly the unsharded table" \
    test "$(wc -l <"$T/whole.tsv")" = 129 -a -z "$(diff "$T/whole.tsv" "$T/merged.tsv")"
check "every rule comes from the merged cache" \
    test "$(grep -c '"source":"cache"' "$T/again.json")" = 129
"$SRC/scripts/sweep-parallel.sh" -n 3 -o "$T/merged.db" -- "${ARGS[@]}" \
    >"$T/launch2.out" 2>&1
check "a second run: every shard from its cache, the merge adds nothing" \
    bash -c 'grep -q "0 rules added, 0 improved" "$1" && ! grep -v "^rule," "$2"/merged.db.shards/shard-*.csv | grep -qv ",cache,"' _ "$T/launch2.out" "$T"
# The --sshlogin path (--return, --cleanup, sgexplore from the PATH), with
# this machine as the login ':'.
mkdir -p "$T/bin" && ln -sf "$SG" "$T/bin/sgexplore"
PATH="$T/bin:$PATH" "$SRC/scripts/sweep-parallel.sh" -n 2 -S : -o "$T/ssh.db" \
    -- octal --digits 1 --max 100 >"$T/ssh.out" 2>"$T/ssh.err"
check "-S : (the --sshlogin path): exit 0, 2 caches merged, 7 rules" \
    bash -c 'test $1 = 0 && grep -q "^merged 2 caches into .*: 7 rows read, 7 rules added" "$2"' _ $? "$T/ssh.out"
check "a bad launcher argument: usage, exit 2" \
    bash -c '"$1/scripts/sweep-parallel.sh" -n 0 -o x.db -- octal --digits 1 2>/dev/null; test $? = 2' _ "$SRC"

echo "1..$n"
