"""Farkle Frenzy's scoring with checked arguments, for tests and tools: `score`,
`is_farkle`, `selections` (ValueError on bad arguments), over core.frenzy_score's
unchecked functions, which the game calls. Host only (tools/flashing/build.py HOST_ONLY): the
device never checks a roll it made itself.
"""
from core.frenzy_score import farkle_of, ones_table, score_key, selections_of


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
    t = ones_table(ones)
    key, n = _key(values)
    if not n:
        return 0
    return score_key(key, n, t)


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
    return farkle_of(rolled, _check_roll(rolled, common), common)


def selections(rolled, common=None, ones=300):
    """Every selection that scores completely, as (mask, points), sorted by mask.

    Bits 0-4 index `rolled`; COMMON_BIT is the Common Die (only when `common`, its
    usable number, is given). Each selection holds at least one rolled die.
    """
    t = ones_table(ones)
    return selections_of(rolled, _check_roll(rolled, common), common, t)
