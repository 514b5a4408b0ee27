"""The page's app icon (tools/web/web_build.py): two of the firmware's own dice, drawn by
firmware/ui/gfx.py's die() into a 32 x 32 panel of lit and dark OLED pixels, each pixel
a square of the icon, written as a PNG (the standard library's zlib: no image package).

    python tools/web/web_icon.py OUT.png [SIZE]     one icon (SIZE a multiple of 32)
"""
import os
import struct
import sys
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))

SIDE = 32  # the icon's panel, in OLED pixels
LIT = (222, 240, 255)  # web/pd.js's PIXEL_ON and PIXEL_OFF: the page's panel colours
DARK = (6, 10, 16)


def panel(root=ROOT):
    """The icon's pixels: SIDE rows of SIDE 0/1 values, drawn by the firmware's gfx on
    the host's framebuf stand-in (tools/sim/framebuf.py; the unix port's built-in one
    draws the same rectangles)."""
    for p in (os.path.join(root, "tools", "sim"), os.path.join(root, "firmware")):
        if p not in sys.path:
            sys.path.insert(0, p)
    import framebuf
    from ui import gfx
    buf = bytearray(SIDE * SIDE // 8)
    fb = framebuf.FrameBuffer(buf, SIDE, SIDE, framebuf.MONO_VLSB)
    # A five on a light die, a three set aside (the "kept" look) in front of it: both
    # large dice, as the games draw them.
    gfx.die(fb, 2, 3, 5)
    gfx.die(fb, 13, 12, 3, inv=True)
    return [[buf[(y >> 3) * SIDE + x] >> (y & 7) & 1 for x in range(SIDE)]
            for y in range(SIDE)]


def png(pixels, size):
    """PNG bytes of the 0/1 pixels scaled up to size x size (a whole multiple)."""
    k = size // len(pixels)
    if k * len(pixels) != size:
        raise ValueError("icon size %d is no multiple of %d" % (size, len(pixels)))
    rows = []
    for row in pixels:
        line = b"".join(bytes(LIT if v else DARK) * k for v in row)
        rows.extend([b"\0" + line] * k)  # filter 0 (none) on every row

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(
            ">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    head = struct.pack(">IIBBBBB", size, size, 8, 2, 0, 0, 0)  # 8-bit RGB
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", head)
            + chunk(b"IDAT", zlib.compress(b"".join(rows), 9)) + chunk(b"IEND", b""))


def write(path, size, root=ROOT):
    with open(path, "wb") as f:
        f.write(png(panel(root), size))


if __name__ == "__main__":
    write(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 512)
