"""The crash log: an exception's traceback written to `crash.log` (the previous log
kept as `crash.old`), and the short error code the restarting screen shows (a hash of
the traceback, so the same bug gives the same code). Loaded only when something
crashed (guard_fail) or the watchdog reset the board (guard.boot(), forgotten with
the boot's modules): the device never holds it while it plays.
"""
import sys

from micropython import const

LOG = "crash.log"
OLD = "crash.old"
_LOG_CAP = const(2048)


def _path(root, name):
    return root.rstrip("/") + "/" + name if root else name


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
