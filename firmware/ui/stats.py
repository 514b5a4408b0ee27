"""Stats screen: games played, wins per seat colour (the device knows seats, not
people), best Frenzy round and total; MENU, or RESET (asks first: NO, YES)."""
from core.games import ST_FF_BEST, ST_FF_GAMES, ST_FF_HIGH, ST_FF_WINS, ST_SU_GAMES, ST_SU_WINS
from ui import gfx
from ui.screens import BACK, INITIALS, NEXT, OK, PREV, Screen


def _stat(ba, i):
    o = i * 4
    if o + 4 > len(ba):
        return 0
    return ba[o] | ba[o + 1] << 8 | ba[o + 2] << 16 | ba[o + 3] << 24


def _games(name, n):
    return "%s: %d GAME%s" % (name, n, "" if n == 1 else "S")


class Stats(Screen):
    NAME = "stats"

    def __init__(self, app):
        Screen.__init__(self, app)
        self.cur = 0  # MENU, RESET
        self.ask = False  # "RESET ALL STATS?" with NO (first) and YES
        self.yes = 0
        self._lines()

    def _lines(self):
        st = self.app.store.load_stats()
        self.lines = (
            _games("SHAKE UP", _stat(st, ST_SU_GAMES)),
            self._wins(st, ST_SU_WINS),
            _games("FRENZY", _stat(st, ST_FF_GAMES)),
            self._wins(st, ST_FF_WINS),
            "BEST ROUND %d" % _stat(st, ST_FF_BEST),
            "BEST TOTAL %d" % _stat(st, ST_FF_HIGH),
        )

    def _wins(self, st, base):
        return "WINS " + " ".join("%s %d" % (INITIALS[s], _stat(st, base + s)) for s in range(4))

    def on_key(self, k):
        app = self.app
        if k == PREV or k == NEXT:
            if self.ask:
                self.yes ^= 1
            else:
                self.cur ^= 1
            app.play_select()
        elif self.ask and (k == OK or k == BACK):
            self.ask = False
            if k == OK and self.yes:
                st = app.store.load_stats()
                st[:] = bytes(len(st))
                app.store.save_stats(st)
                self._lines()
        elif k == OK and self.cur:
            self.ask = True
            self.yes = 0
        elif k == OK or k == BACK:
            app.menu()
            return
        self.dirty = True

    def draw(self, fb):
        if self.ask:
            gfx.banner(fb, "RESET STATS?", 0)
            gfx.center(fb, "ALL GAMES AND WINS", 20)
            gfx.center(fb, "GO BACK TO 0.", 28)
            x = 36
            for i in range(2):
                s = "YES" if i else "NO"
                w = _choice(fb, s, x, 44, i == self.yes)
                x += w + 21
            return
        gfx.banner(fb, "STATS BY SEAT COLOUR", 0, gfx.SMALL)
        y = 11
        for i in range(len(self.lines)):
            if i == 2 or i == 4:
                y += 2
            gfx.text(fb, self.lines[i], 2, y)
            y += 7
        x = 2
        for i in range(2):
            x += _choice(fb, "RESET" if i else "MENU", x, 56, i == self.cur, gfx.SMALL) + 6


def _choice(fb, s, x, y, cur, f=gfx.MEDIUM):
    """A choice: inverted under the cursor, plain otherwise -> its width."""
    if cur:
        return gfx.label(fb, s, x, y, f)
    gfx.text(fb, s, x + 1, y + 1, 1, f)
    return gfx.width(s, f) + 2
