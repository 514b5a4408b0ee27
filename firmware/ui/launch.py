"""Starting or continuing a game: run by app._go() once the menu level is dropped;
app._go() drops this module as it starts (it is not needed again until the next game)."""
import store

try:
    from micropython import const
except ImportError:
    def const(x):
        return x

_KIND_SHAKEUP = const(1)  # store.KIND_SHAKEUP


def launch(app, g):
    """g = kind << 4 | players: a new game; g = -1: continue the saved one."""
    if g < 0:
        resume(app)
    else:
        start(app, g >> 4, g & 15)


def _classes(kind):
    """The game's core module and screen class (Shake Up or Frenzy)."""
    if kind == _KIND_SHAKEUP:
        from core import shakeup
        from ui.shakeup_screen import ShakeUpScreen
        return shakeup, ShakeUpScreen
    from core import frenzy
    from ui.frenzy_screen import FrenzyScreen
    return frenzy, FrenzyScreen


def start(app, kind, players):
    """A new game from the setup screen; the one who set it up holds the device."""
    mod, cls = _classes(kind)
    s = app.settings
    if kind == _KIND_SHAKEUP:
        game = mod.Game(players, bool(s[store.S_SPOTS]), app.dice)
    else:
        game = mod.Game(players, s[store.S_SCHEDULE], 1000 if s[store.S_ONES] else 300,
                        app.dice)
    app.players = players
    app.holder = 0
    scr = cls(app, game, None)
    app.save(kind, game, b"")
    app.show(scr)


def resume(app):
    got = app.store.load_game()
    if got is None:
        app.menu()
        return
    kind, blob, ui = got
    try:
        mod, cls = _classes(kind)
        game = mod.Game.from_bytes(blob, app.dice)
        app.players = game.players
        app.holder = (ui[0] - 1) if ui else -1
        scr = cls(app, game, ui[1:] if ui else b"")
    except (ValueError, IndexError, ImportError):
        app.store.reject_game()
        app.menu()
        return
    app.show(scr)
