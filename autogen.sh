#!/bin/sh
# autogen.sh - regenerate configure, Makefile.in and build-aux/ from
# configure.ac and Makefile.am.  Run once after cloning, then
# ./configure && make.
set -e
cd "$(dirname "$0")"
if ! autoreconf -fi; then
    echo "autogen.sh: autoreconf failed.  It needs autoconf, automake," \
         "autoconf-archive (AX_* macros) and pkg-config (PKG_* macros);" \
         "on Debian: apt-get install autoconf automake autoconf-archive" \
         "pkg-config" >&2
    exit 1
fi
