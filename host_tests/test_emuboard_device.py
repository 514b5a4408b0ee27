"""The emulated board as the device is: a whole flash with the stock partition table and
the filesystem at the stock vfs offset, the ESP32's heap for the firmware, `mpremote
mount` (its file protocol over the serial line), and a root listing without the
emulator's own folders."""
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

import emu_flash  # noqa: E402
import emu_process  # noqa: E402
import emuboard  # noqa: E402
import flash_layout  # noqa: E402

MPREMOTE = os.path.join(os.path.dirname(sys.executable), "mpremote")


def mpremote(port, *args, cwd=None, timeout=60):
    res = subprocess.run([MPREMOTE, "connect", port] + list(args), capture_output=True,
                         text=True, timeout=timeout, cwd=cwd)
    return res.returncode, res.stdout + res.stderr


def test_flash_layout_heap_and_hidden_folders(tmp_path):
    flash = str(tmp_path / "flash.bin")
    with emuboard.EmuBoard(image=flash, ctl_dir=str(tmp_path / "ctl")) as b:
        code, out = mpremote(b.port, "exec", "f=open('/note.txt','w'); f.write('on flash'); f.close()",
                             "+", "exec", "import gc, os; gc.collect(); print('FREE', gc.mem_free()); "
                             "print('ROOT', sorted(os.listdir('/')))", "+", "ls", ":")
        assert code == 0, out
    free = int(out.split("FREE ")[1].split()[0])
    mp = emu_process.micropython_bin()
    share = emu_process.share_bytes(emu_process.default_heap(mp), mp)
    # The firmware sees the ESP32's heap (plus the emulation's room: its share), not the
    # interpreter's megabytes.
    assert 0.85 * share < free <= share, (free, share)
    assert "ROOT ['note.txt']" in out, out
    assert "_emu" not in out, out
    # The flash file is an ESP32's: 4 MB, the stock table at 0x8000, the file inside the
    # LittleFS at the vfs offset the stock boot computes (0x200000).
    with open(flash, "rb") as f:
        data = f.read()
    assert len(data) == 4 * flash_layout.MB
    rows = flash_layout.decode_table(data[0x8000:0x8000 + flash_layout.TABLE_MAX])
    assert rows == flash_layout.stock_table("esp32", 4)
    assert flash_layout.vfs_region(rows, len(data)) == (0x200000, 0x200000)
    assert data[:0x8000] == b"\xff" * 0x8000  # nothing written outside table and vfs
    assert emu_flash.image_files(flash) == {"/note.txt": b"on flash"}


def test_mpremote_mount_runs_code_from_the_host_folder(tmp_path):
    host = tmp_path / "host"
    (host / "pkg").mkdir(parents=True)
    (host / "hello.py").write_text("import pkg.data\nprint('hello', pkg.data.N * 7)\n")
    (host / "pkg" / "data.py").write_text("N = 6\n")
    # Binary data with the bytes the protocol must pass untouched (Ctrl-C, LF, 0x18).
    blob = bytes(range(256)) * 12
    (host / "blob.bin").write_bytes(blob)
    script = ("import hello, hashlib, binascii\n"
              "d = open('blob.bin', 'rb').read()\n"
              "print('SHA', binascii.hexlify(hashlib.sha256(d).digest()).decode(), len(d))\n"
              "f = open('out.bin', 'wb'); f.write(d[1000:] + d[:1000]); f.close()\n"
              "import os; print('LS', sorted(os.listdir()))\n")
    with emuboard.EmuBoard(image=str(tmp_path / "flash.bin"), ctl_dir=str(tmp_path / "ctl")) as b:
        code, out = mpremote(b.port, "mount", str(host), "exec", script, cwd=str(host), timeout=60)
    assert code == 0, out
    import hashlib

    assert "hello 42" in out, out
    assert "SHA %s %d" % (hashlib.sha256(blob).hexdigest(), len(blob)) in out, out
    assert "LS ['blob.bin', 'hello.py', 'out.bin', 'pkg']" in out, out
    assert (host / "out.bin").read_bytes() == blob[1000:] + blob[:1000]
