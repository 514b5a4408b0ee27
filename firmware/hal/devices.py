"""Everything the app needs from the hardware, built once from a board profile.

`Devices(profile)`:
- `i2c`: the bus from `I2C` {"id", "sda", "scl", "freq"};
- `display`: hal.display.Display from `DISPLAY` (power pin switched on and reset pin
  pulsed by the driver). When the panel does not answer at its address the other SSD1306
  address (0x3C <-> 0x3D) is tried; if still nothing answers, RuntimeError names the
  address, the pins and what the bus scan found: without a display nothing can be shown;
- `queue`: the hal.events.Queue every driver pushes into;
- `buttons`: hal.buttons.Buttons from `BUTTONS` {"PREV": (pin, "internal"|"external"),
  ...} (internal: the chip's pull-up is switched on);
- `shaker`: hal.shake.Shaker from `SHAKE` {"type", "addr", "pin", "pull", "range",
  "sensitivity", "scale", "period_ms", "cooldown_ms"}, or None when the board has no
  sensor or it does not answer; `sensor_missing` is True in the second case (the UI
  says so once and rolls with OK);
- `buzzer`: hal.buzzer.Buzzer on `BUZZER` (a silent one when the board has none);
- `battery`: None, or a Battery with `percent()` and `millivolts()` from `BATTERY`
  {"pin", "divider_x100" (default 200: a 1:1 divider), "empty_mv", "full_mv",
  "ctrl", "ctrl_level" (a pin that switches the divider on while reading)};
- `source`: hal.rng.source (os.urandom).
`poll(now_ms)` polls buttons and shaker into `queue` once per frame.
"""
from hal import rng
from hal.buttons import Buttons
from hal.buzzer import Buzzer
from hal.display import Display
from hal.events import OK, Queue
from hal.shake import Shaker, open_sensor


def _get(profile, key, default=None):
    if isinstance(profile, dict):
        return profile.get(key, default)
    return getattr(profile, key, default)


def _button(spec, Pin):
    """An input Pin for a (pin, "internal" | "external") entry, or None."""
    if spec is None:
        return None
    return Pin(spec[0], Pin.IN, Pin.PULL_UP if spec[1] == "internal" else None)


class Battery:
    def __init__(self, cfg):
        from machine import ADC, Pin
        self.adc = ADC(Pin(cfg["pin"]))
        try:
            self.adc.atten(ADC.ATTN_11DB)  # full range ~0.15-2.45 V (calibrated read_uv)
        except (AttributeError, ValueError):
            pass
        self.div = cfg.get("divider_x100", 200)
        self.empty = cfg.get("empty_mv", 3300)
        self.full = cfg.get("full_mv", 4150)
        c = cfg.get("ctrl")
        self.ctrl_level = cfg.get("ctrl_level", 0)
        self.ctrl = None if c is None else Pin(c, Pin.OUT, value=1 - self.ctrl_level)

    def millivolts(self):
        c = self.ctrl
        if c is not None:
            c.value(self.ctrl_level)
        try:
            uv = self.adc.read_uv()
        finally:
            if c is not None:
                c.value(1 - self.ctrl_level)
        return uv * self.div // 100000

    def percent(self):
        mv = self.millivolts()
        p = (mv - self.empty) * 100 // (self.full - self.empty)
        return 0 if p < 0 else 100 if p > 100 else p


class Devices:
    def __init__(self, profile):
        from machine import I2C, Pin
        self.profile = profile
        self.queue = q = Queue()
        bus = _get(profile, "I2C")
        if not bus:
            raise ValueError("board profile has no I2C bus")
        self.i2c = I2C(bus.get("id", 0), scl=Pin(bus["scl"]), sda=Pin(bus["sda"]),
                       freq=bus.get("freq", 400000))
        self.display = self._display(_get(profile, "DISPLAY"), Pin)

        self.shaker = None
        self.sensor_missing = False
        sh = _get(profile, "SHAKE")
        if sh and sh.get("type"):
            try:
                sensor = open_sensor(self.i2c, sh)
            except OSError:
                sensor = None
            if sensor is None:
                self.sensor_missing = True
            else:
                self.shaker = Shaker(sensor, q, sensitivity=sh.get("sensitivity", 3),
                                     period_ms=sh.get("period_ms", 20),
                                     cooldown_ms=sh.get("cooldown_ms", 800),
                                     scale=sh.get("scale", 100))

        spec = _get(profile, "BUTTONS") or {}
        # Indexed by events.PREV, NEXT, OK, BACK (0..3).
        pins = [_button(spec.get(name), Pin) for name in ("PREV", "NEXT", "OK", "BACK")]
        if pins[OK] is None:
            raise ValueError("board profile needs an OK button")
        self.buttons = Buttons(pins, q)

        bz = _get(profile, "BUZZER")
        self.buzzer = Buzzer(None if bz is None else Pin(bz))
        bat = _get(profile, "BATTERY")
        self.battery = Battery(bat) if bat else None
        self.source = rng.source

    def _display(self, d, Pin):
        if not d:
            raise ValueError("board profile has no DISPLAY")
        level = d.get("power_level", 0)
        rs = d.get("reset")
        pw = d.get("power")
        reset = None if rs is None else Pin(rs, Pin.OUT, value=1)
        power = None if pw is None else Pin(pw, Pin.OUT, value=level)
        addr = d.get("addr", 0x3C)
        disp = Display(self.i2c, d.get("width", 128), d.get("height", 64), addr,
                       d.get("type", "ssd1306"), d.get("rotate", 0), reset, power, level)
        if disp.ok or disp.init():  # a second try for a panel slow to power up
            return disp
        try:
            found = self.i2c.scan()
        except OSError:
            found = []
        other = addr ^ 1  # 0x3C <-> 0x3D (SA0)
        if other in found:
            disp.addr = other
            if disp.init():
                return disp
        bus = _get(self.profile, "I2C") or {}
        raise RuntimeError("display: no %s answers at 0x%02X on I2C (SDA %s, SCL %s); "
                           "devices found: %s" % (d.get("type", "ssd1306"), addr, bus.get("sda"),
                                                  bus.get("scl"), ", ".join("0x%02X" % a for a in found)
                                                  or "none"))

    def poll(self, now):
        self.buttons.poll(now)
        if self.shaker is not None:
            self.shaker.poll(now)
