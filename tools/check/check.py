"""`make check`: type-check firmware/ against the ESP32 MicroPython stubs, lint, house rules.

Usage: python tools/check/check.py [--no-pyright] [--no-ruff] [--no-house] [--json]

1. Stubs: micropython-esp32-stubs and micropython-stdlib-stubs (pinned in
   tools/requirements.txt, already in the venv) are copied into typings/ (git-ignored),
   which tools/check/pyrightconfig.json uses as typeshed and stub path, so pyright checks the
   firmware against MicroPython's stdlib and `machine`, not CPython's. Offline: nothing
   is downloaded (pyright's JavaScript ships inside the pyright wheel; it needs node,
   which the machine has). The board profile is installed as typings/board.pyi.
   A few stub errors are corrected in the copy (STUB_FIXES, each with its reason).
2. pyright (tools/check/pyrightconfig.json) on firmware/. Two portable idioms are not errors
   on the device and are skipped (IDIOMS): the CPython fallback defined in an
   `except ImportError:` branch for a MicroPython built-in (`const`, `ticks_ms`, ...)
   and `time.monotonic` used only on CPython. Errors and warnings fail the check, but for
   the files in WARNINGS_PENDING (their warnings are shown, counted apart).
3. ruff (tools/check/ruff.toml) on firmware/, boards/, tools/, host_tests/.
4. House rules for device code (firmware/, boards/): no assert (mpy-cross -O1+ strips
   it), no typing/dataclasses/enum/random/abc imports, no match statement, no
   f-string `=` specifier, no walrus in a comprehension; firmware/core imports none of
   machine, framebuf, time, random, os; no `__getattr__` (module or class) and no
   import by string (`__import__`, importlib): code loads by a plain import; no CPython
   fallback for `micropython` (try: ... except ImportError: def const): CPython runs
   the firmware with tools/sim/micropython.py on sys.path.
Exit status 1 when any step finds a problem.
"""
import argparse
import ast
import importlib.metadata as md
import json
import os
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
TYPINGS = os.path.join(ROOT, "typings")
CONFIG = os.path.join(HERE, "pyrightconfig.json")
RUFF_CONFIG = os.path.join(HERE, "ruff.toml")
STUB_DISTS = ("micropython-stdlib-stubs", "micropython-esp32-stubs")
BOARD_FOR_TYPES = ("esp32_devkit", "sim")  # first found becomes typings/board.pyi

# (file in typings/, text, replacement, reason). The check fails loudly when a pinned
# stub release no longer has the text, so a fix is never silently lost or doubled.
STUB_FIXES = (
    ("machine.pyi", "        pull: int = -1,\n", "        pull: int | None = -1,\n",
     "Pin(id, mode, pull): the MicroPython docs say `None` means no pull"),
    ("stdlib/io.pyi", "class StringIO:\n",
     "class StringIO(IOBase):\n"
     "    def getvalue(self) -> str: ...\n"
     "    def write(self, s: str, /) -> int: ...  # type: ignore[override]\n"
     "    def read(self, size: int = -1, /) -> str: ...  # type: ignore[override]\n",
     "io.StringIO is a stream with getvalue() on MicroPython (sys.print_exception(e, s))"),
    ("stdlib/io.pyi", "class BytesIO:\n",
     "class BytesIO(IOBase):\n"
     "    def getvalue(self) -> bytes: ...\n",
     "io.BytesIO is a stream with getvalue() on MicroPython"),
    ("micropython.pyi", "def const(expr: Const_T, /) -> Const_T:\n", "def const(expr, /):\n",
     "const(x) is x: unannotated, each const keeps its literal value (as CPython's stand-in "
     "tools/sim/micropython.py), so a table row indexed by a const has that field's type"),
)

# Files whose pyright warnings (and CPython fallback for `const`) do not fail the check
# yet: the link's rewrite (issue 43, merged apart) clears them; drop each name when its
# file has none (the check says so).
WARNINGS_PENDING = ("firmware/link/host.py", "firmware/ui/link_screen.py")

CPYTHON_TIME = ("monotonic", "perf_counter", "time_ns", "monotonic_ns", "time")
BANNED_IMPORTS = ("typing", "dataclasses", "enum", "random", "abc", "importlib")
CORE_BANNED = ("machine", "framebuf", "time", "random", "os")


def _stamp():
    return ";".join("%s==%s" % (d, md.version(d)) for d in STUB_DISTS)


def ensure_typings(out=sys.stdout):
    """Fill typings/ from the installed stub distributions (only when they changed)."""
    stamp_path = os.path.join(TYPINGS, ".stamp")
    want = _stamp() + ";fixes=%d" % len(STUB_FIXES)
    try:
        with open(stamp_path) as f:
            if f.read() == want:
                _install_board()
                return
    except OSError:
        pass
    # Built beside and swapped in, so a concurrent check never sees half a folder.
    tmp = "%s.tmp-%d" % (TYPINGS, os.getpid())
    if os.path.isdir(tmp):
        shutil.rmtree(tmp)
    for dist in STUB_DISTS:
        d = md.distribution(dist)
        for f in d.files or ():
            rel = str(f)
            if ".dist-info" in rel or rel.startswith(".."):
                continue
            if not (rel.endswith(".pyi") or rel.endswith("VERSIONS")):
                continue
            dst = os.path.join(tmp, rel)
            os.makedirs(os.path.dirname(dst), exist_ok=True)
            shutil.copyfile(str(d.locate_file(f)), dst)
    for rel, old, new, _why in STUB_FIXES:
        path = os.path.join(tmp, rel)
        with open(path) as f:
            text = f.read()
        if old not in text:
            raise SystemExit("check: stub fix for %s no longer applies (%r); review STUB_FIXES"
                             % (rel, old.strip()))
        with open(path, "w") as f:
            f.write(text.replace(old, new))
    with open(os.path.join(tmp, ".stamp"), "w") as f:
        f.write(want)
    old_dir = "%s.old-%d" % (TYPINGS, os.getpid())
    if os.path.isdir(TYPINGS):
        os.rename(TYPINGS, old_dir)
    os.rename(tmp, TYPINGS)
    if os.path.isdir(old_dir):
        shutil.rmtree(old_dir)
    _install_board()
    out.write("typings/: %s, %d stub fixes\n" % (_stamp(), len(STUB_FIXES)))


def _install_board():
    for name in BOARD_FOR_TYPES:
        src = os.path.join(ROOT, "boards", name + ".py")
        if os.path.exists(src):
            shutil.copyfile(src, os.path.join(TYPINGS, "board.pyi"))
            return


def pyright_cmd():
    here = os.path.join(os.path.dirname(sys.executable), "pyright")
    return [here] if os.path.exists(here) else [sys.executable, "-m", "pyright"]


def _line(path, n):
    try:
        with open(path) as f:
            return f.read().split("\n")[n - 1]
    except (OSError, IndexError):
        return ""


def is_idiom(diag):
    """A portable-code idiom that is no error on the device (see module docstring)."""
    rule = diag.get("rule", "")
    msg = diag.get("message", "")
    line = _line(diag["file"], diag["range"]["start"]["line"] + 1).strip()
    if rule == "reportAssignmentType" and line.startswith(("from ", "import ")):
        # `from time import ticks_ms` in try:, `def ticks_ms()` in except ImportError:
        return "is not assignable to declared type" in msg
    if rule == "reportAttributeAccessIssue":
        m = re.match(r'"(\w+)" is not a known attribute of module "(u?time)"', msg)
        return bool(m and m.group(1) in CPYTHON_TIME)
    return False


def run_pyright(out=sys.stdout):
    ensure_typings(out)
    res = subprocess.run(pyright_cmd() + ["-p", CONFIG, "--outputjson"],
                         capture_output=True, text=True, cwd=ROOT)
    try:
        report = json.loads(res.stdout)
    except ValueError:
        out.write(res.stdout[-3000:] + res.stderr[-3000:])
        out.write("pyright: no report (exit %d)\n" % res.returncode)
        return 1
    status, line = tally(report.get("generalDiagnostics", []), out)
    s = report.get("summary", {})
    out.write("pyright %s: %d files, %s\n" % (report.get("version", "?"), s.get("filesAnalyzed", 0), line))
    return status


def tally(diags, out=sys.stdout):
    """Print each error and warning; (1 when any fails the check else 0, summary line)."""
    errors = warnings = pending = skipped = 0
    pending_files = set()
    for d in diags:
        if d.get("severity") not in ("error", "warning"):
            continue
        if is_idiom(d):
            skipped += 1
            continue
        rel = os.path.relpath(d["file"], ROOT).replace(os.sep, "/")
        where = "%s:%d:%d" % (rel, d["range"]["start"]["line"] + 1, d["range"]["start"]["character"] + 1)
        out.write("%s: %s: %s [%s]\n" % (where, d["severity"], d["message"].split("\n")[0],
                                         d.get("rule", "")))
        if d["severity"] == "error":
            errors += 1
        elif rel in WARNINGS_PENDING:
            pending += 1
            pending_files.add(rel)
        else:
            warnings += 1
    for rel in WARNINGS_PENDING:
        if rel not in pending_files:
            out.write("%s has no warnings now: drop it from check.py's WARNINGS_PENDING\n" % rel)
    line = "%d errors, %d warnings, %d pending in %s, %d portable idioms skipped" % (
        errors, warnings, pending, " ".join(sorted(pending_files)) or "none", skipped)
    return (1 if errors or warnings else 0), line


def ruff_cmd():
    here = os.path.join(os.path.dirname(sys.executable), "ruff")
    return [here] if os.path.exists(here) else [sys.executable, "-m", "ruff"]


def run_ruff(out=sys.stdout):
    paths = [p for p in ("firmware", "boards", "tools", "host_tests")
             if os.path.isdir(os.path.join(ROOT, p))]
    res = subprocess.run(ruff_cmd() + ["check", "--config", RUFF_CONFIG, "--no-cache"] + paths,
                         capture_output=True, text=True, cwd=ROOT)
    out.write(res.stdout)
    if res.stderr.strip():
        out.write(res.stderr)
    out.write("ruff: %s\n" % ("clean" if res.returncode == 0 else "problems found"))
    return 0 if res.returncode == 0 else 1


class _House(ast.NodeVisitor):
    def __init__(self, rel, src):
        self.rel = rel
        self.src = src
        self.core = rel.startswith("firmware/core/")
        self.problems = []

    def _bad(self, node, msg):
        self.problems.append("%s:%d: %s" % (self.rel, node.lineno, msg))

    def visit_Assert(self, node):
        self._bad(node, "assert in device code (stripped by mpy-cross -O1+): raise ValueError")

    def _module(self, node, name):
        top = name.split(".")[0]
        if top in BANNED_IMPORTS:
            self._bad(node, "imports %s (not on MicroPython / not allowed)" % top)
        if self.core and top in CORE_BANNED:
            self._bad(node, "firmware/core imports %s" % top)

    def visit_Import(self, node):
        for a in node.names:
            self._module(node, a.name)

    def visit_ImportFrom(self, node):
        if node.level == 0 and node.module:
            self._module(node, node.module)

    def visit_FunctionDef(self, node):
        if node.name == "__getattr__":
            self._bad(node, "__getattr__ in device code: load by a plain import, name "
                      "things by their own names")
        self.generic_visit(node)

    def visit_Call(self, node):
        if isinstance(node.func, ast.Name) and node.func.id == "__import__":
            self._bad(node, "import by string (__import__): write a plain import")
        self.generic_visit(node)

    def visit_Try(self, node):
        catches = any(isinstance(h.type, ast.Name) and h.type.id == "ImportError"
                      for h in node.handlers)
        if catches and self.rel not in WARNINGS_PENDING and any(
                isinstance(n, ast.ImportFrom) and n.module == "micropython" for n in node.body):
            self._bad(node, "a CPython fallback for micropython: write a plain import "
                      "(CPython has tools/sim/micropython.py)")
        self.generic_visit(node)

    def visit_Match(self, node):
        self._bad(node, "match statement (MicroPython has none)")

    def _comp(self, node):
        for sub in ast.walk(node):
            if isinstance(sub, ast.NamedExpr):
                self._bad(node, "walrus in a comprehension")
                break
        self.generic_visit(node)

    visit_ListComp = visit_SetComp = visit_DictComp = visit_GeneratorExp = _comp

    def visit_JoinedStr(self, node):
        seg = ast.get_source_segment(self.src, node) or ""
        if re.search(r"\{[^{}:!]*=\s*(![rsa])?(:[^{}]*)?\}", seg):
            self._bad(node, "f-string `=` specifier")
        self.generic_visit(node)


def run_house(out=sys.stdout):
    problems = []
    for top in ("firmware", "boards"):
        for dirpath, dirnames, filenames in os.walk(os.path.join(ROOT, top)):
            dirnames[:] = sorted(d for d in dirnames if d != "__pycache__")
            for fn in sorted(filenames):
                if not fn.endswith(".py"):
                    continue
                path = os.path.join(dirpath, fn)
                rel = os.path.relpath(path, ROOT).replace(os.sep, "/")
                with open(path) as f:
                    src = f.read()
                try:
                    tree = ast.parse(src, rel)
                except SyntaxError as e:
                    problems.append("%s:%s: syntax error: %s" % (rel, e.lineno, e.msg))
                    continue
                v = _House(rel, src)
                v.visit(tree)
                problems += v.problems
    for p in problems:
        out.write(p + "\n")
    out.write("house rules: %s\n" % ("clean" if not problems else "%d problems" % len(problems)))
    return 1 if problems else 0


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--no-pyright", action="store_true")
    ap.add_argument("--no-ruff", action="store_true")
    ap.add_argument("--no-house", action="store_true")
    args = ap.parse_args(argv)
    status = 0
    if not args.no_house:
        status |= run_house()
    if not args.no_ruff:
        status |= run_ruff()
    if not args.no_pyright:
        status |= run_pyright()
    print("check: %s" % ("OK" if status == 0 else "FAILED"))
    return status


if __name__ == "__main__":
    sys.exit(main())
