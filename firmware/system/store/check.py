"""Whether a settings or stats file holds values play can give (store.py reads the files
and sets a damaged one aside). Read at boot, and by the stats screen: the app forgets
this module after each.
"""
from core.games import BEST, GAMES, GAMES_TABLE, HIGH, ST_LINK_GAMES, ST_LINK_LAST, \
    ST_LINK_WINS, WINS
from system.store import SETTINGS_LEN, ST_CPU, STATS_N

from micropython import const

# Per settings index, the range (a value out of it gets the default).
_SET_MIN = b"\x00\x00\x00\x00\x00\x01\x00\x00\x00\x00\x00\x00\x02\x00\x01\x00"
_SET_MAX = b"\x01\xff\x01\x01\x01\x05\x01\xff\xff\xff\xff\xff\x04\xff\x04\xff"
_HIGH_MAX = const(838860750)  # the most a total can be: core.frenzy.TOTAL_MAX


def settings_in_range(ba, p):
    """Take the saved settings p into ba (the defaults) where each is in its range; an
    older, shorter file leaves the rest at their defaults."""
    for i in range(min(len(p), SETTINGS_LEN)):
        if _SET_MIN[i] <= p[i] <= _SET_MAX[i]:
            ba[i] = p[i]


def _stat(p, i):
    return int.from_bytes(p[i * 4:i * 4 + 4], "little")


def stats_ok(p):
    """Whether the counters are ones play can give: each at most store.stat_set()'s
    2**31 - 1, per game no more wins than games, and a best total (a multiple of 50, at
    most _HIGH_MAX) no smaller than the best round, both 0 before a game was finished;
    against CPUs, no more games a human won than games; linked, no more wins than
    games, and a last game id (+ 1) only once one was counted."""
    for i in range(3, len(p), 4):
        if p[i] & 0x80:
            return False
    for i in range(ST_CPU, min(len(p) >> 2, ST_CPU + 12), 2):
        if _stat(p, i + 1) > _stat(p, i):
            return False
    if _stat(p, ST_LINK_WINS) > _stat(p, ST_LINK_GAMES) or _stat(p, ST_LINK_LAST) > 0x10000 \
            or (_stat(p, ST_LINK_LAST) and not _stat(p, ST_LINK_GAMES)):
        return False
    for row in GAMES_TABLE:
        played = _stat(p, row[GAMES])
        wins = 0
        for s in range(4):
            wins += _stat(p, row[WINS] + s)
        if wins > played:
            return False
        if row[HIGH] < STATS_N:
            high = _stat(p, row[HIGH])
            if high % 50 or high > _HIGH_MAX or (high and not played) \
                    or (row[BEST] < STATS_N and _stat(p, row[BEST]) > high):
                return False
    return True
