"""The README and docs/ stay true: every relative link, image and anchor resolves, the
README stays a short front door whose first commands are `make sim` and `make test`,
and every docs file is in the docs index (the figures in them: test_docfigures.py).

Anchors are GitHub's: a heading's text (code spans and links reduced to their text),
lower case, with everything but letters, digits, '_', '-' and spaces dropped and spaces
turned into '-'; a repeated heading gets -1, -2, ..."""
import os
import re

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

README_MAX_LINES = 200

_FENCE = re.compile(r"^ {0,3}(```|~~~)")
_HEADING = re.compile(r"^ {0,3}(#{1,6})\s+(.*?)\s*#*\s*$")
_LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
_REF = re.compile(r"^ {0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)")
_HTML = re.compile(r"""\b(?:src|href)\s*=\s*["']([^"']+)["']""")
_CODE_SPAN = re.compile(r"(`+)(.+?)\1")


def docs_files():
    """README.md, boards/WIRING.md and every docs/*.md, as paths from the root."""
    out = ["README.md", os.path.join("boards", "WIRING.md")]
    docs = os.path.join(ROOT, "docs")
    out += [os.path.join("docs", n) for n in sorted(os.listdir(docs)) if n.endswith(".md")]
    return out


def prose_lines(text):
    """(line number, line) outside fenced and indented code blocks."""
    out = []
    fence = None
    prev_blank = True
    for i, line in enumerate(text.split("\n"), 1):
        m = _FENCE.match(line)
        if fence is not None:
            if m and m.group(1) == fence:
                fence = None
            prev_blank = False
            continue
        if m:
            fence = m.group(1)
            continue
        if line.startswith("    ") and prev_blank and not line.lstrip().startswith(("-", "|", "*")):
            continue  # an indented code block (its following lines too: prev_blank stays)
        prev_blank = not line.strip()
        out.append((i, line))
    return out


def slug(heading):
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # links: their text
    text = _CODE_SPAN.sub(lambda m: m.group(2), text)
    text = re.sub(r"<[^>]+>", "", text).lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(text):
    seen = {}
    out = set()
    for _, line in prose_lines(text):
        m = _HEADING.match(line)
        if not m:
            continue
        s = slug(m.group(2))
        n = seen.get(s, 0)
        seen[s] = n + 1
        out.add(s if n == 0 else "%s-%d" % (s, n))
    for m in re.finditer(r"""<a\s+(?:name|id)\s*=\s*["']([^"']+)["']""", text):
        out.add(m.group(1))
    return out


def links(text):
    """(line number, target) of every link, image, reference and HTML src/href."""
    out = []
    for i, line in prose_lines(text):
        bare = _CODE_SPAN.sub("", line)
        for rx in (_LINK, _REF, _HTML):
            for m in rx.finditer(bare):
                out.append((i, m.group(1)))
    return out


def broken_links(rel, root=ROOT):
    """What is wrong with the relative links of the file rel (a path from root)."""
    path = os.path.join(root, rel)
    with open(path, encoding="utf-8") as f:
        text = f.read()
    here = os.path.dirname(path)
    problems = []
    for line, target in links(text):
        if re.match(r"^[a-z][a-z0-9+.-]*:", target, re.I):
            continue  # https:, mailto: ...: not relative
        part, _, frag = target.partition("#")
        dest = os.path.normpath(os.path.join(here, part)) if part else path
        where = "%s:%d: %s" % (rel, line, target)
        if not os.path.abspath(dest).startswith(os.path.abspath(root) + os.sep):
            problems.append(where + ": outside the repository")
            continue
        if not os.path.exists(dest):
            problems.append(where + ": no such file")
            continue
        if not frag:
            continue
        if dest.endswith(".md"):
            with open(dest, encoding="utf-8") as f:
                known = anchors(f.read())
            if frag not in known:
                problems.append(where + ": no heading with that anchor")
        elif not re.match(r"^L\d+(-L\d+)?$", frag):
            problems.append(where + ": an anchor into a file that is not Markdown")
    return problems


@pytest.mark.parametrize("rel", docs_files())
def test_every_relative_link_resolves(rel):
    problems = broken_links(rel)
    assert not problems, "\n".join(problems)


def test_the_link_check_finds_broken_links(tmp_path):
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "a.md").write_text(
        "# A page\n\n## The `make sim` part, (twice)\n\n## The `make sim` part, (twice)\n\n"
        "[ok](b.md#b-side) [ok](#the-make-sim-part-twice-1) [ok](../x.png)\n"
        "[ok](https://example.com/nothing) `[not a link](nowhere.md)`\n"
        "```\n[not a link either](nowhere.md)\n```\n"
        "[bad file](nowhere.md) [bad anchor](b.md#a-side) ![bad image](img/none.png)\n"
        '<img src="none.svg"> [bad here](#the-make-sim-part-twice-2) [out](../../etc/passwd)\n',
        encoding="utf-8")
    (tmp_path / "docs" / "b.md").write_text("# B side\n", encoding="utf-8")
    (tmp_path / "x.png").write_bytes(b"")
    problems = broken_links(os.path.join("docs", "a.md"), root=str(tmp_path))
    found = sorted(p.split(": ", 1)[1].split(":")[0] for p in problems)
    assert found == sorted(["nowhere.md", "b.md#a-side", "img/none.png", "none.svg",
                            "#the-make-sim-part-twice-2", "../../etc/passwd"]), problems


def test_github_anchors():
    assert slug("Frame time on the device") == "frame-time-on-the-device"
    assert slug("The CPU players: strength, thinking time, memory") == \
        "the-cpu-players-strength-thinking-time-memory"
    assert slug("How much RAM the `.py` route costs") == "how-much-ram-the-py-route-costs"
    assert slug("Where a frame's time goes") == "where-a-frames-time-goes"
    assert slug("The heap (`HEAP=`)") == "the-heap-heap"


def _readme():
    with open(os.path.join(ROOT, "README.md"), encoding="utf-8") as f:
        return f.read()


def test_readme_first_commands_are_make_sim_and_make_test():
    text = _readme()
    m = re.search(r"^```[^\n]*\n(.*?)^```", text, re.S | re.M)
    assert m, "README.md has no code block"
    commands = [ln.split("#", 1)[0].strip() for ln in m.group(1).split("\n")]
    commands = [c for c in commands if c]
    assert commands[:2] == ["make sim", "make test"], commands


def test_readme_is_a_front_door():
    n = _readme().count("\n")
    assert n < README_MAX_LINES, (
        "README.md has %d lines (keep it under %d: move detail into docs/)" % (n, README_MAX_LINES))


def test_every_docs_file_is_in_the_index():
    with open(os.path.join(ROOT, "docs", "README.md"), encoding="utf-8") as f:
        index = {os.path.normpath(t.partition("#")[0]) for _, t in links(f.read())}
    missing = [n for n in os.listdir(os.path.join(ROOT, "docs"))
               if n.endswith(".md") and n != "README.md" and n not in index]
    assert not missing, "docs/README.md does not list %s" % ", ".join(missing)

