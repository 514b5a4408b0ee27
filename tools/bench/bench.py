"""Memory and speed of the firmware on real MicroPython: one table -> tools/bench/results.md.

Usage: python tools/bench/bench.py [--quick] [--out FILE] [--jobs N]

The firmware is built as deployed (tools/flashing/build.py: .mpy, mpy-cross -O3) for the sim
board into build/bench/ and measured by tools/bench/harness.py inside:
- the 32-bit MicroPython unix port (tools/bench/mp32.py builds it from MICROPY_SRC, by default
  ../shared/toolchain/): the ESP32's object sizes and 16-byte GC blocks. Its fenced
  figures are the regression guard;
- the heap model (tools/bench/mp32.py --heap): the same port with the ESP32's split heap
  (README "The split heap"): the first area less the device's boot costs, then an
  ESP-IDF heap to grow into. Its figures say what the device can do;
- the 64-bit unix port (.venv/bin/micropython) and CPython, beside them where a
  comparison means something (frames, core speed, boot).
Every path runs as on the device: the build and the saves on a LittleFS at "/"
(tools/bench/lfs.py). Every figure carries the command that produced it (paths
relative to the repository).

The memory goals are over every path (PATHS): a new game and a Continue of each game,
the menu and each of its screens, random play (several seeds), every CPU game. On the
heap model: each runs at ONE_GROWTH bytes of ESP-IDF heap with at most one added area
at a time and gives no area back; the smallest workable total (bisected to 1 KB; --quick:
a run at GOAL_TOTAL) <= 96 KB. Fenced on the 32-bit port: each <= 80 KB (a regression
guard; the least bisected to 1 KB; --quick: one run at 80 KB); beside it the first heap
area of a plain ESP32, 56 KB (reported: the aim; full run only).
--quick: only what the goals need: the paths on the 32-bit port and the model, zero
  bytes allocated per frame (idle menu, tumbling dice, cursors) and <= 2 display
  pages sent for a cursor move. Exits 1 with a message per missed goal.
Full run only: the ESP32 time model (tools/bench/frame_model.py; docs/memory-and-speed.md "Frame time on
the device"): per scene, each frame's compute on the 32-bit port x the ratio of a
pystone score here to the published ESP32 score, plus its bus time; its goals are AIM
lines here and host_tests/test_frame_time.py gates the steady state.
Every run prints `GOAL name PASS|MISS value limit` lines for the enforced goals and
`AIM ...` lines for the reported ones (host_tests/test_bench_quick.py reads them).
Without a 32-bit interpreter (no source or no -m32 compiler) the memory goals are left
out with one line (under CI=true that is a failure: tools/bench/mp32.py).
"""
import argparse
import binascii
import concurrent.futures
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from paths import ROOT  # noqa: E402  (and the tools' folders on sys.path)
import build as buildmod  # noqa: E402
import codes as codesmod  # noqa: E402
import frame_model  # noqa: E402
import mp32  # noqa: E402
import vgcount  # noqa: E402
import bench_link  # noqa: E402  (after the others: it puts firmware/ and tools/sim first)
import network as sim_network  # noqa: E402  (tools/sim's stand-in)

HARNESS = "tools/bench/harness.py"
FIRST_POOL = (56 * 1024 - 1) * 8 // (8 + 4 + 512) * 4 * 16  # as tools/bench/harness.py
LIB_REL = "build/bench/sim"
LIB = os.path.join(ROOT, LIB_REL)
RESULTS = os.path.join(ROOT, "tools", "bench", "results.md")
HINTS = os.path.join(ROOT, "build", "bench", "heap_hints.json")  # not in git
MP32_REL = os.path.relpath(mp32.BIN, ROOT)

# The fenced figure of every path, 32-bit: a regression guard (issue 29). What the
# device can do is the heap model's (ONE_GROWTH, GOAL_TOTAL); AIM_HEAP is the target.
GOAL_HEAP = 80 * 1024
AIM_HEAP = 56 * 1024    # a plain ESP32's first heap area: the heap never has to grow
# The heap model (tools/bench/mp32.py --heap, README "The split heap"): an ESP-IDF heap of
# ONE_GROWTH bytes holds the first area (56 KB: ports/esp32/mpconfigport.h:32 at
# v1.28.0, taken at ports/esp32/main.c:130) and one added area of the heap's own size,
# 57,360 bytes for 3500 blocks (py/gc.c:329-354): every path runs there with at most one
# area added and none given back. GOAL_TOTAL: the smallest ESP-IDF heap a path runs in,
# at most; the rest of the grown heap is the reserve (ESP-NOW's buffers, fragmentation).
ONE_GROWTH = 57344 + 57360
GOAL_TOTAL = 96 * 1024
# A linked game (docs/link.md, "The radio's heap"): the Wi-Fi driver's ESP-IDF heap,
# taken when the link starts (tools/sim/network.py WIFI_IDF, from ESP-IDF v5.5.1's docs).
# On the device main.py holds the growth at boot and Wi-Fi comes later, so a linked game
# needs one growth plus Wi-Fi's share; upstream sized the first area so that this fits
# (ports/esp32/mpconfigport.h:26-29 at v1.28.0: "grow the heap once (double it) and
# still have enough internal RAM to start WiFi").
WIFI_IDF = sim_network.WIFI_IDF
# Goals missed today and known: printed as GOAL lines (host_tests/test_bench_quick.py's
# OPEN holds them to a ceiling), not in the exit status, so that `make bench` goes on to
# its other parts. None today.
KNOWN_MISS = ()
FIRST_IDF = 56 * 1024   # the least total: the first area alone
ESP32_EXTRA = "micropython-1.28.0-esp32-extra.tar.gz"
# tools/heapmodel/esp32_boot.py's figure for v1.28.0's modules, used when the archive
# is not beside the source (measured 2026-12-04 on the heap model).
ESP32_BOOT_FALLBACK = 928
GOAL_PAGES = 2
BIG_HEAP = "1m"  # the harness (~0.6 MB with the flash's blocks) and the firmware: a
# bigger heap only makes every collection of a fenced run slower
STEP = 1024             # bisection step of the fenced minimum
LO, HI = 16 * 1024, 160 * 1024
LO_FROZEN = 4 * 1024    # a frozen build's data alone (the code outside the budget)
SPAN = 12 * 1024        # the first bisection's range above the heap in use seen
PROBE_NAMES = 1500      # room for the firmware's new qstrs in the run that counts them
SEED = 1
RAND_SEEDS = (1, 2, 3, 4, 5)
RAND_SEEDS_QUICK = (1, 2, 3)
RAND_FRAMES = 6000      # 3.3 minutes of play at 33 ms a frame
# Every path measured (tools/bench/harness.py runs it): (path, label, data) where data
# names the files put on the flash first: "used" the settings and stats after one game
# of each kind, "saveK" the heaviest saved moment of a game of kind K (with those).
PATHS = (
    ("new:1", "Shake Up, new 4-player game played to the end", "used"),
    ("new:2", "Farkle Frenzy, new 4-player game played to the end", "used"),
    ("cont:1", "Shake Up, Continue at its heaviest save, played to the end", "save1"),
    ("cont:2", "Farkle Frenzy, Continue at its heaviest save, played to the end", "save2"),
    ("menu", "the menu, its cursor round the items", "used"),
    ("settings", "settings, every line changed", "used"),
    ("howto", "how to play, every page", "used"),
    ("stats", "stats (one game of each recorded)", "used"),
    ("rand:1", "Shake Up, random play (%d frames a seed)" % RAND_FRAMES, "used"),
    ("rand:2", "Farkle Frenzy, random play (%d frames a seed)" % RAND_FRAMES, "used"),
    ("cpu:1", "Shake Up, a human against CPUs EASY, NORMAL and HARD, to the end", "used"),
    ("cpu:2", "Farkle Frenzy, a human against CPUs EASY, NORMAL and HARD, to the end",
     "used"),
)


def micropython_bin():
    here = os.path.join(ROOT, ".venv", "bin", "micropython")
    return here if os.path.exists(here) else shutil.which("micropython")


def goal_name(path):
    return "heap32_" + path.replace(":", "")


def model_name(path):
    return "model_" + path.replace(":", "")


class Bench:
    def __init__(self, quick, jobs):
        self.quick = quick
        self.jobs = jobs
        self.mp = micropython_bin()
        self.mp32 = None
        self.model = None    # the heap model's binary (tools/bench/mp32.py --heap)
        self.esp32 = ESP32_BOOT_FALLBACK
        self.board_dev = 0   # the biggest device board profile's heap (board_profiles())
        self.qnames = {}     # (path, seed) -> the qstrs its fenced probe counted
        self.rows = []       # (figure, 32-bit, 64-bit, cpython, goal, command)
        self.details = []    # (title, header, rows)
        self.goals = []      # (name, ok, value, limit, message, enforced)
        self.notes = []
        self.stalls = []     # (path, budget, where): runs that stalled, not MemoryError
        self.tmp = tempfile.mkdtemp(prefix="pocketdice_bench_")
        self.data = {}       # "used", "save1", "save2" -> host folder of data files
        self.heavy = {}      # kind -> (decisions, bytes) of the save picked
        self.hints = {}      # the last figures (HINTS), where the searches start
        if os.path.exists(HINTS):
            with open(HINTS) as f:
                self.hints = json.load(f)

    def save_hints(self):
        os.makedirs(os.path.dirname(HINTS), exist_ok=True)
        with open(HINTS, "w") as f:
            json.dump(self.hints, f, indent=0, sort_keys=True)

    # ---- running things ----------------------------------------------------------

    def fs(self, name):
        p = os.path.join(self.tmp, name)
        shutil.rmtree(p, ignore_errors=True)
        return p

    def run_mp(self, args, heap=BIG_HEAP, timeout=900, binary=None):
        cmd = [binary or self.mp, "-X", "heapsize=%s" % heap, HARNESS] + args
        p = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=timeout)
        return p.returncode, parse(p.stdout), p.stdout + p.stderr

    def run_cpython(self, args, timeout=600):
        cmd = [sys.executable, HARNESS] + args
        p = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=timeout)
        return p.returncode, parse(p.stdout), p.stdout + p.stderr

    def need(self, rc, r, text, what):
        if rc != 0 or "ok" not in r:
            raise SystemExit("bench: %s failed (exit %d):\n%s" % (what, rc, text[-3000:]))

    def row(self, figure, b32="", b64="", cpy="", goal="", cmd=""):
        self.rows.append((figure, b32, b64, cpy, goal, cmd))

    def goal(self, name, ok, value, limit, message, enforced=True):
        self.goals.append((name, ok, value, limit, message, enforced))

    # ---- setup -------------------------------------------------------------------

    def build(self):
        out = os.path.join(ROOT, "build", "bench")
        listing = buildmod.build("sim", out)
        codesmod.write()
        dev = buildmod.build("esp32_devkit", os.path.join(self.tmp, "build"))
        return listing, dev

    # ---- 1. minimum heap, every path -----------------------------------------------

    def path_args(self, path, seed, budget, sample=0, preload=0, names=0, data="-",
                  model=None):
        args = ["path", ".", LIB_REL, data, path, str(seed), str(budget), str(sample),
                str(preload), str(RAND_FRAMES), str(names)]
        if model:  # (ESP-IDF total, no pin)
            args += [str(model[0]), str(model[1]), str(self.esp32), str(self.board_dev)]
        return args

    def cmd(self, binary, path, seed, budget="B", sample=0, preload=0, names="N",
            data="-"):
        args = self.path_args(path, seed, budget, sample, preload, names, data)
        return "%s -X heapsize=%s %s %s" % (binary, BIG_HEAP, HARNESS, " ".join(args))

    def run_path(self, binary, path, seed, budget=0, sample=0, preload=0, names=0,
                 data="-"):
        # 64-bit: objects twice the size; preloaded: every module in the heap at once.
        heap = ("2m" if binary == self.mp else BIG_HEAP) if not preload else "3m"
        return self.run_mp(self.path_args(path, seed, budget, sample, preload, names,
                                          self.data.get(data, data)), heap, binary=binary)

    def saves(self, binary):
        """Play a game of each kind (no budget) and keep its heaviest saved moment and
        the files after it: the data of the Continue and stats paths."""
        prev = "-"
        for kind in (1, 2):
            rc, r, text = self.run_path(binary, "saves:%d" % kind, SEED, data=prev)
            self.need(rc, r, text, "saves:%d" % kind)
            for tag, name in (("heavy", "save%d" % kind), ("final", "final%d" % kind)):
                d = self.fs("data_" + name)
                os.makedirs(d)
                for t, fname, hexed in r.get("file", []):
                    if t == tag:
                        with open(os.path.join(d, fname), "wb") as f:
                            f.write(binascii.unhexlify(hexed))
                self.data[name] = d
            self.heavy[kind] = tuple(int(x) for x in r["heavy_at"][0])
            prev = self.data["final%d" % kind]
        # The used device: both games' stats (the second game ran on the first's files).
        self.data["used"] = self.data["final2"]
        for kind in (1, 2):  # a Continue's device has the stats too
            d = self.data["save%d" % kind]
            for fname in os.listdir(self.data["used"]):
                if not os.path.exists(os.path.join(d, fname)) and not fname.startswith("game"):
                    shutil.copy(os.path.join(self.data["used"], fname), d)

    def names(self, binary, path, seed, data):
        """(qstrs, heap in use) of the path in a run without a budget: the harness
        charges the qstrs' pools at the device's rate (qstr_pools.charge); the
        highest heap in use it saw (every 64th frame) is where the bisection starts.
        That run opens a qstr pool with room for PROBE_NAMES names first, outside what
        it measures, as a fenced run does: else a pool the firmware's names open in the
        harness's (up to 9 KB) would count as heap in use, and the start would lie above
        the minimum it is to bound from below (the search only looks above it)."""
        rc, r, text = self.run_path(binary, path, seed, names=PROBE_NAMES, data=data)
        if rc != 0 or "ok" not in r:
            raise SystemExit("bench: %s (seed %d) does not run without a budget (exit %d):"
                             "\n%s" % (path, seed, rc, text[-3000:]))
        counts = [int(x) for x in re.findall(r"n_qstr=(\d+)", text)]
        return (counts[-1] - counts[0] if len(counts) >= 2 else 0,
                int(r["live_coarse"][0][0]))

    def plays(self, binary, path, seed, budget, names, data, preload=0):
        rc, r, text = self.run_path(binary, path, seed, budget, 0, preload, names, data)
        if rc not in (0, 3):
            raise SystemExit("bench: %s run crashed (exit %d):\n%s" % (path, rc, text[-3000:]))
        if "stuck" in r:
            self.stalls.append((path, budget, " ".join(r["stuck"][0])))
        return rc == 0 and "ok" in r

    def bisect(self, ok, lo, hi, step=STEP):
        """Smallest value in (lo, hi] for which ok(value) holds (ok(hi) must hold)."""
        while hi - lo > step:
            mid = (lo + hi) // 2 // step * step
            if mid <= lo:
                break
            if ok(mid):
                hi = mid
            else:
                lo = mid
        return hi

    def min_heap(self, binary, path, seed, data, preload=0):
        """(fenced minimum, qstrs) of one path and seed: the smallest budget on the
        STEP grid that runs while STEP less does not. Near the threshold pass/fail is
        not monotonic (whether a block is free when a module loads depends on the
        layout), so the search is the same every time: the last figure (HINTS) is
        checked first (two runs when nothing changed), else bisected upwards of the
        heap in use that a run without a budget saw (a lower bound)."""
        if preload:
            # A frozen build's names are in flash, and the heap in use of a run that
            # loads its code is no lower bound here (the code lies outside the budget):
            # no probe run, the search starts low.
            names, seen, low = 0, 0, LO_FROZEN
        else:
            names, seen = self.names(binary, path, seed, data)
            self.qnames[(path, seed)] = names
            low = LO
        key = "%s %s %d %d" % ("64" if binary == self.mp else "32", path, seed, preload)

        def ok(b):
            return self.plays(binary, path, seed, b, names, data, preload)
        if self.quick and not preload:
            # The gate only (make test): one run at the goal, no search for the least.
            return (GOAL_HEAP if ok(GOAL_HEAP) else HI), names
        got = None
        h = self.hints.get(key)
        if h and ok(h):
            if not ok(h - STEP):
                got = h
            else:
                got = self.bisect(ok, max(low, seen // STEP * STEP), h - STEP)
        if got is None:
            lo = h if h else max(low, seen // STEP * STEP)
            for hi in (lo + SPAN, lo + 3 * SPAN, HI):
                got = self.bisect(ok, lo, hi)
                if got < hi or ok(hi):
                    break
                lo = hi
                got = None
        if got is None:
            raise SystemExit("bench: %s (seed %d) does not run in %d bytes" % (path, seed, HI))
        self.hints[key] = got
        return got, names

    def path_jobs(self, paths, seeds=None):
        """(path, seed, data) for every path: random play over every seed."""
        if seeds is None:
            seeds = RAND_SEEDS_QUICK if self.quick else RAND_SEEDS
        return [(path, seed, data) for path, _, data in paths
                for seed in (seeds if path.startswith("rand") else (SEED,))]

    def all_paths(self, binary, preload=0, paths=PATHS, seeds=None):
        """path -> [(seed, bytes, names)] for every path (random play: every seed), on
        `jobs` workers."""
        jobs = self.path_jobs(paths, seeds)
        got = {}
        with concurrent.futures.ThreadPoolExecutor(self.jobs) as ex:
            futs = [(j, ex.submit(self.min_heap, binary, j[0], j[1], j[2], preload))
                    for j in jobs]
            for (path, seed, _), f in futs:
                b, n = f.result()
                got.setdefault(path, []).append((seed, b, n))
        return got

    def heap_rows(self, b32):
        """The per-path table and the goals: the fenced figure on the 32-bit port."""
        worst = None
        for path, label, data in PATHS:
            r32 = b32.get(path, [])
            v32 = max(b for _, b, _ in r32)
            seeds = ""
            if len(r32) > 1:
                lo32 = min(b for _, b, _ in r32)
                seeds = " (worst of seeds %s; spread %s .. %s)" % (
                    ",".join(str(s) for s, _, _ in r32), kb(lo32), kb(v32))
            extra = ""
            if path.startswith("cont"):
                k = int(path[-1])
                extra = "; the save after decision %d, %d bytes of files" % self.heavy[k]
            how = "runs in the goal's budget (--quick: not bisected)" if self.quick else \
                "bisected to %d B" % STEP
            self.row("1. min heap (fenced, %s), %s%s%s; %d qstrs" % (
                how, label, seeds, extra, max(n for _, _, n in r32)),
                ("runs at " + kb(v32) if self.quick else kb(v32)) if v32 < HI else "fails",
                "", "",
                "<= 80 KB",
                self.cmd(MP32_REL, path, r32[-1][0] if len(r32) == 1 else "S",
                         data="<%s>" % data) + "  (bisect B; N: the qstrs of a run with B=0)")
            self.goal(goal_name(path), v32 <= GOAL_HEAP, v32, GOAL_HEAP,
                      "%s needs %d bytes of heap on the 32-bit port (goal %d)" % (
                          label, v32, GOAL_HEAP))
            if worst is None or v32 > worst[1]:
                worst = (path, v32, label)
        path, v, label = worst
        self.row("1. min heap, the worst path: %s" % label, kb(v), "", "",
                 "<= 80 KB (goal), <= 56 KB (aim: the first heap area)", "the rows above")
        self.goal("heap32_worst", v <= GOAL_HEAP, v, GOAL_HEAP,
                  "the worst path (%s) needs %d bytes (goal %d)" % (label, v, GOAL_HEAP))
        if self.quick:
            return  # the least figures (make bench) say where the aim stands
        self.goal("heap32_first_area", v <= AIM_HEAP, v, AIM_HEAP,
                  "the worst path (%s) needs %d bytes, more than the first heap area (%d)" % (
                      label, v, AIM_HEAP), enforced=False)

    def heap(self):
        if self.mp32 is None:
            return
        self.saves(self.mp32)
        b32 = self.all_paths(self.mp32)
        self.save_hints()
        self.heap_rows(b32)
        self.heap_model(b32)
        self.save_hints()
        if self.quick:
            return
        # The frozen-build estimate: the code preloaded and kept outside the budget.
        games = [p for p in PATHS if p[0] in ("new:1", "new:2")]
        f32 = self.all_paths(self.mp32, preload=1, paths=games)
        for path, label, data in games:
            self.row("1. min heap, %s, code outside the budget (modules preloaded and kept): "
                     "estimate for a frozen build, bytecode and qstrs in flash" % label,
                     kb(f32[path][0][1]), "", "", "",
                     self.cmd(MP32_REL, path, SEED, preload=1, names=0, data="<used>")
                     + "  (bisect B)")
        # Heap in use after every frame (after gc.collect()), without a budget (32-bit;
        # a collection every frame makes it the slowest run).
        for path, label, data in games:
            r = {}
            for binary in (self.mp32,):
                rc, rs, text = self.run_path(binary, path, SEED, sample=1, data=data)
                self.need(rc, rs, text, "sampled " + path)
                r[binary] = rs
            for key, what in (("live_peak", "peak heap in use"),
                              ("menu_heap", "heap in use at the menu"),
                              ("end_heap", "heap in use back at the menu after the game")):
                self.row("1. %s, %s (gc.mem_alloc() after gc.collect(), every frame)" % (
                    what, label), kb(int(r[self.mp32][key][0][0])), "", "", "",
                    self.cmd(MP32_REL, path, SEED, budget=0, sample=1, names=0,
                             data="<used>"))

    # ---- 1b. the heap model ------------------------------------------------------------

    def esp32_boot(self):
        """The heap the ESP32 port's frozen modules keep after a boot
        (tools/heapmodel/esp32_boot.py on the model, the modules from the archive beside
        the source), else ESP32_BOOT_FALLBACK."""
        arc = os.path.join(os.path.dirname(mp32.source()), ESP32_EXTRA)
        if not os.path.isfile(arc):
            self.notes.append("No %s beside the source: the ESP32 port's boot objects are "
                              "the recorded %d bytes." % (ESP32_EXTRA, self.esp32))
            return
        d = os.path.join(self.tmp, "esp32_modules")
        os.makedirs(d, exist_ok=True)
        with tarfile.open(arc) as t:
            for m in t.getmembers():
                base = os.path.basename(m.name)
                if "/ports/esp32/modules/" in "/" + m.name and base in (
                        "_boot.py", "flashbdev.py", "machine.py"):
                    with open(os.path.join(d, base), "wb") as f:
                        f.write(t.extractfile(m).read())
        p = subprocess.run([self.model, "tools/heapmodel/esp32_boot.py", d], cwd=ROOT,
                           capture_output=True, text=True, timeout=120)
        r = parse(p.stdout)
        if p.returncode != 0 or "esp32_boot" not in r:
            raise SystemExit("bench: tools/heapmodel/esp32_boot.py failed:\n" + p.stdout
                             + p.stderr)
        self.esp32 = int(r["esp32_boot"][0][0])

    def board_profiles(self):
        """The heap the biggest hardware board profile keeps once imported as its
        board.mpy (compiled as tools/flashing/build.py does), on the model."""
        d = os.path.join(self.tmp, "boards_mpy")
        os.makedirs(d, exist_ok=True)
        names = []
        for b in buildmod.hardware_boards():
            names.append("board_" + b)
            buildmod.compile_one(os.path.join(ROOT, "boards", b + ".py"),
                                 os.path.join(d, names[-1] + ".mpy"), "board.py",
                                 buildmod.OPT_LEVEL)
        code = ("import gc, sys\nsys.path.insert(0, %r)\nfor n in %r:\n    gc.collect()\n"
                "    a = gc.mem_alloc()\n    m = __import__(n)\n    gc.collect()\n"
                "    print('R board', n, gc.mem_alloc() - a)\n    m = None\n"
                "    del sys.modules[n]\n" % (d, names))
        p = subprocess.run([self.model, "-c", code], cwd=ROOT, capture_output=True,
                           text=True, timeout=120)
        r = parse(p.stdout)
        if p.returncode != 0 or "board" not in r:
            raise SystemExit("bench: the board profiles did not import:\n" + p.stdout
                             + p.stderr)
        self.board_dev = max(int(v) for _, v in r["board"])

    def model_run(self, path, seed, data, total, nopin=0):
        """One path on the heap model: (ran to its end, (added, freed, held, held_max,
        idf_free, idf_low), (first area's budget, board, main.py, ESP32 modules))."""
        names = self.qnames.get((path, seed), 0)
        args = self.path_args(path, seed, 0, 0, 0, names, self.data.get(data, data),
                              (total, nopin))
        rc, r, text = self.run_mp(args, binary=self.model)
        if rc not in (0, 3):
            raise SystemExit("bench: %s on the heap model crashed (exit %d):\n%s" % (
                path, rc, text[-3000:]))
        st = tuple(int(x) for x in r["model"][0]) if "model" in r else None
        return rc == 0 and "ok" in r, st, tuple(int(x) for x in r["model_first"][0])

    def model_path(self, path, seed, data):
        """What the heap model says of one path and seed (a dict)."""
        ok, st, first = self.model_run(path, seed, data, ONE_GROWTH)
        got = {"ok": ok, "stats": st, "first": first}
        if self.quick:
            got["ok96"] = self.model_run(path, seed, data, GOAL_TOTAL)[0]
            return got
        got["nopin"] = self.model_run(path, seed, data, ONE_GROWTH, nopin=1)[1]
        key = "model %s %d" % (path, seed)

        def fits(total):
            return self.model_run(path, seed, data, total)[0]
        h = self.hints.get(key)
        least = None
        if fits(FIRST_IDF):  # the first area alone (no growth: the hold lets it be)
            least = FIRST_IDF
        elif h and fits(h) and not fits(h - STEP):
            least = h
        elif ok:
            least = self.bisect(fits, FIRST_IDF, ONE_GROWTH)
        if least is not None:
            self.hints[key] = least
        got["least"] = least
        return got

    def heap_model(self, b32):
        """Every path on the heap model: the goals, the table."""
        self.model = mp32.binary(heap=True)
        if self.model is None:
            self.notes.append("No heap model (tools/bench/mp32.py --heap): its goals were not "
                              "measured.")
            print("NOMODEL the heap model is missing: its goals not measured")
            return
        self.esp32_boot()
        self.board_profiles()
        jobs = self.path_jobs(PATHS)
        got = {}
        with concurrent.futures.ThreadPoolExecutor(self.jobs) as ex:
            futs = [(j, ex.submit(self.model_path, *j)) for j in jobs]
            for (path, seed, _), f in futs:
                got.setdefault(path, []).append((seed, f.result()))
        rows = []
        worst = None
        first = None
        for path, label, data in PATHS:
            runs = got[path]
            ok = all(g["ok"] for _, g in runs)
            held = max(g["stats"][3] if g["stats"] else 0 for _, g in runs)
            added = max(g["stats"][0] if g["stats"] else 0 for _, g in runs)
            freed = max(g["stats"][1] if g["stats"] else 0 for _, g in runs)
            first = runs[0][1]["first"]
            self.goal(model_name(path), ok and held <= 1, held if ok else "fails", 1,
                      "%s on the heap model: %s at %d bytes of ESP-IDF heap, %d areas held "
                      "at once" % (label, "runs" if ok else "does not run", ONE_GROWTH,
                                   held))
            self.goal("model_frees_" + path.replace(":", ""), freed == 0, freed, 0,
                      "%s on the heap model gives an added area back %d times" % (
                          label, freed))
            fenced = max(b for _, b, _ in b32.get(path, [(0, 0, 0)]))
            if self.quick:
                ok96 = all(g["ok96"] for _, g in runs)
                self.goal("model96_" + path.replace(":", ""), ok96, "runs" if ok96 else
                          "fails", GOAL_TOTAL, "%s does not run on the heap model at %d "
                          "bytes of ESP-IDF heap" % (label, GOAL_TOTAL))
                rows.append((path, kb(fenced), "yes" if ok else "NO", str(held),
                             "%d / %d" % (added, freed), "runs" if ok96 else "FAILS",
                             "", ""))
                continue
            least = [g["least"] for _, g in runs]
            lw = None if None in least else max(least)
            before = [g["nopin"] for _, g in runs]
            churn = "%d / %d" % (max(b[0] for b in before if b), max(b[1] for b in before
                                                                        if b))
            rows.append((path, kb(fenced), "yes" if ok else "NO", str(held),
                         "%d / %d" % (added, freed), churn,
                         kb(lw) if lw else "-", kb(ONE_GROWTH - lw) if lw else "-"))
            if lw and (worst is None or lw > worst[1]):
                worst = (path, lw)
        if worst:
            self.goal("model_worst_total", worst[1] <= GOAL_TOTAL, worst[1], GOAL_TOTAL,
                      "the worst path (%s) needs %d bytes of ESP-IDF heap on the model" %
                      worst)
        budget, board, main, esp32 = first
        cmd = " ".join([os.path.relpath(self.model, ROOT), "-X", "heapsize=" + BIG_HEAP,
                        HARNESS] + self.path_args("<path>", "<seed>", 0, 0, 0, "N", "<data>",
                                                  ("T", 0)))
        self.details.append((
            "1b. The heap model (README \"The split heap\"): the ESP32's first area, "
            "%d B of blocks less the boot's %d B (board profile %d, main.py's code %d, the "
            "ESP32 port's frozen modules %d) = %d B for the firmware, then an ESP-IDF heap "
            "of T bytes to grow into; T = %d (one growth) for the figures, the smallest T "
            "bisected to %d B; areas held at most, added / given back at T = %d with the "
            "firmware's hold on its growth (firmware/system/heap.py) and without it (before); "
            "headroom = %d - the smallest T. `%s` (NOPIN 1: without the hold)" % (
                FIRST_POOL, FIRST_POOL - budget, board, main, esp32, budget, ONE_GROWTH,
                STEP, ONE_GROWTH, ONE_GROWTH, cmd),
            ("path", "fenced (32-bit)", "runs at %d" % ONE_GROWTH, "areas held at most",
             "added / given back", "before the hold: added / given back" if not self.quick
             else "runs at %d" % GOAL_TOTAL, "smallest total T", "headroom"),
            rows))
        self.link_model(budget)

    def link_model(self, budget):
        """A linked game on the heap model (tools/bench/bench_link.py model_run): a host with
        two guests and one of the guests on the model, two whole rounds with the radio
        code loaded. Goals: it runs at one growth + Wi-Fi's share, the growth taken at
        boot and Wi-Fi after it as on the device (one area held, none given back); with
        Wi-Fi's share taken first, it runs at GOAL_TOTAL + that share (the MicroPython
        heap's part <= 96 KB); the host fenced at GOAL_HEAP (32-bit) plays. A full run
        bisects the smallest total with Wi-Fi first (1 KB)."""
        at = ONE_GROWTH + WIFI_IDF
        ok, st = bench_link.model_run(self.model, budget, at, LIB)
        held = max(x[3] for x in st if x) if all(st) else 0
        freed = max(x[1] for x in st if x) if all(st) else 0
        self.goal("model_link", ok and held <= 1, held if ok else "fails", 1,
                  "a linked game on the heap model: %s at %d bytes of ESP-IDF heap (Wi-Fi "
                  "%d after the growth), %d areas held at once" % (
                      "runs" if ok else "does not run", at, WIFI_IDF, held))
        self.goal("model_frees_link", ok and freed == 0, freed, 0,
                  "a linked game on the heap model gives an added area back %d times" % freed)
        ok96, _ = bench_link.model_run(self.model, budget, GOAL_TOTAL + WIFI_IDF, LIB, True)
        self.goal("model96_link", ok96, "runs" if ok96 else "fails", GOAL_TOTAL,
                  "a linked game does not run on the heap model at %d bytes of ESP-IDF "
                  "heap besides Wi-Fi's %d" % (GOAL_TOTAL, WIFI_IDF))
        # The host fenced (32-bit, the budget in one piece): from GOAL_HEAP up by STEP to
        # the first fence it plays in (a fence too small ends at its MemoryError, fast).
        fence = GOAL_HEAP
        while True:
            okf, frame = bench_link.heap_run(self.mp32, fence, LIB)
            if okf or fence >= GOAL_TOTAL:
                break
            fence += STEP
        self.goal("heap32_link", okf and fence <= GOAL_HEAP, fence if okf else "fails",
                  GOAL_HEAP, "the linked host needs %d bytes fenced (32-bit)" % fence)
        least = "-"
        if not self.quick and ok96:
            def fits(total):
                return bench_link.model_run(self.model, budget, total + WIFI_IDF, LIB,
                                            True)[0]
            least = self.bisect(fits, FIRST_IDF, GOAL_TOTAL)
            self.goal("model_link_total", least <= GOAL_TOTAL, least, GOAL_TOTAL,
                      "a linked game needs %d bytes of ESP-IDF heap besides Wi-Fi's" % least)
            least = kb(least)
        cmd = ("tools/bench/bench_link.py model_run: build/mp32/obj-heap/micropython tools/sim/"
               "simrun.py --budget %d --model T [--wifi first] --pilot host:2:0 | join, "
               "a 64-bit guest" % budget)
        self.details.append((
            "1c. A linked game on the heap model (docs/link.md, \"The radio's heap\"): "
            "a host with two guests and one guest on the model, each the first area's %d B "
            "then an ESP-IDF heap of T bytes; the Wi-Fi driver takes %d B of it when the "
            "link starts (tools/sim/network.py WIFI_IDF), after the growth main.py holds "
            "at boot (the device's order), or first (--wifi first: what the MicroPython heap "
            "needs besides Wi-Fi); two whole rounds. `%s`" % (budget, WIFI_IDF, cmd),
            ("figure", "value", "goal"),
            [("runs at one growth + Wi-Fi, %d (areas added / given back / held at most: "
              "host, guest)" % at, "%s (%s)" % ("yes" if ok else "NO", ", ".join(
                  "%d / %d / %d" % (x[0], x[1], x[3]) for x in st if x)), "held <= 1, 0 given back"),
             ("runs with Wi-Fi first at %d + %d" % (GOAL_TOTAL, WIFI_IDF),
              "yes" if ok96 else "NO", "runs"),
             ("smallest T besides Wi-Fi (Wi-Fi first, 1 KB)", least, "<= %s" % kb(GOAL_TOTAL)),
             ("the smallest fence the host plays in (32-bit, 1 KB steps from %s), to "
              "round 3" % kb(GOAL_HEAP), "%s; %s" % (kb(fence), bench_link.frame_text(frame))
              if okf else "FAILS", "<= %s" % kb(GOAL_HEAP))]))

    # ---- 2 + 3. frames ---------------------------------------------------------------

    def binaries(self):
        """(column, binary) to measure on: 32-bit (the gauge) and, in a full run or
        without it, 64-bit."""
        out = []
        if self.mp32:
            out.append((1, self.mp32))
        if not self.quick or not self.mp32:
            out.append((2, self.mp))
        return out

    def frames(self):
        args = ["frames", ".", LIB_REL, "/tmp/fs"]
        got = {}
        for col, binary in self.binaries():
            # A folder each: a run leaves a saved game the next one's menu would ask about.
            rc, r, text = self.run_mp(args[:3] + [self.fs("f%d" % col)], binary=binary)
            self.need(rc, r, text, "frame measurements (%s)" % binary)
            got[col] = r
        first = min(got)  # the goals: 32-bit if there, else 64-bit
        name = {1: MP32_REL, 2: "micropython"}
        cmd = "; ".join("%s -X heapsize=%s %s %s" % (name[c], BIG_HEAP, HARNESS,
                                                       " ".join(args[:3] + ["/tmp/fs"]))
                        for c in sorted(got))
        for i, (nm, n, used) in enumerate(got[first]["alloc"]):
            n = int(n)
            cells = ["", ""]
            for c in got:
                cells[c - 1] = "%g B" % (int(got[c]["alloc"][i][2]) / n)
            used = int(used)
            self.row("2. allocation per frame, %s (gc off, %d frames)" % (nm.replace("_", " "), n),
                     cells[0], cells[1], "", "0", cmd)
            self.goal("alloc_" + nm, used == 0, used, 0,
                      "%s allocates %d bytes in %d frames" % (nm, used, n))
        for i, (nm, nframes, avg, mx, pages, masks) in enumerate(got[first]["traffic"]):
            mx = int(mx)
            pages = int(pages)
            ms = mx * 9 / 400.0
            cursor = "cursor" in nm
            cells = ["", ""]
            for c in got:
                t = got[c]["traffic"][i]
                cells[c - 1] = "%s B / %s pages" % (t[3], t[4])
            self.row("3. display traffic, %s: bytes/frame avg %s, max %d = %d pages, %.1f ms at 400 kHz"
                     % (nm.replace("_", " "), avg, mx, pages, ms),
                     cells[0], cells[1], "",
                     "<= 2 pages" if cursor else "", cmd + "  (page masks per frame: %s)" % masks)
            if cursor:
                self.goal("pages_" + nm, pages <= GOAL_PAGES, pages, GOAL_PAGES,
                          "%s sends %d pages in one frame (page masks %s)" % (nm, pages, masks))

    # ---- 7. frame time on an ESP32 (the model) -----------------------------------------

    def frame_times(self):
        """The ESP32 time model (tools/bench/frame_model.py): per scene, whole games and
        random play; AIM lines (make test gates the steady state: test_frame_time.py)."""
        fr = mp32.binary(frame=True) if self.mp32 else None  # the tools frozen in
        binary = fr or self.mp32 or self.mp
        name = os.path.relpath(binary, ROOT) if binary != self.mp else "micropython"
        frame_model.prepare(mp32.source())
        paths = [("new:1", "-", SEED), ("new:2", "-", SEED)]
        for k in (1, 2):
            if "save%d" % k in self.data:
                paths.append(("cont:%d" % k, self.data["save%d" % k], SEED))
        paths += [("rand:1", self.data.get("used", "-"), SEED),
                  ("rand:2", self.data.get("used", "-"), SEED),
                  ("cpu:1", self.data.get("used", "-"), SEED),
                  ("cpu:2", self.data.get("used", "-"), SEED)]
        frames, us_pass = frame_model.measure(binary, LIB_REL, self.jobs, paths)
        hz = frame_model.i2c_hz()
        ratio, rows, goals = frame_model.model(frames, us_pass, hz)
        _, slow_rows, _ = frame_model.model(frames, us_pass, hz,
                                            esp32=frame_model.ESP32_PYSTONE_SLOW)
        cmd = " ".join(frame_model.command(name, LIB_REL, "<data>", "<path>", "<seed>"))
        self.details.append((
            "7. Frame time on an ESP32, estimated (docs/memory-and-speed.md \"Frame time\"): compute on %s "
            "(%s) x %.1f (misc_pystone %.0f passes/s here at the runs' own speed / %.2f "
            "on an ESP32 at %d MHz) + the bus at %d kHz; paths %s, each run %d times (a "
            "frame counts with its median run, in pystone passes of that run; a CPU "
            "path's frames are its median run's: a CPU thinks for a share of each "
            "frame's time, on the ESP32's clock); `%s`" % (
                name, frame_model.version_of(binary), ratio, 1e6 / us_pass,
                frame_model.ESP32_PYSTONE, frame_model.ESP32_MHZ, hz // 1000,
                ", ".join("%s (seed %d)" % (p, sd) for p, _, sd in paths), frame_model.RUNS,
                cmd),
            frame_model.HEAD + ("p99 / max at the slowest published ESP32 score (%.2f)"
                                % frame_model.ESP32_PYSTONE_SLOW,),
            [frame_model.row_cells(r) + ("%.1f / %.1f ms" % (sr[5], sr[6]),)
             for r, sr in zip(rows, slow_rows)]))
        for name_, ok, value, limit, msg in goals:
            self.goal(name_, ok, value, limit, msg, enforced=False)
        self.frame_counts(binary, fr, paths, rows)

    def frame_counts(self, binary, frame_build, paths, timed_rows):
        """The counted model (make test's gate): the same paths' instructions under this
        project's valgrind tool, beside the timed estimates (7) and how far they agree."""
        tool = vgcount.tool(required=False)
        if frame_build is None or tool is None:
            self.details.append(("7b. Frame time, counted: not measured (no 32-bit frame "
                                 "build or no valgrind)", ("",), []))
            return
        frames, per_pass = frame_model.measure_counted(frame_build, LIB_REL, self.jobs,
                                                        paths, tool)
        hz = frame_model.i2c_hz()
        _, rows, goals = frame_model.model(frames, per_pass, hz)
        timed = dict(((r[0], r[1]), r) for r in timed_rows)
        out = []
        for r in rows:
            t = timed.get((r[0], r[1]))
            cells = list(frame_model.row_cells(r)[:9])
            if t is not None:
                cells += ["%.1f / %.1f ms" % (t[3], t[5]), "%+.0f %% / %+.0f %%" % (
                    100.0 * (r[3] - t[3]) / t[3] if t[3] else 0,
                    100.0 * (r[5] - t[5]) / t[5] if t[5] else 0)]
            else:
                cells += ["", ""]
            ms, where = frame_model.worst(frames, per_pass, hz, r[0], r[1])
            out.append(tuple(cells) + ("%.1f ms, %s" % (ms, where),))
        cmd = " ".join(vgcount.command(tool, frame_model.command(
            os.path.relpath(frame_build, ROOT), LIB_REL, "<data>", "<path>", "<seed>"))[0])
        self.details.append((
            "7b. Frame time on an ESP32, counted (make test's gate, "
            "host_tests/test_frame_time.py): each frame's instructions on %s under the "
            "instruction counter (tools/bench/vgcount.py) over a pystone pass's (%.0f "
            "instructions), x the ESP32's pass time (1/%.2f s) + the bus at %d kHz; one "
            "run a path (the count does not move with load); beside it the timed model's "
            "p50 / p99 (7) and the counted one's difference from it; `%s counted`" % (
                os.path.relpath(frame_build, ROOT), per_pass, frame_model.ESP32_PYSTONE,
                hz // 1000, cmd),
            frame_model.HEAD[:9] + ("timed p50 / p99", "counted - timed, p50 / p99",
                                    "slowest frame (on the panel)"),
            out))
        for name_, ok, value, limit, msg in goals:
            self.goal("counted_" + name_, ok, value, limit, "counted: " + msg)

    # ---- 4. footprint ------------------------------------------------------------------

    def footprint(self, listing, dev):
        mpy = [(d, s) for d, s, _ in dev if d.endswith(".mpy")]
        total = sum(s for _, s in mpy)
        allf = sum(s for _, s, _ in dev)
        self.row("4. footprint: .mpy on the device (esp32_devkit build, %d modules; all files %s)"
                 % (len(mpy), kb(allf)), kb(total), "", "", "",
                 "python tools/flashing/build.py --board esp32_devkit")
        self.details.append(("Footprint per file (python tools/flashing/build.py --board esp32_devkit)",
                             ("file", "bytes"), [(d, str(s)) for d, s, _ in dev]))

    # ---- 5. core speed -------------------------------------------------------------------

    def core(self):
        args = ["core", ".", LIB_REL] + (["quick"] if self.quick else [])
        rc, r, text = self.run_mp(args)
        self.need(rc, r, text, "core speed (unix)")
        cargs = ["core", ".", "firmware"] + (["quick"] if self.quick else [])
        rc, c, text = self.run_cpython(cargs)
        self.need(rc, c, text, "core speed (CPython)")
        cu = dict((k, (int(n), int(us))) for k, n, us in r["speed"])
        cc = dict((k, (int(n), int(us))) for k, n, us in c["speed"])
        what = {"is_farkle": "is_farkle (core.frenzy_score.farkle_of), every 5-dice roll x "
                             "Common Die number None/1-6",
                "selections": "selections (core.frenzy_score.selections_of, the scored "
                              "selection list), every 5-dice roll x None/1/5",
                "shakeup_decision": "Shake Up decision (legal() + apply()), seeded 4-player games"}
        for k in ("is_farkle", "selections", "shakeup_decision"):
            nu, tu = cu[k]
            nc, tc = cc[k]
            a = tu / nu
            b = tc / nc
            self.row("5. us per %s (%d calls)" % (what[k], nu), "", "%.2f us" % a,
                     "%.2f us (unix/CPython %.2fx)" % (b, a / b), "",
                     "micropython %s %s; python %s %s" % (HARNESS, " ".join(args),
                                                          HARNESS, " ".join(cargs)))

    # ---- 6. boot -----------------------------------------------------------------------

    def boot(self):
        args = ["boot", ".", LIB_REL]
        got = {}
        for col, binary in self.binaries():
            rc, r, text = self.run_mp(args + [self.fs("b")], binary=binary)
            self.need(rc, r, text, "boot (%s)" % binary)
            got[col] = [int(x) for x in r["boot"][0]]
        rc, c, text = self.run_cpython(["boot", ".", "firmware", self.fs("bc")])
        cpy = ""
        if rc == 0 and "boot" in c:
            cpy = "%.1f ms" % (int(c["boot"][0][2]) / 1000)
        cmd = "%s -X heapsize=%s %s %s /tmp/fs (and micropython, the 64-bit port)" % (
            MP32_REL, BIG_HEAP, HARNESS, " ".join(args))
        cells = [["", ""], ["", ""], ["", ""]]
        nframes = splash = 0
        for col, v in got.items():
            t_app, t_first, t_menu, a_first, a_menu, kept, nframes, splash = v
            cells[0][col - 1] = "%.1f ms" % (t_app / 1000)
            cells[1][col - 1] = "%.1f ms, %s in use" % (t_first / 1000, kb(a_first))
            cells[2][col - 1] = "%.1f ms, %s in use, %s kept after gc.collect()" % (
                t_menu / 1000, kb(a_menu), kb(kept))
        self.row("6. boot: main.py start -> App built (guard, imports, devices, store; "
                 "host filesystem)", cells[0][0], cells[0][1], "", "", cmd)
        # "in use": collection is off, but App.show() calls gc.collect() itself.
        self.row("6. boot: -> first frame (splash) shown", cells[1][0], cells[1][1], "", "", cmd)
        self.row("6. boot: -> menu's first frame (compute only; the splash holds %d ms by design, "
                 "%d frames)" % (splash, nframes), cells[2][0], cells[2][1],
                 cpy, "", cmd + "; python %s boot . firmware /tmp/fs" % HARNESS)

    # ---- import costs ----------------------------------------------------------------------

    def imports(self):
        args = ["imports", ".", LIB_REL]
        got = {}
        for col, binary in self.binaries():
            rc, r, text = self.run_mp(args, binary=binary)
            self.need(rc, r, text, "imports (%s)" % binary)
            got[col] = r
        names = [n for n, _ in got[min(got)]["import"]]
        vals = dict((c, dict(got[c]["import"])) for c in got)
        rows = [(n, vals.get(1, {}).get(n, ""), vals.get(2, {}).get(n, "")) for n in names]
        rows.append(("total", got[1]["import_total"][0][0] if 1 in got else "",
                     got[2]["import_total"][0][0] if 2 in got else ""))
        self.details.append((
            "Heap kept by each import, in boot order, bytes (%s %s; micropython %s, host "
            "filesystem). A module's figure includes the qstr pool and qstr data growth its "
            "names trigger, which lands on whichever import crosses a pool size" % (
                MP32_REL, " ".join([HARNESS] + args), " ".join([HARNESS] + args)),
            ("module", "unix 32-bit", "unix 64-bit"), rows))

    # ---- output -----------------------------------------------------------------------------

    def table(self):
        head = ("figure", "unix port 32-bit (the gauge)", "unix port 64-bit (information)",
                "CPython", "goal", "command")
        lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
        for r in sorted(self.rows, key=lambda r: r[0][:2]):  # figures in issue order
            lines.append("| " + " | ".join(str(x).replace("|", "\\|") for x in r) + " |")
        return "\n".join(lines)

    def report(self, elapsed):
        v32 = mp_version(self.mp32) if self.mp32 else "none: " + self.notes[0]
        out = ["# Pocket Dice: memory and speed", "",
               "Written by `make bench` (python tools/bench/bench.py%s) in %.0f s. Firmware built as "
               "deployed (tools/flashing/build.py, .mpy -O3) into %s and run from a LittleFS at \"/\" "
               "(tools/bench/lfs.py). The 32-bit port is %s (tools/bench/mp32.py, from MICROPY_SRC "
               "%s), the gauge; `micropython` is .venv/bin/micropython (%s), for "
               "information (the games only). Random play: seeds %s, %d frames each. Paths "
               "are relative to the repository; <used>, <save1>, <save2> are the data files the bench makes "
               "first by playing a game of each kind (saves:1, saves:2 paths)." % (
                   " --quick" if self.quick else "", elapsed, LIB_REL, v32,
                   os.path.relpath(mp32.source(), ROOT),
                   mp_version(self.mp), ",".join(str(x) for x in (
                       RAND_SEEDS_QUICK if self.quick else RAND_SEEDS)), RAND_FRAMES), ""]
        out.append(self.table())
        out.append("")
        out.append("Goals (AIM: reported, not enforced):")
        out.append("")
        for name, ok, value, limit, msg, enforced in self.goals:
            out.append("- %s %s %s: %s (limit %s)%s" % (
                "GOAL" if enforced else "AIM", "PASS" if ok else "MISS", name, value, limit,
                "" if ok else " - " + msg))
        for path, budget, where in self.stalls:
            self.notes.append("Stalled instead of running out of memory: %s, budget %s: %s" % (
                path, budget, where))
        for n in self.notes:
            out.append("")
            out.append(n)
        for title, head, rows in self.details:
            out.append("")
            out.append("## " + title)
            out.append("")
            out.append("| " + " | ".join(head) + " |")
            out.append("|" + "---|" * len(head))
            for r in rows:
                out.append("| " + " | ".join(str(x) for x in r) + " |")
        return "\n".join(out) + "\n"


def parse(text):
    """`R key v1 v2 ...` lines -> {key: [[v1, v2, ...], ...]}."""
    r = {}
    for line in text.splitlines():
        if line.startswith("R "):
            parts = line.split(" ")
            r.setdefault(parts[1], []).append(parts[2:])
    return r


def kb(n):
    if isinstance(n, str):
        return n
    return "%d B (%.1f KB)" % (n, n / 1024)


def mp_version(mp):
    """MicroPython's version and word size (sys.version of a build inside a git checkout
    names that checkout's commit)."""
    try:
        p = subprocess.run([mp, "-c", "import sys; v = sys.implementation.version; "
                            "print('MicroPython %d.%d.%d %s, %d-bit' % (v[0], v[1], v[2], "
                            "v[3] if len(v) > 3 else '', 64 if sys.maxsize > 1 << 32 else 32))"],
                           capture_output=True, text=True, timeout=30)
        return p.stdout.strip()
    except OSError:
        return "?"


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true", help="the goals only, fast")
    ap.add_argument("--jobs", type=int, default=2, help="runs at a time (default 2)")
    ap.add_argument("--out", default=None, help="results file (default tools/bench/results.md; "
                    "--quick writes none unless given)")
    args = ap.parse_args(argv)
    t0 = time.time()
    b = Bench(args.quick, max(1, args.jobs))
    if not b.mp or not os.path.exists(b.mp):
        sys.stderr.write("bench: no MicroPython unix port (.venv/bin/micropython); run make venv\n")
        return 2
    b.mp32 = mp32.binary()  # None (one line said why), or SystemExit under CI=true
    if b.mp32 is None:
        b.notes.append("No 32-bit interpreter (tools/bench/mp32.py): the memory goals were not "
                       "measured.")
        print("NO32 the 32-bit unix port is missing: memory goals not measured")
    try:
        try:
            listing, dev = b.build()
        except buildmod.BuildError as e:
            sys.stderr.write("bench: the firmware does not build: %s\n" % e)
            return 2
        if not args.quick:
            b.footprint(listing, dev)
            b.core()
        b.frames()
        b.heap()
        b.save_hints()
        if not args.quick:
            b.frame_times()
            b.boot()
            b.imports()
    finally:
        shutil.rmtree(b.tmp, ignore_errors=True)
    text = b.report(time.time() - t0)
    print(text)
    dest = args.out or (None if args.quick else RESULTS)
    if dest:
        with open(dest, "w") as f:
            f.write(text)
    missed = [g for g in b.goals if not g[1] and g[5] and g[0] not in KNOWN_MISS]
    for name, ok, value, limit, msg, enforced in b.goals:
        print("%s %s %s %s %s" % ("GOAL" if enforced else "AIM", name, "PASS" if ok else "MISS",
                                  value, limit))
    if missed:
        for g in missed:
            sys.stderr.write("bench: goal missed: %s\n" % g[4])
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
