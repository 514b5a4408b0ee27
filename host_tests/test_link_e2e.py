"""Linked games end to end: 2-4 real firmware processes (the MicroPython unix port,
the compiled build as deployed, tools/sim's ESP-NOW stand-in on 127.0.0.1), each App
played at its buttons by tools/sim/link_pilot.py, through LINK GAME in the menu. Every
handheld ends with the same totals and winner at 0, 20 and 50 % loss and counts the
game in its stats (a win where its seat won); a guest killed
mid-round and started again takes its seat back; a host killed and started again
(CONTINUE) brings everyone back."""
import time

import pytest

from link_handhelds import _agree, _table, _wait


def test_linked_games_end_the_same_on_every_handheld_at_0_20_50_loss(tmp_path):
    tables = [
        _table(tmp_path, 0, 1),
        _table(tmp_path, 1, 2, cpus=1, air=",loss=20,dup=5,reorder=10,delay=5,jitter=20,seed=3"),
        _table(tmp_path, 2, 1, air=",loss=50,dup=5,reorder=10,delay=5,jitter=20,seed=4"),
    ]
    _wait(tables)
    sizes = []
    for hs in tables:
        totals, _ = _agree(hs)
        sizes.append(len(totals))
    assert sizes == [2, 4, 2]


@pytest.mark.slow
def test_a_guest_and_a_host_killed_mid_round_come_back(tmp_path):
    air = ",loss=20,dup=5,reorder=10,delay=5,jitter=20,seed=5"
    guest_t = _table(tmp_path, 3, 2, air=air)  # the host lets a lost guest wait
    host_t = _table(tmp_path, 4, 1, air=air)
    done = {"guest": False, "host": False}

    def each():
        g = guest_t[2]
        if not done["guest"] and g.round() >= 3:
            done["guest"] = True
            g.kill()
            time.sleep(4)  # the host sees it lost (3 s) and answers WAIT
            g.start("cont")
        h = host_t[0]
        if not done["host"] and h.round() >= 3:
            done["host"] = True
            h.kill()
            time.sleep(4)  # the guest says the host is lost
            h.start("cont")
    _wait([guest_t, host_t], each=each)
    assert done["guest"] and done["host"]
    _agree(guest_t)
    _agree(host_t)
