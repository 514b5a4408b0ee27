"""`make sim` in a pseudo-terminal: a VT100 screen just big enough, the panel's packing,
the running simulator (PtySim) and the `sim_factory` fixture (conftest.py shares it)."""
import codecs
import fcntl
import os
import re
import select
import struct
import subprocess
import sys
import termios
import time
import pytest
import sim_render


ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


SIM_ROOT = os.environ.get("SIM_TEST_ROOT") or ROOT


class Screen:
    """Just enough of a VT100 for what tools/simulator/sim.py prints."""

    def __init__(self, cols, rows):
        self.cols, self.rows = cols, rows
        self.grid = [[" "] * cols for _ in range(rows)]
        self.x = self.y = 0
        self.dec = codecs.getincrementaldecoder("utf-8")("replace")
        self.pending = ""
        self.bells = 0
        self.alt = False

    def feed(self, data):
        s = self.pending + self.dec.decode(data)
        self.pending = ""
        i = 0
        while i < len(s):
            c = s[i]
            if c == "\x1b":
                m = re.match(r"\x1b\[([?0-9;]*)([@-~])", s[i:])
                if not m:
                    if len(s) - i < 16:
                        self.pending = s[i:]
                        return
                    i += 2
                    continue
                self.csi(m.group(1), m.group(2))
                i += m.end()
                continue
            if c == "\r":
                self.x = 0
            elif c == "\n":
                self.y = min(self.rows - 1, self.y + 1)
            elif c == "\a":
                self.bells += 1
            elif c >= " ":
                if self.x < self.cols and self.y < self.rows:
                    self.grid[self.y][self.x] = c
                self.x += 1
            i += 1

    def csi(self, params, final):
        if params.startswith("?"):
            if params == "?1049":
                self.alt = final == "h"
            return
        nums = [int(p) if p else 0 for p in params.split(";")] if params else []
        if final == "H":
            self.y = max(1, nums[0] if nums else 1) - 1
            self.x = max(1, nums[1] if len(nums) > 1 else 1) - 1
        elif final == "J":
            self.grid = [[" "] * self.cols for _ in range(self.rows)]
        elif final == "K":
            row = self.grid[min(self.y, self.rows - 1)]
            if nums and nums[0] == 2:
                row[:] = [" "] * self.cols
            else:
                row[self.x:] = [" "] * (self.cols - self.x)

    def text(self):
        return ["".join(r) for r in self.grid]

    def picture(self, w, h, mode):
        """The OLED pixels read back from the framed picture."""
        lines = self.text()
        top = next(i for i, ln in enumerate(lines) if "\u250c" in ln or "+-" in ln)
        left = lines[top].index("\u250c" if "\u250c" in lines[top] else "+")
        tc, tr = sim_render.text_size(mode, w, h)
        rows = [ln[left + 1:left + 1 + tc] for ln in lines[top + 1:top + 1 + tr]]
        return sim_render.unrender(rows, w, h, mode)


def pack(px, w, h):
    out = bytearray(w * h // 8)
    for y in range(h):
        for x in range(w):
            if px[y][x]:
                out[(y >> 3) * w + x] |= 1 << (y & 7)
    return bytes(out)


class PtySim:
    def __init__(self, tmp, extra=(), cols=140, rows=40, fs=None, env=None):
        self.master, self.slave = os.openpty()
        fcntl.ioctl(self.slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
        self.attrs_before = termios.tcgetattr(self.slave)
        self.trace = os.path.join(str(tmp), "trace.txt")
        self.fs = fs or os.path.join(str(tmp), "fs")
        e = dict(os.environ, LANG="C.UTF-8", TERM="xterm")
        e.pop("LC_ALL", None)
        e.pop("LC_CTYPE", None)
        e.update(env or {})
        cmd = [sys.executable, os.path.join(ROOT, "tools", "simulator", "sim.py"), "--root", SIM_ROOT,
               "--fs", self.fs, "--trace", self.trace] + list(extra)
        self.proc = subprocess.Popen(cmd, stdin=self.slave, stdout=self.slave,
                                     stderr=self.slave, env=e, start_new_session=True,
                                     cwd=str(tmp))
        self.screen = Screen(cols, rows)
        self.raw = b""

    def pump(self, seconds):
        end = time.monotonic() + seconds
        while True:
            left = end - time.monotonic()
            if left <= 0:
                return
            r, _, _ = select.select([self.master], [], [], left)
            if r:
                try:
                    data = os.read(self.master, 65536)
                except OSError:
                    return
                self.raw += data
                self.screen.feed(data)

    def until(self, pred, timeout=20.0, what="condition"):
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            self.pump(0.05)
            if pred():
                return
            if self.proc.poll() is not None:
                self.pump(0.2)
                break
        raise AssertionError("timed out waiting for %s; screen:\n%s\ntrace tail: %s" % (
            what, "\n".join(self.screen.text()), self.traces()[-3:]))

    def send(self, keys, pause=0.35):
        os.write(self.master, keys.encode())
        self.pump(pause)

    def traces(self):
        try:
            with open(self.trace) as f:
                return [ln.rstrip("\n") for ln in f]
        except OSError:
            return []

    def screen_name(self):
        names = [t[2:] for t in self.traces() if t.startswith("S ")]
        return names[-1] if names else None

    def last_frame(self):
        frames = [t for t in self.traces() if t.startswith("F ")]
        if not frames:
            return None
        _, w, h, hx = frames[-1].split()
        return int(w), int(h), bytes.fromhex(hx)

    def status(self):
        return next((ln for ln in self.screen.text() if "screen " in ln), "")

    def headline(self):
        return next((ln.strip() for ln in self.screen.text() if "firmware: " in ln), "")

    def loaded(self):
        """The file the child loaded the firmware's app module from (its W message)."""
        names = [t[2:] for t in self.traces() if t.startswith("W ")]
        return names[-1] if names else None

    def shown_matches_model(self, mode="block1"):
        """The picture on the terminal equals the firmware's last frame."""
        fr = self.last_frame()
        if fr is None:
            return False
        w, h, frame = fr
        try:
            return pack(self.screen.picture(w, h, mode), w, h) == frame
        except StopIteration:
            return False

    def close(self):
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        for fd in (self.master, self.slave):
            try:
                os.close(fd)
            except OSError:
                pass


@pytest.fixture
def sim_factory(tmp_path):
    made = []

    def make(*a, **k):
        s = PtySim(tmp_path, *a, **k)
        made.append(s)
        return s
    yield make
    for s in made:
        s.close()
