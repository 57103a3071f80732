#!/usr/bin/env python3
"""check_layers.py - libsg's layers kept: no module uses a symbol that a
module of a later layer defines (src/lib/LAYERS gives the order).

Usage: check_layers.py LAYERS OBJDIR
  LAYERS  the layer file (one folder of src/lib a line, bottom up)
  OBJDIR  the build's src/lib, whose FOLDER/*.o are read with nm

Reads symbols, not sources, so that a call through a macro or an inline
function in a header counts as much as a written one.  Prints one line per
upward use, naming the symbol and both objects, and exits 1; exits 2 when
an object lies in no layer or nm fails.
"""
import os
import subprocess
import sys


def layers_of(path):
    with open(path) as f:
        rows = [l.strip() for l in f if l.strip() and not l.startswith('#')]
    return {name: i for i, name in enumerate(rows)}


def layer_of(rel, layers):
    """The layer of an object: its longest folder prefix in LAYERS."""
    best = None
    for name in layers:
        if rel.startswith(name + '/') and (best is None or len(name) > len(best)):
            best = name
    return best


def symbols(obj):
    out = subprocess.run(['nm', obj], capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit('check_layers: nm failed on %s: %s' % (obj, out.stderr.strip()))
    defined, used = set(), set()
    for line in out.stdout.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[1] in 'TDBRCGSV':
            defined.add(parts[2])
        elif len(parts) == 2 and parts[0] == 'U':
            used.add(parts[1])
    return defined, used


def main():
    if len(sys.argv) != 3:
        sys.exit('usage: check_layers.py LAYERS OBJDIR')
    layers = layers_of(sys.argv[1])
    root = sys.argv[2]
    objs = {}
    for d, _, files in os.walk(root):
        for f in files:
            if f.endswith('.o'):
                rel = os.path.relpath(os.path.join(d, f), root)
                lay = layer_of(rel, layers)
                if lay is None:
                    print('check_layers: %s lies in no layer of %s'
                          % (rel, sys.argv[1]), file=sys.stderr)
                    sys.exit(2)
                objs[rel] = (lay,) + symbols(os.path.join(root, rel))
    if not objs:
        print('check_layers: no object under %s' % root, file=sys.stderr)
        sys.exit(2)
    owner = {}
    for rel, (lay, defined, _) in objs.items():
        for s in defined:
            owner[s] = rel
    bad = 0
    for rel, (lay, _, used) in sorted(objs.items()):
        for s in sorted(used):
            o = owner.get(s)
            if o is None:
                continue
            up = objs[o][0]
            if layers[up] > layers[lay]:
                print('check_layers: %s (layer %s) uses %s of %s (layer %s)'
                      % (rel, lay, s, o, up))
                bad += 1
    if bad:
        print('check_layers: %d upward use%s' % (bad, '' if bad == 1 else 's'))
        sys.exit(1)
    print('check_layers: %d objects in %d layers, every use points down'
          % (len(objs), len(layers)))


main()
