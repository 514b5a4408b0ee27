# portable helper (not a test module): shared by the test_hal_* modules
"""Helpers for the hardware-layer tests: a simulated board, bus transcripts, a bus that
only counts, and an allocation guard that works under MicroPython (heap_lock)."""
import machine

SIM = machine.SIM

try:
    import micropython
    _LOCK = hasattr(micropython, "heap_lock")
except ImportError:
    micropython = None
    _LOCK = False

MICROPYTHON = _LOCK


def board(profile="sim", **over):
    """Configure the simulated board; `over` replaces top-level profile entries."""
    if over:
        p = machine.load_profile(profile) if isinstance(profile, str) else profile
        d = {}
        for k in dir(p):
            if k[:1] != "_":
                d[k] = getattr(p, k)
        for k in over:
            d[k] = over[k]
        profile = d
    SIM.configure(profile)
    return SIM.profile


def i2c():
    bus = machine.SIM.profile.I2C
    return machine.I2C(bus.get("id", 0), scl=machine.Pin(bus["scl"]),
                       sda=machine.Pin(bus["sda"]), freq=bus.get("freq", 400000))


def writes(addr, since=0):
    """Payloads of the write transactions to addr in SIM.i2c_log[since:]."""
    return [d for (a, k, d) in SIM.i2c_log[since:] if a == addr and k == "w"]


def mark():
    """A position in the I2C log (the log is bounded; tests stay well below its size)."""
    return len(SIM.i2c_log)


def no_alloc(fn, *args):
    """Run fn(*args) with the heap locked (MicroPython): any allocation raises
    MemoryError. On CPython it just runs fn."""
    if not _LOCK:
        return fn(*args)
    n = len(args)
    a = args[0] if n > 0 else None
    b = args[1] if n > 1 else None
    micropython.heap_lock()
    try:  # no star-call inside the lock: it allocates its argument array
        if n == 0:
            r = fn()
        elif n == 1:
            r = fn(a)
        else:
            r = fn(a, b)
    finally:
        micropython.heap_unlock()
    return r


class CountingBus:
    """An I2C bus that answers every write and only counts (allocation-free)."""

    def __init__(self):
        self.writes = 0
        self.bytes = 0

    def writeto(self, addr, buf, stop=True):
        self.writes += 1
        self.bytes += 1 + len(buf)
        return len(buf)

    def writevto(self, addr, vector, stop=True):
        self.writes += 1
        n = 1
        for b in vector:
            n += len(b)
        self.bytes += n
        return n - 1

    def readfrom_into(self, addr, buf, stop=True):
        """A read answered with zeros (a panel's status: on, ready)."""
        self.bytes += 1 + len(buf)
        for i in range(len(buf)):
            buf[i] = 0


def events(q):
    """The queue's events as a list of ints, then clear it."""
    out = [q.buf[i] for i in range(q.n)]
    q.clear()
    return out
