"""The module's answers equal the command line's JSON (`sgexplore RULE
--json`, run here as a subprocess) on 43 rules of every kind: octal and
hexadecimal codes, set rules, CGSuite's `!`, `[..]` and whole notation,
Grundy's game, names and the options' notations; the result's every
key, heaps up to 10^40, positions with their winning moves, and the
misère analysis.  Both sides are the same library, so they must agree
exactly; what a winning move leaves is also checked to be a second
player's win by the values themselves."""

import pytest

import sgexplore as sg

# (rule text, form or None, --max or None)
RULES = [
    ("0.77", None, None), ("0.07", None, None), ("0.137", None, None),
    ("4.07", None, None), ("0.51", None, None), ("0.75", None, None),
    ("0.44", None, None), ("0.31", None, None), ("0.54", None, None),
    ("0.71", None, None), ("0.352", None, None), ("0.15", None, None),
    ("0.16", None, None), ("0.6", None, 3000), ("0.007", None, 3000),
    ("0.37", None, 3000), ("0.8F", None, None), ("0.3F", None, 2000),
    ("0.F", None, None), ("0.B", None, None), ("0.9", None, 2000),
    ("subtract{2,3,5,7,11,13}", None, None), ("subtract{1,3,4}", None, None),
    ("all-but{1,3}", None, None), ("nim", None, None),
    ("subtract{squares}", None, 3000), ("subtract{primes}", None, 3000),
    ("subtract{4+3k}", None, None), ("subtract{proper-divisors}", None, 2000),
    ("all-but{primes}", None, 1500), ("grundy", None, 3000),
    ("0.7!", None, None), ("0.[7]", None, 1000), ("4.[3]", None, None),
    ("0.G", None, 1000), ("0.C?", None, 1000),
    ("moves{4@primes;3@1}", None, 1000), ("kayles", None, None),
    ("2,3,5", "subtract", None), ("1,3", "all-but", None),
    ("0.8F", "hex", None), ("4.37", "octal", None), ("", "grundy", 2000),
]

BIG = [10**40, 10**18 + 7, 2**64 + 5, 12345]
POSITION = [10**40, 10**18 + 3, 7, 12]


def cli_rule_args(text, form):
    if form is None:
        return [text]
    if form == "grundy":
        return ["--grundy"]
    return ["--" + form, text]


def ident(case):
    text, form, _ = case
    return "%s:%s" % (form, text) if form else text


def heap_args(heaps):
    return [a for h in heaps for a in ("--heap", str(h))]


def rule_of(text, form):
    return sg.Rule(text, form=form) if form else sg.Rule(text)


@pytest.fixture(scope="module", params=RULES, ids=ident)
def case(request, cli):
    text, form, maxv = request.param
    args = cli_rule_args(text, form)
    if maxv:
        args += ["--max", str(maxv)]
    k = 1999 if maxv is None else min(maxv, 2000) - 1
    _, first = cli(*args, *heap_args(BIG),
                   "--position", ",".join(map(str, POSITION)))
    _, ranged = cli(*args, "--values", "0:%d" % k)
    r = sg.analyse(rule_of(text, form), max=maxv, cache=False)
    return first, ranged, r, k


def test_result_keys(case):
    cli, _, r, _ = case
    for key in ("rule", "given_as", "family", "status", "preperiod", "period",
                "saltus", "certified_to", "computed"):
        assert getattr(r, key) == cli[key], key
    assert r.theorem_name == cli["theorem"]
    assert r.note == cli["note"]
    assert r.source == "computed"
    if cli["certificate"] is None:
        assert r.certificate is None
    else:
        want = cli["certificate"]
        assert {k: r.certificate[k] for k in want} == want
        assert r.certified_to == want["bound"]
        assert r.certificate["theorem"] == r.theorem
        assert r.certificate["rule"] == r.rule
    if cli["observed"] is None:
        assert r.observed is None
    else:
        o = cli["observed"]
        assert r.observed == (o["preperiod"], o["period"], o["saltus"],
                              o["held_to"])


def test_values(case):
    cli, ranged, r, k = case
    want = [int(v) for v in ranged["values"]]
    assert len(want) == k + 1
    assert [int(v) for v in r.values_range(0, k + 1)] == want
    assert [int(v) for v in sg.values(r, 0, k + 1)] == want
    if r.proven:
        n = len(cli["values"])  # cut after 10,000 (values_truncated)
        assert cli["values_truncated"] == (n < len(r.values))
        assert [int(v) for v in r.values[:n]] == cli["values"]
        # past the values computed, through the proven period
        a = r.computed + 10**6
        assert [r.grundy(n) for n in range(a, a + 5)] == \
            [int(v) for v in sg.values(r, a, a + 5)]
    else:
        assert len(r.values) == r.computed


def test_heaps(case):
    cli, _, r, _ = case
    for h, rec in zip(BIG, cli["heaps"]):
        assert rec["heap"] == str(h)
        if rec["value"] is None:
            with pytest.raises(sg.UnknownError):
                r.grundy(h)
        else:
            assert r.grundy(h) == int(rec["value"])


def test_position(case):
    cli, _, r, _ = case
    want = cli["position"]
    if want["winner"] is None:
        with pytest.raises(sg.UnknownError):
            r.position(POSITION)
        return
    p = r.position(POSITION)
    assert p.heaps == POSITION
    assert p.values == [int(h["value"]) for h in want["heaps"]]
    assert p.nim_sum == int(want["nim_sum"])
    assert p.winner == want["winner"]
    if want["move"] is None:
        assert p.move is None
        return
    m = want["move"]
    assert p.move == (m["heap"], int(m["take"]),
                      [int(x) for x in m["leaves"]])
    # the move is legal in size and leaves a second player's win
    assert sum(p.move.leaves) + p.move.take == POSITION[p.move.heap]
    after = POSITION[:p.move.heap] + p.move.leaves + \
        POSITION[p.move.heap + 1:]
    x = 0
    for h in after:
        x ^= r.grundy(h)
    assert x == 0


MISERE = ["0.77", "0.07", "subtract{1,3,4}", "0.137", "0.51"]


@pytest.mark.parametrize("rule", MISERE)
def test_misere(cli, rule):
    _, want = cli(rule, "--misere", "--position", "3,4,5,9")
    m = sg.misere(rule, 40)
    mw = want["misere"]
    assert m.count == mw["heaps"]
    assert [int(v) for v in m.values] == mw["values"]
    assert m.genus == mw["genus"]
    assert m.tame_to == mw["tame_to"]
    assert m.first_wild == mw["first_wild"]
    p = m.position([3, 4, 5, 9])
    pw = want["position"]
    assert p.winner == pw["winner"]
    assert p.method == pw["method"]
    assert p.nim_sum is None and p.values == [None] * 4
    if pw["move"] is None:
        assert p.move is None
    else:
        assert p.move == (pw["move"]["heap"], int(pw["move"]["take"]),
                          [int(x) for x in pw["move"]["leaves"]])
    assert sg.position(rule, [3, 4, 5, 9], misere=True).winner == p.winner


@pytest.mark.parametrize("rule, heaps", [
    ("0.07", 10), ("0.77", 12),
    # every heap of 3,5,9 is tame: decided by the tame rule, not by the
    # quotient computed beside it
    ("subtract{1,3,4}", 9)])
def test_misere_quotient(cli, rule, heaps):
    _, want = cli(rule, "--misere", "--quotient", "--misere-max",
                  str(heaps + 1), "--position", "3,5,%d" % heaps)
    q = want["quotient"]
    m = sg.misere(rule, heaps + 1)
    got = m.quotient(heaps)
    assert (got.heaps, got.order) == (q["heaps"], q["order"])
    lines = got.text.splitlines()
    assert lines[0] == "heaps %d order %d" % (q["heaps"], q["order"])
    gens = ["%s = heap %s" % (g["name"], g["heap"]) for g in q["generators"]]
    assert [x for x in lines if " = heap " in x] == gens
    assert "P: " + " ".join(q["p_portion"]) in lines
    p = m.position([3, 5, heaps])
    pw = want["position"]
    assert (p.winner, p.method) == (pw["winner"], pw["method"])
    if pw["move"] is not None:
        assert p.move == (pw["move"]["heap"], int(pw["move"]["take"]),
                          [int(x) for x in pw["move"]["leaves"]])
