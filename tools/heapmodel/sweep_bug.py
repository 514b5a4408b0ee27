"""MicroPython v1.28.0's split heap gives back an added area that still holds a live
object: py/gc.c:727-734, gc_sweep_free_blocks frees an added area when its last used
block is 0, which is also the case when its one live object is a single block at block 0.

Run on the heap model (tools/bench/mp32.py --heap), the ESP32's first area and the
one-growth ESP-IDF heap:

    HEAPMODEL_IDF=114704 build/mp32/obj-heap/micropython -X heapsize=56k \\
        tools/heapmodel/sweep_bug.py [2]

1. the first area is filled (pieces held); 2. a one-block tuple (two small ints) is
allocated: nothing fits, so the heap grows and the tuple is the new area's block 0;
3. the pieces go, and a collection gives the new area back while the tuple is still
referenced; 4. the heap grows again and the same memory becomes the new area: a new
one-block tuple is allocated at the old one's address, and the old one's contents are
the new one's. With the argument 2 the first object is a two-block tuple: the area is
kept. Prints `R key values` lines (host_tests/test_heapmodel.py reads them).
"""
import gc
import sys

import heapmodel

SPLIT = 57360  # what gc.mem_free() adds on the model at the one-growth total (py/modgc.c:67-69)


def out(key, *vals):
    print("R", key, *vals)


def fill(pieces):
    """Fill every free block of the first area with a one-block tuple held in `pieces`
    (one block always fits where a block is free: the heap cannot grow here)."""
    gc.collect()
    i = 0
    n = (gc.mem_free() - SPLIT) // 16
    while n > 0:
        while n > 0:
            pieces[i] = (i, i)  # 8 + 2 x 4 bytes (of run-time values: a constant is no object)
            i += 1
            n -= 1
        n = (gc.mem_free() - SPLIT) // 16
    return i


def main(blocks):
    pieces = [None] * 3600
    a = 1200 + blocks
    b = 3400 + blocks
    n = fill(pieces)
    # The first object the heap grows for: one block (8 + 2 x 4 bytes) or two (8 + 6 x 4),
    # made at run time (a constant tuple would be the bytecode's).
    x = (a, b) if blocks == 1 else (a, b, a, b, a, b)
    out("grown", heapmodel.stats()[0], n, "x", x[0], x[1])
    for i in range(n):
        pieces[i] = None
    gc.collect()
    st = heapmodel.stats()
    out("after_collect", "added", st[0], "freed", st[1], "held", st[2])
    fill(pieces)
    y = (a + 1, b + 1) if blocks == 1 else (a + 1, b + 1, a, b, a, b)
    st = heapmodel.stats()
    out("regrown", "added", st[0], "freed", st[1], "same_address", int(id(x) == id(y)))
    out("x_now", x[0], x[1])


main(int(sys.argv[1]) if len(sys.argv) > 1 else 1)
