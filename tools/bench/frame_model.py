"""The ESP32 time model (host side): what a frame would take on the device, by scene.

    estimate = compute here x (pystone score here / pystone score on an ESP32) + bus time

Two ways to get "compute here", the same formula after it:
- counted (measure_counted; make test's gate, host_tests/test_frame_time.py): the
  instructions each frame executes on the 32-bit port, counted by this project's
  valgrind tool (tools/bench/vgcount.py), over the instructions of a pystone pass counted
  the same way. A count does not move with the machine's load: one run, no margin, the
  same figure on a busy and an idle machine. It leaves out what the kernel does for the
  program (file reads and writes: on the device, LittleFS on the flash), which
  the timed model charges at this machine's speed times the ratio.
- timed (measure; make bench, beside the counted figures): microseconds, as follows.

- compute here: App.step() on the MicroPython unix port (32-bit: the gauge's build with
  the bench's tools frozen in, tools/bench/mp32.py --frame, so that a collection marks the
  firmware's heap and not the tools' code, as on the device; the 64-bit port where it
  is missing), timed by tools/bench/frametime.py over whole games (the
  pilot's scripted games, a Continue, the monkey's random play) on stand-in devices,
  whose own poll is taken off (docs/memory-and-speed.md "Frame time on the device"), and so is the time
  another process had the CPU. Every path runs RUNS times, identically (seeded, virtual
  clock): each frame counts with its median run (measure(): in pystone passes of its
  own run, whose speed a fixed loop tracks);
- the ratio: MicroPython's own benchmark tests/perf_bench/misc_pystone.py, scored here
  in the same runs (at the runs' own speed: measure()) against the published ESP32
  score ESP32_PYSTONE (sources below);
- bus time: the bytes the display driver sent in that frame, 9 bits each (8 data and
  the acknowledge; the address and control bytes included), plus a start and a stop per
  transaction, at the slowest I2C clock a board profile states (boards/*.py).

Scenes (frametime.py): idle (nothing sent), redraw (a key's effect on the same screen:
cursor, live score, a CPU's step; fewer than 5 of the 8 display pages sent), tumble,
screen change, new view (the same screen object shows another view, 5 pages or more:
a result, a Farkle, the scores, a tumble's first frame from another view; to the player
a screen change, with its goal), start (menu -> a game: a new game or a Continue),
feedback (the frame that shows a start's key press before its work), decision (a frame
that wrote the store: a decision made, a roll's dice landed; the game's state changed,
as a new view's goal; the save is written once the frame is sent).

Goals: idle, redraw and tumble frames <= 33 ms at p99 (STEADY_MS), a screen change, a
decision or a new view <= 100 ms (CHANGE_MS, its worst), a game's start <= 250 ms to its first frame (START_MS,
the worst), with feedback <= 33 ms (the key press shows before the work). `margin`
multiplies the limits (host_tests/test_frame_time.py: noise on a busy machine).
"""
import concurrent.futures
import os
import re
import shutil
import subprocess
import tarfile
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FRAMETIME = "tools/bench/frametime.py"
PYSTONE = os.path.join(ROOT, "build", "bench", "perf_pystone.py")
PYSTONE_SRC = "tests/perf_bench/misc_pystone.py"

# misc_pystone.py's score (passes per second) on an ESP32, from tests/run-perfbench.py
# N=100 M=100, measured by MicroPython's maintainer (D. George) on MicroPython v1.13 at
# the port's default clock, 160 MHz, and published in an issue thread (weaker than
# documentation: docs/memory-and-speed.md "Frame time on the device" has the bounds):
# https://github.com/micropython/micropython/issues/6565 (2020-11-18): 1731.94 for
# v1.13; 1166.32 for v1.13-180, the build that ran MicroPython on core 0 (undone by
# https://github.com/micropython/micropython/pull/7258, merged 2022-01-21).
ESP32_PYSTONE = 1731.94
ESP32_PYSTONE_SLOW = 1166.32  # the slowest published build: the model's error bound
ESP32_MHZ = 160  # ports/esp32/boards/sdkconfig.base sets no clock: ESP-IDF's default

STEADY_MS = 33.0
CHANGE_MS = 100.0
START_MS = 250.0
RUNS = 5
SCENES = ("idle", "redraw", "tumble", "screen change", "start", "feedback", "decision",
          "new view")
GROUPS = ("menu", "Shake Up", "Farkle Frenzy")
KEYS = ("menu", "shakeup", "frenzy")  # goal names: frame_KEY_SCENE
STEADY = (0, 1, 2)


def i2c_hz():
    """The slowest I2C clock the board profiles state (boards/*.py, I2C["freq"])."""
    import check_board
    low = None
    d = os.path.join(ROOT, "boards")
    for name in sorted(os.listdir(d)):
        if name.endswith(".py"):
            p = check_board.load(os.path.join(d, name))
            f = (p.get("I2C") or {}).get("freq")
            if f and (low is None or f < low):
                low = f
    return low or 400000


def bus_ms(nbytes, writes, hz):
    return (nbytes * 9 + writes * 2) * 1000.0 / hz


def prepare(source):
    """perf_pystone.py into build/bench from MicroPython's source (a tree or a .tar.gz):
    the reference loop frametime.py runs."""
    os.makedirs(os.path.dirname(PYSTONE), exist_ok=True)
    if os.path.isdir(source):
        with open(os.path.join(source, PYSTONE_SRC), "rb") as f:
            text = f.read()
    else:
        with tarfile.open(source) as t:
            m = [n for n in t.getnames() if n.endswith("/" + PYSTONE_SRC)]
            if not m:
                raise SystemExit("frame model: no %s in %s" % (PYSTONE_SRC, source))
            text = t.extractfile(m[0]).read()
    # Atomic: another test file may be running it (make test runs files side by side).
    with open(PYSTONE + ".tmp%d" % os.getpid(), "wb") as f:
        f.write(text)
    os.replace(f.name, PYSTONE)


HEAP = "256k"  # the firmware's 64 KB, the pilot's objects and room: a collection's sweep
# runs over all of it (on the device, about 110 KB: errs slow)
FRAMES = 6000  # random play's length (tools/bench/bench.py RAND_FRAMES)


def frozen(binary):
    """Whether binary is the frame model's build (tools/bench/mp32.py --frame: the tools in
    it, run with -m)."""
    import mp32
    return os.path.realpath(binary) == os.path.realpath(mp32.FRAME_BIN)


def command(binary, lib, data, path, seed, fs="<fs>"):
    run = ["-m", "frametime"] if frozen(binary) else [FRAMETIME]
    return [binary, "-X", "heapsize=" + HEAP] + run + [".", lib, data, path, str(seed),
                                                      str(FRAMES), fs, str(ESP32_PYSTONE)]


def run_once(binary, lib, data, path, seed):
    fs = tempfile.mkdtemp(prefix="pocketdice_ft_")
    try:
        p = subprocess.run(command(binary, lib, data, path, seed, fs), cwd=ROOT,
                           capture_output=True, text=True, timeout=1800)
    finally:
        shutil.rmtree(fs, ignore_errors=True)
    if p.returncode != 0 or "R ok 1" not in p.stdout:
        raise SystemExit("frame model: %s failed (exit %d):\n%s" % (
            path, p.returncode, (p.stdout + p.stderr)[-3000:]))
    frames = []
    ref = []
    pace = []
    for line in p.stdout.splitlines():
        if line.startswith("R f "):
            frames.append(tuple(int(x) for x in line.split()[2:]))
        elif line.startswith("R pystone "):
            us, n = line.split()[2:]
            ref.append(int(us) / int(n))
        elif line.startswith("R pace "):
            pace.append(int(line.split()[2]))
    return frames, ref, pace


def median(vals):
    v = sorted(vals)
    n = len(v)
    return (v[(n - 1) // 2] + v[n // 2]) / 2.0


def measure(binary, lib, jobs, paths, runs=RUNS):
    """paths: (path, data folder or "-", seed). -> (frames, us per pystone pass), frames
    as (scene, group, compute us, bytes, writes, compute us until the frame was on the
    panel): each frame's median over the runs, all at the same speed as the us per pass.

    The machine's speed is not steady: on a loaded machine (other processes on the other
    core, a busy host) the same loop takes up to 1.6x its quickest time, changing from
    one millisecond to the next, and the pystone phase at a run's start (0.15 s) may
    fall on a quick or a slow spell (its quickest pass time varies by 1.5x from run to
    run). So the reference is tied to each run's speed: a fixed loop (frametime.py's
    pace loop) runs beside each pystone run (K, pystone's median pass time over the pace
    loop's median there: 0.11 here, steady to a few per cent) and before every frame (S,
    the run's median); the run's us per pystone pass is K x S. A frame's time counts
    in passes of its run, then the median over the runs. Time while another process had
    the CPU is taken off each frame (frametime.py's WAIT_US)."""
    todo = [(p, d, s, k) for p, d, s in paths for k in range(runs)]
    with concurrent.futures.ThreadPoolExecutor(jobs) as ex:
        got = list(ex.map(lambda t: run_once(binary, lib, t[1], t[0], t[2]), todo))
    k = median([median(ref) / median(pace) for _, ref, pace in got])
    upp = [k * median([f[8] for f in fr]) for fr, _, _ in got]  # us per pass, each run
    nominal = median(upp)
    frames = []
    for i, (path, data, seed) in enumerate(paths):
        mine = got[i * runs:(i + 1) * runs]
        ups = upp[i * runs:(i + 1) * runs]
        base = mine[0][0]
        if path.startswith("cpu:"):
            # A CPU thinks for a share of each frame's time (ui.cpu_turn; frametime.py
            # gives it the device's clock), so its frames differ from run to run: the
            # frames of the median run (by their total time) count.
            tot = [sum(f[9] - f[10] for f in r[0]) / u for r, u in zip(mine, ups)]
            k = sorted(range(runs), key=lambda i: tot[i])[runs // 2]
            for f in mine[k][0]:
                frames.append((f[0], f[1], (f[2] - f[5] - f[7]) / ups[k] * nominal, f[3],
                               f[4], (f[9] - f[10]) / ups[k] * nominal))
            continue
        for fr, _, _ in mine:
            if len(fr) != len(base) or any(a[:2] != b[:2] for a, b in zip(fr, base)):
                raise SystemExit("frame model: the runs of %s differ (not deterministic)" % path)
        for j, f in enumerate(base):
            # Poll: the stand-in devices'; wait: another process had the CPU.
            us = median([(r[0][j][2] - r[0][j][5] - r[0][j][7]) / u
                         for r, u in zip(mine, ups)]) * nominal
            shown = median([(r[0][j][9] - r[0][j][10]) / u
                            for r, u in zip(mine, ups)]) * nominal
            frames.append((f[0], f[1], us, f[3], f[4], shown))
    return frames, nominal


def run_counted(binary, lib, data, path, seed, tool):
    """One run of path under the instruction counter (vgcount.tool() is its folder):
    -> (frames, instructions a pystone pass), frames as run_once's with instructions
    in place of microseconds."""
    import vgcount
    # The files' folder by a name that is the same in every checkout and run (relative
    # to ROOT, the run's folder): a CPU's thinking is cut by a clock made of the count,
    # so a few instructions more for a longer name could move a step to another frame.
    fs = "build/bench/fc-%s-%d" % (path.replace(":", ""), seed)
    shutil.rmtree(os.path.join(ROOT, fs), ignore_errors=True)
    try:
        argv, env = vgcount.command(tool, command(binary, lib, data, path, seed, fs) +
                                    ["counted"])
        p = subprocess.run(argv, cwd=ROOT, env=env, capture_output=True, text=True,
                           timeout=1800)
    finally:
        shutil.rmtree(os.path.join(ROOT, fs), ignore_errors=True)
    if p.returncode != 0 or "R ok 1" not in p.stdout:
        raise SystemExit("frame model (counted): %s failed (exit %d):\n%s" % (
            path, p.returncode, (p.stdout + p.stderr)[-3000:]))
    frames = []
    ref = []
    for line in p.stdout.splitlines():
        if line.startswith("R f "):
            frames.append(tuple(int(x) for x in line.split()[2:]))
        elif line.startswith("R pystone "):
            n, passes = line.split()[2:]
            ref.append(int(n) / int(passes))
    return frames, median(ref)


def measure_counted(binary, lib, jobs, paths, tool):
    """paths: (path, data folder or "-", seed). -> (frames, instructions a pystone pass):
    frames as measure()'s, in instructions, each path run once under the instruction
    counter (tools/bench/vgcount.py): the figures are the same on a busy and an idle
    machine, so one run is enough and no margin is needed. The pystone pass is the
    median of the runs' (each run counts it on its fresh interpreter, as published);
    a frame's instructions over it, times the ESP32's pass time, is its time there."""
    import fcntl
    os.makedirs(os.path.join(ROOT, "build", "bench"), exist_ok=True)
    with open(os.path.join(ROOT, "build", "bench", "fc.lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # one measurement at a time uses the folders
        with concurrent.futures.ThreadPoolExecutor(jobs) as ex:
            got = list(ex.map(lambda t: run_counted(binary, lib, t[1], t[0], t[2], tool),
                              paths))
    per_pass = median([g[1] for g in got])
    frames = []
    for (path, _, seed), (fr, _) in zip(paths, got):
        for i, f in enumerate(fr):
            frames.append((f[0], f[1], f[2] - f[5] - f[7], f[3], f[4], f[9] - f[10],
                           "%s seed %d, frame %d" % (path, seed, i)))
    return frames, per_pass


def worst(frames, per_pass, hz, group, scene, esp32=ESP32_PYSTONE):
    """(ms, where) of the slowest frame of a group and scene, until it was on the panel
    (frames from measure_counted, which say where each came from)."""
    ratio = (1e6 / per_pass) / esp32
    best = (-1.0, "")
    for f in frames:
        if f[0] == scene and f[1] == group:
            ms = f[5] * ratio / 1000.0 + bus_ms(f[3], f[4], hz)
            if ms > best[0]:
                best = (ms, f[6] if len(f) > 6 else "")
    return best


def pct(sorted_vals, q):
    n = len(sorted_vals)
    return sorted_vals[min(n - 1, int(q * n))]


def model(frames, us_per_pass, hz, margin=1.0, esp32=ESP32_PYSTONE):
    """-> (ratio, rows, goals): rows (group, scene, n, p50, p90, p99, max, worst bus,
    limit text, ok or None, the whole frame's max); goals (name, ok, value, limit,
    message). A frame counts until it is on the panel (its last display.show()): what
    the player waits for. The work the app leaves to the frame's end (a save's write,
    a collection after a screen change) delays only the next frame, after a decision
    or a screen change, never inside an animation; the whole frame's max is reported."""
    ratio = (1e6 / us_per_pass) / esp32
    by = {}
    for scene, group, us, nbytes, writes, shown in (f[:6] for f in frames):
        b = bus_ms(nbytes, writes, hz)
        whole = us * ratio / 1000.0 + b
        seen = shown * ratio / 1000.0 + b
        by.setdefault((group, scene), []).append((seen, b, whole))
    rows = []
    goals = []
    for (group, scene) in sorted(by):
        v = sorted(e for e, _, _ in by[(group, scene)])
        bus = max(b for _, b, _ in by[(group, scene)])
        whole = max(w for _, _, w in by[(group, scene)])
        p50, p90, p99, mx = pct(v, .5), pct(v, .9), pct(v, .99), v[-1]
        name = "frame_%s_%s" % (KEYS[group], SCENES[scene].split()[-1])
        if scene in STEADY:
            limit, value, what = STEADY_MS, p99, "p99"
        elif scene == 3 or scene == 6 or scene == 7:
            limit, value, what = CHANGE_MS, mx, "max"
        elif scene == 4:
            limit, value, what = START_MS, mx, "max"
        else:  # 5, the feedback
            limit, value, what = STEADY_MS, mx, "max"
        ok = value <= limit * margin
        rows.append((group, scene, len(v), p50, p90, p99, mx, bus,
                     "%s <= %g ms" % (what, limit), ok, whole))
        goals.append((name, ok, "%.1f" % value, "%g" % (limit * margin),
                      "%s, %s: %s %.1f ms (limit %g ms)" % (
                          GROUPS[group], SCENES[scene], what, value, limit * margin)))
    return ratio, rows, goals


def row_cells(r):
    group, scene, n, p50, p90, p99, mx, bus, limit, ok, whole = r
    return ("%s, %s" % (GROUPS[group], SCENES[scene]), str(n), "%.1f ms" % p50,
            "%.1f ms" % p90, "%.1f ms" % p99, "%.1f ms" % mx, "%.1f ms" % bus, limit,
            "PASS" if ok else "MISS", "%.1f ms" % whole)


HEAD = ("scene", "frames", "p50", "p90", "p99", "max", "bus (worst)", "goal", "",
        "whole frame, max (on the panel, then a save's write, a collection)")


def table(rows):
    head = HEAD
    out = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for r in rows:
        out.append("| " + " | ".join(row_cells(r)) + " |")
    return "\n".join(out)


def version_of(binary):
    p = subprocess.run([binary, "-c", "import sys; print(sys.implementation.version)"],
                       capture_output=True, text=True, timeout=30)
    return re.sub(r"\s+", " ", p.stdout.strip())
