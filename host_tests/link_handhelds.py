"""Linked handhelds for the end-to-end tests (test_link_e2e.py, test_link_attack.py):
real firmware processes (the MicroPython unix port, the compiled build as deployed) on
tools/sim's ESP-NOW stand-in, each App played at its buttons by tools/sim/link_pilot.py;
a table of them, waiting for their games to end, and the checks of the end."""
import os
import signal
import subprocess
import time

from conftest import ROOT, micropython_bin

import sim_build

_BUILD = []


def _firmware():
    if not _BUILD:
        _BUILD.append(sim_build.ensure_build(ROOT, "sim")[0])
    return _BUILD[0]


class Handheld:
    def __init__(self, tmp, name, sid, base, pilot, air=""):
        self.fs = str(tmp / name)
        self.log = str(tmp / (name + ".log"))
        self.err = str(tmp / (name + ".err"))
        self.sid, self.base, self.air = sid, base, air
        self.start(pilot)

    def start(self, pilot):
        env = dict(os.environ)
        env["POCKET_RADIO"] = "id=%d,base=%d%s" % (self.sid, self.base, self.air)
        with open(self.err, "a") as err:
            self.proc = subprocess.Popen(
                [micropython_bin(), "-X", "heapsize=1m", "tools/sim/simrun.py",
                 "--root", ROOT, "--board", "sim", "--fs", self.fs, "--frame-ms", "10",
                 "--firmware", _firmware(), "--pilot", pilot, "--pilot-log", self.log],
                cwd=ROOT, env=env, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                stderr=err)

    def lines(self):
        try:
            with open(self.log) as f:
                return f.read().split("\n")
        except OSError:
            return []

    def over(self):
        for ln in self.lines():
            if ln.startswith("over "):
                t, w = ln[5:].split()
                return [int(v) for v in t.split(",")], int(w)
        return None

    def round(self):
        r = 0
        for ln in self.lines():
            if ln.startswith("round "):
                r = int(ln[6:])
        return r

    def kill(self):
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait()

    def stop(self):
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()
        if self.proc.stdin:
            self.proc.stdin.close()


def _base(k):
    return 21000 + (os.getpid() * 53 + k * 16) % 28000


def _table(tmp, k, guests, cpus=0, air="", lost=0):
    base = _base(k)
    hs = [Handheld(tmp, "t%d_host" % k, 0, base, "host:%d:%d:%d" % (guests, cpus, lost), air)]
    time.sleep(0.3)
    for i in range(guests):
        hs.append(Handheld(tmp, "t%d_g%d" % (k, i), i + 1, base, "join", air))
    return hs


# A guard against a game that stops, not a speed target: the games' length is the dice's
# (16 to 23 rounds seen) and their pace the machine's. Alone, the restarts' test takes
# ~2 min; beside the rest of make test on two cores it reached only round 17-19 of its
# games in 480 s once (2026-12-05), so the limit is well above either.
_LIMIT = 900


def _wait(tables, limit=_LIMIT, each=None):
    t0 = time.time()
    try:
        while time.time() - t0 < limit:
            if each is not None:
                each()
            if all(h.over() is not None for hs in tables for h in hs):
                return
            for hs in tables:
                for h in hs:
                    if h.proc.poll() is not None and h.over() is None:
                        raise AssertionError("%s stopped: %s" % (h.log, open(h.err).read()[-2000:]))
            time.sleep(0.5)
        raise AssertionError("games unfinished: " + repr([[h.round() for h in hs] for hs in tables]))
    finally:
        for hs in tables:
            for h in hs:
                h.stop()


def _agree(hs):
    res = [h.over() for h in hs]
    totals, winner = res[0]
    assert all(r == res[0] for r in res), res
    assert max(totals) >= 10000 and totals[winner] == max(totals)
    assert totals.count(max(totals)) == 1
    _counted(hs, winner)
    return totals, winner


def _counted(hs, winner):
    """Each handheld counted the linked game once in its stats (stats.dat on its
    flash), and a win where its seat won (the pilot logs its seat)."""
    from system import store
    from core import games as gm
    for h in hs:
        seat = [int(ln[5:]) for ln in h.lines() if ln.startswith("seat ")][-1]
        p = None
        for _ in range(100):  # written in the frame that saw the end: a moment
            try:
                with open(os.path.join(h.fs, store.STATS), "rb") as f:
                    p = store.unpack(0x54, f.read())
            except OSError:
                pass
            if p is not None:
                break
            time.sleep(0.05)
        assert p is not None, h.fs
        assert (store.stat(p, gm.ST_LINK_GAMES), store.stat(p, gm.ST_LINK_WINS)) == \
            (1, int(seat == winner)), (h.fs, seat, winner)
