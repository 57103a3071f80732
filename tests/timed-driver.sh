#!/bin/bash
# tests/timed-driver.sh - runs a test driver (Makefile.am: LOG_DRIVER,
# the arguments after it being tap-driver.sh and its own) and appends to
# the test's .trs file one line
#     :time: REAL USER SYS
# its wall-clock seconds and the CPU seconds of the test and every process
# it waited for, which tests/times.sh reads.  CPU seconds change little
# with what else the machine runs, wall seconds a lot: on a shared machine
# compare the CPU.  The automake harness reads only the .trs fields it
# knows, so the line changes nothing else.  The driver's exit status is
# kept.
trs=
prev=
for a in "$@"; do
    [ "$prev" = --trs-file ] && trs=$a
    prev=$a
done

tf=${trs:-${TMPDIR:-/tmp}/timed-driver}.time-$$
TIMEFORMAT='%R %U %S'
exec 3>&2
{ time "$@" 2>&3 3>&-; } 2>"$tf"
rc=$?
if [ -n "$trs" ] && [ -f "$trs" ]; then
    echo ":time: $(tail -n 1 "$tf")" >>"$trs"
fi
rm -f "$tf"
exit $rc
