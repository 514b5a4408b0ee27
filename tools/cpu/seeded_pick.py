"""A uniform choice among n from core.dice.Seeded, for the self-play tools.

Runs under CPython and the MicroPython unix port (no `random`).
"""


class Pick:
    """pick(n): a uniform index in range(n), by rejection sampling on seeded bytes."""

    def __init__(self, seed):
        from core.seeded import Seeded  # the caller has put firmware/ on sys.path
        self._src = Seeded(seed)

    def __call__(self, n):
        if n <= 1:
            return 0
        if n > 256:  # one byte per draw
            raise ValueError("too many choices")
        lim = 256 - 256 % n
        while True:
            b = self._src(1)[0]
            if b < lim:
                return b % n
