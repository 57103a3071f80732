#!/bin/bash
# tests/cli/lib_silent.sh - the library never prints or exits (HACKING.md):
# no object of libsg may reference stdout, stderr, the printing shortcuts
# or exit.  Writing to files it opened itself (fprintf to a FILE*) stays
# allowed; writing to the terminal is the CLI's job.

. "$(dirname "$0")/tap.sh"
lib="${abs_top_builddir:-.}/src/lib/libsg.a"
if ! command -v nm >/dev/null 2>&1; then
    echo "1..0 # SKIP nm (binutils) is not installed"
    exit 0
fi
if [ ! -f "$lib" ]; then
    not_ok "libsg.a exists at $lib"
    echo "1..$n"
    exit 0
fi
# Undefined symbols per object: "U name".
undefined=$(nm -A -u "$lib" 2>/dev/null)
# plot_gnuplot.o alone may call _exit: in the child it forks to run
# gnuplot, when exec fails, which ends that child and never the caller.
for sym in stdout stderr exit _exit _Exit quick_exit printf vprintf puts \
    putchar perror abort err errx warn warnx; do
    hits=$(awk -v s="$sym" '$NF == s { print $1 }' <<<"$undefined" |
        sed 's/:$//' | { if [ "$sym" = _exit ]; then
            grep -v ':plot_gnuplot\.o$'; else cat; fi; } | tr '\n' ' ')
    if [ -z "$hits" ]; then
        ok "libsg references no $sym"
    else
        not_ok "libsg references $sym in: $hits"
    fi
done
# The check itself must see the library's real undefined symbols.
check "the check sees libsg's own imports (malloc)" \
    contains "$undefined" ' U malloc$'
echo "1..$n"
