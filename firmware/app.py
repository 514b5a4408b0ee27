"""The application loop: devices -> current screen -> display, buzzer, power.

`App(board, fs_root="/", devices=None, source=None)`; `step(now_ms)` runs one frame:
poll the devices into the event queue, handle the shake-to-roll protocol, let the
current screen `update(q)`, `draw(fb)` it when dirty, `display.show()`, tick the
buzzer, apply the power level. `run()` calls step() on a fixed 30 fps schedule
(ticks_add/ticks_diff: a late frame is caught up at once, so the schedule never
drifts; far behind, it re-synchronises), sleeps between frames and feeds the watchdog.

Screens and the services they use are described in ui/screens.py. A game's modules
(core.shakeup + ui.shakeup_screen, core.frenzy + ui.frenzy_screen) are imported only
when that game starts or is continued. gc.collect() runs at screen changes only.

Shake to roll: while the screen says `rolling`, SHAKE_START starts the tumble (and the
rattle); SHAKE_END ends it: the screen's roll() draws the values from the RNG and the
dice land with a click. OK at a rolling moment is a short tumble then the same roll().
Shakes at any other time are ignored.

The saved game's ui bytes start with the seat holding the device (+1); the rest
belongs to the game screen.
"""
import gc

# Collect after every 4 KB allocated (MicroPython): without it the first collection comes
# only when the heap is full, so what boot and the menu keep ends up spread over the whole
# heap between freed temporaries, and a game's code then finds no free run long enough
# for its bigger functions. Frames allocate nothing, so play never pays for it. A big
# heap (PSRAM) does not fragment that way and each collection sweeps all of it, so there
# the threshold grows with the heap (1/32 of it).
if hasattr(gc, "threshold"):
    gc.threshold(max(4096, gc.mem_free() >> 5))

try:
    from micropython import const
except ImportError:
    def const(x):
        return x

try:
    from time import sleep_ms, ticks_add, ticks_diff, ticks_ms
except ImportError:  # CPython
    import time as _time

    def ticks_ms():
        return int(_time.monotonic() * 1000)

    def ticks_add(a, b):
        return a + b

    def ticks_diff(a, b):
        return a - b

    def sleep_ms(ms):
        _time.sleep(ms / 1000)

from ui import gfx, screens, sounds

_TYPES = const(0)  # the App's attribute types, for pyright (on the device "if 0:" is no code)
if _TYPES:
    import power
    import store
    from core.dice import Dice
    from hal.buzzer import Buzzer
    from hal.devices import Devices
    from hal.display import Display
    from hal.events import Queue
    from hal.shake import Shaker

FRAME_MS = const(33)
_TUMBLE_MS = const(450)      # the tumble after OK
_TUMBLE_MAX = const(4000)    # a shake that never ends still lands
_NOTICE_MS = const(2500)
_FAR_BEHIND = const(200)    # ms late before the schedule re-synchronises
_SHAKE_START = const(0x50)
_SHAKE_END = const(0x60)
_OFF = const(2)             # power.OFF: display off (and DEEP = 3 beyond it)
_DEEP = const(3)
_S_CONTRAST = const(1)    # store.S_CONTRAST
_MENU = const(1)          # go: back to the menu (a game to start is >= 0x11, see _go())

# The ui and core modules that menu() keeps; it drops every other one (a game's, a
# menu screen's) so its code does not keep heap from the next one. ui.menu (the menu
# level, with its cursor) goes only when a game starts. (A list of the droppable ones
# cost ~480 B on the 64-bit port: names that long are str objects.)
_KEEP = ("ui.gfx", "ui.font", "ui.screens", "ui.sounds", "core.dice", "ui.menu")

try:
    import power as _power
except ImportError:  # power.py not installed: never dim or sleep
    _power = None


def _unload(names=None):
    """Drop modules (default: every ui.* and core.* module but _KEEP) so their code no
    longer keeps heap."""
    import sys
    mods = sys.modules
    if names is None:
        names = [n for n in mods if (n[:3] == "ui." or n[:5] == "core.") and n not in _KEEP]
    for name in names:
        if name in mods:
            del mods[name]
            pkg, attr = name.split(".")
            p = mods.get(pkg)
            if p is not None and hasattr(p, attr):
                try:
                    delattr(p, attr)
                except (AttributeError, TypeError):
                    pass


class App:
    # Set by ui.boot (annotations only: no code, no heap on the device).
    board: object
    dev: "Devices"
    display: "Display"
    q: "Queue"
    buzzer: "Buzzer | None"
    shaker: "Shaker | None"
    sensor_missing: bool
    store: "store.Store"
    settings: bytearray
    dice: "Dice"
    players: int
    power: "power.Power | None"
    battery: "power.Battery | None"
    _blank: "screens.Screen"

    def __init__(self, board, fs_root="/", devices=None, source=None):
        # Once per boot: the code is in ui.boot, loaded for this and dropped after.
        from ui.boot import boot
        _unload(("ui.boot",))
        boot(self, board, fs_root, devices, source)

    # ---- services for screens ------------------------------------------------

    def elapsed(self, t0):
        return ticks_diff(self.now, t0)

    def show(self, scr):
        self.screen = scr
        scr.enter()
        scr.dirty = True
        gc.collect()

    def menu(self):
        self.go = _MENU  # done by _go() once the caller's update() returned

    def say(self, line1, line2=None):
        self.notice = line1
        self.notice2 = line2
        self._notice_t = self.now
        if self.screen is not None:
            self.screen.dirty = True

    def play(self, snd=sounds.SELECT):
        if self.buzzer is not None:
            self.buzzer.play(sounds.TUNES, snd >> 8, snd & 0xFF)  # in place: no copy

    play_select = play  # the cursor click (play's default)

    def start_roll(self, by_shake=False):
        """OK at a rolling moment: a short tumble, then screen.roll(). by_shake: a shake
        started (step()): the dice tumble until it ends."""
        if not self.tumbling and self.screen.rolling:
            self.tumbling = True
            self._by_shake = by_shake
            self._tumble_t0 = self._rattle_next = self.now
            self.screen.dirty = True

    def hand_to(self, seat):
        if seat == self.holder:
            return False
        if self.players <= 1:
            self.holder = seat
            return False
        self.show(screens.Pass(self, seat, self.screen))
        return True

    def save(self, kind, game, ui=b""):
        try:
            self.store.save_game(kind, game.to_bytes(), bytes((self.holder + 1,)) + bytes(ui))
        except ValueError:
            self.say("COULD NOT SAVE")  # play goes on; the old save stays

    def finish(self, kind, game, best_round=0, total=0):
        # The stats counted and saved, the save cleared: resident code, nothing loaded.
        self.store.finish_game(kind, game.winner, best_round, total)

    def _go(self, g=-1):
        """Back to the menu (g = _MENU: menu()), start (g = kind << 4 | players) or
        continue (g = -1) a game. Screens ask for it by setting `go`; step() calls this
        after update() returned, so the code that asked is no longer running: what it
        leaves (a game's modules, or the menu level, ui.menu) is dropped and collected
        before the next part loads (ui.launch starts a game, and is dropped as it does)."""
        self.go = 0
        self.screen = self._blank
        if g == _MENU:
            self.tumbling = False
            _unload()
            gc.collect()
            from ui.menu import show_menu  # the menu level: dropped again when a game starts
            show_menu(self)
            return
        _unload(("ui.menu",))
        gc.collect()
        from ui.launch import launch
        _unload(("ui.launch",))
        got = launch(self, g)
        launch = None  # ui.launch goes before the screen is made: the start's fullest heap
        if got is None:
            return
        cls, game, ui = got
        try:
            scr = cls(self, game, ui)
        except (ValueError, IndexError):
            if ui is None:
                raise  # a new game that cannot start is a bug, not a damaged save
            self.store.reject_game()  # its screen state cannot be restored
            self.menu()
            return
        if ui is None:
            self.save(cls.KIND, game, b"")
        self.show(scr)

    resume = _go  # continue the saved game (main.py after a crash or a wake)

    # ---- the frame ---------------------------------------------------------------

    def step(self, now_ms):
        self.now = now_ms
        self.frame += 1
        dev = self.dev
        try:
            dev.poll(now_ms)
        except OSError:
            pass
        q = self.q
        n = q.n
        pw = self.power
        if n and pw is not None:
            if pw.activity(now_ms) >= _OFF:
                n = 0  # this press only woke the display
                bt = getattr(dev, "buttons", None)
                if bt is not None:
                    bt.ignore_held()  # held on, it stays silent (no repeat) until let go
        scr = self.screen
        landed = False  # the shake that tumbles the dice ended in this frame's events
        if n:
            buf = q.buf
            for i in range(n):
                kind = buf[i] & 0xF0
                if kind == _SHAKE_START:
                    self.start_roll(True)
                elif kind == _SHAKE_END and self.tumbling and self._by_shake:
                    landed = True
                    n = 0  # the rest of this frame's events fell during the shake
                    break
        busy = self.tumbling
        if busy:
            t = ticks_diff(now_ms, self._tumble_t0)
            if landed or t >= _TUMBLE_MAX or (not self._by_shake and t >= _TUMBLE_MS):
                self.tumbling = False
                scr.dirty = True
                sh = self.shaker
                if sh is not None and hasattr(sh, "cooldown"):
                    sh.cooldown(now_ms)
                self.play(sounds.LAND)
                scr.roll()
                busy = not landed  # after a shake the screen updates in this frame too
            else:
                if self.frame & 1:
                    scr.dirty = True
                if ticks_diff(now_ms, self._rattle_next) >= 0:
                    self.play(sounds.RATTLE)
                    self._rattle_next = ticks_add(now_ms, 200)
        if not busy:
            if not n:
                q.n = 0  # events that only woke the display are dropped
            scr.update(q)
            if self.go:
                scr = None  # the screen that asked goes too (see _go())
                while self.go:  # (a game that cannot be continued goes back to the menu)
                    self._go(self.go)
        q.clear()
        scr = self.screen
        if scr.rolling and not self._told_sensor:
            sh = self.shaker
            if self.sensor_missing or (sh is not None and getattr(sh, "failed", False)):
                self._told_sensor = True
                self.say("NO SHAKE SENSOR:", "PRESS OK TO ROLL")
        line2 = self.notice2
        if self.notice is not None and ticks_diff(now_ms, self._notice_t) >= _NOTICE_MS:
            self.notice = line2 = self.notice2 = None
            scr.dirty = True
        if scr.dirty:
            scr.dirty = False
            fb = self.display.fb
            fb.fill(0)
            scr.draw(fb)
            if self.notice is not None:
                # The notice: a white bar over the bottom lines, 1 px black above it.
                y = 48 if line2 else 55
                fb.fill_rect(0, y - 1, 128, 64 - y + 1, 0)
                fb.fill_rect(0, y, 128, 64 - y, 1)
                gfx.center(fb, self.notice, y + 2, 0)
                if line2:
                    gfx.center(fb, line2, y + 9, 0)
            # Display.show() never raises: a panel that stopped answering sets ok=False
            # and power.drive_display() brings it back.
            self.display.show()
        bz = self.buzzer
        if bz is not None:
            bz.tick(now_ms)
        if pw is not None:
            self.level = lv = pw.level(now_ms)
            pw.drive_display(self.display, lv, self.settings[_S_CONTRAST])
        bat = self.battery
        if bat is not None and bat.update(now_ms):
            self.say("BATTERY LOW", "GAME IS SAVED")  # saved after every decision

    def run(self):
        wdt = None
        try:
            from machine import WDT
            wdt = WDT(timeout=8000)
        except (ImportError, AttributeError, ValueError, OSError):
            pass
        t = ticks_ms()
        if self.power is not None:
            # Idle time counts from boot, not from the clock's zero (a host's ticks
            # do not start at 0, and a wake from sleep must not read as hours idle).
            self.power.activity(t)
        while True:
            self.step(t)
            if wdt is not None:
                wdt.feed()
            if self.level == _DEEP:
                self._deep_sleep()
            t = ticks_add(t, FRAME_MS)
            wait = ticks_diff(t, ticks_ms())
            if wait > 0:
                pm = _power
                if self.level >= _OFF and pm is not None:  # display off: nap
                    pm.nap(wait)
                else:
                    sleep_ms(wait)
            elif wait < -_FAR_BEHIND:
                t = ticks_ms()

    def _deep_sleep(self):
        # Once per sleep: the code is in power_sleep (power.sleep_app), loaded then.
        if _power is not None:
            _power.sleep_app(self)
