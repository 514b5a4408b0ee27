"""The games the device plays: one row per game, read by the menu, the launch, the store
and the stats screen. A third game adds its row here (and its entry point in ui.launch).

A game's kind is its code everywhere (the saved game, the stats, app.go); its stats are
counters in the stats record (store.STATS_LEN bytes, 4 each): games finished, wins per
seat (four counters from WINS), and for Frenzy its best round and best total. NONE marks
a counter a game does not keep.

`game(kind)` is the row, or a ValueError for a kind no game has; a row is (kind, title,
fewest players, most players, modules, games slot, wins slot, best-round slot, best-total
slot, loader). The modules are the game's own, which the app forgets when the game is
left; the loader (one of them: the saved game's checks, Continue only) is forgotten as
soon as it restored the game.
"""
from micropython import const

SHAKEUP = const(1)
FRENZY = const(2)

# Stats counters (index into the record, 4 bytes each).
ST_SU_GAMES = const(0)    # Shake Up games finished
ST_FF_GAMES = const(1)    # Farkle Frenzy games finished
ST_SU_WINS = const(2)     # + seat (0-3): Shake Up wins per colour
ST_FF_WINS = const(6)     # + seat (0-3): Frenzy wins per colour
ST_FF_BEST = const(10)    # best Frenzy round score
ST_FF_HIGH = const(11)    # best Frenzy final total
# (16-27: store.ST_CPU's counters of the games against CPUs)
ST_FF_SOLO = const(28)    # the fewest rounds a solo Frenzy game took to 10,000 (0: none)
ST_LINK_GAMES = const(29)  # linked games finished on this handheld (docs/link.md)
ST_LINK_WINS = const(30)   # of them, won by this handheld's seat
ST_LINK_LAST = const(31)   # the last one counted: its game id + 1 (0: none), so once
NONE = const(255)

# Row fields.
KIND = const(0)
TITLE = const(1)
FEWEST = const(2)
MOST = const(3)
MODULES = const(4)
GAMES = const(5)
WINS = const(6)
BEST = const(7)
HIGH = const(8)
LOADER = const(9)

GAMES_TABLE = (
    (SHAKEUP, "SHAKE UP", 2, 4,
     ("core.shakeup", "core.shakeup_why", "core.shakeup_load", "ui.shakeup_screen"),
     ST_SU_GAMES, ST_SU_WINS, NONE, NONE, "core.shakeup_load"),
    (FRENZY, "FARKLE FRENZY", 1, 4,
     ("core.frenzy", "core.frenzy_score", "core.frenzy_why", "core.frenzy_load",
      "ui.frenzy_screen", "ui.frenzy_tables"),
     ST_FF_GAMES, ST_FF_WINS, ST_FF_BEST, ST_FF_HIGH, "core.frenzy_load"),
)


def game(kind):
    """The row of the game of this kind; ValueError for a kind no game has."""
    for row in GAMES_TABLE:
        if row[KIND] == kind:
            return row
    raise ValueError("unknown game kind %r" % (kind,))
