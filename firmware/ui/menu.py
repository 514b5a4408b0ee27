"""The menu level: splash, main menu and the menu's actions (a game's setup screen is
ui.setup, loaded when a game is chosen).

Loaded only while the menu is up: starting or continuing a game forgets this module
(its code does not keep heap while a game runs; app._go() and ui.launch start the
game) and app.menu() imports it again. The games offered are core.games' rows.
"""
from core.games import FRENZY, GAMES_TABLE, SHAKEUP, TITLE
from ui import gfx
from ui.gfx import DIE_L
from ui.screens import BACK, COLOURS, NEXT, OK, PREV, Screen, key


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
    game, round or leader and turn the top shows while the cursor is on it; without
    one, a link game saved here is CONTINUE: it opens LINK GAME's CONTINUE at once).

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
        self.link = False  # CONTINUE is a link game's (no game saved on this device)

    def enter(self):
        app = self.app
        app.first = 0  # a game set up here starts with RED (a rematch moves it on)
        items = []
        self.cont = ("", "")
        self.link = False
        try:
            got = app.saved()  # (a damaged save is set aside by the load: None)
            if got is not None:
                self.cont = saved(got[0], got[1])
            else:
                # A link game saved here (a guest or host powered off in one) is
                # CONTINUE too, when no game of this device is: LINK GAME has it always.
                b = app.store.load_link()
                if b:
                    got = self.link = True
                    self.cont = ("LINK GAME, " + ("HOST" if b[0] == 0x48 else "GUEST"),
                                 "THE OTHERS JOIN AGAIN" if b[0] == 0x48
                                 else "BACK TO YOUR SEAT")
        except MemoryError:  # no room to read it here: CONTINUE says the rest
            got = True
        if got is not None:
            items.append("CONTINUE")
        for row in GAMES_TABLE:
            items.append(row[TITLE])
        items.append("LINK GAME")  # one handheld each (ui.link_screen)
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
            if self.items[0] == "CONTINUE" and _game(it) is not None and not self.link:
                self.ask = it  # a game is saved: do not replace it by accident
                self.yes = 0
            else:
                choose(self.app, "LINK CONTINUE" if self.link and it == "CONTINUE" else it)
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
        # Six rows fit under the title: with a seventh (CONTINUE) the list scrolls.
        top = self.cur - 5 if self.cur > 5 else 0
        for i in range(top, min(len(self.items), top + 6)):
            if i == self.cur:
                gfx.arrow(fb, 4, y)
                gfx.label(fb, self.items[i], 10, y - 1)
            else:
                gfx.text(fb, self.items[i], 11, y)
            y += 8


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
        from ui.setup import Setup
        app.show(Setup(app, row))
    elif item == "LINK GAME" or item == "LINK CONTINUE":
        from ui.link_lobby import LinkMenu
        m = LinkMenu(app)
        app.show(m)
        if item == "LINK CONTINUE" and m.saved:
            m.open("CONTINUE")  # (fails: LINK GAME shows, and says why)
    elif item == "SETTINGS":
        from ui.settings import Settings
        app.show(Settings(app))
    elif item == "HOW TO PLAY":
        from ui.howto import HowTo
        app.show(HowTo(app))
    elif item == "STATS":
        from ui.stats import Stats
        app.show(Stats(app))
