#!/bin/bash
# tests/cli/sweep_octal3.sh - the three-digit octal games (TAP):
# `sweep octal --digits 3` to 20,000 values, then the published codes
# with `--seconds 4 --max 1000000`, reproduces every published
# three-digit result of data/octal3.tsv (sources in data/SOURCES.md), and
# every proven row whose check needs at most 20000 values agrees with the
# brute-force judge (tests/sweep_naive).  The open codes, which no budget
# resolves, get the small first budget only.
#
# Every one of the 448 codes in the slow tier (SG_SLOW_TESTS=1); else a
# seeded eighth of them, `--shard K/8` with K drawn from SG_TEST_SEED (else
# the clock) and printed: SG_TEST_SEED replays it, and eight seeds cover
# every code.  The published codes' second pass runs whole in both.
# Skipped under SG_TEST_MULT below 1 (the sanitizer suite), as it was.

SG=${SGEXPLORE:-sgexplore}
NAIVE=${abs_top_builddir:-.}/tests/sweep_naive
DATA=${abs_top_srcdir:-${top_srcdir:-.}}/data
T=$(mktemp -d "${TMPDIR:-/tmp}/octal3.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT

. "$(dirname "$0")/tap.sh"

# Not in the sanitizer suite (SG_TEST_MULT below 1): the plain suite ran
# the same sample, and 3 times slower the published codes' 4 s budget
# would not hold.
if awk -v m="${SG_TEST_MULT:-1}" 'BEGIN { exit !(m < 1) }'; then
    echo "1..0 # SKIP the plain suite sweeps these (SG_TEST_MULT below 1: the sanitizer build)"
    exit 0
fi
if ! command -v python3 >/dev/null 2>&1; then
    echo "1..0 # SKIP python3 is needed to read the rows"
    exit 0
fi

# Two passes over one cache.  First every code to 20,000 values: that
# proves each rule the brute-force judge below can reach (it takes those
# whose 4p + 2n0 <= 20000) and costs seconds, where the open codes used to
# spend their whole time budget each.  Then the published codes again,
# --seconds 4 --max 1000000, extending the stored prefixes: the slowest
# published one needs about 1.7 s on a loaded host.  (--max 1000000:
# without it --seconds lifts the default count, and 0.354 and 0.376 are
# then proven, tests/cli/budget.sh.)
if [ "${SG_SLOW_TESTS:-0}" = 1 ]; then
    shard=1/1 want_rows=448 nclaims=200
    echo "# every three-digit code (the slow tier)"
else
    seed=${SG_TEST_SEED:-$(date +%s)}
    shard=$((1 + seed % 8))/8 want_rows=56 nclaims=20
    echo "# an eighth of the codes, --shard $shard (seed $seed:" \
        "SG_TEST_SEED=$seed replays it; SG_SLOW_TESTS=1 sweeps them all)"
fi
"$SG" sweep octal --digits 3 --max 20000 --shard "$shard" --db "$T/o3.db" \
    --format csv >"$T/o3a.csv" 2>"$T/o3a.err"
check "sweep octal --digits 3 --max 20000 --shard $shard: exit status 0" test $? = 0
awk -F'\t' 'NR > 1 && $1 != "code" {print $1}' "$DATA/octal3.tsv" >"$T/published"
"$SG" sweep rules "$T/published" --seconds 4 --max 1000000 --db "$T/o3.db" \
    --format csv >"$T/o3b.csv" 2>"$T/o3b.err"
check "sweep rules (the published codes) --seconds 4 --max 1000000: exit status 0" test $? = 0
# code/rule status n0 p computed, one line per code and per canonical rule;
# a row of the second pass replaces the first pass's row of its rule.
python3 -c '
import csv, sys
rows = {}
for path in sys.argv[1:]:
    for r in csv.DictReader(open(path)):
        names = rows.get(r["rule"], (None, set()))[1]
        names |= {r["rule"]} | set(r["given"].split())
        rows[r["rule"]] = (r, names)
for r, names in rows.values():
    for name in sorted(names):
        print("\t".join([name, r["status"], r["preperiod"] or "-",
                         r["period"] or "-", r["saltus"] or "-",
                         r["computed"]]))' "$T/o3a.csv" "$T/o3b.csv" >"$T/o3.tsv"
cp "$T/o3a.csv" "$T/o3.csv"
check "$want_rows rows (of the 7 * 8 * 8 codes, shard $shard)" \
    test "$(tail -n +2 "$T/o3.csv" | wc -l)" = $want_rows

bad=0 nrows=0
while IFS=$'\t' read -r code status period pre _; do
    [ "$code" = code ] && continue
    nrows=$((nrows + 1))
    got=$(awk -F'\t' -v r="$code" '$1 == r {print $2"\t"$3"\t"$4; exit}' "$T/o3.tsv")
    case $code in
    0.376 | 0.354 | 0.106) want="unresolved	-	-" ;; # beyond 4 s, or open
    *) want="$status	$pre	$period" ;;
    esac
    if [ "$got" != "$want" ]; then
        bad=$((bad + 1))
        echo "# $code: expected '$want', got '$got'"
    fi
done <"$DATA/octal3.tsv"
check "the $nrows published three-digit results of data/octal3.tsv ($bad differ)" \
    test $bad = 0 -a $nrows -ge 30

python3 -c '
import csv, sys
rows = {}
for path in sys.argv[1:]:
    for r in csv.DictReader(open(path)):
        rows[r["rule"]] = r
for r in rows.values():
    if r["status"] == "unresolved":
        continue
    n0, p = int(r["preperiod"]), int(r["period"])
    if 4 * p + 2 * n0 <= 20000:
        code = (r["given"].split() or [r["rule"]])[0]
        print(code, n0, p, r["saltus"])' "$T/o3a.csv" "$T/o3b.csv" >"$T/claims"
"$NAIVE" <"$T/claims" >"$T/naive"
check "brute force confirms the $(wc -l <"$T/claims") proven rows it can reach" \
    test $? = 0 -a "$(grep -c '^ok' "$T/naive")" = "$(wc -l <"$T/claims")" -a "$(wc -l <"$T/claims")" -ge $nclaims
grep '^bad' "$T/naive" | sed 's/^/# /'

echo "1..$n"
