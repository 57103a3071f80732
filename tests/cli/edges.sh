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

# --- --position: the number syntax of --heap, and spaces -----------------
# Kayles: G(n) = 4 1 2 8 1 4 7 2 1 8 2 7 for n = 0..11 (mod 12), n >= 72;
# 10^18 and 10^40 are 4 (mod 12), so G = 1 and 1; G(7) = 2: nim-sum 2.
out=$("$SG" 0.77 --quiet --position 10^18,10^40,7 2>"$T/err"); rc=$?
check "--position 10^18,10^40,7: accepted, nim-sum 2" \
    bash -c '[ $1 = 0 ] && grep -qx "nim-sum: 2" <<<"$2"' _ "$rc" "$out"
out=$("$SG" 0.77 --quiet --position 10^18-1,0 2>"$T/err"); rc=$?
check "--position 10^18-1,0: sums and differences as in --heap (G = 8)" \
    bash -c '[ $1 = 0 ] && grep -qx "nim-sum: 8" <<<"$2"' _ "$rc" "$out"
for p in "1, 2" "1 2" " 1 ,2 "; do
    out=$("$SG" 0.77 --quiet --position "$p" 2>"$T/err"); rc=$?
    check "--position '$p': spaces accepted as in --positions (nim-sum 3)" \
        bash -c '[ $1 = 0 ] && grep -qx "nim-sum: 3" <<<"$2"' _ "$rc" "$out"
done
for p in "1,,2" "1," "" "3,x" "2^"; do
    "$SG" 0.77 --quiet --position "$p" >"$T/out" 2>"$T/err"; rc=$?
    check "--position '$p' is refused: exit 2, one line" \
        bash -c '[ $1 = 2 ] && [ "$(wc -l <"$2")" = 1 ] && [ ! -s "$3" ]' \
        _ "$rc" "$T/err" "$T/out"
done
printf '10^18, 10^40 7\n' >"$T/pos"
out=$("$SG" 0.77 --positions "$T/pos" 2>"$T/err"); rc=$?
check "--positions reads the same syntax (10^18, 10^40 7: nim-sum 2)" \
    bash -c '[ $1 = 0 ] && grep -q "nim-sum 2" <<<"$2"' _ "$rc" "$out"

# --- --heap extends an unresolved rule as --values does ------------------
"$SG" 0.77 --max 50 --db "$T/k.db" >/dev/null 2>&1  # cached, unresolved
out=$("$SG" 0.77 --max 50 --heap 1000010 --quiet --db "$T/k.db" 2>"$T/err"); rc=$?
# 1000010 = 2 (mod 12): G = 2 by Kayles' published period.
check "--heap 1000010 on an unresolved cached rule extends it: G = 2, exit 0" \
    bash -c '[ $1 = 0 ] && [ "$2" = "G(1000010) = 2" ]' _ "$rc" "$out"
out=$("$SG" 0.77 --max 50 --heap 1000011 --json --db "$T/k.db" 2>"$T/err")
check "... and in JSON (G(1000011) = 8, not null)" \
    bash -c 'python3 -c "import json,sys; d=json.loads(sys.argv[1]); sys.exit(d[\"heaps\"][0][\"value\"] not in (8, \"8\"))" "$1"' _ "$out"
out=$("$SG" officers --max 1000 --heap 100000 --quiet --db "$T/k.db" 2>"$T/err"); rc=$?
v=$("$SG" officers --max 1000 --values 100000:100000 --quiet --db "$T/k.db" 2>/dev/null)
check "--heap 100000 on open Officers extends (exit 0, the value --values gives)" \
    bash -c '[ $1 = 0 ] && [ "$2" = "$3" ] && grep -qx "G(100000) = [0-9]*" <<<"$2"' _ "$rc" "$out" "$v"
a=$("$SG" officers --max 1000 --heap 100000 --quiet --db "$T/k.db" | sed 's/.* = //')
b=$("$SG" officers --max 1000 --heap 7 --quiet --db "$T/k.db" | sed 's/.* = //')
out=$("$SG" officers --max 1000 --position 100000,7 --quiet --no-cache 2>"$T/err"); rc=$?
check "--position 100000,7 on open Officers extends too: nim-sum G(100000) xor G(7)" \
    bash -c '[ $1 = 0 ] && grep -qx "nim-sum: $(( $2 ^ $3 ))" <<<"$4"' _ "$rc" "$a" "$b" "$out"
# Every hint is a command the tool accepts: beyond memory the hint is a
# deep run (run here for a second: accepted, exit 0 or 3, never 2), and
# beyond a deep run there is no --max to suggest.
for h in 2^40 10^18; do
    out=$("$SG" officers --max 1000 --heap $h --quiet --db "$T/k.db" 2>"$T/err"); rc=$?
    check "--heap $h on open Officers: unknown, exit 3, no --max hint but a deep run's" \
        bash -c '[ $1 = 3 ] && grep -q "^G($2) = unknown" <<<"$3" &&
                 ! sed "s/try: .*//" <<<"$3" | grep -q -- --max' _ "$rc" "$h" "$out"
    hint=$(sed -n 's/.*try: sgexplore \(.*\) (docs\/DEEP.md)).*/\1/p' <<<"$out")
    if [ "$h" = 2^40 ]; then
        eval "words=($hint)"
        "$SG" "${words[@]}" --seconds 0.5 --db "$T/k.db" >"$T/out" 2>"$T/err"; rc=$?
        check "... the suggested '$hint' is accepted (exit $rc)" \
            bash -c '[ -n "$2" ] && { [ $1 = 0 ] || [ $1 = 3 ]; }' _ "$rc" "$hint"
    else
        check "... 10^18 is past a deep run too: no command is suggested" \
            test -z "$hint"
    fi
done

# --- the progress line on a terminal: the whole run, with its budget ----
# `script` gives the program a terminal; the lines are redrawn with \r.
# Each line must name the run's budget, the same in every line, and
# estimate the time left to it (or to --seconds), not to the round's end.
progress_lines() { # ARGS...: the progress lines of one run, one per line
    script -qefc "$(printf '%q ' "$SG" "$@")" /dev/null 2>/dev/null |
        tr '\r' '\n' | sed 's/\x1b\[K//g' | grep '^computing: '
}
# budget_ok LINES MAX WHY SECONDS: every line says "budget MAX (WHY)", and
# its "at most about X s left" is (MAX - done) / rate give or take a
# second, or at most that and SECONDS (SECONDS 0: no --seconds).
budget_ok() {
    python3 - "$@" <<'PY'
import re, sys
lines, mx, why, secs = sys.argv[1].splitlines(), int(sys.argv[2]), sys.argv[3], float(sys.argv[4])
ok = bool(lines)
for l in lines:
    m = re.match(r"computing: (\d+) values, budget (\d+) \((\S+)\)(?: or \S+ s)?, (\S+)/s(?:, \d+ rare)?(?:, at most about (\d+) s left)?$", l)
    if not m or int(m.group(2)) != mx or m.group(3) != why:
        ok = False
        print("# bad line: " + l)
        continue
    done, rate = int(m.group(1)), float(m.group(4))
    if m.group(5) is not None and rate > 0:
        est, got = (mx - done) / rate, int(m.group(5))
        # with --seconds the time already spent is not in the line: the
        # estimate may then only be smaller, down to the budget left
        if (got > min(est, secs) + 1.5 if secs else abs(got - est) > 1.5):
            ok = False
            print("# estimate %s, expected %.1f: %s" % (m.group(5), est, l))
sys.exit(0 if ok else 1)
PY
}
if command -v script >/dev/null 2>&1 && command -v python3 >/dev/null 2>&1; then
    out=$(progress_lines officers --no-cache --max 10^7 --seconds 2.5 --heap 5 --quiet)
    check "progress with --max 10^7 --seconds 2.5: 'budget 10000000 (--max)', time left to the run's end" \
        budget_ok "$out" 10000000 --max 2.5
    out=$(progress_lines grundy --no-cache --quiet)
    if [ -n "$out" ]; then
        # the default budget of a sparse-method rule (src/lib/enum/policy.c)
        check "progress of the default budget: 'budget 1000000 (default)', time left to it" \
            budget_ok "$out" 1000000 default 0
    else
        skip "Grundy's game ran its default budget in under a second: no progress line"
    fi
else
    skip "script (util-linux) and python3 are needed for the progress line"
    skip "script (util-linux) and python3 are needed for the progress line"
fi

# --- --quiet with no question: one status line ---------------------------
# Published: Kayles p 12, n0 71; Dawson's Kayles (0.07) p 34, n0 53; Nim
# arithmetic-periodic with p 1, s 1, n0 0 (its name is left open: *).
for q in "0.77|0.77: periodic (proven), pre-period 71, period 12" \
         "0.07|0.07: periodic (proven), pre-period 53, period 34" \
         "nim|*: arithmetic-periodic (proven), pre-period 0, period 1, saltus 1" \
         "officers --max 500|0.6: unresolved (no period proven for n < 500)"; do
    IFS='|' read -r args want <<<"$q"
    read -r -a words <<<"$args"
    out=$("$SG" "${words[@]}" --quiet --no-cache 2>"$T/err"); rc=$?
    check "--quiet with no question [$args]: the one line '$want'" \
        bash -c '[ $1 = 0 ] && [[ "$2" == $3 ]] && [ ! -s "$4" ]' _ "$rc" "$out" "$want" "$T/err"
done
out=$("$SG" 0.6 --deep --max 20000 --window 2^14 --quiet --db "$T/deep.db" 2>"$T/err"); rc=$?
check "--quiet --deep with no question: one status line" \
    bash -c '[ $1 = 0 ] && [ "$2" = "0.6: unresolved (deep run: G(0..19999) computed, no period search)" ]' _ "$rc" "$out"
out=$("$SG" 0.77 --quiet --no-cache --heap 7 2>&1)
check "--quiet with a question: only its answer" test "$out" = "G(7) = 2"
check "--help documents what --quiet prints without a question" \
    bash -c '"$1" --help | grep -q -- "--quiet.*one status line"' _ "$SG"

# --- plot --cache with nothing to draw is an error, not an empty figure --
"$SG" 0.77 --db "$T/empty.db" >/dev/null 2>&1
"$SG" cache drop 0.77 --db "$T/empty.db" >/dev/null 2>&1
for c in "a missing cache|$T/absent.db|" "an empty cache|$T/empty.db|" \
         "a cache without hex rules|$T/k.db|--family hex"; do
    IFS='|' read -r what db fam <<<"$c"
    # shellcheck disable=SC2086
    "$SG" plot --cache -o "$T/fig.png" --db "$db" $fam >"$T/out" 2>"$T/err"; rc=$?
    check "plot --cache on $what: exit 1, one line, no figure" \
        bash -c '[ $1 = 1 ] && [ "$(wc -l <"$2")" = 1 ] &&
                 grep -q "no cached rules" "$2" && [ ! -s "$3" ] && [ ! -e "$4" ]' \
        _ "$rc" "$T/err" "$T/out" "$T/fig.png"
done

# --- messages: one "sgexplore: " prefix, --help's statuses, the man page -
COMMANDS=$("$SG" --help | sed -n '/^Commands/,$s/^  \([a-z]*\)  .*/\1/p')
check "--help lists the commands (verify, sweep, merge, ...)" \
    bash -c 'grep -qx sweep <<<"$1" && grep -qx merge <<<"$1"' _ "$COMMANDS"
doubled=""
for c in "" $COMMANDS; do
    for args in "0.77 --octal 0.07" "--octal" "--frobnicate" "" "0.77 0.07" \
                "show 0.77 --octal 0.07" "--db"; do
        # shellcheck disable=SC2086
        "$SG" $c $args -o "$T/x.png" </dev/null >/dev/null 2>"$T/err"
        grep -q "^sgexplore: sgexplore" "$T/err" && doubled="$doubled [$c $args]"
        [ "$(grep -c '^sgexplore: ' "$T/err")" -gt 1 ] && doubled="$doubled [$c $args: 2 lines]"
    done
done
check "no error message says 'sgexplore: sgexplore:' (or two lines)${doubled:+:$doubled}" \
    test -z "$doubled"
out=$("$SG" 0.77 0.07 --octal 0.07 2>&1 >/dev/null; "$SG" --octal 0.77 --rule 0.07 2>&1 >/dev/null)
check "two rules: 'sgexplore: give only one rule'" \
    bash -c 'grep -qx "sgexplore: give only one rule" <<<"$1"' _ "$out"
out=$("$SG" plot -o "$T/x.png" 0.77 --octal 0.07 2>&1 >/dev/null)
check "... and in a command, its name once: 'sgexplore: plot: give only one rule'" \
    test "$out" = "sgexplore: plot: give only one rule"
# --help lists exit status 3 only for the commands whose source returns it.
if [ -d "$SRC/src/cli" ]; then
    wrong=""
    for c in analyse $COMMANDS; do
        files="$SRC/src/cli/cmd_$c.c"
        [ $c = analyse ] && files="$files $SRC/src/cli/deep.c"
        # shellcheck disable=SC2086
        uses=$(grep -l "rc = EXIT_UNKNOWN\|return EXIT_UNKNOWN" $files 2>/dev/null)
        [ $c = analyse ] && h=$("$SG" --help) || h=$("$SG" $c --help)
        lists=$(grep -c "3 no" <<<"$h")
        if [ -n "$uses" ] && [ "$lists" = 0 ]; then wrong="$wrong $c(missing 3)"; fi
        if [ -z "$uses" ] && [ "$lists" != 0 ]; then wrong="$wrong $c(lists 3)"; fi
    done
    check "--help lists exit status 3 exactly where the command returns it${wrong:+:$wrong}" \
        test -z "$wrong"
else
    skip "the sources are not here to compare --help's exit statuses with"
fi
if command -v groff >/dev/null 2>&1 && [ -f "$SRC/sgexplore.1" ]; then
    check "groff -man -ww finds nothing to warn about in sgexplore.1" \
        bash -c '[ -z "$(groff -man -Tutf8 -ww -z "$1" 2>&1)" ]' _ "$SRC/sgexplore.1"
    man=$(groff -man -Tascii "$SRC/sgexplore.1" 2>/dev/null | col -b)
    missing=""
    for c in $COMMANDS; do
        grep -qE "^       $c( |\$)" <<<"$man" || missing="$missing $c"
    done
    check "the man page gives every command its own paragraph (.TP)${missing:+: not$missing}" \
        test -z "$missing"
else
    skip "groff is needed to check the man page"
    skip "groff is needed to check the man page"
fi

# --- the contract lives in the tree: docs/CONTRACT.md --------------------
if [ -f "$SRC/Makefile.am" ]; then
    check "docs/CONTRACT.md is in the tree and in EXTRA_DIST" \
        bash -c '[ -s "$1/docs/CONTRACT.md" ] && grep -q "docs/CONTRACT.md" "$1/Makefile.am"' _ "$SRC"
    stale=$(cd "$SRC" && grep -rln "DESIGN\.md" src docs data tests sgexplore.1 README.md HACKING.md 2>/dev/null |
        grep -v '\.log$\|\.trs$\|\.o$\|tests/cli/edges.sh')
    check "no file cites a DESIGN.md the tree does not have${stale:+: $(echo $stale)}" \
        test -z "$stale"
    # HACKING.md's layout tables name every source file (issue 21).
    unlisted=$(cd "$SRC" && for f in src/*/*.[ch] src/lib/*/*.[ch] src/lib/*/*/*.[ch] src/lib/*/*/*.inc; do
        [ -e "$f" ] && ! grep -qF "$(basename "$f")" HACKING.md && echo "$f"; done)
    check "HACKING.md names every file of src${unlisted:+ (not: $(echo $unlisted))}" \
        test -z "$unlisted"
    # The contract's examples are the tool's answers (published values).
    while IFS='|' read -r _ game code p n0 _; do
        game=$(echo $game); code=$(tr -d ' `' <<<"$code"); p=$(tr -d ' ' <<<"$p"); n0=$(tr -d ' ' <<<"$n0")
        out=$("$SG" "$code" --quiet --no-cache 2>&1)
        check "CONTRACT.md's example $game ($code, p $p, n0 $n0) is what the tool proves" \
            test "$out" = "$code: periodic (proven), pre-period $n0, period $p"
    done < <(grep -E '^\| (Kayles|Dawson)' "$SRC/docs/CONTRACT.md")
    check "CONTRACT.md's two examples were found" \
        test "$(grep -cE '^\| (Kayles|Dawson)' "$SRC/docs/CONTRACT.md")" = 2
else
    skip "the source tree is not here"
fi

# --- arrays grown by sg_grow: many positions, many options ---------------
seq 1 3000 | awk '{print $1 ", " $1}' >"$T/many"
out=$("$SG" nim --positions "$T/many" --no-cache 2>"$T/err"); rc=$?
check "3000 positions i, i of Nim: 3000 answers, each nim-sum 0" \
    bash -c '[ $1 = 0 ] && [ "$(grep -c "nim-sum 0" <<<"$2")" = 3000 ]' _ "$rc" "$out"
args=()
for i in $(seq 1 100); do args+=(--heap "$i"); done
out=$("$SG" 0.77 --quiet --no-cache "${args[@]}" 2>"$T/err")
check "100 --heap options: 100 answers, the last G(100) = 1 (Kayles, period 12)" \
    bash -c '[ "$(wc -l <<<"$1")" = 100 ] && [ "$(tail -1 <<<"$1")" = "G(100) = 1" ]' _ "$out"

echo "1..$n"
