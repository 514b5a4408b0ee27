"""The application loop: devices -> current screen -> display, buzzer, power.

`App(board, fs_root="/", devices=None, source=None)`; `step(now_ms)` runs one frame:
poll the devices into the event queue, handle the shake-to-roll protocol, let the
current screen `update(q)`, `draw(fb)` it when dirty, `display.show()`, tick the
buzzer, apply the power level. `run()` calls step() on a fixed 30 fps schedule
(ticks_add/ticks_diff: a late frame is caught up at once, so the schedule never
drifts; far behind, it re-synchronises), sleeps between frames and feeds the watchdog.

Screens and the services they use are described in ui/screens.py. A game's modules
(its row in core.games lists them) are imported only when that game starts or is
continued, and forgotten (forget()) when it is left; the menu level (ui.menu and the
screens it opens) is forgotten when a game starts. gc.collect() runs at screen changes
only: between the parts that _go() forgets and loads, and at the end of the frame that
showed a new screen (show()). A decision's save (save()) is written at the end of its
frame too: the frame is on the panel before the flash is touched.

Shake to roll: while the screen says `rolling`, SHAKE_START starts the tumble (and the
rattle); SHAKE_END ends it: the screen's roll() draws the values from the RNG and the
dice land with a click. OK at a rolling moment is a short tumble then the same roll().
Shakes at any other time are ignored.

The saved game's ui bytes start with the seat holding the device (+1); with CPU seats
that byte has bit 7 set and the seats' codes follow in one byte (2 bits each, seat 0
lowest: 0 HUMAN, 1-3 a CPU's level; kept out of the core's Game bytes); the rest
belongs to the game screen.

CPU seats (app.cpus, a code per seat): their turns are played by ui.cpu_turn (app.cpu,
loaded only for a game with a CPU seat, after its first frame, forgotten with the
game), which the game screen asks each frame while a CPU decides. No pass screen is
shown before a CPU, and one before a human only when two or more humans share the
device.
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

from micropython import const

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

from core.games import GAMES_TABLE, MODULES
from hal.events import NEXT, PRESS, REPEAT, SHAKE_END, SHAKE_START
from system.power import DEEP, DIM, OFF, Power, nap
from system.store import S_CONTRAST, S_SENS, S_SOUND
from ui import gfx, screens
from ui.screens import DIRTY_DICE, DIRTY_ROLL, mark
from ui.sounds import LAND, RATTLE, SELECT, TUNES

_TYPES = const(0)  # the App's attribute types, for pyright (on the device "if 0:" is no code)
if _TYPES:
    from system import power
    from system import power_battery
    from system import store
    from core.dice import Dice
    from hal.buzzer import Buzzer
    from hal.devices import Devices
    from hal.display import Display
    from hal.events import Queue
    from hal.shake import Shaker
    from ui.cpu_turn import CpuTurn

FRAME_MS = const(33)
_TUMBLE_MS = const(450)      # the tumble after OK
_TUMBLE_MAX = const(4000)    # a shake that never ends still lands
_NOTICE_MS = const(2500)
_FAR_BEHIND = const(200)    # ms late before the schedule re-synchronises
_MENU = const(1)          # go: back to the menu (a game to start is >= 0x11, see _go())
_LIVE = const(2)          # go: a link game's live round (link_live())

# The screens the menu opens (and the stats' checks, which the stats screen loads, and
# the HARD tables' check, which the setup does): forgotten on every return to the menu.
# A game start also forgets the menu itself (which keeps its cursor while it is up).
_MENU_SCREENS = ("ui.setup", "ui.settings", "ui.howto", "ui.stats", "ui.no_room",
                 "ui.crashed", "system.store.check", "core.data", "core.data_check",
                 "ui.link_lobby", "ui.link_screen", "link.host", "link.guest",
                 "link.proto", "link.radio", "link", "core.frenzy_live", "core.cpu_live")
# Boot only: forgotten once the App is built (hal.wiring made the devices; crashlog
# logged a watchdog reset; store_check checked the settings and stats read; guard
# read the restart marks: watch keeps what the run needs of them).
# heap took the heap's one growth (main.py holds it).
_BOOT_MODULES = ("hal.wiring", "system.crashlog", "system.store.check", "system.guard",
                 "system.heap")
# What a game with CPU seats loads, forgotten with the game's own modules.
_CPU_MODULES = ("ui.cpu_turn", "ui.shakeup_cpu", "ui.frenzy_cpu", "core.cpu_shakeup",
                "core.cpu_frenzy", "core.data", "core.data_check", "ui.cpu_fault")


def forget(names):
    """Forget modules (dotted names; those not loaded are skipped), so their code no
    longer keeps heap once nothing else refers to it: from sys.modules and from their
    package. The next `import` of one loads it again. The one way the firmware unloads
    code, at the lifecycle boundaries: between the menu and a game."""
    import sys
    mods = sys.modules
    for name in names:
        if name in mods:
            del mods[name]
            i = name.rfind(".")
            p = mods.get(name[:i]) if i > 0 else None
            if p is not None and name[i + 1:] in p.__dict__:
                delattr(p, name[i + 1:])


class App:
    forget = staticmethod(forget)  # for the screens: code they load for a moment

    # Set by __init__ (annotations only: no code, no heap on the device).
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
    cpus: bytearray
    cpu: "CpuTurn | None"
    link_radio: object
    power: "power.Power | None"
    battery: "power_battery.Battery | None"
    _blank: "screens.Screen"
    _link: tuple  # (host, guest) while the live round is due (link_live()), else ()

    def __init__(self, board, fs_root="/", devices=None, source=None):
        """The devices (from the board profile unless given), the store and the
        settings, the dice (from source(n) -> n random bytes, else the board's RNG), the
        frame state; then the splash."""
        if devices is None:
            from hal.devices import Devices
            devices = Devices(board)
        self.board = board
        self.dev = devices
        self.display = devices.display
        # Text is drawn straight into the display's bytes (ui.gfx.bind: the frame time).
        gfx.bind(self.display.fb, getattr(self.display, "buf", None))
        self.q = devices.queue
        self.buzzer = getattr(devices, "buzzer", None)
        self.shaker = getattr(devices, "shaker", None)
        self.sensor_missing = bool(getattr(devices, "sensor_missing", self.shaker is None))
        from system.store import Store
        self.store = Store(fs_root)
        self.settings = self.store.load_settings()
        self.store.load_stats()  # kept in the Store: a game's end then reads no file
        from core.dice import Dice
        # The byte source: the dice's, and the CPUs' variety (the same hardware RNG on
        # the device; never the game's dice).
        self.source = source if source is not None else devices.source
        self.dice = Dice(self.source)
        self.now = 0
        self.frame = 0
        self.tumbling = False
        self._tumble_t0 = 0
        self._by_shake = False
        self._rattle_next = 0
        self.holder = -1
        self.players = 0
        self.first = 0  # the seat that starts a new game (a rematch: the next one)
        self.cpus = bytearray(4)  # per seat: 0 HUMAN, 1-3 a CPU (EASY, NORMAL, HARD)
        self.cpu = None  # ui.cpu_turn's player while a game has CPU seats
        self.link_radio = None  # link.radio's Radio while a link game is up
        self.notice = None
        self.notice2 = None
        self._notice_t = 0
        self._bar = False  # a notice to draw over the frame on the panel (say())
        # The notice is a warning, which nothing replaces for its _NOTICE_MS, and the CPUs
        # wait meanwhile (ui.cpu_turn): set by whoever says it, after say().
        self.warned = False
        self._told_sensor = False
        self.unsaved = False  # the last save of the game failed (see save())
        self._pending = None  # a decision's save, written at the frame's end (save())
        self._finish = None  # a game's end, written after it (finish())
        self._collect = False  # a screen changed: collect at the frame's end (show())
        self._cpus_due = None  # a game screen whose CPU player loads at the frame's end
        self.level = 0
        self.woke = 0  # when a key or shake last woke a dimmed or dark panel (step())
        self.power = Power(self.settings)
        self.battery = None
        bat = getattr(devices, "battery", None)  # low-battery watch
        if bat is not None:
            from system.power_battery import Battery
            self.battery = Battery(bat)
        self._blank = self.screen = screens.Screen(self)  # stands in while screens change
        self.go = 0  # a game to start (kind << 4 | players) or continue (-1): see _go()
        self._link = ()
        self.apply_settings()
        forget(_BOOT_MODULES)
        from ui.menu import show_menu
        show_menu(self, True)

    # ---- services for screens ------------------------------------------------

    def apply_settings(self):
        """Settings take effect at once (the Settings screen calls this on a change)."""
        s = self.settings
        try:
            self.display.contrast(s[S_CONTRAST])
        except OSError:
            pass
        if self.buzzer is not None:
            self.buzzer.muted = not s[S_SOUND]
        sh = self.shaker
        if sh is not None and hasattr(sh, "sensitivity"):
            sh.sensitivity = s[S_SENS]
        pw = self.power
        if pw is not None:
            pw.configure(s)
            pw.shown = -1  # re-send the contrast on the next frame

    def elapsed(self, t0):
        return ticks_diff(self.now, t0)

    def show(self, scr):
        self.screen = scr
        scr.enter()
        scr.dirty = True
        self._collect = True  # after the new screen's frame is sent (step())

    def menu(self):
        self.go = _MENU  # done by _go() once the caller's update() returned

    def say(self, line1, line2=None):
        """A notice over the bottom lines for _NOTICE_MS. It is drawn over the frame on
        the panel (step(): the bar alone when the screen has nothing else to redraw; a
        CPU says a line at each step), except where a shorter bar replaces a taller
        one, whose top rows the screen draws again. Not while a warning shows."""
        if self.warned:
            return
        tall = self.notice2
        self.notice = line1
        self.notice2 = line2
        self._notice_t = self.now
        self._bar = True
        if tall is not None and line2 is None and self.screen is not None:
            self.screen.dirty = True

    def draw_notice(self, fb):
        """The notice: a white bar over the bottom lines, 1 px black above it."""
        line2 = self.notice2
        y = 48 if line2 else 55
        fb.fill_rect(0, y - 1, 128, 64 - y + 1, 0)
        fb.fill_rect(0, y, 128, 64 - y, 1)
        gfx.center(fb, self.notice, y + 2, 0)
        if line2:
            gfx.center(fb, line2, y + 9, 0)

    def play(self, snd=SELECT):
        if self.buzzer is not None:
            self.buzzer.play(TUNES, snd >> 8, snd & 0xFF)  # in place: no copy

    play_select = play  # the cursor click (play's default)

    def start_roll(self, by_shake=False):
        """OK at a rolling moment: a short tumble, then screen.roll(). by_shake: a shake
        started (step()): the dice tumble until it ends."""
        if not self.tumbling and self.screen.rolling:
            self.tumbling = True
            self._by_shake = by_shake
            self._tumble_t0 = self._rattle_next = self.now
            scr = self.screen
            scr.dirty = mark(scr.dirty, DIRTY_ROLL)  # the screen redraws what changes

    def passes(self, seat):
        """Would hand_to(seat) show the pass screen? Only to a human seat that does not
        hold the device, when two or more humans share it."""
        cpus = self.cpus
        if cpus[seat] or seat == self.holder:
            return False  # a CPU plays on the device whoever holds it
        humans = 0
        for s in range(self.players):
            if not cpus[s]:
                humans += 1
        return humans > 1

    def hand_to(self, seat, note=None):
        """The device goes to seat: the pass screen when passes(seat) (note: lines it
        shows, what just happened), else the human seat simply holds it."""
        if not self.passes(seat):
            if not self.cpus[seat]:
                self.holder = seat
            return False
        self.show(screens.Pass(self, seat, self.screen, note))
        return True

    def link_session(self, role, saved=None):
        """LINK GAME's session for ui.link_lobby (link.session: the radio and a host or
        guest, loaded only now; ui.menu is forgotten, app.menu() loads it again); role
        None turns the radio off."""
        forget(("ui.menu",))
        gc.collect()
        from link import session
        return session(self, role, saved)

    def link_live(self, host, guest=None):
        """The live round of a link game (ui.link_screen) instead of the lobby, at the
        end of this frame (_go()): the lobby's screen and code go before the live
        round's load, the fullest heap of a link game otherwise."""
        self._link = (host, guest)
        self.go = _LIVE

    def cpu_turn(self, scr, q):
        """A CPU plays this frame on game screen scr (which asks while a CPU decides):
        ui.cpu_turn's player, loaded once the game's first frame is sent (_cpu_for(); a
        game without CPU seats never loads it) and forgotten with the game."""
        cpu = self.cpu
        if cpu is None:
            cpu = self._cpu_for(scr)
        cpu.tick(scr, q)

    def _cpu_for(self, scr):
        """The CPU player of game screen scr, its modules loaded: at the end of the
        game's first frame (step()), so no turn of play waits for them."""
        from ui.cpu_turn import CpuTurn
        cpu = self.cpu = CpuTurn(self, ticks_ms, ticks_diff)  # its clock for thinking
        cpu.load(scr)
        return cpu

    def save(self, kind, game, ui=b""):
        """The decision's bytes now; written to the flash once this frame is on the
        panel (step(): _write()), so the player never waits for the flash to see it."""
        b = 0  # the seats' codes in one byte (2 bits each, seat 0 lowest); 0: all human
        c = self.cpus
        for s in range(4):
            b |= c[s] << 2 * s
        head = bytes((self.holder + 1,)) if not b else bytes((self.holder + 1 | 0x80, b))
        self._pending = None  # an earlier decision of this frame: freed before the copy
        self._pending = (kind, game.to_bytes(), head + bytes(ui))

    def saved(self):
        """The saved game, (kind, blob, ui) as store.load_game() gives it, or None: a
        save that waits for the frame's end counts (the menu shows it at once)."""
        if self._finish is not None:
            return None  # over: its save goes at the frame's end
        p = self._pending
        if p is not None and self.unsaved:
            self._write()  # saves fail (the flash is full): the store keeps it in RAM
            p = None
        if p is None and self.store.has_game():
            p = self.store.load_game()
        return p

    def _write(self):
        """The pending save (save()), then the pending end (finish()), to the store;
        before anything reads the store."""
        p = self._pending
        if p is not None:
            self._pending = None
            self._save(p)
        p = self._finish
        if p is not None:
            self._finish = None
            self.store.finish_game(p[0], p[1], p[2], p[3], self.cpus, p[4])

    def _save(self, p):
        st = self.store
        had = st.problem
        try:
            ok = st.save_game(p[0], p[1], p[2])
        except ValueError:
            self.say("COULD NOT SAVE")  # play goes on; the old save stays
            return
        # A save that cannot be written (the flash is full) is said once, at once, as
        # a warning (read in full, no CPU line over it), and marked on the panel while
        # saves fail (step()); every decision tries again (the store keeps the game in
        # RAM meanwhile), and the first that is written says so.
        if ok:
            if self.unsaved:
                self.unsaved = False
                self.screen.dirty = True  # the mark goes
                self.say("SAVED AGAIN")
        else:
            st.problem = had  # told here, not again at the menu
            if self.unsaved:
                return
            self.unsaved = True
            self.warned = False
            self.say("STORAGE FULL: PLAY ON", "BUT THIS GAME IS NOT KEPT")
            self.warned = True  # a warning: read in full

    def finish(self, kind, game, best_round=0, total=0, rounds=0):
        """The game is over: the stats counted and saved, the save cleared (resident
        code, nothing loaded), at the end of this frame as a save is (_write()).
        rounds: a solo Frenzy game's score (store.record_game)."""
        self._finish = (kind, game.winner, best_round, total, rounds)

    def _go(self, g=-1):
        """Back to the menu (g = _MENU: menu()), start (g = kind << 4 | players) or
        continue (g = -1) a game, or show a link game's live round (g = _LIVE). Screens
        ask for it by setting `go`; step() calls this after update() returned, so the
        code that asked is no longer running: what it leaves (every game's modules, the
        menu level, or the link's lobby) is forgotten and collected before the next part
        loads (ui.launch starts a game, and is forgotten as it does)."""
        self.go = 0
        self.screen = self._blank
        if g == _LIVE:
            host, guest = self._link
            self._link = ()
            forget(("ui.link_lobby",))
            gc.collect()
            from ui.link_screen import LiveScreen
            self.show(LiveScreen(self, host, guest))
            return
        if g == _MENU:
            self.tumbling = False
            cpu = self.cpu
            if cpu is not None:
                cpu.close()  # its table file
                self.cpu = cpu = None
            for row in GAMES_TABLE:
                forget(row[MODULES])
            forget(_CPU_MODULES)
            forget(_MENU_SCREENS)
            gc.collect()
            self.store.commit()  # a game's end the full flash kept off it: room now?
            from ui.menu import show_menu  # the menu level: forgotten when a game starts
            show_menu(self)
            return
        self._write()  # (a launch reads the save; the menu's CONTINUE takes saved())
        forget(("ui.menu",))
        forget(_MENU_SCREENS)
        gc.collect()
        tries = 2 if g < 0 else 1
        while True:
            try:
                from ui.launch import launch
                forget(("ui.launch",))
                got = launch(self, g, forget)
                launch = None  # ui.launch goes before the screen: the start's fullest heap
                if got is None:
                    return
                cls, game, ui = got
                got = None
                try:
                    scr = cls(self, game, ui)
                except (ValueError, IndexError):
                    if ui is None:
                        raise  # a new game that cannot start is a bug, not a damaged save
                    self.store.reject_game()  # its screen state cannot be restored
                    self.menu()
                    return
                break
            except MemoryError:
                # Continue short of heap: once more from a clean heap, then the player
                # decides (ui.no_room): a save too big for this heap never loops.
                tries -= 1
                if g >= 0:
                    raise
                launch = got = cls = game = ui = scr = None
                self.screen = self._blank
                for row in GAMES_TABLE:
                    forget(row[MODULES])
                gc.collect()
                if not tries:
                    from ui.no_room import NoRoom
                    self.show(NoRoom(self))
                    return
        if ui is None:
            self.save(cls.KIND, game, b"")
        self.show(scr)
        if max(self.cpus):
            self._cpus_due = scr  # its CPU player loads after this frame (step())

    resume = _go  # continue the saved game (main.py after a crash or a wake)

    def _feedback(self):
        """A game's start or Continue takes longer than a frame (its modules load): the
        key press shows at once, a bar over the frame on the panel, before the work
        (tools/bench/bench.py's frame model: the feedback row)."""
        fb = self.display.fb
        fb.fill_rect(0, 56, 128, 8, 1)  # the last display page alone: one page sent
        gfx.center(fb, "LOADING...", 57, 0)
        self.display.show()

    # ---- the frame ---------------------------------------------------------------

    def step(self, now_ms):
        self.now = now_ms
        self.frame += 1
        if self.frame == 1:
            self._notice_t = now_ms  # a notice from the boot (a file reset) shows in full
        dev = self.dev
        try:
            dev.poll(now_ms)
        except OSError:
            pass
        q = self.q
        n = q.n
        pw = self.power
        if n and pw is not None:
            lv = pw.activity(now_ms)
            if lv >= DIM:
                self.woke = now_ms  # (a winner's choice waits: ui.screens.woken())
            if lv >= OFF:
                # The panel was dark: what cannot decide blind acts (PREV/NEXT move a
                # cursor; a shake rolls at a rolling moment); OK and BACK only woke
                # it (How to play says so).
                buf = q.buf
                rolling = self.screen.rolling
                k = 0
                for i in range(n):
                    ev = buf[i]
                    b = ev & 0xF0
                    if (b == PRESS or b == REPEAT) and ev & 0x0F <= NEXT or rolling and (
                            b == SHAKE_START or b == SHAKE_END):
                        buf[k] = ev
                        k += 1
                q.n = n = k
                bt = getattr(dev, "buttons", None)
                if bt is not None:
                    bt.ignore_held()  # held on, it stays silent (no repeat) until let go
        scr = self.screen
        landed = False  # the shake that tumbles the dice ended in this frame's events
        if n:
            buf = q.buf
            for i in range(n):
                kind = buf[i] & 0xF0
                if kind == SHAKE_START:
                    self.start_roll(True)
                elif kind == SHAKE_END and self.tumbling and self._by_shake:
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
                self.play(LAND)
                scr.roll()
                busy = not landed  # after a shake the screen updates in this frame too
            else:
                if self.frame & 1 and not scr.dirty:
                    scr.dirty = DIRTY_DICE  # only the tumbling dice change
                if ticks_diff(now_ms, self._rattle_next) >= 0:
                    self.play(RATTLE)
                    self._rattle_next = ticks_add(now_ms, 200)
        if not busy:
            if not n:
                q.n = 0  # events that only woke the display are dropped
            scr.update(q)
            if self.go:
                scr = None  # the screen that asked goes too (see _go())
                if self.go != _MENU:
                    self._feedback()
                while self.go:  # (a game that cannot be continued goes back to the menu)
                    self._go(self.go)
        q.clear()
        scr = self.screen
        if scr.rolling and not self._told_sensor:
            sh = self.shaker
            if self.sensor_missing or (sh is not None and getattr(sh, "failed", False)):
                self._told_sensor = True
                self.say("NO SHAKE SENSOR:", "PRESS OK TO ROLL")
        if self.notice is not None and ticks_diff(now_ms, self._notice_t) >= _NOTICE_MS:
            # What the bar covered (from y 54, or 47 with two lines) is drawn again.
            scr.dirty = mark(scr.dirty, scr.uncover(47 if self.notice2 else 54))
            self.notice = self.notice2 = None
            self.warned = False
        if scr.dirty or self._bar:
            self._bar = False
            fb = self.display.fb
            if scr.dirty:
                if scr.dirty < DIRTY_DICE:  # True; DIRTY_DICE, ...: over the last frame
                    fb.fill(0)
                # DIRTY_DICE (a tumble's frame after its first, set above): the screen's
                # draw() redraws its tumbling dice alone over the last frame (about 2 ms
                # instead of 20-40 on an ESP32: docs/memory-and-speed.md "Frame time on the device").
                scr.draw(fb)
                scr.dirty = False
            if self.notice is not None:
                self.draw_notice(fb)
            if self.unsaved:  # saves fail: a mark at the top's middle while they do
                fb.fill_rect(54, 0, 20, 8, 0)
                gfx.label(fb, "FULL", 55, 0)
            # Display.show() never raises: a panel that stopped answering sets ok=False
            # and power.drive_display() brings it back.
            self.display.show()
        bz = self.buzzer
        if bz is not None:
            bz.tick(now_ms)
        # What a decision or a screen change leaves to do, once its frame is on the
        # panel: the save's flash write, and the collection of the old screen's heap
        # (docs/memory-and-speed.md "Frame time on the device": the player sees the change first).
        if self._pending is not None or self._finish is not None:
            self._write()
        if self._collect:
            self._collect = False
            gc.collect()
        due = self._cpus_due
        if due is not None:
            self._cpus_due = None
            if self.cpu is None:
                self._cpu_for(due)
        if pw is not None:
            self.level = lv = pw.level(now_ms)
            pw.drive_display(self.display, lv, self.settings[S_CONTRAST])
        bat = self.battery
        if bat is not None and bat.update(now_ms):
            self.say("BATTERY LOW", "GAME IS SAVED")  # saved after every decision

    def run(self, wdt=None):
        """The frame loop, for ever; wdt: the watchdog main.py armed before a
        resume (else armed here)."""
        if wdt is None:
            from system.watch import arm
            wdt = arm()
        t = ticks_ms()
        if self.power is not None:
            # Idle time counts from boot, not from the clock's zero (a host's ticks
            # do not start at 0, and a wake from sleep must not read as hours idle).
            self.power.activity(t)
        while True:
            self.step(t)
            if wdt is not None:
                wdt.feed()
            if self.level == DEEP:
                self._deep_sleep()
            t = ticks_add(t, FRAME_MS)
            wait = ticks_diff(t, ticks_ms())
            if wait > 0:
                if self.level >= OFF:  # display off: nap
                    nap(wait)
                else:
                    sleep_ms(wait)
            elif wait < -_FAR_BEHIND:
                t = ticks_ms()

    def _deep_sleep(self):
        # Once per sleep: the code is in power_sleep, loaded then.
        from system.power_sleep import sleep_app
        sleep_app(self)
