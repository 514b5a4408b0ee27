"""tools/flashing/check_board.py: every rule fires on a deliberately broken profile, naming the
pin and the reason, and the real profiles pass."""
import os
import subprocess
import sys

import check_board
from conftest import ROOT


def _devkit(**over):
    p = check_board.load(os.path.join(ROOT, "boards", "esp32_devkit.py"))
    p = {k: (dict(v) if isinstance(v, dict) else v) for k, v in p.items()}
    p.update(over)
    return p


def _s3(**over):
    p = check_board.load(os.path.join(ROOT, "boards", "heltec_wifi_kit_32_v3.py"))
    p = {k: (dict(v) if isinstance(v, dict) else v) for k, v in p.items()}
    p.update(over)
    return p


def _one(errors, *words):
    hits = [e for e in errors if all(w in e for w in words)]
    assert hits, "no message with %r in %r" % (words, errors)
    return hits[0]


def test_real_profiles_pass():
    for f in sorted(os.listdir(os.path.join(ROOT, "boards"))):
        if f.endswith(".py"):
            assert check_board.check(check_board.load(os.path.join(ROOT, "boards", f))) == [], f


def test_pin_used_twice():
    e = check_board.check(_devkit(BUZZER=32))
    _one(e, "GPIO32", "used twice", "button PREV")


def test_flash_pins():
    b = _devkit()["BUTTONS"]
    b["PREV"] = (7, "internal")
    _one(check_board.check(_devkit(BUTTONS=b)), "GPIO7", "SPI flash")
    _one(check_board.check(_s3(BUZZER=30)), "GPIO30", "SPI flash")
    assert check_board.check(_s3(BUZZER=35)) == []
    _one(check_board.check(_s3(BUZZER=35, PSRAM="octal")), "GPIO35", "octal PSRAM")


def test_input_only_pins():
    _one(check_board.check(_devkit(BUZZER=34)), "GPIO34", "input-only", "output")
    d = _devkit()
    d["DISPLAY"]["reset"] = 36
    _one(check_board.check(d), "GPIO36", "input-only")
    b = _devkit()["BUTTONS"]
    b["NEXT"] = (35, "internal")
    _one(check_board.check(_devkit(BUTTONS=b)), "GPIO35", "no internal pull-up")
    b["NEXT"] = (35, "external")                 # with a resistor on the board: fine
    assert check_board.check(_devkit(BUTTONS=b)) == []
    _one(check_board.check(_devkit(I2C={"id": 0, "sda": 39, "scl": 22})), "GPIO39", "input-only")


def test_strapping_pins_esp32():
    b = _devkit()["BUTTONS"]
    b["OK"] = (12, "external")                   # pulled high at reset: 1.8 V flash
    _one(check_board.check(_devkit(BUTTONS=b)), "GPIO12", "strapping", "1.8 V")
    b["OK"] = (12, "internal")                   # floats low at reset: safe
    assert check_board.check(_devkit(BUTTONS=b)) == []
    b["OK"] = (0, "internal")                    # held at reset: bootloader
    _one(check_board.check(_devkit(BUTTONS=b)), "GPIO0", "strapping", "bootloader")
    _one(check_board.check(_devkit(I2C={"id": 0, "sda": 12, "scl": 22})), "GPIO12", "strapping")
    _one(check_board.check(_devkit(I2C={"id": 0, "sda": 2, "scl": 22})), "GPIO2", "flashing fails")
    # I2C (pulled up) on GPIO5 / GPIO15: the onboard OLEDs' wiring, safe at any level.
    assert check_board.check(_devkit(I2C={"id": 0, "sda": 5, "scl": 15})) == []
    assert check_board.check(_devkit(BUZZER=2)) == []   # piezo: no DC level
    bat = {"pin": 2, "divider_x100": 200}
    _one(check_board.check(_devkit(BATTERY=bat)), "GPIO2", "strapping")


def test_strapping_pins_s3():
    b = _s3()["BUTTONS"]
    b["PREV"] = (45, "external")
    _one(check_board.check(_s3(BUTTONS=b)), "GPIO45", "strapping")
    b["PREV"] = (46, "external")
    _one(check_board.check(_s3(BUTTONS=b)), "GPIO46", "strapping")
    b["PREV"] = (3, "external")                  # JTAG source strap: any level
    assert check_board.check(_s3(BUTTONS=b)) == []


def test_fixed_onboard_wiring_needs_a_reason_and_a_use():
    b = _devkit()["BUTTONS"]
    b["BACK"] = (0, "external")
    _one(check_board.check(_devkit(BUTTONS=b)), "GPIO0", "strapping")
    assert check_board.check(_devkit(BUTTONS=b, FIXED={0: "onboard BOOT button"})) == []
    _one(check_board.check(_devkit(BUTTONS=b, FIXED={0: ""})), "GPIO0", "FIXED needs a reason")
    _one(check_board.check(_devkit(FIXED={14: "onboard LED"})), "GPIO14", "not used")
    # FIXED waives the strapping rule only, never the others.
    _one(check_board.check(_devkit(BUZZER=8, FIXED={8: "onboard"})), "GPIO8", "SPI flash")


def test_uart_and_missing_gpios():
    _one(check_board.check(_devkit(BUZZER=1)), "GPIO1", "UART0")
    _one(check_board.check(_devkit(BUZZER=20)), "GPIO20", "has no GPIO20")
    _one(check_board.check(_s3(BUZZER=43)), "GPIO43", "UART0")


def test_i2c_addresses():
    sh = dict(_devkit()["SHAKE"], addr=0x3C)
    e = check_board.check(_devkit(SHAKE=sh))
    _one(e, "0x3C", "two devices on one address")
    _one(e, "0x3C", "answers only at 0x68 or 0x69")
    e = check_board.check(_devkit(I2C_EXTRA={0x68: "RTC DS3231"}))
    _one(e, "0x68", "two devices", "RTC DS3231")
    lis = {"type": "lis3dh", "addr": 0x19, "pin": None}
    assert check_board.check(_devkit(SHAKE=lis)) == []


def test_malformed_entries():
    e = check_board.check(_devkit(CHIP="esp8266"))
    _one(e, "CHIP")
    d = _devkit()
    d["DISPLAY"]["rotate"] = 90
    _one(check_board.check(d), "rotate")
    b = _devkit()["BUTTONS"]
    del b["OK"]
    _one(check_board.check(_devkit(BUTTONS=b)), "OK button is required")
    _one(check_board.check(_devkit(SHAKE={"type": "switch", "pin": None})), "switch needs a pin")
    _one(check_board.check(_devkit(SHAKE={"type": "mpu6050", "addr": 0x68, "sensitivity": 9})),
         "sensitivity")


def test_i2c_clock():
    # Every real profile states its clock (the frame model's bus time reads it).
    for f in sorted(os.listdir(os.path.join(ROOT, "boards"))):
        if f.endswith(".py"):
            p = check_board.load(os.path.join(ROOT, "boards", f))
            assert "freq" in p["I2C"], f
    bus = dict(_devkit()["I2C"])
    del bus["freq"]
    _one(check_board.check(_devkit(I2C=dict(bus, freq=3400000))), "I2C freq must be")
    _one(check_board.check(_devkit(I2C=dict(bus, freq="fast"))), "I2C freq must be")
    _one(check_board.check(_devkit(I2C=dict(bus, freq=1000000))), "needs a freq_source")
    assert not check_board.check(_devkit(I2C=dict(bus, freq=1000000,
                                                  freq_source="a datasheet")))
    assert not check_board.check(_devkit(I2C=dict(bus, freq=100000)))


def test_command_line(tmp_path):
    bad = tmp_path / "broken.py"
    bad.write_text(
        'NAME = "broken"\nCHIP = "esp32"\n'
        'I2C = {"id": 0, "sda": 21, "scl": 22, "freq": 400000}\n'
        'DISPLAY = {"type": "ssd1306", "width": 128, "height": 64, "addr": 0x3C,'
        ' "reset": None, "power": None, "rotate": 0}\n'
        'BUTTONS = {"PREV": (32, "internal"), "NEXT": (6, "internal"), "OK": (25, "internal")}\n'
        'BUZZER = 25\nSHAKE = {"type": "mpu6050", "addr": 0x68, "pin": None}\nBATTERY = None\n')
    tool = os.path.join(ROOT, "tools", "flashing", "check_board.py")
    r = subprocess.run([sys.executable, tool, str(bad)], capture_output=True, text=True)
    assert r.returncode == 1
    assert "GPIO6 (button NEXT, internal pull-up): connected to the SPI flash" in r.stdout
    assert "GPIO25 (buzzer): used twice" in r.stdout
    r = subprocess.run([sys.executable, tool], capture_output=True, text=True)
    assert r.returncode == 0 and "profiles OK (" in r.stdout and "esp32_devkit" in r.stdout
    r = subprocess.run([sys.executable, tool, "lolin32_oled"], capture_output=True, text=True)
    assert r.returncode == 0 and "1 profile OK (lolin32_oled)" in r.stdout
