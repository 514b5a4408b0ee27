"""The test's hands and eyes on a running emulated board: buttons, shakes, the OLED's
frame and expressions in the firmware, through the control folder (protocol in
tools/sim/emu_hooks.py, which the board's machine stand-in serves)."""
import os
import time


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

    def wait_for(self, expr, want, timeout=30.0):
        """Until expr's repr on the board is want (e.g. "app.screen.NAME", "'menu'"); an
        expr the board cannot evaluate yet (no app before the boot made it: a loaded
        machine boots slower) is asked again. AssertionError after timeout, with the
        last answer."""
        end = time.monotonic() + timeout
        got = None
        while time.monotonic() < end:
            try:
                got = self.eval(expr, timeout=2.0)
                if got == want:
                    return got
            except (TimeoutError, RuntimeError) as e:
                got = e
            time.sleep(0.05)
        raise AssertionError("%s: wanted %s, last %r" % (expr, want, got))

    def modules(self):
        out = {}
        for line in self.command("modules").decode().splitlines():
            name, _, path = line.partition(" ")
            out[name] = path
        return out


def frame_to_text(frame, width=128, height=64, on="#", off="."):
    """MONO_VLSB frame as text rows (for test failure messages)."""
    rows = []
    for y in range(height):
        rows.append("".join(on if frame[(y // 8) * width + x] >> (y & 7) & 1 else off
                            for x in range(width)))
    return "\n".join(rows)
