# portable: runs under MicroPython too
"""ui.gfx.text's direct path (a bound framebuf: glyph columns written into its bytes)
draws exactly the pixels of the fill_rect path, for every glyph of both fonts, in both
colours, at every row offset, clipped at each edge, over a background that is neither
blank nor full; and width() agrees with what text() advances."""
import framebuf

from ui import gfx

W = 128
H = 64


def _pair():
    a = bytearray(W * H // 8)
    b = bytearray(W * H // 8)
    for i in range(len(a)):
        a[i] = b[i] = (i * 37 + 11) & 255  # a pattern: set and cleared bits to keep
    fa = framebuf.FrameBuffer(a, W, H, framebuf.MONO_VLSB)
    fb = framebuf.FrameBuffer(b, W, H, framebuf.MONO_VLSB)
    return a, fa, b, fb


def _all_glyphs():
    return bytes(range(32, 96)) + b"az{~\x7f"  # lower case and codes without a glyph


def test_direct_text_same_pixels():
    a, fa, b, fb = _pair()
    gfx.bind(fb, b)
    try:
        s = _all_glyphs()
        for f in (gfx.SMALL, gfx.MEDIUM):
            for y in (0, 1, 3, 5, 7, 8, 13, 23, 31, 56, 58, 60, 63, 64, 70):
                for c in (1, 0):
                    for x in (-7, -1, 0, 2, 100, 125):
                        ra = gfx.text(fa, s[:22] if x > 50 else s, x, y, c, f)
                        rb = gfx.text(fb, s[:22] if x > 50 else s, x, y, c, f)
                        assert ra == rb, (ra, rb)
                        assert a == b, "differs: font h %d, x %d, y %d, c %d" % (f[2], x, y, c)
            # Negative rows and scale 2 take the fill_rect path on both.
            gfx.text(fa, s, 0, -3, 1, f, 2)
            gfx.text(fb, s, 0, -3, 1, f, 2)
            assert a == b
        gfx.center(fa, "OK ON A DIE: KEEP / UNKEEP", 56)
        gfx.center(fb, "OK ON A DIE: KEEP / UNKEEP", 56)
        gfx.label(fa, "GREEN", 3, 9)
        gfx.label(fb, "GREEN", 3, 9)
        assert a == b
        assert any(a), "nothing was drawn"
    finally:
        gfx.bind(None, None)


def test_width_is_the_advance():
    for f in (gfx.SMALL, gfx.MEDIUM):
        for s in ("", "A", "OK: START", "x?{", _all_glyphs()):
            for scale in (1, 2):
                end = gfx.text(None, s, 5, 0, 1, f, scale)
                w = gfx.width(s, f, scale)
                assert end == 5 + (w + scale if s else 0), (s, scale, end, w)
                assert (w > 0) == bool(s)
