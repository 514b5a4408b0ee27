"""Release files for one board: its filesystem image and, given a stock MicroPython .bin,
one merged image to write in a single esptool run; SHA-256 sums and the exact command.

Usage:
  python tools/flashing/release.py --board esp32_devkit
  python tools/flashing/release.py --board esp32_devkit --firmware ESP32_GENERIC-<date>-v1.xx.bin

Writes build/release/pocket-dice-<version>-<board>-vfs.img (and, with --firmware,
pocket-dice-<version>-<board>-merged.bin: the .bin at its offset, the image where the
.bin's partition table makes the stock boot look; see tools/flashing/flash_layout.py), plus
SHA256SUMS. The merged file starts at the firmware's own offset (0x1000 on the ESP32,
0x0 on the S3), so it is written there.
"""
import argparse
import hashlib
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import build as buildmod  # noqa: E402
import image  # noqa: E402

OUT = os.path.join(buildmod.DEFAULT_OUT, "release")


def sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 16), b""):
            h.update(chunk)
    return h.hexdigest()


def merge_command(chip, firmware, offset, vfs_img, out):
    """esptool v5 merge-bin: the firmware at its offset, the image at the vfs offset."""
    at = image.FIRMWARE_OFFSET[chip]
    return image.esptool_cmd() + ["--chip", chip, "merge-bin", "-o", out,
                                  "--target-offset", "%#x" % at,
                                  "%#x" % at, firmware, "%#x" % offset, vfs_img]


def write_command(chip, merged, baud=460800):
    return ["esptool", "--chip", chip, "--port", "PORT", "--baud", str(baud), "write-flash",
            "--erase-all", "%#x" % image.FIRMWARE_OFFSET[chip], os.path.basename(merged)]


def release(board, firmware=None, flash_mb=None, out_dir=OUT):
    """Returns (files written, the esptool line to flash them)."""
    chip, board_mb = image.board_info(board)
    flash_mb = flash_mb or board_mb
    version = buildmod.version()
    os.makedirs(out_dir, exist_ok=True)
    stem = os.path.join(out_dir, "pocket-dice-%s-%s" % (version, board))
    if firmware:
        layout = image.layout_from_table(image.read_partition_table(firmware, chip), flash_mb)
    else:
        layout = image.default_layout(flash_mb, chip=chip)
    vfs_img = stem + "-vfs.img"
    # The build behind the image is made in a folder of its own, gone after: the
    # release folder holds the release files and nothing else.
    with tempfile.TemporaryDirectory(prefix="pocket-dice-release-") as work:
        image.image_for(board, layout, vfs_img, work)
    files = [vfs_img]
    if firmware:
        merged = stem + "-merged.bin"
        res = subprocess.run(merge_command(chip, firmware, layout[0], vfs_img, merged),
                             capture_output=True, text=True)
        if res.returncode:
            raise image.ImageError("esptool merge-bin failed:\n" + res.stdout + res.stderr)
        files.append(merged)
        line = " ".join(write_command(chip, merged))
    else:
        line = " ".join(["esptool", "--chip", chip, "--port", "PORT", "write-flash",
                         "%#x" % layout[0], os.path.basename(vfs_img)]) + \
            "   (after the stock firmware; or give --firmware for one merged file)"
    sums = os.path.join(out_dir, "SHA256SUMS")
    with open(sums, "w") as f:
        for p in files:
            f.write("%s  %s\n" % (sha256(p), os.path.basename(p)))
    return files + [sums], line


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--board", required=True)
    ap.add_argument("--firmware", help="stock MicroPython .bin (ESP32_GENERIC-<date>-v1.xx.bin)")
    ap.add_argument("--flash-mb", type=int, help="flash size in MB (default: the profile's)")
    ap.add_argument("--out", default=OUT)
    args = ap.parse_args(argv)
    try:
        if args.firmware and not os.path.isfile(args.firmware):
            chip = image.board_info(args.board)[0]
            raise image.ImageError("firmware %s not found.\n%s" % (args.firmware, image.missing_firmware(chip)))
        files, line = release(args.board, args.firmware, args.flash_mb, args.out)
    except (image.ImageError, buildmod.BuildError) as e:
        sys.stderr.write("release: %s\n" % e)
        return 2
    for p in files:
        print("%s  %d bytes" % (os.path.relpath(p), os.path.getsize(p)))
    with open(files[-1]) as f:
        sys.stdout.write(f.read())
    print("flash with (from %s): %s" % (os.path.relpath(args.out), line))
    return 0


if __name__ == "__main__":
    sys.exit(main())
