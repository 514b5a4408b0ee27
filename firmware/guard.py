"""Crash handling: log the traceback, show "Restarting", restart into Continue.

main.py wraps the app:

    import guard
    resume = guard.boot("/")          # True: go straight to Continue
    try:
        app = App(board)              # ... and honour `resume`
        app.run()
    except Exception as e:
        guard.crashed(e, "/", app_display_or_None)

This module stays loaded for the whole run, so it is only the boot count and time
(the quick-repeat check needs them at the crash) and a module __getattr__: every
function and constant (boot, crashed, crash_log, mark_restart, show_restart,
traceback_text, error_code, watchdog, MAX_TRIES, GIVE_UP, LOG, OLD, MARK) lives in
crash.py, loaded for the call and dropped again. See crash.py for what they do.
"""
_boot_count = 0
_boot_ms = 0


def __getattr__(name):
    if name[:2] == "__":
        raise AttributeError(name)  # CPython's import asks for __path__ and the like
    import sys
    import crash
    sys.modules.pop("crash", None)
    return getattr(crash, name)
