# Give the firmware a device's heap inside a larger interpreter heap: hold all free heap
# but `budget` bytes, so what the host side loaded first (simulated hardware, drivers,
# agents) does not count against the firmware. Portable: the unix port (and CPython,
# where gc.mem_free does not exist and nothing is held).
import gc

_ballast = []


def fence(budget):
    """Hold the free heap beyond budget bytes, in the largest blocks that fit (loading
    modules left holes, so one block the size of the rest may not exist)."""
    if not hasattr(gc, "mem_free"):
        return
    gc.collect()
    size = 1 << 20
    while size >= 256:
        spare = gc.mem_free() - budget
        if spare < 256:
            break
        try:
            _ballast.append(bytearray(min(size, spare - 64)))
        except MemoryError:  # free heap comes in pieces: take smaller ones
            size >>= 1
    gc.collect()
