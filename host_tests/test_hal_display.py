# portable: runs under MicroPython too
"""The display driver against the SSD1306 / SH1106 panel models, at the byte level."""
from hal_rig import SIM, CountingBus, board, i2c, mark, no_alloc, writes

import machine
from hal.display import Display


def _panel(kind="ssd1306", height=64, **kw):
    board("sim", DISPLAY={"type": kind, "width": 128, "height": height, "addr": 0x3C,
                          "reset": None, "power": None, "power_level": 0, "rotate": 0})
    return Display(i2c(), 128, height, 0x3C, kind, **kw)


def _same(d):
    """What the viewer sees equals the framebuffer (up to rotation handled by callers)."""
    return SIM.oled.frame() == bytes(d.buf)


def test_ssd1306_init_sequence_configures_the_panel():
    d = _panel()
    o = SIM.oled
    assert d.ok
    cmds = o.commands
    assert cmds[0] == (0xAE,), "display off first"
    assert (0x8D, 0x14) in cmds, "charge pump on"
    assert (0xA8, 63) in cmds and (0xDA, 0x12) in cmds
    assert (0x20, 0x00) in cmds, "horizontal addressing"
    assert o.unknown == []
    assert o.pump and o.seg_remap and o.com_rev and o.mux == 63 and o.mode == 0
    # Not switched on before the first frame: power-up RAM noise never shows.
    assert not o.on and SIM.oled.frame() == bytes(1024)
    sent = d.show()
    assert o.on
    assert (0xAF,) == o.commands[-1]
    assert _same(d)
    # Full frame: window command (8) + one 1,026-byte data write + display on (3).
    assert sent == 8 + 1026 + 3
    assert o.bytes_rx == sum(1 + len(w) for w in writes(0x3C))


def test_drawing_in_one_page_sends_one_page():
    d = _panel()
    d.show()
    before = SIM.oled.data_bytes
    m = mark()
    d.fb.pixel(70, 29, 1)   # page 3
    n = d.show()
    w = writes(0x3C, m)
    assert len(w) == 2
    assert bytes(w[0]) == bytes((0x00, 0x21, 0, 127, 0x22, 3, 3))
    assert w[1][0] == 0x40 and len(w[1]) == 129
    assert SIM.oled.data_bytes - before == 128
    assert n == 8 + 130
    assert SIM.oled.pixel(70, 29) == 1 and _same(d)
    # Nothing changed: nothing sent.
    m = mark()
    assert d.show() == 0 and writes(0x3C, m) == []


def test_adjacent_pages_share_one_window_and_gaps_split_it():
    d = _panel()
    d.show()
    m = mark()
    d.fb.fill_rect(10, 6, 5, 4, 1)    # pages 0 and 1
    d.fb.pixel(3, 60, 1)              # page 7
    n = d.show()
    w = writes(0x3C, m)
    wins = [bytes(x) for x in w if x[0] == 0x00]
    assert wins == [bytes((0, 0x21, 0, 127, 0x22, 0, 1)), bytes((0, 0x21, 0, 127, 0x22, 7, 7))]
    assert n == 2 * 8 + 3 * 130
    assert _same(d)


def test_sh1106_page_addressing_and_column_offset():
    d = _panel("sh1106")
    o = SIM.oled
    assert o.unknown == [] and d.ok
    noise = bytes(o.ram[p * 132 + c] for p in range(8) for c in (0, 1, 130, 131))
    m = mark()
    d.fb.pixel(0, 0, 1)
    d.fb.pixel(127, 63, 1)
    n = d.show()
    w = writes(0x3C, m)
    # One write per page: [0x00, B0|p, low col 2, high col 0] then 0x40 + 128 bytes.
    pages = [x for x in w if x[0] == 0x00 and len(x) == 4]
    assert [bytes(x) for x in pages] == [bytes((0, 0xB0 | p, 0x02, 0x10)) for p in range(8)]
    assert n == 8 * (5 + 130) + 3
    assert o.ram[0 * 132 + 2] & 1 and o.ram[7 * 132 + 129] & 0x80
    # The 4 invisible columns are never written.
    assert bytes(o.ram[p * 132 + c] for p in range(8) for c in (0, 1, 130, 131)) == noise
    assert o.pixel(0, 0) == 1 and o.pixel(127, 63) == 1 and _same(d)
    m = mark()
    d.fb.pixel(64, 40, 1)
    assert d.show() == 135
    assert [bytes(x) for x in writes(0x3C, m)][0] == bytes((0, 0xB5, 0x02, 0x10))


def test_ssd1306_driver_on_an_sh1106_panel_is_garbled():
    # The models decode per chip: SSD1306-only commands are not understood by an SH1106.
    board("sim", DISPLAY={"type": "sh1106", "width": 128, "height": 64, "addr": 0x3C,
                          "reset": None, "power": None, "rotate": 0})
    d = Display(i2c(), kind="ssd1306")
    d.fb.fill(0)
    d.fb.pixel(5, 5, 1)
    d.show()
    assert SIM.oled.unknown != []
    assert not _same(d)


def test_128x32_panel():
    d = _panel(height=32)
    assert (0xA8, 31) in SIM.oled.commands and (0xDA, 0x02) in SIM.oled.commands
    d.fb.text("OK", 0, 0)
    d.fb.pixel(127, 31, 1)
    assert d.show() == 8 + 2 + 512 + 3
    assert len(SIM.oled.frame()) == 512 and _same(d)
    assert SIM.oled.pixel(127, 31) == 1


def _rot_frame(buf, pages):
    """The framebuffer turned by 180 degrees (what the viewer should see)."""
    out = bytearray(len(buf))
    for p in range(pages):
        for x in range(128):
            b = buf[p * 128 + x]
            r = 0
            for i in range(8):
                if b & (1 << i):
                    r |= 0x80 >> i
            out[(pages - 1 - p) * 128 + 127 - x] = r
    return bytes(out)


def test_rotation_180_on_both_chips_and_heights():
    for kind, h in (("ssd1306", 64), ("sh1106", 64), ("ssd1306", 32)):
        d = _panel(kind, h, rotate=180)
        d.fb.pixel(0, 0, 1)
        d.fb.hline(10, 3, 20, 1)
        d.show()
        o = SIM.oled
        assert not o.seg_remap and not o.com_rev
        assert o.pixel(127, h - 1) == 1 and o.pixel(0, 0) == 0
        assert o.pixel(127 - 15, h - 1 - 3) == 1
        assert o.frame() == _rot_frame(d.buf, h // 8), kind


def test_contrast_and_sleep():
    d = _panel()
    d.show()
    d.contrast(0x20)
    assert SIM.oled.contrast == 0x20
    d.sleep(True)
    assert not SIM.oled.on and SIM.oled.frame() == bytes(1024)
    d.fb.pixel(1, 1, 1)
    d.show()          # drawing while asleep updates RAM, stays dark
    assert not SIM.oled.on
    d.sleep(False)
    assert SIM.oled.on and _same(d)
    try:
        d.contrast(256)
        raise AssertionError("contrast 256 accepted")
    except ValueError:
        pass
    # init() after a fault keeps the chosen contrast.
    d.init()
    assert SIM.oled.contrast == 0x20


def test_fault_sets_not_ok_and_init_recovers_with_a_full_frame():
    for err in (19, 110):
        d = _panel()
        d.show()
        SIM.fail(0x3C, True, err)
        d.fb.pixel(9, 9, 1)
        assert d.show() == 0 and not d.ok
        assert d.show() == 0          # stays quiet until init()
        assert not d.init()
        SIM.fail(0x3C, False)
        # The panel lost power meanwhile: its RAM is noise again.
        SIM.oled.reset()
        assert d.init() and d.ok
        assert d.show() == 8 + 1026 + 3
        assert _same(d)


def test_reset_pin_is_pulsed_and_needed():
    board("heltec_wifi_kit_32_v2")
    # Without driving RST high the panel stays in reset and does not answer.
    d = Display(i2c())
    assert not d.ok
    rst = machine.Pin(16, machine.Pin.OUT, value=0)
    resets = SIM.oled.resets
    d = Display(i2c(), reset=rst)
    assert d.ok and SIM.oled.resets > resets
    assert SIM.pin(16).level() == 1
    d.show()
    assert _same(d)


def test_power_pin_switches_the_panel_on():
    board("heltec_wifi_kit_32_v3")
    rst = machine.Pin(21, machine.Pin.OUT, value=1)
    d = Display(i2c(), reset=rst)
    assert not d.ok       # Vext off: the panel has no power
    pw = machine.Pin(36, machine.Pin.OUT, value=1)
    d = Display(i2c(), reset=rst, power=pw, power_level=0)
    assert d.ok and SIM.pin(36).level() == 0
    d.fb.fill_rect(0, 0, 20, 20, 1)
    d.show()
    assert _same(d)


def test_bad_arguments_raise_value_error():
    bus = CountingBus()
    for kw in ({"kind": "st7735"}, {"rotate": 90}, {"height": 48}):
        try:
            Display(bus, **kw)
            raise AssertionError("accepted %r" % (kw,))
        except ValueError:
            pass


def test_show_allocates_nothing():
    bus = CountingBus()
    for kind in ("ssd1306", "sh1106"):
        d = Display(bus, kind=kind)
        d.show()
        d.fb.pixel(3, 3, 1)
        n = no_alloc(d.show)
        assert n in (138, 135)
        d.fb.fill(1)
        assert no_alloc(d.show) in (1034, 1080)
        assert no_alloc(d.show) == 0
        no_alloc(d.contrast, 10)
        no_alloc(d.sleep, True)
        no_alloc(d.sleep, False)


# ---- issue 17 item 10: a panel that browns out while the bus still answers ----------

def _reads(addr, since=0):
    return [d for (a, k, d) in SIM.i2c_log[since:] if a == addr and k == "r"]


def _drawn(d):
    d.fb.fill(0)
    d.fb.fill_rect(0, 0, 30, 10, 1)   # top left: shows the orientation too
    d.fb.text("PD", 60, 40, 1)


def test_item10_browned_out_panel_is_found_by_its_status_and_restored():
    for kind in ("ssd1306", "sh1106"):
        for rot in (0, 180):
            d = _panel(kind, rotate=rot)
            _drawn(d)
            d.show()
            d.contrast(0x20)
            o = SIM.oled
            remap, rev = o.seg_remap, o.com_rev
            seen = o.frame()                         # what the player saw
            m = mark()
            assert d.check() and d.ok                # lit and set up: one status byte
            assert writes(0x3C, m) == [b"\x00"] and _reads(0x3C, m) == [b"\x00"]
            o.reset()                                # the brownout: dark, defaults
            assert not o.on and o.frame() != seen
            m = mark()
            assert not d.check() and not d.ok, kind
            assert writes(0x3C, m) == [b"\x00"] and _reads(0x3C, m) == [b"\x40"]
            assert d.init()
            sent = d.show()                          # the whole frame again, then on
            assert sent == (8 + 1026 + 3 if kind == "ssd1306" else 8 * 135 + 3)
            assert o.on and o.contrast == 0x20 and (o.seg_remap, o.com_rev) == (remap, rev)
            assert o.frame() == seen, (kind, rot)
            d.sleep(True)
            m = mark()
            assert d.check() and _reads(0x3C, m) == []  # asleep: off anyway, not asked


def test_item10_power_checks_every_two_seconds_and_revives_the_same_frame():
    from system.power import AWAKE, Power
    d = _panel()
    _drawn(d)
    d.show()
    p = Power(bytearray(12), now_ms=0)
    m = mark()
    t = 0
    for t in range(0, 10000, 33):                    # 10 s of frames, nothing drawn
        p.level(t)
        p.drive_display(d, AWAKE, 0x30)
    assert len(_reads(0x3C, m)) == 5                 # the probe: once per 2 s
    assert writes(0x3C, m) == [b"\x00"] * 5          # and nothing else
    SIM.oled.reset()
    t0 = t
    while not (SIM.oled.on and _same(d)):
        t += 33
        p.level(t)
        p.drive_display(d, AWAKE, 0x30)
        assert t - t0 <= 2100, "the panel stayed dark"
    assert SIM.oled.contrast == 0x30 and p.revived == 1


def test_item10_browned_out_while_asleep_comes_back_on_wake():
    for kind in ("ssd1306", "sh1106"):
        d = _panel(kind)
        _drawn(d)
        d.show()
        d.contrast(0x40)
        d.sleep(True)
        SIM.oled.reset()                             # browned out while off
        d.sleep(False)
        o = SIM.oled
        assert o.on and o.contrast == 0x40 and o.pump and _same(d), kind


def test_item10_check_allocates_nothing():
    bus = CountingBus()
    for kind in ("ssd1306", "sh1106"):
        d = Display(bus, kind=kind)
        d.show()
        assert no_alloc(d.check)


def test_item10_a_panel_whose_reads_are_not_its_status_is_not_set_up_again_and_again():
    # A clone that answers reads with all ones (BUSY and OFF at once) cannot tell; one
    # that always reads "off" is set up three times, then no longer asked: never an
    # init sequence (a visible blink) every 2 s for the rest of the session.
    for answer in (0xFF, 0x40):
        d = _panel()
        _drawn(d)
        d.show()
        o = SIM.oled
        o.read = lambda n, a=answer: bytes((a,)) * n
        revived = 0
        for _ in range(10):
            if not d.check():
                revived += 1
                assert d.init()
                d.show()
        assert revived == (0 if answer == 0xFF else 3), (answer, revived)
        m = mark()
        assert d.check() and len(_reads(0x3C, m)) == (1 if answer == 0xFF else 0)
