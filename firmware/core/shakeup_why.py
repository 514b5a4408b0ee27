"""The wording of core.shakeup's ValueErrors: why a decision is not legal, bad input.

Kept apart from core.shakeup and loaded only for an error, so a game never holds
these messages.
"""
try:
    from micropython import const
except ImportError:
    def const(x):
        return x

# The same values as in core.shakeup (const names are private to each module).
_CHOOSE = const(2)
_MOVING = const(3)
_PENALTY = const(4)
_OVER = const(5)
_ROLL = const(0x100)
_STOP = const(0x200)
_UP = const(0x300)
_PEN = const(0x400)
_SKIP = const(0x500)
_AGAIN = const(0x600)
_ALL4 = const(15)
# core.shakeup's other messages, by number (run(None, number, args)).
_MSG = ("classify needs 4 dice, got %d", "die value must be 1-6, got %r",
        "need %d pawn positions, got %d", "pawn position must be 1-4, got %r",
        "Shake Up needs 2-4 players, got %r", "no seat %r / level %r",
        "a decision is a small int, got %r", "values only go with ROLL",
        "no dice source: pass values", "%d dice are shaken, got %d values")
_PHASE_NAMES = ("ROLLOFF", "SHAKE", "CHOOSE", "MOVING", "PENALTY", "OVER")


def _name(d):
    kind = d & 0xF00
    a = d & 0xFF
    if kind == _ROLL:
        return "ROLL|%d" % a
    if kind == _STOP:
        return "STOP"
    if kind == _UP:
        return "UP|%d" % a
    if kind == _PEN:
        return "PEN seat %d level %d" % (a >> 2, a & 3)
    if kind == _SKIP:
        return "SKIP"
    if kind == _AGAIN:
        return "AGAIN"
    return "0x%x" % d


def run(g, d, args=()):
    """Why decision d is not legal now in the Shake Up game g; g None: message d."""
    if g is None:
        return _MSG[d] % args
    ph = g.phase
    kind = d & 0xF00
    a = d & 0xFF
    if ph == _OVER:
        return "the game is over"
    where = "in phase %s" % _PHASE_NAMES[ph]
    if ph == _CHOOSE and kind == _ROLL:
        if a == _ALL4:
            return "all 4 dice set aside: that is STOP, not ROLL"
        if a & g.held != g.held:
            return "dice once set aside stay set aside (held mask %d)" % g.held
        return "bad hold mask %d" % a
    if ph == _MOVING and kind == _UP:
        if a < 1 or a > 3:
            return "UP needs a level 1-3"
        if not g.count(g.player, a):
            return "seat %d has no pawn on level %d" % (g.player, a)
        return "no pawn may move up from level %d (2-Pawn Rule or full level)" % a
    if ph == _PENALTY and kind == _PEN:
        s = a >> 2
        lv = a & 3
        if s == g.player:
            return "a penalty hits an opponent, not yourself"
        if s >= g.players:
            return "no seat %d" % s
        if lv < 2:
            return "only pawns on level 2 or 3 can be penalized"
        return "seat %d has no pawn on level %d" % (s, lv)
    if ph == _PENALTY and (kind == _SKIP or kind == _AGAIN):
        return "%s is not the choice after BIG on shake %d" % (_name(d), g.shakes)
    return "%s is not legal %s" % (_name(d), where)
