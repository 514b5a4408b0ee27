# portable: runs under MicroPython too
"""Golden frames: key screens compared pixel for pixel with committed 1,024-byte files
in host_tests/golden/ (MONO_VLSB, as the panel shows them). On a mismatch the message
shows both frames as ASCII art ('+' lit only now, '-' lit only in the golden).
UPDATE_GOLDEN=1 rewrites the files (then look at them: `python host_tests/ui_rig.py
host_tests/golden/NAME.bin` prints one)."""

import ui_rig
from shakeup_pilot import Pilot, start_game
from ui import shakeup_screen as ss
from golden_frames import compare

OK = ui_rig.OK
NEXT = ui_rig.NEXT


def _menu_to(r, item):
    ui_rig.to_item(r, item)
    r.press(OK)


def test_golden_menu_and_settings():
    r = ui_rig.Rig("gold_menu", seed=3)
    r.wait(1500)
    compare("menu", r.frame())
    _menu_to(r, "SETTINGS")
    r.press(NEXT)
    r.press(NEXT)
    compare("settings", r.frame())
    r.press(ui_rig.BACK)
    _menu_to(r, "HOW TO PLAY")
    compare("howto", r.frame())


def test_golden_shakeup_screens():
    r = ui_rig.Rig("gold_su", seed=21)
    start_game(r, 3)
    p = Pilot(r, 5)
    # "told": a turn told on the next turn's board (its confirmation folded there).
    want = ("rolloff", "pass", "board", "aside", "dice_held", "result", "move", "told")
    shots = {}

    def hook(label):
        s = r.app.screen
        if label == "shakeup":
            v = s.view
            if v == ss.ROLLOFF and s.info:
                label = "rolloff"
            elif v == ss.BOARD:
                label = "told" if s.info else "board"
            elif v == ss.DICE and s.game.held:
                label = "dice_held"
            elif v == ss.RESULT:
                label = "result"
            elif v == ss.MOVE:
                label = "move"
        if label in want and label not in shots:
            shots[label] = r.frame()
        return len(shots) == len(want)

    p.hook = hook
    p.play(3000)
    for name in want:
        assert name in shots, "never saw " + name
        compare("su_" + name, shots[name])


if __name__ == "__main__":
    import sys
    with open(sys.argv[1], "rb") as f:
        print(ui_rig.ascii_art(f.read()))
