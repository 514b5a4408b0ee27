"""LIS3DH accelerometer driver (see hal.shake); loaded only on boards that have one. It
shares the MPU6050 driver's setup, register writes and sample scaling."""
from hal.mpu6050 import MPU6050


class LIS3DH(MPU6050):
    _ADDR = 0x18
    # High-resolution left-justified 16-bit: 8000 (4 g) / 4000 (8 g) per g.
    _MUL4 = 33

    def init(self):
        who = self.i2c.readfrom_mem(self.addr, 0x0F, 1)[0]
        if who != 0x33:
            raise ValueError("0x%02X is not a LIS3DH (WHO_AM_I 0x%02X)" % (self.addr, who))
        self.who = who
        self._set(0x20, 0x57)       # CTRL_REG1: 100 Hz, normal power, X/Y/Z on
        fs = 1 if self.range_g == 4 else 2
        self._set(0x23, 0x80 | (fs << 4) | 0x08)  # CTRL_REG4: BDU, full scale, HR

    def read(self):
        # Bit 7 of the register address: auto-increment over the six bytes.
        self.i2c.readfrom_mem_into(self.addr, 0x28 | 0x80, self._buf)
        self._scale(1)
