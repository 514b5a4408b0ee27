"""tools/cpu/selfplay.py under CPython and the MicroPython unix port: same seed, same JSON."""
import json
import os
import subprocess
import sys

import pytest

from conftest import ROOT, micropython_bin

SCRIPT = os.path.join("tools", "cpu", "selfplay.py")


def _run(interp, *args, cwd=ROOT):
    proc = subprocess.run([interp, os.path.join(ROOT, SCRIPT)] + list(args), cwd=cwd,
                          capture_output=True, text=True, timeout=600)
    return proc


def _both(*args):
    outs = []
    for interp in (sys.executable, micropython_bin()):
        p = _run(interp, *args)
        assert p.returncode == 0, (interp, p.stdout[-2000:], p.stderr[-2000:])
        lines = p.stdout.strip().splitlines()
        assert len(lines) == 1, p.stdout[-2000:]
        outs.append(lines[0])
    assert outs[0] == outs[1], outs  # byte-identical: same seed, same statistics
    return json.loads(outs[0])


@pytest.mark.parametrize("players,spots", [(2, False), (4, True)])
def test_shakeup_selfplay_both_interpreters(players, spots):
    args = ["--game", "shakeup", "--players", str(players), "--games", "12", "--seed", "7"]
    if spots:
        args.append("--spots")
    out = _both(*args)
    assert out["game"] == "shakeup" and out["games"] == 12 and out["players"] == players
    assert out["spots"] is spots
    assert sum(out["wins"]) == 12 and len(out["win_share"]) == players
    assert abs(sum(out["win_share"]) - 1) < 1e-3
    # Every game takes turns; at least 5 moves up per pawn owner, so many turns.
    assert out["mean_turns"] > 15 and out["mean_decisions"] > out["mean_turns"]
    for sh in ("1", "2", "3"):
        freq = out["result_freq"][sh]
        assert sorted(freq) == ["BIG", "MOVE", "NONE", "PAIR"]
        if out["results_by_shake"][sh]:
            assert abs(sum(freq.values()) - 1) < 1e-3
    assert sum(out["results_by_shake"].values()) == round(out["mean_turns"] * 12)
    assert out["lost_moves"] == 0  # unreachable under the rules


def test_shakeup_seed_changes_output():
    a = json.loads(_run(sys.executable, "--games", "5", "--seed", "1").stdout)
    b = json.loads(_run(sys.executable, "--games", "5", "--seed", "2").stdout)
    c = json.loads(_run(sys.executable, "--games", "5", "--seed", "1").stdout)
    assert a == c and a != b


def test_runs_from_another_directory():
    p = _run(micropython_bin(), "--games", "2", cwd="/")
    assert p.returncode == 0, p.stderr
    assert json.loads(p.stdout)["games"] == 2


def test_bad_options_are_rejected():
    for args in (["--bogus"], ["--games"], ["--games", "x"], ["--game", "chess"],
                 ["--players", "5"], ["--policy", "greedy:300"], ["--ones", "500"]):
        for interp in (sys.executable, micropython_bin()):
            p = _run(interp, *args)
            assert p.returncode == 2, (interp, args, p.stdout, p.stderr)
            assert "usage" in p.stderr


def test_frenzy_selfplay_both_interpreters():
    for args in (["--players", "3", "--games", "3", "--seed", "4", "--policy", "random"],
                 ["--players", "2", "--games", "3", "--seed", "4", "--policy", "greedy:350",
                  "--schedule", "lockstep", "--ones", "1000"]):
        out = _both("--game", "frenzy", *args)
        assert out["games"] == 3
        assert abs(sum(out["win_share"]) - 1) < 1e-3
    out = _both("--game", "frenzy", "--solo-rounds", "20", "--seed", "3")
    assert set(out["mean_round_score"]) == {"1", "5", "2X", "WILD"}
