"""SSD1306 / SH1106 OLED over I2C, drawn through a MONO_VLSB framebuf.

`Display(i2c, width=128, height=64, addr=0x3C, kind="ssd1306", rotate=0, reset=None,
power=None, power_level=0)`:
- `fb` (framebuf.FrameBuffer, MONO_VLSB) is what the app draws on;
- `show()` sends only the 8-pixel pages that changed since the last frame and returns
  the bytes put on the bus (address bytes and control bytes included); 0 when nothing
  changed or the panel is not `ok`;
- `contrast(0-255)`, `sleep(on)` (display off / on), `init()` (power, reset pulse and
  the command sequence; again after a fault; returns `ok`);
- `ok` turns False when the panel stops answering (OSError from the bus).

Rotation 0 / 180 is done by the panel (segment remap + COM scan direction), so it costs
nothing per frame. The panel is switched on only after the first frame has been written,
so the random RAM content after power-up never flashes on screen.

Wire format per changed page (bytes on the bus, each transaction counts its address byte):
- SSD1306, horizontal addressing: per run of adjacent changed pages one window command
  [addr, 0x00, 0x21, 0, w-1, 0x22, p0, p1] (8 bytes), then each page as
  [addr, 0x40, 128 data bytes] (130); all pages at once go as one 1,026-byte data write
  (full frame 1,034 bytes, one page 138).
- SH1106 (132-column RAM, the 128 visible columns start at column 2; page addressing
  only): per page [addr, 0x00, 0xB0|page, 0x02, 0x10] then the 130-byte data write
  (135 per page, 1,080 per full frame).
No allocation in show(): page views, data vectors and command buffers are made once.
"""
import framebuf

try:
    from time import sleep_ms as _sleep_ms
except ImportError:  # CPython
    from time import sleep as _sleep

    def _sleep_ms(ms):
        _sleep(ms / 1000)

try:
    from micropython import const
except ImportError:
    def const(x):
        return x

_SSD1306 = const(0)
_SH1106 = const(1)
_SH1106_COL = const(2)  # first visible column of the SH1106's 132-column RAM


def _init_sequence(kind, height, rotate, contrast):
    """The command bytes (after the 0x00 control byte) that configure the panel, left
    off (0xAE) until the first frame is written."""
    flip = rotate == 180
    remap = 0xA0 if flip else 0xA1  # A1: column 0 at the left edge of common modules
    scan = 0xC0 if flip else 0xC8   # C8: COM scan reversed, row 0 at the top
    pins = 0x12 if height == 64 else 0x02  # alternative COM pins for 64 rows
    if kind == _SSD1306:
        return bytes((
            0xAE,              # display off
            0xD5, 0x80,        # clock divide / oscillator (datasheet default)
            0xA8, height - 1,  # multiplex ratio
            0xD3, 0x00,        # display offset
            0x40,              # start line 0
            0x8D, 0x14,        # charge pump on (modules have no external VCC)
            0x20, 0x00,        # horizontal addressing: windowed page runs
            remap, scan,
            0xDA, pins,
            0x81, contrast,
            0xD9, 0xF1,        # pre-charge for the internal charge pump
            0xDB, 0x30,        # VCOMH ~0.83 Vcc (0x40 is not in the datasheet)
            0x2E,              # scrolling off
            0xA4,              # show RAM
            0xA6,              # not inverted
        ))
    return bytes((
        0xAE,
        0xD5, 0x80,
        0xA8, height - 1,
        0xD3, 0x00,
        0x40,
        0xAD, 0x8B,            # DC-DC converter on
        0x32,                  # pump voltage 8.0 V
        remap, scan,
        0xDA, pins,
        0x81, contrast,
        0xD9, 0x22,
        0xDB, 0x35,
        0xA4,
        0xA6,
    ))


class Display:
    def __init__(self, i2c, width=128, height=64, addr=0x3C, kind="ssd1306", rotate=0,
                 reset=None, power=None, power_level=0):
        if kind == "ssd1306":
            self._kind = _SSD1306
        elif kind == "sh1106":
            self._kind = _SH1106
        else:
            raise ValueError("display kind must be 'ssd1306' or 'sh1106', not %r" % (kind,))
        if width != 128 or height not in (32, 64):
            raise ValueError("display must be 128x64 or 128x32, not %dx%d" % (width, height))
        if rotate not in (0, 180):
            raise ValueError("display rotate must be 0 or 180, not %r" % (rotate,))
        self.i2c = i2c
        self.kind = kind
        self.width = width
        self.height = height
        self.addr = addr
        self.rotate = rotate
        self.reset_pin = reset
        self.power_pin = power
        self.power_level = power_level
        self.pages = pages = height // 8
        self.buf = bytearray(width * pages)
        self.fb = framebuf.FrameBuffer(self.buf, width, height, framebuf.MONO_VLSB)
        self._shadow = bytearray(width * pages)  # what the panel holds
        mv = memoryview(self.buf)
        sv = memoryview(self._shadow)
        self._pg = tuple(mv[p * width:(p + 1) * width] for p in range(pages))
        self._sp = tuple(sv[p * width:(p + 1) * width] for p in range(pages))
        ctl = b"\x40"  # control byte: data stream follows
        self._data = tuple((ctl, self._pg[p]) for p in range(pages))
        self._full = (ctl, mv)
        self._vec = hasattr(i2c, "writevto")
        if not self._vec:  # buses without writevto: one [0x40 + page] buffer, copied into
            self._tx = bytearray(width + 1)
            self._tx[0] = 0x40
        # SSD1306: window = columns 0..w-1, pages p0..p1 (bytes 5 and 6 patched per run).
        self._win = bytearray((0x00, 0x21, 0, width - 1, 0x22, 0, pages - 1))
        # SH1106: page select, column 2 (low nibble 2, high nibble 0).
        self._pcmd = bytearray((0x00, 0xB0, _SH1106_COL, 0x10))
        self._cmd = bytearray(3)  # [0x00, command, argument]
        self._cmd1 = bytearray(2)  # [0x00, command]
        self._force = 0xFF  # pages to send whatever the shadow says
        self._asleep = False
        self._lit = False   # 0xAF sent since the last init
        self._contrast = 0xCF
        self.ok = False
        self.init()

    # ---- setup and recovery ----------------------------------------------------

    def init(self):
        """Power and reset the panel (where the board has the pins), send the command
        sequence and schedule a full frame. Returns (and sets) `ok`."""
        self.ok = False
        self._lit = False
        self._force = 0xFF
        try:
            p = self.power_pin
            if p is not None:
                p.value(1 - self.power_level)  # off first: a power cycle clears a hang
                _sleep_ms(2)
                p.value(self.power_level)
                _sleep_ms(20)  # the panel's supply settles before its reset
            r = self.reset_pin
            if r is not None:
                r.value(1)
                _sleep_ms(1)
                r.value(0)
                _sleep_ms(1)  # RES# low for >= 3 us
                r.value(1)
                _sleep_ms(2)
            seq = _init_sequence(self._kind, self.height, self.rotate, self._contrast)
            self.i2c.writeto(self.addr, b"\x00" + seq)
            self.ok = True
        except OSError:
            self.ok = False
        return self.ok

    # ---- per frame ---------------------------------------------------------------

    def show(self):
        if not self.ok:
            return 0
        pg = self._pg
        sp = self._sp
        force = self._force
        mask = 0
        for p in range(self.pages):
            if (force >> p) & 1 or pg[p] != sp[p]:
                mask |= 1 << p
        n = 0
        try:
            if mask:
                if self._kind == _SSD1306:
                    n = self._send_ssd1306(mask)
                else:
                    n = self._send_sh1106(mask)
            if not self._lit and not self._asleep:
                n += self._command(0xAF, -1)
                self._lit = True
        except OSError:
            self.ok = False
            self._force = 0xFF
            return 0
        for p in range(self.pages):
            if (mask >> p) & 1:
                sp[p][:] = pg[p]
        self._force = 0
        return n

    def _send_ssd1306(self, mask):
        i2c = self.i2c
        addr = self.addr
        pages = self.pages
        win = self._win
        full = (1 << pages) - 1
        if mask == full and self._vec:
            win[5] = 0
            win[6] = pages - 1
            i2c.writeto(addr, win)
            i2c.writevto(addr, self._full)
            return 8 + 2 + len(self.buf)
        n = 0
        p = 0
        while p < pages:
            if not (mask >> p) & 1:
                p += 1
                continue
            q = p
            while q + 1 < pages and (mask >> (q + 1)) & 1:
                q += 1
            win[5] = p
            win[6] = q
            i2c.writeto(addr, win)
            n += 8
            while p <= q:
                n += self._page(p)
                p += 1
        return n

    def _send_sh1106(self, mask):
        i2c = self.i2c
        addr = self.addr
        cmd = self._pcmd
        n = 0
        for p in range(self.pages):
            if (mask >> p) & 1:
                cmd[1] = 0xB0 | p
                i2c.writeto(addr, cmd)
                n += 5 + self._page(p)
        return n

    def _page(self, p):
        if self._vec:
            self.i2c.writevto(self.addr, self._data[p])
        else:
            tx = self._tx
            tx[1:] = self._pg[p]
            self.i2c.writeto(self.addr, tx)
        return 2 + self.width

    def _command(self, c, arg):
        if arg < 0:
            cmd = self._cmd1
            cmd[1] = c
            self.i2c.writeto(self.addr, cmd)
            return 3
        cmd = self._cmd
        cmd[1] = c
        cmd[2] = arg
        self.i2c.writeto(self.addr, cmd)
        return 4

    # ---- settings ----------------------------------------------------------------

    def contrast(self, value):
        if not 0 <= value <= 255:
            raise ValueError("contrast must be 0..255, not %r" % (value,))
        self._contrast = value
        if self.ok:
            try:
                self._command(0x81, value)
            except OSError:
                self.ok = False

    def sleep(self, on):
        """Display off (True) or back on (False); RAM and settings are kept."""
        self._asleep = bool(on)
        if not self.ok:
            return
        try:
            if on:
                self._command(0xAE, -1)
            elif self._lit:
                self._command(0xAF, -1)
            # else: show() switches it on after the first frame
        except OSError:
            self.ok = False
