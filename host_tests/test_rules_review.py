# portable: runs under MicroPython too
"""Independent review of both engines against RULES.md (shared folder).

Each test states the RULES.md sentence it checks. The Frenzy reference below is
written from the rules text alone (its own scorer, the resolution as worded, the
roller rotation and the game end) and plays whole games beside the engine.
"""

from core import shakeup as S
from core import frenzy as F
from core.frenzy import Game, RELAY, LOCKSTEP, COMMON_BIT
from core.dice import Dice, Seeded, TWOX, WILD


def _raises(fn, *args):
    try:
        fn(*args)
    except ValueError:
        return True
    return False


# ============================================================================
# Shake Up
# ============================================================================

def _started(players=2, spots=False):
    g = S.Game(players, spots)
    g.apply(S.ROLL, [6])
    for _ in range(players - 1):
        g.apply(S.ROLL, [1])
    return g


def _set(g, seat, c1, c2, c3, safe):
    g._pawns[seat * 4:seat * 4 + 4] = bytes((c1, c2, c3, safe))


def _counts(g, seat):
    return [g.count(seat, lv) for lv in (1, 2, 3, 4)]


def test_su_classes_named_in_the_brief():
    # "PAIR: some value shows exactly twice and the result is not MOVE or BIG"
    assert S.classify([2, 2, 2, 5]) == S.MOVE  # three of a kind, not a pair
    assert S.classify([3, 3, 5, 5]) == S.MOVE  # two pair
    assert S.classify([3, 3, 3, 3]) == S.BIG  # four of a kind is BIG, not two pair
    assert S.classify([1, 1, 2, 3]) == S.MOVE  # run 1-2-3 among the distinct values
    assert S.classify([4, 5, 6, 6]) == S.MOVE
    assert S.classify([6, 5, 4, 1]) == S.MOVE  # run 4-5-6 in any order
    assert S.classify([1, 3, 5, 5]) == S.PAIR
    assert S.classify([2, 4, 6, 6]) == S.PAIR
    assert S.classify([1, 2, 4, 6]) == S.NONE
    assert S.classify([6, 1, 2, 5]) == S.NONE  # 5,6,1,2 does not wrap
    assert S.classify([6, 1, 2, 3]) == S.MOVE  # 1-2-3 is a run of three; 6-1 is not
    assert S.classify([5, 6, 1, 1]) == S.PAIR  # 5-6-1 does not wrap


def test_su_pawn_needs_three_moves_up():
    # "every pawn needs 3 moves up": 1 -> 2 -> 3 -> SAFE (here the lone pawn on the
    # lowest occupied level, so the Decision on "lowest level" lets it climb).
    g = _started()
    _set(g, 0, 1, 0, 0, 4)
    for want in ([0, 1, 0, 4], [0, 0, 1, 4]):
        g.apply(S.ROLL, [3, 3, 3, 1])
        g.apply(S.STOP)
        assert len(g.legal()) == 1
        g.apply(g.legal()[0])
        assert _counts(g, 0) == want, (_counts(g, 0), want)
        assert g.player == 1
        g.apply(S.ROLL, [1, 1, 3, 5])  # seat 1: PAIR
        g.apply(S.STOP)
    g.apply(S.ROLL, [3, 3, 3, 1])
    g.apply(S.STOP)
    g.apply(S.UP | 3)
    assert _counts(g, 0) == [0, 0, 0, 5] and g.winner == 0


def test_su_play_passes_to_the_left_wrapping():
    # "Play passes to the next seat, wrapping around."
    g = S.Game(3)
    g.apply(S.ROLL, [1])
    g.apply(S.ROLL, [2])
    g.apply(S.ROLL, [6])  # seat 2 starts
    assert g.player == 2
    g.apply(S.ROLL, [1, 1, 3, 5])
    g.apply(S.STOP)  # PAIR: pass
    assert g.player == 0 and g.phase == S.SHAKE
    g.apply(S.ROLL, [1, 1, 3, 5])
    g.apply(S.STOP)
    assert g.player == 1


def test_su_rolloff_tie_only_the_tied_shake():
    # "Players tied for the highest shake again among themselves until one is highest."
    g = S.Game(3)
    g.apply(S.ROLL, [5])
    g.apply(S.ROLL, [2])
    g.apply(S.ROLL, [5])
    assert g.phase == S.ROLLOFF and g.player == 0
    g.apply(S.ROLL, [1])
    assert g.player == 2  # seat 1 (lower, not tied) does not shake again
    g.apply(S.ROLL, [3])
    assert g.starter == 2 and g.player == 2 and g.phase == S.SHAKE


def test_su_another_turn_is_a_fresh_turn_of_four_dice():
    # "Take another turn: the same player starts a fresh turn at step 1."
    g = _started()
    _set(g, 1, 5, 0, 0, 0)
    g.apply(S.ROLL, [6, 6, 6, 2])
    g.apply(S.ROLL | 0b0111, [6])
    g.apply(S.STOP)  # BIG on shake 2, no target: the extra turn
    g.apply(S.UP | 1)
    assert g.player == 0 and g.phase == S.SHAKE and g.held == 0 and g.shakes == 0
    assert _raises(g.apply, S.ROLL, [1])  # all 4 dice are shaken again
    g.apply(S.ROLL, [1, 2, 4, 6])
    assert g.shakes == 1 and g.phase == S.CHOOSE and S.STOP in g.legal()


def test_su_big_on_shake_three_penalize_and_pass():
    # "BIG on shake 2 or 3: ... penalize one opponent pawn and pass."
    g = _started(3)
    _set(g, 2, 4, 0, 1, 0)
    g.apply(S.ROLL, [2, 2, 5, 6])
    g.apply(S.ROLL | 0b0011, [2, 4])
    g.apply(S.ROLL | 0b0011, [2, 2])
    assert g.result == S.BIG and g.phase == S.MOVING
    g.apply(S.UP | 1)
    assert sorted(g.legal()) == sorted([S.PEN | 2 << 2 | 3, S.AGAIN])
    g.apply(S.PEN | 2 << 2 | 3)
    assert _counts(g, 2) == [5, 0, 0, 0] and g.player == 1


def test_su_none_penalty_ignores_safe_and_level_one():
    # "your uppermost pawn that is not SAFE and not on level 1 goes back to level 1"
    g = _started()
    _set(g, 0, 1, 1, 0, 3)  # SAFE pawns are above, but the uppermost non-SAFE is on 2
    g.apply(S.ROLL, [1, 3, 5, 6])
    g.apply(S.STOP)
    assert g.result == S.NONE and _counts(g, 0) == [2, 0, 0, 3]
    # only one pawn goes back, even with several on the top level
    g = _started()
    _set(g, 0, 0, 1, 3, 1)
    g.apply(S.ROLL, [1, 3, 5, 6])
    g.apply(S.STOP)
    assert _counts(g, 0) == [1, 1, 2, 1] and g.player == 1


def test_su_win_on_big_shake_two_ends_before_the_choice():
    # "The first player whose 5th pawn becomes SAFE wins at once; the game ends there,
    # whatever else the result would have done."
    g = _started()
    _set(g, 0, 0, 0, 1, 4)
    _set(g, 1, 3, 2, 0, 0)
    g.apply(S.ROLL, [3, 4, 5, 1])
    g.apply(S.ROLL | 0b0111, [6])
    g.apply(S.STOP)
    g.apply(S.UP | 3)
    assert g.phase == S.OVER and g.winner == 0 and g.legal() == []
    assert _counts(g, 1) == [3, 2, 0, 0]


def test_su_win_on_a_move_result():
    g = _started()
    _set(g, 0, 0, 0, 1, 4)
    g.apply(S.ROLL, [2, 2, 5, 5])
    g.apply(S.STOP)
    g.apply(S.UP | 3)
    assert g.phase == S.OVER and g.winner == 0 and g.player == 0


def test_su_lowest_occupied_level_exception_with_spots():
    # 2-Pawn Rule: the lone pawn on the lowest occupied level may move (Decision:
    # lowest occupied, not only level 1), unless the pyramid-spots option finds the
    # level above full.
    assert S.movable([2, 3, 4, 4, 4]) == [2]  # lone on 2 (lowest), lone on 3 not
    assert S.movable([2, 3, 4, 4, 4], True) == [2]
    assert S.movable([3, 4, 4, 4, 4]) == [3]
    assert S.movable([2, 3, 3, 3, 4], True) == [3]  # level 3 full: the lone 2 is stuck
    assert S.movable([2, 3, 3, 3, 4]) == [2, 3]
    assert S.movable([1, 2, 2, 2, 2], True) == [2]
    assert S.movable([1, 1, 2, 2, 2, 2][:5], True) == [1, 2]  # 1,1,2,2,2: 2 has room


def test_su_special_advantage_order_move_then_penalty_then_turn():
    # "move one of your pawns up one level, then penalize one opponent pawn (the player
    # may decline it), then take another turn."
    g = _started()
    _set(g, 1, 3, 2, 0, 0)
    g.apply(S.ROLL, [1, 2, 3, 4])
    g.apply(S.STOP)
    assert g.phase == S.MOVING and S.SKIP not in g.legal()  # the move comes first
    g.apply(S.UP | 1)
    assert g.phase == S.PENALTY and S.SKIP in g.legal() and S.AGAIN not in g.legal()
    g.apply(S.PEN | 1 << 2 | 2)
    assert g.player == 0 and g.phase == S.SHAKE and _counts(g, 1) == [4, 1, 0, 0]


# ============================================================================
# Farkle Frenzy: a reference written from RULES.md section 2
# ============================================================================

_memo = {}


def _ref_best(c, ones):
    # c: tuple of counts for values 1..6 (index 0..5). Best complete split or -1.
    key = (c, ones)
    if key in _memo:
        return _memo[key]
    n = sum(c)
    if n == 0:
        return 0
    best = -1
    if n == 6:
        nz = sorted(x for x in c if x)
        if nz == [1, 1, 1, 1, 1, 1]:
            best = 1500  # straight
        elif nz == [2, 2, 2] or nz == [2, 4]:
            best = 1500  # three pairs / four of a kind plus a pair
        elif nz == [3, 3]:
            best = 2500  # two triplets
    for v in range(6):
        combos = []
        if v == 0:
            combos.append((1, 100))
        if v == 4:
            combos.append((1, 50))
        combos.append((3, ones if v == 0 else (v + 1) * 100))
        combos.append((4, 1000))
        combos.append((5, 2000))
        combos.append((6, 3000))
        for k, p in combos:
            if c[v] >= k:
                rest = list(c)
                rest[v] -= k
                r = _ref_best(tuple(rest), ones)
                if r >= 0 and r + p > best:
                    best = r + p
    _memo[key] = best
    return best


def _ref_score(vals, ones):
    c = [0] * 6
    for v in vals:
        c[v - 1] += 1
    return max(_ref_best(tuple(c), ones), 0)


def _mix(*xs):
    h = 0x811C9DC5
    for x in xs:
        h = ((h ^ (x & 0xFFFF)) * 0x01000193) & 0xFFFFFFFF
        h ^= h >> 13
    return h


def _pop(m):
    n = 0
    while m:
        n += m & 1
        m >>= 1
    return n


def _ref_legal(vals, usable, ones):
    n = len(vals)
    out = []
    for m in range(1, 64):
        if not m & 0x1F or (m & 0x1F) >> n:
            continue
        if m & COMMON_BIT and usable is None:
            continue
        sel = [vals[i] for i in range(n) if m >> i & 1]
        if m & COMMON_BIT:
            sel.append(usable)
        p = _ref_score(sel, ones)
        if p:
            out.append((m, p))
    return out


def _ref_game(players, ones, seed, stop_bias, start=0):
    """The whole game as RULES.md words it, with the decisions of _drive."""
    totals = [start] * players
    in_round = list(range(players))
    roller = 0
    rnd = 1
    rounds = []
    while True:
        face = Dice(Seeded(_mix(seed, rnd, 99))).common()
        wild = 0
        order = [(roller + i) % players for i in range(players)]
        order = [s for s in order if s in in_round]
        run = [0] * players
        riser = [0] * players
        cused = [False] * players
        st = ["out"] * players
        for s in order:
            st[s] = "rolling"
        active = list(order)
        k = 0
        while active:
            k += 1
            filled = []
            cont = []
            for s in order:
                if s not in active:
                    continue
                key = _mix(seed, rnd, s, k)
                if riser[s] == 5:
                    riser[s] = 0
                    cused[s] = False
                d = Dice(Seeded(key))
                vals = [d.d6() for _ in range(5 - riser[s])]
                if face == WILD and not wild:
                    assert s == roller and k == 1
                    wild = key % 6 + 1
                num = None
                if face == 1 or face == 5:
                    num = face
                elif face == WILD:
                    num = wild
                usable = None if cused[s] else num
                legal = _ref_legal(vals, usable, ones)
                if not legal:
                    st[s] = "farkled"
                    run[s] = 0
                    continue
                m, p = legal[(key >> 8) % len(legal)]
                run[s] += p
                riser[s] += _pop(m & 0x1F)
                if m & COMMON_BIT:
                    cused[s] = True
                if riser[s] == 5:
                    filled.append(s)
                if (key >> 16) % 10 < stop_bias + riser[s]:
                    st[s] = "stopped"
                else:
                    cont.append(s)
            if filled:
                # F = fillers; active = those of F who continue; everyone else still
                # rolling in this step (not farkled, not stopped) is stopped.
                for s in cont:
                    if s not in filled:
                        st[s] = "stopped"
                active = [s for s in cont if s in filled]
            else:
                active = cont
        dbl = 2 if face == TWOX else 1
        raw = [0] * players
        got = [0] * players
        for s in order:
            raw[s] = run[s] * dbl
            got[s] = raw[s] if totals[s] or raw[s] >= 400 else 0
            totals[s] += got[s]
        view = [rnd, roller, face, wild, tuple(totals), tuple(got), tuple(raw)]
        for s in range(players):
            view.append((st[s], run[s] if st[s] != "farkled" else 0, riser[s]))
        rounds.append(view)
        best = max(totals)
        if best >= 10000:
            tied = [s for s in range(players) if totals[s] == best]
            if len(tied) == 1:
                return rounds, tied[0]
            in_round = tied
        else:
            in_round = list(range(players))
        s = (roller + 1) % players
        while s not in in_round:
            s = (s + 1) % players
        roller = s
        rnd += 1


_ST = {F.ROLLING: "rolling", F.STOPPED: "stopped", F.FARKLED: "farkled", F.OUT: "out"}


def _view(g):
    out = [g.round, g.roller, g.common, g.wild, tuple(g.totals), tuple(g.round_scores),
           tuple(g.round_raw)]
    for s in range(g.players):
        out.append((_ST[g.status(s)], g.running(s), g.riser(s)))
    return out


def _drive(g, seed, stop_bias):
    # One view per round, taken when the round ends (the engine has then already
    # chosen the next roller, so the round's roller is remembered from its roll).
    rounds = []
    n = 0
    roller = -1
    while g.phase != F.PH_OVER:
        n += 1
        assert n < 200000
        ph = g.phase
        key = _mix(seed, g.round, g.player, g.step)
        if ph == F.PH_COMMON:
            roller = g.roller
            g.apply(F.COMMON_ROLL, (Dice(Seeded(_mix(seed, g.round, 99))).common(),))
        elif ph == F.PH_ROLL:
            d = Dice(Seeded(key))
            g.apply(F.ROLL, [d.d6() for _ in range(g.to_roll())])
        elif ph == F.PH_WILD:
            g.apply(F.DECLARE | (key % 6 + 1))
        elif ph == F.PH_TAKE:
            lg = g.legal()
            g.apply(lg[(key >> 8) % len(lg)])
        else:
            g.apply(F.STOP if (key >> 16) % 10 < stop_bias + g.riser(g.player) else F.ROLL)
        for note in g.notes:
            if note[0] == "round_end":
                v = _view(g)
                v[0] = note[1]
                v[1] = roller
                rounds.append(v)
    return rounds


def _compare(seeds, players_of, ones_of, bias_of, start=0):
    ties = 0
    for seed in seeds:
        players = players_of(seed)
        ones = ones_of(seed)
        bias = bias_of(seed)
        want, winner = _ref_game(players, ones, seed, bias, start)
        for v in want:
            if ("out", 0, 0) in v[7:]:
                ties += 1  # a round among the tied only
        for sched in (RELAY, LOCKSTEP):
            g = Game(players, sched, ones)
            for s in range(players):
                g.totals[s] = start
            got = _drive(g, seed, bias)
            assert len(got) == len(want), (seed, sched, len(got), len(want))
            for i in range(len(want)):
                assert got[i] == want[i], (seed, sched, i, got[i], want[i])
            assert g.winner == winner
    return ties


def test_fz_engine_equals_the_reference_over_whole_games():
    # Everything of section 2 at once: scoring, the Common Die per set, WILD, 2X, the
    # step resolution, fills, entry, the 10,000 end, tie rounds and the roller.
    _compare(range(12), lambda s: 1 + s % 4, lambda s: 1000 if s % 3 == 0 else 300,
             lambda s: 1 + s % 3)


def test_fz_tie_rounds_equal_the_reference():
    # "if the highest total is shared, only the tied players play one more round, and
    # again until one total is highest. In such a round the Common Die is rolled by the
    # first tied player at or after the seat whose turn it would be, and the rotation
    # goes on from there." Every seat starts on 10,000, so the first round ends the
    # game unless the highest total is shared.
    ties = _compare(range(40), lambda s: 2 + s % 3, lambda s: 300, lambda s: s % 2,
                    10000)
    assert ties >= 3, ties
