# portable: runs under MicroPython too
"""The game registry (core.games) and the app's forgetting of modules: what the menu,
the launch, the store and the stats read, and an unknown kind as a clear error."""
import sys

import ui_rig
from core import games

from system import store


def _exists(module):
    """Whether firmware/ holds the module (paths from the repository's root: the
    working directory of pytest and of tools/check/mptest.py)."""
    try:
        open("firmware/" + module.replace(".", "/") + ".py").close()
        return True
    except OSError:
        return False


def test_every_row_is_whole_and_apart():
    kinds = []
    slots = []
    for row in games.GAMES_TABLE:
        kind = row[games.KIND]
        assert games.game(kind) is row
        kinds.append(kind)
        assert 1 <= row[games.FEWEST] <= row[games.MOST] <= 4
        assert row[games.TITLE] and row[games.TITLE] == row[games.TITLE].upper()
        for m in row[games.MODULES]:
            assert _exists(m), m
        # Stats: games, four wins, and the bests a game keeps, inside the record.
        mine = [row[games.GAMES]] + [row[games.WINS] + s for s in range(4)]
        mine += [i for i in (row[games.BEST], row[games.HIGH]) if i != games.NONE]
        for i in mine:
            assert 0 <= i < store.STATS_N
        slots += mine
    assert len(set(kinds)) == len(kinds) and 0 not in kinds  # 0: no game
    assert len(set(slots)) == len(slots), "two games count in one slot"


def test_an_unknown_kind_is_a_clear_error():
    try:
        games.game(3)
    except ValueError as e:
        assert "unknown game kind 3" in str(e)
    else:
        raise AssertionError("no error")
    r = ui_rig.Rig("reg_launch")
    from ui.launch import launch
    try:
        launch(r.app, 3 << 4 | 2)  # a new game of a kind no game has
    except ValueError as e:
        assert "unknown game kind 3" in str(e)
    else:
        raise AssertionError("an unknown kind ran as a game")


def test_the_stats_count_in_the_registry_slots():
    ba = bytearray(store.STATS_LEN)
    store.record_game(ba, games.FRENZY, 2, 1500, 10450)
    row = games.game(games.FRENZY)
    assert store.stat(ba, row[games.GAMES]) == 1
    assert store.stat(ba, row[games.WINS] + 2) == 1
    assert store.stat(ba, row[games.BEST]) == 1500
    assert store.stat(ba, row[games.HIGH]) == 10450
    store.record_game(ba, games.SHAKEUP, 0)
    su = games.game(games.SHAKEUP)
    assert store.stat(ba, su[games.GAMES]) == 1 and store.stat(ba, su[games.WINS]) == 1
    assert store.stat(ba, row[games.GAMES]) == 1  # the other game's count stays


def test_the_menu_offers_every_game_of_the_registry():
    r = ui_rig.Rig("reg_menu")
    r.wait(1500)
    scr = r.app.screen
    assert scr.NAME == "menu"
    for row in games.GAMES_TABLE:
        assert row[games.TITLE] in scr.items


def test_forget_drops_a_module_and_its_package_attribute():
    import app
    from core import games as g  # noqa: F401 (loaded, an attribute of core)
    import core
    assert "core.games" in sys.modules and hasattr(core, "games")
    app.forget(("core.games", "core.not_loaded"))
    assert "core.games" not in sys.modules and "games" not in core.__dict__
    from core import games as again
    assert again.game(games.SHAKEUP)[games.TITLE] == "SHAKE UP"
