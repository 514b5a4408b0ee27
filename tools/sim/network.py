"""Stand-in for MicroPython's `network` (the WLAN interface ESP-NOW needs), for the
simulator and the link tests: only what the firmware's link uses.

The MAC address comes from the stand-in radio's station number (espnow.py:
POCKET_RADIO's id). Nothing connects anywhere.
"""
STA_IF = 0
AP_IF = 1

_active = [False, False]


class WLAN:
    IF_STA = 0
    IF_AP = 1

    def __init__(self, interface=0):
        if interface not in (0, 1):
            raise ValueError("interface")
        self._if = interface

    def active(self, on=None):
        if on is None:
            return _active[self._if]
        _active[self._if] = bool(on)
        return None

    def config(self, name=None, **kw):
        if name == "mac":
            import espnow
            return espnow.mac_of(espnow.station() + (0 if self._if == 0 else 0x80))
        if name == "channel":
            return 1
        if name is None:
            return None
        raise ValueError("unknown config param")

    def disconnect(self):
        pass

    def isconnected(self):
        return False
