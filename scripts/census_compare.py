#!/usr/bin/env python3
"""census_compare.py - the census against the published tables, and its
classes (docs/CENSUS.md, "Checks" and "Classification").

Usage: census_compare.py DB CENSUS_DIR DATA_DIR

DB          the cache the census's sweeps wrote (census-work/census.db)
CENSUS_DIR  data/census: reads octal.tsv, writes published.tsv and
            classes.tsv there
DATA_DIR    data: reads known.tsv, octal2.tsv, octal3.tsv, tczajka.tsv
            (and three older equivalences quoted in T. Czajka's README)

published.tsv: one line per published claim about a census code: the
source, the code, what is claimed (status, n0, p, the first values, or
"same values as CODE shifted by J heaps" for a lookup table's entry), the
census's answer, and `agrees` (yes, no, or open: the census cannot tell,
e.g. an unresolved code).  A "no" names the heap where it shows.

classes.tsv: the codes grouped three ways: `same-rule` (equal canonical
forms: one game, THEORY.md section 13), `equal` (proven with the same n0,
p, saltus and G(0..n0+p-1): equal for every n), `agree` (G(0..4095) equal,
not both proven: an observation over those values only, as `sweep`'s
summary says it).

new.tsv: every four-digit code proven with n0 + p > 1000 (not "trivial"
in T. Czajka's sense: its period is not seen in the first 1000 values),
and whether its sequence is that of a code of up to three digits shifted
by j = -3..3 heaps (G(n) = G'(n - j) for every n: both proven, n0 = n0' + j,
the same p and saltus, the first max(n0, n0') + p + |j| values equal), or
a published one (known.tsv: 0.1777), or a sequence no code of up to
three digits has and no table here lists ("new"; games of up to three
digits with n0 + p beyond 2^24 are not compared: none is in the census).

The values are read from the cache's tables (docs/CACHE.md) and extended
through a proven rule's period; nothing here computes a Grundy value.
Python 3 standard library only.
"""
import array
import csv
import hashlib
import sqlite3
import sys

AGREE_OVER = 4096       # as the sweep's summary
LOOKUP_OVER = 1 << 16   # values compared for a lookup table's equivalence


def read_tsv(path):
    with open(path, encoding='utf-8') as f:
        lines = [l for l in f if not l.startswith('#')]
    return list(csv.DictReader(lines, delimiter='\t'))


class Values:
    """G(0..) of cached rules, extended through proven periods."""

    def __init__(self, db):
        self.con = sqlite3.connect('file:%s?mode=ro' % db, uri=True)
        self.memo = {}

    def row(self, rule):
        cur = self.con.execute(
            'SELECT id, status, preperiod, period, saltus, computed, stored '
            'FROM rules WHERE rule = ?', (rule,))
        return cur.fetchone()

    def stored(self, rule):
        """The row and the stored values G(0..LOOKUP_OVER-1) at most (a
        chunk holds up to 2^20 values: only the first one is read)."""
        if rule in self.memo:
            return self.memo[rule]
        r = self.row(rule)
        if r is None:
            raise KeyError(rule)
        vals = []
        for first, count, width, data in self.con.execute(
                'SELECT first, count, width, data FROM chunks '
                'WHERE rule_id = ? AND first < ? ORDER BY first',
                (r[0], LOOKUP_OVER)):
            if first != len(vals):
                raise ValueError('%s: a gap in the chunks' % rule)
            a = array.array({1: 'B', 2: 'H', 4: 'I'}[width])
            a.frombytes(data[:min(count, LOOKUP_OVER) * width])
            if sys.byteorder != 'little':
                a.byteswap()
            vals.extend(a)
        self.memo[rule] = (r, vals[:LOOKUP_OVER])
        return self.memo[rule]

    def get(self, rule, n):
        """G(0..n-1) for n <= LOOKUP_OVER, or fewer when the rule is
        unresolved and computed to fewer."""
        assert n <= LOOKUP_OVER
        r, vals = self.stored(rule)
        _, status, n0, p, s, computed, _ = r
        if status == 'unresolved':
            return vals[:min(n, computed)]
        out = list(vals[:n])
        while len(out) < n:
            m = len(out)
            out.append(out[m - p] + s if m >= n0 + p else vals[m])
        return out

    def head(self, rule):
        """G(0..n0+p-1) of a proven rule: every stored value (not kept)."""
        r = self.row(rule)
        vals = []
        for first, count, width, data in self.con.execute(
                'SELECT first, count, width, data FROM chunks '
                'WHERE rule_id = ? ORDER BY first', (r[0],)):
            a = array.array({1: 'B', 2: 'H', 4: 'I'}[width])
            a.frombytes(data[:count * width])
            if sys.byteorder != 'little':
                a.byteswap()
            vals.extend(a)
        assert len(vals) == r[2] + r[3], rule
        return vals

    def head_digest(self, rule):
        """SHA-256 of G(0..n0+p-1) of a proven rule (4-byte words), read
        one chunk at a time (0.1777 stores 221 million values)."""
        r = self.row(rule)
        h = hashlib.sha256()
        n = 0
        for count, width, data in self.con.execute(
                'SELECT count, width, data FROM chunks '
                'WHERE rule_id = ? ORDER BY first', (r[0],)):
            a = array.array({1: 'B', 2: 'H', 4: 'I'}[width])
            a.frombytes(data[:count * width])
            if sys.byteorder != 'little':
                a.byteswap()
            h.update(array.array('I', a).tobytes())
            n += count
        assert n == r[2] + r[3], rule
        return h.hexdigest()

    def proven(self, rule):
        return self.stored(rule)[0][1] != 'unresolved'


def first_difference(a, b):
    for i in range(min(len(a), len(b))):
        if a[i] != b[i]:
            return i
    return None


def expand_nimbers(text, n):
    """TC's "prefix(period)" nimber string, one character a value
    (0-9, then letters), to n values."""
    head, _, rest = text.partition('(')
    period = rest.rstrip(')')
    s = head
    while len(s) < n:
        s += period
    return [int(c, 36) for c in s[:n]]


def summary(census, by_rule, vals, out, classes, new_lines):
    """The counts docs/CENSUS.md quotes, as Markdown on stdout."""
    def kind(code):
        return '4.' + 'd' * (len(code) - 2) if code.startswith('4.') \
            else '0.' + 'd' * (len(code) - 2)
    kinds = {}
    for code, r in census.items():
        k = kinds.setdefault(kind(code), {})
        k[r['status']] = k.get(r['status'], 0) + 1
    print('| codes | rows | periodic | arithmetic-periodic | unresolved |')
    print('|---|---|---|---|---|')
    tot = {}
    for k in sorted(kinds, key=lambda x: (x[0], len(x))):
        v = kinds[k]
        for key, n in v.items():
            tot[key] = tot.get(key, 0) + n
        print('| %s | %d | %d | %d | %d |' % (
            k.replace('d', 'd') if k != '4.' else '4.0', sum(v.values()),
            v.get('periodic', 0), v.get('arithmetic-periodic', 0),
            v.get('unresolved', 0)))
    print('| all | %d | %d | %d | %d |' % (
        sum(tot.values()), tot.get('periodic', 0),
        tot.get('arithmetic-periodic', 0), tot.get('unresolved', 0)))
    print()
    th, st = {}, {}
    for r in census.values():
        if r['theorem']:
            th[r['theorem']] = th.get(r['theorem'], 0) + 1
        st[r['stopped']] = st.get(r['stopped'], 0) + 1
    print('theorems: ' + ', '.join('%s %d' % kv for kv in sorted(th.items())))
    print('stopped: ' + ', '.join('%s %d' % kv for kv in sorted(st.items())))
    el = {'proven': 0.0, 'unresolved': 0.0}
    for rule, codes in by_rule.items():
        e = vals.con.execute('SELECT elapsed, status FROM rules WHERE rule = ?',
                             (rule,)).fetchone()
        el['unresolved' if e[1] == 'unresolved' else 'proven'] += e[0]
    total = el['proven'] + el['unresolved']
    print('computing time (the cache\'s elapsed, summed over the %d rules): '
          '%.0f s, of which %.0f s (%.1f%%) on the unresolved rules'
          % (len(by_rule), total, el['unresolved'],
             100 * el['unresolved'] / total if total else 0))
    comp = sorted(int(r['computed']) for r in census.values()
                  if r['status'] == 'unresolved')
    if comp:
        print('unresolved rows computed: least %d, median %d, largest %d'
              % (comp[0], comp[len(comp) // 2], comp[-1]))
    print()
    agg = {}
    for line in out:
        agg[(line[0], line[5])] = agg.get((line[0], line[5]), 0) + 1
    print('published claims: ' + '; '.join(
        '%s %s %d' % (k[0], k[1], n) for k, n in sorted(agg.items())))
    for line in out:
        if line[5] in ('no', 'new'):
            print('  %s' % ' | '.join(line))
    print()
    ck = {}
    for c in classes:
        ck[c[0]] = ck.get(c[0], 0) + 1
    print('classes: ' + ', '.join('%s %d (%d rules)' % (
        k, n, sum(len(c[2]) for c in classes if c[0] == k))
        for k, n in sorted(ck.items())))
    print('codes named otherwise than by their canonical form: ' + ', '.join(
        '%s = %s' % (c, census[c]['rule']) for c in sorted(census)
        if census[c]['rule'] != c))
    print()
    groups = {}
    for line in new_lines:
        code, n0, p, s_, cert, seq = line.split('\t')
        groups.setdefault((int(n0), int(p), seq == 'new'), []).append(
            (code, cert, seq))
    print('four-digit codes with n0 + p > 1000: %d (%d a new sequence)'
          % (len(new_lines), sum(1 for l in new_lines
                                 if l.endswith('\tnew'))))
    print('| n0 | p | codes | certificate of the first | sequence |')
    print('|---:|---:|---|---|---|')
    for (n0, p, isnew), members in sorted(groups.items()):
        print('| %d | %d | %s | `%s` | %s |' % (
            n0, p, ' '.join(m[0] for m in members), members[0][1],
            'new' if isnew else members[0][2]))


def main(argv):
    if len(argv) != 4:
        sys.exit(__doc__.split('\n\n')[1])
    db, cdir, ddir = argv[1:]
    census = {r['code']: r for r in read_tsv(cdir + '/octal.tsv')}
    by_rule = {}
    for r in census.values():
        by_rule.setdefault(r['rule'], []).append(r['code'])
    vals = Values(db)
    out = []

    def claim(source, code, what, published, ours, agrees, heap=''):
        out.append((source, code, what, published, ours, agrees, str(heap)))

    def numbers(code):
        r = census[code]
        if r['status'] == 'unresolved':
            return 'unresolved to %s' % r['computed']
        return '%s n0=%s p=%s s=%s' % (r['status'], r['preperiod'],
                                      r['period'], r['saltus'])

    def status_claim(source, code, status, n0, p):
        r = census[code]
        pub = status if status == 'unresolved' else \
            '%s n0=%s p=%s' % (status, n0, p)
        if status == 'unresolved':
            agrees = 'open' if r['status'] == 'unresolved' else 'new'
        elif r['status'] == 'unresolved':
            agrees = 'open'
        else:
            agrees = 'yes' if (r['preperiod'], r['period']) == (n0, p) \
                else 'no'
        claim(source, code, 'status', pub, numbers(code), agrees)

    # known.tsv, octal2.tsv, octal3.tsv
    for r in read_tsv(ddir + '/known.tsv'):
        for code in by_rule.get(r['rule_text'], []):
            status_claim('known.tsv', code, r['status'], r['preperiod'],
                         r['period'])
    for name in ('octal2.tsv', 'octal3.tsv'):
        for r in read_tsv(ddir + '/' + name):
            if r['code'] in census:
                status_claim(name, r['code'], r['status'], r['preperiod'],
                             r['period'])
    def same_values(source, code, target):
        """A table's claim that CODE has TARGET's values (shifted by the
        heaps a game that may not take a one-token heap loses)."""
        rule, other = census[code]['rule'], census[target]['rule']
        a = vals.get(rule, LOOKUP_OVER)
        b = vals.get(other, LOOKUP_OVER)
        # TC: a game that may not take a heap of one token is the
        # other game with every heap one smaller, so either sequence
        # may be the other shifted by j heaps (j < 4 here).
        best = None
        for x, y, sx, sy in ((a, b, code, target), (b, a, target, code)):
            for j in range(0, 4):
                if x[:j] != [0] * j:
                    break
                d = first_difference(x[j:], y)
                over = min(len(x) - j, len(y))
                if d is None:
                    d = float('inf')
                if best is None or d > best[0]:
                    best = (d, j, over, sx, sy)
        d, j, over, sx, sy = best
        what = 'same values as %s' % target
        if d == float('inf'):
            exact = vals.proven(rule) and vals.proven(other)
            claim(source, code, what, 'equivalent',
                  'G_%s(n) = G_%s(n-%d) for n < %d%s' % (
                      sx, sy, j, over + j,
                      ' (both proven)' if exact else ''), 'yes')
        else:
            claim(source, code, what, 'equivalent',
                  'G_%s(n) differs from G_%s(n-%d) first at heap %d '
                  '(of %d compared; no shift of 0..3 agrees)'
                  % (sx, sy, j, d + j, over + j), 'no', d + j)

    # tczajka.tsv
    for r in read_tsv(ddir + '/tczajka.tsv'):
        code = r['code']
        if code not in census:
            continue
        rule = census[code]['rule']
        if r['table'] in ('trivial', 'solved'):
            status_claim('TC ' + r['table'], code, 'periodic', r['prefix'],
                         r['period'])
        elif r['table'] == 'unsolved':
            status_claim('TC unsolved', code, 'unresolved', '', '')
        if r['table'] == 'trivial':
            pub = expand_nimbers(r['nimbers'], 1000)
            ours = vals.get(rule, 1000)
            d = first_difference(pub, ours)
            n = min(len(pub), len(ours))
            claim('TC trivial', code, 'G(0..%d)' % (n - 1), r['nimbers'],
                  'computed', 'yes' if d is None else 'no',
                  '' if d is None else d)
        if r['table'] == 'lookup' and r['maps_to'] in census:
            same_values('TC lookup', code, r['maps_to'])
    # Older tables' equivalences, as T. Czajka's README quotes them
    # ("Mistakes found in other people's results"): Winning Ways' game
    # locator sends 0.27 to 0.06 and 0.314 to 0.31, Flammenkamp's tables
    # 0.161 to 0.36.
    for source, code, target in (('WW locator (quoted by TC)', '0.27', '0.06'),
                                 ('WW locator (quoted by TC)', '0.314', '0.31'),
                                 ('Fla (quoted by TC)', '0.161', '0.36')):
        same_values(source, code, target)
    with open(cdir + '/published.tsv', 'w', encoding='utf-8') as f:
        f.write('# the census against the published tables; written by '
                'scripts/census_compare.py (docs/CENSUS.md)\n')
        f.write('source\tcode\tclaim\tpublished\tcensus\tagrees\theap\n')
        for line in out:
            f.write('\t'.join(line) + '\n')

    # classes
    classes = []
    for rule, codes in by_rule.items():
        if len(codes) > 1:
            classes.append(('same-rule', rule, codes))
    equal, agree = {}, {}
    for rule, codes in by_rule.items():
        r = census[codes[0]]
        if r['status'] != 'unresolved':
            key = (r['preperiod'], r['period'], r['saltus'],
                   vals.head_digest(rule))
            equal.setdefault(key, []).append(rule)
        v = vals.get(rule, AGREE_OVER)
        if len(v) == AGREE_OVER:
            h = hashlib.sha256(repr(v).encode()).hexdigest()
            agree.setdefault(h, []).append(rule)
    for key, rules in equal.items():
        if len(rules) > 1:
            classes.append(('equal', 'n0=%s p=%s s=%s' % key[:3], rules))
    seen = {frozenset(r) for k, _, r in classes if k == 'equal'}
    for h, rules in agree.items():
        if len(rules) > 1 and frozenset(rules) not in seen:
            classes.append(('agree', 'G(0..%d)' % (AGREE_OVER - 1), rules))
    with open(cdir + '/classes.tsv', 'w', encoding='utf-8') as f:
        f.write('# the census\'s classes; written by '
                'scripts/census_compare.py (docs/CENSUS.md)\n')
        f.write('kind\tkey\tsize\tmembers\n')
        for kind, key, members in classes:
            f.write('%s\t%s\t%d\t%s\n' % (kind, key, len(members),
                                          ' '.join(members)))
    # new.tsv: the four-digit codes with a non-trivial period.
    short = {}
    for rule, codes in by_rule.items():
        r = census[codes[0]]
        if r['status'] != 'unresolved' and min(len(c) for c in codes) <= 5:
            short.setdefault((r['period'], r['saltus']), []).append(
                (int(r['preperiod']), rule, min(codes, key=len)))
    heads = {}

    def head(rule):
        if rule not in heads:
            heads[rule] = list(vals.head(rule))
        return heads[rule]

    def extended(rule, n0, p, s, n):
        h = head(rule)
        out = list(h[:n])
        while len(out) < n:
            out.append(out[len(out) - p] + s)
        return out

    new_lines = []
    for code in sorted(census, key=lambda c: (len(c), c)):
        r = census[code]
        if len(code) != 6 or r['status'] == 'unresolved':
            continue
        n0, p, sal = int(r['preperiod']), int(r['period']), int(r['saltus'])
        if n0 + p <= 1000:
            continue
        same = ''
        for n0s, rule_s, code_s in short.get((r['period'], r['saltus']), []):
            j = n0 - n0s
            if not -3 <= j <= 3 or max(n0, n0s) + p > 1 << 24:
                continue
            n = max(n0, n0s) + p + abs(j)
            a = extended(r['rule'], n0, p, sal, n)
            b = extended(rule_s, n0s, p, sal, n)
            if j < 0:
                a, b, j = b, a, -j
            if a[:j] == [0] * j and a[j:] == b[:n - j]:
                same = '%s shifted by %d' % (code_s, n0 - n0s)
                break
        if not same and any(o[1] == code and o[5] == 'yes' for o in out):
            same = 'published (%s)' % ', '.join(sorted(
                {o[0] for o in out if o[1] == code}))
        new_lines.append('\t'.join([code, r['preperiod'], r['period'],
                                     r['saltus'], r['certificate'],
                                     same or 'new']))
    with open(cdir + '/new.tsv', 'w', encoding='utf-8') as f:
        f.write('# four-digit codes proven with n0 + p > 1000; written by '
                'scripts/census_compare.py (docs/CENSUS.md)\n')
        f.write('code\tpreperiod\tperiod\tsaltus\tcertificate\tsequence\n')
        for line in new_lines:
            f.write(line + '\n')

    summary(census, by_rule, vals, out, classes, new_lines)

    counts = {}
    for line in out:
        counts[line[5]] = counts.get(line[5], 0) + 1
    print('census_compare: %d published claims: %s; %d classes' % (
        len(out), ', '.join('%s %d' % kv for kv in sorted(counts.items())),
        len(classes)), file=sys.stderr)


if __name__ == '__main__':
    main(sys.argv)
