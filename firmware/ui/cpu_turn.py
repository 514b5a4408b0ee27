"""CPU players on screen: a CPU seat's turn, played through the game screen.

Loaded only for a game with a CPU seat (app.cpu_turn() makes the one CpuTurn, kept as
app.cpu) and forgotten with the game. While a CPU decides, the game screen
hands each frame's events to `tick(scr, q)` instead of acting on them itself.

A turn is shown as a person would play it, one visible step at a time: the CPU thinks
with its core module's think(), then sets aside or selects the dice one by one, says
what it does in a short line (the app's notice: "KEEPS 6 6", "MOVES UP FROM LEVEL 2",
"STOPS WITH 650", ...) and makes the decision through the screen's own code: its
dice are shaken with app.start_roll() (the same tumble, rattle and dice source as a
human's shake), its choices applied by the screen's decision functions (so they are
saved, sounded and shown as a human's). Those steps are each game's own:
show(turn, scr) in ui.shakeup_cpu and ui.frenzy_cpu, loaded with the game's CPU module
(so a game loads only its own).
OK or a shake does the next step at once; BACK leaves to the menu (the game is saved
as it stands; Continue thinks the step again: a decision depends on the game only).

Thinking and showing are paced apart. Thinking spends a share of each frame: think()'s
bounded steps until _THINK_MS of the app's clock (ticks_ms and ticks_diff, passed in
by the app: no clock in ui or core) are used, one step only in a frame that redraws. What is shown
keeps its own pace: the dice or the choices on screen at least _LOOK_MS before the
first pick however soon the decision is ready, then the picks and the line at their
times. Shake Up's turn DP tables (NORMAL and HARD need them, once per game) are made
ahead, in the waits of the CPU's turn (its first shake's line to read), so that its
first decision thinks no longer than any other.

The CPU reads the core Game as the screen holds it; what each core module reads of it
(only what a human in its seat could see) is described there.
"""
from core.games import SHAKEUP
from hal.events import SHAKE_START
from ui.screens import BACK, OK, key

from micropython import const

PICK_MS = const(350)   # between the dice it sets aside or selects, one by one
# A line stays READ_MS plus READ_CHAR_MS a character (at least 1.5 s: "ROLLS 4 DICE"
# 1.66 s, "KNOCKS YELLOW DOWN FROM 3" 2.05 s) before the next replaces it.
READ_MS = const(1300)
READ_CHAR_MS = const(30)
ACK_MS = const(1600)   # a CPU's result, move or Farkle on screen before play goes on
_LOOK_MS = const(700)   # the dice or choices on screen before the first pick
# Thinking's share of a 33 ms frame: the steps start while less than this is used, and
# a step takes at most ~7 ms on an ESP32 (tools/cpu/cpu_report.py --part time), so a frame
# that thinks (drawing nothing: ~3 ms) stays under 12 + 7 + 3 = 22 ms, with room for a
# collection. A decision of 420 ms (HARD after shake 1, at the slow bound) takes 35
# frames, 1.2 s; the host does it in the first frame.
_THINK_MS = const(12)
_END = const(-1)        # _work(): the generator ended without a value


class CpuTurn:
    def __init__(self, app, clock, diff):
        """clock() -> ms and diff(a, b) -> a - b in ms: the app's ticks_ms and
        ticks_diff, for thinking's share of a frame."""
        self.app = app
        self.clock = clock
        self.diff = diff
        self.scr = None
        self.show = None  # the step-by-step show of the decision under way
        self.due = app.now
        self.table = None  # the opened table file (HARD), while the game lasts
        self.mod = None  # the game's CPU module: load()
        self.shows = None  # its show(turn, scr): ui.shakeup_cpu's or ui.frenzy_cpu's
        self.ahead = None  # Shake Up's tables in the making (cpu_shakeup.prepare())
        self.said = app.now  # when its last line was said (say()), and how long it
        self.need = 0  # is to be read

    def close(self):
        self.ahead = None
        t = self.table
        self.table = None
        if t is not None:
            try:
                t.close()
            except OSError:
                pass

    def tick(self, scr, q):
        """One frame of a CPU's part on screen scr (the game screen)."""
        app = self.app
        pw = app.power
        if pw is not None:
            pw.activity(app.now)  # the human's prompt dims counting from its turn
        fast = False
        buf = q.buf
        for i in range(q.n):
            ev = buf[i]
            k = key(ev)
            if k == BACK:
                self.show = None
                scr.leave()  # as a human's BACK: saved with this view, to the menu
                return
            if k == OK or ev & 0xF0 == SHAKE_START:
                fast = True
        if app.warned:
            return  # a warning is read first (app.warned): the CPU waits
        if self.scr is not scr or self.show is None:
            self.scr = scr
            if self.mod is None:
                self.load(scr)
            self.show = self.shows(self, scr)  # pyright: ignore[reportOptionalCall]
            self.due = app.now
        if fast:
            self.due = app.now
            self.need = 0  # the line read: the next may replace it at once
        if app.elapsed(self.due) < 0:
            a = self.ahead  # a wait: the time to make the tables ahead
            if a is not None and self._work(a, scr.dirty) is not None:
                self.ahead = None
            return
        try:
            ms = next(self.show)
        except StopIteration:
            self.show = None
            return
        self.due = app.now + ms

    # ---- thinking --------------------------------------------------------------------

    def load(self, scr):
        """The game's CPU module (returned) and the show of its turns on the game's
        screen scr; with a NORMAL or HARD CPU in Shake Up its tables are then made in
        the waits ahead (Frenzy's: its tables' module). The app loads them once a
        game's first frame is sent."""
        if scr.KIND == SHAKEUP:
            import core.cpu_shakeup as mod
            from ui.shakeup_cpu import show
            for c in self.app.cpus:
                if c >= 2:
                    self.ahead = mod.prepare()
                    break
        else:
            import core.cpu_frenzy as mod  # pyright: ignore[reportMissingImports]
            from ui.frenzy_cpu import ahead, show
            self.ahead = ahead()
        self.mod = mod
        self.shows = show
        return mod

    def _work(self, it, dirty):
        """One frame's share of thinking on generator it (think() or prepare()), one
        step when the frame redraws (dirty): returns its first value that is not None,
        _END at its end, or None when the share is used (on in the next frame)."""
        clock = self.clock
        diff = self.diff
        t0 = clock()
        while True:
            try:
                d = next(it)
            except StopIteration:
                return _END
            if d is not None:
                return d
            if dirty or diff(clock(), t0) >= _THINK_MS:
                return None

    def think(self, scr, look=True):
        """The CPU's decision for g.player: yields 0 (think on in the next frame), then
        (look) the ms still to wait until _LOOK_MS have passed since it began; returns
        the decision (`d = yield from turn.think(scr)`)."""
        app = self.app
        t0 = app.now
        g = scr.game
        mod = self.mod or self.load(scr)  # (loaded by tick())
        a = self.ahead  # the rest of the tables first
        self.ahead = None
        if a is not None:
            yield from self._run(a, scr)
        while True:
            # Whatever goes wrong in the thinking (a missing or damaged table, a bug)
            # the seat plays a level lower for the rest of the game (HARD as NORMAL),
            # said once (ui.cpu_fault, loaded only then), and the game goes on.
            skill = app.cpus[g.player] - 1
            try:
                if skill == 2 and self.table is None:
                    self.table = mod.open_table()  # None: missing or damaged (core.data)
                    app.forget(("core.data", "core.data_check"))  # the check's code
                    if self.table is None:
                        raise ValueError("HARD table: missing or damaged")
                d = yield from self._run(mod.think(g, skill, rng=app.source,
                                                   table=self.table), scr)
                if d != _END:
                    break
                raise ValueError("the CPU made no decision")
            except MemoryError:
                raise  # short of heap is no bug of the CPU's: the crash guard's
            except Exception as e:
                from ui.cpu_fault import fallback
                fallback(self, scr, skill, e)
        left = _LOOK_MS - app.elapsed(t0)
        if left > 0 and look:
            yield left  # what it decided on stays on screen a moment first
        return d

    def _run(self, it, scr):
        # Generator it's first value that is not None (or _END), a frame's share at a
        # time: yields 0 while it thinks on in the next frame.
        d = None
        while d is None:
            d = self._work(it, scr.dirty)
            if d is None:
                yield 0
        return d

    def shake(self, scr, line):
        """Say what it rolls, then shake: the tumble and the dice as a human's."""
        yield from self.say(line)
        scr.rolling = True
        self.app.start_roll()

    def say(self, line, read=True):
        """Say line once the last line had its time to be read (OK or a shake cuts
        it short: tick()), then (read) wait while it is read, before the step it
        announces; `yield from turn.say(line)`."""
        left = self.need - self.app.elapsed(self.said)
        if left > 0:
            yield left
        self.app.say(line)
        self.said = self.app.now
        self.need = READ_MS + READ_CHAR_MS * len(line)
        if read:
            yield self.need

    # ---- the lines it says ------------------------------------------------------------

    def rolls(self, n):
        """"ROLLS 3 DICE", "ROLLS 1 DIE"."""
        return "ROLLS %d DICE" % n if n > 1 else "ROLLS 1 DIE"

    def keeps(self, dice, mask, n=4, extra=0):
        """"KEEPS 6 6 2": the values of the dice in mask (and extra, unless 0), highest
        first."""
        t = "KEEPS"
        for v in range(6, 0, -1):
            for i in range(n):
                if mask >> i & 1 and dice[i] == v:
                    t += " %d" % v
            if extra == v:
                t += " %d" % v
        return t
