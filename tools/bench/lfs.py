"""The device's filesystem during a measurement: LittleFS on a RAM block device.

On the ESP32 the firmware's files (its .mpy modules, board.mpy, the saves, settings and
stats) live on a `vfs.VfsLfs2` over the flash partition, 4096-byte blocks, mounted at
"/" (upstream ports/esp32/modules/_boot.py: `vfs.mount(bdev, "/")`, which finds the
LittleFS and makes a `VfsLfs2(bdev)` with its default buffer sizes). Here:

- `Flash(blocks)`: the block device; its storage is a bytearray made before the fence,
  so it stays outside the firmware's budget, as flash does on the device;
- `prepare(flash, lib, files)`: before the fence, format it and copy the build (LIB)
  and data files (name -> bytes, e.g. a saved game) in, through a mount at /flash;
- `mount_root(flash)`: inside the budget, the host's "/" (the unix port's VfsPosix)
  gives way and the LittleFS is mounted there: LittleFS's own buffers, made at mount,
  and every file the firmware opens or imports are charged to it, as on the device.
  The harness's and simulator's modules are all loaded before: nothing of the host's
  filesystem is reachable afterwards (a stray host import fails, as it would on the
  device).

Runs under MicroPython only (CPython has no vfs).
"""
import os

import vfs

BLOCK = 4096      # the ESP32 partition's erase block (esp32.Partition.BLOCK_SIZE)
BLOCKS = 128      # 512 KB: the build (a block or more a file) and the saves; RAM use does
# not depend on it (the ESP32 partition is larger)


class Flash:
    """A block device with the extended interface (offsets), as esp32.Partition."""

    def __init__(self, blocks=BLOCKS):
        self.blocks = blocks
        self.data = bytearray(blocks * BLOCK)
        self.mv = memoryview(self.data)
        self.ff = b"\xff" * BLOCK  # an erased block, made here: erasing allocates nothing

    def readblocks(self, block, buf, off=0):
        a = block * BLOCK + off
        buf[:] = self.mv[a:a + len(buf)]

    def writeblocks(self, block, buf, off=None):
        a = block * BLOCK + (off or 0)
        self.mv[a:a + len(buf)] = buf

    def ioctl(self, op, arg):
        if op == 4:  # block count
            return self.blocks
        if op == 5:  # block size
            return BLOCK
        if op == 6:  # erase
            a = arg * BLOCK
            self.mv[a:a + BLOCK] = self.ff
        return 0


def _copy_tree(src, dst):
    for ent in os.ilistdir(src):
        name, kind = ent[0], ent[1]
        if name == "__pycache__":
            continue
        s = src + "/" + name
        d = dst + "/" + name
        if kind == 0x4000:
            try:
                os.mkdir(d)
            except OSError:
                pass
            _copy_tree(s, d)
        else:
            with open(s, "rb") as f:
                data = f.read()
            with open(d, "wb") as f:
                f.write(data)


def prepare(flash, lib, files=None):
    """Format the flash; copy the build at LIB (host path) and `files` to its root."""
    vfs.VfsLfs2.mkfs(flash)
    fs = vfs.VfsLfs2(flash)
    vfs.mount(fs, "/flash")
    try:
        if lib:
            _copy_tree(lib, "/flash")
        for name in files or ():
            with open("/flash/" + name, "wb") as f:
                f.write(files[name])
    finally:
        vfs.umount("/flash")


def mount_root(flash):
    """The LittleFS at "/", where the host's filesystem was: from here on the firmware
    runs on its own files only. Returns the VfsLfs2."""
    vfs.umount("/")
    fs = vfs.VfsLfs2(flash)
    vfs.mount(fs, "/")
    os.chdir("/")
    return fs


def data_files():
    """name -> bytes of the data files at "/" (not code, not folders, not .tmp)."""
    got = {}
    for ent in os.ilistdir("/"):
        name, kind = ent[0], ent[1]
        if kind == 0x4000 or name.endswith((".mpy", ".py", ".tmp")):
            continue
        with open("/" + name, "rb") as f:
            got[name] = f.read()
    return got
