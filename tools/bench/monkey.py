"""Random play: random legal inputs through the real App, independent of the pilot.

The scripted pilot (pilot.py) plays sensible games; the worst heap is elsewhere too:
half-made selections, BACK in the middle of a turn, Continue after it, a shake while a
menu is open. `Monkey(sim, buttons, seed)` presses the board's buttons (random one,
random hold) and shakes (random length), with random pauses, for `frames` frames. The
only steering: on the menu it heads for its game (CONTINUE when a game is saved, else
the game's item), so a run plays that game rather than the settings.

Between frames it keeps small ints and the constant strings below; everything else it
reads from the screen when it acts (the bench charges what it keeps to the firmware).
"""
from xorshift import XorShift

FRAME = 33
TITLES = ("", "SHAKE UP", "FARKLE FRENZY")  # the menu's item per game kind


class Monkey:
    def __init__(self, sim, buttons, seed):
        self.sim = sim
        self.buttons = tuple(buttons)  # the board's buttons (3 or 4)
        self.rnd = XorShift(seed * 7919 + 17)
        self.app = None
        self.now = 1000
        self.kind = 0
        self.left = 0     # frames still to run
        self.held = None  # the button held down, if any
        self.wait = 0     # frames until the held button goes up, a shake ends, or the next act
        self.shaking = 0
        self.presses = 0
        self.shakes = 0

    def start(self, app, now, kind, frames):
        self.app = app
        self.now = now
        self.kind = kind
        self.left = frames

    def tick(self):
        """One frame: True, or False once the frames are used up."""
        if self.left <= 0:
            return False
        self.app.step(self.now)
        self.now += FRAME
        self.left -= 1
        if self.wait > 0:
            self.wait -= 1
            return True
        if self.held is not None:
            self.sim.release(self.held)
            self.held = None
            self.wait = self.rnd.below(8)
        elif self.shaking:
            self.sim.shake(False)
            self.shaking = 0
            self.wait = 10 + self.rnd.below(30)
        else:
            self._act()
        return True

    def _press(self, name):
        self.sim.press(name)
        self.held = name
        self.presses += 1
        self.wait = 2 + self.rnd.below(4)

    def _act(self):
        s = self.app.screen
        if getattr(s, "NAME", "") == "menu" and getattr(s, "ask", None) is None:
            items = s.items
            want = "CONTINUE" if items[0] == "CONTINUE" else TITLES[self.kind]
            self._press("OK" if items[s.cur] == want else "NEXT")
            return
        s = None
        r = self.rnd.below(100)
        if r < 15:
            self.sim.shake(True)
            self.shaking = 1
            self.shakes += 1
            self.wait = 8 + self.rnd.below(25)
        elif r < 50:
            self._press("OK")
        elif r < 75 or len(self.buttons) < 2:
            self._press("NEXT")
        else:
            b = self.buttons[self.rnd.below(len(self.buttons))]
            self._press(b)
