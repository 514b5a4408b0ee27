# portable: runs under MicroPython too
"""Farkle Frenzy scoring: golden tables worked out by hand from RULES.md section 2,
selections with the Common Die, the Farkle test, and an exhaustive comparison with
an independent (slow, recursive) reference scorer written here."""

from checks import raises as _raises
from host_only.frenzy_checked import score, is_farkle, selections
from core.frenzy_score import COMMON_BIT
from core.dice import TWOX, WILD


# (values, points with three 1s = 300, points with three 1s = 1000), by hand.
GOLDEN = (
    # singles
    ((1,), 100, 100),
    ((5,), 50, 50),
    ((1, 1), 200, 200),
    ((5, 5), 100, 100),
    ((1, 5), 150, 150),
    ((1, 1, 5, 5), 300, 300),
    # three of a kind
    ((1, 1, 1), 300, 1000),
    ((2, 2, 2), 200, 200),
    ((3, 3, 3), 300, 300),
    ((4, 4, 4), 400, 400),
    ((5, 5, 5), 500, 500),
    ((6, 6, 6), 600, 600),
    # four of a kind: 1000; four 1s in the 1000 table: three 1s + a 1 = 1100
    ((2, 2, 2, 2), 1000, 1000),
    ((6, 6, 6, 6), 1000, 1000),
    ((5, 5, 5, 5), 1000, 1000),
    ((1, 1, 1, 1), 1000, 1100),
    # five and six of a kind
    ((3, 3, 3, 3, 3), 2000, 2000),
    ((1, 1, 1, 1, 1), 2000, 2000),
    ((5, 5, 5, 5, 5), 2000, 2000),
    ((4, 4, 4, 4, 4, 4), 3000, 3000),
    ((1, 1, 1, 1, 1, 1), 3000, 3000),
    # six-dice combinations
    ((1, 2, 3, 4, 5, 6), 1500, 1500),
    ((6, 4, 2, 5, 3, 1), 1500, 1500),
    ((2, 2, 3, 3, 4, 4), 1500, 1500),
    ((1, 1, 5, 5, 6, 6), 1500, 1500),
    ((3, 3, 3, 3, 6, 6), 1500, 1500),
    ((1, 1, 1, 1, 5, 5), 1500, 1500),  # beats 1000 (1100) + 100
    ((2, 2, 2, 2, 5, 5), 1500, 1500),
    ((1, 1, 1, 1, 2, 2), 1500, 1500),
    ((2, 2, 2, 3, 3, 3), 2500, 2500),
    ((1, 1, 1, 5, 5, 5), 2500, 2500),  # beats 300 (1000) + 500
    ((1, 1, 1, 2, 2, 2), 2500, 2500),
    # mixed splits
    ((1, 1, 1, 5), 350, 1050),
    ((2, 2, 2, 1), 300, 300),
    ((2, 2, 2, 5, 5), 300, 300),
    ((1, 1, 1, 5, 5), 400, 1100),
    ((1, 1, 1, 1, 5), 1050, 1150),
    ((6, 6, 6, 1, 5), 750, 750),
    ((1, 1, 1, 1, 1, 5), 2050, 2050),
    ((5, 5, 5, 5, 5, 1), 2100, 2100),
    ((2, 2, 2, 2, 2, 5), 2050, 2050),
    ((6, 6, 6, 6, 6, 1), 2100, 2100),
    ((3, 3, 3, 3, 1, 5), 1150, 1150),
    ((4, 4, 4, 1, 1, 1), 2500, 2500),
    # sets that do not split completely score nothing
    ((), 0, 0),
    ((2,), 0, 0),
    ((2, 2), 0, 0),
    ((2, 3), 0, 0),
    ((1, 2), 0, 0),
    ((3, 3, 3, 4), 0, 0),
    ((2, 3, 4, 5, 6), 0, 0),
    ((1, 2, 3, 4, 5), 0, 0),
    ((2, 2, 3, 3), 0, 0),
    ((2, 2, 3, 3, 4), 0, 0),
    ((4, 4, 4, 4, 4, 2), 0, 0),
    ((2, 2, 3, 3, 4, 6), 0, 0),
    ((1, 1, 5, 5, 6, 2), 0, 0),
)


def test_golden_scores_both_tables():
    for values, p300, p1000 in GOLDEN:
        got = score(list(values))
        assert got == p300, (values, got, p300)
        got = score(list(values), 1000)
        assert got == p1000, (values, got, p1000)
        assert score(list(values), ones=300) == p300


def test_score_rejects_bad_input():
    assert _raises(score, [0])
    assert _raises(score, [7])
    assert _raises(score, [1, 1, 1, 1, 1, 1, 1])
    assert _raises(score, [1], 500)


# ---- an independent reference: try every combination recursively ----------

def _ref_combos(ones):
    out = [((1, 1), 100), ((5, 1), 50)]
    for v in range(1, 7):
        out.append(((v, 3), ones if v == 1 else v * 100))
        out.append(((v, 4), 1000))
        out.append(((v, 5), 2000))
        out.append(((v, 6), 3000))
    return out


def _ref_best(counts, combos):
    n = sum(counts)
    if n == 0:
        return 0
    best = -1
    # six-dice combinations over the whole set
    if n == 6:
        cs = sorted(c for c in counts if c)
        if cs == [1, 1, 1, 1, 1, 1]:
            best = 1500
        if cs == [2, 2, 2] or cs == [2, 4]:
            best = max(best, 1500)
        if cs == [3, 3]:
            best = max(best, 2500)
    for (v, k), pts in combos:
        if counts[v] >= k:
            counts[v] -= k
            rest = _ref_best(counts, combos)
            counts[v] += k
            if rest >= 0 and rest + pts > best:
                best = rest + pts
    return best


def _multisets(maxn):
    out = [[]]
    frontier = [[]]
    for _ in range(maxn):
        nxt = []
        for m in frontier:
            lo = m[-1] if m else 1
            for v in range(lo, 7):
                nxt.append(m + [v])
        out += nxt
        frontier = nxt
    return out


def test_every_set_against_the_reference():
    sets = _multisets(6)
    assert len(sets) == 924  # multisets of 0..6 values from 6
    for ones in (300, 1000):
        combos = _ref_combos(ones)
        for m in sets:
            counts = [0] * 7
            for v in m:
                counts[v] += 1
            want = max(_ref_best(counts, combos), 0)
            assert score(m, ones) == want, (m, ones, score(m, ones), want)


# ---- selections and the Common Die -------------------------------------------

def test_selections_without_common():
    assert selections([1, 5, 2]) == [(1, 100), (2, 50), (3, 150)]
    assert selections([2, 3, 4, 6, 6]) == []
    assert selections([3, 3, 3]) == [(7, 300)]
    assert selections([2, 4, 2, 6, 2]) == [(0b10101, 200)]


def test_selections_with_common_by_hand():
    # two 2s and the Common Die's 2: three of a kind
    assert selections([2, 2, 6, 3, 4], 2) == [(0x03 | COMMON_BIT, 200)]
    # a 5 alone, or with the Common Die's 5
    assert selections([5, 3, 3, 4, 6], 5) == [(1, 50), (0x21, 100)]
    # the Common Die alone never scores: Farkle
    assert selections([2, 3, 4, 6, 6], 1) == []
    assert selections([2, 3, 4, 6, 6], 6) == [(0x18 | COMMON_BIT, 600)]
    # straight with the Common Die's 1
    assert selections([2, 3, 4, 5, 6], 1) == [(8, 50), (0x28, 150), (0x3F, 1500)]
    # three pairs only with the Common Die (e.g. a WILD declared 4)
    assert selections([2, 2, 3, 3, 4], 4) == [(0x3F, 1500)]
    assert selections([2, 2, 3, 3, 4]) == []


def test_selections_full_list_both_tables():
    want = [(1, 100), (2, 100), (3, 200), (0x1C, 200), (0x1D, 300), (0x1E, 300),
            (0x1F, 400), (0x21, 200), (0x22, 200), (0x23, 300), (0x3C, 300),
            (0x3D, 400), (0x3E, 400), (0x3F, 2500)]
    assert selections([1, 1, 2, 2, 2], 1) == want
    want1000 = [(m, 1000 if m == 0x23 else p) for m, p in want]
    assert selections([1, 1, 2, 2, 2], 1, 1000) == want1000


def _rolls(n):
    out = [[]]
    for _ in range(n):
        out = [r + [v] for r in out for v in range(1, 7)]
    return out


def test_selections_consistent_and_contain_a_rolled_die():
    # Every rolls of 1-3 dice (and a sample of 5) with every Common Die number:
    # each selection holds a rolled die, scores what score() says, is sorted, and
    # every mask missing from the list does not score.
    cases = _rolls(1) + _rolls(2) + _rolls(3)
    five = _rolls(5)
    cases += five[::37]
    for r in cases:
        n = len(r)
        for common in (None, 1, 2, 3, 4, 5, 6):
            sel = selections(r, common)
            masks = [m for m, _ in sel]
            assert masks == sorted(masks)
            got = {}
            for m, p in sel:
                assert m & 0x1F, (r, common, m)
                got[m] = p
            top = 64 if common is not None else 32
            for m in range(1, top):
                if m & 0x1F >= 1 << n:
                    continue
                vals = [r[i] for i in range(n) if m >> i & 1]
                if m & COMMON_BIT:
                    vals.append(common)
                p = score(vals) if m & 0x1F else 0
                assert got.get(m, 0) == p, (r, common, m)
            assert is_farkle(r, common) == (not sel), (r, common)


def test_is_farkle_by_hand():
    assert is_farkle([2, 3, 4, 6, 6])
    assert is_farkle([2, 3, 4, 6, 6], 1)  # the Common Die alone is not a selection
    assert not is_farkle([2, 3, 4, 6, 6], 6)
    assert not is_farkle([2, 2, 3, 3, 4], 4)  # three pairs with the Common Die
    assert not is_farkle([2, 2, 3, 3, 4], 2)
    assert is_farkle([2, 2, 3, 3, 4], 6)
    assert is_farkle([2, 2, 3, 3, 4])
    assert is_farkle([3], 3)
    assert not is_farkle([3, 3], 3)
    assert not is_farkle([6, 6, 6])
    assert not is_farkle([5])
    assert not is_farkle([1], 5)
    assert is_farkle([2, 3, 4, 6], 1)
    assert is_farkle([4, 6, 2, 3, 3], 5)


def test_is_farkle_rejects_bad_input():
    assert _raises(is_farkle, [])
    assert _raises(is_farkle, [1, 2, 3, 4, 5, 6])
    assert _raises(is_farkle, [0])
    assert _raises(is_farkle, [2], 7)
    assert _raises(is_farkle, [2], TWOX)
    assert _raises(is_farkle, [2], WILD)
    assert _raises(selections, [2, 2], None, 999)


def test_wild_table_is_the_best_selection_per_value():
    """wild_into (the WILD picker's table): per declared value, the best points of any
    selection of the roll, with the WILD or without it, as points_of() gives them."""
    from core.frenzy_score import ones_table, points_of, wild_into
    x = 5  # a fixed sequence of rolls (a plain LCG: MicroPython has no random.Random)
    out = bytearray(7)
    for ones in (300, 1000):
        t = ones_table(ones)
        for _ in range(400):
            x = (x * 1103515245 + 12345) & 0x7FFFFFFF
            n = 1 + x % 5
            rolled = bytearray(1 + (x >> 3 * i + 4) % 6 for i in range(n))
            wild_into(rolled, n, t, out)
            assert out[0] == 0
            for v in range(1, 7):
                best = max(points_of(rolled, n, v, m, t) for m in range(64))
                assert out[v] * 50 == best, (bytes(rolled), v, ones)
