"""Soak: 100,000 random button and shake events on the firmware as deployed (.mpy from
tools/flashing/build.py) under the MicroPython unix port with a small heap: no exception, and the
heap in use after gc.collect() does not grow over the run.

host_tests/cut_driver.py (mode soak) prints `M events mem_alloc screen modules` every
EVERY events. Heap use depends on the screen (a Frenzy game holds more than the menu),
on the code loaded with it (at the menu level each menu screen opened stays loaded
until a game starts: the menu alone and the menu with settings, stats and how-to open
differ by ~22 KB) and, the collector being conservative, on stale words on the stack,
so the trend is judged per screen and set of loaded modules, on floors: after a
warm-up (the first 20%: every screen and game module loads once), the lowest figure of
a (screen, modules) in the last 40% of the run may not exceed its lowest in the 40%
before by more than TOLERANCE. A leak raises every floor; a screen that is merely
busier, other code loaded beside it, or a stale pointer, does not. (The run finishing
in a small heap at all bounds any leak to well under a byte per event.)

The heap is the simulator's share (its models and this driver, ~56 KB) plus the
firmware's; PD_SOAK_HEAP overrides it. Events: PD_SOAK_EVENTS.
"""
import os
import subprocess
import sys

import pytest

from conftest import ROOT, micropython_bin

HEAP = os.environ.get("PD_SOAK_HEAP", "288k")
EVENTS = int(os.environ.get("PD_SOAK_EVENTS", "100000"))
TOLERANCE = 3072


def _build(tmp_path):
    out = str(tmp_path / "build")
    subprocess.run([sys.executable, "tools/flashing/build.py", "--board", "sim", "--out", out,
                    "--quiet"], cwd=ROOT, check=True, timeout=300)
    return os.path.join(out, "sim")


def soak(tmp_path, events, seed, every):
    mp = micropython_bin()
    if not os.path.exists(mp):
        pytest.skip("no MicroPython unix port")
    lib = _build(tmp_path)
    fs = str(tmp_path / "fs")
    os.makedirs(fs)
    p = subprocess.run([mp, "-X", "heapsize=" + HEAP, "host_tests/cut_driver.py", "soak",
                        ROOT, fs, str(events), str(seed), str(every), "0", lib],
                       cwd=ROOT, capture_output=True, text=True, timeout=1800)
    assert p.returncode == 0, p.stdout[-2000:] + p.stderr[-3000:]
    lines = p.stdout.split("\n")
    assert "DONE %d" % events in lines, p.stdout[-2000:]
    samples = []
    for ln in lines:
        if ln.startswith("M "):
            _, i, alloc, name, mods = ln.split(" ")
            samples.append((int(i), int(alloc), (name, mods)))
    assert len(samples) >= events // every
    return samples


MIN_SAMPLES = 8   # a floor from fewer samples of a screen is too noisy to judge


def floors(samples, events):
    """{(screen, modules): (floor in 20-60% of the run, floor in 60-100%)}."""
    first = {}
    second = {}
    for i, alloc, name in samples:
        if i < events // 5:
            continue
        d = first if i < events * 3 // 5 else second
        d.setdefault(name, []).append(alloc)
    out = {}
    for name in first:
        if name in second and min(len(first[name]), len(second[name])) >= MIN_SAMPLES:
            out[name] = (min(first[name]), min(second[name]))
    return out


def check_no_growth(samples, events):
    fl = floors(samples, events)
    assert fl, "no screen was sampled in both halves"
    screens = set(k[0] for k in fl)
    assert len(screens) >= 3, "too few screens judged: %r" % sorted(screens)
    grown = {n: v for n, v in fl.items() if v[1] - v[0] > TOLERANCE}
    assert not grown, "heap floor grew: %r" % grown
    return fl


def test_floors_catch_a_leak():
    # The trend check itself: a steady 100 bytes per sample on every screen fails it,
    # screen-to-screen differences do not, nor other code loaded beside a screen (the
    # menu with how-to's module loaded 8 KB higher, and only so late in the run).
    names = (("menu", "ui.menu"), ("shakeup", "core.shakeup"), ("frenzy", "core.frenzy"))
    flat = [(i * 100, 60000 + 9000 * (i % 3), names[i % 3]) for i in range(1000)]
    check_no_growth(flat, 100000)
    more = ("menu", "ui.howto,ui.menu")
    busier = [(i, a + 8000, more) if n == names[0] and (i % 700 < 100 or i >= 60000)
              else (i, a, n) for i, a, n in flat]
    assert more in floors(busier, 100000)
    check_no_growth(busier, 100000)
    leak = [(i * 100, 60000 + 9000 * (i % 3) + 100 * i, names[i % 3]) for i in range(1000)]
    with pytest.raises(AssertionError):
        check_no_growth(leak, 100000)


@pytest.mark.slow
def test_soak_100k_events(tmp_path):
    samples = soak(tmp_path, EVENTS, 2024, 100)
    fl = check_no_growth(samples, EVENTS)
    print("soak %d events, heap %s: floors %r" % (EVENTS, HEAP, fl))
