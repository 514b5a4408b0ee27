"""The constructors of the drivers that stay loaded during a game (hal.display,
hal.buttons, hal.shake, hal.buzzer and the accelerometers' hal.mpu6050): each class's
`__init__` hands its arguments to the function here of the same name. Boot-only code:
hal.bringup drops this module after building the devices, so its code keeps no heap
while the app runs (no function made here may be kept by a driver: it would keep the
whole module). The drivers' docstrings describe the arguments; the layouts of their
state bytes are repeated here as constants.
"""
try:
    from micropython import const
except ImportError:
    def const(x):
        return x

_SSD1306 = const(0)   # hal.display._st[_KIND]
_SH1106 = const(1)
_OK = const(2)        # hal.events buttons
_BACK = const(3)
_N = const(4)         # hal.buttons: buttons, then the latch and mode bytes
_F_DOWN = const(1)
_F_IGNORE = const(4)


def display(d, i2c, width=128, height=64, addr=0x3C, kind="ssd1306", rotate=0,
            reset=None, power=None, power_level=0):
    import framebuf
    if kind == "ssd1306":
        k = _SSD1306
    elif kind == "sh1106":
        k = _SH1106
    else:
        raise ValueError("display kind must be 'ssd1306' or 'sh1106', not %r" % (kind,))
    if width != 128 or height not in (32, 64):
        raise ValueError("display must be 128x64 or 128x32, not %dx%d" % (width, height))
    if rotate not in (0, 180):
        raise ValueError("display rotate must be 0 or 180, not %r" % (rotate,))
    d.i2c = i2c
    d.addr = addr
    d.reset_pin = reset
    d.power_pin = power
    d.power_level = power_level
    pages = height // 8
    d.buf = bytearray(128 * pages)
    d.fb = framebuf.FrameBuffer(d.buf, 128, height, framebuf.MONO_VLSB)
    mv = memoryview(d.buf)
    sv = memoryview(bytearray(128 * pages))  # the shadow: what the panel holds
    pg = []
    sp = []
    for p in range(pages):
        pg.append(mv[p * 128:(p + 1) * 128])
        sp.append(sv[p * 128:(p + 1) * 128])
    d._pg = tuple(pg)
    d._sp = tuple(sp)
    # writevto vector: the data control byte, then a page (or the whole buffer).
    d._vec = [b"\x40", None]
    # SSD1306: window = columns 0..127, pages p0..p1 (bytes 5 and 6 patched per run).
    d._win = bytearray((0x00, 0x21, 0, 127, 0x22, 0, pages - 1))
    # SH1106: page select, column 2 (low nibble 2, high nibble 0).
    d._pcmd = bytearray((0x00, 0xB0, 0x02, 0x10))  # column 2: the first visible of 132
    d._cmd = bytearray(3)  # [0x00, command, argument]
    d._cmd1 = bytearray(2)  # [0x00, command]
    # The command sequence init() sends (after the 0x00 control byte), panel left off.
    flip = rotate == 180
    remap = 0xA0 if flip else 0xA1  # A1: column 0 at the left edge of common modules
    scan = 0xC0 if flip else 0xC8   # C8: COM scan reversed, row 0 at the top
    pins = 0x12 if height == 64 else 0x02  # alternative COM pins for 64 rows
    if k == _SSD1306:
        head = (
            0x00,              # control byte: commands follow
            0xAE,              # display off
            0xD5, 0x80,        # clock divide / oscillator (datasheet default)
            0xA8, height - 1,  # multiplex ratio
            0xD3, 0x00,        # display offset
            0x40,              # start line 0
            0x8D, 0x14,        # charge pump on (modules have no external VCC)
            0x20, 0x00,        # horizontal addressing: windowed page runs
            remap, scan,
            0xDA, pins,
        )
        tail = (
            0xD9, 0xF1,        # pre-charge for the internal charge pump
            0xDB, 0x30,        # VCOMH ~0.83 Vcc (0x40 is not in the datasheet)
            0x2E,              # scrolling off
            0xA4,              # show RAM
            0xA6,              # not inverted
        )
    else:
        head = (
            0x00,
            0xAE,
            0xD5, 0x80,
            0xA8, height - 1,
            0xD3, 0x00,
            0x40,
            0xAD, 0x8B,        # DC-DC converter on
            0x32,              # pump voltage 8.0 V
            remap, scan,
            0xDA, pins,
        )
        tail = (
            0xD9, 0x22,
            0xDB, 0x35,
            0xA4,
            0xA6,
        )
    d._seq = bytearray(head + (0x81, 0xCF) + tail)  # contrast 0xCF until contrast()
    # kind, pages to force (all), asleep, lit, where the contrast byte is in _seq.
    d._st = bytearray((k, 0xFF, 0, 0, len(head) + 1))
    d.ok = False
    d.init()


def buttons(b, pins, queue, debounce_ms=30, long_ms=600, repeat_ms=150):
    if debounce_ms < 0 or long_ms <= debounce_ms or repeat_ms < 0:
        raise ValueError("need 0 <= debounce_ms < long_ms and repeat_ms >= 0")
    pins = list(pins) + [None] * (_N - len(pins))
    if len(pins) > _N:
        raise ValueError("at most 4 buttons (PREV, NEXT, OK, BACK)")
    b.pins = pins
    b.queue = queue
    b.debounce_ms = debounce_ms
    b.long_ms = long_ms
    b.repeat_ms = repeat_ms
    b.three = pins[_BACK] is None and pins[_OK] is not None
    b._st = st = bytearray(_N + 2)
    b._t = [0] * (2 * _N + 1)
    edge = b.edge  # one bound method for every pin
    for i in range(_N):
        p = pins[i]
        if p is None:
            continue
        if p.value() == 0:
            st[i] = _F_DOWN | _F_IGNORE  # held since start: silent until released
        if hasattr(p, "irq"):
            p.irq(handler=edge, trigger=p.IRQ_FALLING)


def shaker(sh, queue, sensitivity=3, period_ms=20, cooldown_ms=800, scale=100):
    if period_ms <= 0 or scale <= 0:
        raise ValueError("period_ms and scale must be positive")
    sh.queue = queue
    sh.period_ms = period_ms
    sh.cooldown_ms = cooldown_ms
    sh.scale = scale
    sh.shaking = False
    sh.failed = False
    sh.score = 0
    sh.samples = 0
    sh.sensitivity = sensitivity
    sh._f = 0
    sh._next = 0      # time of the next sample
    sh._wait = 0      # end of the cooldown, or (failed) of the wait before a retry
    sh._px = 0
    sh._py = 0
    sh._pz = 0
    sh._errs = 0
    n = 500 // period_ms  # the switch's window: 500 ms of samples
    sh._ring = bytearray(n if n > 0 else 1)
    sh._ri = 0
    sh._sum = 0


def buzzer(bz, pin, duty_u16=32768):
    bz.pwm = None
    if pin is not None:
        from machine import PWM, Pin
        if not isinstance(pin, Pin):
            pin = Pin(pin)
        bz.pwm = PWM(pin, freq=2000, duty_u16=0)
    bz._loud = duty_u16
    bz._seq = b""
    bz._i = 0
    bz._stop = 0
    bz._end = None  # None until the first tick() times the current sequence
    bz.muted = False
    bz.busy = False
    bz.note = 0


def accel(a, i2c, addr=None, range_g=8):
    if range_g not in (4, 8):
        raise ValueError("accelerometer range must be 4 or 8 (g), not %r" % (range_g,))
    a.i2c = i2c
    a.addr = a._ADDR if addr is None else addr
    a.range_g = range_g
    a._mul = a._MUL4 if range_g == 4 else 2 * a._MUL4
    a._buf = bytearray(6)
    a._reg = bytearray(2)
    a.who = 0
    a.x = 0
    a.y = 0
    a.z = 0
    a.init()  # each driver wakes and configures its own part
