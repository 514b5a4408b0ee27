"""Vibration / tilt switch "sensor" (see hal.shake); loaded only on boards that have one."""


class Switch:
    edges_only = True

    def __init__(self, pin):
        self.pin = pin
        self._cnt = bytearray(1)
        self._last = pin.value()
        self.edges = 0
        cnt = self._cnt

        def edge(p):  # IRQ: count, saturating, nothing more
            if cnt[0] < 255:
                cnt[0] += 1
        pin.irq(handler=edge, trigger=pin.IRQ_FALLING | pin.IRQ_RISING)

    def init(self):
        self._cnt[0] = 0

    def read(self):
        n = self._cnt[0]
        self._cnt[0] = 0
        lv = self.pin.value()
        if n == 0 and lv != self._last:
            n = 1  # a change the IRQ missed still is a change
        self._last = lv
        self.edges = n
