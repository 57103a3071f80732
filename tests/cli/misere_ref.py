#!/usr/bin/env python3
# tests/cli/misere_ref.py - the independent judge of tests/cli/misere.sh:
# its own move generator for finite codes (octal digits, and hexadecimal
# ones with CGSuite's constraints ! ? =) and its own exhaustive misère
# search (nothing shared with the library), run against the program's
# answers.  Usage:
#   misere_ref.py positions CODE MAXHEAPS MAXTOTAL   (the positions asked)
#   misere_ref.py check CODE < answers.jsonl          (outcomes and moves)
#   misere_ref.py nim < answers.jsonl                 (the classical rule)
#   misere_ref.py genus CODE N K < report.json        (gamma_0..K-1, heaps < N)
import json
import sys
from functools import lru_cache

sys.setrecursionlimit(100000)


def digits(code):
    """Digit d_k of a finite code written A.BCD..., position 0 before the
    point, as (bits, constraint): bits 1 whole heap, 2 one heap, 4 two
    heaps, 8 three heaps; digits 0-F, each maybe followed by CGSuite's
    constraint on the heaps a split leaves ('!' all different, '?' not all
    equal, '=' all equal)."""
    d = {}
    k = 0
    i = 0
    while i < len(code):
        c = code[i]
        i += 1
        if c == ".":
            k = 1
            continue
        cons = ""
        if i < len(code) and code[i] in "!?=":
            cons = code[i]
            i += 1
        if int(c, 16):
            d[k] = (int(c, 16), cons)
        k += 1
    return d


def allowed(parts, cons):
    """Whether the parts of a split meet the constraint."""
    if cons == "!":
        return len(set(parts)) == len(parts)
    if cons == "?":
        return len(set(parts)) > 1
    if cons == "=":
        return len(set(parts)) == 1
    return True


def heap_options(d, n):
    out = []
    for k, (dig, cons) in d.items():
        rem = n - k
        if rem < 0:
            continue
        if dig & 1 and rem == 0:
            out.append(())
        if dig & 2 and rem >= 1:
            out.append((rem,))
        if dig & 4 and rem >= 2:
            for a in range(1, rem // 2 + 1):
                if allowed((a, rem - a), cons):
                    out.append((a, rem - a))
        if dig & 8 and rem >= 3:
            for a in range(1, rem // 3 + 1):
                for b in range(a, (rem - a) // 2 + 1):
                    if allowed((a, b, rem - a - b), cons):
                        out.append((a, b, rem - a - b))
    return out


def make(code):
    d = digits(code)

    def options(pos):
        """pos: sorted tuple of game heaps; every option, sorted."""
        res = set()
        for i, h in enumerate(pos):
            rest = pos[:i] + pos[i + 1:]
            for parts in heap_options(d, h):
                res.add(tuple(sorted(rest + parts)))
        return res

    @lru_cache(maxsize=None)
    def first_wins(pos):
        opts = options(pos)
        if not opts:
            return True  # misère: the player who cannot move wins
        return any(not first_wins(o) for o in opts)

    @lru_cache(maxsize=None)
    def gminus(pos, ones, twos):
        """Misère Grundy value of pos + ones*(*1) + twos*(*2), the nim
        heaps as components of their own."""
        vals = set()
        for o in options(pos):
            vals.add(gminus(o, ones, twos))
        if ones:
            vals.add(gminus(pos, ones - 1, twos))
        if twos:
            vals.add(gminus(pos, ones + 1, twos - 1))
            vals.add(gminus(pos, ones, twos - 1))
        if not vals:
            return 1
        v = 0
        while v in vals:
            v += 1
        return v

    return d, first_wins, gminus


def positions(maxheaps, maxtotal):
    def rec(prefix, lo, total):
        if prefix:
            yield prefix
        if len(prefix) == maxheaps:
            return
        for h in range(lo, maxtotal - total + 1):
            yield from rec(prefix + [h], h, total + h)
    yield from rec([], 1, 0)


def apply_move(heaps, mv):
    i = mv["heap"]
    assert heaps[i] - int(mv["take"]) == sum(int(x) for x in mv["leaves"])
    return heaps[:i] + heaps[i + 1:] + [int(x) for x in mv["leaves"]]


def check(code, made=None, lines=None, table=None):
    """Outcomes and moves; with `table` (the heaps of the genus table),
    each heap's value too: G-(h) below it, null from it on."""
    d, first_wins, gminus = made or make(code)
    bad = count = 0
    for line in lines if lines is not None else sys.stdin:
        p = json.loads(line)["position"]
        heaps = [int(h["heap"]) for h in p["heaps"]]
        pos = tuple(sorted(h for h in heaps if h))
        want = first_wins(pos)
        got = p["winner"] == "first"
        count += 1
        if table is not None:
            vals = [h["value"] for h in p["heaps"]]
            wantv = [str(gminus((h,) if h else (), 0, 0)) if h < table
                     else None for h in heaps]
            if vals != wantv:
                bad += 1
                print(f"# {code} {heaps}: values {vals}, want {wantv}",
                      file=sys.stderr)
                continue
        if got != want:
            bad += 1
            print(f"# {code} {heaps}: got {p['winner']}", file=sys.stderr)
            continue
        mv = p["move"]
        if want and options_exist(d, pos):
            if mv is None:
                bad += 1
                continue
            left = apply_move(heaps, mv)
            # the move must be legal and leave a second-player win
            parts = tuple(sorted(int(x) for x in mv["leaves"]))
            if parts not in [tuple(sorted(o)) for o in
                             heap_options(d, heaps[mv["heap"]])] or \
                    int(mv["take"]) != heaps[mv["heap"]] - sum(parts):
                bad += 1
                print(f"# {code} {heaps}: illegal move {mv}", file=sys.stderr)
                continue
            if first_wins(tuple(sorted(h for h in left if h))):
                bad += 1
                print(f"# {code} {heaps}: move {mv} loses", file=sys.stderr)
    print(f"{count} {bad}")


def options_exist(d, pos):
    return any(heap_options(d, h) for h in pos)


def nim():
    """The classical rule of misère Nim (Bouton): with every heap at most
    1 the player to move wins iff the number of 1-heaps is even, else iff
    the nim-sum is not 0."""
    bad = count = 0
    for line in sys.stdin:
        p = json.loads(line)["position"]
        heaps = [int(h["heap"]) for h in p["heaps"]]

        def rule(hs):
            x = 0
            for h in hs:
                x ^= h
            if all(h <= 1 for h in hs):
                return sum(hs) % 2 == 0
            return x != 0
        count += 1
        want = rule(heaps)
        if (p["winner"] == "first") != want:
            bad += 1
            print(f"# nim {heaps}: got {p['winner']}", file=sys.stderr)
            continue
        if want and any(heaps):
            mv = p["move"]
            if mv is None or rule(apply_move(heaps, mv)):
                bad += 1
                print(f"# nim {heaps}: bad move {mv}", file=sys.stderr)
    print(f"{count} {bad}")


def expand(text):
    """The exponents of a genus text g^..., alternating past its end."""
    g, _, e = text.partition("^")
    ex = [int(x) for x in e.strip("{}").split(",")] if "{" in e \
        else [int(c) for c in e]
    return int(g), ex


def genus(code, n, k):
    _, _, gminus = make(code)
    rep = json.load(sys.stdin)["misere"]
    bad = 0
    for h in range(n):
        g, ex = expand(rep["genus"][h])
        while len(ex) < k:
            ex.append(ex[-2])
        pos = (h,) if h else ()
        want = [gminus(pos, 0, j) for j in range(k)]
        if ex[:k] != want or rep["values"][h] != want[0]:
            bad += 1
            print(f"# {code} heap {h}: {rep['genus'][h]} vs {want}",
                  file=sys.stderr)
    print(f"{n} {bad}")


if __name__ == "__main__":
    cmd = sys.argv[1]
    if cmd == "positions":
        for p in positions(int(sys.argv[3]), int(sys.argv[4])):
            print(",".join(map(str, p)))
    elif cmd == "check":
        check(sys.argv[2], table=int(sys.argv[3]) if len(sys.argv) > 3
              else None)
    elif cmd == "nim":
        nim()
    elif cmd == "genus":
        genus(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))
