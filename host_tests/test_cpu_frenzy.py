# portable: runs under MicroPython too
"""The Farkle Frenzy CPU players (core.cpu_frenzy): legal decisions only over seeded
games in both schedules and 1-4 players; HARD's table against an independent
brute force over the engine's own scoring, the hand-derived one-die relation and a
Monte Carlo estimate; the 400 entry, the WILD declaration, the end of the game,
Relay's fair play."""

from core import cpu_frenzy as C
from core import frenzy as F
from core.dice import TWOX, WILD, Dice
from core.seeded import Seeded
from host_only.frenzy_checked import selections

_POP = bytes(bin(m).count("1") for m in range(32))
BOTH = (F.RELAY, F.LOCKSTEP)
T = C.open_table()  # HARD's table, data/frenzy_round.bin, read in place


def _play(g, skills, rngs, check=None, limit=100000):
    """Plays g to its end with per-seat skills; check(g, d) sees every CPU decision."""
    n = 0
    while g.phase != F.PH_OVER:
        s = g.player
        d = C.choose(g, skills[s], rngs[s], T)
        assert d in g.legal(), (d, g.legal(), g.phase)
        if check is not None:
            check(g, d)
        g.apply(d)
        n += 1
        assert n < limit, "a game did not end"
    return n


def test_only_legal_decisions_in_seeded_games():
    games = 0
    for sched in BOTH:
        dice = Dice(Seeded(11 + sched))
        mix = Seeded(7 + sched)
        for i in range(1000):
            players = 1 + i % 4
            b = mix(4)
            skills = [b[k] % 3 for k in range(players)]
            rngs = [Seeded(1000 * i + k + 1) for k in range(players)]
            g = F.Game(players, sched, 1000 if i % 5 == 0 else 300, dice)
            _play(g, skills, rngs)
            assert 0 <= g.winner < players and max(g.totals) >= F.GOAL
            games += 1
    assert games == 2000


def test_choices_are_deterministic_without_a_byte_source():
    for skill in (C.EASY, C.NORMAL, C.HARD):
        seqs = []
        for _ in range(2):
            g = F.Game(2, F.LOCKSTEP, 300, Dice(Seeded(5)))
            out = []
            _play(g, [skill, skill], [None, None], lambda g, d: out.append(d))
            seqs.append(out)
        assert seqs[0] == seqs[1]


def test_think_steps_to_the_same_decision():
    # think() yields None between bounded steps, then choose()'s decision: a WILD in
    # 4 steps for its 31 masks, 5 per value and the last; a take in up to 8 to find
    # its (at most 62) selections, then one per 4 valued.
    most = 0
    for sched in BOTH:
        dice = Dice(Seeded(30 + sched))
        for i in range(40):
            players = 1 + i % 4
            g = F.Game(players, sched, 300, dice)
            while g.phase != F.PH_OVER:
                skill = (i + g.player) % 3
                steps = list(C.think(g, skill, Seeded(i), T))
                assert steps[-1] is not None and [x for x in steps[:-1] if x is not None] == []
                assert steps[-1] == C.choose(g, skill, Seeded(i), T)
                most = max(most, len(steps))
                g.apply(steps[-1])
    assert 25 < most <= 4 + 6 * 5 + 1


def test_stepped_selections_are_the_engines():
    # The take's selections, found in think()'s steps, are selections_of's, in order.
    from core.frenzy_score import ones_table, selections_of
    src = Seeded(8)
    for i in range(3000):
        n = 1 + i % 5
        rolled = bytearray(1 + b % 6 for b in src(5))
        common = (None, 1, 5, 1 + src(1)[0] % 6)[i % 4]
        t = ones_table(1000 if i % 3 == 0 else 300)
        steps = C._selections(rolled, n, common, t)
        k = 0
        try:
            while True:
                assert next(steps) is None
                k += 1
        except StopIteration as e:
            got = e.value
        assert got == selections_of(rolled, n, common, t), (rolled, n, common)
        assert k >= 1


def test_hard_needs_its_table():
    g = F.Game(2, F.RELAY, 300, Dice(Seeded(1)))
    try:
        C.choose(g, C.HARD)
    except ValueError as e:
        assert "table" in str(e)
    else:
        raise AssertionError("HARD played without its table")
    assert C.choose(g, C.NORMAL) == F.COMMON_ROLL  # the others need none


def test_bad_skill_is_rejected():
    g = F.Game(2, F.RELAY, 300, Dice(Seeded(1)))
    for bad in (-1, 3, "hard", None):
        try:
            C.choose(g, bad)
        except ValueError as e:
            assert "skill" in str(e)
        else:
            raise AssertionError("skill %r accepted" % (bad,))


# ---- HARD's table against independent computations ---------------------------------

def _tables(ones, num):
    entry = 200 if num == 0 else 400
    return C._Table(T, ones, num, 0), C._Table(T, ones, num, entry)


def test_table_file_invariants():
    # The header's rows are contiguous and fill the file; rows not in play are
    # empty; every number's off-sheet values run up to the entry; V >= T, V grows
    # with T, and off the sheet V is never above V on it (nor below 0).
    T.seek(0)
    data = T.read()[:-12]  # (the trailer core.data_check reads at open after them)
    at = 560
    for k in range(14):
        num = k % 7
        for r in range(10):
            h = data[(k * 10 + r) * 4:(k * 10 + r) * 4 + 4]
            o, ng, noff = h[0] | h[1] << 8, h[2], h[3]
            assert o == at, (k, r)
            at += 2 * (ng + noff)
            u = r % 2
            live = (u == 0 or num != 0) and not (r // 2 == 4 and num and not u)
            assert (ng > 0) == live and noff == ((4 if num == 0 else 8) if live else 0), (k, r)
    assert at == len(data)
    for ones in (300, 1000):
        for num in range(7):
            on, off = _tables(ones, num)
            for r in range(10):
                if not on.head[r * 4 + 2]:
                    continue
                prev = -1.0
                for t in range(0, 240):
                    v = on.value(r, t)
                    assert v >= t * 50 and v >= prev, (ones, num, r, t)
                    prev = v
                    w = off.value(r, t)
                    assert 0 <= w <= v, (ones, num, r, t)


def _ordered_rolls(n):
    out = [[]]
    for _ in range(n):
        out = [r + [v] for r in out for v in range(1, 7)]
    return out


def _brute_value(tab, num, n, u, t, rolls):
    """max(bank, the roll's expectation) from the engine's own selections, every one of
    the 6**n ordered rolls, the table for the positions after the take."""
    acc = 0.0
    for r in rolls:
        best = 0.0
        for m, p in selections(r, num if u else None, tab.ones):
            left = n - _POP[m & 0x1F]
            if left == 0:
                x = tab.value(C._row(5, num), t + p // 50)
            else:
                x = tab.value(C._row(left, u and not m & F.COMMON_BIT), t + p // 50)
            if x > best:
                best = x
        acc += best
    acc /= len(rolls)
    bank = tab.bank(t)
    return acc if acc > bank else bank


def test_table_matches_a_brute_force_over_every_roll():
    # Dice 1-3: every position where rolling may pay, on and off the sheet; the table's
    # quarter points round each stored value by at most 1/8.
    checked = 0
    for ones in (300, 1000):
        for num in (0, 1, 2, 5, 6):
            for tab in _tables(ones, num):
                tab.ones = ones
                for n in (1, 2, 3):
                    rolls = _ordered_rolls(n)
                    for u in ((0, 1) if num else (0,)):
                        for t in (0, 1, 3, 4, 6, 8, 12, 20, 30, 40):
                            want = _brute_value(tab, num, n, u, t, rolls)
                            got = tab.value(C._row(n, u), t)
                            assert abs(got - want) < 0.3, (ones, num, n, u, t, got, want)
                            checked += 1
    assert checked > 500


def test_table_five_dice_at_the_start():
    # The round's start: 5 dice, a fresh set (7776 rolls), for two numbers.
    rolls = _ordered_rolls(5)
    for num in (0, 4):
        tab = C._Table(T, 300, num, 0)
        tab.ones = 300
        want = _brute_value(tab, num, 5, 1 if num else 0, 0, rolls)
        assert abs(tab.value(C._row(5, num), 0) - want) < 0.3, (num, want)


def test_one_die_by_hand():
    # One die left and the Common Die used (or 2X): a 1 (100) or a 5 (50) fills the
    # riser and five dice come again with the number counting again, else a Farkle:
    # V(1, T) = max(T, (V(5, T + 100) + V(5, T + 50)) / 6).
    for num in (0, 1, 5, 3):
        tab = C._Table(T, 300, num, 0)
        five = C._row(5, num)
        for t in range(0, 200):
            roll = (tab.value(five, t + 2) + tab.value(five, t + 1)) / 6
            want = max(t * 50.0, roll)
            assert abs(tab.value(C._row(1, 0), t) - want) < 0.3, (num, t)
    # Far beyond any total worth a roll everything banks: V = T.
    tab = C._Table(T, 300, 6, 0)
    for r in range(10):
        if r != 8:
            assert tab.value(r, 1000) == 50000
    # At 300 with one die it banks (1/6 * ~850 + 1/6 * ~800 is far below 300 * 1)
    # only if the table says so: rolling one die from 300 loses two thirds of the time.
    assert C._Table(T, 300, 0, 0).value(C._row(1, 0), 6) == 300


def _hard_from(values, take, face, ones, rounds, seed):
    """HARD's mean round score from the position after the first roll `values` and the
    take `take` (then ROLL), over seeded rounds; the position's V in the table."""
    dice = Dice(Seeded(seed))
    tot = tot2 = 0
    for _ in range(rounds):
        g = F.Game(1, F.RELAY, ones, dice)
        g.totals[0] = 50  # on the sheet: every bank counts
        g.apply(F.COMMON_ROLL, (face,))
        g.apply(F.ROLL, values)
        g.apply(F.TAKE | take)
        g.apply(F.ROLL)
        while g.round == 1 and g.phase != F.PH_OVER:
            g.apply(C.choose(g, C.HARD, None, T))
        x = g.round_raw[0]
        tot += x
        tot2 += x * x
    mean = tot / rounds
    se = ((tot2 / rounds - mean * mean) / rounds) ** 0.5
    return mean, se


def test_monte_carlo_agrees_with_the_table():
    # One die left at 250 (three 2s and a 5, the Common Die 1 still to count), and two
    # dice left at 200 under 2X (raw, doubled after): HARD's mean within 4 standard
    # errors of the table's V for that position.
    for values, take, face, t, n, u in (((2, 2, 2, 5, 3), 0x0F, 1, 5, 1, 1),
                                        ((2, 2, 2, 3, 4), 0x07, TWOX, 4, 2, 0)):
        num = 0 if face == TWOX else face
        want = C._Table(T, 300, num, 0).value(C._row(n, u), t)
        mean, se = _hard_from(values, take, face, 300, 3000, 17 + t)
        dbl = 2 if face == TWOX else 1
        assert abs(mean - dbl * want) < 4 * dbl * se + 1, (values, mean, dbl * want, se)


# ---- HARD's rules ---------------------------------------------------------------------

def test_hard_never_banks_below_the_entry_off_the_sheet():
    seen = [0]

    def check(g, d):
        if g.phase == F.PH_DECIDE and d == F.STOP and C.choose(g, C.HARD, None, T) == F.STOP:
            if g.totals[g.player] == 0:
                dbl = 2 if g.common == TWOX else 1
                assert g.running(g.player) * dbl >= F.ENTRY, (g.running(g.player), dbl)
                seen[0] += 1

    for sched in BOTH:
        dice = Dice(Seeded(3 + sched))
        for i in range(60):
            players = 1 + i % 4
            g = F.Game(players, sched, 300, dice)
            _play(g, [C.HARD] * players, [None] * players, check)
    assert seen[0] > 50  # it did bank off the sheet, always at 400 or more


def _at_decide(totals, face, values, take):
    """A 2-player Lockstep game at seat 0's first DECIDE of a round (sheet: totals)."""
    g = F.Game(2, F.LOCKSTEP, 300, None)
    g.apply(F.COMMON_ROLL, (face,))
    g.totals[0], g.totals[1] = totals
    g.apply(F.ROLL, values)
    g.apply(F.TAKE | take)
    assert g.phase == F.PH_DECIDE and g.player == 0
    return g


def test_hard_plays_to_win_at_the_end():
    # 600 in hand with 1 die to roll: for points it banks...
    pts = _at_decide((5000, 5000), 1, (5, 5, 5, 1, 3), 0x0F)
    assert pts.running(0) == 600 and C.choose(pts, C.HARD, None, T) == F.STOP  # 600, 1 die
    # ...but when the other player is at 9,500 and 10,000 is 1,400 away, it rolls on.
    g = _at_decide((8600, 9500), 1, (5, 5, 5, 1, 3), 0x0F)
    assert C.choose(g, C.HARD, None, T) == F.ROLL
    # A bank that reaches 10,000 ahead of everybody is taken, even with 5 dice to roll.
    g = _at_decide((9500, 4000), 1, (5, 5, 5, 1, 1), 0x1F)
    assert g.to_roll() == 5 and g.running(0) == 700
    tab = C._Table(T, 300, 1, 0)
    assert tab.value(C._row(5, 1), 14) > 700  # for points it would roll
    assert C.choose(g, C.HARD, None, T) == F.STOP


def test_hard_declares_wild_for_the_best_round():
    # 3 3 4 4 6: WILD as 6 makes three pairs (1500) with all five dice.
    for values, want in (((3, 3, 4, 4, 6), 6), ((2, 2, 3, 4, 6), 2)):
        g = F.Game(1, F.RELAY, 300, None)
        g.apply(F.COMMON_ROLL, (WILD,))
        g.apply(F.ROLL, values)
        assert g.phase == F.PH_WILD
        assert C.choose(g, C.HARD, None, T) == F.DECLARE | want, values


def _after_a_fill(sched):
    # Step 1: seat 0 fills the riser (1 1 1 5 5) and goes on (Lockstep) or banks
    # (Relay); seat 1, on the sheet, rolls 1 5 2 3 6 with the Common Die's 1 to count.
    g = F.Game(2, sched, 300, None)
    g.apply(F.COMMON_ROLL, (1,))
    g.totals[1] = 1000
    g.apply(F.ROLL, (1, 1, 1, 5, 5))
    g.apply(F.TAKE | 0x1F)
    g.apply(F.ROLL if sched == F.LOCKSTEP else F.STOP)
    g.apply(F.ROLL, (1, 5, 2, 3, 6))
    assert g.player == 1 and g.phase == F.PH_TAKE
    return g


def test_hard_banks_the_most_when_someone_else_filled_in_lockstep():
    # Lockstep: seat 1 saw the fill; no take fills, and any take stops it at once, so
    # HARD takes the most points (1, 5 and the Common Die: 250).
    g = _after_a_fill(F.LOCKSTEP)
    assert C.choose(g, C.HARD, None, T) == F.TAKE | 0x23
    # Relay: nothing of seat 0's round is known; HARD keeps the 1 for a long round,
    # as in a round where nobody filled.
    r = _after_a_fill(F.RELAY)
    assert C.choose(r, C.HARD, None, T) == F.TAKE | 0x01


def test_relay_decisions_ignore_the_earlier_players_round():
    # Seat 1's rolls come from its own stream in both games; seat 0 plays HARD in one
    # and EASY in the other. Until a fill of seat 0 stops seat 1, seat 1's decisions are
    # the same: it sees nothing of seat 0's round.
    for seed in range(1, 40):
        seqs = []
        for first in (C.HARD, C.EASY):
            own = Dice(Seeded(seed))
            mine = Dice(Seeded(seed + 500))
            g = F.Game(2, F.RELAY, 300, None)
            g.apply(F.COMMON_ROLL, (1 + seed % 2 * 4,))
            out = []
            while g.round == 1 and g.phase != F.PH_OVER:
                s = g.player
                d = C.choose(g, first if s == 0 else C.HARD, Seeded(seed), T)
                if g.phase == F.PH_ROLL:
                    src = own if s == 0 else mine
                    g.apply(d, [src.d6() for _ in range(g.to_roll())])
                else:
                    g.apply(d)
                if s == 1:
                    out.append(d)
                if any(n[0] == "stopped_by" and n[1] == 1 for n in g.notes):
                    out.append("stopped")
                    break
            seqs.append(out)
        a, b = seqs
        k = min(len(a), len(b))
        if "stopped" in a or "stopped" in b:
            k -= 1
        assert a[:k] == b[:k], (seed, a, b)


class _SeatView:
    """The game as the seat to move sees it: reading another seat's round (Relay) or
    anything of the dice to come (both schedules) fails the test."""

    def __init__(self, g):
        self._g = g  # (__getattr__ only sees the names the view does not have)

    def __getattr__(self, name):
        g = self._g
        hidden = ("_dice", "_recs", "_st", "_by")
        if g.schedule == F.RELAY:
            hidden += ("_end", "round_raw")
        if name in hidden:
            raise AssertionError("a CPU read game.%s" % name)
        return getattr(g, name)

    def _own(self, seat):
        g = self._g
        if g.schedule == F.RELAY and seat != g.player:
            raise AssertionError("a CPU read seat %d's round in Relay" % seat)

    def running(self, seat):
        self._own(seat)
        return self._g.running(seat)

    def status(self, seat):
        self._own(seat)
        return self._g.status(seat)

    def riser(self, seat):
        self._own(seat)
        return self._g.riser(seat)


def test_cpus_read_only_what_their_seat_sees():
    # Every decision of every skill, through a view of the game that refuses what the
    # seat cannot see, in seeded games of 2-4 players in both schedules.
    seen = 0
    for sched in BOTH:
        dice = Dice(Seeded(60 + sched))
        for i in range(24):
            players = 2 + i % 3
            g = F.Game(players, sched, 300 if i % 2 else 1000, dice)
            rngs = [Seeded(i * 10 + k) for k in range(players)]
            while g.phase != F.PH_OVER:
                s = g.player
                skill = (i + s) % 3
                d = C.choose(_SeatView(g), skill, rngs[s], T)
                assert d in g.legal()
                g.apply(d)
                seen += 1
    assert seen > 3000


def test_relay_decisions_ignore_hidden_state():
    # Relay, a later seat to move: the earlier seats' running totals this round and
    # the dice to come are changed in a copy of the game; no skill decides otherwise.
    checked = 0
    dice = Dice(Seeded(91))
    for i in range(30):
        players = 2 + i % 3
        g = F.Game(players, F.RELAY, 300, dice)
        while g.phase != F.PH_OVER:
            me = g.player
            if me != g.roller and g.phase in (F.PH_TAKE, F.PH_DECIDE):
                twin = F.Game.from_bytes(g.to_bytes(), Dice(Seeded(1000 + i)))
                for s in range(players):
                    r = twin._recs[s]
                    if s != me and len(r) >= 4:
                        for j in range(0, len(r), 4):  # running totals: 0, or 9,950
                            r[j + 1] = 0
                            r[j + 2] = 0
                            r[j + 3] = 0 if (i + j) % 8 else 199
                for skill in (C.EASY, C.NORMAL, C.HARD):
                    a = C.choose(g, skill, Seeded(i + skill), T)
                    b = C.choose(twin, skill, Seeded(i + skill), T)
                    assert a == b, (i, skill, a, b)
                checked += 1
            g.apply(C.choose(g, C.HARD if me % 2 else C.NORMAL, Seeded(me), T))
    assert checked > 300


def _fresh_take(values, face):
    g = F.Game(2, F.RELAY, 300, None)
    g.apply(F.COMMON_ROLL, (face,))
    g.apply(F.ROLL, values)
    return g


def test_normal_and_easy_rules():
    # NORMAL never banks off the sheet below 400; EASY keeps every scoring die.
    g = _fresh_take((1, 5, 2, 3, 4), 1)
    assert C.choose(g, C.EASY) == F.TAKE | 0x23  # 1, 5 and the Common Die's 1
    pts = _at_decide((0, 0), 1, (1, 2, 3, 4, 6), 0x01)
    for b in range(3):
        assert C.choose(pts, C.NORMAL, lambda n, b=b: bytes((b,) * n)) == F.ROLL


def test_selfplay_takes_cpu_policies_per_seat():
    from selfplay_frenzy import run
    out = run({"policies": "cpu:hard,greedy:300,cpu:easy", "games": 4, "seed": 3,
               "schedule": "lockstep"})
    assert out["players"] == 3 and sum(out["wins"]) == 4
    assert out["policy"] == "cpu:hard,greedy:300,cpu:easy"
    solo = run({"policy": "cpu:hard", "solo_rounds": 30, "seed": 2})
    assert solo["rounds"] == 30 and solo["players"] == 1
    for bad in ({"policies": "cpu:hard", "players": 2}, {"policy": "cpu:expert"}):
        try:
            run(bad)
        except ValueError:
            pass
        else:
            raise AssertionError("accepted %r" % (bad,))


def test_the_table_is_current():
    # The generator is host-only (itertools): under the unix port this is a no-op.
    try:
        from itertools import combinations_with_replacement  # noqa: F401
    except ImportError:
        return
    import gen_frenzy_policy as G
    with open(G.OUT, "rb") as f:
        assert f.read() == G.table_bytes(), "run tools/gen/gen_frenzy_policy.py"
