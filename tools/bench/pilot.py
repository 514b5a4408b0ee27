"""Scripted players for the benchmarks: drive the real App by buttons and shakes.

Runs inside the MicroPython unix port, the WebAssembly port and CPython. It imports
no firmware module at load time (the benchmark loads it before fencing the heap, and
the firmware's modules must be counted in the firmware's share): the screens'
constants are read from sys.modules once the game has imported them.

`Driver(app, sim)`: a virtual 33 ms frame clock (`frames(ms)`, `tap(name)`,
`shake()`), `to_menu()`, `new_game(kind, players)`; `play_shakeup()` /
`play_frenzy()` play the current game to its winner and back to the menu, choosing
with a seeded xorshift, so the same seed plays the same game (`decisions` counts).
Every one of these is a generator that yields after each frame, so the caller can
look at the heap between frames; in the WebAssembly port garbage is only collected
when control is back in JavaScript, so there the caller returns to Node at each
yield. `run(gen)` simply runs one to its end.
"""
import sys

from xorshift import XorShift  # noqa: F401  (harness: pilot.XorShift)

FRAME = 33


class Stuck(Exception):
    pass


class Driver:
    def __init__(self, app, sim, seed=1):
        self.app = app
        self.sim = sim
        self.rnd = XorShift(seed + 1000)
        self.now = 1000
        self.decisions = 0
        self.frames_run = 0

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
                yield from self.tap("OK")
            else:
                yield from self.frames(300)
        raise Stuck("never reached the menu (screen %s)" % self.name())

    def new_game(self, kind, players):
        """kind 1 Shake Up, 2 Frenzy, from the menu."""
        yield from self.to_menu()
        scr = self.app.screen
        want = "SHAKE UP" if kind == 1 else "FARKLE FRENZY"
        for _ in range(10):
            if scr.items[scr.cur] == want:
                break
            yield from self.tap("NEXT")
        yield from self.tap("OK")
        scr = self.app.screen
        if scr.NAME == "menu" and getattr(scr, "ask", None) is not None:
            # "Replace saved game?": NO is offered first.
            for _ in range(3):
                if getattr(scr, "yes", 1):
                    break
                yield from self.tap("NEXT")
            yield from self.tap("OK")
            scr = self.app.screen
        for _ in range(6):
            if scr.n == players:
                break
            yield from self.tap("NEXT")
        scr = None  # hold no screen across frames: it would count as the firmware's heap
        yield from self.tap("OK")

    def _settle(self):
        # Keys are ignored while the dice tumble (a shake that is still dying down).
        for _ in range(120):
            if not self.app.tumbling:
                return
            yield from self.frames(FRAME)

    def _cursor(self, attr, want, limit=12):
        for _ in range(limit):
            if getattr(self.app.screen, attr) == want:
                return
            yield from self._settle()
            yield from self.tap("NEXT")
        raise Stuck("cursor %s never reached %r" % (attr, want))

    def _roll(self, to_roll):
        # Half the rolls by shaking, half by OK (the no-sensor fallback) after moving
        # the cursor to ROLL: to_roll is ("cur", attr, index), ("item", item) or None.
        if self.rnd.below(2):
            yield from self.shake()
        else:
            if to_roll is not None:
                if to_roll[0] == "cur":
                    yield from self._cursor(to_roll[1], to_roll[2])
                else:
                    yield from self._item(to_roll[1])
            yield from self.tap("OK")
            yield from self.frames(600)
        self.decisions += 1

    def _finish(self):
        # The winner: after the grace time OK goes back to the menu.
        yield from self.frames(700)
        yield from self.tap("OK")
        yield from self.frames(100)
        if self.name() != "menu":
            raise Stuck("the winner screen did not go back to the menu")

    # ---- Shake Up ----------------------------------------------------------------

    def play_shakeup(self, limit=6000):
        """Each turn is planned from the screen as plain values (_su_plan), then played:
        nothing of the game is held across frames, so when the game ends inside a tap
        or a roll and the App drops its modules, the pilot keeps none of them alive."""
        for _ in range(limit):
            plan = self._su_plan()
            if plan is None:
                yield from self._finish()
                return
            for act in plan:
                op = act[0]
                if op == "tap":
                    yield from self.tap(act[1])
                elif op == "cur":
                    yield from self._cursor(act[1], act[2])
                elif op == "choice":
                    yield from self._choice(act[1], act[2])
                elif op == "roll":
                    yield from self._roll(act[1])
                else:  # "dec"
                    self.decisions += 1
        raise Stuck("Shake Up did not end in %d inputs" % limit)

    def _su_plan(self):
        """The next inputs for the Shake Up screen as (op, args...) tuples, or None
        at the winner."""
        s = self.app.screen
        nm = s.NAME
        if nm == "win":
            return None
        if nm == "pass":
            return (("tap", "OK"),)
        if nm != "shakeup":
            raise Stuck("screen %s during Shake Up" % nm)
        ss = sys.modules["ui.shakeup_screen"]
        su = sys.modules["core.shakeup"]
        rnd = self.rnd
        v = s.view
        g = s.game
        if v == ss.RESULT or v == ss.INFO or (v == ss.ROLLOFF and len(s.info)):
            return (("tap", "OK"),)
        if v == ss.ROLLOFF or v == ss.BOARD:
            return (("roll", None),)
        if v == ss.DICE:
            stop = (("cur", "cur", 5), ("tap", "OK"), ("dec",))
            if su.classify(g.dice) >= su.MOVE or rnd.below(8) == 0:
                return stop
            counts = bytearray(7)
            for x in g.dice:
                counts[x] += 1
            mask = g.held
            for i in range(4):
                if counts[g.dice[i]] >= 2 or rnd.below(6) == 0:
                    mask |= 1 << i
            if mask == 15:
                return stop
            plan = []
            for i in range(4):
                if mask >> i & 1 and not g.held >> i & 1:
                    plan.append(("cur", "cur", i))
                    plan.append(("tap", "OK"))
            plan.append(("roll", ("cur", "cur", 4)))
            return plan
        if v == ss.MOVE or v == ss.PENALTY:
            ch = s.choices
            d = ch[rnd.below(len(ch))]
            if v == ss.PENALTY and rnd.below(4):
                d = ch[-1]  # SKIP / AGAIN: keeps the game from dragging on
            return (("choice", d, len(ch) + 1), ("tap", "OK"), ("dec",))
        raise Stuck("Shake Up view %d" % v)

    def _choice(self, want, limit):
        for _ in range(limit):
            s = self.app.screen
            if s.choices[s.cur] == want:
                return
            s = None
            yield from self.tap("NEXT")

    # ---- Farkle Frenzy -----------------------------------------------------------

    def _item(self, item):
        for _ in range(self.app.screen.nitems + 1):
            s = self.app.screen
            if s.items[s.cur] == item:
                return
            s = None
            yield from self._settle()
            yield from self.tap("NEXT")
        raise Stuck("Frenzy cursor never reached item %d" % item)

    def play_frenzy(self, limit=20000):
        fs = sys.modules["ui.frenzy_screen"]
        fz = sys.modules["core.frenzy"]
        rnd = self.rnd
        for _ in range(limit):
            s = self.app.screen
            nm = s.NAME
            if nm == "pass":
                yield from self.tap("OK")
                continue
            if nm != "frenzy":
                raise Stuck("screen %s during Frenzy" % nm)
            g = s.game
            v = s.view
            if v == fs.WINNER:
                s = g = fs = fz = None  # let the game's objects go before the menu
                yield from self._finish()
                return
            if v == fs.WARN:
                yield from self.tap("NEXT")  # NO is offered first: YES, stop anyway
                yield from self.tap("OK")
                self.decisions += 1
                continue
            if v != fs.PLAY:
                yield from self.tap("OK")  # FARKLE, notices, round summary
                continue
            ph = g.phase
            if ph == fz.PH_COMMON or ph == fz.PH_ROLL:
                yield from self._roll(("item", fs.IT_ROLL))
            elif ph == fz.PH_WILD:
                for _ in range(7):
                    if s.ok_wild[s.wildv]:
                        break
                    yield from self.tap("NEXT")
                yield from self.tap("OK")
                self.decisions += 1
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
                    if m & bit:
                        yield from self._item(it)
                        yield from self.tap("OK")
                yield from self._item(fs.IT_TAKE)
                yield from self.tap("OK")
                self.decisions += 1
            elif ph == fz.PH_DECIDE:
                run = g.running(g.player)
                full = g.riser(g.player) == 5
                goal = 350 + 50 * rnd.below(14)
                if run >= goal and not (full and rnd.below(2)):
                    yield from self._item(fs.IT_STOP)
                    yield from self.tap("OK")
                    self.decisions += 1
                elif s.roll_on:
                    yield from self._roll(("item", fs.IT_ROLL))
                else:
                    yield from self._item(fs.IT_ROLL)
                    yield from self.tap("OK")
                    self.decisions += 1
            else:
                raise Stuck("Frenzy phase %d in play" % ph)
        raise Stuck("Frenzy did not end in %d inputs" % limit)


