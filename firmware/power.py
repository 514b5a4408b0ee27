"""Power: idle levels (dim, display off + light sleep, deep sleep) and the battery.

`Power(settings)` turns idle time into a level; the times come from the settings
bytearray (store.S_DIM in tens of seconds, S_OFF and S_SLEEP in minutes; 0 = never).
The app calls `activity(now_ms)` on every event and `level(now_ms)` once a frame, and
acts on the level: `drive_display()` dims or blanks the panel, `nap()` light-sleeps
between frames while the display is off, and `deep_sleep()` (after the game is saved)
powers down until a button wakes the board, which then boots into Continue.

`Battery(source)` turns readings of a LiPo cell (the board's hal battery, or an ADC
behind a divider) into a percent on the cell's discharge curve and a `low` flag with
hysteresis; `update(now_ms)` says when it has just gone low (warn; the game is saved
after every decision anyway). `mv_to_percent()` is the pure part.
"""
try:
    from micropython import const
except ImportError:
    def const(x):
        return x

try:
    from time import ticks_add, ticks_diff
except ImportError:  # CPython: plain ints
    def ticks_add(a, b):
        return a + b

    def ticks_diff(a, b):
        return a - b

AWAKE = const(0)
DIM = const(1)
OFF = const(2)
DEEP = const(3)

_S_DIM = const(7)      # store.S_DIM (not imported: keeps this module standalone)
_S_OFF = const(8)
_S_SLEEP = const(9)
_DIM_CONTRAST = const(8)   # panel contrast while dimmed
_REVIVE_MS = const(1000)   # retry a panel that stopped answering this often


class Power:
    """Idle-time levels. Times from settings; a threshold of 0 means never."""

    def __init__(self, settings, now_ms=0):
        self.dim_ms = self.off_ms = self.sleep_ms = 0
        self.configure(settings)
        self.last = now_ms      # time of the last activity
        self.now = now_ms       # time of the last level() call
        self.shown = AWAKE      # level last applied by drive_display()
        self.revived = 0        # times a dead panel was brought back
        self._retry = now_ms

    def configure(self, settings):
        """Re-read the thresholds (after the Settings screen changed them)."""
        self.dim_ms = settings[_S_DIM] * 10000
        self.off_ms = settings[_S_OFF] * 60000
        self.sleep_ms = settings[_S_SLEEP] * 60000

    def activity(self, now_ms):
        """Something happened: back to AWAKE. Returns the level before, so the app can
        swallow the event that only woke the display (level OFF or deeper)."""
        was = self.level(now_ms)
        self.last = now_ms
        return was

    def idle_ms(self, now_ms):
        d = ticks_diff(now_ms, self.last)
        return d if d > 0 else 0

    def level(self, now_ms):
        self.now = now_ms
        idle = self.idle_ms(now_ms)
        if self.sleep_ms and idle >= self.sleep_ms:
            return DEEP
        if self.off_ms and idle >= self.off_ms:
            return OFF
        if self.dim_ms and idle >= self.dim_ms:
            return DIM
        return AWAKE

    def drive_display(self, display, level, contrast):
        """Apply level to the panel when it changed: contrast, dim, or off. Called
        every frame after level(); also brings back a panel that stopped answering
        (display.ok False): init() about once a second, then the whole frame buffer
        (the screen as last drawn) is sent again. Returns True when something was sent."""
        if not getattr(display, "ok", True):
            if ticks_diff(self.now, self._retry) < 0:
                return False
            self._retry = ticks_add(self.now, _REVIVE_MS)
            try:
                if not display.init():
                    return False
                display.show()
            except OSError:
                return False
            self.revived += 1
            self.shown = -1     # re-send contrast / sleep below
        if level == self.shown:
            return False
        try:
            if level >= OFF:
                display.sleep(True)
            else:
                if self.shown >= OFF:
                    display.sleep(False)
                display.contrast(_DIM_CONTRAST if level == DIM and contrast > _DIM_CONTRAST
                                 else contrast)
        except OSError:
            return False  # the panel is gone; the fault handling re-inits it
        self.shown = level
        return True


def nap(ms):
    """Sleep ms between frames, lightly where the chip can (display off)."""
    try:
        import machine
        machine.lightsleep(ms)
        return
    except (ImportError, AttributeError, OSError):
        pass
    import time
    if hasattr(time, "sleep_ms"):
        time.sleep_ms(ms)
    else:
        time.sleep(ms / 1000)


# Pins that can wake an ESP32 from deep sleep (RTC GPIOs); ESP32-S3: 0-21.
_RTC_ESP32 = bytes((0, 2, 4, 12, 13, 14, 15, 25, 26, 27, 32, 33, 34, 35, 36, 37, 38, 39))


def wake_pin(pins, chip="esp32"):
    """The first of pins (numbers, OK first) that can wake the chip, or None."""
    for p in pins:
        if p is None:
            continue
        if chip == "esp32s3":
            if 0 <= p <= 21:
                return p
        elif chip == "esp32":
            if p in _RTC_ESP32:
                return p
        else:
            return p
    return None


def deep_sleep(pin_no):
    """Power down until the button on pin_no pulls low (the board then boots into
    Continue: machine.reset_cause() == DEEPSLEEP_RESET). Save the game first."""
    import machine
    if pin_no is not None:
        try:
            import esp32
            p = machine.Pin(pin_no, machine.Pin.IN, machine.Pin.PULL_UP)
            esp32.wake_on_ext0(p, esp32.WAKEUP_ALL_LOW)
        except (ImportError, AttributeError, ValueError, OSError):
            pass
    machine.deepsleep()


# LiPo open-circuit voltage (mV) -> percent, a coarse discharge curve, highest first.
_CURVE_MV = (4200, 4100, 4000, 3900, 3800, 3750, 3700, 3600, 3300)
_CURVE_PCT = bytes((100, 90, 78, 62, 40, 25, 12, 5, 0))


def mv_to_percent(mv):
    """Percent 0-100 of a single LiPo cell at mv millivolts (linear between points)."""
    if mv >= _CURVE_MV[0]:
        return 100
    for i in range(1, len(_CURVE_MV)):
        lo = _CURVE_MV[i]
        if mv >= lo:
            hi = _CURVE_MV[i - 1]
            p_hi = _CURVE_PCT[i - 1]
            p_lo = _CURVE_PCT[i]
            return p_lo + ((mv - lo) * (p_hi - p_lo) + (hi - lo) // 2) // (hi - lo)
    return 0


def adc_to_mv(adc, ratio):
    """Cell voltage in mV from an ADC on the divided battery pin. Prefers the
    calibrated read_uv(); else read_u16() on a 0-3.3 V scale (11 dB attenuation)."""
    if hasattr(adc, "read_uv"):
        uv = adc.read_uv()
        return int(uv * ratio) // 1000
    return int(adc.read_u16() * 3300 * ratio) // 65535


class Battery:
    """Battery level, averaged, sampled every period_ms; `low` turns on at low_pct and
    off again only above ok_pct (no flicker around the threshold). `source` is the
    board's battery (hal.devices: has millivolts()) or an ADC on the divided pin
    (read_uv()/read_u16(), divider `ratio`)."""

    def __init__(self, source, ratio=2.0, period_ms=10000, low_pct=10, ok_pct=15):
        self.source = source
        self.ratio = ratio
        self.period_ms = period_ms
        self.low_pct = low_pct
        self.ok_pct = ok_pct
        self.mv = 0
        self.low = False
        self.next_ms = None
        self.pct = 100
        self.sample()

    def _read_mv(self):
        src = self.source
        if hasattr(src, "millivolts"):
            return src.millivolts()
        return adc_to_mv(src, self.ratio)

    def sample(self):
        """Read the ADC (4 samples averaged, smoothed 1/4 into the running value)."""
        try:
            s = 0
            for _ in range(4):
                s += self._read_mv()
            mv = s // 4
        except (OSError, ValueError):
            return
        self.mv = mv if self.mv == 0 else (self.mv * 3 + mv) // 4
        self.pct = mv_to_percent(self.mv)
        if self.pct <= self.low_pct:
            self.low = True
        elif self.pct >= self.ok_pct:
            self.low = False

    def update(self, now_ms):
        """Sample when due. Returns True exactly when the battery has just gone low
        (the app then warns and saves)."""
        if self.next_ms is not None and ticks_diff(now_ms, self.next_ms) < 0:
            return False
        self.next_ms = ticks_add(now_ms, self.period_ms)
        was = self.low
        self.sample()
        return self.low and not was

    def percent(self):
        return self.pct
