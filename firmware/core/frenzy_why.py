"""Why a Farkle Frenzy decision is not legal: the wording of Game.apply's ValueError.

Kept apart from core.frenzy and loaded only when a decision is rejected, so a game
never holds these messages. The checks run in the order Game.apply found them.
"""
try:
    from micropython import const
except ImportError:
    def const(x):
        return x

_COMMON = const(0)  # core.frenzy_names.COMMON
_PH_ROLL = const(1)  # core.frenzy_names.PH_ROLL
_PH_WILD = const(2)  # core.frenzy_names.PH_WILD
_PH_TAKE = const(3)  # core.frenzy_names.PH_TAKE
_OVER = const(5)  # core.frenzy_names.OVER
_COMMON_BIT = const(0x20)  # core.frenzy_names.COMMON_BIT
_COMMON_ROLL = const(0x100)  # core.frenzy_names.COMMON_ROLL
_ROLL = const(0x200)  # core.frenzy_names.ROLL
_DECLARE = const(0x300)  # core.frenzy_names.DECLARE
_TAKE = const(0x400)  # core.frenzy_names.TAKE
_STOP = const(0x500)  # core.frenzy_names.STOP

_PHASE_NAMES = ("COMMON", "ROLL", "WILD", "TAKE", "DECIDE", "OVER")


def _name(d):
    kind = d & 0xF00
    for k, nm in ((_COMMON_ROLL, "COMMON_ROLL"), (_ROLL, "ROLL"), (_DECLARE, "DECLARE"),
                  (_TAKE, "TAKE"), (_STOP, "STOP")):
        if kind == k:
            if kind == _DECLARE or kind == _TAKE:
                return "%s|0x%x" % (nm, d & 0xFF)
            return nm
    return "0x%x" % d


def _values(g, values, n):
    if values is None:
        return "no dice source: pass values"
    if n == 0:  # the Common Die
        if len(values) != 1:
            return "the Common Die is one die, got %d values" % len(values)
        return "the Common Die shows 1, 5, TWOX (7) or WILD (8), got %r" % (values[0],)
    if len(values) != n:
        return "%d dice are rolled, got %d values" % (n, len(values))
    for v in values:
        if not isinstance(v, int) or v < 1 or v > 6:
            return "die value must be 1-6, got %r" % (v,)
    return "the roll is not legal now"


def run(g, d, values):
    """Why decision d (with values) is not legal now in the Frenzy game g."""
    if not isinstance(d, int) or d < 0 or d > 0xFFF:
        return "a decision is a small int, got %r" % (d,)
    ph = g.phase
    kind = d & 0xF00
    arg = d & 0xFF
    if ph == _OVER:
        return "the game is over"
    if values is not None and not (kind == _ROLL and ph == _PH_ROLL) and kind != _COMMON_ROLL:
        return "values only go with a roll (ROLL in phase ROLL, or COMMON_ROLL)"
    where = "in phase %s" % _PHASE_NAMES[ph]
    bad = "%s is not legal %s: " % (_name(d), where)
    if ph == _COMMON:
        if d != _COMMON_ROLL:
            return bad + "the roller shakes the Common Die"
        return _values(g, values, 0)
    if ph == _PH_ROLL:
        if d != _ROLL:
            return bad + "the player rolls"
        return _values(g, values, g.to_roll())
    if ph == _PH_WILD:
        return bad + "declare the WILD as 1-6 (DECLARE | value)"
    if ph == _PH_TAKE:
        if kind != _TAKE:
            return bad + "set aside a scoring selection"
        if arg & _COMMON_BIT and g.usable() is None:
            return "the Common Die cannot be counted now"
        if arg & ~(((1 << g.nrolled) - 1) | _COMMON_BIT):
            return "TAKE mask 0x%x names dice that were not rolled" % arg
        if not arg & 0x1F:
            return "every selection must contain at least one rolled die"
        return "selection 0x%x does not score completely" % arg
    return bad + "ROLL on or STOP"
