"""Damaged data files and saves of a HARD game against CPUs: the never-lose tests'
cases (test_never_lose3, test_never_lose3_build)."""
from system import store
from core import games
import ui_rig
from cpu_pilot import Log, _start, play
from ui import frenzy_screen as fs
from ui import shakeup_screen as ss


BACK = ui_rig.BACK


NAMES = {games.SHAKEUP: "shakeup2.bin", games.FRENZY: "frenzy_round.bin"}


ITEMS = {games.SHAKEUP: "SHAKE UP", games.FRENZY: "FARKLE FRENZY"}


def _garbage(n):
    out = bytearray(n)
    x = 12345
    for i in range(n):
        x = (x * 1103515245 + 12345) & 0x7FFFFFFF
        out[i] = x >> 16 & 0xFF
    return bytes(out)


# The damage an interrupted copy (or worse) leaves: name, the file made of the good one.
DAMAGE = (
    ("empty", lambda good: b""),
    ("1-byte", lambda good: good[:1]),
    ("truncated", lambda good: good[:len(good) // 2]),
    ("garbage", lambda good: _garbage(len(good))),
    ("0xFF", lambda good: b"\xff" * len(good)),
)


def _cpu_to_think(r):
    """The CPU seat is about to decide (its dice or roll on screen, nothing picked)."""
    s = r.app.screen
    app = r.app
    if s.NAME == "shakeup":
        g = s.game
        return (app.cpus[g.player] and s.view == ss.DICE and g.phase == 2 and not s.ack
                and not app.tumbling)
    if s.NAME == "frenzy":
        g = s.game
        return (s.view == fs.V_PLAY and app.cpus[g.player] and g.phase == 3 and not s.mask
                and not app.tumbling)
    return False


def _saved_hard_game(kind, seed):
    """A rig whose saved game (good tables) has GREEN, a HARD CPU, about to think; at
    the menu."""
    r = _start("nl3_%d" % kind, ITEMS[kind], 2, (0, 3), seed=seed)
    log = Log()
    play(r, log, until=_cpu_to_think)
    assert _cpu_to_think(r)
    r.press(BACK)
    r.wait(300)
    assert r.screen == "menu" and r.app.store.has_game()
    return r


def _seats(root):
    got = store.Store(root).load_game()
    if got is None:
        return None
    ui = got[2]
    return bytes(ui[1] >> 2 * i & 3 for i in range(2)) if ui and ui[0] & 0x80 else b""
