#!/usr/bin/env python3
"""Print the permutation game as an sgexplore game graph (docs/GRAPHS.md).

Usage: graph_permutation.py P1 P2 ... PN     (or one argument "3,1,2")

Two players take turns removing one number of the sequence; the player whose
removal leaves an increasing sequence wins (the "Permutation Game" problem,
N <= 15).  A state is the set of numbers removed so far; it is named by
the numbers that remain, in order, joined by '.' ("5.3.2.1.4"), and the
start is the whole permutation.

The encoding as a normal-play game: a state whose remaining sequence is
increasing has no moves.  The game stops there and the player who made it
increasing has won; in normal play the player to move at a vertex without
moves loses, which is exactly that.  Every other state moves to each state
with one more number removed.  Only states reachable from the start are
printed (a state is reached only through non-increasing ones), at most 2^N.
So `sgexplore graph FILE --vertex START` is non-zero exactly when the first
player (Alice) wins.  Standard library only; the graph goes to stdout.
"""
import sys


def increasing(seq):
    return all(a < b for a, b in zip(seq, seq[1:]))


def main():
    args = sys.argv[1:]
    if args and args[0] in ("-h", "--help"):
        print(__doc__.strip())
        return
    if len(args) == 1:
        args = args[0].replace(",", " ").split()
    try:
        perm = [int(x) for x in args]
    except ValueError:
        sys.exit("graph_permutation.py: the permutation must be numbers")
    n = len(perm)
    if n < 1 or n > 20 or sorted(perm) != list(range(1, n + 1)):
        sys.exit("graph_permutation.py: give a permutation of 1..N, N <= 20")
    out = sys.stdout
    out.write("# permutation game from %s: states are the numbers left\n"
              % " ".join(map(str, perm)))
    name = lambda mask: ".".join(
        str(perm[i]) for i in range(n) if not mask >> i & 1)
    # masks of removed positions, depth-first from the start; every state
    # gets exactly one line
    seen = {0}
    stack = [0]
    while stack:
        mask = stack.pop()
        left = [perm[i] for i in range(n) if not mask >> i & 1]
        moves = []
        if not increasing(left):
            for i in range(n):
                if not mask >> i & 1:
                    nxt = mask | 1 << i
                    moves.append(name(nxt))
                    if nxt not in seen:
                        seen.add(nxt)
                        stack.append(nxt)
        out.write(" ".join([name(mask)] + moves) + "\n")


if __name__ == "__main__":
    main()
