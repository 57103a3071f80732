#!/usr/bin/env python3
"""tczajka_import.py - data/tczajka.tsv from T. Czajka's classification.

Usage: tczajka_import.py DIR > data/tczajka.tsv

DIR holds TrivialGames.md, SolvedGames.md, UnsolvedGames.md and
GameLookup.md of https://github.com/tczajka/octal-games (MIT licence;
data/SOURCES.md, key TC, names the commit read).  Each game of those
tables becomes one line: its code in sgexplore's notation ('.45' is 0.45,
'4' is 4.0), the table it is in (trivial, solved, unsolved, or lookup:
a code the lookup tables send to another), and the published numbers
as written there (prefix = our n0, SOURCES.md).  Nothing is computed.
"""
import sys

COLUMNS = ('code', 'table', 'prefix', 'period', 'maps_to', 'n',
           'largest_idx', 'largest', 'rare_mask', 'num_rare', 'last_rare',
           'nimbers')


def code(text):
    """'.45' -> '0.45', '4' -> '4.0', '4.3' -> '4.3', Grundy's -> 4!.0."""
    text = text.strip()
    if text.startswith("Grundy"):
        return '4!.0'
    if text.startswith('.'):
        return '0' + text
    if text == '4':
        return '4.0'
    return text


def rows_of(path):
    """The table lines of a markdown file, split on '|', header skipped."""
    out = []
    with open(path, encoding='utf-8') as f:
        lines = [l.rstrip('\n') for l in f if '|' in l]
    for line in lines:
        cells = [c.strip() for c in line.split('|')]
        if cells[0].startswith(':') or cells[0] in ('game', ''):
            continue
        out.append(cells)
    return out


def main(argv):
    if len(argv) != 2:
        sys.exit(__doc__.split('\n\n')[1])
    d = argv[1]
    rows = []
    for c in rows_of(d + '/TrivialGames.md'):
        rows.append({'code': code(c[0]), 'table': 'trivial', 'prefix': c[1],
                     'period': c[2], 'nimbers': c[3]})
    for c in rows_of(d + '/SolvedGames.md'):
        rows.append({'code': code(c[0]), 'table': 'solved', 'prefix': c[1],
                     'period': c[2], 'largest_idx': c[3], 'largest': c[4],
                     'rare_mask': c[5], 'num_rare': c[6], 'last_rare': c[7]})
    for c in rows_of(d + '/UnsolvedGames.md'):
        c = c + [''] * 7
        rows.append({'code': code(c[0]), 'table': 'unsolved', 'n': c[1],
                     'largest_idx': c[2], 'largest': c[3], 'rare_mask': c[4],
                     'num_rare': c[5], 'last_rare': c[6]})
    with open(d + '/GameLookup.md', encoding='utf-8') as f:
        for line in f:
            cells = [x.strip() for x in line.split('|')]
            if len(cells) < 8 or not cells[0].endswith('x'):
                continue
            stem = cells[0][:-1]
            for digit, target in enumerate(cells[1:8], 1):
                if target and target != '-':
                    rows.append({'code': code(stem + str(digit)),
                                 'table': 'lookup', 'maps_to': code(target)})
    print('# T. Czajka, octal-games (GitHub tczajka/octal-games, commit '
          '57e893a, MIT licence): TrivialGames.md, SolvedGames.md, '
          'UnsolvedGames.md, GameLookup.md; written by '
          'scripts/tczajka_import.py (data/SOURCES.md, key TC)')
    print('\t'.join(COLUMNS))
    for r in rows:
        print('\t'.join(r.get(k, '') for k in COLUMNS))


if __name__ == '__main__':
    main(sys.argv)
