#!/bin/bash
# tests/cli/edges.sh - the rough edges a new user hit (issue 21), one
# section each (TAP): every option that names a file to write refuses a
# missing folder the same way, before any work; --position reads numbers
# as --heap does; --heap extends an unresolved rule as --values does, and
# every hint is a command the tool accepts; the progress line on a
# terminal; --quiet; plot --cache on an empty cache; the messages and
# --help exit statuses; and every option name the code asks for is one
# its command declares.  Expected values are Kayles' published period
# (octal 0.77: n0 = 71, p = 12; Guy and Smith 1956, Winning Ways ch. 4).

SG=${SGEXPLORE:-sgexplore}
T=$(mktemp -d "${TMPDIR:-/tmp}/edges.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT
export SGEXPLORE_DB="$T/cache.db"
SRC="${abs_top_srcdir:-$(dirname "$0")/../..}"

. "$(dirname "$0")/tap.sh"

lines() { wc -l <"$1"; }

# --- one rule for every path option: a missing folder is exit 2 ----------
# option words (NOWHERE is the missing folder) | what a run would write
"$SG" 0.77 --max 500 --db "$T/in.db" >/dev/null 2>&1
PATHS=(
    "merge NOWHERE/out.db $T/in.db"
    "0.77 --db NOWHERE/c.db"
    "0.77 --export-certificate NOWHERE/k.cert"
    "0.77 --plot NOWHERE/k.png"
    "plot 0.77 -o NOWHERE/k.png"
    "plot --cache -o NOWHERE/k.png"
    "sweep subtract --size 1 --max-element 3 --plot NOWHERE/s.png"
    "sweep subtract --size 1 --max-element 3 --db NOWHERE/c.db"
)
i=0
for p in "${PATHS[@]}"; do
    i=$((i + 1)) # a folder of its own: a run that creates one spoils no other
    read -r -a words <<<"${p//NOWHERE/$T/nowhere$i}"
    SGEXPLORE_DB="$T/side.db" "$SG" "${words[@]}" >"$T/out" 2>"$T/err"
    rc=$?
    check "[${p}]: exit 2, one line naming the folder, nothing done" \
        bash -c '[ $1 = 2 ] && [ "$(wc -l <"$2")" = 1 ] &&
                 grep -qF "the folder '"'"'$4'"'"' does not exist" "$2" &&
                 [ ! -s "$3" ] && [ ! -e "$4" ] && [ ! -e "$5" ]' \
        _ "$rc" "$T/err" "$T/out" "$T/nowhere$i" "$T/side.db"
    rm -f "$T"/side.db*
done
"$SG" merge "$T/merged.db" "$T/in.db" >/dev/null 2>&1
check "merge into an existing folder still works" test -s "$T/merged.db"

echo "1..$n"
