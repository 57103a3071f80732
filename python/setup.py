"""Build step of the sgexplore package: records where the C library was
installed, so that `import sgexplore` loads that libsgexplore and not
another one found on the system's paths.

The folder is $SGEXPLORE_LIBDIR when set (make install-python sets it
to the configured $(libdir)), else `pkg-config --variable=libdir
sgexplore` (PKG_CONFIG_PATH as the user set it), else nothing is
recorded and the module falls back to ctypes.util.find_library.
"""

import os
import subprocess

from setuptools import setup
from setuptools.command.build_py import build_py


def libdir():
    d = os.environ.get("SGEXPLORE_LIBDIR")
    if d:
        return d
    try:
        out = subprocess.run(["pkg-config", "--variable=libdir", "sgexplore"],
                             capture_output=True, text=True, check=True)
    except (OSError, subprocess.CalledProcessError):
        return None
    return out.stdout.strip() or None


class BuildPy(build_py):
    def run(self):
        super().run()
        d = libdir()
        target = os.path.join(self.build_lib, "sgexplore", "_config.py")
        with open(target, "w") as f:
            f.write('"""Written when the package was built (setup.py)."""\n')
            f.write("LIBDIR = %r\n" % d)


setup(cmdclass={"build_py": BuildPy})
