"""MPU6050 / MPU6886 accelerometer driver (see hal.shake), the part on every board
profile. hal.lis3dh builds on this class: the setup (__init__), register writes
and the scaling of three signed 16-bit samples to 1/256 g are the same for both, and one
class and module fewer stay loaded."""
try:
    from time import sleep_ms as _sleep_ms
except ImportError:  # CPython
    from time import sleep as _sleep

    def _sleep_ms(ms):
        _sleep(ms / 1000)

from micropython import const

_TYPES = const(0)  # the attributes' types, for pyright (on the device "if 0:" is no code)
if _TYPES:
    from machine import I2C

# WHO_AM_I values: MPU6050 (and clones), MPU6500/9250 family, MPU6886.
_MPU_IDS = b"\x68\x98\x72\x70\x71\x73\x19"


class MPU6050:
    # Set by __init__ (annotations only: no code, no heap on the device).
    i2c: "I2C"
    addr: int
    range_g: int
    who: int
    x: int
    y: int
    z: int
    _mul: int
    _buf: bytearray
    _reg: bytearray

    edges_only = False
    _ADDR = 0x68
    _MUL4 = 32  # (raw * mul) >> 10 = 1/256 g at +-4 g; twice that at +-8 g

    def __init__(self, i2c, addr=None, range_g=8):
        if range_g not in (4, 8):
            raise ValueError("accelerometer range must be 4 or 8 (g), not %r" % (range_g,))
        self.i2c = i2c
        self.addr = self._ADDR if addr is None else addr
        self.range_g = range_g
        self._mul = self._MUL4 if range_g == 4 else 2 * self._MUL4
        self._buf = bytearray(6)
        self._reg = bytearray(2)
        self.who = 0
        self.x = 0
        self.y = 0
        self.z = 0
        self.init()  # each driver wakes and configures its own part

    def init(self):
        who = self.i2c.readfrom_mem(self.addr, 0x75, 1)[0]
        if who not in _MPU_IDS:
            raise ValueError("0x%02X is not an MPU6050/MPU6886 (WHO_AM_I 0x%02X)"
                             % (self.addr, who))
        self.who = who
        self._set(0x6B, 0x80)       # PWR_MGMT_1: device reset
        _sleep_ms(10)
        # Awake (SLEEP clear) on the internal oscillator: the register map allows the
        # gyros off only with it (CLKSEL 1 would clock from the X gyro put in standby).
        self._set(0x6B, 0x00)
        self._set(0x6C, 0x07)       # PWR_MGMT_2: gyro axes in standby
        self._set(0x1A, 0x03)       # CONFIG: low-pass ~44 Hz
        if who == 0x19:
            self._set(0x1D, 0x03)   # MPU6886 ACCEL_CONFIG2: accel low-pass ~45 Hz
        self._set(0x1C, (1 if self.range_g == 4 else 2) << 3)
        if self.i2c.readfrom_mem(self.addr, 0x6B, 1)[0] & 0x40:
            raise OSError(5)        # EIO: it did not wake up

    def read(self):
        b = self._buf
        self.i2c.readfrom_mem_into(self.addr, 0x3B, b)
        if not (b[0] | b[1] | b[2] | b[3] | b[4] | b[5]):
            # All zero: the power-on state (asleep, registers cleared), never a real
            # sample (gravity, noise). A read failure, so the detector re-inits it.
            raise OSError(5)
        self._scale(0)

    def _set(self, reg, val):
        r = self._reg
        r[0] = reg
        r[1] = val
        self.i2c.writeto(self.addr, r)

    def _scale(self, hi):
        # hi: 0 for big-endian samples (MPU), 1 for little-endian (LIS3DH).
        b = self._buf
        m = self._mul
        lo = 1 - hi
        v = (b[hi] << 8) | b[lo]
        self.x = ((v - 65536 if v & 0x8000 else v) * m) >> 10
        v = (b[hi + 2] << 8) | b[lo + 2]
        self.y = ((v - 65536 if v & 0x8000 else v) * m) >> 10
        v = (b[hi + 4] << 8) | b[lo + 4]
        self.z = ((v - 65536 if v & 0x8000 else v) * m) >> 10
