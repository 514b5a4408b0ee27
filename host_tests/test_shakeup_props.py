"""Hypothesis properties of core.shakeup (CPython only)."""
from hypothesis import given, settings
from hypothesis import strategies as st

from core import shakeup as S
from core.dice import Dice
from core.seeded import Seeded

die = st.integers(min_value=1, max_value=6)
roll = st.lists(die, min_size=4, max_size=4)


@given(roll, st.randoms(use_true_random=False))
def test_classify_ignores_order(dice, rnd):
    other = list(dice)
    rnd.shuffle(other)
    assert S.classify(other) == S.classify(dice)


@given(roll, st.integers(min_value=0, max_value=3), die)
def test_changing_a_die_into_a_copy_never_gives_none(dice, i, v):
    # Any roll with a value shown at least twice is at least a PAIR.
    d = list(dice)
    d[i] = d[(i + 1) % 4]
    assert S.classify(d) != S.NONE


@given(st.lists(st.integers(min_value=1, max_value=4), min_size=5, max_size=5), st.booleans())
def test_movable_is_order_free_and_spots_only_removes(pawns, spots):
    got = S.movable(pawns, spots)
    assert got == S.movable(sorted(pawns), spots) == sorted(got)
    assert set(S.movable(pawns, True)) <= set(S.movable(pawns, False))
    assert all(lv in pawns for lv in got)


def _play(data, seed, players, spots, steps):
    g = S.Game(players, spots, dice=Dice(Seeded(seed)))
    for _ in range(steps):
        if g.phase == S.OVER:
            break
        lg = g.legal()
        assert lg
        d = data.draw(st.sampled_from(lg))
        g.apply(d)  # a legal decision never raises
    return g


@settings(max_examples=100, deadline=None)
@given(st.data(), st.integers(min_value=0, max_value=2**32 - 1),
       st.integers(min_value=2, max_value=4), st.booleans(),
       st.integers(min_value=0, max_value=400))
def test_round_trip_at_random_points(data, seed, players, spots, steps):
    g = _play(data, seed, players, spots, steps)
    b = g.to_bytes()
    h = S.Game.from_bytes(b)
    for name in ("players", "spots", "phase", "player", "held", "shakes", "result",
                 "winner", "starter"):
        assert getattr(h, name) == getattr(g, name), name
    assert bytes(h.dice) == bytes(g.dice) and bytes(h.rolloff) == bytes(g.rolloff)
    assert [h.count(s, lv) for s in range(players) for lv in (1, 2, 3, 4)] == \
        [g.count(s, lv) for s in range(players) for lv in (1, 2, 3, 4)]
    assert h.legal() == g.legal() and h.to_bytes() == b
    # Both play on identically with the same decision and forced dice.
    if g.phase != S.OVER:
        d = data.draw(st.sampled_from(g.legal()))
        vals = None
        if d & 0xF00 == S.ROLL:
            n = 1 if g.phase == S.ROLLOFF else 4 - bin(d & 0xF).count("1")
            vals = data.draw(st.lists(die, min_size=n, max_size=n))
        g.apply(d, vals)
        h.apply(d, vals)
        assert g.to_bytes() == h.to_bytes() and g.notes == h.notes


@settings(max_examples=100, deadline=None)
@given(st.data(), st.integers(min_value=0, max_value=2**32 - 1),
       st.integers(min_value=2, max_value=4), st.booleans(),
       st.integers(min_value=0, max_value=300), st.integers(min_value=0, max_value=0xFFF))
def test_illegal_decisions_raise_and_change_nothing(data, seed, players, spots, steps, d):
    g = _play(data, seed, players, spots, steps)
    before = g.to_bytes()
    if d in g.legal():
        return
    try:
        g.apply(d)
    except ValueError as e:
        assert str(e)
    else:
        raise AssertionError("illegal decision 0x%x accepted" % d)
    assert g.to_bytes() == before


@given(st.one_of(st.binary(max_size=48),
                 st.binary(min_size=35, max_size=35).map(lambda t: b"\x01" + t)))
def test_from_bytes_never_fails_otherwise(b):
    try:
        g = S.Game.from_bytes(b)
    except ValueError:
        return
    assert g.to_bytes() == b
