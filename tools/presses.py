"""Key presses in scripted 2-human Shake Up games: how fast the device hands over.

    python tools/presses.py [ROOT]      (ROOT: a checkout, default this one)

Plays seeded 2-player games through the App with host_tests/test_ui_shakeup.py's Pilot
(the same seeds every run) and prints the presses per turn, and of them the handover
presses: on the pass screen, on a message (result, move notice) and on a move screen
offering one choice. Run it on two checkouts (e.g. a `git worktree` of an older
commit) to compare them.
"""
import os
import sys

SEEDS = (7, 8, 9, 10, 11)


def main(root):
    os.chdir(root)
    for p in ("firmware", "host_tests", "tools", "tools/sim"):
        sys.path.insert(0, os.path.join(root, p))
    import test_ui_shakeup
    import ui_rig
    tot = {"presses": 0, "handover": 0, "turns": 0}
    for seed in SEEDS:
        r = ui_rig.Rig("presses%d" % seed, seed=seed)
        test_ui_shakeup.start_game(r, 2)
        press = r.press

        def counted(b, frames=2, r=r, press=press):
            s = r.app.screen
            tot["presses"] += 1
            if s.NAME == "pass" or (s.NAME == "shakeup" and (
                    s.ack or (s.view in (4, 5) and len(s.choices) == 1))):
                tot["handover"] += 1
            press(b, frames)
        r.press = counted
        p = test_ui_shakeup.Pilot(r, seed + 100)
        seat = [-1]

        def hook(label, r=r, seat=seat):
            s = r.app.screen
            if label == "shakeup" and s.game.player != seat[0]:
                seat[0] = s.game.player
                tot["turns"] += 1
            return False
        p.hook = hook
        p.play()
    n = tot["turns"]
    print("%s: %d turns, %.2f presses per turn, %.2f of them handover presses"
          % (root, n, tot["presses"] / n, tot["handover"] / n))


if __name__ == "__main__":
    main(os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else
                         os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
