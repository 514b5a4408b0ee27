"""Attacks on a linked game from outside: whole games of the compiled firmware in unix
port processes (as test_link_e2e.py), each App played at its buttons by
tools/sim/link_pilot.py, and a stranger on the same air (host_tests/link_attacker.py: a
CPython process that knows the frame layout and what it hears, nothing of the
firmware) who spoofs addresses, replays, grinds the old code and floods. Each attack
changes nothing: no frame of a handheld ever opens under a key the attacker holds,
every decision the host took for a guest's seat is one that guest's player asked, in
order, and the game ends the same on every handheld, counted once on each.

On 3dbec77 the takeover and the rogue host get in (`owned` in the attacker's log) and
the replay makes the host take decisions nobody asked (docs/link.md "Keys")."""
import os
import subprocess
import sys
import time

from conftest import ROOT

from link_handhelds import Handheld, _agree, _base, _table, _wait

_TAP = 7  # the attacker's station: the stand-in's tap (tools/sim/espnow.py)


class Stranger:
    def __init__(self, tmp, k):
        self.log = str(tmp / ("t%d_attacker.log" % k))
        self.proc = subprocess.Popen(
            [sys.executable, os.path.join("host_tests", "link_attacker.py"), str(_base(k)),
             str(_TAP), self.log], cwd=ROOT, stdin=subprocess.PIPE, text=True)
        self.wait_for("ready")

    lines = Handheld.lines  # (its log's lines, as a handheld's)

    def do(self, cmd):
        self.proc.stdin.write(cmd + "\n")
        self.proc.stdin.flush()

    def wait_for(self, start, limit=120):
        t0 = time.time()
        while time.time() - t0 < limit:
            for ln in self.lines():
                if ln.startswith(start):
                    return ln
            if self.proc.poll() is not None:
                raise AssertionError("the attacker stopped")
            time.sleep(0.2)
        raise AssertionError("the attacker never said " + start)

    def owned(self):
        return [ln for ln in self.lines() if ln.startswith("owned")]

    def close(self):
        if self.proc.poll() is None:
            try:
                self.do("quit")
                self.proc.wait(timeout=20)
            except (OSError, subprocess.TimeoutExpired):
                self.proc.kill()
                self.proc.wait()


def _seat(h):
    seats = [int(ln[5:]) for ln in h.lines() if ln.startswith("seat ")]
    return seats[-1] if seats else -1


def _tagged(lines, tag):
    """(round, value) of each `tag value` line, the round the handheld showed then
    (whole lines only: the last may be half written while the game runs)."""
    out = []
    r = 0
    for ln in lines[:-1]:
        if ln.startswith("round "):
            r = int(ln[6:])
        elif ln.startswith(tag):
            out.append((r, int(ln.split()[-1])))
    return out


def _decisions(hs, final=False):
    """For each guest, the decisions the host took for its seat are ones its player
    asked, in the order asked, in the round it asked them (or the next: a request on
    the air as the round ended): a restart may lose an ask in flight, never add one."""
    host = hs[0].lines()
    for g in hs[1:]:
        s = _seat(g)
        did = _tagged(host, "did %d " % s)
        asked = _tagged(g.lines(), "ask ")
        i = 0
        for r, d in did:
            while i < len(asked) and (asked[i][1] != d or not r - 1 <= asked[i][0] <= r):
                i += 1
            assert i < len(asked), ("seat %d: the host took %d in round %d, not asked" %
                                    (s, d, r), did, asked)
            i += 1
        if final:
            assert len(did) >= 10 and len(asked) - len(did) <= 3, (s, len(did), len(asked))


def _honest(hs, stranger):
    """Nothing got in: no handheld's frame opened under the attacker's keys, and every
    seat's decisions are its player's (_decisions)."""
    assert not stranger.owned(), stranger.owned()
    _decisions(hs, True)


def _watch(hs, stranger):
    """A check while the game runs: an attack that got in fails at once, and so does
    a guest locked out (HOST LOST for 20 s while its host runs)."""
    since = {}

    def check():
        assert not stranger.owned(), stranger.owned()
        _decisions(hs)
        for g in hs[1:]:
            lost = [ln for ln in g.lines() if ln.startswith("lost ")]
            if lost and lost[-1] == "lost 1" and hs[0].proc.poll() is None:
                t = since.setdefault((g.log, len(lost)), time.time())
                assert time.time() - t < 20, g.log + ": locked out"
    return check


def _attacked(tmp_path, k, guests, act, said):
    """A game of a host and `guests` guests with the stranger on the air; act(hs,
    stranger, done) each half second (done: a dict it keeps); then the stranger's lines
    starting with each of `said`, and the checks (_honest, the same end everywhere)."""
    hs = _table(tmp_path, k, guests, air=",tap=%d" % _TAP)
    st = Stranger(tmp_path, k)
    done = {}
    check = _watch(hs, st)

    def each():
        check()
        act(hs, st, done)
    try:
        _wait([hs], each=each)
        out = [st.wait_for(w) for w in said]
        _honest(hs, st)
        _agree(hs)
    finally:
        st.close()
    print(" / ".join(out))


def test_a_seat_taken_by_a_spoofed_address_and_floods_change_nothing(tmp_path):
    """At round 2 the stranger sends, from GREEN's radio address, a JOIN with a fresh
    DH value (both frame layouts), an OK, HELLO and RESP with made-up values, then 8 s
    of ROLL and STOP under the key a host would have agreed; at round 4, 10 s of floods
    (JOINs, beacons in the host's name, HELLO, RESP, OK, REQ)."""
    def act(hs, st, done):
        r = hs[0].round()
        if "take" not in done and r >= 2:
            done["take"] = st.do("takeover %d 1" % _seat(hs[1]))
        if "flood" not in done and r >= 4:
            done["flood"] = st.do("flood 10")
    _attacked(tmp_path, 5, 2, act, ("takeover sent", "flooded"))


def test_a_replayed_join_and_its_requests_change_nothing(tmp_path):
    """GREEN is powered off at round 3 and continues (it comes back with a fresh key);
    at round 5 the stranger replays every frame it heard from GREEN since the game's
    lobby: its JOIN, OK, HELLO, RESP, heartbeats and requests."""
    def act(hs, st, done):
        g = hs[1]
        if "kill" not in done and g.round() >= 3:
            done["kill"] = g.kill()
            time.sleep(4)  # the host sees it lost (3 s) and answers WAIT
            g.start("cont")
        if "kill" in done and "replay" not in done and hs[0].round() >= 5 and g.round() >= 5:
            done["replay"] = st.do("replay 1")
    _attacked(tmp_path, 6, 1, act, ("replayed",))


def test_a_rogue_host_with_the_old_code_gets_no_guest(tmp_path):
    """The host is powered off at round 3; the stranger beacons in its name (its
    address, its game id) with a public value ground to the host's old 4-letter code,
    answers any JOIN with a key and views, and any HELLO with a made-up challenge, for
    10 s; no guest turns to it (checked all along). Then the host continues and both
    guests come back."""
    def act(hs, st, done):
        h = hs[0]
        if "kill" not in done and h.round() >= 3:
            done["kill"] = h.kill()
            st.do("rogue")
            t0 = time.time()
            while time.time() - t0 < 10:
                assert not st.owned(), st.owned()
                time.sleep(0.5)
            st.do("stop")
            st.wait_for("rogue sent")
            h.start("cont")
    _attacked(tmp_path, 7, 2, act, ("ground", "rogue sent"))
