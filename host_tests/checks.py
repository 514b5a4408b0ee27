"""Small checks shared by the host tests. Portable: runs under MicroPython too."""


def raises(fn, *args):
    """True when fn(*args) raises ValueError (the firmware's error for bad input)."""
    try:
        fn(*args)
    except ValueError:
        return True
    return False
