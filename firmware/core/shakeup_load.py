"""Loading a saved Shake Up game (Game.from_bytes) and checking it.

Kept apart from core.shakeup so that playing a new game never holds this code; the
layout is the one Game.to_bytes writes (see there). Every malformed input raises
ValueError; a state that loads saves back to the same bytes.
"""

from core.shakeup import (ALL4, BIG, CHOOSE, MOVE, MOVING, OVER, PAWNS, PENALTY, RO_IN,
                          RO_TODO, ROLLOFF, SAFE, SHAKE, VERSION)

from micropython import const

_SIZE = const(36)


def load(cls, b, dice, classify):
    """Game.from_bytes: the Game (class cls) saved in b; ValueError when malformed.
    classify: core.shakeup's (passed in, so that this module takes only its codes)."""
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
    _check(g, b, classify)
    return g


def _check(g, b, classify):
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
    elif g.phase == OVER and g.player != g.winner:
        bad = "winner not the player"
    else:
        bad = _bad_turn(g, classify)
        for s in range(4):
            i = s * 4
            total = sum(g._pawns[i:i + 4])
            if total != (PAWNS if s < n else 0):
                bad = "pawn counts of seat %d" % s
                break
            # Pyramid spots: at most 4 pawns on level 2 and 3 on level 3 (RULES.md 1).
            if g.spots and (g._pawns[i + 1] > 4 or g._pawns[i + 2] > 3):
                bad = "more pawns on a level than its spots"
                break
        if bad is None and g.winner >= 0 and g.count(g.winner, SAFE) != PAWNS:
            bad = "winner without 5 SAFE pawns"
        if bad is None and g.winner < 0:
            for s in range(n):
                if g._pawns[s * 4 + 3] == PAWNS:
                    bad = "seat %d has won but the game goes on" % s
        if bad is None and g.phase != OVER and len(g.legal()) < (2 if g.phase == PENALTY else 1):
            bad = "no legal decision"  # (a penalty that can do nothing is never offered)
    if bad:
        raise ValueError("malformed Shake Up state: " + bad)


def _bad_turn(g, classify):
    """What is wrong with the dice, the result and the roll-off for the phase, or None:
    dice show after the first shake of the game (all four), the result is their class
    once a turn has finished, the roll-off's values are those its rounds leave."""
    ph = g.phase
    d = g.dice
    p = g._pawns
    ro = g.rolloff
    shown = d[0] and d[1] and d[2] and d[3]
    if not shown and (d[0] or d[1] or d[2] or d[3]):
        return "dice"
    if not shown:
        if ph > SHAKE or g.result >= 0:
            return "a turn without dice"
        for s in range(g.players):
            if p[s * 4] != PAWNS:
                return "pawns moved without dice"
        if ph == SHAKE and g.player != g.starter:
            return "first turn not the starter's"
    elif ph == ROLLOFF or g.result != (-1 if ph == CHOOSE else classify(d)):
        return "result of the dice"
    inn = p[RO_IN]
    todo = p[RO_TODO]
    if ph != ROLLOFF:
        if inn or todo:
            return "roll-off seats"
        for s in range(g.players):
            if s != g.starter and ro[s] >= ro[g.starter]:
                return "roll-off winner"
        return None
    v = -1
    for s in range(g.players):
        x = ro[s]
        if not inn >> s & 1:
            if x:
                return "roll-off values"
        elif not todo >> s & 1:
            if not x:
                return "roll-off values"
        elif v < 0:
            v = x
        elif x != v:  # still to shake: all at 0, or at the value they tied with
            return "roll-off values"
    return None
