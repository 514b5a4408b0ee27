"""Boot: start the app on the board profile installed as board.py.

All of it runs inside the guard, the profile's import too: after a crash, a watchdog
reset or a wake from deep sleep, guard.boot() says to go straight back into the saved
game (Continue), with the watchdog armed first. An uncaught exception is logged
(crash.log), a short "restarting" screen shows an error code (with no display the
buzzer beeps), and the board resets; a start that keeps failing stops at the REPL
(guard_fail.failed). The guard is boot-time code: its name goes once the boot is done
(the app forgets the module; a crash loads it again), what the run needs is in watch.

Before all of it, the heap takes its one growth and holds it (system/heap.py): first,
while the first area is one free run, so that the pin lands in the added area.
"""
from system.heap import hold_growth

pin = hold_growth()  # kept for the firmware's life (None where the heap cannot grow)
hold_growth = None
from system import guard  # noqa: E402 (after the hold: it must be first)

resume = guard.boot(guard.ROOT)  # True: Continue; 2 (guard.ASK): ask the player first
root = guard.ROOT
wait = guard.WAIT_MS
app = board = None
try:
    guard.stay_stopped()
    guard = None
    import board
    from app import App
    app = App(board, root)
    wdt = None
    if resume == 2 and app.store.has_game():
        from ui.crashed import Crashed  # it crashed on each resume: TRY AGAIN?
        from system.watch import again
        app.show(Crashed(app, again))
    elif resume and app.store.has_game():
        from system.watch import arm
        wdt = arm()  # before the resume: a hang in it resets too
        app.resume()
    app.run(wdt)
except Exception as e:  # KeyboardInterrupt (Ctrl-C at the REPL) is not caught
    d = app.display if app is not None else None
    made = app is not None
    app = None  # the game's heap goes back before the crash is logged (MemoryError)
    from system.guard_fail import failed
    failed(e, d, board, made, root, wait)
