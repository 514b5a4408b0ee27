"""Random presses and shakes on a running game (_mash), and a watch that checks every
tumbling frame shown against a full redraw (_watch)."""
import ui_rig
from core.seeded import Seeded
from ui.screens import DIRTY_CURSOR, DIRTY_DICE, DIRTY_PICK, DIRTY_ROLL
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
