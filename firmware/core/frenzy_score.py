"""Farkle Frenzy scoring of dice (RULES.md section 2): pure combinatorics.

A set of dice (rolled dice plus the Common Die's number when it is used) scores when
ALL of it splits into combinations; its score is the best such split. Every
combination except the six-dice ones (straight, three pairs, four of a kind plus a
pair, two triplets) uses one value only, so the best split is the sum of the best
split of each value's count, compared with the six-dice combinations when there are
six dice. Sets are handled as a "key": the count of value v in bits 3(v-1)..3(v-1)+2.

For the game (core.frenzy) and players that call them per roll: `points_of`,
`farkle_of`, `selections_of`, `dice_in`, unchecked; they take the first n dice of a
roll and the table offset `t` from `ones_table(ones)`. The same scoring with its
arguments checked, for tests and tools, is host_only.frenzy_checked (host only: not on the
device).

A selection is a mask: bits 0-4 the rolled dice, COMMON_BIT the Common Die.
"""

from micropython import const

COMMON_BIT = const(0x20)  # the Common Die in a selection mask

_B = const(255)  # (in the table) these dice cannot all be used
_POP = const(84)  # offset of the population counts in _PER_VALUE

# Best score of k dice (k = 0..6) all showing value v, in units of 50; _B (\xff)
# when they cannot all be used. Row v-1 of 7 entries; first 42 bytes for three 1s =
# 300, the next 42 for three 1s = 1000. Worked out per count:
#   1s: 1 -> 100, 2 -> 200, 3 -> 300|1000, 4 -> four of a kind 1000 (or with
#       the 1000 table three 1s + a 1 = 1100), 5 -> 2000, 6 -> 3000
#   5s: 50, 100, 500, 1000, 2000, 3000
#   2,3,4,6: only 3+ of them: N x 100, 1000, 2000, 3000
# Then (offset _POP) the population count of 5-bit masks, 32 bytes.
_PER_VALUE = (  # one bytes literal: a tuple of ints would stay in RAM too
    b"\x00\x02\x04\x06\x14\x28\x3c"
    b"\x00\xff\xff\x04\x14\x28\x3c"
    b"\x00\xff\xff\x06\x14\x28\x3c"
    b"\x00\xff\xff\x08\x14\x28\x3c"
    b"\x00\x01\x02\x0a\x14\x28\x3c"
    b"\x00\xff\xff\x0c\x14\x28\x3c"
    b"\x00\x02\x04\x14\x16\x28\x3c"
    b"\x00\xff\xff\x04\x14\x28\x3c"
    b"\x00\xff\xff\x06\x14\x28\x3c"
    b"\x00\xff\xff\x08\x14\x28\x3c"
    b"\x00\x01\x02\x0a\x14\x28\x3c"
    b"\x00\xff\xff\x0c\x14\x28\x3c"
    b"\x00\x01\x01\x02\x01\x02\x02\x03\x01\x02\x02\x03\x02\x03\x03\x04"
    b"\x01\x02\x02\x03\x02\x03\x03\x04\x02\x03\x03\x04\x03\x04\x04\x05"
)

# Index of the lowest bit for masks of 5 bits.
_LOWIDX = bytes((0, 0, 1, 0, 2, 0, 0, 0, 3, 0, 0, 0, 0, 0, 0, 0,
                 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))

_cnt = bytearray(7)  # farkle_of's counts per value (no allocation per roll)
_keys = [0] * 32  # per mask of rolled dice: its key | its table bytes' sum << _SUM
_SUM = const(18)  # a key's 6 counts take 18 bits; the sum (at most 6 x 255) fits above
_KEY = const(0x3FFFF)


def ones_table(ones):
    """The table offset `t` for three 1s scoring `ones` (300 or 1000)."""
    if ones == 300:
        return 0
    if ones == 1000:
        return 42
    raise ValueError("three 1s score 300 or 1000, got %r" % (ones,))


def dice_in(mask):
    """How many rolled dice the selection `mask` holds."""
    return _PER_VALUE[_POP + (mask & 0x1F)]


def score_key(key, n, t):
    """Best complete split of the set `key` of `n` dice; 0 if none."""
    tot = 0
    k = key
    i = t
    while k:
        x = _PER_VALUE[i + (k & 7)]
        if x == _B:
            tot = -1
            break
        tot += x
        k >>= 3
        i += 7
    best = tot * 50 if tot > 0 else 0
    if n == 6:
        # Six-dice combinations: count how many values show 1, 2, 3 or 4 times.
        k = key
        ones_ = twos = threes = fours = 0
        while k:
            c = k & 7
            if c == 1:
                ones_ += 1
            elif c == 2:
                twos += 1
            elif c == 3:
                threes += 1
            elif c == 4:
                fours += 1
            k >>= 3
        six = 0
        if threes == 2:
            six = 2500
        elif ones_ == 6 or twos == 3 or (fours and twos):
            six = 1500  # straight, three pairs, four of a kind plus a pair
        if six > best:
            best = six
    return best


def points_of(rolled, n, common, mask, t):
    """Points of one selection `mask` of the first n rolled dice (0 if it does not
    score); `common`: the Common Die's usable number or None."""
    if mask & ~(((1 << n) - 1) | COMMON_BIT) or not mask & 0x1F:
        return 0
    key = 0
    k = 0
    for i in range(n):
        if mask >> i & 1:
            key += 1 << 3 * (rolled[i] - 1)
            k += 1
    if mask & COMMON_BIT:
        if common is None:
            return 0
        key += 1 << 3 * (common - 1)
        k += 1
    return score_key(key, k, t)


def farkle_of(rolled, n, common):
    """True when no selection of the first n rolled dice scores."""
    # Without the Common Die a roll scores when it has a 1, a 5 or three of a kind.
    # With its number c it also scores with two c's (three of a kind) or with two
    # pairs beside a single c (three pairs). Everything bigger contains one of these.
    c = _cnt
    for i in range(7):
        c[i] = 0
    for i in range(n):
        v = rolled[i]
        if v == 1 or v == 5:
            return False
        c[v] += 1
        if c[v] >= 3:
            return False
    if common is None:
        return True
    if c[common] >= 2:
        return False
    if c[common] == 1 and n == 5:
        pairs = 0
        for v in (2, 3, 4, 6):
            if c[v] == 2:
                pairs += 1
        if pairs == 2:
            return False
    return True


def scores_into(rolled, n, common, t, out):
    """out[mask] = the points of each selection mask 0-63 of the first n rolled dice,
    in units of 50 (0: it does not score): the roll's whole table at once, without a
    list (core.frenzy Game.scores, the screen's TAKE)."""
    # Each mask's set from the mask without its lowest bit: _keys[m] holds its key
    # and the sum of its values' table bytes (_PER_VALUE), which is its points / 50
    # while every count can be used (else it holds a _B: 255 or more); one die's
    # table bytes a mask, not a split per mask (score_key took ~3x as long: the
    # frame model's worst decision, the dice landing, makes this table).
    for m in range(64):
        out[m] = 0
    keys = _keys
    pv = _PER_VALUE
    keys[0] = 0
    w = tw = -1  # the Common Die's shift in a key and its row in the table, if usable
    if common is not None:
        w = 3 * (common - 1)
        tw = t + 7 * (common - 1)
    for m in range(1, 1 << n):
        low = m & -m
        v = rolled[_LOWIDX[low]] - 1
        p = keys[m ^ low]
        i = t + 7 * v + (p >> 3 * v & 7)
        k = p + (1 << 3 * v) + ((pv[i + 1] - pv[i]) << _SUM)
        keys[m] = k
        s = k >> _SUM
        out[m] = s if s < _B else 0
        if w < 0:
            continue
        if m == 31:  # five dice and the Common Die: the six-dice combinations too
            out[63] = score_key((k & _KEY) + (1 << w), 6, t) // 50
        else:
            i = tw + (k >> w & 7)
            s += pv[i + 1] - pv[i]
            out[m | COMMON_BIT] = s if s < _B else 0


def wild_into(rolled, n, t, out):
    """out[v] for v 1-6 = the best points of the first n rolled dice with the Common
    Die's WILD declared v, in units of 50 (0: no selection scores); out[0] = 0. The
    WILD picker's table: each selection's set made once, as scores_into() makes it,
    then counted with each value (scores_into() per value made every set six times)."""
    keys = _keys
    pv = _PER_VALUE
    for v in range(7):
        out[v] = 0
    best = 0  # the best selection without the WILD, the same for every value
    keys[0] = 0
    for m in range(1, 1 << n):
        low = m & -m
        v = rolled[_LOWIDX[low]] - 1
        p = keys[m ^ low]
        i = t + 7 * v + (p >> 3 * v & 7)
        k = p + (1 << 3 * v) + ((pv[i + 1] - pv[i]) << _SUM)
        keys[m] = k
        s = k >> _SUM
        if best < s < _B:
            best = s
        i = t
        for v in range(1, 7):
            if m == 31:  # five dice and the WILD: the six-dice combinations too
                p = score_key((k & _KEY) + (1 << 3 * (v - 1)), 6, t) // 50
            else:
                j = i + (k >> 3 * (v - 1) & 7)
                p = s + pv[j + 1] - pv[j]
            if out[v] < p < _B:
                out[v] = p
            i += 7
    for v in range(1, 7):
        if best > out[v]:
            out[v] = best


def selections_of(rolled, n, common, t):
    """Every selection of the first n rolled dice that scores, as (mask, points),
    sorted by mask (Game.legal(), which the device's screens do not call: its table
    is made here, not kept)."""
    tab = bytearray(64)
    scores_into(rolled, n, common, t, tab)
    out = []
    for m in range(1, 64):
        if tab[m]:
            out.append((m, tab[m] * 50))
    return out
