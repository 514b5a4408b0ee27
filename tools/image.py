"""A LittleFS image of the build for the stock MicroPython ESP32 firmware; flash both.

Usage:
  python tools/image.py --board esp32_devkit                      # build/esp32_devkit-vfs.img
  python tools/image.py --board esp32_devkit --flash --port /dev/ttyUSB0 \
      --firmware ESP32_GENERIC-v1.29.0.bin                        # erase, firmware + image

Where the filesystem lives (source: MicroPython's ports/esp32/partitions-*.csv and
ports/esp32/main.c):
- MicroPython 1.26 and later (generic boards use partitions-4MiBplus.csv: nvs 0x9000,
  phy_init 0xf000, factory 0x10000 size 0x210000, and no "vfs" entry). Since
  micropython PR #17337 the firmware detects the flash size at boot and creates the
  "vfs" partition from the end of factory (0x220000) to the end of flash:
  ESP32 4 MiB -> 0x220000 size 0x1E0000; ESP32-S3 8 MiB -> 0x220000 size 0x5E0000;
  ESP32-S3 4 MiB (FLASH_4M) -> 0x220000 size 0x1E0000.
- MicroPython 1.23-1.25 (partitions-4MiB.csv / partitions-8MiB.csv): vfs 0x200000,
  size 0x200000 (4 MiB) or 0x600000 (8 MiB). Use --legacy for those.
With --firmware the table inside the .bin wins: a "vfs" entry gives offset and size;
without one the factory end is the start. LittleFS v2 block size 4096 (the esp32 flash
sector; esp32.Partition's block size), the geometry MicroPython's _boot.py mounts.
The stock .bin is flashed at 0x1000 on the ESP32 and 0x0 on the ESP32-S3.
"""
import argparse
import os
import re
import struct
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import build as buildmod  # noqa: E402

BLOCK_SIZE = 4096
MB = 1024 * 1024
# The stock firmware .bin begins at this flash address.
FIRMWARE_OFFSET = {"esp32": 0x1000, "esp32s3": 0x0}
# Flash size assumed when neither the board profile (FLASH_MB) nor the chip says.
DEFAULT_FLASH_MB = {"esp32": 4, "esp32s3": 8}
# MicroPython 1.26+: factory app at 0x10000, 0x210000 long; the vfs follows it.
AUTO_VFS_START = 0x220000
LEGACY_VFS = (0x200000, {4: 0x200000, 8: 0x600000, 16: 0xE00000})
PARTITION_TABLE_ADDR = 0x8000
# MicroPython's VfsLfs2 defaults (extmod/vfs_lfs.c): readsize 32, progsize 32,
# lookahead 32; littlefs on-disk version 2.0 mounts on every littlefs v2 release.
LFS_OPTS = {"read_size": 32, "prog_size": 32, "lookahead_size": 32, "name_max": 255,
            "disk_version": 0x00020000}


class ImageError(Exception):
    pass


def board_info(board):
    """(chip, flash MB) from boards/<board>.py (data only, read without importing)."""
    path = os.path.join(buildmod.BOARDS, board + ".py")
    if not os.path.isfile(path):
        raise ImageError("unknown board %r; boards/ has: %s" % (board, ", ".join(buildmod.boards())))
    ns = {}
    with open(path) as f:
        src = f.read()
    try:
        exec(compile(src, path, "exec"), ns)
    except Exception as e:  # a profile that fails here fails on the device too
        raise ImageError("%s: %s" % (path, e))
    chip = ns.get("CHIP", "esp32")
    if chip not in FIRMWARE_OFFSET:
        chip = "esp32"  # host/sim profiles: image for a generic ESP32
    flash_mb = ns.get("FLASH_MB") or DEFAULT_FLASH_MB[chip]
    return chip, int(flash_mb)


def default_layout(flash_mb, legacy=False):
    """(offset, size) of the vfs partition in the stock firmware."""
    if legacy:
        start, sizes = LEGACY_VFS
        if flash_mb not in sizes:
            raise ImageError("no legacy table for %d MB flash" % flash_mb)
        return start, sizes[flash_mb]
    if flash_mb * MB <= AUTO_VFS_START:
        raise ImageError("%d MB flash leaves no room for a filesystem" % flash_mb)
    return AUTO_VFS_START, flash_mb * MB - AUTO_VFS_START


def read_partition_table(firmware_path, chip):
    """Entries (label, type, subtype, offset, size) of the table inside a stock .bin."""
    with open(firmware_path, "rb") as f:
        data = f.read()
    if not data or data[0] != 0xE9:
        raise ImageError("%s is not an ESP firmware image (no 0xE9 magic)" % firmware_path)
    at = PARTITION_TABLE_ADDR - FIRMWARE_OFFSET[chip]
    out = []
    for i in range(at, min(at + 0xC00, len(data)), 32):
        entry = data[i:i + 32]
        if entry[:2] != b"\xaa\x50":
            break  # 0xFFFF end, or the 0xEBEB md5 row
        ptype, subtype, off, size = struct.unpack_from("<BBII", entry, 2)
        label = entry[12:28].split(b"\x00")[0].decode("ascii", "replace")
        out.append((label, ptype, subtype, off, size))
    if not out:
        raise ImageError("no partition table at %#x in %s (is it the %s firmware?)"
                         % (PARTITION_TABLE_ADDR, firmware_path, chip))
    return out


def layout_from_table(table, flash_mb):
    for label, ptype, _sub, off, size in table:
        if ptype == 1 and label == "vfs":
            return off, size
    ends = [off + size for label, ptype, _sub, off, size in table if ptype == 0]
    if not ends:
        raise ImageError("partition table has neither a vfs nor an app partition")
    start = max(ends)
    if flash_mb * MB <= start:
        raise ImageError("no room for a filesystem after %#x in %d MB" % (start, flash_mb))
    return start, flash_mb * MB - start


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


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--board", required=True)
    ap.add_argument("--out", help="image path (default build/<board>-vfs.img)")
    ap.add_argument("--legacy", action="store_true", help="MicroPython 1.23-1.25 partition table")
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
            if not args.port or not args.firmware:
                raise ImageError("--flash needs --port and --firmware (make flash PORT=... FIRMWARE=...)")
            if not os.path.isfile(args.firmware):
                raise ImageError("firmware %s not found" % args.firmware)
            if not args.flash_mb and not args.dry_run:
                flash_mb = detect_flash_mb(chip, args.port) or flash_mb
        if args.flash_mb:
            flash_mb = args.flash_mb
        if args.flash:
            layout = layout_from_table(read_partition_table(args.firmware, chip), flash_mb)
        else:
            layout = default_layout(flash_mb, args.legacy)
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
