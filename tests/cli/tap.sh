# tests/cli/tap.sh - the TAP helpers every CLI test script sources:
# numbered "ok"/"not ok"/"# SKIP" lines, check DESCRIPTION COMMAND..., and text
# predicates.  Each script ends with: echo "1..$n".
n=0
fails=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
skip() { n=$((n + 1)); echo "ok $n # SKIP $1"; }
not_ok() { n=$((n + 1)); fails=$((fails + 1)); echo "not ok $n - $1"; }
# check DESCRIPTION COMMAND...: ok when the command succeeds.
check() {
    local d=$1
    shift
    if "$@"; then ok "$d"; else not_ok "$d"; fi
}
has() { grep -qx -- "$2" <<<"$1"; }      # an exact line in the text
contains() { grep -q -- "$2" <<<"$1"; }  # a substring or regex in the text
