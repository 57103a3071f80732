"""What Jupyter shows: results as HTML tables, figures as SVG or PNG.

Text from a rule or a certificate is escaped (html.escape) before it
goes into a page: a rule's canonical text holds braces and `!`, and a
function's name is whatever its author chose.
"""

import html
import os
import tempfile

from . import _lib
from ._lib import check

VALUES_SHOWN = 200


def _row(key, value):
    return "<tr><th style='text-align:left'>%s</th><td style='text-align:" \
        "left'>%s</td></tr>" % (html.escape(key), value)


def _values_text(values, limit=VALUES_SHOWN):
    vals = [str(int(v)) for v in values[:limit]]
    more = len(values) - limit
    s = " ".join(vals)
    if more > 0:
        s += " ... (%d more)" % more
    return html.escape(s)


def result_html(r):
    rows = [_row("rule", "<code>%s</code>" % html.escape(r.rule)),
            _row("family", html.escape(r.family or "")),
            _row("status", html.escape(r.status + (" (proven)" if r.proven
                                                   else "")))]
    if r.proven:
        rows.append(_row("preperiod", str(r.preperiod)))
        rows.append(_row("period", str(r.period)))
        if r.saltus:
            rows.append(_row("saltus", str(r.saltus)))
        rows.append(_row("theorem", html.escape(r.theorem_name or
                                                r.theorem or "")))
        rows.append(_row("certified to", str(r.certified_to)))
    elif r.observed is not None:
        o = r.observed
        rows.append(_row("observed", html.escape(
            "preperiod %d, period %d, saltus %d, held to %d (not proven)"
            % (o.preperiod, o.period, o.saltus, o.held_to))))
    rows.append(_row("computed", "%d values (%s, %s)" % (
        r.computed, html.escape(r.source or ""), html.escape(r.method or ""))))
    if r.proven:
        vals = r.values
        rows.append(_row("preperiod values",
                         _values_text(vals[:r.preperiod])))
        rows.append(_row("period values", _values_text(vals[r.preperiod:])))
    elif r.computed:
        rows.append(_row("values", _values_text(r.values)))
    return "<table>%s</table>" % "".join(rows)


def position_html(p):
    rows = [_row("heaps", html.escape(", ".join(map(str, p.heaps or [])))),
            _row("winner", html.escape(p.winner + " player"))]
    if p.nim_sum is not None:
        rows.insert(1, _row("nim-sum", str(p.nim_sum)))
    if p.move is not None:
        rows.append(_row("winning move", html.escape(
            "heap %d: take %d, leaving %s" % (
                p.move.heap, p.move.take,
                ", ".join(map(str, p.move.leaves)) or "nothing"))))
    rows.append(_row("method", html.escape(p.method or "")))
    return "<table>%s</table>" % "".join(rows)


def misere_html(m):
    rows = [_row("rule", "<code>%s</code>" % html.escape(m.rule)),
            _row("heaps", str(m.count)),
            _row("tame below", str(m.tame_to)),
            _row("misère values", _values_text(m.values)),
            _row("genus", html.escape(" ".join(m.genus[:VALUES_SHOWN])))]
    return "<table>%s</table>" % "".join(rows)


class Figure:
    """An image drawn by gnuplot: `data` (its bytes), `format` ("svg" or
    "png"); Jupyter shows it, save(path) writes it."""

    def __init__(self, data, format):
        self.data = data
        self.format = format

    def save(self, path):
        with open(path, "wb") as f:
            f.write(self.data)

    def _repr_svg_(self):
        return self.data.decode() if self.format == "svg" else None

    def _repr_png_(self):
        return self.data if self.format == "png" else None

    def __repr__(self):
        return "<Figure %s, %d bytes>" % (self.format, len(self.data))


def plot_game(game, start, stop, format):
    from .game import lib, _u64
    if format not in ("svg", "png"):
        raise _lib.SGError("plot: format must be svg or png, not %r"
                           % (format,))
    with tempfile.TemporaryDirectory(prefix="sgexplore-") as d:
        path = os.path.join(d, "figure." + format)
        check(lib, lib.sg_game_plot(game.h, path.encode(),
                                    _u64(start, "start"), _u64(stop, "stop")))
        with open(path, "rb") as f:
            return Figure(f.read(), format)
