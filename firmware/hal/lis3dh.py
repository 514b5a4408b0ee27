"""LIS3DH accelerometer driver (see hal.shake); loaded only on boards that have one."""


class LIS3DH:
    edges_only = False

    def __init__(self, i2c, addr=0x18, range_g=8):
        if range_g not in (4, 8):
            raise ValueError("accelerometer range must be 4 or 8 (g), not %r" % (range_g,))
        self.i2c = i2c
        self.addr = addr
        self.range_g = range_g
        # High-resolution left-justified 16-bit: 8000 (4 g) / 4000 (8 g) per g.
        self._mul = 33 if range_g == 4 else 66
        self._buf = bytearray(6)
        self._reg = bytearray(2)
        self.who = 0
        self.x = 0
        self.y = 0
        self.z = 0
        self.init()

    def _set(self, reg, val):
        r = self._reg
        r[0] = reg
        r[1] = val
        self.i2c.writeto(self.addr, r)

    def init(self):
        who = self.i2c.readfrom_mem(self.addr, 0x0F, 1)[0]
        if who != 0x33:
            raise ValueError("0x%02X is not a LIS3DH (WHO_AM_I 0x%02X)" % (self.addr, who))
        self.who = who
        self._set(0x20, 0x57)       # CTRL_REG1: 100 Hz, normal power, X/Y/Z on
        fs = 1 if self.range_g == 4 else 2
        self._set(0x23, 0x80 | (fs << 4) | 0x08)  # CTRL_REG4: BDU, full scale, HR

    def read(self):
        b = self._buf
        self.i2c.readfrom_mem_into(self.addr, 0x28 | 0x80, b)  # bit 7: auto-increment
        m = self._mul
        v = (b[1] << 8) | b[0]
        self.x = ((v - 65536 if v & 0x8000 else v) * m) >> 10
        v = (b[3] << 8) | b[2]
        self.y = ((v - 65536 if v & 0x8000 else v) * m) >> 10
        v = (b[5] << 8) | b[4]
        self.z = ((v - 65536 if v & 0x8000 else v) * m) >> 10
