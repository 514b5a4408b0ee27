"""The harness's other modes (frames, core, boot, imports): see tools/bench/harness.py.

Kept apart from the game mode so that a game run interns none of their names: the
qstr pools are shared with the firmware (see tools/sim/qstr_pools.py).
"""
import gc
import sys

from harness import MP, PageBus, alloc, live, mkdir, out, paths, sim_board, \
    ticks_diff, ticks_us

# ---- frames ---------------------------------------------------------------------------

class StandIn:
    """Devices for the frame measurements: the real hal Display on a counting bus, the
    real event queue; inputs go straight into the queue at the next poll."""

    def __init__(self):
        from hal.display import Display
        from hal.events import Queue
        self.bus = PageBus()
        self.display = Display(self.bus)
        self.queue = Queue(32)
        self.buzzer = None
        self.shaker = None
        self.sensor_missing = False
        self.battery = None
        self.pending = bytearray(8)
        self.np = 0

    def source(self, n):
        raise ValueError("the bench gives the App a seeded source")

    def push(self, ev):
        self.pending[self.np] = ev
        self.np += 1

    def poll(self, now):
        for i in range(self.np):
            self.queue.put(self.pending[i])
        self.np = 0


_NAMES = ("PREV", "NEXT", "OK", "BACK")


class StandInSim:
    """What the pilot calls on machine.SIM, as events into the stand-in's queue."""

    def __init__(self, dev):
        self.dev = dev

    def press(self, name):
        self.dev.push(0x10 | _NAMES.index(name))

    def release(self, name):
        self.dev.push(0x20 | _NAMES.index(name))

    def shake(self, on):
        self.dev.push(0x50 if on else 0x60)


def _measure(d, frames, feed=None):
    """Bytes allocated over `frames` frames with collection off; feed(i) adds inputs."""
    app = d.app
    t = d.now
    gc.collect()
    gc.disable()
    try:
        before = alloc()
        for i in range(frames):
            if feed is not None:
                feed(i)
            app.step(t)
            t += 33
        used = alloc() - before
    finally:
        gc.enable()
    d.now = t
    return used


def _traffic(d, feed, frames=30):
    """(bus bytes, pages) of each frame that sent something, over `frames` frames."""
    app = d.app
    bus = d.dev.bus
    got = []
    for i in range(frames):
        if feed is not None:
            feed(i)
        b0 = bus.bytes
        p0 = bus.pages
        bus.mask = 0
        app.step(d.now)
        d.now += 33
        if bus.bytes != b0:
            got.append((bus.bytes - b0, bus.pages - p0, bus.mask))
    return got


def _report_traffic(name, got):
    if not got:
        out("traffic", name, 0, 0, 0, 0)
        return
    mx = max(g[0] for g in got)
    mp = max(g[1] for g in got)
    avg = sum(g[0] for g in got) // len(got)
    masks = ",".join("%02x" % g[2] for g in got)
    out("traffic", name, len(got), avg, mx, mp, masks)


def frames(root, lib, fs):
    paths(root, lib)
    import pilot
    mkdir(fs)
    from app import App
    dev = StandIn()
    app = App(None, fs_root=fs, devices=dev, source=pilot.XorShift(3))
    d = pilot.Driver(app, StandInSim(dev), 3)
    d.dev = dev
    d.run(d.frames(1500))
    d.run(d.to_menu())
    n = 60

    def press(code, every):
        def feed(i):
            if i % every == 0:
                dev.push(code)
        return feed

    nxt = press(0x11, 3)
    # Menu.
    d.run(d.frames(100))
    out("alloc", "idle_menu", n, _measure(d, n))
    _measure(d, 18, nxt)  # every item drawn once first (first draws may intern text)
    out("alloc", "menu_cursor", n, _measure(d, n, nxt))
    _report_traffic("menu_cursor", _traffic(d, press(0x11, 4), 24))
    # A full screen change: menu -> Shake Up setup.
    scr = app.screen
    while scr.items[scr.cur] != "SHAKE UP":
        d.run(d.tap("NEXT"))
    d.run(d.frames(100))
    got = _traffic(d, press(0x12, 100), 3)
    _report_traffic("screen_change", got[:1])
    d.run(d.frames(100))
    # Shake Up: to the first turn's board (2 players), through the roll-off.
    d.run(d.tap("OK"))
    ss = d.ssn  # the Shake Up screen's views (see pilot.Driver)
    for _ in range(200):
        s = app.screen
        if s.NAME == "shakeup" and s.view == ss.BOARD:
            break
        if s.NAME == "pass" or (s.NAME == "shakeup" and s.view != ss.ROLLOFF) or len(s.info):
            d.run(d.tap("OK"))
        else:
            d.run(d.tap("OK"))
            d.run(d.frames(600))
    s = app.screen
    if s.NAME != "shakeup" or s.view != ss.BOARD:
        raise ValueError("frames: never reached the Shake Up board (%s)" % s.NAME)
    dev.push(0x50)  # SHAKE_START: the dice tumble until SHAKE_END
    d.run(d.frames(66))
    out("alloc", "su_tumble", n, _measure(d, n))
    _report_traffic("su_tumble", _traffic(d, None, 30))
    dev.push(0x60)
    d.run(d.frames(100))
    if s.view != ss.DICE:
        raise ValueError("frames: the dice did not land")
    _measure(d, 18, press(0x11, 2))
    out("alloc", "su_dice_cursor", n, _measure(d, n, press(0x11, 2)))
    _report_traffic("su_dice_cursor", _traffic(d, press(0x11, 4), 24))
    # Farkle Frenzy, solo: the Common Die, a roll, the take view.
    d.run(d.tap("BACK"))
    d.run(d.to_menu())
    d.run(d.new_game(2, 1))
    fs_ = d.fvn  # the screen's views and items, and the core's codes (see pilot.Driver)
    fz = d.fzn
    tumbled = False
    for _ in range(50):
        s = app.screen
        if s.NAME == "frenzy" and s.view == fs_.V_PLAY and s.game.phase == fz.PH_TAKE:
            break
        if s.NAME == "frenzy" and s.view == fs_.V_PLAY and s.game.phase in (fz.PH_COMMON,
                                                                            fz.PH_ROLL):
            d.run(d._item(fs_.IT_ROLL))
            dev.push(0x12)
            d.run(d.frames(66))
            if not app.tumbling:
                raise ValueError("frames: no tumble in Frenzy")
            if not tumbled:  # after OK the dice tumble 450 ms (13 frames), then land
                tumbled = True
                out("alloc", "fz_tumble", 10, _measure(d, 10))
            d.run(d.frames(600))
        elif s.NAME == "frenzy" and s.view == fs_.V_PLAY and s.game.phase == fz.PH_WILD:
            d.run(d.tap("OK"))
        else:
            d.run(d.tap("OK"))
    s = app.screen
    if s.NAME != "frenzy" or s.game.phase != fz.PH_TAKE:
        raise ValueError("frames: never reached a Frenzy take")
    _measure(d, 18, press(0x11, 2))
    out("alloc", "fz_take_cursor", n, _measure(d, n, press(0x11, 2)))
    _report_traffic("fz_take_cursor", _traffic(d, press(0x11, 4), 24))
    out("ok", 1)


# ---- core speed -----------------------------------------------------------------------

def _rolls():
    """All 5-dice rolls (6^5) as one bytes of 5-byte records."""
    b = bytearray(5 * 7776)
    j = 0
    for a in range(1, 7):
        for c in range(1, 7):
            for e in range(1, 7):
                for f in range(1, 7):
                    for g in range(1, 7):
                        b[j] = a
                        b[j + 1] = c
                        b[j + 2] = e
                        b[j + 3] = f
                        b[j + 4] = g
                        j += 5
    return bytes(b)


def core(root, lib, quick=False):
    paths(root, lib)
    from core import frenzy_score as fsc
    from core import shakeup as su
    from core.dice import Dice
    from core.seeded import Seeded
    from fw_codes import su as suc
    allr = _rolls()
    views = [memoryview(allr)[i:i + 5] for i in range(0, len(allr), 5)]
    commons = (None, 1, 2, 3, 4, 5, 6)
    if quick:
        views = views[:1000]
    # is_farkle: every roll with every usable number of the Common Die (or none), as
    # the game asks (core.frenzy_score.farkle_of: the checked is_farkle is host only).
    is_f = fsc.farkle_of
    n = 0
    t0 = ticks_us()
    for c in commons:
        for r in views:
            is_f(r, 5, c)
        n += len(views)
    out("speed", "is_farkle", n, ticks_diff(ticks_us(), t0))
    # selections: the scored selection list of every roll (with none and a 1 and a 5).
    sel = fsc.selections_of
    t = fsc.ones_table(300)
    n = 0
    t0 = ticks_us()
    for c in (None, 1, 5):
        for r in views:
            sel(r, 5, c, t)
        n += len(views)
    out("speed", "selections", n, ticks_diff(ticks_us(), t0))
    # Shake Up: legal() + apply() per decision over seeded 4-player games.
    games = 3 if quick else 30
    pick = Seeded(99)
    n = 0
    t = 0
    for k in range(games):
        g = su.Game(4, False, Dice(Seeded(k + 1)))
        t0 = ticks_us()
        while g.winner < 0:
            legal = g.legal()
            d = legal[pick(1)[0] % len(legal)]
            if d & 0xF00 == suc.PEN and len(legal) > 1:
                d = legal[-1]
            g.apply(d)
            n += 1
        t += ticks_diff(ticks_us(), t0)
    out("speed", "shakeup_decision", n, t)
    out("ok", 1)


# ---- boot -----------------------------------------------------------------------------

def boot(root, lib, fs):
    board, sim = sim_board(root, lib)
    import pilot
    mkdir(fs)
    src = pilot.XorShift(5)
    base = live()
    if MP:
        gc.disable()
    a0 = alloc()
    t0 = ticks_us()
    # What main.py does, up to the first frame (run() would loop from there).
    from system.heap import hold_growth
    pin = hold_growth()  # noqa: F841 (held, as main.py holds it)
    from system import guard
    guard.boot(fs)
    from app import App
    app = App(board, fs_root=fs, source=src)
    t_app = ticks_diff(ticks_us(), t0)
    now = 1000
    app.step(now)
    t_first = ticks_diff(ticks_us(), t0)
    a_first = alloc() - a0
    frames_n = 1
    while getattr(app.screen, "NAME", "") != "menu" and frames_n < 200:
        now += 33
        app.step(now)
        frames_n += 1
    t_menu = ticks_diff(ticks_us(), t0)
    a_menu = alloc() - a0
    if MP:
        gc.enable()
    kept = live() - base
    menu = sys.modules.get("ui.menu") or sys.modules["ui.screens"]  # Splash: ui.menu now
    splash = getattr(getattr(menu, "Splash", None), "MS", 0)
    out("boot", t_app, t_first, t_menu, a_first, a_menu, kept, frames_n, splash)
    out("ok", 1)


# ---- imports --------------------------------------------------------------------------

# What boot keeps, then the menu, then each game's resident modules, then modules loaded
# on demand for a moment (the figure is what each would add while loaded).
BOOT_ORDER = ("system.guard", "core.games", "system.store", "system.power", "ui.gfx", "ui.font", "ui.screens",
              "ui.sounds", "hal.events", "hal.display", "hal.buttons", "hal.buzzer",
              "hal.shake", "hal.mpu6050", "hal.devices", "hal.wiring", "core.dice", "app", "ui.menu",
              "core.shakeup", "ui.shakeup_screen",
              "core.frenzy_score", "core.frenzy", "ui.frenzy_screen", "core.frenzy_why",
              "core.frenzy_load",
              "core.shakeup_load", "core.shakeup_why", "ui.launch", "ui.setup", "ui.settings",
              "ui.howto", "ui.stats")


class Imports:
    """Heap kept by each module's import (and what it pulls in not yet loaded), in
    boot order, one module per tick (see Session.tick)."""

    def __init__(self, root, lib):
        self.board, self.sim = sim_board(root, lib)
        self.i = 0
        self.prev = live()
        self.rows = []
        self.ok = False

    def tick(self):
        a = live()
        if 0 < self.i <= len(BOOT_ORDER) and not self.ok:
            self.rows.append((BOOT_ORDER[self.i - 1], a - self.prev))
        self.prev = a
        if self.i >= len(BOOT_ORDER):
            self.ok = True
            self.i += 1
            return False
        name = BOOT_ORDER[self.i]
        self.i += 1
        if name not in sys.modules:
            try:
                __import__(name)
            except ImportError as e:
                out("import_missing", name, str(e).replace(" ", "_"))
        return True

    def report(self):
        total = 0
        for name, k in self.rows:
            total += k
            out("import", name, k)
        out("import_total", total)
        out("ok", 1)


def imports(root, lib):
    s = Imports(root, lib)
    while s.tick():
        pass
    s.report()
