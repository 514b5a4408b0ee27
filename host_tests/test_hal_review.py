# portable: runs under MicroPython too
"""An independent review of the drivers and the simulated parts against the parts'
documented behaviour (datasheets, register maps, the MicroPython ESP32 port). Each test
names the fact it checks; the driver tests elsewhere compare driver and model, these
compare both with the documents, so a misunderstanding they share shows up here."""
from hal_rig import SIM, board, i2c, mark, writes

import machine
from hal.display import Display
from hal.wiring import open_sensor

# SSD1306 datasheet, "Set VCOMH Deselect Level" (DBh): A[6:4] = 000b, 010b or 011b only.
_VCOMH_LEVELS = (0x00, 0x20, 0x30)


def _mpu(kind="mpu6050"):
    board("sim", SHAKE={"type": kind, "addr": 0x68, "pin": None, "sensitivity": 3})
    since = mark()
    s = open_sensor(i2c(), {"type": kind, "addr": 0x68, "range": 8})
    return s, writes(0x68, since)


def _last_reg_write(ws, reg):
    v = None
    for w in ws:
        if len(w) == 2 and w[0] == reg:
            v = w[1]
    return v


def test_mpu6050_gyros_in_standby_need_a_clock_that_is_not_a_gyro():
    # MPU-6000/6050 register map, PWR_MGMT_1: only with the internal 8 MHz oscillator
    # or an external clock can the part run with its gyroscopes disabled. CLKSEL 1..3
    # take the PLL from the X / Y / Z gyro (STBY_XG / YG / ZG = PWR_MGMT_2 bits 2 / 1 / 0).
    s, ws = _mpu()
    assert s is not None
    pm1 = _last_reg_write(ws, 0x6B)
    pm2 = _last_reg_write(ws, 0x6C)
    assert pm1 is not None and pm1 & 0x40 == 0, "woken from sleep"
    clk = pm1 & 0x07
    if clk in (1, 2, 3):
        assert not pm2 & (1 << (3 - clk)), \
            "CLKSEL %d takes its clock from a gyro that PWR_MGMT_2 0x%02X puts in standby" % (clk, pm2)
    assert clk != 7, "CLKSEL 7 stops the clock"
    # And the part (model) then delivers samples: gravity on z at rest.
    s.read()
    assert 240 <= s.z <= 272 and SIM.accel.problems == []


def test_mpu_model_gives_no_data_from_a_stopped_gyro_clock():
    # The model refuses the combination the register map does not support (a gyro as
    # the clock with that gyro in standby), so a driver relying on it fails here.
    board("sim")
    bus = i2c()
    bus.writeto(0x68, b"\x6b\x01")     # awake, X-gyro PLL
    bus.writeto(0x68, b"\x6c\x07")     # all gyros in standby
    assert bus.readfrom_mem(0x68, 0x3B, 6) == bytes(6)
    assert SIM.accel.problems != []
    bus.writeto(0x68, b"\x6b\x00")     # internal oscillator: data flows
    z = bus.readfrom_mem(0x68, 0x3F, 2)
    assert z != bytes(2) or bus.readfrom_mem(0x68, 0x3B, 6) != bytes(6)


def test_mpu6886_auto_clock_is_accepted_with_gyros_in_standby():
    # MPU-6500 family (6886): CLKSEL 1..5 auto-selects the internal oscillator when the
    # PLL is not ready, so the combination is legal there.
    board("sim", SHAKE={"type": "mpu6886", "addr": 0x68, "pin": None, "sensitivity": 3})
    bus = i2c()
    bus.writeto(0x68, b"\x6b\x01")
    bus.writeto(0x68, b"\x6c\x07")
    b = bus.readfrom_mem(0x68, 0x3B, 6)
    assert b != bytes(6) and SIM.accel.problems == []


def _ssd1306(height=64):
    board("sim", DISPLAY={"type": "ssd1306", "width": 128, "height": height, "addr": 0x3C,
                          "reset": None, "power": None, "power_level": 0, "rotate": 0})
    return Display(i2c(), 128, height, 0x3C, "ssd1306")


def test_ssd1306_vcomh_is_a_documented_level():
    for h in (64, 32):
        d = _ssd1306(h)
        assert d.ok
        levels = [c[1] for c in SIM.oled.commands if c[0] == 0xDB]
        assert len(levels) == 1 and levels[0] in _VCOMH_LEVELS, \
            "VCOMH 0x%02X is not in the datasheet's table" % levels[0]
        assert SIM.oled.unknown == []


def test_ssd1306_model_flags_undocumented_vcomh_and_zero_precharge():
    board("sim")
    bus = i2c()
    bus.writeto(0x3C, b"\x00\xdb\x30\xd9\xf1")
    assert SIM.oled.unknown == []
    bus.writeto(0x3C, b"\x00\xdb\x40")
    assert [u[0] for u in SIM.oled.unknown] == [0xDB]
    bus.writeto(0x3C, b"\x00\xd9\x10")   # phase 1 of 0 DCLK is invalid
    assert [u[0] for u in SIM.oled.unknown] == [0xDB, 0xD9]


def test_sh1106_vcom_takes_any_level():
    # SH1106: VCOM deselect level DBh takes 00h..FFh (POR 35h); no SSD1306 table.
    board("sim", DISPLAY={"type": "sh1106", "width": 128, "height": 64, "addr": 0x3C,
                          "reset": None, "power": None, "power_level": 0, "rotate": 0})
    Display(i2c(), kind="sh1106")
    assert (0xDB, 0x35) in SIM.oled.commands and SIM.oled.unknown == []


def test_esp32_input_only_pins_refuse_output_and_have_no_pulls():
    # ESP32 GPIO34-39: input only, no internal pull-up or pull-down. The MicroPython
    # ESP32 port raises ValueError("pin can only be input") for an output mode there,
    # and the pull request has no effect (the pin floats).
    board("esp32_devkit")
    try:
        machine.Pin(34, machine.Pin.OUT)
        raise AssertionError("GPIO34 accepted an output mode")
    except ValueError:
        pass
    p = machine.Pin(35, machine.Pin.IN, machine.Pin.PULL_UP)
    assert p.value() == 0, "GPIO35 has no pull-up to hold it high"
    q = machine.Pin(32, machine.Pin.IN, machine.Pin.PULL_UP)
    assert q.value() == 1
    # The ESP32-S3 has no input-only pins: Heltec V3's Vext switch on GPIO36 is an output.
    board("heltec_wifi_kit_32_v3")
    v = machine.Pin(36, machine.Pin.OUT, value=0)
    assert v.value() == 0


def test_mpu_back_in_its_power_on_state_is_a_fault_not_a_shake():
    # Register map: after power-up / DEVICE_RESET, PWR_MGMT_1 = 0x40 (SLEEP) and the
    # sensor registers read 0. A part that lost power mid-game (a brown-out, or Vext
    # cycled on a Heltec V3) must not read as 0 g forever (|a| = 0 looks like motion):
    # all-zero samples count as read failures, and the detector re-initialises it.
    from hal.events import SHAKE_START, Queue
    from hal_rig import events
    from hal.shake import Shaker
    s, _ = _mpu()
    q = Queue()
    sh = Shaker(s, q, period_ms=20)
    t = 0
    for _ in range(20):
        sh.poll(t)
        t += 20
    SIM.accel.reset()                  # power-on state: asleep, data registers 0
    for _ in range(50):
        sh.poll(t)
        t += 20
    assert SHAKE_START not in events(q)
    assert sh.failed
    for _ in range(150):               # the 2 s retry wakes it again
        sh.poll(t)
        t += 20
    assert not sh.failed and not SIM.accel.asleep and 240 <= s.z <= 272
