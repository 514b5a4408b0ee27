# portable: runs under MicroPython too
"""core.frenzy_score.scores_into (the roll's whole table, which Farkle Frenzy's TAKE
reads instead of 63 points() calls) gives every mask exactly points_of's points, for
rolls of 1-5 dice, with and without the Common Die's number, both ones tables."""
from core.frenzy_score import ones_table, points_of, scores_into


def _rolls():
    # Every roll of up to 3 dice, and a spread of 4- and 5-dice rolls.
    out = []
    for n in (1, 2, 3):
        for code in range(6 ** n):
            r = bytearray(5)
            for i in range(n):
                r[i] = code // 6 ** i % 6 + 1
            out.append((r, n))
    for code in range(0, 6 ** 5, 23):
        r = bytearray(5)
        for i in range(5):
            r[i] = code // 6 ** i % 6 + 1
        out.append((r, 5))
        out.append((r, 4))
    return out


def test_table_matches_points_of():
    tab = bytearray(64)
    scored = 0
    for ones in (300, 1000):
        t = ones_table(ones)
        for rolled, n in _rolls():
            for common in (None, 1, 2, 5, 6):
                scores_into(rolled, n, common, t, tab)
                for m in range(64):
                    p = points_of(rolled, n, common, m, t)
                    assert tab[m] * 50 == p, (list(rolled), n, common, m, tab[m], p)
                    scored += p > 0
    assert scored > 1000
