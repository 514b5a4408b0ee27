"""The steady-state frame goal by the ESP32 time model (tools/bench/frame_model.py,
docs/memory-and-speed.md "Frame time on the device"): idle, redraw (cursor, live score, a CPU's steps)
and tumble frames of a scripted 4-player game of each kind, all human and a human
against CPUs EASY, NORMAL and HARD, p99 <= 33 ms on an ESP32 including the bus
(a frame that redraws 5 of the 8 display pages or more is a new view, a screen change
to the player, with the screen changes' goal: make bench reports it).

The estimate is a ratio, not an absolute time: each frame's compute on the MicroPython
unix port (32-bit if built, else the 64-bit one) in pystone passes of its own run (a
fixed loop timed beside pystone and before every frame ties the two to the run's
speed; time while another process had the CPU is taken off), times the published ESP32
pystone pass time, plus the frame's bus time. Each game runs RUNS times, identically,
and a frame counts with its median run; the limit gets MARGIN for what noise is left
(on a 2-core machine with four other busy processes the p99s stayed within 8 %).

Goals not met yet are in OPEN with the estimate recorded then (ms) plus the margin: the
test fails when one gets worse and when it starts to pass (then delete its entry).
"""
import os

import pytest
from conftest import ROOT, micropython_bin

import frame_model  # noqa: E402
import mp32  # noqa: E402

MARGIN = 1.25
RUNS = 3
# goal -> estimate recorded (ms, p99 on the 32-bit port: the worst of the measurements
# made, some with two more busy processes on the 2-core machine; docs/memory-and-speed.md "Frame time on
# the device" has the table).
# After the partial redraws (DIRTY_CURSOR, DIRTY_PICK, DIRTY_ROLL: docs/memory-and-speed.md), the highest
# of two runs of this test on a loaded machine: the setup's PLAYERS row (a full redraw;
# 30 frames, so its p99 is their max) 55.7 / 56.5; Shake Up's redraws 53.9 / 51.9 (a
# notice's end redraws the board in full). Frenzy's redraws (17.6) and tumble (29.6)
# pass. Shake Up's redraws pass since its INFO closes onto the board in part: 47.3 /
# 47.2 -> 27.5 / 29.3 / 29.5 (branch frames4; a script calling frame_model.measure() as
# estimates() below does). The setup's PLAYERS redraws PLAYERS and the rows that moved
# (DIRTY_PICK): the menu's redraws 43.5 / 43.9 / 44.5 -> 22.9 / 33.1 / 33.2 / 22.9
# (their worst of 30 frames; the same script). Shake Up's tumble (38.5) passes since its
# first frame from the board, the dice replacing the pyramid (8 pages), counts as the
# new view it is (20.0 ms).
OPEN = {}
STEADY = ["frame_menu_idle", "frame_menu_redraw"] + [
    f"frame_{k}_{s}" for k in ("shakeup", "frenzy") for s in ("idle", "redraw", "tumble")]


@pytest.fixture(scope="module")
def estimates():
    # CI=true: the 32-bit port is required; the frame model's build has the tools frozen
    binary = mp32.binary(frame=True) or micropython_bin()
    if not os.path.exists(binary):
        pytest.skip("no MicroPython unix port")
    import build
    import codes
    build.build("sim", os.path.join(ROOT, "build", "bench"))
    codes.write()
    frame_model.prepare(mp32.source())
    frames, us_pass = frame_model.measure(
        binary, "build/bench/sim", 2, [("new:1", "-", 1), ("new:2", "-", 1), ("cpu:1", "-", 1),
                                       ("cpu:2", "-", 1)], RUNS)
    ratio, rows, goals = frame_model.model(frames, us_pass, frame_model.i2c_hz())
    table = frame_model.table(rows)
    return dict((g[0], float(g[2])) for g in goals), ratio, table


def test_steady_state_frames_within_33_ms(estimates):
    got, ratio, table = estimates
    bad = []
    for name in STEADY:
        assert name in got, f"the model measured no {name}:\n{table}"
        v = got[name]
        if name in OPEN:
            if v <= frame_model.STEADY_MS:
                bad.append(f"{name} now passes ({v} ms): delete it from OPEN")
            elif v > OPEN[name] * MARGIN:
                bad.append(f"{name} got worse: {v} ms (recorded {OPEN[name]} ms)")
        elif v > frame_model.STEADY_MS * MARGIN:
            bad.append(f"{name}: p99 {v} ms > {frame_model.STEADY_MS} ms")
    assert not bad, "\n".join(bad) + f"\nratio {ratio:.1f}\n{table}"


def test_ratio_is_plausible(estimates):
    # The unix port on a PC runs pystone tens to a few hundred times as fast as an ESP32.
    got, ratio, table = estimates
    assert 20 < ratio < 1000, ratio


def test_frame_build_keeps_the_tools_off_the_heap(tmp_path):
    """The frame model's build (tools/bench/mp32.py --frame) has the bench's tools frozen in:
    they import with no tools folder on the path, and their code is not on the heap a
    collection marks (the gauge's build, loading them from files, holds it there)."""
    frame = mp32.binary(frame=True)
    gauge = mp32.binary()
    if frame is None or gauge is None:
        pytest.skip("no 32-bit MicroPython unix port")
    names = [n[:-3] for n in mp32.FROZEN_TOOLS]
    code = ("import gc, sys\nsys.path.append(%r)\ngc.collect()\na = gc.mem_alloc()\n"
            "import %s\ngc.collect()\nprint(gc.mem_alloc() - a)\n"
            % (os.path.join(ROOT, "tools", "bench"), ", ".join(names)))
    import subprocess
    used = {}
    for name, binary in (("frame", frame), ("gauge", gauge)):
        p = subprocess.run([binary, "-X", "heapsize=1m", "-c", code], cwd=tmp_path,
                           capture_output=True, text=True, timeout=60)
        assert p.returncode == 0, p.stdout + p.stderr
        used[name] = int(p.stdout.split()[-1])
    # (the path is appended: in the frame build the frozen modules come first)
    assert used["frame"] * 4 < used["gauge"], used
