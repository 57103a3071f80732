#!/bin/bash
# scripts/census_deep.sh - deep runs (docs/DEEP.md) of the census's open
# codes of up to three digits that T. Czajka lists as unsolved (the other
# open ones are these shifted: published.tsv), and their statistics,
# OUT/deep.tsv, beside T. Czajka's published ones (data/tczajka.tsv).
# See docs/CENSUS.md, "The open three-digit games".
#
# Usage: census_deep.sh [-s SECONDS] [-m MAX] [-w WORK] [-o OUT] [-c CODES]
#                       [-W WINDOW] [-C CPU] [-k CARRY]
#   -s SECONDS  each code's time (default 60); a rerun resumes each run
#               from its checkpoint and gives it SECONDS more; 0: no run,
#               only the table from the reports there are
#   -m MAX      the values a run aims at (default 2^28)
#   -w WORK     the deep runs' cache (WORK/deep.db) and reports
#               (WORK/deep/CODE.json) (default: census-work)
#   -o OUT      the census (default: data/census): reads octal.tsv, writes
#               deep.tsv
#   -c CODES    run only these codes (comma-separated, in this order) of
#               the open ones; the table lists every code with a report in
#               WORK, and keeps OUT/deep.tsv's row of every other code
#   -W WINDOW   the deep runs' --window (default the program's, 2^20):
#               a code whose note says a rare value came past the window
#               needs a run from the start with the window it names
#   -C CPU      run each code again (resumed from its checkpoint) until
#               the CPU seconds recorded for it in WORK reach CPU, while
#               its runs stop only because their time ran out: the
#               issue's "one CPU-hour" for a dense code is -C 3600 on any
#               machine, however loaded (each rerun gets the CPU left
#               divided by the processors, at least 60 s, at most SECONDS)
#   -k CARRY    carry each code's run between machines through the folder
#               CARRY (in the repository: data/census/deep-carry): before a
#               code runs, its checkpoint CARRY/CODE.ck.xz is imported into
#               WORK's cache unless that cache is as far, and its records
#               (CODE.json, .cpu, .seconds) copied into an empty WORK;
#               after each run they go back, the checkpoint exported and
#               compressed with xz (the file is removed once the run ends)
# The program is $SGEXPLORE when set, else ./sgexplore; every run is
# under `nice -n $SG_DEEP_NICE` (default 10) with its default threads; each
# run's CPU time (user + system, its threads summed) is added up in
# WORK/deep/CODE.cpu beside the wall time in CODE.seconds.  A code whose run stops (a rare
# value past the window, no sparse space) keeps its report and its note.
# Exit status: 0 done, 2 bad usage.
set -euo pipefail

usage() {
    sed -n '/^# Usage/,/^# Exit/p' "$0" | sed 's/^# \{0,1\}//' >&2
    exit 2
}

seconds=60 max=2^28 work=census-work out=data/census only= window= cpu_goal=
carry=
while getopts s:m:w:o:c:W:C:k:h opt; do
    case $opt in
    s) seconds=$OPTARG ;;
    m) max=$OPTARG ;;
    w) work=$OPTARG ;;
    o) out=$OPTARG ;;
    c) only=$OPTARG ;;
    W) window=$OPTARG ;;
    C) cpu_goal=$OPTARG ;;
    k) carry=$OPTARG ;;
    *) usage ;;
    esac
done
shift $((OPTIND - 1))
[[ $# -eq 0 ]] || usage
sg=${SGEXPLORE:-./sgexplore}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$work/deep"

# The codes T. Czajka lists as unsolved (one per class of his lookup
# tables: every other open three-digit code is one of them, shifted)
# that the census leaves unresolved.  Both lists are written to a new
# file renamed into place: another instance in the same WORK (a table
# with -s 0 beside a queue of runs) reads its own lists to the end
# instead of the middle of ours.
awk -F'\t' 'FNR == 1 { f++ } f == 1 && $2 == "unsolved" { tc[$1] = 1 }
    f == 2 && !/^#/ && $3 == "unresolved" && length($1) <= 5 && ($1 in tc) {
        print $1 }' "$here/../data/tczajka.tsv" "$out/octal.tsv" \
    > "$work/deep.in.$$"
mv "$work/deep.in.$$" "$work/deep.in"
if [[ -n $only ]]; then
    tr ',' '\n' <<< "$only" | grep -Fx -f "$work/deep.in" > "$work/deep.run.$$" || true
else
    cp "$work/deep.in" "$work/deep.run.$$"
fi
mv "$work/deep.run.$$" "$work/deep.run"
TIMEFORMAT='%U %S'
# cpu_of CODE: the CPU seconds recorded for CODE in WORK, whole seconds.
cpu_of() {
    awk '{ s += $1 } END { printf "%d\n", s }' "$work/deep/$1.cpu" 2>/dev/null || echo 0
}
# run_code CODE SECONDS: one run of CODE, resumed from its checkpoint;
# status 1 when it reported nothing (its error is in WORK/deep/CODE.err).
run_code() {
    local code=$1 secs=$2 start
    start=$(date +%s.%N)
    # bash's time keyword: the run's user and system CPU, threads summed.
    { time nice -n "${SG_DEEP_NICE:-10}" "$sg" "$code" --deep --max "$max" \
        --seconds "$secs" --db "$work/deep.db" --json ${window:+--window "$window"} \
        > "$work/deep/$code.part" 2> "$work/deep/$code.err" || true; } \
        2> "$work/deep/$code.time"
    local reported=1
    if [[ -s $work/deep/$code.part ]]; then
        reported=0
        mv "$work/deep/$code.part" "$work/deep/$code.json"
        python3 -c 'import sys; print("%.1f" % (float(sys.argv[2]) - float(sys.argv[1])))' \
            "$start" "$(date +%s.%N)" >> "$work/deep/$code.seconds"
        awk '{ printf "%.1f\n", $1 + $2 }' "$work/deep/$code.time" \
            >> "$work/deep/$code.cpu"
    fi
    echo "census_deep: $code: $(head -c 300 "$work/deep/$code.err")" >&2
    return $reported
}
# carry_in CODE: the carried run of CODE (-k) into WORK.
carry_in() {
    local code=$1 f
    [[ -n $carry && -f $carry/$code.ck.xz ]] || return 0
    xz -dc "$carry/$code.ck.xz" > "$work/deep/$code.ck"
    "$sg" cache import-checkpoint "$work/deep/$code.ck" --db "$work/deep.db" >&2
    rm -f "$work/deep/$code.ck"
    if [[ ! -e $work/deep/$code.cpu ]]; then
        for f in json cpu seconds; do
            [[ ! -f $carry/$code.$f ]] || cp "$carry/$code.$f" "$work/deep/$code.$f"
        done
    fi
}
# carry_out CODE: WORK's run of CODE back into CARRY (-k), each file
# written beside and renamed, so that a cut leaves the old one whole.
carry_out() {
    local code=$1 f
    [[ -n $carry ]] || return 0
    mkdir -p "$carry"
    for f in json cpu seconds; do
        [[ ! -f $work/deep/$code.$f ]] ||
            { cp "$work/deep/$code.$f" "$carry/.$code.$f" &&
              mv "$carry/.$code.$f" "$carry/$code.$f"; }
    done
    if grep -q -- '--seconds ran out' "$work/deep/$code.json" 2>/dev/null; then
        "$sg" cache export-checkpoint "$code" "$work/deep/$code.ck" \
            --db "$work/deep.db" >&2 &&
            xz -6 -T1 -c "$work/deep/$code.ck" > "$carry/.$code.ck.xz" &&
            mv "$carry/.$code.ck.xz" "$carry/$code.ck.xz"
        rm -f "$work/deep/$code.ck"
    else
        rm -f "$carry/$code.ck.xz" # the run ended: its row is final
    fi
}
procs=$(nproc 2>/dev/null || echo 1)
while read -r code; do
    carry_in "$code"
    [[ $seconds != 0 ]] || continue
    run_code "$code" "$seconds" || continue
    carry_out "$code"
    [[ -n $cpu_goal ]] || continue
    while (($(cpu_of "$code") < cpu_goal)) &&
        grep -q -- '--seconds ran out' "$work/deep/$code.json" 2>/dev/null; do
        secs=$(((cpu_goal - $(cpu_of "$code")) / procs))
        ((secs >= 60)) || secs=60
        ((secs <= seconds)) || secs=$seconds
        run_code "$code" "$secs" || break
        carry_out "$code"
    done
done < "$work/deep.run"

python3 - "$work" "$out" "$here/../data/tczajka.tsv" "$max" <<'EOF'
import json, os, sys
work, out, tc_path, max_ = sys.argv[1:]
tc = {}
with open(tc_path, encoding='utf-8') as f:
    lines = [l.rstrip('\n').split('\t') for l in f if not l.startswith('#')]
for cells in lines[1:]:
    r = dict(zip(lines[0], cells))
    if r['table'] == 'unsolved':
        tc[r['code']] = r
cols = ('code', 'computed', 'largest', 'largest_first', 'sparse_mask',
        'parity', 'rare', 'last_rare', 'checksum', 'seconds', 'cpu_seconds',
        'note',
        'tc_n', 'tc_largest', 'tc_largest_idx', 'tc_rare_mask',
        'tc_num_rare', 'tc_last_rare')
# The rows of an earlier table, kept for the codes without a report in
# WORK (a run elsewhere, an earlier session's); columns it lacks are empty.
old = {}
if os.path.exists(out + '/deep.tsv'):
    with open(out + '/deep.tsv', encoding='utf-8') as f:
        lines = [l.rstrip('\n').split('\t') for l in f if not l.startswith('#')]
    for cells in lines[1:]:
        r = dict(zip(lines[0], cells))
        old[r['code']] = '\t'.join(r.get(c, '') for c in cols)
rows = []
for code in open(work + '/deep.in').read().split():
    p = '%s/deep/%s.json' % (work, code)
    if not os.path.exists(p):
        if code in old:
            rows.append(old[code])
        continue
    o = json.load(open(p))
    sp = o.get('sparse') or {}
    lg = o.get('largest') or {}
    secs = open('%s/deep/%s.seconds' % (work, code)).read().split()
    cpu_path = '%s/deep/%s.cpu' % (work, code)
    cpus = open(cpu_path).read().split() if os.path.exists(cpu_path) else []
    t = tc.get(code, {})
    v = {'code': code, 'computed': o.get('computed'),
         'largest': lg.get('value'), 'largest_first': lg.get('first'),
         'sparse_mask': '%x' % sp['mask'] if sp else '',
         'parity': sp.get('parity'), 'rare': sp.get('rare'),
         'last_rare': sp.get('last_rare'),
         'checksum': (o.get('deep') or {}).get('checksum'),
         'seconds': '%.1f' % sum(float(s) for s in secs),
         'cpu_seconds': '%.1f' % sum(float(s) for s in cpus) if cpus else '',
         'note': (o.get('note') or '').replace('\t', ' '),
         'tc_n': t.get('n', ''), 'tc_largest': t.get('largest', ''),
         'tc_largest_idx': t.get('largest_idx', ''),
         'tc_rare_mask': t.get('rare_mask', ''),
         'tc_num_rare': t.get('num_rare', ''),
         'tc_last_rare': t.get('last_rare', '')}
    rows.append('\t'.join('' if v[c] is None else
                          ('true' if v[c] is True else 'false'
                           if v[c] is False else str(v[c])) for c in cols))
with open(out + '/deep.tsv', 'w', encoding='utf-8') as f:
    f.write('# deep runs of the open codes of up to three digits (--deep '
            '--max %s, under nice; seconds: the wall time of the runs, '
            'summed; cpu_seconds: their CPU time, summed, where recorded); '
            'written by scripts/census_deep.sh (docs/CENSUS.md); '
            'tc_*: T. Czajka\'s UnsolvedGames.md (data/tczajka.tsv)\n'
            % max_)
    f.write('\t'.join(cols) + '\n')
    for r in rows:
        f.write(r + '\n')
print('census_deep: %d codes in %s/deep.tsv' % (len(rows), out),
      file=sys.stderr)
EOF
