"""Shared by the tests of the Python module: the command-line program
the results are compared with, a scratch cache for the whole session,
and the helper that runs the program and reads its JSON.

The module under test is whatever `import sgexplore` finds: the copy
installed into a temporary prefix under `make check-install`
(tests/install/), or python/ with SGEXPLORE_LIB pointing at the build's
library under `make check-python`.  The program is $SGEXPLORE_CLI, else
the build tree's ./sgexplore.
"""

import json
import os
import subprocess
import tempfile

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(os.path.dirname(HERE))

# One scratch cache for the session, before sgexplore opens the default
# one: the tests never touch the user's ~/.cache.
_tmp = tempfile.TemporaryDirectory(prefix="sgexplore-pytest-")
os.environ["SGEXPLORE_DB"] = os.path.join(_tmp.name, "cache.db")


def cli_path():
    p = os.environ.get("SGEXPLORE_CLI") or os.path.join(TOP, "sgexplore")
    return p if os.access(p, os.X_OK) else None


@pytest.fixture(scope="session")
def cli():
    """run(args...) -> (exit status, the JSON record) of `sgexplore ARGS
    --json --no-cache`."""
    path = cli_path()
    if path is None:
        pytest.skip("the sgexplore program is not built (set SGEXPLORE_CLI)")

    def run(*args):
        p = subprocess.run([path, *args, "--json", "--no-cache"],
                           capture_output=True, text=True, timeout=300)
        assert p.returncode in (0, 3), (args, p.returncode, p.stderr)
        if args and args[0] == "sweep":  # JSON Lines, the summary last
            return p.returncode, [json.loads(x) for x in
                                  p.stdout.splitlines()]
        return p.returncode, json.loads(p.stdout)
    return run


@pytest.fixture
def tmpdb(tmp_path):
    return str(tmp_path / "cache.db")
