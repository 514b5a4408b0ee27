"""A tiny test runner for the MicroPython unix port (pytest does not run there).

Usage: micropython tools/check/mptest.py host_tests/test_x.py [...]
Imports each module and calls every top-level function named test_* with no
arguments. Prints one line per failure and a closing 'N passed, N failed'.
"""
import sys


def _path_setup():
    # Paths are relative to the repository root, the working directory of `make`.
    for p in ("firmware", "host_tests", "tools", "tools/sim"):
        if p not in sys.path:
            sys.path.insert(0, p)
    import paths  # noqa: F401  (tools/paths.py: the tools' folders on sys.path)


def run(files):
    passed = failed = 0
    for f in files:
        name = f.rsplit("/", 1)[-1]
        if name.endswith(".py"):
            name = name[:-3]
        mod = __import__(name)
        for attr in sorted(dir(mod)):
            fn = getattr(mod, attr)
            if not attr.startswith("test_") or not callable(fn):
                continue
            try:
                fn()
                passed += 1
            except Exception as e:  # report and go on, like pytest
                failed += 1
                print("FAIL %s.%s: %s %s" % (name, attr, type(e).__name__, e))
                if hasattr(sys, "print_exception"):
                    sys.print_exception(e)
    print("%d passed, %d failed" % (passed, failed))
    return failed


if __name__ == "__main__":
    _path_setup()
    sys.exit(1 if run(sys.argv[1:]) else 0)
