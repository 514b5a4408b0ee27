"""An exact Shake Up expectimax and shaken positions: the solver tests' yardstick
(test_cpu_shakeup, test_cpu_shakeup_solver)."""
from core import shakeup as S
from core.dice import Dice
from core.seeded import Seeded


def _expectimax(w1, w):
    """An independent turn DP: expectimax over ordered dice (not multisets) with
    core.shakeup.classify. w1: BIG on shake 1's worth; w: the worths by class after
    shake 2/3. Returns after(held, shake): the value of holding the sorted tuple
    `held` before shake number `shake` (1-3)."""
    memo = {}

    def after(held, shake):
        key = (held, shake)
        if key in memo:
            return memo[key]
        k = 4 - len(held)
        tot = 0.0
        for m in range(6 ** k):
            roll = tuple(m // 6 ** j % 6 + 1 for j in range(k))
            c = S.classify(held + roll)
            best = w1 if (shake == 1 and c == 3) else w[c]  # stop
            if shake < 3:
                for mask in range(1 << k):
                    keep = tuple(sorted(held + tuple(roll[j] for j in range(k) if mask >> j & 1)))
                    if len(keep) < 4:
                        x = after(keep, shake + 1)
                        if x > best:
                            best = x
            tot += best
        memo[key] = tot / 6 ** k
        return memo[key]

    return after


def _shaken(players, spots, seed, pawns=None):
    """A game at its first CHOOSE (after shake 1), pawns: counts per seat to set."""
    g = S.Game(players, spots, Dice(Seeded(seed)))
    while g.phase == S.ROLLOFF:
        g.apply(S.ROLL)
    g.player = 0
    if pawns is not None:
        for s in range(players):
            for lv in range(4):
                g._pawns[s * 4 + lv] = pawns[s][lv]
    g.apply(S.ROLL)
    return g
