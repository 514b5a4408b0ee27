"""The emulated board's interpreter: which unix port runs it, the heap it gets, and one
run of the agent (emu_agent.py under that port) with what it reports.

The agent runs the code the board is given and answers on stderr in frames
b"\\x00EMU <kind> <id> <len>\\n<payload>" (the kinds: emu_agent.py's header); everything
else it writes is the program's own output. A reset ends the process and starts a new
one: a fresh heap, like a device's.
"""
import os
import signal
import subprocess
import sys
import time

from paths import ROOT

HERE = os.path.dirname(os.path.abspath(__file__))
AGENT = os.path.join(HERE, "emu_agent.py")
LIB_DIR = os.path.join(HERE, "emu_lib")
FRAME_MAGIC = b"\x00EMU "
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


def say(text):
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
        path = mp32.binary(False, log=lambda text: said.append(say(text)))
        if path and said:
            say("built %s in %.0f s" % (os.path.relpath(path, ROOT), time.monotonic() - t))
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



class Agent:
    """One run of the agent: `micropython emu_agent.py` in the board's filesystem (a
    folder, or a flash image file), with `share` bytes of heap for the firmware."""

    def __init__(self, micropython, share, image=None, fs_dir=None, sim_dir=None,
                 ctl_dir=None, cause=1):
        cmd = [micropython, "-X", "heapsize=%d" % (share + SIM_ROOM), AGENT]
        if image:
            cmd += ["--image", image]
            cwd = os.path.dirname(image)
        else:
            cmd += ["--root", fs_dir]
            cwd = fs_dir
        if sim_dir:
            cmd += ["--sim", sim_dir, "--lib", LIB_DIR]
        if ctl_dir:
            cmd += ["--ctl", ctl_dir]
        cmd += ["--cause", str(cause), "--budget", str(share)]
        self._errbuf = b""
        self.proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, cwd=cwd, bufsize=0,
                                     start_new_session=True)
        os.set_blocking(self.proc.stdout.fileno(), False)
        os.set_blocking(self.proc.stderr.fileno(), False)

    def fds(self):
        """The pipes to wait on (select)."""
        return [self.proc.stdout.fileno(), self.proc.stderr.fileno()]

    def exited(self):
        """None while it runs, else its exit status."""
        return self.proc.poll()

    def send(self, data):
        """A command, or input for the running code; a dead agent is noticed by exited()."""
        try:
            self.proc.stdin.write(data)
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError):
            pass

    def interrupt(self):
        """Ctrl-C: KeyboardInterrupt in the running code."""
        try:
            self.proc.send_signal(signal.SIGINT)
        except ProcessLookupError:
            pass

    def kill(self):
        proc = self.proc
        try:
            proc.stdin.close()
        except OSError:
            pass
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        try:
            proc.wait(5)
        except subprocess.TimeoutExpired:
            pass
        for f in (proc.stdout, proc.stderr):
            try:
                f.close()
            except OSError:
                pass

    def output(self):
        """The chunks of the program's output (stdout) that have arrived."""
        while True:
            try:
                data = os.read(self.proc.stdout.fileno(), 65536)
            except (OSError, ValueError):  # BlockingIOError among them: nothing more now
                return
            if not data:
                return
            yield data

    def reports(self):
        """What arrived on stderr, in order: (None, None, text) for the program's own
        output, (kind, id, payload) for each whole frame. A frame cut short waits in the
        buffer for the next call."""
        while True:
            try:
                data = os.read(self.proc.stderr.fileno(), 65536)
            except (OSError, ValueError):
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
                    text = self._errbuf[:len(self._errbuf) - keep]
                    self._errbuf = self._errbuf[len(self._errbuf) - keep:]
                    yield None, None, text
                return
            if at > 0:
                text, self._errbuf = self._errbuf[:at], self._errbuf[at:]
                yield None, None, text
            nl = self._errbuf.find(b"\n")
            if nl < 0:
                return
            kind, ident, n = self._errbuf[len(FRAME_MAGIC):nl].decode().split()
            n = int(n)
            if len(self._errbuf) < nl + 1 + n:
                return
            payload = self._errbuf[nl + 1:nl + 1 + n]
            self._errbuf = self._errbuf[nl + 1 + n:]
            yield kind, ident, payload
