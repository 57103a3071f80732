#!/usr/bin/env python3
"""Check an sgexplore certificate without sgexplore (docs/CERTIFICATES.md).

Usage: check_certificate.py FILE   -> prints "confirmed" (exit 0) or why not (exit 1).
Recomputes G(0..bound) by brute force from the rule text, then checks the
checksum, the theorem's hypotheses and the claim.  Independent of the C code.
"""
import re, sys

def parse_rule(text):
    """Return digit(k) -> (bits, unequal) for codes, subtract{..}, all-but{..}."""
    m = re.fullmatch(r'(subtract|all-but)\{([0-9,\-]*)\}', text)
    if m:
        nums = set()
        for part in filter(None, m.group(2).split(',')):
            lo, _, hi = part.partition('-')
            nums.update(range(int(lo), int(hi or lo) + 1))
        if m.group(1) == 'subtract':
            return lambda k: (3 if k in nums else 0, False), max(nums), None
        return lambda k: (0 if k in nums or k == 0 else 3, False), None, max(nums, default=0) + 1
    if text == 'grundy':
        text = '4!.0'
    before, _, after = text.partition('.')
    tail = re.search(r'\[(.*)\]$', after)
    finite = after[:tail.start()] if tail else after
    toks = lambda s: [(int(d, 16), bang == '!') for d, bang in re.findall(r'([0-9A-Fa-f])(!?)', s)]
    digits = toks(before or '0') + toks(finite)
    tl = toks(tail.group(1)) if tail else []
    start = len(digits)
    def digit(k):
        if k < start:
            return digits[k]
        return tl[(k - start) % len(tl)] if tl else (0, False)
    last = max((k for k, (d, _) in enumerate(digits) if d), default=0)
    return digit, (last if not tl else None), (start if tl else None)

def grundy(digit, n):
    g = []
    for h in range(n):
        opts = set()
        for k in range(h + 1):
            d, uneq = digit(k)
            r = h - k
            if d & 1 and r == 0: opts.add(0)
            if d & 2 and r >= 1: opts.add(g[r])
            if d & 4:
                opts.update(g[a] ^ g[r - a] for a in range(1, r // 2 + 1) if not (uneq and 2 * a == r))
            if d & 8:
                opts.update(g[a] ^ g[b] ^ g[r - a - b] for a in range(1, r // 3 + 1)
                            for b in range(a, (r - a) // 2 + 1) if not (uneq and (a == b or b == r - a - b)))
        v = 0
        while v in opts: v += 1
        g.append(v)
    return g

def fnv(g):
    h = 14695981039346656037
    for c in ','.join(map(str, g)).encode():
        h = ((h ^ c) * 1099511628211) % 2**64
    return h

def check(c):
    digit, t, tail_start = parse_rule(c['rule'])
    a, p, s, bound = (int(c[k]) for k in ('proof_start', 'proof_period', 'proof_saltus', 'bound'))
    am = max(a, 1)
    ends = {'subtraction-window': am + (t or 0), 'guy-smith': 2 * am + p + (t or 0),
            'guy-smith-unequal': 2 * am + 2 * p + (t or 0), 'guy-smith-3': 3 * am + 2 * p + (t or 0),
            'tail-arith': am + (tail_start or 1) - 1}
    end = ends[c['theorem']]
    if end + p - 1 > bound: return 'bound smaller than the theorem needs'
    g = grundy(digit, bound + 1)
    if 'fnv1a64:%016x' % fnv(g) != c['checksum']: return 'checksum mismatch'
    for n in range(a, end):
        if g[n + p] != g[n] + s: return 'fails at n = %d' % n
    if c['theorem'] == 'tail-arith' and set(g[:a + p]) != set(range(s)) | {v + s for v in g[:a]}:
        return 'prefix condition fails'
    n0, q, sq = int(c['preperiod']), int(c['period']), int(c['saltus'])
    val = lambda n: g[n] if n <= bound else g[a + (n - a) % p] + (n - a) // p * s
    if any(val(n + q) != val(n) + sq for n in range(n0, a + p)): return 'claimed period fails'
    if n0 > 0 and val(n0 - 1 + q) == val(n0 - 1) + sq: return 'pre-period not least'
    return 'confirmed'

if __name__ == '__main__':
    cert = dict(line.split(': ', 1) for line in open(sys.argv[1]).read().splitlines()
                if ': ' in line and not line.startswith('#'))
    verdict = check(cert)
    print(verdict)
    sys.exit(0 if verdict == 'confirmed' else 1)
