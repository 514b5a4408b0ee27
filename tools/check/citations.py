"""Every upstream `path:line` the repository cites, checked against the MicroPython
v1.28.0 tarballs in ../shared/toolchain/ (the source and the ESP32 extra).

Usage: python tools/check/citations.py [--list]

A citation is a file path, an optional ` v1.28.0`, then `:line` or `:first-last`
(`py/gc.c:727-734`, `inisetup.py` v1.28.0:5-15); a bare `:line` after one (`and :2006`,
`(:18-34)`) cites the same file again, and `, first-last` right after one adds a range.
A short name (`espnow.rst`) is the last full path with that name cited before it in the
same file, else the one file of that name in the tarballs. What must hold:
- the file is in the tarballs (or its upstream is named in OTHER_UPSTREAM) and the lines
  are in it;
- a word quoted next to the citation stands on the cited lines: a `backticked` name just
  before it (`check_bootsec()` (`inisetup.py` v1.28.0:5-15)) and a "quoted text" just
  after it (`README.md:54-56` says "The current ..."; a quote's `...` ends it);
- the cited lines neither start nor end on a blank line.
The host_tests/test_citations.py test runs this on docs/, firmware/, boards/, tools/,
host_tests/ and README.md.
"""
import argparse
import os
import re
import sys
import tarfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "tools", "bench"))
import mp32  # noqa: E402  (where the toolchain's tarballs are)

TARBALLS = ("micropython-1.28.0-src.tar.gz", "micropython-1.28.0-esp32-extra.tar.gz")
TOP = "micropython-1.28.0/"
SCANNED = ("docs", "firmware", "boards", "tools", "host_tests", "README.md")
NOT_SCANNED = ("tools/check/citations.py", "host_tests/test_citations.py")  # examples
TEXT = (".md", ".py", ".c", ".h", ".mk", ".rst", ".txt", ".js", ".html", ".json")
# Upstreams with no tarball here: cited paths under these are not checked (the reason).
OTHER_UPSTREAM = {
    "docs/en/": "ESP-IDF's documentation (not in ../shared/toolchain)",
    "components/": "ESP-IDF's source (not in ../shared/toolchain)",
}
OTHER_SHORT = {"wifi.rst": "docs/en/", "Kconfig": "components/"}
# A path that is a citation of upstream when it resolves or starts with one of these.
UPSTREAM_ROOTS = ("py/", "ports/", "extmod/", "lib/", "shared/", "docs/", "mpy-cross/",
                  "tests/", "components/")

_J = r"(?:\n[ \t]*(?:#|//|\*)?[ \t]*)?"  # a line break inside a comment or paragraph
PATH = r"(?:[A-Za-z0-9_.-]+/" + _J + r")*(?:[A-Za-z0-9_-]+\.(?:py|c|h|rst|md|csv|txt|mk|ld)|Kconfig)"
CITE = re.compile(r"(?<![\w/.-])(?P<path>" + PATH + r")`?(?: v1\.28\.0)?:" + _J
                  + r"(?P<a>\d+)(?:-(?P<b>\d+))?(?!\d|:\d)")
AGAIN = re.compile(r"(?<=[ (]):(?P<a>\d+)(?:-(?P<b>\d+))?(?!\d|:\d)")
MORE = re.compile(r", (?P<a>\d+)-(?P<b>\d+)(?!\d)")
QUOTE_AFTER = re.compile(r"`?(?: at v1\.28\.0)?\)?[,:;]?(?: says)?\s*\"(?P<q>[^\"]+)\"")
NAME_BEFORE = re.compile(r"`(?P<w>[A-Za-z_][\w.]*)(?:\(\))?`\s*\(`?$")
_JOIN = re.compile(_J[3:-2])
NEAR = 400  # a bare `:line` cites the last file cited at most this many characters before


class Upstream:
    """The tarballs' files, read on demand."""

    def __init__(self, folder=None):
        folder = folder or os.path.dirname(mp32.source())
        self.paths = [os.path.join(folder, t) for t in TARBALLS]
        missing = [p for p in self.paths if not os.path.exists(p)]
        if missing:
            raise FileNotFoundError("no upstream tarball: %s" % ", ".join(missing))
        self.members = {}
        for i, p in enumerate(self.paths):
            with tarfile.open(p) as tf:
                for m in tf.getmembers():
                    if m.isfile() and m.name.startswith(TOP):
                        self.members[m.name[len(TOP):]] = (i, m.name)
        self.by_name = {}
        for rel in self.members:
            self.by_name.setdefault(rel.rsplit("/", 1)[-1], []).append(rel)
        self._lines = {}

    def lines(self, rel):
        if rel not in self._lines:
            i, name = self.members[rel]
            with tarfile.open(self.paths[i]) as tf:
                text = tf.extractfile(name).read().decode("utf-8", "replace")
            self._lines[rel] = text.split("\n")
        return self._lines[rel]


def _clean(path):
    return re.sub(r"\n[ \t]*(?:#|//|\*)?[ \t]*", "", path)


def _flat(text):
    return " ".join(_JOIN.sub(" ", text).split())


def citations(text):
    """[(offset, cited path as written, first, last, quoted words)] in text."""
    out = []
    for m in CITE.finditer(text):
        path = _clean(m.group("path"))
        out.append([m.start(), m.end(), path, int(m.group("a")), int(m.group("b") or m.group("a"))])
        n = MORE.match(text, m.end())
        if n:
            out.append([m.start(), n.end(), path, int(n.group("a")), int(n.group("b"))])
    for m in AGAIN.finditer(text):
        last = [c for c in out if c[1] <= m.start() and m.start() - c[1] <= NEAR]
        if last:
            prev = max(last, key=lambda c: c[1])
            out.append([m.start(), m.end(), prev[2], int(m.group("a")), int(m.group("b") or m.group("a"))])
    result = []
    for start, end, path, a, b in sorted(out):
        words = []
        q = QUOTE_AFTER.match(text, end)
        if q:
            words.append(q.group("q").split("...")[0].strip().rstrip(","))
        w = NAME_BEFORE.search(text[max(0, start - 60):start])
        if w:
            words.append(w.group("w"))
        result.append((start, path, a, b, [x for x in words if x]))
    return result


def resolve(up, path, earlier):
    """The tarball path a cited path means; None when it is no citation of upstream;
    raises ValueError when it should be one and is not found."""
    for prefix in OTHER_UPSTREAM:
        if path.startswith(prefix):
            return prefix
    if path in OTHER_SHORT:
        return OTHER_SHORT[path]
    if path in up.members:
        return path
    if "/" not in path:
        for prev in reversed(earlier):
            if prev.endswith("/" + path) and prev in up.members:
                return prev
        found = up.by_name.get(path, [])
        if len(found) == 1:
            return found[0]
        if found:
            raise ValueError("%s is one of %d files in the tarballs (%s...): cite its path"
                             % (path, len(found), ", ".join(sorted(found)[:3])))
        return None
    if path.startswith(UPSTREAM_ROOTS):
        raise ValueError("%s is not in the v1.28.0 tarballs" % path)
    return None


def check_text(up, rel, text):
    """([problems], number of citations checked) for one file's text."""
    problems, checked, earlier = [], 0, []
    for start, path, a, b, words in citations(text):
        line = text.count("\n", 0, start) + 1
        where = "%s:%d: %s:%d%s" % (rel, line, path, a, "-%d" % b if b != a else "")
        try:
            target = resolve(up, path, earlier)
        except ValueError as e:
            problems.append("%s: %s" % (where, e))
            continue
        if target is None:
            continue
        earlier.append(target)
        if target.endswith("/") and target not in up.members:
            continue  # another upstream (OTHER_UPSTREAM)
        lines = up.lines(target)
        checked += 1
        if not (1 <= a <= b <= len(lines)):
            problems.append("%s: %s has %d lines" % (where, target, len(lines)))
            continue
        if not (lines[a - 1].strip() and lines[b - 1].strip()):
            problems.append("%s: the range starts or ends on a blank line of %s" % (where, target))
        cited = _flat("\n".join(lines[a - 1:b]))
        for w in words:
            if _flat(w) not in cited:
                problems.append("%s: %r is not on those lines of %s" % (where, w, target))
    return problems, checked


def scanned_files(root=ROOT):
    for top in SCANNED:
        path = os.path.join(root, top)
        if os.path.isfile(path):
            yield top
            continue
        for dirpath, dirnames, filenames in os.walk(path):
            dirnames[:] = sorted(d for d in dirnames if d not in ("__pycache__", "node_modules", "golden"))
            for fn in sorted(filenames):
                rel = os.path.relpath(os.path.join(dirpath, fn), root).replace(os.sep, "/")
                if fn.endswith(TEXT) and rel not in NOT_SCANNED:
                    yield rel


def check_all(up, root=ROOT):
    """([problems], citations checked, files with one)."""
    problems, checked, files = [], 0, 0
    for rel in scanned_files(root):
        with open(os.path.join(root, rel), encoding="utf-8", errors="replace") as f:
            p, n = check_text(up, rel.replace(os.sep, "/"), f.read())
        problems += p
        checked += n
        files += bool(n)
    return problems, checked, files


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--list", action="store_true", help="every citation found")
    args = ap.parse_args(argv)
    up = Upstream()
    if args.list:
        for rel in scanned_files():
            with open(os.path.join(ROOT, rel), encoding="utf-8", errors="replace") as f:
                for _s, path, a, b, words in citations(f.read()):
                    print("%s: %s:%d-%d %s" % (rel, path, a, b, words))
        return 0
    problems, checked, files = check_all(up)
    for p in problems:
        print(p)
    print("citations: %d checked in %d files, %d wrong" % (checked, files, len(problems)))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
