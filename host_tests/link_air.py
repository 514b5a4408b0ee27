"""An in-process air for link tests: radios with link.radio.Radio's four methods and a
lossy, duplicating, reordering, delaying medium on a clock the test steps."""
from core.seeded import Seeded

BROADCAST = b"\xff" * 6


class Air:
    def __init__(self, loss=0, dup=0, reorder=0, delay=5, jitter=20, seed=1):
        self.loss, self.dup, self.reorder = loss, dup, reorder
        self.delay, self.jitter = delay, jitter
        self.rnd = Seeded(seed)
        self.radios = []
        self.now = 0
        self.bytes = 0
        self.frames = 0

    def pct(self):
        return self.rnd(1)[0] * 100 // 256

    def radio(self):
        r = MemRadio(self, bytes((2, 0, 0, 0, 0, len(self.radios))))
        self.radios.append(r)
        return r

    def carry(self, src, mac, frame):
        self.bytes += len(frame)
        self.frames += 1
        for r in self.radios:
            if r is src or not r.on or (mac != BROADCAST and mac != r.mac):
                continue
            if self.pct() < self.loss:
                continue
            for _ in range(2 if self.pct() < self.dup else 1):
                t = self.now + self.delay + self.pct() * self.jitter // 100
                if self.pct() < self.reorder:
                    t += 2 * self.jitter + 40
                r.q.append((t, src.mac, bytes(frame)))


class MemRadio:
    def __init__(self, air, mac):
        self.air = air
        self.mac = mac
        self.q = []
        self.on = True
        self.sent = 0

    def send(self, mac, frame):
        if self.on:
            self.sent += len(frame)
            self.air.carry(self, mac, frame)

    def recv(self):
        now = self.air.now
        best = -1
        for i in range(len(self.q)):
            if self.q[i][0] <= now and (best < 0 or self.q[i][0] < self.q[best][0]):
                best = i
        if best < 0:
            return None, None
        _, mac, f = self.q.pop(best)
        return mac, f

    def forget(self, mac):
        pass

    def close(self):
        self.on = False
        self.q = []
