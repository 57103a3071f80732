#!/bin/bash
# tests/cli/plot.sh - `sgexplore plot` and `--plot` seen from the command
# line (TAP): exit statuses; a missing gnuplot gives one line naming the
# package and exit 1 while analyses without a plot still work; an output in
# a missing directory is a clear error with nothing on stdout; images of
# each type are valid files; titles keep their underscores; far from 0
# (10^18, 10^12) the x axis is an offset named in its label, with small
# whole-number ticks; counts are ticked in whole numbers; gnuplot's own
# errors are passed on; the rings are the rare heaps of the report's sparse
# space (0.106: with the heap's parity; Kayles: a plain mask).  Checks that need gnuplot are skipped without it.
# Runs with $SGEXPLORE (the built program) and a scratch $TMPDIR.

SG=${SGEXPLORE:-sgexplore}
T=$(mktemp -d "${TMPDIR:-/tmp}/plot.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT
export SGEXPLORE_DB="$T/my_test_cache.db"

. "$(dirname "$0")/tap.sh"
lines() { wc -l <"$1" | tr -d ' '; }

find_gnuplot

# File types: the PNG signature and the size in its IHDR chunk, the SVG
# root element, the PDF header.
is_png() { [ "$(head -c 8 "$1" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ]; }
png_size() { # "WIDTH HEIGHT"
    od -An -tu1 -j16 -N8 "$1" |
        awk '{ printf "%d %d", $1*16777216+$2*65536+$3*256+$4, $5*16777216+$6*65536+$7*256+$8 }'
}
is_png_of() { is_png "$1" && [ "$(png_size "$1")" = "$2" ]; }
is_svg() { grep -q '<svg' "$1" && tail -c 20 "$1" | grep -q '</svg>'; }
is_pdf() { [ "$(head -c 5 "$1")" = "%PDF-" ]; }
# quiet_ok RC: exit status 0 and nothing on stdout or stderr
quiet_ok() { [ "$1" -eq 0 ] && [ ! -s "$T/out" ] && [ ! -s "$T/err" ]; }

# --- usage errors: exit 2, nothing drawn ----------------------------------
"$SG" plot 0.77 -o "$T/k.txt" >"$T/out" 2>"$T/err"; rc=$?
check "an unknown extension exits 2" test $rc -eq 2
check "... naming the accepted types" grep -q '\.png, \.svg or \.pdf' "$T/err"
check "... and creates no file" test ! -e "$T/k.txt"
"$SG" plot 0.77 >/dev/null 2>"$T/err"; rc=$?
check "no -o exits 2" test $rc -eq 2
"$SG" plot 0.7x -o "$T/k.png" >/dev/null 2>"$T/err"; rc=$?
check "a bad rule exits 2" test $rc -eq 2
"$SG" plot 0.77 -o "$T/k.png" --range 9:3 >/dev/null 2>"$T/err"; rc=$?
check "a reversed --range exits 2" test $rc -eq 2
"$SG" plot --cache --family nope -o "$T/c.png" >/dev/null 2>"$T/err"; rc=$?
check "an unknown --family exits 2" test $rc -eq 2
"$SG" --octal 0.77 --plot "$T/k.bmp" >"$T/out" 2>"$T/err"; rc=$?
check "--plot with an unknown extension exits 2 before analysing" \
    test $rc -eq 2 -a ! -s "$T/out"

# --- no gnuplot -----------------------------------------------------------
SGEXPLORE_GNUPLOT=/nonexistent "$SG" plot 0.77 -o "$T/k.png" >"$T/out" 2>"$T/err"; rc=$?
check "missing gnuplot exits 1" test $rc -eq 1
check "... with one line on stderr" test "$(lines "$T/err")" -eq 1
check "... naming gnuplot-nox" grep -q 'gnuplot-nox' "$T/err"
check "... nothing on stdout" test ! -s "$T/out"
check "... and no image file" test ! -e "$T/k.png"
SGEXPLORE_GNUPLOT=/nonexistent "$SG" --octal 0.77 >"$T/out" 2>"$T/err"; rc=$?
check "an analysis without --plot does not need gnuplot" \
    test $rc -eq 0 -a ! -s "$T/err"
SGEXPLORE_GNUPLOT=/nonexistent "$SG" --octal 0.77 --plot "$T/k.png" >"$T/out" 2>"$T/err"; rc=$?
report_then_error() {
    [ "$1" -eq 1 ] && grep -qx "period: 12" "$T/out" &&
        [ "$(lines "$T/err")" -eq 1 ] && grep -q gnuplot-nox "$T/err"
}
check "--plot without gnuplot: report printed, one error line, exit 1" \
    report_then_error $rc

# --- output in a missing directory: clear error, nothing on stdout --------
"$SG" plot 0.77 -o "$T/nodir/k.png" >"$T/out" 2>"$T/err"; rc=$?
check "an output in a missing directory exits 2 (the rule of every path)" \
    test $rc -eq 2
check "... saying in one line which folder is missing" \
    bash -c '[ $(wc -l <"$1") = 1 ] && grep -q "the folder '"'"'$2'"'"' does not exist" "$1"' _ "$T/err" "$T/nodir"
check "... nothing on stdout" test ! -s "$T/out"
check "... and creates nothing" test ! -e "$T/nodir"
"$SG" --octal 0.77 --plot "$T/nodir/k.png" --quiet --heap 5 >"$T/out" 2>"$T/err"; rc=$?
check "--plot into a missing directory: exit 2 before any answer" \
    test $rc -eq 2 -a ! -s "$T/out"

# --- images ---------------------------------------------------------------
if [ $have_gp = 1 ]; then
    "$SG" plot 0.77 -o "$T/k.png" >"$T/out" 2>"$T/err"; rc=$?
fi
gp_check "plot 0.77 -o k.png exits 0 with nothing on stdout or stderr" \
    quiet_ok "$rc"
gp_check "k.png is a PNG of 960 x 540" is_png_of "$T/k.png" "960 540"
if [ $have_gp = 1 ]; then
    "$SG" plot 'subtract{1,3,4}' -o "$T/s.svg" >"$T/out" 2>"$T/err"; rc=$?
fi
gp_check "plot 'subtract{1,3,4}' -o s.svg exits 0 quietly" quiet_ok "$rc"
gp_check "... and gives an SVG" is_svg "$T/s.svg"
gp_check "... whose title keeps the braces of subtract{1,3,4}" \
    grep -q 'subtract{1,3,4}: period 7' "$T/s.svg"
if [ $have_gp = 1 ]; then
    "$SG" plot grundy -o "$T/g.pdf" --max 2000 --range 100:1999 >"$T/out" 2>"$T/err"; rc=$?
fi
gp_check "plot grundy -o g.pdf --range 100:1999 exits 0 quietly" \
    quiet_ok "$rc"
gp_check "... and gives a PDF" is_pdf "$T/g.pdf"
if [ $have_gp = 1 ]; then
    "$SG" --octal 0.07 --plot "$T/d.png" >"$T/out" 2>"$T/err"; rc=$?
fi
report_and_png() {
    [ "$1" -eq 0 ] && grep -qx "period: 34" "$T/out" && is_png "$T/d.png"
}
gp_check "--octal 0.07 --plot d.png: the report, then a PNG" \
    report_and_png "$rc"
if [ $have_gp = 1 ]; then
    start=$(date +%s)
    "$SG" plot 0.77 --range 0:100000000 -o "$T/big.png" >"$T/out" 2>"$T/err"; rc=$?
    secs=$(( $(date +%s) - start ))
fi
gp_check "10^8 values are drawn quickly (thinned)" \
    test "$rc" -eq 0 -a "${secs:-99}" -lt 20

# --- far from 0: an offset axis with small exact ticks ---------------------
# svg_texts FILE: the text of every <text> element, one per line
svg_texts() { sed -n 's/.*<text[^>]*>\([^<]*\)<\/text>.*/\1/p' "$1"; }
# small_ticks FILE: every number drawn is a whole number of at most 3
# digits (offsets 0..100, values 0..8), none like 1e+18
small_ticks() {
    local nums
    nums=$(svg_texts "$1" | sed 's/^ *//; s/ *$//' | grep -E '^[-0-9.e+]+$')
    [ -n "$nums" ] && ! grep -qvE '^[0-9]{1,3}$' <<<"$nums"
}
# ticks_cover FILE A B: the x ticks include A and B
ticks_cover() { svg_texts "$1" | grep -qx " *$2" && svg_texts "$1" | grep -qx " *$3"; }
far18=1000000000000000000
if [ $have_gp = 1 ]; then
    "$SG" plot 0.77 --range $far18:$((far18 + 100)) -o "$T/f18.svg" >"$T/out" 2>"$T/err"; rc=$?
fi
gp_check "plot 0.77 --range 10^18:10^18+100 -o f18.svg exits 0 quietly" \
    quiet_ok "$rc"
gp_check "... and gives an SVG" is_svg "$T/f18.svg"
gp_check "... whose x axis label names the offset: n − 10^18" \
    grep -q '>n − 10^18 (heap size n)<' "$T/f18.svg"
gp_check "... whose tick labels are small whole numbers (no 1e+18)" \
    small_ticks "$T/f18.svg"
gp_check "... running from 0 to 100" ticks_cover "$T/f18.svg" 0 100
if [ $have_gp = 1 ]; then
    "$SG" plot 0.77 --range 1000000000000:1000000000100 -o "$T/f12.png" >"$T/out" 2>"$T/err"; rc=$?
fi
gp_check "plot 0.77 --range 10^12:10^12+100 -o f12.png exits 0 quietly" \
    quiet_ok "$rc"
gp_check "... and gives a PNG of 960 x 540" is_png_of "$T/f12.png" "960 540"
if [ $have_gp = 1 ]; then
    "$SG" plot 0.77 --range 1000000000000:1000000000100 -o "$T/f12.svg" >"$T/out" 2>"$T/err"; rc=$?
fi
gp_check "... as SVG: the label names n − 10^12, the ticks are small" \
    eval 'grep -q ">n − 10^12 (heap size n)<" "$T/f12.svg" && small_ticks "$T/f12.svg"'
if [ $have_gp = 1 ]; then
    "$SG" plot 0.77 --range 0:100 -o "$T/near.svg" >"$T/out" 2>"$T/err"; rc=$?
fi
gp_check "near 0 the axis stays n (heap size), ticks 0 to 100" \
    eval 'grep -q ">n (heap size)<" "$T/near.svg" && ticks_cover "$T/near.svg" 0 100'

# --- the cache figure: underscores in the title stay ----------------------
"$SG" --subtract 1,2 >/dev/null && "$SG" --octal 0.77 >/dev/null &&
    "$SG" --octal 0.16 --max 500 >/dev/null
if [ $have_gp = 1 ]; then
    "$SG" plot --cache -o "$T/c.svg" >"$T/out" 2>"$T/err"; rc=$?
fi
gp_check "plot --cache -o c.svg exits 0 quietly" quiet_ok "$rc"
gp_check "... and gives an SVG" is_svg "$T/c.svg"
gp_check "... the title names my_test_cache.db, underscores intact" \
    grep -q 'cached rules in my_test_cache.db' "$T/c.svg"
# whole_ticks FILE: every number drawn is a whole number (no 0.5 rules),
# except the names of octal rules on their points (0.07: two digits or more
# after the point; fractional ticks would include one such as 0.5 or 1.5)
whole_ticks() {
    local nums
    nums=$(svg_texts "$1" | sed 's/^ *//; s/ *$//' | grep -vE '^0\.[0-7]{2,}$' |
        grep -E '^[-0-9.e+^]+$')
    [ -n "$nums" ] && ! grep -qvE '^([0-9]+|10\^[0-9]+)$' <<<"$nums"
}
gp_check "... its ticks are whole numbers (counts, periods, pre-periods)" \
    whole_ticks "$T/c.svg"
if [ $have_gp = 1 ]; then
    "$SG" plot --cache --family octal -o "$T/c.pdf" >"$T/out" 2>"$T/err"; rc=$?
fi
gp_check "plot --cache --family octal -o c.pdf exits 0 quietly" \
    quiet_ok "$rc"
gp_check "... and gives a PDF" is_pdf "$T/c.pdf"

# --- gnuplot's own errors are passed on -----------------------------------
printf 'set terminal @terminal\nset output outfile\nplot no_such_thing\n' >"$T/my_template.gp"
if [ $have_gp = 1 ]; then
    "$SG" plot 0.77 -o "$T/t.png" --template "$T/my_template.gp" >"$T/out" 2>"$T/err"; rc=$?
fi
gp_check "a failing template exits 1 with one line" \
    test "$rc" -eq 1 -a "$(lines "$T/err")" -eq 1 -a ! -s "$T/out"
gp_check "... quoting gnuplot's error at the template's line" \
    grep -q 'my_template.gp line 3: undefined variable: no_such_thing' "$T/err"
gp_check "... and leaves no image" test ! -e "$T/t.png"
cp "${abs_top_srcdir:-.}/plots/sequence.gp" "$T/copy.gp" 2>/dev/null &&
    sed -i 's/^set xlabel .*/set xlabel "edited label" noenhanced/' "$T/copy.gp"
if [ $have_gp = 1 ]; then
    "$SG" plot 0.77 -o "$T/e.svg" --template "$T/copy.gp" >"$T/out" 2>"$T/err"; rc=$?
fi
gp_check "an edited copy of plots/sequence.gp is used" \
    grep -q 'edited label' "$T/e.svg"

# --- rings: the rare heaps of the report's sparse space ------------------
# A stand-in for gnuplot keeps the data file it is handed (as $KEEP), so
# these checks need no gnuplot.  The expected rings are computed here from
# the values (--values --json) and the sparse space the plot command's own
# report gives (--json: mask, parity, parity_offset), by the definition of
# docs/THEORY.md section 12: heap h >= 1 is rare when popcount(G(h) & mask)
# + parity * ((h + parity_offset) mod 2) is even.  With a plain mask heap 0
# (G = 0, even under every mask) is ringed too; the report counts h >= 1.
cat >"$T/keep_gp.sh" <<'EOF'
#!/bin/sh
d=$(sed -n "s/^datafile = '\(.*\)'$/\1/p" "$1")
cp "$d" "$KEEP" || exit 1
o=$(sed -n "s/^outfile = '\(.*\)'$/\1/p" "$1")
printf 'not an image' >"$o"
EOF
chmod +x "$T/keep_gp.sh"
# rings_agree RULE MAX RARE LAST: plot G(0..MAX-1) with the stand-in; the
# report's space has RARE rare heaps, the last at LAST, and the rows ringed
# are exactly its heaps
rings_agree() {
    local rule=$1 max=$2
    KEEP="$T/kept.dat" SGEXPLORE_GNUPLOT="$T/keep_gp.sh" \
        "$SG" plot "$rule" --max "$max" --range 0:$((max - 1)) -o "$T/r.png" \
        --json >"$T/r.json" 2>"$T/err" || return 1
    "$SG" "$rule" --max "$max" --values 0:$((max - 1)) --json >"$T/v.json" ||
        return 1
    python3 - "$T/r.json" "$T/v.json" "$T/kept.dat" "$3" "$4" <<'PY'
import json, sys
plot, vals = (json.load(open(f)) for f in sys.argv[1:3])
rows = [l.split() for l in open(sys.argv[3]) if not l.startswith('#')]
sp = plot['sparse']
if sp != vals['sparse']:
    sys.exit('plot and report disagree: %s %s' % (sp, vals['sparse']))
g = vals['values']
m, q, c = sp['mask'], int(sp['parity']), sp.get('parity_offset', 0)
rare = [h for h in range(1, len(g))
        if (bin(g[h] & m).count('1') + q * ((h + c) % 2)) % 2 == 0]
if (len(rare), rare[-1]) != (sp['rare'], sp['last_rare']) or \
   (len(rare), rare[-1]) != (int(sys.argv[4]), int(sys.argv[5])):
    sys.exit('%d rare heaps, the last at %d; report %s' % (len(rare), rare[-1], sp))
want = rare
got = [int(r[0]) for r in rows if r[3] != '-']
if len(rows) != len(g) or got != want:
    sys.exit('ringed %s, expected %s' % (got[:40], want[:40]))
PY
}
if command -v python3 >/dev/null 2>&1; then
    check "0.106: the rings are exactly the 15 rare heaps of the report's space (mask 13, (h + 1) mod 2)" \
        rings_agree 0.106 3000 15 1103
    check "... and the data file's header states the parity part" \
        grep -q 'rare: popcount of G & 13 plus (n + 1) mod 2 even' "$T/kept.dat"
    check "0.77: the plain mask 15 rings the report's 9 rare heaps, not 0" \
        rings_agree 0.77 3000 9 70
    check "... and the data file's header names the plain mask" \
        grep -q 'rare: even popcount of G & 15)' "$T/kept.dat"
else
    skip "0.106 rings (no python3)"
    skip "0.106 data file header (no python3)"
    skip "0.77 rings (no python3)"
    skip "0.77 data file header (no python3)"
fi

echo "1..$n"
