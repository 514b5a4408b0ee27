# portable: runs under MicroPython too
"""core.shakeup: classification, the 2-Pawn Rule, turn flow, serialization, full games."""
from checks import raises as _raises
from core import shakeup as S
from core.dice import Dice
from core.seeded import Seeded

ROLL, STOP, UP, PEN, SKIP, AGAIN = S.ROLL, S.STOP, S.UP, S.PEN, S.SKIP, S.AGAIN


# ---- classify ------------------------------------------------------------------

def _oracle(d):
    """Independent classification: multiplicities and set containment."""
    s = set(d)
    mult = sorted([d.count(v) for v in s])
    if mult == [4] or s in ({1, 2, 3, 4}, {2, 3, 4, 5}, {3, 4, 5, 6}):
        return S.BIG
    if 3 in mult or mult == [2, 2]:
        return S.MOVE
    for a in (1, 2, 3, 4):
        if {a, a + 1, a + 2}.issubset(s):
            return S.MOVE
    if 2 in mult:
        return S.PAIR
    return S.NONE


def test_classify_all_1296_rolls():
    n = 0
    seen = set()
    for a in range(1, 7):
        for b in range(1, 7):
            for c in range(1, 7):
                for d in range(1, 7):
                    roll = [a, b, c, d]
                    got = S.classify(roll)
                    assert got == _oracle(roll), roll
                    assert S.classify(bytes(roll)) == got
                    seen.add(got)
                    n += 1
    assert n == 1296 and seen == {S.BIG, S.MOVE, S.PAIR, S.NONE}


def test_classify_examples_from_the_rules():
    assert S.classify([4, 4, 4, 4]) == S.BIG
    assert S.classify([6, 4, 5, 3]) == S.BIG
    assert S.classify([5, 6, 1, 2]) == S.NONE  # runs never wrap
    assert S.classify([2, 3, 4, 4]) == S.MOVE
    assert S.classify([1, 2, 3, 6]) == S.MOVE
    assert S.classify([2, 5, 2, 5]) == S.MOVE  # two pair
    assert S.classify([3, 3, 3, 1]) == S.MOVE
    assert S.classify([1, 1, 2, 4]) == S.PAIR
    assert S.classify([1, 2, 4, 5]) == S.NONE


def test_classify_rejects_bad_dice():
    assert _raises(S.classify, [1, 2, 3])
    assert _raises(S.classify, [1, 2, 3, 7])
    assert _raises(S.classify, [0, 2, 3, 4])


# ---- movable and the 2-Pawn Rule -------------------------------------------------

def _configs():
    out = []
    for a in range(1, 5):
        for b in range(a, 5):
            for c in range(b, 5):
                for d in range(c, 5):
                    for e in range(d, 5):
                        out.append((a, b, c, d, e))
    return out


def _rule(pawns, spots):
    """Independent 2-Pawn Rule (plus pyramid spots) written from the rules text."""
    on = {1: 0, 2: 0, 3: 0, 4: 0}
    for p in pawns:
        on[p] += 1
    not_safe = [p for p in pawns if p != 4]
    out = []
    for lv in (1, 2, 3):
        if not on[lv]:
            continue
        ok = on[lv] >= 2 or (on[lv] == 1 and lv == min(not_safe))
        if spots and ((lv + 1 == 2 and on[2] >= 4) or (lv + 1 == 3 and on[3] >= 3)):
            ok = False
        if ok:
            out.append(lv)
    return out


def test_movable_every_configuration():
    cfgs = _configs()
    assert len(cfgs) == 56
    for cfg in cfgs:
        for spots in (False, True):
            want = _rule(cfg, spots)
            assert S.movable(list(cfg), spots) == want, (cfg, spots)
            assert S.movable(tuple(reversed(cfg)), spots) == want
            # While any pawn is not SAFE, some pawn can move.
            if min(cfg) < 4:
                assert want, (cfg, spots)
            else:
                assert want == []


def test_movable_examples():
    assert S.movable([1, 2, 2, 4, 4]) == [1, 2]  # lone pawn on the lowest level 1
    assert S.movable([2, 3, 3, 4, 4]) == [2, 3]  # lowest occupied is level 2
    assert S.movable([1, 1, 3, 4, 4]) == [1]  # lone pawn on 3 is not the lowest
    assert S.movable([1, 2, 2, 2, 2]) == [1, 2]
    assert S.movable([1, 2, 2, 2, 2], True) == [2]  # level 2 holds at most 4
    assert S.movable([2, 2, 3, 3, 3], True) == [3]  # level 3 holds at most 3
    assert S.movable([3, 3, 3, 4, 4], True) == [3]  # the Safe Zone is never full


def test_movable_rejects_bad_input():
    assert _raises(S.movable, [1, 1, 1, 1])
    assert _raises(S.movable, [1, 1, 1, 1, 5])
    assert _raises(S.movable, [0, 1, 1, 1, 1])


# ---- helpers for turn flow -------------------------------------------------------

def _set(g, seat, c1, c2, c3, safe):
    # Test-only: place pawns directly (counts at seat * 4 + level - 1).
    assert c1 + c2 + c3 + safe == 5
    g._pawns[seat * 4:seat * 4 + 4] = bytes((c1, c2, c3, safe))


def _counts(g, seat):
    return [g.count(seat, lv) for lv in (1, 2, 3, 4)]


def _started(players=2, spots=False):
    # Seat 0 wins the roll-off.
    g = S.Game(players, spots)
    g.apply(ROLL, [6])
    for _ in range(players - 1):
        g.apply(ROLL, [1])
    assert g.phase == S.SHAKE and g.player == 0 and g.starter == 0
    return g


def _kinds(notes):
    return [n[0] for n in notes]


# ---- roll-off ------------------------------------------------------------------

def test_rolloff_single_highest_starts():
    g = S.Game(3)
    assert g.phase == S.ROLLOFF and g.legal() == [ROLL] and g.starter == -1
    g.apply(ROLL, [2])
    assert g.player == 1 and g.notes == [("rolloff", 0, 2)]
    g.apply(ROLL, [5])
    g.apply(ROLL, [4])
    assert g.starter == 1 and g.player == 1 and g.phase == S.SHAKE
    assert ("starts", 1) in g.notes and ("turn", 1) in g.notes
    assert list(g.rolloff) == [2, 5, 4]


def test_rolloff_ties_reroll_only_among_the_tied():
    g = S.Game(4)
    for v in (3, 6, 2, 6):
        g.apply(ROLL, [v])
    assert g.phase == S.ROLLOFF and ("tie", 0b1010) in g.notes
    assert list(g.rolloff) == [0, 6, 0, 6]
    assert g.player == 1
    g.apply(ROLL, [4])
    assert g.player == 3  # seats 0 and 2 are out of it
    g.apply(ROLL, [4])  # tied again
    assert g.phase == S.ROLLOFF and g.player == 1
    g.apply(ROLL, [1])
    assert g.player == 3
    g.apply(ROLL, [2])
    assert g.starter == 3 and g.player == 3 and g.phase == S.SHAKE


# ---- a turn ----------------------------------------------------------------------

def test_set_aside_dice_stay_and_third_shake_stops():
    g = _started()
    g.apply(ROLL, [1, 2, 4, 6])
    assert g.phase == S.CHOOSE and g.shakes == 1 and g.held == 0
    assert STOP in g.legal() and len(g.legal()) == 16  # masks 0..14 and STOP
    g.apply(ROLL | 0b0011, [3, 3])  # keep 1 and 2, shake the other two
    assert list(g.dice) == [1, 2, 3, 3] and g.held == 0b0011 and g.shakes == 2
    # Dice once set aside stay set aside.
    assert _raises(g.apply, ROLL | 0b0001)
    assert _raises(g.apply, ROLL | 0b0100)
    assert all(d & 0b0011 == 0b0011 for d in g.legal() if d != STOP)
    g.apply(ROLL | 0b0011, [5, 5])
    # The third shake ends the turn: 1,2,5,5 is a PAIR, play passes.
    assert list(g.dice) == [1, 2, 5, 5]
    assert ("result", 0, S.PAIR, 3) in g.notes
    assert g.result == S.PAIR and g.phase == S.SHAKE and g.player == 1
    assert _counts(g, 0) == [5, 0, 0, 0]


def test_setting_aside_all_four_is_stop_not_roll():
    g = _started()
    g.apply(ROLL, [1, 2, 4, 6])
    assert _raises(g.apply, ROLL | 15)
    g.apply(ROLL | 0b0111, [6])
    assert g.legal() == [ROLL | 0b0111, STOP]
    assert _raises(g.apply, ROLL | 15)
    g.apply(STOP)
    assert g.notes[0] == ("result", 0, S.NONE, 2)


def test_move_result_moves_then_passes():
    g = _started()
    g.apply(ROLL, [2, 2, 2, 5])
    g.apply(STOP)
    assert g.result == S.MOVE and g.phase == S.MOVING and g.player == 0
    assert g.legal() == [UP | 1]
    assert _raises(g.apply, STOP)  # the move is compulsory
    assert _raises(g.apply, UP | 2)
    g.apply(UP | 1)
    assert _counts(g, 0) == [4, 1, 0, 0]
    assert ("up", 0, 1) in g.notes and g.player == 1 and g.phase == S.SHAKE


def test_move_chooses_the_level():
    g = _started()
    _set(g, 0, 2, 2, 1, 0)
    g.apply(ROLL, [1, 2, 3, 3])
    g.apply(STOP)
    assert g.legal() == [UP | 1, UP | 2]  # lone pawn on 3 is not the lowest
    g.apply(UP | 2)
    assert _counts(g, 0) == [2, 1, 2, 0]


def test_spots_option_blocks_a_full_level():
    g = _started(spots=True)
    _set(g, 0, 1, 4, 0, 0)
    g.apply(ROLL, [3, 3, 3, 1])
    g.apply(STOP)
    assert g.legal() == [UP | 2]
    assert _raises(g.apply, UP | 1)
    h = _started(spots=False)
    _set(h, 0, 1, 4, 0, 0)
    h.apply(ROLL, [3, 3, 3, 1])
    h.apply(STOP)
    assert h.legal() == [UP | 1, UP | 2]


def test_pair_passes_without_a_move():
    g = _started(3)
    g.apply(ROLL, [6, 6, 1, 3])
    g.apply(STOP)
    assert g.player == 1 and g.phase == S.SHAKE and _counts(g, 0) == [5, 0, 0, 0]


def test_none_penalty_hits_the_uppermost_pawn():
    g = _started()
    _set(g, 0, 1, 2, 2, 0)
    g.apply(ROLL, [1, 2, 5, 6])
    g.apply(STOP)
    assert g.result == S.NONE and ("penalty", 0, 3) in g.notes
    assert _counts(g, 0) == [2, 2, 1, 0] and g.player == 1
    # With nothing above level 1 except SAFE pawns, nothing happens.
    g = _started()
    _set(g, 0, 2, 0, 0, 3)
    g.apply(ROLL, [1, 2, 5, 6])
    g.apply(STOP)
    assert _counts(g, 0) == [2, 0, 0, 3] and "penalty" not in _kinds(g.notes)
    # Only level 2 occupied above 1.
    g = _started()
    _set(g, 0, 0, 1, 0, 4)
    g.apply(ROLL, [1, 2, 5, 6])
    g.apply(STOP)
    assert _counts(g, 0) == [1, 0, 0, 4]


def test_special_advantage_move_penalty_and_another_turn():
    g = _started(3)
    _set(g, 1, 3, 1, 0, 1)
    _set(g, 2, 2, 1, 1, 1)
    g.apply(ROLL, [3, 4, 5, 2])
    g.apply(STOP)
    assert ("result", 0, S.BIG, 1) in g.notes and g.phase == S.MOVING
    g.apply(UP | 1)
    assert g.phase == S.PENALTY and g.player == 0
    lg = g.legal()
    assert sorted(lg) == sorted([PEN | 1 << 2 | 2, PEN | 2 << 2 | 2, PEN | 2 << 2 | 3, SKIP])
    assert AGAIN not in lg
    assert _raises(g.apply, PEN | 1 << 2 | 3)  # seat 1 has nobody on level 3
    assert _raises(g.apply, PEN | 0 << 2 | 2)  # not yourself
    assert _raises(g.apply, AGAIN)
    g.apply(PEN | 2 << 2 | 3)
    assert _counts(g, 2) == [3, 1, 0, 1] and ("penalty", 2, 3) in g.notes
    assert g.phase == S.SHAKE and g.player == 0 and ("again", 0) in g.notes


def test_special_advantage_penalty_can_be_declined():
    g = _started()
    _set(g, 1, 4, 1, 0, 0)
    g.apply(ROLL, [6, 6, 6, 6])
    g.apply(STOP)
    g.apply(UP | 1)
    g.apply(SKIP)
    assert _counts(g, 1) == [4, 1, 0, 0]
    assert g.phase == S.SHAKE and g.player == 0


def test_special_advantage_without_targets_goes_straight_on():
    g = _started()
    _set(g, 1, 4, 0, 0, 1)  # level 1 and SAFE only: nothing to penalize
    g.apply(ROLL, [1, 2, 3, 4])
    g.apply(STOP)
    g.apply(UP | 1)
    assert g.phase == S.SHAKE and g.player == 0 and ("again", 0) in g.notes


def test_big_on_shake_two_another_turn():
    g = _started()
    _set(g, 1, 4, 1, 0, 0)
    g.apply(ROLL, [5, 5, 5, 1])
    g.apply(ROLL | 0b0111, [5])
    assert g.phase == S.CHOOSE
    g.apply(STOP)
    assert ("result", 0, S.BIG, 2) in g.notes
    g.apply(UP | 1)
    assert g.phase == S.PENALTY and sorted(g.legal()) == sorted([PEN | 1 << 2 | 2, AGAIN])
    assert _raises(g.apply, SKIP)
    g.apply(AGAIN)
    assert g.phase == S.SHAKE and g.player == 0 and _counts(g, 1) == [4, 1, 0, 0]


def test_big_on_shake_two_penalize_and_pass():
    g = _started()
    _set(g, 1, 4, 1, 0, 0)
    g.apply(ROLL, [5, 5, 5, 1])
    g.apply(ROLL | 0b0111, [5])
    g.apply(STOP)
    g.apply(UP | 1)
    g.apply(PEN | 1 << 2 | 2)
    assert _counts(g, 1) == [5, 0, 0, 0]
    assert g.phase == S.SHAKE and g.player == 1


def test_big_on_shake_three_without_targets_takes_the_turn():
    g = _started()
    _set(g, 1, 3, 0, 0, 2)
    g.apply(ROLL, [1, 2, 6, 6])
    g.apply(ROLL | 0b0011, [3, 5])
    g.apply(ROLL | 0b0111, [4])
    assert ("result", 0, S.BIG, 3) in g.notes
    g.apply(UP | 1)
    assert g.phase == S.SHAKE and g.player == 0 and ("again", 0) in g.notes


def test_safe_pawns_are_never_penalized():
    g = _started()
    _set(g, 1, 2, 0, 0, 3)
    g.apply(ROLL, [1, 1, 1, 1])
    g.apply(STOP)
    g.apply(UP | 1)
    assert g.phase == S.SHAKE  # nothing to offer
    assert _counts(g, 1) == [2, 0, 0, 3]
    # Directly: a PEN at a SAFE pawn (level 4 does not fit; level 0/1 is not allowed).
    g = _started()
    _set(g, 1, 1, 1, 0, 3)
    g.apply(ROLL, [1, 1, 1, 1])
    g.apply(STOP)
    g.apply(UP | 1)
    assert g.phase == S.PENALTY
    for lv in (0, 1):
        assert _raises(g.apply, PEN | 1 << 2 | lv)
    assert PEN | 1 << 2 | 2 in g.legal()


def test_immediate_win_mid_effect():
    g = _started()
    _set(g, 0, 0, 0, 1, 4)
    _set(g, 1, 3, 2, 0, 0)
    g.apply(ROLL, [2, 2, 2, 2])
    g.apply(STOP)  # Special Advantage, but the win ends the game first
    g.apply(UP | 3)
    assert g.phase == S.OVER and g.winner == 0 and g.legal() == []
    assert g.notes[-1] == ("win", 0) and ("safe", 0) in g.notes
    assert _counts(g, 1) == [3, 2, 0, 0]
    assert _raises(g.apply, ROLL)
    assert _raises(g.apply, SKIP)


def test_forced_values_are_checked():
    g = _started()
    assert _raises(g.apply, ROLL, [1, 2, 3])
    assert _raises(g.apply, ROLL, [1, 2, 3, 7])
    assert _raises(g.apply, ROLL, [0, 2, 3, 4])
    assert _raises(g.apply, ROLL)  # no dice source, no values
    g.apply(ROLL, [1, 2, 4, 6])
    assert _raises(g.apply, ROLL | 1, [1, 2, 3, 4])  # 3 dice are shaken
    assert _raises(g.apply, STOP, [1])
    assert list(g.dice) == [1, 2, 4, 6] and g.shakes == 1


def test_illegal_decisions_raise():
    g = S.Game(2)
    for d in (STOP, UP | 1, PEN | 6, SKIP, AGAIN, ROLL | 3, 0, 0x1000, -1, "ROLL", None):
        assert _raises(g.apply, d), d
    g = _started()
    for d in (STOP, UP | 1, SKIP, AGAIN, ROLL | 1):
        assert _raises(g.apply, d), d
    assert _raises(S.Game, 1)
    assert _raises(S.Game, 5)


def test_dice_source_is_used():
    g = S.Game(2, dice=Dice(Seeded(11)))
    while g.phase == S.ROLLOFF:
        g.apply(ROLL)
    g.apply(ROLL)
    assert all(1 <= v <= 6 for v in g.dice) and g.phase == S.CHOOSE


# ---- serialization ---------------------------------------------------------------

def _same(a, b):
    assert a.players == b.players and a.spots == b.spots
    assert a.phase == b.phase and a.player == b.player
    assert bytes(a.dice) == bytes(b.dice) and a.held == b.held and a.shakes == b.shakes
    assert a.result == b.result and a.winner == b.winner and a.starter == b.starter
    assert bytes(a.rolloff) == bytes(b.rolloff)
    for s in range(a.players):
        for lv in (1, 2, 3, 4):
            assert a.count(s, lv) == b.count(s, lv)
    assert a.legal() == b.legal()
    assert a.to_bytes() == b.to_bytes()


def _pick(src, n):
    # Uniform index in range(n) by rejection, from a seeded byte source.
    lim = 256 - 256 % n
    while True:
        b = src(1)[0]
        if b < lim:
            return b % n


def test_to_bytes_round_trip_through_games():
    for seed in range(1, 13):
        g = S.Game(2 + seed % 3, spots=seed % 2 == 1, dice=Dice(Seeded(seed)))
        pol = Seeded(seed + 500)
        steps = 0
        while True:
            b = g.to_bytes()
            assert isinstance(b, bytes) and len(b) <= 48 and b[0] >= 1
            h = S.Game.from_bytes(b, g._dice)
            _same(g, h)
            if g.phase == S.OVER:
                break
            lg = g.legal()
            d = lg[_pick(pol, len(lg))]
            # Continue on the restored copy half of the time: it must play on identically.
            if steps % 2:
                g = h
            g.apply(d)
            steps += 1
            assert steps < 20000, seed


def test_from_bytes_rejects_malformed():
    g = _started(3)
    good = g.to_bytes()
    assert _raises(S.Game.from_bytes, good[:-1])
    assert _raises(S.Game.from_bytes, good + b"\x00")
    assert _raises(S.Game.from_bytes, b"")
    assert _raises(S.Game.from_bytes, "not bytes")
    assert _raises(S.Game.from_bytes, bytes((99,)) + good[1:])
    bad = bytearray(good)
    bad[1] = 7  # players
    assert _raises(S.Game.from_bytes, bytes(bad))
    bad = bytearray(good)
    bad[-1] = 9  # pawn counts no longer sum to 5
    assert _raises(S.Game.from_bytes, bytes(bad))
    bad = bytearray(good)
    bad[3] = 9  # phase
    assert _raises(S.Game.from_bytes, bytes(bad))


def test_from_bytes_single_byte_mutations():
    # Every mutation either raises ValueError or gives a playable game.
    g = _started(4)
    g.apply(ROLL, [1, 2, 4, 6])
    good = g.to_bytes()
    for i in range(len(good)):
        for v in (0, 1, 2, 3, 5, 15, 255):
            bad = bytearray(good)
            bad[i] = v
            try:
                h = S.Game.from_bytes(bytes(bad))
            except ValueError:
                continue
            assert h.to_bytes() == bytes(bad)
            assert h.phase == S.OVER or h.legal()


# ---- full games ------------------------------------------------------------------

def test_invariants_over_random_games():
    wins = [0, 0, 0, 0]
    for seed in range(300):
        players = 2 + seed % 3
        g = S.Game(players, spots=seed % 4 >= 2, dice=Dice(Seeded(seed)))
        pol = Seeded(seed ^ 0x5A5A)
        safe = [0] * players
        n = 0
        while g.phase != S.OVER:
            lg = g.legal()
            assert lg, (seed, g.phase)
            g.apply(lg[_pick(pol, len(lg))])
            n += 1
            assert n < 20000, seed
            for s in range(players):
                assert sum(g.count(s, lv) for lv in (1, 2, 3, 4)) == 5
                now = g.count(s, 4)
                assert now >= safe[s]  # SAFE pawns never go back
                safe[s] = now
                if g.spots:
                    assert g.count(s, 2) <= 4 and g.count(s, 3) <= 3
                if s != g.winner:
                    assert now < 5
        assert g.count(g.winner, 4) == 5 and g.notes[-1] == ("win", g.winner)
        wins[g.winner] += 1
    assert sum(wins) == 300 and min(wins[:2]) > 0
