# portable: runs under MicroPython too
"""A tumble's frames after its first redraw only the tumbling dice (app.step marks
them dirty == DIRTY_DICE; the game screens' draw() then draws over the last frame),
a cursor move only the cursor's rows (the screen marks it dirty == DIRTY_CURSOR), and
Shake Up's board, when a notice's bar over it goes, only the lines below the pyramid
(DIRTY_PICK): each such frame must be the frame a full draw() makes. Random
buttons and shakes in both games, every tumbling frame and every partly redrawn one
compared with a full redraw (docs/memory-and-speed.md "Frame time on the device")."""
import ui_rig
from core.seeded import Seeded
from frenzy_pilot import start_game
from frenzy_steps import steer_take
from ui import frenzy_screen as fs
from mash_rig import _mash, _watch


def test_shakeup_tumble_frames_are_full_frames():
    r = ui_rig.Rig("tumble1", seed=3, sim=False)
    r.wait(1500)
    ui_rig.humans_only(r.app)
    ui_rig.setup_game(r, "SHAKE UP", 3)
    assert r.screen == "shakeup"
    n = _mash(r, 11, 300)
    assert n[0] > 100 and n[1] > 10 and n[2] > 30 and n[3] > 10, n  # partial frames compared


def test_shakeup_info_to_board_frames_are_full_frames():
    # You against two CPUs: a CPU's line over the board ends and the board's lines
    # alone are redrawn (DIRTY_PICK). The CPUs' steps redraw as a human's keys do
    # (their picks, cursor moves) and say their lines over the frame (the bar
    # alone): compared too, with the notice.
    r = ui_rig.Rig("tumble3", seed=3, sim=False)
    r.wait(1500)
    ui_rig.setup_game(r, "SHAKE UP", 3, (0, 1, 1))
    assert r.screen == "shakeup"
    n = _mash(r, 11, 600)
    assert n[4] >= 1 and n[0] > 100 and n[5] > 20 and n[3] > 20, n


def test_frenzy_cpu_steps_are_full_frames():
    # You against a CPU in Frenzy: its picks (DIRTY_PICK), cursor moves (DIRTY_CURSOR)
    # and lines (the bar alone) against full redraws with the notice.
    r = ui_rig.Rig("tumble4", seed=6, sim=False)
    r.wait(1500)
    ui_rig.setup_game(r, "FARKLE FRENZY", 2, (0, 2))
    assert r.screen == "frenzy"
    n = _mash(r, 14, 500, _take)
    assert n[5] > 20 and n[3] > 20 and n[1] > 20, n


def _take(r, pick):
    """Random presses rarely build a scoring selection: now and then, take one."""
    from core import frenzy as fz
    s = r.app.screen
    if s.NAME == "frenzy" and s.view == fs.V_PLAY and s.game.phase == fz.PH_TAKE \
            and not r.app.tumbling and not r.app.cpus[s.game.player]:
        steer_take(r, pick)
        return True
    return False


def test_frenzy_tumble_frames_are_full_frames():
    r = ui_rig.Rig("tumble2", seed=5, sim=False)
    r.wait(1500)
    ui_rig.humans_only(r.app)
    start_game(r, 2, 0)
    assert r.screen == "frenzy"
    n = _mash(r, 12, 400, _take)
    assert n[0] > 100 and n[1] > 10 and n[2] > 30 and n[3] > 10, n  # partial frames compared


def test_setup_cursor_frames_are_full_frames():
    # The setup's rows: PREV/NEXT (and OK now and then: the players' row changes the
    # rows below it) compared with a full redraw after every frame, in both games.
    for seed, title in ((2, "FARKLE FRENZY"), (4, "SHAKE UP")):
        r = ui_rig.Rig("tumble0", seed=seed, sim=False)
        r.wait(1500)
        ui_rig.setup_game(r, title, 4, press=False)
        assert r.screen == "setup"
        seen, cls, orig = _watch(r)
        try:
            rnd = Seeded(13)
            for i in range(120):
                b = rnd(1)[0]
                if i % 4 == 3 and r.app.screen.cur == 0:
                    # Two presses in one frame on PLAYERS: OK, then OK or NEXT.
                    r.dev.pending.append(0x10 | ui_rig.OK)
                    r.dev.pending.append(0x10 | (ui_rig.OK if b & 1 else ui_rig.NEXT))
                    r.step(1)
                    continue
                k = (ui_rig.PREV, ui_rig.NEXT, ui_rig.NEXT, ui_rig.PREV, ui_rig.OK)[b % 5]
                if k == ui_rig.OK and r.app.screen.cur == r.app.screen.start_row():
                    k = ui_rig.NEXT  # not START: the setup stays
                r.press(k, 1 + (b >> 7))
                assert r.screen == "setup"
        finally:
            cls.draw = orig
        # Cursor moves and players' changes (DIRTY_PICK: the rows that moved).
        assert seen[1] > 50 and seen[3] > 3, (title, seen)
