"""`make device-report PORT=...` (tools/bench/device_report.py) against the emulated board:
a fresh flash, `make deploy`, then the report over mpremote. Every checkpoint's heap,
the frame times by scene, the I2C clock and the flash's free blocks come back in the
bench's table format, and the player's files are left as they were."""
import os
import subprocess

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

import device_report  # noqa: E402
import emu_control  # noqa: E402
import emu_flash  # noqa: E402
import emuboard  # noqa: E402

# What an ESP32 prints (the shape of py/gc.c:1265-1290 at v1.28.0: the GC line with the
# split heap's max new split, then a layout line per area), around two R lines.
ESP32_OUT = """mem: total=1, current=1, peak=1
stack: 736 out of 15360
GC: total: 112000, used: 60112, free: 51888, max new split: 40960
 No. of 1-blocks: 100, 2-blocks: 20, max blk sz: 40, max free sz: 3000
GC memory layout; from 3ffc4000:
00000000: h=hhBh==h=======
GC memory layout; from 3ffe0000:
00000000: ST..............
R heap menu 60112 92848
GC: total: 56000, used: 20000, free: 36000, max new split: 98304
 No. of 1-blocks: 1, 2-blocks: 2, max blk sz: 3, max free sz: 2000
GC memory layout; from 3ffc4000:
00000000: h=hhBh==h=======
R heap boot 20000 134304
R frame menu/menu 90 2100 9000
R i2c 0 I2C(0,scl=22,sda=21,freq=400000)
R flash 4096 448 430
R done 1
"""


def test_parse_reads_the_esp32s_lines():
    got = device_report.parse(ESP32_OUT)
    menu, boot = got["heap"]["menu"], got["heap"]["boot"]
    assert (menu["areas"], menu["total"], menu["used"], menu["split"]) == (2, 112000, 60112,
                                                                           40960)
    assert menu["largest"] == 3000 * 16
    assert (boot["areas"], boot["total"], boot["split"]) == (1, 56000, 98304)
    assert got["frame"] == [("menu/menu", 90, 2100, 9000)]
    text = device_report.table(got, "/dev/ttyUSB0", "esp32_devkit", False)
    assert "| heap in the menu: areas, pools (GC total) | 2 areas, 112000 B |" in text
    assert "| I2C clock in use (I2C(0,scl=22,sda=21,freq=400000)) | 400000 Hz |" in text
    assert "430 of 448 blocks of 4096 B" in text


@pytest.mark.slow
def test_device_report_on_the_emulated_board(tmp_path):
    image = str(tmp_path / "flash.img")
    with emuboard.EmuBoard(image=image, ctl_dir=str(tmp_path / "ctl")) as b:
        res = subprocess.run(["make", "-s", "deploy", "BOARD=sim", "PORT=" + b.port],
                             cwd=ROOT, capture_output=True, text=True, timeout=300)
        assert res.returncode == 0, res.stdout + res.stderr
        # The deploy's reset boots the firmware: mpremote's Ctrl-C reaches it once it runs
        # (a person runs the report on a board that has booted, too).
        emu_control.EmuControl(str(tmp_path / "ctl")).wait_ready(30)
        before = emu_flash.image_files(image)
        res = subprocess.run(["make", "-s", "device-report", "PORT=" + b.port, "BOARD=sim",
                              "QUICK=1"], cwd=ROOT, capture_output=True, text=True,
                             timeout=300)
        assert res.returncode == 0, res.stdout + res.stderr
    text = res.stdout
    assert text.startswith("# Pocket Dice: device report"), text
    for tag, what in device_report.CHECKPOINTS:
        assert "| heap %s: areas, pools (GC total) | " % what in text, (what, text)
        assert "| heap %s: in use, free, largest free run" % what in text, (what, text)
    for part, screen in (("menu", "menu"), ("shakeup", "shakeup"), ("frenzy", "frenzy"),
                         ("cpu_shakeup", "shakeup"), ("cpu_frenzy", "frenzy")):
        assert "| frame time, %s, screen %s (App.step()," % (part, screen) in text, text
    # The sim board's profile states 400 kHz, and its I2C stand-in runs at it.
    assert "| 400000 Hz | 400000 Hz (boards/sim.py) |" in text, text
    assert " blocks of 4096 B (" in text, text
    # The report's own folder is gone; the deployed files are as they were.
    after = emu_flash.image_files(image)
    assert not [p for p in after if p.startswith("/_report")], sorted(after)
    assert {p: after[p] for p in before} == before
