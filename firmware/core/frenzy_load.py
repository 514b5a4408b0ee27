"""Loading a saved Farkle Frenzy game (Game.from_bytes) and checking it.

Kept apart from core.frenzy so that playing a new game never holds this code; the
layout is the one Game.to_bytes writes (see there). Every malformed input raises
ValueError; a state that loads saves back to the same bytes.
"""

try:
    from micropython import const
except ImportError:
    def const(x):
        return x

from core.dice import TWOX, WILD
from core.frenzy import _is_farkle, resolve


# The same values as in core.frenzy (const names are private to each module).
_COMMON = const(0)  # core.frenzy_names.COMMON
_ROLLING = const(0)  # core.frenzy_names.ROLLING
_PH_ROLL = const(1)  # core.frenzy_names.PH_ROLL
_PH_WILD = const(2)  # core.frenzy_names.PH_WILD
_PH_TAKE = const(3)  # core.frenzy_names.PH_TAKE
_DECIDE = const(4)  # core.frenzy_names.DECIDE
_OVER = const(5)  # core.frenzy_names.OVER
_PENDING = const(0)
_CONT = const(1)
_FILLED = const(4)
_VERSION = const(1)
_HEAD = const(23)


def _get32(b, j):
    return b[j] << 24 | b[j + 1] << 16 | b[j + 2] << 8 | b[j + 3]


def run(cls, b, dice=None):
    """Game.from_bytes: rebuild a game from to_bytes() output, checking it."""
    if not isinstance(b, (bytes, bytearray)):
        raise ValueError("saved Farkle Frenzy state must be bytes")
    if len(b) < _HEAD:
        raise ValueError("saved Farkle Frenzy state too short (%d bytes)" % len(b))
    if b[0] != _VERSION:
        raise ValueError("unknown Farkle Frenzy save version %d" % b[0])
    n = b[1]
    if n < 1 or n > 4 or b[2] > 1 or b[3] > 1:
        raise ValueError("malformed Farkle Frenzy state: players, schedule or ones")
    g = cls(n, b[2], 1000 if b[3] else 300, dice)
    g.round = b[4] << 8 | b[5]
    g.roller = b[6]
    g._next = b[7]
    g.phase = b[8]
    g.player = b[9]
    g.common = b[10]
    g.wild = b[11]
    g.rolled[:] = b[12:17]
    g.nrolled = b[17]
    g.in_round = b[18]
    g._rin = b[19]
    g.winner = b[20] - 1
    g.step = b[21] << 8 | b[22]
    j = _HEAD
    for s in range(n):
        if j + 14 > len(b):
            raise ValueError("saved Farkle Frenzy state truncated")
        g.totals[s] = _get32(b, j)
        g.round_scores[s] = _get32(b, j + 4)
        g.round_raw[s] = _get32(b, j + 8)
        j += 12
        ln = (b[j] << 8 | b[j + 1]) * 4
        j += 2
        if j + ln > len(b):
            raise ValueError("saved Farkle Frenzy state truncated")
        g._recs[s][:] = b[j:j + ln]
        j += ln
    if j != len(b):
        raise ValueError("saved Farkle Frenzy state has %d extra bytes" % (len(b) - j))
    _check(g)
    resolve(g._recs, g._rin, g.roller, g._st, g._end, g._by)
    _check_play(g)
    return g


def _check(g):
    n = g.players
    seats = (1 << n) - 1
    bad = None
    if g.phase > _OVER or g.player >= n or g.roller >= n or g._next >= n:
        bad = "phase or seats"
    elif g.round < 1 or g.winner >= n:
        bad = "round or winner"
    elif g.common not in (0, 1, 5, TWOX, WILD) or g.wild > 6:
        bad = "Common Die"
    elif g.wild and g.common != WILD:
        bad = "WILD value without WILD"
    elif (g.common == 0) != (g.phase == _COMMON and g.round == 1):
        bad = "Common Die before its roll"
    elif g.nrolled > 5 or any(v > 6 for v in g.rolled):
        bad = "rolled dice"
    elif any(g.rolled[i] < 1 for i in range(g.nrolled)) or any(g.rolled[g.nrolled:]):
        bad = "rolled dice"
    elif not g.in_round or g.in_round & ~seats or g._rin & ~seats or not g._rin:
        bad = "seats in the round"
    elif not g.in_round >> g.roller & 1:
        bad = "roller not in the round"
    elif (g.phase == _OVER) != (g.winner >= 0):
        bad = "winner"
    elif g.phase == _COMMON and (g.player != g.roller or g.step):
        bad = "Common Die roll"
    else:
        for s in range(n):
            r = g._recs[s]
            if r and not g._rin >> s & 1:
                bad = "records of a seat not in the round"
                break
            for k in range(0, len(r), 4):
                c = r[k]
                if c & 0x80 or (c >> 3 & 7) > 5 or (c & _FILLED and (c >> 3 & 7) != 5):
                    bad = "record of seat %d" % s
                    break
                if c & 3 == _PENDING and (k != len(r) - 4 or s != g.player
                                          or g.phase not in (_PH_WILD, _PH_TAKE, _DECIDE)):
                    bad = "unfinished step of seat %d" % s
                    break
            if bad:
                break
            if g.totals[s] < 0 or g.round_scores[s] < 0 or g.round_raw[s] < 0:
                bad = "scores"
                break
    if bad:
        raise ValueError("malformed Farkle Frenzy state: " + bad)


def _check_play(g):
    bad = None
    ph = g.phase
    p = g.player
    if ph in (_PH_ROLL, _PH_WILD, _PH_TAKE, _DECIDE):
        r = g._recs[p]
        if g._st[p] != _ROLLING:
            bad = "the player is not rolling"
        elif ph == _PH_ROLL and (len(r) // 4 != g.step - 1 or (r and r[len(r) - 4] & 3 != _CONT)):
            bad = "roll step"
        elif ph != _PH_ROLL and (not r or r[len(r) - 4] & 3 != _PENDING or len(r) // 4 != g.step):
            bad = "step in play"
        elif ph == _PH_WILD and (g.common != WILD or g.wild or p != g.roller or g.step != 1):
            bad = "WILD declaration"
        elif ph != _PH_ROLL and g.common == WILD and not g.wild:
            if ph != _PH_WILD:
                bad = "WILD not declared"
        elif ph == _PH_TAKE and _is_farkle(g.rolled, g.nrolled, g.usable(True)):
            bad = "a Farkle waiting to be taken"
        elif ph == _DECIDE and g.nrolled == 0:
            bad = "rolled dice"
    if bad is None and ph == _PH_ROLL and g.common == 0:
        bad = "Common Die"
    if bad:
        raise ValueError("malformed Farkle Frenzy state: " + bad)
