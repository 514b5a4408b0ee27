"""SSD1306 / SH1106 OLED over I2C, drawn through a MONO_VLSB framebuf.

`Display(i2c, width=128, height=64, addr=0x3C, kind="ssd1306", rotate=0, reset=None,
power=None, power_level=0)`:
- `fb` (framebuf.FrameBuffer, MONO_VLSB) is what the app draws on;
- `show()` sends only the 8-pixel pages that changed since the last frame and returns
  the bytes put on the bus (address bytes and control bytes included); 0 when nothing
  changed or the panel is not `ok`;
- `contrast(0-255)`, `sleep(on)` (display off / on), `init()` (power, reset pulse and
  the command sequence; again after a fault; returns `ok`);
- `ok` turns False when the panel stops answering (OSError from the bus), or when
  `check()` finds that it lost its settings while it still answers (a brownout);
- `check()` reads the status byte (a lone command control byte [0x00], then a 1-byte
  read; no allocation). On both chips a read with D/C# low returns the status, whose
  bit 6 (ON/OFF) is 1 while the display is off: SH1106 datasheet (Sino Wealth), the
  command table's "Read Status" (D7 BUSY, D6 ON/OFF) and its I2C interface section
  ("If the R/W bit is set to one ... the chip will output data ... according to the
  D/C bit, which was sent during the last write access": hence the [0x00] first);
  SSD1306 datasheet rev 1.1, 8.1 (MCU interface: a read with D/C# low is the status
  register read, D6 = 1 display off) and 8.1.5 (I2C: R/W# = 1 is read mode). A
  reset, at power-up or after a brownout, leaves either chip off (display off is the
  reset state of both), so a panel that should be lit and reads off has lost
  everything (charge pump, orientation, contrast, RAM): `ok` turns False and init()
  plus a full frame restore it (power.drive_display calls check() every 2 s and does
  that; no frame pays for it). While asleep the status cannot tell, so sleep(False)
  sends the command sequence and the whole frame again before switching it on. A read
  of all ones (BUSY with OFF: a clone that does not drive reads) tells nothing, and a
  panel that reads off three times in a row just after being set up is asked no more.
  (The datasheet references above are to be checked against the PDFs: see docs/reliability.md.)

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
No allocation in show(): page views, the data vector and command buffers are made once
(the bus needs writevto, as machine.I2C and SoftI2C have).
"""
try:
    from time import sleep_ms as _sleep_ms
except ImportError:  # CPython
    from time import sleep as _sleep

    def _sleep_ms(ms):
        _sleep(ms / 1000)

from micropython import const

_TYPES = const(0)  # the attributes' types, for pyright (on the device "if 0:" is no code)
if _TYPES:
    from framebuf import FrameBuffer
    from machine import I2C, Pin

_SSD1306 = const(0)
_SH1106 = const(1)
# self._st: the driver's small state, one byte each.
_KIND = const(0)        # _SSD1306 or _SH1106
_FORCE = const(1)       # pages to send whatever the shadow says
_ASLEEP = const(2)      # sleep(True) in force
_LIT = const(3)         # 0xAF sent since the last init
_CONTRAST_AT = const(4)  # where the contrast byte is in _seq


class Display:
    # Set by __init__ (annotations only: no code, no heap on the device).
    i2c: "I2C"
    addr: int
    reset_pin: "Pin | None"
    power_pin: "Pin | None"
    power_level: int
    buf: bytearray
    fb: "FrameBuffer"
    ok: bool
    _pg: tuple
    _sp: tuple
    _vec: list
    _win: bytearray
    _pcmd: bytearray
    _cmd: bytearray
    _cmd1: bytearray
    _st: bytearray
    _seq: bytearray
    _sb: bytearray

    def __init__(self, i2c, width=128, height=64, addr=0x3C, kind="ssd1306", rotate=0,
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
        self.i2c = i2c
        self.addr = addr
        self.reset_pin = reset
        self.power_pin = power
        self.power_level = power_level
        pages = height // 8
        self.buf = bytearray(128 * pages)
        self.fb = framebuf.FrameBuffer(self.buf, 128, height, framebuf.MONO_VLSB)
        mv = memoryview(self.buf)
        sv = memoryview(bytearray(128 * pages))  # the shadow: what the panel holds
        pg = []
        sp = []
        for p in range(pages):
            pg.append(mv[p * 128:(p + 1) * 128])
            sp.append(sv[p * 128:(p + 1) * 128])
        self._pg = tuple(pg)
        self._sp = tuple(sp)
        # writevto vector: the data control byte, then a page (or the whole buffer).
        self._vec = [b"\x40", None]
        # SSD1306: window = columns 0..127, pages p0..p1 (bytes 5 and 6 patched per run).
        self._win = bytearray((0x00, 0x21, 0, 127, 0x22, 0, pages - 1))
        # SH1106: page select, column 2 (low nibble 2, high nibble 0).
        self._pcmd = bytearray((0x00, 0xB0, 0x02, 0x10))  # column 2: the first visible of 132
        self._cmd = bytearray(3)  # [0x00, command, argument]
        self._cmd1 = bytearray(2)  # [0x00, command]
        self._sb = bytearray(1)  # the status byte (check())
        self._offs = 0  # check()s in a row that read "off" (3: the panel's reads are not its status)
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
        self._seq = bytearray(head + (0x81, 0xCF) + tail)  # contrast 0xCF until contrast()
        # kind, pages to force (all), asleep, lit, where the contrast byte is in _seq.
        self._st = bytearray((k, 0xFF, 0, 0, len(head) + 1))
        self.ok = False
        self.init()

    # ---- setup and recovery ----------------------------------------------------

    def init(self):
        """Power and reset the panel (where the board has the pins), send the command
        sequence (__init__ made it; the panel is left off, 0xAE, until the first frame
        is written) and schedule a full frame. Returns (and sets) `ok`."""
        st = self._st
        self.ok = False
        st[_LIT] = 0
        st[_FORCE] = 0xFF
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
            self.i2c.writeto(self.addr, self._seq)
            self.ok = True
        except OSError:
            self.ok = False
        return self.ok

    def check(self):
        """Read the status byte: a panel that should be lit but says it is off lost
        its settings (a brownout the bus outlived); `ok` turns False so that init()
        and a full frame bring it back. Returns `ok`. Allocates nothing."""
        st = self._st
        if not self.ok or not st[_LIT] or st[_ASLEEP] or self._offs >= 3:
            return self.ok
        try:
            self.i2c.writeto(self.addr, b"\x00")  # D/C# low: the read is the status
            self.i2c.readfrom_into(self.addr, self._sb)
            # D6: display off; D7 (BUSY) set with it, as an all-ones read (a clone that
            # does not drive reads), cannot tell. A panel that still reads off right
            # after being set up three times does not report its status: stop asking,
            # rather than set it up again every 2 s.
            if self._sb[0] & 0xC0 == 0x40:
                self._offs += 1
                self.ok = False
            else:
                self._offs = 0
        except OSError:
            self.ok = False
        if not self.ok:
            st[_FORCE] = 0xFF
        return self.ok

    # ---- per frame ---------------------------------------------------------------

    def show(self):
        if not self.ok:
            return 0
        st = self._st
        pg = self._pg
        sp = self._sp
        pages = len(pg)
        force = st[_FORCE]
        mask = 0
        for p in range(pages):
            if (force >> p) & 1 or pg[p] != sp[p]:
                mask |= 1 << p
        i2c = self.i2c
        addr = self.addr
        vec = self._vec
        win = self._win
        ssd = st[_KIND] == _SSD1306
        n = 0
        try:
            if ssd and mask == (1 << pages) - 1:
                # Every page: one window and one data write of the whole buffer.
                win[5] = 0
                win[6] = pages - 1
                i2c.writeto(addr, win)
                vec[1] = self.buf
                i2c.writevto(addr, vec)
                n = 8 + 2 + len(self.buf)
                todo = 0
            else:
                todo = mask
            p = 0
            while todo >> p:
                if not (todo >> p) & 1:
                    p += 1
                    continue
                q = p
                if ssd:
                    # A run of adjacent changed pages shares one window command.
                    while (todo >> (q + 1)) & 1:
                        q += 1
                    win[5] = p
                    win[6] = q
                    i2c.writeto(addr, win)
                    n += 8
                else:
                    cmd = self._pcmd  # SH1106: page addressing, one page at a time
                    cmd[1] = 0xB0 | p
                    i2c.writeto(addr, cmd)
                    n += 5
                while p <= q:
                    vec[1] = pg[p]
                    i2c.writevto(addr, vec)
                    n += 130
                    p += 1
            if not st[_LIT] and not st[_ASLEEP]:
                n += self._command(0xAF)
                st[_LIT] = 1
        except OSError:
            self.ok = False
            st[_FORCE] = 0xFF
            return 0
        for p in range(pages):
            if (mask >> p) & 1:
                sp[p][:] = pg[p]
        st[_FORCE] = 0
        return n

    def _command(self, c, arg=-1):
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
        self._seq[self._st[_CONTRAST_AT]] = value  # init() keeps it
        if self.ok:
            try:
                self._command(0x81, value)
            except OSError:
                self.ok = False

    def sleep(self, on):
        """Display off (True) or back on (False); RAM and settings are kept."""
        st = self._st
        st[_ASLEEP] = 1 if on else 0
        if not self.ok:
            return
        try:
            if on:
                self._command(0xAE)
            elif st[_LIT]:
                # Off, a brownout does not show in the status: the settings and the
                # whole frame go again, then show() switches the panel on.
                self.i2c.writeto(self.addr, self._seq)
                st[_LIT] = 0
                st[_FORCE] = 0xFF
                self.show()
            # else: show() switches it on after the first frame
        except OSError:
            self.ok = False
