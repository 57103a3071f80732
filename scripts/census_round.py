#!/usr/bin/env python3
"""census_round.py - the helper of scripts/census_round.sh (docs/CENSUS.md,
"Rounds"): the plan of a round, what is left of it, and the record of each
finished code in the committed data.

Usage: census_round.py plan OCTAL [SPARSE_GOAL DENSE_GOAL CAP]
       census_round.py todo ROUND DONE [K/N [CENSUS]]
       census_round.py parent CENSUS CODE [ROUND DONE]
       census_round.py record CENSUS ROUND DONE CODE JSON CPU WALL RUNS
                              VERIFY PYCHECK MACHINE [PARENT DERIVED]
       census_round.py checked DONE CODE verify|pycheck VERDICT
       census_round.py parent-state PARENTS CODE
       census_round.py parent-record PARENTS CODE GOAL LIST CPU WALL RUNS
                                     MACHINE

plan    prints a round (a TSV file to commit as data/census/rounds/NAME.tsv)
        of every unresolved four-digit code of OCTAL (0.d1d2d3d4) below
        its goal: SPARSE_GOAL values (default 2^24 = 16777216) for a code
        whose row has a sparse space, DENSE_GOAL (default 2^20 = 1048576)
        for the others, each capped at CAP CPU seconds (default 600).
        Order: the codes that got the least time so far first (the
        seconds of the row's `budgets`: those that kept round 1's 0.25 s
        before those that had round 2's 2.5 s too), each part cheapest
        first, by the CPU time the row's own runs say the goal would cost
        (their seconds times goal/computed for a code with a sparse
        space, which runs in near-linear time, times (goal/computed)^2 for
        the others, whose cost grows as the square of the values), at
        most CAP; ties in sweep order.  Codes of up to
        three digits are not in it: their open classes have their deep
        runs (deep.tsv).
todo    prints the codes of ROUND that DONE does not list yet, in the
        round's order: CODE GOAL CAP, tab-separated; with K/N only those
        whose order is K modulo N (0 <= K < N); with CENSUS a fourth
        column, each code's parent (as `parent` says, over every code
        left, whatever its part) or '-', and the codes by family: those
        choosing the same parent one after the other, at the place (and
        in the part K/N) of the first of them in the round's order.
parent  prints the parent of CODE (docs/CENSUS.md, "Parents"), or
        nothing: of the codes obtained from CODE by clearing bits 1
        and/or 2 ("take the whole heap", "leave one heap") of some of its
        digits that are in the same `agree` class of CENSUS/classes.tsv
        as CODE, the one with the fewest bits (ties: the shortest text,
        then the smallest).  When that is CODE itself it has no parent,
        unless (with ROUND and DONE) it is the parent of another code of
        ROUND that DONE does not list, or ROUND's NAME-parents.tsv has
        its row (it ran as a parent already): then it is its own.
record  records one finished code: a row in DONE (the whole file written
        anew and renamed into place, so that it never holds half a row)
        and the code's row of CENSUS/octal.tsv rewritten the same way.
        JSON is the last `sgexplore CODE --json` report of the code's
        runs; CPU and WALL the seconds all its runs took (CPU: user +
        system); RUNS how many runs; VERIFY and PYCHECK what `sgexplore
        verify` and check_certificate.py said of its certificate
        (confirmed, or skipped:BOUND when the bound was over the limit;
        '-' when unresolved); PARENT and DERIVED (default '-') the parent
        its first values were derived from and how many.  A proven code's
        certificate must already be at CENSUS/certs/ (census_round.sh
        puts it there first).  A done file written before the columns
        `parent` and `derived` existed gets them first ('-' in its rows).
checked sets what a checker said of CODE's certificate in DONE, for a
        check made after the code was recorded (census_round.sh -V).
parent-state prints a parent's row of PARENTS (the round's
        NAME-parents.tsv): GOAL COMPUTED STATUS CPU, or 0 0 - 0 when it
        has none.
parent-record writes CODE's row of PARENTS (written anew and renamed into
        place): the largest goal it was run to, what LIST (the output of
        `sgexplore cache list --json` on its cache, or an empty file)
        says it holds, and CPU, WALL and RUNS added to the row's.

Nothing here computes a value: every number comes from the tool's JSON.
Python 3 standard library only.
"""
import json
import os
import re
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import census_table  # noqa: E402  (the census's codes, in sweep order)

DONE_COLUMNS = ('code', 'goal', 'cap_cpu', 'status', 'preperiod', 'period',
                'saltus', 'computed', 'stopped', 'cpu_seconds',
                'wall_seconds', 'runs', 'theorem', 'checksum',
                'certified_to', 'verify', 'pycheck', 'largest',
                'largest_first', 'sparse_mask', 'sparse_parity', 'rare',
                'last_rare', 'machine', 'parent', 'derived')
# The columns a done file had before parents (migrated once by record).
DONE_COLUMNS_V1 = DONE_COLUMNS[:-2]
PARENT_COLUMNS = ('code', 'goal', 'computed', 'status', 'checksum',
                  'cpu_seconds', 'wall_seconds', 'runs', 'machine')


def read_tsv(path):
    """(header, [row dicts]) of a TSV file with '#' comment lines."""
    with open(path, encoding='utf-8') as f:
        lines = [l.rstrip('\n').split('\t') for l in f
                 if not l.startswith('#') and l.strip()]
    if not lines:
        return None, []
    return lines[0], [dict(zip(lines[0], l)) for l in lines[1:]]


def write_atomic(path, text):
    """Write PATH anew through a temporary file renamed into place."""
    tmp = '%s.tmp.%d' % (path, os.getpid())
    with open(tmp, 'w', encoding='utf-8') as f:
        f.write(text)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


def sweep_order():
    """{code: index} in the order of `sgexplore sweep octal`."""
    return {c: i for i, c in enumerate(census_table.codes())}


def budget_seconds(text):
    """The seconds of a row's `budgets` (0.25s:0-23296+2.5s:...), summed."""
    total = 0.0
    for part in text.split('+'):
        m = re.match(r'([0-9.]+)s:', part)
        if m:
            total += float(m.group(1))
    return total


def plan(octal, sparse_goal, dense_goal, cap):
    _, rows = read_tsv(octal)
    order = sweep_order()
    out = []
    for r in rows:
        if r['status'] != 'unresolved' or not r['code'].startswith('0.') \
                or len(r['code']) != 6:
            continue
        sparse = r['sparse_mask'] != ''
        goal = sparse_goal if sparse else dense_goal
        computed = int(r['computed'])
        if computed >= goal:
            continue
        secs = budget_seconds(r['budgets'])
        ratio = goal / computed
        est = secs * (ratio if sparse else ratio * ratio)
        out.append((secs, min(est, cap), order[r['code']], r['code'], goal,
                    'sparse' if sparse else 'none', computed, secs, est))
    out.sort()
    print('# a round of scripts/census_round.sh (docs/CENSUS.md, "Rounds"):'
          ' written by `census_round.py plan`, never edited by hand')
    print('\t'.join(('order', 'code', 'goal', 'cap_cpu', 'sparse',
                     'computed_before', 'seconds_before', 'estimate')))
    for i, (_, _, _, code, goal, sp, computed, secs, est) in enumerate(out, 1):
        print('%d\t%s\t%d\t%d\t%s\t%d\t%g\t%.0f'
              % (i, code, goal, cap, sp, computed, secs, est))


def left_rows(round_path, done_path):
    """The round's rows not done yet, in its order."""
    _, plan_rows = read_tsv(round_path)
    done = set()
    if os.path.exists(done_path):
        done = {r['code'] for r in read_tsv(done_path)[1]}
    return [r for r in sorted(plan_rows, key=lambda r: int(r['order']))
            if r['code'] not in done]


def todo(round_path, done_path, part='0/1', census=None):
    """The round's codes not done yet, in its order; with part K/N only
    those whose order (their family's, below) is K modulo N, so that N
    workers (two cores, a cluster's array job) share a round without
    running a code twice.
    With CENSUS, each code's parent too, chosen over every code left so
    that all the parts agree on who is a parent; and the codes go by
    family (a parent's codes one after the other, at the place of the
    first in the round's order; K/N by the order of that first one),
    so that a session that ends mid-round leaves at most one family per
    worker begun: a parent's cache lives in the work folder, which the
    next session (another machine, maybe) may not have."""
    k, n = (int(x) for x in part.split('/'))
    rows = left_rows(round_path, done_path)
    parents = {}
    # a code's place: its order, or with parents its family's first
    place = {r['code']: int(r['order']) for r in rows}
    if census is not None:
        ps = Parents(census)
        parents = ps.of_round(
            [r['code'] for r in rows], parent_rows(parents_path(round_path)))
        # Over every code of the round, done or not, so that a family's
        # place and part never move while its codes finish.
        _, plan_rows = read_tsv(round_path)
        fam = {r['code']: ps.choice(r['code']) or r['code']
               for r in plan_rows}
        start = {}
        for r in sorted(plan_rows, key=lambda r: int(r['order'])):
            start.setdefault(fam[r['code']], int(r['order']))
        place = {r['code']: start[fam[r['code']]] for r in rows}
    rows.sort(key=lambda r: (place[r['code']], int(r['order'])))
    for r in rows:
        if place[r['code']] % n != k:
            continue
        cells = [r['code'], r['goal'], r['cap_cpu']]
        if census is not None:
            cells.append(parents.get(r['code']) or '-')
        print('\t'.join(cells))


class Parents:
    """The parents of codes (docs/CENSUS.md, "Parents").  A code B's
    values up to N are derived exactly from those of a code A whose moves
    are B's less some that leave at most one heap (digit bits 1 and 2),
    when no such extra move reaches a value A gives the heap (`sgexplore
    cache derive` checks it and stops at the first heap where it fails).
    So the choice below only decides how far a derivation gets, never
    what it yields: a code of B's agree class (the same G(0..4095)) is
    likely to agree further, and one with the fewest bits is likely the
    parent of the most codes, whose values are then computed once."""

    def __init__(self, census):
        _, rows = read_tsv(census + '/octal.tsv')
        rule = {r['code']: r['rule'] for r in rows}
        cls = {}
        classes = []  # no classes.tsv: no parents
        if os.path.exists(census + '/classes.tsv'):
            _, classes = read_tsv(census + '/classes.tsv')
        for i, c in enumerate(classes):
            if c['kind'] == 'agree':
                for m in c['members'].split():
                    cls[m] = i
        # A code's agree class, through its canonical form (classes.tsv
        # lists canonical forms: 0.0333 is subtract{2-4} there).
        self.cls = {code: cls[r] for code, r in rule.items() if r in cls}

    @staticmethod
    def candidates(code):
        """CODE and the codes with some of its digits' bits 1 and 2
        cleared, written as the census writes codes (no trailing zero
        digits; 0.0 when none is left); [] for what is not a code."""
        m = re.fullmatch(r'([0-9a-f])\.([0-9a-f]+)', code)
        if not m:
            return []
        out = {''}
        for ch in m.group(2):
            d = int(ch, 16)
            out = {o + '%x' % (d & ~c) for o in out for c in range(4)}
        return sorted(m.group(1) + '.' + (o.rstrip('0') or '0') for o in out)

    @staticmethod
    def bits(code):
        return sum(bin(int(ch, 16)).count('1') for ch in code.split('.')[1])

    def choice(self, code):
        """The candidate of CODE's agree class with the fewest bits, then
        the shortest, then the smallest; None outside every class."""
        k = self.cls.get(code)
        if k is None:
            return None
        same = [c for c in self.candidates(code) if self.cls.get(c) == k]
        return min(same, key=lambda c: (self.bits(c), len(c), c))

    def of_round(self, codes, ran=()):
        """{code: parent} for the codes left in a round: a code chosen
        by itself is a parent only when another code left chose it (its
        values then go to the parents' cache once, for all of them), or
        when it is in RAN, the codes already run as parents (its values
        are in that cache: its children finished first)."""
        chosen = {c: self.choice(c) for c in codes}
        wanted = {a for c, a in chosen.items() if a is not None and a != c}
        wanted |= set(ran)
        return {c: a for c, a in chosen.items()
                if a is not None and (a != c or c in wanted)}


def field(v):
    if v is None:
        return ''
    if isinstance(v, bool):
        return 'true' if v else 'false'
    return str(v)


def cert_name(rule):
    """As census_table.py: certs/ + the canonical text, [^A-Za-z0-9.-] as _."""
    return 'certs/' + re.sub(r'[^A-Za-z0-9.-]', '_', rule) + '.cert'


def record(census, round_path, done_path, code, json_path, cpu, wall, runs,
           verify, pycheck, machine, parent='-', derived='-'):
    _, plan_rows = read_tsv(round_path)
    entry = [r for r in plan_rows if r['code'] == code]
    if not entry:
        sys.exit('census_round.py: %s is not in %s' % (code, round_path))
    goal, cap = int(entry[0]['goal']), int(entry[0]['cap_cpu'])
    with open(json_path, encoding='utf-8') as f:
        o = json.load(f)
    proven = o['status'] != 'unresolved'
    computed = int(o['computed'])
    if proven:
        stopped = 'proven'
    elif computed >= goal:
        stopped = 'max'
    else:
        stopped = 'time'
    cert = o.get('certificate') or {}
    sp = o.get('sparse') or {}
    lg = o.get('largest') or {}
    row = {
        'code': code, 'goal': goal, 'cap_cpu': cap, 'status': o['status'],
        'preperiod': o['preperiod'], 'period': o['period'],
        'saltus': o['saltus'], 'computed': computed, 'stopped': stopped,
        'cpu_seconds': '%.2f' % float(cpu), 'wall_seconds': '%.2f' %
        float(wall), 'runs': runs,
        'theorem': cert.get('theorem') if proven else None,
        'checksum': cert.get('checksum') if proven else None,
        'certified_to': o.get('certified_to') if proven else None,
        'verify': verify, 'pycheck': pycheck,
        'largest': lg.get('value'), 'largest_first': lg.get('first'),
        'sparse_mask': sp.get('mask'), 'sparse_parity': sp.get('parity'),
        'rare': sp.get('rare'), 'last_rare': sp.get('last_rare'),
        'machine': machine, 'parent': parent, 'derived': derived,
    }

    # The census's row first: a reader of DONE may trust that its row is
    # in octal.tsv (both under census_round.sh's lock).
    octal = census + '/octal.tsv'
    with open(octal, encoding='utf-8') as f:
        lines = f.read().split('\n')
    head_i = next(i for i, l in enumerate(lines) if l and l[0] != '#')
    head = lines[head_i].split('\t')
    found = False
    for i in range(head_i + 1, len(lines)):
        cells = lines[i].split('\t')
        if cells[0] != code:
            continue
        found = True
        old = dict(zip(head, cells))
        if proven and o['rule'] != old['rule']:
            sys.exit('census_round.py: %s: the report names %s, the row %s'
                     % (code, o['rule'], old['rule']))
        new = dict(old)
        budget = '%dcpu:0-%d' % (cap, computed)
        new['budgets'] = old['budgets'] + '+' + budget if old['budgets'] \
            else budget
        if proven or computed >= int(old['computed'] or 0):
            new.update({
                'status': o['status'], 'preperiod': field(o['preperiod']),
                'period': field(o['period']), 'saltus': field(o['saltus']),
                'computed': str(computed),
                'theorem': field(row['theorem']),
                'certificate': cert_name(o['rule']) if proven else '',
                'checksum': field(row['checksum']),
                'certified_to': field(row['certified_to']),
                'stopped': stopped,
                'largest': field(row['largest']),
                'largest_first': field(row['largest_first']),
                'sparse_mask': field(row['sparse_mask']),
                'sparse_parity': field(row['sparse_parity']),
                'rare': field(row['rare']), 'last_rare': field(row['last_rare']),
            })
        if proven:
            cpath = census + '/' + new['certificate']
            with open(cpath, encoding='utf-8') as c:
                if 'checksum: %s\n' % row['checksum'] not in c.read():
                    sys.exit('census_round.py: %s: its checksum is not the '
                             "report's %s" % (cpath, row['checksum']))
        lines[i] = '\t'.join(new[c] for c in head)
    if not found:
        sys.exit('census_round.py: %s has no row in %s' % (code, octal))
    if lines[0].startswith('#'):
        lines[0] = ('# census of the octal codes 0.d1..d4 and 4.d1..d3 '
                    '(docs/CENSUS.md); written by scripts/census.sh and '
                    'scripts/census_round.sh, never edited by hand')
    write_atomic(octal, '\n'.join(lines))

    if os.path.exists(done_path):
        text = migrate_done(done_path)
        if any(l.split('\t')[0] == code for l in text.split('\n')[2:]):
            sys.exit('census_round.py: %s is already in %s' % (code, done_path))
    else:
        text = ('# the codes of %s finished by scripts/census_round.sh, one '
                'row each, never edited by hand\n' % os.path.basename(
                    round_path) + '\t'.join(DONE_COLUMNS) + '\n')
    text += '\t'.join(field(row[c]) for c in DONE_COLUMNS) + '\n'
    write_atomic(done_path, text)


def migrate_done(done_path):
    """The text of DONE with the columns of DONE_COLUMNS: a file written
    before `parent` and `derived` existed gets them, '-' in every row
    (its codes were computed from scratch).  Any other header is refused,
    so that no row is written under the wrong column."""
    with open(done_path, encoding='utf-8') as f:
        lines = f.read().split('\n')
    head_i = next(i for i, l in enumerate(lines) if l and l[0] != '#')
    head = tuple(lines[head_i].split('\t'))
    if head == DONE_COLUMNS:
        return '\n'.join(lines)
    if head != DONE_COLUMNS_V1:
        sys.exit('census_round.py: %s: unknown columns' % done_path)
    for i in range(head_i, len(lines)):
        if lines[i] and lines[i][0] != '#':
            lines[i] += '\tparent\tderived' if i == head_i else '\t-\t-'
    return '\n'.join(lines)


def parents_path(round_path):
    """A round's parents file, as census_round.sh names it."""
    return (round_path[:-4] if round_path.endswith('.tsv')
            else round_path) + '-parents.tsv'


def parent_rows(path):
    """{code: row} of a round's parents file (none yet: {})."""
    if not os.path.exists(path):
        return {}
    head, rows = read_tsv(path)
    if head is not None and tuple(head) != PARENT_COLUMNS:
        sys.exit('census_round.py: %s: unknown columns' % path)
    return {r['code']: r for r in rows}


def parent_state(path, code):
    r = parent_rows(path).get(code)
    if r is None:
        print('0 0 - 0')
    else:
        print(r['goal'], r['computed'], r['status'], r['cpu_seconds'])


def parent_record(path, round_name, code, goal, list_path, cpu, wall, runs,
                  machine):
    """CODE's row of the parents file: its largest goal, what its cache
    holds now (the first row of `cache list --json`), its CPU, wall
    seconds and runs summed over every code it was a parent for."""
    rows = parent_rows(path)
    old = rows.get(code) or {'code': code, 'goal': '0', 'computed': '0',
                             'status': '-', 'checksum': '', 'cpu_seconds':
                             '0', 'wall_seconds': '0', 'runs': '0'}
    new = dict(old)
    with open(list_path, encoding='utf-8') as f:
        held = [json.loads(l) for l in f if l.strip()]
    held = [o for o in held if 'rule' in o]
    if held:
        o = held[0]
        cert = o.get('certificate') or {}
        new.update({'computed': str(int(o['computed'])),
                    'status': o['status'],
                    'checksum': cert.get('checksum') or ''})
    new['goal'] = str(max(int(old['goal']), int(goal)))
    new['cpu_seconds'] = '%.2f' % (float(old['cpu_seconds']) + float(cpu))
    new['wall_seconds'] = '%.2f' % (float(old['wall_seconds']) + float(wall))
    new['runs'] = str(int(old['runs']) + int(runs))
    new['machine'] = machine
    rows[code] = new
    text = ('# the parents of %s (docs/CENSUS.md, "Parents"): each run in '
            'its own cache by scripts/census_round.sh, one row each, never '
            'edited by hand\n' % round_name + '\t'.join(PARENT_COLUMNS)
            + '\n')
    for c in sorted(rows):
        text += '\t'.join(rows[c][k] for k in PARENT_COLUMNS) + '\n'
    write_atomic(path, text)


def number(text):
    """An integer written as 123 or 2^24."""
    base, _, exp = text.partition('^')
    return int(base) ** int(exp) if exp else int(base)


def checked(done_path, code, column, verdict):
    """Set COLUMN (verify or pycheck) of CODE's row in DONE to VERDICT,
    the file written anew and renamed into place."""
    if column not in ('verify', 'pycheck'):
        sys.exit('census_round.py: checked wants verify or pycheck')
    with open(done_path, encoding='utf-8') as f:
        lines = f.read().split('\n')
    head_i = next(i for i, l in enumerate(lines) if l and l[0] != '#')
    k = lines[head_i].split('\t').index(column)
    hits = 0
    for i in range(head_i + 1, len(lines)):
        cells = lines[i].split('\t')
        if cells[0] == code:
            cells[k] = verdict
            lines[i] = '\t'.join(cells)
            hits += 1
    if hits != 1:
        sys.exit('census_round.py: %s is not in %s once' % (code, done_path))
    write_atomic(done_path, '\n'.join(lines))


def main(argv):
    if len(argv) in (3, 6) and argv[1] == 'plan':
        args = [number(a) for a in argv[3:]] if len(argv) == 6 \
            else [2 ** 24, 2 ** 20, 600]
        plan(argv[2], *args)
    elif len(argv) in (4, 5, 6) and argv[1] == 'todo':
        todo(*argv[2:])
    elif len(argv) in (4, 6) and argv[1] == 'parent':
        codes = [argv[3]]
        if len(argv) == 6:
            codes = [r['code'] for r in left_rows(argv[4], argv[5])]
            codes += [] if argv[3] in codes else [argv[3]]
        ran = parent_rows(parents_path(argv[4])) if len(argv) == 6 else ()
        p = Parents(argv[2]).of_round(codes, ran).get(argv[3])
        if p is not None:
            print(p)
    elif len(argv) in (13, 15) and argv[1] == 'record':
        record(*argv[2:])
    elif len(argv) == 6 and argv[1] == 'checked':
        checked(*argv[2:])
    elif len(argv) == 4 and argv[1] == 'parent-state':
        parent_state(*argv[2:])
    elif len(argv) == 10 and argv[1] == 'parent-record':
        parent_record(argv[2], os.path.basename(argv[2]).replace(
            '-parents.tsv', '.tsv'), *argv[3:])
    else:
        sys.exit(__doc__.split('\n\n')[1])


if __name__ == '__main__':
    main(sys.argv)
