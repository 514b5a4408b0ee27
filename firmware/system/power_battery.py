"""The battery watch: `Battery(source)` turns readings of a LiPo cell (the board's hal
battery, or an ADC behind a divider) into a percent (`pct`) on the cell's discharge
curve and a `low` flag with hysteresis; `update(now_ms)` says when it has just gone low
(warn; the game is saved after every decision anyway). `mv_to_percent()` is the pure
part. Imported at boot only on a board with a battery."""
try:
    from time import ticks_add, ticks_diff
except ImportError:  # CPython: plain ints
    def ticks_add(a, b):
        return a + b

    def ticks_diff(a, b):
        return a - b


# LiPo open-circuit voltage -> percent, a coarse discharge curve, highest first; the
# voltages as (mV - 3000) / 10 so both fit in bytes (4200 4100 ... 3300 mV).
_CURVE_MV = bytes((120, 110, 100, 90, 80, 75, 70, 60, 30))
_CURVE_PCT = bytes((100, 90, 78, 62, 40, 25, 12, 5, 0))


def mv_to_percent(mv):
    """Percent 0-100 of a single LiPo cell at mv millivolts (linear between points)."""
    hi = 4200
    if mv >= hi:
        return 100
    for i in range(1, len(_CURVE_MV)):
        lo = 3000 + _CURVE_MV[i] * 10
        if mv >= lo:
            p_hi = _CURVE_PCT[i - 1]
            p_lo = _CURVE_PCT[i]
            return p_lo + ((mv - lo) * (p_hi - p_lo) + (hi - lo) // 2) // (hi - lo)
        hi = lo
    return 0


class Battery:
    """Battery level, averaged, sampled every period_ms; `low` turns on at low_pct and
    off again only above ok_pct (no flicker around the threshold); `pct` is the
    percent, `mv` the smoothed voltage. `source` is the board's battery (hal.devices:
    has millivolts()) or an ADC on the divided pin (read_uv()/read_u16(), divider
    `ratio`: Divided)."""

    def __init__(self, source, ratio=2.0, period_ms=10000, low_pct=10, ok_pct=15):
        if not hasattr(source, "millivolts"):
            source = Divided(source, ratio)
        self.source = source
        self.period_ms = period_ms
        self.low_pct = low_pct
        self.ok_pct = ok_pct
        self.mv = 0
        self.pct = 100
        self.low = False
        self.next_ms = None     # the first update() samples at once
        self.update(None)       # the first reading, without starting the schedule

    def update(self, now_ms):
        """Sample when due (4 readings averaged, smoothed 1/4 into the running value).
        Returns True exactly when the battery has just gone low (the app then warns;
        the game is saved after every decision anyway)."""
        if now_ms is not None:
            if self.next_ms is not None and ticks_diff(now_ms, self.next_ms) < 0:
                return False
            self.next_ms = ticks_add(now_ms, self.period_ms)
        src = self.source
        try:
            s = 0
            for _ in range(4):
                s += src.millivolts()
        except (OSError, ValueError):
            return False
        mv = s // 4
        self.mv = mv if self.mv == 0 else (self.mv * 3 + mv) // 4
        self.pct = mv_to_percent(self.mv)
        was = self.low
        if self.pct <= self.low_pct:
            self.low = True
        elif self.pct >= self.ok_pct:
            self.low = False
        return self.low and not was


def adc_to_mv(adc, ratio):
    """Cell voltage in mV from an ADC on the divided battery pin. Prefers the
    calibrated read_uv(); else read_u16() on a 0-3.3 V scale (11 dB attenuation)."""
    if hasattr(adc, "read_uv"):
        uv = adc.read_uv()
        return int(uv * ratio) // 1000
    return int(adc.read_u16() * 3300 * ratio) // 65535


class Divided:
    """An ADC behind a 1:ratio divider as a battery with millivolts()."""

    def __init__(self, adc, ratio):
        self.adc = adc
        self.ratio = ratio

    def millivolts(self):
        return adc_to_mv(self.adc, self.ratio)
