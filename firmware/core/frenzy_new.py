"""A new Farkle Frenzy game (Game.__init__): its checks and its starting state.

Loaded for that one call and dropped right after (core.frenzy._aside), so a game in
play never holds this code or its messages. The attributes are described in
core.frenzy (Game's annotations and the module's docstring).
"""
from core.frenzy import resolve

try:
    from micropython import const
except ImportError:
    def const(x):
        return x

_COMMON = const(0)  # core.frenzy_names.COMMON
_RELAY = const(0)  # core.frenzy_names.RELAY
_LOCKSTEP = const(1)  # core.frenzy_names.LOCKSTEP


def run(g, players, schedule, ones, dice):
    if not isinstance(players, int) or players < 1 or players > 4:
        raise ValueError("Farkle Frenzy needs 1-4 players, got %r" % (players,))
    if schedule != _RELAY and schedule != _LOCKSTEP:
        raise ValueError("schedule must be RELAY (0) or LOCKSTEP (1), got %r" % (schedule,))
    if ones != 300 and ones != 1000:
        raise ValueError("three 1s score 300 or 1000, got %r" % (ones,))
    g._t = 0 if ones == 300 else 42  # offset of the table in _PER_VALUE
    g.players = players
    g.schedule = schedule
    g.ones = ones
    g._dice = dice
    g.round = 1
    g.roller = 0
    g._next = 1 % players  # the seat whose turn it would be next round
    g.step = 0
    g.phase = _COMMON
    g.player = 0
    g.common = 0
    g.wild = 0
    g.rolled = bytearray(5)
    g.nrolled = 0
    g.totals = [0] * players
    g.round_scores = [0] * players
    g.round_raw = [0] * players  # last round before the 400 entry rule
    g.in_round = (1 << players) - 1
    g._rin = g.in_round  # seats the records belong to
    g.winner = -1
    g._recs = [bytearray() for _ in range(players)]
    g._st = bytearray(players)
    g._end = [0] * players
    g._by = bytearray(players)
    g.notes = []
    resolve(g._recs, g._rin, 0, g._st, g._end, g._by)

