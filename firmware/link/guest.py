"""A guest of a link game: it lists the hosts in range, pairs with one, asks the host
for every decision (the host's RNG draws its dice) and mirrors the game from the host's
views.

`Guest(radio, source, saved=None)`; the screen calls `poll(now)` every frame, `join(i)`
(a host of `hosts`), `confirm()` when its player pressed OK at the pairing's `code`,
`ask(d)` for its player's decisions. `live` is the game as the host last told it
(core.frenzy_live.Live, None before the first view), `seat` its seat.

Reliability (see link.host): one request at a time, numbered; sent at once and again
every _RESEND ms until a view acknowledges its number. Every frame to the host carries
the view version it has (its acknowledgement); with nothing else to send, a heartbeat
every _HB ms. No valid frame from the host for _LOST ms: `host_lost`, and the guest
comes back by itself to the host it paired with, and to no other: HELLO, then the
host's CHAL proves it holds the seat's pairing secret, then RESP under a fresh key
(a restart of the guest does the same from its save). A beacon never moves a seat.
"""
from micropython import const

from core.frenzy_live import Live
from link import proto
from link.proto import HEAD, MAC_LEN, NOBODY, NONCE, PUB_LEN, T_BEACON, T_BYE, T_CHAL, \
    T_HB, T_HELLO, T_JOIN, T_OK, T_REQ, T_RESP, T_REVEAL, T_VIEW

_RESEND = const(200)
_JOIN_MS = const(300)
_HB = const(600)
_LOST = const(3000)
_SEEN = const(2500)  # a host not heard this long leaves the list
_SAVE_V = const(2)
_RESP_MS = const(2000)  # a RESP no view answers: the challenge is stale, ask again

G_SCAN = const(0)
G_JOINING = const(1)  # the key agreed in steps, then JOIN until REVEAL
G_IN = const(2)
G_CODE = const(3)  # the pairing's code on the screen: waiting for the player's OK
G_OKD = const(4)  # OK pressed: T_OK until the host's first view
G_BACK = const(5)  # coming back to its seat (HELLO, CHAL, RESP)


class Guest:
    def __init__(self, radio, source, saved=None):
        self.radio = radio
        self.src = source
        self.hosts = []  # [mac, gid, code, state, players, pub, last heard, commitment]
        self.state = G_SCAN
        self.mac = None  # the host's
        self.gid = 0
        self.pub = None  # the host's public value we pair with
        self.commit = b""  # the host's commitment we pair under
        self.key = None
        self.mine = None  # our public value
        self.secret = None  # the pairing secret (saved): the seat is its
        self.code = ""  # the pairing's short authentication string (G_CODE)
        self.nonce = b""
        self._prev = (b"", b"")  # the commitment and our nonce before the beacon's last
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
        self.back_at = 0  # when the RESP under the present key began
        self.host_lost = False
        self.bye = False
        self.now = 0
        self._k0 = None  # the key of the JOIN (the agreed secret alone)
        self._s = 0  # the agreed secret
        # Our key pair, made in steps while the list of hosts fills (a frame's share
        # at a time: poll); one per Guest: a restart makes a new one.
        self._x = proto.secret(source)
        self._mine = proto.public(self._x)
        self._agreeing = None  # the Power of the key with the host being joined
        if saved is not None:
            if len(saved) != 26 or saved[0] != _SAVE_V:
                raise ValueError("not a link guest's save")
            self.gid = saved[1] << 8 | saved[2]
            self.mac = bytes(saved[3:9])
            self.seat = saved[9]
            if self.seat > 3:
                raise ValueError("link save: bad seat")
            self.secret = bytes(saved[10:26])
            self._mine = None  # coming back needs no key pair
            self._back()

    def to_bytes(self):
        """The guest's save: the game id (where the host's save has it too), the
        host's radio address, the seat, the pairing secret."""
        if self.mac is None or self.secret is None:
            raise ValueError("not joined")
        return bytes((_SAVE_V, self.gid >> 8, self.gid & 0xFF)) + self.mac + \
            bytes((self.seat,)) + self.secret

    def join(self, i):
        """Pair with host i of `hosts` (its key is agreed over the next frames: _keys)."""
        h = self.hosts[i]
        self.mac = h[0]
        self.gid = h[1]
        self.pub = h[5]
        self.commit = h[7]
        self._agreeing = proto.shared(self._x, self.pub)
        self._k0 = None
        self._prev = (b"", b"")
        self._start(G_JOINING)

    def _start(self, st):
        self.key = None
        self.state = st
        self.nonce = bytes(self.src(NONCE))  # fresh for every commitment and every try
        self.sent = self.now - _JOIN_MS
        self.heard = self.now
        self.want = None
        self.rseq = 0  # numbered per key (link.host)
        self.version = 0

    def _back(self):
        """Back to our seat with the host we paired with (HELLO until its CHAL)."""
        self._start(G_BACK)
        self.heard = self.now - _LOST - 1  # (lost until the host's first view)

    def confirm(self):
        """Our player pressed OK at the code: the host hears it (T_OK until its view)."""
        if self.state == G_CODE:
            self.state = G_OKD
            self.sent = self.now - _JOIN_MS

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
        if st == G_IN:
            if now - self.heard > _LOST:
                self._back()  # the host is silent: come back to it when it is there
            elif now - self.sent >= (_RESEND if self.want is not None else _HB):
                self._send(now)
        elif now - self.sent >= _JOIN_MS and st != G_CODE and st != G_SCAN:
            self.sent = now
            f = None
            m = self.mine
            if st == G_JOINING and self._k0 is not None and m is not None:
                f = proto.seal(self._k0, T_JOIN, self.gid, NOBODY,
                               self.commit[:8] + m + self.nonce)
            elif st == G_OKD:
                f = proto.seal(self.key, T_OK, self.gid, NOBODY, b"")
            elif st == G_BACK:
                if self.key is not None and now - self.back_at > _RESP_MS:
                    self._back()  # no view came: the challenge was stale
                if self.key is None:
                    f = proto.seal(None, T_HELLO, self.gid, self.seat, self.nonce)
                else:
                    f = proto.seal(self.key, T_RESP, self.gid, self.seat, self.nonce)
            if f is not None:
                r.send(self.mac, f)
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
            self._s = a.value
            self._k0 = proto.Key(proto.key_of(a.value, self.gid))
            self.sent = now - _JOIN_MS  # JOIN at once
            self.heard = now

    def _frame(self, mac, f, now):
        h = proto.peek(f)
        if h is None:
            return
        typ, gid, _ = h
        if typ == T_BEACON:
            p = proto.open_(None, f)
            if p is None or len(p) != 3 + 16 + PUB_LEN and len(p) != 3:
                return
            self._listed(mac, gid, p, now)
            if self.state == G_JOINING and mac == self.mac and gid == self.gid \
                    and len(p) > 3 and p[19:] == self.pub and p[3:19] != self.commit:
                # The host revealed a nonce (to us, the REVEAL lost, or to someone
                # else): its new commitment, and a new nonce of ours for it (never one
                # it saw before committing); the last pair stays for our REVEAL.
                self._prev = (self.commit, self.nonce)
                self.commit = p[3:19]
                self.nonce = bytes(self.src(NONCE))
            return
        if mac != self.mac or gid != self.gid:
            return
        st = self.state
        if typ == T_REVEAL:
            if st == G_JOINING and self._k0 is not None and len(f) == HEAD + NONCE + MAC_LEN:
                self._revealed(f)
            return
        if typ == T_CHAL:
            if st == G_BACK and self.key is None and len(f) == HEAD + NONCE + MAC_LEN:
                c = proto.open_(proto.Key(proto.chal_key(self.secret, self.nonce)), f)
                if c is not None:  # the host holds our pairing secret: answer it
                    self.key = proto.Key(proto.resume_key(self.secret, self.nonce, c))
                    self.back_at = now
                    self.sent = now - _JOIN_MS
            return
        if self.key is None or st == G_CODE or st == G_JOINING:
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
        if self.state != G_IN and self.mine is not None:
            # Seated: what pairing needed goes (~0.6 KB); a return needs the secret only.
            self.mine = self.pub = self._k0 = None
            self._x = self._s = 0
        self.state = G_IN
        self.seat = p[4]
        self.hstate = p[5]
        self.lost = p[6]
        self.kinds = p[7]
        self.gone = p[8]
        q = p[2] << 8 | p[3]
        if self.want is not None and q >= self.rseq:
            self.want = None

    def _revealed(self, f):
        """The host's nonce: it must be the one its beacon committed to before our JOIN,
        and the frame sealed with the key it gives; then the code shows."""
        n_h = bytes(f[HEAD:HEAD + NONCE])
        c = proto.commit(self.pub, n_h)
        if c == self._prev[0]:
            self.commit, self.nonce = self._prev
        elif c != self.commit:
            return
        key, sec = proto.pairing(self._s, self.gid, self.pub, self.mine, n_h, self.nonce)
        k = proto.Key(key)
        if proto.open_(k, f) is None:
            return
        self.key = k
        self.secret = sec
        self.code = proto.sas(self.pub, self.mine, n_h, self.nonce)
        self.state = G_CODE

    def _listed(self, mac, gid, p, now):
        if len(p) == 3:  # a game under way: listed, not to pair with
            c, pub = b"", None
        else:
            c, pub = p[3:19], p[19:]
        hs = self.hosts
        for h in hs:
            if h[0] == mac:
                h[1] = gid
                h[2] = "%04X" % gid
                h[3] = p[0]
                h[4] = p[1]
                h[5] = pub
                h[6] = now
                h[7] = c
                return
        if len(hs) < 4:
            hs.append([mac, gid, "%04X" % gid, p[0], p[1], pub, now, c])

    def leave(self):
        if self.key is not None and self.state == G_IN:
            self.radio.send(self.mac, proto.seal(self.key, T_BYE, self.gid, self.seat, b""))
