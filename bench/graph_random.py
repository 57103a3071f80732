#!/usr/bin/env python3
"""Print a large random game graph for the `graph` benchmark.

Usage: graph_random.py VERTICES MOVES [--loopy] [--seed S]

Vertex i is named "v<i>"; about MOVES moves in all: each vertex gets a
number of moves drawn uniformly from 0 .. 2 * MOVES / VERTICES, so that
some vertices are dead ends.  Without --loopy every move goes to a vertex
of higher number, so the graph is acyclic and has Grundy values; with
--loopy the targets are anywhere.
Lines are printed in reverse order, so that most targets are used before
their own line (forward references are the parser's harder case).
Standard library only; the graph goes to stdout.
"""
import argparse
import random
import sys


def main():
    ap = argparse.ArgumentParser(
        description="Print a large random game graph.")
    ap.add_argument("vertices", type=int)
    ap.add_argument("moves", type=int)
    ap.add_argument("--loopy", action="store_true",
                    help="targets anywhere (cycles), not only higher")
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    nv, ne, loopy, seed = a.vertices, a.moves, a.loopy, a.seed
    if nv < 1 or ne < 0:
        ap.error("at least one vertex, and no negative number of moves")
    rng = random.Random(seed)
    top = 2 * ne // nv
    out = sys.stdout
    write = out.write
    rand = rng.random
    for v in range(nv - 1, -1, -1):
        d = int(rand() * (top + 1))
        if loopy:
            lo, span = 0, nv
        else:
            lo, span = v + 1, nv - v - 1
        if span <= 0:
            d = 0
        targets = " v".join(str(lo + int(rand() * span)) for _ in range(d))
        write("v%d v%s\n" % (v, targets) if d else "v%d\n" % v)


if __name__ == "__main__":
    main()
