# plots/misere.gp - gnuplot template of sgexplore's misère figure of one
# rule: the normal-play values G(n) and the misère values G-(n) of heaps
# 0..N-1 as two series of points, the heaps from the first one that is not
# tame on shaded, and each heap whose own genus is not tame ringed.
#
# `sgexplore RULE --misere --plot FILE` writes the variables below, then
# this script, into one temporary file and runs gnuplot on it.  To run a
# copy by hand, define them first:
#   gnuplot -e "terminal='pngcairo'; outfile='m.png'; datafile='m.dat'; ..." COPY
#
# The heaps are those of the exact misère computation (at most a few
# hundred), so every heap is a row and no axis needs an offset.
#
# Variables:
#   terminal    gnuplot terminal with its options ("pngcairo size 960,540
#               noenhanced"); the type follows the output file's extension
#   outfile     the image to write
#   datafile    one row per heap: n, G(n), G-(n), 1 when the genus of heap n
#               is not tame (else 0), and the genus as text ("4^146")
#   plottitle   the rule, "misère play" and where tameness ends, one to
#               three lines (long rule names are wrapped or shortened)
#   xmin, xmax  the first and last heap drawn (xmin is 0)
#   xtic        interval between x ticks, a whole number
#   xdigits     digits of the longest x tick label
#   ymax        the largest value drawn (at least 1)
#   ytic        interval between y ticks, a whole number
#   tameto      heaps xmin..tameto-1 are tame; tameto > xmax: all are
#   nwild       how many heaps have a genus that is not tame
#   normlabel, mislabel, bandlabel, wildlabel
#               legend texts for G(n), G-(n), the shading from tameto on
#               and the rings
#   xlabel, ylabel
#               the axis labels

set encoding utf8
set terminal @terminal
set output outfile

set title plottitle noenhanced
set xlabel xlabel noenhanced
set ylabel ylabel noenhanced
set xrange [xmin - 0.5 : xmax + 0.5]
# Room above the highest value for the rings.
set yrange [-0.5 : ymax + 0.8]
set xtics nomirror
set ytics nomirror
set xtics xtic
set ytics ytic
set format x '%.0f'
set format y '%.0f'
set border 3
if (xdigits > 4) {
    set rmargin xdigits / 2 + 2
}
set key outside bottom center horizontal noenhanced
set grid ytics lc rgb '#e4e4e4' lt 1

normcolour = '#1f4e99'
miscolour = '#e66101'
bandcolour = '#f6dcd0'
wildcolour = '#c0392b'

# The heaps from the first that is not tame on.
if (tameto <= xmax) {
    set object 1 rect from tameto - 0.5, graph 0 to xmax + 0.5, graph 1 \
        behind fillcolor rgb bandcolour fillstyle solid 1.0 noborder
}

# A series that does not apply draws nothing and gets no key entry (an
# empty title).  G-(n) is an open square so that a G(n) of the same value
# stays visible inside it.
plot datafile using 1:2 with points pt 7 ps 0.6 lc rgb normcolour \
         title normlabel, \
     datafile using 1:3 with points pt 4 ps 1.2 lw 1.5 lc rgb miscolour \
         title mislabel, \
     datafile using 1:($4 > 0 ? $3 : NaN) with points pt 6 ps 2.2 lw 1.5 \
         lc rgb wildcolour title (nwild > 0 ? wildlabel : ''), \
     keyentry with boxes fillstyle solid 1.0 fillcolor rgb bandcolour \
         title (tameto <= xmax ? bandlabel : '')
