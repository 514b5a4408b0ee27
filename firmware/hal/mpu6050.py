"""MPU6050 / MPU6886 accelerometer driver (see hal.shake); loaded only on boards that
have one."""
try:
    from time import sleep_ms as _sleep_ms
except ImportError:  # CPython
    from time import sleep as _sleep

    def _sleep_ms(ms):
        _sleep(ms / 1000)

from hal.accel import Accel

# WHO_AM_I values: MPU6050 (and clones), MPU6500/9250 family, MPU6886.
_MPU_IDS = b"\x68\x98\x72\x70\x71\x73\x19"


class MPU6050(Accel):
    _ADDR = 0x68

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
