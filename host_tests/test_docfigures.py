"""The docs say what the code does: the figures generated into them are current
(tools/gen/docfigures.py), CHANGELOG.md's newest entry is the version the firmware says,
and `make help` names what the Makefile does (`make wiring` writes the PNGs it says)."""
import os
import re
import subprocess

from conftest import ROOT

import build  # noqa: E402
import docfigures  # noqa: E402


def test_the_figures_in_the_docs_are_current():
    bad = docfigures.stale()
    assert bad == [], "\n".join("%s: %s" % b for b in bad) + "\nrun python tools/gen/docfigures.py"
    names = {(rel, name) for rel, name, _arg in docfigures.figures()}
    assert ("docs/building.md", "build") in names  # the build's files and bytes
    assert ("docs/building-frozen.md", "freeze-boards") in names
    assert docfigures.main(["--check"]) == 0  # the command's exit status (builds cached)


def test_a_stale_figure_is_found_and_rewritten(tmp_path):
    listing = build.build("esp32_devkit", str(tmp_path / "out"))
    files = len(listing)
    doc = tmp_path / "docs" / "x.md"
    doc.parent.mkdir()
    doc.write_text(
        "A build is <!-- figure:build-files:esp32_devkit -->%d<!-- /figure --> files.\n"
        "It takes <!-- figure:build-time:esp32_devkit -->about 1 s<!-- /figure -->.\n"
        % (files + 3))
    bad = docfigures.stale(str(tmp_path))
    assert len(bad) == 1 and bad[0][0] == os.path.join("docs", "x.md"), bad
    assert ">%d<" % (files + 3) in bad[0][1] and ">%d<" % files in bad[0][1], bad
    docfigures.write(str(tmp_path), out=open(os.devnull, "w"))
    text = doc.read_text()
    assert "figure:build-files:esp32_devkit -->%d<!-- /figure --> files." % files in text
    assert "about 1 s" in text  # a time is measured only when asked (--times)
    assert docfigures.stale(str(tmp_path)) == []


def test_an_unknown_figure_is_an_error(tmp_path):
    (tmp_path / "y.md").write_text("<!-- figure:no-such-figure -->1<!-- /figure -->\n")
    bad = docfigures.stale(str(tmp_path))
    assert len(bad) == 1 and "no-such-figure" in bad[0][1], bad


def _version():
    ns = {}
    with open(os.path.join(ROOT, "firmware", "version.py")) as f:
        exec(f.read(), ns)
    return ns["VERSION"]


def test_changelog_starts_with_the_firmwares_version():
    with open(os.path.join(ROOT, "CHANGELOG.md")) as f:
        heads = re.findall(r"^## (\S+)", f.read(), re.M)
    if heads[:1] == ["Unreleased"]:  # changes since the version, until the next bump
        heads = heads[1:]
    version = _version()
    assert re.fullmatch(r"\d+\.\d+\.\d+", version), version
    assert heads and heads[0] == version, (
        "CHANGELOG.md's newest entry is %s, firmware/version.py says %s: bump both together"
        % (heads[:1], version))
    assert len(heads) == len(set(heads)), heads
    newest = [tuple(int(x) for x in h.split(".")) for h in heads]
    assert newest == sorted(newest, reverse=True), heads


def _make(*args, timeout=120):
    return subprocess.run(["make", "-s", "--no-print-directory"] + list(args), cwd=ROOT,
                          capture_output=True, text=True, timeout=timeout)


def test_make_help_names_every_target_and_only_real_ones():
    res = _make("help")
    assert res.returncode == 0, res.stderr
    named = set()
    for line in res.stdout.splitlines():
        m = re.match(r"make ([a-z0-9|-]+( \| [a-z0-9-]+)*)", line)
        assert m, line
        named.update(t.strip() for t in m.group(1).split("|"))
    with open(os.path.join(ROOT, "Makefile")) as f:
        text = f.read()
    phony = set(re.search(r"^\.PHONY:(.*)$", text, re.M).group(1).split())
    assert named <= phony, named - phony
    assert phony - named <= {"help"}, "make help does not name %s" % sorted(phony - named - {"help"})
    for target in sorted(named):
        # -n: each is a rule make knows (prints its commands, runs none)
        dry = _make("-n", target, "BOARD=esp32_devkit", "PORT=/dev/null")
        assert dry.returncode == 0, (target, dry.stderr)


def test_make_wiring_writes_svgs_and_pngs(tmp_path):
    res = _make("wiring", "WIRING_OUT=" + str(tmp_path), timeout=300)
    assert res.returncode == 0, res.stdout + res.stderr
    want = set()
    for b in build.hardware_boards():
        want |= {b + ".svg", b + ".png"}
    assert set(os.listdir(tmp_path)) == want
    for b in build.hardware_boards():
        with open(tmp_path / (b + ".png"), "rb") as f:
            assert f.read(8) == b"\x89PNG\r\n\x1a\n", b
