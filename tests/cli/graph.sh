#!/bin/bash
# tests/cli/graph.sh - `sgexplore graph` and the game generators of
# scripts/ (TAP).  Every answer is judged by a reference written here in
# python3 straight from the game's rules, never from sgexplore's output:
# the chessboard coin game (values by memoised mex, sums of coins by
# minimax), the permutation game (minimax on the sequence), TWEED (the
# published fact: the even player wins only moving first with exactly one
# pile, of even size; and minimax), loopy games (play on G + *k decided by
# a fixpoint), the samples of the seed problems that are graph games, the
# JSON keys, and every kind of bad input with its exit status.
# Runs with $SGEXPLORE (the built program) and a scratch $TMPDIR.

SG=${SGEXPLORE:-sgexplore}
SRC=${top_srcdir:-.}
T=$(mktemp -d "${TMPDIR:-/tmp}/graph.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT

. "$(dirname "$0")/tap.sh"
export -f has contains # for the checks that run in bash -c

if ! command -v python3 >/dev/null 2>&1; then
    echo "1..0 # SKIP python3 is not installed"
    exit 0
fi
export SG SRC T

# run_py DESCRIPTION: a python3 check on stdin; ok when it prints "ok".
run_py() {
    local d=$1 out
    out=$(python3 - 2>&1)
    if [ "$out" = ok ]; then ok "$d"; else
        not_ok "$d"
        sed 's/^/# /' <<<"$out"
    fi
}

# The helpers every python check below starts with.
cat >"$T/common.py" <<'PY'
import json, os, random, subprocess, sys
SG, SRC, T = os.environ["SG"], os.environ["SRC"], os.environ["T"]
seed = int(os.environ.get("SG_TEST_SEED") or random.randrange(1 << 30))
rng = random.Random(seed)
def gen(script, *args):
    """Run a generator of scripts/, return its graph text."""
    return subprocess.run([sys.executable, os.path.join(SRC, "scripts",
                           script)] + [str(a) for a in args], check=True,
                          capture_output=True, text=True).stdout
def graph(text, *args):
    """Run sgexplore graph - --json on text; return the parsed object."""
    p = subprocess.run([SG, "graph", "-", "--json"] + list(args), input=text,
                       capture_output=True, text=True)
    if p.returncode != 0:
        raise SystemExit("sgexplore exit %d: %s (seed %d)"
                         % (p.returncode, p.stderr.strip(), seed))
    return json.loads(p.stdout)
def mex(s):
    m = 0
    while m in s:
        m += 1
    return m
def fail(msg):
    print("%s (seed %d)" % (msg, seed))
    sys.exit(0)
PY
export PYTHONPATH="$T"

# ------------------------------------------------------------------
# The chessboard coin game
# ------------------------------------------------------------------

run_py "chessboard 15x15: every square's value is the mex of its moves" <<'PY'
from common import *
from functools import lru_cache
STEPS = [(-2, 1), (-2, -1), (1, -2), (-1, -2)]
@lru_cache(None)
def g(x, y):
    return mex({g(x + a, y + b) for a, b in STEPS
                if 1 <= x + a <= 15 and 1 <= y + b <= 15})
d = graph(gen("graph_chessboard.py"))
assert d["vertices"] == 225, d["vertices"]
vals = {e["vertex"]: e["value"] for e in d["vertex_values"]}
bad = [k for k in vals
       if vals[k] != g(*map(int, k.split(".")))]
if bad or len(vals) != 225:
    fail("mismatch at %s" % bad[:5])
print("ok")
PY

run_py "chessboard: random boards, steps and coin sums against minimax" <<'PY'
from common import *
from functools import lru_cache
for trial in range(12):
    R, C = rng.randint(1, 6), rng.randint(1, 6)
    # steps lowering x + y, so the game ends
    cand = [(a, b) for a in range(-2, 3) for b in range(-2, 3) if a + b < 0]
    steps = rng.sample(cand, rng.randint(1, 4))
    def moves(sq):
        x, y = sq
        return [(x + a, y + b) for a, b in steps
                if 1 <= x + a <= R and 1 <= y + b <= C]
    @lru_cache(None)
    def wins(coins):  # minimax over the tuple of coins, player to move
        for i, c in enumerate(coins):
            for m in moves(c):
                if not wins(tuple(sorted(coins[:i] + (m,) + coins[i + 1:]))):
                    return True
        return False
    text = gen("graph_chessboard.py", "--rows", R, "--cols", C,
               "--steps=" + ";".join("%d,%d" % s for s in steps))
    for k in range(8):
        coins = tuple(sorted((rng.randint(1, R), rng.randint(1, C))
                             for _ in range(rng.randint(1, 3))))
        names = ["%d.%d" % c for c in coins]
        d = graph(text, "--position", ",".join(names))
        p = d["position"]
        want = "first" if wins(coins) else "second"
        if p["winner"] != want:
            fail("%dx%d %s coins %s: %s, minimax %s"
                 % (R, C, steps, names, p["winner"], want))
        if want == "first":
            mv = p["move"]
            i = mv["heap"]
            to = tuple(map(int, mv["to"].split(".")))
            if mv["from"] != names[i] or to not in moves(coins[i]):
                fail("illegal move %s" % mv)
            after = tuple(sorted(coins[:i] + (to,) + coins[i + 1:]))
            if wins(after):
                fail("move %s does not leave a lost position" % mv)
        elif p["move"] is not None:
            fail("a move for the second player: %s" % p)
print("ok")
PY

# ------------------------------------------------------------------
# The permutation game
# ------------------------------------------------------------------

run_py "permutation game: random permutations against minimax" <<'PY'
from common import *
from functools import lru_cache
def increasing(s):
    return all(a < b for a, b in zip(s, s[1:]))
@lru_cache(None)
def alice_wins(seq):  # the player to move wins
    for i in range(len(seq)):
        rest = seq[:i] + seq[i + 1:]
        if increasing(rest) or not alice_wins(rest):
            return True
    return False
sizes = [rng.randint(2, 8) for _ in range(25)] + [12]
for n in sizes:
    perm = list(range(1, n + 1))
    while increasing(perm):
        rng.shuffle(perm)
    text = gen("graph_permutation.py", *perm)
    start = ".".join(map(str, perm))
    d = graph(text, "--position", start)
    want = "first" if alice_wins(tuple(perm)) else "second"
    if d["position"]["winner"] != want:
        fail("%s: %s, minimax %s" % (perm, d["position"]["winner"], want))
    # every state, not only the start
    full = graph(text)
    for e in full["vertex_values"]:
        seq = tuple(map(int, e["vertex"].split(".")))
        term = increasing(seq)
        if (e["value"] != 0) != (not term and alice_wins(seq)):
            fail("%s state %s: value %s" % (perm, seq, e["value"]))
print("ok")
PY

check "permutation game: N = 15 (2^15 states) in one run" \
    bash -c 'python3 "$SRC/scripts/graph_permutation.py" 15 14 13 12 11 10 9 8 7 6 5 4 3 2 1 |
        "$SG" graph - --vertex 15.14.13.12.11.10.9.8.7.6.5.4.3.2.1 >"$T/p15"'
# decreasing: every state with two numbers left or more moves on, so every
# non-empty subset of the numbers is reached
check "permutation game: 15..1 reaches all 2^15 - 1 non-empty states" \
    grep -qx 'vertices: 32767' "$T/p15"
# from 15..1 every move shortens a decreasing sequence by one and the player
# who leaves one number wins: 14 moves, the last one the second player's
check "permutation game: 15..1 is a second-player win, G = 0" \
    grep -qx 'G(15.14.13.12.11.10.9.8.7.6.5.4.3.2.1) = 0' "$T/p15"

# ------------------------------------------------------------------
# TWEED
# ------------------------------------------------------------------

run_py "TWEED: the even player wins only first, with one even pile" <<'PY'
from common import *
starts = []
for a in range(1, 7):
    starts.append("%d" % a)
    for b in range(1, a + 1):
        starts.append("%d,%d" % (a, b))
        for c in range(1, b + 1):
            starts.append("%d,%d,%d" % (a, b, c))
d = graph(gen("graph_tweed.py", *starts), "--outcome")
assert d["partizan"]
seen = 0
for e in d["outcomes"]:
    piles = [] if e["vertex"] == "0" else list(map(int, e["vertex"].split("+")))
    # Left = even remover: wins moving first iff exactly one pile, even;
    # Right (odd) wins whenever it moves first, except with no piles
    if not piles:
        want = "P"
    elif len(piles) == 1 and piles[0] % 2 == 0:
        want = "N"
    else:
        want = "R"
    if e["outcome"] != want:
        fail("%s: %s, published %s" % (piles, e["outcome"], want))
    seen += 1
if seen < 80:
    fail("only %d positions" % seen)
print("ok")
PY

run_py "TWEED: outcome classes against minimax over the piles" <<'PY'
from common import *
from functools import lru_cache
@lru_cache(None)
def mover_wins(piles, even):
    for i, p in enumerate(piles):
        for k in range(2 if even else 1, p + 1, 2):
            rest = list(piles[:i] + piles[i + 1:]) + ([p - k] if p > k else [])
            if not mover_wins(tuple(sorted(rest)), not even):
                return True
    return False
starts = ["%d,%d" % (rng.randint(0, 7), rng.randint(1, 7)) for _ in range(6)]
starts.append("4,3,2,1")
d = graph(gen("graph_tweed.py", *starts), "--outcome")
for e in d["outcomes"]:
    piles = () if e["vertex"] == "0" else tuple(
        sorted(map(int, e["vertex"].split("+"))))
    lf = mover_wins(piles, True)       # Left (even) moves first and wins
    rf = mover_wins(piles, False)      # Right (odd) moves first and wins
    want = {(True, True): "N", (False, False): "P",
            (True, False): "L", (False, True): "R"}[(lf, rf)]
    if e["outcome"] != want:
        fail("%s: %s, minimax %s" % (piles, e["outcome"], want))
print("ok")
PY

out=$("$SG" graph - --outcome <<<"$(python3 "$SRC/scripts/graph_tweed.py" 2 3)")
check "TWEED text output: outcome(2) = N, outcome(3) = R, outcome(0) = P" \
    bash -c 'has "$1" "outcome(2) = N" && has "$1" "outcome(3) = R" &&
        has "$1" "outcome(0) = P"' _ "$out"

# ------------------------------------------------------------------
# Seed problems whose games are graphs
# ------------------------------------------------------------------

# Manasa and Prime Game: S = {2,3,5,7,11,13}; samples "10 10" -> Sandy
# (second player), "2 2 3" -> Manasa (first).
python3 -c '
for n in range(21):
    print(n, *[n - s for s in (2, 3, 5, 7, 11, 13) if n >= s])' >"$T/manasa"
out=$("$SG" graph "$T/manasa" --position 10,10)
check "seed sample (Manasa and Prime Game): 10 10 -> second (Sandy)" \
    has "$out" "winner: second"
out=$("$SG" graph "$T/manasa" --position 2,2,3)
check "seed sample (Manasa and Prime Game): 2 2 3 -> first (Manasa)" \
    has "$out" "winner: first"

# Partitioning Game: split a pile into two unequal piles; states are
# multisets named "a+b+..."; samples "4" -> Bob, "1 2 3" -> Alice,
# "7" -> Bob.
python3 - >"$T/split" <<'PY'
seen, todo = set(), [(n,) for n in range(1, 8)]
while todo:
    s = todo.pop()
    if s in seen:
        continue
    seen.add(s)
    out = []
    for i, p in enumerate(s):
        for a in range(1, (p + 1) // 2):
            t = tuple(sorted(s[:i] + s[i + 1:] + (a, p - a)))
            out.append(t)
            todo.append(t)
    print(" ".join("+".join(map(str, t)) for t in [s] + sorted(set(out))))
PY
out=$("$SG" graph "$T/split" --position 4)
check "seed sample (Partitioning Game): 4 -> second (Bob)" \
    has "$out" "winner: second"
out=$("$SG" graph "$T/split" --position 1,2,3)
check "seed sample (Partitioning Game): 1 2 3 -> first (Alice)" \
    has "$out" "winner: first"
out=$("$SG" graph "$T/split" --position 7)
check "seed sample (Partitioning Game): 7 -> second (Bob)" \
    has "$out" "winner: second"

# ------------------------------------------------------------------
# Loopy games
# ------------------------------------------------------------------

printf '# x moves to itself, to a 0 and to a 2\nx x y0 y2\ny0\ny1 y0\ny2 y0 y1\n' >"$T/loop"
out=$("$SG" graph "$T/loop" 2>"$T/err")
rc=$?
check "a cycle without --loopy: exit 2" test "$rc" = 2
check "a cycle without --loopy: one line naming its vertices" \
    bash -c '[ "$(wc -l <"$1")" = 1 ] && grep -q "cycle of 1 vertex: x -> x" "$1" && grep -q -- --loopy "$1"' _ "$T/err"
check "a cycle without --loopy: nothing on stdout" test -z "$out"
out=$("$SG" graph "$T/loop" --loopy)
check "--loopy: G(x) = ∞{0,2}, finite values as usual" \
    bash -c 'has "$1" "G(x) = ∞{0,2}" && has "$1" "G(y2) = 2" && has "$1" "G(y0) = 0"' _ "$out"
out=$("$SG" graph "$T/loop" --loopy --position x,y2)
check "--loopy sum: x + y2 is ∞{0,2} shifted by 2, a first-player win by x -> y2" \
    bash -c 'has "$1" "nim-sum: ∞{0,2}" && has "$1" "winner: first" && has "$1" "move: token #0 (x) to y2"' _ "$out"
out=$("$SG" graph "$T/loop" --loopy --position x,y1)
check "--loopy sum: x + y1 is a draw" \
    bash -c 'has "$1" "nim-sum: ∞{1,3}" && has "$1" "winner: draw"' _ "$out"

run_py "--loopy: random loopy boards against play on G + *k (fixpoint)" <<'PY'
from common import *
for trial in range(15):
    n = rng.randint(1, 14)
    adj = [sorted(set(rng.randrange(n) for _ in range(rng.randint(0, 3))))
           for _ in range(n)]
    text = "".join(" ".join(["q%d" % v] + ["q%d" % w for w in adj[v]]) + "\n"
                   for v in range(n))
    d = graph(text, "--loopy")
    K = 5
    # states (v, h): v the token, h a nim heap; 1 win, 2 loss, 0 draw
    res = {}
    changed = True
    while changed:
        changed = False
        for v in range(n):
            for h in range(K):
                if (v, h) in res:
                    continue
                opts = [(w, h) for w in adj[v]] + [(v, j) for j in range(h)]
                r = [res.get(o, 0) for o in opts]
                if 2 in r:
                    res[(v, h)] = 1; changed = True
                elif all(x == 1 for x in r):
                    res[(v, h)] = 2; changed = True
    for e in d["vertex_values"]:
        v = int(e["vertex"][1:])
        for h in range(K):
            got = res.get((v, h), 0)
            if e["value"] is None:
                want = 1 if h in e["followers"] else 0
            else:
                want = 2 if e["value"] == h else 1
            if got != want:
                fail("%s: q%d + *%d: %s predicts %d, play %d"
                     % (adj, v, h, e["value"], want, got))
print("ok")
PY

printf 'a b L:t\nb a\nt\n' >"$T/lpart"
"$SG" graph "$T/lpart" --outcome >/dev/null 2>&1
check "--outcome on a cycle: exit 2 without --loopy" test $? = 2
out=$("$SG" graph "$T/lpart" --outcome --loopy)
# a: Left wins moving first (to t); Right moving first can only go to b,
# and a <-> b forever.  b: Left moving first must go to a, Right to b, ...
# a draw; Right moving first goes to a, where Left moves to t and wins.
check "--outcome --loopy: draws are named (a: LD, b: DL, t: P)" \
    bash -c 'has "$1" "outcome(a) = LD" && has "$1" "outcome(b) = DL" && has "$1" "outcome(t) = P"' _ "$out"

# ------------------------------------------------------------------
# Options, JSON, stdin
# ------------------------------------------------------------------

printf 'a b c\nb c\nc\n' >"$T/small"
out=$("$SG" graph "$T/small")
check "text output: a header and G(name) = value for every vertex" \
    bash -c 'has "$1" "vertices: 3" && has "$1" "moves: 3" && has "$1" "G(a) = 2" && has "$1" "G(b) = 1" && has "$1" "G(c) = 0"' _ "$out"
out=$("$SG" graph "$T/small" --vertex b --vertex c)
check "--vertex: only the vertices asked for" \
    bash -c 'has "$1" "G(b) = 1" && has "$1" "G(c) = 0" && ! contains "$1" "G(a)"' _ "$out"
out=$("$SG" graph - --position a,b <"$T/small")
check "--position from stdin: nim-sum 3, first wins by a -> b" \
    bash -c 'has "$1" "nim-sum: 3" && has "$1" "winner: first" && has "$1" "move: token #0 (a) to b"' _ "$out"
out=$("$SG" graph "$T/small" --position b,b --json)
check "--json position keys: nim_sum, winner, move null for the second player" \
    python3 -c 'import json,sys; d=json.loads(sys.argv[1]); p=d["position"]
assert p == {"nim_sum": "0", "winner": "second", "move": None}, p
assert d["vertex_values"] == [{"vertex": "b", "value": 1}] * 2, d' "$out"
out=$("$SG" graph "$T/small" --position a,c --json)
check "--json move: heap (token index), from and to" \
    python3 -c 'import json,sys; d=json.loads(sys.argv[1])
assert d["position"]["move"] == {"heap": 0, "from": "a", "to": "c"}, d' "$out"
out=$("$SG" graph "$T/loop" --loopy --json)
check "--json --loopy: infinite values with their followers" \
    python3 -c 'import json,sys; d=json.loads(sys.argv[1]); x=d["vertex_values"][0]
assert x == {"vertex": "x", "value": None, "followers": [0, 2]}, x' "$out"
# A full stdout: one error line (not one from graph and one from main),
# exit 1, in text and in JSON.
for fmt in "" --json; do
    "$SG" graph "$T/small" $fmt >/dev/full 2>"$T/full.err"
    rc=$?
    check "graph $fmt on a full stdout: exit 1 and one error line" \
        bash -c '[ "$1" = 1 ] && [ "$(wc -l <"$2")" = 1 ] && grep -q "cannot write the output" "$2"' _ $rc "$T/full.err"
done
out=$("$SG" graph --help)
check "graph --help: usage, exit 0" contains "$out" "Usage: sgexplore graph FILE"

# ------------------------------------------------------------------
# Bad input: one line on stderr with the line number, exit 2
# ------------------------------------------------------------------

# bad DESCRIPTION STATUS PATTERN ARGS...: that exit status, one stderr line
# matching PATTERN, nothing on stdout.
bad() {
    local d=$1 want=$2 pat=$3 rc
    shift 3
    "$SG" graph "$@" >"$T/out" 2>"$T/err"
    rc=$?
    if [ "$rc" = "$want" ] && [ ! -s "$T/out" ] &&
        [ "$(wc -l <"$T/err")" = 1 ] && grep -q -- "$pat" "$T/err"; then
        ok "$d"
    else
        not_ok "$d (exit $rc: $(cat "$T/err"))"
    fi
}
printf 'a b\n\nb c\n' >"$T/b1"
bad "unknown vertex: exit 2, its line" 2 "line 3: unknown vertex 'c'" "$T/b1"
printf 'a\nb\na b\n' >"$T/b2"
bad "duplicate vertex: exit 2, both lines" 2 \
    "line 3: vertex 'a' is already declared on line 1" "$T/b2"
: >"$T/b3"
bad "empty file: exit 2" 2 "line 1: the graph is empty" "$T/b3"
printf '# only\n\n# comments\n' >"$T/b4"
bad "only comments: exit 2" 2 "line 3: the graph is empty" "$T/b4"
python3 -c 'print("a"); print("b" + " a" * 600000)' >"$T/b5"
bad "a line over 1 MiB: exit 2, the limit" 2 \
    "line 2: longer than 1048576 bytes" "$T/b5"
printf 'a\nb \xfe\n' >"$T/b6"
bad "a name that is not UTF-8: exit 2" 2 \
    "line 2: the name '.xfe' is not valid UTF-8" "$T/b6"
printf 'a b,c\nb,c\n' >"$T/b7"
bad "a comma in a name: exit 2" 2 "line 1: the name 'b,c' holds ','" "$T/b7"
bad "a missing file: exit 1" 1 "cannot open" "$T/nonexistent"
bad "--vertex of an unknown name: exit 2" 2 "'z': no such vertex" \
    "$T/small" --vertex z
bad "--position with an empty name: exit 2" 2 "an empty name" \
    "$T/small" --position a,,b
bad "--position with --outcome: exit 2" 2 "do not combine" \
    "$T/small" --position a --outcome
bad "a partizan graph without --outcome: exit 2" 2 "partizan" "$T/lpart" \
    --loopy
bad "no file: exit 2" 2 "no graph given"
# under --json the error is also one object on stdout (docs/JSON.md)
"$SG" graph --json >"$T/out" 2>"$T/err"
check "no file, --json: exit 2, the error line, and its JSON object" \
    python3 -c 'import json, sys
d = json.load(open(sys.argv[2]))["error"]
assert sys.argv[1] == "2" and d["code"] == "usage" and d["position"] is None
assert open(sys.argv[3]).read() == "sgexplore: " + d["message"] + "\n", d' $? "$T/out" "$T/err"
bad "two files: exit 2" 2 "only one graph" "$T/small" "$T/small"
bad "an unknown option: exit 2" 2 "unknown option '--bogus'" "$T/small" \
    --bogus

echo "1..$n"
