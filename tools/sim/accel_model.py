"""Accelerometer models (MPU6050 / MPU6886, LIS3DH) with registers and scripted motion.

Motion is a stream of samples in milli-g (x, y, z), one per data read: each read of
the sensor's output block (starting at ACCEL_XOUT_H / OUT_X_L) takes the next sample.
A driver that samples every TRACE_MS milliseconds therefore sees the traces below at
their real speed. Between scripted traces the device rests (gravity on z, a little
noise); `Motion.shake(True)` makes it report vigorous shaking until `shake(False)`.

Traces (lists of samples at TRACE_MS spacing), shaped after what a hand-held board
records: `shake()` (a real roll: ~5 Hz, +-2.5 g, one second), `bump()` (knocked
against something while held: one 60 ms pulse with a short damped ring), `knock()`
(lying on a table that is knocked: one sharp spike ringing out in 80 ms), `tilt()`
(turned slowly by 90 degrees over 1.5 s), `walk()` (carried while walking).

Portable (CPython and the MicroPython unix port).
"""
import math

TRACE_MS = 20

MPU6050 = "mpu6050"
MPU6886 = "mpu6886"
LIS3DH = "lis3dh"


class _Noise:
    """Small deterministic noise (LCG), +-amp milli-g."""

    def __init__(self, seed=1, amp=12):
        self.s = seed
        self.amp = amp

    def __call__(self):
        self.s = (self.s * 1103515245 + 12345) & 0x7FFFFFFF
        return ((self.s >> 12) % (2 * self.amp + 1)) - self.amp


def _clip(v, lo, hi):
    return lo if v < lo else hi if v > hi else v


# ---- traces -----------------------------------------------------------------------

def rest(ms=200, g=(0, 0, 1000), seed=7):
    n = _Noise(seed)
    return [(g[0] + n(), g[1] + n(), g[2] + n()) for _ in range(ms // TRACE_MS)]


def shake(ms=1000, hz=5.0, amp=2500, seed=3):
    """Shaking dice in a cupped hand: mostly along y, some x and z, ramping in and out
    over ~100 ms; gravity tilted as a hand holds it."""
    n = _Noise(seed, 40)
    out = []
    steps = ms // TRACE_MS
    for i in range(steps):
        t = i * TRACE_MS / 1000.0
        ramp = min(1.0, (i + 1) / 5.0, (steps - i) / 5.0)
        ph = 2 * math.pi * hz * t
        a = amp * ramp
        out.append((int(0.35 * a * math.sin(ph + 1.1)) + n(),
                    int(a * math.sin(ph)) + 300 + n(),
                    int(0.25 * a * math.cos(ph)) + 950 + n()))
    return rest(200) + out + rest(600)


def bump(peak=1800):
    """Held in the hand, bumped against a table edge: a 60 ms pulse on x, a short ring."""
    g = (0, 300, 950)
    pulse = (int(peak * 0.6), peak, int(peak * 0.5), -int(peak * 0.25), int(peak * 0.1))
    n = _Noise(5)
    mid = [(g[0] + p + n(), g[1] + n(), g[2] + (p >> 3) + n()) for p in pulse]
    return rest(300, g) + mid + rest(600, g)


def knock(peak=3200):
    """Lying flat while the table is knocked: a sharp spike on z that rings out."""
    ring = (peak, -int(peak * 0.6), int(peak * 0.3), -int(peak * 0.12))
    n = _Noise(9)
    mid = [(n() + (r >> 4), n() - (r >> 5), 1000 + r + n()) for r in ring]
    return rest(300) + mid + rest(600)


def tilt(ms=1500, degrees=90):
    """Turned slowly from flat onto its side."""
    n = _Noise(11)
    steps = ms // TRACE_MS
    out = []
    for i in range(steps + 1):
        th = math.pi * degrees / 180.0 * i / steps
        out.append((n(), int(1000 * math.sin(th)) + n(), int(1000 * math.cos(th)) + n()))
    return rest(300) + out + rest(600, out[-1])


def walk(ms=3000):
    """Carried in the hand while walking: ~2 steps per second, 0.35 g heel strikes."""
    n = _Noise(13)
    out = []
    steps = ms // TRACE_MS
    for i in range(steps):
        t = i * TRACE_MS / 1000.0
        s = math.sin(2 * math.pi * 2.0 * t)
        strike = int(350 * s * s * s * s)
        out.append((n() + int(80 * math.sin(2 * math.pi * 1.0 * t)), 300 + n(),
                    950 + strike + n()))
    return out


# A vigorous 5 Hz shake at 50 samples per second, for Motion.shake(True).
_SHAKE_CYCLE = tuple(
    (int(900 * math.sin(2 * math.pi * k / 10 + 1.1)),
     int(2600 * math.sin(2 * math.pi * k / 10)) + 300,
     int(700 * math.cos(2 * math.pi * k / 10)) + 950) for k in range(10))


class Motion:
    def __init__(self):
        self.trace = []
        self.pos = 0
        self.shaking = False
        self.k = 0
        self.noise = _Noise(21, 8)
        self.g = (0, 0, 1000)
        self.samples = 0

    def play(self, trace):
        self.trace = list(trace)
        self.pos = 0

    def shake(self, on):
        self.shaking = bool(on)
        self.k = 0

    def busy(self):
        return self.pos < len(self.trace)

    def next(self):
        self.samples += 1
        if self.pos < len(self.trace):
            s = self.trace[self.pos]
            self.pos += 1
            return s
        if self.shaking:
            s = _SHAKE_CYCLE[self.k % 10]
            self.k += 1
            return s
        n = self.noise
        g = self.g
        return (g[0] + n(), g[1] + n(), g[2] + n())


class _Regs:
    """A register-file I2C device: a write sets the register pointer, then data."""

    WHO_REG = 0x75
    auto_inc_bit = 0  # LIS3DH: sub-address bit 7 enables auto-increment

    def __init__(self, addr, motion):
        self.addr = addr
        self.motion = motion
        self.regs = bytearray(128)
        self.ptr = 0
        self.inc = True
        self.bytes_rx = 0
        self.reads = 0
        self.samples = 0
        self.problems = []  # configurations the part does not support, as text
        self.reset()

    def write(self, data):
        self.bytes_rx += 1 + len(data)
        if not data:
            return
        sub = data[0]
        if self.auto_inc_bit:
            self.inc = bool(sub & 0x80)
            sub &= 0x7F
        self.ptr = sub & 0x7F
        for b in data[1:]:
            self.store(self.ptr, b)
            if self.inc:
                self.ptr = (self.ptr + 1) & 0x7F

    def read(self, n):
        self.bytes_rx += 1 + n
        self.reads += 1
        if self.ptr == self.DATA_REG:
            self.sample()
        out = bytearray(n)
        for i in range(n):
            out[i] = self.regs[self.ptr]
            if self.inc:
                self.ptr = (self.ptr + 1) & 0x7F
        return bytes(out)

    def store(self, reg, b):
        self.regs[reg] = b


class MPU(_Regs):
    """MPU6050 (WHO_AM_I 0x68) or MPU6886 (0x19). Wakes up asleep (PWR_MGMT_1 bit 6);
    asleep it does not update its data registers. ACCEL_CONFIG bits 4:3 select +-2/4/8/16 g."""

    DATA_REG = 0x3B

    def __init__(self, addr=0x68, motion=None, kind=MPU6050):
        self.kind = kind
        self.who = 0x19 if kind == MPU6886 else 0x68
        _Regs.__init__(self, addr, motion or Motion())

    def reset(self):
        r = self.regs
        for i in range(len(r)):
            r[i] = 0
        r[0x6B] = 0x40  # SLEEP
        r[0x75] = self.who

    def store(self, reg, b):
        if reg == 0x6B and b & 0x80:
            self.reset()  # DEVICE_RESET
            return
        if reg == 0x75:
            return  # read-only
        self.regs[reg] = b

    @property
    def asleep(self):
        return bool(self.regs[0x6B] & 0x40)

    @property
    def range_g(self):
        return 2 << ((self.regs[0x1C] >> 3) & 3)

    def clock_runs(self):
        """MPU-6000/6050 register map (PWR_MGMT_1): the gyros may be disabled only
        with the internal oscillator or an external clock; CLKSEL 1..3 take the PLL from
        the X / Y / Z gyro (PWR_MGMT_2 STBY_XG / YG / ZG, bits 2 / 1 / 0). CLKSEL 7
        stops the clock. The 6500 family (6886) auto-selects the oscillator for 1..5.
        The unsupported case is modelled as no new samples, and noted in `problems`."""
        clk = self.regs[0x6B] & 7
        if clk == 7:
            why = "CLKSEL 7 stops the clock"
        elif self.kind == MPU6050 and clk in (1, 2, 3) and \
                self.regs[0x6C] & (1 << (3 - clk)):
            why = "CLKSEL %d uses a gyro that PWR_MGMT_2 puts in standby" % clk
        else:
            return True
        if why not in self.problems:
            self.problems.append(why)
        return False

    def sample(self):
        if self.asleep or not self.clock_runs():
            return
        x, y, z = self.motion.next()
        self.samples += 1
        lsb = 16384 >> ((self.regs[0x1C] >> 3) & 3)
        r = self.regs
        i = 0x3B
        for v in (x, y, z):
            raw = _clip(v * lsb // 1000, -32768, 32767) & 0xFFFF
            r[i] = raw >> 8
            r[i + 1] = raw & 0xFF
            i += 2


class LIS3DHModel(_Regs):
    """LIS3DH: WHO_AM_I (0x0F) 0x33; powered down until CTRL_REG1 sets a data rate;
    CTRL_REG4 FS bits 5:4 select +-2/4/8/16 g, HR bit 3 12-bit, LPen (CTRL_REG1 bit 3)
    8-bit; outputs left-justified little-endian; multi-byte reads auto-increment only
    when bit 7 of the sub-address is set."""

    DATA_REG = 0x28
    auto_inc_bit = 1
    kind = LIS3DH

    def __init__(self, addr=0x18, motion=None):
        _Regs.__init__(self, addr, motion or Motion())

    def reset(self):
        r = self.regs
        for i in range(len(r)):
            r[i] = 0
        r[0x0F] = 0x33
        r[0x20] = 0x07

    def store(self, reg, b):
        if reg == 0x0F:
            return
        self.regs[reg] = b

    @property
    def asleep(self):
        return (self.regs[0x20] >> 4) == 0

    @property
    def range_g(self):
        return 2 << ((self.regs[0x23] >> 4) & 3)

    def sample(self):
        if self.asleep:
            return
        x, y, z = self.motion.next()
        self.samples += 1
        fs = (self.regs[0x23] >> 4) & 3
        if self.regs[0x20] & 0x08:
            bits, mg = 8, (16, 32, 64, 192)[fs]
        elif self.regs[0x23] & 0x08:
            bits, mg = 12, (1, 2, 4, 12)[fs]
        else:
            bits, mg = 10, (4, 8, 16, 48)[fs]
        lim = 1 << (bits - 1)
        r = self.regs
        i = 0x28
        for v in (x, y, z):
            q = v // mg if v >= 0 else -((-v) // mg)
            q = _clip(q, -lim, lim - 1)
            raw = (q << (16 - bits)) & 0xFFFF
            r[i] = raw & 0xFF
            r[i + 1] = raw >> 8
            i += 2
        r[0x27] = 0x0F  # STATUS: new data on all axes
