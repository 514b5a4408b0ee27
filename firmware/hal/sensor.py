"""open_sensor(): boot-only code (the app forgets it once the devices are built), so only the configured
sensor's driver module is ever loaded."""


def open_sensor(i2c, cfg):
    """The sensor a profile's SHAKE dict describes, or None (not configured, or it does
    not answer / is not that chip)."""
    if not cfg or cfg.get("type") is None:
        return None
    kind = cfg["type"]
    if kind in ("mpu6050", "mpu6886", "lis3dh"):
        rng = cfg.get("range", 8)
        if rng not in (4, 8):
            raise ValueError("accelerometer range must be 4 or 8 (g), not %r" % (rng,))
        try:
            if kind == "lis3dh":
                from hal.lis3dh import LIS3DH
                return LIS3DH(i2c, cfg.get("addr", 0x18), rng)
            from hal.mpu6050 import MPU6050
            return MPU6050(i2c, cfg.get("addr", 0x68), rng)
        except (OSError, ValueError):
            return None
    if kind == "switch":
        from machine import Pin

        from hal.switch import Switch
        pull = Pin.PULL_UP if cfg.get("pull", "internal") == "internal" else None
        return Switch(Pin(cfg["pin"], Pin.IN, pull))
    raise ValueError("unknown shake sensor type %r" % (kind,))
