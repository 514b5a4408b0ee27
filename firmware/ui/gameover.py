"""A game's end (App.finish, App.win): the stats and the generic winner screen. Loaded
when a game ends; app.menu() drops it."""
import store
from ui import gfx
from ui.screens import BACK, COLOURS, OK, Screen


def finish(app, kind, game, best_round, total):
    """The game is over: count it in the stats and clear the save."""
    st = app.store.load_stats()
    store.record_game(st, kind, game.winner, best_round, total)
    app.store.save_stats(st)
    app.store.clear_game()


class Win(Screen):
    """The winner; OK goes back to the menu."""
    NAME = "win"

    def __init__(self, app, seat, line1=None, line2=None):
        Screen.__init__(self, app)
        self.seat = seat
        self.line1 = line1
        self.line2 = line2
        self.t0 = app.now

    def on_key(self, k):
        # A short grace time so a button mashed at the winning move is not lost on it.
        if (k == OK or k == BACK) and self.app.elapsed(self.t0) >= 600:
            self.app.menu()

    def draw(self, fb):
        gfx.center(fb, COLOURS[self.seat], 2, 1, gfx.MEDIUM, 2)
        gfx.center(fb, "WINS!", 20, 1, gfx.MEDIUM)
        for i in range(10):
            # Five 5x8 pawns each side: head with an eye, collar, body, base.
            x = 8 + i * 8 + (i // 5) * 34
            fb.fill_rect(x + 1, 20, 3, 3, 1)
            fb.pixel(x + 2, 21, 0)
            fb.hline(x, 23, 5, 1)
            fb.fill_rect(x + 1, 24, 3, 2, 1)
            fb.fill_rect(x, 26, 5, 2, 1)
        if self.line1:
            gfx.center(fb, self.line1, 34)
        if self.line2:
            gfx.center(fb, self.line2, 42)
        gfx.center(fb, "OK: MENU", 57)
