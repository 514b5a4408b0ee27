# portable: runs under MicroPython too
"""Farkle Frenzy rounds: the step resolution in both schedules, fills, forced stops,
Relay truncation, 2X, the 400 entry, tie rounds, solo, WILD, illegal decisions,
serialization, and Relay == Lockstep over seeded random games."""

from checks import raises as _raises
from core import frenzy as F
from core.frenzy import Game, RELAY, LOCKSTEP
from core.frenzy_score import COMMON_BIT
from core.dice import Dice, TWOX, WILD
from core.seeded import Seeded
from frenzy_round_rig import Policy, play_checked

BOTH = (RELAY, LOCKSTEP)


class Script:
    """Plays a round from per-seat scripts: script[seat][k] is step k+1 as
    (roll values, take mask or None for an expected Farkle, "c" or "s").
    The same script serves both schedules: decisions depend on (seat, step) only."""

    def __init__(self, g, script, wild=0):
        self.g = g
        self.script = script
        self.wild = wild
        self.notes = []
        self.rolls = {}

    def _entry(self):
        g = self.g
        return self.script[g.player][g.step - 1]

    def round(self, face):
        g = self.g
        r = g.round
        assert g.phase == F.PH_COMMON
        self.apply(F.COMMON_ROLL, (face,))
        while g.phase != F.PH_OVER and g.round == r:
            ph = g.phase
            if ph == F.PH_ROLL:
                vals = self._entry()[0]
                key = (g.player, g.step)
                self.rolls[key] = self.rolls.get(key, 0) + 1
                self.apply(F.ROLL, vals)
            elif ph == F.PH_WILD:
                assert g.player == g.roller and g.step == 1
                self.apply(F.DECLARE | self.wild)
            elif ph == F.PH_TAKE:
                mask = self._entry()[1]
                assert mask is not None, ("unexpected: not a Farkle", g.player, g.step)
                self.apply(F.TAKE | mask)
            elif ph == F.PH_DECIDE:
                self.apply(F.STOP if self._entry()[2] == "s" else F.ROLL)
            else:
                raise AssertionError("phase %d" % ph)
        return self

    def apply(self, d, values=None):
        self.g.apply(d, values)
        self.notes += self.g.notes
        # Serialization round-trips at every point.
        b = self.g.to_bytes()
        assert Game.from_bytes(b).to_bytes() == b

    def has(self, note):
        return note in self.notes


def _game(players, sched, ones=300):
    return Game(players, sched, ones, Dice(Seeded(1)))


def test_fill_stops_the_others():
    for sched in BOTH:
        g = _game(2, sched)
        s = Script(g, [
            [([1, 1, 1, 2, 3], 0x07, "c"), ([5, 5], 0x03, "s")],
            [([5, 2, 3, 4, 6], 0x01, "c"), ([1, 2, 3, 4], 0x01, "c"), ([2, 2, 3], None, "c")],
        ]).round(5)
        assert s.has(("fill", 0))
        assert s.has(("stop", 0, 400))
        assert s.has(("stopped_by", 1, 0, 150))
        assert g.status(0) == F.STOPPED and g.status(1) == F.STOPPED
        assert g.running(0) == 400 and g.running(1) == 150
        assert g.riser(0) == 5 and g.riser(1) == 2
        # seat 1 never rolled step 3
        assert (1, 3) not in s.rolls
        assert g.round_scores == [400, 0]  # 150 is below the 400 entry
        assert g.round_raw == [400, 150]
        assert g.totals == [400, 0]
        assert g.round == 2 and g.roller == 1 and g.phase == F.PH_COMMON and g.player == 1


def test_fills_in_the_same_step_all_continue():
    for sched in BOTH:
        g = _game(3, sched)
        s = Script(g, [
            [([1, 1, 1, 5, 5], 0x1F, "c"), ([1, 2, 3, 4, 6], 0x01, "s")],
            [([5, 5, 1, 1, 1], 0x1F, "c"), ([2, 2, 2, 3, 4], 0x07, "s")],
            [([5, 2, 3, 4, 6], 0x01, "c"), ([2, 3, 4, 6], None, "c")],
        ]).round(TWOX)
        assert s.has(("fill", 0)) and s.has(("fill", 1))
        assert s.has(("stopped_by", 2, 0, 50))
        assert g.running(0) == 500 and g.running(1) == 600 and g.running(2) == 50
        # 2X doubles every round score, before the entry rule
        assert g.round_raw == [1000, 1200, 100]
        assert g.round_scores == [1000, 1200, 0]
        assert (2, 2) not in s.rolls


def test_common_die_once_per_set_and_again_after_a_fill():
    for sched in BOTH:
        g = _game(1, sched)
        g.apply(F.COMMON_ROLL, (1,))
        assert g.usable() == 1 and g.to_roll() == 5
        g.apply(F.ROLL, [1, 1, 2, 3, 4])
        assert g.usable() == 1
        assert F.TAKE | 0x23 in g.legal()
        assert g.points(0x23) == 300 and g.points(0x20) == 0 and g.points(0x04) == 0
        assert _raises(g.apply, F.TAKE | 0x20)  # the Common Die alone
        g.apply(F.TAKE | 0x23)
        assert g.running(0) == 300 and g.riser(0) == 2
        assert g.usable() is None  # counted in this set
        g.apply(F.ROLL)
        assert g.to_roll() == 3
        g.apply(F.ROLL, [5, 1, 1])
        assert g.usable() is None
        assert all(not (d & COMMON_BIT) for d in g.legal())
        assert _raises(g.apply, F.TAKE | 0x21)
        g.apply(F.TAKE | 0x07)  # 50 + 100 + 100: riser full
        assert g.notes[-1] == ("fill", 0) and g.riser(0) == 5
        assert g.usable() == 1 and g.to_roll() == 5  # five dice again, the Common Die too
        g.apply(F.ROLL)
        g.apply(F.ROLL, [1, 2, 2, 3, 4])
        assert g.riser(0) == 0 and g.usable() == 1
        g.apply(F.TAKE | 0x21)
        assert g.running(0) == 750  # 300 + 250 + 200
        g.apply(F.STOP)
        assert g.totals == [750]


def test_farkle_loses_the_running_total():
    for sched in BOTH:
        g = _game(2, sched)
        s = Script(g, [
            [([1, 2, 3, 4, 6], 0x01, "c"), ([2, 3, 4, 6], None, "c")],
            [([5, 5, 5, 2, 3], 0x07, "s")],
        ]).round(5)
        assert s.has(("farkle", 0))
        assert g.status(0) == F.FARKLED and g.running(0) == 0
        assert g.round_scores == [0, 500]


def test_relay_truncation_and_rescue():
    # Seat 0 rolls on and Farkles at step 4; seat 2 fills in step 2, which stops
    # seat 0 there (keeping 200) and seat 1 too. Relay finds out retroactively.
    sc = [
        [([1, 2, 3, 4, 6], 0x01, "c"), ([1, 2, 3, 4], 0x01, "c"),
         ([5, 2, 3], 0x01, "c"), ([2, 3], None, "c")],
        [([5, 2, 3, 4, 6], 0x01, "c"), ([5, 2, 3, 4], 0x01, "c"), ([2, 3, 4], None, "c")],
        [([1, 1, 1, 2, 3], 0x07, "c"), ([1, 5], 0x03, "s")],
    ]
    for sched in BOTH:
        g = _game(3, sched)
        s = Script(g, sc).round(1)
        assert s.has(("fill", 2))
        assert s.has(("stopped_by", 0, 2, 200))
        assert s.has(("stopped_by", 1, 2, 100))
        assert [g.status(i) for i in range(3)] == [F.STOPPED, F.STOPPED, F.STOPPED]
        assert [g.running(i) for i in range(3)] == [200, 100, 450]
        assert g.round_raw == [200, 100, 450]
        if sched == RELAY:
            # seat 0 played its steps 3 and 4 before seat 2 cut them away
            assert s.has(("farkle", 0)) and (0, 4) in s.rolls
        else:
            assert not s.has(("farkle", 0)) and (0, 3) not in s.rolls


def test_fill_in_a_discarded_part_stops_nobody():
    # Seat 0 would fill in step 3, but seat 1 fills in step 1 and so cuts seat 0
    # at step 1: seat 0's fill is discarded and seat 1 rolls on past step 3.
    sc = [
        [([1, 2, 3, 4, 6], 0x01, "c"), ([1, 1, 2, 3], 0x03, "c"), ([5, 5], 0x03, "c"),
         ([2, 3, 4, 6, 6], None, "c")],
        [([1, 1, 1, 5, 5], 0x1F, "c"), ([1, 2, 3, 4, 6], 0x01, "c"),
         ([5, 2, 3, 4], 0x01, "c"), ([1, 2, 3], 0x01, "s")],
    ]
    for sched in BOTH:
        g = _game(2, sched)
        s = Script(g, sc).round(5)
        assert s.has(("stopped_by", 0, 1, 100))
        assert (1, 4) in s.rolls
        assert g.status(1) == F.STOPPED and g.running(1) == 650
        assert g.status(0) == F.STOPPED and g.running(0) == 100
        assert not any(n[0] == "stopped_by" and n[1] == 1 for n in s.notes)
        assert g.round_scores == [0, 650]


def test_wild_declared_by_the_roller_after_the_first_roll():
    for sched in BOTH:
        g = _game(2, sched)
        g.apply(F.COMMON_ROLL, (WILD,))
        assert g.common == WILD and g.wild == 0 and g.usable() is None
        g.apply(F.ROLL, [6, 6, 2, 3, 4])
        assert g.phase == F.PH_WILD and g.player == 0
        assert g.legal() == [F.DECLARE | v for v in range(1, 7)]
        assert _raises(g.apply, F.DECLARE | 7)
        assert _raises(g.apply, F.TAKE | 0x03)
        g.apply(F.DECLARE | 6)
        assert g.wild == 6 and g.notes[0] == ("wild", 0, 6)
        assert g.phase == F.PH_TAKE and g.usable() == 6
        assert g.legal() == [F.TAKE | 0x23]
        g.apply(F.TAKE | 0x23)
        assert g.running(0) == 600
        g.apply(F.STOP)
        # the other seat counts the same 6, and is never asked to declare
        assert g.player == 1 and g.phase == F.PH_ROLL
        g.apply(F.ROLL, [2, 6, 3, 6, 4])
        assert g.phase == F.PH_TAKE and g.usable() == 6
        assert g.legal() == [F.TAKE | 0x2A]


def test_wild_declaration_decides_a_farkle():
    for sched in BOTH:
        g = _game(2, sched)
        g.apply(F.COMMON_ROLL, (WILD,))
        g.apply(F.ROLL, [2, 3, 4, 6, 6])
        g.apply(F.DECLARE | 3)  # 3 + the WILD is only a pair: Farkle
        assert ("farkle", 0) in g.notes
        assert g.status(0) == F.FARKLED and g.player == 1 and g.phase == F.PH_ROLL
        assert g.step == 1


def test_entry_rule_over_rounds():
    for sched in BOTH:
        g = _game(2, sched)
        Script(g, [[([1, 1, 1, 5, 2], 0x0F, "s")], [([5, 2, 3, 4, 6], 0x01, "s")]]).round(5)
        assert g.round_raw == [350, 50] and g.totals == [0, 0]
        # round 2: roller seat 1; 2X lifts 200 to 400, enough to enter
        Script(g, [[([1, 2, 3, 4, 6], 0x01, "s")], [([1, 1, 2, 3, 4], 0x03, "s")]]).round(TWOX)
        assert g.round_raw == [200, 400] and g.totals == [0, 400]
        # round 3: once on the sheet any round score counts
        Script(g, [[([1, 1, 1, 1, 2], 0x0F, "s")], [([5, 2, 3, 4, 6], 0x01, "s")]]).round(5)
        assert g.round_scores == [1000, 50] and g.totals == [1000, 450]
        assert g.round == 4 and g.roller == 1


def test_ones_option_in_the_game():
    for sched in BOTH:
        g = _game(1, sched, 1000)
        g.apply(F.COMMON_ROLL, (5,))
        g.apply(F.ROLL, [1, 1, 1, 1, 2])
        assert g.points(0x0F) == 1100 and g.points(0x07) == 1000
        g.apply(F.TAKE | 0x0F)
        g.apply(F.STOP)
        assert g.totals == [1100]


def _set_totals(g, totals):
    for i in range(len(totals)):
        g.totals[i] = totals[i]


def test_tie_round_among_the_tied_with_the_roller_rule():
    for sched in BOTH:
        g = _game(3, sched)
        _set_totals(g, [9700, 8000, 9800])
        s = Script(g, [[([1, 1, 1, 2, 3], 0x07, "s")], [([5, 2, 3, 4, 6], 0x01, "s")],
                       [([1, 1, 2, 3, 4], 0x03, "s")]]).round(5)
        assert g.totals == [10000, 8050, 10000]
        assert s.has(("tie", 0b101)) and g.winner == -1
        assert g.in_round == 0b101
        # seat 1 would roll the Common Die next; it is not tied: seat 2 does
        assert g.round == 2 and g.roller == 2 and g.player == 2
        s = Script(g, [[([2, 3, 4, 6, 6], None, "c")], None,
                       [([2, 3, 4, 6, 2], None, "c")]]).round(1)
        assert g.status(1) == F.OUT
        assert g.totals == [10000, 8050, 10000] and s.has(("tie", 0b101))
        # the rotation goes on from seat 2: seat 0 next
        assert g.roller == 0
        s = Script(g, [[([5, 3, 4, 6, 2], 0x01, "s")], None,
                       [([1, 3, 4, 6, 2], 0x01, "s")]]).round(5)
        assert g.round_scores == [50, 0, 100]
        assert g.winner == 2 and g.phase == F.PH_OVER and s.has(("win", 2))
        assert g.legal() == []
        assert _raises(g.apply, F.COMMON_ROLL)


def test_the_highest_total_wins_without_a_tie():
    for sched in BOTH:
        g = _game(2, sched)
        _set_totals(g, [9900, 9950])
        s = Script(g, [[([1, 1, 1, 5, 2], 0x0F, "s")], [([1, 2, 3, 4, 6], 0x01, "s")]]).round(5)
        assert g.totals == [10250, 10050] and g.winner == 0 and s.has(("win", 0))


def test_solo_rounds_until_10000():
    for sched in BOTH:
        g = _game(1, sched)
        for i in range(5):
            assert g.roller == 0 and g.round == i + 1
            Script(g, [[([1, 1, 1, 1, 1], 0x1F, "s")]]).round(5)
        assert g.totals == [10000] and g.winner == 0 and g.round == 5


def test_illegal_decisions_raise():
    g = _game(2, LOCKSTEP)
    assert g.legal() == [F.COMMON_ROLL]
    assert _raises(g.apply, F.ROLL)
    assert _raises(g.apply, F.COMMON_ROLL, (2,))
    assert _raises(g.apply, F.COMMON_ROLL, (1, 5))
    assert _raises(g.apply, "ROLL")
    assert _raises(g.apply, -1)
    g.apply(F.COMMON_ROLL, (5,))
    assert _raises(g.apply, F.STOP)
    assert _raises(g.apply, F.ROLL, [1, 2, 3])
    assert _raises(g.apply, F.ROLL, [1, 2, 3, 4, 7])
    g.apply(F.ROLL, [1, 2, 3, 4, 6])
    assert _raises(g.apply, F.TAKE | 0x02)  # a 2 does not score
    assert _raises(g.apply, F.TAKE | 0x03)  # 1 + 2 does not score completely
    assert _raises(g.apply, F.TAKE | 0x20)  # the Common Die alone
    assert _raises(g.apply, F.TAKE | 0x40)
    assert _raises(g.apply, F.ROLL)
    assert _raises(g.apply, F.STOP)
    g.apply(F.TAKE | 0x21)
    assert g.running(0) == 150
    assert _raises(g.apply, F.TAKE | 0x01)
    assert _raises(g.apply, F.STOP, [1])
    g.apply(F.ROLL)
    # Lockstep: seat 1 rolls step 1 before seat 0 rolls again
    assert g.player == 1 and g.step == 1 and g.phase == F.PH_ROLL


def test_bad_construction_raises():
    assert _raises(Game, 0)
    assert _raises(Game, 5)
    assert _raises(Game, 2, 2)
    assert _raises(Game, 2, RELAY, 500)
    g = Game(2)
    g.apply(F.COMMON_ROLL, (5,))
    assert _raises(g.apply, F.ROLL)  # no dice source: values needed


def test_from_bytes_rejects_malformed():
    g = _game(3, RELAY)
    g.apply(F.COMMON_ROLL, (1,))
    g.apply(F.ROLL, [1, 1, 2, 3, 4])
    b = g.to_bytes()
    h = Game.from_bytes(b)
    assert h.to_bytes() == b and h.phase == F.PH_TAKE and h.legal() == g.legal()
    assert list(h.rolled) == [1, 1, 2, 3, 4] and h.usable() == 1
    assert _raises(Game.from_bytes, b[:-1])
    assert _raises(Game.from_bytes, b + b"\0")
    assert _raises(Game.from_bytes, b"")
    assert _raises(Game.from_bytes, "text")
    bad = bytearray(b)
    bad[0] = 99
    assert _raises(Game.from_bytes, bytes(bad))
    # every single-byte corruption is either rejected with ValueError or loads
    # into a state that saves back to the same bytes
    for i in range(len(b)):
        for x in (1, 0x80, 0xFF):
            bad = bytearray(b)
            bad[i] ^= x
            try:
                h = Game.from_bytes(bytes(bad))
            except ValueError:
                continue
            assert h.to_bytes() == bytes(bad)


# ---- Relay == Lockstep --------------------------------------------------------


def test_relay_equals_lockstep_on_seeded_games():
    cut = fills = 0
    for seed in range(60):
        players = 2 + seed % 3
        a = Game(players, RELAY)
        b = Game(players, LOCKSTEP)
        pa = Policy(seed)
        pb = Policy(seed)
        ra = pa.drive(a)
        rb = pb.drive(b)
        assert ra == rb, seed
        assert a.winner == b.winner and a.totals == b.totals and a.round == b.round
        assert pa.rolls >= pb.rolls
        if pa.rolls > pb.rolls:
            cut += 1  # Relay played steps that a later fill cut away
        fills += pb.fills
    # the comparison covered fills and retroactive cuts, not only quiet rounds
    assert fills > 100 and cut > 10, (fills, cut)


# ---- invariants over seeded full games ---------------------------------------


def test_invariants_over_seeded_games():
    for seed in range(24):
        play_checked(1 + seed % 4, seed // 4 % 2, 1000 if seed % 3 == 0 else 300, seed, 3)


# ---- the pure resolution over hand-made records ------------------------------

def _rec(*steps):
    # steps: (outcome, filled, riser, running) -> 4 bytes each
    out = bytearray()
    for o, filled, riser, run in steps:
        code = {"c": 1, "s": 2, "f": 3, "p": 0}[o] | (4 if filled else 0) | riser << 3
        u = run // 50
        out += bytes((code, u >> 16, u >> 8 & 0xFF, u & 0xFF))
    return out


def test_resolve_cuts_at_the_first_fill():
    st = bytearray(4)
    end = [0] * 4
    by = bytearray(4)
    recs = [
        _rec(("c", 0, 1, 100), ("c", 0, 2, 200), ("c", 1, 5, 400), ("s", 0, 1, 450)),
        _rec(("c", 1, 5, 500), ("c", 0, 1, 600), ("c", 0, 2, 700), ("s", 0, 3, 800)),
        _rec(("c", 1, 5, 350), ("f", 0, 0, 0)),
        _rec(("c", 0, 1, 50)),
    ]
    F.resolve(recs, 0b0111, 0, st, end, by)
    # seats 1 and 2 fill in step 1: seat 0 stops there; its fill in step 3 is cut away
    assert list(st) == [F.STOPPED, F.STOPPED, F.FARKLED, F.OUT]
    assert end[:3] == [1, 4, 2] and list(by) == [2, 0, 0, 0]
    F.resolve(recs, 0b1001, 0, st, end, by)
    # without seats 1 and 2, seat 0's own fill in step 3 stops seat 3 (whose record ends
    # at step 1: it has not played step 2 yet, so it is still rolling)
    assert list(st) == [F.STOPPED, F.OUT, F.OUT, F.ROLLING] and end == [4, 0, 0, 1]
    recs[3] = _rec(("c", 0, 1, 50), ("c", 0, 2, 100), ("c", 0, 3, 150), ("c", 0, 4, 200))
    F.resolve(recs, 0b1001, 0, st, end, by)
    assert list(st) == [F.STOPPED, F.OUT, F.OUT, F.STOPPED] and end == [4, 0, 0, 3]
    assert by[3] == 1
    # a step still being played (pending) neither stops nor is stopped
    recs[3] = _rec(("c", 0, 1, 50), ("c", 0, 2, 100), ("p", 0, 3, 150))
    F.resolve(recs, 0b1001, 0, st, end, by)
    assert st[3] == F.ROLLING and end[3] == 3 and by[3] == 0


# ---- the self-play policy ----------------------------------------------------

def test_greedy_policy_choices():
    import selfplay_frenzy as S
    # most points
    assert S.best_selection([1, 1, 2, 2, 2], 5, 1, 0) == (0x3F, 2500)
    assert S.best_selection([5, 3, 4, 6, 2], 5, None, 0) == (0x01, 50)
    assert S.best_selection([2, 3, 4, 6, 6], 5, 1, 0) is None
    g = _game(2, RELAY)
    g.apply(F.COMMON_ROLL, (WILD,))
    g.apply(F.ROLL, [2, 2, 3, 3, 4])
    assert S._greedy_wild(g) == 4  # three pairs: 1500
    pick = S._Pick(1)
    assert S._decide(g, "greedy", 300, pick) == F.DECLARE | 4
    g.apply(F.DECLARE | 4)
    assert S._decide(g, "greedy", 300, pick) == F.TAKE | 0x3F
    g.apply(F.TAKE | 0x3F)  # fills the riser with 1500: stop at >= 300
    assert S._decide(g, "greedy", 300, pick) == F.STOP
    assert S._decide(g, "greedy", 2000, pick) == F.ROLL  # rolls on after a fill too


def test_selfplay_report_shape():
    import selfplay_frenzy as S
    r = S.run({"game": "frenzy", "players": 3, "games": 4, "seed": 2, "policy": "greedy:300",
               "schedule": "lockstep", "ones": 1000, "solo_rounds": None})
    assert r["games"] == 4 and sum(r["wins"]) == 4 and len(r["win_share"]) == 3
    assert sorted(r["farkle_rate"]) == ["1", "2", "3", "4", "5"]
    assert sorted(r["mean_round_score"]) == ["1", "2X", "5", "WILD"]
    assert r["rounds_per_game"] == r["rounds"] / 4
    s = S.run({"players": 1, "games": 0, "seed": 3, "policy": "random", "schedule": "relay",
               "ones": 300, "solo_rounds": 50})
    assert s["rounds"] == 50 and sum(s["rounds_per_face"].values()) == 50
