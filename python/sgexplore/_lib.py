"""The C library libsgexplore, loaded with ctypes, and its prototypes.

Nothing here knows about games: this module finds the shared library,
declares the argument and result types of every function of
sgexplore_api.h that the package calls, and turns a failed status into
an exception carrying the library's one-line message.  The rest of the
package (sgexplore.game) is written against these names only.
"""

import ctypes
import ctypes.util
import glob
import os

# The major version of the ABI this package was written for: the N of
# the SONAME libsgexplore.so.N (docs/API.md, "Versioning").
ABI = 0

# sg_status, as sgexplore_api.h numbers it.
OK, E_INPUT, E_NOMEM, E_IO, E_INTERRUPTED, E_UNKNOWN = range(6)


class SGError(Exception):
    """A failure of the library: its one-line message, and `status`, the
    library's status name ("input", "nomem", "io", "interrupted",
    "unknown")."""

    def __init__(self, message, status="input"):
        super().__init__(message)
        self.status = status


class UnknownError(SGError, LookupError):
    """A question with no proven answer: a heap past the values computed
    of an unresolved rule.  Compute further (a larger `max`) to answer."""


def _candidates():
    """The library files to try, best first: $SGEXPLORE_LIB (a file, so a
    user or a test can always say which), the library of the prefix the
    package was installed with (recorded in _config.py at install time),
    then what ctypes.util.find_library finds on the system's paths."""
    env = os.environ.get("SGEXPLORE_LIB")
    if env:
        yield env
        return
    try:
        from . import _config  # written when the package is installed
        libdir = _config.LIBDIR
    except (ImportError, AttributeError):
        libdir = None
    if libdir:
        exact = os.path.join(libdir, "libsgexplore.so.%d" % ABI)
        if os.path.exists(exact):
            yield exact
        for path in sorted(glob.glob(os.path.join(libdir, "libsgexplore.so*"))):
            yield path
    found = ctypes.util.find_library("sgexplore")
    if found:
        yield found


def load():
    """Load libsgexplore and declare its prototypes; ImportError naming
    every file tried when none loads."""
    tried = []
    for path in _candidates():
        try:
            lib = ctypes.CDLL(path)
        except OSError as e:
            tried.append("%s (%s)" % (path, e))
            continue
        _declare(lib)
        abi = lib.sg_library_abi()
        if abi != ABI:
            tried.append("%s (ABI %d, this package needs %d)" % (path, abi, ABI))
            continue
        lib.path = path
        return lib
    raise ImportError(
        "sgexplore: libsgexplore not found: "
        + ("; ".join(tried) if tried else "nothing recorded at install time, "
           "none on the system's library paths")
        + "; install the C library (make install) or set SGEXPLORE_LIB "
        "to the file libsgexplore.so.%d" % ABI)


c_char_p = ctypes.c_char_p
c_void_p = ctypes.c_void_p
c_int = ctypes.c_int
c_u64 = ctypes.c_uint64
c_size = ctypes.c_size_t
c_double = ctypes.c_double
P_u32 = ctypes.POINTER(ctypes.c_uint32)
P_u64 = ctypes.POINTER(ctypes.c_uint64)
PP_char = ctypes.POINTER(ctypes.c_void_p)  # char **: freed with sg_free

# int64_t (*sg_moves_fn)(void *ctx, uint64_t n, uint64_t *buf, size_t cap)
MOVES_FN = ctypes.CFUNCTYPE(ctypes.c_int64, c_void_p, c_u64, P_u64, c_size)
# void (*sg_game_progress_fn)(void *ctx, uint64_t done, uint64_t target)
PROGRESS_FN = ctypes.CFUNCTYPE(None, c_void_p, c_u64, c_u64)


def _declare(lib):
    """Argument and result types of the functions the package calls:
    without them ctypes would pass 64-bit values as int and lose them."""
    G = c_void_p  # sg_game *
    A = c_void_p  # sg_answer *
    C = c_void_p  # sg_cache *
    PG = ctypes.POINTER(c_void_p)
    protos = {
        "sg_library_version": (c_char_p, []),
        "sg_library_abi": (c_int, []),
        "sg_last_error": (c_char_p, []),
        "sg_status_name": (c_char_p, [c_int]),
        "sg_free": (None, [c_void_p]),
        "sg_game_new": (c_int, [PG, c_char_p]),
        "sg_game_new_form": (c_int, [PG, c_char_p, c_char_p]),
        "sg_game_from_moves": (c_int, [PG, c_char_p, c_char_p, MOVES_FN,
                                       c_void_p]),
        "sg_game_free": (None, [G]),
        "sg_game_rule": (c_char_p, [G]),
        "sg_game_family": (c_char_p, [G]),
        "sg_game_given": (c_char_p, [G]),
        "sg_game_set_budget": (c_int, [G, c_u64, c_double]),
        "sg_game_set_cancel": (None, [G, ctypes.POINTER(c_int)]),
        "sg_game_set_progress": (None, [G, PROGRESS_FN, c_void_p]),
        "sg_game_set_threads": (None, [G, ctypes.c_uint]),
        "sg_game_analyse": (c_int, [G]),
        "sg_game_extend": (c_int, [G, c_u64]),
        "sg_game_status": (c_char_p, [G]),
        "sg_game_proven": (c_int, [G]),
        "sg_game_preperiod": (c_u64, [G]),
        "sg_game_period": (c_u64, [G]),
        "sg_game_saltus": (c_u64, [G]),
        "sg_game_theorem": (c_char_p, [G]),
        "sg_game_theorem_name": (c_char_p, [G]),
        "sg_game_computed": (c_u64, [G]),
        "sg_game_source": (c_char_p, [G]),
        "sg_game_stopped": (c_char_p, [G]),
        "sg_game_method": (c_char_p, [G]),
        "sg_game_observed": (c_int, [G, P_u64, P_u64, P_u64, P_u64]),
        "sg_game_certificate": (c_char_p, [G]),
        "sg_game_export_certificate": (c_int, [G, c_char_p]),
        "sg_game_values": (c_int, [G, c_u64, c_u64, c_void_p]),
        "sg_game_heap": (c_int, [G, c_char_p, PP_char]),
        "sg_game_position": (c_int, [ctypes.POINTER(A), G,
                                     ctypes.POINTER(c_char_p), c_size]),
        "sg_answer_first_wins": (c_int, [A]),
        "sg_answer_method": (c_char_p, [A]),
        "sg_answer_heaps": (c_size, [A]),
        "sg_answer_value": (c_char_p, [A, c_size]),
        "sg_answer_nim_sum": (c_char_p, [A]),
        "sg_answer_move_heap": (ctypes.c_long, [A]),
        "sg_answer_move_take": (c_char_p, [A]),
        "sg_answer_move_nleft": (c_size, [A]),
        "sg_answer_move_left": (c_char_p, [A, c_size]),
        "sg_answer_free": (None, [A]),
        "sg_game_misere": (c_int, [G, c_u64, c_u64]),
        "sg_game_misere_count": (c_u64, [G]),
        "sg_game_misere_tame_to": (c_u64, [G]),
        "sg_game_misere_values": (c_int, [G, c_u64, c_u64, c_void_p]),
        "sg_game_genus": (c_int, [G, c_u64, PP_char]),
        "sg_game_misere_position": (c_int, [ctypes.POINTER(A), G, P_u64,
                                            c_size, c_u64]),
        "sg_game_quotient": (c_int, [G, c_u64, c_u64, c_u64]),
        "sg_game_quotient_heaps": (c_u64, [G]),
        "sg_game_quotient_order": (c_u64, [G]),
        "sg_game_quotient_text": (c_char_p, [G]),
        "sg_certificate_verify": (c_int, [c_char_p, PP_char]),
        "sg_cache_open": (c_int, [ctypes.POINTER(C), c_char_p, ctypes.c_uint]),
        "sg_cache_close": (None, [C]),
        "sg_cache_path": (c_char_p, [C]),
        "sg_game_set_cache": (None, [G, C]),
        "sg_cache_lookup": (c_int, [C, G, ctypes.POINTER(c_int)]),
        "sg_cache_store": (c_int, [C, G]),
        "sg_cache_drop": (c_int, [C, c_char_p, ctypes.POINTER(c_int)]),
        "sg_game_plot": (c_int, [G, c_char_p, c_u64, c_u64]),
        "sg_game_note": (c_char_p, [G]),
        "sg_sweep_count": (c_int, [c_char_p, ctypes.c_uint, ctypes.c_uint,
                                   c_u64, ctypes.c_uint, ctypes.c_uint,
                                   P_u64]),
        "sg_sweep_rule": (c_int, [c_char_p, ctypes.c_uint, ctypes.c_uint,
                                  c_u64, ctypes.c_uint, ctypes.c_uint, c_u64,
                                  PP_char]),
    }
    for name, (restype, argtypes) in protos.items():
        fn = getattr(lib, name)
        fn.restype = restype
        fn.argtypes = argtypes


def take_string(lib, ptr):
    """The text of a malloc'd `char *` output, freed."""
    if not ptr:
        return None
    try:
        return ctypes.string_at(ptr).decode()
    finally:
        lib.sg_free(ptr)


def text(b):
    """A `const char *` result as str (None stays None)."""
    return None if b is None else b.decode()


def error(lib, status):
    """The exception of a failed status, with the library's message."""
    name = text(lib.sg_status_name(status))
    msg = text(lib.sg_last_error()) or name
    if status == E_UNKNOWN:
        return UnknownError(msg, name)
    return SGError(msg, name)


def check(lib, status):
    """Raise the library's error unless status is SG_OK."""
    if status != OK:
        raise error(lib, status)
