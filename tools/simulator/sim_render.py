"""Turns an OLED frame (MONO_VLSB bytes) into terminal text, for tools/simulator/sim.py.

Modes, largest first; `pick_mode` takes the largest that fits the terminal:
  block2  2 columns x 1 row per pixel (full blocks)          UTF-8
  block1  1 column per pixel, 2 pixel rows per text row (half blocks ▀▄█)
  braille 2 x 4 pixels per character (full resolution in a quarter of the space)
  ascii2  like block2 with '#'
  ascii1  like block1 with  '"' (top) '.' (bottom) '#' (both)
  ascii0  2 x 4 pixels per character, shaded by how many are lit (lossy)
"""

UTF8_MODES = ("block2", "block1", "braille")
ASCII_MODES = ("ascii2", "ascii1", "ascii0")

# Columns and rows per pixel, as (num, den) so integer sizes stay exact.
_SCALE = {
    "block2": ((2, 1), (1, 1)),
    "block1": ((1, 1), (1, 2)),
    "braille": ((1, 2), (1, 4)),
    "ascii2": ((2, 1), (1, 1)),
    "ascii1": ((1, 1), (1, 2)),
    "ascii0": ((1, 2), (1, 4)),
}

_HALF = (" ", "\u2580", "\u2584", "\u2588")  # none, top, bottom, both
_HALF_ASCII = (" ", '"', ".", "#")
_SHADE = " ..::++##"  # by lit count 0-8
# Braille dot bits for (x, y) inside a 2x4 cell.
_BRAILLE = ((0x01, 0x08), (0x02, 0x10), (0x04, 0x20), (0x40, 0x80))


def text_size(mode, w, h):
    """(columns, rows) the picture takes in `mode` for a w x h panel."""
    (cn, cd), (rn, rd) = _SCALE[mode]
    return (w * cn + cd - 1) // cd, (h * rn + rd - 1) // rd


def pick_mode(cols, rows, w, h, utf8, chrome_cols=2, chrome_rows=4, force=None):
    """The largest mode whose picture plus `chrome` fits cols x rows (or the smallest)."""
    modes = UTF8_MODES if utf8 else ASCII_MODES
    if force:
        return force
    for m in modes:
        tc, tr = text_size(m, w, h)
        if tc + chrome_cols <= cols and tr + chrome_rows <= rows:
            return m
    return modes[-1]


def pixels(frame, w, h):
    """Rows of 0/1 from a MONO_VLSB frame (bytes of w * h / 8)."""
    out = []
    for y in range(h):
        page = (y >> 3) * w
        bit = 1 << (y & 7)
        out.append([1 if frame[page + x] & bit else 0 for x in range(w)])
    return out


def render(frame, w, h, mode):
    """The picture as a list of strings, one per text row."""
    px = pixels(frame, w, h)
    lines = []
    if mode in ("block2", "ascii2"):
        on = "\u2588\u2588" if mode == "block2" else "##"
        for row in px:
            lines.append("".join(on if p else "  " for p in row))
    elif mode in ("block1", "ascii1"):
        glyphs = _HALF if mode == "block1" else _HALF_ASCII
        for y in range(0, h, 2):
            top = px[y]
            bot = px[y + 1] if y + 1 < h else [0] * w
            lines.append("".join(glyphs[top[x] | (bot[x] << 1)] for x in range(w)))
    else:
        for y in range(0, h, 4):
            chars = []
            for x in range(0, w, 2):
                bits = 0
                lit = 0
                for dy in range(4):
                    if y + dy >= h:
                        break
                    row = px[y + dy]
                    for dx in range(2):
                        if x + dx < w and row[x + dx]:
                            bits |= _BRAILLE[dy][dx]
                            lit += 1
                if mode == "braille":
                    chars.append(chr(0x2800 + bits) if bits else " ")
                else:
                    chars.append(_SHADE[lit])
            lines.append("".join(chars))
    return lines


def unrender(lines, w, h, mode):
    """Pixels back from block1/block2/ascii1/ascii2/braille text (for tests); ascii0 is
    lossy and not supported."""
    px = [[0] * w for _ in range(h)]
    if mode in ("block2", "ascii2"):
        for y in range(h):
            line = lines[y] if y < len(lines) else ""
            for x in range(w):
                ch = line[2 * x] if 2 * x < len(line) else " "
                px[y][x] = 0 if ch == " " else 1
    elif mode in ("block1", "ascii1"):
        glyphs = _HALF if mode == "block1" else _HALF_ASCII
        for r in range(0, (h + 1) // 2):
            line = lines[r] if r < len(lines) else ""
            for x in range(w):
                ch = line[x] if x < len(line) else " "
                v = glyphs.index(ch) if ch in glyphs else 0
                px[2 * r][x] = v & 1
                if 2 * r + 1 < h:
                    px[2 * r + 1][x] = v >> 1
    elif mode == "braille":
        for r in range(0, (h + 3) // 4):
            line = lines[r] if r < len(lines) else ""
            for c in range(0, (w + 1) // 2):
                ch = line[c] if c < len(line) else " "
                bits = ord(ch) - 0x2800 if "\u2800" <= ch <= "\u28ff" else 0
                for dy in range(4):
                    for dx in range(2):
                        y, x = 4 * r + dy, 2 * c + dx
                        if y < h and x < w and bits & _BRAILLE[dy][dx]:
                            px[y][x] = 1
    else:
        raise ValueError("cannot read pixels back from mode " + mode)
    return px
