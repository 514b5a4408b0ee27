"""Every frame goal on the ESP32 time model, counted (tools/bench/frame_model.py,
docs/memory-and-speed.md "Frame time on the device"): scripted 4-player games of each
kind, all human and a human against CPUs EASY, NORMAL and HARD, on the 32-bit port under
this project's instruction counter (tools/bench/vgcount.py, a valgrind tool). Each
frame's instructions over a pystone pass's, times the published ESP32 pystone pass
time, plus its bus time, is its time on the device. Goals: idle, redraw and tumble p99
<= 33 ms; a screen change, a decision and a new view <= 100 ms; a game's start <= 250
ms to its first frame, its feedback <= 33 ms. A failure names the slowest frame.

Instructions, not time: the same binary on the same input executes the same
instructions however busy the machine is, so the gate has no margin and one run; `make
bench` sets the timed model beside it and says how far they agree.
"""
import os
import subprocess

import pytest
from conftest import ROOT

import frame_model  # noqa: E402
import mp32  # noqa: E402
import vgcount  # noqa: E402

PATHS = [("new:1", "-", 1), ("new:2", "-", 1), ("cpu:1", "-", 1), ("cpu:2", "-", 1)]


def _tools():
    # CI=true: the 32-bit port and the counter are required (a failure, not a skip)
    binary = mp32.binary(frame=True)
    tool = vgcount.tool()
    if binary is None or tool is None:
        pytest.skip("no 32-bit frame build or no instruction counter (valgrind)")
    return binary, tool


@pytest.fixture(scope="module")
def counted():
    binary, tool = _tools()
    import build
    import codes
    build.build("sim", os.path.join(ROOT, "build", "bench"))
    codes.write()
    frame_model.prepare(mp32.source())
    frames, per_pass = frame_model.measure_counted(binary, "build/bench/sim", 2, PATHS, tool)
    hz = frame_model.i2c_hz()
    _, rows, goals = frame_model.model(frames, per_pass, hz)
    return frames, per_pass, hz, rows, goals


def test_every_frame_goal_is_met(counted):
    frames, per_pass, hz, rows, goals = counted
    names = [g[0] for g in goals]
    # Every group and scene the goals name was played (a path that stopped short would
    # leave a goal unmeasured and pass it).
    for key in frame_model.KEYS:
        for scene in ("idle", "redraw", "tumble", "change", "decision", "view"):
            if key == "menu" and scene in ("tumble", "decision"):
                continue
            assert "frame_%s_%s" % (key, scene) in names, (key, scene, names)
    for key in ("shakeup", "frenzy"):
        assert "frame_%s_start" % key in names, names
    bad = []
    for (name, ok, value, limit, msg), row in zip(goals, rows):
        if not ok:
            ms, where = frame_model.worst(frames, per_pass, hz, row[0], row[1])
            bad.append("%s; the slowest: %.1f ms at %s" % (msg, ms, where))
    assert not bad, "\n".join(bad) + "\n" + frame_model.table(rows)


def test_the_pystone_pass_is_plausible(counted):
    """misc_pystone's pass on the 32-bit port is some tens of thousands of instructions
    (52,172 with v1.28.0, gcc 12, -Os): a count far off means the reference broke."""
    per_pass = counted[1]
    assert 20000 < per_pass < 200000, per_pass


def test_the_counter_counts_instructions_of_the_program_alone(tmp_path):
    """icount.read() gives the instructions since the last read: a loop of 2n runs
    twice those of n, to a per cent; outside the tool it reads 0, and the same
    program under the tool twice gives the same counts."""
    binary, tool = _tools()
    code = ("import icount\nprint(icount.counting())\nicount.read()\n"
            "for n in (1000, 2000, 1000):\n"
            "    icount.read()\n"
            "    for i in range(n):\n"
            "        pass\n"
            "    print(icount.read())\n")
    argv, env = vgcount.command(tool, [binary, "-c", code])
    runs = []
    for _ in range(2):
        p = subprocess.run(argv, env=env, cwd=tmp_path, capture_output=True, text=True,
                           timeout=120)
        assert p.returncode == 0, p.stdout + p.stderr
        runs.append(p.stdout.split())
    assert runs[0] == runs[1], runs
    on, a, b, c = runs[0]
    a, b, c = int(a), int(b), int(c)
    # (the first loop pays a little more: the first use of its code and objects)
    assert on == "True" and c > 1000 and abs(a - c) < c // 100, runs[0]
    assert abs(b - 2 * c) < c // 50, (b, c)  # the loop's, plus the read's own few
    p = subprocess.run([binary, "-c", code], cwd=tmp_path, capture_output=True, text=True,
                       timeout=60)
    assert p.stdout.split() == ["False", "0", "0", "0"], p.stdout + p.stderr


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
    used = {}
    for name, binary in (("frame", frame), ("gauge", gauge)):
        p = subprocess.run([binary, "-X", "heapsize=1m", "-c", code], cwd=tmp_path,
                           capture_output=True, text=True, timeout=60)
        assert p.returncode == 0, p.stdout + p.stderr
        used[name] = int(p.stdout.split()[-1])
    # (the path is appended: in the frame build the frozen modules come first)
    assert used["frame"] * 4 < used["gauge"], used
