"""The menu level: splash, main menu, setup, and the menu's actions.

Loaded only while the menu is up: starting or continuing a game forgets this module
(its code does not keep heap while a game runs; app._go() and ui.launch start the
game) and app.menu() imports it again. The games offered are core.games' rows.
"""
from core.games import FEWEST, FRENZY, GAMES_TABLE, KIND, MOST, SHAKEUP, TITLE
from store import S_SCHEDULE, S_SETUP
from ui import gfx
from ui.gfx import DIE_L
from ui.screens import BACK, COLOURS, DIRTY_CURSOR, DIRTY_PICK, INITIALS, NEXT, OK, PREV, \
    Screen, key, mark
from ui.sounds import NOPE

try:
    from micropython import const
except ImportError:
    def const(x):
        return x


class Splash(Screen):
    """Title for a moment (or until a key)."""
    NAME = "splash"
    MS = 1200

    def __init__(self, app):
        Screen.__init__(self, app)
        self.t0 = app.now

    def update(self, q):
        app = self.app
        for i in range(q.n):
            if key(q.buf[i]) >= 0:
                app.menu()
                return
        if app.elapsed(self.t0) >= self.MS:
            app.menu()

    def draw(self, fb):
        gfx.center(fb, "POCKET", 4, 1, gfx.MEDIUM, 2)
        gfx.center(fb, "DICE", 22, 1, gfx.MEDIUM, 2)
        for i in range(4):
            gfx.die(fb, 22 + i * 22, 42, (3, 1, 6, 5)[i], DIE_L, i == 1)


def saved(kind, b):
    """What the saved game is, in two lines: the game and its round (Frenzy) or its
    leader (Shake Up); whose turn it is. Read from the game's bytes at the offsets
    of core.frenzy's and core.shakeup's to_bytes() (host_tests check they agree),
    so the menu loads no game module. ("", "") for bytes too short."""
    if kind == FRENZY and len(b) > 9:
        return "FRENZY, ROUND %d" % (b[4] << 8 | b[5]), COLOURS[b[9] & 3] + "'S TURN"
    if kind == SHAKEUP and len(b) >= 36:
        n = b[1] if b[1] <= 4 else 4
        if not b[3]:
            first = "SHAKE UP, ROLL-OFF"
        else:
            # The most SAFE pawns (level 4 of seat s at 20 + 4 s + 3).
            top = 0
            for s in range(1, n):
                if b[23 + 4 * s] > b[23 + 4 * top]:
                    top = s
            k = b[23 + 4 * top]
            lead = 0
            for s in range(n):
                lead += b[23 + 4 * s] == k
            first = "SHAKE UP, NO PAWN SAFE" if not k else \
                "SHAKE UP, TIED AT %d SAFE" % k if lead > 1 else \
                "SHAKE UP, %s LEADS: %d SAFE" % (COLOURS[top], k)
        return first, COLOURS[b[4] & 3] + "'S TURN"
    return "", ""


class Menu(Screen):
    """Main menu. Items are built on enter (Continue only with a saved game, whose
    game, round or leader and turn the top shows while the cursor is on it).

    A new game over a saved one asks first: `ask` holds the chosen item while the
    menu shows "REPLACE SAVED GAME?" with NO (the cursor starts there) and YES."""
    NAME = "menu"

    def __init__(self, app):
        Screen.__init__(self, app)
        self.items = []
        self.cur = 0
        self.batt = ""  # battery percent, read when the menu opens
        self.ask = None
        self.yes = 0
        self.cont = ("", "")  # saved(): the saved game in two lines

    def enter(self):
        app = self.app
        app.first = 0  # a game set up here starts with RED (a rematch moves it on)
        items = []
        self.cont = ("", "")
        try:
            got = app.saved()  # (a damaged save is set aside by the load: None)
            if got is not None:
                self.cont = saved(got[0], got[1])
        except MemoryError:  # no room to read it here: CONTINUE says the rest
            got = True
        if got is not None:
            items.append("CONTINUE")
        for row in GAMES_TABLE:
            items.append(row[TITLE])
        items.append("SETTINGS")
        items.append("HOW TO PLAY")
        items.append("STATS")
        # The cursor stays on the same item; a game just left (CONTINUE appeared)
        # puts it on CONTINUE, so OK, OK there does not start a new game over it.
        old = self.items
        prev = old[self.cur] if self.cur < len(old) else None
        self.cur = 0
        if items[0] != "CONTINUE" or "CONTINUE" in old:
            for i in range(len(items)):
                if items[i] == prev:
                    self.cur = i
        self.items = items
        self.ask = None
        self.batt = ""
        b = getattr(app.dev, "battery", None)
        if b is not None:
            try:
                self.batt = "%d%%" % b.percent()
            except (OSError, ValueError):
                pass
        self.dirty = True

    def on_key(self, k):
        n = len(self.items)
        it = self.ask
        if it is not None:
            if k == PREV or k == NEXT:
                self.yes ^= 1
            elif k == OK or k == BACK:
                self.ask = None
                if k == OK and self.yes:
                    choose(self.app, it)
                    return
            else:
                return
        elif k == NEXT:
            self.cur = (self.cur + 1) % n
        elif k == PREV:
            self.cur = (self.cur - 1) % n
        elif k == OK:
            it = self.items[self.cur]
            if self.items[0] == "CONTINUE" and _game(it) is not None:
                self.ask = it  # a game is saved: do not replace it by accident
                self.yes = 0
            else:
                choose(self.app, it)
                return
        else:
            return
        self.app.play_select()
        self.dirty = True

    def draw(self, fb):
        if self.ask is not None:
            # As the Frenzy "STOP?" warning: the question, NO and YES.
            gfx.banner(fb, self.ask, 0)
            gfx.center(fb, "REPLACE SAVED GAME?", 22, 1, gfx.MEDIUM)
            x = 36
            for i in range(2):
                s = "YES" if i else "NO"
                if i == self.yes:
                    w = gfx.label(fb, s, x, 44, gfx.MEDIUM)
                else:
                    w = gfx.width(s, gfx.MEDIUM) + 2
                    gfx.text(fb, s, x + 1, 45, 1, gfx.MEDIUM)
                x += w + 21
            return
        if self.items[self.cur] == "CONTINUE" and self.cont[0]:
            # The saved game: what it is and whose turn, where the title was.
            gfx.banner(fb, self.cont[0], 0, gfx.SMALL, 8)
            gfx.banner(fb, self.cont[1], 8, gfx.SMALL, 7)
        else:
            gfx.banner(fb, "POCKET DICE", 0)
            if self.batt:
                gfx.right(fb, self.batt, 127, 3, 0)
        y = 17  # each item within one 8-pixel page: a cursor move sends 2 pages
        for i in range(len(self.items)):
            if i == self.cur:
                gfx.arrow(fb, 4, y)
                gfx.label(fb, self.items[i], 10, y - 1)
            else:
                gfx.text(fb, self.items[i], 11, y)
            y += 8


# Setup: what a seat is (its code in the settings, see store.S_SETUP).
SEAT_NAMES = ("HUMAN", "CPU EASY", "CPU NORMAL", "CPU HARD")
# Setup rows: PLAYERS, the seats, (Frenzy) the turns' schedule, START.
R_PLAYERS = const(0)
R_SEAT = const(1)  # + seat


class Setup(Screen):
    """A game's setup: the number of players, what each seat is (HUMAN or a CPU and its
    level), for Frenzy its schedule (Relay or Lockstep, the Settings' FRENZY TURNS),
    then START. PREV/NEXT move over the rows, OK changes the row (or starts): three
    buttons do it all. The cursor starts on START, so the last setup (offered again
    from the settings) is one press away. At least one seat stays HUMAN. Without the
    game's HARD table (data/) a CPU is EASY or NORMAL only."""
    NAME = "setup"

    def __init__(self, app, row):
        Screen.__init__(self, app)
        self.kind = k = row[KIND]
        self.lo = row[FEWEST]
        self.hi = row[MOST]
        self.title = row[TITLE]
        s = app.settings
        self.at = S_SETUP + (k - 1) * 2
        self.n = min(max(s[self.at], self.lo), self.hi)
        b = s[self.at + 1]
        self.seats = bytearray(b >> 2 * i & 3 for i in range(4))
        for i in range(4):
            if self.seats[i] == 3:
                from core.data import has_hard
                if not has_hard(k):
                    self.seats[i] = 2  # HARD without its table: NORMAL
        if not self._humans():
            self.seats[0] = 0
        self.cur = self.start_row()
        # draw(): DIRTY_CURSOR, the cursor's row on the panel; DIRTY_PICK, the first
        # row the players' number moved (one name for both: no new qstr).
        self.shown = self.cur

    def _humans(self):
        h = 0
        for i in range(self.n):
            if not self.seats[i]:
                h += 1
        return h

    def mode_row(self):
        """The schedule's row (Frenzy), else -1."""
        return self.n + 1 if self.kind == FRENZY else -1

    def start_row(self):
        return self.n + (2 if self.kind == FRENZY else 1)

    def on_key(self, k):
        app = self.app
        c = self.cur
        last = self.start_row()
        m = 0
        if k == NEXT:
            self.cur = c + 1 if c < last else 0
        elif k == PREV:
            self.cur = c - 1 if c > 0 else last
        elif k == BACK:
            app.menu()
            return
        elif k == OK:
            if c == last:
                self._start()
                return
            if c == R_PLAYERS:
                was = self.n
                # A seat added: the rows from it move; back to the fewest (where
                # seat 1 may turn HUMAN): every seat's row.
                m = R_SEAT + was if was < self.hi else R_SEAT
                self.n = was + 1 if was < self.hi else self.lo
                if not self._humans():
                    self.seats[0] = 0
                self.cur = R_PLAYERS
            elif c == self.mode_row():
                app.settings[S_SCHEDULE] ^= 1
            else:
                i = c - R_SEAT
                was = self.seats[i]
                nxt = (was + 1) & 3
                if nxt == 3:
                    from core.data import has_hard
                    if not has_hard(self.kind):
                        nxt = 0  # HARD without its table is not offered
                self.seats[i] = nxt
                if not self._humans():
                    # The one human left: a CPU seat only once another is human.
                    self.seats[i] = was
                    app.play(NOPE)
                    app.say("ONE PLAYER MUST BE HUMAN")
                    return
        else:
            return
        app.play_select()
        # The cursor moved or one row's value changed: draw() redraws the row the
        # cursor was on when the panel was last drawn and the one it is on now
        # (DIRTY_CURSOR); the players' number, PLAYERS and the rows from the first
        # that moved (DIRTY_PICK; two presses in a frame: every seat's row).
        d = self.dirty
        if not d:
            self.shown = m or c
        elif m:
            self.shown = R_SEAT
        self.dirty = mark(d, DIRTY_PICK if m else DIRTY_CURSOR)

    def _start(self):
        """Keep this setup (offered again next time), then start (see app._go())."""
        app = self.app
        s = app.settings
        b = 0
        for i in range(4):
            b |= self.seats[i] << 2 * i
        s[self.at] = self.n
        s[self.at + 1] = b
        app.store.save_settings(s)
        app.go = self.kind << 4 | self.n

    def draw(self, fb):
        c = self.cur
        mode = self.mode_row()
        last = self.start_row()
        # DIRTY_CURSOR (on_key): over the last frame, the row the cursor was on and
        # the one it is on are erased and drawn again, and the hint's line.
        # DIRTY_PICK (OK on PLAYERS, the cursor stays there): that row, and the rows
        # from the first that moved down to the hint's line (about half the text of
        # a full draw: README "Frame time on the device").
        d = self.dirty
        was = self.shown if d == DIRTY_CURSOR else -1
        moved = self.shown if d == DIRTY_PICK else 0
        if was >= 0:
            fb.fill_rect(0, 9 + 7 * was, 128, 7, 0)
            fb.fill_rect(0, 9 + 7 * c, 128, 7, 0)
            fb.fill_rect(0, 58, 128, 6, 0)
        elif moved:
            fb.fill_rect(0, 9, 128, 7, 0)
            fb.fill_rect(0, 9 + 7 * moved, 128, 49 - 7 * moved, 0)
        else:
            gfx.banner(fb, self.title, 0, gfx.SMALL)
        y = 3
        for r in range(last + 1):
            y += 7
            if was >= 0 and r != was and r != c or R_PLAYERS < r < moved:
                continue
            if r == R_PLAYERS:
                name = "PLAYERS"
                val = "1234"[self.n - 1:self.n] + (" SOLO" if self.n == 1 else "")
            elif r == mode:
                name = "TURNS"
                val = "LOCKSTEP" if self.app.settings[S_SCHEDULE] else "RELAY"
            elif r == last:
                name = ""
                val = "START"
            else:
                i = r - R_SEAT
                gfx.label(fb, INITIALS[i:i + 1], 7, y - 1)
                name = COLOURS[i]
                val = SEAT_NAMES[self.seats[i]]
            if name:
                gfx.text(fb, name, 15 if r != R_PLAYERS and r != mode else 7, y)
            x = 60 if name else 7
            if r == c:
                gfx.arrow(fb, 1, y)
                gfx.label(fb, val, x - 1, y - 1)
            else:
                gfx.text(fb, val, x, y)
        if c != last and not moved:
            gfx.right(fb, "OK: CHANGE", 127, 58)


# ---- menu actions (were App methods) -------------------------------------------------

_menu = None  # the Menu, kept while this module is loaded (its cursor stays put)


def show_menu(app, splash=False):
    """app.menu() (and the boot, with the splash): show the menu, and a problem the
    store found (a damaged file) as a notice."""
    global _menu
    if splash:
        scr = Splash(app)
    else:
        if _menu is None or _menu.app is not app:  # (tests run several Apps)
            _menu = Menu(app)
        scr = _menu
    app.show(scr)
    st = app.store
    if st.problem:
        app.say(st.problem)
        st.problem = None


def _game(item):
    """The core.games row of the game with this menu item, or None."""
    for row in GAMES_TABLE:
        if row[TITLE] == item:
            return row
    return None


def choose(app, item):
    row = _game(item)
    if item == "CONTINUE":
        app.go = -1  # app._go() continues it once the menu's code has returned
    elif row is not None:
        app.show(Setup(app, row))
    elif item == "SETTINGS":
        from ui.settings import Settings
        app.show(Settings(app))
    elif item == "HOW TO PLAY":
        from ui.howto import HowTo
        app.show(HowTo(app))
    elif item == "STATS":
        from ui.stats import Stats
        app.show(Stats(app))
