"""Which firmware the simulator runs, and the compiled build it runs by default.

Under the MicroPython unix port, tools/sim.py and tools/screens.py run the firmware as
deployed: tools/build.py compiles firmware/ and the board profile into
build/sim-run/<board>/ (the device layout: main.py and boot.py as source, the rest .mpy,
the profile as board.mpy), and that folder goes on the child's path instead of
firmware/. `--source` (and CPython, which cannot load .mpy) runs firmware/*.py.

The build is redone only when its inputs changed: a stamp beside it records every
input's path, size and mtime (so an edited, added, removed or renamed file counts). A
lock file keeps simulators started at the same time from building over each other.
"""
import hashlib
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
RUN_DIR = os.path.join("build", "sim-run")  # under the root; build/ is git-ignored


class Firmware:
    """Where the child loads the firmware from: `path` (absolute) and `compiled`."""

    def __init__(self, path, compiled, root):
        self.path = path
        self.compiled = compiled
        self.root = root

    def describe(self, cpython=False):
        """'firmware: build/sim-run/sim (.mpy)' or 'firmware: firmware/ (.py source)'."""
        return describe(self.path, self.compiled, self.root, cpython)


def describe(folder, compiled, root, cpython=False):
    rel = os.path.relpath(folder, root)
    if rel.startswith(".."):
        rel = folder
    text = "firmware: %s (.mpy)" % rel if compiled else "firmware: %s/ (.py source)" % rel
    return text + (" on CPython" if cpython else "")


def _inputs(root, board):
    """(path, size, mtime_ns) of everything a build of `board` reads."""
    out = []
    fw = os.path.join(root, "firmware")
    for dirpath, dirnames, filenames in os.walk(fw):
        dirnames.sort()
        for fn in sorted(filenames):
            out.append(os.path.join(dirpath, fn))
    out.append(os.path.join(root, "boards", board + ".py"))
    out.append(os.path.join(root, "tools", "build.py"))
    rows = []
    for p in out:
        try:
            st = os.stat(p)
        except OSError:
            continue
        rows.append("%s %d %d" % (os.path.relpath(p, root), st.st_size, st.st_mtime_ns))
    return rows


def signature(root, board):
    return hashlib.sha256("\n".join(_inputs(root, board)).encode()).hexdigest()


def _build_module(root):
    """tools/build.py of the tree being run (--root may be another checkout)."""
    import importlib.util
    path = os.path.join(root, "tools", "build.py")
    spec = importlib.util.spec_from_file_location("_sim_fw_build", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


class BuildFailed(Exception):
    pass


def ensure_build(root, board, log=None):
    """Builds root/build/sim-run/<board>/ unless it is up to date; returns its path and
    whether it was (re)built. Raises BuildFailed with tools/build.py's message."""
    import fcntl
    root = os.path.abspath(root)
    out_root = os.path.join(root, RUN_DIR)
    os.makedirs(out_root, exist_ok=True)
    out_dir = os.path.join(out_root, board)
    stamp = os.path.join(out_root, "." + board + ".stamp")
    with open(os.path.join(out_root, ".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        sig = signature(root, board)
        try:
            with open(stamp) as f:
                if f.read().strip() == sig and os.path.isdir(out_dir):
                    return out_dir, False
        except OSError:
            pass
        if log:
            log("sim: building the firmware for %s into %s ..." % (
                board, os.path.relpath(out_dir, root)))
        mod = _build_module(root)
        try:
            mod.build(board, out_root, firmware=os.path.join(root, "firmware"),
                      boards_dir=os.path.join(root, "boards"))
        except mod.BuildError as e:
            raise BuildFailed(str(e)) from None
        except OSError as e:  # no mpy-cross to run
            raise BuildFailed("cannot run mpy-cross: %s" % e) from None
        with open(stamp, "w") as f:
            f.write(sig + "\n")
        return out_dir, True


def firmware_for(root, board, source=False, cpython=False, log=None):
    """The Firmware a run uses: the compiled build unless `source` or `cpython`."""
    root = os.path.abspath(root)
    if source or cpython:
        return Firmware(os.path.join(root, "firmware"), False, root)
    path, _ = ensure_build(root, board, log)
    return Firmware(path, True, root)


if __name__ == "__main__":  # tools/sim_build.py BOARD: build (if needed), print the path
    import time
    t = time.monotonic()
    p, built = ensure_build(ROOT, sys.argv[1] if len(sys.argv) > 1 else "sim")
    print("%s (%s in %.2f s)" % (p, "built" if built else "up to date", time.monotonic() - t))
