"""Wiring diagrams drawn from the board profiles: the board's header pins in use, the
OLED, MPU6050, buttons, piezo and battery divider, and a wire for each connection.

Usage:
  python tools/flashing/wiring.py                    # boards/wiring/<board>.svg (committed)
  python tools/flashing/wiring.py --png --out build/wiring   # SVG and PNG (pillow) there
  python tools/flashing/wiring.py --check            # exit 1 when a committed SVG is stale

The drawing is a list of shapes (boxes, wires, dots, labels) made once from the profile
and written either as SVG text or, with pillow, as a PNG: one layout, two renderers.
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import build as buildmod  # noqa: E402

ROOT = buildmod.ROOT
SVG_DIR = os.path.join(ROOT, "boards", "wiring")
# Wire colours by signal, as on a breadboard: red supply, black ground.
COLOURS = {"3V3": "#d62728", "GND": "#222222", "SDA": "#1f77b4", "SCL": "#e6a700",
           "GPIO": "#2ca02c", "BAT": "#9467bd"}
ROW = 22  # px between pins
CHAR_W = 7  # px per character of the 12 px monospace labels (layout estimate)


load_profile = buildmod.profile


def connections(p):
    """[(part, [(part pin, board pin, signal, note)])] of what the hobbyist wires. Parts
    the board carries itself (its OLED, a PRG button) are listed with no wires."""
    fixed = p.get("FIXED") or {}
    i2c = p["I2C"]
    sda, scl = "GPIO%d" % i2c["sda"], "GPIO%d" % i2c["scl"]
    parts = []
    disp = p["DISPLAY"]
    if i2c["sda"] in fixed:
        parts.append(("OLED %s (on the board)" % disp["type"].upper(), []))
    else:
        parts.append(("OLED %s 128x64 I2C" % disp["type"].upper(), [
            ("VCC", "3V3", "3V3", ""), ("GND", "GND", "GND", ""),
            ("SDA", sda, "SDA", "0x%02X" % disp["addr"]), ("SCL", scl, "SCL", "")]))
    shake = p.get("SHAKE") or {}
    if shake.get("type") in ("mpu6050", "mpu6886", "lis3dh"):
        name = {"mpu6050": "MPU6050 (GY-521)", "mpu6886": "MPU6886",
                "lis3dh": "LIS3DH"}[shake["type"]]
        pins = [("VCC", "3V3", "3V3", ""), ("GND", "GND", "GND", ""),
                ("SDA", sda, "SDA", "0x%02X" % shake["addr"]), ("SCL", scl, "SCL", "")]
        if shake["type"] == "mpu6050":
            pins.append(("AD0", "GND", "GND", "0x68"))
        parts.append((name, pins))
    elif shake.get("type") == "switch":
        parts.append(("shake switch", [("1", "GPIO%d" % shake["pin"], "GPIO", ""),
                                       ("2", "GND", "GND", "")]))
    for key in ("PREV", "NEXT", "OK", "BACK"):
        if key not in p["BUTTONS"]:
            continue
        pin = p["BUTTONS"][key][0]
        if pin in fixed:
            parts.append(("button %s (on the board, GPIO%d)" % (key, pin), []))
        else:
            parts.append(("button %s" % key, [("1", "GPIO%d" % pin, "GPIO", ""),
                                               ("2", "GND", "GND", "")]))
    if p.get("BUZZER") is not None:
        parts.append(("passive piezo", [("+", "GPIO%d" % p["BUZZER"], "GPIO", "via 100R"),
                                        ("-", "GND", "GND", "")]))
    bat = p.get("BATTERY")
    if bat:
        parts.append(("battery divider", [("mid", "GPIO%d" % bat["pin"], "BAT",
                                           "x%.2f" % (bat["divider_x100"] / 100.0)),
                                          ("low", "GND", "GND", "")]))
    return parts


def board_pins(parts):
    """The board's pins in use, supply first, then by GPIO number."""
    seen = []
    for _name, pins in parts:
        for _pp, bp, _sig, _note in pins:
            if bp not in seen:
                seen.append(bp)

    def key(bp):
        if bp == "3V3":
            return (0, 0)
        if bp == "GND":
            return (1, 0)
        return (2, int(bp[4:]))
    return sorted(seen, key=key)


def scene(board):
    """The drawing: (width, height, shapes). Shapes: ("box", x, y, w, h, fill),
    ("wire", [(x, y), ...], colour), ("dot", x, y, colour), ("text", x, y, s, size,
    anchor) with anchor "start" | "end" | "middle"."""
    p = load_profile(board)
    parts = connections(p)
    pins = board_pins(parts)
    shapes = []
    title = "%s  -  %s" % (p["NAME"], board)
    shapes.append(("text", 20, 28, title, 16, "start"))
    top = 60
    bx, bw = 20, 150
    bh = max(len(pins), 1) * ROW + 40
    shapes.append(("box", bx, top, bw, bh, "#e8f0e8"))
    shapes.append(("text", bx + bw // 2, top + 18, p["NAME"], 12, "middle"))
    pin_y = {}
    for i, bp in enumerate(pins):
        y = top + 40 + i * ROW
        pin_y[bp] = y
        shapes.append(("text", bx + bw - 8, y + 4, bp, 12, "end"))
        shapes.append(("dot", bx + bw, y, "#000000"))
    lane0 = bx + bw + 30
    lane = {bp: lane0 + i * 14 for i, bp in enumerate(pins)}
    px = lane0 + len(pins) * 14 + 30
    y = top
    pw = 16 + CHAR_W * max(len(n) for n, _ in parts)
    for name, ppins in parts:
        h = 26 + ROW * len(ppins) if ppins else 28
        shapes.append(("box", px, y, pw, h, "#f4f4f4" if ppins else "#ffffff"))
        shapes.append(("text", px + 8, y + 17, name, 12, "start"))
        for j, (pp, bp, sig, note) in enumerate(ppins):
            py = y + 26 + ROW * j + 8
            colour = COLOURS[sig]
            shapes.append(("wire", [(bx + bw, pin_y[bp]), (lane[bp], pin_y[bp]),
                                    (lane[bp], py), (px, py)], colour))
            shapes.append(("dot", lane[bp], pin_y[bp], colour))
            shapes.append(("dot", px, py, colour))
            label = pp + ("  " + note if note else "")
            shapes.append(("text", px + 8, py + 4, label, 12, "start"))
        y += h + 10
    width = px + pw + 20
    height = max(y, top + bh) + 20
    return width, height, shapes


def _esc(s):
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def to_svg(board):
    w, h, shapes = scene(board)
    out = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" '
           'viewBox="0 0 %d %d" font-family="monospace">' % (w, h, w, h),
           "<!-- Generated by tools/flashing/wiring.py from boards/%s.py: do not edit. -->" % board,
           '<rect width="%d" height="%d" fill="#ffffff"/>' % (w, h)]
    for s in shapes:
        if s[0] == "box":
            out.append('<rect x="%d" y="%d" width="%d" height="%d" rx="4" fill="%s" '
                       'stroke="#555555"/>' % s[1:])
        elif s[0] == "wire":
            pts = " ".join("%d,%d" % xy for xy in s[1])
            out.append('<polyline points="%s" fill="none" stroke="%s" stroke-width="2"/>'
                       % (pts, s[2]))
        elif s[0] == "dot":
            out.append('<circle cx="%d" cy="%d" r="3" fill="%s"/>' % s[1:])
        else:
            _k, x, y, text, size, anchor = s
            out.append('<text x="%d" y="%d" font-size="%d" text-anchor="%s">%s</text>'
                       % (x, y, size, anchor, _esc(text)))
    out.append("</svg>")
    return "\n".join(out) + "\n"


def to_png(board, path):
    from PIL import Image, ImageDraw, ImageFont

    w, h, shapes = scene(board)
    img = Image.new("RGB", (w, h), "#ffffff")
    d = ImageDraw.Draw(img)
    fonts = {}
    for s in shapes:
        if s[0] == "box":
            _k, x, y, bw, bh, fill = s
            d.rounded_rectangle([x, y, x + bw, y + bh], 4, fill=fill, outline="#555555")
        elif s[0] == "wire":
            d.line(s[1], fill=s[2], width=2)
        elif s[0] == "dot":
            _k, x, y, c = s
            d.ellipse([x - 3, y - 3, x + 3, y + 3], fill=c)
        else:
            _k, x, y, text, size, anchor = s
            if size not in fonts:
                fonts[size] = ImageFont.load_default(size)
            a = {"start": "ls", "end": "rs", "middle": "ms"}[anchor]
            d.text((x, y), text, fill="#000000", font=fonts[size], anchor=a)
    img.save(path)


hardware_boards = buildmod.hardware_boards


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", default=SVG_DIR, help="folder (default boards/wiring)")
    ap.add_argument("--png", action="store_true", help="also write PNGs (needs pillow)")
    ap.add_argument("--check", action="store_true", help="exit 1 when a committed SVG is stale")
    ap.add_argument("boards", nargs="*", help="default: every hardware profile")
    args = ap.parse_args(argv)
    boards = args.boards or hardware_boards()
    if args.check:
        stale = []
        for b in boards:
            path = os.path.join(SVG_DIR, b + ".svg")
            try:
                with open(path) as f:
                    ok = f.read() == to_svg(b)
            except OSError:
                ok = False
            if not ok:
                stale.append(path)
                print("stale: %s (run python tools/flashing/wiring.py)" % os.path.relpath(path, ROOT))
        return 1 if stale else 0
    os.makedirs(args.out, exist_ok=True)
    for b in boards:
        path = os.path.join(args.out, b + ".svg")
        with open(path, "w") as f:
            f.write(to_svg(b))
        print("wrote %s" % os.path.relpath(path, ROOT))
        if args.png:
            png = os.path.join(args.out, b + ".png")
            to_png(b, png)
            print("wrote %s" % os.path.relpath(png, ROOT))
    return 0


if __name__ == "__main__":
    sys.exit(main())
