# plots/sequence.gp - gnuplot template of sgexplore's figure of one rule:
# G(n) against n as points, the pre-period shaded, the period boundaries
# marked, and the positions holding rare values drawn as red rings.
#
# `sgexplore plot RULE -o FILE` (and `sgexplore RULE --plot FILE`) write the
# variables below, then this script, into one temporary file and run gnuplot
# on it.  To change the figure, copy this file, edit the copy and pass it
# with `--template COPY`; sgexplore still fills in the variables.  To run a
# copy by hand, define them first:
#   gnuplot -e "terminal='pngcairo'; outfile='g.png'; datafile='g.dat'; ..." COPY
#
# gnuplot computes in doubles, exact for integers below 2^53 only, so far
# from 0 (n = 10^18) positions are written as offsets from a round base
# (xlabel then reads "n - 10^18 (heap size n)"), and so are the values of an
# arithmetic-periodic rule that are that large; every number below is such
# an offset.  Near 0 the base is 0 and the offsets are n and G(n) themselves.
#
# Variables:
#   terminal    gnuplot terminal with its options ("pngcairo size 960,540
#               noenhanced"); the type follows the output file's extension
#   outfile     the image to write
#   datafile    one row per position, or per bucket of `step` positions:
#               n (first position of the row), largest G, smallest G,
#               largest rare G ("-" when the row holds no rare value)
#   plottitle   the rule and its result, one to three lines (long rule
#               names are wrapped after commas, or shortened in the middle)
#   xmin, xmax  the first and last position drawn
#   xtic        interval between x ticks, a whole number
#   xdigits     digits of the longest x tick label
#   xlabel      the x axis label: "n (heap size)", or names the base
#   ymin, ymax  the least and largest value drawn (ymin is 0 unless offset)
#   ytic        interval between y ticks, a whole number
#   ylabel      the y axis label: "G(n)", or names the base
#   step        positions per row of datafile (1: every value is a row)
#   n0, p       end of the shaded pre-period (n0 <= xmin: none) and period
#               (p = 0: no period proven)
#   bfirst      the first period boundary drawn (a multiple of p after n0)
#   nbound      how many boundaries to mark (0: none, too many to draw)
#   raremask    0 when the values have no rare class; else heap n of value G
#               is rare when popcount(G & raremask) + rareparity * ((n +
#               rareshift) mod 2) is even: the value bits alone, or, when
#               the report's sparse space is one over the heap's parity
#               (rareparity 1), those and n's parity, offset by rareshift
#   rareparity  1 when the heap's parity is part of the rare class, else 0
#   rareshift   0 or 1: the offset of n's parity (with rareparity 1)
#   vallabel, prelabel, boundlabel, rarelabel
#               legend texts for the values, the pre-period, the period
#               boundaries and the rare values

set encoding utf8
set terminal @terminal
set output outfile

set title plottitle noenhanced
set xlabel xlabel noenhanced
set ylabel ylabel noenhanced
set xrange [xmin - 0.5 : xmax + 0.5]
set yrange [ymin - 0.5 : ymax + 0.5]
# Whole-number ticks, printed in full (never 1e+18).
set xtics nomirror
set ytics nomirror
set xtics xtic
set ytics ytic
set format x '%.0f'
set format y '%.0f'
set border 3
# Room on the right for half of the last x tick label.
if (xdigits > 4) {
    set rmargin xdigits / 2 + 2
}
set key outside bottom center horizontal noenhanced
set datafile missing '-'
set grid ytics lc rgb '#e4e4e4' lt 1

prefill = '#dce6f2'
boundcolour = '#c0392b'
dotcolour = '#1f4e99'
lowcolour = '#8fb0dd'
rarecolour = '#e31a1c'

# The pre-period: positions xmin .. n0-1.
if (p > 0 && n0 > xmin) {
    set object 1 rect from xmin - 0.5, graph 0 \
        to (n0 < xmax ? n0 : xmax + 1) - 0.5, graph 1 \
        behind fillcolor rgb prefill fillstyle solid 1.0 noborder
}

# Period boundaries: before positions n0, n0 + p, n0 + 2p, ...
do for [k = 0 : nbound - 1] {
    x = bfirst + k * p - 0.5
    set arrow from x, graph 0 to x, graph 1 nohead \
        lc rgb boundcolour dashtype 2 lw 1
}

# A series that does not apply draws nothing and gets no key entry (an
# empty title).
plot datafile using 1:2 with points pt 7 ps 0.5 lc rgb dotcolour \
         title vallabel, \
     datafile using 1:(step > 1 ? $3 : NaN) with points pt 7 ps 0.3 \
         lc rgb lowcolour \
         title (step > 1 ? 'smallest G(n) per bucket' : ''), \
     datafile using 1:(raremask > 0 ? $4 : NaN) with points pt 6 ps 1.1 \
         lw 1.5 lc rgb rarecolour title (raremask > 0 ? rarelabel : ''), \
     keyentry with boxes fillstyle solid 1.0 fillcolor rgb prefill \
         title (p > 0 && n0 > xmin ? prelabel : ''), \
     keyentry with lines dashtype 2 lc rgb boundcolour \
         title (nbound > 0 ? boundlabel : '')
