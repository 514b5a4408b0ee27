"""Small checks shared by the host tests. Portable: runs under MicroPython too."""


def raises(fn, *args):
    """True when fn(*args) raises ValueError (the firmware's error for bad input)."""
    try:
        fn(*args)
    except ValueError:
        return True
    return False


def mix(*xs):
    """A 32-bit hash of small ints (FNV-1a style): seeds keyed on (game, round, seat,
    ...) so that games played in a different order get the same dice and choices."""
    h = 0x811C9DC5
    for x in xs:
        h = ((h ^ (x & 0xFFFF)) * 0x01000193) & 0xFFFFFFFF
        h ^= h >> 13
    return h


def rmtree(path):
    """Removes a folder and all in it; quietly, whatever is (not) there."""
    import os
    try:
        names = os.listdir(path)
    except OSError:
        return
    for n in names:
        p = path + "/" + n
        try:
            os.remove(p)
        except OSError:
            rmtree(p)
    try:
        os.rmdir(path)
    except OSError:
        pass


def tmpdir(name):
    """A fresh folder of its own (several test runs may go on at once)."""
    import os
    tag = "".join("%02x" % b for b in os.urandom(4))
    base = "/tmp/pocketdice_" + name + "_" + tag
    rmtree(base)
    os.mkdir(base)
    return base
