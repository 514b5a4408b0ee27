"""SSD1306 and SH1106 panel models: decode the I2C byte stream into RAM and pixels.

A write transaction is the bytes after the address byte. It is a sequence of control
bytes (Co bit 0x80: one byte follows, then another control byte; D/C# bit 0x40: data,
else commands) and command or data bytes; multi-byte commands may be split across
control bytes and transactions, as on the chips.

`frame()` returns what a viewer sees (MONO_VLSB, width*height/8 bytes), derived from
RAM the way the panel scans it: segment remap (A0/A1), COM scan direction (C0/C8),
start line, display offset, multiplex ratio, inverse, entire-display-on, display on/off
and (SSD1306) the charge pump. Common modules are glued so that A1 + C8 shows RAM
column 0 / row 0 at the top left; A0 + C0 shows it turned by 180 degrees. On the SH1106
the 128 visible columns are RAM columns 2..129 of 132 in both directions.

Portable (CPython and the MicroPython unix port).
"""

SSD1306 = "ssd1306"
SH1106 = "sh1106"

# Number of argument bytes after each multi-byte command.
_ARGS_SSD1306 = {0x20: 1, 0x21: 2, 0x22: 2, 0x26: 6, 0x27: 6, 0x29: 5, 0x2A: 5,
                 0x81: 1, 0x8D: 1, 0xA3: 2, 0xA8: 1, 0xD3: 1, 0xD5: 1, 0xD6: 1,
                 0xD9: 1, 0xDA: 1, 0xDB: 1}
_ARGS_SH1106 = {0x81: 1, 0xA8: 1, 0xAD: 1, 0xD3: 1, 0xD5: 1, 0xD9: 1, 0xDA: 1, 0xDB: 1}

_LOG_MAX = 256


def _rev8(b):
    r = 0
    for i in range(8):
        if b & (1 << i):
            r |= 0x80 >> i
    return r


_REV = bytes(_rev8(i) for i in range(256))


def _same(buf):
    return buf


class Oled:
    def __init__(self, kind=SSD1306, width=128, height=64, addr=0x3C):
        if kind not in (SSD1306, SH1106):
            raise ValueError("unknown panel kind %r" % (kind,))
        self.kind = kind
        self.width = width
        self.height = height
        self.addr = addr
        self.cols = 132 if kind == SH1106 else 128
        self.ram = bytearray(self.cols * 8)
        self.bytes_rx = 0        # bytes received, one address byte per transaction included
        self.transactions = 0
        self.data_bytes = 0      # RAM bytes written
        self.resets = 0
        self.unknown = []        # (command byte, reason) the chip would not understand
        self.commands = []       # recent commands as tuples (command, args...)
        self._seed = 12345
        self.reset()

    # ---- chip state --------------------------------------------------------------

    def reset(self):
        """Power-on / RES# state: registers at datasheet defaults, RAM undefined."""
        self.resets += 1
        s = self._seed
        ram = self.ram
        for i in range(len(ram)):  # power-up RAM holds noise, not zeros
            s = (s * 1103515245 + 12345) & 0x7FFFFFFF
            ram[i] = (s >> 16) & 0xFF
        self._seed = s
        self.on = False
        self.contrast = 0x80 if self.kind == SH1106 else 0x7F
        self.pump = self.kind == SH1106  # SH1106 DC-DC is on after reset; SSD1306 pump off
        self.seg_remap = False
        self.com_rev = False
        self.mux = 63
        self.start_line = 0
        self.offset = 0
        self.inverse = False
        self.entire_on = False
        self.com_pins = 0x12
        self.mode = 2  # page addressing
        self.col = 0
        self.col_base = 0
        self.page = 0
        self.col_start = 0
        self.col_end = 127
        self.page_start = 0
        self.page_end = 7
        self.scrolling = False
        self._cmd = None     # command waiting for arguments
        self._args = []
        self._need = 0

    # ---- bus side ------------------------------------------------------------------

    def write(self, data):
        """One I2C write transaction addressed to the panel (address byte excluded)."""
        self.write_parts((data,))

    def write_parts(self, parts):
        """One transaction given in pieces (the I2C stand-in's writevto): read as the
        bytes of the pieces one after the other, without joining them, so a frame's
        write makes no copy on the heap (the device's C driver makes none either)."""
        self.transactions += 1
        self.bytes_rx += 1
        ctl = -1  # -1: a control byte comes next
        for data in parts:
            self.bytes_rx += len(data)
            for b in data:
                if ctl < 0:
                    ctl = b
                    if ctl & 0x3F:
                        self._note(ctl, "control byte with low bits set")
                    continue
                if ctl & 0x40:
                    self._data(b)
                else:
                    self._command_byte(b)
                if ctl & 0x80:  # Co set: one byte of this kind, then a control byte
                    ctl = -1

    def read(self, n):
        """Status byte reads (bit 6: display off)."""
        self.transactions += 1
        self.bytes_rx += 1
        st = 0x00 if self.on else 0x40
        return bytes([st] * n)

    def _note(self, c, why):
        if len(self.unknown) < _LOG_MAX:
            self.unknown.append((c, why))

    # ---- commands --------------------------------------------------------------------

    def _command_byte(self, c):
        if self._cmd is not None:
            self._args.append(c)
            if len(self._args) >= self._need:
                cmd = self._cmd
                args = self._args
                self._cmd = None
                self._args = []
                self._run(cmd, args)
            return
        table = _ARGS_SH1106 if self.kind == SH1106 else _ARGS_SSD1306
        need = table.get(c, 0)
        if need:
            self._cmd = c
            self._need = need
            self._args = []
        else:
            self._run(c, ())

    def _log(self, c, args):
        cmds = self.commands
        if len(cmds) >= 4 * _LOG_MAX:
            del cmds[:2 * _LOG_MAX]
        cmds.append((c,) + tuple(args))

    def _run(self, c, args):
        self._log(c, args)
        sh = self.kind == SH1106
        if c <= 0x0F:
            self._column(low=c)
        elif c <= 0x1F:
            self._column(high=c & 0x0F)
        elif 0x40 <= c <= 0x7F:
            self.start_line = c & 0x3F
        elif c == 0x81:
            self.contrast = args[0]
        elif c in (0xA0, 0xA1):
            self.seg_remap = c == 0xA1
        elif c in (0xA4, 0xA5):
            self.entire_on = c == 0xA5
        elif c in (0xA6, 0xA7):
            self.inverse = c == 0xA7
        elif c == 0xA8:
            if args[0] & 0x3F < 15:
                self._note(c, "multiplex ratio below 16")
            self.mux = args[0] & 0x3F
        elif c in (0xAE, 0xAF):
            self.on = c == 0xAF
        elif 0xB0 <= c <= 0xB7:
            if not sh and self.mode != 2:
                self._note(c, "page start in horizontal/vertical mode is ignored")
            else:
                self.page = c & 7
        elif 0xC0 <= c <= 0xCF:
            self.com_rev = bool(c & 0x08)
        elif c == 0xD3:
            self.offset = args[0] & 0x3F
        elif not sh and c == 0xDB and args[0] not in (0x00, 0x20, 0x30):
            # SSD1306 datasheet: VCOMH A[6:4] is 000b, 010b or 011b; others undefined.
            self._note(c, "VCOMH deselect level 0x%02X is not in the datasheet" % args[0])
        elif c == 0xD9 and not (args[0] & 0x0F and args[0] & 0xF0):
            self._note(c, "pre-charge phase of 0 clocks is invalid")
        elif c in (0xD5, 0xD9, 0xDB, 0xE3):
            pass  # timing and voltage levels: no visible effect in the model
        elif c == 0xDA:
            self.com_pins = args[0]
        elif sh and 0x30 <= c <= 0x33:
            pass  # pump voltage
        elif sh and c == 0xAD:
            self.pump = (args[0] & 0x01) == 1
        elif sh and c in (0xE0, 0xEE):
            pass  # read-modify-write
        elif not sh and c == 0x8D:
            self.pump = (args[0] & 0x04) != 0
        elif not sh and c == 0x20:
            self.mode = args[0] & 3
            if self.mode == 3:
                self._note(c, "invalid addressing mode 3")
        elif not sh and c == 0x21:
            self.col_start = args[0] & 0x7F
            self.col_end = args[1] & 0x7F
            self.col = self.col_start
        elif not sh and c == 0x22:
            self.page_start = args[0] & 7
            self.page_end = args[1] & 7
            self.page = self.page_start
        elif not sh and c in (0x26, 0x27, 0x29, 0x2A, 0xA3, 0xD6):
            pass  # scroll setup / zoom
        elif not sh and c in (0x2E, 0x2F):
            self.scrolling = c == 0x2F
        else:
            self._note(c, "not a %s command" % self.kind)

    def _column(self, low=None, high=None):
        if self.kind == SSD1306 and self.mode != 2:
            self._note(low if high is None else 0x10 | high,
                       "column start nibble in horizontal/vertical mode is ignored")
            return
        c = self.col_base
        if low is not None:
            c = (c & 0xF0) | low
        else:
            c = (c & 0x0F) | (high << 4)
        self.col_base = c
        self.col = c

    # ---- data ------------------------------------------------------------------------

    def _data(self, b):
        self.data_bytes += 1
        if self.kind == SH1106:
            if self.col < 132:
                self.ram[self.page * 132 + self.col] = b
                self.col += 1
            return
        self.ram[self.page * 128 + self.col] = b
        if self.mode == 2:
            self.col += 1
            if self.col > 127:
                self.col = self.col_base
        elif self.mode == 0:
            if self.col >= self.col_end:
                self.col = self.col_start
                self.page = self.page_start if self.page >= self.page_end else self.page + 1
            else:
                self.col += 1
        else:  # vertical
            if self.page >= self.page_end:
                self.page = self.page_start
                self.col = self.col_start if self.col >= self.col_end else self.col + 1
            else:
                self.page += 1

    # ---- what the viewer sees --------------------------------------------------------

    def lit(self):
        """True when the panel emits light at all."""
        return self.on and self.pump

    def _row_map(self):
        """For each screen row, the RAM row shown there (or -1: dark)."""
        h = self.height
        n = self.mux + 1
        rows = []
        for y in range(h):
            if self.com_rev:
                r = y + n - h
            else:
                r = h - 1 - y
            if r < 0 or r >= n:
                rows.append(-1)
            else:
                rows.append((r + self.start_line + self.offset) & 63)
        return rows

    def _col_map(self):
        off = 2 if self.kind == SH1106 else 0
        w = self.width
        if self.seg_remap:
            return [x + off for x in range(w)]
        return [w - 1 - x + off for x in range(w)]

    def frame(self, into=None):
        """What the panel shows, as MONO_VLSB bytes (width * height / 8). `into`: a
        bytearray of that size to fill and return instead, so a caller polling every
        frame (tools/sim/simrun.py) allocates nothing inside the firmware's fenced heap."""
        w = self.width
        pages = self.height // 8
        if into is None:
            out = bytearray(w * pages)
        else:
            out = into
            for i in range(len(out)):
                out[i] = 0
        done = bytes if into is None else _same
        if not self.lit():
            return done(out)
        if self.entire_on:
            for i in range(len(out)):
                out[i] = 0xFF
            return done(out)
        cols = self.cols
        ram = memoryview(self.ram)
        off = 2 if self.kind == SH1106 else 0
        plain = (self.mux + 1 == self.height and self.start_line == 0 and self.offset == 0)
        if plain and self.seg_remap and self.com_rev:
            for p in range(pages):
                out[p * w:(p + 1) * w] = ram[p * cols + off:p * cols + off + w]
        elif plain and not self.seg_remap and not self.com_rev:
            for p in range(pages):
                src = (pages - 1 - p) * cols + off
                for x in range(w):
                    out[p * w + x] = _REV[ram[src + w - 1 - x]]
        else:
            rows = self._row_map()
            cmap = self._col_map()
            for y in range(self.height):
                r = rows[y]
                if r < 0:
                    continue
                base = (r >> 3) * cols
                bit = 1 << (r & 7)
                obit = 1 << (y & 7)
                o = (y >> 3) * w
                for x in range(w):
                    if ram[base + cmap[x]] & bit:
                        out[o + x] |= obit
        if self.inverse:
            for i in range(len(out)):
                out[i] ^= 0xFF
        return done(out)

    def pixel(self, x, y):
        """1 when the viewer sees pixel (x, y) lit."""
        if not (0 <= x < self.width and 0 <= y < self.height):
            raise ValueError("pixel (%d, %d) is off the %dx%d panel" % (x, y, self.width, self.height))
        if not self.lit():
            return 0
        if self.entire_on:
            return 1
        r = self._row_map()[y]
        v = 0
        if r >= 0:
            c = self._col_map()[x]
            v = (self.ram[(r >> 3) * self.cols + c] >> (r & 7)) & 1
        return v ^ 1 if self.inverse else v

    def text(self, on="#", off="."):
        """The frame as lines of characters, for readable test failures."""
        f = self.frame()
        w = self.width
        lines = []
        for y in range(self.height):
            row = []
            o = (y >> 3) * w
            bit = 1 << (y & 7)
            for x in range(w):
                row.append(on if f[o + x] & bit else off)
            lines.append("".join(row))
        return "\n".join(lines)
