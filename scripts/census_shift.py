#!/usr/bin/env python3
"""census_shift.py - is a code's sequence that of a shorter code, shifted?

Usage: census_shift.py [-n N] CODE [CANDIDATE...]

Computes G(0..N-1) (default N = 4096) of CODE and of each CANDIDATE
(default: every census code shorter than CODE: 0.d, 0.dd, 0.ddd and 4.0,
4.d, 4.dd for a four-digit code) with `sgexplore X --no-cache --max N
--values 0:N-1` ($SGEXPLORE, else sgexplore on the PATH), and prints one
line per candidate and shift s from -3 to 3 for which G_CODE(n) =
G_CANDIDATE(n + s) at every n where both are computed:
"CANDIDATE s".  No line: no candidate agrees, so CODE's sequence is no
shorter code's shifted by -3 to 3 (each differs within the first N
values).  An agreement is an observation over those values only.
The last line counts the candidates.  Python 3 standard library only.
"""
import os
import subprocess
import sys


def values(code, n):
    sg = os.environ.get('SGEXPLORE', 'sgexplore')
    out = subprocess.run([sg, code, '--no-cache', '--max', str(n),
                          '--values', '0:%d' % (n - 1), '--quiet'],
                         capture_output=True, text=True, check=True).stdout
    vals = [int(l.split('= ')[1]) for l in out.splitlines()]
    if len(vals) != n:
        sys.exit('census_shift.py: %s: %d values, not %d' % (code, len(vals),
                                                              n))
    return vals


def shorter(code):
    digits = len(code) - 2 + (code[0] == '4')
    out = []
    for k in range(1, digits):
        for i in range(8 ** k):
            d = '%0*o' % (k, i)
            if d[-1] != '0':
                out.append('0.' + d)
    out.append('4.0')
    for k in range(1, digits - 1):
        for i in range(8 ** k):
            d = '%0*o' % (k, i)
            if d[-1] != '0':
                out.append('4.' + d)
    return out


def main(argv):
    n = 4096
    if len(argv) > 2 and argv[1] == '-n':
        n = int(argv[2])
        argv = argv[:1] + argv[3:]
    if len(argv) < 2 or n < 8:
        sys.exit(__doc__.split('\n\n')[1])
    code = argv[1]
    cands = argv[2:] or shorter(code)
    a = values(code, n)
    for c in cands:
        b = values(c, n)
        for s in range(-3, 4):
            if all(a[i] == b[i + s] for i in range(max(0, -s), min(n, n - s))):
                print(c, s)
    print('# %d candidates, G(0..%d), shifts -3..3' % (len(cands), n - 1))


if __name__ == '__main__':
    main(sys.argv)
