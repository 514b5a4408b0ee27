"""Farkle Frenzy: the end of a round (Game._end_step, once the resolution says nobody
rolls on): the round's scores (2X doubles them before the 400 entry), the winner or
the tie round among the leaders past the goal, and the next round's roller.

Loaded for that once-a-round call and dropped right after (core.frenzy._aside), so a
game does not hold this code between rounds.
"""

try:
    from micropython import const
except ImportError:
    def const(x):
        return x

_TWOX = const(7)  # core.dice.TWOX
_COMMON = const(0)  # core.frenzy_names.COMMON
_OVER = const(5)  # core.frenzy_names.OVER
_GOAL = const(10000)  # core.frenzy_names.GOAL
_ENTRY = const(400)  # core.frenzy_names.ENTRY


def run(g):
    # Small functions, not one: this loads in the middle of a decision, when the free
    # heap is in pieces, and each function's code needs one piece.
    _score(g)
    if not _winner(g):
        _next(g)


def _score(g):
    """The round's scores, counted in the totals."""
    n = g.players
    rin = g._rin
    dbl = 2 if g.common == _TWOX else 1
    tot = g.totals
    for s in range(n):
        raw = counted = 0
        if rin >> s & 1:
            raw = g.running(s) * dbl
            counted = raw if tot[s] or raw >= _ENTRY else 0
            tot[s] += counted
        g.round_raw[s] = raw
        g.round_scores[s] = counted
    g.notes.append(("round_end", g.round))


def _winner(g):
    """True when the totals made a winner; else who plays the next round."""
    n = g.players
    tot = g.totals
    best = max(tot)
    tied = 0
    if best >= _GOAL:
        for s in range(n):
            if tot[s] == best:
                tied |= 1 << s
        if not tied & (tied - 1):
            s = 0
            while not tied >> s & 1:
                s += 1
            g.winner = s
            g.phase = _OVER
            g.step = 0
            g.notes.append(("win", s))
            return True
        g.notes.append(("tie", tied))
        g.in_round = tied
    else:
        g.in_round = (1 << n) - 1
    return False


def _next(g):
    """The next round: its roller (the next seat in it), at the Common Die."""
    n = g.players
    g.round += 1
    s = g._next
    while not g.in_round >> s & 1:
        s = (s + 1) % n
    g.roller = s
    g._next = (s + 1) % n
    g.player = s
    g.step = 0
    g.phase = _COMMON
