"""Power cuts: SIGKILL the firmware at random moments, restart it, check Continue.

host_tests/cut_driver.py plays the real App on the simulated board under the
MicroPython unix port (CPython if it is missing) and journals every save it is about
to write (P), every game state it verified against the file on disk after a frame
(C), and, after each restart, the game Continue restored (R). A restored game must be
the last verified state, or one whose save had begun when the power went (a P after
the last C): the rename is the commit point, so nothing in between can appear. A
finished game (F) may be gone. Each game that ended (D) is counted in the stats exactly
once (S, after each boot): a cut inside its end may leave it uncounted only with its
save kept, so that Continue brings it back to be finished. The kill times are drawn
from a seeded generator.

A cut at every step inside a save is tested in-process in test_store.py, Continue
showing the same screen in test_ui_app.py. Here also: saves per whole game (the
docs/reliability.md's figure) and no writes in frames without input.
Command: .venv/bin/python -m pytest -c host_tests/pytest.ini host_tests/test_powercut.py
(PD_CUT_GAMES=N changes the 200 of the slow test).
"""
import os
import random
import signal
import subprocess
import sys
import time

import pytest

from conftest import ROOT, micropython_bin

GAMES = int(os.environ.get("PD_CUT_GAMES", "200"))


def _interp():
    mp = micropython_bin()
    if os.path.exists(mp):
        return [mp, "-X", "heapsize=2m"]
    return [sys.executable]


def _parse(path):
    if not os.path.exists(path):  # cut before the driver opened its journal
        return []
    with open(path) as f:
        return [ln.rstrip("\n") for ln in f if ln.endswith("\n")]


def _acceptable(lines):
    """The states Continue may restore after a cut at the end of these lines:
    hex strings, and None for 'no saved game'."""
    last = None     # the state verified on disk last (None: no saved game)
    tail = []       # P / F lines after it
    for ln in lines:
        tag, _, arg = ln.partition(" ")
        if tag in ("C", "R"):
            last = None if arg == "none" else arg
            tail = []
        elif tag == "P":
            tail.append(arg)
        elif tag == "F":
            tail.append(None)
    return {last} | set(tail)


def _run_episode(cmd, fs, journal, seed, kind, rnd):
    p = subprocess.Popen(cmd + ["host_tests/cut_driver.py", "cut", ROOT, fs, journal,
                                str(seed), str(kind)],
                         cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if rnd.random() < 0.1:
        time.sleep(rnd.uniform(0.0, 0.4))  # anywhere, boot included
    else:
        line = p.stdout.readline()  # "W": a new game is under way
        if not line:
            p.wait()
            raise AssertionError("driver died: " + p.stderr.read().decode()[-3000:])
        time.sleep(rnd.uniform(0.0, 0.5))
    p.send_signal(signal.SIGKILL)
    p.wait()
    err = p.stderr.read().decode()
    p.stdout.close()
    p.stderr.close()
    if p.returncode not in (-signal.SIGKILL,):
        raise AssertionError("driver exited %s before the cut: %s" % (p.returncode, err[-3000:]))


def _games_cut(lines):
    """1 when the episode was cut while a game started in it was being played."""
    state = 0
    for ln in lines:
        if ln.startswith("N "):
            state = 1
        elif ln == "F":
            state = 0
    return state


def run_cuts(tmp_path, games, seed=2024):
    rnd = random.Random(seed)
    cmd = _interp()
    fs = str(tmp_path / "fs")
    os.makedirs(fs)
    cut = 0
    episodes = 0
    restored = 0
    prev = None
    counted = None  # the stats' count at the last boot, and the games ended since
    ended = 0
    pending = False  # the last end was cut before its count: its save must come back
    finishes = 0
    t0 = time.monotonic()
    while cut < games:
        journal = str(tmp_path / ("j%d.txt" % episodes))
        _run_episode(cmd, fs, journal, seed * 1000 + episodes, 1 + episodes % 2, rnd)
        lines = _parse(journal)
        for ln in lines:
            assert not ln.startswith("X "), ln
        s = [int(ln[2:]) for ln in lines if ln.startswith("S ")]
        if s:  # (no S: cut before the App was up; nothing ended in that episode)
            if counted is not None:
                got = s[0] - counted
                assert got in (ended, ended - 1), "episode %d: %d games ended, %d counted" % (
                    episodes, ended, got)
                if got == ended - 1:  # cut inside the end, before the count: the save
                    r0 = [ln for ln in lines if ln.startswith("R ")]  # comes back
                    assert pending and r0 and r0[0] != "R none", (episodes, pending, r0)
            counted = s[0]
            ended = 0
            pending = False
            for ln in lines:
                if ln == "D":
                    ended += 1
                    finishes += 1
                    pending = True  # until the end is seen to have returned
                elif ln != "F":
                    pending = False
        r = [ln[2:] for ln in lines if ln.startswith("R ")]
        if prev is not None and r:
            ok = prev
            got = None if r[0] == "none" else r[0]
            assert got in ok, "episode %d restored %s, expected one of %s" % (
                episodes, got, sorted(map(str, ok)))
            if got is not None:
                restored += 1
        if r:
            prev = _acceptable(lines)
        elif prev is not None:
            # Cut during boot, before Continue: the save is as it was; a stale .tmp
            # from a cut before that is the only file this boot may have removed.
            pass
        cut += _games_cut(lines)
        episodes += 1
        assert episodes < games * 3, "too few cuts fell inside games"
    names = os.listdir(fs)
    assert not [n for n in names if n.endswith(".bad")], names
    return episodes, restored, time.monotonic() - t0, finishes


@pytest.mark.slow
def test_power_cuts_200_games(tmp_path):
    episodes, restored, secs, ends = run_cuts(tmp_path, GAMES)
    print("power cuts: %d episodes, %d games cut, %d restored, %d games ended, %.1f s"
          % (episodes, GAMES, restored, ends, secs))
    assert restored >= GAMES // 2


def _count_writes(app):
    """Count real file writes (store.writes grows) per file on app.store."""
    from system import store
    st = app.store
    real = st._save
    c = {"game": 0, "other": 0}

    def _save(name, ftype, *parts):
        before = st.writes
        ok = real(name, ftype, *parts)
        if st.writes > before:
            c["game" if name == store.GAME else "other"] += 1
        return ok
    st._save = _save
    return c


@pytest.mark.parametrize("kind,players", [(1, 2), (1, 4), (2, 1), (2, 2), (2, 4)])
def test_writes_per_game(kind, players):
    """A whole game writes its save about once per decision (the figure for the
    docs/reliability.md), never in frames without input, and the stats once at the end."""
    import ui_rig
    import frenzy_pilot as tfz
    import shakeup_pilot as tsu
    r = ui_rig.Rig("writes", seed=players + 10 * kind)
    if kind == 1:
        tsu.start_game(r, players)
        p = tsu.Pilot(r, 5)
    else:
        tfz.start_game(r, players, 0)
        p = tfz.Pilot(r, 5)
    c = _count_writes(r.app)
    # Frames without input write nothing, whatever the screen does meanwhile.
    r.wait(20000)
    assert c == {"game": 0, "other": 0}
    p.play()
    print("writes per game: kind %d, %d players: %d decisions, %d saves, %d other"
          % (kind, players, p.decisions, c["game"], c["other"]))
    assert c["other"] == 1                       # the stats, once
    assert 0 < c["game"] <= p.decisions          # at most one write per decision
    ui_rig._rmtree(r.root)


# ---- LittleFS: the rename is atomic on the device's filesystem too -----------------

from lfs_rig import _Os as _LfsOs  # store.py's os on littlefs-python, as the port's  # noqa: E402


class _Recorder:
    """A flash image that logs every program and erase (to replay any prefix)."""

    def __new__(cls, size):
        from littlefs.context import UserContext

        class Ctx(UserContext):
            def prog(self, cfg, block, off, data):
                self.ops.append((block * cfg.block_size + off, bytes(data)))
                return UserContext.prog(self, cfg, block, off, data)

            def erase(self, cfg, block):
                self.ops.append((block * cfg.block_size, b"\xff" * cfg.block_size))
                return UserContext.erase(self, cfg, block)
        c = Ctx(buffsize=size)
        c.ops = []
        return c


def _on_lfs(fs, fn):
    """Run fn() with store.py's os and open pointed at the littlefs fs."""
    from system import store
    saved = store.os
    store.os = _LfsOs(fs)
    store.open = lambda p, m="r": fs.open(p, m)
    try:
        return fn()
    finally:
        store.os = saved
        del store.open


def test_littlefs_cut_at_every_flash_write_of_many_saves():
    """Every prefix of the flash writes of a save (and each write torn in half)
    mounts to the old save or the new one: never damaged, never missing. 60 saves in
    a small image, so littlefs compacts and relocates its metadata along the way."""
    from littlefs import LittleFS

    from system import store
    bs, nblocks = 4096, 16
    ctx = _Recorder(bs * nblocks)
    fs = LittleFS(context=ctx, block_size=bs, block_count=nblocks)
    blobs = [bytes((i,)) * (40 + i % 50) for i in range(60)]
    _on_lfs(fs, lambda: store.Store("/").save_game(1, blobs[0]))
    checked = 0
    seen_old = seen_new = erases = 0
    for i in range(1, len(blobs)):
        image = bytearray(ctx.buffer)
        ctx.ops = []
        s = _on_lfs(fs, lambda: store.Store("/"))
        assert _on_lfs(fs, lambda: s.save_game(1, blobs[i], b"\x01"))
        ops = ctx.ops
        erases += sum(1 for _, d in ops if len(d) == bs and d == b"\xff" * bs)
        states = []
        img = bytearray(image)
        for off, data in ops:
            torn = bytearray(img)
            torn[off:off + len(data) // 2] = data[:len(data) // 2]
            states.append(torn)
            img[off:off + len(data)] = data
            states.append(bytearray(img))
        for st in states[:-1] + [bytearray(image)]:
            from littlefs.context import UserContext
            cut = LittleFS(context=UserContext(buffer=st), block_size=bs,
                           block_count=nblocks)
            t = _on_lfs(cut, lambda: store.Store("/"))
            got = _on_lfs(cut, t.load_game)
            assert t.problem is None, (i, t.problem)
            assert got is not None and got[1] in (blobs[i - 1], blobs[i]), (i, got)
            seen_old += got[1] == blobs[i - 1]
            seen_new += got[1] == blobs[i]
            checked += 1
    print("power cuts: %d flash-write prefixes of %d saves on LittleFS, none lost"
          % (checked, len(blobs) - 1))
    assert checked > 500 and seen_old > 100 and seen_new >= len(blobs) - 1
    assert erases >= 5  # blocks were recycled: the compaction paths ran too
