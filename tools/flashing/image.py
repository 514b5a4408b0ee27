"""A LittleFS image of the build for the stock MicroPython ESP32 firmware; flash both.

Usage:
  python tools/flashing/image.py --board esp32_devkit                      # build/esp32_devkit-vfs.img
  python tools/flashing/image.py --board esp32_devkit --flash --port /dev/ttyUSB0 \
      --firmware ESP32_GENERIC-<date>-v1.xx.bin              # erase, firmware + image

Where the filesystem goes (the facts, with their upstream tags and paths, are in
tools/flashing/flash_layout.py): every stock ESP32_GENERIC / ESP32_GENERIC_S3 download from 1.23.0
to 1.28.0 and master mounts LittleFS v2 at 0x200000, to the end of flash (0x200000 long
on 4 MB, 0x600000 on 8 MB). 1.23-1.25 say so in their table's "vfs" row; 1.26+ have no
such row and make the partition at boot from the end of the last partition of the table.
With --firmware the table inside the .bin decides the same way, so a custom build with a
ROMFS partition (partitions-4MiB-romfs.csv) gets its image after the ROMFS.
"""
import argparse
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import build as buildmod  # noqa: E402
import flash_layout as fl  # noqa: E402

BLOCK_SIZE = fl.BLOCK_SIZE
MB = fl.MB
FIRMWARE_OFFSET = fl.FIRMWARE_OFFSET
DEFAULT_FLASH_MB = fl.DEFAULT_FLASH_MB
PARTITION_TABLE_ADDR = fl.TABLE_ADDR
# MicroPython's VfsLfs2 defaults (extmod/vfs_lfs.c v1.23.0 and v1.28.0:40-42, the
# readsize/progsize/lookahead arguments' {.u_int = 32}); littlefs on-disk version 2.0
# mounts on every littlefs v2 release (extmod/vfs_lfsx.c v1.28.0:107-111 only sets
# another disk_version in builds with LFS2_MULTIVERSION).
LFS_OPTS = {"read_size": 32, "prog_size": 32, "lookahead_size": 32, "name_max": 255,
            "disk_version": 0x00020000}
DOWNLOAD = fl.PORT_BOARD  # the stock download's name per chip


class ImageError(Exception):
    pass


def missing_firmware(chip):
    """What to download when no stock .bin was given (make flash without FIRMWARE=)."""
    name = DOWNLOAD[chip]
    return ("flashing needs the stock MicroPython firmware for this board (%s).\n"
            "  1. Download the latest release .bin from https://micropython.org/download/%s/\n"
            "     (named like %s-<date>-v1.xx.bin; any release 1.23 or later)\n"
            "  2. Put it anywhere, e.g. in this folder, and run\n"
            "     make flash BOARD=<board> PORT=<port> FIRMWARE=%s-<date>-v1.xx.bin\n"
            "     (without make: python tools/flashing/image.py --board <board> --flash --port <port> "
            "--firmware <file>)" % (name, name, name, name))


def board_info(board):
    """(chip, flash MB) from boards/<board>.py (data only, read without importing)."""
    path = os.path.join(buildmod.BOARDS, board + ".py")
    if not os.path.isfile(path):
        raise ImageError("unknown board %r; boards/ has: %s" % (board, ", ".join(buildmod.boards())))
    try:
        ns = buildmod.profile(board)
    except Exception as e:  # a profile that fails here fails on the device too
        raise ImageError("%s: %s" % (path, e))
    chip = ns.get("CHIP", "esp32")
    if chip not in FIRMWARE_OFFSET:
        chip = "esp32"  # host/sim profiles: image for a generic ESP32
    flash_mb = ns.get("FLASH_MB") or DEFAULT_FLASH_MB[chip]
    return chip, int(flash_mb)


def default_layout(flash_mb, legacy=False, chip="esp32"):
    """(offset, size) of the vfs partition in the stock firmware (1.26+, or 1.23-1.25)."""
    try:
        rows = fl.stock_table(chip, flash_mb, "1.23" if legacy else "1.26")
        return fl.vfs_region(rows, flash_mb * MB)
    except ValueError as e:
        raise ImageError(str(e))


def read_partition_table(firmware_path, chip):
    """Entries (label, type, subtype, offset, size) of the table inside a stock .bin."""
    with open(firmware_path, "rb") as f:
        data = f.read()
    try:
        return fl.table_in_firmware(data, chip)
    except ValueError as e:
        raise ImageError("%s: %s (is it the %s firmware?)" % (firmware_path, e, chip))


def layout_from_table(table, flash_mb):
    """Where the stock boot finds its filesystem with this table, on this much flash."""
    try:
        return fl.vfs_region(table, flash_mb * MB)
    except ValueError as e:
        raise ImageError(str(e))


def make_image(build_dir, size, out_path):
    """Write a LittleFS image of every file under build_dir; returns bytes used."""
    from littlefs import LittleFS

    if size % BLOCK_SIZE:
        raise ImageError("partition size %#x is not a multiple of %d" % (size, BLOCK_SIZE))
    fs = LittleFS(block_size=BLOCK_SIZE, block_count=size // BLOCK_SIZE, **LFS_OPTS)
    for dirpath, dirnames, filenames in os.walk(build_dir):
        dirnames.sort()
        rel = os.path.relpath(dirpath, build_dir).replace(os.sep, "/")
        if rel != ".":
            fs.makedirs(rel, exist_ok=True)
        for fn in sorted(filenames):
            with open(os.path.join(dirpath, fn), "rb") as src:
                data = src.read()
            target = fn if rel == "." else rel + "/" + fn
            with fs.open(target, "wb") as dst:
                dst.write(data)
    used = fs.used_block_count * BLOCK_SIZE
    tmp = out_path + ".tmp"
    with open(tmp, "wb") as f:
        f.write(fs.context.buffer)
    os.replace(tmp, out_path)
    return used


def image_for(board, offset_size, out_path=None, build_root=buildmod.DEFAULT_OUT):
    listing = buildmod.build(board, build_root)
    offset, size = offset_size
    out_path = out_path or os.path.join(build_root, "%s-vfs.img" % board)
    used = make_image(os.path.join(build_root, board), size, out_path)
    return out_path, listing, used


def detect_flash_mb(chip, port):
    """Ask the chip (esptool flash-id); None when it cannot say."""
    cmd = esptool_cmd() + ["--chip", chip, "--port", port, "flash-id"]
    res = subprocess.run(cmd, capture_output=True, text=True)
    m = re.search(r"Detected flash size:\s*(\d+)MB", res.stdout)
    return int(m.group(1)) if m else None


def esptool_cmd():
    here = os.path.join(os.path.dirname(sys.executable), "esptool")
    return [here] if os.path.exists(here) else [sys.executable, "-m", "esptool"]


def flash_command(chip, port, firmware, offset, image, baud=460800):
    """esptool v5: erase everything, then the stock firmware and the image, one run."""
    return esptool_cmd() + [
        "--chip", chip, "--port", port, "--baud", str(baud),
        "write-flash", "--erase-all",
        "%#x" % FIRMWARE_OFFSET[chip], firmware,
        "%#x" % offset, image,
    ]


def flash_file(path, chip, flash_mb, rows, image, firmware=None, image_offset=None):
    """A whole flash as the stock build and esptool leave it: erased (0xff), the firmware
    (or just its partition table) at its offset, the filesystem image where the boot
    will look for it (or at image_offset, to try a wrong one). Returns the vfs region."""
    data = bytearray(b"\xff" * (flash_mb * MB))
    if firmware:
        with open(firmware, "rb") as f:
            fw = f.read()
        at = FIRMWARE_OFFSET[chip]
        data[at:at + len(fw)] = fw
        rows = fl.table_in_firmware(fw, chip)
    else:
        data[fl.TABLE_ADDR:fl.TABLE_ADDR + fl.TABLE_MAX] = fl.encode_table(rows)
    region = fl.vfs_region(rows, len(data))
    with open(image, "rb") as f:
        img = f.read()
    at = region[0] if image_offset is None else image_offset
    if at + len(img) > len(data):
        raise ImageError("image of %#x bytes does not fit at %#x" % (len(img), at))
    data[at:at + len(img)] = img
    with open(path, "wb") as f:
        f.write(data)
    return region


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--board", required=True)
    ap.add_argument("--out", help="image path (default build/<board>-vfs.img)")
    ap.add_argument("--legacy", action="store_true",
                    help="the table of MicroPython 1.23-1.25 (same filesystem place on 4/8 MB)")
    ap.add_argument("--flash-mb", type=int, help="flash size in MB (default: profile FLASH_MB, "
                    "the chip's answer when flashing, else 4 on ESP32 / 8 on ESP32-S3)")
    ap.add_argument("--offset", type=lambda s: int(s, 0), help="override the vfs offset")
    ap.add_argument("--size", type=lambda s: int(s, 0), help="override the vfs size")
    ap.add_argument("--flash", action="store_true", help="erase and write firmware + image")
    ap.add_argument("--port")
    ap.add_argument("--firmware", help="stock MicroPython .bin for this chip")
    ap.add_argument("--baud", type=int, default=460800)
    ap.add_argument("--dry-run", action="store_true", help="print the esptool command only")
    args = ap.parse_args(argv)
    try:
        chip, flash_mb = board_info(args.board)
        if args.flash:
            if not args.firmware:
                raise ImageError(missing_firmware(chip))
            if not os.path.isfile(args.firmware):
                raise ImageError("firmware %s not found.\n%s" % (args.firmware, missing_firmware(chip)))
            if not args.port:
                raise ImageError("--flash needs --port (make flash PORT=/dev/ttyUSB0, COM3 on Windows)")
            if not args.flash_mb and not args.dry_run:
                flash_mb = detect_flash_mb(chip, args.port) or flash_mb
        if args.flash_mb:
            flash_mb = args.flash_mb
        if args.flash:
            layout = layout_from_table(read_partition_table(args.firmware, chip), flash_mb)
        else:
            layout = default_layout(flash_mb, args.legacy, chip)
        if args.offset is not None:
            layout = (args.offset, layout[1])
        if args.size is not None:
            layout = (layout[0], args.size)
        path, listing, used = image_for(args.board, layout, args.out)
    except (ImageError, buildmod.BuildError) as e:
        sys.stderr.write("image: %s\n" % e)
        return 2
    offset, size = layout
    files = sum(s for _, s, _ in listing)
    print("%s: LittleFS v2, %d files (%d bytes), %d of %d KB used; vfs at %#x size %#x (%s, %d MB)"
          % (os.path.relpath(path), len(listing), files, used // 1024, size // 1024,
             offset, size, chip, flash_mb))
    cmd = flash_command(chip, args.port or "PORT", args.firmware or "FIRMWARE.bin", offset, path, args.baud)
    if not args.flash or args.dry_run:
        print("flash with: " + " ".join(cmd))
        return 0
    print(" ".join(cmd))
    return subprocess.call(cmd)


if __name__ == "__main__":
    sys.exit(main())
