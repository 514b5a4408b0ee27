"""Scripted players for the benchmarks: drive the real App by buttons and shakes.

Runs inside the MicroPython unix port, the WebAssembly port and CPython. It imports
no firmware module at load time (the benchmark loads it before fencing the heap, and
the firmware's modules must be counted in the firmware's share): the firmware's codes
(phases, views, items) come from fw_codes, which tools/bench/codes.py writes on the
host from the firmware's sources, loaded with the Driver, before the fence.

`Driver(app, sim)`: a virtual 33 ms frame clock (`frames(ms)`, `tap(name)`,
`shake()`), `to_menu()`, `new_game(kind, players)`, `open_item(text)` (a menu item),
`tour()` (every line or page of a menu screen), `menu_tour()`. These are generators that yield
after each frame, so the caller can look at the heap between frames; in the
WebAssembly port garbage is only collected when control is back in JavaScript, so
there the caller returns to Node at each yield. `run(gen)` simply runs one to its end.

A whole game is played tick by tick instead: `start_play(kind)`, then each
`play_tick()` runs exactly one frame and returns True, or False once the game is over
and the winner screen has been left for the menu. The benchmark charges everything
the pilot keeps alive across frames to the firmware (nested generators held about
1 KB for the whole game), so between ticks the play's state is small ints and
constant strings in the Driver, and objects made in __init__, before the fence:
- at each screen to act on a planner reads it and writes the inputs as (op, a, b)
  triples into the preallocated list `plan`: "tap" a button, "frames" ms, "dec" (a
  decision made), "roll" (shake, or the ops that follow: the OK path), the cursor
  ops "cur" / "item" / "choice" / "ok_wild" (NEXT until the cursor is on a: 12 taps
  for "cur", one per item for "item", past them Stuck for a stalled firmware),
  "menu" (the winner went back to the menu: the end). It keeps no screen, game or
  module across frames: the App drops a game's modules at its end and the pilot must
  not keep them alive;
- a tap or a shake runs as a micro-script from _SCRIPTS, with the inputs and timing
  of tap() and shake().
Choices come from a seeded xorshift, drawn in the order the generator pilot drew
them, so the same seed plays the same game (`decisions` counts them).
"""
import sys

from xorshift import XorShift  # noqa: F401  (harness: pilot.XorShift)

FRAME = 33

# The tick-driven play's micro-scripts: (step, arg) pairs. "frames" ms as frames(ms);
# "press" / "release" a button; "shake" 1 / 0; "tumbling" / "rest" n: a frame at a
# time until the dice tumble / are at rest, at most n frames. Ops and steps are named
# by strings the pilot has anyway: its names share the qstr pools with the firmware's,
# and a new pool (7 KB) before the fence would not be charged to the firmware.
_SCRIPTS = {
    "OK": ("press", "OK", "frames", 99, "release", "OK", "frames", 66),  # tap("OK")
    "NEXT": ("press", "NEXT", "frames", 99, "release", "NEXT", "frames", 66),
    # _settle() first: keys are ignored while the dice tumble.
    "_settle": ("rest", 120, "press", "NEXT", "frames", 99, "release", "NEXT", "frames", 66),
    "shake": ("frames", 400, "shake", 1, "tumbling", 60, "frames", 300, "shake", 0,
              "rest", 60, "frames", 66),  # shake()
}


class Stuck(Exception):
    pass


class Driver:
    def __init__(self, app, sim, seed=1):
        """app may be None until the game's App exists (the benchmark makes the Driver
        before fencing the heap and the App, the firmware, after)."""
        self.app = app
        self.sim = sim
        self.rnd = XorShift(seed + 1000)
        self.now = 1000
        self.decisions = 0
        self.frames_run = 0
        # The tick-driven play's state (see the module's docstring).
        self.plan = [0] * 72  # the longest: a Frenzy take of 6 dice and TAKE, 15 ops
        self.counts = bytearray(7)  # Shake Up: how many dice show each number
        self.kind = 0        # the game being played; 0 once it is over
        self.pos = 0         # the plan's next op
        self.n = 0           # the plan's length
        self.limit = 0       # plans left before the game counts as stalled
        self.count = 0       # NEXT taps made by the current cursor op
        self.steps = ()      # the running micro-script (one of _SCRIPTS)
        self.idx = 0         # its next step; at its end none runs
        self.wait = 0        # frames waited by its "tumbling" / "rest" step
        self.end = 0         # frames run while now < end
        # The firmware's codes by name (phases, views, items): the firmware keeps them
        # as private consts, so the host reads them from its sources into fw_codes
        # (tools/bench/codes.py), loaded here, before the fence; no firmware module.
        import fw_codes
        self.fzn = fw_codes.fz
        self.fvn = fw_codes.fv
        self.sun = fw_codes.su
        self.ssn = fw_codes.ss

    # ---- time and inputs ---------------------------------------------------------

    def frames(self, ms):
        end = self.now + ms
        while self.now < end:
            self.app.step(self.now)
            self.now += FRAME
            self.frames_run += 1
            yield

    def run(self, gen):
        for _ in gen:
            pass

    def tap(self, name, hold=99):
        self.sim.press(name)
        yield from self.frames(hold)
        self.sim.release(name)
        yield from self.frames(66)

    def shake(self):
        """Like a player: shake until the dice tumble, a little more, then hold still
        until they land (the detector ignores motion for a moment after a roll)."""
        app = self.app
        yield from self.frames(400)
        self.sim.shake(True)
        for _ in range(60):
            if app.tumbling:
                break
            yield from self.frames(FRAME)
        yield from self.frames(300)
        self.sim.shake(False)
        for _ in range(60):
            if not app.tumbling:
                break
            yield from self.frames(FRAME)
        yield from self.frames(66)

    def name(self):
        return getattr(self.app.screen, "NAME", "")

    # ---- menus -------------------------------------------------------------------

    def to_menu(self):
        for _ in range(40):
            nm = self.name()
            if nm == "menu":
                return
            if nm == "win":
                yield from self.frames(700)
                yield from self.tap("NEXT")  # MENU (REMATCH comes first)
                yield from self.tap("OK")
            else:
                yield from self.frames(300)
        raise Stuck("never reached the menu (screen %s)" % self.name())

    def new_game(self, kind, players, seats=b"\x00\x00\x00\x00"):
        """kind 1 Shake Up, 2 Frenzy, from the menu; seats: each seat's code on the
        setup screen (0 HUMAN, 1-3 a CPU: EASY, NORMAL, HARD)."""
        # The screens are read by plain calls (_on(), _asks(), ...), never in this
        # generator's own code: a generator's stack keeps every value it held (a
        # method call leaves its object in a slot), and a screen kept so would count
        # as the firmware's heap after it is gone (the menu's, while a game starts).
        yield from self.to_menu()
        want = "SHAKE UP" if kind == 1 else "FARKLE FRENZY"
        for _ in range(10):
            if self._on(want):
                break
            yield from self.tap("NEXT")
        yield from self.tap("OK")
        if self._asks():
            # "Replace saved game?": NO is offered first.
            for _ in range(3):
                if self._yes():
                    break
                yield from self.tap("NEXT")
            yield from self.tap("OK")
        # The setup: NEXT moves over its rows (players, the seats, ...; START), OK
        # changes one (on a seat it opens the seat's choices: NEXT to one, OK takes
        # it). First the players (row 0), then each seat (row 1 + seat).
        for row in range(players + 1):
            for _ in range(10):
                if self._row() == row:
                    break
                yield from self.tap("NEXT")
            for _ in range(5):
                if self._set(row, players, seats):
                    break
                yield from self.tap("OK")
                if row:
                    for _ in range(4):
                        if self._picked(seats[row - 1]):
                            break
                        yield from self.tap("NEXT")
                    yield from self.tap("OK")
        for _ in range(10):
            if self._on_start():
                break
            yield from self.tap("NEXT")
        yield from self.tap("OK")

    # What new_game() and open_item() read of the screen (see new_game()).

    def _on(self, item):
        s = self.app.screen
        return s.items[s.cur] == item

    def _asks(self):
        s = self.app.screen
        return s.NAME == "menu" and getattr(s, "ask", None) is not None

    def _yes(self):
        return bool(getattr(self.app.screen, "yes", 1))

    def _row(self):
        return self.app.screen.cur

    def _on_start(self):
        s = self.app.screen
        return s.cur == s.start_row()

    def _picked(self, code):
        return self.app.screen.pcur == code

    def _set(self, row, players, seats):
        s = self.app.screen
        return (s.n == players) if row == 0 else (s.seats[row - 1] == seats[row - 1])

    def open_item(self, item):
        """From the menu, the item the menu shows as `item`, then OK."""
        yield from self.to_menu()
        for _ in range(12):
            if self._on(item):
                break
            yield from self.tap("NEXT")
        if not self._on(item):
            raise Stuck("the menu has no item %s" % item)
        yield from self.tap("OK")

    def tour(self, limit=40):
        """Every line or page of the open screen: OK and NEXT in turn (OK changes a
        setting or turns a page, NEXT moves on) until it goes back to the menu; BACK
        if it has not after `limit` taps."""
        for i in range(limit):
            if self.name() == "menu":
                return
            yield from self.tap("OK" if i % 2 == 0 else "NEXT")
        yield from self.tap("BACK")
        yield from self.to_menu()

    def menu_tour(self):
        """The menu itself: the cursor twice round with NEXT, once back with PREV."""
        yield from self.to_menu()
        n = len(self.app.screen.items)
        for i in range(3 * n):
            yield from self.tap("NEXT" if i < 2 * n else "PREV")
        yield from self.frames(500)

    # ---- the Frenzy cursor as a generator (the harness's frames measurements step
    # by hand); a game itself is played by play_tick() ---------------------------------

    def _settle(self):
        # Keys are ignored while the dice tumble (a shake that is still dying down).
        for _ in range(120):
            if not self.app.tumbling:
                return
            yield from self.frames(FRAME)

    def _item(self, item):
        for _ in range(self.app.screen.nitems + 1):
            s = self.app.screen
            if s.items[s.cur] == item:
                return
            s = None
            yield from self._settle()
            yield from self.tap("NEXT")
        raise Stuck("Frenzy cursor never reached item %d" % item)

    # ---- a whole game, tick by tick ----------------------------------------------

    def start_play(self, kind, limit=0):
        """Play the current game (kind 1 Shake Up, 2 Frenzy) by play_tick() calls;
        limit: the most plans (one per screen acted on) before Stuck."""
        self.kind = kind
        self.limit = limit or (6000 if kind == 1 else 20000)
        self.pos = self.n = self.count = self.wait = self.end = 0
        self.idx = len(self.steps)

    def play_tick(self):
        """Run one frame of the game: True; or False, with no frame, once it is over."""
        while True:
            if self.now < self.end:
                self.app.step(self.now)
                self.now += FRAME
                self.frames_run += 1
                return True
            i = self.idx
            if i < len(self.steps):
                self.idx = i + 2
                step = self.steps[i]
                a = self.steps[i + 1]
                if step == "frames":
                    self.end = self.now + a
                elif step == "press":
                    self.sim.press(a)
                elif step == "release":
                    self.sim.release(a)
                elif step == "shake":
                    self.sim.shake(a == 1)
                elif self.app.tumbling != (step == "tumbling") and self.wait < a:
                    self.idx = i  # "tumbling" / "rest": not yet, one frame more
                    self.wait += 1
                    self.end = self.now + FRAME
                else:
                    self.wait = 0
            elif self.pos < self.n:
                self._op()
            elif self.kind:
                self._plan()
            else:
                return False

    def _op(self):
        """Carry out the plan's next op: at once, or by a micro-script after which a
        cursor op looks at the screen again."""
        p = self.plan
        pos = self.pos
        op = p[pos]
        a = p[pos + 1]
        if op == "tap":
            self.steps = _SCRIPTS[a]
            self.idx = 0
        elif op == "frames":
            self.end = self.now + a
        elif op == "dec":
            self.decisions += 1
        elif op == "roll":
            # Half the rolls by shaking, half by OK (the no-sensor fallback) after
            # moving the cursor to ROLL: the a ops that follow, which a shake skips.
            if self.rnd.below(2):
                self.steps = _SCRIPTS["shake"]
                self.idx = 0
                pos += 3 * a
        elif op == "menu":
            if self.name() != "menu":
                raise Stuck("the winner screen did not go back to the menu")
            self.kind = 0
        else:
            # A cursor op: done when the cursor is on a (or, for "choice" and "ok_wild",
            # out of taps); else NEXT and look again.
            s = self.app.screen
            t = self.count
            if op == "cur":
                if t >= 12:
                    raise Stuck("cursor cur never reached %r" % a)
                on = s.cur == a
            elif op == "item":
                if t == 0:
                    p[pos + 2] = s.nitems + 1  # its limit, read when it starts
                if t >= p[pos + 2]:
                    raise Stuck("Frenzy cursor never reached item %d" % a)
                on = s.items[s.cur] == a
            elif op == "choice":
                on = t >= p[pos + 2] or s.choices[s.cur] == a
            else:  # "ok_wild": a wild value that may be declared
                on = t >= 7 or 1 <= s.wildv <= 6
            if not on:
                self.count = t + 1
                self.steps = _SCRIPTS["_settle" if op == "cur" or op == "item" else "NEXT"]
                self.idx = 0
                return
        self.pos = pos + 3
        self.count = 0

    def _put(self, op, a=0, b=0):
        p = self.plan
        n = self.n
        p[n] = op
        p[n + 1] = a
        p[n + 2] = b
        self.n = n + 3

    def _put_roll(self, op=None, a=0):
        """A roll: by shaking, or by OK after the cursor op (op, a) if any."""
        self._put("roll", 3 if op else 2)
        if op:
            self._put(op, a)
        self._put("tap", "OK")
        self._put("frames", 600)
        self._put("dec")

    def _plan(self):
        """The next plan, from the screen; at the winner: back to the menu."""
        self.limit -= 1
        if self.limit < 0:
            raise Stuck("game kind %d did not end within its limit of plans" % self.kind)
        self.pos = self.n = self.count = 0
        if not (self._su_plan() if self.kind == 1 else self._fz_plan()):
            # After the grace time OK on MENU (REMATCH comes first) goes back.
            self._put("frames", 700)
            self._put("tap", "NEXT")
            self._put("tap", "OK")
            self._put("frames", 100)
            self._put("menu")

    # ---- Shake Up ----------------------------------------------------------------

    def _su_plan(self):
        """Plan the inputs for the Shake Up screen: False at the winner."""
        s = self.app.screen
        nm = s.NAME
        if nm == "win":
            return False
        if nm == "pass":
            self._put("tap", "OK")
            return True
        if nm != "shakeup":
            raise Stuck("screen %s during Shake Up" % nm)
        ss = self.ssn
        su = self.sun
        classify = sys.modules["core.shakeup"].classify
        rnd = self.rnd
        v = s.view
        g = s.game
        if s.by_cpu if s.ack else s.app.cpus[g.player]:
            self._put("tap", "OK")  # a CPU plays: OK fast-forwards it
            return True
        if v == ss.RESULT or v == ss.INFO or (v == ss.ROLLOFF and len(s.info)):
            self._put("tap", "OK")
        elif v == ss.ROLLOFF or v == ss.BOARD:
            self._put_roll()
        elif v == ss.DICE:
            mask = 15  # stop
            if classify(g.dice) < su.MOVE and rnd.below(8) != 0:
                counts = self.counts
                for i in range(7):
                    counts[i] = 0
                for x in g.dice:
                    counts[x] += 1
                mask = g.held
                for i in range(4):
                    if counts[g.dice[i]] >= 2 or rnd.below(6) == 0:
                        mask |= 1 << i
            if mask == 15:
                self._put("cur", 5)
                self._put("tap", "OK")
                self._put("dec")
            else:
                for i in range(4):
                    if mask >> i & 1 and not g.held >> i & 1:
                        self._put("cur", i)
                        self._put("tap", "OK")
                self._put_roll("cur", 4)
        elif v == ss.MOVE or v == ss.PENALTY:
            ch = s.choices
            d = ch[rnd.below(len(ch))]
            if v == ss.PENALTY and rnd.below(4):
                d = ch[-1]  # SKIP / AGAIN: keeps the game from dragging on
            self._put("choice", d, len(ch) + 1)
            self._put("tap", "OK")
            self._put("dec")
        else:
            raise Stuck("Shake Up view %d" % v)
        return True

    # ---- Farkle Frenzy -----------------------------------------------------------

    def _fz_plan(self):
        """Plan the inputs for the Frenzy screen: False at the winner."""
        s = self.app.screen
        nm = s.NAME
        if nm == "pass":
            self._put("tap", "OK")
            return True
        if nm != "frenzy":
            raise Stuck("screen %s during Frenzy" % nm)
        fs = self.fvn
        fz = self.fzn
        g = s.game
        v = s.view
        if v == fs.V_WINNER:
            return False
        if (s.by_cpu and (v == fs.V_FARKLE or v == fs.V_NOTICE)) if v != fs.V_PLAY \
                else s.app.cpus[g.player]:
            self._put("tap", "OK")  # a CPU plays: OK fast-forwards it
            return True
        if v == fs.V_WARN:
            self._put("tap", "NEXT")  # NO is offered first: YES, stop anyway
            self._put("tap", "OK")
            self._put("dec")
            return True
        if v != fs.V_PLAY:
            self._put("tap", "OK")  # FARKLE, notices, round summary
            return True
        ph = g.phase
        if ph == fz.PH_COMMON or ph == fz.PH_ROLL:
            self._put_roll("item", fs.IT_ROLL)
        elif ph == fz.PH_WILD:
            self._put("ok_wild")
            self._put("tap", "OK")
            self._put("dec")
        elif ph == fz.PH_TAKE:
            # The best points with the fewest dice (keeps dice to roll).
            best = -1
            m = 0
            for mask in range(64):
                if s.ok_take[mask]:
                    n = 0
                    for i in range(6):
                        n += mask >> i & 1
                    k = g.points(mask) * 8 - n
                    if k > best:
                        best = k
                        m = mask
            for i in range(s.nitems):
                it = s.items[i]
                bit = fz.COMMON_BIT if it == fs.IT_COMMON else (1 << it if it < 5 else 0)
                if (m ^ s.mask) & bit:  # from the selection TAKE opens with
                    self._put("item", it)
                    self._put("tap", "OK")
            self._put("item", fs.IT_TAKE)
            self._put("tap", "OK")
            self._put("dec")
        elif ph == fz.PH_DECIDE:
            run = g.running(g.player)
            full = g.riser(g.player) == 5
            goal = 350 + 50 * self.rnd.below(14)
            if run >= goal and not (full and self.rnd.below(2)):
                self._put("item", fs.IT_STOP)
                self._put("tap", "OK")
                self._put("dec")
            elif s.roll_on:
                self._put_roll("item", fs.IT_ROLL)
            else:
                self._put("item", fs.IT_ROLL)
                self._put("tap", "OK")
                self._put("dec")
        else:
            raise Stuck("Frenzy phase %d in play" % ph)
        return True
