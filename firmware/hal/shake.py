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
`hal.devices.open_sensor(i2c, profile_shake)` builds the one a board profile's SHAKE
names, or None when it is not configured or does not answer. Each sensor's driver is a
module of its own (hal.mpu6050, hal.lis3dh, hal.switch), loaded only when a profile
names it.

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

An accelerometer that answers with data no hand makes is a fault too (`failed`, so the
app says once that OK rolls, as for a missing sensor), and such data never counts as
motion, so it cannot roll by itself:
- frozen: a sample exactly like the previous one measured nothing; or steady (a change
  below 0.1 g) while its magnitude is far from 1 g, which at rest only gravity gives.
  25 such samples in a row (0.5 s) are a fault. At rest the noise keeps every sample
  different: MPU-6050 400 ug/rtHz (PS-MPU-6000A-00 rev 3.4, 6.2, p.13) over the 44 Hz
  low-pass is ~2.7 mg rms, LIS3DH 220 ug/rtHz (DocID17530 rev 2, table 4) over 50 Hz
  ~2 mg, each axis about a unit of 1/256 g (3.9 mg): all three unchanged 25 times in a
  row is below 1e-20;
- garbage: a change larger than the sensor's full scale (range_g, in g) within one
  sample period, behind a 44 Hz low-pass (MPU-6000/6050 register map rev 4.2, reg 26)
  or at 100 Hz (LIS3DH CTRL_REG1 0x57): a knock gives one or two, garbage most. Each
  adds 8 to a count that every other sample drains by 1; 64 is a fault.
After such a fault the detector re-initialises the sensor as above, and counts nothing
until 50 plausible samples in a row (1 s) have come again.
"""
try:
    from time import ticks_add, ticks_diff
except ImportError:  # CPython
    def ticks_diff(a, b):
        return a - b

    def ticks_add(a, b):
        return a + b

from hal.events import SHAKE_END, SHAKE_START

from micropython import const

_TYPES = const(0)  # the attributes' types, for pyright (on the device "if 0:" is no code)
if _TYPES:
    from hal.events import Queue

_G2 = const(65536)          # (1 g)^2 in the detector's units
_HIT = const(32)
_START = const(160)
_END = const(48)
_FAILS = const(3)
_RETRY_MS = const(2000)
# Activity threshold per sensitivity 1..5, in 1/16 g^2.
_THRESH = b"\x18\x12\x0d\x09\x06"
# Switch: edges in the window that start a shake, per sensitivity 1..5.
_SW_START = b"\x0c\x0a\x08\x06\x05"
_SW_END = const(3)
# Implausible data (see the module doc), in the detector's units.
_STILL = const(655)     # (0.1 g)^2: a change below this measured no motion
_FAR = const(32768)     # |a|^2 off 1 g^2 by 1/2 g^2 (|a| < 0.71 g or > 1.22 g)
_FROZEN = const(25)     # frozen samples in a row that are a fault
_ODD_HIT = const(8)
_ODD_FAULT = const(64)
_PROOF = const(50)      # plausible samples in a row before a faulty sensor counts again
# Shaker._f bits.
_STARTED = const(1)   # the first poll set the sampling schedule
_QUIET = const(2)     # cooling down after a roll until _wait
_HAVE_PREV = const(4)  # _px/_py/_pz hold the previous sample


class Shaker:
    # Set by __init__ (annotations only: no code, no heap on the device).
    queue: "Queue"
    period_ms: int
    cooldown_ms: int
    scale: int
    shaking: bool
    failed: bool
    score: int
    samples: int
    _sens: int
    _hi: int
    _f: int
    _next: int
    _wait: int
    _px: int
    _py: int
    _pz: int
    _errs: int
    _jmax: int
    _frozen: int
    _odd: int
    _trust: int
    _ring: bytearray
    _ri: int
    _sum: int

    def __init__(self, sensor, queue, sensitivity=3, period_ms=20, cooldown_ms=800, scale=100):
        self.sensor = sensor  # any sensor: hal.mpu6050, hal.lis3dh, hal.switch
        if period_ms <= 0 or scale <= 0:
            raise ValueError("period_ms and scale must be positive")
        self.queue = queue
        self.period_ms = period_ms
        self.cooldown_ms = cooldown_ms
        self.scale = scale
        self.shaking = False
        self.failed = False
        self.score = 0
        self.samples = 0
        self.sensitivity = sensitivity
        self._f = 0
        self._next = 0      # time of the next sample
        self._wait = 0      # end of the cooldown, or (failed) of the wait before a retry
        self._px = 0
        self._py = 0
        self._pz = 0
        self._errs = 0
        rg = getattr(sensor, "range_g", 8)
        self._jmax = rg * rg * _G2  # (full scale)^2: more in one period is no motion
        self._frozen = 0
        self._odd = 0
        self._trust = 0
        n = 500 // period_ms  # the switch's window: 500 ms of samples
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

    def cooldown(self, now):
        """After a roll: end a running shake, ignore motion for cooldown_ms."""
        if self.shaking:
            self.shaking = False
            self.queue.put(SHAKE_END)
        self._f |= _QUIET
        self._wait = ticks_add(now, self.cooldown_ms)
        self._reset_state()

    def _reset_state(self):
        self.score = 0
        self._f &= ~_HAVE_PREV
        ring = self._ring
        for i in range(len(ring)):
            ring[i] = 0
        self._sum = 0

    def _data_fault(self, now):
        """The sensor answers with data no hand makes: failed, as when it stops
        answering (init() again in _RETRY_MS), and on probation when it is back."""
        self.failed = True
        self._wait = ticks_add(now, _RETRY_MS)
        self._frozen = self._odd = 0
        self._trust = _PROOF
        if self.shaking:
            self.shaking = False
            self.queue.put(SHAKE_END)
        self._reset_state()

    def poll(self, now):
        f = self._f
        if not f & _STARTED:
            f |= _STARTED
            self._f = f
            self._next = now
        if ticks_diff(now, self._next) < 0:
            return
        nxt = ticks_add(self._next, self.period_ms)
        if ticks_diff(now, nxt) >= 0:  # late: keep the rate, do not catch up
            nxt = ticks_add(now, self.period_ms)
        self._next = nxt
        q = self.queue
        s = self.sensor
        if self.failed:
            # Gone: try init() again every _RETRY_MS.
            if ticks_diff(now, self._wait) >= 0:
                try:
                    s.init()
                    self.failed = False
                    self._errs = 0
                    self._reset_state()
                except (OSError, ValueError):
                    self._wait = ticks_add(now, _RETRY_MS)
            return
        if f & _QUIET:
            if ticks_diff(now, self._wait) < 0:
                return
            self._f = f = f & ~_QUIET
        try:
            s.read()
        except OSError:
            self._errs += 1
            if self._errs >= _FAILS:
                self.failed = True
                self._wait = ticks_add(now, _RETRY_MS)
                if self.shaking:
                    self.shaking = False
                    q.put(SHAKE_END)
                self._reset_state()
            return
        self._errs = 0
        self.samples += 1
        if s.edges_only:
            # Switch: edges per sample (at most 2 count, so one bouncing contact counts
            # once), summed over the window's ring.
            n = s.edges
            if n > 2:
                n = 2
            ring = self._ring
            i = self._ri
            self._sum += n - ring[i]
            ring[i] = n
            i += 1
            self._ri = 0 if i >= len(ring) else i
            sc = self._sum
            start = _SW_START[self._sens - 1]
            end = _SW_END
        else:
            # Accelerometer: |a|^2 off 1 g^2, or the jerk |da|^2 if larger.
            x = s.x
            y = s.y
            z = s.z
            a = x * x + y * y + z * z - _G2
            if a < 0:
                a = -a
            j = 0  # the change since the previous sample, |da|^2
            if f & _HAVE_PREV:
                d = x - self._px
                j = d * d
                d = y - self._py
                j += d * d
                d = z - self._pz
                j += d * d
            self._px = x
            self._py = y
            self._pz = z
            self._f = f | _HAVE_PREV
            if f & _HAVE_PREV:
                ok = True
                if j > self._jmax:  # beyond the full scale in one period: garbage
                    ok = False
                    a = 0
                    self._odd += _ODD_HIT
                    if self._odd >= _ODD_FAULT:
                        self._data_fault(now)
                        return
                elif j < _STILL:  # nothing moved: only gravity reads steady
                    if not j or a > _FAR:
                        ok = False
                        self._frozen += 1
                        if self._frozen >= _FROZEN:
                            self._data_fault(now)
                            return
                    a = 0
                elif j > a:
                    a = j
                if ok:
                    self._frozen = 0
                    if self._odd:
                        self._odd -= 1
                    if self._trust:
                        self._trust -= 1
                        a = 0
                elif self._trust:
                    self._trust = _PROOF
            elif self._trust:
                a = 0
            sc = self.score
            hi = self._hi
            if a > (hi >> 1 if self.shaking else hi):  # halved while shaking: hysteresis
                sc += _HIT - (sc >> 3)
            else:
                sc -= sc >> 2
            start = _START
            end = _END
        self.score = sc
        if self.shaking:
            if sc < end:
                self.shaking = False
                q.put(SHAKE_END)
        elif sc >= start:
            self.shaking = True
            q.put(SHAKE_START)
