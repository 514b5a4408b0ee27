"""On a real board, the figures the host models estimate: `make device-report PORT=...`.

Usage: python tools/bench/device_report.py --port PORT [--board BOARD] [--out FILE] [--quick]

Runs tools/bench/on_device.py on the board with `mpremote run` (the firmware must be
deployed: `make deploy`; the player's files are left alone) and prints a table in the
bench's format (tools/bench/results.md): per checkpoint (at boot, once the App is built,
in the menu, in a 4-player game of each kind, in a game of each kind played by four
CPUs) the heap's areas and their pools, in use, free, the largest free run and what an
added area could take ("max new split": the ESP32 port's split heap); the frame time by
scene (the time of App.step() alone, mean and max); the I2C clock in use; the flash's
free blocks. Beside each, where the models have one, their estimate: the heap model's
areas and pools (tools/bench/mp32.py --heap: a first area of 56,000 bytes of blocks, one
growth of as much, taken at boot by firmware/system/heap.py), the frame model's bus clock
(the board profile's I2C freq). Exit status 1 when the run fails.
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from paths import ROOT  # noqa: E402  (and the tools' folders on sys.path)
SCRIPT = os.path.join(ROOT, "tools", "bench", "on_device.py")
POOL = 56000  # the ESP32's first area's blocks (tools/bench/harness.py FIRST_POOL)
CHECKPOINTS = (
    ("boot", "after a soft reset (this script's code in it)"),
    ("app", "the App built (firmware/system/heap.py took the growth)"),
    ("menu", "in the menu"),
    ("shakeup", "in Shake Up, 4 humans"),
    ("frenzy", "in Farkle Frenzy, 4 humans"),
    ("cpu_shakeup", "in Shake Up, 4 CPUs (EASY, NORMAL, HARD, HARD)"),
    ("cpu_frenzy", "in Farkle Frenzy, 4 CPUs (EASY, NORMAL, HARD, HARD)"),
)
GC_LINE = re.compile(r"GC: total: (\d+), used: (\d+), free: (\d+)(?:, max new split: (\d+))?")
FREE_LINE = re.compile(r"max free sz: (\d+)")


def mpremote():
    here = os.path.join(os.path.dirname(sys.executable), "mpremote")
    return [here] if os.path.exists(here) else [sys.executable, "-m", "mpremote"]


def run(port, quick=False, timeout=300):
    """The board's output of on_device.py (raises SystemExit when it fails)."""
    with open(SCRIPT) as f:
        src = f.read()
    if quick:
        src = src.replace("\n_QUICK = 0", "\n_QUICK = 1", 1)
    fd, path = tempfile.mkstemp(suffix=".py", prefix="on_device_")
    with os.fdopen(fd, "w") as f:
        f.write(src)
    try:
        p = subprocess.run(mpremote() + ["connect", port, "run", path], capture_output=True,
                           text=True, timeout=timeout)
    finally:
        os.remove(path)
    if p.returncode != 0 or "R done 1" not in p.stdout:
        raise SystemExit("device-report: the run on %s failed (exit %d):\n%s" % (
            port, p.returncode, (p.stdout + p.stderr)[-3000:]))
    return p.stdout


def parse(text):
    """{"heap": {tag: {...}}, "frame": [(scene, n, mean, max)], "i2c": str, "flash": (...)}"""
    got = {"heap": {}, "frame": [], "i2c": "", "flash": None}
    gcl = None
    largest = None
    areas = 0
    for line in text.splitlines():
        m = GC_LINE.search(line)
        if m:
            gcl = [int(x) if x else None for x in m.groups()]
            areas = 0
        m = FREE_LINE.search(line)
        if m:
            largest = int(m.group(1))
        if "GC memory layout" in line:
            areas += 1
        if not line.startswith("R "):
            continue
        p = line.split()
        if p[1] == "heap" and gcl:
            got["heap"][p[2]] = {"alloc": int(p[3]), "mem_free": int(p[4]), "total": gcl[0],
                                 "used": gcl[1], "free": gcl[2], "split": gcl[3],
                                 "largest": largest * 16 if largest is not None else None,
                                 "areas": areas}
            gcl = None
        elif p[1] == "frame":
            got["frame"].append((p[2], int(p[3]), int(p[4]), int(p[5])))
        elif p[1] == "i2c":
            got["i2c_attr"] = int(p[2])
            got["i2c"] = " ".join(p[3:])
        elif p[1] == "flash":
            got["flash"] = tuple(int(x) for x in p[2:5])
    return got


def i2c_model(board):
    import check_board
    prof = os.path.join(ROOT, "boards", board + ".py")
    if not os.path.exists(prof):
        return ""
    f = (check_board.load(prof).get("I2C") or {}).get("freq")
    return "%d Hz (boards/%s.py)" % (f, board) if f else ""


def table(got, port, board, quick):
    cmd = "python tools/bench/device_report.py --port %s%s" % (port, " --quick" if quick else "")
    head = ("figure", "the device", "the models' estimate", "command")
    rows = []
    for tag, what in CHECKPOINTS:
        h = got["heap"].get(tag)
        if h is None:
            continue
        grown = tag != "boot"
        model = ("%d area%s, %d B of pools (tools/bench/mp32.py --heap)" % (
            2 if grown else 1, "s" if grown else "", 2 * POOL if grown else POOL))
        rows.append(("heap %s: areas, pools (GC total)" % what,
                     "%s area%s, %d B" % (h["areas"] or "?", "" if h["areas"] == 1 else "s",
                                          h["total"]), model, cmd))
        rows.append(("heap %s: in use, free, largest free run, max new split" % what,
                     "%d B, %d B, %s, %s" % (h["used"], h["free"],
                                             "%d B" % h["largest"] if h["largest"] is not None
                                             else "-",
                                             "%d B" % h["split"] if h["split"] is not None
                                             else "- (one area only)"),
                     "", cmd))
    for scene, n, mean, mx in got["frame"]:
        rows.append(("frame time, %s, screen %s (App.step(), %d frames): mean, max" % (
                     tuple(scene.split("/", 1)) + (n,)),
                     "%.2f ms, %.2f ms" % (mean / 1000.0, mx / 1000.0),
                     "tools/bench/results.md section 7", cmd))
    freq = re.search(r"freq=(\d+)", got["i2c"])
    hz = int(freq.group(1)) if freq else got.get("i2c_attr") or None
    rows.append(("I2C clock in use (%s)" % got["i2c"], "%d Hz" % hz if hz else "?",
                 i2c_model(board), cmd))
    if got["flash"]:
        bsize, blocks, bfree = got["flash"]
        rows.append(("flash: free blocks of the filesystem at \"/\"",
                     "%d of %d blocks of %d B (%d B free)" % (bfree, blocks, bsize,
                                                              bfree * bsize), "", cmd))
    lines = ["# Pocket Dice: device report", "",
             "Measured on the board at %s (board profile %s) by tools/bench/on_device.py; the "
             "models' figures beside them (tools/bench/results.md holds all of the bench's)."
             % (port, board), "",
             "| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for r in rows:
        lines.append("| " + " | ".join(str(x).replace("|", "\\|") for x in r) + " |")
    return "\n".join(lines) + "\n"


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--port", required=True, help="the board's serial port")
    ap.add_argument("--board", default="esp32_devkit", help="its board profile (boards/)")
    ap.add_argument("--out", help="also write the report to this file")
    ap.add_argument("--quick", action="store_true", help="a third of the frames")
    a = ap.parse_args(argv)
    got = parse(run(a.port, a.quick))
    text = table(got, a.port, a.board, a.quick)
    sys.stdout.write(text)
    if a.out:
        with open(a.out, "w") as f:
            f.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
