#!/bin/bash
# tests/cli/misere_plot.sh - `sgexplore RULE --misere --plot FILE` (TAP):
# the misère figure.  A stand-in for gnuplot keeps the data file it is
# handed, whose rows are judged against tests/cli/misere_ref.py (its own
# move generator, G(n) as a mex of its own and G-(n) and the genus
# exponents by its own exhaustive misère search, tameness by Conway's
# definition written here): Kayles 0.77 heaps 0..29 and, all tame,
# subtract{1,3,4}, and Kayles again from the cache.  With gnuplot: the
# SVG is well-formed XML with the two series of 30 points each, the title
# names misère play, the wild heaps are ringed (and never for
# subtract{1,3,4}); .png and .pdf have their magic bytes.  A bad extension exits 2 and a missing gnuplot exits 1,
# each with one line.  Runs with $SGEXPLORE and a scratch $TMPDIR.

SG=${SGEXPLORE:-sgexplore}
SRC=${abs_top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
T=$(mktemp -d "${TMPDIR:-/tmp}/misplot.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT

. "$(dirname "$0")/tap.sh"
sg() { "$SG" --no-cache "$@"; }
lines() { wc -l <"$1" | tr -d ' '; }

if ! command -v python3 >/dev/null; then
    echo "1..0 # SKIP python3 is not installed"
    exit 0
fi

find_gnuplot

# --- usage and runtime errors ---------------------------------------------
sg 0.77 --misere --misere-max 30 --plot "$T/k.bmp" >"$T/out" 2>"$T/err"
rc=$?
check "--misere --plot k.bmp exits 2 before analysing" \
    test $rc -eq 2 -a ! -s "$T/out" -a ! -e "$T/k.bmp"
check "... with one line naming the types" \
    eval '[ "$(lines "$T/err")" = 1 ] && grep -q "\.png, \.svg or \.pdf" "$T/err"'
SGEXPLORE_GNUPLOT=/nonexistent sg 0.77 --misere --misere-max 30 --plot "$T/k.png" \
    >"$T/out" 2>"$T/err"
rc=$?
check "--misere --plot without gnuplot exits 1" test $rc -eq 1
check "... with one line naming gnuplot-nox" \
    eval '[ "$(lines "$T/err")" = 1 ] && grep -q gnuplot-nox "$T/err"'
check "... after the misère report" grep -q "^misère" "$T/out"
check "... and leaves no image" test ! -e "$T/k.png"

# --- the data, judged by the reference ------------------------------------
cat >"$T/keep_gp.sh" <<'EOF'
#!/bin/sh
d=$(sed -n "s/^datafile = '\(.*\)'$/\1/p" "$1")
cp "$d" "$KEEP.dat" && cp "$1" "$KEEP.gp" || exit 1
o=$(sed -n "s/^outfile = '\(.*\)'$/\1/p" "$1")
printf 'not an image' >"$o"
EOF
chmod +x "$T/keep_gp.sh"

# judge CODE N: the kept data file has rows n G G- wild genus for heaps
# 0..N-1 as the reference computes them, and the script's tameto is the
# first heap whose genus is not tame (N when none).  Prints the first wild
# heap (or "none").
judge() {
    PYTHONPATH="$SRC/tests/cli" python3 - "$1" "$2" "$T/kept.dat" "$T/kept.gp" <<'PY'
import re, sys
from functools import reduce
from operator import xor
import misere_ref as R
code, n, dat, gp = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
K = 8  # exponents gamma_0..gamma_7 of each heap
d, _, gminus = R.make(code)


def mex(s):
    v = 0
    while v in s:
        v += 1
    return v


# Normal play: G(h) is the mex of the nim-sums of the heaps each move leaves.
G = []
for h in range(n):
    G.append(mex({reduce(xor, (G[x] for x in parts), 0)
                  for parts in R.heap_options(d, h)}))
rows = [l.split() for l in open(dat) if not l.startswith('#')]
if len(rows) != n:
    sys.exit('%d rows, expected %d' % (len(rows), n))
first = None
for h in range(n):
    pos = (h,) if h else ()
    gam = [gminus(pos, 0, j) for j in range(K)]
    g = G[h]
    # Conway: tame genera are g^{g, g^2} (firm) and 0^120, 1^031 (fickle).
    firm = all(gam[k] == (g ^ 2 if k % 2 else g) for k in range(K))
    fickle = g <= 1 and gam[0] == g ^ 1 and \
        all(gam[k] == (g ^ 2 if k % 2 else g) for k in range(1, K))
    wild = not (firm or fickle)
    if first is None and wild:
        first = h
    want = [str(h), str(g), str(gam[0]), str(int(wild))]
    if rows[h][:4] != want:
        sys.exit('heap %d: %s, expected %s' % (h, rows[h], want))
    ex = rows[h][4].strip('"').partition('^')[2]
    ex = [int(x) for x in ex.strip('{}').split(',')] if '{' in ex \
        else [int(c) for c in ex]
    while len(ex) < K:
        ex.append(ex[-2])
    if ex[:K] != gam:
        sys.exit('heap %d: genus %s, expected %s' % (h, rows[h][4], gam))
tameto = int(re.search(r'^tameto = (\d+)$', open(gp).read(), re.M).group(1))
if tameto != (n if first is None else first):
    sys.exit('tameto %d, first wild %s' % (tameto, first))
print('none' if first is None else first)
PY
}
KEEP="$T/kept" SGEXPLORE_GNUPLOT="$T/keep_gp.sh" \
    sg 0.77 --misere --misere-max 30 --plot "$T/k.png" --quiet >"$T/out" 2>"$T/err"
rc=$?
check "0.77 --misere --misere-max 30 --plot: exit 0, the status line" \
    eval '[ $rc = 0 ] && grep -qx "0.77: misère genus of heaps 0..29, first wild heap 5" "$T/out"'
first=$(judge 0.77 30 2>&1)
cp "$T/kept.dat" "$T/kayles.dat"
check "0.77: heaps 0..29 (G, G-, genus, wild) as the reference; heap 5 first wild ($first)" \
    test "$first" = 5
check "... the title names misère play and heap 5" \
    grep -q "^plottitle = '0.77: misère play, heaps 0..29, the first not tame is heap 5'" "$T/kept.gp"
# From the cache (G(n) then comes from the stored genus): the same data.
"$SG" --db "$T/c.db" 0.77 --misere --misere-max 30 --quiet >/dev/null 2>&1
KEEP="$T/kept" SGEXPLORE_GNUPLOT="$T/keep_gp.sh" \
    "$SG" --db "$T/c.db" 0.77 --misere --misere-max 30 --plot "$T/k.png" --json \
    >"$T/out" 2>"$T/err"
check "... drawn from the cache: the same rows" \
    eval 'grep -q "\"source\":\"cache\"" "$T/out" && cmp -s "$T/kept.dat" "$T/kayles.dat"'
KEEP="$T/kept" SGEXPLORE_GNUPLOT="$T/keep_gp.sh" \
    sg --subtract 1,3,4 --misere --misere-max 30 --plot "$T/s.png" --quiet >"$T/out" 2>"$T/err"
# The reference reads octal codes: subtract{1,3,4} is 0.3033 (take 1, 3
# or 4 tokens, leaving the rest as one heap or none).
first=$(judge 0.3033 30 2>&1)
check "subtract{1,3,4}: heaps 0..29 as the reference for 0.3033, all tame ($first)" \
    test "$first" = none
check "... no wild heap in the script (nwild 0, tameto 30)" \
    eval 'grep -qx "nwild = 0" "$T/kept.gp" && grep -qx "tameto = 30" "$T/kept.gp"'

# --- images ---------------------------------------------------------------
# svg_series FILE: "N1 N2 N3 TITLE3": the points of gnuplot's first three
# plot groups (each counts its key sample too) and the third one's title
svg_series() {
    python3 - "$1" <<'PY'
import sys
import xml.etree.ElementTree as ET
ns = '{http://www.w3.org/2000/svg}'
root = ET.parse(sys.argv[1]).getroot()
groups = {g.get('id'): g for g in root.iter(ns + 'g')
          if (g.get('id') or '').startswith('gnuplot_plot_')}
out = []
for k in (1, 2, 3):
    g = groups.get('gnuplot_plot_%d' % k)
    out.append(str(sum(1 for _ in g.iter(ns + 'use'))) if g is not None else '-')
g = groups.get('gnuplot_plot_3')
out.append(''.join(t.text or '' for t in g.iter(ns + 'text')) if g is not None else '')
print(' '.join(out))
PY
}
if [ $have_gp = 1 ]; then
    sg 0.77 --misere --misere-max 30 --plot "$T/k.svg" >"$T/out" 2>"$T/err"
    rc=$?
fi
gp_check "0.77 --misere --misere-max 30 --plot k.svg: exit 0, nothing on stderr" \
    test "$rc" = 0 -a ! -s "$T/err"
gp_check "... a well-formed SVG" \
    python3 -c 'import sys, xml.etree.ElementTree as E; E.parse(sys.argv[1])' "$T/k.svg"
gp_check "... G(n) and G-(n): two series of 30 points (and a key sample)" \
    eval '[ "$(svg_series "$T/k.svg" | cut -d" " -f1,2)" = "31 31" ]'
gp_check "... titled with the rule and misère play" \
    grep -q '0.77: misère play' "$T/k.svg"
gp_check "... the legend names both series" \
    eval 'grep -q ">G(n), normal play<" "$T/k.svg" && grep -q ">G⁻(n), misère play<" "$T/k.svg"'
# Kayles' wild heaps among 0..29: column 4 of the data judged above
nwild=$(awk '!/^#/ && $4 == 1' "$T/kayles.dat" | wc -l)
gp_check "... the $nwild wild heaps ringed, and the shading from heap 5 in the key" \
    eval '[ "$(svg_series "$T/k.svg" | cut -d" " -f3-)" = "$((nwild + 1)) genus not tame ($nwild heaps)" ] && grep -q ">heaps from 5, the first not tame<" "$T/k.svg"'
if [ $have_gp = 1 ]; then
    sg --subtract 1,3,4 --misere --misere-max 30 --plot "$T/s.svg" >"$T/out" 2>"$T/err"
    rc=$?
fi
gp_check "subtract{1,3,4} --misere --plot s.svg: exit 0, well-formed" \
    eval '[ "$rc" = 0 ] && python3 -c "import sys, xml.etree.ElementTree as E; E.parse(sys.argv[1])" "$T/s.svg"'
gp_check "... all tame in the title, no rings, no shading" \
    eval 'grep -q "all tame" "$T/s.svg" && [ "$(svg_series "$T/s.svg" | cut -d" " -f1-3)" = "31 31 0" ] && ! grep -q "not tame" "$T/s.svg"'
if [ $have_gp = 1 ]; then
    sg 0.77 --misere --misere-max 30 --plot "$T/k.png" >/dev/null 2>"$T/err"
    rc_png=$?
    sg 0.77 --misere --misere-max 30 --plot "$T/k.pdf" >/dev/null 2>"$T/err"
    rc_pdf=$?
fi
gp_check "--plot k.png: a PNG" \
    eval '[ "$rc_png" = 0 ] && [ "$(head -c 8 "$T/k.png" | od -An -tx1 | tr -d " \n")" = 89504e470d0a1a0a ]'
gp_check "--plot k.pdf: a PDF" \
    eval '[ "$rc_pdf" = 0 ] && [ "$(head -c 5 "$T/k.pdf")" = "%PDF-" ]'
if [ $have_gp = 1 ]; then
    sg 0.77 --misere --misere-max 12 --positions - --plot "$T/p.svg" \
        >"$T/out" 2>"$T/err" <<<"1,2"
    rc=$?
fi
gp_check "--misere --positions - --plot: the answer, then the figure" \
    eval '[ "$rc" = 0 ] && [ "$(lines "$T/out")" = 1 ] && grep -q "heaps 0..11" "$T/p.svg"'

echo "1..$n"
