# portable: runs under MicroPython too
"""power.py idle levels and battery logic; the crash log (crashlog.py), the restart marks
(guard.py) and the crash path (guard_fail.py)."""
import os

from system import crashlog
from system import guard
from system import guard_fail
from system import power_battery
from system import power_sleep
from system import store
from checks import tmpdir
from system.power import AWAKE, DEEP, DIM, OFF, Power


def _settings(dim=3, off=2, sleep=10):
    s = bytearray(store.SETTINGS_DEFAULT)
    s[store.S_DIM] = dim
    s[store.S_OFF] = off
    s[store.S_SLEEP] = sleep
    return s


def test_default_settings_match_the_issue():
    p = Power(bytearray(store.SETTINGS_DEFAULT))
    assert (p.dim_ms, p.off_ms, p.sleep_ms) == (30000, 120000, 600000)


def test_levels_follow_idle_time():
    p = Power(_settings(), now_ms=1000)
    assert p.level(1000) == AWAKE
    assert p.level(1000 + 29999) == AWAKE
    assert p.level(1000 + 30000) == DIM
    assert p.level(1000 + 119999) == DIM
    assert p.level(1000 + 120000) == OFF
    assert p.level(1000 + 599999) == OFF
    assert p.level(1000 + 600000) == DEEP


def test_activity_wakes_and_reports_previous_level():
    p = Power(_settings(), now_ms=0)
    assert p.activity(5000) == AWAKE
    assert p.level(5000 + 30000) == DIM
    assert p.activity(5000 + 30000) == DIM
    assert p.level(5000 + 30000 + 1) == AWAKE
    assert p.activity(200000 + 35000) == OFF   # an event that only woke the display
    assert p.level(235001) == AWAKE


def test_zero_means_never():
    p = Power(_settings(dim=0, off=0, sleep=0), now_ms=0)
    assert p.level(10 ** 8) == AWAKE
    p.configure(_settings(dim=0, off=0, sleep=1))
    assert p.level(59999) == AWAKE
    assert p.level(60000) == DEEP


def test_configure_changes_thresholds():
    p = Power(_settings(), now_ms=0)
    p.configure(_settings(dim=1, off=1, sleep=2))
    assert p.level(10000) == DIM
    assert p.level(60000) == OFF
    assert p.level(120000) == DEEP


def test_clock_going_backwards_is_not_idle():
    p = Power(_settings(), now_ms=50000)
    assert p.level(40000) == AWAKE


class _Panel:
    def __init__(self):
        self.log = []
        self.fail = False

    def contrast(self, c):
        if self.fail:
            raise OSError(19)
        self.log.append(("contrast", c))

    def sleep(self, on):
        if self.fail:
            raise OSError(19)
        self.log.append(("sleep", on))


def test_drive_display_sends_only_changes():
    p = Power(_settings(), now_ms=0)
    d = _Panel()
    assert not p.drive_display(d, AWAKE, 207)
    assert p.drive_display(d, DIM, 207)
    assert not p.drive_display(d, DIM, 207)
    assert p.drive_display(d, OFF, 207)
    assert p.drive_display(d, AWAKE, 207)
    assert d.log == [("contrast", 8), ("sleep", True), ("sleep", False), ("contrast", 207)]


def test_drive_display_survives_dead_panel():
    p = Power(_settings(), now_ms=0)
    d = _Panel()
    d.fail = True
    assert not p.drive_display(d, DIM, 207)
    d.fail = False
    assert p.drive_display(d, DIM, 207)  # retried once the panel answers again


def test_mv_to_percent_curve():
    assert power_battery.mv_to_percent(4300) == 100
    assert power_battery.mv_to_percent(4200) == 100
    assert power_battery.mv_to_percent(4150) == 95
    assert power_battery.mv_to_percent(3800) == 40
    assert power_battery.mv_to_percent(3650) == 9  # halfway between 12 and 5, rounded
    assert power_battery.mv_to_percent(3300) == 0
    assert power_battery.mv_to_percent(2500) == 0
    last = 101
    for mv in range(4250, 3000, -10):  # never rises as the voltage falls
        pc = power_battery.mv_to_percent(mv)
        assert 0 <= pc <= last
        last = pc


class _Adc:
    def __init__(self, uv):
        self.uv = uv

    def read_uv(self):
        return self.uv


class _Adc16:
    def __init__(self, raw):
        self.raw = raw

    def read_u16(self):
        return self.raw


def test_adc_to_mv_with_divider():
    assert power_battery.adc_to_mv(_Adc(2000000), 2) == 4000
    assert power_battery.adc_to_mv(_Adc16(65535), 2) == 6600
    assert abs(power_battery.adc_to_mv(_Adc16(39718), 2) - 4000) <= 1


def test_battery_low_flag_with_hysteresis():
    adc = _Adc(2000000)           # 4.0 V cell through a 1:2 divider
    b = power_battery.Battery(adc, ratio=2, period_ms=1000)
    assert b.pct == 78 and not b.low
    adc.uv = 1800000              # 3.6 V: 5 %
    went_low = []
    t = 0
    for _ in range(30):          # smoothing: takes a few samples to settle
        t += 1000
        if b.update(t):
            went_low.append(t)
    assert b.low and len(went_low) == 1
    assert b.pct <= 10
    adc.uv = 1835000              # 3.67 V: ~10 %: still low (hysteresis)
    for _ in range(30):
        t += 1000
        assert not b.update(t)
    assert b.low
    adc.uv = 1900000              # charger: 3.8 V
    for _ in range(30):
        t += 1000
        b.update(t)
    assert not b.low and b.pct >= 35


def test_battery_samples_only_when_due():
    class Counting(_Adc):
        n = 0

        def read_uv(self):
            self.n += 1
            return self.uv

    adc = Counting(2000000)
    b = power_battery.Battery(adc, ratio=2, period_ms=10000)
    n0 = adc.n
    b.update(0)
    n1 = adc.n
    assert n1 > n0
    for t in range(16, 9999, 16):   # every frame for 10 s
        b.update(t)
    assert adc.n == n1
    b.update(10000)
    assert adc.n > n1


def test_wake_pin_prefers_rtc_capable():
    assert power_sleep.wake_pin((22, 5, 27, 0), "esp32") == 27
    assert power_sleep.wake_pin((None, 23), "esp32") is None
    assert power_sleep.wake_pin((40, 3), "esp32s3") == 3
    assert power_sleep.wake_pin((5,), "host") == 5


def _fresh():
    return tmpdir("guard")


def _rmtree(root):
    for n in os.listdir(root):
        os.remove(root + "/" + n)
    os.rmdir(root)


def _boom(n):
    if n == 0:
        raise ValueError("boom at the bottom")
    _boom(n - 1)


def test_crash_log_writes_traceback_and_code():
    root = _fresh()
    try:
        _boom(3)
    except ValueError as e:
        code = crashlog.crash_log(root, e)
    assert code.startswith("E") and len(code) == 5
    f = open(root + "/crash.log")
    text = f.read()
    f.close()
    assert text.startswith(code + "\n")
    assert "boom at the bottom" in text and "_boom" in text
    try:
        _boom(1)
    except ValueError as e:
        code2 = crashlog.crash_log(root, e)
    assert code2 != code        # another traceback, another code
    assert sorted(os.listdir(root)) == ["crash.log", "crash.old"]
    _rmtree(root)


def test_restart_marks_resume_then_give_up():
    root = _fresh()
    assert guard.boot(root) is False        # a plain power-on: the menu
    for i in range(guard.MAX_TRIES):
        assert guard.mark_restart(root) == i + 1   # crashes quickly after each boot
        assert guard.boot(root) is True            # -> Continue
    guard.mark_restart(root)
    assert guard.boot(root) == guard.ASK    # crashed on each resume: the player asked
    assert os.listdir(root) == []           # (no watch mark until a TRY AGAIN)
    assert guard.boot(root) is False
    _rmtree(root)


class _Fb:
    def __init__(self):
        self.texts = []

    def fill(self, c):
        self.texts = []

    def rect(self, *a):
        pass

    def text(self, s, x, y, c):
        self.texts.append(s)


class _Disp:
    def __init__(self):
        self.fb = _Fb()
        self.shown = 0

    def show(self):
        self.shown += 1


def test_crashed_logs_marks_and_shows_code():
    root = _fresh()
    d = _Disp()
    guard.boot(root)
    try:
        _boom(0)
    except ValueError as e:
        code = guard_fail.crashed(e, root, d, wait_ms=0, reset=False)
    assert d.shown == 1 and code in d.fb.texts and "Restarting..." in d.fb.texts
    assert sorted(os.listdir(root)) == ["crash.log", "restart.dat"]
    assert guard.boot(root) is True
    _rmtree(root)


def test_crashed_survives_missing_display_and_folder():
    try:
        _boom(0)
    except ValueError as e:
        code = guard_fail.crashed(e, "/nonexistent_dir_pd/x", None, wait_ms=0, reset=False)
    assert code.startswith("E")


class _Dead(_Panel):
    """A panel that stopped answering (display.ok False) until `back`."""

    def __init__(self):
        _Panel.__init__(self)
        self.ok = False
        self.back = False
        self.inits = 0
        self.shows = 0

    def init(self):
        self.inits += 1
        self.ok = self.back
        return self.ok

    def show(self):
        self.shows += 1


def test_drive_display_revives_a_dead_panel_once_a_second():
    p = Power(_settings(), now_ms=0)
    d = _Dead()
    for t in range(0, 3000, 33):     # frames while the panel is gone
        lv = p.level(t)
        p.drive_display(d, lv, 207)
    assert d.inits == 3 and d.shows == 0
    d.back = True
    t = 3000
    while not d.ok:
        t += 33
        p.drive_display(d, p.level(t), 207)
    assert t <= 4000 and d.shows == 1 and p.revived == 1
    assert d.log == [("contrast", 207)]   # settings sent again after the re-init
    n = d.inits
    for t in range(t, t + 3000, 33):
        p.drive_display(d, p.level(t), 207)
    assert d.inits == n and d.shows == 1


class _HalBattery:
    """hal.devices.Battery's interface: millivolts() of the cell."""

    def __init__(self, mv):
        self.mv = mv

    def millivolts(self):
        return self.mv


def test_battery_over_the_boards_battery():
    hb = _HalBattery(3900)
    b = power_battery.Battery(hb, period_ms=1000)
    assert b.pct == 62 and not b.low
    hb.mv = 3550
    t = 0
    lows = 0
    for _ in range(40):
        t += 1000
        lows += b.update(t)
    assert b.low and lows == 1 and b.pct <= 5


def test_crash_loop_stops_resetting():
    root = _fresh()
    d = _Disp()
    n = 0
    resets = []
    while n < 20:
        guard.boot(root)
        try:
            _boom(0)
        except ValueError as e:
            code = guard_fail.crashed(e, root, d, wait_ms=0, reset=False)
        n += 1
        if "Stopped" in d.fb.texts:
            break
        resets.append(n)
    assert resets == list(range(1, guard.GIVE_UP + 1)) and code in d.fb.texts
    _rmtree(root)


def test_every_board_has_a_button_that_wakes_it():
    import sys
    sys.path.insert(0, "boards")
    try:
        for name in ("esp32_devkit", "heltec_wifi_kit_32_v2", "heltec_wifi_kit_32_v3",
                     "lolin32_oled"):
            b = __import__(name)
            pins = []
            for k in ("OK", "PREV", "NEXT", "BACK"):
                v = b.BUTTONS.get(k)
                pins.append(v[0] if v else None)
            assert power_sleep.wake_pin(pins, b.CHIP) is not None, name
    finally:
        sys.path.pop(0)
