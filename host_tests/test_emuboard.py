"""End to end, all through the real mpremote: a fresh emulated board (tools/emuboard/emuboard.py),
`make deploy`, the firmware boots from .mpy files, a test plays into Shake Up by buttons
and a shake and reads the dice off the emulated OLED; deploys again copy nothing and
leave no stale .py.

The OLED is checked against bitmaps drawn on the host by the firmware's own gfx (text
of the menu, the face of each die) found pixel for pixel in the emulated panel's frame.
"""
import os
import re
import signal
import subprocess
import sys
import time

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PY = sys.executable

import emu_control  # noqa: E402
import emu_flash  # noqa: E402

BOARD = "sim"
W, H = 128, 64


# ---- pixels ------------------------------------------------------------------------

def rows(frame, width=W, height=H):
    """MONO_VLSB frame -> one int per pixel row (bit x = pixel x)."""
    out = []
    for y in range(height):
        page, bit = (y >> 3) * width, y & 7
        v = 0
        for x in range(width):
            if frame[page + x] >> bit & 1:
                v |= 1 << x
        out.append(v)
    return out


def template(draw, width=W, height=H):
    """Draw with draw(fb) on a blank host framebuffer; the lit pixels' bounding box as
    (w, h, row ints) -- background pixels inside the box count in a match."""
    import framebuf  # tools/sim/framebuf.py on CPython

    buf = bytearray(width * height // 8)
    fb = framebuf.FrameBuffer(buf, width, height, framebuf.MONO_VLSB)
    draw(fb)
    r = rows(buf, width, height)
    ys = [y for y in range(height) if r[y]]
    assert ys, "template draws nothing"
    mask = 0
    for v in r:
        mask |= v
    x0 = (mask & -mask).bit_length() - 1
    x1 = mask.bit_length()
    w = x1 - x0
    return w, ys[-1] - ys[0] + 1, [(r[y] >> x0) & ((1 << w) - 1) for y in range(ys[0], ys[-1] + 1)]


def find(frame_rows, tpl):
    """Every (x, y) where the template's box matches the frame exactly."""
    w, h, t = tpl
    m = (1 << w) - 1
    hits = []
    for y in range(H - h + 1):
        for x in range(W - w + 1):
            if all((frame_rows[y + j] >> x) & m == t[j] for j in range(h)):
                hits.append((x, y))
    return hits


def text_tpl(s):
    from ui import gfx

    return template(lambda fb: gfx.text(fb, s, 0, 0))


def die_tpl(v, inv):
    from ui import gfx

    return template(lambda fb: gfx.die(fb, 1, 1, v, gfx.DIE_L, inv))


# ---- the board -------------------------------------------------------------------

class Board:
    """tools/emuboard/emuboard.py as a child process on a fresh flash image."""

    def __init__(self, tmp):
        self.image = str(tmp / "flash.img")
        self.ctl_dir = str(tmp / "ctl")
        self.log = str(tmp / "serial.log")
        self.proc = subprocess.Popen(
            [PY, os.path.join(ROOT, "tools", "emuboard", "emuboard.py"), "--image", self.image,
             "--ctl", self.ctl_dir, "--log", self.log, "--exit-on-eof"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=ROOT,
            start_new_session=True)
        self.port = None
        end = time.monotonic() + 20
        while time.monotonic() < end:
            line = self.proc.stdout.readline()
            if not line:
                break
            if line.startswith("PORT "):
                self.port = line.split()[1]
            if line.startswith("CTL "):
                break
        assert self.port, "emuboard did not start"
        self.ctl = emu_control.EmuControl(self.ctl_dir)

    def close(self):
        self.proc.stdin.close()
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait(5)
        self.proc.stdout.close()

    def wait_for(self, expr, want, timeout=15.0):
        return self.ctl.wait_for(expr, want, timeout)

    def tail(self):
        try:
            with open(self.log, "rb") as f:
                return f.read()[-3000:].decode("latin-1")
        except OSError:
            return ""


@pytest.fixture
def board(tmp_path):
    b = Board(tmp_path)
    yield b
    b.close()


def make_deploy(port):
    t = time.monotonic()
    res = subprocess.run(["make", "-s", "deploy", "BOARD=" + BOARD, "PORT=" + port],
                         cwd=ROOT, capture_output=True, text=True, timeout=240)
    assert res.returncode == 0, res.stdout + res.stderr
    m = re.search(r"(\d+) files in the build, (\d+) copied \((\d+) bytes\), (\d+) removed",
                  res.stdout)
    assert m, res.stdout
    files, copied, _bytes, removed = (int(g) for g in m.groups())
    paths = re.findall(r"^  copy  (\S+)$", res.stdout, re.M)
    assert len(paths) == copied, res.stdout
    return {"files": files, "copied": copied, "removed": removed, "paths": set(paths),
            "seconds": time.monotonic() - t, "out": res.stdout}


def deployed(board):
    """{path: sha256} the last deploy recorded on the device (/.deploy)."""
    text = device_files(board)["/.deploy"].decode()
    return dict(line.split() for line in text.splitlines())


def changed(before, after):
    # Files whose build output differs between two deploys: in the shared work tree
    # another engineer may commit in between; nothing else may be copied again.
    return {p for p in after if before.get(p) != after[p]}


def device_files(board):
    return emu_flash.image_files(board.image)


def check_boots_from_mpy(board):
    board.ctl.wait_ready(20)
    board.wait_for("app.screen.NAME", "'menu'")
    mods = board.ctl.modules()
    for name in ("app", "board", "ui.screens", "hal.display", "core.dice"):
        assert name in mods, "%s not imported: %s" % (name, sorted(mods))
        assert mods[name].endswith(".mpy"), "%s loaded from %s" % (name, mods[name])
    fw = [n for n, p in mods.items() if not p.startswith("/_emu") and p != "-"]
    assert all(mods[n].endswith(".mpy") for n in fw), {n: mods[n] for n in fw if not mods[n].endswith(".mpy")}


def check_menu_on_oled(board):
    fr = rows(board.ctl.frame())
    # (six rows fit: with CONTINUE after a game, STATS is scrolled below)
    for item in ("FARKLE FRENZY", "SETTINGS", "HOW TO PLAY"):
        assert find(fr, text_tpl(item)), "menu item %s not on the OLED:\n%s" % (
            item, emu_control.frame_to_text(board.ctl.frame()))


def play_to_rolled_dice(board):
    c = board.ctl
    # Menu: cursor to SHAKE UP, OK; setup: 2 players, OK.
    for _ in range(8):
        if c.eval("app.screen.items[app.screen.cur]") == "'SHAKE UP'":
            break
        c.tap("NEXT")
    c.tap("OK")
    board.wait_for("app.screen.NAME", "'setup'")
    # (you against an EASY CPU the first time; the cursor starts on START)
    assert c.eval("app.screen.NAME") == "'setup'"
    c.tap("OK")
    # Shake through the roll-off until the first turn's dice lie on the table.
    end = time.monotonic() + 60
    while time.monotonic() < end:
        name = c.eval("app.screen.NAME").strip("'")
        if name == "pass":
            c.tap("OK")
            continue
        assert name == "shakeup", name
        if c.eval("app.tumbling") == "True":
            time.sleep(0.1)  # the dice are still rattling
            continue
        if int(c.eval("app.screen.view")) == 2:  # DICE: the four dice of a shake
            return
        if c.eval("app.screen.rolling") == "True":
            c.shake(0.8)
            time.sleep(0.3)
        else:
            c.tap("OK")  # a roll-off result or a message
    raise AssertionError("no dice on the table:\n%s" % emu_control.frame_to_text(c.frame()))


def check_dice_on_oled(board):
    c = board.ctl
    dice = [int(v) for v in re.findall(r"\d+", c.eval("list(app.screen.game.dice)"))]
    assert len(dice) == 4 and all(1 <= v <= 6 for v in dice), dice
    fr = rows(c.frame())
    seen = []
    for v in range(1, 7):
        for inv in (False, True):
            for x, y in find(fr, die_tpl(v, inv)):
                seen.append((x, v))
    faces = [v for _x, v in sorted(seen)]
    print("dice in the game %r, found on the OLED %r" % (dice, faces))
    assert faces == dice, "dice on the OLED %r, in the game %r\n%s" % (
        faces, dice, emu_control.frame_to_text(c.frame()))


def test_deploy_boot_play_redeploy(board):
    first = make_deploy(board.port)
    assert first["copied"] == first["files"] > 10, first["out"]
    m1 = deployed(board)
    assert set(m1) == first["paths"]
    check_boots_from_mpy(board)
    check_menu_on_oled(board)
    play_to_rolled_dice(board)
    check_dice_on_oled(board)

    # A second deploy of the same tree copies nothing.
    second = make_deploy(board.port)
    m2 = deployed(board)
    assert second["paths"] == changed(m1, m2), second["out"]
    assert second["removed"] == len(set(m1) - set(m2)), second["out"]
    check_boots_from_mpy(board)

    # A stale source beside its .mpy (it would win the import) and a module the build
    # no longer has: both go, nothing is copied.
    stale = board.image + ".stale.py"
    with open(stale, "w") as f:
        f.write("raise ImportError('stale source imported')\n")
    mp = os.path.join(os.path.dirname(PY), "mpremote")
    res = subprocess.run([mp, "connect", board.port, "cp", stale, ":ui/gfx.py", "+",
                          "cp", stale, ":gone.mpy"], capture_output=True, text=True, timeout=60)
    assert res.returncode == 0, res.stdout + res.stderr
    assert "/ui/gfx.py" in device_files(board)
    third = make_deploy(board.port)
    m3 = deployed(board)
    for n, d in (("first", first), ("second", second), ("third", third)):
        print("%s deploy: %d copied, %d removed, %.1f s" % (n, d["copied"], d["removed"], d["seconds"]))
    assert third["paths"] == changed(m2, m3), third["out"]
    assert third["removed"] == 2 + len(set(m2) - set(m3)), third["out"]
    files = device_files(board)
    py = sorted(p for p in files if p.endswith(".py"))
    assert py == ["/boot.py", "/main.py"], py
    check_boots_from_mpy(board)
    check_menu_on_oled(board)
