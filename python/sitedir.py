"""Print the folder `make install-python` installs the module into for
the prefix given as argument: the folder this interpreter searches for
that prefix.  Debian's Python searches /usr/local/lib/python3.X/
dist-packages for the prefix /usr/local (its posix_local scheme, which
pip's --prefix would turn into PREFIX/local/...); any other prefix gets
the standard PREFIX/lib/python3.X/site-packages, which PYTHONPATH
names."""

import sys
import sysconfig

prefix = sys.argv[1].rstrip("/") or "/"
if (prefix == "/usr/local"
        and "posix_local" in sysconfig.get_scheme_names()):
    path = sysconfig.get_path("purelib", "posix_local",
                              vars={"base": "/usr", "platbase": "/usr"})
else:
    path = sysconfig.get_path("purelib", "posix_prefix",
                              vars={"base": prefix, "platbase": prefix})
print(path)
