"""The CPU players' figures (issue 15) in one command: strength, thinking time, memory.

  python tools/cpu/cpu_report.py [--quick] [--games N] [--part shakeup|frenzy|time|memory]
      [--ratio R]   (time: this ESP32_RATIO, not the one measured: a loaded machine's
                     pystone is low and its short steps are not, so the ratio reads low)
  build/mp32/obj/micropython tools/cpu/cpu_report.py --part time     (the 32-bit gauge)
  build/mp32/obj/micropython tools/cpu/cpu_report.py --part memory --lib build/esp32_devkit
  micropython tools/cpu/cpu_report.py --part time                     (64-bit unix port)

- shakeup: tools/cpu/cpu_shakeup_report.py's table, duels, ladder, crowd and mirror
  (N games per seat order; default 5,000, --quick 300), and seats (four equal CPUs,
  each seat's win share over 2N games).
- frenzy: tools/cpu/cpu_frenzy_report.py's exact, solo, duels and ladder (CPython only).
- time: per game, the slowest single decision (choose()) and the slowest single
  step of think() over seeded games (Shake Up 2 and 4 players, spots off and on;
  Frenzy 2 and 4 players in both schedules and solo), every skill; each decision
  and each step timed 5 times, the fastest kept (the machine's other work only
  adds). Then the estimate for an ESP32 at its default 160 MHz: the figure times
  ESP32_RATIO; and the frames a decision takes there as ui/cpu_turn.py paces it
  (its steps, times ESP32_RATIO, put in frames as _work() does: steps start while
  less than _THINK_MS of the frame is used; one step in the first frame, which
  redraws).
- memory: heap bytes kept by importing each CPU module and after HARD games with
  its table open (gc.collect() first), and the most one decision allocates
  (MicroPython only; --lib build/<board>: the built .mpy files, as on the device).

ESP32_RATIO: how much slower the ESP32 runs the same Python than this machine: the
score of MicroPython's own pystone benchmark (tests/perf_bench/misc_pystone.py of the
source tree tools/bench/mp32.py unpacks) on this interpreter, divided by the published
score of the same benchmark on an ESP32, ESP32_PYSTONE. The frame model
(tools/bench/frame_model.py, docs/memory-and-speed.md "Frame time on the device") has the sources: one
maintainer's run, micropython/micropython issue 6565, 2020-11-18: 1731.94 for v1.13,
1166.32 for v1.13-180 (MicroPython pinned to core 0). The CPUs' estimate takes the
lower, the frame model's error bound (ESP32_PYSTONE_SLOW), so it errs slow.
Without the source tree, ESP32_RATIO_FALLBACK (measured on the 32-bit gauge so).
File reads (the tables) are timed as this machine's filesystem does them.
"""
import gc
import sys

try:
    from time import ticks_diff, ticks_us
except ImportError:  # CPython
    from time import perf_counter

    def ticks_us():
        return int(perf_counter() * 1000000)

    def ticks_diff(a, b):
        return a - b

import selfplay  # noqa: E402,F401  (puts firmware/ on the path)

ESP32_PYSTONE = 1166.32  # = frame_model.ESP32_PYSTONE_SLOW (passes/s, ESP32, 160 MHz)
ESP32_RATIO_FALLBACK = 150  # 32-bit gauge: 178,571 / 1166 = 153 (2026-12-01)
STEP_GOAL_MS = 10      # no think() step past this on the ESP32 (a frame is 33 ms)
PYSTONE = "build/mp32/src/micropython-1.28.0/tests/perf_bench/misc_pystone.py"


def _impl():
    name = sys.implementation.name
    if name == "micropython":
        return "micropython %d-bit" % (64 if sys.maxsize > 2 ** 32 else 32)
    return name


def esp32_ratio():
    """(ratio, how it was found)."""
    here = sys.argv[0]
    i = here.rfind("/tools/")
    root = here[:i] if i >= 0 else "../.."  # the clone (run from it or from tools/cpu/)
    if here.startswith("tools/"):
        root = "."
    try:
        with open(root + "/" + PYSTONE) as f:
            src = f.read()
    except OSError:
        return ESP32_RATIO_FALLBACK, "fallback (no %s)" % PYSTONE
    ns = {"__name__": "pystone"}
    exec(src, ns)
    best = 0
    for _ in range(5):
        run, _result = ns["bm_setup"]((300,))
        t0 = ticks_us()
        run()
        dt = ticks_diff(ticks_us(), t0)
        best = max(best, 300 * 1000000 // dt)
    return best / ESP32_PYSTONE, "pystone %d here / %d on the ESP32" % (best, int(ESP32_PYSTONE))


def _timed(fn):
    """(result, the fastest of 5 runs in us)."""
    best = None
    for _ in range(5):
        gc.collect()  # a collection inside would time the heap, not the CPU
        t0 = ticks_us()
        r = fn()
        dt = ticks_diff(ticks_us(), t0)
        if best is None or dt < best:
            best = dt
    return r, best


def think_us():
    """ui/cpu_turn.py's _THINK_MS in us, read from its source (one value, one place)."""
    here = sys.argv[0]
    i = here.rfind("tools/")
    with open(here[:i] + "firmware/ui/cpu_turn.py") as f:
        for ln in f:
            if ln.startswith("_THINK_MS = const("):
                return int(ln[18:ln.index(")")]) * 1000
    raise ValueError("no _THINK_MS in ui/cpu_turn.py")


def frames(steps, ratio, share):
    """The frames steps (us here) take on the ESP32 (times ratio) as ui/cpu_turn.py
    runs them: one in the first frame, then each frame's steps start while less than
    share us of it is used."""
    n = 1
    used = share  # the first frame: one step
    first = True
    for t in steps:
        if used >= share and not first:
            n += 1
            used = 0
        first = False
        used += t * ratio
    return n


def _steps(make):
    """(decision, the slowest step in us, steps, each step's us): think() stepped 5
    times, each step's fastest run kept."""
    fast = []
    d = None
    for _ in range(5):
        gc.collect()
        k = 0
        it = make()
        while True:
            t0 = ticks_us()
            try:
                x = next(it)
            except StopIteration:
                break
            dt = ticks_diff(ticks_us(), t0)
            if k == len(fast):
                fast.append(dt)
            elif dt < fast[k]:
                fast[k] = dt
            k += 1
            if x is not None:
                d = x
    return d, max(fast), len(fast), fast


class _Worst:
    def __init__(self, ratio, share):
        self.ratio = ratio
        self.share = share
        self.decision = (0, "")
        self.step = (0, "")
        self.steps = 0
        self.frames = (0, 0, "")  # the most frames on the ESP32: (frames, steps, where)
        self.build = None  # Shake Up's table build: (us, slowest step, steps, frames)

    def see(self, us, step, fast, where):
        if us > self.decision[0]:
            self.decision = (us, where)
        if step > self.step[0]:
            self.step = (step, where)
        n = len(fast)
        self.steps = max(self.steps, n)
        f = frames(fast, self.ratio, self.share)
        if f > self.frames[0]:
            self.frames = (f, n, where)


def time_shakeup(games, worst):
    from core import cpu_shakeup as C
    from core import shakeup as S
    from core.dice import Dice
    from core.seeded import Seeded
    t = C.open_table()
    rng = Seeded(3)
    names = ("ROLLOFF", "SHAKE", "CHOOSE", "MOVING", "PENALTY")
    # The turn DP's structure tables, built in think()'s first decision that needs
    # them (once per import): timed whole and in its steps.
    def build():
        C._T = None
        C._tables()
    _, us = _timed(build)

    def steps():
        C._T = None
        return C._build()
    _, step, n, fast = _steps(steps)
    worst.build = (us, step, n, frames(fast, worst.ratio, worst.share))
    for players in (2, 4):
        for i in range(games):
            g = S.Game(players, i % 2 == 1, Dice(Seeded(i + 1)))
            while g.legal():  # (built modules inline their codes: no S.OVER)
                skill = (i + g.player) % 3
                d, us = _timed(lambda: C.choose(g, skill, rng, t))
                d2, step, n, fast = _steps(lambda: C.think(g, skill, rng, t))
                worst.see(us, step, fast, "Shake Up %d players %s %s" % (
                    players, ("EASY", "NORMAL", "HARD")[skill], names[g.phase]))
                g.apply(d)
    t.close()


def time_frenzy(games, worst):
    from core import cpu_frenzy as C
    from core import frenzy as F
    from core.dice import Dice
    from core.seeded import Seeded
    t = C.open_table()
    names = ("COMMON", "ROLL", "WILD", "TAKE", "DECIDE")
    for players in (1, 2, 4):
        for sched in (0, 1):  # Relay, Lockstep
            for i in range(games):
                g = F.Game(players, sched, 1000 if i % 3 == 2 else 300, Dice(Seeded(i + 1)))
                rngs = [Seeded(100 * i + k) for k in range(players)]
                while g.legal():
                    s = g.player
                    skill = (i + s) % 3
                    d, us = _timed(lambda: C.choose(g, skill, None, t))
                    d2, step, n, fast = _steps(lambda: C.think(g, skill, None, t))
                    worst.see(us, step, fast, "Frenzy %d players %s %s %s" % (
                        players, ("relay", "lockstep")[sched], ("EASY", "NORMAL", "HARD")[skill],
                        names[g.phase]))
                    g.apply(C.choose(g, skill, rngs[s], t))
    t.close()


def timing(games, ratio=None):
    if ratio is None:
        ratio, how = esp32_ratio()
    else:
        how = "given (--ratio)"
    impl = _impl()
    print("time (%s): ESP32_RATIO %.0f, PROVISIONAL: %s" % (impl, ratio, how))
    share = think_us()
    for name, fn in (("Shake Up", time_shakeup), ("Frenzy", time_frenzy)):
        w = _Worst(ratio, share)
        fn(games, w)
        for label, (us, where) in (("slowest decision", w.decision),
                                   ("slowest think() step", w.step)):
            ms = us * ratio / 1000
            print("time (%s): %s %s: %d us (%s); ESP32 estimate %.1f ms%s" % (
                impl, name, label, us, where, ms,
                (" (goal %d ms: %s)" % (STEP_GOAL_MS, "PASS" if ms <= STEP_GOAL_MS else "MISS"))
                if "step" in label else ""))
        print("time (%s): %s most think() steps in one decision: %d" % (impl, name, w.steps))
        f, n, where = w.frames
        print("time (%s): %s most frames one decision takes on the ESP32 (%d us of each "
              "frame, ui/cpu_turn.py): %d frames, %d ms at 33 ms a frame (%d steps; %s)"
              % (impl, name, share, f, f * 33, n, where))
        if w.build:
            us, step, n, f = w.build
            print("time (%s): %s building the turn DP's tables (cpu_shakeup.prepare(), "
                  "once per game, in the waits of a CPU's first shake): %d us in %d steps, "
                  "the slowest %d us; ESP32 estimate %.1f ms, the slowest step %.1f ms, "
                  "%d frames"
                  % (impl, name, us, n, step, us * ratio / 1000, step * ratio / 1000, f))


def _heap():
    gc.collect()
    return gc.mem_alloc()


def _memory_of(name, mod, play):
    """Heap kept by importing mod, then by playing HARD decisions with its table
    open, and the most one decision allocates (kept or not)."""
    base = _heap()
    m = __import__("core." + mod, None, None, ("open_table",))
    imp = _heap() - base
    t = m.open_table()
    first = most = 0
    n = 0
    for g in play(m, t):
        before = _heap()
        g.apply(m.choose(g, 2, None, t))
        x = gc.mem_alloc() - before  # allocated by the decision (less if it collected)
        if n:
            most = max(most, x)
        else:
            first = x
        n += 1
    kept = _heap() - base
    t.close()
    print("memory (%s): core.%s: import %d bytes; with its table open, after %d HARD "
          "decisions (%s) %d bytes kept; allocated by the first decision %d bytes, by "
          "any later one at most %d (garbage included)"
          % (_impl(), mod, imp, n, name, kept, first, most))


def _shakeup_games(m, t):
    from core import shakeup as S
    from core.dice import Dice
    from core.seeded import Seeded
    for players in (2, 4):
        g = S.Game(players, players == 4, Dice(Seeded(players)))
        while g.legal():  # (the built modules inline the phase codes)
            yield g


def _frenzy_games(m, t):
    from core import frenzy as F
    from core.dice import Dice
    from core.seeded import Seeded
    for sched in (0, 1):  # Relay, Lockstep
        g = F.Game(4, sched, 300, Dice(Seeded(5 + sched)))
        while g.legal():
            yield g


def memory():
    """Run with --lib build/<board> to weigh the built .mpy files, as the device."""
    if sys.implementation.name != "micropython":
        print("memory: MicroPython only (gc.mem_alloc)")
        return
    from core import shakeup, frenzy, dice, seeded  # noqa: F401  (the games' own weight apart)
    _memory_of("Shake Up, 2 and 4 players", "cpu_shakeup", _shakeup_games)
    _memory_of("Frenzy, 4 players, Relay and Lockstep", "cpu_frenzy", _frenzy_games)


def main(argv):
    from report_args import options
    o = options(argv, {"games": "int", "part": "list", "quick": "flag", "lib": "str",
                       "ratio": "int"},
                "usage: cpu_report.py [--quick] [--games N] [--lib DIR] [--ratio R] "
                "[--part shakeup|frenzy|time|memory]")
    games = o["games"]
    quick = o["quick"]
    parts = o["part"]
    if o["lib"]:
        sys.path.insert(0, o["lib"])  # e.g. build/esp32_devkit: the built .mpy
    if not parts:
        parts = ["time", "memory"] if sys.implementation.name == "micropython" \
            else ["shakeup", "frenzy", "time"]
    if "memory" in parts:  # first: it weighs the imports
        parts.remove("memory")
        parts.insert(0, "memory")
    for p in parts:
        if p == "shakeup":
            import cpu_shakeup_report
            n = games or (300 if quick else 5000)
            cpu_shakeup_report.main(["--games", str(n), "--part", "table", "--part", "duels",
                                     "--part", "ladder", "--part", "crowd", "--part", "mirror"])
            # Four equal CPUs: each seat's share over twice as many (10,000 by default).
            cpu_shakeup_report.main(["--games", str(2 * n), "--part", "seats"])
        elif p == "frenzy":
            import cpu_frenzy_report
            n = games or (300 if quick else 5000)
            cpu_frenzy_report.main(["--games", str(n), "--rounds", str(400 if quick else 4000)])
        elif p == "time":
            timing(games or (4 if quick else 12), o["ratio"])
        elif p == "memory":
            memory()
        else:
            raise ValueError("unknown part %r" % p)


if __name__ == "__main__":
    main(sys.argv[1:])
