#!/bin/bash
# tests/cli/deep_file.sh - a deep run carried between caches through a
# checkpoint file (TAP): `cache export-checkpoint` then `cache
# import-checkpoint` into a new cache, and the run resumed there ends with
# exactly the checksum and kept values of an uninterrupted run (whose own
# correctness tests/cli/deep.sh checks against an independent FNV-1a).
# Every way of fooling the import is tried - a damaged, truncated or
# extended state, edited headers (rule, heaps, hash), another rule's state
# under a header that names this one, a state flipped inside with its hash
# recomputed - and each must be refused with one line, storing nothing.
# A cache whose run is further keeps it.  census_deep.sh -k carries a run
# through a folder the same way.

SG=${SGEXPLORE:-sgexplore}
SRC=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
T=$(mktemp -d "${TMPDIR:-/tmp}/deepfile.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT

. "$(dirname "$0")/tap.sh"

for c in python3 sqlite3 xz; do
    if ! command -v $c >/dev/null 2>&1; then
        echo "1..0 # SKIP $c is not installed"
        exit 0
    fi
done

# 0.167: the last rare heap at 1303, so a window of 2^14 freezes early and
# moves: the state holds a frozen mask, the rare heaps and two kept ranges.
DEEP=(0.167 --deep --window 16384 --checkpoint 0 --threads 1)
N1=400000
N2=2000000

# "checksum kept computed" of a JSON report.
summary() {
    python3 -c '
import json, sys
o = json.load(open(sys.argv[1]))
print(o["deep"]["checksum"], json.dumps(o["deep"]["kept"], separators=(",", ":")),
      o["computed"])' "$1"
}

"$SG" "${DEEP[@]}" --max $N2 --db "$T/whole.db" --json >"$T/whole.json"
check "an uninterrupted deep run to $N2 succeeds" test $? = 0
whole=$(summary "$T/whole.json")

"$SG" "${DEEP[@]}" --max $N1 --db "$T/a.db" --json >/dev/null
check "a deep run to $N1 leaves a checkpoint" test $? = 0
out=$("$SG" cache export-checkpoint 0.167 "$T/c.ck" --db "$T/a.db")
check "export-checkpoint: exit 0" test $? = 0
check "... saying what it wrote" contains "$out" "^wrote the deep-run checkpoint of 0.167 (heap $N1) to"
check "the file starts with its header" \
    test "$(head -n 3 "$T/c.ck" | tr '\n' '|')" = "sgexplore deep checkpoint 1|rule 0.167|heaps $N1|"
check "no temporary file is left beside it" test "$(ls "$T" | grep -c tmp)" = 0

out=$("$SG" cache import-checkpoint "$T/c.ck" --db "$T/b.db" --json)
check "import-checkpoint into a new cache: exit 0" test $? = 0
check "... stored" contains "$out" '"stored":true'
check "... at the file's heap" contains "$out" "\"heaps\":$N1,"
out=$("$SG" cache show 0.167 --db "$T/b.db")
check "cache show sees the imported checkpoint" contains "$out" "$N1"

"$SG" "${DEEP[@]}" --max $N2 --db "$T/b.db" --json >"$T/b.json"
check "the run resumed in the other cache succeeds" test $? = 0
check "... it resumed from the checkpoint" \
    contains "$(cat "$T/b.json")" '"source":"resumed from a checkpoint"'
check "... with exactly the uninterrupted run's checksum and kept values" \
    test "$(summary "$T/b.json")" = "$whole"

# A cache that is further keeps its own.
sqlite3 "$T/b.db" 'SELECT heaps, hash FROM checkpoints' >"$T/b.before"
out=$("$SG" cache import-checkpoint "$T/c.ck" --db "$T/b.db")
check "importing an older checkpoint: exit 0" test $? = 0
check "... says the cache's is kept" contains "$out" "^kept the checkpoint of 0.167 in .*: it is at heap $N2, the file's at $N1"
check "... and the cache's checkpoint is unchanged" \
    test "$(sqlite3 "$T/b.db" 'SELECT heaps, hash FROM checkpoints')" = "$(cat "$T/b.before")"

# refused NAME FILE PATTERN: importing FILE into a new cache fails with
# exit 1, one line matching PATTERN, and stores nothing.
refused() {
    local name=$1 file=$2 pat=$3 out rc
    rm -f "$T/r.db"
    out=$("$SG" cache import-checkpoint "$file" --db "$T/r.db" 2>&1)
    rc=$?
    check "$name: refused with exit 1 (got $rc)" test $rc = 1
    check "... one line naming the problem" test "$(printf '%s\n' "$out" | wc -l)" = 1 -a \
        -n "$(printf '%s\n' "$out" | grep -e "$pat")"
    check "... storing nothing" \
        test "$(sqlite3 "$T/r.db" 'SELECT count(*) FROM checkpoints' 2>/dev/null || echo 0)" = 0
}

# python3 edit.py IN OUT MODE: a changed copy of a checkpoint file.
cat >"$T/edit.py" <<'EOF'
import sys
src, dst, mode = sys.argv[1], sys.argv[2], sys.argv[3]
data = open(src, "rb").read()
head, state = data.split(b"\n\n", 1)
lines = head.split(b"\n")
def fnv(b):
    h = 14695981039346656037
    for x in b:
        h = ((h ^ x) * 1099511628211) & 0xFFFFFFFFFFFFFFFF
    return b"hash fnv1a64:%016x" % h
if mode == "flip":          # one byte of the state, hash left as it was
    state = state[:-100] + bytes([state[-100] ^ 1]) + state[-99:]
elif mode == "flip-rehash": # a byte inside the state's rule text, rehashed
    i = state.index(b"0.167")
    state = state[:i + 4] + b"6" + state[i + 5:]
    lines[4] = fnv(state)
elif mode == "count-rehash": # the state's heap count, rehashed
    i = state.index(b"0.167") + 5
    n = int.from_bytes(state[i:i + 8], "little") + 16384
    state = state[:i] + n.to_bytes(8, "little") + state[i + 8:]
    lines[4] = fnv(state)
elif mode == "truncate":
    state = state[:-1]
elif mode == "extend":
    state = state + b"\0"
elif mode == "heaps":
    lines[2] = b"heaps 400001"
elif mode == "rule":
    lines[1] = b"rule 0.764"
elif mode == "noncanon":
    lines[1] = b"rule 0.1670"
elif mode == "hash":
    lines[4] = b"hash fnv1a64:0123"
elif mode == "magic":
    lines[0] = b"sgexplore deep checkpoint 2"
open(dst, "wb").write(b"\n".join(lines) + b"\n\n" + state)
EOF
for m in flip flip-rehash count-rehash truncate extend heaps rule noncanon hash magic; do
    python3 "$T/edit.py" "$T/c.ck" "$T/$m.ck" $m
done
refused "one state byte flipped" "$T/flip.ck" "does not match its hash"
refused "the state's rule changed, hash recomputed" "$T/flip-rehash.ck" "checkpoint"
refused "the state's heap count changed, hash recomputed" "$T/count-rehash.ck" "checkpoint"
refused "the state cut by one byte" "$T/truncate.ck" "truncated or extended"
refused "one byte appended" "$T/extend.ck" "truncated or extended"
refused "the header's heaps edited" "$T/heaps.ck" "header says 400001 heaps"
refused "the header naming another rule" "$T/rule.ck" "checkpoint"
refused "a rule text not in canonical form" "$T/noncanon.ck" "not in canonical form"
refused "a malformed hash" "$T/hash.ck" "damaged header (hash)"
refused "another format version" "$T/magic.ck" "not a deep-run checkpoint file"
refused "a missing file" "$T/none.ck" "cannot open the checkpoint file"
printf 'rule 0.167\n' >"$T/text.ck"
refused "a text file" "$T/text.ck" "not a deep-run checkpoint file"

# Export errors.
out=$("$SG" cache export-checkpoint 0.77 "$T/x.ck" --db "$T/a.db" 2>&1)
check "export of a rule without a checkpoint: exit 3" test $? = 3
check "... saying so" contains "$out" "'0.77' has no deep-run checkpoint"
out=$("$SG" cache export-checkpoint 0.167 "$T/no/such/x.ck" --db "$T/a.db" 2>&1)
check "export into a missing folder: exit 1" test $? = 1
check "... one line naming the file" contains "$out" "cannot write the checkpoint file '.*no/such/x.ck'"
out=$("$SG" cache export-checkpoint 0.167 "$T/x.ck" --db "$T/none.db" 2>&1)
check "export from a missing cache: exit 1" test $? = 1
check "... saying so, creating nothing" test ! -e "$T/none.db" -a -n "$out"
out=$("$SG" cache export-checkpoint "0.1(7" "$T/x.ck" --db "$T/a.db" 2>&1)
check "export of a malformed rule: exit 2" test $? = 2
out=$("$SG" cache import-checkpoint 2>&1)
check "import without a file: exit 2" test $? = 2

# census_deep.sh -k: a run carried through a folder to a second WORK
# resumes there.  A fake census whose one open code is 0.167.
C=$T/census
mkdir -p "$C/out"
printf 'code\trule\tstatus\n0.167\t0.167\tunresolved\n' >"$C/out/octal.tsv"
cp -r "$SRC/scripts" "$C/scripts"
mkdir -p "$C/data"
printf 'code\ttable\n0.167\tunsolved\n' >"$C/data/tczajka.tsv"
cat >"$C/sg" <<EOF
#!/bin/bash
# the program, with this test's small window and max
if [[ \$2 == --deep ]]; then
    exec "$SG" "\$@" --window 16384 --threads 1
fi
exec "$SG" "\$@"
EOF
chmod +x "$C/sg"
SGEXPLORE=$C/sg SG_DEEP_NICE=0 bash "$C/scripts/census_deep.sh" -c 0.167 \
    -m $N2 -s 0.05 -w "$C/w1" -o "$C/out" -k "$C/carry" 2>"$C/log1"
check "census_deep.sh -k: a short run carries its checkpoint ($(ls "$C/carry" 2>/dev/null | tr '\n' ' '))" \
    test -s "$C/carry/0.167.ck.xz" -a -s "$C/carry/0.167.cpu" -a -s "$C/carry/0.167.json"
first=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["computed"])' "$C/carry/0.167.json")
SGEXPLORE=$C/sg SG_DEEP_NICE=0 bash "$C/scripts/census_deep.sh" -c 0.167 \
    -m $N2 -s 600 -w "$C/w2" -o "$C/out" -k "$C/carry" 2>"$C/log2"
check "... a new WORK resumes it (from heap $first)" \
    contains "$(cat "$C/w2/deep/0.167.json")" '"source":"resumed from a checkpoint"'
check "... and ends with the uninterrupted run's checksum and kept values" \
    test "$(summary "$C/w2/deep/0.167.json")" = "$whole"
check "... its CPU records carried (two runs)" test "$(wc -l <"$C/w2/deep/0.167.cpu")" = 2
check "... and the finished run's checkpoint file is removed" test ! -e "$C/carry/0.167.ck.xz"

echo "1..$n"
[ $fails = 0 ]
