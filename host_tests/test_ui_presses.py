# portable: runs under MicroPython too
"""Fewer presses per Frenzy turn (issue 18's "Done when"): presses that are not choices
are cut, no choice nor what a player needs to know is taken away. Driven through the
App by buttons and shakes; tools/simulator/presses.py counts a scripted game's presses per turn."""
import ui_rig
from ui_rig import faces as _faces, scripted as _rig
from core import frenzy as fz
from core.frenzy_score import ones_table, scores_into
from frenzy_pilot import start_game
from frenzy_steps import _roll
from ui import frenzy_screen as fs
from shakeup_pilot import _su_at

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
    from golden_frames import compare
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
    from golden_frames import compare
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


# ---- Shake Up (issue 31): no press for a confirmation that carries no choice --------


def _counted(r):
    n = [0]
    press = r.press

    def counted(b, frames=2):
        n[0] += 1
        press(b, frames)
    r.press = counted
    return n


def test_shakeup_stop_is_one_press_from_the_dice():
    # STOP is drawn left of SHAKE and comes before the first die: one PREV reaches it
    # (it sat five NEXTs right of the dice).
    r, s = _su_at("pr_su_stop", (5, 0, 0, 0), (5, 0, 0, 0), _faces(1, 2, 4, 6))
    r.press(OK)
    r.wait(600)
    assert s.view == 2 and s.cur == 0  # DICE, the cursor on the first die
    r.press(PREV)
    assert s.cur == 5                  # STOP
    f = r.frame()
    # The button under the cursor is the left one (x 12-53), lit; SHAKE's is outlined.
    assert f[5 * 128 + 13] == 0xFF, "STOP, the left button, is lit"
    assert not f[5 * 128 + 75] & 0x10, "SHAKE, the right one, is outlined"
    r.press(NEXT)
    assert s.cur == 0
    for _ in range(4):
        r.press(NEXT)
    assert s.cur == 4                  # SHAKE, after the last die
    r.press(NEXT)
    assert s.cur == 5                  # and round again to STOP


def test_shakeup_big_on_shake_1_takes_two_presses():
    # A BIG on shake 1 with two levels to move from and a GREEN pawn to send back:
    # the level and the penalty are the choices, two presses; the result's and the
    # extra turn's screens are folded (they took four: BIG, level, penalize?, again).
    r, s = _su_at("pr_su_big", (3, 2, 0, 0), (4, 0, 1, 0), _faces(3, 3, 3, 3))
    r.press(OK)
    r.wait(600)
    assert s.view == 2 and list(s.game.dice) == [3, 3, 3, 3]
    r.press(PREV)
    r.press(OK)                        # STOP: a BIG
    n = _counted(r)
    assert s.view == 4, s.view         # MOVE, at once
    assert s.lines[0] == "RED BIG!: UP, PENALIZE, AGAIN", s.lines
    r.press(OK)                        # from level 1
    assert s.view == 5 and s.lines[0] == "RED: PENALIZE, THEN AGAIN", (s.view, s.lines)
    while s.choices[s.cur] & 0xF00 != 0x400:
        r.press(NEXT)
        n[0] -= 1  # (choosing among the choices: not a confirmation)
    r.press(OK)                        # GREEN's pawn on level 3 back to 1
    assert n[0] == 2
    assert s.view == 1 and s.game.player == 0 and s.rolling  # RED's extra turn
    assert s.lines == ["GREEN PAWN: LEVEL 3 -> 1", "RED: SHAKE AGAIN!"], s.lines
    assert s.game.count(1, 3) == 0 and s.game.count(0, 2) == 3


def test_shakeup_move_with_one_level_takes_one_press_at_most():
    # A MOVE when one level can move: the move is made at STOP. Against a CPU no press
    # (the CPU's board tells it); to another human, the pass screen's one press.
    for cpus in (b"\0\2", b"\0\0"):
        r, s = _su_at("pr_su_move%d" % cpus[1], (5, 0, 0, 0), (5, 0, 0, 0),
                      _faces(3, 3, 3, 1), cpus)
        r.press(OK)
        r.wait(600)
        r.press(PREV)
        r.press(OK)                    # STOP: a MOVE, from level 1 (the only one)
        n = _counted(r)
        if cpus[1]:
            assert r.screen == "shakeup" and s.view == 1 and s.game.player == 1
            assert s.lines[0] == "RED MOVE: UP FROM LEVEL 1", s.lines
            assert s.lines[1] == "GREEN: SHAKE!"
            r.wait(1200)               # GREEN waits while it is read
            assert s.view == 1 and not r.app.tumbling
        else:
            p = r.app.screen
            assert p.NAME == "pass" and p.note[0] == "RED: MOVE", p.note
            r.press(OK)
            assert r.app.screen is s and s.view == 1 and s.game.player == 1
        assert n[0] == (0 if cpus[1] else 1)
        assert s.game.count(0, 2) == 1


def test_shakeup_turn_takes_at_most_7_presses_on_average():
    # tools/simulator/presses.py's scripted two-player games (the same seeds as its table).
    try:
        import presses
    except ImportError:
        return  # (MicroPython: the tool is CPython's, argparse and all)
    tp = tt = 0
    for seed in (1, 2):
        p, t = presses.shakeup(2, seed)
        tp += p
        tt += t
    assert tp <= 7 * tt, (tp, tt, tp / tt)
