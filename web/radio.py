"""The link's transport in the browser page: frames to and from other pages over WebRTC
data channels (web/link_radio.js: PeerJS, one channel from each guest's page to the
host's), in place of the device's ESP-NOW.

The web build (tools/web/web_link.py) compiles this file and writes it over the device
build's link/radio.mpy in the port's filesystem, so the firmware's `from link.radio
import Radio` gets it; every other file of the firmware is the device's. It keeps the
device Radio's interface: `mac`, `send(mac, frame)`, `recv()` -> (mac, frame) or
(None, None) at once, `close()`; BROADCAST, `forget(mac)` and the counters `sent`,
`got`, `errors` as link/radio.py has them.

Facts used (MicroPython's WebAssembly port, 1.28.0-6): `bytes(js_uint8array)` copies a
Uint8Array into Python bytes (a memoryview of one does not work); Python bytes go to JS
as a Uint8Array made from them. `js.window.pdlink` is link_radio.js's object; a page
without it (the script did not load: offline) has no radio, and the lobby says so.
"""
import js

BROADCAST = b"\xff\xff\xff\xff\xff\xff"


class Radio:
    def __init__(self):
        link = getattr(js.window, "pdlink", None)
        if link is None:
            raise OSError(19, "no link_radio.js")  # ENODEV: the lobby says no radio
        self._l = link
        self.mac = bytes(link.open())
        self.sent = 0  # bytes handed to the channels (the bench's bytes per round)
        self.got = 0
        self.errors = 0

    def forget(self, mac):
        """A guest that left: nothing to free here (its channel closes on its own)."""

    def send(self, mac, frame):
        if self._l.send(js.Uint8Array.new(mac), js.Uint8Array.new(frame)):
            self.sent += len(frame)
        else:
            self.errors += 1  # no open channel to it (yet): the game resends

    def recv(self):
        """(mac, frame) of the next frame received, or (None, None) at once."""
        m = self._l.recv()
        if m is None:
            return None, None
        b = bytes(m)  # the sender's 6-byte address, then the frame
        if len(b) <= 6:
            self.errors += 1
            return None, None
        self.got += len(b) - 6
        return b[:6], b[6:]

    def close(self):
        self._l.close()
