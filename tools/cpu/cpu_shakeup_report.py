"""Figures of the Shake Up CPU players (issue 15): prints one line of text per figure.

Runs under CPython and the MicroPython unix port (from the repository root or not):
  python tools/cpu/cpu_shakeup_report.py [--games N]
      [--part table|duels|ladder|mirror|crowd|seats]

- table: the solved table (firmware/data/shakeup2.bin): its size, V at the start
  (the first player's chance, roll-off decided) without and with pyramid spots.
- duels: 2-player win shares of HARD against NORMAL, EASY and random over N games
  in each seat order (default 5,000, so 10,000 a pair), by tools/cpu/selfplay.py's
  play_shakeup (seeded: the same command prints the same).
- ladder: the same for NORMAL against EASY and random, and EASY against random.
- mirror: HARD against HARD, without and with spots: the starter's win share, to
  set beside the table's V(start) (N games each).
- crowd: 3 and 4 players, one HARD (in every seat in turn) against NORMALs, and
  one NORMAL against HARDs; the fair share is 1 / players.
- seats: four equal CPUs (NORMAL, then EASY) over N games: each seat's win share
  (fair 0.25; the roll-off picks the starter), and the largest gap from fair. No
  seat may be a CPU's favourite target (issue 30: NORMAL's penalty broke its ties
  by seat order, and seat 0 won 0.170, seat 3 0.341 of 10,000).
The thinking time of both CPUs: tools/cpu/cpu_report.py --part time.
"""
import sys

# The script's folder (tools/cpu/) is on the path on both interpreters; selfplay puts
# firmware/ there too.
import selfplay  # noqa: E402



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


def seats(games, levels=("cpu:normal", "cpu:easy")):
    for pol in levels:
        out = selfplay.play_shakeup({"policies": ",".join([pol] * 4), "games": games,
                                     "seed": 7})
        shares = [w / games for w in out["wins"]]
        gap = max(abs(x - 0.25) for x in shares)
        print("seats: four %s, %d games: seat 1-4 won %s (fair 0.25; largest gap %s)" % (
            pol, games, " ".join(selfplay._num(selfplay.ratio(w, games)) for w in out["wins"]),
            selfplay._num(round(gap, 4))))


def main(argv):
    from report_args import options
    o = options(argv, {"games": "int", "part": "list"},
                "usage: cpu_shakeup_report.py [--games N] "
                "[--part table|duels|ladder|mirror|crowd|seats]")
    games = 5000 if o["games"] is None else o["games"]
    for p in o["part"] or ("table", "duels", "ladder", "mirror", "crowd"):
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
        elif p == "seats":
            seats(games)
        else:
            raise ValueError("unknown part %r" % p)


if __name__ == "__main__":
    main(sys.argv[1:])
