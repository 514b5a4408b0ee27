# portable: runs under MicroPython too
"""core.frenzy_live: the live round. Played in Lockstep's order with an announcement
after every step it ends as core.frenzy's Lockstep does (the engine stays the one
source of truth); a fill stops the others at its announcement, fills of one batch all
go on; illegal decisions change nothing; saves load back to the same bytes."""
from core.dice import TWOX, WILD
from core.frenzy import DECLARE, FARKLED, LOCKSTEP, PH_COMMON, PH_DECIDE, \
    PH_OVER, PH_ROLL, RELAY, ROLL, ROLLING, STOP, STOPPED, TAKE, Game
from core.frenzy_live import L_DECIDE, L_TAKE, L_WILD, Live
from core.seeded import Seeded


def _live(n=2, face=1):
    lv = Live(Game(n, RELAY))
    lv.start(face)
    return lv


def test_a_fill_stops_the_others_at_its_announcement():
    lv = _live(3, 5)
    lv.apply(0, ROLL, (1, 1, 1, 2, 3))
    lv.apply(1, ROLL, (5, 2, 3, 4, 6))
    lv.apply(1, TAKE | 0x01)  # 50
    lv.apply(1, ROLL)  # roll on
    lv.apply(1, ROLL, (1, 3, 4, 6))  # rolled, not set aside yet
    lv.apply(2, ROLL, (1, 5, 3, 4, 6))
    lv.apply(2, TAKE | 0x01)
    lv.apply(0, TAKE | 0x07)  # three 1s: 300
    lv.apply(0, ROLL)
    lv.apply(0, ROLL, (5, 5))
    lv.apply(0, TAKE | 0x03)  # fills: 400
    assert lv.st[1] == ROLLING and lv.st[2] == ROLLING  # not yet announced
    notes = lv.announce()
    assert ("stopped_by", 1, 0, 50) in notes and ("stopped_by", 2, 0, 100) in notes
    assert lv.st[1] == STOPPED and lv.by[1] == 1 and lv.run[1] == 50
    assert lv.st[0] == ROLLING and lv.ph[0] == L_DECIDE
    lv.apply(0, ROLL)
    assert lv.to_roll(0) == 5 and lv.usable(0) == 5  # five dice again, the Common Die too
    lv.apply(0, ROLL, (2, 3, 4, 6, 6))  # only the Common Die would score: a Farkle
    assert lv.st[0] == FARKLED
    g = lv.g
    assert g.round == 2 and g.round_raw == [0, 50, 100] and g.totals == [0, 0, 0]


def test_fills_in_one_batch_all_go_on():
    lv = _live(3, TWOX)
    for s in range(3):
        lv.apply(s, ROLL, (1, 1, 1, 5, 5))
    lv.apply(0, TAKE | 0x1F)
    lv.apply(1, TAKE | 0x1F)
    lv.apply(2, TAKE | 0x07)
    lv.announce()
    assert [lv.st[s] for s in range(3)] == [ROLLING, ROLLING, STOPPED]
    assert lv.run[2] == 300 and lv.by[2] == 1
    lv.apply(0, STOP)
    lv.apply(1, STOP)
    g = lv.g
    assert g.round == 2 and g.phase == PH_COMMON
    assert g.totals == [800, 800, 600]  # 2X doubles every round score


def test_illegal_decisions_change_nothing():
    lv = _live(2, WILD)
    before = bytes(lv.to_bytes())
    for s, d, v in ((1, ROLL, (1, 2, 3, 4, 5)),  # the WILD is not declared yet
                    (0, ROLL, (1, 2, 3)), (0, ROLL, (0, 1, 2, 3, 4)),
                    (0, TAKE | 1, None), (0, STOP, None), (5, ROLL, None),
                    (0, DECLARE | 3, None)):
        try:
            lv.apply(s, d, v)
        except ValueError:
            pass
        else:
            raise AssertionError("accepted %r" % ((s, d, v),))
        assert bytes(lv.to_bytes()) == before
    lv.apply(0, ROLL, (2, 3, 4, 6, 6))
    assert lv.ph[0] == L_WILD
    lv.apply(0, DECLARE | 6)
    assert lv.ph[0] == L_TAKE and lv.points(0, 0x18 | 0x20) == 600
    lv.apply(1, ROLL, (2, 2, 3, 4, 6))  # now the others roll
    assert lv.st[1] == FARKLED  # the 6 counts once... with one 6 rolled: no three


def _lockstep_pair(seed, n):
    """A Lockstep game played with random legal decisions, and the same decisions in a
    Live with an announcement after every step; yields after every round."""
    rng = Seeded(seed)
    g = Game(n, LOCKSTEP)
    lv = Live(Game(n, RELAY))
    while g.phase != PH_OVER:
        ph = g.phase
        if ph == PH_COMMON:
            face = (1, 5, TWOX, WILD)[rng(1)[0] % 4]
            g.apply(0x100, (face,))
            lv.start(face)
            continue
        p = g.player
        step = g.step
        rnd = g.round
        if ph == PH_ROLL:
            vals = tuple(rng(1)[0] % 6 + 1 for _ in range(g.to_roll()))
            g.apply(ROLL, vals)
            lv.apply(p, ROLL, vals)
        else:
            legal = g.legal()
            d = legal[rng(1)[0] % len(legal)]
            if ph == PH_DECIDE and g.running(p) < 300 and rng(1)[0] & 1:
                d = ROLL
            g.apply(d)
            lv.apply(p, d)
        if g.step != step or g.round != rnd or g.phase == PH_OVER:
            lv.announce()
        if g.round != rnd or g.phase == PH_OVER:
            yield g, lv


def test_played_in_lockstep_order_it_ends_every_round_as_lockstep():
    rounds = 0
    for seed in range(1, 9):
        for g, lv in _lockstep_pair(seed, 2 + seed % 3):
            rounds += 1
            assert lv.g.totals == g.totals, (seed, g.round)
            assert lv.g.round_raw == g.round_raw
            assert lv.g.round == g.round and lv.g.roller == g.roller
            assert lv.g.winner == g.winner and lv.g.in_round == g.in_round
            if rounds % 7 == 0:  # saves load back to the same bytes
                b = bytes(lv.to_bytes())
                assert bytes(Live.from_bytes(b).to_bytes()) == b
    assert rounds > 100


def test_a_save_mid_round_loads_back_and_bad_ones_are_refused():
    lv = _live(3, WILD)
    lv.apply(0, ROLL, (1, 2, 3, 4, 6))
    lv.apply(0, DECLARE | 5)
    lv.apply(0, TAKE | 0x01)
    lv.apply(1, ROLL, (5, 5, 2, 3, 4))
    b = bytes(lv.to_bytes())
    lv2 = Live.from_bytes(b)
    assert bytes(lv2.to_bytes()) == b
    assert lv2.ph[1] == L_TAKE and lv2.usable(1) == 5 and lv2.run[0] == 100
    rnd = Seeded(5)
    bad = 0
    for i in range(400):
        m = bytearray(b)
        j = len(m) - 1 - rnd(1)[0] % 60
        m[j] = (m[j] + 1 + rnd(1)[0] % 250) & 0xFF
        try:
            x = Live.from_bytes(bytes(m))
        except ValueError:
            bad += 1
            continue
        assert bytes(x.to_bytes()) == bytes(m)
    assert bad > 150
    for cut in (0, 5, len(b) - 1, len(b) - 16):
        try:
            Live.from_bytes(b[:cut])
        except ValueError:
            continue
        raise AssertionError("a cut save loaded")


def test_a_roller_who_sits_out_leaves_the_wild_at_1_and_the_round_goes_on():
    """The link game's DROP of the round's roller while the WILD waits for its value:
    without a rule the others would wait for ever (seen between pages, issue 41)."""
    for rolled in (False, True):  # dropped before its first roll, or after it (L_WILD)
        lv = _live(3, WILD)
        g = lv.g
        r = g.roller
        others = [s for s in range(3) if s != r]
        if rolled:
            lv.apply(r, ROLL, (2, 3, 4, 6, 6))
            assert lv.ph[r] == L_WILD
        try:
            lv.apply(others[0], ROLL, (1, 2, 3, 4, 6))
            raise AssertionError("rolled before the WILD's value")
        except ValueError:
            pass
        lv.sit_out(r)
        assert ("wild", r, 1) in lv.notes and g.wild == 1 and not lv.waiting_wild()
        assert lv.st[r] == STOPPED and lv.run[r] == 0
        for s in others:
            lv.apply(s, ROLL, (1, 2, 3, 4, 6))
            assert lv.ph[s] == L_TAKE and lv.usable(s) == 1
            lv.apply(s, TAKE | 0x21)  # the rolled 1 and the WILD as a 1: 200
            assert lv.run[s] == 200
            lv.apply(s, STOP)
        assert g.round == 2 and g.phase == PH_COMMON
        assert [g.round_raw[s] for s in others] == [200, 200] and g.round_raw[r] == 0
