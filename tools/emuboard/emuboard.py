#!/usr/bin/env python3
"""An emulated board: the MicroPython unix port behind a pseudo-terminal, for mpremote.

    python tools/emuboard/emuboard.py [--fs DIR | --image FLASH] [--ctl DIR] [--heap 56k]
                             [--link PATH] [--log FILE]

prints `PORT /dev/pts/N` and serves until killed; then
`make deploy BOARD=sim PORT=/dev/pts/N` and `make repl PORT=/dev/pts/N` work on it as on
a real board, and the deployed firmware boots and runs on the simulated peripherals.

Design (facts about the unix port it works around):
- The unix port has no raw REPL and exits on Ctrl-D. So this process speaks the REPL
  protocols itself (friendly REPL with a small line editor, paste mode, raw REPL,
  raw-paste with flow control) and hands each piece of code to a child `micropython
  tools/emuboard/emu_agent.py` that runs it and reports back on stderr (see emu_agent.py).
- A soft reset (Ctrl-D at an empty prompt, `mpremote soft-reset`, sys.exit) ends the
  child and starts a fresh one in the board's filesystem folder: a fresh heap like a
  device's. It runs boot.py, then main.py only in friendly mode (as the ESP32 port does)
  and comes back in the REPL the client was in ("raw REPL; CTRL-B to exit" if raw).
  machine.reset() (the patched one: `mpremote reset`) is a hard reset: friendly mode,
  boot.py, main.py. Input that arrives while code runs waits, as in a UART buffer.
- The port ignores a Ctrl-C byte on stdin; here Ctrl-C while code runs becomes SIGINT to
  the child (KeyboardInterrupt in the running code), only once the agent said the user
  code started, so it never kills the interpreter itself.
- tools/sim/ is mounted at /_emu_sim behind the ESP32 sys.path, so its machine.py
  shadows the port's built-in machine; the board's files are "/" (a host folder via
  VfsPosix, or a LittleFS image via VfsLfs2).
- Tests press buttons, shake and read the OLED through the control folder (EmuControl
  below; protocol in tools/sim/emu_hooks.py).
"""
import argparse
import os
import select
import signal
import struct
import subprocess
import sys
import tempfile
import threading
import time
import tty
from collections import deque

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from paths import ROOT  # noqa: E402  (and the tools' folders on sys.path)
import flash_layout  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
AGENT = os.path.join(HERE, "emu_agent.py")
SIM_DIR = os.path.join(ROOT, "tools", "sim")
LIB_DIR = os.path.join(HERE, "emu_lib")
BANNER = (b"MicroPython v1.29.0 on emuboard; unix port as an ESP32 board\r\n"
          b"Type \"help()\" for more information.\r\n")
RAW_BANNER = b"raw REPL; CTRL-B to exit\r\n"
FRIENDLY, RAW, PASTE = "friendly", "raw", "paste"
PASTE_WINDOW = 512  # raw-paste flow-control window, bytes
FRAME_MAGIC = b"\x00EMU "
FLASH_MB = flash_layout.DEFAULT_FLASH_MB["esp32"]  # a new --image: an erased ESP32 flash (4 MB)
BLOCK_SIZE = 4096
# The ESP32 port's heap (the memory issue's measurements on a plain ESP32): 56 KB in the
# first area, about 110 KB once it has grown. The unix port cannot grow its heap in
# steps, so the board gets the grown size; --heap 56k tries the first area alone.
# On the 64-bit fallback every object is about twice as big (8-byte pointers), so the
# same firmware needs twice the bytes there: the default doubles. The heap is the
# firmware's share: the agent fences off everything else once the simulated hardware
# (tools/sim, which a device has in silicon) is loaded.
DEFAULT_HEAP_KB = 110
# What the emulation itself allocates inside that share while the firmware runs (the
# OLED model's frames, the control folder's expressions, compiled in the same heap):
# added on top, so the firmware keeps the device's heap. Measured on the 32-bit port:
# deploy, boot and play into Shake Up fail at a 110k share, passed once at 120k and
# failed once at 126k (MemoryError while the test polls: fragmentation), so the room is
# twice that margin (the bench's fenced firmware alone needs about 62 KB at its worst,
# tools/bench/results.md).
EMU_ROOM_KB = 32
SIM_ROOM = 1024 * 1024  # interpreter heap on top of the share, for tools/sim and the agent
BUTTONS = ("PREV", "NEXT", "OK", "BACK")
# machine.reset_cause() values of the ESP32 port, told to the fresh interpreter.
PWRON_RESET, HARD_RESET, DEEPSLEEP_RESET, SOFT_RESET = 1, 2, 4, 5


def _say(text):
    """A line for the person at `make emuboard` (stderr, at once: stdout is the ports')."""
    sys.stderr.write("emuboard: %s\n" % text)
    sys.stderr.flush()


def micropython_bin():
    """The 32-bit unix port (tools/bench/mp32.py, built into build/mp32/) when it is there, as
    an ESP32's objects are 32-bit; else the venv's 64-bit micropython."""
    try:
        import mp32
    except ImportError:
        mp32 = None
    if mp32 is not None:
        t, said = time.monotonic(), []
        path = mp32.binary(False, log=lambda text: said.append(_say(text)))
        if path and said:
            _say("built %s in %.0f s" % (os.path.relpath(path, ROOT), time.monotonic() - t))
        if path:
            return path
    cand = os.path.join(ROOT, ".venv", "bin", "micropython")
    return cand if os.path.exists(cand) else "micropython"


def elf_bits(path):
    """32 or 64: the ELF class of an interpreter binary (e_ident[EI_CLASS])."""
    try:
        with open(path, "rb") as f:
            head = f.read(5)
    except OSError:
        return 64
    return 32 if head[:4] == b"\x7fELF" and head[4] == 1 else 64


def default_heap(binary):
    kb = DEFAULT_HEAP_KB if elf_bits(binary) == 32 else 2 * DEFAULT_HEAP_KB
    return "%dk" % kb


def share_bytes(heap, binary):
    """The heap the agent leaves the firmware: the device's heap and the emulation's room
    (twice as many bytes on the 64-bit fallback)."""
    return heap_bytes(heap) + EMU_ROOM_KB * 1024 * (elf_bits(binary) // 32)


def heap_bytes(text):
    """ "110k" / "1m" / "65536" -> bytes."""
    text = str(text).strip().lower()
    mult = {"k": 1024, "m": 1024 * 1024}.get(text[-1:], 1)
    return int(text.rstrip("km")) * mult


def blank_flash(path, flash_mb=FLASH_MB, chip="esp32"):
    """An erased flash with the stock 1.26+ partition table at 0x8000 (flash_layout);
    the firmware formats its vfs partition at the first boot, as inisetup does."""
    data = bytearray(b"\xff" * (flash_mb * 1024 * 1024))
    table = flash_layout.encode_table(flash_layout.stock_table(chip, flash_mb))
    data[flash_layout.TABLE_ADDR:flash_layout.TABLE_ADDR + len(table)] = table
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    with open(path, "wb") as f:
        f.write(data)


class EmuBoard:
    """The board. start() returns once the pty exists; serve in a background thread."""

    def __init__(self, fs_dir=None, image=None, ctl_dir=None, heap=None,
                 micropython=None, sim_dir=SIM_DIR, log=None, link=None,
                 flash_mb=FLASH_MB):
        if not fs_dir and not image:
            raise ValueError("EmuBoard needs fs_dir or image")
        self.fs_dir = os.path.abspath(fs_dir) if fs_dir else None
        self.image = os.path.abspath(image) if image else None
        self.ctl_dir = os.path.abspath(ctl_dir) if ctl_dir else None
        self.micropython = micropython or micropython_bin()
        self.heap = heap or default_heap(self.micropython)
        self.flash_mb = flash_mb
        self.sim_dir = sim_dir
        self.link = link
        self.log = open(log, "ab", buffering=0) if log else None
        self.port = None
        self.stats = {"boots": 0, "soft_resets": 0, "hard_resets": 0, "sigints": 0,
                      "execs": 0, "dropped_out": 0, "deep_sleeps": 0}
        self._child = None
        self._errbuf = b""
        self._fs_depth = 0
        self._cause = PWRON_RESET
        self._mode = FRIENDLY
        self._jobs = deque()
        self._cur = None  # the job waiting for the agent
        self._pending = bytearray()  # input not processed yet (code was running)
        self._line = bytearray()  # friendly line being edited
        self._block = []  # friendly compound statement lines
        self._esc = 0
        self._raw = bytearray()
        self._paste = None  # raw-paste: bytes received so far, or None
        self._paste_count = 0
        self._user_running = False
        self._interrupt_pending = False
        self._job_id = 0
        self._deaths = []
        self._dead = False
        self._asleep = False
        self._sleep_off = 0
        self._stop = False
        self._requests = deque()
        self._thread = None
        self._wake_r = self._wake_w = None
        self._master = self._slave = None

    # ---- lifecycle -----------------------------------------------------------------
    def start(self):
        if self.fs_dir:
            os.makedirs(self.fs_dir, exist_ok=True)
        if self.image and not os.path.exists(self.image):
            blank_flash(self.image, self.flash_mb)
        if self.ctl_dir:
            os.makedirs(self.ctl_dir, exist_ok=True)
        self._master, self._slave = os.openpty()
        tty.setraw(self._slave)
        os.set_blocking(self._master, False)
        self.port = os.ttyname(self._slave)
        if self.link:
            if os.path.lexists(self.link):
                os.remove(self.link)
            os.symlink(self.port, self.link)
        self._wake_r, self._wake_w = os.pipe()
        self._power_on(hard=True, cause=PWRON_RESET)
        self._thread = threading.Thread(target=self._serve, name="emuboard", daemon=True)
        self._thread.start()
        return self.port

    def stop(self):
        self._stop = True
        if self._wake_w is not None:
            try:
                os.write(self._wake_w, b"x")
            except OSError:
                pass
        if self._thread:
            self._thread.join(5)
        self._kill_child()
        for fd in (self._master, self._slave, self._wake_r, self._wake_w):
            if fd is not None:
                try:
                    os.close(fd)
                except OSError:
                    pass
        self._master = self._slave = self._wake_r = self._wake_w = None
        if self.link and os.path.islink(self.link):
            os.remove(self.link)
        if self.log:
            self.log.close()

    def reset(self):
        """Press the reset button (thread-safe)."""
        self._requests.append("reset")
        os.write(self._wake_w, b"x")

    def __enter__(self):
        self.start()
        return self

    def __exit__(self, *exc):
        self.stop()

    # ---- the serving loop ----------------------------------------------------------
    def _serve(self):
        while not self._stop:
            fds = [self._master, self._wake_r]
            child = self._child
            if child is not None:
                fds += [child.stdout.fileno(), child.stderr.fileno()]
            try:
                ready, _, _ = select.select(fds, [], [], 0.1)
            except (OSError, ValueError):
                ready = []
            if self._stop:
                break
            if self._wake_r in ready:
                os.read(self._wake_r, 64)
            while self._requests:
                if self._requests.popleft() == "reset":
                    self._hard_reset()
            if child is not None and child is self._child:
                if child.stdout.fileno() in ready:
                    self._drain_stdout()
                if child.stderr.fileno() in ready:
                    self._read_stderr()
            if self._master in ready:
                try:
                    data = os.read(self._master, 4096)
                except BlockingIOError:
                    data = b""
                except OSError:
                    data = b""
                if data:
                    self._note(b"< ", data)
                    self._input(data)
            if self._asleep:
                self._check_wake()
                if self._master in ready:
                    self._pending.clear()  # the UART is unpowered
            self._check_child()
            self._pump()

    def _check_child(self):
        child = self._child
        if child is None or child.poll() is None:
            return
        # Died without a RESET frame: an interpreter crash. Flush what it said, report,
        # and come back like a board after a brown-out (unless it keeps dying).
        self._drain_stdout()
        self._read_stderr()
        if self._child is not child:
            return
        self._child = None
        code = child.returncode
        self._out(("\r\n[emuboard: micropython exited with code %s]\r\n" % code).encode())
        now = time.monotonic()
        self._deaths = [t for t in self._deaths if now - t < 10] + [now]
        self._cur = None
        self._user_running = False
        self._jobs.clear()
        if len(self._deaths) >= 3:
            self._dead = True
            self._out(b"[emuboard: giving up; fix the firmware, then reset]\r\n")
            return
        self._power_on(hard=True)

    # ---- jobs: things done in order, each may wait for the agent -------------------
    def _power_on(self, hard, soft_message=False, cause=PWRON_RESET):
        self._cause = cause
        if hard:
            self._mode = FRIENDLY
        self._jobs.clear()
        self._cur = None
        self._user_running = False
        self._pending.clear()
        self._line.clear()
        self._block = []
        self._raw.clear()
        self._paste = None
        if soft_message:
            self._out(b"MPY: soft reboot\r\n")
        self._jobs.append(("call", self._kill_child))
        self._jobs.append(("start",))
        self._jobs.append(("file", "boot.py"))
        if self._mode == FRIENDLY:
            self._jobs.append(("file", "main.py"))
        self._jobs.append(("call", self._prompt_after_boot))

    def _hard_reset(self, cause=HARD_RESET):
        self._asleep = False
        self.stats["hard_resets"] += 1
        self._dead = False
        self._deaths = []
        self._power_on(hard=True, cause=cause)

    def _deep_sleep(self):
        # The chip is off until a button pulls its wake pin low: no interpreter, input
        # lost, then a boot with reset_cause() DEEPSLEEP_RESET (see _check_wake).
        self._kill_child()
        self._jobs.clear()
        self._cur = None
        self._user_running = False
        self._pending.clear()
        self._asleep = True
        self.stats["deep_sleeps"] += 1
        self._sleep_off = self._ctl_size()

    def _ctl_size(self):
        try:
            return os.path.getsize(os.path.join(self.ctl_dir, "cmd")) if self.ctl_dir else 0
        except OSError:
            return 0

    def _check_wake(self):
        size = self._ctl_size()
        if size <= self._sleep_off:
            return
        with open(os.path.join(self.ctl_dir, "cmd"), "rb") as f:
            f.seek(self._sleep_off)
            data = f.read(size - self._sleep_off)
        end = data.rfind(b"\n") + 1
        self._sleep_off += end
        wake = False
        for line in data[:end].split(b"\n"):
            parts = line.split()
            if len(parts) < 2:
                continue
            # Nothing runs to answer: the board itself acknowledges, and a press wakes it.
            with open(os.path.join(self.ctl_dir, "reply"), "wb") as f:
                f.write(b"%s ok 0\n" % parts[0])
            wake = wake or parts[1] == b"press"
        if wake:
            self._asleep = False
            self._power_on(hard=True, cause=DEEPSLEEP_RESET)

    def _soft_reset(self):
        self.stats["soft_resets"] += 1
        self._power_on(hard=False, soft_message=True)

    def _prompt_after_boot(self):
        if self._mode == RAW:
            self._out(RAW_BANNER + b">")
        else:
            self._out(BANNER + b">>> ")

    def _pump(self):
        # Start queued jobs while nothing waits on the agent, then feed queued input.
        while self._cur is None and not self._dead and not self._asleep:
            if self._jobs:
                job = self._jobs.popleft()
                self._begin(job)
                continue
            self._interrupt_pending = False  # at a prompt: a stray Ctrl-C is spent
            if not self._pending:
                return
            b = self._pending[0]
            del self._pending[0]
            self._byte(b)

    def _begin(self, job):
        kind = job[0]
        if kind == "call":
            job[1]()
            return
        if kind == "start":
            self._spawn()
            self._cur = job
            return
        if self._child is None:
            return
        self._job_id += 1
        ident = str(self._job_id)
        if kind == "file":
            msg = b"F%s %s\n" % (ident.encode(), job[1].encode())
        else:  # ("exec", mode, source bytes, on_done)
            self.stats["execs"] += 1
            src = job[2]
            msg = b"X%s%s %d\n" % (job[1].encode(), ident.encode(), len(src)) + src
        self._cur = job + (ident,)
        try:
            self._child.stdin.write(msg)
            self._child.stdin.flush()
        except (BrokenPipeError, OSError):
            pass  # _check_child handles the death

    def _spawn(self):
        cmd = [self.micropython]
        share = share_bytes(self.heap, self.micropython)
        cmd += ["-X", "heapsize=%d" % (share + SIM_ROOM)]
        cmd += [AGENT]
        if self.image:
            cmd += ["--image", self.image]
            cwd = os.path.dirname(self.image)
        else:
            cmd += ["--root", self.fs_dir]
            cwd = self.fs_dir
        if self.sim_dir:
            cmd += ["--sim", self.sim_dir, "--lib", LIB_DIR]
        if self.ctl_dir:
            cmd += ["--ctl", self.ctl_dir]
        cmd += ["--cause", str(self._cause), "--budget", str(share)]
        self._errbuf = b""
        self._fs_depth = 0  # open `mpremote mount` transactions of this interpreter
        self._child = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                       stderr=subprocess.PIPE, cwd=cwd, bufsize=0,
                                       start_new_session=True)
        os.set_blocking(self._child.stdout.fileno(), False)
        os.set_blocking(self._child.stderr.fileno(), False)
        self.stats["boots"] += 1

    def _kill_child(self):
        child, self._child = self._child, None
        if child is None:
            return
        try:
            child.stdin.close()
        except OSError:
            pass
        try:
            os.killpg(child.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        try:
            child.wait(5)
        except subprocess.TimeoutExpired:
            pass
        for f in (child.stdout, child.stderr):
            try:
                f.close()
            except OSError:
                pass

    # ---- the agent's output --------------------------------------------------------
    def _drain_stdout(self):
        child = self._child
        if child is None:
            return
        while True:
            try:
                data = os.read(child.stdout.fileno(), 65536)
            except BlockingIOError:
                return
            except (OSError, ValueError):
                return
            if not data:
                return
            if self._mode != RAW and not self._fs_depth and b"\x18" not in data:
                data = data.replace(b"\r\n", b"\n").replace(b"\n", b"\r\n")
            self._out(data)

    def _read_stderr(self):
        child = self._child
        if child is None:
            return
        while True:
            try:
                data = os.read(child.stderr.fileno(), 65536)
            except (BlockingIOError, OSError, ValueError):
                break
            if not data:
                break
            self._errbuf += data
        while self._errbuf:
            at = self._errbuf.find(FRAME_MAGIC)
            if at < 0:
                # Plain stderr output of the program (keep a possible frame start).
                keep = 0 if b"\x00" not in self._errbuf[-5:] else 5
                if len(self._errbuf) > keep:
                    self._out(self._errbuf[:len(self._errbuf) - keep])
                    self._errbuf = self._errbuf[len(self._errbuf) - keep:]
                return
            if at > 0:
                self._out(self._errbuf[:at])
                self._errbuf = self._errbuf[at:]
            nl = self._errbuf.find(b"\n")
            if nl < 0:
                return
            kind, ident, n = self._errbuf[len(FRAME_MAGIC):nl].decode().split()
            n = int(n)
            if len(self._errbuf) < nl + 1 + n:
                return
            payload = self._errbuf[nl + 1:nl + 1 + n]
            self._errbuf = self._errbuf[nl + 1 + n:]
            self._drain_stdout()  # output written before the frame comes first
            self._frame(kind, ident, payload)
            if self._child is not child:
                return

    def _frame(self, kind, ident, payload):
        self._note(b"* ", ("%s %s %r\n" % (kind, ident, payload[:200])).encode())
        cur = self._cur
        if kind == "READY":
            if cur and cur[0] == "start":
                self._cur = None
            return
        if kind == "LOG":
            return
        if kind == "FSBEGIN":
            self._fs_depth += 1
            return
        if kind == "FSEND":
            self._fs_depth = max(0, self._fs_depth - 1)
            return
        if cur is None or cur[-1] != ident:
            return  # a late duplicate; nothing waits for it
        if kind == "RUN":
            self._user_running = True
            if self._interrupt_pending:
                self._interrupt_pending = False
                self._sigint()
            return
        self._user_running = False
        self._cur = None
        if kind == "RESET":
            if payload == b"soft":
                self._soft_reset()
            elif payload == b"deep":
                self._deep_sleep()
            else:
                self._hard_reset(SOFT_RESET)  # machine.reset(): ESP_RST_SW on an ESP32
            return
        if kind == "MISSING":
            return
        # DONE
        if cur[0] == "file":
            if payload:
                self._out_text(payload)
        else:
            cur[3](payload)

    def _sigint(self):
        if self._child is not None:
            self.stats["sigints"] += 1
            try:
                self._child.send_signal(signal.SIGINT)
            except ProcessLookupError:
                pass

    # ---- bytes from the client ---------------------------------------------------
    def _input(self, data):
        if self._fs_depth and self._child is not None:
            # Inside an `mpremote mount` transaction: the running code reads these.
            try:
                self._child.stdin.write(data)
                self._child.stdin.flush()
            except (BrokenPipeError, OSError):
                pass
            return
        for b in data:
            if self._cur is not None or self._jobs:
                if b == 3:  # Ctrl-C: the UART interrupt character, acted on at once
                    if self._user_running:
                        self._sigint()
                    else:
                        self._interrupt_pending = True
                else:
                    self._pending.append(b)
            else:
                self._pending.append(b)
        self._pump()

    def _byte(self, b):
        if self._mode == RAW:
            self._raw_byte(b)
        elif self._mode == PASTE:
            self._paste_byte(b)
        else:
            self._friendly_byte(b)

    def _exec(self, mode, src, on_done):
        self._jobs.append(("exec", mode, bytes(src), on_done))

    # raw REPL (what mpremote uses), with raw-paste
    def _raw_byte(self, b):
        if self._paste is not None:
            if b == 4:
                src, self._paste = bytes(self._paste), None
                self._out(b"\x04")
                self._exec("e", src, self._raw_done)
                return
            self._paste.append(b)
            self._paste_count += 1
            if self._paste_count >= PASTE_WINDOW:
                self._paste_count = 0
                self._out(b"\x01")  # room for another window
            return
        if b == 1:  # Ctrl-A
            if bytes(self._raw) == b"\x05A":
                self._raw.clear()
                self._paste = bytearray()
                self._paste_count = 0
                self._out(b"R\x01" + struct.pack("<H", PASTE_WINDOW))
                return
            self._raw.clear()
            self._out(RAW_BANNER + b">")
        elif b == 2:  # Ctrl-B: friendly REPL
            self._raw.clear()
            self._mode = FRIENDLY
            self._out(b"\r\n" + BANNER + b">>> ")
        elif b == 3:
            self._raw.clear()
        elif b == 4:
            if not self._raw:
                self._out(b"\r\n")
                self._soft_reset()
                return
            src = bytes(self._raw)
            self._raw.clear()
            self._out(b"OK")
            self._exec("e", src, self._raw_done)
        else:
            self._raw.append(b)

    def _raw_done(self, err):
        self._out(b"\x04" + err + b"\x04>")

    # friendly REPL (make repl)
    def _friendly_byte(self, b):
        if self._esc:
            # Swallow cursor keys and other escape sequences: ESC [ ... final
            if self._esc == 1:
                self._esc = 2 if b in (0x5B, 0x4F) else 0
            elif 0x40 <= b <= 0x7E:
                self._esc = 0
            return
        if b == 0x1B:
            self._esc = 1
        elif b == 1:
            self._line.clear()
            self._block = []
            self._mode = RAW
            self._out(b"\r\n" + RAW_BANNER + b">")
        elif b == 2:
            self._line.clear()
            self._block = []
            self._out(b"\r\n" + BANNER + b">>> ")
        elif b == 3:
            self._line.clear()
            self._block = []
            self._out(b"\r\n>>> ")
        elif b == 4:
            if not self._line and not self._block:
                self._out(b"\r\n")
                self._soft_reset()
        elif b == 5:
            self._line.clear()
            self._block = []
            self._mode = PASTE
            self._raw.clear()
            self._out(b"\r\npaste mode; Ctrl-C to cancel, Ctrl-D to finish\r\n=== ")
        elif b in (8, 0x7F):
            if self._line:
                self._line.pop()
                self._out(b"\x08 \x08")
        elif b == 13:
            self._out(b"\r\n")
            line = bytes(self._line)
            self._line.clear()
            self._enter(line)
        elif b == 10:
            pass
        elif b >= 32 or b == 9:
            self._line.append(b)
            self._out(bytes([b]))

    def _enter(self, line):
        if self._block:
            if line.strip():
                self._block.append(line)
                self._out(b"... ")
                return
            src = b"\n".join(self._block) + b"\n"
            self._block = []
            self._exec("s", src, self._friendly_done)
            return
        if not line.strip():
            self._out(b">>> ")
            return
        if line.rstrip().endswith(b":") or line.rstrip().endswith(b"\\"):
            self._block = [line]
            self._out(b"... ")
            return
        self._exec("s", line + b"\n", self._friendly_done)

    def _friendly_done(self, err):
        if err:
            self._out_text(err)
        self._out(b">>> ")

    def _paste_byte(self, b):
        if b == 3:
            self._raw.clear()
            self._mode = FRIENDLY
            self._out(b"\r\n>>> ")
        elif b == 4:
            src = bytes(self._raw).replace(b"\r", b"\n")
            self._raw.clear()
            self._mode = FRIENDLY
            self._out(b"\r\n")
            self._exec("e", src, self._friendly_done)
        else:
            self._raw.append(b)
            self._out(b"\r\n=== " if b == 13 else bytes([b]))

    # ---- bytes to the client -----------------------------------------------------
    def _out_text(self, data):
        self._out(data.replace(b"\r\n", b"\n").replace(b"\n", b"\r\n"))

    def _out(self, data):
        self._note(b"> ", data)
        view = memoryview(data)
        deadline = None
        while view:
            try:
                n = os.write(self._master, view)
                view = view[n:]
            except BlockingIOError:
                # Nobody reads the port (no client, or a slow one): wait a little, then
                # drop the rest as a UART with no listener would.
                now = time.monotonic()
                if deadline is None:
                    deadline = now + 1.0
                if now >= deadline:
                    self.stats["dropped_out"] += len(view)
                    return
                select.select([], [self._master], [], 0.05)
            except OSError:
                return

    def _note(self, tag, data):
        if self.log:
            self.log.write(tag + repr(bytes(data)).encode() + b"\n")


class EmuControl:
    """The test's hands and eyes on a running emulated board (control folder protocol,
    tools/sim/emu_hooks.py). Works while the firmware runs: its hardware polls serve it."""

    def __init__(self, ctl_dir):
        self.ctl_dir = ctl_dir
        os.makedirs(ctl_dir, exist_ok=True)
        self._seq = int(time.time() * 1000) % 1000000000

    def command(self, verb, *args, timeout=5.0):
        self._seq += 1
        seq = self._seq
        line = " ".join([str(seq), verb] + [str(a) for a in args]) + "\n"
        with open(os.path.join(self.ctl_dir, "cmd"), "a") as f:
            f.write(line)
        reply = os.path.join(self.ctl_dir, "reply")
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            try:
                with open(reply, "rb") as f:
                    data = f.read()
            except OSError:
                data = b""
            nl = data.find(b"\n")
            head = data[:nl].split() if nl > 0 else []
            if len(head) == 3 and head[0] == str(seq).encode():
                payload = data[nl + 1:]
                if len(payload) == int(head[2]):  # else: still being written
                    if head[1] != b"ok":
                        raise RuntimeError("board: %s" % payload.decode())
                    return payload
            time.sleep(0.01)
        raise TimeoutError("emulated board did not answer %r in %.1f s (is the firmware "
                           "running?)" % (verb, timeout))

    def wait_ready(self, timeout=20.0):
        """Until the running firmware answers (it polls the hardware)."""
        end = time.monotonic() + timeout
        while True:
            try:
                return self.command("ping", timeout=0.5)
            except TimeoutError:
                if time.monotonic() > end:
                    raise

    def press(self, name):
        self.command("press", name)

    def release(self, name):
        self.command("release", name)

    def tap(self, name, hold=0.12, gap=0.12):
        """A short press: held past the debounce time, then released."""
        self.press(name)
        time.sleep(hold)
        self.release(name)
        time.sleep(gap)

    def shake(self, seconds=0.8):
        self.command("shake", 1)
        time.sleep(seconds)
        self.command("shake", 0)

    def frame(self):
        return self.command("frame")

    def eval(self, expr, timeout=5.0):
        """Evaluate expr on the board in main.py's globals; returns its repr text."""
        return self.command("eval", expr, timeout=timeout).decode()

    def modules(self):
        out = {}
        for line in self.command("modules").decode().splitlines():
            name, _, path = line.partition(" ")
            out[name] = path
        return out


def vfs_bytes(data):
    """The vfs partition's bytes of a whole flash file (found as the stock boot finds
    it); a file without a partition table at 0x8000 is the partition itself."""
    at = flash_layout.TABLE_ADDR
    if len(data) < at + 2 or data[at:at + 2] != flash_layout.ROW_MAGIC:
        return data
    rows = flash_layout.decode_table(data[at:at + flash_layout.TABLE_MAX])
    off, size = flash_layout.vfs_region(rows, len(data))
    return data[off:off + size]


def image_files(image, block_size=BLOCK_SIZE):
    """{device path: bytes} of every file in the board's filesystem (read on the host)."""
    from littlefs import LittleFS, UserContext

    with open(image, "rb") as f:
        data = vfs_bytes(f.read())
    ctx = UserContext(buffer=bytearray(data))
    fs = LittleFS(context=ctx, block_size=block_size, block_count=len(data) // block_size,
                  mount=True)
    out = {}
    for top, _dirs, files in fs.walk("/"):
        for fn in files:
            p = (top.rstrip("/") + "/" + fn) if top != "/" else "/" + fn
            with fs.open(p, "rb") as fh:
                out[p] = fh.read()
    return out


def frame_to_text(frame, width=128, height=64, on="#", off="."):
    """MONO_VLSB frame as text rows (for test failure messages)."""
    rows = []
    for y in range(height):
        rows.append("".join(on if frame[(y // 8) * width + x] >> (y & 7) & 1 else off
                            for x in range(width)))
    return "\n".join(rows)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--fs", help="the board's filesystem folder (default: a new temp dir)")
    ap.add_argument("--image", help="a LittleFS image file as the filesystem instead")
    ap.add_argument("--ctl", help="control folder for tests (default: <fs>/../ctl)")
    ap.add_argument("--heap", help="MicroPython heap (default %dk on the 32-bit port, an "
                    "ESP32's grown heap, twice that on the 64-bit one; 56k: the ESP32's "
                    "first area)" % DEFAULT_HEAP_KB)
    ap.add_argument("--flash-mb", type=int, default=FLASH_MB,
                    help="size of a new --image flash file (default %d)" % FLASH_MB)
    ap.add_argument("--link", help="make this path a symlink to the pty")
    ap.add_argument("--log", help="write the serial traffic to this file")
    ap.add_argument("--exit-on-eof", action="store_true",
                    help="stop when stdin closes (a test harness that dies takes the board along)")
    args = ap.parse_args(argv)
    fs = args.fs
    if not fs and not args.image:
        fs = tempfile.mkdtemp(prefix="emuboard-")
    ctl = args.ctl or os.path.join(os.path.dirname(os.path.abspath(fs or args.image)), "emuboard-ctl")
    board = EmuBoard(fs_dir=fs, image=args.image, ctl_dir=ctl, heap=args.heap,
                     link=args.link, log=args.log, flash_mb=args.flash_mb)
    port = board.start()
    # Each line at once, also through a pipe (a script waits for PORT).
    print("PORT %s" % port, flush=True)
    print("FS %s" % (fs or args.image), flush=True)
    print("CTL %s" % ctl, flush=True)
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *a: stop.set())
    signal.signal(signal.SIGINT, lambda *a: stop.set())
    if args.exit_on_eof:
        def watch():
            while sys.stdin.buffer.read(4096):
                pass
            stop.set()
        threading.Thread(target=watch, daemon=True).start()
    try:
        while not stop.is_set():
            stop.wait(0.5)
    finally:
        board.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
