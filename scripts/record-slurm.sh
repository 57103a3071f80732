#!/bin/bash
# scripts/record-slurm.sh - a record run on a Slurm cluster: one deep run
# (`sgexplore RULE --deep`, docs/DEEP.md) of one rule to N values on one
# node with all its cores (--threads), cut into a chain of jobs that each
# run for at most the partition's time limit and resume from the
# checkpoint the one before stored.  The values of a split game depend on
# every smaller heap, so a record run is one computation on one node;
# more nodes do not help it (docs/RECORDS.md).
#
# Usage: record-slurm.sh -r RULE -n N -o DB [-j JOBS] [-t HOURS] [-c CPUS]
#                        [-w WINDOW] [-k SECONDS] [-S SECONDS]
#                        [-s 'SBATCH OPTIONS']
#   -r RULE     the rule (e.g. officers, grundy, 0.6, 4!.0)
#   -n N        values to compute, up to 2^48 (e.g. 2^35, 1.4*10^14 as
#               140000000000000)
#   -o DB       the cache holding the checkpoint, on a file system every
#               node sees (one writer: the running job)
#   -j JOBS     jobs in the chain (default 30); each starts after the one
#               before has ended, however it ended (afterany), so that a
#               job lost with its node only costs the time since the last
#               checkpoint
#   -t HOURS    time limit of each job (default 48): the run stops 15
#               minutes before it (--seconds), storing its checkpoint
#   -c CPUS     cores of the node (sbatch --cpus-per-task, the run's
#               --threads; default 8, at most 64)
#   -w WINDOW   --window (default 2^20: Officers' deep run stops at heap
#               1,031,666 with 49,152 and passes 1.2*10^7 with 2^20;
#               docs/RECORDS.md)
#   -k SECONDS  --checkpoint (default 600)
#   -S SECONDS  each job's --seconds (default: 15 minutes less than -t;
#               tests/cli/slurm.sh uses a few seconds)
#   -s OPTS     more sbatch options (--partition=..., --account=...)
# The program is $SGEXPLORE when set, else `sgexplore` on the PATH of the
# compute nodes.  Logs and each job's JSON report go to DB.record/.
# Prints the job ids.  A job finding the run done (its checkpoint at N)
# ends at once, so the rest of the chain costs seconds.
set -euo pipefail

usage() {
    sed -n '/^# Usage/,/^# Prints/p' "$0" | sed 's/^# \{0,1\}//' >&2
    exit 2
}

rule= n= db= jobs=30 hours=48 cpus=8 window=2^20 every=600 extra= secs=
while getopts r:n:o:j:t:c:w:k:S:s:h opt; do
    case $opt in
    r) rule=$OPTARG ;;
    n) n=$OPTARG ;;
    o) db=$OPTARG ;;
    j) jobs=$OPTARG ;;
    t) hours=$OPTARG ;;
    c) cpus=$OPTARG ;;
    w) window=$OPTARG ;;
    k) every=$OPTARG ;;
    S) secs=$OPTARG ;;
    s) extra=$OPTARG ;;
    *) usage ;;
    esac
done
shift $((OPTIND - 1))
[ $# = 0 ] && [ -n "$rule" ] && [ -n "$n" ] && [ -n "$db" ] || usage
[[ $jobs =~ ^[1-9][0-9]*$ ]] && [ "$jobs" -le 1000 ] || usage
[[ $hours =~ ^[1-9][0-9]*$ ]] || usage
[[ $cpus =~ ^[1-9][0-9]*$ ]] && [ "$cpus" -le 64 ] || usage
[[ $every =~ ^[1-9][0-9]*$ ]] || usage
[ -z "$secs" ] || [[ $secs =~ ^[1-9][0-9]*$ ]] || usage
secs=${secs:-$((hours * 3600 - 900))}
sg=${SGEXPLORE:-sgexplore}
case $db in /*) ;; *) db=$PWD/$db ;; esac
dir=$db.record
mkdir -p "$dir"

# One job of the chain: the deep run until 15 minutes before the time
# limit (--seconds; the checkpoint is stored then, and every --checkpoint
# seconds, and on SIGTERM, which Slurm sends before it ends a job), with
# a copy of the cache beside it (DB.copy, sqlite3's online backup, when
# sqlite3 is there) every six checkpoints and at the end, so that a cache
# damaged with its node leaves a copy at most six checkpoints old.
cat >"$dir/record.sbatch" <<'JOB'
#!/bin/bash
set -u
backup() {
    sqlite3 "$DB" ".backup '$DB.copy.part'" 2>/dev/null &&
        mv -f "$DB.copy.part" "$DB.copy"
}
bg=
if command -v sqlite3 >/dev/null 2>&1; then
    (while sleep $((6 * EVERY)); do backup; done) &
    bg=$!
fi
"$SG" "$RULE" --deep --max "$N" --window "$WINDOW" --checkpoint "$EVERY" \
    --threads "${SLURM_CPUS_PER_TASK:-1}" --seconds "$SECS" --db "$DB" \
    --json >"$DIR/job-$SLURM_JOB_ID.json"
rc=$?
if [ -n "$bg" ]; then
    kill "$bg" 2>/dev/null
    wait "$bg" 2>/dev/null
    backup
fi
exit $rc
JOB

export SG=$sg RULE=$rule N=$n DB=$db DIR=$dir SECS=$secs WINDOW=$window \
    EVERY=$every
dep=
for ((j = 1; j <= jobs; j++)); do
    # shellcheck disable=SC2086 # $extra is a list of options
    id=$(sbatch --parsable --job-name="sg-record" --nodes=1 --ntasks=1 \
        --cpus-per-task="$cpus" --time="$hours:00:00" --requeue \
        --signal=TERM@120 --output="$dir/job-%j.log" --export=ALL \
        ${dep:+--dependency=afterany:$dep} $extra "$dir/record.sbatch")
    dep=${id%%;*}
    echo "job $j of $jobs: $dep"
done
