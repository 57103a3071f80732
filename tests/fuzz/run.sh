#!/bin/bash
# tests/fuzz/run.sh - `make fuzz` and `make fuzz-long`: builds the
# libFuzzer targets of tests/fuzz/ with clang
# (-fsanitize=fuzzer,address,undefined) into tests/fuzz/bin of the build
# tree and runs each, one after the other (one process each: the cores
# are shared), under `nice -n $FUZZ_NICE` for FUZZ_SECONDS seconds
# (default 30), starting from its seed corpus tests/fuzz/corpus/TARGET/
# and the saved regressions tests/fuzz/regress/TARGET/.  New corpus
# entries stay in the build tree, so a later run goes on from them.
# Prints one line per target with the executions libFuzzer reports and
# their rate; `make fuzz-long` (FUZZ_TABLE=1) ends with a Markdown table
# of them, as docs/RELIABILITY.md records it.  An input that crashed or
# hung a target is left in tests/fuzz/bin/found/ and the script fails,
# naming it: copy it to tests/fuzz/regress/TARGET/ once fixed, so that
# `make check` replays it (tests/fuzz/replay.c).
#
# Each target's inputs are bounded (-max_len below): the parsers' limits
# are far larger (a rule text may hold 1 MiB) but every construct of
# their grammars fits in these lengths, and a short input runs thousands
# of times a second.  The library is built with SG_RULE_MAX_TERMS=4096
# (src/lib/rules/rule.c): a list of at most 4096 numbers instead of 2^24, so
# that ten bytes such as "1-16777216" do not cost a tenth of a second
# each; the bound's checks are the same code.  The cache targets write a
# file per input; it lives in FUZZ_TMPDIR (default /dev/shm when
# writable: no disk flushes).
#
# FUZZ_RUNS=N stops each target after N executions (libFuzzer's -runs),
# FUZZ_SECONDS still bounding its time: `make fuzz-long FUZZ_RUNS=10000000
# FUZZ_SECONDS=3600` is the run docs/RELIABILITY.md records.
#
# Environment: FUZZ_CC (default clang), FUZZ_SECONDS, FUZZ_RUNS, FUZZ_TARGETS (a
# subset, e.g. "rule cert"), FUZZ_NICE (default 10), FUZZ_TMPDIR,
# FUZZ_TABLE, FUZZ_BUILD_JOBS (default 2), srcdir and builddir (set by make).
set -u

src=${srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
build=${builddir:-.}
CC=${FUZZ_CC:-clang}
SECONDS_EACH=${FUZZ_SECONDS:-30}
RUNS=${FUZZ_RUNS:-}
TARGETS=${FUZZ_TARGETS:-rule number positions cert store store_write setexpr graph rules deep}
NICE=${FUZZ_NICE:-10}
out=$build/tests/fuzz/bin
tmp=${FUZZ_TMPDIR:-}
if [ -z "$tmp" ]; then
    tmp=${TMPDIR:-/tmp}
    [ -d /dev/shm ] && [ -w /dev/shm ] && tmp=/dev/shm
fi
SAN="-fsanitize=address,undefined -fno-sanitize-recover=undefined"
CFLAGS_F="-g -O1 -std=gnu11 -fno-omit-frame-pointer $SAN -I$src/src/lib -I$src/src/cli $(pkg-config --cflags sqlite3 2>/dev/null)"
LIBS="$(pkg-config --libs sqlite3 2>/dev/null || echo -lsqlite3) -lgmp -lm -pthread"
DEFS=(-DPACKAGE_VERSION='"fuzz"' -DSG_RULE_MAX_TERMS=4096)

if ! command -v "$CC" >/dev/null 2>&1; then
    echo "fuzz: $CC not found (Debian packages: clang, libclang-rt-14-dev)" >&2
    exit 1
fi
mkdir -p "$out/obj" "$out/found" || exit 1
# Objects built with other flags are rebuilt.
if [ "$(cat "$out/obj/flags" 2>/dev/null)" != "$CC $CFLAGS_F ${DEFS[*]}" ]; then
    rm -f "$out"/obj/*.o
    echo "$CC $CFLAGS_F ${DEFS[*]}" >"$out/obj/flags"
fi

# The library and the CLI's parsing files, built once with the sanitizers
# and libFuzzer's coverage instrumentation.
lib_objs=()
cli_objs=()
# Two compilers at a time (FUZZ_BUILD_JOBS).
building=0
build_failed=0
# Every .c under src/lib, at any depth (the layers' folders nest); the
# object's name is its path under src/, so that two folders' files of one
# name do not collide.
lib_srcs=$(cd "$src" && find src/lib -name '*.c' | LC_ALL=C sort)
[ -n "$lib_srcs" ] || { echo "fuzz: no sources under $src/src/lib" >&2; exit 1; }
for rel in $lib_srcs src/cli/args.c src/cli/out.c; do
    f=$src/$rel
    o=$(echo "${rel#src/}" | tr / _)
    o=$out/obj/${o%.c}.o
    if [ ! -f "$o" ] || [ "$f" -nt "$o" ]; then
        if [ $building -ge "${FUZZ_BUILD_JOBS:-2}" ]; then
            wait -n || build_failed=1
            building=$((building - 1))
        fi
        $CC $CFLAGS_F -fsanitize=fuzzer-no-link "${DEFS[@]}" -c "$f" -o "$o" &
        building=$((building + 1))
    fi
    case $f in
        */src/lib/*) lib_objs+=("$o") ;;
        *) cli_objs+=("$o") ;;
    esac
done
while [ $building -gt 0 ]; do
    wait -n || build_failed=1
    building=$((building - 1))
done
[ $build_failed = 0 ] || exit 1

fail=0
table=()
for t in $TARGETS; do
    bin=$out/fuzz_$t
    extra=()
    case $t in number | positions | rules) extra=("${cli_objs[@]}") ;; esac
    # Seeds (store_write shares store's cache files), dictionary, length.
    sdir=$t
    dict_name=$t
    case $t in
        store_write) sdir=store ;;
        rules) dict_name=rule ;;
    esac
    case $t in
        number | setexpr) maxlen=256 ;;
        rule) maxlen=512 ;;
        positions | cert | graph | rules) maxlen=2048 ;;
        store | store_write) maxlen=65536 ;;
        # a state whose window has filled is 130 KB at the least
        deep) maxlen=262144 ;;
        *) maxlen=4096 ;;
    esac
    $CC $CFLAGS_F -fsanitize=fuzzer "$src/tests/fuzz/fuzz_$t.c" \
        "${extra[@]}" "${lib_objs[@]}" $LIBS -o "$bin" || exit 1
    work=$out/corpus/$t
    mkdir -p "$work"
    seeds=()
    for d in "$src/tests/fuzz/corpus/$sdir" "$src/tests/fuzz/regress/$sdir"; do
        [ -d "$d" ] && seeds+=("$d")
    done
    dict=()
    [ -f "$src/tests/fuzz/$dict_name.dict" ] &&
        dict=(-dict="$src/tests/fuzz/$dict_name.dict")
    log=$out/fuzz_$t.log
    # The cache targets spend most of their time in ASan's allocator
    # (SQLite allocates for every statement): no allocation stacks and a
    # 1 MiB quarantine take them from about 700 to over 1,000 inputs a
    # second.  A crash still shows where it happened, and replay.c
    # reruns any input found under the full defaults.
    asan=detect_leaks=1
    case $t in
        store | store_write)
            asan=detect_leaks=1:malloc_context_size=0:quarantine_size_mb=1 ;;
    esac
    t0=$(date +%s)
    # -close_fd_mask=2: the targets' one-line refusals are not wanted;
    # libFuzzer's and the sanitizers' reports still reach the log.
    TMPDIR=$tmp ASAN_OPTIONS=${ASAN_OPTIONS:-$asan} \
        nice -n "$NICE" "$bin" -max_total_time="$SECONDS_EACH" -timeout=30 \
        ${RUNS:+-runs="$RUNS"} \
        -rss_limit_mb=2048 -max_len=$maxlen -print_final_stats=1 \
        -close_fd_mask=2 -artifact_prefix="$out/found/$t-" "${dict[@]}" \
        "$work" "${seeds[@]}" >"$log" 2>&1
    rc=$?
    took=$(($(date +%s) - t0))
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1)
    rate=$(((${execs:-0}) / (took > 0 ? took : 1)))
    size=$(find "$work" -type f | wc -l)
    echo "fuzz_$t: ${execs:-?} executions in $took s ($rate/s, max_len $maxlen, ${cov:-cov: ?}, corpus $size), exit $rc"
    crashes=0
    if [ $rc != 0 ]; then
        fail=1
        crashes=1
        grep -E "^(==[0-9]+==ERROR|SUMMARY|.*runtime error|.*Test unit written)" \
            "$log" | head -5
        echo "fuzz_$t: see $log; the input is in $out/found/" >&2
    fi
    table+=("| $t | ${execs:-?} | $took | $rate | $maxlen | ${cov#cov: } | $size | $crashes |")
done
if [ "${FUZZ_TABLE:-0}" = 1 ]; then
    echo
    echo "| target | executions | seconds | per second | max_len | coverage | corpus | crashes |"
    echo "|---|---|---|---|---|---|---|---|"
    printf '%s\n' "${table[@]}"
fi
exit $fail
