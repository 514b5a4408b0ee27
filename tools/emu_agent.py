# The MicroPython side of the emulated board (tools/emuboard.py); runs under the unix port.
#
#   micropython [-X heapsize=N] tools/emu_agent.py (--root DIR | --image FILE)
#               [--sim DIR] [--lib DIR] [--ctl DIR] [--cause N]
#
# It makes the process look like a device: the board's filesystem (a host folder, or a
# LittleFS image file mounted with vfs.VfsLfs2) becomes "/", sys.path is the ESP32's
# ('', '.frozen', '/lib') plus tools/emu_lib at /_emu_lib (a `time` whose ticks start
# at 0 like a device's) and the simulated peripherals (tools/sim mounted at /_emu_sim,
# so its machine.py shadows the port's built-in machine), and the cwd is "/".
#
# The host (emuboard.py) speaks the REPL protocols to mpremote; this agent only runs
# code. Commands arrive on stdin, one per line:
#   X<mode><id> <len>\n<source>   compile (mode e = exec, s = single) and run
#   F<id> <name>\n                run /<name> if it exists (boot.py, main.py)
#   Q\n                           quit
# Replies go to stderr as frames b"\x00EMU <kind> <id> <len>\n<payload>":
#   READY, RUN (user code started: SIGINT is safe now), DONE (payload: the traceback,
#   empty when none), MISSING (no such file), RESET (payload b"hard" / b"soft" /
#   b"deep"), LOG (a note for the host's log).
# Program output goes to stdout untouched.
import io
import os
import sys
import vfs

SIM_MOUNT = "/_emu_sim"
LIB_MOUNT = "/_emu_lib"
CTL_MOUNT = "/_emu_ctl"


class _EmuReset(BaseException):
    # Raised by the patched machine.reset(): BaseException, so firmware's
    # `except Exception` cannot swallow it, as a real reset cannot be swallowed.
    pass


class FileBdev:
    # A block device over a LittleFS image file (extended block protocol).
    def __init__(self, path, block_size=4096):
        self.f = open(path, "r+b")
        self.bs = block_size
        self.f.seek(0, 2)
        self.n = self.f.tell() // block_size

    def readblocks(self, n, buf, off=0):
        self.f.seek(n * self.bs + off)
        self.f.readinto(buf)

    def writeblocks(self, n, buf, off=None):
        self.f.seek(n * self.bs + (off or 0))
        self.f.write(buf)
        self.f.flush()

    def ioctl(self, op, arg):
        if op == 4:  # block count
            return self.n
        if op == 5:  # block size
            return self.bs
        return 0  # init, deinit, sync, erase: nothing to do on a file


def _frame(kind, ident, payload=b""):
    # One write per frame: the host parses them out of the stderr stream.
    head = "\x00EMU %s %s %d\n" % (kind, ident, len(payload))
    sys.stderr.buffer.write(head.encode() + payload)


def _args():
    out = {}
    a = sys.argv[1:]
    i = 0
    while i < len(a):
        if a[i].startswith("--") and i + 1 < len(a):
            out[a[i][2:]] = a[i + 1]
            i += 2
        else:
            i += 1
    return out


def _mount(opts):
    bdev = FileBdev(opts["image"]) if "image" in opts else None  # host path: open first
    vfs.umount("/")
    if bdev is not None:
        try:
            vfs.mount(vfs.VfsLfs2(bdev), "/")
        except OSError:
            # Blank flash: format it, as the ESP32's inisetup does on the first boot.
            vfs.VfsLfs2.mkfs(bdev)
            vfs.mount(vfs.VfsLfs2(bdev), "/")
    else:
        vfs.mount(vfs.VfsPosix(opts["root"]), "/")
    if "sim" in opts:
        vfs.mount(vfs.VfsPosix(opts["sim"]), SIM_MOUNT)
    if "lib" in opts:
        vfs.mount(vfs.VfsPosix(opts["lib"]), LIB_MOUNT)
    if "ctl" in opts:
        vfs.mount(vfs.VfsPosix(opts["ctl"]), CTL_MOUNT)
    os.chdir("/")
    sys.path[:] = ["", ".frozen", "/lib"]
    if "lib" in opts:
        sys.path.append(LIB_MOUNT)  # device-like stand-ins for built-ins (time)
    if "sim" in opts:
        sys.path.append(SIM_MOUNT)
    sys.argv[:] = []


def _reset_hard(*args):
    raise _EmuReset("hard")


def _reset_soft(*args):
    raise _EmuReset("soft")


def _deepsleep(ms=0):
    # The emulated board wakes at once (no one to press a button while the process is
    # gone): the host restarts it with reset_cause() DEEPSLEEP_RESET.
    raise _EmuReset("deep")


def _patch_machine(opts, glb):
    # The simulated machine (tools/sim/machine.py) answers everything but resets:
    # those end this process so the host restarts it like a device reboots.
    try:
        import machine
    except Exception as e:
        _frame("LOG", 0, ("no simulated machine: %r" % e).encode())
        return
    machine.reset = _reset_hard
    machine.soft_reset = _reset_soft
    sim = getattr(machine, "SIM", None)
    if sim is not None:
        sim.on_reset = _reset_hard
        sim.on_deepsleep = _deepsleep
        if "cause" in opts:
            sim.reset_cause = int(opts["cause"])
        # The world around the chip is the deployed board's (its pins, panel, sensor).
        try:
            import board

            sim.configure(board)
        except Exception as e:
            _frame("LOG", 0, ("simulated world stays the default: %r" % e).encode())
    if "ctl" in opts:
        try:
            import emu_hooks

            emu_hooks.install(CTL_MOUNT, machine, glb)
        except Exception as e:
            _frame("LOG", 0, ("no emu hooks: %r" % e).encode())


def _traceback(e):
    buf = io.StringIO()
    sys.print_exception(e, buf)
    # Drop the agent's own frame: a device's traceback starts at the user's code.
    lines = buf.getvalue().split("\n")
    keep = []
    skip = False
    for line in lines:
        if skip and line.startswith("    "):
            continue
        skip = "emu_agent.py" in line
        if not skip:
            keep.append(line)
    return "\n".join(keep).encode()


def _run(ident, src, mode, name, glb):
    err = b""
    reset = None
    try:
        code = compile(src, name, mode)
        _frame("RUN", ident)
        exec(code, glb)
    except _EmuReset as r:
        reset = r.args[0] if r.args else "hard"
    except SystemExit:
        # On a device SystemExit from main.py or the raw REPL is a soft reset.
        reset = "soft"
    except BaseException as e:  # KeyboardInterrupt included: report, go on
        err = _traceback(e)
    if reset:
        _frame("RESET", ident, reset.encode())
    else:
        _frame("DONE", ident, err)


def main():
    opts = _args()
    _mount(opts)
    glb = {"__name__": "__main__"}
    _patch_machine(opts, glb)
    stdin = sys.stdin.buffer
    _frame("READY", 0)
    while True:
        try:
            line = stdin.readline()
            if not line or line[:1] == b"Q":
                return
            kind = line[:1]
            if kind == b"X":
                mode = "single" if line[1:2] == b"s" else "exec"
                ident, n = line[2:].split()
                src = stdin.read(int(n)).decode()
                _run(ident.decode(), src, mode, "<stdin>", glb)
            elif kind == b"F":
                ident, name = line[1:].split()
                name = name.decode()
                try:
                    with open("/" + name) as f:
                        src = f.read()
                except OSError:
                    _frame("MISSING", ident.decode())
                    continue
                _run(ident.decode(), src, "exec", name, glb)
        except KeyboardInterrupt:
            # A late Ctrl-C (the code had already finished): nothing to stop.
            pass


main()
