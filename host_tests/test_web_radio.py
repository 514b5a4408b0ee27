"""The page's radio (web/radio.py) against the device's (firmware/link/radio.py), under
CPython with a stand-in for the WebAssembly port's `js` module; and the link game's part
of the site (tools/web/web_link.py): the page's radio written over the device build's
link/radio.mpy, PeerJS and the QR encoder from web/node_modules, link.json's servers.
(The radio between real pages: test_web_link.py.)"""
import importlib
import json
import os
import sys
import types

import pytest

from conftest import ROOT

RADIO = os.path.join(ROOT, "web", "radio.py")


class FakeLink:
    """link_radio.js's window.pdlink: frames in `inbox` (bytes, the sender's address
    first), what was sent in `out`; `open_channel` False: nothing to send to."""

    def __init__(self):
        self.inbox = []
        self.out = []
        self.open_channel = True
        self.closed = False

    def open(self):
        return b"\x02\x11\x22\x33\x44\x55"

    def send(self, mac, frame):
        if self.open_channel:
            self.out.append((bytes(mac), bytes(frame)))
        return self.open_channel

    def recv(self):
        return self.inbox.pop(0) if self.inbox else None

    def close(self):
        self.closed = True


def _radio_module(link):
    js = types.ModuleType("js")
    js.window = types.SimpleNamespace(pdlink=link) if link is not None else types.SimpleNamespace()
    js.Uint8Array = types.SimpleNamespace(new=bytes)
    spec = importlib.util.spec_from_file_location("web_radio_under_test", RADIO)
    mod = importlib.util.module_from_spec(spec)
    saved = sys.modules.get("js")
    sys.modules["js"] = js
    try:
        spec.loader.exec_module(mod)
    finally:
        if saved is None:
            del sys.modules["js"]
        else:
            sys.modules["js"] = saved
    return mod


def test_the_page_radio_has_the_device_radios_interface():
    from link import radio as device
    link = FakeLink()
    web = _radio_module(link)
    assert web.BROADCAST == device.BROADCAST
    r = web.Radio()
    for name in ("mac", "send", "recv", "close", "forget", "sent", "got", "errors"):
        assert hasattr(r, name), name
    assert isinstance(r.mac, bytes) and len(r.mac) == 6


def test_frames_go_out_and_come_in_with_their_senders_address():
    link = FakeLink()
    r = _radio_module(link).Radio()
    r.send(b"\xff" * 6, b"beacon")
    assert link.out == [(b"\xff" * 6, b"beacon")] and r.sent == 6
    link.open_channel = False  # no channel yet: counted, the game resends
    r.send(b"\x02" * 6, b"join")
    assert r.errors == 1 and r.sent == 6
    link.inbox += [b"\x02\xaa\xbb\xcc\xdd\xee" + b"frame", b"\x02\xaa\xbb", None]
    assert r.recv() == (b"\x02\xaa\xbb\xcc\xdd\xee", b"frame") and r.got == 5
    assert r.recv() == (None, None) and r.errors == 2  # too short: no frame in it
    assert r.recv() == (None, None) and r.recv() == (None, None)
    r.close()
    assert link.closed


def test_a_page_without_the_transport_has_no_radio_and_the_lobby_says_so():
    web = _radio_module(None)
    with pytest.raises(OSError):  # ui/link_lobby.py: THE RADIO DID NOT START
        web.Radio()


def _copied_ok():
    mods = os.path.join(ROOT, "web", "node_modules")
    return all(os.path.isdir(os.path.join(mods, p)) for p in ("peerjs", "qrcode-generator", "@micropython"))


@pytest.mark.skipif(not _copied_ok(), reason="no web/node_modules (make web-deps)")
def test_the_site_writes_the_page_radio_over_the_devices(tmp_path):
    import web_build
    site = str(tmp_path / "site")
    m = web_build.build(site)
    paths = [e[1] for e in m["files"]]
    dev = paths.index("/fw/link/radio.mpy")
    page = [i for i, p in enumerate(paths) if p == "/fw/link/radio.mpy" and i != dev]
    assert len(page) == 1 and page[0] > dev  # written after: the page's is the one imported
    name, _, offset, size = m["files"][page[0]]
    assert name == "py/radio.mpy"
    with open(os.path.join(site, "bundle.bin"), "rb") as f:
        assert b"pdlink" in f.read()[offset:offset + size]  # web/radio.py, compiled
    # The link tests' player is not in the site a visitor loads.
    assert not [e for e in m["files"] if "link_pilot" in e[0] or "qstr_pools" in e[0]], m["files"]
    with pytest.raises(ValueError):
        paths.index("/tools/sim/link_pilot.mpy")
    with open(os.path.join(site, "link.json")) as f:
        assert json.load(f) == {}  # PeerJS's public server, its default STUN, no TURN
    for fn, parts in (("peerjs.min.js", ("peerjs", "dist", "peerjs.min.js")),
                      ("qrcode.mjs", ("qrcode-generator", "dist", "qrcode.mjs"))):
        with open(os.path.join(site, fn), "rb") as a, \
                open(os.path.join(ROOT, "web", "node_modules", *parts), "rb") as b:
            assert a.read() == b.read(), fn


@pytest.mark.skipif(not _copied_ok(), reason="no web/node_modules (make web-deps)")
def test_the_servers_go_into_link_json(tmp_path):
    import web_link

    out = str(tmp_path)
    web_link.add(out, ROOT, peer="https://signal.example/p/", stun="none",
                 turn="turn:relay.example:3478,u,pw")
    with open(os.path.join(out, "link.json")) as f:
        assert json.load(f) == {"peer": "https://signal.example/p/", "stun": "none",
                                "turn": "turn:relay.example:3478", "turnuser": "u",
                                "turnpass": "pw"}
    with pytest.raises(ValueError):
        web_link.add(out, ROOT, turn="turn:relay.example:3478,u")


def test_the_offline_copy_names_the_link_files():
    """web/sw.js caches the link's page files at install and PeerJS and the QR encoder at
    their first use: its lists name web_link.py's, so neither is left to the network."""
    import re
    import web_link
    with open(os.path.join(ROOT, "web", "sw.js")) as f:
        sw = f.read()

    def names(const):
        m = re.search(r"const %s = \[([^\]]*)\]" % const, sw)
        assert m, const
        return re.findall(r'"([^"]+)"', m.group(1))
    assert set(web_link.PAGE) <= set(names("PAGE"))
    assert names("LAZY") == list(web_link.LAZY)
    assert not set(web_link.LAZY) & set(names("PAGE"))  # not in a first visit's bytes
