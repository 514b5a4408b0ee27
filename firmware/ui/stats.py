"""Stats screen: games played, wins per seat colour (the device knows seats, not
people), best Frenzy round and total (games of humans only) and the fewest rounds a
solo game took; a second page of the
games against CPUs: per game and level (the strongest CPU in the game), how many a
human won; a third of the linked games (LINK GAME, one handheld per player): how many
this handheld finished and how many its seat won. The bar: MENU, CPUS (LINK, PLAYERS:
turns to the next page), RESET (asks first: NO, YES); PREV/NEXT move along it, OK
takes it, BACK leaves."""
from core.games import ST_FF_BEST, ST_FF_GAMES, ST_FF_HIGH, ST_FF_SOLO, ST_FF_WINS, \
    ST_LINK_GAMES, ST_LINK_WINS, ST_SU_GAMES, ST_SU_WINS
from system.store import ST_CPU
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
        self.page = 0  # 0 the players' games, 1 the games against CPUs, 2 linked games
        self.cur = 0  # MENU, CPUS/LINK/PLAYERS, RESET
        self.ask = False  # "RESET STATS?" with NO (first) and YES
        self.yes = 0
        self._lines()

    def _lines(self):
        st = self.app.store.load_stats()
        self.lines = (
            _games("SHAKE UP", _stat(st, ST_SU_GAMES)),
            self._wins(st, ST_SU_WINS),
            _games("FRENZY", _stat(st, ST_FF_GAMES)),
            self._wins(st, ST_FF_WINS),
            "BEST ROUND %d  TOTAL %d" % (_stat(st, ST_FF_BEST), _stat(st, ST_FF_HIGH)),
            # Solo, the score is the rounds it takes to 10,000: the fewest.
            "SOLO BEST: %d ROUNDS" % _stat(st, ST_FF_SOLO) if _stat(st, ST_FF_SOLO)
            else "SOLO BEST: NO GAME YET",
        )
        cpu = []
        for k in range(2):
            cpu.append("SHAKE UP" if k == 0 else "FRENZY")
            for lv in range(3):
                i = ST_CPU + k * 6 + lv * 2
                cpu.append("%s: WON %d OF %d" % (_LEVELS[lv], _stat(st, i + 1), _stat(st, i)))
        self.cpu_lines = cpu
        self.link_lines = (_games("FRENZY", _stat(st, ST_LINK_GAMES)),
                           "THIS HANDHELD WON %d" % _stat(st, ST_LINK_WINS))

    def _wins(self, st, base):
        return "WINS " + " ".join("%s %d" % (INITIALS[s], _stat(st, base + s)) for s in range(4))

    def on_key(self, k):
        app = self.app
        if k == PREV or k == NEXT:
            if self.ask:
                self.yes ^= 1
            else:
                self.cur = (self.cur + (1 if k == NEXT else 2)) % 3
            app.play_select()
        elif self.ask and (k == OK or k == BACK):
            self.ask = False
            if k == OK and self.yes:
                st = app.store.load_stats()
                st[:] = bytes(len(st))
                app.store.save_stats(st)
                self._lines()
        elif k == OK and self.cur == 1:
            self.page = (self.page + 1) % 3
            app.play_select()
        elif k == OK and self.cur == 2:
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
        if self.page == 2:
            gfx.banner(fb, "LINKED GAMES", 0, gfx.SMALL)
            gfx.text(fb, self.link_lines[0], 2, 11)
            gfx.text(fb, self.link_lines[1], 2, 18)
            gfx.text(fb, "ONE HANDHELD PER PLAYER", 2, 32)
        elif self.page:
            gfx.banner(fb, "AGAINST CPUS", 0, gfx.SMALL)
            y = 9
            for i in range(len(self.cpu_lines)):
                gfx.text(fb, self.cpu_lines[i], 2 if i % 4 == 0 else 10, y)
                y += 6
        else:
            gfx.banner(fb, "STATS BY SEAT COLOUR", 0, gfx.SMALL)
            y = 11
            for i in range(len(self.lines)):
                if i == 2 or i == 4:
                    y += 2
                gfx.text(fb, self.lines[i], 2, y)
                y += 7
        x = 2
        for i in range(3):
            s = "MENU" if i == 0 else "RESET" if i == 2 else ("CPUS", "LINK", "PLAYERS")[self.page]
            x += _choice(fb, s, x, 57 if self.page == 1 else 56, i == self.cur, gfx.SMALL) + 6


def _choice(fb, s, x, y, cur, f=gfx.MEDIUM):
    """A choice: inverted under the cursor, plain otherwise -> its width."""
    if cur:
        return gfx.label(fb, s, x, y, f)
    gfx.text(fb, s, x + 1, y + 1, 1, f)
    return gfx.width(s, f) + 2
