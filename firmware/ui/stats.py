"""Stats screen: games played, wins per colour, best Frenzy round and total."""
from core.games import ST_FF_BEST, ST_FF_GAMES, ST_FF_HIGH, ST_FF_WINS, ST_SU_GAMES, ST_SU_WINS
from ui import gfx
from ui.screens import BACK, INITIALS, OK, Screen


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
