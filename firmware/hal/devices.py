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
- `battery`: None, or a hal.battery.Battery (loaded only for a board with one) with
  `percent()` and `millivolts()` from `BATTERY`
  {"pin", "divider_x100" (default 200: a 1:1 divider), "empty_mv", "full_mv",
  "ctrl", "ctrl_level" (a pin that switches the divider on while reading)};
- `source`: os.urandom (a port without it gets an error only if it rolls with it).
`poll(now_ms)` polls buttons and shaker into `queue` once per frame.

The profile is read and the drivers are made by hal.wiring (boot only: the app forgets
it once the devices are built); what stays is the devices and poll().
"""
import os

from micropython import const

_TYPES = const(0)  # the attribute types, for pyright (on the device "if 0:" is no code)
if _TYPES:
    from hal.buttons import Buttons
    from hal.buzzer import Buzzer
    from hal.display import Display
    from hal.events import Queue
    from hal.shake import Shaker


def _no_urandom(n):
    raise OSError("this MicroPython has no os.urandom: give the App a dice source")


class Devices:
    # Set by __init__ (annotations only: no code, no heap on the device).
    i2c: object
    queue: "Queue"
    display: "Display"
    shaker: "Shaker | None"
    sensor_missing: bool
    buttons: "Buttons"
    buzzer: "Buzzer"
    battery: object
    source: object

    def __init__(self, profile):
        from hal.wiring import build
        (self.i2c, self.queue, self.display, self.shaker, self.sensor_missing,
         self.buttons, self.buzzer, self.battery) = build(profile)
        self.source = getattr(os, "urandom", None) or _no_urandom

    def poll(self, now):
        self.buttons.poll(now)
        if self.shaker is not None:
            self.shaker.poll(now)
