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
- `source`: os.urandom (what hal.rng.source is).
`poll(now_ms)` polls buttons and shaker into `queue` once per frame.

The class lives in hal.events, which stays loaded anyway; this module only names it and
is dropped again (with hal.bringup) once the devices are built, so it keeps no heap.
"""

from hal.events import Devices  # noqa: F401  (see above)
