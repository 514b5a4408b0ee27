"""The wording of core.shakeup's ValueErrors: why a decision is not legal, bad input.

Kept apart from core.shakeup and imported only for an error, so a game that plays by
the rules never holds these messages.
"""
from core.shakeup import AGAIN, ALL4, CHOOSE, MOVING, OVER, PEN, PENALTY, ROLL, SKIP, STOP, UP

# core.shakeup's other messages (raise ValueError(NAME % args)).
DICE_COUNT = "classify needs 4 dice, got %d"
DIE_VALUE = "die value must be 1-6, got %r"
PAWN_COUNT = "need %d pawn positions, got %d"
PAWN_LEVEL = "pawn position must be 1-4, got %r"
PLAYERS = "Shake Up needs 2-4 players, got %r"
SEAT_LEVEL = "no seat %r / level %r"
DECISION = "a decision is a small int, got %r"
VALUES_ROLL_ONLY = "values only go with ROLL"
NO_SOURCE = "no dice source: pass values"
VALUE_COUNT = "%d dice are shaken, got %d values"
_PHASE_NAMES = ("ROLLOFF", "SHAKE", "CHOOSE", "MOVING", "PENALTY", "OVER")


def _name(d):
    kind = d & 0xF00
    a = d & 0xFF
    if kind == ROLL:
        return "ROLL|%d" % a
    if kind == STOP:
        return "STOP"
    if kind == UP:
        return "UP|%d" % a
    if kind == PEN:
        return "PEN seat %d level %d" % (a >> 2, a & 3)
    if kind == SKIP:
        return "SKIP"
    if kind == AGAIN:
        return "AGAIN"
    return "0x%x" % d


def why(g, d):
    """Why decision d is not legal now in the Shake Up game g."""
    ph = g.phase
    kind = d & 0xF00
    a = d & 0xFF
    if ph == OVER:
        return "the game is over"
    where = "in phase %s" % _PHASE_NAMES[ph]
    if ph == CHOOSE and kind == ROLL:
        if a == ALL4:
            return "all 4 dice set aside: that is STOP, not ROLL"
        if a & g.held != g.held:
            return "dice once set aside stay set aside (held mask %d)" % g.held
        return "bad hold mask %d" % a
    if ph == MOVING and kind == UP:
        if a < 1 or a > 3:
            return "UP needs a level 1-3"
        if not g.count(g.player, a):
            return "seat %d has no pawn on level %d" % (g.player, a)
        return "no pawn may move up from level %d (2-Pawn Rule or full level)" % a
    if ph == PENALTY and kind == PEN:
        s = a >> 2
        lv = a & 3
        if s == g.player:
            return "a penalty hits an opponent, not yourself"
        if s >= g.players:
            return "no seat %d" % s
        if lv < 2:
            return "only pawns on level 2 or 3 can be penalized"
        return "seat %d has no pawn on level %d" % (s, lv)
    if ph == PENALTY and (kind == SKIP or kind == AGAIN):
        return "%s is not the choice after BIG on shake %d" % (_name(d), g.shakes)
    return "%s is not legal %s" % (_name(d), where)
