"""The Python module's two measured cases (issue 49), printed as ratios
by bench/run.sh, never asserted:

  moves    a rule given by a Python function with three options per heap,
           10^5 values: seconds, and the ratio to the 2 s target;
  values   sg.values("0.6", 0, 10**7) against the program's
           `sgexplore 0.6 --values 0:9999999 --json` (its JSON written to
           /dev/null) for the same range, both without a cache,
           interleaved RUNS times: the median wall and CPU seconds of
           each and their ratio (target: within 1.2x).

Usage: python3 bench/python_bench.py moves|values SGEXPLORE [RUNS]
(PYTHONPATH and SGEXPLORE_LIB as for the module's tests).
"""

import os
import resource
import statistics
import subprocess
import sys
import time

import sgexplore as sg


def cpu_self():
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def cpu_children():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def three(n):
    return [[n - k] for k in (1, 3, 4) if k <= n]


def moves_case(runs):
    walls, cpus = [], []
    for _ in range(runs):
        c0, t0 = cpu_self(), time.perf_counter()
        r = sg.analyse(sg.Rule(moves=three), max=10**5, cache=False)
        walls.append(time.perf_counter() - t0)
        cpus.append(cpu_self() - c0)
        assert r.computed >= 10**5
    w, c = statistics.median(walls), statistics.median(cpus)
    print("  callback rule, 3 options a heap, 10^5 values: wall=%.3f "
          "cpu=%.3f s (%.0f values/s); wall/target(2 s)=%.2f %s"
          % (w, c, 1e5 / w, w / 2, "met" if w < 2 else "NOT met"))


def values_case(cli, runs, n):
    py_w, py_c, cli_w, cli_c = [], [], [], []
    for _ in range(runs):
        c0, t0 = cpu_self(), time.perf_counter()
        v = sg.values(sg.Rule("0.6"), 0, n, cache=False)
        py_w.append(time.perf_counter() - t0)
        py_c.append(cpu_self() - c0)
        assert len(v) == n
        del v
        c0, t0 = cpu_children(), time.perf_counter()
        with open(os.devnull, "w") as null:
            subprocess.run([cli, "0.6", "--values", "0:%d" % (n - 1),
                            "--json", "--no-cache"], stdout=null, check=True)
        cli_w.append(time.perf_counter() - t0)
        cli_c.append(cpu_children() - c0)
    pw, pc = statistics.median(py_w), statistics.median(py_c)
    cw, cc = statistics.median(cli_w), statistics.median(cli_c)
    print("  sg.values(\"0.6\", 0, %d): wall=%.2f cpu=%.2f s; the program's "
          "--values: wall=%.2f cpu=%.2f s; python/cli: wall %.2f, cpu %.2f "
          "(target 1.2: %s)" % (n, pw, pc, cw, cc, pw / cw, pc / cc,
                                "met" if pc / cc <= 1.2 else "NOT met"))


def main():
    what, cli = sys.argv[1], sys.argv[2]
    runs = int(sys.argv[3]) if len(sys.argv) > 3 else 3
    if what == "moves":
        moves_case(runs)
    else:
        values_case(cli, runs, int(os.environ.get("SG_BENCH_PY_N", 10**7)))


if __name__ == "__main__":
    main()
