#!/bin/bash
# tests/fuzz/run.sh - `make fuzz`: builds the libFuzzer targets of
# tests/fuzz/ with clang (-fsanitize=fuzzer,address,undefined) into
# tests/fuzz/bin of the build tree and runs each for FUZZ_SECONDS seconds
# (default 30), starting from its seed corpus tests/fuzz/corpus/TARGET/
# and the saved regressions tests/fuzz/regress/TARGET/.  New corpus
# entries stay in the build tree.  Prints one line per target with the
# executions libFuzzer reports; an input that crashed or hung a target is
# left in tests/fuzz/bin/found/ and the script fails, naming it: copy it
# to tests/fuzz/regress/TARGET/ once fixed, so that `make check` replays
# it (tests/fuzz/replay.c).
#
# Environment: FUZZ_CC (default clang), FUZZ_SECONDS, FUZZ_TARGETS (a
# subset, e.g. "rule cert"), srcdir and builddir (set by make).
set -u

src=${srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
build=${builddir:-.}
CC=${FUZZ_CC:-clang}
SECONDS_EACH=${FUZZ_SECONDS:-30}
TARGETS=${FUZZ_TARGETS:-rule number positions cert store setexpr}
out=$build/tests/fuzz/bin
SAN="-fsanitize=address,undefined -fno-sanitize-recover=undefined"
CFLAGS_F="-g -O1 -std=gnu11 -fno-omit-frame-pointer $SAN -I$src/src/lib -I$src/src/cli $(pkg-config --cflags sqlite3 2>/dev/null)"
LIBS="$(pkg-config --libs sqlite3 2>/dev/null || echo -lsqlite3) -lgmp -lm -pthread"

if ! command -v "$CC" >/dev/null 2>&1; then
    echo "fuzz: $CC not found (Debian packages: clang, libclang-rt-14-dev)" >&2
    exit 1
fi
mkdir -p "$out/obj" "$out/found" || exit 1

# The library and the CLI's parsing files, built once with the sanitizers
# and libFuzzer's coverage instrumentation.
lib_objs=()
cli_objs=()
for f in "$src"/src/lib/*.c "$src/src/cli/args.c" "$src/src/cli/out.c"; do
    o=$out/obj/$(basename "$(dirname "$f")")_$(basename "${f%.c}").o
    if [ ! -f "$o" ] || [ "$f" -nt "$o" ]; then
        $CC $CFLAGS_F -fsanitize=fuzzer-no-link -DPACKAGE_VERSION='"fuzz"' \
            -c "$f" -o "$o" || exit 1
    fi
    case $f in
        */src/lib/*) lib_objs+=("$o") ;;
        *) cli_objs+=("$o") ;;
    esac
done

fail=0
for t in $TARGETS; do
    bin=$out/fuzz_$t
    extra=()
    case $t in number | positions) extra=("${cli_objs[@]}") ;; esac
    $CC $CFLAGS_F -fsanitize=fuzzer "$src/tests/fuzz/fuzz_$t.c" \
        "${extra[@]}" "${lib_objs[@]}" $LIBS -o "$bin" || exit 1
    work=$out/corpus/$t
    mkdir -p "$work"
    seeds=()
    for d in "$src/tests/fuzz/corpus/$t" "$src/tests/fuzz/regress/$t"; do
        [ -d "$d" ] && seeds+=("$d")
    done
    dict=()
    [ -f "$src/tests/fuzz/$t.dict" ] && dict=(-dict="$src/tests/fuzz/$t.dict")
    maxlen=4096
    [ "$t" = store ] && maxlen=65536
    log=$out/fuzz_$t.log
    # -close_fd_mask=2: the targets' one-line refusals are not wanted;
    # libFuzzer's and the sanitizers' reports still reach the log.
    ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1} \
        "$bin" -max_total_time="$SECONDS_EACH" -timeout=30 \
        -rss_limit_mb=2048 -max_len=$maxlen -print_final_stats=1 \
        -close_fd_mask=2 -artifact_prefix="$out/found/$t-" "${dict[@]}" \
        "$work" "${seeds[@]}" >"$log" 2>&1
    rc=$?
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1)
    echo "fuzz_$t: ${execs:-?} executions in ${SECONDS_EACH} s (${cov:-cov: ?}), exit $rc"
    if [ $rc != 0 ]; then
        fail=1
        grep -E "^(==[0-9]+==ERROR|SUMMARY|.*runtime error|.*Test unit written)" \
            "$log" | head -5
        echo "fuzz_$t: see $log; the input is in $out/found/" >&2
    fi
done
exit $fail
