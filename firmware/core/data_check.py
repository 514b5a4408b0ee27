"""HARD's tables proven good at open (core.data's hard_table and state): loaded only
for the check, and let go after it (the CPU's turn, the setup's screens leaving).

Each table's generator (tools/gen/gen_*_policy.py, tools/gen/generated.py seal) ends it with a
12-byte trailer: b"PDTB", the length of what comes before it and the Adler-32 of those
bytes (uint32 little-endian each). A file whose size, trailer and check value do not
agree (an interrupted copy; an empty, truncated, garbage or 0xFF-filled file) is not
used. Adler-32 because core is pure Python (no binascii): two sums a byte.
"""
from core.games import SHAKEUP

from micropython import const

MAGIC = b"PDTB"
TAIL = const(12)      # the trailer: MAGIC, length, Adler-32
_MOD = const(65521)   # Adler-32's prime
_CHUNK = const(256)   # bytes checked per read (each sum stays a small int)
# The sizes that make a table (before the trailer): shakeup2.bin has exactly its
# 2 x 56 x 56 entries, frenzy_round.bin at least its 560-byte header.
_SHAKEUP_SIZE = const(12544)
_FRENZY_MIN = const(560)


def adler32(f, n):
    """The Adler-32 of the next n bytes of file f (None when fewer can be read)."""
    a = 1
    b = 0
    buf = bytearray(_CHUNK)
    while n > 0:
        k = f.readinto(buf)
        if not k:
            return None
        if k > n:
            k = n
        for i in range(k):
            a += buf[i]
            b += a
        a %= _MOD
        b %= _MOD
        n -= k
    return b << 16 | a


def _size(f):
    # The length of the table's checked bytes, or -1 when f is not a good table.
    f.seek(0, 2)
    end = f.tell()
    if end < TAIL:
        return -1
    f.seek(end - TAIL)
    t = f.read(TAIL)
    if t is None or len(t) != TAIL or t[:4] != MAGIC:
        return -1
    n = int.from_bytes(t[4:8], "little")
    if n != end - TAIL:
        return -1
    f.seek(0)
    if adler32(f, n) != int.from_bytes(t[8:12], "little"):
        return -1
    return n


def checked(kind, f):
    """f (the opened table of game kind, or None), when it is a good one; else None
    (f closed)."""
    if f is None:
        return None
    try:
        n = _size(f)
    except (OSError, ValueError):
        n = -1
    if n >= _FRENZY_MIN and (kind != SHAKEUP or n == _SHAKEUP_SIZE):
        f.seek(0)
        return f
    f.close()
    return None
