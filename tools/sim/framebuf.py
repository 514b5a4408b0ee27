"""A CPython stand-in for MicroPython's built-in `framebuf` (host only).

The MicroPython unix port has the real module built in and never imports this file
(`framebuf` is not an extensible built-in, so a framebuf.py on sys.path does not shadow
it). On CPython it lets the firmware and the drivers run: FrameBuffer over a caller's
buffer in MONO_VLSB, MONO_HLSB or MONO_HMSB with pixel, fill, fill_rect, hline, vline,
rect, line, blit, scroll and text.

Difference from the real module: text() has no 8x8 font here; it draws each non-space
character as a hollow 6x7 box in its 8x8 cell (golden frames with fb.text() are only
exact under MicroPython).
"""

MONO_VLSB = 0
MVLSB = 0
RGB565 = 1
GS4_HMSB = 2
MONO_HLSB = 3
MONO_HMSB = 4
GS2_HMSB = 5
GS8 = 6


class FrameBuffer:
    def __init__(self, buf, width, height, format, stride=None):
        if format not in (MONO_VLSB, MONO_HLSB, MONO_HMSB):
            raise ValueError("this stand-in supports the 1-bit formats only")
        self.buf = buf
        self.width = width
        self.height = height
        self.format = format
        self.stride = width if stride is None else stride
        need = (self.stride * ((height + 7) // 8) if format == MONO_VLSB
                else ((self.stride + 7) // 8) * height)
        if len(buf) < need:
            raise ValueError("buffer too small")

    # ---- pixels ----

    def _get(self, x, y):
        if self.format == MONO_VLSB:
            return (self.buf[(y >> 3) * self.stride + x] >> (y & 7)) & 1
        i = (y * ((self.stride + 7) // 8)) + (x >> 3)
        bit = (7 - (x & 7)) if self.format == MONO_HLSB else (x & 7)
        return (self.buf[i] >> bit) & 1

    def _set(self, x, y, c):
        if self.format == MONO_VLSB:
            i = (y >> 3) * self.stride + x
            m = 1 << (y & 7)
        else:
            i = (y * ((self.stride + 7) // 8)) + (x >> 3)
            m = 1 << ((7 - (x & 7)) if self.format == MONO_HLSB else (x & 7))
        if c & 1:
            self.buf[i] |= m
        else:
            self.buf[i] &= ~m & 0xFF

    def pixel(self, x, y, c=None):
        if not (0 <= x < self.width and 0 <= y < self.height):
            return None
        if c is None:
            return self._get(x, y)
        self._set(x, y, c)
        return None

    # ---- shapes ----

    def fill(self, c):
        if self.format == MONO_VLSB and self.stride == self.width:
            v = 0xFF if c & 1 else 0
            n = self.width * ((self.height + 7) // 8)
            self.buf[0:n] = bytes((v,)) * n
        else:
            self.fill_rect(0, 0, self.width, self.height, c)

    def fill_rect(self, x, y, w, h, c):
        x0 = max(0, x)
        y0 = max(0, y)
        x1 = min(self.width, x + w)
        y1 = min(self.height, y + h)
        if x0 >= x1 or y0 >= y1:
            return
        if self.format != MONO_VLSB:
            for yy in range(y0, y1):
                for xx in range(x0, x1):
                    self._set(xx, yy, c)
            return
        buf = self.buf
        st = self.stride
        yy = y0
        while yy < y1:
            page = yy >> 3
            top = yy & 7
            bot = min(8, top + (y1 - yy))
            m = ((1 << bot) - 1) & ~((1 << top) - 1)
            base = page * st
            if c & 1:
                for xx in range(x0, x1):
                    buf[base + xx] |= m
            else:
                nm = ~m & 0xFF
                for xx in range(x0, x1):
                    buf[base + xx] &= nm
            yy += bot - top

    def hline(self, x, y, w, c):
        self.fill_rect(x, y, w, 1, c)

    def vline(self, x, y, h, c):
        self.fill_rect(x, y, 1, h, c)

    def rect(self, x, y, w, h, c, f=False):
        if f:
            self.fill_rect(x, y, w, h, c)
            return
        self.fill_rect(x, y, w, 1, c)
        self.fill_rect(x, y + h - 1, w, 1, c)
        self.fill_rect(x, y, 1, h, c)
        self.fill_rect(x + w - 1, y, 1, h, c)

    def line(self, x0, y0, x1, y1, c):
        dx = abs(x1 - x0)
        dy = -abs(y1 - y0)
        sx = 1 if x0 < x1 else -1
        sy = 1 if y0 < y1 else -1
        err = dx + dy
        while True:
            self.pixel(x0, y0, c)
            if x0 == x1 and y0 == y1:
                return
            e2 = 2 * err
            if e2 >= dy:
                err += dy
                x0 += sx
            if e2 <= dx:
                err += dx
                y0 += sy

    def blit(self, src, x, y, key=-1, palette=None):
        if isinstance(src, tuple):
            src = FrameBuffer(*src)
        for sy in range(src.height):
            ty = y + sy
            if not 0 <= ty < self.height:
                continue
            for sx in range(src.width):
                tx = x + sx
                if not 0 <= tx < self.width:
                    continue
                c = src._get(sx, sy)
                if palette is not None:
                    c = palette._get(c, 0)
                if c != key:
                    self._set(tx, ty, c)

    def scroll(self, xstep, ystep):
        w, h = self.width, self.height
        old = [[self._get(x, y) for x in range(w)] for y in range(h)]
        for y in range(h):
            for x in range(w):
                sx, sy = x - xstep, y - ystep
                if 0 <= sx < w and 0 <= sy < h:
                    self._set(x, y, old[sy][sx])

    def text(self, s, x, y, c=1):
        for i, ch in enumerate(str(s)):
            if ch != " ":
                self.rect(x + i * 8, y, 6, 7, c)
