# plots/results.gp - gnuplot template of sgexplore's figure of many results
# (the rules in the cache, or the rules of a sweep): on the left, the
# pre-period and period of every rule with a proven period, on log scales;
# on the right, how many rules have each period.
#
# `sgexplore plot --cache -o FILE` writes the variables below, then this
# script, into one temporary file and runs gnuplot on it.  To change the
# figure, copy this file, edit the copy and pass it with `--template COPY`;
# sgexplore still fills in the variables.  To run a copy by hand, define
# them first:
#   gnuplot -e "terminal='pngcairo'; outfile='r.png'; datafile='r.dat'; ..." COPY
#
# Variables:
#   terminal    gnuplot terminal with its options ("pngcairo size 1200,540
#               noenhanced"); the type follows the output file's extension
#   outfile     the image to write
#   datafile    four blocks, separated by two blank lines (gnuplot's
#               `index` 0 to 3):
#                 0: periodic rules: x, period, rules at this point
#                 1: arithmetic-periodic rules: x, period, rules at this point
#                 2: period, rules with this period (both kinds)
#                 3: the rules with the longest period and the longest
#                    pre-period: x, period, rule (quoted; a name longer than
#                    20 bytes keeps its start and end around an ellipsis)
#               x is the pre-period, except that a pre-period of 0 is
#               written as 0.5 so that a log scale can show it; an empty
#               block holds one row of NaN (block 3: a row outside the
#               drawn range, as gnuplot 5.4 crashes on labels at NaN)
#   plottitle   what the rules are and how many of each status, one to
#               three lines (a long cache name is shortened in the middle)
#   xmax        largest pre-period (at least 1)
#   ymax        largest period (at least 1)
#   cmax        most rules at one point of the left panel (at least 2)
#   hmax        most rules with one period (at least 1)
#   htic        interval between ticks of the rules axis, a whole number
#   nperiodic   number of periodic rules
#   narith      number of arithmetic-periodic rules

set encoding utf8
set terminal @terminal
set output outfile

# Ticks of a log axis from 1 to `top`: whole numbers up to 1000, then 10^k
# (gnuplot's own would read 1e+06); on a narrow panel with more than
# `most` decades, every other one is labelled.
logtics(top) = floor(log10(top) + 1e-9)
ticlabel(k, top, most) = (logtics(top) > most && k % 2) ? '' : \
    k < 4 ? sprintf('%d', int(10**k)) : sprintf('10^%d', k)

set multiplot layout 1, 2 title plottitle noenhanced

# Left: pre-period against period, one point per distinct pair, coloured
# by how many rules share it; the extreme rules are named, the name running
# from its point towards the middle so that it stays inside the panel.
leftside(x) = log(x) < (log(0.4) + log(xmax * 2)) / 2
set title 'pre-period and period of each rule' noenhanced
set logscale xy
set xrange [0.4 : xmax * 2]
# Room above the highest point for its name.
set yrange [0.7 : ymax * 4]
set xtics ()
set ytics ()
do for [k = 0 : logtics(xmax * 2)] {
    set xtics add (ticlabel(k, xmax * 2, 5) 10.0**k)
}
do for [k = 0 : logtics(ymax * 4)] {
    set ytics add (ticlabel(k, ymax * 4, 99) 10.0**k)
}
set xtics add ('0' 0.5)
set xlabel 'pre-period n0' noenhanced
set ylabel 'period p' noenhanced
set logscale cb
set cbrange [1 : cmax]
set cbtics 2
set cblabel 'rules' noenhanced
set palette defined (0 '#9ecae1', 1 '#2171b5', 2 '#08306b')
set key outside bottom center horizontal noenhanced
set grid lc rgb '#e4e4e4' lt 1

plot datafile index 0 using 1:2:3 with points pt 7 ps 1.0 lc palette \
         title (nperiodic > 0 ? 'periodic' : ''), \
     datafile index 1 using 1:2:3 with points pt 9 ps 1.4 lc palette \
         title (narith > 0 ? 'arithmetic-periodic' : ''), \
     datafile index 3 using 1:2:(leftside($1) ? stringcolumn(3) : '') \
         with labels left offset char -0.5, char 1 noenhanced notitle, \
     datafile index 3 using 1:2:(leftside($1) ? '' : stringcolumn(3)) \
         with labels right offset char 0.5, char 1 noenhanced notitle

# Right: how often each period occurs.
set title 'how often each period occurs' noenhanced
unset logscale
unset colorbox
set logscale x
set xrange [0.7 : ymax * 2]
set yrange [0 : hmax * 1.1 + 1]
set xtics ()
do for [k = 0 : logtics(ymax * 2)] {
    set xtics add (ticlabel(k, ymax * 2, 8) 10.0**k)
}
set ytics htic
set format y '%.0f'
set xlabel 'period p' noenhanced
set ylabel 'rules' noenhanced
set key off

plot datafile index 2 using 1:2 with impulses lw 3 lc rgb '#2171b5'

unset multiplot
