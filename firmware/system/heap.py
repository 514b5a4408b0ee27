"""The heap's one growth, taken at boot and held for the firmware's life.

A plain ESP32 starts MicroPython's heap as one 56 KB area and adds a second when a
collection cannot serve an allocation; a sweep that finds an added area's last used
block to be 0 gives the area back (py/gc.c:727-734 at v1.28.0). That is also the case
when the area's one live object is a single block at block 0: the area is given back
under it, and the object's memory is the next area's (README "The split heap"). The
games need the growth (every path but the menu's), so it is taken here, before any
other object can be the first in the new area: the first area is filled with two-block
pieces until one lands in a new area, a two-block pin is made there, and the pieces
go. The pin keeps the area's last used block above 0, so it is never given back nor
taken again (no churn either). Costs: 32 bytes kept; at boot a few hundred pieces.
Where the heap cannot grow (the unix port's gauge, a heap of one area), the pieces
run out or MemoryError comes first, and nothing is kept.
"""
import gc

from micropython import const

_SLOTS = const(2048)  # pieces: 64 KB on the ESP32, more than a first area's 56 KB
_BATCH = const(64)    # pieces between two looks at the heap's size


def hold_growth():
    """Grow the heap once and return the pin holding the added area (None when the heap
    did not grow)."""
    if not hasattr(gc, "mem_alloc"):  # CPython
        return None
    gc.collect()
    try:
        # The pools' bytes plus the largest block the system could add (py/modgc.c:67-69):
        # it changes only when an area is added or given back.
        pin = _grow(gc.mem_alloc() + gc.mem_free())
    except MemoryError:
        pin = None
    gc.collect()  # the pieces
    return pin


def _grow(size):
    pieces = [None] * _SLOTS  # type: list
    try:
        i = 0
        while i < _SLOTS and gc.mem_alloc() + gc.mem_free() == size:
            n = i + _BATCH
            while i < n and i < _SLOTS:
                pieces[i] = (i, i, i, i, i, i)  # 8 + 6 x 4 bytes: two blocks
                i += 1
        if gc.mem_alloc() + gc.mem_free() == size:
            return None
        # The last pieces did not fit the first area: no run of two blocks is free
        # there, so this one lands in the new area too.
        return (i, i, i, i, i, i)
    finally:
        # Emptied, not only dropped: the C stack is scanned conservatively, and a stale
        # pointer to the list left there would keep every piece.
        pieces.clear()
