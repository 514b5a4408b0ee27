"""Dice from a byte source: unbiased d6 and the Common Die.

`Dice(source)`: `source(n)` returns `n` random bytes (`os.urandom` on the device,
`Seeded(seed)` in tests and self-play). `d6()` uses rejection sampling: a byte `b`
is accepted when `b < 252` (252 = 42 * 6, so every face gets exactly 42 byte
values) and gives `b % 6 + 1`; bytes 252..255 are thrown away. `common()` is a d6
mapped through COMMON_FACES: 1, 1, 5, 5, TWOX, WILD.

Bytes are fetched in small batches into a preallocated buffer, so a roll costs
no allocation of its own (the source may allocate once per batch).
"""

from micropython import const

TWOX = const(7)
WILD = const(8)
COMMON_FACES = bytes((1, 1, 5, 5, TWOX, WILD))

_BATCH = const(8)
_LIMIT = const(252)


class Dice:
    """Unbiased dice from a byte source."""

    def __init__(self, source):
        self._src = source
        if not callable(source):
            raise ValueError("dice source must be callable: source(n) -> bytes")
        # The batch, then at index _BATCH the read position (_BATCH: empty, so the
        # first roll fetches a batch): one object instead of two attributes.
        self._buf = bytearray(_BATCH + 1)
        self._buf[_BATCH] = _BATCH

    def d6(self):
        buf = self._buf
        while True:
            pos = buf[_BATCH]
            if pos >= _BATCH:
                got = self._src(_BATCH)
                if len(got) != _BATCH:
                    raise ValueError("dice source returned %d bytes, wanted %d" % (len(got), _BATCH))
                buf[0:_BATCH] = got
                pos = 0
            buf[_BATCH] = pos + 1
            if buf[pos] < _LIMIT:
                return buf[pos] % 6 + 1

    def common(self):
        return COMMON_FACES[self.d6() - 1]
