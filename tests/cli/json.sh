#!/bin/bash
# tests/cli/json.sh - the JSON contract holds (TAP): every command's --json
# output, in its main variants, is validated line by line against the
# strict schema docs/sgexplore.schema.json (python3-jsonschema), record by
# record ($defs), and the number rule of docs/JSON.md is checked on the
# values themselves: heaps as decimal strings, other numbers integers up to
# 2^53 - 1 and decimal strings beyond.  Skipped only when python3-jsonschema
# is missing.

SG=${SGEXPLORE:-sgexplore}
SRC=${abs_top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
SCHEMA=$SRC/docs/sgexplore.schema.json

if ! python3 -c 'import jsonschema' 2>/dev/null; then
    echo "1..0 # SKIP python3-jsonschema is not installed"
    exit 0
fi

T=$(mktemp -d "${TMPDIR:-/tmp}/json.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT
DB=$T/cache.db
export SGEXPLORE_DB=$DB

. "$(dirname "$0")/tap.sh"

# validate MANIFEST: each line of MANIFEST is "NAME<tab>DEFS<tab>FILE"; FILE
# must hold at least one line, each one JSON object valid against one of
# DEFS ("a|b": #/$defs/a or #/$defs/b).  One Python for every command (its
# start and the validators' construction cost more than the checks): it
# prints "NAME<tab>ok" or "NAME<tab>REASON" per entry.
cat >"$T/validate.py" <<'PY'
import json, sys
import jsonschema
schema = json.load(open(sys.argv[1]))
validators = {}
def validator(d):
    if d not in validators:
        sub = {"$ref": "#/$defs/" + d, "$defs": schema["$defs"]}
        validators[d] = jsonschema.Draft202012Validator(sub)
    return validators[d]
def check(defs, path):
    lines = open(path, encoding="utf-8").read().splitlines()
    if not lines:
        return "no output"
    for k, line in enumerate(lines, 1):
        try:
            obj = json.loads(line)
        except ValueError as e:
            return "line %d: not JSON: %s" % (k, e)
        errs = {d: list(validator(d).iter_errors(obj)) for d in defs}
        if not any(not e for e in errs.values()):
            why = []
            for d, e in errs.items():
                best = jsonschema.exceptions.best_match(e)
                why.append("line %d, %s: %s at %s" % (k, d, best.message,
                           "/".join(map(str, best.absolute_path))))
            return "; ".join(why)
    return "ok"
for entry in open(sys.argv[2], encoding="utf-8").read().splitlines():
    name, defs, path = entry.split("\t")
    print("%s\t%s" % (name, check(defs.split("|"), path)))
PY
: >"$T/manifest"

# run NAME DEFS STATUS COMMAND...: run COMMAND (stdout to T/NAME.json) and
# check its exit status now; its output is validated with every other one
# at the end (validate_all).
run() {
    local name=$1 defs=$2 want=$3 rc
    shift 3
    "$@" >"$T/$name.json" 2>"$T/$name.err"
    rc=$?
    if [ "$rc" = "$want" ]; then
        printf '%s\t%s\t%s\n' "$name" "$defs" "$T/$name.json" >>"$T/manifest"
    else
        not_ok "$name: $defs (exit $rc, want $want)"
        sed 's/^/# /' "$T/$name.err" | head -n 5
    fi
}

# validate_all: one TAP result per command run() saw exit as it should.
validate_all() {
    local name why defs
    while IFS=$'\t' read -r name why; do
        defs=$(awk -F'\t' -v n="$name" '$1 == n {print $2; exit}' "$T/manifest")
        if [ "$why" = ok ]; then
            ok "$name: $defs"
        else
            not_ok "$name: $defs"
            echo "# $why" | head -c 2000
            echo
        fi
    done < <(python3 "$T/validate.py" "$SCHEMA" "$T/manifest" ||
        echo "validate.py	failed")
}

check "the schema is a valid draft 2020-12 schema" \
    python3 -c 'import json, sys, jsonschema
jsonschema.Draft202012Validator.check_schema(json.load(open(sys.argv[1])))' "$SCHEMA"

# --- the analysis ---------------------------------------------------------
run proven analysis 0 "$SG" 0.07 --json
run unresolved analysis 0 "$SG" 0.6 --max 500 --json
run arith analysis 0 "$SG" nim --max 200 --json
run heap analysis 0 "$SG" 0.07 --heap 10^30 --heap 5 --json
run heap_unknown analysis 3 "$SG" 0.6 --max 500 --heap 10^30 --json
run position analysis 0 "$SG" 0.07 --position 1,2,1$(printf "0%.0s" $(seq 40)) --json
run position_unknown analysis 3 "$SG" 0.6 --max 500 --position 1,10^30 --json
run quiet analysis 0 "$SG" 0.07 --heap 5 --position 3,4 --quiet --json
run values analysis 0 "$SG" 0.07 --values 5:10 --json
run set_rule analysis 0 "$SG" --subtract primes --max 500 --position 10,20 --json
run set_allbut analysis 0 "$SG" --all-but primes --max 500 --json
run set_periodic analysis 0 "$SG" --subtract 4+3k --heap 10^30 --json
run values_huge analysis 0 "$SG" nim --max 200 --values '10^40:10^40+2' --json
run values_2p63 analysis 0 "$SG" nim --max 200 --values '10^19:10^19+1' --json
run values_2p53 analysis 0 "$SG" nim --max 200 --values '2^53-2:2^53+1' --json
run where analysis 0 "$SG" --subtract powers-of-2 --values 0:20 --where 1 --json
run where_huge analysis 0 "$SG" --subtract 1,3,4 --values '0:10^30' --where 0 --json
run where_set analysis 0 "$SG" 0.8F --values 0:200 --where 4 --json
printf '1,2\n4 7\n10^3\n' | sed 's/10^3/1000/' >"$T/pos"
run positions positions_line 0 "$SG" 0.07 --positions "$T/pos" --json
printf '1,2\n1,100000\n' >"$T/pos2"
run positions_unknown positions_line 3 "$SG" 0.6 --max 500 --positions "$T/pos2" --json
run version version 0 "$SG" --version --json
# errors under --json: one object on stdout, stderr keeps its line
run err_rule error 2 "$SG" 0.x --json
run err_option error 2 "$SG" 0.07 --bogus --json
run err_set error 2 "$SG" --subtract 'primes\2\3' --format json
run err_file error 1 "$SG" sweep rules "$T/no-such-file" --format json
check "error object: the stderr line's message and position" \
    python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))["error"]
err = open(sys.argv[2]).read()
assert err == "sgexplore: " + d["message"] + "\n" and d["code"] == "usage", (d, err)
assert d["position"] == 3 and d["message"].endswith("(at position 3)"), d' "$T/err_rule.json" "$T/err_rule.err"
"$SG" 0.x >"$T/plain.out" 2>/dev/null
check "without --json: no error object" test ! -s "$T/plain.out"

# --misere (docs/MISERE.md): the key misere, position.method
run misere analysis 0 "$SG" kayles --misere --misere-max 12 --json
run misere_position analysis 0 "$SG" kayles --misere --misere-max 12 --position 5,7 --json
run misere_quotient analysis 0 "$SG" kayles --misere --quotient --misere-max 12 --json
# (without the cache, which would answer with the Q_11 just stored)
run misere_quotient_stopped analysis 3 "$SG" kayles --misere --quotient --misere-max 12 --max-order 10 --no-cache --json
run misere_quotient_position analysis 0 "$SG" kayles --misere --quotient --misere-max 12 --position 5,7 --json
printf '1,2\n4 7\n0\n' >"$T/mpos"
run misere_positions positions_line 0 "$SG" kayles --misere --positions "$T/mpos" --json
check "misere: values, genus texts, tame_to and method" \
    python3 -c 'import json, sys
m = json.load(open(sys.argv[1]))["misere"]
assert m["heaps"] == 12 and m["values"][:3] == [1, 0, 2], m
assert m["genus"][:3] == ["0^120", "1^031", "2^20"], m["genus"]
assert m["tame_to"] == 5 and m["first_wild"] == 5, m
p = json.load(open(sys.argv[2]))["position"]
assert p["method"] == "search" and p["winner"] in ("first", "second"), p
for l in open(sys.argv[3]):
    assert json.loads(l)["position"]["method"] in ("tame", "search"), l
q = json.load(open(sys.argv[4]))["quotient"]
assert q["heaps"] == 11 == len(q["orders"]) and q["order"] == q["orders"][-1], q
assert q["heap_words"][0] == "1" and q["stopped"] is None, q
s = json.load(open(sys.argv[5]))["quotient"]
assert s["stopped_at"] == 5 and s["heaps"] == 4 and s["order"] == 6, s
p = json.load(open(sys.argv[6]))["position"]
assert p["method"] == "quotient", p' \
    "$T/misere.json" "$T/misere_position.json" "$T/misere_positions.json" \
    "$T/misere_quotient.json" "$T/misere_quotient_stopped.json" \
    "$T/misere_quotient_position.json"

# The number rule on the values themselves.
check "values past 2^53 are decimal strings (Nim: G(n) = n), small ones integers" \
    python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
assert d["values_start"] == str(10**19), d["values_start"]
assert d["values"] == [str(10**19), str(10**19 + 1)], d["values"]
h = json.load(open(sys.argv[2]))["values"]
assert h == [str(10**40), str(10**40 + 1), str(10**40 + 2)], h
v = json.load(open(sys.argv[3]))
assert v["values_start"] == "5" and v["values"] == [0, 3, 1, 1, 0, 3], v["values"]
e = json.load(open(sys.argv[4]))["values"]  # the edge: 2^53 - 1 is exact
assert e == [2**53 - 2, 2**53 - 1, str(2**53), str(2**53 + 1)], e' \
    "$T/values_2p63.json" "$T/values_huge.json" "$T/values.json" \
    "$T/values_2p53.json"
check "heaps: a list of {heap, value} with --heap and with --position alike" \
    python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
h, g = d["heaps"], d["values"]
assert h == [{"heap": str(10**30), "value": h[0]["value"]}, {"heap": "5", "value": str(g[5])}], h
p = json.load(open(sys.argv[2]))["position"]
assert [x["heap"] for x in p["heaps"]] == ["1", "2", str(10**40)], p
assert [x["value"] for x in p["heaps"][:2]] == ["0", "1"], p  # Dawson: G(1) = 0, G(2) = 1
q = [json.loads(l)["position"] for l in open(sys.argv[3])]
assert [x["heap"] for x in q[0]["heaps"]] == ["1", "2"] and q[1]["nim_sum"] == "3", q  # G(4) = 2, G(7) = 1' \
    "$T/heap.json" "$T/position.json" "$T/positions.json"
check "an unknown position: its heaps with null values, nim_sum/winner/move null" \
    python3 -c 'import json, sys
p = json.load(open(sys.argv[1]))["position"]
assert p["heaps"][1] == {"heap": "1" + "0" * 30, "value": None} and p["nim_sum"] is None, p
assert p["winner"] is None and p["move"] is None, p' "$T/position_unknown.json"

# --- graph ------------------------------------------------------------
printf 'a b c\nb c\nc\n' >"$T/small"
printf 'x x y0 y2\ny0\ny1 y0\ny2 y0 y1\n' >"$T/loop"
printf 'a L:b R:c\nb\nc\n' >"$T/partizan"
run graph graph 0 "$SG" graph "$T/small" --json
run graph_vertex graph 0 "$SG" graph "$T/small" --vertex b --json
run graph_position graph 0 "$SG" graph "$T/small" --position a,c --json
run graph_loopy graph 0 "$SG" graph "$T/loop" --loopy --position x,y2 --json
run graph_outcome graph 0 "$SG" graph "$T/partizan" --outcome --json
check "graph: vertex_values holds integers; an infinite value is null with followers" \
    python3 -c 'import json, sys
v = json.load(open(sys.argv[1]))["vertex_values"]
assert v == [{"vertex": "a", "value": 2}, {"vertex": "b", "value": 1}, {"vertex": "c", "value": 0}], v
x = json.load(open(sys.argv[2]))["vertex_values"][0]
assert x == {"vertex": "x", "value": None, "followers": [0, 2]}, x' \
    "$T/graph.json" "$T/graph_loopy.json"

# --- sweep --------------------------------------------------------------
run sweep "sweep_row|sweep_summary" 0 \
    "$SG" sweep octal --digits 1 --max 2000 --jobs 2 --json
run sweep_format "sweep_row|sweep_summary" 0 \
    "$SG" sweep octal --digits 1 --max 2000 --jobs 2 --format json
# the budget keys: --seconds (no default count, "max_is": "memory"),
# --escalate (several budgets in a row, "rounds" in the summary)
run sweep_escalate "sweep_row|sweep_summary" 0 \
    "$SG" sweep rules - --seconds 0.2 --escalate 2 --jobs 2 --json \
    <<<$'0.07\n0.376\n0.5'
# --misere: each row carries the analysis's misere and quotient objects
run sweep_misere "sweep_row|sweep_summary" 0 \
    "$SG" sweep rules - --max 2000 --jobs 2 --json --misere --misere-max 12 \
    --quotient <<<$'0.77\n0.75'
check "sweep: rows first, then exactly one summary, last" \
    python3 -c 'import json, sys
lines = [json.loads(l) for l in open(sys.argv[1])]
assert ["summary" in l for l in lines] == [False] * (len(lines) - 1) + [True]
assert len(lines) == lines[-1]["summary"]["rules"] + 1, len(lines)' "$T/sweep_format.json"

# --- deep, cache, merge, verify, plot ---------------------------------
run deep deep 0 "$SG" 0.167 --deep --max 100000 --window 65536 --heap 5 \
    --values 1:3 --json
run cache_list "cache_list_row|cache_list_checkpoint|cache_list_summary" 0 \
    "$SG" cache list --format json
check "cache list: a checkpoint line, rows without the keys derived from values" \
    python3 -c 'import json, sys
lines = [json.loads(l) for l in open(sys.argv[1])]
assert any("checkpoint" in l for l in lines)
assert all("largest" not in l for l in lines if "rule" in l)' "$T/cache_list.json"
run cache_show cache_show 0 "$SG" cache show 0.07 --json
run cache_show_deep deep 0 "$SG" cache show 0.167 --json
run cache_path cache_path 0 "$SG" cache path --json
run cache_export cache_export_checkpoint 0 \
    "$SG" cache export-checkpoint 0.167 "$T/c.ck" --json
run cache_import cache_import_checkpoint 0 \
    "$SG" cache import-checkpoint "$T/c.ck" --db "$T/ck.db" --json
"$SG" 0.04 --max 300 --db "$T/dp.db" --quiet >/dev/null
run cache_derive cache_derive 0 \
    "$SG" cache derive 0.0403 0.04 --from "$T/dp.db" --db "$T/dc.db" --json
run merge merge 0 "$SG" merge "$T/out.db" "$DB" --json
run verify verify 0 "$SG" verify 0.07 --json
"$SG" 0.07 --export-certificate "$T/c.cert" --quiet --heap 1 >/dev/null
run verify_cert verify 0 "$SG" verify --certificate "$T/c.cert" --json
run verify_unresolved verify 3 "$SG" verify 0.6 --max 500 --no-cache --json
run diff_differ diff 0 "$SG" diff 0.07 0.137 --no-cache --json
run diff_equal diff 0 "$SG" diff 'subtract{powers-of-2}' 'subtract{1,2}' --no-cache --json
run diff_unknown diff 3 "$SG" diff 0.6 0.6 --max 500 --no-cache --json
run cache_drop cache_drop 0 "$SG" cache drop 0.6 --json
if command -v gnuplot >/dev/null 2>&1; then
    run plot plot 0 "$SG" plot 0.07 -o "$T/p.svg" --json
    run plot_cache plot_cache 0 "$SG" plot --cache -o "$T/q.svg" --json
else
    skip "plot: gnuplot is not installed"
fi
run atlas atlas 0 "$SG" atlas --out "$T/atlas" --json

validate_all
echo "1..$n"
[ "$fails" = 0 ]
