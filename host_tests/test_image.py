"""tools/flashing/image.py: the LittleFS image of the build, where it goes in flash, and that the
unix port mounts it with vfs.VfsLfs2 and boots main.py from it."""
import hashlib
import os
import shutil
import struct
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

import emu_control  # noqa: E402
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
    # Every stock release 1.23.0-1.28.0 and master: vfs at 0x200000 to the end of flash
    # (1.26+: after partitions-4MiBplus.csv's factory 0x10000 + 0x1F0000; 1.23-1.25: the
    # "vfs" row of partitions-4MiB.csv / partitions-8MiB.csv). Not 0x220000.
    assert image.default_layout(4) == (0x200000, 0x200000)
    assert image.default_layout(8, chip="esp32s3") == (0x200000, 0x600000)
    assert image.default_layout(4, legacy=True) == (0x200000, 0x200000)
    assert image.default_layout(8, legacy=True, chip="esp32s3") == (0x200000, 0x600000)
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
        c = emu_control.EmuControl(ctl)
        c.wait_ready(30)
        c.wait_for("app.screen.NAME", "'menu'", 30)
        mods = c.modules()
        assert mods["app"] == "app.mpy" and mods["board"] == "board.mpy"
        assert mods["ui.screens"] == "ui/screens.mpy"
        assert any(c.frame()), "the OLED shows nothing"


def fake_firmware(path, chip, rows):
    """A stock-looking .bin: 0xE9 image magic, the partition table at 0x8000 in flash
    (its rows packed here by hand, as gen_esp32part.py lays them out, so the encoder in
    flash_layout is checked against an independent writer), an app at 0x10000."""
    at = 0x8000 - image.FIRMWARE_OFFSET[chip]
    data = bytearray(b"\xff" * (0x10000 - image.FIRMWARE_OFFSET[chip] + 0x100))
    data[0] = 0xE9
    for i, (label, ptype, sub, off, size) in enumerate(rows):
        e = struct.pack("<2sBBII16sI", b"\xaa\x50", ptype, sub, off, size, label.encode(), 0)
        data[at + 32 * i:at + 32 * i + 32] = e
    md5 = b"\xeb\xeb" + b"\xff" * 14 + hashlib.md5(bytes(data[at:at + 32 * len(rows)])).digest()
    data[at + 32 * len(rows):at + 32 * len(rows) + 32] = md5
    app = 0x10000 - image.FIRMWARE_OFFSET[chip]
    data[app] = 0xE9  # the app image's own magic
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
    # 1.26+ tables have no vfs row: the filesystem starts where the last partition ends.
    fake_firmware(fw, "esp32s3", BASE + [("factory", 0, 0, 0x10000, 0x1F0000)])
    assert image.layout_from_table(image.read_partition_table(fw, "esp32s3"), 8) == (0x200000, 0x600000)
    # ... of any type: a ROMFS after the app pushes it back (main.c takes every row).
    fake_firmware(fw, "esp32", BASE + [("factory", 0, 0, 0x10000, 0x1D0000),
                                       ("romfs", 1, 0x8F, 0x1E0000, 0x40000)])
    assert image.layout_from_table(image.read_partition_table(fw, "esp32"), 4) == (0x220000, 0x1E0000)
    with open(fw, "r+b") as f:
        f.write(b"\x00")
    with pytest.raises(image.ImageError):
        image.read_partition_table(fw, "esp32s3")


def test_flash_command_is_esptool_v5_syntax(tmp_path):
    fw = str(tmp_path / "fw.bin")
    fake_firmware(fw, "esp32", BASE + [("factory", 0, 0, 0x10000, 0x1F0000)])
    res = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "flashing", "image.py"), "--board", BOARD,
                          "--flash", "--dry-run", "--port", "/dev/nonexistent-port",
                          "--firmware", fw, "--flash-mb", "4", "--out", str(tmp_path / "v.img")],
                         capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert res.returncode == 0, res.stderr
    cmd = res.stdout.split("flash with: ", 1)[1].split()
    i = cmd.index("write-flash")
    assert cmd[i + 1:] == ["--erase-all", "0x1000", fw, "0x200000", str(tmp_path / "v.img")]
    assert os.path.getsize(str(tmp_path / "v.img")) == 0x200000
    # esptool itself accepts it: it gets as far as opening the (missing) port.
    run = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
    out = run.stdout + run.stderr
    assert "Could not open /dev/nonexistent-port" in out, out
    assert "No such option" not in out and "Usage:" not in out


# Runs on the unix port: what the stock boot does with a whole flash (ports/esp32:
# flashbdev.py finds the data partition "vfs" in the table at 0x8000, else main.c made it
# from the end of the last partition to the end of flash; _boot.py mounts it with
# vfs.mount(bdev, "/") - LittleFS v2 - and on OSError inisetup formats it), then the
# port runs main.py from "/". Here main.py's first import (boot screen) is enough: a
# marker module it imports first must load from the image.
STOCK_BOOT = """
import sys, vfs, os
sys.path.insert(0, %(tools)r)
import flash_layout as fl
f = open(%(flash)r, 'rb')
f.seek(0, 2)
total = f.tell()
f.seek(fl.TABLE_ADDR)
rows = fl.decode_table(f.read(fl.TABLE_MAX))
off, size = fl.vfs_region(rows, total)
class Partition:
    def __init__(self, f, off, size):
        self.f, self.off, self.n = f, off, size // 4096
    def readblocks(self, n, buf, o=0):
        self.f.seek(self.off + n * 4096 + o)
        self.f.readinto(buf)
    def writeblocks(self, n, buf, o=None):
        raise OSError(30)
    def ioctl(self, op, arg):
        return self.n if op == 4 else (4096 if op == 5 else 0)
print('VFS', hex(off), hex(size))
vfs.umount('/')
try:
    vfs.mount(vfs.VfsLfs2(Partition(f, off, size)), '/')
except OSError as e:
    print('MOUNT FAILED', e)  # the device would format an empty filesystem here
    raise SystemExit(3)
os.chdir('/')
sys.path[:] = ['', '.frozen', '/lib']
print('ROOT', sorted(os.listdir('/')))
src = open('main.py').read()
print('MAIN', len(src))
import board
print('BOARD', board.NAME)
import core.dice
print('CORE', core.dice.__file__)
"""


def stock_boot(tmp_path, flash):
    script = tmp_path / "stock_boot.py"
    script.write_text(STOCK_BOOT % {"tools": os.path.join(ROOT, "tools", "flashing"), "flash": flash})
    res = subprocess.run([micropython_bin(), str(script)], capture_output=True, text=True, timeout=60)
    return res.returncode, res.stdout + res.stderr


@pytest.mark.parametrize("chip,flash_mb", [("esp32", 4), ("esp32s3", 8), ("esp32s3", 4)])
def test_make_image_boots_in_a_stock_flash(tmp_path, chip, flash_mb):
    """make image's output, laid into a whole flash with the stock 1.26+ table where it
    says, is found and mounted by the stock boot; at the old offset it is not."""
    layout = image.default_layout(flash_mb, chip=chip)
    img, _listing, _used = image.image_for(BOARD, layout, str(tmp_path / "vfs.img"),
                                           str(tmp_path / "build"))
    flash = str(tmp_path / "flash.bin")
    rows = image.fl.stock_table(chip, flash_mb)
    assert image.flash_file(flash, chip, flash_mb, rows, img) == layout
    code, out = stock_boot(tmp_path, flash)
    assert code == 0, out
    assert "VFS 0x200000 %s" % hex(flash_mb * image.MB - 0x200000) in out, out
    assert "'main.py'" in out and "'board.mpy'" in out and "BOARD ESP32 DevKitC" in out, out
    assert "CORE core/dice.mpy" in out, out
    # The offset the tools used before (0x220000, from an unmerged pull request): the
    # stock boot finds no filesystem there and would format it empty.
    old = (0x220000, flash_mb * image.MB - 0x220000)
    old_img, _l, _u = image.image_for(BOARD, old, str(tmp_path / "old.img"), str(tmp_path / "build"))
    image.flash_file(flash, chip, flash_mb, rows, old_img, image_offset=old[0])
    code, out = stock_boot(tmp_path, flash)
    assert code == 3 and "MOUNT FAILED" in out, out


@pytest.mark.parametrize("table,flash_mb", [("4MiBplus", 4), ("4MiBplus", 8), ("4MiB-romfs", 4),
                                            ("romfs-no-vfs", 4), ("romfs-no-vfs", 8)])
def test_make_flash_layout_boots(tmp_path, table, flash_mb):
    """make flash's layout (the table read from the .bin) with and without a ROMFS
    partition: the image goes where the stock boot looks, and boots."""
    if table == "romfs-no-vfs":  # a custom build: app, ROMFS, the vfs made at boot
        rows = list(BASE) + [("factory", 0, 0, 0x10000, 0x1D0000), ("romfs", 1, 0x8F, 0x1E0000, 0x40000)]
    else:
        rows = image.fl.TABLES[table]
    fw = str(tmp_path / "fw.bin")
    fake_firmware(fw, "esp32", rows)
    vimg = str(tmp_path / "v.img")
    res = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "flashing", "image.py"), "--board", BOARD,
                          "--flash", "--dry-run", "--port", "PORT", "--firmware", fw,
                          "--flash-mb", str(flash_mb), "--out", vimg],
                         capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert res.returncode == 0, res.stderr
    cmd = res.stdout.split("flash with: ", 1)[1].split()
    i = cmd.index("write-flash")
    fw_at, img_at = int(cmd[i + 2], 16), int(cmd[i + 4], 16)
    assert fw_at == 0x1000
    end = max(off + size for label, _t, _s, off, size in rows if label != "vfs")
    assert img_at >= end, "the image would overwrite a partition (ROMFS?)"
    # Lay the flash out as esptool writes it: the .bin at 0x1000, the image at img_at.
    flash = str(tmp_path / "flash.bin")
    data = bytearray(b"\xff" * (flash_mb * image.MB))
    with open(fw, "rb") as f:
        b = f.read()
    data[fw_at:fw_at + len(b)] = b
    with open(vimg, "rb") as f:
        v = f.read()
    assert img_at + len(v) <= len(data)
    data[img_at:img_at + len(v)] = v
    with open(flash, "wb") as f:
        f.write(data)
    code, out = stock_boot(tmp_path, flash)
    assert code == 0, out
    assert "VFS %s" % hex(img_at) in out and "BOARD ESP32 DevKitC" in out, out


def test_flash_without_firmware_says_what_to_download(tmp_path):
    res = subprocess.run(["make", "-s", "flash", "BOARD=" + BOARD, "PORT=/dev/nonexistent"],
                         capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert res.returncode != 0
    assert "https://micropython.org/download/ESP32_GENERIC/" in res.stderr, res.stderr
    assert "FIRMWARE=" in res.stderr and "usage:" not in res.stderr, res.stderr


def test_release_merges_firmware_and_image_into_one_file(tmp_path):
    """make release with a made-up .bin carrying a real partition table: one merged
    file that, written at the firmware's offset, is the flash the stock boot mounts."""
    import release

    fw = str(tmp_path / "ESP32_GENERIC-made-up-v1.28.0.bin")
    fake_firmware(fw, "esp32", image.fl.TABLES["4MiBplus"])
    out = str(tmp_path / "rel")
    res = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "flashing", "release.py"), "--board", BOARD,
                          "--firmware", fw, "--out", out], capture_output=True, text=True,
                         timeout=180, cwd=ROOT)
    assert res.returncode == 0, res.stdout + res.stderr
    ver = image.buildmod.version()
    merged = os.path.join(out, "pocket-dice-%s-%s-merged.bin" % (ver, BOARD))
    vimg = os.path.join(out, "pocket-dice-%s-%s-vfs.img" % (ver, BOARD))
    sums = {}
    with open(os.path.join(out, "SHA256SUMS")) as f:
        for line in f:
            h, name = line.split()
            sums[name] = h
    assert sums == {os.path.basename(p): release.sha256(p) for p in (vimg, merged)}
    # The folder handed out holds the release files only (no build tree, no lock).
    assert sorted(os.listdir(out)) == sorted(["SHA256SUMS"] + list(sums)), os.listdir(out)
    assert ("esptool --chip esp32 --port PORT --baud 460800 write-flash --erase-all 0x1000 "
            + os.path.basename(merged)) in res.stdout, res.stdout
    with open(merged, "rb") as f:
        m = f.read()
    with open(fw, "rb") as f:
        fwb = f.read()
    with open(vimg, "rb") as f:
        vb = f.read()
    # Written at 0x1000: the .bin first, the image at 0x200000 - 0x1000 into the file.
    assert m[:len(fwb)] == fwb and m[0x200000 - 0x1000:] == vb
    flash = bytearray(b"\xff" * (4 * image.MB))
    flash[0x1000:0x1000 + len(m)] = m
    (tmp_path / "flash.bin").write_bytes(bytes(flash))
    code, text = stock_boot(tmp_path, str(tmp_path / "flash.bin"))
    assert code == 0 and "BOARD ESP32 DevKitC" in text, text


def test_an_image_for_the_wrong_flash_size_does_not_mount(tmp_path):
    """The stock firmware sizes vfs to the chip's flash; LittleFS refuses a filesystem
    whose block count differs (EINVAL), so the board would format itself empty: the
    profile's FLASH_MB (or make flash's esptool flash-id) must be right."""
    img, _l, _u = image.image_for(BOARD, image.default_layout(4), str(tmp_path / "v.img"),
                                  str(tmp_path / "build"))
    flash = str(tmp_path / "flash.bin")
    image.flash_file(flash, "esp32", 8, image.fl.stock_table("esp32", 8), img)
    code, out = stock_boot(tmp_path, flash)
    assert code == 3 and "MOUNT FAILED" in out, out
    assert image.board_info("heltec_wifi_kit_32_v2") == ("esp32", 8)
