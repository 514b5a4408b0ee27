"""Figures of the Farkle Frenzy CPU players (issue 15): one line of text per figure.

  python tools/cpu/cpu_frenzy_report.py [--games N] [--rounds N] [--part exact|solo|duels|ladder]

- exact: HARD's exact expected solo-round score per Common Die face (its own rule,
  the table file as the device reads it: gen_frenzy_policy.policy_exact) against the
  DP's exact expectation (gen_frenzy_policy.exact); goal: at least 99.5 %. Both
  three-1s options, on the sheet and off it (a bank below 400 counts 0).
- solo: the same through core.cpu_frenzy.choose, over N seeded solo rounds per face
  (default 4,000; mean and its standard error), to show the device plays that rule.
- duels: 2-player win shares of HARD against greedy:300, NORMAL and EASY over N games
  in each seat order (default 5,000, so 10,000 a pair) in each schedule (Relay,
  Lockstep), by tools/cpu/selfplay_frenzy.py (seeded: the same command prints the same).
- ladder: the same for NORMAL against EASY and greedy:300, and EASY against greedy:300.
CPython only (the generator needs itertools); the timing of both CPUs is in
tools/cpu/cpu_report.py.
"""
import sys

import gen_frenzy_policy as G
import selfplay_frenzy

_DUELS = (("cpu:hard", "greedy:300"), ("cpu:hard", "cpu:normal"), ("cpu:hard", "cpu:easy"))
_LADDER = (("cpu:normal", "cpu:easy"), ("cpu:normal", "greedy:300"),
           ("cpu:easy", "greedy:300"))
GOAL = 99.5  # per cent of the exact expectation


def _sheet(off):
    return "off-sheet" if off else "on-sheet"


def exact():
    from core import cpu_frenzy as C
    f = C.open_table()
    worst = 200.0
    for ones in (300, 1000):
        for off in (False, True):
            ex = G.exact(ones, off)
            hard = G.policy_exact(f, ones, off)
            for _, key in G.FACES:
                pc = 100 * hard[key] / ex[key]
                worst = min(worst, pc)
                print("exact: ones %4d %-9s face %-4s DP %8.3f  HARD %8.3f  = %8.4f%%"
                      % (ones, _sheet(off), key, ex[key], hard[key], pc))
    f.close()
    print("exact: HARD's worst share of the DP's expectation: %.4f%% (goal %.1f%%: %s)"
          % (worst, GOAL, "PASS" if worst >= GOAL else "MISS"))


def solo(rounds):
    G.report(rounds, 1)


def duels(games, pairs=_DUELS):
    for sched in ("relay", "lockstep"):
        for a, b in pairs:
            first = selfplay_frenzy.run({"policies": a + "," + b, "games": games, "seed": 1,
                                         "schedule": sched})["wins"][0]
            second = selfplay_frenzy.run({"policies": b + "," + a, "games": games, "seed": 2,
                                          "schedule": sched})["wins"][1]
            print("duel: %-8s %s vs %s: %.4f of %d (%.4f as seat 1, %.4f as seat 2)" % (
                sched, a, b, (first + second) / (2.0 * games), 2 * games, first / float(games),
                second / float(games)))


def main(argv):
    from report_args import options
    o = options(argv, {"games": "int", "rounds": "int", "part": "list"},
                "usage: cpu_frenzy_report.py [--games N] [--rounds N] "
                "[--part exact|solo|duels|ladder]")
    games = 5000 if o["games"] is None else o["games"]
    rounds = 4000 if o["rounds"] is None else o["rounds"]
    for p in o["part"] or ("exact", "solo", "duels", "ladder"):
        if p == "exact":
            exact()
        elif p == "solo":
            solo(rounds)
        elif p == "duels":
            duels(games)
        elif p == "ladder":
            duels(games, _LADDER)
        else:
            raise ValueError("unknown part %r" % p)


if __name__ == "__main__":
    main(sys.argv[1:])
