"""The tests' own judge for rules given by a function: G(n) by the
definition, the mex over the options of n of the xor of the option's
heaps' values, with nothing shared with libsgexplore."""


def mex(values):
    seen = set(values)
    m = 0
    while m in seen:
        m += 1
    return m


def grundy_values(moves, count):
    """G(0..count-1) of the game whose heap n has the options moves(n)
    (each a list of heaps, or one heap)."""
    g = []
    for n in range(count):
        reach = []
        for opt in moves(n):
            heaps = [opt] if isinstance(opt, int) else opt
            x = 0
            for h in heaps:
                assert 0 <= h < n
                x ^= g[h]
            reach.append(x)
        g.append(mex(reach))
    return g
