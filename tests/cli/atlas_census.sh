#!/bin/bash
# tests/cli/atlas_census.sh - `sgexplore atlas --census DIR --out SITE`
# (TAP): the site of a census folder, with no cache.  The whole shipped
# census (data/census) is built without figures, every row valid and with
# its page, the index's rows the table's codes, statuses, n0 and p.  A
# small census (rows of the shipped one, their certificates, and crafted
# rows: a wrong canonical form, a certificate stating another period, a
# path out of the folder, markup in the code, a certificate whose
# checksum the recomputed values refute) gets its figures, its bad rows
# listed as invalid with the reason and no page, every link inside the
# site; Kayles' page shows the published values and a certificate that
# `verify` confirms; a period past the computed values gets no figure and
# says why.  Options that exclude each other and a missing census are
# usage errors.  Where Chromium is installed, the index loads with no
# console error and filters by length, status, n0 and p through the
# URL's hash, and a page with its figure loads with no console error.

SG=${SGEXPLORE:-sgexplore}
SRC=${top_srcdir:-.}
C=$SRC/data/census
T=$(mktemp -d "${TMPDIR:-/tmp}/atlas_census.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT
export SGEXPLORE_DB="$T/unused.db"

. "$(dirname "$0")/tap.sh"

if [ ! -f "$C/octal.tsv" ] || ! python3 -c 'import html.parser' 2>/dev/null; then
    echo "1..0 # SKIP no data/census/octal.tsv or no python3"
    exit 0
fi
have_gp=0
command -v gnuplot >/dev/null 2>&1 && have_gp=1

# rows SITE: the index's rows, "code status n0 p" (n0, p: - when unresolved)
rows() {
    python3 - "$1" <<'PY'
import html.parser, sys
class P(html.parser.HTMLParser):
    rows, cur, cell, intd, intbody = [], None, "", False, False
    def handle_starttag(self, tag, attrs):
        if tag == "tbody":
            self.intbody = True
        if tag == "tr" and self.intbody:
            self.cur = []
        if tag == "td":
            self.intd, self.cell = True, ""
    def handle_endtag(self, tag):
        if tag == "td" and self.cur is not None:
            self.cur.append(self.cell)
            self.intd = False
        if tag == "tr" and self.cur is not None:
            self.rows.append(self.cur)
            self.cur = None
    def handle_data(self, d):
        if self.intd:
            self.cell += d
p = P()
p.feed(open(sys.argv[1], encoding="utf-8").read())
for r in p.rows:
    print(r[0], r[2], r[3], r[4])
PY
}
# want OCTAL: the same lines from a census table
want() {
    python3 - "$1" <<'PY'
import sys
ls = [l.rstrip('\n').split('\t') for l in open(sys.argv[1]) if not l.startswith('#')]
for c in ls[1:]:
    r = dict(zip(ls[0], c))
    print(r['code'], r['status'], r['preperiod'] or '-', r['period'] or '-')
PY
}

# --- the whole census, no figures ------------------------------------------
out=$("$SG" atlas --census "$C" --out "$T/all" --no-plots --census-values 256 2>"$T/err")
rc=$?
total=$(($(grep -vc '^#' "$C/octal.tsv") - 1))
check "the shipped census: every one of its $total rows valid, with a page ($out)" \
    bash -c '[ $1 = 0 ] && [ "$2" = "atlas: $3/index.html: $4 rows, $4 pages, 0 invalid rows, 0 figures" ] && [ ! -s "$5" ] && [ $(ls "$3"/rules/*.html | wc -l) = $4 ]' \
    _ "$rc" "$out" "$T/all" "$total" "$T/err"
rows "$T/all/index.html" >"$T/all.rows"
want "$C/octal.tsv" >"$T/all.want"
check "the shipped census: the index's codes, statuses, n0 and p are the table's" \
    cmp -s "$T/all.rows" "$T/all.want"
check "the shipped census: a certificate per proven row, as the census's" \
    bash -c '[ $(ls "$1"/rules/*.cert | wc -l) = $(awk -F"\t" "\$3 != \"unresolved\" && \$3 != \"status\" && !/^#/" "$2" | wc -l) ] && cmp -s "$1/rules/0.77.cert" "$3/certs/0.77.cert"' \
    _ "$T/all" "$C/octal.tsv" "$C"

# --- a small census with crafted rows ---------------------------------------
S=$T/c
mkdir -p "$S/certs"
{
    grep -v '^#' "$C/octal.tsv" | head -n 1
    for code in 0.07 0.77 0.137 0.33 0.6 0.0007 4.07 0.1146; do
        awk -F'\t' -v c="$code" '$1 == c' "$C/octal.tsv"
    done
} >"$S/octal.tsv"
for f in $(awk -F'\t' 'NR > 1 && $9 != "" { print $9 }' "$S/octal.tsv"); do
    cp "$C/$f" "$S/$f"
done
# crafted: 0.16 claims the rule 0.15; 0.56 claims a period one more than
# its certificate's; 0.26 names a path out of the folder; a code with
# markup; 0.36... is not a census code; 0.45 with a checksum one bit off
# (bound 1000 or less: inside the values the page computes).
awk -F'\t' -v OFS='\t' '$1 == "0.16" { $2 = "0.15"; print }' "$C/octal.tsv" >>"$S/octal.tsv"
awk -F'\t' -v OFS='\t' '$1 == "0.56" { $5 = $5 + 1; print }' "$C/octal.tsv" >>"$S/octal.tsv"
cp "$C/certs/0.56.cert" "$S/certs/"
awk -F'\t' -v OFS='\t' '$1 == "0.26" { $9 = "certs/../../octal.tsv"; print }' "$C/octal.tsv" >>"$S/octal.tsv"
awk -F'\t' -v OFS='\t' '$1 == "0.06" { $1 = "0.06<script>x</script>"; print }' "$C/octal.tsv" >>"$S/octal.tsv"
awk -F'\t' -v OFS='\t' '$1 == "0.45" { print }' "$C/octal.tsv" >>"$S/octal.tsv"
sum=$(sed -n 's/^checksum: fnv1a64://p' "$C/certs/0.45.cert")
bound=$(sed -n 's/^bound: //p' "$C/certs/0.45.cert")
wrong=$(printf '%016x' $((0x$sum ^ 1)))
sed "s/^checksum: fnv1a64:$sum\$/checksum: fnv1a64:$wrong/" "$C/certs/0.45.cert" >"$S/certs/0.45.cert"
sed -i "s/fnv1a64:$sum/fnv1a64:$wrong/" "$S/octal.tsv"

out=$("$SG" atlas --census "$S" --out "$T/site" 2>"$T/err")
rc=$?
figs=$([ $have_gp = 1 ] && echo 7 || echo 0)
check "a small census: 13 rows, 8 pages, 5 invalid rows ($out)" \
    bash -c '[ $1 = 0 ] && [ "$2" = "atlas: $3/index.html: 13 rows, 8 pages, 5 invalid rows, $4 figures" ] && [ ! -s "$5" ]' \
    _ "$rc" "$out" "$T/site" "$figs" "$T/err"
check "0.45's checksum is refuted by its values (bound $bound): invalid, no page" \
    bash -c 'grep -q "<td>0.45</td>.*invalid row: its values do not match its certificate&#39;s checksum" "$1/index.html" && [ ! -e "$1/rules/0.45.html" ]' _ "$T/site"
check "0.16 with another rule, 0.56 with another period, 0.26 with a path out: invalid, each with its reason" \
    bash -c 'grep -q "<td>0.16</td>.*its rule is not the canonical form of its code" "$1" && grep -q "<td>0.56</td>.*its certificate does not state the row&#39;s claim" "$1" && grep -q "<td>0.26</td>.*it names no certificate file" "$1"' _ "$T/site/index.html"
check "the index's header: the census's counts and its own markup, none escaped" \
    bash -c 'grep -q "13 rows of the census <code>c</code>: 6 periodic, 0 arithmetic-periodic, 2 unresolved, 5 invalid." "$1" && grep -q "computed again, at most 4096.</p>" "$1" && ! grep -q "&lt;/\?\(p\|code\)&gt;" "$1"' _ "$T/site/index.html"
check "markup in a code is shown as text, never as markup" \
    bash -c 'grep -q "<td>0.06&lt;script&gt;x&lt;/script&gt;</td>.*its code is not a census code" "$1" && [ $(grep -o "<script" "$1" | wc -l) = 1 ]' _ "$T/site/index.html"
check "every link of every page resolves to a file inside the site" \
    python3 - "$T/site" <<'PY'
import html.parser, os, sys
root = os.path.realpath(sys.argv[1])
bad, n = [], 0
class P(html.parser.HTMLParser):
    def handle_starttag(self, tag, attrs):
        for k, v in attrs:
            if k in ("href", "src"):
                self.links.append(v)
for d, _, files in os.walk(root):
    for f in files:
        if f.endswith(".html"):
            p = P(); p.links = []
            p.feed(open(os.path.join(d, f), encoding="utf-8").read())
            for l in p.links:
                n += 1
                t = os.path.realpath(os.path.join(d, l.split("#")[0]))
                if "://" in l or not t.startswith(root + os.sep) or not os.path.isfile(t):
                    bad.append((f, l))
sys.exit(1 if bad or n == 0 else 0)
PY
P77=$T/site/rules/0.77.html
check "Kayles (0.77): period 12 after 71, the published first values, the census's certificate" \
    bash -c 'grep -q "<tr><th>period p</th><td>12</td>" "$1" && grep -q "<tr><th>pre-period n0</th><td>71</td>" "$1" && grep -q "^       0: 0 1 2 3 1 4 3 2 1 4 2 6 4 1 2 7 1 4 3 2$" "$1" && grep -q "its checksum that of the values computed again here" "$1" && cmp -s "${1%.html}.cert" "$2"' \
    _ "$P77" "$C/certs/0.77.cert"
check "Kayles' certificate file passes verify --certificate" \
    bash -c '"$1" verify --no-cache --certificate "$2" >/dev/null' _ "$SG" "$T/site/rules/0.77.cert"
check "0.1146: its period ends past the 4096 values of its page: no figure, and why; its checksum not checked, and why" \
    bash -c 'grep -q "No figure: its period ends at n = 653566, past the 4096 values computed for this page" "$1" && grep -q "its checksum not checked here (its bound 1307137 is past the 4096 values" "$1"' _ "$T/site/rules/0.1146.html"
check "0.33 is listed by its code, its page by its canonical form subtract{1,2}" \
    bash -c 'f=$(grep -o "href=\"rules/[^\"]*\">0.33</a>" "$1" | sed "s/^href=\"//; s/\".*//") && grep -q "<h1>subtract{1,2}</h1>" "$2/$f"' _ "$T/site/index.html" "$T/site"
if [ $have_gp = 1 ]; then
    check "the figures: an SVG on each page whose values reach its period" \
        bash -c 'grep -q "<img src=\"0.77.svg\"" "$1" && head -c 300 "${1%.html}.svg" | grep -q "<svg"' _ "$P77"
else
    skip "figures (no gnuplot)"
fi

# --- usage ------------------------------------------------------------------
"$SG" atlas --census "$S" --db "$T/x.db" --out "$T/u1" >/dev/null 2>"$T/err"
rc=$?
check "--census with --db: exit 2, one line, nothing written" \
    bash -c '[ $1 = 2 ] && [ $(wc -l <"$2") = 1 ] && [ ! -e "$3" ]' _ "$rc" "$T/err" "$T/u1"
"$SG" atlas --census-values 10 --out "$T/u2" >/dev/null 2>"$T/err"
rc=$?
check "--census-values without --census: exit 2" test $rc -eq 2 -a ! -e "$T/u2"
"$SG" atlas --census "$T/none" --out "$T/u3" >/dev/null 2>"$T/err"
rc=$?
check "a folder without octal.tsv: exit 1, one line, no site" \
    bash -c '[ $1 = 1 ] && [ $(wc -l <"$2") = 1 ] && [ ! -e "$3" ] && [ -z "$(ls -A "$4" | grep atlas-)" ]' _ "$rc" "$T/err" "$T/u3" "$T"

# --- a real browser -----------------------------------------------------------
CHROMIUM=$(command -v chromium || command -v chromium-browser)
if [ -n "$CHROMIUM" ]; then
    browse() {
        timeout "${BROWSE_SECONDS:-60}" "$CHROMIUM" --headless --no-sandbox --disable-gpu \
            --disable-background-networking --disable-component-update \
            --disable-sync --no-first-run --user-data-dir="$(mktemp -d "$T/chr.XXXXXX")" \
            --enable-logging=stderr --v=0 --dump-dom "$1" >"$2" 2>"$3"
    }
    noconsole() { ! grep -q "CONSOLE\|Refused\|Uncaught\|Failed to load" "$1"; }
    export -f noconsole
    browse "file://$T/site/index.html#length=0.dd&status=periodic&n0max=60&sort=-p" "$T/dom1" "$T/con1" &
    browse "file://$P77" "$T/dom3" "$T/con3" &
    wait
    # the whole census's index (4,607 rows) alone, with more time
    BROWSE_SECONDS=180 browse "file://$T/all/index.html#length=0.dddd&status=proven&pmax=2&n0max=5" "$T/dom2" "$T/con2"
    # the small census: two-digit codes proven with n0 <= 60: 0.07 (n0 53,
    # p 34) and 0.33 (n0 0, p 3), by p descending; 0.77 (n0 71) is not
    order=$(python3 - "$T/dom1" <<'PY'
import html.parser, sys
class P(html.parser.HTMLParser):
    out, cur, n = [], None, 0
    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "tr" and "data-s" in a:
            self.cur, self.n = ("hidden" in a, []), 0
        if tag == "td":
            self.n += 1
    def handle_data(self, d):
        if self.cur is not None and self.n == 1 and not self.cur[1]:
            self.cur[1].append(d)
    def handle_endtag(self, tag):
        if tag == "tr" and self.cur is not None:
            if not self.cur[0]:
                self.out.append(self.cur[1][0] if self.cur[1] else "?")
            self.cur = None
p = P()
p.feed(open(sys.argv[1], encoding="utf-8").read())
print(" ".join(p.out))
PY
)
    check "chromium: the index filters by length, status and n0 and sorts by p, with no console errors ($order)" \
        bash -c 'grep -q "data-ready=\"1\"" "$1" && grep -q "2 of 13 rows shown" "$1" && [ "$3" = "0.07 0.33" ] && noconsole "$2"' _ "$T/dom1" "$T/con1" "$order"
    shown=$(python3 - "$C/octal.tsv" <<'PY'
import sys
ls = [l.rstrip('\n').split('\t') for l in open(sys.argv[1]) if not l.startswith('#')]
rs = [dict(zip(ls[0], c)) for c in ls[1:]]
print(sum(1 for r in rs if len(r['code']) == 6 and r['code'][0] == '0'
          and r['status'] != 'unresolved' and int(r['period']) <= 2
          and int(r['preperiod']) <= 5))
PY
)
    check "chromium: the whole census, four-digit codes proven with p <= 2 and n0 <= 5: $shown rows, as the table has" \
        bash -c 'grep -q "data-ready=\"1\"" "$1" && grep -q "$3 of $4 rows shown" "$1" && noconsole "$2"' _ "$T/dom2" "$T/con2" "$shown" "$total"
    check "chromium: Kayles' page loads with its figure and no console errors" \
        bash -c 'grep -q "<h1>0.77</h1>" "$1" && noconsole "$2"' _ "$T/dom3" "$T/con3"
else
    for i in 1 2 3; do skip "chromium (Debian package chromium) is not installed"; done
fi

echo "1..$n"
[ "$fails" -eq 0 ]
