"""tools/gen/gen_shakeup_policy.py (CPython): the stored table is the solution of the
current rules (its Bellman residual), the solver's turn DP against an independent
expectimax, the device's turn DP and worths against the solver's; self-play with
Shake Up CPU seats on both interpreters."""
import json
import os
import subprocess
import sys

import gen_shakeup_policy as G
from conftest import ROOT, micropython_bin
from core import cpu_shakeup as C
from core import shakeup as S
from core.dice import Dice
from core.seeded import Seeded
from shakeup_expectimax import _expectimax, _shaken

with open(G.OUT, "rb") as _f:
    DATA = _f.read()


def test_stored_table_is_the_fixed_point_of_the_rules():
    # Rounding to 1/65535 moves a value by at most 7.6e-6 and the Bellman operator
    # never magnifies a change, so the stored table's residual stays below 2e-5
    # while it solves the rules of today's engine; a change of the rules (or a stale
    # file) leaves it far off. (The solve itself ends at a residual below 1e-12.)
    for spots in (0, 1):
        game = G.Game2(spots)
        v = G.decode(DATA, spots)
        res = game.residual(v)
        assert res < 2e-5, (spots, res)
    other = G.Game2(1)
    assert other.residual(G.decode(DATA, 0)) > 1e-3  # the wrong variant is no fixed point


def test_solver_turn_dp_matches_the_expectimax():
    turn = G.Turn()
    src = Seeded(21)
    for _ in range(3):
        w1, wb, wm, wp, wn = (x / 255 for x in src(5))
        want = _expectimax(w1, (wn, wp, wm, wb))((), 1)
        assert abs(turn.value(w1, wb, wm, wp, wn) - want) < 1e-12
    # BIG on the first shake of 4 dice: 6 fours of a kind + 3 runs x 24 orders.
    assert abs(turn.value(1, 0, 0, 0, 0) - 78 / 1296) < 1e-15


def test_device_worths_and_holds_match_the_solver():
    t = open(G.OUT, "rb")
    live = [c for c in G.POS if c[3] < 5]
    turn = G.Turn()
    src = Seeded(8)
    for spots in (0, 1):
        game = G.Game2(spots)
        v = G.decode(DATA, spots)
        for trial in range(60):
            b = src(2)
            a, o = live[b[0] % len(live)], live[b[1] % len(live)]
            g = _shaken(2, bool(spots), 300 + trial, (a, o))
            w1, w = C._Eval(g, t).worths()
            host = game.worths(v, G.RANK[a], G.RANK[o])  # w1, wb, wm, wp, wn
            got = (w1, w[3], w[2], w[1], w[0])
            for x, y in zip(got, host):
                assert abs(x / 65535 - y) < 2e-5, (a, o, got, host)
            # The device's choice after shake 1 is worth the host DP's best.
            f, g2 = turn.holds(w[3] / 65535, w[2] / 65535, w[1] / 65535, w[0] / 65535)
            c = S.classify(g.dice)
            vals = {S.STOP: (w1 if c == 3 else w[c]) / 65535}
            for m in range(15):
                vals[S.ROLL | m] = g2[C._mask_rank(g.dice, m)]
            d = C.choose(g, 2, None, t)
            assert vals[d] >= max(vals.values()) - 1e-5
            if d != S.STOP:
                g.apply(d)
                if g.phase == S.CHOOSE:
                    vals = {S.STOP: f[C._mask_rank(g.dice, 15)]}
                    for m in range(g.held, 15):
                        if m & g.held == g.held:
                            vals[S.ROLL | m] = f[C._mask_rank(g.dice, m)]
                    assert vals[C.choose(g, 2, None, t)] >= max(vals.values()) - 1e-5
    t.close()


def test_hard_beats_normal_in_a_short_match():
    # Not a figure (tools/cpu/cpu_shakeup_report.py has those): a sanity floor that a
    # broken table or DP would miss by far (HARD wins about 60 % of 10,000).
    t = open(G.OUT, "rb")
    won = 0
    for i in range(100):
        g = S.Game(2, False, Dice(Seeded(i + 1)))
        rng = Seeded(i + 5)
        hard = i % 2
        while g.phase != S.OVER:
            g.apply(C.choose(g, 2 if g.player == hard else 1, rng, t))
        won += g.winner == hard
    t.close()
    assert won > 50, won


def test_selfplay_with_cpu_seats_on_both_interpreters():
    outs = []
    for interp in (sys.executable, micropython_bin()):
        p = subprocess.run([interp, os.path.join(ROOT, "tools", "cpu", "selfplay.py"), "--games", "3",
                            "--policies", "cpu:hard,random,cpu:easy", "--seed", "5"],
                           cwd="/", capture_output=True, text=True, timeout=600)
        assert p.returncode == 0, p.stderr
        outs.append(p.stdout.strip())
    assert outs[0] == outs[1]
    out = json.loads(outs[0])
    assert out["policies"] == ["cpu:hard", "random", "cpu:easy"] and out["players"] == 3
    assert sum(out["wins"]) == 3
    for args in (["--policies", "cpu:hard,cpu:best"], ["--policies", "cpu:hard", "--players", "3"],
                 ["--policy", "greedy:300"]):
        p = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "cpu", "selfplay.py")] + args,
                           capture_output=True, text=True, timeout=60)
        assert p.returncode == 2 and "usage" in p.stderr, (args, p.stderr)
