# portable: runs under MicroPython too
"""Golden frames of the Farkle Frenzy screens (helper: test_ui_golden.compare; files in
host_tests/golden/fz_*.bin; UPDATE_GOLDEN=1 rewrites them).

A scripted two-player Relay game with chosen dice, driven by buttons only:
round 1 the Common Die shows WILD, RED rolls 2 2 3 4 6, declares the WILD a 2, takes
2 2 + WILD (200), is warned when stopping below 400, rolls on and farkles on 2 3 4;
GREEN rolls 1 1 1 5 5, fills the riser and stops with 400 (which cuts RED's round at
step 1: 200, below the entry). Round 2 (GREEN rolls the
Common Die: 2X) GREEN fills with five 1s and stops; RED takes a 5 and is stopped by
GREEN's fill. Then the pilot of test_ui_frenzy plays on to the winner.
"""
import ui_rig
from ui_rig import Script, faces as _faces
from core import frenzy as fz
from core.dice import Dice
from frenzy_pilot import Pilot, start_game
from golden_frames import compare
from ui import frenzy_screen as fs
from frenzy_steps import _roll, _select, _to

OK = ui_rig.OK
NEXT = ui_rig.NEXT


_COMMON_WILD = bytes((5,))   # COMMON_FACES[5] == WILD
_COMMON_2X = bytes((4,))     # COMMON_FACES[4] == TWOX
SCRIPT = (_COMMON_WILD + _faces(2, 2, 3, 4, 6) + _faces(2, 3, 4) + _faces(1, 1, 1, 5, 5)
          + _COMMON_2X + _faces(1, 1, 1, 1, 1) + _faces(5, 2, 3, 4, 6))


def _check(r, view, phase=None, seat=None):
    s = r.app.screen
    assert s.NAME == "frenzy", s.NAME
    assert s.view == view, (s.view, view)
    if phase is not None:
        assert s.game.phase == phase, (s.game.phase, phase)
    if seat is not None:
        assert s.game.player == seat
    return s


def test_golden_frenzy_screens():
    r = ui_rig.Rig("gold_fz", seed=31)
    r.app.dice = Dice(Script(SCRIPT, 77))
    start_game(r, 2, fz.RELAY)
    _check(r, fs.V_PLAY, fz.PH_COMMON, 0)
    compare("fz_common", r.frame())
    _roll(r)                                   # the Common Die: WILD
    s = _check(r, fs.V_PLAY, fz.PH_ROLL, 0)
    assert s.game.common == 8 and s.t_info == "FARKLE RISK 0%"
    _roll(r)                                   # RED: 2 2 3 4 6
    _check(r, fs.V_PLAY, fz.PH_WILD)
    assert s.wildv == 2                        # the picker starts on the best value
    compare("fz_wild", r.frame())
    r.press(OK)
    _check(r, fs.V_PLAY, fz.PH_TAKE)
    _select(r, (0, 1), True)
    assert s.t_pts == "+200"
    compare("fz_take", r.frame())
    _to(r, fs.IT_TAKE)
    r.press(OK)
    _check(r, fs.V_PLAY, fz.PH_DECIDE)
    assert s.t_run == "200" and s.game.riser(0) == 2
    assert s.t_info.startswith("FARKLE RISK ")
    compare("fz_decide", r.frame())
    _to(r, fs.IT_STOP)
    r.press(OK)
    _check(r, fs.V_WARN)
    compare("fz_warn", r.frame())
    r.press(OK)                                # NO: keep playing
    _check(r, fs.V_PLAY, fz.PH_DECIDE)
    _to(r, fs.IT_ROLL)
    _roll(r)                                   # 2 3 4: Farkle
    _check(r, fs.V_FARKLE)
    assert s.t_line1 == "RED LOST 200"
    compare("fz_farkle", r.frame())
    r.press(OK)
    assert r.screen == "pass" and r.app.screen.seat == 1
    r.press(OK)
    _check(r, fs.V_PLAY, fz.PH_ROLL, 1)
    compare("fz_roll", r.frame())
    _roll(r)                                   # GREEN: 1 1 1 5 5
    _select(r, (0, 1, 2, 3, 4))
    _to(r, fs.IT_TAKE)
    r.press(OK)
    _check(r, fs.V_PLAY, fz.PH_DECIDE, 1)
    assert s.game.riser(1) == 5 and s.t_pts == "FULL!"
    compare("fz_full", r.frame())
    _to(r, fs.IT_STOP)
    r.press(OK)
    _check(r, fs.V_SUMMARY)
    # GREEN's fill in step 1 stopped RED at step 1 (Relay cuts retroactively): RED's
    # Farkle in step 2 does not count, RED keeps 200, below the 400 entry.
    assert s.t_cols[0] == "200<400" and s.t_cols[1] == "+400" and s.t_tot[1] == "400", (
        s.t_cols, s.t_tot)
    compare("fz_summary", r.frame())
    r.press(OK)                                # round 2: GREEN holds the device already
    _check(r, fs.V_PLAY, fz.PH_COMMON, 1)
    _roll(r)                                   # 2X
    _roll(r)                                   # GREEN: five 1s
    _select(r, (0, 1, 2, 3, 4))
    _to(r, fs.IT_TAKE)
    r.press(OK)
    _to(r, fs.IT_STOP)
    r.press(OK)
    assert r.screen == "pass" and r.app.screen.seat == 0
    r.press(OK)
    _check(r, fs.V_PLAY, fz.PH_ROLL, 0)
    _roll(r)                                   # RED: 5 2 3 4 6
    _select(r, (0,))
    _to(r, fs.IT_TAKE)
    r.press(OK)
    _check(r, fs.V_NOTICE)
    assert (s.t_line1, s.t_line2, s.t_line3) == ("GREEN FILLED THE RISER:", "YOU STOP WITH", "50")
    compare("fz_notice", r.frame())
    r.press(OK)
    _check(r, fs.V_SUMMARY)
    assert "2^" in s.t_line1
    assert s.t_cols[0] == "100<400" and s.t_cols[1] == "+4000" and s.t_tot[1] == "4400"
    compare("fz_summary_2x", r.frame())
    # On to the winner with the pilot, checked against a shadow from here on.
    p = Pilot(r, 5)
    p.shadow = fz.Game.from_bytes(s.game.to_bytes())
    winner = p.play()
    s = _check(r, fs.V_WINNER)
    assert s.game.winner == winner and s.t_line2 == str(p.shadow.totals[winner])
    compare("fz_winner", r.frame())


def test_golden_frenzy_tie_round():
    """Both players reach 10,000 with the same total: the summary says who plays the
    tie round, and the next round is marked as one."""
    r = ui_rig.Rig("gold_fz_tie", seed=32)
    r.wait(1500)
    g = fz.Game(2, fz.RELAY, 300)
    for _ in range(4):  # four rounds straight through the core: 2000 each per round
        g.apply(fz.COMMON_ROLL, (5,))
        for _ in range(2):
            g.apply(fz.ROLL, (1, 1, 1, 1, 1))
            g.apply(fz.TAKE | 0x1F)
            g.apply(fz.STOP)
    assert g.totals == [8000, 8000] and g.round == 5 and g.roller == 0
    r.app.dice = Dice(Script(bytes((2,)) + _faces(1, 1, 1, 1, 1) * 2, 78))  # Common: 5
    g._dice = r.app.dice
    r.app.players = 2
    r.app.holder = 0
    r.app.show(fs.FrenzyScreen(r.app, g, None))
    _roll(r)                                   # the Common Die: 5
    for seat in range(2):
        _check(r, fs.V_PLAY, fz.PH_ROLL, seat)
        _roll(r)
        _select(r, (0, 1, 2, 3, 4))
        _to(r, fs.IT_TAKE)
        r.press(OK)
        _to(r, fs.IT_STOP)
        r.press(OK)
        if seat == 0:
            assert r.screen == "pass"
            r.press(OK)
    s = _check(r, fs.V_SUMMARY)
    assert g.totals == [10000, 10000] and g.winner == -1
    assert s.t_line2 == "TIE: ONE MORE ROUND" and s.ov[39] >> 4 == 3, s.t_line2
    compare("fz_tie", r.frame())
    r.press(OK)
    s = _check(r, fs.V_PLAY, fz.PH_COMMON, 1)       # GREEN rolls the Common Die next
    assert s.t_head == "ROUND 6 TIE", s.t_head
