"""Runs the real firmware App on the host, for tools/simulator/sim.py and tools/simulator/screens.py.

Started as a child interpreter (MicroPython unix port or CPython) with this folder's
machine.py shadowing the built-in `machine`:

    micropython tools/sim/simrun.py --root ROOT --board NAME --fs DIR [--out FD]
        [--frame-ms N] [--seed N] [--script FILE] [--budget BYTES] [--firmware DIR]
        [--model T [--wifi first]] [--names N]

--model T (the heap model's binary, tools/bench/mp32.py --heap): --budget is the first
area's share, in one piece, then an ESP-IDF heap of T bytes to grow into (heapmodel.arm);
the Wi-Fi driver takes its share of it when the firmware makes its first WLAN
(tools/sim/network.py), or with --wifi first before the firmware starts. The pilot's
log gets `model ADDED FREED HELD HELD_MAX IDF_FREE IDF_LOW` with each round.

--names N (with --budget): the firmware makes N new interned names (qstrs) in the run,
counted in one without a budget: a qstr pool with room for them opens before the fence
and the device's cost of N names comes off the budget (tools/sim/qstr_pools.py).
--names -1 counts them: qstr_info on stdout where the fence would be, and with each
round the pilot logs.

--firmware DIR runs the firmware from DIR instead of ROOT/firmware: a compiled build in
the device layout (tools/flashing/build.py), whose board.mpy is the chosen board's profile.

Live mode (default) steps App on the real clock and reads commands, one per line, on
stdin: `p BUTTON` / `r BUTTON` (press/release PREV NEXT OK BACK), `s 1` / `s 0` (shake
on/off), `q` (quit). Script mode (--script) steps a virtual clock through a scenario
(see run_script) and never reads stdin.

It writes messages to file descriptor --out (default 1): text lines, a frame line
followed by its raw bytes:
    B <board> <width> <height> <buttons,comma,separated>   once, at start
    W <path>                     the file the firmware's app module was loaded from
    F <width> <height> <nbytes>\\n<nbytes of MONO_VLSB>      when the panel changed
    S <screen NAME>                                        when the screen changed
    T <freq> <duty>                                        when the buzzer changed
    D <lit 0/1> <contrast 0-255>   when the panel was switched off/on or dimmed
    P <text>                     the screen's texts when they changed (--prompt 1 only:
                                 read from the screen's attributes, see _prompt)
    H <free heap bytes>                                    about once a second
    C <message>                  the firmware crashed (traceback on stderr) and restarts
    Z 1 / Z 0                    deep sleep entered / woken by a button (then a boot)
    N <label>                                              before a scripted snapshot
    X <message>                                            fatal error, then exit
Portable: no os.path, no f-strings, no `random`.
"""
import sys
import time

_BUTTONS = ("PREV", "NEXT", "OK", "BACK")


def _host_ms():
    if hasattr(time, "ticks_ms"):
        return time.ticks_ms()
    return int(time.monotonic() * 1000)


_T0 = [_host_ms()]


def _ticks_ms():
    """Milliseconds since the simulated chip booted, as ticks_ms() is on the device (the
    unix port's counts from the host's boot: days, which the power timeouts would read
    as idle time)."""
    if hasattr(time, "ticks_diff"):
        return time.ticks_diff(_host_ms(), _T0[0])
    return _host_ms() - _T0[0]


def _ticks_diff(a, b):
    if hasattr(time, "ticks_diff"):
        return time.ticks_diff(a, b)
    return a - b


def _prompt(scr):
    """The texts a screen shows, as one line for a front end too small to read the
    panel's pixels: its title/banner, message lines, hint, and the item under the
    cursor of a menu-like list; the screens whose texts are not in those attributes
    (the pass screen, the menu's REPLACE SAVED GAME? question, the setup's rows and
    seat choices, the stats' pages) by their own state. Made only with --prompt 1 (it
    allocates)."""
    if scr is None:
        return ""
    name = getattr(scr, "NAME", "")
    own = _own_prompt(scr, name)
    if own is not None:
        return own
    bits = []
    for attr in ("title", "banner", "t_line1", "t_line2", "t_line3", "t_info", "hint"):
        v = getattr(scr, attr, None)
        if isinstance(v, str) and v:
            bits.append(v)
    ls = getattr(scr, "lines", None)
    if isinstance(ls, (list, tuple)):
        for v in ls:
            if isinstance(v, str) and v:
                bits.append(v)
    items = getattr(scr, "items", None)
    cur = getattr(scr, "cur", None)
    if isinstance(items, list) and isinstance(cur, int) and 0 <= cur < len(items) \
            and isinstance(items[cur], str):
        bits.append("> " + items[cur])
    return " / ".join(bits)


_COLOURS = ("RED", "GREEN", "BLUE", "YELLOW")


def _own_prompt(scr, name):
    """_prompt() of the screens that keep their texts in their state, else None."""
    if name == "pass":
        bits = [str(v) for v in getattr(scr, "note", ()) or ()]
        bits.append("PASS TO " + _COLOURS[scr.seat & 3])
        bits.append("OK WHEN READY")
        return " / ".join(bits)
    if name == "menu" and getattr(scr, "ask", None) is not None:
        return "%s / REPLACE SAVED GAME? / > %s" % (scr.ask, "YES" if scr.yes else "NO")
    if name == "setup":
        from ui.setup import SEAT_NAMES, SEAT_NOTES
        if scr.pick >= 0:
            return "%s PLAYS AS / > %s (%s) / OK: CHOOSE" % (
                _COLOURS[scr.pick], SEAT_NAMES[scr.pcur], SEAT_NOTES[scr.pcur])
        c = scr.cur
        if c == 0:
            row = "PLAYERS: %d" % scr.n
        elif c == scr.start_row():
            row = "START"
        elif c == scr.mode_row():
            row = "TURNS: " + ("LOCKSTEP" if scr.app.settings[_schedule_at()] else "RELAY")
        else:
            row = "%s: %s" % (_COLOURS[c - 1], SEAT_NAMES[scr.seats[c - 1]])
        return "%s / > %s" % (scr.title, row)
    if name == "stats":
        if scr.ask:
            return "RESET STATS? / > " + ("YES" if scr.yes else "NO")
        lines = scr.cpu_lines if scr.page else scr.lines
        bar = ("MENU", "PLAYERS" if scr.page else "CPUS", "RESET")[scr.cur]
        return " / ".join(["AGAINST CPUS" if scr.page else "STATS"] + list(lines)
                          + ["> " + bar])
    return None


def _schedule_at():
    """The settings' index of Frenzy's turn schedule (system.store.S_SCHEDULE); a compiled
    build (tools/flashing/build.py, the browser page's) has it inlined, not importable."""
    try:
        from system.store import S_SCHEDULE
        return S_SCHEDULE
    except ImportError:
        return _S_SCHEDULE


_S_SCHEDULE = 2  # system.store.S_SCHEDULE (host_tests/test_web.py compares them)


# Every option of the command line and its default: also what a front end that builds
# its Runner without one starts from (web/webrun.py), so a new option reaches it.
DEFAULTS = {"root": ".", "board": "sim", "fs": ".sim", "out": "1",
            "frame-ms": "0", "seed": "", "script": "", "budget": "0",
            "firmware": "", "prompt": "0", "pilot": "", "pilot-log": "",
            "model": "0", "wifi": "late", "names": "0"}


def _args(argv):
    opts = dict(DEFAULTS)
    i = 0
    while i < len(argv):
        a = argv[i]
        if a.startswith("--") and a[2:] in opts and i + 1 < len(argv):
            opts[a[2:]] = argv[i + 1]
            i += 2
        else:
            raise ValueError("simrun: unknown argument " + a)
    return opts


class XorShift:
    """Deterministic byte source for scripted runs (the firmware's Dice takes any
    source(n) -> bytes); xorshift32, so screenshots repeat exactly."""

    def __init__(self, seed):
        self.s = (seed * 2654435761 + 1) & 0xFFFFFFFF or 1

    def __call__(self, n):
        out = bytearray(n)
        s = self.s
        for i in range(n):
            s ^= (s << 13) & 0xFFFFFFFF
            s ^= s >> 17
            s ^= (s << 5) & 0xFFFFFFFF
            out[i] = s >> 24
        self.s = s
        return bytes(out)


def _has_board(folder):
    """Whether a build folder carries its board profile (board.mpy / board.py)."""
    import os
    for fn in ("board.mpy", "board.py"):
        try:
            os.stat(folder + "/" + fn)
            return True
        except OSError:
            pass
    return False


def _load_board(root, name, firmware=""):
    if firmware and _has_board(firmware):
        # A build: the profile is installed as board, exactly as on the device.
        if firmware not in sys.path:
            sys.path.insert(0, firmware)
        import board
        return board
    sys.path.insert(0, root + "/boards")
    try:
        mod = __import__(name)
    finally:
        sys.path.pop(0)
    if name in sys.modules and name != "board":
        del sys.modules[name]
    sys.modules["board"] = mod
    return mod


def _tone(sim):
    """(freq, duty) of the simulated buzzer (machine.SIM.pwm); duty 0 means silent."""
    pwm = getattr(sim, "pwm", None)
    if pwm is None:
        return 0, 0
    if isinstance(pwm, (tuple, list)):
        return int(pwm[0]), int(pwm[1])
    freq = int(getattr(pwm, "freq", 0) or 0)
    duty = int(getattr(pwm, "duty", 0) or 0)
    if hasattr(pwm, "sounding") and not pwm.sounding():
        duty = 0
    return freq, duty


class Reboot(Exception):
    """Raised by the simulated machine.reset() / deepsleep(): the chip restarts."""


def _raise_reset():
    raise Reboot("reset")


def _raise_deep(ms=0):
    raise Reboot("deepsleep")


class Runner:
    def __init__(self, opts):
        root = opts["root"]
        # The firmware's folder, then tools/sim in front of it (machine.py must shadow
        # the unix port's built-in machine).
        self.firmware = opts["firmware"] or root + "/firmware"
        for p in (self.firmware, root + "/tools/sim"):
            if p in sys.path:
                sys.path.remove(p)
            sys.path.insert(0, p)
        self.board = _load_board(root, opts["board"], opts["firmware"])
        import machine
        self.machine = machine
        self.sim = machine.SIM
        if hasattr(self.sim, "configure"):
            self.sim.configure(self.board)
        if hasattr(self.sim, "on_reset"):
            self.sim.on_reset = _raise_reset
            self.sim.on_deepsleep = _raise_deep
        if hasattr(self.sim, "log_i2c"):
            self.sim.log_i2c = False  # nobody reads it here; saves time on every frame
        fd = int(opts["out"])
        self.out = open("/dev/fd/%d" % fd, "wb") if fd != 1 else sys.stdout.buffer
        disp = getattr(self.board, "DISPLAY", {})
        self.w = disp.get("width", 128)
        self.h = disp.get("height", 64)
        self.frame_ms = int(opts["frame-ms"])
        self.fs = opts["fs"]
        self.seed = opts["seed"]
        self.last_rx = -1
        # The panel is read into these two, made before the heap fence: the simulator's
        # per-frame copies would otherwise come out of the firmware's budget (1 KB
        # blocks that a fragmented heap lacks long before the firmware runs short).
        oled = self.sim.oled
        n = oled.width * oled.height // 8
        self.frame_buf = bytearray(n)
        self.last_frame = bytearray(n)
        self.sent_frame = False
        self.last_screen = None
        self.last_tone = (0, 0)
        self.last_panel = (-1, -1)
        self.app = None
        self.ballast = None
        self.budget = int(opts["budget"])
        self.model = int(opts["model"])
        self.wifi_first = opts["wifi"] == "first"
        self.names = int(opts["names"])
        self.prompts = opts["prompt"] == "1"
        self.last_prompt = ""
        self.guard = None
        self.crashes = []
        self.sleeping = False
        self.boots = 0
        self.pilot = None
        try:
            import os
            radio = os.getenv("POCKET_RADIO")
        except (ImportError, AttributeError):
            radio = None
        if radio:
            # The ESP-NOW stand-in (tools/sim/espnow.py) loads before the heap fence, as
            # machine.py does: on the device espnow and network are built in.
            import espnow  # noqa: F401
            import network  # noqa: F401
        if opts["pilot"]:  # a player at the buttons (link games: tools/sim/link_pilot.py)
            from link_pilot import Pilot
            self.pilot = Pilot(self, opts["pilot"], opts["pilot-log"])

    def fence(self):
        """With --budget N: keep exactly N bytes of heap free for the firmware, in one
        piece as the device's heap is at boot, by holding the rest, so the simulator's
        own modules (this file, the machine and its models, already loaded) do not count
        against the device's heap: the budget is taken first, every other free block
        held (the largest that fit: loading the modules left holes), then the budget let
        go. (Holding only what lay beyond N left the firmware N bytes in the holes
        between the simulator's objects.) --names: the firmware's names are charged their
        device cost (qstr_pools.charge). With --model the modelled ESP-IDF heap is
        armed then."""
        if not self.budget and not self.names:
            return  # (the browser page's build has no qstr_pools)
        import gc
        import qstr_pools
        if self.names < 0:
            qstr_pools.print_count()
        if not self.budget:
            return
        charge = qstr_pools.charge(self.names)
        gc.collect()
        held = [None] * 512  # made first: a list grown in a full heap would fail
        reserve = bytearray(self.budget - charge)
        size = gc.mem_free() - 64
        n = 0
        while size >= 16 and n < 512:
            spare = gc.mem_free() - 64
            if spare < 16:
                break
            try:
                held[n] = bytearray(min(size, spare))
                n += 1
            except MemoryError:
                size //= 2
        self.ballast = held
        reserve = None  # noqa: F841 (the firmware's share, free again)
        gc.collect()
        if self.model:
            import heapmodel
            heapmodel.arm(self.model)
            if self.wifi_first:
                import network
                network.WLAN(network.STA_IF)

    def start(self):
        """Boots like firmware/main.py: the crash guard first, then the App."""
        self.fence()
        import app as appmod
        if not self.frame_ms:
            self.frame_ms = getattr(appmod, "FRAME_MS", 33)
        self.send(b"W %s\n" % str(getattr(appmod, "__file__", "?")).encode())
        self.boot()
        names = [b for b in _BUTTONS if b in getattr(self.board, "BUTTONS", {})]
        self.send(b"B %s %d %d %s\n" % (getattr(self.board, "NAME", "?").replace(" ", "_")
                                        .encode(), self.w, self.h, ",".join(names).encode()))

    def boot(self, cause=None):
        """(Re)starts the firmware: power-on, or after a crash or a deep sleep."""
        from app import App
        m = self.machine
        _T0[0] = _host_ms()
        self.boots += 1
        if cause is not None and hasattr(self.sim, "reset_cause"):
            self.sim.reset_cause = getattr(m, cause, 0)
            if cause == "DEEPSLEEP_RESET":
                self.sim.wake_reason = getattr(m, "EXT0_WAKE", 2)
        self.app = None
        self.last_screen = None
        try:
            import gc
            gc.collect()
        except ImportError:
            pass
        resume = False
        try:
            from system import guard
            resume = guard.boot(self.fs)
            self.guard = True  # (not the module: as main.py, let go of it after the boot)
            guard = None
        except ImportError:
            self.guard = None
        self.app = App(self.board, fs_root=self.fs, source=self.source())
        store = getattr(self.app, "store", None)
        if resume == 2 and store is not None and store.has_game():
            from ui.crashed import Crashed  # as main.py: crashed on each resume, ask
            from system.watch import again
            self.app.show(Crashed(self.app, again))
        elif resume and store is not None and store.has_game():
            self.app.resume()

    def source(self):
        """The dice's byte source for a boot: seeded with --seed, else None (the board's
        RNG, os.urandom). A front end without os.urandom (the browser page, web/webrun.py)
        gives its own."""
        return XorShift(int(self.seed)) if self.seed else None

    def crashed(self, e):
        """An exception escaped App.step: what main.py does on the device (log, the
        'restarting' screen, reset), then boot again."""
        if hasattr(sys, "print_exception"):
            sys.print_exception(e)
        else:
            import traceback
            traceback.print_exc()
        self.send(b"C %s: %s\n" % (type(e).__name__.encode(), str(e).encode()))
        if self.guard is not None:
            disp = getattr(self.app, "display", None) if self.app is not None else None
            try:
                from system.guard_fail import crashed
                crashed(e, self.fs, disp)
            except BaseException as e2:  # the simulated machine.reset() may raise
                if isinstance(e2, KeyboardInterrupt):
                    raise
        self.publish()

    def send(self, data):
        self.out.write(data)

    def flush(self):
        # MicroPython's files write straight through; its flush() fsyncs, which a
        # pipe refuses (EINVAL).
        try:
            self.out.flush()
        except OSError:
            pass

    def publish(self):
        """Sends what changed since the last call: frame, screen name, tone."""
        sim = self.sim
        oled = sim.oled
        rx = getattr(oled, "bytes_rx", None)
        if rx is None or rx != self.last_rx:
            self.last_rx = rx
            frame = oled.frame(self.frame_buf)
            if not self.sent_frame or frame != self.last_frame:
                self.sent_frame = True
                self.last_frame[:] = frame
                h = len(frame) * 8 // self.w if self.w else self.h
                self.send(b"F %d %d %d\n" % (self.w, h, len(frame)))
                self.send(frame)
        screen = getattr(self.app, "screen", None)
        name = getattr(screen, "NAME", None) if screen is not None else None
        if name != self.last_screen:
            self.last_screen = name
            self.send(b"S %s\n" % str(name).encode())
        tone = _tone(sim)
        if tone != self.last_tone:
            self.last_tone = tone
            self.send(b"T %d %d\n" % tone)
        if self.prompts:
            p = _prompt(screen)
            if p != self.last_prompt:
                self.last_prompt = p
                self.send(b"P " + p.encode() + b"\n")
        lit = getattr(oled, "lit", None)
        panel = (1 if lit is None or lit() else 0, getattr(oled, "contrast", 255))
        if panel != self.last_panel:
            self.last_panel = panel
            self.send(b"D %d %d\n" % panel)
        self.flush()

    def command(self, line):
        """Applies one input line; returns False on quit."""
        parts = line.split()
        if not parts:
            return True
        c = parts[0]
        if c == "q":
            return False
        try:
            if c == "p" and len(parts) > 1:
                self.sim.press(parts[1])
            elif c == "r" and len(parts) > 1:
                self.sim.release(parts[1])
            elif c == "s" and len(parts) > 1:
                self.sim.shake(parts[1] == "1")
        except ValueError:
            pass  # a button this board does not have
        return True

    def trim(self):
        """Empties the models' logs (panel commands, buzzer changes, sleeps): nobody
        reads them here, and grown to their caps they would hold tens of KB of the
        firmware's fenced heap (the device keeps no such logs)."""
        for obj, name in ((self.sim.oled, "commands"), (getattr(self.sim, "pwm", None), "log"),
                          (self.sim, "sleeps"), (self.sim, "i2c_log")):
            lst = getattr(obj, name, None)
            if isinstance(lst, list) and lst:
                del lst[:]

    def step(self, now):
        """One frame; a crash restarts the firmware like the device (a crash loop of
        three within five seconds ends the run)."""
        self.trim()
        try:
            self.app.step(now)
        except Reboot as r:  # the firmware itself called machine.reset()/deepsleep()
            if r.args and r.args[0] == "deepsleep":
                self.sleeping = True
            else:
                self.boot("SOFT_RESET")
        except Exception as e:
            self.crashed(e)
            self.crashes = [t for t in self.crashes if _ticks_diff(now, t) < 5000] + [now]
            if len(self.crashes) >= 3:
                raise
            self.boot("SOFT_RESET")

    def asleep_now(self):
        """True when the firmware went to deep sleep in the last step."""
        return self.sleeping or (getattr(self.app, "level", 0) >= 3
                                 and hasattr(self.app, "_deep_sleep"))

    def enter_deep(self):
        """What run() does on the device at the deep-sleep level: display off, wake pin
        armed, machine.deepsleep() (which the simulated machine turns into Reboot)."""
        if not self.sleeping:
            try:
                self.app._deep_sleep()
            except BaseException as e:
                if isinstance(e, KeyboardInterrupt):
                    raise
        self.sleeping = False
        self.send(b"Z 1\n")
        self.publish()

    def wake(self):
        """A button woke the chip: it boots (into Continue, as after a deep sleep)."""
        self.send(b"Z 0\n")
        self.boot("DEEPSLEEP_RESET")

    def deep_sleep(self, poller):
        """Deep sleep in live mode: wait for a button, then boot; False on quit."""
        self.enter_deep()
        while True:
            poller.poll(-1)
            line = sys.stdin.readline()
            if not line or line.startswith("q"):
                return False
            if line.startswith("p"):
                break
        self.command(line)  # the waking button is down while the chip boots
        self.wake()
        return True

    def live(self):
        import select
        poller = select.poll()
        poller.register(sys.stdin, select.POLLIN)
        period = self.frame_ms
        nxt = _ticks_ms()
        last_heap = nxt
        while True:
            wait = _ticks_diff(nxt, _ticks_ms())
            ready = poller.poll(wait if wait > 0 else 0)
            if ready:
                line = sys.stdin.readline()
                if not line:
                    return  # the front end went away
                if not self.command(line):
                    return
                continue
            now = _ticks_ms()
            if _ticks_diff(now, nxt) < 0:
                continue
            boots = self.boots
            if self.pilot is not None:
                self.pilot.tick(now)
            self.step(now)
            if self.pilot is not None:
                self.pilot.after()
            self.publish()
            if boots != self.boots:  # rebooted: its clock starts again at 0
                now = nxt = _ticks_ms()
            if self.asleep_now():
                if not self.deep_sleep(poller):
                    return
                now = _ticks_ms()
                nxt = now
            nxt += period
            if _ticks_diff(now, nxt) > 10 * period:
                nxt = now + period  # stalled (debugger, suspended): do not race
            if _ticks_diff(now, last_heap) >= 1000:
                last_heap = now
                try:
                    import gc
                    self.send(b"H %d\n" % gc.mem_free())
                except (ImportError, AttributeError):
                    pass

    def run_script(self, path):
        """Steps a virtual clock through a scenario file. Lines (# comments):
        wait MS | press B | release B | tap B | long B | shake MS | snap LABEL |
        until COND [MAX_MS] | expect COND | mash COND [MAX_EVENTS], where COND is a
        screen NAME or NAME.attr=value (e.g. frenzy.view=5)."""
        now = [1000]

        asleep = [False]

        def steps(ms):
            # The device's clock restarts at each boot; in deep sleep time just passes.
            left = ms
            while left > 0 and not asleep[0]:
                boots = self.boots
                self.step(now[0])
                now[0] += self.frame_ms
                left -= self.frame_ms
                if boots != self.boots:
                    now[0] = 0
                elif self.asleep_now():
                    self.enter_deep()
                    asleep[0] = True
            self.publish()

        def wake():
            if asleep[0]:
                asleep[0] = False
                self.wake()
                now[0] = 0

        def screen():
            return getattr(getattr(self.app, "screen", None), "NAME", None)

        def holds(cond):
            # "NAME" or "NAME.attr=value": the screen's NAME, and one of its attributes.
            name, _, rest = cond.partition(".")
            if screen() != name:
                return False
            if not rest:
                return True
            attr, _, want = rest.partition("=")
            return str(getattr(self.app.screen, attr, None)) == want

        def tap(b, hold=120):
            self.sim.press(b)
            wake()
            steps(hold)
            self.sim.release(b)
            steps(200)

        steps(self.frame_ms)
        with open(path) as f:
            lines = f.read().split("\n")
        pick = XorShift(int(self.seed or 1) + 77)
        for n, raw in enumerate(lines):
            line = raw.split("#")[0].strip()
            if not line:
                continue
            p = line.split()
            c = p[0]
            arg = p[1] if len(p) > 1 else ""
            if c == "wait":
                steps(int(arg))
            elif c == "press":
                self.sim.press(arg)
                wake()
                steps(self.frame_ms)
            elif c == "release":
                self.sim.release(arg)
                steps(self.frame_ms)
            elif c in ("tap", "long"):
                tap(arg, 120 if c == "tap" else 900)
            elif c == "shake":
                self.sim.shake(True)
                steps(int(arg) if arg else 600)
                self.sim.shake(False)
                steps(self.frame_ms)
            elif c == "snap":
                self.sent_frame = False
                self.last_rx = -1
                self.send(b"N %s\n" % arg.encode())
                self.publish()
            elif c in ("until", "expect"):
                limit = int(p[2]) if len(p) > 2 else (10000 if c == "until" else 0)
                t = 0
                while not holds(arg) and t < limit:
                    steps(self.frame_ms)
                    t += self.frame_ms
                if not holds(arg):
                    raise ValueError("%s:%d: screen is %s, not %s" % (path, n + 1, screen(), arg))
            elif c == "mash":
                # Random presses (NEXT, PREV, OK) and shakes, seeded, until the condition
                # holds: plays on to a game's end from a prepared position.
                limit = int(p[2]) if len(p) > 2 else 2000
                for _ in range(limit):
                    if holds(arg):
                        break
                    r = pick(1)[0] % 8
                    if r < 4:
                        tap("OK")
                    elif r < 6:
                        tap("NEXT")
                    elif r < 7:
                        tap("PREV")
                    else:
                        self.sim.shake(True)
                        steps(700)
                        self.sim.shake(False)
                        steps(600)
                if not holds(arg):
                    raise ValueError("%s:%d: mashing never reached %s (screen %s, view %s)" % (
                        path, n + 1, arg, screen(), getattr(self.app.screen, "view", None)))
            else:
                raise ValueError("%s:%d: unknown command %s" % (path, n + 1, c))
        self.flush()


def main(argv):
    opts = _args(argv)
    runner = Runner(opts)
    try:
        runner.start()
        runner.publish()
        if opts["script"]:
            runner.run_script(opts["script"])
        else:
            runner.live()
    except Exception as e:  # report to the front end, then the traceback on stderr
        try:
            runner.send(b"X %s: %s\n" % (type(e).__name__.encode(), str(e).encode()))
            runner.flush()
        except OSError:
            pass
        if hasattr(sys, "print_exception"):
            sys.print_exception(e)
        else:
            import traceback
            traceback.print_exc()
        sys.exit(1)


if __name__ == "__main__":
    main(sys.argv[1:])
