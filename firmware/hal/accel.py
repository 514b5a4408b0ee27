"""What the accelerometer drivers share (hal.mpu6050, hal.lis3dh): setup, register
writes, and three signed 16-bit samples turned into 1/256 g."""


try:
    from micropython import const
except ImportError:
    def const(x):
        return x

_TYPES = const(0)  # the attributes' types, for pyright (on the device "if 0:" is no code)
if _TYPES:
    from machine import I2C


class Accel:
    # Set by hal.setup.accel (annotations only: no code, no heap on the device).
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
    _ADDR = 0
    _MUL4 = 32  # (raw * mul) >> 10 = 1/256 g at +-4 g; twice that at +-8 g

    def __init__(self, *args, **kw):
        # The body is boot-only code (hal.setup, dropped after boot).
        from hal.setup import accel
        accel(self, *args, **kw)

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
