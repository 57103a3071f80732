#!/bin/bash
# scripts/sweep-parallel.sh - run one `sgexplore sweep` as SHARDS shards
# with GNU parallel, on this machine or on other hosts (--sshlogin), each
# shard into its own cache (DIR/shard-K.db, its rows in DIR/shard-K.csv),
# then merge the shards into OUT.db with `sgexplore merge`.  See
# docs/SWEEPS.md.
#
# Usage: sweep-parallel.sh -n SHARDS -o OUT.db [-d DIR] [-j JOBS]
#                          [-S SSHLOGIN]... -- SWEEP ARGUMENTS...
#   -n SHARDS    number of shards, 1..100000
#   -o OUT.db    the merged cache
#   -d DIR       where shard caches and rows go (default: OUT.db.shards)
#   -j JOBS      shards at once per host (default 1: each shard already
#                uses every core of its host)
#   -S SSHLOGIN  a host for GNU parallel's --sshlogin (repeatable; ':' is
#                this machine).  Remote hosts need sgexplore on their PATH;
#                each shard's cache is copied back (--return) and removed
#                there (--cleanup).
# The program is $SGEXPLORE when set (on this machine), else `sgexplore`.
# Exit status: that of the merge, or 1 when a shard failed (the shards'
# caches are kept: rerunning the same command continues them).
set -euo pipefail

usage() {
    sed -n '/^# Usage/,/^# Exit/p' "$0" | sed 's/^# \{0,1\}//' >&2
    exit 2
}

shards= out= dir= jobs=1 logins=()
while getopts n:o:d:j:S:h opt; do
    case $opt in
    n) shards=$OPTARG ;;
    o) out=$OPTARG ;;
    d) dir=$OPTARG ;;
    j) jobs=$OPTARG ;;
    S) logins+=(--sshlogin "$OPTARG") ;;
    *) usage ;;
    esac
done
shift $((OPTIND - 1))
[[ $shards =~ ^[1-9][0-9]*$ ]] && [ "$shards" -le 100000 ] || usage
[[ $jobs =~ ^[1-9][0-9]*$ ]] || usage
[ -n "$out" ] && [ $# -gt 0 ] || usage
command -v parallel >/dev/null || {
    echo "sweep-parallel.sh: GNU parallel is not installed (Debian package: parallel)" >&2
    exit 1
}
sg=${SGEXPLORE:-sgexplore}
dir=${dir:-$out.shards}
mkdir -p "$dir"
case $out in /*) ;; *) out=$PWD/$out ;; esac

remote=
[ ${#logins[@]} -gt 0 ] && remote=1
# Shard K runs in DIR (locally) or in the remote login's home folder, with
# relative file names so that --return brings its cache back to DIR.  The
# sweep's arguments are quoted by parallel's -q.
cd "$dir"
if [ -n "$remote" ]; then
    parallel --will-cite --halt soon,fail=1 --jobs "$jobs" "${logins[@]}" \
        --return shard-{}.db --return shard-{}.csv --return shard-{}.log \
        --cleanup \
        "sgexplore sweep $(printf '%q ' "$@") --shard {}/$shards --db shard-{}.db --format csv > shard-{}.csv 2> shard-{}.log" \
        ::: $(seq 1 "$shards")
else
    parallel --will-cite --halt soon,fail=1 --jobs "$jobs" \
        "$(printf '%q' "$sg") sweep $(printf '%q ' "$@") --shard {}/$shards --db shard-{}.db --format csv > shard-{}.csv 2> shard-{}.log" \
        ::: $(seq 1 "$shards")
fi
files=()
for ((k = 1; k <= shards; k++)); do files+=("shard-$k.db"); done
exec "$sg" merge "$out" "${files[@]}"
