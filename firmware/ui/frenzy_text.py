"""Farkle Frenzy: the texts of two rarer overlays, the riser-filled notice and the
warning before stopping below 400 (the round summary's and the winner's are in
ui.frenzy_table).

Loaded by FrenzyScreen._sync only while one of these overlays is formatted and dropped
right after, so a game does not hold this code. Sets the screen's t_ov texts;
ui.frenzy_draw draws them.
"""
from ui.screens import COLOURS

try:
    from micropython import const
except ImportError:
    def const(x):
        return x

_NOTICE = const(2)  # ui.frenzy_views.NOTICE (else WARN)


def run(scr, g, v, seat):
    if v == _NOTICE:
        ov = scr.ov
        i = ov[24]  # the notice shown; per notice: stopped seat << 4 | filling seat
        s = ov[25 + i] >> 4
        scr.t_ov[0] = "%s FILLED THE RISER:" % COLOURS[ov[25 + i] & 15]
        if s == scr.app.holder or g.players == 1:
            scr.t_ov[1] = "YOU STOP WITH"
        else:
            scr.t_ov[1] = "%s STOPS WITH" % COLOURS[s]
        j = 28 + 3 * i  # its total, 3 bytes
        scr.t_ov[2] = str(ov[j] << 16 | ov[j + 1] << 8 | ov[j + 2])
    else:  # WARN
        scr.t_ov[0] = "BELOW 400: COUNTS 0."
        scr.t_ov[1] = "STOP ANYWAY?"
        r = g.running(seat)
        scr.t_ov[2] = "ROUND SCORE %d" % (r * 2 if g.common == 7 else r)
