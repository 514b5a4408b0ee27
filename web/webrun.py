"""The firmware in the browser: the Python half of web/pd.js, on MicroPython's WebAssembly
port (@micropython/micropython-webassembly-pyscript 1.28.0-6, web/package.json).

The page writes into the port's filesystem (Emscripten MEMFS) the firmware's compiled
build as the device gets it (tools/flashing/build.py: /fw, board.mpy the DevKit profile), the
simulator's stand-ins (/tools/sim: machine, oled_model, accel_model, simrun) and the
saved files (/data, kept in the browser's IndexedDB by the page), then imports this
module. Like tools/simulator/sim.py it is a front end of tools/sim/simrun.py's Runner, which boots
the firmware as main.py does (the crash guard, then the App) and steps it: the page
calls tick(now) once a frame with its clock, and gets back simrun's message stream
(F frames, S screens, T buzzer tones, D panel on/dimmed, P the screen's texts, Z deep
sleep, C crash), which it draws, sounds and gives screen readers. Inputs are simrun's
commands: "p OK", "r OK", "s 1", "s 0".

The messages go to the page by a call of its `pdhost.messages(u8)` (a JS module the page
registers), never as a return value: the port loses a JS object a Python function
returns when a collection ran during the call (1.28.0-6; a `gc.collect()` before the
return is enough), and the firmware collects at every screen change.

The port has no os.urandom: the dice come from crypto.getRandomValues (or, for the
tests, core.seeded.Seeded(seed) as the unix-port tests use).

The link game's tests put a player at the buttons with the page's `?pilot=ROLE...`
(tools/sim/link_pilot.py, as simrun's --pilot): it plays before each frame, and its log
lines go to the page's `pdlink.log` (web/link_radio.js) instead of a file.
"""
import sys

import js
import pdhost

for _p in ("/tools/sim", "/fw"):
    if _p not in sys.path:
        sys.path.insert(0, _p)
import simrun  # noqa: E402

FW = "/fw"
FS = "/data"


def crypto_source(n):
    """n random bytes from the browser's CSPRNG (the device: the ESP32's hardware RNG)."""
    a = js.crypto.getRandomValues(js.Uint8Array.new(n))
    out = bytearray(n)
    for i in range(n):
        out[i] = a[i]
    return bytes(out)


class PilotLog:
    """The pilot's log file, written into the page's list (pdlink.log)."""

    def write(self, s):
        for line in s.split("\n"):
            if line:
                js.window.pdlink.log.push(line)

    def flush(self):
        pass


def _pilot():
    """The page's ?pilot= (link_radio.js reads the query), or "" for none."""
    link = getattr(js.window, "pdlink", None)
    p = getattr(link, "pilot", None) if link is not None else None
    return p if isinstance(p, str) else ""


class Web(simrun.Runner):
    def __init__(self, seed=-1):
        self.buf = bytearray()
        self.fixed = seed
        opts = dict(simrun.DEFAULTS)
        # prompt: the screen's texts (P lines), the page's aria-live line for screen readers
        opts.update({"root": "", "board": "esp32_devkit", "fs": FS, "firmware": FW, "prompt": "1",
                     "pilot": _pilot()})
        simrun.Runner.__init__(self, opts)
        self.asked = -1
        if self.pilot is not None:
            self.pilot.log = PilotLog()

    def watch(self):
        """The pilot's log also says when the host is asked about a lost guest: "lost S"
        (the seat), which link_pilot.py answers without a word."""
        a = getattr(self.app.screen, "asking", -1)
        if isinstance(a, int) and a != self.asked:
            self.asked = a
            if a >= 0:
                self.pilot.say("lost %d" % a)

    def source(self):
        if self.fixed >= 0:
            from core.seeded import Seeded
            return Seeded(self.fixed)
        return crypto_source

    def send(self, data):
        self.buf.extend(data)

    def flush(self):
        pass

    def take(self):
        """Hands the messages since the last call to the page (a Uint8Array copy)."""
        if self.buf:
            pdhost.messages(js.Uint8Array.new(self.buf))
            self.buf = bytearray()


web = None


def start(seed=-1):
    """Boots the firmware; its first messages go to the page."""
    global web
    web = Web(seed)
    web.start()
    web.publish()
    web.take()


def tick(now):
    """One frame at `now` ms since boot (the clock restarts at 0 after each boot: the
    page reads `boots()`); a deep sleep is entered here (Z 1) and left by wake()."""
    w = web
    p = w.pilot
    if p is not None:
        p.tick(now)
    w.step(now)
    if p is not None:
        p.after()
        w.watch()
    w.publish()
    if w.asleep_now():
        w.enter_deep()
    w.take()


def command(line):
    web.command(line)


def wake():
    """A button woke the sleeping chip: it boots (into Continue)."""
    web.wake()
    web.publish()
    web.take()


def boots():
    return web.boots


def tone():
    """(freq, duty) the buzzer pin carries now."""
    return simrun._tone(web.sim)


def state():
    """For the tests and the bench: what the App shows, as a JSON string."""
    import json
    from binascii import hexlify
    app = web.app
    s = app.screen
    g = getattr(s, "game", None)
    items = getattr(s, "items", None)
    cur = getattr(s, "cur", None)
    item = items[cur] if isinstance(items, list) and isinstance(cur, int) and 0 <= cur < len(items) else None
    return json.dumps({
        "game": hexlify(g.to_bytes()).decode() if hasattr(g, "to_bytes") else None,
        "item": item if isinstance(item, str) else None,
        "screen": getattr(s, "NAME", None), "view": getattr(s, "view", None),
        "rolling": bool(getattr(s, "rolling", False)), "tumbling": bool(app.tumbling),
        "winner": getattr(g, "winner", -1) if g is not None else -1,
        "player": getattr(g, "player", -1) if g is not None else -1,
        "cpus": list(app.cpus), "notice": app.notice, "boots": web.boots,
        "ack": bool(getattr(s, "ack", False)), "by_cpu": bool(getattr(s, "by_cpu", False)),
    })
