"""10^4 analyses of cached rules leave the process's memory flat: the
resident set (from /proc/self/statm) after them is within a bound of
what it was after a warm-up, so no handle, answer or callback leaks."""

import gc
import os

import pytest

import sgexplore as sg

RULES = ["0.77", "0.07", "subtract{2,3,5,7,11,13}", "4.07", "grundy"]


def rss_bytes():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


@pytest.mark.skipif(not os.path.exists("/proc/self/statm"),
                    reason="needs /proc/self/statm")
def test_analyse_10k_cached_is_flat(tmpdb):
    cache = sg.Cache(tmpdb)
    for rule in RULES:
        sg.analyse(rule, max=3000, cache=cache)  # store every rule
    calls = int(os.environ.get("SG_PY_MEMORY_CALLS", 10**4))

    def loop(n):
        for i in range(n):
            r = sg.analyse(RULES[i % len(RULES)], max=3000, cache=cache)
            assert r.source == "cache"
            if r.proven and i % 20 == 0:
                r.grundy(10**40)
                r.position([10**18, 7])

    loop(500)
    gc.collect()
    before = rss_bytes()
    loop(calls)
    gc.collect()
    growth = rss_bytes() - before
    # a leak of one handle's values (168 bytes for Kayles, 3000 for
    # Grundy's game) per call would be over 1.5 MB; allocator noise is
    # well below
    assert growth < 1.5e6, "resident set grew by %d bytes" % growth
