"""tools/image.py: the LittleFS image of the build, where it goes in flash, and that the
unix port mounts it with vfs.VfsLfs2 and boots main.py from it."""
import hashlib
import os
import shutil
import struct
import subprocess
import sys
import time

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TOOLS = os.path.join(ROOT, "tools")
if TOOLS not in sys.path:
    sys.path.insert(0, TOOLS)

import emuboard  # noqa: E402
import image  # noqa: E402

from conftest import micropython_bin  # noqa: E402

BOARD = "esp32_devkit"

# Runs on the unix port: mount the image with the device's filesystem driver and print
# "path sha256" for every file.
MOUNT = """
import vfs, os, hashlib, binascii
class Bdev:
    def __init__(self, path):
        self.f = open(path, 'rb')
        self.f.seek(0, 2)
        self.n = self.f.tell() // 4096
    def readblocks(self, n, buf, off=0):
        self.f.seek(n * 4096 + off)
        self.f.readinto(buf)
    def writeblocks(self, n, buf, off=None):
        raise OSError(30)
    def ioctl(self, op, arg):
        return self.n if op == 4 else (4096 if op == 5 else 0)
vfs.mount(vfs.VfsLfs2(Bdev(%r)), '/flash', readonly=True)
print('STATVFS', os.statvfs('/flash')[0], os.statvfs('/flash')[2])
def walk(d):
    for e in os.ilistdir(d):
        p = d + '/' + e[0]
        if e[1] == 0x4000:
            walk(p)
        else:
            h = hashlib.sha256(open(p, 'rb').read()).digest()
            print(p[len('/flash'):], binascii.hexlify(h).decode())
walk('/flash')
"""


@pytest.fixture(scope="module")
def img(tmp_path_factory):
    out = tmp_path_factory.mktemp("image")
    layout = image.default_layout(4)
    path, listing, used = image.image_for(BOARD, layout, str(out / "vfs.img"), str(out / "build"))
    return path, listing, used, layout


def test_layouts_follow_the_stock_partition_tables():
    # MicroPython 1.26+: vfs from the end of factory (0x10000 + 0x210000) to flash end.
    assert image.default_layout(4) == (0x220000, 0x1E0000)
    assert image.default_layout(8) == (0x220000, 0x5E0000)
    # 1.23-1.25: partitions-4MiB.csv / partitions-8MiB.csv.
    assert image.default_layout(4, legacy=True) == (0x200000, 0x200000)
    assert image.default_layout(8, legacy=True) == (0x200000, 0x600000)
    assert image.board_info("esp32_devkit") == ("esp32", 4)
    assert image.board_info("heltec_wifi_kit_32_v3")[0] == "esp32s3"


def test_image_size_and_contents_on_the_unix_port(img, tmp_path):
    path, listing, used, (offset, size) = img
    assert os.path.getsize(path) == size
    assert 0 < used < size
    script = tmp_path / "mount.py"
    script.write_text(MOUNT % path)
    res = subprocess.run([micropython_bin(), str(script)], capture_output=True, text=True, timeout=60)
    assert res.returncode == 0, res.stderr
    lines = res.stdout.split("\n")
    bsize, blocks = lines[0].split()[1:]
    assert int(bsize) == 4096 and int(blocks) == size // 4096
    got = dict(line.split() for line in lines[1:] if line.strip())
    want = {"/" + dev: sha for dev, _s, sha in listing}
    assert got == want


def test_main_py_boots_from_the_image(img, tmp_path):
    """The emulated board runs on a copy of the image (VfsLfs2 over the file): boot.py,
    main.py, the app's menu, every firmware module from .mpy."""
    path = str(tmp_path / "flash.img")
    shutil.copyfile(img[0], path)
    ctl = str(tmp_path / "ctl")
    with emuboard.EmuBoard(image=path, ctl_dir=ctl, log=str(tmp_path / "serial.log")):
        c = emuboard.EmuControl(ctl)
        c.wait_ready(30)
        end = time.monotonic() + 20
        name = None
        while time.monotonic() < end:
            name = c.eval("app.screen.NAME")
            if name == "'menu'":
                break
            time.sleep(0.1)
        assert name == "'menu'"
        mods = c.modules()
        assert mods["app"] == "app.mpy" and mods["board"] == "board.mpy"
        assert mods["ui.screens"] == "ui/screens.mpy"
        assert any(c.frame()), "the OLED shows nothing"


def fake_firmware(path, chip, rows):
    """A stock-looking .bin: 0xE9 image magic, the partition table at 0x8000 in flash."""
    at = 0x8000 - image.FIRMWARE_OFFSET[chip]
    data = bytearray(b"\xff" * (at + 0x1000))
    data[0] = 0xE9
    for i, (label, ptype, sub, off, size) in enumerate(rows):
        e = struct.pack("<2sBBII16sI", b"\xaa\x50", ptype, sub, off, size, label.encode(), 0)
        data[at + 32 * i:at + 32 * i + 32] = e
    md5 = b"\xeb\xeb" + b"\xff" * 14 + hashlib.md5(bytes(data[at:at + 32 * len(rows)])).digest()
    data[at + 32 * len(rows):at + 32 * len(rows) + 32] = md5
    with open(path, "wb") as f:
        f.write(data)


BASE = [("nvs", 1, 2, 0x9000, 0x6000), ("phy_init", 1, 1, 0xF000, 0x1000)]


def test_partition_table_from_the_firmware_wins(tmp_path):
    fw = str(tmp_path / "fw.bin")
    fake_firmware(fw, "esp32", BASE + [("factory", 0, 0, 0x10000, 0x1F0000),
                                       ("vfs", 1, 0x81, 0x200000, 0x200000)])
    table = image.read_partition_table(fw, "esp32")
    assert [r[0] for r in table] == ["nvs", "phy_init", "factory", "vfs"]
    assert image.layout_from_table(table, 4) == (0x200000, 0x200000)
    # 1.26+ tables have no vfs row: the filesystem starts where factory ends.
    fake_firmware(fw, "esp32s3", BASE + [("factory", 0, 0, 0x10000, 0x210000)])
    assert image.layout_from_table(image.read_partition_table(fw, "esp32s3"), 8) == (0x220000, 0x5E0000)
    with open(fw, "r+b") as f:
        f.write(b"\x00")
    with pytest.raises(image.ImageError):
        image.read_partition_table(fw, "esp32s3")


def test_flash_command_is_esptool_v5_syntax(tmp_path):
    fw = str(tmp_path / "fw.bin")
    fake_firmware(fw, "esp32", BASE + [("factory", 0, 0, 0x10000, 0x210000)])
    res = subprocess.run([sys.executable, os.path.join(TOOLS, "image.py"), "--board", BOARD,
                          "--flash", "--dry-run", "--port", "/dev/nonexistent-port",
                          "--firmware", fw, "--flash-mb", "4", "--out", str(tmp_path / "v.img")],
                         capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert res.returncode == 0, res.stderr
    cmd = res.stdout.split("flash with: ", 1)[1].split()
    i = cmd.index("write-flash")
    assert cmd[i + 1:] == ["--erase-all", "0x1000", fw, "0x220000", str(tmp_path / "v.img")]
    assert os.path.getsize(str(tmp_path / "v.img")) == 0x1E0000
    # esptool itself accepts it: it gets as far as opening the (missing) port.
    run = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
    out = run.stdout + run.stderr
    assert "Could not open /dev/nonexistent-port" in out, out
    assert "No such option" not in out and "Usage:" not in out
