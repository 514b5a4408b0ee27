"""The App's start (App.__init__) and applying the settings: code run once per boot
and on a Settings change, so it is loaded then and dropped after (app._unload); it
keeps no heap while the menu or a game runs."""
import store
from ui import screens

try:
    from micropython import const
except ImportError:
    def const(x):
        return x

_S_SOUND = const(0)  # store.S_SOUND
_S_CONTRAST = const(1)  # store.S_CONTRAST
_S_SENS = const(5)  # store.S_SENS


def boot(app, board, fs_root, devices, source):
    """App(board, fs_root, devices, source): the devices, the store and the settings,
    the dice, the frame state; then the splash."""
    if devices is None:
        from hal.devices import Devices
        devices = Devices(board)
    app.board = board
    app.dev = devices
    app.display = devices.display
    app.q = devices.queue
    app.buzzer = getattr(devices, "buzzer", None)
    app.shaker = getattr(devices, "shaker", None)
    app.sensor_missing = bool(getattr(devices, "sensor_missing", app.shaker is None))
    app.store = store.Store(fs_root)
    app.settings = app.store.load_settings()
    app.store.load_stats()  # kept in the Store: a game's end then loads no code
    from core.dice import Dice
    app.dice = Dice(source if source is not None else devices.source)
    app.now = 0
    app.frame = 0
    app.tumbling = False
    app._tumble_t0 = 0
    app._by_shake = False
    app._rattle_next = 0
    app.holder = -1
    app.players = 0
    app.notice = None
    app.notice2 = None
    app._notice_t = 0
    app._told_sensor = False
    app.level = 0
    try:
        import power
    except ImportError:  # power.py not installed: never dim or sleep
        power = None
    app.power = power.Power(app.settings) if power is not None else None
    bat = getattr(devices, "battery", None)  # low-battery watch (power.Battery)
    app.battery = power.Battery(bat) if bat is not None and power is not None else None
    app._blank = app.screen = screens.Screen(app)  # stands in while screens change
    app.go = 0  # a game to start (kind << 4 | players) or continue (-1): see app._go()
    apply_settings(app)
    from ui.menu import show_menu
    show_menu(app, True)


def apply_settings(app):
    """Settings take effect at once (the Settings screen calls this on a change)."""
    s = app.settings
    try:
        app.display.contrast(s[_S_CONTRAST])
    except OSError:
        pass
    if app.buzzer is not None:
        app.buzzer.muted = not s[_S_SOUND]
    sh = app.shaker
    if sh is not None and hasattr(sh, "sensitivity"):
        sh.sensitivity = s[_S_SENS]
    if app.power is not None:
        app.power.configure(s)
        app.power.shown = -1  # re-send the contrast on the next frame
