"""What the accelerometer drivers share (hal.mpu6050, hal.lis3dh): setup, register
writes, and three signed 16-bit samples turned into 1/256 g."""


class Accel:
    edges_only = False
    _ADDR = 0
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
