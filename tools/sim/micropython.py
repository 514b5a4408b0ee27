"""CPython's stand-in for MicroPython's built-in `micropython` module: what the firmware
takes from it, `const`, so device modules open with a plain `from micropython import
const` as on the device. The programs that run the firmware under CPython put tools/sim/
on sys.path (host_tests/conftest.py, tools/sim/simrun.py, the tools that import firmware).
On MicroPython (the unix, WebAssembly and ESP32 ports) the built-in module is found
before any file on sys.path, so this one is never loaded there; mpy-cross knows `const`.
"""


def const(x):
    return x
