"""Farkle Frenzy: setting up the game screen (FrenzyScreen.__init__), and for Continue
restoring its view from the ui bytes FrenzyScreen._pack() wrote. Loaded once when the
screen is made, then dropped (core.frenzy._aside): a game does not hold this code.
The attributes are described in ui.frenzy_screen (FrenzyScreen's annotations).
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
_UI_VERSION = const(1)
_QMAX = const(6)
_NMAX = const(3)
_NOTICE = const(2)
_WINNER = const(5)
_OVER = const(5)         # core.frenzy.OVER


def run(scr, app, game, ui):
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
    scr.t_head = scr.t_sheet = scr.t_run = scr.t_pts = scr.t_info = ""
    scr.t_ov = ["", "", ""]
    scr.t_rows = scr.t_cols = scr.t_tot = ()  # made by ui.frenzy_text when shown
    if ui:
        _resume(scr, ui)


def _resume(scr, b):
    """Bytes of another layout (an older firmware) are ignored: the game keeps its
    plain play view and the dice as the core has them."""
    ok = len(b) == _UI_LEN and b[0] == _UI_VERSION and b[1] <= _WINNER \
        and b[2] <= _QMAX and b[18] <= 5 and b[23] <= _NMAX
    for i in range(_QMAX):
        ok = ok and b[3 + i] <= _WINNER
    if not ok:
        return
    # scr.ov keeps its bytes at these same offsets.
    ov = scr.ov
    ov[:_UI_LEN] = b
    scr.view = b[1]
    scr.cur = b[9]
    scr.mask = b[10] & 0x3F
    scr.wildv = b[11] if 1 <= b[11] <= 6 else 1
    ov[12] &= 0x3F  # the mask set aside
    ov[19] &= 3  # the seat that farkled (its lost points follow, 3 bytes)
    if b[24] >= b[23]:
        ov[24] = 0  # the notice shown
    for i in range(_NMAX):
        ov[25 + i] &= 0x33  # stopped seat << 4 | filling seat
    ov[39] &= 0xF1  # 2X doubled; high nibble: seats playing a tie round next
    if scr.view == _WINNER and scr.game.phase != _OVER:
        scr.view = 0  # PLAY
    if scr.view == _NOTICE and not b[23]:
        scr.view = 0
    if scr.view == _WINNER:
        # The grace before OK leaves starts again.
        ov[44:48] = min(scr.app.now, 0xFFFFFFFF).to_bytes(4, "big")
