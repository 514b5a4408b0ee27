"""Stand-in for MicroPython's `espnow` over loopback UDP between processes, with the
device's API (MicroPython v1.28.0 docs/library/espnow.rst, ports/esp32/modespnow.c)
and a lossy air: for the simulator (`make sim LINK=3`) and the link tests.

Each process is one station: its number (POCKET_RADIO "id=N", or configure(id=N))
gives its MAC address 02:50:44:4c:00:N and its UDP port BASE + N on 127.0.0.1 (never
another address). A unicast goes to that station's port; the broadcast address
ff:ff:ff:ff:ff:ff goes to every other port of the range (ids 0 to STATIONS - 1).

The air, set by POCKET_RADIO ("id=2,loss=20,dup=5,reorder=10,delay=15,jitter=30,
seed=7,base=47800"; percentages and milliseconds) or configure(): a frame is lost
with `loss` % at the sender (send(sync=True) then returns False, as a frame no radio
acknowledged); at the receiver it is duplicated with `dup` %, held `delay` ms plus up
to `jitter` ms, and with `reorder` % held longer still (delay + 2 x jitter + 40 ms),
so later frames pass it. A frame that arrives while the receive buffer is full is
dropped and counted (stats()[4]), as modespnow.c's recv_cb does
(ports/esp32/modespnow.c:572-579: dropped when 13 + len >= the ring buffer's free
bytes; py/ringbuf.h:85 ringbuf_free = size - used - 1); the sender's send() still
succeeds (docs/library/espnow.rst:381-387: a dropped frame is acknowledged).

`tap=N` (the link tests' attacker, host_tests/link_attacker.py): every unicast frame
also goes to station N's port, as a radio in monitor mode hears every frame on its
channel (broadcasts reach every station anyway).

Known differences from the device: no channels, no encryption (the game's frames carry
their own MAC), RSSI is a constant, and no irq(). Delivery is checked whenever the
firmware calls any(), recv(), irecv(), recvinto() or send().
"""
import socket
import time

MAX_DATA_LEN = 250
ADDR_LEN = 6
KEY_LEN = 16
MAX_TOTAL_PEER_NUM = 20
MAX_ENCRYPT_PEER_NUM = 6
STATIONS = 8
BROADCAST = b"\xff" * 6
_PKT = 13  # a frame's header and address in the ring buffer (modespnow.c:76-86)

_cfg = {"id": 0, "loss": 0, "dup": 0, "reorder": 0, "delay": 0, "jitter": 0,
        "seed": 1, "base": 47800, "tap": 0}
_read = [False]


def _env():
    if _read[0]:
        return
    _read[0] = True
    try:
        import os
        s = os.getenv("POCKET_RADIO")
    except (ImportError, AttributeError):
        s = None
    if s:
        for part in s.split(","):
            k, _, v = part.partition("=")
            if k in _cfg and v:
                _cfg[k] = int(v)


def configure(**kw):
    """Sets the station number and the air (see the module doc), before ESPNow()."""
    _env()
    for k in kw:
        if k not in _cfg:
            raise ValueError("unknown setting " + k)
        _cfg[k] = int(kw[k])


def station():
    _env()
    return _cfg["id"]


def mac_of(n):
    return bytes((2, 0x50, 0x44, 0x4C, 0, n))


def _ms():
    if hasattr(time, "ticks_ms"):
        return time.ticks_ms()
    return int(time.monotonic() * 1000) & 0x3FFFFFFF


def _diff(a, b):
    if hasattr(time, "ticks_diff"):
        return time.ticks_diff(a, b)
    return ((a - b + 0x20000000) & 0x3FFFFFFF) - 0x20000000


def _sleep_ms(ms):
    if hasattr(time, "sleep_ms"):
        time.sleep_ms(ms)
    else:
        time.sleep(ms / 1000)


def _err(name):
    # The codes of ESP-IDF's esp_now.h (ESP_ERR_ESPNOW_BASE 0x3064 + n); the
    # firmware, like the docs' example (espnow.rst:622-639), reads only the name.
    n = ("NOT_INIT", "ARG", "NO_MEM", "FULL", "NOT_FOUND", "INTERNAL", "EXIST", "IF")
    return OSError(0x3065 + n.index(name), "ESP_ERR_ESPNOW_" + name)


def _wlan_active():
    import network
    return network.WLAN(0).active() or network.WLAN(1).active()


class _Air:
    """The lossy air's choices: xorshift32 (portable; no `random` at run time)."""

    def __init__(self, seed):
        self.x = (seed * 2654435761 + 12345) & 0xFFFFFFFF or 1

    def pct(self):
        x = self.x
        x ^= (x << 13) & 0xFFFFFFFF
        x ^= x >> 17
        x ^= (x << 5) & 0xFFFFFFFF
        self.x = x
        return x % 100

    def upto(self, n):
        return self.pct() * n // 100 if n > 0 else 0


_singleton = []


def ESPNow():
    """The one ESPNow object (espnow.rst:99-102: ESPNow() returns the same one)."""
    if not _singleton:
        _singleton.append(_ESPNow())
    return _singleton[0]


class _ESPNow:
    def __init__(self):
        _env()
        self._on = False
        self._sock = None
        self._peers = {}
        self._rxbuf = 2 * (_PKT + MAX_DATA_LEN)  # modespnow.c:94
        self._timeout = 300000
        self._held = []  # (due ms, mac, msg): on the air to us
        self._ring = []  # (mac, msg): in the receive buffer
        self._used = 0
        self._out = bytearray(ADDR_LEN + MAX_DATA_LEN)
        self._addr = {}
        self._stats = [0, 0, 0, 0, 0]
        self._air = _Air(_cfg["seed"] * 31 + _cfg["id"])
        self.peers_table = {}

    # ---- set-up ----------------------------------------------------------------

    def active(self, on=None):
        if on is None:
            return self._on
        if on and not self._on:
            s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
            s.bind(socket.getaddrinfo("127.0.0.1", _cfg["base"] + _cfg["id"])[0][-1])
            s.setblocking(False)
            self._sock = s
            import select
            self._poller = select.poll()
            self._poller.register(s, select.POLLIN)
            self._ring = []
            self._used = 0
            self._held = []
        elif not on and self._on:
            self._sock.close()
            self._sock = None
            self._peers = {}
        self._on = bool(on)
        return self._on

    def _check(self):
        if not self._on:
            raise _err("NOT_INIT")

    def config(self, *args, **kw):
        self._check()
        if args:
            if args[0] == "rxbuf":
                return self._rxbuf
            if args[0] == "timeout_ms":
                return self._timeout
            raise ValueError("unknown config param")
        for k in kw:
            if k == "rxbuf":
                self._rxbuf = int(kw[k])  # takes effect at the next active(True)
            elif k == "timeout_ms":
                self._timeout = int(kw[k])
            elif k != "rate":
                raise ValueError("unknown config param")
        return None

    def set_pmk(self, pmk):
        if len(pmk) != KEY_LEN:
            raise ValueError("invalid buffer length")

    def add_peer(self, mac, lmk=None, channel=0, ifidx=0, encrypt=None):
        self._check()
        mac = bytes(mac)
        if len(mac) != ADDR_LEN:
            raise ValueError("invalid buffer length")
        if mac in self._peers:
            raise _err("EXIST")
        if len(self._peers) >= MAX_TOTAL_PEER_NUM:
            raise _err("FULL")
        self._peers[mac] = (lmk, channel, ifidx, bool(encrypt if encrypt is not None else lmk))

    def del_peer(self, mac):
        self._check()
        mac = bytes(mac)
        if mac not in self._peers:
            raise _err("NOT_FOUND")
        del self._peers[mac]

    def get_peer(self, mac):
        mac = bytes(mac)
        if mac not in self._peers:
            raise _err("NOT_FOUND")
        p = self._peers[mac]
        return (mac, p[0], p[1], p[2], p[3])

    def get_peers(self):
        return tuple(self.get_peer(m) for m in self._peers)

    def peer_count(self):
        enc = 0
        for p in self._peers.values():
            enc += 1 if p[3] else 0
        return (len(self._peers), enc)

    def stats(self):
        return tuple(self._stats)

    # ---- sending ------------------------------------------------------------------

    def send(self, mac, msg=None, sync=True):
        if msg is None:  # send(msg): every registered peer
            mac, msg = None, mac
        self._check()
        if not _wlan_active():
            raise _err("IF")
        if isinstance(msg, str):
            msg = msg.encode()
        msg = bytes(msg)
        if len(msg) > MAX_DATA_LEN:
            raise ValueError("msg too long")
        if mac is None:
            targets = [m for m in self._peers if m != BROADCAST]
        else:
            mac = bytes(mac)
            if len(mac) != ADDR_LEN:
                raise ValueError("invalid buffer length")
            if mac not in self._peers:
                raise _err("NOT_FOUND")
            targets = [mac]
        ok = True
        me = mac_of(_cfg["id"])
        for t in targets:
            self._stats[0] += 1
            if t == BROADCAST:
                ports = [i for i in range(STATIONS) if i != _cfg["id"]]
            elif t[:5] == me[:5]:
                ports = [t[5] & 0x7F]
            else:
                ports = []
            tap = _cfg["tap"]
            if tap and t != BROADCAST and tap not in ports and tap != _cfg["id"]:
                ports = ports + [tap]  # (heard there, and no acknowledgement from it)
            lost = self._air.pct() < _cfg["loss"]
            if not lost:
                out = self._out
                out[:ADDR_LEN] = me
                out[ADDR_LEN:ADDR_LEN + len(msg)] = msg
                for p in ports:
                    a = self._addr.get(p)
                    if a is None:
                        a = self._addr[p] = socket.getaddrinfo("127.0.0.1", _cfg["base"] + p)[0][-1]
                    try:
                        self._sock.sendto(memoryview(out)[:ADDR_LEN + len(msg)], a)
                    except OSError:
                        pass  # nobody listens there: the air carries it nowhere
            self._stats[1] += 1
            if t != BROADCAST and (lost or not ports or tap and ports == [tap]):
                self._stats[2] += 1
                ok = False
        self._pump()
        return ok or not sync

    # ---- receiving --------------------------------------------------------------

    def _pump(self):
        """Frames off the socket onto the air's hold, then those due into the ring."""
        s = self._sock
        air = self._air
        now = _ms()
        while self._ready():
            # Asked first (ipoll: no allocation), so nothing is allocated while nothing
            # arrives: the device's receive path is C, outside the firmware's heap.
            try:
                d = s.recv(ADDR_LEN + MAX_DATA_LEN + 6)
            except OSError:
                break
            if len(d) < ADDR_LEN:
                continue
            n = 2 if air.pct() < _cfg["dup"] else 1
            for _ in range(n):
                wait = _cfg["delay"] + air.upto(_cfg["jitter"])
                if air.pct() < _cfg["reorder"]:
                    wait = _cfg["delay"] + 2 * _cfg["jitter"] + 40
                self._held.append((now + wait, d[:ADDR_LEN], d[ADDR_LEN:]))
        held = self._held
        i = 0
        while i < len(held):
            due, mac, msg = held[i]
            if _diff(now, due) >= 0:
                held.pop(i)
                self._arrive(mac, msg)
            else:
                i += 1

    def _ready(self):
        p = self._poller
        if hasattr(p, "ipoll"):
            for _ in p.ipoll(0):
                return True
            return False
        return bool(p.poll(0))

    def _arrive(self, mac, msg):
        # modespnow.c:576: the frame is dropped when it does not fit the ring.
        if _PKT + len(msg) >= self._rxbuf - self._used - 1:
            self._stats[4] += 1
            return
        self._ring.append((mac, msg))
        self._used += _PKT + len(msg)
        self._stats[3] += 1
        self.peers_table[mac] = [-40, _ms()]

    def any(self):
        self._check()
        self._pump()
        return bool(self._ring)

    def _next(self, timeout_ms):
        self._check()
        if not _wlan_active():
            raise _err("IF")
        if timeout_ms is None:
            timeout_ms = self._timeout
        t0 = _ms()
        while True:
            self._pump()
            if self._ring:
                mac, msg = self._ring.pop(0)
                self._used -= _PKT + len(msg)
                return mac, msg
            if timeout_ms >= 0 and _diff(_ms(), t0) >= timeout_ms:
                return None, None
            _sleep_ms(1)

    def recv(self, timeout_ms=None):
        mac, msg = self._next(timeout_ms)
        if mac is None:
            return [None, None]
        return [mac, msg]

    def irecv(self, timeout_ms=None):
        return self.recv(timeout_ms)

    def recvinto(self, data, timeout_ms=None):
        mac, msg = self._next(timeout_ms)
        if mac is None:
            return 0
        data[0][:] = mac
        data[1][:] = msg
        return len(msg)

    def __iter__(self):
        return self

    def __next__(self):
        return self.recv()
