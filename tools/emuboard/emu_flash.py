"""The emulated board's flash: a whole ESP32 flash file (the stock partition table at
0x8000, the vfs partition LittleFS), made blank like an erased chip and read on the host.
The agent mounts it on the board's side (emu_agent.py); this is the host's view."""
import os

import flash_layout

FLASH_MB = flash_layout.DEFAULT_FLASH_MB["esp32"]  # a new --image: an erased ESP32 flash (4 MB)
BLOCK_SIZE = 4096


def blank_flash(path, flash_mb=FLASH_MB, chip="esp32"):
    """An erased flash with the stock 1.26+ partition table at 0x8000 (flash_layout);
    the firmware formats its vfs partition at the first boot, as inisetup does."""
    data = bytearray(b"\xff" * (flash_mb * 1024 * 1024))
    table = flash_layout.encode_table(flash_layout.stock_table(chip, flash_mb))
    data[flash_layout.TABLE_ADDR:flash_layout.TABLE_ADDR + len(table)] = table
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    with open(path, "wb") as f:
        f.write(data)


def vfs_bytes(data):
    """The vfs partition's bytes of a whole flash file (found as the stock boot finds
    it); a file without a partition table at 0x8000 is the partition itself."""
    at = flash_layout.TABLE_ADDR
    if len(data) < at + 2 or data[at:at + 2] != flash_layout.ROW_MAGIC:
        return data
    rows = flash_layout.decode_table(data[at:at + flash_layout.TABLE_MAX])
    off, size = flash_layout.vfs_region(rows, len(data))
    return data[off:off + size]


def image_files(image, block_size=BLOCK_SIZE):
    """{device path: bytes} of every file in the board's filesystem (read on the host)."""
    from littlefs import LittleFS, UserContext

    with open(image, "rb") as f:
        data = vfs_bytes(f.read())
    ctx = UserContext(buffer=bytearray(data))
    fs = LittleFS(context=ctx, block_size=block_size, block_count=len(data) // block_size,
                  mount=True)
    out = {}
    for top, _dirs, files in fs.walk("/"):
        for fn in files:
            p = (top.rstrip("/") + "/" + fn) if top != "/" else "/" + fn
            with fs.open(p, "rb") as fh:
                out[p] = fh.read()
    return out
