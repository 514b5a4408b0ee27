"""CPU players on screen: a CPU seat's turn, played through the game screen.

Loaded only for a game with a CPU seat (app.cpu_turn() makes the one CpuTurn, kept as
app.cpu) and forgotten with the game. While a CPU decides, the game screen
hands each frame's events to `tick(scr, q)` instead of acting on them itself.

A turn is shown as a person would play it, one visible step at a time: the CPU thinks
with its core module's think() (_STEPS bounded steps a frame), then sets aside or
selects the dice one by one, says what it does in a short line (the app's notice:
"KEEPS 6 6", "MOVES UP FROM LEVEL 2", "STOPS WITH 650", ...) and makes the decision
through the screen's own code: its dice are shaken with app.start_roll() (the same
tumble, rattle and dice source as a human's shake), its choices applied by the
screen's decision functions (so they are saved, sounded and shown as a human's).
OK or a shake does the next step at once; BACK leaves to the menu (the game is saved
as it stands; Continue thinks the step again: a decision depends on the game only).

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
# think() steps per frame: each at most ~7 ms on an ESP32 (tools/cpu_report.py). Three
# would fit a 33 ms frame, but with three the quick soak's floors rose by 5 KB on one
# screen (not understood yet: see the closing note of 2026-12-01), so one for now.
_STEPS = const(1)


class CpuTurn:
    def __init__(self, app):
        self.app = app
        self.scr = None
        self.show = None  # the step-by-step show of the decision under way
        self.due = app.now
        self.table = None  # the opened table file (HARD), while the game lasts
        self.missing = False  # the table file is missing: HARD plays as NORMAL
        self.mod = None

    def close(self):
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
        if fast:
            self.due = app.now
        if app.elapsed(self.due) < 0:
            return
        try:
            ms = next(self.show)
        except StopIteration:
            self.show = None
            return
        self.due = app.now + ms

    # ---- thinking --------------------------------------------------------------------

    def _think(self, scr):
        """The CPU's decision for g.player, _STEPS steps a frame: yields 0 (think on in
        the next frame), returns the decision (`d = yield from self._think(scr)`)."""
        app = self.app
        g = scr.game
        kind = scr.KIND
        skill = app.cpus[g.player] - 1
        mod = self.mod
        if mod is None:
            if kind == SHAKEUP:
                import core.cpu_shakeup as mod
            else:
                import core.cpu_frenzy as mod  # pyright: ignore[reportMissingImports]
            self.mod = mod
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
        d = None
        n = 0
        for d in mod.think(g, skill, rng=app.source, table=self.table):
            if d is not None:
                break
            n += 1
            if n == _STEPS:
                n = 0
                yield 0
        if d is None:
            raise ValueError("the CPU made no decision")
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
