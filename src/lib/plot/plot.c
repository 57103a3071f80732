/*
 * plot.c - the figures: G(n) of one rule (the values as points, the
 * pre-period shaded, the period boundaries, the rare values, the result
 * in the title), its misère values beside G(n) (the heaps that are not
 * tame marked) and the periods of the cached rules, with whole-number
 * ticks on axes drawn as offsets where gnuplot's doubles need it, titles
 * wrapped to fit, and the built-in copies of the templates in plots/.
 * plot_data.c writes what gnuplot reads and plot_gnuplot.c runs it.
 */
#define _DEFAULT_SOURCE
#include "plot_impl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Period boundaries drawn one by one up to this many; beyond, only the
 * start of the period is marked. */
#define MAX_BOUNDARIES 40

/* ------------------------------------------------------------------ */
/* Axes: offsets, ticks, labels                                         */
/* ------------------------------------------------------------------ */

/* A base as the axis label writes it: "10^18", "3×10^12", or in full. */
static void base_text(char *out, size_t outsz, uint64_t base)
{
    uint64_t m = base;
    unsigned k = 0;

    while (m >= 10 && m % 10 == 0) {
        m /= 10;
        k++;
    }
    if (k >= 3 && m == 1)
        snprintf(out, outsz, "10^%u", k);
    else if (k >= 3 && m < 10)
        snprintf(out, outsz, "%llu" TIMES "10^%u", (ull)m, k);
    else
        snprintf(out, outsz, "%llu", (ull)base);
}

/* Decimal digits of v. */
static unsigned digits(uint64_t v)
{
    unsigned d = 1;

    for (; v >= 10; v /= 10)
        d++;
    return d;
}

/* The interval between ticks on an axis showing lo..hi: the least 1, 2
 * or 5 times a power of ten that puts at most `maxticks` ticks in lo..hi,
 * and never less than 1, so that ticks fall on whole numbers only. */
static uint64_t tick_step(uint64_t lo, uint64_t hi, uint64_t maxticks)
{
    static const uint64_t mult[] = {1, 2, 5};
    uint64_t pow = 1;

    if (maxticks == 0)
        maxticks = 1;
    for (;;) {
        size_t i;
        for (i = 0; i < 3; i++) {
            uint64_t s = mult[i] * pow;
            /* multiples of s in lo..hi */
            uint64_t first = lo / s + (lo % s != 0);
            uint64_t count = hi / s >= first ? hi / s - first + 1 : 0;
            if (count <= maxticks)
                return s;
        }
        if (pow > UINT64_MAX / 50)
            return 5 * pow;
        pow *= 10;
    }
}

/* ------------------------------------------------------------------ */
/* Titles that fit                                                      */
/* ------------------------------------------------------------------ */

/* Advance widths of the printable ASCII characters in thousandths of an
 * em, those of DejaVu Sans (the "Sans" of Debian's cairo terminals; Arial,
 * the SVG terminal's font, is narrower), so that a text's width can be
 * estimated without asking gnuplot. */
static const unsigned short glyph_width[95] = {
    318, 400, 460, 838, 636,  950, 780, 275, 390, 390, 500, 838, 318, 361,
    318, 337, 636, 636, 636,  636, 636, 636, 636, 636, 636, 636, 337, 337,
    838, 838, 838, 531, 1000, 684, 686, 698, 770, 632, 575, 775, 752, 295,
    295, 656, 557, 863, 748,  787, 603, 787, 695, 635, 611, 732, 684, 989,
    685, 611, 685, 390, 337,  390, 838, 500, 500, 613, 635, 550, 635, 615,
    352, 635, 634, 278, 278,  579, 278, 974, 634, 612, 635, 635, 411, 521,
    392, 634, 592, 818, 592,  592, 525, 636, 337, 636, 838};

/* The width of s[0..len) in thousandths of an em; a character outside
 * ASCII counts as a full em. */
static unsigned long text_width(const char *s, size_t len)
{
    unsigned long w = 0;
    size_t i;

    for (i = 0; i < len; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c >= 32 && c < 127)
            w += glyph_width[c - 32];
        else if (c >= 0xc0 || c < 32)
            w += 1000; /* the first byte of a UTF-8 character */
    }
    return w;
}

/* Most lines a title may take. */
#define TITLE_LINES 3

/*
 * Break text into lines of at most `width` thousandths of an em, after a
 * space (which is dropped), a comma, an underscore or a slash (rule names
 * and file names have no spaces), into out (lines separated by '\n');
 * a piece with no break in it longer than a line is cut between any two
 * (UTF-8) characters.  Stops after TITLE_LINES lines; returns the number
 * of lines, TITLE_LINES + 1 when the text needs more.
 */
static unsigned wrap_text(char *out, size_t outsz, const char *text,
                          unsigned long width)
{
    size_t len = strlen(text), start = 0, o = 0;
    unsigned lines = 0;

    out[0] = '\0';
    while (start < len) {
        size_t i, last_break = 0, end;
        unsigned long w = 0;

        if (lines == TITLE_LINES)
            return TITLE_LINES + 1;
        for (i = start; i < len; i++) {
            w += text_width(text + i, 1);
            if (w > width && i > start)
                break;
            if (strchr(" ,_/", text[i]))
                last_break = i + 1;
        }
        if (i == len || text[i] == ' ')
            end = i;
        else if (last_break > start)
            end = last_break;
        else
            for (end = i;
                 end > start + 1 && ((unsigned char)text[end] & 0xc0) == 0x80;)
                end--;
        if (lines > 0 && o + 1 < outsz)
            out[o++] = '\n';
        for (i = start; i < end && o + 1 < outsz; i++)
            if (i + 1 < end || text[i] != ' ')
                out[o++] = text[i];
        out[o] = '\0';
        for (start = end; start < len && text[start] == ' ';)
            start++;
        lines++;
    }
    return lines;
}

/*
 * A title "SUBJECT: REST" (REST may be empty) wrapped into at most
 * TITLE_LINES lines of `width` thousandths of an em; when it does not fit,
 * the middle of the subject (a rule's name, a cache's file name) gives way
 * to an ellipsis, so that its start, its end and REST stay readable.
 */
static void fit_title(char *out, size_t outsz, const char *subject,
                      const char *rest, unsigned long width)
{
    size_t slen = strlen(subject), keep = slen, full = slen + strlen(rest) + 8;
    char *text = malloc(full), *lines = malloc(full + TITLE_LINES + 8);

    if (!text || !lines) {
        snprintf(out, outsz, "%s%s", subject, rest);
        free(text);
        free(lines);
        return;
    }
    for (;;) {
        size_t head = keep < slen ? (keep + 1) / 2 : slen, tail = keep / 2;
        size_t i, o = 0;

        if (keep < slen) {
            /* Cut after a comma ("1,2,...,9") when one is near, else
             * between any two UTF-8 characters. */
            for (i = head; i > head / 2 && subject[i - 1] != ','; i--)
                ;
            if (i > head / 2)
                head = i;
            for (i = slen - tail; i < slen - tail / 2 && subject[i] != ','; i++)
                ;
            if (i < slen - tail / 2)
                tail = slen - i;
            while (head > 0 && ((unsigned char)subject[head] & 0xc0) == 0x80)
                head--;
            while (tail > 0 &&
                   ((unsigned char)subject[slen - tail] & 0xc0) == 0x80)
                tail--;
        }
        for (i = 0; i < head; i++)
            text[o++] = subject[i];
        if (keep < slen) {
            memcpy(text + o, ELLIPSIS, sizeof ELLIPSIS - 1);
            o += sizeof ELLIPSIS - 1;
            for (i = slen - tail; i < slen; i++)
                text[o++] = subject[i];
        }
        text[o] = '\0';
        strcat(text, rest);
        for (i = 0; text[i]; i++)
            if (text[i] == '\n' || text[i] == '\r' || text[i] == '\t')
                text[i] = ' ';
        if (wrap_text(lines, full + TITLE_LINES + 8, text, width) <=
                TITLE_LINES ||
            keep == 0)
            break;
        keep = keep > 40 ? keep - keep / 8 : keep - 1;
    }
    snprintf(out, outsz, "%s", lines);
    free(text);
    free(lines);
}

/* ------------------------------------------------------------------ */
/* Built-in templates                                                   */
/* ------------------------------------------------------------------ */

/* Copies of plots/sequence.gp, plots/results.gp and plots/misere.gp, so
 * that the program needs no data files at run time; tests/test_plot.c
 * checks that they match the files.  After editing a file, regenerate its string with
 *   sed 's/\\/\\\\/g; s/"/\\"/g; s/^/    "/; s/$/\\n"/' plots/NAME.gp
 * and add the final semicolon. */

/* clang-format off */
static const char template_sequence[] =
    "# plots/sequence.gp - gnuplot template of sgexplore's figure of one rule:\n"
    "# G(n) against n as points, the pre-period shaded, the period boundaries\n"
    "# marked, and the positions holding rare values drawn as red rings.\n"
    "#\n"
    "# `sgexplore plot RULE -o FILE` (and `sgexplore RULE --plot FILE`) write the\n"
    "# variables below, then this script, into one temporary file and run gnuplot\n"
    "# on it.  To change the figure, copy this file, edit the copy and pass it\n"
    "# with `--template COPY`; sgexplore still fills in the variables.  To run a\n"
    "# copy by hand, define them first:\n"
    "#   gnuplot -e \"terminal='pngcairo'; outfile='g.png'; datafile='g.dat'; ...\" COPY\n"
    "#\n"
    "# gnuplot computes in doubles, exact for integers below 2^53 only, so far\n"
    "# from 0 (n = 10^18) positions are written as offsets from a round base\n"
    "# (xlabel then reads \"n - 10^18 (heap size n)\"), and so are the values of an\n"
    "# arithmetic-periodic rule that are that large; every number below is such\n"
    "# an offset.  Near 0 the base is 0 and the offsets are n and G(n) themselves.\n"
    "#\n"
    "# Variables:\n"
    "#   terminal    gnuplot terminal with its options (\"pngcairo size 960,540\n"
    "#               noenhanced\"); the type follows the output file's extension\n"
    "#   outfile     the image to write\n"
    "#   datafile    one row per position, or per bucket of `step` positions:\n"
    "#               n (first position of the row), largest G, smallest G,\n"
    "#               largest rare G (\"-\" when the row holds no rare value)\n"
    "#   plottitle   the rule and its result, one to three lines (long rule\n"
    "#               names are wrapped after commas, or shortened in the middle)\n"
    "#   xmin, xmax  the first and last position drawn\n"
    "#   xtic        interval between x ticks, a whole number\n"
    "#   xdigits     digits of the longest x tick label\n"
    "#   xlabel      the x axis label: \"n (heap size)\", or names the base\n"
    "#   ymin, ymax  the least and largest value drawn (ymin is 0 unless offset)\n"
    "#   ytic        interval between y ticks, a whole number\n"
    "#   ylabel      the y axis label: \"G(n)\", or names the base\n"
    "#   step        positions per row of datafile (1: every value is a row)\n"
    "#   n0, p       end of the shaded pre-period (n0 <= xmin: none) and period\n"
    "#               (p = 0: no period proven)\n"
    "#   bfirst      the first period boundary drawn (a multiple of p after n0)\n"
    "#   nbound      how many boundaries to mark (0: none, too many to draw)\n"
    "#   raremask    0 when the values have no rare class; else heap n of value G\n"
    "#               is rare when popcount(G & raremask) + rareparity * ((n +\n"
    "#               rareshift) mod 2) is even: the value bits alone, or, when\n"
    "#               the report's sparse space is one over the heap's parity\n"
    "#               (rareparity 1), those and n's parity, offset by rareshift\n"
    "#   rareparity  1 when the heap's parity is part of the rare class, else 0\n"
    "#   rareshift   0 or 1: the offset of n's parity (with rareparity 1)\n"
    "#   vallabel, prelabel, boundlabel, rarelabel\n"
    "#               legend texts for the values, the pre-period, the period\n"
    "#               boundaries and the rare values\n"
    "\n"
    "set encoding utf8\n"
    "set terminal @terminal\n"
    "set output outfile\n"
    "\n"
    "set title plottitle noenhanced\n"
    "set xlabel xlabel noenhanced\n"
    "set ylabel ylabel noenhanced\n"
    "set xrange [xmin - 0.5 : xmax + 0.5]\n"
    "set yrange [ymin - 0.5 : ymax + 0.5]\n"
    "# Whole-number ticks, printed in full (never 1e+18).\n"
    "set xtics nomirror\n"
    "set ytics nomirror\n"
    "set xtics xtic\n"
    "set ytics ytic\n"
    "set format x '%.0f'\n"
    "set format y '%.0f'\n"
    "set border 3\n"
    "# Room on the right for half of the last x tick label.\n"
    "if (xdigits > 4) {\n"
    "    set rmargin xdigits / 2 + 2\n"
    "}\n"
    "set key outside bottom center horizontal noenhanced\n"
    "set datafile missing '-'\n"
    "set grid ytics lc rgb '#e4e4e4' lt 1\n"
    "\n"
    "prefill = '#dce6f2'\n"
    "boundcolour = '#c0392b'\n"
    "dotcolour = '#1f4e99'\n"
    "lowcolour = '#8fb0dd'\n"
    "rarecolour = '#e31a1c'\n"
    "\n"
    "# The pre-period: positions xmin .. n0-1.\n"
    "if (p > 0 && n0 > xmin) {\n"
    "    set object 1 rect from xmin - 0.5, graph 0 \\\n"
    "        to (n0 < xmax ? n0 : xmax + 1) - 0.5, graph 1 \\\n"
    "        behind fillcolor rgb prefill fillstyle solid 1.0 noborder\n"
    "}\n"
    "\n"
    "# Period boundaries: before positions n0, n0 + p, n0 + 2p, ...\n"
    "do for [k = 0 : nbound - 1] {\n"
    "    x = bfirst + k * p - 0.5\n"
    "    set arrow from x, graph 0 to x, graph 1 nohead \\\n"
    "        lc rgb boundcolour dashtype 2 lw 1\n"
    "}\n"
    "\n"
    "# A series that does not apply draws nothing and gets no key entry (an\n"
    "# empty title).\n"
    "plot datafile using 1:2 with points pt 7 ps 0.5 lc rgb dotcolour \\\n"
    "         title vallabel, \\\n"
    "     datafile using 1:(step > 1 ? $3 : NaN) with points pt 7 ps 0.3 \\\n"
    "         lc rgb lowcolour \\\n"
    "         title (step > 1 ? 'smallest G(n) per bucket' : ''), \\\n"
    "     datafile using 1:(raremask > 0 ? $4 : NaN) with points pt 6 ps 1.1 \\\n"
    "         lw 1.5 lc rgb rarecolour title (raremask > 0 ? rarelabel : ''), \\\n"
    "     keyentry with boxes fillstyle solid 1.0 fillcolor rgb prefill \\\n"
    "         title (p > 0 && n0 > xmin ? prelabel : ''), \\\n"
    "     keyentry with lines dashtype 2 lc rgb boundcolour \\\n"
    "         title (nbound > 0 ? boundlabel : '')\n";

static const char template_results[] =
    "# plots/results.gp - gnuplot template of sgexplore's figure of many results\n"
    "# (the rules in the cache, or the rules of a sweep): on the left, the\n"
    "# pre-period and period of every rule with a proven period, on log scales;\n"
    "# on the right, how many rules have each period.\n"
    "#\n"
    "# `sgexplore plot --cache -o FILE` writes the variables below, then this\n"
    "# script, into one temporary file and runs gnuplot on it.  To change the\n"
    "# figure, copy this file, edit the copy and pass it with `--template COPY`;\n"
    "# sgexplore still fills in the variables.  To run a copy by hand, define\n"
    "# them first:\n"
    "#   gnuplot -e \"terminal='pngcairo'; outfile='r.png'; datafile='r.dat'; ...\" COPY\n"
    "#\n"
    "# Variables:\n"
    "#   terminal    gnuplot terminal with its options (\"pngcairo size 1200,540\n"
    "#               noenhanced\"); the type follows the output file's extension\n"
    "#   outfile     the image to write\n"
    "#   datafile    four blocks, separated by two blank lines (gnuplot's\n"
    "#               `index` 0 to 3):\n"
    "#                 0: periodic rules: x, period, rules at this point\n"
    "#                 1: arithmetic-periodic rules: x, period, rules at this point\n"
    "#                 2: period, rules with this period (both kinds)\n"
    "#                 3: the rules with the longest period and the longest\n"
    "#                    pre-period: x, period, rule (quoted; a name longer than\n"
    "#                    20 bytes keeps its start and end around an ellipsis)\n"
    "#               x is the pre-period, except that a pre-period of 0 is\n"
    "#               written as 0.5 so that a log scale can show it; an empty\n"
    "#               block holds one row of NaN (block 3: a row outside the\n"
    "#               drawn range, as gnuplot 5.4 crashes on labels at NaN)\n"
    "#   plottitle   what the rules are and how many of each status, one to\n"
    "#               three lines (a long cache name is shortened in the middle)\n"
    "#   xmax        largest pre-period (at least 1)\n"
    "#   ymax        largest period (at least 1)\n"
    "#   cmax        most rules at one point of the left panel (at least 2)\n"
    "#   hmax        most rules with one period (at least 1)\n"
    "#   htic        interval between ticks of the rules axis, a whole number\n"
    "#   nperiodic   number of periodic rules\n"
    "#   narith      number of arithmetic-periodic rules\n"
    "\n"
    "set encoding utf8\n"
    "set terminal @terminal\n"
    "set output outfile\n"
    "\n"
    "# Ticks of a log axis from 1 to `top`: whole numbers up to 1000, then 10^k\n"
    "# (gnuplot's own would read 1e+06); on a narrow panel with more than\n"
    "# `most` decades, every other one is labelled.\n"
    "logtics(top) = floor(log10(top) + 1e-9)\n"
    "ticlabel(k, top, most) = (logtics(top) > most && k % 2) ? '' : \\\n"
    "    k < 4 ? sprintf('%d', int(10**k)) : sprintf('10^%d', k)\n"
    "\n"
    "set multiplot layout 1, 2 title plottitle noenhanced\n"
    "\n"
    "# Left: pre-period against period, one point per distinct pair, coloured\n"
    "# by how many rules share it; the extreme rules are named, the name running\n"
    "# from its point towards the middle so that it stays inside the panel.\n"
    "leftside(x) = log(x) < (log(0.4) + log(xmax * 2)) / 2\n"
    "set title 'pre-period and period of each rule' noenhanced\n"
    "set logscale xy\n"
    "set xrange [0.4 : xmax * 2]\n"
    "# Room above the highest point for its name.\n"
    "set yrange [0.7 : ymax * 4]\n"
    "set xtics ()\n"
    "set ytics ()\n"
    "do for [k = 0 : logtics(xmax * 2)] {\n"
    "    set xtics add (ticlabel(k, xmax * 2, 5) 10.0**k)\n"
    "}\n"
    "do for [k = 0 : logtics(ymax * 4)] {\n"
    "    set ytics add (ticlabel(k, ymax * 4, 99) 10.0**k)\n"
    "}\n"
    "set xtics add ('0' 0.5)\n"
    "set xlabel 'pre-period n0' noenhanced\n"
    "set ylabel 'period p' noenhanced\n"
    "set logscale cb\n"
    "set cbrange [1 : cmax]\n"
    "set cbtics 2\n"
    "set cblabel 'rules' noenhanced\n"
    "set palette defined (0 '#9ecae1', 1 '#2171b5', 2 '#08306b')\n"
    "set key outside bottom center horizontal noenhanced\n"
    "set grid lc rgb '#e4e4e4' lt 1\n"
    "\n"
    "plot datafile index 0 using 1:2:3 with points pt 7 ps 1.0 lc palette \\\n"
    "         title (nperiodic > 0 ? 'periodic' : ''), \\\n"
    "     datafile index 1 using 1:2:3 with points pt 9 ps 1.4 lc palette \\\n"
    "         title (narith > 0 ? 'arithmetic-periodic' : ''), \\\n"
    "     datafile index 3 using 1:2:(leftside($1) ? stringcolumn(3) : '') \\\n"
    "         with labels left offset char -0.5, char 1 noenhanced notitle, \\\n"
    "     datafile index 3 using 1:2:(leftside($1) ? '' : stringcolumn(3)) \\\n"
    "         with labels right offset char 0.5, char 1 noenhanced notitle\n"
    "\n"
    "# Right: how often each period occurs.\n"
    "set title 'how often each period occurs' noenhanced\n"
    "unset logscale\n"
    "unset colorbox\n"
    "set logscale x\n"
    "set xrange [0.7 : ymax * 2]\n"
    "set yrange [0 : hmax * 1.1 + 1]\n"
    "set xtics ()\n"
    "do for [k = 0 : logtics(ymax * 2)] {\n"
    "    set xtics add (ticlabel(k, ymax * 2, 8) 10.0**k)\n"
    "}\n"
    "set ytics htic\n"
    "set format y '%.0f'\n"
    "set xlabel 'period p' noenhanced\n"
    "set ylabel 'rules' noenhanced\n"
    "set key off\n"
    "\n"
    "plot datafile index 2 using 1:2 with impulses lw 3 lc rgb '#2171b5'\n"
    "\n"
    "unset multiplot\n";

static const char template_misere[] =
    "# plots/misere.gp - gnuplot template of sgexplore's misère figure of one\n"
    "# rule: the normal-play values G(n) and the misère values G-(n) of heaps\n"
    "# 0..N-1 as two series of points, the heaps from the first one that is not\n"
    "# tame on shaded, and each heap whose own genus is not tame ringed.\n"
    "#\n"
    "# `sgexplore RULE --misere --plot FILE` writes the variables below, then\n"
    "# this script, into one temporary file and runs gnuplot on it.  To run a\n"
    "# copy by hand, define them first:\n"
    "#   gnuplot -e \"terminal='pngcairo'; outfile='m.png'; datafile='m.dat'; ...\" COPY\n"
    "#\n"
    "# The heaps are those of the exact misère computation (at most a few\n"
    "# hundred), so every heap is a row and no axis needs an offset.\n"
    "#\n"
    "# Variables:\n"
    "#   terminal    gnuplot terminal with its options (\"pngcairo size 960,540\n"
    "#               noenhanced\"); the type follows the output file's extension\n"
    "#   outfile     the image to write\n"
    "#   datafile    one row per heap: n, G(n), G-(n), 1 when the genus of heap n\n"
    "#               is not tame (else 0), and the genus as text (\"4^146\")\n"
    "#   plottitle   the rule, \"misère play\" and where tameness ends, one to\n"
    "#               three lines (long rule names are wrapped or shortened)\n"
    "#   xmin, xmax  the first and last heap drawn (xmin is 0)\n"
    "#   xtic        interval between x ticks, a whole number\n"
    "#   xdigits     digits of the longest x tick label\n"
    "#   ymax        the largest value drawn (at least 1)\n"
    "#   ytic        interval between y ticks, a whole number\n"
    "#   tameto      heaps xmin..tameto-1 are tame; tameto > xmax: all are\n"
    "#   nwild       how many heaps have a genus that is not tame\n"
    "#   normlabel, mislabel, bandlabel, wildlabel\n"
    "#               legend texts for G(n), G-(n), the shading from tameto on\n"
    "#               and the rings\n"
    "#   xlabel, ylabel\n"
    "#               the axis labels\n"
    "\n"
    "set encoding utf8\n"
    "set terminal @terminal\n"
    "set output outfile\n"
    "\n"
    "set title plottitle noenhanced\n"
    "set xlabel xlabel noenhanced\n"
    "set ylabel ylabel noenhanced\n"
    "set xrange [xmin - 0.5 : xmax + 0.5]\n"
    "# Room above the highest value for the rings.\n"
    "set yrange [-0.5 : ymax + 0.8]\n"
    "set xtics nomirror\n"
    "set ytics nomirror\n"
    "set xtics xtic\n"
    "set ytics ytic\n"
    "set format x '%.0f'\n"
    "set format y '%.0f'\n"
    "set border 3\n"
    "if (xdigits > 4) {\n"
    "    set rmargin xdigits / 2 + 2\n"
    "}\n"
    "set key outside bottom center horizontal noenhanced\n"
    "set grid ytics lc rgb '#e4e4e4' lt 1\n"
    "\n"
    "normcolour = '#1f4e99'\n"
    "miscolour = '#e66101'\n"
    "bandcolour = '#f6dcd0'\n"
    "wildcolour = '#c0392b'\n"
    "\n"
    "# The heaps from the first that is not tame on.\n"
    "if (tameto <= xmax) {\n"
    "    set object 1 rect from tameto - 0.5, graph 0 to xmax + 0.5, graph 1 \\\n"
    "        behind fillcolor rgb bandcolour fillstyle solid 1.0 noborder\n"
    "}\n"
    "\n"
    "# A series that does not apply draws nothing and gets no key entry (an\n"
    "# empty title).  G-(n) is an open square so that a G(n) of the same value\n"
    "# stays visible inside it.\n"
    "plot datafile using 1:2 with points pt 7 ps 0.6 lc rgb normcolour \\\n"
    "         title normlabel, \\\n"
    "     datafile using 1:3 with points pt 4 ps 1.2 lw 1.5 lc rgb miscolour \\\n"
    "         title mislabel, \\\n"
    "     datafile using 1:($4 > 0 ? $3 : NaN) with points pt 6 ps 2.2 lw 1.5 \\\n"
    "         lc rgb wildcolour title (nwild > 0 ? wildlabel : ''), \\\n"
    "     keyentry with boxes fillstyle solid 1.0 fillcolor rgb bandcolour \\\n"
    "         title (tameto <= xmax ? bandlabel : '')\n";
/* clang-format on */

const char *sgi_plot_template(const char *name)
{
    if (strcmp(name, "sequence") == 0)
        return template_sequence;
    if (strcmp(name, "results") == 0)
        return template_results;
    if (strcmp(name, "misere") == 0)
        return template_misere;
    return NULL;
}

/* ------------------------------------------------------------------ */
/* The figures                                                          */
/* ------------------------------------------------------------------ */

static sg_status check_format(sg_plot_format *fmt, const char *path,
                              sg_error *err)
{
    *fmt = sg_plot_format_of(path);
    if (*fmt == SG_PLOT_UNKNOWN)
        return sg_error_set(err, SG_E_INPUT, -1,
                            "'%s': the image type follows the file name's "
                            "extension, which must be .png, .svg or .pdf",
                            path);
    return SG_OK;
}

/* Give a figure up before its script is drawn: status st. */
static sg_status figure_fail(dest *d, workdir *w, sg_status st)
{
    sgi_plot_dest_abort(d);
    sgi_plot_workdir_remove(w);
    return st;
}

/* A figure's destination (opened first, so that an unwritable path fails
 * before anything is computed) and its temporary directory; on failure
 * nothing of either is left. */
static sg_status figure_begin(dest *d, workdir *w, const char *path,
                              sg_plot_format fmt, const sg_plot_options *opt,
                              sg_error *err)
{
    sg_status st = sgi_plot_dest_open(d, path, err);

    if (st)
        return st;
    st = sgi_plot_workdir_make(w, opt, fmt, err);
    return st ? figure_fail(d, w, st) : SG_OK;
}

/* The name of a theorem without its parenthesised explanation. */
static void theorem_short(char *out, size_t outsz, const char *theorem)
{
    const char *paren;
    size_t n;

    if (!theorem) {
        snprintf(out, outsz, "a stated theorem");
        return;
    }
    paren = strstr(theorem, " (");
    n = paren ? (size_t)(paren - theorem) : strlen(theorem);
    if (n >= outsz)
        n = outsz - 1;
    memcpy(out, theorem, n);
    out[n] = '\0';
}

/* The title of a rule's figure: its canonical text and its result,
 * wrapped or shortened to fit (see fit_title). */
static sg_status sequence_title(char *out, size_t outsz, const sg_rule *r,
                                const sg_result *res, const sg_seq *s,
                                sg_error *err)
{
    char *canon = sg_rule_canonical(r);
    char thm[200], rest[400];

    if (!canon)
        return sg_error_set(err, SG_E_NOMEM, -1, "out of memory");
    theorem_short(thm, sizeof thm, res ? res->theorem : NULL);
    if (res && res->status == SG_PERIODIC)
        snprintf(rest, sizeof rest,
                 ": period %llu after pre-period %llu, proven by the %s",
                 (ull)res->period, (ull)res->preperiod, thm);
    else if (res && res->status == SG_ARITH_PERIODIC)
        snprintf(rest, sizeof rest,
                 ": arithmetic-periodic, period %llu and saltus %llu "
                 "after pre-period %llu, proven by the %s",
                 (ull)res->period, (ull)res->saltus, (ull)res->preperiod, thm);
    else
        snprintf(rest, sizeof rest,
                 ": unresolved up to n = %llu (no period proven)",
                 (ull)(s->n ? s->n - 1 : 0));
    fit_title(out, outsz, canon, rest, sgi_plot_title_width(0));
    free(canon);
    return SG_OK;
}

/* Most ticks on an axis about `room` thousandths of an em long whose
 * labels have up to `d` digits (0.636 em each, and 2 em between labels),
 * at most 11. */
static uint64_t max_ticks(unsigned long room, unsigned d)
{
    uint64_t k = room / (636UL * d + 2000);

    return k < 2 ? 2 : k > 11 ? 11 : k;
}

/* The label of an axis drawn with an offset, "n - 10^18 (heap size n)"
 * with a true minus sign, or `plain` when there is no offset. */
static void offset_label(char *out, size_t outsz, const char *what,
                         uint64_t base, const char *plain, const char *suffix)
{
    char b[64];

    if (!base) {
        snprintf(out, outsz, "%s", plain);
        return;
    }
    base_text(b, sizeof b, base);
    snprintf(out, outsz, "%s " MINUS " %s%s", what, b, suffix);
}

/* Width of the plot area of the figure of one rule, in thousandths of an
 * em (960 pixels less the margins). */
#define PLOT_ROOM 52000UL

/* What the detrended figure changes in the figure of one rule: its title,
 * the value axis's name, and no rare values (classes of G(n) say nothing
 * about G(n) - s floor(n/p)). */
typedef struct seq_look {
    const char *title; /* NULL: sequence_title */
    const char *yname; /* the values' name: "G(n)" */
    int rare;          /* look for rare values */
} seq_look;

static sg_status sequence_figure(const char *path, const sg_rule *r,
                                 const sg_result *res, const sg_seq *s,
                                 uint64_t from, uint64_t to,
                                 const sg_plot_options *opt,
                                 const seq_look *look, sg_error *err);

sg_status sg_plot_sequence(const char *path, const sg_rule *r,
                           const sg_result *res, const sg_seq *s, uint64_t from,
                           uint64_t to, const sg_plot_options *opt,
                           sg_error *err)
{
    static const seq_look plain = {NULL, "G(n)", 1};

    return sequence_figure(path, r, res, s, from, to, opt, &plain, err);
}

sg_status sg_plot_detrended(const char *path, const sg_rule *r,
                            const sg_result *res, const sg_seq *s,
                            uint64_t from, uint64_t to,
                            const sg_plot_options *opt, sg_error *err)
{
    uint64_t p, sal, len, n;
    int64_t lo = 0, d;
    sg_result dres;
    sg_seq ds;
    seq_look look;
    char title[600], yname[160];
    sg_status st;

    if (!res || res->status != SG_ARITH_PERIODIC || res->period == 0 ||
        res->preperiod + res->period > s->n)
        return sg_error_set(err, SG_E_INPUT, -1,
                            "the detrended figure needs a proven "
                            "arithmetic-periodic result with its values");
    p = res->period;
    sal = res->saltus;
    len = res->preperiod + p;
    /* D(n) = G(n) - s floor(n/p) is periodic from n0 on with period p
     * and no saltus: G(n0..n0+p-1) and the pre-period define it all.  It
     * may be negative in the pre-period: drawn shifted, and named so. */
    for (n = 0; n < len; n++) {
        d = (int64_t)sg_seq_get(s, (size_t)n) - (int64_t)(sal * (n / p));
        if (d < lo)
            lo = d;
    }
    sg_seq_init(&ds);
    for (n = 0, st = SG_OK; n < len && !st; n++) {
        d = (int64_t)sg_seq_get(s, (size_t)n) - (int64_t)(sal * (n / p)) - lo;
        if (d > (int64_t)UINT32_MAX)
            st = sg_error_set(err, SG_E_INPUT, -1,
                              "G(n) - s floor(n/p) spans too many values to "
                              "draw");
        else
            st = sg_seq_append(&ds, (sg_value)d, err);
    }
    if (st) {
        sg_seq_clear(&ds);
        return st;
    }
    dres = *res;
    dres.status = SG_PERIODIC;
    dres.saltus = 0;
    snprintf(yname, sizeof yname, "G(n) " MINUS " %llu floor(n/%llu)%s",
             (ull)sal, (ull)p, lo ? " + " : "");
    if (lo)
        snprintf(yname + strlen(yname), sizeof yname - strlen(yname), "%llu",
                 (ull)(uint64_t)-lo);
    snprintf(title, sizeof title,
             " detrended: G(n) - %llu floor(n/%llu), periodic with period "
             "%llu after pre-period %llu",
             (ull)sal, (ull)p, (ull)p, (ull)res->preperiod);
    look.title = title;
    look.yname = yname;
    look.rare = 0;
    st = sequence_figure(path, r, &dres, &ds, from, to, opt, &look, err);
    sg_seq_clear(&ds);
    return st;
}

static sg_status sequence_figure(const char *path, const sg_rule *r,
                                 const sg_result *res, const sg_seq *s,
                                 uint64_t from, uint64_t to,
                                 const sg_plot_options *opt,
                                 const seq_look *look, sg_error *err)
{
    sg_plot_format fmt;
    sgi_plot_rare rare;
    sgi_plot_data data;
    script sc;
    workdir w;
    dest d;
    cursor c;
    char title[1024], label[200];
    uint64_t n0 = 0, p = 0, bfirst = 0, nbound = 0, xb, ymin, ymax;
    sg_status st;

    st = check_format(&fmt, path, err);
    if (!st)
        st = sgi_plot_cursor_init(&c, s, res, from, to, err);
    if (!st && look->title) {
        char *canon = sg_rule_canonical(r);
        if (!canon)
            return sg_error_set(err, SG_E_NOMEM, -1, "out of memory");
        fit_title(title, sizeof title, canon, look->title,
                  sgi_plot_title_width(0));
        free(canon);
    } else if (!st)
        st = sequence_title(title, sizeof title, r, res, s, err);
    if (!st)
        st = figure_begin(&d, &w, path, fmt, opt, err);
    if (st)
        return st;
    memset(&rare, 0, sizeof rare);
    if (look->rare)
        st = sgi_plot_find_rare(&rare, s, r, res, from, to, err);
    if (!st)
        st = sgi_plot_write_sequence(w.data, &data, s, res, from, to,
                                     opt ? opt->max_rows : 0, &rare, err);
    if (!st)
        st = sgi_plot_script_begin(&sc, &w, fmt, 0, title, err);
    if (st)
        return figure_fail(&d, &w, st);

    /* Every position on the x axis is written as an offset from xb. */
    xb = data.xbase;
    if (res && res->status != SG_UNRESOLVED && res->period > 0) {
        uint64_t k;
        n0 = res->preperiod;
        p = res->period;
        k = n0 >= from ? 0 : (from - n0 - 1) / p + 1;
        if (k > (UINT64_MAX - n0) / p) {
            bfirst = UINT64_MAX; /* past any range */
        } else {
            bfirst = n0 + k * p;
        }
        nbound = bfirst <= to ? (to - bfirst) / p + 1 : 0;
        snprintf(label, sizeof label, "period boundaries (p = %llu)", (ull)p);
        if (nbound > MAX_BOUNDARIES) {
            /* Too dense to draw each: mark where the period starts. */
            nbound = n0 >= from && n0 <= to;
            bfirst = n0;
            snprintf(label, sizeof label,
                     "start of the period (p = %llu, too short to mark "
                     "each)",
                     (ull)p);
        }
    } else {
        snprintf(label, sizeof label, "period boundaries");
    }
    if (!nbound || bfirst < xb)
        bfirst = from;
    sgi_plot_put_var_u64(sc.vars, "xmin", from - xb);
    sgi_plot_put_var_u64(sc.vars, "xmax", to - xb);
    sgi_plot_put_var_u64(
        sc.vars, "xtic",
        tick_step(from - xb, to - xb, max_ticks(PLOT_ROOM, digits(to - xb))));
    sgi_plot_put_var_u64(sc.vars, "xdigits", digits(to - xb));
    sgi_plot_put_var_u64(sc.vars, "step", data.step);
    /* The shading runs to n0; n0 <= xmin means none. */
    sgi_plot_put_var_u64(sc.vars, "n0",
                         p > 0 && n0 > from ? n0 - xb : from - xb);
    sgi_plot_put_var_u64(sc.vars, "p", p);
    sgi_plot_put_var_u64(sc.vars, "bfirst", bfirst - xb);
    sgi_plot_put_var_u64(sc.vars, "nbound", nbound);
    sgi_plot_put_var_str(sc.vars, "boundlabel", label);
    sgi_plot_put_var_u64(sc.vars, "raremask", rare.mask);
    sgi_plot_put_var_u64(sc.vars, "rareparity", (uint64_t)rare.parity);
    sgi_plot_put_var_u64(sc.vars, "rareshift", (uint64_t)rare.parity_shift);
    if (!rare.parity)
        snprintf(label, sizeof label,
                 "rare values: popcount(G & %llu) even (%llu)", (ull)rare.mask,
                 (ull)rare.count);
    else
        snprintf(label, sizeof label,
                 "rare values: popcount(G & %llu) + %s mod 2 even (%llu)",
                 (ull)rare.mask, rare.parity_shift ? "(n + 1)" : "n",
                 (ull)rare.count);
    sgi_plot_put_var_str(sc.vars, "rarelabel", label);
    snprintf(label, sizeof label, "pre-period (n < %llu)", (ull)n0);
    sgi_plot_put_var_str(sc.vars, "prelabel", label);
    if (data.step > 1)
        snprintf(label, sizeof label, "largest G(n) per %llu positions",
                 (ull)data.step);
    else
        snprintf(label, sizeof label, "%s", look->yname);
    sgi_plot_put_var_str(sc.vars, "vallabel", label);
    offset_label(label, sizeof label, "n", xb, "n (heap size)",
                 " (heap size n)");
    sgi_plot_put_var_str(sc.vars, "xlabel", label);

    /* G(n) from 0, or from its least value when offset. */
    ymin = data.ybase ? data.vmin - data.ybase : 0;
    ymax = data.vmax - data.ybase;
    if (ymax == 0)
        ymax = 1;
    sgi_plot_put_var_u64(sc.vars, "ymin", ymin);
    sgi_plot_put_var_u64(sc.vars, "ymax", ymax);
    sgi_plot_put_var_u64(sc.vars, "ytic", tick_step(ymin, ymax, 11));
    offset_label(label, sizeof label, look->yname, data.ybase, look->yname, "");
    sgi_plot_put_var_str(sc.vars, "ylabel", label);
    return sgi_plot_draw(&sc, &w, &d, template_sequence,
                         "plots/sequence.gp (built in)", opt, err);
}

sg_status sg_plot_results(const char *path, const char *title,
                          const sg_plot_result *items, size_t n,
                          const sg_plot_options *opt, sg_error *err)
{
    sg_plot_format fmt;
    sgi_plot_summary sum;
    script sc;
    workdir w;
    dest d;
    char full[1024];
    sg_status st;

    st = check_format(&fmt, path, err);
    if (!st)
        st = figure_begin(&d, &w, path, fmt, opt, err);
    if (st)
        return st;
    st = sgi_plot_write_results(w.data, &sum, items, n, err);
    if (!st) {
        char rest[200];
        snprintf(rest, sizeof rest,
                 " (%llu): %llu periodic, %llu arithmetic-periodic, %llu "
                 "unresolved (not drawn)",
                 (ull)n, (ull)sum.periodic, (ull)sum.arith,
                 (ull)sum.unresolved);
        fit_title(full, sizeof full, title ? title : "results", rest,
                  sgi_plot_title_width(1));
        st = sgi_plot_script_begin(&sc, &w, fmt, 1, full, err);
    }
    if (st)
        return figure_fail(&d, &w, st);
    sgi_plot_put_var_u64(sc.vars, "xmax",
                         sum.max_preperiod > 10 ? sum.max_preperiod : 10);
    sgi_plot_put_var_u64(sc.vars, "ymax",
                         sum.max_period > 10 ? sum.max_period : 10);
    sgi_plot_put_var_u64(sc.vars, "cmax",
                         sum.max_point > 2 ? sum.max_point : 2);
    sgi_plot_put_var_u64(sc.vars, "hmax",
                         sum.max_count > 1 ? sum.max_count : 1);
    /* Whole rules only: no tick at 0.5. */
    sgi_plot_put_var_u64(
        sc.vars, "htic",
        tick_step(0, sum.max_count > 1 ? sum.max_count : 1, 9));
    sgi_plot_put_var_u64(sc.vars, "nperiodic", sum.periodic);
    sgi_plot_put_var_u64(sc.vars, "narith", sum.arith);
    return sgi_plot_draw(&sc, &w, &d, template_results,
                         "plots/results.gp (built in)", opt, err);
}

/* The title of a misère figure: the rule, "misère play", the heaps drawn
 * and where tameness ends, wrapped or shortened to fit. */
static sg_status misere_title(char *out, size_t outsz, const sg_rule *r,
                              const sg_misere *m, sg_error *err)
{
    char *canon = sg_rule_canonical(r);
    char rest[200];

    if (!canon)
        return sg_error_set(err, SG_E_NOMEM, -1, "out of memory");
    if (m->tame_to < m->n)
        snprintf(rest, sizeof rest,
                 ": misère play, heaps 0..%zu, the first not tame is heap %zu",
                 m->n - 1, m->tame_to);
    else
        snprintf(rest, sizeof rest, ": misère play, heaps 0..%zu, all tame",
                 m->n - 1);
    fit_title(out, outsz, canon, rest, sgi_plot_title_width(0));
    free(canon);
    return SG_OK;
}

sg_status sg_plot_misere(const char *path, const sg_rule *r, const sg_misere *m,
                         const sg_plot_options *opt, sg_error *err)
{
    sg_plot_format fmt;
    sgi_plot_misere data;
    script sc;
    workdir w;
    dest d;
    char title[1024], label[200];
    uint64_t xmax, ymax;
    sg_status st;

    st = check_format(&fmt, path, err);
    if (!st && m->n == 0)
        st = sg_error_set(err, SG_E_INPUT, -1,
                          "no misère values were computed: nothing to draw");
    if (!st)
        st = misere_title(title, sizeof title, r, m, err);
    if (!st)
        st = figure_begin(&d, &w, path, fmt, opt, err);
    if (st)
        return st;
    st = sgi_plot_write_misere(w.data, &data, m, err);
    if (!st)
        st = sgi_plot_script_begin(&sc, &w, fmt, 0, title, err);
    if (st)
        return figure_fail(&d, &w, st);

    xmax = (uint64_t)m->n - 1;
    ymax = data.vmax ? data.vmax : 1;
    sgi_plot_put_var_u64(sc.vars, "xmin", 0);
    sgi_plot_put_var_u64(sc.vars, "xmax", xmax);
    sgi_plot_put_var_u64(
        sc.vars, "xtic",
        tick_step(0, xmax, max_ticks(PLOT_ROOM, digits(xmax))));
    sgi_plot_put_var_u64(sc.vars, "xdigits", digits(xmax));
    sgi_plot_put_var_u64(sc.vars, "ymax", ymax);
    sgi_plot_put_var_u64(sc.vars, "ytic", tick_step(0, ymax, 11));
    sgi_plot_put_var_u64(sc.vars, "tameto", m->tame_to);
    sgi_plot_put_var_u64(sc.vars, "nwild", data.nwild);
    sgi_plot_put_var_str(sc.vars, "normlabel", "G(n), normal play");
    sgi_plot_put_var_str(sc.vars, "mislabel", "G" SUPMINUS "(n), misère play");
    snprintf(label, sizeof label, "heaps from %zu, the first not tame",
             m->tame_to);
    sgi_plot_put_var_str(sc.vars, "bandlabel", label);
    snprintf(label, sizeof label, "genus not tame (%llu heap%s)",
             (ull)data.nwild, data.nwild == 1 ? "" : "s");
    sgi_plot_put_var_str(sc.vars, "wildlabel", label);
    sgi_plot_put_var_str(sc.vars, "xlabel", "n (heap size)");
    sgi_plot_put_var_str(sc.vars, "ylabel", "G(n) and G" SUPMINUS "(n)");
    return sgi_plot_draw(&sc, &w, &d, template_misere,
                         "plots/misere.gp (built in)", opt, err);
}
