"""The data files under data/ (firmware/data/ in the clone): tables the CPUs read in
place, a seek and a few bytes at a time, so they stay in flash and off the heap.

A table is proven good before HARD is offered or used: its generator (tools/gen_*
_policy.py, tools/generated.seal) ends it with a 12-byte trailer, b"PDTB", the length
of what comes before it and the Adler-32 of those bytes (both uint32 little-endian),
and hard_table() opens it only when the file's size, the trailer and the check value
agree (an interrupted copy, an empty, truncated, garbage or 0xFF-filled file does not).
What it returns is a Table: its reads stay inside the checked bytes, and a read that
would not (a bug, or a file changed since) is refused with a ValueError, which the CPU's
turn takes as a damaged table (ui.cpu_turn: the seat plays as NORMAL).
"""
from core.games import SHAKEUP

try:
    from micropython import const
except ImportError:
    def const(x):
        return x

MAGIC = b"PDTB"
TAIL = const(12)      # the trailer: MAGIC, length, Adler-32
_MOD = const(65521)   # Adler-32's prime
_CHUNK = const(256)   # bytes checked per read (each sum stays a small int)
# Smallest sizes that make a table (data/shakeup2.bin has exactly its 2 x 56 x 56
# entries; frenzy_round.bin at least its 560-byte header).
_SHAKEUP_SIZE = const(12544)
_FRENZY_MIN = const(560)

MISSING = const(1)   # state(): no file
DAMAGED = const(2)   # state(): a file that fails its check


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
    """The length of the table's checked bytes, or -1 when f is not a good table."""
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


class Table:
    """A checked table file: seek() and read() as a file's, inside its n checked bytes
    only (else ValueError: a refusal the CPU's turn catches)."""

    def __init__(self, f, n):
        self.f = f
        self.n = n
        self.at = 0

    def seek(self, at):
        if not 0 <= at < self.n:
            raise ValueError("HARD table: read outside it")
        self.at = at
        self.f.seek(at)

    def read(self, k):
        if self.at + k > self.n:
            raise ValueError("HARD table: read outside it")
        d = self.f.read(k)
        if d is None or len(d) != k:
            raise ValueError("HARD table: short read")
        self.at += k
        return d

    def close(self):
        self.f.close()


def _name(kind):
    return "shakeup2.bin" if kind == SHAKEUP else "frenzy_round.bin"


def _open(kind):
    # (Table or None, MISSING / DAMAGED / 0)
    f = open_data(_name(kind))
    if f is None:
        return None, MISSING
    try:
        n = _size(f)
    except (OSError, ValueError):
        n = -1
    if n < (_SHAKEUP_SIZE if kind == SHAKEUP else _FRENZY_MIN) or (
            kind == SHAKEUP and n != _SHAKEUP_SIZE):
        f.close()
        return None, DAMAGED
    return Table(f, n), 0


def hard_table(kind):
    """HARD's table for game kind (core.games' SHAKEUP or FRENZY), proven good and
    opened for reading in place, or None when it is missing or damaged (HARD is then
    not offered, and a saved HARD seat plays as NORMAL)."""
    return _open(kind)[0]


def state(kind):
    """0 when HARD's table for game kind is good, MISSING or DAMAGED."""
    t, why = _open(kind)
    if t is not None:
        t.close()
    return why


def has_hard(kind):
    """Whether HARD's table for game kind is there and good (opened, checked and
    closed: a moment's heap; the setup asks only when a seat would be HARD)."""
    return not state(kind)


def open_data(name):
    """data/<name> opened for binary reading, or None when it is missing. Looked for
    beside the core package (the clone, the device's filesystem), then at /data/."""
    try:
        here = __file__
    except NameError:  # a build without module file names
        here = ""
    i = here.rfind("core/")
    for path in ((here[:i] if i >= 0 else "") + "data/" + name, "/data/" + name):
        try:
            return open(path, "rb")
        except OSError:
            pass
    return None
