"""Stand-in for MicroPython's `network` (the WLAN interface ESP-NOW needs), for the
simulator and the link tests: only what the firmware's link uses.

The MAC address comes from the stand-in radio's station number (espnow.py:
POCKET_RADIO's id). Nothing connects anywhere.

On the heap model (tools/bench/mp32.py --heap, armed), the first WLAN takes the Wi-Fi
driver's memory out of the modelled ESP-IDF heap, as the device's does: the ESP32
port's first `network.WLAN()` calls esp_wifi_init() (MicroPython v1.28.0
ports/esp32/network_wlan.c:249, from network_wlan_make_new :260), once, and never
esp_wifi_deinit() (WLAN.active(False) only stops it: network_wlan.c:287-291), so
what it takes stays taken. Too little free: OSError, as esp_exceptions() raises
for ESP_ERR_NO_MEM. WIFI_IDF is what is taken (docs/link.md, "The radio's heap").
"""
STA_IF = 0
AP_IF = 1

# The Wi-Fi driver's ESP-IDF heap with ESP-NOW running, as ESP-IDF v5.5.1 documents it
# (the version MicroPython v1.28.0 recommends: ports/esp32/README.md:55; the port's
# boards/sdkconfig.base changes none of these):
# - 10 static RX buffers of 1,600 bytes, allocated by esp_wifi_init() and kept until
#   esp_wifi_deinit() (docs/en/api-guides/wifi.rst:3754-3760, "Wi-Fi Buffer Configure";
#   components/esp_wifi/Kconfig:26-34, ESP_WIFI_STATIC_RX_BUFFER_NUM default 10);
# - 5 static RX management buffers of about 500 bytes, allocated at init as well
#   (Kconfig:132-141, static by default; :156-163, ESP_WIFI_RX_MGMT_BUF_NUM_DEF 5);
# - dynamic buffers while frames are on their way (wifi.rst:3761-3772): the link has
#   one frame in flight per peer at most (the broadcast and 3 guests), each counted
#   at a static buffer's 1,600 bytes, more than a 250-byte ESP-NOW frame needs.
# Not in the documents, so not in the figure: the driver's own state and its task's
# stack (the device report measures the whole on a board: docs/link.md).
WIFI_STATIC_RX = 10 * 1600
WIFI_MGMT_RX = 5 * 500
WIFI_IN_FLIGHT = 4 * 1600
WIFI_IDF = WIFI_STATIC_RX + WIFI_MGMT_RX + WIFI_IN_FLIGHT

_active = [False, False]
_wifi = [False]  # esp_wifi_init() done


def _wifi_init():
    if _wifi[0]:
        return
    try:
        import heapmodel
        take = heapmodel.take
    except (ImportError, AttributeError):  # not the heap model (CPython: tools/heapmodel/)
        take = None
    if take is not None and take(WIFI_IDF) is False:
        raise OSError(12, "ESP_ERR_NO_MEM")
    _wifi[0] = True


class WLAN:
    IF_STA = 0
    IF_AP = 1

    def __init__(self, interface=0):
        if interface not in (0, 1):
            raise ValueError("interface")
        _wifi_init()
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
