"""A battery ADC read directly by power.Battery (power.adc_to_mv): boards give the
Battery hal.devices' battery, which reads its own ADC, so this is loaded only when a
bare ADC is passed."""


def adc_to_mv(adc, ratio):
    """Cell voltage in mV from an ADC on the divided battery pin. Prefers the
    calibrated read_uv(); else read_u16() on a 0-3.3 V scale (11 dB attenuation)."""
    if hasattr(adc, "read_uv"):
        uv = adc.read_uv()
        return int(uv * ratio) // 1000
    return int(adc.read_u16() * 3300 * ratio) // 65535


class Divided:
    """An ADC behind a 1:ratio divider as a battery with millivolts()."""

    def __init__(self, adc, ratio):
        self.adc = adc
        self.ratio = ratio

    def millivolts(self):
        return adc_to_mv(self.adc, self.ratio)
