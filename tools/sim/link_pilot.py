"""A player at the buttons of one simulated handheld in a link game, for the link tests
and `make sim LINK=n` (the handhelds no person plays): it reads what the screen shows
and presses PREV/NEXT/OK (through machine.SIM, the same path as a person's keys), and
decides as core.cpu_live does.

    --pilot ROLE[:GUESTS[:CPUS[:LOST]]]   ROLE host, join or cont (CONTINUE in LINK
        GAME); a host starts once GUESTS guests joined, after adding CPUS CPUs; LOST:
        its answer to a lost guest (0 WAIT, 1 CPU, 2 DROP)
    --pilot-log PATH   one line per event: "round N", "seat S", "over T0,T1,.. W",
        "ask D" (a guest's decision asked), "did S D" (the host took seat S's decision
        D from the air: the attack tests compare them), "lost 0|1" (a guest's HOST
        LOST), and
        with each round "frame MEDIAN_US P90_US MAX_US FREE_MIN" (the App's step() time
        per frame, the least free heap seen after a frame: the bench's figures) and on
        the heap model "model ADDED FREED HELD HELD_MAX IDF_FREE IDF_LOW"
"""
import gc
import time

import qstr_pools

_HOLD = 25
_GAP = 25


class Pilot:
    def __init__(self, runner, spec, log=""):
        p = spec.split(":")
        self.role = p[0]
        self.guests = int(p[1]) if len(p) > 1 else 1
        self.cpus = int(p[2]) if len(p) > 2 else 0
        self.lost = int(p[3]) if len(p) > 3 else 0
        self.r = runner
        self.log = open(log, "a") if log else None
        self.down = None
        self.at = 0
        self.added = 0
        self.rnd = 0
        self.said_over = False
        self.seat = -1
        self.hooked = None  # the session whose decisions are logged (hook())
        self.was_lost = False
        from core.seeded import Seeded
        self.rng = Seeded(7)
        # The pilot's player (a person on the device), loaded before the heap fence: a
        # host without CPU seats does not load it itself.
        from core.cpu_live import choose
        self.decide = choose
        # Made before the heap fence: the figures cost the firmware nothing per frame.
        self.hist = [0] * 400  # App.step() times, 100 us bins
        self.t0 = 0
        self.free = 1 << 30
        self.longest = 0

    def after(self):
        """After the App's frame: its time, and the heap left."""
        if not hasattr(time, "ticks_us"):
            return
        us = time.ticks_diff(time.ticks_us(), self.t0)
        if us > self.longest:
            self.longest = us
        self.hist[min(399, us // 100)] += 1
        f = gc.mem_free()
        if f < self.free:
            self.free = f

    def figures(self):
        h = self.hist
        n = 0
        for v in h:
            n += v
        out = []
        for q in (n // 2, n * 9 // 10):
            k = 0
            for i in range(400):
                k += h[i]
                if k > q:
                    out.append(i * 100 + 50)
                    break
        if len(out) < 2:
            return "frame 0 0 0 %d" % self.free
        return "frame %d %d %d %d" % (out[0], out[1], self.longest, self.free)

    def model(self):
        """On the heap model (simrun --model): its counters, `model ADDED FREED HELD
        HELD_MAX IDF_FREE IDF_LOW`."""
        if self.r.model:
            import heapmodel
            self.say("model %d %d %d %d %d %d" % heapmodel.stats())

    def say(self, line):
        if self.log is not None:
            self.log.write(line + "\n")
            self.log.flush()

    def tick(self, now):
        """Before the App's frame: a button down or up (or nothing), then the clock."""
        self._tick(now)
        self.mark()

    def _tick(self, now):
        sim = self.r.sim
        if self.down is not None:
            if now - self.at >= _HOLD:
                sim.release(self.down)
                self.down = None
                self.at = now
            return
        if now - self.at < _GAP:
            return
        b = self.choose()
        if b:
            sim.press(b)
            self.down = b
            self.at = now

    def mark(self):
        if hasattr(time, "ticks_us"):
            self.t0 = time.ticks_us()

    def choose(self):
        app = self.r.app
        scr = getattr(app, "screen", None)
        name = getattr(scr, "NAME", "")
        if app.tumbling:
            return None
        if name == "menu":
            if getattr(scr, "ask", None) is not None:
                return "BACK"
            return "OK" if scr.items[scr.cur] == "LINK GAME" else "NEXT"
        if name == "link":
            want = {"host": "HOST", "join": "JOIN", "cont": "CONTINUE"}[self.role]
            return "OK" if scr.items[scr.cur] == want else "NEXT"
        if name == "link_lobby":
            h = scr.h
            a = getattr(h, "pending", None)
            if a is not None:  # a pairing's code: the same on the guest (a person
                return None if a[4] & 1 else "OK"  # compares them; the pilot trusts it)
            humans = 0
            for s in range(4):
                humans += h.kind[s] in (1, 2)
            if humans < 1 + self.guests:
                return None
            if self.added < self.cpus:
                if scr.cur != 0:
                    return "NEXT"
                self.added += 1
                return "OK"
            return "OK" if scr.cur == 1 else "NEXT"
        if name == "link_scan":
            g = scr.g
            if g.state == 3:  # the pairing's code: OK
                return "OK"
            if g.state == 0 and scr.lines and self.role == "join" and not scr.t_line1:
                return "OK"
            return None
        if name == "link_live":
            return self.live(scr)
        return None

    def hook(self, scr):
        """Log what the guest asks and what the host takes from its guests' seats (the
        attack tests: every seat's decisions exactly what its player asked)."""
        h, g = scr.h, scr.g
        if g is not None and g.host_lost != self.was_lost:
            self.was_lost = g.host_lost
            self.say("lost %d" % g.host_lost)
        o = h if h is not None else g
        if o is self.hooked:
            return
        self.hooked = o
        say = self.say
        if h is not None:
            decide = h._decide

            def took(s, d):
                if h.kind[s] == 2:  # a guest's seat (link.host K_GUEST), from the air
                    say("did %d %d" % (s, d))
                decide(s, d)
            h._decide = took
        else:
            ask = g.ask

            def asked(d):
                ok = ask(d)
                if ok:
                    say("ask %d" % d)
                return ok
            g.ask = asked

    def live(self, scr):
        self.hook(scr)
        lv = scr.live()
        if lv is None:
            return None
        g = lv.g
        s = scr.seat()
        if s != self.seat:
            self.seat = s
            self.say("seat %d" % s)
        if g.round != self.rnd:
            self.rnd = g.round
            self.say("round %d" % g.round)
            self.say(self.figures())
            self.model()
            if self.r.names < 0:  # simrun --names -1: the firmware's names counted
                qstr_pools.print_count()
        if scr.asking >= 0:
            return "OK" if scr.pick == self.lost else "NEXT"
        if g.phase == 5:  # PH_OVER
            if not self.said_over:
                self.said_over = True
                self.say(self.figures())
                self.model()
                self.say("over %s %d" % (",".join(str(t) for t in g.totals), g.winner))
            return None
        if g.phase == 0:  # PH_COMMON: the host starts the next round
            return "OK" if scr.h is not None else None
        if scr.waiting() or lv.st[s] != 0 or scr.t_line1:
            return None
        d = self.decide(lv, s, self.rng)
        if d is None:
            return None
        kind = d & 0xF00
        ph = lv.ph[s]
        if ph == 0:
            return "OK" if scr.rolling else None
        if ph == 1:  # declare
            return "OK" if scr.pick == (d & 0xFF) - 1 else "NEXT"
        if ph == 2 and kind == 0x400:
            m = d & 0xFF
            n = lv.nrolled[s]
            diff = m ^ scr.sel
            if diff:
                i = 0
                while not diff >> i & 1:
                    i += 1
                want = i if i < 5 else n
            else:
                want = n + (1 if lv.usable(s) else 0)
            return "OK" if scr.cur == want else "NEXT"
        if ph == 3:
            want = 1 if d == 0x500 else 0
            return "OK" if scr.pick == want else "NEXT"
        return None
