"""Farkle Frenzy: the texts of the rarer overlays (riser-filled notice, the warning
before stopping below 400, the round summary, the winner).

Loaded by FrenzyScreen._sync only while one of these overlays is formatted and dropped
right after, so a game does not hold this code between rounds. Sets the screen's t_*
texts; ui.frenzy_draw draws them.
"""
from ui.screens import COLOURS

try:
    from micropython import const
except ImportError:
    def const(x):
        return x

# The views, as in ui.frenzy_screen.
_NOTICE = const(2)
_WARN = const(3)
_SUMMARY = const(4)


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
    elif v == _WARN:
        scr.t_ov[0] = "BELOW 400: COUNTS 0."
        scr.t_ov[1] = "STOP ANYWAY?"
        r = g.running(seat)
        scr.t_ov[2] = "ROUND SCORE %d" % (r * 2 if g.common == 7 else r)
    elif v == _SUMMARY:
        ov = scr.ov
        rows, cols, tot = _rows(scr)
        scr.t_ov[0] = "ROUND %d" % (ov[37] << 8 | ov[38])
        if ov[39] & 1:  # 2X doubled
            scr.t_ov[0] += "  2^ DOUBLED"
        for s in range(4):
            if s >= g.players:
                rows[s] = ""
                continue
            rows[s] = COLOURS[s]
            if not ov[40] >> s & 1:  # not in the round
                cols[s] = "-"
            else:
                c = g.round_scores[s]
                raw = g.round_raw[s]
                cols[s] = "+%d" % c if c or not raw else "%d<400" % raw
            tot[s] = str(g.totals[s])
        # A tie: the marked rows play one more round.
        scr.t_ov[1] = "TIE: ONE MORE ROUND" if ov[39] >> 4 else "OK"
    else:  # the winner
        rows, cols, tot = _rows(scr)
        w = g.winner
        scr.t_ov[1] = str(g.totals[w])
        k = 0
        for s in range(g.players):
            if s != w:
                rows[k] = COLOURS[s]
                tot[k] = str(g.totals[s])
                k += 1
        for s in range(k, 4):
            rows[s] = ""


def _rows(scr):
    """The table's texts (per row: colour, round score, total), made for the summary
    and the winner only: FrenzyScreen._sync() lets them go with the overlay."""
    rows = scr.t_rows = ["", "", "", ""]
    cols = scr.t_cols = ["", "", "", ""]
    tot = scr.t_tot = ["", "", "", ""]
    return rows, cols, tot
