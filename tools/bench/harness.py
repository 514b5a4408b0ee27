"""Measurements run inside an interpreter (the MicroPython unix port, 32-bit as the
ESP32 or 64-bit, or CPython), started by tools/bench/bench.py. Prints `R key value` lines.

    micropython -X heapsize=N tools/bench/harness.py MODE ROOT LIB [args...]

ROOT is the repository (tools/sim, tools/bench and build/bench/fw_codes.py are taken
from it), LIB the firmware as deployed (a tools/flashing/build.py output for the sim board:
.mpy files and board.mpy) or ROOT/firmware.
Modes:
  path DATA PATH SEED BUDGET SAMPLE [PRELOAD [FRAMES [NAMES [MODEL NOPIN ESP32 BOARD]]]]
      one path of the firmware (see
      PATHS below: a new game, a Continue, a menu screen, random play...) on the
      simulated board, as the device runs it: the build and DATA (a host folder of
      data files, or -) on a LittleFS on RAM blocks mounted at "/" (tools/bench/lfs.py),
      main.py's calls, the menu, the path, back to the menu. BUDGET > 0: the harness
      loads first, then all free heap but BUDGET bytes is fenced off, so the firmware
      runs in exactly BUDGET bytes (the qstr pools for its NAMES new names included:
      qstr_pools.charge; `R qstr fence|end` lines count them). SAMPLE
      1: gc.collect() after every frame and report the highest heap in use (2: and
      each new highest, its frame and the firmware's modules resident then). Out of
      memory: `R memerr ...` and exit status 3. PRELOAD 1: every module of the build
      is imported before the fence and kept (app.forget does nothing), so the budget holds
      only the firmware's data: an estimate of a frozen build, whose bytecode and
      qstrs stay in flash (module dicts and function objects, which a frozen build
      still makes in RAM, fall outside the budget too; so does the qstr pool the
      run's few new names would open: see qstr_pools.open_next). FRAMES: random play's
      length. MODEL > 0 (the heap model's binary, tools/bench/mp32.py --heap): BUDGET is
      ignored; the firmware gets the ESP32's first area (FIRST_POOL) less the device's
      boot costs (main.py measured here, ESP32 bytes for the port's frozen modules,
      the board profile: BOARD bytes, the biggest device profile's, or the sim's
      measured here if more), then an ESP-IDF heap of MODEL bytes to grow into;
      `R model added freed held held_max idf_free idf_low` at the end. NOPIN 1: the
      firmware's hold on the growth (firmware/system/heap.py) is left out.
  frames FS         per-frame allocation (gc disabled) and display traffic.
  core              core speed (is_farkle, selections, Shake Up decisions).
  boot FS           time and allocation from main.py's start to the menu's first frame.
  imports           heap kept by each firmware module's import, in boot order.
The last four live in tools/bench/modes.py, so that a path run interns none of their
names (see tools/sim/qstr_pools.py).
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
    for p in (root + "/tools/bench", root + "/tools/sim", root + "/build/bench", lib):
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


BOOT = {"board": 0}  # the board profile's heap (the heap model charges it to the device)


def sim_board(root, lib):
    """The simulated board, configured from the build's board profile."""
    paths(root, lib)
    if _source(root, lib):
        board = __import__("sim")
        sys.modules["board"] = board
    else:
        gc.collect()
        a = alloc()
        import board
        gc.collect()
        BOOT["board"] = alloc() - a
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

    def readfrom_into(self, addr, buf, stop=True):
        # The panel's status byte (hal.display check()): on, ready.
        self.bytes += 1 + len(buf)
        for i in range(len(buf)):
            buf[i] = 0


_ballast = []


# The heap model (tools/bench/mp32.py --heap): the ESP32's first area, 56 KB
# (ports/esp32/mpconfigport.h:32 at v1.28.0), holds 3500 blocks of 16 bytes once its
# tables are laid out (py/gc.c:149-167): 56,000 bytes.
FIRST_POOL = (56 * 1024 - 1) * 8 // (8 + 4 + 512) * 4 * 16


def main_py_cost(lib):
    """What main.py run as source keeps while the app runs: its compiled code (the ESP32
    port compiles it at boot: ports/esp32/main.c pyexec_file_if_exists("main.py"))."""
    with open(lib.rstrip("/") + "/main.py") as f:
        src = f.read()
    gc.collect()
    a = alloc()
    code = compile(src, "main.py", "exec")
    gc.collect()
    kept = alloc() - a
    code = None  # noqa: F841
    return kept


class _NoPin:
    """The firmware without its hold on the heap's growth (firmware/system/heap.py), for the
    bench's churn before it: the heap grows and shrinks as the path needs."""

    @staticmethod
    def hold_growth():
        return None


def fence(budget):
    """Leave exactly `budget` bytes of heap free, in one piece (the firmware's share;
    on the device the heap is one block at boot): a reserve of that size is taken
    first, then every other free block down to single GC blocks is filled, then the
    reserve is let go. Without the filling the firmware would also get the holes the
    harness left, and without the reserve only those holes."""
    gc.collect()
    slots = [None] * 10000
    _ballast.append(slots)
    reserve = bytearray(budget)
    n = 0
    size = 1 << 22
    while size >= 1 and n < 10000:
        try:
            slots[n] = bytearray(size)
            n += 1
        except MemoryError:
            size >>= 1
    while n < 10000:  # holes too small for a bytearray: one-block tuples
        try:
            slots[n] = (n,)
            n += 1
        except MemoryError:
            break
    reserve = None  # noqa: F841 (the reference goes; the next collection frees it)
    gc.collect()


def _unfence():
    """Let go of the fence's biggest filling block (the App, which still holds the
    firmware's heap, may leave no room at all for a report line)."""
    for slots in _ballast:
        for i in range(len(slots)):
            if slots[i] is not None:
                slots[i] = None
                return


def mkdir(path):
    import os
    try:
        os.mkdir(path)
    except OSError:
        pass


# ---- paths ----------------------------------------------------------------------------

# Every path the bench measures (tools/bench/bench.py PATHS): KIND is 1 Shake Up, 2 Frenzy.
#   new:KIND    a new 4-player game from the menu, played to the end by the pilot
#   cont:KIND   Continue of the saved game in DATA from the menu, played to the end
#   menu        the menu itself: the cursor round its items
#   settings, howto, stats   that menu screen, every line or page of it, back
#   rand:KIND   the Monkey (random inputs) for FRAMES frames, heading for that game
#   saves:KIND  (no budget) a new game by the pilot; prints its heaviest saved moment
#               and the files after the game (`R file heavy|final NAME HEX`), the DATA
#               of cont:KIND and of stats
#   cpu:KIND    a new 4-player game of KIND: a human and CPUs EASY, NORMAL, HARD
MENU_ITEMS = {"settings": "SETTINGS", "howto": "HOW TO PLAY", "stats": "STATS"}
RAND_FRAMES = 6000


def _read_data(data):
    """name -> bytes of the files in the host folder DATA ("-": none)."""
    import os
    got = {}
    if data and data != "-":
        for name in os.listdir(data):
            with open(data + "/" + name, "rb") as f:
                got[name] = f.read()
    return got


def _preload(lib, kept):
    """Import every module of the build (boot order first) and keep it: a frozen
    build's code is in flash. Returns the names."""
    import os
    from modes import BOOT_ORDER
    names = list(BOOT_ORDER)

    def walk(d, pkg):
        for ent in os.ilistdir(d):
            n, kind = ent[0], ent[1]
            if kind == 0x4000:
                walk(d + "/" + n, pkg + n + ".")
            elif n.endswith(".mpy") and n != "board.mpy":
                m = pkg + n[:-4]
                if m.endswith(".__init__"):
                    m = m[:-9]
                if m not in names:
                    names.append(m)
    walk(lib.rstrip("/"), "")
    got = []
    for name in names:
        try:
            kept.append(__import__(name))
            got.append(name)
        except ImportError:
            pass
    return got


# The harness's and the simulator's modules (SAMPLE 2 lists the firmware's only).
_HOST_MODULES = ("lfs", "fw_codes", "modes", "monkey", "pilot", "xorshift", "harness",
                 "board", "machine", "sim", "__main__", "codes", "accel_model", "oled_model")


class Session:
    """One path, a frame at a time: `tick()` looks at the heap (SAMPLE: after
    gc.collect()) and runs one frame; False when the path is over (or memory ran out)."""

    def __init__(self, root, lib, data, path, seed, budget, sample, preload=0,
                 frames=RAND_FRAMES, names=0, model=0, nopin=0, esp32=0, board=0):
        # The device's flash first, while the heap is in one piece (a big bytearray).
        paths(root, lib)
        import lfs
        self.lfs = lfs
        self.flash = lfs.Flash()
        self.board, self.sim = sim_board(root, lib)
        self.kept = []
        what, _, kind = path.partition(":")
        self.what = what
        self.kind = int(kind) if kind else 0
        self.path = path
        if what not in ("new", "cont", "menu", "settings", "howto", "stats", "rand", "saves",
                        "cpu"):
            raise ValueError("harness: unknown path " + path)
        # The device's flash: LittleFS on RAM blocks, the build and DATA copied in
        # (before the fence: on the device these bytes are flash, not heap).
        import fw_codes  # noqa: F401  (the pilot's, loaded before the host's files go)
        import modes  # noqa: F401  (_preload's, as well)
        import monkey
        import pilot
        import qstr_pools
        lfs.prepare(self.flash, lib, _read_data(data))
        self.mounted = False
        if preload:
            # The code is imported from the flash as in a run (a package's path is
            # where it was found), before the fence; the mount's buffers fall outside
            # the budget too here.
            self._mount()
            _preload("/", self.kept)
            # Frozen, every module stays: the app forgets none.
            sys.modules["app"].forget = lambda names: None
        self.pilot = pilot
        self.seed = seed
        self.sample = sample
        self.top = 0
        self.coarse = 0 if budget or sample else 1  # a run without a budget: see tick()
        self.ticks = 0
        self.menu = -1
        self.last = 0
        self.stage = "boot"
        self.ok = False
        self.heavy = None     # saves: the heaviest data files seen, and when
        self.heavy_n = -1
        self.heavy_at = 0
        self.writes = 0
        # The harness's own objects, made before the fence so that they are not charged
        # to the firmware: the pilot and the monkey (their App comes later), the seeded
        # dice source that stands in for the hardware's, the panel's counting bus, the
        # script itself.
        self.d = pilot.Driver(None, self.sim, seed)
        self.m = monkey.Monkey(self.sim, getattr(self.board, "BUTTONS", {"OK": 0, "NEXT": 0}),
                               seed)
        self.frames_left = frames
        self.source = pilot.XorShift(seed)
        self.bus = PageBus()
        self.gen = self._script()
        charge = 0
        if preload:
            qstr_pools.open_next()
        else:
            charge = qstr_pools.charge(names)
        out("qstr_charge", names, charge)
        gc.collect()
        out("harness_heap", alloc())
        self.peak0 = peak()
        self.model = model
        if model:
            # The heap model: the first area's blocks but what the device's boot put
            # there first (the board profile, main.py's code, the ESP32 port's frozen
            # modules: ESP32 bytes, tools/heapmodel/esp32_boot.py), in one piece; then
            # the ESP-IDF heap of MODEL bytes, which the heap grows into.
            import heapmodel
            self.heapmodel = heapmodel
            self.coarse = 0  # no collections of the harness's own in the path
            main = main_py_cost(lib)
            board = max(board, BOOT["board"])  # the biggest device profile's, or the sim's
            budget = FIRST_POOL - board - main - esp32
            out("model_first", budget, board, main, esp32)
            if nopin:
                sys.modules["system.heap"] = _NoPin
        if budget:
            fence(budget - charge)
        if model:
            self.heapmodel.arm(model)
        self.base = live()
        qstr_count("fence")

    def _script(self):
        # As on the device: the LittleFS at "/" (its buffers in the budget), then
        # main.py: the crash guard, then the App (a seeded dice source here).
        if not self.mounted:
            self._mount()
        from system.heap import hold_growth
        self.pin = hold_growth()  # main.py's first step (_NoPin: without it)
        from system import guard
        guard.boot("/")
        guard = None  # as main.py: boot-time code (the app forgets it)
        from app import App
        d = self.d
        d.app = App(self.board, fs_root="/", source=self.source)
        # The panel's bus becomes a counter: the simulator's panel model is host code
        # that allocates per frame, and the pilot reads the screens, not the pixels.
        d.app.display.i2c = self.bus
        self.stage = "menu"
        yield from d.to_menu()
        self.stage = self.path
        yield
        what = self.what
        if what == "new" or what == "saves":
            yield from d.new_game(self.kind, 4)
        elif what == "cpu":
            # A human and a CPU of each level (the HARD one with its table).
            yield from d.new_game(self.kind, 4, b"\x00\x01\x02\x03")
        elif what == "cont":
            yield from d.open_item("CONTINUE")
        elif what == "menu":
            yield from d.menu_tour()
        elif what == "rand":
            m = self.m
            m.start(d.app, d.now, self.kind, self.frames_left)
            while m.tick():
                yield
            d.now = m.now
            d.frames_run += self.frames_left
            out("monkey", m.presses, m.shakes, getattr(d.app.screen, "NAME", "?"),
                d.app.store.writes)
        else:
            yield from d.open_item(MENU_ITEMS[what])
            yield from d.tour()
        if what in ("new", "cont", "saves", "cpu"):
            # Tick by tick, not by nested generators: the pilot keeps only small ints and
            # its preallocated objects across frames, so only this frame stays alive.
            d.start_play(self.kind)
            while d.play_tick():
                if what == "saves":
                    self._snapshot()
                yield
        self.stage = "end"
        if what != "rand":
            yield from d.to_menu()
        if what == "saves":
            self._print_files("heavy", self.heavy)
            self._print_files("final", self.lfs.data_files())
            out("heavy_at", self.heavy_at, self.heavy_n)

    def _mount(self):
        self.lfs.mount_root(self.flash)
        sys.path[:] = ["", "/lib"]  # the ESP32 port's (no .frozen here)
        self.mounted = True

    def _snapshot(self):
        """saves: after each write, the data files if they are the heaviest yet (the
        latest of equals: later in a game the same size holds more history)."""
        st = self.d.app.store
        if st.writes == self.writes:
            return
        self.writes = st.writes
        files = self.lfs.data_files()
        n = 0
        for name in files:
            n += len(files[name])
        if n >= self.heavy_n and any(k[:4] == "game" for k in files):
            self.heavy = files
            self.heavy_n = n
            self.heavy_at = self.d.decisions

    def _print_files(self, tag, files):
        import binascii
        for name in sorted(files or ()):
            out("file", tag, name, binascii.hexlify(files[name]).decode())

    def _trace(self, a):
        """SAMPLE 2: a new peak: `R peak BYTES FRAME STAGE SCREEN MODULES...`, the
        firmware's modules then resident (the harness's own left out)."""
        mods = [n for n in sys.modules if n not in _HOST_MODULES]
        mods.sort()
        out("peak", a, self.ticks, self.stage,
            getattr(getattr(self.d.app, "screen", None), "NAME", "-"), " ".join(mods))
        mods = None

    def tick(self):
        """After the path (gen None) it only looks at the heap: the finished generators
        would keep the game's objects reachable through stale stack slots."""
        if self.sample:
            self.ticks += 1
            a = live() - self.base
            self.last = a
            if a > self.top:
                self.top = a
                if self.sample == 2:
                    self._trace(a)
            if self.stage == self.path and self.menu < 0:
                self.menu = a
        elif self.coarse:
            # Every 64th frame: the heap in use then is a lower bound of the fenced
            # minimum, where the bench's bisection starts (cheap: a collection each).
            self.ticks += 1
            if self.ticks & 63 == 0:
                a = live() - self.base
                if a > self.top:
                    self.top = a
        if self.gen is None:
            return False
        try:
            next(self.gen)
        except StopIteration:
            self.ok = True
            return False
        except MemoryError as e:
            # The budget is used up: let go of the firmware's frames before the report
            # line, which needs a little heap itself; then where it ran out.
            self.gen = None
            _unfence()  # the run is over: room for the report even in a tiny budget
            gc.collect()
            out("memerr", self.stage, self.d.frames_run)
            if self.model:
                out("model", *self.heapmodel.stats())
            if hasattr(sys, "print_exception"):
                sys.print_exception(e, sys.stdout)
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
        elif self.coarse:
            out("live_coarse", self.top)
        if self.model:
            # areas added, given back, held now, held at most; ESP-IDF bytes free, fewest
            out("model", *self.heapmodel.stats())
        qstr_count("end")
        out("ok", 1)


def qstr_count(tag):
    """`R qstr TAG` and the interpreter's own line ("qstr pool: n_pool=.., n_qstr=..."):
    the bench reads the number of names from it (no heap is used to print it)."""
    if micropython is not None and hasattr(micropython, "qstr_info"):
        out("qstr", tag)
        micropython.qstr_info()


def run_path(root, lib, data, path, seed, budget, sample, preload=0, frames=RAND_FRAMES,
             names=0, model=0, nopin=0, esp32=0, board=0):
    s = Session(root, lib, data, path, seed, budget, sample, preload, frames, names, model,
                nopin, esp32, board)
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


def main(argv):
    mode = argv[0]
    root = argv[1]
    lib = argv[2]
    a = argv[3:]
    if mode == "path":
        run_path(root, lib, a[0], a[1], int(a[2]), int(a[3]), int(a[4]),
                 int(a[5]) if len(a) > 5 else 0,
                 int(a[6]) if len(a) > 6 else RAND_FRAMES,
                 int(a[7]) if len(a) > 7 else 0,
                 *[int(x) for x in a[8:12]])
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
