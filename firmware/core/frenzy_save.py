"""Farkle Frenzy's save (Game.to_bytes): the version byte, the header, then per seat
its scores and step records, as core.frenzy_load reads them back.

Loaded for each save (one per decision) and dropped right after (core.frenzy._aside),
so a game does not hold this code between decisions.
"""
try:
    from micropython import const
except ImportError:
    def const(x):
        return x

_VERSION = const(1)  # as in core.frenzy_load
_HEAD = const(23)


def run(g):
    # Two functions, not one: this loads in the middle of a decision, when the free
    # heap is in pieces, and each function's code needs one piece.
    b = _head(g)
    for s in range(g.players):
        r = g._recs[s]
        for v in (g.totals[s], g.round_scores[s], g.round_raw[s]):
            if v < 0 or v > 0xFFFFFFFF:
                raise ValueError("score out of range")
            b.extend(v.to_bytes(4, "big"))
        b.extend((len(r) >> 2).to_bytes(2, "big"))
        b.extend(r)
    return b  # a bytearray: a bytes copy would be one more block at the save


def _head(g):
    b = bytearray(_HEAD)
    b[0] = _VERSION
    b[1] = g.players
    b[2] = g.schedule
    b[3] = 1 if g.ones == 1000 else 0
    b[4] = g.round >> 8
    b[5] = g.round & 0xFF
    b[6] = g.roller
    b[7] = g._next
    b[8] = g.phase
    b[9] = g.player
    b[10] = g.common
    b[11] = g.wild
    b[12:17] = g.rolled
    b[17] = g.nrolled
    b[18] = g.in_round
    b[19] = g._rin
    b[20] = g.winner + 1
    b[21] = g.step >> 8
    b[22] = g.step & 0xFF
    return b
