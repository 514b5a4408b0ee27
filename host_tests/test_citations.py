"""Every upstream `path:line` cited in docs/, firmware/, boards/, tools/, host_tests/ and
the README names lines of MicroPython v1.28.0 that hold what it says: the file and the
lines exist, a quoted word next to it stands on them, the range does not start or end
on a blank line (tools/check/citations.py, against ../shared/toolchain/'s tarballs)."""
import pytest

import citations
import mp32

# Cited in a file whose rewrite (issue 43's link part) is merged apart: fixed there;
# drop the line once it is (the test fails on any other wrong citation).
PENDING = ("firmware/link/host.py:9: docs/library/espnow.rst:386-387:",)


@pytest.fixture(scope="module")
def upstream():
    try:
        return citations.Upstream()
    except FileNotFoundError as e:
        if mp32.in_ci():
            raise
        pytest.skip(str(e))


def test_every_citation_names_the_lines_it_means(upstream):
    problems, checked, files = citations.check_all(upstream)
    assert [p for p in problems if not p.startswith(PENDING)] == []
    assert checked >= 90 and files >= 20, (checked, files)


def problems(upstream, text):
    return citations.check_text(upstream, "x.md", text)[0]


def test_a_wrong_citation_is_found(upstream):
    # ports/esp32/modules/inisetup.py: check_bootsec at 5-15, fs_corrupted at 18-34.
    good = "`check_bootsec()` (`inisetup.py` v1.28.0:5-15) calls `fs_corrupted()` (:18-34).\n"
    assert problems(upstream, good) == []
    assert citations.check_text(upstream, "x.md", good)[1] == 2
    bad = good.replace(":18-34", ":31-47")
    assert problems(upstream, bad) == [
        "x.md:1: inisetup.py:31-47: 'fs_corrupted' is not on those lines of "
        "ports/esp32/modules/inisetup.py"]
    quoted = 'espnow.rst:384-385, "Dropped packets will still be\n  acknowledged"'
    assert problems(upstream, quoted) == []
    assert problems(upstream, quoted.replace("384-385", "382-383"))
    # The note's lines end on a blank one at 386-387.
    assert "blank line" in problems(upstream, "(espnow.rst:386-387)")[0]
    assert "has 58 lines" in problems(upstream, "ports/esp32/modules/inisetup.py:57-59")[0]
    assert "cite its path" in problems(upstream, "(gccollect.c:84-86)")[0]
    assert "not in the v1.28.0 tarballs" in problems(upstream, "py/nothing.c:3")[0]
    # A short name is the last full path of that name cited before it.
    assert problems(upstream, "ports/esp32/gccollect.c:84 and gccollect.c:84-86") == []
    # Not upstream: the project's own messages and ESP-IDF's docs are left alone.
    assert citations.check_text(upstream, "x.md", "user.py:4: a message; wifi.rst:3761-3772")[1] == 0
