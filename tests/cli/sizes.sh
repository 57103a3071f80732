#!/bin/bash
# tests/cli/sizes.sh - the size limits of the source (HACKING.md,
# "Conventions"): no file under src/ (.c, .h, .inc) over 1,500 lines and no
# function over 150.  The tree is clang-formatted, so a function
# definition is read as the code does: its first line is the line at
# column 0 that begins its signature, its body opens with a `{` at column
# 0, and it ends at the first `}` at column 0; its length counts every
# line from the signature to that `}`.  Each file and function over its
# limit is named.  The counter itself is tried first on a planted tree.
. "$(dirname "$0")/tap.sh"

SRC=${top_srcdir:-.}
FILE_MAX=1500
FUNC_MAX=150

# funcs FILE...: "LENGTH PATH:NAME" for every function definition.
funcs() {
    awk '
    FNR == 1 { cand = 0; body = 0 }
    body {
        if ($0 ~ /^}/) {
            print FNR - start + 1, FILENAME ":" name
            body = 0
            cand = 0
        }
        next
    }
    /^\{/ {
        if (cand) {
            body = 1
            start = cand
            name = candline
            sub(/\(.*/, "", name)
            k = split(name, w, /[^A-Za-z0-9_]+/)
            name = w[k]
        }
        next
    }
    /^[A-Za-z_]/ {
        if ($0 ~ /\(/ && $0 !~ /;[ \t]*$/) {
            cand = FNR
            candline = $0
        } else {
            cand = 0
        }
        next
    }
    /^[ \t]/ { next }       # a continuation of the signature
    { cand = 0 }            # blank, comment, preprocessor, "};"
    ' "$@"
}

# over DIR: the files and functions of DIR/src over the limits, one a line
# ("file PATH LINES" or "function PATH:NAME LINES"), paths from DIR.
over() {
    local files
    mapfile -t files < <(cd "$1" && find src -type f \( -name '*.c' -o \
        -name '*.h' -o -name '*.inc' \) | LC_ALL=C sort)
    [ "${#files[@]}" -gt 0 ] || return 0
    (cd "$1" && wc -l "${files[@]}") |
        awk -v m="$FILE_MAX" '$2 != "total" && $1 > m { print "file", $2, $1 }'
    (cd "$1" && funcs "${files[@]}") |
        awk -v m="$FUNC_MAX" '$1 > m { print "function", $2, $1 }'
}

# The counter, on a planted tree: a file of 1,501 lines, a function of
# 151 lines (signature on two lines) beside one of exactly 150, a struct
# and an initializer at column 0 that are no functions.
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
mkdir -p "$T/src/lib/x"
{
    echo '/* planted */'
    echo 'struct s {'
    echo '    int a;'
    echo '};'
    echo 'static const int tab[] = {'
    echo '    1,'
    echo '};'
    echo 'static int long_one(int a,'
    echo '                    int b)'
    echo '{'
    for i in $(seq 1 146); do echo "    a += $i;"; done
    echo '    return a + b;'
    echo '}'
    echo ''
    echo 'int just_right(void)'
    echo '{'
    for i in $(seq 1 146); do echo "    (void)$i;"; done
    echo '    return 0;'
    echo '}'
} >"$T/src/lib/x/planted.c"
for i in $(seq 1 1501); do echo "/* $i */"; done >"$T/src/lib/x/long.inc"
planted=$(over "$T")
check "the counter names a planted function of 151 lines" \
    has "$planted" "function src/lib/x/planted.c:long_one 151"
check "... and a planted file of 1,501 lines" \
    has "$planted" "file src/lib/x/long.inc 1501"
check "... and nothing else (150 lines is allowed; structs and tables are no functions)" \
    test "$(wc -l <<<"$planted")" = 2
check "the counter measures a known function (sg_enumerate_naive)" \
    bash -c '[ -n "$1" ]' _ "$(cd "$SRC" && funcs src/lib/enum/methods/enum_naive.c |
        awk '$2 ~ /:sg_enumerate_naive$/')"

# The tree.
mapfile -t found < <(over "$SRC")
files_over=() funcs_over=()
for f in "${found[@]}"; do
    set -- $f
    if [ "$1" = file ]; then
        files_over+=("$2 ($3 lines)")
    else
        funcs_over+=("$2 ($3 lines)")
    fi
done
check "no file under src/ over $FILE_MAX lines${files_over:+ (over: ${files_over[*]})}" \
    test "${#files_over[@]}" = 0
check "no function under src/ over $FUNC_MAX lines${funcs_over:+ (over: ${funcs_over[*]})}" \
    test "${#funcs_over[@]}" = 0
echo "1..$n"
[ "$fails" -eq 0 ]
