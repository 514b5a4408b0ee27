"""The link's frames and keys: what goes on air between handhelds, and how a frame
that is not ours is told apart.

A frame (at most 250 bytes: espnow.MAX_DATA_LEN, MicroPython v1.28.0
docs/library/espnow.rst:222 and :573):
    0     magic 0xD7 (this game's frames; version 1)
    1     type (T_*)
    2-3   game id (the host draws it when it opens the game)
    4     sender: a seat 0-3, or NOBODY (a guest not seated yet)
    5-8   sequence number, big-endian, one more for every frame a sender seals
          with that key (a resend is a new frame): a receiver accepts only
          numbers above the last it accepted, so a replayed frame is dropped
    9-    payload
    last 8 bytes: the MAC, HMAC-SHA256 (RFC 2104, built on hashlib.sha256, which
          the ESP32 and unix ports both have at v1.28.0: py/mpconfig.h:2006
          MICROPY_PY_HASHLIB_SHA256 on wherever hashlib is, py/mpconfig.h:1994
          MICROPY_PY_HASHLIB at the EXTRA_FEATURES level, which
          ports/esp32/mpconfigport.h:14 and ports/unix/variants/standard/
          mpconfigvariant.h:28 select) over bytes 0 to the MAC, cut to 8 bytes.

A beacon (T_BEACON) is the one frame without a key: it carries the host's public
value so a guest can agree a key with it; its MAC field is a plain SHA-256 check.
A beacon only lists a host in range: it changes no game.

Keys: finite-field Diffie-Hellman in the 1536-bit MODP group of RFC 3526 (group
5, generator 2; the prime as OpenSSL 3.0 gives it for "modp_1536"). Each side
draws a 192-bit secret from the hardware RNG; the public values (192 bytes) fit
one frame. The pair's key is SHA-256("PDLK" + shared secret + game id), cut to
16 bytes. Someone listening learns neither; someone who joins in between is seen
by the players: the host's screen and the guest's both show the short code of
the host's public value (code()).
"""
import hashlib

from micropython import const

MAX = const(250)
HEAD = const(9)
MAC_LEN = const(8)
NOBODY = const(15)
_MAGIC = const(0xD7)

T_BEACON = const(1)  # host, broadcast: game id, state, seats, its public value
T_JOIN = const(2)  # guest -> host: its public value (sealed with the new key)
T_VIEW = const(3)  # host -> guest: the game as that guest may see it
T_REQ = const(4)  # guest -> host: a decision
T_HB = const(5)  # guest -> host: still here (and the view it has)
T_BYE = const(6)  # either: leaving the game
T_LAST = const(6)

PUB_LEN = const(192)
_P = int("FFFFFFFFFFFFFFFFC90FDAA22168C234C4C6628B80DC1CD129024E088A67CC74020BBEA63B"
         "139B22514A08798E3404DDEF9519B3CD3A431B302B0A6DF25F14374FE1356D6D51C245E485"
         "B576625E7EC6F44C42E9A637ED6B0BFF5CB6F406B7EDEE386BFB5A899FA5AE9F24117C4B1F"
         "E649286651ECE45B3DC2007CB8A163BF0598DA48361C55D39A69163FA8FD24CF5F83655D23"
         "DCA3AD961C62F356208552BB9ED529077096966D670C354E4ABC9804F1746C08CA237327FF"
         "FFFFFFFFFFFFFF", 16)


# Big-number operations (a 1536-bit multiplication and its reduction mod _P) that a
# Power does in one step(): one frame's share of a key agreement. A power takes 192
# squarings and ~96 multiplications, so ~100 frames; on an ESP32 an operation is
# ~4-15 ms (docs/link.md, "Keys without a stopped frame"), a step 10-45 ms.
STEP_OPS = const(3)
_BITS = const(192)  # a secret's bits (secret())


class Power:
    """base ** exp mod _P, computed STEP_OPS operations at a time (left to right,
    square and multiply), so that a key agreement runs beside the frames instead of
    stopping one for a second or more. `ops` counts the operations done (the gate's
    figure: host_tests/test_link_proto.py); `value` is the result once step() said
    True."""

    def __init__(self, base, exp):
        self.b = base
        self.e = exp
        self.i = _BITS  # bits still to do (a secret's top bit is its 192nd)
        self.value = 1
        self.ops = 0

    def step(self, n=STEP_OPS):
        """At most n operations (n >= 2: a bit's square and multiply stay together);
        True when the power is done."""
        v = self.value
        done = 0
        while done + 2 <= n and self.i > 0:
            self.i -= 1
            v = v * v % _P
            done += 1
            if self.e >> self.i & 1:
                v = v * self.b % _P
                done += 1
        self.value = v
        self.ops += done
        return self.i == 0


def secret(source):
    """A 192-bit secret from source(24) (the hardware RNG). RFC 3526 section 8 (its
    table of strength estimates) gives the 1536-bit group a strength of 90 bits with a
    private exponent of at least 180 bits (estimate 1; 120 bits and 240 by estimate
    2): 192 bits (top bit set) meets the first, and each power costs a quarter less
    than with 256."""
    return int.from_bytes(source(24), "big") | 1 << _BITS - 1


def public(x):
    """The Power that makes the public value of secret x (pub_bytes() of its value)."""
    return Power(2, x)


def shared(x, other_pub):
    """The Power that makes the shared secret from our secret x and the other side's
    public value; ValueError for a public value outside the group's safe range."""
    y = int.from_bytes(other_pub, "big")
    if len(other_pub) != PUB_LEN or y < 2 or y > _P - 2:
        raise ValueError("bad public value")
    return Power(y, x)


def pub_bytes(v):
    return v.to_bytes(PUB_LEN, "big")


def key_of(s, gid):
    """The pair's 16-byte key from the shared secret s (a Power's value)."""
    h = hashlib.sha256(b"PDLK")
    h.update(s.to_bytes(PUB_LEN, "big"))
    h.update(bytes((gid >> 8, gid & 0xFF)))
    return h.digest()[:16]


def _whole(pw):
    while not pw.step(1 << 30):
        pass
    return pw.value


def keypair(source):
    """(secret, public bytes) at once (tests and the bench; the handhelds use public()
    in steps)."""
    x = secret(source)
    return x, pub_bytes(_whole(public(x)))


def agree(x, other_pub, gid):
    """The pair's key at once (tests and the bench; the handhelds use shared() in
    steps); ValueError for a bad public value."""
    return key_of(_whole(shared(x, other_pub)), gid)


def code(pub):
    """The host's short code (4 letters from a public value): shown on both
    screens, so the players see they joined the handheld they meant."""
    d = hashlib.sha256(pub).digest()
    out = ""
    for i in range(4):
        out += "ACEFHJKLMNPRTUWXY"[d[i] % 17]
    return out


class Key:
    """One pair's key: its HMAC pads made once, the sequence numbers both ways."""
    pub: "bytes | None"  # (an annotation only: no code on the device)

    def __init__(self, key):
        k = bytearray(64)
        k[:len(key)] = key
        self._i = bytes(b ^ 0x36 for b in k)
        self._o = bytes(b ^ 0x5C for b in k)
        self.tx = 0  # the last sequence number sealed
        self.rx = 0  # the last sequence number accepted
        self.pub = None  # the other side's public value it was agreed with (link.host)

    def mac(self, data, n):
        h = hashlib.sha256(self._i)
        h.update(data[:n])
        o = hashlib.sha256(self._o)
        o.update(h.digest())
        return o.digest()[:MAC_LEN]


def seal(key, typ, gid, sender, payload):
    """The frame of a payload, sealed with key (a Key; None: a beacon)."""
    n = HEAD + len(payload)
    if n + MAC_LEN > MAX:
        raise ValueError("frame too long")
    b = bytearray(n + MAC_LEN)
    b[0] = _MAGIC
    b[1] = typ
    b[2] = gid >> 8
    b[3] = gid & 0xFF
    b[4] = sender
    if key is not None:
        key.tx = q = key.tx + 1
        b[5] = q >> 24 & 0xFF
        b[6] = q >> 16 & 0xFF
        b[7] = q >> 8 & 0xFF
        b[8] = q & 0xFF
    b[HEAD:n] = payload
    b[n:] = key.mac(b, n) if key is not None else hashlib.sha256(b[:n]).digest()[:MAC_LEN]
    return b


def peek(b):
    """(type, game id, sender) of a frame that is well-formed on its face, else None:
    the receiver then finds the key it should be sealed with (open_)."""
    if not isinstance(b, (bytes, bytearray, memoryview)):
        return None
    n = len(b)
    if n < HEAD + MAC_LEN or n > MAX or b[0] != _MAGIC or not 1 <= b[1] <= T_LAST \
            or b[4] > 3 and b[4] != NOBODY:
        return None
    return b[1], b[2] << 8 | b[3], b[4]


def open_(key, b):
    """The payload of frame b if key (a Key; None: a beacon) sealed it and it is newer
    than every frame accepted with that key, else None (and nothing changes)."""
    if peek(b) is None:
        return None
    n = len(b) - MAC_LEN
    if key is None:
        if b[1] != T_BEACON or hashlib.sha256(bytes(b[:n])).digest()[:MAC_LEN] != bytes(b[n:]):
            return None
        return bytes(b[HEAD:n])
    if b[1] == T_BEACON:
        return None
    q = b[5] << 24 | b[6] << 16 | b[7] << 8 | b[8]
    if q <= key.rx:
        return None  # replayed, or a duplicate of one already taken
    if key.mac(bytes(b), n) != bytes(b[n:]):
        return None
    key.rx = q
    return bytes(b[HEAD:n])
