"""Farkle Frenzy: setting up the game screen (FrenzyScreen.__init__; for Continue
ui.frenzy_resume then restores the view). Loaded once when the screen is made, then
dropped (core.frenzy._aside): a game does not hold this code. The attributes are
described in ui.frenzy_screen (FrenzyScreen's annotations).
"""
from ui import screens

try:
    from micropython import const
except ImportError:
    def const(x):
        return x

_UI_LEN = const(44)      # as in ui.frenzy_screen
_DICE = const(13)
_ND = const(18)


def run(scr, app, game):
    screens.Screen.__init__(scr, app)
    scr.game = game
    scr.view = 0  # PLAY
    scr.items = bytearray(8)
    scr.nitems = 0
    scr.cur = 0
    scr.mask = 0
    scr.wildv = 1
    scr.ok_take = bytearray(64)
    scr.roll_on = False
    # The dice row as shown is a snapshot, so overlays keep the roll they are about
    # (the core keeps the dice past nrolled at 0).
    ov = scr.ov = bytearray(_UI_LEN + 4)
    ov[_DICE:_DICE + 5] = game.rolled
    ov[_ND] = game.nrolled
    # Text, formatted when the state changes (never while drawing).
    scr.t = ["", "", "", "", "", "", "", ""]  # the play view's texts, an overlay's lines
    scr.t_rows = scr.t_cols = scr.t_tot = ()  # made by ui.frenzy_table when shown
