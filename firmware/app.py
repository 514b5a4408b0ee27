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

import store
from ui import screens, sounds

FRAME_MS = const(33)
TUMBLE_MS = const(450)      # the tumble after OK
TUMBLE_MAX = const(4000)    # a shake that never ends still lands
NOTICE_MS = const(2500)
_FAR_BEHIND = const(200)    # ms late before the schedule re-synchronises
_SHAKE_START = const(0x50)
_SHAKE_END = const(0x60)
_OFF = const(2)             # power.OFF: display off (and DEEP = 3 beyond it)
_DEEP = const(3)

# Modules imported only while their screen is in use; menu() drops them again so a
# game's code does not keep heap from the next one.
_LAZY = ("ui.shakeup_screen", "core.shakeup", "ui.frenzy_screen", "ui.frenzy_draw",
         "core.frenzy", "core.frenzy_score", "core.frenzy_load", "core.odds", "ui.settings",
         "ui.howto", "ui.stats")

try:
    import power as _power
except ImportError:  # power.py not installed: never dim or sleep
    _power = None


def _unload(names=_LAZY):
    import sys
    mods = sys.modules
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
    def __init__(self, board, fs_root="/", devices=None, source=None):
        if devices is None:
            from hal.devices import Devices
            devices = Devices(board)
        self.board = board
        self.dev = devices
        self.display = devices.display
        self.fb = devices.display.fb
        self.q = devices.queue
        self.buzzer = getattr(devices, "buzzer", None)
        self.shaker = getattr(devices, "shaker", None)
        self.sensor_missing = bool(getattr(devices, "sensor_missing", self.shaker is None))
        self.store = store.Store(fs_root)
        self.settings = self.store.load_settings()
        from core.dice import Dice
        self.dice = Dice(source if source is not None else devices.source)
        self.now = 0
        self.frame = 0
        self.tumbling = False
        self._tumble_t0 = 0
        self._by_shake = False
        self._rattle_next = 0
        self.holder = -1
        self.players = 0
        self.notice = None
        self.notice2 = None
        self._notice_t = 0
        self._told_sensor = False
        self.level = 0
        self.power = _power.Power(self.settings) if _power is not None else None
        bat = getattr(devices, "battery", None)  # low-battery watch (power.Battery)
        self.battery = _power.Battery(bat) if bat is not None and _power is not None else None
        self._blank = screens.Screen(self)  # stands in while screens change
        self.screen = self._blank
        self._menu = None
        self.go = 0  # a game to start (kind << 4 | players) or continue (-1): see _go()
        self.apply_settings()
        from ui.menu import Splash
        self.show(Splash(self))
        if self.store.problem:
            self.say(self.store.problem)
            self.store.problem = None

    # ---- services for screens ------------------------------------------------

    def elapsed(self, t0):
        return ticks_diff(self.now, t0)

    def show(self, scr):
        self.screen = scr
        scr.enter()
        scr.dirty = True
        gc.collect()

    def menu(self):
        self.tumbling = False
        self.screen = self._blank
        _unload()
        if self._menu is None:
            from ui.menu import Menu  # the menu level: dropped again when a game starts
            self._menu = Menu(self)
        self.show(self._menu)
        if self.store.problem:
            self.say(self.store.problem)
            self.store.problem = None

    def say(self, line1, line2=None):
        self.notice = line1
        self.notice2 = line2
        self._notice_t = self.now
        if self.screen is not None:
            self.screen.dirty = True

    def play(self, seq):
        if self.buzzer is not None:
            self.buzzer.play(seq)

    def play_select(self):
        self.play(sounds.SELECT)

    def start_roll(self):
        """OK at a rolling moment: a short tumble, then screen.roll()."""
        if not self.tumbling and self.screen.rolling:
            self._tumble(False)

    def hand_to(self, seat):
        if seat == self.holder:
            return False
        if self.players <= 1:
            self.holder = seat
            return False
        self.show(screens.Pass(self, seat, self.screen))
        return True

    def passed(self, pass_screen):
        self.holder = pass_screen.seat
        self.show(pass_screen.back)

    def save(self, kind, game, ui=b""):
        try:
            self.store.save_game(kind, game.to_bytes(), bytes((self.holder + 1,)) + bytes(ui))
        except ValueError:
            self.say("COULD NOT SAVE")  # play goes on; the old save stays

    def finish(self, kind, game, best_round=0, total=0):
        st = self.store.load_stats()
        store.record_game(st, kind, game.winner, best_round, total)
        self.store.save_stats(st)
        self.store.clear_game()

    def win(self, seat, line1=None, line2=None):
        self.play(sounds.WIN)
        self.show(screens.Win(self, seat, line1, line2))

    def apply_settings(self):
        """Settings take effect at once (the Settings screen calls this on a change)."""
        s = self.settings
        try:
            self.display.contrast(s[store.S_CONTRAST])
        except OSError:
            pass
        if self.buzzer is not None:
            self.buzzer.muted = not s[store.S_SOUND]
        sh = self.shaker
        if sh is not None and hasattr(sh, "sensitivity"):
            sh.sensitivity = s[store.S_SENS]
        if self.power is not None:
            self.power.configure(s)
            self.power.shown = -1  # re-send the contrast on the next frame

    def save_settings(self):
        self.store.save_settings(self.settings)

    def resume(self):
        """Continue the saved game (main.py after a crash; the menu sets go = -1)."""
        self._go(-1)

    def _go(self, g):
        """Start (g = kind << 4 | players) or continue (g = -1) a game. The menu asks
        for it by setting `go`; step() calls this after update() returned, so no menu
        code is running and the menu level (ui.menu) is dropped before the game's
        modules load (ui.launch does the rest)."""
        self.go = 0
        self.screen = self._blank
        self._menu = None
        _unload(("ui.menu",))
        gc.collect()
        from ui.launch import launch
        launch(self, g)

    # ---- the frame ---------------------------------------------------------------

    def _tumble(self, by_shake):
        self.tumbling = True
        self._by_shake = by_shake
        self._tumble_t0 = self.now
        self._rattle_next = self.now
        self.screen.dirty = True

    def _land(self):
        self.tumbling = False
        scr = self.screen
        scr.dirty = True
        if self.shaker is not None and hasattr(self.shaker, "cooldown"):
            self.shaker.cooldown(self.now)
        self.play(sounds.LAND)
        scr.roll()

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
        if n:
            buf = q.buf
            for i in range(n):
                kind = buf[i] & 0xF0
                if kind == _SHAKE_START:
                    if scr.rolling and not self.tumbling:
                        self._tumble(True)
                elif kind == _SHAKE_END:
                    if self.tumbling and self._by_shake:
                        self._land()
                        n = 0  # the rest of this frame's events fell during the shake
                        break
        if self.tumbling:
            t = self.elapsed(self._tumble_t0)
            if t >= TUMBLE_MAX or (not self._by_shake and t >= TUMBLE_MS):
                self._land()
            else:
                if self.frame & 1:
                    scr.dirty = True
                if ticks_diff(now_ms, self._rattle_next) >= 0:
                    self.play(sounds.RATTLE)
                    self._rattle_next = ticks_add(now_ms, 200)
        else:
            if not n:
                q.n = 0  # events that only woke the display are dropped
            scr.update(q)
            if self.go:
                self._go(self.go)
        q.clear()
        scr = self.screen
        if scr.rolling and not self._told_sensor:
            sh = self.shaker
            if self.sensor_missing or (sh is not None and getattr(sh, "failed", False)):
                self._told_sensor = True
                self.say("NO SHAKE SENSOR:", "PRESS OK TO ROLL")
        if self.notice is not None and self.elapsed(self._notice_t) >= NOTICE_MS:
            self.notice = None
            self.notice2 = None
            scr.dirty = True
        if scr.dirty:
            scr.dirty = False
            fb = self.fb
            fb.fill(0)
            scr.draw(fb)
            if self.notice is not None:
                self._draw_notice(fb)
            # Display.show() never raises: a panel that stopped answering sets ok=False
            # and power.drive_display() brings it back.
            self.display.show()
        bz = self.buzzer
        if bz is not None:
            bz.tick(now_ms)
        if pw is not None:
            self.level = lv = pw.level(now_ms)
            pw.drive_display(self.display, lv, self.settings[store.S_CONTRAST])
        bat = self.battery
        if bat is not None and bat.update(now_ms):
            self.say("BATTERY LOW", "GAME IS SAVED")  # saved after every decision

    def _draw_notice(self, fb):
        from ui import gfx
        h = 16 if self.notice2 else 9
        y = 64 - h
        fb.fill_rect(0, y - 1, 128, h + 1, 0)
        fb.fill_rect(0, y, 128, h, 1)
        gfx.center(fb, self.notice, y + 2, 0)
        if self.notice2:
            gfx.center(fb, self.notice2, y + 9, 0)

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
