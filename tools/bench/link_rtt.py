"""One side of the link's round-trip bench (tools/bench/bench_link.py), under the MicroPython
unix port with tools/sim's ESP-NOW stand-in (POCKET_RADIO gives the station):

    micropython tools/bench/link_rtt.py host|guest N

The guest asks the host for N decisions (its seat played by core.cpu_live) and prints
"rtt MEDIAN_US P90_US MAX_US BYTES_SENT": from ask() until the view that acknowledges
it, both sides polling every millisecond (the App polls once a frame, 33 ms).
"""
import sys
import time

sys.path[:0] = ["firmware", "tools/sim"]

from core.cpu_live import choose  # noqa: E402
from core.frenzy import PH_COMMON, PH_OVER, ROLLING  # noqa: E402
from core.seeded import Seeded  # noqa: E402
from link.radio import Radio  # noqa: E402


def host(n):
    from link.host import Host
    h = Host(Radio(), Seeded(5))
    rng = Seeded(6)
    t0 = time.ticks_ms()
    while h.players() < 2:
        h.poll(time.ticks_ms())
        if h.pending is not None:
            h.confirm(True)  # (the pairing's code: both sides press OK)
        time.sleep_ms(1)
    h.start()
    while time.ticks_diff(time.ticks_ms(), t0) < 120000:
        now = time.ticks_ms()
        h.poll(now)
        lv = h.live
        if lv.g.phase == PH_OVER:
            pass  # (the guest stops at the game's end)
        elif lv.g.phase == PH_COMMON:
            h.next_round()
        elif lv.st[0] == ROLLING:
            d = choose(lv, 0, rng)
            if d is not None:
                h.local(d)
        time.sleep_ms(1)


def guest(n):
    from link.guest import Guest
    g = Guest(Radio(), Seeded(9))
    rng = Seeded(10)
    times = []
    t_ask = 0
    while len(times) < n and not (g.live is not None and g.live.g.phase == PH_OVER):
        now = time.ticks_ms()
        g.poll(now)
        if g.state == 0 and g.hosts and g.hosts[0][5] is not None:
            g.join(0)
        g.confirm()  # (the pairing's code, when it shows: OK)
        if t_ask and not g.waiting():
            times.append(time.ticks_diff(time.ticks_us(), t_ask))
            t_ask = 0
        lv = g.live
        if lv is not None and not g.waiting() and lv.g.phase not in (PH_COMMON, PH_OVER) \
                and lv.st[g.seat] == ROLLING:
            d = choose(lv, g.seat, rng)
            if d is not None and g.ask(d):
                t_ask = time.ticks_us()
        time.sleep_ms(1)
    times.sort()
    print("rtt %d %d %d %d" % (times[len(times) // 2], times[len(times) * 9 // 10],
                               times[-1], g.radio.sent))


{"host": host, "guest": guest}[sys.argv[1]](int(sys.argv[2]))
