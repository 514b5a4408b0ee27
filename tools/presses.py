#!/usr/bin/env python3
"""Count the button presses of scripted games played through the real App.

The pilots of host_tests (test_ui_frenzy.Pilot, test_ui_shakeup.Pilot) play whole games
by buttons and shakes with seeded choices; this counts their presses and the turns (a
Frenzy turn: one player's round; a Shake Up turn: one player's turn, counted from the
core's "turn" notes) and prints the presses per turn, so a change to the screens'
pacing can be measured (the same seeds play the same games, as long as the screens
offer the same choices):

    .venv/bin/python tools/presses.py [--seeds 3] [--players 2]
"""
import argparse
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
for p in ("firmware", "tools", "tools/sim", "host_tests"):
    sys.path.insert(0, os.path.join(ROOT, p))


def _counting(r):
    """Wrap the rig's press: count every button press."""
    n = [0]
    press = r.press

    def counted(b, frames=2):
        n[0] += 1
        press(b, frames)
    r.press = counted
    return n


def frenzy(players, schedule, seed):
    import ui_rig
    from test_ui_frenzy import Pilot, start_game
    r = ui_rig.Rig("pr_fz%d%d%d" % (players, schedule, seed), seed=seed)
    start_game(r, players, schedule)
    n = _counting(r)
    p = Pilot(r, seed + 100)
    p.play()
    g = r.app.screen.game
    turns = 0
    for rnd in range(g.round):
        turns += players  # every seat plays each round (a tie round: fewer; rare)
    return n[0], turns


def shakeup(players, seed):
    import ui_rig
    from test_ui_shakeup import Pilot, start_game
    r = ui_rig.Rig("pr_su%d%d" % (players, seed), seed=seed)
    start_game(r, players)
    n = _counting(r)
    p = Pilot(r, seed + 100)
    turns = [1]  # the first turn, after the roll-off
    check = p.check

    def counted(d, game, before_free):
        check(d, game, before_free)
        turns[0] += sum(1 for x in p.shadow.notes if x[0] == "turn")
    p.check = counted
    p.play()
    return n[0], turns[0]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seeds", type=int, default=3)
    ap.add_argument("--players", type=int, default=2)
    a = ap.parse_args()
    os.chdir(ROOT)
    for schedule, name in ((0, "relay"), (1, "lockstep")):
        tp = tt = 0
        for seed in range(1, a.seeds + 1):
            p, t = frenzy(a.players, schedule, seed)
            tp += p
            tt += t
        print("frenzy %s %dp: %d presses, %d turns, %.1f presses/turn"
              % (name, a.players, tp, tt, tp / tt))
    tp = tt = 0
    for seed in range(1, a.seeds + 1):
        p, t = shakeup(max(a.players, 2), seed)
        tp += p
        tt += t
    print("shakeup %dp: %d presses, %d turns, %.1f presses/turn"
          % (max(a.players, 2), tp, tt, tp / tt))


if __name__ == "__main__":
    main()
