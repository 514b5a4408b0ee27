#!/usr/bin/env python3
"""Render scripted scenarios of the real firmware to PNG files (`make screenshots`).

Each scenario is a list of events (button taps, shakes, waits) played on a virtual
clock with a fixed dice seed by tools/sim/simrun.py, under the MicroPython unix port
running the compiled build as deployed (build/sim-run/<board>, as `make sim` does; see
tools/simulator/sim_build.py), or firmware/*.py with --source or on CPython (--cpython); `snap
NAME` lines become NAME.png: the OLED scaled up with a bezel around it. Same seed, same
script -> the same pictures, byte for byte.

    tools/simulator/screens.py --out tools/screenshots [--only NAME ...] [--cpython] [--source]
        [--scale 3] [--budget 120k]

--budget N gives the firmware exactly N bytes of heap, the simulator fenced off outside
it, as `make sim HEAP=N` does: a scenario that runs out fails (how docs/simulator.md's heap
figures are measured). --heap N is the child's whole -X heapsize instead.

Script commands (see simrun.run_script): wait MS, tap B, long B, press B, release B,
shake MS, snap NAME, until SCREEN [MAX_MS], expect SCREEN.
"""
import argparse
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
from paths import ROOT  # noqa: E402  (and the tools' folders on sys.path)
import sim_build  # noqa: E402

# The gallery: scenario name -> (seed, prep, script). Every scenario starts on a fresh
# filesystem (menu: SHAKE UP first, no CONTINUE); prep (kind, players) first saves a
# game near its end (see near_end), and then the menu's first item is CONTINUE.
_SU_START = """
    until menu
    tap OK                  # SHAKE UP
    expect setup            # you against a CPU the first time: two humans here
    tap NEXT
    tap NEXT
    tap NEXT                # on GREEN
    tap OK                  # its choices, on CPU EASY
    tap PREV
    tap OK                  # HUMAN
    tap NEXT                # on START
    tap OK                  # 2 players
    expect shakeup
"""
_FZ_START = """
    until menu
    tap NEXT
    tap OK                  # FARKLE FRENZY
    expect setup            # you against a CPU the first time: two humans here
    tap NEXT
    tap NEXT
    tap NEXT                # on GREEN
    tap OK                  # its choices, on CPU EASY
    tap PREV
    tap OK                  # HUMAN
    tap NEXT
    tap NEXT                # on START (past TURNS)
    tap OK                  # 2 players
    expect frenzy
"""
SCENARIOS = {
    "menu": (1, None, """
        until menu
        snap menu
    """),
    "setup": (1, None, """
        until menu
        tap OK              # SHAKE UP
        expect setup
        wait 300
        snap setup          # the first game: you against an EASY CPU
        tap NEXT
        tap NEXT
        tap NEXT            # on GREEN
        tap OK
        wait 300
        snap setup-levels   # a seat's choices, all in view
    """),
    "shakeup": (1, None, _SU_START + """
        wait 300
        shake 800           # who starts: RED shakes one die
        wait 800
        snap shakeup-rolloff
        tap OK
        expect pass         # pass to GREEN
        tap OK
        shake 800
        wait 800
        expect pass         # to RED, who starts (said on the pass screen)
        tap OK
        wait 300
        shake 800           # shake 1
        wait 800
        tap NEXT
        tap NEXT
        tap OK              # keep the first 6
        tap NEXT
        tap OK              # keep the second 6
        tap NEXT            # on SHAKE
        tap OK              # shake the others
        wait 800
        snap shakeup-dice
        tap PREV            # on STOP: one press from the first die
        tap OK
        wait 800
        snap shakeup-result # one level can move: made, and told on the pass screen
    """),
    "shakeup-end": (7, (1, 2), """
        until menu
        tap OK              # CONTINUE
        expect shakeup
        wait 300
        snap shakeup-pyramid
        mash shakeup.view=4 3000
        wait 300
        snap shakeup-move   # a MOVE with levels to choose from (GREEN, a CPU, says it)
        mash win 3000
        wait 2600           # a CPU's last line gone
        snap shakeup-winner
    """),
    "frenzy": (2, None, _FZ_START + """
        wait 500
        snap frenzy-common
        tap OK              # roll the Common Die
        wait 800
        snap frenzy-odds
        shake 800
        wait 800
        snap frenzy-select  # TAKE opens with the best selection marked
        tap OK              # TAKE
        wait 500
        snap frenzy-riser
    """),
    "frenzy-relay": (2, None, """
        until menu
        tap NEXT
        tap OK              # FARKLE FRENZY
        expect setup
        tap NEXT
        tap NEXT
        tap NEXT            # on GREEN
        tap OK
        tap PREV
        tap OK              # GREEN: HUMAN
        tap PREV            # on RED
        tap OK
        tap NEXT
        tap OK              # RED: CPU NORMAL, the round's roller
        tap NEXT
        tap NEXT
        tap NEXT            # on START (past TURNS: RELAY)
        tap OK
        expect frenzy
        until frenzy.hid=0 8000
        wait 500            # the Common Die's line gone
        snap frenzy-relay-cpu
    """),
    "frenzy-end": (5, (2, 2), """
        until menu
        tap OK              # CONTINUE
        expect frenzy
        mash frenzy.view=4 3000
        wait 300
        snap frenzy-summary
        mash frenzy.view=5 3000
        wait 300
        snap frenzy-winner
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


def _core():
    for p in (os.path.join(ROOT, "firmware"), os.path.join(ROOT, "tools", "sim"), HERE):
        if p not in sys.path:
            sys.path.insert(0, p)


def near_end(fs, kind, players, seed):
    """Saves into fs a game played by the core (Shake Up: random legal decisions;
    Frenzy: the greedy:400 self-play policy) up to the start of the winner's last
    turn, so a scenario can Continue it and play the end on screen."""
    _core()
    from system import store
    from core import games
    from core.dice import Dice
    from core.seeded import Seeded
    dice = Dice(Seeded(seed))
    pick = Seeded(seed + 1)
    if kind == games.SHAKEUP:
        from core import shakeup
        g = shakeup.Game(players, False, dice)

        def decide(g):
            legal = g.legal()
            return legal[pick(1)[0] % len(legal)]
    else:
        from core import frenzy
        from selfplay_frenzy import _decide, _Pick
        g = frenzy.Game(players, 0, 300, dice)
        fpick = _Pick(seed)

        def decide(g):
            return _decide(g, "greedy", 400, fpick)
    history = []
    while g.winner < 0:
        history.append((g.to_bytes(), g.player))
        g.apply(decide(g))
        if len(history) > 100000:
            raise RuntimeError("the prepared game did not end")
    last = history[-1][1]
    i = len(history) - 1
    while i > 0 and history[i - 1][1] == last:
        i -= 1
    blob, holder = history[i]
    store.Store(fs).save_game(kind, blob, bytes((holder + 1,)))


def run_scenario(script, seed, cpython=False, root=ROOT, board="sim", heap="", prep=None,
                 source=False, budget=0):
    """Plays one script; returns [(label, w, h, frame bytes)] for its snaps. `prep`:
    None or (kind, players) for a near-end saved game to start from (see near_end).
    The unix port runs the compiled build unless `source`."""
    try:
        fw = sim_build.firmware_for(root, board, source=source, cpython=cpython)
    except sim_build.BuildFailed as e:
        raise RuntimeError("screens: could not build the firmware: %s" % e) from None
    try:
        return _run(fw, script, seed, root, board, heap, prep, cpython, budget)
    finally:
        fw.release()


def _run(fw, script, seed, root, board, heap, prep, cpython, budget):
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "script.txt")
        with open(path, "w") as f:
            f.write(script)
        fs = os.path.join(tmp, "fs")
        os.makedirs(fs)
        if prep:
            near_end(fs, prep[0], prep[1], seed)
        if budget and not cpython:
            import sim
            heap = str(budget + sim.SIM_OVERHEAD)
        interp = [sys.executable] if cpython else (
            [micropython_bin()] + (["-X", "heapsize=" + heap] if heap else []))
        cmd = interp + [os.path.join(root, "tools", "sim", "simrun.py"), "--root", root,
                        "--board", board, "--fs", fs, "--seed", str(seed),
                        "--script", path, "--out", "1"]
        if fw.compiled:
            cmd += ["--firmware", fw.path]
        if budget and not cpython:
            cmd += ["--budget", str(budget)]
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
        elif kind == "C" and error is None:  # it restarted: the pictures would be wrong
            error = "the firmware crashed: " + rest
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
    p.add_argument("--cpython", action="store_true", help="run on CPython (from the sources)")
    p.add_argument("--source", action="store_true",
                   help="run firmware/*.py, not the compiled build (unix port)")
    p.add_argument("--scale", type=int, default=3)
    p.add_argument("--heap", default="", help="the child's -X heapsize")
    p.add_argument("--budget", default="", help="the firmware's heap, e.g. 120k (as make sim HEAP=)")
    p.add_argument("--list", action="store_true", help="list the scenarios")
    args = p.parse_args(argv)
    if args.list:
        for name in SCENARIOS:
            print(name)
        return 0
    names = args.only or list(SCENARIOS)
    budget = 0
    if args.budget:
        import sim
        budget = sim.heap_bytes(args.budget)
    os.makedirs(args.out, exist_ok=True)
    wrote = 0
    for name in names:
        if name not in SCENARIOS:
            raise SystemExit("screens: no scenario %r (see --list)" % name)
        seed, prep, script = SCENARIOS[name]
        try:
            snaps = run_scenario(script, seed, args.cpython, heap=args.heap, prep=prep,
                                 source=args.source, budget=budget)
        except RuntimeError as e:
            print("screens: %s: %s" % (name, e), file=sys.stderr)
            return 1
        for label, w, h, frame in snaps:
            path = os.path.join(args.out, label + ".png")
            save_png(to_image(frame, w, h, args.scale), path)
            wrote += 1
            print(path)
    print("screens: %d pictures in %s" % (wrote, args.out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
