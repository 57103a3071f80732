#!/usr/bin/env python3
"""Print TWEED positions as a partizan sgexplore game graph (docs/GRAPHS.md).

Usage: graph_tweed.py PILES [PILES ...]      e.g.  graph_tweed.py 2,3 4

TWEED: piles of coins; the even player removes a positive even number of
coins from one pile, the odd player a positive odd number; a player who
cannot move loses.  Left is the even remover, Right the odd remover.  Each
argument is a starting position (pile sizes separated by commas); every
position reachable from them is printed, once.  A position is a multiset of
non-empty piles, named by its sizes in decreasing order joined by '+'
("4+2+1"); the position without piles is "0".  Left's moves are written
"L:name", Right's "R:name".  `sgexplore graph FILE --outcome` gives each
position's outcome class: L when Left (even) wins whoever starts, R for
Right, N when the player moving first wins.  Standard library only.
"""
import sys


def name(piles):
    return "+".join(map(str, piles)) if piles else "0"


def moves(piles):
    """{(target piles, side)}: side 'L' for even removals, 'R' for odd."""
    out = set()
    for i, p in enumerate(piles):
        if i and piles[i - 1] == p:
            continue  # equal piles give the same moves
        for k in range(1, p + 1):
            rest = list(piles[:i] + piles[i + 1:])
            if p > k:
                rest.append(p - k)
            out.add((tuple(sorted(rest, reverse=True)), "R" if k % 2 else "L"))
    return out


def main():
    args = sys.argv[1:]
    if not args or args[0] in ("-h", "--help"):
        print(__doc__.strip())
        sys.exit(0 if args else 2)
    starts = []
    for a in args:
        try:
            piles = [int(x) for x in a.split(",") if x.strip()]
        except ValueError:
            sys.exit("graph_tweed.py: piles are numbers: %r" % a)
        if any(p < 0 for p in piles):
            sys.exit("graph_tweed.py: piles cannot be negative")
        starts.append(tuple(sorted((p for p in piles if p), reverse=True)))
    out = sys.stdout
    out.write("# TWEED from %s: Left removes an even number, "
              "Right an odd one\n"
              % " ".join(name(s) for s in starts))
    seen = set(starts)
    stack = list(dict.fromkeys(starts))
    while stack:
        pos = stack.pop()
        targets = {}
        for nxt, side in sorted(moves(pos)):
            targets.setdefault(nxt, set()).add(side)
            if nxt not in seen:
                seen.add(nxt)
                stack.append(nxt)
        words = [name(pos)]
        for nxt, sides in targets.items():
            # a position both players can reach is a move for both
            words.append(name(nxt) if len(sides) == 2
                         else next(iter(sides)) + ":" + name(nxt))
        out.write(" ".join(words) + "\n")


if __name__ == "__main__":
    main()
