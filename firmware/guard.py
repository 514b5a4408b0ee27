"""Crash handling: log the traceback, show "Restarting", restart into Continue.

main.py wraps the app:

    import guard
    resume = guard.boot("/")          # True: go straight to Continue
    try:
        app = App(board)              # ... and honour `resume`
        app.run()
    except Exception as e:
        guard.crashed(e, "/", app_display_or_None)

`crashed()` writes the traceback to `crash.log` (the previous one becomes
`crash.old`), marks the restart in `restart.dat`, shows a short screen with an error
code (a hash of the traceback, so the same bug gives the same code) and resets the
board. `boot()` reads and removes the mark: after a crash, a watchdog reset or a wake
from deep sleep the app resumes the saved game. A game that crashes again within
30 s of each of MAX_TRIES resumes comes up in the menu instead, so a bad save cannot
trap the device in a restart loop; after GIVE_UP quick crashes in a row (say, the
display is gone at boot) it stops resetting and leaves the REPL to mpremote.
"""
import sys

try:
    from micropython import const
except ImportError:
    def const(x):
        return x

try:
    from time import ticks_diff, ticks_ms
except ImportError:  # CPython
    import time as _t

    def ticks_ms():
        return int(_t.monotonic() * 1000)

    def ticks_diff(a, b):
        return a - b

LOG = "crash.log"
OLD = "crash.old"
MARK = "restart.dat"
MAX_TRIES = const(3)
GIVE_UP = const(6)
_QUICK_MS = const(30000)     # a crash this soon after boot counts as a repeat
_LOG_CAP = const(2048)

_boot_count = 0   # boot(): the restart mark's count (quick repeats), for mark_restart()
_boot_ms = 0      # boot(): when it ran

def _path(root, name):
    if not root:
        return name
    return root + name if root.endswith("/") else root + "/" + name


def traceback_text(exc):
    """The traceback of exc as a string (MicroPython or CPython)."""
    if hasattr(sys, "print_exception"):
        import io
        buf = io.StringIO()
        sys.print_exception(exc, buf)
        return buf.getvalue()
    import traceback
    return "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))


def error_code(text):
    """A short code for the screen: 'E' + 4 hex digits hashed from the traceback."""
    h = 0
    for ch in text:
        h = (h * 31 + ord(ch)) & 0xFFFF
    return "E%04X" % h


def crash_log(root, exc):
    """Write exc's traceback to root/crash.log (keeping the previous as crash.old);
    returns the error code. Never raises."""
    try:
        text = traceback_text(exc)
    except Exception:
        text = repr(exc)
    code = error_code(text)
    try:
        import os
        log = _path(root, LOG)
        try:
            os.rename(log, _path(root, OLD))
        except OSError:
            pass
        f = open(log, "w")
        try:
            f.write(code + "\n")
            f.write(text[-_LOG_CAP:])
        finally:
            f.close()
    except Exception:
        pass
    return code


def _read_mark(root):
    try:
        f = open(_path(root, MARK), "rb")
        try:
            b = f.read(1)
        finally:
            f.close()
        return b[0] if b else 1
    except (OSError, IndexError):
        return 0


def _reset_cause_resumes():
    """True after a watchdog reset or a wake from deep sleep."""
    try:
        import machine
        c = machine.reset_cause()
        return c == getattr(machine, "WDT_RESET", -1) or \
            c == getattr(machine, "DEEPSLEEP_RESET", -1)
    except Exception:
        return False


def boot(root="/"):
    """Call once at start-up. True when the app should go straight to Continue."""
    global _boot_count, _boot_ms
    _boot_ms = ticks_ms()
    n = _boot_count = _read_mark(root)
    if n:
        try:
            import os
            os.remove(_path(root, MARK))
        except OSError:
            pass
        return n <= MAX_TRIES
    return _reset_cause_resumes()


def mark_restart(root="/"):
    """Record that the next boot follows a crash (counting quick repeats)."""
    n = 1
    c = _boot_count
    if c and ticks_diff(ticks_ms(), _boot_ms) < _QUICK_MS:
        n = c + 1
    try:
        f = open(_path(root, MARK), "wb")
        try:
            f.write(bytes((min(n, 255),)))
        finally:
            f.close()
    except OSError:
        pass
    return n


def show_restart(display, code, line="Restarting..."):
    """Draw the restarting screen with the error code; ignores a dead panel."""
    if display is None:
        return
    try:
        display.sleep(False)    # the crash may have come while the panel was off
    except Exception:
        pass
    try:
        fb = display.fb
        fb.fill(0)
        fb.rect(0, 0, 128, 64, 1)
        fb.text("Oops!", 44, 10, 1)
        fb.text(line, 64 - len(line) * 4, 26, 1)
        fb.text(code, 64 - len(code) * 4, 44, 1)
        display.show()
    except Exception:
        pass


def crashed(exc, root="/", display=None, wait_ms=2500, reset=True):
    """The uncaught-exception path: log, mark, show, wait, reset. Returns the code
    when reset is False (tests, the simulator)."""
    code = crash_log(root, exc)
    if mark_restart(root) > GIVE_UP:
        show_restart(display, code, "Stopped")
        return code             # main.py ends: the REPL is there for a look
    show_restart(display, code)
    try:
        import time
        if hasattr(time, "sleep_ms"):
            time.sleep_ms(wait_ms)
        else:
            time.sleep(wait_ms / 1000)
    except Exception:
        pass
    if reset:
        import machine
        machine.reset()
    return code

