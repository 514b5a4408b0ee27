"""Two handhelds of a link game in one process, for host_tests/test_link_never_lose.py:
each the real App (ui_rig.Rig with its stand-in devices and its own store folder),
played at its buttons by tools/sim/link_pilot.py's Pilot, their radios on
host_tests/link_air.py's air, one clock. `Flash` watches both stores' files: the
folder as it is before every flash write (a power cut there leaves it so), and a
folder made full (every write refused, ENOSPC, as a LittleFS with no free block)."""
import builtins
import os

from link_air import Air
from link_pilot import Pilot
from ui import gfx
import ui_rig


class _Buttons:
    """link_pilot's runner: the App, and its buttons (the rig's queue)."""

    def __init__(self, rig):
        self.rig = rig
        self.app = rig.app
        self.sim = self
        self.model = False
        self.names = 0

    def press(self, name):
        self.rig.dev.pending.append(0x10 | ui_rig.NAMES.index(name))

    def release(self, name):
        self.rig.dev.pending.append(0x20 | ui_rig.NAMES.index(name))


class Pair:
    """A host (seat 0, role "host") and one guest ("join"), each an App with a pilot;
    `frame()` steps both one frame on the shared clock; `play(until)` until until()."""

    def __init__(self, roots, logs, seed=1):
        self.air = Air(seed=seed, delay=5, jitter=10)
        self.radios = [self.air.radio(), self.air.radio()]
        self.rigs = []
        self.pilots = []
        for i, role in enumerate(("host:1:0:0", "join")):
            rig = ui_rig.Rig("link_pair%d" % i, seed=seed * 10 + i, sim=False, fs=roots[i])
            self.rigs.append(rig)
            self.pilots.append(Pilot(_Buttons(rig), role, logs[i]))
        self.paused = [False, False]

    def frame(self):
        for i in range(2):
            rig = self.rigs[i]
            if rig.app.link_radio is None:  # (link.session takes the App's radio when
                self.radios[i].on = True  # it has one: this handheld's on the air)
                rig.app.link_radio = self.radios[i]
            d = rig.app.display
            gfx.bind(d.fb, getattr(d, "buf", None))  # (one gfx for two Apps)
            if not self.paused[i]:
                self.pilots[i].tick(rig.t + ui_rig.FRAME)
            rig.step()
        self.air.now = self.rigs[0].t

    def press(self, i, b):
        """A press on handheld i (its pilot paused meanwhile)."""
        self.rigs[i].dev.pending.append(0x10 | b)
        self.frame()
        self.rigs[i].dev.pending.append(0x20 | b)
        self.frame()
        self.frame()

    def play(self, until, limit=60000):
        for _ in range(limit):
            if until():
                return
            self.frame()
        raise AssertionError("not reached in %d frames" % limit)

    def live(self, i):
        scr = self.rigs[i].app.screen
        return scr.live() if getattr(scr, "NAME", "") == "link_live" else None

    def round(self, i=0):
        lv = self.live(i)
        return lv.g.round if lv is not None else 0

    def over(self):
        return all(self.live(i) is not None and self.live(i).g.phase == 5 for i in range(2))


class _Writing:
    def __init__(self, flash, path, f):
        self.flash, self.path, self.f = flash, path, f

    def write(self, data):
        self.flash.snap(self.path)
        return self.f.write(data)

    def close(self):
        self.flash.snap(self.path)
        self.f.close()


class Flash:
    """system.store's files watched: before each flash write (a file opened for
    writing, each write, its close, a rename, a remove) under one of the roots, that
    folder's files go to states[root]; a root in `full` refuses every write."""

    def __init__(self, monkeypatch, roots):
        from system import store
        self.roots = roots
        self.states = {r: [] for r in roots}
        self.full = set()
        self.saves = {r: [] for r in roots}  # (state index, link.sav bytes written)
        monkeypatch.setattr(store, "open", self.open, raising=False)
        monkeypatch.setattr(store, "os", self)

    def _root(self, path):
        for r in self.roots:
            if path.startswith(r):
                return r
        return None

    def files(self, root):
        out = {}
        for n in os.listdir(root):
            with builtins.open(os.path.join(root, n), "rb") as f:
                out[n] = f.read()
        return out

    def snap(self, path):
        r = self._root(path)
        if r is not None:
            self.states[r].append(self.files(r))

    def _refuse(self, path):
        if self._root(path) in self.full:
            raise OSError(28, "ENOSPC")

    def open(self, path, mode="r"):
        if "w" not in mode:
            return builtins.open(path, mode)
        self._refuse(path)
        self.snap(path)
        return _Writing(self, path, builtins.open(path, mode))

    def rename(self, a, b):
        self._refuse(a)
        self.snap(a)
        os.rename(a, b)
        r = self._root(b)
        if r is not None and b.endswith("link.sav"):
            from system import store
            with builtins.open(b, "rb") as f:
                self.saves[r].append((len(self.states[r]), store.unpack(0x4C, f.read())))

    def remove(self, p):
        self.snap(p)
        os.remove(p)

    def __getattr__(self, name):
        return getattr(os, name)  # stat, mkdir, rmdir, listdir: as they are
