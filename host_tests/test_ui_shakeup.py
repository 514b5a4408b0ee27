# portable: runs under MicroPython too
"""Shake Up played through the App by buttons and shakes, checked against the core.

An autopilot reads the current screen, picks a decision among the shadow game's
legal ones, and reaches it with button presses (or a shake). After every decision
the screen's game must equal a shadow core game given the same decisions and dice:
so every choice the screen offered was legal and mapped to the intended decision.
"""
from core import games
import ui_rig
from core import shakeup as su
from shakeup_pilot import Pilot, start_game

OK = ui_rig.OK
NEXT = ui_rig.NEXT
PREV = ui_rig.PREV


def play_through(players, seed):
    r = ui_rig.Rig("su%d" % players, seed=seed)
    start_game(r, players)
    p = Pilot(r, seed + 100)
    winner = p.play()
    sh = p.shadow
    assert sh.phase == su.OVER and sh.winner == winner
    assert sh.count(winner, su.SAFE) == 5
    # The winner screen names the core's winner, the game is no longer saved, and
    # the stats counted it.
    assert r.app.screen.seat == winner
    assert not r.app.store.has_game()
    from system import store
    st = r.app.store.load_stats()
    assert store.stat(st, games.ST_SU_GAMES) == 1
    assert store.stat(st, games.ST_SU_WINS + winner) == 1
    r.wait(700)
    r.press(NEXT)                    # MENU (REMATCH comes first)
    ui_rig.assert_full_frame(r)      # the choices redrawn alone
    r.press(PREV)
    ui_rig.assert_full_frame(r)
    r.press(NEXT)
    r.press(OK)
    assert r.screen == "menu"
    return p.decisions


def test_shakeup_two_players_to_the_winner():
    assert play_through(2, 7) > 20


def test_shakeup_four_players_to_the_winner():
    assert play_through(4, 11) > 40
