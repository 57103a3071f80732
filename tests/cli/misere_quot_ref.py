#!/usr/bin/env python3
# tests/cli/misere_quot_ref.py - the independent judge of the misère
# quotients `sgexplore CODE --misere --quotient --json` prints
# (tests/cli/misere_quot.sh): it reads the presentation as printed
# (generators, relations, P-portion, the word of each heap), reduces words
# with the relations as rewriting rules, and checks
#   - that the words reached from 1 by the generators are exactly `order`
#     normal forms, no two of them indistinguishable in (Q, P);
#   - that for every sum of at most MAXHEAPS heaps (each in 1..heaps) of
#     total at most MAXTOTAL the element's membership of the P-portion
#     is the outcome of misere_ref.py's own exhaustive search.
# Usage: misere_quot_ref.py CODE MAXHEAPS MAXTOTAL [ANSWERS] < report.json
# Prints "CHECKED BAD"; with ANSWERS (the JSON lines of --positions),
# then misere_ref.py check's line for them, with the same search.
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import misere_ref  # noqa: E402  (its move generator and search only)


def parse_word(text, names):
    """'a^2bc' -> exponent tuple over names; '1' -> zeros."""
    e = [0] * len(names)
    if text == "1":
        return tuple(e)
    pos = {n: i for i, n in enumerate(names)}
    for name, exp in re.findall(r"(g\d+|[a-zA-Z])(?:\^(\d+))?\.?", text):
        e[pos[name]] += int(exp) if exp else 1
    return tuple(e)


def main():
    code, maxheaps, maxtotal = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    q = json.load(sys.stdin)["quotient"]
    names = [g["name"] for g in q["generators"]]
    rules = [(parse_word(r["word"], names), parse_word(r["equals"], names))
             for r in q["relations"]]
    bad = checked = 0

    def reduce(w):
        w = list(w)
        changed = True
        while changed:
            changed = False
            for lhs, rhs in rules:
                if all(a >= b for a, b in zip(w, lhs)):
                    w = [a - b + c for a, b, c in zip(w, lhs, rhs)]
                    changed = True
        return tuple(w)

    def mul(u, v):
        return reduce(tuple(a + b for a, b in zip(u, v)))

    one = tuple([0] * len(names))
    gens = [tuple(1 if j == i else 0 for j in range(len(names)))
            for i in range(len(names))]
    elems, todo = {one}, [one]
    while todo:
        u = todo.pop()
        for g in gens:
            v = mul(u, g)
            if v not in elems:
                elems.add(v)
                todo.append(v)
    P = {parse_word(w, names) for w in q["p_portion"]}
    checked += 1
    if len(elems) != q["order"] or not P <= elems:
        bad += 1
        print(f"# {code}: {len(elems)} normal forms, order {q['order']}",
              file=sys.stderr)
    # (Q, P) reduced: Moore refinement over the generators
    el = sorted(elems)
    cls = {u: (u in P) for u in el}
    while True:
        sig = {u: (cls[u],) + tuple(cls[mul(u, g)] for g in gens) for u in el}
        ids = {s: i for i, s in enumerate(sorted(set(sig.values())))}
        new = {u: ids[sig[u]] for u in el}
        if len(set(new.values())) == len(set(cls.values())):
            break
        cls = new
    checked += 1
    if len(set(new.values())) != len(el):
        bad += 1
        print(f"# {code}: (Q, P) not reduced", file=sys.stderr)
    # outcomes of sums against the exhaustive search
    words = [parse_word(w, names) for w in q["heap_words"]]
    made = misere_ref.make(code)
    first_wins = made[1]
    heaps = q["heaps"]
    for pos in misere_ref.positions(maxheaps, maxtotal):
        if any(h > heaps for h in pos):
            continue
        u = one
        for h in pos:
            u = mul(u, words[h])
        checked += 1
        if (u in P) == first_wins(tuple(sorted(pos))):
            bad += 1
            print(f"# {code} {pos}: quotient says {'P' if u in P else 'N'}",
                  file=sys.stderr)
    print(f"{checked} {bad}")
    if len(sys.argv) > 4:
        with open(sys.argv[4]) as f:
            misere_ref.check(code, made, f)


if __name__ == "__main__":
    main()
