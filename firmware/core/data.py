"""The data files under data/ (firmware/data/ in the clone): tables the CPUs read in
place, a seek and a few bytes at a time, so they stay in flash and off the heap."""
from core.games import SHAKEUP


def hard_table(kind):
    """HARD's table for game kind (core.games' SHAKEUP or FRENZY), opened for
    reading in place, or None when it is missing (HARD is then not offered, and a
    saved HARD seat plays as NORMAL)."""
    return open_data("shakeup2.bin" if kind == SHAKEUP else "frenzy_round.bin")


def has_hard(kind):
    """Whether HARD's table for game kind is there (opened and closed: a moment's
    heap; the setup asks only when a seat would be HARD)."""
    f = hard_table(kind)
    if f is None:
        return False
    f.close()
    return True


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
