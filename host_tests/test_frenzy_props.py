"""Farkle Frenzy properties (CPython, Hypothesis) and invariants over thousands of games."""
from hypothesis import given, settings, strategies as st

from core import frenzy as F
from core.frenzy import Game
from host_only.frenzy_checked import is_farkle, score, selections
from core.frenzy_score import COMMON_BIT
from core.dice import Dice
from core.seeded import Seeded
from frenzy_round_rig import play_checked, Policy

values = st.integers(min_value=1, max_value=6)
ones = st.sampled_from((300, 1000))
commons = st.sampled_from((None, 1, 2, 3, 4, 5, 6))


@given(st.lists(values, max_size=6), ones, st.randoms(use_true_random=False))
def test_order_never_changes_a_score(vals, o, rnd):
    shuffled = list(vals)
    rnd.shuffle(shuffled)
    assert score(vals, o) == score(shuffled, o)
    assert score(vals, o) == score(sorted(vals), o) == score(sorted(vals, reverse=True), o)


@given(st.lists(values, min_size=1, max_size=5), commons, ones, st.randoms(use_true_random=False))
def test_selections_do_not_depend_on_order(rolled, common, o, rnd):
    # The multiset of (dice values, points) of the selections is order-free.
    order = list(range(len(rolled)))
    rnd.shuffle(order)
    other = [rolled[i] for i in order]

    def sig(r):
        out = []
        for m, p in selections(r, common, o):
            vals = sorted(r[i] for i in range(len(r)) if m >> i & 1)
            out.append((tuple(vals), bool(m & COMMON_BIT), p))
        return sorted(out)

    assert sig(rolled) == sig(other)


@given(st.lists(values, min_size=1, max_size=5), commons, ones)
def test_every_die_of_a_selection_is_needed(rolled, common, o):
    for m, p in selections(rolled, common, o):
        assert p > 0 and m & 0x1F
        vals = [rolled[i] for i in range(len(rolled)) if m >> i & 1]
        if m & COMMON_BIT:
            vals.append(common)
        for i in range(len(vals)):
            rest = vals[:i] + vals[i + 1:]
            # without that die the set scores less, or not at all
            assert score(rest, o) < p, (rolled, common, m, vals[i])


@given(st.lists(values, min_size=1, max_size=5), commons, ones)
def test_selections_are_exactly_the_scoring_subsets(rolled, common, o):
    got = dict(selections(rolled, common, o))
    n = len(rolled)
    for m in range(1, 64):
        if m & 0x1F >= 1 << n or not m & 0x1F:
            continue
        if m & COMMON_BIT and common is None:
            continue
        vals = [rolled[i] for i in range(n) if m >> i & 1]
        if m & COMMON_BIT:
            vals.append(common)
        assert got.get(m, 0) == score(vals, o)
    assert is_farkle(rolled, common) == (not got)


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 4), st.sampled_from((F.RELAY, F.LOCKSTEP)), ones,
       st.integers(0, 2 ** 32 - 1), st.lists(st.integers(0, 255), min_size=1, max_size=400))
def test_serialization_round_trips(players, sched, o, seed, picks):
    g = Game(players, sched, o, Dice(Seeded(seed)))
    for k in picks:
        if g.phase == F.PH_OVER:
            break
        legal = g.legal()
        g.apply(legal[k % len(legal)])
        b = g.to_bytes()
        h = Game.from_bytes(b, Dice(Seeded(seed + 1)))
        assert h.to_bytes() == b
        for attr in ("players", "schedule", "ones", "round", "roller", "step", "phase",
                     "player", "common", "wild", "rolled", "nrolled", "totals",
                     "round_scores", "round_raw", "in_round", "winner"):
            assert getattr(h, attr) == getattr(g, attr), attr
        for s in range(players):
            assert (h.riser(s), h.running(s), h.status(s)) == (g.riser(s), g.running(s), g.status(s))
        assert h.legal() == g.legal()
        assert (h.usable(), h.to_roll()) == (g.usable(), g.to_roll())
        if g.phase == F.PH_TAKE:
            for d in g.legal():
                assert h.points(d & 0xFF) == g.points(d & 0xFF)


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=120))
def test_from_bytes_never_crashes(b):
    try:
        g = Game.from_bytes(b)
    except ValueError:
        return
    assert g.to_bytes() == b


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 2 ** 32 - 1), st.integers(0, 300), st.integers(0, 10 ** 6))
def test_corrupted_saves_are_rejected_or_exact(seed, at, flip):
    g = Game(3, seed % 2, 300, Dice(Seeded(seed)))
    src = Seeded(seed)
    for _ in range(at):
        if g.phase == F.PH_OVER:
            break
        legal = g.legal()
        g.apply(legal[src(1)[0] % len(legal)])
    b = bytearray(g.to_bytes())
    b[flip % len(b)] ^= 1 << (flip // len(b) % 8)
    try:
        h = Game.from_bytes(bytes(b), Dice(Seeded(seed)))
    except ValueError:
        return
    assert h.to_bytes() == bytes(b)
    # a state that loads is playable: every listed decision applies
    for _ in range(50):
        if h.phase == F.PH_OVER:
            break
        legal = h.legal()
        assert legal
        h.apply(legal[src(1)[0] % len(legal)])


def test_invariants_over_thousands_of_games():
    for seed in range(1000):
        play_checked(1 + seed % 4, seed // 4 % 2, 1000 if seed % 5 == 0 else 300,
                     seed + 7919, 50)


def test_relay_equals_lockstep_many_games():
    for seed in range(100, 400):
        players = 2 + seed % 3
        a = Game(players, F.RELAY)
        b = Game(players, F.LOCKSTEP)
        assert Policy(seed).drive(a) == Policy(seed).drive(b), seed
        assert a.winner == b.winner and a.totals == b.totals
