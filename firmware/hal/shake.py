"""Shake sensors and the shake detector.

Sensors (each `init()` raises OSError when the chip does not answer and ValueError
when something else answers; `read()` takes one sample, allocation-free):
- `MPU6050(i2c, addr=0x68, range_g=8)`: MPU6050 / MPU6886 (WHO_AM_I 0x68, or 0x19 for
  the 6886, and the common clone IDs): reset, woken from sleep (PWR_MGMT_1) on the
  internal oscillator, gyro in standby, low-pass ~44 Hz, +-4 g or +-8 g. `x, y, z` in
  units of 1/256 g.
- `LIS3DH(i2c, addr=0x18, range_g=8)`: WHO_AM_I 0x33; 100 Hz, high resolution, block
  data update, +-4 g or +-8 g; `x, y, z` in 1/256 g.
- `Switch(pin)`: a vibration (spring) or tilt (ball) switch on an input pin with its
  pull-up. Its level is never trusted (module polarity varies and contacts stick): an
  IRQ on both edges counts edges in a bytearray; `edges` is the count since the last
  read.
`open_sensor(i2c, profile_shake)` builds the one a board profile's SHAKE names, or None
when it is not configured or does not answer. Each sensor's driver is a module of its
own (hal.mpu6050, hal.lis3dh, hal.switch), loaded only when a profile names it;
open_sensor (hal.sensor) is boot-only code. The names are still reachable here.

`Shaker(sensor, queue, sensitivity=3, period_ms=20, cooldown_ms=800, scale=100)` turns
samples taken at a fixed rate (at most one per poll) into SHAKE_START / SHAKE_END:
- accelerometers: a sample is "active" when |a|^2 differs from 1 g^2, or the change
  since the previous sample (jerk, |da|^2) exceeds it, by more than a threshold (all
  integer, 1 g^2 = 65536). The threshold comes from `sensitivity` 1 (firm) .. 5
  (gentle), scaled by the board's `scale` percent, and is halved while shaking
  (hysteresis). Active samples build a score (s += 32 - s/8), quiet ones drain it
  (s -= s/4): START at 160, which takes ~8 active samples in a row (160 ms at 50 Hz), so
  a bump, a knock on the table or a slow tilt (1-5 active samples) never starts a roll;
  END when the score falls below 48 (~6 quiet samples).
- switches: edges per sample (at most 2 count, so one bouncing contact counts once)
  summed over the last 500 ms: START at 12/10/8/6/5 (sensitivity 1..5), END below 3.
`cooldown(now_ms)` ends a running shake and ignores motion for `cooldown_ms` (the hand
settling after a roll). When reads fail 3 times in a row `failed` turns True (a running
shake ends); the detector retries `init()` every 2 s and clears `failed` when the sensor
answers again. poll() allocates nothing while the sensor answers.
"""
from hal.events import SHAKE_END, SHAKE_START

try:
    from time import ticks_add, ticks_diff
except ImportError:  # CPython
    def ticks_diff(a, b):
        return a - b

    def ticks_add(a, b):
        return a + b

try:
    from micropython import const
except ImportError:
    def const(x):
        return x

_G2 = const(65536)          # (1 g)^2 in the detector's units
_HIT = const(32)
_START = const(160)
_END = const(48)
_FAILS = const(3)
_RETRY_MS = const(2000)
_WINDOW_MS = const(500)
# Activity threshold per sensitivity 1..5, in 1/16 g^2.
_THRESH = b"\x18\x12\x0d\x09\x06"
# Switch: edges in the window that start a shake, per sensitivity 1..5.
_SW_START = b"\x0c\x0a\x08\x06\x05"
_SW_END = const(3)


def __getattr__(name):
    # The sensor drivers live in modules of their own (hal.mpu6050, hal.lis3dh,
    # hal.switch) and open_sensor in boot-only hal.sensor: a board holds only its
    # own sensor's code. Old imports (`from hal.shake import LIS3DH`) still work.
    if name == "open_sensor":
        from hal import sensor as m
    elif name == "LIS3DH":
        from hal import lis3dh as m
    elif name == "Switch":
        from hal import switch as m
    elif name == "MPU6050" or name == "MPU6886":
        from hal import mpu6050 as m
        name = "MPU6050"
    else:
        raise AttributeError(name)
    return getattr(m, name)


class Shaker:
    def __init__(self, sensor, queue, sensitivity=3, period_ms=20, cooldown_ms=800,
                 scale=100):
        if period_ms <= 0 or scale <= 0:
            raise ValueError("period_ms and scale must be positive")
        self.sensor = sensor
        self.queue = queue
        self.period_ms = period_ms
        self.cooldown_ms = cooldown_ms
        self.scale = scale
        self.shaking = False
        self.failed = False
        self.score = 0
        self.samples = 0
        self._hi = 0
        self._lo = 0
        self._sw_start = 0
        self._sens = 3
        self.sensitivity = sensitivity
        self._next = 0
        self._started = False
        self._quiet = False
        self._quiet_end = 0
        self._have_prev = False
        self._px = 0
        self._py = 0
        self._pz = 0
        self._errs = 0
        self._retry = 0
        n = _WINDOW_MS // period_ms
        self._ring = bytearray(n if n > 0 else 1)
        self._ri = 0
        self._sum = 0

    @property
    def sensitivity(self):
        return self._sens

    @sensitivity.setter
    def sensitivity(self, s):
        if not 1 <= s <= 5:
            raise ValueError("shake sensitivity must be 1..5, not %r" % (s,))
        self._sens = s
        self._hi = (_THRESH[s - 1] << 12) * self.scale // 100
        self._lo = self._hi >> 1
        self._sw_start = _SW_START[s - 1]

    def cooldown(self, now):
        """After a roll: end a running shake, ignore motion for cooldown_ms."""
        if self.shaking:
            self.shaking = False
            self.queue.put(SHAKE_END)
        self._quiet = True
        self._quiet_end = ticks_add(now, self.cooldown_ms)
        self._reset_state()

    def _reset_state(self):
        self.score = 0
        self._have_prev = False
        ring = self._ring
        for i in range(len(ring)):
            ring[i] = 0
        self._sum = 0

    def poll(self, now):
        if not self._started:
            self._started = True
            self._next = now
        if ticks_diff(now, self._next) < 0:
            return
        nxt = ticks_add(self._next, self.period_ms)
        if ticks_diff(now, nxt) >= 0:  # late: keep the rate, do not catch up
            nxt = ticks_add(now, self.period_ms)
        self._next = nxt
        if self.failed:
            self._revive(now)
            return
        if self._quiet:
            if ticks_diff(now, self._quiet_end) < 0:
                return
            self._quiet = False
        s = self.sensor
        try:
            s.read()
        except OSError:
            self._errs += 1
            if self._errs >= _FAILS:
                self.failed = True
                self._retry = ticks_add(now, _RETRY_MS)
                if self.shaking:
                    self.shaking = False
                    self.queue.put(SHAKE_END)
                self._reset_state()
            return
        self._errs = 0
        self.samples += 1
        if s.edges_only:
            self._edges(s.edges)
        else:
            self._accel(s.x, s.y, s.z)

    def _revive(self, now):
        if ticks_diff(now, self._retry) < 0:
            return
        try:
            self.sensor.init()
        except (OSError, ValueError):
            self._retry = ticks_add(now, _RETRY_MS)
            return
        self.failed = False
        self._errs = 0
        self._reset_state()

    def _accel(self, x, y, z):
        a = x * x + y * y + z * z - _G2
        if a < 0:
            a = -a
        if self._have_prev:
            d = x - self._px
            j = d * d
            d = y - self._py
            j += d * d
            d = z - self._pz
            j += d * d
            if j > a:
                a = j
        self._px = x
        self._py = y
        self._pz = z
        self._have_prev = True
        sc = self.score
        if a > (self._lo if self.shaking else self._hi):
            sc += _HIT - (sc >> 3)
        else:
            sc -= sc >> 2
        self.score = sc
        if self.shaking:
            if sc < _END:
                self.shaking = False
                self.queue.put(SHAKE_END)
        elif sc >= _START:
            self.shaking = True
            self.queue.put(SHAKE_START)

    def _edges(self, n):
        if n > 2:
            n = 2
        ring = self._ring
        i = self._ri
        self._sum += n - ring[i]
        ring[i] = n
        i += 1
        self._ri = 0 if i >= len(ring) else i
        sm = self._sum
        self.score = sm
        if self.shaking:
            if sm < _SW_END:
                self.shaking = False
                self.queue.put(SHAKE_END)
        elif sm >= self._sw_start:
            self.shaking = True
            self.queue.put(SHAKE_START)
