"""A guest of a link game: it lists the hosts in range, joins one, asks the host for
every decision (the host's RNG draws its dice) and mirrors the game from the host's
views.

`Guest(radio, source, saved=None)`; the screen calls `poll(now)` every frame, `join(i)`
(a host of `hosts`), `ask(d)` for its player's decisions. `live` is the game as the
host last told it (core.frenzy_live.Live, None before the first view), `seat` its seat.

Reliability (see link.host): one request at a time, numbered; sent at once and again
every _RESEND ms until a view acknowledges its number. Every frame to the host carries
the view version it has (its acknowledgement); with nothing else to send, a heartbeat
every _HB ms. No valid frame from the host for _LOST ms: `host_lost`; a beacon of the
same game with a new public value (the host restarted) makes the guest join again,
which the host's save recognises by the guest's radio address.
"""
from micropython import const

from core.frenzy_live import Live
from link import proto
from link.proto import NOBODY, PUB_LEN, T_BEACON, T_BYE, T_HB, T_JOIN, T_REQ, T_VIEW

_RESEND = const(200)
_JOIN_MS = const(300)
_HB = const(600)
_LOST = const(3000)
_SEEN = const(2500)  # a host not heard this long leaves the list
_SAVE_V = const(1)

G_SCAN = const(0)
G_JOINING = const(1)
G_IN = const(2)


class Guest:
    def __init__(self, radio, source, saved=None):
        self.radio = radio
        self.src = source
        self.hosts = []  # [mac, gid, code, state, players, pub, last heard]
        self.state = G_SCAN
        self.mac = None  # the host's
        self.gid = 0
        self.pub = None  # the host's public value we agreed a key with
        self.key = None
        self.mine = None  # our public value
        self.seat = NOBODY
        self.live = None
        self.version = 0
        self.lost = 0
        self.kinds = 0
        self.gone = 0
        self.hstate = 0
        self.rseq = 0  # the last request number used
        self.want = None  # the decision waiting for the host
        self.sent = 0
        self.heard = 0
        self.host_lost = False
        self.bye = False
        self.now = 0
        self.rejoin = None  # (mac, gid) of a saved seat to take again
        # Our key pair, made in steps while the list of hosts fills (a frame's share
        # at a time: poll); one per Guest: a restart makes a new one, and a new key.
        self._x = proto.secret(source)
        self._mine = proto.public(self._x)
        self._agreeing = None  # the Power of the key with the host being joined
        if saved is not None:
            if len(saved) != 10 or saved[0] != _SAVE_V:
                raise ValueError("not a link guest's save")
            self.rejoin = (bytes(saved[1:7]), saved[7] << 8 | saved[8])

    def to_bytes(self):
        """The guest's save: the host's radio address, the game id, the seat."""
        if self.mac is None:
            raise ValueError("not joined")
        return bytes((_SAVE_V,)) + self.mac + bytes((self.gid >> 8, self.gid & 0xFF, self.seat))

    def join(self, i):
        """Join host i of `hosts` (its key is agreed over the next frames: _keys)."""
        h = self.hosts[i]
        self._join(h[0], h[1], h[5])

    def _join(self, mac, gid, pub):
        # The key is agreed in steps (_keys); JOIN goes out once it is done.
        self._agreeing = proto.shared(self._x, pub)
        self.key = None
        self.mac = mac
        self.gid = gid
        self.pub = pub
        self.state = G_JOINING
        self.sent = self.now - _JOIN_MS
        self.heard = self.now
        self.want = None
        self.rseq = 0  # numbered per key (link.host)
        self.version = 0

    def ask(self, d):
        """Ask the host for decision d (one at a time: False while one is waiting)."""
        if self.want is not None or self.state != G_IN:
            return False
        self.rseq += 1
        self.want = d
        self._send(self.now)
        return True

    def waiting(self):
        return self.want is not None

    def _send(self, now):
        v = self.version
        if self.want is not None:
            q = self.rseq
            p = bytes((q >> 8 & 0xFF, q & 0xFF, v >> 8 & 0xFF, v & 0xFF,
                       self.want >> 8, self.want & 0xFF))
            f = proto.seal(self.key, T_REQ, self.gid, self.seat, p)
        else:
            f = proto.seal(self.key, T_HB, self.gid, self.seat, bytes((v >> 8 & 0xFF, v & 0xFF)))
        self.radio.send(self.mac, f)
        self.sent = now

    def poll(self, now):
        self.now = now
        r = self.radio
        for _ in range(16):
            mac, f = r.recv()
            if mac is None:
                break
            self._frame(mac, f, now)
        self._keys(now)
        st = self.state
        if st == G_JOINING and self.key is not None and now - self.sent >= _JOIN_MS:
            self.sent = now
            r.send(self.mac, proto.seal(self.key, T_JOIN, self.gid, NOBODY, self.mine))
        elif st == G_IN:
            if now - self.sent >= (_RESEND if self.want is not None else _HB):
                self._send(now)
        if st != G_SCAN and self._agreeing is None:
            self.host_lost = now - self.heard > _LOST
        i = 0
        while i < len(self.hosts):
            if now - self.hosts[i][6] > _SEEN:
                self.hosts.pop(i)
            else:
                i += 1

    def _keys(self, now):
        """A frame's share of the key agreement (proto.STEP_OPS big-number operations):
        our public value first, then the key with the host being joined."""
        pw = self._mine
        if pw is not None:
            if pw.step():
                self.mine = proto.pub_bytes(pw.value)
                self._mine = None
            return
        a = self._agreeing
        if a is not None and a.step():
            self._agreeing = None
            self.key = proto.Key(proto.key_of(a.value, self.gid))
            self.sent = now - _JOIN_MS  # JOIN at once
            self.heard = now

    def _frame(self, mac, f, now):
        h = proto.peek(f)
        if h is None:
            return
        typ, gid, _ = h
        if typ == T_BEACON:
            p = proto.open_(None, f)
            if p is None or len(p) != 3 + PUB_LEN:
                return
            pub = p[3:]
            self._listed(mac, gid, p, pub, now)
            if self.mac == mac and self.gid == gid and self.state != G_SCAN \
                    and pub != self.pub and self.host_lost:
                self._join(mac, gid, pub)  # the host restarted: a new key
            elif self.rejoin is not None and self.rejoin == (mac, gid):
                self.rejoin = None
                self._join(mac, gid, pub)
            return
        if mac != self.mac or gid != self.gid or self.key is None:
            return
        p = proto.open_(self.key, f)
        if p is None:
            return
        self.heard = now
        if typ == T_BYE:
            self.bye = True
            return
        if typ != T_VIEW or len(p) < 9:
            return
        v = p[0] << 8 | p[1]
        if self.state == G_IN and v <= self.version:
            return
        live = self.live
        if len(p) > 9:
            try:
                live = Live.from_bytes(bytes(p[9:]))
            except (ValueError, IndexError):
                return  # malformed: dropped, nothing changed
        self.live = live
        self.version = v
        self.state = G_IN
        self.seat = p[4]
        self.hstate = p[5]
        self.lost = p[6]
        self.kinds = p[7]
        self.gone = p[8]
        q = p[2] << 8 | p[3]
        if self.want is not None and q >= self.rseq:
            self.want = None

    def _listed(self, mac, gid, p, pub, now):
        hs = self.hosts
        for h in hs:
            if h[0] == mac:
                h[1] = gid
                h[2] = proto.code(pub) if h[5] != pub else h[2]
                h[3] = p[0]
                h[4] = p[1]
                h[5] = pub
                h[6] = now
                return
        if len(hs) < 4:
            hs.append([mac, gid, proto.code(pub), p[0], p[1], pub, now])

    def leave(self):
        if self.key is not None and self.state == G_IN:
            self.radio.send(self.mac, proto.seal(self.key, T_BYE, self.gid, self.seat, b""))
