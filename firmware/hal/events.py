"""Input events: one byte each, kind in the high nibble, button in the low nibble.

Drivers push into one preallocated Queue; the app reads `buf[0:n]` once per frame and
then calls `clear()`. Shake events carry button 0.
"""
from micropython import const

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


class Queue:
    """A fixed-size byte queue; `put` drops the event when full and never allocates."""

    def __init__(self, size=32):
        if size < 1 or size > 255:
            raise ValueError("Queue size must be 1..255")
        self.buf = bytearray(size)
        self.n = 0

    def put(self, ev):
        n = self.n
        if n < len(self.buf):
            self.buf[n] = ev
            self.n = n + 1

    def clear(self):
        self.n = 0
