"""Farkle Frenzy scoring, the checked public helpers: score, is_farkle, selections.

The scoring kernel (the per-value table, best splits, the Farkle test, points of one
selection) lives in core.frenzy, which a game loads; this module is for tests, tools
and Game.legal() (whose body is here), so a game in play never holds it.

Sets are handled as a "key": the count of value v in bits 3(v-1)..3(v-1)+2.
"""

try:
    from micropython import const
except ImportError:
    def const(x):
        return x

from core.frenzy import (  # noqa: F401 (points_of: for the tools)
    _PER_VALUE,
    _is_farkle,
    _score_key,
    points_of,
)
from core.frenzy_names import COMMON_BIT

_COMMON = const(0)  # core.frenzy_names.COMMON
_PH_ROLL = const(1)  # core.frenzy_names.PH_ROLL
_PH_WILD = const(2)  # core.frenzy_names.PH_WILD
_PH_TAKE = const(3)  # core.frenzy_names.PH_TAKE
_DECIDE = const(4)  # core.frenzy_names.DECIDE
_COMMON_ROLL = const(0x100)  # core.frenzy_names.COMMON_ROLL
_ROLL = const(0x200)  # core.frenzy_names.ROLL
_DECLARE = const(0x300)  # core.frenzy_names.DECLARE
_TAKE = const(0x400)  # core.frenzy_names.TAKE
_STOP = const(0x500)  # core.frenzy_names.STOP
_POP = const(84)  # offset of the 5-bit population counts in _PER_VALUE (core.frenzy)


def _table(ones):
    # Offset of the per-value table in _PER_VALUE (Game.__init__ checks the same).
    if ones == 300:
        return 0
    if ones == 1000:
        return 42
    raise ValueError("three 1s score 300 or 1000, got %r" % (ones,))


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


def is_farkle(rolled, common=None):
    """True when no selection of this roll scores (`common`: usable number or None)."""
    return _is_farkle(rolled, _check_roll(rolled, common), common)


_keys = [0] * 32


def _selections(rolled, n, common, t):
    # keys[m] = the set of rolled dice in mask m, built from m without its lowest bit.
    keys = _keys
    out = []
    full = 1 << n
    pv = _PER_VALUE
    for m in range(1, full):
        low = m & -m
        i = _LOWIDX[low]
        keys[m] = keys[m ^ low] + (1 << 3 * (rolled[i] - 1))
        p = _score_key(keys[m], pv[_POP + m], t)
        if p:
            out.append((m, p))
    if common is not None:
        w = 1 << 3 * (common - 1)
        for m in range(1, full):
            p = _score_key(keys[m] + w, pv[_POP + m] + 1, t)
            if p:
                out.append((m | COMMON_BIT, p))
    return out


# Index of the lowest bit for masks of 5 bits.
_LOWIDX = bytes((0, 0, 1, 0, 2, 0, 0, 0, 3, 0, 0, 0, 0, 0, 0, 0,
                 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))


def selections(rolled, common=None, ones=300):
    """Every selection that scores completely, as (mask, points), sorted by mask.

    Bits 0-4 index `rolled`; COMMON_BIT is the Common Die (only when `common`, its
    usable number, is given). Each selection holds at least one rolled die.
    """
    t = _table(ones)
    return _selections(rolled, _check_roll(rolled, common), common, t)


def legal(g):
    """Game.legal(): the decisions the Frenzy game g takes now (TAKE | each scoring
    selection in phase TAKE, DECLARE | 1-6 in WILD), [] when it is over."""
    ph = g.phase
    if ph == _COMMON:
        return [_COMMON_ROLL]
    if ph == _PH_ROLL:
        return [_ROLL]
    if ph == _PH_WILD:
        return [_DECLARE | v for v in range(1, 7)]
    if ph == _PH_TAKE:
        return [_TAKE | m for m, _ in _selections(g.rolled, g.nrolled, g.usable(), g._t)]
    if ph == _DECIDE:
        return [_ROLL, _STOP]
    return []
