# Where things live in an ESP32's flash under stock MicroPython, and the partition table's
# binary form. Runs under CPython (tools, tests) and the MicroPython unix port (the
# emulated board's agent), so: no f-strings with formats, no dataclasses.
#
# Every value below was read in the upstream files named next to it (github.com/
# micropython/micropython at the tags given; "1.26+" means v1.26.0, v1.27.0, v1.28.0 and
# master as of 2026-08-19, commit 1c3c2011).
import struct

try:
    import hashlib
except ImportError:  # a MicroPython build without hashlib
    hashlib = None

MB = 1024 * 1024

# ports/esp32/makeimg.py (v1.28.0): OFFSET_PARTITIONS_DEFAULT = 0x8000; no generic board
# sets CONFIG_PARTITION_TABLE_OFFSET, so the stock .bin carries its table there.
TABLE_ADDR = 0x8000
# ESP-IDF docs, api-guides/partition-tables.html ("The partition table length is 0xC00
# bytes", an MD5 checksum appended) and components/partition_table/gen_esp32part.py
# (32-byte rows "<2sBBLL16sL", magic b"\xaa\x50"; the MD5 row is b"\xeb\xeb" + 14 x 0xff
# + md5 of the rows before it; unused space 0xff).
TABLE_MAX = 0xC00
ROW_FORMAT = "<2sBBII16sI"  # MicroPython's struct has no Struct class
ROW_SIZE = 32
ROW_MAGIC = b"\xaa\x50"
MD5_MAGIC = b"\xeb\xeb" + b"\xff" * 14
APP, DATA = 0x00, 0x01  # gen_esp32part.py TYPES
SUB_FACTORY, SUB_PHY, SUB_NVS, SUB_FAT = 0x00, 0x01, 0x02, 0x81  # gen_esp32part.py SUBTYPES
SUB_ROMFS = 0x8F  # ports/esp32/partitions-4MiB-romfs.csv (v1.25.0, 1.26+): "romfs, data, 0x8f"

# Where the stock .bin (bootloader first) is written:
# ports/esp32/boards/ESP32_GENERIC/board.json (1.26+) deploy_options "flash_offset": "0x1000";
# ports/esp32/boards/ESP32_GENERIC_S3/board.json (1.26+) "flash_offset": "0";
# v1.23.0 ports/esp32/boards/deploy.md "write_flash -z 0x1000" and deploy_s3.md
# "write_flash -z 0"; ports/esp32/makeimg.py (v1.28.0) OFFSET_BOOTLOADER_DEFAULT = 0x1000,
# CONFIG_BOOTLOADER_OFFSET_IN_FLASH otherwise (0 on the S3's IDF target).
FIRMWARE_OFFSET = {"esp32": 0x1000, "esp32s3": 0x0}
# The port's board for each chip: the BOARD= of `make -C ports/esp32` and the name of the
# stock download. ports/esp32/Makefile (v1.28.0:14) "BOARD ?= ESP32_GENERIC", whose
# mpconfigboard.cmake sets no IDF_TARGET (esp32, the IDF's default);
# ports/esp32/boards/ESP32_GENERIC_S3/mpconfigboard.cmake (v1.28.0:1) "set(IDF_TARGET esp32s3)".
PORT_BOARD = {"esp32": "ESP32_GENERIC", "esp32s3": "ESP32_GENERIC_S3"}
# Flash on the boards the generic builds are made for: ports/esp32/boards/sdkconfig.base
# (v1.23.0:95, v1.28.0:98) CONFIG_ESPTOOLPY_FLASHSIZE_4MB=y; v1.23.0-v1.25.0
# ESP32_GENERIC_S3/sdkconfig.board CONFIG_ESPTOOLPY_FLASHSIZE_8MB=y. Since v1.26.0 the
# firmware asks the chip (main.c: esp_flash_get_physical_size), so a board's FLASH_MB
# or esptool's flash-id decides; these are the fallbacks.
DEFAULT_FLASH_MB = {"esp32": 4, "esp32s3": 8}
# ports/esp32/esp32_partition.c (v1.23.0:42, v1.26.0:42, master:42)
# NATIVE_BLOCK_SIZE_BYTES (4096): esp32.Partition's block size, LittleFS's block size.
BLOCK_SIZE = 4096

_NVS = ("nvs", DATA, SUB_NVS, 0x9000, 0x6000)
_PHY = ("phy_init", DATA, SUB_PHY, 0xF000, 0x1000)
_FACTORY = ("factory", APP, SUB_FACTORY, 0x10000, 0x1F0000)
# The tables the generic builds use (sdkconfig CONFIG_PARTITION_TABLE_CUSTOM_FILENAME):
TABLES = {
    # 1.26+: ports/esp32/boards/sdkconfig.base:100 "partitions-4MiBplus.csv" for every
    # generic board; ports/esp32/partitions-4MiBplus.csv: nvs 0x9000 0x6000, phy_init
    # 0xf000 0x1000, factory 0x10000 0x1F0000, no vfs row (made at boot, see vfs_region).
    "4MiBplus": [_NVS, _PHY, _FACTORY],
    # v1.23.0-v1.25.0: sdkconfig.base:97 (v1.23.0, v1.24.0; :101 in v1.25.0) and the S3's
    # FLASH_4M variant (ESP32_GENERIC_S3/sdkconfig.flash_4m) use partitions-4MiB.csv:
    # factory 0x10000 0x1F0000, "vfs, data, fat, 0x200000, 0x200000".
    "4MiB": [_NVS, _PHY, _FACTORY, ("vfs", DATA, SUB_FAT, 0x200000, 0x200000)],
    # v1.23.0-v1.25.0: ESP32_GENERIC_S3/sdkconfig.board "partitions-8MiB.csv":
    # "vfs, data, fat, 0x200000, 0x600000".
    "8MiB": [_NVS, _PHY, _FACTORY, ("vfs", DATA, SUB_FAT, 0x200000, 0x600000)],
    # v1.25.0 and 1.26+: ports/esp32/partitions-4MiB-romfs.csv (used by custom builds):
    # factory 0x10000 0x1D0000, romfs 0x1E0000 0x20000, vfs 0x200000 0x200000.
    "4MiB-romfs": [_NVS, _PHY, ("factory", APP, SUB_FACTORY, 0x10000, 0x1D0000),
                   ("romfs", DATA, SUB_ROMFS, 0x1E0000, 0x20000),
                   ("vfs", DATA, SUB_FAT, 0x200000, 0x200000)],
}
# Which table a stock ESP32_GENERIC / ESP32_GENERIC_S3 download carries.
# The S3's FLASH_4M variant existed up to v1.25.0 (mpconfigvariant_FLASH_4M.cmake); it was
# removed by 6201e77999 "esp32/boards: Convert all boards to auto detect flash size.",
# first released in v1.26.0.
RELEASES = ("1.26", "1.23")  # 1.26: v1.26.0-v1.28.0 and master; 1.23: v1.23.0-v1.25.0


def stock_table(chip, flash_mb, release="1.26"):
    """The partition table rows in the stock download for this chip, flash and release."""
    if release == "1.26":
        return list(TABLES["4MiBplus"])
    if release != "1.23":
        raise ValueError("release must be one of %s" % (RELEASES,))
    if chip == "esp32s3" and flash_mb >= 8:
        return list(TABLES["8MiB"])
    if flash_mb >= 4:
        return list(TABLES["4MiB"])  # ESP32_GENERIC, or the S3's FLASH_4M variant
    raise ValueError("no stock 1.23-1.25 table for %d MB flash" % flash_mb)


def vfs_region(rows, flash_size):
    """(offset, size) of the filesystem the stock firmware mounts.

    A data partition labelled "vfs" wins (ports/esp32/modules/flashbdev.py, v1.23.0 and
    1.26+: Partition.find(Partition.TYPE_DATA, label="vfs")). Without one, 1.26+ makes it
    at boot (ports/esp32/main.c v1.26.0:233-253, v1.28.0:251-271, master:255-275: "from
    the end of the last partition in the table" - of any type, so after a ROMFS too - "up
    to the end of flash").
    """
    for label, ptype, _sub, off, size in rows:
        if ptype == DATA and label == "vfs":
            return off, size
    end = 0
    for _label, _ptype, _sub, off, size in rows:
        end = max(end, off + size)
    if not end or flash_size <= end:
        raise ValueError("no room for a filesystem after %#x in %d bytes of flash"
                         % (end, flash_size))
    return end, flash_size - end


def encode_table(rows):
    """The 0xC00 bytes written at TABLE_ADDR: rows, the MD5 row, 0xff padding."""
    out = bytearray()
    for label, ptype, sub, off, size in rows:
        out += struct.pack(ROW_FORMAT, ROW_MAGIC, ptype, sub, off, size, label.encode(), 0)
    digest = hashlib.md5(bytes(out)).digest()
    out += MD5_MAGIC + digest
    if len(out) > TABLE_MAX:
        raise ValueError("partition table too long")
    return bytes(out) + b"\xff" * (TABLE_MAX - len(out))


def decode_table(data):
    """Rows (label, type, subtype, offset, size) of a table; checks its MD5 row."""
    rows = []
    at = 0
    while at + ROW_SIZE <= min(len(data), TABLE_MAX):
        entry = bytes(data[at:at + ROW_SIZE])
        if entry[:2] == ROW_MAGIC:
            _m, ptype, sub, off, size, label, _flags = struct.unpack(ROW_FORMAT, entry)
            rows.append((label.split(b"\x00")[0].decode(), ptype, sub, off, size))
        elif entry[:16] == MD5_MAGIC:
            if hashlib is not None and hasattr(hashlib, "md5"):
                if hashlib.md5(bytes(data[:at])).digest() != entry[16:]:
                    raise ValueError("partition table MD5 does not match")
            break
        else:
            break  # 0xffff: the end
        at += ROW_SIZE
    if not rows:
        raise ValueError("no partition table (no 0xaa50 row)")
    return rows


def table_in_firmware(data, chip):
    """Rows of the table inside a stock .bin, which starts at FIRMWARE_OFFSET[chip]."""
    if not data or data[0] != 0xE9:
        raise ValueError("not an ESP firmware image (no 0xE9 magic)")
    at = TABLE_ADDR - FIRMWARE_OFFSET[chip]
    return decode_table(data[at:at + TABLE_MAX])
