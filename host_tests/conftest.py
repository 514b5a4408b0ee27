"""Shared pytest setup: the firmware and the host simulation are importable."""
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
for p in ("firmware", "tools", "tools/sim", "host_tests"):
    full = os.path.join(ROOT, p)
    if full not in sys.path:
        sys.path.insert(0, full)


def micropython_bin():
    """The unix port's binary from the project venv (or PATH)."""
    cand = os.path.join(ROOT, ".venv", "bin", "micropython")
    return cand if os.path.exists(cand) else "micropython"
