"""Private const copies match the public names they copy.

Firmware modules keep the codes they share as private consts (a `_NAME = const(v)`
costs no heap on the device, a public name costs a dict slot and an interned name in
the module that holds it). Each copy names its source in a comment:

    _ROLL = const(0x200)  # core.frenzy_names.ROLL

This test imports every named source and compares the values, so a changed code
cannot leave a stale copy behind.
"""
import ast
import importlib
import os
import re
import tokenize

from conftest import ROOT

# `_NAME = const(value)  # pkg.module.PUBLIC` (the first dotted name in the comment)
_COPY = re.compile(r"^(_[A-Z][A-Z0-9_]*) = const\(([^()]+)\)\s*#\s*([a-z_]+(?:\.[a-z_]+)*)"
                   r"\.([A-Z][A-Z0-9_]*[A-Z0-9])\b")


def _copies():
    out = []
    top = os.path.join(ROOT, "firmware")
    for d, _, names in os.walk(top):
        for n in sorted(names):
            if not n.endswith(".py"):
                continue
            path = os.path.join(d, n)
            with open(path) as f:
                for i, line in enumerate(f, 1):
                    m = _COPY.match(line)
                    if m:
                        rel = os.path.relpath(path, ROOT)
                        out.append((rel, i) + m.groups())
    return out


def test_every_copy_has_its_source_value():
    copies = _copies()
    # The Frenzy codes alone are copied into six modules: far more than this.
    assert len(copies) >= 60, copies
    wrong = []
    for rel, line, name, value, mod, public in copies:
        got = getattr(importlib.import_module(mod), public)
        want = ast.literal_eval(value.strip())
        if got != want:
            wrong.append("%s:%d %s = %r, but %s.%s is %r" % (rel, line, name, want, mod,
                                                            public, got))
    assert not wrong, "\n".join(wrong)


def test_the_pattern_sees_a_wrong_copy():
    line = "_ROLL = const(0x300)  # core.frenzy_names.ROLL\n"
    m = _COPY.match(line)
    assert m is not None and m.groups() == ("_ROLL", "0x300", "core.frenzy_names", "ROLL")
    from core import frenzy_names
    assert ast.literal_eval(m.group(2)) != frenzy_names.ROLL


def test_the_firmware_reads_no_public_frenzy_code():
    """core.frenzy_names is for host code: a firmware module that imported it (or read
    frenzy.ROLL through core.frenzy's __getattr__) would keep it loaded in a game."""
    bad = []
    top = os.path.join(ROOT, "firmware")
    for d, _, names in os.walk(top):
        for n in names:
            # frenzy_score: the checked helpers for tests and tools, never in a game
            if not n.endswith(".py") or n in ("frenzy_names.py", "frenzy_score.py"):
                continue
            path = os.path.join(d, n)
            with open(path) as f:
                toks = list(tokenize.generate_tokens(f.readline))
            for i, t in enumerate(toks):
                if t.type != tokenize.NAME:
                    continue
                if t.string == "frenzy_names":
                    bad.append("%s:%d imports frenzy_names" % (n, t.start[0]))
                elif (t.string == "fz" and i + 2 < len(toks) and toks[i + 1].string == "."
                      and toks[i + 2].string.isupper() and toks[i + 2].string != "RISK"):
                    bad.append("%s:%d fz.%s" % (n, t.start[0], toks[i + 2].string))
    # core.frenzy's module __getattr__ is the one bridge (for host code's frenzy.ROLL).
    assert bad and all(b in _bridge() for b in bad), bad


def _bridge():
    with open(os.path.join(ROOT, "firmware", "core", "frenzy.py")) as f:
        lines = f.read().split("\n")
    start = lines.index("def __getattr__(name):")
    end = start + 1
    while end < len(lines) and not lines[end].startswith("def "):
        end += 1
    return ["frenzy.py:%d imports frenzy_names" % (i + 1) for i in range(start, end)
            if "frenzy_names" in lines[i].split("#")[0]]
