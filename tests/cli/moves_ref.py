#!/usr/bin/env python3
"""moves_ref.py - the reference of tests/cli/moves.sh: G(0..N-1) of rules
moves{D@SET;...} straight from their definition, written apart from the
library: a move from a heap of n removes k tokens, k = 0 for an entry @0
or k in SET (for heap n when the set depends on it), and leaves exactly j
non-empty heaps for a bit j of the digit D (a base-32 character or &N;),
with D's constraint on the parts when j >= 2 ('!' pairwise different, '?'
not all equal, '=' all equal); every partition is listed.

Usage: moves_ref.py N SPEC   (SPEC is the inside of moves{...}; the sets
are those this file knows: numbers, ranges a-b, primes, squares,
proper-divisors, at-most-half, and unions of them with ',');
       moves_ref.py misere N SPEC   the misère values G- of heaps 0..N-1.
"""
import sys

DIGITS = "0123456789ABCDEFGHIJKLMNOPQRSTUV"


def digit(text):
    """(mask, constraint) of a digit such as 4, C?, G, &48;."""
    cons = ''
    if text[-1] in '!?=':
        text, cons = text[:-1], text[-1]
    if text.startswith('&'):
        return int(text[1:-1]), cons
    return DIGITS.index(text.upper()), cons


def is_prime(k):
    if k < 2:
        return False
    d = 2
    while d * d <= k:
        if k % d == 0:
            return False
        d += 1
    return True


def in_set(items, k, n):
    """Whether k may be taken from a heap of n."""
    for it in items:
        if it == 'primes' and is_prime(k):
            return True
        if it == 'squares' and int(k ** 0.5 + 0.5) ** 2 == k:
            return True
        if it == 'proper-divisors' and 1 <= k < n and n % k == 0:
            return True
        if it == 'at-most-half' and 1 <= k <= n // 2:
            return True
        if it[0].isdigit():
            lo, _, hi = it.partition('-')
            if int(lo) <= k <= int(hi or lo):
                return True
    return False


def partitions(m, j, lo=1):
    """The partitions of m into j parts >= lo, parts nondecreasing."""
    if j == 1:
        if m >= lo:
            yield (m,)
        return
    for x in range(lo, m // j + 1):
        for rest in partitions(m - x, j - 1, x):
            yield (x,) + rest


def entries_of(spec):
    """The entries (mask, constraint, set items) of a SPEC."""
    entries = []
    for e in spec.split(';'):
        d, where = e.split('@')
        mask, cons = digit(d)
        entries.append((mask, cons, where.split(',')))
    return entries


def values(spec, n):
    """G(0..n-1): the mex of the xors of every option's heaps."""
    entries = entries_of(spec)
    g = []
    for h in range(n):
        seen = set()
        for o in options(entries, h):
            v = 0
            for x in o:
                v ^= g[x]
            seen.add(v)
        v = 0
        while v in seen:
            v += 1
        g.append(v)
    return g


def options(entries, h):
    """Every option of a heap of h: the sorted tuple of heaps left."""
    out = set()
    for mask, cons, items in entries:
        for k in range(h + 1):
            if items == ['0'] and k != 0:
                continue
            if items != ['0'] and (k == 0 or not in_set(items, k, h)):
                continue
            m = h - k
            if mask & 1 and m == 0:
                out.add(())
            if mask & 2 and m >= 1:
                out.add((m,))
            for j in range(2, 63):
                if mask >> j & 1 and j <= m:
                    for p in partitions(m, j):
                        if cons == '!' and len(set(p)) < j:
                            continue
                        if cons == '?' and len(set(p)) == 1:
                            continue
                        if cons == '=' and len(set(p)) > 1:
                            continue
                        out.add(p)
    return out


def misere(spec, n):
    """G-(0..n-1) of single heaps in misère play: 1 for a position with no
    move, else the mex of its options', over sums of heaps (memoised on
    sorted tuples)."""
    entries = entries_of(spec)
    memo = {}
    heap = {}

    def gm(pos):
        if pos in memo:
            return memo[pos]
        seen = set()
        for i, h in enumerate(pos):
            if h not in heap:
                heap[h] = options(entries, h)
            rest = pos[:i] + pos[i + 1:]
            for o in heap[h]:
                seen.add(gm(tuple(sorted(rest + o))))
        v = 0
        while v in seen:
            v += 1
        memo[pos] = v if seen else 1
        return memo[pos]

    return [gm((h,) if h else ()) for h in range(n)]


if __name__ == '__main__':
    if sys.argv[1] == 'misere':
        print(' '.join(map(str, misere(sys.argv[3], int(sys.argv[2])))))
    else:
        print(' '.join(map(str, values(sys.argv[2], int(sys.argv[1])))))
