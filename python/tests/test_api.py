"""The rest of the module's surface: values as numpy or array.array,
heaps of any size, rule forms, the cache, sweep, verify (a forged
certificate refused), the notebook views (HTML tables, gnuplot figures)
and errors as exceptions with the library's one-line message.  Values
are judged by the command line's JSON or by reduction through the
proven period."""

import shutil
import sys

import pytest

import sgexplore as sg


def test_library_loaded():
    assert sg.library_version()
    assert "libsgexplore" in sg.library_path()


def test_values_numpy_or_array(cli, monkeypatch):
    _, want = cli("0.07", "--values", "0:299")
    v = sg.values("0.07", 0, 300, cache=False)
    assert [int(x) for x in v] == want["values"]
    try:
        import numpy
    except ImportError:
        assert v.typecode == "I"
    else:
        assert isinstance(v, numpy.ndarray) and v.dtype == numpy.uint32
    monkeypatch.setitem(sys.modules, "numpy", None)  # as if not installed
    w = sg.values("0.07", 0, 300, cache=False)
    assert w.typecode == "I" and list(w) == want["values"]


def test_reduction_by_period_for_huge_heaps():
    r = sg.analyse("0.77", cache=False)
    n0, p = r.preperiod, r.period
    vals = r.values
    for n in (10**40, 10**40 + 1, 3**100, 2**200 + 11, n0 + 5 * p):
        assert r.grundy(n) == vals[n0 + (n - n0) % p]
    # the prime game of the seeds: S = {2,3,5,7,11,13}, heap 10^18
    assert sg.grundy("subtract{2,3,5,7,11,13}", 10**18, cache=False) == \
        sg.values("subtract{2,3,5,7,11,13}", 0, 9, cache=False)[10**18 % 9]


def test_arithmetic_periodic_values_past_32_bits():
    # Nim: G(n) = n for every n, however large
    assert sg.grundy("nim", 10**40, cache=False) == 10**40
    assert sg.values("nim", 2**40, 2**40 + 3, cache=False)[2] == 2**40 + 2
    p = sg.position("nim", [10**40, 10**40 + 1], cache=False)
    assert p.nim_sum == 10**40 ^ (10**40 + 1)


def test_forms_agree_with_texts():
    assert sg.Rule("2,3,5", form="subtract").canonical == "subtract{2,3,5}"
    assert sg.Rule("1,3", form="all-but").canonical == "all-but{1,3}"
    assert sg.Rule("", form="grundy").canonical == "4!.0"
    assert sg.Rule("Kayles").canonical == "0.77"
    with pytest.raises(sg.SGError):
        sg.Rule("1,2", form="frobnicate").canonical


def test_unresolved_heap_is_unknown():
    r = sg.analyse("0.6", max=1000, cache=False)
    assert not r.proven
    assert r.grundy(999) == r.values[999]
    with pytest.raises(sg.UnknownError) as e:
        r.grundy(10**6)
    assert e.value.status == "unknown"
    with pytest.raises(sg.UnknownError):
        r.position([1, 10**6])


def test_values_past_the_analysis_are_computed(cli):
    r = sg.analyse("0.6", max=1000, cache=False)
    got = r.values_range(4000, 4100)
    _, want = cli("0.6", "--max", "4100", "--values", "4000:4099")
    assert [int(x) for x in got] == want["values"]


def test_cache_round_trip(tmpdb):
    c = sg.Cache(tmpdb)
    assert c.path == tmpdb
    a = sg.analyse("0.07", cache=c)
    assert a.source == "computed"
    b = sg.analyse("0.07", cache=c)
    assert b.source == "cache" and b.period == a.period == 34
    assert c.drop("0.07") is True
    assert c.drop("0.07") is False
    assert sg.analyse("0.07", cache=c).source == "computed"


def test_sweep_yields_results(cli):
    rules = ["0.77", "0.07", "subtract{1,3,4}"]
    got = list(sg.sweep(rules, cache=False))
    assert [r.rule for r in got] == rules
    for r in got:
        _, want = cli(r.rule)
        assert (r.preperiod, r.period) == (want["preperiod"], want["period"])


@pytest.mark.parametrize("args, params", [
    (["octal", "--digits", "2"], dict(digits=2)),
    (["hex", "--digits", "1", "--prefix", "4."], dict(digits=1, prefix=4)),
    (["subtract", "--size", "2", "--max-element", "7"],
     dict(size=2, max_element=7)),
    (["all-but", "--size", "1-2", "--max-element", "5"],
     dict(size=(1, 2), max_element=5)),
    (["progressions", "--max-element", "4"], dict(max_element=4)),
], ids=lambda x: x[0] if isinstance(x, list) else "")
def test_family_and_sweep_as_the_program(cli, args, params):
    name = args[0]
    texts = sg.family(name, **params)
    canon = [sg.Rule(t).canonical for t in texts]
    _, rows = cli("sweep", *args, "--max", "300", "-j", "1")
    summary = rows[-1]["summary"]
    assert summary["family_rules"] == len(texts)
    assert sorted(r["rule"] for r in rows[:-1]) == sorted(set(canon))
    # one shard of it, analysed here as the program's sweep did
    _, shard = cli("sweep", *args, "--max", "300", "-j", "1",
                   "--shard", "2/3")
    want = {r["rule"]: r for r in shard[:-1]}
    got = {r.rule: r for r in sg.sweep(name, shard="2/3", max=300,
                                       cache=False, **params)}
    assert sorted(got) == sorted(want)
    for rule, r in got.items():
        w = want[rule]
        assert (r.status, r.preperiod, r.period, r.saltus, r.computed) == \
            (w["status"], w["preperiod"], w["period"], w["saltus"],
             w["computed"]), rule


def test_family_bad_parameters():
    with pytest.raises(sg.SGError):
        sg.family("octal", digits=0)
    with pytest.raises(sg.SGError):
        sg.family("frobnicate")
    with pytest.raises(sg.SGError):
        list(sg.sweep("octal", digits=1, shard="4/3"))


def test_note_says_why_unresolved(cli):
    r = sg.analyse("0.6", max=500, cache=False)
    _, want = cli("0.6", "--max", "500")
    assert r.note == want["note"] and r.note
    assert sg.analyse("0.77", cache=False).note is None


def test_verify_accepts_and_refuses():
    r = sg.analyse("0.77", cache=False)
    ok = sg.verify(r)
    assert ok.ok and ok.rule == "0.77" and ok.reason is None
    assert sg.verify(r.certificate).ok
    # a forged claim: the period 12 stated as 24 with a wrong pre-period
    forged = r.certificate.text.replace("preperiod: 71", "preperiod: 60") \
        .replace("proof_start: 71", "proof_start: 60")
    bad = sg.verify(forged)
    assert not bad.ok and bad.reason and "\n" not in bad.reason
    unresolved = sg.analyse("0.6", max=500, cache=False)
    assert not sg.verify(unresolved).ok


def test_result_html_and_dict():
    r = sg.analyse("0.77", cache=False)
    html = r._repr_html_()
    assert html.startswith("<table>") and "guy-smith" not in html
    assert "Guy-Smith" in html and "<code>0.77</code>" in html
    d = r.as_dict()
    assert d["period"] == 12 and len(d["values"]) == 83
    named = sg.analyse(sg.Rule(moves=lambda n: [[n - 1]] if n else [],
                               name="a<b>", version="1"), max=50,
                       cache=False)
    assert "a&lt;b&gt;" in named._repr_html_()
    p = r.position([3, 4])
    assert "winner" in p._repr_html_()


@pytest.mark.skipif(shutil.which("gnuplot") is None, reason="no gnuplot")
def test_plot_svg_and_png():
    r = sg.analyse("0.77", cache=False)
    f = r.plot()
    assert isinstance(f, sg.Figure)
    assert f._repr_svg_().lstrip().startswith(("<?xml", "<svg"))
    assert f._repr_png_() is None
    g = r.plot(0, 100, format="png")
    assert g._repr_png_()[:8] == b"\x89PNG\r\n\x1a\n"
    with pytest.raises(sg.SGError):
        r.plot(format="bmp")


def test_errors_carry_one_line():
    for bad in ("0.8x", "subtract{", "", "moves{"):
        with pytest.raises(sg.SGError) as e:
            sg.analyse(bad, cache=False)
        assert str(e.value) and "\n" not in str(e.value)
    with pytest.raises(TypeError):
        sg.analyse(77)
    with pytest.raises(sg.SGError):
        sg.grundy("0.77", -1, cache=False)


def test_missing_library_is_a_clear_import_error(monkeypatch):
    monkeypatch.setenv("SGEXPLORE_LIB", "/nonexistent/libsgexplore.so.0")
    from sgexplore import _lib
    with pytest.raises(ImportError) as e:
        _lib.load()
    assert "/nonexistent/libsgexplore.so.0" in str(e.value)


def test_threads_each_with_their_own_games():
    # one Rule given by a function analysed by four threads at once, and
    # codes beside them through each thread's own default cache
    import threading

    def moves(n):
        return [[n - k] for k in (1, 2, 7) if k <= n] + \
            ([[1, n - 2]] if n >= 3 else [])
    from brute import grundy_values
    want = grundy_values(moves, 3000)
    rule = sg.Rule(moves=moves)
    kayles = sg.analyse("0.77", cache=False).values.tolist()
    errors, got = [], []

    def work():
        try:
            for _ in range(3):
                r = sg.analyse(rule, max=3000, cache=False)
                got.append(r.values[:3000].tolist() == want)
                got.append(sg.analyse("0.77").values.tolist() == kayles)
        except BaseException as e:  # reported by the main thread
            errors.append(e)
    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    assert len(got) == 24 and all(got)
