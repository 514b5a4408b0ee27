"""What the crash guard keeps while the app runs (guard.py is boot- and crash-time code,
forgotten after the boot): the boot's count of quick restarts and its time, for a
crash's mark (guard.mark_restart), and the watchdog, whose feed removes the watch mark
once the app has run past the quick window (a later watchdog reset then counts from 1
again). guard.boot() sets the three values.
"""
try:
    from time import ticks_diff, ticks_ms
except ImportError:  # CPython
    import time as _t

    def ticks_ms():
        return int(_t.monotonic() * 1000)

    def ticks_diff(a, b):
        return a - b

from micropython import const

QUICK_MS = const(30000)  # a crash this soon after boot counts as a repeat
_WDT_MS = const(8000)

count = 0       # the restart mark's count at boot (quick repeats; 0: a plain start)
since = 0       # when the boot ran (ticks_ms)
pending = None  # the watch mark's path while the quick window lasts


class Fed:
    """The machine.WDT, fed by the app's loop; once the app has run past the quick
    window, the watch mark goes."""

    def __init__(self, wdt):
        self.wdt = wdt

    def feed(self):
        self.wdt.feed()
        global pending
        if pending is not None and ticks_diff(ticks_ms(), since) >= QUICK_MS:
            try:
                import os
                os.remove(pending)
            except OSError:
                pass
            pending = None


def again():
    """ui.crashed's TRY AGAIN: the quick window starts again from it, so a crash soon
    after the Continue the player chose counts on from the boot's count."""
    global since
    since = ticks_ms()


def arm():
    """Arm the watchdog (8 s); None where there is none. Once armed it cannot be
    stopped: a device that gives up (REPL) must not have armed it."""
    try:
        from machine import WDT
        w = WDT(timeout=_WDT_MS)
    except (ImportError, AttributeError, ValueError, OSError):
        return None
    return Fed(w) if pending is not None else w
