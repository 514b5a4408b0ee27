"""Dice from a byte source: unbiased d6 and the Common Die.

`Dice(source)`: `source(n)` returns `n` random bytes (`os.urandom` on the device,
`Seeded(seed)` in tests and self-play). `d6()` uses rejection sampling: a byte `b`
is accepted when `b < 252` (252 = 42 * 6, so every face gets exactly 42 byte
values) and gives `b % 6 + 1`; bytes 252..255 are thrown away. `common()` is a d6
mapped through COMMON_FACES: 1, 1, 5, 5, TWOX, WILD.

Bytes are fetched in small batches into a preallocated buffer, so a roll costs
no allocation of its own (the source may allocate once per batch).
"""

try:
    from micropython import const
except ImportError:
    def const(x):
        return x

TWOX = 7
WILD = 8
COMMON_FACES = bytes((1, 1, 5, 5, TWOX, WILD))

_BATCH = const(8)
_LIMIT = const(252)
_MASK32 = const(0xFFFFFFFF)


class Seeded:
    """Deterministic byte source (xorshift32), callable as `src(n) -> bytes`.

    For tests, replays and self-play only; the device uses os.urandom.
    """

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


class Dice:
    """Unbiased dice from a byte source."""

    def __init__(self, source):
        self._src = source
        if not callable(source):
            raise ValueError("dice source must be callable: source(n) -> bytes")
        self._buf = bytearray(_BATCH)
        self._pos = _BATCH  # empty: the first roll fetches a batch

    def _byte(self):
        if self._pos >= _BATCH:
            got = self._src(_BATCH)
            if len(got) != _BATCH:
                raise ValueError("dice source returned %d bytes, wanted %d" % (len(got), _BATCH))
            self._buf[:] = got
            self._pos = 0
        b = self._buf[self._pos]
        self._pos += 1
        return b

    def d6(self):
        while True:
            b = self._byte()
            if b < _LIMIT:
                return b % 6 + 1

    def common(self):
        return COMMON_FACES[self.d6() - 1]
