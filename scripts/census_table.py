#!/usr/bin/env python3
"""census_table.py - the helper of scripts/census.sh (docs/CENSUS.md).

Usage: census_table.py codes
       census_table.py next ROUND-1.jsonl ROUND.jsonl
       census_table.py solved DATA ROUND-1.jsonl [ROUND.jsonl[:partial]]...
       census_table.py table OUTDIR CODES ROUND-1.jsonl [ROUND.jsonl[:partial]]...

codes   prints the census's 4,607 codes, one a line, in the order of
        `sgexplore sweep octal` (docs/SWEEPS.md): 0.d1 ... 0.d1d2d3d4
        (last digit not 0; 4,095 codes), then 4.0 and 4.d1 ... 4.d1d2d3
        (512 codes).
next    prints the codes of one round's sweep (`sweep rules --format
        json`) that are unresolved because their time ran out (`stopped:
        time`): those the next round gives 10 times the budget.  Round 1
        (which has every code) names each code's canonical form.  The
        order is the next round's: the codes of up to three digits first
        (the published tables' codes), then those with a sparse space
        (a near-linear run, where more time reaches many more values),
        then the rest, each part in sweep order; so that a round cut
        short by census.sh's deadline has spent its time where it tells
        most.
solved  prints the codes that a published table in DATA (known.tsv,
        octal2.tsv, octal3.tsv, tczajka.tsv) calls periodic and that the
        rounds left unresolved: census.sh's last round gives them a
        budget of their own (-P), so that every published solution is
        either proven here or listed with the values that were computed.
table   writes OUTDIR/octal.tsv, one row per code of the file CODES, from
        the rounds' sweeps (the last round a code ran in gives its row;
        every round it ran in is listed in `budgets`).  The certificates
        are not written here: census.sh exports them with the tool.

Nothing here computes a value: every number comes from the tool's JSON.
Python 3 standard library only.
"""
import json
import re
import sys

COLUMNS = ('code', 'rule', 'status', 'preperiod', 'period', 'saltus',
           'computed', 'theorem', 'certificate', 'checksum', 'certified_to',
           'stopped', 'budgets', 'largest', 'largest_first', 'sparse_mask',
           'sparse_parity', 'rare', 'last_rare')


def codes():
    """The census's codes in sweep order."""
    out = []
    for k in range(1, 5):
        for i in range(8 ** k):
            d = '%0*o' % (k, i)
            if d[-1] != '0':
                out.append('0.' + d)
    out.append('4.0')
    for k in range(1, 4):
        for i in range(8 ** k):
            d = '%0*o' % (k, i)
            if d[-1] != '0':
                out.append('4.' + d)
    return out


def read_round(path, partial=False):
    """{rule: row} of one round's JSON lines (a sweep names a rule by its
    canonical form), and its summary (None for a partial round)."""
    rows, summary = {}, None
    with open(path, encoding='utf-8') as f:
        for line in f:
            if not line.strip():
                continue
            try:
                obj = json.loads(line)
            except ValueError:
                if partial:
                    continue    # the last line of a stopped sweep
                raise
            if 'summary' in obj:
                summary = obj['summary']
            elif 'rule' in obj:
                rows[obj['rule']] = obj
    if partial:
        return rows, None
    if summary is None:
        sys.exit('census_table.py: %s has no summary line (the round did '
                 'not finish: run census.sh again)' % path)
    if summary.get('failed') or summary.get('interrupted'):
        sys.exit('census_table.py: %s: the round failed or was interrupted'
                 % path)
    return rows, summary


def canonical(path):
    """{code: canonical rule} from round 1 (every code): a code names its
    own row unless the summary's groups list it under another rule
    (docs/SWEEPS.md, "Equal games")."""
    rows, summary = read_round(path)
    canon = {c: c for c in codes()}
    for group in summary.get('groups', []):
        for given in group['given']:
            canon[given] = group['rule']
    for c, r in canon.items():
        if r not in rows:
            sys.exit('census_table.py: %s: no row for %s (%s)' % (path, c, r))
    return canon


def cert_name(rule):
    """The file name of a rule's certificate: its canonical text with
    every character outside [A-Za-z0-9.-] as '_' (subtract{1,2} ->
    subtract_1_2_.cert)."""
    return 'certs/' + re.sub(r'[^A-Za-z0-9.-]', '_', rule) + '.cert'


def budget_text(b):
    """One round's budget: '0.25s:0-12345' (seconds, values from-to)."""
    lim = '%gs' % b['seconds'] if b.get('seconds') is not None else \
        '%d' % b['max']
    return '%s:%d-%d' % (lim, b['from'], b['computed'])


def field(v):
    if v is None:
        return ''
    if isinstance(v, bool):
        return 'true' if v else 'false'
    return str(v)


def last_rows(rounds):
    """{code: the last row of each code} over the rounds."""
    canon = canonical(rounds[0])
    per_round = []
    for p in rounds:
        path, _, mark = p.partition(':')
        per_round.append(read_round(path, mark == 'partial')[0])
    out = {}
    for code, rule in canon.items():
        ran = [r[rule] for r in per_round if rule in r]
        out[code] = ran
    return out


def published_solved(data):
    """The codes the published tables call periodic (a set)."""
    out = set()
    for name, key in (('known.tsv', 'rule_text'), ('octal2.tsv', 'code'),
                      ('octal3.tsv', 'code'), ('tczajka.tsv', 'code')):
        with open(data + '/' + name, encoding='utf-8') as f:
            lines = [l.rstrip('\n').split('\t') for l in f
                     if not l.startswith('#')]
        for cells in lines[1:]:
            r = dict(zip(lines[0], cells))
            if r.get('status') in ('periodic', 'arithmetic-periodic') or \
                    r.get('table') in ('trivial', 'solved'):
                out.add(r[key])
    return out


def table(outdir, code_file, rounds):
    """Write OUTDIR/octal.tsv."""
    with open(code_file, encoding='utf-8') as f:
        wanted = [c.strip() for c in f if c.strip()]
    every = last_rows(rounds)
    lines = ['#' + ' census of the octal codes 0.d1..d4 and 4.d1..d3 '
             '(docs/CENSUS.md); written by scripts/census.sh, never '
             'edited by hand',
             '\t'.join(COLUMNS)]
    for code in wanted:
        ran = every[code]
        # The row that got furthest: every run extends the stored prefix,
        # so this is the last one in time, whatever order rounds ran in.
        row = max(ran, key=lambda r: (r['status'] != 'unresolved',
                                      r['computed']))
        budgets = []
        for r in ran:
            budgets.extend(budget_text(b) for b in r['budgets'])
        cert = row.get('certificate') or {}
        proven = row['status'] != 'unresolved'
        sp = row.get('sparse') or {}
        lg = row.get('largest') or {}
        vals = {
            'code': code, 'rule': row['rule'], 'status': row['status'],
            'preperiod': row['preperiod'], 'period': row['period'],
            'saltus': row['saltus'], 'computed': row['computed'],
            'theorem': cert.get('theorem') if proven else None,
            'certificate': cert_name(row['rule']) if proven else None,
            'checksum': cert.get('checksum') if proven else None,
            'certified_to': row.get('certified_to') if proven else None,
            'stopped': row.get('stopped'),
            'budgets': '+'.join(budgets),
            'largest': lg.get('value'), 'largest_first': lg.get('first'),
            'sparse_mask': sp.get('mask'), 'sparse_parity': sp.get('parity'),
            'rare': sp.get('rare'), 'last_rare': sp.get('last_rare'),
        }
        if proven and not (vals['theorem'] and vals['checksum']):
            sys.exit('census_table.py: %s is proven without a certificate'
                     % code)
        lines.append('\t'.join(field(vals[c]) for c in COLUMNS))
    with open(outdir + '/octal.tsv', 'w', encoding='utf-8') as f:
        f.write('\n'.join(lines) + '\n')


def main(argv):
    if len(argv) == 2 and argv[1] == 'codes':
        print('\n'.join(codes()))
    elif len(argv) == 4 and argv[1] == 'next':
        canon = canonical(argv[2])
        rows = read_round(argv[3])[0]
        parts = ([], [], [])
        for code in codes():
            r = rows.get(canon[code])
            if r is None or r['status'] != 'unresolved' or \
                    r.get('stopped') != 'time':
                continue
            part = 0 if len(code) <= 5 else 1 if r.get('sparse') else 2
            parts[part].append(code)
        for part in parts:
            for code in part:
                print(code)
    elif len(argv) >= 4 and argv[1] == 'solved':
        solved = published_solved(argv[2])
        every = last_rows(argv[3:])
        for code in codes():
            if code in solved and every[code][-1]['status'] == 'unresolved':
                print(code)
    elif len(argv) >= 5 and argv[1] == 'table':
        table(argv[2], argv[3], argv[4:])
    else:
        sys.exit(__doc__.split('\n\n')[1])


if __name__ == '__main__':
    main(sys.argv)
