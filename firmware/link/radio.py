"""The link's transport: frames to and from other handhelds over ESP-NOW.

`Radio()` uses the port's `espnow` and `network` modules: on the device the ESP32's
(MicroPython v1.28.0 ports/esp32/modespnow.c), in the simulator and the link tests
tools/sim/espnow.py's stand-in over loopback UDP with the same API. A third (the
browser's) needs only this class's four methods: mac, send(mac, frame), recv() ->
(mac, frame) or (None, None), close().

Facts used (MicroPython v1.28.0):
- ESP-NOW needs an active WLAN interface, not a connection (docs/library/espnow.rst:
  190-205); STA_IF is network.WLAN.IF_STA (espnow.rst:196-197).
- A peer must be added before send() (espnow.rst:211-213), not to receive
  (espnow.rst:255-257); at most 20 peers (espnow.rst:462-466): a guest adds the
  broadcast address and its host, a host the broadcast address and up to 3 guests.
- send(mac, msg, False) returns at once, True (espnow.rst:227-235): the game never
  waits for the radio's acknowledgement, which says nothing of the game anyway (a full
  receive buffer still acknowledges, espnow.rst:384-385); link.host and link.guest
  resend until the game acknowledges.
- irecv(0) returns at once, reusing its buffers (espnow.rst:292-300, 261-264).
- Errors are OSError(code, "ESP_ERR_ESPNOW_...") (espnow.rst:618-641): a full peer
  table or buffers are counted and the frame is given up (the game resends).
"""
from micropython import const

BROADCAST = b"\xff\xff\xff\xff\xff\xff"
# Every handheld on one Wi-Fi channel: ESP-NOW peers must share it (espnow.rst:246-250,
# 836-863: the channel is set on the STA interface, sta.config(channel=...)).
_CHANNEL = const(1)


class Radio:
    def __init__(self):
        import espnow
        import network
        sta = network.WLAN(network.STA_IF)
        sta.active(True)
        try:
            sta.disconnect()  # never an access point's channel (espnow.rst:197-205)
            sta.config(channel=_CHANNEL)
        except (OSError, ValueError):
            pass  # (a port or stand-in without channels)
        self._sta = sta
        e = espnow.ESPNow()
        e.active(True)
        self._e = e
        self.mac = bytes(sta.config("mac"))
        self._peers = []
        self.sent = 0  # bytes handed to the air (the bench's bytes per round)
        self.got = 0
        self.errors = 0
        self._add(BROADCAST)

    def _add(self, mac):
        if mac not in self._peers:
            try:
                self._e.add_peer(mac)
            except OSError as err:
                if len(err.args) < 2 or err.args[1] != "ESP_ERR_ESPNOW_EXIST":
                    raise
            self._peers.append(mac)

    def forget(self, mac):
        """A guest that left: its place in the peer table is free again."""
        if mac in self._peers and mac != BROADCAST:
            self._peers.remove(mac)
            try:
                self._e.del_peer(mac)
            except OSError:
                pass

    def send(self, mac, frame):
        try:
            self._add(mac)
            self._e.send(mac, frame, False)
            self.sent += len(frame)
        except OSError:
            self.errors += 1  # (full buffers or peer table): the game resends

    def recv(self):
        """(mac, frame) of the next frame received, or (None, None) at once."""
        try:
            mac, msg = self._e.irecv(0)
        except (OSError, ValueError):
            self.errors += 1
            return None, None
        if mac is None or msg is None:
            return None, None
        self.got += len(msg)
        return bytes(mac), bytes(msg)

    def close(self):
        try:
            self._e.active(False)
            self._sta.active(False)
        except OSError:
            pass
