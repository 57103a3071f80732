"""sgexplore: Sprague-Grundy values of impartial heap games, their
proven periods and answers for heaps of any size, from Python.

A thin layer over the C library libsgexplore (ctypes; docs/PYTHON.md):

    >>> import sgexplore as sg
    >>> r = sg.analyse("0.77")              # Kayles
    >>> r.preperiod, r.period, r.theorem
    (71, 12, 'guy-smith')
    >>> sg.grundy("subtract{2,3,5,7,11,13}", 10**18)
    0
"""

from ._lib import SGError, UnknownError
from .game import (Cache, Certificate, Interrupted, Misere, Move, Observed,
                   Position, Quotient, Result, Rule, Verification, analyse,
                   analyze, family, grundy, lib as _clib, misere_analysis as misere,
                   position, sweep, values, verify)
from .display import Figure

__all__ = ["Cache", "Certificate", "Figure", "Interrupted", "Misere", "Move",
           "Observed", "Position", "Quotient", "Result", "Rule", "SGError",
           "UnknownError", "Verification", "analyse", "analyze", "family", "grundy",
           "misere", "position", "sweep", "values", "verify",
           "library_version", "library_path"]

__version__ = "0.1.0"


def library_version():
    """The version of the C library loaded ("0.1.0")."""
    return _clib.sg_library_version().decode()


def library_path():
    """The file the C library was loaded from."""
    return _clib.path
