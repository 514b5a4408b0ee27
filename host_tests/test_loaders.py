# portable: runs under MicroPython too
"""Issue 17, items 6 and 12: the loaders take only states that play can reach, and the
game never writes a field that does not fit (a forged save must not turn into an
unloadable one, on either interpreter)."""
from checks import raises as _raises, tmpdir
from core import frenzy as F
from core import games
from core import shakeup as S
from core.dice import Dice
from core.seeded import Seeded

from system import store
from system.store import Store


# ---- Farkle Frenzy ----------------------------------------------------------------

def _frenzy_step(g):
    """One decision of a plain policy: take the first selection, stop at once."""
    ph = g.phase
    if ph == F.PH_WILD:
        g.apply(F.DECLARE | 5)
    elif ph == F.PH_TAKE:
        g.apply(g.legal()[0])
    elif ph == F.PH_DECIDE:
        g.apply(F.STOP)
    else:
        g.apply(g.legal()[0])


def _frenzy_at_round_start(players=2, rounds=1, seed=3):
    """A game played through `rounds` rounds, at the next round's Common Die."""
    g = F.Game(players, F.RELAY, 300, Dice(Seeded(seed)))
    while g.round <= rounds:
        _frenzy_step(g)
    assert g.phase == F.PH_COMMON and g.winner < 0
    return g


def _with(b, at, value, size):
    bad = bytearray(b)
    bad[at:at + size] = value.to_bytes(size, "big")
    return bytes(bad)


def _seat_at(b, s):
    """Where seat s's totals start in a Frenzy save (after the header)."""
    j = 23
    for _ in range(s):
        j += 12
        j += (b[j] << 8 | b[j + 1]) * 4 + 2
    return j


def test_item6_forged_round_range():
    # A save at round 65535 (the most the two bytes hold) plays on; every save the
    # game writes afterwards loads back: the round counter never outgrows its field.
    g = _frenzy_at_round_start()
    forged = _with(g.to_bytes(), 4, 0xFFFF, 2)
    h = F.Game.from_bytes(forged, Dice(Seeded(9)))
    assert h.round == 0xFFFF
    for _ in range(3):  # three rounds, past the last one the field can count
        _frenzy_step(h)
        while h.phase != F.PH_COMMON and h.phase != F.PH_OVER:
            _frenzy_step(h)
            b = h.to_bytes()
            assert F.Game.from_bytes(b).to_bytes() == b
        assert h.round == 0xFFFF
        b = h.to_bytes()
        assert F.Game.from_bytes(b, Dice(Seeded(1))).to_bytes() == b


def test_item6_loader_ranges():
    g = _frenzy_at_round_start()
    b = g.to_bytes()
    assert F.Game.from_bytes(b).to_bytes() == b
    assert _raises(F.Game.from_bytes, _with(b, 4, 0, 2))       # round 0
    over = F.Game.from_bytes(b, Dice(Seeded(2)))
    while over.phase != F.PH_OVER:
        _frenzy_step(over)
    ob = over.to_bytes()
    assert F.Game.from_bytes(ob).to_bytes() == ob
    assert _raises(F.Game.from_bytes, _with(ob, 21, 1, 2))     # a step after the end


def test_item12_frenzy_totals_beyond_play():
    g = _frenzy_at_round_start(rounds=2)
    b = g.to_bytes()
    j = _seat_at(b, 0)
    # The forged total: 0xFFFFFFFF ended the game at once.
    assert _raises(F.Game.from_bytes, _with(b, j, 0xFFFFFFFF, 4))
    # Not a multiple of 50; past the goal while the game goes on (not a tie); a tie
    # of one seat only.
    assert _raises(F.Game.from_bytes, _with(b, j, g.totals[0] + 10, 4))
    assert _raises(F.Game.from_bytes, _with(b, j, 20000, 4))
    # The last round's scores are what its records say: raw and counted.
    assert _raises(F.Game.from_bytes, _with(b, j + 8, g.round_raw[0] + 50, 4))
    assert _raises(F.Game.from_bytes, _with(b, j + 4, g.round_scores[0] + 50, 4))
    # Round 1 has no last round: no round scores.
    n = F.Game(2, F.LOCKSTEP, 300)
    nb = n.to_bytes()
    assert F.Game.from_bytes(nb).to_bytes() == nb
    assert _raises(F.Game.from_bytes, _with(nb, 27, 500, 4))
    assert _raises(F.Game.from_bytes, _with(nb, 31, 500, 4))


def test_item12_frenzy_tie_and_winner_consistency():
    # A real game to its end: the winner leads alone, past the goal.
    g = _frenzy_at_round_start(players=3, rounds=1, seed=5)
    while g.phase != F.PH_OVER:
        _frenzy_step(g)
    b = g.to_bytes()
    assert F.Game.from_bytes(b).to_bytes() == b
    w = g.winner
    other = (w + 1) % 3
    # Another seat with as much as the winner: a tie, not a win.
    jw = _seat_at(b, w)
    jo = _seat_at(b, other)
    t = bytearray(b)
    t[jo:jo + 4] = t[jw:jw + 4]
    assert _raises(F.Game.from_bytes, bytes(t))


def test_item12_frenzy_running_total_cap_is_kept_by_play():
    # Play refuses a take that would carry a total past the cap the loader checks, so
    # every state play reaches loads.
    g = F.Game(1, F.RELAY, 300)
    g.apply(F.COMMON_ROLL, (1,))
    g.totals[0] = F.TOTAL_MAX - 150
    g.apply(F.ROLL, [1, 2, 3, 4, 6])
    g.apply(F.TAKE | 1)                 # 100: the total may reach the cap ...
    g.apply(F.ROLL)
    g.apply(F.ROLL, [1, 2, 3, 6])
    assert _raises(g.apply, F.TAKE | 1)  # ... but not pass it


# ---- Shake Up -----------------------------------------------------------------------

def _shakeup_turn_start(players=3, spots=True, seed=4):
    g = S.Game(players, spots, Dice(Seeded(seed)))
    while g.phase == S.ROLLOFF:
        g.apply(S.ROLL)
    assert g.phase == S.SHAKE
    return g


def _pawns(b, seat, counts):
    bad = bytearray(b)
    bad[20 + seat * 4:24 + seat * 4] = bytes(counts)
    return bytes(bad)


def test_item12_shakeup_pyramid_spots_limits():
    g = S.Game(3, True, Dice(Seeded(4)))
    while not (g.phase == S.SHAKE and g.result >= 0):
        g.apply(g.legal()[0])
    b = g.to_bytes()
    assert S.Game.from_bytes(b).to_bytes() == b
    # The state: 5 pawns on a level that holds 4 (level 2) or 3 (level 3).
    assert _raises(S.Game.from_bytes, _pawns(b, 1, (0, 5, 0, 0)))
    assert _raises(S.Game.from_bytes, _pawns(b, 1, (1, 0, 4, 0)))
    # Without the option the same pawns are a reachable position.
    free = bytearray(b)
    free[2] = 0
    free = bytes(free)
    assert S.Game.from_bytes(free).to_bytes() == free
    for pawns in ((0, 5, 0, 0), (1, 0, 4, 0)):
        f = _pawns(free, 1, pawns)
        assert S.Game.from_bytes(f).to_bytes() == f


def test_item12_shakeup_turn_and_phase_fields():
    g = _shakeup_turn_start(spots=False)
    b = g.to_bytes()
    # Before any turn: no dice, no result; the starter is the one to shake.
    bad = bytearray(b)
    bad[11] = S.MOVE + 1
    assert _raises(S.Game.from_bytes, bytes(bad))     # a result before any shake
    bad = bytearray(b)
    bad[5] = 3
    assert _raises(S.Game.from_bytes, bytes(bad))     # one die shown, three blank
    bad = bytearray(b)
    bad[4] = (g.player + 1) % 3
    assert _raises(S.Game.from_bytes, bytes(bad))     # not the starter's turn
    # The roll-off's winner shook the highest die.
    bad = bytearray(b)
    bad[16 + g.starter] = 0
    assert _raises(S.Game.from_bytes, bytes(bad))
    # Mid-game: the result shown is the class of the dice shown.
    h = S.Game(3, False, Dice(Seeded(11)))
    while not (h.phase == S.SHAKE and h.result >= 0):
        h.apply(h.legal()[0])
    hb = h.to_bytes()
    assert S.Game.from_bytes(hb).to_bytes() == hb
    for r in range(0, 4):
        if r != h.result:
            bad = bytearray(hb)
            bad[11] = r + 1
            assert _raises(S.Game.from_bytes, bytes(bad))
    # Choosing: the turn's result is not known yet.
    h.apply(S.ROLL)
    assert h.phase in (S.CHOOSE, S.MOVING, S.SHAKE, S.PENALTY)
    if h.phase == S.CHOOSE:
        cb = h.to_bytes()
        bad = bytearray(cb)
        bad[11] = S.PAIR + 1
        assert _raises(S.Game.from_bytes, bytes(bad))


def test_item12_shakeup_over_is_the_winners():
    g = S.Game(2, False, Dice(Seeded(2)))
    while g.phase != S.OVER:
        lg = g.legal()
        g.apply(lg[len(lg) - 1])
    b = g.to_bytes()
    assert S.Game.from_bytes(b).to_bytes() == b
    bad = bytearray(b)
    bad[4] = 1 - g.winner
    assert _raises(S.Game.from_bytes, bytes(bad))


# ---- stats ------------------------------------------------------------------------------

def _stats_file(root, ba):
    f = open(root + "/" + store.STATS, "wb")
    f.write(store.pack(0x54, bytes(ba)))
    f.close()


def _loads_as_reset(ba):
    root = tmpdir("loaders")
    _stats_file(root, ba)
    s = Store(root)
    got = s.load_stats()
    reset = got == bytearray(len(ba)) and s.problem == store.MSG_STATS
    import os
    names = os.listdir(root)
    for n in names:
        os.remove(root + "/" + n)
    os.rmdir(root)
    return reset, names


def test_item12_stats_loader_rejects_impossible_counters():
    good = bytearray(store.STATS_LEN)
    store.record_game(good, games.FRENZY, 1, best_round=1750, total=10350)
    store.record_game(good, games.SHAKEUP, 0)
    reset, _ = _loads_as_reset(good)
    assert not reset
    # The best total: 2**31 - 1 stayed for good.
    bad = bytearray(good)
    store.stat_set(bad, games.ST_FF_HIGH, 0x7FFFFFFF)
    reset, names = _loads_as_reset(bad)
    assert reset and store.STATS + ".bad" in names
    # More wins than games; a best round above the best total; bests without a game;
    # a counter stat_set() could never write.
    for i, v in ((games.ST_SU_WINS + 1, 2), (games.ST_FF_BEST, 20000),
                 (games.ST_FF_GAMES, 0)):
        bad = bytearray(good)
        store.stat_set(bad, i, v)
        assert _loads_as_reset(bad)[0], (i, v)
    bad = bytearray(good)
    bad[4 * games.ST_SU_GAMES + 3] = 0x80
    assert _loads_as_reset(bad)[0]


def test_item12_forged_saves_are_set_aside_and_the_player_told():
    # The whole path on the simulated board: CONTINUE refuses the forged game, keeps
    # it as game.sav.bad and says so; forged stats are reset at boot and said so.
    import os
    import ui_rig
    from fault_rig import _menu_after_boot
    g = _frenzy_at_round_start(rounds=2)
    forged = _with(g.to_bytes(), _seat_at(g.to_bytes(), 0), 0xFFFFFFFF, 4)
    root = ui_rig.tmpdir("forged")
    store.Store(root).save_game(games.FRENZY, forged, b"\x01")
    app, c = _menu_after_boot(root)
    assert app.screen.items[0] == "CONTINUE"      # its checksum is fine...
    app.screen.cur = 0
    c.tap("OK")
    assert app.screen.NAME == "menu" and "CONTINUE" not in app.screen.items
    assert app.notice == store.MSG_GAME
    assert "game.sav.bad" in os.listdir(root)
    ui_rig._rmtree(root)
    root = ui_rig.tmpdir("forgedstats")
    bad = bytearray(store.STATS_LEN)
    store.record_game(bad, games.FRENZY, 0, best_round=900, total=10050)
    store.stat_set(bad, games.ST_FF_HIGH, 0x7FFFFFFF)
    _stats_file(root, bad)
    app, c = _menu_after_boot(root)
    assert app.notice == store.MSG_STATS
    assert "stats.dat.bad" in os.listdir(root)
    assert store.stat(app.store.load_stats(), games.ST_FF_HIGH) == 0
    ui_rig._rmtree(root)
