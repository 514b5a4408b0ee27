"""The heap the ESP32 port's own frozen modules keep after a boot, estimated on a
32-bit MicroPython (the heap model or the gauge):

    build/mp32/obj-heap/micropython tools/heapmodel/esp32_boot.py DIR

DIR holds ports/esp32/modules/{_boot,flashbdev,machine}.py of v1.28.0 (tools/bench/bench.py
takes them from ../shared/toolchain/micropython-1.28.0-esp32-extra.tar.gz). A frozen
module's bytecode stays in flash; what it makes in RAM is its module object, its globals
and what its top level builds (functions, classes, dicts). So each file is compiled
first, outside the figure, and the figure is the heap kept by running its code into a
fresh globals dict, plus a block for the module object. Stand-ins (made before) take the
place of the C modules: `esp32` (Partition.find, PCNT) and `vfs` (mount does nothing:
the bench's harness mounts the LittleFS itself, inside the budget); the Partition object
flashbdev keeps is a C struct of 16 bytes (ports/esp32/esp32_partition.c:49-54), one
block. _boot.py runs in __main__'s globals on the device (main.c pyexec_frozen_module):
a fresh dict here. `machine` is imported by the firmware (hal), so its frozen
machine.py is counted; espnow.py and inisetup.py are not imported at a normal boot.
Prints `R esp32_boot BYTES flashbdev _boot machine`.
"""
import gc
import sys

BLOCK = 16


class _Stand:
    pass


def _standins():
    part = _Stand()
    esp32 = _Stand()

    class Partition:
        TYPE_DATA = 1

        @staticmethod
        def find(*a, **k):
            return [part]

    class PCNT:
        INCREMENT = 1
        DECREMENT = 2
        IGNORE = 0
        HOLD = 3
        REVERSE = 4
        IRQ_MIN = 1
        IRQ_MAX = 2

    esp32.Partition = Partition
    esp32.PCNT = PCNT
    vfs = _Stand()
    vfs.mount = lambda *a: None
    sys.modules["esp32"] = esp32
    sys.modules["vfs"] = vfs
    fb = _Stand()
    fb.bdev = part
    return fb


def _cost(code, name):
    gc.collect()
    a = gc.mem_alloc()
    g = {"__name__": name}
    exec(code, g)
    gc.collect()
    kept = gc.mem_alloc() - a
    g = None
    return kept + BLOCK  # the module object (two words: one block)


def main(d):
    fb = _standins()
    codes = []
    for name in ("flashbdev", "_boot", "machine"):
        with open(d + "/" + name + ".py") as f:
            codes.append(compile(f.read(), name + ".py", "exec"))
    c_fb = _cost(codes[0], "flashbdev") + BLOCK  # + the Partition object
    sys.modules["flashbdev"] = fb
    c_boot = _cost(codes[1], "__main__") - BLOCK  # __main__'s module object is not new
    c_machine = _cost(codes[2], "machine")
    print("R esp32_boot", c_fb + c_boot + c_machine, c_fb, c_boot, c_machine)


main(sys.argv[1])
