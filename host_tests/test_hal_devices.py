# portable: runs under MicroPython too
"""Devices built from every board profile on the simulated board."""
from hal_rig import SIM, board, events

from hal.devices import Devices
from hal.events import OK, PRESS, SHAKE_START

_BOARDS = ("sim", "esp32_devkit", "heltec_wifi_kit_32_v2", "heltec_wifi_kit_32_v3",
           "lolin32_oled")


def test_every_profile_builds_and_shows():
    for name in _BOARDS:
        p = board(name)
        d = Devices(p)
        assert d.display.ok and d.shaker is not None and not d.sensor_missing, name
        d.display.fb.fill_rect(0, 0, 30, 10, 1)
        d.display.show()
        assert SIM.oled.frame() == bytes(d.display.buf), name
        assert d.buttons.three == ("BACK" not in p.BUTTONS)
        assert not SIM.pwm.sounding()
        assert len(d.source(4)) == 4
        assert d.battery is None


def test_poll_feeds_the_queue():
    d = Devices(board("sim"))
    d.poll(0)
    SIM.press("OK")
    SIM.shake(True)
    t = 20
    got = []
    while t < 600:
        d.poll(t)
        got += events(d.queue)
        t += 20
    SIM.shake(False)
    assert got[0] == PRESS | OK and SHAKE_START in got


def test_sensor_missing_falls_back():
    SIM.configure("sim")
    SIM.fail(0x68)
    d = Devices(SIM.profile)
    assert d.shaker is None and d.sensor_missing
    d.poll(0)  # no shaker: still fine


def test_no_sensor_configured_is_not_missing():
    d = Devices(board("sim", SHAKE={"type": None, "addr": None, "pin": None}))
    assert d.shaker is None and not d.sensor_missing


def test_display_found_at_the_other_address():
    board("sim", DISPLAY={"type": "ssd1306", "width": 128, "height": 64, "addr": 0x3D,
                          "reset": None, "power": None, "rotate": 0})
    p = dict((k, getattr(SIM.profile, k)) for k in dir(SIM.profile) if k[:1] != "_")
    p["DISPLAY"] = dict(p["DISPLAY"])
    p["DISPLAY"]["addr"] = 0x3C           # the profile is wrong about SA0
    d = Devices(p)
    assert d.display.ok and d.display.addr == 0x3D


def test_missing_display_is_a_clear_error():
    SIM.configure("sim")
    SIM.fail(0x3C)
    try:
        Devices(SIM.profile)
        raise AssertionError("no error")
    except RuntimeError as e:
        msg = str(e)
        assert "0x3C" in msg and "SDA 21" in msg and "0x68" in msg


def test_heltec_v3_powers_the_panel_through_vext():
    d = Devices(board("heltec_wifi_kit_32_v3"))
    assert SIM.pin(36).level() == 0 and SIM.pin(21).level() == 1 and d.display.ok


def test_battery_percent():
    bat = {"pin": 35, "divider_x100": 200, "empty_mv": 3300, "full_mv": 4100}
    d = Devices(board("sim", BATTERY=bat))
    SIM.adc_uv[35] = 1850000             # 3.7 V behind a 1:1 divider
    assert d.battery.millivolts() == 3700 and d.battery.percent() == 50
    SIM.adc_uv[35] = 2200000
    assert d.battery.percent() == 100
    SIM.adc_uv[35] = 1000000
    assert d.battery.percent() == 0


def test_battery_divider_switch():
    bat = {"pin": 1, "ctrl": 37, "ctrl_level": 0, "divider_x100": 490}
    d = Devices(board("sim", BATTERY=bat))
    assert SIM.pin(37).level() == 1          # divider off between reads
    seen = []
    SIM.pin(37).watchers.append(lambda st, old, new: seen.append(new))
    SIM.adc_uv[1] = 800000
    assert d.battery.millivolts() == 3920
    assert seen == [0, 1]
