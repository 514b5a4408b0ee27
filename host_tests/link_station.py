"""One station of host_tests/test_link_radio.py, run by the MicroPython unix port with
tools/sim's espnow/network stand-ins: the behaviours MicroPython's own two-device tests
describe (v1.28.0 tests/multi_espnow/10_simple_data.py, 20_send_echo.py,
40_recv_test.py), printed one per line for the test to compare.

    micropython host_tests/link_station.py ROLE     (POCKET_RADIO gives id and air)
"""
import sys

sys.path.insert(0, "tools/sim")
import espnow  # noqa: E402
import network  # noqa: E402

TIMEOUT = 5000


def init():
    sta = network.WLAN(network.STA_IF)
    e = espnow.ESPNow()
    e.active(True)
    sta.active(True)
    sta.disconnect()
    return e


def server():
    e = init()
    print("ready")
    peers = []
    while True:
        peer, msg = e.irecv(TIMEOUT)
        if peer is None:
            print("timeout")
            return
        if peer not in peers:
            peers.append(peer)
            e.add_peer(peer)
        if msg == b"!hold":
            # Leave frames in the buffer a while: the client fills it.
            import time
            time.sleep_ms(600)
            print("stats", e.stats()[3], e.stats()[4])
            continue
        e.send(peer, msg, True)
        if msg == b"!done":
            print("done")
            return


def client():
    e = init()
    srv = espnow.mac_of(0)
    # A peer must be added before send() (espnow.rst:211-213).
    try:
        e.send(srv, b"x", True)
        print("send without peer: no error")
    except OSError as err:
        print("send without peer:", err.args[1])
    e.add_peer(srv)
    try:
        e.add_peer(srv)
    except OSError as err:
        print("add twice:", err.args[1])
    print("peers", e.peer_count()[0])
    # Echo of every length up to 250 (20_send_echo.py), then recvinto/irecv/recv/next.
    bad = 0
    for n in (1, 2, 100, 249, 250):
        msg = bytes((i * 7 + n) & 0xFF for i in range(n))
        e.send(srv, msg, True)
        p, got = e.recv(TIMEOUT)
        bad += got != msg or p != srv
    print("echo ok" if not bad else "echo bad %d" % bad)
    try:
        e.send(srv, b"z" * 251)
        print("251 bytes: sent")
    except ValueError:
        print("251 bytes: ValueError")
    data = [bytearray(espnow.ADDR_LEN), bytearray(espnow.MAX_DATA_LEN)]
    e.send(srv, b"into", True)
    n = e.recvinto(data, TIMEOUT)
    print("recvinto", n, bytes(data[1][:n]))
    e.send(srv, b"iter", True)
    print("next", next(e)[1])
    print("timeout", e.recv(50))
    # Broadcast: added as a peer, it reaches every station listening.
    e.add_peer(espnow.BROADCAST)
    e.send(espnow.BROADCAST, b"to all", False)
    p, got = e.recv(TIMEOUT)
    print("broadcast echo", got, p == srv)
    # Buffer full: the server holds its buffer; frames past it are dropped there,
    # while send() here still reports success.
    e.send(srv, b"!hold", True)
    oks = 0
    for i in range(6):
        oks += e.send(srv, bytes((i,)) * 200, True)
    print("sent while full", oks)
    import time
    time.sleep_ms(900)
    e.send(srv, b"!done", True)
    got = b""
    while got is not None and got != b"!done":  # the kept frame's echo comes first
        p, got = e.recv(TIMEOUT)
    print("last", got)


def listener():
    e = init()
    p, got = e.recv(TIMEOUT)
    print("heard", got)
    e.add_peer(p)
    e.send(p, b"listener heard", True)


def blaster():
    """Sends 200 numbered frames to station 0 (the air test)."""
    e = init()
    e.add_peer(espnow.mac_of(0))
    for i in range(200):
        e.send(espnow.mac_of(0), bytes((i,)), False)


def sink():
    e = init()
    e.config(rxbuf=200 * 20)
    print("ready")
    got = []
    while True:
        p, m = e.recv(1500)
        if p is None:
            break
        got.append(m[0])
    print("got", " ".join(str(v) for v in got))


{"server": server, "client": client, "listener": listener, "blaster": blaster,
 "sink": sink}[sys.argv[1]]()
