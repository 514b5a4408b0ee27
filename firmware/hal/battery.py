"""The battery's ADC (hal.devices' `battery`): loaded only on a board whose profile
has a BATTERY."""


class Battery:
    def __init__(self, cfg):
        from machine import ADC, Pin
        self.adc = ADC(Pin(cfg["pin"]))
        try:
            self.adc.atten(ADC.ATTN_11DB)  # full range ~0.15-2.45 V (calibrated read_uv)
        except (AttributeError, ValueError):
            pass
        self.div = cfg.get("divider_x100", 200)
        self.empty = cfg.get("empty_mv", 3300)
        self.full = cfg.get("full_mv", 4150)
        c = cfg.get("ctrl")
        self.ctrl_level = cfg.get("ctrl_level", 0)
        self.ctrl = None if c is None else Pin(c, Pin.OUT, value=1 - self.ctrl_level)

    def millivolts(self):
        c = self.ctrl
        if c is not None:
            c.value(self.ctrl_level)
        try:
            uv = self.adc.read_uv()
        finally:
            if c is not None:
                c.value(1 - self.ctrl_level)
        return uv * self.div // 100000

    def percent(self):
        mv = self.millivolts()
        p = (mv - self.empty) * 100 // (self.full - self.empty)
        return 0 if p < 0 else 100 if p > 100 else p
