#!/bin/bash
# tests/cli/readme.sh - the README's examples are true (TAP): every block
# of sample output in README.md, written as "$ COMMAND" lines each followed
# by its output, is run in order in a scratch folder with a fresh cache,
# and the output must match the README line for line.  Only numbers of
# seconds (elapsed times) may differ.  `sgexplore` in a command is the
# built program; `scripts/` is the source tree's.

SG=${SGEXPLORE:-sgexplore}
SRC=${abs_top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
T=$(mktemp -d "${TMPDIR:-/tmp}/readme.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT
export SGEXPLORE_DB="$T/cache.db"

. "$(dirname "$0")/tap.sh"

# Split the README into examples: T/ex.N.cmd (one command) and T/ex.N.out.
python3 - "$SRC/README.md" "$T" <<'PY'
import sys
lines = open(sys.argv[1], encoding="utf-8").read().split("\n")
n, block, cur = 0, False, None
for line in lines:
    if line.startswith("```"):
        block = not block
        cur = None
        continue
    if not block:
        continue
    if line.startswith("$ "):
        n += 1
        open("%s/ex.%04d.cmd" % (sys.argv[2], n), "w").write(line[2:] + "\n")
        cur = open("%s/ex.%04d.out" % (sys.argv[2], n), "w")
    elif cur:
        cur.write(line + "\n")
PY

# Timings are the one thing allowed to differ.
normalise() { sed -E 's/[0-9]+\.[0-9]+ s\b/N s/g; s/"elapsed":[0-9.]+/"elapsed":N/g'; }

# The commands run as written: `sgexplore` on the PATH is the built
# program, `scripts/` in the work folder is the source tree's.
count=0
mkdir -p "$T/work" "$T/bin"
ln -s "$SG" "$T/bin/sgexplore"
ln -s "$SRC/scripts" "$T/work/scripts"
for cmd in "$T"/ex.*.cmd; do
    count=$((count + 1))
    out=${cmd%.cmd}.out
    line=$(cat "$cmd")
    got=$(cd "$T/work" && PATH="$T/bin:$PATH" bash -c "$line" 2>&1 | normalise)
    want=$(sed -e '$ { /^$/ d }' "$out" | normalise)
    if [ "$got" = "$want" ]; then
        ok "README: \$ $line"
    else
        not_ok "README: \$ $line"
        diff <(echo "$want") <(echo "$got") | sed 's/^/# /' | head -n 20
    fi
done
check "the README has examples to check" test "$count" -ge 5
echo "1..$n"
