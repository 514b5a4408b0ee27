"""Shared pytest setup: the firmware and the host simulation are importable; the
parallel run's groups (`make test` runs pytest-xdist with --dist loadgroup)."""
import os
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
for p in ("firmware", "tools", "tools/sim", "host_tests"):
    full = os.path.join(ROOT, p)
    if full not in sys.path:
        sys.path.insert(0, full)


def micropython_bin():
    """The unix port's binary from the project venv (or PATH)."""
    cand = os.path.join(ROOT, ".venv", "bin", "micropython")
    return cand if os.path.exists(cand) else "micropython"


# Tests that share something outside their tmp_path run on one worker, one after the
# other (an xdist_group each). Everything else is spread test by test, except a module
# with a module- or session-scoped fixture, which stays on one worker so that its
# fixture (a build, the bench's run) is made once.
SHARED = {
    # build/bench/ (the sim build, fw_codes.py, perf_pystone.py, heap hints): written
    # by tools/bench.py --quick and by the frame model's fixture.
    "test_bench_quick.py": "build-bench",
    "test_frame_time.py": "build-bench",
    # typings/ (check.ensure_typings copies the stubs there; check.py does too).
    "test_check.py": "typings",
    # build/sim/ (make deploy BOARD=sim builds there, then copies what changed).
    "test_emuboard.py": "build-sim",
}
for _name in SHARED:
    if not os.path.exists(os.path.join(ROOT, "host_tests", _name)):
        raise RuntimeError("host_tests/conftest.py SHARED names %s, which is gone" % _name)


def _group(item):
    module = os.path.basename(str(item.fspath))
    if module in SHARED:
        return SHARED[module]
    info = getattr(item, "_fixtureinfo", None)
    for defs in (info.name2fixturedefs.values() if info else ()):
        # (baseid "": pytest's own, such as tmp_path_factory, made once per process)
        if any(d.scope != "function" and getattr(d, "baseid", "") for d in defs):
            return "module:" + module
    return None


def pytest_collection_modifyitems(config, items):
    for item in items:
        group = _group(item)
        if group:
            item.add_marker(pytest.mark.xdist_group(group))
