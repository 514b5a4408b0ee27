"""Memory and speed of the firmware on real MicroPython: one table -> tools/bench/results.md.

Usage: python tools/bench.py [--quick] [--no-wasm] [--out FILE]

The firmware is built as deployed (tools/build.py: .mpy, mpy-cross -O3) for the sim
board into build/bench/ and measured by tools/bench/harness.py inside:
- the MicroPython unix port (.venv/bin/micropython, 64-bit),
- the MicroPython WebAssembly port (npm @micropython/micropython-webassembly-pyscript,
  32-bit like the ESP32) under Node, installed into .venv/node on first use; without
  node/npm that column says why it is empty,
- CPython, beside them where a comparison means something (core speed, boot).
Every figure carries the command that produced it (paths relative to the repository).

--quick: only what the goals need (< ~60 s); exits 1 with a message per missed goal:
  min heap <= 64 KB per game (bisected to 1 KB),
  zero bytes allocated per frame (idle menu, tumbling dice, cursors),
  <= 2 display pages sent for a cursor move.
Every run prints `GOAL name PASS|MISS value limit` lines (host_tests/test_bench_quick.py
reads them).
"""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tools"))
import build as buildmod  # noqa: E402

HARNESS = "tools/bench/harness.py"
WASM_RUN = "tools/bench/wasm_run.mjs"
LIB_REL = "build/bench/sim"
LIB = os.path.join(ROOT, LIB_REL)
NODE_DIR = os.path.join(ROOT, ".venv", "node")
WASM_PKG = "@micropython/micropython-webassembly-pyscript"
WASM_MJS = os.path.join(NODE_DIR, "node_modules", WASM_PKG, "micropython.mjs")
RESULTS = os.path.join(ROOT, "tools", "bench", "results.md")

GOAL_HEAP = 64 * 1024
GOAL_PAGES = 2
BIG_HEAP = "4m"
GAMES = ((1, 4, "Shake Up, 4 players"), (2, 4, "Farkle Frenzy, 4 players"))
SEED = 1


def micropython_bin():
    here = os.path.join(ROOT, ".venv", "bin", "micropython")
    return here if os.path.exists(here) else shutil.which("micropython")


class Bench:
    def __init__(self, quick, wasm):
        self.quick = quick
        self.wasm = wasm
        self.mp = micropython_bin()
        self.rows = []       # (figure, unix, wasm32, cpython, goal, command)
        self.details = []    # (title, header, rows)
        self.goals = []      # (name, ok, value, limit, message)
        self.notes = []
        self.stalls = []     # (kind, budget, heap, where): runs that stalled, not MemoryError
        self.tmp = tempfile.mkdtemp(prefix="pocketdice_bench_")

    # ---- running things ----------------------------------------------------------

    def fs(self, name):
        p = os.path.join(self.tmp, name)
        shutil.rmtree(p, ignore_errors=True)
        return p

    def run_mp(self, args, heap=BIG_HEAP, timeout=600):
        cmd = [self.mp, "-X", "heapsize=%s" % heap, HARNESS] + args
        p = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=timeout)
        return p.returncode, parse(p.stdout), p.stdout + p.stderr

    def run_cpython(self, args, timeout=600):
        cmd = [sys.executable, HARNESS] + args
        p = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=timeout)
        return p.returncode, parse(p.stdout), p.stdout + p.stderr

    def run_wasm(self, args, timeout=900):
        cmd = ["node", WASM_RUN, WASM_MJS, ROOT, LIB] + args
        p = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=timeout)
        return p.returncode, parse(p.stdout), p.stdout + p.stderr

    def need(self, rc, r, text, what):
        if rc != 0 or "ok" not in r:
            raise SystemExit("bench: %s failed (exit %d):\n%s" % (what, rc, text[-3000:]))

    def row(self, figure, unix="", wasm="", cpy="", goal="", cmd=""):
        self.rows.append((figure, unix, wasm, cpy, goal, cmd))

    def goal(self, name, ok, value, limit, message):
        self.goals.append((name, ok, value, limit, message))

    # ---- setup -------------------------------------------------------------------

    def build(self):
        out = os.path.join(ROOT, "build", "bench")
        listing = buildmod.build("sim", out)
        dev = buildmod.build("esp32_devkit", os.path.join(self.tmp, "build"))
        return listing, dev

    def setup_wasm(self):
        """Install the WebAssembly port with npm into .venv/node (git-ignored)."""
        if not self.wasm:
            return "skipped (--no-wasm)"
        if os.path.exists(WASM_MJS):
            return None
        if not shutil.which("node") or not shutil.which("npm"):
            return "no node/npm on this machine"
        os.makedirs(NODE_DIR, exist_ok=True)
        pkg = os.path.join(NODE_DIR, "package.json")
        if not os.path.exists(pkg):
            with open(pkg, "w") as f:
                f.write('{"private": true}\n')
        p = subprocess.run(["npm", "install", "--no-audit", "--no-fund", "--silent", WASM_PKG],
                           cwd=NODE_DIR, capture_output=True, text=True, timeout=600)
        if p.returncode != 0 or not os.path.exists(WASM_MJS):
            return "npm install %s failed: %s" % (WASM_PKG, (p.stderr or p.stdout).strip()[-200:])
        return None

    # ---- 1. minimum heap -----------------------------------------------------------

    def game_args(self, kind, players, budget, sample, fs, preload=0):
        return ["game", ".", LIB_REL, fs, str(kind), str(players), str(SEED), str(budget),
                str(sample), str(preload)]

    def plays(self, kind, players, budget=0, heap=BIG_HEAP, preload=0, tight=False):
        fs = self.fs("g")
        rc, r, text = self.run_mp(self.game_args(kind, players, budget, 0, fs, preload), heap)
        if tight and rc != 0 and "MemoryError" in text:
            # Probing the raw heap: running out while the simulator itself sets up is a
            # failed probe like any other, not a crash.
            return False, r
        if rc not in (0, 3):
            raise SystemExit("bench: game run crashed (exit %d):\n%s" % (rc, text[-3000:]))
        if "stuck" in r:
            self.stalls.append((kind, budget, heap, " ".join(r["stuck"][0])))
        return rc == 0 and "ok" in r, r

    def bisect(self, ok, lo, hi, step=512):
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

    def min_heap(self):
        for kind, players, label in GAMES:
            base = "%s -X heapsize=%s %s %s" % ("micropython", BIG_HEAP, HARNESS,
                                                " ".join(self.game_args(kind, players, "B", 0,
                                                                        "/tmp/fs")))
            hi = 256 * 1024
            ok, r = self.plays(kind, players, hi)
            if not ok:
                raise SystemExit("bench: %s does not play in %d bytes" % (label, hi))
            # Near the threshold pass/fail is not monotonic (whether a 4 KB block is
            # free when a game's modules load depends on the layout), so quick and full
            # runs probe the same budgets and give the same figure.
            budget = self.bisect(lambda b: self.plays(kind, players, b)[0], 8 * 1024, hi,
                                 1024)
            self.goal("min_heap_%d" % kind, budget <= GOAL_HEAP, budget, GOAL_HEAP,
                      "%s needs %d bytes of heap (goal %d)" % (label, budget, GOAL_HEAP))
            if self.quick:
                self.row("1. min heap, %s (firmware's share, bisected to 1 KB)" % label,
                         kb(budget), "", "", "<= 64 KB", base + "  (bisect B)")
                continue
            # The raw -X heapsize, the harness (simulator models, pilot) included.
            raw = self.bisect(lambda h: self.plays(kind, players, 0, str(h), tight=True)[0],
                              64 * 1024,
                              1024 * 1024, 1024)
            harness = int(r["harness_heap"][0][0])
            frozen = self.bisect(lambda b: self.plays(kind, players, b, preload=1)[0], 4 * 1024,
                                 hi)
            _, r2 = self.plays(kind, players, 0)
            pk = int(r2["peak_delta"][0][0])
            # Heap in use, sampled after every frame (after gc.collect()), both ports.
            fs = self.fs("s")
            rc, rs, text = self.run_mp(self.game_args(kind, players, 0, 1, fs))
            self.need(rc, rs, text, "sampled game")
            w = self.wasm_game(kind, players)
            self.row("1. min heap, %s (firmware's share, bisected; harness fenced off)" % label,
                     kb(budget), "", "", "<= 64 KB",
                     base + "  (bisect B)")
            self.row("1. min heap, %s, code outside the budget (modules preloaded and kept): "
                     "estimate for a frozen build, bytecode and qstrs in flash" % label,
                     kb(frozen), "", "", "", base.replace(" 0 0", " 0 1") + "  (bisect B)")
            self.row("1. min -X heapsize, %s, simulator + pilot included (they hold %s)" % (
                label, kb(harness)), kb(raw), "", "", "",
                "micropython -X heapsize=H %s %s  (bisect H)" % (
                    HARNESS, " ".join(self.game_args(kind, players, 0, 0, "/tmp/fs"))))
            self.row("1. micropython.mem_peak() growth over the game (%s)" % label,
                     kb(pk), "n/a (no mem_peak)", "", "",
                     "same, B=0: R peak_delta (m_malloc bytes minus explicit frees; "
                     "garbage the GC reclaims is never subtracted)")
            cmd_s = "micropython -X heapsize=%s %s %s" % (
                BIG_HEAP, HARNESS, " ".join(self.game_args(kind, players, 0, 1, "/tmp/fs")))
            for key, what in (("live_peak", "peak heap in use"), ("menu_heap", "heap in use at the menu"),
                              ("end_heap", "heap in use back at the menu after the game")):
                self.row("1. %s, %s (gc.mem_alloc() after gc.collect(), every frame)" % (what, label),
                         kb(int(rs[key][0][0])), w.get(key, self.wasm_note), "", "",
                         cmd_s + ("; node %s <mjs> . %s game /tmp/fs %d %d %d" % (
                             WASM_RUN, LIB_REL, kind, players, SEED)))

    wasm_note = ""

    def wasm_game(self, kind, players):
        if self.wasm_note:
            return {}
        rc, r, text = self.run_wasm(["game", "/tmp/wasmfs", str(kind), str(players), str(SEED)])
        if rc != 0 or "ok" not in r:
            return {"live_peak": "failed: " + text.strip().splitlines()[-1][:80]}
        return dict((k, kb(int(r[k][0][0]))) for k in ("live_peak", "menu_heap", "end_heap"))

    # ---- 2 + 3. frames ---------------------------------------------------------------

    def frames(self):
        fs = self.fs("f")
        args = ["frames", ".", LIB_REL, fs]
        rc, r, text = self.run_mp(args)
        self.need(rc, r, text, "frame measurements")
        cmd = "micropython -X heapsize=%s %s %s" % (BIG_HEAP, HARNESS, " ".join(args[:3] + ["/tmp/fs"]))
        for name, n, used in r["alloc"]:
            n = int(n)
            used = int(used)
            self.row("2. allocation per frame, %s (gc off, %d frames)" % (name.replace("_", " "), n),
                     "%g B" % (used / n), "", "", "0", cmd)
            self.goal("alloc_" + name, used == 0, used, 0,
                      "%s allocates %d bytes in %d frames" % (name, used, n))
        for name, nframes, avg, mx, pages, masks in r["traffic"]:
            mx = int(mx)
            pages = int(pages)
            ms = mx * 9 / 400.0
            cursor = "cursor" in name
            self.row("3. display traffic, %s: bytes/frame avg %s, max %d = %d pages, %.1f ms at 400 kHz"
                     % (name.replace("_", " "), avg, mx, pages, ms),
                     "%d B / %d pages" % (mx, pages), "", "",
                     "<= 2 pages" if cursor else "", cmd + "  (page masks per frame: %s)" % masks)
            if cursor:
                self.goal("pages_" + name, pages <= GOAL_PAGES, pages, GOAL_PAGES,
                          "%s sends %d pages in one frame (page masks %s)" % (name, pages, masks))

    # ---- 4. footprint ------------------------------------------------------------------

    def footprint(self, listing, dev):
        mpy = [(d, s) for d, s, _ in dev if d.endswith(".mpy")]
        total = sum(s for _, s in mpy)
        allf = sum(s for _, s, _ in dev)
        self.row("4. footprint: .mpy on the device (esp32_devkit build, %d modules; all files %s)"
                 % (len(mpy), kb(allf)), kb(total), "", "", "",
                 "python tools/build.py --board esp32_devkit")
        self.details.append(("Footprint per file (python tools/build.py --board esp32_devkit)",
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
        what = {"is_farkle": "is_farkle, every 5-dice roll x Common Die number None/1-6",
                "selections": "selections (scored selection list), every 5-dice roll x None/1/5",
                "shakeup_decision": "Shake Up decision (legal() + apply()), seeded 4-player games"}
        for k in ("is_farkle", "selections", "shakeup_decision"):
            nu, tu = cu[k]
            nc, tc = cc[k]
            a = tu / nu
            b = tc / nc
            self.row("5. us per %s (%d calls)" % (what[k], nu), "%.2f us" % a, "",
                     "%.2f us (unix/CPython %.2fx)" % (b, a / b), "",
                     "micropython %s %s; python %s %s" % (HARNESS, " ".join(args),
                                                          HARNESS, " ".join(cargs)))

    # ---- 6. boot -----------------------------------------------------------------------

    def boot(self):
        fs = self.fs("b")
        args = ["boot", ".", LIB_REL, fs]
        rc, r, text = self.run_mp(args)
        self.need(rc, r, text, "boot")
        t_app, t_first, t_menu, a_first, a_menu, kept, nframes, splash = (
            int(x) for x in r["boot"][0])
        fs = self.fs("bc")
        rc, c, text = self.run_cpython(["boot", ".", "firmware", fs])
        cpy = ""
        if rc == 0 and "boot" in c:
            cpy = "%.1f ms" % (int(c["boot"][0][2]) / 1000)
        cmd = "micropython -X heapsize=%s %s %s" % (BIG_HEAP, HARNESS, " ".join(args[:3] + ["/tmp/fs"]))
        self.row("6. boot: main.py start -> App built (guard, imports, devices, store)",
                 "%.1f ms" % (t_app / 1000), "", "", "", cmd)
        # "in use": collection is off, but App.show() calls gc.collect() itself.
        self.row("6. boot: -> first frame (splash) shown", "%.1f ms, %s in use" % (
            t_first / 1000, kb(a_first)), "", "", "", cmd)
        self.row("6. boot: -> menu's first frame (compute only; the splash holds %d ms by design, "
                 "%d frames)" % (splash, nframes),
                 "%.1f ms, %s in use, %s kept after gc.collect()" % (
                     t_menu / 1000, kb(a_menu), kb(kept)), "",
                 cpy, "", cmd + "; python %s boot . firmware /tmp/fs" % HARNESS)

    # ---- import costs ----------------------------------------------------------------------

    def imports(self):
        args = ["imports", ".", LIB_REL]
        rc, r, text = self.run_mp(args)
        self.need(rc, r, text, "imports")
        w = {}
        if not self.wasm_note:
            rc2, r2, text2 = self.run_wasm(["imports"])
            if rc2 == 0 and "import" in r2:
                w = dict((n, v) for n, v in r2["import"])
        rows = [(n, v, w.get(n, "")) for n, v in r["import"]]
        rows.append(("total", r["import_total"][0][0],
                     r2["import_total"][0][0] if w else ""))
        self.details.append((
            "Heap kept by each import, in boot order, bytes (micropython %s imports . %s; node %s "
            "<mjs> . %s imports). A module's figure includes the qstr pool and qstr data growth "
            "its names trigger, which lands on whichever import crosses a pool size" % (
                HARNESS, LIB_REL, WASM_RUN, LIB_REL),
            ("module", "unix 64-bit", "wasm 32-bit"), rows))

    # ---- output -----------------------------------------------------------------------------

    def table(self):
        head = ("figure", "unix port (64-bit)", "wasm port (32-bit)", "CPython", "goal", "command")
        lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
        for r in sorted(self.rows, key=lambda r: r[0][:2]):  # figures in issue order
            lines.append("| " + " | ".join(str(x).replace("|", "\\|") for x in r) + " |")
        return "\n".join(lines)

    def report(self, elapsed):
        out = ["# Pocket Dice: memory and speed", "",
               "Written by `make bench` (python tools/bench.py%s) in %.0f s. Firmware built as "
               "deployed (tools/build.py, .mpy -O3) into %s; `micropython` is .venv/bin/micropython "
               "(unix port %s); the 32-bit column is %s under Node. Paths are relative to the "
               "repository." % (" --quick" if self.quick else "", elapsed, LIB_REL,
                                mp_version(self.mp), WASM_PKG), ""]
        out.append(self.table())
        out.append("")
        out.append("Goals:")
        out.append("")
        for name, ok, value, limit, msg in self.goals:
            out.append("- %s %s: %s (limit %s)%s" % ("PASS" if ok else "MISS", name, value, limit,
                                                     "" if ok else " - " + msg))
        for kind, budget, heap, where in self.stalls:
            self.notes.append("Stalled instead of running out of memory: game %d, budget %s, "
                              "heapsize %s: %s" % (kind, budget, heap, where))
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
    try:
        p = subprocess.run([mp, "-c", "import sys; print(sys.version)"], capture_output=True,
                           text=True, timeout=30)
        return p.stdout.strip()
    except OSError:
        return "?"


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true", help="the goals only, fast")
    ap.add_argument("--no-wasm", action="store_true", help="skip the 32-bit WebAssembly port")
    ap.add_argument("--out", default=None, help="results file (default tools/bench/results.md; "
                    "--quick writes none unless given)")
    args = ap.parse_args(argv)
    t0 = time.time()
    b = Bench(args.quick, not args.no_wasm and not args.quick)
    if not b.mp or not os.path.exists(b.mp):
        sys.stderr.write("bench: no MicroPython unix port (.venv/bin/micropython); run make venv\n")
        return 2
    try:
        try:
            listing, dev = b.build()
        except buildmod.BuildError as e:
            sys.stderr.write("bench: the firmware does not build: %s\n" % e)
            return 2
        if not args.quick:
            note = b.setup_wasm()
            if note:
                b.wasm_note = "skipped: " + note
                b.notes.append("The 32-bit column is empty: %s." % note)
            b.footprint(listing, dev)
            b.core()
        b.frames()
        b.min_heap()
        if not args.quick:
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
    missed = [g for g in b.goals if not g[1]]
    for name, ok, value, limit, msg in b.goals:
        print("GOAL %s %s %s %s" % (name, "PASS" if ok else "MISS", value, limit))
    if missed:
        for g in missed:
            sys.stderr.write("bench: goal missed: %s\n" % g[4])
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
