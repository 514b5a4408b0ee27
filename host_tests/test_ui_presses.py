# portable: runs under MicroPython too
"""Fewer presses per Frenzy turn (issue 18's "Done when"): presses that are not choices
are cut, no choice nor what a player needs to know is taken away. Driven through the
App by buttons and shakes; tools/presses.py counts a scripted game's presses per turn."""
import ui_rig
from ui_rig import faces as _faces, scripted as _rig
from core import frenzy as fz
from core.frenzy_score import ones_table, scores_into
from test_ui_frenzy import start_game
from test_ui_frenzy_golden import _roll
from ui import frenzy_screen as fs

OK = ui_rig.OK
NEXT = ui_rig.NEXT
PREV = ui_rig.PREV

_C1 = bytes((0,))   # the Common Die shows 1
_C2X = bytes((4,))  # the Common Die shows 2X


def test_take_opens_with_the_best_selection_on_take():
    # Setting the obvious dice aside took a press per die and the moves between them:
    # TAKE opens with the selection of the most points marked, the cursor on TAKE.
    r = _rig("pr_best", _C1 + _faces(1, 2, 5, 3, 2) + _faces(5, 4, 6))
    start_game(r, 1, fz.RELAY)
    s = r.app.screen
    _roll(r)                         # the Common Die: 1
    _roll(r)                         # 1 2 5 3 2
    g = s.game
    assert g.phase == fz.PH_TAKE
    assert s.mask == 0x25 and s.t_pts == "+250", (s.mask, s.t_pts)  # 1, 5, the Common 1
    assert s.items[s.cur] == fs.IT_TAKE
    # The cursor offers only what some selection counts: the 1, the 5, the Common Die.
    assert bytes(s.items[:s.nitems]) == bytes((0, 2, fs.IT_COMMON, fs.IT_TAKE))
    r.press(NEXT)                    # round to the first die
    assert s.items[s.cur] == 0
    r.press(NEXT)
    assert s.items[s.cur] == 2       # the 2 between is skipped
    r.press(PREV)
    r.press(PREV)                    # back on TAKE
    r.press(OK)                      # one press takes it
    assert g.phase == fz.PH_DECIDE and g.running(0) == 250 and g.riser(0) == 2
    # The next roll opens the same way; the choice stays the player's: the 5 only.
    assert ui_rig.to_item(r, fs.IT_ROLL)
    _roll(r)                         # 5 4 6
    assert g.phase == fz.PH_TAKE and s.mask == 1 and s.items[s.cur] == fs.IT_TAKE
    assert s.nitems == 2             # the 5, TAKE
    r.press(OK)
    assert g.running(0) == 300 and g.riser(0) == 3


def test_a_restored_take_keeps_its_selection():
    # Continue comes back to the selection as it was, not to the best one again.
    r = _rig("pr_keep", _C2X + _faces(1, 1, 5, 3, 2))
    start_game(r, 1, fz.RELAY)
    s = r.app.screen
    _roll(r)
    _roll(r)                         # 1 1 5 3 2
    assert s.mask == 0x07
    ui_rig.select(r, (0,))           # only a 1: four dice to roll
    s = ui_rig.back_and_continue(r)
    assert s.NAME == "frenzy" and s.game.phase == fz.PH_TAKE and s.mask == 0x01, s.mask


def test_the_best_selection_is_the_only_one_with_its_points():
    # The screen marks the first selection of the most points it finds: for every roll
    # (as a multiset: the table does not depend on the dice's order), every Common Die
    # and both three-1s options, no other selection scores as much.
    for ones in (300, 1000):
        t = ones_table(ones)
        out = bytearray(64)
        for n in range(1, 6):
            roll = [1] * n
            while True:
                rolled = bytes(roll) + bytes(5 - n)
                for common in (None, 1, 2, 3, 4, 5, 6):
                    scores_into(rolled, n, common, t, out)
                    top = max(out)
                    if top:
                        assert sum(1 for p in out if p == top) == 1, (roll, common, ones)
                # the next non-decreasing roll of n dice
                i = n - 1
                while i >= 0 and roll[i] == 6:
                    i -= 1
                if i < 0:
                    break
                v = roll[i] + 1
                for j in range(i, n):
                    roll[j] = v


def _pass(r):
    assert r.screen == "pass", r.screen
    r.press(OK)


def test_a_farkle_at_a_rounds_end_is_told_on_the_summary():
    # The round's last roll farkles: its FARKLE screen and then the summary took two
    # presses; the summary tells it (the FARKLE row, the dice), one press goes on.
    from test_ui_golden import compare
    r = _rig("pr_fsum", _C1 + _faces(1, 1, 1, 5, 5) + _faces(2, 3, 4, 6, 2))
    start_game(r, 2, fz.RELAY)
    s = r.app.screen
    _roll(r)                         # the Common Die: 1
    _roll(r)                         # RED: 1 1 1 5 5
    r.press(OK)                      # TAKE them all (and the Common Die)
    assert ui_rig.to_item(r, fs.IT_STOP)
    r.press(OK)
    _pass(r)
    _roll(r)                         # GREEN: 2 3 4 6 2, a Farkle, the round's last roll
    assert r.screen == "frenzy" and s.view == fs.V_SUMMARY, (r.screen, s.view)
    assert s.t_cols[1] == "FARKLE" and s.t_line2 == "GREEN FARKLED: 2 3 4 6 2", (
        s.t_cols, s.t_line2)
    compare("fz_summary_farkle", r.frame())
    r.press(OK)                      # round 2: GREEN rolls the Common Die
    assert s.view == fs.V_PLAY and s.game.phase == fz.PH_COMMON and s.game.player == 1


def test_a_lockstep_farkle_is_told_on_the_pass_screen():
    # Lockstep shows everyone everything: a Farkle before the device goes to the other
    # player is told on the pass screen (one press), with what it lost.
    from test_ui_golden import compare
    script = _C1 + _faces(1, 2, 3, 4, 6) + _faces(5, 2, 3, 3, 6) + _faces(2, 3, 4, 6)
    r = _rig("pr_fpass", script)
    start_game(r, 2, fz.LOCKSTEP)
    s = r.app.screen
    _roll(r)                         # the Common Die: 1
    _roll(r)                         # RED: 1 2 3 4 6
    r.press(OK)                      # TAKE the 1 and the Common Die: 200
    assert s.game.running(0) == 200
    assert ui_rig.to_item(r, fs.IT_ROLL)
    r.press(OK)                      # on: GREEN's step 1 first
    _pass(r)
    _roll(r)                         # GREEN: 5 2 3 3 6
    r.press(OK)                      # TAKE the 5 and the Common Die
    assert ui_rig.to_item(r, fs.IT_ROLL)
    r.press(OK)
    _pass(r)
    _roll(r)                         # RED: 2 3 4 6, a Farkle
    p = r.app.screen
    assert p.NAME == "pass" and p.seat == 1, p.NAME
    assert tuple(p.note) == ("RED FARKLED: 2 3 4 6", "LOST 200"), p.note
    compare("fz_pass_farkle", r.frame())
    r.press(OK)
    assert r.app.screen is s and s.view == fs.V_PLAY and s.game.player == 1


def test_a_relay_farkle_keeps_its_screen():
    # Relay hides a player's round from the next until the summary: the Farkle is
    # told on its own screen, to the player who rolled it, and the pass says nothing.
    r = _rig("pr_frel", _C1 + _faces(2, 3, 4, 6, 2))
    start_game(r, 2, fz.RELAY)
    s = r.app.screen
    _roll(r)
    _roll(r)                         # RED: 2 3 4 6 2, a Farkle
    assert s.view == fs.V_FARKLE
    r.press(OK)
    p = r.app.screen
    assert p.NAME == "pass" and p.seat == 1 and not p.note, (p.NAME, p.note)
