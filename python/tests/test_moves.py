"""Rules given by a Python function (sg.Rule(moves=...)) against the
tests' own brute force (brute.py: the mex of the options' xors) over
G(0..2000) of ten invented games, and the errors such a function can
cause: each names the heap n and keeps the values before it."""

import pytest

import sgexplore as sg
from brute import grundy_values

N = 2001


def primes_upto(n):
    sieve = bytearray([1]) * (n + 1)
    sieve[0:2] = b"\0\0"
    for i in range(2, int(n ** 0.5) + 1):
        if sieve[i]:
            sieve[i * i::i] = bytearray(len(sieve[i * i::i]))
    return [i for i in range(n + 1) if sieve[i]]


PRIMES = primes_upto(N)


def take_1_2_5(n):  # a subtraction game, heaps as bare ints
    return [n - k for k in (1, 2, 5) if k <= n]


def split_unequal_after_one(n):  # remove one, split off 1..40 unequally
    return [[a, n - 1 - a] for a in range(1, 41) if a < n - 1 - a]


def halve_or_third(n):  # to n//2 or n//3 (heap 0 and 1 stay put)
    return [[n // 2], [n // 3]] if n >= 2 else []


def take_a_divisor(n):  # remove a divisor d of n, d < n (the aliquot game)
    return [[n - d] for d in range(1, n) if n % d == 0] if n > 1 else []


def take_a_digit(n):  # remove one of n's non-zero decimal digits
    return [[n - int(c)] for c in set(str(n)) if c != "0"] if n else []


def take_a_bit(n):  # clear one set bit of n, or move to nothing at 2^k
    opts = [[n ^ (1 << i)] for i in range(n.bit_length()) if n >> i & 1]
    if n and n & (n - 1) == 0:
        opts.append([])
    return opts


def three_heaps(n):  # leave three heaps (two small, the rest), or take 2
    opts = [[1, 1, n - 3]] if n >= 4 else []
    if n >= 6:
        opts.append([1, 2, n - 4])
        opts.append([n // 3, n // 3, n - 2 * (n // 3) - 1])
    if n >= 2:
        opts.append([n - 2])
    return opts


def take_a_prime(n):  # any prime up to n; taking all of it leaves nothing
    out = []
    for p in PRIMES:
        if p > n:
            break
        out.append([n - p] if p < n else [])
    return out


def twins_or_one(n):  # two equal heaps (xor 0) or remove one token
    opts = [[n - 1]] if n else []
    if n >= 3:
        opts.append([(n - 1) // 2, (n - 1) // 2])
    return opts


def empty_at_squares(n):  # heap 0 has a move to nothing; take 1 or 3
    opts = [[n - k] for k in (1, 3) if k <= n]
    r = int(n ** 0.5)
    if r * r == n:
        opts.append([])
    return opts


GAMES = [take_1_2_5, split_unequal_after_one, halve_or_third,
         take_a_divisor, take_a_digit, take_a_bit, three_heaps, take_a_prime,
         twins_or_one, empty_at_squares]


@pytest.mark.parametrize("fn", GAMES, ids=lambda f: f.__name__)
def test_against_brute_force(fn):
    want = grundy_values(fn, N)
    r = sg.analyse(sg.Rule(moves=fn), max=N, cache=False)
    assert r.family == "moves"
    assert not r.proven and r.theorem is None and r.certificate is None
    assert r.computed >= N
    assert [int(v) for v in r.values[:N]] == want
    assert [int(v) for v in sg.values(r, 0, N)] == want
    assert r.grundy(N - 1) == want[N - 1]
    # a position and its winning move, judged by the brute force too
    heaps = [N - 1, 17, 1000]
    p = r.position(heaps)
    x = want[heaps[0]] ^ want[heaps[1]] ^ want[heaps[2]]
    assert p.nim_sum == x
    assert p.winner == ("first" if x else "second")
    if x:
        after = heaps[:p.move.heap] + p.move.leaves + heaps[p.move.heap + 1:]
        y = 0
        for h in after:
            y ^= want[h]
        assert y == 0
        assert sorted(p.move.leaves) in [sorted([o] if isinstance(o, int)
                                                else o)
                                         for o in fn(heaps[p.move.heap])]


def test_named_rule_is_cached(tmpdb):
    rule = sg.Rule(moves=take_1_2_5, name="take125", version="1")
    assert rule.canonical == "moves{take125,1}"
    first = sg.analyse(rule, max=500, cache=tmpdb)
    assert first.source == "computed"
    again = sg.analyse(rule, max=500, cache=tmpdb)
    assert again.source == "cache"
    assert list(again.values[:500]) == list(first.values[:500])
    # a new version is another rule: computed again, not read back
    other = sg.analyse(sg.Rule(moves=take_1_2_5, name="take125",
                               version="2"), max=500, cache=tmpdb)
    assert other.source == "computed"


def test_heap_not_smaller_names_n():
    def bad(n):
        if n == 0:
            return []
        return [[n - 1]] if n < 37 else [[n]]
    with pytest.raises(sg.SGError) as e:
        sg.analyse(sg.Rule(moves=bad), max=100, cache=False)
    assert "37" in str(e.value)
    assert "\n" not in str(e.value)


def test_raising_function_names_n():
    def bad(n):
        if n == 50:
            raise ValueError("no options for fifty")
        return [[n - 1]] if n else []
    with pytest.raises(sg.SGError) as e:
        sg.analyse(sg.Rule(moves=bad), max=100, cache=False)
    assert "50" in str(e.value)
    assert isinstance(e.value.__cause__, ValueError)


def test_negative_heap_is_an_error():
    with pytest.raises(sg.SGError) as e:
        sg.analyse(sg.Rule(moves=lambda n: [[-1]] if n == 3 else []),
                   max=10, cache=False)
    assert "3" in str(e.value)


def test_bad_rule_text():
    with pytest.raises(sg.SGError) as e:
        sg.analyse("0.7x", cache=False)
    assert e.value.status == "input"
    assert str(e.value) and "\n" not in str(e.value)
