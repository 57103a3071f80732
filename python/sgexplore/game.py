"""Games, their analyses and the questions asked of them, over the C
library (sgexplore._lib): a thin layer that holds handles, converts
numbers and turns statuses into exceptions.  Every value, proof and
answer comes from libsgexplore; nothing here computes a Grundy value.
"""

import array
import collections
import ctypes
import itertools
import os
import signal
import threading
import weakref

from . import _lib
from ._lib import SGError, check, text, take_string

lib = _lib.load()

U64_MAX = (1 << 64) - 1


class Interrupted(KeyboardInterrupt):
    """Ctrl-C (or a KeyboardInterrupt raised in a progress callback)
    stopped a computation through the library's cancel flag.  `result`
    holds what was computed before it stopped (a correct prefix, stored
    in the cache when one is used); it is a KeyboardInterrupt, so that an
    interrupted script stops as any other would."""

    def __init__(self, result):
        super().__init__("interrupted after %d values" % result.computed)
        self.result = result


# ------------------------------------------------------------------
# Callbacks.  One ctypes callback of each kind serves every game: its
# ctx is a key into a table, so that no game holds a closure over itself
# (a cycle the collector would free late) and 10^4 analyses make no
# 10^4 trampolines.
# ------------------------------------------------------------------

_keys = itertools.count(1)
_runs = {}    # key -> _Run of a game (its cancel flag, user callbacks)
_movers = {}  # key -> _Moves of a rule given by a function


class _Run:
    """What one game's computations share with the callbacks: the cancel
    flag the library polls, the user's progress function, and what the
    callbacks saw (an interrupt, an exception to raise afterwards)."""

    __slots__ = ("cancel", "progress", "interrupted", "exc", "key",
                 "__weakref__")

    def __init__(self):
        self.cancel = ctypes.c_int(0)
        self.progress = None
        self.interrupted = False
        self.exc = None
        self.key = next(_keys)

    def reset(self, progress):
        self.cancel.value = 0
        self.progress = progress
        self.interrupted = False
        self.exc = None

    def interrupt(self, *_):
        self.interrupted = True
        self.cancel.value = 1


def _on_progress(ctx, done, target):
    run = _runs.get(ctx)
    if run is None or run.progress is None:
        return
    try:
        run.progress(done, target)
    except KeyboardInterrupt:
        run.interrupt()
    except BaseException as e:  # raised again once the library returns
        run.exc = e
        run.cancel.value = 1


_PROGRESS = _lib.PROGRESS_FN(_on_progress)


class _Moves:
    """A rule's function and the options of the last heap asked, kept for
    the library's second call when its buffer was too small."""

    __slots__ = ("fn", "last_n", "last", "exc", "interrupted")

    def __init__(self, fn):
        self.fn = fn
        self.last_n = None
        self.last = None
        self.exc = None
        self.interrupted = False


def _flatten(n, options):
    """k, h1..hk per option, as the library's buffer wants it; an option
    is a list (or tuple) of heaps, or a single heap."""
    flat = array.array("Q")
    for opt in options:
        if isinstance(opt, int):
            flat.append(1)
            flat.append(opt)
            continue
        heaps = list(opt)
        flat.append(len(heaps))
        flat.extend(heaps)
    return flat


def _on_moves(ctx, n, buf, cap):
    m = _movers.get(ctx)
    if m is None:
        return -1
    try:
        if m.last_n != n:
            m.last = _flatten(n, m.fn(n))
            m.last_n = n
        flat = m.last
    except KeyboardInterrupt:
        m.interrupted = True
        return -1
    except BaseException as e:  # OverflowError for a negative heap too
        m.exc = e
        return -1
    need = len(flat)
    if need <= cap and need:
        ctypes.memmove(buf, flat.buffer_info()[0], need * 8)
    return need


_MOVES = _lib.MOVES_FN(_on_moves)


# ------------------------------------------------------------------
# Rules
# ------------------------------------------------------------------

class Rule:
    """An impartial heap game.

    Rule("0.77"), Rule("kayles"), Rule("subtract{2,3,5,7,11,13}"): any
    text the command line takes as its RULE argument.
    Rule("2,3,5", form="subtract"): the notation of one of its options
    (form "subtract", "all-but", "octal", "hex", "rule", "grundy").
    Rule(moves=f): any heap game, f(n) listing the options of heap n as
    lists of heaps ([[3], [1, 2], []]: to a heap of 3, to heaps 1 and 2,
    to nothing); a single heap may stand for its one-element list.  Its
    values are cached under name and version only when both are given
    (give a new version when f changes).
    """

    def __init__(self, text=None, *, form=None, moves=None, name=None,
                 version=None):
        if (text is None) == (moves is None):
            if form != "grundy":
                raise TypeError("Rule: give a rule text or moves=, not both")
        if moves is not None and not callable(moves):
            raise TypeError("Rule: moves must be a function of the heap")
        self.text = text
        self.form = form
        self.moves = moves
        self.name = name
        self.version = version
        self._canonical = None

    def __repr__(self):
        if self.moves is not None:
            return "Rule(moves=%r)" % (self.moves,)
        if self.form:
            return "Rule(%r, form=%r)" % (self.text, self.form)
        return "Rule(%r)" % (self.text,)

    def __str__(self):
        return self.canonical

    @property
    def cacheable(self):
        """Whether analyses may use the cache: always for a text, for a
        function only when it has a name and a version."""
        return self.moves is None or (self.name is not None
                                      and self.version is not None)

    @property
    def canonical(self):
        """The one canonical text of the rule ("0.77", "subtract{2,3}",
        "moves{NAME,VERSION}"), the cache's key."""
        if self._canonical is None:
            g = self._new()
            try:
                self._canonical = text(lib.sg_game_rule(g))
            finally:
                lib.sg_game_free(g)
        return self._canonical

    def _new(self, mover_key=0):
        """A new sg_game handle for this rule (the caller frees it); a
        function's calls come with mover_key, its game's entry in
        _movers (0: none, the handle computes nothing)."""
        h = ctypes.c_void_p()
        if self.moves is not None:
            name = self.name if self.name is not None else \
                getattr(self.moves, "__name__", "function")
            version = self.version if self.version is not None else "0"
            st = lib.sg_game_from_moves(ctypes.byref(h), _enc(name),
                                        _enc(version), _MOVES, mover_key)
        elif self.form is not None:
            st = lib.sg_game_new_form(ctypes.byref(h), _enc(self.form),
                                      _enc(self.text or ""))
        else:
            st = lib.sg_game_new(ctypes.byref(h), _enc(self.text))
        check(lib, st)
        return h.value


def _enc(s):
    if not isinstance(s, str):
        raise TypeError("expected a text, got %r" % (s,))
    return s.encode()


def _rule(rule):
    if isinstance(rule, Rule):
        return rule
    if isinstance(rule, str):
        return Rule(rule)
    raise TypeError("a rule is a text such as '0.77' or a sgexplore.Rule, "
                    "not %r" % (rule,))


# ------------------------------------------------------------------
# The cache
# ------------------------------------------------------------------

class Cache:
    """An open cache file (docs/CACHE.md): Cache() the default one
    ($SGEXPLORE_DB, else ~/.cache/sgexplore/cache.db), Cache(path), and
    readonly=True to never create or write it.  Used by one thread at a
    time, as the library's handles are."""

    def __init__(self, path=None, readonly=False):
        h = ctypes.c_void_p()
        check(lib, lib.sg_cache_open(ctypes.byref(h),
                                     None if path is None else _enc(path),
                                     1 if readonly else 0))
        self._h = h.value
        self.path = text(lib.sg_cache_path(self._h))
        self._fin = weakref.finalize(self, lib.sg_cache_close, self._h)

    def close(self):
        self._fin()

    def drop(self, rule):
        """Remove a rule's row; whether there was one."""
        found = ctypes.c_int(0)
        check(lib, lib.sg_cache_drop(self._h, _enc(_rule(rule).canonical),
                                     ctypes.byref(found)))
        return bool(found.value)

    def __repr__(self):
        return "Cache(%r)" % self.path


_local = threading.local()


def _cache_for(cache, rule):
    """The Cache object an analysis uses: the default one of this thread
    for cache=None, none for False or a rule that cannot be cached."""
    if cache is False or not rule.cacheable:
        return None
    if isinstance(cache, Cache):
        return cache
    if cache is None or cache is True:
        key = None
    else:
        key = os.fspath(cache)
    opened = getattr(_local, "caches", None)
    if opened is None:
        opened = _local.caches = {}
    c = opened.get(key)
    if c is None:
        c = opened[key] = Cache(key)
    return c


# ------------------------------------------------------------------
# A game handle and the calls that compute
# ------------------------------------------------------------------

class _Game:
    """An sg_game with what must live as long as it: the rule (and its
    function), the cache and the callbacks' table entry."""

    def __init__(self, rule, cache=None, threads=0):
        self.rule = rule
        # a function's state is the game's, so that one Rule may be
        # analysed by several threads at once
        self.mover = None if rule.moves is None else _Moves(rule.moves)
        self.run = _Run()
        if self.mover is not None:
            _movers[self.run.key] = self.mover
        try:
            self.h = rule._new(self.run.key if self.mover else 0)
        except BaseException:
            _movers.pop(self.run.key, None)
            raise
        _runs[self.run.key] = self.run
        self.cache = cache
        lib.sg_game_set_cancel(self.h, ctypes.byref(self.run.cancel))
        lib.sg_game_set_progress(self.h, _PROGRESS, self.run.key)
        if threads:
            lib.sg_game_set_threads(self.h, threads)
        if cache is not None:
            lib.sg_game_set_cache(self.h, cache._h)
        # the cache and the flag outlive the handle: the finalizer
        # holds them until sg_game_free has run
        weakref.finalize(self, _free_game, self.h, self.run.key, cache,
                         self.run)

    def compute(self, fn, *args, progress=None):
        """Call fn(handle, *args), a computation of the library, with the
        cancel flag down, Ctrl-C raising it, and the callbacks' failures
        raised once it returns."""
        run = self.run
        run.reset(progress)
        mover = self.mover
        if mover is not None:
            mover.exc = None
            mover.interrupted = False
        handler = None
        if (threading.current_thread() is threading.main_thread()
                and signal.getsignal(signal.SIGINT)
                is signal.default_int_handler):
            handler = signal.signal(signal.SIGINT, run.interrupt)
        try:
            st = fn(self.h, *args)
        finally:
            if handler is not None:
                signal.signal(signal.SIGINT, handler)
            if mover is not None:
                mover.last_n = mover.last = None
        if mover is not None and mover.interrupted:
            run.interrupted = True
        if run.exc is not None:
            exc, run.exc = run.exc, None
            raise exc
        if mover is not None and mover.exc is not None and st != _lib.OK:
            exc, mover.exc = mover.exc, None
            raise _lib.error(lib, st) from exc
        if run.interrupted:
            raise Interrupted(Result(self))
        if st == _lib.E_INTERRUPTED:  # a flag raised by someone else
            raise Interrupted(Result(self))
        check(lib, st)


def _free_game(h, key, cache, run):
    lib.sg_game_free(h)
    _runs.pop(key, None)
    _movers.pop(key, None)


def _u64(n, what):
    n = _int(n, what)
    if n > U64_MAX:
        raise SGError("%s %d is past 2^64-1" % (what, n))
    return n


def _int(n, what):
    if isinstance(n, bool) or not isinstance(n, int):
        try:
            n = n.__index__()
        except AttributeError:
            raise TypeError("%s must be an integer, not %r" % (what, n))
    if n < 0:
        raise SGError("%s %d is negative" % (what, n))
    return n


def _new_game(rule, max=None, seconds=None, cache=None, threads=0):
    rule = _rule(rule)
    g = _Game(rule, _cache_for(cache, rule), threads)
    if max is not None or seconds is not None:
        check(lib, lib.sg_game_set_budget(
            g.h, 0 if max is None else _u64(max, "max"),
            0.0 if seconds is None else float(seconds)))
    return g


# ------------------------------------------------------------------
# Results
# ------------------------------------------------------------------

Observed = collections.namedtuple("Observed",
                                  "preperiod period saltus held_to")
Observed.__doc__ = """An unresolved rule's best candidate: seen to hold
up to held_to in the values computed, never proven."""

Move = collections.namedtuple("Move", "heap take leaves")
Move.__doc__ = """A winning move: the index of the heap played, the
tokens taken (None in a game given by a function, whose options are
heaps, not removals) and the heaps left in its place."""


class Certificate(dict):
    """A proof's certificate (docs/CERTIFICATES.md): its fields as a
    dict (theorem, proof_start, proof_period, proof_saltus, bound,
    checksum; numbers as int) and `text`, the file's text."""

    def __init__(self, text):
        super().__init__()
        self.text = text
        for line in text.splitlines():
            key, sep, value = line.partition(":")
            if not sep:
                continue
            value = value.strip()
            self[key.strip()] = int(value) if value.isdigit() else value

    def save(self, path):
        with open(path, "w") as f:
            f.write(self.text)


class Result:
    """The analysis of one rule: what the command line's report says.

    rule, given_as (the form given when a set became another notation, else
    None), family, status ("periodic", "arithmetic-periodic",
    "unresolved"), proven; preperiod, period, saltus (None unless
    proven); theorem (its id), theorem_name, certified_to, certificate
    (a Certificate or None); observed (an Observed or None); note (why
    unresolved); computed (values G(0..computed-1) held), source,
    stopped, method; values.
    Questions: grundy(n), position(heaps), values_range(a, b), plot().
    """

    def __init__(self, game):
        h = game.h
        self._game = game
        self.rule = text(lib.sg_game_rule(h))
        self.family = text(lib.sg_game_family(h))
        self.given_as = text(lib.sg_game_given(h))
        self.status = text(lib.sg_game_status(h))
        self.proven = bool(lib.sg_game_proven(h))
        if self.proven:
            self.preperiod = lib.sg_game_preperiod(h)
            self.period = lib.sg_game_period(h)
            self.saltus = lib.sg_game_saltus(h)
        else:
            self.preperiod = self.period = self.saltus = None
        self.theorem = text(lib.sg_game_theorem(h))
        self.theorem_name = text(lib.sg_game_theorem_name(h))
        cert = text(lib.sg_game_certificate(h))
        self.certificate = Certificate(cert) if cert else None
        self.certified_to = self.certificate.get("bound") if cert else None
        self.computed = lib.sg_game_computed(h)
        self.source = text(lib.sg_game_source(h))
        self.stopped = text(lib.sg_game_stopped(h))
        self.method = text(lib.sg_game_method(h))
        self.note = text(lib.sg_game_note(h))
        o = [ctypes.c_uint64() for _ in range(4)]
        if lib.sg_game_observed(h, *(ctypes.byref(x) for x in o)):
            self.observed = Observed(*(x.value for x in o))
        else:
            self.observed = None
        self._values = None

    @property
    def values(self):
        """G(0..n0+p-1) of a proven rule (every value follows from
        them), else every value computed, G(0..computed-1): a numpy
        array where numpy is installed, else an array.array."""
        if self._values is None:
            if self.proven:
                n = self.preperiod + self.period
            else:
                n = self.computed
            self._values = _values(self._game, 0, n)
        return self._values

    def grundy(self, n):
        """G(n) for a heap of any size: from the values computed, past
        them by the proven period; UnknownError past the values of an
        unresolved rule."""
        return _grundy(self._game, n)

    def position(self, heaps):
        """Who wins the sum of these heaps (any sizes) and a winning
        move: a Position."""
        return _position(self._game, heaps)

    def values_range(self, a, b):
        """G(a..b-1), computed further when the rule is unresolved."""
        return _values_extend(self._game, a, b)

    def verify(self):
        """Check this result's certificate again by the reference
        method: a Verification."""
        if self.certificate is None:
            return Verification(False, self.rule, "no proof to check: "
                                "the period is not proven")
        return verify(self.certificate.text)

    def export_certificate(self, path):
        check(lib, lib.sg_game_export_certificate(self._game.h,
                                                  _enc(os.fspath(path))))

    def plot(self, start=0, stop=None, format="svg"):
        """G(start..stop) drawn by gnuplot, a Figure that Jupyter shows
        (format "svg" or "png"); stop defaults to 4*(n0+p) of a proven
        rule (at least 50), else the values held, at most 10,000 of them
        (a figure of 10^6 points is megabytes of SVG)."""
        from .display import plot_game
        if stop is None:
            if self.proven:
                stop = max(4 * (self.preperiod + self.period), 50)
            else:
                stop = min(self.computed, start + 10000) - 1
        return plot_game(self._game, start, stop, format)

    def as_dict(self):
        """The result's fields as the command line's JSON names them
        (values as a list)."""
        d = {k: getattr(self, k) for k in (
            "rule", "given_as", "family", "source", "status", "preperiod",
            "period", "saltus", "theorem", "certified_to", "computed",
            "note")}
        d["certificate"] = dict(self.certificate) if self.certificate \
            else None
        d["observed"] = self.observed._asdict() if self.observed else None
        d["values"] = [int(v) for v in self.values]
        return d

    def __repr__(self):
        if self.proven:
            s = "%s, preperiod %d, period %d" % (self.status, self.preperiod,
                                                 self.period)
            if self.saltus:
                s += ", saltus %d" % self.saltus
            return "<Result %s: %s (proven: %s)>" % (self.rule, s,
                                                      self.theorem)
        return "<Result %s: unresolved, %d values computed>" % (
            self.rule, self.computed)

    def _repr_html_(self):
        from .display import result_html
        return result_html(self)


class Position:
    """A sum of heaps: heaps, values (their Grundy values, None in
    misère play), nim_sum, winner ("first" or "second"), move (a Move or
    None), method ("nim-sum", or in misère play "tame", "quotient",
    "search")."""

    def __init__(self, a):
        n = lib.sg_answer_heaps(a)
        self.method = text(lib.sg_answer_method(a))
        self.winner = "first" if lib.sg_answer_first_wins(a) else "second"
        vals = [text(lib.sg_answer_value(a, i)) for i in range(n)]
        self.values = [None if v is None else int(v) for v in vals]
        ns = text(lib.sg_answer_nim_sum(a))
        self.nim_sum = None if ns is None else int(ns)
        i = lib.sg_answer_move_heap(a)
        if i < 0:
            self.move = None
        else:
            take = text(lib.sg_answer_move_take(a))  # NULL: a function's
            self.move = Move(i, None if take is None else int(take),
                             [int(text(lib.sg_answer_move_left(a, j)))
                              for j in range(lib.sg_answer_move_nleft(a))])
        self.heaps = None

    def __repr__(self):
        s = "<Position %s: %s player wins" % (self.heaps, self.winner)
        if self.move:
            s += ", move %s" % (tuple(self.move),)
        return s + ">"

    def _repr_html_(self):
        from .display import position_html
        return position_html(self)


def _values(game, a, b):
    """G(a..b-1) from the library's bulk read: numpy's uint32 where
    numpy is installed, else array('I'); values past 32 bits (an
    arithmetic-periodic rule far out) as a list of int."""
    a, b = _int(a, "start"), _int(b, "stop")
    if b < a:
        raise SGError("values: the range %d..%d is empty backwards" % (a, b))
    if b > U64_MAX:
        return [_grundy(game, n) for n in range(a, b)]
    out = _array(b - a)
    if b == a:
        return out
    addr = out.ctypes.data if hasattr(out, "ctypes") else \
        out.buffer_info()[0]
    st = lib.sg_game_values(game.h, a, b, addr)
    if st == _lib.E_INPUT and lib.sg_game_proven(game.h) \
            and lib.sg_game_saltus(game.h):
        return [_grundy(game, n) for n in range(a, b)]
    check(lib, st)
    return out


def _array(n):
    try:
        import numpy
    except ImportError:
        a = array.array("I", bytes(4 * n))
        assert a.itemsize == 4
        return a
    return numpy.empty(n, dtype=numpy.uint32)


def _values_extend(game, a, b, progress=None):
    b = _int(b, "stop")
    if not lib.sg_game_proven(game.h) and b <= U64_MAX \
            and b > lib.sg_game_computed(game.h):
        game.compute(lib.sg_game_extend, b, progress=progress)
    return _values(game, a, b)


def _grundy(game, n):
    out = ctypes.c_void_p()
    check(lib, lib.sg_game_heap(game.h, str(_int(n, "heap")).encode(),
                                ctypes.byref(out)))
    return int(take_string(lib, out))


def _position(game, heaps):
    heaps = [_int(h, "heap") for h in _heaps(heaps)]
    if not heaps:
        raise SGError("position: no heaps")
    texts = (ctypes.c_char_p * len(heaps))(*(str(h).encode()
                                             for h in heaps))
    a = ctypes.c_void_p()
    check(lib, lib.sg_game_position(ctypes.byref(a), game.h, texts,
                                    len(heaps)))
    try:
        p = Position(a.value)
    finally:
        lib.sg_answer_free(a.value)
    p.heaps = heaps
    return p


def _heaps(heaps):
    if isinstance(heaps, int):
        return [heaps]
    if isinstance(heaps, str):
        raise TypeError("position: heaps are integers, not a text")
    return list(heaps)


# ------------------------------------------------------------------
# The module's functions
# ------------------------------------------------------------------

def analyse(rule, *, max=None, seconds=None, cache=None, threads=0,
            progress=None):
    """Analyse a rule as `sgexplore RULE` does: compute values in growing
    rounds until a theorem proves the period or the budget (max values,
    seconds; default: the rule's own) is spent.  rule: a text ("0.77",
    "kayles", "subtract{2,3,5}") or a Rule.  cache: None for the default
    cache file, False for none, a path or a Cache; a rule given by a
    function without name and version is never cached.  progress(done,
    target) is called every few thousand heaps.  Ctrl-C raises
    Interrupted, whose .result holds what was computed."""
    g = _new_game(rule, max, seconds, cache, threads)
    g.compute(lib.sg_game_analyse, progress=progress)
    return Result(g)


analyze = analyse


class _Recent:
    """The games analysed last for the functions that take a rule text
    (grundy, position, values), so that a loop asking many heaps of one
    rule analyses it once."""

    def __init__(self, size=16):
        self.size = size
        self.games = collections.OrderedDict()
        self.lock = threading.Lock()

    def get(self, rule, max, cache):
        rule = _rule(rule)
        # a text is the rule; a function is its Rule object (held here,
        # so its id is not reused while the entry lives)
        what = (rule.text, rule.form) if rule.moves is None else rule
        key = (what, max, cache if cache is None or cache is False
               else id(cache) if isinstance(cache, Cache) else cache,
               threading.get_ident())
        with self.lock:
            g = self.games.get(key)
            if g is not None:
                self.games.move_to_end(key)
                return g
        g = _new_game(rule, max, None, cache)
        g.compute(lib.sg_game_analyse)
        with self.lock:
            self.games[key] = g
            while len(self.games) > self.size:
                self.games.popitem(last=False)
        return g


_recent = _Recent()


def _game_of(rule, max=None, cache=None):
    if isinstance(rule, Result):
        return rule._game
    return _recent.get(rule, max, cache)


def grundy(rule, n, *, max=None, cache=None):
    """G(n) of a heap of any size (a Python int): through the proven
    period, or from the values computed; UnknownError when the rule is
    unresolved and n lies past them (give a larger max)."""
    return _grundy(_game_of(rule, max, cache), n)


def position(rule, heaps, *, max=None, cache=None, misere=False):
    """Who wins the sum of heaps (Python ints of any size) and one
    winning move: a Position.  misere=True: the misère sum (heaps up to
    2^64), decided by the tame rule, the quotient or an exact search."""
    if misere:
        return misere_analysis(rule).position(heaps)
    return _position(_game_of(rule, max, cache), heaps)


def values(rule, a, b, *, cache=None, progress=None):
    """G(a..b-1) (as Python's range(a, b)): a numpy uint32 array where
    numpy is installed, else an array.array('I').  Values past the
    analysis are computed (as the command line's --values)."""
    if isinstance(rule, Result):
        return _values_extend(rule._game, a, b, progress)
    b = _int(b, "stop")
    # a code gets the rule's own budget first (as the command line's
    # --values), which may prove it; a function's values are only
    # computed, so no more than asked
    rule = _rule(rule)
    budget = b if rule.moves is not None and 0 < b <= U64_MAX else None
    g = _game_of(rule, budget, cache)
    return _values_extend(g, a, b, progress)


def family(name, *, size=None, max_element=0, digits=0, prefix=0):
    """The rules of one of `sgexplore sweep`'s families, in its one
    order (docs/SWEEPS.md), as texts: "subtract" and "all-but" (sets of
    `size` numbers, an int or (lo, hi), each at most max_element),
    "octal" and "hex" (`digits` digits after the point, `prefix` 0 or 4
    before it), "progressions" (subtract{a+bk}, a and b at most
    max_element)."""
    args = _family_args(name, size, max_element, digits, prefix)
    count = ctypes.c_uint64()
    check(lib, lib.sg_sweep_count(*args, ctypes.byref(count)))
    out = []
    for i in range(count.value):
        t = ctypes.c_void_p()
        check(lib, lib.sg_sweep_rule(*args, i, ctypes.byref(t)))
        out.append(take_string(lib, t))
    return out


def _family_args(name, size, max_element, digits, prefix):
    if size is None:
        lo = hi = 0
    elif isinstance(size, int):
        lo = hi = size
    else:
        lo, hi = size
    return (_enc(name), _int(lo, "size"), _int(hi, "size"),
            _u64(max_element, "max_element"), _int(digits, "digits"),
            _int(prefix, "prefix"))


def sweep(rules, *, size=None, max_element=0, digits=0, prefix=0,
          shard=None, **options):
    """Analyse rule after rule, yielding each Result as it finishes:
    `rules` is an iterable of texts or Rules, or the name of a family
    (as family(), with its parameters).  shard="K/N" keeps every N-th
    rule from the K-th on, as `sgexplore sweep --shard`; a rule whose
    canonical form came before is analysed once.  Other options as for
    analyse."""
    if isinstance(rules, str):
        rules = family(rules, size=size, max_element=max_element,
                       digits=digits, prefix=prefix)
    k, n = 1, 1
    if shard is not None:
        try:
            k, n = (int(x) for x in str(shard).split("/"))
        except ValueError:
            raise SGError("shard %r: expected K/N" % (shard,))
        if not 1 <= k <= n:
            raise SGError("shard %r: K must be 1..N" % (shard,))
    seen = set()  # equal canonical forms once, as the program's sweep
    for i, rule in enumerate(rules):
        if i % n != k - 1:
            continue
        key = _rule(rule).canonical
        if key in seen:
            continue
        seen.add(key)
        yield analyse(rule, **options)


Verification = collections.namedtuple("Verification", "ok rule reason")
Verification.__doc__ = """A certificate checked: ok, the rule it is about
(canonical text, None when unreadable), and the reason it failed."""


def verify(what, *, max=None, cache=None):
    """Check a proof without trusting the code that found it, as
    `sgexplore verify`: `what` is a certificate's text, a Certificate, a
    Result or a rule (analysed first).  The values are computed again by
    the reference method and every hypothesis checked; a Verification."""
    if isinstance(what, Certificate):
        cert = what.text
    elif isinstance(what, Result):
        return what.verify()
    elif isinstance(what, str) and what.startswith("format:"):
        cert = what
    else:
        return analyse(what, max=max, cache=cache).verify()
    out = ctypes.c_void_p()
    st = lib.sg_certificate_verify(_enc(cert), ctypes.byref(out))
    if st == _lib.OK:
        return Verification(True, take_string(lib, out), None)
    if st == _lib.E_INPUT:
        rule = Certificate(cert).get("rule")
        return Verification(False, rule, text(lib.sg_last_error()))
    check(lib, st)


# ------------------------------------------------------------------
# Misère play
# ------------------------------------------------------------------

class Misere:
    """The misère analysis of heaps 0..count-1 of a rule (docs/MISERE.md):
    values (G-(h)), genus (Conway's genus of each heap, "0^120"),
    tame_to, first_wild (None when every heap is tame); position(heaps),
    quotient(heaps)."""

    def __init__(self, game):
        h = game.h
        self._game = game
        self.rule = text(lib.sg_game_rule(h))
        self.count = lib.sg_game_misere_count(h)
        self.tame_to = lib.sg_game_misere_tame_to(h)
        self.first_wild = self.tame_to if self.tame_to < self.count else None
        out = _array(self.count)
        if self.count:
            addr = out.ctypes.data if hasattr(out, "ctypes") else \
                out.buffer_info()[0]
            check(lib, lib.sg_game_misere_values(h, 0, self.count, addr))
        self.values = out
        self.genus = []
        for i in range(self.count):
            t = ctypes.c_void_p()
            check(lib, lib.sg_game_genus(h, i, ctypes.byref(t)))
            self.genus.append(take_string(lib, t))

    def position(self, heaps, budget=0):
        """Who wins the misère sum of heaps and one winning move."""
        heaps = [_u64(h, "heap") for h in _heaps(heaps)]
        arr = (ctypes.c_uint64 * len(heaps))(*heaps)
        a = ctypes.c_void_p()
        self._game.compute(lambda h: lib.sg_game_misere_position(
            ctypes.byref(a), h, arr, len(heaps), budget))
        try:
            p = Position(a.value)
        finally:
            lib.sg_answer_free(a.value)
        p.heaps = heaps
        return p

    def quotient(self, heaps, max_order=0, budget=0):
        """The misère quotient of the sums of heaps 1..heaps, each step
        proven: a Quotient (heaps, order, text)."""
        self._game.compute(lib.sg_game_quotient, _u64(heaps, "heaps"),
                           max_order, budget)
        h = self._game.h
        return Quotient(lib.sg_game_quotient_heaps(h),
                        lib.sg_game_quotient_order(h),
                        text(lib.sg_game_quotient_text(h)))

    def __repr__(self):
        return "<Misere %s: %d heaps, tame below %d>" % (
            self.rule, self.count, self.tame_to)

    def _repr_html_(self):
        from .display import misere_html
        return misere_html(self)


Quotient = collections.namedtuple("Quotient", "heaps order text")


def misere_analysis(rule, heaps=40, *, budget=0):
    """The genus of heaps 0..heaps-1 computed exactly (within budget
    bytes; 0: 256 MiB), as `sgexplore RULE --misere`: a Misere."""
    g = _new_game(rule, None, None, False)
    g.compute(lib.sg_game_misere, _u64(heaps, "heaps"), budget)
    return Misere(g)
