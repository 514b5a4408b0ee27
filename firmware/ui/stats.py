"""Stats screen: games played, wins per colour, best Frenzy round and total (games of
humans only), then a page of the games against CPUs: per game and level (the
strongest CPU in the game), how many a human won. NEXT/PREV turn the page, OK turns
it or (on the last) leaves, BACK leaves."""
from core.games import ST_FF_BEST, ST_FF_GAMES, ST_FF_HIGH, ST_FF_WINS, ST_SU_GAMES, ST_SU_WINS
from store import ST_CPU
from ui import gfx
from ui.screens import BACK, INITIALS, NEXT, OK, PREV, Screen

_LEVELS = ("EASY", "NORMAL", "HARD")


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
        self.page = 0
        self.lines = (
            _games("SHAKE UP", _stat(st, ST_SU_GAMES)),
            self._wins(st, ST_SU_WINS),
            _games("FRENZY", _stat(st, ST_FF_GAMES)),
            self._wins(st, ST_FF_WINS),
            "BEST ROUND %d" % _stat(st, ST_FF_BEST),
            "BEST TOTAL %d" % _stat(st, ST_FF_HIGH),
        )
        cpu = []
        for k in range(2):
            cpu.append("SHAKE UP" if k == 0 else "FRENZY")
            for lv in range(3):
                i = ST_CPU + k * 6 + lv * 2
                cpu.append("%s: WON %d OF %d" % (_LEVELS[lv], _stat(st, i + 1), _stat(st, i)))
        self.cpu_lines = cpu

    def _wins(self, st, base):
        return "WINS " + " ".join("%s %d" % (INITIALS[s], _stat(st, base + s)) for s in range(4))

    def on_key(self, k):
        if k == BACK or (k == OK and self.page):
            self.app.menu()
            return
        if k == OK or k == NEXT:
            self.page = 1
        elif k == PREV:
            self.page = 0
        else:
            return
        self.app.play_select()
        self.dirty = True

    def draw(self, fb):
        if self.page:
            gfx.banner(fb, "AGAINST CPUS  2/2", 0, gfx.SMALL)
            y = 9
            for i in range(len(self.cpu_lines)):
                head = i % 4 == 0
                gfx.text(fb, self.cpu_lines[i], 2 if head else 10, y)
                y += 7 if i != 3 else 8
            return
        gfx.banner(fb, "STATS: PLAYERS ONLY  1/2", 0, gfx.SMALL)
        y = 12
        for i in range(len(self.lines)):
            if i == 2 or i == 4:
                y += 2
            gfx.text(fb, self.lines[i], 2, y)
            y += 8
