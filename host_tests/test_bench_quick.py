"""The bench's goals, quickly (`python tools/bench.py --quick`, a few minutes): the
firmware as deployed (.mpy, on a LittleFS at "/") on the MicroPython unix port.

Goals, measured on the 32-bit unix port (tools/mp32.py), which has the ESP32's object
sizes: the fenced minimum heap of every path (a new game and a Continue of each game,
the menu and each of its screens, random play over several seeds) at most 64 KB, the
worst of them too (`heap32_worst`); no allocation per frame in steady state; at most 2
display pages sent for a cursor move. `heap32_first_area` (the worst path within a plain
ESP32's first heap area, 56 KB) is an AIM line: reported, not enforced.

Without the 32-bit interpreter (no MicroPython source or no -m32 compiler) the memory
gate skips with one line and the frame goals are measured on the 64-bit port; under
CI=true a missing 32-bit interpreter fails (tools/mp32.py).

Goals that the firmware does not meet yet are listed in OPEN with the figure measured
when they were recorded plus a small margin: the test fails when such a figure gets
worse (a regression). When one starts to pass it warns (delete its entry, so the goal
itself is enforced from then on) rather than fails: a heap figure 1 KB above its goal
lands on either side of it from run to run, with the heap's layout. Every other goal
must pass.
"""
import os
import subprocess
import sys
import warnings

import pytest
from conftest import ROOT, micropython_bin

sys.path.insert(0, os.path.join(ROOT, "tools"))
sys.path.insert(0, os.path.join(ROOT, "tools", "bench"))
import mp32  # noqa: E402

# goal name -> highest value still accepted while the goal is open (tools/bench/results.md
# explains each).
OPEN = {
    # Measured on branch mem (the CPU players, never-lose part 2, the playtest's screens
    # and the frame model merged; then the boot's wiring, the crash path, the stats'
    # checks and a Continue's loader made to leave after use, and the bench's search
    # started below the minimum), `CI=true .venv/bin/python tools/bench.py --quick`,
    # 2026-12-01. Before: new2 69,632, cont2 74,752, rand2 76,800, cpu1 73,728, cpu2
    # 75,776. What stays resident at the worst peak (cpu2, a Frenzy round's table with a
    # HARD CPU seated): the Frenzy screen, game and scores, ui.cpu_turn and the engine,
    # the app, the store, the drivers (tools/bench/harness.py SAMPLE 2 lists them).
    # Ceiling: the figure plus 2 KB (the bisection's step is 1 KB). Each is a regression
    # against the 64 KB gate to win back; the gate itself is unchanged.
    # Branch mem2 (the turn DP's tables built in place, the checked Frenzy scoring
    # host only, a Frenzy save made at its full size), the same command, 2026-12-01:
    # new2 66,560 -> 65,536 (passes: a plain gate now), cont2 70,656 -> 69,632, rand2
    # 72,704 -> 71,680, cpu1 71,680 -> 70,656, cpu2 73,728 -> 71,680.
    # Merged with branch frames2 (partial redraws: the screens' code +880 B), the same
    # command: new2 66,560 (open again: one 1 KB step over), rand2 and cpu2 72,704,
    # cont2 69,632, cpu1 70,656.
    # The pilot (tools/bench/pilot.py) kept the menu's screen alive on its generators'
    # stacks while a game started, which the bench charged to the firmware (4.8 KB of
    # the menu's code); it reads screens by plain calls now. With the CPU turn's steps
    # split per game, the same command, 2026-12-01: new1 58,368 -> 56,320, new2
    # 66,560 -> 64,512 and cont2 69,632 -> 65,536 (both pass), cont1 58,368 -> 55,296,
    # rand2 72,704 -> 71,680; cpu1 70,656 and cpu2 72,704 are bound mid-game (every
    # module of the game and its CPU resident, a save in a CPU's turn), not by a start.
    # Random play: 69,632 on branch mem, 72,704 merged with issue 18's TAKE that opens
    # on the best selection (random keys now finish TAKEs, so play goes further: seed 1
    # makes 91 saves in 6000 frames instead of 23), `make bench QUICK=1`, 2026-12-01;
    # 71,680 on branch mem2, 72,704 merged with frames2, 71,680 with the pilot's fix.
    # The crash guard forgotten after the boot (watch.py keeps its run-time part),
    # `make bench`, 2026-12-02: rand2 71,680 -> 70,656, cpu1 70,656 -> 69,632, cpu2
    # 72,704 -> 71,680 (cont2 65,536 -> 64,512, new1 56,320 -> 55,296).
    # This stop's frame work (the TAKE table, gfx's text loops, ui.setup, the CPU's
    # partial redraws and lines over the frame), `make bench`, 2026-12-02: rand2
    # 70,656 -> 71,680, cpu2 71,680 -> 72,704 (cpu1 70,656, cont2 65,536, new2 64,512);
    # the ceilings stay: a KB each to win back.
    # Issue 31's playtest against the CPUs (branch play merged with main at e42de82:
    # the CPU's paced lines, the hidden Relay round in ui.frenzy_cpu, the winning move
    # shown), `.venv/bin/python tools/bench.py --quick`, 2026-12-04, against main
    # measured the same day: cpu1 71,680 -> 72,704, cpu2 73,728 -> 74,752 (rand2
    # 72,704 -> 67,584; new2 and cont2 66,560 on both: main's, over the plain gate).
    # .mpy growth on the CPU path: frenzy_cpu +477 B, frenzy_screen +376, cpu_turn
    # +193. A KB each to win back.
    "heap32_rand2": 70656 + 2048,
    "heap32_cpu1": 70656 + 2048,
    "heap32_cpu2": 72704 + 2048,
    "heap32_worst": 72704 + 2048,
}

FRAME_GOALS = ("alloc_idle_menu", "alloc_menu_cursor", "alloc_su_tumble",
               "alloc_su_dice_cursor", "alloc_fz_take_cursor", "pages_menu_cursor",
               "pages_fz_take_cursor")


def _goals(text, tag="GOAL"):
    got = {}
    for line in text.splitlines():
        p = line.split(" ")
        if len(p) == 5 and p[0] == tag:
            got[p[1]] = (p[2], p[3], p[4])
    return got


@pytest.fixture(scope="module")
def quick():
    if not os.path.exists(micropython_bin()):
        pytest.skip("no MicroPython unix port")
    # Built here, before the bench: under CI=true a missing one fails (SystemExit).
    mp32.binary()
    p = subprocess.run([sys.executable, "tools/bench.py", "--quick"], check=False, cwd=ROOT,
                       capture_output=True, text=True, timeout=1800)
    goals = _goals(p.stdout)
    assert goals, f"bench printed no goals (exit {p.returncode}):\n{(p.stdout + p.stderr)[-3000:]}"
    return p, goals


def _check(p, goals, names):
    for name in names:
        assert name in goals, f"bench did not measure {name}"
    bad = []
    for name in names:
        verdict, value, limit = goals[name]
        if name in OPEN:
            if verdict == "PASS":
                warnings.warn(f"{name} now passes ({value} <= {limit}): delete it from OPEN")
            elif not value.isdigit() or int(value) > OPEN[name]:
                bad.append(f"{name} got worse: {value} (recorded ceiling {OPEN[name]}, "
                           f"goal {limit})")
        elif verdict != "PASS":
            bad.append(f"{name} missed: {value} (limit {limit})")
    assert not bad, "\n".join(bad) + "\n" + p.stderr[-2000:]


def test_frame_goals(quick):
    p, goals = quick
    _check(p, goals, FRAME_GOALS)


def test_memory_gate_32bit(quick):
    p, goals = quick
    if "NO32" in p.stdout:
        assert not mp32.in_ci(), "CI=true: the 32-bit interpreter is required"
        pytest.skip("no 32-bit MicroPython (tools/mp32.py): memory gate not measured")
    sys.path.insert(0, os.path.join(ROOT, "tools"))
    import bench
    names = [bench.goal_name(path) for path, _, _ in bench.PATHS] + ["heap32_worst"]
    _check(p, goals, names)
    aims = _goals(p.stdout, "AIM")
    assert "heap32_first_area" in aims, "bench did not report the first heap area"


def test_exit_status_follows_the_goals(quick):
    p, goals = quick
    missed = [n for n in goals if goals[n][0] != "PASS"]
    assert (p.returncode != 0) == bool(missed), f"exit status {p.returncode} with misses {missed}"
