"""The question after Continue failed twice in a row short of memory (app._go).

"THIS GAME NEEDS MORE MEMORY": KEEP IT goes back to the menu with the save kept (a
later try, e.g. after a restart, may find the room), START OVER forgets the save and
goes back to the menu. The player decides: never a crash loop. Loaded only then."""
from ui import gfx
from ui.screens import BACK, NEXT, OK, PREV, Screen


class NoRoom(Screen):
    """A question about the saved game, two answers (ui.crashed asks another)."""
    NAME = "noroom"
    items = ("KEEP IT", "START OVER")
    lines = ("THIS GAME NEEDS", "MORE MEMORY")

    def __init__(self, app):
        Screen.__init__(self, app)
        self.cur = 0

    def on_key(self, k):
        app = self.app
        if k == PREV or k == NEXT:
            self.cur ^= 1
            app.play_select()
            self.dirty = True
        elif k == OK:
            self.answer(self.cur)
        elif k == BACK:
            app.menu()  # the save kept

    def answer(self, i):
        """OK on item i."""
        if i:
            self.app.store.clear_game()
        self.app.menu()

    def draw(self, fb):
        gfx.banner(fb, "CONTINUE", 0)
        gfx.center(fb, self.lines[0], 18, 1, gfx.MEDIUM)
        gfx.center(fb, self.lines[1], 29, 1, gfx.MEDIUM)
        y = 44
        for i in range(2):
            s = self.items[i]
            if i == self.cur:
                gfx.label(fb, s, 64 - (gfx.width(s, gfx.MEDIUM) + 2) // 2, y, gfx.MEDIUM)
            else:
                gfx.center(fb, s, y + 1, 1, gfx.MEDIUM)
            y += 10
