#!/usr/bin/env python3
"""sets_ref.py - the reference of tests/cli/sets.sh: G(0..N-1) of
subtraction and all-but games over the set expressions the test uses,
written apart from the library (its own sieve, its own members, the mex
over every move straight from the definition).

Usage: sets_ref.py N CASE...   prints, for each CASE, one line of N values
separated by spaces.  A CASE is 'subtract:NAME' or 'all-but:NAME' with NAME
one of the sets below (or 'misere-subtract:NAME', 'misere-all-but:NAME':
the misère values G- of small heaps) (the test passes the same set to sgexplore in its own
grammar).
"""
import collections
import math
import sys


def primes_upto(n):
    """The primes <= n, by the sieve of Eratosthenes."""
    comp = bytearray(n + 1)
    out = []
    for p in range(2, n + 1):
        if not comp[p]:
            out.append(p)
            comp[p * p::p] = b'\x01' * len(comp[p * p::p])
    return out


def members(name, n):
    """The members <= n of a heap-independent set, ascending."""
    if name == 'primes':
        return primes_upto(n)
    if name == 'squares':
        return [k * k for k in range(1, math.isqrt(n) + 1)]
    if name == 'cubes':
        return [k ** 3 for k in range(1, n + 1) if k ** 3 <= n]
    if name == 'triangular':
        return [k * (k + 1) // 2 for k in range(1, n + 1)
                if k * (k + 1) // 2 <= n]
    if name == 'fibonacci':
        out, a, b = [], 1, 2
        while a <= n:
            out.append(a)
            a, b = b, a + b
        return out
    if name == 'powers-of-2':
        return [1 << i for i in range(n.bit_length()) if 1 << i <= n]
    if name in ('powers-of-3', 'powers-of-4'):
        b, out, x = int(name[-1]), [], 1
        while x <= n:
            out.append(x)
            x *= b
        return out
    if name == 'odd':                  # 1,primes\2: 1 and the odd primes
        return [1] + [p for p in primes_upto(n) if p != 2]
    if name == 'one-or-primes':        # 1,primes
        return [1] + primes_upto(n)
    if name == 'three-or-powers-of-2':  # 3,powers-of-2
        return sorted({3} | set(members('powers-of-2', n)))
    if name == 'powers-of-2-but-2':    # powers-of-2\2
        return [k for k in members('powers-of-2', n) if k != 2]
    if name == 'progression-4-3':      # 4+3k
        return list(range(4, n + 1, 3))
    if name == 'squares-or-primes':    # squares,primes
        return sorted(set(members('squares', n)) | set(primes_upto(n)))
    if name == 'primes-but-2':         # primes\2
        return [p for p in primes_upto(n) if p != 2]
    raise SystemExit('sets_ref.py: unknown set %r' % name)


def subtract(name, n):
    """G(0..n-1) of 'take k tokens, k in the set'."""
    g = []
    if name == 'proper-divisors':
        divs = [[] for _ in range(n)]
        for d in range(1, n):
            for m in range(2 * d, n, d):
                divs[m].append(d)
        for h in range(n):
            opts = {g[h - d] for d in divs[h]}
            g.append(mex(opts))
        return g
    if name == 'at-most-half':
        # k = 1 .. floor(h/2): the options are the heaps lo = h - floor(h/2)
        # .. h - 1, a window whose ends never move back; cnt[v] counts the
        # window's heaps of value v, bit v of `present` says cnt[v] > 0
        cnt = [0] * (n + 1)
        present, left, right = 0, 1, 0      # the window holds left..right
        for h in range(n):
            while right < h - 1:
                right += 1
                cnt[g[right]] += 1
                present |= 1 << g[right]
            while left < h - h // 2:
                cnt[g[left]] -= 1
                if cnt[g[left]] == 0:
                    present &= ~(1 << g[left])
                left += 1
            # the least value not present: the lowest zero bit
            g.append(((present + 1) & ~present).bit_length() - 1)
        return g
    if name == 'progression-4-3':
        # k = 4, 7, 10, ...: the options of h are the heaps j <= h - 4
        # with j = h - 4 (mod 3); bit v of seen[r] says that some heap
        # j = r (mod 3) already below the limit has value v
        seen = [0, 0, 0]
        for h in range(n):
            if h >= 4:
                seen[(h - 4) % 3] |= 1 << g[h - 4]
                opts = seen[(h - 4) % 3]
            else:
                opts = 0
            g.append(((opts + 1) & ~opts).bit_length() - 1)
        return g
    ks = members(name, n)
    c = 0
    for h in range(n):
        while c < len(ks) and ks[c] <= h:
            c += 1
        now = ks[:c]
        g.append(mex({g[h - k] for k in now}))
    return g


def allbut(name, n):
    """G(0..n-1) of 'take k >= 1 tokens, k not in the set': value v is an
    option of heap h unless every heap of value v below h is h - s for a
    member s; so count, for the values met at h - s, how many such heaps
    there are, against all the heaps of that value."""
    ks = members(name, n)
    g, count, c = [], [], 0
    for h in range(n):
        while c < len(ks) and ks[c] <= h:
            c += 1
        hit = collections.Counter([g[h - k] for k in ks[:c]])
        # every value below len(count) occurs below h; the options miss v
        # exactly when all its heaps are hit
        missing = [v for v, c in hit.items() if c == count[v]]
        v = min(missing + [len(count)])
        g.append(v)
        if v == len(count):
            count.append(0)
        count[v] += 1
    return g


def takes(name, h):
    """The k a move may take from a heap of h (small h: straight from the
    definitions, for the misère values)."""
    if name == 'proper-divisors':
        return [d for d in range(1, h) if h % d == 0]
    if name == 'at-most-half':
        return list(range(1, h // 2 + 1))
    if name == 'progression-4-3':
        return list(range(4, h + 1, 3))
    return members(name, h)


def misere(kind, name, n):
    """The misère values G-(0..n-1): 1 for a heap with no move (its player
    wins at once: the opponent cannot move), else the mex of the options'
    G-; the options of an all-but game take k >= 1 outside the set."""
    g = []
    for h in range(n):
        ks = takes(name, h)
        if kind == 'misere-all-but':
            ks = [k for k in range(1, h + 1) if k not in set(ks)]
        opts = {g[h - k] for k in ks if k <= h}
        g.append(mex(opts) if opts else 1)
    return g


def mex(s):
    v = 0
    while v in s:
        v += 1
    return v


def main(argv):
    n = int(argv[1])
    for case in argv[2:]:
        kind, name = case.split(':', 1)
        if kind.startswith('misere'):
            g = misere(kind, name, n)
        else:
            g = subtract(name, n) if kind == 'subtract' else allbut(name, n)
        print(' '.join(map(str, g)))


if __name__ == '__main__':
    main(sys.argv)
