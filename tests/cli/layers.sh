#!/bin/bash
# tests/cli/layers.sh - libsg's layers point down only (src/lib/LAYERS,
# HACKING.md): scripts/check_layers.py passes on the built objects, and
# fails, naming the symbol and the object, on a copy of them with a call
# planted in the bottom layer (base/) to sg_analyse, which the analysis
# layer defines.  The planted case shows that the check can fail at all.

. "$(dirname "$0")/tap.sh"
src="${abs_top_srcdir:-.}"
lib="${abs_top_builddir:-.}/src/lib"
checker="$src/scripts/check_layers.py"
cc=${CC:-cc}
for tool in python3 nm "$cc"; do
    if ! command -v "$tool" >/dev/null 2>&1; then
        echo "1..0 # SKIP $tool is not installed"
        exit 0
    fi
done

out=$(python3 "$checker" "$src/src/lib/LAYERS" "$lib" 2>&1)
rc=$?
check "check-layers passes on the build (exit $rc)" test "$rc" = 0
check "it read objects of every layer" \
    contains "$out" "objects in $(grep -cv '^#' "$src/src/lib/LAYERS") layers"

# The copy: every object of the build in its folder, plus the planted one.
copy=$(mktemp -d)
(cd "$lib" && find . -name '*.o' -exec cp --parents {} "$copy" \;)
cat >"$copy/planted.c" <<'C'
#include "sgexplore.h"
void planted_call(void);
void planted_call(void)
{
    sg_analyse(NULL, NULL, NULL, 0, NULL, NULL);
}
C
if "$cc" -c -I"$src/src/lib" -o "$copy/base/planted.o" "$copy/planted.c"; then
    ok "the planted object compiles"
else
    not_ok "the planted object compiles"
fi
rm -f "$copy/planted.c"
out=$(python3 "$checker" "$src/src/lib/LAYERS" "$copy" 2>&1)
rc=$?
check "check-layers fails on the planted upward call (exit $rc)" \
    test "$rc" = 1
check "it names the symbol, the object and the layers" contains "$out" \
    'base/planted.o (layer base) uses sg_analyse of analyse/analyse.o (layer analyse)'
check "it names no other use" test "$(grep -c ' uses ' <<<"$out")" = 1
# An object outside every layer is an error of its own (exit 2).
mkdir -p "$copy/nowhere" && cp "$copy/base/planted.o" "$copy/nowhere/"
python3 "$checker" "$src/src/lib/LAYERS" "$copy" >/dev/null 2>&1
rc=$?
check "an object in no layer is refused (exit $rc)" test "$rc" = 2
rm -rf "$copy"
echo "1..$n"
