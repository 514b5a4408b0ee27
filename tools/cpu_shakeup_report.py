"""Figures of the Shake Up CPU players (issue 15): prints one line of text per figure.

Runs under CPython and the MicroPython unix port (from the repository root or not):
  python tools/cpu_shakeup_report.py [--games N] [--part table|duels|ladder|mirror|crowd|time]

- table: the solved table (firmware/data/shakeup2.bin): its size, V at the start
  (the first player's chance, roll-off decided) without and with pyramid spots.
- duels: 2-player win shares of HARD against NORMAL, EASY and random over N games
  in each seat order (default 5,000, so 10,000 a pair), by tools/selfplay.py's
  play_shakeup (seeded: the same command prints the same).
- ladder: the same for NORMAL against EASY and random, and EASY against random.
- mirror: HARD against HARD, without and with spots: the starter's win share, to
  set beside the table's V(start) (N games each).
- crowd: 3 and 4 players, one HARD (in every seat in turn) against NORMALs, and
  one NORMAL against HARDs; the fair share is 1 / players.
- time: the slowest single decision per skill and phase over 40 seeded games of 2
  and 4 players, each decision timed 3 times and the fastest kept (the machine's
  other work only ever adds). Building the turn DP's structure tables (once per
  import, on the first decision that needs them) is reported apart, and so is the
  slowest single step of think() (the same decisions in bounded steps).
"""
import sys

try:
    from time import ticks_diff, ticks_us
except ImportError:  # CPython
    from time import perf_counter

    def ticks_us():
        return int(perf_counter() * 1000000)

    def ticks_diff(a, b):
        return a - b


# The script's folder (tools/) is on the path on both interpreters; selfplay puts
# firmware/ there too.
import selfplay  # noqa: E402

_PHASES = ("ROLLOFF", "SHAKE", "CHOOSE", "MOVING", "PENALTY")
_NAMES = ("EASY", "NORMAL", "HARD")


def table():
    from core import cpu_shakeup as C
    with open(selfplay._data("shakeup2.bin"), "rb") as t:
        data = t.read()
        start = C.pawn_rank((5, 0, 0, 0))
        print("table: %d bytes (2 variants x 56 x 56 uint16)" % len(data))
        for spots in (0, 1):
            v = C.lookup(t, spots, start, start)
            print("table: V(start) = %s (spots %s): the first player's chance"
                  % (selfplay._num(v / 65535), "on" if spots else "off"))


def _share(policies, games, seed, seat):
    out = selfplay.play_shakeup({"policies": ",".join(policies), "games": games,
                                 "seed": seed})
    return out["wins"][seat]


_DUELS = (("cpu:hard", "cpu:normal"), ("cpu:hard", "cpu:easy"), ("cpu:hard", "random"))
_LADDER = (("cpu:normal", "cpu:easy"), ("cpu:normal", "random"), ("cpu:easy", "random"))


def duels(games, pairs=_DUELS):
    for a, b in pairs:
        first = _share((a, b), games, 1, 0)
        second = _share((b, a), games, 2, 1)
        print("duel: %s vs %s: %s of %d (%s as seat 1, %s as seat 2)" % (
            a, b, selfplay._num(selfplay.ratio(first + second, 2 * games)), 2 * games,
            selfplay._num(selfplay.ratio(first, games)),
            selfplay._num(selfplay.ratio(second, games))))


def mirror(games):
    # HARD against itself: the starter (the roll-off's winner) should win V(start).
    for spots in (False, True):
        out = selfplay.play_shakeup({"policy": "cpu:hard", "games": games, "seed": 3,
                                     "spots": spots})
        print("mirror: cpu:hard vs cpu:hard, spots %s: the starter won %s of %d"
              % ("on" if spots else "off", selfplay._num(out["starter_win_share"]), games))


def crowd(games):
    for players in (3, 4):
        for one, rest in (("cpu:hard", "cpu:normal"), ("cpu:normal", "cpu:hard")):
            won = 0
            n = 0
            for seat in range(players):
                pol = [rest] * players
                pol[seat] = one
                per = games // players
                won += _share(pol, per, 10 + seat, seat)
                n += per
            print("crowd: %d players, one %s vs %s: %s of %d (fair %s)" % (
                players, one, rest, selfplay._num(selfplay.ratio(won, n)), n,
                selfplay._num(selfplay.ratio(1, players))))


def timing(games=20):
    from core import cpu_shakeup as C
    from core import shakeup as S
    from core.dice import Dice
    from core.seeded import Seeded
    t = open(selfplay._data("shakeup2.bin"), "rb")
    rng = Seeded(3)
    worst = {}
    step = 0
    C._T = None  # build the turn DP's structure tables afresh, timed
    t0 = ticks_us()
    C._tables()
    first = ticks_diff(ticks_us(), t0)
    for players in (2, 4):
        for i in range(games):
            g = S.Game(players, i % 2 == 1, Dice(Seeded(i + 1)))
            while g.phase != S.OVER:
                skill = (i + g.player) % 3
                best = None
                for _ in range(3):
                    t0 = ticks_us()
                    d = C.choose(g, skill, rng, t)
                    dt = ticks_diff(ticks_us(), t0)
                    if best is None or dt < best:
                        best = dt
                # The same decision in think()'s steps: the fastest of 3 per step.
                fast = []
                for _ in range(3):
                    k = 0
                    t0 = ticks_us()
                    for x in C.think(g, skill, rng, t):
                        t1 = ticks_us()
                        dt = ticks_diff(t1, t0)
                        if k == len(fast):
                            fast.append(dt)
                        elif dt < fast[k]:
                            fast[k] = dt
                        k += 1
                        t0 = ticks_us()
                step = max(step, max(fast))
                k = (players, skill, g.phase)
                if best > worst.get(k, (0,))[0]:
                    worst[k] = (best, g.shakes)
                g.apply(d)
    t.close()
    impl = sys.implementation.name
    print("time (%s): building the turn DP's tables (once per import): %d us" % (impl, first))
    top = 0
    for k in sorted(worst):
        us, shakes = worst[k]
        top = max(top, us)
        if us >= 50:
            print("time (%s): %d players, %s, %s (shake %d): %d us" % (
                impl, k[0], _NAMES[k[1]], _PHASES[k[2]], shakes, us))
    print("time (%s): slowest single decision: %d us" % (impl, top))
    print("time (%s): slowest single step of core.cpu_shakeup.think: %d us" % (impl, step))


def main(argv):
    games = 5000
    parts = []
    i = 0
    while i < len(argv):
        if argv[i] == "--games":
            games = int(argv[i + 1])
            i += 2
        elif argv[i] == "--part":
            parts.append(argv[i + 1])
            i += 2
        else:
            raise ValueError("usage: cpu_shakeup_report.py [--games N] "
                             "[--part table|duels|ladder|mirror|crowd|time]")
    for p in parts or ("table", "duels", "ladder", "mirror", "crowd", "time"):
        if p == "table":
            table()
        elif p == "duels":
            duels(games)
        elif p == "crowd":
            crowd(games)
        elif p == "ladder":
            duels(games, _LADDER)
        elif p == "mirror":
            mirror(games)
        elif p == "time":
            timing()
        else:
            raise ValueError("unknown part %r" % p)


if __name__ == "__main__":
    main(sys.argv[1:])
