"""The board profile's wiring made into drivers, once at boot (hal.devices.Devices asks):
the I2C bus, the display (the other SSD1306 address tried, else a RuntimeError that
names the address, the pins and what the bus scan found), the shake sensor (only the
configured driver is loaded; open_sensor()), the buttons, the buzzer and the battery.
Boot only: the app forgets this module once the devices are built.

`build(profile)` -> (i2c, queue, display, shaker, sensor_missing, buttons, buzzer,
battery); see hal.devices for what each is.

A profile error found once the display works (a missing OK button, a bad sensor entry)
can be shown on the panel: while build() runs, `made` is the display it made and `at`
the profile field it is reading (None once it is done); guard_fail reads them when the
app could not be made, says on the panel what is wrong in which field, and stops.
"""
from hal.buttons import Buttons
from hal.buzzer import Buzzer
from hal.display import Display
from hal.events import OK, Queue
from hal.shake import Shaker


def open_sensor(i2c, cfg):
    """The sensor a profile's SHAKE dict describes, or None (not configured, or it does
    not answer / is not that chip)."""
    if not cfg or cfg.get("type") is None:
        return None
    kind = cfg["type"]
    if kind in ("mpu6050", "mpu6886", "lis3dh"):
        rng = cfg.get("range", 8)
        if rng not in (4, 8):
            raise ValueError("accelerometer range must be 4 or 8 (g), not %r" % (rng,))
        try:
            if kind == "lis3dh":
                from hal.lis3dh import LIS3DH
                return LIS3DH(i2c, cfg.get("addr", 0x18), rng)
            from hal.mpu6050 import MPU6050
            return MPU6050(i2c, cfg.get("addr", 0x68), rng)
        except (OSError, ValueError):
            return None
    if kind == "switch":
        from machine import Pin

        from hal.switch import Switch
        pull = Pin.PULL_UP if cfg.get("pull", "internal") == "internal" else None
        return Switch(Pin(cfg["pin"], Pin.IN, pull))
    raise ValueError("unknown shake sensor type %r" % (kind,))


def _get(profile, key, default=None):
    if isinstance(profile, dict):
        return profile.get(key, default)
    return getattr(profile, key, default)


def _button(spec, Pin):
    """An input Pin for a (pin, "internal" | "external") entry, or None."""
    if spec is None:
        return None
    return Pin(spec[0], Pin.IN, Pin.PULL_UP if spec[1] == "internal" else None)


made = None  # the display build() made (see the module's doc)
at = "I2C"   # the profile field build() is reading; None when it is done


def build(profile):
    global made, at
    from machine import I2C, Pin
    made = None
    at = "I2C"
    q = Queue()
    bus = _get(profile, "I2C")
    if not bus:
        raise ValueError("board profile has no I2C bus")
    i2c = I2C(bus.get("id", 0), scl=Pin(bus["scl"]), sda=Pin(bus["sda"]),
              freq=bus.get("freq", 400000))
    at = "DISPLAY"
    made = display = _display(i2c, profile, _get(profile, "DISPLAY"), Pin)

    at = "SHAKE"
    shaker = None
    missing = False
    sh = _get(profile, "SHAKE")
    if sh and sh.get("type"):
        try:
            sensor = open_sensor(i2c, sh)
        except OSError:
            sensor = None
        if sensor is None:
            missing = True
        else:
            shaker = Shaker(sensor, q, sensitivity=sh.get("sensitivity", 3),
                            period_ms=sh.get("period_ms", 20),
                            cooldown_ms=sh.get("cooldown_ms", 800),
                            scale=sh.get("scale", 100))

    at = "BUTTONS"
    spec = _get(profile, "BUTTONS") or {}
    # Indexed by events.PREV, NEXT, OK, BACK (0..3).
    pins = [_button(spec.get(name), Pin) for name in ("PREV", "NEXT", "OK", "BACK")]
    if pins[OK] is None:
        raise ValueError("board profile needs an OK button")
    buttons = Buttons(pins, q)

    at = "BUZZER"
    bz = _get(profile, "BUZZER")
    buzzer = Buzzer(None if bz is None else Pin(bz))
    bat = _get(profile, "BATTERY")
    battery = None
    if bat:
        at = "BATTERY"
        from hal.battery import Battery
        battery = Battery(bat)
    at = None
    return i2c, q, display, shaker, missing, buttons, buzzer, battery


def _display(i2c, profile, d, Pin):
    if not d:
        raise ValueError("board profile has no DISPLAY")
    level = d.get("power_level", 0)
    rs = d.get("reset")
    pw = d.get("power")
    reset = None if rs is None else Pin(rs, Pin.OUT, value=1)
    power = None if pw is None else Pin(pw, Pin.OUT, value=level)
    addr = d.get("addr", 0x3C)
    disp = Display(i2c, d.get("width", 128), d.get("height", 64), addr,
                   d.get("type", "ssd1306"), d.get("rotate", 0), reset, power, level)
    if disp.ok or disp.init():  # a second try for a panel slow to power up
        return disp
    try:
        found = i2c.scan()
    except OSError:
        found = []
    other = addr ^ 1  # 0x3C <-> 0x3D (SA0)
    if other in found:
        disp.addr = other
        if disp.init():
            return disp
    bus = _get(profile, "I2C") or {}
    raise RuntimeError("display: no %s answers at 0x%02X on I2C (SDA %s, SCL %s); "
                       "devices found: %s" % (d.get("type", "ssd1306"), addr, bus.get("sda"),
                                              bus.get("scl"), ", ".join("0x%02X" % a for a in found)
                                              or "none"))
