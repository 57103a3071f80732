#!/usr/bin/env python3
"""check_certificate.py - check sgexplore certificates without sgexplore.

Usage: check_certificate.py FILE...
       check_certificate.py -        (file names on stdin, one a line)

Implements every step of docs/CERTIFICATES.md ("The check") with its own
code only: its own reader of the certificate, its own parser of the rule
text, its own decision of which theorem applies to the rule (mirroring the
conditions of docs/THEORY.md, section 9), and its own brute-force
Sprague-Grundy computation of G(0..bound).  Python 3 standard library only.

With one FILE it prints "confirmed" (exit 0), or "refuted: WHY" or
"malformed: WHY" (exit 1).  With several, or with "-", it prints
"FILE: VERDICT" for each and exits 0 only when all are confirmed; values are computed once per rule,
so many certificates of the same rule are cheap to check together.
SG_CHECK_MAX_BOUND (default 1000000) caps the bound this checker computes
to; a certificate beyond it is "not checked" (exit 1), never confirmed.
"""
import os
import re
import sys

FORMAT = 'sgexplore-certificate 1'
KEYS = ('format', 'rule', 'status', 'preperiod', 'period', 'saltus',
        'theorem', 'proof_start', 'proof_period', 'proof_saltus', 'bound',
        'checksum')
NUMBER_KEYS = ('preperiod', 'period', 'saltus', 'proof_start', 'proof_period',
               'proof_saltus', 'bound')
THEOREMS = ('subtraction-window', 'guy-smith', 'guy-smith-unequal',
            'guy-smith-3', 'tail-arith', 'tail-split-arith', 'tail-periodic',
            'hex-arith', 'set-residues')
SPLIT_WORK_MAX = 1 << 28    # the same limits as prove/theorems.c
CLASS_WORK_MAX = 1 << 27
HEX_WORK_MAX = 1 << 28
HEX_VALUE_MAX = 1 << 20
RESIDUE_PERIOD_MAX = 1 << 16  # as rules/setexpr.h (set-residues)
MAX_FILE = 1 << 20          # the same limit as `sgexplore verify`
MAX_U63 = (1 << 63) - 1


class Malformed(Exception):
    """The text is not a certificate (not a false claim: a broken file)."""


class NotChecked(Exception):
    """A certificate beyond what this checker computes (never confirmed)."""


# ----------------------------------------------------------------------
# The certificate file
# ----------------------------------------------------------------------

def read_certificate(text):
    """Return the fields of a certificate as a dict (numbers as ints).

    "key: value" lines, '#' lines and empty lines ignored, unknown keys
    ignored; each known key exactly once, values in their exact form."""
    if '\0' in text:
        raise Malformed('NUL byte in the file')
    fields = {}
    for number, line in enumerate(text.split('\n'), 1):
        if line.endswith('\r'):
            line = line[:-1]
        if line == '' or line.startswith('#'):
            continue
        colon = line.find(':')
        if colon < 0 or line[colon + 1:colon + 2] != ' ':
            raise Malformed("line %d: expected 'key: value'" % number)
        key, value = line[:colon], line[colon + 2:]
        if key not in KEYS:
            continue
        if key in fields:
            raise Malformed("line %d: a second '%s' line" % (number, key))
        if key in NUMBER_KEYS:
            if not re.fullmatch(r'[0-9]+', value) or int(value) > MAX_U63:
                raise Malformed("line %d: bad value for '%s'" % (number, key))
            value = int(value)
        elif key == 'format' and value != FORMAT or \
                key == 'status' and value not in ('periodic',
                                                  'arithmetic-periodic') or \
                key == 'theorem' and value not in THEOREMS or \
                key == 'checksum' and \
                not re.fullmatch(r'fnv1a64:[0-9a-f]{16}', value) or \
                key == 'rule' and value == '':
            raise Malformed("line %d: bad value for '%s'" % (number, key))
        fields[key] = value
    for key in KEYS:
        if key not in fields:
            raise Malformed("lacks the '%s' line" % key)
    return fields


# ----------------------------------------------------------------------
# Rules: digit(k) -> (bits, unequal), straight from the rule text
# ----------------------------------------------------------------------

class Rule:
    """A take-and-break rule: finite digits for positions 0..len-1, then
    optionally a tail repeating forever.  A digit is (bits, unequal);
    bits 1: take the whole heap, 2: leave one heap, 4: two, 8: three."""

    def __init__(self, finite, tail):
        # '!' constrains split moves only: drop it elsewhere.
        norm = lambda ds: [(b, u and bool(b & 12)) for b, u in ds]
        finite, tail = norm(finite), norm(tail)
        if tail:
            # The shortest repeating unit; a tail of zeros is no tail.
            q = next(q for q in range(1, len(tail) + 1)
                     if len(tail) % q == 0 and tail == tail[:q] * (len(tail) // q))
            tail = tail[:q]
            if all(b == 0 for b, _ in tail):
                tail = []
        if tail:
            # Finite digits equal to the tail's last digit belong to the
            # tail (never the digit before the point).
            while len(finite) > 1 and finite[-1] == tail[-1]:
                tail = [tail[-1]] + tail[:-1]
                finite.pop()
        self.finite, self.tail = finite, tail
        self.start = len(finite)    # first position of the tail

    def digit(self, k):
        if k < self.start:
            return self.finite[k]
        if self.tail:
            return self.tail[(k - self.start) % len(self.tail)]
        return (0, False)

    def digits(self):
        return self.finite + self.tail

    def max_take(self):
        """t: the largest position with a non-zero digit (finite codes)."""
        return max((k for k, (b, _) in enumerate(self.finite) if b), default=0)

    def theorem(self):
        """The one theorem whose hypotheses the rule meets (THEORY.md,
        section 9, step 1), or None."""
        bits = 0
        for b, _ in self.digits():
            bits |= b
        if any(u for _, u in self.digits()):
            if not self.tail and not bits & 8:
                return 'guy-smith-unequal'
            return None
        if self.tail:
            if self.tail == [(3, False)] and \
                    not any(b & 12 for b, _ in self.finite):
                return 'tail-arith'
            if self.tail == [(3, False)] and \
                    not any(b & 8 for b, _ in self.finite):
                return 'tail-split-arith'
            if not bits & 12:
                return 'tail-periodic'
            return None
        if bits & 8:
            return 'guy-smith-3'
        if bits & 4:
            return 'guy-smith'
        return 'subtraction-window'


def parse_list(text):
    """'1-3,7' -> {1, 2, 3, 7} (positive integers)."""
    out = set()
    if text == '':
        return out
    for part in text.split(','):
        m = re.fullmatch(r'([0-9]+)(?:-([0-9]+))?', part)
        if not m:
            raise Malformed('bad list in the rule')
        lo, hi = int(m.group(1)), int(m.group(2) or m.group(1))
        if lo < 1 or hi < lo:
            raise Malformed('bad list in the rule')
        if hi > 1 << 24 or len(out) + hi - lo > 1 << 24:
            raise NotChecked('the rule lists numbers beyond 2^24')
        out.update(range(lo, hi + 1))
    return out


def parse_rule(text):
    """Rule from its canonical text: subtract{..}, all-but{..}, a code
    such as 0.77, 4!.0 or 0.0[3], or the name grundy or nim."""
    if text.lower() == 'nim':
        text = 'all-but{}'
    m = re.fullmatch(r'(subtract|all-but)\{([0-9,\-]*)\}', text)
    if m:
        nums = parse_list(m.group(2))
        top = max(nums, default=0)
        if m.group(1) == 'subtract':
            return Rule([(3 if k in nums else 0, False)
                         for k in range(top + 1)], [])
        return Rule([(0, False)] + [(0 if k in nums else 3, False)
                                    for k in range(1, top + 1)], [(3, False)])
    m = re.fullmatch(r'(subtract|all-but)\{(.+)\}', text)
    if m:
        return SetRule(m.group(1) == 'all-but', m.group(2))
    if text.lower() == 'grundy':
        text = '4!.0'
    m = re.fullmatch(r'([0-9A-Fa-f]!?)\.((?:[0-9A-Fa-f]!?)*)'
                     r'(?:\[((?:[0-9A-Fa-f]!?)+)\])?', text)
    if not m:
        raise Malformed('cannot read the rule %r' % text[:60])
    toks = lambda s: [(int(d, 16), u == '!')
                      for d, u in re.findall(r'([0-9A-Fa-f])(!?)', s or '')]
    finite = toks(m.group(1)) + toks(m.group(2))
    if finite[0][0] & 3:
        raise Malformed('the digit before the point may only split')
    return Rule(finite, toks(m.group(3)))


# ----------------------------------------------------------------------
# Rules over set expressions (docs/SETS.md), from their canonical text
# ----------------------------------------------------------------------

SET_NAMES = ('primes', 'squares', 'cubes', 'triangular', 'fibonacci')
HEAP_NAMES = re.compile(r'proper-divisors|at-(?:most|least)-(?:half|[0-9]+/[0-9]+)')


def parse_set_item(text):
    """One item: ('range', a, b), ('prog', a, step, lo, hi),
    (name, base, lo, hi) for the named sets, or ('heap',) for a set that
    depends on the heap."""
    m = re.fullmatch(r'([0-9]+)(?:-([0-9]+))?', text)
    if m:
        a, b = int(m.group(1)), int(m.group(2) or m.group(1))
        if a < 1 or b < a or b > MAX_U63:
            raise Malformed('bad set item %r' % text[:40])
        return ('range', a, b)
    m = re.fullmatch(r'(.*?)(?::([0-9]+)-([0-9]+))?', text)
    body, lo, hi = m.group(1), int(m.group(2) or 1), int(m.group(3) or MAX_U63)
    if lo < 1 or hi < lo or hi > MAX_U63:
        raise Malformed('bad bound in %r' % text[:40])
    if HEAP_NAMES.fullmatch(body):
        return ('heap',)
    m = re.fullmatch(r'([0-9]+)\+([0-9]+)k', body)
    if m:
        a, step = int(m.group(1)), int(m.group(2))
        if a < 1 or step < 1:
            raise Malformed('bad progression %r' % text[:40])
        return ('prog', a, step, max(lo, a), hi)
    m = re.fullmatch(r'powers-of-([0-9]+)', body)
    if m and int(m.group(1)) >= 2:
        return ('powers', int(m.group(1)), lo, hi)
    if body in SET_NAMES:
        return (body, 0, lo, hi)
    raise Malformed('cannot read the set item %r' % text[:40])


def isqrt(n):
    r = int(n ** 0.5)
    while r * r > n:
        r -= 1
    while (r + 1) * (r + 1) <= n:
        r += 1
    return r


def icbrt(n):
    r = int(round(n ** (1.0 / 3)))
    while r ** 3 > n:
        r -= 1
    while (r + 1) ** 3 <= n:
        r += 1
    return r


def item_members(item, n, sieve):
    """The members <= n of a heap-independent item, as a set."""
    kind = item[0]
    if kind == 'range':
        return set(range(item[1], min(item[2], n) + 1))
    if kind == 'prog':
        _, a, step, lo, hi = item
        first = a + step * max(0, -(-(lo - a) // step))
        return set(range(first, min(hi, n) + 1, step))
    _, base, lo, hi = item
    top = min(hi, n)
    if kind == 'primes':
        out = {k for k in range(max(lo, 2), top + 1) if sieve[k]}
    elif kind == 'squares':
        out = {k * k for k in range(1, isqrt(top) + 1)}
    elif kind == 'cubes':
        out = {k ** 3 for k in range(1, icbrt(top) + 1)}
    elif kind == 'triangular':
        out, k = set(), 1
        while k * (k + 1) // 2 <= top:
            out.add(k * (k + 1) // 2)
            k += 1
    elif kind == 'fibonacci':
        out, x, y = set(), 1, 2
        while x <= top:
            out.add(x)
            x, y = y, x + y
    else:       # powers
        out, x = set(), 1
        while x <= top:
            out.add(x)
            x *= base
    return {k for k in out if k >= lo}


def beyond_residues(item, B, P):
    """The residues mod P of the item's members greater than B (all of
    them, by an argument of its own for each kind), or None when they
    cannot be told (primes: a class coprime to P holds infinitely many,
    by Dirichlet, and no list is needed: such a class has members past B)."""
    kind = item[0]
    if kind == 'range':
        lo, hi = max(item[1], B + 1), item[2]
        return {k % P for k in range(lo, min(hi, lo + P - 1) + 1)}
    if kind == 'prog':
        _, a, step, lo, hi = item
        first = a + step * max(0, -(-(max(lo, B + 1) - a) // step))
        # a + step k mod P repeats with period P / gcd(step, P) in k
        return {x % P for x in range(first, min(hi, first + step * P) + 1, step)}
    _, base, lo, hi = item
    lo = max(lo, B + 1)
    if lo > hi:
        return set()
    if kind == 'primes':
        return None
    if kind in ('squares', 'cubes', 'triangular'):
        e = {'squares': 2, 'cubes': 3}.get(kind)
        val = (lambda k: k ** e) if e else (lambda k: k * (k + 1) // 2)
        k = 1
        root = isqrt(lo) if kind == 'squares' else icbrt(lo) \
            if kind == 'cubes' else isqrt(2 * lo)
        k = max(1, root - 2)
        while val(k) < lo:
            k += 1
        # k^e mod P repeats with period P in k; k(k+1)/2 with period 2P
        return {val(j) % P for j in range(k, k + 2 * P) if val(j) <= hi}
    if kind == 'powers':
        k = 0
        while base ** k < lo:
            k += 1
        if hi < MAX_U63:
            return {base ** j % P for j in range(k, k + P + 1)
                    if base ** j <= hi}
        # b^j mod P is eventually periodic, pre-period and period <= P
        return {pow(base, j, P) for j in range(k, k + P + 1)}
    # fibonacci: the Pisano period of P, then one period of residues
    x, y, k = 1, 2, 0
    while x < lo:
        x, y, k = y, x + y, k + 1
    pi, u, v = 0, 0, 1 % P
    while True:
        u, v, pi = v, (u + v) % P, pi + 1
        if (u, v) == (0, 1 % P):
            break
    out = set()
    for _ in range(pi):
        if x > hi:
            break
        out.add(x % P)
        x, y = y, x + y
    return out


class SetRule:
    """A subtraction or all-but game over a set expression: the union of
    the included items minus the excluded ones."""

    def __init__(self, allbut, text):
        inc, _, exc = text.partition('\\')
        self.allbut = allbut
        self.inc = [parse_set_item(t) for t in inc.split(',')]
        self.exc = [parse_set_item(t) for t in exc.split(',')] if exc else []
        self.heap = any(i[0] == 'heap' for i in self.inc + self.exc)

    def theorem(self):
        if self.allbut or self.heap:
            return None
        return 'set-residues'

    def members(self, n):
        """The members <= n, ascending."""
        sieve = bytearray([1]) * (n + 1)
        sieve[0:2] = b'\0\0'[:min(2, n + 1)]
        for q in range(2, isqrt(n) + 1):
            if sieve[q]:
                sieve[q * q::q] = bytearray(len(sieve[q * q::q]))
        inc, exc = set(), set()
        for it in self.inc:
            inc |= item_members(it, n, sieve)
        for it in self.exc:
            exc |= item_members(it, n, sieve)
        return sorted(inc - exc)

    def residue_bound(self, P, B):
        """(M, None): M the largest over the classes mod P holding a member
        of the least member of the class, when every such least member is
        at most B; (None, why) when that cannot be shown."""
        least = {}
        for k in self.members(B):
            least.setdefault(k % P, k)
        # A class with no member <= B must hold none at all: no included
        # item may have a member past B in it.
        late = set()
        for it in self.inc:
            res = beyond_residues(it, B, P)
            late |= prime_classes_beyond(it, B, P) if res is None else res
        for r in sorted(late - set(least)):
            return None, 'the least member of the class %d mod %d is not ' \
                'within the bound' % (r, P)
        return max(least.values()), None


def prime_classes_beyond(item, B, P):
    """Classes mod P of the primes past B of the item: every class coprime
    to P when the item is unbounded (Dirichlet) or reaches past B (then
    listed up to its bound, which must be small); a class sharing a factor
    d with P holds the prime d only."""
    _, _, lo, hi = item
    lo = max(lo, B + 1)
    if hi < MAX_U63:
        if hi - lo > 1 << 22:
            raise NotChecked('a bounded set of primes too long to list')
        return {k % P for k in range(lo, hi + 1)
                if k > 1 and all(k % q for q in range(2, isqrt(k) + 1))}
    out = {r for r in range(P) if gcd(r, P) == 1}
    for d in range(2, P + 1):
        if P % d == 0 and d >= lo and all(d % q for q in range(2, isqrt(d) + 1)):
            out.add(d % P)
    return out


def gcd(a, b):
    while b:
        a, b = b, a % b
    return a


class SetValues:
    """G(0), G(1), ... of a subtraction game over a set, by brute force:
    the mex over every member k <= n."""

    def __init__(self, rule):
        self.rule, self.g = rule, []

    def upto(self, n):
        if len(self.g) >= n:
            return self.g
        ms, g = self.rule.members(n), []
        for h in range(n):
            opts = set()
            for k in ms:
                if k > h:
                    break
                opts.add(g[h - k])
            v = 0
            while v in opts:
                v += 1
            g.append(v)
        self.g = g
        return g


# ----------------------------------------------------------------------
# Values, by brute force
# ----------------------------------------------------------------------

class Values:
    """G(0), G(1), ... of one rule, extended on demand: every move of every
    heap listed straight from the definition, then the mex."""

    def __init__(self, rule):
        self.rule, self.g = rule, []
        # Positions with a move, below the tail (the tail adds every k).
        self.moves = [k for k, (b, _) in enumerate(rule.finite) if b]

    def upto(self, n):
        """The list G(0..n-1) (or longer)."""
        g, rule = self.g, self.rule
        while len(g) < n:
            h = len(g)
            ks = [k for k in self.moves if k <= h]
            if rule.tail:
                ks += range(rule.start, h + 1)
            opts = set()
            for k in ks:
                d, uneq = rule.digit(k)
                r = h - k
                if k == 0:
                    d &= 12     # removing nothing can only split
                if d & 1 and r == 0:
                    opts.add(0)
                if d & 2 and r >= 1:
                    opts.add(g[r])
                if d & 4:
                    for a in range(1, r // 2 + 1):
                        if not (uneq and 2 * a == r):
                            opts.add(g[a] ^ g[r - a])
                if d & 8:
                    for a in range(1, r // 3 + 1):
                        for b in range(a, (r - a) // 2 + 1):
                            c = r - a - b
                            if not (uneq and (a == b or b == c)):
                                opts.add(g[a] ^ g[b] ^ g[c])
            v = 0
            while v in opts:
                v += 1
            g.append(v)
        return g


def fnv1a64(g, n):
    """FNV-1a 64 of the text 'G(0),G(1),...,G(n-1)'."""
    h = 14695981039346656037
    for c in ','.join(map(str, g[:n])).encode():
        h = ((h ^ c) * 1099511628211) & 0xFFFFFFFFFFFFFFFF
    return h


# ----------------------------------------------------------------------
# The check (docs/CERTIFICATES.md)
# ----------------------------------------------------------------------

def split_tail(g, rule, a, P, S):
    """The hypotheses of the splitting-tail theorem (THEORY.md, section
    7.4) on the values g (long enough: the caller makes sure): returns
    (None, need) when they hold, (why, need) when not; need is
    B + P - 1 (None when not yet known)."""
    if a < 1 or P < 1 or S < 1 or S & (S - 1):
        return 'the saltus must be a power of 2 and the start at least 1', \
            None
    if a + P >= len(g):
        return 'fewer values than one period from the start', None
    f = rule.start - 1
    c = next((x for x in range(1, a + P + 1) if g[x] >= S), a + P + 1)
    if c < a:
        return 'some heap below the start has a value of at least the ' \
            'saltus', None
    B = a + f + c
    need = B + P - 1
    if need >= len(g):
        return None, need       # the caller refuses the bound
    K1 = [k for k in range(1, f + 1) if rule.digit(k)[0] & 2]
    K4 = [k for k in range(0, f + 1) if rule.digit(k)[0] & 4]
    work = sum(g[n] + f + len(K4) * c for n in range(B, need + 1))
    if work > SPLIT_WORK_MAX or max(g[:need + 1]) >= 1 << 26 or \
            P > SPLIT_WORK_MAX or \
            P * P * len(K4) > 2 * SPLIT_WORK_MAX:
        raise NotChecked('the splitting-tail check is beyond this '
                         "checker's limits")
    if set(g[:a + P]) != set(range(S)) | {v + S for v in g[:a]}:
        return 'the prefix condition fails', need
    for n in range(a, B):
        if g[n + P] != g[n] + S:
            return 'G(n+P) != G(n)+S at n = %d' % n, need
    # every value below G(n) from a one-heap option or a small split
    A = set(g[:B - f])          # {G(j) : j <= n - f - 1}, grown with n
    for n in range(B, need + 1):
        A.add(g[n - f - 1])
        u = set(A)
        u.update(g[n - k] for k in K1)
        u.update(g[x] ^ g[n - k - x] for k in K4 for x in range(1, c)
                 if x + k < n)
        if any(v not in u for v in range(g[n])):
            return 'a value below G(%d) is reached only by splits into ' \
                'two large parts' % n, need
    # the residue-or-size condition: for parts of classes i, j at split
    # position k, G(x) ^ G(y) misses the residue of G(n) mod S, or even
    # G(x) + G(y) < G(n): E(i) + E(j) - S k < E(class of n)
    rho = [g[a + i] % S for i in range(P)]
    E = [P * g[a + i] - S * (a + i) for i in range(P)]
    for k in K4:
        for i in range(P):
            for j in range(P):
                t = (a + i + j + k) % P
                if rho[i] ^ rho[j] == rho[t] and E[i] + E[j] - S * k >= E[t]:
                    return 'the residue-or-size condition fails for ' \
                        'classes %d, %d at k = %d' % (i, j, k), need
    return None, need


def class_condition(g, rule, a, P, S):
    """None when the class condition of the periodic-tail theorem
    (THEORY.md, section 7.7) holds, else why not: for every m in
    [a + s0 - 1, a + s0 - 1 + q), the values of the options j < a + P of
    heap m + P are [0, S) and S more than those of the options i < a of
    heap m."""
    q, s0 = len(rule.tail), rule.start
    if q * (a + P + max(g) + S + 2) > CLASS_WORK_MAX:
        return "the class condition of the periodic-tail theorem is " \
               "beyond this implementation's limits"

    def option(h, j):
        if j >= h:
            return False
        b, _ = rule.digit(h - j)
        return bool(b & 1) if j == 0 else bool(b & 2)

    for m in range(a + s0 - 1, a + s0 - 1 + q):
        x = {g[j] for j in range(a + P) if option(m + P, j)}
        y = set(range(S)) | {g[i] + S for i in range(a) if option(m, i)}
        if x != y:
            return 'the class condition of the periodic-tail theorem fails'
    return None


def hex_arith(g, rule, a, P, S):
    """The hypotheses of the hexadecimal theorem (THEORY.md, section 7.5,
    Theorem 7) on the values g (long enough: the caller makes sure):
    returns (None, need) when they hold, (why, need) when not; need is
    B + P - 1 (None when not yet known)."""
    if a < 1 or P < 1 or S < 1 or S & (S - 1):
        return 'the saltus must be a power of 2 and the start at least 1', \
            None
    if a + P >= len(g):
        return 'fewer values than one period from the start', None
    t = rule.max_take()
    c = next((x for x in range(1, a + P + 1) if g[x] >= S), None)
    if c is None:
        return 'no heap up to a + P has a value of at least S', None
    M = max(a, c)
    B = max(a + t + 2 * c - 1, 3 * M + t - P)
    need = B + P - 1
    if need >= len(g):
        return None, need       # the caller refuses the bound
    bits = [rule.digit(k)[0] for k in range(t + 1)]
    K2 = [k for k in range(1, t + 1) if bits[k] & 2]
    K4 = [k for k in range(t + 1) if bits[k] & 4]
    K8 = [k for k in range(t + 1) if bits[k] & 8]
    work = sum(g[n] + len(K2) + len(K4) * c + len(K8) * c * c
               for n in range(B, need + 1))
    work += len(K4) * (M - c + P) * P + len(K8) * (M + P) * (M - c + P) * P
    if work > HEX_WORK_MAX or max(g[:need + 1]) >= HEX_VALUE_MAX:
        raise NotChecked("the hexadecimal check is beyond this checker's "
                         "limits")

    def pairs(n, z):
        """Whether heap n (large) leaves x, x and z (z >= 1) or x, x
        (z = 0) by some move: a digit of bit 8 (4) with n - k - z even."""
        want = 8 if z else 4
        return any(bits[k] & want and (n - k - z) % 2 == 0 and
                   n - k - z >= 2 for k in range(t + 1))

    # (i) the prefix condition, at a heap far out of each parity
    far = 2 * (a + P + t) + 2
    for n in (far, far + 1):
        lhs = {g[z] for z in range(a + P) if pairs(n, z)}
        rhs = set(range(S)) | {g[z] + S for z in range(a) if pairs(n - P, z)}
        if lhs != rhs:
            return 'the prefix condition fails for heaps of parity %d' % (
                n % 2), need
    # (ii) agreement
    for n in range(a, B):
        if g[n + P] != g[n] + S:
            return 'G(n+P) != G(n)+S at n = %d' % n, need
    # (iii) every value below G(n) from a good option
    for n in range(B, need + 1):
        u = {g[n - k] for k in K2}
        for k in K4:
            m = n - k
            u.update(g[x] ^ g[m - x] for x in range(1, min(c, m)))
            if m % 2 == 0:
                u.add(0)
        for k in K8:
            m = n - k
            u.update(g[x] ^ g[y] ^ g[m - x - y] for x in range(1, c)
                     for y in range(1, c) if x + y < m)
            u.update(g[m - 2 * x] for x in range(1, (m - 1) // 2 + 1))
        if any(v not in u for v in range(g[n])):
            return 'a value below G(%d) comes only from splits the theorem ' \
                'does not follow' % n, need
    # (iv) residue-or-size: a part is a heap h < M (itself) or a class
    # mod P (its heap a + i); E = P G - S h; the class of n follows
    explicit = list(range(1, M))
    classes = [a + i for i in range(P)]
    E = lambda h: P * g[h] - S * h
    cls = lambda total: a + (total - a) % P

    def fails(parts, k):
        n = cls(sum(parts) + k)
        r = 0
        for h in parts:
            r ^= g[h] % S
        return r == g[n] % S and sum(E(h) for h in parts) - S * k >= E(n)

    for k in K4:
        for x in [h for h in explicit if h >= c] + classes:
            for y in classes:
                if fails((x, y), k):
                    return 'the residue-or-size condition fails for two ' \
                        'parts %d, %d at k = %d' % (x, y, k), need
    for k in K8:
        for x in explicit + classes:
            for y in [h for h in explicit if h >= c] + classes:
                for z in classes:
                    if fails((x, y, z), k):
                        return 'the residue-or-size condition fails for ' \
                            'three parts %d, %d, %d at k = %d' % (
                                x, y, z, k), need
    return None, need


def check(c, values_of, max_bound):
    """'confirmed' or 'refuted: why' for the fields c of a certificate."""
    rule = parse_rule(c['rule'])
    thm = c['theorem']
    a, P, S, B = c['proof_start'], c['proof_period'], c['proof_saltus'], \
        c['bound']
    n0, p, s = c['preperiod'], c['period'], c['saltus']

    # 1. The theorem applies to the rule; saltus and start it allows.
    applies = rule.theorem()
    if applies == 'set-residues' and thm == applies:
        return check_set_residues(c, rule, values_of, max_bound)
    if applies == 'guy-smith-3' and thm == 'hex-arith':
        applies = thm       # finite codes with bit 8: plain or arithmetic
    if applies is None:
        return 'refuted: no implemented theorem applies to this rule'
    if thm != applies:
        return 'refuted: %s does not apply to this rule (only %s does)' % (
            thm, applies)
    if p < 1 or P < 1:
        return 'refuted: the period must be positive'
    if (c['status'] == 'periodic') != (s == 0):
        return 'refuted: the status %s contradicts the saltus %d' % (
            c['status'], s)
    if thm not in ('tail-arith', 'tail-split-arith', 'tail-periodic',
                   'hex-arith') and \
            (S != 0 or s != 0):
        return 'refuted: this theorem proves only plain periodicity'
    if thm != 'tail-arith' and a < 1:
        return "refuted: the theorem's start must be at least 1"
    if thm == 'hex-arith':
        if B > max_bound:
            raise NotChecked("bound %d is beyond this checker's limit %d "
                             "(SG_CHECK_MAX_BOUND)" % (B, max_bound))
        g = values_of(c['rule'], rule).upto(B + 1)
        if c['checksum'] != 'fnv1a64:%016x' % fnv1a64(g, B + 1):
            return 'refuted: checksum of G(0..bound) does not match'
        if S == 0:
            return 'refuted: this theorem proves only arithmetic periodicity'
        if a + P > B:
            return 'refuted: the start and period reach beyond the bound'
        why, need = hex_arith(g[:B + 1], rule, a, P, S)
        if need is not None and need > B:
            return 'refuted: the bound is smaller than the theorem needs ' \
                   '(%d < %d)' % (B, need)
        if why:
            return "refuted: the hexadecimal theorem's check fails: " + why
        return claimed(c, g, B)
    if thm == 'tail-split-arith':
        if B > max_bound:
            raise NotChecked("bound %d is beyond this checker's limit %d "
                             "(SG_CHECK_MAX_BOUND)" % (B, max_bound))
        g = values_of(c['rule'], rule).upto(B + 1)
        if c['checksum'] != 'fnv1a64:%016x' % fnv1a64(g, B + 1):
            return 'refuted: checksum of G(0..bound) does not match'
        if a + P > B:
            return 'refuted: the start and period reach beyond the bound'
        why, need = split_tail(g[:B + 1], rule, a, P, S)
        if need is not None and need > B:
            return 'refuted: the bound is smaller than the theorem needs ' \
                   '(%d < %d)' % (B, need)
        if why:
            return "refuted: the splitting-tail theorem's check fails: " + why
        return claimed(c, g, B)

    # 2. The bound covers what the theorem needs.
    a1 = max(a, 1)
    if thm == 'tail-periodic' and P % len(rule.tail):
        return "refuted: the proof's period %d is not a multiple of the " \
               "tail's period %d" % (P, len(rule.tail))
    if thm == 'tail-arith':
        E = a1 + rule.start - 1
    elif thm == 'tail-periodic':
        E = a1 + P + rule.start - 1
    else:
        t = rule.max_take()
        E = {'subtraction-window': a1 + t,
             'guy-smith': 2 * a1 + P + t,
             'guy-smith-unequal': 2 * a1 + 2 * P + t,
             'guy-smith-3': 3 * a1 + 2 * P + t}[thm]
    if E + P - 1 > B:
        return 'refuted: the bound is smaller than the theorem needs ' \
               '(%d < %d)' % (B, E + P - 1)
    if B > max_bound:
        raise NotChecked("bound %d is beyond this checker's limit %d "
                         "(SG_CHECK_MAX_BOUND)" % (B, max_bound))

    # 3. The checksum of G(0..B).
    g = values_of(c['rule'], rule).upto(B + 1)
    if c['checksum'] != 'fnv1a64:%016x' % fnv1a64(g, B + 1):
        return 'refuted: checksum of G(0..bound) does not match'

    # 4. The theorem's hypotheses.
    for n in range(a, E):
        if g[n + P] != g[n] + S:
            return 'refuted at n = %d: G(n+P) != G(n)+S in the theorem\'s ' \
                   'range' % n
    if thm == 'tail-arith' and \
            set(g[:a + P]) != set(range(S)) | {v + S for v in g[:a]}:
        return 'refuted: the prefix condition of the tail theorem fails'
    if thm == 'tail-periodic' and S > 0:
        if S > max(g[:B + 1]):
            return "refuted: the proof's saltus %d exceeds every value" % S
        why = class_condition(g[:B + 1], rule, a, P, S)
        if why:
            return 'refuted: ' + why

    return claimed(c, g, B)


def check_set_residues(c, rule, values_of, max_bound):
    """Steps 1 to 6 for the set-residues theorem (THEORY.md 7.8): start
    0, plain period, agreement G(n+P) = G(n) for 0 <= n < M."""
    a, P, S, B = c['proof_start'], c['proof_period'], c['proof_saltus'], \
        c['bound']
    if c['period'] < 1 or P < 1:
        return 'refuted: the period must be positive'
    if (c['status'] == 'periodic') != (c['saltus'] == 0):
        return 'refuted: the status %s contradicts the saltus %d' % (
            c['status'], c['saltus'])
    if S != 0 or c['saltus'] != 0:
        return 'refuted: this theorem proves only plain periodicity'
    if a != 0:
        return 'refuted: the set-residues theorem starts at 0'
    if B > max_bound or P > max_bound:
        raise NotChecked("bound %d is beyond this checker's limit %d "
                         "(SG_CHECK_MAX_BOUND)" % (B, max_bound))
    if P > RESIDUE_PERIOD_MAX:
        return 'refuted: the period exceeds 65536, the largest whose ' \
               'residue classes are walked'
    M, why = rule.residue_bound(P, B)
    if why:
        return 'refuted: ' + why
    if M + P - 1 > B:
        return 'refuted: the bound is smaller than the theorem needs ' \
               '(%d < %d)' % (B, M + P - 1)
    g = values_of(c['rule'], rule).upto(B + 1)
    if c['checksum'] != 'fnv1a64:%016x' % fnv1a64(g, B + 1):
        return 'refuted: checksum of G(0..bound) does not match'
    for n in range(0, M):
        if g[n + P] != g[n]:
            return 'refuted at n = %d: G(n+P) != G(n) in the theorem\'s ' \
                   'range' % n
    return claimed(c, g, B)


def claimed(c, g, B):
    """Steps 5 and 6: the claimed period and pre-period, given that the
    theorem proved (P, S) from a on."""
    a, P, S = c['proof_start'], c['proof_period'], c['proof_saltus']
    n0, p, s = c['preperiod'], c['period'], c['saltus']

    # 5. The claimed period: a period of the proven sequence, and the
    # least one.  Values past B are read through the proven (P, S).
    def val(n):
        if n <= B:
            return g[n]
        return g[a + (n - a) % P] + (n - a) // P * S

    def period_from(q, sq):
        return all(val(n + q) == val(n) + sq for n in range(a, a + P))

    d = next((d for d in range(1, P + 1)
              if P % d == 0 and S % (P // d) == 0
              and period_from(d, S // (P // d))), P)
    sd = S // (P // d)
    if p % d != 0 or s != sd * (p // d):
        return 'refuted: the claimed period %d with saltus %d is not a ' \
               'period (the least period is %d, saltus %d)' % (p, s, d, sd)
    if p != d:
        return 'refuted: the claimed period %d is a period, but not the ' \
               'least one (the least is %d)' % (p, d)

    # 6. The claimed pre-period: at most the start, holds, and is least.
    if n0 > a:
        return "refuted: the claimed pre-period lies beyond the theorem's " \
               "start"
    for n in range(n0, a):
        if g[n + p] != g[n] + s:
            return 'refuted at n = %d: the claimed period fails below the ' \
                   'theorem\'s start' % n
    if n0 > 0 and g[n0 - 1 + p] == g[n0 - 1] + s:
        return 'refuted: the claimed pre-period %d is not the least' % n0
    return 'confirmed'


def verdict(path, values_of, max_bound):
    try:
        with open(path, 'rb') as f:
            data = f.read(MAX_FILE + 1)
        if len(data) > MAX_FILE:
            raise Malformed('too large to be a certificate')
        return check(read_certificate(data.decode('latin-1')), values_of,
                     max_bound)
    except OSError as e:
        return 'malformed: cannot read: %s' % e.strerror
    except Malformed as e:
        return 'malformed: %s' % e
    except NotChecked as e:
        return 'not checked: %s' % e


def main(argv):
    if len(argv) < 2:
        sys.stderr.write('usage: check_certificate.py FILE...\n')
        return 2
    max_bound = int(os.environ.get('SG_CHECK_MAX_BOUND') or 1000000)
    cache = {}

    def values_of(text, rule):
        if text not in cache:
            cache[text] = SetValues(rule) if isinstance(rule, SetRule) \
                else Values(rule)
        return cache[text]

    if argv[1:] == ['-']:
        paths, named = [line.rstrip('\n') for line in sys.stdin], True
    else:
        paths, named = argv[1:], len(argv) > 2
    all_ok = True
    for path in paths:
        v = verdict(path, values_of, max_bound)
        all_ok = all_ok and v == 'confirmed'
        print('%s: %s' % (path, v) if named else v)
    return 0 if all_ok else 1


if __name__ == '__main__':
    sys.exit(main(sys.argv))
