#!/usr/bin/env python3
"""Count the button presses of scripted games played through the real App.

The pilots of host_tests (test_ui_frenzy.Pilot, test_ui_shakeup.Pilot) play whole games
by buttons and shakes with seeded choices; this counts their presses and the turns (a
Frenzy turn: one player's round; a Shake Up turn: one player's turn, counted from the
core's "turn" notes) and prints the presses per turn, so a change to the screens'
pacing can be measured (the same seeds play the same games, as long as the screens
offer the same choices):

    .venv/bin/python tools/simulator/presses.py [--seeds 3] [--players 2] [--by-screen]
        [--cpu] [--at COMMIT]

--cpu also plays Shake Up against a NORMAL CPU (test_ui_cpu's pilot: STOP at once,
OK on every message) and counts the human's presses per human turn.

--at plays the tree of another commit with its own screens and pilots (git archive
into a temporary folder, this script copied in), e.g. the "before" of issue 18:
`--at 319499e`, the tree before its work.
"""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile

# Self-contained (no tools/paths.py): --at runs a copy of it in an older tree.
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
for p in ("firmware", "tools/sim", "host_tests"):
    sys.path.insert(0, os.path.join(ROOT, p))


BUTTONS = ("PREV", "NEXT", "OK", "BACK")
FZ_PHASES = ("common", "roll", "wild", "take", "decide", "over")
FZ_VIEWS = ("play", "farkle", "notice", "warn", "summary", "winner", "scores")
SU_VIEWS = ("rolloff", "board", "dice", "result", "move", "penalty", "info")


def where(app, b):
    """What a press of button b was made on: the screen, its view (the play view: the
    game's phase) and the button, e.g. "frenzy take NEXT", "pass OK"."""
    s = app.screen
    name = s.NAME
    if name == "frenzy":
        v = s.view
        what = FZ_PHASES[s.game.phase] if v == 0 else FZ_VIEWS[v]
        return "frenzy %s %s" % (what, BUTTONS[b])
    if name == "shakeup":
        return "shakeup %s %s" % (SU_VIEWS[s.view], BUTTONS[b])
    return "%s %s" % (name, BUTTONS[b])


def _counting(r, by=None):
    """Wrap the rig's press: count every button press (by: a dict that counts them
    per where())."""
    n = [0]
    press = r.press

    def counted(b, frames=2):
        n[0] += 1
        if by is not None:
            w = where(r.app, b)
            by[w] = by.get(w, 0) + 1
        press(b, frames)
    r.press = counted
    return n


def frenzy(players, schedule, seed, by=None):
    import ui_rig
    from test_ui_frenzy import Pilot, start_game
    r = ui_rig.Rig("pr_fz%d%d%d" % (players, schedule, seed), seed=seed)
    start_game(r, players, schedule)
    n = _counting(r, by)
    p = Pilot(r, seed + 100)
    p.play()
    g = r.app.screen.game
    turns = 0
    for rnd in range(g.round):
        turns += players  # every seat plays each round (a tie round: fewer; rare)
    return n[0], turns


def shakeup(players, seed, by=None):
    import ui_rig
    from test_ui_shakeup import Pilot, start_game
    r = ui_rig.Rig("pr_su%d%d" % (players, seed), seed=seed)
    start_game(r, players)
    n = _counting(r, by)
    p = Pilot(r, seed + 100)
    turns = [1]  # the first turn, after the roll-off
    check = p.check

    def counted(d, game, before_free):
        check(d, game, before_free)
        turns[0] += sum(1 for x in p.shadow.notes if x[0] == "turn")
    p.check = counted
    p.play()
    return n[0], turns[0]


def shakeup_cpu(seed):
    """A Shake Up game, you (RED) against a NORMAL CPU, to the end: (the human's
    presses, the human's turns: each has one first shake)."""
    from test_ui_cpu import Log, _start, play
    r = _start("pr_sucpu%d" % seed, "SHAKE UP", 2, (0, 2), seed=seed)
    log = Log()
    turns = [0, 0]  # turns, the human's shakes last frame

    def each(r):
        s = r.app.screen
        if s.NAME == "shakeup" and s.game.player == 0 and s.game.phase:
            k = s.game.shakes
            if k == 1 and turns[1] == 0:
                turns[0] += 1
            turns[1] = k
        return False
    play(r, log, until=each)
    return log.presses, turns[0]


def _report(label, tp, tt, by):
    print("%s: %d presses, %d turns, %.1f presses/turn" % (label, tp, tt, tp / tt))
    if by is not None:
        for w in sorted(by, key=lambda w: (-by[w], w)):
            print("    %-26s %6d  %5.2f/turn" % (w, by[w], by[w] / tt))


def _at(a):
    """Run this script in the tree of commit a.at, with the same options."""
    tmp = tempfile.mkdtemp(prefix="presses-")
    try:
        tar = subprocess.run(["git", "archive", a.at], cwd=ROOT, check=True,
                             stdout=subprocess.PIPE).stdout
        subprocess.run(["tar", "-x", "-C", tmp], input=tar, check=True)
        script = os.path.join(tmp, "tools", "simulator", "presses.py")
        os.makedirs(os.path.dirname(script), exist_ok=True)
        shutil.copy(os.path.abspath(__file__), script)
        args = [sys.executable, script,
                "--seeds", str(a.seeds), "--players", str(a.players)]
        if a.by_screen:
            args.append("--by-screen")
        if a.cpu:
            args.append("--cpu")
        return subprocess.run(args, cwd=tmp).returncode
    finally:
        shutil.rmtree(tmp)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seeds", type=int, default=3)
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--by-screen", action="store_true",
                    help="also the presses per screen, view (or phase) and button")
    ap.add_argument("--cpu", action="store_true",
                    help="also Shake Up against a NORMAL CPU: the human's presses per turn")
    ap.add_argument("--at", metavar="COMMIT",
                    help="count in that commit's tree (its screens and pilots)")
    a = ap.parse_args()
    os.chdir(ROOT)
    if a.at:
        return _at(a)
    for schedule, name in ((0, "relay"), (1, "lockstep")):
        tp = tt = 0
        by = {} if a.by_screen else None
        for seed in range(1, a.seeds + 1):
            p, t = frenzy(a.players, schedule, seed, by)
            tp += p
            tt += t
        _report("frenzy %s %dp" % (name, a.players), tp, tt, by)
    tp = tt = 0
    by = {} if a.by_screen else None
    for seed in range(1, a.seeds + 1):
        p, t = shakeup(max(a.players, 2), seed, by)
        tp += p
        tt += t
    _report("shakeup %dp" % max(a.players, 2), tp, tt, by)
    if a.cpu:
        tp = tt = 0
        for seed in range(1, a.seeds + 1):
            p, t = shakeup_cpu(seed)
            tp += p
            tt += t
        _report("shakeup vs NORMAL CPU, the human's turns", tp, tt, None)


if __name__ == "__main__":
    sys.exit(main())
