"""HARD's tables proven good at open (core.data's hard_table and state): loaded only
for the check, and let go after it (the CPU's turn, the setup's screens leaving).

Each table's generator (tools/gen/gen_*_policy.py, tools/gen/generated.py seal) ends it with a
12-byte trailer: b"PDTC", the length of what comes before it and the CRC-32 of those
bytes (uint32 little-endian each). A file whose size, trailer and check value do not
agree (an interrupted copy; an empty, truncated, garbage or 0xFF-filled file) is not
used. CRC-32 by binascii, in C wherever the firmware runs (the ESP32 port's
MICROPY_CONFIG_ROM_LEVEL_EXTRA_FEATURES, ports/esp32/mpconfigport.h:14, turns on
MICROPY_PY_BINASCII_CRC32, py/mpconfig.h:2027-2028, v1.28.0; the unix and WebAssembly
ports and CPython have it too): the check of Shake Up's 12.5 KB table takes ~2 ms on an
ESP32 where a per-byte Adler-32 in Python took ~115 ms, inside the setup's frame that
opens a seat's choices (`make bench`, the counted frame model).
"""
import binascii

from core.games import SHAKEUP

from micropython import const

MAGIC = b"PDTC"
TAIL = const(12)      # the trailer: MAGIC, length, CRC-32
_CHUNK = const(256)   # bytes checked per read
# The sizes that make a table (before the trailer): shakeup2.bin has exactly its
# 2 x 56 x 56 entries, frenzy_round.bin at least its 560-byte header.
_SHAKEUP_SIZE = const(12544)
_FRENZY_MIN = const(560)


def crc32(f, n):
    """The CRC-32 of the next n bytes of file f (None when fewer can be read)."""
    c = 0
    buf = bytearray(_CHUNK)
    view = memoryview(buf)
    while n > 0:
        k = f.readinto(buf)
        if not k:
            return None
        if k > n:
            k = n
        c = binascii.crc32(view[:k], c)
        n -= k
    return c


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
    if crc32(f, n) != int.from_bytes(t[8:12], "little"):
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
