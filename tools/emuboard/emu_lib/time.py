# `time` for the emulated board (tools/emuboard/emuboard.py): the unix port's time module with
# ticks that start at 0 when the interpreter starts, as an ESP32's do at every boot.
# The unix port's ticks count from an arbitrary point of the host's monotonic clock,
# so firmware that (correctly for a device) takes 0 as "boot" would see days of idle
# time. `time` is an extensible built-in: this file, on the board's sys.path, wins,
# and `utime` still names the built-in one.
from utime import *  # noqa: F401,F403
import utime as _t

_PERIOD = 1 << 30  # MicroPython's ticks period (TICKS_MAX + 1)
_MS0 = _t.ticks_ms()
_US0 = _t.ticks_us()


def ticks_ms():
    return _t.ticks_diff(_t.ticks_ms(), _MS0) % _PERIOD


def ticks_us():
    return _t.ticks_diff(_t.ticks_us(), _US0) % _PERIOD
