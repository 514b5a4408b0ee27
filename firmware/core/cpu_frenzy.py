"""Farkle Frenzy CPU players: `choose(game, skill, rng=None, table=None)` returns one
decision of game.legal() for game.player; `think` (same arguments) makes it in
bounded steps for an interface that spreads the work over frames. skill 0 EASY,
1 NORMAL, 2 HARD. Pure: the caller injects what it needs.
- `rng(n) -> bytes` (e.g. core.seeded.Seeded): EASY's and NORMAL's variety; without
  it they play the same way every time. HARD never uses it.
- `table`: HARD's table, data/frenzy_round.bin (written by tools/gen/gen_frenzy_policy.py),
  a binary file opened by the caller (open_table()) or any object with seek() and
  read(); HARD needs it. It stays in flash: each value is one seek and a 2-byte read.

Fair play: a CPU reads only what a human in its seat sees: its own roll and round,
the Common Die, the score sheet and who plays this round; in Lockstep also the
others' progress in this round (the device passes from player to player every
roll). In Relay nothing of the others' current round. It never looks at dice to come.

HARD maximises the expected round score exactly. tools/gen/gen_frenzy_policy.py solves,
on the host, V(n, u, T): the expected round score from deciding with n dice to roll
next, the Common Die's number still counting in this set (u) and the running total T,
over every roll and every take (fills and five dice again, the 2X and WILD faces
included); once for players on the sheet and once for those off it (a bank below the
400 entry is worth 0). The table holds the gains V - T per 50 points of T: a take is
the selection with the largest V of the position it leads to, and it rolls on while
V > the bank. As the roller facing WILD it declares the value whose best take of the
first roll has the largest V.
- Lockstep, someone else filled the riser in this step: a take that does not fill
  stops the player at once ("A stop nobody can avoid" in core.frenzy), so it is
  valued as that bank.
- The end (plays to win rather than for points), where "known" is the sheet plus,
  in Lockstep, the banks of the others who have stopped this round:
  * a bank that reaches 10,000 and beats every other known total is taken (STOP);
  * when another player can end the game this round (known total within _REACH of
    10,000), and the CPU can get past them in one round (needs at most _CHASE), it
    never banks short of that; a take that gets there takes the most points;
  * in a tie round, in Lockstep once every other tied player is done, it plays for
    exactly what beats them.
  Otherwise it plays for points.

The table file: a header of 14 x 10 rows (three-1s option 300 then 1000; Common Die
number 0 = 2X, 1-6; row (n - 1) * 2 + u) of 4 bytes: the byte offset of the row's
entries (uint16 little-endian), how many gains, how many off-sheet values; then the
entries, uint16 little-endian in quarter points: the gains for T = 0, 50, ... (past
them rolling no longer pays: V = T), then V itself below the entry, off the sheet;
at the end the trailer core.data_check checks before HARD is offered or used. A read
past the file's end or a value past _MAXQ is refused (ValueError).

NORMAL takes the selection with the most points plus a fixed worth per die left to
roll, and banks at a threshold per dice left (higher with the Common Die still to
count, never below 400 off the sheet), nudged by rng. EASY keeps every scoring die
(the selection with the most points, then the most dice) and banks at a threshold
drawn from rng at each decision, often too early (300, also off the sheet) or late
(1000 with one die).
"""

from micropython import const

from core.dice import TWOX, WILD
from core.frenzy import COMMON_ROLL, DECLARE, ENTRY, GOAL, LOCKSTEP, OUT, PH_COMMON, \
    PH_DECIDE, PH_ROLL, PH_TAKE, PH_WILD, ROLL, ROLLING, STOP, STOPPED, TAKE
from core.frenzy_score import COMMON_BIT, score_key

EASY = 0
NORMAL = 1
HARD = 2

_REACH = const(1000)  # another player this close to 10,000 may end the game this round
_CHASE = const(3000)  # what the CPU still tries to make in one round to get past them

# NORMAL: worth of the dice left to roll after a take (index: dice left; 0 = filled,
# five dice again), and the bank thresholds per dice to roll next (index 1-5), in
# units of 50 points.
_N_LEFT = b"\x06\x00\x01\x02\x04"  # 300, 0, 50, 100, 200
_N_STOP = b"\x00\x06\x06\x08\x14\x3c"  # 300, 300, 400, 1000, 3000
_N_STOP_C = b"\x00\x07\x08\x0c\x1e\x3c"  # the Common Die still counts: 350 ... 3000
# EASY: bank thresholds, one drawn per decision (300, 300, 350, 500, 700, 1000).
_E_STOP = b"\x06\x06\x07\x0a\x0e\x14"

_POP = bytes(bin(m).count("1") for m in range(32))
_HEAD = const(40)  # header bytes per (three-1s option, number): 10 rows of 4
_MAXQ = const(16000)  # no gain or value in the table is near 4000 points (quarter points)
# Work per think() step (each well under 10 ms on an ESP32 at 160 MHz; see tools/cpu/cpu_report.py):
_BATCH = const(4)  # selections HARD values per step (EASY and NORMAL: 4 times as many)
_MASKS = const(8)  # masks of the rolled dice scored per step (a take's, a WILD's)


def open_table():
    """HARD's table, data/frenzy_round.bin, opened for reading in place (the caller
    passes it as table= and closes it), or None when the file is missing: then
    offer HARD as NORMAL and say so (choose() refuses HARD without the table)."""
    from core.data import hard_table
    from core.games import FRENZY
    return hard_table(FRENZY)


def choose(game, skill, rng=None, table=None):
    """One decision of game.legal() for game.player (see the module doc)."""
    for d in think(game, skill, rng, table):
        if d is not None:
            return d


def think(game, skill, rng=None, table=None):
    """choose() in bounded steps, for an interface that thinks between frames: a
    generator that yields None after each step (the WILD's scoring pass in parts and
    each value tried; a take's selections and each batch of them valued), then the
    decision; every step well under 10 ms on an ESP32 at 160 MHz (tools/cpu/cpu_report.py).
    Drive it with a time budget per frame: next() until the decision comes or the
    frame's share for thinking is used. Nothing is read from the game until the
    first next()."""
    if skill not in (EASY, NORMAL, HARD):
        raise ValueError("skill must be 0 (EASY), 1 (NORMAL) or 2 (HARD), got %r" % (skill,))
    if skill == HARD and table is None:
        raise ValueError("HARD needs the table (data/frenzy_round.bin, open_table())")
    ph = game.phase
    if ph == PH_COMMON:
        yield COMMON_ROLL
    elif ph == PH_ROLL:
        yield ROLL
    elif ph == PH_WILD:
        yield from _declare(game, skill, table)
    elif ph == PH_TAKE:
        yield from _take(game, skill, table)
    elif ph == PH_DECIDE:
        yield STOP if _stop(game, skill, rng, table) else ROLL
    else:
        raise ValueError("the game is over: no decision to make")


def _byte(rng):
    return rng(1)[0] if rng is not None else 0


def _number(game):
    """The round's Common Die number (the declared one for WILD), 0 for 2X."""
    c = game.common
    if c == WILD:
        return game.wild
    return 0 if c == TWOX else c


# ---- the table (HARD) -----------------------------------------------------------

def _row(n, u):
    return (n - 1) * 2 + (1 if u else 0)


class _Table:
    """V for one round from the table file: three-1s option, Common Die number, on
    the sheet or off it (entry: the raw bank that enters; 0 when on the sheet)."""

    def __init__(self, f, ones, num, entry):
        f.seek(((0 if ones == 300 else 7) + num) * _HEAD)
        self.head = f.read(_HEAD)  # this number's 10 rows of the header
        if len(self.head) != _HEAD:
            raise ValueError("HARD table: short read")
        self.f = f
        self.entry = entry

    def value(self, r, t):
        """V(row r, total t in units of 50), in points: one seek, one 2-byte read."""
        h = self.head
        i = r * 4
        o = h[i] | h[i + 1] << 8
        ng = h[i + 2]
        off = self.entry and t * 50 < self.entry
        if off:
            o += (ng + t) * 2
        elif t >= ng:
            return t * 50.0
        else:
            o += t * 2
        f = self.f
        f.seek(o)
        d = f.read(2)
        if len(d) != 2:  # past the file's end: a damaged table (the CPU's turn catches it)
            raise ValueError("HARD table: short read")
        x = d[0] | d[1] << 8
        if x > _MAXQ:  # no play gives it: a damaged table
            raise ValueError("HARD table: value out of range")
        x /= 4
        return x if off else t * 50 + x

    def bank(self, t):
        return 0.0 if self.entry and t * 50 < self.entry else t * 50.0


def _table(game, num, f):
    dbl = 2 if game.common == TWOX else 1
    entry = 0 if game.totals[game.player] else ENTRY // dbl
    return _Table(f, game.ones, num, entry)


def _after(tab, num, n, u, mask, p, t, forced):
    """V after taking `mask` (p points) of n rolled dice at total t (units of 50)."""
    left = n - _POP[mask & 0x1F]
    t += p // 50
    if left == 0:
        return tab.value(_row(5, num), t)
    if forced:
        return tab.bank(t)  # someone else filled this step: this take banks
    return tab.value(_row(left, u and not mask & COMMON_BIT), t)


def _filled_by_other(game):
    """Lockstep: did another player fill the riser in this step? (Relay: never known.)"""
    if game.schedule != LOCKSTEP:
        return False
    me = game.player
    end = game._end  # steps of each seat that count (the engine's step records)
    for s in range(game.players):
        if s != me and end[s] == game.step and game.riser(s) == 5 \
                and game.status(s) != OUT:
            return True
    return False


# ---- the end of the game ------------------------------------------------------------

def _known(game, s, dbl):
    """Seat s's total as the current player can know it: the sheet, and in Lockstep
    the bank of a seat that has stopped this round (a running total still at stake
    counts nothing: chasing it, or banking on beating it, lost games in self-play)."""
    tot = game.totals[s]
    if game.schedule == LOCKSTEP and game.status(s) == STOPPED:
        raw = game.running(s) * dbl
        if tot or raw >= ENTRY:
            tot += raw
    return tot


def _target(game):
    """(the raw round total that wins, whether to bank as soon as it is reached) or
    None: play for points."""
    me = game.player
    dbl = 2 if game.common == TWOX else 1
    mine = game.totals[me]
    rin = game.in_round
    best = 0
    threat = False
    done = True  # every other seat in the round has finished (known in Lockstep only)
    for s in range(game.players):
        if s == me or not rin >> s & 1:
            continue
        k = _known(game, s, dbl)
        if k > best:
            best = k
        if k >= GOAL - _REACH:
            threat = True
        if game.schedule != LOCKSTEP or game.status(s) == ROLLING:
            done = False
    tie = rin != (1 << game.players) - 1
    need = max(GOAL, best + 50) - mine
    if tie and not done:
        return None
    if mine == 0 and need < ENTRY:
        need = ENTRY
    raw = (need + dbl - 1) // dbl
    raw = (raw + 49) // 50 * 50
    if tie or need <= 0:
        return (max(raw, 50), True)
    if threat and need <= _CHASE:
        return (raw, True)
    return (raw, False)  # only: bank once it is reached


def _stop(game, skill, rng, f):
    t = game.running(game.player)
    n = game.to_roll()
    num = _number(game)
    u = game.usable() is not None
    if skill == HARD:
        tg = _target(game)
        if tg is not None:
            if t >= tg[0]:
                return True
            if tg[1]:
                return False
        tab = _table(game, num, f)
        return tab.value(_row(n, u), t // 50) <= tab.bank(t // 50)
    mine = game.totals[game.player]
    raw = t * (2 if game.common == TWOX else 1)
    if skill == NORMAL:
        lim = ((_N_STOP_C if u else _N_STOP)[n] + _byte(rng) % 3) * 50
        if mine + raw >= GOAL:
            return True  # it wins (unless someone else makes more this round)
        return (mine or raw >= ENTRY) and t >= lim
    return t >= _E_STOP[_byte(rng) % len(_E_STOP)] * 50


def _selections(rolled, n, common, t):
    # core.frenzy_score.selections_of in steps, the same list in the same order:
    # yields None every _MASKS masks scored, returns [(mask, points)].
    keys = [0] * (1 << n)
    out = []
    full = 1 << n
    for m in range(1, full):
        low = m & -m
        i = 0
        while not low >> i & 1:
            i += 1
        keys[m] = keys[m ^ low] + (1 << 3 * (rolled[i] - 1))
        p = score_key(keys[m], _POP[m], t)
        if p:
            out.append((m, p))
        if m % _MASKS == 0:
            yield None
    yield None
    if common is not None:
        w = 1 << 3 * (common - 1)
        for m in range(1, full):
            p = score_key(keys[m] + w, _POP[m] + 1, t)
            if p:
                out.append((m | COMMON_BIT, p))
            if m % _MASKS == 0:
                yield None
        yield None
    return out


def _take(game, skill, f):
    # Yields None while it finds the selections and after each _BATCH of them
    # valued, then TAKE | the chosen selection.
    rolled = game.rolled
    n = game.nrolled
    cn = game.usable()
    sels = yield from _selections(rolled, n, cn, game._t)
    best = -1.0
    bm = 0
    if skill == HARD:
        t = game.running(game.player) // 50
        num = _number(game)
        tab = _table(game, num, f)
        forced = _filled_by_other(game)
        tg = _target(game)
        yield None
        k = 0
        for m, p in sels:
            v = _after(tab, num, n, cn is not None, m, p, t, forced)
            if tg is not None and t * 50 + p >= tg[0]:
                v = 1e9 + p  # it wins (or beats the others): the most points
            if v > best:
                best = v
                bm = m
            k += 1
            if k % _BATCH == 0:
                yield None
        yield TAKE | bm
        return
    j = 0
    for m, p in sels:
        k = _POP[m & 0x1F]
        if skill == NORMAL:
            v = p + _N_LEFT[n - k] * 50
        else:
            v = p * 8 + k * 2 + (1 if m & COMMON_BIT else 0)  # every scoring die
        if v > best:
            best = v
            bm = m
        j += 1
        if j % (4 * _BATCH) == 0:
            yield None
    yield TAKE | bm


def _declare(game, skill, f):
    """DECLARE | the WILD's value: the one whose best take of this first roll is
    worth most (HARD: V of the position it leads to). The rolled dice's part of each
    selection is scored once; only the best points per (dice used, Common Die used)
    matter. Yields None every _MASKS masks of the scoring pass, and per value tried
    every _MASKS masks scored and after valuing it."""
    rolled = game.rolled
    n = game.nrolled
    t = game._t
    full = 1 << n
    keys = [0] * full  # the set of each mask's rolled dice (once a round)
    plain = [0] * 6  # the best points without the Common Die, per dice used
    for m in range(1, full):
        key = 0
        for i in range(n):
            if m >> i & 1:
                key += 1 << 3 * (rolled[i] - 1)
        keys[m] = key
        k = _POP[m]
        p = score_key(key, k, t)
        if p > plain[k]:
            plain[k] = p
        if m % _MASKS == 0:
            yield None
    yield None
    best = -1.0
    bv = 1
    withc = [0] * 6
    for v in range(1, 7):
        w = 1 << 3 * (v - 1)
        for k in range(6):
            withc[k] = 0
        for m in range(1, full):
            k = _POP[m]
            p = score_key(keys[m] + w, k + 1, t)
            if p > withc[k]:
                withc[k] = p
            if m % _MASKS == 0:
                yield None
        yield None
        tab = _table(game, v, f) if skill == HARD else None
        x = 0.0
        for k in range(1, n + 1):
            for used in (0, 1):
                p = withc[k] if used else plain[k]
                if not p:
                    continue
                if tab is None:
                    y = p + (_N_LEFT[n - k] * 50 if skill == NORMAL else 0)
                elif k == n:
                    y = tab.value(_row(5, 1), p // 50)
                else:
                    y = tab.value(_row(n - k, not used), p // 50)
                if y > x:
                    x = y
        if x > best:
            best = x
            bv = v
        yield None
    yield DECLARE | bv
