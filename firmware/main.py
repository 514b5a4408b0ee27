"""Boot: start the app on the board profile installed as board.py.

After a crash, a watchdog reset or a wake from deep sleep, guard.boot() says to go
straight back into the saved game (Continue). An uncaught exception is logged, a short
"restarting" screen shows an error code, and the board resets (guard.crashed).
"""
import board
import guard

resume = guard.boot("/")
app = None
try:
    from app import App
    app = App(board)
    if resume and app.store.has_game():
        app.resume()
    app.run()
except Exception as e:  # KeyboardInterrupt (Ctrl-C at the REPL) is not caught
    d = app.display if app is not None else None
    app = None  # the game's heap goes back before the crash is logged (MemoryError)
    guard.crashed(e, "/", d)
