"""The host of a link game: it opens the game, seats the guests who join, runs the
engine (core.frenzy_live over core.frenzy) and tells every guest what it may see.

`Host(radio, source, ones=300, saved=None)`; the screen calls `poll(now)` every frame,
`local(d)` for the host's own decisions (seat 0, RED), `add_cpu()`, `start()`,
`next_round()`, `settle_lost(seat, how)`.

Reliability (ESP-NOW's own acknowledgement says only that a radio heard the frame,
docs/library/espnow.rst:384-385 at v1.28.0; the game needs its own):
- Every change of the game makes a new view version. A guest's view (VIEW: the
  version, the last request taken from that guest, and the game's bytes) is sent at
  once and again every _RESEND ms until the guest acknowledges that version (in its
  REQ or HB); a view it has goes out every _KEEP ms as the host's heartbeat.
- A guest's request carries its own number: the host takes number last + 1 once and
  drops the rest (resends, duplicates, replays); the view's `ack` tells the guest.
- Frames come in a batch per poll; the live round's announcement follows the batch
  (core.frenzy_live: fills received before it all go on).
- A guest silent for _LOST ms is lost: the host's player decides (settle_lost): wait,
  a CPU takes the seat, or drop it (it stops this round and sits out the rest; its
  total stays).

Seats (docs/link.md "Keys"): in the lobby a guest pairs (JOIN, REVEAL; `pending`
holds the pairing until both players pressed OK at the code: `confirm()`, the
guest's T_OK). A seat then belongs to its pairing secret (`pairs`), saved with the
game: a seated guest coming back, or all of them after the host's restart, proves it
(HELLO -> CHAL, which proves the host's own; RESP under a fresh key). A JOIN during
a game, or from anyone who cannot prove a seat, changes nothing.
The host saves after every change: `keep(host)` (the screen's: app.store), called in
poll() before any view of the change goes out.
"""
from micropython import const

from core.dice import Dice
from core.frenzy import RELAY, ROLL, ROLLING, Game
from core.frenzy_live import L_ROLL, Live
from link import proto
from link.proto import HEAD, MAC_LEN, NOBODY, NONCE, PUB_LEN, T_BEACON, T_BYE, T_CHAL, \
    T_HB, T_HELLO, T_JOIN, T_OK, T_REQ, T_RESP, T_REVEAL, T_VIEW
from link.radio import BROADCAST

K_EMPTY = const(0)
K_HOST = const(1)
K_GUEST = const(2)
K_CPU = const(3)

S_LOBBY = const(0)
S_PLAYING = const(1)

LOST_WAIT = const(0)
LOST_CPU = const(1)
LOST_DROP = const(2)

_BEACON_MS = const(400)
_RESEND = const(200)
_KEEP = const(900)
_LOST = const(3000)
_CPU_MS = const(500)
_PAIR_MS = const(30000)  # a pairing nobody finishes is dropped after this
_CHAL_MS = const(100)  # at most one CHAL a seat this often (HELLO floods)
_SAVE_V = const(2)
_SEAT = const(23)  # a seat in the save: kind, radio address, pairing secret

# pending: the pairing waiting for both presses
_P_MAC = const(0)
_P_KEY = const(1)
_P_SECRET = const(2)
_P_SAS = const(3)
_P_OKS = const(4)  # bit 0 the host's player pressed OK, bit 1 the guest's
_P_HEARD = const(5)
_P_PUB = const(6)
_P_NONCE = const(7)


class Host:
    # Set by __init__ (annotations only: no code on the device).
    macs: list
    keys: list
    pairs: list
    chal: list
    pending: "list | None"

    def __init__(self, radio, source, ones=300, saved=None):
        self.radio = radio
        self.src = source
        self.dice = Dice(source)
        self.ones = ones
        # The key pair is made in steps, a frame's share at a time (poll): no lobby
        # beacon goes out before the public value is done (~120 frames).
        self.secret = proto.secret(source)
        self._mine = proto.public(self.secret)
        self.pub = None
        self.nonce = b""  # the pairing nonce the beacon commits to (new after each use)
        self.commit = b""
        self._agreeing = None  # [radio, JOIN frame, its public value, Power]: one at a time
        self.pending = None  # a pairing waiting for both players' OK (_P_*)
        self.macs = [None] * 4
        self.kind = bytearray(4)
        self.keys = [None] * 4
        self.pairs = [None] * 4  # each seat's pairing secret (saved)
        self.chal = [None] * 4  # each seat's challenge to come back (new after each use)
        self.chal_at = [0] * 4
        self.heard = [0] * 4
        self.acked = [0] * 4  # the view version each guest has
        self.sent = [0] * 4  # when its view last went out
        self.rseq = [0] * 4  # the last request taken from each guest
        self.lost = 0  # seats silent too long
        self.gone = 0  # seats dropped (stop every round)
        self.asked = 0  # lost seats the host's player has been asked about
        self.version = 1
        self.live = None
        self.state = S_LOBBY
        self.notes = []  # the last changes' notes, for the screen's sounds and lines
        self.due_save = False
        self.keep = None  # keep(host): the screen's save, called before views go out
        self.cpu_at = 0
        self.now = 0
        self.beacon_at = -_BEACON_MS
        self.kind[0] = K_HOST
        self.macs[0] = radio.mac
        self.gid = 0
        while not self.gid:
            b = source(2)
            self.gid = b[0] << 8 | b[1]
        self.code = "%04X" % self.gid  # tells hosts apart on the list (no proof of anything)
        if saved is not None:
            self._load(saved)
            self._mine = None  # a game under way pairs nobody: no key pair
            self.code = "%04X" % self.gid

    # ---- seats ------------------------------------------------------------------------

    def players(self):
        n = 0
        while n < 4 and self.kind[n]:
            n += 1
        return n

    def add_cpu(self):
        """A CPU takes the next free seat (in the lobby): True if there was one."""
        n = self.players()
        if self.state != S_LOBBY or n >= 4:
            return False
        self.kind[n] = K_CPU
        self.version += 1
        return True

    def start(self):
        """The game starts with the seats taken (2-4); the host rolls the Common Die."""
        n = self.players()
        if self.state != S_LOBBY or n < 2:
            raise ValueError("a link game needs 2-4 players")
        self.live = Live(Game(n, RELAY, self.ones))
        self.state = S_PLAYING
        # A game under way pairs nobody: its key pair and pairing go (~0.4 KB).
        self._mine = self._agreeing = self.pending = self.pub = None
        self.secret = 0
        self.next_round()

    def next_round(self):
        """Between rounds: the host rolls the Common Die (its RNG); dropped seats sit the
        round out (stopped at once with nothing)."""
        lv = self.live
        if lv is None:
            raise ValueError("no game yet")
        lv.start(self.dice.common())
        self.notes = list(lv.notes)
        for s in range(lv.g.players):
            if self.gone >> s & 1:
                lv.sit_out(s)
                self.notes.extend(lv.notes)
        self._changed()

    def settle_lost(self, s, how):
        """The host's player's choice for lost seat s: LOST_WAIT, LOST_CPU, LOST_DROP."""
        self.asked |= 1 << s
        if how == LOST_CPU:
            self.kind[s] = K_CPU
        elif how == LOST_DROP:
            self.gone |= 1 << s
            lv = self.live
            if lv is not None:
                lv.sit_out(s)  # it banks what it has; a WILD it owed counts as 1
                self.notes = list(lv.notes)
        self._changed()

    # ---- decisions ------------------------------------------------------------------

    def local(self, d):
        """The host's own player (seat 0) decides d; ValueError if it may not."""
        self._decide(0, d)
        self._announce()

    def _decide(self, s, d):
        lv = self.live
        if lv is None:
            raise ValueError("no game yet")
        vals = None
        if d == ROLL and lv.ph[s] == L_ROLL:
            vals = [self.dice.d6() for _ in range(lv.to_roll(s))]
        lv.apply(s, d, vals)
        self.notes.extend(lv.notes)
        self._changed()

    def _announce(self):
        lv = self.live
        if lv is not None:
            notes = lv.announce()
            if notes:
                self.notes.extend(notes)
                self._changed()

    def _changed(self):
        self.version += 1
        self.due_save = True

    def _cpus(self, now):
        lv = self.live
        if lv is None or now - self.cpu_at < _CPU_MS:
            return
        self.cpu_at = now
        from core.cpu_live import choose
        for s in range(lv.g.players):
            if self.kind[s] == K_CPU and lv.st[s] == ROLLING and not self.gone >> s & 1:
                d = choose(lv, s, self.src)
                if d is not None:
                    self._decide(s, d)

    # ---- the radio ----------------------------------------------------------------

    def poll(self, now):
        """One frame's work: beacon, every frame received, the announcement, the views
        due, the CPUs, lost guests."""
        self.now = now
        self.notes = []
        r = self.radio
        self._keys(now)
        lobby = self.state == S_LOBBY
        if (self.pub is not None or not lobby) and now - self.beacon_at >= _BEACON_MS:
            self.beacon_at = now
            p = bytes((self.state, self.players(), self.lost))
            pub = self.pub
            if lobby and pub is not None:  # what a guest pairs with; a game under way
                p += self.commit + pub  # pairs nobody
            r.send(BROADCAST, proto.seal(None, T_BEACON, self.gid, 0, p))
        a = self.pending
        if a is not None and now - a[_P_HEARD] > _PAIR_MS:
            self.pending = None  # nobody finished it
            self._changed()
        for _ in range(16):
            mac, f = r.recv()
            if mac is None:
                break
            self._frame(mac, f, now)
        self._announce()
        self._cpus(now)
        self._announce()
        if self.due_save and self.keep is not None:
            # Saved before any guest hears of it: what a view acknowledges survives a
            # restart of the host.
            self.due_save = False
            self.keep(self)
        for s in range(1, 4):
            if self.kind[s] != K_GUEST:
                continue
            if self.heard[s] < 0:
                self.heard[s] = now  # restarted: from now on it has _LOST ms to join
            if now - self.heard[s] > _LOST:
                if not self.lost >> s & 1:
                    self.lost |= 1 << s
                    self.asked &= ~(1 << s)
                    self._changed()
                continue
            if self.keys[s] is None:
                continue
            wait = _RESEND if self.acked[s] < self.version else _KEEP
            if now - self.sent[s] >= wait:
                self._view(s)

    def _frame(self, mac, f, now):
        h = proto.peek(f)
        if h is None or h[1] != self.gid:
            return
        typ, _, sender = h
        if typ == T_JOIN:
            self._join(mac, f, now)
            return
        if typ == T_OK:
            a = self.pending
            if a is not None and a[_P_MAC] == mac and proto.open_(a[_P_KEY], f) is not None:
                a[_P_OKS] |= 2
                a[_P_HEARD] = now
                self._paired(now)
            return
        if sender == NOBODY or self.pairs[sender] is None:
            return
        s = sender
        if typ == T_HELLO:
            self._hello(s, mac, f, now)
            return
        k = self.keys[s]
        if typ == T_RESP:
            if k is not None and self.macs[s] == mac and proto.open_(k, f) is not None:
                return  # a resend: it is back already
            self._resp(s, mac, f, now)
            return
        if self.macs[s] != mac or k is None:
            return
        p = proto.open_(k, f)
        if p is None:
            return
        self.heard[s] = now
        if self.lost >> s & 1:
            self.lost &= ~(1 << s)
            self._changed()
        if typ == T_HB and len(p) == 2:
            self._ack(s, p[0] << 8 | p[1])
        elif typ == T_REQ and len(p) == 6:
            self._ack(s, p[2] << 8 | p[3])
            q = p[0] << 8 | p[1]
            if q == self.rseq[s] + 1:
                self.rseq[s] = q
                try:
                    self._decide(s, p[4] << 8 | p[5])
                except ValueError:
                    self._changed()  # refused: its view says so (nothing changed)
            self.sent[s] = now - _RESEND  # answer at once, a duplicate too
        elif typ == T_BYE:
            self.heard[s] = now - _LOST - 1

    def _keys(self, now):
        """A frame's share of the key agreement (proto.STEP_OPS big-number operations):
        our public value first, then a joining guest's key."""
        pw = self._mine
        if pw is not None:
            if pw.step():
                self.pub = proto.pub_bytes(pw.value)
                self._mine = None
                self._renew()
            return
        a = self._agreeing
        if a is not None and a[3].step():
            self._agreeing = None
            self._reveal(a[0], a[1], a[2], a[3].value, now)

    def _renew(self):
        """A new pairing nonce and the beacon's commitment to it: the one revealed is
        never used again."""
        self.nonce = bytes(self.src(NONCE))
        self.commit = proto.commit(self.pub, self.nonce)

    def _ack(self, s, v):
        if v > self.acked[s] and v <= self.version:
            self.acked[s] = v

    def _join(self, mac, f, now):
        """A JOIN: in the lobby, for the commitment the beacon shows now, and one at a
        time; anything else (a game under way, an old JOIN, a seated address) starts
        nothing."""
        if self.state != S_LOBBY or self.pub is None \
                or len(f) != HEAD + 8 + PUB_LEN + NONCE + MAC_LEN:
            return
        a = self.pending
        if a is not None:
            if a[_P_MAC] == mac and a[_P_PUB] == bytes(f[HEAD + 8:HEAD + 8 + PUB_LEN]):
                self._send_reveal(a)  # its REVEAL was lost: again (the same frame's nonce)
            return
        if bytes(f[HEAD:HEAD + 8]) != self.commit[:8]:
            return  # made for another commitment (an old or replayed JOIN)
        pub = bytes(f[HEAD + 8:HEAD + 8 + PUB_LEN])
        a = self._agreeing
        if a is None:
            # Agreed in steps (_keys), then revealed; one joining radio at a time (the
            # others resend their JOIN meanwhile).
            try:
                self._agreeing = [bytes(mac), bytes(f), pub, proto.shared(self.secret, pub)]
            except ValueError:
                pass
        elif a[2] == pub:
            a[1] = bytes(f)  # (the radio reuses its buffer)

    def _reveal(self, mac, f, pub, s, now):
        """The key agreed with a JOIN: if that key sealed it, the pairing waits for both
        players' OK at the code; the nonce is revealed, and a new one committed to."""
        if proto.open_(proto.Key(proto.key_of(s, self.gid)), f) is None \
                or bytes(f[HEAD:HEAD + 8]) != self.commit[:8]:
            return
        n_g = bytes(f[HEAD + 8 + PUB_LEN:HEAD + 8 + PUB_LEN + NONCE])
        key, sec = proto.pairing(s, self.gid, self.pub, pub, self.nonce, n_g)
        a = [mac, proto.Key(key), sec, proto.sas(self.pub, pub, self.nonce, n_g), 0, now,
             pub, self.nonce]
        self.pending = a
        self._renew()
        self._send_reveal(a)
        self._changed()

    def _send_reveal(self, a):
        self.radio.send(a[_P_MAC], proto.seal(a[_P_KEY], T_REVEAL, self.gid, 0, a[_P_NONCE]))

    def confirm(self, ok):
        """The host's player at the pairing's code: OK (True) or not (the guest is not
        seated and may try again)."""
        a = self.pending
        if a is None:
            return
        if not ok:
            self.pending = None
        else:
            a[_P_OKS] |= 1
            self._paired(self.now)
        self._changed()

    def _paired(self, now):
        """Both pressed OK: the guest takes its seat (its old one when that address sat
        here already, else the next free one)."""
        a = self.pending
        if a is None or a[_P_OKS] != 3:
            return
        self.pending = None
        mac = a[_P_MAC]
        s = -1
        for i in range(1, 4):
            if self.macs[i] == mac:
                s = i
        if s < 0:
            s = self.players()
            if s >= 4 or self.state != S_LOBBY:
                return
        self._seat(s, mac, a[_P_KEY], now)
        self.pairs[s] = a[_P_SECRET]
        self.chal[s] = None

    def _seat(self, s, mac, key, now):
        """Seat s's guest proved itself (a pairing, or RESP): its key from now on."""
        self.keys[s] = key
        self.rseq[s] = 0  # a new key: the guest numbers its requests from 1 again
        self.macs[s] = mac
        if self.kind[s] != K_GUEST and (self.kind[s] == K_EMPTY or self.asked >> s & 1):
            self.kind[s] = K_GUEST  # (a lost seat a CPU played: its player's again)
        self.heard[s] = now
        self.acked[s] = 0
        self.lost &= ~(1 << s)
        self._changed()
        self._view(s)

    def _hello(self, s, mac, f, now):
        """A guest asks to come back to seat s: the seat's challenge, sealed under the
        pairing secret and the guest's nonce (so the guest knows it is this host)."""
        if len(f) != HEAD + NONCE + MAC_LEN or now - self.chal_at[s] < _CHAL_MS:
            return
        self.chal_at[s] = now
        if self.chal[s] is None:
            self.chal[s] = bytes(self.src(NONCE))
        n_g = bytes(f[HEAD:HEAD + NONCE])
        k = proto.Key(proto.chal_key(self.pairs[s], n_g))
        self.radio.send(mac, proto.seal(k, T_CHAL, self.gid, 0, self.chal[s]))

    def _resp(self, s, mac, f, now):
        """The answer to seat s's challenge: sealed with the key only the pairing secret
        gives, it takes the seat again; the challenge is never used again."""
        c = self.chal[s]
        if c is None or len(f) != HEAD + NONCE + MAC_LEN:
            return
        k = proto.Key(proto.resume_key(self.pairs[s], bytes(f[HEAD:HEAD + NONCE]), c))
        if proto.open_(k, f) is None:
            return
        self.chal[s] = None
        self._seat(s, mac, k, now)

    def _view(self, s):
        """Guest s's view: what any player may see (the game's bytes hold rolled dice
        only; the dice to come are not drawn yet)."""
        head = bytearray(9)
        v = self.version
        head[0] = v >> 8 & 0xFF
        head[1] = v & 0xFF
        head[2] = self.rseq[s] >> 8 & 0xFF
        head[3] = self.rseq[s] & 0xFF
        head[4] = s
        head[5] = self.state
        head[6] = self.lost
        head[7] = self.kind[0] | self.kind[1] << 2 | self.kind[2] << 4 | self.kind[3] << 6
        head[8] = self.gone
        body = self.live.to_bytes() if self.live is not None else b""
        self.sent[s] = self.now
        self.radio.send(self.macs[s], proto.seal(self.keys[s], T_VIEW, self.gid, 0,
                                                 bytes(head) + bytes(body)))

    def close(self):
        for s in range(1, 4):
            if self.kind[s] == K_GUEST and self.keys[s] is not None:
                self.radio.send(self.macs[s], proto.seal(self.keys[s], T_BYE, self.gid, 0, b""))

    # ---- saving -----------------------------------------------------------------------

    def to_bytes(self):
        """The host's save: the game id, the dropped seats, the seats (kind, radio
        address, pairing secret: a seat is its secret's), then the live game's bytes."""
        b = bytearray(4 + 4 * _SEAT)
        b[0] = _SAVE_V
        b[1] = self.gid >> 8
        b[2] = self.gid & 0xFF
        b[3] = self.gone
        for s in range(4):
            j = 4 + _SEAT * s
            b[j] = self.kind[s]
            if self.macs[s] is not None:
                b[j + 1:j + 7] = self.macs[s]
            if self.pairs[s] is not None:
                b[j + 7:j + _SEAT] = self.pairs[s]
        lv = self.live
        if lv is None:
            raise ValueError("no game yet")
        return bytes(b) + bytes(lv.to_bytes())

    def _load(self, b):
        n = 4 + 4 * _SEAT
        if len(b) < n or b[0] != _SAVE_V:
            raise ValueError("not a link host's save")
        self.gid = b[1] << 8 | b[2]
        self.gone = b[3]
        for s in range(4):
            j = 4 + _SEAT * s
            k = b[j]
            if k > K_CPU or (s == 0) != (k == K_HOST):
                raise ValueError("link save: bad seat")
            self.kind[s] = k
            guest = k == K_GUEST or k == K_CPU and any(b[j + 7:j + _SEAT])
            self.macs[s] = bytes(b[j + 1:j + 7]) if guest else None
            self.pairs[s] = bytes(b[j + 7:j + _SEAT]) if guest else None
            if guest and k == K_CPU:
                self.asked |= 1 << s  # a CPU plays a lost guest's seat: its player's again
        self.macs[0] = self.radio.mac
        self.live = Live.from_bytes(bytes(b[n:]))
        if self.live.g.players != self.players():
            raise ValueError("link save: seats and game differ")
        self.state = S_PLAYING
        for s in range(1, 4):
            self.heard[s] = -1  # its time to come back starts at the first poll
