# portable: runs under MicroPython too
"""The simulated machine module itself: it shadows the real one, and its parts behave
like the ESP32's (pins, IRQs, I2C errors, PWM, ADC)."""
import sys

from hal_rig import SIM, board, i2c

import machine


def test_import_machine_gets_the_simulation():
    # On the unix port `machine` is built in; tools/sim/machine.py must win over it.
    assert hasattr(machine, "SIM") and hasattr(machine, "I2C") and hasattr(machine, "PWM")
    f = getattr(machine, "__file__", "")
    assert f.endswith("tools/sim/machine.py"), f
    if sys.implementation.name == "micropython":
        import umachine  # the port's own stays reachable
        assert not hasattr(umachine, "SIM")


def test_pins_pull_ups_and_irqs():
    board("sim")
    p = machine.Pin(32, machine.Pin.IN)        # no pull: floats low in the model
    assert p.value() == 0
    p.init(machine.Pin.IN, machine.Pin.PULL_UP)
    assert p.value() == 1
    seen = []
    p.irq(handler=lambda pin: seen.append(pin.value()), trigger=machine.Pin.IRQ_FALLING)
    SIM.press("PREV", bounce=2)
    assert p.value() == 0 and seen == [0, 0, 0]   # each falling edge of the bounce
    SIM.release("PREV")
    assert p.value() == 1 and len(seen) == 3
    try:
        SIM.press("MENU")
        raise AssertionError("unknown button accepted")
    except ValueError:
        pass


def test_external_pull_up_from_the_profile():
    board("heltec_wifi_kit_32_v2")
    prg = machine.Pin(0, machine.Pin.IN)      # the board's own resistor holds it high
    assert prg.value() == 1
    SIM.press("BACK")
    assert prg.value() == 0


def test_i2c_bus_wiring_scan_and_faults():
    board("sim")
    bus = i2c()
    assert bus.scan() == [0x3C, 0x68]
    wrong = machine.I2C(0, scl=machine.Pin(4), sda=machine.Pin(5))
    assert wrong.scan() == []
    SIM.fail(0x68, True, 110)
    assert bus.scan() == [0x3C]
    try:
        bus.readfrom_mem(0x68, 0x75, 1)
        raise AssertionError("no error")
    except OSError as e:
        assert e.args[0] == 110
    SIM.fail(0x68, False)
    assert bus.readfrom_mem(0x68, 0x75, 1) == b"\x68"
    try:
        bus.writeto(0x50, b"\x00")
        raise AssertionError("no error")
    except OSError as e:
        assert e.args[0] == 19


def test_pwm_records_tones_and_starts_like_the_esp32():
    board("sim")
    p = machine.PWM(machine.Pin(27))
    assert SIM.pwm.duty == 32768      # the port's default: 50 %, audible
    p.duty_u16(0)
    p.freq(440)
    p.duty_u16(30000)
    assert (SIM.pwm.freq, SIM.pwm.duty) == (440, 30000) and SIM.pwm.sounding()
    assert SIM.pwm.log[-2:] == [(440, 0), (440, 30000)]
    p.deinit()
    assert not SIM.pwm.sounding()


def test_adc_wdt_and_sleep_hooks():
    board("sim")
    SIM.adc_uv[35] = 1000000
    a = machine.ADC(machine.Pin(35))
    a.atten(machine.ADC.ATTN_11DB)
    assert a.read_uv() == 1000000 and 0 < a.read_u16() < 65535
    w = machine.WDT(timeout=3000)
    w.feed()
    assert SIM.wdt is w and w.feeds == 1
    assert machine.lightsleep(100) is None and SIM.sleeps[-1] == ("light", 100)
    try:
        machine.deepsleep(5)
        raise AssertionError("deepsleep returned")
    except SystemExit:
        pass
    SIM.on_deepsleep = lambda ms: "slept"
    try:
        assert machine.deepsleep(7) == "slept"
    finally:
        SIM.on_deepsleep = None
    assert machine.reset_cause() == machine.PWRON_RESET


def test_logs_stay_bounded():
    board("sim")
    bus = i2c()
    for _ in range(3000):
        bus.writeto(0x3C, b"\x00\xe3")
    assert len(SIM.i2c_log) <= 512
    assert len(SIM.oled.commands) <= 1024
