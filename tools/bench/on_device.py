"""What `make device-report` runs on a board (tools/bench/device_report.py sends it with
`mpremote run`): the figures the host models estimate, measured on the device.

The deployed firmware is started as main.py starts it, but with its files in /_report/
(the player's settings, stats and saved game stay untouched; the folder is removed at
the end) and driven by setting what the menu would set (app.cpus, app.go): the menu,
a 4-player game of each kind (human seats, waiting on their first roll), and a game of
each kind played by four CPUs (EASY, NORMAL, HARD, HARD). Prints `R key values` lines
and, before each `R heap` line, micropython.mem_info(1) (the GC line and one "GC memory
layout" line per heap area; on a heap of _MAP_MAX or more, mem_info()). This script is
compiled on the device: its own code is in every heap figure (about 3 KB).
"""
import gc
import os

import micropython
from time import sleep_ms, ticks_diff, ticks_ms, ticks_us

ROOT = "/_report"
FRAME_MS = 33
_QUICK = 0  # tools/bench/device_report.py --quick sets 1: a third of the frames
_MAP_MAX = 256 * 1024  # a plain ESP32's heap, grown, with what it could still add
_times = {}  # part ("menu", a game's tag) -> screen name -> [frames, sum us, max us]


def out(key, *vals):
    print("R", key, *vals)


def heap(tag):
    gc.collect()
    # The block map names each area; a big heap (PSRAM, the emulated board's) would
    # print thousands of lines, so there only the GC lines (areas unknown).
    if gc.mem_alloc() + gc.mem_free() < _MAP_MAX:
        micropython.mem_info(1)  # (any argument prints the map)
    else:
        micropython.mem_info()
    out("heap", tag, gc.mem_alloc(), gc.mem_free())


def frames(app, n, part):
    """n frames on the device's clock (FRAME_MS apart), each timed by its screen."""
    times = _times.get(part)
    if times is None:
        times = _times[part] = {}
    t = ticks_ms()
    if _QUICK:
        n = n // 3
    for _ in range(n):
        name = getattr(app.screen, "NAME", "?")
        t0 = ticks_us()
        app.step(t)
        dt = ticks_diff(ticks_us(), t0)
        v = times.get(name)
        if v is None:
            v = times[name] = [0, 0, 0]
        v[0] += 1
        v[1] += dt
        if dt > v[2]:
            v[2] = dt
        t += FRAME_MS
        w = ticks_diff(t, ticks_ms())
        if w > 0:
            sleep_ms(w)
        else:
            t = ticks_ms()


def game(app, kind, cpus, n, tag):
    for s in range(4):
        app.cpus[s] = cpus[s]
    app.go = kind << 4 | 4
    frames(app, n, tag)
    heap(tag)
    app.menu()
    frames(app, 30, tag)


def rmtree(path):
    for ent in os.ilistdir(path):
        p = path + "/" + ent[0]
        if ent[1] == 0x4000:
            rmtree(p)
        else:
            os.remove(p)
    os.rmdir(path)


def main():
    heap("boot")
    import board
    from app import App
    app = App(board, ROOT)
    heap("app")
    try:
        frames(app, 120, "menu")  # the splash, then the menu
        heap("menu")
        game(app, 1, b"\x00\x00\x00\x00", 150, "shakeup")
        game(app, 2, b"\x00\x00\x00\x00", 150, "frenzy")
        game(app, 1, b"\x01\x02\x03\x03", 450, "cpu_shakeup")
        game(app, 2, b"\x01\x02\x03\x03", 450, "cpu_frenzy")
        for part in _times:
            for name in _times[part]:
                v = _times[part][name]
                out("frame", part + "/" + name, v[0], v[1] // v[0], v[2])
        i2c = getattr(app.display, "i2c", None)
        # The ESP32's I2C prints its clock (freq=...); a stand-in may only hold it.
        out("i2c", getattr(i2c, "freq", 0) if isinstance(getattr(i2c, "freq", 0), int)
            else 0, repr(i2c).replace(" ", ""))
        st = os.statvfs("/")
        out("flash", st[0], st[2], st[3])
    finally:
        app = None
        gc.collect()
        try:
            rmtree(ROOT)
        except OSError:
            pass
    out("done", 1)


main()
