# The MicroPython side of the emulated board (tools/emuboard/emuboard.py); runs under the unix port.
#
#   micropython [-X heapsize=N] tools/emuboard/emu_agent.py (--root DIR | --image FILE)
#               [--sim DIR] [--lib DIR] [--ctl DIR] [--cause N] [--budget BYTES]
#
# It makes the process look like a device: the board's filesystem (a host folder, or a
# LittleFS image file mounted with vfs.VfsLfs2) becomes "/", sys.path is the ESP32's
# ('', '.frozen', '/lib') plus tools/emuboard/emu_lib at /_emu_lib (a `time` whose ticks start
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
#   b"deep"), LOG (a note for the host's log), FSBEGIN / FSEND (an `mpremote mount`
#   transaction opens / closes: its bytes pass the host untouched).
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
    # A block device over a region of a flash file (extended block protocol), like
    # esp32.Partition over the chip's flash.
    def __init__(self, path, offset=0, size=None, block_size=4096):
        self.f = open(path, "r+b")
        self.bs = block_size
        self.base = offset
        if size is None:
            self.f.seek(0, 2)
            size = self.f.tell() - offset
        self.n = size // block_size

    def readblocks(self, n, buf, off=0):
        self.f.seek(self.base + n * self.bs + off)
        self.f.readinto(buf)

    def writeblocks(self, n, buf, off=None):
        self.f.seek(self.base + n * self.bs + (off or 0))
        self.f.write(buf)
        self.f.flush()

    def ioctl(self, op, arg):
        if op == 4:  # block count
            return self.n
        if op == 5:  # block size
            return self.bs
        return 0  # init, deinit, sync, erase: nothing to do on a file


def _vfs_bdev(path):
    # The stock boot's choice (flash_layout.vfs_region): a whole flash file carries its
    # partition table at 0x8000; a file without one is the vfs partition by itself.
    # flash_layout (tools/flashing/) is read before "/" becomes the board's, and
    # leaves sys.path and sys.modules again: the firmware's heap and module list are a
    # device's.
    here = __file__.rsplit("/", 1)[0] if "/" in __file__ else "."
    sys.path.insert(0, here + "/../flashing")
    try:
        import flash_layout
    finally:
        sys.path.pop(0)
    del sys.modules["flash_layout"]
    with open(path, "rb") as f:
        f.seek(0, 2)
        total = f.tell()
        f.seek(flash_layout.TABLE_ADDR)
        table = f.read(flash_layout.TABLE_MAX)
    if table[:2] != flash_layout.ROW_MAGIC:
        return FileBdev(path), None
    rows = flash_layout.decode_table(table)
    off, size = flash_layout.vfs_region(rows, total)
    return FileBdev(path, off, size), (off, size)


class DeviceRoot:
    # "/" as a device has it: the board's filesystem. The emulator's own folders
    # (simulated hardware, control files) are reachable by their paths, for imports and
    # the hooks, but are not mount points, so os.listdir("/") and `mpremote ls` show only
    # the board's files.
    def __init__(self, fs, hidden):
        self.fs = fs
        self.hidden = hidden  # {"/_emu_sim": VfsPosix, ...}

    def _route(self, path):
        if path[:6] == "/_emu_":
            for top, fs in self.hidden.items():
                if path == top or path[:len(top) + 1] == top + "/":
                    return fs, path[len(top):] or "/"
        return self.fs, path

    def mount(self, readonly, mkfs):
        self.fs.mount(readonly, mkfs)

    def umount(self):
        self.fs.umount()

    def open(self, path, mode):
        fs, p = self._route(path)
        return fs.open(p, mode)

    def stat(self, path):
        fs, p = self._route(path)
        return fs.stat(p)

    def ilistdir(self, path):
        fs, p = self._route(path)
        return fs.ilistdir(p)

    def statvfs(self, path):
        return self.fs.statvfs(path)

    def chdir(self, path):
        self.fs.chdir(path)

    def getcwd(self):
        return self.fs.getcwd()

    def mkdir(self, path):
        self.fs.mkdir(path)

    def rmdir(self, path):
        self.fs.rmdir(path)

    def remove(self, path):
        self.fs.remove(path)

    def rename(self, old, new):
        # MicroPython's VfsPosix.rename builds both paths in one buffer (extmod/
        # vfs_posix.c:343-344 at v1.28.0, vfs_posix_get_path_str), so on a VfsPosix
        # with a root two absolute paths become rename(new, new): nothing moves, no
        # error, and every save but the first was lost on a host folder. The old path
        # goes relative to the cwd instead, which is the board's "/" (its folder).
        fs = self.fs
        if isinstance(fs, vfs.VfsPosix) and old[:1] == "/" and fs.getcwd() in ("", "/"):
            old = old[1:]
        fs.rename(old, new)


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
    hidden = {}
    if "sim" in opts:
        hidden[SIM_MOUNT] = vfs.VfsPosix(opts["sim"])
    if "lib" in opts:
        hidden[LIB_MOUNT] = vfs.VfsPosix(opts["lib"])
    if "ctl" in opts:
        hidden[CTL_MOUNT] = vfs.VfsPosix(opts["ctl"])
    region = None
    if "image" in opts:
        bdev, region = _vfs_bdev(opts["image"])  # host path: open first
    vfs.umount("/")
    if "image" in opts:
        try:
            fs = vfs.VfsLfs2(bdev)
        except OSError:
            # Blank flash or no filesystem there: format it, as the ESP32's inisetup
            # does on the first boot (ports/esp32/modules/_boot.py, inisetup.py).
            _frame("LOG", 0, b"no filesystem at the vfs partition: formatting")
            vfs.VfsLfs2.mkfs(bdev)
            fs = vfs.VfsLfs2(bdev)
    else:
        fs = vfs.VfsPosix(opts["root"])
    vfs.mount(DeviceRoot(fs, hidden), "/")
    if region:
        _frame("LOG", 0, ("vfs at %#x size %#x" % region).encode())
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


def _hook_remote_fs(glb):
    # `mpremote mount` runs its RemoteCommand class here: the device half of a file
    # protocol over the serial line (0x18, a command, binary arguments both ways). The
    # host must pass those bytes through untouched - a 0x03 among them is data, not
    # Ctrl-C (RemoteCommand.begin turns kbd_intr off on a device). Its begin/end tell the
    # host when a transaction is open.
    cls = glb.get("RemoteCommand")
    if cls is None or getattr(cls, "_emu_hooked", False):
        return
    begin, end = cls.begin, cls.end

    def hooked_begin(self, kind):
        _frame("FSBEGIN", 0)
        begin(self, kind)

    def hooked_end(self):
        end(self)
        _frame("FSEND", 0)

    cls.begin, cls.end, cls._emu_hooked = hooked_begin, hooked_end, True


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
    _hook_remote_fs(glb)
    if reset:
        _frame("RESET", ident, reset.encode())
    else:
        _frame("DONE", ident, err)


def main():
    opts = _args()
    _mount(opts)
    glb = {"__name__": "__main__"}
    _patch_machine(opts, glb)
    if "budget" in opts:
        # The firmware's share, a device's heap: the agent and the simulated hardware
        # (silicon on a board) live outside it.
        from heap_fence import fence  # tools/sim, mounted at /_emu_sim

        fence(int(opts["budget"]))
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
