#!/bin/bash
# tests/valgrind.sh - stands in for the program in the CLI tests under
# `make check-valgrind-cli`: runs $SG_REAL_SGEXPLORE under valgrind
# memcheck.  A memory error or a definite leak makes the run exit 99 (so
# the check that ran it fails) and leaves the report in $SG_VALGRIND_LOGS.
# Child processes (gnuplot) are not traced.
logs=${SG_VALGRIND_LOGS:-${TMPDIR:-/tmp}}
exec "${SG_VALGRIND:-valgrind}" -q --error-exitcode=99 --leak-check=full \
    --errors-for-leak-kinds=definite --show-leak-kinds=definite \
    --log-file="$logs/vg.%p.log" \
    "${SG_REAL_SGEXPLORE:?SG_REAL_SGEXPLORE is not set}" "$@"
