#!/usr/bin/env python3
"""scripts/census_deep_table.py - the Markdown table of docs/CENSUS.md,
"The open three-digit games", from data/census/deep.tsv (written by
scripts/census_deep.sh), so that the table in the documentation is the
tool's output and never edited by hand.

Usage: census_deep_table.py [DEEP.TSV]   (default data/census/deep.tsv)
Prints the table on stdout.  A row's "stopped" column is 2^28 when the
run reached its goal, "time" when its seconds ran out ("time (one
CPU-hour)" once its runs add up to an hour of CPU: the census's bound for
a code with no sparse space), otherwise the run's note up to the advice
it ends with.
"""
import csv
import sys

GOAL = 1 << 28
ONE_CPU_HOUR = 3600.0
HEAD = ("| code | values | largest (first heap) | mask (parity) | rare "
        "| last rare | wall s | CPU s | stopped "
        "| TC: n, largest (heap), mask, rare, last |")
RULE = "|---|---:|---|---|---:|---:|---:|---:|---|---|"


def stopped(row):
    """What ended the run, in a few words."""
    if int(row["computed"]) >= GOAL:
        return "2^28"
    note = row["note"]
    if "--seconds ran out" in note:
        # the bound for a code whose rare heaps never stop
        cpu = float(row["cpu_seconds"] or 0)
        return "time (one CPU-hour)" if cpu >= ONE_CPU_HOUR else "time"
    # "...: a window of W values is too small for this rule (...); use..."
    return note.split(" is too small")[0]


def published(row):
    """T. Czajka's statistics, where he published them."""
    if not row["tc_n"]:
        return ""
    return "%s, %s (%s), %s, %s, %s" % (
        row["tc_n"], row["tc_largest"], row["tc_largest_idx"],
        row["tc_rare_mask"], row["tc_num_rare"], row["tc_last_rare"])


def main(argv):
    path = argv[1] if len(argv) > 1 else "data/census/deep.tsv"
    try:
        with open(path, newline="") as f:
            lines = [ln for ln in f if not ln.startswith("#")]
    except OSError as e:
        sys.stderr.write("census_deep_table.py: %s: %s\n" % (path, e.strerror))
        return 1
    rows = csv.DictReader(lines, delimiter="\t")
    print(HEAD)
    print(RULE)
    for r in rows:
        parity = "parity" if r["parity"] == "true" else "no parity"
        print("| %s | %s | %s (%s) | %s (%s) | %s | %s | %s | %s | %s | %s |"
              % (r["code"], r["computed"], r["largest"], r["largest_first"],
                 r["sparse_mask"], parity, r["rare"], r["last_rare"],
                 r["seconds"], r["cpu_seconds"], stopped(r), published(r)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
