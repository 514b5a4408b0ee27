"""Builds hal.devices.Devices from a board profile: boot-only code, imported by
Devices() and dropped from sys.modules again (with hal.sensor, the drivers'
constructors in hal.setup, and hal.devices, which only names hal.events.Devices), so it
keeps no heap while the app runs."""
import os
import sys

from hal.buttons import Buttons
from hal.buzzer import Buzzer
from hal.display import Display
from hal.events import OK, Queue
from hal.sensor import open_sensor
from hal.shake import Shaker


def _no_urandom(n):
    raise OSError("this MicroPython has no os.urandom: give the App a dice source")


def _get(profile, key, default=None):
    if isinstance(profile, dict):
        return profile.get(key, default)
    return getattr(profile, key, default)


def _button(spec, Pin):
    """An input Pin for a (pin, "internal" | "external") entry, or None."""
    if spec is None:
        return None
    return Pin(spec[0], Pin.IN, Pin.PULL_UP if spec[1] == "internal" else None)


def build(dev, profile):
    """Sets dev's i2c, queue, display, shaker, sensor_missing, buttons, buzzer, battery
    and source (hal.devices.Devices) from the board profile, then drops this module."""
    try:
        (dev.i2c, dev.queue, dev.display, dev.shaker, dev.sensor_missing, dev.buttons,
         dev.buzzer, dev.battery) = _build(profile)
        # hal.rng.source, without keeping hal.rng loaded. A port without os.urandom
        # (the WebAssembly one the bench uses) gets an error only if it rolls with it.
        dev.source = getattr(os, "urandom", None) or _no_urandom
    finally:
        pkg = sys.modules.get("hal")
        for name in ("bringup", "sensor", "setup", "devices"):
            sys.modules.pop("hal." + name, None)
            if pkg is not None and hasattr(pkg, name):
                delattr(pkg, name)


def _build(profile):
    from machine import I2C, Pin
    q = Queue()
    bus = _get(profile, "I2C")
    if not bus:
        raise ValueError("board profile has no I2C bus")
    i2c = I2C(bus.get("id", 0), scl=Pin(bus["scl"]), sda=Pin(bus["sda"]),
              freq=bus.get("freq", 400000))
    display = _display(i2c, profile, _get(profile, "DISPLAY"), Pin)

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

    spec = _get(profile, "BUTTONS") or {}
    # Indexed by events.PREV, NEXT, OK, BACK (0..3).
    pins = [_button(spec.get(name), Pin) for name in ("PREV", "NEXT", "OK", "BACK")]
    if pins[OK] is None:
        raise ValueError("board profile needs an OK button")
    buttons = Buttons(pins, q)

    bz = _get(profile, "BUZZER")
    buzzer = Buzzer(None if bz is None else Pin(bz))
    bat = _get(profile, "BATTERY")
    battery = None
    if bat:
        from hal.battery import Battery
        battery = Battery(bat)
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
