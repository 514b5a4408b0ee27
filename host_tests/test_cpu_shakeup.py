# portable: runs under MicroPython too
"""The Shake Up CPU players (core.cpu_shakeup): legal decisions only over seeded
games of 2-4 players (with and without pyramid spots); the solved table's invariants
(range, terminal entries, hand-checked endgames, monotonicity); HARD's holds against
an independent expectimax over ordered dice with the engine's own classify; the
skills' habits; no peeking at the game's dice. The solver itself (its Bellman
residual) is checked by test_cpu_shakeup_solver.py (CPython)."""

from core import cpu_shakeup as C
from core import shakeup as S
from core.dice import Dice
from core.seeded import Seeded
from shakeup_expectimax import _expectimax, _shaken

# firmware/data/shakeup2.bin, wherever the tests run from (both interpreters).
TABLE = C.__file__[:C.__file__.rfind("/core/")] + "/data/shakeup2.bin"
ONE = 65535
END = (0, 0, 1, 4)     # one pawn on level 3, four SAFE: one move from winning
START = (5, 0, 0, 0)


def _table():
    return open(TABLE, "rb")


def _v(t, spots, a, b):
    return C.lookup(t, spots, C.pawn_rank(a), C.pawn_rank(b))


def _placements():
    out = []
    for c1 in range(6):
        for c2 in range(6 - c1):
            for c3 in range(6 - c1 - c2):
                out.append((c1, c2, c3, 5 - c1 - c2 - c3))
    return out


def _play(g, skills, rng, t, check=None):
    n = 0
    while g.phase != S.OVER:
        s = g.player
        d = C.choose(g, skills[s], rng, t)
        lg = g.legal()
        assert d in lg, (d, lg, g.phase)
        if check is not None:
            check(g, skills[s], d)
        g.apply(d)
        n += 1
        assert n < 20000, "a game did not end"
    return g.winner


def test_only_legal_decisions_in_seeded_games():
    t = _table()
    rng = Seeded(77)
    games = 0
    for players, count in ((2, 500), (3, 250), (4, 250)):
        for i in range(count):
            skills = [(i + s) % 3 for s in range(players)]
            g = S.Game(players, i % 2 == 1, Dice(Seeded(1000 * players + i)))
            w = _play(g, skills, rng, t)
            assert 0 <= w < players and g.count(w, 4) == 5
            games += 1
    t.close()
    assert games == 1000


def test_pawn_and_dice_ranks_are_one_to_one():
    seen = set()
    for c in _placements():
        seen.add(C.pawn_rank(c))
    assert sorted(seen) == list(range(56))
    seen = set()
    vals = bytearray(4)
    for n in range(5):
        for m in range(6 ** n):
            for k in range(n):
                vals[k] = m // 6 ** k % 6 + 1
            s = sorted(vals[:n])
            seen.add(C.dice_rank(bytes(s), n))
    assert sorted(seen) == list(range(210))


def test_table_range_and_terminal_entries():
    t = _table()
    data = t.read()
    t.close()
    assert len(data) == 2 * 2 * 56 * 56 + 12  # the entries, then core.data's trailer
    assert data[-12:-8] == b"PDTC"
    won = C.pawn_rank((0, 0, 0, 5))
    for spots in (0, 1):
        for a in range(56):
            for b in range(56):
                i = C.index(spots, a, b) * 2
                v = data[i] | data[i + 1] << 8
                assert 0 <= v <= ONE
                if b == won:
                    assert v == 0      # the opponent has won
                elif a == won:
                    assert v == ONE    # (unreachable) the mover has won
                else:
                    # Nobody is sure to win or lose before the dice are shaken.
                    assert 0 < v < ONE, (spots, a, b, v)


def _turn_value(w1, w):
    return _expectimax(w1, w)((), 1)


def test_hand_checked_endgames():
    t = _table()
    for spots in (0, 1):
        # One move from winning: any MOVE or BIG wins. The best chance of one in a
        # turn, by the independent expectimax, is a floor for V.
        p = _turn_value(1.0, (0.0, 0.0, 1.0, 1.0))
        assert 0.8 < p < 1.0
        for b in _placements():
            if b[3] < 5:
                assert _v(t, spots, END, b) >= int(p * ONE) - 1, (b, _v(t, spots, END, b))
        # Both one move from winning: V = the turn's value when a MOVE or BIG is
        # worth 1, a PAIR 1 - V (the same position, the other player to move) and a
        # NONE 1 - V(opponent, the pawn on level 3 sent back).
        v = _v(t, spots, END, END) / ONE
        back = _v(t, spots, END, (1, 0, 0, 4)) / ONE
        want = _turn_value(1.0, (1 - back, 1 - v, 1.0, 1.0))
        assert abs(want - v) < 1e-4, (want, v)
        assert p <= v < p + (1 - p) * 0.5
        # The start: the first player's advantage is small and real.
        s = _v(t, spots, START, START) / ONE
        assert 0.5 < s < 0.56, s
    t.close()


def test_monotone_in_every_pawn():
    # The solved game rewards progress: one of your own pawns a level higher never
    # lowers your chance, an opponent's pawn higher never raises it, a pawn sent
    # back does the reverse, and being the one to move is worth at least not
    # moving (V(a, b) >= 1 - V(b, a)). Checked on every live position.
    t = _table()
    data = t.read()
    t.close()
    live = [c for c in _placements() if c[3] < 5]

    def v(spots, a, b):
        i = C.index(spots, C.pawn_rank(a), C.pawn_rank(b)) * 2
        return data[i] | data[i + 1] << 8

    def up(c, lv):
        c = list(c)
        c[lv - 1] -= 1
        c[lv] += 1
        return tuple(c)

    def back(c, lv):
        c = list(c)
        c[lv - 1] -= 1
        c[0] += 1
        return tuple(c)

    for spots in (0, 1):
        for a in live:
            for b in live:
                x = v(spots, a, b)
                assert x + v(spots, b, a) >= ONE - 1
                for lv in (1, 2, 3):
                    if b[lv - 1]:
                        assert v(spots, a, up(b, lv)) <= x + 1
                    if a[lv - 1] and up(a, lv)[3] < 5:
                        assert v(spots, up(a, lv), b) >= x - 1
                for lv in (2, 3):
                    if b[lv - 1]:
                        assert v(spots, a, back(b, lv)) >= x - 1
                    if a[lv - 1]:
                        assert v(spots, back(a, lv), b) <= x + 1


def test_hard_holds_match_an_independent_expectimax():
    # After shake 1, HARD's decision is worth the best of all decisions, by the
    # ordered-dice expectimax with the same worths (its value per hold and STOP).
    t = _table()
    src = Seeded(11)
    live = [c for c in _placements() if c[3] < 5]
    done = 0
    for trial in range(40):
        if done == 4:
            break
        b = src(2)
        g = _shaken(2, trial % 2 == 1, 100 + trial, (live[b[0] % 55], live[b[1] % 55]))
        w1, w = C._Eval(g, t).worths()
        after = _expectimax(w1 / ONE, tuple(x / ONE for x in w))
        c = S.classify(g.dice)
        vals = {S.STOP: (w1 if c == 3 else w[c]) / ONE}
        for m in range(15):
            vals[S.ROLL | m] = after(tuple(sorted(g.dice[i] for i in range(4) if m >> i & 1)), 2)
        d = C.choose(g, 2, None, t)
        if max(vals.values()) - min(vals.values()) < 1e-3:
            continue  # every choice alike: no test
        assert vals[d] >= max(vals.values()) - 2e-5, (d, vals[d], max(vals.values()))
        done += 1
    assert done == 4
    t.close()


def _best(options):
    # The options' keys with the highest value.
    top = max(options.values())
    return [k for k in options if options[k] == top]


def test_hard_moves_and_penalizes_by_the_table():
    t = _table()
    red = (1, 2, 2, 0)   # may move up from level 2 or 3 (two on each)
    for blue in ((3, 2, 0, 0), (0, 1, 1, 3), (2, 0, 2, 1)):
        # MOVE: the level whose result leaves Blue, to move next, the least.
        g = _shaken(2, False, 5, (red, blue))
        g.phase = S.MOVING
        g.result = S.MOVE
        g.shakes = 3
        opts = {}
        for d in g.legal():
            lv = d & 3
            a = list(red)
            a[lv - 1] -= 1
            a[lv] += 1
            opts[d] = ONE - _v(t, 0, blue, tuple(a))
        assert len(opts) >= 2
        assert C.choose(g, 2, None, t) in _best(opts)
        # Special Advantage (move made): the penalty, or none, that leaves Red's
        # next turn the best.
        g = _shaken(2, False, 5, (red, blue))
        g.phase = S.PENALTY
        g.shakes = 1
        opts = {}
        for d in g.legal():
            b = list(blue)
            if d & 0xF00 == S.PEN:
                b[(d & 3) - 1] -= 1
                b[0] += 1
            opts[d] = _v(t, 0, red, tuple(b))
        assert C.choose(g, 2, None, t) in _best(opts)
    # 4 players: the penalty goes to the opponent nearest to winning.
    g = _shaken(4, False, 5, ((3, 2, 0, 0), (3, 2, 0, 0), (0, 2, 1, 2), (3, 2, 0, 0)))
    g.phase = S.PENALTY
    g.shakes = 1
    d = C.choose(g, 2, None, t)
    assert d & 0xF00 == S.PEN and d >> 2 & 3 == 2, hex(d)
    t.close()


def test_skills_habits():
    t = _table()
    rng = Seeded(3)
    seen = {"easy_pen": 0, "normal_pen": 0, "hard_pen": 0, "easy_pair_kept": 0}

    def check(g, skill, d):
        if g.phase == S.PENALTY and d & 0xF00 == S.PEN:
            seen[("easy_pen", "normal_pen", "hard_pen")[skill]] += 1
        if skill == 0 and g.phase == S.CHOOSE and d & 0xF00 == S.ROLL:
            # EASY sets aside every die whose value shows twice or more.
            for i in range(4):
                for j in range(4):
                    if i != j and g.dice[i] == g.dice[j]:
                        assert d >> i & 1
                        seen["easy_pair_kept"] += 1

    for i in range(60):
        g = S.Game(3, False, Dice(Seeded(500 + i)))
        _play(g, [0, 1, 2], rng, t, check)
    t.close()
    assert seen["easy_pen"] == 0        # EASY never penalizes
    assert seen["normal_pen"] > 0 and seen["hard_pen"] > 0
    assert seen["easy_pair_kept"] > 0


def test_variety_only_from_the_byte_source_and_no_peeking():
    t = _table()

    class Counting:
        # The game's dice source: choose() must never draw from it.
        def __init__(self, seed):
            self.src = Seeded(seed)
            self.n = 0

        def __call__(self, n):
            self.n += n
            return self.src(n)

    for skill in (0, 1, 2):
        runs = []
        for rep in range(2):
            src = Counting(9)
            g = S.Game(2, False, Dice(src))
            rng = Seeded(4)
            out = []
            while g.phase != S.OVER:
                before = src.n
                d = C.choose(g, skill, rng, t)
                assert src.n == before
                out.append(d)
                g.apply(d)
            runs.append(out)
        assert runs[0] == runs[1]  # the same bytes, the same game
    t.close()


def test_think_steps_to_the_same_decision():
    # think() yields None between bounded steps, then choose()'s decision: after
    # shake 1 a few steps per distinct hold (at most 15), plus the worths (a step per
    # move or penalty tried) and the last shake's DP in parts; the first decision
    # that needs the turn DP's tables also builds them in (210 + 56) / 2 steps.
    t = _table()
    C._T = None
    first = len(list(C.think(_shaken(2, False, 3), 1, None, t)))
    assert 133 < first <= 133 + 40 and C._T is not None
    most = 0
    for i in range(30):
        g = S.Game(2 + i % 3, i % 2 == 1, Dice(Seeded(40 + i)))
        rng_a = Seeded(i)
        rng_b = Seeded(i)
        while g.phase != S.OVER:
            skill = (i + g.player) % 3
            steps = list(C.think(g, skill, rng_a, t))
            assert steps[-1] is not None and [x for x in steps[:-1] if x is not None] == []
            assert steps[-1] == C.choose(g, skill, rng_b, t)
            most = max(most, len(steps))
            g.apply(steps[-1])
    assert 18 < most <= 90
    t.close()


def test_a_memo_changes_no_decision():
    # Self-play's memo of positions (worths, DPs) gives the device's decisions.
    t = _table()
    memo = {}
    for i in range(12):
        g = S.Game(2 + i % 3, i % 4 == 1, Dice(Seeded(70 + i)))
        while g.phase != S.OVER:
            skill = 2 if g.player % 2 == 0 else 1
            d = C.choose(g, skill, None, t, memo)
            assert d == C.choose(g, skill, None, t)
            g.apply(d)
    assert len(memo) > 100
    t.close()


def test_bad_calls_are_rejected():
    g = S.Game(2)
    for skill in (-1, 3, "hard"):
        try:
            C.choose(g, skill)
        except ValueError:
            pass
        else:
            raise AssertionError("skill %r accepted" % (skill,))
    g = _shaken(2, False, 3)
    try:
        C.choose(g, 2)  # HARD without its table
    except ValueError:
        pass
    else:
        raise AssertionError("HARD played without the table")
