"""Test side channel of the emulated board (tools/emuboard/emuboard.py): buttons, shake, OLED.

The simulated world (machine.SIM) lives inside the MicroPython process that runs the
firmware, so a test reaches it through files in a control folder (mounted at
/_emu_ctl by tools/emuboard/emu_agent.py):
    cmd      lines "<seq> <verb> [arg]" appended by the test
             verbs: press NAME, release NAME, shake 1|0, frame, modules, ping,
             eval EXPR (repr of EXPR in main.py's globals, e.g. app.screen.NAME)
    reply    "<seq> ok|err <n>\\n" + n bytes, rewritten after each command (the reader
             waits until all n bytes are there): frame -> 1024 bytes MONO_VLSB;
             modules -> "name file" lines; errors -> the message.
poll() runs the commands; the simulated machine calls it from its per-frame
hardware accesses, and the agent installs it. Off (a no-op) unless install() ran, so
CPython tests and `make sim` never see it. Portable: CPython and the unix port.
"""
import os
import sys
import time

_ctl = None
_machine = None
_globals = {}
_off = 0
_next = 0
_PERIOD_MS = 10


def install(ctl_dir, machine, main_globals=None):
    """Turn the hook on: commands come from ctl_dir/cmd, machine.SIM is the world,
    `eval` sees main_globals (main.py's: `app` is the running App there)."""
    global _ctl, _machine, _off, _globals
    _ctl = ctl_dir
    _machine = machine
    _globals = main_globals if main_globals is not None else {}
    try:
        _off = os.stat(_ctl + "/cmd")[6]  # skip commands meant for an earlier boot
    except OSError:
        _off = 0
    _wrap(machine)


def _wrap(machine):
    # Until machine.py calls poll() itself, run it whenever the firmware reads a pin
    # or talks on the I2C bus: the button and shake polls do so every frame.
    targets = (("Pin", "value"), ("Pin", "__call__"), ("I2C", "readfrom_mem_into"),
               ("I2C", "readfrom_mem"), ("I2C", "writeto"), ("SoftI2C", "writeto"))
    for cls_name, meth in targets:
        cls = getattr(machine, cls_name, None)
        orig = getattr(cls, meth, None) if cls is not None else None
        if orig is None or getattr(orig, "_emu", False):
            continue
        try:
            setattr(cls, meth, _hooked(orig))
        except (AttributeError, TypeError):
            pass  # a built-in class: cannot be wrapped, and needs not be


def _hooked(orig):
    def f(*args, **kw):
        poll()
        return orig(*args, **kw)

    try:
        f._emu = True
    except AttributeError:
        pass  # MicroPython functions take no attributes; the double-wrap check is best effort
    return f


def _ticks():
    if hasattr(time, "ticks_ms"):
        return time.ticks_ms()
    return int(time.monotonic() * 1000)


def poll():
    global _next, _off
    if _ctl is None:
        return
    now = _ticks()
    if hasattr(time, "ticks_diff"):
        if time.ticks_diff(now, _next) < 0:
            return
    elif now < _next:
        return
    _next = now + _PERIOD_MS
    try:
        size = os.stat(_ctl + "/cmd")[6]
    except OSError:
        return
    if size <= _off:
        return
    with open(_ctl + "/cmd", "rb") as f:
        f.seek(_off)
        data = f.read(size - _off)
    end = data.rfind(b"\n") + 1  # only whole lines; the rest comes next poll
    _off += end
    for line in data[:end].split(b"\n"):
        if line:
            _do(line.decode())


def _do(line):
    parts = line.split(" ", 2)
    seq = parts[0]
    try:
        out = _verb(parts[1], parts[2] if len(parts) > 2 else "")
        status = "ok"
    except Exception as e:
        out = ("%s: %s" % (type(e).__name__, e)).encode()
        status = "err"
    # One write of header + payload; the reader checks the length (os.rename is no
    # help here: the unix port's VfsPosix with a root folder renames wrongly).
    with open(_ctl + "/reply", "wb") as f:
        f.write(("%s %s %d\n" % (seq, status, len(out))).encode() + out)


def _verb(verb, arg):
    sim = _machine.SIM
    if verb == "press":
        sim.press(arg)
    elif verb == "release":
        sim.release(arg)
    elif verb == "shake":
        sim.shake(arg == "1")
    elif verb == "eval":
        return repr(eval(arg, _globals)).encode()
    elif verb == "frame":
        return bytes(sim.oled.frame())
    elif verb == "modules":
        lines = []
        for name in sorted(sys.modules):
            lines.append("%s %s" % (name, getattr(sys.modules[name], "__file__", "-")))
        return "\n".join(lines).encode()
    elif verb != "ping":
        raise ValueError("unknown verb " + verb)
    return b""
