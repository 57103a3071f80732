#!/usr/bin/env python3
"""Print the chessboard coin game as an sgexplore game graph (docs/GRAPHS.md).

Usage: graph_chessboard.py [--size N | --rows R --cols C] [--steps LIST]

A coin stands on a square of an R x C board; a move sends it by one of the
steps (dx, dy) to a square still on the board; a player who cannot move
loses.  Several coins form a sum: `sgexplore graph FILE --position
x.y,x.y,...`.  Squares are named "x.y" with 1-based coordinates, x the row
(1..R) and y the column (1..C), as in the "Chessboard Game, Again!" problem.

The default is that problem: a 15 x 15 board and the steps (-2,+1), (-2,-1),
(+1,-2), (-1,-2), written --steps='-2,+1;-2,-1;+1,-2;-1,-2'.  Steps that let
a coin come back make a loopy game: then use `sgexplore graph --loopy`.
Standard library only; the graph goes to stdout.
"""
import argparse
import sys

DEFAULT_STEPS = "-2,+1;-2,-1;+1,-2;-1,-2"


def parse_steps(text):
    """'-2,+1;-2,-1' -> [(-2, 1), (-2, -1)]."""
    steps = []
    for part in text.split(";"):
        part = part.strip()
        if not part:
            continue
        dx, sep, dy = part.partition(",")
        if not sep:
            raise ValueError("a step is 'dx,dy': %r" % part)
        steps.append((int(dx), int(dy)))
    if not steps:
        raise ValueError("no steps given")
    return steps


def main():
    ap = argparse.ArgumentParser(
        description="Print the chessboard coin game as a game graph.")
    ap.add_argument("--size", type=int, default=15,
                    help="board side for a square board (default 15)")
    ap.add_argument("--rows", type=int, help="number of rows (default SIZE)")
    ap.add_argument("--cols", type=int,
                    help="number of columns (default SIZE)")
    ap.add_argument("--steps", default=DEFAULT_STEPS,
                    help="the moves, 'dx,dy;dx,dy;...' (default %(default)s)")
    a = ap.parse_args()
    rows = a.rows if a.rows is not None else a.size
    cols = a.cols if a.cols is not None else a.size
    try:
        steps = parse_steps(a.steps)
    except ValueError as e:
        ap.error(str(e))
    if rows < 1 or cols < 1:
        ap.error("the board needs at least one row and one column")
    out = sys.stdout
    out.write("# chessboard coin game: %d x %d board, steps %s\n"
              % (rows, cols, " ".join("(%+d,%+d)" % s for s in steps)))
    for x in range(1, rows + 1):
        for y in range(1, cols + 1):
            moves = []
            for dx, dy in steps:
                nx, ny = x + dx, y + dy
                if 1 <= nx <= rows and 1 <= ny <= cols:
                    moves.append("%d.%d" % (nx, ny))
            out.write(" ".join(["%d.%d" % (x, y)] + moves) + "\n")


if __name__ == "__main__":
    main()
