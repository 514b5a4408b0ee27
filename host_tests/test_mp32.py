"""tools/bench/mp32.py's bookkeeping around the 32-bit build (the make itself is stood in for:
the real build is the bench's and the frame model's, tested there): it builds on first
use and when the source changes, one process at a time, and says so first, so that
`make emuboard` is not silent for the minute it takes."""
import os
import threading
import time

import pytest

import emu_process  # noqa: E402
import mp32  # noqa: E402


@pytest.fixture
def fake(tmp_path, monkeypatch):
    """mp32 writing into tmp_path, from a source file there; build() writes a binary
    after a pause and records each call."""
    out = tmp_path / "mp32"
    for name, rel in (("OUT", ""), ("OBJ", "obj"), ("BIN", "obj/micropython"),
                      ("STAMP", "stamp"), ("FRAME_OBJ", "obj-frame"),
                      ("FRAME_BIN", "obj-frame/micropython"), ("FRAME_STAMP", "stamp-frame")):
        monkeypatch.setattr(mp32, name, str(out / rel) if rel else str(out))
    src = tmp_path / "micropython-src.tar.gz"
    src.write_bytes(b"not really a tarball")
    monkeypatch.setenv("MICROPY_SRC", str(src))
    calls = []

    def build(src, quiet=True, frame=False, heap=False):
        calls.append(frame)
        time.sleep(0.3)  # long enough for a second caller to arrive meanwhile
        binary = mp32.FRAME_BIN if frame else mp32.BIN
        os.makedirs(os.path.dirname(binary), exist_ok=True)
        with open(binary, "w") as f:
            f.write("binary")

    monkeypatch.setattr(mp32, "build", build)
    return src, calls


def test_builds_on_first_use_and_when_the_source_changes(fake):
    src, calls = fake
    assert mp32.needs_build()
    assert mp32.binary(required=False) == mp32.BIN
    assert not mp32.needs_build()
    assert mp32.binary(required=False) == mp32.BIN
    assert calls == [False]
    st = os.stat(src)
    os.utime(src, (st.st_atime, st.st_mtime + 10))
    assert mp32.needs_build()
    mp32.binary(required=False)
    assert calls == [False, False]
    # The frame model's build is its own.
    assert mp32.needs_build(frame=True)
    assert mp32.binary(required=False, frame=True) == mp32.FRAME_BIN
    assert calls == [False, False, True]


def test_callers_at_once_wait_for_one_build(fake):
    _src, calls = fake
    got = []
    threads = [threading.Thread(target=lambda: got.append(mp32.binary(required=False)))
               for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert got == [mp32.BIN] * 3
    assert calls == [False]


def test_the_log_is_told_before_the_build_and_only_then(fake):
    _src, calls = fake
    said = []
    mp32.binary(required=False, log=lambda text: said.append((text, list(calls))))
    assert len(said) == 1
    text, calls_then = said[0]
    assert calls_then == [], "told after the build started"
    assert "32-bit" in text and "minute" in text
    mp32.binary(required=False, log=lambda text: said.append(text))
    assert len(said) == 1  # cached: nothing to say


def test_emuboard_says_what_it_waits_for(fake, capsys):
    _src, calls = fake
    assert emu_process.micropython_bin() == mp32.BIN
    err = capsys.readouterr().err.splitlines()
    assert err[0].startswith("emuboard: building the 32-bit MicroPython unix port"), err
    assert err[1].startswith("emuboard: built "), err
    assert emu_process.micropython_bin() == mp32.BIN
    assert capsys.readouterr().err == ""  # the second start is quiet
    assert calls == [False]
