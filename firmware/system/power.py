"""Power: idle levels (dim, display off + light sleep, deep sleep).

`Power(settings)` turns idle time into a level; the times come from the settings
bytearray (store.S_DIM in tens of seconds, S_OFF and S_SLEEP in minutes; 0 = never).
The app calls `activity(now_ms)` on every event and `level(now_ms)` once a frame, and
acts on the level: `drive_display()` dims or blanks the panel, `nap()` light-sleeps
between frames while the display is off, and `deep_sleep()` (after the game is saved)
powers down until a button wakes the board, which then boots into Continue (that is
power_sleep, loaded when the board goes to sleep). The battery watch is power_battery.
"""
from micropython import const

from system.store import S_DIM, S_OFF, S_SLEEP

try:
    from time import ticks_add, ticks_diff
except ImportError:  # CPython: plain ints
    def ticks_add(a, b):
        return a + b

    def ticks_diff(a, b):
        return a - b

AWAKE = const(0)
DIM = const(1)
OFF = const(2)
DEEP = const(3)

_DIM_CONTRAST = const(8)   # panel contrast while dimmed
_REVIVE_MS = const(1000)   # retry a panel that stopped answering this often
_CHECK_MS = const(2000)    # ask a lit panel whether it is still set up this often


class Power:
    """Idle-time levels. Times from settings; a threshold of 0 means never."""

    def __init__(self, settings, now_ms=0):
        self.configure(settings)
        self.last = now_ms      # time of the last activity
        self.now = now_ms       # time of the last level() call
        self.shown = AWAKE      # level last applied by drive_display()
        self.revived = 0        # times a dead panel was brought back
        self._retry = now_ms
        self._check = now_ms

    def configure(self, settings):
        """Re-read the thresholds (after the Settings screen changed them)."""
        self.dim_ms = settings[S_DIM] * 10000
        self.off_ms = settings[S_OFF] * 60000
        self.sleep_ms = settings[S_SLEEP] * 60000

    def activity(self, now_ms):
        """Something happened: back to AWAKE. Returns the level before, so the app can
        swallow the event that only woke the display (level OFF or deeper)."""
        was = self.level(now_ms)
        self.last = now_ms
        return was

    def level(self, now_ms):
        """The level for the idle time at now_ms (a clock going back is not idle)."""
        self.now = now_ms
        idle = ticks_diff(now_ms, self.last)
        if self.sleep_ms and idle >= self.sleep_ms:
            return DEEP
        if self.off_ms and idle >= self.off_ms:
            return OFF
        if self.dim_ms and idle >= self.dim_ms:
            return DIM
        return AWAKE

    def drive_display(self, display, level, contrast):
        """Apply level to the panel when it changed: contrast, dim, or off. Called
        every frame after level(); also brings back a panel that stopped answering
        (display.ok False): init() about once a second, then the whole frame buffer
        (the screen as last drawn) is sent again; every 2 s display.check() asks a
        lit panel whether it lost its settings while it kept answering (a brownout),
        which brings it back the same way at once. Returns True when something was
        sent."""
        if ticks_diff(self.now, self._check) >= 0:
            self._check = ticks_add(self.now, _CHECK_MS)
            if level < OFF and hasattr(display, "check"):
                display.check()  # one status byte; ok turns False when it was reset
        if not getattr(display, "ok", True):
            if ticks_diff(self.now, self._retry) < 0:
                return False
            self._retry = ticks_add(self.now, _REVIVE_MS)
            try:
                if not display.init():
                    return False
                display.show()
            except OSError:
                return False
            self.revived += 1
            self.shown = -1     # re-send contrast / sleep below
        if level == self.shown:
            return False
        try:
            if level >= OFF:
                display.sleep(True)
            else:
                if self.shown >= OFF:
                    display.sleep(False)
                display.contrast(_DIM_CONTRAST if level == DIM and contrast > _DIM_CONTRAST
                                 else contrast)
        except OSError:
            return False  # the panel is gone; the fault handling re-inits it
        self.shown = level
        return True


def nap(ms):
    """Sleep ms between frames, lightly where the chip can (display off)."""
    try:
        import machine
        machine.lightsleep(ms)
        return
    except (ImportError, AttributeError, OSError):
        pass
    import time
    if hasattr(time, "sleep_ms"):
        time.sleep_ms(ms)
    else:
        time.sleep(ms / 1000)

