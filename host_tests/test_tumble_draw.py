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
from ui.screens import DIRTY_CURSOR, DIRTY_DICE, DIRTY_PICK, DIRTY_ROLL
from test_ui_frenzy import start_game
from test_ui_frenzy_mash import steer_take
from ui import frenzy_screen as fs
from ui.shakeup_screen import BOARD

# PRESS of PREV / NEXT / OK, a shake (mostly), a pause.
_MIX = b"\x02\x02\x01\x00\x04\x04\x04\x04\x05"


def _watch(r):
    """Every shown tumbling frame against fill(0) + draw(); -> ([frames drawn over the
    last one], the screen class, its draw). The class is the one the app imported (it
    forgets a game's modules at the menu)."""
    app = r.app
    cls = type(app.screen)
    d = app.display
    show0 = d.show
    keep = bytearray(len(d.buf))
    # Frames drawn over the last one: tumbling, cursor, tumble starts, picks, of the
    # picks Shake Up's INFO closed back to its BOARD, and a notice's bar alone (no
    # draw(): app.say() over the frame on the panel).
    seen = [0, 0, 0, 0, 0, 0]
    # This frame's draw() was over the last frame; it was Shake Up's board after INFO;
    # draw() ran for this frame.
    part = [False, False, False]
    orig = cls.draw

    def draw(self, fb):
        d = self.dirty
        part[2] = True
        part[0] = d is not True and d >= DIRTY_DICE  # every code: drawn over the last frame
        for i, code in enumerate((DIRTY_DICE, DIRTY_CURSOR, DIRTY_ROLL, DIRTY_PICK)):
            if d is not True and d == code:
                seen[i] += 1
        part[1] = d is not True and d == DIRTY_PICK and self.NAME == "shakeup" and \
            self.view == BOARD
        return orig(self, fb)

    def show():
        scr = app.screen
        bar = not part[2] and app.notice is not None
        part[2] = False
        if (app.tumbling or part[0] or bar) and type(scr) is cls:
            part[0] = False
            if part[1]:
                seen[4] += 1
            if bar:
                seen[5] += 1
            keep[:] = d.buf
            d.fb.fill(0)
            orig(scr, d.fb)
            if app.notice is not None:
                app.draw_notice(d.fb)
            same = d.buf == keep
            if not same:
                want = bytes(d.buf)
                d.buf[:] = keep
                raise AssertionError("a partly redrawn frame differs from draw():\n" +
                                     ui_rig.diff_art(want, bytes(keep)))
        return show0()
    cls.draw = draw
    d.show = show
    return seen, cls, orig


def _mash(r, seed, events, steer=None):
    """Random inputs; steer(r, byte): what unblocks the game (Frenzy's TAKE)."""
    seen, cls, orig = _watch(r)
    try:
        rnd = Seeded(seed)
        for k in range(events):
            b = rnd(2)
            if steer is not None and k % 8 == 7 and steer(r, b[1]):
                continue
            if k % 16 == 5:
                # Two presses in one frame (a cursor move and a pick, say): the
                # screen's marks combine.
                r.dev.pending.append(0x10 | b[0] % 3)
                r.dev.pending.append(0x10 | b[1] % 3)
                r.step(1)
                continue
            ui_rig.mash_input(r, _MIX[b[0] % len(_MIX)], b[1])
    finally:
        cls.draw = orig
    return seen


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
