"""Settings screen: PREV/NEXT choose a line, OK changes its value (applied at once),
BACK (or DONE) saves through the store and returns to the menu. The rules options
(Frenzy turns, three 1s, pyramid spots) say under the list that they apply to new
games."""
from system.store import S_CONTRAST, S_DIM, S_ODDS, S_OFF, S_ONES, S_SCHEDULE, S_SENS, S_SLEEP, S_SOUND, S_SPOTS
from ui import gfx
from ui.screens import BACK, NEXT, OK, PREV, Screen
from version import VERSION

# Per line: label, settings index, the values OK cycles through.
_LINES = (
    ("SOUND", S_SOUND, b"\x01\x00"),
    ("CONTRAST", S_CONTRAST, b"\x1f\x4f\x8f\xcf\xff"),
    ("FRENZY TURNS", S_SCHEDULE, b"\x00\x01"),
    ("THREE 1S", S_ONES, b"\x00\x01"),
    ("PYRAMID SPOTS", S_SPOTS, b"\x00\x01"),
    ("SHAKE SENSE", S_SENS, b"\x01\x02\x03\x04\x05"),
    ("ODDS HINT", S_ODDS, b"\x01\x00"),
    ("DIM AFTER", S_DIM, b"\x01\x03\x06\x00"),
    ("SCREEN OFF", S_OFF, b"\x01\x02\x05\x00"),
    ("DEEP SLEEP", S_SLEEP, b"\x05\x0a\x1e\x00"),
)
_ROWS = 6


def value_text(idx, v):
    if idx == S_SOUND or idx == S_ODDS or idx == S_SPOTS:
        return "ON" if v else "OFF"
    if idx == S_CONTRAST:
        return "%d%%" % ((v * 100 + 127) // 255)
    if idx == S_SCHEDULE:
        return "LOCKSTEP" if v else "RELAY"
    if idx == S_ONES:
        return "1000" if v else "300"
    if idx == S_SENS:
        return "%d (5=LIGHT)" % v  # which way is more sensitive
    if v == 0:
        return "NEVER"
    if idx == S_DIM:
        return "%dS" % (v * 10)
    return "%d MIN" % v


class Settings(Screen):
    NAME = "settings"

    def __init__(self, app):
        Screen.__init__(self, app)
        self.cur = 0
        self.top = 0
        self.vals = []
        self._texts()

    def _texts(self):
        s = self.app.settings
        self.vals = [value_text(ln[1], s[ln[1]]) for ln in _LINES]

    def on_key(self, k):
        n = len(_LINES) + 1  # the last line is DONE
        if k == NEXT:
            self.cur = (self.cur + 1) % n
        elif k == PREV:
            self.cur = (self.cur - 1) % n
        elif k == BACK or (k == OK and self.cur == n - 1):
            app = self.app
            app.store.save_settings(app.settings)
            app.menu()
            return
        elif k == OK:
            self._change(self.cur)
        else:
            return
        if self.cur < self.top:
            self.top = self.cur
        elif self.cur >= self.top + _ROWS:
            self.top = self.cur - _ROWS + 1
        self.app.play_select()
        self.dirty = True

    def _change(self, i):
        _label, idx, cycle = _LINES[i]
        s = self.app.settings
        v = s[idx]
        j = 0
        for k in range(len(cycle)):
            if cycle[k] == v:
                j = k + 1
                break
        s[idx] = cycle[j % len(cycle)]
        self.app.apply_settings()
        self._texts()

    def draw(self, fb):
        gfx.banner(fb, "SETTINGS", 0, gfx.SMALL)
        y = 12
        n = len(_LINES)
        for i in range(self.top, min(self.top + _ROWS, n + 1)):
            sel = i == self.cur
            if sel:
                fb.fill_rect(0, y - 1, 128, 7, 1)
            c = 0 if sel else 1
            if i == n:
                gfx.center(fb, "DONE", y, c)
                gfx.right(fb, "V" + VERSION, 124, y, c)  # the About line
            else:
                gfx.text(fb, _LINES[i][0], 2, y, c)
                gfx.right(fb, self.vals[i], 124, y, c)  # 2 px clear of the scroll bar
            y += 8
        i = self.cur
        if i < n and S_SCHEDULE <= _LINES[i][1] <= S_SPOTS:
            # A game keeps the rules it started with (they are in its save).
            gfx.center(fb, "APPLIES TO NEW GAMES", 59)
        # Scroll position at the right, inside the panel's 1-px margin.
        h = 48 * _ROWS // (n + 1)
        fb.vline(126, 11 + (48 - h) * self.top // (n + 1 - _ROWS), h, 1)
