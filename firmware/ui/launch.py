"""Starting or continuing a game: run by app._go() once the menu level is forgotten, and
forgotten again as the game starts. The screen is made by app._go() after launch()
returned: the moment of a game's start when the heap is fullest.

Each game's entry point (its Game and its screen class) is here; what else the device
knows of a game is its row in core.games."""
from core.games import FRENZY, LOADER, SHAKEUP, game
from system.store import S_ONES, S_SCHEDULE, S_SETUP, S_SPOTS


def launch(app, g, forget=None):
    """g = kind << 4 | players: a new game; g = -1: continue the saved one (forget:
    app.forget, which lets go of the game's loader once the game is restored, before
    the screen's modules load). Returns
    (screen class, game, ui) for app._go() to make the screen (ui None: a new game), or
    None: back to the menu (no saved game, or it cannot be restored: then it is set
    aside). A kind no game has is a ValueError for a new game, a damaged save else."""
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
        row = game(kind)  # ValueError for a kind no game has
        s = app.settings
        if kind == SHAKEUP:
            from core.shakeup import Game
            if ui is None:
                made = Game(g & 15, bool(s[S_SPOTS]), app.dice)
        elif kind == FRENZY:
            from core.frenzy import Game  # pyright: ignore[reportAssignmentType]
            if ui is None:
                made = Game(g & 15, s[S_SCHEDULE], 1000 if s[S_ONES] else 300, app.dice,
                            app.first % (g & 15))
        cpus = app.cpus
        if ui is None:  # a new game; the one who set it up (or starts it) holds it
            app.players = n = g & 15
            seats = s[S_SETUP + (kind - 1) * 2 + 1]  # the setup (ui.menu's Setup)
            app.holder = app.first % n
        else:
            made = Game.from_bytes(blob, app.dice)
            if forget is not None:
                forget((row[LOADER],))
            app.players = n = made.players
            seats = 0
            h = ui[0] if ui else 0
            if h & 0x80 and len(ui) > 1:  # CPU seats: their codes follow (see app)
                seats = ui[1]
                ui = ui[1:]
            app.holder = (h & 0x7F) - 1
            ui = ui[1:] if ui else b""
        for i in range(4):
            cpus[i] = seats >> 2 * i & 3 if i < n else 0
        if min(cpus[:n]):
            raise ValueError("no human player")
        if app.holder >= 0 and cpus[app.holder]:
            app.holder = -1  # a CPU never holds the device
        # The screen's modules after the game's: restoring a game loads its checks,
        # which are not needed again.
        if kind == SHAKEUP:
            from ui.shakeup_screen import ShakeUpScreen as cls
        else:
            from ui.frenzy_screen import FrenzyScreen as cls  # pyright: ignore[reportAssignmentType]
    except (ValueError, IndexError, ImportError):
        if g >= 0:
            raise  # a new game that cannot start is a bug, not a damaged save
        app.store.reject_game()
        app.menu()
        return None
    return cls, made, ui
