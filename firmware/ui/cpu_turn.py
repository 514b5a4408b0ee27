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
saved, sounded and shown as a human's).
OK or a shake does the next step at once; BACK leaves to the menu (the game is saved
as it stands; Continue thinks the step again: a decision depends on the game only).

Thinking and showing are paced apart. Thinking spends a share of each frame: think()'s
bounded steps until _THINK_MS of the app's clock (ticks_ms, passed in by the app: no
clock in ui or core) are used, one step only in a frame that redraws. What is shown
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
from ui.screens import BACK, COLOURS, OK, key
from ui.sounds import SELECT

try:
    from micropython import const
except ImportError:
    def const(x):
        return x

_PICK_MS = const(350)   # between the dice it sets aside or selects, one by one
_READ_MS = const(1100)  # a line to read before the decision is made
_ACK_MS = const(1600)   # a CPU's result, move or Farkle on screen before play goes on
_LOOK_MS = const(700)   # the dice or choices on screen before the first pick
# Thinking's share of a 33 ms frame: the steps start while less than this is used, and
# a step takes at most ~7 ms on an ESP32 (tools/cpu_report.py --part time), so a frame
# that thinks (drawing nothing: ~3 ms) stays under 12 + 7 + 3 = 22 ms, with room for a
# collection. A decision of 420 ms (HARD after shake 1, at the slow bound) takes 35
# frames, 1.2 s; the host does it in the first frame.
_THINK_MS = const(12)
_END = const(-1)        # _work(): the generator ended without a value
# ticks_ms() counts modulo a power of two of at least 2 ** 30 (MicroPython v1.28.0
# py/mpconfig.h:1892 MICROPY_PY_TIME_TICKS_PERIOD, extmod/modtime.c:157): a short time
# since t0 is (now - t0) & _TICKS_MASK, as ticks_diff() gives it.
_TICKS_MASK = const(0x3FFFFFFF)


class CpuTurn:
    def __init__(self, app, clock):
        """clock() -> ms: the app's ticks_ms, for thinking's share of a frame."""
        self.app = app
        self.clock = clock
        self.scr = None
        self.show = None  # the step-by-step show of the decision under way
        self.due = app.now
        self.table = None  # the opened table file (HARD), while the game lasts
        self.missing = False  # the table file is missing: HARD plays as NORMAL
        self.mod = None  # the game's CPU module, loaded at the first CPU turn
        self.ahead = None  # Shake Up's tables in the making (cpu_shakeup.prepare())

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
        if self.scr is not scr or self.show is None:
            self.scr = scr
            self.show = self._shakeup(scr) if scr.KIND == SHAKEUP else self._frenzy(scr)
            self.due = app.now
            if self.mod is None:
                self._load(scr)
        if fast:
            self.due = app.now
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

    def _load(self, scr):
        # The game's CPU module (returned); with a NORMAL or HARD CPU in Shake Up its
        # tables are then made in the waits ahead.
        if scr.KIND == SHAKEUP:
            import core.cpu_shakeup as mod
            for c in self.app.cpus:
                if c >= 2:
                    self.ahead = mod.prepare()
                    break
        else:
            import core.cpu_frenzy as mod  # pyright: ignore[reportMissingImports]
        self.mod = mod
        return mod

    def _work(self, it, dirty):
        """One frame's share of thinking on generator it (think() or prepare()), one
        step when the frame redraws (dirty): returns its first value that is not None,
        _END at its end, or None when the share is used (on in the next frame)."""
        clock = self.clock
        t0 = clock()
        while True:
            try:
                d = next(it)
            except StopIteration:
                return _END
            if d is not None:
                return d
            if dirty or (clock() - t0) & _TICKS_MASK >= _THINK_MS:
                return None

    def _think(self, scr):
        """The CPU's decision for g.player: yields 0 (think on in the next frame), then
        the ms still to wait until _LOOK_MS have passed since it began; returns the
        decision (`d = yield from self._think(scr)`)."""
        app = self.app
        t0 = app.now
        g = scr.game
        skill = app.cpus[g.player] - 1
        mod = self.mod or self._load(scr)  # (loaded by tick())
        if skill == 2 and self.table is None and not self.missing:
            try:
                self.table = mod.open_table()  # None when the file is missing
            except OSError:
                pass
            if self.table is None:
                self.missing = True  # not looked for again
                app.say("NO HARD TABLE:", "HARD PLAYS AS NORMAL")
        if skill == 2 and self.table is None:
            skill = 1  # HARD needs its table
        a = self.ahead  # the rest of the tables first
        self.ahead = None
        for it in (a, mod.think(g, skill, rng=app.source, table=self.table)):
            if it is not None:
                d = None
                while d is None:
                    d = self._work(it, scr.dirty)
                    if d is None:
                        yield 0
        if d == _END:
            raise ValueError("the CPU made no decision")
        left = _LOOK_MS - app.elapsed(t0)
        if left > 0:
            yield left  # what it decided on stays on screen a moment first
        return d

    def _shake(self, scr, line):
        """Say what it rolls, then shake: the tumble and the dice as a human's."""
        self.app.say(line)
        yield _READ_MS
        scr.rolling = True
        self.app.start_roll()

    # ---- Shake Up --------------------------------------------------------------------

    def _shakeup(self, scr):
        from core.shakeup import AGAIN, CHOOSE, PEN, SKIP, STOP, UP, classify
        from ui.shakeup_screen import BOARD, DICE, MOVE, PENALTY, ROLLOFF
        app = self.app
        g = scr.game
        if scr.ack:
            # The CPU's result or move: read, then on to what the game asks next.
            yield _ACK_MS
            scr.close_view()
            return
        v = scr.view
        if v == ROLLOFF or v == BOARD:
            yield from self._shake(scr, "ROLLS ONE DIE" if v == ROLLOFF else _rolls(4))
            return
        d = yield from self._think(scr)
        kind = d & 0xF00
        if v == DICE and g.phase == CHOOSE:
            scr.pending = p = g.held
            if kind != STOP:
                for i in range(4):  # the dice it sets aside, one by one
                    if d >> i & 1 and not p >> i & 1:
                        scr.cur = i
                        scr.pending = p = p | 1 << i
                        scr.tumble_mask = 15 & ~p
                        scr.dirty = True
                        app.play(SELECT)
                        yield _PICK_MS
            if kind == STOP:
                scr.cur = 5
                app.say("STOPS WITH " + ("NOTHING", "A PAIR", "A MOVE", "BIG!")[
                    classify(g.dice)])
            else:
                app.say(_keeps(g.dice, p) if p else "ROLLS 4 DICE")
            scr.dirty = True
            yield _READ_MS
            if kind == STOP:
                scr.roll(STOP)
            else:
                if p:
                    app.say(_rolls(4 - _bits(p)))
                scr.cur = 4
                scr.rolling = True
                app.start_roll()
            return
        if v == MOVE or v == PENALTY:
            ch = scr.choices
            if d in ch:
                scr.cur = ch.index(d)
                scr._refresh()
            a = d & 0xFF
            if kind == UP:
                t = "MOVES UP FROM LEVEL %d" % a
            elif kind == PEN:
                t = "KNOCKS %s DOWN FROM %d" % (COLOURS[a >> 2], a & 3)
            elif kind == SKIP:
                t = "NO PENALTY"
            elif kind == AGAIN:
                t = "TAKES ANOTHER TURN"
            else:
                t = ""
            app.say(t)
            yield _READ_MS
            scr.roll(d)

    # ---- Farkle Frenzy ---------------------------------------------------------------

    def _frenzy(self, scr):
        from core.dice import TWOX, WILD
        from core.frenzy import PH_COMMON, PH_DECIDE, PH_ROLL, PH_TAKE, PH_WILD, TAKE
        from core.frenzy import ROLL as FZ_ROLL
        from core.frenzy import STOP as FZ_STOP
        from core.frenzy_score import COMMON_BIT
        from ui.frenzy_screen import IT_COMMON, IT_ROLL, IT_STOP, IT_TAKE, V_PLAY
        app = self.app
        g = scr.game
        if scr.view != V_PLAY:
            # The CPU's Farkle, or a notice about its stop: read, then on.
            yield _ACK_MS
            scr.close_view()
            return
        ph = g.phase
        if ph == PH_COMMON or ph == PH_ROLL:
            yield from self._shake(scr, "ROLLS THE COMMON DIE" if ph == PH_COMMON
                                   else _rolls(g.to_roll()))
            return
        d = yield from self._think(scr)
        kind = d & 0xF00
        if ph == PH_WILD:
            v = d & 0xFF
            while scr.wildv != v:  # the picker turns to the value, one by one
                scr.wildv = scr.wildv % 6 + 1
                scr.dirty = True
                app.play(SELECT)
                yield _PICK_MS // 2
            app.say("DECLARES WILD AS %d" % v)
            yield _READ_MS
            scr.decide(d)
            return
        if ph == PH_TAKE and kind == TAKE:
            m = d & 0x3F
            scr.mask = 0
            for i in range(6):
                b = COMMON_BIT if i == 5 else 1 << i
                if m & b:
                    _to_item(scr, IT_COMMON if i == 5 else i)
                    scr.mask |= b
                    scr._sync()
                    app.play(SELECT)
                    yield _PICK_MS
            _to_item(scr, IT_TAKE)
            c = g.common
            app.say(_keeps(g.rolled, m, g.nrolled, (g.wild if c == WILD else c)
                             if m & COMMON_BIT else 0))
            yield _READ_MS
            scr.decide(d)
            return
        if ph == PH_DECIDE:
            if kind == FZ_STOP:
                _to_item(scr, IT_STOP)
                r = g.running(g.player) * (2 if g.common == TWOX else 1)
                app.say("STOPS WITH %d" % r)
                yield _READ_MS
                scr.decide(FZ_STOP)
                return
            _to_item(scr, IT_ROLL)
            app.say(_rolls(g.to_roll()))
            yield _READ_MS
            if scr.roll_on:
                scr.rolling = True
                app.start_roll()
            else:
                scr.decide(FZ_ROLL)  # Lockstep: its next roll comes in turn
            return
        scr.decide(d)  # (never reached: every phase is above)


def _to_item(scr, it):
    # The Frenzy screen's cursor onto item it (when offered).
    items = scr.items
    for i in range(scr.nitems):
        if items[i] == it:
            scr.cur = i
    scr.dirty = True


def _rolls(n):
    return "ROLLS %d DICE" % n if n > 1 else "ROLLS 1 DIE"


def _bits(m):
    n = 0
    while m:
        n += m & 1
        m >>= 1
    return n


def _keeps(dice, mask, n=4, extra=0):
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
