"""Drawing helpers for the 128x64 screen, on any framebuf-like object.

Only these FrameBuffer methods are used: fill, pixel, fill_rect, rect, hline, vline.
Nothing here allocates while drawing (str iteration of ASCII text does not allocate
under MicroPython), so screens may redraw every frame during animations.

Stable API (the Frenzy screens use it too):
  SMALL, MEDIUM             fonts: (data, widths, height); SMALL is 5 px high (line
                            pitch 6), MEDIUM 7 px (pitch 9). Upper case only: lower
                            case letters are drawn upper case. In SMALL, '@' is a pawn.
                            In MEDIUM, '^' is a multiplication cross (for "2^" = 2x).
                            MEDIUM at scale 2: the 10x14 digits of the big numbers.
  text(fb, s, x, y, c=1, f=SMALL, scale=1) -> x after the text (draws s: str or bytes)
  width(s, f=SMALL, scale=1) -> pixel width of s (no trailing gap)
  center(fb, s, y, c=1, f=SMALL, scale=1, x0=0, w=128) -> left x used
  right(fb, s, xr, y, c=1, f=SMALL, scale=1) -> left x used (text ends at xr - 1)
  label(fb, s, x, y, f=SMALL) -> width; inverted text on a filled box (1 px margin)
  banner(fb, s, y, f=MEDIUM, h=0) full-width inverted bar, text centred (h=0: fit font)
  box(fb, x, y, w, h, c=1) outline with rounded (cut) corners
  die(fb, x, y, v, size=DIE_L, inv=False) a die: v 1-6 pips, 7 "2x" (the Common
                            Die's 2X), 8 "W" (WILD), 0 blank, anything else "?"; inv = filled
                            (white die, black pips: the "set aside" look)
  DIE_L = 17                the large die's size (square); a smaller size gets the
                            small die's pip layout (made for 12 px)
  caret(fb, x, y, w) selection cursor: an up-pointing 5x3 triangle centred in w at y
  arrow(fb, x, y, c=1) right-pointing 3x5 triangle (menu cursor) with top-left (x, y)
"""
from core.dice import TWOX, WILD
from ui import font

from micropython import const

_W = const(128)  # screen width (height 64)
SMALL = (font.SMALL, font.SMALL_W, 5)
MEDIUM = (font.MEDIUM, font.MEDIUM_W, 7)
DIE_L = const(17)  # the large die's size, die()'s default

# Pip layouts per face: bits 0 TL, 1 TR, 2 ML, 3 MR, 4 BL, 5 BR, 6 centre; per bit the
# pip's place, column << 4 | row (0 near edge, 1 middle, 2 far edge).
_PIPS = b"\x00\x40\x12\x52\x33\x73\x3f"
_PIP_AT = b"\x00\x20\x01\x21\x02\x22\x11"


def bind(fb, buf):
    """Text on `fb` is drawn straight into `buf`, its bytes (a 128-wide MONO_VLSB
    framebuf: the display's): a glyph column is one or two byte operations instead of
    a fill_rect per run of pixels, about 3x less time a character (tools/bench/bench.py,
    the frame model). Same pixels: host_tests/test_gfx.py."""
    _target[0] = fb
    _target[1] = buf


_target = [None, None]  # bind(): the framebuf whose bytes text() may write, and the bytes


def width(s, f=SMALL, scale=1):
    widths = f[1]
    x = 0
    raw = not isinstance(s, str)  # bytes: ints already
    for ch in s:
        o = ch if raw else ord(ch)
        if 97 <= o <= 122:
            o -= 32
        w = widths[o - 32] if 32 <= o <= 95 else 0
        x += ((w or widths[31]) + 1) * scale
    return x - scale if x else 0  # no gap after the last glyph


def text(fb, s, x, y, c=1, f=SMALL, scale=1):
    """Draws s at (x, y) -> x after it (and its 1-column gap); fb None: only measures."""
    if fb is None:
        return x + width(s, f, scale) + (scale if s else 0)
    data, widths, h = f
    buf = _target[1] if fb is _target[0] and scale == 1 and y >= 0 else None
    page = sh = 0
    inpage = whole = False  # whole: each glyph's rows on the screen (else fill_rect clips)
    if buf is not None:
        page = (y >> 3) << 7
        n = len(buf)
        sh = y & 7
        inpage = sh + h <= 8  # the glyphs' rows in one page (most lines): a byte a column
        whole = page < n and (inpage or page + 128 < n)
    raw = not isinstance(s, str)  # bytes: ints already
    for ch in s:
        o = ch if raw else ord(ch)
        if 97 <= o <= 122:
            o -= 32  # lower case is drawn upper case
        i = o - 32 if 32 <= o <= 95 else 31  # no glyph: '?'
        w = widths[i]
        if not w:
            i = 31
            w = widths[31]
        base = i * 5
        if buf is not None and whole and x >= 0 and x + w <= 128:
            # The glyph whole on the screen: a byte a column (two where its rows cross
            # into the page below). A glyph the screen's edge cuts takes fill_rect's
            # path below, which clips (the same pixels: host_tests/test_gfx.py).
            at = page + x
            if inpage and c:
                for k in range(base, base + w):
                    buf[at] |= data[k] << sh
                    at += 1
            elif inpage:
                for k in range(base, base + w):
                    buf[at] &= ~(data[k] << sh)
                    at += 1
            elif c:
                for k in range(base, base + w):
                    bits = data[k] << sh
                    buf[at] |= bits & 255
                    buf[at + 128] |= bits >> 8
                    at += 1
            else:
                for k in range(base, base + w):
                    bits = data[k] << sh
                    buf[at] &= ~bits
                    buf[at + 128] &= ~(bits >> 8)
                    at += 1
            x += w + 1
            continue
        for col in range(w):
            bits = data[base + col]
            yy = y
            while bits:
                if bits & 1:
                    run = 0
                    while bits & 1:
                        run += 1
                        bits >>= 1
                    fb.fill_rect(x, yy, scale, run * scale, c)
                    yy += run * scale
                else:
                    bits >>= 1
                    yy += scale
            x += scale
        x += scale
    return x


def center(fb, s, y, c=1, f=SMALL, scale=1, x0=0, w=_W):
    x = x0 + (w - width(s, f, scale)) // 2
    text(fb, s, x, y, c, f, scale)
    return x


def right(fb, s, xr, y, c=1, f=SMALL, scale=1):
    x = xr - width(s, f, scale)
    text(fb, s, x, y, c, f, scale)
    return x






def label(fb, s, x, y, f=SMALL):
    w = width(s, f) + 2
    fb.fill_rect(x, y, w, f[2] + 2, 1)
    text(fb, s, x + 1, y + 1, 0, f)
    return w


def banner(fb, s, y, f=MEDIUM, h=0):
    if not h:
        h = f[2] + 4
    fb.fill_rect(0, y, _W, h, 1)
    center(fb, s, y + (h - f[2]) // 2, 0, f)


def box(fb, x, y, w, h, c=1):
    fb.hline(x + 1, y, w - 2, c)
    fb.hline(x + 1, y + h - 1, w - 2, c)
    fb.vline(x, y + 1, h - 2, c)
    fb.vline(x + w - 1, y + 1, h - 2, c)


def die(fb, x, y, v, size=DIE_L, inv=False):
    fg = 0 if inv else 1
    bg = 1 - fg
    fb.fill_rect(x + 1, y + 1, size - 2, size - 2, bg)
    box(fb, x, y, size, size, 1)
    if 1 <= v <= 6:
        # Pip size, the first pip's offset and the pitch: 3, 3, 4 on the large die
        # (pips at 3, 7, 11), 2, 2, 3 on the small one (2, 5, 8).
        p = 3 if size >= DIE_L else 2
        bits = _PIPS[v]
        for i in range(7):
            if bits >> i & 1:
                at = _PIP_AT[i]
                fb.fill_rect(x + p + (at >> 4) * (p + 1), y + p + (at & 15) * (p + 1),
                             p, p, fg)
        return
    if v == 0:
        return
    s = "2^" if v == TWOX else ("W" if v == WILD else "?")
    f = MEDIUM if size >= DIE_L else SMALL
    if v == TWOX and f is SMALL:
        s = "2X"
    tw = width(s, f)
    text(fb, s, x + (size - tw) // 2, y + (size - f[2]) // 2, fg, f)




def caret(fb, x, y, w):
    cx = x + w // 2
    fb.pixel(cx, y, 1)
    fb.hline(cx - 1, y + 1, 3, 1)
    fb.hline(cx - 2, y + 2, 5, 1)


def arrow(fb, x, y, c=1):
    fb.vline(x, y, 5, c)
    fb.vline(x + 1, y + 1, 3, c)
    fb.pixel(x + 2, y + 2, c)
