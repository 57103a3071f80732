"""Ctrl-C cancels a computation through the library's cancel flag and
keeps what was computed: a KeyboardInterrupt raised in a progress
callback, and a real SIGINT sent by a timer while the library computes.
What was kept is judged by the brute force (a rule given by a function)
or by the command line's values (a code)."""

import os
import signal
import threading

import pytest

import sgexplore as sg
from brute import grundy_values


@pytest.fixture(autouse=True)
def sigint_by_default():
    """Python's own SIGINT handler during each test: a shell that starts
    a job in the background without job control (`cmd &` in a script)
    makes it ignore SIGINT, and Python then installs no handler, so a
    real Ctrl-C would never reach the module."""
    old = signal.getsignal(signal.SIGINT)
    signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, old)


def slow_moves(n):  # three options per heap, nothing to prove
    return [[n - k] for k in (1, 4, 9) if k <= n]


def test_keyboard_interrupt_from_progress():
    calls = []

    def progress(done, target):
        calls.append(done)
        if done >= 20000:
            raise KeyboardInterrupt

    with pytest.raises(sg.Interrupted) as e:
        sg.analyse(sg.Rule(moves=slow_moves), max=10**7, cache=False,
                   progress=progress)
    assert isinstance(e.value, KeyboardInterrupt)
    r = e.value.result
    assert calls and 20000 <= r.computed < 10**7
    assert r.stopped == "interrupted"
    k = min(r.computed, 30000)
    assert [int(v) for v in r.values[:k]] == grundy_values(slow_moves, k)


def test_sigint_timer_cancels_a_code(cli, tmpdb):
    timer = threading.Timer(0.5, os.kill, (os.getpid(), signal.SIGINT))
    timer.start()
    try:
        with pytest.raises(sg.Interrupted) as e:
            sg.analyse("0.6", max=10**9, seconds=120, cache=tmpdb)
    finally:
        timer.cancel()
    r = e.value.result
    assert 0 < r.computed < 10**9
    assert not r.proven
    # the prefix kept is G(0..computed-1), value for value the program's
    k = min(r.computed, 20000)
    _, want = cli("0.6", "--max", str(k), "--values", "0:%d" % (k - 1))
    assert [int(v) for v in r.values[:k]] == want["values"]
    # and it was stored: a later analysis reads it back
    again = sg.analyse("0.6", max=k, cache=tmpdb)
    assert again.source == "cache"
    assert again.computed >= r.computed


def test_sigint_during_a_function_rule():
    timer = threading.Timer(0.3, os.kill, (os.getpid(), signal.SIGINT))
    timer.start()
    try:
        with pytest.raises(sg.Interrupted) as e:
            sg.analyse(sg.Rule(moves=slow_moves), max=10**8, cache=False)
    finally:
        timer.cancel()
    r = e.value.result
    assert 0 < r.computed < 10**8
    k = min(r.computed, 5000)
    assert [int(v) for v in r.values[:k]] == grundy_values(slow_moves, k)


def test_other_exception_from_progress_is_raised():
    def progress(done, target):
        raise ZeroDivisionError("from the callback")

    with pytest.raises(ZeroDivisionError):
        sg.analyse(sg.Rule(moves=slow_moves), max=10**6, cache=False,
                   progress=progress)


def test_default_handler_is_restored():
    sg.analyse("0.77", cache=False)
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
