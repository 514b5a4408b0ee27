"""tools/flashing/wiring.py: a diagram per board profile whose wires are the profile's pins; the
committed SVGs are current; the PNG renders the same drawing."""
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

import wiring  # noqa: E402


def test_committed_svgs_are_current():
    res = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "flashing", "wiring.py"), "--check"],
                         capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert res.returncode == 0, res.stdout + res.stderr
    assert sorted(os.listdir(wiring.SVG_DIR)) == sorted(b + ".svg" for b in wiring.hardware_boards())


def test_reference_build_wires_follow_the_profile():
    p = wiring.load_profile("esp32_devkit")
    parts = dict(wiring.connections(p))
    oled = {pp: bp for pp, bp, _s, _n in parts["OLED SSD1306 128x64 I2C"]}
    assert oled == {"VCC": "3V3", "GND": "GND", "SDA": "GPIO%d" % p["I2C"]["sda"],
                    "SCL": "GPIO%d" % p["I2C"]["scl"]}
    for key, (pin, _pull) in p["BUTTONS"].items():
        assert parts["button " + key][0][1] == "GPIO%d" % pin
    assert parts["passive piezo"][0][1] == "GPIO%d" % p["BUZZER"]
    svg = wiring.to_svg("esp32_devkit")
    wires = sum(len(v) for v in parts.values())
    assert svg.count("<polyline") == wires
    for bp in wiring.board_pins(list(parts.items())):
        assert re.search(r">%s</text>" % bp, svg), bp


def test_onboard_parts_get_no_wires():
    parts = dict(wiring.connections(wiring.load_profile("heltec_wifi_kit_32_v3")))
    assert parts["OLED SSD1306 (on the board)"] == []
    assert parts["button BACK (on the board, GPIO0)"] == []
    assert parts["MPU6050 (GY-521)"][2][1] == "GPIO17"  # on the onboard OLED's bus


def test_png_renders(tmp_path):
    from PIL import Image

    res = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "flashing", "wiring.py"), "--png", "--out",
                          str(tmp_path), "lolin32_oled"], capture_output=True, text=True,
                         timeout=60, cwd=ROOT)
    assert res.returncode == 0, res.stderr
    w, h, _shapes = wiring.scene("lolin32_oled")
    img = Image.open(str(tmp_path / "lolin32_oled.png"))
    assert img.size == (w, h)
    # Wires are drawn: the SDA blue is in the picture.
    assert (0x1F, 0x77, 0xB4) in {c for _n, c in img.convert("RGB").getcolors(1 << 20)}
