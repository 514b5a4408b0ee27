"""The data files under data/ (firmware/data/ in the clone): tables the CPUs read in
place, a seek and a few bytes at a time, so they stay in flash and off the heap.

A table is proven good before HARD is offered or used: its generator ends it with a
trailer (size and check value) that core.data_check reads back at open (loaded only
for it: the CPU's turn lets it go once the table is open). A read the CPUs make past
what the file holds is refused (ValueError) by their lookups, which the CPU's turn
takes as a damaged table (ui.cpu_fault: the seat plays as NORMAL).
"""
from core.games import SHAKEUP

from micropython import const

MISSING = const(1)    # state(): no file
DAMAGED = const(2)    # state(): a file that fails its check


def name(kind):
    """The file name of HARD's table for game kind."""
    return "shakeup2.bin" if kind == SHAKEUP else "frenzy_round.bin"


def hard_table(kind):
    """HARD's table for game kind (core.games' SHAKEUP or FRENZY), proven good and
    opened for reading in place, or None when it is missing or damaged (HARD is then
    not offered, and a saved HARD seat plays as NORMAL)."""
    from core.data_check import checked
    return checked(kind, open_data(name(kind)))


def state(kind):
    """0 when HARD's table for game kind is good, MISSING or DAMAGED."""
    f = open_data(name(kind))
    if f is None:
        return MISSING
    from core.data_check import checked
    f = checked(kind, f)
    if f is None:
        return DAMAGED
    f.close()
    return 0


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
