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
      module is imported before the fence and kept (all in app._KEEP), so the budget
      holds only the firmware's data: an estimate of a frozen build, whose bytecode
      and qstrs stay in flash (module dicts and function objects, which a frozen
      build still makes in RAM, fall outside the budget too; so does the qstr pool the
      run's few new names would open: see qstr_pool_here).
  frames FS         per-frame allocation (gc disabled) and display traffic.
  core              core speed (is_farkle, selections, Shake Up decisions).
  boot FS           time and allocation from main.py's start to the menu's first frame.
  imports           heap kept by each firmware module's import, in boot order.
The last four live in tools/bench/modes.py, so that a game run interns none of their
names (see qstr_margin).
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


_PROBES = 40


def qstr_margin():
    """Exit (status 4) unless the qstr pools have room for _PROBES more names.

    Interned names live in pools that MicroPython allocates as blocks, each twice the
    last (the next one on the 64-bit unix port: 640 entries, ~7 KB). The firmware's
    names must open that pool inside its budget, as they would on the device; if the
    harness's own names (the pilot, the simulator, the arguments) reached the end of
    the current pool first, the pool would be made outside the budget and the firmware
    would get it free: ~7 KB off every heap figure. Probe names are interned (getattr
    interns its name) and the heap watched: a pool's allocation shows as a jump."""
    if not MP:
        return
    gc.collect()
    a = gc.mem_alloc()
    for i in range(_PROBES):
        getattr(None, "qprobe%d" % i, None)
    gc.collect()
    grew = gc.mem_alloc() - a
    if grew > 2048:
        out("error", "qstr_margin", grew)
        sys.stdout.write("harness: its own names opened a new qstr pool (%d bytes) before "
                         "the fence; intern fewer names in tools/bench or tools/sim\n" % grew)
        sys.exit(4)


def qstr_pool_here():
    """PRELOAD: a frozen build keeps the firmware's names in flash, so no qstr pool may
    open inside the budget. The firmware's preloaded names fill the current pool almost
    to its end, and the few it makes at run time (boot-only modules) would open the next
    one (~14 KB on the 64-bit unix port) after the fence: probe names are interned here,
    before it, until that pool has opened."""
    if not MP:
        return
    for i in range(0, 4000, 10):
        gc.collect()
        a = gc.mem_alloc()
        for j in range(i, i + 10):
            getattr(None, "qpool%d" % j, None)
        gc.collect()
        if gc.mem_alloc() - a > 2048:
            return


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
            from modes import BOOT_ORDER
            for name in BOOT_ORDER:
                try:
                    self.kept.append(__import__(name))
                except ImportError:  # a module this firmware does not have
                    pass
            # Frozen, every module stays: the app forgets none.
            sys.modules["app"].forget = lambda names: None
        import pilot
        self.pilot = pilot
        mkdir(fs)
        self.fs = fs
        self.kind = kind
        self.players = players
        self.seed = seed
        self.sample = sample
        self.top = 0
        self.menu = -1
        self.last = 0
        self.stage = "boot"
        self.ok = False
        # The harness's own objects, made before the fence so that they are not charged
        # to the firmware: the pilot (its App comes later), the seeded dice source that
        # stands in for the hardware's, the panel's counting bus, the script itself.
        # Their names are interned before the fence too, in the qstr pools the
        # firmware's names fill next: qstr_margin() checks that the harness leaves the
        # next pool (~7 KB on the 64-bit unix port) for the firmware to open.
        self.d = pilot.Driver(None, self.sim, seed)
        self.source = pilot.XorShift(seed)
        self.bus = PageBus()
        self.gen = self._script()
        if preload:
            qstr_pool_here()
        else:
            qstr_margin()
        gc.collect()
        out("harness_heap", alloc())
        self.peak0 = peak()
        if budget:
            fence(budget)
        self.base = live()

    def set_base(self):
        self.base = alloc()

    def _script(self):
        # main.py: the crash guard, then the App (a seeded dice source here).
        import guard
        guard.boot(self.fs)
        from app import App
        d = self.d
        d.app = App(self.board, fs_root=self.fs, source=self.source)
        # The panel's bus becomes a counter: the simulator's panel model is host code
        # that allocates per frame, and the pilot reads the screens, not the pixels.
        d.app.display.i2c = self.bus
        self.stage = "menu"
        yield from d.to_menu()
        self.stage = "game"
        if self.sample and micropython is not None and hasattr(micropython, "qstr_info"):
            micropython.qstr_info()  # "qstr pool: n_pool=..., n_total_bytes=..."
        yield
        yield from d.new_game(self.kind, self.players)
        # Tick by tick, not by nested generators: the pilot keeps only small ints and
        # its preallocated objects across frames, so only this frame stays alive.
        d.start_play(self.kind)
        while d.play_tick():
            yield
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
            out("memerr", self.stage, self.d.frames_run, str(e))
            return False
        except self.pilot.Stuck as e:  # the firmware stalled (e.g. it swallowed an error)
            out("stuck", self.stage, self.d.frames_run, str(e).replace(" ", "_"))
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


def _modes():
    # Run as a script, this file is __main__ and modes.py loads it once more as
    # `harness` for the helpers (their state is not shared with this copy's).
    import modes
    return modes


def session(argv):
    """The stepwise form of the game and imports modes (for the WebAssembly runner)."""
    mode, root, lib = argv[0], argv[1], argv[2]
    a = argv[3:]
    if mode == "game":
        return Session(root, lib, a[0], int(a[1]), int(a[2]), int(a[3]), 0, 1)
    return _modes().Imports(root, lib)


def main(argv):
    mode = argv[0]
    root = argv[1]
    lib = argv[2]
    a = argv[3:]
    if mode == "game":
        game(root, lib, a[0], int(a[1]), int(a[2]), int(a[3]), int(a[4]), int(a[5]),
             int(a[6]) if len(a) > 6 else 0)
    elif mode == "frames":
        _modes().frames(root, lib, a[0])
    elif mode == "core":
        _modes().core(root, lib, bool(a and a[0] == "quick"))
    elif mode == "boot":
        _modes().boot(root, lib, a[0])
    elif mode == "imports":
        _modes().imports(root, lib)
    else:
        raise ValueError("harness: unknown mode " + mode)


if __name__ == "__main__" and len(sys.argv) > 1:
    main(sys.argv[1:])
