"""Figures in the docs that the code produces, generated into marked places.

Usage: python tools/gen/docfigures.py            # rewrite every figure that is not a time
       python tools/gen/docfigures.py --times    # measure the times too (a minute or so)
       python tools/gen/docfigures.py --check    # exit 1 when a figure that is not a time is stale
       python tools/gen/docfigures.py --list     # the figures and where they are

A figure in a markdown file of the repository (README.md, docs/, boards/, ...) is the
text between two comments, on one line or several:

    <!-- figure:build:esp32_devkit -->60 files, 112303 bytes (88572 of `.mpy`)<!-- /figure -->

The name before the first ':' is one of FIGURES below, what follows is its argument (a
board). Counts and sizes come out the same on every machine, so a test
(host_tests/test_docs.py) fails when one is stale: run this tool after changing the
firmware. Times (TIMED) depend on the machine and its load: they are written with the
command that measured them and never checked.
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import paths  # noqa: E402,F401  (the tools' folders on sys.path)
import build as buildmod  # noqa: E402
import gen_package  # noqa: E402

ROOT = buildmod.ROOT
MARK = re.compile(r"<!-- figure:([a-z0-9_-]+)(?::([A-Za-z0-9_.-]+))? -->(.*?)<!-- /figure -->",
                  re.S)
SKIP_DIRS = {".git", ".venv", "build", "node_modules", "typings", ".pytest_cache",
             ".hypothesis", "__pycache__"}


class FigureError(Exception):
    """A marker names a figure this tool does not know, or one it cannot make."""


# ---- the figures ---------------------------------------------------------------------

_builds = {}


def _build(board):
    """tools/flashing/build.py's listing of board, built once per run into a temporary folder."""
    if board not in _builds:
        if board not in buildmod.boards():
            raise FigureError("no board %r (boards/ has: %s)" % (board, ", ".join(buildmod.boards())))
        with tempfile.TemporaryDirectory(prefix="docfigures_") as out:
            _builds[board] = buildmod.build(board, out)
    return _builds[board]


def fig_build(board):
    """What `make build BOARD=board` makes: files, bytes, of them .mpy."""
    listing = _build(board)
    mpy = sum(size for dev, size, _h in listing if dev.endswith(".mpy"))
    return "%d files, %d bytes (%d of `.mpy`)" % (
        len(listing), sum(size for _d, size, _h in listing), mpy)


def fig_build_files(board):
    """The number of files a build of board has (what a first deploy copies)."""
    return str(len(_build(board)))


def fig_freeze_boards(_arg=None):
    """Each hardware board's freeze manifest and the port's BOARD= for it."""
    rows = ["| board profile | chip | `BOARD=` | manifest |", "|---|---|---|---|"]
    for b in buildmod.hardware_boards():
        chip = buildmod.profile(b).get("CHIP", "esp32")
        rows.append("| `%s` | %s | `%s` | `boards/freeze/%s/manifest.py` |" % (
            b, chip, gen_package.port_board(b), b))
    return "\n" + "\n".join(rows) + "\n"


def fig_build_time(board):
    """Seconds for tools/flashing/build.py to compile board into an empty folder (timed)."""
    with tempfile.TemporaryDirectory(prefix="docfigures_") as out:
        t = time.monotonic()
        buildmod.build(board, out)
        secs = time.monotonic() - t
    return "%.1f s (%s, `python tools/gen/docfigures.py --times`)" % (secs, time.strftime("%Y-%m-%d"))


def fig_deploy_times(board):
    """The times of a first deploy of board to a fresh emulated board (every file of
    the build) and a second one (none) (timed)."""
    with tempfile.TemporaryDirectory(prefix="docfigures_") as tmp:
        proc = subprocess.Popen(
            [sys.executable, os.path.join(ROOT, "tools", "emuboard", "emuboard.py"), "--image",
             os.path.join(tmp, "flash.img"), "--ctl", os.path.join(tmp, "ctl"),
             "--exit-on-eof"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL, text=True, cwd=ROOT)
        try:
            port = None
            for line in proc.stdout:
                if line.startswith("PORT "):
                    port = line.split()[1]
                if line.startswith("CTL "):
                    break
            if not port:
                raise FigureError("the emulated board did not start")
            runs = []
            for _ in range(2):
                t = time.monotonic()
                p = subprocess.run(
                    [sys.executable, os.path.join(ROOT, "tools", "flashing", "deploy.py"), "--board", board,
                     "--port", port, "--build-dir", os.path.join(tmp, "build")],
                    cwd=ROOT, capture_output=True, text=True, timeout=600)
                secs = time.monotonic() - t
                m = re.search(r"(\d+) files in the build, (\d+) copied", p.stdout)
                if p.returncode != 0 or not m:
                    raise FigureError("deploy failed: %s" % (p.stdout + p.stderr)[-2000:])
                runs.append((int(m.group(2)), secs))
        finally:
            proc.stdin.close()
            proc.wait(30)
    (n1, s1), (n2, s2) = runs
    # The counts stand in the docs untimed (build-files, "none"), checked with the rest.
    if (n1, n2) != (len(_build(board)), 0):
        raise FigureError("the deploys copied %d then %d files, not the build's %d then none"
                          % (n1, n2, len(_build(board))))
    return "%.0f s and %.0f s (%s, `python tools/gen/docfigures.py --times`)" % (
        s1, s2, time.strftime("%Y-%m-%d"))


FIGURES = {
    "build": fig_build,
    "build-files": fig_build_files,
    "freeze-boards": fig_freeze_boards,
    "build-time": fig_build_time,
    "deploy-times": fig_deploy_times,
}
TIMED = ("build-time", "deploy-times")


# ---- the files -----------------------------------------------------------------------

def markdown_files(root=ROOT):
    out = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if d not in SKIP_DIRS)
        for fn in sorted(filenames):
            if fn.endswith(".md"):
                out.append(os.path.join(dirpath, fn))
    return out


def value(name, arg):
    if name not in FIGURES:
        raise FigureError("unknown figure %r (known: %s)" % (name, ", ".join(sorted(FIGURES))))
    return FIGURES[name](arg)


def render(text, times=False, where="?"):
    """text with its figures made anew (times only with times=True); raises FigureError."""
    def one(m):
        name, arg, old = m.group(1), m.group(2), m.group(3)
        if name in TIMED and not times:
            if name not in FIGURES:
                raise FigureError("%s: unknown figure %r" % (where, name))
            return m.group(0)
        try:
            new = value(name, arg)
        except FigureError as e:
            raise FigureError("%s: %s" % (where, e)) from None
        whole, cut = m.group(0), m.start(3) - m.start(0)
        return whole[:cut] + new + whole[cut + len(old):]
    return MARK.sub(one, text)


def figures(root=ROOT):
    """[(relative path, name, argument)] of every marker."""
    out = []
    for path in markdown_files(root):
        with open(path, encoding="utf-8") as f:
            for m in MARK.finditer(f.read()):
                out.append((os.path.relpath(path, root), m.group(1), m.group(2)))
    return out


def stale(root=ROOT):
    """[(relative path, what is wrong)] for every file whose figures are not current."""
    bad = []
    for path in markdown_files(root):
        rel = os.path.relpath(path, root)
        with open(path, encoding="utf-8") as f:
            text = f.read()
        if "<!-- figure:" not in text:
            continue
        try:
            new = render(text, where=rel)
        except FigureError as e:
            bad.append((rel, str(e)))
            continue
        if new != text:
            olds = [m.group(0) for m in MARK.finditer(text)]
            news = [m.group(0) for m in MARK.finditer(new)]
            diff = ["%s is now %s" % (o, n) for o, n in zip(olds, news) if o != n]
            bad.append((rel, "; ".join(diff)))
    return bad


def write(root=ROOT, times=False, out=sys.stdout):
    for path in markdown_files(root):
        with open(path, encoding="utf-8") as f:
            text = f.read()
        if "<!-- figure:" not in text:
            continue
        rel = os.path.relpath(path, root)
        new = render(text, times, rel)
        if new != text:
            with open(path, "w", encoding="utf-8") as f:
                f.write(new)
            out.write("wrote %s\n" % rel)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--check", action="store_true", help="exit 1 when a figure is stale")
    ap.add_argument("--times", action="store_true", help="measure the timed figures too")
    ap.add_argument("--list", action="store_true", help="list the figures and their files")
    a = ap.parse_args(argv)
    try:
        if a.list:
            for rel, name, arg in figures():
                print("%s: %s%s%s" % (rel, name, ":" + arg if arg else "",
                                       " (timed)" if name in TIMED else ""))
            return 0
        if a.check:
            bad = stale()
            for rel, why in bad:
                print("stale: %s: %s (run python tools/gen/docfigures.py)" % (rel, why))
            return 1 if bad else 0
        write(times=a.times)
    except FigureError as e:
        print("docfigures: %s" % e, file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
