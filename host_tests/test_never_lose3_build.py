"""Issue 30, part 1, on the compiled build as deployed: the sim board's build
(tools/flashing/build.py: .mpy files, board.mpy, data/) in a folder that tools/emuboard/emuboard.py makes
the board's filesystem, the MicroPython unix port behind it booting boot.py and
main.py, machine.reset() a hard reset into a fresh interpreter (a real boot).

For each game and each damage of its HARD table (test_never_lose3.DAMAGE), from a
saved game whose HARD CPU is about to think: CONTINUE is pressed on the emulated
board, and the game plays on with the CPU as NORMAL, said once, saved as usual; no
reset, no crash.log. (`python host_tests/test_never_lose3_build.py [old-build-dir]`
prints the same for another build: the issue's "before".)
"""
import os
import shutil
import sys
import time

import pytest



import build  # noqa: E402
import emu_control  # noqa: E402
import emuboard  # noqa: E402
from core import games  # noqa: E402

import save_damage as T  # noqa: E402

CASES = [(k, d) for k in (games.SHAKEUP, games.FRENZY) for d in T.DAMAGE]


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    out = str(tmp_path_factory.mktemp("nl3build"))
    build.build("sim", out)
    return os.path.join(out, "sim")


def _saved(kind, root):
    """game.sav (and settings.dat) in root: GREEN, a HARD CPU, about to think."""
    r = T._saved_hard_game(kind, 5)
    for name in ("game.sav", "settings.dat", "stats.dat"):
        if os.path.exists(os.path.join(r.root, name)):
            shutil.copy(os.path.join(r.root, name), os.path.join(root, name))
    shutil.rmtree(r.root, ignore_errors=True)


def run_case(built, kind, damage, work, seconds=25.0):
    """Boot the build with the damaged table; CONTINUE; watch. What happened."""
    fs = os.path.join(work, "fs")
    shutil.copytree(built, fs)
    path = os.path.join(fs, "data", T.NAMES[kind])
    with open(path, "rb") as f:
        good = f.read()
    with open(path, "wb") as f:
        f.write(damage[1](good))
    _saved(kind, fs)
    said = []
    screens = set()
    with emuboard.EmuBoard(fs_dir=fs, ctl_dir=os.path.join(work, "ctl"),
                           log=os.path.join(work, "serial.log")) as b:
        c = emu_control.EmuControl(os.path.join(work, "ctl"))
        c.wait_ready(30)
        try:
            c.wait_for("app.screen.NAME", "'menu'", 30)
        except AssertionError:
            pass  # (what follows says what the board did instead)
        try:
            c.tap("OK")  # CONTINUE (the menu's first item, under the cursor)
        except TimeoutError:
            pass  # (the firmware went down before the release: a reset follows)
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            try:
                got = c.eval("(app.screen.NAME, app.notice, app.notice2, bytes(app.cpus))",
                             timeout=2.0)
            except (TimeoutError, RuntimeError):
                time.sleep(0.2)
                continue  # (between boots)
            name, n1, n2, cpus = eval(got)
            screens.add(name)
            if n1 is not None and ("HARD" in n1 or "PLAYS AS" in n1) and (n1, n2) not in said:
                said.append((n1, n2))
            if name in ("shakeup", "frenzy") and cpus[1] == 2 and said and \
                    T._seats(fs) == b"\x00\x02":
                break  # the CPU played as NORMAL, and a decision was saved
            time.sleep(0.1)
        try:
            cpus = eval(c.eval("bytes(app.cpus)", timeout=2.0))
        except (TimeoutError, RuntimeError):
            cpus = None
        resets = b.stats["hard_resets"]
        boots = b.stats["boots"]
    return {"resets": resets, "boots": boots, "said": said, "cpus": cpus,
            "saved": T._seats(fs), "screens": sorted(screens),
            "crash.log": os.path.exists(os.path.join(fs, "crash.log"))}


@pytest.mark.slow  # (10 boots of the emulated board: about 100 s)
@pytest.mark.parametrize("kind,damage", CASES, ids=["%s-%s" % (
    "shakeup" if k == games.SHAKEUP else "frenzy", d[0]) for k, d in CASES])
def test_damaged_table_on_the_built_firmware(built, kind, damage, tmp_path):
    o = run_case(built, kind, damage, str(tmp_path))
    assert o["resets"] == 0 and not o["crash.log"], o
    assert o["said"] == [("GREEN PLAYS AS NORMAL", "HARD TABLE DAMAGED")], o
    assert o["cpus"] == b"\x00\x02\x00\x00", o
    assert o["saved"] == b"\x00\x02", o   # the next decision's save has GREEN NORMAL


if __name__ == "__main__":
    import tempfile
    src = sys.argv[1] if len(sys.argv) > 1 else None
    with tempfile.TemporaryDirectory() as tmp:
        if src is None:
            build.build("sim", tmp)
            src = os.path.join(tmp, "sim")
        for i, (kind, damage) in enumerate(CASES):
            work = os.path.join(tmp, "case%d" % i)
            os.makedirs(work)
            o = run_case(src, kind, damage, work)
            print("%-7s %-9s %s" % ("shakeup" if kind == games.SHAKEUP else "frenzy",
                                    damage[0], o), flush=True)
