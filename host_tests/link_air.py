"""An in-process air for link tests and tools/bench/bench_link.py: radios with
link.radio.Radio's four methods and a lossy, duplicating, reordering, delaying medium
on a clock the test steps; and Table, a host and its guests on it, each seat played by
core.cpu_live through its own handheld's session."""
from core.cpu_live import choose
from core.frenzy import PH_COMMON, PH_OVER, ROLLING
from core.seeded import Seeded
from link.guest import Guest
from link.host import Host

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


class Table:
    """A host (seat 0) and guests, each player played by core.cpu_live through its own
    handheld (the host's locally, the guests' through requests)."""

    def __init__(self, guests=1, cpus=0, seed=1, **air):
        self.air = Air(seed=seed, **air)
        self.host = Host(self.air.radio(), Seeded(seed))
        self.guests = [Guest(self.air.radio(), Seeded(seed * 10 + i)) for i in range(guests)]
        self.rng = Seeded(seed + 99)
        self.cpus = cpus
        self.next_at = 0

    def tick(self, ms=33):
        self.air.now += ms
        now = self.air.now
        self.host.poll(now)
        for g in self.guests:
            if g is not None:
                g.poll(now)

    def seat_all(self, limit=60000):
        while self.air.now < limit:
            self.tick()
            for g in self.guests:
                if g.state == 0 and g.hosts and g.hosts[0][5] is not None:
                    g.join(0)
                elif g.state == 3:  # the pairing's code, the same on both: OK on both
                    a = self.host.pending
                    assert a is not None and a[3] == g.code, (a, g.code)
                    g.confirm()
                    self.host.confirm(True)
            if all(g.state == 2 for g in self.guests) and \
                    self.host.players() == len(self.guests) + 1:
                break
        for _ in range(self.cpus):
            assert self.host.add_cpu()
        self.host.start()

    def play(self, limit=3000000, each=None):
        while self.air.now < limit:
            self.tick()
            if each is not None:
                each(self)
            h = self.host  # (a restart makes a new one)
            lv = h.live
            if lv.g.phase == PH_OVER:
                if all(g is None or (g.live is not None and g.live.g.phase == PH_OVER)
                       for g in self.guests):
                    return
                continue
            if lv.g.phase == PH_COMMON:
                if self.air.now >= self.next_at:
                    h.next_round()
                continue
            self.next_at = self.air.now + 300
            if lv.st[0] == ROLLING:
                d = choose(lv, 0, self.rng)
                if d is not None:
                    h.local(d)
            for g in self.guests:
                if g is None or g.live is None or g.waiting() or g.host_lost:
                    continue
                s = g.seat
                glv = g.live
                if glv.g.phase in (PH_COMMON, PH_OVER) or glv.st[s] != ROLLING:
                    continue
                d = choose(glv, s, self.rng)
                if d is not None:
                    g.ask(d)
        raise AssertionError("the game did not end")

    def check_same(self):
        h = self.host.live.g
        assert h.phase == PH_OVER and h.winner >= 0
        for g in self.guests:
            assert g.live.g.totals == h.totals
            assert g.live.g.winner == h.winner
            assert g.live.g.round == h.round
