"""Loading a saved Farkle Frenzy game (Game.from_bytes) and checking it.

Kept apart from core.frenzy so that playing a new game never holds this code; the
layout is the one Game.to_bytes writes (see there). Every malformed input raises
ValueError, and so does every well-formed state that play cannot reach (bounds on
every field, scores that the records and the rounds could give, a tie or a winner
where the totals say so); a state that loads saves back to the same bytes.
"""

from core.dice import TWOX, WILD
from core.frenzy import ENTRY, FARKLED, GOAL, PH_COMMON, PH_DECIDE, PH_OVER, PH_ROLL, \
    PH_TAKE, PH_WILD, ROLLING, TOTAL_MAX
from core.frenzy_score import farkle_of

from micropython import const

# As core.frenzy (private there): the save's layout and a step record's code byte.
_VERSION = const(1)
_HEAD = const(23)
_R_PENDING = const(0)
_R_CONT = const(1)
_FILLED = const(4)


def load(cls, b, dice, resolve):
    """Game.from_bytes: the Game (class cls) saved in b; ValueError when malformed.
    resolve: core.frenzy's (passed in, so that this module takes only its codes)."""
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
    bad = _bad_state(g)
    if not bad:
        resolve(g._recs, g._rin, g.roller, g._st, g._end, g._by)
        bad = _bad_play(g) or _bad_scores(g)
    if bad:
        raise ValueError("malformed Farkle Frenzy state: " + bad)
    return g


def _get32(b, j):
    return b[j] << 24 | b[j + 1] << 16 | b[j + 2] << 8 | b[j + 3]


def _bad_state(g):
    """What is wrong with the loaded fields (ranges and their consistency), or None."""
    n = g.players
    seats = (1 << n) - 1
    ph = g.phase
    playing = PH_ROLL <= ph <= PH_DECIDE
    dbl = 2 if g.common == TWOX else 1
    bad = None
    if ph > PH_OVER or g.player >= n or g.roller >= n or g._next >= n:
        bad = "phase or seats"
    elif g.round < 1 or g.winner >= n or g._next != (g.roller + 1) % n:
        bad = "round or winner"
    elif g.common not in (0, 1, 5, TWOX, WILD) or g.wild > 6:
        bad = "Common Die"
    elif g.wild and g.common != WILD:
        bad = "WILD value without WILD"
    elif (g.common == 0) != (ph == PH_COMMON and g.round == 1):
        bad = "Common Die before its roll"
    elif g.nrolled > 5 or any(v > 6 for v in g.rolled):
        bad = "rolled dice"
    elif any(g.rolled[i] < 1 for i in range(g.nrolled)) or any(g.rolled[g.nrolled:]):
        bad = "rolled dice"
    elif not g.in_round or g.in_round & ~seats or g._rin & ~seats or not g._rin:
        bad = "seats in the round"
    elif not g.in_round >> g.roller & 1 or (playing and g._rin != g.in_round):
        bad = "seats in the round"
    elif (ph == PH_OVER) != (g.winner >= 0) or (ph == PH_OVER and g.step):
        bad = "winner"
    elif ph == PH_COMMON and (g.player != g.roller or g.step):
        bad = "Common Die roll"
    else:
        for s in range(n):
            r = g._recs[s]
            if r and not g._rin >> s & 1:
                bad = "records of a seat not in the round"
                break
            # The totals (in units of 50) with this round's running total doubled
            # stay within TOTAL_MAX: play refuses the take that would pass it.
            v = g.totals[s]
            if v % 50 or v > TOTAL_MAX or g.round_scores[s] % 50 or g.round_raw[s] % 50:
                bad = "scores"
                break
            v //= 50
            for k in range(0, len(r), 4):
                c = r[k]
                if c & 0x80 or (c >> 3 & 7) > 5 or (c & _FILLED and (c >> 3 & 7) != 5):
                    bad = "record of seat %d" % s
                    break
                if c & 3 == _R_PENDING and (k != len(r) - 4 or s != g.player
                                          or ph not in (PH_WILD, PH_TAKE, PH_DECIDE)):
                    bad = "unfinished step of seat %d" % s
                    break
                if playing and v + (r[k + 1] << 16 | r[k + 2] << 8 | r[k + 3]) * dbl \
                        > TOTAL_MAX // 50:
                    bad = "scores"
                    break
            if bad:
                break
    return bad


def _bad_play(g):
    """What is wrong with the phase in play given the resolution, or None."""
    bad = None
    ph = g.phase
    p = g.player
    if ph in (PH_ROLL, PH_WILD, PH_TAKE, PH_DECIDE):
        r = g._recs[p]
        if g._st[p] != ROLLING:
            bad = "the player is not rolling"
        elif ph == PH_ROLL and (len(r) // 4 != g.step - 1 or (r and r[len(r) - 4] & 3 != _R_CONT)):
            bad = "roll step"
        elif ph != PH_ROLL and (not r or r[len(r) - 4] & 3 != _R_PENDING or len(r) // 4 != g.step):
            bad = "step in play"
        elif ph == PH_WILD and (g.common != WILD or g.wild or p != g.roller or g.step != 1):
            bad = "WILD declaration"
        elif ph != PH_ROLL and g.common == WILD and not g.wild:
            if ph != PH_WILD:
                bad = "WILD not declared"
        elif ph == PH_TAKE and farkle_of(g.rolled, g.nrolled, g.usable(True)):
            bad = "a Farkle waiting to be taken"
        elif ph == PH_DECIDE and g.nrolled == 0:
            bad = "rolled dice"
    if bad is None and ph == PH_ROLL and g.common == 0:
        bad = "Common Die"
    return bad


def _bad_scores(g):
    """What is wrong with the totals and the last round's scores, or None: they are
    what the last round's records and the rules give, the totals before it led to
    the seats that played it, and the totals now to the seats of this round (a tie
    among the leaders past the goal, else everyone) or to the winner."""
    n = g.players
    ph = g.phase
    ended = ph == PH_OVER or (ph == PH_COMMON and g.round > 1)  # the records: last round's
    dbl = 2 if g.common == TWOX else 1
    tot = g.totals
    before = [0] * n
    for s in range(n):
        raw = g.round_raw[s]
        got = g.round_scores[s]
        t = tot[s] - got
        before[s] = t
        if g.round == 1 and ph != PH_OVER and (raw or got):
            return "scores"
        # Counted as raw, except a first score below the entry (RULES.md 2).
        if t < 0 or not ((got == raw and (t or raw >= ENTRY)) or (not got and not t and raw < ENTRY)):
            return "scores"
        if ended:
            if g._rin >> s & 1:
                if g._st[s] == ROLLING:
                    return "scores"
                if g._st[s] != FARKLED:
                    raw -= g.running(s) * dbl
            if raw:
                return "scores"
    if ended and _leaders(before, n) != g._rin:
        return "seats in the round"
    if ph == PH_OVER:
        if _leaders(tot, n) or tot[g.winner] != max(tot):
            return "winner"
    elif _leaders(tot, n) != g.in_round:
        return "seats in the round"
    return None


def _leaders(tot, n):
    """The seats that play the round after these totals: everyone below the goal,
    else the leaders when two or more tie (0 when one leads alone: the game is over)."""
    best = max(tot)
    if best < GOAL:
        return (1 << n) - 1
    m = 0
    for s in range(n):
        if tot[s] == best:
            m |= 1 << s
    return m if m & (m - 1) else 0
