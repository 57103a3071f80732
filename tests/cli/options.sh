#!/bin/bash
# tests/cli/options.sh - every option name the program asks for is one
# its command declares (TAP).  cli_get, cli_count and cli_get_nth answer
# an undeclared name "not given" and print one "internal error" line
# (src/cli/args.c; tests/test_args.c): a bug that must show here, never as
# a crash at a user.  Two checks: a scan of the sources (each cmd_X.c, and
# deep.c for the analysis, may ask only for what `sgexplore X --help`
# lists, the help being generated from the same table), and a run of every
# command with each option its --help lists, whose stderr must never say
# "internal error" (this reaches the code the commands share: flow.c,
# args.c).

SG=${SGEXPLORE:-sgexplore}
T=$(mktemp -d "${TMPDIR:-/tmp}/options.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT
export SGEXPLORE_DB="$T/cache.db"
SRC="${abs_top_srcdir:-$(dirname "$0")/../..}"

. "$(dirname "$0")/tap.sh"

COMMANDS=$("$SG" --help | sed -n '/^Commands/,$s/^  \([a-z]*\)  .*/\1/p')
# declared CMD: the long options CMD's --help lists ("" is the analysis),
# with --no-cache wherever --db is (refused by some commands on purpose,
# but its group is in their table: cli_cache_open may ask).
declared() {
    local h
    if [ -z "$1" ]; then h=$("$SG" --help); else h=$("$SG" "$1" --help); fi
    sed -n 's/^  \(-[a-z], \)\{0,1\}\(--[a-z-]*\).*/\2/p' <<<"$h" | sort -u
    grep -q '^  --db ' <<<"$h" && echo --no-cache
}

# --- the scan -------------------------------------------------------------
if [ -d "$SRC/src/cli" ]; then
    for c in analyse $COMMANDS; do
        files="$SRC/src/cli/cmd_$c.c"
        [ $c = analyse ] && files="$files $SRC/src/cli/deep.c"
        name=$c
        [ $c = analyse ] && name=""
        have=$(declared "$name")
        # shellcheck disable=SC2086
        asked=$(cat $files | tr '\n' ' ' |
            grep -oE 'cli_(get|count|get_nth)\(\s*[a-z]+,\s*"--[a-z-]+"' |
            grep -oE -- '--[a-z-]+' | sort -u)
        # deep.c's refused[] is asked for by name too
        [ $c = analyse ] && asked="$asked
$(sed -n '/refused\[\] = {/,/};/p' "$SRC/src/cli/deep.c" | grep -oE -- '"--[a-z-]+"' | tr -d '"')"
        missing=""
        for o in $asked; do
            grep -qx -- "$o" <<<"$have" || missing="$missing $o"
        done
        check "${c}: every option its source asks for is declared (${missing:-all of $(wc -w <<<"$asked")})" \
            test -z "$missing"
    done
else
    skip "the sources are not here to scan"
fi

# --- every command with every option ------------------------------------
printf 'a b\nb\n' >"$T/g.txt"
"$SG" 0.77 --db "$T/in.db" >/dev/null 2>&1
value() { # a plausible value for a placeholder
    case $1 in
    N | M | K | D | S) echo 3 ;;
    A:B) echo 0:5 ;;
    A,B,...) echo 1,2 ;;
    LIST) echo 1,2 ;;
    CODE) echo 0.77 ;;
    PATH) echo "$T/c.db" ;;
    DIR) echo "$T/dir" ;;
    FILE | FILE\|-) echo "$T/f.png" ;;
    K/N) echo 1/2 ;;
    FMT) echo json ;;
    F) echo octal ;;
    P.) echo 0. ;;
    NAME) echo a ;;
    *) echo 1 ;;
    esac
}
base() { # the arguments a command needs besides the option tried
    case $1 in
    # --max 40 keeps the normal-play run short; --misere's heaps are
    # --misere-max's (default 40), not --max's.
    "") echo "0.77 --max 40" ;;
    verify) echo "0.77 --max 100" ;;
    cache) echo "show 0.77" ;;
    plot) echo "0.77 -o $T/p.png --max 100" ;;
    graph) echo "$T/g.txt" ;;
    sweep) echo "subtract --size 1 --max-element 3 --max 100" ;;
    merge) echo "$T/out.db $T/in.db" ;;
    atlas) echo "--db $T/in.db --out $T/site" ;;
    esac
}
bad=""
runs=0
for c in "" $COMMANDS; do
    if [ -z "$c" ]; then h=$("$SG" --help); else h=$("$SG" "$c" --help); fi
    while read -r opt arg; do
        [ "$opt" = --help ] && continue
        words=()
        [ -n "$c" ] && words=("$c")
        read -r -a more <<<"$(base "$c")"
        words+=("${more[@]}" "$opt")
        [ -n "$arg" ] && words+=("$(value "$arg")")
        for extra in "" --deep; do
            [ -n "$extra" ] && [ -n "$c" ] && continue
            timeout 20 "$SG" "${words[@]}" $extra </dev/null >/dev/null 2>"$T/err"
            runs=$((runs + 1))
            grep -q "internal error" "$T/err" && bad="$bad [${c:-analysis} $opt $extra]"
        done
    done < <(sed -n 's/^  \(-[a-z], \)\{0,1\}\(--[a-z-]*\)\( \([^ ]*\)\)\{0,1\}  .*/\2 \4/p' <<<"$h")
done
check "every command with each of its options ($runs runs): no 'internal error'${bad:+:$bad}" \
    bash -c '[ -z "$1" ] && [ "$2" -gt 50 ]' _ "$bad" "$runs"

echo "1..$n"
