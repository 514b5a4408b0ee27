"""Reading the panel as a player would: a lit pixel, text left intact, a Shake Up
game up to its dice view."""
import framebuf
import ui_rig
from ui import gfx


OK = ui_rig.OK


NEXT = ui_rig.NEXT


def _lit(frame, x, y):
    return frame[(y >> 3) * 128 + x] >> (y & 7) & 1


def _text_intact(frame, s, x, y, f):
    """Every pixel of s drawn alone at (x, y) is lit in frame, and no pixel of the
    text's box that s leaves dark is lit: the text reads exactly as the font has it."""
    w = gfx.width(s, f)
    buf = bytearray(1024)
    ref = framebuf.FrameBuffer(buf, 128, 64, framebuf.MONO_VLSB)
    gfx.text(ref, s, x, y, 1, f)
    for yy in range(y, y + f[2]):
        for xx in range(x, x + w):
            if _lit(buf, xx, yy) != _lit(frame, xx, yy):
                return False
    return True


def _shakeup_to_dice(r):
    """Shake Up, 2 players, by buttons: RED rolls 6, GREEN 1, RED's shake 1 lands."""
    r.wait(1500)
    m = r.app.screen
    while m.items[m.cur] != "SHAKE UP":
        r.press(NEXT)
    r.press(OK)
    r.press(OK)                      # 2 players
    assert r.screen == "shakeup"
    for _ in range(2):               # the roll-off: RED, then GREEN
        if r.screen == "pass":
            r.press(OK)
        r.press(OK)
        r.wait(600)
        r.press(OK)                  # "... ROLLED n"
    if r.screen == "pass":
        r.press(OK)
    s = r.app.screen
    assert s.game.phase == 1 and s.game.player == 0, (s.game.phase, s.game.player)
    r.press(OK)                      # shake 1
    r.wait(600)
    assert s.view == 2, s.view       # DICE
    return s
