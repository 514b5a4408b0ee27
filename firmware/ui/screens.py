"""The screen framework and the pass screen the games share.

A screen is a named state of the interface. The app keeps one current screen and, each
frame, calls `update(q)` with the frame's events and `draw(fb)` only when `dirty`.

Screen protocol (every screen, including the game screens):
  NAME        str, for tests and logs ("menu", "pass", "shakeup", "frenzy", ...)
  dirty       True when the screen must be redrawn; the app clears it after draw()
  enter()     called each time the screen becomes current (also when it comes back
              after the pass screen); the base marks it dirty
  update(q)   q is hal.events.Queue: events are q.buf[0:q.n], one byte each
              (kind = ev & 0xF0, button = ev & 0x0F). Act on PRESS (and REPEAT for
              PREV/NEXT). Not called while the dice tumble.
  draw(fb)    fb is already cleared to black; draw the whole screen. No allocation:
              format strings in update() when the state changes, not here.
              Game screens: with `dirty == DIRTY_DICE` (the app, a tumble's frame
              after its first) fb holds the last frame: redraw the tumbling dice
              alone (or clear fb and draw it all). A screen may set
              `dirty = DIRTY_CURSOR` when only its cursor moved: fb holds the last
              frame, draw() erases and redraws the cursor's rows alone; and
              `dirty = DIRTY_ROLL` when OK started a tumble: the dice and what a
              tumble changes (both the same pixels as a full draw:
              host_tests/test_tumble_draw.py)

Game screens (ui.shakeup_screen.ShakeUpScreen, ui.frenzy_screen.FrenzyScreen) add:
  Cls(app, game, ui=None)  game: the core Game (new or restored); ui: the bytes the
              screen last passed to app.save() (None for a new game) so Continue
              comes back to exactly the same view
  KIND        the game's kind (core.games: SHAKEUP, FRENZY)
  rolling     True while a shake would roll now (a "rolling moment"); the app only
              honours SHAKE_START/SHAKE_END then, and ignores shakes otherwise
  roll()      called by the app when a tumble ends (the shake stopped, or the OK
              tumble ran out): apply the ROLL decision now; the game draws the values
              from its own Dice (app.dice); the app plays the landing click
  tumble_mask which dice tumble on screen (bit per die; the screen sets it when
              `rolling` becomes True; purely for drawing)

App services a screen may use (firmware/app.py):
  app.now, app.frame      time (ticks_ms) and number of the current frame
  app.elapsed(t0)         ms since t0 (a past app.now), wrap-safe (ticks_diff)
  app.settings            bytearray, store.S_* indices (read live)
  app.dice                core.dice.Dice on the hardware RNG (pass to Game(...))
  app.tumbling            True while the dice tumble (draw them tumbling: use
                          app.frame for the faces; the app redraws every 2nd frame)
  app.start_roll()        OK pressed at a rolling moment: a short tumble, then roll()
  app.hand_to(seat, note=None)  the device goes to `seat`: shows "Pass to GREEN"
                          (with the note's lines: what just happened) when
                          app.passes(seat): a human seat that does not hold it while
                          two or more humans share the device (never before a CPU);
                          on OK the app returns to the calling screen (enter() runs
                          again). Returns True when the pass screen was shown.
  app.cpus, app.cpu_turn(scr, q)  the seats' codes (0 HUMAN, 1-3 a CPU's level); a
                          game screen hands a frame to the CPU while one decides
  app.holder              the seat holding the device (-1 unknown); save it in ui
  app.play(seq)           a sound effect (ui.sounds.*), silent when muted
  app.save(kind, game, ui=b"")  after every completed decision (store.save_game)
  app.finish(kind, game, best_round=0, total=0)  the game is over: stats counted,
                          save cleared (call once, when the winner is known)
  app.menu()              back to the main menu (BACK during a game does this; the
                          game stays saved and Continue resumes it); the app does it
                          when update() has returned, still in this frame
  app.say(text)           one-line notice drawn by the app over the bottom of the
                          screen for ~2.5 s (e.g. "No shake sensor: press OK to roll")
  app.sensor_missing      True when there is no working shake sensor

Helpers here: COLOURS, INITIALS, key, Screen (the base), Pass, rematch, grace and
end_choices (a game's end: REMATCH or MENU). The splash, the main
menu and the setup are in ui.menu, loaded only while the menu is up.
"""
# The event codes are hal.events' (the queue's bytes are the ui's input); the ui takes
# only these codes from hal, which the device build inlines (no run-time import).
from hal.events import BACK, NEXT, OK, PREV, PRESS, REPEAT, SHAKE_START  # noqa: F401 (ui modules import the keys from here)
from ui import gfx

from micropython import const


DIRTY_DICE = const(2)  # Screen.dirty: only the tumbling dice changed (True: all of it)
# Screen.dirty: only the cursor moved (fb holds the last frame).
DIRTY_CURSOR = const(3)
# Screen.dirty: OK started a tumble (app.start_roll): over the last frame, the dice
# and what a tumble hides or shows.
DIRTY_ROLL = const(4)
# Screen.dirty: a pick (OK on a die) changed the dice row and the lines below it, not
# the header nor Frenzy's running total; Shake Up's INFO closed to its BOARD, the
# lines below the pyramid (fb holds the last frame).
DIRTY_PICK = const(5)
COLOURS = ("RED", "GREEN", "BLUE", "YELLOW")


def mark(dirty, code):
    """Screen.dirty once `code` (a DIRTY_* partial redraw) is added to `dirty`: the code
    alone when nothing else, or the same code, is marked; else True, all of it (two
    keys in one frame: no code covers another's rows)."""
    return code if not dirty or dirty == code else True
INITIALS = "RGBY"


def key(ev):
    """The button of a PRESS/REPEAT event (REPEAT only for PREV/NEXT), else -1."""
    kind = ev & 0xF0
    b = ev & 0x0F
    if kind == PRESS:
        return b
    if kind == REPEAT and b <= NEXT:
        return b
    return -1


class Screen:
    NAME = "screen"
    rolling = False
    tumble_mask = 0
    dirty: int  # True, False or a DIRTY_* code (an annotation only: no code on the device)

    def __init__(self, app):
        self.app = app
        self.dirty = True

    def update(self, q):
        buf = q.buf
        for i in range(q.n):
            k = key(buf[i])
            if k >= 0:
                self.on_key(k)

    def enter(self, arg=None):
        """Nothing by default (app.show() marks the screen dirty); nor do on_key(k),
        draw(fb) and roll() (game screens: see the module doc): one no-op serves all."""

    on_key = draw = roll = enter

    def uncover(self, top):
        """The dirty code that draws again the rows from y top to the bottom, which a
        notice covered (app.step, when it ends): all of it, unless a screen knows
        better."""
        return True


def rematch(app, kind):
    """A new game of this kind with the same players and settings; the next seat
    starts (Frenzy's first roller; Shake Up's roll-off decides, as its rules say)."""
    app.first = (app.first + 1) % app.players
    app.go = kind << 4 | app.players  # see app._go()


def grace(app, t0, ms=600):
    """May a game's end take OK now (REMATCH or MENU)? Only ms after it was shown (a
    button mashed at the winning move is not lost on it) and ms after a key woke a
    dimmed or dark panel (app.woke: the waking key never chooses)."""
    return app.elapsed(t0) >= ms and not 0 <= app.elapsed(app.woke) < ms


def end_choices(fb, cur):
    """The bar at the end of a game: REMATCH (cur 0, where the cursor starts) and
    MENU, the one under the cursor inverted, as the games' choice bars."""
    x = 0
    for i in range(2):
        s = "MENU" if i else "REMATCH"
        if i == cur:
            w = gfx.label(fb, s, x, 55, gfx.MEDIUM)
        else:
            w = gfx.width(s, gfx.MEDIUM) + 2
            gfx.text(fb, s, x + 1, 56, 1, gfx.MEDIUM)
        x += w + 5


class Pass(Screen):
    """'Pass to GREEN' between players: OK returns to the game screen (back), BACK
    goes to the menu (the game stays saved). note: up to 3 short lines above it, what
    the last player's turn did (so the handover takes one press)."""
    NAME = "pass"

    def __init__(self, app, seat, back, note=None):
        Screen.__init__(self, app)
        self.seat = seat
        self.back = back
        self.note = note or ()

    def on_key(self, k):
        app = self.app
        if k == OK:
            app.holder = self.seat
            app.show(self.back)
        elif k == BACK:
            app.menu()

    def draw(self, fb):
        fb.fill(1)
        note = self.note
        if note:
            # What happened (white on black at the top), then the pass, smaller.
            n = min(len(note), 3)
            fb.fill_rect(0, 0, 128, 7 * n + 2, 0)
            for i in range(n):
                gfx.center(fb, note[i], 2 + 7 * i, 1)
            y = 7 * n + 5
            gfx.center(fb, "PASS TO", y, 0, gfx.MEDIUM)
            gfx.center(fb, COLOURS[self.seat], y + 11, 0, gfx.MEDIUM, 2)
        else:
            gfx.center(fb, "PASS TO", 6, 0, gfx.MEDIUM)
            gfx.center(fb, COLOURS[self.seat], 22, 0, gfx.MEDIUM, 2)
        gfx.center(fb, "OK WHEN READY", 57 if note else 52, 0)
