"""The firmware's interned names (qstrs) charged as the device pays for them, for a run
fenced to a budget on the unix port (tools/bench/harness.py, tools/sim/simrun.py).

Interned names live in pools, each twice the last (py/qstr.c qstr_add at v1.28.0). On
the device the firmware's names start the dynamic pools nearly empty and pay for all of
them (about 4.4 KB on 32 bits for ~550 names). Here the runner's own names (pilot,
simulator, stand-ins) come first, and where their last pool happens to end would decide
what the firmware pays inside the fence: 0, or a whole 9 KB pool of 1280 entries opened
in the middle of a game. So charge() opens, before the fence, a pool with room for the
firmware's names (counted in a run without a budget: print_count() before and after),
and the fence takes the device's cost of that many names off the budget instead (cost()).
Portable: runs under MicroPython and CPython (where it does nothing).
"""
import gc
import sys

try:
    import micropython
except ImportError:
    micropython = None

MP = hasattr(gc, "mem_alloc")
QSTR_INIT = 10  # py/qstr.c (v1.28.0): MICROPY_ALLOC_QSTR_ENTRIES_INIT, the first pool's size


def entry():
    """Bytes per pool entry: a pointer, a 2-byte hash and a 1-byte length
    (MICROPY_QSTR_BYTES_IN_HASH 2 at the unix and ESP32 ports' feature level)."""
    return (4 if sys.maxsize < 1 << 32 else 8) + 3


def cost(names):
    """What `names` new qstrs cost in pools on the device, where the firmware's names
    are nearly the only dynamic ones: pools of 10, 20, 40, ... entries (each twice the
    last, py/qstr.c qstr_add), a 6-word header each, in 16-byte GC blocks."""
    total = 0
    cap = 0
    n = QSTR_INIT
    word = entry() - 3
    while cap < names:
        total += (6 * word + entry() * n + 15) // 16 * 16
        cap += n
        n *= 2
    return total


def charge(names):
    """Open a pool with room for the firmware's `names` new qstrs now, before the fence,
    by interning probe names until one opens; return what those names cost in pools on
    the device (cost()), which the fence takes off the budget. names <= 0: nothing."""
    if not MP or names <= 0:
        return 0
    need = 6 * (entry() - 3) + entry() * (names + 8)
    gc.collect()
    for i in range(20000):
        a = gc.mem_alloc()
        getattr(None, "qpool%d" % i, None)
        if gc.mem_alloc() - a >= need:
            return cost(names)
        if i % 64 == 63:
            gc.collect()
    raise ValueError("qstr_pools: no pool for %d names opened" % names)


def open_next():
    """For a frozen build's estimate (harness PRELOAD), which keeps the firmware's names
    in flash: the preloaded names fill the current pool almost to its end, and the few
    made at run time (boot-only modules) would open the next one (~14 KB on the 64-bit
    unix port) after the fence. Probe names are interned here, before it, until that
    pool has opened."""
    if not MP:
        return
    for i in range(0, 4000, 10):
        gc.collect()
        a = gc.mem_alloc()
        for j in range(i, i + 10):
            getattr(None, "qpool%d" % j, None)
        gc.collect()
        if gc.mem_alloc() - a > 2048:
            return


def print_count():
    """Prints the interpreter's qstr figures (`qstr pool: ... n_qstr=N ...`) on stdout,
    for a run without a budget to count the firmware's names: N after less N before."""
    if micropython is not None and hasattr(micropython, "qstr_info"):
        micropython.qstr_info()
