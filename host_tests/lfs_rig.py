"""A real LittleFS (v2, the ESP32's filesystem) for store.py in tests, on both pythons.

- MicroPython (unix port): `vfs.VfsLfs2` on a RAM block device (tools/bench/lfs.py's
  Flash), mounted at a folder of its own: store.py's plain `os` and `open` reach it.
- CPython: littlefs-python (the same C library), with store.py's `os` and `open`
  pointed at it while the Lfs is open; its errors become OSError with the errno, as
  the port raises them, and its stat() the port's (mode, ...) tuple.

`Lfs(blocks)`: `root` is where the Store goes; `fill()` takes every free block (files
of shrinking sizes until even a small one fails), `free()` gives them back; `write`,
`read`, `mkdir`, `listdir` work on names under root; `close()` restores store.py.
Portable: runs under MicroPython too.
"""
import os
import sys

_n = [0]
_MP = sys.implementation.name == "micropython"


def _oserror(e):
    code = getattr(e, "code", None)
    if isinstance(e, OSError):
        return e
    return OSError(-code if code is not None and code < 0 else 5, str(e))


class _File:
    def __init__(self, f):
        self.f = f

    def read(self, n=-1):
        try:
            return self.f.read(n)
        except Exception as e:
            raise _oserror(e)

    def write(self, data):
        try:
            return self.f.write(data)
        except Exception as e:
            raise _oserror(e)

    def close(self):
        try:
            self.f.close()
        except Exception as e:
            # littlefs closed it whatever the error (lfs_file_close); mark it so, or
            # littlefs-python closes it again later and the C library aborts.
            setattr(self.f, "__IOBase_closed", True)
            raise _oserror(e)

    def __enter__(self):
        return self

    def __exit__(self, *a):
        self.close()


class _Os:
    """store.py's os on a littlefs-python filesystem."""

    def __init__(self, fs):
        self.fs = fs

    def _call(self, fn, *a):
        try:
            return fn(*a)
        except Exception as e:
            raise _oserror(e)

    def stat(self, p):
        st = self._call(self.fs.stat, p)
        return (0x4000 if st.type == 2 else 0x8000, 0, 0, 0, 0, 0, st.size)

    def remove(self, p):
        # LittleFS's remove takes an empty directory too; the port's os.remove does
        # the same (lfs_remove), so no difference to model.
        return self._call(self.fs.remove, p)

    def rmdir(self, p):
        return self._call(self.fs.remove, p)

    def rename(self, a, b):
        return self._call(self.fs.rename, a, b)

    def mkdir(self, p):
        return self._call(self.fs.mkdir, p)

    def listdir(self, p="/"):
        return self._call(self.fs.listdir, p)


class Lfs:
    def __init__(self, blocks=16):
        from system import store
        self.store = store
        _n[0] += 1
        if _MP:
            import vfs
            sys.path.insert(0, "tools/bench")
            try:
                import lfs
            finally:
                sys.path.pop(0)
            self.flash = lfs.Flash(blocks)
            vfs.VfsLfs2.mkfs(self.flash)
            self.mount = "/lfs_%d_%d" % (_n[0], os.getpid() if hasattr(os, "getpid") else 0)
            vfs.mount(vfs.VfsLfs2(self.flash), self.mount)
            self.root = self.mount
            self.os = os
            self._open = open
        else:
            from littlefs import LittleFS
            self.fs = LittleFS(block_size=4096, block_count=blocks)
            self.os = _Os(self.fs)
            self.root = "/"
            self._saved = store.os
            store.os = self.os
            store.open = self._open = self.open_
        self.fills = []

    def open_(self, p, m="r"):
        try:
            return _File(self.fs.open(p, m, buffering=0) if "b" in m else self.fs.open(p, m))
        except Exception as e:
            raise _oserror(e)

    def path(self, name):
        return self.root.rstrip("/") + "/" + name

    def write(self, name, data):
        f = self._open(self.path(name), "wb")
        try:
            f.write(data)
        finally:
            f.close()

    def read(self, name):
        f = self._open(self.path(name), "rb")
        try:
            return f.read()
        finally:
            f.close()

    def mkdir(self, name):
        self.os.mkdir(self.path(name))

    def listdir(self):
        return sorted(self.os.listdir(self.root))

    def fill(self):
        """Take every free block: files of 4 KB, then smaller, until none fits."""
        for size in (4096, 1024, 256, 64, 16, 1):
            while True:
                name = "fill%d" % len(self.fills)
                try:
                    self.write(name, b"\x5a" * size)
                except OSError:
                    try:
                        self.os.remove(self.path(name))
                    except OSError:
                        pass
                    break
                self.fills.append(name)

    def free(self):
        for name in self.fills:
            self.os.remove(self.path(name))
        self.fills = []

    def close(self):
        if _MP:
            import vfs
            vfs.umount(self.mount)
        else:
            self.store.os = self._saved
            del self.store.open
