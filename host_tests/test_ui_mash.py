# portable: runs under MicroPython too
"""Random button mashing and shaking: the app never raises and the games never reach
a state the core rejects (every saved state restores; a running game always has a
legal decision)."""
import ui_rig
from core.seeded import Seeded

# Event mix: PRESS of PREV / NEXT / OK / BACK, a shake, a pause.
_MIX = b"\x02\x02\x02\x02\x02\x02\x01\x01\x01\x00\x00\x03\x04\x04\x05"


def _check_game(app):
    scr = app.screen
    g = getattr(scr, "game", None)
    if g is None:
        return 0
    b = g.to_bytes()
    g2 = type(g).from_bytes(b)  # raises ValueError on any state the core rejects
    assert g2.to_bytes() == b
    if g.winner < 0:
        assert g.legal(), "a running game with nothing legal"
    return 1


def mash(rig, events, seed, avoid=()):
    rnd = Seeded(seed)
    in_game = 0
    screens = {}
    for _ in range(events):
        r = rnd(2)
        what = _MIX[r[0] % len(_MIX)]
        name = rig.screen
        if name in avoid or (name == "setup" and "frenzy" in avoid
                             and rig.app.screen.kind == 2):
            what = 3  # BACK out of screens this test leaves alone
        ui_rig.mash_input(rig, what, r[1])
        name = rig.screen
        screens[name] = screens.get(name, 0) + 1
        in_game += _check_game(rig.app)
    return in_game, screens


def test_mash_shakeup_and_menus():
    rig = ui_rig.Rig("mash_su", seed=5)
    ui_rig.humans_only(rig.app)
    in_game, screens = mash(rig, 3000, 77, avoid=("frenzy",))
    assert in_game > 500, (in_game, screens)
    for name in ("menu", "shakeup", "pass", "settings"):
        assert name in screens, (name, screens)


def test_mash_everything():
    rig = ui_rig.Rig("mash_all", seed=9)
    _in_game, screens = mash(rig, 3000, 1234)
    assert "menu" in screens and len(screens) >= 5, screens
