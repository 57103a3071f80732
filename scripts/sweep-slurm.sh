#!/bin/bash
# scripts/sweep-slurm.sh - run one `sgexplore sweep` on a Slurm cluster:
# a job array with one shard per array task, each shard into its own
# cache (DIR/shard-K.db, its rows in DIR/shard-K.csv), then a merge job
# that starts only when every shard succeeded (--dependency=afterok) and
# combines the shards into OUT.db with `sgexplore merge`.  See
# docs/SWEEPS.md.
#
# Usage: sweep-slurm.sh -n SHARDS -o OUT.db [-d DIR] [-c CPUS] [-w]
#                       [-s 'SBATCH OPTIONS'] -- SWEEP ARGUMENTS...
#   -n SHARDS  number of array tasks (shards), 1..100000
#   -o OUT.db  the merged cache
#   -d DIR     where shard caches, rows and logs go (default: OUT.db.shards)
#   -c CPUS    cores per shard (sbatch --cpus-per-task; default 1), used as
#              the shard's --jobs
#   -w         wait until the merge job has finished (sbatch --wait); the
#              exit status is then the merge job's
#   -s OPTS    more sbatch options for both jobs (--partition=..., ...)
# The program is $SGEXPLORE when set, else `sgexplore` on the PATH of the
# compute nodes.  DIR must be on a file system every node sees.
# Prints the two job ids.
set -euo pipefail

usage() {
    sed -n '/^# Usage/,/^# Prints/p' "$0" | sed 's/^# \{0,1\}//' >&2
    exit 2
}

shards= out= dir= cpus=1 wait= extra=
while getopts n:o:d:c:s:wh opt; do
    case $opt in
    n) shards=$OPTARG ;;
    o) out=$OPTARG ;;
    d) dir=$OPTARG ;;
    c) cpus=$OPTARG ;;
    s) extra=$OPTARG ;;
    w) wait=--wait ;;
    *) usage ;;
    esac
done
shift $((OPTIND - 1))
[[ $shards =~ ^[1-9][0-9]*$ ]] && [ "$shards" -le 100000 ] || usage
[[ $cpus =~ ^[1-9][0-9]*$ ]] || usage
[ -n "$out" ] && [ $# -gt 0 ] || usage
sg=${SGEXPLORE:-sgexplore}
dir=${dir:-$out.shards}
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
case $out in /*) ;; *) out=$PWD/$out ;; esac

# The array task: shard K of N into its own cache.  The sweep's arguments
# arrive as the job script's arguments, so no quoting is lost.
cat >"$dir/shard.sbatch" <<'JOB'
#!/bin/bash
set -eu
k=$SLURM_ARRAY_TASK_ID
exec "$SG" sweep "$@" --shard "$k/$SHARDS" --db "$DIR/shard-$k.db" \
    --jobs "${SLURM_CPUS_PER_TASK:-1}" --format csv >"$DIR/shard-$k.csv"
JOB
cat >"$dir/merge.sbatch" <<'JOB'
#!/bin/bash
set -eu
shards=()
for ((k = 1; k <= SHARDS; k++)); do shards+=("$DIR/shard-$k.db"); done
exec "$SG" merge "$OUT" "${shards[@]}"
JOB

export SG=$sg SHARDS=$shards DIR=$dir OUT=$out
# shellcheck disable=SC2086 # $extra is a list of options
array=$(sbatch --parsable --job-name=sg-sweep --array=1-"$shards" \
    --cpus-per-task="$cpus" --output="$dir/shard-%a.log" \
    --export=ALL $extra "$dir/shard.sbatch" "$@")
array=${array%%;*}
echo "shards: job $array"
# shellcheck disable=SC2086
merge=$(sbatch --parsable $wait --job-name=sg-merge \
    --dependency=afterok:"$array" --kill-on-invalid-dep=yes \
    --output="$dir/merge.log" --export=ALL $extra "$dir/merge.sbatch")
echo "merge: job ${merge%%;*}"
