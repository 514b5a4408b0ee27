"""Which firmware the simulator runs, and the compiled build it runs by default.

Under the MicroPython unix port, tools/simulator/sim.py and tools/simulator/screens.py run the firmware as
deployed: tools/flashing/build.py compiles firmware/ and the board profile into
build/sim-run/<board>@<version>/ (the device layout: main.py and boot.py as source, the
rest .mpy, the profile as board.mpy), and that folder goes on the child's path instead
of firmware/. `--source` (and CPython, which cannot load .mpy) runs firmware/*.py.

The version is a hash of every input's path, size and mtime (firmware/, the board
profile, tools/flashing/build.py), so the build is redone only when one was edited, added,
removed or renamed, into a new folder: a run keeps the files it started with while the
shared tree is edited and rebuilt (a game's modules load only when it is chosen). A run
holds a shared lock on its folder; a build removes the folders no run holds.
build/sim-run/<board> is a symlink to the newest.
"""
import fcntl
import hashlib
import os
import shutil
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
RUN_DIR = os.path.join("build", "sim-run")  # under the root; build/ is git-ignored


class Firmware:
    """Where the child loads the firmware from: `path` (absolute) and `compiled`; a
    build stays on disk until release() (or this process ends)."""

    def __init__(self, path, compiled, root, hold=None):
        self.path = path
        self.compiled = compiled
        self.root = root
        self.hold = hold

    def release(self):
        if self.hold is not None:
            self.hold.close()
            self.hold = None

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
    out.append(os.path.join(root, "tools", "flashing", "build.py"))
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
    """tools/flashing/build.py of the tree being run (--root may be another checkout)."""
    import importlib.util
    path = os.path.join(root, "tools", "flashing", "build.py")
    spec = importlib.util.spec_from_file_location("_sim_fw_build", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


class BuildFailed(Exception):
    pass


def _lock_path(folder):
    return folder + ".lock"


def _hold(folder):
    """A shared lock on a build folder: no other build removes it while we run."""
    f = open(_lock_path(folder), "a")
    fcntl.flock(f, fcntl.LOCK_SH)
    return f


def _sweep(out_root, board, keep):
    """Removes the other builds of `board` that no run holds."""
    prefix = board + "@"
    for name in os.listdir(out_root):
        path = os.path.join(out_root, name)
        if not name.startswith(prefix) or name.endswith(".lock") or path == keep:
            continue
        try:
            f = open(_lock_path(path), "a")
        except OSError:
            continue
        with f:
            try:
                fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                continue  # a run is using it
            shutil.rmtree(path, ignore_errors=True)
            os.remove(_lock_path(path))


def _link(out_root, board, target):
    """build/sim-run/<board> -> the newest build (for people looking; runs use theirs)."""
    link = os.path.join(out_root, board)
    tmp = link + ".link-%d" % os.getpid()
    try:
        if os.path.isdir(link) and not os.path.islink(link):
            shutil.rmtree(link)  # a plain folder from before builds were versioned
        os.symlink(os.path.basename(target), tmp)
        os.replace(tmp, link)
    except OSError:
        pass


def ensure_build(root, board, log=None, hold=False):
    """Builds root/build/sim-run/<board>@<version>/ unless it exists; returns its path
    and whether it was built now, plus (with hold=True) the shared lock that keeps it
    until closed. Raises BuildFailed with tools/flashing/build.py's message."""
    root = os.path.abspath(root)
    out_root = os.path.join(root, RUN_DIR)
    os.makedirs(out_root, exist_ok=True)
    sig = signature(root, board)
    out_dir = os.path.join(out_root, "%s@%s" % (board, sig[:12]))
    with open(os.path.join(out_root, ".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # one build at a time, and no sweep mid-start
        built = False
        for name in os.listdir(out_root):
            if name.startswith(".tmp-"):  # left by a build that was killed
                shutil.rmtree(os.path.join(out_root, name), ignore_errors=True)
        if not os.path.isfile(os.path.join(out_dir, ".complete")):
            if log:
                log("sim: building the firmware for %s into %s ..." % (
                    board, os.path.relpath(out_dir, root)))
            tmp_root = os.path.join(out_root, ".tmp-%d" % os.getpid())
            shutil.rmtree(tmp_root, ignore_errors=True)
            mod = _build_module(root)
            try:
                mod.build(board, tmp_root, firmware=os.path.join(root, "firmware"),
                          boards_dir=os.path.join(root, "boards"))
                shutil.rmtree(out_dir, ignore_errors=True)
                os.rename(os.path.join(tmp_root, board), out_dir)
            except mod.BuildError as e:
                raise BuildFailed(str(e)) from None
            except OSError as e:  # no mpy-cross to run
                raise BuildFailed("cannot run mpy-cross: %s" % e) from None
            finally:
                shutil.rmtree(tmp_root, ignore_errors=True)
            with open(os.path.join(out_dir, ".complete"), "w") as f:
                f.write(sig + "\n")
            built = True
        held = _hold(out_dir) if hold else None
        _link(out_root, board, out_dir)
        _sweep(out_root, board, out_dir)
    if hold:
        return out_dir, built, held
    return out_dir, built


def firmware_for(root, board, source=False, cpython=False, log=None):
    """The Firmware a run uses: the compiled build unless `source` or `cpython`."""
    root = os.path.abspath(root)
    if source or cpython:
        return Firmware(os.path.join(root, "firmware"), False, root)
    path, _, held = ensure_build(root, board, log, hold=True)
    return Firmware(path, True, root, held)


if __name__ == "__main__":  # tools/simulator/sim_build.py BOARD: build (if needed), print the path
    import time
    t = time.monotonic()
    p, built = ensure_build(ROOT, sys.argv[1] if len(sys.argv) > 1 else "sim")
    print("%s (%s in %.2f s)" % (p, "built" if built else "up to date", time.monotonic() - t))
