#!/usr/bin/env python3
"""Render scripted scenarios of the real firmware to PNG files (`make screenshots`).

Each scenario is a list of events (button taps, shakes, waits) played on a virtual
clock with a fixed dice seed by tools/sim/simrun.py, under the MicroPython unix port
(or CPython with --cpython); `snap NAME` lines become NAME.png: the OLED scaled up with a
bezel around it. Same seed, same script -> the same pictures, byte for byte.

    tools/screens.py --out tools/screenshots [--only NAME ...] [--cpython] [--scale 3]

Script commands (see simrun.run_script): wait MS, tap B, long B, press B, release B,
shake MS, snap NAME, until SCREEN [MAX_MS], expect SCREEN.
"""
import argparse
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

# The gallery. Scenario name -> (seed, script). Menu order: SHAKE UP, FARKLE FRENZY, ...
# (no CONTINUE: every scenario starts on a fresh filesystem).
SCENARIOS = {
    "menu": (1, """
        until menu
        snap menu
    """),
}

PIXEL_ON = (222, 240, 255)
PIXEL_OFF = (6, 10, 16)
GLASS = (0, 0, 0)
BEZEL = (38, 40, 46)
BEZEL_EDGE = (70, 74, 82)


def micropython_bin():
    for d in (os.path.join(ROOT, ".venv", "bin"), os.path.dirname(sys.executable)):
        cand = os.path.join(d, "micropython")
        if os.path.exists(cand):
            return cand
    return "micropython"


def run_scenario(script, seed, cpython=False, root=ROOT, board="sim", heap=""):
    """Plays one script; returns [(label, w, h, frame bytes)] for its snaps."""
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "script.txt")
        with open(path, "w") as f:
            f.write(script)
        fs = os.path.join(tmp, "fs")
        os.makedirs(fs)
        interp = [sys.executable] if cpython else (
            [micropython_bin()] + (["-X", "heapsize=" + heap] if heap else []))
        cmd = interp + [os.path.join(root, "tools", "sim", "simrun.py"), "--root", root,
                        "--board", board, "--fs", fs, "--seed", str(seed),
                        "--script", path, "--out", "1"]
        res = subprocess.run(cmd, cwd=root, stdin=subprocess.DEVNULL,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=300)
    return parse_stream(res.stdout, res.returncode, res.stderr)


def parse_stream(data, returncode=0, stderr=b""):
    snaps = []
    label = None
    error = None
    i = 0
    while i < len(data):
        nl = data.find(b"\n", i)
        if nl < 0:
            break
        head = data[i:nl].decode("utf-8", "replace")
        i = nl + 1
        kind, _, rest = head.partition(" ")
        if kind == "F":
            w, h, n = (int(v) for v in rest.split())
            frame = data[i:i + n]
            i += n
            if label is not None:
                snaps.append((label, w, h, frame))
                label = None
        elif kind == "N":
            label = rest
        elif kind == "X":
            error = rest
    if returncode or error:
        raise RuntimeError("scenario failed: %s\n%s" % (
            error or "exit %d" % returncode, stderr.decode("utf-8", "replace")[-2000:]))
    return snaps


def to_image(frame, w, h, scale=3, bezel=True):
    """The frame as a Pillow image: pixels scale x scale, optional bezel."""
    from PIL import Image, ImageDraw
    oled = Image.new("RGB", (w, h), PIXEL_OFF)
    px = oled.load()
    for y in range(h):
        page = (y >> 3) * w
        bit = 1 << (y & 7)
        for x in range(w):
            if frame[page + x] & bit:
                px[x, y] = PIXEL_ON
    oled = oled.resize((w * scale, h * scale), Image.NEAREST)
    if not bezel:
        return oled
    glass = 4 * scale
    rim = 6 * scale
    ow, oh = oled.size
    W, H = ow + 2 * (glass + rim), oh + 2 * (glass + rim)
    img = Image.new("RGBA", (W, H), (0, 0, 0, 0))  # transparent corners
    d = ImageDraw.Draw(img)
    d.rounded_rectangle((0, 0, W - 1, H - 1), radius=rim * 2, fill=BEZEL, outline=BEZEL_EDGE,
                        width=max(1, scale // 2))
    d.rectangle((rim, rim, W - 1 - rim, H - 1 - rim), fill=GLASS)
    img.paste(oled, (rim + glass, rim + glass))
    return img


def save_png(img, path):
    # No metadata (dates) in the file, so a rerun writes identical bytes.
    img.save(path, format="PNG", optimize=True)


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--out", default=os.path.join("tools", "screenshots"))
    p.add_argument("--only", nargs="*", help="scenario names (default: all)")
    p.add_argument("--cpython", action="store_true")
    p.add_argument("--scale", type=int, default=3)
    p.add_argument("--heap", default="")
    p.add_argument("--list", action="store_true", help="list the scenarios")
    args = p.parse_args(argv)
    if args.list:
        for name in SCENARIOS:
            print(name)
        return 0
    names = args.only or list(SCENARIOS)
    os.makedirs(args.out, exist_ok=True)
    wrote = 0
    for name in names:
        if name not in SCENARIOS:
            raise SystemExit("screens: no scenario %r (see --list)" % name)
        seed, script = SCENARIOS[name]
        for label, w, h, frame in run_scenario(script, seed, args.cpython, heap=args.heap):
            path = os.path.join(args.out, label + ".png")
            save_png(to_image(frame, w, h, args.scale), path)
            wrote += 1
            print(path)
    print("screens: %d pictures in %s" % (wrote, args.out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
