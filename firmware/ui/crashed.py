"""The question at a boot after the saved game crashed the firmware on each of its
automatic resumes (guard.MAX_TRIES; main.py shows it when guard.boot() says ASK): it is
never resumed by itself again. TRY AGAIN continues it (a crash soon after counts on,
and after guard.GIVE_UP quick crashes the device stops at the REPL), SET IT ASIDE keeps
it as game.sav.bad for a bug report and goes to the menu. Loaded only then."""
from ui.no_room import NoRoom


class Crashed(NoRoom):
    NAME = "crashed"
    items = ("TRY AGAIN", "SET IT ASIDE")
    lines = ("THIS GAME CRASHED", "TWICE ON CONTINUE")

    def __init__(self, app, again):
        """again(): watch.again, which main.py passes (the crash guard's quick window
        starts again at a TRY AGAIN)."""
        NoRoom.__init__(self, app)
        self.again = again

    def answer(self, i):
        app = self.app
        if i:
            app.store.reject_game("Game set aside")
            app.menu()
        else:
            self.again()
            app.go = -1  # Continue (app._go)
