"""Frenzy rounds played on the checked rules (host_only.frenzy_checked) by a seeded policy,
every step compared with the engine."""
from checks import mix as _mix
from core import frenzy as F
from core.frenzy import Game
from core.dice import Dice, TWOX
from core.seeded import Seeded


class Policy:
    """Deterministic decisions and dice keyed on (game seed, round, seat, step)."""

    def __init__(self, seed):
        self.seed = seed
        self.rolls = 0
        self.fills = 0

    def drive(self, g, limit=100000):
        seed = self.seed
        rounds = []
        n = 0
        while g.phase != F.PH_OVER:
            n += 1
            if n > limit:
                raise AssertionError("game does not end")
            ph = g.phase
            key = _mix(seed, g.round, g.player, g.step)
            if ph == F.PH_COMMON:
                if g.round > 1:
                    rounds.append(_round_view(g))
                face = Dice(Seeded(_mix(seed, g.round, 99))).common()
                g.apply(F.COMMON_ROLL, (face,))
            elif ph == F.PH_ROLL:
                d = Dice(Seeded(key))
                g.apply(F.ROLL, [d.d6() for _ in range(g.to_roll())])
                self.rolls += 1
            elif ph == F.PH_WILD:
                g.apply(F.DECLARE | (key % 6 + 1))
            elif ph == F.PH_TAKE:
                legal = g.legal()
                g.apply(legal[(key >> 8) % len(legal)])
                if ("fill", g.notes[0][1]) in g.notes:
                    self.fills += 1
            else:
                # roll on more often with few dice on the riser
                g.apply(F.STOP if (key >> 16) % 10 < 2 + g.riser(g.player) else F.ROLL)
        rounds.append(_round_view(g))
        return rounds


def _round_view(g):
    out = [g.round, g.roller, g.common, g.wild, tuple(g.totals), tuple(g.round_scores),
           tuple(g.round_raw)]
    for s in range(g.players):
        out.append((g.status(s), g.running(s), g.riser(s)))
    return out


def play_checked(players, sched, ones, seed, roundtrip_every=1):
    """Plays one full game with random legal decisions, checking invariants after
    every decision; returns the finished game."""
    g = Game(players, sched, ones, Dice(Seeded(seed)))
    src = Seeded(seed ^ 0x5A5A)
    n = players
    prev_roller = -1
    prev_tie = 0
    steps = 0
    while g.phase != F.PH_OVER:
        legal = g.legal()
        assert legal, "no legal decision in phase %d" % g.phase
        d = legal[src(1)[0] % len(legal)]
        ph = g.phase
        seat = g.player
        before = list(g.totals)
        rnd = g.round
        if ph == F.PH_COMMON:
            assert seat == g.roller and g.in_round >> seat & 1
            if prev_roller >= 0 and not prev_tie:
                assert g.roller == (prev_roller + 1) % n
            prev_roller = g.roller
        if ph == F.PH_TAKE:
            p = g.points(d & 0xFF)
            assert p > 0 and p % 50 == 0 and d & 0x1F
            run0 = g.running(seat)
            riser0 = g.riser(seat)
        g.apply(d)
        steps += 1
        assert steps < 200000
        notes = g.notes
        if ph == F.PH_TAKE:
            assert notes[0] == ("take", seat, p)
            assert g.running(seat) == run0 + p or g.status(seat) == F.STOPPED
            assert g.riser(seat) == riser0 + bin(d & 0x1F).count("1")
        if ph == F.PH_WILD:
            assert seat == g.roller and 1 <= g.wild <= 6
        for s in range(n):
            assert 0 <= g.riser(s) <= 5
            r = g.running(s)
            assert r >= 0 and r % 50 == 0
            if g.status(s) == F.FARKLED:
                assert r == 0
        prev_tie = 0
        for note in notes:
            if note[0] == "farkle":
                assert g.status(note[1]) == F.FARKLED or g.round != rnd
            if note[0] == "tie":
                prev_tie = note[1]
            if note[0] == "round_end":
                assert note[1] == rnd
                for s in range(n):
                    assert g.status(s) != F.ROLLING
                    got = g.totals[s] - before[s]
                    assert got == g.round_scores[s]
                    raw = g.round_raw[s]
                    if g.status(s) == F.OUT:
                        assert raw == 0 and got == 0
                    else:
                        mult = 2 if g.common == TWOX else 1
                        assert raw == mult * g.running(s)
                        assert got == (raw if before[s] or raw >= 400 else 0)
        if prev_tie:
            top = max(g.totals)
            assert top >= 10000
            assert prev_tie == sum(1 << s for s in range(n) if g.totals[s] == top)
            assert g.in_round == prev_tie
        if roundtrip_every and steps % roundtrip_every == 0:
            b = g.to_bytes()
            h = Game.from_bytes(b)
            assert h.to_bytes() == b and h.legal() == g.legal()
            assert _round_view(h) == _round_view(g)
            assert (h.phase, h.player, h.step, h.usable(), h.to_roll()) == (
                g.phase, g.player, g.step, g.usable(), g.to_roll())
    w = g.winner
    assert 0 <= w < n and g.totals[w] >= 10000
    assert all(g.totals[s] < g.totals[w] for s in range(n) if s != w)
    assert ("win", w) in g.notes
    return g
