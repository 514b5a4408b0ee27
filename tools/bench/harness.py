"""Measurements run inside an interpreter (MicroPython unix port, the WebAssembly port
under Node, or CPython), started by tools/bench.py. Prints `R key value` lines.

    micropython -X heapsize=N tools/bench/harness.py MODE ROOT LIB [args...]

ROOT is the repository (tools/sim is taken from it), LIB the firmware as deployed (a
tools/build.py output for the sim board: .mpy files and board.mpy) or ROOT/firmware.
Modes:
  game FS KIND PLAYERS SEED BUDGET SAMPLE [PRELOAD]  boot like main.py on the simulated board, go
      to the menu, play one whole game (KIND 1 Shake Up, 2 Frenzy) by buttons and
      shakes, back to the menu. BUDGET > 0: the harness loads first, then all free heap
      but BUDGET bytes is fenced off, so the firmware runs in exactly BUDGET bytes.
      SAMPLE 1: gc.collect() after every frame and report the highest heap in use.
      Out of memory: `R memerr ...` and exit status 3. PRELOAD 1: every firmware
      module is imported before the fence and kept (app._LAZY emptied), so the budget
      holds only the firmware's data: an estimate of a frozen build, whose bytecode
      and qstrs stay in flash (module dicts and function objects, which a frozen
      build still makes in RAM, fall outside the budget too).
  frames FS         per-frame allocation (gc disabled) and display traffic.
  core              core speed (is_farkle, selections, Shake Up decisions).
  boot FS           time and allocation from main.py's start to the menu's first frame.
  imports           heap kept by each firmware module's import, in boot order.
Portable: no os.path, no f-strings, no `random`.
"""
import gc
import sys

try:
    import micropython
except ImportError:
    micropython = None

try:
    from time import ticks_diff, ticks_us
except ImportError:  # CPython
    import time as _time

    def ticks_us():
        return int(_time.perf_counter() * 1000000)

    def ticks_diff(a, b):
        return a - b

MP = hasattr(gc, "mem_alloc")


def out(key, *vals):
    sys.stdout.write("R " + key + " " + " ".join(str(v) for v in vals) + "\n")


def alloc():
    return gc.mem_alloc() if MP else 0


def live():
    gc.collect()
    return alloc()


def peak():
    if micropython is not None and hasattr(micropython, "mem_peak"):
        return micropython.mem_peak()
    return -1


def paths(root, lib):
    for p in (root + "/tools/bench", root + "/tools/sim", lib):
        if p not in sys.path:
            sys.path.insert(0, p)
    if _source(root, lib):
        sys.path.insert(0, root + "/boards")


def _source(root, lib):
    """LIB is the source tree (firmware/), not a build: the board comes from boards/."""
    return lib in (root + "/firmware", "firmware", "./firmware")


def _no_log(*args):
    pass


class _NoList:
    """Stands in for a host model's change log: nothing kept, so it costs no heap."""

    def __len__(self):
        return 0

    def append(self, item):
        pass


_pins = {}


def _rom_pins(machine, sim):
    """On the ESP32 a Pin is a constant object in flash and its state lives in hardware,
    so neither costs heap there. The simulator's stand-ins are Python objects: they are
    made here, before the fence, and Pin(n) hands out the same one each time, as the
    port does."""
    base = machine.Pin
    if getattr(base, "rom", False):
        return

    class RomPin(base):
        rom = True

        def __new__(cls, id, *args, **kw):
            p = _pins.get(id)
            if p is None:
                p = _pins[id] = object.__new__(cls)
            return p

    machine.Pin = RomPin
    for n in range(40):
        sim.pin(n)
        RomPin(n)


def sim_board(root, lib):
    """The simulated board, configured from the build's board profile."""
    paths(root, lib)
    if _source(root, lib):
        board = __import__("sim")
        sys.modules["board"] = board
    else:
        import board
    import machine
    sim = machine.SIM
    sim.configure(board)
    _rom_pins(machine, sim)
    sim.log_i2c = False  # the bus log holds frames: host memory, not the device's
    if sim.oled is not None and hasattr(sim.oled, "_log"):
        sim.oled._log = _no_log
    # The buzzer model logs every tone change (~20 KB over a game): host memory too.
    sim.pwm.log = _NoList()
    return board, sim


class PageBus:
    """An I2C bus that answers every write and counts bytes and display pages without
    allocating (hal.display sends a page as writevto([0x40], page))."""

    def __init__(self):
        self.bytes = 0
        self.pages = 0
        self.writes = 0
        self.mask = 0  # pages addressed by window commands (SSD1306), cumulative

    def writeto(self, addr, buf, stop=True):
        self.writes += 1
        self.bytes += 1 + len(buf)
        if len(buf) == 7 and buf[0] == 0 and buf[1] == 0x21 and buf[4] == 0x22:
            for p in range(buf[5], buf[6] + 1):
                self.mask |= 1 << p
        return len(buf)

    def writevto(self, addr, vector, stop=True):
        n = 0
        for b in vector:
            n += len(b)
        self.writes += 1
        self.bytes += 1 + n
        self.pages += (n - 1) // 128
        return n


_ballast = []


def fence(budget):
    """Leave exactly `budget` bytes of heap free, in one piece (the firmware's share;
    on the device the heap is one block at boot): a reserve of that size is taken
    first, then every other free block down to single GC blocks is filled, then the
    reserve is let go. Without the filling the firmware would also get the holes the
    harness left, and without the reserve only those holes."""
    gc.collect()
    slots = [None] * 40000
    _ballast.append(slots)
    reserve = bytearray(budget)
    n = 0
    size = 1 << 22
    while size >= 1 and n < 40000:
        try:
            slots[n] = bytearray(size)
            n += 1
        except MemoryError:
            size >>= 1
    while n < 40000:  # holes too small for a bytearray: one-block tuples
        try:
            slots[n] = (n,)
            n += 1
        except MemoryError:
            break
    reserve = None  # noqa: F841 (the reference goes; the next collection frees it)
    gc.collect()


def mkdir(path):
    import os
    try:
        os.mkdir(path)
    except OSError:
        pass


# ---- game -----------------------------------------------------------------------------

class Session:
    """One scripted game, a frame at a time: `tick(collect)` looks at the heap (with
    collect, after gc.collect(); without, as it is: the WebAssembly port collects only
    between calls from JavaScript, so its runner collects before each tick) and runs
    one frame. False when the game is over (or memory ran out)."""

    def __init__(self, root, lib, fs, kind, players, seed, budget, sample, preload=0):
        self.board, self.sim = sim_board(root, lib)
        self.kept = []
        if preload:
            for name in BOOT_ORDER:
                self.kept.append(__import__(name))
            sys.modules["app"]._LAZY = ()
        import pilot
        self.pilot = pilot
        mkdir(fs)
        self.fs = fs
        self.kind = kind
        self.players = players
        self.seed = seed
        self.sample = sample
        gc.collect()
        out("harness_heap", alloc())
        self.peak0 = peak()
        if budget:
            fence(budget)
        self.base = live()
        self.top = 0
        self.menu = -1
        self.last = 0
        self.stage = "boot"
        self.d = None
        self.ok = False
        self.gen = self._script()

    def set_base(self):
        self.base = alloc()

    def _script(self):
        # main.py: the crash guard, then the App (a seeded dice source here).
        import guard
        guard.boot(self.fs)
        from app import App
        app = App(self.board, fs_root=self.fs, source=self.pilot.XorShift(self.seed))
        # The panel's bus becomes a counter: the simulator's panel model is host code
        # that allocates per frame, and the pilot reads the screens, not the pixels.
        app.display.i2c = PageBus()
        d = self.d = self.pilot.Driver(app, self.sim, self.seed)
        self.stage = "menu"
        yield from d.to_menu()
        self.stage = "game"
        if self.sample and micropython is not None and hasattr(micropython, "qstr_info"):
            micropython.qstr_info()  # "qstr pool: n_pool=..., n_total_bytes=..."
        yield
        yield from d.new_game(self.kind, self.players)
        if self.kind == 1:
            yield from d.play_shakeup()
        else:
            yield from d.play_frenzy()
        self.stage = "end"
        yield from d.to_menu()

    def tick(self, collect=True):
        """After the game (gen None) it only looks at the heap: the finished generators
        would keep the game's objects reachable through stale stack slots."""
        if self.sample:
            a = (live() if collect else alloc()) - self.base
            self.last = a
            if a > self.top:
                self.top = a
            if self.stage == "game" and self.menu < 0:
                self.menu = a
        if self.gen is None:
            return False
        try:
            next(self.gen)
        except StopIteration:
            self.ok = True
            return False
        except MemoryError as e:
            out("memerr", self.stage, self.d.frames_run if self.d is not None else 0, str(e))
            return False
        except self.pilot.Stuck as e:  # the firmware stalled (e.g. it swallowed an error)
            out("stuck", self.stage, self.d.frames_run if self.d is not None else 0,
                str(e).replace(" ", "_"))
            return False
        return True

    def report(self):
        if not self.ok:
            return
        d = self.d
        out("decisions", d.decisions)
        out("frames", d.frames_run)
        out("peak_delta", peak() - self.peak0 if self.peak0 >= 0 else -1)
        if self.sample:
            out("menu_heap", self.menu)
            out("end_heap", self.last)
            out("live_peak", self.top)
        out("ok", 1)


def game(root, lib, fs, kind, players, seed, budget, sample, preload=0):
    s = Session(root, lib, fs, kind, players, seed, budget, sample, preload)
    while s.tick():
        pass
    s.gen = None
    s.tick()
    s.report()
    if not s.ok:
        sys.exit(3)


# ---- frames ---------------------------------------------------------------------------

class StandIn:
    """Devices for the frame measurements: the real hal Display on a counting bus, the
    real event queue; inputs go straight into the queue at the next poll."""

    def __init__(self):
        from hal.display import Display
        from hal.events import Queue
        self.bus = PageBus()
        self.display = Display(self.bus)
        self.queue = Queue(32)
        self.buzzer = None
        self.shaker = None
        self.sensor_missing = False
        self.battery = None
        self.pending = bytearray(8)
        self.np = 0

    def source(self, n):
        raise ValueError("the bench gives the App a seeded source")

    def push(self, ev):
        self.pending[self.np] = ev
        self.np += 1

    def poll(self, now):
        for i in range(self.np):
            self.queue.put(self.pending[i])
        self.np = 0


_NAMES = ("PREV", "NEXT", "OK", "BACK")


class StandInSim:
    """What the pilot calls on machine.SIM, as events into the stand-in's queue."""

    def __init__(self, dev):
        self.dev = dev

    def press(self, name):
        self.dev.push(0x10 | _NAMES.index(name))

    def release(self, name):
        self.dev.push(0x20 | _NAMES.index(name))

    def shake(self, on):
        self.dev.push(0x50 if on else 0x60)


def _measure(d, frames, feed=None):
    """Bytes allocated over `frames` frames with collection off; feed(i) adds inputs."""
    app = d.app
    t = d.now
    gc.collect()
    gc.disable()
    try:
        before = alloc()
        for i in range(frames):
            if feed is not None:
                feed(i)
            app.step(t)
            t += 33
        used = alloc() - before
    finally:
        gc.enable()
    d.now = t
    return used


def _traffic(d, feed, frames=30):
    """(bus bytes, pages) of each frame that sent something, over `frames` frames."""
    app = d.app
    bus = d.dev.bus
    got = []
    for i in range(frames):
        if feed is not None:
            feed(i)
        b0 = bus.bytes
        p0 = bus.pages
        bus.mask = 0
        app.step(d.now)
        d.now += 33
        if bus.bytes != b0:
            got.append((bus.bytes - b0, bus.pages - p0, bus.mask))
    return got


def _report_traffic(name, got):
    if not got:
        out("traffic", name, 0, 0, 0, 0)
        return
    mx = max(g[0] for g in got)
    mp = max(g[1] for g in got)
    avg = sum(g[0] for g in got) // len(got)
    masks = ",".join("%02x" % g[2] for g in got)
    out("traffic", name, len(got), avg, mx, mp, masks)


def frames(root, lib, fs):
    paths(root, lib)
    import pilot
    mkdir(fs)
    from app import App
    dev = StandIn()
    app = App(None, fs_root=fs, devices=dev, source=pilot.XorShift(3))
    d = pilot.Driver(app, StandInSim(dev), 3)
    d.dev = dev
    d.run(d.frames(1500))
    d.run(d.to_menu())
    n = 60

    def press(code, every):
        def feed(i):
            if i % every == 0:
                dev.push(code)
        return feed

    nxt = press(0x11, 3)
    # Menu.
    d.run(d.frames(100))
    out("alloc", "idle_menu", n, _measure(d, n))
    _measure(d, 18, nxt)  # every item drawn once first (first draws may intern text)
    out("alloc", "menu_cursor", n, _measure(d, n, nxt))
    _report_traffic("menu_cursor", _traffic(d, press(0x11, 4), 24))
    # A full screen change: menu -> Shake Up setup.
    scr = app.screen
    while scr.items[scr.cur] != "SHAKE UP":
        d.run(d.tap("NEXT"))
    d.run(d.frames(100))
    got = _traffic(d, press(0x12, 100), 3)
    _report_traffic("screen_change", got[:1])
    d.run(d.frames(100))
    # Shake Up: to the first turn's board (2 players), through the roll-off.
    d.run(d.tap("OK"))
    ss = sys.modules["ui.shakeup_screen"]
    for _ in range(200):
        s = app.screen
        if s.NAME == "shakeup" and s.view == ss.BOARD:
            break
        if s.NAME == "pass" or (s.NAME == "shakeup" and s.view != ss.ROLLOFF) or len(s.info):
            d.run(d.tap("OK"))
        else:
            d.run(d.tap("OK"))
            d.run(d.frames(600))
    s = app.screen
    if s.NAME != "shakeup" or s.view != ss.BOARD:
        raise ValueError("frames: never reached the Shake Up board (%s)" % s.NAME)
    dev.push(0x50)  # SHAKE_START: the dice tumble until SHAKE_END
    d.run(d.frames(66))
    out("alloc", "su_tumble", n, _measure(d, n))
    _report_traffic("su_tumble", _traffic(d, None, 30))
    dev.push(0x60)
    d.run(d.frames(100))
    if s.view != ss.DICE:
        raise ValueError("frames: the dice did not land")
    _measure(d, 18, press(0x11, 2))
    out("alloc", "su_dice_cursor", n, _measure(d, n, press(0x11, 2)))
    _report_traffic("su_dice_cursor", _traffic(d, press(0x11, 4), 24))
    # Farkle Frenzy, solo: the Common Die, a roll, the take view.
    d.run(d.tap("BACK"))
    d.run(d.to_menu())
    d.run(d.new_game(2, 1))
    fs_ = sys.modules["ui.frenzy_screen"]
    fz = sys.modules["core.frenzy"]
    tumbled = False
    for _ in range(50):
        s = app.screen
        if s.NAME == "frenzy" and s.view == fs_.PLAY and s.game.phase == fz.PH_TAKE:
            break
        if s.NAME == "frenzy" and s.view == fs_.PLAY and s.game.phase in (fz.PH_COMMON,
                                                                            fz.PH_ROLL):
            d.run(d._item(fs_.IT_ROLL))
            dev.push(0x12)
            d.run(d.frames(66))
            if not app.tumbling:
                raise ValueError("frames: no tumble in Frenzy")
            if not tumbled:  # after OK the dice tumble 450 ms (13 frames), then land
                tumbled = True
                out("alloc", "fz_tumble", 10, _measure(d, 10))
            d.run(d.frames(600))
        elif s.NAME == "frenzy" and s.view == fs_.PLAY and s.game.phase == fz.PH_WILD:
            d.run(d.tap("OK"))
        else:
            d.run(d.tap("OK"))
    s = app.screen
    if s.NAME != "frenzy" or s.game.phase != fz.PH_TAKE:
        raise ValueError("frames: never reached a Frenzy take")
    _measure(d, 18, press(0x11, 2))
    out("alloc", "fz_take_cursor", n, _measure(d, n, press(0x11, 2)))
    _report_traffic("fz_take_cursor", _traffic(d, press(0x11, 4), 24))
    out("ok", 1)


# ---- core speed -----------------------------------------------------------------------

def _rolls():
    """All 5-dice rolls (6^5) as one bytes of 5-byte records."""
    b = bytearray(5 * 7776)
    j = 0
    for a in range(1, 7):
        for c in range(1, 7):
            for e in range(1, 7):
                for f in range(1, 7):
                    for g in range(1, 7):
                        b[j] = a
                        b[j + 1] = c
                        b[j + 2] = e
                        b[j + 3] = f
                        b[j + 4] = g
                        j += 5
    return bytes(b)


def core(root, lib, quick=False):
    paths(root, lib)
    from core import frenzy_score as fsc
    from core import shakeup as su
    from core.dice import Dice, Seeded
    allr = _rolls()
    views = [memoryview(allr)[i:i + 5] for i in range(0, len(allr), 5)]
    commons = (None, 1, 2, 3, 4, 5, 6)
    if quick:
        views = views[:1000]
    # is_farkle: every roll with every usable number of the Common Die (or none).
    is_f = fsc.is_farkle
    n = 0
    t0 = ticks_us()
    for c in commons:
        for r in views:
            is_f(r, c)
        n += len(views)
    out("speed", "is_farkle", n, ticks_diff(ticks_us(), t0))
    # selections: the scored selection list of every roll (with none and a 1 and a 5).
    sel = fsc.selections
    n = 0
    t0 = ticks_us()
    for c in (None, 1, 5):
        for r in views:
            sel(r, c)
        n += len(views)
    out("speed", "selections", n, ticks_diff(ticks_us(), t0))
    # Shake Up: legal() + apply() per decision over seeded 4-player games.
    games = 3 if quick else 30
    pick = Seeded(99)
    n = 0
    t = 0
    for k in range(games):
        g = su.Game(4, False, Dice(Seeded(k + 1)))
        t0 = ticks_us()
        while g.winner < 0:
            legal = g.legal()
            d = legal[pick(1)[0] % len(legal)]
            if d & 0xF00 == su.PEN and len(legal) > 1:
                d = legal[-1]
            g.apply(d)
            n += 1
        t += ticks_diff(ticks_us(), t0)
    out("speed", "shakeup_decision", n, t)
    out("ok", 1)


# ---- boot -----------------------------------------------------------------------------

def boot(root, lib, fs):
    board, sim = sim_board(root, lib)
    import pilot
    mkdir(fs)
    src = pilot.XorShift(5)
    base = live()
    if MP:
        gc.disable()
    a0 = alloc()
    t0 = ticks_us()
    # What main.py does, up to the first frame (run() would loop from there).
    import guard
    guard.boot(fs)
    from app import App
    app = App(board, fs_root=fs, source=src)
    t_app = ticks_diff(ticks_us(), t0)
    now = 1000
    app.step(now)
    t_first = ticks_diff(ticks_us(), t0)
    a_first = alloc() - a0
    frames_n = 1
    while getattr(app.screen, "NAME", "") != "menu" and frames_n < 200:
        now += 33
        app.step(now)
        frames_n += 1
    t_menu = ticks_diff(ticks_us(), t0)
    a_menu = alloc() - a0
    if MP:
        gc.enable()
    kept = live() - base
    menu = sys.modules.get("ui.menu") or sys.modules["ui.screens"]  # Splash: ui.menu now
    splash = getattr(getattr(menu, "Splash", None), "MS", 0)
    out("boot", t_app, t_first, t_menu, a_first, a_menu, kept, frames_n, splash)
    out("ok", 1)


# ---- imports --------------------------------------------------------------------------

# What boot keeps, then the menu, then each game's resident modules, then modules loaded
# on demand for a moment (the figure is what each would add while loaded).
BOOT_ORDER = ("guard", "store", "power", "ui.gfx", "ui.font", "ui.screens", "ui.sounds",
              "hal.events", "hal.display", "hal.buttons", "hal.buzzer", "hal.shake",
              "hal.mpu6050", "core.dice", "app", "ui.menu",
              "core.shakeup", "ui.shakeup_screen",
              "core.frenzy", "ui.frenzy_screen", "ui.frenzy_draw",
              "core.frenzy_score", "core.frenzy_new", "ui.frenzy_text", "core.frenzy_load",
              "store_end", "store_load", "ui.launch", "ui.settings", "ui.howto", "ui.stats")


class Imports:
    """Heap kept by each module's import (and what it pulls in not yet loaded), in
    boot order, one module per tick (see Session.tick)."""

    def __init__(self, root, lib):
        self.board, self.sim = sim_board(root, lib)
        self.i = 0
        self.prev = live()
        self.rows = []
        self.ok = False

    def set_base(self):
        self.prev = alloc()

    def tick(self, collect=True):
        a = live() if collect else alloc()
        if 0 < self.i <= len(BOOT_ORDER) and not self.ok:
            self.rows.append((BOOT_ORDER[self.i - 1], a - self.prev))
        self.prev = a
        if self.i >= len(BOOT_ORDER):
            self.ok = True
            self.i += 1
            return False
        name = BOOT_ORDER[self.i]
        self.i += 1
        if name not in sys.modules:
            try:
                __import__(name)
            except ImportError as e:
                out("import_missing", name, str(e).replace(" ", "_"))
        return True

    def report(self):
        total = 0
        for name, k in self.rows:
            total += k
            out("import", name, k)
        out("import_total", total)
        out("ok", 1)


def imports(root, lib):
    s = Imports(root, lib)
    while s.tick():
        pass
    s.report()


def session(argv):
    """The stepwise form of the game and imports modes (for the WebAssembly runner)."""
    mode, root, lib = argv[0], argv[1], argv[2]
    a = argv[3:]
    if mode == "game":
        return Session(root, lib, a[0], int(a[1]), int(a[2]), int(a[3]), 0, 1)
    return Imports(root, lib)


def main(argv):
    mode = argv[0]
    root = argv[1]
    lib = argv[2]
    a = argv[3:]
    if mode == "game":
        game(root, lib, a[0], int(a[1]), int(a[2]), int(a[3]), int(a[4]), int(a[5]),
             int(a[6]) if len(a) > 6 else 0)
    elif mode == "frames":
        frames(root, lib, a[0])
    elif mode == "core":
        core(root, lib, bool(a and a[0] == "quick"))
    elif mode == "boot":
        boot(root, lib, a[0])
    elif mode == "imports":
        imports(root, lib)
    else:
        raise ValueError("harness: unknown mode " + mode)


if __name__ == "__main__" and len(sys.argv) > 1:
    main(sys.argv[1:])
