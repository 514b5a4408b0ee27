"""The never-lose tests' rig: the simulated board, a file's text, main.py booted on a
folder as the device's root."""


def _sim():
    import machine
    return machine.SIM


def _text(path):
    f = open(path)
    try:
        return f.read()
    finally:
        f.close()


def _main(root, board):
    """Boot the way the device does: firmware/main.py, with the guard's root at root
    and `board` (a module-like profile, or a folder holding a board.py) as the profile."""
    import sys
    from system import guard
    sys.modules.pop("board", None)
    added = None
    if isinstance(board, str):
        sys.path.insert(0, board)
        added = board
    else:
        sys.modules["board"] = board
    saved = guard.ROOT if hasattr(guard, "ROOT") else None
    guard.ROOT = root
    guard.WAIT_MS = 0
    try:
        exec(_text("firmware/main.py"), {"__name__": "main"})
    finally:
        guard.ROOT = saved
        if added:
            sys.path.remove(added)
        sys.modules.pop("board", None)
