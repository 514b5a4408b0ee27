"""`make check` inside `make test`: the firmware type-checks against the ESP32 stubs,
ruff is clean, the house rules hold. Offline: the stubs come from the venv, pyright's
JavaScript from its wheel (node from the machine)."""
import ast
import io
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

import check  # noqa: E402


def test_make_check_is_clean():
    res = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "check", "check.py")], cwd=ROOT,
                         capture_output=True, text=True, timeout=600)
    assert res.returncode == 0, res.stdout[-6000:] + res.stderr[-2000:]
    assert "pyright" in res.stdout and "0 errors" in res.stdout


def diag(rel, severity, line=1):
    return {"file": os.path.join(ROOT, rel), "severity": severity, "rule": "reportOptionalMemberAccess",
            "message": '"x" is not a known attribute of "None"',
            "range": {"start": {"line": line - 1, "character": 0}}}


def test_a_pyright_warning_fails_the_check():
    out = io.StringIO()
    status, line = check.tally([diag("firmware/core/dice.py", "warning")], out)
    assert status == 1 and "1 warnings" in line and "firmware/core/dice.py:1:1: warning" in out.getvalue()
    assert check.tally([diag("firmware/core/dice.py", "information")], io.StringIO())[0] == 0
    assert check.tally([diag("firmware/core/dice.py", "error")], io.StringIO())[0] == 1
    # The files waiting for the link's rewrite show their warnings without failing yet.
    pending = [diag(rel, "warning") for rel in check.WARNINGS_PENDING]
    status, line = check.tally(pending, io.StringIO())
    assert status == 0 and "0 warnings, %d pending" % len(pending) in line


def house(rel, src):
    v = check._House(rel, src)
    v.visit(ast.parse(src))
    return v.problems


def test_house_rules_catch_what_the_device_cannot_run():
    assert house("firmware/x.py", "assert x\n")
    assert house("firmware/x.py", "import typing\n")
    assert house("firmware/x.py", "from dataclasses import dataclass\n")
    assert house("firmware/x.py", "y = f'{x=}'\n")
    assert house("firmware/x.py", "y = [z for x in a if (z := x)]\n")
    assert house("firmware/core/x.py", "import time\n")
    assert house("firmware/core/x.py", "from machine import Pin\n")
    assert not house("firmware/ui/x.py", "import time\ny = f'{x}={y}'\nz = {'a': 1}\n")
    assert not house("firmware/core/x.py", "from core import dice\n")
    assert house("firmware/x.py", "def __getattr__(name):\n    return 1\n")
    assert house("firmware/x.py", "class A:\n    def __getattr__(self, n):\n        return 1\n")
    assert house("firmware/x.py", "def f():\n    return __import__('core.dice')\n")
    assert not house("firmware/x.py", "def f():\n    import core.dice\n    return core.dice\n")
    fallback = "try:\n    from micropython import const\nexcept ImportError:\n    def const(x):\n        return x\n"
    assert house("firmware/x.py", fallback)
    assert not house("firmware/x.py", "from micropython import const\n")
    assert not house("firmware/x.py", "try:\n    from time import ticks_ms\nexcept ImportError:\n    pass\n")


def test_stub_fixes_still_apply_to_the_pinned_stubs():
    check.ensure_typings()
    for rel, _old, new, _why in check.STUB_FIXES:
        with open(os.path.join(check.TYPINGS, rel)) as f:
            assert new in f.read(), rel


# A helper that runs other files' tests as they are (the page's golden plans), not
# for their helpers.
RUNS_TESTS = ("web_plans.py",)


def test_no_test_file_imports_another():
    """Shared helpers live in helper modules (ui_rig.py, fault_rig.py, ...): a test file
    imports no test file, and a helper imports one only to run its tests."""
    tests = os.path.join(ROOT, "host_tests")
    found = []
    for fn in sorted(os.listdir(tests)):
        if not fn.endswith(".py") or fn in RUNS_TESTS:
            continue
        with open(os.path.join(tests, fn)) as f:
            tree = ast.parse(f.read(), fn)
        for node in ast.walk(tree):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else \
                [node.module or ""] if isinstance(node, ast.ImportFrom) else []
            found += ["%s:%d imports %s" % (fn, node.lineno, n) for n in names
                      if n.split(".")[0].startswith("test_")]
    assert found == []
