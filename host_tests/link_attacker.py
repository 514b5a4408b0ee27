"""A stranger in radio range of a link game, for host_tests/test_link_attack.py: a
CPython process on the ESP-NOW stand-in's air (tools/sim/espnow.py: one UDP port per
station on 127.0.0.1) that knows only what anyone can know: the frame layout
(docs/link.md, link/proto.py's docstring), the public DH group (RFC 3526), and what it
hears. It imports nothing of the firmware. It listens as a radio in monitor mode does
(the stand-in's tap: every frame on air, broadcasts and unicasts), and sends frames
with any source address (`esp_wifi_set_mac` on an ESP32).

    python host_tests/link_attacker.py BASE STATION LOG      (commands on stdin)

Commands, one a line: `takeover SEAT MAC_ID` (a JOIN with a fresh DH value, and
every other way in it knows, from a seated guest's address, then decisions under the
key it got), `replay MAC_ID` (every frame heard from that address, again, in order),
`rogue` (while the host is down: beacons as the host, with a public value ground to
the host's old 4-letter code, and a host's answers to any guest that turns to it),
`flood SECONDS`, `stop`, `quit`. It logs one line per event; `owned ...` means a
frame from a handheld opened under a key the attacker holds: an attack that got in.
"""
import hashlib
import hmac
import os
import random
import select
import socket
import sys
import threading
import time

P = int("FFFFFFFFFFFFFFFFC90FDAA22168C234C4C6628B80DC1CD129024E088A67CC74020BBEA63B"
        "139B22514A08798E3404DDEF9519B3CD3A431B302B0A6DF25F14374FE1356D6D51C245E485"
        "B576625E7EC6F44C42E9A637ED6B0BFF5CB6F406B7EDEE386BFB5A899FA5AE9F24117C4B1F"
        "E649286651ECE45B3DC2007CB8A163BF0598DA48361C55D39A69163FA8FD24CF5F83655D23"
        "DCA3AD961C62F356208552BB9ED529077096966D670C354E4ABC9804F1746C08CA237327FF"
        "FFFFFFFFFFFFFF", 16)  # RFC 3526 section 2, the 1536-bit MODP group
MAGIC, HEAD, MACLEN, NOBODY = 0xD7, 9, 8, 15
BEACON, JOIN, VIEW, REQ, HB, BYE, REVEAL, OK, HELLO, CHAL, RESP = range(1, 12)
ROLL, STOP = 0x200, 0x500


def mac_of(n):
    return bytes((2, 0x50, 0x44, 0x4C, 0, n))


def frame(key, typ, gid, sender, seq, payload):
    b = bytes((MAGIC, typ, gid >> 8, gid & 0xFF, sender)) + seq.to_bytes(4, "big") + payload
    if key is None:
        return b + hashlib.sha256(b).digest()[:MACLEN]
    return b + hmac.new(key, b, hashlib.sha256).digest()[:MACLEN]


def opens(key, f):
    n = len(f) - MACLEN
    return n >= HEAD and hmac.compare_digest(
        hmac.new(key, f[:n], hashlib.sha256).digest()[:MACLEN], f[n:])


def dh_key(shared, gid):
    """The key both sides of a plain DH JOIN seal it with (link/proto.py's docstring)."""
    return hashlib.sha256(b"PDLK" + shared.to_bytes(192, "big") + bytes((gid >> 8, gid & 0xFF))
                          ).digest()[:16]


def old_code(pub):
    """The 4-letter code of 3dbec77 (SHA-256 of the host's public value, 4 letters of
    17): what a guest used to check, and what the attacker grinds."""
    d = hashlib.sha256(pub).digest()
    return "".join("ACEFHJKLMNPRTUWXY"[d[i] % 17] for i in range(4))


def grind(target):
    """A DH value (and its secret) whose old code is target: one multiplication by the
    generator and one hash a try (~83,521 tries expected)."""
    x = random.getrandbits(192) | 1 << 191
    v = pow(2, x, P)
    tries = 0
    while True:
        tries += 1
        pub = v.to_bytes(192, "big")
        if old_code(pub) == target:
            return x, pub, tries
        v = v * 2 % P
        x += 1


class Attacker:
    def __init__(self, base, station, log):
        self.base = base
        self.me = station
        self.log = open(log, "a")
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.sock.bind(("127.0.0.1", base + station))
        self.heard = []  # (source mac, frame), in order
        self.gid = 0
        self.host_pub = None  # the last public value a beacon of the host carried
        self.commit = b"\0" * 8  # the last commitment a lobby beacon carried
        self.keys = []  # (what, key) the attacker agreed: a frame opening under one is a way in
        self.seats = {}  # guest mac -> the seat its frames name
        self.seq = 1 << 20
        self.job = None
        self.stopping = False
        self.lock = threading.Lock()

    def say(self, line):
        self.log.write(line + "\n")
        self.log.flush()

    def send(self, src, to, f):
        try:
            self.sock.sendto(src + f, ("127.0.0.1", self.base + to))
        except OSError:
            pass

    def next_seq(self):
        self.seq += 1
        return self.seq

    # ---- hearing ---------------------------------------------------------------

    def hear(self, timeout=0.01):
        r, _, _ = select.select([self.sock], [], [], timeout)
        while r:
            d = self.sock.recv(300)
            if len(d) > 6 + HEAD + MACLEN and d[6] == MAGIC:
                self.got(d[:6], d[6:])
            r, _, _ = select.select([self.sock], [], [], 0)

    def got(self, src, f):
        with self.lock:
            self.heard.append((src, f))
        typ = f[1]
        if typ == BEACON and src == mac_of(0):
            self.gid = f[2] << 8 | f[3]
            p = f[HEAD:-MACLEN]
            if len(p) == 3 + 192:  # 3dbec77's beacon
                self.host_pub = p[3:]
            elif len(p) == 3 + 16 + 192:  # a lobby beacon with a commitment
                self.commit = p[3:11]
                self.host_pub = p[19:]
        elif src != mac_of(0) and f[4] < 4:
            self.seats[src] = f[4]
        for what, k in list(self.keys):
            if typ != BEACON and opens(k, f):
                self.say("owned %s %s type %d" % (what, src[-1], typ))

    # ---- attacks ---------------------------------------------------------------

    def takeover(self, seat, gid_mac):
        """From guest `gid_mac`'s address: a JOIN with a fresh DH value in 3dbec77's
        layout and in the committed one, a T_OK, HELLO and RESP with made-up values; then
        REQs (ROLL, STOP) under the key a host would have agreed, for 8 s."""
        src = mac_of(gid_mac)
        if self.host_pub is None:
            self.say("takeover: no public value heard")
            return
        x = random.getrandbits(192) | 1 << 191
        pub = pow(2, x, P).to_bytes(192, "big")
        k = dh_key(pow(int.from_bytes(self.host_pub, "big"), x, P), self.gid)
        self.keys.append(("takeover", k))
        t0 = time.time()
        n = 0
        while time.time() - t0 < 4 and not self.stopping:
            nonce = os.urandom(16)
            for f in (frame(k, JOIN, self.gid, NOBODY, self.next_seq(), pub),
                      frame(k, JOIN, self.gid, NOBODY, self.next_seq(), self.commit + pub + nonce),
                      frame(k, OK, self.gid, NOBODY, self.next_seq(), b""),
                      frame(None, HELLO, self.gid, seat, 0, nonce),
                      frame(os.urandom(16), RESP, self.gid, seat, self.next_seq(), nonce)):
                self.send(src, 0, f)
                n += 1
                self.hear(0.02)
            self.hear(0.25)
        q = 0
        while time.time() - t0 < 12 and not self.stopping:
            q += 1
            for d in (ROLL, STOP):
                p = bytes((q >> 8, q & 0xFF, 0xFF, 0xFF, d >> 8, d & 0xFF))
                self.send(src, 0, frame(k, REQ, self.gid, seat, self.next_seq(), p))
                n += 1
                self.hear(0.05)
        self.say("takeover sent %d" % n)

    def replay(self, gid_mac):
        """Every frame heard from that address, again, in order, from that address, to
        the host, paced so the host's receive buffer takes them."""
        src = mac_of(gid_mac)
        with self.lock:
            old = [f for s, f in self.heard if s == src]
        n = 0
        for f in old:
            if self.stopping:
                break
            self.send(src, 0, f)
            n += 1
            self.hear(0.015)
        self.say("replayed %d" % n)

    def rogue(self):
        """The host is down: beacons in its name (its address and game id), with a
        public value ground to its old code; any JOIN gets a key and views; HELLOs get a
        made-up CHAL. Until `stop`."""
        if self.host_pub is None:
            self.say("rogue: no public value heard")
            return
        t = time.time()
        x, pub, tries = grind(old_code(self.host_pub))
        self.say("ground %s in %d tries, %.2f s" % (old_code(pub), tries, time.time() - t))
        host = mac_of(0)
        talks = {}  # guest mac -> key
        n = 0
        last = 0
        seen = len(self.heard)
        while not self.stopping:
            now = time.time()
            if now - last > 0.3:
                last = now
                for p in (bytes((1, 3, 0)) + pub, bytes((1, 3, 0)),
                          bytes((0, 1, 0)) + os.urandom(16) + pub):
                    for st in range(1, 7):
                        if st != self.me:
                            self.send(host, st, frame(None, BEACON, self.gid, 0, 0, p))
                            n += 1
                for m, k in talks.items():
                    seat = self.seats.get(m, 1)
                    head = bytes((0x7F, 0xF0, 0, 0, seat, 1, 0, 0x29, 0))
                    self.send(host, m[-1], frame(k, VIEW, self.gid, 0, self.next_seq(), head))
                    n += 1
            self.hear(0.02)
            with self.lock:
                tail = self.heard[seen:]
                seen = len(self.heard)
            for s, f in tail:
                if s == host or s in talks:
                    continue
                if f[1] == JOIN and len(f) == HEAD + 192 + MACLEN:
                    y = int.from_bytes(f[HEAD:HEAD + 192], "big")
                    k = dh_key(pow(y, x, P), self.gid)
                    if opens(k, f):
                        talks[s] = k
                        self.keys.append(("rogue", k))
                        self.say("rogue: %d joined" % s[-1])
                elif f[1] == HELLO and len(f) == HEAD + 16 + MACLEN:
                    self.send(host, s[-1], frame(os.urandom(16), CHAL, self.gid, 0,
                                                 self.next_seq(), os.urandom(16)))
                    n += 1
        self.say("rogue sent %d" % n)

    def flood(self, seconds):
        """For `seconds`: JOINs (both layouts, fresh random values) from strangers and
        from seated addresses, beacons in the host's name and others', HELLO, RESP, OK
        and REQs with made-up keys, ~200 frames a second, to the host and the guests."""
        t0 = time.time()
        n = 0
        host = mac_of(0)
        while time.time() - t0 < seconds and not self.stopping:
            r = random.randrange(8)
            src = mac_of(random.choice((1, 2, 3, 5, 6))) if r < 5 else os.urandom(6)
            seat = random.randrange(4)
            k = os.urandom(16)
            pub = os.urandom(192)
            if r == 0:
                f, to = frame(k, JOIN, self.gid, NOBODY, self.next_seq(), pub), 0
            elif r == 1:
                f, to = frame(k, JOIN, self.gid, NOBODY, self.next_seq(),
                              self.commit + pub + os.urandom(16)), 0
            elif r == 2:
                f, to = frame(None, HELLO, self.gid, seat, 0, os.urandom(16)), 0
            elif r == 3:
                f, to = frame(k, RESP, self.gid, seat, self.next_seq(), os.urandom(16)), 0
            elif r == 4:
                p = os.urandom(6)
                f, to = frame(k, REQ, self.gid, seat, self.next_seq(), p), 0
            elif r == 5:
                f, to = frame(k, OK, self.gid, NOBODY, self.next_seq(), b""), 0
            else:  # beacons, in the host's name or a stranger's, to a guest
                src = host if r == 6 else src
                p = bytes((random.randrange(2), 3, 0)) + (pub if r == 6 else b"")
                f, to = frame(None, BEACON, self.gid, 0, 0, p), random.choice((1, 2))
            self.send(src, to, f)
            n += 1
            self.hear(0.005)
        self.say("flooded %d" % n)


def main():
    a = Attacker(int(sys.argv[1]), int(sys.argv[2]), sys.argv[3])
    a.say("ready")
    cmds = []

    def read():
        for ln in sys.stdin:
            cmds.append(ln.split())
        cmds.append(["quit"])
    threading.Thread(target=read, daemon=True).start()
    while True:
        a.hear(0.02)
        if a.job is not None and not a.job.is_alive():
            a.job = None
        if not cmds:
            continue
        c = cmds.pop(0)
        if c[0] == "quit":
            a.stopping = True
            if a.job is not None:
                a.job.join()
            a.say("quit")
            return
        if c[0] == "stop":
            a.stopping = True
            if a.job is not None:
                a.job.join()
            a.stopping = False
            continue
        fn = {"takeover": lambda: a.takeover(int(c[1]), int(c[2])),
              "replay": lambda: a.replay(int(c[1])), "rogue": a.rogue,
              "flood": lambda: a.flood(float(c[1]))}[c[0]]
        a.say("start " + " ".join(c))
        a.job = threading.Thread(target=fn)
        a.job.start()


if __name__ == "__main__":
    main()
