"""Farkle Frenzy scoring: the classic table, best splits, selections, Farkle test.

A set of dice (rolled dice plus the Common Die's number when it is used) scores
when ALL of it splits into combinations; its score is the best such split. Every
combination except the six-dice ones (straight, three pairs, four of a kind plus a
pair, two triplets) uses one value only, so the best split is the sum of the best
split of each value's count, compared with the six-dice combinations when there
are six dice. The per-value bests are a small `bytes` table (in units of 50).

Sets are handled as a "key": the count of value v in bits 3(v-1)..3(v-1)+2.
"""

try:
    from micropython import const
except ImportError:
    def const(x):
        return x

COMMON_BIT = 0x20
_BAD = const(255)

# Best score of k dice (k = 0..6) all showing value v, in units of 50; _BAD when
# they cannot all be used. Row v-1 of 7 entries; first 42 bytes for three 1s =
# 300, the next 42 for three 1s = 1000. Worked out per count:
#   1s: 1 -> 100, 2 -> 200, 3 -> 300|1000, 4 -> four of a kind 1000 (or with
#       the 1000 table three 1s + a 1 = 1100), 5 -> 2000, 6 -> 3000
#   5s: 50, 100, 500, 1000, 2000, 3000
#   2,3,4,6: only 3+ of them: N x 100, 1000, 2000, 3000
_B = _BAD
_PER_VALUE = bytes((
    0, 2, 4, 6, 20, 40, 60,
    0, _B, _B, 4, 20, 40, 60,
    0, _B, _B, 6, 20, 40, 60,
    0, _B, _B, 8, 20, 40, 60,
    0, 1, 2, 10, 20, 40, 60,
    0, _B, _B, 12, 20, 40, 60,
    0, 2, 4, 20, 22, 40, 60,
    0, _B, _B, 4, 20, 40, 60,
    0, _B, _B, 6, 20, 40, 60,
    0, _B, _B, 8, 20, 40, 60,
    0, 1, 2, 10, 20, 40, 60,
    0, _B, _B, 12, 20, 40, 60,
))


def _table(ones):
    if ones == 300:
        return 0
    if ones == 1000:
        return 42
    raise ValueError("three 1s score 300 or 1000, got %r" % (ones,))


def _score_key(key, n, t):
    """Best complete split of the set `key` of `n` dice; 0 if none."""
    tot = 0
    k = key
    i = t
    while k:
        x = _PER_VALUE[i + (k & 7)]
        if x == _BAD:
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


def _key(values):
    key = 0
    n = 0
    for v in values:
        if not isinstance(v, int) or v < 1 or v > 6:
            raise ValueError("die value must be 1-6, got %r" % (v,))
        key += 1 << 3 * (v - 1)
        n += 1
    if n > 6:
        raise ValueError("at most 6 dice score together (5 rolled + the Common Die), got %d" % n)
    return key, n


def score(values, ones=300):
    """Points of the values (1-6) when they split completely into combinations, else 0."""
    t = _table(ones)
    key, n = _key(values)
    if not n:
        return 0
    return _score_key(key, n, t)


def _check_roll(rolled, common):
    n = len(rolled)
    if n < 1 or n > 5:
        raise ValueError("a roll has 1-5 dice, got %d" % n)
    if common is not None and (not isinstance(common, int) or common < 1 or common > 6):
        raise ValueError("the Common Die's number must be 1-6 or None, got %r" % (common,))
    for i in range(n):
        v = rolled[i]
        if not isinstance(v, int) or v < 1 or v > 6:
            raise ValueError("die value must be 1-6, got %r" % (v,))
    return n


def _is_farkle(rolled, n, common):
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


_cnt = bytearray(7)


def is_farkle(rolled, common=None):
    """True when no selection of this roll scores (`common`: usable number or None)."""
    return _is_farkle(rolled, _check_roll(rolled, common), common)


_keys = [0] * 32


def _selections(rolled, n, common, t):
    # keys[m] = the set of rolled dice in mask m, built from m without its lowest bit.
    keys = _keys
    out = []
    full = 1 << n
    pop = _POP
    for m in range(1, full):
        low = m & -m
        i = _LOWIDX[low]
        keys[m] = keys[m ^ low] + (1 << 3 * (rolled[i] - 1))
        p = _score_key(keys[m], pop[m], t)
        if p:
            out.append((m, p))
    if common is not None:
        w = 1 << 3 * (common - 1)
        for m in range(1, full):
            p = _score_key(keys[m] + w, pop[m] + 1, t)
            if p:
                out.append((m | COMMON_BIT, p))
    return out


# Population count and index of the lowest bit for masks of 5 bits.
_POP = (b"\x00\x01\x01\x02\x01\x02\x02\x03\x01\x02\x02\x03\x02\x03\x03\x04"
        b"\x01\x02\x02\x03\x02\x03\x03\x04\x02\x03\x03\x04\x03\x04\x04\x05")
_LOWIDX = bytes((0, 0, 1, 0, 2, 0, 0, 0, 3, 0, 0, 0, 0, 0, 0, 0,
                 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))


def selections(rolled, common=None, ones=300):
    """Every selection that scores completely, as (mask, points), sorted by mask.

    Bits 0-4 index `rolled`; COMMON_BIT is the Common Die (only when `common`, its
    usable number, is given). Each selection holds at least one rolled die.
    """
    t = _table(ones)
    return _selections(rolled, _check_roll(rolled, common), common, t)


def points_of(rolled, n, common, mask, t):
    """Points of one selection `mask` of the first n rolled dice (0 if it does not score)."""
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
    return _score_key(key, k, t)
