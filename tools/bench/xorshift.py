"""xorshift32: the scripted players' choices and a byte source for the firmware's Dice.

Shared by tools/bench/pilot.py (benchmarks) and host_tests/cut_driver.py (power-cut
and soak runs); runs under MicroPython (unix and WebAssembly ports) and CPython.
"""


class XorShift:
    """The same seed gives the same stream. below(n) draws from the state shifted
    right by `low` bits: each player keeps the stream its recorded runs were made with
    (the pilot drops the low 8 bits, the cut driver none)."""

    def __init__(self, seed, low=8):
        self.s = (seed * 2654435761 + 12345) & 0xFFFFFFFF or 1
        self.low = low

    def next(self):
        s = self.s
        s ^= (s << 13) & 0xFFFFFFFF
        s ^= s >> 17
        s ^= (s << 5) & 0xFFFFFFFF
        self.s = s
        return s

    def below(self, n):
        return (self.next() >> self.low) % n

    def __call__(self, n):  # n random bytes: the Dice's source
        out = bytearray(n)
        for i in range(n):
            out[i] = self.next() >> 24
        return bytes(out)
