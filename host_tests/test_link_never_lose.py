"""A linked game is never lost, as a game on one handheld is not (issue 39): a host and
a guest, each the real App played at its buttons (host_tests/link_pair.py), whole
games to their end.

- A power cut at every flash write of the host and of the guest (before each file
  opened for writing, each write, each close, rename and remove: the folder as the
  cut leaves it, then a boot's Store on it): from the game's first save on, exactly
  one of "its save loads for CONTINUE" and "it is counted" holds, never counted twice;
  a save is the last one written or the one being written.
- A full flash on the host: told once, marked, BACK then CONTINUE gives the game as
  at BACK, the end counted in RAM and written once room returns, then no CONTINUE.
- A full flash on the guest from before it joins: its seat is kept in RAM, BACK then
  CONTINUE takes it again, the end is told, counted once when room returns.
"""
import os

from core import games
from link_pair import Flash, Pair
from system import store
from system.store import Store
from ui_rig import BACK, OK


def _roots(tmp_path):
    roots = [str(tmp_path / "host") + "/", str(tmp_path / "guest") + "/"]
    logs = [str(tmp_path / "host.log"), str(tmp_path / "guest.log")]
    return roots, logs


def _count(root):
    s = Store(root)
    return store.stat(s.load_stats(), games.ST_LINK_GAMES), s


def _boot(tmp_path, files, k):
    d = str(tmp_path / ("boot%d" % k))
    os.makedirs(d, exist_ok=True)
    for n in os.listdir(d):
        os.remove(os.path.join(d, n))
    for n, b in files.items():
        with open(os.path.join(d, n), "wb") as f:
            f.write(b)
    return d + "/"


def _cuts(tmp_path, flash, root, gid):
    """Every state a cut leaves in root, booted: (states, with a CONTINUE, counted)."""
    saves = flash.saves[root]
    first = saves[0][0] if saves else 1 << 30
    n_cont = n_counted = 0
    for i, files in enumerate(flash.states[root]):
        n, s = _count(_boot(tmp_path, files, 0))
        b = s.load_link()
        assert s.problem is None, (i, s.problem)
        assert n <= 1, i  # never twice
        if i < first:
            continue  # before the game's first save: nothing to lose yet
        assert (b is None) == (n == 1), (i, n, b)  # CONTINUE, or counted: one of them
        if b is not None:
            done = [blob for j, blob in saves if j <= i]
            assert b[2:4] == bytes((gid >> 8, gid & 0xFF))
            assert b == done[-1], i  # the last save written, no older one
            n_cont += 1
        else:
            n_counted += 1
    return len(flash.states[root]), n_cont, n_counted


def test_a_power_cut_at_every_flash_write_of_a_host_and_a_guest(tmp_path, monkeypatch):
    roots, logs = _roots(tmp_path)
    flash = Flash(monkeypatch, roots)
    p = Pair(roots, logs)
    p.play(p.over, 200000)
    for _ in range(10):
        p.frame()
    gid = p.rigs[0].app.screen.h.gid
    for i in range(2):  # the end's OK: back to the menu (the count is on flash already)
        p.press(i, OK)
    figures = []
    for i, root in enumerate(roots):
        n, s = _count(root)
        assert n == 1 and s.load_link() is None
        figures.append(_cuts(tmp_path, flash, root, gid))
    print("power cuts: host %d states (%d CONTINUE, %d counted), guest %d (%d, %d)"
          % (figures[0] + figures[1]))
    host, guest = figures
    assert host[0] > 300 and host[1] > 100 and host[2] >= 1
    assert guest[0] >= 8 and guest[1] >= 1 and guest[2] >= 1


def test_a_full_flash_on_the_host_is_told_kept_and_counted_once(tmp_path, monkeypatch):
    roots, logs = _roots(tmp_path)
    flash = Flash(monkeypatch, roots)
    p = Pair(roots, logs)
    host = p.rigs[0].app
    said = []
    real = host.say
    host.say = lambda a, b=None: said.append(a) or real(a, b)
    p.play(lambda: p.round() >= 2)
    on_flash = Store(roots[0]).load_link()
    flash.full.add(roots[0])
    p.play(lambda: p.round() >= 4)
    assert said.count("STORAGE FULL: PLAY ON") == 1 and host.unsaved  # told once, marked
    assert Store(roots[0]).load_link() == on_flash  # nothing reached the flash
    # BACK, then LINK GAME -> CONTINUE: the game as it was at BACK.
    p.play(lambda: not host.tumbling and p.live(0) is not None and p.live(0).g.phase != 0
           and p.pilots[0].down is None)
    p.paused[0] = True
    at_back = bytes(p.live(0).to_bytes())
    p.press(0, BACK)
    assert host.screen.NAME == "menu" and host.unsaved
    assert host.screen.items[0] == "CONTINUE"
    p.press(0, OK)
    p.play(lambda: p.live(0) is not None, 100)
    assert bytes(p.live(0).to_bytes()) == at_back
    p.paused[0] = False
    p.play(p.over, 200000)
    assert said.count("STORAGE FULL: PLAY ON") == 1
    assert host.store._stats is not None and store.stat(host.store._stats, games.ST_LINK_GAMES) == 1
    assert _count(roots[0])[0] == 0  # counted in RAM only
    flash.full.discard(roots[0])
    p.paused[0] = True
    p.press(0, OK)  # OK: MENU; the count goes to the flash, then the save goes
    n, s = _count(roots[0])
    assert n == 1 and s.load_link() is None
    assert _count(roots[1])[0] == 1


def test_a_full_flash_on_the_guest_is_told_kept_and_counted_once(tmp_path, monkeypatch):
    roots, logs = _roots(tmp_path)
    flash = Flash(monkeypatch, roots)
    flash.full.add(roots[1])
    p = Pair(roots, logs)
    guest = p.rigs[1].app
    said = []
    real = guest.say
    guest.say = lambda a, b=None: said.append(a) or real(a, b)
    p.play(lambda: p.round(1) >= 2)
    assert said.count("STORAGE FULL: PLAY ON") == 1 and guest.unsaved
    assert Store(roots[1]).load_link() is None  # its seat: in RAM only
    # BACK, then LINK GAME -> CONTINUE (from RAM): its seat again.
    p.play(lambda: p.pilots[1].down is None and not guest.tumbling)
    p.paused[1] = True
    p.press(1, BACK)
    assert guest.screen.NAME == "menu" and guest.screen.items[0] == "CONTINUE"
    p.press(1, OK)
    p.paused[1] = False
    p.pilots[1].role = "cont"
    p.play(lambda: p.live(1) is not None and p.rigs[1].app.screen.g.state == 2, 3000)
    assert p.rigs[1].app.screen.g.seat == 1
    p.play(p.over, 200000)
    assert said.count("STORAGE FULL: PLAY ON") == 1
    assert _count(roots[1])[0] == 0
    flash.full.discard(roots[1])
    p.paused[1] = True
    p.press(1, OK)
    n, s = _count(roots[1])
    assert n == 1 and s.load_link() is None
    assert _count(roots[0])[0] == 1
