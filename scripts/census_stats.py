#!/usr/bin/env python3
"""census_stats.py - the statistics of docs/CENSUS.md, from the data alone.

Usage: census_stats.py [CENSUS]
       census_stats.py --update DOC [CENSUS]
       census_stats.py --check DOC [CENSUS]

Prints, from CENSUS/octal.tsv (default data/census) and the rounds' done
files (CENSUS/rounds/*-done.tsv), Markdown tables: per code length, how
many codes are periodic, arithmetic-periodic and unresolved, how many
rows record a sparse space, the distribution of n0 and p by decades, the
largest pre-period and period (with their code); then, for each round,
what it did (codes finished, proven, at their goal, stopped by their CPU
cap; CPU and wall seconds: its codes' (done file) plus its parents'
(NAME-parents.tsv), whose runs no code's row counts) and the codes it
proved, one line per
sequence (the same n0, p, saltus and certificate checksum), with what
each checker said of their certificates; then, per code length, how
many proven rows' certificates each checker confirmed, by
CENSUS/checks.tsv (scripts/census_verify.sh -r) or a round's done file,
for the certificate the row names now (the same checksum and bound),
and the bounds of those `verify` has not confirmed.

--update rewrites the part of DOC between the lines
<!-- census_stats.py begin --> and <!-- census_stats.py end --> with
these tables (through a temporary file renamed into place); --check
exits 1 when that part is not what this script prints now (the test
that the document shows the data).

Nothing here computes a value: every number is counted from the files.
Python 3 standard library only.
"""
import glob
import os
import sys

BEGIN = '<!-- census_stats.py begin -->'
END = '<!-- census_stats.py end -->'
LENGTHS = ('0.d', '0.dd', '0.ddd', '0.dddd', '4.d', '4.dd', '4.ddd')
N0_BUCKETS = ((0, 0), (1, 9), (10, 99), (100, 999), (1000, 9999),
              (10000, 99999), (100000, None))
P_BUCKETS = ((1, 1), (2, 9), (10, 99), (100, 999), (1000, 9999),
             (10000, None))


def read_tsv(path):
    with open(path, encoding='utf-8') as f:
        lines = [l.rstrip('\n').split('\t') for l in f
                 if not l.startswith('#') and l.strip()]
    return [dict(zip(lines[0], l)) for l in lines[1:]] if lines else []


def length(code):
    head, _, digits = code.partition('.')
    return head + '.' + 'd' * len(digits)


def num(n):
    return '{:,}'.format(n)


def bucket_name(lo, hi):
    if hi is None:
        return '≥ ' + num(lo)
    if lo == hi:
        return num(lo)
    return '%s–%s' % (num(lo), num(hi))


def in_bucket(v, lo, hi):
    return v >= lo and (hi is None or v <= hi)


def by_length(rows):
    groups = [(l, [r for r in rows if length(r['code']) == l])
              for l in LENGTHS]
    groups.append(('all', rows))
    return groups


def census_tables(rows):
    out = []
    out.append('| codes | rows | periodic | arithmetic-periodic | '
               'unresolved | sparse space: all | sparse space: unresolved |')
    out.append('|---|---:|---:|---:|---:|---:|---:|')
    for name, rs in by_length(rows):
        st = [r['status'] for r in rs]
        out.append('| %s | %s | %s | %s | %s | %s | %s |' % (
            name, num(len(rs)), num(st.count('periodic')),
            num(st.count('arithmetic-periodic')), num(st.count('unresolved')),
            num(sum(1 for r in rs if r['sparse_mask'])),
            num(sum(1 for r in rs if r['sparse_mask'] and
                    r['status'] == 'unresolved'))))
    out.append('')
    for key, title, buckets in (('preperiod', 'n0', N0_BUCKETS),
                                ('period', 'p', P_BUCKETS)):
        out.append('| %s of the proven rows | ' % title +
                   ' | '.join(bucket_name(*b) for b in buckets) + ' |')
        out.append('|---|' + '---:|' * len(buckets))
        for name, rs in by_length(rows):
            vs = [int(r[key]) for r in rs if r['status'] != 'unresolved']
            out.append('| %s | ' % name + ' | '.join(
                num(sum(1 for v in vs if in_bucket(v, *b)))
                for b in buckets) + ' |')
        out.append('')
    out.append('| codes | largest n0 (code, its p) | largest p (code, its n0) '
               '| largest n0 + p (code) | unresolved: least computed | '
               'unresolved: median computed |')
    out.append('|---|---|---|---|---:|---:|')
    for name, rs in by_length(rows):
        pr = [r for r in rs if r['status'] != 'unresolved']
        un = sorted(int(r['computed']) for r in rs
                    if r['status'] == 'unresolved')
        if pr:
            a = max(pr, key=lambda r: (int(r['preperiod']), r['code']))
            b = max(pr, key=lambda r: (int(r['period']), r['code']))
            c = max(pr, key=lambda r: (int(r['preperiod']) +
                                       int(r['period']), r['code']))
            cells = ['%s (%s, p = %s)' % (num(int(a['preperiod'])), a['code'],
                                          num(int(a['period']))),
                     '%s (%s, n0 = %s)' % (num(int(b['period'])), b['code'],
                                           num(int(b['preperiod']))),
                     '%s (%s)' % (num(int(c['preperiod']) + int(c['period'])),
                                  c['code'])]
        else:
            cells = ['', '', '']
        if un:
            cells += [num(un[0]), num(un[len(un) // 2])]
        else:
            cells += ['', '']
        out.append('| %s | %s |' % (name, ' | '.join(cells)))
    return out


def round_tables(census):
    out = []
    files = sorted(glob.glob(os.path.join(census, 'rounds', '*.tsv')))
    plans = [f for f in files if not f.endswith(('-done.tsv',
                                                 '-parents.tsv'))]
    if not plans:
        return out
    out.append('| round | codes | finished | proven | at their goal | '
               'stopped by their CPU cap | derived from a parent | '
               'parents run | CPU s | wall s | machine |')
    out.append('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|')
    proven = []
    for p in plans:
        name = os.path.basename(p)[:-4]
        planned = read_tsv(p)
        done_path = p[:-4] + '-done.tsv'
        done = read_tsv(done_path) if os.path.exists(done_path) else []
        parents_path = p[:-4] + '-parents.tsv'
        parents = read_tsv(parents_path) \
            if os.path.exists(parents_path) else []
        stop = [r['stopped'] for r in done]
        machines = sorted({r['machine'] for r in done})
        out.append('| %s |' % ' | '.join((
            name, num(len(planned)), num(len(done)),
            num(stop.count('proven')), num(stop.count('max')),
            num(stop.count('time')),
            num(sum(1 for r in done if r.get('derived', '-') != '-')),
            num(len(parents)),
            num(round(sum(float(r['cpu_seconds']) for r in done + parents))),
            num(round(sum(float(r['wall_seconds'])
                          for r in done + parents))),
            ', '.join(machines))))
        proven += [(name, r) for r in done if r['stopped'] == 'proven']
    if proven:
        # One line per sequence a round proved: the codes with the same
        # n0, p, saltus and checksum (the same values up to the bound).
        classes = {}
        for name, r in proven:
            key = (name, int(r['preperiod']), int(r['period']),
                   int(r['saltus']), r['checksum'])
            classes.setdefault(key, []).append(r)
        out.append('')
        out.append('| round | codes | n0 | p | saltus | theorem | bound | '
                   'CPU s each | verify | check_certificate.py | reproduce |')
        out.append('|---|---|---:|---:|---:|---|---:|---:|---|---|---|')
        for key in sorted(classes, key=lambda k: (k[1] + k[2], k)):
            rs = sorted(classes[key], key=lambda r: r['code'])
            cpu = sorted(float(r['cpu_seconds']) for r in rs)
            def verdicts(col):
                count = {}
                for r in rs:
                    count[r[col]] = count.get(r[col], 0) + 1
                return ', '.join('%s %d' % (v, count[v]) if len(rs) > 1
                                 else v for v in sorted(count))
            out.append('| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | '
                       '`sgexplore %s --max %s` |' % (
                           key[0], ' '.join(r['code'] for r in rs),
                           num(key[1]), num(key[2]), num(key[3]),
                           rs[0]['theorem'],
                           num(int(rs[0]['certified_to'])),
                           ('%.2f' % cpu[0]) if len(cpu) == 1 else
                           '%.2f–%.2f' % (cpu[0], cpu[-1]),
                           verdicts('verify'), verdicts('pycheck'),
                           rs[0]['code'], rs[0]['goal']))
    return out


def check_tables(census, rows):
    """How many proven rows each checker confirmed, per code length."""
    ok = {'verify': set(), 'check_certificate.py': set()}
    path = os.path.join(census, 'checks.tsv')
    for r in read_tsv(path) if os.path.exists(path) else []:
        if r['verdict'] == 'confirmed' and r['checker'] in ok:
            ok[r['checker']].add((r['certificate'], r['checksum'],
                                  r['bound']))
    for done in glob.glob(os.path.join(census, 'rounds', '*-done.tsv')):
        for r in read_tsv(done):
            for col, checker in (('verify', 'verify'),
                                 ('pycheck', 'check_certificate.py')):
                if r.get(col) == 'confirmed':
                    ok[checker].add(('certs/%s.cert' % r['code'],
                                     r['checksum'], r['certified_to']))
    out = ['| codes | proven | `verify` confirmed | check_certificate.py '
           'confirmed | not confirmed by `verify` | their bounds |',
           '|---|---:|---:|---:|---:|---|']
    for name, rs in by_length(rows):
        pr = [r for r in rs if r['status'] != 'unresolved']
        key = {r['code']: (r['certificate'], r['checksum'],
                           r['certified_to']) for r in pr}
        v = [r for r in pr if key[r['code']] in ok['verify']]
        py = [r for r in pr if key[r['code']] in ok['check_certificate.py']]
        left = sorted(int(r['certified_to']) for r in pr
                      if key[r['code']] not in ok['verify'])
        out.append('| %s | %s | %s | %s | %s | %s |' % (
            name, num(len(pr)), num(len(v)), num(len(py)), num(len(left)),
            '' if not left else num(left[0]) if left[0] == left[-1] else
            '%s–%s' % (num(left[0]), num(left[-1]))))
    return out


def tables(census):
    rows = read_tsv(os.path.join(census, 'octal.tsv'))
    out = census_tables(rows)
    rt = round_tables(census)
    if rt:
        out += [''] + rt
    out += [''] + check_tables(census, rows)
    return '\n'.join(out) + '\n'


def block(doc):
    with open(doc, encoding='utf-8') as f:
        text = f.read()
    i, j = text.find(BEGIN), text.find(END)
    if i < 0 or j < i:
        sys.exit('census_stats.py: %s has no %s ... %s part' % (doc, BEGIN,
                                                                END))
    return text, i + len(BEGIN) + 1, j


def main(argv):
    if len(argv) in (3, 4) and argv[1] in ('--update', '--check'):
        census = argv[3] if len(argv) == 4 else 'data/census'
        text, i, j = block(argv[2])
        want = tables(census)
        if argv[1] == '--check':
            sys.exit(0 if text[i:j] == want else 1)
        tmp = '%s.tmp.%d' % (argv[2], os.getpid())
        with open(tmp, 'w', encoding='utf-8') as f:
            f.write(text[:i] + want + text[j:])
        os.replace(tmp, argv[2])
    elif len(argv) <= 2 and not (len(argv) == 2 and argv[1].startswith('-')):
        sys.stdout.write(tables(argv[1] if len(argv) == 2 else 'data/census'))
    else:
        sys.exit(__doc__.split('\n\n')[1])


if __name__ == '__main__':
    main(sys.argv)
