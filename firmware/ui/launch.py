"""Starting or continuing a game: run by app._go() once the menu level is dropped;
app._go() drops this module as it starts (it is not needed again until the next game).
One function (each costs heap), and the screen is made by app._go() after it returned:
the moment of a game's start when the heap is fullest, so this module is gone by then."""

try:
    from micropython import const
except ImportError:
    def const(x):
        return x

_KIND_SHAKEUP = const(1)  # store.KIND_SHAKEUP
_S_SCHEDULE = const(2)  # store.S_SCHEDULE
_S_ONES = const(3)  # store.S_ONES
_S_SPOTS = const(4)  # store.S_SPOTS


def launch(app, g):
    """g = kind << 4 | players: a new game; g = -1: continue the saved one. Returns
    (screen class, game, ui) for app._go() to make the screen once this module is gone
    (ui None: a new game), or None: back to the menu (no saved game, or it cannot be
    restored: then it is set aside)."""
    ui = None
    if g < 0:
        got = app.store.load_game()
        if got is None:
            app.menu()
            return None
        kind, blob, ui = got
    else:
        kind = g >> 4
    try:
        # The game first, the screen's modules after: making a game loads its own
        # on-demand code (core.frenzy_new, *_load), which is dropped before they come.
        if kind == _KIND_SHAKEUP:
            from core import shakeup as mod
        else:
            from core import frenzy as mod
        s = app.settings
        if ui is None:  # a new game; the one who set it up holds the device
            app.players = g & 15
            app.holder = 0
            if kind == _KIND_SHAKEUP:
                game = mod.Game(g & 15, bool(s[_S_SPOTS]), app.dice)
            else:
                # (pyright types `mod` as core.shakeup, its first binding)
                game = mod.Game(g & 15, s[_S_SCHEDULE],
                                1000 if s[_S_ONES] else 300,
                                app.dice)  # pyright: ignore[reportCallIssue]
        else:
            game = mod.Game.from_bytes(blob, app.dice)
            app.players = game.players
            app.holder = (ui[0] - 1) if ui else -1
            ui = ui[1:] if ui else b""
        if kind == _KIND_SHAKEUP:
            from ui.shakeup_screen import ShakeUpScreen as cls
        else:
            from ui.frenzy_screen import FrenzyScreen as cls
    except (ValueError, IndexError, ImportError):
        if g >= 0:
            raise  # a new game that cannot start is a bug, not a damaged save
        app.store.reject_game()
        app.menu()
        return None
    return cls, game, ui
