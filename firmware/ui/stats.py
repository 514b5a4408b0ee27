"""Stats screen: games played, wins per colour, best Frenzy round and total."""
from ui import gfx
from ui.screens import BACK, INITIALS, OK, Screen

# store.ST_* counters (4-byte little-endian each); the ui does not import store.
_SU_GAMES = 0
_FF_GAMES = 1
_SU_WINS = 2
_FF_WINS = 6
_FF_BEST = 10
_FF_HIGH = 11


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
        st = app.store.load_stats()
        self.lines = (
            _games("SHAKE UP", _stat(st, _SU_GAMES)),
            self._wins(st, _SU_WINS),
            _games("FRENZY", _stat(st, _FF_GAMES)),
            self._wins(st, _FF_WINS),
            "BEST ROUND %d" % _stat(st, _FF_BEST),
            "BEST TOTAL %d" % _stat(st, _FF_HIGH),
        )

    def _wins(self, st, base):
        return "WINS " + " ".join("%s %d" % (INITIALS[s], _stat(st, base + s)) for s in range(4))

    def on_key(self, k):
        if k == OK or k == BACK:
            self.app.menu()

    def draw(self, fb):
        gfx.banner(fb, "STATS", 0, gfx.SMALL)
        y = 12
        for i in range(len(self.lines)):
            if i == 2 or i == 4:
                y += 2
            gfx.text(fb, self.lines[i], 2, y)
            y += 8
