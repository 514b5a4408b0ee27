#!/usr/bin/env python3
"""An emulated board: the MicroPython unix port behind a pseudo-terminal, for mpremote.

    python tools/emuboard/emuboard.py [--fs DIR | --image FLASH] [--ctl DIR] [--heap 56k]
                             [--link PATH] [--log FILE]

prints `PORT /dev/pts/N` and serves until killed; then
`make deploy BOARD=sim PORT=/dev/pts/N` and `make repl PORT=/dev/pts/N` work on it as on
a real board, and the deployed firmware boots and runs on the simulated peripherals.

Design (facts about the unix port it works around), and where each part lives:
- The unix port has no raw REPL and exits on Ctrl-D. So this process speaks the REPL
  protocols itself (friendly REPL with a small line editor, paste mode, raw REPL,
  raw-paste with flow control: emu_repl.py) and hands each piece of code to a child
  `micropython tools/emuboard/emu_agent.py` that runs it and reports back on stderr
  (emu_process.py: the interpreter, its heap, the agent's process and its frames).
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
  VfsPosix, or a LittleFS image via VfsLfs2; emu_flash.py: the flash file on the host).
- Tests press buttons, shake and read the OLED through the control folder
  (emu_control.py; protocol in tools/sim/emu_hooks.py).
This file: the board (its pseudo-terminal, the serving loop, power, resets, deep sleep)
and the command line.
"""
import argparse
import os
import select
import signal
import sys
import tempfile
import threading
import time
import tty
from collections import deque

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from paths import ROOT  # noqa: E402  (and the tools' folders on sys.path)
from emu_flash import FLASH_MB, blank_flash  # noqa: E402
from emu_process import DEFAULT_HEAP_KB, Agent, default_heap, micropython_bin, share_bytes  # noqa: E402
from emu_repl import FRIENDLY, RAW, Repl  # noqa: E402

SIM_DIR = os.path.join(ROOT, "tools", "sim")
# machine.reset_cause() values of the ESP32 port, told to the fresh interpreter.
PWRON_RESET, HARD_RESET, DEEPSLEEP_RESET, SOFT_RESET = 1, 2, 4, 5


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
        self._child = None  # the agent (emu_process.Agent) while the board is powered
        self._fs_depth = 0
        self._cause = PWRON_RESET
        self._repl = Repl(self._out, self._exec, self._soft_reset)
        self._jobs = deque()
        self._cur = None  # the job waiting for the agent
        self._pending = bytearray()  # input not processed yet (code was running)
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
                fds += child.fds()
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
                out_fd, err_fd = child.fds()
                if out_fd in ready:
                    self._drain_stdout()
                if err_fd in ready:
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
        if child is None or child.exited() is None:
            return
        # Died without a RESET frame: an interpreter crash. Flush what it said, report,
        # and come back like a board after a brown-out (unless it keeps dying).
        self._drain_stdout()
        self._read_stderr()
        if self._child is not child:
            return
        self._child = None
        code = child.exited()
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
        self._repl.power_on(hard)
        self._jobs.clear()
        self._cur = None
        self._user_running = False
        self._pending.clear()
        if soft_message:
            self._out(b"MPY: soft reboot\r\n")
        self._jobs.append(("call", self._kill_child))
        self._jobs.append(("start",))
        self._jobs.append(("file", "boot.py"))
        if self._repl.mode == FRIENDLY:
            self._jobs.append(("file", "main.py"))
        self._jobs.append(("call", self._repl.prompt))

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
            self._repl.byte(b)

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
        self._child.send(msg)  # a dead agent: _check_child handles it

    def _spawn(self):
        self._fs_depth = 0  # open `mpremote mount` transactions of this interpreter
        self._child = Agent(self.micropython, share_bytes(self.heap, self.micropython),
                            image=self.image, fs_dir=self.fs_dir, sim_dir=self.sim_dir,
                            ctl_dir=self.ctl_dir, cause=self._cause)
        self.stats["boots"] += 1

    def _kill_child(self):
        child, self._child = self._child, None
        if child is not None:
            child.kill()

    # ---- the agent's output --------------------------------------------------------
    def _drain_stdout(self):
        child = self._child
        if child is None:
            return
        for data in child.output():
            if self._repl.mode != RAW and not self._fs_depth and b"\x18" not in data:
                data = data.replace(b"\r\n", b"\n").replace(b"\n", b"\r\n")
            self._out(data)

    def _read_stderr(self):
        child = self._child
        if child is None:
            return
        for kind, ident, payload in child.reports():
            if kind is None:
                self._out(payload)  # the program's own stderr
                continue
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
                self._repl.out_text(payload)
        else:
            cur[3](payload)

    def _sigint(self):
        if self._child is not None:
            self.stats["sigints"] += 1
            self._child.interrupt()

    # ---- bytes from the client ---------------------------------------------------
    def _input(self, data):
        if self._fs_depth and self._child is not None:
            # Inside an `mpremote mount` transaction: the running code reads these.
            self._child.send(data)
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

    def _exec(self, mode, src, on_done):
        self._jobs.append(("exec", mode, bytes(src), on_done))

    # raw REPL (what mpremote uses), with raw-paste

    # ---- bytes to the client -----------------------------------------------------
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
