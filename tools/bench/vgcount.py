"""Instructions counted, not time: this project's valgrind tool (icount/tool.c), built
against the valgrind Debian's package ships, and the command that runs a program under
it (the counted frame model: frame_model.measure_counted).

    python tools/bench/vgcount.py [--print]     build it into build/icount/ (or say why not)

The tool counts every instruction the program executes and answers a client request
with the count since the last one (icount/icount.h); the frame build's `icount` module
(icount/module/) asks it. A 32-bit x86 program only (the frame model's port). The
count is the same on a busy and an idle machine: the same binary, input and
environment execute the same instructions; the runs get a fixed environment for that.

tool(required) -> the VALGRIND_LIB folder holding the tool, or None after one line on
stderr saying why (no valgrind, no headers, a failed build); required (default:
CI=true) raises SystemExit instead. Built again when the sources or valgrind change.
"""
import argparse
import fcntl
import glob
import hashlib
import os
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SRC = os.path.join(ROOT, "tools", "bench", "icount")
OUT = os.path.join(ROOT, "build", "icount")
NAME = "icount-x86-linux"  # valgrind looks for TOOL-PLATFORM in VALGRIND_LIB
# Debian's valgrind (package valgrind): the tool-writing headers, the core's static
# libraries, and the files the core loads beside a tool (its preload, suppressions).
INCLUDE = "/usr/include/valgrind"
# A tool's load address and link (valgrind's Makefile.tool.am, link_tool_exe_linux:
# valt_load_address, which valgrind.pc states).
LOAD = "0x58000000"


class Missing(Exception):
    """No tool: the message says why, in one line."""


def in_ci():
    return os.environ.get("CI", "").lower() in ("1", "true", "yes")


def _valgrind():
    v = shutil.which("valgrind")
    if not v:
        raise Missing("no valgrind (Debian: apt-get install valgrind)")
    p = subprocess.run([v, "--version"], capture_output=True, text=True, timeout=60)
    return v, p.stdout.strip()


def _dirs():
    """(the static libraries' folder, the core's folder) of the installed valgrind."""
    libs = glob.glob("/usr/lib/*/valgrind/libcoregrind-x86-linux.a")
    core = [d for d in ("/usr/libexec/valgrind", "/usr/lib/valgrind")
            if os.path.exists(os.path.join(d, "vgpreload_core-x86-linux.so"))]
    if not libs or not core or not os.path.exists(os.path.join(INCLUDE, "pub_tool_basics.h")):
        raise Missing("valgrind's tool headers or 32-bit x86 libraries are missing")
    return os.path.dirname(libs[0]), core[0]


def _identity(version):
    h = hashlib.sha256(version.encode())
    for name in ("tool.c", "icount.h"):
        with open(os.path.join(SRC, name), "rb") as f:
            h.update(f.read())
    return h.hexdigest()


def build():
    """Compile and link the tool into OUT, with the core's files linked beside it."""
    version = _valgrind()[1]
    libs, core = _dirs()
    work = OUT + ".work"
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    obj = os.path.join(work, "tool.o")
    # As valgrind's own tools are built for x86-linux (Makefile.all.am, AM_CFLAGS_X86_LINUX
    # and the platform's defines): freestanding, no PIC, no stack protector.
    cc = ["gcc", "-m32", "-O2", "-fno-stack-protector", "-fno-builtin", "-fno-strict-aliasing",
          "-fno-pic", "-fno-PIE", "-DVGA_x86=1", "-DVGO_linux=1", "-DVGP_x86_linux=1",
          "-DVGPV_x86_linux_vanilla=1", "-I" + INCLUDE, "-I" + SRC, "-c",
          os.path.join(SRC, "tool.c"), "-o", obj]
    link = ["gcc", "-m32", "-static", "-nodefaultlibs", "-nostartfiles", "-u", "_start",
            "-no-pie", "-Wl,--build-id=none", "-Wl,-Ttext-segment=" + LOAD, "-o",
            os.path.join(work, NAME), obj,
            os.path.join(libs, "libcoregrind-x86-linux.a"),
            os.path.join(libs, "libvex-x86-linux.a"),
            os.path.join(libs, "libgcc-sup-x86-linux.a"), "-lgcc"]
    for cmd in (cc, link):
        p = subprocess.run(cmd, capture_output=True, text=True)
        if p.returncode != 0:
            raise Missing("the tool did not build (%s: %s)" % (
                cmd[0], (p.stderr.strip().splitlines() or ["exit %d" % p.returncode])[-1]))
    os.remove(obj)
    for name in ("vgpreload_core-x86-linux.so", "default.supp"):
        os.symlink(os.path.join(core, name), os.path.join(work, name))
    with open(os.path.join(work, "stamp"), "w") as f:
        f.write(_identity(version) + "\n")
    shutil.rmtree(OUT, ignore_errors=True)
    os.replace(work, OUT)


def _current():
    try:
        with open(os.path.join(OUT, "stamp")) as f:
            old = f.read().strip()
    except OSError:
        return False
    return os.path.exists(os.path.join(OUT, NAME)) and old == _identity(_valgrind()[1])


def tool(required=None):
    if required is None:
        required = in_ci()
    try:
        if _current():
            return OUT
        os.makedirs(os.path.dirname(OUT), exist_ok=True)
        with open(OUT + ".lock", "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)  # parallel tests wait for one build
            if not _current():
                build()
        return OUT
    except Missing as e:
        msg = "vgcount: no instruction counter: %s" % e
        if required:
            raise SystemExit(msg + " (required under CI=true)")
        sys.stderr.write(msg + "; skipped\n")
        return None


def command(lib, argv):
    """(argv, env): argv run under the tool, in a fixed environment (a count depends on
    what the program's stack and environment hold, so every run gets the same)."""
    v = _valgrind()[0]
    env = {"VALGRIND_LIB": lib, "PATH": "/usr/bin:/bin", "LANG": "C"}
    return [v, "-q", "--tool=icount"] + list(argv), env


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--print", action="store_true", help="print the tool's folder")
    a = ap.parse_args(argv)
    lib = tool()
    if lib and a.print:
        print(lib)
    return 0


if __name__ == "__main__":
    sys.exit(main())
