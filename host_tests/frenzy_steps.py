"""Single Frenzy steps through the buttons: roll, go to an item, select dice, steer the take."""
import ui_rig
from core.frenzy_score import COMMON_BIT
from ui import frenzy_screen as fs


OK = ui_rig.OK


def _roll(r):
    r.press(OK)
    r.wait(600)


def _to(r, item):
    if not ui_rig.to_item(r, item):
        raise AssertionError("no item %d" % item)


def _select(r, dice, common=False):
    ui_rig.select(r, dice, common)


def _press_to(r, item):
    ui_rig.to_item(r, item)


def steer_take(r, pick):
    """Random presses rarely build a scoring selection: after a while, build one
    (chosen at random among the legal ones) from the current selection by buttons."""
    s = r.app.screen
    legal = s.game.legal()
    want = legal[pick % len(legal)] & 0x3F
    for i in range(s.nitems):
        it = s.items[i]
        bit = COMMON_BIT if it == fs.IT_COMMON else (1 << it if it < 5 else 0)
        if (s.mask ^ want) & bit:
            _press_to(r, it)
            r.press(OK)
    assert s.mask == want and s.ok_take[want]
    _press_to(r, fs.IT_TAKE)
    r.press(OK)
