"""The fault tests' rig: a game running on the simulated board, the panel as the app
drew it, a board profile with changes, an app on a fake clock booted to the menu."""
import ui_rig
from shakeup_pilot import Pilot, start_game


OK = ui_rig.OK


def _sim():
    import machine
    return machine.SIM


def _panel_matches(r):
    """The panel shows exactly what the app drew last."""
    return bytes(_sim().oled.frame()) == bytes(r.app.display.buf)


def _play(p, n):
    """n more decisions (fewer if the game ends first) through the buttons."""
    target = p.decisions + n
    p.hook = lambda label: p.decisions >= target
    try:
        p.play()
    finally:
        p.hook = None


def _ok_for_shake(r, p):
    """With no working sensor the player rolls with OK instead of shaking (on the
    dice view the cursor goes to the roll item first, as Pilot does for OK)."""
    from ui import shakeup_screen as ss

    def shake(ms=400):
        if getattr(r.app.screen, "view", -1) == ss.DICE:
            p.to_cursor(4)
        r.press(OK)
        r.wait(600)
    r.shake = shake


def _game_rig(name, seed, players=2):
    r = ui_rig.Rig(name, seed=seed)
    assert r.sim, "the simulated board is missing"
    start_game(r, players)
    p = Pilot(r, seed + 1)
    _play(p, 6)
    return r, p


def _to_rolling(r, p=None):
    """Play on (with Pilot p) until the screen waits for a roll."""
    app = r.app

    def at_roll(label):
        return getattr(app.screen, "rolling", False) and not app.tumbling
    if at_roll(""):
        return True
    if p is None:
        p = Pilot(r, 99)
    p.hook = at_roll
    try:
        p.play()
    finally:
        p.hook = None
    return at_roll("")


class _Board:
    pass


def _board(**changes):
    b = ui_rig._board("sim")
    nb = _Board()
    for k in ("NAME", "CHIP", "I2C", "DISPLAY", "BUTTONS", "BUZZER", "SHAKE", "BATTERY"):
        setattr(nb, k, getattr(b, k, None))
    for k in changes:
        setattr(nb, k, changes[k])
    return nb


def _app(board, root, before=None, seed=3):
    """An App on a freshly configured simulated board; before() runs first."""
    from app import App
    from core.seeded import Seeded
    sim = _sim()
    sim.configure(board)
    if before is not None:
        before(sim)
    return App(board, root, source=Seeded(seed))


class _Clock:
    def __init__(self, app):
        self.app = app
        self.t = 1000

    def step(self, n=1):
        for _ in range(n):
            self.t += 33
            self.app.step(self.t)

    def wait(self, ms):
        self.step(ms // 33 + 1)

    def tap(self, name, bounce=0):
        """Press and release a button on the simulated board, 3 frames each."""
        sim = _sim()
        sim.press(name, bounce)
        self.step(3)
        sim.release(name, bounce)
        self.step(3)


def _menu_after_boot(root, board=None, before=None):
    """An App (see _app) and its clock, run past the splash (the menu is up)."""
    app = _app(board if board is not None else _board(), root, before)
    c = _Clock(app)
    c.wait(1500)
    return app, c
