#!/bin/bash
# tests/cli/budget.sh - the budgets of a sweep and of an analysis (TAP):
# a time budget means time (--seconds without --max: no default count
# cuts a rule short, only proof, time or memory end it, and each row says
# which), an explicit --max still caps, and --escalate runs the cheap
# rules first and the unresolved ones again with 10 times the budget,
# every round extending the values the one before stored (counted from
# the rows' `budgets`: each value is computed once).  0.354 (published:
# n0 10061916, p 1180, data/known.tsv) needs 20 million values, 20 times
# the default count, and about 2 s.  SGEXPLORE_TEST_MEMORY=BYTES (a test
# switch, HACKING.md) sets the memory a run bounded by time may fill, so
# that the memory limit is reached in a fraction of a second.

SG=${SGEXPLORE:-sgexplore}
DATA=${abs_top_srcdir:-${top_srcdir:-.}}/data
T=$(mktemp -d "${TMPDIR:-/tmp}/budget.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT
unset SGEXPLORE_DB SGEXPLORE_TEST_MEMORY

. "$(dirname "$0")/tap.sh"

if ! command -v python3 >/dev/null 2>&1; then
    echo "1..0 # SKIP python3 is needed to read the JSON rows"
    exit 0
fi

# row FILE RULE EXPR: EXPR (Python, over the row r of RULE and the
# summary s) holds.
row() {
    python3 -c '
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
s = rows[-1]["summary"]
r = [x for x in rows if x.get("rule") == sys.argv[2]][0]
sys.exit(0 if eval("(" + sys.argv[3] + ")") else 1)' "$@"
}

pub=$(awk -F'\t' '$1 == "0.354" {print $5" "$4}' "$DATA/known.tsv")
read -r pub_n0 pub_p <<<"$pub"

# --- the default count cuts 0.354 short; a time budget does not -------
echo 0.354 | "$SG" sweep rules - --no-cache --json >"$T/def.json"
check "no --seconds: 0.354 stops at the default 10^6 values, stopped: max" \
    row "$T/def.json" 0.354 'r["status"] == "unresolved" and
        r["computed"] == 1000000 and r["stopped"] == "max" and
        r["budgets"][0]["max_is"] == "default" and
        s["stopped"] == {"proven": 0, "time": 0, "max": 1, "memory": 0}'

printf '0.354\n0.07\n' | "$SG" sweep rules - --db "$T/t.db" --seconds 60 \
    --json >"$T/time.json"
check "--seconds 60: 0.354 proven with the published n0 $pub_n0 and p $pub_p, stopped: proven" \
    row "$T/time.json" 0.354 'r["status"] == "periodic" and
        r["preperiod"] == '"$pub_n0"' and r["period"] == '"$pub_p"' and
        r["stopped"] == "proven" and r["budgets"][0]["max_is"] == "memory"
        and r["budgets"][0]["seconds"] == 60 and
        r["budgets"][0]["max"] > 20126195 and s["stopped"]["proven"] == 2'

# The analysis of one rule does the same (0.354 from 2^21 bytes of
# memory: 2^21 / 8 values, more than the default 10^6).
out=$(SGEXPLORE_TEST_MEMORY=16777216 "$SG" 0.354 --seconds 60 --no-cache --json)
check "analysis --seconds: past the default count, to the memory limit" \
    python3 -c 'import json, sys; r = json.loads(sys.argv[1])
sys.exit(0 if r["computed"] == 2097152 and r["status"] == "unresolved" else 1)' "$out"

# --- why each rule stopped: time, memory, a given --max ---------------
echo 0.376 | "$SG" sweep rules - --no-cache --seconds 0.3 --json >"$T/t3.json"
check "0.376 in 0.3 s (it needs 4.5 million values): stopped: time" \
    row "$T/t3.json" 0.376 'r["status"] == "unresolved" and
        r["stopped"] == "time" and s["stopped"]["time"] == 1'
echo 0.354 | SGEXPLORE_TEST_MEMORY=8000000 "$SG" sweep rules - --no-cache \
    --seconds 60 --jobs 1 >"$T/mem.txt"
check "memory for 10^6 values: stopped: memory, in the row and the summary" \
    bash -c 'grep -q "^0.354  *unresolved .* 1000000 .* memory  *60s$" "$1" &&
             grep -q "^stopped: 0 proven, 0 by time, 0 by the count of values, 1 by memory (memory ran out" "$1"' \
    _ "$T/mem.txt"
echo 0.354 | "$SG" sweep rules - --no-cache --seconds 60 --max 5000 \
    --json >"$T/cap.json"
check "--seconds with --max 5000: the given count still caps, stopped: max" \
    row "$T/cap.json" 0.354 'r["computed"] == 5000 and r["stopped"] == "max"
        and r["budgets"][0]["max_is"] == "given"'

# --- a rerun spends the budget again on an unresolved rule, and says so
echo 0.376 | "$SG" sweep rules - --db "$T/t.db" --seconds 0.2 >/dev/null
echo 0.376 | "$SG" sweep rules - --db "$T/t.db" --seconds 0.2 >"$T/re.txt"
check "a rerun extends the unresolved rule and the summary says so" \
    grep -q '^extended: 1 unresolved rule from the cache was computed further, with the whole budget again' "$T/re.txt"

# --- --escalate: budgets 100 and 10 times smaller first ----------------
printf '0.07\n0.354\n0.376\n' >"$T/rules"
"$SG" sweep rules "$T/rules" --db "$T/e.db" --max 2000000 --escalate 3 \
    --json >"$T/esc.json"
check "--max 2000000 --escalate 3: 0.07 proven in the first round, once" \
    row "$T/esc.json" 0.07 'r["stopped"] == "proven" and
        [b["max"] for b in r["budgets"]] == [20000]'
for rule in 0.354 0.376; do
    check "... $rule got 20000, 200000, 2000000 values, each round extending the last (every value computed once)" \
        row "$T/esc.json" $rule 'r["stopped"] == "max" and
            [b["max"] for b in r["budgets"]] == [20000, 200000, 2000000] and
            [b["from"] for b in r["budgets"]] == [0, 20000, 200000] and
            [b["computed"] for b in r["budgets"]] == [20000, 200000, 2000000] and
            [b["source"] for b in r["budgets"]] == ["computed", "extended", "extended"] and
            sum(b["computed"] - b["from"] for b in r["budgets"]) == r["computed"] == 2000000'
done
check "... the summary: 3, 2 and 2 rules in the rounds, all found new" \
    row "$T/esc.json" 0.07 '[(x["rules"], x["proven"], x["max"]) for x in s["rounds"]] ==
        [(3, 1, 20000), (2, 0, 200000), (2, 0, 2000000)] and
        s["rules_computed"] == 3 and s["rules_extended"] == 0'
"$SG" cache show 0.376 --db "$T/e.db" --json >"$T/show.json"
check "... the cache holds the last round's 2000000 values" \
    python3 -c 'import json, sys
sys.exit(0 if json.load(open(sys.argv[1]))["computed"] == 2000000 else 1)' "$T/show.json"
"$SG" sweep rules "$T/rules" --db "$T/e.db" --max 2000000 --escalate 3 \
    >"$T/esc.txt"
check "text: budgets column and the escalation line" \
    bash -c 'grep -q "^0.376 .* cache  *max  *20000+200000+2000000$" "$1" &&
             grep -q "^escalation (each round extends the values the one before stored): round 1 (20000 values): 3 rules, 1 proven; round 2 (200000 values): 2 rules, 0 proven; round 3 (2000000 values): 2 rules, 0 proven$" "$1"' \
    _ "$T/esc.txt"

# With time: 0.354 within 0.2 s, then 2 s, then 20 s: proven in the
# second or the third round, which extends what the one before stored.
echo 0.354 | "$SG" sweep rules - --db "$T/s.db" --seconds 20 --escalate 3 \
    --json >"$T/esc_s.json"
check "--seconds 20 --escalate 3: 0.354 proven, budgets 0.2 s, 2 s (, 20 s), each extending the last" \
    row "$T/esc_s.json" 0.354 'r["stopped"] == "proven" and
        r["preperiod"] == '"$pub_n0"' and
        [b["seconds"] for b in r["budgets"]] == [0.2, 2, 20][:len(r["budgets"])] and
        len(r["budgets"]) >= 2 and r["budgets"][0]["from"] == 0 and
        all(r["budgets"][k + 1]["from"] == r["budgets"][k]["computed"]
            for k in range(len(r["budgets"]) - 1)) and
        [b["stopped"] for b in r["budgets"][:-1]] == ["time"] * (len(r["budgets"]) - 1)'

# --heap past what --seconds computed: a rerun continues from the cache
# only when the values were stored (issue 50: --no-cache said it did).
out=$("$SG" 0.3F --heap 10^12 --seconds 0.3 --no-cache); rc=$?
check "--no-cache --seconds: unknown, exit 3, nothing stored, no promise of a continuation" \
    bash -c '[ $2 = 3 ] && grep -q "^G(10^12) = unknown .*--seconds ran out first, and nothing was stored" <<<"$1" &&
             ! grep -q "continues from the stored" <<<"$1"' _ "$out" $rc
out=$("$SG" 0.3F --heap 10^12 --seconds 0.3 --db "$T/h.db"); rc=$?
stored=$("$SG" cache list --db "$T/h.db" --format json | python3 -c 'import json, sys
print([json.loads(l) for l in sys.stdin][0]["stored"])')
check "with a cache: the values are stored and a rerun continues from them" \
    bash -c '[ $2 = 3 ] && grep -q "continues from the stored values" <<<"$1" &&
             grep -q "only G(0..$(($3 - 1))) were computed" <<<"$1"' _ "$out" $rc "$stored"

# --- bad input ---------------------------------------------------------
for bad in 0 7 x; do
    echo 0.07 | "$SG" sweep rules - --db "$T/b.db" --escalate $bad >/dev/null 2>"$T/err"
    check "--escalate $bad: exit 2, one line" \
        bash -c '[ $1 = 2 ] && [ $(wc -l <"$2") = 1 ]' _ $? "$T/err"
done
echo 0.07 | "$SG" sweep rules - --no-cache --escalate 2 >/dev/null 2>"$T/err"
check "--escalate 2 --no-cache: exit 2 (the rounds extend the stored values)" \
    bash -c '[ $1 = 2 ] && grep -q "needs the cache" "$2"' _ $? "$T/err"

echo "1..$n"
