"""A test rig for the app: a virtual clock, buttons, shakes and the shown frame.

Uses the simulated board (tools/sim/machine.py + hal.devices + boards/sim.py) when
those exist; otherwise a minimal stand-in built from hal.events.Queue and a framebuf.
Portable: runs under CPython (when framebuf is importable) and MicroPython.
"""
from checks import rmtree as _rmtree, tmpdir  # noqa: F401  (the tests use ui_rig's)

FRAME = 33
PREV = 0
NEXT = 1
OK = 2
BACK = 3
NAMES = ("PREV", "NEXT", "OK", "BACK")


class FakeDisplay:
    def __init__(self):
        import framebuf
        self.buf = bytearray(1024)
        self.fb = framebuf.FrameBuffer(self.buf, 128, 64, framebuf.MONO_VLSB)
        self.shown = bytearray(1024)
        self.level = 207
        self.on = True
        self.ok = True
        self.shows = 0

    def show(self):
        self.shown[:] = self.buf
        self.shows += 1
        return 1024

    def contrast(self, v):
        self.level = v

    def sleep(self, on):
        self.on = not on

    def init(self):
        return True


class FakeBuzzer:
    def __init__(self):
        self.muted = False
        self.busy = False
        self.last = -1
        self.plays = 0

    def play(self, seq, start=0, end=-1):
        self.last = start  # where the effect starts (no slice: frames must not allocate)
        self.plays += 1

    def tick(self, now):
        pass

    def stop(self):
        pass


class FakeDevices:
    """Events are injected straight into the queue (no debounce)."""

    def __init__(self, shaker=True):
        from hal.events import Queue
        self.queue = Queue(32)
        self.display = FakeDisplay()
        self.buzzer = FakeBuzzer()
        self.shaker = None
        self.sensor_missing = not shaker
        self.battery = None
        self.pending = []

    def source(self, n):
        raise ValueError("tests give the App a seeded source")

    def poll(self, now):
        if self.pending:
            for ev in self.pending:
                self.queue.put(ev)
            self.pending = []


def have_sim():
    """The simulated board is complete: machine.SIM, hal.devices and boards/sim.py."""
    try:
        open("boards/sim.py").close()
        import machine
        import hal.devices  # noqa: F401
        return hasattr(machine, "SIM")
    except (ImportError, OSError):
        return False


class Rig:
    def __init__(self, name, seed=1, sim=None, fs=None, board="sim"):
        from app import App
        from core.seeded import Seeded
        self.root = fs if fs is not None else tmpdir(name)
        self.sim = have_sim() if sim is None else sim
        if self.sim:
            import machine
            self.SIM = machine.SIM
            board = _board(board)
            if hasattr(self.SIM, "configure"):
                self.SIM.configure(board)
            self.app = App(board, self.root, source=Seeded(seed))
        else:
            self.dev = FakeDevices()
            self.app = App(None, self.root, devices=self.dev, source=Seeded(seed))
        self.t = 1000
        self.app.step(self.t)

    def step(self, n=1):
        for _ in range(n):
            self.t += FRAME
            self.app.step(self.t)

    def wait(self, ms):
        self.step(ms // FRAME + 1)

    def press(self, b, frames=2):
        if self.sim:
            self.SIM.press(NAMES[b])
            self.step(3)
            self.SIM.release(NAMES[b])
            self.step(frames)
        else:
            self.dev.pending.append(0x10 | b)
            self.step(1)
            self.dev.pending.append(0x20 | b)
            self.step(frames)

    def long_ok(self):
        """Hold OK past the long press (BACK on a 3-button board), then let go."""
        self.SIM.press("OK")
        self.wait(800)
        self.SIM.release("OK")
        self.step(2)

    def shake(self, ms=400):
        """Shake like a player: until the dice rattle (the detector needs ~1/4 s, and
        ignores motion for a moment after a roll), ms more, then hold still until
        they land. Shaking when no roll is due just shakes for ms."""
        if self.sim:
            app = self.app
            self.SIM.shake(True)
            for _ in range(2000 // FRAME):
                if app.tumbling:
                    break
                self.step()
            self.wait(ms)
            self.SIM.shake(False)
            for _ in range(2000 // FRAME):
                if not app.tumbling:
                    break
                self.step()
            self.step(2)
        else:
            self.dev.pending.append(0x50)
            self.wait(ms)
            self.dev.pending.append(0x60)
            self.step(2)

    def frame(self):
        if self.sim:
            return bytes(self.SIM.oled.frame())
        return bytes(self.dev.display.shown)

    @property
    def screen(self):
        return self.app.screen.NAME


class Player:
    """What the UI tests' pilots share: the rig, seeded choices, a shadow core game
    (set by the pilot) and the count of decisions made."""

    def __init__(self, rig, seed):
        from core.seeded import Seeded
        self.r = rig
        self.rnd = Seeded(seed)
        self.shadow = None
        self.decisions = 0

    def pick(self, n):
        return self.rnd(1)[0] % n

    def scr(self):
        return self.r.app.screen


def to_item(r, item):
    """Press NEXT (8 times at most) until the screen's cursor is on `item`; whether
    it is there now."""
    s = r.app.screen
    for _ in range(8):
        if s.items[s.cur] == item:
            return True
        r.press(NEXT)
    return s.items[s.cur] == item


def select(r, dice, common=False):
    """Frenzy's TAKE: make the selection exactly `dice` (indices), plus the Common Die
    when common, from whatever is marked (TAKE opens with the best selection marked):
    OK on each die that differs, reached with NEXT. Leaves the cursor where it is."""
    s = r.app.screen
    want = 0x20 if common else 0
    for i in dice:
        want |= 1 << i
    for _ in range(6):
        diff = s.mask ^ want
        if not diff:
            return
        it = 0  # die i is item i; the Common Die (bit 5) is item 5, IT_COMMON
        while not diff >> it & 1:
            it += 1
        if not to_item(r, it):
            raise AssertionError("die %d is not offered (items %r)" % (it, bytes(s.items[:s.nitems])))
        r.press(OK)
    assert s.mask == want, (s.mask, want)


def back_and_continue(r):
    """BACK to the menu (the game stays saved), then CONTINUE: the restored screen."""
    r.press(BACK)
    m = r.app.screen
    assert m.NAME == "menu" and m.items[0] == "CONTINUE", (m.NAME, getattr(m, "items", ()))
    m.cur = 0
    r.press(OK)
    return r.app.screen


def mash_input(r, what, arg):
    """One random input for the mash tests: a button (what 0-3) held 1-2 frames, a
    shake (what 4) of 100-610 ms, or (5) a pause of up to 2 s; arg is a random byte."""
    if what <= 3:
        r.press(what, 1 + (arg & 1))
    elif what == 4:
        r.shake(100 + arg * 2)
    else:
        r.wait(arg * 8)


def at_menu(r):
    """Let the splash pass; the menu must be up."""
    r.wait(1500)
    assert r.screen == "menu", r.screen


def setup_game(r, item, players, seats=None, press=True):
    """From the menu: choose `item` (a game), then on its setup screen `players` and
    each seat's code (seats: 0 HUMAN, 1-3 CPU EASY, NORMAL, HARD; None: all human),
    by its buttons (NEXT moves over the rows, OK opens a seat's choices: NEXT to
    one, OK takes it); then START (unless
    press is False: left on START)."""
    m = r.app.screen
    while m.items[m.cur] != item:
        r.press(NEXT)
    r.press(OK)
    assert r.screen == "setup"
    s = r.app.screen
    want = bytes(players) if seats is None else bytes(seats)

    def row(i):
        while s.cur != i:
            r.press(NEXT)

    row(0)
    while s.n != players:
        r.press(OK)
    for _ in range(2):  # twice: the one human left stays so until another seat is
        for i in range(players):
            if s.seats[i] == want[i]:
                continue
            row(1 + i)
            r.press(OK)  # the seat's choices, all in view
            while s.pcur != want[i]:
                r.press(NEXT)
            r.press(OK)
            if s.pick >= 0:  # (the one human left: not yet) the seat as it was
                while s.pcur != s.seats[i]:
                    r.press(NEXT)
                r.press(OK)
    assert bytes(s.seats[:players]) == want[:players], (bytes(s.seats), want)
    row(s.start_row())
    if press:
        r.press(OK)


def humans_only(app):
    """Every game's setup offered as all human (the first time it is you against a
    CPU): for the tests that mash or press through the setup as before the CPUs."""
    from system.store import S_SETUP
    for k in range(2):
        app.settings[S_SETUP + 2 * k + 1] = 0


def alloc_over(r, frames, feed=None):
    """Bytes allocated while the app runs `frames` frames (feed(i) may put events into
    the queue first); 0 where gc.mem_alloc is missing (CPython: the scenario only)."""
    import gc
    app = r.app
    if not hasattr(gc, "mem_alloc"):
        for i in range(frames):
            if feed is not None:
                feed(i)
            r.t += FRAME
            app.step(r.t)
        return 0
    t = r.t
    gc.collect()
    gc.disable()
    try:
        before = gc.mem_alloc()
        for i in range(frames):
            if feed is not None:
                feed(i)
            t += FRAME
            app.step(t)
        used = gc.mem_alloc() - before
    finally:
        gc.enable()
    r.t = t
    return used


def faces(*values):
    """The source bytes that make Dice.d6() roll these values (it turns an accepted
    byte b into b % 6 + 1)."""
    return bytes(v - 1 for v in values)


class Script:
    """A byte source for Dice that gives `data` first, then seeded bytes."""

    def __init__(self, data, seed=7):
        from core.seeded import Seeded
        self.data = data
        self.i = 0
        self.more = Seeded(seed)

    def __call__(self, n):
        out = bytearray(n)
        for k in range(n):
            if self.i < len(self.data):
                out[k] = self.data[self.i]
                self.i += 1
            else:
                out[k] = self.more(1)[0]
        return bytes(out)


def scripted(name, data, seed=7):
    """A Rig whose dice roll from `data` first (see faces()), then seeded bytes."""
    from core.dice import Dice
    r = Rig(name)
    r.app.dice = Dice(Script(data, seed))  # before a game starts: the game takes it
    return r


class _Board:
    pass


def _board(name):
    """A board profile loaded from boards/<name>.py (as the device's `board` module)."""
    d = {}
    with open("boards/" + name + ".py") as f:
        exec(f.read(), d)
    b = _Board()
    for k in d:
        if not k.startswith("__"):
            setattr(b, k, d[k])
    return b


def ascii_art(frame):
    rows = []
    for y in range(64):
        row = []
        for x in range(128):
            row.append("#" if frame[(y >> 3) * 128 + x] >> (y & 7) & 1 else ".")
        rows.append("".join(row))
    return "\n".join(rows)


def diff_art(want, got):
    """Rows of both frames side by side where they differ ('+' lit only in got,
    '-' lit only in want)."""
    out = []
    for y in range(64):
        row = []
        bad = False
        for x in range(128):
            i = (y >> 3) * 128 + x
            a = want[i] >> (y & 7) & 1
            b = got[i] >> (y & 7) & 1
            if a == b:
                row.append("#" if a else ".")
            else:
                bad = True
                row.append("+" if b else "-")
        out.append(("%2d " % y) + "".join(row) + (" <" if bad else ""))
    return "\n".join(out)


def assert_full_frame(r):
    """The frame on the panel is the one a full draw() of the screen makes (a screen
    that redrew part of it over the last frame: DIRTY_CURSOR and the like)."""
    d = r.app.display
    keep = bytes(d.buf)
    d.fb.fill(0)
    r.app.screen.draw(d.fb)
    want = bytes(d.buf)
    d.buf[:] = keep
    assert r.app.notice is not None or want == keep, \
        "a partly redrawn frame differs from draw():\n" + diff_art(want, keep)
