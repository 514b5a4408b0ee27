# portable: runs under MicroPython too
"""Shake sensors against the MPU6050 / LIS3DH register models, the vibration switch on a
simulated pin, and the detector on motion traces."""
import accel_model as am
from hal_rig import SIM, board, events, i2c, no_alloc

import machine
from hal.events import SHAKE_END, SHAKE_START, Queue
from hal.lis3dh import LIS3DH
from hal.mpu6050 import MPU6050
from hal.wiring import open_sensor
from hal.shake import Shaker
from hal.switch import Switch
from shake_trace import _lcg_trace

_PERIOD = 20


def _accel(kind="mpu6050", addr=0x68, rng=8):
    board("sim", SHAKE={"type": kind, "addr": addr, "pin": None, "sensitivity": 3})
    return open_sensor(i2c(), {"type": kind, "addr": addr, "range": rng})


def _run(sensor, trace, sens=3, period=_PERIOD):
    """Play a trace through a Shaker sampling every `period` ms: [(t, event)]."""
    q = Queue()
    sh = Shaker(sensor, q, sensitivity=sens, period_ms=period)
    SIM.play(trace)
    t = 0
    out = []
    limit = len(trace) * period * 4  # a sensor that stops sampling fails, not hangs
    while SIM.motion.busy():
        assert t <= limit, "the sensor stopped taking samples"
        sh.poll(t)
        out += [(t, e) for e in events(q)]
        t += period
    return out


def _polls(sh, t, n):
    """Polls the shaker n times, 20 ms apart from t; the time after the last."""
    for _ in range(n):
        sh.poll(t)
        t += 20
    return t


def _until_shaking(sh, t):
    """Polls the shaker 20 ms apart from t until it reports a shake; the time after."""
    while not sh.shaking:
        sh.poll(t)
        t += 20
    return t


def test_mpu6050_is_woken_and_scaled():
    for rng in (4, 8):
        s = _accel(rng=rng)
        m = SIM.accel
        assert isinstance(s, MPU6050)
        assert not m.asleep and m.range_g == rng
        assert m.regs[0x6C] & 0x07 == 0x07          # gyro in standby
        SIM.play([(0, 2000, -1000), (500, -250, 1000)])
        s.read()
        assert (s.x, s.y, s.z) == (0, 512, -256)
        s.read()
        assert abs(s.x - 128) <= 1 and abs(s.y + 64) <= 1 and abs(s.z - 256) <= 1


def test_asleep_mpu_reports_nothing():
    # The model keeps its data registers at 0 while SLEEP is set: a driver that did not
    # wake it would see no gravity at all.
    board("sim")
    bus = i2c()
    assert SIM.accel.asleep
    assert bus.readfrom_mem(0x68, 0x3B, 6) == bytes(6)
    s = MPU6050(bus)
    s.read()
    assert 240 <= s.z <= 270


def test_mpu6886_and_clone_ids():
    s = _accel("mpu6886")
    assert s is not None and s.who == 0x19 and SIM.accel.regs[0x1D] == 0x03


def test_lis3dh_power_up_auto_increment_and_scaling():
    for rng in (4, 8):
        s = _accel("lis3dh", 0x18, rng)
        m = SIM.accel
        assert isinstance(s, LIS3DH) and not m.asleep and m.range_g == rng
        assert m.regs[0x23] & 0x88 == 0x88          # block data update, high resolution
        SIM.play([(1000, -500, 2000)])
        s.read()
        # Six different registers were read (bit 7 auto-increment), scaled to 1/256 g.
        assert abs(s.x - 256) <= 3 and abs(s.y + 128) <= 3 and abs(s.z - 512) <= 5


def test_open_sensor_none_when_absent_or_wrong_chip():
    board("sim")
    bus = i2c()
    SIM.fail(0x68)
    assert open_sensor(bus, {"type": "mpu6050", "addr": 0x68}) is None
    # The OLED answers at 0x3C but is no accelerometer.
    assert open_sensor(bus, {"type": "mpu6050", "addr": 0x3C}) is None
    assert open_sensor(bus, {"type": "lis3dh", "addr": 0x19}) is None
    assert open_sensor(bus, {"type": None}) is None and open_sensor(bus, None) is None
    for bad in ({"type": "adxl345"}, {"type": "mpu6050", "range": 2}):
        try:
            open_sensor(bus, bad)
            raise AssertionError("accepted %r" % (bad,))
        except ValueError:
            pass


def test_a_real_shake_starts_and_ends_once():
    for kind, addr in (("mpu6050", 0x68), ("lis3dh", 0x18)):
        s = _accel(kind, addr)
        got = _run(s, am.shake(ms=1000))
        assert [e for (t, e) in got] == [SHAKE_START, SHAKE_END], (kind, got)
        start, end = got[0][0], got[1][0]
        # The shake runs from 200 ms to 1200 ms in the trace.
        assert 200 < start <= 450 and 1200 <= end <= 1500, got


def test_bump_knock_tilt_and_walking_do_not_roll():
    s = _accel()
    for name in ("bump", "knock", "tilt", "walk"):
        for sens in (1, 3, 5):
            got = _run(s, getattr(am, name)(), sens)
            assert got == [], (name, sens, got)


def test_sensitivity_sets_how_hard_to_shake():
    s = _accel()
    gentle = am.shake(amp=1100)
    assert _run(s, gentle, 1) == []
    assert [e for (t, e) in _run(s, gentle, 5)] == [SHAKE_START, SHAKE_END]
    firm = am.shake(amp=2500)
    for sens in (1, 2, 3, 4, 5):
        assert len(_run(s, firm, sens)) == 2
    q = Queue()
    sh = Shaker(s, q)
    try:
        sh.sensitivity = 6
        raise AssertionError("sensitivity 6 accepted")
    except ValueError:
        pass


def test_a_30fps_frame_rate_still_detects():
    s = _accel()
    got = _run(s, am.shake(ms=1000), 3, period=33)
    assert [e for (t, e) in got] == [SHAKE_START, SHAKE_END]


def test_sim_shake_switch_on_and_off():
    s = _accel()
    q = Queue()
    sh = Shaker(s, q)
    t = 0
    SIM.shake(True)
    t = _polls(sh, t, 40)
    assert events(q) == [SHAKE_START] and sh.shaking
    SIM.shake(False)
    t = _polls(sh, t, 40)
    assert events(q) == [SHAKE_END] and not sh.shaking


def test_samples_at_a_fixed_rate():
    s = _accel()
    sh = Shaker(s, Queue(), period_ms=20)
    before = SIM.accel.samples
    for t in range(0, 1000, 5):        # polled at 200 Hz
        sh.poll(t)
    assert SIM.accel.samples - before == 50


def test_cooldown_after_a_roll():
    s = _accel()
    q = Queue()
    sh = Shaker(s, q, cooldown_ms=800)
    SIM.shake(True)
    t = _until_shaking(sh, 0)
    events(q)
    sh.cooldown(t)                      # the app rolled (e.g. OK pressed mid-shake)
    assert events(q) == [SHAKE_END] and not sh.shaking
    end = t + 800
    while t < end:
        sh.poll(t)
        t += 20
    assert events(q) == []             # still shaking, but ignored during the cooldown
    t = _polls(sh, t, 20)
    assert events(q) == [SHAKE_START]  # and counted again afterwards
    SIM.shake(False)


def test_sensor_lost_then_back():
    s = _accel()
    q = Queue()
    sh = Shaker(s, q)
    SIM.shake(True)
    t = _until_shaking(sh, 0)
    events(q)
    SIM.fail(0x68, True, 110)
    t = _polls(sh, t, 3)
    assert sh.failed and events(q) == [SHAKE_END]
    t = _polls(sh, t, 200)
    assert sh.failed and events(q) == []
    SIM.fail(0x68, False)
    SIM.accel.reset()                   # it lost power: asleep again
    t = _polls(sh, t, 120)
    assert not sh.failed and not SIM.accel.asleep
    assert events(q) == [SHAKE_START]   # still being shaken
    SIM.shake(False)


def _switch(pin=4):
    board("sim", SHAKE={"type": "switch", "addr": None, "pin": pin, "pull": "internal"})
    s = open_sensor(None, SIM.profile.SHAKE)
    assert isinstance(s, Switch)
    return s, SIM.pin(pin)


def test_switch_counts_edges_and_never_trusts_its_level():
    s, pin = _switch()
    q = Queue()
    sh = Shaker(s, q)
    t = 0
    # Stuck closed (or open) for seconds: no shake.
    pin.drive(0)
    t = _polls(sh, t, 200)
    pin.drive(None)
    t = _polls(sh, t, 100)
    assert events(q) == []
    # One slow tilt: a burst of contact bounce in one sample.
    for i in range(9):
        pin.drive(0 if i % 2 == 0 else None)
    t = _polls(sh, t, 50)
    assert events(q) == []
    # Shaken: the contact closes and opens ~6 times a second, bouncing each time.
    lvl = 0
    for k in range(60):
        if k % 4 == 0:
            for _ in range(3):
                pin.drive(0 if lvl else None)
                lvl ^= 1
        sh.poll(t)
        t += 20
    t = _polls(sh, t, 60)
    assert events(q) == [SHAKE_START, SHAKE_END]


def test_switch_chatter_from_sim_shake():
    s, pin = _switch(13)
    q = Queue()
    sh = Shaker(s, q)
    SIM.shake(True)
    t = 0
    t = _polls(sh, t, 50)
    SIM.shake(False)
    t = _polls(sh, t, 50)
    assert events(q) == [SHAKE_START, SHAKE_END]


class _FakeAccel:
    """Samples from a preallocated table (no bus): isolates the detector's allocations."""
    edges_only = False

    def __init__(self):
        self.k = 0
        self.x = self.y = 0
        self.z = 256
        self.tab = (0, 600, 0, -600)

    def init(self):
        pass

    def read(self):
        self.k = (self.k + 1) & 3
        self.y = self.tab[self.k]


def test_poll_allocates_nothing():
    q = Queue()
    sh = Shaker(_FakeAccel(), q)
    for t in range(0, 2000, 20):
        no_alloc(sh.poll, t)
    assert sh.shaking and q.buf[0] == SHAKE_START
    no_alloc(sh.cooldown, 2000)


def test_switch_irq_and_read_allocate_nothing():
    s, pin = _switch()
    sh = Shaker(s, Queue())
    for t in range(0, 400, 20):
        pin.drive(0 if (t // 20) % 2 else None)
        no_alloc(sh.poll, t)
    assert sh.samples == 20


def test_pin_mode_of_the_switch():
    s, pin = _switch()
    assert pin.pull == machine.Pin.PULL_UP and pin.mode == machine.Pin.IN


# ---- issue 17 item 11: a stuck, frozen or garbage sensor never rolls by itself ------


def _faulty(trace, kind="mpu6050", rng=8, sens=3):
    """Plays a trace; (events, whether the detector said `failed` at some point)."""
    s = _accel(kind, 0x68 if kind != "lis3dh" else 0x18, rng)
    q = Queue()
    sh = Shaker(s, q, sensitivity=sens)
    SIM.play(trace)
    t = 0
    seen = []
    failed = False
    while SIM.motion.busy():
        sh.poll(t)
        seen += events(q)
        failed = failed or sh.failed
        t += 20
    return seen, failed


def test_item11_frozen_sensor_is_a_fault_and_never_rolls():
    # The registers stop updating: the same sample again and again, 30 s of it, at a
    # value off gravity (which rolled 2-3 times per 30 s) and at gravity itself.
    for sample in ((1500, 200, 900), (0, 0, 1000), (-3, -3, -3)):
        for kind in ("mpu6050", "lis3dh"):
            seen, failed = _faulty([sample] * 1500, kind)
            assert SHAKE_START not in seen, (sample, kind)
            assert failed, (sample, kind)


def test_item11_steady_reading_off_gravity_is_a_fault():
    # Noisy, but a steady 3 g (a stuck axis): nothing at rest reads that for long.
    n = am._Noise(5, 10)
    trace = [(3000 + n(), n(), 1000 + n()) for _ in range(1500)]
    seen, failed = _faulty(trace)
    assert SHAKE_START not in seen and failed


def test_item11_garbage_sensor_is_a_fault_and_never_rolls():
    for kind, rng in (("mpu6050", 8), ("mpu6050", 4), ("lis3dh", 8)):
        for sens in (1, 3, 5):
            seen, failed = _faulty(_lcg_trace(30000, 7 + sens, -8000, 8000), kind, rng, sens)
            assert SHAKE_START not in seen, (kind, rng, sens)
            assert failed, (kind, rng, sens)


def test_item11_a_good_sensor_is_trusted_again_after_a_fault():
    # Frozen, then alive again: after a quiet second of real readings, shakes roll.
    s = _accel()
    q = Queue()
    sh = Shaker(s, q)
    SIM.play([(1500, 200, 900)] * 100)
    t = 0
    while SIM.motion.busy():
        sh.poll(t)
        t += 20
    assert sh.failed or sh._trust
    events(q)
    t = _polls(sh, t, 250)              # at rest, noisy: re-initialised and trusted
    assert not sh.failed and events(q) == []
    SIM.shake(True)
    t = _polls(sh, t, 60)
    SIM.shake(False)
    assert SHAKE_START in events(q)


def test_real_motion_is_never_a_sensor_fault():
    # Shakes, bumps, knocks, tilts and walking, 10 s of rest: never a fault.
    s = _accel()
    q = Queue()
    sh = Shaker(s, q)
    t = 0
    for trace in (am.shake(), am.bump(), am.knock(), am.tilt(), am.walk(), am.shake(3000),
                  am.rest(10000)):
        SIM.play(trace)
        while SIM.motion.busy():
            sh.poll(t)
            assert not sh.failed
            t += 20
    assert SHAKE_START in events(q)
