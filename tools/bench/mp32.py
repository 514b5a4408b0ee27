"""The 32-bit MicroPython unix port, built from a source tree: the bench's memory gauge.

Usage: python tools/bench/mp32.py [--src DIR_OR_TAR_GZ] [--print]     (or `make mp32`)

The ESP32 is a 32-bit machine: objects are about half their 64-bit size and GC blocks are
16 bytes. The unix port built with MICROPY_FORCE_32BIT=1 has those sizes, and
`-X heapsize` bounds its heap, so it measures what the device pays.

The source is MICROPY_SRC (environment) or --src: a MicroPython source tree (a clone at
any tag, or an unpacked release) or a .tar.gz of one. The default is the project's copy,
../shared/toolchain/micropython-1.28.0-src.tar.gz beside the repository (from a git
worktree: beside the main checkout, if not beside the worktree). A tarball is
unpacked under build/mp32/src/; the objects and the binary go to build/mp32/obj/ (make's
BUILD=), so a clone given as the source is not written to. `--frame`: the frame model's
build, the same port with tools/bench's harness frozen in (FROZEN_TOOLS), in
build/mp32/obj-frame/. `--heap`: the heap model's build, the same port with the ESP32's
split heap (tools/heapmodel/: its variant, README "The split heap"), in
build/mp32/obj-heap/. The build runs again only
when the binary is missing or the source changed (build/mp32/stamp records which).

binary(required) -> path of the binary, or None after one line on stderr saying why
(no source, no compiler for -m32, a failed build). required=None means "under CI=true":
then a missing binary raises SystemExit instead (a failure, not a skip). A build holds
build/mp32/.lock, so processes that want the binary at once (parallel tests, a second
make) wait for one build instead of each unpacking and building into the same folders.
"""
import argparse
import fcntl
import hashlib
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DEFAULT_SRC = os.path.join(os.path.dirname(ROOT), "shared", "toolchain",
                           "micropython-1.28.0-src.tar.gz")
OUT = os.path.join(ROOT, "build", "mp32")
OBJ = os.path.join(OUT, "obj")
BIN = os.path.join(OBJ, "micropython")
STAMP = os.path.join(OUT, "stamp")

# /work/shared/toolchain/README.md: the line that built the trimmed v1.28.0 tree. The
# modules left out (ffi, btree, ssl) need libraries the trimmed tree does not carry, and
# the firmware uses none of them; FROZEN_MANIFEST= keeps mpy-cross out of the build.
MAKE_VARS = ("VARIANT=standard", "MICROPY_FORCE_32BIT=1", "MICROPY_PY_FFI=0",
             "MICROPY_PY_BTREE=0", "MICROPY_PY_SSL=0", "MICROPY_SSL_MBEDTLS=0",
             "MICROPY_SSL_AXTLS=0", "FROZEN_MANIFEST=")


# The frame model's tools (tools/bench/frame_model.py), frozen into a second build
# (FRAME_BIN): their bytecode is then outside the heap, as on the device, where a
# collection marks the firmware alone. Their objects (the pilot, the stand-ins) stay on it.
FROZEN_TOOLS = ("harness.py", "pilot.py", "modes.py", "monkey.py", "xorshift.py",
                "frametime.py")
FRAME_OBJ = os.path.join(OUT, "obj-frame")
FRAME_BIN = os.path.join(FRAME_OBJ, "micropython")
FRAME_STAMP = os.path.join(OUT, "stamp-frame")
TOOLS = os.path.join(ROOT, "tools", "bench")
# ... and the `icount` module (tools/bench/icount/module: the counted frame model asks
# the instruction count of it; a no-op outside valgrind).
CMODULES = os.path.join(TOOLS, "icount")

# The heap model (`--heap`): the same port with the ESP32's split heap, its variant
# (config, port hooks, the `heapmodel` module) in tools/heapmodel/, in build/mp32/obj-heap/.
HEAPMODEL = os.path.join(ROOT, "tools", "heapmodel")
HEAP_OBJ = os.path.join(OUT, "obj-heap")
HEAP_BIN = os.path.join(HEAP_OBJ, "micropython")
HEAP_STAMP = os.path.join(OUT, "stamp-heap")


class Missing(Exception):
    """No 32-bit interpreter: the message says why, in one line."""


def in_ci():
    return os.environ.get("CI", "").lower() in ("1", "true", "yes")


def _main_checkout():
    """In a git worktree, the main checkout (whose ../shared holds the toolchain)."""
    try:
        p = subprocess.run(["git", "rev-parse", "--path-format=absolute", "--git-common-dir"],
                           cwd=ROOT, capture_output=True, text=True, timeout=10)
    except OSError:
        return None
    common = p.stdout.strip()
    return os.path.dirname(common) if p.returncode == 0 and common else None


def source(src=None):
    """The source to build: src, MICROPY_SRC, else the shared tarball beside the
    repository (or beside the main checkout, from a git worktree)."""
    src = src or os.environ.get("MICROPY_SRC")
    if src:
        return os.path.abspath(src)
    if not os.path.exists(DEFAULT_SRC):
        main = _main_checkout()
        alt = main and os.path.join(os.path.dirname(main), "shared", "toolchain",
                                    os.path.basename(DEFAULT_SRC))
        if alt and os.path.exists(alt):
            return alt
    return DEFAULT_SRC


def identity(src):
    """What the stamp compares: the source's path and its content's fingerprint (a
    tarball's size and mtime; for a tree, the sizes and mtimes of py/, extmod/ and
    ports/unix/, what the binary is made of)."""
    h = hashlib.sha256(src.encode())
    if os.path.isfile(src):
        st = os.stat(src)
        h.update(b"%d %d" % (st.st_size, int(st.st_mtime)))
        return h.hexdigest()
    for sub in ("py", "extmod", "shared", os.path.join("ports", "unix")):
        for dirpath, dirnames, filenames in os.walk(os.path.join(src, sub)):
            dirnames[:] = sorted(d for d in dirnames if not d.startswith("build"))
            for fn in sorted(filenames):
                st = os.stat(os.path.join(dirpath, fn))
                h.update(("%s/%s %d %d\n" % (dirpath, fn, st.st_size, int(st.st_mtime))).encode())
    return h.hexdigest()


def compiler_ok():
    """Whether gcc can link a 32-bit program (Debian: gcc-multilib)."""
    cc = shutil.which("gcc")
    if not cc:
        return False
    d = tempfile.mkdtemp(prefix="mp32_")
    try:
        c = os.path.join(d, "t.c")
        with open(c, "w") as f:
            f.write("#include <stdio.h>\nint main(void) { puts(\"32\"); return 0; }\n")
        p = subprocess.run([cc, "-m32", "-o", os.path.join(d, "t"), c],
                           capture_output=True, timeout=60)
        return p.returncode == 0
    finally:
        shutil.rmtree(d, ignore_errors=True)


def _tree(src):
    """The source tree to build: src itself, or the tarball unpacked under OUT/src."""
    if os.path.isdir(src):
        return src
    dest = os.path.join(OUT, "src")
    shutil.rmtree(dest, ignore_errors=True)
    os.makedirs(dest)
    with tarfile.open(src) as t:
        if hasattr(tarfile, "data_filter"):  # Python 3.12+ (and patched 3.8-3.11)
            t.extractall(dest, filter="data")
        else:
            t.extractall(dest)
    # A release tarball holds one top directory (micropython-1.28.0/).
    top = [n for n in os.listdir(dest) if not n.startswith(".")]
    return os.path.join(dest, top[0]) if len(top) == 1 and not os.path.isdir(
        os.path.join(dest, "py")) else dest


def _frame_vars(tree):
    """The frame build's make variables: the manifest of FROZEN_TOOLS, the tree's own
    mpy-cross (built first, apart: the port's make would pass it this build's
    variables), and an empty micropython-lib (the trimmed tree has none; the manifest
    uses none)."""
    xbuild = os.path.join(OUT, "mpy-cross")
    p = subprocess.run(["make", "-C", os.path.join(tree, "mpy-cross"),
                        "-j%d" % (os.cpu_count() or 2), "BUILD=" + xbuild],
                       capture_output=True, text=True)
    cross = os.path.join(xbuild, "mpy-cross")
    if p.returncode != 0 or not os.path.exists(cross):
        raise Missing("the tree's mpy-cross did not build (make exit %d)" % p.returncode)
    lib = os.path.join(OUT, "no-lib")
    os.makedirs(lib, exist_ok=True)
    with open(os.path.join(lib, "README.md"), "w") as f:
        f.write("Empty: the frame build's manifest (tools/bench/mp32.py) uses no package.\n")
    man = os.path.join(OUT, "frame_manifest.py")
    with open(man, "w") as f:
        f.write("# tools/bench/mp32.py: the frame model's tools, frozen\n")
        for name in FROZEN_TOOLS:
            f.write("module(%r, base_path=%r)\n" % (name, TOOLS))
    return ["FROZEN_MANIFEST=" + man, "MICROPY_MPYCROSS=" + cross, "MPY_LIB_DIR=" + lib,
            "USER_C_MODULES=" + CMODULES]


def build(src, quiet=True, frame=False, heap=False):
    """Build the binary from src (frame: the frame model's, FRAME_BIN; heap: the heap
    model's, HEAP_BIN); raises Missing with the reason."""
    if not os.path.exists(src):
        raise Missing("no MicroPython source at %s (set MICROPY_SRC to a tree or .tar.gz)" % src)
    if not compiler_ok():
        raise Missing("gcc cannot link -m32 programs (Debian: apt-get install gcc-multilib)")
    tree = _tree(src)
    if not os.path.isfile(os.path.join(tree, "ports", "unix", "Makefile")):
        raise Missing("%s is not a MicroPython source tree (no ports/unix/Makefile)" % src)
    obj, out = (FRAME_OBJ, FRAME_BIN) if frame else (HEAP_OBJ, HEAP_BIN) if heap else (OBJ, BIN)
    shutil.rmtree(obj, ignore_errors=True)
    cmd = ["make", "-C", os.path.join(tree, "ports", "unix"), "-j%d" % (os.cpu_count() or 2),
           "BUILD=" + obj]
    if frame:  # its manifest in place of the gauge's empty FROZEN_MANIFEST=
        cmd += [v for v in MAKE_VARS if not v.startswith("FROZEN_MANIFEST=")]
        cmd += _frame_vars(tree)
    elif heap:  # its variant, out of the tree (the tree is not written to)
        cmd += [v for v in MAKE_VARS if not v.startswith("VARIANT=")]
        cmd += ["VARIANT_DIR=" + HEAPMODEL]
    else:
        cmd += MAKE_VARS
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0 or not os.path.exists(out):
        log = os.path.join(OUT, "build.log")
        with open(log, "w") as f:
            f.write(p.stdout + p.stderr)
        raise Missing("the 32-bit build failed (make exit %d; see %s)" % (
            p.returncode, os.path.relpath(log, ROOT)))
    if not quiet:
        sys.stderr.write("mp32: built %s\n" % os.path.relpath(out, ROOT))


def _tools_identity(heap=False):
    h = hashlib.sha256()
    if heap:
        files = [os.path.join(HEAPMODEL, n) for n in sorted(os.listdir(HEAPMODEL))
                 if n.endswith((".c", ".h", ".mk"))]
    else:
        files = [os.path.join(TOOLS, n) for n in FROZEN_TOOLS]
        for dirpath, dirnames, filenames in os.walk(CMODULES):
            dirnames.sort()
            files += [os.path.join(dirpath, n) for n in sorted(filenames)]
    for name in files:
        with open(name, "rb") as f:
            h.update(f.read())
    return h.hexdigest()


def _current(src, frame, heap=False):
    """(path, stamp, identity, whether the binary there is current). A binary whose
    source is gone still counts (it still measures)."""
    path, stamp = ((FRAME_BIN, FRAME_STAMP) if frame else (HEAP_BIN, HEAP_STAMP) if heap
                   else (BIN, STAMP))
    ident = identity(src) if os.path.exists(src) else None
    if ident is not None and (frame or heap):
        ident += " " + _tools_identity(heap)
    old = None
    if os.path.exists(stamp):
        with open(stamp) as f:
            old = f.read().strip()
    return path, stamp, ident, os.path.exists(path) and (ident is None or old == ident)


def needs_build(src=None, frame=False, heap=False):
    """Whether binary() would build now (first use, or the source changed): about a
    minute on 2 cores."""
    src = source(src)
    _path, _stamp, ident, ok = _current(src, frame, heap)
    return ident is not None and not ok


def binary(required=None, src=None, quiet=True, frame=False, heap=False, log=None):
    """The 32-bit unix port's binary, built if missing or stale; or None (one line on
    stderr). required (default: CI=true): raise SystemExit instead of returning None.
    frame: the frame model's build (FROZEN_TOOLS frozen), stale too when they change;
    heap: the heap model's (tools/heapmodel/), stale too when its files change.
    log(text): told before a build starts, so a caller can say why it waits."""
    if required is None:
        required = in_ci()
    src = source(src)
    try:
        path, stamp, ident, ok = _current(src, frame, heap)
        if ok:
            return path  # cached
        if ident is None:
            raise Missing("no MicroPython source at %s (set MICROPY_SRC to a tree or "
                          ".tar.gz)" % src)
        os.makedirs(OUT, exist_ok=True)
        with open(os.path.join(OUT, ".lock"), "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)  # one build at a time; theirs may be ours
            path, stamp, ident, ok = _current(src, frame, heap)
            if ok:
                return path
            if log is not None:
                log("building the 32-bit MicroPython unix port%s into %s (first use, or its "
                    "source changed: about a minute on 2 cores) ..." % (
                        " with the frame model's tools" if frame else
                        " with the ESP32's split heap" if heap else "",
                        os.path.relpath(os.path.dirname(path), ROOT)))
            if os.path.exists(stamp):
                os.remove(stamp)
            build(src, quiet, frame, heap)
            with open(stamp, "w") as f:
                f.write(ident + "\n")
        return path
    except Missing as e:
        msg = "mp32: no 32-bit MicroPython: %s" % e
        if required:
            raise SystemExit(msg + " (required under CI=true)")
        sys.stderr.write(msg + "; skipped\n")
        return None


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--src", help="MicroPython source tree or .tar.gz (default: MICROPY_SRC, "
                    "else %s)" % os.path.relpath(DEFAULT_SRC, ROOT))
    ap.add_argument("--print", action="store_true", help="print the binary's path")
    ap.add_argument("--frame", action="store_true",
                    help="the frame model's build (tools/bench's harness frozen)")
    ap.add_argument("--heap", action="store_true",
                    help="the heap model's build (the ESP32's split heap: tools/heapmodel/)")
    a = ap.parse_args(argv)
    b = binary(src=a.src, quiet=False, frame=a.frame, heap=a.heap)
    if b is None:
        return 0
    if a.print:
        print(b)
    return 0


if __name__ == "__main__":
    sys.exit(main())
