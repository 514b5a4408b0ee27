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
    # With the Common Die, the six-dice combinations: a straight, three pairs, four
    # of a kind and a pair, two triplets, six of a kind.
    for dice in (b"\x02\x03\x04\x05\x06", b"\x06\x05\x04\x03\x02", b"\x02\x02\x03\x03\x05",
                 b"\x04\x04\x04\x04\x02", b"\x03\x03\x03\x06\x06", b"\x01\x01\x01\x01\x01",
                 b"\x05\x05\x05\x05\x05", b"\x02\x02\x02\x02\x02"):
        out.append((bytearray(dice), 5))
    return out


def test_table_matches_points_of():
    tab = bytearray(64)
    scored = six = 0
    for ones in (300, 1000):
        t = ones_table(ones)
        for rolled, n in _rolls():
            for common in (None, 1, 2, 5, 6):
                scores_into(rolled, n, common, t, tab)
                for m in range(64):
                    p = points_of(rolled, n, common, m, t)
                    assert tab[m] * 50 == p, (list(rolled), n, common, m, tab[m], p)
                    scored += p > 0
                    six += m == 63 and p >= 1500
    assert scored > 1000
    assert six >= 8  # the six-dice rolls above scored as six dice
