"""Farkle Frenzy: the texts of the round summary and of the winner's overlay: the
table (per seat its colour, the round's score, the total) and the headline.

Loaded by FrenzyScreen._sync only while one of these overlays is formatted and dropped
right after (ui.frenzy_text has the other overlays' texts: each load is smaller).
FrenzyScreen._sync lets the table's texts go with the overlay.
"""
from ui.screens import COLOURS

try:
    from micropython import const
except ImportError:
    def const(x):
        return x

_T_A = const(5)  # ui.frenzy_views.T_A
_T_B = const(6)  # ui.frenzy_views.T_B

_SUMMARY = const(4)  # ui.frenzy_views.SUMMARY (else WINNER)


def run(scr, g, v, seat):
    if v == _SUMMARY:
        ov = scr.ov
        rows, cols, tot = _rows(scr)
        scr.t[_T_A] = "ROUND %d" % (ov[37] << 8 | ov[38])
        if ov[39] & 1:  # 2X doubled
            scr.t[_T_A] += "  2^ DOUBLED"
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
        scr.t[_T_B] = "TIE: ONE MORE ROUND" if ov[39] >> 4 else "OK"
    else:  # the winner
        rows, cols, tot = _rows(scr)
        w = g.winner
        scr.t[_T_B] = str(g.totals[w])
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
