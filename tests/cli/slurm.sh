#!/bin/bash
# tests/cli/slurm.sh - the Slurm launcher for real (TAP): the test starts
# its own single-node Slurm cluster (munged, slurmctld and slurmd with
# every file in its scratch directory, ports chosen at random; see
# ../shared/slurm-single-node.md), runs a sweep split into 3 shards
# through scripts/sweep-slurm.sh (a job array, then a merge job with
# --dependency=afterok), and checks that the merged cache gives exactly
# the table of the unsharded sweep; then a record run through
# scripts/record-slurm.sh, a chain of one-second jobs resuming each
# other's checkpoint, which must end with the full run's checksum.  When the daemons cannot start (no
# packages, not root), the test reports SKIP with the reason, never PASS.

SG=${SGEXPLORE:-sgexplore}
SRC=${abs_top_srcdir:-${top_srcdir:-.}}
T=$(mktemp -d "${TMPDIR:-/tmp}/slurm.XXXXXX") || exit 1
export SGEXPLORE=$SG

. "$(dirname "$0")/tap.sh"

skip_all() {
    echo "1..0 # SKIP $1"
    exit 0
}

stop_daemons() {
    local f pid
    for f in "$T/slurmd.pid" "$T/slurmctld.pid" "$M/munged.pid"; do
        [ -s "$f" ] || continue
        pid=$(cat "$f")
        kill "$pid" 2>/dev/null
        for _ in 1 2 3 4 5 6 7 8 9 10; do
            kill -0 "$pid" 2>/dev/null || break
            sleep 0.2
        done
    done
}
# munge's socket path must fit in a sockaddr_un (108 bytes).
M=$T/munge
[ ${#M} -gt 90 ] && M=$(mktemp -d /tmp/sgmunge.XXXXXX)
trap 'stop_daemons; [ "$M" != "$T/munge" ] && rm -rf "$M"' EXIT

for c in munged munge slurmctld slurmd sbatch sinfo python3; do
    command -v $c >/dev/null 2>&1 ||
        skip_all "$c is not installed (Debian packages slurm-wlm munge python3)"
done
[ "$(id -u)" = 0 ] || skip_all "starting slurmctld/slurmd as SlurmUser=root needs root"

mkdir -p "$M" "$T/state" "$T/spool" "$T/log" && chmod 700 "$M"
# The cluster's own munge key, in the scratch folder: nothing under /etc
# is read or written.
if command -v mungekey >/dev/null 2>&1; then
    mungekey --create --keyfile="$M/munge.key" 2>/dev/null
else
    dd if=/dev/urandom of="$M/munge.key" bs=1024 count=1 2>/dev/null
fi
chmod 600 "$M/munge.key" 2>/dev/null
[ -s "$M/munge.key" ] || skip_all "cannot create a munge key"
munged --socket="$M/sock" --pid-file="$M/munged.pid" --log-file="$M/log" \
    --seed-file="$M/seed" --key-file="$M/munge.key" --force 2>"$T/munged.err" ||
    skip_all "munged does not start: $(head -n 1 "$T/munged.err")"
for _ in 1 2 3 4 5 6 7 8 9 10; do [ -S "$M/sock" ] && break; sleep 0.2; done
munge -S "$M/sock" -n 2>/dev/null | unmunge -S "$M/sock" >/dev/null 2>&1 ||
    skip_all "munge cannot encode and decode a credential"

host=$(hostname -s)
port=$((20000 + RANDOM % 20000))
export SLURM_CONF=$T/slurm.conf
cat >"$SLURM_CONF" <<CONF
ClusterName=sgtest
SlurmctldHost=$host
SlurmctldPort=$port
SlurmdPort=$((port + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$M/sock
CredType=cred/munge
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
ReturnToService=2
MpiDefault=none
SchedulerType=sched/backfill
StateSaveLocation=$T/state
SlurmdSpoolDir=$T/spool
SlurmctldPidFile=$T/slurmctld.pid
SlurmdPidFile=$T/slurmd.pid
SlurmctldLogFile=$T/log/slurmctld.log
SlurmdLogFile=$T/log/slurmd.log
NodeName=$host CPUs=$(nproc) RealMemory=1000 State=UNKNOWN
PartitionName=sgtest Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
slurmctld -f "$SLURM_CONF" 2>"$T/ctld.err" ||
    skip_all "slurmctld does not start: $(head -n 1 "$T/ctld.err")"
slurmd -f "$SLURM_CONF" 2>"$T/slurmd.err" ||
    skip_all "slurmd does not start: $(head -n 1 "$T/slurmd.err")"
up=
for _ in $(seq 1 60); do
    if sinfo -h -o %T 2>/dev/null | grep -q '^idle'; then up=1; break; fi
    sleep 0.5
done
[ -n "$up" ] || skip_all "the node does not become idle within 30 s ($(sinfo -h -o %T 2>&1 | head -n 1))"

ARGS=(octal --digits 2 --max 3000)
"$SG" sweep "${ARGS[@]}" --db "$T/whole.db" --format json 2>/dev/null |
    sweep_table >"$T/whole.tsv"

cd "$T" || exit 1
timeout 180 "$SRC/scripts/sweep-slurm.sh" -n 3 -o "$T/merged.db" -d "$T/shards" \
    -w -- "${ARGS[@]}" >"$T/launch.out" 2>"$T/launch.err"
rc=$?
check "sweep-slurm.sh -n 3 -w: exit status 0 (the merge job succeeded)" test $rc = 0
[ $rc = 0 ] || sed 's/^/# /' "$T/launch.err" "$T"/shards/*.log 2>/dev/null
check "three array tasks each wrote its own cache" \
    test -s "$T/shards/shard-1.db" -a -s "$T/shards/shard-2.db" -a -s "$T/shards/shard-3.db"
check "the merge job ran after the array and merged 3 caches" \
    grep -q '^merged 3 caches into' "$T/shards/merge.log"
check "the shards' rows add up to the 56 rules of the family" \
    test "$(cat "$T"/shards/shard-[123].csv | grep -vc '^rule,')" = 56
"$SG" sweep "${ARGS[@]}" --db "$T/merged.db" --format json 2>/dev/null >"$T/again.json"
sweep_table <"$T/again.json" >"$T/merged.tsv"
check "the merged cache gives exactly the unsharded table (56 rows)" \
    test "$(wc -l <"$T/whole.tsv")" = 56 -a -z "$(diff "$T/whole.tsv" "$T/merged.tsv")"
check "every rule comes from the merged cache" \
    test "$(grep -c '"source":"cache"' "$T/again.json")" = 56

# The record chain runs with SG_LONG_TESTS=1 only: its ten jobs mostly
# wait for Slurm's scheduler (about 35 s of a CI run's wall time), and
# it tests a script, not the program.
if [ "${SG_LONG_TESTS:-0}" != 1 ]; then
    skip "record-slurm.sh: runs with SG_LONG_TESTS=1"
else
    # A record run (scripts/record-slurm.sh): Officers' deep run to RN values
    # cut into a chain of jobs of one second each, every job resuming from
    # the checkpoint of the one before; it must end with the checksum of the
    # full run (the --threads value of the node's cores).
    # (on a machine that computes them in under 2 s, 10^6 values on one
    # thread, so that the first job does not finish them all; not more: with
    # this window the deep run of Officers stops at heap 1,031,666, whose
    # value needs pairs beyond it)
    want_sum() {
        "$SG" 0.6 --deep --window 49152 --max "$1" --no-cache --json 2>/dev/null |
            python3 -c 'import json, sys; print(json.load(sys.stdin)["deep"]["checksum"])'
    }
    RN=600000 CPUS=$(nproc)
    t0=$SECONDS
    want_sum $RN >"$T/record.want"
    if ((SECONDS - t0 < 2)); then
        RN=1000000 CPUS=1
        want_sum $RN >"$T/record.want"
    fi
    timeout 180 "$SRC/scripts/record-slurm.sh" -r 0.6 -n $RN -o "$T/record.db" \
        -j 10 -t 1 -c "$CPUS" -w 49152 -k 1 -S 1 >"$T/record.out" \
        2>"$T/record.err"
    check "record-slurm.sh: 10 jobs submitted" test "$(grep -c '^job ' "$T/record.out")" = 10
    last=$(tail -n 1 "$T/record.out" | awk '{print $NF}')
    for _ in $(seq 1 300); do
        squeue -h -j "$last" 2>/dev/null | grep -q . || break
        sleep 0.5
    done
    got=$(for f in "$T"/record.db.record/job-*.json; do
        python3 -c 'import json, sys
o = json.load(open(sys.argv[1]))
print(o["deep"]["checksum"], o["computed"], o["source"])' "$f" 2>/dev/null
    done)
    check "a later job resumed from the checkpoint" contains "$got" 'resumed from a checkpoint'
    check "the chain reached $RN values with the full run's checksum" \
        contains "$got" "^$(cat "$T/record.want") $RN "
    [ -n "$(grep "$RN" <<<"$got")" ] || sed 's/^/# /' "$T"/record.db.record/*.log 2>/dev/null
fi

echo "1..$n"
