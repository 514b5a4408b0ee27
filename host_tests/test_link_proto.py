# portable: runs under MicroPython too
"""link.proto: frames are sealed and opened only with the pair's key, in order, never
twice; 10,000 random and forged frames are dropped and change nothing."""
from core.seeded import Seeded
from link import proto
from link.proto import HEAD, MAC_LEN, MAX, T_BEACON, T_HB, T_JOIN, T_REQ, T_VIEW


def _pair(seed=1):
    src = Seeded(seed)
    a, pa = proto.keypair(src)
    b, pb = proto.keypair(src)
    ka = proto.agree(a, pb, 0x1234)
    kb = proto.agree(b, pa, 0x1234)
    return ka, kb


def test_both_sides_agree_on_one_key_that_others_do_not_get():
    ka, kb = _pair()
    assert ka == kb and len(ka) == 16
    src = Seeded(9)
    c, pc = proto.keypair(src)
    a, pa = proto.keypair(Seeded(1))
    assert proto.agree(c, pa, 0x1234) != ka
    assert proto.agree(a, pa, 0x1235) != proto.agree(a, pa, 0x1234)  # the game id counts


def test_a_power_in_steps_is_the_power_a_few_operations_a_step():
    """proto.Power: the same value as pow(), one square per bit of the secret and one
    multiplication per 1 bit (the operations counted), never more than STEP_OPS of them
    in one step (a frame's share of a key agreement)."""
    src = Seeded(4)
    for _ in range(3):
        x = proto.secret(src)
        y = int.from_bytes(proto.keypair(src)[1], "big")
        pw = proto.shared(x, proto.pub_bytes(y))
        steps = 0
        done = False
        while not done:
            before = pw.ops
            done = pw.step()
            assert 1 <= pw.ops - before <= proto.STEP_OPS
            steps += 1
        assert pw.value == pow(y, x, proto._P)
        ones = 0
        e = x
        while e:
            ones += e & 1
            e >>= 1
        assert pw.ops == 192 + ones
        assert steps * proto.STEP_OPS >= pw.ops
        assert proto.key_of(pw.value, 7) == proto.agree(x, proto.pub_bytes(y), 7)


def test_public_values_outside_the_group_are_refused():
    for bad in (b"\0" * 192, b"\0" * 191 + b"\1", b"\xff" * 192, b"\2" * 10):
        try:
            proto.agree(5, bad, 1)
        except ValueError:
            continue
        raise AssertionError("accepted %r" % bad[:4])


def test_a_sealed_frame_opens_once_in_order():
    ka, kb = _pair()
    tx, rx = proto.Key(ka), proto.Key(kb)
    f1 = proto.seal(tx, T_REQ, 0x1234, 1, b"\x00\x01\x02\x00")
    f2 = proto.seal(tx, T_HB, 0x1234, 1, b"")
    assert proto.peek(f1) == (T_REQ, 0x1234, 1)
    assert len(f1) == HEAD + 4 + MAC_LEN
    assert proto.open_(rx, f2) == b""
    assert proto.open_(rx, f1) is None  # older than one accepted: dropped
    assert proto.open_(rx, f2) is None  # replayed
    f3 = proto.seal(tx, T_VIEW, 0x1234, 1, b"x" * (MAX - HEAD - MAC_LEN))
    assert len(f3) == MAX and proto.open_(rx, f3) == b"x" * (MAX - HEAD - MAC_LEN)
    try:
        proto.seal(tx, T_VIEW, 0x1234, 1, b"x" * (MAX - HEAD - MAC_LEN + 1))
    except ValueError:
        pass
    else:
        raise AssertionError("a frame over 250 bytes was sealed")


def test_beacons_open_without_a_key_and_only_as_beacons():
    f = proto.seal(None, T_BEACON, 7, 0, b"hello")
    assert proto.open_(None, f) == b"hello"
    g = bytearray(f)
    g[HEAD] ^= 1
    assert proto.open_(None, g) is None
    ka, _ = _pair()
    assert proto.open_(proto.Key(ka), f) is None  # no game frame is a beacon
    h = proto.seal(proto.Key(ka), T_JOIN, 7, 15, b"j")
    assert proto.open_(None, h) is None


def test_ten_thousand_random_and_forged_frames_are_dropped():
    ka, kb = _pair(3)
    tx, rx = proto.Key(ka), proto.Key(kb)
    good = [proto.seal(tx, T_VIEW, 0x1234, 0, bytes((i,)) * (i * 7 % 200)) for i in range(20)]
    for f in good[10:]:
        assert proto.open_(rx, f) is not None
    last = rx.rx
    wrong = proto.Key(b"0123456789abcdef")
    rnd = Seeded(77)
    kinds = [0] * 6
    for i in range(10000):
        r = rnd(4)
        k = r[0] % 6
        kinds[k] += 1
        if k == 0:  # random bytes of any length, some over 250
            f = rnd(r[1] % 260 + 1)
        elif k == 1:  # sealed with a wrong key
            f = proto.seal(wrong, 1 + r[1] % 6, 0x1234, r[2] % 4, rnd(r[3] % 100))
        elif k == 2:  # a replay of an accepted frame, or an older one
            f = good[r[1] % 20]
        elif k == 3:  # a good frame with one bit flipped
            f = bytearray(good[r[1] % 20])
            f[r[2] % len(f)] ^= 1 << (r[3] & 7)
            wrong.tx = 10 ** 6  # (and a forged high sequence number next)
        elif k == 4:  # cut short or grown
            f = good[r[1] % 20]
            f = f[:r[2] % len(f)] if r[3] & 1 else f + rnd(r[2] % 60 + 1)
        else:  # unknown type or magic, else well formed
            f = bytearray(good[r[1] % 20])
            f[1 if r[3] & 1 else 0] = r[2] if r[2] not in (0xD7, 1, 2, 3, 4, 5, 6) else 0
        assert proto.open_(rx, f) is None, (k, bytes(f)[:12])
        assert rx.rx == last
    assert min(kinds) > 1400
    # The pair still talks after the storm.
    f = proto.seal(tx, T_HB, 0x1234, 0, b"ok")
    assert proto.open_(rx, f) == b"ok"


def test_the_pairing_code_is_24_bits_over_both_sides_values():
    """sas(): six letters of 16 (24 bits) in two threes, the same for the same values,
    another when any one of the four values differs; over 4,096 pairings every
    letter comes up in every place (no place is stuck)."""
    _, ph = proto.keypair(Seeded(5))
    _, pg = proto.keypair(Seeded(6))
    nh, ng = b"h" * 16, b"g" * 16
    c = proto.sas(ph, pg, nh, ng)
    assert len(c) == 7 and c[3] == " " and c == proto.sas(ph, pg, nh, ng)
    assert c.replace(" ", "").isalpha()
    others = {proto.sas(pg, pg, nh, ng), proto.sas(ph, ph, nh, ng),
              proto.sas(ph, pg, ng, ng), proto.sas(ph, pg, nh, nh)}
    assert c not in others
    seen = [set() for _ in range(6)]
    for i in range(4096):
        c = proto.sas(ph, pg, nh, i.to_bytes(16, "big")).replace(" ", "")
        for j in range(6):
            seen[j].add(c[j])
    assert all(len(s) == 16 for s in seen)
