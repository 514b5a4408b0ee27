# portable: runs under MicroPython too
"""Independent review of both engines against RULES.md (shared folder).

Each test states the RULES.md sentence it checks. The Frenzy reference below is
written from the rules text alone (its own scorer, the resolution as worded, the
roller rotation and the game end) and plays whole games beside the engine.
"""

from checks import mix as _mix, raises as _raises
from core import shakeup as S
from core import frenzy as F
from core.frenzy import Game, RELAY, LOCKSTEP
from core.frenzy_score import COMMON_BIT
from core.dice import Dice, TWOX, WILD
from core.seeded import Seeded


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


# ============================================================================
# Shake Up: a reference written from RULES.md section 1, played beside the engine
# ============================================================================

def _su_ref_class(d):
    vals = sorted(d)
    mult = {}
    for v in vals:
        mult[v] = mult.get(v, 0) + 1
    distinct = sorted(mult)
    if 4 in mult.values() or distinct in ([1, 2, 3, 4], [2, 3, 4, 5], [3, 4, 5, 6]):
        return "BIG"
    run3 = False
    for a in range(1, 5):
        if a in mult and a + 1 in mult and a + 2 in mult:
            run3 = True
    if 3 in mult.values() or run3 or sorted(mult.values()) == [2, 2]:
        return "MOVE"
    if 2 in mult.values():
        return "PAIR"
    return "NONE"


def _su_ref_movable(p, spots):
    # p: list of 5 positions (4 = SAFE). A pawn on L may move up if 2+ share L, or L
    # is the lowest level holding a non-SAFE pawn and that pawn is alone there;
    # with spots, not onto a full level 2 (4) or 3 (3).
    out = []
    low = min([x for x in p if x < 4] or [4])
    for lv in (1, 2, 3):
        n = p.count(lv)
        if not n or not (n >= 2 or lv == low):
            continue
        if spots and ((lv == 1 and p.count(2) >= 4) or (lv == 2 and p.count(3) >= 3)):
            continue
        out.append(lv)
    return out


class _SuPolicy:
    def __init__(self, seed):
        self.src = Seeded(seed)

    def pick(self, n):
        lim = 256 - 256 % n
        while True:
            b = self.src(1)[0]
            if b < lim:
                return b % n


def _su_ref_game(players, spots, seed):
    """Returns the list of (player, dice, pawns) after every finished turn, and the winner."""
    dice = Dice(Seeded(seed))
    pol = _SuPolicy(seed + 7)
    pawns = [[1] * 5 for _ in range(players)]
    # who starts
    inr = list(range(players))
    while True:
        rolls = [(s, dice.d6()) for s in inr]
        top = max(v for _, v in rolls)
        inr = [s for s, v in rolls if v == top]
        if len(inr) == 1:
            break
    player = inr[0]
    log = []
    while True:
        d = [dice.d6() for _ in range(4)]
        held = 0
        shakes = 1
        while shakes < 3:
            free = [i for i in range(4) if not held >> i & 1]
            opts = [m for m in range(16) if m & held == held and m != 15]
            k = pol.pick(len(opts) + 1)
            if k == len(opts):
                break  # stop
            held = opts[k]
            for i in free:
                if not held >> i & 1:
                    d[i] = dice.d6()
            shakes += 1
        cls = _su_ref_class(d)
        me = pawns[player]
        again = False
        if cls in ("BIG", "MOVE"):
            lv = _su_ref_movable(me, spots)
            if lv:
                lv = lv[pol.pick(len(lv))]
                me[me.index(lv)] = lv + 1
                if me.count(4) == 5:
                    log.append((player, tuple(d), [tuple(sorted(p)) for p in pawns]))
                    return log, player
            if cls == "BIG":
                targets = []
                for s in range(players):
                    if s != player:
                        for t in (2, 3):
                            if t in pawns[s]:
                                targets.append((s, t))
                if targets:
                    k = pol.pick(len(targets) + 1)
                    if k < len(targets):
                        s, t = targets[k]
                        pawns[s][pawns[s].index(t)] = 1
                        again = shakes == 1  # penalize and pass after shake 2/3
                    else:
                        again = True  # declined (shake 1) or the extra turn (2/3)
                else:
                    again = True
        elif cls == "NONE":
            up = [x for x in me if 1 < x < 4]
            if up:
                me[me.index(max(up))] = 1
        log.append((player, tuple(d), [tuple(sorted(p)) for p in pawns]))
        if not again:
            player = (player + 1) % players


def _su_engine_game(players, spots, seed):
    g = S.Game(players, spots, Dice(Seeded(seed)))
    pol = _SuPolicy(seed + 7)
    log = []
    n = 0
    while g.phase != S.OVER:
        n += 1
        assert n < 100000
        ph = g.phase
        seat = g.player
        if ph == S.ROLLOFF or ph == S.SHAKE:
            g.apply(S.ROLL)
        else:
            # CHOOSE: ROLL | mask by increasing mask, then STOP; MOVING: levels up;
            # PENALTY: targets by seat and level, then SKIP or AGAIN.
            lg = g.legal()
            g.apply(lg[pol.pick(len(lg))])
        if ph == S.ROLLOFF:
            continue
        done = False
        for x in g.notes:
            if x[0] == "turn" or x[0] == "win":
                done = True
        if done:
            pw = []
            for s in range(players):
                p = []
                for lv in (1, 2, 3, 4):
                    p += [lv] * g.count(s, lv)
                pw.append(tuple(p))
            log.append((seat, tuple(g.dice), pw))
    return log, g.winner


def test_su_engine_equals_the_reference_over_whole_games():
    # Section 1 as a whole: who starts, shakes and set-aside dice, the classes, the
    # effects in their order, the 2-Pawn Rule (lowest occupied level), the spots
    # option, penalties, another turn, passing, and the immediate win.
    for seed in range(40):
        players = 2 + seed % 3
        spots = seed % 2 == 1
        want, w = _su_ref_game(players, spots, seed)
        got, w2 = _su_engine_game(players, spots, seed)
        assert w == w2, (seed, w, w2)
        assert len(got) == len(want), (seed, len(got), len(want))
        for i in range(len(want)):
            assert got[i] == want[i], (seed, i, got[i], want[i])


# ============================================================================
# Farkle Frenzy: sentences of RULES.md not covered elsewhere, by hand
# ============================================================================

def _play(g, script, face):
    """script[seat] = list of steps (values, mask or None for a Farkle, 'c' or 's').
    Returns the order in which (seat, step) rolls happened."""
    order = []
    r = g.round
    g.apply(F.COMMON_ROLL, (face,))
    while g.phase != F.PH_OVER and g.round == r:
        ph = g.phase
        e = script[g.player][g.step - 1]
        if ph == F.PH_ROLL:
            order.append((g.player, g.step))
            g.apply(F.ROLL, e[0])
        elif ph == F.PH_TAKE:
            assert e[1] is not None, (g.player, g.step)
            g.apply(F.TAKE | e[1])
        elif ph == F.PH_DECIDE:
            g.apply(F.STOP if e[2] == "s" else F.ROLL)
        else:
            raise AssertionError("phase %d" % ph)
    return order


def test_fz_a_farkle_in_the_fill_step_scores_nothing():
    # "everyone else who was rolling in step k and neither farkled nor stopped is
    # stopped with their running total": a Farkle in the fill's step is a Farkle,
    # before or after the filler in the order of the step.
    for sched in (RELAY, LOCKSTEP):
        for filler in (0, 1):
            g = Game(2, sched)
            other = 1 - filler
            script = [None, None]
            script[filler] = [([1, 2, 3, 4, 6], 0x01, "c"), ([1, 1, 1, 5], 0x0F, "s")]
            script[other] = [([5, 2, 3, 4, 6], 0x01, "c"), ([2, 3, 4, 6], None, "c")]
            _play(g, script, 5)
            assert g.status(filler) == F.STOPPED and g.running(filler) == 450
            assert g.status(other) == F.FARKLED and g.running(other) == 0
            assert g.round_raw[other] == 0, (sched, filler)


def test_fz_a_filler_who_stops_still_stops_the_others():
    # "If F is not empty, active becomes the players of F who chose to continue":
    # a filler who banks still stops everybody else rolling in that step.
    for sched in (RELAY, LOCKSTEP):
        g = Game(3, sched)
        _play(g, [
            [([5, 2, 3, 4, 6], 0x01, "c"), ([5, 2, 3, 4], 0x01, "c"), ([1, 2, 3], 0x01, "s")],
            [([1, 2, 3, 4, 6], 0x01, "c"), ([1, 1, 1, 5], 0x0F, "s")],
            [([1, 2, 3, 4, 6], 0x01, "c"), ([1, 2, 3, 4], 0x01, "c"), ([1, 2, 3], 0x01, "s")],
        ], 5)
        assert [g.status(s) for s in range(3)] == [F.STOPPED] * 3
        # seats 0 and 2 keep their totals after step 2; their step 3 does not count
        assert [g.running(s) for s in range(3)] == [100, 450, 200]
        assert g.round_raw == [100, 450, 200]


def test_fz_order_within_a_step_starts_at_the_roller():
    # "Within a step the roller acts first, then the others in seat order going round
    # the table from the roller." Relay: "each player in turn, starting with the
    # roller, plays all their steps in one go."
    two = [([1, 2, 3, 4, 6], 0x01, "c"), ([5, 2, 3, 4], 0x01, "s")]
    for sched, want in ((LOCKSTEP, [(1, 1), (2, 1), (0, 1), (1, 2), (2, 2), (0, 2)]),
                        (RELAY, [(1, 1), (1, 2), (2, 1), (2, 2), (0, 1), (0, 2)])):
        g = Game(3, sched)
        _play(g, [[([5, 2, 3, 4, 6], 0x01, "s")]] * 3, 5)  # round 1, roller seat 0
        assert g.roller == 1 and g.round == 2
        order = _play(g, [two, two, two], 1)
        assert order == want, (sched, order)


def test_fz_the_common_die_is_rolled_once_and_2x_is_no_number():
    # "It is rolled once at the start of every round by that round's roller";
    # "Showing 2X, it is no number".
    g = Game(2, LOCKSTEP)
    g.apply(F.COMMON_ROLL, (TWOX,))
    assert g.usable() is None
    assert _raises(g.apply, F.COMMON_ROLL, (1,))
    g.apply(F.ROLL, [2, 2, 3, 3, 4])
    # two pairs and a 4 would be three pairs with a number on the Common Die
    assert ("farkle", 0) in g.notes and g.player == 1
    g.apply(F.ROLL, [1, 2, 3, 4, 6])
    assert all(not d & COMMON_BIT for d in g.legal())
    assert g.common == TWOX


def test_fz_three_ones_both_values_and_best_splits():
    # The table, with the Option, and "the best way to split all of them".
    from host_only.frenzy_checked import score as sc
    assert sc([1, 1, 1]) == 300 and sc([1, 1, 1], 1000) == 1000
    assert sc([1, 1, 1, 1]) == 1000 and sc([1, 1, 1, 1], 1000) == 1100
    assert sc([4, 4, 4, 4, 2, 2]) == 1500  # four of a kind plus a pair
    assert sc([1, 1, 1, 1, 5, 5]) == 1500 and sc([1, 1, 1, 1, 5, 5], 1000) == 1500
    assert sc([5, 5, 5, 5, 1, 1]) == 1500  # not 1000 + 200
    assert sc([1, 1, 1, 1, 1, 5], 1000) == 2050  # five of a kind + a 5
    assert sc([3, 3, 3, 6, 6, 6]) == 2500 and sc([1, 1, 1, 6, 6, 6], 1000) == 2500
    assert sc([2, 2, 4, 4, 6, 6]) == 1500 and sc([6, 5, 4, 3, 2, 1]) == 1500
    assert sc([2] * 6) == 3000 and sc([2] * 5) == 2000 and sc([2] * 4) == 1000
    assert sc([6, 6, 6]) == 600 and sc([5, 5, 5]) == 500
    assert sc([2, 2, 2, 3]) == 0  # cannot be split completely
