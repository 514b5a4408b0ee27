"""CPU players for Shake Up: choose(game, skill, rng=None, table=None, memo=None).

`choose` returns one decision of `game.legal()` for `game.player`; skill 0 EASY,
1 NORMAL, 2 HARD; `think` (same arguments) makes it in bounded steps, for an
interface that spreads the work over frames. Pure: the caller injects what it needs.
- `rng(n) -> bytes` (e.g. core.seeded.Seeded, os.urandom): the only source of
  variety (EASY's slips); never the game's dice. None: no variety.
- `table`: the solved 2-player table, a binary file opened by the caller (data/
  shakeup2.bin, written by tools/gen/gen_shakeup_policy.py; open_table()) or any object
  with seek() and read(); HARD needs it. The table stays in flash: each lookup is one seek and
  a 2-byte read.
- `memo`: None on the device; self-play passes a dict (see think()).

The table: V(mover, opponent), the chance that the player about to start a turn
wins a 2-player game under optimal play by both, as uint16 little-endian (65535 =
1), at index ((spots * 56 + rank(mover)) * 56 + rank(opponent)); rank() numbers
the 56 ways to put 5 pawns on levels 1-3 and SAFE. Entries where a player has 5
SAFE pawns are conventions (opponent all SAFE: 0, else mover all SAFE: 65535).
The file ends with the trailer core.data_check checks before HARD is offered or used;
a read past the file's end is refused (ValueError).

HARD and NORMAL play a turn's holds with the same turn DP: given what each end of
the turn is worth (BIG on shake 1, BIG on shake 2/3, MOVE, PAIR, NONE), it finds
the holds that maximise the expected worth, exactly, over dice multisets.
- HARD takes the worths from the table, and its moves and penalties too: with 2
  players that is optimal play; with 3-4, each position is worth the weakest of
  its 2-player chances against each opponent (the race against the most dangerous
  one), so it also knocks that opponent down.
- NORMAL has a fixed sense of risk (_NORMAL_W: what each end is worth whatever the
  position; a NONE costs more with a pawn on level 2 or 3), moves its highest pawn
  that may move, knocks down the highest pawn of the opponent nearest to winning
  (most pawns SAFE, then most levels climbed) after a Special Advantage, and after a
  BIG on shake 2/3 only a pawn on level 3 (else another turn). Opponents as near
  are told apart by a byte of `rng`, so no seat is its favourite target.
- EASY sets aside every die that matches another (never thinks of runs), stops on
  any move, moves from a level picked with a byte of `rng` (the lowest without),
  and never penalizes.
"""

from micropython import const

from core.shakeup import CHOOSE, MOVING, PEN, ROLL, STOP, UP, \
    classify, movable

_EASY = const(0)
_NORMAL = const(1)
_HARD = const(2)
_ONE = const(65535)  # the table's 1.0
_NPOS = const(56)    # pawn placements of one player
# C(n, k) for n 0-9, k 1-5 at n * 5 + k - 1: ranks multisets (combinatorial number system).
_BIN = (b"\x00\x00\x00\x00\x00\x01\x00\x00\x00\x00\x02\x01\x00\x00\x00\x03\x03\x01\x00"
        b"\x00\x04\x06\x04\x01\x00\x05\n\n\x05\x01\x06\x0f\x14\x0f\x06\x07\x15##\x15"
        b"\x08\x1c8F8\t$T~~")


def open_table():
    """HARD's table, data/shakeup2.bin, opened for reading in place (the caller
    passes it as table= and closes it), or None when the file is missing: then
    offer HARD as NORMAL and say so (choose() refuses HARD without the table)."""
    from core.data import hard_table
    from core.games import SHAKEUP
    return hard_table(SHAKEUP)


def pawn_rank(c, i=0):
    """0-55: the rank of one player's pawns, counts per level 1-4 at c[i:i + 4]."""
    r = 0
    j = 0
    for lv in range(4):
        for _ in range(c[i + lv]):
            r += _BIN[(lv + j) * 5 + j]
            j += 1
    return r


def dice_rank(vals, n):
    """0-209: the rank of the multiset of the n (0-4) dice values 1-6 in vals[:n],
    sorted ascending (padded to 4 with zeros in front)."""
    r = 0
    j = 4 - n
    for k in range(n):
        r += _BIN[(vals[k] + j) * 5 + j]
        j += 1
    return r


def index(spots, mover, opponent):
    """The table's entry (not byte offset) for two pawn ranks."""
    return (spots * _NPOS + mover) * _NPOS + opponent


def lookup(table, spots, mover, opponent):
    """V(mover, opponent) from the table, 0-65535: one seek, one 2-byte read."""
    table.seek(index(spots, mover, opponent) * 2)
    d = table.read(2)
    if len(d) != 2:  # past the file's end: a damaged table (the CPU's turn catches it)
        raise ValueError("HARD table: short read")
    return d[0] | d[1] << 8


# ---- the turn DP ----
# Dice multisets (size 0-4) are numbered by dice_rank (0-209). Structure tables,
# made on first use and kept while this module is loaded (about 2.7 KB):
#   _T[0] child: rank of M + v at M * 6 + v - 1 (255 when M has 4 dice)
#   _T[1] parent: the ranks of M - v, v each distinct value of M, at M * 4 + j (255: none)
#   _T[2] mult: orderings of M among 6 ** len(M) rolls
#   _T[3] cls: the class of M when it has 4 dice
#   _T[4] by size: the 210 ranks, sizes 0, 1, 2, 3, 4 in turn (from _START)
#   _T[5] pawn_rank of the counts (c1, c2, c3, 5 - c1 - c2 - c3) at c1 * 36 + c2 * 6 + c3
_T = None
_START = b"\x00\x01\x07\x1c\x54\xd2"  # where each size begins in _T[4]; 210 at the end
_POW6 = (1, 6, 36, 216, 1296)
# Work per think() step (each well under 10 ms on an ESP32 at 160 MHz; see tools/cpu/cpu_report.py):
_PER_BUILD = const(2)   # multisets (or pawn placements) a build step makes
_PER_SUM = const(40)    # entries a step of the last shake's DP sums
_PER_HOLD = const(48)   # multisets a step of a hold's DP visits


def prepare():
    """The turn DP's tables (NORMAL and HARD need them), made ahead of the first
    decision that would: a generator that yields None after each step (think()'s
    size), nothing once they are made (they stay while this module is loaded)."""
    if _T is None:
        yield from _build()


def _tables():
    t = _T
    if t is None:
        t = _drain(_build())
    return t


def _build():
    # Makes _T in steps: yields None every _PER_BUILD multisets or placements.
    global _T
    child = bytearray(b"\xff" * 1260)
    parent = bytearray(b"\xff" * 840)
    mult = bytearray(210)
    cls = bytearray(210)
    by = bytearray(210)
    ranks = bytearray(b"\xff" * 216)
    buf = bytearray(5)  # a multiset being made (scratch: no garbage per entry)
    # Each size's multisets in turn, in ascending order, visited in place in t (n
    # values, non-decreasing): no list of them is kept (those lists and the tables'
    # copies were most of what a build allocated, at a CPU game's fullest heap).
    t = bytearray(4)
    k = 0
    fact = (1, 1, 2, 6, 24)
    for n in range(5):
        for i in range(n):
            t[i] = 1
        while True:
            r = dice_rank(t, n)
            by[k] = r
            k += 1
            m = fact[n]
            j = 0
            i = 0
            while i < n:
                e = i
                while e < n and t[e] == t[i]:
                    e += 1
                m //= fact[e - i]
                # M - t[i]: drop one copy of this value.
                for x in range(n - 1):
                    buf[x] = t[x if x < i else x + 1]
                parent[r * 4 + j] = dice_rank(buf, n - 1)
                j += 1
                i = e
            mult[r] = m
            if n == 4:
                cls[r] = classify(t)
            else:
                for v in range(1, 7):
                    # t + v, sorted: v goes after the values <= v.
                    i = 0
                    while i < n and t[i] <= v:
                        buf[i] = t[i]
                        i += 1
                    buf[i] = v
                    while i < n:
                        buf[i + 1] = t[i]
                        i += 1
                    child[r * 6 + v - 1] = dice_rank(buf, n + 1)
            if k % _PER_BUILD == 0:
                yield None
            # The next multiset of this size: the last value below 6 goes up by one,
            # and the values after it take its new value.
            i = n - 1
            while i >= 0 and t[i] == 6:
                i -= 1
            if i < 0:
                break
            v = t[i] + 1
            for x in range(i, n):
                t[x] = v
    c = bytearray(4)
    k = 0
    for c[0] in range(6):
        for c[1] in range(6 - c[0]):
            for c[2] in range(6 - c[0] - c[1]):
                c[3] = 5 - c[0] - c[1] - c[2]
                ranks[c[0] * 36 + c[1] * 6 + c[2]] = pawn_rank(c)
                k += 1
                if k % _PER_BUILD == 0:
                    yield None
    if _T is None:  # (another think() may have finished first)
        _T = (child, parent, mult, cls, by, ranks)  # (no copies: read only)
    return _T


def _drain(steps):
    # The return value of a generator of steps, run to its end.
    try:
        while True:
            next(steps)
    except StopIteration as e:
        return e.value


def _last(w):
    """f[M] for every multiset M of held dice before the last shake: the expected
    worth of the turn's end, times 1296 >> 7 (w: the worths of NONE, PAIR, MOVE and
    BIG after shake 2 or 3, 0-65535). In steps: yields None every _PER_SUM entries,
    returns f."""
    child, _, _, cls, by, _ = _tables()
    f = [0] * 210
    for k in range(_START[4], 210):
        r = by[k]
        f[r] = w[cls[r]]
    yield None
    # Sizes 3 down to 0: the sum over the next die (exact; 6 ** (4 - size) times f3).
    for n in (3, 2, 1, 0):
        for k in range(_START[n], _START[n + 1]):
            r = by[k]
            s = 0
            c = r * 6
            for v in range(6):
                s += f[child[c + v]]
            f[r] = s
            if k % _PER_SUM == 0:
                yield None
    # One scale for all sizes: 1296 * f3 >> 7 (at most 663,000: sums of 1296 of them
    # stay small ints on a 32-bit port).
    yield None
    for n in range(5):
        p = _POW6[n]
        for k in range(_START[n], _START[n + 1]):
            r = by[k]
            f[r] = f[r] * p >> 7
    return f


def _second(f, h, nh, best):
    """The expected worth (f's scale) of holding the nh dice values h[:nh] before
    shake 2 and playing shake 2's holds best; best: a scratch list of 210. In steps:
    yields None every _PER_HOLD multisets, returns the worth."""
    child, parent, mult, _, by, _ = _tables()
    r = 4 - nh
    s = 0
    # X: the dice of shake 2 kept before shake 3 (sizes 0 up to r); best[X]: the
    # best of keeping any part of X (f[H + X] or a parent's best).
    top = _START[r]
    for k in range(_START[r + 1]):
        x = by[k]
        m = x
        for i in range(nh):
            m = child[m * 6 + h[i] - 1]
        b = f[m]
        # The parents (at most 4, then 255), unrolled: the hot loop of a decision.
        p = x * 4
        q = parent[p]
        if q != 255:
            if best[q] > b:
                b = best[q]
            q = parent[p + 1]
            if q != 255:
                if best[q] > b:
                    b = best[q]
                q = parent[p + 2]
                if q != 255:
                    if best[q] > b:
                        b = best[q]
                    q = parent[p + 3]
                    if q != 255 and best[q] > b:
                        b = best[q]
        best[x] = b
        if k >= top:
            s += mult[x] * b
        if k % _PER_HOLD == _PER_HOLD - 1:
            yield None
    return s // _POW6[r]


def _mask_rank(dice, mask):
    child = _tables()[0]
    m = 0
    for i in range(4):
        if mask >> i & 1:
            m = child[m * 6 + dice[i] - 1]
    return m


def best_holds(game, w1, w):
    """The CHOOSE decision that maximises the turn's expected worth: w1 is BIG on
    shake 1's worth, w the worths of NONE, PAIR, MOVE, BIG after shake 2/3."""
    for d in _holds(game, [w1, w, None, {}]):
        if d is not None:
            return d


def _holds(game, entry):
    # best_holds in steps: yields None within and after the last shake's DP and
    # each distinct hold's DP, then the decision. entry: [w1, w, the last shake's DP or
    # None, {hold's rank: its DP}], filled in here (kept by a memo, see think()).
    w1 = entry[0]
    w = entry[1]
    f = entry[2]
    if f is None:
        f = yield from _last(w)
        entry[2] = f
        yield None
    dice = game.dice
    cls = _tables()[3]
    held = game.held
    allr = _mask_rank(dice, 15)
    if game.shakes == 1:
        c = cls[allr]
        best = (w1 if c == 3 else w[c]) * 1296 >> 7
        dec = STOP
        best_list = [0] * 210
        seen = entry[3]
        h = bytearray(4)
        for m in range(15):
            r = _mask_rank(dice, m)
            v = seen.get(r)
            if v is None:
                n = 0
                for i in range(4):
                    if m >> i & 1:
                        h[n] = dice[i]
                        n += 1
                v = yield from _second(f, h, n, best_list)
                seen[r] = v
                yield None
            if v > best:
                best = v
                dec = ROLL | m
        yield dec
        return
    best = f[allr]
    dec = STOP
    for m in range(held, 15):
        if m & held == held:
            v = f[_mask_rank(dice, m)]
            if v > best:
                best = v
                dec = ROLL | m
    yield dec


# ---- what positions are worth ----

def _counts(game):
    """Every seat's pawn counts per level 1-4, at seat * 4 (a copy to try moves on)."""
    n = game.players
    c = bytearray(4 * n)
    for s in range(n):
        for lv in range(4):
            c[s * 4 + lv] = game.count(s, lv + 1)
    return c


class _Eval:
    """HARD's worth of a position for `me` (0-65535): with one opponent the table's
    V; with more, the weakest of the 2-player chances against each opponent. The
    methods but worths() are generators of steps (a step: one _race, at most three
    table lookups) that return their result (x = yield from ...)."""

    def __init__(self, game, table):
        self.t = table
        self.sp = 1 if game.spots else 0
        self.me = game.player
        self.n = game.players
        self.c = _counts(game)
        self.rk = _tables()[5]

    def _rank(self, seat):
        c = self.c
        i = seat * 4
        return self.rk[c[i] * 36 + c[i + 1] * 6 + c[i + 2]]

    def _race(self, first):
        # first: `me` starts a turn next; else an opponent does (each one's chance
        # against `me`, as if next).
        a = self._rank(self.me)
        w = _ONE
        for o in range(self.n):
            if o != self.me:
                b = self._rank(o)
                x = lookup(self.t, self.sp, a, b) if first else _ONE - lookup(self.t, self.sp, b, a)
                if x < w:
                    w = x
        return w

    def _penalized(self, then_again):
        # The best penalty (or none) and its worth: (worth, seat << 2 | level or 0).
        c = self.c
        best = self._race(True) if then_again else -1
        pick = 0
        for o in range(self.n):
            if o == self.me:
                continue
            for lv in (2, 3):
                i = o * 4 + lv - 1
                if c[i]:
                    c[i] -= 1
                    c[o * 4] += 1
                    x = self._race(then_again)
                    c[i] += 1
                    c[o * 4] -= 1
                    if x > best:
                        best = x
                        pick = o << 2 | lv
                    yield None
        return best, pick

    def after_big(self, shake1):
        """The worth after a BIG's move and best follow-up; with the pick:
        shake 1: penalty then another turn (pick 0: decline); else another turn
        (pick 0) or a penalty and pass."""
        if shake1:
            r = yield from self._penalized(True)
            return r
        w, pick = yield from self._penalized(False)
        a = self._race(True)
        if a >= w:
            return a, 0
        return w, pick

    def moved(self, lv, result, shake1):
        """The worth of moving up from lv with this result (then the best follow-up)."""
        c = self.c
        i = self.me * 4 + lv - 1
        c[i] -= 1
        c[i + 1] += 1
        if c[self.me * 4 + 3] == 5:
            w = _ONE
        elif result == 3:
            w = (yield from self.after_big(shake1))[0]
        else:
            w = self._race(False)
        c[i] += 1
        c[i + 1] -= 1
        yield None
        return w

    def best_move(self, result, shake1):
        """(worth, level) of the best move up with this result; level 0: none legal."""
        lvs = movable(self.c, self.sp == 1, self.me * 4)
        best = -1
        pick = 0
        for lv in lvs:
            w = yield from self.moved(lv, result, shake1)
            if w > best:
                best = w
                pick = lv
        if not pick:  # the move is lost (unreachable under the rules)
            best = (yield from self.after_big(shake1))[0] if result == 3 else self._race(False)
        return best, pick

    def steps(self):
        """worths() in steps."""
        w1 = (yield from self.best_move(3, True))[0]
        wb = (yield from self.best_move(3, False))[0]
        wm = (yield from self.best_move(2, False))[0]
        wp = self._race(False)
        c = self.c
        i = self.me * 4
        lv = 3 if c[i + 2] else (2 if c[i + 1] else 0)
        if lv:
            c[i + lv - 1] -= 1
            c[i] += 1
        wn = self._race(False)
        if lv:
            c[i + lv - 1] += 1
            c[i] -= 1
        return w1, (wn, wp, wm, wb)

    def worths(self):
        """(BIG on shake 1, (NONE, PAIR, MOVE, BIG on shake 2/3)): the turn's ends."""
        return _drain(self.steps())


# ---- NORMAL's fixed sense of risk, EASY's habits ----
# NORMAL's worths of the turn's ends: BIG on shake 1, then NONE (with a pawn on
# level 2 or 3 to lose, and without), PAIR, MOVE, BIG on shake 2/3.
_NORMAL_W = (65535, 6000, 22000, 22000, 46000, 56000)


def _normal_worths(game):
    s = game.player
    exposed = game.count(s, 2) or game.count(s, 3)
    w = _NORMAL_W
    return w[0], (w[1] if exposed else w[2], w[3], w[4], w[5])


def _easy_holds(game):
    # Keeps every die whose value shows twice or more (and never thinks of runs);
    # stops on any move.
    dice = game.dice
    if classify(dice) >= 2:
        return STOP
    m = game.held
    for i in range(4):
        for j in range(4):
            if i != j and dice[i] == dice[j]:
                m |= 1 << i
    return STOP if m == 15 else ROLL | m


def _byte(rng):
    return rng(1)[0] if rng is not None else 0


def _near(game, o):
    # How near seat o is to winning: most pawns SAFE, then most levels climbed.
    return game.count(o, 4) * 64 + game.count(o, 3) * 8 + game.count(o, 2)


def _penalty(game, rng, legal):
    # NORMAL's penalty (see the module's docstring): after a Special Advantage the
    # highest pawn of the opponent nearest to winning that has one to knock; after a
    # BIG on shake 2/3 a pawn on level 3 of an opponent as near as any, else legal[-1]
    # (SKIP or AGAIN). Ties (opponents as near, the same level) are broken by a byte
    # of rng: two passes, the best worth and its ties, then the tie the byte picks.
    top = -1
    for o in range(game.players):
        if o != game.player and _near(game, o) > top:
            top = _near(game, o)
    best = -1
    ties = 0
    for k in range(2):
        for d in legal:
            if d & 0xF00 != PEN:
                continue
            lv = d & 3
            near = _near(game, d >> 2 & 3)
            if game.shakes != 1 and (lv != 3 or near != top):
                continue
            x = near * 4 + lv
            if k == 0:
                if x > best:
                    best = x
                    ties = 0
                if x == best:
                    ties += 1
            elif x == best:
                if not ties:
                    return d
                ties -= 1
        if best < 0:
            break
        ties = _byte(rng) % ties if ties > 1 else 0
    return legal[-1]


def choose(game, skill, rng=None, table=None, memo=None):
    """One decision of game.legal() for game.player (see the module's docstring)."""
    for d in think(game, skill, rng, table, memo):
        if d is not None:
            return d


def think(game, skill, rng=None, table=None, memo=None):
    """choose() in bounded steps, for an interface that thinks between frames: a
    generator that yields None after each step (building the turn DP's tables, once
    per import, in parts, unless prepare() made them; HARD's worths, a step per move or penalty tried; the last
    shake's DP and each hold's DP after shake 1, in parts), then the decision; every
    step well under 10 ms on an ESP32 at 160 MHz (tools/cpu/cpu_report.py). Drive it with a
    time budget per frame: next() until the decision comes or the frame's share for
    thinking is used. Nothing is read from the game until the first next().
    memo: None (the device), or a dict that keeps each position's worths and DPs
    for the next decision there (host self-play: the same decisions, faster; the
    caller bounds its size)."""
    if skill not in (_EASY, _NORMAL, _HARD):
        raise ValueError("skill is 0 (EASY), 1 (NORMAL) or 2 (HARD), got %r" % (skill,))
    legal = game.legal()
    if not legal:
        raise ValueError("nothing to decide: the game is over")
    if len(legal) == 1:
        yield legal[0]  # roll-off and shake 1: ROLL; a single level to move from
        return
    ph = game.phase
    if skill == _HARD:
        if table is None:
            raise ValueError("HARD needs the table (data/shakeup2.bin)")
        yield from prepare()
        e = _Eval(game, table)
        yield None
        if ph == CHOOSE:
            entry, key = _entry(memo, skill, e.c, game)
            if entry is None:
                w1, w = yield from e.steps()
                entry = [w1, w, None, {}]
                if key is not None:
                    memo[key] = entry  # pyright: ignore[reportOptionalSubscript] (a key: a memo)
                yield None
            yield from _holds(game, entry)
        elif ph == MOVING:
            yield UP | (yield from e.best_move(game.result, game.shakes == 1))[1]
        else:  # PENALTY: the move is made.
            pick = (yield from e.after_big(game.shakes == 1))[1]
            yield PEN | pick if pick else legal[-1]  # else SKIP or AGAIN
        return
    if ph == CHOOSE:
        if skill == _NORMAL:
            yield from prepare()
            entry, key = _entry(memo, skill, None, game)
            if entry is None:
                w1, w = _normal_worths(game)
                entry = [w1, w, None, {}]
                if key is not None:
                    memo[key] = entry  # pyright: ignore[reportOptionalSubscript] (a key: a memo)
            yield from _holds(game, entry)
        else:
            yield _easy_holds(game)
        return
    yield _decide_simple(game, skill, rng, legal, ph)


def _entry(memo, skill, counts, game):
    # (the memo's entry or None, its key or None). NORMAL's worths depend only on
    # whether a pawn of the player's is on level 2 or 3.
    if memo is None:
        return None, None
    if counts is None:
        s = game.player
        key = (skill, 1 if game.count(s, 2) or game.count(s, 3) else 0)
    else:
        key = (skill, game.spots, game.player, bytes(counts))
    return memo.get(key), key


def _decide_simple(game, skill, rng, legal, ph):
    # EASY's and NORMAL's moves and penalties.
    if ph == MOVING:
        if skill == _EASY:
            # Any level it may (with no byte source: the lowest).
            return legal[_byte(rng) % len(legal)]
        # NORMAL: a pawn to SAFE first, else the highest pawn that may move.
        return legal[-1]
    # PENALTY
    if skill == _EASY:
        return legal[-1]  # never penalizes
    return _penalty(game, rng, legal)
