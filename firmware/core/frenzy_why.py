"""Why a Farkle Frenzy decision is not legal: the wording of Game.apply's ValueError.

Rare text: Game._refused imports this module only when a decision is refused, so a
game in play does not hold these messages. The checks run in the order Game.apply
makes them.
"""
from core.frenzy import COMMON_ROLL, DECLARE, PH_COMMON, PH_DECIDE, PH_OVER, PH_ROLL, \
    PH_TAKE, PH_WILD, ROLL, STOP, TAKE
from core.frenzy_score import COMMON_BIT

# The codes' names, as the messages give them
_PHASES = ((PH_COMMON, "COMMON"), (PH_ROLL, "ROLL"), (PH_WILD, "WILD"), (PH_TAKE, "TAKE"),
           (PH_DECIDE, "DECIDE"), (PH_OVER, "OVER"))
_KINDS = ((COMMON_ROLL, "COMMON_ROLL"), (ROLL, "ROLL"), (DECLARE, "DECLARE"), (TAKE, "TAKE"),
          (STOP, "STOP"))


def _name(d):
    kind = d & 0xF00
    for k, nm in _KINDS:
        if kind == k:
            if kind == DECLARE or kind == TAKE:
                return "%s|0x%x" % (nm, d & 0xFF)
            return nm
    return "0x%x" % d


def _phase(ph):
    for p, nm in _PHASES:
        if p == ph:
            return nm
    return str(ph)


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


def why(g, d, values):
    """Why decision d (with values) is not legal now in the Frenzy game g."""
    if not isinstance(d, int) or d < 0 or d > 0xFFF:
        return "a decision is a small int, got %r" % (d,)
    ph = g.phase
    kind = d & 0xF00
    arg = d & 0xFF
    if ph == PH_OVER:
        return "the game is over"
    if values is not None and not (kind == ROLL and ph == PH_ROLL) and kind != COMMON_ROLL:
        return "values only go with a roll (ROLL in phase ROLL, or COMMON_ROLL)"
    where = "in phase %s" % _phase(ph)
    bad = "%s is not legal %s: " % (_name(d), where)
    if ph == PH_COMMON:
        if d != COMMON_ROLL:
            return bad + "the roller shakes the Common Die"
        return _values(g, values, 0)
    if ph == PH_ROLL:
        if d != ROLL:
            return bad + "the player rolls"
        return _values(g, values, g.to_roll())
    if ph == PH_WILD:
        return bad + "declare the WILD as 1-6 (DECLARE | value)"
    if ph == PH_TAKE:
        if kind != TAKE:
            return bad + "set aside a scoring selection"
        if arg & COMMON_BIT and g.usable() is None:
            return "the Common Die cannot be counted now"
        if arg & ~(((1 << g.nrolled) - 1) | COMMON_BIT):
            return "TAKE mask 0x%x names dice that were not rolled" % arg
        if not arg & 0x1F:
            return "every selection must contain at least one rolled die"
        return "selection 0x%x does not score completely" % arg
    return bad + "ROLL on or STOP"
