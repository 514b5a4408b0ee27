"""Farkle Frenzy: the texts of two rarer overlays, the riser-filled notice and the
warning before stopping below 400 (the round summary's and the winner's are in
ui.frenzy_table).

Loaded by FrenzyScreen._sync only while one of these overlays is formatted and dropped
right after, so a game does not hold this code. Sets the screen's overlay lines (t[_T_A..]);
ui.frenzy_draw draws them.
"""
from ui.screens import COLOURS

try:
    from micropython import const
except ImportError:
    def const(x):
        return x

_T_A = const(5)  # ui.frenzy_views.T_A
_T_B = const(6)  # ui.frenzy_views.T_B
_T_C = const(7)  # ui.frenzy_views.T_C

_NOTICE = const(2)  # ui.frenzy_views.NOTICE (else WARN)


def run(scr, g, v, seat):
    if v == _NOTICE:
        ov = scr.ov
        i = ov[24]  # the notice shown; per notice: stopped seat << 4 | filling seat
        s = ov[25 + i] >> 4
        scr.t[_T_A] = "%s FILLED THE RISER:" % COLOURS[ov[25 + i] & 15]
        if s == scr.app.holder or g.players == 1:
            scr.t[_T_B] = "YOU STOP WITH"
        else:
            scr.t[_T_B] = "%s STOPS WITH" % COLOURS[s]
        j = 28 + 3 * i  # its total, 3 bytes
        scr.t[_T_C] = str(ov[j] << 16 | ov[j + 1] << 8 | ov[j + 2])
    else:  # WARN
        scr.t[_T_A] = "BELOW 400: COUNTS 0."
        scr.t[_T_B] = "STOP ANYWAY?"
        r = g.running(seat)
        scr.t[_T_C] = "ROUND SCORE %d" % (r * 2 if g.common == 7 else r)
