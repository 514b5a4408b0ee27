"""Input events: one byte each, kind in the high nibble, button in the low nibble.

Drivers push into one preallocated Queue; the app reads `buf[0:n]` once per frame and
then calls `clear()`. Shake events carry button 0.
"""
try:
    from micropython import const
except ImportError:
    def const(x):
        return x

# Logical buttons (the low nibble).
PREV = const(0)
NEXT = const(1)
OK = const(2)
BACK = const(3)

# Event kinds (the high nibble).
PRESS = const(0x10)
RELEASE = const(0x20)
LONG = const(0x30)
REPEAT = const(0x40)
SHAKE_START = const(0x50)
SHAKE_END = const(0x60)

_KIND = const(0xF0)
_BUTTON = const(0x0F)

NAMES = ("PREV", "NEXT", "OK", "BACK")


def kind(ev):
    return ev & _KIND


def button(ev):
    return ev & _BUTTON


class Queue:
    """A fixed-size byte queue; `put` drops the event when full and never allocates."""

    def __init__(self, size=32):
        if size < 1 or size > 255:
            raise ValueError("Queue size must be 1..255")
        self.buf = bytearray(size)
        self.size = size
        self.n = 0
        self.dropped = 0

    def put(self, ev):
        n = self.n
        if n < self.size:
            self.buf[n] = ev
            self.n = n + 1
        elif self.dropped < 255:
            self.dropped += 1

    def clear(self):
        self.n = 0

    def __len__(self):
        return self.n

    def has(self, ev):
        """True when `ev` is among this frame's events."""
        buf = self.buf
        for i in range(self.n):
            if buf[i] == ev:
                return True
        return False
