"""Seeded(seed): a deterministic byte source (xorshift32), callable as `src(n) -> bytes`.

For tests, replays and self-play only (the device uses os.urandom), so it lives apart
from core.dice, which the device holds all along; `from core.dice import Seeded` still
works (core.dice loads this module when the name is asked for).
"""

from micropython import const

_MASK32 = const(0xFFFFFFFF)


class Seeded:
    """Deterministic byte source (xorshift32), callable as `src(n) -> bytes`."""

    def __init__(self, seed=1):
        if not isinstance(seed, int):
            raise ValueError("seed must be an int")
        x = seed & _MASK32
        # xorshift32 is stuck at 0; any other state works.
        self._x = x if x else 0x9E3779B9

    def __call__(self, n):
        out = bytearray(n)
        x = self._x
        i = 0
        while i < n:
            x ^= (x << 13) & _MASK32
            x ^= x >> 17
            x ^= (x << 5) & _MASK32
            # Four bytes per step, high byte first.
            out[i] = x >> 24
            if i + 1 < n:
                out[i + 1] = (x >> 16) & 0xFF
            if i + 2 < n:
                out[i + 2] = (x >> 8) & 0xFF
            if i + 3 < n:
                out[i + 3] = x & 0xFF
            i += 4
        self._x = x
        return bytes(out)
