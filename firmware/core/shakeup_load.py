"""Loading a saved Shake Up game (Game.from_bytes) and checking it.

Kept apart from core.shakeup so that playing a new game never holds this code; the
layout is the one Game.to_bytes writes (see there). Every malformed input raises
ValueError; a state that loads saves back to the same bytes.
"""

from core.shakeup import (ALL4, BIG, CHOOSE, MOVE, MOVING, OVER, PAWNS, PENALTY, RO_IN,
                          RO_TODO, ROLLOFF, SAFE, SHAKE, VERSION)

try:
    from micropython import const
except ImportError:
    def const(x):
        return x

_SIZE = const(36)


def load(cls, b, dice=None):
    """Game.from_bytes: the Game (class cls) saved in b; ValueError when malformed."""
    if not isinstance(b, (bytes, bytearray)):
        raise ValueError("saved Shake Up state must be bytes")
    if len(b) != _SIZE:
        raise ValueError("saved Shake Up state must be %d bytes, got %d" % (_SIZE, len(b)))
    if b[0] != VERSION:
        raise ValueError("unknown Shake Up save version %d" % b[0])
    n = b[1]
    if n < 2 or n > 4 or b[2] > 1:
        raise ValueError("bad players or flags in saved state")
    g = cls(n, bool(b[2]), dice)
    g.phase = b[3]
    g.player = b[4]
    g.dice[:] = b[5:9]
    g.held = b[9]
    g.shakes = b[10]
    g.result = b[11] - 1
    g.winner = b[12] - 1
    g.starter = b[13] - 1
    g.rolloff[:] = b[16:16 + n]
    g._pawns[0:16] = b[20:36]
    g._pawns[RO_IN] = b[14]
    g._pawns[RO_TODO] = b[15]
    _check(g, b)
    return g


def _check(g, b):
    """ValueError unless the restored game `g` (from b) is a reachable state."""
    n = g.players
    seats = (1 << n) - 1
    bad = None
    if g.phase > OVER or g.player >= n:
        bad = "phase or player"
    elif any(v > 6 for v in g.dice) or g.held >= ALL4 or g.shakes > 3:
        bad = "dice"
    elif g.result > BIG or g.winner >= n or g.starter >= n:
        bad = "result, winner or starter"
    elif g._pawns[RO_IN] & ~seats or g._pawns[RO_TODO] & ~g._pawns[RO_IN]:
        bad = "roll-off seats"
    elif any(v > 6 for v in b[16:20]) or any(b[16 + n:20]):
        bad = "roll-off values"
    elif (g.phase == ROLLOFF) != (g.starter < 0):
        bad = "roll-off phase"
    elif g.phase == ROLLOFF and not (g._pawns[RO_TODO] >> g.player & 1):
        bad = "roll-off player"
    elif (g.phase == OVER) != (g.winner >= 0):
        bad = "winner"
    elif g.phase in (ROLLOFF, SHAKE) and (g.shakes or g.held):
        bad = "shakes before a turn"
    elif g.phase == CHOOSE and not 1 <= g.shakes <= 2:
        bad = "shakes while choosing"
    elif g.phase in (MOVING, PENALTY) and (
            not g.shakes or g.result < (BIG if g.phase == PENALTY else MOVE)):
        bad = "result of the turn"
    else:
        for s in range(4):
            i = s * 4
            total = sum(g._pawns[i:i + 4])
            if total != (PAWNS if s < n else 0):
                bad = "pawn counts of seat %d" % s
                break
        if bad is None and g.winner >= 0 and g.count(g.winner, SAFE) != PAWNS:
            bad = "winner without 5 SAFE pawns"
        if bad is None and g.winner < 0:
            for s in range(n):
                if g._pawns[s * 4 + 3] == PAWNS:
                    bad = "seat %d has won but the game goes on" % s
        if bad is None and g.phase != OVER and not g.legal():
            bad = "no legal decision"
    if bad:
        raise ValueError("malformed Shake Up state: " + bad)
