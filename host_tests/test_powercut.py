"""Power cuts: SIGKILL the firmware at random moments, restart it, check Continue.

host_tests/cut_driver.py plays the real App on the simulated board under the
MicroPython unix port (CPython if it is missing) and journals every save it is about
to write (P), every game state it verified against the file on disk after a frame
(C), and, after each restart, the game Continue restored (R). A restored game must be
the last verified state, or one whose save had begun when the power went (a P after
the last C): the rename is the commit point, so nothing in between can appear. A
finished game (F) may be gone. The kill times are drawn from a seeded generator.

A cut at every step inside a save is tested in-process in test_store.py, Continue
showing the same screen in test_ui_app.py. Here also: saves per whole game (the
README's figure) and no writes in frames without input.
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
    t0 = time.monotonic()
    while cut < games:
        journal = str(tmp_path / ("j%d.txt" % episodes))
        _run_episode(cmd, fs, journal, seed * 1000 + episodes, 1 + episodes % 2, rnd)
        lines = _parse(journal)
        for ln in lines:
            assert not ln.startswith("X "), ln
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
    return episodes, restored, time.monotonic() - t0


@pytest.mark.slow
def test_power_cuts_200_games(tmp_path):
    episodes, restored, secs = run_cuts(tmp_path, GAMES)
    print("power cuts: %d episodes, %d games cut, %d restored, %.1f s"
          % (episodes, GAMES, restored, secs))
    assert restored >= GAMES // 2


def test_power_cuts_quick(tmp_path):
    episodes, restored, secs = run_cuts(tmp_path, 50, seed=7)
    assert restored >= 20


def _count_writes(app):
    """Count real file writes (store.writes grows) per file on app.store."""
    import store
    st = app.store
    real = st._save
    c = {"game": 0, "other": 0}

    def _save(name, ftype, payload):
        before = st.writes
        ok = real(name, ftype, payload)
        if st.writes > before:
            c["game" if name == store.GAME else "other"] += 1
        return ok
    st._save = _save
    return c


@pytest.mark.parametrize("kind,players", [(1, 2), (1, 4), (2, 1), (2, 2), (2, 4)])
def test_writes_per_game(kind, players):
    """A whole game writes its save about once per decision (the figure for the
    README), never in frames without input, and the stats once at the end."""
    import ui_rig
    import test_ui_frenzy as tfz
    import test_ui_shakeup as tsu
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
    assert 0 < c["game"] <= 2 * p.decisions      # bounded by the decisions made
    ui_rig._rmtree(r.root)
