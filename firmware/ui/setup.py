"""A game's setup screen, between the menu and the game: opened from the menu
(ui.menu.choose), forgotten with the menu's other screens (app's _MENU_SCREENS) when
the game starts or the menu comes back, so the menu itself holds less code: leaving a
game for the menu imports less before its first frame."""
from core.games import FEWEST, FRENZY, KIND, MOST, TITLE
from system.store import S_SCHEDULE, S_SETUP
from ui import gfx
from ui.screens import BACK, COLOURS, DIRTY_CURSOR, DIRTY_PICK, INITIALS, NEXT, OK, PREV, \
    Screen, mark
from ui.sounds import NOPE

from micropython import const


# Setup: what a seat is (its code in the settings, see store.S_SETUP), and what each
# is like, on the seat's choice list.
SEAT_NAMES = ("HUMAN", "CPU EASY", "CPU NORMAL", "CPU HARD")
SEAT_NOTES = ("A PLAYER HERE", "FIRST GAMES", "PLAYS WELL", "PLAYS ITS BEST")
# Setup rows: PLAYERS, the seats, (Frenzy) the turns' schedule, START.
R_PLAYERS = const(0)
R_SEAT = const(1)  # + seat


class Setup(Screen):
    """A game's setup: the number of players, what each seat is (HUMAN or a CPU and its
    level), for Frenzy its schedule (Relay or Lockstep, the Settings' FRENZY TURNS),
    then START. PREV/NEXT move over the rows, OK changes the row (or starts): three
    buttons do it all. OK on a seat opens its choices, all in view (`pick`, the
    seat: HUMAN, CPU EASY, NORMAL, HARD, each with a word on what it is like; the
    cursor on the seat's own), PREV/NEXT move, OK takes one, BACK keeps the seat as
    it was. The cursor starts on START, so the last setup (offered again from the
    settings) is one press away. At least one seat stays HUMAN. Without the game's
    HARD table (data/) a CPU is EASY or NORMAL only."""
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
        self.pick = -1  # the seat whose choices are open, else -1
        self.pcur = 0  # the choice under the cursor there (a seat's code)
        self.offer = 3  # how many choices it offers (HARD: 4, with its table)
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

    def _pick_key(self, k):
        """A key on a seat's choices."""
        app = self.app
        n = self.offer
        if k == NEXT or k == PREV:
            # The rows the cursor left and reached alone (draw(): DIRTY_CURSOR).
            d = self.dirty
            if not d:
                self.shown = self.pcur
            self.pcur = (self.pcur + (1 if k == NEXT else n - 1)) % n
            app.play_select()
            self.dirty = mark(d, DIRTY_CURSOR)
            return
        elif k == BACK:
            self.pick = -1
        elif k == OK:
            i = self.pick
            was = self.seats[i]
            self.seats[i] = self.pcur
            if not self._humans():
                # The one human left: a CPU seat only once another is human.
                self.seats[i] = was
                app.play(NOPE)
                app.say("ONE PLAYER MUST BE HUMAN")
                return
            self.pick = -1
        else:
            return
        app.play_select()
        self.dirty = True

    def on_key(self, k):
        app = self.app
        if self.pick >= 0:
            self._pick_key(k)
            return
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
                self.pick = i = c - R_SEAT  # the seat's choices (_pick_key)
                self.pcur = self.seats[i]
                from core.data import has_hard
                self.offer = 4 if has_hard(self.kind) else 3  # HARD only with its table
                app.play_select()
                self.dirty = True
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

    def _draw_pick(self, fb):
        # A choice a display page (rows 16 + 8 code, the label's box within it): a
        # cursor move (DIRTY_CURSOR) erases and draws the two pages alone.
        if self.dirty == DIRTY_CURSOR:
            for code in (self.shown, self.pcur):
                fb.fill_rect(0, 16 + 8 * code, 128, 8, 0)
                self._pick_row(fb, code)
            return
        gfx.banner(fb, COLOURS[self.pick] + " PLAYS AS", 0, gfx.SMALL)
        for code in range(self.offer):
            self._pick_row(fb, code)
        gfx.right(fb, "OK: CHOOSE", 126, 58)

    def _pick_row(self, fb, code):
        y = 17 + 8 * code
        if code == self.pcur:
            gfx.arrow(fb, 1, y)
            gfx.label(fb, SEAT_NAMES[code], 6, y - 1)
        else:
            gfx.text(fb, SEAT_NAMES[code], 7, y)
        gfx.text(fb, SEAT_NOTES[code], 56, y)

    def draw(self, fb):
        if self.pick >= 0:
            self._draw_pick(fb)
            return
        c = self.cur
        mode = self.mode_row()
        last = self.start_row()
        # DIRTY_CURSOR (on_key): over the last frame, the row the cursor was on and
        # the one it is on are erased and drawn again, and the hint's line.
        # DIRTY_PICK (OK on PLAYERS, the cursor stays there): that row, and the rows
        # from the first that moved down to the hint's line (about half the text of
        # a full draw: docs/memory-and-speed.md "Frame time on the device").
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
            gfx.right(fb, "OK: CHANGE", 126, 58)
