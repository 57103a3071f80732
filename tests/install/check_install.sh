#!/bin/bash
# tests/install/check_install.sh - the installed library from the outside
# (`make check-install`, run by .ci/run): `make install` into a scratch
# prefix, the files and the SONAME checked, the exported symbols compared
# with the header's functions, examples/example.c compiled with pkg-config
# against the shared library and against the static archive, run, its
# output compared with the program's answers, and run under valgrind
# (any error or definite leak fails), then `make uninstall` leaving no
# library file behind.
#
# Environment (set by Makefile.am): SGEXPLORE, MAKE, VALGRIND (may be
# empty: the valgrind step is then skipped with a message), CC,
# abs_top_srcdir, abs_top_builddir, SG_SO_MAJOR.
set -u

: "${MAKE:=make}" "${CC:=cc}" "${VALGRIND:=}"
work=$abs_top_builddir/tests/install.tmp
prefix=$work/prefix
fails=0

say() { echo "check-install: $*"; }
bad() {
    say "FAIL: $*"
    fails=$((fails + 1))
}

# The pytest cases' results, one `:test-result:` line each, as
# tap-driver.sh writes them, so that .ci/run's totals count them.
trs=$abs_top_builddir/tests/install-python.trs
rm -rf "$work" "$trs" && mkdir -p "$work" || exit 1
export SGEXPLORE_DB=$work/cache.db

# 1. install into the scratch prefix
if ! "$MAKE" -C "$abs_top_builddir" install prefix="$prefix" \
    >"$work/install.log" 2>&1; then
    cat "$work/install.log"
    say "FAIL: make install prefix=$prefix"
    exit 1
fi
lib=$prefix/lib
for f in include/sgexplore_api.h lib/libsgexplore.a lib/libsgexplore.so \
    "lib/libsgexplore.so.$SG_SO_MAJOR" lib/pkgconfig/sgexplore.pc \
    share/man/man3/sgexplore.3; do
    test -e "$prefix/$f" || bad "$f was not installed"
done
soname=$(objdump -p "$lib/libsgexplore.so" | awk '$1 == "SONAME" { print $2 }')
test "$soname" = "libsgexplore.so.$SG_SO_MAJOR" ||
    bad "SONAME is '$soname', not libsgexplore.so.$SG_SO_MAJOR"
hdr_major=$(sed -n 's/^#define SG_API_MAJOR \([0-9]*\)$/\1/p' \
    "$prefix/include/sgexplore_api.h")
test "$hdr_major" = "$SG_SO_MAJOR" ||
    bad "SG_API_MAJOR is '$hdr_major' in the header, the SONAME's is $SG_SO_MAJOR"

# 2. the exported symbols are the header's functions, no more, no fewer
grep -oE '\bsg_[a-z0-9_]+\(' "$prefix/include/sgexplore_api.h" | tr -d '(' |
    LC_ALL=C sort -u >"$work/header.syms"
nm -D --defined-only "$lib/libsgexplore.so" | awk '{ print $3 }' |
    sed 's/@.*//' | grep -v '^SGEXPLORE' | LC_ALL=C sort -u >"$work/so.syms"
if ! diff "$work/header.syms" "$work/so.syms" >"$work/syms.diff"; then
    cat "$work/syms.diff"
    bad "the exported symbols differ from the header's functions (< header, > library)"
fi

# ... and each is in the installed manual page
while read -r f; do
    grep -q "^\.BI \"[^\"]*\b$f(" "$prefix/share/man/man3/sgexplore.3" ||
        bad "$f is not in sgexplore.3's synopsis"
done <"$work/header.syms"

# 3. the example against the shared library and the static archive
export PKG_CONFIG_PATH=$lib/pkgconfig
ex=$abs_top_srcdir/examples/example.c
# shellcheck disable=SC2046
if ! $CC -Wall -Wextra -Werror "$ex" $(pkg-config --cflags --libs sgexplore) \
    -o "$work/example" 2>"$work/cc.log"; then
    cat "$work/cc.log"
    bad "the example does not compile with pkg-config --cflags --libs sgexplore"
fi
static_libs=$(pkg-config --static --libs sgexplore | sed 's/-lsgexplore//')
# shellcheck disable=SC2086
if ! $CC -Wall -Wextra -Werror "$ex" $(pkg-config --cflags sgexplore) \
    "$lib/libsgexplore.a" $static_libs -o "$work/example-static" \
    2>"$work/cc-static.log"; then
    cat "$work/cc-static.log"
    bad "the example does not link with libsgexplore.a and pkg-config --static"
fi

# 4. its answers are the program's
n=200
{
    "$SGEXPLORE" --subtract 2,3,5,7,11,13 --heap 1000000000000000000 \
        --position 1000000000000000004,10 --quiet --no-cache &&
        "$SGEXPLORE" 0.77 --values "0:$((n - 1))" --quiet --no-cache
} >"$work/cli.out" || bad "the program failed"
for prog in example example-static; do
    test -x "$work/$prog" || continue
    if ! LD_LIBRARY_PATH=$lib "$work/$prog" "$n" >"$work/$prog.out"; then
        bad "$prog failed"
    elif ! diff "$work/cli.out" "$work/$prog.out" >"$work/$prog.diff"; then
        head -20 "$work/$prog.diff"
        bad "$prog's answers differ from the program's (< program)"
    else
        say "ok: $prog answers as the program does ($(wc -l <"$work/cli.out") lines)"
    fi
done
ldd_out=$(LD_LIBRARY_PATH=$lib ldd "$work/example" 2>/dev/null)
case $ldd_out in
*"$lib/libsgexplore.so.$SG_SO_MAJOR"*) ;;
*) bad "the example does not load $lib/libsgexplore.so.$SG_SO_MAJOR" ;;
esac

# 5. under valgrind
if test -z "$VALGRIND"; then
    say "valgrind not found at configure time: that step is skipped"
elif test -x "$work/example"; then
    if LD_LIBRARY_PATH=$lib "$VALGRIND" --error-exitcode=99 --leak-check=full \
        --errors-for-leak-kinds=definite -q "$work/example" 50 \
        >/dev/null 2>"$work/valgrind.log"; then
        say "ok: the example is clean under valgrind"
    else
        cat "$work/valgrind.log"
        bad "valgrind reports errors or leaks in the example"
    fi
fi

# 6. ---- The Python module (docs/PYTHON.md) --------------------------
# `make install-python` into "$prefix" (pip from Debian, offline), the
# module loading the library of $lib by the folder recorded at install
# time (no SGEXPLORE_LIB, no LD_LIBRARY_PATH), its pytest run against
# it, then `make uninstall-python`.  PYTHON3 (Makefile's) is tried
# first, then Debian's /usr/bin/python3: the interpreter with pytest.
# ---------------------------------------------------------------------
py=
for cand in "${PYTHON3:-python3}" /usr/bin/python3; do
    if "$cand" -c 'import setuptools, pytest' 2>/dev/null &&
        "$cand" -m pip --version >/dev/null 2>&1; then
        py=$cand
        break
    fi
done
if test -z "$py"; then
    say "no python3 with pytest, pip and setuptools (python3-pytest python3-pip python3-setuptools): the Python step is skipped"
elif ! "$MAKE" -C "$abs_top_builddir" install-python prefix="$prefix" \
    PYTHON3="$py" >"$work/install-python.log" 2>&1; then
    cat "$work/install-python.log"
    bad "make install-python prefix=$prefix"
else
    site=$("$py" "$abs_top_srcdir/python/sitedir.py" "$prefix")
    loaded=$(cd "$work" && env -u SGEXPLORE_LIB -u LD_LIBRARY_PATH \
        PYTHONPATH="$site" "$py" -c \
        'import sgexplore as sg; print(sg.__file__, sg.library_path())')
    case $loaded in
    "$site/sgexplore/__init__.py $lib/libsgexplore.so.$SG_SO_MAJOR") ;;
    *) bad "the installed module loads '$loaded', not $lib/libsgexplore.so.$SG_SO_MAJOR from $site" ;;
    esac
    t0=$(date +%s)
    if (cd "$work" && env -u SGEXPLORE_LIB PYTHONPATH="$site" \
        SGEXPLORE_CLI="$SGEXPLORE" PYTHONDONTWRITEBYTECODE=1 \
        "$py" -m pytest -q -p no:cacheprovider --junitxml="$work/pytest.xml" \
        "$abs_top_srcdir/python/tests" >"$work/pytest.log" 2>&1); then
        say "ok: the Python module's tests pass against the installed library ($(tail -1 "$work/pytest.log" | tr -d =), $(($(date +%s) - t0)) s)"
    else
        tail -40 "$work/pytest.log"
        bad "the Python module's tests fail against the installed library"
    fi
    # A case with <failure> or <error> failed, one with <skipped> was
    # skipped; no XML (pytest did not start) counts as one failure.
    "$py" - "$work/pytest.xml" >"$trs" <<'PYEOF' ||
import sys
import xml.etree.ElementTree as ET
for case in ET.parse(sys.argv[1]).iter("testcase"):
    tags = {child.tag for child in case}
    verdict = ("FAIL" if tags & {"failure", "error"} else
               "SKIP" if "skipped" in tags else "PASS")
    print(":test-result: %s %s::%s" % (verdict, case.get("classname"),
                                       case.get("name")))
PYEOF
        echo ":test-result: FAIL pytest wrote no results" >"$trs"
    "$MAKE" -C "$abs_top_builddir" uninstall-python prefix="$prefix" \
        PYTHON3="$py" >/dev/null 2>&1 || bad "make uninstall-python"
fi

# 7. uninstall leaves no library file behind
if ! "$MAKE" -C "$abs_top_builddir" uninstall prefix="$prefix" \
    >"$work/uninstall.log" 2>&1; then
    cat "$work/uninstall.log"
    bad "make uninstall prefix=$prefix"
fi
left=$(find "$prefix" -type f -o -type l 2>/dev/null)
test -z "$left" || bad "make uninstall left: $left"

if test "$fails" -gt 0; then
    say "$fails failure(s); files in $work"
    exit 1
fi
say "every check passed"
rm -rf "$work"
