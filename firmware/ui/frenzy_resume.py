"""Farkle Frenzy: restoring the screen's view from the ui bytes FrenzyScreen._pack()
wrote (Continue). Loaded once when a saved game is resumed, after ui.frenzy_start set
the screen up, then dropped.
"""
try:
    from micropython import const
except ImportError:
    def const(x):
        return x

_UI_LEN = const(44)      # as in ui.frenzy_screen
_UI_VERSION = const(1)
_QMAX = const(6)
_NMAX = const(3)
_NOTICE = const(2)       # ui.frenzy_views.NOTICE
_WINNER = const(5)       # ui.frenzy_views.WINNER
_OVER = const(5)         # core.frenzy_names.OVER


def run(scr, b):
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
