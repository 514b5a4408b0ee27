# portable: runs under MicroPython too
"""core.dice: rejection sampling, the seeded generator, the Common Die."""
from checks import raises as _raises
from core.dice import COMMON_FACES, TWOX, WILD, Dice
from core.seeded import Seeded


class Script:
    """A byte source that replays a fixed list (padding with zeros), recording requests."""

    def __init__(self, data):
        self.data = list(data)
        self.pos = 0
        self.calls = []

    def __call__(self, n):
        self.calls.append(n)
        out = bytearray(n)
        for i in range(n):
            if self.pos < len(self.data):
                out[i] = self.data[self.pos]
            self.pos += 1
        return bytes(out)


def test_rejects_bytes_252_to_255():
    src = Script([252, 253, 254, 255, 7, 255, 251, 0, 5])
    d = Dice(src)
    # 252..255 are skipped; 7 % 6 + 1 = 2; 251 % 6 + 1 = 6; 0 -> 1; 5 -> 6.
    assert d.d6() == 2
    assert d.d6() == 6
    assert d.d6() == 1
    assert d.d6() == 6


def test_every_accepted_byte_maps_evenly():
    # Each of the 256 byte values once: 4 rejected, 42 per face.
    d = Dice(Script(range(256)))
    counts = [0] * 7
    for _ in range(252):
        counts[d.d6()] += 1
    assert counts[1:] == [42] * 6


def test_bytes_fetched_in_small_batches():
    src = Script(range(100))
    d = Dice(src)
    for _ in range(20):
        d.d6()
    # 20 bytes consumed, fetched in a few batches of one small size, not one per die.
    assert 2 <= len(src.calls) <= 5
    assert len(set(src.calls)) == 1 and src.calls[0] <= 16


def test_short_source_is_an_error():
    d = Dice(lambda n: b"\x01")
    assert _raises(d.d6)
    assert _raises(Dice, 42)


def test_seeded_is_deterministic():
    a = Seeded(1234)
    b = Seeded(1234)
    assert a(64) == b(64)
    assert a(7) == b(7)
    c = Seeded(1235)
    assert Seeded(1234)(64) != c(64)
    # The stream does not depend on how it is requested (in multiples of 4).
    s = Seeded(99)
    assert s(4) + s(8) == Seeded(99)(12)
    assert len(Seeded(5)(3)) == 3


def test_seeded_zero_seed_is_not_stuck():
    out = Seeded(0)(64)
    assert len(set(out)) > 20


def test_seeded_bytes_look_uniform():
    data = Seeded(7)(256 * 64)
    counts = [0] * 256
    for b in data:
        counts[b] += 1
    # Expected 64 each; chi-square with 255 degrees of freedom, loose bound.
    chi = 0
    for c in counts:
        chi += (c - 64) * (c - 64)
    chi = chi / 64
    assert 150 < chi < 380, chi


def test_d6_from_seeded_is_fair():
    d = Dice(Seeded(2024))
    counts = [0] * 7
    n = 6000
    for _ in range(n):
        counts[d.d6()] += 1
    assert counts[0] == 0
    for c in counts[1:]:
        assert 850 < c < 1150, counts


def test_common_die_faces():
    assert COMMON_FACES == bytes((1, 1, 5, 5, TWOX, WILD))
    assert TWOX not in (1, 2, 3, 4, 5, 6) and WILD not in (1, 2, 3, 4, 5, 6)
    assert TWOX != WILD
    # Bytes 0..5 give d6 values 1..6, mapped to 1, 1, 5, 5, 2X, WILD.
    d = Dice(Script([0, 1, 2, 3, 4, 5, 255, 6]))
    got = [d.common() for _ in range(7)]
    assert got == [1, 1, 5, 5, TWOX, WILD, 1]


def test_common_die_from_seeded_hits_every_face():
    d = Dice(Seeded(3))
    seen = {}
    for _ in range(600):
        f = d.common()
        seen[f] = seen.get(f, 0) + 1
    assert sorted(seen) == [1, 5, TWOX, WILD]
    # 1 and 5 are on two faces each.
    assert seen[1] > seen[TWOX] and seen[5] > seen[WILD]
